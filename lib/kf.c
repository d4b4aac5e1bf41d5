/* kf.c: random-walk Kalman filter with Joseph-form block update; see kf.h. */
#include <string.h>
#include "kf.h"
#include "estimator.h"
#include "linalg.h"

void
tagk_kf_defaults(tagk_kf_config *cfg, tagk_real q, tagk_real r)
{
	cfg->q = q;
	cfg->r = r;
	cfg->p0 = 10;
	cfg->form = TAGK_KF_AUTO;
	cfg->outlier = (tagk_real)TAGK_OUTLIER_DEFAULT;
}

double
tagk_kf_cost(tagk_kf_form_t f, int n, int m)
{
	double N = n, M = m;
	if (f == TAGK_KF_JOSEPH) /* A P, A P A^T, Cholesky, solve, I - K A, two n^3 products, K K^T */
		return 2.5 * M * N * N + 3 * M * M * N + M * M * M / 3 + 2 * N * N * N;
	if (f == TAGK_KF_EXPLICIT) /* A P, A P A^T, inverse, S^-1 A P, K A P */
		return 2 * M * N * N + 2 * M * M * N + M * M * M;
	return M * N * N / 2 + N * N * N; /* A^T A, two factorizations, inverses and products */
}

tagk_kf_form_t
tagk_kf_pick_form(tagk_kf_form_t f, int n, int m_max)
{
	if (f != TAGK_KF_AUTO)
		return f;
	return m_max > n ? TAGK_KF_INFO : TAGK_KF_JOSEPH;
}

const char *
tagk_kf_form_name(tagk_kf_form_t f)
{
	return f == TAGK_KF_INFO ? "info" : f == TAGK_KF_JOSEPH ? "joseph" : f == TAGK_KF_EXPLICIT ? "explicit" : "auto";
}

size_t
tagk_kf_workspace_len(const tagk_kf_config *cfg, int n, int m_max)
{
	if (!cfg || n < 1 || m_max < 1)
		return 0;
	size_t N = (size_t)n, M = (size_t)m_max;
	size_t len = 3 * N + 4 * N * N + M;
	tagk_kf_form_t f = tagk_kf_pick_form(cfg->form, n, m_max);
	if (f == TAGK_KF_JOSEPH)
		len += M * (N + M);
	else if (f == TAGK_KF_EXPLICIT)
		len += 2 * M * (N + M);
	return len;
}

tagk_status
tagk_kf_init(tagk_kf *f, const tagk_kf_config *cfg, int n, int m_max,
    const tagk_real *theta0, tagk_real *ws, size_t len)
{
	if (!f || !cfg || !ws || n < 1 || m_max < 1)
		return TAGK_EINVAL;
	if (!(cfg->q >= 0) || !(cfg->r > 0) || !(cfg->p0 > 0) ||
	    !tagk_isfinite(cfg->q) || !tagk_isfinite(cfg->r) || !tagk_isfinite(cfg->p0) ||
	    (unsigned)cfg->form > TAGK_KF_EXPLICIT || !(cfg->outlier >= 0))
		return TAGK_EINVAL;
	if (theta0 && !tagk_all_finite(n, theta0))
		return TAGK_ENONFINITE;
	if (len < tagk_kf_workspace_len(cfg, n, m_max))
		return TAGK_ESPACE;
	size_t nn = (size_t)n * n;
	f->cfg = *cfg;
	f->form = tagk_kf_pick_form(cfg->form, n, m_max);
	f->n = n;
	f->m_max = m_max;
	f->theta = ws; ws += n;
	f->theta0 = ws; ws += n;
	f->g = ws; ws += n;
	f->P = ws; ws += nn;
	f->Pm = ws; ws += nn;
	f->M = ws; ws += nn;
	f->T = ws; ws += nn;
	f->e = ws; ws += m_max;
	f->K = f->S = f->Kt = f->S2 = NULL;
	if (f->form == TAGK_KF_JOSEPH || f->form == TAGK_KF_EXPLICIT) {
		f->K = ws; ws += (size_t)m_max * n;
		f->S = ws; ws += (size_t)m_max * m_max;
	}
	if (f->form == TAGK_KF_EXPLICIT) {
		f->Kt = ws; ws += (size_t)m_max * n;
		f->S2 = ws;
	}
	for (int j = 0; j < n; j++)
		f->theta0[j] = theta0 ? theta0[j] : 0;
	tagk_kf_reset(f);
	return TAGK_OK;
}

