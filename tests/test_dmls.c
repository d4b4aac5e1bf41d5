/* test_dmls.c: dual-metric least squares (lib/dmls.c) on a free rigid body
 * (n = 6 body-velocity coordinates, p = 10), whose metric is its spatial
 * inertia: noise-free data give the truth back, with and without the
 * physical constraint; the estimate does not move under random per-sample
 * changes of coordinates T_k while ordinary least squares does; the
 * optimality of the solution is checked against the objective by central
 * differences. The SDP oracle is tests/dmls_oracle_test.sh. */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include "bodies.h"

enum { NS = 40, NV = 6, P = 10 };

typedef struct {
	tagk_real Y[NS * NV * P], tau[NS * NV], M[NS * (P + 1) * NV * NV];
} data;

/* Sample k of a free body with inertias theta: random velocity and
 * acceleration; Y, tau (with relative noise) and the metric's parts. */
static void
make(tagk_rng *g, const tagk_real *theta, double noise, data *d)
{
	tagk_mb_model m;
	memset(&m, 0, sizeof(m));
	m.nb = 1;
	m.floating = 1;
	m.parent[0] = -1;
	m.rot[0][0] = m.rot[0][4] = m.rot[0][8] = 1;
	m.gravity[2] = (tagk_real)-9.81;
	for (int k = 0; k < NS; k++) {
		tagk_real R[9], p[3], qd[6], qdd[6];
		random_rotation(g, R);
		fill_gauss(g, 3, p);
		fill_gauss(g, 6, qd);
		fill_gauss(g, 6, qdd);
		tagk_mb_kin kin;
		assert_int_equal(tagk_mb_kinematics(&m, R, p, NULL, qd, qdd, &kin), TAGK_OK);
		tagk_mb_regressor(&kin, &m, d->Y + k * NV * P);
		tagk_mb_inverse_dynamics(&kin, &m, theta, d->tau + k * NV);
		for (int a = 0; a < NV; a++) {
			tagk_real e;
			fill_gauss(g, 1, &e);
			d->tau[k * NV + a] += (tagk_real)noise * e;
		}
		tagk_real *Mk = d->M + k * (P + 1) * NV * NV;
		memset(Mk, 0, sizeof(*Mk) * NV * NV);
		for (int j = 0; j < P; j++) {
			tagk_real u[P] = { 0 };
			u[j] = 1;
			tagk_mb_mass_matrix(&kin, &m, u, Mk + (1 + j) * NV * NV);
		}
	}
}

static tagk_status
solve(const data *d, int bodies, const tagk_real *start, tagk_real *pi)
{
	tagk_dmls_problem pb = { NS, NV, P, bodies, d->Y, d->tau, d->M, 0, 0, 0 };
	tagk_dmls_defaults(&pb);
	size_t len = tagk_dmls_workspace_len(NV, P);
	tagk_real *ws = canary_alloc(len);
	tagk_dmls_info info;
	tagk_status st = tagk_dmls_solve(&pb, start, pi, &info, ws, len);
	assert_true(canary_intact(ws, len));
	canary_free(ws);
	return st;
}

static void
ols(const data *d, tagk_real *pi)
{
	long double S[P * P] = { 0 }, v[P] = { 0 };
	for (int k = 0; k < NS; k++)
		for (int a = 0; a < NV; a++) {
			const tagk_real *y = d->Y + (k * NV + a) * P;
			for (int i = 0; i < P; i++) {
				v[i] += (long double)y[i] * d->tau[k * NV + a];
				for (int j = 0; j < P; j++)
					S[i * P + j] += (long double)y[i] * y[j];
			}
		}
	gauss_solve(P, S, v);
	for (int i = 0; i < P; i++)
		pi[i] = (tagk_real)v[i];
}

/* a start inside the domain: halfway between the truth and a unit body */
static void
start_of(const tagk_real *truth, tagk_real *s)
{
	tagk_real unit[P] = { 1, 0, 0, 0, 1, 0, 1, 0, 0, 1 };
	for (int i = 0; i < P; i++)
		s[i] = (truth[i] + unit[i]) / 2;
}

static void
test_noise_free_recovers_truth(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 4);
	double worst = 0;
	for (int t = 0; t < 5; t++) {
		tagk_real truth[P], s[P], pi[P];
		random_valid_body(&g, truth);
		static data d;
		make(&g, truth, 0, &d);
		start_of(truth, s);
		for (int bodies = 0; bodies <= 1; bodies++) {
			assert_int_equal(solve(&d, bodies, s, pi), TAGK_OK);
			double e = rel_err(P, pi, truth);
			worst = e > worst ? e : worst;
		}
	}
	print_message("noise-free: worst relative error %.2g\n", worst);
	assert_true(worst < (TOL_EXACT > 1e-8 ? 1e-2 : 1e-8));
}

