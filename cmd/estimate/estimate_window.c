/* estimate_window.c: tagk-estimate's window methods; see estimate_window.h.
 *
 * The loop reads rows into a ring of samples (read_samples); each
 * completed sample may make a window due (on_sample), whose update runs
 * in run_update with its diagnostics and its uncertainty; the notes at the
 * end say what the run found (finish). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdio.h"
#include "estimate_detect.h"
#include "estimate_window.h"
#include "estout.h"
#include "excitation.h"
#include "rowfit.h"

enum { MAX_SAMPLE_ROWS = 64, PACE_KEPT = 256, SPREAD = 20 };

typedef struct {
	double t;
	int rows;
	double *Y;      /* MAX_SAMPLE_ROWS x n */
	double *b;      /* MAX_SAMPLE_ROWS */
	double *truth;  /* ntrue */
} sample;

/* One run's state. */
typedef struct {
	const window_opts *o;
	tbl_reader *r;
	int n, ntrue, it, ib, irow, iy[TAGK_NPARAM], *tidx;
	/* the ring of samples */
	int cap, head, fill, rows_per;
	sample *ring;
	long nsamples;
	/* the method */
	tagk_config cfg;
	tagk_real theta0[TAGK_NPARAM];
	tagk_estimator est;
	tagk_real *ws, *A, *bb;
	int *kind;             /* each window row's place in its sample */
	int ready;
	long updates, refused[TAGK_NSTATUS];
	tagk_status first_refusal;
	double t_last_run;
	/* the uncertainty: uncert.h for a linear gain, else the spread of the
	 * last SPREAD estimates */
	int linear;
	tagk_uncert unc;
	tagk_real *uws, *P, *scratch;
	tagk_real spread[SPREAD][TAGK_NPARAM];
	long nspread;
	/* the output and the diagnostics */
	estout out;
	tagk_excitation exc;
	tagk_fitcheck fit;
	rowfit *rf;            /* the model-fit check (rowfit.h), NULL with --no-fit-check */
	long rows_in, rows_b0; /* rows with b = 0 but a regressor that is not */
	/* --detect: the detector, and an event not yet written (a refused update) */
	est_detect det;
	double event[2];
	double pace[PACE_KEPT];
	int npace, pace_check;
} winrun;

/* Notes when the data are mostly noise for the method (-q silences them):
 * the windows' median relative prediction error (fitcheck.h), and for a
 * method with a noise model the ratio of its innovations to what its noise
 * settings assume (estimator.h, noise_ratio). */
static void
noise_notes(const tagk_estimator *est, const tagk_config *cfg, const tagk_fitcheck *fit, int arm)
{
	const char *name = cfg->method->name;
	double med = (double)tagk_fitcheck_median(fit);
	/* 50 % RMS: clean simulated data give under 3 % (up to 45 % with rls-low
	 * lagging after payload events), the real Crazyflie
	 * logs 3 to 6 % with kf-low and rls-low, 20 to 50 % with tagk */
	if (med > 0.25)
		cli_caution("%s: before each update, its estimate missed the window's rows by %s %% (RMS over the rows' size, "
		    "median of the windows): the rows carry that much noise or model error (%s), and the estimates "
		    "follow it; use a longer --window, a batch method (--batch -a wls), or a filter that averages longer "
		    "(-q silences this note)", name, cli_approx(100 * sqrt(med)), arm ? "an arm's: noisy derived "
		    "accelerations, friction not modelled" : "commanded thrust is not thrust");
	double ratio = (double)tagk_est_noise_ratio(est);
	/* residuals over 3 times the noise assumed (simulated logs with their
	 * noise level give 0.2; the real Crazyflie logs 1.4 to 126) */
	if (strcmp(cfg->method->family, "KF") == 0 && ratio > 10)
		cli_warn("%s: its normalised innovations averaged %.3g: the residuals are about %s times the noise "
		    "its r (%g) assumes, so it weighs each window more than the data deserve and its estimates "
		    "follow the noise more than they should; --r %.2g fits these data (-q silences this note)", name,
		    ratio, cli_approx(sqrt(ratio)), (double)cfg->u.kf.r, (double)cfg->u.kf.r * ratio);
}

