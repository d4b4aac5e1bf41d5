/*
 * regress_multibody.c: tagk-regress -m multibody: a joint log of a robot
 * (a kinematic tree of a multi-body model file) to rows for one body's ten
 * parameters, or for those of an object one body holds, by force
 * (inverse-dynamics) rows or momentum rows (paper 003).
 *
 * Columns read (N joints, numbered in the model's body order):
 *   t; q1..qN; qd1..qdN; for force rows also qdd1..qdN and tau1..tauN;
 *   a free base also base_qw base_qx base_qy base_qz (world <- base),
 *   base_px base_py base_pz, base_wx.. base_vz (its body velocity [w; v], in
 *   its own frame) and, for force rows, base_dwx .. base_dvz (their time
 *   derivatives) and optionally base_nx base_ny base_nz base_fx base_fy
 *   base_fz (an external wrench on the base, in its frame; 0 when absent:
 *   a free-floating base without thrusters).
 * Force rows: one per generalized force (6 for a free base, then one per
 * joint), A = the unknown's columns of the regressor, b = tau - Y
 * theta_known. Energy rows (paper 002, eq. 9): one per sample, the force
 * rows weighted by the velocities, qd^T A theta = qd^T b: the power balance,
 * invariant under changes of coordinates. Momentum rows: six per sample
 * from the second on, the difference of the world-frame momentum from the
 * first sample's, which is zero for a system no external force acts on.
 * With --metric, force rows also carry row k of the metric of paper 002:
 * M0_1..M0_nv the mass matrix with the known parameters (the unknown's
 * block as the rows' b has it), and M_<param>_1..M_<param>_nv its
 * derivative in each unknown parameter, so that M(theta) = M0 + sum_j
 * theta_j M_j for the sample (tagk-filter --whiten reads them).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdio.h"
#include "regress_multibody.h"
#include "../formats/mbmodel.h"

static int
need(tbl_reader *r, const char *name, const char *why)
{
	int i = tbl_find(r, name);
	if (i < 0)
		cli_die(EXIT_DATA, "%s: missing column '%s' (%s)", tbl_name(r), name, why);
	tbl_want(r, i);
	return i;
}

/* The model and the log must describe the same robot: a joint column past
 * the model's last joint (q7 against 6 joints) means the log has a joint
 * the model lacks, whose motion and torque would be silently ignored. */
static void
check_joint_count(tbl_reader *r, int nj, const char *robot)
{
	static const char *const kinds[] = { "q", "qd", "qdd", "tau" };
	int most = 0;
	const char *col = NULL;
	for (int c = 0; c < tbl_ncols(r); c++) {
		const char *name = tbl_col(r, c);
		for (int k = 0; k < 4; k++) {
			size_t l = strlen(kinds[k]);
			const char *d = name + l;
			if (strncmp(name, kinds[k], l) != 0 || *d < '1' || *d > '9' || d[strspn(d, "0123456789")])
				continue;
			int j = atoi(d);
			if (j > most)
				most = j, col = name;
		}
	}
	if (most > nj)
		cli_die(EXIT_DATA, "%s has column %s but %s has %d joint%s: the model and the log are not the same robot "
		    "(a body or joint missing from the model?)", tbl_name(r), col, robot, nj, nj == 1 ? "" : "s");
}

