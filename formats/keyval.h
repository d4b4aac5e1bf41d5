/*
 * keyval.h: the one strict reader of tagk's line-based text files (the
 * vehicle file, the multi-body model file): "KEY VALUE..." per line,
 * words separated by spaces or tabs, "#" to the end of the line a comment.
 * A UTF-8 byte-order mark at the start of the file is skipped.
 *
 * Numbers are read whole, by num_parse (numconv.h): a decimal with an
 * optional sign, fraction and exponent, nothing before or after it in its
 * word. "1,5", "0.15abc", "0x1p3", "nan", "inf", a number too large for a
 * double or too small to be told from 0 are all errors, and so is a value
 * outside the range the caller states (the message names the range and
 * its unit). A key that may appear once is checked with kv_once.
 *
 * Every message is "file:line: what", on one line.
 */
#ifndef TAGK_KEYVAL_H
#define TAGK_KEYVAL_H

#include <stddef.h>
#include <stdio.h>

enum { KV_MAX_WORDS = 16, KV_LINE = 512 };

typedef struct {
	FILE *f;
	const char *path;
	int line;                     /* the line number of the words held */
	int nw;                       /* words on it, the key included */
	char *w[KV_MAX_WORDS];        /* the words: w[0] is the key */
	char buf[KV_LINE + 2];
	char *err;                    /* the caller's message buffer */
	size_t errlen;
} kv_reader;

/* Read from f (named path in messages); messages go to err. */
void kv_init(kv_reader *k, FILE *f, const char *path, char *err, size_t errlen);
/* The next line that holds a key: 1, 0 at the end, -1 on an error (a line
 * too long, more than KV_MAX_WORDS words, bytes that are not text, a read
 * error). */
int kv_next(kv_reader *k);
/* "file:line: " and the message into err; returns -1. */
int kv_fail(kv_reader *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Require exactly n values after the key, else fail with "expected 'USAGE'". */
int kv_count(kv_reader *k, int n, const char *usage);
/* Word i (1 = the first value) as a number in [lo, hi] (unit names the
 * unit in messages, "" for none); 0, or -1 with the message. */
int kv_number(kv_reader *k, int i, double lo, double hi, const char *unit, double *out);
/* The same, strictly above lo (a positive quantity: lo 0). */
int kv_positive(kv_reader *k, int i, double hi, const char *unit, double *out);
/* A key that may appear once: fail if *seen is set (naming the line that
 * set it), else record this line in *seen. */
int kv_once(kv_reader *k, int *seen);

/* Parse the whole of s as a finite decimal number; 0, or -1 (not a number,
 * not finite, out of a double's range). The rule of kv_number, for option
 * values and other single words. */
int kv_parse_number(const char *s, double *out);

#endif
