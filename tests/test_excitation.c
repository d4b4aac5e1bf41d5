/* test_excitation.c: unexcited directions and Kaczmarz's pace
 * (excitation.h) against cases whose answer is known by construction. */
#include <math.h>
#include "testutil.h"

/* Rows that span the first k coordinates only leave the other n - k
 * unexcited, and those are the ones named; one left out is a single
 * parameter, not a combination. Rows come in a count that is not a
 * multiple of the batch, so the last partial batch counts too. */
static void
test_span(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 7);
	for (int k = 1; k < TAGK_NPARAM; k++) {
		tagk_excitation x;
		tagk_excitation_init(&x, TAGK_NPARAM);
		for (int r = 0; r < 3 * TAGK_EXC_BATCH + 5; r++) {
			double y[TAGK_NPARAM] = { 0 };
			for (int j = 0; j < k; j++)
				y[j] = (double)tagk_rng_gaussian(&g);
			tagk_excitation_add(&x, y);
		}
		int named[TAGK_NPARAM], combo;
		assert_int_equal(tagk_excitation_unexcited(&x, 0, named, &combo), TAGK_NPARAM - k);
		for (int j = 0; j < TAGK_NPARAM; j++)
			assert_int_equal(named[j], j >= k);
		if (k == TAGK_NPARAM - 1)
			assert_int_equal(combo, 0);
	}
	/* fewer rows than one batch: all in the partial batch */
	tagk_excitation x;
	tagk_excitation_init(&x, 3);
	double y[3] = { 1, 0, 0 };
	tagk_excitation_add(&x, y);
	int named[TAGK_NPARAM], combo;
	assert_int_equal(tagk_excitation_unexcited(&x, 0, named, &combo), 2);
	assert_true(!named[0] && named[1] && named[2]);
}

/* Rows with y[2] = y[3] leave (e2 - e3) / sqrt 2 unexcited: both named,
 * as a combination. An absolute eps above every eigenvalue names all. */
static void
test_combination(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 8);
	tagk_excitation x;
	tagk_excitation_init(&x, TAGK_NPARAM);
	for (int r = 0; r < 200; r++) {
		double y[TAGK_NPARAM];
		for (int j = 0; j < TAGK_NPARAM; j++)
			y[j] = (double)tagk_rng_gaussian(&g);
		y[3] = y[2];
		tagk_excitation_add(&x, y);
	}
	int named[TAGK_NPARAM], combo;
	assert_int_equal(tagk_excitation_unexcited(&x, 0, named, &combo), 1);
	assert_int_equal(combo, 1);
	for (int j = 0; j < TAGK_NPARAM; j++)
		assert_int_equal(named[j], j == 2 || j == 3);
	assert_int_equal(tagk_excitation_unexcited(&x, 1e12, named, &combo), TAGK_NPARAM);
}

/* A window of rows d_i e_i: kappa = sum d_i^2 / min d_i^2, in closed form;
 * fewer rows than columns, or a zero column, give 0. */
static void
test_pace(void **state)
{
	(void)state;
	enum { n = 4 };
	const double d[n] = { 3, 0.5, 2, 1 };
	tagk_real A[2 * n * n] = { 0 };
	for (int i = 0; i < n; i++) {
		A[i * n + i] = (tagk_real)d[i];
		A[(n + i) * n + i] = (tagk_real)d[i]; /* each row twice */
	}
	double sum = 0;
	for (int i = 0; i < n; i++)
		sum += d[i] * d[i];
	double want = sum / (0.5 * 0.5);
	double got = tagk_window_pace(A, 2 * n, n);
	assert_true(fabs(got - want) <= TOL_EXACT * want);
	assert_true(tagk_window_pace(A, n - 1, n) == 0);
	for (int i = 0; i < 2 * n; i++)
		A[i * n + 1] = 0;
	assert_true(tagk_window_pace(A, 2 * n, n) == 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_span),
		cmocka_unit_test(test_combination),
		cmocka_unit_test(test_pace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
