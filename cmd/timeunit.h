/*
 * timeunit.h: a guard against a log's time column read in the wrong unit.
 *
 * A ROS bag exported to CSV stamps its rows in nanoseconds, a PX4 log in
 * microseconds, many loggers in milliseconds. Read as seconds, such a log
 * has samples 1e7 "s" apart: with alpha in the log its rows come out
 * whole, with nothing wrong but t, and every later step in seconds (the
 * estimator's --every, tagk-report's spacing) misreads it; without alpha
 * the gyro's derivative fails with a message about gaps. So the spacing of
 * the first samples is checked: a median over half a second, which no
 * log an inertia can be estimated from has, is refused with the units to
 * try, unless the user said the unit (--time-unit).
 */
#ifndef TAGK_TIMEUNIT_H
#define TAGK_TIMEUNIT_H

enum { TIMEUNIT_GAPS = 8 }; /* before sgderive sizes its window from its first 9 rows */

typedef struct {
	double gap[TIMEUNIT_GAPS];
	double last;
	int n, said;      /* gaps kept; the unit given, or the check done */
	const char *name; /* the log, in messages */
	const char *col;  /* its time column */
} timeunit;

/* said: the user gave --time-unit (then nothing is checked). */
void timeunit_init(timeunit *u, int said, const char *name, const char *col);
/* Each increasing time, in seconds: the check runs at the 8th gap. */
void timeunit_add(timeunit *u, double t);
/* At the end of the log: the check, if it has not run (two gaps at least). */
void timeunit_end(timeunit *u);
/* The median gap so far, in seconds (NaN before the first gap). */
double timeunit_median(const timeunit *u);

#endif
