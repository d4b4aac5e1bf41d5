/* test_multibody.c: the multi-body module (lib/multibody.c) on random trees
 * (2 to 9 bodies, revolute and prismatic joints, fixed and floating bases,
 * random physical inertias and states), against independent computations:
 * the regressor against recursive Newton-Euler with spatial inertias and
 * against the composite-rigid-body M qdd plus the bias; M against
 * sum J_i^T I_i J_i with I_i written here from the definition; the
 * velocities against J qd; the power identity d(T + V)/dt = qd^T tau by
 * central differences along an exact trajectory; the momentum regressor
 * against the momentum from the inertias and T = qd^T M qd / 2; and the
 * world momentum of a free system without gravity, driven by joint
 * torques, constant along an RK4 simulation; and the poses, velocities
 * and accelerations, coordinate axes included, against quaternion forward
 * kinematics and central differences. */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include "bodies.h"

enum { NBMAX = TAGK_MB_MAX_BODIES, NVMAX = TAGK_MB_MAX_DOF };

static void
random_model(tagk_rng *g, int nb, int floating, tagk_mb_model *m)
{
	memset(m, 0, sizeof(*m));
	m->nb = nb;
	m->floating = floating;
	m->parent[0] = -1;
	random_rotation(g, m->rot[0]);
	fill_gauss(g, 3, m->pos[0]);
	m->gravity[2] = floating ? 0 : (tagk_real)-9.81;
	if (floating)
		fill_gauss(g, 3, m->gravity); /* a uniform field is fine for the identities */
	for (int i = 1; i < nb; i++) {
		m->parent[i] = (int)(tagk_rng_uniform(g) * (tagk_real)i);
		if (m->parent[i] >= i)
			m->parent[i] = i - 1;
		m->joint[i] = tagk_rng_uniform(g) < (tagk_real)0.75 ? TAGK_JOINT_REVOLUTE : TAGK_JOINT_PRISMATIC;
		random_rotation(g, m->rot[i]);
		fill_gauss(g, 3, m->pos[i]);
		for (int j = 0; j < 3; j++)
			m->pos[i][j] *= (tagk_real)0.3;
		tagk_real u[3];
		fill_gauss(g, 3, u);
		tagk_real s = tagk_sqrt(tagk_dot(3, u, u));
		for (int j = 0; j < 3; j++)
			m->axis[i][j] = u[j] / s;
	}
}

/* The spatial inertia from its definition: the momentum of the body about
 * its frame's origin is [I_O w + mc x v; m v + w x mc]. */
static void
inertia6(const tagk_real *th, double I6[36])
{
	double m = th[0], h[3] = { th[1], th[2], th[3] };
	double I[9] = { th[4], th[5], th[7], th[5], th[6], th[8], th[7], th[8], th[9] };
	for (int c = 0; c < 6; c++) {
		double v[6] = { 0 }, out[6];
		v[c] = 1;
		const double *w = v, *vl = v + 3;
		for (int i = 0; i < 3; i++)
			out[i] = I[i * 3] * w[0] + I[i * 3 + 1] * w[1] + I[i * 3 + 2] * w[2];
		out[0] += h[1] * vl[2] - h[2] * vl[1];
		out[1] += h[2] * vl[0] - h[0] * vl[2];
		out[2] += h[0] * vl[1] - h[1] * vl[0];
		out[3] = m * vl[0] + w[1] * h[2] - w[2] * h[1];
		out[4] = m * vl[1] + w[2] * h[0] - w[0] * h[2];
		out[5] = m * vl[2] + w[0] * h[1] - w[1] * h[0];
		for (int r = 0; r < 6; r++)
			I6[r * 6 + c] = out[r];
	}
}

typedef struct {
	tagk_mb_model m;
	int nv;
	tagk_real theta[10 * NBMAX];
	tagk_real R[9], p[3], q[NBMAX], qd[NVMAX], qdd[NVMAX];
} problem;

static void
random_problem(tagk_rng *g, int k, problem *P)
{
	int nb = 2 + k % 8, floating = k % 2;
	random_model(g, nb, floating, &P->m);
	assert_int_equal(tagk_mb_check(&P->m), TAGK_OK);
	P->nv = tagk_mb_dof(&P->m);
	assert_int_equal(P->nv, (floating ? 6 : 0) + nb - 1);
	for (int i = 0; i < nb; i++)
		random_valid_body(g, P->theta + 10 * i);
	random_rotation(g, P->R);
	fill_gauss(g, 3, P->p);
	fill_gauss(g, nb - 1, P->q);
	fill_gauss(g, P->nv, P->qd);
	fill_gauss(g, P->nv, P->qdd);
}

static double
rel(int n, const double *x, const double *y)
{
	double num = 0, den = 0;
	for (int i = 0; i < n; i++) {
		num += (x[i] - y[i]) * (x[i] - y[i]);
		den += y[i] * y[i];
	}
	return sqrt(num / (den > 0 ? den : 1));
}

