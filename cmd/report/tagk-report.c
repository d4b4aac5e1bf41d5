/*
 * tagk-report: score an estimate stream against the truth
 * (report_score.h), summarise it when it has none (report_summary.h),
 * score predictions by cross-correlation (report_ncc.h), and draw the
 * estimates (report_plot.h). This file parses the options and sends each
 * input to one of them.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "cmdio.h"
#include "report_ncc.h"
#include "report_plot.h"
#include "report_score.h"
#include "report_summary.h"
#include "report_params.h"
#include "report_changes.h"
#include "../formats/vehicle.h"
#include "../lib/tagk.h"

/* --detect-tol: a reported change within 0.5 s of a truth change is a hit.
 * Measured timing errors are 0.005 to 0.1 s online (tagk-estimate --detect
 * at 10 to 20 updates a second, delays up to 0.12 s) and offline intervals
 * of hundredths of a second, while payload events are seconds apart (the
 * TAG-K protocol: 6-8 s and 14-16 s): 0.5 s takes every detection of a
 * change as its hit and cannot pair one with the next change. */
#define DETECT_TOL_DEFAULT 0.5

typedef struct {
	score_opts score;
	plaus check;
	const char *vehfile;
	tbl_options in;
	const char *outname, *plotname, *plot_params;
	int plot_w, plot_h;
	int have_fmt, ncc;
	double max_shift;
	int ninputs;
	char **inputs;       /* argv's names, or one "-" */
	int spooled;         /* the index of standard input spooled to a file, or -1 */
} report_opts;

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: tagk-report [--truth FILE [--truth-interp]] [--tolerance PCT] [--detect-tol SEC]\n"
	    "                   [--logdet] [--about-com]\n"
	    "                   [--ncc [--max-shift S]] [--format text|md|csv|json]\n"
	    "                   [--plot FILE.png|svg|pdf] [--plot-params LIST] [--plot-size WxH]\n"
	    "                   [--nominal-mass KG | --vehicle FILE] [--strict]\n"
	    "                   [-f csv|hdf5] [--skip-bad] [-o FILE [--fsync]] [FILE|-]...\n"
	    "       tagk-report --help | --version\n"
	    "Score estimates against the truth, or summarise them without it; a whole arm's parameters\n(a stream of named parameters with sd_ columns, no m) as a table with 95 %% intervals.\n"
	    "      --truth FILE       the truth (t, true_* or the parameter names), a step function of\n"
	    "                         time from its first row; every estimate from then on is scored\n"
	    "      --truth-interp     the truth file's rows joined by straight lines instead of steps\n"
	    "      --tolerance PCT    recovery threshold of the relative error (default 5)\n"
	    "      --detect-tol SEC   with truth, a change reported (column event, or segments) within SEC\n"
	    "                         of a truth change is a hit (default 0.5)\n"
	    "      --logdet           instead, the log-det divergence D(estimate || truth) at each time\n"
	    "      --ncc              instead, every column pred_X against X: the normalised\n"
	    "                         cross-correlation of a prediction with a measurement (paper 002)\n"
	    "      --max-shift S      --ncc: best over time shifts of up to S seconds (default 0)\n"
	    "      --about-com        score m, the centre of mass c and the inertia about c (paper 004's\n"
	    "                         quantities) instead of m, mc and the inertia about the frame's origin\n"
	    "      --format F         text (default), md, csv or json\n"
	    "      --plot FILE        also draw the estimates against time (several inputs: one line each)\n"
	    "      --plot-params LIST the parameters plotted, one panel each (default m; all)\n"
	    "      --plot-size WxH    the figure's size in pixels, or points for PDF (default 960x540)\n"
	    "  -o, --output FILE      write FILE (its extension .md, .csv or .json sets the format)\n"
	    "      --fsync            -o FILE: sync the file and its directory before exiting\n"
	    "      --nominal-mass KG  the vehicle's mass: warn when the median, the last estimate or a\n"
	    "                         segment's is farther from it than its 95 %% interval allows\n"
	    "      --vehicle FILE     the same from a vehicle file's 'mass' line\n"
	    "      --strict           exit 1 after the report when a printed answer is not physical, is\n"
	    "                         far from the nominal mass, has left the run, or the stream carries\n"
	    "                         a warning of a command upstream (the warnings on stderr)\n");
	cmdio_input_help(f);
}

