/* test_metrics.c: block errors and the log-det divergence of pseudo-inertias
 * (metrics.h) against hand-worked values, the textbook formula evaluated
 * here in long double, and its invariance under a change of body frame. */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include "bodies.h"

static void
test_block_errors(void **state)
{
	(void)state;
	/* truth: m 2, h = (0.3, 0, -0.4) (|h| 0.5), I = diag(1, 2, 2) (|I|_F 3) */
	tagk_real t[10] = { 2, (tagk_real)0.3, 0, (tagk_real)-0.4, 1, 0, 2, 0, 0, 2 };
	tagk_real e[10], err[TAGK_NERR];
	memcpy(e, t, sizeof(e));
	e[0] = (tagk_real)2.2;          /* 10 % */
	e[2] = (tagk_real)0.05;         /* 0.05 / 0.5: 10 % */
	e[5] = (tagk_real)0.3;          /* Ixy: twice in the matrix, sqrt(2 * 0.09) / 3 */
	tagk_block_errors(e, t, err);
	assert_true(fabs((double)err[TAGK_ERR_MASS] - 0.1) < 1e-6);
	assert_true(fabs((double)err[TAGK_ERR_MOMENT] - 0.1) < 1e-6);
	assert_true(fabs((double)err[TAGK_ERR_INERTIA] - sqrt(0.18) / 3) < 1e-6);
	/* a zero first moment in the truth: the absolute error */
	t[1] = t[3] = 0;
	memcpy(e, t, sizeof(e));
	e[1] = (tagk_real)0.03;
	tagk_block_errors(e, t, err);
	assert_true(fabs((double)err[TAGK_ERR_MOMENT] - 0.03) < 1e-6);
}

/* log det and inverse of a 4 x 4 matrix, long double, Gauss-Jordan with
 * partial pivoting: an independent evaluation of the textbook formula. */
static long double
logdet_inv(const tagk_real A[16], long double inv[16])
{
	long double M[4][8];
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 8; j++)
			M[i][j] = j < 4 ? (long double)A[i * 4 + j] : (long double)(j - 4 == i);
	long double ld = 0;
	for (int k = 0; k < 4; k++) {
		int p = k;
		for (int i = k + 1; i < 4; i++)
			if (fabsl(M[i][k]) > fabsl(M[p][k]))
				p = i;
		for (int j = 0; j < 8; j++) {
			long double tmp = M[k][j];
			M[k][j] = M[p][j];
			M[p][j] = tmp;
		}
		ld += logl(fabsl(M[k][k]));
		long double d = M[k][k];
		for (int j = 0; j < 8; j++)
			M[k][j] /= d;
		for (int i = 0; i < 4; i++)
			if (i != k) {
				long double f = M[i][k];
				for (int j = 0; j < 8; j++)
					M[i][j] -= f * M[k][j];
			}
	}
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			inv[i * 4 + j] = M[i][4 + j];
	return ld;
}

/* theta of the same body seen from a frame moved by (R, p): J' = T J T^T
 * with T = [R p; 0 1]. */
static void
move_frame(const tagk_real th[10], const tagk_real R[9], const tagk_real p[3], tagk_real out[10])
{
	tagk_real J[16], T[16] = { 0 }, TJ[16], Jn[16];
	tagk_pseudo_inertia(th, J);
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 3; j++)
			T[i * 4 + j] = R[i * 3 + j];
		T[i * 4 + 3] = p[i];
	}
	T[15] = 1;
	tagk_matmul(4, 4, 4, T, J, TJ);
	tagk_matmul_nt(4, 4, 4, TJ, T, Jn);
	tagk_theta_from_pseudo(Jn, out);
}

static void
test_logdet_divergence(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 12);
	double worst = 0, worst_inv = 0;
	for (int trial = 0; trial < 200; trial++) {
		tagk_real a[10], b[10];
		random_valid_body(&g, a);
		random_valid_body(&g, b);
		tagk_real D = tagk_logdet_divergence(a, b);
		assert_true(D >= 0);
		assert_true(fabs((double)tagk_logdet_divergence(a, a)) < 1e-12);
		/* the textbook formula, in long double */
		tagk_real Ja[16], Jb[16];
		tagk_pseudo_inertia(a, Ja);
		tagk_pseudo_inertia(b, Jb);
		long double ia[16], ib[16];
		long double la = logdet_inv(Ja, ia), lb = logdet_inv(Jb, ib), tr = 0;
		for (int i = 0; i < 4; i++)
			for (int j = 0; j < 4; j++)
				tr += ib[i * 4 + j] * (long double)Ja[j * 4 + i];
		double ref = (double)(-la + lb + tr - 4);
		worst = fmax(worst, fabs((double)D - ref) / (ref + 1e-12));
		/* a change of body frame moves both bodies and leaves D unchanged */
		tagk_real R[9], p[3], a2[10], b2[10];
		random_rotation(&g, R);
		fill_gauss(&g, 3, p);
		move_frame(a, R, p, a2);
		move_frame(b, R, p, b2);
		tagk_real D2 = tagk_logdet_divergence(a2, b2);
		worst_inv = fmax(worst_inv, fabs((double)(D2 - D)) / ((double)D + 1e-12));
	}
	print_message("200 pairs of bodies: against the formula in long double %.1e, frame invariance %.1e "
	    "(relative, worst)\n", worst, worst_inv);
