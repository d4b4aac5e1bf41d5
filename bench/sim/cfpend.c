/* cfpend.c: paper 002's Crazyflie with a pendulum; see cfpend.h. */
#include <string.h>
#include "cfpend.h"
#include "../../lib/inertia.h"
#include "../../lib/linalg.h"
#include "../../lib/rng.h"

#define R_(x) ((tagk_real)(x))
#define TWO_PI_R ((tagk_real)6.28318530717958647692)
#define N TAGK_CFP_N
#define G0 R_(9.81)
#define STEP_S R_(0.001)

void
tagk_cfp_defaults(tagk_cfp_config *c)
{
	memset(c, 0, sizeof(*c));
	c->duration = 35;
	c->rate = 100;
	c->seed = 1;
}

void
tagk_cfp_model(tagk_mb_model *m, tagk_real theta[TAGK_CFP_P])
{
	memset(m, 0, sizeof(*m));
	m->nb = TAGK_CFP_BODIES;
	m->floating = 1;
	m->parent[0] = -1;
	m->parent[1] = 0;
	m->parent[2] = 1;
	for (int i = 0; i < TAGK_CFP_BODIES; i++) {
		m->joint[i] = TAGK_JOINT_REVOLUTE;
		m->rot[i][0] = m->rot[i][4] = m->rot[i][8] = 1;
	}
	m->axis[0][2] = 1;
	m->axis[1][0] = 1;
	m->axis[2][1] = 1;
	m->pos[1][2] = R_(-0.02);
	m->gravity[2] = -G0;
	/* the Crazyflie 2.x of ../shared/design.md, frame at its centre of mass */
	const tagk_real c0[3] = { 0, 0, 0 }, I0[9] = { R_(1.66e-5), R_(0.83e-6), R_(0.72e-6), R_(0.83e-6), R_(1.66e-5),
		R_(1.8e-6), R_(0.72e-6), R_(1.8e-6), R_(2.93e-5) };
	tagk_theta_from_body(R_(0.035), c0, I0, theta);
	/* the joint's core: 2 g, a 1 cm cube */
	const tagk_real I1[9] = { R_(3.3e-8), 0, 0, 0, R_(3.3e-8), 0, 0, 0, R_(3.3e-8) };
	tagk_theta_from_body(R_(0.002), c0, I1, theta + TAGK_NPARAM);
	/* the pendulum: a 0.15 m rod of 6 g and 2 mm radius along -z */
	const tagk_real c2[3] = { 0, 0, R_(-0.075) }, I2[9] = { R_(1.126e-5), 0, 0, 0, R_(1.126e-5), 0, 0, 0,
		R_(1.2e-8) };
	tagk_theta_from_body(R_(0.006), c2, I2, theta + 2 * TAGK_NPARAM);
}

long
tagk_cfp_samples(const tagk_cfp_config *cfg)
{
	return (long)(cfg->duration * cfg->rate + R_(0.5)) + 1;
}

typedef struct {
	tagk_real R[9], p[3], nu[6], a[2], ad[2];
} state;

typedef struct {
	tagk_mb_model m;
	tagk_real theta[TAGK_CFP_P];
	const tagk_cfp_config *cfg;
	tagk_real phase[4];
} plant;

/* The reference at t: position, velocity, acceleration (world), yaw. */
static void
reference(const plant *pl, tagk_real t, tagk_real p[3], tagk_real v[3], tagk_real a[3], tagk_real *yaw)
{
	static const tagk_real amp[3] = { R_(0.15), R_(0.15), R_(0.1) }, f[4] = { R_(0.53), R_(0.71), R_(0.37), R_(0.29) };
	for (int i = 0; i < 3; i++) {
		tagk_real w = TWO_PI_R * f[i], s = tagk_sin(w * t + pl->phase[i]), c = tagk_cos(w * t + pl->phase[i]);
		p[i] = (i == 2 ? 1 : 0) + amp[i] * s;
		v[i] = amp[i] * w * c;
		a[i] = 0 - amp[i] * w * w * s;
	}
	*yaw = R_(0.5) * tagk_sin(TWO_PI_R * f[3] * t + pl->phase[3]);
}

static void
cross(const tagk_real a[3], const tagk_real b[3], tagk_real c[3])
{
	c[0] = a[1] * b[2] - a[2] * b[1];
	c[1] = a[2] * b[0] - a[0] * b[2];
	c[2] = a[0] * b[1] - a[1] * b[0];
}

