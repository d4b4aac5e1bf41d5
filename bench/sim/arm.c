/* arm.c: paper 004's arm shaking a held object; see arm.h. */
#include <string.h>
#include "arm.h"
#include "../../lib/consistency.h"
#include "../../lib/linalg.h"
#include "../../lib/shake.h"

#define TWO_PI_R ((tagk_real)6.28318530717958647692)
#define R_(x) ((tagk_real)(x))
#define NJ TAGK_ARM_JOINTS
#define SUBSTEPS 4
#define SETTLE_S R_(1)
#define MAX_SHAKE_SAMPLES 801 /* a shake of at most 2 s at 400 Hz */

const tagk_real tagk_arm_grip[3] = { 0, 0, R_(-0.22) };

static const tagk_real home[NJ] = { R_(-0.6), 0, 0, R_(-1.2) };
static const tagk_real kp[NJ] = { 60, 60, 30, 30 };
static const tagk_real kd[NJ] = { 2, 2, 1, 1 };
static const tagk_real long_amp = R_(0.35);
static const tagk_real long_freq[NJ] = { R_(0.31), R_(0.47), R_(0.71), R_(0.97) };

void
tagk_arm_defaults(tagk_arm_config *c)
{
	memset(c, 0, sizeof(*c));
	c->motion = TAGK_ARM_SHAKE;
	c->duration = TAGK_SHAKE_T;
	c->q_noise = R_(5e-4);
	c->qd_noise = R_(5e-3);
	c->tau_noise = R_(0.02);
	c->seed = 1;
}

/* A slender rod of mass m and length len along the frame's -z from its
 * origin, or (len 0) a compact housing of inertia i0 about each axis. */
static void
rod(tagk_real m, tagk_real len, tagk_real i0, tagk_real th[TAGK_NPARAM])
{
	tagk_real c[3] = { 0, 0, -len / 2 }, Ic[9] = { 0 };
	Ic[0] = Ic[4] = m * len * len / 12 + i0;
	Ic[8] = i0;
	tagk_theta_from_body(m, c, Ic, th);
}

void
tagk_arm_model(tagk_mb_model *m, tagk_real theta[TAGK_NPARAM * TAGK_ARM_BODIES])
{
	memset(m, 0, sizeof(*m));
	m->nb = TAGK_ARM_BODIES;
	m->floating = 0;
	static const tagk_real axes[TAGK_ARM_BODIES][3] = { { 0, 0, 1 }, { 0, 1, 0 }, { 1, 0, 0 }, { 0, 0, 1 },
		{ 0, 1, 0 } };
	static const tagk_real pos[TAGK_ARM_BODIES][3] = { { 0, 0, 0 }, { 0, R_(-0.15), 0 }, { 0, 0, 0 }, { 0, 0, 0 },
		{ 0, 0, R_(-0.2) } };
	for (int i = 0; i < TAGK_ARM_BODIES; i++) {
		m->parent[i] = i - 1;
		m->joint[i] = TAGK_JOINT_REVOLUTE;
		memcpy(m->axis[i], axes[i], sizeof(axes[i]));
		memcpy(m->pos[i], pos[i], sizeof(pos[i]));
		m->rot[i][0] = m->rot[i][4] = m->rot[i][8] = 1;
	}
	m->gravity[2] = R_(-9.81);
	rod(5, 0, R_(0.05), theta);
	rod(R_(0.3), 0, R_(2e-4), theta + TAGK_NPARAM);
	rod(R_(0.3), 0, R_(2e-4), theta + 2 * TAGK_NPARAM);
	rod(R_(0.6), R_(0.2), R_(2e-4), theta + 3 * TAGK_NPARAM);
	rod(R_(0.4), R_(0.2), R_(1e-4), theta + 4 * TAGK_NPARAM);
}

