/* report_summary.c: the truthless summary of tagk-report; see report_summary.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report_summary.h"
#include "report_interval.h"
#include "quantile.h"
#include "cli.h"
#include "report_json.h"
#include "../formats/binary.h"
#include "../formats/sink.h"
#include "../lib/tagk.h"

enum { WANDER = 5 }; /* wander() above this: said under the table */

struct summary {
	char refused[64];  /* the stream's refused_updates note, or "" */
	int np;
	long n;
	double t0, t1;     /* the first and last time */
	double first[TAGK_NPARAM], last[TAGK_NPARAM];
	double last_sd[TAGK_NPARAM]; /* the last estimate's sd, NaN without sd columns */
	int have_sd;
	double last_sys[TAGK_NPARAM]; /* its systematic part (sd_sys_*), NaN without */
	int have_sys;
	char sys_of[48];   /* what the systematic part is of (report_sys_label) */
	char sd_noise[16]; /* the stream's sd_noise note: newey-west, white, spread or "" */
	int arm;           /* the stream's system note says arm (tagk-regress -m multibody) */
	plaus_count phys;  /* estimates that are physical bodies */
	char method[64];   /* the stream's method note, or "" */
	char hover[40];    /* the stream's px4_hover_mass note, or "" */
	qspool *q;         /* per row: the np values, the spacing to the previous row,
	                    * the time and the total sd of m (NaN without) */
	int unexcited[TAGK_NPARAM]; /* named by the stream's "unexcited" note */
	int segments;      /* each row a segment's estimate (the "segments" note) */
	double nominal_note; /* the "nominal_mass" note, NaN without */
	char (*warn)[TBL_WARNING_MAX]; /* the warnings the stream carried */
	int nwarn;
	long nchg;         /* rows with event 1 (tagk-estimate --detect) */
	double chg_t[4];   /* the first changes' event_t */
};

/* The notes of r that the verdicts use: unexcited parameters, segments
 * and the carried warnings. */
static void
read_verdict_notes(summary *s, tbl_reader *r)
{
	const char *u = tbl_note(r, "unexcited");
	for (int j = 0; u && j < s->np; j++) {
		const char *n = tagk_param_names[j];
		size_t k = strlen(n);
		for (const char *p = u; *p; p += strcspn(p, ","), p += *p == ',')
			if (strncmp(p, n, k) == 0 && (p[k] == ',' || p[k] == 0))
				s->unexcited[j] = 1;
	}
	s->segments = tbl_note(r, "segments") != NULL;
	plaus none = { (double)NAN, 0, 0 };
	s->nominal_note = plaus_nominal_of(&none, r);
	s->nwarn = tbl_nwarnings(r);
	s->warn = s->nwarn ? malloc((size_t)s->nwarn * sizeof(*s->warn)) : NULL;
	if (s->nwarn && !s->warn)
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 0; i < s->nwarn; i++)
		snprintf(s->warn[i], sizeof(s->warn[i]), "%s", tbl_warning(r, i));
}

