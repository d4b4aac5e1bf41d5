/*
 * estimate_state.c: tagk-estimate's state-space path; see estimate_state.h.
 *
 * Row k of the state stream (tagk-regress -m state, or tagk-bench
 * massflight) holds the measurement (q, r, v) at t_k and the input (thrust
 * command, gyro) held from t_k to t_k+1. The first row starts the estimator; every later row propagates
 * with the previous row's input over t_k - t_k-1 and updates with its own
 * measurement, then writes t_k and the mass.
 *
 * The sd written is the noise's part of the error read from the estimate's
 * own wander (tagk_wander, hac.h) once enough updates are counted, the
 * filter's own sd before. The filter's covariance is not the error's: it
 * holds the random walk its model lets the mass take (q_mass) and the
 * process noise it assumes, so that on white noise and a constant mass its
 * sd was 5.4 times the error (ekf, 100 of 100 flights held, tagk-bench
 * coverage), and it counts no noise that is correlated in time. A factor
 * on that variance (a Newey-West long-run factor of the innovations, at
 * least 1 on coloured noise) could only widen an interval already too wide;
 * the wander measures the error's size itself, correlation included
 * (200 flights: 97 to 99 % held on white, AR(1) 0.9 and 0.98 noise of the
 * logged state, its sd 1.16 to 1.21 times the error). It is the noise's
 * part while the mass is constant; a step (a payload) is left out, a
 * drift within the wander's lag counts as noise, and a wander that has not
 * levelled off by the largest lag (a real flight's model error) is a lower
 * bound: the filter's own sd is kept if larger.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "cmdio.h"
#include "estout.h"
#include "estimate_state.h"
#include "../formats/numconv.h"

/* The state stream of tagk-regress -m state, in SI units. */
static const char *const cols[] = { "t", "thrust", "gx", "gy", "gz", "qw", "qx", "qy", "qz", "px", "py", "pz",
	"vx", "vy", "vz" };
enum { NCOLS = sizeof(cols) / sizeof(cols[0]), C_T = 0, C_THRUST = 1, C_GYRO = 2, C_QUAT = 5, C_POS = 9,
	C_VEL = 12 };

/* One run: the input's columns, the filter and the counts. */
typedef struct {
	const state_opts *o;
	tbl_reader *r;
	int idx[NCOLS], ntrue, ispan, started;
	int *tidx;
	double *row, *truth, span, t_prev, busy;
	const char **names;
	estout out;
	tagk_mass_config cfg;
	tagk_mass_est est;
	tagk_real *ws;
	tagk_uav_input u_prev;
	long nrows, nest, skipped;
	tagk_wander wander; /* the estimate's wander: its sd (above) */
	int wander_sd;      /* the last sd written came from it */
} staterun;

static void
open_run(staterun *w, const state_opts *o, const char *path)
{
	*w = (staterun){ .o = o, .span = NAN };
	tbl_reader *r = w->r = cmdio_open_input(path, &o->in);
	if (o->verbose)
		cli_warn("%s: %s", tbl_name(r), tbl_format_label(tbl_format_of(r)));
	for (int j = 0; j < NCOLS; j++) {
		w->idx[j] = tbl_find(r, cols[j]);
		if (w->idx[j] < 0)
			cli_die(EXIT_DATA, "%s: no column '%s': %s reads the state stream (t, thrust, gx..gz, qw..qz, "
			    "px..pz, vx..vz in SI units) that tagk-regress -m state makes from a log", tbl_name(r),
			    cols[j], o->mt->name);
		tbl_want(r, w->idx[j]);
	}
	int ncols = tbl_ncols(r);
	w->tidx = malloc((size_t)ncols * sizeof(int));
	w->row = malloc((size_t)ncols * sizeof(double));
	w->names = malloc((size_t)(ncols + 1) * sizeof(*w->names));
	w->truth = malloc((size_t)(ncols + 1) * sizeof(double));
	if (!w->tidx || !w->row || !w->names || !w->truth)
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 0; i < ncols; i++)
		if (strncmp(tbl_col(r, i), "true_", 5) == 0) {
			w->tidx[w->ntrue] = i;
			w->names[w->ntrue++] = tbl_col(r, i);
			tbl_want(r, i);
		}
	/* tagk-regress --airborne numbers the flying spans: the model is not
	 * propagated across the ground time between two */
	w->ispan = tbl_find(r, "span");
	if (w->ispan >= 0)
		tbl_want(r, w->ispan);
	estout_scale_from(r);
	estout_open(&w->out, o->outname, 1, 1, w->ntrue, w->names);
}

/* A row that cannot be used: skipped with --skip-bad (returns 0), else
 * the error, msg, naming the row. */
