/* estimate_changes.c: --segment auto; see estimate_changes.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "estimate_changes.h"
#include "estout.h"
#include "cli.h"
#include "cmdio.h"
#include "../lib/tagk.h"

enum {
	MAX_BLOCKS = 16384, /* blocks kept; beyond, pairs merge (k doubles) */
	GRID = 2048,        /* candidate positions of the optimal partitioning */
	MAX_CHANGES = 1024
};

/* The change times whose two-segment cost is within PROFILE_95 of the
 * least form the 95 % interval (the likelihood-ratio profile of the change
 * time). Not chi-square(1)'s 3.84: the change time is not a smooth
 * parameter. Near the true time the profile is, in noise variances, a
 * random walk with drift on each side, 2 delta W(k) - delta^2 |k|, whose
 * supremum on one side exceeds x with probability exp(-x / 2) (Brownian
 * limit); both sides below x with probability 0.95 gives
 * x = -2 ln(1 - sqrt(0.95)) = 7.35. Monte Carlo (200 steps of 10 % in m
 * per noise level): 3.84 covered 94.5 % and 81 % of the true times where
 * 7.35 covers 99 % (a sharp step: samples are discrete) and 95.5 %. */
#define PROFILE_95 7.352276694155739

/* One run. Per block b and row index r, at blk[(b * R + r) * Wr]: the
 * count of rows, the packed sums (changepoint.h) of that index, then the
 * drift column's sums (u = (t - t0) y_m: sum u y_j for each j, sum u^2,
 * sum u b), with which a segment's m may move linearly in time. */
typedef struct {
	const batch_opts *o;
	tbl_reader *r;
	int n, it, ib, irow, iy[TAGK_NPARAM], ntrue, tidx[TAGK_NPARAM], R;
	const char *names[TAGK_NPARAM];
	size_t W, Wr;
	long m, k, samples, rows;
	double *blk, *tfirst, *tlast, *truth, *row, t_last, t0;
	long *ns;
	double first[TAGK_BATCH_ROWS][TAGK_NPARAM + 2]; /* the first sample's rows: y, b, index */
	double ftruth[TAGK_NPARAM];                       /* and its truth */
	int nfirst;
	cmdio_samples sc;
	/* after reading */
	double sig2[TAGK_BATCH_ROWS], beta, *hi, *lo, *ws;
	long cp[MAX_CHANGES + 1], ncp, minlen;
	int drift[MAX_CHANGES + 2]; /* per segment: changes merged in as a drift */
	long raw[MAX_CHANGES + 1], nraw; /* the changes before any merge ... */
	double rawm[MAX_CHANGES + 1];   /* ... and each raw segment's m (NaN: unsolved) */
	int hac;             /* the segments' sd by Newey-West (the written ones) */
	int isc;             /* the input's scale_sd column, or -1 */
	double scale_sd;     /* its last value (NaN: none yet) */
	double *hb, *hg;     /* its blocks (MAX_HAC x TAGK_BATCH_BLOCK_LEN(n)) and scores */
} cprun;

enum { MAX_HAC = 512 }; /* Newey-West blocks per segment at most */

static void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p)
		cli_die(EXIT_DATA, "out of memory");
	return p;
}

static void
columns(cprun *w)
{
	tbl_reader *r = w->r;
	int n = w->n = cmdio_regressor_cols(r, 1, &w->it, &w->ib, &w->irow, w->iy);
	if (w->o->weight)
		cli_die(EXIT_USAGE, "--segment auto: --weight is not taken (the segmentation weighs each row "
		    "index by its noise)");
	w->ntrue = estout_want_truth(r, n, w->tidx, w->names);
	/* the systematic part (estout.h): the input's scale_sd, its last value */
	w->isc = tbl_find(r, "scale_sd");
	w->scale_sd = (double)NAN;
	if (w->isc >= 0)
		tbl_want_nullable(r, w->isc);
	w->W = tagk_cp_width(n);
	w->Wr = 1 + w->W + (size_t)n + 2;
	w->k = 1;
}

/* The first sample is over: its row indices fix R, the arrays are made. */
static void
first_done(cprun *w)
{
	w->R = 0;
	for (int i = 0; i < w->nfirst; i++)
		if ((int)w->first[i][w->n + 1] + 1 > w->R)
			w->R = (int)w->first[i][w->n + 1] + 1;
	w->blk = xcalloc((size_t)MAX_BLOCKS * (size_t)w->R * w->Wr, sizeof(double));
	w->tfirst = xcalloc(MAX_BLOCKS, sizeof(double));
	w->tlast = xcalloc(MAX_BLOCKS, sizeof(double));
	w->ns = xcalloc(MAX_BLOCKS, sizeof(long));
	w->truth = xcalloc((size_t)MAX_BLOCKS * (size_t)(w->ntrue + 1), sizeof(double));
}

