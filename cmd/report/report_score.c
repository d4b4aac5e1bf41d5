/* report_score.c: tagk-report with truth; see report_score.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "report_json.h"
#include "report_score.h"
#include "report_interval.h"
#include "../formats/sink.h"
#include "../lib/tagk.h"

enum { MAX_EVENTS = 10000 };

/* ---- the truth: the stream's own columns, or a file joined by time ---- */

typedef struct {
	tbl_reader *r;          /* the truth file, or NULL: the stream's columns */
	int interp;
	int tt, col[TAGK_NPARAM], np;
	double *cur, *next;     /* rows of the file around the time asked */
	int have_cur, have_next;
	int own[TAGK_NPARAM];   /* the stream's true_* columns */
} truth_src;

static void
truth_open_file(truth_src *ts, const char *path, int np, int interp)
{
	memset(ts, 0, sizeof(*ts));
	ts->np = np;
	ts->interp = interp;
	ts->r = cmdio_open_input(path, &(tbl_options){ 0 });
	ts->tt = tbl_find(ts->r, "t");
	if (ts->tt < 0)
		cli_die(EXIT_DATA, "%s: the truth file needs a column t", path);
	tbl_want(ts->r, ts->tt);
	for (int j = 0; j < np; j++) {
		char name[40];
		snprintf(name, sizeof(name), "true_%s", tagk_param_names[j]);
		ts->col[j] = tbl_find(ts->r, name);
		if (ts->col[j] < 0)
			ts->col[j] = tbl_find(ts->r, tagk_param_names[j]);
		if (ts->col[j] < 0)
			cli_die(EXIT_DATA, "%s: the truth file has no column true_%s or %s", path, tagk_param_names[j],
			    tagk_param_names[j]);
		tbl_want(ts->r, ts->col[j]);
	}
	ts->cur = malloc((size_t)tbl_ncols(ts->r) * sizeof(double));
	ts->next = malloc((size_t)tbl_ncols(ts->r) * sizeof(double));
	if (!ts->cur || !ts->next)
		cli_die(EXIT_DATA, "out of memory");
	int rc = tbl_next(ts->r, ts->next);
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(ts->r));
	if (rc == 0)
		cli_die(EXIT_DATA, "%s: no truth rows", path);
	ts->have_next = 1;
}

/* Read the truth file's next row into ts->next, checking that time increases. */
static void
truth_advance(truth_src *ts)
{
	double *sw = ts->cur;
	ts->cur = ts->next;
	ts->next = sw;
	ts->have_cur = 1;
	int rc = tbl_next(ts->r, ts->next);
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(ts->r));
	if (rc == 1 && !(ts->next[ts->tt] > ts->cur[ts->tt]))
		cli_die(EXIT_DATA, "%s: time does not increase", tbl_where(ts->r));
	ts->have_next = rc == 1;
}

/* The truth at time t (row: the stream's row) into out: 1, or 0 when t is
 * before the first truth row. */
static int
truth_at(truth_src *ts, const double *row, double t, double *out)
{
	if (!ts->r) {
		for (int j = 0; j < ts->np; j++)
			out[j] = row[ts->own[j]];
		return 1;
	}
	while (ts->have_next && ts->next[ts->tt] <= t)
		truth_advance(ts);
	if (!ts->have_cur)
		return 0;
	double w = 0;
	if (ts->interp && ts->have_next)
		w = (t - ts->cur[ts->tt]) / (ts->next[ts->tt] - ts->cur[ts->tt]);
	for (int j = 0; j < ts->np; j++) {
		double a = ts->cur[ts->col[j]], b = ts->have_next ? ts->next[ts->col[j]] : a;
		out[j] = w > 0 ? a + w * (b - a) : a;
	}
	return 1;
}

static void
truth_close(truth_src *ts)
{
	if (ts->r)
		tbl_close(ts->r);
	free(ts->cur);
	free(ts->next);
}

/* ---- columns ---- */

