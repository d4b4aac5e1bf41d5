/* device.c: the embedded benchmark table; see device.h. */
#include <string.h>
#include "device.h"
#include "harness.h"

/* Largest problem: m = 30, n = 120. */
enum { M = 30, NMAX = 120, MAX_UPDATES = 256 };

/* Static buffers; on the Teensy the linker puts .bss.tagk_big in OCRAM. */
static tagk_real ws[3 * NMAX + 4 * NMAX * NMAX + M * (NMAX + M + 1) + 64]
    __attribute__((section(".bss.tagk_big")));
static tagk_real scratch[M * NMAX + M + 3 * NMAX + 3 * M + 2 * NMAX + 64];
static double times[MAX_UPDATES];

/* The paper's forms, the cheaper forms (the KF's downdate form is its
 * default for m <= n), and TAG-K. In single precision the KF information
 * form does not factor for m < n (see lib/kf.h), so the float table leaves
 * it out. */
static const char *const methods[] = {
	"rls-low:paper", "rls-high:paper", "kf-low:joseph", "kf-high:joseph",
	"rls-low:info",
#ifndef TAGK_FLOAT
	"kf-low:info",
#endif
	"kf-low:downdate",
	"tagk",
};

typedef struct {
	const bench_device_config *c;
	int failed;
} ctx_t;

static char *
put_str(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

static char *
put_u64(char *p, uint64_t v)
{
	char t[24];
	int n = 0;
	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = t[--n];
	return p;
}

static char *
put_hex(char *p, uint64_t v, int digits)
{
	for (int i = digits - 1; i >= 0; i--)
		*p++ = "0123456789abcdef"[(v >> (4 * i)) & 15];
	return p;
}

static uint64_t
bits_of(tagk_real x)
{
#ifdef TAGK_FLOAT
	uint32_t u;
	memcpy(&u, &x, 4);
	return u;
#else
	uint64_t u;
	memcpy(&u, &x, 8);
	return u;
#endif
}

static void
emit(const tagk_bench_row *r, void *vctx)
{
	ctx_t *x = vctx;
	char line[256], *p = line;
	uint64_t sum = 0;
	for (int j = 0; j < r->n; j++)
		sum ^= bits_of(r->theta[j]) * (uint64_t)(2 * j + 1);
	p = put_str(p, "row,");
	p = put_str(p, x->c->target);
	*p++ = ',';
	p = put_str(p, r->method);
	*p++ = ',';
	p = put_str(p, r->form);
	*p++ = ',';
	p = put_u64(p, (uint64_t)r->m);
	*p++ = ',';
	p = put_u64(p, (uint64_t)r->n);
	*p++ = ',';
	p = put_u64(p, (uint64_t)r->updates);
	*p++ = ',';
	p = put_u64(p, (uint64_t)r->median);
	*p++ = ',';
	p = put_u64(p, (uint64_t)r->p95);
	*p++ = ',';
	p = put_hex(p, bits_of(r->theta[0]), (int)sizeof(tagk_real) * 2);
	*p++ = ',';
	p = put_hex(p, sum, 16);
	*p++ = ',';
	p = put_u64(p, (uint64_t)r->failures);
	*p = 0;
	x->c->puts(line);
	x->failed |= r->failures != 0;
}

int
bench_device_run(const bench_device_config *c)
{
	ctx_t x = { c, 0 };
	char head[160], *p = head;
	p = put_str(p, "# tagk-bench device: target ");
	p = put_str(p, c->target);
	p = put_str(p, ", scalar " TAGK_REAL_NAME ", ticks in ");
	p = put_str(p, c->tick_unit);
	*p = 0;
	c->puts(head);
	c->puts("header,target,method,form,m,n,updates,median_ticks,p95_ticks,theta0_hex,checksum_hex,failures");
	tagk_bench_setup su;
	memset(&su, 0, sizeof(su));
	su.ticks = c->ticks;
	su.emit = emit;
	su.ctx = &x;
	su.seed = c->seed;
	su.updates = c->updates < MAX_UPDATES ? c->updates : MAX_UPDATES;
	su.noise = (tagk_real)0.01;
	su.uniform = 1;
	for (const int *n = c->sizes; *n; n++) {
		if (*n > NMAX)
			return TAGK_EINVAL;
		for (unsigned i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
			tagk_status st = tagk_bench_run(&su, methods[i], M, *n, ws,
			    sizeof(ws) / sizeof(ws[0]), scratch, sizeof(scratch) / sizeof(scratch[0]), times);
			if (st != TAGK_OK)
				return st;
		}
	}
	c->puts(x.failed ? "# done: some updates failed" : "# done");
	return x.failed ? TAGK_EDIVERGED : TAGK_OK;
}