static void
seed_for(tagk_rng *g, uint64_t seed, long index, uint64_t stream)
{
	uint64_t x = seed;
	uint64_t a = tagk_splitmix64(&x);
	x = a ^ ((uint64_t)index * UINT64_C(0x9E3779B97F4A7C15)) ^ (stream << 56);
	tagk_rng_seed(g, tagk_splitmix64(&x));
}

static tagk_real
uniform(tagk_rng *g, tagk_real lo, tagk_real hi)
{
	return lo + (hi - lo) * tagk_rng_uniform(g);
}

/* A uniform box of mass m and sides s centred at c. */
static void
box(tagk_real m, const tagk_real s[3], const tagk_real c[3], tagk_real th[TAGK_NPARAM])
{
	tagk_real Ic[9] = { 0 };
	Ic[0] = m * (s[1] * s[1] + s[2] * s[2]) / 12;
	Ic[4] = m * (s[0] * s[0] + s[2] * s[2]) / 12;
	Ic[8] = m * (s[0] * s[0] + s[1] * s[1]) / 12;
	tagk_theta_from_body(m, c, Ic, th);
}

void
tagk_arm_object(uint64_t seed, long index, tagk_real theta[TAGK_NPARAM])
{
	tagk_rng g;
	seed_for(&g, seed, index, 0);
	tagk_real s[3], c[3], ws[3] = { R_(0.03), R_(0.03), R_(0.03) }, cw[3], tb[TAGK_NPARAM], tw[TAGK_NPARAM];
	for (int i = 0; i < 3; i++)
		s[i] = uniform(&g, R_(0.05), R_(0.2));
	tagk_real mb = uniform(&g, R_(0.1), R_(0.6)), mw = uniform(&g, 0, R_(1.2));
	for (int i = 0; i < 3; i++)
		c[i] = tagk_arm_grip[i];
	c[2] -= s[2] / 2;
	for (int i = 0; i < 3; i++)
		cw[i] = c[i] + (tagk_rng_uniform(&g) - R_(0.5)) * (s[i] - ws[i]);
	box(mb, s, c, tb);
	box(mw, ws, cw, tw);
	for (int i = 0; i < TAGK_NPARAM; i++)
		theta[i] = tb[i] + tw[i];
}

int
tagk_arm_summary(const tagk_real theta[TAGK_NPARAM], tagk_real out[TAGK_ARM_SUMMARY])
{
	tagk_real c[3], Ic[9];
	if (!tagk_theta_to_body(theta, c, Ic))
		return 0;
	out[0] = theta[TAGK_P_M];
	for (int i = 0; i < 3; i++) {
		out[1 + i] = c[i] - tagk_arm_grip[i];
		out[4 + i] = Ic[i * 4];
	}
	return tagk_all_finite(TAGK_ARM_SUMMARY, out);
}

int
tagk_arm_summary_feasible(const tagk_real in[TAGK_ARM_SUMMARY])
{
	const tagk_real *I = in + 4;
	return tagk_all_finite(TAGK_ARM_SUMMARY, in) && in[0] > 0 && I[0] > 0 && I[1] > 0 && I[2] > 0
	    && I[0] <= I[1] + I[2] && I[1] <= I[0] + I[2] && I[2] <= I[0] + I[1];
}

long
tagk_arm_samples(const tagk_arm_config *cfg)
{
	return (long)(cfg->duration * TAGK_ARM_RATE + R_(0.5)) + 1;
}

typedef struct {
	tagk_mb_model model;
	tagk_real theta_arm[TAGK_NPARAM * TAGK_ARM_BODIES];  /* what the controller knows */
	tagk_real theta_true[TAGK_NPARAM * TAGK_ARM_BODIES]; /* with the object */
	tagk_real damping;
} plant;