int
report_estimate_cols(tbl_reader *r, int *it, int *ip)
{
	int np = 0;
	*it = tbl_find(r, "t");
	for (int j = 0; j < TAGK_NPARAM; j++)
		ip[j] = tbl_find(r, tagk_param_names[j]);
	while (np < TAGK_NPARAM && ip[np] >= 0)
		np++;
	if (*it < 0 || (np != 1 && np != TAGK_NPARAM))
		cli_die(EXIT_DATA, "%s: not an estimate stream: it needs columns t and m (and mcx ... Izz "
		    "for the rigid body), as tagk-estimate writes", tbl_name(r));
	tbl_want(r, *it);
	for (int j = 0; j < np; j++)
		tbl_want(r, ip[j]);
	return np;
}

int
report_has_truth(tbl_reader *r, int np)
{
	int ntrue = 0;
	for (int j = 0; j < np; j++) {
		char name[40];
		snprintf(name, sizeof(name), "true_%s", tagk_param_names[j]);
		ntrue += tbl_find(r, name) >= 0;
	}
	if (ntrue && ntrue != np)
		cli_die(EXIT_DATA, "%s: some true_* columns but not all: give the truth with --truth FILE", tbl_name(r));
	return ntrue != 0;
}

/* ---- the scores ---- */

typedef struct {
	double t, err1, recovery; /* recovery < 0: not within the tolerance before the next event */
} event;

typedef struct {
	long n, npct;
	double se, ae, at, spe;
	double worst, worst_t;    /* the largest |error| and its time */
	long cov_n, cov_in;       /* estimates with an sd, and those whose 95 % interval holds the truth */
} acc;

typedef struct {
	int np;
	long n, before, uncentred, unphysical, truth_unphysical, nevents, div_n;
	acc a[TAGK_NPARAM];
	double sum_rel, last_rel, t_first, t_last;
	double blk_sum[TAGK_NERR], blk_last[TAGK_NERR], div_sum, div_last;
	event *ev;
	double prev_truth[TAGK_NPARAM];
	int have_prev, open_event;
	plaus_count phys;
	double last_est[TAGK_NPARAM];
	double last_sd_m;         /* the last estimate's sd of m, NaN without */
	int have_sd;
} score;

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

/* The per-parameter sums and the relative error of one estimate. */
static double
add_errors(score *s, const double *sv, const double *tv, double t)
{
	double num = 0, den = 0;
	for (int j = 0; j < s->np; j++) {
		double e = sv[j] - tv[j];
		acc *a = &s->a[j];
		a->n++;
		a->se += e * e;
		a->ae += fabs(e);
		a->at += fabs(tv[j]);
		if (fabs(e) > a->worst) {
			a->worst = fabs(e);
			a->worst_t = t;
		}
		if (tv[j] != 0) {
			a->npct++;
			a->spe += (e / tv[j]) * (e / tv[j]);
		}
		num += e * e;
		den += tv[j] * tv[j];
	}
	return den > 0 ? sqrt(num / den) : (double)NAN;
}

/* The rigid body's block errors and divergence; D (>= 0, or -1 / -2 when
 * the estimate / the truth is not physical). */
static double
add_blocks(score *s, const double *est, const double *truth)
{
	tagk_real te[TAGK_NPARAM], tv[TAGK_NPARAM], be[TAGK_NERR];
	for (int j = 0; j < TAGK_NPARAM; j++) {
		te[j] = (tagk_real)est[j];
		tv[j] = (tagk_real)truth[j];
	}
	tagk_block_errors(te, tv, be);
	for (int k = 0; k < TAGK_NERR; k++) {
		s->blk_sum[k] += (double)be[k];
		s->blk_last[k] = (double)be[k];
	}
	double D = (double)tagk_logdet_divergence(te, tv);
	if (D >= 0) {
		s->div_sum += D;
		s->div_n++;
		s->div_last = D;
	} else {
		s->unphysical += D == -1;
		s->truth_unphysical += D == -2;
		s->div_last = (double)NAN;
	}
	return D;
}

