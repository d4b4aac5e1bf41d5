/* estimate_batch.c: least squares over a whole stream; see estimate_batch.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "estimate_batch.h"
#include "estimate_samples.h"
#include "estimate_wide.h"
#include "estout.h"
#include "rowfit.h"
#include "cli.h"
#include "cmdio.h"
#include "../lib/tagk.h"

/* MAX_BLOCKS: the HAC sd's blocks of samples (tagk_batch_sd_hac): one
 * sample each up to that many samples, then pairs merged, so the memory
 * stays bounded (at most 7 MB for a rigid body) whatever the log's length */
enum { MAX_SEGMENTS = 4096, MAX_BLOCKS = 512 };

/* One run: the stream's columns, the segments and the accumulated sums. */
typedef struct {
	const batch_opts *o;
	tbl_reader *r;
	int n, it, ib, irow, iw, iy[TAGK_NPARAM], ntrue, tidx[TAGK_NPARAM];
	const char *names[TAGK_NPARAM];
	double starts[MAX_SEGMENTS];
	int nstarts, by_truth, next_start;
	estout out;
	double *row, t_last, truth[TAGK_NPARAM], prev_truth[TAGK_NPARAM];
	tagk_batch *q;
	long samples, in_seg;
	cmdio_samples sc;
	double *blocks, *G;   /* MAX_BLOCKS x TAGK_BATCH_BLOCK_LEN(n); MAX_BLOCKS x n */
	int nblk, blk_len, blk_fill; /* blocks in use, samples per block, in the last */
	rowfit *rf;           /* the model-fit check (rowfit.h); NULL: off */
	long sd_hac, sd_white;       /* segments whose sd is Newey-West's, the white sandwich's */
} batchrun;

/* The regressor's columns, the --weight column and the truth's. */
static void
columns(batchrun *w)
{
	tbl_reader *r = w->r;
	int n = w->n = cmdio_regressor_cols(r, 1, &w->it, &w->ib, &w->irow, w->iy);
	w->iw = -1;
	if (w->o->weight) {
		w->iw = tbl_find(r, w->o->weight);
		if (w->iw < 0)
			cli_die(EXIT_DATA, "%s: --weight: no column '%s'%s", tbl_name(r), w->o->weight,
			    cmdio_unread_hint(r, w->o->weight));
		tbl_want(r, w->iw);
	}
	w->ntrue = estout_want_truth(r, n, w->tidx, w->names);
}

/* --segment: "truth", or the increasing times at which segments start. */
static void
segments(batchrun *w)
{
	const char *arg = w->o->segments;
	if (arg && strcmp(arg, "truth") == 0) {
		w->by_truth = 1;
		if (!w->ntrue)
			cli_die(EXIT_USAGE, "--segment truth: %s has no true_* columns", tbl_name(w->r));
	} else if (arg) {
		static char buf[65536];
		static char *items[MAX_SEGMENTS];
		w->nstarts = cli_split("--segment", arg, buf, sizeof(buf), items, MAX_SEGMENTS);
		for (int i = 0; i < w->nstarts; i++) {
			w->starts[i] = cli_double("--segment", items[i], -1e300, 1e300);
			if (i && !(w->starts[i] > w->starts[i - 1]))
				cli_die(EXIT_USAGE, "--segment: the times must increase ('%s' after '%s')", items[i],
				    items[i - 1]);
		}
	}
}

/* --theta0 and --prior-weight: the regularised methods' prior. */
static void
prior(batchrun *w)
{
	const batch_opts *o = w->o;
	int n = w->n;
	tagk_real t0[TAGK_NPARAM];
	if (o->ntheta0 != n)
		cli_die(EXIT_USAGE, "--theta0: %d values, but %s estimates %d parameters", o->ntheta0, tbl_name(w->r), n);
	for (int j = 0; j < n; j++)
		t0[j] = (tagk_real)o->theta0[j];
	tagk_status ps = tagk_batch_set_prior(w->q, t0, (tagk_real)o->prior_weight);
	if (ps == TAGK_EINVAL)
		cli_die(EXIT_USAGE, "--prior-weight: %s needs a positive weight", o->method->name);
	if (ps != TAGK_OK)
		cli_die(EXIT_USAGE, "--theta0: values that are not finite");
	tagk_real lmin;
	if (n == TAGK_NPARAM && (tagk_pseudo_min_eig(t0, &lmin) != TAGK_OK || !(lmin > 0)))
		cli_die(EXIT_USAGE, "--theta0: not a physical body (its pseudo-inertia is not positive definite), "
		    "so it has no pullback metric");
}

