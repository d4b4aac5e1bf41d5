/*
 * tagk-estimate: stream estimates through any method of libtagk.
 *
 * Reads a regressor stream (tagk-regress's output: t, Y_m ... Y_Izz or Y_m,
 * b, true_*), groups consecutive rows with the same t into one sample, keeps
 * a window of the last N samples and runs the method every K samples; each
 * successful update writes a row: t, the estimated parameters, and the true_*
 * values of the window's last sample.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdio.h"
#include "estimate_state.h"
#include "excitation.h"
#include "estimate_batch.h"
#include "../lib/tagk.h"

enum { MAX_SAMPLE_ROWS = 64 };

typedef struct {
	double t;
	int rows;
	double *Y;      /* MAX_SAMPLE_ROWS x n */
	double *b;      /* MAX_SAMPLE_ROWS */
	double *truth;  /* ntrue */
} sample;

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: tagk-estimate [-a METHOD] [--window N[s]] [--every K[s]] [--seed S]\n"
	    "                     [--iters T] [--burnin B] [--tol X] [--no-warm-start]\n"
	    "                     [--lambda L] [--p0 P] [--q Q] [--r R] [--form F] [--outlier X]\n"
	    "                     [--max-window N] [-f csv|hdf5] [--skip-bad] [-q] [-v] [-o FILE] [FILE|-]\n"
	    "       tagk-estimate -a ekf|msckf|ukf|swls [--m0 KG] [--mass-sd KG]\n"
	    "                     [--proc-sd ATT,POS,VEL,MASS] [--meas-sd ATT,POS,VEL] [--window N]\n"
	    "                     [--iters T] [--gauss-newton] [--every K] [--max-gap SEC]\n"
	    "                     [-f csv|hdf5] [--skip-bad] [-v] [-o FILE] [FILE|-]\n"
	    "       tagk-estimate --batch [-a ols|wls|ols-pc|wls-pc] [--segment T1,T2,...|truth]\n"
	    "                     [--weight COL]\n"
	    "                     [-o FILE] [FILE|-]\n"
	    "       tagk-estimate --list | --help | --version\n"
	    "Regressor rows (or, for ekf ... swls, tagk-regress -m state's stream) to estimates.\n"
	    "  -a, --method M         the method (--list names them; default tagk)\n"
	    "  -w, --window N[s]      samples (or seconds) per update (default 5)\n"
	    "  -k, --every K[s]       an estimate every K samples or seconds (default 20)\n"
	    "      --seed S           Kaczmarz: random row selection seed\n"
	    "      --iters T          Kaczmarz: iterations per update; swls: Gauss-Newton iterations\n"
	    "      --burnin B         Kaczmarz: iterations before tail averaging\n"
	    "      --tol X            Kaczmarz: stop when the residual falls below X\n"
	    "      --no-warm-start    Kaczmarz: start each window from zero\n"
	    "      --lambda L         RLS: forgetting factor in (0, 1]\n"
	    "      --p0 P             RLS, KF: initial covariance P0 = p0 I\n"
	    "      --q Q              KF: process noise Q = q I\n"
	    "      --r R              KF: measurement noise R = r I\n"
	    "      --form F           RLS: paper, info, auto; KF: joseph, info, auto\n"
	    "      --outlier X        RLS, KF: innovation gate, 0 off (default 1e6)\n"
	    "      --max-window N     the largest window in samples (default 1000)\n"
	    "      --m0 KG            state-space: initial mass (default: hover guess)\n"
	    "      --mass-sd KG       state-space: its standard deviation\n"
	    "      --proc-sd A,P,V,M  state-space: process noise of attitude, position, velocity, mass\n"
	    "      --meas-sd A,P,V    state-space: measurement noise of attitude, position, velocity\n"
	    "      --gauss-newton     swls: Gauss-Newton iterations instead of one step\n"
	    "      --max-gap SEC      state-space: a longer gap in time is an error (default 0.5)\n"
	    "      --map, --preset, --pos-unit  moved to tagk-regress -m state\n"
	    "      --batch            one estimate from the whole stream (default method ols)\n"
	    "      --segment LIST     batch: new segments at times T1,T2,..., or at each truth change\n"
	    "      --weight COL       wls, wls-pc: weight each row by column COL instead\n"
	    "      --list             list the methods and exit\n"
	    "  -q, --quiet            no note on parameters the data did not excite\n"
	    "  -v, --verbose          the form used, settings and update times\n"
	    "  -o, --output FILE      write FILE (HDF5 if .h5, gzip if .gz) instead of stdout\n");
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
		printf("%-10s %s [%s]\n", mt->name, mt->summary, mt->family);
	}
}

