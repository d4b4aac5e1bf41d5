/* test_changepoint.c: changepoint.h against independent computations: a
 * segment's cost against the residual of a Gram-Schmidt least squares on
 * its rows, the compensated prefixes against a segment's own sums over a
 * long log with a large offset, and the optimal partitioning against an
 * exhaustive search over every segmentation with up to three changes. */
#include <math.h>
#include <string.h>
#include "testutil.h"

enum { NP = 3, RPB = 4, MB = 48, MAXR = MB * RPB };

/* The least residual of rows A (r x n) b by modified Gram-Schmidt: b's
 * part orthogonal to A's columns (a column dependent on earlier ones,
 * norm below 1e-9 of its own, is skipped). */
static double
rss_gs(int r, int n, const double *A, const double *b)
{
	static double Q[MAXR * 8], v[MAXR];
	memcpy(Q, A, (size_t)r * (size_t)n * sizeof(double));
	memcpy(v, b, (size_t)r * sizeof(double));
	for (int j = 0; j < n; j++) {
		double n0 = 0, nn = 0;
		for (int i = 0; i < r; i++)
			n0 += A[i * n + j] * A[i * n + j];
		for (int q = 0; q < j; q++) {
			double d = 0;
			for (int i = 0; i < r; i++)
				d += Q[i * n + q] * Q[i * n + j];
			for (int i = 0; i < r; i++)
				Q[i * n + j] -= d * Q[i * n + q];
		}
		for (int i = 0; i < r; i++)
			nn += Q[i * n + j] * Q[i * n + j];
		if (!(nn > 1e-18 * n0)) {
			for (int i = 0; i < r; i++)
				Q[i * n + j] = 0;
			continue;
		}
		for (int i = 0; i < r; i++)
			Q[i * n + j] /= sqrt(nn);
		double d = 0;
		for (int i = 0; i < r; i++)
			d += Q[i * n + j] * v[i];
		for (int i = 0; i < r; i++)
			v[i] -= d * Q[i * n + j];
	}
	double s = 0;
	for (int i = 0; i < r; i++)
		s += v[i] * v[i];
	return s;
}

static double A[MAXR * NP], B[MAXR], blocks[MB * 16], hi[(MB + 1) * 16], lo[(MB + 1) * 16];

/* MB blocks of RPB rows, theta changing at blocks c1 and c2 (0: none). */
static void
make(uint64_t seed, int c1, int c2, double noise)
{
	tagk_rng g;
	tagk_rng_seed(&g, seed);
	memset(blocks, 0, sizeof(blocks));
	for (int bk = 0; bk < MB; bk++)
		for (int q = 0; q < RPB; q++) {
			int i = bk * RPB + q;
			double th[NP] = { 1, -0.5, 0.25 };
			if (c1 && bk >= c1)
				th[0] = 1.4;
			if (c2 && bk >= c2)
				th[1] = 0.3;
			B[i] = noise * (double)tagk_rng_gaussian(&g);
			for (int j = 0; j < NP; j++) {
				A[i * NP + j] = (double)tagk_rng_gaussian(&g);
				B[i] += A[i * NP + j] * th[j];
			}
			tagk_cp_add_row(NP, blocks + (size_t)bk * tagk_cp_width(NP), A + i * NP, B[i], 1);
		}
	tagk_cp_prefix(NP, blocks, MB, hi, lo);
}

static void
test_cost_is_least_squares(void **state)
{
	(void)state;
	double ws[NP * NP + NP + 1];
	make(7, 20, 0, 0.1);
	for (int i = 0; i < MB; i += 5)
		for (int j = i + 1; j <= MB; j += 7) {
			double want = rss_gs((j - i) * RPB, NP, A + i * RPB * NP, B + i * RPB);
			double got = tagk_cp_cost(NP, hi, lo, i, j, ws);
			assert_true(fabs(got - want) <= 1e-9 * (want + 1e-12));
		}
}

static void
test_dependent_column(void **state)
{
	(void)state;
	/* the third column a copy of the first: the residual of the other two */
	make(8, 0, 0, 0.1);
	memset(blocks, 0, sizeof(blocks));
	double A2[MAXR * 2];
	for (int i = 0; i < MAXR; i++) {
		A[i * NP + 2] = A[i * NP];
		A2[i * 2] = A[i * NP], A2[i * 2 + 1] = A[i * NP + 1];
		tagk_cp_add_row(NP, blocks + (size_t)(i / RPB) * tagk_cp_width(NP), A + i * NP, B[i], 1);
	}
	tagk_cp_prefix(NP, blocks, MB, hi, lo);
	double ws[NP * NP + NP + 1];
	double want = rss_gs(MAXR, 2, A2, B), got = tagk_cp_cost(NP, hi, lo, 0, MB, ws);
	assert_true(want > 0);
	assert_true(fabs(got - want) <= 1e-8 * want);
}