summary *
summary_read(tbl_reader *r, int it, int np, const int *ip)
{
	summary *s = calloc(1, sizeof(*s));
	double *row = malloc((size_t)tbl_ncols(r) * sizeof(double));
	if (!s || !row)
		cli_die(EXIT_DATA, "out of memory");
	s->np = np;
	s->q = qs_new(np + 3);
	int isd[TAGK_NPARAM];
	s->have_sd = 1;
	for (int j = 0; j < np; j++) {
		char name[40];
		snprintf(name, sizeof(name), "sd_%s", tagk_param_names[j]);
		isd[j] = tbl_find(r, name);
		s->have_sd &= isd[j] >= 0;
	}
	int isys[TAGK_NPARAM];
	s->have_sys = report_sys_columns(r, np, isys);
	plaus_count_init(&s->phys, r);
	for (int j = 0; j < np; j++) {
		s->last_sd[j] = s->last_sys[j] = (double)NAN;
		if (s->have_sd)
			tbl_want_nullable(r, isd[j]);
	}
	int iev = tbl_find(r, "event"), iet = tbl_find(r, "event_t");
	if (iev >= 0 && iet >= 0) {
		tbl_want(r, iev);
		tbl_want_nullable(r, iet);
	}
	int rc;
	double v[TAGK_NPARAM + 3];
	while ((rc = tbl_next(r, row)) == 1) {
		if (iev >= 0 && iet >= 0 && row[iev] == 1 && s->nchg++ < 4)
			s->chg_t[s->nchg - 1] = row[iet];
		double t = row[it];
		if (s->n > 0 && !(t > s->t1)) {
			char a[32], b[32];
			fmt_double(a, t);
			fmt_double(b, s->t1);
			cli_die(EXIT_DATA, "%s: time %s does not increase (previous %s)", tbl_where(r), a, b);
		}
		for (int j = 0; j < np; j++) {
			v[j] = s->last[j] = row[ip[j]];
			/* an empty sd cell (NaN): the method had none yet */
			if (s->have_sd)
				s->last_sd[j] = report_sd_cell(r, isd[j], row[isd[j]]);
			if (s->have_sys)
				s->last_sys[j] = report_sd_cell(r, isys[j], row[isys[j]]);
		}
		plaus_count_row(&s->phys, np, s->last, row);
		v[np] = s->n ? t - s->t1 : (double)NAN;
		v[np + 1] = t;
		v[np + 2] = report_total_sd(s->last_sd[0], s->last_sys[0]);
		if (s->n == 0) {
			s->t0 = t;
			memcpy(s->first, s->last, sizeof(s->first));
		}
		s->t1 = t;
		qs_add(s->q, v);
		s->n++;
	}
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	if (s->n == 0)
		cli_die(EXIT_DATA, "%s: no estimates to summarise", tbl_name(r));
	const char *note = tbl_note(r, "refused_updates");
	snprintf(s->refused, sizeof(s->refused), "%s", note ? note : "");
	note = tbl_note(r, "px4_hover_mass");
	snprintf(s->hover, sizeof(s->hover), "%s", note ? note : "");
	note = tbl_note(r, "method");
	snprintf(s->method, sizeof(s->method), "%s", note ? note : "");
	note = tbl_note(r, "system");
	s->arm = note && strcmp(note, "arm") == 0;
	snprintf(s->sys_of, sizeof(s->sys_of), "%s", report_sys_label(r));
	note = tbl_note(r, "sd_noise");
	snprintf(s->sd_noise, sizeof(s->sd_noise), "%s", note ? note : "");
	read_verdict_notes(s, r);
	free(row);
	return s;
}

typedef struct {
	double med, q1, q3, first, last;
	int det;           /* PLAUS_DETERMINED, or why not (report_check.h) */
} stats;

/* x in the fewest digits that read back as x (JSON and CSV carry every
 * bit); "null" (JSON) or "" (CSV) when NaN. One of four rotating buffers,
 * for up to four uses in one printf. */
static const char *
rt(double x, int json)
{
	static char b[8][32];
	static int k;
	char *p = b[k++ % 8];
	if (isnan(x))
		snprintf(p, 32, "%s", json ? "null" : "");
	else
		fmt_double(p, x);
	return p;
}

/* The sd the verdicts judge the last estimate by (report_check.h), or
 * NaN: the total, noise and systematic parts (report_total_sd). */
static double
last_sd(const summary *s, int j)
{
	return s->have_sd ? plaus_sd(j, s->last[j], report_total_sd(s->last_sd[j], s->last_sys[j])) : (double)NAN;
}

/* The 95 % interval's half-width of the last estimate, or NaN: the
 * total, the noise's part alone, the systematic part. */
static double
half95(const summary *s, int j)
{
	return 1.96 * last_sd(s, j);
}

