/* test_coordinv.c: paper 002's identifications (lib/coordinv.c) and its
 * swimmer (bench/sim/swimmer.c) against independent facts:
 *   - the swimmer's unit Jacobians against finite differences of the units'
 *     world positions and headings, computed here from the geometry;
 *   - a perfect model: every method returns the truth (1e-8);
 *   - invariance (the oracle): random per-sample invertible T_k
 *     (Y -> T^T Y, tau -> T^T tau, M -> T^T M T, qd -> T^-1 qd) move the DM,
 *     frozen-metric DM and energy estimates less than 1e-10 relative and
 *     OLS more than 1e-3;
 *   - WLS-Bregman's solution is stationary (its gradient, written here
 *     from the objective, vanishes) and WLS-pullback's solves its normal
 *     equations, as tagk_ci_solve_metric's with the same metric does;
 *   - tagk_ncc against closed forms (an affine copy 1, its negation -1, a
 *     shifted sine found at its shift);
 *   - the Crazyflie with a pendulum (bench/sim/cfpend.c): the work-energy
 *     identity of its flight (kinetic plus potential energy, from the
 *     bodies' poses, against the integrated power of the applied wrench),
 *     its tracking of the reference, and its identifiable parameters (24 of
 *     30: a structural property of the tree);
 *   - the physical constraints of every method: D >= 0 on the swimmer
 *     (the KKT conditions of OLS-pc and energy-pc, from the rows), the
 *     pseudo-inertias on the Crazyflie (noise-free rows fitted exactly;
 *     the pullback equal to the unconstrained solve where that is
 *     physical; WLS-Bregman stationary for its objective written here). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "../lib/coordinv.h"

enum { N = TAGK_SWIM_N, P = TAGK_SWIM_P, NS = 400 };
static tagk_swim_sample run[4000];
static tagk_real Y[NS * N * P], tau[NS * N], M[NS * (P + 1) * N * N], qd[NS * N];
static tagk_real Y2[NS * N * P], tau2[NS * N], M2[NS * (P + 1) * N * N], qd2[NS * N];

/* Unit b's centre and heading in the world for configuration s (x, y,
 * theta, alpha1, alpha2), from the geometry: units 0.3 m long, joints at
 * their ends. */
static void
unit_pose(const double s[5], int b, double c[2], double *h)
{
	const double L = 0.3;
	double th = s[2], hx = cos(th), hy = sin(th);
	double j1[2] = { s[0] - L / 2 * hx, s[1] - L / 2 * hy };
	double a1 = th + s[3], a2 = a1 + s[4];
	if (b == 0) {
		c[0] = s[0], c[1] = s[1], *h = th;
	} else if (b == 1) {
		c[0] = j1[0] - L / 2 * cos(a1), c[1] = j1[1] - L / 2 * sin(a1), *h = a1;
	} else {
		double j2[2] = { j1[0] - L * cos(a1), j1[1] - L * sin(a1) };
		c[0] = j2[0] - L / 2 * cos(a2), c[1] = j2[1] - L / 2 * sin(a2), *h = a2;
	}
}

static void
test_jacobian(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 5);
	double worst = 0;
	for (int trial = 0; trial < 50; trial++) {
		double s[5];
		for (int i = 0; i < 5; i++)
			s[i] = 2 * (double)tagk_rng_uniform(&g) - 1;
		for (int b = 0; b < 3; b++) {
			tagk_real J[3 * N];
			tagk_swim_jacobian((tagk_real)s[3], (tagk_real)s[4], b, J);
			for (int k = 0; k < N; k++) {
				/* move along coordinate k: the base's body velocity is in its frame */
				const double e = 1e-6;
				double sp[5], sm[5];
				memcpy(sp, s, sizeof(sp));
				memcpy(sm, s, sizeof(sm));
				double d[5] = { 0 };
				if (k == 0)
					d[0] = cos(s[2]), d[1] = sin(s[2]);
				else if (k == 1)
					d[0] = -sin(s[2]), d[1] = cos(s[2]);
				else
					d[k] = 1;
				for (int i = 0; i < 5; i++)
					sp[i] += e * d[i], sm[i] -= e * d[i];
				double cp[2], cm[2], hp, hm, h0, c0[2];
				unit_pose(sp, b, cp, &hp);
				unit_pose(sm, b, cm, &hm);
				unit_pose(s, b, c0, &h0);
				double vw[2] = { (cp[0] - cm[0]) / (2 * e), (cp[1] - cm[1]) / (2 * e) }, w = (hp - hm) / (2 * e);
				double v[3] = { cos(h0) * vw[0] + sin(h0) * vw[1], -sin(h0) * vw[0] + cos(h0) * vw[1], w };
				for (int r = 0; r < 3; r++)
					worst = fmax(worst, fabs(v[r] - (double)J[r * N + k]));
			}
		}
	}
	print_message("unit Jacobians against finite differences of the geometry: worst %.2g\n", worst);
	assert_true(worst < (TOL_EXACT > 1e-6 ? 1e-3 : 1e-8));
}

