/*
 * test_mass.c: the 4-DoF model, the mass estimators of paper 001 and their
 * simulator, against closed forms, finite differences and the truth.
 */
#include <math.h>
#include <string.h>
#include "testutil.h"

#ifdef TAGK_FLOAT
#define TOL_FD 2e-2
#else
#define TOL_FD 1e-4
#endif

static void
rand_quat(tagk_rng *g, tagk_real q[4])
{
	tagk_real d[3];
	fill_gauss(g, 3, d);
	tagk_qexp(d, q);
}

/* Exp and Log are inverse, R(q) is a rotation that equals the sandwich
 * q (0, v) q*, and the matrix-to-quaternion conversion inverts R(q). */
static void
test_so3_identities(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 1);
	for (int t = 0; t < 200; t++) {
		tagk_real d[3], q[4], e[3], R[9], v[3], o[3], qv[4], tmp[4], qc[4], sw[4], q2[4];
		fill_gauss(&g, 3, d);
		for (int i = 0; i < 3; i++)
			d[i] *= (tagk_real)(t % 4 == 0 ? 1e-6 : 0.9); /* small angles too */
		tagk_qexp(d, q);
		tagk_qlog(q, e);
		for (int i = 0; i < 3; i++)
			assert_true(fabs((double)(e[i] - d[i])) < TOL_EXACT * (1 + fabs((double)d[i])));
		tagk_qmatrix(q, R);
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 3; j++) {
				double s = 0;
				for (int k = 0; k < 3; k++)
					s += (double)(R[k * 3 + i] * R[k * 3 + j]);
				assert_true(fabs(s - (i == j)) < TOL_EXACT);
			}
		fill_gauss(&g, 3, v);
		tagk_qrotate(q, v, o);
		qv[0] = 0;
		memcpy(qv + 1, v, sizeof(v));
		tagk_qmul(q, qv, tmp);
		tagk_qconj(q, qc);
		tagk_qmul(tmp, qc, sw);
		for (int i = 0; i < 3; i++)
			assert_true(fabs((double)(o[i] - sw[1 + i])) < TOL_EXACT * 10);
		tagk_qfrommatrix(R, q2);
		double dd = fabs((double)(q2[0] * q[0] + q2[1] * q[1] + q2[2] * q[2] + q2[3] * q[3]));
		assert_true(fabs(dd - 1) < TOL_EXACT);
	}
}

/* Jr^-1 against central differences of Log(Exp(e) Exp(d)). */
static void
test_jr_inv_fd(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 2);
	for (int t = 0; t < 50; t++) {
		tagk_real e[3], J[9], qe[4];
		fill_gauss(&g, 3, e);
		for (int i = 0; i < 3; i++)
			e[i] /= 2; /* stay clear of pi, where Log wraps */
		tagk_so3_jr_inv(e, J);
		tagk_qexp(e, qe);
		const tagk_real h = (tagk_real)(sizeof(tagk_real) == 4 ? 1e-2 : 1e-5);
		for (int j = 0; j < 3; j++) {
			tagk_real d[3] = { 0, 0, 0 }, qp[4], qm[4], lp[3], lm[3];
			d[j] = h;
			memcpy(qp, qe, sizeof(qp));
			tagk_qplus(qp, d);
			d[j] = -h;
			memcpy(qm, qe, sizeof(qm));
			tagk_qplus(qm, d);
			tagk_qlog(qp, lp);
			tagk_qlog(qm, lm);
			for (int i = 0; i < 3; i++)
				assert_true(fabs((double)((lp[i] - lm[i]) / (2 * h) - J[i * 3 + j])) < TOL_FD * 10);
		}
	}
}

/* exp of a skew matrix is Rodrigues' rotation (also beyond the scaling
 * threshold), exp of a nilpotent block is I + N, of a diagonal the exps. */
