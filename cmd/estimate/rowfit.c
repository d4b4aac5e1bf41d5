/* rowfit.c: the model-fit check after estimation; see rowfit.h. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "rowfit.h"
#include "../lib/tagk.h"

/* The Gram matrices' and the ring's row stride: P <= 11, padded. */
enum { RF_W = 12, RF_SQ = RF_W * RF_W, RF_BATCH = 4, RF_RING = 8 };

/* The thresholds (verdict below), from the runs they must pass and those
 * they must fail (tests/fitcheck_test.sh), as tagk-estimate -v prints the
 * figures (medians over the blocks; the worst kind whose residual is over
 * a fifth of its size):
 *   right runs: the real Crazyflie logs 182 and 201 (preset crazyflie,
 *   rigid body and mass, with and without --airborne) 18.7 times the
 *   noise at 0.70 of its size (log182's tx; their torques are the
 *   commanded ones, and their residuals coloured); synth-payload-noisy
 *   10.8 at 0.62; tagk-bench grasp 18.6 at 0.66; shake 1.4; 16 simulate
 *   and 26 massflight runs, none over a fifth; the Panda logs with their
 *   friction 2.3, without it 36.7 at 1.02 (joint 7: its torque is its
 *   friction). The physical fit leaves at most 1.03 times the residual of
 *   the unconstrained one on any of them.
 *   wrong runs: efforts swapped 316 to 617 times the noise, a joint's zero
 *   off by pi/2 106 to 300, one joint's effort negated 54 to 512; every
 *   effort negated: the physical fit leaves 100 % (300 to 900 times the
 *   noise, 5 to 6 times the unconstrained fit); a torque axis of the
 *   simulated flight negated, in mN m, or two exchanged: 95 to 104 % left
 *   by the physical fit, 4 to 23 times the noise, 2 to 4.4 times the
 *   unconstrained fit.
 * So 40 times the noise and half the size (twice the worst right run on
 * real data), and for the physical fit 0.8 of the size, 3 times the noise
 * and 1.5 times the unconstrained residual. */
#define RF_RATIO 40.0
#define RF_REL 0.5
#define RF_PREL 0.8
#define RF_PRATIO 3.0
#define RF_GROW 1.5

/* One kind's findings in one block (judged: res >= 0): the residual's
 * rms with the block's estimate (res) and with the nearest physical body
 * (resp), the noise, the size, and the ratios the medians are taken of. */
typedef struct {
	double res, resp, noise, typ;
	double ratio, rel;   /* res / noise, res / typ */
	double pratio, prel; /* resp / noise, resp / typ */
	double grow;         /* resp / res */
} kindfit;

struct rowfit {
	int n, P, nk;        /* parameters; n + 1; kinds seen */
	double *G, *D;       /* RF_KINDS x RF_W x RF_W: the block's Gram matrices of z and of its fourth
	                      * difference (P x P used, the lower triangle read) */
	double *ring;        /* RF_KINDS x RF_RING x RF_W: each kind's last z (the one of its row
	                      * seen[k] - 1 at (seen[k] - 1) % RF_RING), zero past P */
	long *seen;          /* RF_KINDS: rows of each kind, in all */
	long *nr, *nd;       /* RF_KINDS: rows and fourth differences in the block */
	int *bnz;            /* RF_KINDS: a row of the kind with b != 0 (in the run) */
	double t0;
	long nb;             /* samples in the open block */
	kindfit *blk;        /* RF_MAX_BLOCKS x stride: the blocks kept */
	int stride;          /* kinds a block keeps: those of the first block */
	long nblk;           /* blocks kept */
	long closed, keep;   /* blocks closed; every keep-th of them is kept */
	int bad[RF_MAX_BLOCKS];      /* each kept block: a kind misfits in it */
	unsigned loo[RF_MAX_BLOCKS]; /* and its culprits (culprits()) */
	int pz[RF_KINDS];    /* each kind's last rows not yet in G and D: consecutive in its ring */
};

