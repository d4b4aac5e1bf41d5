/* wholearm.c: whole-arm rows and base parameters; see wholearm.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "wholearm.h"

static const char *const fr_names[] = { "fv", "fc", "fo", "fs" };

int
wa_wanted(const char *arg)
{
	return strcmp(arg, "all") == 0 || strchr(arg, ',') != NULL;
}

/* The friction terms' values at velocity qd (in fr_names' order, those in kinds). */
static int
fr_terms(int kinds, double smooth, double qd, double *x)
{
	int k = 0;
	double s = smooth > 0 ? tanh(qd / smooth) : (qd > 0) - (qd < 0);
	if (kinds & WA_FV)
		x[k++] = qd;
	if (kinds & WA_FC)
		x[k++] = s;
	if (kinds & WA_FO)
		x[k++] = 1;
	if (kinds & WA_FS)
		x[k++] = s * s;
	return k;
}

void
wa_init(wholearm *w, const mbmodel *mm, const char *list, int kinds, double smooth)
{
	const tagk_mb_model *m = &mm->m;
	memset(w, 0, sizeof(*w));
	w->nj = m->nb - 1;
	w->off = m->floating ? 6 : 0;
	w->kinds = kinds;
	w->smooth = smooth;
	double x[4];
	w->nfr = fr_terms(kinds, smooth, 0, x);
	if ((kinds & WA_FS) && !(smooth > 0))
		cli_die(EXIT_USAGE, "--friction-terms sigmoid needs --coulomb-smooth V > 0 (with sign(qd) its "
		    "square is the offset)");
	if (strcmp(list, "all") == 0) {
		for (int i = m->floating ? 0 : 1; i < m->nb; i++)
			w->body[w->nu++] = i;
	} else {
		char buf[4096], *save = NULL;
		snprintf(buf, sizeof(buf), "%s", list);
		int seen[TAGK_MB_MAX_BODIES] = { 0 };
		for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			int u = mbmodel_find(mm, tok);
			if (u < 0)
				cli_die(EXIT_USAGE, "--unknown: no body '%s' in the model", tok);
			if (u == 0 && !m->floating)
				cli_die(EXIT_USAGE, "--unknown %s: the fixed base's parameters never enter the joint forces "
				    "(the ground holds it): choose moving bodies", tok);
			if (seen[u]++)
				cli_die(EXIT_USAGE, "--unknown: body '%s' listed twice", tok);
		}
		for (int i = 0; i < m->nb; i++)
			if (seen[i])
				w->body[w->nu++] = i;
	}
	if (w->nu == 0)
		cli_die(EXIT_USAGE, "--unknown %s: no moving body to estimate", list);
	w->n = TAGK_NPARAM * w->nu + w->nfr * w->nj;
}

int
wa_ncols(const wholearm *w)
{
	return w->base ? w->rank : w->n;
}

void
wa_std_name(const wholearm *w, const mbmodel *mm, int k, char name[WA_NAME])
{
	if (k < TAGK_NPARAM * w->nu) {
		snprintf(name, WA_NAME, "%s_%s", tagk_param_names[k % TAGK_NPARAM], mm->name[w->body[k / TAGK_NPARAM]]);
		return;
	}
	k -= TAGK_NPARAM * w->nu;
	int j = k / w->nfr, t = k % w->nfr, seen = -1;
	for (int b = 0; b < 4; b++)
		if ((w->kinds & (1 << b)) && ++seen == t)
			snprintf(name, WA_NAME, "%s_%d", fr_names[b], j + 1);
}

void
wa_name(const wholearm *w, const mbmodel *mm, int k, char name[WA_NAME])
{
	if (w->base)
		snprintf(name, WA_NAME, "b%d", k + 1);
	else
		wa_std_name(w, mm, k, name);
}

void
wa_std_rows(const wholearm *w, int nv, int nb, const tagk_real *Y, const tagk_real *qd, double *A)
{
	const int n = w->n, nin = TAGK_NPARAM * w->nu;
	for (int r = 0; r < nv; r++) {
		double *a = A + (size_t)r * n;
		for (int u = 0; u < w->nu; u++)
			for (int j = 0; j < TAGK_NPARAM; j++)
				a[u * TAGK_NPARAM + j] = (double)Y[(size_t)r * TAGK_NPARAM * nb + TAGK_NPARAM * w->body[u] + j];
		memset(a + nin, 0, (size_t)(n - nin) * sizeof(double));
		int jt = r - w->off;
		if (jt >= 0 && w->nfr)
			fr_terms(w->kinds, w->smooth, (double)qd[r], a + nin + jt * w->nfr);
	}
}

void
wa_out_rows(const wholearm *w, int nv, const double *A, double *out)
{
	const int nc = wa_ncols(w);
	for (int r = 0; r < nv; r++)
		for (int k = 0; k < nc; k++)
			out[(size_t)r * nc + k] = A[(size_t)r * w->n + (w->base ? w->perm[k] : k)];
}

int
wa_kinds(const char *opt, const char *arg)
{
	char buf[256], *items[8];
	int n = cli_split(opt, arg, buf, sizeof(buf), items, 8), k = 0;
	for (int i = 0; i < n; i++) {
		int b = 0;
		while (b < 4 && strcmp(items[i], b == 3 ? "sigmoid" : b == 0 ? "viscous" : b == 1 ? "coulomb" : "offset") != 0)
			b++;
		if (b == 4)
			cli_die(EXIT_USAGE, "%s: '%s' is not viscous, coulomb, offset or sigmoid", opt, items[i]);
		k |= 1 << b;
	}
	return k;
}
