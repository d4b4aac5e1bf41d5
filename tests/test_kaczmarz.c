/* test_kaczmarz.c: rk, grk, tark, tagk against exact and least-squares answers. */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include "../bench/naive_kaczmarz.h"

enum { M = 30, N = 10 };

static const char *const kz_names[] = { "rk", "grk", "tark", "tagk" };

typedef struct {
	tagk_estimator est;
	tagk_real *ws;
	size_t len;
} fixture;

static void
open_est(fixture *f, const char *name, int n, int m_max, uint64_t seed, const tagk_real *theta0)
{
	tagk_config cfg;
	const tagk_method *mt = tagk_method_find(name);
	assert_non_null(mt);
	tagk_config_defaults(&cfg, mt, n, m_max);
	cfg.seed = seed;
	cfg.theta0 = theta0;
	f->len = tagk_est_workspace_len(&cfg);
	assert_true(f->len > 0);
	f->ws = canary_alloc(f->len);
	assert_int_equal(tagk_est_init(&f->est, &cfg, f->ws, f->len), TAGK_OK);
}

static void
close_est(fixture *f)
{
	assert_true(canary_intact(f->ws, f->len));
	canary_free(f->ws);
}

/* Consistent overdetermined windows A x* = b, fresh each update. */
static void
test_consistent_exact(void **state)
{
	(void)state;
	for (int v = 0; v < 4; v++) {
		tagk_rng g;
		tagk_rng_seed(&g, 100 + (uint64_t)v);
		tagk_real xs[N], A[M * N], b[M];
		fill_gauss(&g, N, xs);
		fixture f;
		open_est(&f, kz_names[v], N, M, 5, NULL);
		for (int it = 0; it < 400; it++) {
			fill_gauss(&g, M * N, A);
			tagk_gemv(M, N, A, xs, b);
			assert_int_equal(tagk_est_update(&f.est, A, b, M, NULL), TAGK_OK);
		}
		double e = rel_err(N, tagk_est_theta(&f.est), xs);
		if (!(e < TOL_EXACT))
			fail_msg("%s: relative error %g after 400 updates", kz_names[v], e);
		close_est(&f);
	}
}

/* One fixed noisy window: TAG-K's averaged estimate is closer to the
 * least-squares solution than GRK's last iterate. */
static void
test_tagk_beats_grk_on_noise(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 77);
	tagk_real A[M * N], b[M], xs[N];
	double xls[N];
	fill_gauss(&g, M * N, A);
	fill_gauss(&g, N, xs);
	tagk_gemv(M, N, A, xs, b);
	for (int i = 0; i < M; i++)
		b[i] += (tagk_real)0.2 * tagk_rng_gaussian(&g);
	oracle_lsq(M, N, A, b, NULL, 0, NULL, xls);

	int wins = 0;
	double sum_t = 0, sum_g = 0;
	const int seeds = 20;
	for (int s = 1; s <= seeds; s++) {
		fixture ft, fg;
		open_est(&ft, "tagk", N, M, (uint64_t)s, NULL);
		open_est(&fg, "grk", N, M, (uint64_t)s, NULL);
		for (int it = 0; it < 50; it++) {
			assert_int_equal(tagk_est_update(&ft.est, A, b, M, NULL), TAGK_OK);
			assert_int_equal(tagk_est_update(&fg.est, A, b, M, NULL), TAGK_OK);
		}
		double et = rel_err_d(N, tagk_est_theta(&ft.est), xls);
		double eg = rel_err_d(N, tagk_est_theta(&fg.est), xls);
		sum_t += et;
		sum_g += eg;
		wins += et < eg;
		close_est(&ft);
		close_est(&fg);
	}
	print_message("noisy window: mean distance to LS tagk %.3g grk %.3g, tagk closer on %d/%d seeds\n",
	    sum_t / seeds, sum_g / seeds, wins, seeds);
	assert_true(sum_t < sum_g);
	assert_true(wins >= seeds * 3 / 4);
}

