/* test_rls.c: block RLS against batch least squares, and its fault handling. */
#include <math.h>
#include <string.h>
#include "testutil.h"

static tagk_real *
open_rls(tagk_rls *r, tagk_real lambda, tagk_real p0, tagk_rls_form_t form, int n, int m_max,
    size_t *len)
{
	tagk_rls_config c;
	tagk_rls_defaults(&c, lambda);
	c.p0 = p0;
	c.form = form;
	*len = tagk_rls_workspace_len(&c, n, m_max);
	tagk_real *ws = canary_alloc(*len);
	assert_int_equal(tagk_rls_init(r, &c, n, m_max, NULL, ws, *len), TAGK_OK);
	return ws;
}

/* lambda = 1: after K windows, theta = argmin ||A x - b||^2 + ||x||^2 / p0 over
 * every row seen, for both forms and for short (m < n) and tall (m > n) windows. */
static void
test_lambda1_is_batch_ls(void **state)
{
	(void)state;
	const int shapes[][2] = { { 30, 10 }, { 4, 12 }, { 12, 12 }, { 1, 6 } };
	for (int sh = 0; sh < 4; sh++) {
		int m = shapes[sh][0], n = shapes[sh][1], K = 300 / m + 2;
		for (int form = TAGK_RLS_PAPER; form <= TAGK_RLS_INFO; form++) {
			tagk_rng g;
			tagk_rng_seed(&g, 10 + (uint64_t)sh);
			tagk_rls r;
			size_t len;
			tagk_real *ws = open_rls(&r, 1, (tagk_real)1e3, (tagk_rls_form_t)form, n, m, &len);
			static tagk_real Aall[400 * 12], ball[400];
			int rows = 0;
			for (int k = 0; k < K; k++) {
				tagk_real *A = Aall + rows * n, *b = ball + rows;
				fill_gauss(&g, m * n, A);
				fill_gauss(&g, m, b);
				rows += m;
				assert_int_equal(tagk_rls_update(&r, A, b, m), TAGK_OK);
			}
			double x[12];
			oracle_lsq(rows, n, Aall, ball, NULL, 1e-3, NULL, x);
			double e = rel_err_d(n, r.theta, x);
			/* The covariance downdate P - W^T W cancels as P falls from
			 * p0 = 1e3 to about 1 / rows: in float that costs about
			 * eps * 1e3 * rows ~ 4e-2 in the worst case, and the
			 * information form does not suffer it. */
			double tol = TOL_EXACT * 10;
#ifdef TAGK_FLOAT
			if (r.form == TAGK_RLS_PAPER)
				tol = 2e-2;
#endif
			print_message("lambda 1, m=%d n=%d, %s form: error vs batch LS %.2g\n",
			    m, n, tagk_rls_form_name(r.form), e);
			if (!(e < tol))
				fail_msg("m=%d n=%d form=%s: error %g", m, n,
				    tagk_rls_form_name(r.form), e);
			assert_true(canary_intact(ws, len));
			canary_free(ws);
		}
	}
}

/* With forgetting, the paper form is exactly weighted least squares with
 * weights lambda^(K-1-k) on window k and prior weight lambda^K / p0. The
 * information form is checked against its recursion written out plainly
 * (Lambda += ..., theta += Lambda^-1 A^T e, in long double with Gaussian
 * elimination), and against the paper form, from which it may differ only
 * by its (1 - lambda) / p0 regulariser. */
