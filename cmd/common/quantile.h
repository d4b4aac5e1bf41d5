/*
 * quantile.h: exact quantiles of long streams of doubles in bounded memory.
 *
 * Rows of up to QS_MAX_COLS values are added one by one. Up to QS_HELD
 * rows are held in memory and the quantiles come from sorting them. Past
 * that, every row goes to an unlinked temporary file (in $TMPDIR, else
 * /tmp) in blocks, and each quantile is found by radix selection over the
 * file: six passes of 11 bits over the values' order-preserving 64-bit
 * keys, each pass counting, for every rank sought, the values that share
 * the prefix found so far. The result is the exact order statistic, the
 * same as sorting would give, whatever the stream's length; memory stays
 * about QS_HELD rows plus 2048 counters per rank sought, and the file
 * holds 8 bytes per value.
 *
 * NaN values are not counted: each column has its own count of values.
 */
#ifndef TAGK_QUANTILE_H
#define TAGK_QUANTILE_H

#include <stdio.h>

enum { QS_MAX_COLS = 16, QS_HELD = 1 << 16 };

typedef struct qspool qspool;

/* A spool of rows of ncols values (1..QS_MAX_COLS); dies out of memory. */
qspool *qs_new(int ncols);
/* Add one row; dies (exit 1, naming the temporary's directory) when the
 * spool must go to disk and cannot. */
void qs_add(qspool *q, const double *row);
/* The number of non-NaN values in column c. */
long qs_count(const qspool *q, int c);
/* The q-quantiles of column c (each q in [0, 1]), linear between order
 * statistics as NumPy's default: out[i] for qv[i], i < nq <= 8. NaN when
 * the column has no values. */
void qs_quantiles(qspool *q, int c, const double *qv, int nq, double *out);
/* Call fn on every row added, in order, a block at a time (rows of ncols
 * values, n of them); the rows go through memory QS_HELD at a time. */
void qs_each(qspool *q, void (*fn)(void *ctx, const double *rows, long n), void *ctx);
/* The number of values of column c above x. */
long qs_count_above(qspool *q, int c, double x);
void qs_free(qspool *q);

#endif
