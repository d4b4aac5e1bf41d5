/*
 * ulog_in.c: the PX4 ULog backend of table.c (PX4's "ULog File Format").
 *
 * Layout (little-endian): a 16-byte header ("ULog" 01 12 35, a version
 * byte, u64 start time in us), then messages, each a u16 payload size, a
 * type byte and the payload: B flag bits (first, optional), F formats, I/M
 * information, P/Q parameters, then A subscriptions (u8 multi_id, u16
 * msg_id, topic name), D data (u16 msg_id, the fields as the format lays
 * them out), L/C logged strings, S sync, O dropouts, R unsubscriptions.
 *
 * The file is read whole into memory (a ULog's topics are interleaved, and
 * putting them on one time base needs each topic's samples in order):
 * memory is the file's size plus 8 bytes per data message.
 *
 * Columns: "t", seconds since boot of the base topic's samples, then every
 * numeric field of every topic logged: "topic.field", array elements
 * "topic.field.0" ..., nested types "topic.field.sub", a topic's instance
 * k > 0 "topic_k.field"; padding and char fields are not columns. Rows are
 * the base topic's samples (--event TOPIC, or the first of TOPIC|TOPIC2...
 * the log has, else the wanted topic with the most samples); every other wanted topic is put on its times as
 * tagk-filter --join does (join.h): floats interpolated linearly between
 * the samples around, integers and booleans held from the sample at or
 * before, and a row outside a topic's span or in one of its gaps longer
 * than 5 times its median spacing (of its first 4097 samples) dropped and
 * counted, never filled. Parameters (P, their first value) answer
 * tbl_param.
 */
#define _GNU_SOURCE /* fopencookie */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "table_impl.h"
#include "table_readers.h"

/* UL_MAXLEAF: numeric fields in all, over every topic; a real log has tens
 * of thousands, and a file of 65536 subscriptions to a 65535-byte format
 * would ask for 4e9 (and their column names) */
enum { UL_DEPTH = 8, UL_AHEAD = 4097, UL_MAXLEAF = 1 << 20 };

static const unsigned char ulog_magic[7] = { 'U', 'L', 'o', 'g', 0x01, 0x12, 0x35 };

/* a base type: its code (a letter as Python's struct), size */
typedef struct {
	const char *name;
	char code;
	int size;
} ul_base;

static const ul_base bases[] = {
	{ "int8_t", 'b', 1 }, { "uint8_t", 'B', 1 }, { "int16_t", 'h', 2 }, { "uint16_t", 'H', 2 },
	{ "int32_t", 'i', 4 }, { "uint32_t", 'I', 4 }, { "int64_t", 'q', 8 }, { "uint64_t", 'Q', 8 },
	{ "float", 'f', 4 }, { "double", 'd', 8 }, { "bool", '?', 1 }, { "char", 'c', 1 },
};

typedef struct {
	char *type, *name; /* type without the [n] */
	int count;         /* 1, or the array length */
	int array;
} ul_field;

typedef struct {
	char *name;
	ul_field *f;
	int nf;
	int size;          /* -1 until computed; -2 while being computed */
} ul_format;

typedef struct {
	int off;           /* in the payload */
	char code;
} ul_leaf;

typedef struct {
	int used;          /* has an A message */
	int fmt;
	int multi;
	char *label;       /* topic, or topic_k */
	ul_leaf *leaf;
	int nleaf, col0;   /* its columns are col0 .. col0 + nleaf - 1 */
	int ts_off;        /* the timestamp field's offset, -1 none */
	int need;          /* payload bytes a D message must have */
	size_t *msg;       /* offsets of its D payloads, times increasing */
	long n, cap;
	long dropped;      /* samples whose time did not increase */
	/* the join */
	int wanted;
	long k;            /* the sample at or before the current time */
	double max_gap;
	long outside, gaps;
} ul_topic;

typedef struct {
	char *name;
	double v;
} ul_param;

typedef struct {
	unsigned char *buf;
	size_t len;
	ul_format *fmt;
	int nfmt;
	ul_topic *top;     /* indexed by msg_id */
	int ntop;
	ul_param *par;
	int npar;
	int base;          /* the base topic's msg_id, -1 before the first row */
	long row;          /* the base sample of the next row */
	long dropped_rows; /* base samples with no row (a topic outside its span or in a gap) */
	int noted;
	long logged, dropouts, dropout_ms;
	long leaves;       /* numeric fields of every subscription */
	uint64_t t0;
} ulin;

