/*
 * cfusd_in.c: the Crazyflie uSD-card binary log backend of table.c.
 *
 * Layout (little-endian): 0xBC, u16 version (1 or 2), u16 event types; per
 * type: u16 id, NUL-terminated name, u16 variables, per variable a
 * NUL-terminated "name(T)" with T a Python struct letter; then records
 * (u16 id, timestamp u32 ms in v1 or u64 us in v2, packed values) up to the
 * last 4 bytes, the CRC-32 (zlib polynomial) of everything before them.
 *
 * Columns: "t" in seconds, then the variables of one event type: the one
 * named by --event, else the only one, else "fixedFrequency". On a
 * regular file the CRC is checked before any row is returned; on a pipe it
 * is checked at the end, and a mismatch is then an error at the last row.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "table_impl.h"
#include "table_readers.h"

enum { BUF = 1 << 16, MAXVARS = 512 };

typedef struct {
	uint16_t id;
	int nvars;
	char types[MAXVARS];
	int size;        /* payload bytes */
	int selected;
} cfevent;

typedef struct {
	FILE *f;
	int version, tsize;
	cfevent *ev;
	int nev;
	unsigned char buf[BUF];
	size_t len, off;  /* unread bytes are buf[off..len) */
	int eof;
	uint32_t crc;     /* of bytes consumed */
	int check_crc_at_end;
	long record;
	double t0;
} cfin;

static uint32_t crc_table[256];

static void
crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

