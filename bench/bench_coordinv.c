/*
 * bench_coordinv.c: tagk-bench coordinv, paper 002's comparison of
 * coordinate-dependent and coordinate-independent identification
 * (lib/coordinv.h) as tables, in a low-data and a high-data regime: the
 * command, and Fig. 6, the drag-dominated swimmer (bench/sim/swimmer.h);
 * Fig. 4, the Crazyflie with a pendulum, is bench_cfpend.c.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_commands.h"
#include "bench_cfpend.h"
#include "bench_coordinv.h"
#include "coordinv_tables.h"
#include "../cmd/common/cli.h"
#include "../lib/tagk.h"
#include "../lib/coordinv.h"
#include "sim/swimmer.h"

enum { N = TAGK_SWIM_N, P = TAGK_SWIM_P, NM = TAGK_CI_NMETHODS };

static const char *const coord_names[N] = { "vx", "vy", "omega", "alpha1'", "alpha2'" };

typedef struct {
	int seeds;
	long low;
	double lambda, prior_error;
	int physical;         /* every method with D >= 0 */
	tagk_swim_config sim; /* the knobs; gait and seed set per run */
	int claims_only;      /* print the claims, not the tables (a second prior) */
} ci_opts;

/* ||x - y|| / ||y|| over the P parameters. */
static double
rel_err(const tagk_real *x, const tagk_real *y)
{
	double num = 0, den = 0;
	for (int j = 0; j < P; j++) {
		num += ((double)x[j] - (double)y[j]) * ((double)x[j] - (double)y[j]);
		den += (double)y[j] * (double)y[j];
	}
	return sqrt(num / den);
}

static void
run(const tagk_swim_config *c, tagk_swim_sample *buf)
{
	tagk_status st = tagk_swim_run(c, buf, tagk_swim_samples(c));
	if (st != TAGK_OK)
		cli_die(EXIT_DATA, "coordinv: the swimmer's simulation failed: %s", tagk_strerror(st));
}

/* The identification problem of m samples of s, every stride-th: Y, tau, M
 * and qd. */
static void
problem(const tagk_swim_sample *s, long m, long stride, tagk_real *Y, tagk_real *tau, tagk_real *M, tagk_real *qd,
    tagk_dmls_problem *pb)
{
	for (long k = 0; k < m; k++) {
		const tagk_swim_sample *x = s + k * stride;
		tagk_swim_regressor(x->alpha[0], x->alpha[1], x->qd, Y + k * N * P);
		memcpy(tau + k * N, x->tau, sizeof(x->tau));
		memcpy(qd + k * N, x->qd, sizeof(x->qd));
		tagk_real *Mk = M + k * (P + 1) * N * N;
		memset(Mk, 0, sizeof(*Mk) * N * N); /* no constant part: all of the drag is unknown */
		tagk_swim_metric_parts(x->alpha[0], x->alpha[1], Mk + N * N);
	}
	tagk_dmls_defaults(pb);
	pb->N = (int)m;
	pb->n = N;
	pb->p = P;
	pb->bodies = 0;
	pb->Y = Y;
	pb->tau = tau;
	pb->M = M;
}

/* One experiment: the runs' settings and buffers, the estimates of the
 * current seed, and the scores. */
typedef struct {
	const ci_opts *o;
	tagk_swim_config tc, gc;
	long ntrain, ntest, max_shift;
	tagk_swim_sample *train, *test;
	tagk_real *Y, *tau, *M, *qd, *ws, *meas, *measured, *pred, *pcol;
	size_t wslen;
	tagk_real truth[P], est[2][NM][P];
	int ok[2][NM];
	/* per regime and method: NCC sums and squares per coordinate, failures,
	 * and the relative parameter error */
	double sum[2][NM][N], sq[2][NM][N], perr[2][NM];
	long cnt[2][NM], failed[2][NM], solved[2][NM], ngap[2];
	double gap[2]; /* the frozen metric's objective above DM's, relative */
} swimrun;

