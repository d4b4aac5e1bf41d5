/*
 * table_impl.h: what the format backends (readers) of table.c share, below
 * them: the reader's state, and the helpers of table_impl.c. Each backend
 * fills in the column names at open and provides next and close; its
 * entry point is declared in table_readers.h, which table.c's dispatch,
 * above the readers, includes. Nothing here calls up into a reader or the
 * dispatch (tests/include_rules.sh checks the objects' calls).
 */
#ifndef TAGK_TABLE_IMPL_H
#define TAGK_TABLE_IMPL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "table.h"

struct tbl_reader {
	tbl_options opt;
	tbl_format format;
	char *name;
	int ncols;
	char **cols;
	char *want;          /* ncols flags */
	char *text;          /* ncols flags: a text column (tbl_want_numeric) */
	int want_numeric;    /* tbl_want_numeric was called */
	int tcol1;           /* tbl_want_time's column + 1, or 0 */
	int tstate;          /* 0 its first value unread; 1 values are read from the first's; 2 as they are */
	long double t0;      /* the first value, exact from its text (CSV) */
	char t0text[48];     /* and that text */
	char notes[TBL_NOTES][128]; /* "KEY VALUE" of #tagk-note lines, the latest TBL_NOTES */
	int nnotes, note_next; /* how many are kept (<= 8); where the next goes */
	char warnings[TBL_WARNINGS][TBL_WARNING_MAX]; /* the input's carried warnings (tbl_warning) */
	int nwarnings;
	long wdropped;       /* warnings the input had beyond those kept */
	char wmore[96];      /* and a warning that says so (tbl_warning's last) */
	long skipped;
	char unread[TBL_UNREAD_MAX]; /* "NAME\tWHY\n" per signal of the input not read (tbl_unread) */
	char err[768];
	char where[600];
	int failed;
	/* 1 a row, 0 the end, -1 an error; or TBL_ROW_FINITE, a row the
	 * reader found every cell of finite as it read it (so that tbl_next
	 * need not look at its cells again) */
	int (*next)(tbl_reader *r, double *row);
	void (*where_fn)(tbl_reader *r, char *buf, size_t len);
	void (*close)(tbl_reader *r);
	void *impl;
};

enum { TBL_ROW_FINITE = 2 };

/* Whether the n values at v are all finite: no exponent of all ones (NaN
 * or Inf), tested with three integer operations a value and no branch,
 * a loop the compiler vectorises. */
static inline int
tbl_all_finite(const double *v, int n)
{
	const uint64_t exp = UINT64_C(0x7ff0000000000000), one = UINT64_C(1) << 52;
	uint64_t carry = 0;
	for (int i = 0; i < n; i++) {
		uint64_t u;
		memcpy(&u, &v[i], sizeof(u));
		carry |= (u & exp) + one; /* bit 63 set only by an exponent of all ones */
	}
	return !(carry >> 63);
}

/* Set r->err from a printf format and mark r failed; returns -1. */
int tbl_fail(tbl_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Add a column name (copied); returns 0, or -1 out of memory. */
int tbl_add_col(tbl_reader *r, const char *name, size_t len);
/* Allocate want[] once all columns are known; check names are unique and
 * non-empty. Returns 0 or -1 with r->err set. */
int tbl_finish_header(tbl_reader *r, const char *what);
/* Keep a note's "KEY VALUE" (leading blanks dropped), the oldest of
 * TBL_NOTES going. */
void tbl_add_note(tbl_reader *r, const char *text);

/* The text after TBL_END_MARK, " N rows; check HEX" (" 1 row; ..."), into
 * *n and *check; 0, or -1 if it is not exactly that. */
int tbl_parse_end(const char *text, long long *n, uint64_t *check);
/* Check an end marker against what was read: 0, or -1 with the message
 * (the count, then the check value) set on r. what names the input. */
int tbl_check_end(tbl_reader *r, const char *where, long long count, uint64_t check, long long rows,
    uint64_t sum);

/* Say msg through tbl_on_note's function. */
void tbl_say(const char *msg);

/* hdf5_in.c's entry point, declared here too (as in table_readers.h) only
 * until hdf5_in.c includes table_readers.h: branch safety-hdf5 is
 * restructuring that file. Remove this line then. */
int tbl_hdf5_open(tbl_reader *r, const char *path);

#endif