static void
test_zero_rows_skipped(void **state)
{
	(void)state;
	for (int v = 0; v < 4; v++) {
		tagk_rng g;
		tagk_rng_seed(&g, 200);
		tagk_real xs[N], A[M * N], b[M];
		fill_gauss(&g, N, xs);
		fixture f;
		open_est(&f, kz_names[v], N, M, 9, NULL);
		for (int it = 0; it < 400; it++) {
			fill_gauss(&g, M * N, A);
			tagk_gemv(M, N, A, xs, b);
			for (int i = 0; i < M; i += 3) { /* every third row zero, b not */
				memset(A + i * N, 0, sizeof(A[0]) * N);
				b[i] = 5;
			}
			assert_int_equal(tagk_est_update(&f.est, A, b, M, NULL), TAGK_OK);
			assert_true(tagk_all_finite(N, tagk_est_theta(&f.est)));
		}
		assert_true(rel_err(N, tagk_est_theta(&f.est), xs) < TOL_EXACT);
		close_est(&f);
	}
}

/* The greedy variants' two ways to the Gram matrix give the same bits:
 * on an x86-64 CPU with AVX2 a window of up to 32 rows has its whole
 * matrix formed before the iterations (kaczmarz.c, kz_full), a larger one
 * its columns when their rows are first chosen. The same 32 rows with a
 * zero row appended (never chosen, adding only zeros to every sum) take
 * the second way, so the estimates must agree bit for bit (T = 32
 * iterations for both: by default T is the window's rows); elsewhere both
 * take the second and agree all the same. n = 3 (the tail alone), 10,
 * 41 (four by four on AVX-512VL, a tail of 1); m = 32 (every block of
 * four rows whole) and 30 (the last block cut short). */
static void
test_gram_forms_agree(void **state)
{
	(void)state;
	static const int ns[] = { 3, 10, 41 };
	for (int v = 1; v < 4; v += 2) {
		for (int c = 0; c < 6; c++) {
			const int n = ns[c % 3], m = c < 3 ? 32 : 30;
			tagk_rng g;
			tagk_rng_seed(&g, 700 + (uint64_t)n);
			tagk_real xs[41], A[33 * 41], b[33];
			fill_gauss(&g, n, xs);
			fixture whole, cols;
			open_est(&whole, kz_names[v], n, m, 11, NULL);
			open_est(&cols, kz_names[v], n, m + 1, 11, NULL);
			whole.est.s.kz.cfg.iters = cols.est.s.kz.cfg.iters = m;
			for (int it = 0; it < 50; it++) {
				fill_gauss(&g, m * n, A);
				tagk_gemv(m, n, A, xs, b);
				for (int i = 0; i < m; i++)
					b[i] += (tagk_real)0.01 * tagk_rng_gaussian(&g);
				memset(A + m * n, 0, sizeof(A[0]) * (size_t)n);
				b[m] = 0;
				assert_int_equal(tagk_est_update(&whole.est, A, b, m, NULL), TAGK_OK);
				assert_int_equal(tagk_est_update(&cols.est, A, b, m + 1, NULL), TAGK_OK);
				if (memcmp(tagk_est_theta(&whole.est), tagk_est_theta(&cols.est), sizeof(xs[0]) * (size_t)n) != 0)
					fail_msg("%s, m = %d, n = %d, update %d: the two ways to the Gram matrix differ", kz_names[v], m, n, it);
				assert_int_equal(whole.est.s.kz.columns, cols.est.s.kz.columns);
			}
			close_est(&whole);
			close_est(&cols);
		}
	}
}

/* The same on windows built for ties, where the whole-Gram loop's lane
 * sums of R2 cannot settle a comparison and it must add R2 row after row
 * as the generic loop does (kaczmarz.c, greedy_whole_avx2): rows c_i e_i
 * (c_i in {1, 2, 4}, b_i = c_i v, from zero) make every r_i^2 / s_i equal,
 * so the first threshold is every row's r_i^2 / s_i exactly; with every
 * c_i = 1, R2 after t steps is (32 - t) v^2 and tol^2 = k / 32 puts the
 * stop test on it. Only the estimates of the two ways are compared: both
 * must stop at the same step and choose the same rows. */
