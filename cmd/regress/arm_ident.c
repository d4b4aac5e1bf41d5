/* arm_ident.c: a whole arm identified from its own joint log, or its
 * torques predicted from a description; see arm_ident.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "cmdio.h"
#include "friction_fit.h"
#include "arm_ident.h"
#include "../formats/robotxml.h"

struct arm_ident {
	arm_opts o;
	const mbmodel *mm;
	const friction *fr;
	const char *input;
	int nj, nb, nf, per, n;  /* joints, bodies identified (nj), friction columns, their count a joint, n */
	double *H, *h, *c;       /* per joint: n x n, n, 1 (upper triangles of H accumulated) */
	long count;
	tagk_real *Y, *row;      /* nj x 10 (nj + 1) regressor; one row of n */
	/* predict */
	sink *out;
	double *orow, ss_r[TAGK_MB_MAX_BODIES], ss_t[TAGK_MB_MAX_BODIES];
};

int
arm_prior_metric(const char *arg)
{
	static const char *const w[] = { "euclid", "pullback", "logdet", NULL };
	return cli_choose("--prior-metric", arg, w, "euclid, pullback or logdet");
}

static void
predict_open(arm_ident *a)
{
	const int nj = a->nj, ncol = 1 + 2 * nj;
	const char **names = malloc((size_t)ncol * sizeof(*names));
	char (*buf)[32] = malloc((size_t)ncol * sizeof(*buf));
	if (!names || !buf || !(a->orow = malloc((size_t)ncol * sizeof(double))))
		cli_die(EXIT_DATA, "out of memory");
	names[0] = "t";
	for (int j = 0; j < nj; j++) {
		snprintf(buf[1 + j], sizeof(buf[0]), "tau%d", j + 1);
		snprintf(buf[1 + nj + j], sizeof(buf[0]), "tau_pred%d", j + 1);
		names[1 + j] = buf[1 + j];
		names[1 + nj + j] = buf[1 + nj + j];
	}
	a->out = cmdio_open_output(a->o.outname, TBL_AUTO);
	cmdio_header(a->out, ncol, names);
	free(names);
	free(buf);
}

arm_ident *
arm_new(const arm_opts *o, const mbmodel *mm, const friction *fr, const char *input)
{
	if (mm->m.floating)
		cli_die(EXIT_USAGE, "--%s: %s has a free base: the whole-arm commands are for a fixed base",
		    o->mode == ARM_IDENTIFY ? "identify" : "predict", o->robot);
	if (mm->m.nb - 1 > TAGK_PCLS_MAX_BODIES && o->mode == ARM_IDENTIFY)
		cli_die(EXIT_USAGE, "--identify: %s has %d moving bodies: at most %d", o->robot, mm->m.nb - 1,
		    TAGK_PCLS_MAX_BODIES);
	if (o->kinds & ~(FF_VISCOUS | FF_COULOMB | FF_OFFSET))
		cli_die(EXIT_USAGE, "--identify --friction-terms: viscous, coulomb and offset (the sigmoid term is for "
		    "the whole-arm rows, --unknown all)");
	arm_ident *a = calloc(1, sizeof(*a));
	if (!a)
		cli_die(EXIT_DATA, "out of memory");
	a->o = *o;
	a->mm = mm;
	a->fr = fr;
	a->input = input;
	a->nj = mm->m.nb - 1;
	a->nb = a->nj;
	double x[3];
	a->per = o->mode == ARM_IDENTIFY ? ffit_terms(o->kinds, o->smooth, 1, x) : 0;
	a->nf = a->per * a->nj;
	a->n = TAGK_NPARAM * a->nb + a->nf;
	if (o->mode == ARM_PREDICT) {
		predict_open(a);
		return a;
	}
	size_t n = (size_t)a->n, nj = (size_t)a->nj;
	a->H = calloc(nj * n * n, sizeof(double));
	a->h = calloc(nj * n, sizeof(double));
	a->c = calloc(nj, sizeof(double));
	a->Y = malloc(nj * TAGK_NPARAM * (nj + 1) * sizeof(tagk_real));
	a->row = malloc(n * sizeof(tagk_real));
	if (!a->H || !a->h || !a->c || !a->Y || !a->row)
		cli_die(EXIT_DATA, "out of memory");
	return a;
}

