/*
 * report_check.h: tagk-report's plausibility checks. An answer that cannot
 * be physical is flagged wherever tagk-report prints it: on stderr as a
 * warning, and with --strict as a non-zero exit after the report.
 *
 *   - a printed median (or final estimate) that is not a physical body:
 *     m <= 0, or for the rigid body a pseudo-inertia that is not positive
 *     semidefinite (a negative principal moment, or one larger than the
 *     other two together);
 *   - fewer than half of the estimates physical;
 *   - a mass farther than PLAUS_FACTOR from the vehicle's nominal mass,
 *     when one is known (--nominal-mass, or a vehicle file's 'mass').
 */
#ifndef TAGK_REPORT_CHECK_H
#define TAGK_REPORT_CHECK_H

#include <stdio.h>
#include "../formats/table.h"

#define PLAUS_FACTOR 1.5

typedef struct {
	double nominal;   /* kg; NaN when unknown */
	int strict;
	int warnings;     /* issued so far */
} plaus;

/* The count of physical estimates in a stream. tagk-estimate writes an
 * estimate that is not physical as the nearest physical body, with its
 * column physical 0: the count is of the method's estimates (the column),
 * and those projected are counted apart. A stream without the column (an
 * older or foreign one) is judged by its values. */
typedef struct {
	int col;          /* the physical column, or -1 */
	long physical;    /* estimates the method gave physical */
	long projected;   /* written as the nearest physical body */
} plaus_count;

/* Find (and want) the physical column of r. */
void plaus_count_init(plaus_count *c, tbl_reader *r);
/* One estimate: its np values and the row they came from. */
void plaus_count_row(plaus_count *c, int np, const double *est, const double *row);
/* "<h>physical bodies: ..." for n estimates, one line. */
void plaus_count_print(FILE *o, const char *h, const plaus_count *c, long n);

/* 1 if theta (np = 1 or 10) is a physical body. */
int plaus_physical(int np, const double *theta);
/* The checks of one input's printed answer: its median (or final)
 * parameters and how many of its n estimates were physical. */
void plaus_check(plaus *p, const char *name, const char *what, int np, const double *theta, long physical, long n);

#endif
