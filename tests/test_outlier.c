/* test_outlier.c: the innovation gate of RLS and KF (outlier.h): its d^2
 * identity against an explicit e^T S^-1 e, its refusals, and that clean
 * data, noisy data and data in small units pass. */
#include <math.h>
#include <string.h>
#include "testutil.h"

/* One of the four filters: RLS paper, RLS info, KF Joseph, KF info. */
typedef struct {
	int kf;
	tagk_rls r;
	tagk_kf f;
	tagk_real *ws;
	size_t len;
} filt;

enum { NKINDS = 4 };

static void
open_filt(filt *x, int kind, tagk_real lambda, int n, int m)
{
	memset(x, 0, sizeof(*x));
	x->kf = kind >= 2;
	if (!x->kf) {
		tagk_rls_config c;
		tagk_rls_defaults(&c, lambda);
		c.form = kind == 0 ? TAGK_RLS_PAPER : TAGK_RLS_INFO;
		x->len = tagk_rls_workspace_len(&c, n, m);
		x->ws = canary_alloc(x->len);
		assert_int_equal(tagk_rls_init(&x->r, &c, n, m, NULL, x->ws, x->len), TAGK_OK);
	} else {
		tagk_kf_config c;
		tagk_kf_defaults(&c, (tagk_real)1e-4, (tagk_real)0.25);
		c.form = kind == 2 ? TAGK_KF_JOSEPH : TAGK_KF_INFO;
		x->len = tagk_kf_workspace_len(&c, n, m);
		x->ws = canary_alloc(x->len);
		assert_int_equal(tagk_kf_init(&x->f, &c, n, m, NULL, x->ws, x->len), TAGK_OK);
	}
}

static tagk_status
update(filt *x, const tagk_real *A, const tagk_real *b, int m)
{
	return x->kf ? tagk_kf_update(&x->f, A, b, m) : tagk_rls_update(&x->r, A, b, m);
}

static const tagk_real *
theta(const filt *x)
{
	return x->kf ? x->f.theta : x->r.theta;
}

static const tagk_real *
cov(const filt *x)
{
	return x->kf ? x->f.P : x->r.P;
}

static void
close_filt(filt *x)
{
	assert_true(canary_intact(x->ws, x->len));
	canary_free(x->ws);
}

static const char *kind_name[NKINDS] = { "rls paper", "rls info", "kf joseph", "kf info" };

/* d^2 / m from tagk_outlier_nis (the step taken from the filter's own
 * update) equals e^T S^-1 e / m with S = A P- A^T + r I formed and solved
 * here in long double: S = lambda I + A P A^T for RLS (P the inverse of the
 * information form's matrix), S = A (P + q I) A^T + r I for KF. */
