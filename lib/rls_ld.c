/*
 * rls_ld.c: recursive least squares regularised by the log-determinant
 * divergence of pseudo-inertias (rls-ld; Cho et al., ICRA 2024, the
 * estimator of paper 003), and its Euclidean counterpart (rls-l2), as the
 * reference implementation nhcho91/EntDiv_RLS (RLS_ldetdiv, RLS_l2) has them.
 * Registered in methods.def; preset[0] is the variant (0 rls-ld, 1 rls-l2),
 * preset[1] alpha and preset[2] beta.
 *
 * theta holds nb bodies' ten parameters (inertia.h order) followed by
 * n - 10 nb other parameters psi (friction, offsets); nb is the "bodies"
 * option, n / 10 by default.
 *
 * rls-ld, per window (A, b):
 *   Omega <- lambda Omega + A^T A                (Omega starts at 0)
 *   Delta  = argmin g0^T Delta + Delta^T Omega Delta / 2
 *            + alpha sum_k D(J_k(theta' + Delta) || J_k(theta'))
 *            + alpha beta ||Delta_psi||^2 / 2,   g0 = A^T (A theta' - b)
 *   theta  = theta' + Delta                       (theta' the last estimate)
 * with D(J || J') = -log det J + log det J' + tr(J'^-1 J) - 4. The
 * objective is the information-form RLS step plus a Bregman proximal term,
 * so as alpha -> 0 the step is the information-form RLS step. It is solved
 * by Newton's method from Delta = 0, stopping when half the squared Newton
 * decrement is at most tol (the reference's epsilon, 1e-20) or when a step
 * can no longer lower the objective beyond rounding, after at most iters
 * steps. The reference takes full steps; here each step is halved until
 * every J stays positive definite and the objective falls by at least a
 * quarter of the decrement (Armijo), which leaves full steps unchanged
 * wherever they were safe. So every estimate emitted is physically
 * consistent, given a consistent starting estimate (init refuses others
 * with TAGK_ENOTPD).
 *
 * rls-l2 is the reference's RLS_l2: ordinary RLS with the prior covariance
 * P0 = diag(1 / alpha on the bodies' parameters, 1 / (alpha beta) on psi),
 * that is an l2 prior centred on theta0, not a per-step proximal term; its
 * estimates may leave the physical set. Here it runs in information form
 * (Omega starts at P0^-1) with the same forgetting.
 *
 * Scaling: the reference weights rows by W = w I with w = 1 / (N dim tau),
 * N the number of samples; with unweighted rows, as here, its alpha becomes
 * alpha / w.
 *
 * Workspace (tagk_real): a header of 9 scalars, then theta and theta0 (n),
 * Omega, the next Omega and the Hessian (n x n each), g0, g, the step, Delta,
 * the trial Delta and the prior's gradient (n each), and per body the
 * inverse of J' (16) and log det J' (1); plus 10 x 16 + 32 scratch.
 */
#include <string.h>
#include "estimator.h"
#include "inertia.h"
#include "linalg.h"

enum { H_ALPHA, H_BETA, H_LAMBDA, H_TOL, H_ITERS, H_NB, H_VARIANT, H_LAST, H_MMAX, HEADER };

static const char *const ld_keys[] = { "alpha", "beta", "lambda", "tol", "iters", "bodies", NULL };

/* cfg->u.any: the header's first six entries, in the same order */
static void
ld_defaults(tagk_config *cfg)
{
	cfg->u.any[H_ALPHA] = cfg->method->preset[1];
	cfg->u.any[H_BETA] = cfg->method->preset[2];
	cfg->u.any[H_LAMBDA] = 1;
	cfg->u.any[H_TOL] = (tagk_real)1e-20;
	cfg->u.any[H_ITERS] = 50;
	cfg->u.any[H_NB] = -1; /* n / 10 */
}

