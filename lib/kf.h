/*
 * kf.h: Kalman filter on the parameters as a random-walk state (TAG-K paper,
 * eq. 9), block measurement update with the Joseph form:
 *
 *   P-  = P + Q,                 Q = q I
 *   S   = A P- A^T + R,          R = r I   (m x m, Cholesky)
 *   K   = P- A^T S^-1
 *   theta <- theta + K (b - A theta)
 *   P   = (I - K A) P- (I - K A)^T + K R K^T
 *
 * The Joseph form keeps P symmetric positive semidefinite under rounding
 * (and is first-order insensitive to errors in K); I - K A is applied
 * through its rank m, so it costs O(m n^2), not O(n^3);
 * P is symmetrized after every update. It factors the m x m matrix S, which
 * has rank n plus r I: when m > n and r is small beside A P A^T, S is nearly
 * singular (with R = 1e-5 I it does not factor in single precision at all).
 *
 * The information form is the same filter written with n x n matrices:
 *
 *   Lambda = (P-)^-1 + A^T A / r,  theta <- theta + Lambda^-1 A^T e / r,
 *   P = Lambda^-1 = X^T X with X = L^-1, L the Cholesky factor of Lambda,
 *
 * so P is symmetric positive semidefinite by construction. But the mirror
 * image of the Joseph form's trouble applies: when m < n, r (P-)^-1 + A^T A
 * is rank m plus a small multiple of the identity, and with R = 1e-5 I it
 * does not factor in single precision. TAGK_KF_AUTO therefore chooses by
 * conditioning, not by cost: the information form when m_max > n, the
 * downdate form otherwise. tagk_kf_form_name says which form runs.
 *
 * TAGK_KF_DOWNDATE is the Joseph form's filter in the factored form RLS's
 * paper form uses: S = L L^T, W = L^-1 A P-, theta += W^T L^-1 e and
 * P = P- - W^T W, formed on the upper half and mirrored. Equal to the
 * Joseph form in exact arithmetic, in half its work (1.5 m n^2 against 3 m
 * n^2, see tagk_kf_cost). It subtracts a downdate, so rounding could in
 * principle take P out of the positive definite cone where the Joseph form
 * cannot; tests/test_kf.c runs 20000 float updates of an ill-conditioned
 * stream and checks P stays symmetric positive definite and beside the
 * Joseph form's estimate. A diagonal that is not positive is refused
 * (TAGK_ENOTPD) in every form.
 *
 * TAGK_KF_EXPLICIT is the authors' C++ filter (A2R-Lab/TAG-K,
 * cpp/src/estimators/kf.cpp), kept to study their Table II: S inverted
 * explicitly (Gauss-Jordan with partial pivoting, as an LU inverse),
 * K = P- A^T S^-1 and the simplified update P = P- - K A P-, which is not
 * symmetrized and loses positive definiteness under rounding when S is ill
 * conditioned; its P is not checked for definiteness, as theirs is not.
 * Never chosen by AUTO.
 * With q = 0 both are batch least squares with the prior (P0 = p0 I, theta0)
 * and weights 1/r.
 */
#ifndef TAGK_KF_H
#define TAGK_KF_H

#include <stddef.h>
#include "scalar.h"
#include "status.h"
#include "outlier.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { TAGK_KF_AUTO, TAGK_KF_JOSEPH, TAGK_KF_INFO, TAGK_KF_EXPLICIT, TAGK_KF_DOWNDATE } tagk_kf_form_t;

typedef struct {
	tagk_real q;  /* process noise per parameter per update, >= 0 */
	tagk_real r;  /* measurement noise per row, > 0 */
	tagk_real p0; /* P0 = p0 I, > 0 */
	tagk_kf_form_t form;
	tagk_real outlier; /* innovation gate limit (outlier.h): 0 off, default
	                    TAGK_OUTLIER_DEFAULT */
} tagk_kf_config;

void tagk_kf_defaults(tagk_kf_config *cfg, tagk_real q, tagk_real r);

typedef struct {
	tagk_kf_config cfg;
	tagk_kf_form_t form; /* JOSEPH, INFO or EXPLICIT, never AUTO */
	int n, m_max;
	tagk_real *theta;  /* n */
	tagk_real *theta0; /* n */
	tagk_real *P;      /* n x n covariance */
	tagk_real *Pm;     /* n x n predicted covariance, then the candidate P */
	tagk_real *M;      /* n x n: scratch of the information form */
	tagk_real *T;      /* n x n: scratch */
	tagk_real *K;      /* m_max x n: A P-, then K^T (Joseph form), or W = L^-1 A P-
	                      (downdate form) */
	tagk_real *S;      /* m_max x m_max innovation covariance and its factor
	                      (Joseph form only), or its inverse (explicit) */
	tagk_real *Kt;     /* m_max x n: K^T (explicit form only) */
	tagk_real *S2;     /* m_max x m_max: S reduced by Gauss-Jordan (explicit) */
	tagk_real *z;      /* m_max: L^-1 e (downdate form only) */
	tagk_real *AP;     /* m_max x n: A P- (Joseph form only; in M when m_max <= n) */
	tagk_real *U;      /* n x m_max: (M P-) A^T (Joseph form only; in T when m_max <= n) */
	tagk_real *e;      /* m_max innovation */
	tagk_real *g;      /* n step */
	tagk_outlier outlier;
} tagk_kf;

/* Multiply-adds of one update in form f for an m x n window: joseph
 * 3 m n^2 + 2 m^2 n + m^3 / 6, info m n^2 / 2 + n^3, explicit
 * 2 m n^2 + 2 m^2 n + m^3, downdate 1.5 m n^2 + m^2 n + m^3 / 6. */
double tagk_kf_cost(tagk_kf_form_t f, int n, int m);
/* The form AUTO resolves to for these sizes: the well-conditioned one. */
tagk_kf_form_t tagk_kf_pick_form(tagk_kf_form_t f, int n, int m_max);
/* "joseph", "info", "explicit" or "downdate". */
const char *tagk_kf_form_name(tagk_kf_form_t f);
/* Workspace length in tagk_real elements for the resolved form:
 * joseph: 3 n + 4 n^2 + m_max (n + m_max + 1), plus 2 m_max n when m_max > n;
 * info: 3 n + 4 n^2 + m_max;
 * explicit: 3 n + 4 n^2 + m_max (2 n + 2 m_max + 1); downdate: 3 n + 4 n^2 +
 * m_max (n + m_max + 2). */
size_t tagk_kf_workspace_len(const tagk_kf_config *cfg, int n, int m_max);
tagk_status tagk_kf_init(tagk_kf *f, const tagk_kf_config *cfg, int n, int m_max,
    const tagk_real *theta0, tagk_real *ws, size_t len);
/* One block update; on failure (TAGK_EOUTLIER from the innovation gate
 * among others) theta and P are unchanged. An all-zero window
 * is TAGK_EZERO: refused, so that P is not inflated by Q without data. */
tagk_status tagk_kf_update(tagk_kf *f, const tagk_real *A, const tagk_real *b, int m);
void tagk_kf_reset(tagk_kf *f);

#ifdef __cplusplus
}
#endif

#endif
