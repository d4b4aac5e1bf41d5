/* estimator.c: method registry and dispatch; see estimator.h. */
#include <string.h>
#include "estimator.h"

static const tagk_method methods[] = {
	{ "rk", "randomized Kaczmarz, rows drawn by squared norm",
	  TAGK_FAMILY_KACZMARZ, TAGK_KZ_RK, 0, 0 },
	{ "grk", "greedy randomized Kaczmarz (Bai and Wu)",
	  TAGK_FAMILY_KACZMARZ, TAGK_KZ_GRK, 0, 0 },
	{ "tark", "randomized Kaczmarz with tail averaging",
	  TAGK_FAMILY_KACZMARZ, TAGK_KZ_TARK, 0, 0 },
	{ "tagk", "tail-averaged greedy Kaczmarz (TAG-K, Algorithm 1)",
	  TAGK_FAMILY_KACZMARZ, TAGK_KZ_TAGK, 0, 0 },
	{ "rls", "block recursive least squares, no forgetting (lambda 1)",
	  TAGK_FAMILY_RLS, 0, 1, 0 },
	{ "rls-low", "block RLS, paper's low-forgetting preset (lambda 0.99)",
	  TAGK_FAMILY_RLS, 0, (tagk_real)0.99, 0 },
	{ "rls-high", "block RLS, paper's high-forgetting preset (lambda 0.96)",
	  TAGK_FAMILY_RLS, 0, (tagk_real)0.96, 0 },
	{ "kf", "random-walk Kalman filter (Q 1e-3 I, R 1e-5 I)",
	  TAGK_FAMILY_KF, 0, (tagk_real)1e-3, (tagk_real)1e-5 },
	{ "kf-low", "Kalman filter, paper's low-noise preset (Q 1e-3 I, R 1e-5 I)",
	  TAGK_FAMILY_KF, 0, (tagk_real)1e-3, (tagk_real)1e-5 },
	{ "kf-high", "Kalman filter, paper's high-noise preset (Q 1e-1 I, R 1e-3 I)",
	  TAGK_FAMILY_KF, 0, (tagk_real)1e-1, (tagk_real)1e-3 },
};

int
tagk_method_count(void)
{
	return (int)(sizeof(methods) / sizeof(methods[0]));
}

const tagk_method *
tagk_method_at(int i)
{
	return i >= 0 && i < tagk_method_count() ? &methods[i] : NULL;
}

const tagk_method *
tagk_method_find(const char *name)
{
	if (!name)
		return NULL;
	for (int i = 0; i < tagk_method_count(); i++)
		if (strcmp(methods[i].name, name) == 0)
			return &methods[i];
	return NULL;
}

void
tagk_config_defaults(tagk_config *cfg, const tagk_method *mt, int n, int m_max)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->method = mt;
	cfg->n = n;
	cfg->m_max = m_max;
	if (!mt)
		return;
	switch (mt->family) {
	case TAGK_FAMILY_KACZMARZ:
		tagk_kz_defaults(&cfg->u.kz, (tagk_kz_variant)mt->variant);
		break;
	case TAGK_FAMILY_RLS:
		tagk_rls_defaults(&cfg->u.rls, mt->p1);
		break;
	case TAGK_FAMILY_KF:
		tagk_kf_defaults(&cfg->u.kf, mt->p1, mt->p2);
		break;
	}
}

size_t
tagk_workspace_len(const tagk_config *cfg)
{
	if (!cfg || !cfg->method)
		return 0;
	switch (cfg->method->family) {
	case TAGK_FAMILY_KACZMARZ: return tagk_kz_workspace_len(cfg->n, cfg->m_max);
	case TAGK_FAMILY_RLS: return tagk_rls_workspace_len(&cfg->u.rls, cfg->n, cfg->m_max);
	case TAGK_FAMILY_KF: return tagk_kf_workspace_len(&cfg->u.kf, cfg->n, cfg->m_max);
	}
	return 0;
}

tagk_status
tagk_init(tagk_estimator *est, const tagk_config *cfg, tagk_real *ws, size_t len)
{
	if (!est || !cfg || !cfg->method)
		return TAGK_EINVAL;
	tagk_status st = TAGK_EINVAL;
	switch (cfg->method->family) {
	case TAGK_FAMILY_KACZMARZ:
		st = tagk_kz_init(&est->s.kz, &cfg->u.kz, cfg->n, cfg->m_max, cfg->theta0, ws, len);
		break;
	case TAGK_FAMILY_RLS:
		st = tagk_rls_init(&est->s.rls, &cfg->u.rls, cfg->n, cfg->m_max, cfg->theta0, ws, len);
		break;
	case TAGK_FAMILY_KF:
		st = tagk_kf_init(&est->s.kf, &cfg->u.kf, cfg->n, cfg->m_max, cfg->theta0, ws, len);
		break;
	}
	if (st == TAGK_OK)
		est->method = cfg->method;
	return st;
}

tagk_status
tagk_update(tagk_estimator *est, const tagk_real *A, const tagk_real *b, int m,
    tagk_real *theta)
{
	if (!est || !est->method)
		return TAGK_EINVAL;
	tagk_status st = TAGK_EINVAL;
	switch (est->method->family) {
	case TAGK_FAMILY_KACZMARZ: st = tagk_kz_update(&est->s.kz, A, b, m); break;
	case TAGK_FAMILY_RLS: st = tagk_rls_update(&est->s.rls, A, b, m); break;
	case TAGK_FAMILY_KF: st = tagk_kf_update(&est->s.kf, A, b, m); break;
	}
	if (st == TAGK_OK && theta)
		memcpy(theta, tagk_theta(est), sizeof(*theta) * (size_t)tagk_n(est));
	return st;
}

const tagk_real *
tagk_theta(const tagk_estimator *est)
{
	switch (est->method->family) {
	case TAGK_FAMILY_KACZMARZ: return est->s.kz.theta;
	case TAGK_FAMILY_RLS: return est->s.rls.theta;
	case TAGK_FAMILY_KF: return est->s.kf.theta;
	}
	return NULL;
}

int
tagk_n(const tagk_estimator *est)
{
	switch (est->method->family) {
	case TAGK_FAMILY_KACZMARZ: return est->s.kz.n;
	case TAGK_FAMILY_RLS: return est->s.rls.n;
	case TAGK_FAMILY_KF: return est->s.kf.n;
	}
	return 0;
}

void
tagk_reset(tagk_estimator *est)
{
	switch (est->method->family) {
	case TAGK_FAMILY_KACZMARZ: tagk_kz_reset(&est->s.kz); break;
	case TAGK_FAMILY_RLS: tagk_rls_reset(&est->s.rls); break;
	case TAGK_FAMILY_KF: tagk_kf_reset(&est->s.kf); break;
	}
}

const char *
tagk_form(const tagk_estimator *est)
{
	switch (est->method->family) {
	case TAGK_FAMILY_KACZMARZ:
		return est->s.kz.cfg.variant == TAGK_KZ_GRK || est->s.kz.cfg.variant == TAGK_KZ_TAGK
		    ? "greedy-gram" : "random";
	case TAGK_FAMILY_RLS: return tagk_rls_form_name(est->s.rls.form);
	case TAGK_FAMILY_KF: return tagk_kf_form_name(est->s.kf.form);
	}
	return "";
}
