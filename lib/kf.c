/* kf.c: random-walk Kalman filter, block update in four forms; see kf.h. */
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
	if (f == TAGK_KF_JOSEPH) /* A P, A P A^T, Cholesky, solve, K A P, T A^T, U K^T and K K^T (upper) */
		return 3 * M * N * N + 2 * M * M * N + M * M * M / 6;
	if (f == TAGK_KF_DOWNDATE) /* A P, A P A^T (upper half), Cholesky, L^-1 A P, W^T W (upper half) */
		return 1.5 * M * N * N + M * M * N + M * M * M / 6;
	if (f == TAGK_KF_EXPLICIT) /* A P, A P A^T, inverse, S^-1 A P, K A P */
		return 2 * M * N * N + 2 * M * M * N + M * M * M;
	return M * N * N / 2 + N * N * N; /* A^T A, two factorizations, inverses and products */
}

tagk_kf_form_t
tagk_kf_pick_form(tagk_kf_form_t f, int n, int m_max)
{
	if (f != TAGK_KF_AUTO)
		return f;
	return m_max > n ? TAGK_KF_INFO : TAGK_KF_DOWNDATE;
}

const char *
tagk_kf_form_name(tagk_kf_form_t f)
{
	return f == TAGK_KF_INFO ? "info" : f == TAGK_KF_JOSEPH ? "joseph" : f == TAGK_KF_EXPLICIT ? "explicit"
	    : f == TAGK_KF_DOWNDATE ? "downdate" : "auto";
}

