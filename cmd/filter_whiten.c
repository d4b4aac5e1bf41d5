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

int
filter_whiten(const char *input, const tbl_options *in, const double *theta0, int n0, const char *outname)
{
	if (n0 != TAGK_NPARAM)
		cli_die(EXIT_USAGE, "--whiten: %d values; the metric's parts are those of the ten parameters of a body", n0);
	tbl_reader *r = cmdio_open_input(input, in);
	int it = need(r, "t"), irow = need(r, "row"), ib = need(r, "b"), iy[TAGK_NPARAM];
	char name[48];
	for (int j = 0; j < TAGK_NPARAM; j++) {
		snprintf(name, sizeof(name), "Y_%s", tagk_param_names[j]);
		iy[j] = need(r, name);
	}
	/* the coordinates: as many as M0_1, M0_2, ... columns */
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
	int im0[MAXN], imj[TAGK_NPARAM][MAXN];
	for (int c = 0; c < n; c++) {
		snprintf(name, sizeof(name), "M0_%d", c + 1);
		im0[c] = need(r, name);
		for (int j = 0; j < TAGK_NPARAM; j++) {
			snprintf(name, sizeof(name), "M_%s_%d", tagk_param_names[j], c + 1);
			imj[j][c] = need(r, name);
		}
	}
	int ntrue = 0, *tidx = malloc((size_t)tbl_ncols(r) * sizeof(int));
	const char **names = malloc((size_t)(3 + TAGK_NPARAM + tbl_ncols(r)) * sizeof(*names));
	double *row = malloc((size_t)tbl_ncols(r) * sizeof(*row));
	double (*buf)[TAGK_NPARAM + 1] = malloc(MAXN * sizeof(*buf));
	double (*tru)[TAGK_NPARAM] = malloc(MAXN * sizeof(*tru));
	double *orow = malloc((size_t)(3 + TAGK_NPARAM + tbl_ncols(r)) * sizeof(*orow));
	if (!tidx || !names || !row || !buf || !tru || !orow)
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 0; i < tbl_ncols(r); i++)
		if (strncmp(tbl_col(r, i), "true_", 5) == 0 && ntrue < TAGK_NPARAM) {
			tidx[ntrue++] = i;
			tbl_want(r, i);
		}
	int nc = 0;
	names[nc++] = "t";
	names[nc++] = "row";
	for (int j = 0; j < TAGK_NPARAM; j++)
		names[nc++] = tbl_col(r, iy[j]);
	names[nc++] = "b";
	for (int j = 0; j < ntrue; j++)
		names[nc++] = tbl_col(r, tidx[j]);
	sink *out = cmdio_open_output(outname, TBL_AUTO);
	cmdio_header(out, nc, names);
	tagk_real M[MAXN * MAXN], X[MAXN * (TAGK_NPARAM + 1)];
	int seen[MAXN], have = 0, rc;
	double t_cur = NAN;
	long samples = 0;
	memset(seen, 0, sizeof(seen));
	for (;;) {
		rc = tbl_next(r, row);
		if (rc < 0)
			cli_die(EXIT_DATA, "%s", tbl_error(r));
		if (have && (rc == 0 || row[it] != t_cur)) {
			/* the sample is complete: every row index 0..n-1 once */
			char a[32];
			fmt_double(a, t_cur);
			for (int k = 0; k < n; k++)
				if (!seen[k])
					cli_die(EXIT_DATA, "%s: t = %s: the sample lacks row %d of %d (--whiten needs whole samples)",
					    tbl_name(r), a, k, n);
			for (int k = 0; k < n; k++)
				for (int c = 0; c < n; c++)
					M[k * n + c] = (tagk_real)((M[k * n + c] + M[c * n + k]) / 2);
			if (tagk_cholesky(n, M) != TAGK_OK)
				cli_die(EXIT_DATA, "%s: t = %s: the metric at the --whiten values is not positive definite (a "
				    "prior that is not a physical body?)", tbl_name(r), a);
			for (int k = 0; k < n; k++)
				for (int j = 0; j <= TAGK_NPARAM; j++)
					X[k * (TAGK_NPARAM + 1) + j] = (tagk_real)buf[k][j];
			tagk_trsm_lower(n, TAGK_NPARAM + 1, M, X);
			for (int k = 0; k < n; k++) {
				int x = 0;
				orow[x++] = t_cur;
				orow[x++] = k;
				for (int j = 0; j <= TAGK_NPARAM; j++)
					orow[x++] = (double)X[k * (TAGK_NPARAM + 1) + j];
				for (int j = 0; j < ntrue; j++)
					orow[x++] = tru[k][j];
				cmdio_row(out, orow);
			}
			samples++;
			have = 0;
			memset(seen, 0, sizeof(seen));
		}
		if (rc == 0)
			break;
		if (have && !(row[it] >= t_cur))
			cli_die(EXIT_DATA, "%s: time does not increase", tbl_where(r));
		int k = (int)row[irow];
		if (!(row[irow] >= 0 && row[irow] < n) || row[irow] != (double)k)
			cli_die(EXIT_DATA, "%s: row %g: a sample has rows 0 to %d", tbl_where(r), row[irow], n - 1);
		if (seen[k])
			cli_die(EXIT_DATA, "%s: row %d twice in one sample", tbl_where(r), k);
		seen[k] = 1;
		t_cur = row[it];
		have = 1;
		for (int j = 0; j < TAGK_NPARAM; j++)
			buf[k][j] = row[iy[j]];
		buf[k][TAGK_NPARAM] = row[ib];
		for (int j = 0; j < ntrue; j++)
			tru[k][j] = row[tidx[j]];
		for (int c = 0; c < n; c++) {
			double v = row[im0[c]];
			for (int j = 0; j < TAGK_NPARAM; j++)
				v += theta0[j] * row[imj[j][c]];
			if (!isfinite(v))
				cli_die(EXIT_DATA, "%s: a metric value that is not finite", tbl_where(r));
			M[k * n + c] = (tagk_real)v;
		}
	}
	if (samples == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(r));
	cmdio_commit(out);
	tbl_close(r);
	free(tidx);
	free(names);
	free(row);
	free(buf);
	free(tru);
	free(orow);
	return 0;
}
