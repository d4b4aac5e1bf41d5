/* test_estimator.c: the registry, presets and the generic interface. */
#include <math.h>
#include <string.h>
#include "testutil.h"

static void
test_registry(void **state)
{
	(void)state;
	const char *want[] = { "rk", "grk", "tark", "tagk", "rls", "rls-low", "rls-high",
		"kf", "kf-low", "kf-high" };
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const tagk_method *mt = tagk_method_find(want[i]);
		assert_non_null(mt);
		assert_string_equal(mt->name, want[i]);
		assert_true(strlen(mt->summary) > 10);
	}
	/* every kind in the one table, each row with its operations */
	const char *sts[] = { "ekf", "msckf", "ukf", "swls" }, *batch[] = { "ols", "wls", "ols-pc", "wls-pc" };
	for (int i = 0; i < 4; i++) {
		assert_non_null(tagk_method_find_kind(sts[i], TAGK_KIND_STATE));
		assert_null(tagk_method_find_kind(sts[i], TAGK_KIND_WINDOW));
		assert_non_null(tagk_method_find_kind(batch[i], TAGK_KIND_BATCH));
		assert_null(tagk_window_method(batch[i]));
	}
	for (int i = 0; i < tagk_method_count(); i++) {
		const tagk_method *mt = tagk_method_at(i);
		assert_non_null(mt->ops);
		assert_true(strlen(mt->family) > 0 && strlen(mt->output) > 0);
		assert_true((mt->kind == TAGK_KIND_WINDOW) == (tagk_window_ops_of(mt) != NULL));
		/* families are contiguous, so that --list and messages group them */
		for (int j = i + 2; j < tagk_method_count(); j++)
			if (strcmp(tagk_method_at(j)->family, mt->family) == 0)
				assert_string_equal(tagk_method_at(j - 1)->family, mt->family);
	}
	assert_true(tagk_method_accepts(tagk_method_find("swls"), "gauss-newton"));
	assert_false(tagk_method_accepts(tagk_method_find("ekf"), "window"));
	assert_true(tagk_method_accepts(tagk_method_find("msckf"), "window"));
	assert_false(tagk_method_accepts(tagk_method_find("tagk"), "lambda"));
	assert_false(tagk_method_accepts(NULL, "lambda"));
	assert_null(tagk_method_find("nope"));
	assert_null(tagk_method_find(NULL));
	assert_null(tagk_method_at(tagk_method_count()));
	for (int i = 0; i < tagk_method_count(); i++)
		for (int j = i + 1; j < tagk_method_count(); j++)
			assert_string_not_equal(tagk_method_at(i)->name, tagk_method_at(j)->name);
}

/* The presets carry the paper's numbers. */
static void
test_presets(void **state)
{
	(void)state;
	tagk_config c;
	tagk_config_defaults(&c, tagk_method_find("rls-low"), 10, 30);
	assert_true(c.u.rls.lambda == (tagk_real)0.99 && c.u.rls.p0 == 1000);
	tagk_config_defaults(&c, tagk_method_find("rls-high"), 10, 30);
	assert_true(c.u.rls.lambda == (tagk_real)0.96);
	tagk_config_defaults(&c, tagk_method_find("kf-low"), 10, 30);
	assert_true(c.u.kf.q == (tagk_real)1e-3 && c.u.kf.r == (tagk_real)1e-5 && c.u.kf.p0 == 10);
	tagk_config_defaults(&c, tagk_method_find("kf-high"), 10, 30);
	assert_true(c.u.kf.q == (tagk_real)1e-1 && c.u.kf.r == (tagk_real)1e-3);
	tagk_config_defaults(&c, tagk_method_find("tagk"), 10, 30);
	assert_true(c.u.kz.variant == TAGK_KZ_TAGK && c.u.kz.iters == 0 &&
	    c.u.kz.burnin == 6 && c.u.kz.warm_start == 1);
}

/* Every method through the generic interface: canaries behind the
 * workspace survive many full-size updates and every fault, the estimate
 * stays finite, and two estimators with the same seed agree bit for bit. */
