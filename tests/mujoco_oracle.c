/*
 * mujoco_oracle.c: lib/multibody.c against MuJoCo (libmujoco-dev 2.2.2) on
 * random trees written as MJCF: the mass matrix against mj_fullM and the
 * inverse dynamics M qdd + h against mj_rne, on random states, fixed and
 * floating bases, revolute (hinge) and prismatic (slide) joints. Run by
 * tests/mujoco_oracle_test.sh with a temporary directory for the XML files.
 *
 * MuJoCo's free joint differs from tagk's floating base: its velocity is
 * [v (world frame); omega (body frame)] where tagk's is [omega; v], both in
 * the body frame. With T the map nu -> qvel (v_world = R v_body),
 * M = T^T M_mj T and tau = T^T tau_mj, with qacc_mj = T nu' + T' nu, whose
 * linear part is R (v' + omega x v).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mujoco/mujoco.h>
#include "../lib/tagk.h"
#include "../bench/sim/tagk_sim.h"

enum { NB = TAGK_MB_MAX_BODIES, NV = TAGK_MB_MAX_DOF };

static void
rotation(tagk_rng *g, double R[9])
{
	double q[4], s = 0;
	for (int i = 0; i < 4; i++) {
		q[i] = tagk_rng_gaussian(g);
		s += q[i] * q[i];
	}
	s = sqrt(s);
	double w = q[0] / s, x = q[1] / s, y = q[2] / s, z = q[3] / s;
	double r[9] = { 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
		2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
		2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y) };
	memcpy(R, r, sizeof(r));
}

/* Each body's mass, centre of mass, principal moments and principal axes
 * (body frame), as drawn; theta is made from them. MuJoCo gets the
 * principal form: given fullinertia, its eigen-decomposition (2.2.2) is
 * accurate to about 1e-7 only, which would hide everything below. */
static double body_m[NB], body_c[NB][3], body_d[NB][3], body_R[NB][9];

static void
write_body(FILE *f, const tagk_mb_model *m, int i, int depth)
{
	double q[4], qi[4];
	mju_mat2Quat(q, m->rot[i]);
	mju_mat2Quat(qi, body_R[i]);
	const double *c = body_c[i];
	fprintf(f, "%*s<body name=\"b%d\" pos=\"%.17g %.17g %.17g\" quat=\"%.17g %.17g %.17g %.17g\">\n", depth, "",
	    i, m->pos[i][0], m->pos[i][1], m->pos[i][2], q[0], q[1], q[2], q[3]);
	if (i == 0 && m->floating)
		fprintf(f, "%*s<freejoint/>\n", depth + 1, "");
	else if (i > 0)
		fprintf(f, "%*s<joint type=\"%s\" axis=\"%.17g %.17g %.17g\"/>\n", depth + 1, "",
		    m->joint[i] == TAGK_JOINT_REVOLUTE ? "hinge" : "slide", m->axis[i][0], m->axis[i][1], m->axis[i][2]);
	fprintf(f, "%*s<inertial pos=\"%.17g %.17g %.17g\" mass=\"%.17g\" quat=\"%.17g %.17g %.17g %.17g\" "
	    "diaginertia=\"%.17g %.17g %.17g\"/>\n", depth + 1, "", c[0], c[1], c[2], body_m[i], qi[0], qi[1], qi[2],
	    qi[3], body_d[i][0], body_d[i][1], body_d[i][2]);
	for (int j = i + 1; j < m->nb; j++)
		if (m->parent[j] == i)
			write_body(f, m, j, depth + 1);
	fprintf(f, "%*s</body>\n", depth, "");
}

/* mj's dof order is the depth-first order of the bodies, tagk's the body
 * index: perm[k] = tagk's body of mj's k-th joint. */
static int
dfs(const tagk_mb_model *m, int i, int *perm, int k)
{
	if (i > 0)
		perm[k++] = i;
	for (int j = i + 1; j < m->nb; j++)
		if (m->parent[j] == i)
			k = dfs(m, j, perm, k);
	return k;
}

