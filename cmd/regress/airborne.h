/*
 * airborne.h: tagk-regress --airborne, the spans of a log where the vehicle
 * flies. On the ground (motors off or idling, or spinning up) the rows are
 * not Newton's law of a flying body: the ground carries the weight, and an
 * estimator fed them returns nonsense.
 *
 * From the collective thrust T(t) of every sample (the actuator model's):
 * the hover thrust H is the median of the samples above a quarter of T's
 * 99th percentile; the vehicle flies from when T rises above 0.6 H until it
 * falls below 0.4 H (hysteresis: the dips of a manoeuvre do not cut a
 * flight); the ground's runs at each end where T / f_z says the ground
 * bears part of the weight are cut (motors spinning on the ground; see
 * motion_cut in airborne.c); each flight loses its first and last `trim` seconds (take-off
 * and landing, in ground effect) and is kept if at least `min_span`
 * seconds are left. Memory is bounded: the thrust series goes through
 * quantile.h's spool, and at most AIR_MAX_SPANS spans are kept.
 */
#ifndef TAGK_AIRBORNE_H
#define TAGK_AIRBORNE_H

#include <stdio.h>

enum { AIR_MAX_SPANS = 4096, AIR_MED_N = 31, AIR_MIN_RATIOS = 20 };
#define AIR_MED_WIN 0.1  /* s, the running median of T / f_z */
#define AIR_BAND 0.12    /* on the ground: T / f_z below (1 - AIR_BAND) m */
#define AIR_EDGE 3.0     /* s at each end of a span judged by motion */

typedef struct {
	double min_span, trim;   /* s (defaults 1 and 0.3) */
	struct qspool *q;        /* (t, T) per sample while the log is read */
	double hover;            /* H, once planned */
	int motion;              /* spans whose edges the motion judged */
	double cut;              /* s the motion cut from them */
	int n;                   /* spans kept */
	double span[AIR_MAX_SPANS][2];
	double t_first, t_last, flown; /* the log's time span, the time kept */
	long samples, kept;      /* samples in the log, and in the spans */
	int cur;                 /* the span the last sample looked up fell in */
} airborne;

void airborne_init(airborne *a, double min_span, double trim);
/* One sample of the first reading: its time, collective thrust and the
 * specific force along the thrust (NaN without an accelerometer). */
void airborne_add(airborne *a, double t, double thrust, double fz);
/* Find the spans; returns their number (0: the vehicle never flew). */
int airborne_plan(airborne *a);
/* The span (1, 2, ...) holding time t, or 0; t must not decrease between
 * calls. Counts the samples kept. */
int airborne_span(airborne *a, double t);
/* What was kept, on one line for stderr: "kept 2 spans, 31.2 of 48.0 s
 * (65 %): 3.1-17.9 s, 20.4-36.8 s" (the first 8 spans listed). */
void airborne_describe(const airborne *a, char *buf, size_t len);
void airborne_free(airborne *a);

#endif
