/* progress.c: progress and time left on stderr; see progress.h. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "progress.h"
#include "../cmd/common/cli.h"

void
progress_init(progress *p, const char *what, long total, progress_mode mode)
{
	p->what = what;
	p->total = total;
	p->mode = mode;
	p->tty = isatty(2);
	p->t0 = p->last = cli_seconds();
	p->shown = 0;
	p->lines = 0;
}

void
progress_step(progress *p, long done)
{
	if (p->mode == PROGRESS_QUIET || done <= 0)
		return;
	double t = cli_seconds();
	int in_place = p->mode == PROGRESS_AUTO && p->tty;
	double every = in_place ? 0.25 : p->mode == PROGRESS_LINES ? 2 : 10;
	/* --progress answers at once: its first line comes with the first unit */
	int first = p->mode == PROGRESS_LINES && p->lines == 0;
	if (t - p->last < every && done < p->total && !first)
		return;
	if (!in_place && done >= p->total)
		return; /* the command's own summary follows */
	p->last = t;
	double el = t - p->t0, left = el / (double)done * (double)(p->total - done);
	long s = (long)(left + 0.5);
	fprintf(stderr, "%s%s: %ld/%ld (%.0f %%), %.0f s elapsed, about %ld:%02ld left%s", in_place ? "\r" : "",
	    p->what, done, p->total, 100.0 * (double)done / (double)p->total, el, s / 60, s % 60,
	    in_place ? "   " : "\n");
	p->shown |= in_place;
	p->lines += !in_place;
}

void
progress_end(progress *p)
{
	if (p->shown)
		fprintf(stderr, "\r%70s\r", "");
	p->shown = 0;
}
