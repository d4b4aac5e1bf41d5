/*
 * filter_select.h: tagk-filter's --where and --eval over a stream's
 * columns, through muParser (filter_expr.h): the expressions see the row
 * as read, and each --eval column those before it.
 */
#ifndef TAGK_FILTER_SELECT_H
#define TAGK_FILTER_SELECT_H

#include "filter_expr.h"
#include "../formats/table.h"

enum { MAXEVAL = 16 };

typedef struct {
	int nev;
	fexpr *where, *ev[MAXEVAL];
	char name[MAXEVAL][64];
	double *vals;        /* the input's columns (the row itself), then the evals */
	const double *row;
	int nc;
	long skipped;
} exprs;

/* Compile where (or NULL) and the nev NAME=EXPR evals over r's columns,
 * read from row (the caller's row buffer, which tbl_next fills); a bad
 * expression, an unknown column or a clashing name is a usage error. */
void exprs_open(exprs *x, tbl_reader *r, double *row, const char *where, const char *const *evals, int nev);
/* Evaluate the row: the --eval values into out; 0 if --where drops the
 * row. A value that is not finite is an error naming the row, or the row
 * is skipped (and counted) with skip_bad. */
int exprs_row(exprs *x, tbl_reader *r, int skip_bad, double *out);
/* Say how many rows were skipped, and free. */
void exprs_close(exprs *x);

#endif
