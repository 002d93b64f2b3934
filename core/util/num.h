/*
 * num.h: numbers as Python writes and reads them. JSON output, messages and
 * the option parser all go through here, so a figure prints the same
 * everywhere (shortest round trip, as Python's repr) and text is read with
 * one grammar. The program never calls setlocale(), so the C library's
 * conversions run in the "C" locale whatever LC_ALL says.
 */
#ifndef INFRAGATE_UTIL_NUM_H
#define INFRAGATE_UTIL_NUM_H

#include <stddef.h>
#include <stdint.h>

#define NUM_REPR_MAX 32

/* Write Python's repr() of 'x' into 'out' (NUM_REPR_MAX bytes): the shortest
 * text that reads back to the same double, "10.0", "1e-05", "1e+16",
 * "-0.0", "inf", "-inf", "nan". Returns the length. */
size_t num_repr(double x, char out[NUM_REPR_MAX]);

/* Write an int64 in decimal. Returns the length. */
size_t num_int(int64_t v, char out[NUM_REPR_MAX]);

/* Python float(text) over ASCII: optional surrounding whitespace, a sign,
 * digits with single '_' between digits, a fraction, an exponent with or
 * without sign, or inf/infinity/nan in any case. 'underscores' allows '_'.
 * Returns 0 and sets *out, or -1 when the text is not such a number. */
int num_parse_pyfloat(const char *s, size_t len, int underscores, double *out);

/* Python int(text) in base 10: whitespace around, a sign, digits with single
 * '_' between digits, leading zeros allowed. Returns 0, -1 (not a number)
 * or -2 (outside int64). */
int num_parse_pyint(const char *s, size_t len, int64_t *out);

/* The same grammar, any size up to 4300 digits: writes the canonical decimal
 * text (no '+', no leading zeros, "-0" is "0") into 'out' of 'size' bytes.
 * Returns 0, -1 (not a number) or -2 (too long). */
int num_parse_bigint(const char *s, size_t len, char *out, size_t size);

/* Python round(x, ndigits) for a float: correctly rounded, ties to even on the
 * exact binary value. */
double num_round(double x, int ndigits);

/* Python's "%.Nf" % x: correctly rounded on the exact binary value. Writes
 * into 'out' of 'size' bytes, returns the length (or the length needed). */
size_t num_fixed(double x, int decimals, char *out, size_t size);

/* Exact comparison of an int64 with a double, as mathematical values:
 * returns <0, 0 or >0. NaN compares as unordered: returns 2. */
int num_cmp_int_double(int64_t i, double d);

#endif
