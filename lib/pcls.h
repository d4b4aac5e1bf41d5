/*
 * pcls.h: physically consistent least squares over one or several bodies.
 *
 *   minimise   f(theta) = 1/2 theta^T H theta - h^T theta + mu R(theta)
 *   subject to J_k(theta) >= margin I   for every body k,
 *
 * where theta stacks B bodies' ten parameters (n = 10 B), H = A^T W A and
 * h = A^T W b are the (weighted) normal equations of a regressor A, b, so
 * that the residual ||A theta - b||_W^2 = 2 f + b^T W b, and J_k is body k's
 * 4 x 4 pseudo-inertia (inertia.h), linear in theta: J = sum_i theta_i E_i.
 * The set {J >= 0} is exactly the physically consistent bodies (Wensing,
 * Kim, Slotine 2017); a margin > 0 keeps every body strictly inside.
 *
 * R pulls toward a prior theta0 (zeros if NULL), by reg:
 *   TAGK_PCLS_EUCLID    1/2 ||theta - theta0||^2
 *   TAGK_PCLS_PULLBACK  1/2 d^T G d, d = theta - theta0, with the constant
 *                       pullback metric G_ab = tr(J0^-1 E_a J0^-1 E_b) per
 *                       body (J0 = J(theta0), E_a = dJ/dtheta_a): the
 *                       affine-invariant metric of pseudo-inertias at the
 *                       prior (paper 002, eq. 8)
 *   TAGK_PCLS_LOGDET    sum_k D(J_k || J0_k), the Bregman divergence of
 *                       -log det: -log det J + log det J0 + tr(J0^-1 J) - 4
 *                       (papers 002 and 003, eq. 11); convex, infinite at
 *                       the boundary, and its Hessian at theta0 is G
 * PULLBACK and LOGDET need every prior body's J0 positive definite.
 *
 * Method: a log-barrier interior point. For tau decreasing geometrically
 * (by 10), damped Newton minimises f - tau sum_k log det (J_k - margin I);
 * a step that leaves the feasible set shows as a failed Cholesky of some
 * J_k - margin I and is halved (backtracking, with the Armijo condition on
 * the barrier objective). The barrier's Hessian is positive definite in
 * theta (theta -> J is a bijection onto symmetric 4 x 4 matrices), so the
 * Newton system is solvable even when H is singular (a log that excites only
 * some parameters). On the central path the duality gap is exactly
 * 4 B tau, with dual Z_k = tau (J_k - margin I)^-1: tau is lowered until
 * 4 B tau <= tol (1 + |f|), so f is within that of the optimum. Parameters
 * no data determine are held by the barrier alone, whose curvature fades
 * with tau: when the Newton system becomes singular to working precision,
 * the last completed stage is returned, its larger gap in info->gap.
 *
 * Tolerances: tol defaults to 1e-10 in double (1e-5 in float), far below
 * the noise of any identification, and above where the Newton system's
 * rounding (condition number of H + tau Hb times epsilon) dominates. Each
 * centering stops when the Newton decrement lambda^2 / 2 <= 1e-3 tau B,
 * a small fraction of the gap it serves.
 *
 * Without allocation: the caller passes tagk_pcls_workspace_len reals.
 */
#ifndef TAGK_PCLS_H
#define TAGK_PCLS_H

#include <stddef.h>
#include "scalar.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TAGK_PCLS_MAX_BODIES 16

typedef enum { TAGK_PCLS_EUCLID, TAGK_PCLS_PULLBACK, TAGK_PCLS_LOGDET } tagk_pcls_reg;

typedef struct {
	int bodies;              /* B, 1 .. TAGK_PCLS_MAX_BODIES */
	tagk_real margin;        /* J_k >= margin I, >= 0 */
	tagk_real mu;            /* weight of the pull toward theta0, >= 0 */
	tagk_pcls_reg reg;       /* its kind (default TAGK_PCLS_EUCLID) */
	const tagk_real *theta0; /* n values, or NULL for zeros */
	tagk_real tol;           /* relative duality gap at which to stop */
	int max_newton;          /* Newton steps in all, at most */
} tagk_pcls_config;

typedef struct {
	tagk_real f;     /* the objective at the solution */
	tagk_real tau;   /* the final barrier weight: dual Z_k = tau (J_k - margin I)^-1 */
	tagk_real gap;   /* 4 B tau: f is at most this above the optimum (for
	                  * LOGDET without a margin, where no barrier is needed,
	                  * the last Newton decrement lambda^2 / 2, its estimate) */
	int newton;      /* Newton steps taken */
	int outer;       /* barrier weights visited */
} tagk_pcls_info;

void tagk_pcls_defaults(tagk_pcls_config *cfg, int bodies);
/* Workspace in tagk_real elements for B bodies: n^2 + 5 n + 152 B, n = 10 B;
 * the macro gives it as a constant for arrays. */
#define TAGK_PCLS_WORKSPACE_LEN(B) ((size_t)(100 * (B) * (B) + 50 * (B) + 152 * (B)))
size_t tagk_pcls_workspace_len(int bodies);
/* Solve with H (n x n, symmetric) and h (n). theta (n) receives the
 * solution. TAGK_EINVAL on a bad configuration, TAGK_ENONFINITE on NaN or
 * Inf in H or h, TAGK_EDIVERGED if Newton stalls (max_newton reached),
 * TAGK_ENOTPD if reg needs a positive definite J(theta0) and a body's is
 * not; info may be NULL. */
tagk_status tagk_pcls_solve(const tagk_pcls_config *cfg, const tagk_real *H, const tagk_real *h,
    tagk_real *theta, tagk_pcls_info *info, tagk_real *ws, size_t len);

#ifdef __cplusplus
}
#endif

#endif
