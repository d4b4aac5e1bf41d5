/*
 * consistency.h: is an estimate of the ten inertial parameters physical?
 *
 * Three tests of increasing strength, and a repair:
 *
 * - tagk_gate: the TAG-K paper's safety filter, eq. (15):
 *   m > 0, ||c|| <= L_arm (c = mc / m), I positive definite and
 *   lambda_max(I) <= alpha, where I is the inertia block of theta (about the
 *   body origin, the quantity the estimator estimates). Paper values:
 *   L_arm = 0.0325 m, alpha = 1e-4 kg m^2.
 * - tagk_triangle: m > 0 and the principal moments of the inertia about the
 *   centre of mass are positive and obey I1 + I2 >= I3 for every ordering.
 * - tagk_consistent: the 4 x 4 pseudo-inertia J is positive semidefinite and
 *   m > 0 (Wensing, Kim, Slotine 2017); for m > 0 it is equivalent to the
 *   triangle inequalities, which the tests check on random bodies.
 * - tagk_project: the nearest consistent theta in the Frobenius norm of J:
 *   J's eigenvalues are clamped below at floor (>= 0), an exact Euclidean
 *   projection onto {J >= floor I}.
 */
#ifndef TAGK_CONSISTENCY_H
#define TAGK_CONSISTENCY_H

#include "inertia.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reasons a gate rejects, OR-ed together; 0 means the estimate passes. */
enum {
	TAGK_GATE_NONFINITE = 1 << 0,
	TAGK_GATE_MASS = 1 << 1,     /* m <= 0 */
	TAGK_GATE_COM = 1 << 2,      /* ||c|| > L_arm */
	TAGK_GATE_NOTPD = 1 << 3,    /* I not positive definite */
	TAGK_GATE_LMAX = 1 << 4      /* lambda_max(I) > alpha */
};

/* Eq. (15) of the TAG-K paper. Returns a mask of TAGK_GATE_* reasons. */
unsigned tagk_gate(const tagk_real theta[TAGK_NPARAM], tagk_real l_arm, tagk_real alpha);
/* 1 if m > 0 and the central principal moments satisfy the triangle
 * inequalities with slack tol * (I1 + I2 + I3); else 0. */
int tagk_triangle(const tagk_real theta[TAGK_NPARAM], tagk_real tol);
/* 1 if m > 0 and every eigenvalue of J is >= -tol * max(|eigenvalue|). */
int tagk_consistent(const tagk_real theta[TAGK_NPARAM], tagk_real tol);
/* Smallest eigenvalue of J (negative when inconsistent). */
tagk_status tagk_pseudo_min_eig(const tagk_real theta[TAGK_NPARAM], tagk_real *lmin);
/* out = nearest theta whose J has all eigenvalues >= floor (floor >= 0).
 * out may alias theta. TAGK_ENONFINITE if theta has NaN or Inf, TAGK_EINVAL
 * for a negative floor; out is untouched on failure. */
tagk_status tagk_project(const tagk_real theta[TAGK_NPARAM], tagk_real floor,
    tagk_real out[TAGK_NPARAM]);

#ifdef __cplusplus
}
#endif

#endif
