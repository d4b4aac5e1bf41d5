/*
 * kz_robust.c: tagk-robust, TAG-K made to work on honest data: the paper's
 * algorithm (kaczmarz.c, unchanged) run in scaled parameters on the rows of
 * each window that carry signal. Registered in methods.def; preset[1] is the
 * screening fraction (default 0.2).
 *
 * Why: greedy selection ranks rows by their hyperplane distance
 * r_i^2 / ||a_i||^2, and a Kaczmarz step moves each parameter in proportion
 * to its entry in the chosen row. Both depend on the parameters' units.
 *
 * - Rows at the noise floor, such as a lateral force row of a thrust-only
 *   model (b = 0, a = the accelerometer's lateral noise), lie far from any
 *   estimate with m > 0 and keep being chosen, pulling the mass toward 0: on
 *   the real Crazyflie logs TAG-K's median mass is half the hover figure.
 * - In SI units a rigid body's parameters differ by four orders (m about
 *   0.03 kg, its first moment 1e-4 kg m, its inertia 1e-5 kg m^2) while
 *   their columns are of one size (accelerations, g, angular rates). Every
 *   projection onto a noisy row then throws the first moment and the
 *   inertia far off in relative terms; in the closed loop of the TAG-K
 *   paper that is what made tagk-robust lose up to 5 % of its flights.
 *
 * Scaling: with a length scale l, each body's ten parameters (mass, first
 * moment, inertia: the layout of regressor.h) are theta = D phi with D = m0
 * (1, l, l, l, l^2 x 6), and TAG-K runs on A D for phi: the body's
 * parameters in units of its own mass and size, all of order one. l and m0
 * come from theta0 (l^2 = tr(I0) / (2 m0), the radius of gyration; 0.030 m
 * for a Crazyflie) or l from the option "length" (m0 then 1). Kaczmarz's
 * iterates are not invariant under D (its steps are minimum-norm in phi),
 * which is the point; the stopping test and the tail average are.
 *
 * Screening: a row is left out of the window when both its norm (scaled)
 * and its |b| are below preset[1] of the largest among rows of its kind.
 * Unscaled, all rows are one kind. Scaled, force rows (a mass column is not
 * zero) and moment rows (every mass column zero) are separate kinds, as
 * their b are in different units (N, N m). A row with a small b but a
 * full-size regressor (a torque row, or a lateral row of a vehicle whose
 * lateral force is truly zero) is kept: it is an equation, not noise. A
 * window whose rows would all go is passed whole.
 *
 * Option "length": > 0, the length scale in metres (n a multiple of 10);
 * 0, no scaling; the default (-1), from theta0 when n is a multiple of 10
 * and every body of theta0 has m0 > 0 and tr(I0) > 0, else no scaling.
 * Unscaled and with no row screened, tagk-robust is TAG-K bit for bit.
 *
 * State: the inner TAG-K in est->s.kz (its theta and theta0 are phi); after
 * its workspace: a flag (scaled or not), D (n), theta = D phi (n), and the
 * screened window (m_max x n, then m_max).
 */
#include <string.h>
#include "estimator.h"
#include "inertia.h"

extern const tagk_window_ops tagk_kz_ops;

static const char *const robust_keys[] = { "seed", "iters", "burnin", "tol", "warm-start", "length", NULL };

typedef struct {
	tagk_real *flag, *D, *theta, *Aw, *bw;
} robust_view;

static robust_view
view(tagk_real *ws, int n, int m_max)
{
	robust_view v;
	v.flag = ws + tagk_kz_workspace_len(n, m_max);
	v.D = v.flag + 1;
	v.theta = v.D + n;
	v.Aw = v.theta + n;
	v.bw = v.Aw + (size_t)m_max * (size_t)n;
	return v;
}

static void
robust_defaults(tagk_config *cfg)
{
	tagk_kz_ops.defaults(cfg); /* preset[0]: the variant, TAG-K */
	cfg->u.kzr.length = -1;
}

static tagk_status
robust_set(tagk_config *cfg, const char *key, double v)
{
	if (strcmp(key, "length") != 0)
		return tagk_kz_ops.set(cfg, key, v);
	if (!(v >= 0 && v <= 1e6))
		return TAGK_EINVAL;
	cfg->u.kzr.length = (tagk_real)v;
	return TAGK_OK;
}

static size_t
robust_len(const tagk_config *cfg)
{
	size_t k = tagk_kz_workspace_len(cfg->n, cfg->m_max);
	return k ? k + 1 + 2 * (size_t)cfg->n + (size_t)cfg->m_max * ((size_t)cfg->n + 1) : 0;
}

/* D from the length option or theta0; 0 when the parameters stay unscaled,
 * -1 when the option asks for what the layout cannot give. */
static int
scales(const tagk_config *cfg, tagk_real *D)
{
	const int n = cfg->n;
	tagk_real len = cfg->u.kzr.length;
	if (len == 0)
		return 0;
	if (n % TAGK_NPARAM != 0)
		return len > 0 ? -1 : 0;
	for (int k = 0; k < n; k += TAGK_NPARAM) {
		tagk_real m0 = 1, l = len;
		if (len < 0) {
			if (!cfg->theta0)
				return 0;
			const tagk_real *t = cfg->theta0 + k;
			tagk_real tr = t[TAGK_P_IXX] + t[TAGK_P_IYY] + t[TAGK_P_IZZ];
			if (!(t[TAGK_P_M] > 0) || !(tr > 0))
				return 0;
			m0 = t[TAGK_P_M];
			l = tagk_sqrt(tr / (2 * m0));
		}
		for (int j = 0; j < TAGK_NPARAM; j++)
			D[k + j] = m0 * (j == TAGK_P_M ? 1 : j <= TAGK_P_MCZ ? l : l * l);
	}
	return 1;
}

