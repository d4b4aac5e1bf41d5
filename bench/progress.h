/*
 * progress.h: progress with an estimate of the time left, on stderr, for the
 * long benchmark runs (table2, rmspe). On a terminal one line is rewritten
 * in place a few times a second; into a file or pipe (a batch job's log)
 * a new line is written every 10 s, so that a log holds no carriage-return
 * spam. --progress writes a line once the first unit is done, then every
 * 2 s, even on a terminal; -q nothing.
 */
#ifndef TAGK_PROGRESS_H
#define TAGK_PROGRESS_H

typedef enum { PROGRESS_AUTO, PROGRESS_LINES, PROGRESS_QUIET } progress_mode;

typedef struct {
	const char *what;
	long total;
	progress_mode mode;
	int tty;
	double t0, last;
	int shown; /* something was printed in place */
	int lines; /* lines printed (--progress) */
} progress;

void progress_init(progress *p, const char *what, long total, progress_mode mode);
/* done of total units are finished. */
void progress_step(progress *p, long done);
/* Clear the in-place line, if any. */
void progress_end(progress *p);

#endif
