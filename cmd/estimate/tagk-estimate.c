/*
 * tagk-estimate: stream estimates through any method of libtagk.
 *
 * Options, their check against the method's keys (lib/method.h), and the
 * dispatch by kind: window methods (estimate_window.c), state-space methods
 * (estimate_state.c) and batch methods (estimate_batch.c).
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdio.h"
#include "estimate_state.h"
#include "estimate_batch.h"
#include "estimate_changes.h"
#include "estimate_learned.h"
#include "estimate_window.h"
#include "../lib/tagk.h"


static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: tagk-estimate [-a METHOD] [--window N[s]] [--every K[s]] [--raw] [--seed S]\n"
	    "                     [--iters T] [--burnin B] [--tol X] [--no-warm-start]\n"
	    "                     [--lambda L] [--p0 P] [--q Q] [--r R] [--form F] [--outlier X]\n"
	    "                     [--alpha A] [--beta B] [--bodies K] [--theta0 V,...] [--length L]\n"
	    "                     [--max-window N] [--detect [--detect-arl SEC]] [--no-fit-check]\n"
	    "                     [-f csv|hdf5] [--skip-bad] [-q] [-v]\n"
	    "                     [--stream S] [-o FILE] [FILE|-]\n"
	    "       tagk-estimate -a ekf|msckf|ukf|swls [--m0 KG] [--mass-sd KG]\n"
	    "                     [--proc-sd ATT,POS,VEL,MASS] [--meas-sd ATT,POS,VEL] [--window N]\n"
	    "                     [--iters T] [--gauss-newton] [--every K] [--max-gap SEC]\n"
	    "                     [-f csv|hdf5] [--skip-bad] [-v] [--stream S] [-o FILE] [FILE|-]\n"
	    "       tagk-estimate --batch [-a ols|wls|ols-pc|wls-pc|wls-pullback|wls-bregman|dm|dm-pc]\n"
	    "                     [--segment T1,T2,...|truth|auto [--penalty B]\n"
	    "                     [--min-effect Z,REL] [--min-shift C] [--noise-sd S,...]]\n"
	    "                     [--weight COL] [--theta0 V,... [--prior-weight W]]\n"
	    "                     [--robot FILE] [--no-fit-check] [--stream S] [-o FILE] [FILE|-]\n"
	    "       tagk-estimate -a cnn [-o FILE] [FILE|-]   (a joint log of tagk-bench shake)\n"
	    "       tagk-estimate --list | --help | --version\n"
	    "Regressor rows (or, for ekf ... swls, tagk-regress -m state's stream) to estimates.\n"
	    "  -a, --method M         the method (--list names them; default rls-low)\n"
	    "  -w, --window N[s]      samples (or seconds) per update (default 5)\n"
	    "  -k, --every K[s]       an estimate every K samples or seconds (default: the window, so that\n"
	    "                         every sample is used once)\n"
	    "      --raw              rigid body: the estimates as the method gives them, not projected\n"
	    "                         onto the nearest physical body\n"
	    "      --seed S           Kaczmarz: random row selection seed\n"
	    "      --iters T          Kaczmarz: iterations per update; swls: Gauss-Newton iterations;\n"
	    "                         rls-ld: most Newton steps per update (default 50)\n"
	    "      --burnin B         Kaczmarz: iterations before tail averaging\n"
	    "      --tol X            Kaczmarz: stop when the residual falls below X; rls-ld: when half\n"
	    "                         the squared Newton decrement does (default 1e-20)\n"
	    "      --no-warm-start    Kaczmarz: start each window from zero\n"
	    "      --lambda L         RLS: forgetting factor in (0, 1]\n"
	    "      --p0 P             RLS, KF: initial covariance P0 = p0 I\n"
	    "      --q Q              KF: process noise Q = q I\n"
	    "      --r R              KF: measurement noise R = r I\n");
	fprintf(f,
	    "      --form F           RLS: paper, info, auto; KF: joseph, info, downdate,\n"
	    "                         explicit, auto\n"
	    "      --outlier X        RLS, KF: innovation gate, 0 off (default 1e6)\n"
	    "      --alpha A          rls-ld, rls-l2: regularisation weight (default 0.1, 50)\n"
	    "      --beta B           rls-ld, rls-l2: relative weight of non-inertial parameters (1e-3)\n"
	    "      --bodies K         rls-ld, rls-l2: leading 10-parameter bodies (default n / 10)\n"
	    "      --prior-weight W   wls-pullback, wls-bregman: the prior's weight lambda (default 1)\n"
	    "      --robot FILE       --batch -a ols-pc|wls-pc|wls-pullback|wls-bregman on a whole-arm\n"
	    "                         stream: every body physical, toward FILE's (a description)\n"
	    "      --length L         tagk-robust: the body's size in metres, to scale its parameters\n"
	    "                         (default: from --theta0's inertia; 0: no scaling)\n"
	    "      --theta0 V,...     the starting estimate, one value per parameter (default 0;\n"
	    "                         rls-ld needs a physically consistent one)\n"
	    "      --max-window N     the largest window in samples (default 1000)\n"
	    "      --detect           flag changes online (CUSUM on the windows' residuals): columns\n"
	    "                         event, event_t and a line on stderr; RLS, KF re-open on one\n"
	    "      --detect-arl SEC   mean seconds between false alarms (default 3600; implies --detect)\n"
	    "      --m0 KG            state-space: initial mass (default: hover guess)\n"
	    "      --mass-sd KG       state-space: its standard deviation\n"
	    "      --proc-sd A,P,V,M  state-space: process noise of attitude, position, velocity, mass\n"
	    "      --meas-sd A,P,V    state-space: measurement noise of attitude, position, velocity\n"
	    "      --gauss-newton     swls: Gauss-Newton iterations instead of one step\n"
	    "      --max-gap SEC      state-space: a longer gap in time is an error (default 0.5)\n"
	    "      --map, --preset, --pos-unit  moved to tagk-regress -m state\n"
	    "      --batch            one estimate from the whole stream (default method ols; a whole-arm\n"
	    "                         stream, every link of an arm: ols or wls)\n"
	    "      --segment LIST     batch: new segments at times T1,T2,..., or at each truth change\n"
	    "      --segment auto     batch: the changes found from the data, each with a 95 %% interval\n"
	    "      --penalty B        auto: cost of a change, in noise variances (default (n+1) ln rows)\n"
	    "      --min-effect Z,REL auto: merge a change in m below Z sd or REL of m (default 3,0.05)\n"
	    "      --min-shift C      auto: also keep a change moving the centre of mass C m (default 0: off)\n"
	    "      --noise-sd S,...   auto: each row index's noise sd (default: estimated)\n"
	    "      --weight COL       wls, wls-pc: weight each row by column COL instead\n"
	    "      --no-fit-check     no model-fit check: by default, after estimation, a row kind (a rigid\n"
	    "                         body's axis, an arm's joint) that no physical body explains within\n"
	    "                         the noise its rows show is a caution the stream carries\n"
	    "      --list             list the methods and exit\n"
	    "  -q, --quiet            no note on parameters the data did not excite\n"
	    "  -v, --verbose          the form used, settings, update times and the model fit's figures\n"
	    "  -o, --output FILE      write FILE (HDF5 if .h5, gzip if .gz) instead of stdout\n");
	cmdio_stream_help(f);
	cmdio_input_help(f);
}

/* k comma-separated non-negative numbers into out. */
static void
parse_list(const char *opt, const char *s, int k, double *out)
{
	char buf[256], *items[8];
	int n = cli_split(opt, s, buf, sizeof(buf), items, k < 8 ? k : 8);
	for (int i = 0; i < n; i++)
		out[i] = cli_double(opt, items[i], 0, 1e300);
	if (n != k)
		cli_die(EXIT_USAGE, "%s: %d numbers expected, got %d", opt, k, n);
}