static void
test_regressor_and_mass_matrix(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 3);
	double worst[5] = { 0 };
	for (int k = 0; k < 200; k++) {
		problem P;
		random_problem(&g, k, &P);
		const int nv = P.nv, nb = P.m.nb, cols = 10 * nb;
		tagk_mb_kin kin, kin0;
		assert_int_equal(tagk_mb_kinematics(&P.m, P.R, P.p, P.q, P.qd, P.qdd, &kin), TAGK_OK);
		assert_int_equal(tagk_mb_kinematics(&P.m, P.R, P.p, P.q, P.qd, NULL, &kin0), TAGK_OK);
		static tagk_real Y[NVMAX * 10 * NBMAX];
		tagk_real tau[NVMAX], bias[NVMAX], M[NVMAX * NVMAX];
		tagk_mb_regressor(&kin, &P.m, Y);
		tagk_mb_inverse_dynamics(&kin, &P.m, P.theta, tau);
		tagk_mb_inverse_dynamics(&kin0, &P.m, P.theta, bias);
		tagk_mb_mass_matrix(&kin, &P.m, P.theta, M);
		double yth[NVMAX], tid[NVMAX], mqh[NVMAX];
		for (int r = 0; r < nv; r++) {
			yth[r] = 0;
			for (int c = 0; c < cols; c++)
				yth[r] += (double)Y[r * cols + c] * (double)P.theta[c];
			tid[r] = (double)tau[r];
			mqh[r] = (double)bias[r];
			for (int c = 0; c < nv; c++)
				mqh[r] += (double)M[r * nv + c] * (double)P.qdd[c];
		}
		double e0 = rel(nv, yth, tid), e1 = rel(nv, mqh, tid);
		/* M = sum J^T I J, and v_i = J_i qd */
		double Ms[NVMAX * NVMAX] = { 0 }, ev = 0;
		for (int i = 0; i < nb; i++) {
			tagk_real J[6 * NVMAX];
			tagk_mb_jacobian(&kin, &P.m, i, J);
			double I6[36], vi[6];
			inertia6(P.theta + 10 * i, I6);
			for (int r = 0; r < 6; r++) {
				vi[r] = 0;
				for (int c = 0; c < nv; c++)
					vi[r] += (double)J[r * nv + c] * (double)P.qd[c];
			}
			double kv[6];
			for (int r = 0; r < 6; r++)
				kv[r] = (double)kin.v[i][r];
			double e = rel(6, vi, kv);
			ev = e > ev ? e : ev;
			for (int a = 0; a < nv; a++)
				for (int b = 0; b < nv; b++) {
					double s = 0;
					for (int r = 0; r < 6; r++)
						for (int c = 0; c < 6; c++)
							s += (double)J[r * nv + a] * I6[r * 6 + c] * (double)J[c * nv + b];
					Ms[a * nv + b] += s;
				}
		}
		double Md[NVMAX * NVMAX];
		for (int a = 0; a < nv * nv; a++)
			Md[a] = (double)M[a];
		double e2 = rel(nv * nv, Md, Ms);
		/* momentum regressor against the inertias; T = qd^T M qd / 2 */
		static tagk_real Yh[6 * 10 * NBMAX];
		tagk_real h[6];
		tagk_mb_momentum_regressor(&kin, Yh);
		tagk_mb_momentum(&kin, P.theta, h);
		double yh[6], hd[6];
		for (int r = 0; r < 6; r++) {
			yh[r] = 0;
			for (int c = 0; c < cols; c++)
				yh[r] += (double)Yh[r * cols + c] * (double)P.theta[c];
			hd[r] = (double)h[r];
		}
		double e3 = rel(6, yh, hd), T = 0;
		for (int a = 0; a < nv; a++)
			for (int b = 0; b < nv; b++)
				T += (double)P.qd[a] * Md[a * nv + b] * (double)P.qd[b] / 2;
		double Tk = (double)tagk_mb_kinetic_energy(&kin, P.theta);
		double e4 = fabs(T - Tk) / Tk;
		double e[5] = { e0, e1, e2 > ev ? e2 : ev, e3, e4 };
		for (int j = 0; j < 5; j++)
			worst[j] = e[j] > worst[j] ? e[j] : worst[j];
	}
	print_message("200 random trees, worst relative error: Y theta vs RNEA %.2g, M qdd + h vs RNEA %.2g, "
	    "M vs sum J^T I J (and v vs J qd) %.2g, momentum regressor %.2g, kinetic energy %.2g\n",
	    worst[0], worst[1], worst[2], worst[3], worst[4]);
	for (int j = 0; j < 5; j++)
		if (!(worst[j] < (TOL_EXACT > 1e-8 ? 1e-3 : 1e-10)))
			fail_msg("identity %d fails: %g", j, worst[j]);
}

