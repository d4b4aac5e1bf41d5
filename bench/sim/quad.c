/* quad.c: quadrotor dynamics and LQR; see quad.h. */
#include <string.h>
#include "quad.h"
#include "../../lib/linalg.h"
#include "../../lib/so3.h"

static const tagk_real G0 = (tagk_real)TAGK_G0;

void
tagk_quad_defaults(tagk_quad_config *c)
{
	c->d = (tagk_real)(0.046 / 1.4142135623730951);
	c->kappa = (tagk_real)0.006;
	c->umax = (tagk_real)0.25;
	c->dt = (tagk_real)0.02;
	c->authors_dynamics = 0;
}

/* rotor i: position signs and spin; 0 front-right, 1 back-right, 2 back-left, 3 front-left */
static const int sx[4] = { 1, -1, -1, 1 }, sy[4] = { -1, -1, 1, 1 }, spin[4] = { -1, 1, -1, 1 };

void
tagk_quad_wrench(const tagk_quad_config *c, const tagk_real u[4], tagk_real f[3], tagk_real tau[3])
{
	f[0] = f[1] = 0;
	f[2] = u[0] + u[1] + u[2] + u[3];
	tau[0] = tau[1] = tau[2] = 0;
	for (int i = 0; i < 4; i++) {
		/* (x, y, 0) x (0, 0, T) = (y T, -x T, 0) */
		tau[0] += (tagk_real)sy[i] * c->d * u[i];
		tau[1] -= (tagk_real)sx[i] * c->d * u[i];
		tau[2] += (tagk_real)spin[i] * c->kappa * u[i];
	}
}

tagk_status
tagk_quad_accel(const tagk_real th[TAGK_NPARAM], const tagk_real f[3], const tagk_real tau[3],
    const tagk_real w[3], tagk_real a[3], tagk_real alpha[3])
{
	tagk_real I[9], mc[3] = { th[TAGK_P_MCX], th[TAGK_P_MCY], th[TAGK_P_MCZ] }, M[36], r[6];
	tagk_theta_inertia(th, I);
	tagk_real S[9] = { 0, -mc[2], mc[1], mc[2], 0, -mc[0], -mc[1], mc[0], 0 };
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++) {
			M[i * 6 + j] = i == j ? th[TAGK_P_M] : 0;
			M[i * 6 + 3 + j] = -S[i * 3 + j];
			M[(3 + i) * 6 + j] = S[i * 3 + j];
			M[(3 + i) * 6 + 3 + j] = I[i * 3 + j];
		}
	tagk_real t1[3], t2[3], Iw[3];
	tagk_cross(w, mc, t1);
	tagk_cross(w, t1, t2);
	for (int i = 0; i < 3; i++)
		Iw[i] = I[i * 3] * w[0] + I[i * 3 + 1] * w[1] + I[i * 3 + 2] * w[2];
	tagk_cross(w, Iw, t1);
	for (int i = 0; i < 3; i++) {
		r[i] = f[i] - t2[i];
		r[3 + i] = tau[i] - t1[i];
	}
	tagk_status st = tagk_cholesky(6, M);
	if (st != TAGK_OK)
		return st;
	tagk_cholesky_solve(6, 1, M, r);
	for (int i = 0; i < 3; i++) {
		a[i] = r[i];
		alpha[i] = r[3 + i];
	}
	return TAGK_OK;
}

/* The authors' _dynamics_param (online_estimators/dynamics/quadrotor.py):
 * a = g + R f / m (world); alpha = J^-1 (tau - w x J w - mc x a), with the
 * world-frame a crossed with the body-frame mc; then c x alpha + w x (c x w)
 * (body) added to a (world). Near hover a is near zero, so an offset
 * centre of mass exerts almost no torque: gravity's moment about O is lost. */