static double
half95_noise(const summary *s, int j)
{
	return s->have_sd ? 1.96 * s->last_sd[j] : (double)NAN;
}

static double
half95_sys(const summary *s, int j)
{
	return s->have_sd && s->have_sys ? 1.96 * s->last_sys[j] : (double)NAN;
}

/* How many times the estimates' spread over the run (the IQR as a normal
 * sd, IQR / 1.349) exceeds the last estimate's sd; 0 without an sd. A
 * constant parameter estimated from white noise wanders about as its sd
 * says once the estimate has settled (the IQR includes the early,
 * unsettled estimates, so the ratio is an upper bound); far more is a
 * model that does not hold. */
static double
wander(const summary *s, const stats *st, int j)
{
	double sd = s->have_sd ? s->last_sd[j] : (double)NAN;
	return sd > 0 ? (st->q3 - st->q1) / 1.349 / sd : 0;
}

static void
print_json(FILE *o, const char *name, const summary *s, const stats *st, double spacing, long gaps)
{
	fputs("{\n  \"input\": ", o);
	report_jstr(o, name);
	fputs(",\n  \"method\": ", o);
	report_jstr(o, s->method[0] ? s->method : NULL);
	fprintf(o, ",\n  \"estimates\": %ld,\n  \"physical\": %ld,\n  \"projected\": %ld,\n  \"t_first\": %s,\n"
	    "  \"t_last\": %s,\n  \"spacing_s\": %s", s->n, s->phys.physical, s->phys.projected, rt(s->t0, 1), rt(s->t1, 1),
	    rt(spacing, 1));
	fprintf(o, ",\n  \"gaps\": %ld,\n  \"refused_updates\": ", gaps);
	report_jstr(o, s->refused[0] ? s->refused : NULL);
	fputs(",\n  \"sd_noise\": ", o);
	report_jstr(o, s->have_sd && s->sd_noise[0] ? s->sd_noise : NULL);
	fprintf(o, ",\n  \"parameters\": [\n");
	for (int j = 0; j < s->np; j++) {
		double h = half95(s, j), hn = half95_noise(s, j);
		fprintf(o, "    {\"name\": \"%s\", \"unit\": \"%s\", \"n\": %ld, \"median\": %s, \"q1\": %s, \"q3\": %s, "
		    "\"iqr\": %s, \"first\": %s, \"last\": %s, \"last_sd\": %s, ", tagk_param_names[j],
		    binary_unit(tagk_param_names[j]), s->n, rt(st[j].med, 1), rt(st[j].q1, 1), rt(st[j].q3, 1),
		    rt(st[j].q3 - st[j].q1, 1), rt(st[j].first, 1), rt(st[j].last, 1), rt(s->last_sd[j], 1));
		fprintf(o, "\"last_sd_sys\": %s, \"last_sd_total\": %s, \"last_95\": ", rt(s->last_sys[j], 1),
		    rt(s->have_sd ? report_total_sd(s->last_sd[j], s->last_sys[j]) : (double)NAN, 1));
		if (isnan(h)) fprintf(o, "null"); else fprintf(o, "[%s, %s]", rt(st[j].last - h, 1), rt(st[j].last + h, 1));
		fprintf(o, ", \"last_95_noise\": ");
		if (isnan(hn)) fprintf(o, "null"); else fprintf(o, "[%s, %s]", rt(st[j].last - hn, 1), rt(st[j].last + hn, 1));
		fprintf(o, ", \"determined\": %s, \"not_determined_why\": ", st[j].det ? "false" : "true");
		if (st[j].det) fprintf(o, "\"%s\"}", plaus_why(st[j].det)); else fprintf(o, "null}");
		fprintf(o, "%s\n", j + 1 < s->np ? "," : "");
	}
	fprintf(o, "  ],\n  \"upstream_warnings\": [");
	for (int i = 0; i < s->nwarn; i++) {
		fprintf(o, "%s\n    ", i ? "," : "");
		report_jstr(o, s->warn[i]);
	}
	fprintf(o, "%s]\n}\n", s->nwarn ? "\n  " : "");
}

