/*
 * tagk-filter: transform a stream, keeping its columns.
 *
 * On estimate streams: --physical applies the TAG-K paper's safety gate
 * (eq. 15) and holds the last valid estimate in place of a rejected one;
 * --project replaces an estimate that is not physically consistent with the
 * nearest consistent one. On logs: --from/--to cut a time range, --lowpass
 * smooths columns with a first-order filter, --decimate keeps every K-th
 * row, --noise adds seeded Gaussian noise. The steps run in that order:
 * cut, join, low-pass, decimate, noise, project, gate. --join puts other
 * per-topic files on this stream's time base (join.h). With no step it
 * converts formats (a Crazyflie uSD log or HDF5 file to CSV, CSV to HDF5
 * with -o).
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdio.h"
#include "join.h"
#include "filter_whiten.h"
#include "filter_expr.h"
#include "../formats/vehicle.h"
#include "../lib/tagk.h"

enum { MAXSPEC = 64, MAXJOIN = 16, MAXEVAL = 16 };

typedef struct {
	char cols[512];
	double v;
} spec;

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: tagk-filter [--physical] [--project] [--l-arm L] [--alpha A] [--vehicle FILE] [--floor F]\n"
	    "                   [--from T] [--to T] [--lowpass COLS=HZ]... [--decimate K]\n"
	    "                   [--noise COLS=SIGMA]... [--seed S] [--time-col NAME] [--stamp SEC,NSEC]\n"
	    "                   [--join FILE[:PREFIX]]... [--join-gap T] [--join-hold]\n"
	    "                   [--eval NAME=EXPR]... [--where EXPR]\n"
	    "                   [-f csv|hdf5|cfusd] [--skip-bad] [--ignore-crc] [--group G]\n"
	    "                   [--event E] [--stream S] [-o FILE] [FILE|-]\n"
	    "       tagk-filter --whiten V,... [-o FILE] [FILE|-]\n"
	    "       tagk-filter --help | --version\n"
	    "Transform a stream: cut, join, compute, select, low-pass, decimate, noise, project, gate, whiten.\n"
	    "      --physical         eq. (15) gate on estimates; hold the last valid one\n"
	    "      --project          replace inconsistent estimates by the nearest consistent ones\n"
	    "      --l-arm L          the gate's arm length bound in m (default 0.0325)\n"
	    "      --alpha A          the gate's inertia bound in kg m^2 (default 1e-4)\n"
	    "      --vehicle FILE     the gate's bounds from a vehicle file (its l_arm and alpha lines)\n"
	    "      --floor F          --project: the smallest eigenvalue kept (default 0)\n"
	    "      --from T           drop rows before time T\n"
	    "      --to T             drop rows after time T\n"
	    "      --lowpass COLS=HZ  first-order low-pass of COLS at HZ\n"
	    "      --decimate K       keep every K-th row\n"
	    "      --noise COLS=SIGMA add Gaussian noise to COLS\n"
	    "      --seed S           the noise seed (default 1)\n"
	    "      --time-col NAME    the time column (default t)\n"
	    "      --stamp SEC,NSEC   time = SEC + 1e-9 NSEC, in every file\n"
	    "      --join FILE[:PRE]  interpolate FILE's columns onto this time base, named PRE+name\n"
	    "      --join-gap T       longest interval of a joined file interpolated across\n"
	    "      --join-hold        take the last sample instead of interpolating\n"
	    "      --eval NAME=EXPR   add a column NAME computed from the row (muParser: + - * / ^,\n"
	    "                         sqrt, abs, min, max, ...; columns by name, e.g. acc.z * 9.80665)\n"
	    "      --where EXPR       keep the rows where EXPR holds (thrust > 0.2 && t < 30)\n"
	    "      --whiten V,...     each sample's rows times L^-1, L L^T = M(V): the stream's metric columns\n"
	    "                         at the prior V (a stage of its own; paper 002's dual metric, frozen)\n"
	    "  -o, --output FILE      write FILE (HDF5 if .h5, gzip if .gz) instead of stdout\n");
	cmdio_stream_help(f);
	cmdio_input_help(f);
}

static void
parse_spec(const char *opt, const char *arg, spec *s, double lo, double hi)
{
	const char *eq = strrchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		cli_die(EXIT_USAGE, "%s: '%s' is not COLS=VALUE", opt, arg);
	if ((size_t)(eq - arg) >= sizeof(s->cols))
		cli_die(EXIT_USAGE, "%s: column list too long", opt);
	memcpy(s->cols, arg, (size_t)(eq - arg));
	s->cols[eq - arg] = 0;
	s->v = cli_double(opt, eq + 1, lo, hi);
}

/* Mark in flags[] every column of a comma list; die on unknown names. */
static void
mark_cols(tbl_reader *r, const char *opt, const char *list, double v, double *per_col)
{
	static char buf[TBL_MAX_LINE + 1];
	static char *items[TBL_MAX_LINE / 2 + 1];
	int n = cli_split(opt, list, buf, sizeof(buf), items, TBL_MAX_LINE / 2 + 1);
	for (int j = 0; j < n; j++) {
		const char *tok = items[j];
		int i = tbl_find(r, tok);
		if (i < 0)
			cli_die(EXIT_USAGE, "%s: %s has no column '%s'", opt, tbl_name(r), tok);
		per_col[i] = v;
	}
}

