/*
 * grasp_table.c: tagk-bench grasp-table, paper 003's Tables II and III (the
 * log-det divergence between the true and the estimated parameters of a
 * held cube, rls-ld on force or momentum rows), beside the paper's cells
 * with ratios, its four qualitative claims judged, and a sweep over the
 * settings the paper's text lost (the time steps and the rows' weight).
 *
 * Rows come from measured signals by default: velocities with noise, their
 * accelerations by central differences over the estimation step, the
 * floating base's twist measured the same way (so its zero-wrench rows are
 * noisy too); --signals exact gives the simulator's true qd and qdd.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_commands.h"
#include "bench_grasp.h"
#include "../cmd/common/cli.h"
#include "../cmd/common/cmdio.h"
#include "sim/tagk_sim.h"

/* What the paper leaves open, as options (bench_table.c's help). */
typedef struct {
	double dt, est_dt;  /* simulation and estimation steps, s */
	double weight;      /* every row's weight; < 0: the reference's 1 / (N rows per sample) */
	double qd_noise;    /* rad/s, on the measured joint velocities */
	double base_noise;  /* rad/s and m/s, on the measured base twist (orbit) */
	int exact;          /* 1: the simulator's qd, qdd (no velocity noise) */
	tagk_grasp_motion motion;
	uint64_t seed;
	double duration;
} grasp_opts;

typedef struct {
	double d_target;   /* D(estimate || truth), the cube alone, at the end */
	double d_ee;       /* the same for the end effector with the cube (Fig. 3) */
	double t_conv;     /* from then on d_target stays within 2x of its end value;
	                    * NaN if that end value is not below half the prior's D */
	long updates, refused;
} grasp_result;

/* The paper's cells (Tables II and III) and alphas (Table I). */
static const struct { double kg, rho, alpha, paper; } t2[4] = {
	{ 5, 0, 50, 0.021681 }, { 5, 0.025, 100, 0.024287 }, { 10, 0, 50, 0.010557 }, { 10, 0.025, 100, 0.047 },
};
static const struct { double kg, rho, pf, pm; } t3[4] = {
	{ 5, 0.025, 0.31147, 0.17938 }, { 10, 0.025, 0.21583, 0.090261 },
	{ 50, 0, 0.13266, 0.007674 }, { 50, 0.025, 0.145173, 0.01927 },
};
#define ALPHA_FORCE_ORBIT 100
#define ALPHA_MOMENTUM 0.1

typedef struct {
	grasp_result g[4], f[4], m[4], f01[4]; /* ground; orbit force, momentum, force at alpha 0.1 */
	int have_f01;
} grasp_tables;

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

/* rls-ld for the cube on rows of the given count, its alpha scaled by the
 * rows' weight (only alpha / W matters, so W is put on alpha). */
static void
estimator_init(tagk_estimator *est, tagk_real **ws, int rows, double alpha, double weight, long updates)
{
	tagk_config cfg;
	static tagk_real th0[TAGK_NPARAM];
	cube_prior(th0);
	tagk_config_defaults(&cfg, tagk_window_method("rls-ld"), TAGK_NPARAM, rows);
	cfg.theta0 = th0;
	double w = weight > 0 ? weight : 1.0 / ((double)updates * rows);
	if (tagk_config_set(&cfg, "alpha", alpha / w) != TAGK_OK)
		cli_die(EXIT_DATA, "grasp-table: alpha out of range");
	size_t len = tagk_est_workspace_len(&cfg);
	if (!(*ws = malloc(len * sizeof(**ws))))
		cli_die(EXIT_DATA, "out of memory");
	if (tagk_est_init(est, &cfg, *ws, len) != TAGK_OK)
		cli_die(EXIT_DATA, "grasp-table: rls-ld refused its prior");
}

/* One estimation sample's signals: the true ones, or the measured
 * velocities with accelerations differentiated from the neighbouring
 * estimation samples' measured velocities (prev, next) over 2 h. */
static void
signals(const tagk_grasp_sample *prev, const tagk_grasp_sample *cur, const tagk_grasp_sample *next, int nv,
    int exact, double h, tagk_real *qd, tagk_real *qdd)
{
	for (int j = 0; j < nv; j++) {
		qd[j] = exact ? cur->qd[j] : cur->qdm[j];
		qdd[j] = exact ? cur->qdd[j] : (tagk_real)(((double)next->qdm[j] - (double)prev->qdm[j]) / (2 * h));
	}
}