/* Up to max comma-separated numbers of any sign into out; their count. */
static int
parse_values(const char *opt, const char *s, double *out, int max)
{
	char buf[512], *items[TAGK_NPARAM + 1];
	int n = cli_split(opt, s, buf, sizeof(buf), items, max + 1);
	if (n > max)
		cli_die(EXIT_USAGE, "%s: at most %d numbers", opt, max);
	for (int i = 0; i < n; i++)
		out[i] = cli_double(opt, items[i], -1e300, 1e300);
	return n;
}

/* "20" samples or "0.4s" seconds. */
static double
parse_count(const char *opt, const char *s, int *seconds)
{
	size_t l = strlen(s);
	*seconds = l > 1 && s[l - 1] == 's';
	char buf[64];
	snprintf(buf, sizeof(buf), "%.*s", (int)(l - (size_t)*seconds), s);
	if (*seconds)
		return cli_double(opt, buf, 1e-9, 1e9);
	return (double)cli_long(opt, buf, 1, 1000000);
}

enum { MAX_GIVEN = 64 };
/* --detect's mean time between false alarms, in seconds: one per hour of
 * log, under the detector's model (detect.h); a false alarm costs a
 * covariance reset (a few windows of noisier estimates) and a wrong line,
 * and a flight or an arm run lasts minutes, so a user sees one in tens of
 * logs; h grows only with its logarithm, so a tenfold longer ARL delays a
 * detection by about ln 10 / (the increment a change adds per window) */
