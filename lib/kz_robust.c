/*
 * kz_robust.c: tagk-robust, TAG-K with rows at the noise floor screened out
 * of each window: the paper's algorithm (kaczmarz.c, unchanged) on the rows
 * that carry signal. Registered in methods.def; preset[1] is the screening
 * fraction (default 0.2).
 *
 * Why: greedy selection ranks rows by their hyperplane distance
 * r_i^2 / ||a_i||^2, which ignores how large a row is. A row at the noise
 * floor, such as a lateral force row of a thrust-only mass model (b = 0, a =
 * the accelerometer's lateral noise), lies far from any estimate with m > 0
 * and keeps being chosen, pulling the mass toward 0: on the real Crazyflie
 * logs TAG-K's median mass is half the hover figure (README).
 *
 * Rule: a row is left out of the window when both its norm ||a_i|| and its
 * |b_i| are below preset[1] of the window's largest. A row with a small b
 * but a full-size regressor (a torque row, or a lateral row of a vehicle
 * whose lateral force is truly zero) is kept: it is an equation, not noise.
 * A window whose rows would all go is passed whole.
 *
 * State: the inner TAG-K in est->s.kz; the screened window in the workspace
 * after the inner one's.
 */
#include <string.h>
#include "estimator.h"

extern const tagk_window_ops tagk_kz_ops;

static const char *const robust_keys[] = { "seed", "iters", "burnin", "tol", "warm-start", NULL };

static void
robust_defaults(tagk_config *cfg)
{
	tagk_kz_ops.defaults(cfg); /* preset[0]: the variant, TAG-K */
}

static tagk_status
robust_set(tagk_config *cfg, const char *key, double v)
{
	return tagk_kz_ops.set(cfg, key, v);
}

static size_t
robust_len(const tagk_config *cfg)
{
	size_t k = tagk_kz_workspace_len(cfg->n, cfg->m_max);
	return k ? k + (size_t)cfg->m_max * ((size_t)cfg->n + 1) : 0;
}

static tagk_status
robust_init(tagk_estimator *e, const tagk_config *cfg, tagk_real *ws, size_t len)
{
	if (robust_len(cfg) == 0)
		return TAGK_EINVAL;
	if (len < robust_len(cfg))
		return TAGK_ESPACE;
	tagk_kz_config k = cfg->u.kz;
	k.seed = cfg->seed;
	return tagk_kz_init(&e->s.kz, &k, cfg->n, cfg->m_max, cfg->theta0, ws,
	    tagk_kz_workspace_len(cfg->n, cfg->m_max));
}

static tagk_status
robust_update(tagk_estimator *e, const tagk_real *A, const tagk_real *b, int m)
{
	const int n = e->n;
	if (!A || !b || m < 1 || m > e->s.kz.m_max)
		return TAGK_EINVAL;
	tagk_real *Aw = e->ws + tagk_kz_workspace_len(n, e->s.kz.m_max), *bw = Aw + (size_t)e->s.kz.m_max * (size_t)n;
	tagk_real amax2 = 0, bmax = 0, tau = e->method->preset[1];
	for (int i = 0; i < m; i++) {
		tagk_real r2 = 0;
		for (int j = 0; j < n; j++)
			r2 += A[i * n + j] * A[i * n + j];
		if (!tagk_isfinite(r2) || !tagk_isfinite(b[i]))
			return TAGK_ENONFINITE;
		amax2 = r2 > amax2 ? r2 : amax2;
		bmax = tagk_fabs(b[i]) > bmax ? tagk_fabs(b[i]) : bmax;
	}
	int k = 0;
	for (int i = 0; i < m; i++) {
		tagk_real r2 = 0;
		for (int j = 0; j < n; j++)
			r2 += A[i * n + j] * A[i * n + j];
		if (r2 < tau * tau * amax2 && tagk_fabs(b[i]) < tau * bmax)
			continue;
		memcpy(Aw + (size_t)k * (size_t)n, A + (size_t)i * (size_t)n, sizeof(*A) * (size_t)n);
		bw[k++] = b[i];
	}
	return k ? tagk_kz_update(&e->s.kz, Aw, bw, k) : tagk_kz_update(&e->s.kz, A, b, m);
}

static const tagk_real *
robust_theta(const tagk_estimator *e)
{
	return e->s.kz.theta;
}

static void
robust_reset(tagk_estimator *e)
{
	tagk_kz_reset(&e->s.kz);
}

static const char *
robust_form(const tagk_estimator *e)
{
	(void)e;
	return "greedy-screened";
}

static tagk_real
robust_prior(const tagk_config *cfg)
{
	(void)cfg;
	return 0;
}

const tagk_window_ops tagk_kz_robust_ops = {
	{ robust_keys }, robust_defaults, robust_set, NULL, robust_len, robust_init, robust_update,
	robust_theta, robust_reset, robust_form, robust_prior,
};