static void
test_gram_forms_agree_on_ties(void **state)
{
	(void)state;
	enum { m = 32, n = 41 };
	tagk_rng g;
	tagk_rng_seed(&g, 901);
	for (int v = 1; v < 4; v += 2) {
		fixture whole, cols;
		open_est(&whole, kz_names[v], n, m, 13, NULL);
		open_est(&cols, kz_names[v], n, m + 1, 13, NULL);
		whole.est.s.kz.cfg.iters = cols.est.s.kz.cfg.iters = m;
		whole.est.s.kz.cfg.warm_start = cols.est.s.kz.cfg.warm_start = 0;
		for (int it = 0; it < 60; it++) {
			tagk_real A[(m + 1) * n], b[m + 1];
			memset(A, 0, sizeof(A));
			const int stop = it % 2, k = 4 + it % 24;
			const tagk_real val = (tagk_real)(1 + it % 3);
			for (int i = 0; i < m; i++) {
				tagk_real c = stop ? 1 : (tagk_real)(1 << (tagk_rng_next(&g) % 3));
				A[i * n + i] = c;
				b[i] = c * val;
			}
			b[m] = 0;
			tagk_real tol = stop ? (tagk_real)sqrt((double)k / m) : (tagk_real)1e-12;
			whole.est.s.kz.cfg.tol = cols.est.s.kz.cfg.tol = tol;
			assert_int_equal(tagk_est_update(&whole.est, A, b, m, NULL), TAGK_OK);
			assert_int_equal(tagk_est_update(&cols.est, A, b, m + 1, NULL), TAGK_OK);
			if (memcmp(tagk_est_theta(&whole.est), tagk_est_theta(&cols.est), sizeof(A[0]) * (size_t)n) != 0)
				fail_msg("%s, update %d: the two ways to the Gram matrix differ on ties", kz_names[v], it);
			assert_int_equal(whole.est.s.kz.columns, cols.est.s.kz.columns);
		}
		close_est(&whole);
		close_est(&cols);
	}
}

static void
test_bad_windows_leave_estimate(void **state)
{
	(void)state;
	for (int v = 0; v < 4; v++) {
		tagk_rng g;
		tagk_rng_seed(&g, 300);
		tagk_real A[M * N], b[M], before[N], out[N];
		fixture f;
		open_est(&f, kz_names[v], N, M, 3, NULL);
		fill_gauss(&g, M * N, A);
		fill_gauss(&g, M, b);
		assert_int_equal(tagk_est_update(&f.est, A, b, M, NULL), TAGK_OK);
		memcpy(before, tagk_est_theta(&f.est), sizeof(before));
		memcpy(out, before, sizeof(out));

		tagk_real Z[M * N] = { 0 };
		assert_int_equal(tagk_est_update(&f.est, Z, b, M, out), TAGK_EZERO);
		A[17] = NAN;
		assert_int_equal(tagk_est_update(&f.est, A, b, M, out), TAGK_ENONFINITE);
		A[17] = INFINITY;
		assert_int_equal(tagk_est_update(&f.est, A, b, M, out), TAGK_ENONFINITE);
		A[17] = 1;
		b[4] = -INFINITY;
		assert_int_equal(tagk_est_update(&f.est, A, b, M, out), TAGK_ENONFINITE);
		b[4] = 0;
		assert_int_equal(tagk_est_update(&f.est, A, b, M + 1, out), TAGK_EINVAL);
		assert_int_equal(tagk_est_update(&f.est, A, b, 0, out), TAGK_EINVAL);
		/* squares that overflow */
		A[0] = (tagk_real)1e200;
#ifdef TAGK_FLOAT
		A[0] = (tagk_real)1e30;
#endif
		assert_int_equal(tagk_est_update(&f.est, A, b, M, out), TAGK_EDIVERGED);
		assert_memory_equal(tagk_est_theta(&f.est), before, sizeof(before));
		assert_memory_equal(out, before, sizeof(before));
		close_est(&f);
	}
}

/* Kaczmarz checks its window through the row norms it needs anyway, not by
 * a scan of every entry; the statuses must be the full scan's. Random
 * faults, each kind with the status it must give, NaN and overflow mixed
 * (a NaN beside squares that overflow is bad data, not overflow). */