/* S += sum of v_r v_r^T over the c (<= RF_BATCH) rows v_r (stride RF_W,
 * zero past P), on P whole rows of RF_W, though only the lower triangle
 * is read: rows of fixed length in vectors of 4 (GCC's vector extension:
 * SSE2 pairs, or AVX2 where the CPU has it), each row of S loaded and
 * stored once for the c rows. The triangle's rows of 1 to P, one v at a
 * time, were scalar and a third of tagk-estimate -a tagk. Each entry
 * gets the same products added in the same order (v_0's first; no fused
 * multiply-add), so the sums are those of one v at a time on any CPU. */
typedef double rf_v4 __attribute__((vector_size(32), aligned(8), may_alias));

/* c is RF_BATCH but at a block's end: the full batch's loops have known
 * bounds, which the compiler unrolls into independent sums a row of S. */
#define GRAM_ROWS(S, P, v, c) \
	for (int a = 0; a < (P); a++) { \
		rf_v4 *s = (rf_v4 *)(void *)((S) + a * RF_W), acc[RF_W / 4]; \
		for (int q = 0; q < RF_W / 4; q++) \
			acc[q] = s[q]; \
		for (int r = 0; r < (c); r++) \
			for (int q = 0; q < RF_W / 4; q++) \
				acc[q] += (v)[r * RF_W + a] * w[r * (RF_W / 4) + q]; \
		for (int q = 0; q < RF_W / 4; q++) \
			s[q] = acc[q]; \
	}
#define GRAM_ADD(name, attr) \
	attr static void name(double *restrict S, int P, const double *restrict v, int c) \
	{ \
		const rf_v4 *w = (const rf_v4 *)(const void *)v; \
		if (c == RF_BATCH) \
			GRAM_ROWS(S, P, v, RF_BATCH) \
		else \
			GRAM_ROWS(S, P, v, c) \
	}
GRAM_ADD(gram_add_base, )
#if defined(__x86_64__) && defined(__GNUC__)
GRAM_ADD(gram_add_avx2, __attribute__((target("avx2"))))
#else
#define gram_add_avx2 gram_add_base
#endif

static void (*gram_add)(double *restrict, int, const double *restrict, int) = gram_add_base;

/* Kind k's pending rows (the last pz of its ring, which never wraps
 * there) into G, and their fourth differences, those of rows 4 and on,
 * into D: each reaches back 4 rows, so the ring of 8 holds all a batch
 * needs. */
static void
flush_kind(rowfit *f, int k)
{
	int c = f->pz[k];
	if (!c)
		return;
	const double *r = f->ring + (size_t)k * RF_RING * RF_W;
	long first = f->seen[k] - c; /* the first pending row's number */
	int at = (int)(first % RF_RING);
	gram_add(f->G + (size_t)k * RF_SQ, f->P, r + at * RF_W, c);
	double d[RF_BATCH * RF_W];
	int nd = 0;
	for (long i = first < 4 ? 4 : first; i < f->seen[k]; i++, nd++) {
		const double *z0 = r + i % RF_RING * RF_W, *z1 = r + (i - 1) % RF_RING * RF_W,
			     *z2 = r + (i - 2) % RF_RING * RF_W, *z3 = r + (i - 3) % RF_RING * RF_W,
			     *z4 = r + (i - 4) % RF_RING * RF_W;
		for (int j = 0; j < RF_W; j++)
			d[nd * RF_W + j] = z4[j] - 4 * z3[j] + 6 * z2[j] - 4 * z1[j] + z0[j];
	}
	if (nd)
		gram_add(f->D + (size_t)k * RF_SQ, f->P, d, nd);
	f->nd[k] += nd;
	f->pz[k] = 0;
}