static void
open_swim(swimrun *x, const ci_opts *o)
{
	memset(x, 0, sizeof(*x));
	x->o = o;
	x->tc = o->sim;
	x->tc.gait = TAGK_SWIM_TRAIN;
	const long ntrain = x->ntrain = tagk_swim_samples(&x->tc);
	if (o->low > ntrain)
		cli_die(EXIT_USAGE, "--low: %ld samples, but a training run has %ld", o->low, ntrain);
	x->gc = o->sim;
	x->gc.gait = TAGK_SWIM_FORWARD;
	const long ntest = x->ntest = tagk_swim_samples(&x->gc);
	x->train = malloc((size_t)ntrain * sizeof(*x->train)), x->test = malloc((size_t)ntest * sizeof(*x->test));
	x->Y = malloc((size_t)ntrain * N * P * sizeof(*x->Y)), x->tau = malloc((size_t)ntrain * N * sizeof(*x->tau));
	x->M = malloc((size_t)ntrain * (P + 1) * N * N * sizeof(*x->M)), x->qd = malloc((size_t)ntrain * N * sizeof(*x->qd));
	x->wslen = tagk_ci_workspace_len(N, P);
	x->ws = malloc(x->wslen * sizeof(*x->ws)), x->meas = malloc((size_t)ntest * sizeof(*x->meas));
	x->measured = malloc((size_t)ntest * N * sizeof(*x->measured));
	x->pred = malloc((size_t)ntest * N * sizeof(*x->pred)), x->pcol = malloc((size_t)ntest * sizeof(*x->pcol));
	if (!x->train || !x->test || !x->Y || !x->tau || !x->M || !x->qd || !x->ws || !x->meas || !x->measured || !x->pred
	    || !x->pcol)
		cli_die(EXIT_DATA, "out of memory");
	tagk_swim_truth(x->truth);
	/* the slowest period of the test gaits is 4 s: shifts of 5 degrees of it */
	x->max_shift = lround(5.0 / 360 * 4 * (double)o->sim.rate);
}

/* Every method's estimate in regime r (0 low data, 1 high) from prior,
 * its parameter error, and the frozen metric's objective gap to DM's. */
static void
estimate(swimrun *x, int r, const tagk_real *prior)
{
	const ci_opts *o = x->o;
	long m = r == 0 ? o->low : x->ntrain, stride = r == 0 ? x->ntrain / o->low : 1;
	tagk_dmls_problem pb;
	problem(x->train, m, stride, x->Y, x->tau, x->M, x->qd, &pb);
	pb.nonneg = o->physical ? P : 0;
	for (int k = 0; k < NM; k++) {
		x->ok[r][k] = tagk_ci_solve((tagk_ci_method)k, &pb, x->qd, prior, (tagk_real)o->lambda, x->est[r][k], x->ws,
		    x->wslen) == TAGK_OK;
		if (x->ok[r][k]) {
			x->perr[r][k] += rel_err(x->est[r][k], x->truth);
			x->solved[r][k]++;
		}
	}
	if (x->ok[r][TAGK_CI_DUAL] && x->ok[r][TAGK_CI_FROZEN]) {
		double fd = (double)tagk_dmls_objective(&pb, x->est[r][TAGK_CI_DUAL], x->ws, x->wslen);
		double ff = (double)tagk_dmls_objective(&pb, x->est[r][TAGK_CI_FROZEN], x->ws, x->wslen);
		if (fd > 0 && ff >= 0) {
			x->gap[r] += (ff - fd) / fd;
			x->ngap[r]++;
		}
	}
}

/* The seed's test gaits, each method scored by NCC of the predicted
 * velocities M(pi^)^-1 tau; a method that fails counts as NCC 0. */
