/*
 * crypto.h: SHA-256 and HMAC-SHA256 through OpenSSL's libcrypto. We do not
 * write our own cryptography; this file only adapts the library's API.
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