/* The problem of count (<= NS) samples, every stride-th from first, of run. */
static void
problem_from(long first, long stride, long count, tagk_dmls_problem *pb)
{
	for (long k = 0; k < count; k++) {
		const tagk_swim_sample *x = run + first + k * stride;
		tagk_swim_regressor(x->alpha[0], x->alpha[1], x->qd, Y + k * N * P);
		memcpy(tau + k * N, x->tau, sizeof(x->tau));
		memcpy(qd + k * N, x->qd, sizeof(x->qd));
		memset(M + k * (P + 1) * N * N, 0, sizeof(*M) * N * N);
		tagk_swim_metric_parts(x->alpha[0], x->alpha[1], M + k * (P + 1) * N * N + N * N);
	}
	tagk_dmls_defaults(pb);
	pb->N = (int)count, pb->n = N, pb->p = P, pb->bodies = 0, pb->Y = Y, pb->tau = tau, pb->M = M;
}

static void
problem(long stride, long count, tagk_dmls_problem *pb)
{
	problem_from(0, stride, count, pb);
}

static void
simulate(int noisy)
{
	tagk_swim_config c;
	tagk_swim_defaults(&c);
	if (noisy) {
		c.pos_noise = (tagk_real)1e-3;
		c.differentiate = 1;
		c.force_noise = (tagk_real)0.02;
	}
	assert_int_equal(tagk_swim_run(&c, run, 4000), TAGK_OK);
}

static void
prior_of(tagk_real prior[P])
{
	tagk_swim_truth(prior);
	for (int j = 0; j < P; j++)
		prior[j] *= (tagk_real)(j % 2 ? 1.25 : 0.8);
}

static void
test_perfect(void **state)
{
	(void)state;
	simulate(0);
	tagk_dmls_problem pb;
	problem(8, NS, &pb);
	tagk_real truth[P], prior[P], pi[P];
	tagk_swim_truth(truth);
	prior_of(prior);
	size_t len = tagk_ci_workspace_len(N, P);
	tagk_real *ws = canary_alloc(len);
	for (int m = 0; m < TAGK_CI_NMETHODS; m++) {
		assert_int_equal(tagk_ci_solve((tagk_ci_method)m, &pb, qd, prior, 10, pi, ws, len), TAGK_OK);
		double e = rel_err(P, pi, truth);
		print_message("perfect model, %-13s relative error %.2g\n", tagk_ci_name((tagk_ci_method)m), e);
		assert_true(e < (TOL_EXACT > 1e-6 ? 1e-2 : 1e-8));
	}
	assert_true(canary_intact(ws, len));
	assert_int_equal(tagk_ci_solve(TAGK_CI_ENERGY, &pb, NULL, prior, 10, pi, ws, len), TAGK_EINVAL);
	/* a prior that is not positive: refused by the regularised methods, not read by OLS */
	prior[3] = 0;
	assert_int_equal(tagk_ci_solve(TAGK_CI_PULLBACK, &pb, qd, prior, 10, pi, ws, len), TAGK_EINVAL);
	assert_int_equal(tagk_ci_solve(TAGK_CI_BREGMAN, &pb, qd, prior, 10, pi, ws, len), TAGK_EINVAL);
	assert_int_equal(tagk_ci_solve(TAGK_CI_OLS, &pb, qd, prior, 10, pi, ws, len), TAGK_OK);
	canary_free(ws);
}

static void
test_invariance(void **state)
{
	(void)state;
	simulate(1);
	tagk_dmls_problem pb, pb2;
	problem(8, NS, &pb);
	pb2 = pb;
	pb2.Y = Y2, pb2.tau = tau2, pb2.M = M2;
	tagk_rng g;
	tagk_rng_seed(&g, 9);
	for (int k = 0; k < NS; k++) {
		/* T: a random matrix well away from singular, its inverse by elimination */
		long double T[N][N], A[N][2 * N];
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++) {
				T[i][j] = (long double)tagk_rng_gaussian(&g) * 0.5L + (i == j ? 2 : 0);
				A[i][j] = T[i][j];
				A[i][N + j] = i == j;
			}
		for (int c = 0; c < N; c++) {
			int piv = c;
			for (int r = c + 1; r < N; r++)
				if (fabsl(A[r][c]) > fabsl(A[piv][c]))
					piv = r;
			for (int j = 0; j < 2 * N; j++) {
				long double t = A[c][j];
				A[c][j] = A[piv][j], A[piv][j] = t;
			}
			for (int r = 0; r < N; r++)
				if (r != c) {
					long double f = A[r][c] / A[c][c];
					for (int j = 0; j < 2 * N; j++)
						A[r][j] -= f * A[c][j];
				}
		}
		const tagk_real *y = Y + k * N * P, *t = tau + k * N, *v = qd + k * N;
		for (int i = 0; i < N; i++) {
			for (int a = 0; a < P; a++) {
				long double s = 0;
				for (int r = 0; r < N; r++)
					s += T[r][i] * y[r * P + a];
				Y2[k * N * P + i * P + a] = (tagk_real)s;
			}
			long double s = 0, sv = 0;
			for (int r = 0; r < N; r++) {
				s += T[r][i] * t[r];
				sv += A[i][N + r] / A[i][i] * v[r]; /* (T^-1 qd)_i */
			}
			tau2[k * N + i] = (tagk_real)s;
			qd2[k * N + i] = (tagk_real)sv;
		}
		for (int m = 0; m <= P; m++) {
			const tagk_real *Mm = M + (k * (P + 1) + m) * N * N;
			for (int i = 0; i < N; i++)
				for (int j = 0; j < N; j++) {
					long double s = 0;
					for (int r = 0; r < N; r++)
						for (int c = 0; c < N; c++)
							s += T[r][i] * Mm[r * N + c] * T[c][j];
					M2[(k * (P + 1) + m) * N * N + i * N + j] = (tagk_real)s;
				}
		}
	}
	tagk_real prior[P], a[P], b[P];
	prior_of(prior);
	size_t len = tagk_ci_workspace_len(N, P);
	tagk_real *ws = malloc(len * sizeof(*ws));
	assert_non_null(ws);
	static const tagk_ci_method ms[] = { TAGK_CI_DUAL, TAGK_CI_FROZEN, TAGK_CI_ENERGY, TAGK_CI_OLS, TAGK_CI_WLS };
	for (size_t i = 0; i < sizeof(ms) / sizeof(ms[0]); i++) {
		assert_int_equal(tagk_ci_solve(ms[i], &pb, qd, prior, 10, a, ws, len), TAGK_OK);
		assert_int_equal(tagk_ci_solve(ms[i], &pb2, qd2, prior, 10, b, ws, len), TAGK_OK);
		double d = rel_err(P, b, a);
		print_message("random per-sample coordinates: %-6s moves %.2g\n", tagk_ci_name(ms[i]), d);
		if (ms[i] == TAGK_CI_DUAL || ms[i] == TAGK_CI_FROZEN || ms[i] == TAGK_CI_ENERGY)
			assert_true(d < (TOL_EXACT > 1e-6 ? 1e-3 : 1e-10));
		else
			assert_true(d > 1e-3);
	}
	free(ws);
}

