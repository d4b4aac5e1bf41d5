/*
 * robotxml_oracle.c: formats/robotxml.c (URDF and MJCF read by tagk)
 * against MuJoCo (libmujoco-dev), which reads both: for each file, the
 * mass matrix (mj_fullM, less the joints' armature, which tagk does not
 * model) and the inverse dynamics M qdd + h (mj_rne) of the model tagk
 * builds, at random states, to 1e-10 relative. Joints are compared in
 * order: tagk numbers them depth first like MuJoCo's dofs, and a fixed
 * body MuJoCo keeps is merged by tagk without changing that order.
 *   robotxml_oracle FILE[:TOL]...   (TOL default 1e-10)
 * A looser TOL is for files where MuJoCo diagonalises a full inertia (every
 * URDF inertia, MJCF fullinertia): MuJoCo 2.2's mju_eig3 stops early, and
 * the Panda's link1 inertia it stores reads back with Izz 0.009117025 for
 * the file's 0.009117 (2.8e-6 relative; measured with mju_quat2Mat on
 * body_iquat and body_inertia), which puts M off by about 2e-8.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mujoco/mujoco.h>
#include "../formats/mbmodel.h"
#include "../lib/tagk.h"

enum { NV = TAGK_MB_MAX_DOF };

static double
gauss(void)
{
	double u = (rand() + 1.0) / ((double)RAND_MAX + 2), v = (rand() + 1.0) / ((double)RAND_MAX + 2);
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* One random state: relative differences of M and of M qdd + h. */
static void
compare(const mbmodel *tm, const mjModel *mm, mjData *md, double *eM, double *eT)
{
	const tagk_mb_model *m = &tm->m;
	int nv = tagk_mb_dof(m), nj = m->nb - 1, off = m->floating ? 6 : 0;
	double q[TAGK_MB_MAX_BODIES], nu[NV], nud[NV], R[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, p[3] = { 0, 0, 0 };
	double qacc[NV];
	for (int j = 0; j < nj; j++)
		q[j] = gauss();
	for (int j = 0; j < nv; j++) {
		nu[j] = gauss();
		nud[j] = gauss();
	}
	mj_resetData(mm, md);
	if (m->floating) {
		double qt[4] = { gauss(), gauss(), gauss(), gauss() };
		mju_normalize4(qt);
		mju_quat2Mat(R, qt);
		for (int j = 0; j < 3; j++)
			p[j] = gauss();
		memcpy(md->qpos, p, sizeof(p));
		memcpy(md->qpos + 3, qt, sizeof(qt));
		double vw[3], wv[3], acc[3];
		mju_mulMatVec(vw, R, nu + 3, 3, 3);
		mju_cross(wv, nu, nu + 3);
		for (int j = 0; j < 3; j++)
			wv[j] += nud[3 + j];
		mju_mulMatVec(acc, R, wv, 3, 3);
		for (int j = 0; j < 3; j++) {
			md->qvel[j] = vw[j];
			md->qvel[3 + j] = nu[j];
			qacc[j] = acc[j];
			qacc[3 + j] = nud[j];
		}
	} else {
		/* a fixed base's pose is the model's own */
		for (int k = 0; k < 9; k++)
			R[k] = m->rot[0][k];
		for (int k = 0; k < 3; k++)
			p[k] = m->pos[0][k];
	}
	for (int k = 0; k < nj; k++) {
		md->qpos[(m->floating ? 7 : 0) + k] = q[k];
		md->qvel[off + k] = nu[off + k];
		qacc[off + k] = nud[off + k];
	}
	mj_forward(mm, md);
	double Mmj[NV * NV], tmj[NV];
	mj_fullM(mm, Mmj, md->qM);
	for (int a = 0; a < nv; a++)
		Mmj[a * nv + a] -= mm->dof_armature[a];
	memcpy(md->qacc, qacc, sizeof(double) * (size_t)nv);
	mj_rne(mm, md, 1, tmj);
	tagk_mb_kin kin;
	double M[NV * NV], tau[NV];
	if (tagk_mb_kinematics(m, R, p, q, nu, nud, &kin) != TAGK_OK)
		exit(7);
	tagk_mb_mass_matrix(&kin, m, tm->theta, M);
	tagk_mb_inverse_dynamics(&kin, m, tm->theta, tau);
	double T[NV * NV] = { 0 }; /* qvel = T nu */
	if (m->floating)
		for (int a = 0; a < 3; a++) {
			T[(3 + a) * nv + a] = 1;
			for (int b = 0; b < 3; b++)
				T[a * nv + 3 + b] = R[a * 3 + b];
		}
	for (int k = 0; k < nj; k++)
		T[(off + k) * nv + off + k] = 1;
	double em = 0, sm = 0, et = 0, st = 0;
	for (int a = 0; a < nv; a++) {
		double ta = 0;
		for (int r = 0; r < nv; r++)
			ta += T[r * nv + a] * tmj[r];
		et += (ta - tau[a]) * (ta - tau[a]);
		st += tau[a] * tau[a];
		for (int b = 0; b < nv; b++) {
			double s = 0;
			for (int r = 0; r < nv; r++)
				for (int c = 0; c < nv; c++)
					s += T[r * nv + a] * Mmj[r * nv + c] * T[c * nv + b];
			em += (s - M[a * nv + b]) * (s - M[a * nv + b]);
			sm += M[a * nv + b] * M[a * nv + b];
		}
	}
	*eM = sqrt(em / sm);
	*eT = sqrt(et / st);
}

int
main(int argc, char **argv)
{
	int bad = 0;
	srand(3);
	for (int f = 1; f < argc; f++) {
		static mbmodel tm;
		char err[1000], *colon = strrchr(argv[f], ':');
		double tol = 1e-10;
		if (colon) {
			*colon = 0;
			tol = atof(colon + 1);
		}
		if (mbmodel_read(argv[f], &tm, err, sizeof(err)) != 0) {
			printf("%s: tagk: %s\n", argv[f], err);
			bad = 1;
			continue;
		}
		mjModel *mm = mj_loadXML(argv[f], NULL, err, sizeof(err));
		if (!mm) {
			printf("%s: mujoco: %s\n", argv[f], err);
			bad = 1;
			continue;
		}
		mjData *md = mj_makeData(mm);
		if (mm->nv != tagk_mb_dof(&tm.m)) {
			printf("%s: %d dofs in MuJoCo, %d in tagk\n", argv[f], mm->nv, tagk_mb_dof(&tm.m));
			bad = 1;
		} else {
			double wM = 0, wT = 0;
			for (int k = 0; k < 20; k++) {
				double eM, eT;
				compare(&tm, mm, md, &eM, &eT);
				wM = eM > wM ? eM : wM;
				wT = eT > wT ? eT : wT;
			}
			printf("%s: %d bodies, %d dofs; 20 states against MuJoCo %d: M %.3g, M qdd + h %.3g (tolerance %g)\n",
			    argv[f], tm.m.nb, mm->nv, mj_version(), wM, wT, tol);
			bad |= !(wM < tol && wT < tol);
		}
		mj_deleteData(md);
		mj_deleteModel(mm);
	}
	return bad;
}
