/* timeunit.c: see timeunit.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "timeunit.h"
#include "cli.h"

/* Slower than 2 Hz: no flight or robot log sampled for inertia is. */
#define TIMEUNIT_MAX_MEDIAN 0.5

void
timeunit_init(timeunit *u, int said, const char *name, const char *col)
{
	memset(u, 0, sizeof(*u));
	u->last = (double)NAN;
	u->said = said;
	u->name = name;
	u->col = col;
}

double
timeunit_median(const timeunit *u)
{
	if (u->n == 0)
		return (double)NAN;
	double g[TIMEUNIT_GAPS];
	memcpy(g, u->gap, (size_t)u->n * sizeof(g[0]));
	qsort(g, (size_t)u->n, sizeof(g[0]), cli_cmp_double);
	return g[u->n / 2];
}

static void
check(timeunit *u)
{
	u->said = 1;
	double med = timeunit_median(u);
	if (!(med > TIMEUNIT_MAX_MEDIAN))
		return;
	cli_die(EXIT_DATA, "%s: its samples are %.4g s apart (the median of its first %d time steps), too far "
	    "apart for a flight or robot log: is its time column '%s' in ms, us or ns? Say so with --time-unit "
	    "ms, us or ns (--time-unit s reads it as seconds)", u->name, med, u->n, u->col);
}

void
timeunit_add(timeunit *u, double t)
{
	if (u->said)
		return;
	if (u->last == u->last)
		u->gap[u->n++] = t - u->last;
	u->last = t;
	if (u->n == TIMEUNIT_GAPS)
		check(u);
}

void
timeunit_end(timeunit *u)
{
	if (!u->said && u->n >= 2)
		check(u);
}
