/* test_signals.c: the rotor wrench, the least-squares slope and the
 * Savitzky-Golay weights (signals.h) against closed forms and the
 * published tables. */
#include <math.h>
#include "testutil.h"

/* A quadrotor in X: equal thrusts give only lift; one rotor's thrust gives
 * the torque p x (0, 0, T) plus its reaction dir kappa T about z, worked by
 * hand here. */
static void
test_rotor_wrench(void **state)
{
	(void)state;
	const double l = 0.1, pos[4][3] = { { l, l, 0 }, { -l, l, 0 }, { -l, -l, 0 }, { l, -l, 0 } };
	const double dir[4] = { 1, -1, 1, -1 }, kappa = 0.02;
	double T[4] = { 2, 2, 2, 2 }, f[3], tau[3];
	tagk_rotor_wrench(4, pos, dir, kappa, T, f, tau);
	assert_true(f[0] == 0 && f[1] == 0 && f[2] == 8);
	assert_true(fabs(tau[0]) < 1e-15 && fabs(tau[1]) < 1e-15 && fabs(tau[2]) < 1e-15);
	double one[4] = { 0, 3, 0, 0 };
	tagk_rotor_wrench(4, pos, dir, kappa, one, f, tau);
	/* rotor 1 at (-l, l): (-l, l, 0) x (0, 0, 3) = (3 l, 3 l, 0); reaction -0.06 */
	assert_true(fabs(tau[0] - 0.3) < 1e-15 && fabs(tau[1] - 0.3) < 1e-15 && fabs(tau[2] + 0.06) < 1e-15);
	assert_true(f[2] == 3);
}

/* The slope of a line is exact on any spacing; on an even window the slope
 * of a quadratic is its derivative at the middle sample. */
static void
test_slope(void **state)
{
	(void)state;
	double t[7] = { 0, 0.1, 0.15, 0.4, 0.41, 0.9, 1.3 }, x[14], out[2];
	for (int i = 0; i < 7; i++) {
		x[2 * i] = 3 - 2 * t[i];
		x[2 * i + 1] = 0.5 + 7 * t[i];
	}
	tagk_slope(7, t, 2, x, out);
	assert_true(fabs(out[0] + 2) < 1e-13 && fabs(out[1] - 7) < 1e-13);
	for (int i = 0; i < 7; i++) {
		t[i] = 10 + 0.01 * i; /* far from 0: the centring keeps it exact */
		double u = t[i] - 10.03;
		x[2 * i] = 1 + 4 * u + 50 * u * u;
		x[2 * i + 1] = -u * u;
	}
	tagk_slope(7, t, 2, x, out);
	assert_true(fabs(out[0] - 4) < 1e-9 && fabs(out[1]) < 1e-9);
}

/* Savitzky and Golay's (1964) tables, on unit spacing: the 5-point
 * quadratic smooth (-3 12 17 12 -3)/35 and first derivative (-2 -1 0 1 2)/10,
 * the 7-point cubic second derivative (5 0 -3 -4 -3 0 5)/42; at spacing h
 * the derivative weights scale by 1/h and 1/h^2. */
static void
test_sg_tables(void **state)
{
	(void)state;
	const double smooth[5] = { -3, 12, 17, 12, -3 }, d1[5] = { -2, -1, 0, 1, 2 };
	const double d2[7] = { 5, 0, -3, -4, -3, 0, 5 };
	const double h = 0.004;
	double t[7], w[7];
	for (int i = 0; i < 7; i++)
		t[i] = 100 + h * (i - 3); /* far from 0: the scaling keeps it exact */
	assert_int_equal(tagk_sg_weights(5, t + 1, 100, 2, 0, w), 0);
	for (int i = 0; i < 5; i++)
		assert_true(fabs(w[i] - smooth[i] / 35) < 1e-9);
	assert_int_equal(tagk_sg_weights(5, t + 1, 100, 2, 1, w), 0);
	for (int i = 0; i < 5; i++)
		assert_true(fabs(w[i] - d1[i] / (10 * h)) < 1e-9 / h);
	assert_int_equal(tagk_sg_weights(7, t, 100, 3, 2, w), 0);
	for (int i = 0; i < 7; i++)
		assert_true(fabs(w[i] - d2[i] / (42 * h * h)) < 1e-9 / (h * h));
}

/* On irregular times the weights differentiate any polynomial of degree
 * <= order exactly (the identity that defines them), at any t0. */