rowfit *
rowfit_new(int n)
{
	if (n < 1 || n > TAGK_NPARAM)
		return NULL;
#if defined(__x86_64__) && defined(__GNUC__)
	if (__builtin_cpu_supports("avx2"))
		gram_add = gram_add_avx2;
#endif
	rowfit *f = calloc(1, sizeof(*f));
	if (!f)
		cli_die(EXIT_DATA, "out of memory");
	f->n = n, f->P = n + 1;
	size_t pp = (size_t)RF_KINDS * RF_SQ;
	f->G = calloc(pp, sizeof(double));
	f->D = calloc(pp, sizeof(double));
	f->ring = calloc((size_t)RF_KINDS * RF_RING * RF_W, sizeof(double));
	f->seen = calloc(RF_KINDS, sizeof(long));
	f->nr = calloc(RF_KINDS, sizeof(long));
	f->nd = calloc(RF_KINDS, sizeof(long));
	f->bnz = calloc(RF_KINDS, sizeof(int));
	if (!f->G || !f->D || !f->ring || !f->seen || !f->nr || !f->nd || !f->bnz)
		cli_die(EXIT_DATA, "out of memory");
	return f;
}

void
rowfit_add(rowfit *f, int k, const double *a, double b)
{
	if (k < 0 || k >= RF_KINDS)
		return;
	double *z = f->ring + ((size_t)k * RF_RING + (size_t)(f->seen[k] % RF_RING)) * RF_W;
	if (f->n == TAGK_NPARAM) /* a copy of known size, not a call */
		memcpy(z, a, TAGK_NPARAM * sizeof(double));
	else
		memcpy(z, a, (size_t)f->n * sizeof(double));
	z[f->n] = b;
	f->nr[k]++;
	f->bnz[k] |= b != 0;
	if (k >= f->nk)
		f->nk = k + 1;
	/* a batch is full, or the next row would wrap the ring under it */
	f->pz[k]++;
	if (++f->seen[k] % RF_RING == 0 || f->pz[k] == RF_BATCH)
		flush_kind(f, k);
}

/* x' S x for the lower triangle of S. */
static double
quad(const double *S, int P, const double *x)
{
	double s = 0;
	for (int a = 0; a < P; a++) {
		s += S[a * RF_W + a] * x[a] * x[a];
		for (int b = 0; b < a; b++)
			s += 2 * S[a * RF_W + b] * x[a] * x[b];
	}
	return s;
}

/* x = M^-1 y for the n x n symmetric M (lower triangle read, stride P)
 * with a ridge of 1e-12 of its largest diagonal: a direction the block
 * does not excite stays near 0, and the residual is the least one. */
static void
ridge_solve(int n, int P, const double *M, const double *y, double *x)
{
	double L[16 * 16], top = 0;
	for (int i = 0; i < n; i++)
		top = fmax(top, M[i * P + i]);
	double eps = top > 0 ? 1e-12 * top : 1;
	for (int j = 0; j < n; j++)
		for (int i = j; i < n; i++) {
			double s = M[i * P + j] + (i == j ? eps : 0);
			for (int m = 0; m < j; m++)
				s -= L[i * 16 + m] * L[j * 16 + m];
			L[i * 16 + j] = i == j ? sqrt(fmax(s, eps)) : s / L[j * 16 + j];
		}
	for (int i = 0; i < n; i++) {
		double s = y[i];
		for (int m = 0; m < i; m++)
			s -= L[i * 16 + m] * x[m];
		x[i] = s / L[i * 16 + i];
	}
	for (int i = n - 1; i >= 0; i--) {
		double s = x[i];
		for (int m = i + 1; m < n; m++)
			s -= L[m * 16 + i] * x[m];
		x[i] = s / L[i * 16 + i];
	}
}

/* The block's own least-squares body over all its kinds but skip (-1:
 * none) into theta. */
static void
block_fit(const rowfit *f, int skip, double *theta)
{
	const int n = f->n;
	double H[16 * 16] = { 0 }, h[16] = { 0 };
	for (int k = 0; k < f->nk; k++) {
		const double *G = f->G + (size_t)k * RF_SQ;
		if (k == skip)
			continue;
		for (int a = 0; a < n; a++) {
			h[a] += G[n * RF_W + a];
			for (int b = 0; b <= a; b++)
				H[a * 16 + b] += G[a * RF_W + b];
		}
	}
	ridge_solve(n, 16, H, h, theta);
}