static void
test_forgetting_is_weighted_ls(void **state)
{
	(void)state;
	enum { m = 6, n = 5, K = 40 };
	const double lam = 0.9, p0 = 100;
	tagk_real theta_form[2][n];
	for (int form = TAGK_RLS_PAPER; form <= TAGK_RLS_INFO; form++) {
		tagk_rng g;
		tagk_rng_seed(&g, 20);
		tagk_rls r;
		size_t len;
		tagk_real *ws = open_rls(&r, (tagk_real)lam, (tagk_real)p0, (tagk_rls_form_t)form, n, m, &len);
		static tagk_real Aall[K * m * n], ball[K * m];
		double wt[K * m];
		long double Lam[n * n] = { 0 }, th[n] = { 0 };
		for (int i = 0; i < n; i++)
			Lam[i * n + i] = 1 / (long double)p0;
		for (int k = 0; k < K; k++) {
			tagk_real *A = Aall + k * m * n, *b = ball + k * m;
			fill_gauss(&g, m * n, A);
			fill_gauss(&g, m, b);
			assert_int_equal(tagk_rls_update(&r, A, b, m), TAGK_OK);
			for (int i = 0; i < m; i++)
				wt[k * m + i] = pow(lam, K - 1 - k);
			/* plain recursion of the information form */
			long double S[n * n], v[n] = { 0 }, e[m];
			for (int i = 0; i < m; i++) {
				e[i] = b[i];
				for (int j = 0; j < n; j++)
					e[i] -= (long double)A[i * n + j] * th[j];
			}
			for (int i = 0; i < n; i++)
				for (int j = 0; j < n; j++) {
					long double s = lam * Lam[i * n + j] + (i == j ? (1 - lam) / p0 : 0);
					for (int p = 0; p < m; p++)
						s += (long double)A[p * n + i] * A[p * n + j];
					Lam[i * n + j] = S[i * n + j] = s;
				}
			for (int p = 0; p < m; p++)
				for (int j = 0; j < n; j++)
					v[j] += (long double)A[p * n + j] * e[p];
			gauss_solve(n, S, v);
			for (int j = 0; j < n; j++)
				th[j] += v[j];
		}
		double x[n];
		if (form == TAGK_RLS_PAPER) {
			oracle_lsq(K * m, n, Aall, ball, wt, pow(lam, K) / p0, NULL, x);
		} else {
			for (int j = 0; j < n; j++)
				x[j] = (double)th[j];
		}
		double e = rel_err_d(n, r.theta, x);
		if (!(e < TOL_EXACT * 10))
			fail_msg("form %s: error %g", tagk_rls_form_name(r.form), e);
		memcpy(theta_form[form - TAGK_RLS_PAPER], r.theta, sizeof(r.theta[0]) * n);
		canary_free(ws);
	}
	double d = rel_err(n, theta_form[1], theta_form[0]);
	print_message("paper vs info form with lambda 0.9, p0 100: relative difference %.3g\n", d);
	assert_true(d < 1e-2);
}

/* Wind-up: lambda = 0.96 and windows that excite one direction only, for
 * thousands of updates. P stays bounded, finite and positive definite. */
static void
test_windup_bounded(void **state)
{
	(void)state;
	enum { m = 6, n = 10 };
	for (int form = TAGK_RLS_PAPER; form <= TAGK_RLS_INFO; form++) {
		tagk_rls r;
		size_t len;
		tagk_real *ws = open_rls(&r, (tagk_real)0.96, 1000, (tagk_rls_form_t)form, n, m, &len);
		tagk_real A[m * n] = { 0 }, b[m];
		for (int i = 0; i < m; i++) {
			A[i * n] = 1; /* only the mass column is excited */
			b[i] = (tagk_real)0.035;
		}
		for (int k = 0; k < 5000; k++)
			assert_int_equal(tagk_rls_update(&r, A, b, m), TAGK_OK);
		assert_true(tagk_all_finite(n, r.theta));
		assert_true(tagk_all_finite(n * n, r.P));
		assert_true(fabs((double)r.theta[0] - 0.035) < TOL_LOOSE);
		tagk_real L[n * n], w[n], V[n * n], sc[n * n];
		memcpy(L, r.P, sizeof(L));
		assert_int_equal(tagk_cholesky(n, L), TAGK_OK);
		assert_int_equal(tagk_symeig(n, r.P, w, V, sc), TAGK_OK);
		if (r.form == TAGK_RLS_PAPER) {
			/* the guard: trace(P) <= trace(P0) */
			double tr = 0;
			for (int i = 0; i < n; i++)
				tr += (double)r.P[i * n + i];
			assert_true(tr <= 1000.0 * n * (1 + 1e-5));
		} else {
			/* the information is >= P0^-1, so P <= P0 in every direction */
			assert_true((double)w[0] >= 1e-3 * (1 - 1e-4));
		}
		canary_free(ws);
	}
}