static void
test_every_method_generic(void **state)
{
	(void)state;
	const int sizes[][2] = { { 30, 10 }, { 30, 40 }, { 3, 1 } };
	for (int sz = 0; sz < 3; sz++) {
		int m = sizes[sz][0], n = sizes[sz][1];
		for (int i = 0; i < tagk_method_count(); i++) {
			const tagk_method *mt = tagk_method_at(i);
			if (mt->kind != TAGK_KIND_WINDOW)
				continue;
			tagk_config c;
			tagk_config_defaults(&c, mt, n, m);
			/* unit bodies (m 1, mc 0, I = 1): a start every method takes,
			 * rls-ld's divergence needing a physical one */
			tagk_real th0[40] = { 0 };
			for (int j = 0; j + TAGK_NPARAM <= n; j += TAGK_NPARAM)
				th0[j + TAGK_P_M] = th0[j + TAGK_P_IXX] = th0[j + TAGK_P_IYY] = th0[j + TAGK_P_IZZ] = 1;
			c.theta0 = th0;
			size_t len = tagk_est_workspace_len(&c);
			tagk_real *w1 = canary_alloc(len), *w2 = canary_alloc(len);
			tagk_estimator e1, e2;
			assert_int_equal(tagk_est_init(&e1, &c, w1, len), TAGK_OK);
			assert_int_equal(tagk_est_init(&e2, &c, w2, len), TAGK_OK);
			assert_int_equal(tagk_est_n(&e1), n);
			assert_true(strlen(tagk_est_form(&e1)) > 0);
			tagk_rng g;
			tagk_rng_seed(&g, 80);
			tagk_real A[30 * 40], b[30], out[40];
			for (int k = 0; k < 20; k++) {
				fill_gauss(&g, m * n, A);
				fill_gauss(&g, m, b);
				assert_int_equal(tagk_est_update(&e1, A, b, m, out), TAGK_OK);
				assert_int_equal(tagk_est_update(&e2, A, b, m, NULL), TAGK_OK);
				assert_memory_equal(out, tagk_est_theta(&e1), sizeof(out[0]) * (size_t)n);
				assert_true(tagk_all_finite(n, out));
			}
			A[0] = NAN;
			assert_int_equal(tagk_est_update(&e1, A, b, m, out), TAGK_ENONFINITE);
			assert_memory_equal(tagk_est_theta(&e1), tagk_est_theta(&e2), sizeof(out[0]) * (size_t)n);
			assert_true(canary_intact(w1, len));
			assert_true(canary_intact(w2, len));
			/* one element short is refused */
			assert_int_equal(tagk_est_init(&e1, &c, w1, len - 1), TAGK_ESPACE);
			canary_free(w1);
			canary_free(w2);
		}
	}
}

/* Options by key: each family takes its own and refuses the others' and
 * values out of range, leaving the configuration as it was. */
static void
test_config_set(void **state)
{
	(void)state;
	tagk_config c;
	tagk_config_defaults(&c, tagk_method_find("rls"), 10, 30);
	assert_int_equal(tagk_config_set(&c, "lambda", 0.9), TAGK_OK);
	assert_true(c.u.rls.lambda == (tagk_real)0.9);
	assert_int_equal(tagk_config_set(&c, "lambda", 1.5), TAGK_EINVAL);
	assert_int_equal(tagk_config_set(&c, "lambda", NAN), TAGK_EINVAL);
	assert_true(c.u.rls.lambda == (tagk_real)0.9);
	assert_int_equal(tagk_config_set(&c, "q", 1), TAGK_EINVAL);
	assert_int_equal(tagk_config_form_index(&c, "paper"), TAGK_RLS_PAPER);
	assert_int_equal(tagk_config_form_index(&c, "joseph"), -1);
	assert_int_equal(tagk_config_set(&c, "form", TAGK_RLS_INFO), TAGK_OK);
	assert_int_equal(c.u.rls.form, TAGK_RLS_INFO);
	tagk_config_defaults(&c, tagk_method_find("kf-high"), 10, 30);
	assert_int_equal(tagk_config_set(&c, "r", 0), TAGK_EINVAL);
	assert_int_equal(tagk_config_set(&c, "r", 2e-3), TAGK_OK);
	assert_true(c.u.kf.r == (tagk_real)2e-3);
	assert_int_equal(tagk_config_form_index(&c, "joseph"), TAGK_KF_JOSEPH);
	tagk_config_defaults(&c, tagk_method_find("tagk"), 10, 30);
	assert_int_equal(tagk_config_set(&c, "iters", 7), TAGK_OK);
	assert_int_equal(tagk_config_set(&c, "warm-start", 0), TAGK_OK);
	assert_true(c.u.kz.iters == 7 && c.u.kz.warm_start == 0);
	assert_int_equal(tagk_config_set(&c, "p0", 1), TAGK_EINVAL);
	assert_int_equal(tagk_config_form_index(&c, "auto"), -1);
	/* a state or batch method has no window configuration */
	tagk_config_defaults(&c, tagk_method_find("ekf"), 10, 30);
	assert_null(c.method);
	assert_int_equal(tagk_est_workspace_len(&c), 0);
}

