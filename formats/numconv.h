/*
 * numconv.h: exact and fast conversion between doubles and decimal text.
 *
 * num_format writes the shortest decimal that reads back as exactly x (as
 * Python's repr and Ryu do), in %g-like style: scientific notation when the
 * decimal exponent is below -4 or at least 16. num_parse reads a decimal
 * number exactly as strtod would (correct rounding). Both go through a
 * maintained library for the common ranges (fmt's Dragonbox, fast_float,
 * behind C shims) and fall back to the C library otherwise; the tests
 * compare them with snprintf/strtod, and num_format with the exact search
 * it used before Dragonbox, on millions of random and edge-case values.
 *
 * A CSV cell's number takes at most four steps, each said where it is:
 *   1. csv_fast.c's cached_cell: the column's last text again, no parse;
 *   2. num_parse_pad (C++, numconv_ff.cpp): the shape nearly every logged
 *      number has, scanned 32 bytes at once, converted by fast_float's
 *      own two steps; any other shape goes on to num_parse_ff there;
 *   3. csv_in.c's data_cell -> num_parse (C): what fast_float refuses to
 *      read as a finite nonzero double (zero, '+', "nan", "inf", a word,
 *      more than 31 bytes), and libcsv's cells; num_parse asks
 *      num_parse_ff first (a second scan for the fast path's leftovers:
 *      rare, as repeated cells stop at step 1), then its own paths;
 *   4. slow_parse (strtod): more than 19 significant digits, words, and
 *      the rare decimal the exact paths cannot round.
 * The C -> C++ -> C hops are function calls through extern "C": fast_float
 * is a C++ header library, and the decisions about what a number means for
 * tagk (an underflow refused, not read as 0) stay in C, in numconv.c.
 */
#ifndef TAGK_NUMCONV_H
#define TAGK_NUMCONV_H

#include <stddef.h>
#include <stdint.h>

/* buf must hold 32 bytes; returns the length written (NUL-terminated). */
int num_format(char *buf, double x);
/* Parse all of s[0..len) (no surrounding spaces) as a decimal number,
 * "nan", "inf" or "infinity" (any case, optional sign). Returns 0 and sets
 * *out, or -1 if s is not a number. Overflowing decimals give +-Inf.
 * A nonzero decimal too small for a double's subnormal range (1e-400) gives
 * NUM_UNDERFLOW and leaves *out alone: silently reading it as 0 would turn a
 * measurement into something else. Subnormal results are exact decimals of
 * what %.17g writes and are returned as they are. */
enum { NUM_UNDERFLOW = -2 };
int num_parse(const char *s, size_t len, double *out);
/* num_parse's first path alone (fast_float, numconv_ff.cpp), for callers
 * with a cheaper fallback of their own: 0 and *out for a decimal it reads
 * whole into a finite nonzero double, else -1 (then ask num_parse). */
int num_parse_ff(const char *s, size_t len, double *out);
/* num_parse_ff for a caller whose text has readable bytes around it:
 * s[-16..48) readable whatever len (< 32 for the fast path; the bytes
 * outside s[0..len) are read and ignored). The same result, bit for bit,
 * with the digits found and read sixteen at a time. */
int num_parse_pad(const char *s, size_t len, double *out);
/* num_parse_pad for a caller that has classified s's bytes already: bit k
 * of digits set where s[k] is a decimal digit, of nonzero where it is one
 * of '1'..'9', for every k < len (bits at len and above are ignored).
 * The CSV reader finds them for a whole line at once. */
int num_parse_bits(const char *s, size_t len, uint32_t digits, uint32_t nonzero, double *out);
/* fast_float's from_chars over [s, e) and nothing else (no shape, range or
 * end check): where it stopped, the value in *out. Not for reading data:
 * tagk-bench io-floor's yardstick of what the library alone costs. */
const char *num_from_chars(const char *s, const char *e, double *out);
/* io-floor's whole line in one pass: fields of [s, e) read by from_chars
 * where the last one stopped, while a comma follows, into v[0..*n) (at
 * most max; a field from_chars refuses is 0 and ends the line's reading):
 * where the reading stopped (the line's end, for a line of numbers). */
const char *num_fields_from_chars(const char *s, const char *e, double *v, int max, int *n);

#endif
