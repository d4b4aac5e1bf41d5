/* swimmer.c: paper 002's drag-dominated three-unit robot; see swimmer.h. */
#include <string.h>
#include "swimmer.h"
#include "../../lib/linalg.h"
#include "../../lib/rng.h"

#define R_(x) ((tagk_real)(x))
#define TWO_PI_R ((tagk_real)6.28318530717958647692)
#define N TAGK_SWIM_N
#define P TAGK_SWIM_P
#define UNIT_LEN R_(0.3)
#define SEGMENT_S R_(20)
#define SEGMENTS 8
#define SUBSTEPS 10
#define JOINT_SPRING R_(0.1) /* N m/rad, known */
#define FRICTION_EPS R_(0.01) /* rad/s: the width of the smoothed Coulomb friction */

/* each wheel's direction in its unit's frame: 90, 0 and 90 degrees */
static const tagk_real wheel_dir[TAGK_SWIM_UNITS][2] = { { 0, 1 }, { 1, 0 }, { 0, 1 } };

void
tagk_swim_defaults(tagk_swim_config *c)
{
	memset(c, 0, sizeof(*c));
	c->gait = TAGK_SWIM_TRAIN;
	c->rate = 20;
	c->seed = 1;
}

void
tagk_swim_truth(tagk_real pi[TAGK_SWIM_P])
{
	static const tagk_real t[P] = { R_(1.2), R_(4.0), R_(0.05), R_(1.0), R_(3.5), R_(0.04), R_(1.2), R_(4.0),
		R_(0.05), R_(0.02), R_(0.02) };
	memcpy(pi, t, sizeof(t));
}

void
tagk_swim_jacobian(tagk_real a1, tagk_real a2, int b, tagk_real J[3 * N])
{
	const tagk_real L = UNIT_LEN, c1 = tagk_cos(a1), s1 = tagk_sin(a1), c12 = tagk_cos(a1 + a2),
	    s12 = tagk_sin(a1 + a2);
	/* in the head's frame: the joints, the unit's centre and its heading */
	const tagk_real pj1[2] = { -L / 2, 0 }, pj2[2] = { pj1[0] - L * c1, pj1[1] - L * s1 };
	tagk_real c[2] = { 0, 0 }, ca = 1, sa = 0;
	if (b == 1) {
		c[0] = pj1[0] - L / 2 * c1;
		c[1] = pj1[1] - L / 2 * s1;
		ca = c1;
		sa = s1;
	} else if (b == 2) {
		c[0] = pj2[0] - L / 2 * c12;
		c[1] = pj2[1] - L / 2 * s12;
		ca = c12;
		sa = s12;
	}
	for (int k = 0; k < N; k++) {
		/* the centre's velocity and the unit's rate for the unit coordinate rate e_k */
		tagk_real v[2] = { 0, 0 }, w = 0;
		if (k == 0)
			v[0] = 1;
		else if (k == 1)
			v[1] = 1;
		else if (k == 2) {
			v[0] = -c[1];
			v[1] = c[0];
			w = 1;
		} else if (k == 3 && b >= 1) {
			v[0] = -(c[1] - pj1[1]);
			v[1] = c[0] - pj1[0];
			w = 1;
		} else if (k == 4 && b == 2) {
			v[0] = -(c[1] - pj2[1]);
			v[1] = c[0] - pj2[0];
			w = 1;
		}
		/* into the unit's frame */
		J[0 * N + k] = ca * v[0] + sa * v[1];
		J[1 * N + k] = -sa * v[0] + ca * v[1];
		J[2 * N + k] = w;
	}
}

void
tagk_swim_metric_parts(tagk_real a1, tagk_real a2, tagk_real Mj[TAGK_SWIM_P * 25])
{
	memset(Mj, 0, sizeof(*Mj) * P * 25);
	for (int b = 0; b < TAGK_SWIM_UNITS; b++) {
		tagk_real J[3 * N];
		tagk_swim_jacobian(a1, a2, b, J);
		for (int r = 0; r < 3; r++) {
			tagk_real *M = Mj + (3 * b + r) * 25;
			for (int i = 0; i < N; i++)
				for (int k = 0; k < N; k++)
					M[i * N + k] = J[r * N + i] * J[r * N + k];
		}
	}
	Mj[9 * 25 + 3 * N + 3] = 1;
	Mj[10 * 25 + 4 * N + 4] = 1;
}

