/* report_params.c: tagk-report on a stream of named parameters; see
 * report_params.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report_params.h"
#include "cli.h"
#include "report_json.h"
#include "report_interval.h"
#include "../formats/sink.h"

enum { NAME = 64 };

typedef struct {
	int np, have_true;
	int have_sd;            /* the last row has an sd */
	long n;                 /* estimate rows read */
	double t;               /* the last row's time */
	int *iv, *isd, *itrue;  /* columns of each parameter, its sd and truth */
	double *v, *sd, *tru;   /* the last row's */
} params;

/* Column i names a parameter: not t, not sd_ or true_ itself, and its
 * sd_<name> is in the stream. */
static int
param_col(const tbl_reader *r, int i)
{
	const char *c = tbl_col(r, i);
	char sd[NAME + 4];
	if (strcmp(c, "t") == 0 || strncmp(c, "sd_", 3) == 0 || strncmp(c, "true_", 5) == 0 || strlen(c) >= NAME)
		return 0;
	snprintf(sd, sizeof(sd), "sd_%s", c);
	return tbl_find(r, sd) >= 0;
}

int
report_is_params(const tbl_reader *r)
{
	if (tbl_find(r, "t") < 0 || tbl_find(r, "m") >= 0)
		return 0;
	for (int i = 0; i < tbl_ncols(r); i++)
		if (param_col(r, i))
			return 1;
	return 0;
}

static void *
need(size_t n)
{
	void *p = calloc(n ? n : 1, 1);
	if (!p)
		cli_die(EXIT_DATA, "out of memory");
	return p;
}

/* The columns of every parameter, wanted; truth only when every parameter
 * has its true_ column (some but not all is refused, as for one body). */
static void
params_cols(tbl_reader *r, params *P)
{
	int nc = tbl_ncols(r), ntrue = 0;
	P->iv = need((size_t)nc * sizeof(int));
	P->isd = need((size_t)nc * sizeof(int));
	P->itrue = need((size_t)nc * sizeof(int));
	for (int i = 0; i < nc; i++) {
		if (!param_col(r, i))
			continue;
		char nm[NAME + 8];
		P->iv[P->np] = i;
		snprintf(nm, sizeof(nm), "sd_%s", tbl_col(r, i));
		P->isd[P->np] = tbl_find(r, nm);
		snprintf(nm, sizeof(nm), "true_%s", tbl_col(r, i));
		ntrue += (P->itrue[P->np] = tbl_find(r, nm)) >= 0;
		tbl_want(r, i);
		tbl_want_nullable(r, P->isd[P->np]);
		P->np++;
	}
	if (ntrue && ntrue != P->np)
		cli_die(EXIT_DATA, "%s: true_ columns for %d of the %d parameters: give all or none", tbl_name(r), ntrue,
		    P->np);
	P->have_true = ntrue > 0;
	for (int j = 0; P->have_true && j < P->np; j++)
		tbl_want(r, P->itrue[j]);
	tbl_want(r, tbl_find(r, "t"));
}

/* Every row, the last one kept: a batch stream has one estimate per
 * segment, and the last is the answer. */
static void
params_read(tbl_reader *r, params *P)
{
	params_cols(r, P);
	int it = tbl_find(r, "t"), rc;
	double *row = need((size_t)tbl_ncols(r) * sizeof(double));
	P->v = need((size_t)P->np * sizeof(double));
	P->sd = need((size_t)P->np * sizeof(double));
	P->tru = need((size_t)P->np * sizeof(double));
	while ((rc = tbl_next(r, row)) == 1) {
		P->n++;
		P->t = row[it];
		for (int j = 0; j < P->np; j++) {
			P->v[j] = row[P->iv[j]];
			P->sd[j] = report_sd_cell(r, P->isd[j], row[P->isd[j]]);
			P->tru[j] = P->have_true ? row[P->itrue[j]] : (double)NAN;
		}
	}
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	if (P->n == 0)
		cli_die(EXIT_DATA, "%s: no estimate rows", tbl_name(r));
	free(row);
}

