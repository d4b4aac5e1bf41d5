/* airborne.c: the flying spans of a log; see airborne.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "airborne.h"
#include "cli.h"
#include "quantile.h"

void
airborne_init(airborne *a, double min_span, double trim)
{
	memset(a, 0, sizeof(*a));
	a->min_span = min_span;
	a->trim = trim;
	a->q = qs_new(3);
	a->t_first = NAN;
}

void
airborne_add(airborne *a, double t, double thrust, double fz)
{
	double row[3] = { t, thrust, fz };
	qs_add(a->q, row);
	if (a->samples++ == 0)
		a->t_first = t;
	a->t_last = t;
}

/* The hysteresis over the series, in time order. */
typedef struct {
	airborne *a;
	double on, off;   /* thresholds */
	int flying;
	double start, last;
} pass;

/* A flight by thrust, untrimmed, if it can outlast the trim and the
 * motion's cuts only shorten it. */
static void
close_span(pass *p)
{
	airborne *a = p->a;
	if (p->last - p->start >= a->min_span + 2 * a->trim && a->n < AIR_MAX_SPANS) {
		a->span[a->n][0] = p->start;
		a->span[a->n][1] = p->last;
		a->n++;
	}
	p->flying = 0;
}

static void
walk(void *ctx, const double *rows, long n)
{
	pass *p = ctx;
	for (long i = 0; i < n; i++) {
		double t = rows[3 * i], T = rows[3 * i + 1];
		if (!p->flying && T > p->on) {
			p->flying = 1;
			p->start = t;
		} else if (p->flying && T < p->off) {
			close_span(p);
		}
		if (p->flying)
			p->last = t;
	}
}

/* The motion check of each thrust span's edges. In free flight the
 * specific force along the thrust is T / m, so T / f_z is the mass; on the
 * ground the accelerometer reads about g whatever the thrust (the ground
 * bears the rest), so while the motors spin up below the hover thrust
 * T / f_z is below m. The ratio goes through a running median of
 * AIR_MED_WIN s against the motors' vibration. m is taken at each edge,
 * the upper quartile of that median over the AIR_EDGE s at the span's start
 * or end (the flight's, while the ground's share of them is under 3/4),
 * and only the run of ground that opens the span and the one that closes
 * it are cut, within those AIR_EDGE s: a payload dropped mid-flight, which
 * lowers T / f_z for good, cuts nothing (one dropped in the last AIR_EDGE
 * s before landing, in its first quarter, would cut the rest of it).
 */
typedef struct {
	airborne *a;
	int stage, k;           /* 1: the edges' m; 2: the cuts */
	double (*e)[4];         /* per span: m head, m tail, lift-off, touch-down */
	qspool *qh, *qt;
	double ring[AIR_MED_N], tring[AIR_MED_N];
	int head, fill, pending, lifted;
} edges;

