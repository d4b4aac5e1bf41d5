/*
 * uncert.h: the standard deviation of each parameter of a recursive
 * estimate, from the estimator's own gains and the data's own noise.
 *
 * A recursive least-squares or Kalman update is linear in its window:
 *
 *   theta_k = theta_{k-1} + K_k (b_k - A_k theta_{k-1}),  K_k = P_k A_k^T / r,
 *
 * P_k the method's covariance after the update and r its noise setting
 * (the KF's R; 1 for RLS, whose P is in units of the noise). If the true
 * parameters stay constant and row i carries white noise of variance
 * s_c^2, c = kind[i] (the row's place in its sample: force x, y, z, torque
 * x, y, z, ...), the estimate's error has the covariance
 *
 *   E_k = (I - K A) E_{k-1} (I - K A)^T + K D K^T,   D = diag(s_kind[i]^2),
 *
 * whatever the method assumed about the noise: E uses its actual gains.
 * E_0 is the method's initial covariance (prior): a direction no window
 * excites keeps the prior's uncertainty. sd_j = sqrt(E_jj).
 *
 * The noise variances: first, from the residuals of the first window with
 * more rows than parameters after its update (its sum of r_i^2 over its
 * rows of kind c, divided by their share of its m - n degrees of freedom,
 * weighing as those in the mean below); then from
 * the prediction errors e = b - A theta_{k-1}, whose rows satisfy
 * E[e_i^2] = s_c^2 + q_i, q_i = (A E_{k-1} A^T)_ii: the mean of e_i^2 - q_i
 * over the rows so far (then a running mean of weight 1/4096, so that the
 * variance follows a noise that changes), over the rows whose q_i is not
 * above 100 s_c^2 (a prediction the prior dominates says little about the
 * noise; the estimate's own noise gives q_i of a few s_c^2) and whose e_i^2 is within 25
 * times its expected value (a payload event, an outlier: a change of the
 * truth, not noise).
 *
 * Correlated noise (tagk_uncert_sd_hac): E assumes each row's noise
 * independent of the others'. A row's noise that is correlated with its
 * neighbours' in time (a sensor's filter, vibration, a model error that
 * drifts) makes the estimate's error larger. It is measured on the
 * residuals of a reference fit that the estimate's own lag cannot colour
 * (the least-squares fit of every window so far, forgetting 1/1024 per
 * update): per kind c, each update's mean residual x_k over its rows of
 * kind c, a series over the updates; for parameter j
 *
 *   f_cj = m_c Var(x) F_j(x) w^2 / s_c^2,
 *
 * m_c the rows of kind c per window, s_c^2 the noise variance E holds (the
 * prediction errors', above), F_j(x) = 1 + 2 sum_{l=1}^{B} (1 - l/(B+1))
 * M_jj^l rho_l the series' Newey-West factor (hac.h: Bartlett kernel,
 * Andrews' bandwidth B) with each lag weighed by the share M_jj^l of the
 * estimate that a window l updates back still holds (M = I - K A of the
 * last update: about lambda for RLS, near 0 for a KF that follows each
 * window), and w = tagk_hac_widen(B, updates). m_c Var(x) F_j / s_c^2
 * counts the correlation within a window and, over the method's memory,
 * across the updates; over s_c^2 rather than the reference fit's residual
 * variance, because a method of short memory on correlated noise predicts
 * each window from an estimate that already followed the noise, and sees
 * prediction errors smaller than the noise. 1 for white noise. f_j =
 * max_c f_cj and sd_j = sqrt(f_j E_jj). Before the change (the Newey-West
 * factor over every lag, over the reference fit's residual variance) kf-low
 * held the truth in 99.0 % of AR(1) 0.9 flights (its sd 1.4 times its
 * error) and rls-low in 76.5 % of AR(1) 0.98 ones; now 95.5 % and 90.0 %
 * (tagk-bench coverage, 200 flights of 20 s).
 *
 * Rows of a kind are assumed to carry independent noise of one variance;
 * when the truth changes (a payload), E describes the noise's part of the
 * error only. Nothing allocates: the caller passes the workspace.
 */
#ifndef TAGK_UNCERT_H
#define TAGK_UNCERT_H

#include <stddef.h>
#include "scalar.h"
#include "status.h"
#include "hac.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TAGK_UNCERT_KINDS = 16 };

typedef struct {
	int n, m_max;
	tagk_real *E;        /* n x n: the error covariance */
	tagk_real *K;        /* n x m_max: the gain */
	tagk_real *M;        /* n x n: I - K A, then scratch */
	tagk_real *T;        /* n x n scratch */
	tagk_real *e;        /* m_max: the prediction errors */
	double s2[TAGK_UNCERT_KINDS];  /* noise variance per kind */
	long cnt[TAGK_UNCERT_KINDS];   /* rows counted per kind; 0: s2 not known yet */
	/* the correlation of the noise (above): the reference fit's normal
	 * equations, its solution, and per kind the series of mean residuals */
	tagk_real *Hr, *hr, *L, *tr; /* n x n, n, n x n scratch, n */
	int have_ref;
	tagk_lrv lrv[TAGK_UNCERT_KINDS];
	double rsum[TAGK_UNCERT_KINDS], r2sum[TAGK_UNCERT_KINDS];
	long rows[TAGK_UNCERT_KINDS];
} tagk_uncert;

/* Workspace length in tagk_real elements. */
size_t tagk_uncert_workspace_len(int n, int m_max);
/* Start with E_0 = P0 (n x n), or p0 I when P0 is NULL. */
tagk_status tagk_uncert_init(tagk_uncert *u, int n, int m_max, const tagk_real *P0, tagk_real p0, tagk_real *ws,
    size_t len);
/* Before the update: the window A (m x n), b (m), each row's kind (m
 * values in [0, TAGK_UNCERT_KINDS), NULL: all 0) and the estimate theta
 * before the update; updates the noise variances. */
void tagk_uncert_observe(tagk_uncert *u, int m, const tagk_real *A, const tagk_real *b, const int *kind,
    const tagk_real *theta);
/* After the update: propagate E with the method's covariance P (n x n,
 * after the update) and noise setting r; theta the estimate after it. */
void tagk_uncert_propagate(tagk_uncert *u, int m, const tagk_real *A, const tagk_real *b, const int *kind,
    const tagk_real *P, tagk_real r, const tagk_real *theta);
/* sd (n): the square roots of E's diagonal. */
void tagk_uncert_sd(const tagk_uncert *u, tagk_real *sd);
/* sd (n): sqrt(f E_jj), f the long-run variance factor above (1 before
 * 16 updates); *factor = f if not NULL. */
void tagk_uncert_sd_hac(const tagk_uncert *u, tagk_real *sd, double *factor);
/* The current noise variance of kind c (0 before any window). */
double tagk_uncert_noise(const tagk_uncert *u, int c);

#ifdef __cplusplus
}
#endif

#endif
