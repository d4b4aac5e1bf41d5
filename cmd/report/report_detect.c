/* report_detect.c: change detection scored against the truth; see
 * report_detect.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdio.h"
#include "report_detect.h"

void
detect_open(detect_score *d, tbl_reader *r, int np, double tol, int from_file)
{
	memset(d, 0, sizeof(*d));
	d->np = np;
	d->tol = tol;
	d->from_file = from_file;
	d->t_prev = (double)NAN;
	int ev = tbl_find(r, "event"), et = tbl_find(r, "event_t"), ts = tbl_find(r, "t_start");
	if (ev >= 0 && et >= 0) {
		d->src = 1;
		d->iev = ev;
		d->iet = et;
		tbl_want(r, ev);
		tbl_want_nullable(r, et);
	} else if (ts >= 0 && !from_file) {
		d->src = 3; /* a note only: the stream's truth does not date its changes */
	} else if (ts >= 0) {
		d->src = 2;
		d->iet = ts;
		tbl_want(r, ts);
	}
}

static void
add_true(detect_score *d, double t)
{
	if (d->ntrue < DETECT_MAX)
		d->true_t[d->ntrue] = t;
	d->ntrue++;
}

/* 1 if the truth a differs from b (np values, relative 1e-9). */
static int
differs(int np, const double *a, const double *b)
{
	for (int j = 0; j < np; j++)
		if (fabs(a[j] - b[j]) > 1e-9 * (fabs(b[j]) + 1e-300))
			return 1;
	return 0;
}

void
detect_truth_file(detect_score *d, const char *path)
{
	if (d->src != 1 && d->src != 2)
		return;
	tbl_reader *r = cmdio_open_input(path, &(tbl_options){ 0 });
	int tt = tbl_find(r, "t"), col[TAGK_NPARAM];
	tbl_want(r, tt); /* truth_open_file has checked the columns */
	for (int j = 0; j < d->np; j++) {
		char name[40];
		snprintf(name, sizeof(name), "true_%s", tagk_param_names[j]);
		col[j] = tbl_find(r, name) >= 0 ? tbl_find(r, name) : tbl_find(r, tagk_param_names[j]);
		tbl_want(r, col[j]);
	}
	double *row = malloc((size_t)tbl_ncols(r) * sizeof(double)), prev[TAGK_NPARAM], cur[TAGK_NPARAM];
	if (!row)
		cli_die(EXIT_DATA, "out of memory");
	int rc, have = 0;
	while ((rc = tbl_next(r, row)) == 1) {
		for (int j = 0; j < d->np; j++)
			cur[j] = row[col[j]];
		if (have && differs(d->np, cur, prev))
			add_true(d, row[tt]);
		memcpy(prev, cur, sizeof(prev));
		have = 1;
	}
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	free(row);
	tbl_close(r);
}

void
detect_row(detect_score *d, const double *row, double t, const double *truth)
{
	if (d->src != 1 && d->src != 2)
		return;
	int rep = d->src == 1 ? row[d->iev] != 0 && isfinite(row[d->iet]) : d->have_prev;
	if (rep) {
		if (d->nrep < DETECT_MAX) {
			d->rep_t[d->nrep] = row[d->iet];
			d->rep_at[d->nrep] = t;
		}
		d->nrep++;
	}
	if (!d->from_file && d->src == 1 && d->have_prev && differs(d->np, truth, d->prev_truth))
		add_true(d, (d->t_prev + t) / 2);
	memcpy(d->prev_truth, truth, sizeof(*truth) * (size_t)d->np);
	d->t_prev = t;
	d->have_prev = 1;
}

void
detect_finish(detect_score *d)
{
	if (d->src != 1 && d->src != 2)
		return;
	long nt = d->ntrue < DETECT_MAX ? d->ntrue : DETECT_MAX, nr = d->nrep < DETECT_MAX ? d->nrep : DETECT_MAX;
	for (long i = 0; i < nt; i++) {
		d->match[i] = -1;
		for (long k = 0; k < nr; k++)
			if (!d->used[k] && fabs(d->rep_t[k] - d->true_t[i]) <= d->tol) {
				d->match[i] = (int)k;
				d->used[k] = 1;
				break;
			}
		if (d->match[i] >= 0)
			d->hits++;
	}
	d->misses = d->ntrue - d->hits;
	d->false_alarms = d->nrep - d->hits;
}

static const char *
source_name(const detect_score *d)
{
	return d->src == 1 ? "online, the column event" : "offline, the segments' t_start";
}

