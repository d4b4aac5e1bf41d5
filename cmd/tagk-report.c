/*
 * tagk-report: score an estimate stream against the truth, or summarise it
 * when it has none (report_summary.h).
 *
 * The truth is the stream's own true_<param> columns, or a --truth file
 * (columns t and true_<param> or <param>) joined by time: each estimate is
 * compared with the last truth row at or before its time. Per parameter:
 * RMSE, mean absolute error, normalised mean absolute error (MAE over the
 * mean |truth|) and RMSPE (eq. 33 of the time-varying-mass paper, in %, over
 * the rows whose truth is non-zero). At every change of the truth (a payload
 * event): the relative parameter error ||theta^ - theta|| / ||theta|| of the
 * first estimate that sees the new truth (the TAG-K paper's "(t+1) error")
 * and the time until that error is back within the tolerance (5 %).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cmdio.h"
#include "report_summary.h"
#include "report_ncc.h"
#include "report_plot.h"
#include "../formats/sink.h"
#include "../formats/outfile.h"
#include "../formats/numconv.h"
#include "../lib/tagk.h"

enum { MAX_EVENTS = 10000 };

typedef struct {
	double t, err1, recovery; /* recovery < 0: not within the tolerance before the next event */
} event;

typedef struct {
	long n, npct;
	double se, ae, at, spe;
} acc;

/* theta (inertia.h order) to m, c = mc / m, the inertia about c in the
 * same order; 0 if m is 0 or a value is not finite. */
static int
about_centre(const double th[TAGK_NPARAM], double out[TAGK_NPARAM])
{
	tagk_real t[TAGK_NPARAM], c[3], Ic[9], tc[TAGK_NPARAM];
	for (int j = 0; j < TAGK_NPARAM; j++)
		t[j] = (tagk_real)th[j];
	if (!tagk_theta_to_body(t, c, Ic))
		return 0;
	tagk_theta_set_inertia(tc, Ic);
	out[0] = th[0];
	for (int j = 0; j < 3; j++)
		out[1 + j] = (double)c[j];
	for (int j = 4; j < TAGK_NPARAM; j++)
		out[j] = (double)tc[j];
	for (int j = 0; j < TAGK_NPARAM; j++)
		if (!isfinite(out[j]))
			return 0;
	return 1;
}

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: tagk-report [--truth FILE] [--tolerance PCT] [--logdet] [--about-com]\n"
	    "                   [--ncc [--max-shift S]] [--format text|md|csv|json]\n"
	    "                   [--plot FILE.png|svg|pdf] [--plot-params LIST] [--plot-size WxH]\n"
	    "                   [-f csv|hdf5] [--skip-bad] [-o FILE] [FILE|-]...\n"
	    "       tagk-report --help | --version\n"
	    "Score estimates against the truth, or summarise them without it.\n"
	    "      --truth FILE       the truth (t, true_* or the parameter names), joined by time\n"
	    "      --tolerance PCT    recovery threshold of the relative error (default 5)\n"
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
	    "  -o, --output FILE      write FILE (its extension .md, .csv or .json sets the format)\n");
	cmdio_input_help(f);
}

/* The report goes to stdout or, through a temporary renamed on success,
 * to -o FILE. */
typedef struct {
	FILE *o;
	outfile of;
	int to_file;
	const char *name;
} report_out;

static void
out_open(report_out *w, const char *outname)
{
	w->o = stdout;
	w->name = "stdout";
	w->to_file = outname && strcmp(outname, "-") != 0;
	if (!w->to_file)
		return;
	char err[1024];
	w->name = outname;
	if (outfile_begin(&w->of, outname, err, sizeof(err)) != 0)
		cli_die(EXIT_DATA, "%s", err);
	w->o = fopen(outfile_target(&w->of), "w");
	if (!w->o) {
		int e = errno;
		outfile_abandon(&w->of);
		cli_die(EXIT_DATA, "%s: %s", outname, strerror(e));
	}
}

