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
#include "filter_list.h"
#include "filter_gate.h"
#include "filter_select.h"
#include "unitguard.h"
#include "../formats/vehicle.h"
#include "../lib/tagk.h"

enum { MAXSPEC = 64, MAXJOIN = 16 };

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
	    "                   [--noise COLS=SIGMA]... [--seed S] [--time-col NAME] [--time-unit U]\n"
	    "                   [--stamp SEC,NSEC]\n"
	    "                   [--join FILE[:PREFIX]]... [--join-gap T] [--join-hold]\n"
	    "                   [--eval NAME=EXPR]... [--where EXPR]\n"
	    "                   [-f csv|hdf5|cfusd] [--skip-bad] [--ignore-crc] [--group G]\n"
	    "                   [--event E] [--old-stream] [--stream S] [-o FILE] [FILE|-]\n"
	    "       tagk-filter --whiten V,... [-o FILE] [FILE|-]\n"
	    "       tagk-filter --list [--time-col NAME] [FILE|-]\n"
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
	    "      --time-unit U      --lowpass: the time column in s (default), ms, us or ns (a log whose\n"
	    "                         samples are over 0.5 s apart is refused unless this is given)\n"
	    "      --stamp SEC,NSEC   time = SEC + 1e-9 NSEC, in every file\n"
	    "      --join FILE[:PRE]  interpolate FILE's columns onto this time base, named PRE+name\n"
	    "      --join-gap T       longest interval of a joined file interpolated across\n"
	    "      --join-hold        take the last sample instead of interpolating\n"
	    "      --eval NAME=EXPR   add a column NAME computed from the row (muParser: + - * / ^,\n"
	    "                         sqrt, abs, min, max, ...; columns by name, e.g. acc.z * 9.80665)\n"
	    "      --where EXPR       keep the rows where EXPR holds (thrust > 0.2 && t < 30); one\n"
	    "                         expression: no '=' (== compares), no ',' outside f(a, b); NaN\n"
	    "                         anywhere in it is an error, not false (tagk-filter(1), EXPRESSIONS)\n"
	    "      --whiten V,...     each sample's rows times L^-1, L L^T = M(V): the stream's metric columns\n"
	    "                         at the prior V (a stage of its own; paper 002's dual metric, frozen)\n"
	    "      --list             what the log holds: a PX4 ULog's topics (samples, rate, span, fields)\n"
	    "                         and parameters, another's rows, rate and columns; nothing else runs\n"
	    "      --old-stream       read a binary stream of version 2 or 3 (older tagk), which\n"
	    "                         other commands refuse: with no step, converts it\n"
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
			cli_die(EXIT_USAGE, "%s: %s has no column '%s'%s", opt, tbl_name(r), tok, cmdio_unread_hint(r, tok));
		per_col[i] = v;
	}
}

/* The options, as parsed. */
typedef struct {
	tbl_options in;
	filter_gate gate;         /* --physical, --project and their bounds */
	int l_arm_set, alpha_set;
	int decimate, nlow, nnoise, njoin, join_hold, nev;
	double from, to, join_gap;
	double tscale;            /* --time-unit: seconds per unit of the time column */
	int tscale_set;
	int list;                 /* --list */
	uint64_t seed;
	const char *input, *outname, *tcol, *stamp, *vehfile, *whiten, *where;
	const char *joins[MAXJOIN], *evals[MAXEVAL];
	spec low[MAXSPEC], noise[MAXSPEC];
} filter_opts;

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
	{ "time-unit", required_argument, NULL, 4021 },
	{ "list", no_argument, NULL, 4022 },
	{ "old-stream", no_argument, NULL, 4023 },
	CMDIO_OPTIONS_END,
};