static void
test_regularised(void **state)
{
	(void)state;
	simulate(1);
	tagk_dmls_problem pb;
	problem(80, 40, &pb); /* low data: the prior matters */
	tagk_real prior[P], pw[P], pb_[P], pp[P];
	prior_of(prior);
	size_t len = tagk_ci_workspace_len(N, P);
	tagk_real *ws = malloc(len * sizeof(*ws));
	assert_non_null(ws);
	const tagk_real lambda = 10;
	assert_int_equal(tagk_ci_solve(TAGK_CI_WLS, &pb, qd, prior, lambda, pw, ws, len), TAGK_OK);
	assert_int_equal(tagk_ci_solve(TAGK_CI_BREGMAN, &pb, qd, prior, lambda, pb_, ws, len), TAGK_OK);
	assert_int_equal(tagk_ci_solve(TAGK_CI_PULLBACK, &pb, qd, prior, lambda, pp, ws, len), TAGK_OK);
	/* the weights WLS used: the inverse variance of the OLS residual per coordinate */
	tagk_real po[P];
	assert_int_equal(tagk_ci_solve(TAGK_CI_OLS, &pb, qd, prior, lambda, po, ws, len), TAGK_OK);
	long double var[N] = { 0 };
	for (int k = 0; k < pb.N; k++)
		for (int i = 0; i < N; i++) {
			long double r = -tau[k * N + i];
			for (int a = 0; a < P; a++)
				r += (long double)Y[k * N * P + i * P + a] * po[a];
			var[i] += r * r / pb.N;
		}
	/* gradients of sum w r^2 + reg at each solution, from the objectives */
	long double gb[P] = { 0 }, gp[P] = { 0 }, gw[P] = { 0 };
	for (int k = 0; k < pb.N; k++)
		for (int i = 0; i < N; i++) {
			long double rb = -tau[k * N + i], rp = rb, rw = rb;
			for (int a = 0; a < P; a++) {
				rb += (long double)Y[k * N * P + i * P + a] * pb_[a];
				rp += (long double)Y[k * N * P + i * P + a] * pp[a];
				rw += (long double)Y[k * N * P + i * P + a] * pw[a];
			}
			for (int a = 0; a < P; a++) {
				gb[a] += 2 * Y[k * N * P + i * P + a] * rb / var[i];
				gp[a] += 2 * Y[k * N * P + i * P + a] * rp / var[i];
				gw[a] += 2 * Y[k * N * P + i * P + a] * rw / var[i];
			}
		}
	double worst = 0, scale = 0;
	for (int a = 0; a < P; a++) {
		gb[a] += lambda * (1 / (long double)prior[a] - 1 / (long double)pb_[a]);
		gp[a] += 2 * lambda * ((long double)pp[a] - prior[a]) / ((long double)prior[a] * prior[a]);
		worst = fmax(worst, fmax(fabs((double)gb[a]) * (double)pb_[a], fabs((double)gp[a]) * (double)pp[a]));
		scale = fmax(scale, fabs((double)gw[a]) + lambda);
	}
	print_message("regularised WLS: largest |gradient x parameter| at the solutions %.2g (lambda %g)\n", worst,
	    (double)lambda);
	assert_true(worst < (TOL_EXACT > 1e-6 ? 1e-2 : 1e-7) * lambda);
	/* a general metric: diag(1 / prior^2) around the prior is the pullback */
	tagk_real Gd[P * P] = { 0 }, pm[P];
	for (int a = 0; a < P; a++)
		Gd[a * P + a] = 1 / (prior[a] * prior[a]);
	assert_int_equal(tagk_ci_solve_metric(&pb, Gd, prior, lambda, pm, ws, len), TAGK_OK);
	assert_true(rel_err(P, pm, pp) < (TOL_EXACT > 1e-6 ? 1e-3 : 1e-10));
	/* DM with D >= 0 where it matters: on 12-sample subsets until the
	 * unconstrained DM gives a negative coefficient; there DM-pc's are all
	 * positive and its objective is no lower (its feasible set is smaller) */
	tagk_real pd[P], pdc[P];
	int found = 0;
	for (long first = 0; first < 80 && !found; first++) {
		tagk_dmls_problem ps;
		problem_from(first, 250, 12, &ps);
		if (tagk_ci_solve(TAGK_CI_DUAL, &ps, qd, prior, lambda, pd, ws, len) != TAGK_OK)
			continue;
		int negative = 0;
		for (int a = 0; a < P; a++)
			negative += pd[a] < 0;
		if (!negative)
			continue;
		found = 1;
		assert_int_equal(tagk_ci_solve(TAGK_CI_DUAL_PC, &ps, qd, prior, lambda, pdc, ws, len), TAGK_OK);
		for (int a = 0; a < P; a++)
			assert_true(pdc[a] > 0);
		double fd = (double)tagk_dmls_objective(&ps, pd, ws, len), fc = (double)tagk_dmls_objective(&ps, pdc, ws, len);
		print_message("12 samples from %ld: DM has %d negative coefficients, objective %.6g; DM-pc none, %.6g\n",
		    first, negative, fd, fc);
		assert_true(fc >= fd * (1 - (TOL_EXACT > 1e-6 ? 1e-4 : 1e-9)));
	}
	assert_true(found);
	problem(80, 40, &pb); /* the subsets overwrote the arrays */
	/* the regulariser pulls toward the prior */
	double dw = rel_err(P, pw, prior), db = rel_err(P, pb_, prior);
	assert_true(db < dw);
	(void)scale;
	free(ws);
}

