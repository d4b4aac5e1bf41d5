/*
 * estimate_state.c: tagk-estimate's state-space path; see estimate_state.h.
 *
 * Row k of the state stream (tagk-regress -m state, or tagk-bench
 * massflight) holds the measurement (q, r, v) at t_k and the input (thrust
 * command, gyro) held from t_k to t_k+1. The first row starts the estimator; every later row propagates
 * with the previous row's input over t_k - t_k-1 and updates with its own
 * measurement, then writes t_k and the mass.
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

int
estimate_state(const state_opts *o, const char *path)
{
	tbl_reader *r = cmdio_open_input(path, &o->in);
	if (o->verbose)
		cli_warn("%s: %s", tbl_name(r), tbl_format_label(tbl_format_of(r)));
	int idx[NCOLS];
	for (int j = 0; j < NCOLS; j++) {
		idx[j] = tbl_find(r, cols[j]);
		if (idx[j] < 0)
			cli_die(EXIT_DATA, "%s: no column '%s': %s reads the state stream (t, thrust, gx..gz, qw..qz, "
			    "px..pz, vx..vz in SI units) that tagk-regress -m state makes from a log", tbl_name(r),
			    cols[j], o->mt->name);
		tbl_want(r, idx[j]);
	}
	int ncols = tbl_ncols(r), ntrue = 0;
	int *tidx = malloc((size_t)ncols * sizeof(int));
	double *row = malloc((size_t)ncols * sizeof(double));
	const char **names = malloc((size_t)(ncols + 1) * sizeof(*names));
	double *truth = malloc((size_t)(ncols + 1) * sizeof(double));
	if (!tidx || !row || !names || !truth)
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 0; i < ncols; i++)
		if (strncmp(tbl_col(r, i), "true_", 5) == 0) {
			tidx[ntrue] = i;
			names[ntrue++] = tbl_col(r, i);
			tbl_want(r, i);
		}
	/* tagk-regress --airborne numbers the flying spans: the model is not
	 * propagated across the ground time between two */
	int ispan = tbl_find(r, "span");
	if (ispan >= 0)
		tbl_want(r, ispan);
	double span = NAN;
	estout out;
	estout_open(&out, o->outname, 1, 1, ntrue, names);

	tagk_mass_config cfg;
	tagk_mass_est est;
	tagk_real *ws = NULL;
	tagk_uav_input u_prev = { 0, { 0, 0, 0 } };
	double t_prev = 0, busy = 0;
	long nrows = 0, nest = 0, skipped = 0;
	int started = 0;
	for (;;) {
		int rc = tbl_next(r, row);
		if (rc < 0)
			cli_die(EXIT_DATA, "%s", tbl_error(r));
		if (rc == 0)
			break;
		nrows++;
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
			if (o->in.skip_bad) {
				skipped++;
				continue;
			}
			cli_die(EXIT_DATA, "%s: the attitude quaternion is not of unit length (within 1e-3); "
			    "--skip-bad skips such rows", tbl_where(r));
		}
		if (started && ispan >= 0 && row[ispan] != span) {
			/* a new span: the state restarts at its first sample, the mass
			 * carries over (its uncertainty restarts at --mass-sd) */
			span = row[ispan];
			est.cfg.m0 = tagk_mass_value(&est);
			tagk_status st = tagk_mass_start(&est, &y);
			if (st != TAGK_OK)
				cli_die(EXIT_DATA, "%s: %s: %s", tbl_where(r), o->mt->name, tagk_strerror(st));
		} else if (started) {
			double dt = t - t_prev;
			if (!(dt > 0)) {
				if (o->in.skip_bad) {
					skipped++;
					continue;
				}
				char a[32], b[32];
				fmt_double(a, t);
				fmt_double(b, t_prev);
				cli_die(EXIT_DATA, "%s: time %s does not increase (previous sample at %s)", tbl_where(r),
				    a, b);
			}
			if (dt > o->max_gap) {
				char a[32];
				fmt_double(a, t_prev);
				cli_die(EXIT_DATA, "%s: a gap of %g s after t = %s; the model is propagated in single "
				    "steps, so split the log there or raise --max-gap (now %g s)", tbl_where(r), dt, a,
				    o->max_gap);
			}
			tagk_real m;
			double t0 = cli_seconds();
			tagk_status st = tagk_mass_update(&est, &u_prev, (tagk_real)dt, &y, &m);
			busy += cli_seconds() - t0;
			if (st == TAGK_EDIVERGED) {
				char a[32];
				fmt_double(a, t);
				cli_die(EXIT_DATA, "%s: %s diverged at t = %s: the mass left (%g, %g) kg or the covariance "
				    "stopped being positive definite; no estimates written (check the thrust units and "
				    "--m0)", tbl_name(r), o->mt->name, a, (double)(cfg.m0 / cfg.m_ratio),
				    (double)(cfg.m0 * cfg.m_ratio));
			}
			if (st != TAGK_OK) {
				if (o->in.skip_bad) {
					skipped++;
					continue;
				}
				cli_die(EXIT_DATA, "%s: %s (--skip-bad skips such rows)", tbl_where(r), tagk_strerror(st));
			}
			nest++;
			if (nest % o->every == 0) {
				for (int j = 0; j < ntrue; j++)
					truth[j] = row[tidx[j]];
				tagk_real sd = tagk_mass_sd(&est);
				estout_row(&out, t, &m, tagk_isfinite(sd) ? &sd : NULL, truth);
			}
		} else {
			double m0 = o->m0;
			if (!(m0 > 0)) {
				m0 = (double)u.thrust / (double)TAGK_UAV_G;
				if (!(m0 > 0))
					cli_die(EXIT_DATA, "%s: the first thrust (%g N) gives no hover guess of the mass; "
					    "give --m0", tbl_where(r), (double)u.thrust);
			}
			tagk_mass_defaults(&cfg, o->mt, (tagk_real)m0);
			if (o->mass_sd > 0)
				cfg.sd_m0 = (tagk_real)o->mass_sd;
			if (o->proc_set) {
				cfg.q_att = (tagk_real)o->proc[0];
				cfg.q_pos = (tagk_real)o->proc[1];
				cfg.q_vel = (tagk_real)o->proc[2];
				cfg.q_mass = (tagk_real)o->proc[3];
			}
			if (o->meas_set) {
				cfg.r_att = (tagk_real)o->meas[0];
				cfg.r_pos = (tagk_real)o->meas[1];
				cfg.r_vel = (tagk_real)o->meas[2];
			}
			if (o->window)
				cfg.window = o->window;
			if (o->iters)
				cfg.iters = o->iters;
			if (o->gauss_newton)
				cfg.lm = 0;
			size_t len = tagk_mass_workspace_len(&cfg);
			if (len == 0)
				cli_die(EXIT_USAGE, "%s: the settings are out of range (m0 %g kg)", o->mt->name, m0);
			ws = malloc(len * sizeof(*ws));
			if (!ws)
				cli_die(EXIT_DATA, "out of memory");
			tagk_status st = tagk_mass_init(&est, &cfg, ws, len);
			if (st == TAGK_OK)
				st = tagk_mass_start(&est, &y);
			if (st != TAGK_OK)
				cli_die(EXIT_DATA, "%s: %s: %s", tbl_where(r), o->mt->name, tagk_strerror(st));
			if (o->verbose) {
				char extra[96] = "";
				if (tagk_method_accepts(o->mt, "iters"))
					snprintf(extra, sizeof(extra), "; %d states, %d %s iterations", cfg.window, cfg.iters,
					    cfg.lm ? "Levenberg-Marquardt" : "Gauss-Newton");
				else if (tagk_method_accepts(o->mt, "window"))
					snprintf(extra, sizeof(extra), "; %d clones", cfg.window);
				cli_warn("%s: m0 %g kg (%s), sd %g kg; process sd att %g pos %g vel %g mass %g; "
				    "measurement sd att %g pos %g vel %g%s", o->mt->name, m0,
				    o->m0 > 0 ? "--m0" : "hover guess from the first thrust", (double)cfg.sd_m0,
				    (double)cfg.q_att, (double)cfg.q_pos, (double)cfg.q_vel, (double)cfg.q_mass,
				    (double)cfg.r_att, (double)cfg.r_pos, (double)cfg.r_vel, extra);
			}
			started = 1;
			if (ispan >= 0)
				span = row[ispan];
		}
		u_prev = u;
		t_prev = t;
	}
	if (nrows == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(r));
	if (nest == 0)
		cli_die(EXIT_DATA, "%s: %ld usable samples: the %s methods need two or more", tbl_name(r),
		    nrows - skipped, o->mt->name);
	if (nest < o->every)
		cli_die(EXIT_DATA, "%s: %ld estimates, fewer than --every %ld: nothing to write", tbl_name(r), nest,
		    o->every);
	sink_note(out.out, "method", o->mt->name);
	estout_commit(&out, 0); /* the mass alone: nothing is projected */
	if (o->verbose)
		cli_warn("%s: %ld updates, mean %.2f us each", o->mt->name, nest, 1e6 * busy / (double)nest);
	long sk = skipped + tbl_skipped(r);
	if (sk)
		cli_warn("skipped %ld bad row%s of %s", sk, sk == 1 ? "" : "s", tbl_name(r));
	tbl_close(r);
	free(ws);
	free(tidx);
	free(row);
	free(names);
	free(truth);
	return 0;
}
