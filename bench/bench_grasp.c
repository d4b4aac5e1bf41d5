/*
 * bench_grasp.c: tagk-bench grasp, one run of paper 003's experiment
 * (bench/sim/grasp.h) as a joint log; grasp_table.c has the tables.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_commands.h"
#include "bench_grasp.h"
#include "../cmd/common/cli.h"
#include "../cmd/common/cmdio.h"
#include "../formats/mbmodel.h"
#include "sim/tagk_sim.h"


tagk_grasp_motion
grasp_motion_arg(const char *s)
{
	if (strcmp(s, "task") && strcmp(s, "joint"))
		cli_die(EXIT_USAGE, "--motion: '%s' is not task or joint", s);
	return strcmp(s, "task") == 0 ? TAGK_GRASP_TASK : TAGK_GRASP_JOINT;
}

void
grasp_load_model(const char *path, mbmodel *mm)
{
	char err[512], where[4200];
	if (mbmodel_read(cmdio_robot_path(path, where, sizeof(where)), mm, err, sizeof(err)) != 0)
		cli_die(EXIT_DATA, "%s", err);
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
		{ "dt", required_argument, NULL, 'D' },
		{ "motion", required_argument, NULL, 'n' },
		{ "model", required_argument, NULL, 'm' },
		{ "model-out", required_argument, NULL, 'M' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *model = GRASP_DEFAULT_MODEL, *outname = NULL, *model_out = NULL;
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
		case 'D': gc.dt = (tagk_real)cli_double("--dt", optarg, 1e-4, 0.1); break;
		case 'n': gc.motion = grasp_motion_arg(optarg); break;
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
	if (gc.duration < gc.dt)
		cli_die(EXIT_USAGE, "grasp: --duration %g is shorter than --dt %g", (double)gc.duration, (double)gc.dt);
	mbmodel mm;
	grasp_load_model(model, &mm);
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
	cli_warn("grasp: %s base, %s motion, %g kg cube, robot error %g, seed %llu: %ld samples at %g Hz",
	    gc.floating ? "floating" : "fixed", gc.motion == TAGK_GRASP_TASK ? "task-space" : "joint", (double)gc.target_mass, (double)gc.robot_error, (unsigned long long)gc.seed, n, 1 / (double)gc.dt);
	return 0;
}