static int
bad_row(staterun *w, const char *msg)
{
	if (w->o->in.skip_bad) {
		w->skipped++;
		return 0;
	}
	cli_die(EXIT_DATA, "%s: %s", tbl_where(w->r), msg);
}

/* The filter's settings from the options and the first sample; starts it. */
static void
start(staterun *w, const tagk_uav_input *u, const tagk_uav_meas *y)
{
	const state_opts *o = w->o;
	tagk_mass_config *cfg = &w->cfg;
	double m0 = o->m0;
	if (!(m0 > 0)) {
		m0 = (double)u->thrust / (double)TAGK_UAV_G;
		if (!(m0 > 0))
			cli_die(EXIT_DATA, "%s: the first thrust (%g N) gives no hover guess of the mass; give --m0",
			    tbl_where(w->r), (double)u->thrust);
	}
	tagk_mass_defaults(cfg, o->mt, (tagk_real)m0);
	if (o->mass_sd > 0)
		cfg->sd_m0 = (tagk_real)o->mass_sd;
	if (o->proc_set) {
		cfg->q_att = (tagk_real)o->proc[0];
		cfg->q_pos = (tagk_real)o->proc[1];
		cfg->q_vel = (tagk_real)o->proc[2];
		cfg->q_mass = (tagk_real)o->proc[3];
	}
	if (o->meas_set) {
		cfg->r_att = (tagk_real)o->meas[0];
		cfg->r_pos = (tagk_real)o->meas[1];
		cfg->r_vel = (tagk_real)o->meas[2];
	}
	if (o->window)
		cfg->window = o->window;
	if (o->iters)
		cfg->iters = o->iters;
	if (o->gauss_newton)
		cfg->lm = 0;
	size_t len = tagk_mass_workspace_len(cfg);
	if (len == 0)
		cli_die(EXIT_USAGE, "%s: the settings are out of range (m0 %g kg)", o->mt->name, m0);
	if (!(w->ws = malloc(len * sizeof(*w->ws))))
		cli_die(EXIT_DATA, "out of memory");
	tagk_status st = tagk_mass_init(&w->est, cfg, w->ws, len);
	if (st == TAGK_OK)
		st = tagk_mass_start(&w->est, y);
	if (st != TAGK_OK)
		cli_die(EXIT_DATA, "%s: %s: %s", tbl_where(w->r), o->mt->name, tagk_strerror(st));
	if (o->verbose) {
		char extra[96] = "";
		if (tagk_method_accepts(o->mt, "iters"))
			snprintf(extra, sizeof(extra), "; %d states, %d %s iterations", cfg->window, cfg->iters,
			    cfg->lm ? "Levenberg-Marquardt" : "Gauss-Newton");
		else if (tagk_method_accepts(o->mt, "window"))
			snprintf(extra, sizeof(extra), "; %d clones", cfg->window);
		cli_warn("%s: m0 %g kg (%s), sd %g kg; process sd att %g pos %g vel %g mass %g; "
		    "measurement sd att %g pos %g vel %g%s", o->mt->name, m0,
		    o->m0 > 0 ? "--m0" : "hover guess from the first thrust", (double)cfg->sd_m0,
		    (double)cfg->q_att, (double)cfg->q_pos, (double)cfg->q_vel, (double)cfg->q_mass,
		    (double)cfg->r_att, (double)cfg->r_pos, (double)cfg->r_vel, extra);
	}
	w->started = 1;
	if (w->ispan >= 0)
		w->span = w->row[w->ispan];
}

/* Propagate with the previous input over dt, update with y, and write the
 * estimate every --every updates. 0 if the row was skipped. */
static int
step(staterun *w, double t, const tagk_uav_meas *y)
{
	const state_opts *o = w->o;
	char a[32], b[32], msg[160];
	double dt = t - w->t_prev;
	fmt_double(a, t);
	fmt_double(b, w->t_prev);
	if (!(dt > 0)) {
		snprintf(msg, sizeof(msg), "time %s does not increase (previous sample at %s)", a, b);
		return bad_row(w, msg);
	}
	if (dt > o->max_gap)
		cli_die(EXIT_DATA, "%s: a gap of %g s after t = %s; the model is propagated in single steps, so split "
		    "the log there or raise --max-gap (now %g s)", tbl_where(w->r), dt, b, o->max_gap);
	tagk_real m;
	double t0 = cli_seconds();
	tagk_status st = tagk_mass_update(&w->est, &w->u_prev, (tagk_real)dt, y, &m);
	w->busy += cli_seconds() - t0;
	if (st == TAGK_EDIVERGED)
		cli_die(EXIT_DATA, "%s: %s diverged at t = %s: the mass left (%g, %g) kg or the covariance stopped "
		    "being positive definite; no estimates written (check the thrust units and --m0)", tbl_name(w->r),
		    o->mt->name, a, (double)(w->cfg.m0 / w->cfg.m_ratio), (double)(w->cfg.m0 * w->cfg.m_ratio));
	if (st != TAGK_OK) {
		snprintf(msg, sizeof(msg), "%s (--skip-bad skips such rows)", tagk_strerror(st));
		return bad_row(w, msg);
	}
	w->nest++;
	tagk_real sd = tagk_mass_sd(&w->est);
	tagk_wander_add(&w->wander, (double)m, (double)sd);
	if (w->nest % o->every == 0) {
		for (int j = 0; j < w->ntrue; j++)
			w->truth[j] = w->row[w->tidx[j]];
		/* swls keeps no covariance: no sd */
		if (tagk_isfinite(sd))
			sd = (tagk_real)tagk_wander_sd(&w->wander, (double)sd, NULL, &w->wander_sd);
		estout_row(&w->out, t, &m, tagk_isfinite(sd) ? &sd : NULL, w->truth);
	}
	return 1;
}