/* T + V along an exact trajectory: q(t) = q + qd t + qdd t^2 / 2, the
 * floating base's pose integrated from its body velocity by RK4. */
static double
energy_at(const problem *P, double t)
{
	problem Q = *P;
	const int nv = P->nv, nb = P->m.nb, off = P->m.floating ? 6 : 0;
	for (int i = 0; i < nb - 1; i++)
		Q.q[i] = (tagk_real)(P->q[i] + P->qd[off + i] * t + P->qdd[off + i] * t * t / 2);
	for (int i = 0; i < nv; i++)
		Q.qd[i] = (tagk_real)(P->qd[i] + P->qdd[i] * t);
	if (P->m.floating) {
		/* R' = R S(w), p' = R v with [w; v] = nu + nu' s */
		double R[9], p[3];
		for (int i = 0; i < 9; i++)
			R[i] = P->R[i];
		for (int i = 0; i < 3; i++)
			p[i] = P->p[i];
		int steps = 64;
		double hs = t / steps;
		for (int s = 0; s < steps; s++) {
			double kR[4][9], kp[4][3], Rs[9];
			for (int st = 0; st < 4; st++) {
				double c = st == 0 ? 0 : st == 3 ? 1 : 0.5, ts = (s + c) * hs;
				for (int i = 0; i < 9; i++)
					Rs[i] = R[i] + (st ? c * hs * kR[st - 1][i] : 0);
				double w[3], v[3];
				for (int i = 0; i < 3; i++) {
					w[i] = P->qd[i] + P->qdd[i] * ts;
					v[i] = P->qd[3 + i] + P->qdd[3 + i] * ts;
				}
				double Sw[9] = { 0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0 };
				for (int a = 0; a < 3; a++) {
					for (int b = 0; b < 3; b++)
						kR[st][a * 3 + b] = Rs[a * 3] * Sw[b] + Rs[a * 3 + 1] * Sw[3 + b] + Rs[a * 3 + 2] * Sw[6 + b];
					kp[st][a] = Rs[a * 3] * v[0] + Rs[a * 3 + 1] * v[1] + Rs[a * 3 + 2] * v[2];
				}
			}
			for (int i = 0; i < 9; i++)
				R[i] += hs * (kR[0][i] + 2 * kR[1][i] + 2 * kR[2][i] + kR[3][i]) / 6;
			for (int i = 0; i < 3; i++)
				p[i] += hs * (kp[0][i] + 2 * kp[1][i] + 2 * kp[2][i] + kp[3][i]) / 6;
		}
		for (int i = 0; i < 9; i++)
			Q.R[i] = (tagk_real)R[i];
		for (int i = 0; i < 3; i++)
			Q.p[i] = (tagk_real)p[i];
	}
	tagk_mb_kin kin;
	assert_int_equal(tagk_mb_kinematics(&Q.m, Q.R, Q.p, Q.q, Q.qd, NULL, &kin), TAGK_OK);
	double E = (double)tagk_mb_kinetic_energy(&kin, P->theta);
	for (int i = 0; i < nb; i++) {
		/* V = -m g . (p + R c) = -g . (m p + R mc) */
		const tagk_real *th = P->theta + 10 * i;
		for (int a = 0; a < 3; a++) {
			double x = th[0] * kin.p[i][a];
			for (int b = 0; b < 3; b++)
				x += kin.R[i][a * 3 + b] * th[1 + b];
			E -= P->m.gravity[a] * x;
		}
	}
	return E;
}

static void
test_power_identity(void **state)
{
	(void)state;
#ifdef TAGK_FLOAT
	skip(); /* central differences need double precision */
#endif
	tagk_rng g;
	tagk_rng_seed(&g, 12);
	double worst = 0;
	for (int k = 0; k < 60; k++) {
		problem P;
		random_problem(&g, k, &P);
		tagk_mb_kin kin;
		assert_int_equal(tagk_mb_kinematics(&P.m, P.R, P.p, P.q, P.qd, P.qdd, &kin), TAGK_OK);
		tagk_real tau[NVMAX];
		tagk_mb_inverse_dynamics(&kin, &P.m, P.theta, tau);
		double power = 0, scale = 0;
		for (int i = 0; i < P.nv; i++) {
			power += (double)P.qd[i] * (double)tau[i];
			scale += fabs((double)P.qd[i] * (double)tau[i]);
		}
		const double h = 1e-4;
		double dE = (energy_at(&P, h) - energy_at(&P, -h)) / (2 * h);
		double e = fabs(dE - power) / scale;
		worst = e > worst ? e : worst;
	}
	print_message("power identity d(T + V)/dt = qd^T tau: worst relative error %.2g\n", worst);
	if (!(worst < 1e-6))
		fail_msg("power identity fails: %g", worst);
}

