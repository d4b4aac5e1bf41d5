/* test_arm.c: paper 004's arm simulator (bench/sim/arm.c) against
 * independent facts: the work-energy identity of its integration (the
 * change of kinetic plus potential energy over a control period equals the
 * work of the torque held over it), exact recovery of the held object from
 * noise-free joint signals by least squares (the oracle: OLS on the
 * long excitation, to 1e-6), physical objects, determinism, and the
 * summary's round trip. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "../lib/batch.h"

static tagk_arm_sample buf[4100], buf2[4100];

/* Kinetic plus potential energy of the arm and the object at q, qd. */
static double
energy(const tagk_mb_model *m, const tagk_real *theta, const tagk_real *q, const tagk_real *qd)
{
	tagk_mb_kin kin;
	assert_int_equal(tagk_mb_kinematics(m, NULL, NULL, q, qd, NULL, &kin), TAGK_OK);
	double T = (double)tagk_mb_kinetic_energy(&kin, theta), V = 0;
	for (int b = 0; b < m->nb; b++) {
		const tagk_real *th = theta + TAGK_NPARAM * b, *R = kin.R[b];
		for (int i = 0; i < 3; i++) {
			/* m p + R mc, the body's first moment in the world */
			double fm = (double)th[TAGK_P_M] * (double)kin.p[b][i] + (double)R[i * 3] * (double)th[TAGK_P_MCX]
			    + (double)R[i * 3 + 1] * (double)th[TAGK_P_MCY] + (double)R[i * 3 + 2] * (double)th[TAGK_P_MCZ];
			V -= (double)m->gravity[i] * fm;
		}
	}
	return T + V;
}

static void
test_work_energy(void **state)
{
	(void)state;
	tagk_arm_config c;
	tagk_arm_defaults(&c);
	c.motion = TAGK_ARM_LONG;
	c.duration = 2;
	long n = tagk_arm_samples(&c);
	assert_int_equal(tagk_arm_run(&c, 7, buf, n), TAGK_OK);
	tagk_mb_model m;
	tagk_real theta[TAGK_NPARAM * TAGK_ARM_BODIES], obj[TAGK_NPARAM];
	tagk_arm_model(&m, theta);
	tagk_arm_object(c.seed, 7, obj);
	for (int i = 0; i < TAGK_NPARAM; i++)
		theta[TAGK_NPARAM * TAGK_ARM_HAND + i] += obj[i];
	double worst = 0, scale = 0;
	for (long k = 0; k + 1 < n; k++) {
		double dE = energy(&m, theta, buf[k + 1].q_true, buf[k + 1].qd_true)
		    - energy(&m, theta, buf[k].q_true, buf[k].qd_true), W = 0;
		for (int j = 0; j < TAGK_ARM_JOINTS; j++)
			W += (double)buf[k].tau_applied[j] * ((double)buf[k + 1].q_true[j] - (double)buf[k].q_true[j]);
		worst = fmax(worst, fabs(dE - W));
		scale = fmax(scale, fabs(W));
	}
	print_message("work-energy over %ld periods: worst |dE - W| %.2g J, largest |W| %.2g J\n", n - 1, worst, scale);
	assert_true(scale > 1e-3);
	assert_true(worst < (TOL_EXACT > 1e-6 ? 1e-4 : 1e-9) + 1e-6 * scale);
}