#define DETECT_ARL_DEFAULT 3600.0
typedef struct {
	const char *opt; /* as typed, without the dashes */
	const char *key; /* the method option key it sets (method.h) */
	double v;
} given_opt;

static void
give(given_opt *g, int *n, const char *opt, const char *key, double v)
{
	if (*n == MAX_GIVEN)
		cli_die(EXIT_USAGE, "more than %d method options", MAX_GIVEN);
	g[*n].opt = opt;
	g[*n].key = key;
	g[*n].v = v;
	(*n)++;
}

/* The methods of kind k, comma-separated. */
static const char *
kind_names(tagk_kind k)
{
	static char buf[256];
	buf[0] = 0;
	for (int i = 0; i < tagk_method_count(); i++) {
		const tagk_method *mt = tagk_method_at(i);
		if (mt->kind == k)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", buf[0] ? ", " : "", mt->name);
	}
	return buf;
}

/* Who takes the option key, from the registry: whole families ("the RLS
 * and KF methods") and single methods of families that take it in part
 * ("swls"), joined with "and". */
static void
who_accepts(const char *key, char *buf, size_t len)
{
	const char *fam[32], *one[64];
	int nf = 0, no = 0;
	for (int i = 0; i < tagk_method_count(); i++) {
		const tagk_method *mt = tagk_method_at(i);
		if (i > 0 && strcmp(tagk_method_at(i - 1)->family, mt->family) == 0)
			continue; /* families are contiguous in methods.def */
		int members = 0, take = 0;
		for (int j = i; j < tagk_method_count() && strcmp(tagk_method_at(j)->family, mt->family) == 0; j++) {
			members++;
			take += tagk_method_accepts(tagk_method_at(j), key);
		}
		if (take == members && nf < 32)
			fam[nf++] = mt->family;
		else
			for (int j = i; j < i + members; j++)
				if (tagk_method_accepts(tagk_method_at(j), key) && no < 64)
					one[no++] = tagk_method_at(j)->name;
	}
	buf[0] = 0;
	size_t l = 0;
	for (int i = 0; i < nf; i++)
		l += (size_t)snprintf(buf + l, len - l, "%s%s", i == 0 ? "the " : i == nf - 1 ? " and " : ", ",
		    fam[i]);
	if (nf)
		l += (size_t)snprintf(buf + l, len - l, " methods");
	for (int i = 0; i < no && l < len; i++)
		l += (size_t)snprintf(buf + l, len - l, "%s%s", i == 0 ? nf ? " and " : "" : i == no - 1 ? " and "
		    : ", ", one[i]);
	if (!nf && !no)
		snprintf(buf, len, "no method");
}

/* --list: every method of the registry, by family. */
static void
list_methods(void)
{
	for (int i = 0; i < tagk_method_count(); i++) {
		const tagk_method *mt = tagk_method_at(i);
		printf("%-12s %s [%s]\n", mt->name, mt->summary, mt->family);
	}
}

