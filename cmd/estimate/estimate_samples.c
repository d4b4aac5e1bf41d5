/*
 * estimate_samples.c: tagk-estimate --batch for the batch methods that keep
 * every sample (batch.h: solve_samples, e.g. dm): a regressor stream with
 * metric columns (tagk-regress -m multibody --metric), one estimate per
 * segment from the start --theta0. Memory grows with the segment: each
 * sample keeps its N rows and its metric's N x N x 11 values.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdio.h"
#include "estout.h"
#include "estimate_samples.h"
#include "../formats/sink.h"
#include "../lib/tagk.h"

enum { MAXN = TAGK_MB_MAX_DOF, P = TAGK_NPARAM };

typedef struct {
	long N, cap;
	int n;
	tagk_real *Y, *tau, *M; /* N x n x P, N x n, N x (P + 1) x n x n */
} samples;

static void
grow(samples *s)
{
	if (s->N < s->cap)
		return;
	s->cap = s->cap ? 2 * s->cap : 256;
	s->Y = realloc(s->Y, (size_t)s->cap * s->n * P * sizeof(*s->Y));
	s->tau = realloc(s->tau, (size_t)s->cap * s->n * sizeof(*s->tau));
	s->M = realloc(s->M, (size_t)s->cap * (P + 1) * s->n * s->n * sizeof(*s->M));
	if (!s->Y || !s->tau || !s->M)
		cli_die(EXIT_DATA, "out of memory");
}

/* One run: the stream's columns (regressor, metric, truth) and the
 * segment's samples. */
typedef struct {
	const batch_opts *o;
	tbl_reader *r;
	int n, it, ib, irow, iy[P], im0[MAXN], imj[P][MAXN], ntrue, tidx[P];
	const char *names[P];
	estout out;
	double *row, t_cur, prev_truth[P];
	tagk_real *ws, theta0[P];
	size_t wslen;
	samples s;
	int seen, have, segs;
} samplerun;

/* The regressor's, the metric's (M0_c, M_<param>_c) and the truth's columns. */
static void
columns(samplerun *w)
{
	tbl_reader *r = w->r;
	const char *mname = w->o->method->name;
	if (cmdio_regressor_cols(r, 1, &w->it, &w->ib, &w->irow, w->iy) != P)
		cli_die(EXIT_DATA, "%s: %s needs the rigid body's ten parameters", tbl_name(r), mname);
	char name[48];
	int n = 0;
	for (; n < MAXN; n++) {
		snprintf(name, sizeof(name), "M0_%d", n + 1);
		if ((w->im0[n] = tbl_find(r, name)) < 0)
			break;
		tbl_want(r, w->im0[n]);
	}
	if (n == 0)
		cli_die(EXIT_DATA, "%s: %s needs the metric's columns (M0_1, ...: tagk-regress -m multibody --metric)",
		    tbl_name(r), mname);
	w->n = n;
	for (int j = 0; j < P; j++)
		for (int c = 0; c < n; c++) {
			snprintf(name, sizeof(name), "M_%s_%d", tagk_param_names[j], c + 1);
			if ((w->imj[j][c] = tbl_find(r, name)) < 0)
				cli_die(EXIT_DATA, "%s: missing column '%s' (tagk-regress -m multibody --metric)", tbl_name(r), name);
			tbl_want(r, w->imj[j][c]);
		}
	w->ntrue = estout_want_truth(r, P, w->tidx, w->names);
	if (w->o->segments && !w->ntrue)
		cli_die(EXIT_USAGE, "--segment truth: %s has no true_* columns", tbl_name(r));
}

static void
open_run(samplerun *w, const batch_opts *o, const char *input)
{
	const char *mname = o->method->name;
	if (!o->theta0 || o->ntheta0 != P)
		cli_die(EXIT_USAGE, "%s needs --theta0: ten values where every sample's metric is positive definite (a "
		    "physical body)", mname);
	if (o->segments && strcmp(o->segments, "truth") != 0)
		cli_die(EXIT_USAGE, "--segment: %s takes 'truth' only", mname);
	if (o->weight)
		cli_die(EXIT_USAGE, "--weight does not apply to %s", mname);
	*w = (samplerun){ .o = o, .t_cur = NAN };
	w->r = cmdio_open_input(input, &o->in);
	columns(w);
	/* the estimate stream; these methods give no uncertainty (empty sd) */
	estout_open(&w->out, o->outname, P, 1, w->ntrue, w->names);
	estout_project(&w->out, !o->raw);
	w->row = malloc((size_t)tbl_ncols(w->r) * sizeof(*w->row));
	w->wslen = tagk_dmls_workspace_len(w->n, P);
	w->ws = malloc(w->wslen * sizeof(*w->ws));
	if (!w->row || !w->ws)
		cli_die(EXIT_DATA, "out of memory");
	for (int j = 0; j < P; j++)
		w->theta0[j] = (tagk_real)o->theta0[j];
	w->s.n = w->n;
}

