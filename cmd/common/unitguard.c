/* unitguard.c: see unitguard.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "unitguard.h"
#include "cli.h"
#include "../lib/tagk.h"
#include "../lib/so3.h"

/* Slower than 2 Hz: no flight or robot log sampled for inertia is. */
#define TIMEUNIT_MAX_MEDIAN 0.5

double
timeunit_scale(const char *opt, const char *arg)
{
	static const char *const units[] = { "s", "ms", "us", "ns", NULL };
	static const double scales[] = { 1, 1e-3, 1e-6, 1e-9 };
	return scales[cli_choose(opt, arg, units, "s, ms, us or ns")];
}

void
timeunit_init(timeunit *u, int said, const char *name, const char *col)
{
	memset(u, 0, sizeof(*u));
	u->last = (double)NAN;
	u->said = said;
	u->name = name;
	u->col = col;
}

static void
check(timeunit *u)
{
	u->said = 1;
	qsort(u->gap, (size_t)u->n, sizeof(u->gap[0]), cli_cmp_double);
	double med = u->gap[u->n / 2];
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

/* 0.4 to 2.5 g: see unitguard.h */
#define ACC_MIN 4.0
#define ACC_MAX 25.0

void
accunit_init(accunit *u, int said, int in_g, const char *name, const char *cols)
{
	memset(u, 0, sizeof(*u));
	u->said = said;
	u->in_g = in_g;
	u->name = name;
	u->cols = cols;
}

/* What a median magnitude med (m/s^2, as read) suggests: the other unit
 * when it would pass in it. Read as g near 1 may also be a linear
 * acceleration (gravity removed) of a body moving hard: magnitudes alone
 * cannot tell, so both are said. */
static const char *
acc_hint(const accunit *u, double med)
{
	double other = u->in_g ? med / TAGK_G0 : med * TAGK_G0;
	int fits = other >= ACC_MIN && other <= ACC_MAX;
	if (fits && !u->in_g)
		return "is it in g (say --acc-unit g), or the acceleration with gravity removed (tagk needs "
		    "the accelerometer's reading, gravity included)?";
	if (fits)
		return "it looks like m/s^2, not the preset's g: say --acc-unit mps2";
	if (med < ACC_MIN)
		return "is it the acceleration with gravity removed? tagk needs the accelerometer's reading, "
		    "gravity included";
	return "check its unit (mg? ft/s^2?)";
}

static void
acc_check(accunit *u)
{
	u->said = 1;
	qsort(u->mag, (size_t)u->n, sizeof(u->mag[0]), cli_cmp_double);
	double med = u->mag[u->n / 2];
	if (med >= ACC_MIN && med <= ACC_MAX)
		return;
	cli_die(EXIT_DATA, "%s: the specific force (%s) has a median magnitude of %.3g m/s^2 over its first %d "
	    "samples, where an accelerometer on a body that is not falling reads about 9.81 (0.4 to 2.5 g "
	    "accepted): %s (an explicit --acc-unit skips this check)", u->name, u->cols, med, u->n,
	    acc_hint(u, med));
}

void
accunit_add(accunit *u, const double a[3])
{
	if (u->said)
		return;
	double m = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
	if (!(m < 1e15))
		return; /* NaN, or huge: tagk-regress's overflow check says why */
	u->mag[u->n++] = m;
	if (u->n == ACCUNIT_SAMPLES)
		acc_check(u);
}

void
accunit_end(accunit *u)
{
	if (!u->said && u->n >= 1)
		acc_check(u);
}

/* past a 2000 deg/s gyro's range: see unitguard.h */
#define GYRO_MAX 40.0

void
gyrounit_init(gyrounit *u, int said, const char *name, const char *cols)
{
	memset(u, 0, sizeof(*u));
	u->said = said;
	u->name = name;
	u->cols = cols;
}

void
gyrounit_add(gyrounit *u, const double w[3], double t)
{
	double m2 = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
	/* huge values (1e15 and up) are left to tagk-regress's overflow check */
	if (u->said || !(m2 > GYRO_MAX * GYRO_MAX) || !(m2 < 1e30))
		return;
	if (++u->over < 5)
		return;
	cli_die(EXIT_DATA, "%s: the angular velocity (%s) exceeds %g rad/s (%.0f deg/s, past a MEMS gyro's usual "
	    "2000 deg/s range) in %ld samples by t = %.9g s: is it in deg/s? Say --gyro-unit deg (an explicit "
	    "--gyro-unit skips this check)", u->name, u->cols, GYRO_MAX, GYRO_MAX * 180 / M_PI, u->over, t);
}

/* A full turn and half a radian: see unitguard.h */
#define ANGLE_MAX (2 * M_PI + 0.5)

void
angleunit_init(angleunit *u, int said, const char *name)
{
	memset(u, 0, sizeof(*u));
	u->last = (double)NAN;
	u->said = said;
	u->name = name;
}

void
angleunit_add(angleunit *u, double q, const char *col, double t)
{
	if (u->said || !(fabs(q) > ANGLE_MAX) || !(fabs(q) < 1e15) || t == u->last)
		return;
	u->last = t;
	if (++u->over < 5)
		return;
	cli_die(EXIT_DATA, "%s: joint angle '%s' reads %.4g rad at t = %.9g s, past a full turn from zero (%ld samples "
	    "beyond %.2f rad so far): is it in degrees? Say --angle-unit deg; a joint that turns freely past a turn "
	    "(a wheel, a continuous joint) is read as it is with --angle-unit rad", u->name, col, q, t, u->over,
	    ANGLE_MAX);
}