static tagk_status
ld_set(tagk_config *cfg, const char *key, double v)
{
	for (int i = 0; ld_keys[i]; i++) {
		if (strcmp(key, ld_keys[i]) != 0)
			continue;
		int ok = i == H_ALPHA || i == H_BETA ? v > 0 && v <= 1e30 /* finite in float too */
		    : i == H_LAMBDA ? v > 0 && v <= 1
		    : i == H_TOL ? v >= 0 && v < 1
		    : i == H_ITERS ? v >= 1 && v <= 1000 && v == (double)(long)v
		    : v >= 0 && v <= 100000 && v == (double)(long)v;
		if (!ok)
			return TAGK_EINVAL;
		cfg->u.any[i] = (tagk_real)v;
		return TAGK_OK;
	}
	return TAGK_EINVAL;
}

static int
bodies_of(const tagk_config *cfg)
{
	return cfg->u.any[H_NB] < 0 ? cfg->n / TAGK_NPARAM : (int)cfg->u.any[H_NB];
}

/* Offsets into the workspace, from n and nb. */
typedef struct {
	tagk_real *h, *theta, *theta0, *Om, *On, *H, *g0, *g, *d, *D, *Dt, *gp, *Jpi, *ldp, *M, *S;
} ld_view;

static size_t
ld_len_n(int n, int nb)
{
	return HEADER + 3 * (size_t)n * (size_t)n + 8 * (size_t)n + 17 * (size_t)nb + 10 * 16 + 32;
}

static ld_view
view(tagk_real *ws, int n, int nb)
{
	ld_view v;
	size_t nn = (size_t)n * (size_t)n;
	v.h = ws;
	v.theta = ws + HEADER;
	v.theta0 = v.theta + n;
	v.Om = v.theta0 + n;
	v.On = v.Om + nn;
	v.H = v.On + nn;
	v.g0 = v.H + nn;
	v.g = v.g0 + n;
	v.d = v.g + n;
	v.D = v.d + n;
	v.Dt = v.D + n;
	v.gp = v.Dt + n;
	v.Jpi = v.gp + n;
	v.ldp = v.Jpi + 16 * (size_t)nb;
	v.M = v.ldp + nb;
	v.S = v.M + 10 * 16;
	return v;
}

static size_t
ld_len(const tagk_config *cfg)
{
	int nb = bodies_of(cfg);
	if (cfg->n < 1 || cfg->m_max < 1 || nb < 0 || (long)nb * TAGK_NPARAM > cfg->n)
		return 0;
	return ld_len_n(cfg->n, nb);
}

/* J of body theta (10) factored in L; its inverse in Ji and log det in *ld
 * when asked. 0 if J is not positive definite. */
static int
factor(const tagk_real *theta, tagk_real L[16], tagk_real *Ji, tagk_real *ld)
{
	tagk_pseudo_inertia(theta, L);
	if (tagk_cholesky(4, L) != TAGK_OK)
		return 0;
	if (ld) {
		tagk_real s = 0;
		for (int i = 0; i < 4; i++)
			s += tagk_log(L[i * 5]);
		*ld = 2 * s;
	}
	if (Ji) {
		memset(Ji, 0, 16 * sizeof(*Ji));
		for (int i = 0; i < 4; i++)
			Ji[i * 5] = 1;
		tagk_cholesky_solve(4, 4, L, Ji);
	}
	return 1;
}

/* tr(X E_i) for the ten basis matrices E_i = J(e_i) of inertia.h's order:
 * E_i is linear in theta, so J(e_i) is read off tagk_pseudo_inertia. */
static void
trace_basis(const tagk_real X[16], tagk_real out[TAGK_NPARAM])
{
	for (int i = 0; i < TAGK_NPARAM; i++) {
		tagk_real e[TAGK_NPARAM] = { 0 }, E[16];
		e[i] = 1;
		tagk_pseudo_inertia(e, E);
		tagk_real s = 0;
		for (int a = 0; a < 16; a++)
			s += X[a] * E[a]; /* both symmetric: tr(X E) = sum X_ab E_ab */
		out[i] = s;
	}
}