/* Pairs of blocks merged into one: k doubles, room for as many again. */
static void
halve(cprun *w)
{
	size_t S = (size_t)w->R * w->Wr;
	for (long i = 0; i < w->m / 2; i++) {
		double *d = w->blk + (size_t)i * S, *a = w->blk + (size_t)(2 * i) * S, *b = a + S;
		for (size_t q = 0; q < S; q++)
			d[q] = a[q] + b[q];
		w->tfirst[i] = w->tfirst[2 * i];
		w->tlast[i] = w->tlast[2 * i + 1];
		w->ns[i] = w->ns[2 * i] + w->ns[2 * i + 1];
		memcpy(w->truth + i * w->ntrue, w->truth + (2 * i + 1) * w->ntrue, (size_t)w->ntrue * sizeof(double));
	}
	w->m /= 2; /* MAX_BLOCKS is even: no block is left over */
	memset(w->blk + (size_t)w->m * S, 0, (size_t)(MAX_BLOCKS - w->m) * S * sizeof(double));
	w->k *= 2;
}

/* A new sample at t: a new block if the last is full. */
static void
new_sample(cprun *w, double t, const double *truth)
{
	if (w->m == 0 || w->ns[w->m - 1] == w->k) {
		if (w->m == MAX_BLOCKS)
			halve(w);
		w->ns[w->m] = 0; /* a block freed by halve() held a count */
		w->tfirst[w->m++] = t;
	}
	w->ns[w->m - 1]++;
	w->tlast[w->m - 1] = t;
	for (int j = 0; j < w->ntrue; j++)
		w->truth[(w->m - 1) * w->ntrue + j] = truth[j];
}

/* One row (y, b, its index) into the current block. */
static void
add_row(cprun *w, const double *y, double b, int idx)
{
	if (idx >= w->R)
		cli_die(EXIT_DATA, "%s: row %d: the first sample had rows 0 to %d only", tbl_where(w->r), idx, w->R - 1);
	double *d = w->blk + ((size_t)(w->m - 1) * (size_t)w->R + (size_t)idx) * w->Wr;
	d[0] += 1;
	tagk_cp_add_row(w->n, d + 1, y, b, 1);
	double u = (w->t_last - w->t0) * y[0], *x = d + 1 + w->W;
	for (int j = 0; j < w->n; j++)
		x[j] += u * y[j];
	x[w->n] += u * u;
	x[w->n + 1] += u * b;
	w->rows++;
}

/* The first sample, kept until its rows fixed R, into the blocks. */
static void
replay_first(cprun *w)
{
	first_done(w);
	new_sample(w, w->t_last, w->ftruth);
	for (int i = 0; i < w->nfirst; i++)
		add_row(w, w->first[i], w->first[i][w->n], (int)w->first[i][w->n + 1]);
}

/* One read; 0 at the end of the stream. */
static int
on_read(cprun *w, int rc)
{
	tbl_reader *r = w->r;
	const double *row = w->row;
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	if (rc == 0) {
		cmdio_sample_end(&w->sc, r, 1);
		if (w->samples == 1)
			replay_first(w);
		return 0;
	}
	double ri = row[w->irow];
	if (!(ri >= 0 && ri < TAGK_BATCH_ROWS) || ri != (double)(int)ri)
		cli_die(EXIT_DATA, "%s: row %g: a sample has rows 0 to %d at most", tbl_where(r), ri, TAGK_BATCH_ROWS - 1);
	cmdio_sample_row(&w->sc, r, row[w->it], ri);
	if (w->isc >= 0 && !isnan(row[w->isc])) {
		if (!(row[w->isc] >= 0 && row[w->isc] <= 1))
			cli_die(EXIT_DATA, "%s: scale_sd %g is not a relative sd (0 to 1)", tbl_where(r), row[w->isc]);
		w->scale_sd = row[w->isc];
	}
	double t = row[w->it];
	double y[TAGK_NPARAM + 2];
	for (int i = 0; i < w->n; i++)
		y[i] = row[w->iy[i]];
	y[w->n] = row[w->ib];
	y[w->n + 1] = ri;
	double s = 0;
	for (int i = 0; i <= w->n; i++)
		s += y[i];
	if (s - s != 0)
		cli_die(EXIT_DATA, "%s: a value that is not finite", tbl_where(r));
	if (w->samples == 0 || t != w->t_last) {
		if (w->samples && !(t > w->t_last))
			cli_die(EXIT_DATA, "%s: time does not increase", tbl_where(r));
		if (w->samples == 1)
			replay_first(w);
		w->samples++;
		w->t_last = t;
		if (w->samples == 1)
			w->t0 = t;
		double tr[TAGK_NPARAM];
		for (int j = 0; j < w->ntrue; j++)
			tr[j] = w->ftruth[j] = row[w->tidx[j]];
		if (w->samples > 1)
			new_sample(w, t, tr);
	}
	if (w->samples == 1) {
		if (w->nfirst == TAGK_BATCH_ROWS)
			cli_die(EXIT_DATA, "%s: a sample has more than %d rows", tbl_where(r), TAGK_BATCH_ROWS);
		memcpy(w->first[w->nfirst++], y, sizeof(y));
	} else
		add_row(w, y, y[w->n], (int)ri);
	return 1;
}