/* One option of the steps (not input or output); 0 if c is not one. */
static int
step_option(filter_opts *o, int c, const char *arg)
{
	switch (c) {
	case 4001: o->gate.physical = 1; return 1;
	case 4002: o->gate.project = 1; return 1;
	case 4003: o->gate.l_arm = cli_double("--l-arm", arg, 0, 1e6); o->l_arm_set = 1; return 1;
	case 4004: o->gate.alpha = cli_double("--alpha", arg, 0, 1e12); o->alpha_set = 1; return 1;
	case 4005: o->gate.floor_ev = cli_double("--floor", arg, 0, 1e6); return 1;
	case 4006: o->from = cli_double("--from", arg, -1e300, 1e300); return 1;
	case 4007: o->to = cli_double("--to", arg, -1e300, 1e300); return 1;
	case 4008:
		if (o->nlow == MAXSPEC) cli_die(EXIT_USAGE, "--lowpass: at most %d", MAXSPEC);
		parse_spec("--lowpass", arg, &o->low[o->nlow++], 1e-12, 1e12);
		return 1;
	case 4009: o->decimate = (int)cli_long("--decimate", arg, 1, 1000000000); return 1;
	case 4010:
		if (o->nnoise == MAXSPEC) cli_die(EXIT_USAGE, "--noise: at most %d", MAXSPEC);
		parse_spec("--noise", arg, &o->noise[o->nnoise++], 0, 1e300);
		return 1;
	case 4011: o->seed = cli_u64("--seed", arg); return 1;
	case 4012: o->tcol = arg; return 1;
	case 4013:
		if (o->njoin == MAXJOIN) cli_die(EXIT_USAGE, "--join: at most %d files", MAXJOIN);
		o->joins[o->njoin++] = arg;
		return 1;
	case 4014: o->join_gap = cli_double("--join-gap", arg, 1e-300, 1e300); return 1;
	case 4015: o->join_hold = 1; return 1;
	case 4016: o->stamp = arg; return 1;
	case 4017: o->vehfile = arg; return 1;
	case 4018: o->whiten = arg; return 1;
	case 4019:
		if (o->where) cli_die(EXIT_USAGE, "--where: one expression (join conditions with &&)");
		o->where = arg;
		return 1;
	case 4020:
		if (o->nev == MAXEVAL) cli_die(EXIT_USAGE, "--eval: at most %d", MAXEVAL);
		o->evals[o->nev++] = arg;
		return 1;
	case 4021: o->tscale = timeunit_scale("--time-unit", arg); o->tscale_set = 1; return 1;
	case 4022: o->list = 1; return 1;
	case 4023: o->in.old_stream = 1; return 1;
	}
	return 0;
}

static void
parse(filter_opts *o, int argc, char **argv)
{
	*o = (filter_opts){ .decimate = 1, .from = -INFINITY, .to = INFINITY, .seed = 1, .tcol = "t", .tscale = 1 };
	o->gate.l_arm = 0.0325, o->gate.alpha = 1e-4;
	int c;
	while ((c = cli_getopt(argc, argv, "f:o:hV", opts)) != -1) {
		if (cmdio_input_option(&o->in, c, optarg) || cmdio_output_option(c, optarg) || step_option(o, c, optarg))
			continue;
		switch (c) {
		case 'o': o->outname = optarg; break;
		case 'h': cli_help(usage);
		case 'V': cli_version();
		default: usage(stderr); exit(EXIT_USAGE);
		}
	}
	if (argc - optind > 1)
		cli_die(EXIT_USAGE, "one input file at most");
	/* only --lowpass reads time as seconds; --from, --to and --join-gap
	 * are in the time column's own unit */
	if (o->tscale_set && !o->nlow)
		cli_die(EXIT_USAGE, "--time-unit applies to --lowpass (--from, --to and --join-gap are in the "
		    "time column's own unit)");
	if (o->tscale_set && o->stamp)
		cli_die(EXIT_USAGE, "--time-unit: --stamp's time is in seconds already");
	o->input = optind < argc ? argv[optind] : "-";
}

/* --whiten: a stage of its own, as it regroups rows by sample. */
static int
run_whiten(const filter_opts *o)
{
	if (o->gate.physical || o->gate.project || o->vehfile || o->nlow || o->nnoise || o->njoin || o->decimate != 1
	    || o->stamp || isfinite(o->from) || isfinite(o->to) || strcmp(o->tcol, "t") || o->where || o->nev)
		cli_die(EXIT_USAGE, "--whiten is a stage of its own: run the other transformations in another "
		    "tagk-filter");
	double th[TAGK_NPARAM];
	char wbuf[1024], *items[TAGK_NPARAM + 1];
	int nw = cli_split("--whiten", o->whiten, wbuf, sizeof(wbuf), items, TAGK_NPARAM + 1);
	for (int i = 0; i < nw && i < TAGK_NPARAM; i++)
		th[i] = cli_double("--whiten", items[i], -1e300, 1e300);
	return filter_whiten(o->input, &o->in, th, nw, o->outname);
}

