/* estimate_window.c: tagk-estimate's window methods; see estimate_window.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdio.h"
#include "estimate_window.h"
#include "excitation.h"

enum { MAX_SAMPLE_ROWS = 64 };

typedef struct {
	double t;
	int rows;
	double *Y;      /* MAX_SAMPLE_ROWS x n */
	double *b;      /* MAX_SAMPLE_ROWS */
	double *truth;  /* ntrue */
} sample;

/* Notes when the data are mostly noise for the method (-q silences them):
 * the windows' median relative prediction error (fitcheck.h), and for a
 * method with a noise model the ratio of its innovations to what its noise
 * settings assume (estimator.h, noise_ratio). */
static void
noise_notes(const tagk_estimator *est, const tagk_config *cfg, const tagk_fitcheck *fit)
{
	const char *name = cfg->method->name;
	double med = (double)tagk_fitcheck_median(fit);
	/* 50 % RMS: clean simulated data give under 3 % (up to 45 % with rls-low
	 * lagging after payload events), the real Crazyflie
	 * logs 3 to 6 % with kf-low and rls-low, 20 to 50 % with tagk */
	if (med > 0.25)
		cli_warn("%s: before each update, its estimate missed the window's rows by %.0f %% (RMS over the rows' size, "
		    "median of the windows): the rows carry that much noise or model error (commanded thrust is not "
		    "thrust), and the estimates follow it; use a longer --window, a batch method (--batch -a wls), "
		    "or a filter that averages longer (-q silences this note)", name, 100 * sqrt(med));
	double ratio = (double)tagk_est_noise_ratio(est);
	/* residuals over 3 times the noise assumed (simulated logs with their
	 * noise level give 0.2; the real Crazyflie logs 1.4 to 126) */
	if (strcmp(cfg->method->family, "KF") == 0 && ratio > 10)
		cli_warn("%s: its normalised innovations averaged %.3g: the residuals are about %.0f times the noise "
		    "its r (%g) assumes, so it weighs each window more than the data deserve and its estimates "
		    "follow the noise more than they should; --r %.2g fits these data (-q silences this note)", name,
		    ratio, sqrt(ratio), (double)cfg->u.kf.r, (double)cfg->u.kf.r * ratio);
}

