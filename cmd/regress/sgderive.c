/* sgderive.c: Savitzky-Golay derivatives over a sliding window of rows; see
 * sgderive.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "sgderive.h"
#include "../lib/signals.h"

enum { PROBE = 9, READY_MAX = PROBE };

struct sgderive {
	double window;
	int order, width, nops;
	sg_op *ops;
	int n;            /* window in samples (odd); 0 until sized */
	double dt;        /* median spacing of the first rows */
	double *ring, *t; /* n rows and times, oldest at head */
	int head, count;
	double *probe, probe_t[PROBE]; /* the first rows, held until sized */
	int nprobe;
	double *ready, ready_t[READY_MAX], *w[3], *tw; /* weights per derivative; window times */
	int nready;
	long pushed, written, gaps;
};

sgderive *
sgd_new(double window, int order, int width, int nops, const sg_op *ops)
{
	sgderive *d = calloc(1, sizeof(*d));
	if (!d || !(d->ops = malloc((size_t)nops * sizeof(*ops))) ||
	    !(d->probe = malloc((size_t)PROBE * (size_t)width * sizeof(double))) ||
	    !(d->ready = malloc((size_t)READY_MAX * (size_t)width * sizeof(double))))
		cli_die(EXIT_DATA, "out of memory");
	memcpy(d->ops, ops, (size_t)nops * sizeof(*ops));
	d->window = window;
	d->order = order;
	d->width = width;
	d->nops = nops;
	return d;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The window in samples from the first rows' median spacing. */
static void
size_window(sgderive *d)
{
	double s[PROBE];
	int m = 0;
	for (int i = 1; i < d->nprobe; i++)
		s[m++] = d->probe_t[i] - d->probe_t[i - 1];
	qsort(s, (size_t)m, sizeof(double), cmp_double);
	d->dt = s[m / 2];
	double half = floor(d->window / (2 * d->dt) + 0.5);
	int n = 2 * (int)fmin(half, 5000) + 1;
	/* samples 0.5 s apart or more are not a joint log's: its time unit is
	 * misread (--time-unit s on stamps in ms), whatever the window */
	if (n < d->order + 2 && d->dt >= 0.5)
		cli_die(EXIT_DATA, "the log's samples are %g s apart as its time column reads: no joint log is sampled "
		    "that slowly, so the Savitzky-Golay window (%g s) holds %d sample%s; is the time in ms, us or ns "
		    "(--time-unit)?", d->dt, d->window, n, n == 1 ? "" : "s");
	if (n < d->order + 2)
		cli_die(EXIT_USAGE, "--sg-window %g s is %d sample%s at this log's spacing of %g s: a polynomial of "
		    "degree %d needs at least %d (widen the window or lower --sg-order)", d->window, n, n == 1 ? "" : "s",
		    d->dt, d->order, d->order + 2 + (d->order % 2 == 0));
	d->n = n;
	if (!(d->ring = malloc((size_t)n * (size_t)d->width * sizeof(double))) ||
	    !(d->t = malloc((size_t)n * sizeof(double))) || !(d->tw = malloc((size_t)n * sizeof(double))))
		cli_die(EXIT_DATA, "out of memory");
	for (int k = 0; k < 3; k++)
		if (!(d->w[k] = malloc((size_t)n * sizeof(double))))
			cli_die(EXIT_DATA, "out of memory");
}

/* Fill the ready row for the window's centre. */
static void
emit(sgderive *d)
{
	const int n = d->n, c = n / 2, W = d->width;
	double *tw = d->tw;
	for (int i = 0; i < n; i++)
		tw[i] = d->t[(d->head + i) % n];
	const double *mid = d->ring + (size_t)((d->head + c) % n) * W;
	double *out = d->ready + (size_t)d->nready * W;
	memcpy(out, mid, (size_t)W * sizeof(double));
	int have[3] = { 0, 0, 0 };
	for (int k = 0; k < d->nops; k++) {
		const sg_op *op = &d->ops[k];
		double *w = d->w[op->deriv];
		if (!have[op->deriv] && tagk_sg_weights(n, tw, tw[c], d->order, op->deriv, w) != 0)
			cli_die(EXIT_DATA, "the Savitzky-Golay fit at t = %g has too few distinct times", tw[c]);
		have[op->deriv] = 1;
		double s = 0;
		for (int i = 0; i < n; i++)
			s += w[i] * d->ring[(size_t)((d->head + i) % n) * W + op->src];
		out[op->dst] = s;
	}
	d->ready_t[d->nready++] = tw[c];
	d->written++;
}

/* One row into the sized window. */
static void
append(sgderive *d, double t, const double *row)
{
	const int n = d->n;
	if (d->count > 0) {
		double prev = d->t[(d->head + d->count - 1) % n];
		if (t - prev > 3 * d->dt) {
			d->count = d->head = 0;
			d->gaps++;
		}
	}
	int slot = (d->head + d->count) % n;
	if (d->count == n) {
		slot = d->head;
		d->head = (d->head + 1) % n;
	} else
		d->count++;
	memcpy(d->ring + (size_t)slot * d->width, row, (size_t)d->width * sizeof(double));
	d->t[slot] = t;
	if (d->count == n)
		emit(d);
}

int
sgd_push(sgderive *d, double t, const double *row)
{
	d->nready = 0;
	d->pushed++;
	if (!d->n) {
		memcpy(d->probe + (size_t)d->nprobe * d->width, row, (size_t)d->width * sizeof(double));
		d->probe_t[d->nprobe++] = t;
		if (d->nprobe < PROBE)
			return 0;
		size_window(d);
		for (int i = 0; i < d->nprobe; i++)
			append(d, d->probe_t[i], d->probe + (size_t)i * d->width);
		return d->nready;
	}
	append(d, t, row);
	return d->nready;
}

int
sgd_finish(sgderive *d)
{
	d->nready = 0;
	if (d->n || d->nprobe < 2)
		return 0;
	size_window(d);
	for (int i = 0; i < d->nprobe; i++)
		append(d, d->probe_t[i], d->probe + (size_t)i * d->width);
	return d->nready;
}

const double *
sgd_ready(const sgderive *d, int i, double *t)
{
	*t = d->ready_t[i];
	return d->ready + (size_t)i * d->width;
}

void
sgd_stats(const sgderive *d, long *dropped, long *gaps, int *samples, double *dt)
{
	*dropped = d->pushed - d->written;
	*gaps = d->gaps;
	*samples = d->n;
	*dt = d->dt;
}

void
sgd_free(sgderive *d)
{
	if (!d)
		return;
	free(d->ops);
	free(d->probe);
	free(d->ready);
	free(d->ring);
	free(d->t);
	free(d->tw);
	for (int k = 0; k < 3; k++)
		free(d->w[k]);
	free(d);
}
