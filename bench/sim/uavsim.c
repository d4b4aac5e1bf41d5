/* uavsim.c: the mass-changing UAV flights of paper 001's benchmark; see uavsim.h. */
#include <string.h>
#include "uavsim.h"
#include "../../lib/so3.h"

const char *const tagk_uavtraj_names[TAGK_UAVTRAJ_COUNT] = { "random", "loop", "lemniscate", "zigzag",
	"square" };
const char *const tagk_massb_names[TAGK_MASSB_COUNT] = { "constant", "drain", "swaps", "drop", "load" };

static const tagk_real PI = (tagk_real)3.14159265358979323846;
static const tagk_real Z0 = (tagk_real)1.5; /* flight altitude, m */

/* controller gains: PID on position (1/s^2, 1/s, 1/s^3), attitude (1/s) */
static const tagk_real KP = 12, KD = 7, KI = 20, KATT = 8;
static const tagk_real TILT_MAX = (tagk_real)0.7, RATE_MAX = 6; /* tan(35 deg); rad/s */

void
tagk_uavsim_defaults(tagk_uavsim_config *c, int traj, int behaviour, uint64_t seed)
{
	memset(c, 0, sizeof(*c));
	c->traj = traj;
	c->behaviour = behaviour;
	c->seed = seed;
	c->duration = 20;
	c->dt = (tagk_real)0.01;
	c->m_nom = 1;
	c->mass_scale = 1;
	c->sd_att = (tagk_real)0.005;
	c->sd_pos = (tagk_real)0.01;
	c->sd_vel = (tagk_real)0.02;
	c->sd_gyro = (tagk_real)0.005;
	c->sd_acc = (tagk_real)0.05;
	c->sd_thrust = 0;
	c->thrust_tau = 0;
	c->thrust_max = 0;
	c->speed = 1;
}

static tagk_real
jitter(tagk_rng *g, tagk_real rel)
{
	return 1 + rel * (2 * tagk_rng_uniform(g) - 1);
}

tagk_status
tagk_uavsim_init(tagk_uavsim *s, const tagk_uavsim_config *c)
{
	if (!s || !c || c->traj < 0 || c->traj >= TAGK_UAVTRAJ_COUNT || c->behaviour < 0 ||
	    c->behaviour >= TAGK_MASSB_COUNT)
		return TAGK_EINVAL;
	const tagk_real sd[] = { c->sd_att, c->sd_pos, c->sd_vel, c->sd_gyro, c->sd_acc, c->sd_thrust };
	for (size_t i = 0; i < sizeof(sd) / sizeof(sd[0]); i++)
		if (!tagk_isfinite(sd[i]) || sd[i] < 0)
			return TAGK_EINVAL;
	if (!(c->dt > 0) || !(c->dt <= (tagk_real)0.1) || !(c->duration >= c->dt) || !(c->duration <= 3600) ||
	    !(c->m_nom > 0) || !tagk_isfinite(c->m_nom))
		return TAGK_EINVAL;
	if (!(c->thrust_tau >= 0 && c->thrust_tau <= 10) || !(c->thrust_max == 0 || (c->thrust_max >= (tagk_real)0.5 &&
	    c->thrust_max <= 100)) || !(c->speed > 0 && c->speed <= 10) || !(c->noise_ar1 >= 0 && c->noise_ar1 < 1) ||
	    !(c->state_ar1 >= 0 && c->state_ar1 < 1))
		return TAGK_EINVAL;
	memset(s, 0, sizeof(*s));
	s->c = *c;
	tagk_rng_seed(&s->rng, c->seed);
	tagk_rng *g = &s->rng;
	tagk_real *p = s->tp;
	switch (c->traj) {
	case TAGK_UAVTRAJ_RANDOM:
		/* two sinusoids per axis: amplitude, angular frequency, phase */
		for (int i = 0; i < 3; i++)
			for (int h = 0; h < 2; h++) {
				tagk_real *q = p + 6 * i + 3 * h;
				q[0] = (i == 2 ? (tagk_real)0.15 : (tagk_real)0.6) * ((tagk_real)0.5 + tagk_rng_uniform(g));
				q[1] = ((tagk_real)0.3 + (tagk_real)0.7 * tagk_rng_uniform(g)) * (tagk_real)(h ? 2 : 1);
				q[2] = 2 * PI * tagk_rng_uniform(g);
			}
		break;
	case TAGK_UAVTRAJ_LOOP:
		p[0] = (tagk_real)1.5 * jitter(g, (tagk_real)0.15); /* radius */
		p[1] = (tagk_real)1.5 / p[0] * jitter(g, (tagk_real)0.1); /* about 1.5 m/s */
		p[2] = 2 * PI * tagk_rng_uniform(g);
		break;
	case TAGK_UAVTRAJ_LEMNISCATE:
		p[0] = (tagk_real)1.5 * jitter(g, (tagk_real)0.15);
		p[1] = (tagk_real)1.1 * jitter(g, (tagk_real)0.1);
		p[2] = 2 * PI * tagk_rng_uniform(g);
		break;
	case TAGK_UAVTRAJ_ZIGZAG:
		p[0] = (tagk_real)0.8 * jitter(g, (tagk_real)0.15); /* advance per leg */
		p[1] = (tagk_real)1.0 * jitter(g, (tagk_real)0.15); /* half width */
		p[2] = (tagk_real)2.0 * jitter(g, (tagk_real)0.1);  /* leg time */
		break;
	default: /* square */
		p[0] = (tagk_real)1.5 * jitter(g, (tagk_real)0.15); /* half side */
		p[2] = (tagk_real)2.5 * jitter(g, (tagk_real)0.1);
		break;
	}
	s->mp[0] = jitter(g, (tagk_real)0.1);
	for (int i = 1; i < 5; i++)
		s->mp[i] = (tagk_real)0.03 * (2 * tagk_rng_uniform(g) - 1);
	s->steps = (long)(c->duration / c->dt + (tagk_real)0.5) + 1;
	tagk_real a[3];
	tagk_uavsim_reference(s, 0, s->x.r, s->x.v, a);
	s->x.q[0] = 1;
	s->x.m = c->m_nom;
	return TAGK_OK;
}