static void
open_run(batchrun *w, const batch_opts *o, tbl_reader *r)
{
	*w = (batchrun){ .o = o, .t_last = -INFINITY };
	w->r = r;
	columns(w);
	segments(w);
	estout_scale_from(w->r);
	estout_open(&w->out, o->outname, w->n, 1, w->ntrue, w->names);
	estout_project(&w->out, !o->raw);
	w->row = malloc((size_t)tbl_ncols(w->r) * sizeof(double));
	w->q = malloc(sizeof(*w->q));
	w->blocks = calloc((size_t)MAX_BLOCKS * TAGK_BATCH_BLOCK_LEN(w->n), sizeof(double));
	w->G = malloc((size_t)MAX_BLOCKS * (size_t)w->n * sizeof(double));
	w->blk_len = 1;
	if (!w->row || !w->q || !w->blocks || !w->G)
		cli_die(EXIT_DATA, "out of memory");
	if (tagk_batch_init(w->q, o->method, w->n) != TAGK_OK)
		cli_die(EXIT_USAGE, "%s: cannot estimate %d parameters", o->method->name, w->n);
	if (o->theta0)
		prior(w);
	w->rf = o->no_fit_check ? NULL : rowfit_new(w->n);
}

/* The segment that ended at t_last: its estimate written, the sums cleared. */
static void
solve_segment(batchrun *w)
{
	tagk_real theta[TAGK_NPARAM];
	tagk_status st = tagk_batch_solve(w->q, theta);
	if (st != TAGK_OK) {
		char a[32];
		fmt_double(a, w->t_last);
		int pc = w->o->method->preset[1] != 0;
		cli_die(EXIT_DATA, "%s: the segment ending at t = %s: %s%s", tbl_name(w->r), a,
		    st == TAGK_ENOTPD ? "the data do not determine every parameter (a singular "
		    "normal matrix)" : pc ? "the consistent solver failed: " : "", st == TAGK_ENOTPD ?
		    (pc ? ", and the physical constraints alone do not fix the rest: use a longer segment, "
		    "or a method with a prior (-a wls-pullback --theta0 ...)" : ": use a -pc method, a "
		    "method with a prior (-a wls-pullback --theta0 ...) or a longer segment")
		    : tagk_strerror(st));
	}
	/* the sd: Newey-West over the blocks' scores (correlated residuals),
	 * the white sandwich with a single block */
	tagk_real sd[TAGK_NPARAM];
	tagk_status sst = w->nblk >= 2 ? tagk_batch_sd_hac(w->q, theta, w->blocks, w->nblk, w->G, sd, NULL)
	    : tagk_batch_sd(w->q, theta, sd);
	if (sst == TAGK_OK && w->nblk >= 2)
		w->sd_hac++;
	else if (sst == TAGK_OK)
		w->sd_white++;
	estout_row(&w->out, w->t_last, theta, sst == TAGK_OK ? sd : NULL, w->truth);
	tagk_batch_clear(w->q);
	w->in_seg = 0;
	w->nblk = 0;
	w->blk_len = 1;
}

/* A new sample: into the last block, or a new one (after merging pairs
 * when every block is in use). */
static void
next_block(batchrun *w)
{
	const size_t len = TAGK_BATCH_BLOCK_LEN(w->n);
	if (w->nblk > 0 && w->blk_fill < w->blk_len) {
		w->blk_fill++;
		return;
	}
	if (w->nblk == MAX_BLOCKS) {
		for (int i = 0; i < MAX_BLOCKS / 2; i++) {
			double *d = w->blocks + (size_t)i * len;
			const double *a = w->blocks + (size_t)(2 * i) * len, *b = a + len;
			for (size_t k = 0; k < len; k++)
				d[k] = a[k] + b[k];
		}
		w->nblk = MAX_BLOCKS / 2;
		w->blk_len *= 2;
	}
	memset(w->blocks + (size_t)w->nblk * len, 0, len * sizeof(double));
	w->nblk++;
	w->blk_fill = 1;
}

/* Whether the sample starting at t (a new one) begins a new segment. */
static int
boundary_at(batchrun *w, double t)
{
	int b = 0;
	if (w->by_truth) {
		for (int j = 0; j < w->ntrue; j++)
			b |= w->row[w->tidx[j]] != w->prev_truth[j];
		return b;
	}
	while (w->next_start < w->nstarts && w->starts[w->next_start] <= t) {
		b |= w->starts[w->next_start] > w->t_last;
		w->next_start++;
	}
	return b;
}

