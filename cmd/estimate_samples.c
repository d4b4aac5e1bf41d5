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
#include "estimate_batch.h"
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

int
estimate_samples(const batch_opts *o, const char *input)
{
	const tagk_batch_ops *ops = (const tagk_batch_ops *)o->method->ops;
	const char *mname = o->method->name;
	if (!o->theta0 || o->ntheta0 != P)
		cli_die(EXIT_USAGE, "%s needs --theta0: ten values where every sample's metric is positive definite (a "
		    "physical body)", mname);
	if (o->segments && strcmp(o->segments, "truth") != 0)
		cli_die(EXIT_USAGE, "--segment: %s takes 'truth' only", mname);
	if (o->weight)
		cli_die(EXIT_USAGE, "--weight does not apply to %s", mname);
	tbl_reader *r = cmdio_open_input(input, &o->in);
	int it, ib, irow, iy[P];
	int np = cmdio_regressor_cols(r, 1, &it, &ib, &irow, iy);
	if (np != P)
		cli_die(EXIT_DATA, "%s: %s needs the rigid body's ten parameters", tbl_name(r), mname);
	tbl_want(r, it);
	tbl_want(r, ib);
	tbl_want(r, irow);
	for (int j = 0; j < P; j++)
		tbl_want(r, iy[j]);
	char name[48];
	int n = 0, im0[MAXN], imj[P][MAXN];
	for (; n < MAXN; n++) {
		snprintf(name, sizeof(name), "M0_%d", n + 1);
		if ((im0[n] = tbl_find(r, name)) < 0)
			break;
		tbl_want(r, im0[n]);
	}
	if (n == 0)
		cli_die(EXIT_DATA, "%s: %s needs the metric's columns (M0_1, ...: tagk-regress -m multibody --metric)",
		    tbl_name(r), mname);
	for (int j = 0; j < P; j++)
		for (int c = 0; c < n; c++) {
			snprintf(name, sizeof(name), "M_%s_%d", tagk_param_names[j], c + 1);
			if ((imj[j][c] = tbl_find(r, name)) < 0)
				cli_die(EXIT_DATA, "%s: missing column '%s' (tagk-regress -m multibody --metric)", tbl_name(r), name);
			tbl_want(r, imj[j][c]);
		}
	int ntrue = 0, tidx[P];
	const char *names[P];
	for (int j = 0; j < P; j++) {
		snprintf(name, sizeof(name), "true_%s", tagk_param_names[j]);
		int c = tbl_find(r, name);
		if (c >= 0) {
			tbl_want(r, c);
			tidx[ntrue] = c;
			names[ntrue++] = tbl_col(r, c);
		}
	}
	if (ntrue != 0 && ntrue != P)
		cli_die(EXIT_DATA, "%s: some true_* columns but not all", tbl_name(r));
	if (o->segments && !ntrue)
		cli_die(EXIT_USAGE, "--segment truth: %s has no true_* columns", tbl_name(r));
	/* the estimate stream; these methods give no uncertainty (empty sd) */
	estout out;
	estout_open(&out, o->outname, P, 1, ntrue, names);
	estout_project(&out, !o->raw);
	double *row = malloc((size_t)tbl_ncols(r) * sizeof(*row));
	size_t wslen = tagk_dmls_workspace_len(n, P);
	tagk_real *ws = malloc(wslen * sizeof(*ws)), theta0[P];
	if (!row || !ws)
		cli_die(EXIT_DATA, "out of memory");
	for (int j = 0; j < P; j++)
		theta0[j] = (tagk_real)o->theta0[j];
	samples s = { 0, 0, n, NULL, NULL, NULL };
	double t_cur = NAN, prev_truth[P] = { 0 };
	int seen = 0, rc, have = 0, segs = 0;
	for (;;) {
		rc = tbl_next(r, row);
		if (rc < 0)
			cli_die(EXIT_DATA, "%s", tbl_error(r));
		int new_sample = rc == 0 || !have || row[it] != t_cur;
		if (have && new_sample && seen != n) {
			char a[32];
			fmt_double(a, t_cur);
			cli_die(EXIT_DATA, "%s: t = %s: the sample has %d of its %d rows", tbl_name(r), a, seen, n);
		}
		int boundary = rc == 0;
		if (rc == 1 && have && new_sample && o->segments)
			for (int j = 0; j < ntrue; j++)
				boundary |= row[tidx[j]] != prev_truth[j];
		if (boundary && s.N) {
			tagk_dmls_problem pb;
			tagk_dmls_defaults(&pb);
			pb.N = (int)s.N;
			pb.n = n;
			pb.p = P;
			pb.Y = s.Y;
			pb.tau = s.tau;
			pb.M = s.M;
			tagk_real theta[P];
			tagk_status st = ops->solve_samples(o->method, &pb, theta0, theta, ws, wslen);
			if (st != TAGK_OK) {
				char a[32];
				fmt_double(a, t_cur);
				cli_die(EXIT_DATA, "%s: the segment ending at t = %s: %s%s", tbl_name(r), a, tagk_strerror(st),
				    st == TAGK_ENOTPD ? " (at --theta0 some sample's metric is not positive definite, or "
				    "--theta0 is not physical)" : "");
			}
			estout_row(&out, t_cur, theta, NULL, prev_truth);
			segs++;
			s.N = 0;
		}
		if (rc == 0)
			break;
		if (have && !(row[it] >= t_cur))
			cli_die(EXIT_DATA, "%s: time does not increase", tbl_where(r));
		if (new_sample) {
			grow(&s);
			s.N++;
			seen = 0;
			memset(s.M + (size_t)(s.N - 1) * (P + 1) * n * n, 0, sizeof(*s.M) * (size_t)(P + 1) * n * n);
		}
		int k = (int)row[irow];
		if (!(row[irow] >= 0 && row[irow] < n) || row[irow] != (double)k || k != seen)
			cli_die(EXIT_DATA, "%s: row %g: a sample's rows run 0 to %d in order", tbl_where(r), row[irow], n - 1);
		seen++;
		t_cur = row[it];
		have = 1;
		const long x = s.N - 1;
		for (int j = 0; j < P; j++)
			s.Y[(x * n + k) * P + j] = (tagk_real)row[iy[j]];
		s.tau[x * n + k] = (tagk_real)row[ib];
		tagk_real *Mx = s.M + (size_t)x * (P + 1) * n * n;
		for (int c = 0; c < n; c++) {
			Mx[k * n + c] = (tagk_real)row[im0[c]];
			for (int j = 0; j < P; j++)
				Mx[(size_t)(1 + j) * n * n + k * n + c] = (tagk_real)row[imj[j][c]];
		}
		for (int j = 0; j < ntrue; j++)
			prev_truth[j] = row[tidx[j]];
	}
	if (!segs)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(r));
	sink_note(out.out, "method", mname);
	estout_commit(&out, o->quiet);
	tbl_close(r);
	free(row);
	free(ws);
	free(s.Y);
	free(s.tau);
	free(s.M);
	return 0;
}
