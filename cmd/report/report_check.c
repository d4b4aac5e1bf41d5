/* report_check.c: tagk-report's plausibility checks; see report_check.h. */
#include <math.h>
#include "cli.h"
#include "report_check.h"
#include "../lib/tagk.h"

int
plaus_physical(int np, const double *theta)
{
	if (!(theta[0] > 0))
		return 0;
	if (np != TAGK_NPARAM)
		return 1;
	tagk_real t[TAGK_NPARAM];
	for (int j = 0; j < TAGK_NPARAM; j++)
		t[j] = (tagk_real)theta[j];
	return tagk_consistent(t, (tagk_real)1e-9);
}

void
plaus_count_init(plaus_count *c, tbl_reader *r)
{
	c->col = tbl_find(r, "physical");
	c->physical = c->projected = 0;
	tbl_want(r, c->col);
}

void
plaus_count_row(plaus_count *c, int np, const double *est, const double *row)
{
	int values = plaus_physical(np, est);
	int method = c->col >= 0 ? row[c->col] != 0 : values;
	c->physical += method;
	c->projected += !method && values;
}

void
plaus_count_print(FILE *o, const char *h, const plaus_count *c, long n)
{
	fprintf(o, "%sphysical bodies: %ld of %ld estimates (%.0f %%)", h, c->physical, n,
	    n ? 100.0 * (double)c->physical / (double)n : 0.0);
	if (c->projected)
		fprintf(o, " as the method gave them; %ld more written as the nearest physical body", c->projected);
	fprintf(o, "\n");
}

void
plaus_check(plaus *p, const char *name, const char *what, int np, const double *theta, long physical, long n)
{
	if (!plaus_physical(np, theta)) {
		p->warnings++;
		if (!(theta[0] > 0))
			cli_warn("%s: the %s mass, %.4g kg, is not physical (m <= 0): the data do not determine it, or the "
			    "method does not fit them", name, what, theta[0]);
		else
			cli_warn("%s: the %s body is not physical: its inertia about the centre of mass has a negative "
			    "principal moment or one larger than the other two together (the pseudo-inertia is not "
			    "positive semidefinite); without rotational excitation a flight does not determine the "
			    "inertia (tagk-filter --project gives the nearest physical body)", name, what);
	}
	if (n > 0 && 2 * physical < n) {
		p->warnings++;
		cli_warn("%s: only %ld of %ld estimates (%.0f %%) are physical bodies", name, physical, n,
		    100.0 * (double)physical / (double)n);
	}
	double m = theta[0], f = m / p->nominal;
	if (!isnan(p->nominal) && m > 0 && (f > PLAUS_FACTOR || f < 1 / PLAUS_FACTOR)) {
		p->warnings++;
		cli_warn("%s: the %s mass, %.4g kg, is %.2f times the vehicle's nominal %.4g kg (beyond a factor of "
		    "%g): %s, or a thrust model that is off (commanded thrust is not thrust: calibrate on a flight "
		    "of known mass)", name, what, m, f, p->nominal, PLAUS_FACTOR,
		    f > 1 ? "a payload that heavy" : "less than the vehicle itself");
	}
}
