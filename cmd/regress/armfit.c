/* armfit.c: the model-fit check of -m multibody's force rows; see armfit.h. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "armfit.h"
#include "friction_fit.h"

/* |fourth difference| in 0.02-decade bins from 1e-15 to 1e10: the median
 * to 2.3 %, in fixed memory whatever the log's length */
enum { NB = 1250 };
#define LO (-15.0)
#define BW 0.02

/* One block's findings (see afit_judge). */
typedef struct {
	double res[TAGK_MB_MAX_DOF];  /* each row's rms left by the unknown body */
	double gain[TAGK_MB_MAX_DOF]; /* the gain reading's gains */
	double gworst, sworst;        /* the worst ratio under the gain reading, and under the best exchange */
	int si, sj;                   /* that exchange (-1: the block has fewer than two misfit rows) */
} blockfit;

struct armfit {
	int nv, off, nf, P;
	double smooth;
	double *S;        /* nv x P x P: each row's Gram matrix of v, over the whole log */
	double *B;        /* the same over the current block */
	long nb;          /* samples in it */
	double t0;        /* its first time */
	blockfit *blk;    /* the blocks closed */
	long nblk, cap;
	uint32_t *hist;   /* nv x NB */
	long *nh;         /* values in each row's histogram */
	double *ring;     /* nv x 5: the last five b of each row */
	long n;
};

armfit *
afit_new(int nv, int off, int fit_friction, double smooth)
{
	armfit *f = calloc(1, sizeof(*f));
	if (!f)
		cli_die(EXIT_DATA, "out of memory");
	f->nv = nv, f->off = off, f->nf = fit_friction ? 3 : 0, f->smooth = smooth;
	f->P = TAGK_NPARAM + f->nf + 1 + nv;
	f->S = calloc((size_t)nv * f->P * f->P, sizeof(double));
	f->B = calloc((size_t)nv * f->P * f->P, sizeof(double));
	f->hist = calloc((size_t)nv * NB, sizeof(uint32_t));
	f->nh = calloc((size_t)nv, sizeof(long));
	f->ring = calloc((size_t)nv * 5, sizeof(double));
	if (!f->S || !f->B || !f->hist || !f->nh || !f->ring)
		cli_die(EXIT_DATA, "out of memory");
	return f;
}

static void close_block(armfit *f);

void
afit_add(armfit *f, double t, const double *A, const double *K, const double *tau, const double *qd)
{
	const int P = f->P, nv = f->nv, nf = f->nf;
	if (f->nb >= AFIT_BLOCK_MIN && t - f->t0 >= AFIT_BLOCK_S)
		close_block(f);
	if (f->nb == 0)
		f->t0 = t;
	f->nb++;
	double v[TAGK_NPARAM + 4 + TAGK_MB_MAX_DOF];
	for (int k = 0; k < nv; k++) {
		memcpy(v, A + (size_t)k * TAGK_NPARAM, TAGK_NPARAM * sizeof(double));
		double x[3] = { 0, 0, 0 };
		if (nf && k >= f->off)
			ffit_terms(FF_VISCOUS | FF_COULOMB | FF_OFFSET, f->smooth, qd[k], x);
		memcpy(v + TAGK_NPARAM, x, (size_t)nf * sizeof(double));
		v[TAGK_NPARAM + nf] = K[k];
		memcpy(v + TAGK_NPARAM + nf + 1, tau, (size_t)nv * sizeof(double));
		double *S = f->S + (size_t)k * P * P, *B = f->B + (size_t)k * P * P;
		for (int a = 0; a < P; a++)
			for (int b = 0; b <= a; b++) {
				S[a * P + b] += v[a] * v[b];
				B[a * P + b] += v[a] * v[b];
			}
		/* the noise: the effort's fourth difference over the last five
		 * samples (a free base's row without a wrench: b's); the effort's,
		 * not b's, so that a misread angle's derivatives do not raise it */
		double *r = f->ring + 5 * k;
		memmove(r, r + 1, 4 * sizeof(double));
		r[4] = k < f->off ? tau[k] - K[k] : tau[k];
		if (f->n < 4)
			continue;
		double d = fabs(r[0] - 4 * r[1] + 6 * r[2] - 4 * r[3] + r[4]);
		int bin = d > 0 ? (int)floor((log10(d) - LO) / BW) : 0;
		bin = bin < 0 ? 0 : bin >= NB ? NB - 1 : bin;
		f->hist[(size_t)k * NB + bin]++;
		f->nh[k]++;
	}
	f->n++;
}

