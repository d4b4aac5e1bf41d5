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
 *   - a mass farther from the vehicle's nominal mass than its 95 %
 *     interval allows (PLAUS_Z sd; a stream without sd: PLAUS_FACTOR),
 *     when one is known (--nominal-mass, or a vehicle file's 'mass');
 *   - a warning a command upstream gave, which the stream carries
 *     (tagk-formats(5)).
 * The body is judged on the parameters the data determine: a run whose
 * inertia they do not (no rotational excitation) is judged by its mass.
 */
#ifndef TAGK_REPORT_CHECK_H
#define TAGK_REPORT_CHECK_H

#include <stdio.h>
#include "../formats/table.h"

#define PLAUS_FACTOR 1.5
/* An estimate disagrees with the nominal mass beyond its 95 % interval. */
#define PLAUS_Z 1.96

/* Whether the data determine a parameter, and if not why. */
enum { PLAUS_DETERMINED, PLAUS_UNEXCITED, PLAUS_WIDE, PLAUS_WANDERS };

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
 * parameters and how many of its n estimates were physical; det[j]
 * (NULL: all determined) as plaus_determined says; what is judged as
 * plaus_judgeable says. */
void plaus_check(plaus *p, const char *name, const char *what, int np, const double *theta, long physical, long n,
    const int *det);
/* What plaus_check judges of a body whose parameters are det (NULL: all
 * determined): 2 the whole body, when m, Ixx, Iyy and Izz are determined
 * and no direction is unexcited (a first moment or product of inertia
 * merely wider than its size is near zero); 1 the mass alone (m > 0);
 * 0 nothing (m not determined). */
int plaus_judgeable(int np, const int *det);
/* The sd through which an estimate x of parameter j is judged, given its
 * row's sd (sd_<param>; NaN when none): the one place that says which sd
 * the verdicts use. */
double plaus_sd(int j, double x, double sd);
/* PLAUS_DETERMINED, or why not: an unexcited direction names it, its 95 %
 * interval (1.96 sd) is wider than |x|, or its quartiles over the run are
 * farther apart than |med| (it wanders over more than its size). */
int plaus_determined(double x, double sd, double med, double iqr, int unexcited);
const char *plaus_why(int why);
/* The mass m (sd: plaus_sd's, NaN or 0 when none) against the nominal
 * mass, when one is known: a warning naming how many sd off it is when
 * it is beyond PLAUS_Z sd (without an sd, beyond PLAUS_FACTOR). what
 * names the estimate ("median", "last", "segment ending at 4.99 s"). */
void plaus_nominal(plaus *p, double nominal, const char *name, const char *what, double m, double sd);
/* The nominal mass r is judged against: --nominal-mass's or --vehicle's,
 * else the stream's note nominal_mass (tagk-regress's vehicle file's
 * mass), else NaN. Once r is read to its end. */
double plaus_nominal_of(const plaus *p, const tbl_reader *r);
/* The warnings r carried from upstream commands (tagk-formats(5)), each
 * on stderr and counted for --strict. */
void plaus_upstream(plaus *p, const char *name, tbl_reader *r);

#endif