/* --vehicle: the gate's bounds, unless --l-arm or --alpha overrides one. */
static void
vehicle_bounds(filter_opts *o)
{
	if (!o->gate.physical)
		cli_die(EXIT_USAGE, "--vehicle applies to --physical");
	vehicle v;
	cmdio_vehicle(o->vehfile, &v, 0);
	if (isnan(v.gate_l_arm) && isnan(v.gate_alpha))
		cli_die(EXIT_DATA, "%s: no 'l_arm' or 'alpha' line for the physical gate", o->vehfile);
	if (!o->l_arm_set && !isnan(v.gate_l_arm))
		o->gate.l_arm = v.gate_l_arm;
	if (!o->alpha_set && !isnan(v.gate_alpha))
		o->gate.alpha = v.gate_alpha;
}

/* A run: the input, the joined files, the per-column settings, the output
 * columns (stamp time, kept input columns, joined columns, evals) and the
 * counts. */
typedef struct {
	filter_opts *o;
	tbl_reader *r;
	int nc, it, it2, need_time;
	join_src *js[MAXJOIN];
	int njcols;
	double *cut, *sig, *state, *row, *orow;
	int *keep, nkeep, nout;
	const char **names;
	exprs ex;
	sink *out;
	tagk_rng g;
	long nin, kept_rows, seen, join_dropped_rows;
	double tprev, tlast;
	int first_lp;
	timeunit tu;              /* --lowpass: time in seconds, checked (unitguard.h) */
} filter_run;

static void
open_run(filter_run *w, filter_opts *o)
{
	*w = (filter_run){ .o = o, .tprev = NAN, .tlast = -INFINITY, .first_lp = 1 };
	tbl_reader *r = w->r = cmdio_open_input(o->input, &o->in);
	int nc = w->nc = tbl_ncols(r);
	tbl_want_numeric(r);
	if ((o->join_gap > 0 || o->join_hold) && o->njoin == 0)
		cli_die(EXIT_USAGE, "--join-gap and --join-hold apply to --join");
	join_time jt = { o->tcol, o->stamp };
	w->it = tbl_find(r, o->tcol), w->it2 = -1;
	w->need_time = o->nlow > 0 || isfinite(o->from) || isfinite(o->to) || o->njoin > 0 || o->stamp;
	if (w->need_time)
		join_time_cols(r, &jt, &w->it, &w->it2);
	if (o->stamp && tbl_find(r, o->tcol) >= 0)
		cli_die(EXIT_DATA, "%s: --stamp makes a column '%s', which the stream has already (rename "
		    "it with --time-col)", tbl_name(r), o->tcol);
	for (int k = 0, stdin_used = strcmp(o->input, "-") == 0; k < o->njoin; k++) {
		/* joined files are read as the stream goes: standard input can
		 * feed one of them, or the stream, not two */
		if (strcmp(o->joins[k], "-") == 0 || strncmp(o->joins[k], "-:", 2) == 0) {
			if (stdin_used)
				cli_die(EXIT_USAGE, "--join -: standard input is read already (by the stream or another "
				    "--join): name the file");
			stdin_used = 1;
		}
		w->js[k] = join_load(o->joins[k], &jt, &o->in, o->join_gap, o->join_hold);
		w->njcols += join_ncols(w->js[k]);
	}
	w->cut = calloc((size_t)nc, sizeof(double)), w->sig = calloc((size_t)nc, sizeof(double));
	w->state = calloc((size_t)nc, sizeof(double)), w->row = malloc((size_t)nc * sizeof(double));
	int width = nc + 1 + w->njcols + o->nev;
	w->names = malloc((size_t)width * sizeof(*w->names));
	w->keep = malloc((size_t)nc * sizeof(*w->keep));
	w->orow = malloc((size_t)width * sizeof(*w->orow));
	if (!w->cut || !w->sig || !w->state || !w->row || !w->names || !w->keep || !w->orow)
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 0; i < o->nlow; i++)
		mark_cols(r, "--lowpass", o->low[i].cols, o->low[i].v, w->cut);
	/* --lowpass's HZ are per second: a log stamped in ms read as seconds
	 * would pass through unfiltered, its steps 1000 "s" long */
	timeunit_init(&w->tu, !o->nlow || o->tscale_set || o->stamp, tbl_name(r), o->tcol);
	for (int i = 0; i < o->nnoise; i++)
		mark_cols(r, "--noise", o->noise[i].cols, o->noise[i].v, w->sig);
	fgate_open(&o->gate, r);
	tagk_rng_seed(&w->g, o->seed);
}