static uint64_t
le(const unsigned char *p, int n)
{
	uint64_t u = 0;
	for (int i = n - 1; i >= 0; i--)
		u = u << 8 | p[i];
	return u;
}

static double
decode(char code, const unsigned char *p)
{
	switch (code) {
	case 'b': return (double)(int8_t)p[0];
	case 'B': case '?': return (double)p[0];
	case 'h': return (double)(int16_t)le(p, 2);
	case 'H': return (double)le(p, 2);
	case 'i': return (double)(int32_t)le(p, 4);
	case 'I': return (double)le(p, 4);
	case 'q': return (double)(int64_t)le(p, 8);
	case 'Q': return (double)le(p, 8);
	case 'f': { uint32_t w = (uint32_t)le(p, 4); float x; memcpy(&x, &w, 4); return x; }
	default: { uint64_t w = le(p, 8); double x; memcpy(&x, &w, 8); return x; }
	}
}

static const ul_base *
base_of(const char *type)
{
	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++)
		if (strcmp(bases[i].name, type) == 0)
			return &bases[i];
	return NULL;
}

static int
find_format(const ulin *u, const char *name)
{
	for (int i = 0; i < u->nfmt; i++)
		if (strcmp(u->fmt[i].name, name) == 0)
			return i;
	return -1;
}