static void ld_reset(tagk_estimator *e);

static tagk_status
ld_init(tagk_estimator *e, const tagk_config *cfg, tagk_real *ws, size_t len)
{
	size_t need = ld_len(cfg);
	if (need == 0 || !(cfg->u.any[H_ALPHA] > 0) || !(cfg->u.any[H_BETA] > 0))
		return TAGK_EINVAL;
	if (len < need)
		return TAGK_ESPACE;
	const int n = cfg->n, nb = bodies_of(cfg);
	int variant = (int)cfg->method->preset[0];
	ld_view v = view(ws, n, nb);
	if (cfg->theta0 && !tagk_all_finite(n, cfg->theta0))
		return TAGK_ENONFINITE;
	if (variant == 0) {
		/* rls-ld's divergence needs every body's J positive definite */
		tagk_real L[16];
		for (int k = 0; k < nb; k++)
			if (!cfg->theta0 || !factor(cfg->theta0 + TAGK_NPARAM * k, L, NULL, NULL))
				return TAGK_ENOTPD;
	}
	for (int i = 0; i < 6; i++)
		v.h[i] = cfg->u.any[i];
	v.h[H_NB] = (tagk_real)nb;
	v.h[H_VARIANT] = (tagk_real)variant;
	v.h[H_LAST] = 0;
	v.h[H_MMAX] = (tagk_real)cfg->m_max;
	for (int i = 0; i < n; i++)
		v.theta0[i] = cfg->theta0 ? cfg->theta0[i] : 0;
	e->ws = ws;
	e->ws_len = len;
	e->n = n;
	ld_reset(e);
	return TAGK_OK;
}

static void
ld_reset(tagk_estimator *e)
{
	const int n = e->n, nb = (int)e->ws[H_NB];
	ld_view v = view(e->ws, n, nb);
	memcpy(v.theta, v.theta0, sizeof(*v.theta) * (size_t)n);
	memset(v.Om, 0, sizeof(*v.Om) * (size_t)n * (size_t)n);
	if ((int)v.h[H_VARIANT] == 1)
		for (int i = 0; i < n; i++)
			v.Om[i * (n + 1)] = v.h[H_ALPHA] * (i < TAGK_NPARAM * nb ? 1 : v.h[H_BETA]);
	v.h[H_LAST] = 0;
}

/* The objective at Delta (v.Dt holds it), or -1 with *ok = 0 when some J
 * is not positive definite. */
static tagk_real
objective(const ld_view *v, int n, int nb, const tagk_real *Dl, int *ok)
{
	tagk_real f = 0, q = 0, L[16];
	for (int i = 0; i < n; i++) {
		f += v->g0[i] * Dl[i];
		q += Dl[i] * tagk_dot(n, v->Om + (size_t)i * (size_t)n, Dl);
	}
	f += q / 2;
	tagk_real alpha = v->h[H_ALPHA], beta = v->h[H_BETA], reg = 0;
	for (int k = 0; k < nb; k++) {
		tagk_real th[TAGK_NPARAM], J[16], ld;
		for (int i = 0; i < TAGK_NPARAM; i++)
			th[i] = v->theta[TAGK_NPARAM * k + i] + Dl[TAGK_NPARAM * k + i];
		if (!factor(th, L, NULL, &ld)) {
			*ok = 0;
			return -1;
		}
		tagk_pseudo_inertia(th, J);
		tagk_real tr = 0;
		for (int a = 0; a < 16; a++)
			tr += v->Jpi[16 * k + a] * J[a];
		reg += -ld + v->ldp[k] + tr - 4;
	}
	for (int i = TAGK_NPARAM * nb; i < n; i++)
		reg += beta * Dl[i] * Dl[i] / 2;
	*ok = 1;
	return f + alpha * reg;
}