size_t
tagk_kf_workspace_len(const tagk_kf_config *cfg, int n, int m_max)
{
	if (!cfg || n < 1 || m_max < 1)
		return 0;
	size_t N = (size_t)n, M = (size_t)m_max;
	size_t len = 3 * N + 4 * N * N + M;
	tagk_kf_form_t f = tagk_kf_pick_form(cfg->form, n, m_max);
	if (f == TAGK_KF_JOSEPH) /* A P- and T A^T in M and T when m_max <= n */
		len += M * (N + M) + (M > N ? 2 * M * N : 0);
	else if (f == TAGK_KF_DOWNDATE)
		len += M * (N + M) + M;
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
	    (unsigned)cfg->form > TAGK_KF_DOWNDATE || !(cfg->outlier >= 0))
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
	f->K = f->S = f->Kt = f->S2 = f->z = f->AP = f->U = NULL;
	if (f->form == TAGK_KF_JOSEPH || f->form == TAGK_KF_EXPLICIT || f->form == TAGK_KF_DOWNDATE) {
		f->K = ws; ws += (size_t)m_max * n;
		f->S = ws; ws += (size_t)m_max * m_max;
	}
	if (f->form == TAGK_KF_DOWNDATE) {
		f->z = ws;
		ws += m_max;
	}
	if (f->form == TAGK_KF_JOSEPH && m_max <= n) {
		f->AP = f->M;
		f->U = f->T;
	} else if (f->form == TAGK_KF_JOSEPH) {
		f->AP = ws; ws += (size_t)m_max * n;
		f->U = ws; ws += (size_t)m_max * n;
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

/* Joseph form: the candidate P is left in Pm and the step in g. M = I - K A
 * is applied through its low rank, never formed: T = M P- = P- - K (A P-)
 * and M P- M^T = T - (T A^T) K^T, three m n^2 products where forming M
 * and multiplying would take two n^3. The value is the Joseph form's, with
 * its first-order insensitivity to errors in K; only the rounding of the
 * products differs. A P- and T A^T live in M and T when m <= n (the
 * workspace of the earlier explicit-M version, which a Teensy's 512 KiB
 * OCRAM holds at n = 120). */
static tagk_status
joseph_update(tagk_kf *f, const tagk_real *A, int m)
{
	const int n = f->n;
	tagk_real *Pm = f->Pm, *K = f->K, *S = f->S, *AP = f->AP, *U = f->U, *g = f->g;
	const tagk_real r = f->cfg.r;

	tagk_matmul(m, n, n, A, Pm, AP);          /* A P-  (m x n) */
	tagk_matmul_nt_sym(m, n, AP, A, S);       /* A P- A^T */
	for (int i = 0; i < m; i++)
		S[i * m + i] += r;
	tagk_status st = tagk_cholesky(m, S);
	if (st != TAGK_OK)
		return st;
	memcpy(K, AP, sizeof(*K) * (size_t)m * (size_t)n);
	tagk_cholesky_solve(m, n, S, K);          /* K^T = S^-1 A P-  (m x n) */
	tagk_gemv_t(m, n, K, f->e, g);            /* K e */

	tagk_sub_tn(m, n, K, AP, 0, Pm);          /* T = P- - K (A P-) in place of P- */
	tagk_matmul_nt(n, n, m, Pm, A, U);        /* U = T A^T  (n x m) */
	/* T - U K^T + r K K^T on the upper half, row i of T read only by row i;
	 * four columns of K^T at a time, so that each entry of T is loaded and
	 * stored once per four, its additions still in q order (the bits of the
	 * plain loop, q = 0, 1, ...) */
	for (int i = 0; i < n; i++) {
		tagk_real *restrict c = Pm + i * n;
		const tagk_real *u = U + i * m;
		int q = 0;
		for (; q + 4 <= m; q += 4) {
			const tagk_real *restrict k0 = K + q * n, *restrict k1 = k0 + n, *restrict k2 = k1 + n,
			    *restrict k3 = k2 + n;
			const tagk_real r0 = r * k0[i], r1 = r * k1[i], r2 = r * k2[i], r3 = r * k3[i];
			const tagk_real u0 = u[q], u1 = u[q + 1], u2 = u[q + 2], u3 = u[q + 3];
			for (int j = i; j < n; j++)
				c[j] = (((c[j] + (r0 * k0[j] - u0 * k0[j])) + (r1 * k1[j] - u1 * k1[j])) +
				    (r2 * k2[j] - u2 * k2[j])) + (r3 * k3[j] - u3 * k3[j]);
		}
		for (; q < m; q++) {
			const tagk_real *k = K + q * n, rk = r * k[i], uq = u[q];
			for (int j = i; j < n; j++)
				c[j] += rk * k[j] - uq * k[j];
		}
	}
	tagk_symmetrize(n, Pm);
	return TAGK_OK;
}

/* Downdate form: P = P- - W^T W with W = L^-1 A P- and S = L L^T, which is
 * the Joseph form's P in exact arithmetic (K = P- A^T S^-1 = W^T L^-1), in
 * about a third of its work at n = 4 m: no n^3 product. The candidate P is
 * left in Pm and the step in g. */
static tagk_status
downdate_update(tagk_kf *f, const tagk_real *A, int m)
{
	const int n = f->n;
	tagk_real *Pm = f->Pm, *W = f->K, *S = f->S, *z = f->z, *g = f->g;

	tagk_matmul(m, n, n, A, Pm, W);           /* A P-  (m x n) */
	for (int i = 0; i < m; i++)               /* S = A P- A^T + r I, upper half */
		for (int j = i; j < m; j++)
			S[i * m + j] = tagk_dot(n, W + i * n, A + j * n) + (i == j ? f->cfg.r : 0);
	tagk_symmetrize(m, S);
	tagk_status st = tagk_cholesky(m, S);
	if (st != TAGK_OK)
		return st;
	tagk_trsm_lower(m, n, S, W);              /* W = L^-1 A P- */
	memcpy(z, f->e, sizeof(*z) * (size_t)m);
	tagk_trsm_lower(m, 1, S, z);              /* L^-1 e */
	tagk_gemv_t(m, n, W, z, g);               /* K e = W^T L^-1 e */
	tagk_sub_tn(m, n, W, W, 1, Pm);           /* Pm -= W^T W on the upper half */
	tagk_symmetrize(n, Pm);
	return TAGK_OK;
}

/* X = L^-1 for a lower-triangular n x n L (X lower triangular): forward
 * substitution on the identity, row i of X non-zero in columns 0..i only,
 * so that only those are touched (a sixth of n^3, not half). */
static void
tri_inverse(int n, const tagk_real *L, tagk_real *X)
{
	for (int i = 0; i < n; i++) {
		tagk_real *xi = X + i * n;
		const tagk_real *li = L + i * n;
		for (int j = 0; j < n; j++)
			xi[j] = i == j ? 1 : 0;
		for (int p = 0; p < i; p++) {
			tagk_real l = li[p];
			const tagk_real *xp = X + p * n;
			for (int c = 0; c <= p; c++)
				xi[c] -= l * xp[c];
		}
		tagk_real inv = (tagk_real)1 / li[i];
		for (int c = 0; c <= i; c++)
			xi[c] *= inv;
	}
}

/* C = s X^T X for a lower-triangular n x n X, on the upper half a row of X
 * at a time (row k adds to C_ij for i <= j <= k). */
static void
gram_tri(int n, const tagk_real *X, tagk_real s, tagk_real *C)
{
	for (int i = 0; i < n; i++)
		for (int j = i; j < n; j++)
			C[i * n + j] = 0;
	for (int k = 0; k < n; k++) {
		const tagk_real *x = X + k * n;
		for (int i = 0; i <= k; i++) {
			tagk_real xi = x[i], *c = C + i * n;
			for (int j = i; j <= k; j++)
				c[j] += xi * x[j];
		}
	}
	for (int i = 0; i < n; i++)
		for (int j = i; j < n; j++)
			C[i * n + j] *= s;
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
	st = f->form == TAGK_KF_JOSEPH ? joseph_update(f, A, m) : f->form == TAGK_KF_DOWNDATE ? downdate_update(f, A, m)
	    : f->form == TAGK_KF_EXPLICIT ? explicit_update(f, A, m) : info_update(f, A, m);
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
	tagk_outlier_accept(&f->outlier, nis, tagk_outlier_rows(m, b, f->cfg.r));
	memcpy(f->P, Pm, sizeof(*Pm) * (size_t)n * (size_t)n);
	for (int j = 0; j < n; j++)
		f->theta[j] += g[j];
	return TAGK_OK;
}

/* The family's operations for the registry (methods.def). preset[0] and
 * preset[1] are q and r. */
static const char *const kf_keys[] = { "q", "r", "p0", "outlier", "form", NULL };
static const char *const kf_forms[] = { "auto", "joseph", "info", "explicit", "downdate", NULL };

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
	    v == TAGK_KF_EXPLICIT || v == TAGK_KF_DOWNDATE))
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

static tagk_real
kf_noise_ratio(const tagk_estimator *e)
{
	return tagk_outlier_scale(&e->s.kf.outlier);
}

static tagk_status
kf_posterior(const tagk_estimator *e, tagk_real *P, tagk_real *r, tagk_real *scratch)
{
	(void)scratch;
	const tagk_kf *f = &e->s.kf;
	memcpy(P, f->P, sizeof(*P) * (size_t)f->n * (size_t)f->n);
	*r = f->cfg.r;
	return TAGK_OK;
}

const tagk_window_ops tagk_kf_ops = {
	.head = { kf_keys },
	.defaults = kf_defaults,
	.set = kf_set,
	.forms = kf_forms,
	.workspace_len = kf_len,
	.init = kf_init,
	.update = kf_update,
	.theta = kf_theta,
	.reset = kf_reset,
	.form = kf_form,
	.prior_information = kf_prior,
	.noise_ratio = kf_noise_ratio,
	.posterior = kf_posterior,
};