static const struct option opts[] = {
	{ "method", required_argument, NULL, 'a' },
	{ "window", required_argument, NULL, 'w' },
	{ "every", required_argument, NULL, 'k' },
	{ "seed", required_argument, NULL, 3001 },
	{ "iters", required_argument, NULL, 3002 },
	{ "burnin", required_argument, NULL, 3003 },
	{ "tol", required_argument, NULL, 3004 },
	{ "no-warm-start", no_argument, NULL, 3005 },
	{ "lambda", required_argument, NULL, 3006 },
	{ "p0", required_argument, NULL, 3007 },
	{ "q", required_argument, NULL, 3008 },
	{ "r", required_argument, NULL, 3009 },
	{ "form", required_argument, NULL, 3010 },
	{ "max-window", required_argument, NULL, 3011 },
	{ "list", no_argument, NULL, 3012 },
	{ "m0", required_argument, NULL, 3013 },
	{ "mass-sd", required_argument, NULL, 3014 },
	{ "proc-sd", required_argument, NULL, 3015 },
	{ "meas-sd", required_argument, NULL, 3016 },
	{ "gauss-newton", no_argument, NULL, 3017 },
	{ "max-gap", required_argument, NULL, 3018 },
	{ "map", required_argument, NULL, 3019 },
	{ "preset", required_argument, NULL, 3020 },
	{ "pos-unit", required_argument, NULL, 3021 },
	{ "outlier", required_argument, NULL, 3022 },
	{ "batch", no_argument, NULL, 3023 },
	{ "segment", required_argument, NULL, 3024 },
	{ "weight", required_argument, NULL, 3025 },
	{ "alpha", required_argument, NULL, 3026 },
	{ "beta", required_argument, NULL, 3027 },
	{ "bodies", required_argument, NULL, 3028 },
	{ "theta0", required_argument, NULL, 3029 },
	{ "prior-weight", required_argument, NULL, 3030 },
	{ "length", required_argument, NULL, 3031 },
	{ "raw", no_argument, NULL, 3032 },
	{ "penalty", required_argument, NULL, 3033 },
	{ "min-effect", required_argument, NULL, 3034 },
	{ "noise-sd", required_argument, NULL, 3035 },
	{ "min-shift", required_argument, NULL, 3090 },
	{ "detect", no_argument, NULL, 3036 },
	{ "detect-arl", required_argument, NULL, 3037 },
	{ "robot", required_argument, NULL, 3091 },
	{ "no-fit-check", no_argument, NULL, 3092 },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	CMDIO_OPTIONS_END,
};

/* The options, as parsed. The method's own options are kept in the
 * order given and checked against its keys (method.h) once it is known. */
typedef struct {
	tbl_options in;
	const char *method, *outname, *form, *segment, *weight, *input;
	const char *robot; /* --robot: a whole-arm stream's prior (estimate_widepc.h) */
	double win, every, iters, prior_weight, theta0[TAGK_NPARAM];
	double penalty, min_effect[2], noise_sd[TAGK_BATCH_ROWS], min_shift; /* --segment auto */
	int nnoise, auto_set;
	double detect_arl; /* --detect: seconds between false alarms; 0 off */
	int win_s, every_s, win_set, every_set, iters_set, method_set;
	int verbose, quiet, max_window, raw, state_only, batch, ntheta0;
	int no_fit_check; /* --no-fit-check: no model-fit check after estimation (rowfit.h) */
	given_opt given[MAX_GIVEN];
	int ngiven;
	uint64_t seed;
	state_opts so;
} estimate_opts;

/* --noise-sd S,...: positive, one per row index. */
static void
noise_list(estimate_opts *o, const char *arg)
{
	static char buf[4096];
	char *items[TAGK_BATCH_ROWS];
	o->nnoise = cli_split("--noise-sd", arg, buf, sizeof(buf), items, TAGK_BATCH_ROWS);
	for (int i = 0; i < o->nnoise; i++)
		o->noise_sd[i] = cli_double("--noise-sd", items[i], 1e-300, 1e300);
}

