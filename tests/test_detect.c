/* test_detect.c: detect.h against independent facts: the false-alarm
 * rate of Gaussian and of Student-t window means against Lorden's bound
 * (mean run between alarms at least e^h), a step's alarm, kind and onset,
 * the CUSUM recursions recomputed in long double from the definitions,
 * invariance to the data's units, the residual means formed from A, b and
 * theta, and refusals. */
#include <math.h>
#include <string.h>
#include "testutil.h"

enum { K = 6 };

static void
gauss_means(tagk_rng *g, tagk_real *mu, const tagk_real *sd)
{
	for (int j = 0; j < K; j++)
		mu[j] = sd[j] * tagk_rng_gaussian(g);
}

/* Mean updates between false alarms on white means of unequal scales,
 * Gaussian (t4 = 0) or Student-t with 4 degrees of freedom (the model's
 * tails): at least the ARL asked (Lorden). The bound is loose: Gaussian
 * means, lighter-tailed than the model, gave no alarm in 400000 updates;
 * t4 means run 1020 at ARL 20, which the test keeps within 100 times. */
static double
measured_arl(int t4, double arl, long N)
{
	tagk_detect_config cfg;
	tagk_detect_defaults(&cfg, arl);
	tagk_detect d;
	assert_int_equal(tagk_detect_init(&d, &cfg, K), TAGK_OK);
	tagk_rng g;
	tagk_rng_seed(&g, 7);
	tagk_real mu[K], bsq[K], sd[K] = { 1, 10, 0.01, 3, 1e3, 0.5 };
	int cnt[K];
	for (int j = 0; j < K; j++) {
		cnt[j] = 5;
		bsq[j] = 1e4 * sd[j] * sd[j];
	}
	for (long i = 0; i < N; i++) {
		int alarm;
		gauss_means(&g, mu, sd);
		for (int j = 0; t4 && j < K; j++) {
			double c = 0;
			for (int q = 0; q < 4; q++) {
				double x = (double)tagk_rng_gaussian(&g);
				c += x * x;
			}
			mu[j] /= (tagk_real)sqrt(c / 2); /* t4 / sqrt(2): variance 1 */
		}
		assert_int_equal(tagk_detect_means(&d, mu, cnt, bsq, &alarm), TAGK_OK);
	}
	return d.alarms ? (double)N / (double)d.alarms : (double)N;
}

static void
test_false_alarm_rate(void **state)
{
	(void)state;
	double a = measured_arl(0, 20, 400000), b = measured_arl(1, 20, 400000);
	print_message("mean run between false alarms at ARL 20: %.0f (Gaussian), %.0f (t4)\n", a, b);
	assert_true(a >= 20);
	assert_true(b >= 20 && b <= 20 * 100);
}

/* A step of 40 sd in one kind's mean at update 100 (fed after the
 * learning phase): the alarm comes within 5 updates (V learns from the
 * windows before it, which raise V), names the kind, and
 * its onset is update 100. */
static void
test_step_onset(void **state)
{
	(void)state;
	tagk_detect_config cfg;
	tagk_detect_defaults(&cfg, 1e6);
	tagk_detect d;
	assert_int_equal(tagk_detect_init(&d, &cfg, K), TAGK_OK);
	tagk_rng g;
	tagk_rng_seed(&g, 3);
	tagk_real mu[K], bsq[K], sd[K] = { 1, 1, 1, 1, 1, 1 };
	int cnt[K] = { 5, 5, 5, 5, 5, 5 }, alarm = 0;
	long at = -1;
	for (int j = 0; j < K; j++)
		bsq[j] = 100;
	for (long i = 0; i < 200 && at < 0; i++) {
		gauss_means(&g, mu, sd);
		if (i >= 100)
			mu[2] += 40;
		assert_int_equal(tagk_detect_means(&d, mu, cnt, bsq, &alarm), TAGK_OK);
		if (alarm)
			at = i;
	}
	assert_true(at >= 100 && at <= 104);
	assert_int_equal(d.onset, 100);
	assert_int_equal(d.kind, 2);
}

