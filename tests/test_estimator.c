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
			tagk_config c;
			tagk_config_defaults(&c, mt, n, m);
			size_t len = tagk_workspace_len(&c);
			tagk_real *w1 = canary_alloc(len), *w2 = canary_alloc(len);
			tagk_estimator e1, e2;
			assert_int_equal(tagk_init(&e1, &c, w1, len), TAGK_OK);
			assert_int_equal(tagk_init(&e2, &c, w2, len), TAGK_OK);
			assert_int_equal(tagk_n(&e1), n);
			assert_true(strlen(tagk_form(&e1)) > 0);
			tagk_rng g;
			tagk_rng_seed(&g, 80);
			tagk_real A[30 * 40], b[30], out[40];
			for (int k = 0; k < 20; k++) {
				fill_gauss(&g, m * n, A);
				fill_gauss(&g, m, b);
				assert_int_equal(tagk_update(&e1, A, b, m, out), TAGK_OK);
				assert_int_equal(tagk_update(&e2, A, b, m, NULL), TAGK_OK);
				assert_memory_equal(out, tagk_theta(&e1), sizeof(out[0]) * (size_t)n);
				assert_true(tagk_all_finite(n, out));
			}
			A[0] = NAN;
			assert_int_equal(tagk_update(&e1, A, b, m, out), TAGK_ENONFINITE);
			assert_memory_equal(tagk_theta(&e1), tagk_theta(&e2), sizeof(out[0]) * (size_t)n);
			assert_true(canary_intact(w1, len));
			assert_true(canary_intact(w2, len));
			/* one element short is refused */
			assert_int_equal(tagk_init(&e1, &c, w1, len - 1), TAGK_ESPACE);
			canary_free(w1);
			canary_free(w2);
		}
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
	assert_int_equal(tagk_workspace_len(&c), 0);
	assert_int_equal(tagk_init(&e, &c, w, 16), TAGK_EINVAL);
	tagk_config_defaults(&c, tagk_method_find("tagk"), 0, 30);
	assert_int_equal(tagk_workspace_len(&c), 0);
	assert_int_equal(tagk_init(&e, &c, w, 16), TAGK_EINVAL);
	assert_string_equal(tagk_strerror(TAGK_ENOTPD), "matrix not positive definite");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_presets),
		cmocka_unit_test(test_every_method_generic),
		cmocka_unit_test(test_bad_config),
	};
	return cmocka_run_group_tests_name("estimator", tests, NULL, NULL);
}
