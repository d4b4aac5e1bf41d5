/* filter_whiten.c: tagk-filter --whiten; see filter_whiten.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdio.h"
#include "filter_whiten.h"
#include "../formats/sink.h"
#include "../lib/tagk.h"

enum { MAXN = TAGK_MB_MAX_DOF };

static int
need(tbl_reader *r, const char *name)
{
	int i = tbl_find(r, name);
	if (i < 0)
		cli_die(EXIT_DATA, "%s: --whiten: missing column '%s' (the metric's columns come from tagk-regress -m "
		    "multibody --metric)", tbl_name(r), name);
	tbl_want(r, i);
	return i;
}

/* One run: the columns, the current sample's rows and metric. */
typedef struct {
	tbl_reader *r;
	const double *theta0;
	int it, irow, ib, iy[TAGK_NPARAM], n, im0[MAXN], imj[TAGK_NPARAM][MAXN], ntrue, *tidx;
	double *row, *orow, (*buf)[TAGK_NPARAM + 1], (*tru)[TAGK_NPARAM], t_cur;
	tagk_real M[MAXN * MAXN], X[MAXN * (TAGK_NPARAM + 1)];
	int seen[MAXN], have;
	long samples;
	const char **names;  /* the output's, kept while it is written */
	sink *out;
} whitenrun;

/* The regressor's and the metric's columns (as many coordinates as M0_c). */
static void
columns(whitenrun *w)
{
	tbl_reader *r = w->r;
	char name[48];
	w->it = need(r, "t"), w->irow = need(r, "row"), w->ib = need(r, "b");
	for (int j = 0; j < TAGK_NPARAM; j++) {
		snprintf(name, sizeof(name), "Y_%s", tagk_param_names[j]);
		w->iy[j] = need(r, name);
	}
	int n = 0;
	for (;;) {
		snprintf(name, sizeof(name), "M0_%d", n + 1);
		if (tbl_find(r, name) < 0)
			break;
		n++;
	}
	if (n == 0 || n > MAXN)
		cli_die(EXIT_DATA, "%s: --whiten: %s (the metric's columns come from tagk-regress -m multibody --metric)",
		    tbl_name(r), n ? "more coordinates than tagk handles" : "no column M0_1");
	w->n = n;
	for (int c = 0; c < n; c++) {
		snprintf(name, sizeof(name), "M0_%d", c + 1);
		w->im0[c] = need(r, name);
		for (int j = 0; j < TAGK_NPARAM; j++) {
			snprintf(name, sizeof(name), "M_%s_%d", tagk_param_names[j], c + 1);
			w->imj[j][c] = need(r, name);
		}
	}
}

/* Buffers, the truth's columns and the output's header: t, row, Y_*, b,
 * true_*. */
static void
open_output(whitenrun *w, const char *outname)
{
	tbl_reader *r = w->r;
	int ncols = tbl_ncols(r);
	w->tidx = malloc((size_t)ncols * sizeof(int));
	const char **names = w->names = malloc((size_t)(3 + TAGK_NPARAM + ncols) * sizeof(*names));
	w->row = malloc((size_t)ncols * sizeof(*w->row));
	w->buf = malloc(MAXN * sizeof(*w->buf));
	w->tru = malloc(MAXN * sizeof(*w->tru));
	w->orow = malloc((size_t)(3 + TAGK_NPARAM + ncols) * sizeof(*w->orow));
	if (!w->tidx || !names || !w->row || !w->buf || !w->tru || !w->orow)
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 0; i < ncols; i++)
		if (strncmp(tbl_col(r, i), "true_", 5) == 0 && w->ntrue < TAGK_NPARAM) {
			w->tidx[w->ntrue++] = i;
			tbl_want(r, i);
		}
	int nc = 0;
	names[nc++] = "t";
	names[nc++] = "row";
	for (int j = 0; j < TAGK_NPARAM; j++)
		names[nc++] = tbl_col(r, w->iy[j]);
	names[nc++] = "b";
	for (int j = 0; j < w->ntrue; j++)
		names[nc++] = tbl_col(r, w->tidx[j]);
	w->out = cmdio_open_output(outname, TBL_AUTO);
	cmdio_header(w->out, nc, names);
}

/* The sample is complete (every row index 0..n-1 once): its rows times
 * L^-1, L L^T its metric, written. */