/* Batch least squares against closed forms: noise-free rows give the truth
 * back (ols, wls, and the -pc versions for a consistent body); two row
 * indices with noise of sd 1e-3 and 1e-1 give wls the estimator weighted by
 * the true variances to within their estimation error; non-finite rows and
 * an empty batch are refused. */
static void
test_batch(void **state)
{
	(void)state;
	const char *names[] = { "ols", "wls", "ols-pc", "wls-pc" };
	tagk_real truth[10];
	tagk_rng g;
	tagk_rng_seed(&g, 4);
	/* a consistent body: m 0.5, c (0.01, -0.02, 0.03), diagonal inertia about c */
	tagk_real m = (tagk_real)0.5, cc[3] = { (tagk_real)0.01, (tagk_real)-0.02, (tagk_real)0.03 };
	tagk_real Ic[9] = { (tagk_real)2e-3, 0, 0, 0, (tagk_real)3e-3, 0, 0, 0, (tagk_real)4e-3 };
	tagk_theta_from_body(m, cc, Ic, truth);
	static tagk_batch q;
	for (int mi = 0; mi < 4; mi++) {
		assert_int_equal(tagk_batch_init(&q, tagk_method_find(names[mi]), 10), TAGK_OK);
		tagk_real th[10];
		assert_int_equal(tagk_batch_solve(&q, th), TAGK_EZERO);
		for (int s = 0; s < 400; s++)
			for (int k = 0; k < 2; k++) {
				double y[10], b = 0;
				for (int j = 0; j < 10; j++) {
					y[j] = (double)tagk_rng_gaussian(&g);
					b += y[j] * (double)truth[j];
				}
				assert_int_equal(tagk_batch_add(&q, k, y, b), TAGK_OK);
			}
		assert_int_equal(tagk_batch_samples(&q), 400);
		double y[10] = { NAN };
		assert_int_equal(tagk_batch_add(&q, 0, y, 1), TAGK_ENONFINITE);
		assert_int_equal(tagk_batch_add(&q, TAGK_BATCH_ROWS, y, 1), TAGK_EINVAL);
		assert_int_equal(tagk_batch_solve(&q, th), TAGK_OK);
		for (int j = 0; j < 10; j++)
#ifdef TAGK_FLOAT
			assert_true(fabs((double)(th[j] - truth[j])) < 1e-4);
#else
			assert_true(fabs((double)(th[j] - truth[j])) < 1e-8);
#endif
	}
	assert_int_equal(tagk_batch_init(&q, tagk_method_find("tagk"), 10), TAGK_EINVAL);
	assert_int_equal(tagk_batch_init(&q, tagk_method_find("ols"), 11), TAGK_EINVAL);
	/* wls with unequal noise: compare with the estimate weighted by the
	 * true variances, formed here from the stacked rows */
	assert_int_equal(tagk_batch_init(&q, tagk_method_find("wls"), 3), TAGK_OK);
	double H[9] = { 0 }, h[3] = { 0 }, x3[3] = { 1, -2, 0.5 }, sd[2] = { 1e-3, 1e-1 };
	for (int s = 0; s < 2000; s++)
		for (int k = 0; k < 2; k++) {
			double y[3], b = 0;
			for (int j = 0; j < 3; j++) {
				y[j] = (double)tagk_rng_gaussian(&g);
				b += y[j] * x3[j];
			}
			b += sd[k] * (double)tagk_rng_gaussian(&g);
			tagk_batch_add(&q, k, y, b);
			for (int i = 0; i < 3; i++) {
				h[i] += y[i] * b / (sd[k] * sd[k]);
				for (int j = 0; j < 3; j++)
					H[i * 3 + j] += y[i] * y[j] / (sd[k] * sd[k]);
			}
		}
	tagk_real th[3], Hr[9], hr[3];
	for (int i = 0; i < 9; i++)
		Hr[i] = (tagk_real)H[i];
	for (int i = 0; i < 3; i++)
		hr[i] = (tagk_real)h[i];
	assert_int_equal(tagk_cholesky(3, Hr), TAGK_OK);
	tagk_cholesky_solve(3, 1, Hr, hr);
	assert_int_equal(tagk_batch_solve(&q, th), TAGK_OK);
	/* the estimated variances differ from the true ones by a few percent,
	 * which moves the solution by far less than its error of ~2e-5 */
	for (int j = 0; j < 3; j++) {
		assert_true(fabs((double)(th[j] - hr[j])) < 2e-6);
		assert_true(fabs((double)th[j] - x3[j]) < 1e-4);
	}
}

