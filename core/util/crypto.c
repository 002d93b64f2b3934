/*
 * crypto.c: the one place that includes OpenSSL. SHA-256 comes from
 * libcrypto's low-level SHA-256 functions and HMAC (RFC 2104) is built on
 * them here: the EVP interface would link OpenSSL's whole provider
 * machinery into the static binary, whose 19,000 load-time relocations
 * every run of every program paid for, for two digests only promotion
 * needs. Digests are one-shot; key material is wiped before returning.
 */
#include "core/util/crypto.h"

/* SHA256_Init and friends are deprecated in OpenSSL 3 in favour of EVP;
 * they remain supported, and are what keeps the binary small. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/crypto.h>
#include <openssl/sha.h>

#include <string.h>

#define SHA256_BLOCK 64

/* (SHA256(), the one-shot, goes through EVP in OpenSSL 3.) */
int crypto_sha256(const void *data, size_t len,
		  unsigned char out[CRYPTO_SHA256_LEN])
{
	SHA256_CTX c;
	int ok = SHA256_Init(&c) && SHA256_Update(&c, data, len) && SHA256_Final(out, &c);

	OPENSSL_cleanse(&c, sizeof c);
	return ok ? 0 : -1;
}

int crypto_hmac_sha256(const void *key, size_t keylen, const void *data,
		       size_t len, unsigned char out[CRYPTO_SHA256_LEN])
{
	unsigned char k[SHA256_BLOCK], pad[SHA256_BLOCK], inner[CRYPTO_SHA256_LEN];
	SHA256_CTX c;
	size_t i;
	int ok;

	/* A key longer than a block is replaced by its digest (RFC 2104 2). */
	memset(k, 0, sizeof k);
	if (keylen > SHA256_BLOCK) {
		if (crypto_sha256(key, keylen, k) < 0)
			return -1;
	} else if (keylen) {
		memcpy(k, key, keylen);
	}
	for (i = 0; i < SHA256_BLOCK; i++)
		pad[i] = (unsigned char)(k[i] ^ 0x36);
	ok = SHA256_Init(&c) && SHA256_Update(&c, pad, sizeof pad) &&
	     SHA256_Update(&c, data, len) && SHA256_Final(inner, &c);
	for (i = 0; i < SHA256_BLOCK; i++)
		pad[i] = (unsigned char)(k[i] ^ 0x5c);
	ok = ok && SHA256_Init(&c) && SHA256_Update(&c, pad, sizeof pad) &&
	     SHA256_Update(&c, inner, sizeof inner) && SHA256_Final(out, &c);
	OPENSSL_cleanse(k, sizeof k);
	OPENSSL_cleanse(pad, sizeof pad);
	OPENSSL_cleanse(inner, sizeof inner);
	OPENSSL_cleanse(&c, sizeof c);
	return ok ? 0 : -1;
}

void crypto_hex(const unsigned char *bytes, size_t len, char *out)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = hex[bytes[i] >> 4];
		out[2 * i + 1] = hex[bytes[i] & 15];
	}
	out[2 * len] = '\0';
}

int crypto_equal(const void *a, const void *b, size_t len)
{
	const unsigned char *x = a, *y = b;
	unsigned char d = 0;
	size_t i;

	for (i = 0; i < len; i++)
		d |= (unsigned char)(x[i] ^ y[i]);
	return d == 0;
}