/* Payload events: a change of the truth opens one; the first estimate
 * within the tolerance closes it. */
static void
track_events(score *s, const double *truth, double rel, double t, double tol)
{
	int changed = 0;
	if (s->have_prev)
		for (int j = 0; j < s->np; j++)
			if (fabs(truth[j] - s->prev_truth[j]) > 1e-9 * (fabs(s->prev_truth[j]) + 1e-300))
				changed = 1;
	if (changed) {
		if (s->nevents < MAX_EVENTS) {
			s->ev[s->nevents] = (event){ t, rel, rel * 100 <= tol ? 0 : -1 };
			s->open_event = rel * 100 <= tol ? -1 : (int)s->nevents;
		} else {
			s->open_event = -1;
		}
		s->nevents++;
	} else if (s->open_event >= 0 && rel * 100 <= tol) {
		s->ev[s->open_event].recovery = t - s->ev[s->open_event].t;
		s->open_event = -1;
	}
	memcpy(s->prev_truth, truth, sizeof(s->prev_truth));
	s->have_prev = 1;
}

#define COVER(a) ((a)->cov_n ? 100.0 * (double)(a)->cov_in / (double)(a)->cov_n : (double)NAN)
#define RMSE(a) sqrt((a)->se / (double)(a)->n)
#define MAE(a) ((a)->ae / (double)(a)->n)
#define NMAE(a) ((a)->at > 0 ? (a)->ae / (a)->at : (double)NAN)
#define RMSPE(a) ((a)->npct ? 100 * sqrt((a)->spe / (double)(a)->npct) : (double)NAN)

/* Every score finite, or die naming the estimate that broke it. */
static void
check_finite(const score *s, const char *name, const char *const *pn)
{
	for (int j = 0; j < s->np; j++) {
		const acc *a = &s->a[j];
		if (isfinite(RMSE(a)) && isfinite(MAE(a)) && (isnan(RMSPE(a)) || isfinite(RMSPE(a))) &&
		    (isnan(NMAE(a)) || isfinite(NMAE(a))))
			continue;
		char t[32];
		fmt_double(t, a->worst_t);
		cli_die(EXIT_DATA, "%s: the scores of %s are not finite: its estimate at t = %s is off by %.3g, too "
		    "large to square; no estimate of a physical body is that far off (check the method's settings)",
		    name, pn[j], t, a->worst);
	}
	if (!isfinite(s->sum_rel))
		cli_die(EXIT_DATA, "%s: the relative error is not finite: an estimate too large to square", name);
}

/* ---- output ---- */

static void
print_logdet_head(FILE *o, enum report_fmt fmt, const char *name)
{
	if (fmt == F_JSON)
		fprintf(o, "{\n  \"input\": \"%s\",\n  \"logdet\": [\n", name);
	else if (fmt == F_CSV)
		fprintf(o, "t,logdet\n");
	else if (fmt == F_MD)
		fprintf(o, "| t | D(estimate \\|\\| truth) |\n|---|---|\n");
	else
		fprintf(o, "# %s: log-det divergence D(estimate || truth) of the pseudo-inertias\n%-14s %s\n", name,
		    "t", "D");
}

/* One point of the --logdet series (D < 0: not physical, -1 the estimate,
 * -2 the truth): empty in CSV, null in JSON, words in text. */
static void
print_logdet_point(FILE *o, enum report_fmt fmt, long i, double t, double D)
{
	const char *why = D == -1 ? "estimate not physical" : "truth not physical";
	if (fmt == F_JSON) {
		fprintf(o, "%s    {\"t\": %.10g, \"D\": ", i ? ",\n" : "", t);
		if (D >= 0) fprintf(o, "%.10g}", D); else fprintf(o, "null}");
	} else if (fmt == F_CSV) {
		char tb[32], db[32] = "";
		fmt_double(tb, t);
		if (D >= 0)
			fmt_double(db, D);
		fprintf(o, "%s,%s\n", tb, db);
	} else if (fmt == F_MD) {
		if (D >= 0) fprintf(o, "| %.10g | %.6g |\n", t, D); else fprintf(o, "| %.10g | %s |\n", t, why);
	} else {
		if (D >= 0) fprintf(o, "%-14.10g %.6g\n", t, D); else fprintf(o, "%-14.10g %s\n", t, why);
	}
}