/* Row k's noise sd from its histogram (see armfit.h); 0 when empty. */
static double
noise(const armfit *f, int k)
{
	const uint32_t *h = f->hist + (size_t)k * NB;
	long half = (f->nh[k] + 1) / 2, seen = 0;
	if (f->nh[k] == 0)
		return 0;
	int b = 0;
	while (b < NB - 1 && (seen += h[b]) < half)
		b++;
	return pow(10, LO + (b + 0.5) * BW) / (0.6745 * sqrt(70.0));
}

/* x = M^-1 y for the n x n symmetric M (lower triangle read) with a ridge
 * of 1e-12 of its largest diagonal (1 where that is 0): a parameter the log
 * does not determine is left near 0, and the residual is the least one. */
static void
ridge_solve(int n, const double *M0, const double *y, double *x)
{
	double L[(TAGK_NPARAM + 4) * (TAGK_NPARAM + 4)], top = 0;
	for (int i = 0; i < n; i++)
		top = fmax(top, M0[i * n + i]);
	double eps = top > 0 ? 1e-12 * top : 1;
	for (int j = 0; j < n; j++)
		for (int i = j; i < n; i++) {
			double s = M0[i * n + j] + (i == j ? eps : 0);
			for (int m = 0; m < j; m++)
				s -= L[i * n + m] * L[j * n + m];
			L[i * n + j] = i == j ? sqrt(fmax(s, eps)) : s / L[j * n + j];
		}
	for (int i = 0; i < n; i++) {
		double s = y[i];
		for (int m = 0; m < i; m++)
			s -= L[i * n + m] * x[m];
		x[i] = s / L[i * n + i];
	}
	for (int i = n - 1; i >= 0; i--) {
		double s = x[i];
		for (int m = i + 1; m < n; m++)
			s -= L[m * n + i] * x[m];
		x[i] = s / L[i * n + i];
	}
}

/* One reading of the log: row k's effort is column src[k]'s, times a gain
 * fitted per row when gain is 1 (else 1). */
typedef struct {
	const int *src;
	int gain;
	double rss[TAGK_MB_MAX_DOF], own[TAGK_MB_MAX_DOF][4];
} reading;

/* Row k's blocks under reading g: the own columns' indices into v (the
 * friction terms, then the effort when gained) and the target's weights c. */
static int
blocks(const armfit *f, const reading *g, int k, int *own, double *c)
{
	const int nf = f->nf, ki = TAGK_NPARAM + nf, ti = ki + 1 + g->src[k];
	int no = 0;
	for (int a = 0; a < nf && k >= f->off; a++)
		own[no++] = TAGK_NPARAM + a;
	memset(c, 0, (size_t)f->P * sizeof(double));
	c[ki] = -1;
	if (g->gain)
		own[no++] = ti;
	else
		c[ti] = 1;
	return no;
}

/* S's entry (a, b) from its lower triangle. */
static double
sg(const double *S, int P, int a, int b)
{
	return a >= b ? S[a * P + b] : S[b * P + a];
}

static double
sc(const double *S, int P, int a, const double *c)
{
	double s = 0;
	for (int b = 0; b < P; b++)
		if (c[b] != 0)
			s += sg(S, P, a, b) * c[b];
	return s;
}

/* Fit reading g by least squares (the own columns concentrated out row by
 * row, the ten shared ones solved), leaving each row's residual sum of
 * squares and own coefficients in g. */