/* The recursions from their definitions, in long double, over a sequence
 * with steps: same largest g, same alarms. */
static void
test_recursion(void **state)
{
	(void)state;
	tagk_detect_config cfg;
	tagk_detect_defaults(&cfg, 1000);
	tagk_detect d;
	assert_int_equal(tagk_detect_init(&d, &cfg, K), TAGK_OK);
	tagk_rng g;
	tagk_rng_seed(&g, 11);
	long double V[K] = { 0 }, B[K] = { 0 }, G[K] = { 0 }, Vs[K], Bs[K], ratio = 1000, nu = 4;
	long learnt = 0, since = 0, nalarm = 0;
	tagk_real mu[K], bsq[K], sd[K] = { 2, 1, 1, 0.3, 1, 5 };
	int cnt[K] = { 3, 3, 3, 3, 3, 0 };
	long double hk = logl(1000.0L) + logl(5.0L); /* 5 kinds present */
	for (int j = 0; j < K; j++)
		bsq[j] = 10;
	for (long i = 0; i < 600; i++) {
		gauss_means(&g, mu, sd);
		if ((i >= 200 && i < 203) || i >= 400)
			mu[0] += 30;
		int alarm, want = 0;
		assert_int_equal(tagk_detect_means(&d, mu, cnt, bsq, &alarm), TAGK_OK);
		if (++since <= 3 + (nalarm ? 20 : 0))
			continue;
		if (learnt >= 20) {
			long double top = 0;
			for (int j = 0; j < K; j++) {
				if (!cnt[j])
					continue;
				long double z2 = (long double)mu[j] * mu[j] / (V[j] + 1e-12L * B[j] + FLT_MIN);
				long double l = (nu + 1) / 2 * (logl(1 + z2 / nu) - logl(1 + z2 / (ratio * nu))) - logl(ratio) / 2;
				if (G[j] == 0 && l > 0) {
					Vs[j] = V[j];
					Bs[j] = B[j];
				}
				G[j] = G[j] + l > 0 ? G[j] + l : 0;
				top = G[j] > top ? G[j] : top;
			}
			assert_true(fabsl(top - (long double)d.gmax) <= 1e-9L * (1 + top) || alarm);
			if (top > hk) {
				want = 1;
				since = 0;
				nalarm++;
				for (int j = 0; j < K; j++) {
					if (G[j] > 0) {
						V[j] = Vs[j];
						B[j] = Bs[j];
					}
					G[j] = 0;
				}
			}
		}
		assert_int_equal(alarm, want);
		if (want)
			continue;
		learnt++;
		long double a = learnt <= 20 ? 1.0L / learnt : 1.0L / 50;
		for (int j = 0; j < K; j++)
			if (cnt[j]) {
				V[j] += a * ((long double)mu[j] * mu[j] - V[j]);
				B[j] += a * (bsq[j] - B[j]);
			}
	}
	assert_true(nalarm >= 2);
}

/* The same data in other units (b and A times 1000): the same alarms. */
static void
test_units(void **state)
{
	(void)state;
	enum { N = 2, M = 12 };
	tagk_detect_config cfg;
	tagk_detect_defaults(&cfg, 500);
	tagk_detect d1, d2;
	assert_int_equal(tagk_detect_init(&d1, &cfg, 3), TAGK_OK);
	assert_int_equal(tagk_detect_init(&d2, &cfg, 3), TAGK_OK);
	tagk_rng g;
	tagk_rng_seed(&g, 5);
	tagk_real A[M * N], b[M], A2[M * N], b2[M], theta[N] = { 1, -2 };
	int kind[M], a1 = 0, a2 = 0, n1 = 0;
	for (int i = 0; i < M; i++)
		kind[i] = i % 3;
	for (long u = 0; u < 400; u++) {
		fill_gauss(&g, M * N, A);
		for (int i = 0; i < M; i++) {
			b[i] = A[i * N] * (u >= 250 ? 3 : 1) - 2 * A[i * N + 1] + 0.05 * tagk_rng_gaussian(&g);
			b2[i] = 1000 * b[i];
		}
		for (int i = 0; i < M * N; i++)
			A2[i] = 1000 * A[i];
		assert_int_equal(tagk_detect_update(&d1, N, M, A, b, kind, theta, &a1), TAGK_OK);
		assert_int_equal(tagk_detect_update(&d2, N, M, A2, b2, kind, theta, &a2), TAGK_OK);
		assert_int_equal(a1, a2);
		n1 += a1;
		if (u == 249)
			assert_int_equal(n1, 0);
	}
	assert_true(n1 >= 1);
}

