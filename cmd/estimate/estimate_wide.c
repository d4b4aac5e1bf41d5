/* estimate_wide.c: whole-arm streams by ols or wls; see estimate_wide.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdio.h"
#include "estimate_wide.h"
#include "estimate_widepc.h"
#include "../lib/tagk.h"

/* The Newey-West sd's blocks of consecutive samples: one sample each until
 * MAX_BLOCKS (or what BLOCK_MEM holds, at least MIN_BLOCKS) are in use,
 * then pairs merged and each block twice as long, so that a log of any
 * length ends with between half the cap and the cap of blocks, each of
 * samples / cap to 2 samples / cap samples. A block keeps its rows' sums
 * y y^T (upper triangle) and y b per slot: one for ols, one per row index
 * (joint) for wls, whose weights are known only after the read. */
enum { MAX_IDX = 64, MAX_BLOCKS = 512, MIN_BLOCKS = 32 };
#define BLOCK_MEM ((size_t)64 << 20) /* bytes */

typedef struct {
	const batch_opts *o;
	tbl_reader *r;
	int n, it, ib, irow, *iy, ntrue, *tidx, wls;
	double *H[MAX_IDX], *h[MAX_IDX], c[MAX_IDX]; /* per row index: sum y y^T (upper), y b, b^2 */
	long N[MAX_IDX], rows, samples;
	double t_last, *row, *y;
	cmdio_samples sc;
	double *blk;          /* cap x nslot x blen: per block and slot, y y^T packed (upper), then y b */
	size_t blen;          /* n (n + 1) / 2 + n */
	int slot_of[MAX_IDX], nslot, cap, nblk, blk_len, blk_fill; /* blocks in use, samples per block, in the last */
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

/* Row y, b of index k into the last block's slot. */
static void
block_add(wide *w, int k, const double *y, double b)
{
	const int n = w->n;
	if (w->slot_of[k] < 0)
		cli_die(EXIT_DATA, "%s: row %d: not a row index of the first sample", tbl_where(w->r), k);
	double *P = w->blk + ((size_t)(w->nblk - 1) * (size_t)w->nslot + (size_t)w->slot_of[k]) * w->blen;
	double *p = P + (size_t)n * (size_t)(n + 1) / 2;
	for (int i = 0; i < n; i++) {
		if (y[i] == 0)
			continue;
		double *row = P + (size_t)i * (size_t)(2 * n - i + 1) / 2 - (size_t)i; /* row[j], j >= i */
		for (int j = i; j < n; j++)
			row[j] += y[i] * y[j];
		p[i] += y[i] * b;
	}
}

/* The second sample begins: the first one's rows are the sums so far, its
 * row indices the slots (wls); the blocks allocated and block 0 filled. */
static void
blocks_open(wide *w)
{
	const int n = w->n;
	w->blen = (size_t)n * (size_t)(n + 1) / 2 + (size_t)n;
	for (int k = 0; k < MAX_IDX; k++)
		w->slot_of[k] = w->H[k] ? (w->wls ? w->nslot++ : 0) : -1;
	if (!w->wls)
		w->nslot = 1;
	size_t per = (size_t)w->nslot * w->blen * sizeof(double), cap = BLOCK_MEM / per;
	w->cap = cap > MAX_BLOCKS ? MAX_BLOCKS : cap < MIN_BLOCKS ? MIN_BLOCKS : (int)cap & ~1;
	w->blk = calloc((size_t)w->cap * (size_t)w->nslot * w->blen, sizeof(double));
	if (!w->blk)
		cli_die(EXIT_DATA, "out of memory");
	for (int k = 0; k < MAX_IDX; k++) {
		if (!w->H[k])
			continue;
		double *P = w->blk + (size_t)w->slot_of[k] * w->blen, *p = P + w->blen - (size_t)n;
		for (int i = 0; i < n; i++) {
			double *row = P + (size_t)i * (size_t)(2 * n - i + 1) / 2 - (size_t)i;
			for (int j = i; j < n; j++)
				row[j] += w->H[k][i * n + j];
			p[i] += w->h[k][i];
		}
	}
	w->nblk = w->blk_len = w->blk_fill = 1;
}

/* A new sample after the first: into the last block, or a new one (after
 * merging pairs when every block is in use). */
static void
block_next(wide *w)
{
	if (!w->blk)
		blocks_open(w);
	const size_t len = (size_t)w->nslot * w->blen;
	if (w->blk_fill < w->blk_len) {
		w->blk_fill++;
		return;
	}
	if (w->nblk == w->cap) {
		for (int i = 0; i < w->cap / 2; i++) {
			double *d = w->blk + (size_t)i * len;
			const double *a = w->blk + (size_t)(2 * i) * len, *b = a + len;
			for (size_t k = 0; k < len; k++)
				d[k] = a[k] + b[k];
		}
		w->nblk = w->cap / 2;
		w->blk_len *= 2;
	}
	memset(w->blk + (size_t)w->nblk * len, 0, len * sizeof(double));
	w->nblk++;
	w->blk_fill = 1;
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
	if (w->blk)
		block_add(w, k, y, b);
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

/* The white meat S = sum_k w_k^2 s_k^2 H_k (n x n, full), scaled by
 * solve's d: the sandwich per joint, white in time. */
static void
white_meat(const wide *w, const double *wt, const double *s2, const double *d, double *S)
{
	const int n = w->n;
	memset(S, 0, (size_t)n * (size_t)n * sizeof(double));
	for (int k = 0; k < MAX_IDX; k++)
		for (int i = 0; w->H[k] && i < n; i++)
			for (int j = i; j < n; j++)
				S[i * n + j] += wt[k] * wt[k] * s2[k] * w->H[k][i * n + j] * d[i] * d[j];
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			S[i * n + j] = S[j * n + i];
}

/* Each block's score g_b = sum_r w_r (h_br - H_br theta) into G (nblk x n),
 * from the block's sums: the sum of its rows' y w (b - y^T theta), exactly
 * at the final theta although the rows are gone. */
static void
block_scores(const wide *w, const double *wt, const double *theta, double *G, double *e)
{
	const int n = w->n;
	double ws[MAX_IDX];
	for (int k = 0; k < MAX_IDX; k++)
		if (w->H[k])
			ws[w->slot_of[k]] = wt[k]; /* ols: one slot, every weight 1 */
	for (int b = 0; b < w->nblk; b++) {
		double *g = G + (size_t)b * (size_t)n;
		memset(g, 0, (size_t)n * sizeof(double));
		for (int sl = 0; sl < w->nslot; sl++) {
			const double *P = w->blk + ((size_t)b * (size_t)w->nslot + (size_t)sl) * w->blen;
			memcpy(e, P + w->blen - (size_t)n, (size_t)n * sizeof(double));
			for (int i = 0; i < n; i++) {
				const double *row = P + (size_t)i * (size_t)(2 * n - i + 1) / 2 - (size_t)i;
				e[i] -= row[i] * theta[i];
				for (int j = i + 1; j < n; j++)
					e[i] -= row[j] * theta[j], e[j] -= row[j] * theta[i];
			}
			for (int i = 0; i < n; i++)
				g[i] += ws[sl] * e[i];
		}
	}
}

/* The Newey-West meat (hac.h) of the block scores: S = (rows / (rows - n))
 * c^2 Omega, Omega of Andrews' bandwidth (on the sum of the scores'
 * components, each over its rms, as tagk_hac_bandwidth_vec but for any n),
 * c the fixed-b widening; scaled by solve's d into S (n x n, full).
 * Returns the bandwidth (in blocks), the widening into *c. */
static int
hac_meat(const wide *w, const double *wt, const double *theta, const double *d, double *S, double *c)
{
	const int n = w->n, T = w->nblk;
	double *G = malloc((size_t)T * (size_t)n * sizeof(double)), *s = calloc((size_t)T, sizeof(double));
	double *e = malloc((size_t)n * sizeof(double));
	if (!G || !s || !e)
		cli_die(EXIT_DATA, "out of memory");
	block_scores(w, wt, theta, G, e);
	for (int i = 0; i < n; i++) {
		double a = 0;
		for (int t = 0; t < T; t++)
			a += G[(size_t)t * n + i] * G[(size_t)t * n + i];
		e[i] = a > 0 ? 1 / sqrt(a / T) : 0;
	}
	for (int t = 0; t < T; t++)
		for (int i = 0; i < n; i++)
			s[t] += e[i] * G[(size_t)t * n + i];
	int B = tagk_hac_bandwidth(T, s, T - 1);
	tagk_hac_cov(T, n, G, B, S);
	double dof = w->rows > n ? (double)w->rows / (double)(w->rows - n) : 1;
	*c = tagk_hac_widen(B, T);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			S[i * n + j] *= dof * *c * *c * d[i] * d[j];
	free(G);
	free(s);
	free(e);
	return B;
}

/* The sandwich's diagonal: sd_i^2 = (Hw^-1 M Hw^-1)_ii, with Hw = D^-1 L
 * L^T D^-1 (solve's scaling d) and S = D M D (destroyed). */
static void
sandwich(int n, const double *L, const double *d, double *S, double *sd)
{
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
	double *S = malloc((size_t)n * (size_t)n * sizeof(double)), c;
	if (!S)
		cli_die(EXIT_DATA, "out of memory");
	if (w->nblk >= 2) {
		int B = hac_meat(w, wt, theta, d, S, &c);
		cli_warn("%s: sd by Newey-West over %d blocks of %d samples (the last %d): bandwidth %d blocks, "
		    "widened %.3gx for the 95 %% interval (fixed-b)", w->o->method->name, w->nblk, w->blk_len,
		    w->blk_fill, B, c);
	} else
		white_meat(w, wt, s2, d, S);
	sandwich(n, L, d, S, sd);
	free(S);
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
	/* Newey-West over blocks of samples; a single sample's: the sandwich
	 * per joint, heteroskedastic but white in time */
	if (sd)
		sink_note(out, "sd_noise", w->nblk >= 2 ? "newey-west" : "white");
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
			if (w.samples >= 2 && !widepc_method(m))
				block_next(&w);
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
	free(w.blk);
	free(w.row);
	free(w.y);
	free(w.iy);
	free(w.tidx);
	tbl_close(r);
	return 0;
}