/* The output's columns, once the first row (in w->row) says which input
 * columns are text: those are dropped, unless a step reads them. */
static void
columns(filter_run *w)
{
	const filter_opts *o = w->o;
	tbl_reader *r = w->r;
	if (o->stamp)
		w->names[w->nout++] = o->tcol; /* the combined time comes first */
	for (int i = 0; i < w->nc; i++) {
		if (o->stamp && (i == w->it || i == w->it2))
			continue;
		if (!tbl_is_text(r, i)) {
			w->names[w->nout++] = tbl_col(r, i);
			w->keep[w->nkeep++] = i;
			continue;
		}
		const char *why = i == w->it && w->need_time ? "the time column" : w->cut[i] > 0 ? "a --lowpass column"
		    : w->sig[i] > 0 ? "a --noise column" : fgate_is_column(&o->gate, i) ? "an estimate column" : NULL;
		if (why)
			cli_die(EXIT_DATA, "%s: column '%s' is text, but it is %s", tbl_name(r), tbl_col(r, i), why);
		cli_warn("%s: column '%s' is text: left out", tbl_name(r), tbl_col(r, i));
	}
	if (w->nkeep == 0 && !o->stamp)
		cli_die(EXIT_DATA, "%s: every column is text", tbl_name(r));
	for (int k = 0; k < o->njoin; k++)
		for (int c = 0; c < join_ncols(w->js[k]); c++)
			w->names[w->nout++] = join_name(w->js[k], c);
	exprs_open(&w->ex, r, w->row, o->where, o->evals, o->nev);
	for (int k = 0; k < o->nev; k++)
		w->names[w->nout++] = w->ex.name[k];
	for (int a = 0; a < w->nout; a++)
		for (int b = a + 1; b < w->nout; b++)
			if (strcmp(w->names[a], w->names[b]) == 0)
				cli_die(EXIT_DATA, "two output columns named '%s': give the joined file a prefix "
				    "(--join FILE:PREFIX)", w->names[a]);
	w->out = cmdio_open_output(o->outname, TBL_AUTO);
	cmdio_header(w->out, w->nout, w->names);
}

/* --join: the joined files' values at tv into the output row; 0 when one
 * has none there (outside its span, or in a gap). */
static int
join_row(filter_run *w, double tv)
{
	if (!(tv > w->tlast))
		cli_die(EXIT_DATA, "%s: time does not increase, so --join cannot run", tbl_where(w->r));
	w->tlast = tv;
	int ok = 1, o = (w->o->stamp ? 1 : 0) + w->nkeep;
	for (int k = 0; k < w->o->njoin; k++) {
		ok &= join_at(w->js[k], tv, w->orow + o);
		o += join_ncols(w->js[k]);
	}
	return ok;
}

/* --lowpass: a first-order filter of the marked columns, in place; tv in
 * the time column's unit. */
static void
lowpass_row(filter_run *w, double tv)
{
	double dt = w->first_lp ? 0 : (tv - w->tprev) * w->o->tscale;
	if (!w->first_lp && !(dt > 0))
		cli_die(EXIT_DATA, "%s: time does not increase, so --lowpass cannot run", tbl_where(w->r));
	for (int i = 0; i < w->nc; i++) {
		if (w->cut[i] <= 0)
			continue;
		if (w->first_lp)
			w->state[i] = w->row[i];
		else
			w->state[i] += (1 - exp(-2 * M_PI * w->cut[i] * dt)) * (w->row[i] - w->state[i]);
		w->row[i] = w->state[i];
	}
	w->first_lp = 0;
	w->tprev = tv;
	timeunit_add(&w->tu, tv * w->o->tscale);
}