int
main(int argc, char **argv)
{
	cli_init(argv[0]);
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
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		CMDIO_INPUT_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	tbl_options in = { 0 };
	const char *method = "tagk", *outname = NULL, *form = NULL;
	double win = 5, every = 20;
	int win_s = 0, every_s = 0, verbose = 0, quiet = 0, max_window = 1000;
	/* the method's options, in the order given: checked against the
	 * method's keys (method.h) once the method is known */
	given_opt given[MAX_GIVEN];
	int ngiven = 0;
	double iters = 0;
	int iters_set = 0, win_set = 0, every_set = 0, state_only = 0, batch = 0, method_set = 0;
	const char *segment = NULL, *weight = NULL;
	uint64_t seedv = 1;
	state_opts so;
	memset(&so, 0, sizeof(so));
	so.max_gap = 0.5;
	int c;
	while ((c = cli_getopt(argc, argv, "a:w:k:f:o:qvhV", opts)) != -1) {
		if (cmdio_input_option(&in, c, optarg))
			continue;
		switch (c) {
		case 'a': method = optarg; method_set = 1; break;
		case 'w': win = parse_count("--window", optarg, &win_s); win_set = 1; break;
		case 'k': every = parse_count("--every", optarg, &every_s); every_set = 1; break;
		case 3001: seedv = cli_u64("--seed", optarg); give(given, &ngiven, "seed", "seed", 0); break;
		case 3002:
			iters = (double)cli_long("--iters", optarg, 0, 1000000);
			iters_set = 1;
			give(given, &ngiven, "iters", "iters", iters);
			break;
		case 3003: give(given, &ngiven, "burnin", "burnin", (double)cli_long("--burnin", optarg, 0, 1000000)); break;
		case 3004: give(given, &ngiven, "tol", "tol", cli_double("--tol", optarg, 0, 1)); break;
		case 3005: give(given, &ngiven, "no-warm-start", "warm-start", 0); break;
		case 3006: give(given, &ngiven, "lambda", "lambda", cli_double("--lambda", optarg, 1e-6, 1)); break;
		case 3007: give(given, &ngiven, "p0", "p0", cli_double("--p0", optarg, 1e-300, 1e300)); break;
		case 3008: give(given, &ngiven, "q", "q", cli_double("--q", optarg, 0, 1e300)); break;
		case 3009: give(given, &ngiven, "r", "r", cli_double("--r", optarg, 1e-300, 1e300)); break;
		case 3010: form = optarg; give(given, &ngiven, "form", "form", 0); break;
		case 3022: give(given, &ngiven, "outlier", "outlier", cli_double("--outlier", optarg, 0, 1e300)); break;
		case 3023: batch = 1; break;
		case 3024: segment = optarg; give(given, &ngiven, "segment", "segment", 0); break;
		case 3025: weight = optarg; give(given, &ngiven, "weight", "weight", 0); break;
		case 3011: max_window = (int)cli_long("--max-window", optarg, 1, 10000000); break;
		case 3013: so.m0 = cli_double("--m0", optarg, 1e-9, 1e9); give(given, &ngiven, "m0", "m0", 0); break;
		case 3014:
			so.mass_sd = cli_double("--mass-sd", optarg, 1e-12, 1e9);
			give(given, &ngiven, "mass-sd", "mass-sd", 0);
			break;
		case 3015: parse_list("--proc-sd", optarg, 4, so.proc); so.proc_set = 1; give(given, &ngiven, "proc-sd", "proc-sd", 0); break;
		case 3016: parse_list("--meas-sd", optarg, 3, so.meas); so.meas_set = 1; give(given, &ngiven, "meas-sd", "meas-sd", 0); break;
		case 3017: so.gauss_newton = 1; give(given, &ngiven, "gauss-newton", "gauss-newton", 0); break;
		case 3018: so.max_gap = cli_double("--max-gap", optarg, 1e-9, 1e9); state_only = 1; break;
		case 3019:
		case 3020:
		case 3021: {
			/* tagk-estimate 0.1.0 read raw logs for the state-space
			 * methods; the mapping now lives in tagk-regress only */
			const char *opt = c == 3019 ? "--map" : c == 3020 ? "--preset" : "--pos-unit";
			cli_die(EXIT_USAGE, "%s moved to tagk-regress: tagk-regress -m state %s %s LOG | tagk-estimate "
			    "-a %s", opt, opt, optarg, method_set ? method : "ekf");
		}
		case 3012:
			list_methods();
			cli_close(stdout, "stdout");
			return 0;
		case 'v': verbose = 1; break;
		case 'q': quiet = 1; break;
		case 'o': outname = optarg; break;
		case 'h': cli_help(usage);
		case 'V': cli_version();
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (argc - optind > 1)
		cli_die(EXIT_USAGE, "one input file at most");
	if (batch && !method_set)
		method = "ols";
	const tagk_method *mt = tagk_method_find(method);
	if (!mt)
		cli_die(EXIT_USAGE, "-a: unknown method '%s' (tagk-estimate --list names them)", method);
	if (batch && mt->kind != TAGK_KIND_BATCH)
		cli_die(EXIT_USAGE, "--batch applies to the batch methods (%s), not %s", kind_names(TAGK_KIND_BATCH),
		    method);
	for (int i = 0; i < ngiven; i++)
		if (!tagk_method_accepts(mt, given[i].key)) {
			char who[256];
			who_accepts(given[i].key, who, sizeof(who));
			cli_die(EXIT_USAGE, "--%s applies to %s, not %s", given[i].opt, who, method);
		}
	if (mt->kind == TAGK_KIND_BATCH) {
		const char *bad = win_set ? "--window" : every_set ? "--every" : max_window != 1000 ? "--max-window"
		    : state_only ? "--max-gap" : NULL;
		if (bad)
			cli_die(EXIT_USAGE, "%s does not apply to the batch method %s", bad, method);
		batch_opts bo = { mt, segment, weight, outname, in };
		return estimate_batch(&bo, optind < argc ? argv[optind] : "-");
	}
	if (mt->kind == TAGK_KIND_STATE) {
		if (max_window != 1000)
			cli_die(EXIT_USAGE, "--max-window applies to the regressor methods, not %s", method);
		if (win_set && !tagk_method_accepts(mt, "window"))
			cli_die(EXIT_USAGE, "--window applies to %s, not %s", "msckf and swls", method);
		if (win_set && (win_s || win < 2 || win > TAGK_MASS_WINDOW_MAX))
			cli_die(EXIT_USAGE, "--window: %s takes a number of samples from 2 to %d", method,
			    TAGK_MASS_WINDOW_MAX);
		if (every_set && every_s)
			cli_die(EXIT_USAGE, "--every: %s takes a number of samples", method);
		if (iters_set && (iters < 1 || iters > 100))
			cli_die(EXIT_USAGE, "--iters: %s takes 1 to 100", method);
		so.mt = mt;
		so.window = win_set ? (int)win : 0;
		so.iters = iters_set ? (int)iters : 0;
		so.every = every_set ? (long)every : 1;
		so.verbose = verbose;
		so.outname = outname;
		so.in = in;
		return estimate_state(&so, optind < argc ? argv[optind] : "-");
	}
	if (state_only)
		cli_die(EXIT_USAGE, "--max-gap applies to the state-space methods (%s), not %s",
		    kind_names(TAGK_KIND_STATE), method);
	tagk_config cfg;
	/* m_max is set from the rows per sample once the first sample is read */
	tagk_config_defaults(&cfg, mt, 1, 0);
	if (form && tagk_config_form_index(&cfg, form) < 0) {
		const char *const *fl = tagk_window_ops_of(mt)->forms;
		char list[128] = "";
		for (int i = 0; fl[i]; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? fl[i + 1] ? ", "
			    : " or " : "", fl[i]);
		cli_die(EXIT_USAGE, "--form: '%s' is not %s", form, list);
	}

	tbl_reader *r = cmdio_open_input(optind < argc ? argv[optind] : "-", &in);
	int it, ib, irow, iy[TAGK_NPARAM];
	int n = cmdio_regressor_cols(r, 0, &it, &ib, &irow, iy);
	tbl_want(r, it);
	tbl_want(r, ib);
	if (irow >= 0)
		tbl_want(r, irow);
	for (int j = 0; j < n; j++)
		tbl_want(r, iy[j]);
	int ntrue = 0, *tidx = malloc((size_t)tbl_ncols(r) * sizeof(int));
	for (int i = 0; i < tbl_ncols(r); i++)
		if (strncmp(tbl_col(r, i), "true_", 5) == 0) {
			tidx[ntrue++] = i;
			tbl_want(r, i);
		}

	/* Window storage: a ring of samples. */
	int cap = win_s ? max_window : (int)win;
	sample *ring = calloc((size_t)cap, sizeof(*ring));
	double *rowbuf = malloc((size_t)tbl_ncols(r) * sizeof(double));
	if (!ring || !rowbuf || !tidx)
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 0; i < cap; i++) {
		ring[i].Y = malloc((size_t)MAX_SAMPLE_ROWS * (size_t)n * sizeof(double));
		ring[i].b = malloc(MAX_SAMPLE_ROWS * sizeof(double));
		ring[i].truth = malloc((size_t)(ntrue ? ntrue : 1) * sizeof(double));
		if (!ring[i].Y || !ring[i].b || !ring[i].truth)
			cli_die(EXIT_DATA, "out of memory for a window of %d samples", cap);
	}

	cfg.n = n;
	cfg.seed = seedv;
	for (int i = 0; i < ngiven; i++) {
		double v = strcmp(given[i].key, "form") == 0 ? (double)tagk_config_form_index(&cfg, form)
		    : given[i].v;
		if (strcmp(given[i].key, "seed") != 0 && tagk_config_set(&cfg, given[i].key, v) != TAGK_OK)
			cli_die(EXIT_USAGE, "--%s: %g is out of range for %s", given[i].opt, v, method);
	}
	tagk_estimator est;
	tagk_real *ws = NULL, *A = NULL, *bb = NULL, theta[TAGK_NPARAM];
	int ready = 0;

	const char *names[3 + TAGK_NPARAM + 64];
	const char **onames = ntrue + 1 + n <= (int)(sizeof(names) / sizeof(names[0])) ? names
	    : malloc((size_t)(1 + n + ntrue) * sizeof(*onames));
	onames[0] = "t";
	for (int j = 0; j < n; j++)
		onames[1 + j] = tagk_param_names[j];
	for (int j = 0; j < ntrue; j++)
		onames[1 + n + j] = tbl_col(r, tidx[j]);
	double *orow = malloc((size_t)(1 + n + ntrue) * sizeof(double));
	sink *out = cmdio_open_output(outname, TBL_AUTO);
	cmdio_header(out, 1 + n + ntrue, onames);

	excitation exc;
	excitation_init(&exc, n);
	long nsamples = 0, updates = 0, refused[TAGK_NSTATUS] = { 0 };
	tagk_status first_refusal = TAGK_OK;
	int head = 0, fill = 0, rows_per = 0;
	double t_last_run = -INFINITY;
	sample cur = { .t = NAN };
	int cur_rows = 0;
	int rc;
	int pending = 0; /* a complete sample waits in ring[head - 1] */
	for (;;) {
		rc = tbl_next(r, rowbuf);
		if (rc < 0)
			cli_die(EXIT_DATA, "%s", tbl_error(r));
		double t = rc == 1 ? rowbuf[it] : (double)NAN;
		if (rc == 1 && cur_rows > 0 && t == cur.t) {
			if (cur_rows == MAX_SAMPLE_ROWS)
				cli_die(EXIT_DATA, "%s: more than %d rows with the same t", tbl_where(r),
				    MAX_SAMPLE_ROWS);
		} else if (cur_rows > 0) {
			/* sample complete: it is ring[head] */
			sample *s = &ring[head];
			s->rows = cur_rows;
			/* a sample cut short (a stream cut inside it, rows lost) is
			 * refused wherever it is: its equations would be used as if
			 * whole. The row column numbers each sample's rows 0, 1, ... */
			if (irow >= 0 && rows_per && cur_rows != rows_per) {
				char a[32];
				fmt_double(a, s->t);
				cli_die(EXIT_DATA, "%s: the sample at t = %s has %d rows, the first had %d: "
				    "the stream was cut or rows were lost", tbl_name(r), a, cur_rows, rows_per);
			}
			head = (head + 1) % cap;
			if (fill < cap)
				fill++;
			nsamples++;
			pending = 1;
			cur_rows = 0;
		}
		if (pending) {
			pending = 0;
			sample *last = &ring[(head + cap - 1) % cap];
			if (!rows_per)
				rows_per = last->rows;
			/* which samples form the window now */
			int wn = fill;
			if (win_s) {
				wn = 0;
				while (wn < fill && ring[(head + cap - 1 - wn) % cap].t > last->t - win)
					wn++;
				if (wn == cap && fill == cap)
					cli_die(EXIT_DATA, "%s: a window of %g s holds more than %d samples; raise "
					    "--max-window", tbl_name(r), win, max_window);
			}
			int full = win_s ? (last->t - ring[(head + cap - fill) % cap].t >= win - 1e-12 || fill == cap)
			    : fill == cap;
			int due = every_s ? last->t - t_last_run >= every - 1e-12
			    : (nsamples - (long)cap) % (long)every == 0;
			if (full && due && nsamples >= (win_s ? 1 : cap)) {
				if (!ready) {
					/* every sample of a stream with a row column has
					 * rows_per rows (checked above); size the window, and
					 * the Kaczmarz Gram cache (m_max^2), from that rather
					 * than from the largest sample allowed */
					cfg.m_max = cap * (irow >= 0 ? rows_per : MAX_SAMPLE_ROWS);
					size_t len = tagk_est_workspace_len(&cfg);
					ws = malloc(len * sizeof(*ws));
					A = malloc((size_t)cfg.m_max * (size_t)n * sizeof(*A));
					bb = malloc((size_t)cfg.m_max * sizeof(*bb));
					if (!ws || !A || !bb)
						cli_die(EXIT_DATA, "out of memory for a window of up to %d rows (%.0f MB of "
						    "workspace); use a smaller --window%s", cfg.m_max,
						    (double)len * (double)sizeof(*ws) / 1e6, win_s ? " or --max-window" : "");
					tagk_status st = tagk_est_init(&est, &cfg, ws, len);
					if (st != TAGK_OK)
						cli_die(EXIT_USAGE, "%s: %s", method, tagk_strerror(st));
					if (verbose)
						cli_warn("%s, form %s, window %g%s, every %g%s", method, tagk_est_form(&est),
						    win, win_s ? " s" : " samples", every, every_s ? " s" : " samples");
					ready = 1;
				}
				int m = 0;
				for (int k = wn - 1; k >= 0; k--) {
					sample *s = &ring[(head + cap - 1 - k) % cap];
					for (int i = 0; i < s->rows; i++, m++) {
						for (int j = 0; j < n; j++)
							A[m * n + j] = (tagk_real)s->Y[i * n + j];
						bb[m] = (tagk_real)s->b[i];
					}
				}
				tagk_status st = tagk_est_update(&est, A, bb, m, theta);
				t_last_run = last->t;
				updates++;
				if (st != TAGK_OK) {
					if (!first_refusal)
						first_refusal = st;
					refused[st]++;
				} else {
					orow[0] = last->t;
					for (int j = 0; j < n; j++)
						orow[1 + j] = (double)theta[j];
					for (int j = 0; j < ntrue; j++)
						orow[1 + n + j] = last->truth[j];
					cmdio_row(out, orow);
				}
			}
		}
		if (rc == 0)
			break;
		/* add this row to the sample being assembled in ring[head] */
		sample *s = &ring[head];
		if (cur_rows == 0) {
			if (nsamples > 0 && !(t > ring[(head + cap - 1) % cap].t)) {
				char a[32], b[32];
				fmt_double(a, t);
				fmt_double(b, ring[(head + cap - 1) % cap].t);
				cli_die(EXIT_DATA, "%s: time %s does not increase (previous sample at %s)",
				    tbl_where(r), a, b);
			}
			cur.t = t;
			s->t = t;
			for (int j = 0; j < ntrue; j++)
				s->truth[j] = rowbuf[tidx[j]];
		}
		if (irow >= 0 && rowbuf[irow] != (double)cur_rows) {
			char a[32];
			fmt_double(a, rowbuf[irow]);
			cli_die(EXIT_DATA, "%s: row %s of a sample where row %d belongs: the stream was cut "
			    "or rows were lost or reordered", tbl_where(r), a, cur_rows);
		}
		for (int j = 0; j < n; j++)
			s->Y[cur_rows * n + j] = rowbuf[iy[j]];
		s->b[cur_rows] = rowbuf[ib];
		excitation_add(&exc, s->Y + cur_rows * n);
		cur_rows++;
	}
	if (nsamples == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(r));
	if (updates == 0)
		cli_die(EXIT_DATA, "%s: %ld samples, fewer than the window of %g%s: no estimate", tbl_name(r),
		    nsamples, win, win_s ? " s" : "");
	long nref = 0;
	for (int i = 0; i < TAGK_NSTATUS; i++)
		nref += refused[i];
	if (nref == updates)
		cli_die(EXIT_DATA, "%s: every update (%ld) was refused; the first reason: %s", tbl_name(r),
		    updates, tagk_strerror(first_refusal));
	if (nref) {
		char note[64];
		snprintf(note, sizeof(note), "%ld of %ld", nref, updates);
		sink_note(out, "refused_updates", note);
	}
	cmdio_commit(out);
	for (int i = 1; i < TAGK_NSTATUS; i++)
		if (refused[i])
			cli_warn("%ld of %ld updates refused (no estimate written): %s", refused[i], updates,
			    tagk_strerror((tagk_status)i));
	if (tbl_skipped(r))
		cli_warn("skipped %ld bad rows", tbl_skipped(r));
	/* the information the data hold against the prior's (excitation.h) */
	double eps = (double)tagk_window_ops_of(mt)->prior_information(&cfg);
	char what[512];
	int unexcited = quiet ? 0 : excitation_report(&exc, eps, what, sizeof(what));
	if (unexcited == n)
		cli_warn("the data did not excite any parameter: their information is below the prior's "
		    "in every direction (are the units right?), so the estimates stay at the prior "
		    "(-q silences this note)");
	else if (unexcited > 0)
		cli_warn("the data did not excite %s: the estimate there stays at its %s (-q silences "
		    "this note)", what, eps > 0 ? "prior" : "initial value");
	tbl_close(r);
	return 0;
}