static void
test_ncc(void **state)
{
	(void)state;
	enum { T = 400 };
	tagk_real a[T], b[T], c[T];
	for (int t = 0; t < T; t++) {
		a[t] = (tagk_real)sin(0.05 * t) + (tagk_real)0.3 * (tagk_real)cos(0.17 * t);
		b[t] = 3 * a[t] + 7;
		c[t] = -2 * a[t];
	}
	assert_true(fabs((double)tagk_ncc(a, b, T, 0) - 1) < 1e-6);
	assert_true(fabs((double)tagk_ncc(a, c, T, 0) + 1) < 1e-6);
	/* b shifted by 3 samples: found with max_shift >= 3, not with 0 */
	for (int t = 0; t < T; t++)
		b[t] = t >= 3 ? a[t - 3] : 0;
	assert_true(fabs((double)tagk_ncc(a, b, T, 3) - 1) < 1e-6);
	assert_true(tagk_ncc(a, b, T, 0) < (tagk_real)0.999);
	for (int t = 0; t < T; t++)
		c[t] = 1;
	assert_true(isnan((double)tagk_ncc(a, c, T, 2)));
	assert_true(isnan((double)tagk_ncc(a, b, 1, 0)));
}

static tagk_cfp_sample cfrun[2001];

static void
test_cfpend(void **state)
{
	(void)state;
	tagk_cfp_config c;
	tagk_cfp_defaults(&c);
	c.duration = 2;
	c.rate = 1000; /* the wrench held for 1 ms: the trapezoid's power is then nearly exact */
	long n = tagk_cfp_samples(&c);
	assert_int_equal(tagk_cfp_run(&c, cfrun, n), TAGK_OK);
	tagk_mb_model m;
	tagk_real th[TAGK_CFP_P];
	tagk_cfp_model(&m, th);
	double E0 = 0, work = 0, worst = 0, scale = 0, track;
	for (long k = 0; k < n; k++) {
		tagk_mb_kin kin;
		assert_int_equal(tagk_mb_kinematics(&m, cfrun[k].R, cfrun[k].p, cfrun[k].alpha, cfrun[k].qd_true, NULL, &kin),
		    TAGK_OK);
		double E = (double)tagk_mb_kinetic_energy(&kin, th);
		for (int b = 0; b < m.nb; b++) {
			const tagk_real *t = th + TAGK_NPARAM * b, *R = kin.R[b];
			double z = (double)t[TAGK_P_M] * (double)kin.p[b][2] + (double)R[6] * (double)t[TAGK_P_MCX]
			    + (double)R[7] * (double)t[TAGK_P_MCY] + (double)R[8] * (double)t[TAGK_P_MCZ];
			E += 9.81 * z;
		}
		if (k == 0)
			E0 = E;
		else {
			/* the power qd . tau over the last period, by the trapezoid */
			double p0 = 0, p1 = 0;
			for (int i = 0; i < TAGK_CFP_N; i++) {
				p0 += (double)cfrun[k - 1].qd_true[i] * (double)cfrun[k - 1].tau[i];
				p1 += (double)cfrun[k].qd_true[i] * (double)cfrun[k - 1].tau[i];
			}
			work += (p0 + p1) / 2 / c.rate;
			worst = fmax(worst, fabs(E - E0 - work));
			scale = fmax(scale, fabs(work));
		}
	}
	print_message("Crazyflie with a pendulum, 2 s: |E - E0 - work| at most %.2g J, work up to %.2g J\n", worst, scale);
	assert_true(scale > 1e-4);
	assert_true(worst < (TOL_EXACT > 1e-6 ? 1e-2 : 1e-4) * scale);
	/* a 35 s flight at 100 Hz stays near its reference and swings the pendulum */
	tagk_cfp_defaults(&c);
	static tagk_cfp_sample fl[3501];
	n = tagk_cfp_samples(&c);
	assert_int_equal(tagk_cfp_run(&c, fl, n), TAGK_OK);
	double amax = 0, zmin = 1e9, zmax = -1e9;
	for (long k = 0; k < n; k++) {
		amax = fmax(amax, fabs((double)fl[k].alpha[0]));
		zmin = fmin(zmin, (double)fl[k].p[2]);
		zmax = fmax(zmax, (double)fl[k].p[2]);
	}
	track = zmax - zmin;
	print_message("35 s flight: height between %.3f and %.3f m, pendulum swing up to %.3f rad\n", zmin, zmax, amax);
	assert_true(zmin > 0.8 && zmax < 1.2 && track > 0.1 && amax > 0.05 && amax < 1);
	/* its regressor's rank: 24 of the 30 parameters identifiable */
	static double H[TAGK_CFP_P * TAGK_CFP_P];
	memset(H, 0, sizeof(H));
	for (long k = 0; k < n; k++) {
		tagk_mb_kin kin;
		tagk_real Yc[TAGK_CFP_N * TAGK_CFP_P];
		assert_int_equal(tagk_mb_kinematics(&m, fl[k].R, fl[k].p, fl[k].alpha, fl[k].qd, fl[k].qdd, &kin), TAGK_OK);
		tagk_mb_regressor(&kin, &m, Yc);
		for (int i = 0; i < TAGK_CFP_N; i++)
			for (int a = 0; a < TAGK_CFP_P; a++)
				for (int b = 0; b < TAGK_CFP_P; b++)
					H[a * TAGK_CFP_P + b] += (double)Yc[i * TAGK_CFP_P + a] * (double)Yc[i * TAGK_CFP_P + b];
	}
	tagk_real Hr[TAGK_CFP_P * TAGK_CFP_P], w[TAGK_CFP_P], scr[TAGK_CFP_P * TAGK_CFP_P];
	for (int i = 0; i < TAGK_CFP_P * TAGK_CFP_P; i++)
		Hr[i] = (tagk_real)H[i];
	assert_int_equal(tagk_symeig(TAGK_CFP_P, Hr, w, NULL, scr), TAGK_OK);
	int rank = 0;
	for (int i = 0; i < TAGK_CFP_P; i++)
		rank += w[i] > (tagk_real)1e-10 * w[TAGK_CFP_P - 1];
	if (TOL_EXACT < 1e-6)
		assert_int_equal(rank, 24);
}

