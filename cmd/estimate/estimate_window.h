/*
 * estimate_window.h: tagk-estimate's window methods (the Kaczmarz family,
 * RLS, KF, and any window method of the registry): reads a regressor stream
 * (t, row, Y_*, b, true_*), groups consecutive rows with the same t into one
 * sample, keeps a window of the last N samples (or seconds) and runs the
 * method every K; each successful update writes t, the estimate and the
 * true_* values of the window's last sample. With --detect each window is
 * first tested for a change (estimate_detect.h); on one the RLS and KF
 * methods re-open (tagk_est_reopen) and the row says so in its columns
 * event (1) and event_t (the change's time).
 */
#ifndef TAGK_ESTIMATE_WINDOW_H
#define TAGK_ESTIMATE_WINDOW_H

#include "../formats/table.h"
#include "../lib/tagk.h"

typedef struct {
	tagk_config cfg;      /* the method with its options set; n and m_max are
	                       * set from the stream */
	double win, every;    /* samples, or seconds when win_s / every_s */
	int win_s, every_s;
	int max_window;       /* samples a window in seconds may hold */
	int verbose, quiet;
	const char *outname;
	tbl_options in;
	const double *theta0; /* ntheta0 starting values, or NULL for the method's */
	int ntheta0;
	int raw;              /* rigid body: no projection onto the physical bodies */
	double detect_arl;    /* --detect: mean seconds between false alarms; 0 off */
	int no_fit_check;     /* --no-fit-check: no model-fit check after estimation (rowfit.h) */
} window_opts;

/* Run; exits through cli_die on any failure, returns the exit status. */
int estimate_window(const window_opts *o, const char *input);

#endif