static uint32_t
crc_update(uint32_t crc, const unsigned char *p, size_t n)
{
	crc = ~crc;
	while (n--)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

/* Make at least need bytes available; returns how many are. */
static size_t
avail(cfin *c, size_t need)
{
	if (c->len - c->off >= need || c->eof)
		return c->len - c->off;
	memmove(c->buf, c->buf + c->off, c->len - c->off);
	c->len -= c->off;
	c->off = 0;
	while (c->len < need && !c->eof) {
		size_t n = fread(c->buf + c->len, 1, BUF - c->len, c->f);
		c->len += n;
		if (n == 0)
			c->eof = 1;
	}
	return c->len - c->off;
}

static const unsigned char *
take(cfin *c, size_t n)
{
	const unsigned char *p = c->buf + c->off;
	c->crc = crc_update(c->crc, p, n);
	c->off += n;
	return p;
}

static int
type_size(char t)
{
	switch (t) {
	case 'b': case 'B': case '?': case 'c': return 1;
	case 'h': case 'H': case 'e': return 2;
	case 'i': case 'I': case 'f': case 'l': case 'L': return 4;
	case 'q': case 'Q': case 'd': return 8;
	}
	return 0;
}

static double
half_to_double(uint16_t h)
{
	int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	double v = e == 0 ? m / 1024.0 / 16384.0 : e == 31 ? (m ? 0.0 / 0.0 : 1.0 / 0.0)
	    : (1 + m / 1024.0) * (double)(1u << e) / 32768.0;
	return h & 0x8000 ? -v : v;
}

static double
decode(char t, const unsigned char *p)
{
	uint64_t u = 0;
	int n = type_size(t);
	for (int i = n - 1; i >= 0; i--)
		u = u << 8 | p[i];
	switch (t) {
	case 'b': return (double)(int8_t)u;
	case 'h': return (double)(int16_t)u;
	case 'i': case 'l': return (double)(int32_t)u;
	case 'q': return (double)(int64_t)u;
	case 'f': { uint32_t w = (uint32_t)u; float x; memcpy(&x, &w, 4); return x; }
	case 'd': { double x; memcpy(&x, &u, 8); return x; }
	case 'e': return half_to_double((uint16_t)u);
	default: return (double)u; /* B H I L Q ? c */
	}
}

static int
cf_next(tbl_reader *r, double *row)
{
	cfin *c = r->impl;
	for (;;) {
		size_t a = avail(c, 4 + 2 + (size_t)c->tsize);
		if (c->eof && a == 4) {
			if (c->check_crc_at_end) {
				const unsigned char *p = c->buf + c->off;
				uint32_t stored = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
				    (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
				c->check_crc_at_end = 0;
				if (stored != c->crc && !r->opt.ignore_crc)
					return tbl_fail(r, "%s: CRC-32 mismatch (stored %08x, computed %08x): "
					    "the log is damaged (--ignore-crc reads it anyway)", r->name,
					    stored, c->crc);
			}
			return 0;
		}
		if (a < 4 + 2 + (size_t)c->tsize)
			return tbl_fail(r, "%s: record %ld: truncated (%zu bytes left)", r->name,
			    c->record + 1, a);
		const unsigned char *p = c->buf + c->off;
		uint16_t id = (uint16_t)(p[0] | p[1] << 8);
		cfevent *ev = NULL;
		for (int i = 0; i < c->nev; i++)
			if (c->ev[i].id == id)
				ev = &c->ev[i];
		if (!ev)
			return tbl_fail(r, "%s: record %ld: unknown event id %u", r->name, c->record + 1, id);
		size_t need = 2 + (size_t)c->tsize + (size_t)ev->size;
		a = avail(c, need + 4);
		if (a < need + 4)
			return tbl_fail(r, "%s: record %ld: truncated (%zu of %zu bytes)", r->name,
			    c->record + 1, a >= 4 ? a - 4 : 0, need);
		p = take(c, need);
		c->record++;
		if (!ev->selected)
			continue;
		uint64_t ts = 0;
		for (int i = c->tsize - 1; i >= 0; i--)
			ts = ts << 8 | p[2 + i];
		row[0] = c->version == 1 ? (double)ts / 1e3 : (double)ts / 1e6;
		const unsigned char *v = p + 2 + c->tsize;
		for (int j = 0; j < ev->nvars; j++) {
			row[1 + j] = r->want[1 + j] ? decode(ev->types[j], v) : 0.0 / 0.0;
			v += type_size(ev->types[j]);
		}
		return 1;
	}
}

static void
cf_where(tbl_reader *r, char *buf, size_t len)
{
	cfin *c = r->impl;
	snprintf(buf, len, "%s:record %ld", r->name, c->record);
}

static void
cf_close(tbl_reader *r)
{
	cfin *c = r->impl;
	if (!c)
		return;
	if (c->f && c->f != stdin)
		fclose(c->f);
	free(c->ev);
	free(c);
	r->impl = NULL;
}

/* Read a NUL-terminated string of at most cap - 1 bytes from the header. */
static int
header_string(tbl_reader *r, char *out, size_t cap)
{
	cfin *c = r->impl;
	for (size_t i = 0;; i++) {
		if (avail(c, 1) < 1)
			return tbl_fail(r, "%s: header truncated", r->name);
		unsigned char ch = *take(c, 1);
		if (i + 1 >= cap)
			return tbl_fail(r, "%s: header string too long", r->name);
		out[i] = (char)ch;
		if (!ch)
			return 0;
	}
}

static int
header_u16(tbl_reader *r, int *v)
{
	cfin *c = r->impl;
	if (avail(c, 2) < 2)
		return tbl_fail(r, "%s: header truncated", r->name);
	const unsigned char *p = take(c, 2);
	*v = p[0] | p[1] << 8;
	return 0;
}

/* s is the decimal id */
static int
is_id(const char *s, int id)
{
	char buf[16];
	snprintf(buf, sizeof(buf), "%d", id);
	return strcmp(s, buf) == 0;
}

/* A seekable log's CRC-32, checked before any row is read, so that a
 * damaged log yields no rows; then rewound. 0, or -1 with r's message. */
static int
check_crc_first(tbl_reader *r, cfin *c, FILE *f)
{
	uint32_t crc = 0;
	unsigned char tail[4] = { 0 }, pend[4];
	size_t npend = 0;
	long total = 0;
	for (;;) {
		size_t n = fread(c->buf, 1, BUF, f);
		if (n == 0)
			break;
		/* hold back the last 4 bytes seen: they may be the CRC */
		size_t keep = n >= 4 ? 4 : n;
		unsigned char joined[BUF + 4];
		memcpy(joined, pend, npend);
		memcpy(joined + npend, c->buf, n);
		size_t all = npend + n;
		keep = all >= 4 ? 4 : all;
		crc = crc_update(crc, joined, all - keep);
		memcpy(pend, joined + all - keep, keep);
		npend = keep;
		total += (long)n;
	}
	if (total < 9)
		return tbl_fail(r, "%s: too short for a Crazyflie uSD log", r->name);
	memcpy(tail, pend, 4);
	uint32_t stored = (uint32_t)tail[0] | (uint32_t)tail[1] << 8 | (uint32_t)tail[2] << 16 |
	    (uint32_t)tail[3] << 24;
	if (stored != crc)
		return tbl_fail(r, "%s: CRC-32 mismatch (stored %08x, computed %08x): the log is "
		    "damaged (--ignore-crc reads it anyway)", r->name, stored, crc);
	if (fseek(f, 0, SEEK_SET) != 0)
		return tbl_fail(r, "%s: cannot rewind", r->name);
	return 0;
}

/* The header's event types (id, name, typed variables) after its count:
 * the chosen one's variables become the columns after t; *chosen is its
 * index. 0, or -1 with r's message. */
static int
read_event_types(tbl_reader *r, cfin *c, int nev, int *chosen_out)
{
	char evnames[2048] = "";
	int chosen = -1;
	char name[256], var[256];
	if (tbl_add_col(r, "t", 1) != 0)
		return tbl_fail(r, "out of memory");
	for (int e = 0; e < nev; e++) {
		cfevent *ev = &c->ev[e];
		int id, nv;
		if (header_u16(r, &id) || header_string(r, name, sizeof(name)) || header_u16(r, &nv))
			return -1;
		ev->id = (uint16_t)id;
		for (int k = 0; k < e; k++)
			if (c->ev[k].id == ev->id)
				return tbl_fail(r, "%s: two event types have the id %d", r->name, id);
		if (nv > MAXVARS)
			return tbl_fail(r, "%s: event '%s' has %d variables (at most %d)", r->name, name,
			    nv, MAXVARS);
		ev->nvars = nv;
		size_t used = strlen(evnames);
		snprintf(evnames + used, sizeof(evnames) - used, "%s%s (id %d)", e ? ", " : "", name, id);
		/* Without --event: the only type, else "fixedFrequency", the
		 * firmware's periodic logging event. --event takes a name or an id. */
		int pick = r->opt.event ? strcmp(r->opt.event, name) == 0 || is_id(r->opt.event, id)
		    : nev == 1 || strcmp(name, "fixedFrequency") == 0;
		if (pick && chosen >= 0)
			return tbl_fail(r, "%s: event types %d and %d are both named '%s': choose one with "
			    "--event ID", r->name, c->ev[chosen].id, id, name);
		if (pick)
			chosen = e;
		for (int j = 0; j < nv; j++) {
			if (header_string(r, var, sizeof(var)))
				return -1;
			char *lp = strrchr(var, '(');
			size_t vl = strlen(var);
			if (!lp || vl < 3 || var[vl - 1] != ')' || lp + 2 != var + vl - 1 ||
			    !type_size(lp[1]))
				return tbl_fail(r, "%s: variable '%s' of event '%s': unknown type", r->name,
				    var, name);
			ev->types[j] = lp[1];
			ev->size += type_size(lp[1]);
			if (pick && tbl_add_col(r, var, (size_t)(lp - var)) != 0)
				return tbl_fail(r, "out of memory");
		}
	}
	if (chosen < 0) {
		if (r->opt.event)
			return tbl_fail(r, "%s: no event type '%s' (it has: %s)", r->name, r->opt.event,
			    evnames);
		return tbl_fail(r, "%s: %d event types (%s): choose one with --event", r->name, nev,
		    evnames);
	}
	*chosen_out = chosen;
	return 0;
}

int
tbl_cfusd_open(tbl_reader *r, FILE *f, int seekable)
{
	static int crc_ready;
	if (!crc_ready) {
		crc_init();
		crc_ready = 1;
	}
	cfin *c = calloc(1, sizeof(*c));
	if (!c)
		return tbl_fail(r, "out of memory");
	r->impl = c;
	r->next = cf_next;
	r->where_fn = cf_where;
	r->close = cf_close;
	c->f = f;

	if (seekable && !r->opt.ignore_crc) {
		if (check_crc_first(r, c, f))
			return -1;
	} else {
		c->check_crc_at_end = 1;
	}

	if (avail(c, 1) < 1 || *take(c, 1) != 0xBC)
		return tbl_fail(r, "%s: not a Crazyflie uSD log (no 0xBC magic byte)", r->name);
	int nev;
	if (header_u16(r, &c->version) || header_u16(r, &nev))
		return -1;
	if (c->version != 1 && c->version != 2)
		return tbl_fail(r, "%s: unsupported uSD log version %d (1 and 2 are known)", r->name,
		    c->version);
	if (nev < 1)
		return tbl_fail(r, "%s: no event types in the header", r->name);
	c->tsize = c->version == 1 ? 4 : 8;
	c->ev = calloc((size_t)nev, sizeof(*c->ev));
	if (!c->ev)
		return tbl_fail(r, "out of memory");
	c->nev = nev;
	int chosen;
	if (read_event_types(r, c, nev, &chosen))
		return -1;
	c->ev[chosen].selected = 1;
	return tbl_finish_header(r, r->name);
}
