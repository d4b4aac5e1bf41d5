/*
 * outlier.h: the innovation gate of the RLS and KF estimators, which refuses
 * an update whose prediction error lies far outside what the filter predicts.
 *
 * For a window (A, b) with prediction error e = b - A theta and a step
 * g = P- A^T S^-1 e, where S = A P- A^T + r I (KF: r the measurement noise;
 * RLS: r = lambda, unit noise), the identity A g = e - r S^-1 e gives the
 * normalized innovation squared without S:
 *
 *   d^2 = e^T S^-1 e = e^T (e - A g) / r,
 *
 * chi-squared with m degrees of freedom when the model holds. The gate
 * compares d^2 / m with limit * max(scale, floor), where scale is a running
 * mean of d^2 / m over accepted updates: data whose residuals are larger
 * than the filter's nominal noise raise the scale instead of being refused,
 * and only a gross outlier, limit times the usual spread (a 1000-sigma
 * error for the default limit 1e6), is refused. The floor is the d^2 / m
 * that residuals of 1 % of the rows' RMS size would give (b^T b / (r m)
 * times 1e-4, as a running mean too), so that nearly noise-free data
 * (a simulation) do not make every small change an outlier. Both are the
 * data's own: the first TAGK_OUTLIER_WARMUP updates with a finite d^2 are
 * accepted and set them (their mean), then they follow running means of
 * weight 1/16. So the gate's decisions do not depend on the data's units:
 * rows all multiplied by 1e12 or 1e-12 meet the same ones. A non-finite d^2
 * (an error whose square overflows) is always refused. After TAGK_OUTLIER_RUN
 * refusals in a row of finite d^2, the next window is accepted and the scale
 * restarts from it: the data's spread has changed (or was never near the
 * nominal one, as for data in small units), and the gate follows it rather
 * than refuse for ever. limit 0 disables the gate.
 */
#ifndef TAGK_OUTLIER_H
#define TAGK_OUTLIER_H

#include "scalar.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TAGK_OUTLIER_DEFAULT 1e6
#define TAGK_OUTLIER_RUN 16
#define TAGK_OUTLIER_WARMUP 4

typedef struct {
	tagk_real limit; /* 0: off */
	tagk_real scale; /* running mean of d^2 / m over accepted updates */
	tagk_real rows;  /* running mean of b^T b / (r m) over accepted updates */
	int run;         /* finite refusals in a row */
	long accepted;   /* updates accepted, for the warm-up */
} tagk_outlier;

void tagk_outlier_init(tagk_outlier *gt, tagk_real limit);
/* d^2 / m for the window A (m x n), error e (m), step g (n) and noise r. */
tagk_real tagk_outlier_nis(int m, int n, const tagk_real *A, const tagk_real *e,
    const tagk_real *g, tagk_real r);
/* b^T b / (r m): the rows' own size in the units of d^2 / m. */
tagk_real tagk_outlier_rows(int m, const tagk_real *b, tagk_real r);
/* TAGK_OK if nis passes, TAGK_EOUTLIER if not (counted in run). */
tagk_status tagk_outlier_check(tagk_outlier *gt, tagk_real nis);
/* Record an accepted update's nis and rows (tagk_outlier_rows) in the
 * running means (after a run of refusals, restart them from it). */
void tagk_outlier_accept(tagk_outlier *gt, tagk_real nis, tagk_real rows);
/* The running mean of d^2 / m: about 1 when the filter's noise settings
 * fit the data, far above 1 when its residuals are larger than those
 * settings assume; NaN before the first accepted update. */
tagk_real tagk_outlier_scale(const tagk_outlier *gt);

#ifdef __cplusplus
}
#endif

#endif
