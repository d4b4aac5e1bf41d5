/* filter_list.c: tagk-filter --list; see filter_list.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "filter_list.h"
#include "cli.h"
#include "cmdio.h"

/* words, indented, wrapped before column 80 */
typedef struct {
	int col;
} wrap;

static void
word(wrap *w, const char *s)
{
	int n = (int)strlen(s);
	if (w->col > 2 && w->col + 1 + n > 79) {
		fputc('\n', stdout);
		w->col = 0;
	}
	if (w->col == 0)
		w->col = printf("  %s", s);
	else
		w->col += printf(" %s", s);
}

static void
end_wrap(wrap *w)
{
	if (w->col)
		fputc('\n', stdout);
	w->col = 0;
}

static void
list_ulog(tbl_reader *r)
{
	tbl_topic_info ti;
	int ntop = 0, npar = 0;
	const char *pn;
	double pv;
	while (tbl_topic(r, ntop, &ti))
		ntop++;
	while (tbl_param_at(r, npar, &pn, &pv))
		npar++;
	printf("%s: a PX4 ULog, %d topic%s with data, %d parameter%s\n", tbl_name(r), ntop, ntop == 1 ? "" : "s",
	    npar, npar == 1 ? "" : "s");
	for (int i = 0; tbl_topic(r, i, &ti); i++) {
		double span = ti.t1 - ti.t0;
		printf("%s: %ld sample%s", ti.name, ti.samples, ti.samples == 1 ? "" : "s");
		if (ti.samples > 1 && span > 0)
			printf(" at %.4g Hz", (double)(ti.samples - 1) / span);
		printf(", t %.3f to %.3f s", ti.t0, ti.t1);
		if (ti.skipped)
			printf(" (%ld with a time that did not increase, skipped)", ti.skipped);
		printf(", %d field%s\n", ti.n, ti.n == 1 ? "" : "s");
		wrap w = { 0 };
		size_t pre = strlen(ti.name) + 1;
		for (int c = 0; c < ti.n; c++)
			word(&w, tbl_col(r, ti.first + c) + pre);
		end_wrap(&w);
	}
	if (npar) {
		printf("parameters:\n");
		wrap w = { 0 };
		for (int i = 0; tbl_param_at(r, i, &pn, &pv); i++) {
			char buf[160];
			snprintf(buf, sizeof(buf), "%s=%.9g", pn, pv);
			word(&w, buf);
		}
		end_wrap(&w);
	}
	for (int i = 0; i < tbl_nnotes(r); i++)
		printf("note: %s\n", tbl_note_line(r, i));
}

/* Any other format: rows, and the time column's span and rate. */
static void
list_table(tbl_reader *r, const char *tcol)
{
	int tc = tbl_find(r, tcol);
	if (tc >= 0)
		tbl_want(r, tc);
	int nc = tbl_ncols(r);
	double *row = malloc((size_t)nc * sizeof(double));
	if (!row)
		cli_die(EXIT_DATA, "out of memory");
	long n = 0;
	double t0 = NAN, t1 = NAN;
	int rc;
	while ((rc = tbl_next(r, row)) == 1) {
		if (tc >= 0 && n == 0)
			t0 = row[tc];
		if (tc >= 0)
			t1 = row[tc];
		n++;
	}
	free(row);
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	printf("%s: %s, %ld row%s", tbl_name(r), tbl_format_label(tbl_format_of(r)), n, n == 1 ? "" : "s");
	if (tc >= 0 && n > 1 && t1 > t0)
		printf(" at %.4g Hz", (double)(n - 1) / (t1 - t0));
	if (tc >= 0 && n > 0)
		printf(", %s %.6g to %.6g", tcol, t0, t1);
	printf(", %d column%s\n", nc, nc == 1 ? "" : "s");
	wrap w = { 0 };
	for (int c = 0; c < nc; c++)
		word(&w, tbl_col(r, c));
	end_wrap(&w);
}

int
filter_list(const char *input, const tbl_options *in, const char *tcol)
{
	tbl_reader *r = cmdio_open_input(input, in);
	if (tbl_format_of(r) == TBL_ULOG)
		list_ulog(r);
	else
		list_table(r, tcol);
	tbl_close(r);
	cli_close(stdout, "stdout");
	return 0;
}
