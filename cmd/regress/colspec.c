/* colspec.c: --map column lists with ranges and globs; see colspec.h. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "colspec.h"

/* Append one name; exits past max. */
static void
add(const char *opt, const char *spec, char (*names)[COLSPEC_NAME], int max, int *n, const char *name, size_t len)
{
	if (*n == max)
		cli_die(EXIT_USAGE, "%s: '%s' names more than %d columns", opt, spec, max);
	if (len >= COLSPEC_NAME)
		cli_die(EXIT_USAGE, "%s: a column name in '%s' is longer than %d characters", opt, spec, COLSPEC_NAME - 1);
	memcpy(names[*n], name, len);
	names[*n][len] = 0;
	(*n)++;
}

/* A range item PREFIX{A..B}SUFFIX; 0 if item has no braces. */
static int
range(const char *opt, const char *spec, const char *item, char (*names)[COLSPEC_NAME], int max, int *n)
{
	const char *open = strchr(item, '{');
	if (!open)
		return 0;
	const char *close = strchr(open, '}');
	char *end;
	long a = close ? strtol(open + 1, &end, 10) : 0, b = 0;
	int ok = close && end > open + 1 && strncmp(end, "..", 2) == 0;
	if (ok) {
		const char *bs = end + 2;
		b = strtol(bs, &end, 10);
		ok = end > bs && end == close && a >= 0 && b >= 0 && labs(b - a) < 4096 && !strchr(close + 1, '{');
	}
	if (!ok)
		cli_die(EXIT_USAGE, "%s: '%s' is not PREFIX{A..B}SUFFIX with whole numbers A and B", opt, item);
	for (long i = a;; i += b >= a ? 1 : -1) {
		char buf[2 * COLSPEC_NAME];
		int len = snprintf(buf, sizeof(buf), "%.*s%ld%s", (int)(open - item), item, i, close + 1);
		add(opt, spec, names, max, n, buf, (size_t)len < sizeof(buf) ? (size_t)len : sizeof(buf));
		if (i == b)
			break;
	}
	return 1;
}

/* For a pattern NAME[K] that matches nothing where the column NAME.K
 * exists (pyulog's and ulog2csv's name of an array element, where tagk
 * names it NAME.K): the hint, else "". */
static const char *
bracket_hint(tbl_reader *r, const char *it)
{
	static char hint[2 * COLSPEC_NAME + 96];
	const char *lb = strrchr(it, '[');
	size_t n = strlen(it);
	if (!lb || n < 3 || it[n - 1] != ']' || n >= COLSPEC_NAME)
		return "";
	char name[COLSPEC_NAME];
	snprintf(name, sizeof(name), "%.*s.%.*s", (int)(lb - it), it, (int)(it + n - 2 - lb), lb + 1);
	if (tbl_find(r, name) < 0)
		return "";
	snprintf(hint, sizeof(hint), " ([...] is a glob's class here; the array element is the column '%s')", name);
	return hint;
}

int
colspec_expand(tbl_reader *r, const char *opt, const char *spec, char (*names)[COLSPEC_NAME], int max)
{
	char buf[4096], *items[256];
	int ni = cli_split(opt, spec, buf, sizeof(buf), items, 256), n = 0;
	for (int i = 0; i < ni; i++) {
		const char *it = items[i];
		if (range(opt, spec, it, names, max, &n))
			continue;
		if (!strpbrk(it, "*?[")) {
			add(opt, spec, names, max, &n, it, strlen(it));
			continue;
		}
		int found = 0;
		for (int c = 0; c < tbl_ncols(r); c++)
			if (fnmatch(it, tbl_col(r, c), 0) == 0) {
				add(opt, spec, names, max, &n, tbl_col(r, c), strlen(tbl_col(r, c)));
				found++;
			}
		if (!found)
			cli_die(EXIT_DATA, "%s: the pattern '%s' matches no column of %s%s", opt, it, tbl_name(r),
			    bracket_hint(r, it));
	}
	return n;
}
