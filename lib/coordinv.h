/*
 * coordinv.h: paper 002's family of batch identifications from per-sample
 * inverse-dynamics rows, Y_k pi = tau_k (k = 1..N, n coordinates, p
 * parameters), with the sample's metric M_k(pi) = M_k0 + sum_j pi_j M_kj
 * (dmls.h's layout). The methods, and whether a per-sample change of
 * coordinates T_k (Y -> T^T Y, tau -> T^T tau, M -> T^T M T, qd -> T^-1 qd)
 * moves their estimate:
 *
 *   TAGK_CI_OLS       min sum |Y pi - tau|^2                        moves
 *   TAGK_CI_WLS       eqs. 5-6: the OLS residuals' variance per
 *                     coordinate, then rows weighted by its inverse  moves
 *   TAGK_CI_ENERGY    eq. 9: one power row per sample,
 *                     qd^T Y pi = qd^T tau, by least squares        invariant
 *   TAGK_CI_PULLBACK  WLS + lambda (pi - pi0)^T G (pi - pi0), the
 *                     constant pullback metric of eq. 8,
 *                     G_ij = tr(P0^-1 V_i P0^-1 V_j)                moves
 *   TAGK_CI_BREGMAN   WLS + lambda D(P(pi) || P(pi0)), the log-det
 *                     Bregman divergence of eq. 8                   moves
 *   TAGK_CI_DUAL      eqs. 28-29: min sum r^T M^-1 r (dmls.h)      invariant
 *   TAGK_CI_FROZEN    the same with the metric frozen at the prior,
 *                     min sum r^T M(pi0)^-1 r: one weighted solve,
 *                     rows whitened by M(pi0)^-1/2, so it can run
 *                     online as ordinary RLS does (the paper leaves
 *                     online use to future work)                    invariant
 *   TAGK_CI_DUAL_PC   DM kept physical (below), by dmls.h's
 *                     barrier                                       invariant
 *
 * P(pi) is the parameters' physical matrix. Without bodies (pb->bodies =
 * 0) it is the diagonal matrix of the parameters themselves (drag
 * coefficients, each >= 0), so G = diag(1 / pi0^2) and D = sum pi/pi0 -
 * log(pi/pi0) - 1. With bodies (p = 10 pb->bodies mass-inertia parameters,
 * inertia.h's order) it is each body's pseudo-inertia: G is the pullback
 * metric of tagk_pullback_metric and D the log-det divergence, solved by
 * pcls.h. The prior pi0 and lambda are the regularised methods' (lambda
 * weighs the regulariser against the weighted residuals, whose every
 * coordinate has unit variance after weighting).
 *
 * Physical constraints (eq. 7), for every method: with pb->bodies > 0 the
 * pseudo-inertias are kept positive semidefinite (pcls.h's barrier for the
 * quadratic methods, dmls.h's for DM), with pb->nonneg > 0 the first
 * nonneg parameters positive (a log-barrier; D >= 0 for drag). WLS then
 * takes its weights from the constrained first fit. Parameters no data
 * determine are held by the barrier (or the divergence) alone: the answer
 * is the last stage the working precision could complete. TAGK_CI_DUAL_PC
 * is DM with pb->bodies' constraints, or, without bodies, every parameter
 * positive. pb->tol (> 0) sets the barriers' relative duality gap.
 * Without allocation.
 */
#ifndef TAGK_COORDINV_H
#define TAGK_COORDINV_H

#include <stddef.h>
#include "dmls.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
	TAGK_CI_OLS, TAGK_CI_WLS, TAGK_CI_ENERGY, TAGK_CI_PULLBACK, TAGK_CI_BREGMAN, TAGK_CI_DUAL, TAGK_CI_FROZEN,
	TAGK_CI_DUAL_PC, TAGK_CI_NMETHODS
} tagk_ci_method;

/* The method's name as the tables print it ("OLS", "WLS", "energy",
 * "WLS-pullback", "WLS-Bregman", "DM", "DM-frozen", "DM-pc"). */
const char *tagk_ci_name(tagk_ci_method m);

enum { TAGK_CI_MAX_P = 32, TAGK_CI_MAX_N = 16 };

/* Workspace (reals) for tagk_ci_solve: p and n at most the maxima above. */
size_t tagk_ci_workspace_len(int n, int p);

/* pi (p) by method m from pb's samples, within pb's constraints (above;
 * bodies and nonneg together are refused). pb->M is read by the DM methods
 * only; qd, N x n, by TAGK_CI_ENERGY only, may be NULL otherwise. prior (p)
 * is the regularised methods' pi0 (every entry > 0 for them without
 * bodies, physical with them), the DM methods' start and TAGK_CI_FROZEN's
 * metric (every M_k must be positive definite there: TAGK_ENOTPD
 * otherwise), and the barriers' start (inside the constraints). TAGK_ENOTPD
 * if the data do not determine pi (a singular normal matrix, without
 * constraints), TAGK_EINVAL for bad sizes or a prior that is not positive
 * where it must be, a dmls.h or pcls.h status otherwise. */
tagk_status tagk_ci_solve(tagk_ci_method m, const tagk_dmls_problem *pb, const tagk_real *qd,
    const tagk_real *prior, tagk_real lambda, tagk_real *pi, tagk_real *ws, size_t len);

/* WLS regularised by a given metric: minimise the weighted residuals plus
 * lambda (pi - center)^T G (pi - center), G p x p symmetric positive
 * semidefinite (TAGK_CI_PULLBACK is this with G = diag(1 / prior^2) and
 * center = prior; a pseudo-inertia's pullback metric, or one restricted to
 * the identifiable parameters, goes here). Statuses as tagk_ci_solve. */
tagk_status tagk_ci_solve_metric(const tagk_dmls_problem *pb, const tagk_real *G, const tagk_real *center,
    tagk_real lambda, tagk_real *pi, tagk_real *ws, size_t len);

#ifdef __cplusplus
}
#endif

#endif
