/*
 * changepoint.h: exact segmentation of a linear regression into pieces of
 * constant parameters (tagk-estimate --segment auto).
 *
 * The data are m blocks of consecutive samples, each reduced to its
 * weighted sufficient statistics (H = sum w y y^T, h = sum w y b,
 * c = sum w b^2; packed: H's upper triangle row by row, n(n+1)/2 values,
 * then h, n values, then c: tagk_cp_width(n) doubles). A segment of blocks
 * [i, j) costs its least-squares residual C(i, j) = c - h^T H^+ h (in the
 * units of the weights: with w = 1 / sigma^2 it is chi-square like), read
 * from prefix sums in O(n^3). The segmentation minimises
 *     sum of C over the segments + beta * (number of changes)
 * over boundaries on a grid of candidate positions, by optimal
 * partitioning with PELT's pruning (Killick, Fearnhead, Eckley, JASA 2012:
 * exact, as C(a, b) + C(b, c) <= C(a, c) for least squares).
 *
 * Prefix sums are compensated (each a pair hi + lo, Knuth's two-sum): a
 * segment's sums are differences of two prefixes, which over an hour of
 * samples would otherwise lose the digits of c that its residual is.
 *
 * No allocation, no I/O: every array is the caller's.
 */
#ifndef TAGK_CHANGEPOINT_H
#define TAGK_CHANGEPOINT_H

#include <stddef.h>
#include "regressor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Doubles in one block's packed sums for n parameters (1 .. TAGK_NPARAM
 * times any number of bodies up to 64 parameters). */
size_t tagk_cp_width(int n);
/* Add one row y (n values), right-hand side b, weight w into the packed
 * sums blk. */
void tagk_cp_add_row(int n, double *blk, const double *y, double b, double w);
/* The compensated prefix sums of m blocks (m * width doubles, block after
 * block) into hi and lo ((m + 1) * width doubles each; entry 0 is zero). */
void tagk_cp_prefix(int n, const double *blocks, long m, double *hi, double *lo);
/* The residual C(i, j) of blocks [i, j) (0 <= i < j <= m) from the
 * prefixes; ws holds n * n + n + 1 doubles. Columns that are linearly
 * dependent on earlier ones (a pivot below 1e-10 of its diagonal) are left
 * out, which does not change the least residual; the result is >= 0. */
double tagk_cp_cost(int n, const double *hi, const double *lo, long i, long j, double *ws);

/* The optimal segmentation on the candidate positions pos[0 .. K]
 * (increasing prefix indices, pos[0] = 0, pos[K] = m): segments of at
 * least minlen blocks (>= 1), each further segment costing beta (>= 0).
 * F (2 (K + 1) doubles), last (2 (K + 1) longs), active (K + 1 longs) and ws
 * (n * n + n + 1 doubles) are workspace. The changes (prefix indices, in
 * order, at most maxcp) go to cp; returns their number, or -1 if more
 * than maxcp; *total gets the minimum (costs plus beta per change). */
long tagk_cp_segment(int n, const double *hi, const double *lo, const long *pos, long K, long minlen, double beta,
    double *F, long *last, long *active, double *ws, long *cp, long maxcp, double *total);

#ifdef __cplusplus
}
#endif

#endif