/* The KKT conditions of min F(x) subject to x >= 0 at x, F's gradient g and
 * the size of its terms gs: x >= 0, g >= 0 (relative to gs) and x g = 0
 * (relative to 1 + F). */
static int
kkt(const long double *g, const long double *gs, const tagk_real *x, long double F, double *slack)
{
	int ok = 1;
	*slack = 0;
	for (int a = 0; a < P; a++) {
		ok &= x[a] > 0 && g[a] >= -(long double)TOL_EXACT * 100 * gs[a];
		*slack = fmax(*slack, fabs((double)(x[a] * g[a] / (1 + F))));
	}
	return ok && *slack < (TOL_EXACT > 1e-6 ? 1e-2 : 1e-7);
}

/* D >= 0 for every method (pb.nonneg = p), where it matters: 12-sample
 * subsets on which unconstrained OLS gives negative coefficients. OLS-pc
 * and energy-pc meet the KKT conditions of their quadratics, written here
 * from the rows; the others keep every coefficient positive. */
static void
test_physical_drag(void **state)
{
	(void)state;
	simulate(1);
	tagk_real prior[P], x[P], po[P];
	prior_of(prior);
	size_t len = tagk_ci_workspace_len(N, P);
	tagk_real *ws = canary_alloc(len);
	int found = 0;
	for (long first = 0; first < 80 && found < 3; first++) {
		tagk_dmls_problem ps;
		problem_from(first, 250, 12, &ps);
		if (tagk_ci_solve(TAGK_CI_OLS, &ps, qd, prior, 10, po, ws, len) != TAGK_OK)
			continue;
		int negative = 0;
		for (int a = 0; a < P; a++)
			negative += po[a] < 0;
		if (!negative)
			continue;
		found++;
		ps.nonneg = P;
		for (int m = 0; m < TAGK_CI_NMETHODS; m++) {
			assert_int_equal(tagk_ci_solve((tagk_ci_method)m, &ps, qd, prior, 10, x, ws, len), TAGK_OK);
			for (int a = 0; a < P; a++)
				assert_true(x[a] > 0);
			if (m != TAGK_CI_OLS && m != TAGK_CI_ENERGY)
				continue;
			/* F = sum |Y x - tau|^2, or sum (qd^T (Y x - tau))^2 */
			long double g[P] = { 0 }, gs[P] = { 0 }, F = 0;
			for (int k = 0; k < ps.N; k++) {
				const tagk_real *Yk = Y + k * N * P, *tk = tau + k * N, *v = qd + k * N;
				long double r[N], row[P] = { 0 }, b = 0, e = 0;
				for (int i = 0; i < N; i++) {
					r[i] = -(long double)tk[i];
					for (int a = 0; a < P; a++)
						r[i] += (long double)Yk[i * P + a] * x[a];
					for (int a = 0; a < P; a++)
						row[a] += (long double)v[i] * Yk[i * P + a];
					b += (long double)v[i] * tk[i];
					e += (long double)v[i] * r[i];
				}
				for (int a = 0; a < P; a++) {
					if (m == TAGK_CI_OLS)
						for (int i = 0; i < N; i++) {
							g[a] += 2 * Yk[i * P + a] * r[i];
							gs[a] += fabsl(2 * Yk[i * P + a] * tk[i]) + fabsl(2 * Yk[i * P + a] * (r[i] + tk[i]));
						}
					else {
						g[a] += 2 * row[a] * e;
						gs[a] += fabsl(2 * row[a] * b) + fabsl(2 * row[a] * (e + b));
					}
				}
				if (m == TAGK_CI_OLS)
					for (int i = 0; i < N; i++)
						F += r[i] * r[i];
				else
					F += e * e;
			}
			double slack;
			int ok = kkt(g, gs, x, F, &slack);
			print_message("12 samples from %ld, %d negative in OLS: %s-pc's KKT slack %.2g\n", first, negative,
			    tagk_ci_name((tagk_ci_method)m), slack);
			assert_true(ok);
		}
	}
	assert_true(found > 0);
	assert_true(canary_intact(ws, len));
	/* a start that is not positive is refused */
	tagk_dmls_problem ps;
	problem_from(0, 250, 12, &ps);
	ps.nonneg = P;
	prior[2] = -1;
	assert_int_equal(tagk_ci_solve(TAGK_CI_OLS, &ps, qd, prior, 10, x, ws, len), TAGK_EINVAL);
	canary_free(ws);
}