/* The segment's samples solved from --theta0, its estimate written. */
static void
solve_segment(samplerun *w)
{
	const batch_opts *o = w->o;
	samples *s = &w->s;
	tagk_dmls_problem pb;
	tagk_dmls_defaults(&pb);
	pb.N = (int)s->N;
	pb.n = w->n;
	pb.p = P;
	pb.Y = s->Y;
	pb.tau = s->tau;
	pb.M = s->M;
	tagk_real theta[P];
	tagk_status st = ((const tagk_batch_ops *)o->method->ops)->solve_samples(o->method, &pb, w->theta0, theta,
	    w->ws, w->wslen);
	if (st != TAGK_OK) {
		char a[32];
		fmt_double(a, w->t_cur);
		cli_die(EXIT_DATA, "%s: the segment ending at t = %s: %s%s", tbl_name(w->r), a, tagk_strerror(st),
		    st == TAGK_ENOTPD ? " (at --theta0 some sample's metric is not positive definite, or "
		    "--theta0 is not physical)" : "");
	}
	estout_row(&w->out, w->t_cur, theta, NULL, w->prev_truth);
	w->segs++;
	s->N = 0;
}

/* Row k of the current sample (its rows come 0 to n - 1 in order) kept. */
static void
keep_row(samplerun *w, int new_sample)
{
	const double *row = w->row;
	samples *s = &w->s;
	int n = w->n;
	if (new_sample) {
		grow(s);
		s->N++;
		w->seen = 0;
		memset(s->M + (size_t)(s->N - 1) * (P + 1) * n * n, 0, sizeof(*s->M) * (size_t)(P + 1) * n * n);
	}
	int k = (int)row[w->irow];
	if (!(row[w->irow] >= 0 && row[w->irow] < n) || row[w->irow] != (double)k || k != w->seen)
		cli_die(EXIT_DATA, "%s: row %g: a sample's rows run 0 to %d in order", tbl_where(w->r), row[w->irow],
		    n - 1);
	w->seen++;
	w->t_cur = row[w->it];
	w->have = 1;
	const long x = s->N - 1;
	for (int j = 0; j < P; j++)
		s->Y[(x * n + k) * P + j] = (tagk_real)row[w->iy[j]];
	s->tau[x * n + k] = (tagk_real)row[w->ib];
	tagk_real *Mx = s->M + (size_t)x * (P + 1) * n * n;
	for (int c = 0; c < n; c++) {
		Mx[k * n + c] = (tagk_real)row[w->im0[c]];
		for (int j = 0; j < P; j++)
			Mx[(size_t)(1 + j) * n * n + k * n + c] = (tagk_real)row[w->imj[j][c]];
	}
	for (int j = 0; j < w->ntrue; j++)
		w->prev_truth[j] = row[w->tidx[j]];
}

/* One read (rc from tbl_next); 0 at the end of the stream. */
static int
on_read(samplerun *w, int rc)
{
	tbl_reader *r = w->r;
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	int new_sample = rc == 0 || !w->have || w->row[w->it] != w->t_cur;
	if (w->have && new_sample && w->seen != w->n) {
		char a[32];
		fmt_double(a, w->t_cur);
		cli_die(EXIT_DATA, "%s: t = %s: the sample has %d of its %d rows", tbl_name(r), a, w->seen, w->n);
	}
	int boundary = rc == 0;
	if (rc == 1 && w->have && new_sample && w->o->segments)
		for (int j = 0; j < w->ntrue; j++)
			boundary |= w->row[w->tidx[j]] != w->prev_truth[j];
	if (boundary && w->s.N)
		solve_segment(w);
	if (rc == 0)
		return 0;
	if (w->have && !(w->row[w->it] >= w->t_cur))
		cli_die(EXIT_DATA, "%s: time does not increase", tbl_where(r));
	keep_row(w, new_sample);
	return 1;
}

int
estimate_samples(const batch_opts *o, const char *input)
{
	static samplerun w;
	open_run(&w, o, input);
	while (on_read(&w, tbl_next(w.r, w.row)))
		;
	if (!w.segs)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(w.r));
	sink_note(w.out.out, "method", o->method->name);
	estout_pass_note(&w.out, w.r, "px4_hover_mass");
	estout_pass_note(&w.out, w.r, "system");
	estout_pass_note(&w.out, w.r, "nominal_mass");
	estout_commit(&w.out, o->quiet);
	tbl_close(w.r);
	free(w.row);
	free(w.ws);
	free(w.s.Y);
	free(w.s.tau);
	free(w.s.M);
	return 0;
}