static tagk_real
norm3(const tagk_real a[3])
{
	return tagk_sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

/* The commanded base wrench [n; f] (body frame) at state s and time t. */
static void
control(const plant *pl, const state *s, tagk_real t, tagk_real wrench[6])
{
	tagk_real pr[3], vr[3], ar[3], yaw, mt = 0;
	reference(pl, t, pr, vr, ar, &yaw);
	for (int b = 0; b < TAGK_CFP_BODIES; b++)
		mt += pl->theta[TAGK_NPARAM * b + TAGK_P_M];
	const tagk_real *R = s->R, *w = s->nu, *vb = s->nu + 3;
	tagk_real vw[3], F[3];
	for (int i = 0; i < 3; i++)
		vw[i] = R[i * 3] * vb[0] + R[i * 3 + 1] * vb[1] + R[i * 3 + 2] * vb[2];
	for (int i = 0; i < 3; i++)
		F[i] = mt * (ar[i] - R_(3.0) * (s->p[i] - pr[i]) - R_(2.5) * (vw[i] - vr[i]) + (i == 2 ? G0 : 0));
	tagk_real b3[3], b1c[3] = { tagk_cos(yaw), tagk_sin(yaw), 0 }, b2[3], b1[3], nf = norm3(F);
	for (int i = 0; i < 3; i++)
		b3[i] = F[i] / nf;
	cross(b3, b1c, b2);
	tagk_real n2 = norm3(b2);
	for (int i = 0; i < 3; i++)
		b2[i] /= n2;
	cross(b2, b3, b1);
	tagk_real Rd[9] = { b1[0], b2[0], b3[0], b1[1], b2[1], b3[1], b1[2], b2[2], b3[2] };
	/* e_R = vee(Rd^T R - R^T Rd) / 2 */
	tagk_real E[9];
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++) {
			tagk_real x = 0, y = 0;
			for (int k = 0; k < 3; k++) {
				x += Rd[k * 3 + i] * R[k * 3 + j];
				y += R[k * 3 + i] * Rd[k * 3 + j];
			}
			E[i * 3 + j] = x - y;
		}
	tagk_real eR[3] = { (E[7] - E[5]) / 4, (E[2] - E[6]) / 4, (E[3] - E[1]) / 4 };
	/* the base's inertia about its centre of mass, for the gyroscopic term */
	const tagk_real *th = pl->theta;
	tagk_real J[9] = { th[TAGK_P_IXX], th[TAGK_P_IXY], th[TAGK_P_IXZ], th[TAGK_P_IXY], th[TAGK_P_IYY], th[TAGK_P_IYZ],
		th[TAGK_P_IXZ], th[TAGK_P_IYZ], th[TAGK_P_IZZ] };
	tagk_real Jw[3], gyro[3];
	for (int i = 0; i < 3; i++)
		Jw[i] = J[i * 3] * w[0] + J[i * 3 + 1] * w[1] + J[i * 3 + 2] * w[2];
	cross(w, Jw, gyro);
	for (int i = 0; i < 3; i++)
		wrench[i] = R_(-6e-3) * eR[i] - R_(4.5e-4) * w[i] + gyro[i];
	wrench[3] = wrench[4] = 0;
	wrench[5] = F[0] * R[2] + F[1] * R[5] + F[2] * R[8];
}

/* Generalized accelerations at s under the commanded wrench cmd (with the
 * plant's mismatches applied). */
static tagk_status
accel(const plant *pl, const state *s, const tagk_real cmd[6], tagk_real qdd[N])
{
	const tagk_cfp_config *c = pl->cfg;
	tagk_real qd[N], tau[N], h[N], M[N * N];
	memcpy(qd, s->nu, sizeof(s->nu));
	memcpy(qd + 6, s->ad, sizeof(s->ad));
	tagk_mb_kin kin;
	tagk_status st = tagk_mb_kinematics(&pl->m, s->R, s->p, s->a, qd, NULL, &kin);
	if (st != TAGK_OK)
		return st;
	tagk_mb_inverse_dynamics(&kin, &pl->m, pl->theta, h);
	tagk_mb_mass_matrix(&kin, &pl->m, pl->theta, M);
	for (int i = 0; i < 6; i++)
		tau[i] = cmd[i];
	tau[5] *= 1 + c->thrust_error;
	for (int i = 0; i < 3; i++)
		tau[3 + i] -= c->rotor_drag * s->nu[3 + i];
	for (int j = 0; j < 2; j++)
		tau[6 + j] = -c->joint_friction * s->ad[j];
	for (int i = 0; i < N; i++)
		qdd[i] = tau[i] - h[i];
	if (tagk_cholesky(N, M) != TAGK_OK)
		return TAGK_ENOTPD;
	tagk_cholesky_solve(N, 1, M, qdd);
	return tagk_all_finite(N, qdd) ? TAGK_OK : TAGK_ENONFINITE;
}