/* --- setting up -------------------------------------------------------------- */

static void
open_run(winrun *w, const window_opts *o, const char *input)
{
	memset(w, 0, sizeof(*w));
	w->o = o;
	w->r = cmdio_open_input(input, &o->in);
	tbl_reader *r = w->r;
	if (o->verbose)
		cli_warn("%s: %s", tbl_name(r), tbl_format_label(tbl_format_of(r)));
	w->n = cmdio_regressor_cols(r, 0, &w->it, &w->ib, &w->irow, w->iy);
	w->tidx = malloc((size_t)tbl_ncols(r) * sizeof(int));
	const char **tnames = malloc((size_t)tbl_ncols(r) * sizeof(*tnames));
	if (!w->tidx || !tnames)
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 0; i < tbl_ncols(r); i++)
		if (strncmp(tbl_col(r, i), "true_", 5) == 0) {
			tnames[w->ntrue] = tbl_col(r, i);
			w->tidx[w->ntrue++] = i;
			tbl_want(r, i);
		}
	/* the ring of samples */
	w->cap = o->win_s ? o->max_window : (int)o->win;
	w->ring = calloc((size_t)w->cap, sizeof(*w->ring));
	if (!w->ring)
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 0; i < w->cap; i++) {
		sample *s = &w->ring[i];
		s->Y = malloc((size_t)MAX_SAMPLE_ROWS * (size_t)w->n * sizeof(double));
		s->b = malloc(MAX_SAMPLE_ROWS * sizeof(double));
		s->truth = malloc((size_t)(w->ntrue ? w->ntrue : 1) * sizeof(double));
		if (!s->Y || !s->b || !s->truth)
			cli_die(EXIT_DATA, "out of memory for a window of %d samples", w->cap);
	}
	/* the method's settings */
	w->cfg = o->cfg;
	w->cfg.n = w->n;
	if (tagk_method_accepts(w->cfg.method, "length") && w->cfg.u.kzr.length > 0 && w->n % TAGK_NPARAM != 0)
		cli_die(EXIT_USAGE, "--length scales rigid bodies (%d parameters each); %s has %d parameter%s",
		    TAGK_NPARAM, tbl_name(r), w->n, w->n == 1 ? "" : "s");
	if (o->theta0) {
		if (o->ntheta0 != w->n)
			cli_die(EXIT_USAGE, "--theta0: %d value%s given; %s has %d parameter%s", o->ntheta0,
			    o->ntheta0 == 1 ? "" : "s", tbl_name(r), w->n, w->n == 1 ? "" : "s");
		for (int j = 0; j < w->n; j++)
			w->theta0[j] = (tagk_real)o->theta0[j];
		w->cfg.theta0 = w->theta0;
	}
	w->t_last_run = -INFINITY;
	static const char *const event_cols[] = { "event", "event_t" };
	estout_scale_from(r);
	estout_open_extra(&w->out, o->outname, w->n, 1, w->ntrue, tnames, o->detect_arl > 0 ? 2 : 0, event_cols);
	w->event[0] = 0;
	w->event[1] = NAN;
	estout_project(&w->out, !o->raw);
	free(tnames);
	tagk_excitation_init(&w->exc, w->n);
	tagk_fitcheck_init(&w->fit);
	w->rf = o->no_fit_check ? NULL : rowfit_new(w->n);
}

/* The method, once the first window is due: every sample of a stream with
 * a row column has rows_per rows (cmdio_samples checks), which sizes the
 * window and the Kaczmarz Gram cache (m_max^2). */
