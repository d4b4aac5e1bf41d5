/* estimate_batch.c: least squares over a whole stream; see estimate_batch.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "estimate_batch.h"
#include "estout.h"
#include "cli.h"
#include "cmdio.h"
#include "../lib/tagk.h"

enum { MAX_SEGMENTS = 4096 };

int
estimate_batch(const batch_opts *o, const char *input)
{
	if (!((const tagk_batch_ops *)o->method->ops)->solve)
		return estimate_samples(o, input);
	tbl_reader *r = cmdio_open_input(input, &o->in);
	int it, ib, irow, iy[TAGK_NPARAM];
	int n = cmdio_regressor_cols(r, 1, &it, &ib, &irow, iy);
	tbl_want(r, it);
	tbl_want(r, ib);
	tbl_want(r, irow);
	for (int j = 0; j < n; j++)
		tbl_want(r, iy[j]);
	int iw = -1;
	if (o->weight) {
		iw = tbl_find(r, o->weight);
		if (iw < 0)
			cli_die(EXIT_DATA, "%s: --weight: no column '%s'", tbl_name(r), o->weight);
		tbl_want(r, iw);
	}
	int ntrue = 0, tidx[TAGK_NPARAM];
	const char *names[TAGK_NPARAM];
	for (int j = 0; j < n; j++) {
		char tn[32];
		snprintf(tn, sizeof(tn), "true_%s", tagk_param_names[j]);
		int c = tbl_find(r, tn);
		if (c >= 0) {
			tbl_want(r, c);
			tidx[ntrue] = c;
			names[ntrue] = tbl_col(r, c);
			ntrue++;
		}
	}
	if (ntrue != 0 && ntrue != n)
		cli_die(EXIT_DATA, "%s: some true_* columns but not all", tbl_name(r));
	/* segment starts */
	static double starts[MAX_SEGMENTS];
	int nstarts = 0, by_truth = 0;
	if (o->segments && strcmp(o->segments, "truth") == 0) {
		by_truth = 1;
		if (!ntrue)
			cli_die(EXIT_USAGE, "--segment truth: %s has no true_* columns", tbl_name(r));
	} else if (o->segments) {
		static char buf[65536];
		static char *items[MAX_SEGMENTS];
		nstarts = cli_split("--segment", o->segments, buf, sizeof(buf), items, MAX_SEGMENTS);
		for (int i = 0; i < nstarts; i++) {
			starts[i] = cli_double("--segment", items[i], -1e300, 1e300);
			if (i && !(starts[i] > starts[i - 1]))
				cli_die(EXIT_USAGE, "--segment: the times must increase ('%s' after '%s')", items[i],
				    items[i - 1]);
		}
	}
	estout out;
	estout_open(&out, o->outname, n, 1, ntrue, names);
	estout_project(&out, !o->raw);
	double *row = malloc((size_t)tbl_ncols(r) * sizeof(double));
	tagk_batch *q = malloc(sizeof(*q));
	if (!row || !q)
		cli_die(EXIT_DATA, "out of memory");
	if (tagk_batch_init(q, o->method, n) != TAGK_OK)
		cli_die(EXIT_USAGE, "%s: cannot estimate %d parameters", o->method->name, n);
	if (o->theta0) {
		tagk_real t0[TAGK_NPARAM];
		if (o->ntheta0 != n)
			cli_die(EXIT_USAGE, "--theta0: %d values, but %s estimates %d parameters", o->ntheta0, tbl_name(r), n);
		for (int j = 0; j < n; j++)
			t0[j] = (tagk_real)o->theta0[j];
		tagk_status ps = tagk_batch_set_prior(q, t0, (tagk_real)o->prior_weight);
		if (ps == TAGK_EINVAL)
			cli_die(EXIT_USAGE, "--prior-weight: %s needs a positive weight", o->method->name);
		if (ps != TAGK_OK)
			cli_die(EXIT_USAGE, "--theta0: values that are not finite");
		tagk_real lmin;
		if (n == TAGK_NPARAM && (tagk_pseudo_min_eig(t0, &lmin) != TAGK_OK || !(lmin > 0)))
			cli_die(EXIT_USAGE, "--theta0: not a physical body (its pseudo-inertia is not positive definite), "
			    "so it has no pullback metric");
	}
	double t_last = -INFINITY, truth[TAGK_NPARAM], prev_truth[TAGK_NPARAM];
	long samples = 0, in_seg = 0;
	int next_start = 0, rc;
	cmdio_samples sc = { 0 };
	for (;;) {
		rc = tbl_next(r, row);
		if (rc < 0)
			cli_die(EXIT_DATA, "%s", tbl_error(r));
		if (rc == 1 && !(row[irow] >= 0 && row[irow] < TAGK_BATCH_ROWS))
			cli_die(EXIT_DATA, "%s: row %g: a sample has rows 0 to %d at most", tbl_where(r), row[irow],
			    TAGK_BATCH_ROWS - 1);
		/* a sample cut short is refused before its segment is solved */
		if (rc == 1)
			cmdio_sample_row(&sc, r, row[it], row[irow]);
		else
			cmdio_sample_end(&sc, r, 1);
		double t = rc == 1 ? row[it] : (double)NAN;
		int new_sample = rc == 1 && t != t_last;
		if (rc == 1 && new_sample && !(t > t_last) && samples)
			cli_die(EXIT_DATA, "%s: time does not increase", tbl_where(r));
		int boundary = rc == 0;
		if (rc == 1 && new_sample && samples) {
			if (by_truth) {
				for (int j = 0; j < ntrue; j++)
					boundary |= row[tidx[j]] != prev_truth[j];
			} else {
				while (next_start < nstarts && starts[next_start] <= t) {
					boundary |= starts[next_start] > t_last;
					next_start++;
				}
			}
		}
		if (boundary && in_seg) {
			tagk_real theta[TAGK_NPARAM];
			tagk_status st = tagk_batch_solve(q, theta);
			if (st != TAGK_OK) {
				char a[32];
				fmt_double(a, t_last);
				int pc = o->method->preset[1] != 0;
				cli_die(EXIT_DATA, "%s: the segment ending at t = %s: %s%s", tbl_name(r), a,
				    st == TAGK_ENOTPD ? "the data do not determine every parameter (a singular "
				    "normal matrix)" : pc ? "the consistent solver failed: " : "", st == TAGK_ENOTPD ?
				    (pc ? ", and the physical constraints alone do not fix the rest: use a longer segment, "
				    "or a method with a prior (-a wls-pullback --theta0 ...)" : ": use a -pc method, a "
				    "method with a prior (-a wls-pullback --theta0 ...) or a longer segment")
				    : tagk_strerror(st));
			}
			tagk_real sd[TAGK_NPARAM];
			estout_row(&out, t_last, theta, tagk_batch_sd(q, theta, sd) == TAGK_OK ? sd : NULL, truth);
			tagk_batch_clear(q);
			in_seg = 0;
		}
		if (rc == 0)
			break;
		if (new_sample) {
			samples++;
			t_last = t;
			in_seg++;
			for (int j = 0; j < ntrue; j++)
				prev_truth[j] = truth[j] = row[tidx[j]];
		}
		int k = row[irow] >= 0 && row[irow] < TAGK_BATCH_ROWS ? (int)row[irow] : -1;
		if (k < 0 || row[irow] != (double)k)
			cli_die(EXIT_DATA, "%s: row %g: a sample has rows 0 to %d at most", tbl_where(r), row[irow],
			    TAGK_BATCH_ROWS - 1);
		double y[TAGK_NPARAM];
		for (int i = 0; i < n; i++)
			y[i] = row[iy[i]];
		if (iw >= 0 && !(row[iw] >= 0))
			cli_die(EXIT_DATA, "%s: --weight %s: %g is not a weight (finite, >= 0)", tbl_where(r), o->weight,
			    row[iw]);
		if ((iw >= 0 ? tagk_batch_add_weighted(q, k, y, row[ib], row[iw]) : tagk_batch_add(q, k, y, row[ib]))
		    != TAGK_OK)
			cli_die(EXIT_DATA, "%s: a value that is not finite", tbl_where(r));
	}
	if (samples == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(r));
	sink_note(out.out, "method", o->method->name);
	estout_commit(&out, o->quiet);
	if (tbl_skipped(r))
		cli_warn("skipped %ld bad row%s", tbl_skipped(r), tbl_skipped(r) == 1 ? "" : "s");
	tbl_close(r);
	free(row);
	free(q);
	return 0;
}