/* OLS on the noise-free joint-torque rows of the object: the truth. */
static void
recover(tagk_arm_motion motion, double duration, long index)
{
	tagk_arm_config c;
	tagk_arm_defaults(&c);
	c.motion = motion;
	c.duration = (tagk_real)duration;
	c.q_noise = c.qd_noise = c.tau_noise = 0;
	long n = tagk_arm_samples(&c);
	assert_int_equal(tagk_arm_run(&c, index, buf, n), TAGK_OK);
	tagk_mb_model m;
	tagk_real known[TAGK_NPARAM * TAGK_ARM_BODIES], truth[TAGK_NPARAM], est[TAGK_NPARAM];
	tagk_real Y[TAGK_ARM_JOINTS * TAGK_NPARAM * TAGK_ARM_BODIES], A[TAGK_ARM_JOINTS * TAGK_NPARAM], b[4];
	tagk_arm_model(&m, known);
	tagk_arm_object(c.seed, index, truth);
	tagk_batch q;
	assert_int_equal(tagk_batch_init(&q, tagk_method_find_kind("ols", TAGK_KIND_BATCH), TAGK_NPARAM), TAGK_OK);
	for (long k = 0; k < n; k++) {
		tagk_mb_kin kin;
		assert_int_equal(tagk_mb_kinematics(&m, NULL, NULL, buf[k].q_true, buf[k].qd_true, buf[k].qdd_true, &kin),
		    TAGK_OK);
		tagk_mb_force_rows(&kin, &m, buf[k].tau_applied, known, TAGK_ARM_HAND, Y, A, b);
		for (int r = 0; r < TAGK_ARM_JOINTS; r++) {
			double y[TAGK_NPARAM];
			for (int i = 0; i < TAGK_NPARAM; i++)
				y[i] = (double)A[r * TAGK_NPARAM + i];
			assert_int_equal(tagk_batch_add(&q, r, y, (double)b[r]), TAGK_OK);
		}
	}
	assert_int_equal(tagk_batch_solve(&q, est), TAGK_OK);
	double e = rel_err(TAGK_NPARAM, est, truth);
	print_message("%s, %g s, object %ld: OLS from noise-free joint signals, relative error %.2g\n",
	    motion == TAGK_ARM_LONG ? "long" : "shake", duration, index, e);
	assert_true(e < (TOL_EXACT > 1e-6 ? 2e-2 : 1e-6));
}

static void
test_recover(void **state)
{
	(void)state;
	recover(TAGK_ARM_LONG, 10, 4500);
	recover(TAGK_ARM_LONG, 10, 4501);
	recover(TAGK_ARM_SHAKE, 0.5, 4502);
}

static void
test_objects(void **state)
{
	(void)state;
	/* the learned method's inverse measures from this arm's grip */
	assert_memory_equal(tagk_cnn_grip, tagk_arm_grip, sizeof(tagk_arm_grip));
	_Static_assert((int)TAGK_CNN_OUT == (int)TAGK_ARM_SUMMARY, "the network's output is the arm's summary");
	for (long i = 0; i < 2000; i++) {
		tagk_real th[TAGK_NPARAM], th2[TAGK_NPARAM], s[TAGK_ARM_SUMMARY], s2[TAGK_ARM_SUMMARY];
		tagk_arm_object(3, i, th);
		assert_true(tagk_consistent(th, 0) && tagk_triangle(th, 0));
		assert_true(th[TAGK_P_M] >= 0.1 && th[TAGK_P_M] <= 1.8);
		assert_int_equal(tagk_arm_summary(th, s), 1);
		assert_true(tagk_arm_summary_feasible(s));
		/* the summary drops the products of inertia: its round trip keeps the rest */
		tagk_cnn_theta(s, th2);
		assert_int_equal(tagk_arm_summary(th2, s2), 1);
		assert_true(rel_err(TAGK_ARM_SUMMARY, s2, s) < TOL_EXACT);
	}
	tagk_real a[TAGK_NPARAM], b[TAGK_NPARAM], c2[TAGK_NPARAM];
	tagk_arm_object(3, 5, a);
	tagk_arm_object(3, 5, b);
	tagk_arm_object(4, 5, c2);
	assert_memory_equal(a, b, sizeof(a));
	assert_true(memcmp(a, c2, sizeof(a)) != 0);
}

static void
test_deterministic(void **state)
{
	(void)state;
	tagk_arm_config c;
	tagk_arm_defaults(&c);
	long n = tagk_arm_samples(&c);
	assert_int_equal(n, 201);
	memset(buf, 0, sizeof(buf));
	memset(buf2, 0xff, sizeof(buf2));
	assert_int_equal(tagk_arm_run(&c, 11, buf, n), TAGK_OK);
	assert_int_equal(tagk_arm_run(&c, 11, buf2, n), TAGK_OK);
	for (long k = 0; k < n; k++)
		assert_memory_equal(&buf[k], &buf2[k], sizeof(buf[k]));
	/* too small a buffer, or a bad config, is refused */
	assert_int_equal(tagk_arm_run(&c, 11, buf, n - 1), TAGK_EINVAL);
	c.q_noise = -1;
	assert_int_equal(tagk_arm_run(&c, 11, buf, n), TAGK_EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_work_energy),
		cmocka_unit_test(test_recover),
		cmocka_unit_test(test_objects),
		cmocka_unit_test(test_deterministic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
