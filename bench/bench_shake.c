/*
 * bench_shake.c: tagk-bench's paper 004 experiments (bench/sim/arm.h): shake
 * (simulated objects held and shaken by a 4-DoF arm, as a joint log or a
 * training set) and shake-table (the paper's Tables II and III on simulated
 * test objects: each estimator's errors, infeasible estimates and time).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench_commands.h"
#include "bench_shake.h"
#include "../cmd/common/cli.h"
#include "../cmd/common/cmdio.h"
#include "progress.h"
#include "workers.h"
#include "../formats/mbmodel.h"
#include "sim/arm.h"

/* the test split: objects 4500 .. 4999 of the 5000 of a seed, as the
 * paper's 4000 / 500 / 500 */
#define TEST_FIRST 4500
#define TEST_COUNT 500
#define NQ TAGK_ARM_SUMMARY /* what is scored: m, c (3, from the grip), Ixx, Iyy, Izz about c */

static const char *const body_names[TAGK_ARM_BODIES] = { "torso", "shoulder_pitch", "shoulder_roll", "upper_arm",
	"forearm" };
static const char *const quantity[NQ] = { "mass", "com_x", "com_y", "com_z", "Ixx", "Iyy", "Izz" };

/* The options both commands share (their tables list them: q-noise Q,
 * qd-noise V, tau-noise T, damping D, seed s): the simulator's knobs. */
static int
arm_option(int c, tagk_arm_config *ac)
{
	switch (c) {
	case 'Q': ac->q_noise = (tagk_real)cli_double("--q-noise", optarg, 0, 1); return 1;
	case 'V': ac->qd_noise = (tagk_real)cli_double("--qd-noise", optarg, 0, 10); return 1;
	case 'T': ac->tau_noise = (tagk_real)cli_double("--tau-noise", optarg, 0, 10); return 1;
	case 'D': ac->damping = (tagk_real)cli_double("--damping", optarg, 0, 10); return 1;
	case 's': ac->seed = cli_u64("--seed", optarg); return 1;
	default: return 0;
	}
}

static tagk_arm_sample *
run_object(const tagk_arm_config *ac, long index, tagk_arm_sample *buf)
{
	tagk_status st = tagk_arm_run(ac, index, buf, tagk_arm_samples(ac));
	if (st != TAGK_OK)
		cli_die(EXIT_DATA, "shake: object %ld: the simulation failed: %s", index, tagk_strerror(st));
	return buf;
}

static tagk_arm_sample *
alloc_samples(const tagk_arm_config *ac)
{
	tagk_arm_sample *s = malloc((size_t)tagk_arm_samples(ac) * sizeof(*s));
	if (!s)
		cli_die(EXIT_DATA, "out of memory");
	return s;
}

static void
write_model(const char *path)
{
	mbmodel mm;
	memset(&mm, 0, sizeof(mm));
	tagk_arm_model(&mm.m, mm.theta);
	for (int i = 0; i < TAGK_ARM_BODIES; i++)
		snprintf(mm.name[i], sizeof(mm.name[i]), "%s", body_names[i]);
	cmdio_file f;
	cmdio_file_open(&f, path);
	if (mbmodel_write(f.f, &mm, "tagk-bench shake: paper 004's 4-DoF arm without the object it holds "
	    "(hold it as --held forearm)") != 0)
		cli_die(EXIT_DATA, "%s: cannot write the model: %s", path, strerror(errno));
	cmdio_file_commit(&f);
}

