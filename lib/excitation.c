/* excitation.c: unexcited parameter directions; see excitation.h. */
#include <string.h>
#include "excitation.h"
#include "linalg.h"

void
tagk_excitation_init(tagk_excitation *x, int n)
{
	memset(x, 0, sizeof(*x));
	x->n = n;
}

static void
flush(tagk_excitation *x)
{
	const int n = x->n, nb = x->nb;
	for (int i = 0; i < n; i++)
		for (int j = i; j < n; j++) {
			/* four partial sums: independent chains, not one serial one */
			double s[4] = { 0, 0, 0, 0 };
			int k = 0;
			for (; k + 4 <= nb; k += 4)
				for (int l = 0; l < 4; l++)
					s[l] += x->B[i][k + l] * x->B[j][k + l];
			for (; k < nb; k++)
				s[0] += x->B[i][k] * x->B[j][k];
			x->G[i * n + j] += (s[0] + s[1]) + (s[2] + s[3]);
		}
	x->nb = 0;
}

void
tagk_excitation_add(tagk_excitation *x, const double *y)
{
	for (int i = 0; i < x->n; i++)
		x->B[i][x->nb] = y[i];
	if (++x->nb == TAGK_EXC_BATCH)
		flush(x);
}

int
tagk_excitation_unexcited(const tagk_excitation *acc, double eps, int named[TAGK_NPARAM], int *combo)
{
	tagk_excitation all = *acc, *x = &all;
	flush(x);
	const int n = x->n;
	tagk_real S[TAGK_NPARAM * TAGK_NPARAM], w[TAGK_NPARAM], V[TAGK_NPARAM * TAGK_NPARAM],
	    scratch[TAGK_NPARAM * TAGK_NPARAM];
	for (int i = 0; i < n; i++)
		for (int j = i; j < n; j++)
			S[i * n + j] = S[j * n + i] = (tagk_real)x->G[i * n + j];
	for (int j = 0; j < n; j++)
		named[j] = 0;
	*combo = 0;
	if (tagk_symeig(n, S, w, V, scratch) != TAGK_OK)
		return 0;
	if (eps <= 0)
		eps = 1e-10 * (double)w[n - 1];
	int found = 0;
	for (int k = 0; k < n && (double)w[k] < eps; k++) {
		int in = 0;
		for (int j = 0; j < n; j++) {
			double v = (double)V[j * n + k];
			if (v >= 0.3 || v <= -0.3)
				named[j] = 1, in++;
		}
		*combo |= in > 1;
		found++;
	}
	return found;
}

double
tagk_window_pace(const tagk_real *A, int m, int n)
{
	if (m < n || n > TAGK_NPARAM)
		return 0;
	tagk_real S[TAGK_NPARAM * TAGK_NPARAM] = { 0 }, w[TAGK_NPARAM], scratch[TAGK_NPARAM * TAGK_NPARAM];
	tagk_syrk_t(m, n, A, 0, S);
	if (tagk_symeig(n, S, w, NULL, scratch) != TAGK_OK)
		return 0;
	double tr = 0;
	for (int j = 0; j < n; j++)
		tr += (double)S[j * n + j];
	return w[0] > 0 ? tr / (double)w[0] : 0;
}