static void
score_gaits(swimrun *x, int seed)
{
	for (int gait = TAGK_SWIM_FORWARD; gait <= TAGK_SWIM_TURN; gait++) {
		tagk_swim_config ec = x->o->sim;
		ec.gait = (tagk_swim_gait)gait;
		ec.seed = (uint64_t)seed * 1000u + (uint64_t)gait;
		run(&ec, x->test);
		for (long t = 0; t < x->ntest; t++)
			memcpy(x->measured + t * N, x->test[t].qd, sizeof(*x->measured) * N);
		for (int r = 0; r < 2; r++)
			for (int k = 0; k < NM; k++) {
				x->cnt[r][k]++;
				int good = x->ok[r][k];
				for (long t = 0; good && t < x->ntest; t++) {
					tagk_real Mt[N * N];
					tagk_swim_metric(x->test[t].alpha[0], x->test[t].alpha[1], x->est[r][k], Mt);
					good = coordinv_solve(N, Mt, x->test[t].tau, x->pred + t * N);
				}
				if (!good) {
					x->failed[r][k]++;
					continue;
				}
				coordinv_score(N, x->ntest, x->measured, x->pred, x->max_shift, x->sum[r][k], x->sq[r][k], x->meas,
				    x->pcol);
			}
	}
}

static void
run_seed(swimrun *x, int seed)
{
	x->tc.seed = (uint64_t)seed;
	run(&x->tc, x->train);
	tagk_real prior[P];
	tagk_rng g;
	tagk_rng_seed(&g, (uint64_t)seed * 7919u + 17u);
	for (int j = 0; j < P; j++)
		prior[j] = x->truth[j] * (tagk_real)(1 + x->o->prior_error * (2 * (double)tagk_rng_uniform(&g) - 1));
	for (int r = 0; r < 2; r++)
		estimate(x, r, prior);
	score_gaits(x, seed);
}

/* Whether method k is one the paper compares DM with (OLS, WLS, energy,
 * the two regularised WLS), not a DM variant. */
static int
competitor(int k)
{
	return k < TAGK_CI_DUAL;
}

/* The paper's qualitative claims (Sec. IV-B), checked on the means: the
 * paper's DM (constrained), and the unconstrained DM-unc beside it. */
static void
print_claims(const swimrun *x, double mean[2][NM][N])
{
	const ci_opts *o = x->o;
	const int dm = coordinv_paper_dm(o->physical);
	if (!o->claims_only)
		printf("\nDM-frozen, the metric frozen at the prior (one weighted solve, online-able): its objective\n"
		    "sum r^T M(pi)^-1 r above DM-unc's optimum by %.3g %% (low data) and %.3g %% (high data), mean over the seeds.\n",
		    x->ngap[0] ? 100 * x->gap[0] / (double)x->ngap[0] : (double)NAN,
		    x->ngap[1] ? 100 * x->gap[1] / (double)x->ngap[1] : (double)NAN);
	printf("\nThe paper's claims (Sec. IV-B), on these numbers (the prior off by up to %g %%):\n", 100 * o->prior_error);
	for (int r = 0; r < 2; r++)
		for (int i = 3; i < 5; i++) {
			int best = 1, best_unc = 1;
			for (int k = 0; k < NM; k++)
				if (competitor(k)) {
					best &= mean[r][k][i] < mean[r][dm][i];
					best_unc &= mean[r][k][i] < mean[r][TAGK_CI_DUAL][i];
				}
			coordinv_print_claim(r == 0, coord_names[i], "DM best of the six", best, mean[r][dm][i], o->physical,
			    best_unc, mean[r][TAGK_CI_DUAL][i]);
		}
	int all_le0 = 1;
	for (int k = 0; k < NM; k++)
		if (competitor(k) && mean[0][k][3] > 0)
			all_le0 = 0;
	printf("  low data, alpha1': every competitor at NCC <= 0 (the paper's largest contrast): %s\n",
	    all_le0 ? "yes" : "no");
}

/* Each method's mean NCC per regime and coordinate. */
static void
means(const swimrun *x, double mean[2][NM][N])
{
	for (int r = 0; r < 2; r++)
		for (int k = 0; k < NM; k++)
			for (int i = 0; i < N; i++)
				mean[r][k][i] = x->sum[r][k][i] / (double)x->cnt[r][k];
}