/* Tree k of the run: its size (2 to 8 bodies, then the largest trees),
 * floating base on odd k, random joints, axes, placements and gravity;
 * each body a box of random size and mass, off centre and turned, its
 * parameters in theta (and, as drawn, in body_m, body_c, body_d and
 * body_R for the MJCF). */
static void
random_tree(tagk_rng *g, int k, tagk_mb_model *m, double *theta)
{
	memset(m, 0, sizeof(*m));
	m->nb = k < 56 ? 2 + k % 7 : NB - 5 * (k % 2); /* and the largest trees */
	m->floating = k % 2;
	m->parent[0] = -1;
	rotation(g, m->rot[0]);
	for (int j = 0; j < 3; j++) {
		m->pos[0][j] = tagk_rng_gaussian(g);
		m->gravity[j] = tagk_rng_gaussian(g) * 5;
	}
	for (int i = 0; i < m->nb; i++) {
		if (i > 0) {
			m->parent[i] = (int)(tagk_rng_uniform(g) * i);
			m->joint[i] = tagk_rng_uniform(g) < 0.7 ? TAGK_JOINT_REVOLUTE : TAGK_JOINT_PRISMATIC;
			rotation(g, m->rot[i]);
			double u[3], s = 0;
			for (int j = 0; j < 3; j++) {
				m->pos[i][j] = 0.3 * tagk_rng_gaussian(g);
				u[j] = tagk_rng_gaussian(g);
				s += u[j] * u[j];
			}
			for (int j = 0; j < 3; j++)
				m->axis[i][j] = u[j] / sqrt(s);
		}
		/* a box of random size and mass, off centre and turned */
		double mass = 0.5 + 2 * tagk_rng_uniform(g), h[3], *c = body_c[i], *R = body_R[i], Ic[9];
		for (int j = 0; j < 3; j++) {
			h[j] = 0.05 + 0.3 * tagk_rng_uniform(g);
			c[j] = 0.4 * (tagk_rng_uniform(g) - 0.5);
		}
		double *d = body_d[i];
		d[0] = mass * (h[1] * h[1] + h[2] * h[2]) / 3;
		d[1] = mass * (h[0] * h[0] + h[2] * h[2]) / 3;
		d[2] = mass * (h[0] * h[0] + h[1] * h[1]) / 3;
		body_m[i] = mass;
		rotation(g, R);
		for (int a = 0; a < 3; a++)
			for (int b = 0; b < 3; b++)
				Ic[a * 3 + b] = R[a * 3] * d[0] * R[b * 3] + R[a * 3 + 1] * d[1] * R[b * 3 + 1]
				    + R[a * 3 + 2] * d[2] * R[b * 3 + 2];
		tagk_theta_from_body(mass, c, Ic, theta + 10 * i);
	}
}

/* The tree as MJCF at path, in the principal form write_body gives:
 * 0, or -1 if the file cannot be written. */
static int
write_mjcf(const char *path, const tagk_mb_model *m)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "<mujoco>\n <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
	    " <option gravity=\"%.17g %.17g %.17g\"/>\n <worldbody>\n", m->gravity[0], m->gravity[1], m->gravity[2]);
	write_body(f, m, 0, 2);
	fprintf(f, " </worldbody>\n</mujoco>\n");
	if (fclose(f) != 0)
		return -1;
	return 0;
}

/* The relative differences of tagk's M and tau from MuJoCo's Mmj and tmj
 * carried into tagk's coordinates (T^T Mmj T, T^T tmj), at base attitude R
 * (perm: tagk's body of mj's k-th joint). */
