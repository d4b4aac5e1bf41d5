/* estimate_wide.c: whole-arm streams by ols or wls; see estimate_wide.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdio.h"
#include "estimate_wide.h"
#include "estimate_widepc.h"
#include "../lib/tagk.h"

enum { MAX_IDX = 64 };

typedef struct {
	const batch_opts *o;
	tbl_reader *r;
	int n, it, ib, irow, *iy, ntrue, *tidx, wls;
	double *H[MAX_IDX], *h[MAX_IDX], c[MAX_IDX]; /* per row index: sum y y^T (upper), y b, b^2 */
	long N[MAX_IDX], rows, samples;
	double t_last, *row, *y;
	cmdio_samples sc;
} wide;

int
estimate_wide_stream(tbl_reader *r)
{
	if (tbl_find(r, "Y_m") >= 0)
		return 0;
	for (int c = 0; c < tbl_ncols(r); c++)
		if (strncmp(tbl_col(r, c), "Y_", 2) == 0)
			return 1;
	return 0;
}

static void
wide_columns(wide *w)
{
	tbl_reader *r = w->r;
	const int nc = tbl_ncols(r);
	w->iy = malloc((size_t)nc * sizeof(int));
	w->tidx = malloc((size_t)nc * sizeof(int));
	if (!w->iy || !w->tidx)
		cli_die(EXIT_DATA, "out of memory");
	for (int c = 0; c < nc; c++)
		if (strncmp(tbl_col(r, c), "Y_", 2) == 0)
			w->iy[w->n++] = c;
	w->it = tbl_find(r, "t");
	w->ib = tbl_find(r, "b");
	w->irow = tbl_find(r, "row");
	if (w->it < 0 || w->ib < 0 || w->irow < 0)
		cli_die(EXIT_DATA, "%s: not a regressor stream: it needs columns t, row, Y_* and b", tbl_name(r));
	tbl_want(r, w->it);
	tbl_want(r, w->ib);
	tbl_want(r, w->irow);
	for (int j = 0; j < w->n; j++) {
		tbl_want(r, w->iy[j]);
		char tn[256];
		snprintf(tn, sizeof(tn), "true_%s", tbl_col(r, w->iy[j]) + 2);
		int c = tbl_find(r, tn);
		if (c >= 0) {
			tbl_want(r, c);
			w->tidx[w->ntrue++] = c;
		}
	}
	if (w->ntrue != 0 && w->ntrue != w->n)
		cli_die(EXIT_DATA, "%s: some true_* columns of the parameters but not all", tbl_name(r));
}

/* One row into its index's sums. */
static void
wide_add(wide *w)
{
	const double *row = w->row;
	const int n = w->n;
	double kd = row[w->irow];
	int k = kd >= 0 && kd < MAX_IDX ? (int)kd : -1;
	if (k < 0 || kd != (double)k)
		cli_die(EXIT_DATA, "%s: row %g: a sample has rows 0 to %d at most", tbl_where(w->r), kd, MAX_IDX - 1);
	if (!w->H[k] && (!(w->H[k] = calloc((size_t)n * (size_t)n, sizeof(double))) ||
	    !(w->h[k] = calloc((size_t)n, sizeof(double)))))
		cli_die(EXIT_DATA, "out of memory");
	double *y = w->y, b = row[w->ib];
	for (int j = 0; j < n; j++)
		y[j] = row[w->iy[j]];
	if (!cmdio_all_finite(y, n) || !isfinite(b))
		cli_die(EXIT_DATA, "%s: a value that is not finite", tbl_where(w->r));
	double *H = w->H[k];
	for (int i = 0; i < n; i++) {
		if (y[i] == 0)
			continue;
		for (int j = i; j < n; j++)
			H[i * n + j] += y[i] * y[j];
		w->h[k][i] += y[i] * b;
	}
	w->c[k] += b * b;
	w->N[k]++;
	w->rows++;
}

/* Residual sum of squares of index k at theta, from its sums. */
static double
rss(const wide *w, int k, const double *theta)
{
	const int n = w->n;
	const double *H = w->H[k];
	double s = w->c[k];
	for (int i = 0; i < n; i++) {
		double hi = H[i * n + i] * theta[i];
		for (int j = i + 1; j < n; j++)
			hi += 2 * H[i * n + j] * theta[j];
		s += theta[i] * (hi - 2 * w->h[k][i]);
	}
	return s > 0 ? s : 0;
}

/* Hw = sum w_k H_k (full, scaled to a unit diagonal by d), its Cholesky
 * factor in L and theta = Hw^-1 sum w_k h_k; -1 if Hw is singular. */