/* State derivative of a free system: base pose, joint q, and qd' = M^-1 (tau - h). */
static void
deriv(const problem *P, const double *x, const double *tauj, double *dx)
{
	const int nv = P->nv, nj = P->m.nb - 1;
	problem Q = *P;
	for (int i = 0; i < 9; i++)
		Q.R[i] = (tagk_real)x[i];
	for (int i = 0; i < 3; i++)
		Q.p[i] = (tagk_real)x[9 + i];
	for (int i = 0; i < nj; i++)
		Q.q[i] = (tagk_real)x[12 + i];
	for (int i = 0; i < nv; i++)
		Q.qd[i] = (tagk_real)x[12 + nj + i];
	tagk_mb_kin kin;
	assert_int_equal(tagk_mb_kinematics(&Q.m, Q.R, Q.p, Q.q, Q.qd, NULL, &kin), TAGK_OK);
	tagk_real bias[NVMAX], M[NVMAX * NVMAX];
	tagk_mb_inverse_dynamics(&kin, &Q.m, P->theta, bias);
	tagk_mb_mass_matrix(&kin, &Q.m, P->theta, M);
	long double S[NVMAX * NVMAX], v[NVMAX];
	for (int i = 0; i < nv * nv; i++)
		S[i] = M[i];
	for (int i = 0; i < nv; i++)
		v[i] = (i >= 6 ? tauj[i - 6] : 0) - (long double)bias[i];
	gauss_solve(nv, S, v);
	const double *w = x + 12 + nj, *vl = w + 3;
	double Sw[9] = { 0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0 };
	for (int a = 0; a < 3; a++) {
		for (int b = 0; b < 3; b++)
			dx[a * 3 + b] = x[a * 3] * Sw[b] + x[a * 3 + 1] * Sw[3 + b] + x[a * 3 + 2] * Sw[6 + b];
		dx[9 + a] = x[a * 3] * vl[0] + x[a * 3 + 1] * vl[1] + x[a * 3 + 2] * vl[2];
	}
	for (int i = 0; i < nj; i++)
		dx[12 + i] = x[12 + nj + 6 + i];
	for (int i = 0; i < nv; i++)
		dx[12 + nj + i] = (double)v[i];
}

static void
test_free_momentum_conserved(void **state)
{
	(void)state;
#ifdef TAGK_FLOAT
	skip(); /* a 1e-10 invariant needs double precision */
#endif
	tagk_rng g;
	tagk_rng_seed(&g, 21);
	double worst = 0;
	for (int k = 0; k < 6; k++) {
		problem P;
		random_problem(&g, 2 * k + 1 + 2 * (k % 3), &P); /* odd: floating */
		memset(P.m.gravity, 0, sizeof(P.m.gravity));
		const int nv = P.nv, nj = P.m.nb - 1, nx = 12 + nj + nv;
		double x[12 + NBMAX + NVMAX], kx[4][12 + NBMAX + NVMAX], xs[12 + NBMAX + NVMAX], tauj[NBMAX];
		for (int i = 0; i < 9; i++)
			x[i] = P.R[i];
		for (int i = 0; i < 3; i++)
			x[9 + i] = P.p[i];
		for (int i = 0; i < nj; i++)
			x[12 + i] = P.q[i];
		for (int i = 0; i < nv; i++)
			x[12 + nj + i] = 0.3 * P.qd[i];
		double h0[6], worst_k = 0, scale = 0;
		const double dt = 2e-4;
		for (int s = 0; s <= 1000; s++) {
			problem Q = P;
			for (int i = 0; i < 9; i++)
				Q.R[i] = (tagk_real)x[i];
			for (int i = 0; i < 3; i++)
				Q.p[i] = (tagk_real)x[9 + i];
			for (int i = 0; i < nj; i++)
				Q.q[i] = (tagk_real)x[12 + i];
			for (int i = 0; i < nv; i++)
				Q.qd[i] = (tagk_real)x[12 + nj + i];
			tagk_mb_kin kin;
			assert_int_equal(tagk_mb_kinematics(&Q.m, Q.R, Q.p, Q.q, Q.qd, NULL, &kin), TAGK_OK);
			tagk_real h[6];
			tagk_mb_momentum(&kin, P.theta, h);
			if (s == 0) {
				for (int i = 0; i < 6; i++) {
					h0[i] = h[i];
					scale += h0[i] * h0[i];
				}
				scale = sqrt(scale);
			}
			for (int i = 0; i < 6; i++) {
				double e = fabs((double)h[i] - h0[i]) / scale;
				worst_k = e > worst_k ? e : worst_k;
			}
			if (s == 1000)
				break;
			for (int i = 0; i < nj; i++)
				tauj[i] = 2 * sin(3.0 * (i + 1) * s * dt + i);
			for (int st = 0; st < 4; st++) {
				double c = st == 0 ? 0 : st == 3 ? 1 : 0.5;
				for (int i = 0; i < nx; i++)
					xs[i] = x[i] + (st ? c * dt * kx[st - 1][i] : 0);
				deriv(&P, xs, tauj, kx[st]);
			}
			for (int i = 0; i < nx; i++)
				x[i] += dt * (kx[0][i] + 2 * kx[1][i] + 2 * kx[2][i] + kx[3][i]) / 6;
		}
		worst = worst_k > worst ? worst_k : worst;
	}
	print_message("free floating, no gravity, joint torques on: world momentum drifts by %.2g (relative) "
	    "over 1000 RK4 steps\n", worst);
	if (!(worst < 1e-10))
		fail_msg("momentum not conserved: %g", worst);
}