static void
start_method(winrun *w)
{
	const window_opts *o = w->o;
	tagk_config *cfg = &w->cfg;
	cfg->m_max = w->cap * (w->irow >= 0 ? w->rows_per : MAX_SAMPLE_ROWS);
	size_t len = tagk_est_workspace_len(cfg);
	w->ws = malloc(len * sizeof(*w->ws));
	w->A = malloc((size_t)cfg->m_max * (size_t)w->n * sizeof(*w->A));
	w->bb = malloc((size_t)cfg->m_max * sizeof(*w->bb));
	w->kind = malloc((size_t)cfg->m_max * sizeof(*w->kind));
	if (!w->ws || !w->A || !w->bb || !w->kind)
		cli_die(EXIT_DATA, "out of memory for a window of up to %d rows (%.0f MB of workspace); use a smaller "
		    "--window%s", cfg->m_max, (double)len * (double)sizeof(*w->ws) / 1e6, o->win_s ? " or --max-window" : "");
	tagk_status st = tagk_est_init(&w->est, cfg, w->ws, len);
	if (st == TAGK_ENOTPD)
		cli_die(EXIT_USAGE, "%s needs a physically consistent starting estimate (every body's pseudo-inertia "
		    "positive definite): give one with --theta0 m,mcx,mcy,mcz,Ixx,Ixy,Iyy,Ixz,Iyz,Izz", cfg->method->name);
	if (st != TAGK_OK)
		cli_die(EXIT_USAGE, "%s: %s", cfg->method->name, tagk_strerror(st));
	/* the uncertainty: the method's gains when its update is linear */
	int n = w->n;
	w->P = malloc((size_t)n * (size_t)n * sizeof(*w->P));
	w->scratch = malloc((size_t)n * (size_t)n * sizeof(*w->scratch));
	tagk_real r;
	w->linear = w->P && w->scratch && tagk_est_posterior(&w->est, w->P, &r, w->scratch) == TAGK_OK;
	if (w->linear) {
		size_t ulen = tagk_uncert_workspace_len(n, cfg->m_max);
		w->uws = malloc(ulen * sizeof(*w->uws));
		if (!w->uws || tagk_uncert_init(&w->unc, n, cfg->m_max, w->P, 0, w->uws, ulen) != TAGK_OK)
			cli_die(EXIT_DATA, "out of memory");
	}
	if (o->detect_arl > 0)
		est_detect_open(&w->det, o->detect_arl, w->irow >= 0 ? w->rows_per : MAX_SAMPLE_ROWS, cfg->method->name,
		    o->verbose);
	const char *form = tagk_est_form(&w->est);
	/* tagk-robust unscaled on rigid bodies: the parameters' units decide
	 * its steps (kz_robust.c), which it cannot fix alone */
	if (!o->quiet && tagk_method_accepts(cfg->method, "length") && cfg->u.kzr.length < 0 && n % TAGK_NPARAM == 0 &&
	    strcmp(form, "greedy-screened") == 0)
		cli_warn("%s runs unscaled: give the body's size (--length, in metres; 0.03 for a Crazyflie) or a "
		    "physical --theta0 to scale its parameters", cfg->method->name);
	/* scaled tagk-robust keeps the directions its windows hardly excite
	 * near its start by design (kz_robust.c): without --theta0 that start
	 * is 0; the pace note below is not for it */
	if (!o->quiet && strcmp(form, "greedy-screened-scaled") == 0 && !o->theta0)
		cli_warn("%s starts from 0 without --theta0, and in scaled parameters the directions its windows hardly "
		    "excite (the inertia, on most flights) stay near their start: give the body's nominal parameters "
		    "with --theta0", cfg->method->name);
	w->pace_check = !o->quiet && strcmp(cfg->method->family, "Kaczmarz") == 0 &&
	    strcmp(form, "greedy-screened-scaled") != 0;
	if (o->verbose)
		cli_warn("%s, form %s, window %g%s, every %g%s", cfg->method->name, form, o->win, o->win_s ? " s" : " samples",
		    o->every, o->every_s ? " s" : " samples");
	w->ready = 1;
}

/* --- one update ---------------------------------------------------------------- */

