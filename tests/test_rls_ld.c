/* test_rls_ld.c: rls-ld and rls-l2 (lib/rls_ld.c) against independent
 * checks: the optimality of every step measured with the divergence of
 * metrics.c (eigenvalue-based, sharing no code with the Newton solver),
 * the information-form RLS of rls.c as alpha -> 0, rls.c with the same
 * prior for rls-l2, physical consistency of every estimate on streams
 * where plain RLS leaves the physical set, and fault handling. The NumPy
 * re-derivation is tests/rls_ld_oracle_test.sh. */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include "bodies.h"

enum { N = 10, M = 12 };

static tagk_real *
open_method(tagk_estimator *e, const char *name, const tagk_real *theta0, int m_max, double alpha,
    double beta, size_t *len)
{
	tagk_config c;
	tagk_config_defaults(&c, tagk_window_method(name), N, m_max);
	assert_non_null(c.method);
	c.theta0 = theta0;
	if (alpha > 0)
		assert_int_equal(tagk_config_set(&c, "alpha", alpha), TAGK_OK);
	if (beta > 0)
		assert_int_equal(tagk_config_set(&c, "beta", beta), TAGK_OK);
	*len = tagk_est_workspace_len(&c);
	assert_true(*len > 0);
	tagk_real *ws = canary_alloc(*len);
	assert_int_equal(tagk_est_init(e, &c, ws, *len), TAGK_OK);
	return ws;
}

/* A window of m rows A theta_true + noise, A Gaussian with column scales
 * that mimic a rigid body's regressor (mass 1, first moment 10, inertia 100). */
static void
make_window(tagk_rng *g, int m, const tagk_real *truth, double noise, tagk_real *A, tagk_real *b)
{
	fill_gauss(g, m * N, A);
	for (int i = 0; i < m; i++) {
		for (int j = 1; j < N; j++)
			A[i * N + j] *= j < 4 ? 10 : 100;
		tagk_real e;
		fill_gauss(g, 1, &e);
		b[i] = tagk_dot(N, A + i * N, truth) + (tagk_real)noise * e;
	}
}

/* f(theta) - f(theta_prev) of the update's objective, with D from metrics.c. */
static double
objective(const double *g0, const double *Om, const tagk_real *th, const tagk_real *prev, double alpha)
{
	double d[N], f = 0;
	for (int i = 0; i < N; i++)
		d[i] = (double)th[i] - (double)prev[i];
	for (int i = 0; i < N; i++) {
		f += g0[i] * d[i];
		for (int j = 0; j < N; j++)
			f += 0.5 * d[i] * Om[i * N + j] * d[j];
	}
	tagk_real D = tagk_logdet_divergence(th, prev);
	return D < 0 ? INFINITY : f + alpha * (double)D;
}

/* Every step of rls-ld is the minimiser of its objective: the gradient, by
 * central differences of the objective written from the definition, is
 * zero to the finite-difference accuracy, relative to the data gradient. */
