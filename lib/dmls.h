/*
 * dmls.h: dual-metric least squares (paper 002): inverse-dynamics
 * identification whose residuals are weighted by the dual of the system's
 * metric, so that the estimate does not depend on the coordinates:
 *
 *   minimise   f(pi) = sum_k r_k^T M_k(pi)^-1 r_k,   r_k = Y_k pi - tau_k
 *   subject to J_b(pi) >= 0 for the leading bodies b (optional),
 *
 * with M_k(pi) = M_k0 + sum_j pi_j M_kj affine in the parameters (the mass
 * matrix of sample k, or a drag metric). f is convex where every M_k is
 * positive definite (a matrix-fractional function), and invariant under
 * per-sample changes of coordinates T_k (Y -> T^T Y, tau -> T^T tau,
 * M -> T^T M T).
 *
 * Derivatives, with z = M^-1 r and G = Y - [M_1 z ... M_p z] (n x p):
 *   grad_j = sum_k 2 z^T Y_j - z^T M_j z,   Hessian = 2 sum_k G^T M^-1 G
 * (the Hessian is exact). Method: damped Newton with backtracking, the
 * domain (every M_k positive definite) kept by the line search's Cholesky
 * test; with bodies > 0, a log-barrier interior point over the
 * pseudo-inertias as in pcls.h: for tau falling by 10, minimise
 * f - tau sum_b log det J_b, until the duality gap 4 B tau <= tol (1 + |f|);
 * with nonneg > 0, parameters 10 B .. 10 B + nonneg - 1 are kept positive the
 * same way (- tau sum log pi_j, gap (4 B + nonneg) tau).
 * Parameters the data do not determine are then held by the barrier alone;
 * when its fading curvature leaves the Hessian singular to working
 * precision, the last completed stage is returned, its gap in info->gap.
 *
 * Layout: Y is N x n x p (sample k's n x p block row-major), tau N x n, and
 * M N x (p + 1) x n x n: sample k's constant part, then its derivative in
 * each parameter. Without allocation.
 */
#ifndef TAGK_DMLS_H
#define TAGK_DMLS_H

#include <stddef.h>
#include "scalar.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	int N, n, p;            /* samples, coordinates, parameters */
	int bodies;             /* leading 10-parameter bodies kept physical (0: none) */
	const tagk_real *Y, *tau, *M;
	tagk_real tol;          /* relative gap (or decrement) at which to stop (default 1e-10) */
	int max_newton;         /* Newton steps in all (default 500) */
	int nonneg;             /* the next parameters after the bodies' kept positive (drag
	                         * coefficients, D >= 0; default 0) */
} tagk_dmls_problem;

typedef struct {
	tagk_real f;            /* sum r^T M^-1 r at the solution */
	tagk_real gap;          /* 4 B tau (of the last completed stage), or the last
	                         * Newton decrement without bodies */
	int newton;
} tagk_dmls_info;

/* Fill the tolerances of pb with their defaults, and no nonneg constraint. */
void tagk_dmls_defaults(tagk_dmls_problem *pb);
/* Workspace (tagk_real elements) tagk_dmls_solve needs. */
size_t tagk_dmls_workspace_len(int n, int p);
/* pi (p) from the start pi0 (p), at which every M_k must be positive
 * definite (and, with bodies, every J_b; with nonneg, those parameters
 * positive): TAGK_ENOTPD otherwise. pi may
 * alias pi0. TAGK_EDIVERGED if Newton fails or exceeds max_newton. */
tagk_status tagk_dmls_solve(const tagk_dmls_problem *pb, const tagk_real *pi0, tagk_real *pi,
    tagk_dmls_info *info, tagk_real *ws, size_t len);
/* The objective sum r^T M^-1 r at pi; -1 if some M_k is not positive definite. */
tagk_real tagk_dmls_objective(const tagk_dmls_problem *pb, const tagk_real *pi, tagk_real *ws, size_t len);

#ifdef __cplusplus
}
#endif

#endif
