/*
 * rls.h: block recursive least squares with exponential forgetting (TAG-K
 * paper, eq. 8), in two algebraically equivalent forms:
 *
 *   paper  K = P A^T (lambda I + A P A^T)^-1,  P <- (P - K A P) / lambda.
 *          Factors an m x m matrix: the cheaper form only when n is large
 *          beside m (single-row updates of many parameters).
 *          Wind-up guard: if trace(P) would exceed trace(P0), P is scaled back
 *          to that trace, so P never grows past the prior.
 *   info   Lambda <- lambda Lambda + (1 - lambda) P0^-1 + A^T A,
 *          theta <- theta + Lambda^-1 A^T (b - A theta).
 *          Factors an n x n matrix: the cheaper form up to n of about 6.5 m.
 *          The (1 - lambda) P0^-1 term is regularised forgetting: it keeps
 *          Lambda >= P0^-1, so P <= P0 in every direction however long
 *          excitation is absent. Because the step is taken from the previous
 *          estimate, the term acts as a weak prior centred on that estimate,
 *          not on theta0.
 *
 * With lambda = 1 both are exact batch least squares with the prior
 * (P0^-1, theta0). With lambda < 1 the paper form is exactly weighted least
 * squares (window k of K weighted lambda^(K-1-k), prior lambda^K P0^-1) while
 * the information form differs by the (1 - lambda) P0^-1 term, which is tiny
 * beside the accumulated A^T A for a large P0.
 * TAGK_RLS_AUTO picks the form with the smaller multiply-add count for the
 * shape (tagk_rls_cost): info up to about n = 6.5 m, paper beyond, e.g. for
 * single-row updates of many parameters. The information form is also the
 * more accurate (it never subtracts a downdate from P). tagk_rls_form_name
 * says which form an estimator uses.
 *
 * The covariance is kept symmetric by construction (the downdate is formed as
 * W^T W from a triangular solve) and all factorizations are Cholesky.
 */
#ifndef TAGK_RLS_H
#define TAGK_RLS_H

#include <stddef.h>
#include "scalar.h"
#include "status.h"
#include "outlier.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { TAGK_RLS_AUTO, TAGK_RLS_PAPER, TAGK_RLS_INFO } tagk_rls_form_t;

typedef struct {
	tagk_real lambda; /* forgetting factor, 0 < lambda <= 1 */
	tagk_real p0;     /* P0 = p0 I, p0 > 0 */
	tagk_rls_form_t form;
	tagk_real outlier; /* innovation gate limit (outlier.h): 0 off, default
	                      TAGK_OUTLIER_DEFAULT */
} tagk_rls_config;

void tagk_rls_defaults(tagk_rls_config *cfg, tagk_real lambda);

typedef struct {
	tagk_rls_config cfg;
	tagk_rls_form_t form; /* the form in use: PAPER or INFO, never AUTO */
	int n, m_max;
	tagk_real *theta;  /* n */
	tagk_real *theta0; /* n */
	tagk_real *P;      /* n x n: covariance (paper) or information (info) */
	tagk_real *Pn;     /* n x n: candidate P (paper) or information (info) */
	tagk_real *AP;     /* m_max x n: A P, then W = L^-1 A P (paper only) */
	tagk_real *S;      /* paper: m_max x m_max, lambda I + A P A^T and its factor;
	                      info: n x n, factor of the candidate information */
	tagk_real *e;      /* m_max: prediction error */
	tagk_real *g;      /* n: step */
	tagk_outlier outlier;
} tagk_rls;

/* Multiply-adds of one update in form f (PAPER or INFO) for an m x n window:
 * paper 1.5 m n^2 + 2 m^2 n + m^3 / 3, info m n^2 / 2 + n^3 / 6. */
double tagk_rls_cost(tagk_rls_form_t f, int n, int m);
/* The form AUTO resolves to for these sizes: the cheaper one. */
tagk_rls_form_t tagk_rls_pick_form(tagk_rls_form_t f, int n, int m_max);
/* Workspace length in tagk_real elements for the resolved form:
 * paper: 3 n + 2 n^2 + m_max (n + m_max + 1); info: 3 n + 3 n^2 + m_max. */
size_t tagk_rls_workspace_len(const tagk_rls_config *cfg, int n, int m_max);
tagk_status tagk_rls_init(tagk_rls *r, const tagk_rls_config *cfg, int n, int m_max,
    const tagk_real *theta0, tagk_real *ws, size_t len);
/* One block update with A (m x n), b (m). On failure (TAGK_ENONFINITE,
 * TAGK_EZERO for an all-zero window, TAGK_ENOTPD, TAGK_EDIVERGED,
 * TAGK_EOUTLIER from the innovation gate) theta and P are unchanged. An
 * all-zero window is refused rather than applied so that forgetting never
 * runs without data. */
tagk_status tagk_rls_update(tagk_rls *r, const tagk_real *A, const tagk_real *b, int m);
void tagk_rls_reset(tagk_rls *r);
/* "paper" or "info". */
const char *tagk_rls_form_name(tagk_rls_form_t f);

#ifdef __cplusplus
}
#endif

#endif
