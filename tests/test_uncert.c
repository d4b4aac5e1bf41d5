/* test_uncert.c: the standard deviations of uncert.h against the spread
 * of the estimates themselves over many independent noise draws (Monte
 * Carlo): for RLS without and with forgetting and for the KF, with one
 * noise level for every row and with two kinds of row whose noise differs
 * by 30 times (the force and torque rows of a rigid body). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "testutil.h"

enum { N = 4, M = 6, WINDOWS = 150, TRIALS = 600 };

static const tagk_real th_true[N] = { 0.5, -1, 2, 0.25 };

/* One trial: estimator of window method `name`, the windows of seed,
 * noise sd[kind] for rows of kind i % 2; the final estimate into est and
 * uncert's sd into sd. */
static void
trial(const char *name, uint64_t seed, const double sdk[2], tagk_real *est, tagk_real *sd)
{
	const tagk_method *mt = tagk_window_method(name);
	assert_non_null(mt);
	tagk_config cfg;
	tagk_config_defaults(&cfg, mt, N, M);
	size_t len = tagk_est_workspace_len(&cfg);
	tagk_real *ws = canary_alloc(len);
	tagk_estimator e;
	assert_int_equal(tagk_est_init(&e, &cfg, ws, len), TAGK_OK);
	tagk_real P0[N * N], r, scratch[N * N];
	assert_int_equal(tagk_est_posterior(&e, P0, &r, scratch), TAGK_OK);
	size_t ulen = tagk_uncert_workspace_len(N, M);
	tagk_real *uws = canary_alloc(ulen);
	tagk_uncert u;
	assert_int_equal(tagk_uncert_init(&u, N, M, P0, 0, uws, ulen), TAGK_OK);
	tagk_rng g;
	tagk_rng_seed(&g, seed);
	int kind[M];
	for (int i = 0; i < M; i++)
		kind[i] = i % 2;
	for (int k = 0; k < WINDOWS; k++) {
		tagk_real A[M * N], b[M], P[N * N];
		for (int i = 0; i < M * N; i++)
			A[i] = tagk_rng_gaussian(&g);
		for (int i = 0; i < M; i++) {
			b[i] = (tagk_real)(sdk[kind[i]] * (double)tagk_rng_gaussian(&g));
			for (int j = 0; j < N; j++)
				b[i] += A[i * N + j] * th_true[j];
		}
		tagk_uncert_observe(&u, M, A, b, kind, tagk_est_theta(&e));
		assert_int_equal(tagk_est_update(&e, A, b, M, NULL), TAGK_OK);
		assert_int_equal(tagk_est_posterior(&e, P, &r, scratch), TAGK_OK);
		tagk_uncert_propagate(&u, M, A, b, kind, P, r, tagk_est_theta(&e));
	}
	memcpy(est, tagk_est_theta(&e), sizeof(*est) * N);
	tagk_uncert_sd(&u, sd);
	assert_true(canary_intact(ws, len) && canary_intact(uws, ulen));
	canary_free(ws);
	canary_free(uws);
}

/* Over TRIALS draws, each parameter's predicted variance (the mean over
 * the trials: a short-memory filter's varies from draw to draw with the
 * last windows' conditioning, so the mean of sd would sit below the RMS
 * by Jensen's inequality) against the squared error of the estimates; and
 * the share of 95 % intervals that hold the truth. */
static void
check(const char *name, const double sdk[2])
{
	double sum2[N] = { 0 }, pred[N] = { 0 };
	long inside = 0;
	for (int t = 0; t < TRIALS; t++) {
		tagk_real est[N], sd[N];
		trial(name, 1000 + (uint64_t)t, sdk, est, sd);
		for (int j = 0; j < N; j++) {
			double d = (double)est[j] - (double)th_true[j];
			sum2[j] += d * d;
			pred[j] += (double)sd[j] * (double)sd[j];
			inside += fabs(d) <= 1.96 * (double)sd[j];
		}
	}
	for (int j = 0; j < N; j++) {
		double actual = sqrt(sum2[j] / TRIALS), p = sqrt(pred[j] / TRIALS);
		print_message("%s, noise %g / %g: parameter %d: predicted sd %.4g, actual %.4g (ratio %.3f)\n", name,
		    sdk[0], sdk[1], j, p, actual, p / actual);
		/* 600 draws: the RMS error itself is known to about 3 % */
		assert_true(p / actual > 0.85 && p / actual < 1.15);
	}
	double cover = (double)inside / (TRIALS * N);
	print_message("%s: 95 %% intervals hold the truth in %.1f %%\n", name, 100 * cover);
	assert_true(cover > 0.92 && cover < 0.975);
}

static void
test_rls(void **state)
{
	(void)state;
	const double one[2] = { 0.05, 0.05 }, two[2] = { 0.3, 0.01 };
	check("rls", one);
	check("rls", two);
	check("rls-low", one);
	check("rls-low", two);
}

static void
test_kf(void **state)
{
	(void)state;
	const double one[2] = { 0.05, 0.05 }, two[2] = { 0.3, 0.01 };
	check("kf-low", one);
	check("kf-high", two);
}