static int
solve(const wide *w, const double *wt, double *L, double *d, double *theta)
{
	const int n = w->n;
	memset(L, 0, (size_t)n * (size_t)n * sizeof(double));
	memset(theta, 0, (size_t)n * sizeof(double));
	for (int k = 0; k < MAX_IDX; k++)
		for (int i = 0; w->H[k] && i < n; i++) {
			for (int j = i; j < n; j++)
				L[i * n + j] += wt[k] * w->H[k][i * n + j];
			theta[i] += wt[k] * w->h[k][i];
		}
	for (int i = 0; i < n; i++)
		d[i] = L[i * n + i] > 0 ? 1 / sqrt(L[i * n + i]) : 0;
	for (int i = 0; i < n; i++) {
		if (d[i] == 0)
			return -1;
		for (int j = i; j < n; j++)
			L[j * n + i] = L[i * n + j] = L[i * n + j] * d[i] * d[j];
		theta[i] *= d[i];
	}
	if (tagk_cholesky(n, L) != TAGK_OK)
		return -1;
	tagk_cholesky_solve(n, 1, L, theta);
	for (int i = 0; i < n; i++)
		theta[i] *= d[i];
	return 0;
}

/* The sandwich's diagonal: sd_i^2 = (Hw^-1 S Hw^-1)_ii, S = sum_k w_k^2
 * s_k^2 H_k, with Hw = D^-1 L L^T D^-1 (solve's scaling d). */
static void
sandwich(const wide *w, const double *wt, const double *s2, const double *L, const double *d, double *sd)
{
	const int n = w->n;
	double *S = calloc((size_t)n * (size_t)n, sizeof(double));
	if (!S)
		cli_die(EXIT_DATA, "out of memory");
	for (int k = 0; k < MAX_IDX; k++)
		for (int i = 0; w->H[k] && i < n; i++)
			for (int j = i; j < n; j++)
				S[i * n + j] += wt[k] * wt[k] * s2[k] * w->H[k][i * n + j] * d[i] * d[j];
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			S[i * n + j] = S[j * n + i];
	/* X = (L L^T)^-1 S; then Cov_s = X (L L^T)^-1, whose diagonal is that of
	 * (L L^T)^-1 X^T: solve again with X^T (S symmetric: X^T = S (L L^T)^-1) */
	tagk_cholesky_solve(n, n, L, S);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++) {
			double t = S[i * n + j];
			S[i * n + j] = S[j * n + i], S[j * n + i] = t;
		}
	tagk_cholesky_solve(n, n, L, S);
	for (int i = 0; i < n; i++)
		sd[i] = sqrt(fmax(S[i * n + i], 0)) * d[i];
	free(S);
}

/* Per index: the residual variance at theta (N / (N - n) degrees of freedom). */
static void
variances(const wide *w, const double *theta, double *s2)
{
	const double dof = w->rows > w->n ? (double)w->rows / (double)(w->rows - w->n) : 1;
	for (int k = 0; k < MAX_IDX; k++)
		s2[k] = w->H[k] ? rss(w, k, theta) / (double)w->N[k] * dof : 0;
}

/* The estimate (and its sd) by the method: ols, or wls from the ordinary fit. */
static void
estimate(wide *w, double *theta, double *sd)
{
	const int n = w->n;
	double wt[MAX_IDX], s2[MAX_IDX];
	double *L = malloc((size_t)n * (size_t)n * sizeof(double)), *d = malloc((size_t)n * sizeof(double));
	if (!L || !d)
		cli_die(EXIT_DATA, "out of memory");
	for (int k = 0; k < MAX_IDX; k++)
		wt[k] = 1;
	int st = solve(w, wt, L, d, theta);
	double lmin = INFINITY, lmax = 0;
	for (int i = 0; st == 0 && i < n; i++)
		lmin = fmin(lmin, L[i * n + i]), lmax = fmax(lmax, L[i * n + i]);
	if (st != 0 || !(lmin > 1e-7 * lmax))
		cli_die(EXIT_DATA, "%s: the data do not determine every parameter (a singular normal matrix: the "
		    "whole arm's standard parameters never are; write the base parameters' rows with tagk-regress "
		    "--base, and excite every joint)", tbl_name(w->r));
	variances(w, theta, s2);
	int zero = 0;
	for (int k = 0; k < MAX_IDX; k++)
		zero |= w->H[k] && !(s2[k] > 0);
	if (w->wls && !zero) {
		for (int k = 0; k < MAX_IDX; k++)
			wt[k] = w->H[k] ? 1 / s2[k] : 0;
		if (solve(w, wt, L, d, theta) != 0)
			cli_die(EXIT_DATA, "%s: the weighted normal matrix is singular", tbl_name(w->r));
		variances(w, theta, s2);
	} else if (w->wls)
		cli_warn("-a wls: a row index without residual (noise-free rows): the ordinary fit, unweighted");
	cli_warn("%s: %d parameters from %ld rows of %ld samples; the scaled normal matrix's condition number about %.3g (its Cholesky factor's diagonal)",
	    w->o->method->name, n, w->rows, w->samples, (lmax / lmin) * (lmax / lmin));
	sandwich(w, wt, s2, L, d, sd);
	free(L);
	free(d);
}