static void
test_step_is_optimal(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 31);
	for (int trial = 0; trial < 6; trial++) {
		tagk_real truth[N], theta0[N], A[M * N], b[M];
		random_valid_body(&g, truth);
		random_valid_body(&g, theta0);
		const double alpha = trial % 2 ? 0.1 : 1e3;
		tagk_estimator e;
		size_t len;
		tagk_real *ws = open_method(&e, "rls-ld", theta0, M, alpha, 0, &len);
		double Om[N * N] = { 0 };
		double worst = 0;
		for (int k = 0; k < 20; k++) {
			int m = 1 + (k * 7 + trial) % M; /* short windows: the prior matters */
			make_window(&g, m, truth, 0.5, A, b);
			tagk_real prev[N], th[N];
			memcpy(prev, tagk_est_theta(&e), sizeof(prev));
			double g0[N] = { 0 };
			for (int r = 0; r < m; r++) {
				double res = -(double)b[r];
				for (int j = 0; j < N; j++)
					res += (double)A[r * N + j] * (double)prev[j];
				for (int i = 0; i < N; i++) {
					g0[i] += (double)A[r * N + i] * res;
					for (int j = 0; j < N; j++)
						Om[i * N + j] += (double)A[r * N + i] * (double)A[r * N + j];
				}
			}
			assert_int_equal(tagk_est_update(&e, A, b, m, th), TAGK_OK);
			assert_true(tagk_consistent(th, 0));
			double gn = 0, g0n = 0;
			for (int i = 0; i < N; i++) {
				tagk_real tp[N], tm[N];
				memcpy(tp, th, sizeof(tp));
				memcpy(tm, th, sizeof(tm));
				double h = 1e-6 * (fabs((double)th[i]) + 1e-3);
				tp[i] += (tagk_real)h;
				tm[i] -= (tagk_real)h;
				double gi = (objective(g0, Om, tp, prev, alpha) - objective(g0, Om, tm, prev, alpha))
				    / (double)(tp[i] - tm[i]);
				/* compare in the scale of each coordinate's step */
				double s = fabs((double)th[i]) + 1e-3;
				gn += gi * s * gi * s;
				g0n += g0[i] * s * g0[i] * s;
			}
			double rel = sqrt(gn / (g0n > 0 ? g0n : 1));
			worst = rel > worst ? rel : worst;
		}
		print_message("alpha %g: worst relative gradient at the step %.2g\n", alpha, worst);
#ifdef TAGK_FLOAT
		(void)worst; /* float cannot resolve central differences at h = 1e-6 */
#else
		if (!(worst < 1e-5))
			fail_msg("alpha %g: the step is not a minimiser (relative gradient %g)", alpha, worst);
#endif
		assert_true(canary_intact(ws, len));
		canary_free(ws);
	}
}

/* As alpha -> 0, rls-ld is the information-form RLS (rls.c) with an
 * uninformative prior, update for update, while the least-squares path
 * stays physical (tall windows, small noise, a well-conditioned truth). */
static void
test_alpha_zero_is_info_rls(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 5);
	tagk_real truth[N], theta0[N], A[M * N], b[M];
	random_valid_body(&g, truth);
	random_valid_body(&g, theta0);
	tagk_estimator e;
	size_t len;
	tagk_real *ws = open_method(&e, "rls-ld", theta0, M, 1e-13, 0, &len);
	tagk_rls_config rc;
	tagk_rls_defaults(&rc, 1);
	rc.p0 = (tagk_real)1e13;
	rc.form = TAGK_RLS_INFO;
	rc.outlier = 0;
	tagk_rls r;
	size_t rlen = tagk_rls_workspace_len(&rc, N, M);
	tagk_real *rws = canary_alloc(rlen);
	assert_int_equal(tagk_rls_init(&r, &rc, N, M, theta0, rws, rlen), TAGK_OK);
	double worst = 0;
	for (int k = 0; k < 30; k++) {
		make_window(&g, M, truth, 1e-3, A, b);
		tagk_real th[N];
		assert_int_equal(tagk_est_update(&e, A, b, M, th), TAGK_OK);
		assert_int_equal(tagk_rls_update(&r, A, b, M), TAGK_OK);
		assert_true(tagk_consistent(r.theta, 0)); /* else the comparison means nothing */
		double d = rel_err(N, th, r.theta);
		worst = d > worst ? d : worst;
	}
	print_message("alpha 1e-13 against info-form RLS: worst relative difference %.2g\n", worst);
	if (!(worst < (TOL_EXACT > 1e-8 ? TOL_LOOSE : 1e-9)))
		fail_msg("rls-ld with alpha -> 0 differs from RLS by %g", worst);
	canary_free(ws);
	canary_free(rws);
}

/* rls-l2 is RLS with P0 = I / alpha (beta 1: psi is empty here anyway). */
static void
test_l2_is_rls_with_prior(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 8);
	tagk_real truth[N], theta0[N], A[M * N], b[M];
	random_valid_body(&g, truth);
	random_valid_body(&g, theta0);
	tagk_estimator e;
	size_t len;
	tagk_real *ws = open_method(&e, "rls-l2", theta0, M, 50, 0, &len);
	tagk_rls_config rc;
	tagk_rls_defaults(&rc, 1);
	rc.p0 = (tagk_real)(1.0 / 50);
	rc.form = TAGK_RLS_PAPER; /* the other form: covariance, not information */
	rc.outlier = 0;
	tagk_rls r;
	size_t rlen = tagk_rls_workspace_len(&rc, N, M);
	tagk_real *rws = canary_alloc(rlen);
	assert_int_equal(tagk_rls_init(&r, &rc, N, M, theta0, rws, rlen), TAGK_OK);
	double worst = 0;
	for (int k = 0; k < 30; k++) {
		int m = 1 + k % M;
		make_window(&g, m, truth, 0.3, A, b);
		tagk_real th[N];
		assert_int_equal(tagk_est_update(&e, A, b, m, th), TAGK_OK);
		assert_int_equal(tagk_rls_update(&r, A, b, m), TAGK_OK);
		double d = rel_err(N, th, r.theta);
		worst = d > worst ? d : worst;
	}
	print_message("rls-l2 against covariance-form RLS with P0 = I / alpha: %.2g\n", worst);
	if (!(worst < TOL_LOOSE))
		fail_msg("rls-l2 differs from RLS with its prior by %g", worst);
	canary_free(ws);
	canary_free(rws);
}

