/*
 * report_interval.h: a parameter's total uncertainty from its parts, the
 * one place tagk-report computes it (the summary, the scores and the
 * checks against a nominal mass all go through report_total_sd).
 *
 * An estimate stream carries, per parameter, the noise's part sd_<param>
 * (tagk-estimate: Newey-West over the residuals, so correlated noise
 * counts) and, where tagk-regress knew the rows' scale's relative sd (a
 * thrust map's, a commanded thrust's), the systematic part
 * sd_sys_<param> = that relative sd times |theta|. The two are
 * independent errors and add in quadrature (GUM: type A and type B):
 *
 *   sd_total = sqrt(sd^2 + sd_sys^2).
 */
#ifndef TAGK_REPORT_INTERVAL_H
#define TAGK_REPORT_INTERVAL_H

#include <stddef.h>
#include "../formats/table.h"

/* The total sd: sqrt(sd_noise^2 + sd_sys^2); sd_noise alone when sd_sys
 * is NaN (a stream without the part); NaN when sd_noise is NaN (the
 * method has no sd yet: the systematic part alone would be too short). */
double report_total_sd(double sd_noise, double sd_sys);
/* The columns sd_sys_<param> of the first np parameters into isys and
 * asked for (nullable); 1 if the stream has all of them, else 0 (isys all
 * -1). */
int report_sys_columns(tbl_reader *r, int np, int *isys);   /* some but not all: exit 1 */
/* x, the cell of r's column col in the row just read, as an sd: empty
 * (NaN) passes, a negative one is refused (exit 1 naming the row), since
 * its interval would come out reversed and the value "determined". */
double report_sd_cell(tbl_reader *r, int col, double x);
/* What the systematic part is of, for the report: the stream's note
 * scale_sd_of (tagk-regress: "thrust map", "commanded thrust", "efforts"),
 * else "scale". */
const char *report_sys_label(const tbl_reader *r);
/* What the noise's part is, by the stream's note sd_noise (tagk-formats(5):
 * newey-west, white, spread; NULL or another: the stream does not say),
 * as the report's notes word it. */
const char *report_noise_form(const char *sd_noise);

#endif