/* Rows of one body: A theta_u = b exactly when y = Y theta; bad models and
 * inputs are refused. */
static void
test_unknown_rows_and_faults(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 4);
	problem P;
	random_problem(&g, 6, &P);
	const int nv = P.nv, cols = 10 * P.m.nb;
	tagk_mb_kin kin;
	assert_int_equal(tagk_mb_kinematics(&P.m, P.R, P.p, P.q, P.qd, P.qdd, &kin), TAGK_OK);
	static tagk_real Y[NVMAX * 10 * NBMAX], A[NVMAX * 10];
	tagk_real tau[NVMAX], b[NVMAX];
	tagk_mb_regressor(&kin, &P.m, Y);
	tagk_mb_inverse_dynamics(&kin, &P.m, P.theta, tau);
	int u = P.m.nb - 1;
	tagk_real known[10 * NBMAX];
	memcpy(known, P.theta, sizeof(known));
	for (int i = 0; i < 10; i++)
		known[10 * u + i] = 0; /* body u itself is the unknown */
	tagk_mb_unknown_rows(nv, P.m.nb, Y, tau, u, known, A, b);
	double worst = 0, sc = 0;
	for (int r = 0; r < nv; r++) {
		double s = tagk_dot(10, A + 10 * r, P.theta + 10 * u) - (double)b[r];
		worst = fabs(s) > worst ? fabs(s) : worst;
		sc = fabs((double)tau[r]) > sc ? fabs((double)tau[r]) : sc;
	}
	assert_true(worst <= (TOL_EXACT > 1e-8 ? 1e-3 : 1e-11) * sc);
	(void)cols;
	tagk_mb_model bad = P.m;
	bad.parent[3] = 3;
	assert_int_equal(tagk_mb_check(&bad), TAGK_EINVAL);
	bad = P.m;
	bad.axis[2][0] *= 2;
	assert_int_equal(tagk_mb_check(&bad), TAGK_EINVAL);
	bad = P.m;
	bad.rot[1][0] = (tagk_real)NAN;
	assert_int_equal(tagk_mb_check(&bad), TAGK_ENONFINITE);
	bad = P.m;
	bad.nb = TAGK_MB_MAX_BODIES + 1;
	assert_int_equal(tagk_mb_dof(&bad), 0);
	P.qd[1] = (tagk_real)INFINITY;
	assert_int_equal(tagk_mb_kinematics(&P.m, P.R, P.p, P.q, P.qd, P.qdd, &kin), TAGK_ENONFINITE);
}


/* tagk_mb_force_rows (body u's columns and RNEA of the known bodies, O(nb))
 * against the whole regressor cut by tagk_mb_unknown_rows, for every body
 * of random trees with fixed and floating bases. */
static double
rel_real(int n, const tagk_real *x, const tagk_real *y)
{
	double num = 0, den = 0;
	for (int i = 0; i < n; i++) {
		num += ((double)x[i] - (double)y[i]) * ((double)x[i] - (double)y[i]);
		den += (double)y[i] * (double)y[i];
	}
	return sqrt(num / (den > 0 ? den : 1));
}

static void
test_force_rows_match_regressor(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 41);
	static tagk_real Y[NVMAX * 10 * NBMAX], Y2[NVMAX * 10 * NBMAX], A[NVMAX * 10], A2[NVMAX * 10];
	for (int k = 0; k < 16; k++) {
		problem P;
		random_problem(&g, k, &P);
		tagk_mb_kin kin;
		assert_int_equal(tagk_mb_kinematics(&P.m, P.R, P.p, P.q, P.qd, P.qdd, &kin), TAGK_OK);
		tagk_real tau[NVMAX], b[NVMAX], b2[NVMAX];
		fill_gauss(&g, P.nv, tau);
		tagk_mb_regressor(&kin, &P.m, Y);
		for (int u = 0; u < P.m.nb; u++) {
			tagk_mb_unknown_rows(P.nv, P.m.nb, Y, tau, u, P.theta, A, b);
			tagk_mb_force_rows(&kin, &P.m, tau, P.theta, u, Y2, A2, b2);
			assert_true(rel_real(10 * P.nv, A2, A) <= (TOL_EXACT > 1e-8 ? 1e-4 : 1e-12));
			assert_true(rel_real(P.nv, b2, b) <= (TOL_EXACT > 1e-8 ? 1e-4 : 1e-12));
		}
	}
}