int
bench_shake(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "q-noise", required_argument, NULL, 'Q' },
		{ "qd-noise", required_argument, NULL, 'V' },
		{ "tau-noise", required_argument, NULL, 'T' },
		{ "damping", required_argument, NULL, 'D' },
		{ "seed", required_argument, NULL, 's' },
		{ "objects", required_argument, NULL, 'n' },
		{ "first", required_argument, NULL, 'F' },
		{ "long", required_argument, NULL, 'L' },
		{ "model-out", required_argument, NULL, 'M' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	tagk_arm_config ac;
	tagk_arm_defaults(&ac);
	long nobj = 1, first = 0;
	const char *outname = NULL, *model_out = NULL;
	int c;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "o:h", opts)) != -1) {
		if (arm_option(c, &ac))
			continue;
		switch (c) {
		case 'n': nobj = cli_long("--objects", optarg, 1, 1000000); break;
		case 'F': first = cli_long("--first", optarg, 0, 1000000000); break;
		case 'L':
			ac.motion = TAGK_ARM_LONG;
			ac.duration = (tagk_real)cli_double("--long", optarg, 0.01, 3600);
			break;
		case 'M': model_out = optarg; break;
		case 'o': outname = optarg; break;
		case 'h':
			bench_help(stdout, "shake");
			cli_close(stdout, "stdout");
			return 0;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		cli_die(EXIT_USAGE, "shake: unexpected argument '%s'", argv[optind]);
	if (model_out)
		write_model(model_out);
	enum { NJ = TAGK_ARM_JOINTS };
	char names[2 + 4 * NJ + TAGK_NPARAM][24];
	const char *np[sizeof(names) / sizeof(names[0])];
	int nc = 0;
	snprintf(names[nc++], 24, "object");
	snprintf(names[nc++], 24, "t");
	static const char *const jp[] = { "q", "qd", "qdd", "tau" };
	for (int g = 0; g < 4; g++)
		for (int j = 0; j < NJ; j++)
			snprintf(names[nc++], 24, "%s%d", jp[g], j + 1);
	for (int j = 0; j < TAGK_NPARAM; j++)
		snprintf(names[nc++], 24, "true_%s", tagk_param_names[j]);
	for (int i = 0; i < nc; i++)
		np[i] = names[i];
	sink *out = cmdio_open_output(outname, TBL_AUTO);
	cmdio_header(out, nc, np);
	long n = tagk_arm_samples(&ac);
	tagk_arm_sample *s = alloc_samples(&ac);
	tagk_real *qdd = malloc((size_t)n * NJ * sizeof(*qdd));
	if (!qdd)
		cli_die(EXIT_DATA, "out of memory");
	/* objects follow one another in time, one every period (whole seconds,
	 * at least 0.5 s apart), so that t increases through the table */
	const double period = ceil((double)ac.duration + 0.5);
	for (long o = first; o < first + nobj; o++) {
		run_object(&ac, o, s);
		tagk_arm_differentiate(s, n, qdd);
		tagk_real truth[TAGK_NPARAM];
		tagk_arm_object(ac.seed, o, truth);
		for (long k = 0; k < n; k++) {
			double row[sizeof(names) / sizeof(names[0])];
			int r = 0;
			row[r++] = (double)o;
			row[r++] = (double)(o - first) * period + (double)s[k].t;
			for (int j = 0; j < NJ; j++)
				row[r++] = (double)s[k].q[j];
			for (int j = 0; j < NJ; j++)
				row[r++] = (double)s[k].qd[j];
			for (int j = 0; j < NJ; j++)
				row[r++] = (double)qdd[k * NJ + j];
			for (int j = 0; j < NJ; j++)
				row[r++] = (double)s[k].tau[j];
			for (int j = 0; j < TAGK_NPARAM; j++)
				row[r++] = (double)truth[j];
			cmdio_row(out, row);
		}
	}
	cmdio_commit(out);
	free(s);
	free(qdd);
	cli_warn("shake: %ld object%s from %ld, seed %llu, %s %g s: %ld samples each at 400 Hz", nobj, nobj == 1 ? ""
	    : "s", first, (unsigned long long)ac.seed, ac.motion == TAGK_ARM_LONG ? "long excitation" : "shake",
	    (double)ac.duration, n);
	return 0;
}

/* What is scored (arm.h's summary), in double. */
static int
summary(const tagk_real th[TAGK_NPARAM], double out[NQ])
{
	tagk_real v[TAGK_ARM_SUMMARY];
	if (!tagk_arm_summary(th, v))
		return 0;
	for (int i = 0; i < NQ; i++)
		out[i] = (double)v[i];
	return 1;
}

/* The physics baselines: a batch method on the held object's joint-torque
 * rows (tagk_mb_force_rows with the arm's own parameters known, the
 * commanded torques), joint accelerations by central differences of the
 * measured velocities; or, sim_acc, the simulator's true q, qd and qdd
 * with the same torques (what separates differentiation from the rest). */
static tagk_status
estimate_ls(const char *method, const tagk_arm_sample *s, long n, int sim_acc, tagk_real *qdd,
    tagk_real th[TAGK_NPARAM])
{
	enum { NJ = TAGK_ARM_JOINTS };
	tagk_mb_model m;
	tagk_real known[TAGK_NPARAM * TAGK_ARM_BODIES], Y[NJ * TAGK_NPARAM * TAGK_ARM_BODIES], A[NJ * TAGK_NPARAM];
	tagk_real b[NJ];
	tagk_arm_model(&m, known);
	tagk_batch q;
	if (tagk_batch_init(&q, tagk_method_find_kind(method, TAGK_KIND_BATCH), TAGK_NPARAM) != TAGK_OK)
		return TAGK_EINVAL;
	tagk_arm_differentiate(s, n, qdd);
	for (long k = 0; k < n; k++) {
		tagk_mb_kin kin;
		tagk_status st = sim_acc ? tagk_mb_kinematics(&m, NULL, NULL, s[k].q_true, s[k].qd_true, s[k].qdd_true, &kin)
		                         : tagk_mb_kinematics(&m, NULL, NULL, s[k].q, s[k].qd, qdd + k * NJ, &kin);
		if (st != TAGK_OK)
			return st;
		tagk_mb_force_rows(&kin, &m, s[k].tau, known, TAGK_ARM_HAND, Y, A, b);
		for (int r = 0; r < NJ; r++) {
			double y[TAGK_NPARAM];
			for (int i = 0; i < TAGK_NPARAM; i++)
				y[i] = (double)A[r * TAGK_NPARAM + i];
			if ((st = tagk_batch_add(&q, r, y, (double)b[r])) != TAGK_OK)
				return st;
		}
	}
	return tagk_batch_solve(&q, th);
}

/* The paper's setting (its Sec. V-B: "the simulation dataset is employed
 * to obtain ... acceleration, torque, and force at the object level"): a
 * force/torque sensor at the hand's origin, rows tagk_regressor_rigid of
 * the hand's own specific force, angular velocity and acceleration from
 * the simulator's true state (tagk_mb_body_sensor), the wrench the object's
 * true parameters give plus Gaussian noise of ft->force (N) and ft->moment
 * (N m); the paper states no noise, so both default to 0. */
typedef struct {
	double force, moment;
} ft_noise;

static tagk_status
estimate_object(const char *method, const tagk_arm_sample *s, long n, const tagk_real obj[TAGK_NPARAM],
    const ft_noise *ft, uint64_t seed, tagk_real th[TAGK_NPARAM])
{
	tagk_mb_model m;
	tagk_real known[TAGK_NPARAM * TAGK_ARM_BODIES], Y[6 * TAGK_NPARAM];
	tagk_arm_model(&m, known);
	tagk_batch q;
	if (tagk_batch_init(&q, tagk_method_find_kind(method, TAGK_KIND_BATCH), TAGK_NPARAM) != TAGK_OK)
		return TAGK_EINVAL;
	tagk_rng g;
	tagk_rng_seed(&g, seed);
	for (long k = 0; k < n; k++) {
		tagk_mb_kin kin;
		tagk_status st = tagk_mb_kinematics(&m, NULL, NULL, s[k].q_true, s[k].qd_true, s[k].qdd_true, &kin);
		if (st != TAGK_OK)
			return st;
		tagk_real a[3], w[3], al[3];
		tagk_mb_body_sensor(&kin, TAGK_ARM_HAND, a, w, al);
		tagk_regressor_rigid(a, w, al, Y);
		for (int r = 0; r < 6; r++) {
			double y[TAGK_NPARAM], b = 0;
			for (int i = 0; i < TAGK_NPARAM; i++) {
				y[i] = (double)Y[r * TAGK_NPARAM + i];
				b += y[i] * (double)obj[i];
			}
			b += (r < 3 ? ft->force : ft->moment) * (double)tagk_rng_gaussian(&g);
			if ((st = tagk_batch_add(&q, r, y, b)) != TAGK_OK)
				return st;
		}
	}
	return tagk_batch_solve(&q, th);
}

/* A learned method on the shake's measured q and qd; scratch is the
 * caller's (at least 2 x 4 x n reals, the joint-acceleration buffer). */
static tagk_status
learned(const tagk_learned_ops *lo, const tagk_arm_sample *s, long n, tagk_real *scratch,
    tagk_real out[TAGK_ARM_SUMMARY])
{
	enum { NJ = TAGK_ARM_JOINTS };
	if (n != lo->window || lo->joints != NJ || lo->outputs != TAGK_ARM_SUMMARY)
		return TAGK_EINVAL;
	static tagk_real ws[1 << 16];
	if (lo->workspace_len() > sizeof(ws) / sizeof(ws[0]))
		return TAGK_EINVAL;
	tagk_real *q = scratch, *qd = scratch + n * NJ;
	for (long k = 0; k < n; k++)
		for (int j = 0; j < NJ; j++) {
			q[k * NJ + j] = s[k].q[j];
			qd[k * NJ + j] = s[k].qd[j];
		}
	return lo->predict(q, qd, out, ws, sizeof(ws) / sizeof(ws[0]));
}

/* Where a least-squares row's measurements come from: the paper's
 * object-level force/torque (FT) or the joint torques an honest robot logs
 * (JOINT), and between them the joint torques with the simulator's
 * accelerations (SIMACC); the learned method reads the measured q and qd
 * in every case. */
typedef enum { SRC_FT, SRC_SIMACC, SRC_JOINT, SRC_LEARNED } row_source;

typedef struct {
	const char *name, *method;
	int longrun;
	row_source src;
	double paper_s; /* Table III's time, s; NAN where the paper has no row */
} table_row;

static const table_row rows[] = {
	{ "OLS(S) ft", "ols", 0, SRC_FT, 0.525 }, { "WLS(S) ft", "wls", 0, SRC_FT, 0.56 },
	{ "OLS-pc(S) ft", "ols-pc", 0, SRC_FT, NAN }, { "WLS-pc(S) ft", "wls-pc", 0, SRC_FT, NAN },
	{ "OLS(L) ft", "ols", 1, SRC_FT, 10.09 }, { "WLS(L) ft", "wls", 1, SRC_FT, 10.4 },
	{ "OLS-pc(L) ft", "ols-pc", 1, SRC_FT, NAN }, { "WLS-pc(L) ft", "wls-pc", 1, SRC_FT, NAN },
	{ "OLS(S) jt+acc", "ols", 0, SRC_SIMACC, 0.525 }, { "WLS(S) jt+acc", "wls", 0, SRC_SIMACC, 0.56 },
	{ "OLS(L) jt+acc", "ols", 1, SRC_SIMACC, 10.09 }, { "WLS(L) jt+acc", "wls", 1, SRC_SIMACC, 10.4 },
	{ "OLS(S) joint", "ols", 0, SRC_JOINT, 0.525 }, { "WLS(S) joint", "wls", 0, SRC_JOINT, 0.56 },
	{ "OLS-pc(S) joint", "ols-pc", 0, SRC_JOINT, NAN }, { "WLS-pc(S) joint", "wls-pc", 0, SRC_JOINT, NAN },
	{ "OLS(L) joint", "ols", 1, SRC_JOINT, 10.09 }, { "WLS(L) joint", "wls", 1, SRC_JOINT, 10.4 },
	{ "OLS-pc(L) joint", "ols-pc", 1, SRC_JOINT, NAN }, { "WLS-pc(L) joint", "wls-pc", 1, SRC_JOINT, NAN },
	{ "1D-CNN", "cnn", 0, SRC_LEARNED, 0.102 },
};
#define NROWS ((int)(sizeof(rows) / sizeof(rows[0])))

/* One object through every row; a line per row to f: object, row, ok,
 * feasible, seconds, then NQ values. */
static void
score_object(const tagk_arm_config *shake, const tagk_arm_config *lng, const ft_noise *ft, long o,
    tagk_arm_sample *sb, tagk_arm_sample *lb, tagk_real *qdd, FILE *f)
{
	run_object(shake, o, sb);
	run_object(lng, o, lb);
	tagk_real obj[TAGK_NPARAM];
	tagk_arm_object(shake->seed, o, obj);
	for (int r = 0; r < NROWS; r++) {
		const tagk_arm_config *ac = rows[r].longrun ? lng : shake;
		const tagk_arm_sample *sm = rows[r].longrun ? lb : sb;
		tagk_real th[TAGK_NPARAM];
		double v[NQ] = { 0 }, t0 = cli_seconds(), dt;
		int ok, feas;
		const tagk_learned_ops *lo = tagk_learned_ops_of(tagk_method_find(rows[r].method));
		if (rows[r].src == SRC_FT) {
			/* the sensor's noise stream: one per object and run length */
			uint64_t ns = shake->seed * 0x9E3779B97F4A7C15ull + (uint64_t)o * 2 + (uint64_t)rows[r].longrun;
			tagk_status st = estimate_object(rows[r].method, sm, tagk_arm_samples(ac), obj, ft, ns, th);
			dt = cli_seconds() - t0;
			ok = st == TAGK_OK && summary(th, v);
			feas = ok && tagk_triangle(th, 0);
		} else if (lo) {
			/* the network's own output: m, c, the diagonal; feasible as arm.h says */
			tagk_real out[TAGK_ARM_SUMMARY];
			ok = learned(lo, sb, tagk_arm_samples(ac), qdd, out) == TAGK_OK;
			dt = cli_seconds() - t0;
			for (int i = 0; i < NQ; i++)
				v[i] = (double)out[i];
			feas = ok && tagk_arm_summary_feasible(out);
		} else {
			tagk_status st = estimate_ls(rows[r].method, sm, tagk_arm_samples(ac), rows[r].src == SRC_SIMACC, qdd, th);
			dt = cli_seconds() - t0;
			ok = st == TAGK_OK && summary(th, v);
			feas = ok && tagk_triangle(th, 0);
		}
		fprintf(f, "%ld %d %d %d %.17g", o, r, ok, feas, dt);
		for (int i = 0; i < NQ; i++)
			fprintf(f, " %.17g", v[i]);
		fputc('\n', f);
	}
}

/* The objects shared among jobs forked workers, object o to worker o mod
 * jobs, each writing its result lines to its own temporary file parts[j]. */
static void
st_fly(const tagk_arm_config *shake, const tagk_arm_config *lng, const ft_noise *ft, long first, long nobj, int jobs,
    progress_mode pmode, FILE **parts)
{
	pid_t pids[64];
	fflush(stdout);
	for (int j = 0; j < jobs; j++) {
		if (!(parts[j] = tmpfile()))
			cli_die(EXIT_DATA, "shake-table: cannot create a temporary file");
		if ((pids[j] = fork()) < 0)
			cli_die(EXIT_DATA, "shake-table: cannot fork");
		if (pids[j] == 0) {
			tagk_arm_sample *sb = alloc_samples(shake), *lb = alloc_samples(lng);
			/* joint accelerations of either run, or the learned method's inputs */
			long nl = tagk_arm_samples(lng), ns = 2 * tagk_arm_samples(shake);
			tagk_real *qdd = malloc((size_t)(nl > ns ? nl : ns) * TAGK_ARM_JOINTS * sizeof(*qdd));
			if (!qdd)
				cli_die(EXIT_DATA, "out of memory");
			progress pg;
			progress_init(&pg, "shake-table: objects", nobj, j == 0 ? pmode : PROGRESS_QUIET);
			long mine = 0;
			for (long o = j; o < nobj; o += jobs) {
				score_object(shake, lng, ft, first + o, sb, lb, qdd, parts[j]);
				progress_step(&pg, ++mine * jobs < nobj ? mine * jobs : nobj);
			}
			progress_end(&pg);
			_exit(fflush(parts[j]) != 0 ? EXIT_DATA : 0);
		}
	}
	workers_wait("shake-table", pids, jobs);
}

/* Per row: sums of |error|, counts; the truth's mean |value| for nMAE. */
typedef struct {
	double abs_err[NROWS][NQ], secs[NROWS], truth_abs[NQ];
	long ok[NROWS], infeasible[NROWS];
} st_sums;

/* Object o's true summary (m, CoM, principal inertias about it). */
static void
st_truth(const tagk_arm_config *shake, long o, double v[NQ])
{
	tagk_real th[TAGK_NPARAM];
	tagk_arm_object(shake->seed, o, th);
	if (!summary(th, v))
		cli_die(EXIT_DATA, "shake-table: object %ld's true parameters have no summary", o);
}

/* The workers' lines summed against the truth; every object's line for
 * every row must be there. */
static void
st_gather(const tagk_arm_config *shake, long first, long nobj, int jobs, FILE **parts, st_sums *S)
{
	memset(S, 0, sizeof(*S));
	long lines = 0;
	for (long o = first; o < first + nobj; o++) {
		double v[NQ];
		st_truth(shake, o, v);
		for (int i = 0; i < NQ; i++)
			S->truth_abs[i] += fabs(v[i]) / (double)nobj;
	}
	for (int j = 0; j < jobs; j++) {
		rewind(parts[j]);
		long o;
		int r, k, feas;
		double dt, v[NQ];
		while (fscanf(parts[j], "%ld %d %d %d %lf %lf %lf %lf %lf %lf %lf %lf\n", &o, &r, &k, &feas, &dt, &v[0], &v[1],
		    &v[2], &v[3], &v[4], &v[5], &v[6]) == 12) {
			if (r < 0 || r >= NROWS || o < first || o >= first + nobj)
				cli_die(EXIT_DATA, "shake-table: a worker wrote a malformed result");
			lines++;
			S->secs[r] += dt;
			S->infeasible[r] += !feas;
			if (!k)
				continue;
			double w[NQ];
			st_truth(shake, o, w);
			S->ok[r]++;
			for (int i = 0; i < NQ; i++)
				S->abs_err[r][i] += fabs(v[i] - w[i]);
		}
		fclose(parts[j]);
	}
	if (lines != nobj * NROWS)
		cli_die(EXIT_DATA, "shake-table: the workers returned %ld of %ld results", lines, nobj * NROWS);
}

static const char *const section[] = {
	[SRC_FT] = "the paper's setting: object-level force/torque, accelerations from the simulator",
	[SRC_SIMACC] = "between them: the joint torques, q, qd and qdd from the simulator",
	[SRC_JOINT] = "an honest robot: the joint torques it logs, qdd by differences of measured qd",
	[SRC_LEARNED] = "the learned method: measured q and qd of the shake",
};

/* The MAE of row r's quantity i, NAN without an estimate. */
static double
mae(const st_sums *S, int r, int i)
{
	return S->ok[r] ? S->abs_err[r][i] / (double)S->ok[r] : (double)NAN;
}

/* The mean over the quantities of the normalised MAE: one figure per row
 * to rank by, as the paper's nMAE columns are read. */
static double
mean_nmae(const st_sums *S, int r)
{
	double x = 0;
	for (int i = 0; i < NQ; i++)
		x += mae(S, r, i) / S->truth_abs[i] / NQ;
	return x;
}

/* Table II's shape (MAE, then normalised MAE), a block per row source,
 * then the paper's real-robot row for the 1D-CNN and the ratio to it. */
static void
st_table2(const st_sums *S, const tagk_arm_config *shake, const tagk_arm_config *lng, long nobj)
{
	printf("Table II (shape): mean absolute error over the objects with an estimate\n");
	printf("%-17s %8s %8s %8s %8s %9s %9s %9s %11s %9s\n", "method", "mass kg", "CoM x m", "CoM y m", "CoM z m",
	    "Ixx", "Iyy", "Izz", "infeasible", "time s");
	for (int r = 0; r < NROWS; r++) {
		if (r == 0 || rows[r].src != rows[r - 1].src)
			printf("# %s\n", section[rows[r].src]);
		printf("%-17s", rows[r].name);
		for (int i = 0; i < NQ; i++)
			printf(i < 4 ? " %8.4f" : " %9.2e", mae(S, r, i));
		char inf[24];
		snprintf(inf, sizeof(inf), "%ld/%ld", S->infeasible[r], nobj);
		const tagk_arm_config *ac = rows[r].longrun ? lng : shake;
		printf(" %11s %9.3f\n", inf, (double)ac->duration + S->secs[r] / (double)nobj);
	}
	/* Table II, "Ours": SATYRR, 45 real objects, a different robot and
	 * different objects: printed for scale, not as a target */
	static const double paper[NQ] = { 0.176, 0.013, 0.010, 0.026, 0.002, 0.005, 0.002 };
	printf("%-17s", "paper: Ours");
	for (int i = 0; i < NQ; i++)
		printf(i < 4 ? " %8.4f" : " %9.2e", paper[i]);
	printf(" %11s %9.3f   (Table II: SATYRR, 45 real objects)\n", "3/45", 0.102);
	printf("%-17s", "1D-CNN / paper");
	for (int i = 0; i < NQ; i++)
		printf(i < 4 ? " %7.2fx" : " %8.2fx", mae(S, NROWS - 1, i) / paper[i]);
	printf("\n\nnormalised MAE (MAE / mean |truth| of the test objects)\n");
	printf("%-17s", "method");
	for (int i = 0; i < NQ; i++)
		printf(" %8s", quantity[i]);
	printf(" %8s\n", "mean");
	for (int r = 0; r < NROWS; r++) {
		printf("%-17s", rows[r].name);
		for (int i = 0; i < NQ; i++)
			printf(" %8.3f", mae(S, r, i) / S->truth_abs[i]);
		printf(" %8.3f\n", mean_nmae(S, r));
	}
	printf("\nmean |truth|    ");
	for (int i = 0; i < NQ; i++)
		printf(" %8.3g", S->truth_abs[i]);
}

/* Table III: the time per estimate, the paper's beside with the ratio. */
static void
st_table3(const st_sums *S, const tagk_arm_config *shake, const tagk_arm_config *lng, long nobj)
{
	printf("\n\nTable III: time per estimate = the excitation's duration + the estimator's compute time\n");
	printf("%-17s %10s %12s %10s %10s %8s\n", "method", "excitation", "compute ms", "total s", "paper s", "ratio");
	for (int r = 0; r < NROWS; r++) {
		const tagk_arm_config *ac = rows[r].longrun ? lng : shake;
		double total = (double)ac->duration + S->secs[r] / (double)nobj;
		char pap[16] = "-", rat[16] = "-"; /* a row the paper does not have */
		if (!isnan(rows[r].paper_s)) {
			snprintf(pap, sizeof(pap), "%.4g", rows[r].paper_s);
			snprintf(rat, sizeof(rat), "%.2fx", total / rows[r].paper_s);
		}
		printf("%-17s %10.2f %12.3f %10.3f %10s %8s\n", rows[r].name, (double)ac->duration,
		    1e3 * S->secs[r] / (double)nobj, total, pap, rat);
	}
}

/* The paper's three claims about the baselines (Sec. VI-B), judged under
 * each row source: the 1D-CNN more accurate than every unconstrained
 * OLS/WLS row (mean normalised MAE), the least squares slower (their
 * excitation), and most unconstrained least-squares solutions infeasible. */
static void
st_claims(const st_sums *S, const tagk_arm_config *shake, const tagk_arm_config *lng, long nobj)
{
	const int cnn = NROWS - 1;
	printf("\n\nThe paper's claims about its baselines, under each setting (yes: holds here)\n");
	for (row_source src = SRC_FT; src <= SRC_JOINT; src++) {
		if (src == SRC_SIMACC)
			continue;
		int better = 1, slower = 1;
		long infeasible = 0, total = 0;
		double best = INFINITY;
		for (int r = 0; r < cnn; r++) {
			if (rows[r].src != src || strstr(rows[r].method, "-pc"))
				continue;
			double x = mean_nmae(S, r);
			best = x < best ? x : best;
			better &= !(x <= mean_nmae(S, cnn));
			const tagk_arm_config *ac = rows[r].longrun ? lng : shake;
			slower &= (double)ac->duration + S->secs[r] / (double)nobj > (double)shake->duration
			    + S->secs[cnn] / (double)nobj;
			infeasible += S->infeasible[r];
			total += nobj;
		}
		printf("# %s\n", section[src]);
		printf("  1D-CNN more accurate than OLS and WLS (mean nMAE %.3f, best of theirs %.3f): %s\n",
		    mean_nmae(S, cnn), best, better ? "yes" : "no");
		printf("  OLS and WLS take longer (a longer excitation): %s\n", slower ? "yes" : "no");
		printf("  most OLS and WLS estimates not physical (%ld of %ld): %s\n", infeasible, total,
		    2 * infeasible > total ? "yes" : "no");
	}
}

int
bench_shake_table(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "q-noise", required_argument, NULL, 'Q' },
		{ "qd-noise", required_argument, NULL, 'V' },
		{ "tau-noise", required_argument, NULL, 'T' },
		{ "damping", required_argument, NULL, 'D' },
		{ "seed", required_argument, NULL, 's' },
		{ "objects", required_argument, NULL, 'n' },
		{ "first", required_argument, NULL, 'F' },
		{ "long", required_argument, NULL, 'L' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "force-noise", required_argument, NULL, 'f' },
		{ "moment-noise", required_argument, NULL, 'm' },
		{ "progress", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	tagk_arm_config shake, lng;
	tagk_arm_defaults(&shake);
	long nobj = TEST_COUNT, first = TEST_FIRST, ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double long_s = 10;
	int jobs = ncpu < 1 ? 1 : ncpu > 8 ? 8 : (int)ncpu, c;
	ft_noise ft = { 0, 0 };
	progress_mode pmode = PROGRESS_AUTO;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "j:qh", opts)) != -1) {
		if (arm_option(c, &shake))
			continue;
		switch (c) {
		case 'n': nobj = cli_long("--objects", optarg, 1, 1000000); break;
		case 'F': first = cli_long("--first", optarg, 0, 1000000000); break;
		case 'L': long_s = cli_double("--long", optarg, 0.1, 600); break;
		case 'j': jobs = (int)cli_long("--jobs", optarg, 1, 64); break;
		case 'f': ft.force = cli_double("--force-noise", optarg, 0, 100); break;
		case 'm': ft.moment = cli_double("--moment-noise", optarg, 0, 100); break;
		case 'P': pmode = PROGRESS_LINES; break;
		case 'q': pmode = PROGRESS_QUIET; break;
		case 'h':
			bench_help(stdout, "shake-table");
			cli_close(stdout, "stdout");
			return 0;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		cli_die(EXIT_USAGE, "shake-table: unexpected argument '%s'", argv[optind]);
	lng = shake;
	lng.motion = TAGK_ARM_LONG;
	lng.duration = (tagk_real)long_s;
	if (jobs > nobj)
		jobs = (int)nobj;
	double t0 = cli_seconds();
	FILE *parts[64];
	st_fly(&shake, &lng, &ft, first, nobj, jobs, pmode, parts);
	static st_sums S;
	st_gather(&shake, first, nobj, jobs, parts, &S);
	printf("# tagk-bench shake-table: paper 004 on simulated objects %ld .. %ld of seed %llu (the test split),\n"
	    "# a 4-DoF arm under PD control at 400 Hz (bench/sim/arm.h); S = the 0.5 s shake, L = %g s of joint\n"
	    "# sinusoids. Noise: q %g rad, qd %g rad/s, torque %g N m; damping %g N m s/rad. %d job%s, %.1f s.\n",
	    first, first + nobj - 1, (unsigned long long)shake.seed, long_s, (double)shake.q_noise,
	    (double)shake.qd_noise, (double)shake.tau_noise, (double)shake.damping, jobs, jobs == 1 ? "" : "s",
	    cli_seconds() - t0);
	printf("# ft rows: the paper's; a force/torque sensor at the hand, the hand's acceleration from the\n"
	    "# simulator, noise %g N and %g N m (the paper states none). joint rows: the object's share of\n"
	    "# the joint torques (the arm's own parameters known), qdd by central differences of the\n"
	    "# measured qd. -pc: physically consistent (OLS-pc is the optimum of the paper's manifold).\n\n",
	    ft.force, ft.moment);
	st_table2(&S, &shake, &lng, nobj);
	st_table3(&S, &shake, &lng, nobj);
	st_claims(&S, &shake, &lng, nobj);
	printf("\nThe paper's Table II is on SATYRR with 45 real objects, not these simulated ones: its row is\n"
	    "printed for scale. Its OLS and WLS figures are in Fig. 6 (a plot, no numbers).\n");
	cli_close(stdout, "stdout");
	return 0;
}