/* One of the methods' options (the 30xx codes); 0 if c is not one. */
static int
method_option(estimate_opts *o, int c, const char *arg)
{
	given_opt *g = o->given;
	int *n = &o->ngiven;
	switch (c) {
	case 3001: o->seed = cli_u64("--seed", arg); give(g, n, "seed", "seed", 0); return 1;
	case 3002:
		o->iters = (double)cli_long("--iters", arg, 0, 1000000);
		o->iters_set = 1;
		give(g, n, "iters", "iters", o->iters);
		return 1;
	case 3003: give(g, n, "burnin", "burnin", (double)cli_long("--burnin", arg, 0, 1000000)); return 1;
	case 3004: give(g, n, "tol", "tol", cli_double("--tol", arg, 0, 1)); return 1;
	case 3005: give(g, n, "no-warm-start", "warm-start", 0); return 1;
	case 3006: give(g, n, "lambda", "lambda", cli_double("--lambda", arg, 1e-6, 1)); return 1;
	case 3007: give(g, n, "p0", "p0", cli_double("--p0", arg, 1e-300, 1e300)); return 1;
	case 3008: give(g, n, "q", "q", cli_double("--q", arg, 0, 1e300)); return 1;
	case 3009: give(g, n, "r", "r", cli_double("--r", arg, 1e-300, 1e300)); return 1;
	case 3010: o->form = arg; give(g, n, "form", "form", 0); return 1;
	case 3022: give(g, n, "outlier", "outlier", cli_double("--outlier", arg, 0, 1e300)); return 1;
	case 3024: o->segment = arg; give(g, n, "segment", "segment", 0); return 1;
	case 3033: o->penalty = cli_double("--penalty", arg, 0, 1e300); o->auto_set = 1; give(g, n, "penalty", "segment", 0); return 1;
	case 3034: parse_list("--min-effect", arg, 2, o->min_effect); o->auto_set = 1; give(g, n, "min-effect", "segment", 0); return 1;
	case 3035: noise_list(o, arg); o->auto_set = 1; give(g, n, "noise-sd", "segment", 0); return 1;
	case 3090: o->min_shift = cli_double("--min-shift", arg, 0, 1e3); o->auto_set = 1; give(g, n, "min-shift", "segment", 0); return 1;
	case 3025: o->weight = arg; give(g, n, "weight", "weight", 0); return 1;
	case 3026: give(g, n, "alpha", "alpha", cli_double("--alpha", arg, 1e-300, 1e300)); return 1;
	case 3027: give(g, n, "beta", "beta", cli_double("--beta", arg, 1e-300, 1e300)); return 1;
	case 3028: give(g, n, "bodies", "bodies", (double)cli_long("--bodies", arg, 0, 100000)); return 1;
	case 3031: give(g, n, "length", "length", cli_double("--length", arg, 0, 1e6)); return 1;
	case 3030:
		o->prior_weight = cli_double("--prior-weight", arg, 0, 1e12);
		give(g, n, "prior-weight", "prior-weight", o->prior_weight);
		return 1;
	case 3013: o->so.m0 = cli_double("--m0", arg, 1e-9, 1e9); give(g, n, "m0", "m0", 0); return 1;
	case 3014:
		o->so.mass_sd = cli_double("--mass-sd", arg, 1e-12, 1e9);
		give(g, n, "mass-sd", "mass-sd", 0);
		return 1;
	case 3015: parse_list("--proc-sd", arg, 4, o->so.proc); o->so.proc_set = 1; give(g, n, "proc-sd", "proc-sd", 0); return 1;
	case 3016: parse_list("--meas-sd", arg, 3, o->so.meas); o->so.meas_set = 1; give(g, n, "meas-sd", "meas-sd", 0); return 1;
	case 3017: o->so.gauss_newton = 1; give(g, n, "gauss-newton", "gauss-newton", 0); return 1;
	}
	return 0;
}

static void
parse(estimate_opts *o, int argc, char **argv)
{
	*o = (estimate_opts){ .method = "rls-low", .win = 5, .every = 5, .max_window = 1000, .prior_weight = 1,
		.seed = 1, .penalty = -1, .min_effect = { 3, 0.05 } };
	o->so.max_gap = 0.5;
	int c;
	while ((c = cli_getopt(argc, argv, "a:w:k:f:o:qvhV", opts)) != -1) {
		if (cmdio_input_option(&o->in, c, optarg) || cmdio_output_option(c, optarg) || method_option(o, c, optarg))
			continue;
		switch (c) {
		case 'a': o->method = optarg; o->method_set = 1; break;
		case 'w': o->win = parse_count("--window", optarg, &o->win_s); o->win_set = 1; break;
		case 'k': o->every = parse_count("--every", optarg, &o->every_s); o->every_set = 1; break;
		case 3023: o->batch = 1; break;
		case 3029: o->ntheta0 = parse_values("--theta0", optarg, o->theta0, TAGK_NPARAM); break;
		case 3032: o->raw = 1; break;
		case 3036: o->detect_arl = o->detect_arl > 0 ? o->detect_arl : DETECT_ARL_DEFAULT; break;
		case 3037: o->detect_arl = cli_double("--detect-arl", optarg, 1e-6, 1e12); break;
		case 3091: o->robot = optarg; break;
		case 3092: o->no_fit_check = 1; break;
		case 3011: o->max_window = (int)cli_long("--max-window", optarg, 1, 10000000); break;
		case 3018: o->so.max_gap = cli_double("--max-gap", optarg, 1e-9, 1e9); o->state_only = 1; break;
		case 3019:
		case 3020:
		case 3021: {
			/* tagk-estimate 0.1.0 read raw logs for the state-space
			 * methods; the mapping now lives in tagk-regress only */
			const char *opt = c == 3019 ? "--map" : c == 3020 ? "--preset" : "--pos-unit";
			cli_die(EXIT_USAGE, "%s moved to tagk-regress: tagk-regress -m state %s %s LOG | tagk-estimate "
			    "-a %s", opt, opt, optarg, o->method_set ? o->method : "ekf");
		}
		case 3012:
			list_methods();
			cli_close(stdout, "stdout");
			exit(0);
		case 'v': o->verbose = 1; break;
		case 'q': o->quiet = 1; break;
		case 'o': o->outname = optarg; break;
		case 'h': cli_help(usage);
		case 'V': cli_version();
		default: usage(stderr); exit(EXIT_USAGE);
		}
	}
	if (argc - optind > 1)
		cli_die(EXIT_USAGE, "one input file at most");
	o->input = optind < argc ? argv[optind] : "-";
	if (o->batch && !o->method_set)
		o->method = "ols";
}

