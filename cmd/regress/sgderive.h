/*
 * sgderive.h: derivatives (and smoothing) of a log's columns by a zero-phase
 * Savitzky-Golay filter (lib/signals.h tagk_sg_weights) over a sliding
 * window of rows, for signals a log lacks (a joint log's accelerations from
 * its velocities). Each output row is the input row at the window's centre
 * with the ops' destination slots filled from the window, so the first and
 * last half-windows of the log, and of every segment after a gap, are not
 * written. The window's width in samples is fixed from the median spacing
 * of the first rows; a step over 3 times that spacing is a gap, where the
 * window starts again (no fit across a gap).
 */
#ifndef TAGK_SGDERIVE_H
#define TAGK_SGDERIVE_H

typedef struct {
	int src;   /* the row's column the op reads */
	int deriv; /* 0 smooths, 1 and 2 differentiate */
	int dst;   /* the row slot it writes (may be src itself) */
} sg_op;

typedef struct sgderive sgderive;

/* window: seconds, or 0 to choose it from the first rows (for second
 * derivatives of positions; see choose_window in sgderive.c); order: the
 * polynomial's degree; width: values per row (the slots included); ops are
 * copied. Exits on an impossible setting. */
sgderive *sgd_new(double window, int order, int width, int nops, const sg_op *ops);
/* Push the row at time t (increasing); returns how many finished rows are
 * ready, to be read by sgd_ready(d, 0 .. n-1) before the next push. */
int sgd_push(sgderive *d, double t, const double *row);
/* At the end of the input: rows ready from a log shorter than the probe
 * of the spacing (9 rows); read them as after sgd_push. */
int sgd_finish(sgderive *d);
/* The i-th ready row (width values) and its time. */
const double *sgd_ready(const sgderive *d, int i, double *t);
/* Rows pushed but never written (edges and gaps), gaps, the window in
 * samples and its spacing (s); call at the end. */
void sgd_stats(const sgderive *d, long *dropped, long *gaps, int *samples, double *dt);
/* How the window was chosen from the data, or NULL (given). */
const char *sgd_why(const sgderive *d);
void sgd_free(sgderive *d);

#endif