/* Why eq. (15) rejected estimates, and by how much at worst. */
typedef struct {
	long n[5];       /* per TAGK_GATE_* bit */
	double c_max;    /* largest ||c|| among the centre-of-mass rejections */
	double ev_min;   /* smallest eigenvalue of I among the not-definite ones */
	double ev_max;   /* largest eigenvalue among the lambda_max ones */
} gate_stats;

static void
tally_rejection(gate_stats *g, unsigned why, const tagk_real *th, int np)
{
	for (int b = 0; b < 5; b++)
		if (why & (1u << b))
			g->n[b]++;
	if (np != TAGK_NPARAM || (why & TAGK_GATE_NONFINITE))
		return;
	if ((why & TAGK_GATE_COM) && th[0] > 0) {
		double c2 = 0;
		for (int i = 1; i <= 3; i++)
			c2 += ((double)th[i] / (double)th[0]) * ((double)th[i] / (double)th[0]);
		if (sqrt(c2) > g->c_max)
			g->c_max = sqrt(c2);
	}
	tagk_real I[9], w[3];
	tagk_theta_inertia(th, I);
	if (tagk_symeig3(I, w) != TAGK_OK)
		return;
	if ((why & TAGK_GATE_NOTPD) && (double)w[0] < g->ev_min)
		g->ev_min = (double)w[0];
	if ((why & TAGK_GATE_LMAX) && (double)w[2] > g->ev_max)
		g->ev_max = (double)w[2];
}

/* "m <= 0 in 3; ||c|| > L_arm in 50 (largest 0.051 m: --l-arm 0.0325) ..." */
static void
gate_reasons(const gate_stats *g, double l_arm, double alpha, char *buf, size_t len)
{
	size_t u = 0;
	buf[0] = 0;
#define ADD(...) (u += (size_t)snprintf(buf + (u < len ? u : len - 1), u < len ? len - u : 1, __VA_ARGS__))
	if (g->n[0]) ADD("%snot finite in %ld", u ? "; " : "", g->n[0]);
	if (g->n[1]) ADD("%sm <= 0 in %ld", u ? "; " : "", g->n[1]);
	if (g->n[2]) ADD("%s||c|| > L_arm in %ld (largest %.3g m against --l-arm %g)", u ? "; " : "", g->n[2],
	    g->c_max, l_arm);
	if (g->n[3]) ADD("%sinertia not positive definite in %ld (smallest eigenvalue %.3g kg m^2)",
	    u ? "; " : "", g->n[3], g->ev_min);
	if (g->n[4]) ADD("%slambda_max > alpha in %ld (largest %.3g kg m^2 against --alpha %g)", u ? "; " : "",
	    g->n[4], g->ev_max, alpha);
#undef ADD
}

/* --where and --eval over the input's columns: the expressions see the row
 * as read, and each --eval column those before it. */
