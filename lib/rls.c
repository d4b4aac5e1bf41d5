/* rls.c: block RLS in the paper's and the information form; see rls.h. */
#include <string.h>
#include "rls.h"
#include "estimator.h"
#include "linalg.h"

void
tagk_rls_defaults(tagk_rls_config *cfg, tagk_real lambda)
{
	cfg->lambda = lambda;
	cfg->p0 = 1000;
	cfg->form = TAGK_RLS_AUTO;
	cfg->outlier = (tagk_real)TAGK_OUTLIER_DEFAULT;
}

double
tagk_rls_cost(tagk_rls_form_t f, int n, int m)
{
	double N = n, M = m;
	if (f == TAGK_RLS_PAPER) /* A P, A P A^T, Cholesky, solve, downdate */
		return 1.5 * M * N * N + 2 * M * M * N + M * M * M / 3;
	return M * N * N / 2 + N * N * N / 6; /* A^T A, Cholesky */
}

tagk_rls_form_t
tagk_rls_pick_form(tagk_rls_form_t f, int n, int m_max)
{
	if (f != TAGK_RLS_AUTO)
		return f;
	return tagk_rls_cost(TAGK_RLS_INFO, n, m_max) <= tagk_rls_cost(TAGK_RLS_PAPER, n, m_max)
	    ? TAGK_RLS_INFO : TAGK_RLS_PAPER;
}

const char *
tagk_rls_form_name(tagk_rls_form_t f)
{
	return f == TAGK_RLS_INFO ? "info" : f == TAGK_RLS_PAPER ? "paper" : "auto";
}

size_t
tagk_rls_workspace_len(const tagk_rls_config *cfg, int n, int m_max)
{
	if (!cfg || n < 1 || m_max < 1)
		return 0;
	size_t N = (size_t)n, M = (size_t)m_max;
	size_t base = 3 * N + 2 * N * N + M;
	if (tagk_rls_pick_form(cfg->form, n, m_max) == TAGK_RLS_PAPER)
		base += M * (N + M);
	else
		base += N * N;
	return base;
}

tagk_status
tagk_rls_init(tagk_rls *r, const tagk_rls_config *cfg, int n, int m_max,
    const tagk_real *theta0, tagk_real *ws, size_t len)
{
	if (!r || !cfg || !ws || n < 1 || m_max < 1)
		return TAGK_EINVAL;
	if (!(cfg->lambda > 0 && cfg->lambda <= 1) || !(cfg->p0 > 0) ||
	    !tagk_isfinite(cfg->p0) || (unsigned)cfg->form > TAGK_RLS_INFO || !(cfg->outlier >= 0))
		return TAGK_EINVAL;
	if (theta0 && !tagk_all_finite(n, theta0))
		return TAGK_ENONFINITE;
	if (len < tagk_rls_workspace_len(cfg, n, m_max))
		return TAGK_ESPACE;
	r->cfg = *cfg;
	r->form = tagk_rls_pick_form(cfg->form, n, m_max);
	r->n = n;
	r->m_max = m_max;
	r->theta = ws; ws += n;
	r->theta0 = ws; ws += n;
	r->g = ws; ws += n;
	r->P = ws; ws += (size_t)n * n;
	r->Pn = ws; ws += (size_t)n * n;
	r->e = ws; ws += m_max;
	if (r->form == TAGK_RLS_PAPER) {
		r->AP = ws; ws += (size_t)m_max * n;
		r->S = ws;
	} else {
		r->AP = NULL;
		r->S = ws; /* n x n: Cholesky factor of the new information */
	}
	for (int j = 0; j < n; j++)
		r->theta0[j] = theta0 ? theta0[j] : 0;
	tagk_rls_reset(r);
	return TAGK_OK;
}

void
tagk_rls_reset(tagk_rls *r)
{
	const int n = r->n;
	memcpy(r->theta, r->theta0, sizeof(*r->theta) * (size_t)n);
	tagk_real d = r->form == TAGK_RLS_PAPER ? r->cfg.p0 : (tagk_real)1 / r->cfg.p0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			r->P[i * n + j] = i == j ? d : 0;
	tagk_outlier_init(&r->outlier, r->cfg.outlier);
}