long
tagk_uavsim_steps(const tagk_uavsim *s)
{
	return s->steps;
}

tagk_real
tagk_uavsim_mass(const tagk_uavsim *s, tagk_real t)
{
	tagk_real D = s->c.duration, x = t / D, A = s->mp[0] * s->c.mass_scale, f = 1;
	const tagk_real *j = s->mp + 1;
	switch (s->c.behaviour) {
	case TAGK_MASS_DRAIN: {
		tagk_real a = (tagk_real)0.1 + j[0], b = (tagk_real)0.9 + j[1];
		tagk_real u = x <= a ? 0 : x >= b ? 1 : (x - a) / (b - a);
		f = 1 - (tagk_real)0.3 * A * u;
		break;
	}
	case TAGK_MASS_SWAPS:
		if (x >= (tagk_real)0.8 + j[3])
			f = 1;
		else if (x >= (tagk_real)0.6 + j[2])
			f = 1 + (tagk_real)0.3 * A;
		else if (x >= (tagk_real)0.4 + j[1])
			f = 1 - (tagk_real)0.15 * A;
		else if (x >= (tagk_real)0.2 + j[0])
			f = 1 + (tagk_real)0.3 * A;
		break;
	case TAGK_MASS_DROP:
		f = x >= (tagk_real)0.5 + j[0] ? 1 - (tagk_real)0.25 * A : 1;
		break;
	case TAGK_MASS_LOAD: {
		tagk_real a = (tagk_real)0.25 + j[0], b = (tagk_real)0.75 + j[1];
		tagk_real u = x <= a ? 0 : x >= b ? 1 : (x - a) / (b - a);
		f = 1 + (tagk_real)0.3 * A * u;
		break;
	}
	default:
		break;
	}
	return s->c.m_nom * f;
}

/* Rest-to-rest quintic from a to b over time T, at tau in [0, T]. */
static void
quintic(const tagk_real a[3], const tagk_real b[3], tagk_real T, tagk_real tau, tagk_real p[3],
    tagk_real v[3], tagk_real acc[3])
{
	tagk_real u = tau / T, u2 = u * u, u3 = u2 * u;
	tagk_real s = u3 * (10 - 15 * u + 6 * u2);
	tagk_real ds = 30 * u2 * (1 - 2 * u + u2) / T;
	tagk_real dds = 60 * u * (1 - 3 * u + 2 * u2) / (T * T);
	for (int i = 0; i < 3; i++) {
		p[i] = a[i] + (b[i] - a[i]) * s;
		v[i] = (b[i] - a[i]) * ds;
		acc[i] = (b[i] - a[i]) * dds;
	}
}

