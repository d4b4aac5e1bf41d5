/*
 * table_readers.h: the readers' entry points, for table.c's dispatch (tbl_open)
 * above them: each fills r's columns and its next, where_fn and close, or
 * returns -1 with r->err set (tbl_fail). Only table.c and the readers
 * include this (tests/include_rules.sh).
 */
#ifndef TAGK_TABLE_READERS_H
#define TAGK_TABLE_READERS_H

#include <stdio.h>
#include "table.h"

int tbl_csv_open(tbl_reader *r, FILE *f);                 /* csv_in.c */
int tbl_hdf5_open(tbl_reader *r, const char *path);       /* hdf5_in.c */
int tbl_cfusd_open(tbl_reader *r, FILE *f, int seekable); /* cfusd_in.c */
int tbl_binary_open(tbl_reader *r, FILE *f);              /* binary_in.c */
/* ulog_in.c: read the first 7 bytes of *f and replace *f by a stream that
 * gives them again, then the rest: 1 if they are the ULog magic, 0 if not,
 * -1 out of memory (*f unchanged). */
int tbl_ulog_sniff(FILE **f);
int tbl_ulog_open(tbl_reader *r, FILE *f);                /* ulog_in.c */

#endif