/* The time after which d[] stays within 2x of its last value. */
static double
convergence_time(const double *d, const double *t, long n)
{
	if (n == 0)
		return NAN;
	for (long i = n - 1; i >= 0; i--)
		if (!(d[i] <= 2 * d[n - 1]) || d[i] < 0)
			return i + 1 < n ? t[i + 1] : t[n - 1];
	return t[0];
}

typedef struct {
	tagk_grasp g;
	tagk_estimator est;
	int momentum, rows;
	tagk_real Yh0[6 * TAGK_NPARAM * TAGK_MB_MAX_BODIES];
	long k;                 /* estimation samples so far */
	double *d, *t;
	long n;
} grasp_run;

/* Rows of one estimation sample, an update, and the divergences. */
static void
update(grasp_run *r, const tagk_grasp_sample *s, const tagk_real *qd, const tagk_real *qdd, grasp_result *res)
{
	static tagk_real Y[TAGK_MB_MAX_DOF * TAGK_NPARAM * TAGK_MB_MAX_BODIES];
	tagk_real A[TAGK_MB_MAX_DOF * TAGK_NPARAM], b[TAGK_MB_MAX_DOF], th[TAGK_NPARAM];
	tagk_grasp *g = &r->g;
	tagk_mb_kin kin;
	if (tagk_mb_kinematics(&g->model, s->R, s->p, s->q, qd, r->momentum ? NULL : qdd, &kin) != TAGK_OK)
		cli_die(EXIT_DATA, "grasp-table: the simulation left the finite numbers at %g s", (double)s->t);
	if (r->momentum) {
		tagk_mb_momentum_rows(&kin, r->k ? r->Yh0 : NULL, g->theta_known, g->ee, Y, A, b);
		if (r->k++ == 0) {
			memcpy(r->Yh0, Y, sizeof(*Y) * 6 * (size_t)(TAGK_NPARAM * g->model.nb));
			return; /* the reference sample: its difference is 0 */
		}
	} else {
		tagk_mb_force_rows(&kin, &g->model, s->tau, g->theta_known, g->ee, Y, A, b);
		r->k++;
	}
	if (tagk_est_update(&r->est, A, b, r->rows, th) != TAGK_OK) {
		res->refused++;
		return;
	}
	res->updates++;
	tagk_real ee[TAGK_NPARAM];
	for (int i = 0; i < TAGK_NPARAM; i++)
		ee[i] = g->theta_known[TAGK_NPARAM * g->ee + i] + th[i];
	r->d[r->n] = (double)tagk_logdet_divergence(th, g->target);
	r->t[r->n++] = (double)s->t;
	res->d_target = r->d[r->n - 1];
	res->d_ee = (double)tagk_logdet_divergence(ee, g->theta_true + TAGK_NPARAM * g->ee);
}

/* One run of paper 003's experiment with rls-ld on force (momentum 0) or
 * momentum rows. Every stride-th simulated sample is an estimation sample;
 * with measured signals each is used once its successor is known. */
static grasp_result
run_case(const mbmodel *mm, const tagk_grasp_config *gc, const grasp_opts *o, int momentum, double alpha)
{
	static grasp_run r;
	memset(&r, 0, sizeof(r));
	if (tagk_grasp_init(&r.g, gc, &mm->m, mm->theta) != TAGK_OK)
		cli_die(EXIT_DATA, "grasp-table: the model is not a 7-joint chain (a Panda-like arm)");
	r.momentum = momentum;
	r.rows = momentum ? 6 : r.g.nv;
	long stride = lround(o->est_dt / o->dt), n = r.g.steps / stride + 1;
	tagk_real *ws;
	estimator_init(&r.est, &ws, r.rows, alpha, o->weight, n);
	r.d = malloc((size_t)n * sizeof(*r.d));
	r.t = malloc((size_t)n * sizeof(*r.t));
	if (!r.d || !r.t)
		cli_die(EXIT_DATA, "out of memory");
	grasp_result res = { NAN, NAN, NAN, 0, 0 };
	static tagk_grasp_sample ring[3], s; /* the last three estimation samples */
	tagk_real qd[TAGK_MB_MAX_DOF], qdd[TAGK_MB_MAX_DOF];
	long kept = 0;
	for (long k = 0; tagk_grasp_next(&r.g, &s) == TAGK_OK; k++) {
		if (k % stride)
			continue;
		ring[kept % 3] = s;
		kept++;
		if (o->exact) {
			signals(&s, &s, &s, r.g.nv, 1, o->est_dt, qd, qdd);
			update(&r, &s, qd, qdd, &res);
		} else if (kept >= 3) {
			const tagk_grasp_sample *prev = &ring[(kept - 3) % 3], *cur = &ring[(kept - 2) % 3];
			signals(prev, cur, &s, r.g.nv, 0, o->est_dt, qd, qdd);
			update(&r, cur, qd, qdd, &res);
		}
	}
	tagk_real th0[TAGK_NPARAM];
	cube_prior(th0);
	res.t_conv = res.d_target < 0.5 * (double)tagk_logdet_divergence(th0, r.g.target)
	    ? convergence_time(r.d, r.t, r.n) : (double)NAN;
	free(ws);
	free(r.d);
	free(r.t);
	return res;
}

