/*
 * crypto.c: the one place that includes OpenSSL (only <openssl/evp.h> and
 * <openssl/hmac.h>). Digests are one-shot; no key material is kept.
 */
#include "core/util/crypto.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

int crypto_sha256(const void *data, size_t len,
		  unsigned char out[CRYPTO_SHA256_LEN])
{
	unsigned int n = 0;

	if (EVP_Digest(data, len, out, &n, EVP_sha256(), NULL) != 1 ||
	    n != CRYPTO_SHA256_LEN)
		return -1;
	return 0;
}

int crypto_hmac_sha256(const void *key, size_t keylen, const void *data,
		       size_t len, unsigned char out[CRYPTO_SHA256_LEN])
{
	unsigned int n = 0;
	static const unsigned char empty = 0;

	if (keylen > 0x7fffffff)
		return -1;
	if (!HMAC(EVP_sha256(), keylen ? key : &empty, (int)keylen,
		  data, len, out, &n) || n != CRYPTO_SHA256_LEN)
		return -1;
	return 0;
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