/* The estimate stream: t, the parameters, sd_<each>, the truth (tagk-formats(5)). */
static void
write_estimate(const wide *w, const double *theta, const double *sd)
{
	const int n = w->n, nsd = sd ? n : 0, nc = 1 + n + nsd + w->ntrue;
	const char **names = malloc((size_t)nc * sizeof(*names));
	char (*buf)[260] = malloc((size_t)n * 2 * sizeof(*buf));
	double *v = malloc((size_t)nc * sizeof(double));
	if (!names || !buf || !v)
		cli_die(EXIT_DATA, "out of memory");
	names[0] = "t";
	v[0] = w->t_last;
	for (int j = 0; j < n; j++) {
		snprintf(buf[j], sizeof(buf[j]), "%s", tbl_col(w->r, w->iy[j]) + 2);
		snprintf(buf[n + j], sizeof(buf[j]), "sd_%s", tbl_col(w->r, w->iy[j]) + 2);
		names[1 + j] = buf[j];
		v[1 + j] = theta[j];
		if (sd)
			names[1 + n + j] = buf[n + j], v[1 + n + j] = sd[j];
	}
	for (int j = 0; j < w->ntrue; j++) {
		names[1 + n + nsd + j] = tbl_col(w->r, w->tidx[j]);
		v[1 + n + nsd + j] = w->row[w->tidx[j]];
	}
	sink *out = cmdio_open_output(w->o->outname, TBL_AUTO);
	cmdio_header(out, nc, names);
	cmdio_row(out, v);
	sink_note(out, "method", w->o->method->name);
	/* the sandwich per joint: heteroskedastic, but white in time */
	if (sd)
		sink_note(out, "sd_noise", "white");
	cmdio_pass_notes(out, w->r);
	cmdio_commit(out);
	free(names);
	free(buf);
	free(v);
}

int
estimate_wide(const batch_opts *o, tbl_reader *r)
{
	static wide w;
	w = (wide){ .o = o, .r = r, .t_last = -INFINITY };
	const char *m = o->method->name;
	if (strcmp(m, "ols") != 0 && strcmp(m, "wls") != 0 && !widepc_method(m))
		cli_die(EXIT_USAGE, "-a %s: a whole-arm stream (%s: Y_* columns of many bodies) takes -a ols, wls, "
		    "ols-pc, wls-pc, wls-pullback or wls-bregman", m, tbl_name(r));
	if (o->robot && !widepc_method(m))
		cli_die(EXIT_USAGE, "--robot: the prior of -a ols-pc, wls-pc, wls-pullback or wls-bregman");
	if (o->segments || o->weight || o->theta0)
		cli_die(EXIT_USAGE, "a whole-arm stream: no --segment, --weight or --theta0");
	w.wls = strcmp(m, "wls") == 0;
	wide_columns(&w);
	w.row = malloc((size_t)tbl_ncols(r) * sizeof(double));
	w.y = malloc((size_t)w.n * sizeof(double));
	if (!w.row || !w.y)
		cli_die(EXIT_DATA, "out of memory");
	int rc;
	while ((rc = tbl_next(r, w.row)) == 1) {
		double t = w.row[w.it];
		if (cmdio_sample_row(&w.sc, r, t, w.row[w.irow])) {
			if (w.samples && !(t > w.t_last))
				cli_die(EXIT_DATA, "%s: time does not increase", tbl_where(r));
			w.samples++;
			w.t_last = t;
		}
		wide_add(&w);
	}
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	cmdio_sample_end(&w.sc, r, 1);
	if (w.samples == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(r));
	double *theta = malloc((size_t)w.n * sizeof(double)), *sd = malloc((size_t)w.n * sizeof(double));
	if (!theta || !sd)
		cli_die(EXIT_DATA, "out of memory");
	if (widepc_method(m)) {
		const char **names = malloc((size_t)w.n * sizeof(*names));
		if (!names)
			cli_die(EXIT_DATA, "out of memory");
		for (int j = 0; j < w.n; j++)
			names[j] = tbl_col(r, w.iy[j]) + 2;
		widepc_sums ps = { w.n, w.H, w.h, w.c, w.N, w.samples, names, tbl_name(r) };
		widepc_estimate(o, &ps, theta);
		write_estimate(&w, theta, NULL);
		free(names);
	} else {
		estimate(&w, theta, sd);
		write_estimate(&w, theta, sd);
	}
	for (int k = 0; k < MAX_IDX; k++) {
		free(w.H[k]);
		free(w.h[k]);
	}
	free(theta);
	free(sd);
	free(w.row);
	free(w.y);
	free(w.iy);
	free(w.tidx);
	tbl_close(r);
	return 0;
}