static void
waypoint(const tagk_uavsim *s, long i, tagk_real w[3])
{
	const tagk_real *p = s->tp;
	w[2] = Z0;
	if (s->c.traj == TAGK_UAVTRAJ_ZIGZAG) {
		long k = i % 8, tri = k <= 4 ? k : 8 - k;
		w[0] = p[0] * ((tagk_real)tri - 2);
		w[1] = i % 2 ? p[1] : -p[1];
	} else {
		static const int cx[4] = { 1, -1, -1, 1 }, cy[4] = { 1, 1, -1, -1 };
		w[0] = p[0] * (tagk_real)cx[i % 4];
		w[1] = p[0] * (tagk_real)cy[i % 4];
	}
}

/* The reference at speed 1. */
static void
reference_at(const tagk_uavsim *s, tagk_real t, tagk_real p[3], tagk_real v[3], tagk_real a[3])
{
	const tagk_real *tp = s->tp;
	for (int i = 0; i < 3; i++)
		p[i] = v[i] = a[i] = 0;
	p[2] = Z0;
	switch (s->c.traj) {
	case TAGK_UAVTRAJ_RANDOM:
		for (int i = 0; i < 3; i++)
			for (int h = 0; h < 2; h++) {
				const tagk_real *q = tp + 6 * i + 3 * h;
				tagk_real ph = q[1] * t + q[2], sn = tagk_sin(ph), cs = tagk_cos(ph);
				/* start at the centre: subtract the value at t = 0 */
				p[i] += q[0] * (sn - tagk_sin(q[2]));
				v[i] += q[0] * q[1] * cs;
				a[i] -= q[0] * q[1] * q[1] * sn;
			}
		break;
	case TAGK_UAVTRAJ_LOOP: {
		tagk_real R = tp[0], w = tp[1], ph = w * t + tp[2], c = tagk_cos(ph), sn = tagk_sin(ph);
		p[0] = R * c;
		p[1] = R * sn;
		v[0] = -R * w * sn;
		v[1] = R * w * c;
		a[0] = -R * w * w * c;
		a[1] = -R * w * w * sn;
		break;
	}
	case TAGK_UAVTRAJ_LEMNISCATE: {
		/* Gerono: x = A sin(ph), y = A sin(2 ph) / 2 */
		tagk_real A = tp[0], w = tp[1], ph = w * t + tp[2];
		tagk_real s1 = tagk_sin(ph), c1 = tagk_cos(ph), s2 = tagk_sin(2 * ph), c2 = tagk_cos(2 * ph);
		p[0] = A * s1;
		p[1] = A * s2 / 2;
		v[0] = A * w * c1;
		v[1] = A * w * c2;
		a[0] = -A * w * w * s1;
		a[1] = -2 * A * w * w * s2;
		break;
	}
	default: {
		tagk_real T = s->tp[2], wa[3], wb[3];
		long i = (long)(t / T);
		waypoint(s, i, wa);
		waypoint(s, i + 1, wb);
		quintic(wa, wb, T, t - (tagk_real)i * T, p, v, a);
		break;
	}
	}
}

void
tagk_uavsim_reference(const tagk_uavsim *s, tagk_real t, tagk_real p[3], tagk_real v[3], tagk_real a[3])
{
	tagk_real k = s->c.speed;
	reference_at(s, k * t, p, v, a);
	for (int i = 0; i < 3; i++) {
		v[i] *= k;
		a[i] *= k * k;
	}
}

