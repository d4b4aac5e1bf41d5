/* test_binary_enc.c: the version 4 codec's vector paths against binary.h's
 * one-column-at-a-time reference, binary_encode and binary_decode.
 *
 * Encoders (formats/binary_enc.c: AVX2 and AVX-512 on x86-64, each where
 * this CPU has it, and binary_encoder's choice) give, row after row, the
 * bytes and the prev words of binary_encode (itself checked against
 * tests/streamsum.py's encoder, written from the manual, by
 * stream4_test.sh). Random rows of every width 1..70 and 100, built so
 * that every code and every order of the rule's tests occurs: the value
 * before (SAME), +0.0 (ZERO; also after -1.0, which NEXT would give too),
 * the value before plus 1.0 (NEXT; also from -0.0, an infinity, a NaN,
 * where it is not), -0.0, infinities, NaNs of any payload (written as the
 * one quiet NaN), subnormals, and rows whose first 32 columns all count
 * (the trailer's word, which is never written), in runs of 1 to 7 rows a
 * call, each call's room (k records' most) ending at an unmapped page so
 * that a store past it faults, and prev's words past n watched.
 *
 * Decoders (formats/binary_dec.c, likewise, and binary_decoder's choice)
 * give binary_decode's row, words, length and not-finite flag on the same
 * records, whose rows binary_decode gives back as the input's words (its
 * own check against the input, apart from the encoders); and on random
 * masks that no encoder writes (NEXT from an infinity or a NaN, ZERO and
 * NEXT runs, a record of all codes), each record's last byte ending at
 * an unmapped page so that a load past it faults, and the row's and the
 * words' cells past n watched. */
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>
#include "../formats/binary.h"

static uint64_t state = 0x9e3779b97f4a7c15u;

static uint64_t
next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

static double
of_bits(uint64_t b)
{
	double x;
	memcpy(&x, &b, 8);
	return x;
}

/* Column i's next value, given its value before (before) and whether
 * this row counts in every column (count). */
static double
draw(double before, int count)
{
	if (count)
		return before + 1.0;
	uint64_t u = next();
	switch (next() % 14) {
	case 0: case 1: case 2: return before;
	case 3: case 4: return before + 1.0;
	case 5: return 0.0;
	case 6: return -0.0;
	case 7: return -1.0;
	case 8: return of_bits((u & UINT64_C(0x800fffffffffffff)) | UINT64_C(0x7ff0000000000001)); /* NaN */
	case 9: return (u & 1) ? INFINITY : -INFINITY;
	case 10: return of_bits(u & UINT64_C(0x800fffffffffffff)); /* subnormal or zero */
	case 11: return (double)(int)(u % 7) - 3.0;
	default: return of_bits((u & UINT64_C(0x800fffffffffffff)) | (u % 2046 + 1) << 52);
	}
}

enum { ROWS = 1500, MAXN = 100, GUARD = 4 * 4096 };

/* GUARD bytes of room followed by an unmapped page: a buffer of n bytes
 * that ends where the room does (guarded(n)) faults on any byte past it. */
static unsigned char *room;