static const char *const blk_names[TAGK_NERR] = { "mass", "first_moment", "inertia" };

static void
print_json(FILE *o, const score *s, tbl_reader *r, const char *const *pn, double tol, const detect_score *det)
{
	long shown = s->nevents < MAX_EVENTS ? s->nevents : MAX_EVENTS;
	fputs("{\n  \"input\": ", o);
	report_jstr(o, tbl_name(r));
	fprintf(o, ",\n  \"estimates\": %ld,\n  \"physical\": %ld,\n  \"projected\": %ld,\n"
	    "  \"t_first\": %.10g,\n  \"t_last\": %.10g,\n", s->n, s->phys.physical, s->phys.projected, s->t_first,
	    s->t_last);
	fprintf(o, "  \"parameters\": [\n");
	for (int j = 0; j < s->np; j++) {
		const acc *a = &s->a[j];
		fprintf(o, "    {\"name\": \"%s\", \"n\": %ld, \"rmse\": %.10g, \"mae\": %.10g, ", pn[j], a->n, RMSE(a),
		    MAE(a));
		if (isnan(NMAE(a))) fprintf(o, "\"nmae\": null, "); else fprintf(o, "\"nmae\": %.10g, ", NMAE(a));
		if (isnan(RMSPE(a))) fprintf(o, "\"rmspe_pct\": null, "); else fprintf(o, "\"rmspe_pct\": %.10g, ", RMSPE(a));
		if (isnan(COVER(a))) fprintf(o, "\"cover95_pct\": null}"); else fprintf(o, "\"cover95_pct\": %.10g}", COVER(a));
		fprintf(o, "%s\n", j + 1 < s->np ? "," : "");
	}
	fprintf(o, "  ],\n  \"relative_error\": {\"mean\": %.10g, \"final\": %.10g},\n", s->sum_rel / (double)s->n,
	    s->last_rel);
	if (s->np == TAGK_NPARAM) {
		fprintf(o, "  \"block_errors\": {");
		for (int k = 0; k < TAGK_NERR; k++)
			fprintf(o, "\"%s\": {\"mean\": %.10g, \"final\": %.10g}, ", blk_names[k], s->blk_sum[k] / (double)s->n,
			    s->blk_last[k]);
		fprintf(o, "\"logdet_divergence\": {\"n\": %ld, \"mean\": ", s->div_n);
		if (s->div_n) fprintf(o, "%.10g", s->div_sum / (double)s->div_n); else fprintf(o, "null");
		fprintf(o, ", \"final\": ");
		if (!isnan(s->div_last)) fprintf(o, "%.10g", s->div_last); else fprintf(o, "null");
		fprintf(o, ", \"not_physical\": %ld, \"truth_not_physical\": %ld}},\n", s->unphysical, s->truth_unphysical);
	}
	fprintf(o, "  \"tolerance_pct\": %.10g,\n  \"events\": %ld,\n  \"event_list\": [\n", tol, s->nevents);
	for (long e = 0; e < shown; e++) {
		fprintf(o, "    {\"t\": %.10g, \"error_t1\": %.10g, \"recovery_s\": ", s->ev[e].t, s->ev[e].err1);
		if (s->ev[e].recovery < 0) fprintf(o, "null}"); else fprintf(o, "%.10g}", s->ev[e].recovery);
		fprintf(o, "%s\n", e + 1 < shown ? "," : "");
	}
	fprintf(o, "  ]");
	detect_print_json(o, det);
	fprintf(o, ",\n  \"upstream_warnings\": [");
	for (int i = 0; i < tbl_nwarnings(r); i++) {
		fprintf(o, "%s\n    ", i ? "," : "");
		report_jstr(o, tbl_warning(r, i));
	}
	fprintf(o, "%s]\n}\n", tbl_nwarnings(r) ? "\n  " : "");
}