void
tagk_kf_reset(tagk_kf *f)
{
	const int n = f->n;
	memcpy(f->theta, f->theta0, sizeof(*f->theta) * (size_t)n);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			f->P[i * n + j] = i == j ? f->cfg.p0 : 0;
	tagk_outlier_init(&f->outlier, f->cfg.outlier);
}

/* Joseph form: the candidate P is left in Pm and the step in g. */
static tagk_status
joseph_update(tagk_kf *f, const tagk_real *A, int m)
{
	const int n = f->n;
	tagk_real *Pm = f->Pm, *K = f->K, *S = f->S, *M = f->M, *T = f->T, *g = f->g;
	const tagk_real r = f->cfg.r;

	tagk_matmul(m, n, n, A, Pm, K);           /* A P-  (m x n) */
	tagk_matmul_nt(m, n, m, K, A, S);         /* A P- A^T */
	for (int i = 0; i < m; i++)
		S[i * m + i] += r;
	tagk_symmetrize(m, S);
	tagk_status st = tagk_cholesky(m, S);
	if (st != TAGK_OK)
		return st;
	tagk_cholesky_solve(m, n, S, K);          /* K^T = S^-1 A P-  (m x n) */
	tagk_gemv_t(m, n, K, f->e, g);            /* K e */

	/* M = I - K A, with K = (K^T)^T: M_ij = d_ij - sum_p K^T_pi A_pj. */
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			tagk_real v = i == j ? 1 : 0;
			for (int p = 0; p < m; p++)
				v -= K[p * n + i] * A[p * n + j];
			M[i * n + j] = v;
		}
	tagk_matmul(n, n, n, M, Pm, T);           /* M P- */
	tagk_matmul_nt(n, n, n, T, M, Pm);        /* M P- M^T (Pm reused) */
	for (int i = 0; i < n; i++)               /* + r K K^T */
		for (int j = i; j < n; j++) {
			tagk_real v = 0;
			for (int p = 0; p < m; p++)
				v += K[p * n + i] * K[p * n + j];
			Pm[i * n + j] += r * v;
		}
	tagk_symmetrize(n, Pm);
	return TAGK_OK;
}

/* X = L^-1 for a lower-triangular n x n L (X lower triangular). */
static void
tri_inverse(int n, const tagk_real *L, tagk_real *X)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			X[i * n + j] = i == j ? 1 : 0;
	tagk_trsm_lower(n, n, L, X);
}

/* C = s X^T X for a lower-triangular n x n X. */
static void
gram_tri(int n, const tagk_real *X, tagk_real s, tagk_real *C)
{
	for (int i = 0; i < n; i++)
		for (int j = i; j < n; j++) {
			tagk_real v = 0;
			for (int k = j; k < n; k++) /* X[k][i], X[k][j] non-zero for k >= i, j */
				v += X[k * n + i] * X[k * n + j];
			C[i * n + j] = s * v;
		}
	tagk_symmetrize(n, C);
}

/* Information form: the candidate P is left in Pm and the step in g. */
static tagk_status
info_update(tagk_kf *f, const tagk_real *A, int m)
{
	const int n = f->n;
	tagk_real *Pm = f->Pm, *M = f->M, *T = f->T, *g = f->g;
	const tagk_real r = f->cfg.r;
	size_t bytes = sizeof(*Pm) * (size_t)n * (size_t)n;

	/* r (P-)^-1 = r X^T X with X = L^-1, L L^T = P-. */
	memcpy(M, Pm, bytes);
	tagk_status st = tagk_cholesky(n, M);
	if (st != TAGK_OK)
		return st;
	tri_inverse(n, M, T);
	gram_tri(n, T, r, Pm);
	/* C = r Lambda = r (P-)^-1 + A^T A; step = C^-1 A^T e; P = r C^-1. */
	tagk_syrk_t(m, n, A, 1, Pm);
	memcpy(M, Pm, bytes);
	st = tagk_cholesky(n, M);
	if (st != TAGK_OK)
		return st;
	tagk_gemv_t(m, n, A, f->e, g);
	tagk_cholesky_solve(n, 1, M, g);
	tri_inverse(n, M, T);
	gram_tri(n, T, r, Pm);
	return TAGK_OK;
}

