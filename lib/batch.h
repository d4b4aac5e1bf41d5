/*
 * batch.h: the batch kind of method (method.h): one estimate from all the
 * regressor rows of a log, or of a segment of it.
 *
 *   ols      ordinary least squares
 *   wls      weighted least squares: with weights given per row
 *            (tagk_batch_add_weighted), those; else paper 002's recipe, an
 *            ordinary fit first, then each row of a sample (row 0, 1, ... of
 *            the model) weighted by the inverse of its residual variance
 *   ols-pc   ols subject to physical consistency (pcls.h)
 *   wls-pc   wls subject to physical consistency
 *   dm       paper 002's dual-metric least squares from every sample kept
 *   dm-pc    dm subject to physical consistency (batch_dm.c, dmls.h)
 *   wls-bregman  wls plus lambda D(J(theta) || J(theta0)), the log-det
 *            divergence of pseudo-inertias: always physical (batch_bregman.c)
 *   wls-pullback  wls plus lambda (theta - theta0)^T G (theta - theta0),
 *            G the pullback metric of the pseudo-inertia at the prior
 *            theta0, G_ij = tr(J0^-1 V_i J0^-1 V_j) (paper 002, eq. 8;
 *            batch_pullback.c); a rigid body's ten parameters only
 *
 * Memory does not grow with the log: rows are reduced to normal equations
 * per row index (H_r = sum y y^T, h_r = sum y b, c_r = sum b^2), from which
 * the residual variances and the weighted system follow. The sums are kept
 * in double in every build: a float sum over 10^6 rows would lose the
 * digits the solution needs. Use:
 *
 *   tagk_batch q;
 *   tagk_batch_init(&q, tagk_method_find_kind("wls", TAGK_KIND_BATCH), n);
 *   tagk_batch_add(&q, row_index, y, b);     // every row of every sample
 *   tagk_batch_solve(&q, theta);             // then tagk_batch_clear(&q)
 *
 * No allocation: a tagk_batch is about 14 kB, caller-owned.
 */
#ifndef TAGK_BATCH_H
#define TAGK_BATCH_H

#include "dmls.h"
#include "method.h"
#include "regressor.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TAGK_BATCH_ROWS = 16 }; /* row indices per sample, 0 .. 15 */

typedef struct {
	const tagk_method *method;
	int n, nrows;
	double H[TAGK_BATCH_ROWS][TAGK_NPARAM * TAGK_NPARAM];
	double h[TAGK_BATCH_ROWS][TAGK_NPARAM];
	double c[TAGK_BATCH_ROWS];
	long count[TAGK_BATCH_ROWS];
	int given_weights;    /* rows came with weights: no variance step */
	tagk_real prior[TAGK_NPARAM]; /* the regularised methods' theta0 ... */
	tagk_real lambda;     /* ... and its weight */
	int have_prior;
} tagk_batch;

/* What a batch method provides: the solve of accumulated normal equations,
 * or (solve NULL) a solve from every sample kept, for an objective that
 * normal equations cannot hold (dm: each sample's residual weighted by the
 * inverse of a metric that depends on the estimate). preset[0] is 1 for
 * the residual-variance weighting, preset[1] 1 for physical consistency,
 * preset[2] 1 where the prior's weight must be positive (wls-bregman: at 0
 * its minimum lies on the physical boundary, out of its reach). */
typedef struct {
	tagk_ops_head head;
	tagk_status (*solve)(const tagk_batch *q, tagk_real *theta);
	/* pb's samples (dmls.h's layout, p = 10), from the start theta0 */
	tagk_status (*solve_samples)(const tagk_method *mt, const tagk_dmls_problem *pb,
	    const tagk_real *theta0, tagk_real *theta, tagk_real *ws, size_t len);
} tagk_batch_ops;

/* Start empty for mt (a batch method) and n parameters (1 .. TAGK_NPARAM);
 * TAGK_EINVAL otherwise. */
tagk_status tagk_batch_init(tagk_batch *q, const tagk_method *mt, int n);
/* The prior theta0 (n values) and its weight lambda (>= 0; > 0 where the
 * method's preset[2] says) of a regularised method; kept by
 * tagk_batch_clear. TAGK_EINVAL for a weight out of range, TAGK_ENONFINITE
 * for a value that is not finite. */