/* A mean (n = 1, y = 1) of b = 1e6 + unit noise over 2e5 blocks: the sum
 * of b^2 reaches 2e17, where a double's step is 32, yet the residual of
 * ten late blocks (about 10) must come out right. */
static void
test_prefix_compensated(void **state)
{
	(void)state;
	enum { M = 200000 };
	static double bl[M * 3], h2[(M + 1) * 3], l2[(M + 1) * 3];
	tagk_rng g;
	tagk_rng_seed(&g, 3);
	double y = 1, b[10];
	for (int i = 0; i < M; i++) {
		double v = 1e6 + (double)tagk_rng_gaussian(&g);
		tagk_cp_add_row(1, bl + 3 * i, &y, v, 1);
		if (i >= M - 10)
			b[i - (M - 10)] = v;
	}
	tagk_cp_prefix(1, bl, M, h2, l2);
	double mean = 0, rss = 0, ws[3];
	for (int i = 0; i < 10; i++)
		mean += (b[i] - 1e6) / 10;
	for (int i = 0; i < 10; i++)
		rss += (b[i] - 1e6 - mean) * (b[i] - 1e6 - mean);
	double got = tagk_cp_cost(1, h2, l2, M - 10, M, ws);
	assert_true(fabs(got - rss) <= 1e-3 * rss);
}

/* Every segmentation of [0, MB) with up to three changes, segments of at
 * least minlen blocks: the least cost plus beta per change (recursive:
 * the changes after c[0 .. k-1], the next at least minlen after from). */
static void
search(long *c, long k, long from, long minlen, double beta, double *best, long *best_cp, long *best_n)
{
	long e[5] = { 0 };
	for (long q = 0; q < k; q++)
		e[q + 1] = c[q];
	e[k + 1] = MB;
	double v = beta * (double)k;
	for (long q = 0; q <= k; q++)
		v = e[q + 1] - e[q] < minlen ? INFINITY
		    : v + rss_gs((int)(e[q + 1] - e[q]) * RPB, NP, A + e[q] * RPB * NP, B + e[q] * RPB);
	if (v < *best) {
		*best = v;
		*best_n = k;
		memcpy(best_cp, c, 3 * sizeof(long));
	}
	for (long t = from + minlen; k < 3 && t + minlen <= MB; t++) {
		c[k] = t;
		search(c, k + 1, t, minlen, beta, best, best_cp, best_n);
	}
}

static double
exhaustive(long minlen, double beta, long *best_cp, long *best_n)
{
	double best = INFINITY;
	long c[3] = { 0 };
	search(c, 0, 0, minlen, beta, &best, best_cp, best_n);
	return best;
}

static void
check_against_exhaustive(uint64_t seed, int c1, int c2, long minlen, double beta)
{
	make(seed, c1, c2, 0.2);
	long pos[MB + 1], last[2 * (MB + 1)], active[MB + 1], cp[8], want_cp[3], want_n = -1;
	double F[2 * (MB + 1)], ws[NP * NP + NP + 1], total;
	for (long i = 0; i <= MB; i++)
		pos[i] = i;
	long n = tagk_cp_segment(NP, hi, lo, pos, MB, minlen, beta, F, last, active, ws, cp, 8, &total);
	double want = exhaustive(minlen, beta, want_cp, &want_n);
	assert_true(n >= 0 && n <= 3);
	assert_int_equal(n, want_n);
	for (long q = 0; q < n; q++)
		assert_int_equal(cp[q], want_cp[q]);
	assert_true(fabs(total - want) <= 1e-9 * want);
}

static void
test_partition_is_exhaustive_optimum(void **state)
{
	(void)state;
	/* beta in units of the residual (noise 0.2: 0.04 per row) */
	check_against_exhaustive(11, 17, 31, 1, 0.04 * 4 * log(MAXR));
	check_against_exhaustive(12, 17, 31, 4, 0.04 * 4 * log(MAXR));
	check_against_exhaustive(13, 9, 0, 3, 0.04 * 4 * log(MAXR));
	check_against_exhaustive(14, 0, 0, 2, 0.04 * 4 * log(MAXR));
	check_against_exhaustive(15, 24, 26, 2, 0.04 * 4 * log(MAXR));
	/* a smaller penalty: pruning less sure */
	check_against_exhaustive(16, 0, 0, 5, 0.04 * 4 * 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cost_is_least_squares),
		cmocka_unit_test(test_dependent_column),
		cmocka_unit_test(test_prefix_compensated),
		cmocka_unit_test(test_partition_is_exhaustive_optimum),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
