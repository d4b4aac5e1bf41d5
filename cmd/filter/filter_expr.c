/* filter_expr.c: tagk-filter's expressions, through muParser; see filter_expr.h. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <muParserDLL.h>
#include "filter_expr.h"

struct fexpr {
	muParserHandle_t h;
};

static const char name_chars[] = "0123456789_.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/* 1 if muParser can read name as a variable's name. */
static int
readable_name(const char *name)
{
	if (!*name || isdigit((unsigned char)*name) || *name == '.')
		return 0;
	return strspn(name, name_chars) == strlen(name);
}

/* muParser's reason for the last error, on one line. */
static void
reason(muParserHandle_t h, char *err, int len)
{
	const char *tok = mupGetErrorToken(h);
	if (mupGetErrorCode(h) == 1 && tok && *tok)
		snprintf(err, (size_t)len, "unknown name '%s' (not a column of the input, nor a function)", tok);
	else
		snprintf(err, (size_t)len, "%s", mupGetErrorMsg(h));
	for (char *c = err; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
}

fexpr *
fexpr_compile(const char *text, int nvars, const char *const *names, double *vals, char *err, int len)
{
	fexpr *e = malloc(sizeof(*e));
	if (!e || !(e->h = mupCreate(muBASETYPE_FLOAT))) {
		free(e);
		snprintf(err, (size_t)len, "out of memory");
		return NULL;
	}
	mupDefineNameChars(e->h, name_chars);
	for (int i = 0; i < nvars; i++) {
		if (!readable_name(names[i]))
			continue;
		mupDefineVar(e->h, names[i], &vals[i]);
		/* a column named as a function or constant cannot be a variable */
		if (mupError(e->h))
			mupErrorReset(e->h);
	}
	mupSetExpr(e->h, text);
	if (!mupError(e->h))
		(void)mupEval(e->h); /* parses: a syntax error is found here */
	if (mupError(e->h)) {
		reason(e->h, err, len);
		fexpr_free(e);
		return NULL;
	}
	return e;
}

double
fexpr_eval(fexpr *e, char *why, int len)
{
	double v = mupEval(e->h);
	if (mupError(e->h)) {
		snprintf(why, (size_t)len, "%s", mupGetErrorMsg(e->h));
		mupErrorReset(e->h);
		return (double)NAN;
	}
	return v;
}

void
fexpr_free(fexpr *e)
{
	if (e) {
		mupRelease(e->h);
		free(e);
	}
}