static void
print_tables(const swimrun *x, double t0)
{
	const ci_opts *o = x->o;
	double mean[2][NM][N];
	means(x, mean);
	if (o->claims_only) {
		print_claims(x, mean);
		return;
	}
	printf("# tagk-bench coordinv: paper 002's Fig. 6, the drag-dominated LandSalp-like swimmer (bench/sim/swimmer.h):\n"
	    "# identified on an 8-segment training run (%ld samples at %g Hz; low data: %ld of them, evenly spaced),\n"
	    "# scored on the forward, backward, left, right and turning gaits by the normalised cross-correlation of\n"
	    "# the predicted velocities M(pi^)^-1 tau with the measured ones (shifts of up to %ld sample: 5 degrees of\n"
	    "# the 4 s period). Mean (standard deviation) over %d seeds x 5 gaits. Mismatch: position noise %g,\n"
	    "# velocities %s, joint friction %g N m, wheel-force noise %g N; the regularised methods' prior is the\n"
	    "# truth off by up to %g %%, lambda %g. DM is the paper's, kept physical (eq. 29); DM-unc without.%s %.1f s.\n",
	    x->ntrain, (double)o->sim.rate, o->low, x->max_shift,
	    o->seeds, (double)o->sim.pos_noise, o->sim.differentiate ? "by central differences" : "exact",
	    (double)o->sim.friction, (double)o->sim.force_noise, 100 * o->prior_error, o->lambda,
	    o->physical ? " Every method keeps D >= 0 (--physical)." : "", cli_seconds() - t0);
	for (int r = 0; r < 2; r++) {
		printf("\n%s data (%ld samples)\n%-15s", r == 0 ? "low" : "high", r == 0 ? o->low : x->ntrain, "method");
		for (int i = 0; i < N; i++)
			printf(" %16s", coord_names[i]);
		printf(" %10s %7s\n", "param err", "failed");
		for (int k = 0; k < NM; k++) {
			if (o->physical && k == TAGK_CI_DUAL_PC)
				continue; /* DM itself keeps D >= 0 */
			printf("%-15s", coordinv_name(k, o->physical));
			for (int i = 0; i < N; i++) {
				double mu = mean[r][k][i], sd = sqrt(fmax(0, x->sq[r][k][i] / (double)x->cnt[r][k] - mu * mu));
				printf("  %6.3f (%5.3f)", mu, sd);
			}
			printf(" %10.3g %3ld/%ld\n", x->solved[r][k] ? x->perr[r][k] / (double)x->solved[r][k] : (double)NAN,
			    x->failed[r][k], x->cnt[r][k]);
		}
	}
	print_claims(x, mean);
}

/* Fig. 6: the swimmer experiment, its tables on stdout. */
static void
coordinv_swimmer(const ci_opts *o)
{
	double t0 = cli_seconds();
	static swimrun x;
	open_swim(&x, o);
	for (int seed = 1; seed <= o->seeds; seed++)
		run_seed(&x, seed);
	print_tables(&x, t0);
	free(x.train);
	free(x.test);
	free(x.Y);
	free(x.tau);
	free(x.M);
	free(x.qd);
	free(x.ws);
	free(x.meas);
	free(x.measured);
	free(x.pred);
	free(x.pcol);
}

/* --prior-error's list, E[,E...]: the tables under the first, the claims
 * under each of the rest. Returns how many (1 .. MAX_PRIORS). */
enum { MAX_PRIORS = 4 };
static int
parse_priors(const char *arg, double out[MAX_PRIORS])
{
	char buf[128];
	if (strlen(arg) >= sizeof(buf))
		cli_die(EXIT_USAGE, "--prior-error: '%s' is too long", arg);
	strcpy(buf, arg);
	int n = 0;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (n == MAX_PRIORS)
			cli_die(EXIT_USAGE, "--prior-error: at most %d values", MAX_PRIORS);
		out[n++] = cli_double("--prior-error", t, 0, 0.9);
	}
	if (n == 0 || arg[strlen(arg) - 1] == ',' || arg[0] == ',' || strstr(arg, ",,"))
		cli_die(EXIT_USAGE, "--prior-error: '%s' is not a list of fractions, e.g. 0.3,0.9", arg);
	return n;
}