static void
print_csv(FILE *o, const summary *s, const stats *st)
{
	fprintf(o, "param,unit,n,median,q1,q3,iqr,first,last,last_sd,last_lo95,last_hi95,physical,last_sd_sys,"
	    "last_lo95_noise,last_hi95_noise,determined\n");
	for (int j = 0; j < s->np; j++) {
		double h = half95(s, j), hn = half95_noise(s, j);
		/* rt has eight buffers: at most eight uses per printf */
		fprintf(o, "%s,%s,%ld,%s,%s,%s,%s,%s,", tagk_param_names[j], binary_unit(tagk_param_names[j]),
		    s->n, rt(st[j].med, 0), rt(st[j].q1, 0), rt(st[j].q3, 0), rt(st[j].q3 - st[j].q1, 0), rt(st[j].first, 0));
		fprintf(o, "%s,%s,%s,%s,%ld,", rt(st[j].last, 0), rt(s->last_sd[j], 0), rt(st[j].last - h, 0),
		    rt(st[j].last + h, 0), s->phys.physical);
		fprintf(o, "%s,%s,%s,%d\n", rt(s->last_sys[j], 0), rt(st[j].last - hn, 0), rt(st[j].last + hn, 0),
		    st[j].det == PLAUS_DETERMINED);
	}
}

/* 1 if plaus_check judges the whole body by these parameters. */
static int
plaus_body_judged(int np, const stats *st)
{
	int det[TAGK_NPARAM];
	for (int j = 0; j < np; j++)
		det[j] = st[j].det;
	return plaus_judgeable(np, det) == 2;
}

/* Under the table: the parameters not determined, one line per reason,
 * and what the physical-consistency verdict then judges. */
static void
not_determined_lines(FILE *o, const char *h, const summary *s, const stats *st)
{
	int any = 0;
	for (int why = PLAUS_UNEXCITED; why <= PLAUS_WANDERS; why++) {
		char list[128] = "";
		size_t k = 0;
		for (int j = 0; j < s->np && k < sizeof(list); j++)
			if (st[j].det == why)
				k += (size_t)snprintf(list + k, sizeof(list) - k, "%s%s", k ? ", " : "", tagk_param_names[j]);
		if (k)
			fprintf(o, "%snot determined, %s: %s\n", h, plaus_why(why), list), any = 1;
	}
	if (any && s->np > 1)
		fprintf(o, "%sthe verdicts judge the determined parameters only: %s\n", h, st[0].det ?
		    "not the body, whose mass is not determined" : plaus_body_judged(s->np, st) ?
		    "the body (its mass and moments of inertia are determined; the rest is near zero)" :
		    "whether the body is physical, by its mass alone");
}

/* The last estimate's 95 % interval as text into iv: "40.5 +- 2.1 g", and
 * with a systematic part "(95 %: noise +- 0.05, thrust map +- 2.0)";
 * "not determined: " before it when the data do not determine it. */
static void
interval_text(char *iv, size_t len, const summary *s, const stats *st, int j)
{
	double hw = half95(s, j), hn = half95_noise(s, j), hs = half95_sys(s, j);
	const char *unit = binary_unit(tagk_param_names[j]), *nd = st[j].det ? "not determined: " : "";
	if (isnan(hw))
		snprintf(iv, len, "%s", st[j].det ? "not determined (no sd)" : "n/a (no sd)");
	else if (isnan(hs))
		snprintf(iv, len, "%s%.5g +- %.2g %s", nd, st[j].last, hw, unit);
	else
		snprintf(iv, len, "%s%.5g +- %.2g %s (95 %%: noise +- %.2g, %s +- %.2g)", nd, st[j].last, hw, unit, hn,
		    s->sys_of, hs);
}