/* A near point mass under heavy noise: RLS leaves the physical set, rls-ld
 * never does (its estimates are consistent by construction). */
static void
test_always_physical(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 77);
	tagk_real truth[N] = { 1, 0.1, -0.05, 0.02, 0, 0, 0, 0, 0, 0 }, theta0[N], A[M * N], b[M];
	/* a point mass at c = (0.1, -0.05, 0.02) with a tiny spread */
	tagk_real c[3] = { 0.1, -0.05, 0.02 }, Ic[9] = { 1e-4, 0, 0, 0, 1e-4, 0, 0, 0, 1e-4 };
	tagk_theta_from_body(1, c, Ic, truth);
	random_valid_body(&g, theta0);
	tagk_estimator e, r;
	size_t len, rlen;
	tagk_real *ws = open_method(&e, "rls-ld", theta0, M, 0, 0, &len);
	tagk_config rc;
	tagk_config_defaults(&rc, tagk_window_method("rls"), N, M);
	rc.theta0 = theta0;
	rlen = tagk_est_workspace_len(&rc);
	tagk_real *rws = canary_alloc(rlen);
	assert_int_equal(tagk_est_init(&r, &rc, rws, rlen), TAGK_OK);
	int rls_out = 0;
	for (int k = 0; k < 200; k++) {
		int m = 1 + k % 4;
		make_window(&g, m, truth, 5, A, b);
		tagk_real th[N], tr[N];
		assert_int_equal(tagk_est_update(&e, A, b, m, th), TAGK_OK);
		if (tagk_est_update(&r, A, b, m, tr) == TAGK_OK && !tagk_consistent(tr, 0))
			rls_out++;
		if (!tagk_consistent(th, 0))
			fail_msg("update %d: rls-ld emitted a non-physical estimate", k);
	}
	print_message("RLS left the physical set in %d of 200 updates; rls-ld in none\n", rls_out);
	assert_true(rls_out > 0); /* the stream does test the claim */
	assert_true(canary_intact(ws, len));
	canary_free(ws);
	canary_free(rws);
}

/* Faults: a starting estimate that is not physical is refused with
 * TAGK_ENOTPD, none at all likewise; a bad window leaves the state as it was. */
static void
test_faults(void **state)
{
	(void)state;
	tagk_config c;
	tagk_config_defaults(&c, tagk_window_method("rls-ld"), N, M);
	size_t len = tagk_est_workspace_len(&c);
	tagk_real *ws = canary_alloc(len);
	tagk_estimator e;
	assert_int_equal(tagk_est_init(&e, &c, ws, len), TAGK_ENOTPD);
	tagk_real bad[N] = { 1, 0, 0, 0, -1, 0, 1, 0, 0, 1 };
	c.theta0 = bad;
	assert_int_equal(tagk_est_init(&e, &c, ws, len), TAGK_ENOTPD);
	assert_int_equal(tagk_est_init(&e, &c, ws, len - 1), TAGK_ESPACE);
	assert_int_equal(tagk_config_set(&c, "alpha", 0), TAGK_EINVAL);
	assert_int_equal(tagk_config_set(&c, "lambda", 1.5), TAGK_EINVAL);
	assert_int_equal(tagk_config_set(&c, "bodies", 2), TAGK_OK);
	assert_int_equal(tagk_est_workspace_len(&c), 0); /* 20 parameters in 10 */
	tagk_config_set(&c, "bodies", 1);
	tagk_rng g;
	tagk_rng_seed(&g, 2);
	tagk_real theta0[N], truth[N], A[M * N], b[M];
	random_valid_body(&g, theta0);
	random_valid_body(&g, truth);
	c.theta0 = theta0;
	assert_int_equal(tagk_est_init(&e, &c, ws, len), TAGK_OK);
	make_window(&g, 4, truth, 0.1, A, b);
	assert_int_equal(tagk_est_update(&e, A, b, 4, NULL), TAGK_OK);
	tagk_real before[N];
	memcpy(before, tagk_est_theta(&e), sizeof(before));
	b[2] = NAN;
	assert_int_equal(tagk_est_update(&e, A, b, 4, NULL), TAGK_ENONFINITE);
	assert_int_equal(tagk_est_update(&e, A, b, M + 1, NULL), TAGK_EINVAL);
	assert_memory_equal(before, tagk_est_theta(&e), sizeof(before));
	tagk_est_reset(&e);
	assert_memory_equal(theta0, tagk_est_theta(&e), sizeof(theta0));
	assert_true(canary_intact(ws, len));
	canary_free(ws);
}