static char *
dupn(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

/* One field "type name" or "type[n] name" of an F message. */
static int
parse_field(tbl_reader *r, const char *s, size_t n, ul_field *f, size_t at)
{
	const char *sp = memchr(s, ' ', n);
	if (!sp || sp == s || sp + 1 == s + n)
		return tbl_fail(r, "%s:offset %zu: format field '%.*s' is not 'TYPE NAME'", r->name, at, (int)n, s);
	size_t tl = (size_t)(sp - s);
	const char *br = memchr(s, '[', tl);
	f->count = 1;
	if (br) {
		if (s[tl - 1] != ']' || br + 1 == s + tl - 1)
			return tbl_fail(r, "%s:offset %zu: format field '%.*s': bad array size", r->name, at, (int)n, s);
		long c = 0;
		for (const char *d = br + 1; d < s + tl - 1; d++) {
			if (*d < '0' || *d > '9' || c > 65535)
				return tbl_fail(r, "%s:offset %zu: format field '%.*s': bad array size", r->name, at,
				    (int)n, s);
			c = c * 10 + (*d - '0');
		}
		if (c < 1 || c > 65535)
			return tbl_fail(r, "%s:offset %zu: format field '%.*s': bad array size", r->name, at, (int)n, s);
		f->count = (int)c;
		f->array = 1;
		tl = (size_t)(br - s);
	}
	f->type = dupn(s, tl);
	f->name = dupn(sp + 1, (size_t)(s + n - sp - 1));
	if (!f->type || !f->name)
		return tbl_fail(r, "out of memory");
	return 0;
}

/* An F message: "name:type field;type field;..." */
static int
parse_format(tbl_reader *r, ulin *u, const unsigned char *p, size_t n, size_t at)
{
	const char *s = (const char *)p, *colon = memchr(s, ':', n);
	if (!colon || colon == s)
		return tbl_fail(r, "%s:offset %zu: format message without 'name:'", r->name, at);
	char *name = dupn(s, (size_t)(colon - s));
	if (!name)
		return tbl_fail(r, "out of memory");
	if (find_format(u, name) >= 0) {
		free(name);
		return tbl_fail(r, "%s:offset %zu: format '%.*s' defined twice", r->name, at, (int)(colon - s), s);
	}
	ul_format *g = realloc(u->fmt, (size_t)(u->nfmt + 1) * sizeof(*g));
	if (!g) {
		free(name);
		return tbl_fail(r, "out of memory");
	}
	u->fmt = g;
	ul_format *F = &u->fmt[u->nfmt++];
	memset(F, 0, sizeof(*F));
	F->name = name;
	F->size = -1;
	const char *q = colon + 1, *end = s + n;
	while (q < end && *q) {
		const char *semi = memchr(q, ';', (size_t)(end - q));
		const char *stop = semi ? semi : end;
		const char *nul = memchr(q, 0, (size_t)(stop - q));
		if (nul)
			stop = nul;
		if (stop > q) {
			ul_field *nf = realloc(F->f, (size_t)(F->nf + 1) * sizeof(*nf));
			if (!nf)
				return tbl_fail(r, "out of memory");
			F->f = nf;
			memset(&F->f[F->nf], 0, sizeof(ul_field));
			if (parse_field(r, q, (size_t)(stop - q), &F->f[F->nf++], at))
				return -1;
		}
		if (!semi || nul)
			break;
		q = semi + 1;
	}
	return 0;
}

/* The size of format i (its nested formats resolved), or -1 with r failed. */
static int
format_size(tbl_reader *r, ulin *u, int i, int depth)
{
	ul_format *F = &u->fmt[i];
	if (F->size >= 0)
		return F->size;
	if (F->size == -2 || depth > UL_DEPTH)
		return tbl_fail(r, "%s: format '%s' contains itself, or nests deeper than %d", r->name, F->name, UL_DEPTH);
	F->size = -2;
	long size = 0;
	for (int k = 0; k < F->nf; k++) {
		const ul_base *b = base_of(F->f[k].type);
		long s;
		if (b)
			s = b->size;
		else {
			int j = find_format(u, F->f[k].type);
			if (j < 0)
				return tbl_fail(r, "%s: format '%s', field '%s': unknown type '%s'", r->name, F->name,
				    F->f[k].name, F->f[k].type);
			if ((s = format_size(r, u, j, depth + 1)) < 0)
				return -1;
		}
		size += s * F->f[k].count;
		if (size > 65535)
			return tbl_fail(r, "%s: format '%s' is larger than a message can be", r->name, F->name);
	}
	return F->size = (int)size;
}

/* Append the leaves (numeric fields) of format i at offset off to t, and
 * their names (prefix + ".name" ...) as columns when cols. */
static int
add_leaves(tbl_reader *r, ulin *u, ul_topic *t, int i, int off, const char *prefix, int depth, int cols)
{
	ul_format *F = &u->fmt[i];
	for (int k = 0; k < F->nf; k++) {
		ul_field *f = &F->f[k];
		const ul_base *b = base_of(f->type);
		int j = b ? -1 : find_format(u, f->type);
		int sz = b ? b->size : u->fmt[j].size;
		int skip = strncmp(f->name, "_padding", 8) == 0 || (b && b->code == 'c');
		for (int e = 0; e < f->count && !skip; e++) {
			char name[512];
			int nl = f->array ? snprintf(name, sizeof(name), "%s.%s.%d", prefix, f->name, e)
			    : snprintf(name, sizeof(name), "%s.%s", prefix, f->name);
			if (nl >= (int)sizeof(name))
				return tbl_fail(r, "%s: topic %s: a field's name is too long", r->name, t->label);
			int at = off + e * sz;
			if (!b) {
				if (depth >= UL_DEPTH || add_leaves(r, u, t, j, at, name, depth + 1, cols))
					return depth >= UL_DEPTH ? tbl_fail(r, "%s: format '%s' nests too deep", r->name,
					    F->name) : -1;
				continue;
			}
			if (!cols && ++u->leaves > UL_MAXLEAF)
				return tbl_fail(r, "%s: more than %d numeric fields in all topics", r->name, UL_MAXLEAF);
			if ((t->nleaf & (t->nleaf - 1)) == 0) {
				ul_leaf *nl2 = realloc(t->leaf, (size_t)(t->nleaf ? 2 * t->nleaf : 1) * sizeof(*nl2));
				if (!nl2)
					return tbl_fail(r, "out of memory");
				t->leaf = nl2;
			}
			t->leaf[t->nleaf].off = at;
			t->leaf[t->nleaf].code = b->code;
			t->nleaf++;
			if (cols && !(r->cols[r->ncols++] = dupn(name, (size_t)nl)))
				return tbl_fail(r, "out of memory");
			if (depth == 0 && strcmp(f->name, "timestamp") == 0 && b->code == 'Q')
				t->ts_off = at;
			if (at + sz > t->need)
				t->need = at + sz;
		}
		off += sz * f->count;
	}
	return 0;
}

/* An A message: subscribe msg_id to a topic. */
static int
subscribe(tbl_reader *r, ulin *u, const unsigned char *p, size_t n, size_t at)
{
	if (n < 4)
		return tbl_fail(r, "%s:offset %zu: subscription message too short", r->name, at);
	int multi = p[0], id = (int)le(p + 1, 2);
	char *name = dupn((const char *)p + 3, n - 3);
	if (!name)
		return tbl_fail(r, "out of memory");
	int f = find_format(u, name);
	if (f < 0) {
		tbl_fail(r, "%s:offset %zu: subscription to '%s', which has no format", r->name, at, name);
		free(name);
		return -1;
	}
	free(name);
	if (id >= u->ntop) {
		ul_topic *nt = realloc(u->top, (size_t)(id + 1) * sizeof(*nt));
		if (!nt)
			return tbl_fail(r, "out of memory");
		memset(nt + u->ntop, 0, (size_t)(id + 1 - u->ntop) * sizeof(*nt));
		u->top = nt;
		u->ntop = id + 1;
	}
	ul_topic *t = &u->top[id];
	if (t->used)
		return tbl_fail(r, "%s:offset %zu: msg_id %d subscribed twice", r->name, at, id);
	for (int i = 0; i < u->ntop; i++)
		if (u->top[i].used && u->top[i].fmt == f && u->top[i].multi == multi)
			return tbl_fail(r, "%s:offset %zu: topic '%s' instance %d subscribed twice", r->name, at,
			    u->fmt[f].name, multi);
	if (format_size(r, u, f, 0) < 0)
		return -1;
	t->used = 1;
	t->fmt = f;
	t->multi = multi;
	t->ts_off = -1;
	size_t ll = strlen(u->fmt[f].name) + 8;
	if (!(t->label = malloc(ll)))
		return tbl_fail(r, "out of memory");
	if (multi)
		snprintf(t->label, ll, "%s_%d", u->fmt[f].name, multi);
	else
		snprintf(t->label, ll, "%s", u->fmt[f].name);
	/* the leaves now, for the data messages' offsets; their columns once
	 * every subscription is known */
	return add_leaves(r, u, t, f, 0, t->label, 0, 0);
}

/* A D message: note where it is. */
static int
data_msg(tbl_reader *r, ulin *u, size_t pay, size_t n, size_t at)
{
	if (n < 2)
		return tbl_fail(r, "%s:offset %zu: data message too short", r->name, at);
	int id = (int)le(u->buf + pay, 2);
	if (id >= u->ntop || !u->top[id].used)
		return tbl_fail(r, "%s:offset %zu: data for msg_id %d, which no subscription names (the file is "
		    "damaged)", r->name, at, id);
	ul_topic *t = &u->top[id];
	if (t->ts_off < 0)
		return tbl_fail(r, "%s: topic %s has no uint64_t timestamp field", r->name, t->label);
	if ((long)n - 2 < t->need)
		return tbl_fail(r, "%s:offset %zu: data of %s: %zu bytes, its format has %d", r->name, at, t->label,
		    n - 2, t->need);
	uint64_t ts = le(u->buf + pay + 2 + t->ts_off, 8);
	if (t->n > 0 && !(ts > le(u->buf + t->msg[t->n - 1] + t->ts_off, 8))) {
		t->dropped++;
		return 0;
	}
	if (t->n == t->cap) {
		long c = t->cap ? 2 * t->cap : 64;
		size_t *m = realloc(t->msg, (size_t)c * sizeof(*m));
		if (!m)
			return tbl_fail(r, "out of memory");
		t->msg = m;
		t->cap = c;
	}
	t->msg[t->n++] = pay + 2;
	return 0;
}

/* P: "int32_t NAME" or "float NAME" and the value; the first kept. */
static int
param_msg(tbl_reader *r, ulin *u, const unsigned char *p, size_t n, size_t at)
{
	if (n < 1 || (size_t)p[0] + 1 > n)
		return tbl_fail(r, "%s:offset %zu: parameter message truncated", r->name, at);
	const char *key = (const char *)p + 1, *sp = memchr(key, ' ', p[0]);
	size_t vlen = n - 1 - p[0];
	if (!sp)
		return tbl_fail(r, "%s:offset %zu: parameter key '%.*s' is not 'TYPE NAME'", r->name, at, p[0], key);
	int isint = (size_t)(sp - key) == 7 && memcmp(key, "int32_t", 7) == 0;
	int isflt = (size_t)(sp - key) == 5 && memcmp(key, "float", 5) == 0;
	if ((!isint && !isflt) || vlen != 4)
		return 0; /* a type the format does not define for parameters: not ours */
	char *name = dupn(sp + 1, (size_t)(key + p[0] - sp - 1));
	if (!name)
		return tbl_fail(r, "out of memory");
	for (int i = 0; i < u->npar; i++)
		if (strcmp(u->par[i].name, name) == 0) {
			free(name);
			return 0;
		}
	ul_param *np = realloc(u->par, (size_t)(u->npar + 1) * sizeof(*np));
	if (!np) {
		free(name);
		return tbl_fail(r, "out of memory");
	}
	u->par = np;
	u->par[u->npar].name = name;
	u->par[u->npar].v = decode(isint ? 'i' : 'f', p + 1 + p[0]);
	u->npar++;
	return 0;
}

/* The flag bits message: refuse incompatible flags we do not know;
 * *appended the first appended-data offset, or 0. */
static int
flag_bits(tbl_reader *r, const unsigned char *p, size_t n, uint64_t *appended)
{
	if (n < 40)
		return tbl_fail(r, "%s: flag bits message truncated", r->name);
	for (int i = 0; i < 8; i++) {
		unsigned bad = p[8 + i] & (i == 0 ? 0xfeu : 0xffu);
		if (bad)
			return tbl_fail(r, "%s: incompatible flag bits 0x%02x in byte %d: a ULog feature this reader "
			    "does not know, which it cannot read safely", r->name, bad, i);
	}
	*appended = p[8] & 1 ? le(p + 16, 8) : 0;
	return 0;
}

static int
one_message(tbl_reader *r, ulin *u, size_t at, size_t n, int type, uint64_t *appended)
{
	const unsigned char *p = u->buf + at + 3;
	switch (type) {
	case 'B': return at == 16 ? flag_bits(r, p, n, appended) : 0;
	case 'F': return parse_format(r, u, p, n, at);
	case 'A': return subscribe(r, u, p, n, at);
	case 'D': return data_msg(r, u, at + 3, n, at);
	case 'P': return param_msg(r, u, p, n, at);
	case 'L': case 'C': u->logged++; return 0;
	case 'O':
		if (n >= 2) {
			u->dropouts++;
			u->dropout_ms += (long)le(p, 2);
		}
		return 0;
	default: return 0; /* I, M, Q, S, R, and types newer than this reader: skipped by their size */
	}
}

/* Walk the messages: formats, subscriptions, parameters, data offsets. */
static int
scan(tbl_reader *r, ulin *u)
{
	uint64_t appended = 0;
	size_t at = 16;
	while (at < u->len) {
		if (u->len - at < 3 || u->len - at - 3 < le(u->buf + at, 2)) {
			char note[96];
			snprintf(note, sizeof(note), "ulog_truncated the last message, at byte %zu, is cut: ignored", at);
			tbl_add_note(r, note);
			break;
		}
		size_t n = le(u->buf + at, 2);
		int type = u->buf[at + 2];
		if (appended > at && appended < at + 3 + n) {
			/* a message running into the appended data was cut when
			 * the data was appended: go on from there */
			at = (size_t)appended;
			appended = 0;
			continue;
		}
		if (one_message(r, u, at, n, type, &appended))
			return -1;
		at += 3 + n;
	}
	return 0;
}

static int
read_all(tbl_reader *r, ulin *u, FILE *f)
{
	size_t cap = 1 << 16;
	u->buf = malloc(cap);
	if (!u->buf)
		return tbl_fail(r, "out of memory");
	for (;;) {
		if (u->len == cap) {
			unsigned char *b = cap > ((size_t)-1) / 2 ? NULL : realloc(u->buf, cap * 2);
			if (!b)
				return tbl_fail(r, "%s: out of memory reading the log", r->name);
			u->buf = b;
			cap *= 2;
		}
		size_t got = fread(u->buf + u->len, 1, cap - u->len, f);
		u->len += got;
		if (got == 0)
			break;
	}
	if (ferror(f))
		return tbl_fail(r, "%s: read error", r->name);
	return 0;
}

/* 5 times the median spacing of a topic's first UL_AHEAD samples, as
 * tagk-filter --join's default gap (join.h). */
static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t
stamp(const ulin *u, const ul_topic *t, long i)
{
	return le(u->buf + t->msg[i] + t->ts_off, 8);
}

static int
default_gap(tbl_reader *r, ulin *u, ul_topic *t)
{
	long m = t->n < UL_AHEAD ? t->n : UL_AHEAD;
	uint64_t *d = malloc((size_t)(m - 1) * sizeof(*d));
	if (!d)
		return tbl_fail(r, "out of memory");
	for (long i = 1; i < m; i++)
		d[i - 1] = stamp(u, t, i) - stamp(u, t, i - 1);
	qsort(d, (size_t)(m - 1), sizeof(*d), cmp_u64);
	t->max_gap = 5.0 * (double)d[(m - 1) / 2];
	free(d);
	return 0;
}

/* Where label comes in --event's "A|B|...": 0 for A ..., a large number
 * when it is not there (or NULL). */
static int
event_rank(const char *event, const char *label)
{
	size_t n = label ? strlen(label) : 0;
	int k = 0;
	for (const char *p = event; label; k++) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);
		if (len == n && memcmp(p, label, n) == 0)
			return k;
		if (!bar)
			break;
		p = bar + 1;
	}
	return 1 << 30;
}

