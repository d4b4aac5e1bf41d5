/* filter_gate.c: tagk-filter's --project and --physical; see filter_gate.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "filter_gate.h"

static void
tally_rejection(gate_stats *g, unsigned why, const tagk_real *th, int np)
{
	for (int b = 0; b < 5; b++)
		if (why & (1u << b))
			g->n[b]++;
	if (np != TAGK_NPARAM || (why & TAGK_GATE_NONFINITE))
		return;
	if ((why & TAGK_GATE_COM) && th[0] > 0) {
		double c2 = 0;
		for (int i = 1; i <= 3; i++)
			c2 += ((double)th[i] / (double)th[0]) * ((double)th[i] / (double)th[0]);
		if (sqrt(c2) > g->c_max)
			g->c_max = sqrt(c2);
	}
	tagk_real I[9], w[3];
	tagk_theta_inertia(th, I);
	if (tagk_symeig3(I, w) != TAGK_OK)
		return;
	if ((why & TAGK_GATE_NOTPD) && (double)w[0] < g->ev_min)
		g->ev_min = (double)w[0];
	if ((why & TAGK_GATE_LMAX) && (double)w[2] > g->ev_max)
		g->ev_max = (double)w[2];
}

/* "m <= 0 in 3; ||c|| > L_arm in 50 (largest 0.051 m: --l-arm 0.0325) ..." */
static void
gate_reasons(const gate_stats *g, double l_arm, double alpha, char *buf, size_t len)
{
	size_t u = 0;
	buf[0] = 0;
#define ADD(...) (u += (size_t)snprintf(buf + (u < len ? u : len - 1), u < len ? len - u : 1, __VA_ARGS__))
	if (g->n[0]) ADD("%snot finite in %ld", u ? "; " : "", g->n[0]);
	if (g->n[1]) ADD("%sm <= 0 in %ld", u ? "; " : "", g->n[1]);
	if (g->n[2]) ADD("%s||c|| > L_arm in %ld (largest %.3g m against --l-arm %g)", u ? "; " : "", g->n[2],
	    g->c_max, l_arm);
	if (g->n[3]) ADD("%sinertia not positive definite in %ld (smallest eigenvalue %.3g kg m^2)",
	    u ? "; " : "", g->n[3], g->ev_min);
	if (g->n[4]) ADD("%slambda_max > alpha in %ld (largest %.3g kg m^2 against --alpha %g)", u ? "; " : "",
	    g->n[4], g->ev_max, alpha);
#undef ADD
}

void
fgate_open(filter_gate *g, tbl_reader *r)
{
	g->np = 0;
	for (int j = 0; j < TAGK_NPARAM; j++)
		g->ip[j] = tbl_find(r, tagk_param_names[j]);
	while (g->np < TAGK_NPARAM && g->ip[g->np] >= 0)
		g->np++;
	if ((g->physical || g->project) && g->np != 1 && g->np != TAGK_NPARAM)
		cli_die(EXIT_DATA, "%s: --physical and --project need an estimate stream with column m "
		    "(and mcx ... Izz for the rigid body), as tagk-estimate writes", tbl_name(r));
	g->gs.ev_min = INFINITY;
}

int
fgate_is_column(const filter_gate *g, int i)
{
	for (int j = 0; j < g->np; j++)
		if (i == g->ip[j] && (g->physical || g->project))
			return 1;
	return 0;
}

/* --project: an inconsistent estimate replaced by the nearest consistent one */
static void
project(filter_gate *g, tbl_reader *r, double *row, tagk_real *th)
{
	int np = g->np;
	int bad = np == 1 ? !(th[0] > g->floor_ev) : !tagk_consistent(th, (tagk_real)1e-12);
	if (!bad)
		return;
	if (np == 1)
		th[0] = (tagk_real)g->floor_ev;
	else if (tagk_project(th, (tagk_real)g->floor_ev, th) != TAGK_OK)
		cli_die(EXIT_DATA, "%s: cannot project a non-finite estimate", tbl_where(r));
	g->projected++;
	for (int j = 0; j < np; j++)
		row[g->ip[j]] = (double)th[j];
}

int
fgate_row(filter_gate *g, tbl_reader *r, double *row)
{
	if (!g->physical && !g->project)
		return 1;
	int np = g->np;
	g->estimates++;
	tagk_real th[TAGK_NPARAM];
	for (int j = 0; j < np; j++)
		th[j] = (tagk_real)row[g->ip[j]];
	if (g->project)
		project(g, r, row, th);
	if (!g->physical)
		return 1;
	unsigned why = np == 1 ? (th[0] > 0 && isfinite((double)th[0]) ? 0u : TAGK_GATE_MASS)
	    : tagk_gate(th, (tagk_real)g->l_arm, (tagk_real)g->alpha);
	if (why == 0) {
		for (int j = 0; j < np; j++)
			g->held[j] = row[g->ip[j]];
		g->have_held = 1;
		return 1;
	}
	tally_rejection(&g->gs, why, th, np);
	g->rejected++;
	if (!g->have_held) {
		g->dropped++;
		return 0;
	}
	for (int j = 0; j < np; j++)
		row[g->ip[j]] = g->held[j];
	return 1;
}

void
fgate_refuse_empty(const filter_gate *g, tbl_reader *r)
{
	if (!(g->physical && g->rejected == g->estimates))
		return;
	char reasons[512];
	gate_reasons(&g->gs, g->l_arm, g->alpha, reasons, sizeof(reasons));
	cli_die(EXIT_DATA, "%s: no row left: eq. 15 rejected all %ld estimates: %s", tbl_name(r), g->estimates,
	    reasons);
}

void
fgate_report(const filter_gate *g)
{
	char reasons[512];
	gate_reasons(&g->gs, g->l_arm, g->alpha, reasons, sizeof(reasons));
	if (g->physical && g->rejected)
		cli_warn("rejected %ld of %ld estimates (eq. 15), held the last valid one: %s", g->rejected,
		    g->estimates, reasons);
	else if (g->physical)
		cli_warn("rejected 0 of %ld estimates (eq. 15, L_arm %g m, alpha %g kg m^2)", g->estimates, g->l_arm,
		    g->alpha);
	if (g->dropped)
		cli_warn("dropped %ld rejected estimates that came before the first valid one", g->dropped);
	if (g->project)
		cli_warn("projected %ld of %ld estimates onto the physically consistent set", g->projected,
		    g->estimates);
}
