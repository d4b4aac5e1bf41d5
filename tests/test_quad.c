/* test_quad.c: the quadrotor model against the Newton-Euler identity, hover,
 * the LQR, and the determinism of closed-loop trials. */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include "bodies.h"

/* The accelerations the model computes satisfy the regressor identity
 * Y(a, omega, alpha) theta = [f; tau] (an independent check: lib/regressor.c
 * is tested against cross products in test_regressor.c). */
static void
test_accel_satisfies_newton_euler(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 150);
	for (int trial = 0; trial < 500; trial++) {
		tagk_real th[10], f[3], tau[3], w[3], a[3], al[3], Y[60], out[6];
		random_valid_body(&g, th);
		fill_gauss(&g, 3, f);
		fill_gauss(&g, 3, tau);
		fill_gauss(&g, 3, w);
		assert_int_equal(tagk_quad_accel(th, f, tau, w, a, al), TAGK_OK);
		tagk_regressor_rigid(a, w, al, Y);
		tagk_gemv(6, 10, Y, th, out);
		const tagk_real want[6] = { f[0], f[1], f[2], tau[0], tau[1], tau[2] };
		assert_true(rel_err(6, out, want) < TOL_TIGHT * 100);
	}
}

/* Hover thrusts keep a body with an offset centre of mass still. */
static void
test_hover_is_an_equilibrium(void **state)
{
	(void)state;
	tagk_quad_config c;
	tagk_quad_defaults(&c);
	tagk_real th[10], cpos[3] = { (tagk_real)0.005, (tagk_real)-0.003, 0 };
	tagk_real Ic[9] = { 2e-5, 0, 0, 0, 2e-5, 0, 0, 0, 3e-5 };
	tagk_theta_from_body((tagk_real)0.05, cpos, Ic, th);
	tagk_real u[4];
	tagk_quad_hover(&c, th, u);
	tagk_real f[3], tau[3], a[3], al[3], zero[3] = { 0, 0, 0 };
	tagk_quad_wrench(&c, u, f, tau);
	assert_int_equal(tagk_quad_accel(th, f, tau, zero, a, al), TAGK_OK);
	assert_true(fabs((double)a[2] - 9.80665) < TOL_TIGHT * 10);
	assert_true(fabs((double)a[0]) + fabs((double)a[1]) + fabs((double)al[0]) + fabs((double)al[1]) +
	    fabs((double)al[2]) < TOL_TIGHT * 10);
	tagk_quad_state x = { { 0, 0, 1 }, { 0, 0, 0 }, { 1, 0, 0, 0 }, { 0, 0, 0 } };
	for (int k = 0; k < 250; k++)
		assert_int_equal(tagk_quad_step(&c, th, &x, u), TAGK_OK);
	assert_true(fabs((double)x.p[0]) + fabs((double)x.p[1]) + fabs((double)x.p[2] - 1) < TOL_LOOSE);
}

/* Free fall: no thrust, the body accelerates at g. */
static void
test_free_fall(void **state)
{
	(void)state;
	tagk_quad_config c;
	tagk_quad_defaults(&c);
	tagk_real th[10];
	tagk_trial_vehicle(th);
	tagk_quad_state x = { { 0, 0, 0 }, { 0, 0, 0 }, { 1, 0, 0, 0 }, { 0, 0, 0 } };
	tagk_real u[4] = { 0, 0, 0, 0 };
	for (int k = 0; k < 50; k++)
		assert_int_equal(tagk_quad_step(&c, th, &x, u), TAGK_OK);
	/* after 1 s: z = -g/2, vz = -g */
	assert_true(fabs((double)x.p[2] + 9.80665 / 2) < TOL_LOOSE * 10);
	assert_true(fabs((double)x.v[2] + 9.80665) < TOL_LOOSE * 10);
}

/* The LQR brings an offset back, with the model it was designed for. */
static void
test_lqr_stabilizes(void **state)
{
	(void)state;
	tagk_quad_config c;
	tagk_quad_defaults(&c);
	tagk_real th[10];
	tagk_trial_vehicle(th);
	tagk_real Q[12] = { 400, 400, 400, 4, 4, 4, 11, 11, 11, 0.25f, 0.25f, 0.25f }, R[4] = { 400, 400, 400, 400 };
	tagk_lqr l;
	memset(&l, 0, sizeof(l));
	assert_int_equal(tagk_lqr_design(&l, &c, th, Q, R), TAGK_OK);
	tagk_quad_state x = { { 0.1f, -0.1f, 1.1f }, { 0, 0, 0 }, { 1, 0, 0, 0 }, { 0, 0, 0 } };
	tagk_real pr[3] = { 0, 0, 1 }, vr[3] = { 0, 0, 0 }, u[4];
	for (int k = 0; k < 500; k++) {
		tagk_lqr_control(&l, &c, &x, pr, vr, u);
		assert_int_equal(tagk_quad_step(&c, th, &x, u), TAGK_OK);
	}
	assert_true(fabs((double)x.p[0]) + fabs((double)x.p[1]) + fabs((double)x.p[2] - 1) < 1e-3);
}

/* One trial of tc with a fresh TAG-K. */
static void
fly_with(const tagk_trial_config *tc, tagk_trial_result *r)
{
	tagk_config cfg;
	tagk_real th0[10];
	tagk_trial_vehicle(th0);
	tagk_config_defaults(&cfg, tagk_method_find("tagk"), 10, 30);
	cfg.theta0 = th0;
	size_t len = tagk_est_workspace_len(&cfg);
	tagk_real *ws = canary_alloc(len);
	tagk_estimator e;
	assert_int_equal(tagk_est_init(&e, &cfg, ws, len), TAGK_OK);
	assert_int_equal(tagk_trial_run(tc, &e, r, NULL, NULL), TAGK_OK);
	assert_true(canary_intact(ws, len));
	canary_free(ws);
}