int
bench_coordinv(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seeds", required_argument, NULL, 'n' },
		{ "low", required_argument, NULL, 'l' },
		{ "lambda", required_argument, NULL, 'L' },
		{ "prior-error", required_argument, NULL, 'E' },
		{ "pos-noise", required_argument, NULL, 'x' },
		{ "exact-velocity", no_argument, NULL, 'X' },
		{ "friction", required_argument, NULL, 'f' },
		{ "force-noise", required_argument, NULL, 'u' },
		{ "system", required_argument, NULL, 'S' },
		{ "rotor-drag", required_argument, NULL, 'r' },
		{ "thrust-error", required_argument, NULL, 't' },
		{ "joint-friction", required_argument, NULL, 'J' },
		{ "physical", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	ci_opts o = { 10, 40, 10, 0.3, 0, { 0 }, 0 };
	tagk_swim_defaults(&o.sim);
	o.sim.pos_noise = (tagk_real)1e-3;
	o.sim.differentiate = 1;
	o.sim.friction = (tagk_real)0.005;
	o.sim.force_noise = (tagk_real)0.02;
	cfp_opts cf = { 10, 20, 10, 0.3, 1e-4, 0.01, 0.03, 2e-5, 1, 0, 0 };
	/* the paper's priors: a CAD model and datasheet (the Crazyflie), a
	 * previous identification (LandSalp), read as each parameter off by up
	 * to 30 %; and a poor one, 90 %, whose claims are printed beside */
	double priors[MAX_PRIORS] = { 0.3, 0.9 };
	int npriors = 2;
	int c, swimmer = 1, crazyflie = 1;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'n': cf.seeds = o.seeds = (int)cli_long("--seeds", optarg, 1, 10000); break;
		case 'l': cf.low = o.low = cli_long("--low", optarg, 3, 1000000); break;
		case 'L': cf.lambda = o.lambda = cli_double("--lambda", optarg, 0, 1e12); break;
		case 'E': npriors = parse_priors(optarg, priors); break;
		case 'x': o.sim.pos_noise = (tagk_real)(cf.pos_noise = cli_double("--pos-noise", optarg, 0, 1)); break;
		case 'X': o.sim.differentiate = cf.differentiate = 0; break;
		case 'p': o.physical = cf.physical = 1; break;
		case 'S':
			if (strcmp(optarg, "swimmer") && strcmp(optarg, "crazyflie") && strcmp(optarg, "both"))
				cli_die(EXIT_USAGE, "--system: '%s' is not swimmer, crazyflie or both", optarg);
			swimmer = strcmp(optarg, "crazyflie") != 0;
			crazyflie = strcmp(optarg, "swimmer") != 0;
			break;
		case 'r': cf.rotor_drag = cli_double("--rotor-drag", optarg, 0, 10); break;
		case 't': cf.thrust_error = cli_double("--thrust-error", optarg, -0.5, 0.5); break;
		case 'J': cf.joint_friction = cli_double("--joint-friction", optarg, 0, 1); break;
		case 'f': o.sim.friction = (tagk_real)cli_double("--friction", optarg, 0, 10); break;
		case 'u': o.sim.force_noise = (tagk_real)cli_double("--force-noise", optarg, 0, 10); break;
		case 'h':
			bench_help(stdout, "coordinv");
			cli_close(stdout, "stdout");
			return 0;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		cli_die(EXIT_USAGE, "coordinv: unexpected argument '%s'", argv[optind]);
	for (int i = 0; i < npriors; i++) {
		o.prior_error = cf.prior_error = priors[i];
		o.claims_only = cf.claims_only = i > 0;
		if (i > 0)
			printf("\n# again with the prior off by up to %g %%: the claims only\n", 100 * priors[i]);
		if (swimmer)
			coordinv_swimmer(&o);
		fflush(stdout);
		if (crazyflie)
			coordinv_crazyflie(&cf);
		fflush(stdout);
	}
	cli_close(stdout, "stdout");
	return 0;
}
