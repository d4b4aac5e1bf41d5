/*
 * bench_grasp.c: tagk-bench's paper 003 experiments (bench/sim/grasp.h):
 * grasp (one run as a log) and grasp-table (the paper's Tables II and III:
 * the log-det divergence between the true and the estimated parameters of
 * the held cube, rls-ld on force or momentum rows).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_commands.h"
#include "bench_grasp.h"
#include "../cmd/cli.h"
#include "../cmd/cmdio.h"
#include "../formats/mbmodel.h"
#include "sim/tagk_sim.h"

#define DEFAULT_MODEL "panda" /* datasets/panda.model, found by cmdio_robot_path */

/* The estimator's prior for the cube: 1 kg at the flange (0.107 m along the
 * end effector's z), 0.01 kg m^2 about each axis: a guess, as the paper's
 * unknown object has no CAD model. */
static void
cube_prior(tagk_real th[TAGK_NPARAM])
{
	tagk_real c[3] = { 0, 0, (tagk_real)0.107 }, Ic[9] = { 0 };
	Ic[0] = Ic[4] = Ic[8] = (tagk_real)0.01;
	tagk_theta_from_body(1, c, Ic, th);
}

static void
load_model(const char *path, mbmodel *mm)
{
	char err[512], where[4200];
	if (mbmodel_read(cmdio_robot_path(path, where, sizeof(where)), mm, err, sizeof(err)) != 0)
		cli_die(EXIT_DATA, "%s", err);
}

typedef struct {
	double final_div;  /* D(estimate || truth) at the end */
	double t_conv;     /* from then on D stays within 2x of its final value */
	long updates, refused;
} grasp_result;

/* One run of paper 003's experiment with rls-ld on force (momentum = 0) or
 * momentum rows, each row weighted by weight (W = weight I; as alpha / weight
 * is all that matters, the weight is put on alpha). */
static grasp_result
run_case(const mbmodel *mm, const tagk_grasp_config *gc, int momentum, double alpha, double weight)
{
	tagk_grasp g;
	if (tagk_grasp_init(&g, gc, &mm->m, mm->theta) != TAGK_OK)
		cli_die(EXIT_DATA, "grasp-table: the model is not a 7-joint chain (a Panda-like arm)");
	const int nv = g.nv, nb = g.model.nb, rows = momentum ? 6 : nv;
	tagk_config cfg;
	tagk_real th0[TAGK_NPARAM];
	cube_prior(th0);
	tagk_config_defaults(&cfg, tagk_window_method("rls-ld"), TAGK_NPARAM, rows);
	cfg.theta0 = th0;
	/* weight < 0: the reference implementation's, 1 / (N dim tau) */
	double w = weight > 0 ? weight : 1.0 / ((double)(g.steps + 1) * rows);
	if (tagk_config_set(&cfg, "alpha", alpha / w) != TAGK_OK)
		cli_die(EXIT_DATA, "grasp-table: alpha out of range");
	size_t len = tagk_est_workspace_len(&cfg);
	tagk_real *ws = malloc(len * sizeof(*ws));
	double *div = malloc((size_t)(g.steps + 1) * sizeof(*div)), *tt = malloc((size_t)(g.steps + 1) * sizeof(*tt));
	tagk_estimator est;
	if (!ws || !div || !tt)
		cli_die(EXIT_DATA, "out of memory");
	if (tagk_est_init(&est, &cfg, ws, len) != TAGK_OK)
		cli_die(EXIT_DATA, "grasp-table: rls-ld refused its prior");
	static tagk_real Y[TAGK_MB_MAX_DOF * TAGK_NPARAM * TAGK_MB_MAX_BODIES];
	tagk_real Yh0[6 * TAGK_NPARAM * TAGK_MB_MAX_BODIES], A[TAGK_MB_MAX_DOF * TAGK_NPARAM], b[TAGK_MB_MAX_DOF];
	grasp_result r = { 0, 0, 0, 0 };
	long n = 0;
	tagk_grasp_sample s;
	for (long k = 0; tagk_grasp_next(&g, &s) == TAGK_OK; k++) {
		tagk_mb_kin kin;
		if (tagk_mb_kinematics(&g.model, s.R, s.p, s.q, s.qd, momentum ? NULL : s.qdd, &kin) != TAGK_OK)
			cli_die(EXIT_DATA, "grasp-table: the simulation left the finite numbers at %g s", (double)s.t);
		if (momentum) {
			tagk_mb_momentum_rows(&kin, k ? Yh0 : NULL, g.theta_known, g.ee, Y, A, b);
			if (k == 0) {
				memcpy(Yh0, Y, sizeof(*Y) * 6 * (size_t)(TAGK_NPARAM * nb));
				continue; /* the reference sample: its difference is 0 */
			}
		} else {
			tagk_mb_force_rows(&kin, &g.model, s.tau, g.theta_known, g.ee, Y, A, b);
		}
		tagk_real th[TAGK_NPARAM];
		if (tagk_est_update(&est, A, b, rows, th) != TAGK_OK) {
			r.refused++;
			continue;
		}
		r.updates++;
		div[n] = (double)tagk_logdet_divergence(th, g.target);
		tt[n++] = (double)s.t;
	}
	r.final_div = n ? div[n - 1] : (double)NAN;
	r.t_conv = n ? tt[0] : (double)NAN;
	for (long i = n - 1; i >= 0; i--)
		if (!(div[i] <= 2 * r.final_div) || div[i] < 0) {
			r.t_conv = i + 1 < n ? tt[i + 1] : tt[n - 1];
			break;
		}
	free(ws);
	free(div);
	free(tt);
	return r;
}

