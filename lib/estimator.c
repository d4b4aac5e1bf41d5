/* estimator.c: dispatch of the window methods to their family's operations;
 * see estimator.h. The registry is methods.c. */
#include <string.h>
#include "estimator.h"

tagk_real
tagk_est_noise_ratio(const tagk_estimator *est)
{
	const tagk_window_ops *ops = est ? tagk_window_ops_of(est->method) : NULL;
	return ops && ops->noise_ratio ? ops->noise_ratio(est) : (tagk_real)NAN;
}

tagk_status
tagk_est_posterior(const tagk_estimator *est, tagk_real *P, tagk_real *r, tagk_real *scratch)
{
	const tagk_window_ops *ops = est ? tagk_window_ops_of(est->method) : NULL;
	return ops && ops->posterior ? ops->posterior(est, P, r, scratch) : TAGK_EINVAL;
}

const tagk_window_ops *
tagk_window_ops_of(const tagk_method *mt)
{
	return mt && mt->kind == TAGK_KIND_WINDOW ? (const tagk_window_ops *)mt->ops : NULL;
}

const tagk_method *
tagk_window_method(const char *name)
{
	return tagk_method_find_kind(name, TAGK_KIND_WINDOW);
}

void
tagk_config_defaults(tagk_config *cfg, const tagk_method *mt, int n, int m_max)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->method = mt;
	cfg->n = n;
	cfg->m_max = m_max;
	cfg->seed = 1;
	const tagk_window_ops *ops = tagk_window_ops_of(mt);
	if (ops)
		ops->defaults(cfg);
	else
		cfg->method = NULL; /* not a window method: every later call refuses cfg */
}

tagk_status
tagk_config_set(tagk_config *cfg, const char *key, double v)
{
	if (!cfg || !key || !tagk_method_accepts(cfg->method, key) || v != v)
		return TAGK_EINVAL;
	return tagk_window_ops_of(cfg->method)->set(cfg, key, v);
}

int
tagk_config_form_index(const tagk_config *cfg, const char *name)
{
	const tagk_window_ops *ops = cfg ? tagk_window_ops_of(cfg->method) : NULL;
	if (!ops || !ops->forms || !name)
		return -1;
	for (int i = 0; ops->forms[i]; i++)
		if (strcmp(ops->forms[i], name) == 0)
			return i;
	return -1;
}

size_t
tagk_est_workspace_len(const tagk_config *cfg)
{
	const tagk_window_ops *ops = cfg ? tagk_window_ops_of(cfg->method) : NULL;
	return ops ? ops->workspace_len(cfg) : 0;
}

tagk_status
tagk_est_init(tagk_estimator *est, const tagk_config *cfg, tagk_real *ws, size_t len)
{
	const tagk_window_ops *ops = cfg ? tagk_window_ops_of(cfg->method) : NULL;
	if (!est || !ops)
		return TAGK_EINVAL;
	tagk_estimator e;
	memset(&e, 0, sizeof(e));
	e.method = cfg->method;
	e.n = cfg->n;
	e.ws = ws;
	e.ws_len = len;
	tagk_status st = ops->init(&e, cfg, ws, len);
	if (st == TAGK_OK)
		*est = e;
	return st;
}

tagk_status
tagk_est_update(tagk_estimator *est, const tagk_real *A, const tagk_real *b, int m,
    tagk_real *theta)
{
	const tagk_window_ops *ops = est ? tagk_window_ops_of(est->method) : NULL;
	if (!ops)
		return TAGK_EINVAL;
	tagk_status st = ops->update(est, A, b, m);
	if (st == TAGK_OK && theta)
		memcpy(theta, ops->theta(est), sizeof(*theta) * (size_t)est->n);
	return st;
}

const tagk_real *
tagk_est_theta(const tagk_estimator *est)
{
	return tagk_window_ops_of(est->method)->theta(est);
}

int
tagk_est_n(const tagk_estimator *est)
{
	return est->n;
}

void
tagk_est_reset(tagk_estimator *est)
{
	tagk_window_ops_of(est->method)->reset(est);
}

tagk_status
tagk_est_reopen(tagk_estimator *est, const tagk_real *theta)
{
	const tagk_window_ops *ops = tagk_window_ops_of(est->method);
	const char *fam = est->method->family;
	if (strcmp(fam, "RLS") != 0 && strcmp(fam, "KF") != 0)
		return TAGK_EINVAL;
	if (theta == ops->theta(est))
		return TAGK_EINVAL;
	ops->reset(est);
	/* theta() is the family's own state array (rls.c, kf.c, rls_ld.c) */
	memcpy((tagk_real *)ops->theta(est), theta, sizeof(*theta) * (size_t)est->n);
	return TAGK_OK;
}

const char *
tagk_est_form(const tagk_estimator *est)
{
	return tagk_window_ops_of(est->method)->form(est);
}