static void
print_csv(FILE *o, const score *s, const char *const *pn)
{
	long shown = s->nevents < MAX_EVENTS ? s->nevents : MAX_EVENTS;
	fprintf(o, "kind,name,t,n,rmse,mae,nmae,rmspe_pct,error_t1,recovery_s,cover95_pct\n");
	for (int j = 0; j < s->np; j++) {
		const acc *a = &s->a[j];
		fprintf(o, "parameter,%s,,%ld,%.10g,%.10g,", pn[j], a->n, RMSE(a), MAE(a));
		if (!isnan(NMAE(a))) fprintf(o, "%.10g", NMAE(a));
		fprintf(o, ",");
		if (!isnan(RMSPE(a))) fprintf(o, "%.10g", RMSPE(a));
		fprintf(o, ",,,");
		if (!isnan(COVER(a))) fprintf(o, "%.10g", COVER(a));
		fprintf(o, "\n");
	}
	fprintf(o, "physical,estimates,,%ld,,,,,,,\n", s->phys.physical);
	fprintf(o, "projected,estimates,,%ld,,,,,,,\n", s->phys.projected);
	fprintf(o, "relative_error,mean,,%ld,,%.10g,,,,,\n", s->n, s->sum_rel / (double)s->n);
	fprintf(o, "relative_error,final,%.10g,1,,%.10g,,,,,\n", s->t_last, s->last_rel);
	if (s->np == TAGK_NPARAM) {
		for (int k = 0; k < TAGK_NERR; k++) {
			fprintf(o, "block_error,%s_mean,,%ld,,%.10g,,,,,\n", blk_names[k], s->n, s->blk_sum[k] / (double)s->n);
			fprintf(o, "block_error,%s_final,%.10g,1,,%.10g,,,,,\n", blk_names[k], s->t_last, s->blk_last[k]);
		}
		fprintf(o, "logdet_divergence,mean,,%ld,,", s->div_n);
		if (s->div_n) fprintf(o, "%.10g", s->div_sum / (double)s->div_n);
		fprintf(o, ",,,,,\nlogdet_divergence,final,%.10g,1,,", s->t_last);
		if (!isnan(s->div_last)) fprintf(o, "%.10g", s->div_last);
		fprintf(o, ",,,,,\nlogdet_divergence,not_physical,,%ld,,,,,,,\n", s->unphysical);
	}
	for (long e = 0; e < shown; e++) {
		fprintf(o, "event,,%.10g,,,,,,%.10g,", s->ev[e].t, s->ev[e].err1);
		if (s->ev[e].recovery >= 0) fprintf(o, "%.10g", s->ev[e].recovery);
		fprintf(o, ",\n");
	}
}

