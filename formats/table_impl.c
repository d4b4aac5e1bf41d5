/* table_impl.c: what every reader of table.c's dispatch shares (table_impl.h):
 * messages, the header's columns, the end marker, notes. Below the readers:
 * it calls none of them, nor the dispatch above them. */
#include <errno.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "table_impl.h"

void
tbl_one_line(char *out, size_t outlen, const char *in)
{
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)in; *p && n + 5 < outlen; p++) {
		if (*p >= 0x20 && *p != 0x7f) {
			out[n++] = (char)*p;
			continue;
		}
		out[n++] = '\\';
		switch (*p) {
		case '\n': out[n++] = 'n'; break;
		case '\r': out[n++] = 'r'; break;
		case '\t': out[n++] = 't'; break;
		default: n += (size_t)snprintf(out + n, outlen - n, "x%02x", *p); break;
		}
	}
	if (outlen)
		out[n] = 0;
}

int
tbl_fail(tbl_reader *r, const char *fmt, ...)
{
	char raw[sizeof(r->err)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	/* cell text and names from the file may hold line breaks */
	tbl_one_line(r->err, sizeof(r->err), raw);
	r->failed = 1;
	return -1;
}

int
tbl_add_col(tbl_reader *r, const char *name, size_t len)
{
	char **c = realloc(r->cols, (size_t)(r->ncols + 1) * sizeof(*c));
	if (!c)
		return -1;
	r->cols = c;
	c[r->ncols] = malloc(len + 1);
	if (!c[r->ncols])
		return -1;
	memcpy(c[r->ncols], name, len);
	c[r->ncols][len] = 0;
	r->ncols++;
	return 0;
}

int
tbl_finish_header(tbl_reader *r, const char *what)
{
	if (r->ncols == 0)
		return tbl_fail(r, "%s: no columns", what);
	/* pandas' df.to_csv() writes its index as a first column without a
	 * name; call it "index", as pandas' reset_index() does */
	if (r->ncols > 1 && !r->cols[0][0] && tbl_find(r, "index") < 0) {
		char *n = strdup("index");
		if (!n)
			return tbl_fail(r, "out of memory");
		free(r->cols[0]);
		r->cols[0] = n;
	}
	for (int i = 0; i < r->ncols; i++) {
		if (!r->cols[i][0])
			return tbl_fail(r, "%s: column %d has no name", what, i + 1);
		for (int j = 0; j < i; j++)
			if (strcmp(r->cols[i], r->cols[j]) == 0)
				return tbl_fail(r, "%s: duplicate column '%s'", what, r->cols[i]);
	}
	r->want = calloc((size_t)r->ncols, 1);
	r->text = calloc((size_t)r->ncols, 1);
	return r->want && r->text ? 0 : tbl_fail(r, "out of memory");
}

int
tbl_parse_end(const char *text, long long *n, uint64_t *check)
{
	const char *p = text;
	if (*p++ != ' ' || *p < '0' || *p > '9')
		return -1;
	char *end;
	errno = 0;
	long long count = strtoll(p, &end, 10);
	if (errno || count < 0)
		return -1;
	const char *tail = count == 1 ? " row; check " : " rows; check ";
	if (strncmp(end, tail, strlen(tail)) != 0)
		return -1;
	p = end + strlen(tail);
	uint64_t h = 0;
	int digits = 0;
	for (; *p; p++, digits++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;
		if (d < 0 || digits == 16)
			return -1;
		h = h << 4 | (uint64_t)d;
	}
	if (digits != 16)
		return -1;
	*n = count;
	*check = h;
	return 0;
}

int
tbl_check_end(tbl_reader *r, const char *where, long long count, uint64_t check, long long rows, uint64_t sum)
{
	if (count != rows)
		return tbl_fail(r, "%s: the end marker counts %lld rows but %lld were read: rows were removed or "
		    "added after tagk wrote the stream (to read what is left as plain CSV: grep -v '^#tagk-')", where,
		    count, rows);
	if (check != sum)
		return tbl_fail(r, "%s: the stream's check value does not match its rows: it was altered, or "
		    "spliced from two streams, after tagk wrote it (to read it anyway as plain CSV: "
		    "grep -v '^#tagk-')", where);
	return 0;
}

int
tbl_find(const tbl_reader *r, const char *name)
{
	for (int i = 0; i < r->ncols; i++)
		if (strcmp(r->cols[i], name) == 0)
			return i;
	return -1;
}

/* The process's carried warnings (table.h). */
static char carried[TBL_WARNINGS][TBL_WARNING_MAX];
static int ncarried;
static long dropped;

/* 1 if msg is among the n kept in list (compared as a copy would be cut). */
static int
kept_already(char (*list)[TBL_WARNING_MAX], int n, const char *msg)
{
	for (int i = 0; i < n; i++)
		if (strncmp(list[i], msg, TBL_WARNING_MAX - 1) == 0)
			return 1;
	return 0;
}

/* n added to *count, which stays at most a billion (a file may state any
 * count). */
static void
add_count(long *count, long n)
{
	*count = *count + n > 1000000000L ? 1000000000L : *count + n;
}

/* How many warnings msg says were not carried, if it is the line a sink
 * writes for them (write_warnings in sink.c), else 0: read back, it adds
 * to the count instead of taking a warning's place, so that the count
 * survives each command of a pipeline. */
static long
overflow_count(const char *msg)
{
	long n = 0;
	char tail[8];
	if (sscanf(msg, "tagk: %ld more warnings upstream, not carried (the first %*d are%7s", &n, tail) == 2 &&
	    strcmp(tail, ")") == 0 && n > 0)
		return n;
	return 0;
}

void
tbl_carry(const char *msg)
{
	long more = overflow_count(msg);
	if (more) {
		add_count(&dropped, more);
		return;
	}
	if (kept_already(carried, ncarried, msg))
		return;
	if (ncarried == TBL_WARNINGS) {
		add_count(&dropped, 1);
		return;
	}
	tbl_one_line(carried[ncarried++], TBL_WARNING_MAX, msg);
}

int
tbl_ncarried(void)
{
	return ncarried;
}

const char *
tbl_carried(int i)
{
	return i >= 0 && i < ncarried ? carried[i] : NULL;
}

long
tbl_carried_dropped(void)
{
	return dropped;
}

int
tbl_nwarnings(const tbl_reader *r)
{
	return r->nwarnings + (r->wdropped > 0);
}

const char *
tbl_warning(const tbl_reader *r, int i)
{
	if (i == r->nwarnings && r->wdropped > 0)
		return r->wmore;
	return i >= 0 && i < r->nwarnings ? r->warnings[i] : NULL;
}

/* A "warning PROG: MESSAGE" note: kept as the input's warning and carried
 * on, not as a note; as one line of printable text (tbl_one_line), since a
 * report prints it. */
static void
add_warning(tbl_reader *r, const char *msg)
{
	long more = overflow_count(msg);
	if (!more && kept_already(r->warnings, r->nwarnings, msg))
		more = 0;
	else if (!more && r->nwarnings < TBL_WARNINGS)
		tbl_one_line(r->warnings[r->nwarnings++], TBL_WARNING_MAX, msg);
	else
		add_count(&r->wdropped, more ? more : 1);
	if (r->wdropped)
		snprintf(r->wmore, sizeof(r->wmore), "tagk: %ld more warnings upstream, not kept (the first %d are)",
		    r->wdropped, r->nwarnings);
	tbl_carry(msg);
}

void
tbl_add_note(tbl_reader *r, const char *text)
{
	while (*text == ' ')
		text++;
	size_t k = strlen(TBL_WARNING_KEY);
	if (strncmp(text, TBL_WARNING_KEY, k) == 0 && text[k] == ' ') {
		add_warning(r, text + k + 1);
		return;
	}
	/* printable, as a warning is: a report prints notes (the method's
	 * name) and a sink writes them on */
	tbl_one_line(r->notes[r->note_next], sizeof(r->notes[0]), text);
	r->note_next = (r->note_next + 1) % TBL_NOTES;
	if (r->nnotes < TBL_NOTES)
		r->nnotes++;
}

/* The readers' notes (a cut last line, ...) go through the function the
 * command set with tbl_on_note (table.h), or to stderr before it has. */
static void (*note_fn)(const char *msg);

void
tbl_on_note(void (*fn)(const char *msg))
{
	note_fn = fn;
}

void
tbl_say(const char *msg)
{
	if (note_fn)
		note_fn(msg);
	else
		fprintf(stderr, "%s\n", msg);
}
