/*
 * seed_words.h: a decimal integer of any length as little-endian 32-bit
 * words. Both shared generators seed from such words: CPython's random
 * (init_by_array of |seed|) and NumPy's SeedSequence (its entropy).
 */
#ifndef INFRAGATE_MODELS_SEED_WORDS_H
#define INFRAGATE_MODELS_SEED_WORDS_H

#include <stddef.h>
#include <stdint.h>

/* 4300 decimal digits (CPython's int-parsing limit) need at most 447
 * words; the cap leaves room. */
#define SEED_WORDS_MAX 460

/*
 * Parses an optional sign (a '-' only when allow_minus: the magnitude is
 * kept) and one or more decimal digits into key[SEED_WORDS_MAX]; *n gets the
 * word count without high zero words (at least 1). Returns 0, or -1 for an
 * empty string, a stray character or a number too large.
 */
int seed_words_from_decimal(const char *dec, int allow_minus,
			    uint32_t key[SEED_WORDS_MAX], size_t *n);

#endif
