/* test_signals.c: the rotor wrench and the least-squares slope (signals.h)
 * against closed forms. */
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rotor_wrench),
		cmocka_unit_test(test_slope),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
