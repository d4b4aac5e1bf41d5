/* robotxml_write.c: a URDF or MJCF description with its links' inertials
 * replaced, every other byte kept; see robotxml.h. The text is edited, not
 * re-serialised (libxml2 would normalise quotes, spacing and entities):
 * a small scanner finds each body's own <inertial> element by its bytes,
 * and robotxml_read, the reader every command uses, checks the result. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "robotxml.h"

enum { NAME_MAX_LEN = 32 };

static int
wfail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* One tag at s (s[0] == '<', before end): its kind, name and extent. */
typedef struct {
	enum { T_START, T_END, T_OTHER } kind;
	int empty;               /* <.../> */
	char name[16];
	char attr_name[NAME_MAX_LEN + 1]; /* its name="..." value, raw, if short enough */
	int has_name;
	const char *end;         /* just past '>' */
} tag;

/* Skip past the first occurrence of pat in [s, end); NULL if none. */
static const char *
past(const char *s, const char *end, const char *pat)
{
	size_t k = strlen(pat);
	for (; s + k <= end; s++)
		if (memcmp(s, pat, k) == 0)
			return s + k;
	return NULL;
}

static int
name_char(char c)
{
	return c && !strchr(" \t\r\n/>=\"'", c);
}

/* The attributes of a start tag from p (after its name): name="..." kept. */
static const char *
attributes(const char *p, const char *end, tag *t)
{
	while (p < end) {
		while (p < end && strchr(" \t\r\n", *p))
			p++;
		if (p >= end)
			return NULL;
		if (*p == '>' || (*p == '/' && p + 1 < end && p[1] == '>')) {
			t->empty = *p == '/';
			return p + (t->empty ? 2 : 1);
		}
		const char *a = p;
		while (p < end && name_char(*p))
			p++;
		size_t al = (size_t)(p - a);
		while (p < end && strchr(" \t\r\n", *p))
			p++;
		if (p >= end || *p != '=' || al == 0)
			return NULL;
		for (p++; p < end && strchr(" \t\r\n", *p); p++)
			;
		if (p >= end || (*p != '"' && *p != '\''))
			return NULL;
		const char *v = p + 1, *q = memchr(v, *p, (size_t)(end - v));
		if (!q)
			return NULL;
		if (al == 4 && memcmp(a, "name", 4) == 0 && (size_t)(q - v) <= NAME_MAX_LEN) {
			memcpy(t->attr_name, v, (size_t)(q - v));
			t->attr_name[q - v] = 0;
			t->has_name = 1;
		}
		p = q + 1;
	}
	return NULL;
}

/* The tag at s; 0, or -1 for a tag the scanner cannot read (unterminated). */
static int
scan_tag(const char *s, const char *end, tag *t)
{
	memset(t, 0, sizeof(*t));
	t->kind = T_OTHER;
	static const char *const skips[][2] = { { "<!--", "-->" }, { "<![CDATA[", "]]>" }, { "<?", "?>" }, { "<!", ">" } };
	for (size_t i = 0; i < sizeof(skips) / sizeof(skips[0]); i++) {
		size_t k = strlen(skips[i][0]);
		if ((size_t)(end - s) >= k && memcmp(s, skips[i][0], k) == 0)
			return (t->end = past(s + k, end, skips[i][1])) ? 0 : -1;
	}
	const char *p = s + 1;
	if (p < end && *p == '/') {
		t->kind = T_END;
		p++;
	} else
		t->kind = T_START;
	const char *nm = p;
	while (p < end && name_char(*p))
		p++;
	size_t nl = (size_t)(p - nm);
	memcpy(t->name, nm, nl < sizeof(t->name) - 1 ? nl : sizeof(t->name) - 1);
	if (t->kind == T_END) {
		const char *g = memchr(p, '>', (size_t)(end - p));
		return (t->end = g ? g + 1 : NULL) ? 0 : -1;
	}
	return (t->end = attributes(p, end, t)) ? 0 : -1;
}

/* Where body name's own <inertial> is: [*a, *b) to replace (an empty span
 * after the body's start tag when it has none). 0, or -1 with why. */