tagk_status tagk_batch_set_prior(tagk_batch *q, const tagk_real *theta0, tagk_real lambda);
/* The normal equations of q's rows, H (n x n) and h (n), weighted as q's
 * method says (the residual-variance weights after an ordinary fit, or
 * the rows' own): for a batch method's own solve. TAGK_EZERO without
 * rows, TAGK_ENOTPD if the ordinary fit's matrix is singular. */
tagk_status tagk_batch_normal(const tagk_batch *q, double *H, double *h);
/* Forget the rows, keep the method (and the prior). */
void tagk_batch_clear(tagk_batch *q);
/* Add one regressor row y (n values) with right-hand side b as row index k
 * of its sample. TAGK_EINVAL for k out of range, TAGK_ENONFINITE for a
 * value that is not finite (nothing added). */
tagk_status tagk_batch_add(tagk_batch *q, int k, const double *y, double b);
/* The same with the row's weight w (finite, >= 0). The first row decides:
 * a batch takes weights on every row or on none (TAGK_EINVAL). Only the
 * weighted methods (wls, wls-pc) take them. */
tagk_status tagk_batch_add_weighted(tagk_batch *q, int k, const double *y, double b, double w);
/* Samples added so far (the rows of index 0). */
long tagk_batch_samples(const tagk_batch *q);
/* Solve into theta (n). TAGK_EZERO if no rows were added; TAGK_ENOTPD if
 * the unconstrained normal matrix is singular (the data do not determine
 * every parameter); a pcls status if the consistent solve fails. The -pc
 * methods need n = 10 (one body) or n = 1 (mass: m >= 0). */
tagk_status tagk_batch_solve(const tagk_batch *q, tagk_real *theta);
/* The standard deviation of each parameter of theta, the solution of q's
 * rows by ols, wls, ols-pc or wls-pc, into sd (n): the sandwich
 *   Cov = Hw^-1 (sum_r w_r^2 s_r^2 H_r) Hw^-1,  Hw = sum_r w_r H_r,
 * over the row indices r (force x, y, z, torque x, y, z: each its own
 * noise), w_r the method's weights (1 for ols and rows with their own
 * weights; 1 / s_r^2 of the ordinary fit for wls), s_r^2 the residual
 * variance of index r at theta with the degrees of freedom N / (N - n)
 * of N rows. For the -pc methods theta is the constrained solution and the
 * covariance the unconstrained one's form at it: near the physical
 * boundary it overstates the spread toward the boundary. TAGK_EINVAL for
 * the other methods (their sd is not given), TAGK_ENOTPD if Hw is
 * singular. */
tagk_status tagk_batch_sd(const tagk_batch *q, const tagk_real *theta, tagk_real *sd);
/* The Newey-West (HAC) form of tagk_batch_sd, for residuals that are
 * correlated in time or across a sample's rows (hac.h): the sandwich
 *   Cov = Hw^-1 (N / (N - n)) c^2 Omega Hw^-1,
 * Omega the Newey-West long-run covariance, with the data's bandwidth
 * (into *bandwidth if not NULL, in blocks; c = tagk_hac_widen(B, nblocks),
 * so that 1.96 sd is the fixed-b 95 % interval), of the block scores
 *   g_b = sum_r w_r (h_br - H_br theta),
 * the blocks consecutive runs of samples in time order whose rows the
 * caller summed into blocks (nblocks of TAGK_BATCH_BLOCK_LEN(n) doubles
 * each, zeroed, then tagk_batch_block_add per row; with rows of their own
 * weights, those). A block of one sample gives the textbook estimator over
 * the samples' scores; longer blocks, as many as memory allows, hold the
 * correlation within a block exactly. G: nblocks x n doubles of scratch.
 * The same methods and statuses as tagk_batch_sd. */
tagk_status tagk_batch_sd_hac(const tagk_batch *q, const tagk_real *theta, const double *blocks, int nblocks,
    double *G, tagk_real *sd, int *bandwidth);
/* Row y (n values), right-hand side b, weight w (1 without weights) of row
 * index k (0 .. TAGK_BATCH_ROWS - 1) into a block's sums. */
void tagk_batch_block_add(double *block, int n, int k, const double *y, double b, double w);
#define TAGK_BATCH_BLOCK_LEN(n) (TAGK_BATCH_ROWS * ((n) * (n) + (n)))

#ifdef __cplusplus
}
#endif

#endif
