/* estimate_learned.c: a learned method over a joint log; see estimate_learned.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdio.h"
#include "estimate_learned.h"
#include "estout.h"
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

/* One run: the columns, the window being filled and the output. */
typedef struct {
	const tagk_learned_ops *ops;
	const char *mname;
	tbl_reader *r;
	int J, W, it, iq[16], iqd[16], iobj, ntrue, tidx[TAGK_NPARAM], nkey;
	tagk_real *q, *qd, *ws;
	size_t wslen;
	double *row, t_last, step, key[TAGK_NPARAM], prev[TAGK_NPARAM], truth[TAGK_NPARAM];
	const char *names[2 + 2 * TAGK_NPARAM];
	int nnames;
	sink *out;
	long count, windows;
} learnrun;

/* The joint signals' columns, the object's or the truth's, and the
 * output's column names: t, [object,] m .. Izz, [true_* ...]. */
static void
columns(learnrun *w)
{
	tbl_reader *r = w->r;
	w->it = need(r, "t", w->mname);
	for (int j = 0; j < w->J; j++) {
		char n[16];
		snprintf(n, sizeof(n), "q%d", j + 1);
		w->iq[j] = need(r, n, w->mname);
		snprintf(n, sizeof(n), "qd%d", j + 1);
		w->iqd[j] = need(r, n, w->mname);
	}
	w->iobj = tbl_find(r, "object");
	if (w->iobj >= 0)
		tbl_want(r, w->iobj);
	int nc = 0;
	w->names[nc++] = "t";
	if (w->iobj >= 0)
		w->names[nc++] = "object";
	for (int j = 0; j < TAGK_NPARAM; j++)
		w->names[nc++] = tagk_param_names[j];
	w->ntrue = estout_want_truth(r, TAGK_NPARAM, w->tidx, w->names + nc);
	nc += w->ntrue;
	w->nkey = w->iobj >= 0 ? 1 : w->ntrue;
	w->nnames = nc;
}

/* The full window predicted and written as ten parameters. */
static void
predict(learnrun *w)
{
	char a[32];
	fmt_double(a, w->t_last);
	if (w->count != w->W)
		cli_die(EXIT_DATA, "%s: the window ending at t = %s has %ld samples; %s takes exactly %d (%g s at "
		    "%g Hz, tagk-bench shake's shake)", tbl_name(w->r), a, w->count, w->mname, w->W, (w->W - 1) * w->step,
		    w->ops->rate);
	tagk_real est[TAGK_LEARNED_MAX_OUT], theta[TAGK_NPARAM];
	tagk_status st = w->ops->predict(w->q, w->qd, est, w->ws, w->wslen);
	if (st != TAGK_OK)
		cli_die(EXIT_DATA, "%s: the window ending at t = %s: %s", tbl_name(w->r), a, tagk_strerror(st));
	w->ops->theta(est, theta);
	double orow[2 + 2 * TAGK_NPARAM];
	int k = 0;
	orow[k++] = w->t_last;
	if (w->iobj >= 0)
		orow[k++] = w->prev[0];
	for (int j = 0; j < TAGK_NPARAM; j++)
		orow[k++] = (double)theta[j];
	for (int j = 0; j < w->ntrue; j++)
		orow[k++] = w->truth[j];
	cmdio_row(w->out, orow);
	w->windows++;
	w->count = 0;
}

/* The row's sample into the window, its spacing checked. */
static void
add_sample(learnrun *w)
{
	const double *row = w->row;
	double t = row[w->it];
	char a[32];
	fmt_double(a, t);
	if (w->count == w->W)
		cli_die(EXIT_DATA, "%s: t = %s: the window has more than %d samples; %s takes exactly %d (%g s at %g Hz, "
		    "tagk-bench shake's shake, not --long)", tbl_where(w->r), a, w->W, w->mname, w->W, (w->W - 1) * w->step,
		    w->ops->rate);
	if (w->count && !(fabs(t - w->t_last - w->step) <= 0.01 * w->step))
		cli_die(EXIT_DATA, "%s: t = %s: the samples are %g s apart; %s was trained at %g Hz", tbl_where(w->r), a,
		    t - w->t_last, w->mname, w->ops->rate);
	for (int j = 0; j < w->J; j++) {
		w->q[w->count * w->J + j] = (tagk_real)row[w->iq[j]];
		w->qd[w->count * w->J + j] = (tagk_real)row[w->iqd[j]];
	}
	for (int j = 0; j < w->nkey; j++)
		w->prev[j] = w->key[j];
	for (int j = 0; j < w->ntrue; j++)
		w->truth[j] = row[w->tidx[j]];
	w->t_last = t;
	w->count++;
}

int
estimate_learned(const learned_opts *o, const char *input)
{
	const tagk_learned_ops *ops = tagk_learned_ops_of(o->method);
	if (!ops || ops->joints > 16 || ops->outputs > TAGK_LEARNED_MAX_OUT || !ops->theta)
		cli_die(EXIT_USAGE, "%s: not a learned method tagk-estimate can run", o->method->name);
	static learnrun w;
	w = (learnrun){ .ops = ops, .mname = o->method->name, .J = ops->joints, .W = ops->window, .t_last = -INFINITY,
		.step = 1 / ops->rate };
	w.r = cmdio_open_input(input, &o->in);
	columns(&w);
	w.wslen = ops->workspace_len();
	w.q = malloc((size_t)w.W * w.J * sizeof(*w.q)), w.qd = malloc((size_t)w.W * w.J * sizeof(*w.qd));
	w.ws = malloc(w.wslen * sizeof(*w.ws));
	w.row = malloc((size_t)tbl_ncols(w.r) * sizeof(*w.row));
	if (!w.q || !w.qd || !w.ws || !w.row)
		cli_die(EXIT_DATA, "out of memory");
	w.out = cmdio_open_output(o->outname, TBL_AUTO);
	cmdio_header(w.out, w.nnames, w.names);
	for (;;) {
		int rc = tbl_next(w.r, w.row);
		if (rc < 0)
			cli_die(EXIT_DATA, "%s", tbl_error(w.r));
		/* with an object column or truth, a window is one object or one
		 * truth; without, consecutive runs of W samples */
		int boundary = rc == 0 || (w.nkey == 0 && w.count == w.W);
		if (rc == 1) {
			if (w.iobj >= 0)
				w.key[0] = w.row[w.iobj];
			else
				for (int j = 0; j < w.ntrue; j++)
					w.key[j] = w.row[w.tidx[j]];
			for (int j = 0; j < w.nkey && w.count; j++)
				boundary |= w.key[j] != w.prev[j];
		}
		if (boundary && w.count)
			predict(&w);
		if (rc == 0)
			break;
		add_sample(&w);
	}
	if (w.windows == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(w.r));
	cmdio_commit(w.out);
	if (tbl_skipped(w.r))
		cli_warn("skipped %ld bad row%s", tbl_skipped(w.r), tbl_skipped(w.r) == 1 ? "" : "s");
	tbl_close(w.r);
	free(w.q);
	free(w.qd);
	free(w.ws);
	free(w.row);
	return 0;
}
