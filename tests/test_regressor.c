/* test_regressor.c: Y(a, omega, alpha) theta equals the Newton-Euler wrench
 * computed directly with cross products, and a sign error cannot hide. */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include "bodies.h"

#ifdef TAGK_FLOAT
#define TOL_WRENCH 1e-5
#else
#define TOL_WRENCH 1e-12
#endif

static void
cross(const long double a[3], const long double b[3], long double out[3])
{
	out[0] = a[1] * b[2] - a[2] * b[1];
	out[1] = a[2] * b[0] - a[0] * b[2];
	out[2] = a[0] * b[1] - a[1] * b[0];
}

/* f = m a + alpha x mc + omega x (omega x mc);
 * tau = I alpha + omega x (I omega) + mc x a, all about O, in long double. */
static void
wrench_direct(const tagk_real t[TAGK_NPARAM], const tagk_real a[3], const tagk_real w[3],
    const tagk_real al[3], long double out[6])
{
	long double m = t[0], mc[3] = { t[1], t[2], t[3] };
	long double I[9] = { t[4], t[5], t[7], t[5], t[6], t[8], t[7], t[8], t[9] };
	long double A[3] = { a[0], a[1], a[2] }, W[3] = { w[0], w[1], w[2] };
	long double AL[3] = { al[0], al[1], al[2] };
	long double t1[3], t2[3], t3[3], Iw[3], Ial[3];
	cross(AL, mc, t1);
	cross(W, mc, t2);
	cross(W, t2, t3);
	for (int i = 0; i < 3; i++)
		out[i] = m * A[i] + t1[i] + t3[i];
	for (int i = 0; i < 3; i++) {
		Iw[i] = I[i * 3] * W[0] + I[i * 3 + 1] * W[1] + I[i * 3 + 2] * W[2];
		Ial[i] = I[i * 3] * AL[0] + I[i * 3 + 1] * AL[1] + I[i * 3 + 2] * AL[2];
	}
	cross(W, Iw, t1);
	cross(mc, A, t2);
	for (int i = 0; i < 3; i++)
		out[3 + i] = Ial[i] + t1[i] + t2[i];
}

/* Relative mismatch ||Y theta - wrench|| / ||wrench||. */
static double
mismatch(const tagk_real Y[60], const tagk_real t[10], const long double wr[6])
{
	long double num = 0, den = 0;
	for (int r = 0; r < 6; r++) {
		long double s = 0;
		for (int c = 0; c < 10; c++)
			s += (long double)Y[r * 10 + c] * t[c];
		num += (s - wr[r]) * (s - wr[r]);
		den += wr[r] * wr[r];
	}
	return (double)sqrtl(num / den);
}

static void
random_motion(tagk_rng *g, tagk_real a[3], tagk_real w[3], tagk_real al[3])
{
	fill_gauss(g, 3, a);
	fill_gauss(g, 3, w);
	fill_gauss(g, 3, al);
	a[2] += (tagk_real)9.80665;
}

static void
test_identity_random(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 90);
	double worst = 0;
	for (int trial = 0; trial < 2000; trial++) {
		tagk_real t[10], a[3], w[3], al[3], Y[60];
		long double wr[6];
		random_valid_body(&g, t);
		random_motion(&g, a, w, al);
		tagk_regressor_rigid(a, w, al, Y);
		wrench_direct(t, a, w, al, wr);
		double e = mismatch(Y, t, wr);
		if (e > worst)
			worst = e;
	}
	print_message("worst relative wrench mismatch over 2000 bodies: %.3g\n", worst);
	assert_true(worst < TOL_WRENCH);
}

/* Flip the sign of one block of Y at a time (the mass column, the force rows'
 * first-moment block, the torque rows' first-moment block where the authors'
 * code had its sign error, the torque rows' inertia block): the identity must
 * then fail, so the test above can catch such a bug. */
static void
test_sign_errors_are_caught(void **state)
{
	(void)state;
	const int blocks[4][4] = {
		{ 0, 3, 0, 1 },   /* rows 0-2, col 0 */
		{ 0, 3, 1, 4 },   /* rows 0-2, cols 1-3 */
		{ 3, 6, 1, 4 },   /* rows 3-5, cols 1-3 */
		{ 3, 6, 4, 10 },  /* rows 3-5, cols 4-9 */
	};
	tagk_rng g;
	tagk_rng_seed(&g, 91);
	for (int bl = 0; bl < 4; bl++) {
		int caught = 0;
		for (int trial = 0; trial < 20; trial++) {
			tagk_real t[10], a[3], w[3], al[3], Y[60];
			long double wr[6];
			random_valid_body(&g, t);
			random_motion(&g, a, w, al);
			tagk_regressor_rigid(a, w, al, Y);
			for (int r = blocks[bl][0]; r < blocks[bl][1]; r++)
				for (int c = blocks[bl][2]; c < blocks[bl][3]; c++)
					Y[r * 10 + c] = -Y[r * 10 + c];
			wrench_direct(t, a, w, al, wr);
			caught += mismatch(Y, t, wr) > 1e-4;
		}
		if (caught != 20)
			fail_msg("sign flip in block %d went unnoticed in %d of 20 trials", bl, 20 - caught);
	}
}

/* Pure rotation about a principal axis at rest: tau = I alpha, f = m a. */
static void
test_closed_form_cases(void **state)
{
	(void)state;
	tagk_real c[3] = { 0, 0, 0 };
	tagk_real Ic[9] = { 1.66e-5, 0.83e-6, 0.72e-6, 0.83e-6, 1.66e-5, 1.8e-6, 0.72e-6, 1.8e-6, 2.93e-5 };
	tagk_real t[10], Y[60];
	tagk_theta_from_body((tagk_real)0.035, c, Ic, t);
	tagk_real a[3] = { 0, 0, (tagk_real)9.80665 }, w[3] = { 0, 0, 0 }, al[3] = { 0, 0, 2 };
	tagk_regressor_rigid(a, w, al, Y);
	tagk_real out[6];
	tagk_gemv(6, 10, Y, t, out);
	/* hover: f = m g up, tau = I alpha */
	assert_true(fabs((double)out[2] - 0.035 * 9.80665) < 1e-6);
	assert_true(fabs((double)out[0]) < 1e-12 && fabs((double)out[1]) < 1e-12);
	assert_true(fabs((double)out[3] - 2 * 0.72e-6) < 1e-9);
	assert_true(fabs((double)out[4] - 2 * 1.8e-6) < 1e-9);
	assert_true(fabs((double)out[5] - 2 * 2.93e-5) < 1e-9);
	tagk_real Ym[3];
	tagk_regressor_mass(a, Ym);
	assert_true(Ym[2] * t[0] == out[2]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity_random),
		cmocka_unit_test(test_sign_errors_are_caught),
		cmocka_unit_test(test_closed_form_cases),
	};
	return cmocka_run_group_tests_name("regressor", tests, NULL, NULL);
}
