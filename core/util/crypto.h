/*
 * crypto.h: SHA-256 and HMAC-SHA256. The hash is OpenSSL's libcrypto (its
 * low-level SHA-256); HMAC is RFC 2104's two-hash construction over it,
 * checked against RFC 4231's vectors (tests/unit/test_util.c). No cipher,
 * no key schedule, nothing else of our own.
 */
#ifndef INFRAGATE_UTIL_CRYPTO_H
#define INFRAGATE_UTIL_CRYPTO_H

#include <stddef.h>

#define CRYPTO_SHA256_LEN 32

/* SHA-256 of data[0..len) into out. Returns 0, or -1 when the library fails. */
int crypto_sha256(const void *data, size_t len,
		  unsigned char out[CRYPTO_SHA256_LEN]);

/* HMAC-SHA256 of data under key. Returns 0 or -1. */
int crypto_hmac_sha256(const void *key, size_t keylen, const void *data,
		       size_t len, unsigned char out[CRYPTO_SHA256_LEN]);

/* Lower-case hex of 'len' bytes into out (2 * len + 1 bytes). */
void crypto_hex(const unsigned char *bytes, size_t len, char *out);

/* Compare two byte strings in time independent of where they differ. */
int crypto_equal(const void *a, const void *b, size_t len);

#endif