static tagk_grasp_config
case_config(const grasp_opts *o, int floating, double kg, double rho)
{
	tagk_grasp_config gc;
	tagk_grasp_defaults(&gc);
	gc.seed = o->seed;
	gc.duration = (tagk_real)o->duration;
	gc.dt = (tagk_real)o->dt;
	gc.motion = o->motion;
	gc.qd_noise = o->exact ? 0 : (tagk_real)o->qd_noise;
	gc.base_noise = o->exact ? 0 : (tagk_real)o->base_noise;
	gc.floating = floating;
	gc.target_mass = (tagk_real)kg;
	gc.robot_error = (tagk_real)rho;
	return gc;
}

static void
run_tables(const mbmodel *mm, const grasp_opts *o, int with_f01, grasp_tables *T)
{
	for (int i = 0; i < 4; i++) {
		tagk_grasp_config gc = case_config(o, 0, t2[i].kg, t2[i].rho);
		T->g[i] = run_case(mm, &gc, o, 0, t2[i].alpha);
	}
	for (int i = 0; i < 4; i++) {
		tagk_grasp_config gc = case_config(o, 1, t3[i].kg, t3[i].rho);
		T->f[i] = run_case(mm, &gc, o, 0, ALPHA_FORCE_ORBIT);
		T->m[i] = run_case(mm, &gc, o, 1, ALPHA_MOMENTUM);
		if (with_f01)
			T->f01[i] = run_case(mm, &gc, o, 0, ALPHA_MOMENTUM);
	}
	T->have_f01 = with_f01;
}

/* The paper's four qualitative claims (section IV-B), each with the
 * measure it is judged by; the thresholds come from the paper's own text
 * and tables, never from ours. */
typedef struct {
	double err_ratio;  /* the larger D(2.5 %) / D(0 %) on the ground */
	int errors_minor;  /* "only a minor impact": err_ratio at most 5 (the paper's own: 1.1, 4.5) */
	int mom_beats;     /* momentum rows' D below force rows' in all four orbit cells */
	int heavier;       /* at 2.5 %, D falls from 5 to 10 to 50 kg for both row kinds */
	double speedup;    /* t_conv ground / t_conv orbit (momentum), 5 kg, 2.5 % */
	int faster30;      /* "about thirty times faster": speedup at least 10 */
} grasp_claims;

static grasp_claims
judge(const grasp_tables *T)
{
	grasp_claims c;
	c.err_ratio = fmax(T->g[1].d_target / T->g[0].d_target, T->g[3].d_target / T->g[2].d_target);
	c.errors_minor = c.err_ratio <= 5;
	c.mom_beats = 1;
	for (int i = 0; i < 4; i++)
		c.mom_beats &= T->m[i].d_target < T->f[i].d_target;
	c.heavier = T->f[0].d_target > T->f[1].d_target && T->f[1].d_target > T->f[3].d_target
	    && T->m[0].d_target > T->m[1].d_target && T->m[1].d_target > T->m[3].d_target;
	c.speedup = T->g[1].t_conv / T->m[0].t_conv; /* NaN if either did not converge */
	c.faster30 = c.speedup >= 10;
	return c;
}

static const char *
yes(int b)
{
	return b ? "yes" : "no";
}

static void
print_header(const char *model, const grasp_opts *o)
{
	printf("# tagk-bench grasp-table: paper 003, %s holding a cube, rls-ld, seed %llu, %g s;\n"
	    "# %s motion, simulation step %g ms, estimation step %g ms, ", model, (unsigned long long)o->seed,
	    o->duration, o->motion == TAGK_GRASP_TASK ? "task-space (eq. 28)" : "joint-sinusoid", o->dt * 1e3,
	    o->est_dt * 1e3);
	if (o->weight > 0)
		printf("rows weighted %g;\n", o->weight);
	else
		printf("rows weighted 1 / (N rows per sample) as the reference code;\n");
	if (o->exact)
		printf("# rows from the simulator's exact velocities and accelerations (--signals exact).\n");
	else
		printf("# rows from measured signals: joint velocities with %g rad/s noise, the base's twist\n"
		    "# (orbit) with %g rad/s and m/s, accelerations by central differences over the\n"
		    "# estimation step; torques with 5 %% noise.\n", o->qd_noise, o->base_noise);
	printf("# D = log-det divergence D(estimate || truth) at the end: of the cube (the tables'),\n"
	    "# and of the end effector with the cube (Fig. 3's); t_conv = the time after which the\n"
	    "# cube's D stays within 2x of its end value (s; nan: that end is not below half the\n"
	    "# prior's D, no convergence); ratio = D / paper. alpha: Table I.\n\n");
}