#ifdef TAGK_FLOAT
	assert_true(worst < 1e-2 && worst_inv < 1e-2);
#else
	assert_true(worst < 1e-9 && worst_inv < 1e-8);
#endif
	/* near the prior the formula cancels; the eigenvalue form does not. A
	 * change dm of the mass alone is a rank-one change of J, whose one
	 * eigenvalue in J0^-1 dJ is x = dm (J0^-1)_44: D = x - log(1 + x) */
	tagk_real a[10], b[10], J0[16];
	random_valid_body(&g, a);
	memcpy(b, a, sizeof(b));
	b[0] *= (tagk_real)(1 + 1e-6);
	tagk_pseudo_inertia(a, J0);
	long double i0[16];
	logdet_inv(J0, i0);
	long double x = ((long double)b[0] - (long double)a[0]) * i0[15];
	double ref = (double)(x - log1pl(x));
	tagk_real D = tagk_logdet_divergence(b, a);
	print_message("a 1e-6 change of the mass: D %.6e, x - log(1 + x) %.6e\n", (double)D, ref);
#ifndef TAGK_FLOAT
	assert_true(fabs((double)D - ref) < 1e-6 * ref);
#else
	(void)D;
#endif
	/* not physical: -1; a prior that is not: -2 */
	b[0] = -1;
	assert_true(tagk_logdet_divergence(b, a) == -1);
	assert_true(tagk_logdet_divergence(a, b) == -2);
}

/* Pearson's r of a_t and b_{t+s} over the samples both cover, in long
 * double: the textbook two-pass formula, independent of metrics.c. */
static double
pearson(const tagk_real *a, const tagk_real *b, long n, long s)
{
	long lo = s < 0 ? -s : 0, hi = s > 0 ? n - s : n;
	long double ma = 0, mb = 0, saa = 0, sbb = 0, sab = 0;
	for (long t = lo; t < hi; t++) {
		ma += a[t];
		mb += b[t + s];
	}
	ma /= (long double)(hi - lo);
	mb /= (long double)(hi - lo);
	for (long t = lo; t < hi; t++) {
		saa += (a[t] - ma) * (a[t] - ma);
		sbb += (b[t + s] - mb) * (b[t + s] - mb);
		sab += (a[t] - ma) * (b[t + s] - mb);
	}
	return (double)(sab / sqrtl(saa * sbb));
}

/* The NCC is the largest Pearson r over the shifts, and it does not see
 * b's (or a's) units or offset: signals on a large mean (a force on
 * gravity's 9.81) score as their centred parts do. */
static void
test_ncc_pearson(void **state)
{
	(void)state;
	enum { N = 64 };
	tagk_real a[N], b[N], a2[N], b2[N];
	for (int t = 0; t < N; t++) {
		double x = 0.3 * t;
		a[t] = (tagk_real)(sin(x) + 0.4 * cos(2.7 * x) + 9.81);
		b[t] = (tagk_real)(sin(x - 0.25) + 0.1 * sin(5.1 * x) + 9.81);
		a2[t] = (tagk_real)(0.01 * (double)a[t] - 3);
		b2[t] = (tagk_real)(250 * (double)b[t] + 40);
	}
	for (long ms = 0; ms <= 3; ms++) {
		double best = -2;
		for (long s = -ms; s <= ms; s++) {
			double r = pearson(a, b, N, s);
			best = r > best ? r : best;
		}
		double got = (double)tagk_ncc(a, b, N, ms), got2 = (double)tagk_ncc(a2, b2, N, ms);
		print_message("max shift %ld: ncc %.9f, Pearson %.9f, rescaled %.9f\n", ms, got, best, got2);
		assert_true(fabs(got - best) < 1e-5);
		assert_true(fabs(got2 - best) < 1e-4);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_block_errors),
		cmocka_unit_test(test_logdet_divergence),
		cmocka_unit_test(test_ncc_pearson),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
