/* quantile.c: exact quantiles in bounded memory; see quantile.h. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "quantile.h"

enum { DIGIT = 11, PASSES = 6, MAX_RANKS = 16 };

struct qspool {
	int ncols;
	long count[QS_MAX_COLS];
	double *held;      /* QS_HELD rows: the rows not yet on disk, or a block read back */
	long nheld;
	FILE *f;           /* the spill file, once the rows outgrow held */
	long nfile;        /* rows in it */
};

qspool *
qs_new(int ncols)
{
	qspool *q = calloc(1, sizeof(*q));
	if (!q || ncols < 1 || ncols > QS_MAX_COLS || !(q->held = malloc((size_t)QS_HELD * (size_t)ncols * sizeof(double))))
		cli_die(EXIT_DATA, "out of memory");
	q->ncols = ncols;
	return q;
}

static FILE *
spill_file(void)
{
	return cli_tmpfile("the quantiles of a long stream");
}

static void
flush_held(qspool *q)
{
	if (!q->nheld)
		return;
	if (!q->f)
		q->f = spill_file();
	size_t n = (size_t)q->nheld * (size_t)q->ncols;
	if (fwrite(q->held, sizeof(double), n, q->f) != n)
		cli_die(EXIT_DATA, "cannot write the quantiles' temporary file: %s", strerror(errno));
	q->nfile += q->nheld;
	q->nheld = 0;
}

void
qs_add(qspool *q, const double *row)
{
	if (q->nheld == QS_HELD)
		flush_held(q);
	memcpy(q->held + (size_t)q->nheld * (size_t)q->ncols, row, (size_t)q->ncols * sizeof(double));
	q->nheld++;
	for (int c = 0; c < q->ncols; c++)
		q->count[c] += !isnan(row[c]);
}

long
qs_count(const qspool *q, int c)
{
	return q->count[c];
}

/* Call fn on every block of rows, in order: the held rows when nothing
 * went to disk, else the file read back through held. */
void
qs_each(qspool *q, void (*fn)(void *ctx, const double *rows, long n), void *ctx)
{
	if (!q->f) {
		fn(ctx, q->held, q->nheld);
		return;
	}
	flush_held(q);
	if (fflush(q->f) != 0 || fseek(q->f, 0, SEEK_SET) != 0)
		cli_die(EXIT_DATA, "cannot read the quantiles' temporary file back: %s", strerror(errno));
	for (long done = 0; done < q->nfile;) {
		long k = q->nfile - done < QS_HELD ? q->nfile - done : QS_HELD;
		size_t n = (size_t)k * (size_t)q->ncols;
		if (fread(q->held, sizeof(double), n, q->f) != n)
			cli_die(EXIT_DATA, "cannot read the quantiles' temporary file back: %s", strerror(errno));
		fn(ctx, q->held, k);
		done += k;
	}
}

/* The order-preserving key of a double: unsigned comparison of keys is the
 * numeric order (-0 just below +0). */
static uint64_t
key_of(double x)
{
	uint64_t u;
	memcpy(&u, &x, 8);
	return u >> 63 ? ~u : u | UINT64_C(1) << 63;
}

static double
double_of(uint64_t k)
{
	uint64_t u = k >> 63 ? k & ~(UINT64_C(1) << 63) : ~k;
	double x;
	memcpy(&x, &u, 8);
	return x;
}

/* One pass of the radix selection. */
typedef struct {
	int ncols, c, nr, hi, w;
	uint64_t prefix[MAX_RANKS];
	uint64_t (*hist)[1 << DIGIT];
} pass;

static void
count_block(void *ctx, const double *rows, long n)
{
	pass *p = ctx;
	const uint64_t mask = (UINT64_C(1) << p->w) - 1;
	for (long i = 0; i < n; i++) {
		double x = rows[(size_t)i * (size_t)p->ncols + (size_t)p->c];
		if (isnan(x))
			continue;
		uint64_t k = key_of(x);
		unsigned d = (unsigned)((k >> (p->hi - p->w)) & mask);
		if (p->hi == 64) {
			p->hist[0][d]++; /* the first pass: one histogram for every rank */
			continue;
		}
		uint64_t top = k >> p->hi;
		for (int r = 0; r < p->nr; r++)
			if (top == p->prefix[r])
				p->hist[r][d]++;
	}
}

