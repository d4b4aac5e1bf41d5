/* test_consistency.c: gate, triangle inequality, pseudo-inertia, projection. */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include "bodies.h"

static const tagk_real L_ARM = (tagk_real)0.0325, ALPHA = (tagk_real)1e-4;

static void
crazyflie(tagk_real t[10])
{
	tagk_real c[3] = { 0, 0, 0 };
	tagk_real Ic[9] = { 1.66e-5, 0.83e-6, 0.72e-6, 0.83e-6, 1.66e-5, 1.8e-6, 0.72e-6, 1.8e-6, 2.93e-5 };
	tagk_theta_from_body((tagk_real)0.035, c, Ic, t);
}

static void
test_gate_hand_built(void **state)
{
	(void)state;
	tagk_real t[10], u[10];
	crazyflie(t);
	assert_int_equal(tagk_gate(t, L_ARM, ALPHA), 0);
	assert_true(tagk_consistent(t, 0));
	assert_true(tagk_triangle(t, 0));

	memcpy(u, t, sizeof(u));
	u[TAGK_P_M] = (tagk_real)-0.01;
	assert_true(tagk_gate(u, L_ARM, ALPHA) & TAGK_GATE_MASS);
	assert_false(tagk_consistent(u, 0));
	u[TAGK_P_M] = 0;
	assert_true(tagk_gate(u, L_ARM, ALPHA) & TAGK_GATE_MASS);

	memcpy(u, t, sizeof(u));
	u[TAGK_P_MCX] = (tagk_real)0.035 * (tagk_real)0.05; /* c 5 cm off: beyond the arm */
	assert_int_equal(tagk_gate(u, L_ARM, ALPHA), TAGK_GATE_COM);

	memcpy(u, t, sizeof(u));
	u[TAGK_P_IZZ] = (tagk_real)-1e-6;
	assert_true(tagk_gate(u, L_ARM, ALPHA) & TAGK_GATE_NOTPD);

	memcpy(u, t, sizeof(u));
	u[TAGK_P_IXX] = (tagk_real)2e-4;
	assert_int_equal(tagk_gate(u, L_ARM, ALPHA), TAGK_GATE_LMAX);

	memcpy(u, t, sizeof(u));
	u[TAGK_P_IXY] = NAN;
	assert_int_equal(tagk_gate(u, L_ARM, ALPHA), TAGK_GATE_NONFINITE);
	assert_false(tagk_consistent(u, 0));
	assert_false(tagk_triangle(u, 0));
}

/* The gate's centre-of-mass test is ||c|| <= L_arm whatever the direction
 * of c: along each axis, both signs, and the diagonals, c at 0.9 L_arm
 * passes it and at 1.1 L_arm is refused (a payload hung off-centre along y
 * or below the body along z is as far out as one along x). */
static void
test_gate_com_every_direction(void **state)
{
	(void)state;
	static const double dir[][3] = {
		{ 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 },
		{ 1, 1, 1 }, { -1, 1, -1 }, { 0, 1, -1 }, { 1, 0, 1 },
	};
	tagk_real Ic[9] = { 1.66e-5, 0.83e-6, 0.72e-6, 0.83e-6, 1.66e-5, 1.8e-6, 0.72e-6, 1.8e-6, 2.93e-5 };
	for (size_t d = 0; d < sizeof(dir) / sizeof(dir[0]); d++) {
		double len = sqrt(dir[d][0] * dir[d][0] + dir[d][1] * dir[d][1] + dir[d][2] * dir[d][2]);
		for (int out = 0; out <= 1; out++) {
			double r = (out ? 1.1 : 0.9) * (double)L_ARM / len;
			tagk_real c[3] = { (tagk_real)(r * dir[d][0]), (tagk_real)(r * dir[d][1]),
				(tagk_real)(r * dir[d][2]) }, t[10];
			tagk_theta_from_body((tagk_real)0.035, c, Ic, t);
			unsigned why = tagk_gate(t, L_ARM, ALPHA);
			if (!!(why & TAGK_GATE_COM) != out)
				fail_msg("direction %zu at %.1f L_arm: gate says %#x", d, out ? 1.1 : 0.9, why);
		}
	}
}

/* A body whose inertia is positive definite but breaks the triangle
 * inequality (principal moments 1, 1, 3): the paper's gate lets it through,
 * the full tests do not. A thin rod (0, 1, 1) is on the boundary: consistent. */