static void
test_fused_window_check(void **state)
{
	(void)state;
	enum { FM = 12, FN = 7 };
	const tagk_real huge = (tagk_real)(TOL_EXACT > 1e-6 ? 1e30 : 1e200);
	const tagk_real tiny = (tagk_real)(TOL_EXACT > 1e-6 ? 1e-30 : 1e-200);
	tagk_rng g;
	tagk_rng_seed(&g, 404);
	for (int trial = 0; trial < 700; trial++) {
		int kind = trial % 7;
		tagk_real A[FM * FN], b[FM];
		fill_gauss(&g, FM * FN, A);
		fill_gauss(&g, FM, b);
		int at = (int)(tagk_rng_uniform(&g) * FM * FN) % (FM * FN), row = at / FN;
		tagk_status want = TAGK_OK;
		switch (kind) {
		case 0: A[at] = tagk_rng_uniform(&g) < 0.5 ? NAN : -INFINITY; want = TAGK_ENONFINITE; break;
		case 1: /* a zero row whose b is not finite */
			for (int j = 0; j < FN; j++)
				A[row * FN + j] = 0;
			b[row] = INFINITY;
			want = TAGK_ENONFINITE;
			break;
		case 2: A[at] = NAN; A[(at + FN) % (FM * FN)] = huge; want = TAGK_ENONFINITE; break;
		case 3: memset(A, 0, sizeof(A)); b[row] = NAN; want = TAGK_ENONFINITE; break;
		case 4: memset(A, 0, sizeof(A)); want = TAGK_EZERO; break;
		case 5: for (int i = 0; i < FM * FN; i++) A[i] *= tiny; want = TAGK_EZERO; break;
		default: A[at] = huge; want = TAGK_EDIVERGED; break;
		}
		fixture f;
		open_est(&f, "tagk", FN, FM, 3, NULL);
		tagk_status got = tagk_est_update(&f.est, A, b, FM, NULL);
		if (got != want)
			fail_msg("trial %d, fault kind %d: status %d, the full scan's is %d", trial, kind, got, want);
		close_est(&f);
	}
}

static void
test_rank_deficient_and_ill_conditioned(void **state)
{
	(void)state;
	for (int v = 0; v < 4; v++) {
		tagk_rng g;
		tagk_rng_seed(&g, 400);
		tagk_real B[M * 3], C[3 * N], A[M * N], b[M], xs[N];
		fixture f;
		open_est(&f, kz_names[v], N, M, 4, NULL);
		fill_gauss(&g, N, xs);
		for (int it = 0; it < 50; it++) {
			/* rank 3 */
			fill_gauss(&g, M * 3, B);
			fill_gauss(&g, 3 * N, C);
			tagk_matmul(M, 3, N, B, C, A);
			tagk_gemv(M, N, A, xs, b);
			assert_int_equal(tagk_est_update(&f.est, A, b, M, NULL), TAGK_OK);
			assert_true(tagk_all_finite(N, tagk_est_theta(&f.est)));
			/* columns scaled over 8 decades */
			fill_gauss(&g, M * N, A);
			for (int i = 0; i < M; i++)
				for (int j = 0; j < N; j++)
					A[i * N + j] *= (tagk_real)pow(10.0, -8.0 * j / (N - 1));
			tagk_gemv(M, N, A, xs, b);
			assert_int_equal(tagk_est_update(&f.est, A, b, M, NULL), TAGK_OK);
			assert_true(tagk_all_finite(N, tagk_est_theta(&f.est)));
		}
		/* The residual of the last window is no larger than at theta = 0. */
		tagk_real r[M];
		tagk_residual(M, N, A, tagk_est_theta(&f.est), b, r);
		assert_true(tagk_dot(M, r, r) <= tagk_dot(M, b, b));
		close_est(&f);
	}
}