static void
test_expm_closed_forms(void **state)
{
	(void)state;
	tagk_real scr[2 * 100], E[100];
	const double angles[] = { 0.05, 1.0, 5.0 };
	for (int a = 0; a < 3; a++) {
		tagk_real w[3] = { (tagk_real)(0.6 * angles[a]), (tagk_real)(-0.48 * angles[a]),
			(tagk_real)(0.64 * angles[a]) }, S[9], R[9], q[4];
		tagk_skew(w, S);
		tagk_expm(3, S, E, scr);
		tagk_qexp(w, q);
		tagk_qmatrix(q, R);
		for (int i = 0; i < 9; i++)
			assert_true(fabs((double)(E[i] - R[i])) < TOL_EXACT * 10);
	}
	tagk_real N[16] = { 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, D[9] = { 0.5, 0, 0, 0, -2, 0, 0, 0, 3 };
	tagk_expm(4, N, E, scr);
	/* N^2 has (0, 2) = 6: exp = I + N + N^2 / 2 */
	const double want[16] = { 1, 2, 3, 0, 0, 1, 3, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
	for (int i = 0; i < 16; i++)
		assert_true(fabs((double)E[i] - want[i]) < TOL_EXACT);
	tagk_expm(3, D, E, scr);
	for (int i = 0; i < 3; i++)
		assert_true(fabs((double)E[i * 4] - exp((double)D[i * 4])) < TOL_EXACT * exp((double)D[i * 4]));
}

/* F = exp(J dt) from tagk_uav_jacobian matches the propagation of
 * perturbed states, (f(x [+] h e_j) [-] f(x)) / h, to first order in dt. */
static void
test_jacobian_matches_propagation(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 3);
	for (int t = 0; t < 20; t++) {
		tagk_uav_state x;
		tagk_uav_input u;
		rand_quat(&g, x.q);
		fill_gauss(&g, 3, x.r);
		fill_gauss(&g, 3, x.v);
		x.m = (tagk_real)(0.5 + tagk_rng_uniform(&g));
		u.thrust = (tagk_real)(5 + 10 * tagk_rng_uniform(&g));
		fill_gauss(&g, 3, u.w);
		const tagk_real dt = (tagk_real)1e-3, h = (tagk_real)(sizeof(tagk_real) == 4 ? 1e-3 : 1e-6);
		tagk_real J[100], F[100], scr[200];
		tagk_uav_jacobian(&x, &u, J);
		for (int i = 0; i < 100; i++)
			J[i] *= dt;
		tagk_expm(10, J, F, scr);
		tagk_uav_state x0 = x;
		tagk_uav_propagate(&x0, &u, dt);
		for (int j = 0; j < 10; j++) {
			tagk_real d[10] = { 0 }, col[10];
			d[j] = h;
			tagk_uav_state xp = x;
			tagk_uav_plus(&xp, d);
			tagk_uav_propagate(&xp, &u, dt);
			tagk_uav_minus(&xp, &x0, col);
			for (int i = 0; i < 10; i++) {
				double fd = (double)(col[i] / h), an = (double)F[i * 10 + j];
				/* Euler and exp(J dt) differ by O(|J dt|^2) */
				assert_true(fabs(fd - an) < 50 * (double)dt * (double)dt * 100 + TOL_FD * 10);
			}
		}
	}
}

typedef struct {
	double rmspe, final_err, max_late;
	double mean_late;  /* signed mean relative error after t_late */
	double rmspe_late; /* RMSPE after t_late */
	int status;
} flight;

/* Fly the simulator and an estimator from m0 = 1.2 m(0); the RMSPE over the
 * flight, the relative error at the end, the largest after t_late. */
static flight
fly(const char *method, int traj, int beh, uint64_t seed, double noise, double t_late, int window)
{
	flight f = { 0, 0, 0, 0, 0, TAGK_OK };
	double sl = 0, sl2 = 0;
	long nl = 0;
	tagk_uavsim_config sc;
	tagk_uavsim_defaults(&sc, traj, beh, seed);
	sc.sd_att *= (tagk_real)noise;
	sc.sd_pos *= (tagk_real)noise;
	sc.sd_vel *= (tagk_real)noise;
	sc.sd_gyro *= (tagk_real)noise;
	sc.duration = 8;
	tagk_uavsim sim;
	assert_int_equal(tagk_uavsim_init(&sim, &sc), TAGK_OK);
	tagk_mass_config mc;
	tagk_mass_defaults(&mc, tagk_method_find_kind(method, TAGK_KIND_STATE), (tagk_real)1.2 * sc.m_nom);
	if (window)
		mc.window = window;
	size_t len = tagk_mass_workspace_len(&mc);
	assert_true(len > 0);
	tagk_real *ws = canary_alloc(len);
	tagk_mass_est e;
	assert_int_equal(tagk_mass_init(&e, &mc, ws, len), TAGK_OK);
	tagk_uavsim_sample s, prev;
	double se = 0;
	long n = 0;
	for (long k = 0; k < tagk_uavsim_steps(&sim); k++) {
		assert_int_equal(tagk_uavsim_next(&sim, &s), TAGK_OK);
		if (k == 0) {
			assert_int_equal(tagk_mass_start(&e, &s.y), TAGK_OK);
		} else {
			tagk_real m;
			f.status = tagk_mass_update(&e, &prev.u, s.t - prev.t, &s.y, &m);
			if (f.status != TAGK_OK)
				break;
			double r = ((double)m - (double)s.m) / (double)s.m;
			se += r * r;
			n++;
			f.final_err = fabs(r);
			if ((double)s.t > t_late) {
				if (fabs(r) > f.max_late)
					f.max_late = fabs(r);
				sl += r;
				sl2 += r * r;
				nl++;
			}
		}
		prev = s;
	}
	assert_true(canary_intact(ws, len));
	canary_free(ws);
	f.rmspe = sqrt(se / (double)(n ? n : 1));
	f.mean_late = sl / (double)(nl ? nl : 1);
	f.rmspe_late = sqrt(sl2 / (double)(nl ? nl : 1));
	return f;
}

static const char *const all_methods[] = { "ekf", "msckf", "ukf", "swls" };

/* With almost no sensor noise every method finds the true mass from a 20 %
 * error, and holds it: the truth is the independent reference. */
static void
test_methods_find_the_mass(void **state)
{
	(void)state;
	for (int i = 0; i < 4; i++) {
		flight f = fly(all_methods[i], TAGK_UAVTRAJ_LOOP, TAGK_MASS_CONSTANT, 7, 0.01, 1.0, 0);
		assert_int_equal(f.status, TAGK_OK);
		assert_true(f.max_late < 2e-3);
	}
}

/* After a payload is dropped (25 % of the mass at 4 s, an error of 33 %
 * of the new mass), every method is within 4 % of the new mass from 6 s on
 * and within 1.5 % at the end. */
static void
test_methods_track_a_drop(void **state)
{
	(void)state;
	for (int i = 0; i < 4; i++) {
		flight f = fly(all_methods[i], TAGK_UAVTRAJ_SQUARE, TAGK_MASS_DROP, 8, 1.0, 6.0, 0);
		assert_int_equal(f.status, TAGK_OK);
		print_message("%s: drop: largest error after 6 s %.4f, at the end %.4f\n", all_methods[i],
		    f.max_late, f.final_err);
		assert_true(f.max_late < 4e-2);
		assert_true(f.final_err < 1.5e-2);
	}
}

/* The MSCKF uses each measurement once, so its head state is the EKF's
 * (eqs. 12-14 reduce to eqs. 5-7 on the head): an identity, checked on a
 * noisy flight. */
static void
test_msckf_head_is_ekf(void **state)
{
	(void)state;
	flight a = fly("ekf", TAGK_UAVTRAJ_LEMNISCATE, TAGK_MASS_SWAPS, 9, 1.0, 0, 0);
	flight b = fly("msckf", TAGK_UAVTRAJ_LEMNISCATE, TAGK_MASS_SWAPS, 9, 1.0, 0, 0);
	flight c = fly("msckf", TAGK_UAVTRAJ_LEMNISCATE, TAGK_MASS_SWAPS, 9, 1.0, 0, 3);
	assert_int_equal(a.status, TAGK_OK);
	assert_true(fabs(a.rmspe - b.rmspe) < TOL_LOOSE * 10 * a.rmspe);
	assert_true(fabs(a.rmspe - c.rmspe) < TOL_LOOSE * 10 * a.rmspe);
}

/* msckf-stack (eq. 14 read as stacking the window's measurements) uses each
 * measurement up to `window` times, so it is not the EKF; it still finds
 * the mass without noise and tracks swaps with noise. Window 3: the stacked
 * update costs O((9 W)^2 n). */
static void
test_msckf_stack_is_another_filter(void **state)
{
	(void)state;
	flight a = fly("ekf", TAGK_UAVTRAJ_LEMNISCATE, TAGK_MASS_SWAPS, 9, 1.0, 0, 0);
	flight s = fly("msckf-stack", TAGK_UAVTRAJ_LEMNISCATE, TAGK_MASS_SWAPS, 9, 1.0, 0, 3);
	assert_int_equal(s.status, TAGK_OK);
	print_message("swaps: ekf RMSPE %.5f, msckf-stack (window 3) %.5f\n", a.rmspe, s.rmspe);
	assert_true(fabs(a.rmspe - s.rmspe) > 1e-3 * a.rmspe);
	assert_true(s.rmspe < 1.5 * a.rmspe);
	flight q = fly("msckf-stack", TAGK_UAVTRAJ_LOOP, TAGK_MASS_CONSTANT, 7, 0.01, 1.0, 3);
	assert_int_equal(q.status, TAGK_OK);
	assert_true(q.max_late < 2e-3);
}

/* SWLS's window only smooths the past: with the oldest state marginalised
 * exactly, the newest estimate hardly depends on the window's length:
 * windows of 2, 10 and 40 within 1 % in RMSPE after a 2 s start-up, and 5 %
 * over the whole flight (the start-up, before the first marginalisation,
 * is where a window of 2 differs). */
static void
test_swls_window_independence(void **state)
{
	(void)state;
	const int wins[3] = { 2, 10, 40 };
	flight f[3];
	for (int i = 0; i < 3; i++) {
		f[i] = fly("swls", TAGK_UAVTRAJ_ZIGZAG, TAGK_MASS_LOAD, 10, 1.0, 2.0, wins[i]);
		assert_int_equal(f[i].status, TAGK_OK);
		print_message("swls window %d: RMSPE %.5f %%, after 2 s %.5f %%\n", wins[i], 100 * f[i].rmspe, 100 * f[i].rmspe_late);
	}
	for (int i = 1; i < 3; i++) {
		assert_true(fabs(f[i].rmspe_late - f[0].rmspe_late) < 0.01 * f[0].rmspe_late);
		assert_true(fabs(f[i].rmspe - f[0].rmspe) < 0.05 * f[0].rmspe);
	}
}

/* At constant mass, with the default sensors, no method is biased: the
 * mean relative error after a 2 s start-up is below 0.1 % on each of three
 * flights (SWLS weighted eq. 39's velocity residual at a frozen mass, an
 * errors-in-variables form, and sat 0.45 % low before the residual was
 * divided by m_k+1). */
static void
test_no_bias_at_constant_mass(void **state)
{
	(void)state;
	for (int i = 0; i < 4; i++)
		for (uint64_t seed = 21; seed < 24; seed++) {
			flight f = fly(all_methods[i], TAGK_UAVTRAJ_RANDOM, TAGK_MASS_CONSTANT, seed, 1.0, 2.0, 0);
			assert_int_equal(f.status, TAGK_OK);
			print_message("%s seed %d: mean error after 2 s %+.4f %%, RMSPE after 2 s %.4f %%, whole flight %.4f %%\n",
			    all_methods[i], (int)seed, 100 * f.mean_late, 100 * f.rmspe_late, 100 * f.rmspe);
			assert_true(fabs(f.mean_late) < 1e-3);
		}
}

static void
start_est(const char *method, tagk_mass_est *e, tagk_real **ws, size_t *len, tagk_uav_meas *y)
{
	tagk_mass_config mc;
	tagk_mass_defaults(&mc, tagk_method_find_kind(method, TAGK_KIND_STATE), 1);
	*len = tagk_mass_workspace_len(&mc);
	*ws = canary_alloc(*len);
	assert_int_equal(tagk_mass_init(e, &mc, *ws, *len), TAGK_OK);
	memset(y, 0, sizeof(*y));
	y->q[0] = 1;
	y->r[2] = 1;
	assert_int_equal(tagk_mass_start(e, y), TAGK_OK);
}

/* Bad input is refused with the state untouched; a wild measurement makes
 * the filter diverge, which is reported and sticks until a restart. */
static void
test_faults(void **state)
{
	(void)state;
	for (int i = 0; i < 4; i++) {
		tagk_mass_est e;
		tagk_real *ws, m;
		size_t len;
		tagk_uav_meas y;
		start_est(all_methods[i], &e, &ws, &len, &y);
		tagk_uav_input u = { TAGK_UAV_G, { 0, 0, 0 } };
		for (int k = 0; k < 20; k++)
			assert_int_equal(tagk_mass_update(&e, &u, (tagk_real)0.01, &y, &m), TAGK_OK);
		tagk_uav_state before = e.x;
		tagk_uav_meas bad = y;
		bad.v[1] = (tagk_real)NAN;
		assert_int_equal(tagk_mass_update(&e, &u, (tagk_real)0.01, &bad, &m), TAGK_ENONFINITE);
		bad = y;
		bad.q[0] = 2; /* not a unit quaternion */
		assert_int_equal(tagk_mass_update(&e, &u, (tagk_real)0.01, &bad, &m), TAGK_ENONFINITE);
		tagk_uav_input ub = u;
		ub.w[2] = (tagk_real)INFINITY;
		assert_int_equal(tagk_mass_update(&e, &ub, (tagk_real)0.01, &y, &m), TAGK_ENONFINITE);
		assert_int_equal(tagk_mass_update(&e, &u, 0, &y, &m), TAGK_EINVAL);
		assert_int_equal(tagk_mass_update(&e, &u, (tagk_real)-0.01, &y, &m), TAGK_EINVAL);
		assert_memory_equal(&before, &e.x, sizeof(before));
		/* 1e5 N of thrust while the vehicle is seen hovering: only a mass
		 * of 1e4 kg explains it, past the bound of 100 m0 */
		tagk_uav_input huge = u;
		huge.thrust = (tagk_real)1e5;
		tagk_status st = TAGK_OK;
		for (int k = 0; k < 500 && st == TAGK_OK; k++)
			st = tagk_mass_update(&e, &huge, (tagk_real)0.01, &y, &m);
		assert_int_equal(st, TAGK_EDIVERGED);
		assert_int_equal(tagk_mass_update(&e, &u, (tagk_real)0.01, &y, &m), TAGK_EDIVERGED);
		assert_int_equal(tagk_mass_start(&e, &y), TAGK_OK);
		assert_int_equal(tagk_mass_update(&e, &u, (tagk_real)0.01, &y, &m), TAGK_OK);
		assert_true(canary_intact(ws, len));
		canary_free(ws);
	}
}

static void
test_config_checks(void **state)
{
	(void)state;
	tagk_mass_config mc;
	tagk_mass_est e;
	tagk_real ws[4];
	tagk_mass_defaults(&mc, tagk_method_find_kind("swls", TAGK_KIND_STATE), 1);
	assert_int_equal(tagk_mass_init(&e, &mc, ws, 4), TAGK_ESPACE);
	mc.window = 1;
	assert_int_equal(tagk_mass_workspace_len(&mc), 0);
	assert_int_equal(tagk_mass_init(&e, &mc, ws, 4), TAGK_EINVAL);
	tagk_mass_defaults(&mc, tagk_method_find_kind("ekf", TAGK_KIND_STATE), 0);
	assert_int_equal(tagk_mass_workspace_len(&mc), 0);
	tagk_mass_defaults(&mc, tagk_method_find_kind("ekf", TAGK_KIND_STATE), 1);
	mc.r_vel = (tagk_real)NAN;
	assert_int_equal(tagk_mass_workspace_len(&mc), 0);
	assert_null(tagk_method_find_kind("nope", TAGK_KIND_STATE));
	tagk_uav_meas y = { { 1, 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 } };
	tagk_uav_input u = { 1, { 0, 0, 0 } };
	tagk_mass_defaults(&mc, tagk_method_find_kind("ukf", TAGK_KIND_STATE), 1);
	tagk_real big[2000];
	assert_true(tagk_mass_workspace_len(&mc) <= 2000);
	assert_int_equal(tagk_mass_init(&e, &mc, big, 2000), TAGK_OK);
	assert_int_equal(tagk_mass_update(&e, &u, (tagk_real)0.01, &y, NULL), TAGK_EINVAL); /* not started */
}

/* The actuator model: without it the accelerometer (noise off) reads the
 * logged thrust over the mass exactly; with a 50 ms lag it reads a thrust
 * that trails the command, a first-order filter of it (checked step by
 * step); speed 2 is the same reference at twice the rate. */
static void
test_simulator_actuators(void **state)
{
	(void)state;
	for (int lagged = 0; lagged < 2; lagged++) {
		tagk_uavsim s;
		tagk_uavsim_config c;
		tagk_uavsim_defaults(&c, TAGK_UAVTRAJ_LEMNISCATE, TAGK_MASS_SWAPS, 11);
		c.sd_acc = 0;
		c.thrust_tau = lagged ? (tagk_real)0.05 : 0;
		assert_int_equal(tagk_uavsim_init(&s, &c), TAGK_OK);
		double worst = 0, act = 0;
		for (long k = 0; k < tagk_uavsim_steps(&s); k++) {
			tagk_uavsim_sample o;
			assert_int_equal(tagk_uavsim_next(&s, &o), TAGK_OK);
			double produced = (double)o.acc[2] * (double)o.m, cmd = (double)o.u.thrust;
			act = k == 0 ? cmd : act + 0.01 / (0.05 + 0.01) * (cmd - act);
			double want = lagged ? act : cmd;
			assert_true(fabs(produced - want) < TOL_LOOSE * want);
			worst = fabs(produced - cmd) / cmd > worst ? fabs(produced - cmd) / cmd : worst;
		}
		print_message("lag %s: largest gap between the thrust produced and the command %.4f\n",
		    lagged ? "50 ms" : "none", worst);
		assert_true(lagged ? worst > 0.01 : worst < TOL_LOOSE);
	}
	tagk_uavsim s1, s2;
	tagk_uavsim_config c;
	tagk_uavsim_defaults(&c, TAGK_UAVTRAJ_LOOP, TAGK_MASS_CONSTANT, 12);
	assert_int_equal(tagk_uavsim_init(&s1, &c), TAGK_OK);
	c.speed = 2;
	assert_int_equal(tagk_uavsim_init(&s2, &c), TAGK_OK);
	tagk_real p1[3], v1[3], a1[3], p2[3], v2[3], a2[3];
	tagk_uavsim_reference(&s1, (tagk_real)3.4, p1, v1, a1);
	tagk_uavsim_reference(&s2, (tagk_real)1.7, p2, v2, a2);
	for (int i = 0; i < 3; i++) {
		assert_true(fabs((double)(p2[i] - p1[i])) < TOL_TIGHT * 10);
		assert_true(fabs((double)(v2[i] - 2 * v1[i])) < TOL_TIGHT * 10);
		assert_true(fabs((double)(a2[i] - 4 * a1[i])) < TOL_TIGHT * 100);
	}
	c.speed = 0;
	assert_int_equal(tagk_uavsim_init(&s2, &c), TAGK_EINVAL);
	c.speed = 1;
	c.thrust_max = (tagk_real)0.2;
	assert_int_equal(tagk_uavsim_init(&s2, &c), TAGK_EINVAL);
}

/* The simulator: mass profiles in closed form, the reference's velocity and
 * acceleration are its derivatives, the controller tracks every trajectory
 * under every payload, and a seed gives the same flight twice. */
static void
test_simulator(void **state)
{
	(void)state;
	tagk_uavsim s;
	tagk_uavsim_config c;
	for (int b = 0; b < TAGK_MASSB_COUNT; b++) {
		tagk_uavsim_defaults(&c, 0, b, 5);
		assert_int_equal(tagk_uavsim_init(&s, &c), TAGK_OK);
		double m0 = (double)tagk_uavsim_mass(&s, 0), m1 = (double)tagk_uavsim_mass(&s, c.duration);
		assert_true(fabs(m0 - 1) < 1e-12);
		const double end[] = { 1, 0.7, 1, 0.75, 1.3 };
		assert_true(fabs(m1 - end[b]) < 0.035 + 1e-6); /* amplitude jitter 10 % */
	}
	tagk_uavsim_defaults(&c, TAGK_UAVTRAJ_SQUARE, TAGK_MASS_SWAPS, 5);
	assert_int_equal(tagk_uavsim_init(&s, &c), TAGK_OK);
	double lo = 10, hi = 0;
	for (int k = 0; k <= 200; k++) {
		double m = (double)tagk_uavsim_mass(&s, (tagk_real)(0.1 * k));
		lo = m < lo ? m : lo;
		hi = m > hi ? m : hi;
	}
	assert_true(lo < 0.9 && hi > 1.25);
	for (int tr = 0; tr < TAGK_UAVTRAJ_COUNT; tr++) {
		tagk_uavsim_defaults(&c, tr, TAGK_MASS_SWAPS, 6);
		assert_int_equal(tagk_uavsim_init(&s, &c), TAGK_OK);
		const tagk_real h = (tagk_real)(sizeof(tagk_real) == 4 ? 1e-2 : 1e-5);
		for (int k = 0; k < 50; k++) {
			tagk_real t = (tagk_real)(0.37 * k + 0.01), p1[3], v1[3], a1[3], p2[3], v2[3], a2[3], p[3], v[3], a[3];
			tagk_uavsim_reference(&s, t - h, p1, v1, a1);
			tagk_uavsim_reference(&s, t + h, p2, v2, a2);
			tagk_uavsim_reference(&s, t, p, v, a);
			for (int i = 0; i < 3; i++) {
				assert_true(fabs((double)((p2[i] - p1[i]) / (2 * h) - v[i])) < TOL_FD * 100);
				assert_true(fabs((double)((v2[i] - v1[i]) / (2 * h) - a[i])) < TOL_FD * 100);
			}
		}
		tagk_uavsim_sample o;
		double err = 0;
		long n = tagk_uavsim_steps(&s);
		assert_int_equal(n, 2001);
		for (long k = 0; k < n; k++) {
			assert_int_equal(tagk_uavsim_next(&s, &o), TAGK_OK);
			double d = 0;
			for (int i = 0; i < 3; i++)
				d += (double)((o.x.r[i] - o.ref[i]) * (o.x.r[i] - o.ref[i]));
			err += sqrt(d);
		}
		assert_int_equal(tagk_uavsim_next(&s, &o), TAGK_EINVAL);
		assert_true(err / (double)n < 0.2); /* mean tracking error under 20 cm */
	}
	tagk_uavsim s2;
	tagk_uavsim_sample o1, o2;
	tagk_uavsim_defaults(&c, TAGK_UAVTRAJ_RANDOM, TAGK_MASS_LOAD, 11);
	assert_int_equal(tagk_uavsim_init(&s, &c), TAGK_OK);
	assert_int_equal(tagk_uavsim_init(&s2, &c), TAGK_OK);
	for (int k = 0; k < 300; k++) {
		assert_int_equal(tagk_uavsim_next(&s, &o1), TAGK_OK);
		assert_int_equal(tagk_uavsim_next(&s2, &o2), TAGK_OK);
		assert_memory_equal(&o1, &o2, sizeof(o1));
	}
	c.traj = 9;
	assert_int_equal(tagk_uavsim_init(&s, &c), TAGK_EINVAL);
}

/* Sensors without noise, a constant mass: the data are consistent with one
 * mass, so every method must find it, not merely come near it: after a
 * 2 s start-up the largest relative error is below 2e-4 (measured: ekf and
 * msckf 1.3e-4, swls 1.5e-5; ukf, whose sigma points see the model's
 * curvature, sits 7e-4 high and is held to 1e-3), on three trajectories. */
static void
test_noise_free_finds_the_mass(void **state)
{
	(void)state;
	const int trajs[] = { TAGK_UAVTRAJ_RANDOM, TAGK_UAVTRAJ_ZIGZAG, TAGK_UAVTRAJ_LEMNISCATE };
	for (int i = 0; i < 4; i++)
		for (int t = 0; t < 3; t++) {
			flight f = fly(all_methods[i], trajs[t], TAGK_MASS_CONSTANT, 21, 0.0, 2.0, 0);
			assert_int_equal(f.status, TAGK_OK);
			print_message("%s, trajectory %d, no noise: largest error after 2 s %.2e, mean %+.2e\n", all_methods[i],
			    trajs[t], f.max_late, f.mean_late);
			assert_true(f.max_late < (strcmp(all_methods[i], "ukf") ? 2e-4 : 1e-3));
		}
}

/* Cholesky in double, lower factor of the n x n A (n <= 10) into L. */
static void
chol_d(int n, const double *A, double *L)
{
	memset(L, 0, (size_t)n * n * sizeof(double));
	for (int j = 0; j < n; j++)
		for (int i = j; i < n; i++) {
			double s = A[i * n + j];
			for (int k = 0; k < j; k++)
				s -= L[i * n + k] * L[j * n + k];
			L[i * n + j] = i == j ? sqrt(s) : s / L[j * n + j];
		}
}

/* 2n + 1 sigma points of (x, P): x [+] (+-gamma L_i) (paper 001 eq. 15). */
static void
sigma_d(const tagk_uav_state *x, const double *P, double gamma, tagk_uav_state *X)
{
	double L[100];
	chol_d(10, P, L);
	X[0] = *x;
	for (int i = 0; i < 10; i++)
		for (int s = 0; s < 2; s++) {
			tagk_real d[10];
			for (int k = 0; k < 10; k++)
				d[k] = (tagk_real)((s ? -gamma : gamma) * L[k * 10 + i]);
			X[1 + i + 10 * s] = *x;
			tagk_uav_plus(&X[1 + i + 10 * s], d);
		}
}

/* One step of the unscented Kalman filter as van der Merwe's scaled
 * unscented transform defines it, written here from the textbook in double
 * (the model's propagate, [+], [-] and innovation are uav.h's): predict
 * (mean in the tangent space of the propagated centre, covariance about
 * that mean, + Q dt), then fresh sigma points, the measurement's mean,
 * covariance S, cross-covariance C, K = C S^-1, x [+]= K (z - mean),
 * P -= K S K^T. */
static void
ukf_step_oracle(const tagk_mass_config *c, tagk_uav_state *x, double *P, const tagk_uav_input *u, double dt,
    const tagk_uav_meas *y)
{
	const double l = 10, a2 = (double)c->ukf_alpha * (double)c->ukf_alpha;
	const double lam = a2 * (l + (double)c->ukf_kappa) - l, gamma = sqrt(l + lam);
	double wm[21], wc[21], D[21][10], mean[10] = { 0 }, Pn[100] = { 0 };
	for (int i = 0; i < 21; i++)
		wm[i] = wc[i] = 1 / (2 * (l + lam));
	wm[0] = lam / (l + lam);
	wc[0] = wm[0] + 1 - a2 + (double)c->ukf_beta;
	tagk_uav_state X[21];
	sigma_d(x, P, gamma, X);
	for (int i = 0; i < 21; i++)
		tagk_uav_propagate(&X[i], u, (tagk_real)dt);
	for (int i = 0; i < 21; i++) {
		tagk_real d[10];
		tagk_uav_minus(&X[i], &X[0], d);
		for (int k = 0; k < 10; k++)
			mean[k] += wm[i] * (D[i][k] = (double)d[k]);
	}
	tagk_uav_state xm = X[0];
	tagk_real md[10];
	for (int k = 0; k < 10; k++)
		md[k] = (tagk_real)mean[k];
	tagk_uav_plus(&xm, md);
	const double q[10] = { c->q_att * c->q_att, c->q_att * c->q_att, c->q_att * c->q_att, c->q_pos * c->q_pos,
		c->q_pos * c->q_pos, c->q_pos * c->q_pos, c->q_vel * c->q_vel, c->q_vel * c->q_vel,
		c->q_vel * c->q_vel, c->q_mass * c->q_mass };
	for (int i = 0; i < 21; i++)
		for (int a = 0; a < 10; a++)
			for (int b = 0; b < 10; b++)
				Pn[a * 10 + b] += wc[i] * (D[i][a] - mean[a]) * (D[i][b] - mean[b]);
	for (int a = 0; a < 10; a++)
		Pn[a * 11] += q[a] * dt;
	const double r[9] = { c->r_att * c->r_att, c->r_att * c->r_att, c->r_att * c->r_att, c->r_pos * c->r_pos,
		c->r_pos * c->r_pos, c->r_pos * c->r_pos, c->r_vel * c->r_vel, c->r_vel * c->r_vel, c->r_vel * c->r_vel };
	sigma_d(&xm, Pn, gamma, X);
	double my[9] = { 0 }, S[81] = { 0 }, C[90] = { 0 };
	for (int i = 0; i < 21; i++) {
		tagk_real d[10];
		tagk_uav_minus(&X[i], &xm, d);
		for (int k = 0; k < 10; k++)
			D[i][k] = (double)d[k];
		for (int k = 0; k < 9; k++)
			my[k] += wm[i] * D[i][k];
	}
	for (int i = 0; i < 21; i++)
		for (int a = 0; a < 10; a++)
			for (int b = 0; b < 9; b++) {
				C[a * 9 + b] += wc[i] * D[i][a] * (D[i][b] - my[b]);
				if (a < 9)
					S[a * 9 + b] += wc[i] * (D[i][a] - my[a]) * (D[i][b] - my[b]);
			}
	for (int a = 0; a < 9; a++)
		S[a * 10] += r[a];
	double K[90]; /* K = C S^-1, row a from S^-1 C_a^T (S symmetric) */
	for (int a = 0; a < 10; a++) {
		long double Sl[81], v[9];
		for (int k = 0; k < 81; k++)
			Sl[k] = S[k];
		for (int k = 0; k < 9; k++)
			v[k] = C[a * 9 + k];
		gauss_solve(9, Sl, v);
		for (int k = 0; k < 9; k++)
			K[a * 9 + k] = (double)v[k];
	}
	tagk_real z[9], dx[10];
	tagk_uav_innovation(y, &xm, z);
	for (int a = 0; a < 10; a++) {
		double s = 0;
		for (int k = 0; k < 9; k++)
			s += K[a * 9 + k] * ((double)z[k] - my[k]);
		dx[a] = (tagk_real)s;
	}
	for (int a = 0; a < 10; a++)
		for (int b = 0; b < 10; b++) {
			double s = 0;
			for (int k = 0; k < 9; k++)
				s += C[a * 9 + k] * K[b * 9 + k];
			P[a * 10 + b] = Pn[a * 10 + b] - s;
		}
	*x = xm;
	tagk_uav_plus(x, dx);
}

/* The UKF against that oracle, step by step from a wide covariance (0.3 rad
 * of attitude, where the sigma points see the model's curvature), with the
 * default weights and with others (alpha 0.6, kappa 3: a negative centre
 * weight): state and covariance agree to 1e-9 (measured 1e-14). With the
 * default weights (alpha 1, kappa 0) lambda is 0 and the centre's mean
 * weight 0 whichever way it is written: the second set tells them apart. */
static void
test_ukf_is_the_unscented_transform(void **state)
{
	(void)state;
	const double alphas[] = { 1, 0.6 }, kappas[] = { 0, 3 };
	for (int w = 0; w < 2; w++) {
		tagk_mass_est e;
		tagk_real *ws;
		size_t len;
		tagk_uav_meas y;
		tagk_mass_config mc;
		tagk_mass_defaults(&mc, tagk_method_find_kind("ukf", TAGK_KIND_STATE), 1);
		mc.ukf_alpha = (tagk_real)alphas[w];
		mc.ukf_kappa = (tagk_real)kappas[w];
		len = tagk_mass_workspace_len(&mc);
		ws = canary_alloc(len);
		assert_int_equal(tagk_mass_init(&e, &mc, ws, len), TAGK_OK);
		memset(&y, 0, sizeof(y));
		y.q[0] = 1;
		y.r[2] = 1;
		assert_int_equal(tagk_mass_start(&e, &y), TAGK_OK);
		for (int a = 0; a < 3; a++) {
			e.P[a * e.ld + a] = (tagk_real)0.09;
			e.P[(6 + a) * e.ld + 6 + a] = (tagk_real)0.25;
		}
		double P[100], worst = 0;
		for (int a = 0; a < 10; a++)
			for (int b = 0; b < 10; b++)
				P[a * 10 + b] = (double)e.P[a * e.ld + b];
		tagk_uav_state x = e.x;
		for (int k = 0; k < 5; k++) {
			tagk_uav_input u = { (tagk_real)(TAGK_UAV_G * 1.1), { (tagk_real)0.8, (tagk_real)-0.5, (tagk_real)0.3 } };
			y.r[0] = (tagk_real)(0.01 * k);
			y.v[1] = (tagk_real)(0.05 * k);
			tagk_real m;
			assert_int_equal(tagk_mass_update(&e, &u, (tagk_real)0.05, &y, &m), TAGK_OK);
			ukf_step_oracle(&mc, &x, P, &u, 0.05, &y);
			double pmax = 0, dmax = 0;
			for (int a = 0; a < 10; a++)
				for (int b = 0; b < 10; b++) {
					pmax = fmax(pmax, fabs(P[a * 10 + b]));
					dmax = fmax(dmax, fabs(P[a * 10 + b] - (double)e.P[a * e.ld + b]));
				}
			tagk_real d[10];
			tagk_uav_minus(&e.x, &x, d);
			double xmax = 0; /* the state is of order 1 (mass 1 kg, a unit quaternion, metres) */
			for (int a = 0; a < 10; a++)
				xmax = fmax(xmax, fabs((double)d[a]));
			worst = fmax(worst, fmax(dmax / pmax, xmax));
		}
		print_message("ukf alpha %g kappa %g: worst relative difference from the oracle %.2g\n", alphas[w],
		    kappas[w], worst);
#ifdef TAGK_FLOAT
		assert_true(worst < 1e-3);
#else
		assert_true(worst < 1e-9);
#endif
		assert_true(canary_intact(ws, len));
		canary_free(ws);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_so3_identities),
		cmocka_unit_test(test_jr_inv_fd),
		cmocka_unit_test(test_expm_closed_forms),
		cmocka_unit_test(test_jacobian_matches_propagation),
		cmocka_unit_test(test_methods_find_the_mass),
		cmocka_unit_test(test_methods_track_a_drop),
		cmocka_unit_test(test_msckf_head_is_ekf),
		cmocka_unit_test(test_msckf_stack_is_another_filter),
		cmocka_unit_test(test_swls_window_independence),
		cmocka_unit_test(test_no_bias_at_constant_mass),
		cmocka_unit_test(test_noise_free_finds_the_mass),
		cmocka_unit_test(test_ukf_is_the_unscented_transform),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_config_checks),
		cmocka_unit_test(test_simulator),
		cmocka_unit_test(test_simulator_actuators),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