/* The row just read: its input and measurement, then start, restart at a
 * new span, or step. */
static void
on_row(staterun *w)
{
	const state_opts *o = w->o;
	const double *row = w->row;
	const int *idx = w->idx;
	w->nrows++;
	double t = row[idx[C_T]];
	tagk_uav_input u;
	tagk_uav_meas y;
	u.thrust = (tagk_real)row[idx[C_THRUST]];
	for (int i = 0; i < 3; i++) {
		u.w[i] = (tagk_real)row[idx[C_GYRO + i]];
		y.r[i] = (tagk_real)row[idx[C_POS + i]];
		y.v[i] = (tagk_real)row[idx[C_VEL + i]];
	}
	for (int i = 0; i < 4; i++)
		y.q[i] = (tagk_real)row[idx[C_QUAT + i]];
	if (!tagk_uav_meas_ok(&y)) {
		bad_row(w, "the attitude quaternion is not of unit length (within 1e-3); --skip-bad skips such rows");
		return;
	}
	if (w->started && w->ispan >= 0 && row[w->ispan] != w->span) {
		/* a new span: the state restarts at its first sample, the mass
		 * carries over (its uncertainty restarts at --mass-sd) */
		w->span = row[w->ispan];
		w->est.cfg.m0 = tagk_mass_value(&w->est);
		tagk_status st = tagk_mass_start(&w->est, &y);
		if (st != TAGK_OK)
			cli_die(EXIT_DATA, "%s: %s: %s", tbl_where(w->r), o->mt->name, tagk_strerror(st));
	} else if (w->started) {
		if (!step(w, t, &y))
			return;
	} else {
		start(w, &u, &y);
	}
	w->u_prev = u;
	w->t_prev = t;
}

static void
finish(staterun *w)
{
	const state_opts *o = w->o;
	tbl_reader *r = w->r;
	if (w->nrows == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(r));
	if (w->nest == 0)
		cli_die(EXIT_DATA, "%s: %ld usable samples: the %s methods need two or more", tbl_name(r),
		    w->nrows - w->skipped, o->mt->name);
	if (w->nest < o->every)
		cli_die(EXIT_DATA, "%s: %ld estimates, fewer than --every %ld: nothing to write", tbl_name(r), w->nest,
		    o->every);
	sink_note(w->out.out, "method", o->mt->name);
	/* the wander's (above), or the filter's own variance from its
	 * white-noise model (a short run; swls writes none) */
	sink_note(w->out.out, "sd_noise", w->wander_sd ? "newey-west" : "white");
	estout_pass_note(&w->out, r, "px4_hover_mass");
	estout_scale_note(&w->out, r);
	estout_pass_note(&w->out, r, "nominal_mass");
	estout_commit(&w->out, 0); /* the mass alone: nothing is projected */
	if (o->verbose)
		cli_warn("%s: %ld updates, mean %.2f us each", o->mt->name, w->nest, 1e6 * w->busy / (double)w->nest);
	long sk = w->skipped + tbl_skipped(r);
	if (sk)
		cli_warn("skipped %ld bad row%s of %s", sk, sk == 1 ? "" : "s", tbl_name(r));
	tbl_close(r);
	free(w->ws);
	free(w->tidx);
	free(w->row);
	free(w->names);
	free(w->truth);
}

int
estimate_state(const state_opts *o, const char *path)
{
	staterun w;
	open_run(&w, o, path);
	for (;;) {
		int rc = tbl_next(w.r, w.row);
		if (rc < 0)
			cli_die(EXIT_DATA, "%s", tbl_error(w.r));
		if (rc == 0)
			break;
		estout_scale_row(&w.out, w.r, w.row);
		on_row(&w);
	}
	finish(&w);
	return 0;
}
