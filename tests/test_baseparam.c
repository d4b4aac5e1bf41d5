/* test_baseparam.c: lib/baseparam.c (Gautier's base parameters by QR with
 * column pivoting) on matrices whose dependencies are built in: r random
 * columns, n - r - 1 random combinations of them and a zero column,
 * shuffled. The rank must be r, every dependent column must be the
 * combination beta says of the base columns (checked on a copy of W), and
 * each null direction must leave W unchanged; then the refusals. */
#include <math.h>
#include <string.h>
#include "testutil.h"

enum { ROWS = 60, N = 14 };

static const tagk_real tol = sizeof(tagk_real) == 4 ? (tagk_real)1e-4 : (tagk_real)1e-9;

static void
build(tagk_rng *g, int r, tagk_real *W)
{
	tagk_real X[ROWS * N], G[N * N];
	int order[N];
	fill_gauss(g, ROWS * r, X);
	fill_gauss(g, r * N, G);
	for (int j = 0; j < N; j++)
		order[j] = j;
	for (int j = N - 1; j > 0; j--) { /* Fisher-Yates */
		int k = (int)(tagk_rng_uniform(g) * (tagk_real)(j + 1));
		k = k > j ? j : k;
		int t = order[j];
		order[j] = order[k], order[k] = t;
	}
	for (int j = 0; j < N; j++)
		for (int i = 0; i < ROWS; i++) {
			tagk_real v = 0;
			if (j < r)
				v = X[i * r + j];
			else if (j < N - 1)
				for (int k = 0; k < r; k++)
					v += X[i * r + k] * G[k * N + j];
			W[i * N + order[j]] = v; /* column N - 1 of the build: zero */
		}
}

static void
test_rank_and_grouping(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 55);
	for (int trial = 0; trial < 30; trial++) {
		const int r = 1 + trial % (N - 2);
		tagk_real W[ROWS * N], W0[ROWS * N], beta[N * N], work[N];
		int perm[N], rank = -1;
		build(&g, r, W);
		memcpy(W0, W, sizeof(W));
		assert_int_equal(tagk_base_qr(ROWS, N, W, tol, perm, &rank, beta, work), TAGK_OK);
		assert_int_equal(rank, r);
		int seen[N] = { 0 };
		for (int j = 0; j < N; j++)
			seen[perm[j]]++;
		for (int j = 0; j < N; j++)
			assert_int_equal(seen[j], 1);
		const int nd = N - r;
		tagk_real scale = 0;
		for (int i = 0; i < ROWS * N; i++)
			scale = tagk_fabs(W0[i]) > scale ? tagk_fabs(W0[i]) : scale;
		for (int j = 0; j < nd; j++)
			for (int i = 0; i < ROWS; i++) { /* W_dep = W_base beta: the null direction */
				tagk_real s = W0[i * N + perm[r + j]];
				for (int k = 0; k < r; k++)
					s -= W0[i * N + perm[k]] * beta[k * nd + j];
				assert_true(tagk_fabs(s) <= (tagk_real)(50 * TOL_EXACT) * scale);
			}
	}
}

static void
test_full_rank_and_zero(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 7);
	tagk_real W[ROWS * N], beta[N * N], work[N];
	int perm[N], rank;
	fill_gauss(&g, ROWS * N, W);
	assert_int_equal(tagk_base_qr(ROWS, N, W, tol, perm, &rank, beta, work), TAGK_OK);
	assert_int_equal(rank, N);
	memset(W, 0, sizeof(W));
	assert_int_equal(tagk_base_qr(ROWS, N, W, tol, perm, &rank, beta, work), TAGK_OK);
	assert_int_equal(rank, 0); /* nothing identifiable */
}

static void
test_refusals(void **state)
{
	(void)state;
	tagk_real W[4 * 3] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 }, beta[9], work[3];
	int perm[3], rank = -7;
	assert_int_equal(tagk_base_qr(4, 3, W, 0, perm, &rank, beta, work), TAGK_EINVAL);
	assert_int_equal(tagk_base_qr(4, 3, W, 1, perm, &rank, beta, work), TAGK_EINVAL);
	assert_int_equal(tagk_base_qr(0, 3, W, tol, perm, &rank, beta, work), TAGK_EINVAL);
	W[5] = NAN;
	assert_int_equal(tagk_base_qr(4, 3, W, tol, perm, &rank, beta, work), TAGK_ENONFINITE);
	assert_int_equal(rank, -7); /* untouched on failure */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rank_and_grouping),
		cmocka_unit_test(test_full_rank_and_zero),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