static tagk_status
authors_accel(const tagk_real th[TAGK_NPARAM], const tagk_real q[4], const tagk_real f[3],
    const tagk_real tau[3], const tagk_real w[3], tagk_real va[3], tagk_real al[3])
{
	tagk_real J[9], mc[3] = { th[TAGK_P_MCX], th[TAGK_P_MCY], th[TAGK_P_MCZ] }, r[3], fw[3], Jw[3], t1[3], t2[3];
	tagk_theta_inertia(th, J);
	tagk_real m = th[TAGK_P_M];
	tagk_qrotate(q, f, fw);
	for (int i = 0; i < 3; i++) {
		va[i] = fw[i] / m - (i == 2 ? G0 : 0);
		r[i] = mc[i] / m;
		Jw[i] = J[i * 3] * w[0] + J[i * 3 + 1] * w[1] + J[i * 3 + 2] * w[2];
	}
	tagk_cross(w, Jw, t1);
	tagk_cross(mc, va, t2);
	for (int i = 0; i < 3; i++)
		al[i] = tau[i] - t1[i] - t2[i];
	tagk_status st = tagk_cholesky(3, J);
	if (st != TAGK_OK)
		return st;
	tagk_cholesky_solve(3, 1, J, al);
	tagk_cross(r, al, t1);
	tagk_cross(r, w, t2);
	tagk_cross(w, t2, r);
	for (int i = 0; i < 3; i++)
		va[i] += t1[i] + r[i];
	return TAGK_OK;
}

/* derivative of the 13 state numbers */
static tagk_status
deriv(const tagk_quad_config *c, const tagk_real th[TAGK_NPARAM], const tagk_real *s,
    const tagk_real u[4], tagk_real *ds)
{
	tagk_real f[3], tau[3], a[3], al[3], va[3];
	tagk_quad_wrench(c, u, f, tau);
	tagk_status st;
	if (c->authors_dynamics) {
		st = authors_accel(th, s + 6, f, tau, s + 10, va, al);
		if (st != TAGK_OK)
			return st;
	} else {
		st = tagk_quad_accel(th, f, tau, s + 10, a, al);
		if (st != TAGK_OK)
			return st;
		tagk_qrotate(s + 6, a, va);
		va[2] -= G0;
	}
	for (int i = 0; i < 3; i++) {
		ds[i] = s[3 + i];
		ds[3 + i] = va[i];
		ds[10 + i] = al[i];
	}
	const tagk_real *q = s + 6, *w = s + 10;
	ds[6] = (-q[1] * w[0] - q[2] * w[1] - q[3] * w[2]) / 2;
	ds[7] = (q[0] * w[0] + q[2] * w[2] - q[3] * w[1]) / 2;
	ds[8] = (q[0] * w[1] - q[1] * w[2] + q[3] * w[0]) / 2;
	ds[9] = (q[0] * w[2] + q[1] * w[1] - q[2] * w[0]) / 2;
	return TAGK_OK;
}

tagk_status
tagk_quad_step(const tagk_quad_config *c, const tagk_real th[TAGK_NPARAM], tagk_quad_state *x,
    const tagk_real uin[4])
{
	tagk_real u[4], s[13], k[4][13], t[13];
	for (int i = 0; i < 4; i++)
		u[i] = uin[i] < 0 ? 0 : uin[i] > c->umax ? c->umax : uin[i];
	memcpy(s, x->p, 3 * sizeof(tagk_real));
	memcpy(s + 3, x->v, 3 * sizeof(tagk_real));
	memcpy(s + 6, x->q, 4 * sizeof(tagk_real));
	memcpy(s + 10, x->w, 3 * sizeof(tagk_real));
	const tagk_real h = c->dt, cs[4] = { 0, h / 2, h / 2, h };
	for (int j = 0; j < 4; j++) {
		for (int i = 0; i < 13; i++)
			t[i] = s[i] + (j ? cs[j] * k[j - 1][i] : 0);
		tagk_status st = deriv(c, th, t, u, k[j]);
		if (st != TAGK_OK)
			return st;
	}
	for (int i = 0; i < 13; i++)
		s[i] += h / 6 * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]);
	tagk_real n = tagk_sqrt(s[6] * s[6] + s[7] * s[7] + s[8] * s[8] + s[9] * s[9]);
	for (int i = 6; i < 10; i++)
		s[i] /= n;
	if (!tagk_all_finite(13, s))
		return TAGK_EDIVERGED;
	memcpy(x->p, s, 3 * sizeof(tagk_real));
	memcpy(x->v, s + 3, 3 * sizeof(tagk_real));
	memcpy(x->q, s + 6, 4 * sizeof(tagk_real));
	memcpy(x->w, s + 10, 3 * sizeof(tagk_real));
	return TAGK_OK;
}