static void
differences(const tagk_mb_model *m, const double R[9], const int *perm, const double *Mmj, const double *tmj,
    const double *M, const double *tau, double *em_out, double *et_out)
{
	int nv = tagk_mb_dof(m), nj = m->nb - 1, off = m->floating ? 6 : 0;
	/* T (nv x nv) maps tagk velocities to mj's: qvel = T nu */
	double T[NV * NV] = { 0 };
	if (m->floating)
		for (int a = 0; a < 3; a++) {
			T[(3 + a) * nv + a] = 1;                 /* omega, body frame */
			for (int b = 0; b < 3; b++)
				T[a * nv + 3 + b] = R[a * 3 + b]; /* v_world = R v */
		}
	for (int kk = 0; kk < nj; kk++)
		T[(off + kk) * nv + off + perm[kk] - 1] = 1;
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
	*em_out = sqrt(em / sm);
	*et_out = sqrt(et / st);
}

int
main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	tagk_rng g;
	tagk_rng_seed(&g, 17);
	double worst_M = 0, worst_tau = 0;
	int cases = 0;
	char err[1000], path[4096];
	snprintf(path, sizeof(path), "%s/tree.xml", argv[1]);
	for (int k = 0; k < 60; k++) {
		tagk_mb_model m;
		double theta[10 * NB];
		random_tree(&g, k, &m, theta);
		if (tagk_mb_check(&m) != TAGK_OK)
			return 3;
		if (write_mjcf(path, &m) != 0)
			return 4;
		mjModel *mm = mj_loadXML(path, NULL, err, sizeof(err));
		if (!mm) {
			fprintf(stderr, "mujoco: %s\n", err);
			return 5;
		}
		mjData *md = mj_makeData(mm);
		int nv = tagk_mb_dof(&m), perm[NB], nj = m.nb - 1, off = m.floating ? 6 : 0;
		dfs(&m, 0, perm, 0);
		if (mm->nv != nv)
			return 6;
		/* a random state, in tagk's coordinates, and MuJoCo's */
		double q[NB], nu[NV], nud[NV], R[9], p[3];
		rotation(&g, R);
		for (int j = 0; j < 3; j++)
			p[j] = tagk_rng_gaussian(&g);
		for (int j = 0; j < nj; j++)
			q[j] = tagk_rng_gaussian(&g);
		for (int j = 0; j < nv; j++) {
			nu[j] = tagk_rng_gaussian(&g);
			nud[j] = tagk_rng_gaussian(&g);
		}
		double qacc[NV];
		if (m.floating) {
			/* base pose: body b0's frame is the free joint's */
			memcpy(md->qpos, p, sizeof(p));
			mju_mat2Quat(md->qpos + 3, R);
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
		}
		for (int kk = 0; kk < nj; kk++) {
			int b = perm[kk];
			md->qpos[(m.floating ? 7 : 0) + kk] = q[b - 1];
			md->qvel[off + kk] = nu[off + b - 1];
			qacc[off + kk] = nud[off + b - 1];
		}
		mj_forward(mm, md);
		double Mmj[NV * NV], tmj[NV];
		mj_fullM(mm, Mmj, md->qM);
		memcpy(md->qacc, qacc, sizeof(double) * (size_t)nv);
		mj_rne(mm, md, 1, tmj);
		/* ours */
		tagk_mb_kin kin;
		if (tagk_mb_kinematics(&m, R, p, q, nu, nud, &kin) != TAGK_OK)
			return 7;
		double M[NV * NV], tau[NV];
		tagk_mb_mass_matrix(&kin, &m, theta, M);
		tagk_mb_inverse_dynamics(&kin, &m, theta, tau);
		double em, et;
		differences(&m, R, perm, Mmj, tmj, M, tau, &em, &et);
		worst_M = em > worst_M ? em : worst_M;
		worst_tau = et > worst_tau ? et : worst_tau;
		cases++;
		mj_deleteData(md);
		mj_deleteModel(mm);
	}
	printf("%d random trees against MuJoCo %d: worst relative difference of M %.3g, of M qdd + h %.3g\n", cases,
	    mj_version(), worst_M, worst_tau);
	return worst_M < 1e-10 && worst_tau < 1e-10 ? 0 : 1;
}