static enum report_fmt
fmt_parse(const char *s)
{
	if (strcmp(s, "text") == 0) return F_TEXT;
	if (strcmp(s, "md") == 0 || strcmp(s, "markdown") == 0) return F_MD;
	if (strcmp(s, "csv") == 0) return F_CSV;
	if (strcmp(s, "json") == 0) return F_JSON;
	cli_die(EXIT_USAGE, "--format: '%s' is not one of text, md, csv, json", s);
}

/* The directory part of path into dir (".", "/" or the text before the
 * last '/'); its last part returned. */
static const char *
split_dir(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
	return slash ? slash + 1 : path;
}

/* --plot and -o naming one file (the same last part in the same
 * directory, however the directory is written: ./x, d/../x, a link to
 * the directory): each output replaces the name when it is done, so the
 * one written last would replace the other and the command would still
 * say it wrote both. Refused before anything is read. */
static void
plot_not_output(const report_opts *o)
{
	if (!o->plotname || !o->outname)
		return;
	char da[4096], db[4096];
	const char *ba = split_dir(o->plotname, da, sizeof(da)), *bb = split_dir(o->outname, db, sizeof(db));
	struct stat sa, sb;
	int same = strcmp(ba, bb) == 0 &&
	    (strcmp(da, db) == 0 || (stat(da, &sa) == 0 && stat(db, &sb) == 0 && sa.st_dev == sb.st_dev &&
	    sa.st_ino == sb.st_ino));
	if (same)
		cli_die(EXIT_USAGE, "--plot '%s' and -o '%s' name the same file: the one written last would replace "
		    "the other", o->plotname, o->outname);
}

