/*
 * fitcheck.h: how well a stream of windows is predicted, for a front end's
 * note that the data are mostly noise for the method run on them.
 *
 * Before each update, the window (A, b) is predicted by the estimate the
 * method holds: the relative prediction error ||b - A theta||^2 / ||b||^2
 * is 1 or more when the estimate explains nothing of b, and near 0 when it
 * explains b to within its noise. Its median over the stream is robust to
 * the transients after a payload event and at the start. The values are
 * kept in a histogram of 0.1 decade bins from 1e-12 to 1e4, so the median
 * is good to a factor of 10^0.1 and the memory is fixed.
 */
#ifndef TAGK_FITCHECK_H
#define TAGK_FITCHECK_H

#include <stdint.h>
#include "scalar.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TAGK_FITCHECK_BINS = 160 };

typedef struct {
	long n;                              /* windows counted */
	uint32_t bin[TAGK_FITCHECK_BINS];    /* log10 of the ratio in [-12, 4) by 0.1 */
} tagk_fitcheck;

void tagk_fitcheck_init(tagk_fitcheck *f);
/* Count the window A (m x n, row-major), b (m) predicted by theta (n); a
 * window with b = 0 or a value that is not finite is not counted. */
void tagk_fitcheck_add(tagk_fitcheck *f, int m, int n, const tagk_real *A, const tagk_real *b,
    const tagk_real *theta);
/* The median relative prediction error ||b - A theta||^2 / ||b||^2 (to a
 * factor of 10^0.1), or NaN when nothing was counted. */
tagk_real tagk_fitcheck_median(const tagk_fitcheck *f);

#ifdef __cplusplus
}
#endif

#endif