/* x = H^-1 h for H (n x n, overwritten by its factor) positive definite;
 * 0 if it is not (a pivot below 1e-12 of its diagonal). */
static int
spd_solve(int n, double *H, const double *h, double *x)
{
	for (int a = 0; a < n; a++) {
		double d = H[a * n + a];
		for (int q = 0; q < a; q++)
			d -= H[a * n + q] * H[a * n + q];
		if (!(d > 1e-12 * H[a * n + a]))
			return 0;
		H[a * n + a] = sqrt(d);
		for (int r = a + 1; r < n; r++) {
			double v = H[r * n + a];
			for (int q = 0; q < a; q++)
				v -= H[r * n + q] * H[a * n + q];
			H[r * n + a] = v / H[a * n + a];
		}
	}
	for (int a = 0; a < n; a++) {
		double v = h[a];
		for (int q = 0; q < a; q++)
			v -= H[a * n + q] * x[q];
		x[a] = v / H[a * n + a];
	}
	for (int a = n - 1; a >= 0; a--) {
		double v = x[a];
		for (int q = a + 1; q < n; q++)
			v -= H[q * n + a] * x[q];
		x[a] = v / H[a * n + a];
	}
	return 1;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The ordinary fit of blocks [i, j) and each row index's residual
 * variance into s2 (R values); 0 if the fit is singular. */
static int
window_var(cprun *w, long i, long j, double *s2)
{
	int n = w->n;
	size_t W = w->W;
	double S[TAGK_NPARAM * (TAGK_NPARAM + 1) / 2 + TAGK_NPARAM + 1] = { 0 }, cnt[TAGK_BATCH_ROWS] = { 0 };
	double per[TAGK_BATCH_ROWS][TAGK_NPARAM * (TAGK_NPARAM + 1) / 2 + TAGK_NPARAM + 1];
	memset(per, 0, sizeof(per));
	for (long b = i; b < j; b++)
		for (int r = 0; r < w->R; r++) {
			const double *d = w->blk + ((size_t)b * (size_t)w->R + (size_t)r) * w->Wr;
			cnt[r] += d[0];
			for (size_t q = 0; q < W; q++)
				per[r][q] += d[1 + q], S[q] += d[1 + q];
		}
	double H[TAGK_NPARAM * TAGK_NPARAM], x[TAGK_NPARAM];
	int q = 0;
	for (int a = 0; a < n; a++)
		for (int b = a; b < n; b++, q++)
			H[a * n + b] = H[b * n + a] = S[q];
	if (!spd_solve(n, H, S + q, x))
		return 0;
	double N = 0;
	for (int r = 0; r < w->R; r++)
		N += cnt[r];
	for (int r = 0; r < w->R; r++) {
		/* rss_r = c - 2 x.h + x^T H x from the index's own sums */
		const double *p = per[r];
		double quad = 0, lin = 0;
		q = 0;
		for (int a = 0; a < n; a++)
			for (int b = a; b < n; b++, q++)
				quad += (a == b ? 1 : 2) * x[a] * x[b] * p[q];
		for (int a = 0; a < n; a++)
			lin += x[a] * p[q + a];
		double rss = p[q + n] - 2 * lin + quad;
		s2[r] = cnt[r] > 0 && N > n ? (rss > 0 ? rss : 0) / cnt[r] * N / (N - n) : (double)NAN;
	}
	return 1;
}

/* Each row index's noise variance: given, or the median over windows of at
 * least max(20 n, 50) samples of the ordinary fit's residual variance, so
 * that the few windows a change spoils do not raise it. */
static void
noise(cprun *w)
{
	const batch_opts *o = w->o;
	if (o->noise_sd) {
		if (o->nnoise != w->R)
			cli_die(EXIT_USAGE, "--noise-sd: %d values, but %s has %d rows per sample", o->nnoise,
			    tbl_name(w->r), w->R);
		for (int r = 0; r < w->R; r++)
			w->sig2[r] = o->noise_sd[r] * o->noise_sd[r];
		return;
	}
	long want = 20L * w->n > 50 ? 20L * w->n : 50;
	long wb = (want + w->k - 1) / w->k, nw = w->m / wb > 0 ? w->m / wb : 1;
	double *v = xcalloc((size_t)nw * TAGK_BATCH_ROWS, sizeof(double));
	long got = 0;
	for (long i = 0; i < nw; i++) {
		double s2[TAGK_BATCH_ROWS];
		long j = i == nw - 1 ? w->m : (i + 1) * wb;
		if (window_var(w, i * wb, j, s2))
			memcpy(v + got++ * TAGK_BATCH_ROWS, s2, sizeof(s2));
	}
	if (!got)
		cli_die(EXIT_DATA, "%s: --segment auto: no window of %ld samples determines every parameter, so the "
		    "noise is unknown: give it with --noise-sd", tbl_name(w->r), want);
	for (int r = 0; r < w->R; r++) {
		double col[MAX_BLOCKS];
		long c = 0;
		for (long i = 0; i < got; i++)
			if (v[i * TAGK_BATCH_ROWS + r] == v[i * TAGK_BATCH_ROWS + r])
				col[c++] = v[i * TAGK_BATCH_ROWS + r];
		qsort(col, (size_t)c, sizeof(double), cmp_double);
		double med = c ? (c % 2 ? col[c / 2] : 0.5 * (col[c / 2 - 1] + col[c / 2])) : 0;
		/* noise-free rows (a simulation's exact b) would weigh infinitely */
		w->sig2[r] = med > 1e-300 ? med : 1e-300;
	}
	free(v);
}

/* The weighted sums of every block, their prefixes and the penalty. */
static void
prepare(cprun *w)
{
	size_t W = w->W;
	double *wb = xcalloc((size_t)w->m * W, sizeof(double));
	for (long b = 0; b < w->m; b++)
		for (int r = 0; r < w->R; r++) {
			const double *d = w->blk + ((size_t)b * (size_t)w->R + (size_t)r) * w->Wr + 1;
			for (size_t q = 0; q < W; q++)
				wb[(size_t)b * W + q] += d[q] / w->sig2[r];
		}
	w->hi = xcalloc((size_t)(w->m + 1) * W, sizeof(double));
	w->lo = xcalloc((size_t)(w->m + 1) * W, sizeof(double));
	w->ws = xcalloc((size_t)(w->n * w->n + w->n + 1), sizeof(double));
	tagk_cp_prefix(w->n, wb, w->m, w->hi, w->lo);
	free(wb);
	/* BIC: each further segment brings n parameters and a change time */
	w->beta = w->o->penalty >= 0 ? w->o->penalty : (w->n + 1) * log((double)w->rows);
	long minsamp = 10L * w->n > 20 ? 10L * w->n : 20;
	w->minlen = (minsamp + w->k - 1) / w->k;
}

static double
cost(cprun *w, long i, long j)
{
	return tagk_cp_cost(w->n, w->hi, w->lo, i, j, w->ws);
}

/* The optimal partitioning on a grid of at most GRID + 1 positions. */
static void
partition(cprun *w)
{
	long G = (w->m + GRID - 1) / GRID, K = (w->m + G - 1) / G;
	long *pos = xcalloc((size_t)K + 1, sizeof(long)), *last = xcalloc(2 * ((size_t)K + 1), sizeof(long));
	long *active = xcalloc((size_t)K + 1, sizeof(long));
	double *F = xcalloc(2 * ((size_t)K + 1), sizeof(double)), total;
	for (long i = 0; i < K; i++)
		pos[i] = i * G;
	pos[K] = w->m;
	w->ncp = tagk_cp_segment(w->n, w->hi, w->lo, pos, K, w->minlen, w->beta, F, last, active, w->ws, w->cp,
	    MAX_CHANGES, &total);
	if (w->ncp < 0)
		cli_die(EXIT_DATA, "%s: --segment auto: more than %d changes: raise --penalty", tbl_name(w->r),
		    MAX_CHANGES);
	free(pos);
	free(last);
	free(active);
	free(F);
}

/* The profile of change i's position between its neighbours: the best
 * position into cp[i], the range within PROFILE_95 of it into lo, hi. */
static void
profile(cprun *w, long i, long *plo, long *phi)
{
	long a = i ? w->cp[i - 1] : 0, b = i + 1 < w->ncp ? w->cp[i + 1] : w->m;
	long from = a + w->minlen, to = b - w->minlen;
	if (from > to) { /* neighbours too close for the minimum: keep it */
		*plo = *phi = w->cp[i];
		return;
	}
	double best = INFINITY;
	double *pr = xcalloc((size_t)(to - from + 1), sizeof(double));
	for (long t = from; t <= to; t++) {
		pr[t - from] = cost(w, a, t) + cost(w, t, b);
		if (pr[t - from] < best)
			best = pr[t - from], w->cp[i] = t;
	}
	*plo = *phi = w->cp[i];
	for (long t = from; t <= to; t++)
		if (pr[t - from] <= best + PROFILE_95) {
			if (t < *plo)
				*plo = t;
			if (t > *phi)
				*phi = t;
		}
	free(pr);
}

/* The Newey-West sd of blocks [i, j) (tagk_batch_sd_hac) into sd: the
 * blocks' sums in its layout, consecutive blocks summed so that at most
 * MAX_HAC remain; 0 (sd untouched) with fewer than two. */
static int
hac_sd(cprun *w, const tagk_batch *q, long i, long j, const tagk_real *theta, tagk_real *sd)
{
	const int n = w->n;
	const size_t len = TAGK_BATCH_BLOCK_LEN(n), rl = (size_t)(n * n + n);
	long per = (j - i + MAX_HAC - 1) / MAX_HAC, ng = per > 0 ? (j - i + per - 1) / per : 0;
	if (ng < 2)
		return 0;
	if (!w->hb) {
		w->hb = xcalloc(MAX_HAC * len, sizeof(double));
		w->hg = xcalloc((size_t)MAX_HAC * (size_t)n, sizeof(double));
	}
	memset(w->hb, 0, (size_t)ng * len * sizeof(double));
	for (long bk = i; bk < j; bk++)
		for (int r = 0; r < w->R; r++) {
			const double *d = w->blk + ((size_t)bk * (size_t)w->R + (size_t)r) * w->Wr;
			double *H = w->hb + (size_t)((bk - i) / per) * len + (size_t)r * rl, *h = H + n * n;
			int k = 1;
			for (int a = 0; a < n; a++)
				for (int b = a; b < n; b++, k++) {
					H[a * n + b] += d[k];
					if (b != a)
						H[b * n + a] += d[k];
				}
			for (int a = 0; a < n; a++)
				h[a] += d[k++];
		}
	return tagk_batch_sd_hac(q, theta, w->hb, (int)ng, w->hg, sd, NULL) == TAGK_OK;
}

/* The method's estimate of blocks [i, j) and its sd; 0 if it fails. */
static int
estimate(cprun *w, tagk_batch *q, long i, long j, tagk_real *theta, tagk_real *sd, int *have_sd)
{
	int n = w->n;
	tagk_batch_clear(q);
	q->nrows = w->R;
	for (long bk = i; bk < j; bk++)
		for (int r = 0; r < w->R; r++) {
			const double *d = w->blk + ((size_t)bk * (size_t)w->R + (size_t)r) * w->Wr;
			int k = 1;
			q->count[r] += (long)d[0];
			for (int a = 0; a < n; a++)
				for (int b = a; b < n; b++, k++) {
					q->H[r][a * n + b] += d[k];
					if (b != a)
						q->H[r][b * n + a] += d[k];
				}
			for (int a = 0; a < n; a++)
				q->h[r][a] += d[k++];
			q->c[r] += d[k];
		}
	if (tagk_batch_solve(q, theta) != TAGK_OK)
		return 0;
	*have_sd = (w->hac && hac_sd(w, q, i, j, theta, sd)) || tagk_batch_sd(q, theta, sd) == TAGK_OK;
	return 1;
}

/* The fit of blocks [i, j) with m moving linearly in time (the n
 * parameters and the drift column, weighted as the cost is): its residual
 * into *cost, the rate dm/dt and its sd into rate[0], rate[1]; 0 if
 * singular. */
static int
drift_fit(cprun *w, long i, long j, double *cost_out, double *rate)
{
	int n = w->n, n1 = n + 1;
	double H[(TAGK_NPARAM + 1) * (TAGK_NPARAM + 1)] = { 0 }, h[TAGK_NPARAM + 1] = { 0 }, c = 0;
	for (long bk = i; bk < j; bk++)
		for (int r = 0; r < w->R; r++) {
			const double *d = w->blk + ((size_t)bk * (size_t)w->R + (size_t)r) * w->Wr + 1;
			const double *x = d + w->W;
			double wt = 1 / w->sig2[r];
			int k = 0;
			for (int a = 0; a < n; a++)
				for (int b = a; b < n; b++, k++)
					H[a * n1 + b] += wt * d[k];
			for (int a = 0; a < n; a++)
				h[a] += wt * d[k++];
			c += wt * d[k];
			for (int a = 0; a < n; a++)
				H[a * n1 + n] += wt * x[a];
			H[n * n1 + n] += wt * x[n];
			h[n] += wt * x[n + 1];
		}
	for (int a = 0; a < n1; a++)
		for (int b = 0; b < a; b++)
			H[a * n1 + b] = H[b * n1 + a];
	double L[(TAGK_NPARAM + 1) * (TAGK_NPARAM + 1)], x[TAGK_NPARAM + 1], e[TAGK_NPARAM + 1] = { 0 }, v[TAGK_NPARAM + 1];
	memcpy(L, H, sizeof(L));
	if (!spd_solve(n1, L, h, x))
		return 0;
	memcpy(L, H, sizeof(L));
	e[n] = 1;
	spd_solve(n1, L, e, v); /* column n of H^-1: the drift's variance */
	double fit = 0;
	for (int a = 0; a < n1; a++)
		fit += h[a] * x[a];
	*cost_out = c - fit > 0 ? c - fit : 0;
	rate[0] = x[n];
	rate[1] = v[n] > 0 ? sqrt(v[n]) : (double)NAN;
	return 1;
}

/* Every segment's estimate, sd (NaN where none) and 1 where it solved. */
static void
estimate_all(cprun *w, tagk_batch *q, tagk_real (*th)[TAGK_NPARAM], tagk_real (*sd)[TAGK_NPARAM], int *ok)
{
	for (long s = 0; s <= w->ncp; s++) {
		long a = s ? w->cp[s - 1] : 0, b = s < w->ncp ? w->cp[s] : w->m;
		int have = 0;
		ok[s] = estimate(w, q, a, b, th[s], sd[s], &have);
		for (int j = 0; !have && j < w->n; j++)
			sd[s][j] = (tagk_real)NAN;
	}
}

/* With blocks of k > 1 samples, the block a step falls in fits neither
 * side and can come out as a short segment of its own between the two,
 * its m between theirs: such a segment (at most 2 minlen blocks) is taken
 * as one change inside it, placed by the profile between the outer
 * neighbours. Returns 1 if one was merged. */
static int
sandwich(cprun *w, tagk_real (*th)[TAGK_NPARAM], const int *ok)
{
	for (long s = 1; w->k > 1 && s < w->ncp; s++) {
		double l = (double)th[s - 1][0], c = (double)th[s][0], r = (double)th[s + 1][0];
		if (!ok[s - 1] || !ok[s] || !ok[s + 1] || w->cp[s] - w->cp[s - 1] > 2 * w->minlen ||
		    !((l < c && c < r) || (l > c && c > r)))
			continue;
		memmove(w->drift + s, w->drift + s + 1, (size_t)(w->ncp - s) * sizeof(int));
		memmove(w->cp + s, w->cp + s + 1, (size_t)(w->ncp - s - 1) * sizeof(long));
		w->ncp--;
		long lo, hi;
		profile(w, s - 1, &lo, &hi);
		return 1;
	}
	return 0;
}

/* Whether the change of m from blocks [a, ...) to [..., b) comes by many
 * small steps: in the segmentation before merging, no single step between
 * a and b carries half of the net change. Coloured residuals make a slow
 * drift cost more as a line than as a step, but its exact segmentation
 * is then a staircase, where a payload dropped is one step. */
static int
gradual(cprun *w, long a, long b)
{
	double first = NAN, last = NAN, big = 0;
	for (long k = 0; k <= w->nraw; k++) {
		long s0 = k ? w->raw[k - 1] : 0, s1 = k < w->nraw ? w->raw[k] : w->m;
		if (s0 < a || s1 > b || w->rawm[k] != w->rawm[k])
			continue;
		if (first != first)
			first = w->rawm[k];
		else
			big = fmax(big, fabs(w->rawm[k] - last));
		last = w->rawm[k];
	}
	return first == first && big < 0.5 * fabs(last - first);
}

/* Whether change i is better told as a drift: the one segment from its
 * left neighbour to its right one with m moving linearly in time (one
 * parameter more, ln(rows)) costs less than the step (beta), or the
 * change is gradual (above). Returns a
 * number in [-2, -1) if so, the lower the clearer (merged first, before
 * any small step), else 0. */
static double
drift_margin(cprun *w, long i)
{
	long a = i ? w->cp[i - 1] : 0, b = i + 1 < w->ncp ? w->cp[i + 1] : w->m;
	double dc, rate[2];
	if (!drift_fit(w, a, b, &dc, rate))
		return 0;
	double step = cost(w, a, w->cp[i]) + cost(w, w->cp[i], b) + w->beta;
	double d = dc + log((double)w->rows) - step;
	if (d > 0 && !gradual(w, a, b))
		return 0;
	return d <= 0 ? -1 + d / (1 - d) : -1;
}

/* A change's size against the minimum effect, 1 at the threshold, from
 * the estimates and sd before (a, sa) and after (b, sb): the step in m
 * (the first parameter) over the larger of min_z sd of the step (the two
 * sd in quadrature) and min_rel of the larger m. With --min-shift C, for
 * a rigid body (ten parameters or more, m > 0 on both sides), also the
 * move of its centre of mass c = mc / m, which a payload shifted makes
 * with m unchanged: the smaller of its first moment's largest step over
 * min_z sd and |c' - c| over C; the larger of the two. Not by default:
 * on the real Crazyflie log201 c moves between the cost's segments by up
 * to 1.5 cm (z) and 1.6 mm (x, y), coloured residuals no sd shows, more
 * than a payload shifted on a 35 g quadrotor moves it (0.5-3 mm). */
static double
effect(const cprun *w, const tagk_real *a, const tagk_real *sa, const tagk_real *b, const tagk_real *sb)
{
	double z = w->o->min_z, C = w->o->min_shift, a0 = (double)a[0], b0 = (double)b[0];
	double d = fabs(b0 - a0), sdd = hypot((double)sa[0], (double)sb[0]);
	double thr = fmax(sdd == sdd ? z * sdd : 0, w->o->min_rel * fmax(fabs(a0), fabs(b0)));
	double r = thr > 0 ? d / thr : (double)INFINITY;
	if (!(C > 0) || w->n < 10 || !(a0 > 0 && b0 > 0))
		return r;
	double zc = 0, dc2 = 0;
	for (int j = 1; j <= 3; j++) {
		double s = hypot((double)sa[j], (double)sb[j]), dm = fabs((double)b[j] - (double)a[j]);
		zc = fmax(zc, z > 0 && s == s ? dm / (z * s) : (double)INFINITY);
		double dc = (double)b[j] / b0 - (double)a[j] / a0;
		dc2 += dc * dc;
	}
	return fmax(r, fmin(zc, sqrt(dc2) / C));
}

/* The changes too small to be one merged away (effect() below 1), the
 * weakest first, or next to a segment the method cannot solve. */
static void
merge(cprun *w, tagk_batch *q, tagk_real (*th)[TAGK_NPARAM], tagk_real (*sd)[TAGK_NPARAM], int *ok)
{
	for (;;) {
		estimate_all(w, q, th, sd, ok);
		if (w->o->min_z == 0 && w->o->min_rel == 0) /* --min-effect 0,0: the bare optimum */
			return;
		if (sandwich(w, th, ok))
			continue;
		long worst = -1;
		double wr = 1;
		for (long i = 0; i < w->ncp; i++) {
			double r = drift_margin(w, i);
			if (r >= 0 && ok[i] && ok[i + 1])
				r = effect(w, th[i], sd[i], th[i + 1], sd[i + 1]);
			if (r < wr)
				wr = r, worst = i;
		}
		if (worst < 0)
			return;
		w->drift[worst] = w->drift[worst] || w->drift[worst + 1] || drift_margin(w, worst) < 0;
		memmove(w->drift + worst + 1, w->drift + worst + 2, (size_t)(w->ncp - worst - 1) * sizeof(int));
		memmove(w->cp + worst, w->cp + worst + 1, (size_t)(w->ncp - worst - 1) * sizeof(long));
		w->ncp--;
		long lo, hi;
		for (long i = worst - 1; i <= worst; i++)
			if (i >= 0 && i < w->ncp)
				profile(w, i, &lo, &hi);
	}
}

/* Whether a drift of rate[0] +- rate[1] over dur seconds from m is worth
 * saying: its whole change at least the minimum effect of a step
 * (--min-effect: Z sd and REL of m). Noise-free rows, where merging is
 * decided by rounding, drift by 1e-16. */
static int
drift_shown(const cprun *w, const double *rate, double dur, tagk_real m)
{
	double d = fabs(rate[0]) * dur;
	return d >= w->o->min_z * rate[1] * dur && d >= w->o->min_rel * fabs((double)m);
}

/* One row per segment: t (its end), the estimate, sd, truth at its end,
 * t_start, t_end, the interval of t_start, and for a drift (changes
 * merged as one) its rate dm/dt and sd. */
static void
write_rows(cprun *w, tagk_real (*th)[TAGK_NPARAM], tagk_real (*sd)[TAGK_NPARAM], const long *lo, const long *hi)
{
	static const char *const extra[] = { "t_start", "t_end", "t_start_lo", "t_start_hi", "dm_dt", "sd_dm_dt" };
	estout out;
	if (w->isc >= 0)
		estout_scale_from(w->r);
	estout_open_extra(&out, w->o->outname, w->n, 1, w->ntrue, w->names, 6, extra);
	out.scale_sd = w->scale_sd;
	estout_project(&out, !w->o->raw);
	for (long s = 0; s <= w->ncp; s++) {
		long a = s ? w->cp[s - 1] : 0, b = s < w->ncp ? w->cp[s] : w->m;
		double x[6] = { w->tfirst[a], w->tlast[b - 1], NAN, NAN, NAN, NAN }, dc;
		if (w->drift[s] && drift_fit(w, a, b, &dc, x + 4) && !drift_shown(w, x + 4, x[1] - x[0], th[s][0]))
			x[4] = x[5] = NAN;
		if (s) {
			/* blocks of k > 1 samples: the change may lie anywhere in the
			 * block before the first in the range */
			x[2] = w->tfirst[w->k > 1 ? lo[s - 1] - 1 : lo[s - 1]];
			x[3] = w->tfirst[w->k > 1 && hi[s - 1] + 1 < w->m ? hi[s - 1] + 1 : hi[s - 1]];
		}
		estout_row_extra(&out, x[1], th[s], sd[s], w->truth + (b - 1) * w->ntrue, x);
	}
	sink_note(out.out, "method", w->o->method->name);
	sink_note(out.out, "sd_noise", w->hac ? "newey-west" : "white");
	estout_scale_note(&out, w->r);
	estout_commit(&out, w->o->quiet);
}

/* The stderr line: the changes, the cost and how it was weighed. */
static void
say(cprun *w)
{
	double total = w->beta * (double)w->ncp;
	for (long s = 0; s <= w->ncp; s++)
		total += cost(w, s ? w->cp[s - 1] : 0, s < w->ncp ? w->cp[s] : w->m);
	char sds[TAGK_BATCH_ROWS * 26] = "", one[32];
	for (int r = 0; r < w->R; r++) {
		/* a row index without residual (all zero, or exact) was floored at
		 * 1e-300 to weigh finitely; its noise is said as 0, not 1e-150 */
		snprintf(one, sizeof(one), "%.6g", w->sig2[r] > 1e-300 ? sqrt(w->sig2[r]) : 0);
		snprintf(sds + strlen(sds), sizeof(sds) - strlen(sds), "%s%s", r ? "," : "", one);
	}
	/* the noise sds in six digits, as the other figures on stderr: enough
	 * to pass back as --noise-sd (the segments come out the same unless a
	 * change's cost sits within 1e-6 of its penalty); the cost in ten, for
	 * comparing it with another solver's (tests/changes_oracle.py) */
	cli_warn("--segment auto: %ld change%s; cost %.10g with %.6g per change; noise sd %s; %ld sample%s per block",
	    w->ncp, w->ncp == 1 ? "" : "s", total, w->beta, sds, w->k, w->k == 1 ? "" : "s");
}

static void
open_run(cprun *w, const batch_opts *o, const char *input, tagk_batch **q)
{
	*w = (cprun){ .o = o, .t_last = -INFINITY };
	w->r = cmdio_open_input(input, &o->in);
	columns(w);
	w->row = xcalloc((size_t)tbl_ncols(w->r), sizeof(double));
	*q = xcalloc(1, sizeof(**q));
	if (tagk_batch_init(*q, o->method, w->n) != TAGK_OK)
		cli_die(EXIT_USAGE, "%s: cannot estimate %d parameters", o->method->name, w->n);
	if (o->theta0) {
		tagk_real t0[TAGK_NPARAM];
		if (o->ntheta0 != w->n)
			cli_die(EXIT_USAGE, "--theta0: %d values, but %s estimates %d parameters", o->ntheta0,
			    tbl_name(w->r), w->n);
		for (int j = 0; j < w->n; j++)
			t0[j] = (tagk_real)o->theta0[j];
		if (tagk_batch_set_prior(*q, t0, (tagk_real)o->prior_weight) != TAGK_OK)
			cli_die(EXIT_USAGE, "--theta0, --prior-weight: not a prior %s takes", o->method->name);
	}
}

int
estimate_changes(const batch_opts *o, const char *input)
{
	static cprun w;
	static tagk_real th[MAX_CHANGES + 1][TAGK_NPARAM], sd[MAX_CHANGES + 1][TAGK_NPARAM];
	static int ok[MAX_CHANGES + 1];
	static long lo[MAX_CHANGES], hi[MAX_CHANGES];
	tagk_batch *q;
	if (!((const tagk_batch_ops *)o->method->ops)->solve)
		cli_die(EXIT_USAGE, "--segment auto: %s keeps every sample; use ols, wls, ols-pc or wls-pc", o->method->name);
	open_run(&w, o, input, &q);
	while (on_read(&w, tbl_next(w.r, w.row)))
		;
	if (w.samples == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(w.r));
	noise(&w);
	prepare(&w);
	partition(&w);
	for (int pass = 0; pass < 2; pass++)
		for (long i = 0; i < w.ncp; i++)
			profile(&w, i, &lo[i], &hi[i]);
	w.nraw = w.ncp;
	memcpy(w.raw, w.cp, sizeof(w.cp));
	estimate_all(&w, q, th, sd, ok);
	for (long s = 0; s <= w.ncp; s++)
		w.rawm[s] = ok[s] ? (double)th[s][0] : (double)NAN;
	merge(&w, q, th, sd, ok);
	for (long i = 0; i < w.ncp; i++)
		profile(&w, i, &lo[i], &hi[i]);
	/* the written sd count correlated residuals; the merges above kept
	 * the white sandwich their thresholds were measured with */
	w.hac = 1;
	estimate_all(&w, q, th, sd, ok);
	if (!ok[0])
		cli_die(EXIT_DATA, "%s: the data do not determine every parameter (a singular normal matrix): use a "
		    "-pc method or a longer log", tbl_name(w.r));
	if (!o->quiet)
		say(&w);
	write_rows(&w, th, sd, lo, hi);
	if (tbl_skipped(w.r))
		cli_warn("skipped %ld bad row%s", tbl_skipped(w.r), tbl_skipped(w.r) == 1 ? "" : "s");
	tbl_close(w.r);
	free(w.row);
	free(q);
	free(w.hb);
	free(w.hg);
	return 0;
}