static const char *
noise_form(const summary *s)
{
	return report_noise_form(s->sd_noise);
}

/* Under the table: what the interval is, and the parameters that wander. */
static void
footnotes(FILE *o, const char *h, const summary *s, const stats *st)
{
	if (s->have_sd && s->have_sys)
		fprintf(o, "\n%sthe interval is the last estimate +- 1.96 sd, the sd the noise's part (%s) and the stated "
		    "relative sd of the %s times the estimate, in quadrature; a bias the stated sd does not cover is not "
		    "in it\n", h, noise_form(s), s->sys_of);
	else if (s->have_sd)
		fprintf(o, "\n%sthe interval is the last estimate +- 1.96 sd (the noise's part, %s; a bias of the model, "
		    "as %s, is not in it%s)\n", h, noise_form(s), s->arm ? "an error of the robot's "
		    "description or friction" : "commanded thrust that is not thrust", s->arm ? ": tagk-regress --scale-sd "
		    "states the efforts' scale error" : ": tagk-regress --scale-sd or a vehicle file's thrust_map_sd / "
		    "command_sd states it");
	not_determined_lines(o, h, s, st);
	if (s->nchg) {
		/* the estimates before and after a change are of different bodies:
		 * their spread is not the model failing to hold */
		fprintf(o, "%sthe stream reports %ld change%s (tagk-estimate --detect), at", h, s->nchg, s->nchg == 1 ? "" : "s");
		for (long i = 0; i < s->nchg && i < 4; i++)
			fprintf(o, "%s %.4g s", i ? "," : "", s->chg_t[i]);
		fprintf(o, "%s: the quartiles mix the bodies before and after; the last estimate is the body after the "
		    "last change\n", s->nchg > 4 ? ", ..." : "");
		return;
	}
	for (int j = 0; j < s->np; j++) {
		double w = wander(s, &st[j], j);
		/* the stated systematic part may already be wider than the spread:
		 * then the interval holds the quartiles, and telling the reader to
		 * distrust it contradicts the table */
		int held = s->have_sys && half95(s, j) / 1.96 >= (st[j].q3 - st[j].q1) / 1.349;
		if (w > WANDER)
			fprintf(o, "%s%s wanders over the run %s times more than its %ssd says (IQR / 1.35 against the "
			    "last %ssd): the model does not hold steadily (%s); %s\n", h, tagk_param_names[j], cli_approx(w),
			    s->have_sys ? "noise's " : "", s->have_sys ? "noise " : "", s->arm ? "friction not modelled, "
			    "derived accelerations, a payload that moves in the grip" : "battery sag, a thrust map, drag, "
			    "a payload that moves", held ? "its interval, with the stated systematic part, is wider than "
			    "that spread" : "read the quartiles, not the interval");
	}
}

