/* report_changes.c: the changes of a --segment auto stream; see
 * report_changes.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report_changes.h"
#include "report_interval.h"
#include "cli.h"
#include "../formats/binary.h"
#include "../formats/sink.h"
#include "../lib/tagk.h"

enum { MAX_SEG = 1025 };

typedef struct {
	double t0, t1, lo, hi, rate, rate_sd;
	double th[TAGK_NPARAM], sd[TAGK_NPARAM];
} seg;

int
report_has_changes(tbl_reader *r)
{
	return tbl_find(r, "t_start") >= 0 && tbl_find(r, "t_start_lo") >= 0 && tbl_find(r, "t_start_hi") >= 0;
}

static int
col(tbl_reader *r, const char *name)
{
	int c = tbl_find(r, name);
	if (c >= 0)
		tbl_want_nullable(r, c); /* the first segment's interval, a constant's rate, a missing sd */
	return c;
}

/* The segments of r into s (at most MAX_SEG); returns their number. */
static long
read_segments(tbl_reader *r, int np, const int *ip, seg *s)
{
	int c[6], isd[TAGK_NPARAM];
	static const char *const names[6] = { "t_start", "t_end", "t_start_lo", "t_start_hi", "dm_dt", "sd_dm_dt" };
	for (int k = 0; k < 6; k++)
		c[k] = col(r, names[k]);
	for (int j = 0; j < np; j++) {
		char nm[40];
		snprintf(nm, sizeof(nm), "sd_%s", tagk_param_names[j]);
		isd[j] = col(r, nm);
		tbl_want(r, ip[j]);
	}
	/* the systematic part, when the stream has it: each segment's sd is
	 * the total (report_interval.h) */
	int isys[TAGK_NPARAM], have_sys = report_sys_columns(r, np, isys);
	double *row = malloc((size_t)tbl_ncols(r) * sizeof(double));
	if (!row)
		cli_die(EXIT_DATA, "out of memory");
	long n = 0;
	int rc;
	while ((rc = tbl_next(r, row)) == 1) {
		if (n == MAX_SEG)
			cli_die(EXIT_DATA, "%s: more than %d segments", tbl_name(r), MAX_SEG);
		double *v = &s[n].t0;
		for (int k = 0; k < 6; k++)
			v[k] = c[k] >= 0 ? row[c[k]] : (double)NAN;
		for (int j = 0; j < np; j++) {
			s[n].th[j] = row[ip[j]];
			s[n].sd[j] = isd[j] >= 0 ? report_total_sd(row[isd[j]], have_sys ? row[isys[j]] : (double)NAN)
			    : (double)NAN;
		}
		n++;
	}
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	if (n == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(r));
	free(row);
	return n;
}

/* "v +- 1.96 sd unit", or "v unit" without an sd. */
static const char *
iv(char *buf, size_t len, double v, double sd, const char *unit)
{
	if (sd == sd)
		snprintf(buf, len, "%.6g +- %.2g %s", v, 1.96 * sd, unit);
	else
		snprintf(buf, len, "%.6g %s", v, unit);
	return buf;
}

static void
print_text(FILE *o, const char *name, const seg *s, long n, int np)
{
	fprintf(o, "# %s: %ld segment%s, %ld change%s (tagk-estimate --segment auto); intervals 95 %%\n", name, n,
	    n == 1 ? "" : "s", n - 1, n == 2 ? "" : "s");
	for (long k = 0; k < n; k++) {
		char a[64], b[64];
		if (k) {
			fprintf(o, "\nchange %ld at t = %.6g s (%.6g to %.6g s)\n", k, s[k].t0, s[k].lo, s[k].hi);
			for (int j = 0; j < np; j++) {
				const char *u = binary_unit(tagk_param_names[j]);
				fprintf(o, "  %-4s %28s  ->  %s\n", tagk_param_names[j],
				    iv(a, sizeof(a), s[k - 1].th[j], s[k - 1].sd[j], u), iv(b, sizeof(b), s[k].th[j], s[k].sd[j], u));
			}
		}
		if (s[k].rate == s[k].rate)
			fprintf(o, "%ssegment %ld (%.6g to %.6g s): a drift, dm/dt = %s/s\n", k ? "" : "\n", k + 1, s[k].t0,
			    s[k].t1, iv(a, sizeof(a), s[k].rate, s[k].rate_sd, "kg"));
	}
	if (n == 1) {
		char a[64];
		fprintf(o, "\nno change from %.6g to %.6g s: m = %s\n", s[0].t0, s[0].t1,
		    iv(a, sizeof(a), s[0].th[0], s[0].sd[0], "kg"));
	}
}

static void
print_csv(FILE *o, const seg *s, long n, int np)
{
	fprintf(o, "change,t,t_lo,t_hi,param,unit,before,before_sd,after,after_sd\n");
	for (long k = 1; k < n; k++)
		for (int j = 0; j < np; j++)
			fprintf(o, "%ld,%.17g,%.17g,%.17g,%s,%s,%.17g,%.17g,%.17g,%.17g\n", k, s[k].t0, s[k].lo, s[k].hi,
			    tagk_param_names[j], binary_unit(tagk_param_names[j]), s[k - 1].th[j], s[k - 1].sd[j], s[k].th[j],
			    s[k].sd[j]);
}

void
report_changes(tbl_reader *r, int np, const int *ip, FILE *o, enum report_fmt fmt, plaus *p)
{
	static seg s[MAX_SEG];
	if (np > TAGK_NPARAM)
		cli_die(EXIT_DATA, "%s: the change table takes one body's parameters", tbl_name(r));
	long n = read_segments(r, np, ip, s);
	if (fmt == F_CSV)
		print_csv(o, s, n, np);
	else
		print_text(o, tbl_name(r), s, n, np);
	double nominal = plaus_nominal_of(p, r);
	for (long k = 0; k < n; k++) {
		char what[96];
		snprintf(what, sizeof(what), "segment from t = %.6g to %.6g s, its", s[k].t0, s[k].t1);
		plaus_nominal(p, nominal, tbl_name(r), what, s[k].th[0], plaus_sd(0, s[k].th[0], s[k].sd[0]));
	}
	plaus_upstream(p, tbl_name(r), r);
}