static void
print_tables(const grasp_tables *T)
{
	printf("Table II: ground (fixed base, gravity), force rows\n");
	printf("%-6s %-6s %6s %10s %9s %7s %10s %7s\n", "target", "error", "alpha", "D", "paper", "ratio", "D ee+cube",
	    "t_conv");
	for (int i = 0; i < 4; i++)
		printf("%-6s %-6s %6g %10.4g %9.5g %7.3g %10.4g %7.2f\n", t2[i].kg == 5 ? "5 kg" : "10 kg",
		    t2[i].rho ? "2.5 %" : "0 %", t2[i].alpha, T->g[i].d_target, t2[i].paper, T->g[i].d_target / t2[i].paper,
		    T->g[i].d_ee, T->g[i].t_conv);
	printf("\nTable III: orbit (free base, no gravity), force rows (alpha %d) and momentum rows (alpha %g)\n",
	    ALPHA_FORCE_ORBIT, ALPHA_MOMENTUM);
	printf("%-6s %-6s %9s %8s %6s %9s %8s %6s %9s %9s %6s %6s", "target", "error", "D force", "paper", "ratio",
	    "D mom.", "paper", "ratio", "ee force", "ee mom.", "t_f", "t_m");
	printf(T->have_f01 ? " %11s\n" : "\n", "force a 0.1");
	for (int i = 0; i < 4; i++) {
		char name[16];
		snprintf(name, sizeof(name), "%g kg", t3[i].kg);
		printf("%-6s %-6s %9.4g %8.5g %6.3g %9.4g %8.5g %6.3g %9.4g %9.4g %6.2f %6.2f", name,
		    t3[i].rho ? "2.5 %" : "0 %", T->f[i].d_target, t3[i].pf, T->f[i].d_target / t3[i].pf, T->m[i].d_target,
		    t3[i].pm, T->m[i].d_target / t3[i].pm, T->f[i].d_ee, T->m[i].d_ee, T->f[i].t_conv, T->m[i].t_conv);
		if (T->have_f01)
			printf(" %11.4g", T->f01[i].d_target);
		printf("\n");
	}
}

static void
print_claims(const grasp_tables *T)
{
	grasp_claims c = judge(T);
	printf("\nThe paper's claims (section IV-B), judged on the cube's D:\n");
	printf("  %-3s a 2.5 %% robot error has only a minor impact: D(2.5 %%) / D(0 %%) on the ground at most\n"
	    "      %.3g (at most 5 counts, the paper's own ratios being 1.1 and 4.5)\n", yes(c.errors_minor), c.err_ratio);
	printf("  %-3s momentum rows beat force rows in orbit, in all four cells\n", yes(c.mom_beats));
	printf("  %-3s heavier targets are estimated better: D falls from 5 to 10 to 50 kg (2.5 %%), both rows\n",
	    yes(c.heavier));
	printf("  %-3s orbit converges about 30x faster than ground: t_conv ground / orbit (momentum, 5 kg,\n"
	    "      2.5 %%) = %.3g (at least 10 counts)\n", yes(c.faster30), c.speedup);
}

/* --sweep: the steps and weights the paper lost, one line each, every
 * cell's ratio to the paper and the four claims. */