static void
print_text(FILE *o, int md, const char *name, const summary *s, const stats *st, double spacing, long gaps)
{
	const char *h = md ? "" : "# ";
	char span[96];
	fprintf(o, "%s%s: %ld estimate%s%s%s, t %s, no truth: a summary\n", h, name, s->n, s->n == 1 ? "" : "s",
	    s->method[0] ? " of " : "", s->method, cli_span(span, sizeof(span), s->t0, s->t1));
	if (s->n > 1)
		fprintf(o, "%sspacing %.4g s (median); %ld gap%s longer than 1.5 times that (refused updates "
		    "or skipped samples)\n", h, spacing, gaps, gaps == 1 ? "" : "s");
	if (s->refused[0])
		fprintf(o, "%s%s updates refused by tagk-estimate (the stream's note)\n", h, s->refused);
	if (s->hover[0])
		fprintf(o, "%sPX4's hover thrust estimate implies m = %.4g kg through the same thrust model (the "
		    "stream's note), beside m below\n", h, atof(s->hover));
	plaus_count_print(o, h, &s->phys, s->n);
	if (s->nwarn)
		fprintf(o, "%swarnings of the commands upstream (the stream carries them; --strict fails on them):\n", h);
	for (int i = 0; i < s->nwarn; i++)
		fprintf(o, "%s  %s\n", h, s->warn[i]);
	fprintf(o, "\n");
	if (md)
		fprintf(o, "| param | n | median | q1 | q3 | IQR | first | last | last, 95 %% |\n"
		    "|---|--:|--:|--:|--:|--:|--:|--:|--:|\n");
	else
		fprintf(o, "%-6s %7s %12s %12s %12s %12s %12s %12s  %s\n", "param", "n", "median", "q1", "q3", "iqr", "first",
		    "last", "last, 95 % interval");
	for (int j = 0; j < s->np; j++) {
		char iv[208];
		interval_text(iv, sizeof(iv), s, st, j);
		if (md)
			fprintf(o, "| %s | %ld | %.6g | %.6g | %.6g | %.4g | %.6g | %.6g | %s |\n", tagk_param_names[j], s->n,
			    st[j].med, st[j].q1, st[j].q3, st[j].q3 - st[j].q1, st[j].first, st[j].last, iv);
		else
			fprintf(o, "%-6s %7ld %12.6g %12.6g %12.6g %12.4g %12.6g %12.6g  %s\n", tagk_param_names[j], s->n,
			    st[j].med, st[j].q1, st[j].q3, st[j].q3 - st[j].q1, st[j].first, st[j].last, iv);
	}
	footnotes(o, h, s, st);
}

/* The rows as verdicts walk them: the mass's fences (the run's bulk), and
 * what was found. */
typedef struct {
	const summary *s;
	plaus *p;
	const char *name;
	double nominal;    /* kg, NaN when unknown */
	double lo, hi;     /* m outside [lo, hi]: out of the run's bulk */
	double t_out;      /* the time the estimates last left the bulk, NaN while inside */
	double m_out;      /* the estimate then */
} walk;

static void
walk_rows(void *ctx, const double *rows, long n)
{
	walk *w = ctx;
	const int np = w->s->np;
	for (long i = 0; i < n; i++) {
		const double *v = rows + i * (np + 3);
		double m = v[0], t = v[np + 1];
		int out = m < w->lo || m > w->hi;
		if (out && isnan(w->t_out))
			w->t_out = t, w->m_out = m;
		else if (!out)
			w->t_out = (double)NAN;
		if (w->s->segments) {
			char what[96];
			snprintf(what, sizeof(what), "segment ending at t = %.6g s, its", t);
			plaus_nominal(w->p, w->nominal, w->name, what, m, plaus_sd(0, m, v[np + 2]));
		}
	}
}

/* The last estimate against the run: outside Tukey's far fences of the
 * mass (quartiles -+ 3 IQR) and its own interval away from the median,
 * it has left the run (a spin-down or landing at the end of the log, a
 * lost grasp); named with the time the estimates left, and the fix.
 * Then the nominal mass against the median, the last estimate and each
 * segment (a stream of batch segments). */
