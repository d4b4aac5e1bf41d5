/*
 * arm_mujoco.c: a joint log of an arm, made by MuJoCo, as an independent
 * oracle for tagk-regress -m multibody (URDF/MJCF, derived accelerations,
 * friction). The arm follows a prescribed excitation (per joint a sum of
 * three sines about a centre, within the joint's range) and the logged
 * torque is MuJoCo's inverse dynamics of it (mj_inverse): the rigid bodies,
 * the joints' damping (viscous friction) and frictionloss (dry friction,
 * a soft constraint in MuJoCo) as the XML sets them; contacts and joint
 * limits are disabled. Written: time,
 * pos_1..N, vel_1..N, eff_1..N (foreign names, no accelerations), with
 * Gaussian noise of the given sd on positions, velocities and torques, and
 * true_* columns: the ten parameters of body PAYLOAD (if given) about its
 * parent's frame, as tagk-regress --held PARENT estimates them. With
 * ARM_MUJOCO_EXACT=1 in the environment, also acc_1..N (the prescribed
 * accelerations) and every number to 17 digits: torques to compare to 1e-9.
 *   arm_mujoco XML SECONDS RATE SEED NOISE_Q NOISE_QD NOISE_TAU [PAYLOAD]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mujoco/mujoco.h>

static unsigned long long state;

static double
uniform(void)
{
	state = state * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((state >> 11) + 0.5) / 9007199254740992.0;
}

static double
gauss(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* The payload's ten parameters in its parent's frame: m, m c, and the
 * inertia about the parent's origin (tagk's order: Ixx Ixy Iyy Ixz Iyz Izz). */
static void
payload_theta(const mjModel *m, int b, double th[10])
{
	double R[9], I[9] = { 0 }, T[9], Rt[9], Ic[9], c[3];
	mju_quat2Mat(R, m->body_iquat + 4 * b);
	for (int i = 0; i < 3; i++)
		I[4 * i] = m->body_inertia[3 * b + i];
	mju_mulMatMat(T, R, I, 3, 3, 3);
	mju_transpose(Rt, R, 3, 3);
	mju_mulMatMat(Ic, T, Rt, 3, 3, 3); /* about the com, body axes */
	double Rb[9], Ib[9], cb[3];
	mju_quat2Mat(Rb, m->body_quat + 4 * b); /* parent <- body */
	mju_mulMatMat(T, Rb, Ic, 3, 3, 3);
	mju_transpose(Rt, Rb, 3, 3);
	mju_mulMatMat(Ib, T, Rt, 3, 3, 3);
	mju_mulMatVec(cb, Rb, m->body_ipos + 3 * b, 3, 3);
	for (int i = 0; i < 3; i++)
		c[i] = m->body_pos[3 * b + i] + cb[i];
	double M = m->body_mass[b], cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
	double J[9];
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			J[3 * i + j] = Ib[3 * i + j] + M * ((i == j) * cc - c[i] * c[j]);
	double out[10] = { M, M * c[0], M * c[1], M * c[2], J[0], J[1], J[4], J[2], J[5], J[8] };
	memcpy(th, out, sizeof(out));
}

int
main(int argc, char **argv)
{
	if (argc < 8) {
		fprintf(stderr, "usage: arm_mujoco XML SECONDS RATE SEED NOISE_Q NOISE_QD NOISE_TAU [PAYLOAD]\n");
		return 2;
	}
	char err[1000];
	mjModel *m = mj_loadXML(argv[1], NULL, err, sizeof(err));
	if (!m) {
		fprintf(stderr, "arm_mujoco: %s\n", err);
		return 1;
	}
	double T = atof(argv[2]), rate = atof(argv[3]), nq = atof(argv[5]), nqd = atof(argv[6]), ntau = atof(argv[7]);
	state = strtoull(argv[4], NULL, 10) * 2654435761ULL + 1;
	int pb = argc > 8 ? mj_name2id(m, mjOBJ_BODY, argv[8]) : -1;
	if (argc > 8 && pb < 0) {
		fprintf(stderr, "arm_mujoco: no body %s\n", argv[8]);
		return 1;
	}
	/* contacts (self-collision of the links' geoms) and joint limits would
	 * add constraint forces to the torque that no joint log's model has */
	m->opt.disableflags |= mjDSBL_CONTACT | mjDSBL_LIMIT;
	const int n = m->nv;
	mjData *d = mj_makeData(m);
	/* per joint: centre, three amplitudes, frequencies and phases */
	double c[64], A[64][3], w[64][3], ph[64][3];
	for (int j = 0; j < n; j++) {
		double lo = m->jnt_limited[j] ? m->jnt_range[2 * j] : -2, hi = m->jnt_limited[j] ? m->jnt_range[2 * j + 1] : 2;
		c[j] = 0.5 * (lo + hi);
		double half = 0.25 * (hi - lo);
		for (int k = 0; k < 3; k++) {
			A[j][k] = half / 3 * (0.5 + uniform());
			w[j][k] = 2 * M_PI * (0.1 + 0.4 * uniform()) * (k + 1);
			ph[j][k] = 2 * M_PI * uniform();
		}
	}
	double th[10] = { 0 };
	if (pb >= 0)
		payload_theta(m, pb, th);
	static const char *const tn[10] = { "m", "mcx", "mcy", "mcz", "Ixx", "Ixy", "Iyy", "Ixz", "Iyz", "Izz" };
	const char *ex = getenv("ARM_MUJOCO_EXACT");
	const int exact = ex && strcmp(ex, "1") == 0;
	const char *fmt = exact ? ",%.17g" : ",%.9g";
	printf("time");
	for (int j = 0; j < n; j++)
		printf(",pos_%d", j + 1);
	for (int j = 0; j < n; j++)
		printf(",vel_%d", j + 1);
	for (int j = 0; j < n; j++)
		printf(",eff_%d", j + 1);
	for (int j = 0; exact && j < n; j++)
		printf(",acc_%d", j + 1);
	for (int k = 0; pb >= 0 && k < 10; k++)
		printf(",true_%s", tn[k]);
	printf("\n");
	long N = (long)floor(T * rate + 0.5);
	for (long i = 0; i <= N; i++) {
		double t = (double)i / rate;
		for (int j = 0; j < n; j++) {
			double q = c[j], qd = 0, qdd = 0;
			for (int k = 0; k < 3; k++) {
				double s = sin(w[j][k] * t + ph[j][k]), co = cos(w[j][k] * t + ph[j][k]);
				q += A[j][k] * s;
				qd += A[j][k] * w[j][k] * co;
				qdd -= A[j][k] * w[j][k] * w[j][k] * s;
			}
			d->qpos[j] = q, d->qvel[j] = qd, d->qacc[j] = qdd;
		}
		mj_inverse(m, d);
		printf(exact ? "%.17g" : "%.9g", t);
		for (int j = 0; j < n; j++)
			printf(fmt, d->qpos[j] + nq * gauss());
		for (int j = 0; j < n; j++)
			printf(fmt, d->qvel[j] + nqd * gauss());
		for (int j = 0; j < n; j++)
			printf(fmt, d->qfrc_inverse[j] + ntau * gauss());
		for (int j = 0; exact && j < n; j++)
			printf(fmt, d->qacc[j]);
		for (int k = 0; pb >= 0 && k < 10; k++)
			printf(",%.9g", th[k]);
		printf("\n");
	}
	mj_deleteData(d);
	mj_deleteModel(m);
	return ferror(stdout) ? 1 : 0;
}