/* g and H at Delta = v.D: the data part from Omega, the divergence's
 * gradient tr(J'^-1 E_i) - tr(J^-1 E_i) and Hessian tr(J^-1 E_i J^-1 E_j). */
static int
gradient_hessian(const ld_view *v, int n, int nb)
{
	tagk_real alpha = v->h[H_ALPHA], beta = v->h[H_BETA];
	for (int i = 0; i < n; i++)
		v->g[i] = v->g0[i] + tagk_dot(n, v->On + (size_t)i * (size_t)n, v->D);
	memcpy(v->H, v->On, sizeof(*v->H) * (size_t)n * (size_t)n);
	for (int k = 0; k < nb; k++) {
		tagk_real th[TAGK_NPARAM], L[16], Ji[16], tj[TAGK_NPARAM];
		const int o = TAGK_NPARAM * k;
		for (int i = 0; i < TAGK_NPARAM; i++)
			th[i] = v->theta[o + i] + v->D[o + i];
		if (!factor(th, L, Ji, NULL))
			return 0;
		trace_basis(Ji, tj);
		for (int i = 0; i < TAGK_NPARAM; i++) {
			v->g[o + i] += alpha * (v->gp[o + i] - tj[i]);
			/* M_i = J^-1 E_i */
			tagk_real e[TAGK_NPARAM] = { 0 }, E[16];
			e[i] = 1;
			tagk_pseudo_inertia(e, E);
			tagk_matmul(4, 4, 4, Ji, E, v->M + 16 * i);
		}
		for (int i = 0; i < TAGK_NPARAM; i++)
			for (int j = 0; j <= i; j++) {
				const tagk_real *Mi = v->M + 16 * i, *Mj = v->M + 16 * j;
				tagk_real s = 0;
				for (int a = 0; a < 4; a++)
					for (int b = 0; b < 4; b++)
						s += Mi[a * 4 + b] * Mj[b * 4 + a];
				v->H[(size_t)(o + i) * (size_t)n + (size_t)(o + j)] += alpha * s;
				if (j != i)
					v->H[(size_t)(o + j) * (size_t)n + (size_t)(o + i)] += alpha * s;
			}
	}
	for (int i = TAGK_NPARAM * nb; i < n; i++) {
		v->g[i] += alpha * beta * v->D[i];
		v->H[(size_t)i * (size_t)(n + 1)] += alpha * beta;
	}
	return 1;
}