static void
test_nis_identity(void **state)
{
	(void)state;
	enum { n = 5 };
	const int ms[] = { 3, 8 };
	for (int kind = 0; kind < NKINDS; kind++)
		for (int mi = 0; mi < 2; mi++) {
			int m = ms[mi];
			/* the information form's regulariser (1 - lambda) / p0 is not
			 * in the identity: lambda 1 makes it exact */
			tagk_real lambda = kind == 1 ? 1 : (tagk_real)0.98;
			filt x;
			open_filt(&x, kind, lambda, n, m);
			tagk_rng g;
			tagk_rng_seed(&g, 70 + (uint64_t)(kind * 2 + mi));
			tagk_real A[8 * n], b[8];
			for (int k = 0; k < 6; k++) {
				fill_gauss(&g, m * n, A);
				fill_gauss(&g, m, b);
				assert_int_equal(update(&x, A, b, m), TAGK_OK);
			}
			fill_gauss(&g, m * n, A);
			fill_gauss(&g, m, b);
			tagk_real th0[n], e[8], step[n];
			memcpy(th0, theta(&x), sizeof(th0));
			/* P- in long double */
			long double Pm[n * n];
			if (kind == 1) { /* information form: P = Y^-1, column by column */
				for (int j = 0; j < n; j++) {
					long double Y[n * n], col[n];
					for (int i = 0; i < n * n; i++)
						Y[i] = cov(&x)[i];
					for (int i = 0; i < n; i++)
						col[i] = i == j;
					gauss_solve(n, Y, col);
					for (int i = 0; i < n; i++)
						Pm[i * n + j] = col[i];
				}
			} else {
				for (int i = 0; i < n * n; i++)
					Pm[i] = cov(&x)[i];
				if (x.kf)
					for (int i = 0; i < n; i++)
						Pm[i * n + i] += x.f.cfg.q;
			}
			tagk_real rr = x.kf ? x.f.cfg.r : lambda;
			long double S[8 * 8], v[8];
			for (int i = 0; i < m; i++) {
				long double ei = b[i];
				for (int j = 0; j < n; j++)
					ei -= (long double)A[i * n + j] * th0[j];
				e[i] = (tagk_real)ei;
				v[i] = ei;
				for (int k = 0; k < m; k++) {
					long double s = i == k ? rr : 0;
					for (int p = 0; p < n; p++)
						for (int q = 0; q < n; q++)
							s += (long double)A[i * n + p] * Pm[p * n + q] * A[k * n + q];
					S[i * m + k] = s;
				}
			}
			gauss_solve(m, S, v);
			long double d2 = 0;
			for (int i = 0; i < m; i++)
				d2 += (long double)e[i] * v[i];
			double want = (double)(d2 / m);
			assert_int_equal(update(&x, A, b, m), TAGK_OK);
			for (int j = 0; j < n; j++)
				step[j] = theta(&x)[j] - th0[j];
			double got = (double)tagk_outlier_nis(m, n, A, e, step, rr);
			double rel = fabs(got - want) / want;
			print_message("%s, m=%d: d^2/m %.6g, explicit %.6g, relative difference %.2g\n",
			    kind_name[kind], m, got, want, rel);
#ifdef TAGK_FLOAT
			const double tol = 2e-2;
#else
			const double tol = 1e-8;
#endif
			if (!(rel < tol))
				fail_msg("%s m=%d: d^2/m %g, explicit %g", kind_name[kind], m, got, want);
			close_filt(&x);
		}
}

/* A stream b = A theta* + noise: nothing refused over 400 windows; one
 * window with a 1e20 or 1e300 value is refused and changes nothing; the
 * stream goes on and the estimate converges to theta*. */
static void
test_refuses_gross_outliers(void **state)
{
	(void)state;
	enum { n = 4, m = 6 };
	const tagk_real th_true[n] = { 0.5, -1, 2, 0.25 };
	for (int kind = 0; kind < NKINDS; kind++) {
		filt x;
		open_filt(&x, kind, (tagk_real)0.99, n, m);
		tagk_rng g;
		tagk_rng_seed(&g, 90 + (uint64_t)kind);
		tagk_real A[m * n], b[m], noise[m];
		for (int k = 0; k < 600; k++) {
			fill_gauss(&g, m * n, A);
			fill_gauss(&g, m, noise);
			for (int i = 0; i < m; i++) {
				b[i] = (tagk_real)0.01 * noise[i];
				for (int j = 0; j < n; j++)
					b[i] += A[i * n + j] * th_true[j];
			}
			if (k == 400 || k == 401) {
				tagk_real th[n], P[n * n];
				memcpy(th, theta(&x), sizeof(th));
				memcpy(P, cov(&x), sizeof(P));
				tagk_real keep = b[2];
				b[2] = k == 400 ? (tagk_real)1e20 : (tagk_real)1e30 * (tagk_real)1e8;
#ifndef TAGK_FLOAT
				if (k == 401)
					b[2] = 1e300;
#endif
				tagk_status st = update(&x, A, b, m);
				if (st != TAGK_EOUTLIER)
					fail_msg("%s: an outlier %g gave status %d", kind_name[kind], (double)b[2], st);
				assert_memory_equal(theta(&x), th, sizeof(th));
				assert_memory_equal(cov(&x), P, sizeof(P));
				b[2] = keep;
			}
			tagk_status st = update(&x, A, b, m);
			if (st != TAGK_OK)
				fail_msg("%s: clean window %d refused (%s)", kind_name[kind], k, tagk_strerror(st));
		}
		double err = rel_err(n, theta(&x), th_true);
		print_message("%s: relative error after the outliers %.2g\n", kind_name[kind], err);
		assert_true(err < 1e-2);
		close_filt(&x);
	}
}

/* Noise 1e4 times the filter's nominal noise (data in large units): the
 * gate learns the data's spread in its warm-up and refuses nothing; the
 * estimate converges. Limit 0: never a refusal. */
