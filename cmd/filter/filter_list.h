/*
 * filter_list.h: tagk-filter --list, what a log holds: for a PX4 ULog its
 * topics (samples, rate, time span, fields) and parameters; for any other
 * format its rows, the rate and span of its time column, and its columns.
 */
#ifndef TAGK_FILTER_LIST_H
#define TAGK_FILTER_LIST_H

#include "../formats/table.h"

/* List input (read with in; tcol its time column outside a ULog) on
 * stdout; dies on bad input. Returns the exit status. */
int filter_list(const char *input, const tbl_options *in, const char *tcol);

#endif
