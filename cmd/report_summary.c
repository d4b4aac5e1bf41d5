/* report_summary.c: the truthless summary of tagk-report; see report_summary.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report_summary.h"
#include "cli.h"
#include "../formats/sink.h"
#include "../lib/tagk.h"

struct summary {
	char refused[64];  /* the stream's refused_updates note, or "" */
	int np;
	long n, cap;
	double *t;
	double *v[TAGK_NPARAM];
};

static void
grow(summary *s)
{
	long cap = s->cap ? 2 * s->cap : 1024;
	double *t = realloc(s->t, (size_t)cap * sizeof(double));
	if (!t)
		cli_die(EXIT_DATA, "out of memory");
	s->t = t;
	for (int j = 0; j < s->np; j++) {
		double *v = realloc(s->v[j], (size_t)cap * sizeof(double));
		if (!v)
			cli_die(EXIT_DATA, "out of memory");
		s->v[j] = v;
	}
	s->cap = cap;
}

summary *
summary_read(tbl_reader *r, int it, int np, const int *ip)
{
	summary *s = calloc(1, sizeof(*s));
	double *row = malloc((size_t)tbl_ncols(r) * sizeof(double));
	if (!s || !row)
		cli_die(EXIT_DATA, "out of memory");
	s->np = np;
	int rc;
	while ((rc = tbl_next(r, row)) == 1) {
		if (s->n == s->cap)
			grow(s);
		if (s->n > 0 && !(row[it] > s->t[s->n - 1])) {
			char a[32], b[32];
			fmt_double(a, row[it]);
			fmt_double(b, s->t[s->n - 1]);
			cli_die(EXIT_DATA, "%s: time %s does not increase (previous %s)", tbl_where(r), a, b);
		}
		s->t[s->n] = row[it];
		for (int j = 0; j < np; j++)
			s->v[j][s->n] = row[ip[j]];
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

/* The q-quantile of sorted x[0..n-1], linear between order statistics. */
static double
quantile(const double *x, long n, double q)
{
	double h = q * (double)(n - 1);
	long lo = (long)floor(h);
	if (lo >= n - 1)
		return x[n - 1];
	return x[lo] + (h - (double)lo) * (x[lo + 1] - x[lo]);
}

typedef struct {
	double med, q1, q3, first, last;
} stats;

void
summary_print(FILE *o, enum report_fmt fmt, const char *name, const summary *s)
{
	const long n = s->n;
	double *x = malloc((size_t)(n > 1 ? n : 1) * sizeof(double));
	if (!x)
		cli_die(EXIT_DATA, "out of memory");
	stats st[TAGK_NPARAM];
	for (int j = 0; j < s->np; j++) {
		memcpy(x, s->v[j], (size_t)n * sizeof(double));
		qsort(x, (size_t)n, sizeof(double), cli_cmp_double);
		st[j] = (stats){ quantile(x, n, 0.5), quantile(x, n, 0.25), quantile(x, n, 0.75), s->v[j][0],
			s->v[j][n - 1] };
	}
	/* spacing of the estimates and the gaps in it */
	double spacing = (double)NAN;
	long gaps = 0;
	if (n > 1) {
		for (long i = 1; i < n; i++)
			x[i - 1] = s->t[i] - s->t[i - 1];
		qsort(x, (size_t)(n - 1), sizeof(double), cli_cmp_double);
		spacing = quantile(x, n - 1, 0.5);
		for (long i = 1; i < n; i++)
			gaps += s->t[i] - s->t[i - 1] > 1.5 * spacing;
	}
	free(x);
	const double t0 = s->t[0], t1 = s->t[n - 1];
	if (fmt == F_JSON) {
		fprintf(o, "{\n  \"input\": \"%s\",\n  \"estimates\": %ld,\n  \"t_first\": %.10g,\n"
		    "  \"t_last\": %.10g,\n  \"spacing_s\": ", name, n, t0, t1);
		if (isnan(spacing)) fprintf(o, "null"); else fprintf(o, "%.10g", spacing);
		fprintf(o, ",\n  \"gaps\": %ld,\n  \"refused_updates\": ", gaps);
		if (s->refused[0]) fprintf(o, "\"%s\"", s->refused); else fprintf(o, "null");
		fprintf(o, ",\n  \"parameters\": [\n");
		for (int j = 0; j < s->np; j++)
			fprintf(o, "    {\"name\": \"%s\", \"n\": %ld, \"median\": %.10g, \"q1\": %.10g, \"q3\": %.10g, "
			    "\"iqr\": %.10g, \"first\": %.10g, \"last\": %.10g}%s\n", tagk_param_names[j], n, st[j].med,
			    st[j].q1, st[j].q3, st[j].q3 - st[j].q1, st[j].first, st[j].last, j + 1 < s->np ? "," : "");
		fprintf(o, "  ]\n}\n");
		return;
	}
	if (fmt == F_CSV) {
		fprintf(o, "param,n,median,q1,q3,iqr,first,last\n");
		for (int j = 0; j < s->np; j++)
			fprintf(o, "%s,%ld,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n", tagk_param_names[j], n, st[j].med,
			    st[j].q1, st[j].q3, st[j].q3 - st[j].q1, st[j].first, st[j].last);
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
	free(s->t);
	for (int j = 0; j < s->np; j++)
		free(s->v[j]);
	free(s);
}
