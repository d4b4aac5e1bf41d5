/* test_cnn.c: the 1D-CNN's C inference (lib/cnn.c) beyond the torch oracle
 * (tests/cnn_oracle_test.sh): its contract (workspace, NaN input, the
 * registry row), and that on simulated shakes of the test split it does
 * what it was trained for: over 40 objects, the mass within 10 % of the
 * truth on average, and better than the object-mean guess. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

static tagk_arm_sample buf[TAGK_CNN_LEN];
static tagk_real q[TAGK_CNN_LEN * 4], qd[TAGK_CNN_LEN * 4];

static void
shake(long index)
{
	tagk_arm_config c;
	tagk_arm_defaults(&c);
	assert_int_equal(tagk_arm_run(&c, index, buf, TAGK_CNN_LEN), TAGK_OK);
	for (int k = 0; k < TAGK_CNN_LEN; k++)
		for (int j = 0; j < 4; j++) {
			q[k * 4 + j] = buf[k].q[j];
			qd[k * 4 + j] = buf[k].qd[j];
		}
}

static void
test_contract(void **state)
{
	(void)state;
	size_t len = tagk_cnn_workspace_len();
	tagk_real *ws = canary_alloc(len), out[TAGK_CNN_OUT];
	shake(4500);
	assert_int_equal(tagk_cnn_predict(q, qd, out, ws, len - 1), TAGK_EINVAL);
	assert_int_equal(tagk_cnn_predict(q, qd, out, ws, len), TAGK_OK);
	assert_true(canary_intact(ws, len));
	assert_true(tagk_all_finite(TAGK_CNN_OUT, out));
	q[17] = (tagk_real)NAN;
	assert_int_equal(tagk_cnn_predict(q, qd, out, ws, len), TAGK_ENONFINITE);
	canary_free(ws);
	const tagk_method *mt = tagk_method_find("cnn");
	assert_non_null(mt);
	const tagk_learned_ops *lo = tagk_learned_ops_of(mt);
	assert_non_null(lo);
	assert_int_equal(lo->window, TAGK_CNN_LEN);
	assert_null(tagk_learned_ops_of(tagk_method_find("ols")));
}

static void
test_trained(void **state)
{
	(void)state;
	size_t len = tagk_cnn_workspace_len();
	tagk_real *ws = malloc(len * sizeof(*ws));
	assert_non_null(ws);
	double err = 0, spread = 0, mean = 0, truth[40];
	for (int i = 0; i < 40; i++) {
		tagk_real th[TAGK_NPARAM];
		tagk_arm_object(1, 4500 + i, th);
		truth[i] = (double)th[TAGK_P_M];
		mean += truth[i] / 40;
	}
	for (int i = 0; i < 40; i++) {
		tagk_real out[TAGK_CNN_OUT];
		shake(4500 + i);
		assert_int_equal(tagk_cnn_predict(q, qd, out, ws, len), TAGK_OK);
		err += fabs((double)out[0] - truth[i]) / truth[i] / 40;
		spread += fabs(mean - truth[i]) / truth[i] / 40;
	}
	print_message("40 test objects: mean relative mass error %.3g (the mean guess: %.3g)\n", err, spread);
	assert_true(err < 0.1 && err < spread / 4);
	free(ws);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_contract),
		cmocka_unit_test(test_trained),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