enum { CN = TAGK_CFP_N, CP = TAGK_CFP_P, CS = 200 };
static tagk_real cY[CS * CN * CP], ctau[CS * CN], cM[CS * (CP + 1) * CN * CN], cqd[CS * CN];

/* The identification problem of a 2 s flight, every parameter, the three
 * pseudo-inertias kept physical. */
static void
cf_problem(int mismatch, tagk_real truth[CP], tagk_dmls_problem *pb)
{
	tagk_cfp_config c;
	tagk_cfp_defaults(&c);
	c.duration = 2;
	if (mismatch) {
		c.pos_noise = (tagk_real)1e-4;
		c.differentiate = 1;
		c.rotor_drag = (tagk_real)0.01;
		c.thrust_error = (tagk_real)0.03;
	}
	assert_true(tagk_cfp_samples(&c) >= CS);
	assert_int_equal(tagk_cfp_run(&c, cfrun, 2001), TAGK_OK);
	tagk_mb_model m;
	tagk_cfp_model(&m, truth);
	for (long k = 0; k < CS; k++) {
		const tagk_cfp_sample *x = cfrun + k;
		tagk_mb_kin kin;
		assert_int_equal(tagk_mb_kinematics(&m, x->R, x->p, x->alpha, x->qd, x->qdd, &kin), TAGK_OK);
		tagk_mb_regressor(&kin, &m, cY + k * CN * CP);
		memcpy(ctau + k * CN, x->tau, sizeof(x->tau));
		memcpy(cqd + k * CN, x->qd, sizeof(x->qd));
		memset(cM + k * (CP + 1) * CN * CN, 0, sizeof(*cM) * CN * CN);
		for (int j = 0; j < CP; j++) {
			tagk_real e[CP] = { 0 };
			e[j] = 1;
			tagk_mb_mass_matrix(&kin, &m, e, cM + (k * (CP + 1) + 1 + j) * CN * CN);
		}
	}
	tagk_dmls_defaults(pb);
	pb->N = CS, pb->n = CN, pb->p = CP, pb->bodies = TAGK_CFP_BODIES, pb->Y = cY, pb->tau = ctau, pb->M = cM;
}

/* sum w_i r_i^2 with w from the residual variances var (NULL: 1), and the
 * size of Y theta. */
static long double
cf_residual(const tagk_real *th, const long double *var, long double *size)
{
	long double F = 0, S = 0;
	for (int k = 0; k < CS; k++)
		for (int i = 0; i < CN; i++) {
			long double r = -(long double)ctau[k * CN + i], y = 0;
			for (int a = 0; a < CP; a++)
				y += (long double)cY[(k * CN + i) * CP + a] * th[a];
			r += y;
			F += r * r / (var ? var[i] : 1);
			S += y * y;
		}
	if (size)
		*size = S;
	return F;
}

/* x = A^-1 b for A = [A | b] (n x n + 1, destroyed), by Gaussian elimination
 * with partial pivoting in long double. */
static void
gauss(int n, long double A[][CP + 1], long double *x)
{
	for (int c = 0; c < n; c++) {
		int piv = c;
		for (int r = c + 1; r < n; r++)
			if (fabsl(A[r][c]) > fabsl(A[piv][c]))
				piv = r;
		for (int j = 0; j <= n; j++) {
			long double t = A[c][j];
			A[c][j] = A[piv][j];
			A[piv][j] = t;
		}
		for (int r = c + 1; r < n; r++) {
			long double f = A[r][c] / A[c][c];
			for (int j = c; j <= n; j++)
				A[r][j] -= f * A[c][j];
		}
	}
	for (int i = n - 1; i >= 0; i--) {
		long double s = A[i][n];
		for (int j = i + 1; j < n; j++)
			s -= A[i][j] * x[j];
		x[i] = s / A[i][i];
	}
}

/* The smallest eigenvalue of body b's pseudo-inertia over its largest. */
static double
cf_min_eig(const tagk_real *th, int b)
{
	tagk_real J[16], w[4], scr[16];
	tagk_pseudo_inertia(th + TAGK_NPARAM * b, J);
	assert_int_equal(tagk_symeig(4, J, w, NULL, scr), TAGK_OK);
	return (double)(w[0] / w[3]);
}