/* qdd of the true plant under the applied torque tau. */
static tagk_status
accel(const plant *p, const tagk_real *q, const tagk_real *qd, const tagk_real *tau, tagk_real *qdd)
{
	tagk_mb_kin kin;
	tagk_real M[NJ * NJ], h[NJ];
	tagk_status st = tagk_mb_kinematics(&p->model, NULL, NULL, q, qd, NULL, &kin);
	if (st != TAGK_OK)
		return st;
	tagk_mb_inverse_dynamics(&kin, &p->model, p->theta_true, h);
	tagk_mb_mass_matrix(&kin, &p->model, p->theta_true, M);
	for (int j = 0; j < NJ; j++)
		qdd[j] = tau[j] - p->damping * qd[j] - h[j];
	if (tagk_cholesky(NJ, M) != TAGK_OK)
		return TAGK_ENOTPD;
	tagk_cholesky_solve(NJ, 1, M, qdd);
	return tagk_all_finite(NJ, qdd) ? TAGK_OK : TAGK_ENONFINITE;
}

/* The arm's own gravity torques at q (the controller's compensation). */
static tagk_status
gravity(const plant *p, const tagk_real *q, tagk_real *g)
{
	tagk_mb_kin kin;
	tagk_real zero[NJ] = { 0 };
	tagk_status st = tagk_mb_kinematics(&p->model, NULL, NULL, q, zero, NULL, &kin);
	if (st == TAGK_OK)
		tagk_mb_inverse_dynamics(&kin, &p->model, p->theta_arm, g);
	return st;
}

/* The grip's world position x and its Jacobian Jp (3 x 4) at q. */
static tagk_status
grip(const plant *p, const tagk_real *q, tagk_real x[3], tagk_real Jp[3 * NJ])
{
	tagk_mb_kin kin;
	tagk_real zero[NJ] = { 0 }, J[6 * NJ], Jb[3 * NJ];
	tagk_status st = tagk_mb_kinematics(&p->model, NULL, NULL, q, zero, NULL, &kin);
	if (st != TAGK_OK)
		return st;
	const tagk_real *R = kin.R[TAGK_ARM_HAND], *r = tagk_arm_grip;
	for (int i = 0; i < 3; i++)
		x[i] = kin.p[TAGK_ARM_HAND][i] + R[i * 3] * r[0] + R[i * 3 + 1] * r[1] + R[i * 3 + 2] * r[2];
	tagk_mb_jacobian(&kin, &p->model, TAGK_ARM_HAND, J);
	/* the grip's velocity in the hand frame: v + omega x r = v - r x omega */
	for (int j = 0; j < NJ; j++) {
		const tagk_real w0 = J[0 * NJ + j], w1 = J[1 * NJ + j], w2 = J[2 * NJ + j];
		Jb[0 * NJ + j] = J[3 * NJ + j] - (r[1] * w2 - r[2] * w1);
		Jb[1 * NJ + j] = J[4 * NJ + j] - (r[2] * w0 - r[0] * w2);
		Jb[2 * NJ + j] = J[5 * NJ + j] - (r[0] * w1 - r[1] * w0);
	}
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < NJ; j++)
			Jp[i * NJ + j] = R[i * 3] * Jb[j] + R[i * 3 + 1] * Jb[NJ + j] + R[i * 3 + 2] * Jb[2 * NJ + j];
	return TAGK_OK;
}

/* Three damped-least-squares steps of eq. 9 from q toward the grip at x_des. */
static tagk_status
ik(const plant *p, const tagk_real x_des[3], tagk_real *q)
{
	for (int it = 0; it < 3; it++) {
		tagk_real x[3], Jp[3 * NJ], e[3], dq[NJ], ws[NJ * NJ + NJ];
		tagk_status st = grip(p, q, x, Jp);
		if (st != TAGK_OK)
			return st;
		for (int i = 0; i < 3; i++)
			e[i] = x_des[i] - x[i];
		if ((st = tagk_dls_step(3, NJ, Jp, e, R_(0.01), 1, dq, ws)) != TAGK_OK)
			return st;
		for (int j = 0; j < NJ; j++)
			q[j] += dq[j];
	}
	return TAGK_OK;
}

