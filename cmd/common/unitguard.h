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

/*
 * Attitude. Where the rows use the log's attitude (a quaternion, or roll,
 * pitch and yaw: tagk-regress -m state, or acc_world turned into the body
 * frame), its convention is the log's word alone, and a quaternion stored
 * x, y, z, w, one that turns world to body, angles in degrees, swapped
 * axes or a gyro in another frame or unit give rows that look whole. The
 * gyro says how the body turns: over windows of 0.1 s, the attitude's own
 * rotation v (the rotation vector of q0* q1, in the body frame) is
 * regressed on the gyro's integral g through zero. A consistent log's
 * slope is 1 up to noise (the real Crazyflie flights 1.03 and 1.07,
 * tagk-bench massflight's five trajectories 0.96-1.03, at 3 times the
 * noise 0.85, at 20 Hz 0.91); read conjugated about -1, in another order
 * of its values, with axes swapped, or in other units, far from 1 (rpy
 * in degrees: 18 +- 5). Once the slope is known within 0.1 (its standard
 * error, over 16 windows or more), or is three standard errors outside
 * [0.5, 2], one outside that range is refused, naming what to check,
 * unless --no-consistency-check; a log that never turns enough for either is
 * not judged. A constant rotation of the world frame (c q for all q) leaves
 * q0* q1 as it is: the check cannot see one.
 */
enum { ATT_ALTS = 3 }; /* as read, conjugated, x y z w order */

typedef struct {
	int said, started, nwin;
	double t0, tprev;
	double q0[4];              /* the attitude at the window's start */
	double wprev[3], g[3];     /* the gyro then, and its integral since t0 */
	double svg[ATT_ALTS], svv[ATT_ALTS], sgg; /* sums of v.g, v.v, g.g over the windows */
	const char *name, *att, *gyro;
	int quat;                  /* the attitude is a quaternion (not rpy) */
} attguard;

void attguard_init(attguard *u, int said, const char *name, const char *att, int quat, const char *gyro);
/* Each sample: time (s), the attitude as a unit quaternion (w, x, y, z,
 * body to world, as read or from rpy) and the gyro (rad/s, body frame). */
void attguard_add(attguard *u, double t, const double q[4], const double w[3]);

/*
 * Force against specific force. The rows say f = m a plus terms of the
 * centre of mass, small beside it, with m > 0: the force applied to the
 * body (or the thrust along its z) points the way its accelerometer's
 * specific force does. A body frame with z down (FRD, as PX4 logs its
 * sensors) beside a thrust taken as positive, or a force sensor read as
 * the reaction, points them opposite ways and gave a mass of -1 kg where
 * the log holds 1, said only by tagk-report at the end. So the cosine of
 * f and a, weighted by |f| |a| (ground time, with no thrust, weighs
 * nothing), is summed from the first sample: once 64 samples are in and
 * it passes +0.5, the log is read; below -0.5, refused, unless
 * --no-consistency-check. The real Crazyflie flights give 0.9994-0.9999
 * (with and without their ground time), tagk-bench's synthetic, simulated
 * and massflight logs 1.0000, a z-down mass log or a negated force -1.00.
 */
enum { FORCEGUARD_SAMPLES = 64 };

typedef struct {
	int said;
	long n;
	double sfa, sab;     /* sums of f.a and |f| |a| */
	const char *name, *fcols, *acols;
} forceguard;

void forceguard_init(forceguard *u, int said, const char *name, const char *fcols, const char *acols);
/* Each sample's force (or thrust along z) and specific force, SI units. */
void forceguard_add(forceguard *u, const double f[3], const double a[3], double t);

/*
 * Joint derivatives, and a rigid body's logged alpha against its gyro.
 * A joint log often carries qd (and qdd) measured beside q, each read from
 * its own columns: a velocity in deg/s beside an angle in rad, or a --map
 * whose velocity columns are in another order than the angles' (a glob
 * takes the file's order), gave force rows that looked whole; so did a
 * logged alpha in deg/s^2, of another sign or axis than the gyro's. Over
 * windows of 0.1 s, each signal's change (q, qd, the gyro) is regressed
 * on the integral of its derivative (qd, qdd, alpha) through zero, as the
 * attitude on the gyro above: once a slope is known within 0.1, or lies
 * three standard errors outside [0.5, 2], it is judged, naming the two
 * columns on a refusal, unless --no-consistency-check. A signal that
 * never changes enough is not judged.
 * The integral is taken three ways, and a signal passes when one of them
 * fits: by the trapezoid rule (a derivative of the instant, or a centred
 * difference), and by the left and the right rectangle rules (d[k] the
 * forward difference of x, as an Euler step writes it: tagk-bench
 * simulate's alpha; or the backward one, as a driver that differences its
 * encoder writes qd). A derivative that changes sign every sample (a
 * controller's chatter at 50 Hz) integrates to nearly nothing by the
 * trapezoid, and to the change of x by the rule that made it: of 144
 * tagk-bench simulate logs (six trajectories, four noise levels, three
 * seeds, both protocols; alpha logged at 50 Hz), the trapezoid alone
 * refused 22, the three rules none.
 */
enum { DERIV_MAX = 64, DERIV_RULES = 3 };

typedef struct {
	int said, started, n, nwin, judged;
	double t0, tprev;
	double x0[DERIV_MAX], dprev[DERIV_MAX];            /* x at the window's start; d */
	double in[DERIV_RULES][DERIV_MAX];                  /* d's integral since: left, trapezoid, right */
	double sxi[DERIV_RULES][DERIV_MAX], sii[DERIV_RULES][DERIV_MAX], sxx[DERIV_MAX]; /* sums of dx in, in^2, dx^2 */
	int done[DERIV_MAX];
	const char *name, *xcol[DERIV_MAX], *dcol[DERIV_MAX];
} derivguard;

/* n signals x and their derivatives d, read from columns xcol[j], dcol[j]. */
void derivguard_init(derivguard *u, int said, const char *name, int n, const char *const *xcol,
    const char *const *dcol);
/* Each sample: time (s), x[0..n) and d[0..n) as read (the same unit of
 * angle or length). */
void derivguard_add(derivguard *u, double t, const double *x, const double *d);

#endif