static void
fit(const armfit *f, const double *Sall, reading *g)
{
	enum { N = TAGK_NPARAM };
	const int P = f->P;
	double H[N * N] = { 0 }, h[N] = { 0 }, th[N], c[TAGK_NPARAM + 4 + TAGK_MB_MAX_DOF];
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1)
			ridge_solve(N, H, h, th);
		for (int k = 0; k < f->nv; k++) {
			const double *S = Sall + (size_t)k * P * P;
			int own[4];
			int no = blocks(f, g, k, own, c);
			double G[16], Z[4 * (N + 1)], rhs[4], col[4];
			for (int a = 0; a < no; a++)
				for (int b = 0; b < no; b++)
					G[a * no + b] = sg(S, P, own[a], own[b]);
			/* Z = G^-1 [C^T o]: column j < N is G^-1 C^T e_j, column N is G^-1 o */
			for (int j = 0; j <= N && no; j++) {
				for (int a = 0; a < no; a++)
					rhs[a] = j < N ? sg(S, P, own[a], j) : sc(S, P, own[a], c);
				ridge_solve(no, G, rhs, col);
				for (int a = 0; a < no; a++)
					Z[a * (N + 1) + j] = col[a];
			}
			if (pass == 0) {
				for (int i = 0; i < N; i++) {
					h[i] += sc(S, P, i, c);
					for (int a = 0; a < no; a++)
						h[i] -= sg(S, P, i, own[a]) * Z[a * (N + 1) + N];
					for (int j = 0; j <= i; j++) {
						double s = sg(S, P, i, j);
						for (int a = 0; a < no; a++)
							s -= sg(S, P, i, own[a]) * Z[a * (N + 1) + j];
						H[i * N + j] = H[j * N + i] = H[i * N + j] + s;
					}
				}
				continue;
			}
			/* psi = G^-1 (o - C^T theta); the residual of [A O] [theta; psi] against y */
			double z[N + 4];
			int idx[N + 4];
			for (int i = 0; i < N; i++)
				z[i] = th[i], idx[i] = i;
			for (int a = 0; a < no; a++) {
				double s = Z[a * (N + 1) + N];
				for (int j = 0; j < N; j++)
					s -= Z[a * (N + 1) + j] * th[j];
				z[N + a] = g->own[k][a] = s;
				idx[N + a] = own[a];
			}
			double rss = 0;
			for (int a = 0; a < P; a++)
				rss += c[a] * sc(S, P, a, c);
			for (int i = 0; i < N + no; i++) {
				rss -= 2 * z[i] * sc(S, P, idx[i], c);
				for (int j = 0; j < N + no; j++)
					rss += z[i] * sg(S, P, idx[i], idx[j]) * z[j];
			}
			g->rss[k] = fmax(rss, 0);
		}
	}
}

/* Row k's typical torque (its effort's rms, else its known part's) and its
 * noise (floored for a log without noise: rounding in the ninth digit) from
 * Gram matrices S over n samples. */
static void
typ_noise(const armfit *f, const double *S0, double n, int k, double *typ, double *sd)
{
	const int P = f->P, ti = TAGK_NPARAM + f->nf + 1 + k, ki = TAGK_NPARAM + f->nf;
	const double *S = S0 + (size_t)k * P * P;
	double tt = sqrt(S[ti * P + ti] / n), kk = sqrt(S[ki * P + ki] / n);
	*typ = tt > 0 ? tt : kk;
	*sd = fmax(noise(f, k), fmax(1e-9 * *typ, 1e-300));
}

/* The worst residual ratio over the rows of reading g over n samples. */
static double
worst(const armfit *f, const reading *g, const double *sd, const double *gain, double n)
{
	double w = 0;
	for (int k = 0; k < f->nv; k++) {
		/* a row read times gain carries its noise times |gain|: the
		 * residual is in the body's units, sd[k] in the log's */
		double s = gain && fabs(gain[k]) > 0 ? fabs(gain[k]) * sd[k] : sd[k];
		w = fmax(w, sqrt(g->rss[k] / n) / s);
	}
	return w;
}

/* The current block's fits: the log as read, a gain per row (a sign, a
 * unit), and each pair of the block's misfit rows exchanged (up to 16 of
 * them); kept, and the block emptied. */