typedef struct {
	int nev;
	fexpr *where, *ev[MAXEVAL];
	char name[MAXEVAL][64];
	double *vals;        /* the input's columns (the row itself), then the evals */
	const double *row;
	int nc;
	long skipped;
} exprs;

static fexpr *
expr_or_die(const char *opt, const char *text, int nvars, const char *const *names, double *vals)
{
	char err[512];
	fexpr *e = fexpr_compile(text, nvars, names, vals, err, sizeof(err));
	if (!e)
		cli_die(EXIT_USAGE, "%s '%s': %s", opt, text, err);
	return e;
}

static void
exprs_open(exprs *x, tbl_reader *r, double *row, const char *where, const char *const *evals, int nev)
{
	memset(x, 0, sizeof(*x));
	x->nev = nev;
	x->nc = tbl_ncols(r);
	x->row = row;
	if (!where && !nev)
		return;
	const char **vn = malloc((size_t)(x->nc + nev) * sizeof(*vn));
	x->vals = calloc((size_t)(x->nc + nev), sizeof(double));
	if (!vn || !x->vals)
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 0; i < x->nc; i++)
		vn[i] = tbl_col(r, i);
	for (int k = 0; k < nev; k++) {
		const char *eq = strchr(evals[k], '=');
		if (!eq || eq == evals[k] || (size_t)(eq - evals[k]) >= sizeof(x->name[k]))
			cli_die(EXIT_USAGE, "--eval: '%s' is not NAME=EXPRESSION", evals[k]);
		snprintf(x->name[k], sizeof(x->name[k]), "%.*s", (int)(eq - evals[k]), evals[k]);
		if (tbl_find(r, x->name[k]) >= 0)
			cli_die(EXIT_USAGE, "--eval %s: the input has a column %s already", x->name[k], x->name[k]);
		char opt[96];
		snprintf(opt, sizeof(opt), "--eval %s", x->name[k]);
		memcpy(x->vals, row, (size_t)x->nc * sizeof(double));
		x->ev[k] = expr_or_die(opt, eq + 1, x->nc + k, vn, x->vals);
		vn[x->nc + k] = x->name[k];
	}
	if (where) {
		memcpy(x->vals, row, (size_t)x->nc * sizeof(double));
		x->where = expr_or_die("--where", where, x->nc + nev, vn, x->vals);
	}
	free(vn);
}

/* Evaluate the row: the --eval values into out; 0 if --where drops the
 * row. A value that is not finite is an error naming the row, or the row
 * is skipped with --skip-bad. */
static int
exprs_row(exprs *x, tbl_reader *r, int skip_bad, double *out)
{
	char why[256] = "";
	memcpy(x->vals, x->row, (size_t)x->nc * sizeof(double));
	for (int k = 0; k < x->nev; k++) {
		double v = fexpr_eval(x->ev[k], why, sizeof(why));
		if (!isfinite(v)) {
			if (skip_bad) {
				x->skipped++;
				return 0;
			}
			cli_die(EXIT_DATA, "%s: --eval %s gives %g%s%s (--skip-bad skips such rows)", tbl_where(r),
			    x->name[k], v, *why ? ": " : "", why);
		}
		x->vals[x->nc + k] = out[k] = v;
	}
	if (!x->where)
		return 1;
	double w = fexpr_eval(x->where, why, sizeof(why));
	if (isnan(w)) {
		if (skip_bad) {
			x->skipped++;
			return 0;
		}
		cli_die(EXIT_DATA, "%s: --where is neither true nor false here (NaN%s%s; --skip-bad skips such rows)",
		    tbl_where(r), *why ? ": " : "", why);
	}
	return w != 0;
}

static void
exprs_close(exprs *x)
{
	if (x->skipped)
		cli_warn("skipped %ld row%s where an expression was not finite", x->skipped, x->skipped == 1 ? "" : "s");
	for (int k = 0; k < x->nev; k++)
		fexpr_free(x->ev[k]);
	fexpr_free(x->where);
	free(x->vals);
}