/* The method, and the options it does not take refused. */
static const tagk_method *
method_of(const estimate_opts *o)
{
	const char *method = o->method;
	const tagk_method *mt = tagk_method_find(method);
	if (!mt)
		cli_die(EXIT_USAGE, "-a: unknown method '%s' (tagk-estimate --list names them)", method);
	if (o->ntheta0 && mt->kind != TAGK_KIND_WINDOW && !tagk_method_accepts(mt, "theta0"))
		cli_die(EXIT_USAGE, "--theta0 applies to the regressor-window methods, wls-pullback, wls-bregman, dm and dm-pc, not %s", method);
	if (!o->ntheta0 && !o->robot && mt->kind == TAGK_KIND_BATCH && tagk_method_accepts(mt, "theta0"))
		cli_die(EXIT_USAGE, "%s needs --theta0: ten values, a physical body (its prior, or its start)", method);
	if (o->robot && mt->kind != TAGK_KIND_BATCH)
		cli_die(EXIT_USAGE, "--robot applies to the batch methods on a whole-arm stream, not %s", method);
	if (o->batch && mt->kind != TAGK_KIND_BATCH)
		cli_die(EXIT_USAGE, "--batch applies to the batch methods (%s), not %s", kind_names(TAGK_KIND_BATCH),
		    method);
	if (o->detect_arl > 0 && mt->kind != TAGK_KIND_WINDOW)
		cli_die(EXIT_USAGE, "--detect applies to the recursive (regressor-window) methods (%s), not %s; "
		    "--batch --segment auto finds changes offline", kind_names(TAGK_KIND_WINDOW), method);
	for (int i = 0; i < o->ngiven; i++)
		if (!tagk_method_accepts(mt, o->given[i].key)) {
			char who[256];
			who_accepts(o->given[i].key, who, sizeof(who));
			cli_die(EXIT_USAGE, "--%s applies to %s, not %s", o->given[i].opt, who, method);
		}
	return mt;
}

/* The first window option given, which the batch and learned methods do not take, or NULL. */
static const char *
no_window(const estimate_opts *o)
{
	return o->win_set ? "--window" : o->every_set ? "--every" : o->max_window != 1000 ? "--max-window"
	    : o->state_only ? "--max-gap" : NULL;
}

static int
run_batch(const estimate_opts *o, const tagk_method *mt)
{
	const char *bad = no_window(o);
	if (bad)
		cli_die(EXIT_USAGE, "%s does not apply to the batch method %s", bad, o->method);
	batch_opts bo = { mt, o->segment, o->weight, o->outname, o->in, o->ntheta0 ? o->theta0 : NULL, o->ntheta0,
		o->prior_weight, o->raw, o->quiet, o->penalty, o->min_effect[0], o->min_effect[1],
		o->nnoise ? o->noise_sd : NULL, o->nnoise, o->min_shift, o->robot, o->no_fit_check, o->verbose };
	int seg_auto = o->segment && strcmp(o->segment, "auto") == 0;
	if (o->auto_set && !seg_auto)
		cli_die(EXIT_USAGE, "--penalty, --min-effect, --min-shift and --noise-sd go with --segment auto");
	return seg_auto ? estimate_changes(&bo, o->input) : estimate_batch(&bo, o->input);
}