/* The standard deviations of the estimate just made into sd (NULL when
 * there are none yet: fewer than 3 estimates to spread). */
static const tagk_real *
estimate_sd(winrun *w, int m, const tagk_real *theta, tagk_real *sd)
{
	const int n = w->n;
	if (w->linear) {
		tagk_real r;
		if (tagk_est_posterior(&w->est, w->P, &r, w->scratch) != TAGK_OK)
			return NULL;
		tagk_uncert_propagate(&w->unc, m, w->A, w->bb, w->kind, w->P, r, theta);
		tagk_uncert_sd_hac(&w->unc, sd, NULL);
		return sd;
	}
	/* a method without a linear gain (Kaczmarz): the spread of its last
	 * estimates */
	memcpy(w->spread[w->nspread++ % SPREAD], theta, sizeof(*theta) * (size_t)n);
	long k = w->nspread < SPREAD ? w->nspread : SPREAD;
	if (k < 3)
		return NULL;
	for (int j = 0; j < n; j++) {
		double mean = 0, ss = 0;
		for (long i = 0; i < k; i++)
			mean += (double)w->spread[i][j];
		mean /= (double)k;
		for (long i = 0; i < k; i++)
			ss += ((double)w->spread[i][j] - mean) * ((double)w->spread[i][j] - mean);
		sd[j] = (tagk_real)sqrt(ss / (double)(k - 1));
	}
	return sd;
}

/* The window of the last wn samples into A, b and the rows' kinds. */
static int
gather(winrun *w, int wn)
{
	const int n = w->n;
	int m = 0;
	for (int k = wn - 1; k >= 0; k--) {
		sample *s = &w->ring[(w->head + w->cap - 1 - k) % w->cap];
		for (int i = 0; i < s->rows; i++, m++) {
			for (int j = 0; j < n; j++)
				w->A[m * n + j] = (tagk_real)s->Y[i * n + j];
			w->bb[m] = (tagk_real)s->b[i];
			w->kind[m] = i;
		}
	}
	return m;
}

/* --detect: the window tested before its update; on a change the RLS and
 * KF methods re-open from the estimate before it (their covariance back to
 * P0, estimator.h), and so does the uncertainty's error covariance, while
 * its noise levels are kept. They re-open again before each window that
 * still holds samples up to the alarm's and before the first one after
 * them (est_detect_reopen): the window of the alarm mixes samples from
 * before the change, which a method that forgets slowly (rls-low) would
 * otherwise carry for seconds (a second alarm on the drop flight). */
static void
detect_window(winrun *w, int m, const tagk_real *prev, double t, double t_start)
{
	double tc;
	if (est_detect_window(&w->det, w->n, m, w->A, w->bb, w->kind, prev, t, &tc)) {
		w->event[0] = 1;
		w->event[1] = tc;
	}
	if (!est_detect_reopen(&w->det, t_start))
		return;
	tagk_real keep[TAGK_MB_MAX_BODIES * TAGK_NPARAM];
	if (w->n > (int)(sizeof(keep) / sizeof(keep[0])))
		return;
	memcpy(keep, prev, sizeof(*keep) * (size_t)w->n);
	if (tagk_est_reopen(&w->est, keep) != TAGK_OK || !w->linear)
		return;
	tagk_real r;
	if (tagk_est_posterior(&w->est, w->P, &r, w->scratch) == TAGK_OK)
		memcpy(w->unc.E, w->P, sizeof(*w->P) * (size_t)w->n * (size_t)w->n);
}