/* Two extra parameters psi (friction, offsets) behind one body, rows that
 * see only psi: the body's gradient is zero, so its step is zero, and psi's
 * step is the ridge solution with weight alpha beta, in closed form:
 *   Delta_psi = (A^T A + alpha beta I)^-1 A^T (b - A psi0).
 * rls-l2's first step is the same (prior information alpha beta on psi).
 * beta != 1 here: beta 1 would hide a term that forgets it. */
static void
test_psi_ridge_closed_form(void **state)
{
	(void)state;
	enum { P = N + 2, R = 5 };
	const char *const names[] = { "rls-ld", "rls-l2" };
	const double betas[] = { 0.25, 7 };
	tagk_rng g;
	tagk_rng_seed(&g, 77);
	for (int k = 0; k < 4; k++) {
		tagk_config c;
		tagk_config_defaults(&c, tagk_window_method(names[k % 2]), P, R);
		tagk_real theta0[P], A[R * P], b[R], th[P];
		random_valid_body(&g, theta0);
		theta0[N] = (tagk_real)0.3;
		theta0[N + 1] = (tagk_real)-0.2;
		c.theta0 = theta0;
		const double alpha = 2, beta = betas[k / 2];
		assert_int_equal(tagk_config_set(&c, "alpha", alpha), TAGK_OK);
		assert_int_equal(tagk_config_set(&c, "beta", beta), TAGK_OK);
		assert_int_equal(tagk_config_set(&c, "bodies", 1), TAGK_OK);
		size_t len = tagk_est_workspace_len(&c);
		assert_true(len > 0);
		tagk_real *ws = canary_alloc(len);
		tagk_estimator e;
		assert_int_equal(tagk_est_init(&e, &c, ws, len), TAGK_OK);
		memset(A, 0, sizeof(A));
		double G[4] = { 0 }, r[2] = { 0 };
		for (int i = 0; i < R; i++) {
			tagk_real x[2];
			fill_gauss(&g, 2, x);
			A[i * P + N] = x[0];
			A[i * P + N + 1] = x[1];
			b[i] = (tagk_real)(1.5 * (double)x[0] - 0.7 * (double)x[1] + 0.1 * i);
			double res = (double)b[i] - (double)x[0] * (double)theta0[N] - (double)x[1] * (double)theta0[N + 1];
			for (int a = 0; a < 2; a++) {
				r[a] += (double)x[a] * res;
				for (int bb = 0; bb < 2; bb++)
					G[a * 2 + bb] += (double)x[a] * (double)x[bb];
			}
		}
		G[0] += alpha * beta;
		G[3] += alpha * beta;
		double det = G[0] * G[3] - G[1] * G[2];
		double d0 = (G[3] * r[0] - G[1] * r[1]) / det, d1 = (G[0] * r[1] - G[2] * r[0]) / det;
		assert_int_equal(tagk_est_update(&e, A, b, R, th), TAGK_OK);
		print_message("%s beta %g: psi step (%.9f, %.9f), closed form (%.9f, %.9f)\n", names[k % 2], beta,
		    (double)th[N] - (double)theta0[N], (double)th[N + 1] - (double)theta0[N + 1], d0, d1);
		const double tol = sizeof(tagk_real) < sizeof(double) ? 1e-4 : 1e-9;
		for (int i = 0; i < N; i++)
			assert_true(fabs((double)th[i] - (double)theta0[i]) <= tol * (fabs((double)theta0[i]) + 1));
		assert_true(fabs((double)th[N] - (double)theta0[N] - d0) < 1e3 * tol * (fabs(d0) + 1e-3));
		assert_true(fabs((double)th[N + 1] - (double)theta0[N + 1] - d1) < 1e3 * tol * (fabs(d1) + 1e-3));
		assert_true(canary_intact(ws, len));
		canary_free(ws);
	}
}