static void
close_block(armfit *f)
{
	const int nv = f->nv;
	const double n = (double)f->nb;
	if (f->nblk == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		if (!(f->blk = realloc(f->blk, (size_t)f->cap * sizeof(*f->blk))))
			cli_die(EXIT_DATA, "out of memory");
	}
	blockfit *bf = &f->blk[f->nblk++];
	int id[TAGK_MB_MAX_DOF], src[TAGK_MB_MAX_DOF], mis[16], nm = 0;
	double sd[TAGK_MB_MAX_DOF], typ;
	for (int k = 0; k < nv; k++)
		id[k] = k;
	reading g = { .src = id, .gain = 0 }, h = { .src = id, .gain = 1 };
	fit(f, f->B, &g);
	fit(f, f->B, &h);
	for (int k = 0; k < nv; k++) {
		typ_noise(f, f->B, n, k, &typ, &sd[k]);
		bf->res[k] = sqrt(g.rss[k] / n);
		bf->gain[k] = -h.own[k][f->nf && k >= f->off ? 3 : 0]; /* fitted: -known = A theta - gain tau */
		if (k >= f->off && nm < 16 && bf->res[k] > AFIT_RATIO * sd[k] && bf->res[k] > AFIT_REL * typ)
			mis[nm++] = k;
	}
	bf->gworst = worst(f, &h, sd, bf->gain, n);
	bf->si = bf->sj = -1;
	bf->sworst = INFINITY;
	for (int a = 0; a < nm; a++)
		for (int b = a + 1; b < nm; b++) {
			memcpy(src, id, (size_t)nv * sizeof(int));
			src[mis[a]] = mis[b], src[mis[b]] = mis[a];
			reading x = { .src = src, .gain = 0 };
			fit(f, f->B, &x);
			double w = worst(f, &x, sd, NULL, n);
			if (w < bf->sworst)
				bf->sworst = w, bf->si = mis[a], bf->sj = mis[b];
		}
	memset(f->B, 0, (size_t)nv * f->P * f->P * sizeof(double));
	f->nb = 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median over the blocks of the value at byte offset off (of the
 * blocks whose pair is (i, j) when i >= 0), with a scratch of nblk. */
static double
block_median(const armfit *f, size_t off, int i, int j, double *scr)
{
	long m = 0;
	for (long b = 0; b < f->nblk; b++)
		if (i < 0 || (f->blk[b].si == i && f->blk[b].sj == j))
			memcpy(&scr[m++], (const char *)&f->blk[b] + off, sizeof(double));
	if (m == 0)
		return (double)NAN;
	qsort(scr, (size_t)m, sizeof(double), cmp_double);
	return m % 2 ? scr[m / 2] : 0.5 * (scr[m / 2 - 1] + scr[m / 2]);
}

/* The other readings over the blocks: the median gains and worst ratio,
 * and the exchange most blocks found best, if more than half did. */
static void
readings(const armfit *f, armfit_result *r, double *scr)
{
	for (int k = 0; k < f->nv; k++)
		r->gain[k] = block_median(f, offsetof(blockfit, gain) + (size_t)k * sizeof(double), -1, 0, scr);
	r->gain_ratio = block_median(f, offsetof(blockfit, gworst), -1, 0, scr);
	r->swap_i = r->swap_j = -1;
	r->swap_ratio = INFINITY;
	for (long b = 0; b < f->nblk; b++) {
		int i = f->blk[b].si, j = f->blk[b].sj;
		long c = 0;
		for (long e = 0; e < f->nblk && i >= 0; e++)
			c += f->blk[e].si == i && f->blk[e].sj == j;
		if (2 * c > f->nblk) {
			r->swap_i = i, r->swap_j = j;
			r->swap_ratio = block_median(f, offsetof(blockfit, sworst), i, j, scr);
			return;
		}
	}
}

/* Row k's friction as the check fitted it over the whole log, fv's sd (its
 * own block's, the unknown body given) and the rms speed. */
static void
own_friction(const armfit *f, armfit_result *r, int k, const double *own, double rss)
{
	const int P = f->P;
	const double *S = f->S + (size_t)k * P * P;
	double G[9], e[3] = { 1, 0, 0 }, gi[3];
	for (int a = 0; a < 3; a++)
		for (int b = 0; b < 3; b++)
			G[a * 3 + b] = sg(S, P, TAGK_NPARAM + a, TAGK_NPARAM + b);
	ridge_solve(3, G, e, gi);
	r->fv[k] = own[0], r->fc[k] = own[1];
	r->sdfv[k] = f->n > 3 ? sqrt(rss / (double)(f->n - 3) * gi[0]) : (double)INFINITY;
	r->qdrms[k] = sqrt(G[0] / (double)(f->n ? f->n : 1));
}

void
afit_judge(armfit *f, armfit_result *r)
{
	memset(r, 0, sizeof(*r));
	const int nv = f->nv;
	r->nv = nv, r->off = f->off, r->n = f->n, r->fitted = f->nf > 0;
	if (f->nb >= AFIT_BLOCK_MIN || (f->nb > 0 && f->nblk == 0))
		close_block(f);
	if (f->nblk == 0)
		return;
	double *scr = malloc((size_t)f->nblk * sizeof(double));
	if (!scr)
		cli_die(EXIT_DATA, "out of memory");
	int id[TAGK_MB_MAX_DOF];
	for (int k = 0; k < nv; k++)
		id[k] = k;
	reading g = { .src = id, .gain = 0 };
	fit(f, f->S, &g);
	double left = 0, all = 0, sd2 = 0, n = (double)f->n;
	double top = 0;
	for (int k = 0; k < nv; k++) {
		typ_noise(f, f->S, n, k, &r->typ[k], &r->noise[k]);
		top = fmax(top, r->typ[k]);
	}
	for (int k = 0; k < nv; k++) {
		r->res[k] = block_median(f, offsetof(blockfit, res) + (size_t)k * sizeof(double), -1, 0, scr);
		r->ratio[k] = r->res[k] / r->noise[k];
		/* a wrist's torque can be a hundredth of the shoulder's: a part of
		 * it that is a thousandth of the robot's torques is not a misfit */
		double typ = fmax(r->typ[k], 0.1 * top);
		r->rel[k] = typ > 0 ? r->res[k] / typ : 0;
		r->misfit[k] = r->ratio[k] > AFIT_RATIO && r->rel[k] > AFIT_REL;
		r->bad += r->misfit[k];
		left += r->res[k] * r->res[k], all += r->typ[k] * r->typ[k], sd2 += r->noise[k] * r->noise[k];
		if (f->nf && k >= f->off)
			own_friction(f, r, k, g.own[k], g.rss[k]);
	}
	r->agg = all > 0 ? sqrt(left / all) : 0;
	r->aggratio = sqrt(left / sd2);
	r->refuse = r->aggratio > AFIT_RATIO && r->agg > AFIT_REL_ALL;
	for (int k = 0; k < nv && r->refuse; k++) /* the rows to name: every row far beyond its noise */
		if (!r->misfit[k] && r->ratio[k] > AFIT_RATIO)
			r->misfit[k] = 1, r->bad++;
	if (r->bad)
		readings(f, r, scr);
	free(scr);
}

/* A gain's reading: 0 sign, 1 a unit 1000 too small, 2 too large, 3 other. */
static int
gain_class(double g)
{
	return fabs(g + 1) < 0.1 ? 0 : g > 5e-4 && g < 2e-3 ? 1 : g > 500 && g < 2000 ? 2 : 3;
}

/* Whether row k's effort is mostly noise (under 3 times it), so that no
 * gain of it is determined (a wrist's last joint, barely loaded). */
static int
mute(const armfit_result *r, int k)
{
	return r->typ[k] < 3 * r->noise[k];
}

/* Whether the gain reading explains the misfit: it fits every row to half
 * the threshold, and each misfit row's gain is a sign, a unit of 1000 or a
 * scale within 0.2 .. 5 (a fit's arbitrary gains near 0 are no reading). */
static int
gains_explain(const armfit_result *r)
{
	if (!(r->gain_ratio <= AFIT_RATIO / 2))
		return 0;
	for (int k = 0; k < r->nv; k++)
		if (r->misfit[k] && !mute(r, k) && gain_class(r->gain[k]) == 3 &&
		    !(fabs(r->gain[k]) >= 0.2 && fabs(r->gain[k]) <= 5))
			return 0;
	return 1;
}

/* The rows of gain class c (gain_class) into buf; returns how many. */
static int
gain_rows(const armfit_result *r, const char *const *names, int c, char *buf, size_t len, double *lo, double *hi)
{
	int n = 0, l = 0;
	*lo = INFINITY, *hi = -INFINITY;
	buf[0] = 0;
	for (int k = 0; k < r->nv; k++) {
		if ((!r->misfit[k] && fabs(r->gain[k] - 1) < 0.1) || mute(r, k) || gain_class(r->gain[k]) != c)
			continue;
		if (l < (int)len - 100)
			l += snprintf(buf + l, len - (size_t)l, "%s%s", n ? ", " : "", names[k]);
		*lo = fmin(*lo, r->gain[k]), *hi = fmax(*hi, r->gain[k]);
		n++;
	}
	return n;
}

/* The likely cause of the misfit, from the other readings, into buf. */
static void
cause(const armfit_result *r, const char *const *names, char *buf, size_t len)
{
	static const char *const why[4] = { "the wrong sign", "a unit 1000 times too small (mN m read as N m?)",
		"a unit 1000 times too large", "a scale (a torque constant, gear ratio or unit)" };
	char rows[2048];
	int l = 0;
	buf[0] = 0;
	for (int c = 0; c < 4 && gains_explain(r); c++) {
		double lo, hi;
		int n = gain_rows(r, names, c, rows, sizeof(rows), &lo, &hi);
		char range[64];
		int m = snprintf(range, sizeof(range), "%.4g", lo);
		if (lo < hi)
			snprintf(range + m, sizeof(range) - (size_t)m, " .. %.4g", hi);
		int loud = 0;
		for (int k = r->off; k < r->nv; k++)
			loud += !mute(r, k);
		int every = n == loud && n > 1;
		if (n)
			l += snprintf(buf + l, len - (size_t)l, "%s%s%s %s %s (read times %s)", l ? "; " : "",
			    every ? "every joint's effort" : n > 1 ? "the efforts of " : "the effort of ", every ? "" : rows,
			    n > 1 && !every ? "have" : "has", why[c], range);
	}
	if (l)
		l += snprintf(buf + l, len - (size_t)l, ": read so, the rows fit to %.3g times the noise", r->gain_ratio);
	if (r->swap_i >= 0 && r->swap_ratio <= AFIT_RATIO / 2)
		snprintf(buf + l, len - (size_t)l, "%sthe efforts of %s and %s are exchanged (read the other way round, "
		    "they fit to %.3g times the noise: check --map tau=)", l ? "; " : "", names[r->swap_i], names[r->swap_j],
		    r->swap_ratio);
	if (!buf[0])
		snprintf(buf, len, "a joint's zero offset or direction, the order of the position columns, a description "
		    "of another robot, or, on a joint of little torque, derivatives distorted by too wide an --sg-window "
		    "(neither a sign, a scale nor an exchange of two efforts fits)");
}

void
afit_say_friction(const armfit_result *r, const char *const *names, const char *unit)
{
	for (int k = r->off; r->fitted && k < r->nv; k++) {
		if (r->fv[k] < -3 * r->sdfv[k])
			cli_caution("model fit: %s: the friction fitted has a negative viscous coefficient (fv %.3g +- %.2g %s "
			    "s/rad): not a friction (an effort of the wrong sign, or a model that lacks something)",
			    names[k], r->fv[k], r->sdfv[k], unit);
		if (fabs(r->fc[k]) > r->typ[k])
			cli_caution("model fit: %s: the friction that fits has a Coulomb term (%.3g %s) larger than the joint's "
			    "typical torque (rms %.3g %s): not a friction", names[k], r->fc[k], unit, r->typ[k], unit);
	}
}

int
afit_say(const armfit_result *r, const char *const *names, const char *what, const char *unit)
{
	if (!r->bad)
		return 0;
	char list[4096], why[2048];
	int l = 0;
	for (int k = 0; k < r->nv && l < (int)sizeof(list) - 300; k++)
		if (r->misfit[k])
			l += snprintf(list + l, sizeof(list) - (size_t)l, "%s%s %.3g / %.2g %s = %.0fx, %.0f %% of its torque",
			    l ? "; " : "", names[k], r->res[k], r->noise[k], unit, r->ratio[k], 100 * r->rel[k]);
	cause(r, names, why, sizeof(why));
	cli_warn("model fit: %d of %d rows %s not explained by %s%s (rms left / noise the log shows: %s; "
	    "over all rows %.0fx the noise, %.0f %% of the torque); likely cause: %s", r->bad, r->nv,
	    r->bad == 1 ? "is" : "are", what,
	    r->fitted ? " and each joint's friction" : "", list, r->aggratio, 100 * r->agg, why);
	return r->refuse;
}

void
afit_free(armfit *f)
{
	if (!f)
		return;
	free(f->S);
	free(f->B);
	free(f->blk);
	free(f->hist);
	free(f->nh);
	free(f->ring);
	free(f);
}