void
tagk_quad_hover(const tagk_quad_config *c, const tagk_real th[TAGK_NPARAM], tagk_real u[4])
{
	/* total m g; torque mc x (0, 0, g) = g (mcy, -mcx, 0); no yaw torque.
	 * Mixer rows: sum u; d sum sy u; -d sum sx u; kappa sum spin u. */
	tagk_real want[4] = { th[TAGK_P_M] * G0, G0 * th[TAGK_P_MCY], -G0 * th[TAGK_P_MCX], 0 };
	tagk_real Mx[16];
	for (int i = 0; i < 4; i++) {
		Mx[0 * 4 + i] = 1;
		Mx[1 * 4 + i] = (tagk_real)sy[i] * c->d;
		Mx[2 * 4 + i] = -(tagk_real)sx[i] * c->d;
		Mx[3 * 4 + i] = (tagk_real)spin[i] * c->kappa;
	}
	/* the X mixer's rows are orthogonal: u = M^T diag(1 / |row|^2) want */
	for (int i = 0; i < 4; i++) {
		u[i] = 0;
		for (int r = 0; r < 4; r++) {
			tagk_real nn = 0;
			for (int j = 0; j < 4; j++)
				nn += Mx[r * 4 + j] * Mx[r * 4 + j];
			u[i] += Mx[r * 4 + i] * want[r] / nn;
		}
	}
}

/* error state e (12) to a full state about hover at the origin */
static void
from_error(const tagk_real e[12], tagk_quad_state *x)
{
	for (int i = 0; i < 3; i++) {
		x->p[i] = e[i];
		x->v[i] = e[3 + i];
		x->w[i] = e[9 + i];
	}
	tagk_real a = tagk_sqrt(e[6] * e[6] + e[7] * e[7] + e[8] * e[8]);
	/* sin(a / 2) / a, with sin written through cos (lib/ uses only sqrt,
	 * log and cos from libm) */
	tagk_real sa = a > 0 ? tagk_cos(a / 2 - (tagk_real)1.5707963267948966) / a : (tagk_real)0.5;
	x->q[0] = tagk_cos(a / 2);
	x->q[1] = sa * e[6];
	x->q[2] = sa * e[7];
	x->q[3] = sa * e[8];
}

static void
to_error(const tagk_quad_state *x, tagk_real e[12])
{
	tagk_real s = x->q[0] < 0 ? -2 : 2; /* small-angle rotation vector */
	for (int i = 0; i < 3; i++) {
		e[i] = x->p[i];
		e[3 + i] = x->v[i];
		e[6 + i] = s * x->q[1 + i];
		e[9 + i] = x->w[i];
	}
}

/* one step of the error state from hover for theta, with thrusts u */
static tagk_status
step_error(const tagk_quad_config *c, const tagk_real th[TAGK_NPARAM], const tagk_real e[12],
    const tagk_real u[4], tagk_real out[12])
{
	tagk_quad_state x;
	from_error(e, &x);
	tagk_quad_config cu = *c;
	cu.umax = (tagk_real)1e30; /* linearize without the limits */
	tagk_status st = tagk_quad_step(&cu, th, &x, u);
	if (st == TAGK_OK)
		to_error(&x, out);
	return st;
}

