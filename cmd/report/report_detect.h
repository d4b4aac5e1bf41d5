/*
 * report_detect.h: tagk-report with truth scores change detection: the
 * changes an estimate stream reports, online (tagk-estimate --detect: the
 * rows whose column event is 1, each with its change time event_t) or
 * offline (--segment auto: each segment's t_start from the second on),
 * against the truth's changes.
 *
 * The truth's change times: with --truth FILE, the time of each row of the
 * file where a parameter differs from the row before (relative 1e-9);
 * from the stream's own true_* columns, the middle of the two estimate
 * rows between which they change (online streams only: a segment row
 * carries the truth at its end, which does not say when it changed, so
 * offline streams are scored against --truth FILE).
 *
 * In time order, each truth change is matched with the first reported
 * change not matched yet within tol seconds of it: a hit, with its timing
 * error (reported time - true time) and, online, its delay (the time of
 * the row that reported it - true time); a truth change without one is a
 * miss, a reported change matched to none a false alarm.
 */
#ifndef TAGK_REPORT_DETECT_H
#define TAGK_REPORT_DETECT_H

#include <stdio.h>
#include "report_summary.h"
#include "../formats/table.h"
#include "../lib/tagk.h"

enum { DETECT_MAX = 1000 };

typedef struct {
	int src;                 /* 0 none, 1 online (event), 2 offline (t_start),
	                            3 offline without a truth file (a note only) */
	int iev, iet;            /* event and event_t, or t_start */
	double tol;              /* seconds */
	long nrep, ntrue;        /* reported changes, truth changes (may exceed DETECT_MAX) */
	double rep_t[DETECT_MAX], rep_at[DETECT_MAX]; /* reported change time, and its row's */
	double true_t[DETECT_MAX];
	int match[DETECT_MAX];   /* per truth change: the reported one matched, -1 none */
	int used[DETECT_MAX];
	double prev_truth[TAGK_NPARAM], t_prev;
	int np, have_prev, from_file;
	long hits, misses, false_alarms;
} detect_score;

/* Find r's detection columns (none: src 0, nothing scored); from_file: the
 * truth's times come from detect_truth_file, not the stream's rows. */
void detect_open(detect_score *d, tbl_reader *r, int np, double tol, int from_file);
/* The truth change times from a truth file (the columns t and, per
 * parameter, true_<param> or <param>). */
void detect_truth_file(detect_score *d, const char *path);
/* One row of the stream at time t with its truth (np values). */
void detect_row(detect_score *d, const double *row, double t, const double *truth);
/* Match (above); call once after the last row. */
void detect_finish(detect_score *d);
/* Text or Markdown (md): a paragraph; nothing when src is 0, a note when 3. */
void detect_print_text(FILE *o, int md, const detect_score *d);
/* JSON: the member "detection": {...} preceded by ",\n" (nothing when src
 * is 0 or 3). */
void detect_print_json(FILE *o, const detect_score *d);

#endif