/* The log's columns: time, the joints', the base's for a free one, truth. */
static int
log_columns(int nj, int floating, char names[][24])
{
	int k = 0;
	snprintf(names[k++], 24, "t");
	static const char *const jp[] = { "q", "qd", "qdd", "tau" };
	for (int g = 0; g < 4; g++)
		for (int j = 0; j < nj; j++)
			snprintf(names[k++], 24, "%s%d", jp[g], j + 1);
	if (floating) {
		static const char *const bp[] = { "qw", "qx", "qy", "qz", "px", "py", "pz", "wx", "wy", "wz", "vx", "vy",
			"vz", "dwx", "dwy", "dwz", "dvx", "dvy", "dvz" };
		for (int j = 0; j < 19; j++)
			snprintf(names[k++], 24, "base_%s", bp[j]);
	}
	for (int j = 0; j < TAGK_NPARAM; j++)
		snprintf(names[k++], 24, "true_%s", tagk_param_names[j]);
	return k;
}

int
bench_grasp(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "base", required_argument, NULL, 'b' },
		{ "target", required_argument, NULL, 't' },
		{ "robot-error", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "duration", required_argument, NULL, 'd' },
		{ "model", required_argument, NULL, 'm' },
		{ "model-out", required_argument, NULL, 'M' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *model = DEFAULT_MODEL, *outname = NULL, *model_out = NULL;
	tagk_grasp_config gc;
	tagk_grasp_defaults(&gc);
	int c;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "o:h", opts)) != -1) {
		switch (c) {
		case 'b':
			if (strcmp(optarg, "fixed") && strcmp(optarg, "floating"))
				cli_die(EXIT_USAGE, "--base: '%s' is not fixed or floating", optarg);
			gc.floating = strcmp(optarg, "floating") == 0;
			break;
		case 't': gc.target_mass = (tagk_real)cli_double("--target", optarg, 1e-3, 1e4); break;
		case 'r': gc.robot_error = (tagk_real)cli_double("--robot-error", optarg, 0, 0.5); break;
		case 's': gc.seed = cli_u64("--seed", optarg); break;
		case 'd': gc.duration = (tagk_real)cli_double("--duration", optarg, 0.01, 3600); break;
		case 'm': model = optarg; break;
		case 'M': model_out = optarg; break;
		case 'o': outname = optarg; break;
		case 'h':
			bench_help(stdout, "grasp");
			cli_close(stdout, "stdout");
			return 0;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		cli_die(EXIT_USAGE, "grasp: unexpected argument '%s'", argv[optind]);
	mbmodel mm;
	load_model(model, &mm);
	tagk_grasp g;
	if (tagk_grasp_init(&g, &gc, &mm.m, mm.theta) != TAGK_OK)
		cli_die(EXIT_DATA, "grasp: %s: the model is not a 7-joint chain (a Panda-like arm)", model);
	if (model_out) {
		/* what the estimator knows: the (perturbed) robot on this base */
		mbmodel known = mm;
		known.m = g.model;
		memcpy(known.theta, g.theta_known, sizeof(known.theta));
		char what[160];
		snprintf(what, sizeof(what), "tagk-bench grasp: the robot the estimator knows (%s base, robot error %g, "
		    "seed %llu)", gc.floating ? "floating" : "fixed", (double)gc.robot_error, (unsigned long long)gc.seed);
		cmdio_file f;
		cmdio_file_open(&f, model_out);
		if (mbmodel_write(f.f, &known, what) != 0)
			cli_die(EXIT_DATA, "%s: cannot write the model: %s", model_out, strerror(errno));
		cmdio_file_commit(&f);
	}
	char names[4 * TAGK_MB_MAX_BODIES + 19 + TAGK_NPARAM + 1][24];
	const char *np[sizeof(names) / sizeof(names[0])];
	int nc = log_columns(g.nj, gc.floating, names), off = gc.floating ? 6 : 0;
	for (int i = 0; i < nc; i++)
		np[i] = names[i];
	sink *out = cmdio_open_output(outname, TBL_AUTO);
	cmdio_header(out, nc, np);
	tagk_grasp_sample s;
	double row[sizeof(names) / sizeof(names[0])];
	tagk_status st;
	long n = 0;
	while ((st = tagk_grasp_next(&g, &s)) == TAGK_OK) {
		int k = 0;
		row[k++] = (double)s.t;
		for (int j = 0; j < g.nj; j++)
			row[k++] = (double)s.q[j];
		for (int j = 0; j < g.nj; j++)
			row[k++] = (double)s.qd[off + j];
		for (int j = 0; j < g.nj; j++)
			row[k++] = (double)s.qdd[off + j];
		for (int j = 0; j < g.nj; j++)
			row[k++] = (double)s.tau[off + j];
		if (gc.floating) {
			tagk_real q[4];
			tagk_qfrommatrix(s.R, q);
			for (int j = 0; j < 4; j++)
				row[k++] = (double)q[j];
			for (int j = 0; j < 3; j++)
				row[k++] = (double)s.p[j];
			for (int j = 0; j < 6; j++)
				row[k++] = (double)s.qd[j];
			for (int j = 0; j < 6; j++)
				row[k++] = (double)s.qdd[j];
		}
		for (int j = 0; j < TAGK_NPARAM; j++)
			row[k++] = (double)g.target[j];
		cmdio_row(out, row);
		n++;
	}
	if (st != TAGK_EZERO)
		cli_die(EXIT_DATA, "grasp: the simulation failed at sample %ld: %s", n, tagk_strerror(st));
	cmdio_commit(out);
	cli_warn("grasp: %s base, %g kg cube, robot error %g, seed %llu: %ld samples at %g Hz", gc.floating ? "floating"
	    : "fixed", (double)gc.target_mass, (double)gc.robot_error, (unsigned long long)gc.seed, n, 1 / (double)gc.dt);
	return 0;
}

int
bench_grasp_table(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "seed", required_argument, NULL, 's' },
		{ "duration", required_argument, NULL, 'd' },
		{ "weight", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *model = DEFAULT_MODEL;
	uint64_t seed = 1;
	double duration = 20, weight = 1;
	int c;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'm': model = optarg; break;
		case 's': seed = cli_u64("--seed", optarg); break;
		case 'd': duration = cli_double("--duration", optarg, 0.1, 3600); break;
		case 'w':
			weight = strcmp(optarg, "reference") == 0 ? -1 : cli_double("--weight", optarg, 1e-12, 1e12);
			break;
		case 'h':
			bench_help(stdout, "grasp-table");
			cli_close(stdout, "stdout");
			return 0;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		cli_die(EXIT_USAGE, "grasp-table: unexpected argument '%s'", argv[optind]);
	mbmodel mm;
	load_model(model, &mm);
	int chain = mm.m.nb == 8;
	for (int i = 1; i < mm.m.nb; i++)
		chain &= mm.m.parent[i] == i - 1;
	if (!chain)
		cli_die(EXIT_DATA, "grasp-table: %s: the model is not a 7-joint chain (a Panda-like arm)", model);
	tagk_grasp_config gc;
	tagk_grasp_defaults(&gc);
	gc.seed = seed;
	gc.duration = (tagk_real)duration;
	printf("# tagk-bench grasp-table: paper 003, %s holding a cube, rls-ld, seed %llu, %g s at %g Hz\n", model,
	    (unsigned long long)seed, duration, 1 / (double)gc.dt);
	printf("# D = log-det divergence D(estimate || truth) of the cube's parameters at the end;\n"
	    "# t_conv = time after which D stays within 2x of that (s). alpha as the paper's Table I;\n");
	if (weight > 0)
		printf("# rows weighted %g (the paper does not say; --weight reference weights them\n"
		    "# 1 / (N rows per sample), as the reference implementation does).\n\n", weight);
	else
		printf("# rows weighted 1 / (N rows per sample), as the reference implementation does.\n\n");
	printf("Table II: ground (fixed base, gravity), force rows\n");
	printf("%-8s %-12s %6s %10s %10s %8s\n", "target", "robot error", "alpha", "D", "paper", "t_conv");
	static const struct { double kg, rho, alpha, paper; } t2[] = {
		{ 5, 0, 50, 0.021681 }, { 5, 0.025, 100, 0.024287 }, { 10, 0, 50, 0.010557 }, { 10, 0.025, 100, 0.047 },
	};
	for (size_t i = 0; i < sizeof(t2) / sizeof(t2[0]); i++) {
		gc.floating = 0;
		gc.target_mass = (tagk_real)t2[i].kg;
		gc.robot_error = (tagk_real)t2[i].rho;
		grasp_result r = run_case(&mm, &gc, 0, t2[i].alpha, weight);
		printf("%-8s %-12s %6g %10.4g %10.5g %8.2f\n", t2[i].kg == 5 ? "5 kg" : "10 kg",
		    t2[i].rho ? "2.5 %" : "0 %", t2[i].alpha, r.final_div, t2[i].paper, r.t_conv);
		fflush(stdout);
	}
	printf("\nTable III: orbit (free base, no gravity), force (alpha 100) vs momentum (alpha 0.1) rows;\n"
	    "the last D: force rows at the momentum rows' alpha 0.1\n");
	printf("%-8s %-12s %10s %10s %10s %10s %8s %8s %12s\n", "target", "robot error", "D force", "paper", "D mom.",
	    "paper", "t_force", "t_mom.", "D force 0.1");
	static const struct { double kg, rho, pf, pm; } t3[] = {
		{ 5, 0.025, 0.31147, 0.17938 }, { 10, 0.025, 0.21583, 0.090261 },
		{ 50, 0, 0.13266, 0.007674 }, { 50, 0.025, 0.145173, 0.01927 },
	};
	for (size_t i = 0; i < sizeof(t3) / sizeof(t3[0]); i++) {
		gc.floating = 1;
		gc.target_mass = (tagk_real)t3[i].kg;
		gc.robot_error = (tagk_real)t3[i].rho;
		grasp_result f = run_case(&mm, &gc, 0, 100, weight), m = run_case(&mm, &gc, 1, 0.1, weight);
		grasp_result f1 = run_case(&mm, &gc, 0, 0.1, weight);
		char name[16];
		snprintf(name, sizeof(name), "%g kg", t3[i].kg);
		printf("%-8s %-12s %10.4g %10.5g %10.4g %10.5g %8.2f %8.2f %12.4g\n", name, t3[i].rho ? "2.5 %" : "0 %",
		    f.final_div, t3[i].pf, m.final_div, t3[i].pm, f.t_conv, m.t_conv, f1.final_div);
		fflush(stdout);
	}
	cli_close(stdout, "stdout");
	return 0;
}
