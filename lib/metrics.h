/*
 * metrics.h: errors of an inertial parameter estimate that see each block.
 *
 * A single relative error ||theta^ - theta|| / ||theta|| is dominated by the
 * mass (the largest entry in SI units), and a residual ||A theta^ - b|| is
 * nearly blind to the inertia: both can call an estimate good whose inertia
 * is off by 100 %. These report the mass, the first moment and the inertia
 * separately, and the geometry-aware distance of pseudo-inertias.
 */
#ifndef TAGK_METRICS_H
#define TAGK_METRICS_H

#include "scalar.h"
#include "regressor.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TAGK_ERR_MASS, TAGK_ERR_MOMENT, TAGK_ERR_INERTIA, TAGK_NERR };

/* Relative errors of est against truth (ten parameters each): |m^ - m| / |m|,
 * ||h^ - h|| / ||h|| for the first moment h = m c, and ||I^ - I||_F / ||I||_F
 * for the 3 x 3 inertia about the origin (off-diagonals counted twice, as in
 * the matrix). A block whose truth is zero gets the absolute error. */
void tagk_block_errors(const tagk_real est[TAGK_NPARAM], const tagk_real truth[TAGK_NPARAM],
    tagk_real err[TAGK_NERR]);

/* The log-det (Bregman) divergence of pseudo-inertias,
 *   D(J || J0) = -log det J + log det J0 + tr(J0^-1 J) - 4,
 * with J = J(theta), J0 = J(theta0): 0 only at theta = theta0, invariant
 * under a change of body frame and of units of length. Evaluated from the
 * eigenvalues x_i of L0^-1 J(theta - theta0) L0^-T (J0 = L0 L0^T) as
 * sum x_i - log(1 + x_i), which keeps its relative precision near theta0.
 * -1 if J(theta) is not positive definite (theta is not physical), -2 if
 * J(theta0) is not. */
tagk_real tagk_logdet_divergence(const tagk_real theta[TAGK_NPARAM], const tagk_real theta0[TAGK_NPARAM]);

/* The pullback metric of the pseudo-inertia at theta0, the Hessian of the
 * divergence above at theta = theta0: G_ij = tr(J0^-1 V_i J0^-1 V_j), V_i
 * = J(e_i) (paper 002, eq. 8), into G (10 x 10, symmetric).
 * TAGK_EINVAL if J(theta0) is not positive definite. */
tagk_status tagk_pullback_metric(const tagk_real theta0[TAGK_NPARAM], tagk_real G[TAGK_NPARAM * TAGK_NPARAM]);

/* Paper 002's score of a predicted signal b against a measured one a (n
 * samples each): the normalised cross-correlation
 *   ncc(s) = sum (a_t - mean a)(b_{t+s} - mean b) / sqrt(sum (a - mean a)^2 sum (b - mean b)^2)
 * over the samples both cover at the shift s (means over them too),
 * maximised over |s| <= max_shift samples; in [-1, 1], 1 for b an
 * increasing affine function of a, unchanged by b's units and offset.
 * NaN if n - |s| < 2 for every s, or a or b is constant or not finite. */
tagk_real tagk_ncc(const tagk_real *a, const tagk_real *b, long n, long max_shift);

#ifdef __cplusplus
}
#endif

#endif
