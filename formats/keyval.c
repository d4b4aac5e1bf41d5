/* keyval.c: the strict line reader of tagk's text files; see keyval.h. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include "keyval.h"
#include "numconv.h"

void
kv_init(kv_reader *k, FILE *f, const char *path, char *err, size_t errlen)
{
	memset(k, 0, sizeof(*k));
	k->f = f;
	k->path = path;
	k->err = err;
	k->errlen = errlen;
}

int
kv_fail(kv_reader *k, const char *fmt, ...)
{
	int n = snprintf(k->err, k->errlen, "%s:%d: ", k->path, k->line);
	if (n < 0 || (size_t)n >= k->errlen)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(k->err + n, k->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	/* words from the file are printable (checked by kv_next) */
	return -1;
}

/* One line into k->buf without its end (LF, CR LF or CR): 1, 0 at the
 * end of the input, -1 on an error. A NUL byte is an error, not an end. */
static int
read_line(kv_reader *k)
{
	size_t n = 0;
	int c;
	while ((c = getc(k->f)) != EOF && c != '\n' && c != '\r') {
		if (c == 0) {
			k->line++;
			/* UTF-16 (Windows' "Unicode" text) has one in its first
			 * character, after its mark FF FE or FE FF or not */
			int wide = k->line == 1 && (n <= 1 || (n <= 3 && (unsigned char)k->buf[0] >= 0xfe));
			return kv_fail(k, "a NUL byte: not a text file of tagk's%s", wide ? " (UTF-16 text? convert "
			    "it to UTF-8 first, e.g. iconv -f UTF-16 -t UTF-8 FILE)" : "");
		}
		if (n == KV_LINE) {
			k->line++;
			return kv_fail(k, "a line longer than %d characters", KV_LINE);
		}
		k->buf[n++] = (char)c;
	}
	if (c == '\r') {
		int d = getc(k->f);
		if (d != '\n' && d != EOF)
			ungetc(d, k->f);
	}
	k->buf[n] = 0;
	if (c == EOF && ferror(k->f)) {
		snprintf(k->err, k->errlen, "%s: %s", k->path, strerror(errno));
		return -1;
	}
	if (c == EOF && n == 0)
		return 0;
	k->line++;
	/* a UTF-8 byte-order mark (Windows editors write one) is not text:
	 * kept, it made the first key 'ï»¿mass' */
	if (k->line == 1 && n >= 3 && memcmp(k->buf, "\xef\xbb\xbf", 3) == 0)
		memmove(k->buf, k->buf + 3, n - 3 + 1);
	return 1;
}

int
kv_next(kv_reader *k)
{
	for (;;) {
		int rc = read_line(k);
		if (rc <= 0)
			return rc;
		char *hash = strchr(k->buf, '#');
		if (hash)
			*hash = 0;
		k->nw = 0;
		for (char *p = k->buf; *p;) {
			unsigned char ch = (unsigned char)*p;
			if (ch == ' ' || ch == '\t') {
				*p++ = 0;
				continue;
			}
			if (ch < 0x20 || ch == 0x7f)
				return kv_fail(k, "a control character (0x%02x): not a text file of tagk's", ch);
			if (k->nw == KV_MAX_WORDS)
				return kv_fail(k, "more than %d words on a line", KV_MAX_WORDS);
			k->w[k->nw++] = p;
			while (*p && *p != ' ' && *p != '\t')
				p++;
		}
		if (k->nw)
			return 1;
	}
}

int
kv_count(kv_reader *k, int n, const char *usage)
{
	if (k->nw - 1 != n)
		return kv_fail(k, "expected '%s' (%d value%s, found %d)", usage, n, n == 1 ? "" : "s", k->nw - 1);
	return 0;
}

int
kv_parse_number(const char *s, double *out)
{
	double v;
	size_t len = strlen(s);
	if (len == 0 || num_parse(s, len, &v) != 0 || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* x as %g writes it, with the exponent's "+" and leading zeros dropped
 * (1e6, 1e-4): the ranges in messages read as the user writes numbers. */
static const char *
bound(char *buf, size_t len, double x)
{
	snprintf(buf, len, "%g", x);
	char *e = strchr(buf, 'e');
	if (e) {
		char *d = e + 1, *p = e + 1;
		if (*p == '+')
			p++;
		else if (*p == '-')
			*d++ = *p++;
		while (*p == '0' && p[1])
			p++;
		memmove(d, p, strlen(p) + 1);
	}
	return buf;
}

int
kv_number(kv_reader *k, int i, double lo, double hi, const char *unit, double *out)
{
	if (i >= k->nw)
		return kv_fail(k, "'%s': a value is missing", k->w[0]);
	const char *s = k->w[i];
	double v;
	size_t len = strlen(s);
	int rc = num_parse(s, len, &v);
	if (rc == NUM_UNDERFLOW)
		return kv_fail(k, "'%s': '%.40s' is too small for a double and would read as 0", k->w[0], s);
	if (rc != 0)
		return kv_fail(k, "'%s': '%.40s' is not a number (write a decimal such as 0.15 or 1.5e-3, "
		    "with nothing else in the word)", k->w[0], s);
	if (!isfinite(v))
		return kv_fail(k, "'%s': '%.40s' is not a finite number", k->w[0], s);
	char a[32], b[32];
	if (v < lo || v > hi)
		return kv_fail(k, "'%s': %.40s is outside [%s, %s]%s%s", k->w[0], s, bound(a, sizeof(a), lo),
		    bound(b, sizeof(b), hi), *unit ? " " : "", unit);
	*out = v;
	return 0;
}

int
kv_positive(kv_reader *k, int i, double hi, const char *unit, double *out)
{
	char b[32];
	double v = 0;
	if (kv_number(k, i, -INFINITY, INFINITY, unit, &v) != 0)
		return -1;
	if (!(v > 0) || v > hi)
		return kv_fail(k, "'%s': %.40s is outside (0, %s]%s%s", k->w[0], k->w[i], bound(b, sizeof(b), hi),
		    *unit ? " " : "", unit);
	*out = v;
	return 0;
}

int
kv_once(kv_reader *k, int *seen)
{
	if (*seen)
		return kv_fail(k, "'%s' again (first on line %d): each key once", k->w[0], *seen);
	*seen = k->line;
	return 0;
}