static void
predict_add(arm_ident *a, double t, const tagk_mb_kin *kin, const tagk_real *qd, const tagk_real *tau)
{
	tagk_real id[TAGK_MB_MAX_DOF];
	tagk_mb_inverse_dynamics(kin, &a->mm->m, a->mm->theta, id);
	a->orow[0] = t;
	for (int j = 0; j < a->nj; j++) {
		double f = a->fr ? friction_torque(a->fr, j, (double)qd[j]) : 0;
		double meas = (double)tau[j] + f, pred = (double)id[j] + f;
		a->orow[1 + j] = meas;
		a->orow[1 + a->nj + j] = pred;
		a->ss_r[j] += (meas - pred) * (meas - pred);
		a->ss_t[j] += meas * meas;
	}
	cmdio_row(a->out, a->orow);
}

void
arm_add(arm_ident *a, double t, const tagk_mb_kin *kin, const tagk_real *qd, const tagk_real *tau)
{
	a->count++;
	if (a->o.mode == ARM_PREDICT) {
		predict_add(a, t, kin, qd, tau);
		return;
	}
	const int nj = a->nj, n = a->n, wY = TAGK_NPARAM * (nj + 1);
	tagk_mb_regressor(kin, &a->mm->m, a->Y);
	for (int j = 0; j < nj; j++) {
		/* the moving bodies' columns (the fixed base's are zero), then the
		 * friction columns, nonzero only for this joint's own terms */
		memcpy(a->row, a->Y + (size_t)j * wY + TAGK_NPARAM, sizeof(*a->row) * TAGK_NPARAM * nj);
		memset(a->row + TAGK_NPARAM * nj, 0, sizeof(*a->row) * a->nf);
		double x[3];
		int k = ffit_terms(a->o.kinds, a->o.smooth, (double)qd[j], x);
		for (int i = 0; i < k; i++)
			a->row[TAGK_NPARAM * nj + a->per * j + i] = (tagk_real)x[i];
		double *H = a->H + (size_t)j * n * n, *h = a->h + (size_t)j * n, b = (double)tau[j];
		for (int r = 0; r < n; r++) {
			double yr = (double)a->row[r];
			if (yr == 0)
				continue;
			h[r] += yr * b;
			for (int s = r; s < n; s++)
				H[(size_t)r * n + s] += yr * (double)a->row[s];
		}
		a->c[j] += b * b;
	}
}

/* Joint j's sum of squared residuals at x: x^T H_j x - 2 h_j^T x + c_j. */
static double
joint_ss(const arm_ident *a, int j, const tagk_real *x)
{
	const int n = a->n;
	const double *H = a->H + (size_t)j * n * n, *h = a->h + (size_t)j * n;
	double q = 0, l = 0;
	for (int r = 0; r < n; r++) {
		double s = 0;
		for (int c = 0; c < n; c++)
			s += H[(size_t)(r < c ? r : c) * n + (r < c ? c : r)] * (double)x[c];
		q += s * (double)x[r];
		l += h[r] * (double)x[r];
	}
	double ss = q - 2 * l + a->c[j];
	return ss > 0 ? ss : 0;
}

/* Why a solve may have failed, into why: efforts of the wrong sign, when the
 * description fits the torques negated far better (no physical body fits
 * them, and the solve diverges rather than saying so); else "". */
static void
sign_hint(const arm_ident *a, const tagk_real *x0, char *why, size_t len)
{
	double ss = 0, neg = 0, N = (double)a->count;
	for (int j = 0; j < a->nj; j++) {
		double l = 0;
		for (int r = 0; r < a->n; r++)
			l += a->h[(size_t)j * a->n + r] * (double)x0[r];
		ss += joint_ss(a, j, x0);
		neg += joint_ss(a, j, x0) + 4 * l; /* -tau: the sign of h flips */
	}
	why[0] = 0;
	if (neg < 0.25 * ss)
		snprintf(why, len, "; the description fits the efforts negated far better (rms %.3g against %.3g N m a "
		    "joint): efforts of the wrong sign?", sqrt(neg > 0 ? neg / N / a->nj : 0), sqrt(ss / N / a->nj));
}