static tagk_status
paper_update(tagk_rls *r, const tagk_real *A, int m, tagk_real *nis)
{
	const int n = r->n;
	const tagk_real lam = r->cfg.lambda;
	tagk_real *AP = r->AP, *S = r->S, *Pn = r->Pn, *g = r->g;

	tagk_matmul(m, n, n, A, r->P, AP);          /* A P, m x n */
	tagk_matmul_nt_sym(m, n, AP, A, S);         /* A P A^T, m x m */
	for (int i = 0; i < m; i++)
		S[i * m + i] += lam;
	tagk_status st = tagk_cholesky(m, S);       /* S = L L^T */
	if (st != TAGK_OK)
		return st;
	tagk_trsm_lower(m, n, S, AP);               /* W = L^-1 A P */
	/* step = K e = (A P)^T S^-1 e = W^T (L^-1 e) */
	tagk_trsm_lower(m, 1, S, r->e);
	tagk_gemv_t(m, n, AP, r->e, g);
	/* the whitened error: e^T S^-1 e = |L^-1 e|^2, the gate's d^2 */
	tagk_real d2 = 0;
	for (int i = 0; i < m; i++)
		d2 += r->e[i] * r->e[i];
	*nis = d2 / (tagk_real)m;
	/* P_new = (P - W^T W) / lambda, on the upper triangle */
	tagk_real trace = 0, trace0 = r->cfg.p0 * (tagk_real)n;
	memcpy(Pn, r->P, sizeof(*Pn) * (size_t)n * (size_t)n);
	tagk_sub_tn(m, n, AP, AP, 1, Pn);
	for (int i = 0; i < n; i++) {
		for (int j = i; j < n; j++)
			Pn[i * n + j] /= lam;
		if (!(Pn[i * n + i] > 0))
			return TAGK_ENOTPD;
		trace += Pn[i * n + i];
	}
	if (trace > trace0) {
		tagk_real c = trace0 / trace;
		for (int i = 0; i < n; i++)
			for (int j = i; j < n; j++)
				Pn[i * n + j] *= c;
	}
	tagk_symmetrize(n, Pn);
	return TAGK_OK;
}

static tagk_status
info_update(tagk_rls *r, const tagk_real *A, int m, tagk_real *nis)
{
	const int n = r->n;
	const tagk_real lam = r->cfg.lambda;
	tagk_real *Yn = r->Pn, *Ln = r->S, *g = r->g;

	/* Candidate information in Yn; its Cholesky factor in Ln. */
	memcpy(Yn, r->P, sizeof(*Yn) * (size_t)n * (size_t)n);
	tagk_syrk_t(m, n, A, lam, Yn);
	tagk_real reg = (1 - lam) / r->cfg.p0;
	for (int i = 0; i < n; i++)
		Yn[i * n + i] += reg;
	memcpy(Ln, Yn, sizeof(*Ln) * (size_t)n * (size_t)n);
	tagk_gemv_t(m, n, A, r->e, g);              /* A^T e */
	tagk_status st = tagk_cholesky(n, Ln);
	if (st != TAGK_OK)
		return st;
	tagk_cholesky_solve(n, 1, Ln, g);
	*nis = tagk_outlier_nis(m, n, A, r->e, g, lam);
	return TAGK_OK;
}

tagk_status
tagk_rls_update(tagk_rls *r, const tagk_real *A, const tagk_real *b, int m)
{
	if (!r)
		return TAGK_EINVAL;
	tagk_status st = tagk_check_window(A, b, m, r->m_max, r->n);
	if (st != TAGK_OK)
		return st;
	const int n = r->n;

	tagk_residual(m, n, A, r->theta, b, r->e);
	tagk_real nis;
	st = r->form == TAGK_RLS_PAPER ? paper_update(r, A, m, &nis) : info_update(r, A, m, &nis);
	if (st != TAGK_OK)
		return st;
	if (!tagk_all_finite(n, r->g))
		return TAGK_EDIVERGED;
	if (!tagk_all_finite(n * n, r->Pn))
		return TAGK_EDIVERGED;
	st = tagk_outlier_check(&r->outlier, nis);
	if (st != TAGK_OK)
		return st;
	tagk_outlier_accept(&r->outlier, nis, tagk_outlier_rows(m, b, r->cfg.lambda));
	memcpy(r->P, r->Pn, sizeof(*r->P) * (size_t)n * (size_t)n);
	for (int j = 0; j < n; j++)
		r->theta[j] += r->g[j];
	return TAGK_OK;
}