static void
test_same_seed_same_bits(void **state)
{
	(void)state;
	for (int v = 0; v < 4; v++) {
		fixture f1, f2, f3;
		open_est(&f1, kz_names[v], N, M, 42, NULL);
		open_est(&f2, kz_names[v], N, M, 42, NULL);
		open_est(&f3, kz_names[v], N, M, 43, NULL);
		tagk_rng g;
		tagk_rng_seed(&g, 500);
		tagk_real A[M * N], b[M];
		for (int it = 0; it < 30; it++) {
			fill_gauss(&g, M * N, A);
			fill_gauss(&g, M, b);
			assert_int_equal(tagk_est_update(&f1.est, A, b, M, NULL), TAGK_OK);
			assert_int_equal(tagk_est_update(&f2.est, A, b, M, NULL), TAGK_OK);
			assert_int_equal(tagk_est_update(&f3.est, A, b, M, NULL), TAGK_OK);
		}
		assert_memory_equal(tagk_est_theta(&f1.est), tagk_est_theta(&f2.est), N * sizeof(tagk_real));
		assert_memory_not_equal(tagk_est_theta(&f1.est), tagk_est_theta(&f3.est), N * sizeof(tagk_real));
		/* reset returns to the start and replays the same sequence */
		tagk_est_reset(&f2.est);
		tagk_rng_seed(&g, 500);
		for (int it = 0; it < 30; it++) {
			fill_gauss(&g, M * N, A);
			fill_gauss(&g, M, b);
			assert_int_equal(tagk_est_update(&f2.est, A, b, M, NULL), TAGK_OK);
		}
		assert_memory_equal(tagk_est_theta(&f1.est), tagk_est_theta(&f2.est), N * sizeof(tagk_real));
		close_est(&f1);
		close_est(&f2);
		close_est(&f3);
	}
}

/* The Gram-matrix implementation equals the straightforward one. */
static void
test_matches_straightforward(void **state)
{
	(void)state;
	int agree = 0, trials = 0;
	for (int avg = 0; avg <= 1; avg++) {
		for (int s = 0; s < 50; s++) {
			int n = 4 + s % 40, m = 30;
			tagk_rng g, gn;
			tagk_rng_seed(&g, 600 + (uint64_t)s);
			tagk_real A[30 * 44], b[30], x0[44], out[44], work[TAGK_NAIVE_WORK(30, 44)];
			fill_gauss(&g, m * n, A);
			fill_gauss(&g, m, b);
			fill_gauss(&g, n, x0);
			fixture f;
			open_est(&f, avg ? "tagk" : "grk", n, m, 1000 + (uint64_t)s, x0);
			assert_int_equal(tagk_est_update(&f.est, A, b, m, NULL), TAGK_OK);
			tagk_rng_seed(&gn, 1000 + (uint64_t)s);
			assert_int_equal(tagk_naive_greedy(m, n, A, b, x0, 0, 6, avg,
			    (tagk_real)1e-12, &gn, work, out), TAGK_OK);
			trials++;
			agree += rel_err(n, tagk_est_theta(&f.est), out) < TOL_TIGHT * 1000;
			close_est(&f);
		}
	}
	print_message("gram vs straightforward: %d/%d agree\n", agree, trials);
	/* A rounding difference can move one candidate across the greedy
	 * threshold and change the draw; that must stay rare. */
	assert_true(agree >= trials * 9 / 10);
}

static void
test_converged_window_is_a_fixed_point(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 700);
	tagk_real A[M * N], b[M], xs[N];
	fill_gauss(&g, M * N, A);
	fill_gauss(&g, N, xs);
	tagk_gemv(M, N, A, xs, b);
	for (int v = 0; v < 4; v++) {
		tagk_config cfg;
		tagk_config_defaults(&cfg, tagk_method_find(kz_names[v]), N, M);
		cfg.theta0 = xs;
		cfg.u.kz.tol = (tagk_real)1e-4;
		size_t len = tagk_est_workspace_len(&cfg);
		tagk_real *ws = canary_alloc(len);
		tagk_estimator est;
		assert_int_equal(tagk_est_init(&est, &cfg, ws, len), TAGK_OK);
		assert_int_equal(tagk_est_update(&est, A, b, M, NULL), TAGK_OK);
		assert_memory_equal(tagk_est_theta(&est), xs, sizeof(xs));
		canary_free(ws);
	}
}