void
tagk_swim_metric(tagk_real a1, tagk_real a2, const tagk_real pi[TAGK_SWIM_P], tagk_real M[25])
{
	tagk_real Mj[P * 25];
	tagk_swim_metric_parts(a1, a2, Mj);
	for (int i = 0; i < 25; i++) {
		tagk_real s = 0;
		for (int j = 0; j < P; j++)
			s += pi[j] * Mj[j * 25 + i];
		M[i] = s;
	}
}

void
tagk_swim_regressor(tagk_real a1, tagk_real a2, const tagk_real qd[TAGK_SWIM_N], tagk_real Y[5 * TAGK_SWIM_P])
{
	tagk_real Mj[P * 25];
	tagk_swim_metric_parts(a1, a2, Mj);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < P; j++) {
			tagk_real s = 0;
			for (int k = 0; k < N; k++)
				s += Mj[j * 25 + i * N + k] * qd[k];
			Y[i * P + j] = s;
		}
}

long
tagk_swim_samples(const tagk_swim_config *cfg)
{
	tagk_real T = cfg->gait == TAGK_SWIM_TRAIN ? SEGMENTS * SEGMENT_S : SEGMENT_S;
	return (long)(T * cfg->rate + R_(0.5)) + 1;
}

typedef struct {
	tagk_real amp[SEGMENTS][TAGK_SWIM_UNITS], freq[SEGMENTS][TAGK_SWIM_UNITS];
	tagk_real phase[SEGMENTS][TAGK_SWIM_UNITS], offset[SEGMENTS][TAGK_SWIM_UNITS];
} excitation;

/* The wheel forces at t (N, along each wheel's direction). */
static void
wheels(const tagk_swim_config *cfg, const excitation *ex, tagk_real t, tagk_real u[TAGK_SWIM_UNITS])
{
	const tagk_real s = tagk_sin(TWO_PI_R * R_(0.25) * t), c = tagk_cos(TWO_PI_R * R_(0.25) * t);
	switch (cfg->gait) {
	case TAGK_SWIM_TRAIN: {
		int g = (int)(t / SEGMENT_S);
		g = g < 0 ? 0 : g >= SEGMENTS ? SEGMENTS - 1 : g;
		for (int b = 0; b < TAGK_SWIM_UNITS; b++)
			u[b] = ex->offset[g][b] + ex->amp[g][b] * tagk_sin(TWO_PI_R * ex->freq[g][b] * t + ex->phase[g][b]);
		break;
	}
	case TAGK_SWIM_FORWARD:
	case TAGK_SWIM_BACKWARD:
		u[1] = (cfg->gait == TAGK_SWIM_FORWARD ? R_(0.8) : R_(-0.8)) + R_(0.2) * s;
		u[0] = R_(0.8) * s;
		u[2] = R_(-0.8) * s;
		break;
	case TAGK_SWIM_LEFT:
	case TAGK_SWIM_RIGHT:
		u[0] = u[2] = (cfg->gait == TAGK_SWIM_LEFT ? R_(0.6) : R_(-0.6)) + R_(0.2) * s;
		u[1] = R_(0.3) * c;
		break;
	case TAGK_SWIM_TURN:
		u[0] = R_(0.6) + R_(0.3) * s;
		u[2] = R_(-0.6) + R_(0.3) * c;
		u[1] = R_(0.2) * s;
		break;
	}
}

/* tau = sum_b J_b^T u_b (wheel b's force along its direction) - K alpha
 * (the joints' known springs). */
