/* test_shake.c: paper 004's excitation (lib/shake.c) against its closed
 * forms: the phase's running sum against the arithmetic series, the Hann
 * window's zeros, the amplitude bound; the damped-least-squares step
 * against J^-1 e (square J, no damping) and against the push-through form
 * J^T (J J^T + lambda^2 1)^-1 e (a redundant arm), solved here by Gaussian
 * elimination. */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include "../lib/shake.h"

#define PI 3.14159265358979323846

static void
test_profile(void **state)
{
	(void)state;
	const double T = 0.5, dt = 1.0 / 400;
	const int n = (int)(T / dt + 0.5) + 1;
	tagk_real X[256];
	double worst = 0;
	for (int a = 0; a < 2; a++) {
		const tagk_shake_axis *ax = &tagk_shake_paper[a];
		tagk_shake(ax, (tagk_real)T, (tagk_real)dt, n, X);
		for (int k = 0; k < n; k++) {
			/* phi_k = dt sum_{i=0}^{k} (h - (h - l) i dt / T), in closed form */
			double h = ax->h, l = ax->l, phi = dt * ((k + 1) * h - (h - l) * dt / T * k * (k + 1) / 2.0);
			double w = (1 - cos(2 * PI * k * dt / T)) / 2, want = ax->alpha * sin(2 * PI * phi) * w;
			worst = fmax(worst, fabs((double)X[k] - want));
			assert_true(fabs((double)X[k]) <= fabs((double)ax->alpha) * (1 + 1e-6));
		}
		assert_true(fabs((double)X[0]) < 1e-12 && fabs((double)X[n - 1]) < 1e-6 * fabs((double)ax->alpha));
	}
	print_message("eq. 6-8 against the closed form of the phase: worst %.2g m\n", worst);
	assert_true(worst < (TOL_EXACT > 1e-8 ? 1e-5 : 1e-12));
}

static void
test_dls(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 6);
	tagk_real J[16], e[4], dq[4], ws[20];
	double worst0 = 0, worst1 = 0;
	for (int t = 0; t < 50; t++) {
		/* square, no damping: J^-1 e */
		fill_gauss(&g, 16, J);
		for (int i = 0; i < 4; i++)
			J[i * 5] += 3;
		fill_gauss(&g, 4, e);
		assert_int_equal(tagk_dls_step(4, 4, J, e, 0, (tagk_real)0.7, dq, ws), TAGK_OK);
		long double S[16], v[4];
		for (int i = 0; i < 16; i++)
			S[i] = J[i];
		for (int i = 0; i < 4; i++)
			v[i] = e[i];
		gauss_solve(4, S, v);
		for (int i = 0; i < 4; i++)
			worst0 = fmax(worst0, fabs((double)dq[i] - 0.7 * (double)v[i]) / (1 + fabs((double)v[i])));
		/* redundant 2 x 4, damped: J^T (J J^T + lambda^2 1)^-1 e */
		const double lam = 0.3;
		fill_gauss(&g, 8, J);
		fill_gauss(&g, 2, e);
		assert_int_equal(tagk_dls_step(2, 4, J, e, (tagk_real)lam, 1, dq, ws), TAGK_OK);
		long double K[4], u[2];
		for (int i = 0; i < 2; i++) {
			for (int j = 0; j < 2; j++) {
				long double s = 0;
				for (int c = 0; c < 4; c++)
					s += (long double)J[i * 4 + c] * J[j * 4 + c];
				K[i * 2 + j] = s + (i == j ? lam * lam : 0);
			}
			u[i] = e[i];
		}
		gauss_solve(2, K, u);
		for (int c = 0; c < 4; c++) {
			long double want = J[c] * u[0] + J[4 + c] * u[1];
			worst1 = fmax(worst1, fabs((double)dq[c] - (double)want) / (1 + fabs((double)want)));
		}
	}
	print_message("DLS step: against J^-1 e %.2g, against the push-through form %.2g\n", worst0, worst1);
	/* through the normal equations: the error grows as cond(J)^2 */
	assert_true(worst0 < (TOL_EXACT > 1e-8 ? 1e-2 : 1e-9));
	assert_true(worst1 < (TOL_EXACT > 1e-8 ? 1e-4 : 1e-12));
	/* a singular J without damping is refused; NaN too */
	memset(J, 0, sizeof(J));
	assert_int_equal(tagk_dls_step(2, 4, J, e, 0, 1, dq, ws), TAGK_EINVAL);
	e[0] = (tagk_real)NAN;
	assert_int_equal(tagk_dls_step(2, 4, J, e, 1, 1, dq, ws), TAGK_ENONFINITE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile),
		cmocka_unit_test(test_dls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