/* The running median of T / f_z with the sample (t, r) added (r NaN: none). */
static double
run_median(edges *c, double t, double r)
{
	if (isfinite(r)) {
		c->ring[c->head] = r;
		c->tring[c->head] = t;
		c->head = (c->head + 1) % AIR_MED_N;
		if (c->fill < AIR_MED_N)
			c->fill++;
	}
	double v[AIR_MED_N];
	int k = 0;
	for (int i = 0; i < c->fill; i++) {
		if (t - c->tring[i] > AIR_MED_WIN)
			continue;
		double x = c->ring[i];
		int j = k++;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return k == 0 ? (double)NAN : k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

/* Leaving span k: its edges' m from stage 1's spools. */
static void
leave_span(edges *c)
{
	if (c->stage == 1) {
		static const double q75 = 0.75;
		double *e = c->e[c->k];
		if (qs_count(c->qh, 0) >= AIR_MIN_RATIOS)
			qs_quantiles(c->qh, 0, &q75, 1, &e[0]);
		if (qs_count(c->qt, 0) >= AIR_MIN_RATIOS)
			qs_quantiles(c->qt, 0, &q75, 1, &e[1]);
		qs_free(c->qh);
		qs_free(c->qt);
		c->qh = qs_new(1);
		c->qt = qs_new(1);
	}
	c->fill = c->head = c->pending = c->lifted = 0;
	c->k++;
}

static void
edge_row(edges *c, double t, double T, double fz)
{
	double *e = c->e[c->k], med = run_median(c, t, fz > 0 ? T / fz : (double)NAN);
	int head = t <= c->a->span[c->k][0] + AIR_EDGE, tail = t >= c->a->span[c->k][1] - AIR_EDGE;
	if (c->stage == 1) {
		if (head && isfinite(med))
			qs_add(c->qh, &med);
		if (tail && isfinite(med))
			qs_add(c->qt, &med);
		return;
	}
	/* the median flips half its window after lift-off or touch-down */
	if (head && !c->lifted && isfinite(e[0])) {
		if (med < (1 - AIR_BAND) * e[0])
			c->pending = 1;
		else {
			if (c->pending)
				e[2] = t - 0.5 * AIR_MED_WIN;
			c->lifted = 1;
		}
	} else if (!head && !c->lifted && c->pending) {
		e[2] = t; /* on the ground through the head: none of it flies */
		c->lifted = 1;
	}
	/* the ground's run that ends the span, if any */
	if (tail && isfinite(e[1]) && isfinite(med)) {
		if (med >= (1 - AIR_BAND) * e[1])
			e[3] = NAN;
		else if (isnan(e[3]))
			e[3] = t - 0.5 * AIR_MED_WIN;
	}
}

static void
edge_walk(void *ctx, const double *rows, long n)
{
	edges *c = ctx;
	airborne *a = c->a;
	for (long i = 0; i < n; i++) {
		double t = rows[3 * i];
		while (c->k < a->n && t > a->span[c->k][1])
			leave_span(c);
		if (c->k < a->n && t >= a->span[c->k][0])
			edge_row(c, t, rows[3 * i + 1], rows[3 * i + 2]);
	}
}

/* Each span of a->span cut to lift-off and touch-down where the motion
 * tells them; a->motion counts the spans judged, a->cut the time cut. */
static void
motion_cut(airborne *a)
{
	a->motion = 0;
	a->cut = 0;
	if (a->n == 0)
		return;
	edges c = { .a = a, .qh = qs_new(1), .qt = qs_new(1) };
	if (!(c.e = malloc((size_t)a->n * sizeof(*c.e))))
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < 4; j++)
			c.e[i][j] = NAN;
	for (c.stage = 1; c.stage <= 2; c.stage++) {
		c.k = 0;
		c.fill = c.head = c.pending = c.lifted = 0;
		qs_each(a->q, edge_walk, &c);
		while (c.k < a->n)
			leave_span(&c);
	}
	for (int i = 0; i < a->n; i++) {
		double *e = c.e[i], s = a->span[i][0], f = a->span[i][1];
		a->motion += isfinite(e[0]) || isfinite(e[1]);
		if (e[2] > s)
			a->span[i][0] = fmin(e[2], f);
		if (e[3] < f)
			a->span[i][1] = fmax(e[3], a->span[i][0]);
		a->cut += (a->span[i][0] - s) + (f - a->span[i][1]);
	}
	qs_free(c.qh);
	qs_free(c.qt);
	free(c.e);
}

int
airborne_plan(airborne *a)
{
	if (a->samples == 0)
		return 0;
	double q99;
	static const double qv99[1] = { 0.99 };
	qs_quantiles(a->q, 1, qv99, 1, &q99);
	/* the samples above a quarter of the top thrust are the flight's: H is
	 * their median, the quantile of all at 1 - (their share) / 2 */
	long above = qs_count_above(a->q, 1, 0.25 * q99);
	if (!(q99 > 0) || above == 0)
		return 0;
	double qh = 1 - 0.5 * (double)above / (double)qs_count(a->q, 1);
	qs_quantiles(a->q, 1, &qh, 1, &a->hover);
	pass p = { a, 0.6 * a->hover, 0.4 * a->hover, 0, 0, 0 };
	qs_each(a->q, walk, &p);
	if (p.flying)
		close_span(&p);
	motion_cut(a);
	int n = a->n;
	a->n = 0;
	for (int i = 0; i < n; i++) {
		double start = a->span[i][0], end = a->span[i][1];
		double s = start + a->trim, e = end - a->trim;
		if (e - s >= a->min_span) {
			a->span[a->n][0] = s;
			a->span[a->n][1] = e;
			a->n++;
			a->flown += e - s;
		}
	}
	return a->n;
}

int
airborne_span(airborne *a, double t)
{
	while (a->cur < a->n && t > a->span[a->cur][1])
		a->cur++;
	if (a->cur < a->n && t >= a->span[a->cur][0]) {
		a->kept++;
		return a->cur + 1;
	}
	return 0;
}

void
airborne_describe(const airborne *a, char *buf, size_t len)
{
	double total = a->t_last - a->t_first;
	int k = snprintf(buf, len, "kept %d span%s, %.1f of %.1f s (%.0f %%), hover thrust %.4g N:", a->n,
	    a->n == 1 ? "" : "s", a->flown, total, total > 0 ? 100 * a->flown / total : 0, a->hover);
	for (int i = 0; i < a->n && i < 8 && k > 0 && (size_t)k < len; i++)
		k += snprintf(buf + k, len - (size_t)k, "%s %.2f-%.2f s", i ? "," : "", a->span[i][0], a->span[i][1]);
	if (a->n > 8 && k > 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, " and %d more", a->n - 8);
}

void
airborne_free(airborne *a)
{
	qs_free(a->q);
	a->q = NULL;
}
