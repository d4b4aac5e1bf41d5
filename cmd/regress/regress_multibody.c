/*
 * regress_multibody.c: tagk-regress -m multibody: a joint log of a robot
 * (a kinematic tree of a multi-body model file) to rows for one body's ten
 * parameters, or for those of an object one body holds, by force
 * (inverse-dynamics) rows or momentum rows (paper 003); or, with --unknown
 * all or a list of bodies, rows for all of theirs at once and their base
 * parameters (wholearm.h).
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
 *
 * --map names a log's own columns for t, q, qd, qdd and tau (colspec.h).
 * A log without qdd (or without qd) gets them by a Savitzky-Golay filter of
 * qd (or q) (sgderive.h); --sg-smooth passes the measured q, qd and tau
 * through the same filter, so that every signal of a row has the same lag
 * (none) and the same bandwidth.
 *
 * Joint friction: --friction FILE subtracts each joint's friction torque
 * (formats/friction.h) from tau before the rows are formed; --fit-friction
 * fits that file instead of writing rows, on a log of the robot as its
 * model describes it (no payload), from tau - ID(model) joint by joint.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdio.h"
#include "colspec.h"
#include "armfit.h"
#include "friction_fit.h"
#include "friction_fwl.h"
#include "sgderive.h"
#include "regress_multibody.h"
#include "unitguard.h"
#include "wholearm.h"
#include "consistency_guard.h"
#include "../formats/friction.h"
#include "../formats/mbmodel.h"

static const char *const sig_names[MB_NSIG] = { "t", "q", "qd", "qdd", "tau" };

void
regress_mb_map(const char *arg, const char *map[MB_NSIG])
{
	const char *eq = strchr(arg, '=');
	for (int s = 0; eq && eq[1] && s < MB_NSIG; s++)
		if (strlen(sig_names[s]) == (size_t)(eq - arg) && strncmp(sig_names[s], arg, (size_t)(eq - arg)) == 0) {
			map[s] = eq + 1;
			return;
		}
	cli_die(EXIT_USAGE, "--map: '%s' is not SIGNAL=COLS with SIGNAL one of t, q, qd, qdd, tau for -m multibody", arg);
}

static int
need(tbl_reader *r, const char *name, const char *why)
{
	int i = tbl_find(r, name);
	if (i < 0)
		cli_die(EXIT_DATA, "%s: missing column '%s' (%s)%s", tbl_name(r), name, why, cmdio_unread_hint(r, name));
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
			long j = strtol(d, NULL, 10); /* saturates, where atoi's overflow is undefined */
			if (j > most)
				most = j > INT_MAX ? INT_MAX : (int)j, col = name;
		}
	}
	if (most > nj)
		cli_die(EXIT_DATA, "%s has column %s but %s has %d joint%s: the model and the log are not the same robot "
		    "(a body or joint missing from the model?)", tbl_name(r), col, robot, nj, nj == 1 ? "" : "s");
}

/* Signal s's nj joint columns into idx: from --map, else s1 .. sN. Returns
 * 1, or 0 when the log has none of them (the caller derives or refuses);
 * exits when the counts of model and log differ. */
static int
joint_cols(tbl_reader *r, const regress_mb_opts *o, int s, int nj, int *idx)
{
	const char *sig = sig_names[s];
	char names[TAGK_MB_MAX_BODIES + 1][COLSPEC_NAME];
	int n;
	if (o->map[s]) {
		char opt[16];
		snprintf(opt, sizeof(opt), "--map %s", sig);
		n = colspec_expand(r, opt, o->map[s], names, TAGK_MB_MAX_BODIES + 1);
		if (n != nj)
			cli_die(EXIT_DATA, "--map %s=%s names %d column%s but %s has %d joint%s: the model and the log are "
			    "not the same robot", sig, o->map[s], n, n == 1 ? "" : "s", o->robot, nj, nj == 1 ? "" : "s");
		for (int j = 0; j < nj; j++) {
			if ((idx[j] = tbl_find(r, names[j])) < 0)
				cli_die(EXIT_DATA, "%s: --map %s: no column '%s'%s", tbl_name(r), sig, names[j],
				    cmdio_unread_hint(r, names[j]));
			for (int i = 0; i < j; i++)
				if (idx[i] == idx[j])
					cli_die(EXIT_USAGE, "--map %s: column '%s' is named for joints %d and %d", sig, names[j],
					    i + 1, j + 1);
		}
	} else {
		for (n = 0; n < nj; n++) {
			snprintf(names[n], COLSPEC_NAME, "%s%d", sig, n + 1);
			if ((idx[n] = tbl_find(r, names[n])) < 0)
				break;
		}
		if (n == 0)
			return 0;
		if (n < nj)
			cli_die(EXIT_DATA, "%s has %s1 .. %s%d but %s has %d joints: the model and the log are not the "
			    "same robot (or map the columns with --map %s=COLS)", tbl_name(r), sig, sig, n, o->robot, nj, sig);
	}
	for (int j = 0; j < nj; j++)
		tbl_want(r, idx[j]);
	return 1;
}

/* Everything one sample needs, set up once. */
typedef struct {
	const regress_mb_opts *o;
	const tagk_mb_model *m;
	int u, nj, nv, off, force, nwr, ntrue, nmet;
	int iq[TAGK_MB_MAX_BODIES], iqd[TAGK_MB_MAX_BODIES], iqdd[TAGK_MB_MAX_BODIES], itau[TAGK_MB_MAX_BODIES];
	int ibase[19], iwr[6], *tidx;
	double qscale[TAGK_MB_MAX_BODIES]; /* to rad or m */
	tagk_real known[TAGK_NPARAM * TAGK_MB_MAX_BODIES];
	double *orow;
	sink *out;
	long nin, nout;
	tbl_reader *r;
	char what[160]; /* what the filter derives, for the note */
	friction fr;    /* --friction */
	int have_fr;
	friction_fit *fit; /* --fit-friction, or NULL */
	friction_fwl *fwl; /* --friction-terms, or NULL */
	const tagk_real *theta; /* every body's parameters, the model's */
	arm_ident *arm;    /* --identify, --predict, or NULL */
	wholearm *wa;      /* --unknown all or a list: whole-arm rows, or NULL */
	const mbmodel *mm;
	double *wA, *wout; /* its standard rows (nv x n) and output rows */
	int *wtrue;        /* --base: the log's true_<standard> column of each, or NULL */
	armfit *af;             /* the model-fit check of force rows, or NULL */
	double tau2[TAGK_MB_MAX_BODIES]; /* --fit-friction: each joint's sum of squared efforts */
	double wss[2];     /* whole arm: the description's squared residual, efforts as read and negated */
} mb_run;