static void
test_invariance(void **state)
{
	(void)state;
#ifdef TAGK_FLOAT
	skip(); /* 1e-10 needs double precision */
#endif
	tagk_rng g;
	tagk_rng_seed(&g, 8);
	double worst_d[2] = { 0, 0 }, least_ols = 1e300;
	for (int t = 0; t < 5; t++) {
		tagk_real truth[P], s[P], pi[2][P], pit[2][P], po[P], pot[P];
		random_valid_body(&g, truth);
		static data d, dt;
		make(&g, truth, 0.5, &d);
		start_of(truth, s);
		/* Y' = T^T Y, tau' = T^T tau, M' = T^T M T per sample, T random */
		dt = d;
		for (int k = 0; k < NS; k++) {
			tagk_real T[NV * NV];
			fill_gauss(&g, NV * NV, T);
			for (int a = 0; a < NV; a++)
				T[a * NV + a] += 3; /* well conditioned */
			for (int a = 0; a < NV; a++) {
				for (int j = 0; j < P; j++) {
					tagk_real x = 0;
					for (int c = 0; c < NV; c++)
						x += T[c * NV + a] * d.Y[(k * NV + c) * P + j];
					dt.Y[(k * NV + a) * P + j] = x;
				}
				tagk_real x = 0;
				for (int c = 0; c < NV; c++)
					x += T[c * NV + a] * d.tau[k * NV + c];
				dt.tau[k * NV + a] = x;
			}
			for (int j = 0; j <= P; j++) {
				const tagk_real *Mj = d.M + (k * (P + 1) + j) * NV * NV;
				tagk_real *Mo = dt.M + (k * (P + 1) + j) * NV * NV;
				for (int a = 0; a < NV; a++)
					for (int b = 0; b < NV; b++) {
						tagk_real x = 0;
						for (int c = 0; c < NV; c++)
							for (int e = 0; e < NV; e++)
								x += T[c * NV + a] * Mj[c * NV + e] * T[e * NV + b];
						Mo[a * NV + b] = x;
					}
			}
		}
		for (int bodies = 0; bodies <= 1; bodies++) {
			assert_int_equal(solve(&d, bodies, s, pi[bodies]), TAGK_OK);
			assert_int_equal(solve(&dt, bodies, s, pit[bodies]), TAGK_OK);
			double e = rel_err(P, pit[bodies], pi[bodies]);
			worst_d[bodies] = e > worst_d[bodies] ? e : worst_d[bodies];
		}
		ols(&d, po);
		ols(&dt, pot);
		double e = rel_err(P, pot, po);
		least_ols = e < least_ols ? e : least_ols;
	}
	print_message("per-sample coordinate changes: dmls moves %.2g (unconstrained), %.2g (physical); "
	    "OLS at least %.2g\n", worst_d[0], worst_d[1], least_ols);
	assert_true(worst_d[0] < 1e-10);
	assert_true(worst_d[1] < 1e-8);
	assert_true(least_ols > 1e-3);
}

/* The unconstrained solution is a stationary point of the objective
 * (central differences of tagk_dmls_objective), and no better point is
 * found nearby; faults are refused. */
static void
test_optimal_and_faults(void **state)
{
	(void)state;
#ifdef TAGK_FLOAT
	skip();
#endif
	tagk_rng g;
	tagk_rng_seed(&g, 15);
	tagk_real truth[P], s[P], pi[P];
	random_valid_body(&g, truth);
	static data d;
	make(&g, truth, 0.3, &d);
	start_of(truth, s);
	assert_int_equal(solve(&d, 0, s, pi), TAGK_OK);
	tagk_dmls_problem pb = { NS, NV, P, 0, d.Y, d.tau, d.M, 0, 0, 0 };
	tagk_dmls_defaults(&pb);
	size_t len = tagk_dmls_workspace_len(NV, P);
	tagk_real *ws = canary_alloc(len);
	double f0 = (double)tagk_dmls_objective(&pb, pi, ws, len), gn = 0;
	for (int i = 0; i < P; i++) {
		tagk_real a[P], b[P];
		memcpy(a, pi, sizeof(a));
		memcpy(b, pi, sizeof(b));
		double h = 1e-6 * (fabs((double)pi[i]) + 1e-3);
		a[i] += (tagk_real)h;
		b[i] -= (tagk_real)h;
		double gi = ((double)tagk_dmls_objective(&pb, a, ws, len) - (double)tagk_dmls_objective(&pb, b, ws, len))
		    / (2 * h);
		gn += gi * gi * ((double)pi[i] * pi[i] + 1e-6);
	}
	print_message("gradient at the solution (scaled): %.2g, objective %.6g\n", sqrt(gn), f0);
	assert_true(sqrt(gn) < 1e-5 * f0);
	/* a start outside the domain, NaN, a short workspace */
	tagk_real bad[P] = { -1, 0, 0, 0, 1, 0, 1, 0, 0, 1 };
	assert_int_equal(tagk_dmls_solve(&pb, bad, pi, NULL, ws, len), TAGK_ENOTPD);
	assert_int_equal(tagk_dmls_solve(&pb, s, pi, NULL, ws, len - 1), TAGK_ESPACE);
	d.tau[3] = (tagk_real)NAN;
	assert_int_equal(tagk_dmls_solve(&pb, s, pi, NULL, ws, len), TAGK_ENONFINITE);
	assert_true(canary_intact(ws, len));
	canary_free(ws);
}