/* At the first row: the topics wanted, and the base among them. */
static int
choose_base(tbl_reader *r, ulin *u)
{
	int base = -1;
	for (int id = 0; id < u->ntop; id++) {
		ul_topic *t = &u->top[id];
		t->wanted = 0;
		if (!t->used || t->nleaf == 0 || t->n == 0)
			continue;
		for (int c = 0; c < t->nleaf; c++) {
			t->wanted |= r->want[t->col0 + c] != 0;
			/* read whole (tagk-filter), a float's NaN is a value: PX4
			 * writes it for what is unused or unset (actuator_motors'
			 * spare channels, setpoints) */
			if (r->want_numeric && (t->leaf[c].code == 'f' || t->leaf[c].code == 'd'))
				r->want[t->col0 + c] = 2;
		}
		if (r->opt.event ? event_rank(r->opt.event, t->label) < event_rank(r->opt.event, base < 0 ? NULL :
		    u->top[base].label) : t->wanted && (base < 0 || t->n > u->top[base].n))
			base = id;
	}
	if (r->opt.event && base < 0)
		return tbl_fail(r, "%s: no topic '%s' with data (tagk-filter --list names them)", r->name, r->opt.event);
	if (base < 0) /* only t is wanted: the topic with the most samples */
		for (int id = 0; id < u->ntop; id++)
			if (u->top[id].used && u->top[id].nleaf && (base < 0 || u->top[id].n > u->top[base].n))
				base = id;
	if (base < 0)
		return tbl_fail(r, "%s: no data messages", r->name);
	u->base = base;
	for (int id = 0; id < u->ntop; id++) {
		ul_topic *t = &u->top[id];
		if (!t->wanted || id == base)
			continue;
		if (t->n < 2)
			return tbl_fail(r, "%s: topic %s has %ld sample%s: too few to put on %s's times", r->name,
			    t->label, t->n, t->n == 1 ? "" : "s", u->top[base].label);
		if (default_gap(r, u, t))
			return -1;
	}
	return 0;
}