static void
test_init_validates(void **state)
{
	(void)state;
	tagk_kz_config c;
	tagk_kz k;
	tagk_real ws[200];
	tagk_kz_defaults(&c, TAGK_KZ_TAGK);
	assert_int_equal(tagk_kz_workspace_len(10, 5), 4 * 10 + 5 * (5 + 6));
	assert_int_equal(tagk_kz_init(&k, &c, 10, 5, NULL, ws, 94), TAGK_ESPACE);
	assert_int_equal(tagk_kz_init(&k, &c, 10, 5, NULL, ws, 95), TAGK_OK);
	assert_int_equal(tagk_kz_init(&k, &c, 0, 5, NULL, ws, 200), TAGK_EINVAL);
	assert_int_equal(tagk_kz_init(&k, &c, 10, 0, NULL, ws, 200), TAGK_EINVAL);
	c.tol = -1;
	assert_int_equal(tagk_kz_init(&k, &c, 10, 5, NULL, ws, 200), TAGK_EINVAL);
	c.tol = NAN;
	assert_int_equal(tagk_kz_init(&k, &c, 10, 5, NULL, ws, 200), TAGK_EINVAL);
	tagk_kz_defaults(&c, TAGK_KZ_TAGK);
	tagk_real bad[10] = { NAN };
	assert_int_equal(tagk_kz_init(&k, &c, 10, 5, bad, ws, 200), TAGK_ENONFINITE);
}

/* tagk-robust on the thrust-only mass model: per sample a z row (a_z, b =
 * m a_z) and two lateral rows at the noise floor (a = noise, b = 0). TAG-K
 * is pulled toward 0 by the lateral rows; tagk-robust leaves them out and
 * finds m = b_z / a_z, the closed form of the z rows. Without small rows
 * it is TAG-K, bit for bit; a window of small rows only is passed whole. */
static void
test_robust_screens_noise_rows(void **state)
{
	(void)state;
	enum { S = 5, MS = 3 * S };
	const tagk_real m = (tagk_real)0.04;
	tagk_rng g;
	tagk_rng_seed(&g, 5);
	fixture ft, fr;
	open_est(&ft, "tagk", 1, MS, 3, NULL);
	open_est(&fr, "tagk-robust", 1, MS, 3, NULL);
	tagk_real A[MS], b[MS];
	for (int u = 0; u < 50; u++) {
		for (int k = 0; k < S; k++) {
			tagk_real az = (tagk_real)9.8 + (tagk_real)0.5 * tagk_rng_gaussian(&g);
			A[3 * k] = (tagk_real)0.3 * tagk_rng_gaussian(&g);
			A[3 * k + 1] = (tagk_real)0.3 * tagk_rng_gaussian(&g);
			A[3 * k + 2] = az;
			b[3 * k] = b[3 * k + 1] = 0;
			b[3 * k + 2] = m * az;
		}
		assert_int_equal(tagk_est_update(&ft.est, A, b, MS, NULL), TAGK_OK);
		assert_int_equal(tagk_est_update(&fr.est, A, b, MS, NULL), TAGK_OK);
	}
	double et = fabs((double)tagk_est_theta(&ft.est)[0] - (double)m) / (double)m;
	double er = fabs((double)tagk_est_theta(&fr.est)[0] - (double)m) / (double)m;
	print_message("thrust-only mass rows: tagk off by %.3g, tagk-robust by %.3g (relative)\n", et, er);
	assert_true(et > 0.05);
	assert_true(er < 1e-5);
	close_est(&ft);
	close_est(&fr);
	/* rows of one size: nothing is screened, the same as tagk */
	open_est(&ft, "tagk", N, M, 9, NULL);
	open_est(&fr, "tagk-robust", N, M, 9, NULL);
	tagk_real A2[M * N], b2[M];
	for (int u = 0; u < 10; u++) {
		fill_gauss(&g, M * N, A2);
		fill_gauss(&g, M, b2);
		for (int i = 0; i < M; i++) { /* every row norm near sqrt(N) */
			tagk_real r2 = 0;
			for (int j = 0; j < N; j++)
				r2 += A2[i * N + j] * A2[i * N + j];
			for (int j = 0; j < N; j++)
				A2[i * N + j] *= tagk_sqrt((tagk_real)N / r2);
		}
		assert_int_equal(tagk_est_update(&ft.est, A2, b2, M, NULL), TAGK_OK);
		assert_int_equal(tagk_est_update(&fr.est, A2, b2, M, NULL), TAGK_OK);
	}
	assert_memory_equal(tagk_est_theta(&ft.est), tagk_est_theta(&fr.est), N * sizeof(tagk_real));
	close_est(&ft);
	close_est(&fr);
	/* a window of zero rows only: passed whole, and refused as TAG-K refuses it */
	open_est(&fr, "tagk-robust", 1, MS, 3, NULL);
	memset(A, 0, sizeof(A));
	memset(b, 0, sizeof(b));
	assert_int_equal(tagk_est_update(&fr.est, A, b, MS, NULL), TAGK_EZERO);
	close_est(&fr);
}