/* The options into o, with the checks that involve several of them. */
static void
parse(int argc, char **argv, report_opts *o)
{
	static const struct option opts[] = {
		{ "truth", required_argument, NULL, 5001 },
		{ "tolerance", required_argument, NULL, 5002 },
		{ "format", required_argument, NULL, 5003 },
		{ "plot", required_argument, NULL, 5004 },
		{ "plot-params", required_argument, NULL, 5005 },
		{ "plot-size", required_argument, NULL, 5006 },
		{ "logdet", no_argument, NULL, 5007 },
		{ "about-com", no_argument, NULL, 5008 },
		{ "ncc", no_argument, NULL, 5009 },
		{ "max-shift", required_argument, NULL, 5010 },
		{ "truth-interp", no_argument, NULL, 5011 },
		{ "nominal-mass", required_argument, NULL, 5012 },
		{ "vehicle", required_argument, NULL, 5013 },
		{ "strict", no_argument, NULL, 5014 },
		{ "detect-tol", required_argument, NULL, 5015 },
		{ "output", required_argument, NULL, 'o' },
		{ "fsync", no_argument, NULL, CMDIO_FSYNC_OPT },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		CMDIO_INPUT_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	memset(o, 0, sizeof(*o));
	o->plot_params = "m";
	o->plot_w = 960;
	o->score.tol = 5;
	o->score.detect_tol = DETECT_TOL_DEFAULT;
	o->score.fmt = F_TEXT;
	o->max_shift = -1;
	o->spooled = -1;
	o->check.nominal = (double)NAN;
	int c;
	while ((c = cli_getopt(argc, argv, "f:o:hV", opts)) != -1) {
		if (cmdio_input_option(&o->in, c, optarg) || cmdio_output_option(c, optarg))
			continue;
		switch (c) {
		case 5001: o->score.truthfile = optarg; break;
		case 5002: o->score.tol = cli_double("--tolerance", optarg, 0, 1e6); break;
		case 5003: o->score.fmt = fmt_parse(optarg); o->have_fmt = 1; break;
		case 5004: o->plotname = optarg; break;
		case 5005: o->plot_params = optarg; break;
		case 5006: {
			long w, h;
			if (cli_long_pair(optarg, 'x', &w, &h) != 0 || w < 200 || h < 150 || w > 20000 || h > 20000)
				cli_die(EXIT_USAGE, "--plot-size: '%s' is not WxH with 200 <= W, 150 <= H, both <= 20000",
				    optarg);
			o->plot_w = (int)w, o->plot_h = (int)h;
			break;
		}
		case 5007: o->score.logdet = 1; break;
		case 5008: o->score.about_com = 1; break;
		case 5009: o->ncc = 1; break;
		case 5010: o->max_shift = cli_double("--max-shift", optarg, 0, 1e9); break;
		case 5011: o->score.interp = 1; break;
		case 5012: o->check.nominal = cli_double("--nominal-mass", optarg, 1e-6, 1e6); break;
		case 5013: o->vehfile = optarg; break;
		case 5014: o->check.strict = 1; break;
		case 5015: o->score.detect_tol = cli_double("--detect-tol", optarg, 0, 1e9); break;
		case 'o': o->outname = optarg; break;
		case 'h': cli_help(usage);
		case 'V': cli_version();
		default: usage(stderr); exit(EXIT_USAGE);
		}
	}
	static char *dash[] = { "-" };
	o->ninputs = argc - optind;
	o->inputs = o->ninputs ? argv + optind : dash;
	if (!o->ninputs)
		o->ninputs = 1;
	int ndash = 0;
	for (int i = 0; i < o->ninputs; i++)
		if (strcmp(o->inputs[i], "-") == 0 && ndash++)
			cli_die(EXIT_USAGE, "standard input (-) named twice");
	if (!o->plotname && (strcmp(o->plot_params, "m") || o->plot_h))
		cli_die(EXIT_USAGE, "--plot-params and --plot-size apply to --plot");
	plot_not_output(o);
	if (o->score.interp && !o->score.truthfile)
		cli_die(EXIT_USAGE, "--truth-interp applies to --truth FILE");
	if (o->max_shift >= 0 && !o->ncc)
		cli_die(EXIT_USAGE, "--max-shift applies to --ncc");
	if (o->ncc && (o->score.logdet || o->score.about_com || o->score.truthfile || o->plotname))
		cli_die(EXIT_USAGE, "--ncc scores predictions, alone: not with %s", o->score.logdet ? "--logdet"
		    : o->score.about_com ? "--about-com" : o->score.truthfile ? "--truth" : "--plot");
	if (o->ninputs > 1 && (o->score.fmt == F_CSV || o->score.fmt == F_JSON || o->score.logdet || o->ncc))
		cli_die(EXIT_USAGE, "several inputs make one report each in text or Markdown; CSV, JSON, --logdet and "
		    "--ncc take one input");
	if (o->vehfile) {
		vehicle v;
		if (!isnan(o->check.nominal))
			cli_die(EXIT_USAGE, "--nominal-mass and --vehicle: one nominal mass");
		cmdio_vehicle(o->vehfile, &v, 0);
		if (isnan(v.mass))
			cli_die(EXIT_DATA, "%s: no 'mass' line: the vehicle's nominal mass is what --vehicle gives tagk-report",
			    o->vehfile);
		o->check.nominal = v.mass;
	}
	if (o->outname && !o->have_fmt) {
		const char *dot = strrchr(o->outname, '.');
		if (dot && strcmp(dot, ".md") == 0) o->score.fmt = F_MD;
		else if (dot && strcmp(dot, ".csv") == 0) o->score.fmt = F_CSV;
		else if (dot && strcmp(dot, ".json") == 0) o->score.fmt = F_JSON;
	}
}

/* Standard input is read twice when plotted, by the plot and by the
 * report: copy it to an unlinked temporary file and name that instead. */
static void
spool_stdin(report_opts *o)
{
	for (int i = 0; i < o->ninputs; i++) {
		if (strcmp(o->inputs[i], "-") != 0)
			continue;
		FILE *sp = cli_tmpfile("standard input, read twice");
		char buf[65536];
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
			if (fwrite(buf, 1, n, sp) != n)
				cli_die(EXIT_DATA, "cannot spool standard input: %s", strerror(errno));
		if (ferror(stdin) || fflush(sp) != 0)
			cli_die(EXIT_DATA, "stdin: read error");
		static char name[64];
		snprintf(name, sizeof(name), "/proc/self/fd/%d", fileno(sp));
		/* a copy of the list, as long as it is (kept until exit) */
		char **inputs = malloc((size_t)o->ninputs * sizeof(*inputs));
		if (!inputs)
			cli_die(EXIT_DATA, "out of memory");
		memcpy(inputs, o->inputs, (size_t)o->ninputs * sizeof(*inputs));
		inputs[i] = name;
		o->inputs = inputs;
		o->spooled = i;
	}
}

/* The report of one input into w. */
static void
report_one(report_opts *o, int i, cmdio_file *w)
{
	tbl_options in = o->in;
	if (i == o->spooled)
		in.name = "stdin";
	tbl_reader *r = cmdio_open_input(o->inputs[i], &in);
	if (o->ncc) {
		report_ncc(r, o->max_shift > 0 ? o->max_shift : 0, w->f, o->score.fmt);
		plaus_upstream(&o->check, tbl_name(r), r);
	} else if (report_is_params(r) && !o->score.truthfile && !o->score.logdet) {
		report_params(r, w->f, o->score.fmt, &o->check);
		plaus_upstream(&o->check, tbl_name(r), r);
	} else {
		int it, ip[TAGK_NPARAM];
		int np = report_estimate_cols(r, &it, ip);
		if (o->score.truthfile || o->score.logdet || report_has_truth(r, np)) {
			report_score(r, it, np, ip, &o->score, w, &o->check);
		} else if (report_has_changes(r) && o->score.fmt != F_JSON) {
			report_changes(r, np, ip, w->f, o->score.fmt, &o->check);
		} else {
			summary *s = summary_read(r, it, np, ip);
			summary_print(w->f, o->score.fmt, tbl_name(r), s, &o->check);
			summary_free(s);
		}
	}
	tbl_close(r);
}

int
main(int argc, char **argv)
{
	cli_init(argv[0]);
	report_opts o;
	parse(argc, argv, &o);
	if (o.plotname) {
		spool_stdin(&o);
		plot *pl = plot_new(o.plot_params);
		if (o.score.truthfile)
			plot_truth(pl, o.score.truthfile, o.score.interp);
		char title[256];
		int k = snprintf(title, sizeof(title), "Estimates against time:");
		for (int i = 0; i < o.ninputs; i++) {
			tbl_options in = o.in;
			if (i == o.spooled)
				in.name = "stdin";
			plot_read(pl, o.inputs[i], &in);
			const char *nm = i == o.spooled ? "stdin" : o.inputs[i], *sl = strrchr(nm, '/');
			if (k > 0 && (size_t)k < sizeof(title))
				k += snprintf(title + k, sizeof(title) - (size_t)k, "%s %s", i ? "," : "", sl ? sl + 1 : nm);
		}
		plot_title(pl, title);
		plot_write(pl, o.plotname, o.plot_w, o.plot_h ? o.plot_h : plot_height(pl));
		plot_free(pl);
	}
	cmdio_file w;
	cmdio_file_open(&w, o.outname);
	for (int i = 0; i < o.ninputs; i++) {
		if (i)
			fprintf(w.f, "\n");
		report_one(&o, i, &w);
	}
	cmdio_file_commit(&w);
	if (o.check.strict && o.check.warnings)
		cli_die(EXIT_DATA, "--strict: %d warning%s about the answers printed (above)", o.check.warnings,
		    o.check.warnings == 1 ? "" : "s");
	return 0;
}