static tagk_real Y[TAGK_MB_MAX_DOF * TAGK_NPARAM * TAGK_MB_MAX_BODIES];
static tagk_real Yh0[6 * TAGK_NPARAM * TAGK_MB_MAX_BODIES];
static tagk_real Mmet[(1 + TAGK_NPARAM) * TAGK_MB_MAX_DOF * TAGK_MB_MAX_DOF];

/* The free base's columns. */
static void
base_cols(mb_run *s)
{
	static const char *const bp[] = { "qw", "qx", "qy", "qz", "px", "py", "pz", "wx", "wy", "wz", "vx", "vy",
		"vz", "dwx", "dwy", "dwz", "dvx", "dvy", "dvz" };
	static const char *const wp[] = { "nx", "ny", "nz", "fx", "fy", "fz" };
	char name[32];
	for (int j = 0; j < (s->force ? 19 : 13); j++) {
		snprintf(name, sizeof(name), "base_%s", bp[j]);
		s->ibase[j] = need(s->r, name, "the free base's pose and body velocity");
	}
	for (int j = 0; j < 6 && s->force; j++) {
		snprintf(name, sizeof(name), "base_%s", wp[j]);
		s->iwr[j] = tbl_find(s->r, name);
		if (s->iwr[j] >= 0) {
			tbl_want(s->r, s->iwr[j]);
			s->nwr++;
		}
	}
	if (s->nwr != 0 && s->nwr != 6)
		cli_die(EXIT_DATA, "%s: an external wrench on the base needs all six columns base_nx .. base_fz",
		    tbl_name(s->r));
}

/* The joint columns, with the derived ones in slots past the log's columns
 * (ops for the filter); returns the number of ops. */
static int
joint_signals(mb_run *s, sg_op *ops, char *what, size_t whatlen)
{
	const regress_mb_opts *o = s->o;
	tbl_reader *r = s->r;
	const int nj = s->nj, nc = tbl_ncols(r);
	int nops = 0;
	if (!joint_cols(r, o, MB_SIG_Q, nj, s->iq))
		cli_die(EXIT_DATA, "%s: no joint positions q1 .. q%d (map yours with --map q=COLS)", tbl_name(r), nj);
	int have_qd = joint_cols(r, o, MB_SIG_QD, nj, s->iqd);
	int have_qdd = s->force ? joint_cols(r, o, MB_SIG_QDD, nj, s->iqdd) : 1;
	if (s->force && !joint_cols(r, o, MB_SIG_TAU, nj, s->itau))
		cli_die(EXIT_DATA, "%s: missing column 'tau1' (joint torques or forces, for force rows; map yours with "
		    "--map tau=COLS)", tbl_name(r));
	/* one column read as two signals is a slip in the map */
	const int *sets[4] = { s->iq, have_qd ? s->iqd : NULL, s->force && have_qdd ? s->iqdd : NULL,
		s->force ? s->itau : NULL };
	for (int a = 0; a < 4; a++)
		for (int b = a + 1; b < 4; b++)
			for (int i = 0; sets[a] && sets[b] && i < nj; i++)
				for (int j = 0; j < nj; j++)
					if (sets[a][i] == sets[b][j])
						cli_die(EXIT_USAGE, "column '%s' is read as both %s%d and %s%d", tbl_col(r, sets[a][i]),
						    sig_names[1 + a], i + 1, sig_names[1 + b], j + 1);
	what[0] = 0;
	for (int j = 0; j < nj; j++) {
		if (!have_qd) {
			ops[nops++] = (sg_op){ s->iq[j], 1, nc + j };
			s->iqd[j] = nc + j;
		}
		if (!have_qdd) {
			ops[nops++] = have_qd ? (sg_op){ s->iqd[j], 1, nc + nj + j } : (sg_op){ s->iq[j], 2, nc + nj + j };
			s->iqdd[j] = nc + nj + j;
		}
	}
	if (!have_qd || !have_qdd)
		snprintf(what, whatlen, "%s from %s", !have_qd && !have_qdd ? "qd and qdd" : !have_qd ? "qd" : "qdd",
		    have_qd ? "qd" : "q");
	if (o->sg_smooth) {
		for (int j = 0; j < nj; j++) {
			ops[nops++] = (sg_op){ s->iq[j], 0, s->iq[j] };
			if (have_qd)
				ops[nops++] = (sg_op){ s->iqd[j], 0, s->iqd[j] };
			if (s->force)
				ops[nops++] = (sg_op){ s->itau[j], 0, s->itau[j] };
		}
		size_t l = strlen(what);
		snprintf(what + l, whatlen - l, "%sthe measured q%s%s smoothed", l ? "; " : "", have_qd ? ", qd" : "",
		    s->force ? " and tau" : "");
	}
	return nops;
}

/* The whole-arm output's header: t, row, Y_<column> (wholearm.h), b, the truth. */
/* --base with a log that has true_<name> for every standard column: those,
 * for true_b1 .. true_bR after the truth passed through. */
