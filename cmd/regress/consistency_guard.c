/* consistency_guard.c: see consistency_guard.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "consistency_guard.h"
#include "cli.h"
#include "../lib/tagk.h"
#include "../lib/so3.h"

void
forceguard_init(forceguard *u, int said, const char *name, const char *fcols, const char *acols)
{
	memset(u, 0, sizeof(*u));
	u->said = said;
	u->name = name;
	u->fcols = fcols;
	u->acols = acols;
}

void
forceguard_add(forceguard *u, const double f[3], const double a[3], double t)
{
	if (u->said)
		return;
	double fa = f[0] * a[0] + f[1] * a[1] + f[2] * a[2];
	double ab = sqrt((f[0] * f[0] + f[1] * f[1] + f[2] * f[2]) * (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]));
	if (!(ab < 1e300))
		return; /* NaN or huge: the overflow check says why */
	u->sfa += fa;
	u->sab += ab;
	if (++u->n < FORCEGUARD_SAMPLES || !(u->sab > 0))
		return;
	double c = u->sfa / u->sab;
	if (c > 0.5)
		u->said = 1;
	else if (c < -0.5)
		cli_die(EXIT_DATA, "%s: the force (%s) points against the specific force (%s): their mean cosine, "
		    "weighted by their sizes, is %.2f over the samples to t = %.9g s, where f = m a gives about +1: is "
		    "the body frame z-down (FRD or NED, as PX4 logs) beside a thrust taken as positive up, or a force "
		    "sensor read as the reaction? tagk's body frame has z up, the force the one applied to the body "
		    "(--no-consistency-check reads them as they are)", u->name, u->fcols, u->acols, c, t);
}

/* Windows, the precision wanted of the slope, the slopes accepted: see
 * consistency_guard.h */
#define ATT_WINDOW 0.1
#define ATT_MIN_WINDOWS 16
#define ATT_MAX_SE 0.1
#define ATT_LO 0.5
#define ATT_HI 2.0

void
attguard_init(attguard *u, int said, const char *name, const char *att, int quat, const char *gyro)
{
	memset(u, 0, sizeof(*u));
	u->said = said;
	u->name = name;
	u->att = att;
	u->quat = quat;
	u->gyro = gyro;
}

/* Alternative k of q's reading: as read, conjugated, or its four values
 * taken as x, y, z, w. */
static void
att_alt(int k, const double q[4], tagk_real o[4])
{
	static const int order[ATT_ALTS][4] = { { 0, 1, 2, 3 }, { 0, 1, 2, 3 }, { 3, 0, 1, 2 } };
	for (int i = 0; i < 4; i++)
		o[i] = (tagk_real)q[order[k][i]] * (k == 1 && i > 0 ? -1 : 1);
}

static void
att_restart(attguard *u, double t, const double q[4], const double w[3])
{
	u->t0 = u->tprev = t;
	memcpy(u->q0, q, sizeof(u->q0));
	memcpy(u->wprev, w, sizeof(u->wprev));
	u->g[0] = u->g[1] = u->g[2] = 0;
	u->started = 1;
}

/* Alternative k's slope of the attitude's rotation on the gyro's, and its
 * standard error (least squares through zero over the windows' 3 nwin
 * components). */
static double
att_slope(const attguard *u, int k, double *se)
{
	double b = u->svg[k] / u->sgg, ss = u->svv[k] - b * u->svg[k];
	*se = sqrt((ss > 0 ? ss : 0) / (3.0 * u->nwin - 1) / u->sgg);
	return b;
}

static int
att_fits(double b)
{
	return b >= ATT_LO && b <= ATT_HI;
}

static void
att_check(attguard *u)
{
	u->said = 1;
	double se, b = att_slope(u, 0, &se), se_alt, b1 = att_slope(u, 1, &se_alt), b2 = att_slope(u, 2, &se_alt);
	if (att_fits(b))
		return;
	const char *hint = !u->quat ? "are roll, pitch and yaw in rad, in that order, body to world (ZYX)? is the gyro "
	    "in rad/s, in the body frame, on the same axes?"
	    : att_fits(b2) ? "read as x, y, z, w it follows the gyro: map its columns in w, x, y, z order "
		"(--map quat=W,X,Y,Z)"
	    : att_fits(b1) ? "read conjugated (x, y, z negated) it follows the gyro: does the log's quaternion "
		"turn world to body (tagk's turns body to world), or are its columns in another order?"
	    : "is it w, x, y, z and body to world, and the gyro in rad/s, in the body frame, on the same axes?";
	cli_die(EXIT_DATA, "%s: the attitude (%s) does not turn with the gyro (%s): over %d windows of %g s, its "
	    "rotation is %.3g +- %.2g times the gyro's integral, where a consistent log gives about 1: %s "
	    "(--no-consistency-check reads it as it is)", u->name, u->att, u->gyro, u->nwin, ATT_WINDOW, b, se, hint);
}