/* One control period: measure, command, log (if s), integrate. */
static tagk_status
period(const plant *p, tagk_rng *g, const tagk_arm_config *cfg, const tagk_real *q_des, const tagk_real *qd_des,
    tagk_real *q, tagk_real *qd, tagk_real t, tagk_arm_sample *s)
{
	tagk_real qm[NJ], qdm[NJ], tau[NJ], app[NJ], gq[NJ];
	for (int j = 0; j < NJ; j++) {
		qm[j] = q[j] + cfg->q_noise * tagk_rng_gaussian(g);
		qdm[j] = qd[j] + cfg->qd_noise * tagk_rng_gaussian(g);
	}
	tagk_status st = gravity(p, qm, gq);
	if (st != TAGK_OK)
		return st;
	for (int j = 0; j < NJ; j++) {
		tau[j] = kp[j] * (q_des[j] - qm[j]) + kd[j] * (qd_des[j] - qdm[j]) + gq[j];
		app[j] = tau[j] + cfg->tau_noise * tagk_rng_gaussian(g);
	}
	if (s) {
		s->t = t;
		memcpy(s->q, qm, sizeof(qm));
		memcpy(s->qd, qdm, sizeof(qdm));
		memcpy(s->tau, tau, sizeof(tau));
		memcpy(s->q_true, q, sizeof(s->q_true));
		memcpy(s->qd_true, qd, sizeof(s->qd_true));
		memcpy(s->tau_applied, app, sizeof(app));
		if ((st = accel(p, q, qd, app, s->qdd_true)) != TAGK_OK)
			return st;
	}
	const tagk_real h = 1 / (TAGK_ARM_RATE * SUBSTEPS);
	for (int k = 0; k < SUBSTEPS; k++) {
		tagk_real kq[4][NJ], kv[4][NJ], qs[NJ], vs[NJ];
		for (int stg = 0; stg < 4; stg++) {
			tagk_real c = stg == 0 ? 0 : stg == 3 ? 1 : R_(0.5);
			for (int j = 0; j < NJ; j++) {
				qs[j] = q[j] + (stg ? c * h * kq[stg - 1][j] : 0);
				vs[j] = qd[j] + (stg ? c * h * kv[stg - 1][j] : 0);
			}
			memcpy(kq[stg], vs, sizeof(vs));
			if ((st = accel(p, qs, vs, app, kv[stg])) != TAGK_OK)
				return st;
		}
		for (int j = 0; j < NJ; j++) {
			q[j] += h * (kq[0][j] + 2 * kq[1][j] + 2 * kq[2][j] + kq[3][j]) / 6;
			qd[j] += h * (kv[0][j] + 2 * kv[1][j] + 2 * kv[2][j] + kv[3][j]) / 6;
		}
	}
	return tagk_all_finite(NJ, q) && tagk_all_finite(NJ, qd) ? TAGK_OK : TAGK_ENONFINITE;
}