/* ds = the state's rate; qdd its accelerations. */
static tagk_status
rate(const plant *pl, const state *s, const tagk_real cmd[6], state *ds)
{
	tagk_real qdd[N];
	tagk_status st = accel(pl, s, cmd, qdd);
	if (st != TAGK_OK)
		return st;
	const tagk_real *w = s->nu, *v = s->nu + 3, *R = s->R;
	tagk_real S[9] = { 0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0 };
	for (int a = 0; a < 3; a++) {
		for (int b = 0; b < 3; b++)
			ds->R[a * 3 + b] = R[a * 3] * S[b] + R[a * 3 + 1] * S[3 + b] + R[a * 3 + 2] * S[6 + b];
		ds->p[a] = R[a * 3] * v[0] + R[a * 3 + 1] * v[1] + R[a * 3 + 2] * v[2];
	}
	memcpy(ds->nu, qdd, sizeof(ds->nu));
	memcpy(ds->a, s->ad, sizeof(ds->a));
	memcpy(ds->ad, qdd + 6, sizeof(ds->ad));
	return TAGK_OK;
}

static void
axpy(state *y, const state *x, tagk_real a, const state *d)
{
	const tagk_real *xs = (const tagk_real *)x, *ds = (const tagk_real *)d;
	tagk_real *ys = (tagk_real *)y;
	for (size_t i = 0; i < sizeof(state) / sizeof(tagk_real); i++)
		ys[i] = xs[i] + a * ds[i];
}

/* Re-orthonormalise R (Gram-Schmidt on its columns): RK4 drifts off SO(3). */
static void
orthonormalise(tagk_real R[9])
{
	tagk_real c0[3] = { R[0], R[3], R[6] }, c1[3] = { R[1], R[4], R[7] }, c2[3], n = norm3(c0), d = 0;
	for (int i = 0; i < 3; i++)
		c0[i] /= n;
	for (int i = 0; i < 3; i++)
		d += c0[i] * c1[i];
	for (int i = 0; i < 3; i++)
		c1[i] -= d * c0[i];
	n = norm3(c1);
	for (int i = 0; i < 3; i++)
		c1[i] /= n;
	cross(c0, c1, c2);
	for (int i = 0; i < 3; i++) {
		R[i * 3] = c0[i];
		R[i * 3 + 1] = c1[i];
		R[i * 3 + 2] = c2[i];
	}
}

/* A rotation by the small angle vector e: R <- R exp(S(e)), first order
 * then re-orthonormalised (for measurement noise). */
static void
perturb(tagk_real R[9], const tagk_real e[3])
{
	tagk_real S[9] = { 1, -e[2], e[1], e[2], 1, -e[0], -e[1], e[0], 1 }, X[9];
	for (int a = 0; a < 3; a++)
		for (int b = 0; b < 3; b++)
			X[a * 3 + b] = R[a * 3] * S[b] + R[a * 3 + 1] * S[3 + b] + R[a * 3 + 2] * S[6 + b];
	memcpy(R, X, sizeof(X));
	orthonormalise(R);
}

/* vee(log(A^T B)): the rotation vector from A to B, in A's frame. */
static void
rotvec(const tagk_real A[9], const tagk_real B[9], tagk_real w[3])
{
	tagk_real D[9];
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			D[i * 3 + j] = A[i] * B[j] + A[3 + i] * B[3 + j] + A[6 + i] * B[6 + j];
	tagk_real v[3] = { (D[7] - D[5]) / 2, (D[2] - D[6]) / 2, (D[3] - D[1]) / 2 };
	tagk_real s = norm3(v), c = (D[0] + D[4] + D[8] - 1) / 2, th = tagk_atan2(s, c);
	tagk_real k = s > R_(1e-12) ? th / s : 1;
	for (int i = 0; i < 3; i++)
		w[i] = k * v[i];
}

