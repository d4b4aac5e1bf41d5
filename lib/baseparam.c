/* baseparam.c: base parameters by QR with column pivoting; see baseparam.h. */
#include <math.h>
#include "baseparam.h"

/* Swap columns a and b of W (rows x n) and their bookkeeping. */
static void
swap_cols(int rows, int n, tagk_real *W, int a, int b, int *perm, tagk_real *norm)
{
	for (int i = 0; i < rows; i++) {
		tagk_real t = W[i * n + a];
		W[i * n + a] = W[i * n + b], W[i * n + b] = t;
	}
	int p = perm[a];
	perm[a] = perm[b], perm[b] = p;
	tagk_real t = norm[a];
	norm[a] = norm[b], norm[b] = t;
}

/* The squared norms of columns k.. from row k down. */
static void
col_norms(int rows, int n, const tagk_real *W, int k, tagk_real *norm)
{
	for (int j = k; j < n; j++) {
		tagk_real s = 0;
		for (int i = k; i < rows; i++)
			s += W[i * n + j] * W[i * n + j];
		norm[j] = s;
	}
}

/* Householder reflection of column k from row k, applied to columns k..:
 * the reflector's vector is column k itself (W[k][k] - alpha below), then
 * the column becomes (alpha, 0, ...). */
static void
householder(int rows, int n, tagk_real *W, int k)
{
	tagk_real s = 0;
	for (int i = k; i < rows; i++)
		s += W[i * n + k] * W[i * n + k];
	tagk_real alpha = W[k * n + k] > 0 ? -(tagk_real)sqrt(s) : (tagk_real)sqrt(s);
	W[k * n + k] -= alpha;
	tagk_real vv = s - 2 * alpha * (W[k * n + k] + alpha) + alpha * alpha; /* |x - alpha e|^2 */
	for (int j = k + 1; vv > 0 && j < n; j++) {
		tagk_real d = 0;
		for (int i = k; i < rows; i++)
			d += W[i * n + k] * W[i * n + j];
		d = 2 * d / vv;
		for (int i = k; i < rows; i++)
			W[i * n + j] -= d * W[i * n + k];
	}
	W[k * n + k] = alpha;
	for (int i = k + 1; i < rows; i++)
		W[i * n + k] = 0;
}

tagk_status
tagk_base_qr(int rows, int n, tagk_real *W, tagk_real tol, int *perm, int *rank, tagk_real *beta, tagk_real *work)
{
	if (rows < 1 || n < 1 || !(tol > 0 && tol < 1))
		return TAGK_EINVAL;
	for (long i = 0; i < (long)rows * n; i++)
		if (!isfinite(W[i]))
			return TAGK_ENONFINITE;
	tagk_real *norm = work;
	const int kmax = rows < n ? rows : n;
	for (int j = 0; j < n; j++)
		perm[j] = j;
	col_norms(rows, n, W, 0, norm);
	tagk_real first = 0;
	int r = 0;
	for (int k = 0; k < kmax; k++) {
		/* the norms are recomputed, not downdated: downdating loses
		 * the small ones that decide the rank */
		col_norms(rows, n, W, k, norm);
		int best = k;
		for (int j = k + 1; j < n; j++)
			if (norm[j] > norm[best])
				best = j;
		if (k == 0)
			first = (tagk_real)sqrt(norm[best]);
		if (!(first > 0) || !((tagk_real)sqrt(norm[best]) > tol * first))
			break;
		if (best != k)
			swap_cols(rows, n, W, k, best, perm, norm);
		householder(rows, n, W, k);
		r++;
	}
	*rank = r;
	/* beta = R11^-1 R12 by back substitution, column by column */
	const int nd = n - r;
	for (int j = 0; j < nd; j++)
		for (int i = r - 1; i >= 0; i--) {
			tagk_real s = W[i * n + r + j];
			for (int l = i + 1; l < r; l++)
				s -= W[i * n + l] * beta[l * nd + j];
			beta[i * nd + j] = s / W[i * n + i];
		}
	return TAGK_OK;
}
