/* massest.c: configuration, dispatch and the checks every mass estimator
 * shares; the methods are in mass_kf.c, mass_ukf.c and mass_swls.c, their
 * rows in methods.def. */
#include <string.h>
#include "massest_impl.h"
#include "linalg.h"
#include "so3.h"

const char *const tagk__mass_keys[] = { "m0", "mass-sd", "proc-sd", "meas-sd", NULL };
const char *const tagk__mass_window_keys[] = { "m0", "mass-sd", "proc-sd", "meas-sd", "window", NULL };

static const tagk_state_ops *
ops_of(const tagk_method *mt)
{
	return mt && mt->kind == TAGK_KIND_STATE ? (const tagk_state_ops *)mt->ops : NULL;
}

void
tagk_mass_defaults(tagk_mass_config *c, const tagk_method *mt, tagk_real m0)
{
	memset(c, 0, sizeof(*c));
	c->method = mt;
	c->m0 = m0;
	c->sd_m0 = (tagk_real)0.25 * m0;
	c->q_att = (tagk_real)0.002;
	c->q_pos = (tagk_real)0.01;
	c->q_vel = (tagk_real)0.1;
	c->q_mass = (tagk_real)0.05 * m0;
	c->r_att = (tagk_real)0.005;
	c->r_pos = (tagk_real)0.01;
	c->r_vel = (tagk_real)0.02;
	c->window = 10;
	c->iters = 3;
	c->lm = 1;
	c->ukf_alpha = 1;
	c->ukf_beta = 2;
	c->ukf_kappa = 0;
	c->m_ratio = 100;
}

static int
config_ok(const tagk_mass_config *c)
{
	const tagk_real pos[] = { c->m0, c->sd_m0, c->r_att, c->r_pos, c->r_vel, c->ukf_alpha };
	const tagk_real nonneg[] = { c->q_att, c->q_pos, c->q_vel, c->q_mass, c->ukf_beta };
	if (!ops_of(c->method))
		return 0;
	for (size_t i = 0; i < sizeof(pos) / sizeof(pos[0]); i++)
		if (!tagk_isfinite(pos[i]) || !(pos[i] > 0))
			return 0;
	for (size_t i = 0; i < sizeof(nonneg) / sizeof(nonneg[0]); i++)
		if (!tagk_isfinite(nonneg[i]) || nonneg[i] < 0)
			return 0;
	if (!tagk_isfinite(c->m_ratio) || !(c->m_ratio > 1))
		return 0;
	if (!tagk_isfinite(c->ukf_kappa) || TAGK_UAV_NE + c->ukf_kappa <= 0)
		return 0;
	if (c->window < 2 || c->window > TAGK_MASS_WINDOW_MAX || c->iters < 1 || c->iters > 100)
		return 0;
	return 1;
}

size_t
tagk_mass_workspace_len(const tagk_mass_config *c)
{
	if (!config_ok(c))
		return 0;
	return ops_of(c->method)->len(c);
}

tagk_status
tagk_mass_init(tagk_mass_est *e, const tagk_mass_config *c, tagk_real *ws, size_t len)
{
	if (!e || !c || !ws)
		return TAGK_EINVAL;
	size_t need = tagk_mass_workspace_len(c);
	if (need == 0)
		return TAGK_EINVAL;
	if (len < need)
		return TAGK_ESPACE;
	memset(e, 0, sizeof(*e));
	e->cfg = *c;
	ops_of(c->method)->wire(e, ws);
	return TAGK_OK;
}

void
tagk__mass_r(const tagk_mass_config *c, tagk_real r[9])
{
	for (int i = 0; i < 3; i++) {
		r[i] = c->r_att * c->r_att;
		r[3 + i] = c->r_pos * c->r_pos;
		r[6 + i] = c->r_vel * c->r_vel;
	}
}

void
tagk__mass_q(const tagk_mass_config *c, tagk_real q[10])
{
	for (int i = 0; i < 3; i++) {
		q[i] = c->q_att * c->q_att;
		q[3 + i] = c->q_pos * c->q_pos;
		q[6 + i] = c->q_vel * c->q_vel;
	}
	q[9] = c->q_mass * c->q_mass;
}

void
tagk__mass_p0(const tagk_mass_config *c, tagk_real P[100])
{
	tagk_real r[9];
	tagk__mass_r(c, r);
	memset(P, 0, 100 * sizeof(tagk_real));
	for (int i = 0; i < 9; i++)
		P[i * 11] = r[i];
	P[99] = c->sd_m0 * c->sd_m0;
}

tagk_status
tagk_mass_start(tagk_mass_est *e, const tagk_uav_meas *y)
{
	if (!e || !y || !e->cfg.method)
		return TAGK_EINVAL;
	if (!tagk_uav_meas_ok(y))
		return TAGK_ENONFINITE;
	memcpy(e->x.q, y->q, sizeof(e->x.q));
	tagk_qnormalize(e->x.q);
	memcpy(e->x.r, y->r, sizeof(e->x.r));
	memcpy(e->x.v, y->v, sizeof(e->x.v));
	e->x.m = e->cfg.m0;
	e->started = 1;
	e->diverged = 0;
	ops_of(e->cfg.method)->start(e, y);
	return TAGK_OK;
}

/* The head state and, for the covariance methods, P's diagonal must be
 * finite, the variances positive and the mass inside its bounds. */
static int
healthy(const tagk_mass_est *e)
{
	const tagk_uav_state *x = &e->x;
	tagk_real m = x->m, lo = e->cfg.m0 / e->cfg.m_ratio, hi = e->cfg.m0 * e->cfg.m_ratio;
	if (!tagk_isfinite(m) || !(m > lo) || !(m < hi))
		return 0;
	if (!tagk_all_finite(4, x->q) || !tagk_all_finite(3, x->r) || !tagk_all_finite(3, x->v))
		return 0;
	if (e->P)
		for (int i = 0; i < e->n; i++)
			if (!tagk_isfinite(e->P[i * e->ld + i]) || !(e->P[i * e->ld + i] > 0))
				return 0;
	return 1;
}

tagk_status
tagk_mass_update(tagk_mass_est *e, const tagk_uav_input *u, tagk_real dt, const tagk_uav_meas *y,
    tagk_real *m)
{
	if (!e || !u || !y || !e->started)
		return TAGK_EINVAL;
	if (e->diverged)
		return TAGK_EDIVERGED;
	if (!tagk_isfinite(dt) || !(dt > 0))
		return TAGK_EINVAL;
	if (!tagk_isfinite(u->thrust) || !tagk_all_finite(3, u->w) || !tagk_uav_meas_ok(y))
		return TAGK_ENONFINITE;
	tagk_status st = ops_of(e->cfg.method)->step(e, u, dt, y);
	if (st != TAGK_OK || !healthy(e)) {
		e->diverged = 1;
		return TAGK_EDIVERGED;
	}
	if (m)
		*m = e->x.m;
	return TAGK_OK;
}

tagk_real
tagk_mass_value(const tagk_mass_est *e)
{
	return e->x.m;
}

tagk_real
tagk_mass_sd(const tagk_mass_est *e)
{
	return e->P ? tagk_sqrt(e->P[9 * e->ld + 9]) : (tagk_real)NAN;
}
