/*
 * filter_expr.h: tagk-filter --where and --eval, expressions over a row's
 * columns, tokenized, parsed and evaluated by muParser (Debian's
 * libmuparser-dev, through its C++ interface), not by a parser of ours,
 * but over a grammar of ours (filter_expr.cpp; tagk-filter(1) states it):
 *
 *   binary  ||  &&  < <= > >= == !=  + -  * /  ^   (loosest to tightest;
 *           ^ groups to the right, the others to the left)
 *   unary   - +  (tighter than * /, looser than ^: -a^2 is -(a^2))
 *   c ? a : b, parentheses, numbers (1, 2.5, 1e-3), the constants _pi
 *   and _e, and the functions sin cos tan asin acos atan sinh cosh tanh
 *   asinh acosh atanh exp ln log (natural) log2 log10 sqrt abs sign rint
 *   atan2(y, x) and min max sum avg (one argument or more).
 *
 * Refused when compiled, with the character where it goes wrong: the
 * assignment operators (=, +=, ...), a comma outside a function's
 * arguments, strings, any other operator, an unknown name, and a text
 * longer than FEXPR_MAXLEN.
 *
 * A column is referred to by its name when the name is one muParser can
 * read: letters, digits, '_' and '.' (acc.x, motor.m1), not starting with a
 * digit. A column named _pi or _e is the column, not the constant; a
 * column named as a function (sin) is the column unless '(' follows.
 *
 * NaN is never a quiet answer: an evaluation in which a named column is
 * NaN, or in which an operator or function meets or makes NaN (NaN > 0,
 * 0/0, sqrt(-1)), is NaN with the reason.
 */
#ifndef TAGK_FILTER_EXPR_H
#define TAGK_FILTER_EXPR_H

typedef struct fexpr fexpr;

/* The longest expression read (muParser's own limit is 20000). */
enum { FEXPR_MAXLEN = 4096 };

/* Parse text over the nvars variables names[i], whose values the caller
 * keeps in vals[i] (read at each evaluation): the expression, or NULL
 * with the reason on one line in err (len bytes). */
fexpr *fexpr_compile(const char *text, int nvars, const char *const *names, double *vals, char *err, int len);
/* The value at the variables' current values; NaN (and the reason in why,
 * len bytes) when muParser reports an error. */
double fexpr_eval(fexpr *e, char *why, int len);
void fexpr_free(fexpr *e);

#endif