/* sum_b D(J_b || J0_b), the log-det divergence; HUGE_VAL outside. */
static long double
cf_divergence(const tagk_real *th, const tagk_real *th0)
{
	long double D = 0;
	for (int b = 0; b < TAGK_CFP_BODIES; b++) {
		tagk_real J[16], J0[16], X[16];
		tagk_pseudo_inertia(th + TAGK_NPARAM * b, J);
		tagk_pseudo_inertia(th0 + TAGK_NPARAM * b, J0);
		memcpy(X, J, sizeof(X));
		if (tagk_cholesky(4, X) != TAGK_OK || tagk_cholesky(4, J0) != TAGK_OK)
			return HUGE_VAL;
		/* tr(J0^-1 J) - log det J + log det J0 - 4 */
		tagk_real Z[16];
		memcpy(Z, J, sizeof(Z));
		tagk_cholesky_solve(4, 4, J0, Z);
		for (int i = 0; i < 4; i++)
			D += (long double)Z[i * 5] - 2 * logl((long double)X[i * 5]) + 2 * logl((long double)J0[i * 5]) - 1;
	}
	return D;
}

/* The variance of each of the CN rows' residuals at xo over the CS samples
 * (WLS's weights are their inverses). */
static void
row_variances(const tagk_real *xo, long double var[CN])
{
	for (int i = 0; i < CN; i++)
		var[i] = 0;
	for (int k = 0; k < CS; k++)
		for (int i = 0; i < CN; i++) {
			long double r = -(long double)ctau[k * CN + i];
			for (int a = 0; a < CP; a++)
				r += (long double)cY[(k * CN + i) * CP + a] * xo[a];
			var[i] += r * r / CS;
		}
}

/* The unconstrained minimiser of sum r^2 / var + 10 d^T G d (d = x -
 * prior, G the pseudo-inertias' pullback metric at the prior), by
 * Gaussian elimination in long double. */
static void
pullback_minimiser(const tagk_real *prior, const long double *var, tagk_real xmr[CP])
{
	tagk_real G[CP * CP] = { 0 };
	for (int b = 0; b < TAGK_CFP_BODIES; b++) {
		tagk_real Gb[TAGK_NPARAM * TAGK_NPARAM];
		assert_int_equal(tagk_pullback_metric(prior + TAGK_NPARAM * b, Gb), TAGK_OK);
		for (int i = 0; i < TAGK_NPARAM; i++)
			for (int j = 0; j < TAGK_NPARAM; j++)
				G[(TAGK_NPARAM * b + i) * CP + TAGK_NPARAM * b + j] = Gb[i * TAGK_NPARAM + j];
	}
	static long double A[CP][CP + 1];
	for (int a = 0; a < CP; a++) {
		for (int b = 0; b <= CP; b++)
			A[a][b] = 0;
		for (int b = 0; b < CP; b++) {
			A[a][b] = 10 * (long double)G[a * CP + b];
			A[a][CP] += 10 * (long double)G[a * CP + b] * prior[b];
		}
	}
	for (int k = 0; k < CS; k++)
		for (int i = 0; i < CN; i++) {
			const tagk_real *y = cY + (k * CN + i) * CP;
			for (int a = 0; a < CP; a++) {
				A[a][CP] += (long double)y[a] * ctau[k * CN + i] / var[i];
				for (int b = 0; b < CP; b++)
					A[a][b] += (long double)y[a] * y[b] / var[i];
			}
		}
	long double xm[CP];
	gauss(CP, A, xm);
	for (int a = 0; a < CP; a++)
		xmr[a] = (tagk_real)xm[a];
}

/* The pseudo-inertias kept physical (pb.bodies = 3) on the Crazyflie with a
 * pendulum, 24 of whose 30 parameters the data determine:
 *   - noise-free data: every method fits the rows (|Y theta - tau|^2 below
 *     1e-8 of |Y theta|^2: the barrier stops at a gap of 1e-10);
 *   - with mismatch: every estimate physical; WLS-pullback with the
 *     constraint inactive equals tagk_ci_solve_metric with the
 *     pseudo-inertias' pullback metric (the same objective, solved
 *     unconstrained); WLS-Bregman stationary along random directions for
 *     sum w r^2 + lambda D, written here from the divergence's definition. */