static void
print_sweep(const mbmodel *mm, const grasp_opts *base)
{
	static const double steps[][2] = { { 0.01, 0.01 }, { 0.001, 0.01 }, { 0.001, 0.001 } };
	static const double weights[] = { 1, 10, 1000, -1 };
	printf("Sweep: D / paper for every cell (Table II: g1-g4; Table III force f1-f4, momentum m1-m4),\n"
	    "and the claims (minor errors, momentum beats force, heavier better, orbit 30x faster)\n");
	printf("%5s %5s %6s", "dt ms", "est", "W");
	for (int i = 0; i < 12; i++)
		printf(" %5s%d", i < 4 ? "g" : i < 8 ? "f" : "m", i % 4 + 1);
	printf("  claims\n");
	for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++)
		for (size_t w = 0; w < sizeof(weights) / sizeof(weights[0]); w++) {
			grasp_opts o = *base;
			o.dt = steps[s][0];
			o.est_dt = steps[s][1];
			o.weight = weights[w];
			grasp_tables T;
			run_tables(mm, &o, 0, &T);
			grasp_claims c = judge(&T);
			char wn[16];
			snprintf(wn, sizeof(wn), weights[w] > 0 ? "%g" : "ref", weights[w]);
			printf("%5g %5g %6s", o.dt * 1e3, o.est_dt * 1e3, wn);
			for (int i = 0; i < 4; i++)
				printf(" %6.3g", T.g[i].d_target / t2[i].paper);
			for (int i = 0; i < 4; i++)
				printf(" %6.3g", T.f[i].d_target / t3[i].pf);
			for (int i = 0; i < 4; i++)
				printf(" %6.3g", T.m[i].d_target / t3[i].pm);
			printf("  %s %s %s %s\n", yes(c.errors_minor), yes(c.mom_beats), yes(c.heavier), yes(c.faster30));
			fflush(stdout);
		}
}

static void
parse_options(int argc, char **argv, const struct option *opts, const char **model, grasp_opts *o, int *sweep)
{
	int c;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'm': *model = optarg; break;
		case 's': o->seed = cli_u64("--seed", optarg); break;
		case 'd': o->duration = cli_double("--duration", optarg, 0.1, 3600); break;
		case 'w':
			o->weight = strcmp(optarg, "reference") == 0 ? -1 : cli_double("--weight", optarg, 1e-12, 1e12);
			break;
		case 'D': o->dt = cli_double("--dt", optarg, 1e-4, 0.1); break;
		case 'E': o->est_dt = cli_double("--est-dt", optarg, 1e-4, 1); break;
		case 'S':
			if (strcmp(optarg, "measured") && strcmp(optarg, "exact"))
				cli_die(EXIT_USAGE, "--signals: '%s' is not measured or exact", optarg);
			o->exact = strcmp(optarg, "exact") == 0;
			break;
		case 'q': o->qd_noise = cli_double("--qd-noise", optarg, 0, 10); break;
		case 'B': o->base_noise = cli_double("--base-noise", optarg, 0, 10); break;
		case 'n': o->motion = grasp_motion_arg(optarg); break;
		case 'W': *sweep = 1; break;
		case 'h':
			bench_help(stdout, "grasp-table");
			cli_close(stdout, "stdout");
			exit(0);
		default: exit(EXIT_USAGE);
		}
	}
	if (optind < argc)
		cli_die(EXIT_USAGE, "grasp-table: unexpected argument '%s'", argv[optind]);
	double r = o->est_dt / o->dt;
	if (fabs(r - round(r)) > 1e-9 * r)
		cli_die(EXIT_USAGE, "grasp-table: --est-dt %g is not a whole multiple of --dt %g", o->est_dt, o->dt);
	if (o->duration < 3 * o->est_dt)
		cli_die(EXIT_USAGE, "grasp-table: --duration %g holds fewer than three estimation steps", o->duration);
}

int
bench_grasp_table(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "seed", required_argument, NULL, 's' },
		{ "duration", required_argument, NULL, 'd' },
		{ "weight", required_argument, NULL, 'w' },
		{ "dt", required_argument, NULL, 'D' },
		{ "est-dt", required_argument, NULL, 'E' },
		{ "signals", required_argument, NULL, 'S' },
		{ "qd-noise", required_argument, NULL, 'q' },
		{ "base-noise", required_argument, NULL, 'B' },
		{ "motion", required_argument, NULL, 'n' },
		{ "sweep", no_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *model = GRASP_DEFAULT_MODEL;
	grasp_opts o = { 0.001, 0.01, 1, 5e-3, 1e-3, 0, TAGK_GRASP_TASK, 1, 20 };
	int sweep = 0;
	parse_options(argc, argv, opts, &model, &o, &sweep);
	mbmodel mm;
	grasp_load_model(model, &mm);
	int chain = mm.m.nb == 8;
	for (int i = 1; i < mm.m.nb; i++)
		chain &= mm.m.parent[i] == i - 1;
	if (!chain)
		cli_die(EXIT_DATA, "grasp-table: %s: the model is not a 7-joint chain (a Panda-like arm)", model);
	print_header(model, &o);
	if (sweep) {
		print_sweep(&mm, &o);
	} else {
		grasp_tables T;
		run_tables(&mm, &o, 1, &T);
		print_tables(&T);
		print_claims(&T);
	}
	cli_close(stdout, "stdout");
	return 0;
}
