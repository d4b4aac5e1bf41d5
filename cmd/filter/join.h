/*
 * join.h: tagk-filter --join, per-topic logs (PX4's ulog2csv, ROS bag
 * exports) put on one time base. Each joined file is read as the stream
 * goes, a few thousand rows ahead (memory does not grow with its length,
 * where reading it whole took 215 MB for a million rows); at every
 * row of the main stream its numeric columns are interpolated linearly
 * between the two samples around the row's time (or the last sample at or
 * before it, with hold), and appended under PREFIX+name.
 *
 * A main row outside a joined file's time span, or inside a gap of it
 * longer than max_gap (default: 5 times the median spacing of the file's
 * first 4097 samples, those read ahead),
 * has no value there: it is dropped and counted, never filled.
 */
#ifndef TAGK_JOIN_H
#define TAGK_JOIN_H

#include "../formats/table.h"

typedef struct join_src join_src;

/* The time of a row: the column tcol, or sec + 1e-9 nsec when stamp names
 * the two columns "SEC,NSEC" (ROS stamp.sec and stamp.nsec). */
typedef struct {
	const char *tcol;
	const char *stamp; /* NULL, or "SEC,NSEC" */
} join_time;

/* Find the time columns of r (dies naming what is missing); *a, *b are the
 * column indexes (b = -1 without stamp). */
void join_time_cols(tbl_reader *r, const join_time *jt, int *a, int *b);

/* Open "FILE[:PREFIX]" and read its first rows (the default gap is theirs:
 * max_gap <= 0). Dies on bad input, then or as it is read. */
join_src *join_load(const char *spec, const join_time *jt, const tbl_options *in, double max_gap, int hold);
int join_ncols(const join_src *j);
/* The output name of column k (PREFIX+name). */
const char *join_name(const join_src *j, int k);
const char *join_path(const join_src *j);
/* Values at time t (non-decreasing from call to call) into out[0..ncols-1]:
 * 1, or 0 when t is outside the file's span or in one of its gaps. */
int join_at(join_src *j, double t, double *out);
/* Rows dropped: outside the span, in a gap. */
void join_dropped(const join_src *j, long *outside, long *gaps);
double join_max_gap(const join_src *j);
void join_free(join_src *j);

#endif