/* tagk-robust's fixture with the option length set (L < 0: the default). */
static void
open_robust(fixture *f, int m_max, const tagk_real *theta0, double L)
{
	tagk_config cfg;
	tagk_config_defaults(&cfg, tagk_method_find("tagk-robust"), N, m_max);
	cfg.seed = 7;
	cfg.theta0 = theta0;
	if (L >= 0)
		assert_int_equal(tagk_config_set(&cfg, "length", L), TAGK_OK);
	f->len = tagk_est_workspace_len(&cfg);
	f->ws = canary_alloc(f->len);
	assert_int_equal(tagk_est_init(&f->est, &cfg, f->ws, f->len), TAGK_OK);
}

/* A rigid-body window: force rows (mass column set) and moment rows (mass
 * column 0) alternating by three, each row scaled so that its norm in the
 * parameters scaled by D is s_force or s_moment; b Gaussian times bs. */
static void
body_window(tagk_rng *g, const tagk_real *D, tagk_real s_force, tagk_real s_moment, tagk_real bs,
    tagk_real *A, tagk_real *b)
{
	fill_gauss(g, M * N, A);
	for (int i = 0; i < M; i++) {
		int moment = (i / 3) % 2;
		if (moment)
			A[i * N + TAGK_P_M] = 0;
		tagk_real r2 = 0;
		for (int j = 0; j < N; j++)
			r2 += (A[i * N + j] * D[j]) * (A[i * N + j] * D[j]);
		tagk_real s = (moment ? s_moment : s_force) / tagk_sqrt(r2);
		for (int j = 0; j < N; j++)
			A[i * N + j] *= s;
		b[i] = bs * tagk_rng_gaussian(g);
	}
}

/* tagk-robust's scaling is TAG-K in the parameters phi = D^-1 theta, with D
 * = m0 (1, l, l, l, l^2 x 6): the same bits as tagk run here on the window
 * A D from theta0 / D, times D. l is the option length (m0 = 1) or, by
 * default, theta0's radius of gyration sqrt(tr(I0) / (2 m0)). Force and
 * moment rows are screened apart: moment rows a thousand times smaller
 * than the force rows are all kept, and a force row at the noise floor (b =
 * 0) is left out. length = 0 is TAG-K unscaled; a length on a layout that
 * is not rigid bodies, or out of range, is refused. */