static int
find_inertial(const char *buf, size_t n, const char *elem, const char *name, size_t *a, size_t *b, char *err,
    size_t len)
{
	const char *end = buf + n, *s = buf;
	tag t;
	while ((s = memchr(s, '<', (size_t)(end - s)))) {
		if (scan_tag(s, end, &t) != 0)
			return wfail(err, len, "a tag the rewriter cannot read at byte %zu", (size_t)(s - buf));
		if (t.kind != T_START || strcmp(t.name, elem) != 0 || !t.has_name || strcmp(t.attr_name, name) != 0) {
			s = t.end;
			continue;
		}
		if (t.empty)
			return wfail(err, len, "<%s name=\"%s\"/> is empty: give it an <inertial> to replace", elem, name);
		int depth = 0;
		*a = *b = (size_t)(t.end - buf);
		for (s = t.end; (s = memchr(s, '<', (size_t)(end - s))); s = t.end) {
			const char *at = s;
			if (scan_tag(s, end, &t) != 0)
				return wfail(err, len, "a tag the rewriter cannot read at byte %zu", (size_t)(s - buf));
			if (t.kind == T_START && depth == 0 && strcmp(t.name, "inertial") == 0) {
				*a = (size_t)(at - buf);
				if (t.empty) {
					*b = (size_t)(t.end - buf);
					return 0;
				}
				const char *e = past(t.end, end, "</inertial");
				const char *g = e ? memchr(e, '>', (size_t)(end - e)) : NULL;
				if (!g)
					return wfail(err, len, "<%s name=\"%s\">: an unterminated <inertial>", elem, name);
				*b = (size_t)(g + 1 - buf);
				return 0;
			}
			if (t.kind == T_START && !t.empty)
				depth++;
			else if (t.kind == T_END && depth-- == 0)
				return 0; /* the body's own end: no inertial, insert */
		}
		return wfail(err, len, "<%s name=\"%s\"> is not closed", elem, name);
	}
	return wfail(err, len, "no <%s name=\"%s\"> in the text (a name written with an entity?)", elem, name);
}

/* The inertial element for theta (about the body origin) in buf (len). */
static int
inertial_text(int urdf, const tagk_real *theta, char *buf, size_t len)
{
	tagk_real c[3], I[9];
	if (!tagk_theta_to_body(theta, c, I))
		return -1;
	double m = (double)theta[0];
	if (urdf)
		return snprintf(buf, len, "<inertial><origin xyz=\"%.17g %.17g %.17g\" rpy=\"0 0 0\"/><mass value=\"%.17g\"/>"
		    "<inertia ixx=\"%.17g\" ixy=\"%.17g\" ixz=\"%.17g\" iyy=\"%.17g\" iyz=\"%.17g\" izz=\"%.17g\"/>"
		    "</inertial>", (double)c[0], (double)c[1], (double)c[2], m, (double)I[0], (double)I[1], (double)I[2],
		    (double)I[4], (double)I[5], (double)I[8]) < (int)len ? 0 : -1;
	/* MJCF: the principal form (quat, diaginertia), which MuJoCo takes as
	 * it is; given fullinertia it diagonalises with an eigensolver that
	 * stops near 1e-7 (tests/robotxml_oracle.c), which would put its
	 * torques off ours by that much */
	tagk_real w[3], V[9], sc[9], q[4];
	if (tagk_symeig(3, I, w, V, sc) != TAGK_OK)
		return -1;
	if (V[0] * (V[4] * V[8] - V[5] * V[7]) - V[1] * (V[3] * V[8] - V[5] * V[6]) + V[2] * (V[3] * V[7] - V[4] * V[6]) < 0)
		for (int i = 0; i < 3; i++)
			V[3 * i + 2] = -V[3 * i + 2]; /* a rotation: columns right-handed */
	tagk_qfrommatrix(V, q);
	return snprintf(buf, len, "<inertial pos=\"%.17g %.17g %.17g\" quat=\"%.17g %.17g %.17g %.17g\" mass=\"%.17g\" "
	    "diaginertia=\"%.17g %.17g %.17g\"/>", (double)c[0], (double)c[1], (double)c[2], (double)q[0], (double)q[1],
	    (double)q[2], (double)q[3], m, (double)w[0], (double)w[1], (double)w[2]) < (int)len ? 0 : -1;
}

/* "robot" (URDF) or "mujoco" (MJCF): the first element's name. */
static int
is_urdf(const char *buf, size_t n)
{
	const char *end = buf + n, *s = buf;
	tag t;
	while ((s = memchr(s, '<', (size_t)(end - s))) && scan_tag(s, end, &t) == 0) {
		if (t.kind == T_START)
			return strcmp(t.name, "robot") == 0;
		s = t.end;
	}
	return 0;
}

typedef struct {
	size_t a, b;
	int body;
} span;

static int
by_start(const void *x, const void *y)
{
	const span *p = x, *q = y;
	return (p->a > q->a) - (p->a < q->a);
}

/* buf with span i replaced by body sp[i].body's inertial for theta: into
 * a new buffer (*out, *outlen); 0 or -1. */
