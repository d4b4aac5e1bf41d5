/* numconv_exact.h: the test's oracle of num_format's digits, see numconv_exact.c. */
#ifndef TAGK_NUMCONV_EXACT_H
#define TAGK_NUMCONV_EXACT_H
#include <stdint.h>

/* |x| as digits (no trailing zero) times 10^exp10, the shortest decimal in
 * x's rounding interval and of those the nearest; 0, or -1 when |x| is
 * outside [1e-11, 1e17) or the search gives up (then num_format used the C
 * library). */
int numconv_exact_shortest(double x, uint64_t *digits, int *exp10);
#endif