static void
test_sg_polynomial(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 5);
	for (int trial = 0; trial < 200; trial++) {
		int order = trial % (TAGK_SG_MAX_ORDER + 1), n = order + 1 + trial % 9;
		double t[20], y[20], w[20], c[TAGK_SG_MAX_ORDER + 1], t0 = 0.3 * (double)tagk_rng_gaussian(&g);
		for (int i = 0; i < n; i++)
			t[i] = (i == 0 ? t0 - 0.05 : t[i - 1]) + 0.001 + 0.01 * fabs((double)tagk_rng_gaussian(&g));
		for (int k = 0; k <= order; k++)
			c[k] = (double)tagk_rng_gaussian(&g);
		for (int i = 0; i < n; i++) {
			y[i] = 0;
			for (int k = order; k >= 0; k--)
				y[i] = y[i] * (t[i] - t0) + c[k];
		}
		for (int d = 0; d <= order; d++) {
			assert_int_equal(tagk_sg_weights(n, t, t0, order, d, w), 0);
			double got = 0, want = c[d];
			for (int i = 0; i < n; i++)
				got += w[i] * y[i];
			for (int k = 2; k <= d; k++)
				want *= k;
			/* relative to the derivative's scale over the window */
			double span = t[n - 1] - t[0], scale = 1;
			for (int k = 0; k < d; k++)
				scale /= span;
			assert_true(fabs(got - want) <= 1e-6 * scale * (1 + fabs(want)));
		}
	}
}

/* A sum of sines sampled at 1 kHz with noise: the second derivative from
 * the first by 51-point cubic weights is the analytic one to within the
 * noise the weights pass (sigma ||w||) and the filter's small bias. */
static void
test_sg_sines(void **state)
{
	(void)state;
	enum { N = 4000, W = 51 };
	static double t[N], qd[N];
	const double A[3] = { 0.8, 0.3, 0.1 }, om[3] = { 2.513274, 6.911504, 14.451326 } /* 2 pi (0.4, 1.1, 2.3 Hz) */;
	const double sigma = 1e-3;
	tagk_rng g;
	tagk_rng_seed(&g, 11);
	for (int i = 0; i < N; i++) {
		t[i] = 0.001 * i;
		qd[i] = sigma * (double)tagk_rng_gaussian(&g);
		for (int k = 0; k < 3; k++)
			qd[i] += A[k] * om[k] * cos(om[k] * t[i]);
	}
	double w[W], se = 0, ss = 0, ww = 0;
	int m = 0;
	for (int c = W / 2; c < N - W / 2; c++, m++) {
		assert_int_equal(tagk_sg_weights(W, t + c - W / 2, t[c], 3, 1, w), 0);
		double got = 0, want = 0;
		for (int i = 0; i < W; i++)
			got += w[i] * qd[c - W / 2 + i];
		for (int k = 0; k < 3; k++)
			want -= A[k] * om[k] * om[k] * sin(om[k] * t[c]);
		se += (got - want) * (got - want);
		ss += want * want;
	}
	for (int i = 0; i < W; i++)
		ww += w[i] * w[i];
	double rms = sqrt(se / m), noise = sigma * sqrt(ww);
	print_message("SG 51-point cubic qdd from qd: rms error %.4g, noise part sigma ||w|| %.4g, rms qdd %.4g\n",
	    rms, noise, sqrt(ss / m));
	assert_true(rms < 1.3 * noise && rms > 0.7 * noise); /* the error is the noise's, not a bias */
	assert_true(rms < 0.01 * sqrt(ss / m));
}

static void
test_sg_refusals(void **state)
{
	(void)state;
	double t[4] = { 0, 1, 2, 3 }, same[4] = { 1, 1, 1, 1 }, w[4];
	assert_int_equal(tagk_sg_weights(3, t, 1, 3, 1, w), -1); /* n <= order */
	assert_int_equal(tagk_sg_weights(4, t, 1, 2, 3, w), -1); /* deriv > order */
	assert_int_equal(tagk_sg_weights(4, same, 1, 1, 1, w), -1); /* all at t0 */
	assert_int_equal(tagk_sg_weights(4, t, 1, TAGK_SG_MAX_ORDER + 1, 1, w), -1);
	double two[4] = { 0, 0, 1, 1 };
	assert_int_equal(tagk_sg_weights(4, two, 0.5, 2, 1, w), -1); /* two distinct times, degree 2 */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rotor_wrench),
		cmocka_unit_test(test_slope),
		cmocka_unit_test(test_sg_tables),
		cmocka_unit_test(test_sg_polynomial),
		cmocka_unit_test(test_sg_sines),
		cmocka_unit_test(test_sg_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