/* X = S^-1 by Gauss-Jordan elimination with partial pivoting; S is
 * destroyed. TAGK_ENOTPD on a zero pivot. */
static tagk_status
gauss_jordan_inverse(int m, tagk_real *S, tagk_real *X)
{
	for (int i = 0; i < m; i++)
		for (int j = 0; j < m; j++)
			X[i * m + j] = i == j ? 1 : 0;
	for (int c = 0; c < m; c++) {
		int p = c;
		for (int i = c + 1; i < m; i++)
			if (tagk_fabs(S[i * m + c]) > tagk_fabs(S[p * m + c]))
				p = i;
		if (!(S[p * m + c] != 0))
			return TAGK_ENOTPD;
		if (p != c)
			for (int j = 0; j < m; j++) {
				tagk_real t = S[c * m + j];
				S[c * m + j] = S[p * m + j];
				S[p * m + j] = t;
				t = X[c * m + j];
				X[c * m + j] = X[p * m + j];
				X[p * m + j] = t;
			}
		tagk_real d = 1 / S[c * m + c];
		for (int j = 0; j < m; j++) {
			S[c * m + j] *= d;
			X[c * m + j] *= d;
		}
		for (int i = 0; i < m; i++) {
			tagk_real e = S[i * m + c];
			if (i == c || e == 0)
				continue;
			for (int j = 0; j < m; j++) {
				S[i * m + j] -= e * S[c * m + j];
				X[i * m + j] -= e * X[c * m + j];
			}
		}
	}
	return TAGK_OK;
}

/* The authors' form: the candidate P is left in Pm and the step in g. */
static tagk_status
explicit_update(tagk_kf *f, const tagk_real *A, int m)
{
	const int n = f->n;
	tagk_real *Pm = f->Pm, *AP = f->K, *Si = f->S, *S = f->S2, *Kt = f->Kt, *g = f->g;

	tagk_matmul(m, n, n, A, Pm, AP);          /* A P-  (m x n) */
	tagk_matmul_nt(m, n, m, AP, A, S);        /* A P- A^T */
	for (int i = 0; i < m; i++)
		S[i * m + i] += f->cfg.r;
	tagk_status st = gauss_jordan_inverse(m, S, Si);
	if (st != TAGK_OK)
		return st;
	/* K = P- A^T S^-1, so K^T = S^-T A P-: K^T_pi = sum_q Si_qp AP_qi */
	for (int p = 0; p < m; p++)
		for (int i = 0; i < n; i++) {
			tagk_real v = 0;
			for (int q = 0; q < m; q++)
				v += Si[q * m + p] * AP[q * n + i];
			Kt[p * n + i] = v;
		}
	tagk_gemv_t(m, n, Kt, f->e, g);           /* K e */
	for (int i = 0; i < n; i++)               /* P- - K (A P-) */
		for (int j = 0; j < n; j++) {
			tagk_real v = 0;
			for (int p = 0; p < m; p++)
				v += Kt[p * n + i] * AP[p * n + j];
			Pm[i * n + j] -= v;
		}
	return TAGK_OK;
}