/* Topic t's values at time ts (non-decreasing from call to call) into
 * row: 1, or 0 when ts is outside its span or in a gap. */
static int
topic_at(const ulin *u, ul_topic *t, uint64_t ts, const char *want, double *row)
{
	while (t->k + 1 < t->n && stamp(u, t, t->k + 1) <= ts)
		t->k++;
	uint64_t t0 = stamp(u, t, t->k);
	if (ts < t0 || (t->k + 1 == t->n && ts > t0)) {
		t->outside++;
		return 0;
	}
	const unsigned char *a = u->buf + t->msg[t->k];
	if (ts == t0) {
		for (int c = 0; c < t->nleaf; c++)
			if (want[t->col0 + c])
				row[t->col0 + c] = decode(t->leaf[c].code, a + t->leaf[c].off);
		return 1;
	}
	uint64_t t1 = stamp(u, t, t->k + 1);
	if ((double)(t1 - t0) > t->max_gap) {
		t->gaps++;
		return 0;
	}
	const unsigned char *b = u->buf + t->msg[t->k + 1];
	double w = (double)(ts - t0) / (double)(t1 - t0);
	for (int c = 0; c < t->nleaf; c++) {
		if (!want[t->col0 + c])
			continue;
		double va = decode(t->leaf[c].code, a + t->leaf[c].off);
		char k = t->leaf[c].code;
		row[t->col0 + c] = k == 'f' || k == 'd' ? va + w * (decode(k, b + t->leaf[c].off) - va) : va;
	}
	return 1;
}