static void
test_bad_config(void **state)
{
	(void)state;
	tagk_config c;
	tagk_estimator e;
	tagk_real w[16];
	tagk_config_defaults(&c, NULL, 10, 30);
	assert_int_equal(tagk_est_workspace_len(&c), 0);
	assert_int_equal(tagk_est_init(&e, &c, w, 16), TAGK_EINVAL);
	tagk_config_defaults(&c, tagk_method_find("tagk"), 0, 30);
	assert_int_equal(tagk_est_workspace_len(&c), 0);
	assert_int_equal(tagk_est_init(&e, &c, w, 16), TAGK_EINVAL);
	assert_string_equal(tagk_strerror(TAGK_ENOTPD), "matrix not positive definite");
}

/* Two identities of the batch methods, each against a computation here:
 * - a row of weight 2 is two rows of weight 1: wls with the rows' own
 *   weights gives the same normal equations (tagk_batch_normal) and the
 *   same estimate either way;
 * - the sd of a one-parameter OLS fit is the textbook one,
 *   sqrt(RSS / ((N - 1) sum y^2)), RSS the residual sum at the solution. */
static void
test_batch_identities(void **state)
{
	(void)state;
	static tagk_batch q1, q2;
	tagk_rng g;
	tagk_rng_seed(&g, 9);
	assert_int_equal(tagk_batch_init(&q1, tagk_method_find("wls"), 3), TAGK_OK);
	assert_int_equal(tagk_batch_init(&q2, tagk_method_find("wls"), 3), TAGK_OK);
	for (int s = 0; s < 50; s++)
		for (int k = 0; k < 2; k++) {
			double y[3], b = (double)tagk_rng_gaussian(&g);
			for (int j = 0; j < 3; j++)
				y[j] = (double)tagk_rng_gaussian(&g);
			double w = s % 3 == 0 ? 2 : 1;
			assert_int_equal(tagk_batch_add_weighted(&q1, k, y, b, w), TAGK_OK);
			for (int c = 0; c < (int)w; c++)
				assert_int_equal(tagk_batch_add_weighted(&q2, k, y, b, 1), TAGK_OK);
		}
	double H1[9], h1[3], H2[9], h2[3];
	assert_int_equal(tagk_batch_normal(&q1, H1, h1), TAGK_OK);
	assert_int_equal(tagk_batch_normal(&q2, H2, h2), TAGK_OK);
	for (int i = 0; i < 9; i++)
		assert_true(fabs(H1[i] - H2[i]) <= 1e-12 * (1 + fabs(H2[i])));
	for (int i = 0; i < 3; i++)
		assert_true(fabs(h1[i] - h2[i]) <= 1e-12 * (1 + fabs(h2[i])));
	tagk_real t1[3], t2[3];
	assert_int_equal(tagk_batch_solve(&q1, t1), TAGK_OK);
	assert_int_equal(tagk_batch_solve(&q2, t2), TAGK_OK);
	for (int j = 0; j < 3; j++)
		assert_true(fabs((double)(t1[j] - t2[j])) <= 1e-5 * (1 + fabs((double)t2[j])));

	/* one parameter, by hand */
	enum { N = 40 };
	double yv[N], bv[N], syy = 0, syb = 0;
	assert_int_equal(tagk_batch_init(&q1, tagk_method_find("ols"), 1), TAGK_OK);
	for (int i = 0; i < N; i++) {
		yv[i] = 1 + 0.1 * i;
		bv[i] = 2.5 * yv[i] + (double)tagk_rng_gaussian(&g);
		syy += yv[i] * yv[i];
		syb += yv[i] * bv[i];
		assert_int_equal(tagk_batch_add(&q1, 0, &yv[i], bv[i]), TAGK_OK);
	}
	double x = syb / syy, rss = 0;
	for (int i = 0; i < N; i++)
		rss += (bv[i] - x * yv[i]) * (bv[i] - x * yv[i]);
	tagk_real th, sd;
	assert_int_equal(tagk_batch_solve(&q1, &th), TAGK_OK);
	assert_int_equal(tagk_batch_sd(&q1, &th, &sd), TAGK_OK);
	double want = sqrt(rss / ((N - 1) * syy));
	print_message("ols n 1: theta %.10g (by hand %.10g), sd %.10g (by hand %.10g)\n", (double)th, x, (double)sd,
	    want);
	assert_true(fabs((double)th - x) <= 1e-5 * fabs(x));
	assert_true(fabs((double)sd - want) <= 1e-4 * want);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_config_set),
		cmocka_unit_test(test_batch),
		cmocka_unit_test(test_batch_identities),
		cmocka_unit_test(test_presets),
		cmocka_unit_test(test_every_method_generic),
		cmocka_unit_test(test_bad_config),
	};
	return cmocka_run_group_tests_name("estimator", tests, NULL, NULL);
}
