/* report_summary.c: the truthless summary of tagk-report; see report_summary.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report_summary.h"
#include "quantile.h"
#include "cli.h"
#include "../formats/sink.h"
#include "../lib/tagk.h"

struct summary {
	char refused[64];  /* the stream's refused_updates note, or "" */
	int np;
	long n;
	double t0, t1;     /* the first and last time */
	double first[TAGK_NPARAM], last[TAGK_NPARAM];
	qspool *q;         /* per row: the np values, then the spacing to the previous row */
};

summary *
summary_read(tbl_reader *r, int it, int np, const int *ip)
{
	summary *s = calloc(1, sizeof(*s));
	double *row = malloc((size_t)tbl_ncols(r) * sizeof(double));
	if (!s || !row)
		cli_die(EXIT_DATA, "out of memory");
	s->np = np;
	s->q = qs_new(np + 1);
	int rc;
	double v[TAGK_NPARAM + 1];
	while ((rc = tbl_next(r, row)) == 1) {
		double t = row[it];
		if (s->n > 0 && !(t > s->t1)) {
			char a[32], b[32];
			fmt_double(a, t);
			fmt_double(b, s->t1);
			cli_die(EXIT_DATA, "%s: time %s does not increase (previous %s)", tbl_where(r), a, b);
		}
		for (int j = 0; j < np; j++)
			v[j] = s->last[j] = row[ip[j]];
		v[np] = s->n ? t - s->t1 : (double)NAN;
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
	free(row);
	return s;
}

typedef struct {
	double med, q1, q3, first, last;
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

void
summary_print(FILE *o, enum report_fmt fmt, const char *name, const summary *s)
{
	const long n = s->n;
	static const double qv[3] = { 0.5, 0.25, 0.75 };
	stats st[TAGK_NPARAM];
	for (int j = 0; j < s->np; j++) {
		double x[3];
		qs_quantiles(s->q, j, qv, 3, x);
		st[j] = (stats){ x[0], x[1], x[2], s->first[j], s->last[j] };
	}
	/* spacing of the estimates and the gaps in it */
	double spacing = (double)NAN;
	long gaps = 0;
	if (n > 1) {
		qs_quantiles(s->q, s->np, qv, 1, &spacing);
		gaps = qs_count_above(s->q, s->np, 1.5 * spacing);
	}
	const double t0 = s->t0, t1 = s->t1;
	if (fmt == F_JSON) {
		fprintf(o, "{\n  \"input\": \"%s\",\n  \"estimates\": %ld,\n  \"t_first\": %s,\n"
		    "  \"t_last\": %s,\n  \"spacing_s\": %s", name, n, rt(t0, 1), rt(t1, 1), rt(spacing, 1));
		fprintf(o, ",\n  \"gaps\": %ld,\n  \"refused_updates\": ", gaps);
		if (s->refused[0]) fprintf(o, "\"%s\"", s->refused); else fprintf(o, "null");
		fprintf(o, ",\n  \"parameters\": [\n");
		for (int j = 0; j < s->np; j++)
			fprintf(o, "    {\"name\": \"%s\", \"n\": %ld, \"median\": %s, \"q1\": %s, \"q3\": %s, "
			    "\"iqr\": %s, \"first\": %s, \"last\": %s}%s\n", tagk_param_names[j], n, rt(st[j].med, 1),
			    rt(st[j].q1, 1), rt(st[j].q3, 1), rt(st[j].q3 - st[j].q1, 1), rt(st[j].first, 1),
			    rt(st[j].last, 1), j + 1 < s->np ? "," : "");
		fprintf(o, "  ]\n}\n");
		return;
	}
	if (fmt == F_CSV) {
		fprintf(o, "param,n,median,q1,q3,iqr,first,last\n");
		for (int j = 0; j < s->np; j++)
			fprintf(o, "%s,%ld,%s,%s,%s,%s,%s,%s\n", tagk_param_names[j], n, rt(st[j].med, 0), rt(st[j].q1, 0),
			    rt(st[j].q3, 0), rt(st[j].q3 - st[j].q1, 0), rt(st[j].first, 0), rt(st[j].last, 0));
		return;
	}
	int md = fmt == F_MD;
	fprintf(o, "%s%s: %ld estimates, t %.6g to %.6g s, no truth: a summary\n", md ? "" : "# ", name, n, t0, t1);
	if (n > 1)
		fprintf(o, "%sspacing %.4g s (median); %ld gap%s longer than 1.5 times that (refused updates "
		    "or skipped samples)\n", md ? "" : "# ", spacing, gaps, gaps == 1 ? "" : "s");
	if (s->refused[0])
		fprintf(o, "%s%s updates refused by tagk-estimate (the stream's note)\n", md ? "" : "# ", s->refused);
	fprintf(o, "\n");
	if (md)
		fprintf(o, "| param | n | median | q1 | q3 | IQR | first | last |\n|---|--:|--:|--:|--:|--:|--:|--:|\n");
	else
		fprintf(o, "%-6s %7s %12s %12s %12s %12s %12s %12s\n", "param", "n", "median", "q1", "q3", "iqr",
		    "first", "last");
	for (int j = 0; j < s->np; j++) {
		if (md)
			fprintf(o, "| %s | %ld | %.6g | %.6g | %.6g | %.4g | %.6g | %.6g |\n", tagk_param_names[j], n,
			    st[j].med, st[j].q1, st[j].q3, st[j].q3 - st[j].q1, st[j].first, st[j].last);
		else
			fprintf(o, "%-6s %7ld %12.6g %12.6g %12.6g %12.4g %12.6g %12.6g\n", tagk_param_names[j], n,
			    st[j].med, st[j].q1, st[j].q3, st[j].q3 - st[j].q1, st[j].first, st[j].last);
	}
}

void
summary_free(summary *s)
{
	qs_free(s->q);
	free(s);
}
