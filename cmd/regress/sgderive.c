/* sgderive.c: Savitzky-Golay derivatives over a sliding window of rows; see
 * sgderive.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "sgderive.h"
#include "../lib/signals.h"

enum { PROBE = 9, PROBE_AUTO = 2048, MAX_HALF = 5000 };

struct sgderive {
	double window;
	int order, width, nops;
	sg_op *ops;
	int n;            /* window in samples (odd); 0 until sized */
	double dt;        /* median spacing of the first rows */
	double *ring, *t; /* n rows and times, oldest at head */
	int head, count;
	double *probe, *probe_t; /* the first rows (PROBE, or PROBE_AUTO to choose the window), held until sized */
	int nprobe, maxprobe;
	double *ready, *ready_t, *w[3], *tw; /* up to maxprobe rows; weights per derivative; window times */
	char why[200];    /* how the window was chosen, when it was */
	int nready;
	long pushed, written, gaps;
};

sgderive *
sgd_new(double window, int order, int width, int nops, const sg_op *ops)
{
	sgderive *d = calloc(1, sizeof(*d));
	int maxprobe = window > 0 ? PROBE : PROBE_AUTO;
	if (!d || !(d->ops = malloc((size_t)nops * sizeof(*ops))) ||
	    !(d->probe = malloc((size_t)maxprobe * (size_t)width * sizeof(double))) ||
	    !(d->ready = malloc((size_t)maxprobe * (size_t)width * sizeof(double))) ||
	    !(d->probe_t = malloc((size_t)maxprobe * sizeof(double))) ||
	    !(d->ready_t = malloc((size_t)maxprobe * sizeof(double))))
		cli_die(EXIT_DATA, "out of memory");
	d->maxprobe = maxprobe;
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

/* The filter's weights for a derivative over 2 m + 1 samples h apart,
 * centred: into w; -1 when the fit is not determined. */
static int
even_weights(int m, double h, int order, int deriv, double *w, double *t)
{
	for (int i = -m; i <= m; i++)
		t[i + m] = i * h;
	return tagk_sg_weights(2 * m + 1, t, 0, order, deriv, w);
}

/* The mean over the probe's rows of the square of the filter w (2m+1) on
 * column c, and the noise sd of c from its fourth differences (median
 * absolute value / (0.6745 sqrt 70), as armfit.h). */
static double
mean_square(const sgderive *d, int c, int m, const double *w)
{
	double ss = 0;
	int k = 0;
	for (int i = m; i + m < d->nprobe; i++, k++) {
		double e = 0;
		for (int j = -m; j <= m; j++)
			e += w[j + m] * d->probe[(size_t)(i + j) * d->width + c];
		ss += e * e;
	}
	return k ? ss / k : 0;
}

static double
noise_sd(const sgderive *d, int c)
{
	double *a = malloc((size_t)d->nprobe * sizeof(double));
	int k = 0;
	if (!a)
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 2; i + 2 < d->nprobe; i++) {
		const double *x = d->probe + c;
		size_t W = (size_t)d->width;
		a[k++] = fabs(x[(i - 2) * W] - 4 * x[(i - 1) * W] + 6 * x[i * W] - 4 * x[(i + 1) * W] + x[(i + 2) * W]);
	}
	qsort(a, (size_t)k, sizeof(double), cmp_double);
	double sd = k ? a[k / 2] / (0.6745 * sqrt(70.0)) : 0;
	free(a);
	return sd;
}

/* The window for second derivatives derived from positions (qdd of q), when
 * none was given: the one that minimises the estimated mean squared error
 * of qdd summed over the joints (each relative to its qdd's mean square),
 * from the first rows (up to PROBE_AUTO). For the filter over 2 m + 1
 * samples, the noise part is s^2 sum w_i^2 (s the position's noise, from
 * its fourth differences) and the bias part (f'''' sum w_i x_i^4 / 24)^2,
 * the response of the filter to the quartic term; f''''^2 is the mean square
 * of a degree-5 filter's fourth derivative less its own noise part, over
 * the narrowest window where that noise is under a tenth of it. Returns
 * seconds; in why, what it weighed. */