static int
base_truth(mb_run *s)
{
	if (!s->wa->base)
		return 0;
	s->wtrue = malloc((size_t)s->wa->n * sizeof(int));
	if (!s->wtrue)
		cli_die(EXIT_DATA, "out of memory");
	for (int k = 0; k < s->wa->n; k++) {
		char nm[WA_NAME], tn[WA_NAME + 8];
		wa_std_name(s->wa, s->mm, k, nm);
		snprintf(tn, sizeof(tn), "true_%s", nm);
		if ((s->wtrue[k] = tbl_find(s->r, tn)) < 0) {
			free(s->wtrue);
			s->wtrue = NULL;
			return 0;
		}
	}
	return s->wa->rank;
}

static void
open_wide_output(mb_run *s)
{
	const int np = wa_ncols(s->wa), nbt = base_truth(s), ncol = 3 + np + s->ntrue + nbt;
	const char **names = malloc((size_t)ncol * sizeof(*names));
	char (*nbuf)[WA_NAME + 8] = malloc((size_t)(np + nbt) * sizeof(*nbuf));
	s->orow = malloc((size_t)ncol * sizeof(double));
	s->wA = malloc((size_t)s->nv * (size_t)s->wa->n * sizeof(double));
	s->wout = malloc((size_t)s->nv * (size_t)np * sizeof(double));
	if (!names || !nbuf || !s->orow || !s->wA || !s->wout)
		cli_die(EXIT_DATA, "out of memory");
	names[0] = "t";
	names[1] = "row";
	for (int k = 0; k < np; k++) {
		char nm[WA_NAME];
		wa_name(s->wa, s->mm, k, nm);
		snprintf(nbuf[k], sizeof(nbuf[k]), "Y_%s", nm);
		names[2 + k] = nbuf[k];
	}
	names[2 + np] = "b";
	for (int j = 0; j < s->ntrue; j++)
		names[3 + np + j] = tbl_col(s->r, s->tidx[j]);
	for (int k = 0; k < nbt; k++) {
		snprintf(nbuf[np + k], sizeof(nbuf[0]), "true_b%d", k + 1);
		names[3 + np + s->ntrue + k] = nbuf[np + k];
	}
	s->out = cmdio_open_output(s->o->outname, TBL_AUTO);
	cmdio_header(s->out, ncol, names);
	if (s->wa->base) {
		char v[64];
		snprintf(v, sizeof(v), "%d of %d", s->wa->rank, s->wa->n);
		sink_note(s->out, "base_rank", v);
	}
	free(names);
	free(nbuf);
}

/* One sample's whole-arm rows: b = tau - Y theta_known (the listed bodies'
 * blocks zero in it), the columns wholearm.h's. */
static void
wide_sample(mb_run *s, double t, const double *row, const tagk_mb_kin *kin, const tagk_real *qd, const tagk_real *tau)
{
	const int nv = s->nv, np = wa_ncols(s->wa);
	tagk_real b[TAGK_MB_MAX_DOF];
	tagk_mb_regressor(kin, s->m, Y);
	tagk_gemv(nv, TAGK_NPARAM * s->m->nb, Y, s->known, b);
	tagk_real d[TAGK_MB_MAX_DOF];
	tagk_gemv(nv, TAGK_NPARAM * s->m->nb, Y, s->mm->theta, d);
	for (int k = 0; k < nv; k++) {
		s->wss[0] += (double)(tau[k] - d[k]) * (double)(tau[k] - d[k]);
		s->wss[1] += (double)(tau[k] + d[k]) * (double)(tau[k] + d[k]);
	}
	wa_std_rows(s->wa, nv, s->m->nb, Y, qd, s->wA);
	wa_out_rows(s->wa, nv, s->wA, s->wout);
	double *orow = s->orow;
	for (int k = 0; k < nv; k++) {
		orow[0] = t;
		orow[1] = k;
		memcpy(orow + 2, s->wout + (size_t)k * np, (size_t)np * sizeof(double));
		orow[2 + np] = (double)(tau[k] - b[k]);
		for (int j = 0; j < s->ntrue; j++)
			orow[3 + np + j] = row[s->tidx[j]];
		if (s->wtrue)
			wa_base_values(s->wa, row, s->wtrue, orow + 3 + np + s->ntrue);
		if (!cmdio_all_finite(orow + 2, 1 + np))
			cli_die(EXIT_DATA, "%s: the sample at t = %.9g s gives a regressor row beyond a double's range "
			    "(Inf): the log's values are too large for tagk's units (SI: rad, rad/s, N m)", tbl_name(s->r), t);
		cmdio_row(s->out, orow);
	}
	s->nin++;
	s->nout++;
}

/* Whole-arm rows fit negated parameters as well as the true ones: efforts
 * of the wrong sign pass every later check. Said (and carried, so that
 * tagk-report --strict fails) when the description's own torques fit the
 * efforts negated far better than as read. */
static void
wide_sign(const mb_run *s)
{
	double n = (double)s->nin * s->nv;
	if (s->wss[1] < 0.25 * s->wss[0])
		cli_caution("%s: the description %s fits the efforts negated far better than as read (rms %.3g against "
		    "%.3g N m a row): efforts of the wrong sign? Every parameter then comes out negated", tbl_name(s->r),
		    s->o->robot, sqrt(s->wss[1] / n), sqrt(s->wss[0] / n));
}

