/*
 * utf8.h: UTF-8 decoding and checks, shared by the loader, the regex
 * wrapper, schemas (lengths in code points) and reporters.
 */
#ifndef INFRAGATE_UTIL_UTF8_H
#define INFRAGATE_UTIL_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Decode one character at s[0..len): returns its byte length (1-4) and sets
 * *cp, or 0 when the bytes are not well-formed UTF-8 (overlong forms,
 * surrogates and values above U+10FFFF included). */
size_t utf8_decode(const unsigned char *s, size_t len, uint32_t *cp);

/* Whether s[0..len) is well-formed UTF-8; on failure *bad is the byte offset
 * of the first bad sequence. */
int utf8_valid(const char *s, size_t len, size_t *bad);

/* Number of code points in well-formed s[0..len). */
size_t utf8_count(const char *s, size_t len);

/* Encode 'cp' into out (4 bytes); returns the length, 0 for a surrogate or a
 * value above U+10FFFF. */
size_t utf8_encode(uint32_t cp, char out[4]);

/* The byte length of the longest prefix of s (well-formed) that holds at most
 * 'max' bytes and ends on a character boundary. */
size_t utf8_cut(const char *s, size_t len, size_t max);

#endif