void
attguard_add(attguard *u, double t, const double q[4], const double w[3])
{
	if (u->said)
		return;
	if (!u->started || !(t - u->tprev <= ATT_WINDOW)) { /* the first sample, or a gap */
		att_restart(u, t, q, w);
		return;
	}
	for (int i = 0; i < 3; i++)
		u->g[i] += 0.5 * (w[i] + u->wprev[i]) * (t - u->tprev);
	memcpy(u->wprev, w, sizeof(u->wprev));
	u->tprev = t;
	if (t - u->t0 < ATT_WINDOW)
		return;
	for (int k = 0; k < ATT_ALTS; k++) {
		tagk_real a[4], b[4], ac[4], d[4], v[3];
		att_alt(k, u->q0, a);
		att_alt(k, q, b);
		tagk_qconj(a, ac);
		tagk_qmul(ac, b, d);
		tagk_qlog(d, v);
		for (int i = 0; i < 3; i++) {
			u->svg[k] += (double)v[i] * u->g[i];
			u->svv[k] += (double)v[i] * (double)v[i];
		}
	}
	u->sgg += u->g[0] * u->g[0] + u->g[1] * u->g[1] + u->g[2] * u->g[2];
	u->nwin++;
	att_restart(u, t, q, w);
	/* judged once the slope is known within ATT_MAX_SE, or sure to lie
	 * outside the range (three standard errors: a slope of 57, read in
	 * degrees, is never known that closely) */
	double se, b = u->sgg > 0 ? att_slope(u, 0, &se) : 0;
	if (u->nwin >= ATT_MIN_WINDOWS && u->sgg > 0 && (se <= ATT_MAX_SE || b + 3 * se < ATT_LO || b - 3 * se > ATT_HI))
		att_check(u);
}

void
derivguard_init(derivguard *u, int said, const char *name, int n, const char *const *xcol, const char *const *dcol)
{
	memset(u, 0, sizeof(*u));
	u->said = said || n <= 0;
	u->n = n < DERIV_MAX ? n : DERIV_MAX;
	u->name = name;
	for (int j = 0; j < u->n; j++) {
		u->xcol[j] = xcol[j];
		u->dcol[j] = dcol[j];
	}
}

static void
deriv_restart(derivguard *u, double t, const double *x, const double *d)
{
	u->t0 = u->tprev = t;
	for (int j = 0; j < u->n; j++) {
		u->x0[j] = x[j];
		u->dprev[j] = d[j];
		for (int k = 0; k < DERIV_RULES; k++)
			u->in[k][j] = 0;
	}
	u->started = 1;
}

/* Signal j's slope by rule k and its standard error: 0 if not known well
 * enough to judge (as attguard_add's), 1 if it fits, -1 if it does not. */
static int
deriv_rule(const derivguard *u, int k, int j, double *b, double *se)
{
	if (!(u->sii[k][j] > 0))
		return 0;
	*b = u->sxi[k][j] / u->sii[k][j];
	double ss = u->sxx[j] - *b * u->sxi[k][j];
	*se = sqrt((ss > 0 ? ss : 0) / (u->nwin - 1) / u->sii[k][j]);
	if (!(*se <= ATT_MAX_SE || *b + 3 * *se < ATT_LO || *b - 3 * *se > ATT_HI))
		return 0;
	return att_fits(*b) ? 1 : -1;
}

/* Signal j, judged once one rule fits (it passes) or every rule is known
 * not to (refused, with the trapezoid's slope). */
static void
deriv_judge(derivguard *u, int j)
{
	if (u->done[j] || u->nwin < ATT_MIN_WINDOWS)
		return;
	int bad = 0;
	double b[DERIV_RULES], se[DERIV_RULES];
	for (int k = 0; k < DERIV_RULES; k++) {
		int v = deriv_rule(u, k, j, &b[k], &se[k]);
		if (v > 0) {
			u->done[j] = 1;
			u->judged++;
			return;
		}
		bad += v < 0;
	}
	if (bad < DERIV_RULES)
		return;
	cli_die(EXIT_DATA, "%s: '%s' does not change as the integral of '%s': over %d windows of %g s, its change is "
	    "%.3g +- %.2g times the integral (by the rectangle rules %.3g and %.3g), where a consistent log gives "
	    "about 1: is one in another unit (deg against rad: 57 or 1/57), or of another joint or axis (--map's "
	    "order)? (--no-consistency-check reads them as they are)", u->name, u->xcol[j], u->dcol[j], u->nwin,
	    ATT_WINDOW, b[1], se[1], b[0], b[2]);
}

/* Window sums of signal j: its change against each rule's integral. */
static void
deriv_sums(derivguard *u, int j, double dx)
{
	for (int k = 0; k < DERIV_RULES; k++) {
		u->sxi[k][j] += dx * u->in[k][j];
		u->sii[k][j] += u->in[k][j] * u->in[k][j];
	}
	u->sxx[j] += dx * dx;
}

void
derivguard_add(derivguard *u, double t, const double *x, const double *d)
{
	if (u->said)
		return;
	if (!u->started || !(t - u->tprev <= ATT_WINDOW)) { /* the first sample, or a gap */
		deriv_restart(u, t, x, d);
		return;
	}
	double h = t - u->tprev;
	for (int j = 0; j < u->n; j++) {
		u->in[0][j] += u->dprev[j] * h;
		u->in[1][j] += 0.5 * (d[j] + u->dprev[j]) * h;
		u->in[2][j] += d[j] * h;
		u->dprev[j] = d[j];
	}
	u->tprev = t;
	if (t - u->t0 < ATT_WINDOW)
		return;
	for (int j = 0; j < u->n; j++)
		deriv_sums(u, j, x[j] - u->x0[j]);
	u->nwin++;
	deriv_restart(u, t, x, d);
	for (int j = 0; j < u->n; j++)
		deriv_judge(u, j);
	if (u->judged == u->n)
		u->said = 1;
}