static void
generalized(tagk_real a1, tagk_real a2, const tagk_real u[TAGK_SWIM_UNITS], tagk_real tau[N])
{
	memset(tau, 0, sizeof(*tau) * N);
	tau[3] = -JOINT_SPRING * a1;
	tau[4] = -JOINT_SPRING * a2;
	for (int b = 0; b < TAGK_SWIM_UNITS; b++) {
		tagk_real J[3 * N];
		tagk_swim_jacobian(a1, a2, b, J);
		for (int k = 0; k < N; k++)
			tau[k] += (J[0 * N + k] * wheel_dir[b][0] + J[1 * N + k] * wheel_dir[b][1]) * u[b];
	}
}

/* qd from M qd + f sgn_eps(alpha') = tau (friction f in the joints, its sign
 * smoothed over eps),
 * by Newton's method from the frictionless solution. */
static tagk_status
velocity(tagk_real a1, tagk_real a2, const tagk_real tau[N], tagk_real f, tagk_real qd[N])
{
	tagk_real pi[P], M[25], L[25];
	tagk_swim_truth(pi);
	tagk_swim_metric(a1, a2, pi, M);
	memcpy(L, M, sizeof(L));
	if (tagk_cholesky(N, L) != TAGK_OK)
		return TAGK_ENOTPD;
	memcpy(qd, tau, sizeof(*qd) * N);
	tagk_cholesky_solve(N, 1, L, qd);
	for (int it = 0; f > 0 && it < 30; it++) {
		tagk_real r[N], Jn[25], nr = 0;
		tagk_gemv(N, N, M, qd, r);
		memcpy(Jn, M, sizeof(Jn));
		for (int i = 0; i < N; i++)
			r[i] -= tau[i];
		for (int j = 3; j < N; j++) {
			/* smoothed sign: x / sqrt(x^2 + eps^2), derivative eps^2 / (x^2 + eps^2)^1.5 */
			tagk_real d2 = qd[j] * qd[j] + FRICTION_EPS * FRICTION_EPS, sq = tagk_sqrt(d2);
			r[j] += f * qd[j] / sq;
			Jn[j * N + j] += f * FRICTION_EPS * FRICTION_EPS / (d2 * sq);
		}
		for (int i = 0; i < N; i++)
			nr += r[i] * r[i];
		if (nr < R_(1e-26))
			break;
		if (tagk_cholesky(N, Jn) != TAGK_OK)
			return TAGK_ENOTPD;
		tagk_cholesky_solve(N, 1, Jn, r);
		for (int i = 0; i < N; i++)
			qd[i] -= r[i];
	}
	return tagk_all_finite(N, qd) ? TAGK_OK : TAGK_ENONFINITE;
}

/* The rate of the configuration (x, y, theta, alpha1, alpha2) under tau. */
static tagk_status
rate(const tagk_real s[5], const tagk_real tau_u[TAGK_SWIM_UNITS], tagk_real f, tagk_real ds[5], tagk_real qd[N])
{
	tagk_real tau[N];
	generalized(s[3], s[4], tau_u, tau);
	tagk_status st = velocity(s[3], s[4], tau, f, qd);
	if (st != TAGK_OK)
		return st;
	tagk_real c = tagk_cos(s[2]), sn = tagk_sin(s[2]);
	ds[0] = c * qd[0] - sn * qd[1];
	ds[1] = sn * qd[0] + c * qd[1];
	ds[2] = qd[2];
	ds[3] = qd[3];
	ds[4] = qd[4];
	return TAGK_OK;
}

