/*
 * filter_expr.h: tagk-filter --where and --eval, expressions over a row's
 * columns, parsed and evaluated by muParser (Debian's libmuparser-dev; its
 * C interface), not by a parser of ours: arithmetic, comparisons, && || !,
 * ?:, and functions such as sqrt, abs, min, max, exp, log, sin.
 *
 * A column is referred to by its name when the name is one muParser can
 * read: letters, digits, '_' and '.' (acc.x, motor.m1), not starting with a
 * digit. Other columns cannot be named; a name that is neither a column nor
 * a function is an error naming it.
 */
#ifndef TAGK_FILTER_EXPR_H
#define TAGK_FILTER_EXPR_H

typedef struct fexpr fexpr;

/* Parse text over the nvars variables names[i], whose values the caller
 * keeps in vals[i] (read at each evaluation): the expression, or NULL
 * with the reason on one line in err (len bytes). */
fexpr *fexpr_compile(const char *text, int nvars, const char *const *names, double *vals, char *err, int len);
/* The value at the variables' current values; NaN (and the reason in why,
 * len bytes) when muParser reports an error. */
double fexpr_eval(fexpr *e, char *why, int len);
void fexpr_free(fexpr *e);

#endif