int
estimate_window(const window_opts *o, const char *input)
{
	tbl_reader *r = cmdio_open_input(input, &o->in);
	if (o->verbose)
		cli_warn("%s: %s", tbl_name(r), tbl_format_label(tbl_format_of(r)));
	int it, ib, irow, iy[TAGK_NPARAM];
	int n = cmdio_regressor_cols(r, 0, &it, &ib, &irow, iy);
	tbl_want(r, it);
	tbl_want(r, ib);
	if (irow >= 0)
		tbl_want(r, irow);
	for (int j = 0; j < n; j++)
		tbl_want(r, iy[j]);
	int ntrue = 0, *tidx = malloc((size_t)tbl_ncols(r) * sizeof(int));
	for (int i = 0; i < tbl_ncols(r); i++)
		if (strncmp(tbl_col(r, i), "true_", 5) == 0) {
			tidx[ntrue++] = i;
			tbl_want(r, i);
		}

	/* Window storage: a ring of samples. */
	int cap = o->win_s ? o->max_window : (int)o->win;
	sample *ring = calloc((size_t)cap, sizeof(*ring));
	double *rowbuf = malloc((size_t)tbl_ncols(r) * sizeof(double));
	if (!ring || !rowbuf || !tidx)
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 0; i < cap; i++) {
		ring[i].Y = malloc((size_t)MAX_SAMPLE_ROWS * (size_t)n * sizeof(double));
		ring[i].b = malloc(MAX_SAMPLE_ROWS * sizeof(double));
		ring[i].truth = malloc((size_t)(ntrue ? ntrue : 1) * sizeof(double));
		if (!ring[i].Y || !ring[i].b || !ring[i].truth)
			cli_die(EXIT_DATA, "out of memory for a window of %d samples", cap);
	}

	tagk_config cfg = o->cfg;
	cfg.n = n;
	if (tagk_method_accepts(cfg.method, "length") && cfg.u.kzr.length > 0 && n % TAGK_NPARAM != 0)
		cli_die(EXIT_USAGE, "--length scales rigid bodies (%d parameters each); %s has %d parameter%s",
		    TAGK_NPARAM, tbl_name(r), n, n == 1 ? "" : "s");
	tagk_real theta0[TAGK_NPARAM];
	if (o->theta0) {
		if (o->ntheta0 != n)
			cli_die(EXIT_USAGE, "--theta0: %d value%s given; %s has %d parameter%s", o->ntheta0,
			    o->ntheta0 == 1 ? "" : "s", tbl_name(r), n, n == 1 ? "" : "s");
		for (int j = 0; j < n; j++)
			theta0[j] = (tagk_real)o->theta0[j];
		cfg.theta0 = theta0;
	}
	tagk_estimator est;
	tagk_real *ws = NULL, *A = NULL, *bb = NULL, theta[TAGK_NPARAM];
	int ready = 0;

	const char *names[3 + TAGK_NPARAM + 64];
	const char **onames = ntrue + 1 + n <= (int)(sizeof(names) / sizeof(names[0])) ? names
	    : malloc((size_t)(1 + n + ntrue) * sizeof(*onames));
	onames[0] = "t";
	for (int j = 0; j < n; j++)
		onames[1 + j] = tagk_param_names[j];
	for (int j = 0; j < ntrue; j++)
		onames[1 + n + j] = tbl_col(r, tidx[j]);
	double *orow = malloc((size_t)(1 + n + ntrue) * sizeof(double));
	sink *out = cmdio_open_output(o->outname, TBL_AUTO);
	cmdio_header(out, 1 + n + ntrue, onames);

	excitation exc;
	excitation_init(&exc, n);
	/* how well each window is predicted before its update (fitcheck.h) */
	tagk_fitcheck fit;
	tagk_fitcheck_init(&fit);
	/* rows with b = 0 and a regressor that is not: a force the log does not
	 * give (lateral force under --wrench thrust), which greedy selection
	 * keeps choosing (README, "Real Crazyflie logs") */
	long rows_in = 0, rows_b0 = 0;
	enum { PACE_KEPT = 256 };
	double pace[PACE_KEPT];
	int npace = 0, pace_check = 0;
	long nsamples = 0, updates = 0, refused[TAGK_NSTATUS] = { 0 };
	tagk_status first_refusal = TAGK_OK;
	int head = 0, fill = 0, rows_per = 0;
	double t_last_run = -INFINITY;
	sample cur = { .t = NAN };
	int cur_rows = 0;
	int rc;
	int pending = 0; /* a complete sample waits in ring[head - 1] */
	cmdio_samples sc = { 0 };
	for (;;) {
		rc = tbl_next(r, rowbuf);
		if (rc < 0)
			cli_die(EXIT_DATA, "%s", tbl_error(r));
		double t = rc == 1 ? rowbuf[it] : (double)NAN;
		/* a sample cut short is refused before it is used */
		if (rc == 1)
			cmdio_sample_row(&sc, r, t, irow >= 0 ? rowbuf[irow] : (double)NAN);
		else
			cmdio_sample_end(&sc, r, irow >= 0);
		if (rc == 1 && cur_rows > 0 && t == cur.t) {
			if (cur_rows == MAX_SAMPLE_ROWS)
				cli_die(EXIT_DATA, "%s: more than %d rows with the same t", tbl_where(r),
				    MAX_SAMPLE_ROWS);
		} else if (cur_rows > 0) {
			/* sample complete: it is ring[head] */
			sample *s = &ring[head];
			s->rows = cur_rows;
			head = (head + 1) % cap;
			if (fill < cap)
				fill++;
			nsamples++;
			pending = 1;
			cur_rows = 0;
		}
		if (pending) {
			pending = 0;
			sample *last = &ring[(head + cap - 1) % cap];
			if (!rows_per)
				rows_per = last->rows;
			/* which samples form the window now */
			int wn = fill;
			if (o->win_s) {
				wn = 0;
				while (wn < fill && ring[(head + cap - 1 - wn) % cap].t > last->t - o->win)
					wn++;
				if (wn == cap && fill == cap)
					cli_die(EXIT_DATA, "%s: a window of %g s holds more than %d samples; raise "
					    "--max-window", tbl_name(r), o->win, o->max_window);
			}
			int full = o->win_s ? (last->t - ring[(head + cap - fill) % cap].t >= o->win - 1e-12 || fill == cap)
			    : fill == cap;
			int due = o->every_s ? last->t - t_last_run >= o->every - 1e-12
			    : (nsamples - (long)cap) % (long)o->every == 0;
			if (full && due && nsamples >= (o->win_s ? 1 : cap)) {
				if (!ready) {
					/* every sample of a stream with a row column has
					 * rows_per rows (checked above); size the window, and
					 * the Kaczmarz Gram cache (m_max^2), from that rather
					 * than from the largest sample allowed */
					cfg.m_max = cap * (irow >= 0 ? rows_per : MAX_SAMPLE_ROWS);
					size_t len = tagk_est_workspace_len(&cfg);
					ws = malloc(len * sizeof(*ws));
					A = malloc((size_t)cfg.m_max * (size_t)n * sizeof(*A));
					bb = malloc((size_t)cfg.m_max * sizeof(*bb));
					if (!ws || !A || !bb)
						cli_die(EXIT_DATA, "out of memory for a window of up to %d rows (%.0f MB of "
						    "workspace); use a smaller --window%s", cfg.m_max,
						    (double)len * (double)sizeof(*ws) / 1e6, o->win_s ? " or --max-window" : "");
					tagk_status st = tagk_est_init(&est, &cfg, ws, len);
					if (st == TAGK_ENOTPD)
						cli_die(EXIT_USAGE, "%s needs a physically consistent starting estimate "
						    "(every body's pseudo-inertia positive definite): give one with --theta0 "
						    "m,mcx,mcy,mcz,Ixx,Ixy,Iyy,Ixz,Iyz,Izz", cfg.method->name);
					if (st != TAGK_OK)
						cli_die(EXIT_USAGE, "%s: %s", cfg.method->name, tagk_strerror(st));
					/* tagk-robust unscaled on rigid bodies: the parameters' units
					 * decide its steps (kz_robust.c), which it cannot fix alone */
					if (!o->quiet && tagk_method_accepts(cfg.method, "length") && cfg.u.kzr.length < 0 &&
					    n % TAGK_NPARAM == 0 && strcmp(tagk_est_form(&est), "greedy-screened") == 0)
						cli_warn("%s runs unscaled: give the body's size (--length, in metres; 0.03 for a "
						    "Crazyflie) or a physical --theta0 to scale its parameters", cfg.method->name);
					/* scaled tagk-robust keeps the directions its windows hardly
					 * excite near its start by design (kz_robust.c): without
					 * --theta0 that start is 0 */
					if (!o->quiet && strcmp(tagk_est_form(&est), "greedy-screened-scaled") == 0 && !o->theta0)
						cli_warn("%s starts from 0 without --theta0, and in scaled parameters the directions "
						    "its windows hardly excite (the inertia, on most flights) stay near their start: "
						    "give the body's nominal parameters with --theta0", cfg.method->name);
					/* ... so the pace note below is not for it */
					pace_check = !o->quiet && strcmp(cfg.method->family, "Kaczmarz") == 0 &&
					    strcmp(tagk_est_form(&est), "greedy-screened-scaled") != 0;
					if (o->verbose)
						cli_warn("%s, form %s, window %g%s, every %g%s", cfg.method->name, tagk_est_form(&est),
						    o->win, o->win_s ? " s" : " samples", o->every, o->every_s ? " s" : " samples");
					ready = 1;
				}
				int m = 0;
				for (int k = wn - 1; k >= 0; k--) {
					sample *s = &ring[(head + cap - 1 - k) % cap];
					for (int i = 0; i < s->rows; i++, m++) {
						for (int j = 0; j < n; j++)
							A[m * n + j] = (tagk_real)s->Y[i * n + j];
						bb[m] = (tagk_real)s->b[i];
					}
				}
				/* Kaczmarz's pace (excitation.h) on the first 64 windows, then
				 * on every 64th: its ratio to T, the iterations per update */
				if (pace_check && (updates < 64 || updates % 64 == 0)) {
					double kappa = window_pace(A, m, n);
					int T = cfg.u.kz.iters ? cfg.u.kz.iters : m;
					if (kappa > 0)
						pace[npace++ % PACE_KEPT] = kappa / T;
				}
				/* the first window meets the prior, which predicts nothing */
				if (updates > 0)
					tagk_fitcheck_add(&fit, m, n, A, bb, tagk_est_theta(&est));
				tagk_status st = tagk_est_update(&est, A, bb, m, theta);
				t_last_run = last->t;
				updates++;
				if (st != TAGK_OK) {
					if (!first_refusal)
						first_refusal = st;
					refused[st]++;
				} else {
					orow[0] = last->t;
					for (int j = 0; j < n; j++)
						orow[1 + j] = (double)theta[j];
					for (int j = 0; j < ntrue; j++)
						orow[1 + n + j] = last->truth[j];
					cmdio_row(out, orow);
				}
			}
		}
		if (rc == 0)
			break;
		/* add this row to the sample being assembled in ring[head] */
		sample *s = &ring[head];
		if (cur_rows == 0) {
			if (nsamples > 0 && !(t > ring[(head + cap - 1) % cap].t)) {
				char a[32], b[32];
				fmt_double(a, t);
				fmt_double(b, ring[(head + cap - 1) % cap].t);
				cli_die(EXIT_DATA, "%s: time %s does not increase (previous sample at %s)",
				    tbl_where(r), a, b);
			}
			cur.t = t;
			s->t = t;
			for (int j = 0; j < ntrue; j++)
				s->truth[j] = rowbuf[tidx[j]];
		}
		for (int j = 0; j < n; j++)
			s->Y[cur_rows * n + j] = rowbuf[iy[j]];
		s->b[cur_rows] = rowbuf[ib];
		excitation_add(&exc, s->Y + cur_rows * n);
		rows_in++;
		if (rowbuf[ib] == 0)
			for (int j = 0; j < n; j++)
				if (s->Y[cur_rows * n + j] != 0) {
					rows_b0++;
					break;
				}
		cur_rows++;
	}
	if (nsamples == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(r));
	if (updates == 0)
		cli_die(EXIT_DATA, "%s: %ld samples, fewer than the window of %g%s: no estimate", tbl_name(r),
		    nsamples, o->win, o->win_s ? " s" : "");
	long nref = 0;
	for (int i = 0; i < TAGK_NSTATUS; i++)
		nref += refused[i];
	if (nref == updates)
		cli_die(EXIT_DATA, "%s: every update (%ld) was refused; the first reason: %s", tbl_name(r),
		    updates, tagk_strerror(first_refusal));
	if (nref) {
		char note[64];
		snprintf(note, sizeof(note), "%ld of %ld", nref, updates);
		sink_note(out, "refused_updates", note);
	}
	cmdio_commit(out);
	for (int i = 1; i < TAGK_NSTATUS; i++)
		if (refused[i])
			cli_warn("%ld of %ld updates refused (no estimate written): %s", refused[i], updates,
			    tagk_strerror((tagk_status)i));
	if (tbl_skipped(r))
		cli_warn("skipped %ld bad row%s", tbl_skipped(r), tbl_skipped(r) == 1 ? "" : "s");
	/* the information the data hold against the prior's (excitation.h) */
	double eps = (double)tagk_window_ops_of(cfg.method)->prior_information(&cfg);
	char what[512];
	int unexcited = o->quiet ? 0 : excitation_report(&exc, eps, what, sizeof(what));
	if (!o->quiet && ready && strcmp(tagk_est_form(&est), "greedy-gram") == 0 && rows_b0 * 20 >= rows_in)
		cli_warn("%ld of %ld rows (%.0f %%) have b = 0 but a regressor that is not, as a force the log "
		    "does not give (lateral force with --wrench thrust) makes them: greedy selection keeps "
		    "choosing such rows and biases %s; try -a tagk-robust, kf-low or rls-low (-q silences this note)",
		    rows_b0, rows_in, 100.0 * (double)rows_b0 / (double)rows_in, cfg.method->name);
	if (npace > 0) {
		int k = npace < PACE_KEPT ? npace : PACE_KEPT;
		qsort(pace, (size_t)k, sizeof(pace[0]), cli_cmp_double);
		double med = pace[k / 2];
		if (med > 100)
			cli_warn("%s: its windows are ill-conditioned for its iterations: in the median of %d "
			    "window%s checked, ||A||_F^2 / sigma_min^2 is %.0f times the iterations per update, so "
			    "along the window's weakest direction an update covers about 1/%.0f of the distance "
			    "to the window's solution; kf-low or rls-low accumulate the windows, or raise --iters "
			    "(-q silences this note)", cfg.method->name, k, k == 1 ? "" : "s", med, med);
	}
	if (!o->quiet && ready)
		noise_notes(&est, &cfg, &fit);
	if (unexcited == n)
		cli_warn("the data did not excite any parameter: their information is below the prior's "
		    "in every direction (are the units right?), so the estimates stay at the prior "
		    "(-q silences this note)");
	else if (unexcited > 0)
		cli_warn("the data did not excite %s: the estimate there stays at its %s (-q silences "
		    "this note)", what, eps > 0 ? "prior" : "initial value");
	tbl_close(r);
	return 0;
}