static void
fly(uint64_t seed, tagk_trial_result *r)
{
	tagk_trial_config tc;
	tagk_trial_defaults(&tc, seed);
	tc.gate = TAGK_TRIAL_GATE_NONE;
	fly_with(&tc, r);
}

static void
test_trials_are_deterministic(void **state)
{
	(void)state;
	tagk_trial_result a, b, c;
	fly(7, &a);
	fly(7, &b);
	fly(8, &c);
	assert_memory_equal(&a, &b, sizeof(a));
	assert_true(a.t_on != c.t_on);
	assert_true(a.updates == 50);
	assert_true(a.t_on >= 4 && a.t_on <= 6 && a.t_off >= 12 && a.t_off <= 14);
	assert_true(a.payload_mass >= 0.3 * 0.035 - 1e-9 && a.payload_mass <= 0.5 * 0.035 + 1e-9);
}

/* The authors' equations of motion (quad.h, authors_dynamics) are the exact
 * rigid body when the centre of mass is at the body origin ... */
static void
test_authors_dynamics_agree_without_offset(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 151);
	tagk_quad_config ce, ca;
	tagk_quad_defaults(&ce);
	ca = ce;
	ca.authors_dynamics = 1;
	tagk_real th[10], zero[3] = { 0, 0, 0 };
	tagk_real Ic[9] = { 1.7e-5, 1e-6, 0, 1e-6, 1.6e-5, 0, 0, 0, 2.9e-5 };
	tagk_theta_from_body((tagk_real)0.035, zero, Ic, th);
	tagk_quad_state xe = { { 0, 0, 1 }, { 0.1, 0, 0 }, { 1, 0, 0, 0 }, { 0.2, -0.1, 0.05 } }, xa = xe;
	for (int k = 0; k < 50; k++) {
		tagk_real u[4];
		for (int i = 0; i < 4; i++)
			u[i] = (tagk_real)(0.0858 + 0.01 * tagk_rng_gaussian(&g));
		assert_int_equal(tagk_quad_step(&ce, th, &xe, u), TAGK_OK);
		assert_int_equal(tagk_quad_step(&ca, th, &xa, u), TAGK_OK);
	}
	assert_true(rel_err(3, xa.p, xe.p) < TOL_TIGHT * 100);
	assert_true(rel_err(4, xa.q, xe.q) < TOL_TIGHT * 100);
	assert_true(rel_err(3, xa.w, xe.w) < TOL_TIGHT * 100);
}

/* ... but with an offset they drop gravity's moment about the origin in
 * hover: equal thrusts that hold the weight turn the exact body and leave
 * theirs level. */
static void
test_authors_dynamics_lose_the_payload_torque(void **state)
{
	(void)state;
	tagk_quad_config ce, ca;
	tagk_quad_defaults(&ce);
	ca = ce;
	ca.authors_dynamics = 1;
	tagk_real th[10], cpos[3] = { (tagk_real)0.001, 0, 0 };
	tagk_real Ic[9] = { 1.7e-5, 0, 0, 0, 1.7e-5, 0, 0, 0, 2.9e-5 };
	tagk_theta_from_body((tagk_real)0.05, cpos, Ic, th);
	tagk_real u[4];
	for (int i = 0; i < 4; i++)
		u[i] = (tagk_real)(0.05 * 9.80665 / 4);
	tagk_quad_state xe = { { 0, 0, 1 }, { 0, 0, 0 }, { 1, 0, 0, 0 }, { 0, 0, 0 } }, xa = xe;
	assert_int_equal(tagk_quad_step(&ce, th, &xe, u), TAGK_OK);
	assert_int_equal(tagk_quad_step(&ca, th, &xa, u), TAGK_OK);
	/* exact: the thrust through O turns the body about its centre of mass,
	 * pitch rate m g c_x dt / Ic_yy after one step */
	double want = 0.05 * 9.80665 * 0.001 * 0.02 / 1.7e-5;
	assert_true(fabs((double)xe.w[1] - want) < 0.05 * fabs(want));
	assert_true(fabs((double)xa.w[1]) < 1e-6 * fabs(want));
}

/* The authors' protocol draws their payload and events. */
static void
test_authors_payload_and_events(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		tagk_trial_config tc;
		tagk_trial_defaults(&tc, seed);
		tc.payload_authors = tc.b_oracle = tc.state_noise = tc.success_authors = 1;
		tc.gate = TAGK_TRIAL_GATE_AUTHORS;
		tagk_trial_result r;
		fly_with(&tc, &r);
		assert_true(r.t_on >= 6 && r.t_on <= 8.03 && r.t_off >= 14 && r.t_off <= 16.03);
		assert_true(r.payload_mass >= 0.035 / 3 - 1e-9 && r.payload_mass <= 0.035 / 2 + 1e-9);
		assert_true(r.ok_updates <= r.updates && r.ok_updates > 0);
		assert_true(r.blk_mean[0] >= 0 && r.blk_mean[2] >= 0 && isfinite((double)r.blk_mean[1]));
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accel_satisfies_newton_euler),
		cmocka_unit_test(test_hover_is_an_equilibrium),
		cmocka_unit_test(test_free_fall),
		cmocka_unit_test(test_lqr_stabilizes),
		cmocka_unit_test(test_trials_are_deterministic),
		cmocka_unit_test(test_authors_dynamics_agree_without_offset),
		cmocka_unit_test(test_authors_dynamics_lose_the_payload_torque),
		cmocka_unit_test(test_authors_payload_and_events),
	};
	return cmocka_run_group_tests_name("quad", tests, NULL, NULL);
}