/* uncert's E against an explicit sum for a batch with no forgetting: with
 * E_0 = 0 (an infinitely confident prior is not what filters do, so the
 * equivalent: a huge P0 whose influence vanishes), RLS's E after K windows
 * is s^2 (sum A^T A)^-1 for one noise variance s^2 known exactly. */
static void
test_batch_identity(void **state)
{
	(void)state;
	double sdk[2] = { 0.1, 0.1 };
	tagk_real est[N], sd[N];
	trial("rls", 77, sdk, est, sd);
	/* the same windows again: sum A^T A */
	tagk_rng g;
	tagk_rng_seed(&g, 77);
	tagk_real H[N * N] = { 0 };
	for (int k = 0; k < WINDOWS; k++) {
		tagk_real A[M * N];
		for (int i = 0; i < M * N; i++)
			A[i] = tagk_rng_gaussian(&g);
		for (int i = 0; i < M; i++)
			(void)tagk_rng_gaussian(&g);
		for (int a = 0; a < N; a++)
			for (int c = 0; c < N; c++)
				for (int i = 0; i < M; i++)
					H[a * N + c] += A[i * N + a] * A[i * N + c];
	}
	tagk_real L[N * N], X[N * N];
	memcpy(L, H, sizeof(L));
	assert_int_equal(tagk_cholesky(N, L), TAGK_OK);
	for (int i = 0; i < N * N; i++)
		X[i] = (i % (N + 1)) == 0;
	tagk_cholesky_solve(N, N, L, X);
	for (int j = 0; j < N; j++) {
		double want = 0.1 * sqrt((double)X[j * N + j]);
		print_message("rls: sd %d %.5g, s (H^-1)_jj^1/2 %.5g\n", j, (double)sd[j], want);
		/* s^2 is estimated from the data: within its sampling error */
		assert_true(fabs((double)sd[j] / want - 1) < 0.1);
	}
}

/* The first window starts each kind's noise variance exactly as the
 * contract says: the kind's sum of squared residuals after the update over
 * its share of the window's m - n degrees of freedom. Eight rows, three
 * parameters, kinds 0 and 1 alternating: each kind has 4 rows, so 4 * 5 / 8
 * = 2.5 degrees of freedom; the sums are computed here from A, b and theta
 * (whatever theta the method reached, the formula is the same). A window
 * no wider than n does not start it. */
static void
test_first_window_noise_exact(void **state)
{
	(void)state;
	enum { n = 3, m = 8 };
	const tagk_real A[m * n] = { 1, 0.5, -2, 0.3, 1.2, 0.7, -0.4, 2, 1, 1.5, -0.6, 0.2,
		0.9, 0.1, -1.1, -1.3, 0.8, 0.4, 0.6, -0.7, 1.9, 2.1, 0.3, -0.5 };
	const tagk_real b[m] = { 1.7, -0.2, 2.4, 0.35, -1.05, 0.8, 1.6, -0.9 };
	const tagk_real theta[n] = { 0.4, 0.9, -0.6 };
	const tagk_real P[n * n] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
	const int kind[m] = { 0, 1, 0, 1, 0, 1, 0, 1 };
	double ss[2] = { 0, 0 };
	for (int i = 0; i < m; i++) {
		double r = (double)b[i];
		for (int j = 0; j < n; j++)
			r -= (double)A[i * n + j] * (double)theta[j];
		ss[kind[i]] += r * r;
	}
	size_t len = tagk_uncert_workspace_len(n, m);
	tagk_real ws[512];
	assert_true(len <= sizeof(ws) / sizeof(ws[0]));
	tagk_uncert u;
	assert_int_equal(tagk_uncert_init(&u, n, m, NULL, 1, ws, len), TAGK_OK);
	/* n rows: no degrees of freedom, nothing starts */
	tagk_uncert_observe(&u, n, A, b, kind, theta);
	tagk_uncert_propagate(&u, n, A, b, kind, P, 1, theta);
	assert_true(tagk_uncert_noise(&u, 0) == 0 && tagk_uncert_noise(&u, 1) == 0);
	tagk_uncert_observe(&u, m, A, b, kind, theta);
	tagk_uncert_propagate(&u, m, A, b, kind, P, 1, theta);
	for (int c = 0; c < 2; c++) {
		double want = ss[c] / 2.5, got = tagk_uncert_noise(&u, c);
		print_message("kind %d: noise variance %.10g, by hand %.10g\n", c, got, want);
#ifdef TAGK_FLOAT
		assert_true(fabs(got - want) <= 1e-5 * want);
#else
		assert_true(fabs(got - want) <= 1e-12 * want);
#endif
	}
}

/* The long-run factor with a memory (hac.h), on an AR(1) series of 0.9
 * whose autocorrelations are known: keep 1 is the Newey-West factor, keep
 * 0 counts no lag (1), and in between the Bartlett sum weighted by keep^j,
 * recomputed here from the series' own autocovariances. The fixed-b
 * widening against Kiefer and Vogelsang's polynomial worked by hand: b =
 * 0.1 gives (1.96 + 0.29694 + 0.00416 - 0.0005324) / 1.96. */
