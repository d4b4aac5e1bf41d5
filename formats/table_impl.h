/*
 * table_impl.h: what the format backends of table.c share. Each backend
 * fills in the column names at open and provides next and close.
 */
#ifndef TAGK_TABLE_IMPL_H
#define TAGK_TABLE_IMPL_H

#include <stdint.h>
#include <stdio.h>
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
	char notes[TBL_NOTES][128]; /* "KEY VALUE" of #tagk-note lines, the latest TBL_NOTES */
	int nnotes, note_next; /* how many are kept (<= 8); where the next goes */
	long skipped;
	char unread[TBL_UNREAD_MAX]; /* "NAME\tWHY\n" per signal of the input not read (tbl_unread) */
	char err[768];
	char where[600];
	int failed;
	int (*next)(tbl_reader *r, double *row);
	void (*where_fn)(tbl_reader *r, char *buf, size_t len);
	void (*close)(tbl_reader *r);
	void *impl;
};

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

int tbl_csv_open(tbl_reader *r, FILE *f);
int tbl_hdf5_open(tbl_reader *r, const char *path);
int tbl_cfusd_open(tbl_reader *r, FILE *f, int seekable);
int tbl_binary_open(tbl_reader *r, FILE *f);
/* Read the first 7 bytes of *f and replace *f by a stream that gives them
 * again, then the rest: 1 if they are the ULog magic, 0 if not, -1 out of
 * memory (*f unchanged). */
int tbl_ulog_sniff(FILE **f);
int tbl_ulog_open(tbl_reader *r, FILE *f);

#endif
