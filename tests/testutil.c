/* testutil.c: see testutil.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

void
fill_gauss(tagk_rng *g, int k, tagk_real *x)
{
	for (int i = 0; i < k; i++)
		x[i] = tagk_rng_gaussian(g);
}

/* ||x - y|| / ||y|| in long double, y given as long doubles. */
static double
rel_err_ld(int n, const tagk_real *x, const long double *y)
{
	long double num = 0, den = 0;
	for (int i = 0; i < n; i++) {
		long double d = (long double)x[i] - y[i];
		num += d * d;
		den += y[i] * y[i];
	}
	return (double)sqrtl(num / (den > 0 ? den : 1));
}

double
rel_err(int n, const tagk_real *x, const tagk_real *y)
{
	long double yl[512];
	assert_true(n <= 512);
	for (int i = 0; i < n; i++)
		yl[i] = y[i];
	return rel_err_ld(n, x, yl);
}

double
rel_err_d(int n, const tagk_real *x, const double *y)
{
	long double yl[512];
	assert_true(n <= 512);
	for (int i = 0; i < n; i++)
		yl[i] = y[i];
	return rel_err_ld(n, x, yl);
}

void
oracle_lsq(int m, int n, const tagk_real *A, const tagk_real *b,
    const double *wt, double delta, const tagk_real *x0, double *x)
{
	enum { MAXR = 400, MAXN = 64 };
	static long double Q[MAXR][MAXN + 1];
	int rows = m + (delta > 0 ? n : 0);
	assert_true(rows <= MAXR && n <= MAXN);
	for (int i = 0; i < m; i++) {
		long double s = wt ? sqrtl(wt[i]) : 1;
		for (int j = 0; j < n; j++)
			Q[i][j] = s * A[i * n + j];
		Q[i][n] = s * b[i];
	}
	if (delta > 0) {
		long double sd = sqrtl(delta);
		for (int i = 0; i < n; i++) {
			for (int j = 0; j < n; j++)
				Q[m + i][j] = i == j ? sd : 0;
			Q[m + i][n] = sd * (x0 ? x0[i] : 0);
		}
	}
	/* Householder QR applied to [A | b]. */
	for (int k = 0; k < n; k++) {
		long double norm = 0;
		for (int i = k; i < rows; i++)
			norm += Q[i][k] * Q[i][k];
		norm = sqrtl(norm);
		assert_true(norm > 0);
		long double alpha = Q[k][k] > 0 ? -norm : norm;
		long double v0 = Q[k][k] - alpha;
		/* v = [v0, Q[k+1..][k]]; H = I - 2 v v^T / (v^T v) */
		long double vtv = v0 * v0;
		for (int i = k + 1; i < rows; i++)
			vtv += Q[i][k] * Q[i][k];
		for (int j = k + 1; j <= n; j++) {
			long double d = v0 * Q[k][j];
			for (int i = k + 1; i < rows; i++)
				d += Q[i][k] * Q[i][j];
			long double f = 2 * d / vtv;
			Q[k][j] -= f * v0;
			for (int i = k + 1; i < rows; i++)
				Q[i][j] -= f * Q[i][k];
		}
		Q[k][k] = alpha;
	}
	for (int k = n - 1; k >= 0; k--) {
		long double s = Q[k][n];
		for (int j = k + 1; j < n; j++)
			s -= Q[k][j] * (long double)x[j];
		x[k] = (double)(s / Q[k][k]);
	}
}

static const unsigned char pattern[4] = { 0xde, 0xad, 0xbe, 0xef };

tagk_real *
canary_alloc(size_t len)
{
	tagk_real *buf = malloc((len + CANARY_WORDS) * sizeof(tagk_real));
	assert_non_null(buf);
	memset(buf, 0, len * sizeof(tagk_real));
	unsigned char *p = (unsigned char *)(buf + len);
	for (size_t i = 0; i < CANARY_WORDS * sizeof(tagk_real); i++)
		p[i] = pattern[i % 4];
	return buf;
}

int
canary_intact(const tagk_real *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)(buf + len);
	for (size_t i = 0; i < CANARY_WORDS * sizeof(tagk_real); i++)
		if (p[i] != pattern[i % 4])
			return 0;
	return 1;
}

void
canary_free(tagk_real *buf)
{
	free(buf);
}

/* Solve S x = v (n x n) by Gaussian elimination with partial pivoting in
 * long double: an oracle sharing nothing with the library's Cholesky. */
void
gauss_solve(int n, long double *S, long double *v)
{
	for (int k = 0; k < n; k++) {
		int p = k;
		for (int i = k + 1; i < n; i++)
			if (fabsl(S[i * n + k]) > fabsl(S[p * n + k]))
				p = i;
		for (int j = 0; j < n; j++) {
			long double t = S[k * n + j]; S[k * n + j] = S[p * n + j]; S[p * n + j] = t;
		}
		long double t = v[k]; v[k] = v[p]; v[p] = t;
		for (int i = k + 1; i < n; i++) {
			long double f = S[i * n + k] / S[k * n + k];
			for (int j = k; j < n; j++)
				S[i * n + j] -= f * S[k * n + j];
			v[i] -= f * v[k];
		}
	}
	for (int k = n - 1; k >= 0; k--) {
		for (int j = k + 1; j < n; j++)
			v[k] -= S[k * n + j] * v[j];
		v[k] /= S[k * n + k];
	}
}