static int
ul_next(tbl_reader *r, double *row)
{
	ulin *u = r->impl;
	if (u->base < 0 && choose_base(r, u))
		return -1;
	ul_topic *B = &u->top[u->base];
	for (; u->row < B->n; u->row++) {
		uint64_t ts = stamp(u, B, u->row);
		const unsigned char *p = u->buf + B->msg[u->row];
		for (int c = 0; c < r->ncols; c++)
			row[c] = NAN;
		if (r->want[0])
			row[0] = (double)ts / 1e6;
		for (int c = 0; c < B->nleaf; c++)
			if (r->want[B->col0 + c])
				row[B->col0 + c] = decode(B->leaf[c].code, p + B->leaf[c].off);
		int ok = 1;
		for (int id = 0; id < u->ntop && ok; id++)
			if (u->top[id].wanted && id != u->base)
				ok = topic_at(u, &u->top[id], ts, r->want, row);
		if (ok) {
			u->row++;
			return 1;
		}
		u->dropped_rows++;
	}
	if (u->dropped_rows && !u->noted) {
		/* as --join counts its dropped rows: say it, once */
		char note[128];
		long out = 0, gaps = 0;
		for (int id = 0; id < u->ntop; id++)
			out += u->top[id].outside, gaps += u->top[id].gaps;
		snprintf(note, sizeof(note), "ulog_dropped %ld rows of %s: %ld outside a topic's span, %ld in its gaps",
		    u->dropped_rows, B->label, out, gaps);
		tbl_add_note(r, note);
		u->noted = 1;
	}
	return 0;
}

