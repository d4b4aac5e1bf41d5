/* estimate_widepc.c: a whole-arm stream's standard parameters, physically
 * consistent, toward the description; see estimate_widepc.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "estimate_widepc.h"
#include "../formats/mbmodel.h"
#include "../lib/tagk.h"

int
widepc_method(const char *m)
{
	return !strcmp(m, "ols-pc") || !strcmp(m, "wls-pc") || !strcmp(m, "wls-pullback") || !strcmp(m, "wls-bregman");
}

/* The order armpc takes: body k's parameter i at 10 k + i, then the free
 * columns; perm[j] is column j's place. Bodies from the names, each with
 * all ten parameters; their prior from the description. Returns B. */
static int
layout(const widepc_sums *s, const mbmodel *mm, const char *robot, int *perm, tagk_real *prior)
{
	int body_of[TAGK_MB_MAX_BODIES], nbody = 0, nfree = 0, have[TAGK_MB_MAX_BODIES] = { 0 };
	for (int j = 0; j < s->n; j++)
		perm[j] = -1;
	for (int j = 0; j < s->n; j++) {
		const char *us = strchr(s->names[j], '_');
		int p = -1;
		for (int i = 0; us && i < TAGK_NPARAM; i++)
			if (strlen(tagk_param_names[i]) == (size_t)(us - s->names[j]) &&
			    !strncmp(s->names[j], tagk_param_names[i], (size_t)(us - s->names[j])))
				p = i;
		int u = p >= 0 ? mbmodel_find(mm, us + 1) : -1;
		if (p < 0 || u < 0)
			continue; /* a free column (friction), placed below */
		int k = 0;
		while (k < nbody && body_of[k] != u)
			k++;
		if (k == nbody) {
			if (nbody == TAGK_PCLS_MAX_BODIES)
				cli_die(EXIT_DATA, "%s: more than %d bodies", s->input, TAGK_PCLS_MAX_BODIES);
			body_of[nbody++] = u;
		}
		perm[j] = TAGK_NPARAM * k + p;
		have[k] |= 1 << p;
		prior[TAGK_NPARAM * k + p] = mm->theta[TAGK_NPARAM * u + p];
	}
	if (nbody == 0)
		cli_die(EXIT_DATA, "%s: no column Y_<param>_<body> names a body of %s (standard parameters, not --base "
		    "rows, are what a physical constraint applies to)", s->input, robot);
	for (int k = 0; k < nbody; k++)
		if (have[k] != (1 << TAGK_NPARAM) - 1)
			cli_die(EXIT_DATA, "%s: body '%s' lacks some of its ten Y_<param>_%s columns", s->input,
			    mm->name[body_of[k]], mm->name[body_of[k]]);
	for (int j = 0; j < s->n; j++)
		if (perm[j] < 0)
			perm[j] = TAGK_NPARAM * nbody + nfree++;
	return nbody;
}

/* The consistent solve with row index k weighted by w[k]; x in armpc's order. */
static void
solve(const batch_opts *o, const widepc_sums *s, const int *perm, int B, const double *w, const tagk_real *prior,
    tagk_real *x)
{
	const int n = s->n, nf = n - TAGK_NPARAM * B;
	tagk_real *H = calloc((size_t)n * n, sizeof(*H)), *h = calloc((size_t)n, sizeof(*h));
	size_t len = tagk_armpc_workspace_len(B, nf);
	tagk_real *ws = len ? malloc(len * sizeof(*ws)) : NULL;
	if (!H || !h || !ws)
		cli_die(len ? EXIT_DATA : EXIT_USAGE, len ? "out of memory" : "%s: %d free columns: at most %d",
		    s->input, nf, TAGK_ARMPC_MAX_FREE);
	for (int k = 0; k < WIDEPC_MAX_IDX; k++)
		for (int i = 0; s->H[k] && i < n; i++) {
			h[perm[i]] += (tagk_real)(w[k] * s->h[k][i]);
			for (int j = i; j < n; j++) {
				tagk_real v = (tagk_real)(w[k] * s->H[k][i * n + j]);
				H[perm[i] * n + perm[j]] += v;
				if (i != j)
					H[perm[j] * n + perm[i]] += v;
			}
		}
	tagk_pcls_config cfg;
	tagk_pcls_defaults(&cfg, B);
	cfg.reg = strcmp(o->method->name, "wls-bregman") ? TAGK_PCLS_PULLBACK : TAGK_PCLS_LOGDET;
	cfg.mu = (tagk_real)(1e-4 * o->prior_weight * (double)s->samples);
	cfg.theta0 = prior;
	cfg.max_newton = 2000;
	if (cfg.reg == TAGK_PCLS_LOGDET) /* the barrier path, as tagk-regress --identify (arm_ident.c) */
		cfg.margin = (tagk_real)1e-10;
	tagk_status st = tagk_armpc_solve(&cfg, nf, H, h, x, NULL, ws, len);
	if (st != TAGK_OK)
		cli_die(EXIT_DATA, "%s: -a %s: %s%s", s->input, o->method->name, tagk_strerror(st), st == TAGK_ENOTPD ?
		    " (a friction column the data do not excite, or a body of the description that is not physical)" : "");
	free(H);
	free(h);
	free(ws);
}

void
widepc_estimate(const batch_opts *o, const widepc_sums *s, double *theta)
{
	static mbmodel mm;
	char err[512];
	if (!o->robot)
		cli_die(EXIT_USAGE, "-a %s on a whole-arm stream needs --robot FILE: the description whose links the "
		    "data leave undetermined", o->method->name);
	if (mbmodel_read(o->robot, &mm, err, sizeof(err)) != 0)
		cli_die(EXIT_DATA, "%s", err);
	const int n = s->n;
	int *perm = malloc((size_t)n * sizeof(int));
	tagk_real *prior = calloc((size_t)n, sizeof(*prior)), *x = calloc((size_t)n, sizeof(*x));
	if (!perm || !prior || !x)
		cli_die(EXIT_DATA, "out of memory");
	int B = layout(s, &mm, o->robot, perm, prior);
	double w[WIDEPC_MAX_IDX];
	for (int k = 0; k < WIDEPC_MAX_IDX; k++)
		w[k] = 1;
	solve(o, s, perm, B, w, prior, x);
	if (strncmp(o->method->name, "wls", 3) == 0) {
		for (int k = 0; k < WIDEPC_MAX_IDX; k++) {
			if (!s->H[k])
				continue;
			double q = s->c[k];
			for (int i = 0; i < n; i++) {
				double hi = s->H[k][i * n + i] * (double)x[perm[i]];
				for (int j = i + 1; j < n; j++)
					hi += 2 * s->H[k][i * n + j] * (double)x[perm[j]];
				q += (double)x[perm[i]] * (hi - 2 * s->h[k][i]);
			}
			double ms = q / (double)s->N[k], floor = 1e-12 * s->c[k] / (double)s->N[k];
			w[k] = 1 / (ms > floor ? ms : floor > 0 ? floor : 1);
		}
		solve(o, s, perm, B, w, prior, x);
	}
	for (int j = 0; j < n; j++)
		theta[j] = (double)x[perm[j]];
	cli_warn("-a %s: %d bodies and %d free columns from %ld samples, physically consistent, toward %s; no sd "
	    "(the standard parameters are not all identifiable: --base rows with -a ols or wls give intervals)",
	    o->method->name, B, n - TAGK_NPARAM * B, s->samples, o->robot);
	free(perm);
	free(prior);
	free(x);
}