/* The steps on the row in w->row, in the order of the header comment;
 * the output row written unless a step drops it. */
static void
filter_row(filter_run *w)
{
	filter_opts *o = w->o;
	w->nin++;
	double tv = w->it < 0 ? (double)NAN : w->row[w->it] + (w->it2 >= 0 ? 1e-9 * w->row[w->it2] : 0);
	if (w->it >= 0 && (tv < o->from || tv > o->to))
		return;
	if ((o->where || o->nev) && !exprs_row(&w->ex, w->r, o->in.skip_bad, w->orow + (o->stamp ? 1 : 0) + w->nkeep
	    + w->njcols))
		return;
	if (o->njoin && !join_row(w, tv)) {
		w->join_dropped_rows++;
		return;
	}
	if (o->nlow)
		lowpass_row(w, tv);
	if (o->decimate > 1 && w->seen++ % o->decimate != 0)
		return;
	for (int i = 0; o->nnoise && i < w->nc; i++) /* a test per column and row without --noise */
		if (w->sig[i] > 0)
			w->row[i] += w->sig[i] * (double)tagk_rng_gaussian(&w->g);
	if (!fgate_row(&o->gate, w->r, w->row))
		return;
	int k = 0;
	if (o->stamp)
		w->orow[k++] = tv;
	for (int i = 0; i < w->nkeep; i++)
		w->orow[k++] = w->row[w->keep[i]];
	cmdio_row(w->out, w->orow);
	w->kept_rows++;
}

/* The end: an empty result is an error naming why; else commit and say
 * what each step did. */
static void
finish(filter_run *w)
{
	const filter_opts *o = w->o;
	tbl_reader *r = w->r;
	if (w->nin == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(r));
	if (w->kept_rows == 0) {
		fgate_refuse_empty(&o->gate, r);
		if (w->join_dropped_rows)
			cli_die(EXIT_DATA, "%s: no row left: every row fell outside a joined file's time span or "
			    "in one of its gaps (--join-gap)", tbl_name(r));
		if (o->where)
			cli_die(EXIT_DATA, "%s: no row left: --where '%s' held on none of the %ld rows read", tbl_name(r),
			    o->where, w->nin);
		cli_die(EXIT_DATA, "%s: no row left after filtering (%ld read)", tbl_name(r), w->nin);
	}
	timeunit_end(&w->tu);
	cmdio_pass_notes(w->out, r);
	cmdio_commit(w->out);
	fgate_report(&o->gate);
	if (tbl_skipped(r))
		cli_warn("skipped %ld bad row%s", tbl_skipped(r), tbl_skipped(r) == 1 ? "" : "s");
	exprs_close(&w->ex);
	for (int k = 0; k < o->njoin; k++) {
		long outside, gaps;
		join_dropped(w->js[k], &outside, &gaps);
		if (outside || gaps)
			cli_warn("--join %s: dropped %ld rows outside its time span and %ld in its gaps "
			    "longer than %.4g", join_path(w->js[k]), outside, gaps, join_max_gap(w->js[k]));
		join_free(w->js[k]);
	}
	tbl_close(r);
	free(w->cut);
	free(w->sig);
	free(w->state);
	free(w->row);
	free(w->orow);
	free(w->keep);
	free((void *)w->names);
}

int
main(int argc, char **argv)
{
	cli_init(argv[0]);
	static filter_opts o;
	parse(&o, argc, argv);
	if (o.whiten)
		return run_whiten(&o);
	if (o.list)
		return filter_list(o.input, &o.in, o.tcol);
	if (!(o.from <= o.to))
		cli_die(EXIT_USAGE, "--from %g is after --to %g", o.from, o.to);
	if (o.vehfile)
		vehicle_bounds(&o);
	filter_run w;
	open_run(&w, &o);
	int rc = tbl_next(w.r, w.row);
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(w.r));
	columns(&w);
	for (; rc == 1; rc = tbl_next(w.r, w.row))
		filter_row(&w);
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(w.r));
	finish(&w);
	return 0;
}
