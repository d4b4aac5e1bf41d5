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

/* One random state's standard rows into W (nv x n): q uniform in [-pi, pi]
 * (prismatic [-0.5, 0.5] m), qd and qdd N(0, 1), a free base's pose random.
 * Y is scratch of nv x 10 nb. */
static void
random_rows(const wholearm *w, const tagk_mb_model *m, tagk_rng *g, tagk_real *Y, double *A)
{
	tagk_real q[TAGK_MB_MAX_BODIES], qd[TAGK_MB_MAX_DOF], qdd[TAGK_MB_MAX_DOF];
	tagk_real R[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, p[3] = { 0, 0, 0 }, qb[4];
	const int nv = tagk_mb_dof(m);
	for (int j = 0; j < w->nj; j++) {
		tagk_real u = tagk_rng_uniform(g);
		q[j] = m->joint[j + 1] == TAGK_JOINT_REVOLUTE ? (tagk_real)M_PI * (2 * u - 1) : u - (tagk_real)0.5;
	}
	for (int j = 0; j < nv; j++) {
		qd[j] = tagk_rng_gaussian(g);
		qdd[j] = tagk_rng_gaussian(g);
	}
	if (m->floating) {
		for (int k = 0; k < 4; k++)
			qb[k] = tagk_rng_gaussian(g);
		tagk_qnormalize(qb);
		tagk_qmatrix(qb, R);
		for (int k = 0; k < 3; k++)
			p[k] = tagk_rng_gaussian(g);
	}
	tagk_mb_kin kin;
	tagk_mb_kinematics(m, R, p, q, qd, qdd, &kin);
	tagk_mb_regressor(&kin, m, Y);
	wa_std_rows(w, nv, m->nb, Y, qd, A);
}

/* --base: the stack of random states' rows, and its QR (baseparam.h). */
void
wa_base(wholearm *w, const mbmodel *mm, unsigned long seed)
{
	const tagk_mb_model *m = &mm->m;
	const int nv = tagk_mb_dof(m), n = w->n;
	const int ns = w->nstates = (3 * n + nv - 1) / nv + 20, rows = ns * nv; /* rows enough to see rank n */
	tagk_real *W = malloc((size_t)rows * (size_t)n * sizeof(*W));
	tagk_real *Y = malloc((size_t)nv * TAGK_NPARAM * (size_t)m->nb * sizeof(*Y));
	double *A = malloc((size_t)nv * (size_t)n * sizeof(*A));
	tagk_real *beta = malloc((size_t)n * (size_t)n * sizeof(*beta)), *work = malloc((size_t)n * sizeof(*work));
	w->perm = malloc((size_t)n * sizeof(int));
	w->beta = malloc((size_t)n * (size_t)n * sizeof(double));
	if (!W || !Y || !A || !beta || !work || !w->perm || !w->beta)
		cli_die(EXIT_DATA, "out of memory");
	tagk_rng g;
	tagk_rng_seed(&g, seed);
	for (int s = 0; s < ns; s++) {
		random_rows(w, m, &g, Y, A);
		for (int k = 0; k < nv * n; k++)
			W[(size_t)s * nv * n + k] = (tagk_real)A[k];
	}
	if (tagk_base_qr(rows, n, W, (tagk_real)1e-9, w->perm, &w->rank, beta, work) != TAGK_OK)
		cli_die(EXIT_DATA, "--base: the regressor of random states is not finite");
	const int r = w->rank, nd = n - r;
	for (int k = 0; k < r * nd; k++)
		w->beta[k] = (double)beta[k];
	double r00 = fabs((double)W[0]);
	w->gap[0] = r ? fabs((double)W[(size_t)(r - 1) * n + r - 1]) / r00 : 0;
	w->gap[1] = 0;
	for (int j = r; j < n; j++) {
		double s2 = 0;
		for (int i = r; i < rows; i++)
			s2 += (double)W[(size_t)i * n + j] * (double)W[(size_t)i * n + j];
		w->gap[1] = fmax(w->gap[1], sqrt(s2) / r00);
	}
	w->base = 1;
	free(W);
	free(Y);
	free(A);
	free(beta);
	free(work);
}

/* Base parameter k's grouping into buf: "PARAM_BODY + c PARAM_BODY ...",
 * coefficients below 1e-10 of the largest |beta| omitted (rounding). */
static void
group_text(const wholearm *w, const mbmodel *mm, int k, const char *fmt, char *buf, size_t len)
{
	const int nd = w->n - w->rank;
	char name[WA_NAME];
	wa_std_name(w, mm, w->perm[k], name);
	size_t l = (size_t)snprintf(buf, len, "%s", name);
	for (int j = 0; j < nd && l < len; j++) {
		double c = w->beta[k * nd + j];
		if (!(fabs(c) > 1e-10))
			continue;
		wa_std_name(w, mm, w->perm[w->rank + j], name);
		char num[40];
		snprintf(num, sizeof(num), fmt, fabs(c));
		l += (size_t)snprintf(buf + l, len - l, " %c %s %s", c < 0 ? '-' : '+', num, name);
	}
}

void
wa_say_base(const wholearm *w, const mbmodel *mm)
{
	const int n = w->n, r = w->rank;
	char buf[8192];
	int never = 0;
	size_t l = 0;
	for (int j = 0; j < n - r; j++) {
		int zero = 1;
		for (int k = 0; k < r; k++)
			zero &= !(fabs(w->beta[k * (n - r) + j]) > 1e-10);
		if (zero && l < sizeof(buf) - WA_NAME - 2) {
			char name[WA_NAME];
			wa_std_name(w, mm, w->perm[r + j], name);
			l += (size_t)snprintf(buf + l, sizeof(buf) - l, " %s", name);
			never++;
		}
	}
	cli_warn("--base: rank %d of %d (QR with column pivoting of %d random states' rows: the last base column's "
	    "|R_kk| %.2g of the first's, the largest left %.2g); %d unidentifiable directions, of which %d parameters "
	    "never enter the torques:%s", r, n, w->nstates, w->gap[0],
	    w->gap[1], n - r, never, never ? buf : " none");
	for (int k = 0; k < r; k++) {
		group_text(w, mm, k, "%.6g", buf, sizeof(buf));
		cli_warn("--base: b%d = %s", k + 1, buf);
	}
}

int
wa_write_groups(const wholearm *w, const mbmodel *mm, FILE *f)
{
	const int n = w->n, r = w->rank, nd = n - r;
	static char buf[65536];
	fprintf(f, "# base parameters: rank %d of %d standard parameters (tagk-regress --base)\n", r, n);
	for (int k = 0; k < r; k++) {
		group_text(w, mm, k, "%.17g", buf, sizeof(buf));
		fprintf(f, "b%d = %s\n", k + 1, buf);
	}
	fprintf(f, "# null space: each direction leaves every torque unchanged\n");
	for (int j = 0; j < nd; j++) {
		char name[WA_NAME];
		wa_std_name(w, mm, w->perm[r + j], name);
		fprintf(f, "null%d = %s", j + 1, name);
		for (int k = 0; k < r; k++) {
			double c = -w->beta[k * nd + j];
			if (!(fabs(c) > 1e-10))
				continue;
			wa_std_name(w, mm, w->perm[k], name);
			fprintf(f, " %c %.17g %s", c < 0 ? '-' : '+', fabs(c), name);
		}
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

void
wa_base_values(const wholearm *w, const double *row, const int *idx, double *out)
{
	const int r = w->rank, nd = w->n - r;
	for (int k = 0; k < r; k++) {
		double v = row[idx[w->perm[k]]];
		for (int j = 0; j < nd; j++)
			v += w->beta[k * nd + j] * row[idx[w->perm[r + j]]];
		out[k] = v;
	}
}
