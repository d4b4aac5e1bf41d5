/*
 * estimate_detect.h: tagk-estimate --detect on the window methods: the
 * change detector of lib/detect.h run on each window before its update,
 * its threshold from --detect-arl (seconds between false alarms) and the
 * stream's update period, the change's time, and the line on stderr.
 */
#ifndef TAGK_ESTIMATE_DETECT_H
#define TAGK_ESTIMATE_DETECT_H

#include "../lib/tagk.h"

enum { EST_DETECT_TIMES = 4096 };

typedef struct {
	double arl;            /* mean seconds between false alarms asked */
	const char *method;
	tagk_detect d;
	double t_first;        /* the first update's time */
	double times[EST_DETECT_TIMES]; /* the last updates' times, by index */
	long updates;
	int h_set;
} est_detect;

/* Wire det for windows of rows with kinds row kinds (rows per sample). */
void est_detect_open(est_detect *det, double arl, int kinds, const char *method);
/* The window A (m x n), b, kind against theta, the estimate before its
 * update at time t. Returns 1 on a detection, with the change's estimated
 * time in *t_change (the middle of the samples new in the update where the
 * alarming CUSUM's excursion began), and says so on stderr; else 0. */
int est_detect_window(est_detect *det, int n, int m, const tagk_real *A, const tagk_real *b, const int *kind,
    const tagk_real *theta, double t, double *t_change);

/* 1 while the detector holds off after an alarm (the next cfg.skip
 * updates, detect.h), when the estimator should keep re-opening. */
int est_detect_holding(const est_detect *det);

#endif