/* nonneg: parameters kept positive by a log barrier. Scalar residuals with
 * a unit metric, two columns, pi_0 >= 0 and pi_1 free: the problem is
 * least squares with a sign constraint, whose solution is known in closed
 * form: the unconstrained normal equations' solution when its pi_0 > 0,
 * else pi_0 = 0 and pi_1 the one-column fit. Both cases, against it, and
 * the objective at most the duality gap above the closed form's. */
static void
test_nonneg_closed_form(void **state)
{
	(void)state;
#ifdef TAGK_FLOAT
	skip();
#endif
	enum { K = 30 };
	static tagk_real Y[K * 2], tau[K], M[K * 3];
	tagk_rng g;
	tagk_rng_seed(&g, 16);
	const double truth0[] = { 0.7, -0.5 };
	for (int c = 0; c < 2; c++) {
		double S00 = 0, S01 = 0, S11 = 0, r0 = 0, r1 = 0;
		fill_gauss(&g, K * 2, Y);
		for (int k = 0; k < K; k++) {
			tagk_real e;
			fill_gauss(&g, 1, &e);
			Y[2 * k] = (tagk_real)(fabs((double)Y[2 * k]) + 0.2); /* positively correlated columns */
			Y[2 * k + 1] = (tagk_real)(0.5 * (double)Y[2 * k] + (double)Y[2 * k + 1]);
			tau[k] = (tagk_real)(truth0[c] * (double)Y[2 * k] + 1.3 * (double)Y[2 * k + 1] + 0.05 * (double)e);
			M[3 * k] = 1;
			M[3 * k + 1] = M[3 * k + 2] = 0;
			double y0 = (double)Y[2 * k], y1 = (double)Y[2 * k + 1], t = (double)tau[k];
			S00 += y0 * y0, S01 += y0 * y1, S11 += y1 * y1, r0 += y0 * t, r1 += y1 * t;
		}
		double det = S00 * S11 - S01 * S01;
		double want[2] = { (S11 * r0 - S01 * r1) / det, (S00 * r1 - S01 * r0) / det };
		if (!(want[0] > 0))
			want[0] = 0, want[1] = r1 / S11;
		tagk_dmls_problem pb = { K, 1, 2, 0, Y, tau, M, 0, 0, 0 };
		tagk_dmls_defaults(&pb);
		pb.nonneg = 1;
		size_t len = tagk_dmls_workspace_len(1, 2);
		tagk_real *ws = canary_alloc(len), start[2] = { 1, 0 }, pi[2], w[2] = { (tagk_real)want[0], (tagk_real)want[1] };
		tagk_dmls_info info;
		assert_int_equal(tagk_dmls_solve(&pb, start, pi, &info, ws, len), TAGK_OK);
		pb.nonneg = 0;
		double f = (double)tagk_dmls_objective(&pb, pi, ws, len), fw = (double)tagk_dmls_objective(&pb, w, ws, len);
		print_message("truth pi_0 %g: pi (%.9f, %.9f), closed form (%.9f, %.9f), f - f* %.2g\n", truth0[c],
		    (double)pi[0], (double)pi[1], want[0], want[1], f - fw);
		assert_true(pi[0] > 0);
		assert_true(f - fw <= 1e-8 * (1 + fw));
		assert_true(fabs((double)pi[0] - want[0]) < 1e-4 && fabs((double)pi[1] - want[1]) < 1e-4);
		assert_true(canary_intact(ws, len));
		canary_free(ws);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_noise_free_recovers_truth),
		cmocka_unit_test(test_invariance),
		cmocka_unit_test(test_optimal_and_faults),
		cmocka_unit_test(test_nonneg_closed_form),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