tagk_status
tagk_swim_run(const tagk_swim_config *cfg, tagk_swim_sample *out, long max)
{
	if (!cfg || !out || !(cfg->rate >= 1 && cfg->rate <= 1000) || !(cfg->pos_noise >= 0) || !(cfg->friction >= 0)
	    || !(cfg->force_noise >= 0) || (unsigned)cfg->gait > (unsigned)TAGK_SWIM_TURN)
		return TAGK_EINVAL;
	const long n = tagk_swim_samples(cfg);
	if (n > max)
		return TAGK_EINVAL;
	tagk_rng g;
	tagk_rng_seed(&g, cfg->seed);
	excitation ex;
	for (int k = 0; k < SEGMENTS; k++)
		for (int b = 0; b < TAGK_SWIM_UNITS; b++) {
			ex.amp[k][b] = R_(0.3) + R_(0.7) * tagk_rng_uniform(&g);
			ex.freq[k][b] = R_(0.1) + R_(0.4) * tagk_rng_uniform(&g);
			ex.phase[k][b] = TWO_PI_R * tagk_rng_uniform(&g);
			ex.offset[k][b] = R_(0.3) * (2 * tagk_rng_uniform(&g) - 1);
		}
	const tagk_real dt = 1 / cfg->rate, h = dt / SUBSTEPS;
	tagk_real s[5] = { 0, 0, 0, 0, 0 };
	tagk_status st;
	for (long k = 0; k < n; k++) {
		tagk_real t = (tagk_real)k * dt, u[TAGK_SWIM_UNITS], ds[5], qd[N];
		wheels(cfg, &ex, t, u);
		tagk_swim_sample *o = out + k;
		o->t = t;
		generalized(s[3], s[4], u, o->tau);
		tagk_real un[TAGK_SWIM_UNITS];
		for (int b = 0; b < TAGK_SWIM_UNITS; b++)
			un[b] = u[b] + cfg->force_noise * tagk_rng_gaussian(&g);
		if ((st = rate(s, un, cfg->friction, ds, qd)) != TAGK_OK)
			return st;
		memcpy(o->qd_true, qd, sizeof(qd));
		memcpy(o->qd, qd, sizeof(qd));
		o->alpha_true[0] = s[3];
		o->alpha_true[1] = s[4];
		for (int i = 0; i < 3; i++)
			o->pose[i] = s[i] + cfg->pos_noise * tagk_rng_gaussian(&g);
		for (int i = 0; i < 2; i++)
			o->alpha[i] = s[3 + i] + cfg->pos_noise * tagk_rng_gaussian(&g);
		/* to the next sample: RK4, the wheels' forces (with their noise)
		 * held, the commanded part evaluated at each stage */
		for (int sub = 0; sub < SUBSTEPS; sub++) {
			tagk_real k1[5], k2[5], k3[5], k4[5], tmp[5], q2[N], ut[TAGK_SWIM_UNITS];
			tagk_real t0 = t + (tagk_real)sub * h;
			for (int stage = 0; stage < 4; stage++) {
				tagk_real c = stage == 0 ? 0 : stage == 3 ? 1 : R_(0.5);
				tagk_real *kk = stage == 0 ? k1 : stage == 1 ? k2 : stage == 2 ? k3 : k4;
				const tagk_real *prev = stage == 1 ? k1 : stage == 2 ? k2 : k3;
				for (int i = 0; i < 5; i++)
					tmp[i] = s[i] + (stage ? c * h * prev[i] : 0);
				wheels(cfg, &ex, t0 + c * h, ut);
				for (int b = 0; b < TAGK_SWIM_UNITS; b++)
					ut[b] += un[b] - u[b];
				if ((st = rate(tmp, ut, cfg->friction, kk, q2)) != TAGK_OK)
					return st;
			}
			for (int i = 0; i < 5; i++)
				s[i] += h * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) / 6;
		}
	}
	if (cfg->differentiate) {
		/* body velocity from the measured poses: xi = R(theta)^T dp / dt, by
		 * central differences (one-sided at the ends) */
		for (long k = 0; k < n; k++) {
			long a = k > 0 ? k - 1 : 0, b = k + 1 < n ? k + 1 : n - 1;
			tagk_real span = (tagk_real)(b - a) * dt, dx = out[b].pose[0] - out[a].pose[0];
			tagk_real dy = out[b].pose[1] - out[a].pose[1], th = out[k].pose[2];
			tagk_real c = tagk_cos(th), sn = tagk_sin(th);
			out[k].qd[0] = (c * dx + sn * dy) / span;
			out[k].qd[1] = (-sn * dx + c * dy) / span;
			out[k].qd[2] = (out[b].pose[2] - out[a].pose[2]) / span;
			out[k].qd[3] = (out[b].alpha[0] - out[a].alpha[0]) / span;
			out[k].qd[4] = (out[b].alpha[1] - out[a].alpha[1]) / span;
		}
	}
	return TAGK_OK;
}