tagk_status
tagk_arm_run(const tagk_arm_config *cfg, long index, tagk_arm_sample *out, long max)
{
	if (!cfg || !out || !(cfg->duration > 0) || !(cfg->q_noise >= 0) || !(cfg->qd_noise >= 0)
	    || !(cfg->tau_noise >= 0) || !(cfg->damping >= 0) || (cfg->motion != TAGK_ARM_SHAKE
	    && cfg->motion != TAGK_ARM_LONG) || !(cfg->duration <= R_(3600)))
		return TAGK_EINVAL;
	const long n = tagk_arm_samples(cfg);
	if (n > max || (cfg->motion == TAGK_ARM_SHAKE && n > MAX_SHAKE_SAMPLES))
		return TAGK_EINVAL;
	plant p;
	tagk_arm_model(&p.model, p.theta_arm);
	memcpy(p.theta_true, p.theta_arm, sizeof(p.theta_true));
	tagk_real obj[TAGK_NPARAM];
	tagk_arm_object(cfg->seed, index, obj);
	for (int i = 0; i < TAGK_NPARAM; i++)
		p.theta_true[TAGK_NPARAM * TAGK_ARM_HAND + i] += obj[i];
	p.damping = cfg->damping;
	tagk_rng g;
	seed_for(&g, cfg->seed, index, 1);
	const tagk_real dt = 1 / TAGK_ARM_RATE;
	tagk_real q[NJ], qd[NJ] = { 0 }, zero[NJ] = { 0 };
	memcpy(q, home, sizeof(q));
	tagk_status st;
	const long settle = (long)(SETTLE_S * TAGK_ARM_RATE + R_(0.5));
	for (long k = 0; k < settle; k++)
		if ((st = period(&p, &g, cfg, home, zero, q, qd, 0, NULL)) != TAGK_OK)
			return st;
	if (cfg->motion == TAGK_ARM_LONG) {
		for (long k = 0; k < n; k++) {
			tagk_real t = (tagk_real)k * dt, fade = t < 1 ? (1 - tagk_cos(TWO_PI_R * t / 2)) / 2 : 1;
			tagk_real dfade = t < 1 ? TWO_PI_R / 2 * tagk_sin(TWO_PI_R * t / 2) / 2 : 0, qs[NJ], qds[NJ];
			for (int j = 0; j < NJ; j++) {
				tagk_real w = TWO_PI_R * long_freq[j], sn = tagk_sin(w * t), cs = tagk_cos(w * t);
				qs[j] = home[j] + fade * long_amp * sn;
				qds[j] = long_amp * (dfade * sn + fade * w * cs);
			}
			if ((st = period(&p, &g, cfg, qs, qds, q, qd, t, out + k)) != TAGK_OK)
				return st;
		}
		return TAGK_OK;
	}
	/* the shake: joint references from the grip's path by inverse kinematics */
	tagk_real X[2][MAX_SHAKE_SAMPLES + 1], x0[3], Jp[3 * NJ];
	for (int a = 0; a < 2; a++) {
		tagk_shake(&tagk_shake_paper[a], cfg->duration, dt, (int)n, X[a]);
		X[a][n] = 0;
	}
	if ((st = grip(&p, home, x0, Jp)) != TAGK_OK)
		return st;
	tagk_real prev[NJ], cur[NJ], next[NJ];
	memcpy(prev, home, sizeof(prev));
	memcpy(cur, home, sizeof(cur));
	memcpy(next, home, sizeof(next));
	tagk_real xd[3] = { x0[0] + X[0][0], x0[1] + X[1][0], x0[2] };
	if ((st = ik(&p, xd, cur)) != TAGK_OK)
		return st;
	for (long k = 0; k < n; k++) {
		memcpy(next, cur, sizeof(next));
		tagk_real xn[3] = { x0[0] + X[0][k + 1], x0[1] + X[1][k + 1], x0[2] };
		if ((st = ik(&p, xn, next)) != TAGK_OK)
			return st;
		tagk_real qds[NJ];
		for (int j = 0; j < NJ; j++)
			qds[j] = (next[j] - prev[j]) / (2 * dt);
		if ((st = period(&p, &g, cfg, cur, qds, q, qd, (tagk_real)k * dt, out + k)) != TAGK_OK)
			return st;
		memcpy(prev, cur, sizeof(prev));
		memcpy(cur, next, sizeof(cur));
	}
	return TAGK_OK;
}

void
tagk_arm_differentiate(const tagk_arm_sample *s, long n, tagk_real *qdd)
{
	const tagk_real rate = TAGK_ARM_RATE;
	for (long k = 0; k < n; k++) {
		long a = k > 0 ? k - 1 : 0, b = k + 1 < n ? k + 1 : n - 1;
		for (int j = 0; j < NJ; j++)
			qdd[k * NJ + j] = b > a ? (s[b].qd[j] - s[a].qd[j]) * rate / (tagk_real)(b - a) : 0;
	}
}