static int
assemble(const char *buf, size_t n, int urdf, const span *sp, int ns, const tagk_real *theta, char **out,
    size_t *outlen)
{
	enum { ELEM = 640 };
	char *o = malloc(n + (size_t)ns * ELEM + 1), el[ELEM];
	if (!o)
		return -1;
	size_t at = 0, w = 0;
	for (int i = 0; i < ns; i++) {
		if (inertial_text(urdf, theta + TAGK_NPARAM * sp[i].body, el, sizeof(el)) != 0) {
			free(o);
			return -1;
		}
		memcpy(o + w, buf + at, sp[i].a - at);
		w += sp[i].a - at;
		size_t l = strlen(el);
		memcpy(o + w, el, l);
		w += l;
		at = sp[i].b;
	}
	memcpy(o + w, buf + at, n - at);
	w += n - at;
	o[w] = 0;
	*out = o;
	*outlen = w;
	return 0;
}

/* The worst body's difference of a from b, relative to b's largest entry. */
static double
worst_diff(const mbmodel *a, const mbmodel *b, int *which)
{
	double worst = 0;
	for (int k = 1; k < b->m.nb; k++) {
		double d = 0, s = 0;
		for (int i = 0; i < TAGK_NPARAM; i++) {
			d = fmax(d, fabs((double)(a->theta[TAGK_NPARAM * k + i] - b->theta[TAGK_NPARAM * k + i])));
			s = fmax(s, fabs((double)b->theta[TAGK_NPARAM * k + i]));
		}
		if (d / (s > 0 ? s : 1) > worst || !(d == d)) {
			worst = d == d ? d / (s > 0 ? s : 1) : (double)INFINITY;
			*which = k;
		}
	}
	return worst;
}

int
robotxml_rewrite_buf(const char *buf, size_t n, const char *path, const mbmodel *target, char **out,
    size_t *outlen, char *err, size_t len)
{
	static mbmodel orig, rb;
	static span sp[TAGK_MB_MAX_BODIES];
	static tagk_real p[TAGK_NPARAM * TAGK_MB_MAX_BODIES];
	*out = NULL;
	if (robotxml_read(buf, n, path, &orig, err, len) != 0)
		return -1;
	if (orig.m.nb != target->m.nb)
		return wfail(err, len, "%s: %d bodies, the model written back %d", path, orig.m.nb, target->m.nb);
	const int urdf = is_urdf(buf, n), ns = orig.m.nb - 1;
	for (int k = 1; k <= ns; k++) {
		if (strcmp(orig.name[k], target->name[k]) != 0)
			return wfail(err, len, "%s: body %d is '%s', the model's '%s'", path, k, orig.name[k], target->name[k]);
		char e[300];
		if (find_inertial(buf, n, urdf ? "link" : "body", orig.name[k], &sp[k - 1].a, &sp[k - 1].b, e, sizeof(e)))
			return wfail(err, len, "%s: %s", path, e);
		sp[k - 1].body = k;
	}
	qsort(sp, (size_t)ns, sizeof(span), by_start);
	memcpy(p, target->theta, sizeof(p));
	/* read back = own + merged children's (constant): one correction
	 * makes it exact when the body's frame is its element's */
	for (int pass = 0; pass < 2; pass++) {
		free(*out);
		if (assemble(buf, n, urdf, sp, ns, p, out, outlen) != 0) {
			free(*out), *out = NULL;
			return wfail(err, len, "%s: a body's own inertial would be massless (its fixed children outweigh it)",
			    path);
		}
		char e[600];
		if (robotxml_read(*out, *outlen, path, &rb, e, sizeof(e)) != 0) {
			free(*out), *out = NULL;
			return wfail(err, len, "the rewritten description does not read back (%s): a link's own inertial would "
			    "have to be unphysical (fixed children heavier than it, or an MJCF joint pos off its body's "
			    "origin); write the model file instead", e);
		}
		for (int i = TAGK_NPARAM; pass == 0 && i < TAGK_NPARAM * orig.m.nb; i++)
			p[i] += target->theta[i] - rb.theta[i];
	}
	int k = 0;
	double d = worst_diff(&rb, target, &k);
	if (!(d <= 1e-9)) {
		free(*out), *out = NULL;
		return wfail(err, len, "%s: body '%s' reads back %.2g off (relative): its frame is not its element's (an "
		    "MJCF joint pos off the body origin?); write the model file instead", path, target->name[k], d);
	}
	return 0;
}

int
robotxml_rewrite(const char *path, const mbmodel *target, char **out, size_t *outlen, char *err, size_t len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return wfail(err, len, "%s: cannot open", path);
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap || cap >= ((size_t)64 << 20))
			break;
		char *nb = realloc(buf, cap * 2);
		if (!nb)
			free(buf);
		buf = nb;
		cap *= 2;
	}
	int bad = ferror(f) || !buf || n == cap;
	fclose(f);
	if (bad) {
		free(buf);
		return wfail(err, len, "%s: cannot read (or larger than 64 MiB)", path);
	}
	int rc = robotxml_rewrite_buf(buf, n, path, target, out, outlen, err, len);
	free(buf);
	return rc;
}