/* rls-ld with rows that see the body and psi together: the step's optimality
 * in psi is linear (the divergence does not involve psi),
 *   g0_psi + (Omega Delta)_psi + alpha beta Delta_psi = 0,
 * checked from theta' and theta alone, window after window, beta != 1. */
static void
test_psi_stationary(void **state)
{
	(void)state;
	enum { P = N + 2, R = 6 };
	tagk_rng g;
	tagk_rng_seed(&g, 78);
	for (int k = 0; k < 2; k++) {
		const double alpha = k ? 50 : 0.5, beta = k ? 0.2 : 9;
		tagk_config c;
		tagk_config_defaults(&c, tagk_window_method("rls-ld"), P, R);
		tagk_real theta0[P], truth[P], A[R * P], b[R], th[P], prev[P];
		random_valid_body(&g, theta0);
		random_valid_body(&g, truth);
		theta0[N] = theta0[N + 1] = 0;
		truth[N] = (tagk_real)0.8;
		truth[N + 1] = (tagk_real)-0.5;
		c.theta0 = theta0;
		assert_int_equal(tagk_config_set(&c, "alpha", alpha), TAGK_OK);
		assert_int_equal(tagk_config_set(&c, "beta", beta), TAGK_OK);
		assert_int_equal(tagk_config_set(&c, "bodies", 1), TAGK_OK);
		size_t len = tagk_est_workspace_len(&c);
		tagk_real *ws = canary_alloc(len);
		tagk_estimator e;
		assert_int_equal(tagk_est_init(&e, &c, ws, len), TAGK_OK);
		double Om[P * P] = { 0 }, worst = 0;
		for (int w = 0; w < 8; w++) {
			fill_gauss(&g, R * P, A);
			for (int i = 0; i < R; i++) {
				for (int j = 1; j < N; j++)
					A[i * P + j] *= j < 4 ? 10 : 100;
				tagk_real n1;
				fill_gauss(&g, 1, &n1);
				b[i] = tagk_dot(P, A + i * P, truth) + (tagk_real)0.3 * n1;
			}
			memcpy(prev, tagk_est_theta(&e), sizeof(prev));
			double g0[P] = { 0 };
			for (int r = 0; r < R; r++) {
				double res = -(double)b[r];
				for (int j = 0; j < P; j++)
					res += (double)A[r * P + j] * (double)prev[j];
				for (int i = 0; i < P; i++) {
					g0[i] += (double)A[r * P + i] * res;
					for (int j = 0; j < P; j++)
						Om[i * P + j] += (double)A[r * P + i] * (double)A[r * P + j];
				}
			}
			assert_int_equal(tagk_est_update(&e, A, b, R, th), TAGK_OK);
			for (int i = N; i < P; i++) {
				double gr = g0[i] + alpha * beta * ((double)th[i] - (double)prev[i]);
				for (int j = 0; j < P; j++)
					gr += Om[i * P + j] * ((double)th[j] - (double)prev[j]);
				double rel = fabs(gr) / (fabs(g0[i]) + 1e-12);
				worst = rel > worst ? rel : worst;
			}
		}
		print_message("alpha %g beta %g: worst relative psi gradient at the step %.2g\n", alpha, beta, worst);
		assert_true(worst < (sizeof(tagk_real) < sizeof(double) ? 1e-2 : 1e-6));
		assert_true(canary_intact(ws, len));
		canary_free(ws);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step_is_optimal),
		cmocka_unit_test(test_alpha_zero_is_info_rls),
		cmocka_unit_test(test_l2_is_rls_with_prior),
		cmocka_unit_test(test_always_physical),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_psi_ridge_closed_form),
		cmocka_unit_test(test_psi_stationary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