static void
print_text(FILE *o, int md, const score *s, tbl_reader *r, const char *const *pn, double tol)
{
	const char *h = md ? "" : "# ";
	long shown = s->nevents < MAX_EVENTS ? s->nevents : MAX_EVENTS;
	char span[96];
	fprintf(o, "%s%s: %ld estimate%s, t %s, %ld truth change%s\n", h, tbl_name(r), s->n, s->n == 1 ? "" : "s",
	    cli_span(span, sizeof(span), s->t_first, s->t_last), s->nevents, s->nevents == 1 ? "" : "s");
	const char *refused = tbl_note(r, "refused_updates");
	if (refused)
		fprintf(o, "%s%s updates refused by tagk-estimate (the stream's note)\n", h, refused);
	const char *hover = tbl_note(r, "px4_hover_mass");
	if (hover)
		fprintf(o, "%sPX4's hover thrust estimate implies m = %.4g kg through the same thrust model (the "
		    "stream's note), beside m below\n", h, atof(hover));
	plaus_count_print(o, h, &s->phys, s->n);
	if (tbl_nwarnings(r))
		fprintf(o, "%swarnings of the commands upstream (the stream carries them; --strict fails on them):\n", h);
	for (int i = 0; i < tbl_nwarnings(r); i++)
		fprintf(o, "%s  %s\n", h, tbl_warning(r, i));
	fprintf(o, "\n");
	if (md)
		fprintf(o, "| param | n | RMSE | MAE | NMAE | RMSPE (%%) | 95 %% interval holds the truth (%%) |\n"
		    "|---|--:|--:|--:|--:|--:|--:|\n");
	else
		fprintf(o, "%-6s %7s %12s %12s %10s %10s %10s\n", "param", "n", "rmse", "mae", "nmae", "rmspe_%", "cover95_%");
	for (int j = 0; j < s->np; j++) {
		const acc *a = &s->a[j];
		char nm[32], rp[32], cv[32];
		if (isnan(NMAE(a))) snprintf(nm, sizeof(nm), "n/a"); else snprintf(nm, sizeof(nm), "%.4g", NMAE(a));
		if (isnan(RMSPE(a))) snprintf(rp, sizeof(rp), "n/a"); else snprintf(rp, sizeof(rp), "%.4g", RMSPE(a));
		if (isnan(COVER(a))) snprintf(cv, sizeof(cv), "n/a"); else snprintf(cv, sizeof(cv), "%.3g", COVER(a));
		if (md)
			fprintf(o, "| %s | %ld | %.4g | %.4g | %s | %s | %s |\n", pn[j], a->n, RMSE(a), MAE(a), nm, rp, cv);
		else
			fprintf(o, "%-6s %7ld %12.4g %12.4g %10s %10s %10s\n", pn[j], a->n, RMSE(a), MAE(a), nm, rp, cv);
	}
	fprintf(o, "\n%srelative parameter error ||theta^ - theta|| / ||theta||: mean %.4g, final %.4g\n", h,
	    s->sum_rel / (double)s->n, s->last_rel);
	if (s->np == TAGK_NPARAM) {
		fprintf(o, "%sby block, relative (mean, final): mass %.4g, %.4g; first moment %.4g, %.4g; inertia %.4g, "
		    "%.4g\n", h, s->blk_sum[0] / (double)s->n, s->blk_last[0], s->blk_sum[1] / (double)s->n, s->blk_last[1],
		    s->blk_sum[2] / (double)s->n, s->blk_last[2]);
		if (s->truth_unphysical)
			fprintf(o, "%slog-det divergence of pseudo-inertias: n/a, the truth is not physical\n", h);
		else if (s->div_n) {
			char last[32];
			if (isnan(s->div_last)) snprintf(last, sizeof(last), "n/a (not physical)");
			else snprintf(last, sizeof(last), "%.4g", s->div_last);
			fprintf(o, "%slog-det divergence of pseudo-inertias D(J^ || J): mean %.4g, final %s; %ld of %ld "
			    "estimates not physical\n", h, s->div_sum / (double)s->div_n, last, s->unphysical, s->n);
		} else
			fprintf(o, "%slog-det divergence of pseudo-inertias: n/a, no estimate is physical\n", h);
	}
	if (!s->nevents)
		return;
	fprintf(o, "\n%sat each truth change: error of the first estimate after it, and time until within %g %%\n\n",
	    h, tol);
	if (md)
		fprintf(o, "| t (s) | error (t+1) | recovered after (s) |\n|--:|--:|--:|\n");
	else
		fprintf(o, "%12s %12s %20s\n", "t_s", "error_t1", "recovered_after_s");
	for (long e = 0; e < shown && e < 50; e++) {
		char rec[32];
		if (s->ev[e].recovery < 0) snprintf(rec, sizeof(rec), "never");
		else snprintf(rec, sizeof(rec), "%.4g", s->ev[e].recovery);
		if (md)
			fprintf(o, "| %.6g | %.4g | %s |\n", s->ev[e].t, s->ev[e].err1, rec);
		else
			fprintf(o, "%12.6g %12.4g %20s\n", s->ev[e].t, s->ev[e].err1, rec);
	}
	if (s->nevents > 50)
		fprintf(o, "%s(%ld more truth changes: the truth varies continuously; see --format csv)\n", h,
		    s->nevents - 50);
}