/* The block's physically consistent least-squares body (pcls.h: every
 * pseudo-inertia positive semidefinite, in the data's own metric, so that
 * a log whose least-squares body lies near the boundary, as a payload far
 * from its frame's origin does, loses little) over its kinds but skip into
 * theta; a mass's at least 0. theta holds the unconstrained fit on entry,
 * and keeps it where the solver fails. */
static void
physical(const rowfit *f, int skip, double *theta)
{
	const int n = f->n;
	if (n == 1) {
		theta[0] = fmax(theta[0], 0);
		return;
	}
	if (n != TAGK_NPARAM)
		return;
	tagk_real H[TAGK_NPARAM * TAGK_NPARAM] = { 0 }, h[TAGK_NPARAM] = { 0 }, t[TAGK_NPARAM];
	tagk_real ws[TAGK_PCLS_WORKSPACE_LEN(1)];
	for (int k = 0; k < f->nk; k++) {
		const double *G = f->G + (size_t)k * RF_SQ;
		if (k == skip)
			continue;
		for (int a = 0; a < n; a++) {
			h[a] += (tagk_real)G[n * RF_W + a];
			for (int b = 0; b <= a; b++)
				H[a * n + b] += (tagk_real)G[a * RF_W + b];
		}
	}
	for (int a = 0; a < n; a++)
		for (int b = 0; b < a; b++)
			H[b * n + a] = H[a * n + b];
	tagk_pcls_config cfg;
	tagk_pcls_defaults(&cfg, 1);
	if (tagk_pcls_solve(&cfg, H, h, t, NULL, ws, sizeof(ws) / sizeof(ws[0])) != TAGK_OK)
		return;
	for (int j = 0; j < n; j++)
		theta[j] = (double)t[j];
}

/* Kind k's figures in a block, by theta x = [-theta, 1] and the physical
 * body xp = [-theta_p, 1]. */
static void
kind_figures(const rowfit *f, int k, const double *x, const double *xp, kindfit *kf)
{
	const int P = f->P, n = f->n;
	const double *G = f->G + (size_t)k * RF_SQ, *D = f->D + (size_t)k * RF_SQ;
	kf->res = -1;
	if (f->nr[k] < 2 || f->nd[k] < 1)
		return;
	double p[16] = { 0 }, nr = (double)f->nr[k], bb = G[n * RF_W + n];
	for (int j = 0; j < n; j++)
		p[j] = -xp[j];
	double pp = quad(G, P, p), tiny = 1e-300;
	kf->res = sqrt(fmax(quad(G, P, x), 0) / nr);
	kf->resp = sqrt(fmax(quad(G, P, xp), 0) / nr);
	kf->noise = sqrt(fmax(quad(D, P, x), 0) / (double)f->nd[k] / 70.0);
	kf->typ = sqrt(fmax(bb, pp) / nr);
	kf->ratio = kf->res / fmax(kf->noise, tiny), kf->rel = kf->res / fmax(kf->typ, tiny);
	kf->pratio = kf->resp / fmax(kf->noise, tiny), kf->prel = kf->resp / fmax(kf->typ, tiny);
	kf->grow = kf->resp / fmax(kf->res, tiny);
}

/* 1: no body explains the kind (its residual far over its noise and a
 * large part of it); 2: only a body that is not physical does (the
 * physical body leaves a large part of it, well over the noise, and over
 * RF_GROW times what the unconstrained body leaves); else 0. With every
 * threshold's margin scaled by sc (1: the verdict; 0.5: a kind that fits
 * well). */