static void
ul_where(tbl_reader *r, char *buf, size_t len)
{
	ulin *u = r->impl;
	if (u->base < 0)
		snprintf(buf, len, "%s", r->name);
	else
		snprintf(buf, len, "%s:%s sample %ld", r->name, u->top[u->base].label, u->row);
}

static void
ul_close(tbl_reader *r)
{
	ulin *u = r->impl;
	if (!u)
		return;
	for (int i = 0; i < u->nfmt; i++) {
		for (int k = 0; k < u->fmt[i].nf; k++) {
			free(u->fmt[i].f[k].type);
			free(u->fmt[i].f[k].name);
		}
		free(u->fmt[i].f);
		free(u->fmt[i].name);
	}
	free(u->fmt);
	for (int i = 0; i < u->ntop; i++) {
		free(u->top[i].label);
		free(u->top[i].leaf);
		free(u->top[i].msg);
	}
	free(u->top);
	for (int i = 0; i < u->npar; i++)
		free(u->par[i].name);
	free(u->par);
	free(u->buf);
	free(u);
	r->impl = NULL;
}

static int
cmp_col(const void *a, const void *b)
{
	return strcmp(**(char *const *const *)a, **(char *const *const *)b);
}

/* tbl_finish_header's work, with the duplicate names found by sorting:
 * its pairwise check takes n^2 / 2 comparisons, minutes for the 1e6
 * columns a small crafted file can ask for (and seconds for a real log's
 * tens of thousands). Names are never empty here. */
static int
finish_header(tbl_reader *r)
{
	char ***p = malloc((size_t)r->ncols * sizeof(*p));
	if (!p)
		return tbl_fail(r, "out of memory");
	for (int i = 0; i < r->ncols; i++)
		p[i] = &r->cols[i];
	qsort(p, (size_t)r->ncols, sizeof(*p), cmp_col);
	for (int i = 1; i < r->ncols; i++)
		if (strcmp(*p[i], *p[i - 1]) == 0) {
			tbl_fail(r, "%s: two columns named '%s' (a field named twice, or topic_K beside instance K of "
			    "topic)", r->name, *p[i]);
			free(p);
			return -1;
		}
	free(p);
	r->want = calloc((size_t)r->ncols, 1);
	r->text = calloc((size_t)r->ncols, 1);
	return r->want && r->text ? 0 : tbl_fail(r, "out of memory");
}

