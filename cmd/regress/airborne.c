/* airborne.c: the flying spans of a log; see airborne.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "airborne.h"
#include "cli.h"
#include "quantile.h"

void
airborne_init(airborne *a, double min_span, double trim)
{
	memset(a, 0, sizeof(*a));
	a->min_span = min_span;
	a->trim = trim;
	a->q = qs_new(2);
	a->t_first = NAN;
}

void
airborne_add(airborne *a, double t, double thrust)
{
	double row[2] = { t, thrust };
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

static void
close_span(pass *p)
{
	airborne *a = p->a;
	double s = p->start + a->trim, e = p->last - a->trim;
	if (e - s >= a->min_span && a->n < AIR_MAX_SPANS) {
		a->span[a->n][0] = s;
		a->span[a->n][1] = e;
		a->n++;
		a->flown += e - s;
	}
	p->flying = 0;
}

static void
walk(void *ctx, const double *rows, long n)
{
	pass *p = ctx;
	for (long i = 0; i < n; i++) {
		double t = rows[2 * i], T = rows[2 * i + 1];
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
