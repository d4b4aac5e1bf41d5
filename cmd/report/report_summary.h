/*
 * report_summary.h: tagk-report without truth. Per parameter of an
 * estimate stream: the count, median, quartiles and interquartile range
 * (linear interpolation between order statistics, NumPy's default), the
 * first and last value; for the stream, its time span, the median spacing
 * of the estimates and the gaps longer than 1.5 times that spacing, where
 * updates were refused or samples skipped; and tagk-estimate's count of
 * refused updates when the stream carries it (its #tagk-note line).
 * When the stream carries sd_<param> columns, the last estimate's 95 %
 * interval, last +- 1.96 sd; and the share of the estimates that are
 * physical bodies (report_check.h), with the checks of the median.
 */
#ifndef TAGK_REPORT_SUMMARY_H
#define TAGK_REPORT_SUMMARY_H

#include <stdio.h>
#include "report_check.h"
#include "../formats/table.h"

enum report_fmt { F_TEXT, F_MD, F_CSV, F_JSON };

typedef struct summary summary;

/* Read every row of r (columns it and ip[0..np-1] wanted); dies on a read
 * error or an empty stream. */
summary *summary_read(tbl_reader *r, int it, int np, const int *ip);
void summary_print(FILE *o, enum report_fmt fmt, const char *name, const summary *s, plaus *p);
void summary_free(summary *s);

#endif