/* Not determined: the 95 % interval reaches zero (or there is no sd). */
static int
determined(double v, double sd)
{
	return isfinite(sd) && 1.96 * sd < fabs(v);
}

static int
holds(double v, double sd, double truth)
{
	return isfinite(sd) && fabs(truth - v) <= 1.96 * sd;
}

/* Text (or Markdown) rows; text rows are built in a line and their
 * trailing blanks cut. */
static void
print_table(FILE *o, enum report_fmt fmt, const tbl_reader *r, const params *P)
{
	int md = fmt == F_MD;
	if (md)
		fprintf(o, "| param | estimate | 95 %% +- | |%s\n|---|---|---|---|%s\n",
		    P->have_true ? " truth | error / sd | |" : "", P->have_true ? "---|---|---|" : "");
	else if (P->have_true)
		fprintf(o, "%-14s %14s  %-9s %-14s %14s  %6s\n", "param", "estimate", "95 % +-", "", "truth", "err/sd");
	else
		fprintf(o, "%-14s %14s  %s\n", "param", "estimate", "95 % +-");
	for (int j = 0; j < P->np; j++) {
		const char *nm = tbl_col(r, P->iv[j]), *det = determined(P->v[j], P->sd[j]) ? "" : "not determined";
		char line[256], tail[96] = "";
		if (P->have_true)
			snprintf(tail, sizeof(tail), md ? " %.6g | %.2f | %s |" : " %14.6g  %6.2f %s", P->tru[j],
			    (P->v[j] - P->tru[j]) / P->sd[j], holds(P->v[j], P->sd[j], P->tru[j]) ? "" : "outside");
		snprintf(line, sizeof(line), md ? "| %s | %.6g | %.2g | %s |%s" : "%-14s %14.6g  %-9.2g %-14s%s", nm,
		    P->v[j], 1.96 * P->sd[j], det, tail);
		size_t n = strlen(line);
		while (n && line[n - 1] == ' ')
			line[--n] = 0;
		fprintf(o, "%s\n", line);
	}
}

static void
print_csv(FILE *o, const tbl_reader *r, const params *P)
{
	fprintf(o, "param,estimate,sd,lo95,hi95,determined%s\n", P->have_true ? ",truth,in95" : "");
	for (int j = 0; j < P->np; j++) {
		char a[32], b[32], c[32], d[32], e[32];
		fmt_double(a, P->v[j]);
		fmt_double(b, P->sd[j]);
		fmt_double(c, P->v[j] - 1.96 * P->sd[j]);
		fmt_double(d, P->v[j] + 1.96 * P->sd[j]);
		fprintf(o, "%s,%s,%s,%s,%s,%d", tbl_col(r, P->iv[j]), a, b, c, d, determined(P->v[j], P->sd[j]));
		if (P->have_true) {
			fmt_double(e, P->tru[j]);
			fprintf(o, ",%s,%d", e, holds(P->v[j], P->sd[j], P->tru[j]));
		}
		fprintf(o, "\n");
	}
}

/* x for JSON: the fewest digits that read back, or null. */
static const char *
jnum(char *buf, double x)
{
	if (!isfinite(x))
		return strcpy(buf, "null");
	fmt_double(buf, x);
	return buf;
}