static int
verdict_at(const kindfit *k, double sc)
{
	if (k->ratio > sc * RF_RATIO && k->rel > sc * RF_REL)
		return 1;
	if (k->prel > sc * RF_PREL && k->grow > 1 + sc * (RF_GROW - 1) && k->pratio > sc * RF_PRATIO)
		return 2;
	return 0;
}

/* The block's two fits over its kinds but skip (-1: none): x = [-theta, 1]
 * of the least-squares body, xp of the physical one. */
static void
fits(const rowfit *f, int skip, double *x, double *xp)
{
	const int n = f->n;
	double th[16] = { 0 };
	block_fit(f, skip, th);
	for (int j = 0; j < n; j++)
		x[j] = -th[j];
	physical(f, skip, th);
	for (int j = 0; j < n; j++)
		xp[j] = -th[j];
	x[n] = xp[n] = 1;
}

/* Which kinds explain the block's misfit alone: bit j set when, fitted
 * without kind j, every other judged kind fits well (within half of each
 * threshold's margin: one kind that merely tips the others over is not
 * named). A kind read
 * with the wrong sign or unit, or a column of another quantity, is the
 * one whose leaving makes the rest one body's again. */
static unsigned
culprits(const rowfit *f)
{
	unsigned mask = 0;
	for (int j = 0; j < f->stride && j < 32 && f->stride >= 3; j++) {
		double x[16], xp[16];
		int ok = 1;
		fits(f, j, x, xp);
		for (int k = 0; k < f->stride && ok; k++) {
			kindfit kf;
			kind_figures(f, k, x, xp, &kf);
			ok = k == j || !f->bnz[k] || kf.res < 0 || !verdict_at(&kf, 0.5);
		}
		mask |= (unsigned)ok << j;
	}
	return mask;
}

/* A new row of blk for the block being closed, or NULL when it is not
 * kept: every block up to RF_MAX_BLOCKS, then every other one (the kept
 * ones thinned to every other), and so on, so that the memory stays
 * bounded and the blocks kept spread evenly over the log. */
static kindfit *
block_row(rowfit *f)
{
	if (!f->blk) {
		f->stride = f->nk, f->keep = 1;
		if (!(f->blk = malloc((size_t)RF_MAX_BLOCKS * (size_t)f->stride * sizeof(*f->blk))))
			cli_die(EXIT_DATA, "out of memory");
	}
	if (f->closed++ % f->keep != 0)
		return NULL;
	if (f->nblk == RF_MAX_BLOCKS) {
		for (long i = 0; i < RF_MAX_BLOCKS / 2; i++) {
			memcpy(f->blk + (size_t)i * f->stride, f->blk + (size_t)(2 * i) * f->stride,
			    (size_t)f->stride * sizeof(*f->blk));
			f->bad[i] = f->bad[2 * i], f->loo[i] = f->loo[2 * i];
		}
		f->nblk = RF_MAX_BLOCKS / 2;
		f->keep *= 2;
		if ((f->closed - 1) % f->keep != 0)
			return NULL;
	}
	return f->blk + (size_t)f->nblk++ * f->stride;
}

static void
clear_block(rowfit *f)
{
	memset(f->G, 0, (size_t)RF_KINDS * RF_SQ * sizeof(double));
	memset(f->D, 0, (size_t)RF_KINDS * RF_SQ * sizeof(double));
	memset(f->pz, 0, sizeof(f->pz));
	memset(f->nr, 0, RF_KINDS * sizeof(long));
	memset(f->nd, 0, RF_KINDS * sizeof(long));
	f->nb = 0;
}

/* The open block judged by its own least-squares body into a new row of
 * blk (if kept); emptied. */
static void
close_block(rowfit *f)
{
	for (int k = 0; k < f->nk; k++)
		flush_kind(f, k);
	kindfit *kf = block_row(f);
	if (!kf) {
		clear_block(f);
		return;
	}
	double x[16], xp[16];
	fits(f, -1, x, xp);
	int bad = 0;
	for (int k = 0; k < f->stride; k++) {
		kind_figures(f, k, x, xp, &kf[k]);
		bad |= f->bnz[k] && kf[k].res >= 0 && verdict_at(&kf[k], 1);
	}
	f->bad[f->nblk - 1] = bad;
	f->loo[f->nblk - 1] = bad ? culprits(f) : 0;
	clear_block(f);
}