static void
test_follows_the_data_scale(void **state)
{
	(void)state;
	enum { n = 4, m = 6 };
	const tagk_real th_true[n] = { 5e3, -1e4, 2e4, 2.5e3 };
	for (int kind = 0; kind < NKINDS; kind++)
		for (int off = 0; off < 2; off++) {
			filt x;
			open_filt(&x, kind, 1, n, m);
			if (off) {
				if (x.kf)
					x.f.outlier.limit = 0;
				else
					x.r.outlier.limit = 0;
			}
			tagk_rng g;
			tagk_rng_seed(&g, 110 + (uint64_t)kind);
			tagk_real A[m * n], b[m], noise[m];
			int refused = 0, last_refused = -1;
			for (int k = 0; k < 400; k++) {
				fill_gauss(&g, m * n, A);
				fill_gauss(&g, m, noise);
				for (int i = 0; i < m; i++) {
					b[i] = (tagk_real)1e4 * noise[i];
					for (int j = 0; j < n; j++)
						b[i] += A[i * n + j] * th_true[j];
				}
				tagk_status st = update(&x, A, b, m);
				if (st == TAGK_EOUTLIER)
					refused++, last_refused = k;
				else
					assert_int_equal(st, TAGK_OK);
			}
			double err = rel_err(n, theta(&x), th_true);
			print_message("%s, gate %s: %d refused (the last at window %d), relative error %.2g\n",
			    kind_name[kind], off ? "off" : "on", refused, last_refused, err);
			assert_int_equal(refused, 0);
			assert_true(err < 0.1);
			close_filt(&x);
		}
}

/* The gate's decisions do not depend on the data's units: the same stream,
 * with two gross outliers, its rows all multiplied by 1e-3, 1 or 1e3 (1e-2,
 * 1 and 10 in float, where RLS's paper form loses P's positive
 * definiteness at 100), is
 * refused at the two outliers and nowhere else (tests/reliability_test.sh
 * runs the KF on real rows times 1e12). */
static void
test_scale_invariant(void **state)
{
	(void)state;
	enum { n = 4, m = 6, N = 300 };
	/* d^2 moves by 1e6 either way, far from the nominal noise, while the
	 * filters' own arithmetic holds (RLS's paper form loses P's positive
	 * definiteness in cancellation by 1e6, in double too) */
#ifdef TAGK_FLOAT
	const double scales[3] = { 1e-2, 1, 1e1 };
#else
	const double scales[3] = { 1e-3, 1, 1e3 };
#endif
	const tagk_real th_true[n] = { 0.5, -1, 2, 0.25 };
	for (int kind = 0; kind < NKINDS; kind++)
		for (int sc = 0; sc < 3; sc++) {
			filt x;
			open_filt(&x, kind, (tagk_real)0.99, n, m);
			tagk_rng g;
			tagk_rng_seed(&g, 130 + (uint64_t)kind);
			tagk_real A[m * n], b[m], noise[m];
			int refused = 0;
			for (int k = 0; k < N; k++) {
				fill_gauss(&g, m * n, A);
				fill_gauss(&g, m, noise);
				for (int i = 0; i < m; i++) {
					b[i] = (tagk_real)0.01 * noise[i];
					for (int j = 0; j < n; j++)
						b[i] += A[i * n + j] * th_true[j];
				}
				if (k == 150 || k == 250)
					b[3] += (tagk_real)1e5;
				for (int i = 0; i < m; i++) {
					b[i] *= (tagk_real)scales[sc];
					for (int j = 0; j < n; j++)
						A[i * n + j] *= (tagk_real)scales[sc];
				}
				tagk_status st = update(&x, A, b, m);
				if (st == TAGK_EOUTLIER) {
					refused++;
					if (k != 150 && k != 250)
						fail_msg("%s, rows times %g: window %d refused", kind_name[kind], scales[sc], k);
				} else {
					assert_int_equal(st, TAGK_OK);
				}
			}
			print_message("%s, rows times %g: %d refused\n", kind_name[kind], scales[sc], refused);
			assert_int_equal(refused, 2);
			close_filt(&x);
		}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nis_identity),
		cmocka_unit_test(test_refuses_gross_outliers),
		cmocka_unit_test(test_scale_invariant),
		cmocka_unit_test(test_follows_the_data_scale),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