static void
print_json(FILE *o, const tbl_reader *r, const params *P, int undetermined, int in, int ni)
{
	char t[32];
	fputs("{\"input\": ", o);
	report_jstr(o, tbl_name(r));
	const char *method = tbl_note(r, "method");
	fputs(", \"method\": ", o);
	if (method)
		report_jstr(o, method);
	else
		fputs("null", o);
	fprintf(o, ", \"estimates\": %ld, \"t\": %s, \"parameters\": %d, \"not_determined\": %d", P->n, jnum(t, P->t),
	    P->np, undetermined);
	/* the same key as the rigid-body summary's (report_summary.c) */
	fputs(", \"sd_noise\": ", o);
	report_jstr(o, P->have_sd ? tbl_note(r, "sd_noise") : NULL);
	if (P->have_true)
		fprintf(o, ", \"truth_in_95\": %d, \"intervals\": %d", in, ni);
	fprintf(o, ", \"params\": {");
	for (int j = 0; j < P->np; j++) {
		char a[32], b[32], c[32], d[32];
		fputs(j ? ", " : "", o);
		report_jstr(o, tbl_col(r, P->iv[j]));
		fprintf(o, ": {\"last\": %s, \"sd\": %s, \"last_95\": [%s, %s], \"determined\": %s}", jnum(a, P->v[j]),
		    jnum(b, P->sd[j]), jnum(c, P->v[j] - 1.96 * P->sd[j]), jnum(d, P->v[j] + 1.96 * P->sd[j]),
		    determined(P->v[j], P->sd[j]) ? "true" : "false");
	}
	/* the same key as the rigid-body summary's (report_summary.c) */
	fprintf(o, "}, \"upstream_warnings\": [");
	for (int i = 0; i < tbl_nwarnings(r); i++) {
		fputs(i ? ", " : "", o);
		report_jstr(o, tbl_warning(r, i));
	}
	fprintf(o, "]}\n");
}

void
report_params(tbl_reader *r, FILE *o, enum report_fmt fmt, plaus *p)
{
	params P = { 0 };
	params_read(r, &P);
	/* ni: the intervals that can hold the truth (an sd and a truth): one
	 * without an sd is neither a hit nor a miss */
	int undetermined = 0, in = 0, ni = 0;
	for (int j = 0; j < P.np; j++) {
		P.have_sd |= isfinite(P.sd[j]);
		undetermined += !determined(P.v[j], P.sd[j]);
		ni += P.have_true && isfinite(P.sd[j]) && isfinite(P.tru[j]);
		in += P.have_true && holds(P.v[j], P.sd[j], P.tru[j]);
	}
	const char *rank = tbl_note(r, "base_rank");
	if (fmt == F_CSV) {
		print_csv(o, r, &P);
	} else if (fmt == F_JSON) {
		print_json(o, r, &P, undetermined, in, ni);
	} else {
		const char *method = tbl_note(r, "method");
		fprintf(o, "# %s: %d parameters, %ld estimate%s%s%s (the last, t %.6g s)%s%s\n", tbl_name(r), P.np, P.n,
		    P.n == 1 ? "" : "s", method ? " of " : "", method ? method : "", P.t,
		    rank ? "; base parameters, rank " : "", rank ? rank : "");
		fprintf(o, "# %d of %d not determined: the 95 %% interval reaches zero, the log cannot tell them "
		    "from 0\n", undetermined, P.np);
		if (P.have_sd)
			fprintf(o, "# the interval is the last estimate +- 1.96 sd (%s)\n",
			    report_noise_form(tbl_note(r, "sd_noise")));
		if (tbl_nwarnings(r))
			fprintf(o, "# warnings of the commands upstream (the stream carries them; --strict fails on them):\n");
		for (int i = 0; i < tbl_nwarnings(r); i++)
			fprintf(o, "#   %s\n", tbl_warning(r, i));
		fprintf(o, "\n");
		print_table(o, fmt, r, &P);
		if (P.have_true && ni)
			fprintf(o, "\n# the truth is inside %d of %d intervals (%.1f %%; 95 %% expected)%s\n", in, ni,
			    100.0 * in / ni, ni < P.np ? "; the others have no sd or no truth" : "");
		else if (P.have_true)
			fprintf(o, "\n# no interval to hold the truth: no parameter has both an sd and a truth\n");
	}
	if (P.have_true && ni >= 10 && ni - in > 0.1 * ni) {
		fprintf(stderr, "%s: %s: the truth is outside %d of %d 95 %% intervals (%.0f %%, 5 %% expected): the "
		    "intervals are too narrow, or the model does not hold\n", cli_prog(), tbl_name(r), ni - in, ni,
		    100.0 * (ni - in) / ni);
		p->warnings++;
	}
	free(P.iv), free(P.isd), free(P.itrue), free(P.v), free(P.sd), free(P.tru);
}