static void
verdicts(plaus *p, const char *name, const summary *s, const stats *st)
{
	double iqr = st[0].q3 - st[0].q1, sd = last_sd(s, 0);
	double nominal = isnan(p->nominal) ? s->nominal_note : p->nominal;
	walk w = { s, p, name, nominal, st[0].q1 - 3 * iqr, st[0].q3 + 3 * iqr, (double)NAN, (double)NAN };
	for (int i = 0; i < s->nwarn; i++) {
		p->warnings++;
		cli_warn("%s: upstream, %s", name, s->warn[i]);
	}
	qs_each(s->q, walk_rows, &w);
	int left = s->n >= 8 && !s->segments && !isnan(w.t_out) && !(fabs(st[0].last - st[0].med) <= 1.96 * sd);
	if (left) {
		p->warnings++;
		cli_warn("%s: the last mass estimate, %.4g kg at t = %.6g s, has left the run: from t = %.6g s (%.4g kg) "
		    "on, the estimates lie outside the run's bulk (median %.4g kg, quartiles %.4g to %.4g): a rotor "
		    "spin-down or a landing at the end of the log, or a lost grasp; tagk-regress --airborne keeps the "
		    "flight only (or cut the log before it: tagk-filter --to T)", name, st[0].last, s->t1, w.t_out, w.m_out,
		    st[0].med, st[0].q1, st[0].q3);
	}
	if (st[0].det && !s->segments) {
		/* the answer itself: a mass the data do not determine is no answer */
		p->warnings++;
		cli_warn("%s: the mass is not determined: %s (last %.4g kg, quartiles %.4g to %.4g)", name,
		    plaus_why(st[0].det), st[0].last, st[0].q1, st[0].q3);
	}
	if (s->segments || st[0].det)
		return; /* each segment judged above; a mass not determined is not judged */
	/* the median by the run's median sd: the last sd may be a spin-down's.
	 * Neither is taken narrower than the run's spread (IQR as a normal
	 * sd): a run that wanders more than its sd says is read by its
	 * quartiles, as the report says under the table */
	double msd = (double)NAN, half = 0.5, spread = iqr / 1.349;
	if (s->have_sd)
		qs_quantiles(s->q, s->np + 2, &half, 1, &msd);
	plaus_nominal(p, nominal, name, "median", st[0].med, fmax(plaus_sd(0, st[0].med, msd), spread));
	if (s->n > 1 && !left)
		plaus_nominal(p, nominal, name, "last", st[0].last, fmax(sd, spread));
}

void
summary_print(FILE *o, enum report_fmt fmt, const char *name, const summary *s, plaus *p)
{
	const long n = s->n;
	static const double qv[3] = { 0.5, 0.25, 0.75 };
	stats st[TAGK_NPARAM];
	double med[TAGK_NPARAM];
	int det[TAGK_NPARAM];
	for (int j = 0; j < s->np; j++) {
		double x[3];
		qs_quantiles(s->q, j, qv, 3, x);
		st[j] = (stats){ x[0], x[1], x[2], s->first[j], s->last[j], 0 };
		st[j].det = plaus_determined(s->last[j], last_sd(s, j), x[0], x[2] - x[1], s->unexcited[j]);
		med[j] = x[0];
		det[j] = st[j].det;
	}
	/* spacing of the estimates and the gaps in it */
	double spacing = (double)NAN;
	long gaps = 0;
	if (n > 1) {
		qs_quantiles(s->q, s->np, qv, 1, &spacing);
		gaps = qs_count_above(s->q, s->np, 1.5 * spacing);
	}
	if (fmt == F_JSON)
		print_json(o, name, s, st, spacing, gaps);
	else if (fmt == F_CSV)
		print_csv(o, s, st);
	else
		print_text(o, fmt == F_MD, name, s, st, spacing, gaps);
	/* a check that passes is silent on stderr: say that it was made */
	double nominal = isnan(p->nominal) ? s->nominal_note : p->nominal;
	if ((fmt == F_TEXT || fmt == F_MD) && !isnan(nominal) && !st[0].det && !s->segments)
		fprintf(o, "%sthe mass judged against the vehicle's nominal %.4g kg (%s): the median and the last "
		    "estimate, a warning on stderr for one beyond its 95 %% interval\n", fmt == F_MD ? "" : "# ", nominal,
		    isnan(p->nominal) ? "the stream's note nominal_mass" : "--nominal-mass or --vehicle");
	plaus_check(p, name, "median", s->np, med, s->phys.physical, n, det);
	verdicts(p, name, s, st);
}

void
summary_free(summary *s)
{
	free(s->warn);
	qs_free(s->q);
	free(s);
}