void
rowfit_sample(rowfit *f, double t)
{
	if (f->nb >= RF_BLOCK_MIN && t - f->t0 >= RF_BLOCK_S)
		close_block(f);
	if (f->nb++ == 0)
		f->t0 = t;
}

/* The median of kind k's field at byte offset off over the judged
 * blocks; NAN without any. */
static double
median(const rowfit *f, int k, size_t off, double *scr)
{
	long m = 0;
	for (long b = 0; b < f->nblk; b++) {
		const kindfit *kf = &f->blk[(size_t)b * f->stride + k];
		if (kf->res >= 0)
			scr[m++] = *(const double *)((const char *)kf + off);
	}
	if (m == 0)
		return (double)NAN;
	qsort(scr, (size_t)m, sizeof(double), cli_cmp_double);
	return m % 2 ? scr[m / 2] : 0.5 * (scr[m / 2 - 1] + scr[m / 2]);
}

/* Kind k's name: a rigid body's axis (six rows), the mass model's (its
 * rows are the force's x, y, z), an arm's joint, else the row index. */
static void
kind_name(const rowfit *f, int k, int arm, char *buf, size_t len)
{
	static const char *const axis[6] = { "fx", "fy", "fz", "tx", "ty", "tz" };
	if (arm)
		snprintf(buf, len, "joint %d (row %d)", k + 1, k);
	else if ((f->n == 10 && f->nk == 6) || (f->n == 1 && f->nk <= 3))
		snprintf(buf, len, "%s (row %d)", axis[k], k);
	else
		snprintf(buf, len, "row %d", k);
}

/* The likely causes, from the verdicts present (2 set in bad2, 1 in bad1)
 * and the stream's kind, into buf. */
static void
causes(int bad1, int bad2, int arm, char *buf, size_t len)
{
	int l = 0;
	if (bad2)
		l = snprintf(buf, len, "%s (a body that is not physical, of negative mass or inertia, fits %s)%s",
		    arm ? "efforts of the wrong sign" : "a force or torque of the wrong sign or unit on that axis",
		    arm ? "them" : "it", bad1 ? "; " : "");
	if (bad1 && arm)
		snprintf(buf + l, len - (size_t)l, "effort columns exchanged (--map tau=), efforts of the wrong sign or "
		    "unit, a joint's zero offset or direction, a description of another robot, or friction not modelled "
		    "(tagk-regress --friction-terms viscous,coulomb, or --friction FILE)");
	else if (bad1)
		snprintf(buf + l, len - (size_t)l, "axes exchanged (--map), a force or torque of the wrong sign or unit, "
		    "a thrust map or rotor geometry that is not the vehicle's, a force or torque acting that the rows lack "
		    "(--wrench), or another vehicle's frame");
}

/* Kind k's medians over the blocks. */
typedef struct {
	double res, resp, noise, typ, ratio, rel, pratio, prel, grow;
} kindmed;

static void
kind_medians(const rowfit *f, int k, double *scr, kindmed *m)
{
#define MED(x) m->x = median(f, k, offsetof(kindfit, x), scr)
	MED(res), MED(resp), MED(noise), MED(typ), MED(ratio), MED(rel);
	MED(pratio), MED(prel), MED(grow);
#undef MED
}

/* The kind most blocks that misfit name as their culprit (culprits()),
 * if over half of them do and the misfit is in over half of the blocks;
 * -1 else. */