static void
test_triangle_hand_built(void **state)
{
	(void)state;
	tagk_real c[3] = { 0, 0, 0 }, t[10];
	tagk_real bad[9] = { 1e-5, 0, 0, 0, 1e-5, 0, 0, 0, 3e-5 };
	tagk_theta_from_body((tagk_real)0.035, c, bad, t);
	assert_int_equal(tagk_gate(t, L_ARM, ALPHA), 0);
	assert_false(tagk_triangle(t, 0));
	assert_false(tagk_consistent(t, 1e-9));
	tagk_real lmin;
	assert_int_equal(tagk_pseudo_min_eig(t, &lmin), TAGK_OK);
	assert_true(lmin < 0);

	tagk_real rod[9] = { 0, 0, 0, 0, 1e-5, 0, 0, 0, 1e-5 };
	tagk_theta_from_body((tagk_real)0.035, c, rod, t);
	assert_true(tagk_triangle(t, 1e-6));
	assert_true(tagk_consistent(t, 1e-6));
}

/* For m > 0, J >= 0 exactly when the central principal moments satisfy the
 * triangle inequalities: two independent computations must agree. */
static void
test_triangle_equals_pseudo_inertia(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 95);
	int valid = 0, invalid = 0;
	for (int trial = 0; trial < 3000; trial++) {
		tagk_real d[3], R[9], Ic[9], c[3], t[10];
		for (int i = 0; i < 3; i++) {
			d[i] = tagk_rng_uniform(&g) * 2 - (tagk_real)0.2;
			c[i] = tagk_rng_gaussian(&g);
		}
		random_rotation(&g, R);
		rotate_diag(R, d, Ic);
		tagk_theta_from_body((tagk_real)0.1 + tagk_rng_uniform(&g), c, Ic, t);
		/* skip near-boundary draws where rounding decides */
		tagk_real s[3] = { d[0], d[1], d[2] };
		tagk_real margin = 1e30f;
		for (int i = 0; i < 3; i++) {
			tagk_real tri = s[(i + 1) % 3] + s[(i + 2) % 3] - s[i];
			if (tri < margin) margin = tri;
			if (s[i] < margin) margin = s[i];
		}
		if (tagk_fabs(margin) < (tagk_real)1e-2)
			continue;
		int want = margin > 0;
		assert_int_equal(tagk_triangle(t, 0), want);
		assert_int_equal(tagk_consistent(t, 0), want);
		valid += want;
		invalid += !want;
	}
	assert_true(valid > 300 && invalid > 300);
}

static tagk_real
jdist(const tagk_real a[10], const tagk_real b[10])
{
	tagk_real Ja[16], Jb[16], s = 0;
	tagk_pseudo_inertia(a, Ja);
	tagk_pseudo_inertia(b, Jb);
	for (int i = 0; i < 16; i++)
		s += (Ja[i] - Jb[i]) * (Ja[i] - Jb[i]);
	return tagk_sqrt(s);
}

static void
test_projection(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 96);
	/* consistent bodies are fixed points */
	for (int trial = 0; trial < 200; trial++) {
		tagk_real t[10], p[10];
		random_valid_body(&g, t);
		assert_int_equal(tagk_project(t, 0, p), TAGK_OK);
		assert_true(rel_err(10, p, t) < TOL_TIGHT * 10);
	}
	/* perturbed bodies land in the set, no farther than any other member */
	for (int trial = 0; trial < 200; trial++) {
		tagk_real t[10], p[10], other[10];
		random_valid_body(&g, t);
		for (int i = 0; i < 10; i++)
			t[i] += tagk_rng_gaussian(&g) * (tagk_real)0.3;
		t[TAGK_P_M] = -tagk_fabs(t[TAGK_P_M]); /* surely inconsistent */
		assert_false(tagk_consistent(t, 0));
		assert_int_equal(tagk_project(t, (tagk_real)1e-9, p), TAGK_OK);
		assert_true(tagk_consistent(p, (tagk_real)1e-6));
		tagk_real dp = jdist(p, t);
		for (int k = 0; k < 20; k++) {
			random_valid_body(&g, other);
			assert_true(dp <= jdist(other, t) * (1 + (tagk_real)1e-6));
		}
		/* projecting again changes nothing */
		tagk_real pp[10];
		assert_int_equal(tagk_project(p, (tagk_real)1e-9, pp), TAGK_OK);
		assert_true(rel_err(10, pp, p) < TOL_LOOSE);
	}
	tagk_real t[10] = { NAN }, p[10] = { 0 };
	assert_int_equal(tagk_project(t, 0, p), TAGK_ENONFINITE);
	crazyflie(t);
	assert_int_equal(tagk_project(t, -1, p), TAGK_EINVAL);
	/* in place */
	t[TAGK_P_M] = -1;
	assert_int_equal(tagk_project(t, 0, t), TAGK_OK);
	assert_true(tagk_consistent(t, (tagk_real)1e-6) || t[TAGK_P_M] == 0);
}

