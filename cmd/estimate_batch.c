/* estimate_batch.c: least squares over a whole stream; see estimate_batch.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "estimate_batch.h"
#include "cli.h"
#include "cmdio.h"
#include "../lib/tagk.h"

enum { MAX_ROWS = 16, MAX_SEGMENTS = 4096 };

static const struct {
	const char *name, *summary;
	int weighted, consistent;
} methods[] = {
	{ "ols", "batch ordinary least squares over the stream or each --segment", 0, 0 },
	{ "wls", "batch weighted least squares, rows weighted by their residual variance (paper 002)", 1, 0 },
	{ "ols-pc", "ols subject to physical consistency (pseudo-inertia >= 0)", 0, 1 },
	{ "wls-pc", "wls subject to physical consistency", 1, 1 },
};
enum { NMETHODS = sizeof(methods) / sizeof(methods[0]) };

int
batch_method(const char *name)
{
	for (int i = 0; i < NMETHODS; i++)
		if (strcmp(name, methods[i].name) == 0)
			return 1;
	return 0;
}

void
batch_list(void)
{
	for (int i = 0; i < NMETHODS; i++)
		printf("%-10s %s\n", methods[i].name, methods[i].summary);
}

typedef struct {
	int n, nrows;
	double H[MAX_ROWS][TAGK_NPARAM * TAGK_NPARAM];
	double h[MAX_ROWS][TAGK_NPARAM];
	double c[MAX_ROWS];
	long count[MAX_ROWS];
} normal_eq;

/* Solve H theta = h, subject to consistency or not; 0 on success. */
static int
solve(int n, const double *H, const double *h, int consistent, double *theta, char *why, size_t len)
{
	tagk_real K[TAGK_NPARAM * TAGK_NPARAM], x[TAGK_NPARAM];
	for (int i = 0; i < n * n; i++)
		K[i] = (tagk_real)H[i];
	for (int i = 0; i < n; i++)
		x[i] = (tagk_real)h[i];
	if (consistent && n == TAGK_NPARAM) {
		tagk_pcls_config cfg;
		tagk_pcls_defaults(&cfg, 1);
		tagk_real ws[TAGK_NPARAM * TAGK_NPARAM + 5 * TAGK_NPARAM], rhs[TAGK_NPARAM];
		memcpy(rhs, x, sizeof(rhs));
		tagk_status st = tagk_pcls_solve(&cfg, K, rhs, x, NULL, ws, sizeof(ws) / sizeof(ws[0]));
		if (st != TAGK_OK) {
			snprintf(why, len, "the consistent solver failed: %s", tagk_strerror(st));
			return -1;
		}
	} else {
		if (tagk_cholesky(n, K) != TAGK_OK) {
			snprintf(why, len, "the data do not determine every parameter (a singular normal "
			    "matrix): use a -pc method or a longer segment");
			return -1;
		}
		tagk_cholesky_solve(n, 1, K, x);
		if (consistent && x[0] < 0) /* the mass model: consistent means m >= 0 */
			x[0] = 0;
	}
	for (int i = 0; i < n; i++)
		theta[i] = (double)x[i];
	return 0;
}

static int
fit(const normal_eq *q, int weighted, int consistent, double *theta, char *why, size_t len)
{
	const int n = q->n;
	double H[TAGK_NPARAM * TAGK_NPARAM] = { 0 }, h[TAGK_NPARAM] = { 0 };
	for (int r = 0; r < q->nrows; r++) {
		for (int i = 0; i < n * n; i++)
			H[i] += q->H[r][i];
		for (int i = 0; i < n; i++)
			h[i] += q->h[r][i];
	}
	if (solve(n, H, h, consistent, theta, why, len) != 0)
		return -1;
	if (!weighted)
		return 0;
	/* residual variance of each row index, from the first fit */
	double var[MAX_ROWS], vmax = 0;
	for (int r = 0; r < q->nrows; r++) {
		double s = q->c[r];
		for (int i = 0; i < n; i++) {
			double hi = 0;
			for (int j = 0; j < n; j++)
				hi += q->H[r][i * n + j] * theta[j];
			s += theta[i] * (hi - 2 * q->h[r][i]);
		}
		var[r] = s > 0 ? s / (double)q->count[r] : 0;
		vmax = fmax(vmax, var[r]);
	}
	memset(H, 0, sizeof(H));
	memset(h, 0, sizeof(h));
	for (int r = 0; r < q->nrows; r++) {
		/* a row that fits exactly would take all the weight: floor it */
		double w = 1 / fmax(var[r], vmax > 0 ? 1e-12 * vmax : 1);
		for (int i = 0; i < n * n; i++)
			H[i] += w * q->H[r][i];
		for (int i = 0; i < n; i++)
			h[i] += w * q->h[r][i];
	}
	return solve(n, H, h, consistent, theta, why, len);
}

