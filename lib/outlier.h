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
 * compares d^2 / m with limit * max(1, scale), where scale is a running
 * mean (weight 1/16) of d^2 / m over accepted updates: data whose residuals
 * are larger than the filter's nominal noise raise the scale instead of
 * being refused, and only a gross outlier, limit times the usual spread (a
 * 1000-sigma error for the default limit 1e6), is refused. A non-finite d^2
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

typedef struct {
	tagk_real limit; /* 0: off */
	tagk_real scale; /* running mean of d^2 / m over accepted updates, from 1 */
	int run;         /* finite refusals in a row */
} tagk_outlier;

void tagk_outlier_init(tagk_outlier *gt, tagk_real limit);
/* d^2 / m for the window A (m x n), error e (m), step g (n) and noise r. */
tagk_real tagk_outlier_nis(int m, int n, const tagk_real *A, const tagk_real *e,
    const tagk_real *g, tagk_real r);
/* TAGK_OK if nis passes, TAGK_EOUTLIER if not (counted in run). */
tagk_status tagk_outlier_check(tagk_outlier *gt, tagk_real nis);
/* Record an accepted update's nis in the running scale (after a run of
 * refusals, restart the scale from it). */
void tagk_outlier_accept(tagk_outlier *gt, tagk_real nis);

#ifdef __cplusplus
}
#endif

#endif