static void
run_update(winrun *w, int wn, const sample *last)
{
	const int n = w->n;
	int m = gather(w, wn);
	/* Kaczmarz's pace (excitation.h) on the first 64 windows, then on
	 * every 64th: its ratio to T, the iterations per update */
	if (w->pace_check && (w->updates < 64 || w->updates % 64 == 0)) {
		double kappa = tagk_window_pace(w->A, m, n);
		int T = w->cfg.u.kz.iters ? w->cfg.u.kz.iters : m;
		if (kappa > 0)
			w->pace[w->npace++ % PACE_KEPT] = kappa / T;
	}
	const tagk_real *prev = tagk_est_theta(&w->est);
	if (w->o->detect_arl > 0)
		detect_window(w, m, prev, last->t, w->ring[(w->head + w->cap - wn) % w->cap].t);
	/* the first window meets the prior, which predicts nothing */
	if (w->updates > 0)
		tagk_fitcheck_add(&w->fit, m, n, w->A, w->bb, prev);
	if (w->linear)
		tagk_uncert_observe(&w->unc, m, w->A, w->bb, w->kind, prev);
	tagk_real theta[TAGK_NPARAM], sd[TAGK_NPARAM];
	tagk_status st = tagk_est_update(&w->est, w->A, w->bb, m, theta);
	w->t_last_run = last->t;
	w->updates++;
	if (st != TAGK_OK) {
		if (!w->first_refusal)
			w->first_refusal = st;
		w->refused[st]++;
		return;
	}
	estout_row_extra(&w->out, last->t, theta, estimate_sd(w, m, theta, sd), last->truth, w->event);
	w->event[0] = 0;
	w->event[1] = NAN;
}

/* A sample has just completed (ring[head - 1]): run the method if a window
 * is due. */
static void
on_sample(winrun *w)
{
	const window_opts *o = w->o;
	int cap = w->cap;
	sample *last = &w->ring[(w->head + cap - 1) % cap];
	if (!w->rows_per)
		w->rows_per = last->rows;
	/* which samples form the window now */
	int wn = w->fill;
	if (o->win_s) {
		wn = 0;
		while (wn < w->fill && w->ring[(w->head + cap - 1 - wn) % cap].t > last->t - o->win)
			wn++;
		if (wn == cap && w->fill == cap)
			cli_die(EXIT_DATA, "%s: a window of %g s holds more than %d samples; raise --max-window",
			    tbl_name(w->r), o->win, o->max_window);
	}
	int full = o->win_s ? (last->t - w->ring[(w->head + cap - w->fill) % cap].t >= o->win - 1e-12 ||
	    w->fill == cap) : w->fill == cap;
	int due = o->every_s ? last->t - w->t_last_run >= o->every - 1e-12
	    : (w->nsamples - (long)cap) % (long)o->every == 0;
	if (!full || !due || w->nsamples < (o->win_s ? 1 : cap))
		return;
	if (!w->ready)
		start_method(w);
	run_update(w, wn, last);
}

/* --- reading ------------------------------------------------------------------ */

/* Row rowbuf (time t) into the sample being assembled, ring[head]. */
static void
add_row(winrun *w, const double *rowbuf, double t, int cur_rows)
{
	const int n = w->n, cap = w->cap;
	sample *s = &w->ring[w->head];
	if (cur_rows == 0) {
		if (w->nsamples > 0 && !(t > w->ring[(w->head + cap - 1) % cap].t)) {
			char a[32], b[32];
			fmt_double(a, t);
			fmt_double(b, w->ring[(w->head + cap - 1) % cap].t);
			cli_die(EXIT_DATA, "%s: time %s does not increase (previous sample at %s)", tbl_where(w->r), a, b);
		}
		s->t = t;
		for (int j = 0; j < w->ntrue; j++)
			s->truth[j] = rowbuf[w->tidx[j]];
	}
	for (int j = 0; j < n; j++)
		s->Y[cur_rows * n + j] = rowbuf[w->iy[j]];
	s->b[cur_rows] = rowbuf[w->ib];
	if (w->rf) {
		if (cur_rows == 0)
			rowfit_sample(w->rf, t);
		double k = w->irow >= 0 ? rowbuf[w->irow] : cur_rows;
		rowfit_add(w->rf, k >= 0 && k < RF_KINDS ? (int)k : -1, s->Y + cur_rows * n, rowbuf[w->ib]);
	}
	tagk_excitation_add(&w->exc, s->Y + cur_rows * n);
	w->rows_in++;
	if (rowbuf[w->ib] == 0)
		for (int j = 0; j < n; j++)
			if (s->Y[cur_rows * n + j] != 0) {
				w->rows_b0++;
				break;
			}
}