int
estimate_batch(const batch_opts *o, const char *input)
{
	int mi = 0;
	while (mi < NMETHODS && strcmp(o->method, methods[mi].name) != 0)
		mi++;
	tbl_reader *r = cmdio_open_input(input, &o->in);
	int it, ib, irow, iy[TAGK_NPARAM];
	int n = cmdio_regressor_cols(r, 1, &it, &ib, &irow, iy);
	tbl_want(r, it);
	tbl_want(r, ib);
	tbl_want(r, irow);
	for (int j = 0; j < n; j++)
		tbl_want(r, iy[j]);
	int ntrue = 0, tidx[TAGK_NPARAM];
	const char *names[1 + 2 * TAGK_NPARAM];
	names[0] = "t";
	for (int j = 0; j < n; j++)
		names[1 + j] = tagk_param_names[j];
	for (int j = 0; j < n; j++) {
		char tn[32];
		snprintf(tn, sizeof(tn), "true_%s", tagk_param_names[j]);
		int c = tbl_find(r, tn);
		if (c >= 0) {
			tbl_want(r, c);
			tidx[ntrue] = c;
			names[1 + n + ntrue] = tbl_col(r, c);
			ntrue++;
		}
	}
	if (ntrue != 0 && ntrue != n)
		cli_die(EXIT_DATA, "%s: some true_* columns but not all", tbl_name(r));
	/* segment starts */
	static double starts[MAX_SEGMENTS];
	int nstarts = 0, by_truth = 0;
	if (o->segments && strcmp(o->segments, "truth") == 0) {
		by_truth = 1;
		if (!ntrue)
			cli_die(EXIT_USAGE, "--segment truth: %s has no true_* columns", tbl_name(r));
	} else if (o->segments) {
		static char buf[65536];
		static char *items[MAX_SEGMENTS];
		nstarts = cli_split("--segment", o->segments, buf, sizeof(buf), items, MAX_SEGMENTS);
		for (int i = 0; i < nstarts; i++) {
			starts[i] = cli_double("--segment", items[i], -1e300, 1e300);
			if (i && !(starts[i] > starts[i - 1]))
				cli_die(EXIT_USAGE, "--segment: the times must increase ('%s' after '%s')", items[i],
				    items[i - 1]);
		}
	}
	sink *out = cmdio_open_output(o->outname, TBL_AUTO);
	cmdio_header(out, 1 + n + ntrue, names);
	double *row = malloc((size_t)tbl_ncols(r) * sizeof(double));
	normal_eq *q = calloc(1, sizeof(*q));
	if (!row || !q)
		cli_die(EXIT_DATA, "out of memory");
	q->n = n;
	double t_last = -INFINITY, truth[TAGK_NPARAM], prev_truth[TAGK_NPARAM], orow[1 + 2 * TAGK_NPARAM];
	long samples = 0, in_seg = 0;
	int next_start = 0, rc;
	char why[256];
	for (;;) {
		rc = tbl_next(r, row);
		if (rc < 0)
			cli_die(EXIT_DATA, "%s", tbl_error(r));
		double t = rc == 1 ? row[it] : (double)NAN;
		int new_sample = rc == 1 && t != t_last;
		if (rc == 1 && new_sample && !(t > t_last) && samples)
			cli_die(EXIT_DATA, "%s: time does not increase", tbl_where(r));
		int boundary = rc == 0;
		if (rc == 1 && new_sample && samples) {
			if (by_truth) {
				for (int j = 0; j < ntrue; j++)
					boundary |= row[tidx[j]] != prev_truth[j];
			} else {
				while (next_start < nstarts && starts[next_start] <= t) {
					boundary |= starts[next_start] > t_last;
					next_start++;
				}
			}
		}
		if (boundary && in_seg) {
			double theta[TAGK_NPARAM];
			if (fit(q, methods[mi].weighted, methods[mi].consistent, theta, why, sizeof(why)) != 0) {
				char a[32];
				fmt_double(a, t_last);
				cli_die(EXIT_DATA, "%s: the segment ending at t = %s: %s", tbl_name(r), a, why);
			}
			orow[0] = t_last;
			for (int j = 0; j < n; j++)
				orow[1 + j] = theta[j];
			for (int j = 0; j < ntrue; j++)
				orow[1 + n + j] = truth[j];
			cmdio_row(out, orow);
			memset(q, 0, sizeof(*q));
			q->n = n;
			in_seg = 0;
		}
		if (rc == 0)
			break;
		if (new_sample) {
			samples++;
			t_last = t;
			in_seg++;
			for (int j = 0; j < ntrue; j++)
				prev_truth[j] = truth[j] = row[tidx[j]];
		}
		int k = (int)row[irow];
		if (!(row[irow] == (double)k) || k < 0 || k >= MAX_ROWS)
			cli_die(EXIT_DATA, "%s: row %g: a sample has rows 0 to %d at most", tbl_where(r), row[irow],
			    MAX_ROWS - 1);
		if (k >= q->nrows)
			q->nrows = k + 1;
		const double b = row[ib];
		for (int i = 0; i < n; i++) {
			double yi = row[iy[i]];
			q->h[k][i] += yi * b;
			for (int j = 0; j < n; j++)
				q->H[k][i * n + j] += yi * row[iy[j]];
		}
		q->c[k] += b * b;
		q->count[k]++;
	}
	if (samples == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(r));
	cmdio_commit(out);
	if (tbl_skipped(r))
		cli_warn("skipped %ld bad rows", tbl_skipped(r));
	tbl_close(r);
	free(row);
	free(q);
	return 0;
}