int
regress_multibody(const regress_mb_opts *o, const char *input)
{
	mbmodel mm;
	char err[512];
	if (mbmodel_read(o->robot, &mm, err, sizeof(err)) != 0)
		cli_die(EXIT_DATA, "%s", err);
	const tagk_mb_model *m = &mm.m;
	int u = mbmodel_find(&mm, o->body);
	if (u < 0)
		cli_die(EXIT_USAGE, "--%s: no body '%s' in %s", o->held ? "held" : "unknown", o->body, o->robot);
	if (o->rows == MB_ROWS_MOMENTUM && m->gravity[0] * m->gravity[0] + m->gravity[1] * m->gravity[1] + m->gravity[2] * m->gravity[2] > 0)
		cli_die(EXIT_USAGE, "--rows momentum: %s has gravity, so the momentum is not conserved (momentum rows "
		    "are for a free system in orbit: 'gravity 0 0 0' and a free base)", o->robot);
	if (o->rows == MB_ROWS_MOMENTUM && !m->floating)
		cli_die(EXIT_USAGE, "--rows momentum: %s's base is fixed: the ground pushes on it, so the momentum is "
		    "not conserved (momentum rows need 'joint free' on the base)", o->robot);
	if (tagk_mb_dof(m) == 0)
		cli_die(EXIT_USAGE, "%s: a fixed base and no joints: nothing moves, so there are no rows", o->robot);
	if (u == 0 && !m->floating)
		cli_die(EXIT_USAGE, "--%s %s: the fixed base's parameters never enter the joint forces (the ground "
		    "holds it): choose a moving body", o->held ? "held" : "unknown", o->body);
	tagk_real known[TAGK_NPARAM * TAGK_MB_MAX_BODIES];
	memcpy(known, mm.theta, sizeof(known));
	if (!o->held)
		memset(known + TAGK_NPARAM * u, 0, TAGK_NPARAM * sizeof(*known));

	tbl_reader *r = cmdio_open_input(input, &o->in);
	const int nj = m->nb - 1, nv = tagk_mb_dof(m), off = m->floating ? 6 : 0, force = o->rows != MB_ROWS_MOMENTUM;
	check_joint_count(r, nj, o->robot);
	int it = need(r, "t", "time"), iq[TAGK_MB_MAX_BODIES], iqd[TAGK_MB_MAX_BODIES], iqdd[TAGK_MB_MAX_BODIES];
	int itau[TAGK_MB_MAX_BODIES], ibase[19], iwr[6];
	char name[32];
	for (int j = 0; j < nj; j++) {
		snprintf(name, sizeof(name), "q%d", j + 1);
		iq[j] = need(r, name, "joint positions q1..qN, rad or m");
		snprintf(name, sizeof(name), "qd%d", j + 1);
		iqd[j] = need(r, name, "joint velocities qd1..qdN");
		if (force) {
			snprintf(name, sizeof(name), "qdd%d", j + 1);
			iqdd[j] = need(r, name, "joint accelerations, for force rows");
			snprintf(name, sizeof(name), "tau%d", j + 1);
			itau[j] = need(r, name, "joint torques or forces, for force rows");
		}
	}
	static const char *const bp[] = { "qw", "qx", "qy", "qz", "px", "py", "pz", "wx", "wy", "wz", "vx", "vy",
		"vz", "dwx", "dwy", "dwz", "dvx", "dvy", "dvz" };
	static const char *const wp[] = { "nx", "ny", "nz", "fx", "fy", "fz" };
	int nwr = 0;
	if (m->floating) {
		for (int j = 0; j < (force ? 19 : 13); j++) {
			snprintf(name, sizeof(name), "base_%s", bp[j]);
			ibase[j] = need(r, name, "the free base's pose and body velocity");
		}
		for (int j = 0; j < 6 && force; j++) {
			snprintf(name, sizeof(name), "base_%s", wp[j]);
			iwr[j] = tbl_find(r, name);
			if (iwr[j] >= 0) {
				tbl_want(r, iwr[j]);
				nwr++;
			}
		}
		if (nwr != 0 && nwr != 6)
			cli_die(EXIT_DATA, "%s: an external wrench on the base needs all six columns base_nx .. base_fz",
			    tbl_name(r));
	}
	int ntrue = 0, *tidx = malloc((size_t)tbl_ncols(r) * sizeof(int));
	if (!tidx)
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 0; i < tbl_ncols(r); i++)
		if (strncmp(tbl_col(r, i), "true_", 5) == 0) {
			tidx[ntrue++] = i;
			tbl_want(r, i);
		}
	if (o->metric && o->rows != MB_ROWS_FORCE)
		cli_die(EXIT_USAGE, "--metric applies to force rows (the metric is the mass matrix, per sample)");
	const int nmet = o->metric ? (1 + TAGK_NPARAM) * nv : 0, ncol = 3 + TAGK_NPARAM + nmet + ntrue;
	const char **names = malloc((size_t)ncol * sizeof(*names));
	char (*nbuf)[32] = malloc((size_t)(TAGK_NPARAM + nmet) * sizeof(*nbuf));
	double *row = malloc((size_t)tbl_ncols(r) * sizeof(double)), *orow = malloc((size_t)ncol * sizeof(double));
	static tagk_real Y[TAGK_MB_MAX_DOF * TAGK_NPARAM * TAGK_MB_MAX_BODIES];
	static tagk_real Yh0[6 * TAGK_NPARAM * TAGK_MB_MAX_BODIES];
	if (!names || !nbuf || !row || !orow)
		cli_die(EXIT_DATA, "out of memory");
	names[0] = "t";
	names[1] = "row";
	for (int j = 0; j < TAGK_NPARAM; j++) {
		snprintf(nbuf[j], sizeof(nbuf[j]), "Y_%s", tagk_param_names[j]);
		names[2 + j] = nbuf[j];
	}
	names[2 + TAGK_NPARAM] = "b";
	for (int k = 0; k < nmet; k++) {
		int j = k / nv - 1, c = k % nv + 1;
		if (j < 0)
			snprintf(nbuf[TAGK_NPARAM + k], sizeof(nbuf[0]), "M0_%d", c);
		else
			snprintf(nbuf[TAGK_NPARAM + k], sizeof(nbuf[0]), "M_%s_%d", tagk_param_names[j], c);
		names[3 + TAGK_NPARAM + k] = nbuf[TAGK_NPARAM + k];
	}
	for (int j = 0; j < ntrue; j++)
		names[3 + TAGK_NPARAM + nmet + j] = tbl_col(r, tidx[j]);
	static tagk_real Mmet[(1 + TAGK_NPARAM) * TAGK_MB_MAX_DOF * TAGK_MB_MAX_DOF];
	sink *out = cmdio_open_output(o->outname, TBL_AUTO);
	cmdio_header(out, ncol, names);

	double tprev = -INFINITY;
	long nin = 0, nout = 0, skipped = 0;
	int rc;
	while ((rc = tbl_next(r, row)) == 1) {
		double t = row[it] * o->tscale;
		if (!(t > tprev)) {
			if (o->in.skip_bad) {
				skipped++;
				continue;
			}
			cli_die(EXIT_DATA, "%s: time does not increase (--skip-bad skips such rows)", tbl_where(r));
		}
		tprev = t;
		tagk_real q[TAGK_MB_MAX_BODIES], qd[TAGK_MB_MAX_DOF], qdd[TAGK_MB_MAX_DOF], tau[TAGK_MB_MAX_DOF];
		tagk_real R[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, p[3] = { 0, 0, 0 };
		for (int j = 0; j < nj; j++) {
			q[j] = (tagk_real)row[iq[j]];
			qd[off + j] = (tagk_real)row[iqd[j]];
			qdd[off + j] = force ? (tagk_real)row[iqdd[j]] : 0;
			tau[off + j] = force ? (tagk_real)row[itau[j]] : 0;
		}
		if (m->floating) {
			tagk_real qb[4];
			double n2 = 0;
			for (int j = 0; j < 4; j++) {
				qb[j] = (tagk_real)row[ibase[j]];
				n2 += row[ibase[j]] * row[ibase[j]];
			}
			if (!(fabs(n2 - 1) <= 1e-3))
				cli_die(EXIT_DATA, "%s: the base quaternion is not of unit length (within 1e-3)", tbl_where(r));
			tagk_qnormalize(qb);
			tagk_qmatrix(qb, R);
			for (int j = 0; j < 3; j++)
				p[j] = (tagk_real)row[ibase[4 + j]];
			for (int j = 0; j < 6; j++) {
				qd[j] = (tagk_real)row[ibase[7 + j]];
				qdd[j] = force ? (tagk_real)row[ibase[13 + j]] : 0;
				tau[j] = force && nwr ? (tagk_real)row[iwr[j]] : 0;
			}
		}
		tagk_mb_kin kin;
		if (tagk_mb_kinematics(m, R, p, q, qd, force ? qdd : NULL, &kin) != TAGK_OK)
			cli_die(EXIT_DATA, "%s: a joint signal is NaN or infinite", tbl_where(r));
		tagk_real A[TAGK_MB_MAX_DOF * TAGK_NPARAM], b[TAGK_MB_MAX_DOF];
		int rows = nv;
		if (force) {
			tagk_mb_force_rows(&kin, m, tau, known, u, Y, A, b);
			if (o->rows == MB_ROWS_ENERGY) {
				/* qd^T (A theta - b): one row */
				tagk_real e[TAGK_NPARAM] = { 0 }, eb = 0;
				for (int a = 0; a < nv; a++) {
					for (int j = 0; j < TAGK_NPARAM; j++)
						e[j] += qd[a] * A[a * TAGK_NPARAM + j];
					eb += qd[a] * b[a];
				}
				memcpy(A, e, sizeof(e));
				b[0] = eb;
				rows = 1;
			}
		} else {
			tagk_mb_momentum_rows(&kin, nin ? Yh0 : NULL, known, u, Y, A, b);
			rows = 6;
			if (nin == 0) {
				memcpy(Yh0, Y, sizeof(*Y) * 6 * (size_t)(TAGK_NPARAM * m->nb));
				nin++;
				continue; /* the reference sample */
			}
		}
		nin++;
		if (nmet) {
			tagk_mb_mass_matrix(&kin, m, known, Mmet);
			for (int j = 0; j < TAGK_NPARAM; j++) {
				tagk_real e[TAGK_NPARAM * TAGK_MB_MAX_BODIES] = { 0 };
				e[TAGK_NPARAM * u + j] = 1;
				tagk_mb_mass_matrix(&kin, m, e, Mmet + (size_t)(1 + j) * nv * nv);
			}
		}
		for (int k = 0; k < rows; k++) {
			orow[0] = t;
			orow[1] = k;
			for (int j = 0; j < TAGK_NPARAM; j++)
				orow[2 + j] = (double)A[k * TAGK_NPARAM + j];
			orow[2 + TAGK_NPARAM] = (double)b[k];
			for (int x = 0; x < nmet; x++)
				orow[3 + TAGK_NPARAM + x] = (double)Mmet[(size_t)(x / nv) * nv * nv + (size_t)k * nv + x % nv];
			for (int j = 0; j < ntrue; j++)
				orow[3 + TAGK_NPARAM + nmet + j] = row[tidx[j]];
			cmdio_row(out, orow);
		}
		nout++;
	}
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	if (nin == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(r));
	if (nout == 0)
		cli_die(EXIT_DATA, "%s: one sample: momentum rows are differences from the first sample", tbl_name(r));
	cmdio_commit(out);
	if (tbl_skipped(r) + skipped)
		cli_warn("skipped %ld bad row%s of %s", tbl_skipped(r) + skipped,
		    tbl_skipped(r) + skipped == 1 ? "" : "s", tbl_name(r));
	tbl_close(r);
	free(tidx);
	free(names);
	free(nbuf);
	free(row);
	free(orow);
	return 0;
}