static void
read_samples(winrun *w)
{
	tbl_reader *r = w->r;
	double *rowbuf = malloc((size_t)tbl_ncols(r) * sizeof(double)), t_cur = NAN;
	if (!rowbuf)
		cli_die(EXIT_DATA, "out of memory");
	int cur_rows = 0, rc;
	cmdio_samples sc = { 0 };
	do {
		rc = tbl_next(r, rowbuf);
		if (rc < 0)
			cli_die(EXIT_DATA, "%s", tbl_error(r));
		double t = rc == 1 ? rowbuf[w->it] : (double)NAN;
		/* a sample cut short is refused before it is used */
		if (rc == 1)
			cmdio_sample_row(&sc, r, t, w->irow >= 0 ? rowbuf[w->irow] : (double)NAN);
		else
			cmdio_sample_end(&sc, r, w->irow >= 0);
		if (rc == 1 && cur_rows > 0 && t == t_cur) {
			if (cur_rows == MAX_SAMPLE_ROWS)
				cli_die(EXIT_DATA, "%s: more than %d rows with the same t", tbl_where(r), MAX_SAMPLE_ROWS);
		} else if (cur_rows > 0) {
			/* the sample in ring[head] is complete */
			w->ring[w->head].rows = cur_rows;
			w->head = (w->head + 1) % w->cap;
			if (w->fill < w->cap)
				w->fill++;
			w->nsamples++;
			cur_rows = 0;
			on_sample(w);
		}
		if (rc == 1) {
			estout_scale_row(&w->out, r, rowbuf);
			add_row(w, rowbuf, t, cur_rows);
			t_cur = t;
			cur_rows++;
		}
	} while (rc == 1);
	free(rowbuf);
}

/* --- the end ---------------------------------------------------------------------- */

/* The parameters in unexcited directions, as the stream's note "unexcited
 * NAME,NAME..." (tagk-formats(5)): tagk-report prints them as not
 * determined and judges the others. Written whatever -q says. */
static void
unexcited_note(winrun *w, double eps)
{
	int named[TAGK_NPARAM], combo;
	if (tagk_excitation_unexcited(&w->exc, eps, named, &combo) == 0)
		return;
	char list[TAGK_NPARAM * 8] = "";
	size_t used = 0;
	for (int j = 0; j < w->n; j++)
		if (named[j] && used < sizeof(list))
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", used ? "," : "", tagk_param_names[j]);
	if (list[0])
		sink_note(w->out.out, "unexcited", list);
}