static int
culprit(const rowfit *f)
{
	long nbad = 0, best = 0;
	int who = -1;
	for (long b = 0; b < f->nblk; b++)
		nbad += f->bad[b];
	for (int j = 0; j < f->stride && j < 32; j++) {
		long c = 0;
		for (long b = 0; b < f->nblk; b++)
			c += f->bad[b] && (f->loo[b] >> j & 1);
		if (c > best)
			best = c, who = j;
	}
	return 2 * nbad > f->nblk && 2 * best > nbad ? who : -1;
}

int
rowfit_judge(rowfit *f, int arm, int verbose)
{
	if (f->nb >= RF_BLOCK_MIN || (f->nb > 0 && f->nblk == 0))
		close_block(f);
	if (f->nblk == 0)
		return 0;
	double *scr = malloc((size_t)f->nblk * sizeof(double));
	if (!scr)
		cli_die(EXIT_DATA, "out of memory");
	int nbad = 0, bad1 = 0, bad2 = 0;
	char list[2048] = "", name[64];
	size_t l = 0;
	for (int k = 0; k < f->stride; k++) {
		kindmed m;
		kind_medians(f, k, scr, &m);
		kind_name(f, k, arm, name, sizeof(name));
		if (verbose && !isnan(m.res))
			cli_warn("fit check: %s: rms left %.3g (%.3g of its size %.3g), %.3g times its noise %.3g; by the nearest "
			    "physical body %.3g (%.3g of its size, %.3g times the noise, %.3g times the other)%s", name, m.res,
			    m.rel, m.typ, m.ratio, m.noise, m.resp, m.prel, m.pratio, m.grow,
			    f->bnz[k] ? "" : " (b is 0 in every row: not judged)");
		kindfit mk = { .ratio = m.ratio, .rel = m.rel, .pratio = m.pratio, .prel = m.prel, .grow = m.grow };
		int v = f->bnz[k] && !isnan(m.res) ? verdict_at(&mk, 1) : 0;
		if (!v)
			continue;
		nbad++, bad1 |= v == 1, bad2 |= v == 2;
		if (nbad > 4)
			continue;
		if (v == 1)
			l += (size_t)snprintf(list + l, sizeof(list) - l, "%s%s %.0f %% left, %s times its noise", l ? "; " : "",
			    name, 100 * m.rel, cli_approx(m.ratio));
		else
			l += (size_t)snprintf(list + l, sizeof(list) - l, "%s%s %.0f %% left by a physical body (%s times its "
			    "noise), %.0f %% by any", l ? "; " : "", name, 100 * m.prel, cli_approx(m.pratio), 100 * m.rel);
	}
	if (nbad > 4)
		snprintf(list + l, sizeof(list) - l, "; and %d more", nbad - 4);
	if (nbad) {
		char why[1024];
		int cu = culprit(f);
		if (cu >= 0) {
			long nb = 0, nc = 0;
			for (long b = 0; b < f->nblk; b++)
				nb += f->bad[b], nc += f->bad[b] && (f->loo[b] >> cu & 1);
			kind_name(f, cu, arm, name, sizeof(name));
			snprintf(why, sizeof(why), "%s: without it the other kinds fit one physical %s (in %ld of the %ld "
			    "blocks that misfit): %s", name, arm ? "load" : "body", nc, nb, arm ? "its effort's sign, unit "
			    "or column (--map tau=)" : "its force's or torque's sign, unit or column (--map)");
		} else {
			causes(bad1, bad2, arm, why, sizeof(why));
		}
		cli_caution("model fit: %d of the %d row kinds %s not explained by a physical %s (the rms residual of each %g s block's "
		    "least-squares body, median of %ld: %s); likely cause: %s (--no-fit-check silences this)",
		    nbad, f->stride, nbad == 1 ? "is" : "are", arm ? "load" : "body", RF_BLOCK_S, f->nblk, list, why);
	}
	free(scr);
	return nbad;
}

void
rowfit_free(rowfit *f)
{
	if (!f)
		return;
	free(f->G);
	free(f->D);
	free(f->ring);
	free(f->seen);
	free(f->nr);
	free(f->nd);
	free(f->bnz);
	free(f->blk);
	free(f);
}