static tagk_status
ld_update(tagk_estimator *e, const tagk_real *A, const tagk_real *b, int m)
{
	const int n = e->n, nb = (int)e->ws[H_NB];
	ld_view v = view(e->ws, n, nb);
	tagk_status st = tagk_check_window(A, b, m, (int)v.h[H_MMAX], n);
	if (st != TAGK_OK)
		return st;
	/* next Omega, and g0 = A^T (A theta' - b) */
	memcpy(v.On, v.Om, sizeof(*v.On) * (size_t)n * (size_t)n);
	tagk_syrk_t(m, n, A, v.h[H_LAMBDA], v.On);
	memset(v.g0, 0, sizeof(*v.g0) * (size_t)n);
	for (int r = 0; r < m; r++) {
		tagk_real res = tagk_dot(n, A + (size_t)r * (size_t)n, v.theta) - b[r];
		for (int j = 0; j < n; j++)
			v.g0[j] += A[(size_t)r * (size_t)n + j] * res;
	}
	memset(v.D, 0, sizeof(*v.D) * (size_t)n);
	int iters = 0;
	if ((int)v.h[H_VARIANT] == 1) {
		/* rls-l2: one exact step, Delta = -Omega^-1 g0 */
		memcpy(v.H, v.On, sizeof(*v.H) * (size_t)n * (size_t)n);
		if (tagk_cholesky(n, v.H) != TAGK_OK)
			return TAGK_ENOTPD;
		for (int i = 0; i < n; i++)
			v.D[i] = -v.g0[i];
		tagk_cholesky_solve(n, 1, v.H, v.D);
		iters = 1;
	} else {
		for (int k = 0; k < nb; k++) {
			tagk_real L[16];
			if (!factor(v.theta + TAGK_NPARAM * k, L, v.Jpi + 16 * k, v.ldp + k))
				return TAGK_ENOTPD; /* cannot happen: emitted estimates are PD */
			trace_basis(v.Jpi + 16 * k, v.gp + TAGK_NPARAM * k);
		}
		/* the objective is 0 at Delta = 0 (D(J' || J') = 0) */
		tagk_real f = 0, eps = (tagk_real)TAGK_EPS;
		const int max_iters = (int)v.h[H_ITERS];
		/* the objective measures the Omega and Omega' quadratics with the
		 * next Omega: objective() reads v.Om, so point it there */
		ld_view w = v;
		w.Om = v.On;
		while (iters < max_iters) {
			if (!gradient_hessian(&v, n, nb))
				return TAGK_ENOTPD;
			if (tagk_cholesky(n, v.H) != TAGK_OK)
				return TAGK_ENOTPD;
			for (int i = 0; i < n; i++)
				v.d[i] = -v.g[i];
			tagk_cholesky_solve(n, 1, v.H, v.d);
			tagk_real lam2 = -tagk_dot(n, v.g, v.d);
			if (!tagk_isfinite(lam2))
				return TAGK_EDIVERGED;
			if (lam2 / 2 <= v.h[H_TOL])
				break;
			tagk_real t = 1, ft = 0;
			int ok = 0;
			for (int h = 0; h < 60; h++, t /= 2) {
				for (int i = 0; i < n; i++)
					v.Dt[i] = v.D[i] + t * v.d[i];
				ft = objective(&w, n, nb, v.Dt, &ok);
				if (ok && ft <= f - t * lam2 / 4)
					break;
				ok = 0;
			}
			iters++;
			if (!ok)
				break; /* no step lowers the objective: Delta is optimal to rounding */
			memcpy(v.D, v.Dt, sizeof(*v.D) * (size_t)n);
			int tiny = f - ft <= 16 * eps * (tagk_fabs(f) + tagk_fabs(ft));
			f = ft;
			if (tiny)
				break;
		}
	}
	for (int i = 0; i < n; i++)
		v.Dt[i] = v.theta[i] + v.D[i];
	if (!tagk_all_finite(n, v.Dt))
		return TAGK_EDIVERGED;
	memcpy(v.theta, v.Dt, sizeof(*v.theta) * (size_t)n);
	memcpy(v.Om, v.On, sizeof(*v.Om) * (size_t)n * (size_t)n);
	v.h[H_LAST] = (tagk_real)iters;
	return TAGK_OK;
}

static const tagk_real *
ld_theta(const tagk_estimator *e)
{
	return e->ws + HEADER;
}

static const char *
ld_form(const tagk_estimator *e)
{
	return (int)e->ws[H_VARIANT] == 1 ? "info" : "newton";
}

static tagk_real
ld_prior(const tagk_config *cfg)
{
	/* rls-l2's prior information per parameter is alpha (beta alpha on psi);
	 * rls-ld's Omega starts at 0, its prior acting through the divergence */
	return cfg->method->preset[0] == 1 ? cfg->u.any[H_ALPHA] : 0;
}

const tagk_window_ops tagk_rls_ld_ops = {
	.head = { ld_keys },
	.defaults = ld_defaults,
	.set = ld_set,
	.forms = NULL,
	.workspace_len = ld_len,
	.init = ld_init,
	.update = ld_update,
	.theta = ld_theta,
	.reset = ld_reset,
	.form = ld_form,
	.prior_information = ld_prior,
};