static tagk_status
robust_init(tagk_estimator *e, const tagk_config *cfg, tagk_real *ws, size_t len)
{
	if (robust_len(cfg) == 0)
		return TAGK_EINVAL;
	if (len < robust_len(cfg))
		return TAGK_ESPACE;
	const int n = cfg->n;
	robust_view v = view(ws, n, cfg->m_max);
	int scaled = scales(cfg, v.D);
	if (scaled < 0)
		return TAGK_EINVAL;
	for (int j = 0; j < n && scaled; j++)
		if (!tagk_isfinite(v.D[j]) || !(v.D[j] > 0))
			return TAGK_EINVAL;
	tagk_kz_config k = cfg->u.kzr.kz;
	k.seed = cfg->seed;
	tagk_status st = tagk_kz_init(&e->s.kz, &k, n, cfg->m_max, cfg->theta0, ws,
	    tagk_kz_workspace_len(n, cfg->m_max));
	if (st != TAGK_OK)
		return st;
	*v.flag = (tagk_real)scaled;
	for (int j = 0; j < n; j++) {
		if (!scaled)
			v.D[j] = 1;
		v.theta[j] = e->s.kz.theta[j];
		e->s.kz.theta[j] /= v.D[j];
		e->s.kz.theta0[j] /= v.D[j];
	}
	return TAGK_OK;
}

/* The kind of row i: 1 for a moment row of a scaled rigid-body layout
 * (every mass column zero), else 0. */
static int
row_kind(const tagk_real *a, int n, int scaled)
{
	if (!scaled)
		return 0;
	for (int k = 0; k < n; k += TAGK_NPARAM)
		if (a[k + TAGK_P_M] != 0)
			return 0;
	return 1;
}

static tagk_real
scaled_norm2(const tagk_real *a, const tagk_real *D, int n)
{
	tagk_real r2 = 0;
	for (int j = 0; j < n; j++)
		r2 += (a[j] * D[j]) * (a[j] * D[j]);
	return r2;
}

static tagk_status
robust_update(tagk_estimator *e, const tagk_real *A, const tagk_real *b, int m)
{
	const int n = e->n;
	if (!A || !b || m < 1 || m > e->s.kz.m_max)
		return TAGK_EINVAL;
	robust_view v = view(e->ws, n, e->s.kz.m_max);
	const int scaled = *v.flag != 0;
	tagk_real amax2[2] = { 0, 0 }, bmax[2] = { 0, 0 }, tau = e->method->preset[1];
	for (int i = 0; i < m; i++) {
		const tagk_real *a = A + (size_t)i * (size_t)n;
		tagk_real r2 = scaled_norm2(a, v.D, n);
		if (!tagk_isfinite(r2) || !tagk_isfinite(b[i]))
			return TAGK_ENONFINITE;
		int g = row_kind(a, n, scaled);
		amax2[g] = r2 > amax2[g] ? r2 : amax2[g];
		bmax[g] = tagk_fabs(b[i]) > bmax[g] ? tagk_fabs(b[i]) : bmax[g];
	}
	/* two passes at most: the screened rows, or, if none is left, all */
	int k = 0;
	for (int all = 0; all < 2 && k == 0; all++)
		for (int i = 0; i < m; i++) {
			const tagk_real *a = A + (size_t)i * (size_t)n;
			int g = row_kind(a, n, scaled);
			if (!all && scaled_norm2(a, v.D, n) < tau * tau * amax2[g] && tagk_fabs(b[i]) < tau * bmax[g])
				continue;
			for (int j = 0; j < n; j++)
				v.Aw[(size_t)k * (size_t)n + j] = a[j] * v.D[j];
			v.bw[k++] = b[i];
		}
	tagk_status st = tagk_kz_update(&e->s.kz, v.Aw, v.bw, k);
	if (st == TAGK_OK)
		for (int j = 0; j < n; j++)
			v.theta[j] = e->s.kz.theta[j] * v.D[j];
	return st;
}

static const tagk_real *
robust_theta(const tagk_estimator *e)
{
	return view(e->ws, e->n, e->s.kz.m_max).theta;
}

static void
robust_reset(tagk_estimator *e)
{
	robust_view v = view(e->ws, e->n, e->s.kz.m_max);
	tagk_kz_reset(&e->s.kz);
	for (int j = 0; j < e->n; j++)
		v.theta[j] = e->s.kz.theta[j] * v.D[j];
}

static const char *
robust_form(const tagk_estimator *e)
{
	return *view(e->ws, e->n, e->s.kz.m_max).flag != 0 ? "greedy-screened-scaled" : "greedy-screened";
}

static tagk_real
robust_prior(const tagk_config *cfg)
{
	(void)cfg;
	return 0;
}

const tagk_window_ops tagk_kz_robust_ops = {
	.head = { robust_keys },
	.defaults = robust_defaults,
	.set = robust_set,
	.forms = NULL,
	.workspace_len = robust_len,
	.init = robust_init,
	.update = robust_update,
	.theta = robust_theta,
	.reset = robust_reset,
	.form = robust_form,
	.prior_information = robust_prior,
};