/* The grasp simulator (bench/sim/grasp.c) on a random 7-joint chain, noise and
 * robot error off, under both motions: in orbit the world momentum stays 0
 * (the base moves by momentum conservation) and the momentum rows hold
 * exactly for the true cube; on the ground and in orbit the force rows do
 * too (for the task-space motion, whose accelerations are differentiated
 * numerically, to that differentiation's error). */
static void
test_grasp_rows_exact(void **state)
{
	(void)state;
#ifdef TAGK_FLOAT
	skip();
#endif
	tagk_rng g;
	tagk_rng_seed(&g, 9);
	tagk_mb_model robot;
	random_model(&g, 8, 0, &robot);
	for (int i = 1; i < 8; i++)
		robot.parent[i] = i - 1;
	robot.gravity[0] = robot.gravity[1] = 0;
	robot.gravity[2] = (tagk_real)-9.81;
	tagk_real theta[10 * 8];
	for (int i = 0; i < 8; i++)
		random_valid_body(&g, theta + 10 * i);
	for (int run = 0; run < 4; run++) {
		int floating = run & 1, task = run >> 1;
		tagk_grasp_config gc;
		tagk_grasp_defaults(&gc);
		gc.motion = task ? TAGK_GRASP_TASK : TAGK_GRASP_JOINT;
		gc.dt = (tagk_real)0.005;
		gc.floating = floating;
		gc.torque_noise = 0;
		gc.duration = 2;
		gc.target_mass = 10;
		tagk_grasp sim;
		assert_int_equal(tagk_grasp_init(&sim, &gc, &robot, theta), TAGK_OK);
		static tagk_real Y[NVMAX * 10 * NBMAX];
		tagk_real Yh0[6 * 10 * NBMAX], A[NVMAX * 10], b[NVMAX];
		double worst_f = 0, worst_m = 0, worst_h = 0, worst_a = 0, amax = 0;
		tagk_grasp_sample s, s1, s2; /* s2, s1: the two samples before s */
		for (int k = 0; tagk_grasp_next(&sim, &s) == TAGK_OK; k++) {
			/* qdd is the derivative of qd (and q's): central differences
			 * over two steps, error ~ (2 pi f dt)^2 / 6, 1e-4 to 2e-3 here */
			if (k >= 2)
				for (int j = 0; j < sim.nv; j++) {
					double fd = ((double)s.qd[j] - (double)s2.qd[j]) / (2 * (double)gc.dt);
					worst_a = fmax(worst_a, fabs(fd - (double)s1.qdd[j]));
					amax = fmax(amax, fabs((double)s1.qdd[j]));
				}
			s2 = s1;
			s1 = s;
			tagk_mb_kin kin;
			assert_int_equal(tagk_mb_kinematics(&sim.model, s.R, s.p, s.q, s.qd, s.qdd, &kin), TAGK_OK);
			tagk_mb_force_rows(&kin, &sim.model, s.tau, sim.theta_known, sim.ee, Y, A, b);
			double sc = 0;
			for (int r = 0; r < sim.nv; r++)
				sc = fmax(sc, fabs((double)s.tau[r]));
			for (int r = 0; r < sim.nv; r++)
				worst_f = fmax(worst_f, fabs(tagk_dot(10, A + 10 * r, sim.target) - b[r]) / sc);
			if (floating) {
				tagk_real h[6];
				tagk_mb_momentum(&kin, sim.theta_true, h);
				tagk_mb_momentum_rows(&kin, k ? Yh0 : NULL, sim.theta_known, sim.ee, Y, A, b);
				if (k == 0)
					memcpy(Yh0, Y, sizeof(Yh0));
				/* the scale: the end effector's momentum alone */
				double hs = 0, he = 0;
				for (int r = 0; r < 6; r++) {
					double x = 0;
					for (int c = 0; c < 10; c++)
						x += (double)Y[r * 80 + 70 + c] * (double)sim.theta_true[70 + c];
					hs += x * x;
					he = fmax(he, fabs((double)h[r]));
				}
				hs = sqrt(hs) + 1e-300;
				worst_h = fmax(worst_h, he / hs);
				for (int r = 0; r < 6; r++)
					worst_m = fmax(worst_m, fabs(tagk_dot(10, A + 10 * r, sim.target) - b[r]) / hs);
			}
		}
		print_message("grasp, %s, %s motion: force rows exact to %.2g, momentum rows to %.2g, world momentum %.2g "
		    "(relative to the end effector's)\n", floating ? "orbit" : "ground", task ? "task" : "joint", worst_f,
		    worst_m, worst_h);
		print_message("    accelerations: the velocities' central differences within %.2g of max |qdd| %.3g\n",
		    worst_a / amax, amax);
		assert_true(worst_a < 5e-3 * amax); /* a wrong qdd is off by O(1) */
		assert_true(worst_f < (task ? 1e-9 : 1e-10));
		assert_true(worst_m < 1e-10);
		assert_true(worst_h < 1e-10);
	}
}