/* The output's header: t, row, Y_*, b, the metric, the truth. */
static void
open_output(mb_run *s)
{
	tbl_reader *r = s->r;
	if (s->wa) {
		open_wide_output(s);
		return;
	}
	const int nv = s->nv, nsc = s->o->scale_sd >= 0, ncol = 3 + TAGK_NPARAM + s->nmet + nsc + s->ntrue;
	const char **names = malloc((size_t)ncol * sizeof(*names));
	char (*nbuf)[32] = malloc((size_t)(TAGK_NPARAM + s->nmet) * sizeof(*nbuf));
	if (!names || !nbuf || !(s->orow = malloc((size_t)ncol * sizeof(double))))
		cli_die(EXIT_DATA, "out of memory");
	names[0] = "t";
	names[1] = "row";
	for (int j = 0; j < TAGK_NPARAM; j++) {
		snprintf(nbuf[j], sizeof(nbuf[j]), "Y_%s", tagk_param_names[j]);
		names[2 + j] = nbuf[j];
	}
	names[2 + TAGK_NPARAM] = "b";
	for (int k = 0; k < s->nmet; k++) {
		int j = k / nv - 1, c = k % nv + 1;
		if (j < 0)
			snprintf(nbuf[TAGK_NPARAM + k], sizeof(nbuf[0]), "M0_%d", c);
		else
			snprintf(nbuf[TAGK_NPARAM + k], sizeof(nbuf[0]), "M_%s_%d", tagk_param_names[j], c);
		names[3 + TAGK_NPARAM + k] = nbuf[TAGK_NPARAM + k];
	}
	/* --scale-sd: the efforts' scale error, the path of a thrust map's */
	if (nsc)
		names[3 + TAGK_NPARAM + s->nmet] = "scale_sd";
	for (int j = 0; j < s->ntrue; j++)
		names[3 + TAGK_NPARAM + s->nmet + nsc + j] = tbl_col(r, s->tidx[j]);
	s->out = cmdio_open_output(s->o->outname, TBL_AUTO);
	cmdio_header(s->out, ncol, names);
	/* what the rows are of, for the words of the commands downstream (a
	 * robot arm has no thrust map, battery or drag) */
	sink_note(s->out, "system", "arm");
	free(names);
	free(nbuf);
}

/* The base's pose, velocity, acceleration and wrench from a row. */
static void
base_state(const mb_run *s, const double *row, tagk_real R[9], tagk_real p[3], tagk_real *qd, tagk_real *qdd,
    tagk_real *tau)
{
	tagk_real qb[4];
	double n2 = 0;
	for (int j = 0; j < 4; j++) {
		qb[j] = (tagk_real)row[s->ibase[j]];
		n2 += row[s->ibase[j]] * row[s->ibase[j]];
	}
	if (!(fabs(n2 - 1) <= 1e-3))
		cli_die(EXIT_DATA, "%s: the base quaternion is not of unit length (within 1e-3)", tbl_where(s->r));
	tagk_qnormalize(qb);
	tagk_qmatrix(qb, R);
	for (int j = 0; j < 3; j++)
		p[j] = (tagk_real)row[s->ibase[4 + j]];
	for (int j = 0; j < 6; j++) {
		qd[j] = (tagk_real)row[s->ibase[7 + j]];
		qdd[j] = s->force ? (tagk_real)row[s->ibase[13 + j]] : 0;
		tau[j] = s->force && s->nwr ? (tagk_real)row[s->iwr[j]] : 0;
	}
}

/* The model-fit check's share of a sample's force rows: A, the known part
 * logged - b, the logged efforts and the velocities. */
static void
fit_add(mb_run *s, double t, const tagk_real *A, const tagk_real *b, const double *logged, const tagk_real *qd)
{
	double a[TAGK_MB_MAX_DOF * TAGK_NPARAM], k[TAGK_MB_MAX_DOF], v[TAGK_MB_MAX_DOF];
	for (int r = 0; r < s->nv; r++) {
		for (int j = 0; j < TAGK_NPARAM; j++)
			a[r * TAGK_NPARAM + j] = (double)A[r * TAGK_NPARAM + j];
		k[r] = logged[r] - (double)b[r];
		v[r] = (double)qd[r];
	}
	afit_add(s->af, t, a, k, logged, v);
}