/* update forms the residual means that means takes. */
static void
test_update_means(void **state)
{
	(void)state;
	tagk_detect_config cfg;
	tagk_detect_defaults(&cfg, 100);
	cfg.skip = 0;
	cfg.learn = 1;
	tagk_detect d1, d2;
	assert_int_equal(tagk_detect_init(&d1, &cfg, 2), TAGK_OK);
	assert_int_equal(tagk_detect_init(&d2, &cfg, 2), TAGK_OK);
	/* rows: kind 0: (1, 2) b 4, (0, 1) b 1; kind 1: (2, 0) b 1; theta (1, 1) */
	tagk_real A[] = { 1, 2, 0, 1, 2, 0 }, b[] = { 4, 1, 1 }, theta[] = { 1, 1 };
	int kind[] = { 0, 0, 1 }, cnt[] = { 2, 1 }, a1, a2;
	tagk_real mu[] = { (1 + 0) / 2.0, -1 }, bsq[] = { (16 + 1) / 2.0, 1 };
	for (int r = 0; r < 3; r++) {
		assert_int_equal(tagk_detect_update(&d1, 2, 3, A, b, kind, theta, &a1), TAGK_OK);
		assert_int_equal(tagk_detect_means(&d2, mu, cnt, bsq, &a2), TAGK_OK);
	}
	assert_true(fabs((double)(d1.V[0] - d2.V[0])) < 1e-12 && fabs((double)(d1.V[1] - d2.V[1])) < 1e-12);
	assert_true(fabs((double)(d1.B[0] - d2.B[0])) < 1e-12 && fabs((double)(d1.gmax - d2.gmax)) < 1e-12);
	assert_true(fabs((double)d1.V[0] - 0.25) < 1e-12);
}

static void
test_refusals(void **state)
{
	(void)state;
	tagk_detect_config cfg;
	tagk_detect_defaults(&cfg, 100);
	tagk_detect d;
	assert_int_equal(tagk_detect_init(&d, &cfg, 0), TAGK_EINVAL);
	assert_int_equal(tagk_detect_init(&d, &cfg, TAGK_DETECT_KINDS + 1), TAGK_EINVAL);
	tagk_detect_config bad = cfg;
	bad.ratio = 1;
	assert_int_equal(tagk_detect_init(&d, &bad, 1), TAGK_EINVAL);
	tagk_detect_defaults(&bad, 1); /* ARL 1: no threshold */
	assert_int_equal(tagk_detect_init(&d, &bad, 1), TAGK_EINVAL);
	assert_int_equal(tagk_detect_init(&d, &cfg, 2), TAGK_OK);
	tagk_real A[] = { 1, 1 }, b[] = { NAN, 1 }, theta[] = { 0 };
	int kind[] = { 0, 2 }, alarm = 1;
	tagk_detect before = d;
	assert_int_equal(tagk_detect_update(&d, 1, 2, A, b, kind, theta, &alarm), TAGK_EINVAL);
	assert_int_equal(alarm, 0);
	kind[1] = 1;
	assert_int_equal(tagk_detect_update(&d, 1, 2, A, b, kind, theta, &alarm), TAGK_ENONFINITE);
	assert_memory_equal(&before, &d, sizeof(d));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_false_alarm_rate),
		cmocka_unit_test(test_step_onset),
		cmocka_unit_test(test_recursion),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_update_means),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
