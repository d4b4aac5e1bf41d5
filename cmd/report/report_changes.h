/*
 * report_changes.h: tagk-report on the segments of tagk-estimate --batch
 * --segment auto without truth: each change, its time and the 95 %
 * interval of that time, and each parameter before -> after with its
 * 95 % interval (estimate +- 1.96 sd); a drifting segment's rate dm/dt.
 */
#ifndef TAGK_REPORT_CHANGES_H
#define TAGK_REPORT_CHANGES_H

#include <stdio.h>
#include "report_summary.h"
#include "../formats/table.h"

/* 1 if r carries the columns of --segment auto (t_start, t_start_lo,
 * t_start_hi). */
int report_has_changes(tbl_reader *r);
/* Read r's segments (np parameters at ip) and print the changes to o;
 * each segment's mass judged against the nominal mass and the stream's
 * upstream warnings counted (report_check.h), into p. */
void report_changes(tbl_reader *r, int np, const int *ip, FILE *o, enum report_fmt fmt, plaus *p);

#endif