tagk_status
tagk_lqr_design(tagk_lqr *l, const tagk_quad_config *c, const tagk_real th[TAGK_NPARAM],
    const tagk_real Q[12], const tagk_real R[4])
{
	tagk_real A[144], B[48], u0[4], e[12], ep[12], em[12], up[4];
	const tagk_real h = tagk_sqrt(TAGK_EPS) * 8;
	tagk_quad_hover(c, th, u0);
	for (int j = 0; j < 16; j++) {
		memset(e, 0, sizeof(e));
		memcpy(up, u0, sizeof(up));
		tagk_real um[4];
		memcpy(um, u0, sizeof(um));
		if (j < 12)
			e[j] = h;
		else
			up[j - 12] += h, um[j - 12] -= h;
		if (step_error(c, th, e, up, ep) != TAGK_OK)
			return TAGK_ENOTPD;
		if (j < 12)
			e[j] = -h;
		if (step_error(c, th, e, j < 12 ? u0 : um, em) != TAGK_OK)
			return TAGK_ENOTPD;
		for (int i = 0; i < 12; i++) {
			tagk_real d = (ep[i] - em[i]) / (2 * h);
			if (j < 12)
				A[i * 12 + j] = d;
			else
				B[i * 4 + (j - 12)] = d;
		}
	}
	/* Riccati iteration: P = Q + A'PA - A'PB (R + B'PB)^-1 B'PA, from the
	 * previous solution when there is one (the model changes little
	 * between designs, so it converges in a few steps). */
	tagk_real P[144], Pn[144], PA[144], PB[48], S[16], K[48], W[144];
	if (l->have_p) {
		memcpy(P, l->P, sizeof(P));
	} else {
		memset(P, 0, sizeof(P));
		for (int i = 0; i < 12; i++)
			P[i * 12 + i] = Q[i];
	}
	int it;
	for (it = 0; it < 3000; it++) {
		tagk_matmul(12, 12, 12, P, A, PA);
		tagk_matmul(12, 12, 4, P, B, PB);
		for (int i = 0; i < 4; i++)
			for (int j = 0; j < 4; j++) {
				tagk_real v = i == j ? R[i] : 0;
				for (int k = 0; k < 12; k++)
					v += B[k * 4 + i] * PB[k * 4 + j];
				S[i * 4 + j] = v;
			}
		for (int i = 0; i < 4; i++)
			for (int j = 0; j < 12; j++) {
				tagk_real v = 0;
				for (int k = 0; k < 12; k++)
					v += B[k * 4 + i] * PA[k * 12 + j];
				K[i * 12 + j] = v;
			}
		if (tagk_cholesky(4, S) != TAGK_OK)
			return TAGK_EDIVERGED;
		tagk_cholesky_solve(4, 12, S, K);          /* K = (R + B'PB)^-1 B'PA */
		tagk_matmul(12, 4, 12, PB, K, W);          /* P B K */
		for (int i = 0; i < 12; i++)
			for (int j = 0; j < 12; j++) {
				tagk_real v = i == j ? Q[i] : 0;
				for (int k = 0; k < 12; k++)
					v += A[k * 12 + i] * (PA[k * 12 + j] - W[k * 12 + j]);
				Pn[i * 12 + j] = v;
			}
		tagk_real diff = 0, big = 0;
		for (int i = 0; i < 12; i++)
			for (int j = i; j < 12; j++) {
				tagk_real v = (Pn[i * 12 + j] + Pn[j * 12 + i]) / 2;
				Pn[i * 12 + j] = Pn[j * 12 + i] = v;
				tagk_real d = tagk_fabs(v - P[i * 12 + j]);
				diff = d > diff ? d : diff;
				big = tagk_fabs(v) > big ? tagk_fabs(v) : big;
			}
		memcpy(P, Pn, sizeof(P));
		if (!tagk_all_finite(144, P))
			return TAGK_EDIVERGED;
		/* converged to what the scalar type resolves: 1e-9 in double,
		 * about 1e-5 in float */
		if (diff <= big * ((tagk_real)1e-9 > 100 * TAGK_EPS ? (tagk_real)1e-9 : 100 * TAGK_EPS))
			break;
	}
	if (it == 3000)
		return TAGK_EDIVERGED;
	memcpy(l->K, K, sizeof(K));
	memcpy(l->P, P, sizeof(P));
	memcpy(l->u0, u0, sizeof(u0));
	l->have_p = 1;
	return TAGK_OK;
}

void
tagk_lqr_control(const tagk_lqr *l, const tagk_quad_config *c, const tagk_quad_state *x,
    const tagk_real pr[3], const tagk_real vr[3], tagk_real u[4])
{
	(void)c;
	tagk_real e[12];
	to_error(x, e);
	for (int i = 0; i < 3; i++) {
		e[i] -= pr[i];
		e[3 + i] -= vr[i];
	}
	for (int i = 0; i < 4; i++) {
		tagk_real v = l->u0[i];
		for (int j = 0; j < 12; j++)
			v -= l->K[i * 12 + j] * e[j];
		u[i] = v;
	}
}