/* ---- the loop ---- */

/* Score one estimate; returns D of the rigid body (or 0), -3 when the row
 * is not scored (--about-com without a centre of mass). */
static double
score_row(score *s, const score_opts *o, const double *est, const double *sd, const double *truth, double t,
    const double *row)
{
	plaus_count_row(&s->phys, s->np, est, row);
	memcpy(s->last_est, est, sizeof(*est) * (size_t)s->np);
	s->last_sd_m = sd ? sd[0] : (double)NAN;
	for (int j = 0; sd && j < s->np; j++)
		if (isfinite(sd[j])) {
			s->a[j].cov_n++;
			s->a[j].cov_in += fabs(est[j] - truth[j]) <= 1.96 * sd[j];
		}
	double sv[TAGK_NPARAM], tv[TAGK_NPARAM];
	if (o->about_com) {
		/* rows where either has no centre of mass (m = 0) are not scored */
		if (!about_centre(est, sv) || !about_centre(truth, tv)) {
			s->uncentred++;
			return -3;
		}
	} else {
		memcpy(sv, est, sizeof(sv));
		memcpy(tv, truth, sizeof(tv));
	}
	double rel = add_errors(s, sv, tv, t);
	double D = s->np == TAGK_NPARAM ? add_blocks(s, est, truth) : 0;
	s->sum_rel += rel;
	s->last_rel = rel;
	if (s->n == 0)
		s->t_first = t;
	s->t_last = t;
	s->n++;
	track_events(s, truth, rel, t, o->tol);
	return D;
}

