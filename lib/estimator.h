/*
 * estimator.h: the window kind of method (method.h): estimators fed windows
 * of regressor rows A theta ~ b. Use:
 *
 *   const tagk_method *mt = tagk_method_find_kind("tagk", TAGK_KIND_WINDOW);
 *   tagk_config cfg;
 *   tagk_config_defaults(&cfg, mt, n, m_max);     // then tagk_config_set(...)
 *   size_t len = tagk_est_workspace_len(&cfg);    // tagk_real elements
 *   tagk_real ws[len]; tagk_estimator est;        // caller owns all memory
 *   tagk_est_init(&est, &cfg, ws, len);
 *   tagk_est_update(&est, A, b, m, theta_out);    // per window
 *
 * Settings live in tagk_config, state in tagk_estimator (whose pointers refer
 * into the caller's workspace), and nothing is allocated anywhere. A family
 * provides a tagk_window_ops; a method whose state is only arrays and
 * scalars keeps them in the workspace (est->ws) and needs no member of the
 * unions below, so that adding it is one file and one row of methods.def.
 */
#ifndef TAGK_ESTIMATOR_H
#define TAGK_ESTIMATOR_H

#include <stddef.h>
#include <stdint.h>
#include "kaczmarz.h"
#include "kf.h"
#include "rls.h"
#include "method.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	const tagk_method *method;
	int n;                    /* parameters, >= 1 */
	int m_max;                /* largest window, in rows, >= 1 */
	const tagk_real *theta0;  /* n initial values, or NULL for zeros; copied */
	uint64_t seed;            /* randomized methods' generator seed, default 1
	                           * (it overrides u.kz.seed) */
	union {
		tagk_kz_config kz;
		struct {
			tagk_kz_config kz; /* the inner TAG-K's settings, as u.kz */
			tagk_real length;  /* tagk-robust's length scale (kz_robust.c) */
		} kzr;
		tagk_rls_config rls;
		tagk_kf_config kf;
		tagk_real any[8]; /* options of a method without a config type of its own */
	} u;
} tagk_config;

typedef struct {
	const tagk_method *method;
	int n;                    /* parameters */
	tagk_real *ws;            /* the workspace est was wired to, and its length */
	size_t ws_len;
	union {
		tagk_kz kz;
		tagk_rls rls;
		tagk_kf kf;
	} s;
} tagk_estimator;

/* What a family of window methods provides. */
typedef struct {
	tagk_ops_head head;       /* the option keys set() accepts */
	/* cfg->u from cfg->method->preset; cfg->method, n, m_max are set */
	void (*defaults)(tagk_config *cfg);
	/* Set the option key to v. TAGK_EINVAL for a key the family does not
	 * take or a value out of its range. The key "form" takes an index into
	 * forms. */
	tagk_status (*set)(tagk_config *cfg, const char *key, double v);
	const char *const *forms; /* implementation forms, "auto" first; NULL-terminated */
	size_t (*workspace_len)(const tagk_config *cfg);
	tagk_status (*init)(tagk_estimator *est, const tagk_config *cfg, tagk_real *ws, size_t len);
	tagk_status (*update)(tagk_estimator *est, const tagk_real *A, const tagk_real *b, int m);
	const tagk_real *(*theta)(const tagk_estimator *est);
	void (*reset)(tagk_estimator *est);
	const char *(*form)(const tagk_estimator *est);
	/* The prior's information per parameter, below which a direction of
	 * sum y y^T counts as not excited (0: relative to the largest). */
	tagk_real (*prior_information)(const tagk_config *cfg);
	/* Optional (NULL: the method has no noise model). The running mean of
	 * the normalised innovation d^2 / m (outlier.h): about 1 when the data's
	 * residuals are what the method's noise settings assume, NaN before
	 * the first update. */
	tagk_real (*noise_ratio)(const tagk_estimator *est);
	/* Optional (NULL: the update is not a linear gain, as Kaczmarz's).
	 * The covariance P (n x n) after the last update and the noise setting
	 * r such that the update's gain is K = P A^T / r (uncert.h); scratch
	 * holds n x n reals. */
	tagk_status (*posterior)(const tagk_estimator *est, tagk_real *P, tagk_real *r, tagk_real *scratch);
} tagk_window_ops;

/* The operations of a window method (NULL if mt is of another kind). */
const tagk_window_ops *tagk_window_ops_of(const tagk_method *mt);
/* The window method called name, or NULL. */
const tagk_method *tagk_window_method(const char *name);

/* Fill cfg with mt's defaults for n parameters and windows of up to m_max rows. */
void tagk_config_defaults(tagk_config *cfg, const tagk_method *mt, int n, int m_max);
/* Set an option of cfg's method by key (see tagk_window_ops.set). */
tagk_status tagk_config_set(tagk_config *cfg, const char *key, double v);
/* The index of the form called name in cfg's method's forms, or -1. */
int tagk_config_form_index(const tagk_config *cfg, const char *name);
/* Workspace length, in tagk_real elements, that tagk_est_init needs (0 if cfg is bad). */
size_t tagk_est_workspace_len(const tagk_config *cfg);
/* Wire est to ws and set the estimate to theta0. Allocates nothing. */
tagk_status tagk_est_init(tagk_estimator *est, const tagk_config *cfg, tagk_real *ws, size_t len);
/* Update with the window A (m x n, row-major), b (m). On TAGK_OK, if theta is not
 * NULL, the new estimate is copied to theta (n). On failure nothing changes. */
tagk_status tagk_est_update(tagk_estimator *est, const tagk_real *A, const tagk_real *b,
    int m, tagk_real *theta);
/* The current estimate (n values, owned by est). */
const tagk_real *tagk_est_theta(const tagk_estimator *est);
/* Parameter count of est. */
int tagk_est_n(const tagk_estimator *est);
/* Back to theta0, the initial covariance and the seed. */
void tagk_est_reset(tagk_estimator *est);
/* Re-open est after a detected change (detect.h): the method's covariance
 * (or information) back to its initial one and its estimate set to theta
 * (n), so that the windows after the change weigh as the first ones did
 * (Gustafsson's covariance reset) and the estimate starts from where it
 * was; theta must not be tagk_est_theta(est) itself (copy it first). The
 * RLS and KF families only: TAGK_EINVAL (est untouched) for that and for
 * others, whose windows already forget (Kaczmarz) or never learn (hold). */
tagk_status tagk_est_reopen(tagk_estimator *est, const tagk_real *theta);
/* est's noise_ratio (see tagk_window_ops), or NaN when its method has no
 * noise model or has not updated yet. */
tagk_real tagk_est_noise_ratio(const tagk_estimator *est);
/* est's posterior (see tagk_window_ops): TAGK_OK with P and r, or
 * TAGK_EINVAL when its method's update is not a linear gain. */
tagk_status tagk_est_posterior(const tagk_estimator *est, tagk_real *P, tagk_real *r, tagk_real *scratch);
/* Which implementation form est runs: "greedy-gram" or "random" (Kaczmarz),
 * "paper" or "info" (RLS), "joseph" or "info" (KF). */
const char *tagk_est_form(const tagk_estimator *est);

#ifdef __cplusplus
}
#endif

#endif