/* One sample's rows (the momentum rows' first sample is their reference). */
static void
sample(mb_run *s, double t, const double *row)
{
	const tagk_mb_model *m = s->m;
	const int nj = s->nj, nv = s->nv, off = s->off, force = s->force;
	tagk_real q[TAGK_MB_MAX_BODIES], qd[TAGK_MB_MAX_DOF], qdd[TAGK_MB_MAX_DOF], tau[TAGK_MB_MAX_DOF];
	tagk_real R[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, p[3] = { 0, 0, 0 };
	for (int j = 0; j < nj; j++) {
		q[j] = (tagk_real)(row[s->iq[j]] * s->qscale[j]);
		qd[off + j] = (tagk_real)(row[s->iqd[j]] * s->qscale[j]);
		qdd[off + j] = force ? (tagk_real)(row[s->iqdd[j]] * s->qscale[j]) : 0;
		tau[off + j] = force ? (tagk_real)row[s->itau[j]] : 0;
	}
	if (m->floating)
		base_state(s, row, R, p, qd, qdd, tau);
	double logged[TAGK_MB_MAX_DOF];
	for (int a = 0; a < nv; a++)
		logged[a] = (double)tau[a];
	for (int j = 0; s->have_fr && j < nj; j++)
		tau[off + j] -= (tagk_real)friction_torque(&s->fr, j, (double)qd[off + j]);
	tagk_mb_kin kin;
	if (tagk_mb_kinematics(m, R, p, q, qd, force ? qdd : NULL, &kin) != TAGK_OK)
		cli_die(EXIT_DATA, "%s: a joint signal is NaN or infinite", tbl_where(s->r));
	if (s->arm) {
		arm_add(s->arm, t, &kin, qd + off, tau + off);
		s->nin++;
		s->nout++;
		return;
	}
	if (s->fit) {
		tagk_real id[TAGK_MB_MAX_DOF];
		tagk_mb_inverse_dynamics(&kin, m, s->theta, id);
		for (int j = 0; j < nj; j++) {
			ffit_add(s->fit, j, (double)qd[off + j], (double)(tau[off + j] - id[off + j]));
			s->tau2[j] += logged[off + j] * logged[off + j];
		}
		s->nin++;
		s->nout++;
		return;
	}
	if (s->wa) {
		wide_sample(s, t, row, &kin, qd, tau);
		return;
	}
	tagk_real A[TAGK_MB_MAX_DOF * TAGK_NPARAM], b[TAGK_MB_MAX_DOF];
	int rows = nv;
	if (force) {
		tagk_mb_force_rows(&kin, m, tau, s->known, s->u, Y, A, b);
		if (s->af)
			fit_add(s, t, A, b, logged, qd);
		if (s->o->rows == MB_ROWS_ENERGY) {
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
		tagk_mb_momentum_rows(&kin, s->nin ? Yh0 : NULL, s->known, s->u, Y, A, b);
		rows = 6;
		if (s->nin++ == 0) {
			memcpy(Yh0, Y, sizeof(*Y) * 6 * (size_t)(TAGK_NPARAM * m->nb));
			return; /* the reference sample */
		}
	}
	if (force)
		s->nin++;
	if (s->nmet) {
		tagk_mb_mass_matrix(&kin, m, s->known, Mmet);
		for (int j = 0; j < TAGK_NPARAM; j++) {
			tagk_real e[TAGK_NPARAM * TAGK_MB_MAX_BODIES] = { 0 };
			e[TAGK_NPARAM * s->u + j] = 1;
			tagk_mb_mass_matrix(&kin, m, e, Mmet + (size_t)(1 + j) * nv * nv);
		}
	}
	double *orow = s->orow;
	for (int k = 0; k < rows; k++) {
		orow[0] = t;
		orow[1] = k;
		for (int j = 0; j < TAGK_NPARAM; j++)
			orow[2 + j] = (double)A[k * TAGK_NPARAM + j];
		orow[2 + TAGK_NPARAM] = (double)b[k];
		for (int x = 0; x < s->nmet; x++)
			orow[3 + TAGK_NPARAM + x] = (double)Mmet[(size_t)(x / nv) * nv * nv + (size_t)k * nv + x % nv];
		int nsc = s->o->scale_sd >= 0;
		if (nsc)
			orow[3 + TAGK_NPARAM + s->nmet] = s->o->scale_sd;
		for (int j = 0; j < s->ntrue; j++)
			orow[3 + TAGK_NPARAM + s->nmet + nsc + j] = row[s->tidx[j]];
		if (!cmdio_all_finite(orow + 2, 1 + TAGK_NPARAM + s->nmet))
			cli_die(EXIT_DATA, "%s: the sample at t = %.9g s gives a regressor row beyond a double's range "
			    "(Inf): the log's values are too large for tagk's units (SI: rad, rad/s, N m)", tbl_name(s->r), t);
		if (s->fwl)
			fwl_add(s->fwl, orow, k >= off ? (double)qd[k] : 0);
		else
			cmdio_row(s->out, orow);
	}
	s->nout++;
}

/* What the model file says, checked against the options. */
static void
check_model(const regress_mb_opts *o, const mbmodel *mm, int u)
{
	const tagk_mb_model *m = &mm->m;
	if (o->arm.mode) {
		if (o->body || o->rows != MB_ROWS_FORCE || o->metric || o->fit_kinds)
			cli_die(EXIT_USAGE, "--%s takes every link, from force rows: no --unknown, --held, --rows, --metric "
			    "or --fit-friction", o->arm.mode == ARM_IDENTIFY ? "identify" : "predict");
		return;
	}
	if (o->fit_kinds) {
		if (o->body || o->rows != MB_ROWS_FORCE || o->metric)
			cli_die(EXIT_USAGE, "--fit-friction fits the robot as its model describes it, from force rows: "
			    "no --unknown, --held, --rows or --metric");
		if (m->floating)
			cli_die(EXIT_USAGE, "--fit-friction: %s has a free base (fit joint friction on a fixed base)", o->robot);
		return;
	}
	const char *into = u < 0 ? mbmodel_merged_into(mm, o->body) : NULL;
	if (into && o->held)
		cli_die(EXIT_USAGE, "--held %s: %s is fixed to %s (a fixed joint) and merged into it: say --held %s (the "
		    "load's parameters are then in %s's frame)", o->body, o->body, into, into, into);
	if (into)
		cli_die(EXIT_USAGE, "--unknown %s: %s is fixed to %s (a fixed joint) and merged into it: its parameters are "
		    "part of %s's; say --unknown %s", o->body, o->body, into, into, into);
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
	if (o->metric && o->rows != MB_ROWS_FORCE)
		cli_die(EXIT_USAGE, "--metric applies to force rows (the metric is the mass matrix, per sample)");
	if (o->fwl_kinds && (o->rows != MB_ROWS_FORCE || o->metric || o->friction))
		cli_die(EXIT_USAGE, "--friction-terms: force rows only, without --metric and without --friction");
}

/* What --unknown all (or a list) allows: force rows, unknown bodies, a fixed
 * base or a free one; friction terms become columns. */
static void
check_wide(const regress_mb_opts *o, const mbmodel *mm)
{
	if (o->held)
		cli_die(EXIT_USAGE, "--held holds one object: the whole-arm rows are --unknown all or --unknown BODY,BODY,...");
	if (o->rows != MB_ROWS_FORCE || o->metric)
		cli_die(EXIT_USAGE, "--unknown %s: force rows only (no --rows momentum or energy, no --metric)", o->body);
	if (tagk_mb_dof(&mm->m) == 0)
		cli_die(EXIT_USAGE, "%s: a fixed base and no joints: nothing moves, so there are no rows", o->robot);
}

/* --base: the base parameters from random states, said on stderr and
 * written to --base-groups. */
static void
base_setup(const regress_mb_opts *o, wholearm *w, const mbmodel *mm)
{
	wa_base(w, mm, 1);
	wa_say_base(w, mm);
	if (w->rank == 0)
		cli_die(EXIT_DATA, "--base: no parameter of the listed bodies enters the joint torques");
	if (o->base_groups) {
		cmdio_file f;
		cmdio_file_open(&f, o->base_groups);
		if (wa_write_groups(w, mm, f.f) != 0)
			cli_die(EXIT_DATA, "%s: write error", f.name);
		cmdio_file_commit(&f);
	}
}

/* Open the log and find every column; returns the filter, or NULL. */
static sgderive *
open_log(mb_run *s, const char *input, double **row)
{
	const regress_mb_opts *o = s->o;
	const tagk_mb_model *m = s->m;
	tbl_reader *r = s->r = cmdio_open_input(input, &o->in);
	if (!o->map[MB_SIG_Q])
		check_joint_count(r, s->nj, o->robot);
	if (o->map[MB_SIG_T]) {
		int i = tbl_find(r, o->map[MB_SIG_T]);
		if (i < 0)
			cli_die(EXIT_DATA, "%s: --map t: no column '%s'%s", tbl_name(r), o->map[MB_SIG_T],
			    cmdio_unread_hint(r, o->map[MB_SIG_T]));
		tbl_want_time(r, i);
	} else
		tbl_want_time(r, need(r, "t", "time; map yours with --map t=COL"));
	sg_op ops[4 * TAGK_MB_MAX_BODIES];
	char what[160];
	int nops = joint_signals(s, ops, what, sizeof(what));
	for (int j = 0; j < s->nj; j++)
		s->qscale[j] = o->angle_deg && m->joint[j + 1] == TAGK_JOINT_REVOLUTE ? M_PI / 180 : 1;
	if (m->floating)
		base_cols(s);
	if (!(s->tidx = malloc((size_t)tbl_ncols(r) * sizeof(int))))
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 0; i < tbl_ncols(r); i++)
		if (strncmp(tbl_col(r, i), "true_", 5) == 0) {
			s->tidx[s->ntrue++] = i;
			tbl_want(r, i);
		}
	const int width = tbl_ncols(r) + 2 * s->nj;
	if (!(*row = calloc((size_t)width, sizeof(double))))
		cli_die(EXIT_DATA, "out of memory");
	if (!nops)
		return NULL;
	/* no --sg-window: chosen from the data for positions alone, else 0.05 s */
	int from_q = 0;
	for (int k = 0; k < nops; k++)
		from_q |= ops[k].deriv == 2 && ops[k].src == s->iq[0];
	sgderive *d = sgd_new(o->sg_window > 0 ? o->sg_window : from_q ? 0 : 0.05, o->sg_order, width, nops, ops);
	snprintf(s->what, sizeof(s->what), "%s", what);
	return d;
}

/* A revolute joint's angle that jumps by more than pi between two samples
 * has wrapped around (a continuous joint logged in [-pi, pi)): no joint
 * turns half a turn in a sample. Its jumps are taken out (in the log's
 * angle unit), before the consistency check and the filter read it. */
typedef struct {
	double prev[TAGK_MB_MAX_BODIES], off[TAGK_MB_MAX_BODIES];
	long n[TAGK_MB_MAX_BODIES];
	int started;
} unwrapper;

static void
unwrap(const mb_run *s, unwrapper *u, double *row)
{
	for (int j = 0; j < s->nj; j++) {
		if (s->m->joint[j + 1] != TAGK_JOINT_REVOLUTE)
			continue;
		double turn = 2 * M_PI / s->qscale[j], q = row[s->iq[j]];
		if (u->started && fabs(q + u->off[j] - u->prev[j]) > turn / 2) {
			double k = floor((u->prev[j] - q - u->off[j]) / turn + 0.5);
			u->off[j] += k * turn;
			u->n[j]++;
		}
		row[s->iq[j]] = u->prev[j] = q + u->off[j];
	}
	u->started = 1;
}

/* On stderr: the angles unwrapped and the time stamps' origin. */
static void
read_notes(const mb_run *s, const unwrapper *uw)
{
	tbl_reader *r = s->r;
	for (int j = 0; j < s->nj; j++)
		if (uw->n[j])
			cli_warn("%s: joint %d's angle '%s' wraps around (a jump of 2 pi between samples, %ld time%s): read "
			    "unwrapped, so that its derivatives do not see the jump", tbl_name(r), j + 1, tbl_col(r, s->iq[j]),
			    uw->n[j], uw->n[j] == 1 ? "" : "s");
	if (tbl_time_origin(r))
		cli_warn("%s: time stamps as large as %s are counted from that first one (subtracted exactly, before a "
		    "double would round them): the rows' t is the time since it", tbl_name(r), tbl_time_origin(r));
}

/* The joints whose derivative (qd of q, or qdd of qd) the log carries, as
 * two derivguards (consistency_guard.h); lists of the pairs' columns in jx, jd. */
typedef struct {
	derivguard g[2];
	int n[2], jx[2][TAGK_MB_MAX_BODIES], jd[2][TAGK_MB_MAX_BODIES];
} deriv_pairs;

static void
deriv_open(deriv_pairs *p, const mb_run *s)
{
	const int nc = tbl_ncols(s->r);
	const int *from[2] = { s->iq, s->iqd }, *to[2] = { s->iqd, s->force ? s->iqdd : NULL };
	for (int k = 0; k < 2; k++) {
		const char *xc[TAGK_MB_MAX_BODIES], *dc[TAGK_MB_MAX_BODIES];
		p->n[k] = 0;
		for (int j = 0; to[k] && j < s->nj; j++)
			if (from[k][j] < nc && to[k][j] < nc) { /* both read from the log, not derived */
				xc[p->n[k]] = tbl_col(s->r, from[k][j]);
				dc[p->n[k]] = tbl_col(s->r, to[k][j]);
				p->jx[k][p->n[k]] = from[k][j];
				p->jd[k][p->n[k]++] = to[k][j];
			}
		derivguard_init(&p->g[k], s->o->no_check, tbl_name(s->r), p->n[k], xc, dc);
	}
}

static void
deriv_add(deriv_pairs *p, double t, const double *row)
{
	for (int k = 0; k < 2; k++) {
		double x[TAGK_MB_MAX_BODIES], d[TAGK_MB_MAX_BODIES];
		if (p->g[k].said) /* judged, or nothing to judge: no copies a sample */
			continue;
		for (int i = 0; i < p->n[k]; i++) {
			x[i] = row[p->jx[k][i]];
			d[i] = row[p->jd[k][i]];
		}
		derivguard_add(&p->g[k], t, x, d);
	}
}

/* On stderr: what the filter did. */
static void
filter_note(const mb_run *s, const sgderive *d)
{
	long dropped, gaps;
	int n;
	double dt;
	sgd_stats(d, &dropped, &gaps, &n, &dt);
	cli_warn("%s by a Savitzky-Golay filter of degree %d over %d samples (%.3g s at the log's spacing of %.3g s%s%s): "
	    "%ld sample%s at the log's ends%s not written", s->what, s->o->sg_order, n, (n - 1) * dt, dt,
	    sgd_why(d) ? "; " : "", sgd_why(d) ? sgd_why(d) : "", dropped, dropped == 1 ? "" : "s",
	    gaps ? " and at its gaps" : "");
}

/* The model-fit check's findings on stderr; refused (exit 1) when a row
 * does not fit, unless --no-fit-check. */
static void
fit_verdict(mb_run *s, const mbmodel *mm)
{
	static char names[TAGK_MB_MAX_DOF][96];
	const char *np[TAGK_MB_MAX_DOF];
	static const char *const axes[6] = { "nx", "ny", "nz", "fx", "fy", "fz" };
	for (int k = 0; k < s->nv; k++) {
		if (k < s->off)
			snprintf(names[k], sizeof(names[k]), "the base's %s row", axes[k]);
		else
			snprintf(names[k], sizeof(names[k]), "joint %d (%s)", k - s->off + 1, tbl_col(s->r, s->itau[k - s->off]));
		np[k] = names[k];
	}
	char what[600];
	snprintf(what, sizeof(what), "%s %s with the other links as %s gives them", s->o->held ? "a load held by" :
	    "the unknown body", s->o->body, s->o->robot);
	static armfit_result res;
	afit_judge(s->af, &res);
	(void)mm;
	if (s->o->fwl_kinds)
		afit_say_friction(&res, np, "N m");
	if (afit_say(&res, np, what, "N m") && !s->o->no_fit_check)
		cli_die(EXIT_DATA, "%s: the model does not fit the log: refused (--no-fit-check writes the rows)", tbl_name(s->r));
}

/* --fit-friction: the fitted file, with each value's sd in a comment. */
static void
write_friction(mb_run *s, const char *input)
{
	friction fr;
	double sd[FRICTION_MAX_JOINTS][3];
	char what[400], comment[4096];
	if (ffit_solve(s->fit, &fr, sd, what, sizeof(what)) != 0)
		cli_die(EXIT_DATA, "%s: --fit-friction: %s", input, what);
	int l = snprintf(comment, sizeof(comment), "tagk-regress --fit-friction on %s with %s: %s\n"
	    "sd (fv fc fo) per joint:", input, s->o->robot, what);
	for (int j = 0; j < fr.n && l < (int)sizeof(comment) - 80; j++)
		l += snprintf(comment + l, sizeof(comment) - (size_t)l, "%s %d: %.3g %.3g %.3g", j ? ";" : "", j + 1,
		    sd[j][0], sd[j][1], sd[j][2]);
	cmdio_file w;
	cmdio_file_open(&w, s->o->outname);
	if (friction_write(w.f, &fr, comment) != 0)
		cli_die(EXIT_DATA, "%s: write error", w.name);
	cmdio_file_commit(&w);
	cli_warn("--fit-friction: %s", what);
	for (int j = 0; j < fr.n; j++) {
		double typ = sqrt(s->tau2[j] / (double)(s->nin ? s->nin : 1));
		if (fr.fv[j] < -3 * sd[j][0])
			cli_warn("--fit-friction: joint %d (%s): a negative viscous coefficient (fv %.3g +- %.2g N m s/rad) is not "
			    "a friction: an effort of the wrong sign, or a model that is not this robot's", j + 1,
			    tbl_col(s->r, s->itau[j]), fr.fv[j], sd[j][0]);
		if (fabs(fr.fc[j]) > typ)
			cli_warn("--fit-friction: joint %d (%s): a Coulomb term (fc %.3g N m) larger than the joint's typical "
			    "torque (rms %.3g N m) is not a friction: the efforts' unit or the model is wrong", j + 1,
			    tbl_col(s->r, s->itau[j]), fr.fc[j], typ);
	}
}

/* The unknown bodies: one (--unknown, --held) or many (the whole arm),
 * their parameters taken out of the known ones. */
static void
setup_bodies(mb_run *s, const regress_mb_opts *o, mbmodel *mm)
{
	s->o = o;
	s->m = &mm->m;
	s->u = o->body ? mbmodel_find(mm, o->body) : -1;
	s->mm = mm;
	memcpy(s->known, mm->theta, sizeof(s->known));
	static wholearm wa;
	if (o->body && wa_wanted(o->body)) {
		check_wide(o, mm);
		wa_init(&wa, mm, o->body, o->fwl_kinds, o->coulomb_smooth);
		for (int u = 0; u < wa.nu; u++)
			memset(s->known + TAGK_NPARAM * wa.body[u], 0, TAGK_NPARAM * sizeof(*s->known));
		s->wa = &wa;
		if (o->base)
			base_setup(o, &wa, mm);
	} else
		check_model(o, mm, s->u);
	if (!s->wa && o->base)
		cli_die(EXIT_USAGE, "--base: the base parameters are those of many bodies: --unknown all or a list");
	if (!s->wa && (o->fwl_kinds & WA_FS))
		cli_die(EXIT_USAGE, "--friction-terms sigmoid: whole-arm rows only (--unknown all or a list of bodies)");
	if (!o->held && s->u >= 0 && !s->wa)
		memset(s->known + TAGK_NPARAM * s->u, 0, TAGK_NPARAM * sizeof(*s->known));
	s->theta = mm->theta;
}

/* --fit-friction's fit, and --friction's file. */
static void
setup_friction(mb_run *s, const regress_mb_opts *o, const mbmodel *mm)
{
	static friction_fit fit;
	char err[512];
	if (o->fit_kinds) {
		ffit_init(&fit, mm->m.nb - 1, o->fit_kinds, o->coulomb_smooth);
		s->fit = &fit;
	}
	if (o->friction) {
		if (friction_read(o->friction, &s->fr, err, sizeof(err)) != 0)
			cli_die(EXIT_DATA, "%s", err);
		if (s->fr.n != mm->m.nb - 1)
			cli_die(EXIT_DATA, "--friction %s has %d joints but %s has %d: not the same robot", o->friction,
			    s->fr.n, o->robot, mm->m.nb - 1);
		s->have_fr = 1;
	}
}

/* After the last sample: what the run writes at its end. */
static void
finish_run(mb_run *s, const regress_mb_opts *o, mbmodel *mm, const char *input)
{
	if (s->arm)
		arm_finish(s->arm);
	else if (s->fit)
		write_friction(s, input);
	else {
		if (s->af)
			fit_verdict(s, mm);
		if (s->wa)
			wide_sign(s);
		if (s->fwl)
			fwl_finish(s->fwl, s->out);
		if (o->scale_sd >= 0)
			sink_note(s->out, "scale_sd_of", "efforts");
		cmdio_commit(s->out);
	}
}

int
regress_multibody(const regress_mb_opts *o, const char *input)
{
	static mbmodel mm;
	char err[512];
	char where[4200];
	const char *robot_path = cmdio_robot_path(o->robot, where, sizeof(where));
	if (mbmodel_read(robot_path, &mm, err, sizeof(err)) != 0)
		cli_die(EXIT_DATA, "%s", err);
	static mb_run s;
	setup_bodies(&s, o, &mm);
	setup_friction(&s, o, &mm);
	s.nj = mm.m.nb - 1;
	s.nv = tagk_mb_dof(&mm.m);
	s.off = mm.m.floating ? 6 : 0;
	s.force = o->rows != MB_ROWS_MOMENTUM;
	s.nmet = o->metric ? (1 + TAGK_NPARAM) * s.nv : 0;
	if (s.force && !s.fit && !s.wa && !o->arm.mode)
		s.af = afit_new(s.nv, s.off, !o->friction, o->coulomb_smooth);
	double *row;
	sgderive *d = open_log(&s, input, &row);
	tbl_reader *r = s.r;
	const int it = tbl_find(r, o->map[MB_SIG_T] ? o->map[MB_SIG_T] : "t");
	if (o->arm.mode) {
		arm_opts ao = o->arm;
		ao.kinds = o->fwl_kinds;
		ao.smooth = o->coulomb_smooth;
		ao.robot = o->robot;
		ao.robot_path = robot_path;
		ao.outname = o->outname;
		s.arm = arm_new(&ao, &mm, s.have_fr ? &s.fr : NULL, input);
	} else if (!s.fit)
		open_output(&s);
	static friction_fwl fwl;
	if (o->fwl_kinds && !s.arm && !s.wa) {
		fwl_init(&fwl, s.nj, s.off, 3 + TAGK_NPARAM + s.nmet + (o->scale_sd >= 0) + s.ntrue, o->fwl_kinds,
		    o->coulomb_smooth);
		s.fwl = &fwl;
	}

	double tprev = -INFINITY;
	long skipped = 0;
	int rc;
	timeunit tu;
	timeunit_init(&tu, o->tscale_set, tbl_name(r), tbl_col(r, it));
	angleunit au;
	angleunit_init(&au, o->angle_set, tbl_name(r));
	static deriv_pairs dp;
	deriv_open(&dp, &s);
	static unwrapper uw;
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
		timeunit_add(&tu, t);
		for (int j = 0; j < s.nj; j++)
			if (mm.m.joint[j + 1] == TAGK_JOINT_REVOLUTE)
				angleunit_add(&au, row[s.iq[j]], tbl_col(r, s.iq[j]), t);
		unwrap(&s, &uw, row);
		deriv_add(&dp, t, row);
		if (!d) {
			sample(&s, t, row);
			continue;
		}
		for (int k = 0, n = sgd_push(d, t, row); k < n; k++) {
			double tc;
			const double *rc_row = sgd_ready(d, k, &tc);
			sample(&s, tc, rc_row);
		}
	}
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	timeunit_end(&tu);
	for (int k = 0, n = d ? sgd_finish(d) : 0; k < n; k++) {
		double tc;
		const double *rc_row = sgd_ready(d, k, &tc);
		sample(&s, tc, rc_row);
	}
	if (d && s.nin == 0)
		cli_die(EXIT_DATA, "%s: no sample left: the log is shorter than the Savitzky-Golay window "
		    "(--sg-window %g s)", tbl_name(r), o->sg_window > 0 ? o->sg_window : 0.05);
	if (s.nin == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(r));
	if (s.nout == 0)
		cli_die(EXIT_DATA, "%s: one sample: momentum rows are differences from the first sample", tbl_name(r));
	finish_run(&s, o, &mm, input);
	if (d)
		filter_note(&s, d);
	read_notes(&s, &uw);
	if (tbl_skipped(r) + skipped)
		cli_warn("skipped %ld bad row%s of %s", tbl_skipped(r) + skipped,
		    tbl_skipped(r) + skipped == 1 ? "" : "s", tbl_name(r));
	tbl_close(r);
	sgd_free(d);
	free(s.tidx);
	free(row);
	free(s.orow);
	free(s.wA);
	free(s.wout);
	free(s.wtrue);
	return 0;
}