/* The row into the sums (its index checked, its weight if any). */
static void
add_row(batchrun *w)
{
	const double *row = w->row;
	tbl_reader *r = w->r;
	int k = row[w->irow] >= 0 && row[w->irow] < TAGK_BATCH_ROWS ? (int)row[w->irow] : -1;
	if (k < 0 || row[w->irow] != (double)k)
		cli_die(EXIT_DATA, "%s: row %g: a sample has rows 0 to %d at most", tbl_where(r), row[w->irow],
		    TAGK_BATCH_ROWS - 1);
	double y[TAGK_NPARAM];
	for (int i = 0; i < w->n; i++)
		y[i] = row[w->iy[i]];
	int iw = w->iw;
	if (iw >= 0 && !(row[iw] >= 0))
		cli_die(EXIT_DATA, "%s: --weight %s: %g is not a weight (finite, >= 0)", tbl_where(r), w->o->weight,
		    row[iw]);
	if ((iw >= 0 ? tagk_batch_add_weighted(w->q, k, y, row[w->ib], row[iw]) : tagk_batch_add(w->q, k, y, row[w->ib]))
	    != TAGK_OK)
		cli_die(EXIT_DATA, "%s: a value that is not finite", tbl_where(r));
	if (w->rf)
		rowfit_add(w->rf, k, y, row[w->ib]);
	tagk_batch_block_add(w->blocks + (size_t)(w->nblk - 1) * TAGK_BATCH_BLOCK_LEN(w->n), w->n, k, y, row[w->ib],
	    iw >= 0 ? row[iw] : 1);
}

/* One read (rc from tbl_next): segment boundaries, then the row's sums.
 * Returns 0 at the end of the stream. */
static int
on_read(batchrun *w, int rc)
{
	tbl_reader *r = w->r;
	const double *row = w->row;
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	if (rc == 1 && !(row[w->irow] >= 0 && row[w->irow] < TAGK_BATCH_ROWS))
		cli_die(EXIT_DATA, "%s: row %g: a sample has rows 0 to %d at most", tbl_where(r), row[w->irow],
		    TAGK_BATCH_ROWS - 1);
	/* a sample cut short is refused before its segment is solved */
	if (rc == 1) {
		cmdio_sample_row(&w->sc, r, row[w->it], row[w->irow]);
		estout_scale_row(&w->out, r, row);
	} else {
		cmdio_sample_end(&w->sc, r, 1);
	}
	double t = rc == 1 ? row[w->it] : (double)NAN;
	int new_sample = rc == 1 && t != w->t_last;
	if (rc == 1 && new_sample && !(t > w->t_last) && w->samples)
		cli_die(EXIT_DATA, "%s: time does not increase", tbl_where(r));
	int boundary = rc == 0 || (new_sample && w->samples && boundary_at(w, t));
	if (boundary && w->in_seg)
		solve_segment(w);
	if (rc == 0)
		return 0;
	if (new_sample) {
		w->samples++;
		w->t_last = t;
		w->in_seg++;
		next_block(w);
		if (w->rf)
			rowfit_sample(w->rf, t);
		for (int j = 0; j < w->ntrue; j++)
			w->prev_truth[j] = w->truth[j] = row[w->tidx[j]];
	}
	add_row(w);
	return 1;
}

int
estimate_batch(const batch_opts *o, const char *input)
{
	if (!((const tagk_batch_ops *)o->method->ops)->solve)
		return estimate_samples(o, input);
	static batchrun w;
	tbl_reader *r = cmdio_open_input(input, &o->in);
	if (estimate_wide_stream(r)) /* tagk-regress --unknown all's many bodies */
		return estimate_wide(o, r);
	if (o->robot)
		cli_die(EXIT_USAGE, "--robot: %s is one body's stream (Y_m ...): --robot is the prior of a whole-arm "
		    "stream (tagk-regress --unknown all)", tbl_name(r));
	open_run(&w, o, r);
	while (on_read(&w, tbl_next(w.r, w.row)))
		;
	if (w.samples == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(w.r));
	sink_note(w.out.out, "method", o->method->name);
	/* each row one segment's estimate: tagk-report judges each */
	if (o->segments)
		sink_note(w.out.out, "segments", "rows");
	if (w.sd_hac || w.sd_white)
		sink_note(w.out.out, "sd_noise", w.sd_white ? "white" : "newey-west");
	estout_pass_note(&w.out, w.r, "px4_hover_mass");
	estout_pass_note(&w.out, w.r, "system");
	estout_scale_note(&w.out, w.r);
	estout_pass_note(&w.out, w.r, "nominal_mass");
	if (w.rf) {
		const char *sys = tbl_note(w.r, "system");
		rowfit_judge(w.rf, sys && strcmp(sys, "arm") == 0, o->verbose);
		rowfit_free(w.rf);
	}
	/* after the caution, which the stream carries */
	estout_commit(&w.out, o->quiet);
	if (tbl_skipped(w.r))
		cli_warn("skipped %ld bad row%s", tbl_skipped(w.r), tbl_skipped(w.r) == 1 ? "" : "s");
	tbl_close(w.r);
	free(w.row);
	free(w.q);
	free(w.blocks);
	free(w.G);
	return 0;
}