static void
finish(winrun *w)
{
	const window_opts *o = w->o;
	tbl_reader *r = w->r;
	if (w->nsamples == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(r));
	if (w->updates == 0)
		cli_die(EXIT_DATA, "%s: %ld samples, fewer than the window of %g%s: no estimate", tbl_name(r), w->nsamples,
		    o->win, o->win_s ? " s" : "");
	long nref = 0;
	for (int i = 0; i < TAGK_NSTATUS; i++)
		nref += w->refused[i];
	if (nref == w->updates)
		cli_die(EXIT_DATA, "%s: every update (%ld) was refused; the first reason: %s", tbl_name(r), w->updates,
		    tagk_strerror(w->first_refusal));
	if (nref) {
		char note[64];
		snprintf(note, sizeof(note), "%ld of %ld", nref, w->updates);
		sink_note(w->out.out, "refused_updates", note);
	}
	sink_note(w->out.out, "method", w->cfg.method->name);
	/* what the sd is (tagk-estimate(1), UNCERTAINTY): a linear update's
	 * error covariance with the long-run factor, else the estimates' spread */
	sink_note(w->out.out, "sd_noise", w->linear ? "newey-west" : "spread");
	estout_pass_note(&w->out, w->r, "px4_hover_mass");
	estout_pass_note(&w->out, w->r, "system");
	estout_scale_note(&w->out, w->r);
	estout_pass_note(&w->out, w->r, "nominal_mass");
	for (int i = 1; i < TAGK_NSTATUS; i++)
		if (w->refused[i])
			cli_warn("%ld of %ld updates refused (no estimate written): %s", w->refused[i], w->updates,
			    tagk_strerror((tagk_status)i));
	if (tbl_skipped(r))
		cli_warn("skipped %ld bad row%s", tbl_skipped(r), tbl_skipped(r) == 1 ? "" : "s");
	/* the information the data hold against the prior's (excitation.h) */
	double eps = (double)tagk_window_ops_of(w->cfg.method)->prior_information(&w->cfg);
	char what[512];
	int n = w->n, unexcited = o->quiet ? 0 : excitation_report(&w->exc, eps, what, sizeof(what));
	if (!o->quiet && w->ready && strcmp(tagk_est_form(&w->est), "greedy-gram") == 0 && w->rows_b0 * 20 >= w->rows_in)
		cli_warn("%ld of %ld rows (%.0f %%) have b = 0 but a regressor that is not, as a force the log does not "
		    "give (lateral force with --wrench thrust) makes them: greedy selection keeps choosing such rows "
		    "and biases %s; try -a tagk-robust, kf-low or rls-low (-q silences this note)", w->rows_b0,
		    w->rows_in, 100.0 * (double)w->rows_b0 / (double)w->rows_in, w->cfg.method->name);
	if (w->npace > 0) {
		int k = w->npace < PACE_KEPT ? w->npace : PACE_KEPT;
		qsort(w->pace, (size_t)k, sizeof(w->pace[0]), cli_cmp_double);
		double med = w->pace[k / 2];
		if (med > 100)
			cli_caution("%s: its windows are ill-conditioned for its iterations: in the median of %d window%s "
			    "checked, ||A||_F^2 / sigma_min^2 is %s times the iterations per update, so along the "
			    "window's weakest direction an update covers about 1/%s of the distance to the window's "
			    "solution; kf-low or rls-low accumulate the windows, or raise --iters (-q silences this note)",
			    w->cfg.method->name, k, k == 1 ? "" : "s", cli_approx(med), cli_approx(med));
	}
	const char *sys = tbl_note(w->r, "system");
	if (!o->quiet && w->ready)
		noise_notes(&w->est, &w->cfg, &w->fit, sys && strcmp(sys, "arm") == 0);
	if (unexcited == n)
		cli_caution("the data did not excite any parameter: their information is below the prior's in every "
		    "direction (are the units right?), so the estimates stay at the prior (-q silences this note)");
	else if (unexcited > 0)
		cli_warn("the data did not excite %s: the estimate there stays at its %s (-q silences this note)", what,
		    eps > 0 ? "prior" : "initial value");
	unexcited_note(w, eps);
	if (w->rf && w->ready)
		rowfit_judge(w->rf, sys && strcmp(sys, "arm") == 0, o->verbose);
	rowfit_free(w->rf);
	/* after the cautions, which the stream carries (cli_caution) */
	estout_commit(&w->out, o->quiet);
}

/* What open_run and start_method allocated (NULL where never allocated:
 * open_run zeroes the run). */
static void
close_run(winrun *w)
{
	for (int i = 0; w->ring && i < w->cap; i++) {
		free(w->ring[i].Y);
		free(w->ring[i].b);
		free(w->ring[i].truth);
	}
	free(w->ring);
	free(w->tidx);
	free(w->ws);
	free(w->A);
	free(w->bb);
	free(w->kind);
	free(w->P);
	free(w->scratch);
	free(w->uws);
	tbl_close(w->r);
}

int
estimate_window(const window_opts *o, const char *input)
{
	winrun w;
	open_run(&w, o, input);
	read_samples(&w);
	finish(&w);
	close_run(&w);
	return 0;
}
