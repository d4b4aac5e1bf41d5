/* changepoint.c: segment costs from sufficient statistics, and PELT; see
 * changepoint.h. */
#include <math.h>
#include "changepoint.h"

size_t
tagk_cp_width(int n)
{
	return (size_t)(n * (n + 1) / 2 + n + 1);
}

void
tagk_cp_add_row(int n, double *blk, const double *y, double b, double w)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		for (int j = i; j < n; j++)
			blk[k++] += w * y[i] * y[j];
	for (int i = 0; i < n; i++)
		blk[k++] += w * y[i] * b;
	blk[k] += w * b * b;
}

void
tagk_cp_prefix(int n, const double *blocks, long m, double *hi, double *lo)
{
	size_t W = tagk_cp_width(n);
	for (size_t k = 0; k < W; k++)
		hi[k] = lo[k] = 0;
	for (long i = 0; i < m; i++) {
		const double *x = blocks + (size_t)i * W;
		const double *h0 = hi + (size_t)i * W, *l0 = lo + (size_t)i * W;
		double *h1 = hi + (size_t)(i + 1) * W, *l1 = lo + (size_t)(i + 1) * W;
		for (size_t k = 0; k < W; k++) {
			/* two-sum: s + e = h0 + x exactly */
			double s = h0[k] + x[k], bb = s - h0[k];
			double e = (h0[k] - (s - bb)) + (x[k] - bb);
			h1[k] = s;
			l1[k] = l0[k] + e;
		}
	}
}

double
tagk_cp_cost(int n, const double *hi, const double *lo, long i, long j, double *ws)
{
	size_t W = tagk_cp_width(n);
	const double *hj = hi + (size_t)j * W, *hii = hi + (size_t)i * W;
	const double *lj = lo + (size_t)j * W, *lii = lo + (size_t)i * W;
	double *L = ws, *z = ws + n * n;
	int k = 0;
	/* L holds H (upper triangle mirrored) then, in place, its Cholesky factor */
	for (int a = 0; a < n; a++)
		for (int b = a; b < n; b++, k++)
			L[b * n + a] = L[a * n + b] = (hj[k] - hii[k]) + (lj[k] - lii[k]);
	for (int a = 0; a < n; a++, k++)
		z[a] = (hj[k] - hii[k]) + (lj[k] - lii[k]);
	double c = (hj[k] - hii[k]) + (lj[k] - lii[k]);
	double rss = c;
	for (int a = 0; a < n; a++) {
		double diag = L[a * n + a], d = diag;
		for (int q = 0; q < a; q++)
			d -= L[a * n + q] * L[a * n + q];
		if (!(d > 1e-10 * diag)) { /* dependent on earlier columns: left out */
			for (int r = a; r < n; r++)
				L[r * n + a] = 0;
			z[a] = 0;
			continue;
		}
		double s = sqrt(d);
		L[a * n + a] = s;
		for (int r = a + 1; r < n; r++) {
			double v = L[a * n + r]; /* H[a][r], still intact above the diagonal */
			for (int q = 0; q < a; q++)
				v -= L[r * n + q] * L[a * n + q];
			L[r * n + a] = v / s;
		}
		double v = z[a];
		for (int q = 0; q < a; q++)
			v -= L[a * n + q] * z[q];
		z[a] = v / s;
		rss -= z[a] * z[a];
	}
	return rss > 0 ? rss : 0;
}

long
tagk_cp_segment(int n, const double *hi, const double *lo, const long *pos, long K, long minlen, double beta,
    double *F, long *last, long *active, double *ws, long *cp, long maxcp, double *total)
{
	double *cost = F + K + 1; /* C(s, t) of the active s, this t */
	long *beaten = last + K + 1; /* where s was first beaten, or -1 */
	long na = 1;
	F[0] = -beta;
	last[0] = 0;
	active[0] = 0;
	beaten[0] = -1;
	for (long t = 1; t <= K; t++) {
		double best = INFINITY;
		long arg = -1;
		for (long a = 0; a < na; a++) {
			long s = active[a];
			cost[a] = pos[t] - pos[s] < minlen ? (double)INFINITY : tagk_cp_cost(n, hi, lo, pos[s], pos[t], ws);
			double v = F[s] + cost[a] + beta;
			if (v < best) { /* ties: the earliest change */
				best = v;
				arg = s;
			}
		}
		F[t] = best;
		last[t] = arg;
		/* PELT: F(s) + C(s, t) > F(t) means s is beaten by t for every
		 * later u that t can end a segment for (C(s, u) >= C(s, t) +
		 * C(t, u)), so s leaves once u is minlen past t: exact with a
		 * minimum length too */
		long keep = 0;
		for (long a = 0; a < na; a++) {
			long s = active[a];
			if (beaten[s] < 0 && isfinite(cost[a]) && F[s] + cost[a] > best)
				beaten[s] = t;
			if (beaten[s] >= 0 && t < K && pos[t + 1] - pos[beaten[s]] >= minlen)
				continue;
			active[keep++] = s;
		}
		na = keep;
		beaten[t] = -1;
		if (isfinite(best))
			active[na++] = t;
	}
	*total = F[K];
	if (!isfinite(F[K])) /* no segment of minlen blocks fits: one segment */
		return 0;
	long count = 0;
	for (long t = last[K]; t > 0; t = last[t])
		count++;
	if (count > maxcp)
		return -1;
	long k = count;
	for (long t = last[K]; t > 0; t = last[t])
		cp[--k] = pos[t];
	return count;
}