static double
choose_window(sgderive *d)
{
	enum { MAXS = 64 };
	const double h = d->dt;
	const int M = (d->nprobe - 1) / 4 < 200 ? (d->nprobe - 1) / 4 : 200;
	double w[401], t[401], sd[MAXS], f4sq[MAXS], qq[MAXS], best = INFINITY, sdq = 0, f4 = 0;
	int src[MAXS], ns = 0, bm = 0;
	for (int k = 0; k < d->nops && ns < MAXS; k++)
		if (d->ops[k].deriv == 2)
			src[ns++] = d->ops[k].src;
	/* per signal: its noise, f''''^2 (a degree-5 filter's fourth
	 * derivative, its noise part taken out, over the narrowest window
	 * where that part is under a tenth), and the mean square of qdd */
	for (int j = 0; j < ns; j++) {
		sd[j] = noise_sd(d, src[j]);
		f4sq[j] = 0;
		for (int m4 = 4; m4 <= M; m4++) {
			double n4 = 0;
			if (even_weights(m4, h, 5, 4, w, t) != 0)
				continue;
			for (int i = 0; i <= 2 * m4; i++)
				n4 += w[i] * w[i];
			double ms = mean_square(d, src[j], m4, w);
			if (ms > 10 * sd[j] * sd[j] * n4 || m4 == M) {
				f4sq[j] = fmax(ms - sd[j] * sd[j] * n4, 0);
				break;
			}
		}
		int mr = M / 4 > 3 ? M / 4 : 3;
		qq[j] = even_weights(mr, h, d->order, 2, w, t) == 0 ? mean_square(d, src[j], mr, w) : 0;
		sdq = fmax(sdq, sd[j]), f4 = fmax(f4, sqrt(f4sq[j]));
	}
	/* the filter over 2m+1 samples: the relative biases it gives the
	 * estimates (qdd is a regressor): its noise s^2 sum w^2 attenuates them
	 * by that over qdd's mean square; its smoothing, f'''' sum w x^4 / 24,
	 * shrinks qdd by that over its rms */
	for (int m = 3; m <= M && ns; m++) {
		if (even_weights(m, h, d->order, 2, w, t) != 0)
			continue;
		double nv = 0, br = 0, e = 0;
		for (int i = 0; i <= 2 * m; i++)
			nv += w[i] * w[i], br += w[i] * pow(t[i], 4) / 24;
		for (int j = 0; j < ns; j++)
			if (qq[j] > 0)
				e += sd[j] * sd[j] * nv / qq[j] + sqrt(f4sq[j] / qq[j]) * fabs(br);
		if (e < best)
			best = e, bm = m;
	}
	if (!bm)
		return 0.05; /* too few rows to judge: the former default */
	snprintf(d->why, sizeof(d->why), "chosen from the first %d samples: the least bias of qdd, noise (the "
	    "positions' sd up to %.2g) against smoothing (their 4th derivative up to %.2g): %.2g %% on average",
	    d->nprobe, sdq, f4, 100 * best / ns);
	return 2 * bm * h;
}

/* The window in samples from the first rows' median spacing. */
static void
size_window(sgderive *d)
{
	double s[PROBE];
	int m = 0;
	for (int i = 1; i < d->nprobe && i < PROBE; i++)
		s[m++] = d->probe_t[i] - d->probe_t[i - 1];
	qsort(s, (size_t)m, sizeof(double), cmp_double);
	d->dt = s[m / 2];
	if (!(d->window > 0))
		d->window = choose_window(d);
	double half = floor(d->window / (2 * d->dt) + 0.5);
	int n = 2 * (int)fmin(half, MAX_HALF) + 1;
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

/* Fill the ready row for the window's centre. The ring is read as its two
 * runs, head .. n - 1 then 0 .. head - 1, in the window's order (a
 * division per value for the index took 5 % of tagk-regress -m multibody's
 * time by perf). */
static void
emit(sgderive *d)
{
	const int n = d->n, c = n / 2, W = d->width, h = d->head, k1 = n - h;
	double *tw = d->tw;
	memcpy(tw, d->t + h, (size_t)k1 * sizeof(double));
	memcpy(tw + k1, d->t, (size_t)h * sizeof(double));
	const double *mid = d->ring + (size_t)((h + c) % n) * W;
	double *out = d->ready + (size_t)d->nready * W;
	memcpy(out, mid, (size_t)W * sizeof(double));
	int have[3] = { 0, 0, 0 };
	for (int k = 0; k < d->nops; k++) {
		const sg_op *op = &d->ops[k];
		double *w = d->w[op->deriv];
		if (!have[op->deriv] && tagk_sg_weights(n, tw, tw[c], d->order, op->deriv, w) != 0)
			cli_die(EXIT_DATA, "the Savitzky-Golay fit at t = %g has too few distinct times", tw[c]);
		have[op->deriv] = 1;
		const double *x = d->ring + (size_t)h * W + op->src, *x2 = d->ring + op->src;
		double s = 0;
		for (int i = 0; i < k1; i++)
			s += w[i] * x[(size_t)i * W];
		for (int i = k1; i < n; i++)
			s += w[i] * x2[(size_t)(i - k1) * W];
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
		if (d->nprobe < d->maxprobe)
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

const char *
sgd_why(const sgderive *d)
{
	return d->why[0] ? d->why : NULL;
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
	free(d->probe_t);
	free(d->ready_t);
	free(d->ring);
	free(d->t);
	free(d->tw);
	for (int k = 0; k < 3; k++)
		free(d->w[k]);
	free(d);
}
