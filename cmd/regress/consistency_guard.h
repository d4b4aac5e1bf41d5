/*
 * consistency_guard.h: tagk-regress's guards against signals that do not
 * agree with each other (the attitude with the gyro, the force with the
 * specific force, a signal with its logged derivative), where the rows
 * would come out whole and every estimate quietly wrong. Each is judged
 * from the data alone, and refused (exit 1, naming the columns) unless
 * --no-consistency-check. The guards against a single signal read in the
 * wrong unit are cmd/common/unitguard.h's.
 */
#ifndef TAGK_CONSISTENCY_GUARD_H
#define TAGK_CONSISTENCY_GUARD_H

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