/* The consistent solve with joint j's rows weighted by w[j], into x. */
static void
solve(const arm_ident *a, const double *w, const tagk_real *prior, tagk_real *x, tagk_pcls_info *info)
{
	const int n = a->n;
	tagk_real *H = calloc((size_t)n * n, sizeof(*H)), *h = calloc((size_t)n, sizeof(*h));
	size_t len = tagk_armpc_workspace_len(a->nb, a->nf);
	tagk_real *ws = malloc(len * sizeof(*ws));
	if (!H || !h || !ws)
		cli_die(EXIT_DATA, "out of memory");
	for (int j = 0; j < a->nj; j++)
		for (int r = 0; r < n; r++) {
			h[r] += (tagk_real)(w[j] * a->h[(size_t)j * n + r]);
			for (int c = r; c < n; c++)
				H[(size_t)r * n + c] += (tagk_real)(w[j] * a->H[((size_t)j * n + r) * n + c]);
		}
	for (int r = 0; r < n; r++)
		for (int c = 0; c < r; c++)
			H[(size_t)r * n + c] = H[(size_t)c * n + r];
	tagk_pcls_config cfg;
	tagk_pcls_defaults(&cfg, a->nb);
	cfg.reg = (tagk_pcls_reg)a->o.prior_metric;
	cfg.mu = (tagk_real)(a->o.prior_weight * (double)a->count);
	cfg.theta0 = prior;
	cfg.max_newton = 2000;
	/* with logdet and no margin pcls runs one damped Newton minimisation, whose
	 * steps crawl (tens of thousands) when the pull is light against the data;
	 * a negligible margin puts it on the barrier path: 0.1-0.3 s */
	if (cfg.reg == TAGK_PCLS_LOGDET)
		cfg.margin = (tagk_real)1e-10;
	tagk_status st = tagk_armpc_solve(&cfg, a->nf, H, h, x, info, ws, len);
	if (st == TAGK_ENOTPD && a->nf)
		cli_die(EXIT_DATA, "%s: --identify: the friction terms are not determined (a joint that never moves, or "
		    "never both ways?); or the description's inertia of a link is singular", a->input);
	char why[160];
	if (st != TAGK_OK)
		sign_hint(a, prior, why, sizeof(why));
	if (st != TAGK_OK && why[0])
		cli_die(EXIT_DATA, "%s: --identify: the consistent solve failed: %s%s", a->input, tagk_strerror(st), why);
	if (st != TAGK_OK)
		cli_die(EXIT_DATA, "%s: --identify: the consistent solve failed: %s (a pull far lighter than the data, "
		    "--prior-weight %g, leaves the problem too ill-conditioned: raise it)", a->input, tagk_strerror(st),
		    a->o.prior_weight);
	free(H);
	free(h);
	free(ws);
}

/* The residual variance weights: 1 / (joint j's mean squared residual at x). */
static void
weights(const arm_ident *a, const tagk_real *x, double *w)
{
	for (int j = 0; j < a->nj; j++) {
		double ms = joint_ss(a, j, x) / (double)a->count, floor = 1e-12 * a->c[j] / (double)a->count;
		w[j] = 1 / (ms > floor ? ms : (floor > 0 ? floor : 1));
	}
}

/* On stderr: per joint, the RMS residual of the description and of the
 * identified arm, and the RMS torque. */
static void
say_fit(const arm_ident *a, const tagk_real *x0, const tagk_real *x, double secs, const tagk_pcls_info *info)
{
	cli_warn("--identify: %d links and %d friction terms from %ld samples in %.2g s (%d Newton steps)", a->nb,
	    a->nf, a->count, secs, info->newton);
	for (int j = 0; j < a->nj; j++) {
		double N = (double)a->count;
		cli_warn("joint %d: RMS residual %.4g N m with the description, %.4g identified (RMS torque %.4g)", j + 1,
		    sqrt(joint_ss(a, j, x0) / N), sqrt(joint_ss(a, j, x) / N), sqrt(a->c[j] / N));
	}
}

static void
write_friction_file(const arm_ident *a, const tagk_real *x)
{
	friction fr;
	memset(&fr, 0, sizeof(fr));
	fr.n = a->nj;
	fr.smooth = a->o.smooth;
	const tagk_real *phi = x + TAGK_NPARAM * a->nb;
	for (int j = 0; j < a->nj; j++) {
		int i = 0;
		if (a->o.kinds & FF_VISCOUS)
			fr.fv[j] = (double)phi[a->per * j + i++];
		if (a->o.kinds & FF_COULOMB)
			fr.fc[j] = (double)phi[a->per * j + i++];
		if (a->o.kinds & FF_OFFSET)
			fr.fo[j] = (double)phi[a->per * j + i++];
	}
	cmdio_file w;
	cmdio_file_open(&w, a->o.write_friction);
	if (friction_write(w.f, &fr, "tagk-regress --identify: friction identified with every link") != 0)
		cli_die(EXIT_DATA, "%s: write error", w.name);
	cmdio_file_commit(&w);
}

