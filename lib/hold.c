/*
 * hold.c: the method "hold", which estimates nothing: it checks each window
 * as every method does and keeps theta0. It is the yardstick an estimator
 * has to beat: in the TAG-K paper's closed loop it is the controller with
 * the nominal body, and its errors are those of the prior alone, against
 * which a method that stays near its prior (tagk-robust's inertia, say)
 * can be judged.
 *
 * State: theta0 (n), then m_max, in the workspace.
 */
#include <string.h>
#include "estimator.h"
#include "linalg.h"

static const char *const hold_keys[] = { NULL };

static void
hold_defaults(tagk_config *cfg)
{
	(void)cfg;
}

static tagk_status
hold_set(tagk_config *cfg, const char *key, double v)
{
	(void)cfg;
	(void)key;
	(void)v;
	return TAGK_EINVAL;
}

static size_t
hold_len(const tagk_config *cfg)
{
	return cfg->n >= 1 && cfg->m_max >= 1 ? (size_t)cfg->n + 1 : 0;
}

static tagk_status
hold_init(tagk_estimator *e, const tagk_config *cfg, tagk_real *ws, size_t len)
{
	if (hold_len(cfg) == 0)
		return TAGK_EINVAL;
	if (len < hold_len(cfg))
		return TAGK_ESPACE;
	if (cfg->theta0 && !tagk_all_finite(cfg->n, cfg->theta0))
		return TAGK_ENONFINITE;
	for (int j = 0; j < cfg->n; j++)
		ws[j] = cfg->theta0 ? cfg->theta0[j] : 0;
	ws[cfg->n] = (tagk_real)cfg->m_max;
	(void)e;
	return TAGK_OK;
}

static tagk_status
hold_update(tagk_estimator *e, const tagk_real *A, const tagk_real *b, int m)
{
	return tagk_check_window(A, b, m, (int)e->ws[e->n], e->n);
}

static const tagk_real *
hold_theta(const tagk_estimator *e)
{
	return e->ws;
}

static void
hold_reset(tagk_estimator *e)
{
	(void)e;
}

static const char *
hold_form(const tagk_estimator *e)
{
	(void)e;
	return "theta0";
}

static tagk_real
hold_prior(const tagk_config *cfg)
{
	(void)cfg;
	return 0;
}

const tagk_window_ops tagk_hold_ops = {
	.head = { hold_keys },
	.defaults = hold_defaults,
	.set = hold_set,
	.forms = NULL,
	.workspace_len = hold_len,
	.init = hold_init,
	.update = hold_update,
	.theta = hold_theta,
	.reset = hold_reset,
	.form = hold_form,
	.prior_information = hold_prior,
};