/* The columns: t, then every topic's leaves, topics by msg_id. */
static int
make_columns(tbl_reader *r, ulin *u)
{
	/* the names' array at its size at once: tbl_add_col's realloc per
	 * column copies it whole each time under AddressSanitizer (260004
	 * columns: 8 minutes) */
	size_t total = 1;
	for (int id = 0; id < u->ntop; id++)
		total += u->top[id].used ? (size_t)u->top[id].nleaf : 0;
	if (!(r->cols = malloc(total * sizeof(*r->cols))) || !(r->cols[0] = dupn("t", 1)))
		return tbl_fail(r, "out of memory");
	r->ncols = 1;
	for (int id = 0; id < u->ntop; id++) {
		ul_topic *t = &u->top[id];
		if (!t->used)
			continue;
		t->col0 = r->ncols;
		t->nleaf = 0;
		if (add_leaves(r, u, t, t->fmt, 0, t->label, 0, 1))
			return -1;
	}
	return 0;
}

int
tbl_ulog_open(tbl_reader *r, FILE *f)
{
	ulin *u = calloc(1, sizeof(*u));
	if (!u)
		return tbl_fail(r, "out of memory");
	r->impl = u;
	r->next = ul_next;
	r->where_fn = ul_where;
	r->close = ul_close;
	u->base = -1;
	int rc = read_all(r, u, f);
	if (f != stdin)
		fclose(f);
	if (rc)
		return -1;
	if (u->len < 16 || memcmp(u->buf, ulog_magic, 7) != 0)
		return tbl_fail(r, "%s: not a ULog file (%s)", r->name, u->len < 16 ? "shorter than its header" : "no ULog magic");
	u->t0 = le(u->buf + 8, 8);
	if (scan(r, u) || make_columns(r, u))
		return -1;
	if (u->dropouts) {
		/* data the logger lost: the join's gap rule drops the rows they leave */
		char note[96];
		snprintf(note, sizeof(note), "ulog_dropouts %ld, %ld ms in all", u->dropouts, u->dropout_ms);
		tbl_add_note(r, note);
	}
	return finish_header(r);
}

int
tbl_param(const tbl_reader *r, const char *name, double *v)
{
	if (r->format != TBL_ULOG)
		return 0;
	const ulin *u = r->impl;
	for (int i = 0; i < u->npar; i++)
		if (strcmp(u->par[i].name, name) == 0) {
			*v = u->par[i].v;
			return 1;
		}
	return 0;
}

/* The sniff's replay: the bytes read to look for the magic, then the rest. */
typedef struct {
	FILE *under;
	unsigned char pre[7];
	size_t npre, off;
} ul_replay;

static ssize_t
replay_read(void *cookie, char *buf, size_t size)
{
	ul_replay *p = cookie;
	if (p->off < p->npre) {
		size_t n = p->npre - p->off < size ? p->npre - p->off : size;
		memcpy(buf, p->pre + p->off, n);
		p->off += n;
		return (ssize_t)n;
	}
	size_t n = fread(buf, 1, size, p->under);
	return n == 0 && ferror(p->under) ? -1 : (ssize_t)n;
}

static int
replay_close(void *cookie)
{
	ul_replay *p = cookie;
	int rc = p->under == stdin ? 0 : fclose(p->under);
	free(p);
	return rc;
}

int
tbl_ulog_sniff(FILE **f)
{
	ul_replay *p = calloc(1, sizeof(*p));
	if (!p)
		return -1;
	p->under = *f;
	p->npre = fread(p->pre, 1, sizeof(p->pre), *f);
	int is = p->npre == 7 && memcmp(p->pre, ulog_magic, 7) == 0;
	cookie_io_functions_t io = { .read = replay_read, .close = replay_close };
	FILE *g = fopencookie(p, "r", io);
	if (!g) {
		free(p);
		return -1;
	}
	*f = g;
	return is;
}

int
tbl_topic(const tbl_reader *r, int i, tbl_topic_info *out)
{
	if (r->format != TBL_ULOG)
		return 0;
	const ulin *u = r->impl;
	for (int id = 0; id < u->ntop; id++) {
		const ul_topic *t = &u->top[id];
		if (!t->used || t->n == 0 || t->nleaf == 0 || i-- > 0)
			continue;
		*out = (tbl_topic_info){ t->label, t->n, t->dropped, (double)stamp(u, t, 0) / 1e6,
			(double)stamp(u, t, t->n - 1) / 1e6, t->col0, t->nleaf };
		return 1;
	}
	return 0;
}

int
tbl_param_at(const tbl_reader *r, int i, const char **name, double *v)
{
	if (r->format != TBL_ULOG)
		return 0;
	const ulin *u = r->impl;
	if (i < 0 || i >= u->npar)
		return 0;
	*name = u->par[i].name;
	*v = u->par[i].v;
	return 1;
}