static void
out_close(report_out *w)
{
	if (fflush(w->o) != 0 || ferror(w->o) || (w->to_file && fclose(w->o) != 0)) {
		int e = errno;
		if (w->to_file)
			outfile_abandon(&w->of);
		cli_die(EXIT_DATA, "%s: write error: %s", w->name, strerror(e));
	}
	if (w->to_file) {
		char err[1024];
		if (outfile_commit(&w->of, err, sizeof(err)) != 0)
			cli_die(EXIT_DATA, "%s", err);
	}
}

static const char *const blk_names[TAGK_NERR] = { "mass", "first_moment", "inertia" };

/* %.4g into a static buffer, for one use in a printf. */
static const char *
fmt_g4(double x)
{
	static char b[32];
	snprintf(b, sizeof(b), "%.4g", x);
	return b;
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

int
main(int argc, char **argv)
{
	cli_init(argv[0]);
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
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		CMDIO_INPUT_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	tbl_options in = { 0 };
	const char *truthfile = NULL, *outname = NULL, *plotname = NULL, *plot_params = "m";
	int plot_w = 960, plot_h = 0;
	double tol = 5;
	int have_fmt = 0, logdet = 0, about_com = 0, ncc = 0;
	double max_shift = -1;
	enum report_fmt fmt = F_TEXT;
	int c;
	while ((c = cli_getopt(argc, argv, "f:o:hV", opts)) != -1) {
		if (cmdio_input_option(&in, c, optarg))
			continue;
		switch (c) {
		case 5001: truthfile = optarg; break;
		case 5002: tol = cli_double("--tolerance", optarg, 0, 1e6); break;
		case 5003: fmt = fmt_parse(optarg); have_fmt = 1; break;
		case 5004: plotname = optarg; break;
		case 5005: plot_params = optarg; break;
		case 5006:
			if (sscanf(optarg, "%dx%d", &plot_w, &plot_h) != 2 || plot_w < 200 || plot_h < 150 ||
			    plot_w > 20000 || plot_h > 20000)
				cli_die(EXIT_USAGE, "--plot-size: '%s' is not WxH with 200 <= W, 150 <= H, both <= 20000",
				    optarg);
			break;
		case 5007: logdet = 1; break;
		case 5008: about_com = 1; break;
		case 5009: ncc = 1; break;
		case 5010: max_shift = cli_double("--max-shift", optarg, 0, 1e9); break;
		case 'o': outname = optarg; break;
		case 'h': cli_help(usage);
		case 'V': cli_version();
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (argc - optind > 1 && !plotname)
		cli_die(EXIT_USAGE, "one input file at most (several go on one figure with --plot)");
	if (!plotname && (strcmp(plot_params, "m") || plot_h))
		cli_die(EXIT_USAGE, "--plot-params and --plot-size apply to --plot");
	if (outname && !have_fmt) {
		const char *dot = strrchr(outname, '.');
		if (dot && strcmp(dot, ".md") == 0) fmt = F_MD;
		else if (dot && strcmp(dot, ".csv") == 0) fmt = F_CSV;
		else if (dot && strcmp(dot, ".json") == 0) fmt = F_JSON;
	}
	const char *input = optind < argc ? argv[optind] : "-";
	if (plotname) {
		int nin = argc - optind, dash = nin == 0;
		for (int i = 0; i < nin; i++)
			if (strcmp(argv[optind + i], "-") == 0 && dash++)
				cli_die(EXIT_USAGE, "standard input (-) named twice");
		/* standard input is read twice, by the plot and by the report:
		 * spool it to an unnamed temporary file */
		char spool[64] = "";
		if (dash) {
			FILE *sp = tmpfile();
			if (!sp)
				cli_die(EXIT_DATA, "cannot spool standard input: %s", strerror(errno));
			char buf[65536];
			size_t n;
			while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
				if (fwrite(buf, 1, n, sp) != n)
					cli_die(EXIT_DATA, "cannot spool standard input: %s", strerror(errno));
			if (ferror(stdin) || fflush(sp) != 0)
				cli_die(EXIT_DATA, "stdin: read error");
			snprintf(spool, sizeof(spool), "/proc/self/fd/%d", fileno(sp));
		}
		plot *pl = plot_new(plot_params);
		for (int i = 0; i < (nin ? nin : 1); i++) {
			const char *path = nin ? argv[optind + i] : "-";
			tbl_options o = in;
			if (strcmp(path, "-") == 0)
				path = spool, o.name = "stdin";
			plot_read(pl, path, &o);
		}
		plot_write(pl, plotname, plot_w, plot_h ? plot_h : 540);
		plot_free(pl);
		if (nin > 1)
			return 0; /* several streams: the figure only */
		if (strcmp(input, "-") == 0)
			input = strdup(spool), in.name = "stdin";
	}

	if (max_shift >= 0 && !ncc)
		cli_die(EXIT_USAGE, "--max-shift applies to --ncc");
	if (ncc && (logdet || about_com || truthfile || plotname))
		cli_die(EXIT_USAGE, "--ncc scores predictions, alone: not with %s", logdet ? "--logdet" : about_com
		    ? "--about-com" : truthfile ? "--truth" : "--plot");
	tbl_reader *r = cmdio_open_input(input, &in);
	if (ncc) {
		report_out w;
		out_open(&w, outname);
		report_ncc(r, max_shift > 0 ? max_shift : 0, w.o, fmt);
		out_close(&w);
		tbl_close(r);
		return 0;
	}
	int it = tbl_find(r, "t"), ip[TAGK_NPARAM], itr[TAGK_NPARAM], np = 0;
	for (int j = 0; j < TAGK_NPARAM; j++)
		ip[j] = tbl_find(r, tagk_param_names[j]);
	while (np < TAGK_NPARAM && ip[np] >= 0)
		np++;
	if (it < 0 || (np != 1 && np != TAGK_NPARAM))
		cli_die(EXIT_DATA, "%s: not an estimate stream: it needs columns t and m (and mcx ... Izz "
		    "for the rigid body), as tagk-estimate writes", tbl_name(r));
	tbl_want(r, it);
	for (int j = 0; j < np; j++)
		tbl_want(r, ip[j]);
	if (logdet && np != TAGK_NPARAM)
		cli_die(EXIT_USAGE, "--logdet: %s holds the mass only; the divergence needs the ten parameters of a "
		    "rigid body", tbl_name(r));

	/* truth: own columns or a joined file */
	tbl_reader *tr = NULL;
	int tt = -1, tcol[TAGK_NPARAM];
	double *trow = NULL, *tnext = NULL;
	int tnext_ok = 0;
	char name[40];
	if (truthfile) {
		tr = cmdio_open_input(truthfile, &(tbl_options){ 0 });
		tt = tbl_find(tr, "t");
		if (tt < 0)
			cli_die(EXIT_DATA, "%s: the truth file needs a column t", truthfile);
		tbl_want(tr, tt);
		for (int j = 0; j < np; j++) {
			snprintf(name, sizeof(name), "true_%s", tagk_param_names[j]);
			tcol[j] = tbl_find(tr, name);
			if (tcol[j] < 0)
				tcol[j] = tbl_find(tr, tagk_param_names[j]);
			if (tcol[j] < 0)
				cli_die(EXIT_DATA, "%s: the truth file has no column true_%s or %s", truthfile,
				    tagk_param_names[j], tagk_param_names[j]);
			tbl_want(tr, tcol[j]);
		}
		trow = malloc((size_t)tbl_ncols(tr) * sizeof(double));
		tnext = malloc((size_t)tbl_ncols(tr) * sizeof(double));
		int rc = tbl_next(tr, tnext);
		if (rc < 0)
			cli_die(EXIT_DATA, "%s", tbl_error(tr));
		if (rc == 0)
			cli_die(EXIT_DATA, "%s: no truth rows", truthfile);
		tnext_ok = 1;
	} else {
		int ntrue = 0;
		for (int j = 0; j < np; j++) {
			snprintf(name, sizeof(name), "true_%s", tagk_param_names[j]);
			ntrue += (itr[j] = tbl_find(r, name)) >= 0;
		}
		if (ntrue == 0 && logdet)
			cli_die(EXIT_DATA, "--logdet: %s has no true_* columns: give the truth with --truth FILE",
			    tbl_name(r));
		if (ntrue == 0) {
			/* no truth at all: summarise the estimates instead */
			summary *s = summary_read(r, it, np, ip);
			report_out w;
			out_open(&w, outname);
			summary_print(w.o, fmt, tbl_name(r), s);
			out_close(&w);
			summary_free(s);
			tbl_close(r);
			return 0;
		}
		for (int j = 0; j < np; j++) {
			snprintf(name, sizeof(name), "true_%s", tagk_param_names[j]);
			if (itr[j] < 0)
				cli_die(EXIT_DATA, "%s: no column %s (the stream has some true_* columns but not "
				    "all): give the truth with --truth FILE", tbl_name(r), name);
			tbl_want(r, itr[j]);
		}
	}

	acc a[TAGK_NPARAM];
	memset(a, 0, sizeof(a));
	event *ev = malloc(MAX_EVENTS * sizeof(*ev));
	if (about_com && np != TAGK_NPARAM)
		cli_die(EXIT_USAGE, "--about-com: %s holds the mass only; a centre of mass needs the ten parameters of a "
		    "rigid body", tbl_name(r));
	double *row = malloc((size_t)tbl_ncols(r) * sizeof(double));
	double prev_truth[TAGK_NPARAM], truth[TAGK_NPARAM], est[TAGK_NPARAM];
	long uncentred = 0;
	long nrows = 0, nevents = 0, nbefore_truth = 0;
	double sum_rel = 0, last_rel = (double)NAN, t_first = (double)NAN, t_last = (double)NAN;
	/* rigid body: errors by block and the log-det divergence (lib/metrics.h) */
	double blk_sum[TAGK_NERR] = { 0 }, blk_last[TAGK_NERR] = { 0 }, div_sum = 0, div_last = (double)NAN;
	long div_n = 0, unphysical = 0, truth_unphysical = 0;
	/* --logdet: the series, D < 0 where the estimate (-1) or the truth (-2)
	 * is not physical */
	double *ser_t = NULL, *ser_d = NULL;
	long ser_cap = 0;
	int have_prev = 0, open_event = -1;
	int rc;
	while ((rc = tbl_next(r, row)) == 1) {
		double t = row[it];
		if (tr) {
			/* advance to the last truth row at or before t */
			int found = trow && tnext_ok == 2;
			while (tnext_ok == 1 && tnext[tt] <= t) {
				double *sw = trow;
				trow = tnext;
				tnext = sw;
				found = 1;
				int r2 = tbl_next(tr, tnext);
				if (r2 < 0)
					cli_die(EXIT_DATA, "%s", tbl_error(tr));
				if (r2 == 1 && !(tnext[tt] > trow[tt]))
					cli_die(EXIT_DATA, "%s: time does not increase", tbl_where(tr));
				tnext_ok = r2 == 1 ? 1 : 2;
				if (r2 == 0)
					break;
			}
			if (tnext_ok == 2)
				found = 1;
			if (!found || !trow || trow[tt] > t) {
				nbefore_truth++;
				continue;
			}
			for (int j = 0; j < np; j++)
				truth[j] = trow[tcol[j]];
		} else {
			for (int j = 0; j < np; j++)
				truth[j] = row[itr[j]];
		}
		double num = 0, den = 0, sv[TAGK_NPARAM], tv2[TAGK_NPARAM];
		for (int j = 0; j < np; j++)
			est[j] = row[ip[j]];
		if (about_com) {
			/* rows where either has no centre of mass (m = 0) are not scored */
			if (!about_centre(est, sv) || !about_centre(truth, tv2)) {
				uncentred++;
				continue;
			}
		} else {
			memcpy(sv, est, sizeof(sv));
			memcpy(tv2, truth, sizeof(tv2));
		}
		for (int j = 0; j < np; j++) {
			double e = sv[j] - tv2[j];
			a[j].n++;
			a[j].se += e * e;
			a[j].ae += fabs(e);
			a[j].at += fabs(tv2[j]);
			if (tv2[j] != 0) {
				a[j].npct++;
				a[j].spe += (e / tv2[j]) * (e / tv2[j]);
			}
			num += e * e;
			den += tv2[j] * tv2[j];
		}
		double rel = den > 0 ? sqrt(num / den) : (double)NAN;
		if (np == TAGK_NPARAM) {
			tagk_real te[TAGK_NPARAM], tv[TAGK_NPARAM], be[TAGK_NERR];
			for (int j = 0; j < np; j++) {
				te[j] = (tagk_real)row[ip[j]];
				tv[j] = (tagk_real)truth[j];
			}
			tagk_block_errors(te, tv, be);
			for (int k = 0; k < TAGK_NERR; k++) {
				blk_sum[k] += (double)be[k];
				blk_last[k] = (double)be[k];
			}
			tagk_real D = tagk_logdet_divergence(te, tv);
			if (logdet) {
				if (nrows == ser_cap) {
					ser_cap = ser_cap ? 2 * ser_cap : 1024;
					ser_t = realloc(ser_t, (size_t)ser_cap * sizeof(*ser_t));
					ser_d = realloc(ser_d, (size_t)ser_cap * sizeof(*ser_d));
					if (!ser_t || !ser_d)
						cli_die(EXIT_DATA, "out of memory");
				}
				ser_t[nrows] = t;
				ser_d[nrows] = (double)D;
			}
			if (D >= 0) {
				div_sum += (double)D;
				div_n++;
				div_last = (double)D;
			} else {
				unphysical += D == -1;
				truth_unphysical += D == -2;
				div_last = (double)NAN;
			}
		}
		sum_rel += rel;
		last_rel = rel;
		if (nrows == 0)
			t_first = t;
		t_last = t;
		nrows++;
		int changed = 0;
		if (have_prev)
			for (int j = 0; j < np; j++)
				if (fabs(truth[j] - prev_truth[j]) > 1e-9 * (fabs(prev_truth[j]) + 1e-300))
					changed = 1;
		if (changed) {
			if (nevents < MAX_EVENTS) {
				ev[nevents] = (event){ t, rel, rel * 100 <= tol ? 0 : -1 };
				open_event = rel * 100 <= tol ? -1 : (int)nevents;
			} else {
				open_event = -1;
			}
			nevents++;
		} else if (open_event >= 0 && rel * 100 <= tol) {
			ev[open_event].recovery = t - ev[open_event].t;
			open_event = -1;
		}
		memcpy(prev_truth, truth, sizeof(truth));
		have_prev = 1;
	}
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	if (nrows == 0)
		cli_die(EXIT_DATA, "%s: no estimates to score%s", tbl_name(r),
		    nbefore_truth ? " (all come before the first truth row)" : "");

	report_out w;
	out_open(&w, outname);
	FILE *o = w.o;
	if (logdet) {
		/* not physical: empty in CSV, null in JSON, words in text */
		if (fmt == F_JSON)
			fprintf(o, "{\n  \"input\": \"%s\",\n  \"logdet\": [\n", tbl_name(r));
		else if (fmt == F_CSV)
			fprintf(o, "t,logdet\n");
		else if (fmt == F_MD)
			fprintf(o, "| t | D(estimate \\|\\| truth) |\n|---|---|\n");
		else
			fprintf(o, "# %s: log-det divergence D(estimate || truth) of the pseudo-inertias\n%-14s %s\n",
			    tbl_name(r), "t", "D");
		for (long i = 0; i < nrows; i++) {
			const char *why = ser_d[i] == -1 ? "estimate not physical" : "truth not physical";
			if (fmt == F_JSON) {
				fprintf(o, "    {\"t\": %.10g, \"D\": ", ser_t[i]);
				if (ser_d[i] >= 0) fprintf(o, "%.10g}", ser_d[i]); else fprintf(o, "null}");
				fprintf(o, "%s\n", i + 1 < nrows ? "," : "");
			} else if (fmt == F_CSV) {
				char tb[32], db[32] = "";
				fmt_double(tb, ser_t[i]);
				if (ser_d[i] >= 0)
					fmt_double(db, ser_d[i]);
				fprintf(o, "%s,%s\n", tb, db);
			} else if (fmt == F_MD) {
				if (ser_d[i] >= 0) fprintf(o, "| %.10g | %.6g |\n", ser_t[i], ser_d[i]);
				else fprintf(o, "| %.10g | %s |\n", ser_t[i], why);
			} else {
				if (ser_d[i] >= 0) fprintf(o, "%-14.10g %.6g\n", ser_t[i], ser_d[i]);
				else fprintf(o, "%-14.10g %s\n", ser_t[i], why);
			}
		}
		if (fmt == F_JSON)
			fprintf(o, "  ],\n  \"not_physical\": %ld,\n  \"truth_not_physical\": %ld\n}\n", unphysical,
			    truth_unphysical);
		out_close(&w);
		free(ser_t);
		free(ser_d);
		tbl_close(r);
		return 0;
	}
	long shown = nevents < MAX_EVENTS ? nevents : MAX_EVENTS;
	const char *pn[TAGK_NPARAM];
	static const char *const com_names[TAGK_NPARAM] = { "m", "cx", "cy", "cz", "Ixx_c", "Ixy_c", "Iyy_c", "Ixz_c",
		"Iyz_c", "Izz_c" };
	for (int j = 0; j < np; j++)
		pn[j] = about_com ? com_names[j] : tagk_param_names[j];
	if (uncentred)
		cli_warn("--about-com: %ld row%s not scored: the estimate or the truth has no centre of mass (m = 0)",
		    uncentred, uncentred == 1 ? "" : "s");
#define RMSE(j) sqrt(a[j].se / (double)a[j].n)
#define MAE(j) (a[j].ae / (double)a[j].n)
#define NMAE(j) (a[j].at > 0 ? a[j].ae / a[j].at : (double)NAN)
#define RMSPE(j) (a[j].npct ? 100 * sqrt(a[j].spe / (double)a[j].npct) : (double)NAN)
	if (fmt == F_JSON) {
		fprintf(o, "{\n  \"input\": \"%s\",\n  \"estimates\": %ld,\n  \"t_first\": %.10g,\n  \"t_last\": %.10g,\n",
		    tbl_name(r), nrows, t_first, t_last);
		fprintf(o, "  \"parameters\": [\n");
		for (int j = 0; j < np; j++) {
			fprintf(o, "    {\"name\": \"%s\", \"n\": %ld, \"rmse\": %.10g, \"mae\": %.10g, ", pn[j],
			    a[j].n, RMSE(j), MAE(j));
			if (isnan(NMAE(j))) fprintf(o, "\"nmae\": null, "); else fprintf(o, "\"nmae\": %.10g, ", NMAE(j));
			if (isnan(RMSPE(j))) fprintf(o, "\"rmspe_pct\": null}");
			else fprintf(o, "\"rmspe_pct\": %.10g}", RMSPE(j));
			fprintf(o, "%s\n", j + 1 < np ? "," : "");
		}
		fprintf(o, "  ],\n  \"relative_error\": {\"mean\": %.10g, \"final\": %.10g},\n",
		    sum_rel / (double)nrows, last_rel);
		if (np == TAGK_NPARAM) {
			fprintf(o, "  \"block_errors\": {");
			for (int k = 0; k < TAGK_NERR; k++)
				fprintf(o, "\"%s\": {\"mean\": %.10g, \"final\": %.10g}, ", blk_names[k],
				    blk_sum[k] / (double)nrows, blk_last[k]);
			fprintf(o, "\"logdet_divergence\": {\"n\": %ld, \"mean\": ", div_n);
			if (div_n) fprintf(o, "%.10g", div_sum / (double)div_n); else fprintf(o, "null");
			fprintf(o, ", \"final\": ");
			if (!isnan(div_last)) fprintf(o, "%.10g", div_last); else fprintf(o, "null");
			fprintf(o, ", \"not_physical\": %ld, \"truth_not_physical\": %ld}},\n", unphysical, truth_unphysical);
		}
		fprintf(o, "  \"tolerance_pct\": %.10g,\n  \"events\": %ld,\n  \"event_list\": [\n", tol, nevents);
		for (long e = 0; e < shown; e++) {
			fprintf(o, "    {\"t\": %.10g, \"error_t1\": %.10g, \"recovery_s\": ", ev[e].t, ev[e].err1);
			if (ev[e].recovery < 0) fprintf(o, "null}"); else fprintf(o, "%.10g}", ev[e].recovery);
			fprintf(o, "%s\n", e + 1 < shown ? "," : "");
		}
		fprintf(o, "  ]\n}\n");
	} else if (fmt == F_CSV) {
		fprintf(o, "kind,name,t,n,rmse,mae,nmae,rmspe_pct,error_t1,recovery_s\n");
		for (int j = 0; j < np; j++) {
			fprintf(o, "parameter,%s,,%ld,%.10g,%.10g,", pn[j], a[j].n, RMSE(j), MAE(j));
			if (!isnan(NMAE(j))) fprintf(o, "%.10g", NMAE(j));
			fprintf(o, ",");
			if (!isnan(RMSPE(j))) fprintf(o, "%.10g", RMSPE(j));
			fprintf(o, ",,\n");
		}
		fprintf(o, "relative_error,mean,,%ld,,%.10g,,,,\n", nrows, sum_rel / (double)nrows);
		fprintf(o, "relative_error,final,%.10g,1,,%.10g,,,,\n", t_last, last_rel);
		if (np == TAGK_NPARAM) {
			for (int k = 0; k < TAGK_NERR; k++) {
				fprintf(o, "block_error,%s_mean,,%ld,,%.10g,,,,\n", blk_names[k], nrows, blk_sum[k] / (double)nrows);
				fprintf(o, "block_error,%s_final,%.10g,1,,%.10g,,,,\n", blk_names[k], t_last, blk_last[k]);
			}
			fprintf(o, "logdet_divergence,mean,,%ld,,", div_n);
			if (div_n) fprintf(o, "%.10g", div_sum / (double)div_n);
			fprintf(o, ",,,,\nlogdet_divergence,final,%.10g,1,,", t_last);
			if (!isnan(div_last)) fprintf(o, "%.10g", div_last);
			fprintf(o, ",,,,\nlogdet_divergence,not_physical,,%ld,,,,,,\n", unphysical);
		}
		for (long e = 0; e < shown; e++) {
			fprintf(o, "event,,%.10g,,,,,,%.10g,", ev[e].t, ev[e].err1);
			if (ev[e].recovery >= 0) fprintf(o, "%.10g", ev[e].recovery);
			fprintf(o, "\n");
		}
	} else {
		int md = fmt == F_MD;
		fprintf(o, "%s%s: %ld estimates, t %.6g to %.6g s, %ld truth change%s\n", md ? "" : "# ",
		    tbl_name(r), nrows, t_first, t_last, nevents, nevents == 1 ? "" : "s");
		const char *refused = tbl_note(r, "refused_updates");
		if (refused)
			fprintf(o, "%s%s updates refused by tagk-estimate (the stream's note)\n", md ? "" : "# ", refused);
		fprintf(o, "\n");
		if (md)
			fprintf(o, "| param | n | RMSE | MAE | NMAE | RMSPE (%%) |\n|---|--:|--:|--:|--:|--:|\n");
		else
			fprintf(o, "%-6s %7s %12s %12s %10s %10s\n", "param", "n", "rmse", "mae", "nmae", "rmspe_%");
		for (int j = 0; j < np; j++) {
			char nm[32], rp[32];
			if (isnan(NMAE(j))) snprintf(nm, sizeof(nm), "n/a"); else snprintf(nm, sizeof(nm), "%.4g", NMAE(j));
			if (isnan(RMSPE(j))) snprintf(rp, sizeof(rp), "n/a"); else snprintf(rp, sizeof(rp), "%.4g", RMSPE(j));
			if (md)
				fprintf(o, "| %s | %ld | %.4g | %.4g | %s | %s |\n", pn[j], a[j].n, RMSE(j), MAE(j), nm, rp);
			else
				fprintf(o, "%-6s %7ld %12.4g %12.4g %10s %10s\n", pn[j], a[j].n, RMSE(j), MAE(j), nm, rp);
		}
		fprintf(o, "\n%srelative parameter error ||theta^ - theta|| / ||theta||: mean %.4g, final %.4g\n",
		    md ? "" : "# ", sum_rel / (double)nrows, last_rel);
		if (np == TAGK_NPARAM) {
			fprintf(o, "%sby block, relative (mean, final): mass %.4g, %.4g; first moment %.4g, %.4g; "
			    "inertia %.4g, %.4g\n", md ? "" : "# ", blk_sum[0] / (double)nrows, blk_last[0],
			    blk_sum[1] / (double)nrows, blk_last[1], blk_sum[2] / (double)nrows, blk_last[2]);
			if (truth_unphysical)
				fprintf(o, "%slog-det divergence of pseudo-inertias: n/a, the truth is not physical\n",
				    md ? "" : "# ");
			else if (div_n)
				fprintf(o, "%slog-det divergence of pseudo-inertias D(J^ || J): mean %.4g, final %s; "
				    "%ld of %ld estimates not physical\n", md ? "" : "# ", div_sum / (double)div_n,
				    isnan(div_last) ? "n/a (not physical)" : fmt_g4(div_last), unphysical, nrows);
			else
				fprintf(o, "%slog-det divergence of pseudo-inertias: n/a, no estimate is physical\n",
				    md ? "" : "# ");
		}
		if (nevents) {
			fprintf(o, "\n%sat each truth change: error of the first estimate after it, and time until "
			    "within %g %%\n\n", md ? "" : "# ", tol);
			if (md)
				fprintf(o, "| t (s) | error (t+1) | recovered after (s) |\n|--:|--:|--:|\n");
			else
				fprintf(o, "%12s %12s %20s\n", "t_s", "error_t1", "recovered_after_s");
			for (long e = 0; e < shown && e < 50; e++) {
				char rec[32];
				if (ev[e].recovery < 0) snprintf(rec, sizeof(rec), "never");
				else snprintf(rec, sizeof(rec), "%.4g", ev[e].recovery);
				if (md)
					fprintf(o, "| %.6g | %.4g | %s |\n", ev[e].t, ev[e].err1, rec);
				else
					fprintf(o, "%12.6g %12.4g %20s\n", ev[e].t, ev[e].err1, rec);
			}
			if (nevents > 50)
				fprintf(o, "%s(%ld more truth changes: the truth varies continuously; see --format csv)\n",
				    md ? "" : "# ", nevents - 50);
		}
	}
	out_close(&w);
	if (nbefore_truth)
		cli_warn("%ld estimates before the first truth row were not scored", nbefore_truth);
	tbl_close(r);
	if (tr)
		tbl_close(tr);
	return 0;
}