static void
test_faults_leave_state(void **state)
{
	(void)state;
	enum { m = 8, n = 4 };
	for (int form = TAGK_RLS_PAPER; form <= TAGK_RLS_INFO; form++) {
		tagk_rng g;
		tagk_rng_seed(&g, 30);
		tagk_rls r;
		size_t len;
		tagk_real *ws = open_rls(&r, (tagk_real)0.99, 1000, (tagk_rls_form_t)form, n, m, &len);
		tagk_real A[m * n], b[m], th[n], P[n * n];
		fill_gauss(&g, m * n, A);
		fill_gauss(&g, m, b);
		assert_int_equal(tagk_rls_update(&r, A, b, m), TAGK_OK);
		memcpy(th, r.theta, sizeof(th));
		memcpy(P, r.P, sizeof(P));
		tagk_real Z[m * n] = { 0 };
		assert_int_equal(tagk_rls_update(&r, Z, b, m), TAGK_EZERO);
		A[3] = NAN;
		assert_int_equal(tagk_rls_update(&r, A, b, m), TAGK_ENONFINITE);
		A[3] = 0;
		b[2] = INFINITY;
		assert_int_equal(tagk_rls_update(&r, A, b, m), TAGK_ENONFINITE);
		b[2] = 0;
		assert_int_equal(tagk_rls_update(&r, A, b, m + 1), TAGK_EINVAL);
		/* A covariance that is no longer positive definite is refused. */
		r.P[0] = -r.P[0];
		r.P[n + 1] = -r.P[n + 1];
		tagk_real Pbad[n * n];
		memcpy(Pbad, r.P, sizeof(Pbad));
		tagk_status st = tagk_rls_update(&r, A, b, m);
		assert_true(st == TAGK_ENOTPD);
		assert_memory_equal(r.P, Pbad, sizeof(Pbad));
		memcpy(r.P, P, sizeof(P));
		assert_memory_equal(r.theta, th, sizeof(th));
		assert_true(canary_intact(ws, len));
		canary_free(ws);
	}
}

/* Rank-deficient and ill-conditioned windows: finite, no error. */
static void
test_degenerate_windows(void **state)
{
	(void)state;
	enum { m = 30, n = 10 };
	for (int form = TAGK_RLS_PAPER; form <= TAGK_RLS_INFO; form++) {
		tagk_rng g;
		tagk_rng_seed(&g, 40);
		tagk_rls r;
		size_t len;
		tagk_real *ws = open_rls(&r, (tagk_real)0.96, 1000, (tagk_rls_form_t)form, n, m, &len);
		tagk_real A[m * n], b[m], B[m * 2], C[2 * n];
		for (int k = 0; k < 200; k++) {
			fill_gauss(&g, m * 2, B);
			fill_gauss(&g, 2 * n, C);
			tagk_matmul(m, 2, n, B, C, A);
			fill_gauss(&g, m, b);
			assert_int_equal(tagk_rls_update(&r, A, b, m), TAGK_OK);
			fill_gauss(&g, m * n, A);
			for (int i = 0; i < m; i++)
				for (int j = 0; j < n; j++)
					A[i * n + j] *= (tagk_real)pow(10.0, -6.0 * j / (n - 1));
			assert_int_equal(tagk_rls_update(&r, A, b, m), TAGK_OK);
			assert_true(tagk_all_finite(n, r.theta));
		}
		canary_free(ws);
	}
}

static void
test_auto_form(void **state)
{
	(void)state;
	/* AUTO follows the operation counts: info for the paper's shapes,
	 * paper for single-row updates of many parameters. */
	assert_int_equal(tagk_rls_pick_form(TAGK_RLS_AUTO, 10, 30), TAGK_RLS_INFO);
	assert_int_equal(tagk_rls_pick_form(TAGK_RLS_AUTO, 120, 30), TAGK_RLS_INFO);
	assert_int_equal(tagk_rls_pick_form(TAGK_RLS_AUTO, 40, 1), TAGK_RLS_PAPER);
	assert_int_equal(tagk_rls_pick_form(TAGK_RLS_AUTO, 300, 30), TAGK_RLS_PAPER);
	assert_true(tagk_rls_cost(TAGK_RLS_INFO, 10, 30) == 30 * 100 / 2.0 + 1000 / 6.0);
	assert_int_equal(tagk_rls_pick_form(TAGK_RLS_PAPER, 10, 30), TAGK_RLS_PAPER);
	tagk_rls_config c;
	tagk_rls r;
	tagk_real ws[8];
	tagk_rls_defaults(&c, 0);
	assert_int_equal(tagk_rls_init(&r, &c, 1, 1, NULL, ws, 8), TAGK_EINVAL);
	tagk_rls_defaults(&c, (tagk_real)1.5);
	assert_int_equal(tagk_rls_init(&r, &c, 1, 1, NULL, ws, 8), TAGK_EINVAL);
	tagk_rls_defaults(&c, 1);
	assert_int_equal(tagk_rls_init(&r, &c, 1, 1, NULL, ws, 1), TAGK_ESPACE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lambda1_is_batch_ls),
		cmocka_unit_test(test_forgetting_is_weighted_ls),
		cmocka_unit_test(test_windup_bounded),
		cmocka_unit_test(test_faults_leave_state),
		cmocka_unit_test(test_degenerate_windows),
		cmocka_unit_test(test_auto_form),
	};
	return cmocka_run_group_tests_name("rls", tests, NULL, NULL);
}