static void
write_text_file(const char *path, const char *text, size_t tlen)
{
	cmdio_file w;
	cmdio_file_open(&w, path);
	if (fwrite(text, 1, tlen, w.f) != tlen)
		cli_die(EXIT_DATA, "%s: write error", w.name);
	cmdio_file_commit(&w);
}

/* Die (exit 1) if path's directory cannot take a new file: checked for
 * --write-friction and --write-robot before the model file is written, so
 * that a missing or read-only directory leaves no output behind. */
static void
dir_writable(const char *path)
{
	if (!path || strcmp(path, "-") == 0)
		return;
	char dir[4096];
	const char *slash = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s", !slash ? 1 : slash == path ? 1 : (int)(slash - path), !slash ? "." : path);
	if (access(dir, W_OK | X_OK) != 0)
		cli_die(EXIT_DATA, "%s: %s", path, strerror(errno));
}

/* Identify, then write the model file and what was asked besides; the
 * rewritten description is made (and checked) before anything is written. */
static void
identify_finish(arm_ident *a)
{
	const int n = a->n, nt = TAGK_NPARAM * a->nb;
	if (a->count <= n / a->nj)
		cli_die(EXIT_DATA, "%s: --identify: %ld samples for %d parameters", a->input, a->count, n);
	tagk_real *x = calloc((size_t)n, sizeof(*x)), *x0 = calloc((size_t)n, sizeof(*x0));
	if (!x || !x0)
		cli_die(EXIT_DATA, "out of memory");
	memcpy(x0, a->mm->theta + TAGK_NPARAM, sizeof(*x0) * (size_t)nt);
	double w[TAGK_MB_MAX_BODIES];
	for (int j = 0; j < a->nj; j++)
		w[j] = 1;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	tagk_pcls_info info;
	solve(a, w, x0, x, &info);
	weights(a, x, w);
	solve(a, w, x0, x, &info);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	say_fit(a, x0, x, (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec), &info);
	static mbmodel id;
	id = *a->mm;
	memcpy(id.theta + TAGK_NPARAM, x, sizeof(*x) * (size_t)nt);
	for (int k = 1; k < id.m.nb; k++)
		if (!(id.theta[TAGK_NPARAM * k] > 0))
			cli_die(EXIT_DATA, "%s: --identify: link '%s' came out massless (raise --prior-weight)", a->input,
			    id.name[k]);
	char err[512], *text = NULL;
	size_t tlen = 0;
	if (a->o.write_robot && robotxml_rewrite(a->o.robot_path, &id, &text, &tlen, err, sizeof(err)) != 0)
		cli_die(EXIT_DATA, "--write-robot: %s", err);
	dir_writable(a->o.write_friction);
	dir_writable(a->o.write_robot);
	cmdio_file f;
	cmdio_file_open(&f, a->o.outname);
	char comment[600];
	snprintf(comment, sizeof(comment), "tagk-regress --identify on %s: %s with every link's inertial parameters "
	    "identified (physically consistent; prior %s, weight %g a sample)", a->input, a->o.robot,
	    (const char *[]){ "euclid", "pullback", "logdet" }[a->o.prior_metric], a->o.prior_weight);
	if (mbmodel_write(f.f, &id, comment) != 0)
		cli_die(EXIT_DATA, "%s: write error", f.name);
	cmdio_file_commit(&f);
	if (a->o.write_friction)
		write_friction_file(a, x);
	if (text)
		write_text_file(a->o.write_robot, text, tlen);
	free(text);
	free(x);
	free(x0);
}

void
arm_finish(arm_ident *a)
{
	if (a->o.mode == ARM_IDENTIFY)
		identify_finish(a);
	else {
		cmdio_commit(a->out);
		for (int j = 0; j < a->nj; j++)
			cli_warn("joint %d: RMS residual %.6g N m (RMS torque %.6g N m) over %ld samples", j + 1,
			    sqrt(a->ss_r[j] / (double)a->count), sqrt(a->ss_t[j] / (double)a->count), a->count);
		free(a->orow);
	}
	free(a->H);
	free(a->h);
	free(a->c);
	free(a->Y);
	free(a->row);
	free(a);
}
