/*
 * seed_words.c: decimal text to base-2^32 words, by schoolbook
 * multiply-and-add (seeds are short; no need for anything faster).
 */
#include "core/models/seed_words.h"

#include <string.h>

int seed_words_from_decimal(const char *dec, int allow_minus,
			    uint32_t key[SEED_WORDS_MAX], size_t *n)
{
	const char *p = dec;
	size_t used = 1, i;

	if (*p == '+' || (allow_minus && *p == '-'))
		p++;
	if (!*p)
		return -1;
	memset(key, 0, SEED_WORDS_MAX * sizeof key[0]);
	for (; *p; p++) {
		uint64_t carry;

		if (*p < '0' || *p > '9')
			return -1;
		carry = (uint64_t)(*p - '0');
		/* key = key * 10 + digit, in base 2^32. */
		for (i = 0; i < used; i++) {
			uint64_t v = (uint64_t)key[i] * 10 + carry;

			key[i] = (uint32_t)v;
			carry = v >> 32;
		}
		if (carry) {
			if (used == SEED_WORDS_MAX)
				return -1;
			key[used++] = (uint32_t)carry;
		}
	}
	while (used > 1 && key[used - 1] == 0)
		used--;
	*n = used;
	return 0;
}