/* The values of ranks rank[0..nr-1] (0-based, each below the column's
 * count) of column c, exactly. */
static void
select_ranks(qspool *q, int c, const long *rank, int nr, double *out)
{
	pass p = { .ncols = q->ncols, .c = c, .nr = nr };
	p.hist = malloc((size_t)nr * sizeof(*p.hist));
	if (!p.hist)
		cli_die(EXIT_DATA, "out of memory");
	long left[MAX_RANKS];
	for (int r = 0; r < nr; r++)
		left[r] = rank[r];
	for (int hi = 64; hi > 0; hi -= DIGIT) {
		p.hi = hi;
		p.w = hi < DIGIT ? hi : DIGIT;
		memset(p.hist, 0, (size_t)nr * sizeof(*p.hist));
		qs_each(q, count_block, &p);
		for (int r = 0; r < nr; r++) {
			const uint64_t *h = p.hist[hi == 64 ? 0 : r];
			unsigned d = 0;
			while (d + 1 < 1u << p.w && left[r] >= (long)h[d])
				left[r] -= (long)h[d++];
			p.prefix[r] = p.prefix[r] << p.w | d;
		}
	}
	for (int r = 0; r < nr; r++)
		out[r] = double_of(p.prefix[r]);
	free(p.hist);
}

void
qs_quantiles(qspool *q, int c, const double *qv, int nq, double *out)
{
	long n = q->count[c];
	if (n == 0 || nq > MAX_RANKS / 2) {
		for (int i = 0; i < nq; i++)
			out[i] = (double)NAN;
		return;
	}
	long rank[MAX_RANKS];
	double h[MAX_RANKS], v[MAX_RANKS];
	for (int i = 0; i < nq; i++) {
		h[i] = qv[i] * (double)(n - 1);
		long lo = (long)floor(h[i]);
		rank[2 * i] = lo < n - 1 ? lo : n - 1;
		rank[2 * i + 1] = lo + 1 < n ? lo + 1 : n - 1;
	}
	if (!q->f) {
		/* in memory: sort a copy of the column */
		double *x = malloc((size_t)(n ? n : 1) * sizeof(double));
		if (!x)
			cli_die(EXIT_DATA, "out of memory");
		long k = 0;
		for (long i = 0; i < q->nheld; i++) {
			double y = q->held[(size_t)i * (size_t)q->ncols + (size_t)c];
			if (!isnan(y))
				x[k++] = y;
		}
		qsort(x, (size_t)k, sizeof(double), cli_cmp_double);
		for (int i = 0; i < 2 * nq; i++)
			v[i] = x[rank[i]];
		free(x);
	} else {
		select_ranks(q, c, rank, 2 * nq, v);
	}
	for (int i = 0; i < nq; i++) {
		double lo = floor(h[i]);
		out[i] = rank[2 * i] == rank[2 * i + 1] ? v[2 * i] : v[2 * i] + (h[i] - lo) * (v[2 * i + 1] - v[2 * i]);
	}
}

typedef struct {
	int ncols, c;
	double x;
	long n;
} above;

static void
above_block(void *ctx, const double *rows, long n)
{
	above *a = ctx;
	for (long i = 0; i < n; i++)
		a->n += rows[(size_t)i * (size_t)a->ncols + (size_t)a->c] > a->x;
}

long
qs_count_above(qspool *q, int c, double x)
{
	above a = { q->ncols, c, x, 0 };
	qs_each(q, above_block, &a);
	return a.n;
}

void
qs_free(qspool *q)
{
	if (!q)
		return;
	if (q->f)
		fclose(q->f);
	free(q->held);
	free(q);
}