/* tagk_mb_body_sensor: the rigid-body wrench of body u from what a sensor
 * at its origin reads (regressor.h, classical mechanics, written apart from
 * the spatial algebra), mapped through u's Jacobian, is u's column block of
 * the regressor times theta_u: J_u^T [n; f] = Y_u theta_u, on random trees
 * and states. A missing omega x v, a sign of gravity, or the order of the
 * wrench's halves would each break it. */
static void
test_body_sensor_wrench(void **state)
{
	(void)state;
#ifdef TAGK_FLOAT
	skip(); /* random trees' rotations are orthonormal to 1e-6 only in double */
#endif
	tagk_rng g;
	tagk_rng_seed(&g, 21);
	static tagk_real Y[NVMAX * 10 * NBMAX];
	double worst = 0;
	for (int k = 0; k < 200; k++) {
		problem P;
		random_problem(&g, k, &P);
		tagk_mb_kin kin;
		assert_int_equal(tagk_mb_kinematics(&P.m, P.R, P.p, P.q, P.qd, P.qdd, &kin), TAGK_OK);
		tagk_mb_regressor(&kin, &P.m, Y);
		const int nb = P.m.nb, nv = P.nv, u = (int)(tagk_rng_uniform(&g) * (tagk_real)nb) % nb;
		tagk_real a[3], w[3], al[3], Yr[6 * 10], J[6 * NVMAX];
		tagk_mb_body_sensor(&kin, u, a, w, al);
		tagk_regressor_rigid(a, w, al, Yr);
		double fw[6], nf[6];
		for (int r = 0; r < 6; r++) {
			fw[r] = 0;
			for (int c = 0; c < 10; c++)
				fw[r] += (double)Yr[r * 10 + c] * (double)P.theta[10 * u + c];
		}
		for (int r = 0; r < 3; r++) {
			nf[r] = fw[3 + r];
			nf[3 + r] = fw[r];
		}
		tagk_mb_jacobian(&kin, &P.m, u, J);
		double want[NVMAX], got[NVMAX];
		for (int i = 0; i < nv; i++) {
			want[i] = 0;
			for (int c = 0; c < 10; c++)
				want[i] += (double)Y[i * 10 * nb + 10 * u + c] * (double)P.theta[10 * u + c];
			got[i] = 0;
			for (int r = 0; r < 6; r++)
				got[i] += (double)J[r * nv + i] * nf[r];
		}
		worst = fmax(worst, rel(nv, got, want));
	}
	print_message("body sensor: J^T [n; f] against the regressor's block, worst relative %.2g\n", worst);
	assert_true(worst < (sizeof(tagk_real) == 8 ? 1e-10 : 1e-3));
}

/* Joints about signed coordinate axes (which tagk_mb_kinematics turns by
 * two columns, not by the general rotation) and about random axes, on
 * random fixed-base trees without gravity: each body's world pose against
 * a forward kinematics written here with quaternions, its velocity against
 * the pose's central differences along q + qd t (omega = vee(R^T R'),
 * v = R^T p'), and its acceleration against the velocity's, along
 * q + qd t + qdd t^2 / 2 (in body coordinates a = v'). A wrong sign or
 * column in the coordinate-axis turn breaks the pose. */
static void
fk_here(const tagk_mb_model *m, const double *q, double R[][9], double p[][3])
{
	for (int k = 0; k < 9; k++)
		R[0][k] = (double)m->rot[0][k];
	for (int k = 0; k < 3; k++)
		p[0][k] = (double)m->pos[0][k];
	for (int i = 1; i < m->nb; i++) {
		const double *Rp = R[m->parent[i]];
		double u[3] = { (double)m->axis[i][0], (double)m->axis[i][1], (double)m->axis[i][2] }, J[9], Qr[9], r[3];
		double hq = m->joint[i] == TAGK_JOINT_REVOLUTE ? q[i - 1] / 2 : 0, w = cos(hq), x = sin(hq) * u[0],
		    y = sin(hq) * u[1], z = sin(hq) * u[2];
		double Rq[9] = { 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
			2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
			2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y) };
		for (int a = 0; a < 3; a++) {
			r[a] = (double)m->pos[i][a];
			for (int b = 0; b < 3; b++) {
				J[a * 3 + b] = (double)m->rot[i][a * 3 + b];
				if (m->joint[i] == TAGK_JOINT_PRISMATIC)
					r[a] += J[a * 3 + b] * u[b] * q[i - 1];
			}
		}
		for (int a = 0; a < 3; a++)
			for (int b = 0; b < 3; b++)
				Qr[a * 3 + b] = J[a * 3] * Rq[b] + J[a * 3 + 1] * Rq[3 + b] + J[a * 3 + 2] * Rq[6 + b];
		for (int a = 0; a < 3; a++) {
			p[i][a] = p[m->parent[i]][a];
			for (int b = 0; b < 3; b++) {
				R[i][a * 3 + b] = Rp[a * 3] * Qr[b] + Rp[a * 3 + 1] * Qr[3 + b] + Rp[a * 3 + 2] * Qr[6 + b];
				p[i][a] += Rp[a * 3 + b] * r[b];
			}
		}
	}
}