/* "%.4g" of x into buf, or "n/a" when x is NaN. */
static const char *
num(char *buf, size_t len, double x)
{
	if (isnan(x))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.4g", x);
	return buf;
}

void
detect_print_text(FILE *o, int md, const detect_score *d)
{
	const char *h = md ? "" : "# ";
	if (d->src == 3)
		fprintf(o, "\n%schange detection: not scored; a segment row carries the truth at its end, not when it "
		    "changed: give --truth FILE to score the segments' start times\n", h);
	if (d->src != 1 && d->src != 2)
		return;
	fprintf(o, "\n%schange detection (%s), within %g s: %ld truth change%s, %ld hit%s, %ld miss%s, %ld false "
	    "alarm%s\n", h, source_name(d), d->tol, d->ntrue, d->ntrue == 1 ? "" : "s", d->hits, d->hits == 1 ? "" : "s",
	    d->misses, d->misses == 1 ? "" : "es", d->false_alarms, d->false_alarms == 1 ? "" : "s");
	long nt = d->ntrue < DETECT_MAX ? d->ntrue : DETECT_MAX, nr = d->nrep < DETECT_MAX ? d->nrep : DETECT_MAX;
	if (nt)
		fprintf(o, md ? "\n| truth t (s) | reported t (s) | timing error (s) | delay (s) |\n|--:|--:|--:|--:|\n"
		    : "\n%12s %14s %16s %10s\n", "truth_t_s", "reported_t_s", "timing_error_s", "delay_s");
	for (long i = 0; i < nt && i < 50; i++) {
		char a[32], b[32], c[32];
		int k = d->match[i];
		double rt = k >= 0 ? d->rep_t[k] : (double)NAN, dl = k >= 0 && d->src == 1 ? d->rep_at[k] - d->true_t[i]
		    : (double)NAN;
		num(a, sizeof(a), rt);
		num(b, sizeof(b), rt - d->true_t[i]);
		num(c, sizeof(c), dl);
		if (k < 0)
			snprintf(a, sizeof(a), "missed");
		fprintf(o, md ? "| %.6g | %s | %s | %s |\n" : "%12.6g %14s %16s %10s\n", d->true_t[i], a, b, c);
	}
	for (long k = 0, shown = 0; k < nr && shown < 20; k++)
		if (!d->used[k]) {
			fprintf(o, "%sfalse alarm: change reported at %.6g s%s\n", shown ? "" : "\n", d->rep_t[k],
			    d->src == 1 ? "" : " (a segment's start)");
			shown++;
		}
}

void
detect_print_json(FILE *o, const detect_score *d)
{
	if (d->src != 1 && d->src != 2)
		return;
	fprintf(o, ",\n  \"detection\": {\"source\": \"%s\", \"tolerance_s\": %.10g, \"truth_changes\": %ld, "
	    "\"reported\": %ld, \"hits\": %ld, \"misses\": %ld, \"false_alarms\": %ld,\n    \"changes\": [",
	    d->src == 1 ? "event" : "t_start", d->tol, d->ntrue, d->nrep, d->hits, d->misses, d->false_alarms);
	long nt = d->ntrue < DETECT_MAX ? d->ntrue : DETECT_MAX, nr = d->nrep < DETECT_MAX ? d->nrep : DETECT_MAX;
	for (long i = 0; i < nt; i++) {
		int k = d->match[i];
		fprintf(o, "%s\n      {\"t\": %.10g, ", i ? "," : "", d->true_t[i]);
		if (k < 0)
			fprintf(o, "\"reported_t\": null, \"timing_error_s\": null, \"delay_s\": null}");
		else if (d->src == 1)
			fprintf(o, "\"reported_t\": %.10g, \"timing_error_s\": %.10g, \"delay_s\": %.10g}", d->rep_t[k],
			    d->rep_t[k] - d->true_t[i], d->rep_at[k] - d->true_t[i]);
		else
			fprintf(o, "\"reported_t\": %.10g, \"timing_error_s\": %.10g, \"delay_s\": null}", d->rep_t[k],
			    d->rep_t[k] - d->true_t[i]);
	}
	fprintf(o, "%s],\n    \"false_alarm_t\": [", nt ? "\n    " : "");
	for (long k = 0, n = 0; k < nr; k++)
		if (!d->used[k])
			fprintf(o, "%s%.10g", n++ ? ", " : "", d->rep_t[k]);
	fprintf(o, "]}");
}