/* Round trips between theta, the body form and the pseudo-inertia. */
static void
test_conversions_round_trip(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 97);
	for (int trial = 0; trial < 100; trial++) {
		tagk_real t[10], J[16], t2[10], c[3], Ic[9], t3[10];
		random_valid_body(&g, t);
		tagk_pseudo_inertia(t, J);
		tagk_theta_from_pseudo(J, t2);
		assert_true(rel_err(10, t2, t) < TOL_TIGHT);
		assert_true(tagk_theta_to_body(t, c, Ic));
		tagk_theta_from_body(t[0], c, Ic, t3);
		assert_true(rel_err(10, t3, t) < TOL_TIGHT * 10);
	}
	tagk_real z[10] = { 0 }, c[3], Ic[9];
	assert_false(tagk_theta_to_body(z, c, Ic));
	assert_string_equal(tagk_param_names[0], "m");
	assert_string_equal(tagk_param_names[5], "Ixy");
	assert_string_equal(tagk_param_names[9], "Izz");
}

/* tagk_consistent with a tolerance (its Cholesky shortcut) against the
 * eigenvalues the pseudo-inertia is built from: J = Q diag(l) Q^T with a
 * random orthonormal Q, l = (l0, u, v, 1), l0 from -1e-4 to 1e-4 on a log
 * scale; consistent exactly when l0 >= -tol (the largest |l| is 1), draws
 * within 1e-12 of the threshold (where J's rounding decides) left out. */
static void
test_consistent_tolerance_near_boundary(void **state)
{
	(void)state;
#ifdef TAGK_FLOAT
	skip(); /* a tolerance of 1e-9 is below float's rounding of J */
#else
	tagk_rng g;
	tagk_rng_seed(&g, 101);
	int yes = 0, no = 0;
	for (int trial = 0; trial < 4000; trial++) {
		tagk_real Q[16], l[4], J[16] = { 0 }, t[10];
		for (int i = 0; i < 4; i++) /* Gram-Schmidt on Gaussian columns */
			for (int r = 0; r < 4; r++)
				Q[r * 4 + i] = tagk_rng_gaussian(&g);
		for (int i = 0; i < 4; i++) {
			for (int j = 0; j < i; j++) {
				tagk_real d = 0;
				for (int r = 0; r < 4; r++)
					d += Q[r * 4 + i] * Q[r * 4 + j];
				for (int r = 0; r < 4; r++)
					Q[r * 4 + i] -= d * Q[r * 4 + j];
			}
			tagk_real nn = 0;
			for (int r = 0; r < 4; r++)
				nn += Q[r * 4 + i] * Q[r * 4 + i];
			for (int r = 0; r < 4; r++)
				Q[r * 4 + i] /= tagk_sqrt(nn);
		}
		l[0] = (tagk_rng_uniform(&g) < (tagk_real)0.5 ? -1 : 1) * pow(10, -4 - 10 * tagk_rng_uniform(&g));
		l[1] = (tagk_real)0.01 + tagk_rng_uniform(&g) * (tagk_real)0.9;
		l[2] = (tagk_real)0.01 + tagk_rng_uniform(&g) * (tagk_real)0.9;
		l[3] = 1;
		for (int a = 0; a < 4; a++)
			for (int b = 0; b < 4; b++)
				for (int i = 0; i < 4; i++)
					J[a * 4 + b] += Q[a * 4 + i] * l[i] * Q[b * 4 + i];
		for (int a = 0; a < 4; a++) /* exactly symmetric */
			for (int b = 0; b < a; b++)
				J[b * 4 + a] = J[a * 4 + b];
		tagk_real tol = (tagk_real)1e-9;
		if (!(J[15] > 0) || tagk_fabs(l[0] + tol) < (tagk_real)1e-12)
			continue;
		tagk_theta_from_pseudo(J, t);
		int want = l[0] >= -tol;
		assert_int_equal(tagk_consistent(t, tol), want);
		yes += want, no += !want;
	}
	assert_true(yes > 1000 && no > 1000);
#endif
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gate_hand_built),
		cmocka_unit_test(test_gate_com_every_direction),
		cmocka_unit_test(test_triangle_hand_built),
		cmocka_unit_test(test_triangle_equals_pseudo_inertia),
		cmocka_unit_test(test_projection),
		cmocka_unit_test(test_conversions_round_trip),
		cmocka_unit_test(test_consistent_tolerance_near_boundary),
	};
	return cmocka_run_group_tests_name("consistency", tests, NULL, NULL);
}