static void
test_lrv_kept(void **state)
{
	(void)state;
	static tagk_lrv l;
	memset(&l, 0, sizeof(l));
	tagk_rng g;
	tagk_rng_seed(&g, 11);
	enum { NS = 4000 };
	static double x[NS];
	double e = 0, sum = 0;
	for (int t = 0; t < NS; t++) {
		e = 0.9 * e + (double)tagk_rng_gaussian(&g);
		x[t] = e;
		sum += e;
		tagk_lrv_add(&l, e);
	}
	int B1, B;
	double f1 = tagk_lrv_factor(&l, &B1), fk1 = tagk_lrv_factor_kept(&l, 1, &B);
	assert_true(B == B1 && f1 == fk1);
	assert_true(tagk_lrv_factor_kept(&l, 0, NULL) == 1);
	/* by hand: sigma_j = (sum over the pairs (x_t - mu)(x_{t-j} - mu)
	 * with hac.c's end correction) is close to the plain one */
	double mu = sum / NS, s0 = 0, want = 1;
	for (int t = 0; t < NS; t++)
		s0 += (x[t] - mu) * (x[t] - mu);
	for (int j = 1; j <= B; j++) {
		double sj = 0;
		for (int t = j; t < NS; t++)
			sj += (x[t] - mu) * (x[t - j] - mu);
		want += 2 * (1 - (double)j / (B + 1)) * pow(0.8, j) * sj / s0;
	}
	double got = tagk_lrv_factor_kept(&l, 0.8, NULL);
	printf("lrv factor kept 0.8: %.6f, by hand %.6f (keep 1: %.3f, bandwidth %d)\n", got, want, f1, B);
	assert_true(fabs(got - want) < 1e-3 * want);
	assert_true(got > 1 && got < f1);
	assert_true(tagk_hac_widen(0, 100) == 1);
	double w = tagk_hac_widen(9, 100), hand = (1.96 + 0.29694 + 0.00416 - 0.0005324) / 1.96;
	printf("fixed-b widening at b = 0.1: %.9f, by hand %.9f\n", w, hand);
	assert_true(fabs(w - hand) < 1e-12);
}

/* The wander (hac.h) of a series whose variance is known: an AR(1) of
 * 0.95 scaled to variance 1, correlated over some 20 values. Read at lag
 * 256 (4000 values), where its autocorrelation is 0.95^256 = 2e-6, the
 * sd is 1 times the fixed-b widening, within the estimate's own noise (a
 * variance from about 15 lag spans: 15 %), and it has levelled off: a
 * larger own sd is not taken. A step of 20 sd halfway (a payload) and a
 * start whose own sd is 10 times the later one (a transient, its values
 * off by 50) leave it within 5 % of the plain series' (left in, the step
 * alone would make it 3.8). A random walk has not levelled off (its
 * variogram doubles with the lag): a larger own sd is returned, a smaller
 * one is not. Before 128 increments the own sd is returned. */
static void
test_wander(void **state)
{
	(void)state;
	static tagk_wander a, b, r;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&r, 0, sizeof(r));
	tagk_rng g;
	tagk_rng_seed(&g, 5);
	enum { NS = 4000 };
	double e = 0, c = sqrt(1 - 0.95 * 0.95), rw = 0;
	int L, Lb, used;
	for (int t = 0; t < NS; t++) {
		double z = (double)tagk_rng_gaussian(&g);
		e = 0.95 * e + c * z;
		rw += 0.1 * z;
		tagk_wander_add(&a, e, 1);
		tagk_wander_add(&r, rw, 1);
		if (t < 100)
			tagk_wander_add(&b, e + 50, 10);
		else
			tagk_wander_add(&b, e + (t >= NS / 2 ? 20 : 0), 1);
		if (t == 100) {
			assert_true(tagk_wander_sd(&a, 0.5, &L, &used) == 0.5);
			assert_true(L == 0 && used == 0);
		}
	}
	double sa = tagk_wander_sd(&a, 100, &L, &used), sb = tagk_wander_sd(&b, 100, &Lb, NULL);
	double w = tagk_hac_widen(L, a.n[TAGK_WANDER_LAGS - 1] + L);
	printf("wander of AR(1) 0.95, variance 1: sd %.4f at lag %d (widening %.4f); with a step and a start %.4f\n", sa,
	    L, w, sb);
	assert_int_equal(L, 256);
	assert_int_equal(used, 1);
	assert_true(fabs(sa / w - 1) < 0.15);
	assert_int_equal(Lb, 256);
	assert_true(fabs(sb / sa - 1) < 0.05);
	double small = tagk_wander_sd(&r, 1e-3, NULL, &used);
	printf("random walk: sd %.4f (own 1e-3)\n", small);
	assert_true(small > 1e-3 && used == 1);
	assert_true(tagk_wander_sd(&r, 1e3, &L, &used) == 1e3);
	assert_true(L == 0 && used == 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rls),
		cmocka_unit_test(test_kf),
		cmocka_unit_test(test_batch_identity),
		cmocka_unit_test(test_first_window_noise_exact),
		cmocka_unit_test(test_lrv_kept),
		cmocka_unit_test(test_wander),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