/* The family's operations for the registry (methods.def). preset[0] is the
 * forgetting factor. */
static const char *const rls_keys[] = { "lambda", "p0", "outlier", "form", NULL };
static const char *const rls_forms[] = { "auto", "paper", "info", NULL };

static void
rls_defaults(tagk_config *cfg)
{
	tagk_rls_defaults(&cfg->u.rls, cfg->method->preset[0]);
}

static tagk_status
rls_set(tagk_config *cfg, const char *key, double v)
{
	tagk_rls_config *c = &cfg->u.rls;
	if (strcmp(key, "lambda") == 0 && v > 0 && v <= 1)
		c->lambda = (tagk_real)v;
	else if (strcmp(key, "p0") == 0 && v > 0 && v <= 1e300)
		c->p0 = (tagk_real)v;
	else if (strcmp(key, "outlier") == 0 && v >= 0 && v <= 1e300)
		c->outlier = (tagk_real)v;
	else if (strcmp(key, "form") == 0 && (v == TAGK_RLS_AUTO || v == TAGK_RLS_PAPER || v == TAGK_RLS_INFO))
		c->form = (tagk_rls_form_t)(int)v;
	else
		return TAGK_EINVAL;
	return TAGK_OK;
}

static size_t
rls_len(const tagk_config *cfg)
{
	return tagk_rls_workspace_len(&cfg->u.rls, cfg->n, cfg->m_max);
}

static tagk_status
rls_init(tagk_estimator *e, const tagk_config *cfg, tagk_real *ws, size_t len)
{
	return tagk_rls_init(&e->s.rls, &cfg->u.rls, cfg->n, cfg->m_max, cfg->theta0, ws, len);
}

static tagk_status
rls_update(tagk_estimator *e, const tagk_real *A, const tagk_real *b, int m)
{
	return tagk_rls_update(&e->s.rls, A, b, m);
}

static const tagk_real *
rls_theta(const tagk_estimator *e)
{
	return e->s.rls.theta;
}

static void
rls_reset(tagk_estimator *e)
{
	tagk_rls_reset(&e->s.rls);
}

static const char *
rls_form(const tagk_estimator *e)
{
	return tagk_rls_form_name(e->s.rls.form);
}

/* P0 = p0 I is information 1/p0 per parameter. */
static tagk_real
rls_prior(const tagk_config *cfg)
{
	return 1 / cfg->u.rls.p0;
}

static tagk_real
rls_noise_ratio(const tagk_estimator *e)
{
	return tagk_outlier_scale(&e->s.rls.outlier);
}

/* P: the paper form keeps it; the information form keeps its inverse. */
static tagk_status
rls_posterior(const tagk_estimator *e, tagk_real *P, tagk_real *r, tagk_real *scratch)
{
	const tagk_rls *q = &e->s.rls;
	const int n = q->n;
	*r = 1;
	if (q->form == TAGK_RLS_PAPER) {
		memcpy(P, q->P, sizeof(*P) * (size_t)n * (size_t)n);
		return TAGK_OK;
	}
	memcpy(scratch, q->P, sizeof(*scratch) * (size_t)n * (size_t)n);
	tagk_status st = tagk_cholesky(n, scratch);
	if (st != TAGK_OK)
		return st;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			P[i * n + j] = i == j ? 1 : 0;
	tagk_cholesky_solve(n, n, scratch, P);
	return TAGK_OK;
}

const tagk_window_ops tagk_rls_ops = {
	.head = { rls_keys },
	.defaults = rls_defaults,
	.set = rls_set,
	.forms = rls_forms,
	.workspace_len = rls_len,
	.init = rls_init,
	.update = rls_update,
	.theta = rls_theta,
	.reset = rls_reset,
	.form = rls_form,
	.prior_information = rls_prior,
	.noise_ratio = rls_noise_ratio,
	.posterior = rls_posterior,
};
