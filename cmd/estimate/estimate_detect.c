/* estimate_detect.c: tagk-estimate --detect; see estimate_detect.h. */
#include <math.h>
#include "cli.h"
#include "estimate_detect.h"

void
est_detect_open(est_detect *det, double arl, int kinds, const char *method)
{
	tagk_detect_config cfg;
	/* h is set from the update period once it is measured (below); until
	 * then the detector only learns (cfg.skip + cfg.learn updates) */
	tagk_detect_defaults(&cfg, 2);
	*det = (est_detect){ .arl = arl, .method = method, .t_first = NAN };
	if (tagk_detect_init(&det->d, &cfg, kinds) != TAGK_OK)
		cli_die(EXIT_DATA, "--detect: %d rows per sample, more than the detector's %d", kinds, TAGK_DETECT_KINDS);
}

/* The threshold from the mean period of the updates so far: ln of the
 * updates in arl seconds (detect.h). */
static void
set_threshold(est_detect *det, double t)
{
	double period = (t - det->t_first) / (double)(det->updates - 1);
	double arl_updates = period > 0 ? det->arl / period : 0;
	if (!(arl_updates > 2))
		cli_die(EXIT_USAGE, "--detect-arl %g s is not longer than two updates (%g s each)", det->arl, period);
	det->d.cfg.h = tagk_detect_threshold(arl_updates);
	det->h_set = 1;
}

/* The time of update k (counted from 0), or of the oldest one kept. */
static double
time_of(const est_detect *det, long k)
{
	if (k < 0)
		return -INFINITY;
	if (k < det->updates - EST_DETECT_TIMES)
		k = det->updates - EST_DETECT_TIMES;
	return det->times[k % EST_DETECT_TIMES];
}

int
est_detect_window(est_detect *det, int n, int m, const tagk_real *A, const tagk_real *b, const int *kind,
    const tagk_real *theta, double t, double *t_change)
{
	det->times[det->updates % EST_DETECT_TIMES] = t;
	if (det->updates++ == 0)
		det->t_first = t;
	if (!det->h_set && det->updates >= 2 && det->updates >= det->d.cfg.skip + det->d.cfg.learn)
		set_threshold(det, t);
	int alarm;
	if (tagk_detect_update(&det->d, n, m, A, b, kind, theta, &alarm) != TAGK_OK || !alarm)
		return 0; /* or a window the method refuses too (not finite) */
	/* the change lies among the samples new in the update where the
	 * alarming CUSUM's excursion began: their middle */
	double t1 = time_of(det, det->d.onset), t0 = time_of(det, det->d.onset - 1);
	*t_change = isfinite(t0) ? (t0 + t1) / 2 : t1;
	cli_warn("change at %.3f s (detected %.3f s, delay %.3f s): %s re-opened", *t_change, t, t - *t_change,
	    det->method);
	return 1;
}

int
est_detect_holding(const est_detect *det)
{
	return det->d.alarms > 0 && det->d.since <= det->d.cfg.skip;
}
