/*
 * report_params.h: tagk-report on a stream of named parameters that are not
 * one body's ten: a whole arm's base parameters (b1, b2, ...: tagk-regress
 * --base) or every link's standard ones (m_link1, ..., fv_1, ...), as
 * tagk-estimate --batch writes them with their sd_<name> columns.
 *
 * Per parameter, the last estimate with its 95 % interval (+- 1.96 sd), and
 * "not determined" when the interval is at least as wide as the value is
 * far from zero: the log cannot tell it from 0 (an unexcited or weakly
 * excited combination), so its digits mean nothing. With true_<name>
 * columns (a simulated log), each error in sd and whether the interval
 * holds the truth, and the coverage over the parameters. Warnings: a
 * truth outside more than 10 % of the intervals (expected 5 %), counted
 * for --strict.
 */
#ifndef TAGK_REPORT_PARAMS_H
#define TAGK_REPORT_PARAMS_H

#include <stdio.h>
#include "report_check.h"
#include "report_summary.h"
#include "../formats/table.h"

/* 1 if r is such a stream: a column t, no column m, and at least one other
 * column X with a column sd_X. */
int report_is_params(const tbl_reader *r);
/* Read r to its end and print the table to o in fmt. */
void report_params(tbl_reader *r, FILE *o, enum report_fmt fmt, plaus *p);

#endif