tagk_status
tagk_kf_update(tagk_kf *f, const tagk_real *A, const tagk_real *b, int m)
{
	if (!f)
		return TAGK_EINVAL;
	tagk_status st = tagk_check_window(A, b, m, f->m_max, f->n);
	if (st != TAGK_OK)
		return st;
	const int n = f->n;

	tagk_real *Pm = f->Pm, *g = f->g;
	memcpy(Pm, f->P, sizeof(*Pm) * (size_t)n * (size_t)n);
	for (int i = 0; i < n; i++)
		Pm[i * n + i] += f->cfg.q;
	tagk_residual(m, n, A, f->theta, b, f->e);
	st = f->form == TAGK_KF_JOSEPH ? joseph_update(f, A, m) :
	    f->form == TAGK_KF_EXPLICIT ? explicit_update(f, A, m) : info_update(f, A, m);
	if (st != TAGK_OK)
		return st;
	/* the authors' form goes on with whatever P its update leaves */
	for (int i = 0; i < n && f->form != TAGK_KF_EXPLICIT; i++)
		if (!(Pm[i * n + i] > 0))
			return TAGK_ENOTPD;
	if (!tagk_all_finite(n, g) || !tagk_all_finite(n * n, Pm))
		return TAGK_EDIVERGED;
	tagk_real nis = tagk_outlier_nis(m, n, A, f->e, g, f->cfg.r);
	st = tagk_outlier_check(&f->outlier, nis);
	if (st != TAGK_OK)
		return st;
	tagk_outlier_accept(&f->outlier, nis);
	memcpy(f->P, Pm, sizeof(*Pm) * (size_t)n * (size_t)n);
	for (int j = 0; j < n; j++)
		f->theta[j] += g[j];
	return TAGK_OK;
}

/* The family's operations for the registry (methods.def). preset[0] and
 * preset[1] are q and r. */
static const char *const kf_keys[] = { "q", "r", "p0", "outlier", "form", NULL };
static const char *const kf_forms[] = { "auto", "joseph", "info", "explicit", NULL };

static void
kf_defaults(tagk_config *cfg)
{
	tagk_kf_defaults(&cfg->u.kf, cfg->method->preset[0], cfg->method->preset[1]);
}

static tagk_status
kf_set(tagk_config *cfg, const char *key, double v)
{
	tagk_kf_config *c = &cfg->u.kf;
	if (strcmp(key, "q") == 0 && v >= 0 && v <= 1e300)
		c->q = (tagk_real)v;
	else if (strcmp(key, "r") == 0 && v > 0 && v <= 1e300)
		c->r = (tagk_real)v;
	else if (strcmp(key, "p0") == 0 && v > 0 && v <= 1e300)
		c->p0 = (tagk_real)v;
	else if (strcmp(key, "outlier") == 0 && v >= 0 && v <= 1e300)
		c->outlier = (tagk_real)v;
	else if (strcmp(key, "form") == 0 && (v == TAGK_KF_AUTO || v == TAGK_KF_JOSEPH || v == TAGK_KF_INFO ||
	    v == TAGK_KF_EXPLICIT))
		c->form = (tagk_kf_form_t)(int)v;
	else
		return TAGK_EINVAL;
	return TAGK_OK;
}

static size_t
kf_len(const tagk_config *cfg)
{
	return tagk_kf_workspace_len(&cfg->u.kf, cfg->n, cfg->m_max);
}

static tagk_status
kf_init(tagk_estimator *e, const tagk_config *cfg, tagk_real *ws, size_t len)
{
	return tagk_kf_init(&e->s.kf, &cfg->u.kf, cfg->n, cfg->m_max, cfg->theta0, ws, len);
}

static tagk_status
kf_update(tagk_estimator *e, const tagk_real *A, const tagk_real *b, int m)
{
	return tagk_kf_update(&e->s.kf, A, b, m);
}

static const tagk_real *
kf_theta(const tagk_estimator *e)
{
	return e->s.kf.theta;
}

static void
kf_reset(tagk_estimator *e)
{
	tagk_kf_reset(&e->s.kf);
}

static const char *
kf_form(const tagk_estimator *e)
{
	return tagk_kf_form_name(e->s.kf.form);
}

/* With rows of noise r, P0 = p0 I weighs like r / p0 of information. */
static tagk_real
kf_prior(const tagk_config *cfg)
{
	return cfg->u.kf.r / cfg->u.kf.p0;
}

const tagk_window_ops tagk_kf_ops = {
	{ kf_keys }, kf_defaults, kf_set, kf_forms, kf_len, kf_init, kf_update, kf_theta,
	kf_reset, kf_form, kf_prior,
};