static void *
guarded(size_t n)
{
	if (!room) {
		long pg = sysconf(_SC_PAGESIZE);
		assert_true(pg > 0 && GUARD % pg == 0);
		room = mmap(NULL, GUARD + (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		assert_true(room != MAP_FAILED);
		assert_int_equal(mprotect(room + GUARD, (size_t)pg, PROT_NONE), 0);
	}
	assert_true(n <= GUARD);
	return room + GUARD - n;
}

static double x[ROWS * MAXN];

/* ROWS rows of n columns in x, drawn as above. */
static void
rows(int n)
{
	for (int i = 0; i < n; i++)
		x[i] = draw(1.0, 0);
	for (int r = 1; r < ROWS; r++) {
		/* every 40th row small integers, then two rows counting in
		 * every column: the trailer's word */
		int count = r % 40 == 1 || r % 40 == 2;
		for (int i = 0; i < n; i++)
			x[r * n + i] = r % 40 == 0 ? (double)(next() % 1000) : draw(x[(r - 1) * n + i], count);
	}
}

enum { WATCH = 8 }; /* words watched past n */
static const uint64_t SENTINEL = UINT64_C(0x5a5a5a5a5a5a5a5a);

static void
watch(uint64_t *w, int n)
{
	for (int i = n; i < n + WATCH; i++)
		w[i] = SENTINEL;
}

static void
watched(const uint64_t *w, int n)
{
	for (int i = n; i < n + WATCH; i++)
		assert_true(w[i] == SENTINEL);
}

static unsigned char want[ROWS * 8 * (MAXN + 4)];

/* The rows of x through binary_encode a row at a time into want: their
 * records' bytes. */
static size_t
reference(int n)
{
	uint64_t pw[MAXN];
	for (int i = 0; i < n; i++)
		pw[i] = BINARY_NONE;
	size_t lw = 0;
	for (int r = 0; r < ROWS; r++)
		lw += binary_encode(want + lw, pw, x + (size_t)r * n, n);
	return lw;
}

/* The rows of x through enc, k rows a call, each call's room guarded,
 * against reference's bytes (lw of them) and binary_encode's words. */
static void
check(binary_encode_fn *enc, int n, size_t lw)
{
	uint64_t pw[MAXN], pg[MAXN + WATCH];
	for (int i = 0; i < n; i++)
		pw[i] = pg[i] = BINARY_NONE;
	watch(pg, n);
	size_t lg = 0;
	for (int r = 0; r < ROWS;) {
		int k = 1 + (int)(next() % 7);
		if (k > ROWS - r)
			k = ROWS - r;
		for (int j = 0; j < k; j++) {
			unsigned char scratch[8 * (MAXN + 4)];
			binary_encode(scratch, pw, x + (size_t)(r + j) * n, n);
		}
		unsigned char *p = guarded((size_t)k * binary_record_max(n));
		size_t len = enc(p, pg, x + (size_t)r * n, n, k, n);
		assert_true(lg + len <= lw);
		assert_memory_equal(p, want + lg, len);
		assert_memory_equal(pg, pw, sizeof(uint64_t) * (size_t)n);
		watched(pg, n);
		lg += len;
		r += k;
	}
	assert_int_equal(lg, lw);
}

/* The promise (binary.h: rows 1 to k - 1 alike from column same on):
 * x's rows made so in calls of 6 (tagk-regress's sample), then through
 * enc with the promise, against binary_encode a row at a time, which
 * compares every column. */
static void
check_same(binary_encode_fn *enc, int n, int same)
{
	rows(n);
	for (int r = 0; r < ROWS; r += 6)
		for (int j = 1; j < 6 && r + j < ROWS; j++)
			memcpy(x + (size_t)(r + j) * n + same, x + (size_t)r * n + same, sizeof(double) * (size_t)(n - same));
	size_t lw = reference(n), lg = 0;
	uint64_t pg[MAXN + WATCH];
	for (int i = 0; i < n; i++)
		pg[i] = BINARY_NONE;
	watch(pg, n);
	for (int r = 0; r < ROWS; r += 6) {
		int k = ROWS - r < 6 ? ROWS - r : 6;
		unsigned char *p = guarded((size_t)k * binary_record_max(n));
		size_t len = enc(p, pg, x + (size_t)r * n, n, k, same);
		assert_true(lg + len <= lw);
		assert_memory_equal(p, want + lg, len);
		watched(pg, n);
		lg += len;
	}
	assert_int_equal(lg, lw);
}

static void
check_all(binary_encode_fn *enc)
{
	for (int n = 1; n <= 70; n++) {
		rows(n);
		check(enc, n, reference(n));
		for (int same = 1; same <= n; same += n > 40 ? 7 : 1)
			check_same(enc, n, same);
	}
	rows(100);
	check(enc, 100, reference(100));
	check_same(enc, 100, 13);
}

/* The records at p (len bytes, rows of them, n columns) through dec,
 * each copied to end at an unmapped page, against binary_decode; with
 * x (the rows encoded) when given, binary_decode's rows are x's words. */
static void
decode_check(binary_decode_fn *dec, const unsigned char *p, size_t len, int rows_, int n, const double *xr)
{
	uint64_t cw[MAXN], cg[MAXN + WATCH];
	double rw[MAXN], rg[MAXN + WATCH];
	memset(cw, 0, sizeof(cw));
	memset(cg, 0, sizeof(cg));
	watch(cg, n);
	watch((uint64_t *)(void *)rg, n);
	size_t off = 0;
	for (int r = 0; r < rows_; r++) {
		int bw, bg = -1;
		size_t lw = binary_decode(cw, rw, p + off, n, &bw);
		unsigned char *q = guarded(lw);
		memcpy(q, p + off, lw);
		size_t lg = dec(cg, rg, q, n, &bg);
		assert_int_equal(lg, lw);
		assert_int_equal(bg, bw);
		assert_memory_equal(cg, cw, 8 * (size_t)n);
		assert_memory_equal(rg, rw, 8 * (size_t)n);
		watched(cg, n);
		watched((const uint64_t *)(const void *)rg, n);
		int nf = 0;
		for (int i = 0; xr && i < n; i++) {
			uint64_t u = binary_word(xr[(size_t)r * n + i]);
			assert_true(cw[i] == u);
			nf |= !isfinite(xr[(size_t)r * n + i]);
		}
		if (xr)
			assert_int_equal(bw, nf);
		off += lw;
	}
	assert_int_equal(off, len);
}

/* rows_ records of n columns with random codes (none past n, none SAME
 * or NEXT in the first) and random values, at p: their bytes. */
static size_t
random_records(unsigned char *p, int rows_, int n)
{
	size_t len = 0;
	int nw = binary_mask_words(n);
	for (int r = 0; r < rows_; r++) {
		unsigned char *v = p + len + 8 * (size_t)nw;
		int style = (int)(next() % 4);
		for (int w = 0; w < nw; w++) {
			int hi = n - 32 * w < 32 ? n - 32 * w : 32;
			uint64_t m = 0;
			for (int j = 0; j < hi; j++) {
				uint64_t c = style == 0 ? next() % 4 : style == 1 ? BINARY_NEXT : style == 2 ? BINARY_VALUE
				    : (next() % 2 ? BINARY_ZERO : BINARY_NEXT);
				if (r == 0)
					c = next() % 2 ? BINARY_VALUE : BINARY_ZERO;
				m |= c << 2 * j;
				if (c == BINARY_VALUE) {
					uint64_t u = next();
					/* infinities and NaNs often, for NEXT to meet */
					u = next() % 3 ? u : u % 2 ? UINT64_C(0x7ff0000000000000) | (u & (UINT64_C(1) << 63))
					    : u | UINT64_C(0x7ff0000000000000);
					binary_put_word(v, u);
					v += 8;
				}
			}
			binary_put_word(p + len + 8 * (size_t)w, m);
		}
		len = (size_t)(v - p);
	}
	return len;
}

static unsigned char recs[ROWS * 8 * (MAXN + 4)];

static void
check_decoder(binary_decode_fn *dec)
{
	for (int n = 1; n <= 101; n++) {
		int w = n == 101 ? 100 : n;
		rows(w);
		size_t len = reference(w);
		decode_check(dec, want, len, ROWS, w, x);
		len = random_records(recs, 300, w);
		decode_check(dec, recs, len, 300, w, NULL);
	}
}

static void
test_chosen(void **st)
{
	(void)st;
	check_all(binary_encoder());
}

static void
test_decoder_chosen(void **st)
{
	(void)st;
	check_decoder(binary_decoder());
}

#if defined(__x86_64__) && defined(__GNUC__)
static int
has_avx512(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("bmi2");
}

static int
has_avx2(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
}

static void
test_avx2(void **st)
{
	(void)st;
	if (!has_avx2())
		skip();
	check_all(binary_encode_avx2);
}

static void
test_avx512(void **st)
{
	(void)st;
	if (!has_avx512())
		skip();
	check_all(binary_encode_avx512);
}

static void
test_decoder_avx2(void **st)
{
	(void)st;
	if (!has_avx2())
		skip();
	check_decoder(binary_decode_avx2);
}

static void
test_decoder_avx512(void **st)
{
	(void)st;
	if (!has_avx512())
		skip();
	check_decoder(binary_decode_avx512);
}
#endif

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chosen),
		cmocka_unit_test(test_decoder_chosen),
#if defined(__x86_64__) && defined(__GNUC__)
		cmocka_unit_test(test_avx2),
		cmocka_unit_test(test_avx512),
		cmocka_unit_test(test_decoder_avx2),
		cmocka_unit_test(test_decoder_avx512),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