void
report_score(tbl_reader *r, int it, int np, const int *ip, const score_opts *o, cmdio_file *w, plaus *p)
{
	if ((o->logdet || o->about_com) && np != TAGK_NPARAM)
		cli_die(EXIT_USAGE, "%s: %s holds the mass only; %s needs the ten parameters of a rigid body",
		    o->logdet ? "--logdet" : "--about-com", tbl_name(r), o->logdet ? "the divergence" : "a centre of mass");
	truth_src ts;
	if (o->truthfile) {
		truth_open_file(&ts, o->truthfile, np, o->interp);
	} else {
		memset(&ts, 0, sizeof(ts));
		ts.np = np;
		if (!report_has_truth(r, np))
			cli_die(EXIT_DATA, "%s%s has no true_* columns: give the truth with --truth FILE",
			    o->logdet ? "--logdet: " : "", tbl_name(r));
		for (int j = 0; j < np; j++) {
			char name[40];
			snprintf(name, sizeof(name), "true_%s", tagk_param_names[j]);
			tbl_want(r, ts.own[j] = tbl_find(r, name));
		}
	}
	static detect_score det;
	detect_open(&det, r, np, o->detect_tol, o->truthfile != NULL);
	if (o->truthfile)
		detect_truth_file(&det, o->truthfile);
	score s;
	memset(&s, 0, sizeof(s));
	s.np = np;
	s.open_event = -1;
	s.div_last = (double)NAN;
	s.ev = malloc(MAX_EVENTS * sizeof(*s.ev));
	plaus_count_init(&s.phys, r);
	double *row = malloc((size_t)tbl_ncols(r) * sizeof(double));
	if (!s.ev || !row)
		cli_die(EXIT_DATA, "out of memory");
	if (o->logdet)
		print_logdet_head(w->f, o->fmt, tbl_name(r));
	/* the sd_* columns, when the stream has them all (an empty cell: no
	 * sd yet) */
	int isd[TAGK_NPARAM], have_sd = 1;
	for (int j = 0; j < np; j++) {
		char name[40];
		snprintf(name, sizeof(name), "sd_%s", tagk_param_names[j]);
		have_sd &= (isd[j] = tbl_find(r, name)) >= 0;
	}
	for (int j = 0; have_sd && j < np; j++)
		tbl_want_nullable(r, isd[j]);
	s.have_sd = have_sd && !o->about_com;
	/* the systematic part, when the stream has it: the coverage is the
	 * total interval's (report_interval.h) */
	int isys[TAGK_NPARAM], have_sys = report_sys_columns(r, np, isys);
	double t_prev = -INFINITY, est[TAGK_NPARAM], truth[TAGK_NPARAM], sd[TAGK_NPARAM];
	int rc;
	long nread = 0;
	while ((rc = tbl_next(r, row)) == 1) {
		double t = row[it];
		if (nread++ && !(t > t_prev)) {
			char a[32], b[32];
			fmt_double(a, t);
			fmt_double(b, t_prev);
			cli_die(EXIT_DATA, "%s: time %s does not increase (previous %s): scores need the estimates in "
			    "time order", tbl_where(r), a, b);
		}
		t_prev = t;
		if (!truth_at(&ts, row, t, truth)) {
			s.before++;
			continue;
		}
		for (int j = 0; j < np; j++) {
			est[j] = row[ip[j]];
			sd[j] = s.have_sd ? report_total_sd(row[isd[j]], have_sys ? row[isys[j]] : (double)NAN) : (double)NAN;
		}
		detect_row(&det, row, t, truth);
		double D = score_row(&s, o, est, s.have_sd ? sd : NULL, truth, t, row);
		if (D != -3 && isnan(s.last_rel)) { /* add_errors: the truth's squared norm is 0 */
			char a[32];
			fmt_double(a, t);
			cli_die(EXIT_DATA, "%s: the truth at t = %s is all zeros (or too small to square): an error "
			    "relative to it is undefined; is the truth the right file, its columns filled?", tbl_where(r), a);
		}
		if (o->logdet && D != -3)
			print_logdet_point(w->f, o->fmt, s.n - 1, t, D);
	}
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	if (s.n == 0)
		cli_die(EXIT_DATA, "%s: no estimates to score%s", tbl_name(r),
		    s.before ? " (all come before the first truth row)" : "");
	static const char *const com_names[TAGK_NPARAM] = { "m", "cx", "cy", "cz", "Ixx_c", "Ixy_c", "Iyy_c",
		"Ixz_c", "Iyz_c", "Izz_c" };
	const char *const *pn = o->about_com ? com_names : tagk_param_names;
	if (o->logdet) {
		if (o->fmt == F_JSON)
			fprintf(w->f, "\n  ],\n  \"not_physical\": %ld,\n  \"truth_not_physical\": %ld\n}\n", s.unphysical,
			    s.truth_unphysical);
	} else {
		check_finite(&s, tbl_name(r), pn);
		detect_finish(&det);
		if (o->fmt == F_JSON)
			print_json(w->f, &s, r, pn, o->tol, &det);
		else if (o->fmt == F_CSV)
			print_csv(w->f, &s, pn);
		else
			print_text(w->f, o->fmt == F_MD, &s, r, pn, o->tol);
		if (o->fmt == F_TEXT || o->fmt == F_MD)
			detect_print_text(w->f, o->fmt == F_MD, &det);
	}
	plaus_check(p, tbl_name(r), "final", np, s.last_est, s.phys.physical, s.n, NULL);
	plaus_nominal(p, plaus_nominal_of(p, r), tbl_name(r), "final", s.last_est[0],
	    plaus_sd(0, s.last_est[0], s.last_sd_m));
	plaus_upstream(p, tbl_name(r), r);
	if (s.uncentred)
		cli_warn("--about-com: %ld row%s not scored: the estimate or the truth has no centre of mass (m = 0)",
		    s.uncentred, s.uncentred == 1 ? "" : "s");
	if (s.before)
		cli_warn("%ld estimate%s before the first truth row %s not scored", s.before, s.before == 1 ? "" : "s",
		    s.before == 1 ? "was" : "were");
	truth_close(&ts);
	free(s.ev);
	free(row);
}
