/*
 * wholearm_oracle.c: a joint log for tagk-regress -m multibody --unknown all,
 * made by MuJoCo (libmujoco-dev) from a robot description: N random states
 * (q uniform in the joint's range, or [-pi, pi]; qd, qdd normal), each a
 * row with the joint torque MuJoCo's inverse dynamics gives (mj_inverse:
 * the rigid bodies and the joints' damping; armature, frictionloss,
 * contacts and limits off, since tagk's model has none of them). Columns:
 * t, q1..N, qd1..N, qdd1..N, tau1..N, then true_<param>_<body> for every
 * moving body of the model as tagk reads the same file (formats/mbmodel.h;
 * its reading is checked against MuJoCo by robotxml_oracle) and true_fv_J,
 * the joint's damping. So sum over the columns of Y_X true_X is the
 * regressor's torque and must equal b = tau, MuJoCo's.
 * NOISE (optional, default 0): Gaussian noise of that sd (N m) on the torques.
 * With @TRAJ for N, the states are TRAJ's rows instead (a CSV of t, q1..N,
 * qd1..N, qdd1..N in that order, # lines skipped: tagk-bench excite's).
 *   wholearm_oracle FILE N|@TRAJ SEED [NOISE]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mujoco/mujoco.h>
#include "../formats/mbmodel.h"
#include "../lib/tagk.h"

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

/* The next state of a trajectory file into d's qpos, qvel, qacc and *t;
 * -1 at its end. */
static int
read_state(FILE *f, int n, double *t, mjData *d)
{
	static char line[1 << 16];
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || line[0] == 't')
			continue;
		char *p = line;
		*t = strtod(p, &p);
		for (int k = 0; k < 3 * n; k++) {
			double v = strtod(p + 1, &p);
			(k < n ? d->qpos : k < 2 * n ? d->qvel : d->qacc)[k % n] = v;
		}
		return 0;
	}
	return -1;
}

int
main(int argc, char **argv)
{
	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: wholearm_oracle FILE N|@TRAJ SEED [NOISE]\n");
		return 2;
	}
	static mbmodel tm;
	char err[1000];
	if (mbmodel_read(argv[1], &tm, err, sizeof(err)) != 0) {
		fprintf(stderr, "wholearm_oracle: tagk: %s\n", err);
		return 1;
	}
	mjModel *m = mj_loadXML(argv[1], NULL, err, sizeof(err));
	if (!m) {
		fprintf(stderr, "wholearm_oracle: mujoco: %s\n", err);
		return 1;
	}
	const int n = m->nv;
	if (tm.m.floating || n != tm.m.nb - 1 || m->nq != n) {
		fprintf(stderr, "wholearm_oracle: %s: a fixed base and hinge or slide joints only\n", argv[1]);
		return 1;
	}
	m->opt.disableflags |= mjDSBL_CONTACT | mjDSBL_LIMIT | mjDSBL_FRICTIONLOSS;
	for (int j = 0; j < n; j++)
		m->dof_armature[j] = 0, m->jnt_stiffness[j] = 0;
	state = strtoull(argv[3], NULL, 10) * 2654435761ULL + 1;
	FILE *traj = argv[2][0] == '@' ? fopen(argv[2] + 1, "r") : NULL;
	if (argv[2][0] == '@' && !traj) {
		fprintf(stderr, "wholearm_oracle: cannot open %s\n", argv[2] + 1);
		return 1;
	}
	long N = traj ? 1000000000L : atol(argv[2]);
	double noise = argc == 5 ? atof(argv[4]) : 0;
	mjData *d = mj_makeData(m);
	static const char *const sig[] = { "q", "qd", "qdd", "tau" };
	printf("t");
	for (int s = 0; s < 4; s++)
		for (int j = 0; j < n; j++)
			printf(",%s%d", sig[s], j + 1);
	for (int i = 1; i < tm.m.nb; i++)
		for (int k = 0; k < TAGK_NPARAM; k++)
			printf(",true_%s_%s", tagk_param_names[k], tm.name[i]);
	for (int j = 0; j < n; j++)
		printf(",true_fv_%d", j + 1);
	printf("\n");
	for (long r = 0; r < N; r++) {
		double tt = 0.001 * (double)r;
		if (traj && read_state(traj, n, &tt, d) != 0)
			break;
		for (int j = 0; !traj && j < n; j++) {
			int lim = m->jnt_limited[j];
			double lo = lim ? m->jnt_range[2 * j] : -M_PI, hi = lim ? m->jnt_range[2 * j + 1] : M_PI;
			d->qpos[j] = lo + (hi - lo) * uniform();
			d->qvel[j] = 2 * gauss();
			d->qacc[j] = 5 * gauss();
		}
		mj_inverse(m, d);
		printf("%.17g", tt); /* 1 kHz, as a log, or the trajectory's */
		for (int j = 0; j < n; j++)
			printf(",%.17g", d->qpos[j]);
		for (int j = 0; j < n; j++)
			printf(",%.17g", d->qvel[j]);
		for (int j = 0; j < n; j++)
			printf(",%.17g", d->qacc[j]);
		for (int j = 0; j < n; j++)
			printf(",%.17g", d->qfrc_inverse[j] + (noise > 0 ? noise * gauss() : 0));
		for (int i = TAGK_NPARAM; i < TAGK_NPARAM * tm.m.nb; i++)
			printf(",%.17g", (double)tm.theta[i]);
		for (int j = 0; j < n; j++)
			printf(",%.17g", m->dof_damping[j]);
		printf("\n");
	}
	mj_deleteData(d);
	mj_deleteModel(m);
	return ferror(stdout) ? 1 : 0;
}
