/*
 * estimator.h: one interface over every estimator, and the name registry.
 *
 * A method is a named entry (rk, grk, tark, tagk, rls, rls-low, ..., kf-high)
 * that fixes a family and preset defaults. Use:
 *
 *   const tagk_method *mt = tagk_method_find("tagk");
 *   tagk_config cfg;
 *   tagk_config_defaults(&cfg, mt, n, m_max);     // then adjust cfg.u.kz etc.
 *   size_t len = tagk_workspace_len(&cfg);        // tagk_real elements
 *   tagk_real ws[len]; tagk_estimator est;        // caller owns all memory
 *   tagk_init(&est, &cfg, ws, len);
 *   tagk_update(&est, A, b, m, theta_out);        // per window
 *
 * Settings live in tagk_config, state in tagk_estimator (whose pointers refer
 * into the caller's workspace), and nothing is allocated anywhere.
 */
#ifndef TAGK_ESTIMATOR_H
#define TAGK_ESTIMATOR_H

#include <stddef.h>
#include "kaczmarz.h"
#include "kf.h"
#include "rls.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { TAGK_FAMILY_KACZMARZ, TAGK_FAMILY_RLS, TAGK_FAMILY_KF } tagk_family;

typedef struct tagk_method tagk_method;

typedef struct {
	const tagk_method *method;
	int n;                    /* parameters, >= 1 */
	int m_max;                /* largest window, in rows, >= 1 */
	const tagk_real *theta0;  /* n initial values, or NULL for zeros; copied */
	union {
		tagk_kz_config kz;
		tagk_rls_config rls;
		tagk_kf_config kf;
	} u;
} tagk_config;

typedef struct {
	const tagk_method *method;
	union {
		tagk_kz kz;
		tagk_rls rls;
		tagk_kf kf;
	} s;
} tagk_estimator;

struct tagk_method {
	const char *name;
	const char *summary;      /* one line, no trailing period */
	tagk_family family;
	int variant;              /* tagk_kz_variant for the Kaczmarz family */
	tagk_real p1, p2;         /* preset: lambda (rls) or q, r (kf) */
};

/* Number of registered methods, and the i-th one (NULL past the end). */
int tagk_method_count(void);
const tagk_method *tagk_method_at(int i);
/* The method called name, or NULL. */
const tagk_method *tagk_method_find(const char *name);

/* Fill cfg with mt's defaults for n parameters and windows of up to m_max rows. */
void tagk_config_defaults(tagk_config *cfg, const tagk_method *mt, int n, int m_max);
/* Workspace length, in tagk_real elements, that tagk_init needs (0 if cfg is bad). */
size_t tagk_workspace_len(const tagk_config *cfg);
/* Wire est to ws and set the estimate to theta0. Allocates nothing. */
tagk_status tagk_init(tagk_estimator *est, const tagk_config *cfg, tagk_real *ws, size_t len);
/* Update with the window A (m x n, row-major), b (m). On TAGK_OK, if theta is not
 * NULL, the new estimate is copied to theta (n). On failure nothing changes. */
tagk_status tagk_update(tagk_estimator *est, const tagk_real *A, const tagk_real *b,
    int m, tagk_real *theta);
/* The current estimate (n values, owned by est). */
const tagk_real *tagk_theta(const tagk_estimator *est);
/* Parameter count of est. */
int tagk_n(const tagk_estimator *est);
/* Back to theta0, the initial covariance and the seed. */
void tagk_reset(tagk_estimator *est);
/* Which implementation form est runs: "greedy-gram" or "random" (Kaczmarz),
 * "paper" or "info" (RLS), "joseph" or "info" (KF). */
const char *tagk_form(const tagk_estimator *est);

#ifdef __cplusplus
}
#endif

#endif
