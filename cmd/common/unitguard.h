/*
 * unitguard.h: guards against a log's signals read in the wrong unit, where
 * the rows would come out whole and every estimate quietly wrong.
 *
 * Time.
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
#ifndef TAGK_UNITGUARD_H
#define TAGK_UNITGUARD_H

enum { TIMEUNIT_GAPS = 8 }; /* before sgderive sizes its window from its first 9 rows */

typedef struct {
	double gap[TIMEUNIT_GAPS];
	double last;
	int n, said;      /* gaps kept; the unit given, or the check done */
	const char *name; /* the log, in messages */
	const char *col;  /* its time column */
} timeunit;

/* Seconds per unit of --time-unit's argument: s, ms, us or ns (dies on
 * anything else, naming opt). */
double timeunit_scale(const char *opt, const char *arg);
/* said: the user gave --time-unit (then nothing is checked). */
void timeunit_init(timeunit *u, int said, const char *name, const char *col);
/* Each increasing time, in seconds: the check runs at the 8th gap. */
void timeunit_add(timeunit *u, double t);
/* At the end of the log: the check, if it has not run (two gaps at least). */
void timeunit_end(timeunit *u);

/*
 * Specific force. An accelerometer on a body that is not falling reads the
 * specific force, gravity's reaction included: about 9.81 m/s^2 at rest or
 * in hover, and its median magnitude over a flight or a manipulation stays
 * within a few tenths of a g of it (the synthetic and simulated logs:
 * 9.5-11; the real Crazyflie logs 9.8). A log in g read as m/s^2 has a
 * median near 1 and gives a mass 9.8 times too large, with rows and
 * estimates that look whole; one with gravity removed (a state
 * estimator's linear acceleration) a median near 0. So the median of the
 * first 64 samples' magnitude, in m/s^2 as read, is checked against
 * [4, 25] (0.4 to 2.5 g), unless the user said the unit (--acc-unit).
 */
enum { ACCUNIT_SAMPLES = 64 };

typedef struct {
	double mag[ACCUNIT_SAMPLES];
	int n, said, in_g;  /* in_g: read as g (a preset's unit) */
	const char *name, *cols;
} accunit;

void accunit_init(accunit *u, int said, int in_g, const char *name, const char *cols);
/* Each sample's specific force, in m/s^2 (after the unit's conversion). */
void accunit_add(accunit *u, const double a[3]);
void accunit_end(accunit *u);

/*
 * Angular velocity. A MEMS gyro's range is usually 2000 deg/s (35 rad/s);
 * a log in deg/s read as rad/s exceeds 40 "rad/s" whenever the body turns
 * faster than 40 deg/s, which any manoeuvre does, and its rows then carry
 * omega 57 times too large (omega^2 in the centripetal terms). Five
 * samples over 40 rad/s are refused (one glitch is not), unless the user
 * said the unit (--gyro-unit) or read it as deg/s.
 */
typedef struct {
	long over;
	int said;
	const char *name, *cols;
} gyrounit;

void gyrounit_init(gyrounit *u, int said, const char *name, const char *cols);
/* Each sample's angular velocity in rad/s, at time t (s). */
void gyrounit_add(gyrounit *u, const double w[3], double t);

/*
 * Joint angles. A revolute joint's angle in rad stays within about a turn
 * of zero (arms' limits: the Panda's within 3.8 rad, a UR's 2 pi, a KUKA
 * iiwa's 3); logged in degrees and read as rad, an arm's joints read tens
 * of "rad", and the kinematics take their sines and cosines as other
 * angles: rows and estimates come out whole and quietly wrong. Five
 * samples with a revolute joint beyond 2 pi + 0.5 rad are refused (one
 * glitch is not), unless the user said the unit (--angle-unit). A joint
 * that turns freely past a turn (a wheel, a continuous wrist) is read as
 * it is with --angle-unit rad.
 */
typedef struct {
	long over;        /* samples with a joint beyond the bound */
	double last;      /* the time of the last one counted */
	int said;
	const char *name;
} angleunit;

void angleunit_init(angleunit *u, int said, const char *name);
/* A revolute joint's angle q as read (rad unless said otherwise), from
 * column col, at time t (s); a sample's joints in turn, times increasing. */
void angleunit_add(angleunit *u, double q, const char *col, double t);

#endif
