/*
 * report_ncc.h: tagk-report --ncc: predicted signals against measured ones
 * by paper 002's normalised cross-correlation (lib/metrics.h, tagk_ncc).
 * Every column pred_X of the stream is scored against its column X; the
 * NCC is maximised over shifts of up to max_shift seconds (the samples'
 * median spacing converts it). Rows must be evenly spaced in t.
 */
#ifndef TAGK_REPORT_NCC_H
#define TAGK_REPORT_NCC_H

#include <stdio.h>
#include "report_summary.h"
#include "../formats/table.h"

/* Read r to its end and print one line per pair to o; dies (exit 1) on a
 * stream without pred_* columns, a pred_X without X, a read error, or
 * fewer than 2 rows. */
void report_ncc(tbl_reader *r, double max_shift, FILE *o, enum report_fmt fmt);

#endif