int
main(int argc, char **argv)
{
	cli_init(argv[0]);
	static const struct option opts[] = {
		{ "physical", no_argument, NULL, 4001 },
		{ "project", no_argument, NULL, 4002 },
		{ "l-arm", required_argument, NULL, 4003 },
		{ "alpha", required_argument, NULL, 4004 },
		{ "floor", required_argument, NULL, 4005 },
		{ "from", required_argument, NULL, 4006 },
		{ "to", required_argument, NULL, 4007 },
		{ "lowpass", required_argument, NULL, 4008 },
		{ "decimate", required_argument, NULL, 4009 },
		{ "noise", required_argument, NULL, 4010 },
		{ "seed", required_argument, NULL, 4011 },
		{ "time-col", required_argument, NULL, 4012 },
		{ "join", required_argument, NULL, 4013 },
		{ "join-gap", required_argument, NULL, 4014 },
		{ "join-hold", no_argument, NULL, 4015 },
		{ "stamp", required_argument, NULL, 4016 },
		{ "vehicle", required_argument, NULL, 4017 },
		{ "whiten", required_argument, NULL, 4018 },
		{ "where", required_argument, NULL, 4019 },
		{ "eval", required_argument, NULL, 4020 },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		CMDIO_INPUT_OPTIONS,
		CMDIO_OUTPUT_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	tbl_options in = { 0 };
	int physical = 0, project = 0, decimate = 1, nlow = 0, nnoise = 0;
	double l_arm = 0.0325, alpha = 1e-4, floor_ev = 0, from = -INFINITY, to = INFINITY;
	uint64_t seed = 1;
	const char *outname = NULL, *tcol = "t", *stamp = NULL, *joins[MAXJOIN];
	int njoin = 0, join_hold = 0, l_arm_set = 0, alpha_set = 0;
	const char *vehfile = NULL, *whiten = NULL, *where = NULL, *evals[MAXEVAL];
	int nev = 0;
	double join_gap = 0;
	static spec low[MAXSPEC], noise[MAXSPEC];
	int c;
	while ((c = cli_getopt(argc, argv, "f:o:hV", opts)) != -1) {
		if (cmdio_input_option(&in, c, optarg) || cmdio_output_option(c, optarg))
			continue;
		switch (c) {
		case 4001: physical = 1; break;
		case 4002: project = 1; break;
		case 4003: l_arm = cli_double("--l-arm", optarg, 0, 1e6); l_arm_set = 1; break;
		case 4004: alpha = cli_double("--alpha", optarg, 0, 1e12); alpha_set = 1; break;
		case 4005: floor_ev = cli_double("--floor", optarg, 0, 1e6); break;
		case 4006: from = cli_double("--from", optarg, -1e300, 1e300); break;
		case 4007: to = cli_double("--to", optarg, -1e300, 1e300); break;
		case 4008:
			if (nlow == MAXSPEC) cli_die(EXIT_USAGE, "--lowpass: at most %d", MAXSPEC);
			parse_spec("--lowpass", optarg, &low[nlow++], 1e-12, 1e12);
			break;
		case 4009: decimate = (int)cli_long("--decimate", optarg, 1, 1000000000); break;
		case 4010:
			if (nnoise == MAXSPEC) cli_die(EXIT_USAGE, "--noise: at most %d", MAXSPEC);
			parse_spec("--noise", optarg, &noise[nnoise++], 0, 1e300);
			break;
		case 4011: seed = cli_u64("--seed", optarg); break;
		case 4012: tcol = optarg; break;
		case 4013:
			if (njoin == MAXJOIN) cli_die(EXIT_USAGE, "--join: at most %d files", MAXJOIN);
			joins[njoin++] = optarg;
			break;
		case 4014: join_gap = cli_double("--join-gap", optarg, 1e-300, 1e300); break;
		case 4015: join_hold = 1; break;
		case 4016: stamp = optarg; break;
		case 4017: vehfile = optarg; break;
		case 4018: whiten = optarg; break;
		case 4019:
			if (where) cli_die(EXIT_USAGE, "--where: one expression (join conditions with &&)");
			where = optarg;
			break;
		case 4020:
			if (nev == MAXEVAL) cli_die(EXIT_USAGE, "--eval: at most %d", MAXEVAL);
			evals[nev++] = optarg;
			break;
		case 'o': outname = optarg; break;
		case 'h': cli_help(usage);
		case 'V': cli_version();
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (argc - optind > 1)
		cli_die(EXIT_USAGE, "one input file at most");
	if (whiten) {
		/* a stage of its own: it regroups rows by sample */
		if (physical || project || vehfile || nlow || nnoise || njoin || decimate != 1 || stamp || isfinite(from)
		    || isfinite(to) || strcmp(tcol, "t") || where || nev)
			cli_die(EXIT_USAGE, "--whiten is a stage of its own: run the other transformations in another "
			    "tagk-filter");
		double th[TAGK_NPARAM];
		char wbuf[1024], *items[TAGK_NPARAM + 1];
		int nw = cli_split("--whiten", whiten, wbuf, sizeof(wbuf), items, TAGK_NPARAM + 1);
		for (int i = 0; i < nw && i < TAGK_NPARAM; i++)
			th[i] = cli_double("--whiten", items[i], -1e300, 1e300);
		return filter_whiten(optind < argc ? argv[optind] : "-", &in, th, nw, outname);
	}
	if (!(from <= to))
		cli_die(EXIT_USAGE, "--from %g is after --to %g", from, to);
	if (vehfile) {
		/* the vehicle's bounds, unless --l-arm or --alpha overrides one */
		if (!physical)
			cli_die(EXIT_USAGE, "--vehicle applies to --physical");
		vehicle v;
		cmdio_vehicle(vehfile, &v, 0);
		if (isnan(v.gate_l_arm) && isnan(v.gate_alpha))
			cli_die(EXIT_DATA, "%s: no 'l_arm' or 'alpha' line for the physical gate", vehfile);
		if (!l_arm_set && !isnan(v.gate_l_arm))
			l_arm = v.gate_l_arm;
		if (!alpha_set && !isnan(v.gate_alpha))
			alpha = v.gate_alpha;
	}

	tbl_reader *r = cmdio_open_input(optind < argc ? argv[optind] : "-", &in);
	int nc = tbl_ncols(r);
	tbl_want_numeric(r);
	if ((join_gap > 0 || join_hold) && njoin == 0)
		cli_die(EXIT_USAGE, "--join-gap and --join-hold apply to --join");
	join_time jt = { tcol, stamp };
	int it = tbl_find(r, tcol), it2 = -1;
	int need_time = nlow > 0 || isfinite(from) || isfinite(to) || njoin > 0 || stamp;
	if (need_time)
		join_time_cols(r, &jt, &it, &it2);
	if (stamp && tbl_find(r, tcol) >= 0)
		cli_die(EXIT_DATA, "%s: --stamp makes a column '%s', which the stream has already (rename "
		    "it with --time-col)", tbl_name(r), tcol);
	join_src *js[MAXJOIN];
	int njcols = 0;
	for (int k = 0; k < njoin; k++) {
		js[k] = join_load(joins[k], &jt, &in, join_gap, join_hold);
		njcols += join_ncols(js[k]);
	}
	double *cut = calloc((size_t)nc, sizeof(double)), *sig = calloc((size_t)nc, sizeof(double));
	double *state = calloc((size_t)nc, sizeof(double)), *row = malloc((size_t)nc * sizeof(double));
	if (!cut || !sig || !state || !row)
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 0; i < nlow; i++)
		mark_cols(r, "--lowpass", low[i].cols, low[i].v, cut);
	for (int i = 0; i < nnoise; i++)
		mark_cols(r, "--noise", noise[i].cols, noise[i].v, sig);
	int ip[TAGK_NPARAM], np = 0;
	for (int j = 0; j < TAGK_NPARAM; j++)
		ip[j] = tbl_find(r, tagk_param_names[j]);
	while (np < TAGK_NPARAM && ip[np] >= 0)
		np++;
	if ((physical || project) && np != 1 && np != TAGK_NPARAM)
		cli_die(EXIT_DATA, "%s: --physical and --project need an estimate stream with column m "
		    "(and mcx ... Izz for the rigid body), as tagk-estimate writes", tbl_name(r));

	/* text columns (a name, a flight mode) are known after the first row:
	 * they are dropped, unless an option asked for them */
	int rc = tbl_next(r, row);
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	const char **names = malloc((size_t)(nc + 1 + njcols + nev) * sizeof(*names));
	int *keep = malloc((size_t)nc * sizeof(*keep)), nkeep = 0, nout = 0;
	double *orow = malloc((size_t)(nc + 1 + njcols + nev) * sizeof(*orow));
	if (!names || !keep || !orow)
		cli_die(EXIT_DATA, "out of memory");
	if (stamp)
		names[nout++] = tcol; /* the combined time comes first */
	for (int i = 0; i < nc; i++) {
		if (stamp && (i == it || i == it2))
			continue;
		if (!tbl_is_text(r, i)) {
			names[nout++] = tbl_col(r, i);
			keep[nkeep++] = i;
			continue;
		}
		const char *why = i == it && need_time ? "the time column" : cut[i] > 0 ? "a --lowpass column"
		    : sig[i] > 0 ? "a --noise column" : NULL;
		for (int j = 0; j < np && !why; j++)
			if (i == ip[j] && (physical || project))
				why = "an estimate column";
		if (why)
			cli_die(EXIT_DATA, "%s: column '%s' is text, but it is %s", tbl_name(r), tbl_col(r, i), why);
		cli_warn("%s: column '%s' is text: left out", tbl_name(r), tbl_col(r, i));
	}
	if (nkeep == 0 && !stamp)
		cli_die(EXIT_DATA, "%s: every column is text", tbl_name(r));
	for (int k = 0; k < njoin; k++)
		for (int c2 = 0; c2 < join_ncols(js[k]); c2++)
			names[nout++] = join_name(js[k], c2);
	exprs ex;
	exprs_open(&ex, r, row, where, evals, nev);
	for (int k = 0; k < nev; k++)
		names[nout++] = ex.name[k];
	for (int a = 0; a < nout; a++)
		for (int b = a + 1; b < nout; b++)
			if (strcmp(names[a], names[b]) == 0)
				cli_die(EXIT_DATA, "two output columns named '%s': give the joined file a prefix "
				    "(--join FILE:PREFIX)", names[a]);
	sink *out = cmdio_open_output(outname, TBL_AUTO);
	cmdio_header(out, nout, names);

	tagk_rng g;
	tagk_rng_seed(&g, seed);
	long nin = 0, kept_rows = 0, seen = 0, rejected = 0, dropped = 0, projected = 0, estimates = 0;
	double tprev = NAN, held[TAGK_NPARAM];
	gate_stats gs = { { 0 }, 0, INFINITY, 0 };
	int have_held = 0, first_lp = 1;
	double tlast = -INFINITY;
	long join_dropped_rows = 0;
	for (; rc == 1; rc = tbl_next(r, row)) {
		nin++;
		double tv = it < 0 ? (double)NAN : row[it] + (it2 >= 0 ? 1e-9 * row[it2] : 0);
		if (it >= 0 && (tv < from || tv > to))
			continue;
		if ((where || nev) && !exprs_row(&ex, r, in.skip_bad, orow + (stamp ? 1 : 0) + nkeep + njcols))
			continue;
		if (njoin) {
			if (!(tv > tlast))
				cli_die(EXIT_DATA, "%s: time does not increase, so --join cannot run", tbl_where(r));
			tlast = tv;
			int ok = 1, o = (stamp ? 1 : 0) + nkeep;
			for (int k = 0; k < njoin; k++) {
				ok &= join_at(js[k], tv, orow + o);
				o += join_ncols(js[k]);
			}
			if (!ok) {
				join_dropped_rows++;
				continue;
			}
		}
		if (nlow) {
			double dt = first_lp ? 0 : tv - tprev;
			if (!first_lp && !(dt > 0))
				cli_die(EXIT_DATA, "%s: time does not increase, so --lowpass cannot run",
				    tbl_where(r));
			for (int i = 0; i < nc; i++) {
				if (cut[i] <= 0)
					continue;
				if (first_lp)
					state[i] = row[i];
				else
					state[i] += (1 - exp(-2 * M_PI * cut[i] * dt)) * (row[i] - state[i]);
				row[i] = state[i];
			}
			first_lp = 0;
			tprev = tv;
		}
		if (seen++ % decimate != 0)
			continue;
		for (int i = 0; i < nc; i++)
			if (sig[i] > 0)
				row[i] += sig[i] * (double)tagk_rng_gaussian(&g);
		if (physical || project) {
			estimates++;
			tagk_real th[TAGK_NPARAM];
			for (int j = 0; j < np; j++)
				th[j] = (tagk_real)row[ip[j]];
			if (project) {
				int bad = np == 1 ? !(th[0] > floor_ev) : !tagk_consistent(th, (tagk_real)1e-12);
				if (bad) {
					if (np == 1) {
						th[0] = (tagk_real)floor_ev;
					} else if (tagk_project(th, (tagk_real)floor_ev, th) != TAGK_OK) {
						cli_die(EXIT_DATA, "%s: cannot project a non-finite estimate", tbl_where(r));
					}
					projected++;
					for (int j = 0; j < np; j++)
						row[ip[j]] = (double)th[j];
				}
			}
			if (physical) {
				unsigned why = np == 1 ? (th[0] > 0 && isfinite((double)th[0]) ? 0u : TAGK_GATE_MASS)
				    : tagk_gate(th, (tagk_real)l_arm, (tagk_real)alpha);
				int ok = why == 0;
				if (!ok)
					tally_rejection(&gs, why, th, np);
				if (ok) {
					for (int j = 0; j < np; j++)
						held[j] = row[ip[j]];
					have_held = 1;
				} else {
					rejected++;
					if (!have_held) {
						dropped++;
						continue;
					}
					for (int j = 0; j < np; j++)
						row[ip[j]] = held[j];
				}
			}
		}
		int o = 0;
		if (stamp)
			orow[o++] = tv;
		for (int k = 0; k < nkeep; k++)
			orow[o++] = row[keep[k]];
		cmdio_row(out, orow);
		kept_rows++;
	}
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	if (nin == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(r));
	char reasons[512];
	gate_reasons(&gs, l_arm, alpha, reasons, sizeof(reasons));
	if (kept_rows == 0 && physical && rejected == estimates)
		cli_die(EXIT_DATA, "%s: no row left: eq. 15 rejected all %ld estimates: %s", tbl_name(r),
		    estimates, reasons);
	if (kept_rows == 0 && join_dropped_rows)
		cli_die(EXIT_DATA, "%s: no row left: every row fell outside a joined file's time span or "
		    "in one of its gaps (--join-gap)", tbl_name(r));
	if (kept_rows == 0 && where)
		cli_die(EXIT_DATA, "%s: no row left: --where '%s' held on none of the %ld rows read", tbl_name(r), where,
		    nin);
	if (kept_rows == 0)
		cli_die(EXIT_DATA, "%s: no row left after filtering (%ld read)", tbl_name(r), nin);
	cmdio_commit(out);
	if (physical && rejected)
		cli_warn("rejected %ld of %ld estimates (eq. 15), held the last valid one: %s", rejected,
		    estimates, reasons);
	else if (physical)
		cli_warn("rejected 0 of %ld estimates (eq. 15, L_arm %g m, alpha %g kg m^2)", estimates, l_arm,
		    alpha);
	if (dropped)
		cli_warn("dropped %ld rejected estimates that came before the first valid one", dropped);
	if (project)
		cli_warn("projected %ld of %ld estimates onto the physically consistent set", projected, estimates);
	if (tbl_skipped(r))
		cli_warn("skipped %ld bad row%s", tbl_skipped(r), tbl_skipped(r) == 1 ? "" : "s");
	exprs_close(&ex);
	for (int k = 0; k < njoin; k++) {
		long outside, gaps;
		join_dropped(js[k], &outside, &gaps);
		if (outside || gaps) {
			cli_warn("--join %s: dropped %ld rows outside its time span and %ld in its gaps "
			    "longer than %.4g", join_path(js[k]), outside, gaps, join_max_gap(js[k]));
		}
		join_free(js[k]);
	}
	tbl_close(r);
	return 0;
}