static int
run_learned(const estimate_opts *o, const tagk_method *mt)
{
	const char *bad = no_window(o);
	bad = bad ? bad : o->segment ? "--segment" : o->weight ? "--weight" : NULL;
	if (bad)
		cli_die(EXIT_USAGE, "%s does not apply to the learned method %s (one estimate per window of its "
		    "fixed length)", bad, o->method);
	learned_opts lo = { mt, o->outname, o->in };
	return estimate_learned(&lo, o->input);
}

static int
run_state(estimate_opts *o, const tagk_method *mt)
{
	const char *method = o->method;
	if (o->max_window != 1000)
		cli_die(EXIT_USAGE, "--max-window applies to the regressor methods, not %s", method);
	if (o->win_set && !tagk_method_accepts(mt, "window"))
		cli_die(EXIT_USAGE, "--window applies to %s, not %s", "msckf and swls", method);
	if (o->win_set && (o->win_s || o->win < 2 || o->win > TAGK_MASS_WINDOW_MAX))
		cli_die(EXIT_USAGE, "--window: %s takes a number of samples from 2 to %d", method, TAGK_MASS_WINDOW_MAX);
	if (o->every_set && o->every_s)
		cli_die(EXIT_USAGE, "--every: %s takes a number of samples", method);
	if (o->iters_set && (o->iters < 1 || o->iters > 100))
		cli_die(EXIT_USAGE, "--iters: %s takes 1 to 100", method);
	state_opts *so = &o->so;
	so->mt = mt;
	so->window = o->win_set ? (int)o->win : 0;
	so->iters = o->iters_set ? (int)o->iters : 0;
	so->every = o->every_set ? (long)o->every : 1;
	so->verbose = o->verbose;
	so->outname = o->outname;
	so->in = o->in;
	return estimate_state(so, o->input);
}

/* The regressor-window methods: their configuration from the options. */
static int
run_window(estimate_opts *o, const tagk_method *mt)
{
	if (o->state_only)
		cli_die(EXIT_USAGE, "--max-gap applies to the state-space methods (%s), not %s",
		    kind_names(TAGK_KIND_STATE), o->method);
	tagk_config cfg;
	/* m_max is set from the rows per sample once the first sample is read */
	tagk_config_defaults(&cfg, mt, 1, 0);
	if (o->form && tagk_config_form_index(&cfg, o->form) < 0) {
		const char *const *fl = tagk_window_ops_of(mt)->forms;
		char list[128] = "";
		for (int i = 0; fl[i]; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? fl[i + 1] ? ", "
			    : " or " : "", fl[i]);
		cli_die(EXIT_USAGE, "--form: '%s' is not %s", o->form, list);
	}
	cfg.seed = o->seed;
	for (int i = 0; i < o->ngiven; i++) {
		const given_opt *g = &o->given[i];
		double v = strcmp(g->key, "form") == 0 ? (double)tagk_config_form_index(&cfg, o->form) : g->v;
		if (strcmp(g->key, "seed") != 0 && tagk_config_set(&cfg, g->key, v) != TAGK_OK)
			cli_die(EXIT_USAGE, "--%s: %g is out of range for %s", g->opt, v, o->method);
	}
	/* every sample once by default: windows that touch and do not overlap */
	if (!o->every_set) {
		o->every = o->win;
		o->every_s = o->win_s;
	} else if (!o->quiet && o->every_s == o->win_s && o->every > o->win) {
		cli_warn("--every %g and --window %g: the updates use %.0f %% of the samples (the rest fall between "
		    "windows)", o->every, o->win, 100 * o->win / o->every);
	}
	window_opts wo = { cfg, o->win, o->every, o->win_s, o->every_s, o->max_window, o->verbose, o->quiet,
		o->outname, o->in, o->ntheta0 ? o->theta0 : NULL, o->ntheta0, o->raw, o->detect_arl, o->no_fit_check };
	return estimate_window(&wo, o->input);
}

int
main(int argc, char **argv)
{
	cli_init(argv[0]);
	static estimate_opts o;
	parse(&o, argc, argv);
	const tagk_method *mt = method_of(&o);
	switch (mt->kind) {
	case TAGK_KIND_BATCH: return run_batch(&o, mt);
	case TAGK_KIND_LEARNED: return run_learned(&o, mt);
	case TAGK_KIND_STATE: return run_state(&o, mt);
	default: return run_window(&o, mt);
	}
}