/* Body-frame spatial velocity of body i from poses at t = -h and +h. */
static void
fd_velocity(const double Rm[9], const double Rp[9], const double R[9], const double pm[3], const double pp[3],
    double h, double v[6])
{
	double W[9];
	for (int a = 0; a < 3; a++)
		for (int b = 0; b < 3; b++) {
			W[a * 3 + b] = 0;
			for (int c = 0; c < 3; c++)
				W[a * 3 + b] += R[c * 3 + a] * (Rp[c * 3 + b] - Rm[c * 3 + b]) / (2 * h);
		}
	v[0] = (W[7] - W[5]) / 2, v[1] = (W[2] - W[6]) / 2, v[2] = (W[3] - W[1]) / 2;
	for (int a = 0; a < 3; a++) {
		v[3 + a] = 0;
		for (int c = 0; c < 3; c++)
			v[3 + a] += R[c * 3 + a] * (pp[c] - pm[c]) / (2 * h);
	}
}

static void
test_coordinate_axes(void **state)
{
	(void)state;
#ifdef TAGK_FLOAT
	skip(); /* central differences need double */
#endif
	tagk_rng g;
	tagk_rng_seed(&g, 57);
	double worst[3] = { 0 };
	for (int k = 0; k < 100; k++) {
		problem P;
		random_problem(&g, 2 * k, &P); /* even k: a fixed base */
		memset(P.m.gravity, 0, sizeof(P.m.gravity));
		for (int i = 1; i < P.m.nb; i++)
			if (tagk_rng_uniform(&g) < (tagk_real)0.8) {
				int ax = (int)(tagk_rng_uniform(&g) * 3) % 3;
				memset(P.m.axis[i], 0, sizeof(P.m.axis[i]));
				P.m.axis[i][ax] = tagk_rng_uniform(&g) < (tagk_real)0.5 ? 1 : -1;
			}
		const int nb = P.m.nb, nv = P.nv;
		const double h = 1e-5;
		static double R[3][NBMAX][9], p[3][NBMAX][3];
		tagk_mb_kin kin[3];
		for (int s = 0; s < 3; s++) {
			double t = (s - 1) * h, q[NBMAX];
			tagk_real qt[NBMAX], qdt[NVMAX];
			for (int j = 0; j < nv; j++) {
				q[j] = (double)P.q[j] + (double)P.qd[j] * t + (double)P.qdd[j] * t * t / 2;
				qt[j] = (tagk_real)q[j];
				qdt[j] = (tagk_real)((double)P.qd[j] + (double)P.qdd[j] * t);
			}
			fk_here(&P.m, q, R[s], p[s]);
			assert_int_equal(tagk_mb_kinematics(&P.m, NULL, NULL, qt, qdt, P.qdd, &kin[s]), TAGK_OK);
		}
		for (int i = 0; i < nb; i++) {
			double got[12], want[12], v[6], a[6], kv[6], ka[6];
			for (int c = 0; c < 9; c++)
				got[c] = (double)kin[1].R[i][c], want[c] = R[1][i][c];
			for (int c = 0; c < 3; c++)
				got[9 + c] = (double)kin[1].p[i][c], want[9 + c] = p[1][i][c];
			fd_velocity(R[0][i], R[2][i], R[1][i], p[0][i], p[2][i], h, v);
			for (int c = 0; c < 6; c++) {
				kv[c] = (double)kin[1].v[i][c];
				ka[c] = (double)kin[1].a[i][c];
				a[c] = ((double)kin[2].v[i][c] - (double)kin[0].v[i][c]) / (2 * h);
			}
			double e[3] = { rel(12, got, want), rel(6, kv, v), rel(6, ka, a) };
			for (int c = 0; c < 3; c++)
				if (i > 0 && e[c] > worst[c])
					worst[c] = e[c];
		}
	}
	print_message("coordinate and random axes: pose %.2g, velocity %.2g, acceleration %.2g (relative, against "
	    "quaternion kinematics and central differences)\n", worst[0], worst[1], worst[2]);
	assert_true(worst[0] < 1e-12);
	assert_true(worst[1] < 1e-6 && worst[2] < 1e-6);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regressor_and_mass_matrix),
		cmocka_unit_test(test_power_identity),
		cmocka_unit_test(test_free_momentum_conserved),
		cmocka_unit_test(test_unknown_rows_and_faults),
		cmocka_unit_test(test_force_rows_match_regressor),
		cmocka_unit_test(test_grasp_rows_exact),
		cmocka_unit_test(test_body_sensor_wrench),
		cmocka_unit_test(test_coordinate_axes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
