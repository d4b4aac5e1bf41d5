/*
 * estout.h: the estimate stream tagk-estimate writes (tagk-formats(5)):
 *
 *   t, the parameters (m ... Izz, per body), sd_<param> (the standard
 *   deviation of each, from the method's own information; an empty cell
 *   where it has none), physical (1 when every body's estimate is a
 *   physical body, else 0), then the true_* columns passed through.
 *
 * With a scale_sd column in the input (tagk-regress: the relative sd of the
 * rows' scale, a thrust map's or a commanded thrust's; estout_scale_from),
 * the sd columns are followed by sd_sys_<param>: that relative sd times
 * |theta_j|, the systematic part of each parameter's uncertainty. Every
 * row's right-hand side (force and torque alike) scales with the thrust,
 * so a relative error d of the scale makes every least-squares parameter
 * (1 + d) times its value, whatever the method; the noise's part (sd_) and
 * this part are independent, and add in quadrature (tagk-report).
 *
 * physical: for the mass model m > 0; for each body of ten parameters
 * m > 0 and the pseudo-inertia positive semidefinite (equivalently the
 * triangle inequalities of the principal moments, consistency.h).
 *
 * With project set (tagk-estimate's default), a rigid body's estimate that
 * is not physical is written as the nearest physical body instead: its
 * pseudo-inertia J's negative eigenvalues raised to a floor of 1e-9 of its
 * largest (tagk_project, the nearest in J's Frobenius norm). The method's
 * own state is untouched; the sd are the estimate's, and the column
 * physical says whether the method's estimate was physical (0 for one
 * projected). estout_commit says on stderr how many were projected.
 */
#ifndef TAGK_ESTOUT_H
#define TAGK_ESTOUT_H

#include "cmdio.h"
#include "../lib/tagk.h"

typedef struct {
	sink *out;
	int n, ntrue, sd, project;
	double *row;
	long rows, physical; /* written, and physical among them */
	long projected;      /* written as the nearest physical body */
	int nextra;          /* columns after the truth's (estout_extra) */
	int sys;             /* the sd_sys_ columns are written */
	double scale_sd;     /* their relative sd, the last row's scale_sd */
} estout;

/* Find r's scale_sd column (above) and ask for it, for the next
 * estout_open; its rows are then given to estout_scale_row. */
void estout_scale_from(tbl_reader *r);
/* A row read from that input: its scale_sd (a value outside [0, 1] is
 * refused, cli_die; an empty cell keeps the previous one). */
void estout_scale_row(estout *e, tbl_reader *r, const double *row);
/* Carry the input's note scale_sd_of (what the scale is of) at the end. */
void estout_scale_note(estout *e, const tbl_reader *r);

/* Find the truth columns true_<name> of the first n parameters in r and
 * ask for them (tbl_want): their indices into tidx and their names into
 * names (n each at most). Returns how many: 0 or n; some but not all is
 * refused (cli_die). */
int estout_want_truth(tbl_reader *r, int n, int *tidx, const char **names);
/* Open the output and write the header: n parameters, sd columns when sd,
 * the names of the ntrue truth columns. */
void estout_open(estout *e, const char *outname, int n, int sd, int ntrue, const char *const *truth_names);
/* The same with nextra more columns named extra after the truth's, whose
 * values each estout_row_extra gives (--segment auto: t_start ...). */
void estout_open_extra(estout *e, const char *outname, int n, int sd, int ntrue, const char *const *truth_names,
    int nextra, const char *const *extra);
/* Project the rigid bodies' estimates that are not physical (above). */
void estout_project(estout *e, int on);
/* One estimate: theta (n), its sd (n, or NULL: empty cells), the truth
 * values (ntrue). Returns 1 if it is physical, else 0. */
int estout_row(estout *e, double t, const tagk_real *theta, const tagk_real *sd, const double *truth);
/* estout_row with the nextra values of the extra columns (NaN: empty). */
int estout_row_extra(estout *e, double t, const tagk_real *theta, const tagk_real *sd, const double *truth,
    const double *extra);
/* 1 if theta (n: 1, or a multiple of 10) is physical. */
int estout_physical(int n, const tagk_real *theta);
/* Commit the output; unless quiet, say how many estimates were projected. */
void estout_commit(estout *e, int quiet);
/* Carry the input's note key (a fact of the log, such as tagk-regress
 * --preset px4's px4_hover_mass) to the estimate stream, for tagk-report. */
void estout_pass_note(estout *e, const tbl_reader *r, const char *key);

#endif
