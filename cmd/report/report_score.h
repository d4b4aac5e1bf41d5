/*
 * report_score.h: tagk-report with truth: every estimate of a stream
 * against the truth, its own true_<param> columns or a --truth file.
 *
 * A truth file (columns t and, per parameter, true_<param> or <param>) is
 * a step function of time from its first row: an estimate at time t meets
 * the last truth row at or before t (with interp, the straight line
 * between the rows around t, and the last row after it). Every estimate at
 * or after the first truth row is scored; those before it are counted and
 * reported on stderr. Time must increase in the stream and in the truth.
 *
 * Scores per parameter: RMSE, MAE, NMAE (MAE over the mean |truth|),
 * RMSPE (paper 001's eq. 33, over the rows whose truth is not 0); the
 * relative error of all parameters; for the rigid body the errors by block
 * and the log-det divergence of pseudo-inertias; at every change of the
 * truth, the error of the first estimate after it and the time until it is
 * back within the tolerance; when the stream reports changes (online
 * --detect or offline --segment auto), their detection (report_detect.h).
 * A score that is not finite (an estimate so
 * large that its square overflows) is refused with the estimate that
 * caused it. Memory is bounded: the events kept are capped, and --logdet
 * writes its series as it reads.
 */
#ifndef TAGK_REPORT_SCORE_H
#define TAGK_REPORT_SCORE_H

#include "cmdio.h"
#include "report_check.h"
#include "report_summary.h"
#include "report_detect.h"

typedef struct {
	const char *truthfile;  /* NULL: the stream's own true_* columns */
	int interp;             /* the truth file: linear between rows, not steps */
	double tol;             /* recovery tolerance, % */
	int logdet;             /* the divergence series instead of the report */
	int about_com;          /* score m, c and the inertia about c */
	enum report_fmt fmt;
	double detect_tol;      /* change detection: a hit within this, s (report_detect.h) */
} score_opts;

/* The estimate columns of r: t into *it, the parameters into ip; returns
 * their number (1 or TAGK_NPARAM) with all of them wanted, or dies. */
int report_estimate_cols(tbl_reader *r, int *it, int *ip);
/* 1 if r carries true_* columns for its parameters, 0 if none; dies if
 * only some. */
int report_has_truth(tbl_reader *r, int np);
/* Score r (columns from report_estimate_cols) and print to w. Dies with a
 * one-line message on bad data. */
void report_score(tbl_reader *r, int it, int np, const int *ip, const score_opts *o, cmdio_file *w, plaus *p);

#endif