static void
test_robust_scales_parameters(void **state)
{
	(void)state;
	const tagk_real th0[N] = { (tagk_real)0.035, 0, 0, 0, (tagk_real)1.66e-5, 0, (tagk_real)1.66e-5, 0, 0,
		(tagk_real)2.93e-5 };
	for (int mode = 0; mode < 2; mode++) {
		tagk_real D[N], m0 = mode ? th0[TAGK_P_M] : 1;
		tagk_real l = mode ? tagk_sqrt((th0[TAGK_P_IXX] + th0[TAGK_P_IYY] + th0[TAGK_P_IZZ]) / (2 * m0))
		                   : (tagk_real)0.03;
		for (int j = 0; j < N; j++)
			D[j] = m0 * (j == TAGK_P_M ? 1 : j <= TAGK_P_MCZ ? l : l * l);
		fixture fr, ft;
		open_robust(&fr, M, mode ? th0 : NULL, mode ? -1 : 0.03);
		assert_string_equal(tagk_est_form(&fr.est), "greedy-screened-scaled");
		tagk_real phi0[N];
		for (int j = 0; j < N; j++)
			phi0[j] = (mode ? th0[j] : 0) / D[j];
		open_est(&ft, "tagk", N, M, 7, phi0);
		tagk_rng g;
		tagk_rng_seed(&g, 11 + (uint64_t)mode);
		tagk_real A[M * N], b[M], AD[M * N], bk[M];
		for (int u = 0; u < 20; u++) {
			body_window(&g, D, 1, (tagk_real)1e-3, (tagk_real)1e-3, A, b);
			int drop = u % 2 ? 6 * (u % 5) : -1; /* a force row at the noise floor */
			if (drop >= 0) {
				for (int j = 0; j < N; j++)
					A[drop * N + j] *= (tagk_real)0.01;
				b[drop] = 0;
			}
			int k = 0;
			for (int i = 0; i < M; i++) {
				if (i == drop)
					continue;
				for (int j = 0; j < N; j++)
					AD[k * N + j] = A[i * N + j] * D[j];
				bk[k++] = b[i];
			}
			assert_int_equal(tagk_est_update(&fr.est, A, b, M, NULL), TAGK_OK);
			assert_int_equal(tagk_est_update(&ft.est, AD, bk, k, NULL), TAGK_OK);
			for (int j = 0; j < N; j++)
				assert_true(tagk_est_theta(&fr.est)[j] == tagk_est_theta(&ft.est)[j] * D[j]);
		}
		close_est(&fr);
		close_est(&ft);
	}
	/* length 0: no scaling, TAG-K itself when no row is small */
	fixture fr, ft;
	open_robust(&fr, M, th0, 0);
	open_est(&ft, "tagk", N, M, 7, th0);
	assert_string_equal(tagk_est_form(&fr.est), "greedy-screened");
	tagk_rng g;
	tagk_rng_seed(&g, 3);
	tagk_real A[M * N], b[M];
	const tagk_real one[N] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	for (int u = 0; u < 5; u++) {
		body_window(&g, one, 1, 1, 1, A, b);
		assert_int_equal(tagk_est_update(&fr.est, A, b, M, NULL), TAGK_OK);
		assert_int_equal(tagk_est_update(&ft.est, A, b, M, NULL), TAGK_OK);
	}
	assert_memory_equal(tagk_est_theta(&fr.est), tagk_est_theta(&ft.est), N * sizeof(tagk_real));
	close_est(&fr);
	close_est(&ft);
	/* refused: out of range, and a length on 4 parameters */
	tagk_config cfg;
	tagk_config_defaults(&cfg, tagk_method_find("tagk-robust"), 4, M);
	assert_int_equal(tagk_config_set(&cfg, "length", -1), TAGK_EINVAL);
	assert_int_equal(tagk_config_set(&cfg, "length", NAN), TAGK_EINVAL);
	assert_int_equal(tagk_config_set(&cfg, "length", 0.03), TAGK_OK);
	tagk_real ws[4096];
	tagk_estimator e;
	assert_true(tagk_est_workspace_len(&cfg) <= 4096);
	assert_int_equal(tagk_est_init(&e, &cfg, ws, 4096), TAGK_EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_consistent_exact),
		cmocka_unit_test(test_tagk_beats_grk_on_noise),
		cmocka_unit_test(test_zero_rows_skipped),
		cmocka_unit_test(test_gram_forms_agree),
		cmocka_unit_test(test_gram_forms_agree_on_ties),
		cmocka_unit_test(test_bad_windows_leave_estimate),
		cmocka_unit_test(test_fused_window_check),
		cmocka_unit_test(test_rank_deficient_and_ill_conditioned),
		cmocka_unit_test(test_same_seed_same_bits),
		cmocka_unit_test(test_matches_straightforward),
		cmocka_unit_test(test_converged_window_is_a_fixed_point),
		cmocka_unit_test(test_init_validates),
		cmocka_unit_test(test_robust_screens_noise_rows),
		cmocka_unit_test(test_robust_scales_parameters),
	};
	return cmocka_run_group_tests_name("kaczmarz", tests, NULL, NULL);
}
