/* estimate_learned.c: a learned method over a joint log; see estimate_learned.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdio.h"
#include "estimate_learned.h"
#include "../formats/sink.h"
#include "../lib/tagk.h"

static int
need(tbl_reader *r, const char *name, const char *method)
{
	int i = tbl_find(r, name);
	if (i < 0)
		cli_die(EXIT_DATA, "%s: missing column '%s' (%s reads a joint log: t, q1.., qd1..; tagk-bench shake "
		    "writes one)", tbl_name(r), name, method);
	tbl_want(r, i);
	return i;
}

int
estimate_learned(const learned_opts *o, const char *input)
{
	const tagk_learned_ops *ops = tagk_learned_ops_of(o->method);
	const char *mname = o->method->name;
	if (!ops || ops->joints > 16 || ops->outputs > TAGK_LEARNED_MAX_OUT || !ops->theta)
		cli_die(EXIT_USAGE, "%s: not a learned method tagk-estimate can run", mname);
	tbl_reader *r = cmdio_open_input(input, &o->in);
	const int J = ops->joints, W = ops->window;
	int it = need(r, "t", mname), iq[16], iqd[16];
	for (int j = 0; j < J; j++) {
		char n[16];
		snprintf(n, sizeof(n), "q%d", j + 1);
		iq[j] = need(r, n, mname);
		snprintf(n, sizeof(n), "qd%d", j + 1);
		iqd[j] = need(r, n, mname);
	}
	int iobj = tbl_find(r, "object"), ntrue = 0, tidx[TAGK_NPARAM];
	if (iobj >= 0)
		tbl_want(r, iobj);
	const char *names[2 + 2 * TAGK_NPARAM];
	int nc = 0;
	names[nc++] = "t";
	if (iobj >= 0)
		names[nc++] = "object";
	for (int j = 0; j < TAGK_NPARAM; j++)
		names[nc++] = tagk_param_names[j];
	for (int j = 0; j < TAGK_NPARAM; j++) {
		char tn[32];
		snprintf(tn, sizeof(tn), "true_%s", tagk_param_names[j]);
		int c = tbl_find(r, tn);
		if (c >= 0) {
			tbl_want(r, c);
			tidx[ntrue++] = c;
			names[nc++] = tbl_col(r, c);
		}
	}
	if (ntrue != 0 && ntrue != TAGK_NPARAM)
		cli_die(EXIT_DATA, "%s: some true_* columns but not all", tbl_name(r));
	size_t wslen = ops->workspace_len();
	tagk_real *q = malloc((size_t)W * J * sizeof(*q)), *qd = malloc((size_t)W * J * sizeof(*qd));
	tagk_real *ws = malloc(wslen * sizeof(*ws));
	double *row = malloc((size_t)tbl_ncols(r) * sizeof(*row));
	if (!q || !qd || !ws || !row)
		cli_die(EXIT_DATA, "out of memory");
	sink *out = cmdio_open_output(o->outname, TBL_AUTO);
	cmdio_header(out, nc, names);
	double t_last = -INFINITY, key[TAGK_NPARAM], prev[TAGK_NPARAM] = { 0 }, truth[TAGK_NPARAM] = { 0 };
	double orow[2 + 2 * TAGK_NPARAM];
	const int nkey = iobj >= 0 ? 1 : ntrue;
	long count = 0, windows = 0;
	const double step = 1 / ops->rate;
	for (;;) {
		int rc = tbl_next(r, row);
		if (rc < 0)
			cli_die(EXIT_DATA, "%s", tbl_error(r));
		/* with an object column or truth, a window is one object or one
		 * truth; without, consecutive runs of W samples */
		int boundary = rc == 0 || (nkey == 0 && count == W);
		if (rc == 1) {
			if (iobj >= 0)
				key[0] = row[iobj];
			else
				for (int j = 0; j < ntrue; j++)
					key[j] = row[tidx[j]];
			for (int j = 0; j < nkey && count; j++)
				boundary |= key[j] != prev[j];
		}
		if (boundary && count) {
			char a[32];
			fmt_double(a, t_last);
			if (count != W)
				cli_die(EXIT_DATA, "%s: the window ending at t = %s has %ld samples; %s takes exactly %d (%g s at "
				    "%g Hz, tagk-bench shake's shake)", tbl_name(r), a, count, mname, W, (W - 1) * step,
				    ops->rate);
			tagk_real est[TAGK_LEARNED_MAX_OUT], theta[TAGK_NPARAM];
			tagk_status st = ops->predict(q, qd, est, ws, wslen);
			if (st != TAGK_OK)
				cli_die(EXIT_DATA, "%s: the window ending at t = %s: %s", tbl_name(r), a, tagk_strerror(st));
			ops->theta(est, theta);
			int k = 0;
			orow[k++] = t_last;
			if (iobj >= 0)
				orow[k++] = prev[0];
			for (int j = 0; j < TAGK_NPARAM; j++)
				orow[k++] = (double)theta[j];
			for (int j = 0; j < ntrue; j++)
				orow[k++] = truth[j];
			cmdio_row(out, orow);
			windows++;
			count = 0;
		}
		if (rc == 0)
			break;
		double t = row[it];
		if (count == W) {
			char a[32];
			fmt_double(a, t);
			cli_die(EXIT_DATA, "%s: t = %s: the window has more than %d samples; %s takes exactly %d (%g s at %g Hz, "
			    "tagk-bench shake's shake, not --long)", tbl_where(r), a, W, mname, W, (W - 1) * step, ops->rate);
		}
		if (count && !(fabs(t - t_last - step) <= 0.01 * step)) {
			char a[32];
			fmt_double(a, t);
			cli_die(EXIT_DATA, "%s: t = %s: the samples are %g s apart; %s was trained at %g Hz", tbl_where(r), a,
			    t - t_last, mname, ops->rate);
		}
		for (int j = 0; j < J; j++) {
			q[count * J + j] = (tagk_real)row[iq[j]];
			qd[count * J + j] = (tagk_real)row[iqd[j]];
		}
		for (int j = 0; j < nkey; j++)
			prev[j] = key[j];
		for (int j = 0; j < ntrue; j++)
			truth[j] = row[tidx[j]];
		t_last = t;
		count++;
	}
	if (windows == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(r));
	cmdio_commit(out);
	if (tbl_skipped(r))
		cli_warn("skipped %ld bad row%s", tbl_skipped(r), tbl_skipped(r) == 1 ? "" : "s");
	tbl_close(r);
	free(q);
	free(qd);
	free(ws);
	free(row);
	return 0;
}