tagk_status
tagk_cfp_run(const tagk_cfp_config *cfg, tagk_cfp_sample *out, long max)
{
	if (!cfg || !out || !(cfg->duration > 0 && cfg->duration <= 3600) || !(cfg->rate >= 10 && cfg->rate <= 1000)
	    || !(cfg->rotor_drag >= 0) || !(cfg->thrust_error > -1 && cfg->thrust_error < 1)
	    || !(cfg->joint_friction >= 0) || !(cfg->pos_noise >= 0))
		return TAGK_EINVAL;
	const long n = tagk_cfp_samples(cfg);
	if (n > max || n < 3)
		return TAGK_EINVAL;
	plant pl;
	tagk_cfp_model(&pl.m, pl.theta);
	pl.cfg = cfg;
	tagk_rng g;
	tagk_rng_seed(&g, cfg->seed);
	for (int i = 0; i < 4; i++)
		pl.phase[i] = TWO_PI_R * tagk_rng_uniform(&g);
	/* start on the reference, level at its yaw, the pendulum hanging */
	state s;
	memset(&s, 0, sizeof(s));
	tagk_real vr[3], ar[3], yaw;
	reference(&pl, 0, s.p, vr, ar, &yaw);
	tagk_real cy = tagk_cos(yaw), sy = tagk_sin(yaw);
	tagk_real R0[9] = { cy, -sy, 0, sy, cy, 0, 0, 0, 1 };
	memcpy(s.R, R0, sizeof(R0));
	for (int i = 0; i < 3; i++)
		s.nu[3 + i] = s.R[i] * vr[0] + s.R[3 + i] * vr[1] + s.R[6 + i] * vr[2];
	const tagk_real dt = 1 / cfg->rate;
	const int sub = (int)(dt / STEP_S + R_(0.5)) < 1 ? 1 : (int)(dt / STEP_S + R_(0.5));
	const tagk_real h = dt / (tagk_real)sub;
	tagk_status st;
	for (long k = 0; k < n; k++) {
		tagk_real t = (tagk_real)k * dt, cmd[6], qdd[N];
		control(&pl, &s, t, cmd);
		tagk_cfp_sample *o = out + k;
		memset(o, 0, sizeof(*o));
		o->t = t;
		memcpy(o->tau, cmd, sizeof(cmd));
		if ((st = accel(&pl, &s, cmd, qdd)) != TAGK_OK)
			return st;
		memcpy(o->qd_true, s.nu, sizeof(s.nu));
		memcpy(o->qd_true + 6, s.ad, sizeof(s.ad));
		memcpy(o->qdd_true, qdd, sizeof(qdd));
		memcpy(o->qd, o->qd_true, sizeof(o->qd));
		memcpy(o->qdd, o->qdd_true, sizeof(o->qdd));
		memcpy(o->R, s.R, sizeof(s.R));
		tagk_real e[3];
		for (int i = 0; i < 3; i++) {
			o->p[i] = s.p[i] + cfg->pos_noise * tagk_rng_gaussian(&g);
			e[i] = cfg->pos_noise * tagk_rng_gaussian(&g);
		}
		if (cfg->pos_noise > 0)
			perturb(o->R, e);
		for (int j = 0; j < 2; j++)
			o->alpha[j] = s.a[j] + cfg->pos_noise * tagk_rng_gaussian(&g);
		for (int step = 0; step < sub; step++) {
			state k1, k2, k3, k4, tmp;
			if ((st = rate(&pl, &s, cmd, &k1)) != TAGK_OK)
				return st;
			axpy(&tmp, &s, h / 2, &k1);
			if ((st = rate(&pl, &tmp, cmd, &k2)) != TAGK_OK)
				return st;
			axpy(&tmp, &s, h / 2, &k2);
			if ((st = rate(&pl, &tmp, cmd, &k3)) != TAGK_OK)
				return st;
			axpy(&tmp, &s, h, &k3);
			if ((st = rate(&pl, &tmp, cmd, &k4)) != TAGK_OK)
				return st;
			axpy(&s, &s, h / 6, &k1);
			axpy(&s, &s, h / 3, &k2);
			axpy(&s, &s, h / 3, &k3);
			axpy(&s, &s, h / 6, &k4);
			orthonormalise(s.R);
		}
		if (!tagk_all_finite((int)(sizeof(state) / sizeof(tagk_real)), (const tagk_real *)&s))
			return TAGK_ENONFINITE;
	}
	if (cfg->differentiate) {
		/* body velocities from the measured poses, then their rates, by
		 * central differences (one-sided at the ends) */
		for (long k = 0; k < n; k++) {
			long a = k > 0 ? k - 1 : 0, b = k + 1 < n ? k + 1 : n - 1;
			tagk_real span = (tagk_real)(b - a) * dt, w[3], dp[3];
			rotvec(out[a].R, out[b].R, w);
			for (int i = 0; i < 3; i++)
				dp[i] = out[b].p[i] - out[a].p[i];
			for (int i = 0; i < 3; i++) {
				out[k].qd[i] = w[i] / span;
				out[k].qd[3 + i] = (out[k].R[i] * dp[0] + out[k].R[3 + i] * dp[1] + out[k].R[6 + i] * dp[2]) / span;
			}
			for (int j = 0; j < 2; j++)
				out[k].qd[6 + j] = (out[b].alpha[j] - out[a].alpha[j]) / span;
		}
		for (long k = 0; k < n; k++) {
			long a = k > 0 ? k - 1 : 0, b = k + 1 < n ? k + 1 : n - 1;
			for (int i = 0; i < N; i++)
				out[k].qdd[i] = (out[b].qd[i] - out[a].qd[i]) / ((tagk_real)(b - a) * dt);
		}
	}
	return TAGK_OK;
}