/* The controller: thrust and body rates from the measurement y at t. */
static void
control(tagk_uavsim *s, tagk_real t, const tagk_uav_meas *y, tagk_uav_input *u)
{
	tagk_real pr[3], vr[3], ar[3], F[3], m = s->c.m_nom;
	tagk_uavsim_reference(s, t, pr, vr, ar);
	for (int i = 0; i < 3; i++) {
		tagk_real e = pr[i] - y->r[i];
		s->integ[i] += e * s->c.dt;
		if (s->integ[i] > 2)
			s->integ[i] = 2;
		if (s->integ[i] < -2)
			s->integ[i] = -2;
		F[i] = m * (ar[i] + KP * e + KD * (vr[i] - y->v[i]) + KI * s->integ[i] + (i == 2 ? TAGK_UAV_G : 0));
	}
	tagk_real fmin = (tagk_real)0.3 * m * TAGK_UAV_G;
	if (F[2] < fmin)
		F[2] = fmin;
	tagk_real h = tagk_sqrt(F[0] * F[0] + F[1] * F[1]);
	if (h > F[2] * TILT_MAX) {
		F[0] *= F[2] * TILT_MAX / h;
		F[1] *= F[2] * TILT_MAX / h;
	}
	tagk_real n = tagk_sqrt(F[0] * F[0] + F[1] * F[1] + F[2] * F[2]);
	tagk_real b3[3] = { F[0] / n, F[1] / n, F[2] / n }, b1c[3] = { 1, 0, 0 }, b2[3], b1[3], R[9], qd[4];
	tagk_cross(b3, b1c, b2);
	tagk_real n2 = tagk_sqrt(b2[0] * b2[0] + b2[1] * b2[1] + b2[2] * b2[2]);
	for (int i = 0; i < 3; i++)
		b2[i] /= n2;
	tagk_cross(b2, b3, b1);
	for (int i = 0; i < 3; i++) {
		R[i * 3] = b1[i];
		R[i * 3 + 1] = b2[i];
		R[i * 3 + 2] = b3[i];
	}
	tagk_qfrommatrix(R, qd);
	tagk_real ez[3] = { 0, 0, 1 }, bz[3], e[3];
	tagk_qrotate(y->q, ez, bz);
	tagk_real T = F[0] * bz[0] + F[1] * bz[1] + F[2] * bz[2];
	tagk_real tmax = (tagk_real)2.5 * m * TAGK_UAV_G;
	u->thrust = T < 0 ? 0 : T > tmax ? tmax : T;
	tagk_qminus(qd, y->q, e);
	tagk_real wn = 0;
	for (int i = 0; i < 3; i++) {
		u->w[i] = KATT * e[i];
		wn += u->w[i] * u->w[i];
	}
	wn = tagk_sqrt(wn);
	if (wn > RATE_MAX)
		for (int i = 0; i < 3; i++)
			u->w[i] *= RATE_MAX / wn;
}

/* d(r, v)/dt at time t of the period starting at t0 with attitude q0 */
static void
deriv(const tagk_uavsim *s, tagk_real t0, const tagk_real q0[4], const tagk_real w[3], tagk_real T,
    tagk_real tau, const tagk_real rv[6], tagk_real d[6])
{
	tagk_real q[4], dq[4], wt[3] = { w[0] * tau, w[1] * tau, w[2] * tau }, f[3] = { 0, 0, T }, a[3];
	tagk_qexp(wt, dq);
	tagk_qmul(q0, dq, q);
	tagk_qrotate(q, f, a);
	tagk_real m = tagk_uavsim_mass(s, t0 + tau);
	for (int i = 0; i < 3; i++) {
		d[i] = rv[3 + i];
		d[3 + i] = a[i] / m - (i == 2 ? TAGK_UAV_G : 0);
	}
}

/* White noise w through the AR(1) filter of state *e: e = phi e + sqrt(1 -
 * phi^2) w, whose sd is w's (w itself when phi is 0). */
static tagk_real
coloured(tagk_real phi, tagk_real *e, tagk_real w)
{
	if (phi == 0)
		return w;
	*e = phi * *e + tagk_sqrt(1 - phi * phi) * w;
	return *e;
}