static void
test_physical_bodies(void **state)
{
	(void)state;
	if (TOL_EXACT > 1e-6) {
		/* 30 parameters from 1e-5 kg m^2 to 0.035 kg with 6 null
		 * directions: in float, pcls.h's start (a ridge of 1e-8 of the
		 * largest pivot, below float's rounding) cannot factor these
		 * normal equations; with a ridge of 100 epsilon the quadratic
		 * methods fit the rows only to 1e-3 .. 1e-6 and WLS-Bregman's
		 * Newton system is singular to 7 digits. DM (equilibrated) runs. */
		print_message("float: the Crazyflie's 30-parameter constrained problems need double\n");
		skip();
	}
	tagk_dmls_problem pb;
	tagk_real truth[CP], prior[CP], x[CP];
	size_t len = tagk_ci_workspace_len(CN, CP);
	tagk_real *ws = canary_alloc(len);
	cf_problem(0, truth, &pb);
	/* the prior: masses, first moments and inertias scaled, still physical */
	for (int a = 0; a < CP; a++)
		prior[a] = truth[a] * (tagk_real)(a % TAGK_NPARAM == 0 ? 1.2 : a % TAGK_NPARAM < 4 ? 1.1 : 1.3);
	for (int m = 0; m < TAGK_CI_NMETHODS; m++) {
		assert_int_equal(tagk_ci_solve((tagk_ci_method)m, &pb, cqd, prior, 10, x, ws, len), TAGK_OK);
		/* the squared residual against the rows' size: the barrier stops at
		 * a duality gap of 1e-10 of the (weighted) objective */
		long double S, F = cf_residual(x, NULL, &S);
		double e = (double)(F / S);
		print_message("noise-free, %-13s with bodies: |r|^2 / |Y theta|^2 %.2g, smallest eig ratios %.2g %.2g %.2g\n",
		    tagk_ci_name((tagk_ci_method)m), e, cf_min_eig(x, 0), cf_min_eig(x, 1), cf_min_eig(x, 2));
		assert_true(e < (TOL_EXACT > 1e-6 ? 1e-2 : 1e-8));
		for (int b = 0; b < TAGK_CFP_BODIES; b++)
			assert_true(cf_min_eig(x, b) > -1e-9);
	}
	assert_true(canary_intact(ws, len));
	cf_problem(1, truth, &pb);
	for (int m = 0; m < TAGK_CI_NMETHODS; m++) {
		assert_int_equal(tagk_ci_solve((tagk_ci_method)m, &pb, cqd, prior, 10, x, ws, len), TAGK_OK);
		for (int b = 0; b < TAGK_CFP_BODIES; b++)
			assert_true(cf_min_eig(x, b) > -1e-9);
	}
	/* weights from OLS-pc's residuals, as WLS's definition says */
	tagk_real xo[CP], xb[CP];
	assert_int_equal(tagk_ci_solve(TAGK_CI_OLS, &pb, cqd, prior, 10, xo, ws, len), TAGK_OK);
	long double var[CN];
	row_variances(xo, var);
	/* pullback: against the unconstrained minimiser of sum w r^2 + lambda
	 * d^T G d, G the pseudo-inertias' pullback metric, solved here */
	tagk_real xp[CP], xmr[CP];
	assert_int_equal(tagk_ci_solve(TAGK_CI_PULLBACK, &pb, cqd, prior, 10, xp, ws, len), TAGK_OK);
	pullback_minimiser(prior, var, xmr);
	int inside = 1;
	for (int b = 0; b < TAGK_CFP_BODIES; b++)
		inside &= cf_min_eig(xmr, b) > 1e-6;
	print_message("pullback with bodies against the unconstrained solve: %.2g (unconstrained physical: %d)\n",
	    rel_err(CP, xp, xmr), inside);
	assert_true(inside);
	assert_true(rel_err(CP, xp, xmr) < (TOL_EXACT > 1e-6 ? 1e-2 : 1e-8));
	/* Bregman, with the same weights */
	const long double lambda = 10;
	assert_int_equal(tagk_ci_solve(TAGK_CI_BREGMAN, &pb, cqd, prior, (tagk_real)lambda, xb, ws, len), TAGK_OK);
	long double F0 = cf_residual(xb, var, NULL) + lambda * cf_divergence(xb, prior), signal = 0;
	for (int k = 0; k < CS; k++)
		for (int i = 0; i < CN; i++)
			signal += (long double)ctau[k * CN + i] * ctau[k * CN + i] / var[i];
	tagk_rng g;
	tagk_rng_seed(&g, 11);
	double worst = 0;
	for (int trial = 0; trial < 20; trial++) {
		tagk_real up[CP], dn[CP];
		const double eps = 1e-8;
		for (int a = 0; a < CP; a++) {
			double d = eps * (2 * (double)tagk_rng_uniform(&g) - 1) * fabs((double)prior[a]);
			up[a] = (tagk_real)((double)xb[a] + d);
			dn[a] = (tagk_real)((double)xb[a] - d);
		}
		long double Fu = cf_residual(up, var, NULL) + lambda * cf_divergence(up, prior);
		long double Fd = cf_residual(dn, var, NULL) + lambda * cf_divergence(dn, prior);
		long double c1 = (Fu - Fd) / 2, c2 = Fu - 2 * F0 + Fd;
		assert_true(c2 > 0);
		/* what a Newton step along d would gain, against the size of the
		 * objective's terms, sum w tau^2, where the solver's rounding lives
		 * (it stops at 100 epsilon of its objective); steps of 1e-7 of the
		 * prior: larger ones meet the divergence's third derivative near the
		 * boundary (a smallest eigenvalue 1e-6 of the largest) */
		worst = fmax(worst, (double)(c1 * c1 / c2 / (1 + signal)));
	}
	print_message("WLS-Bregman with bodies: the largest gain of a Newton step along a random direction %.2g of "
	    "sum w tau^2 (%.3Lg; the objective %.3Lg)\n", worst, signal, F0);
	if (TOL_EXACT < 1e-6)
		assert_true(worst < 1e-14);
	assert_true(canary_intact(ws, len));
	canary_free(ws);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jacobian),
		cmocka_unit_test(test_perfect),
		cmocka_unit_test(test_invariance),
		cmocka_unit_test(test_regularised),
		cmocka_unit_test(test_ncc),
		cmocka_unit_test(test_cfpend),
		cmocka_unit_test(test_physical_drag),
		cmocka_unit_test(test_physical_bodies),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