static void
flush_sample(whitenrun *w)
{
	int n = w->n;
	char a[32];
	fmt_double(a, w->t_cur);
	for (int k = 0; k < n; k++)
		if (!w->seen[k])
			cli_die(EXIT_DATA, "%s: t = %s: the sample lacks row %d of %d (--whiten needs whole samples)",
			    tbl_name(w->r), a, k, n);
	tagk_real *M = w->M, *X = w->X;
	for (int k = 0; k < n; k++)
		for (int c = 0; c < n; c++)
			M[k * n + c] = (tagk_real)((M[k * n + c] + M[c * n + k]) / 2);
	if (tagk_cholesky(n, M) != TAGK_OK)
		cli_die(EXIT_DATA, "%s: t = %s: the metric at the --whiten values is not positive definite (a "
		    "prior that is not a physical body?)", tbl_name(w->r), a);
	for (int k = 0; k < n; k++)
		for (int j = 0; j <= TAGK_NPARAM; j++)
			X[k * (TAGK_NPARAM + 1) + j] = (tagk_real)w->buf[k][j];
	tagk_trsm_lower(n, TAGK_NPARAM + 1, M, X);
	for (int k = 0; k < n; k++) {
		int x = 0;
		w->orow[x++] = w->t_cur;
		w->orow[x++] = k;
		for (int j = 0; j <= TAGK_NPARAM; j++)
			w->orow[x++] = (double)X[k * (TAGK_NPARAM + 1) + j];
		for (int j = 0; j < w->ntrue; j++)
			w->orow[x++] = w->tru[k][j];
		cmdio_row(w->out, w->orow);
	}
	w->samples++;
	w->have = 0;
	memset(w->seen, 0, sizeof(w->seen));
}

/* The row read into the sample: its regressor, truth and metric row at
 * the --whiten values. */
static void
keep_row(whitenrun *w)
{
	const double *row = w->row;
	tbl_reader *r = w->r;
	int n = w->n;
	if (w->have && !(row[w->it] >= w->t_cur))
		cli_die(EXIT_DATA, "%s: time does not increase", tbl_where(r));
	int k = (int)row[w->irow];
	if (!(row[w->irow] >= 0 && row[w->irow] < n) || row[w->irow] != (double)k)
		cli_die(EXIT_DATA, "%s: row %g: a sample has rows 0 to %d", tbl_where(r), row[w->irow], n - 1);
	if (w->seen[k])
		cli_die(EXIT_DATA, "%s: row %d twice in one sample", tbl_where(r), k);
	w->seen[k] = 1;
	w->t_cur = row[w->it];
	w->have = 1;
	for (int j = 0; j < TAGK_NPARAM; j++)
		w->buf[k][j] = row[w->iy[j]];
	w->buf[k][TAGK_NPARAM] = row[w->ib];
	for (int j = 0; j < w->ntrue; j++)
		w->tru[k][j] = row[w->tidx[j]];
	for (int c = 0; c < n; c++) {
		double v = row[w->im0[c]];
		for (int j = 0; j < TAGK_NPARAM; j++)
			v += w->theta0[j] * row[w->imj[j][c]];
		if (!isfinite(v))
			cli_die(EXIT_DATA, "%s: a metric value that is not finite", tbl_where(r));
		w->M[k * n + c] = (tagk_real)v;
	}
}

int
filter_whiten(const char *input, const tbl_options *in, const double *theta0, int n0, const char *outname)
{
	if (n0 != TAGK_NPARAM)
		cli_die(EXIT_USAGE, "--whiten: %d values; the metric's parts are those of the ten parameters of a body", n0);
	static whitenrun w;
	w = (whitenrun){ .theta0 = theta0, .t_cur = NAN };
	w.r = cmdio_open_input(input, in);
	columns(&w);
	open_output(&w, outname);
	for (;;) {
		int rc = tbl_next(w.r, w.row);
		if (rc < 0)
			cli_die(EXIT_DATA, "%s", tbl_error(w.r));
		if (w.have && (rc == 0 || w.row[w.it] != w.t_cur))
			flush_sample(&w);
		if (rc == 0)
			break;
		keep_row(&w);
	}
	if (w.samples == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(w.r));
	cmdio_pass_notes(w.out, w.r);
	cmdio_commit(w.out);
	tbl_close(w.r);
	free(w.tidx);
	free(w.names);
	free(w.row);
	free(w.buf);
	free(w.tru);
	free(w.orow);
	return 0;
}
