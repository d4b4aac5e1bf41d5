/* calibrate.c: the thrust model fitted to a known mass; see calibrate.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "calibrate.h"

void
calib_init(calib *c, double mass)
{
	memset(c, 0, sizeof(*c));
	c->m = mass;
}

void
calib_add(calib *c, double az, double thrust)
{
	if (!isfinite(az) || !isfinite(thrust))
		return;
	c->n++;
	c->sT += thrust;
	c->sA += az;
	c->sTT += thrust * thrust;
	c->sAA += az * az;
	c->sTA += thrust * az;
}

int
calib_fit(const calib *c, vehicle *v, char *what, size_t len)
{
	if (c->n < 10) {
		snprintf(what, len, "%ld airborne samples: too few to fit", c->n);
		return -1;
	}
	double n = (double)c->n, mT = c->sT / n, mA = c->sA / n;
	double vT = c->sTT / n - mT * mT, cTA = c->sTA / n - mT * mA;
	if (!(mT > 0)) {
		snprintf(what, len, "the mean thrust is %g N: not a flight", mT);
		return -1;
	}
	/* m a = S T + O: with the offset when T varies enough, else S alone */
	int offset = vT > 0 && sqrt(vT) > 0.05 * mT;
	double S = offset ? c->m * cTA / vT : c->m * c->sTA / c->sTT;
	double O = offset ? c->m * mA - S * mT : 0;
	/* residual of m a - S T - O */
	double rss = c->m * c->m * c->sAA + S * S * c->sTT + n * O * O - 2 * c->m * S * c->sTA - 2 * c->m * O * c->sA +
	    2 * S * O * c->sT;
	double rms = sqrt(rss > 0 ? rss / n : 0);
	if (!(S > 0.1 && S < 10)) {
		snprintf(what, len, "the fitted scale %.4g is implausible (the thrust would be %.3g times the model's): "
		    "is the mass right, and the thrust column a thrust?", S, S);
		return -1;
	}
	double scale = S * v->thrust_scale, off = S * v->thrust_offset + O;
	int k = snprintf(what, len, "thrust scale %.5g", S);
	if (offset)
		k += snprintf(what + k, len - (size_t)k, ", offset %.4g N", O);
	k += snprintf(what + k, len - (size_t)k, " over %ld airborne samples (thrust %.4g N +- %.2g %%), fit residual "
	    "%.3g N RMS", c->n, mT, 100 * sqrt(vT > 0 ? vT : 0) / mT, rms);
	if (!offset)
		snprintf(what + k, len - (size_t)k, "; the offset is not identifiable from a thrust this steady: scale only");
	v->thrust_scale = scale;
	v->thrust_offset = off;
	v->mass = c->m; /* the nominal mass tagk-report --vehicle compares with */
	return 0;
}
