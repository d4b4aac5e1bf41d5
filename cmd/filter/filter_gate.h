/*
 * filter_gate.h: tagk-filter's steps on estimate streams. --project
 * replaces an estimate that is not physically consistent by the nearest
 * consistent one; --physical applies the TAG-K paper's safety gate (eq.
 * 15) and holds the last valid estimate in place of a rejected one,
 * dropping the rejected ones before the first valid one. Mass-only
 * streams (column m alone) are gated on m > 0.
 */
#ifndef TAGK_FILTER_GATE_H
#define TAGK_FILTER_GATE_H

#include "../formats/table.h"
#include "../lib/tagk.h"

/* Why eq. (15) rejected estimates, and by how much at worst. */
typedef struct {
	long n[5];       /* per TAGK_GATE_* bit */
	double c_max;    /* largest ||c|| among the centre-of-mass rejections */
	double ev_min;   /* smallest eigenvalue of I among the not-definite ones */
	double ev_max;   /* largest eigenvalue among the lambda_max ones */
} gate_stats;

typedef struct {
	/* settings, the caller's */
	int physical, project;
	double l_arm, alpha, floor_ev;
	/* the estimate's columns (np: 1 or 10) and the run's state */
	int np, ip[TAGK_NPARAM], have_held;
	double held[TAGK_NPARAM];
	gate_stats gs;
	long estimates, rejected, dropped, projected;
} filter_gate;

/* Find the estimate's columns in r; an error if a step is asked for and
 * r is not an estimate stream. */
void fgate_open(filter_gate *g, tbl_reader *r);
/* 1 if column i is one the steps read (so it must be numeric). */
int fgate_is_column(const filter_gate *g, int i);
/* Apply the steps to row (in place); 0 if the row is to be dropped. */
int fgate_row(filter_gate *g, tbl_reader *r, double *row);
/* When no row is left: the error, if the gate rejected everything. */
void fgate_refuse_empty(const filter_gate *g, tbl_reader *r);
/* The counts, on stderr. */
void fgate_report(const filter_gate *g);

#endif