tagk_status
tagk_uavsim_next(tagk_uavsim *s, tagk_uavsim_sample *o)
{
	if (s->k >= s->steps)
		return TAGK_EINVAL;
	tagk_rng *g = &s->rng;
	const tagk_uavsim_config *c = &s->c;
	tagk_real t = (tagk_real)s->k * c->dt, a[3], vd[3];
	memset(o, 0, sizeof(*o));
	o->t = t;
	o->m = tagk_uavsim_mass(s, t);
	o->x = s->x;
	o->x.m = o->m;
	tagk_uavsim_reference(s, t, o->ref, vd, a);
	tagk_real dth[3], lth[3];
	tagk_uav_meas yw; /* what the controller sees: white noise */
	for (int i = 0; i < 3; i++) {
		tagk_real wa = c->sd_att * tagk_rng_gaussian(g), wr = c->sd_pos * tagk_rng_gaussian(g);
		tagk_real wv = c->sd_vel * tagk_rng_gaussian(g);
		dth[i] = wa;
		yw.r[i] = s->x.r[i] + wr;
		yw.v[i] = s->x.v[i] + wv;
		lth[i] = coloured(c->state_ar1, &s->ar_att[i], wa);
		o->y.r[i] = s->x.r[i] + coloured(c->state_ar1, &s->ar_pos[i], wr);
		o->y.v[i] = s->x.v[i] + coloured(c->state_ar1, &s->ar_vel[i], wv);
	}
	memcpy(yw.q, s->x.q, sizeof(yw.q));
	tagk_qplus(yw.q, dth);
	memcpy(o->y.q, s->x.q, sizeof(o->y.q));
	tagk_qplus(o->y.q, lth);
	tagk_uav_input cmd;
	control(s, t, &yw, &cmd);
	tagk_real T = cmd.thrust * (1 + c->sd_thrust * tagk_rng_gaussian(g));
	if (T < 0)
		T = 0;
	if (c->thrust_tau > 0) {
		/* backward Euler of T' = (T_cmd - T) / tau, held over the period */
		s->thrust = s->k == 0 ? T : s->thrust + c->dt / (c->thrust_tau + c->dt) * (T - s->thrust);
		T = s->thrust;
	}
	if (c->thrust_max > 0 && T > c->thrust_max * c->m_nom * TAGK_UAV_G)
		T = c->thrust_max * c->m_nom * TAGK_UAV_G;
	o->u.thrust = cmd.thrust;
	for (int i = 0; i < 3; i++) {
		o->u.w[i] = cmd.w[i] + coloured(c->noise_ar1, &s->ar_gyro[i], c->sd_gyro * tagk_rng_gaussian(g));
		o->acc[i] = (i == 2 ? T / o->m : 0) + coloured(c->noise_ar1, &s->ar_acc[i], c->sd_acc * tagk_rng_gaussian(g));
	}
	/* advance the truth: RK4 on (r, v), exact attitude */
	tagk_real rv[6], k1[6], k2[6], k3[6], k4[6], tmp[6], h = c->dt / 4;
	memcpy(rv, s->x.r, 3 * sizeof(tagk_real));
	memcpy(rv + 3, s->x.v, 3 * sizeof(tagk_real));
	for (int st = 0; st < 4; st++) {
		tagk_real tau = h * (tagk_real)st;
		deriv(s, t, s->x.q, cmd.w, T, tau, rv, k1);
		for (int i = 0; i < 6; i++)
			tmp[i] = rv[i] + h / 2 * k1[i];
		deriv(s, t, s->x.q, cmd.w, T, tau + h / 2, tmp, k2);
		for (int i = 0; i < 6; i++)
			tmp[i] = rv[i] + h / 2 * k2[i];
		deriv(s, t, s->x.q, cmd.w, T, tau + h / 2, tmp, k3);
		for (int i = 0; i < 6; i++)
			tmp[i] = rv[i] + h * k3[i];
		deriv(s, t, s->x.q, cmd.w, T, tau + h, tmp, k4);
		for (int i = 0; i < 6; i++)
			rv[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
	}
	memcpy(s->x.r, rv, 3 * sizeof(tagk_real));
	memcpy(s->x.v, rv + 3, 3 * sizeof(tagk_real));
	tagk_real wd[3] = { cmd.w[0] * c->dt, cmd.w[1] * c->dt, cmd.w[2] * c->dt };
	tagk_qplus(s->x.q, wd);
	s->k++;
	tagk_real pr[3], vr[3];
	tagk_uavsim_reference(s, t + c->dt, pr, vr, a);
	for (int i = 0; i < 6; i++)
		if (!tagk_isfinite(rv[i]))
			return TAGK_EDIVERGED;
	tagk_real d2 = 0;
	for (int i = 0; i < 3; i++)
		d2 += (rv[i] - pr[i]) * (rv[i] - pr[i]);
	return d2 > 100 ? TAGK_EDIVERGED : TAGK_OK;
}
