/* test_binary_enc.c: formats/binary_enc.c's encoders (AVX2 and AVX-512
 * on x86-64, each where this CPU has it, and binary_encoder's choice)
 * give, row after row, the bytes and the prev words of binary.h's
 * binary_encode, one column at a time (itself checked
 * against tests/streamsum.py's encoder, written from the manual, by
 * stream4_test.sh). Random rows of widths around the 32-column mask word
 * and the vector groups (1..3, 7..9, 23, 31..33, 63..65, 100), built so
 * that every code and every order of the rule's tests occurs: the value
 * before (SAME), +0.0 (ZERO; also after -1.0, which NEXT would give too),
 * the value before plus 1.0 (NEXT; also from -0.0, an infinity, a NaN,
 * where it is not), -0.0, infinities, NaNs of any payload (written as the
 * one quiet NaN), subnormals, and rows whose first 32 columns all count
 * (the trailer's word, which is never written), in runs of 1 to 7 rows a
 * call. */
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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

enum { ROWS = 3000, MAXN = 100 };

/* ROWS rows of n columns through enc, k rows a call, against
 * binary_encode a row at a time. */
static void
check(binary_encode_fn *enc, int n)
{
	static double x[ROWS * MAXN];
	static unsigned char want[ROWS * 8 * (MAXN + 4)], got[ROWS * 8 * (MAXN + 4)];
	uint64_t pw[MAXN], pg[MAXN];
	for (int i = 0; i < n; i++) {
		pw[i] = pg[i] = BINARY_NONE;
		x[i] = draw(1.0, 0);
	}
	for (int r = 1; r < ROWS; r++) {
		/* every 40th row small integers, then two rows counting in
		 * every column: the trailer's word */
		int count = r % 40 == 1 || r % 40 == 2;
		for (int i = 0; i < n; i++)
			x[r * n + i] = r % 40 == 0 ? (double)(next() % 1000) : draw(x[(r - 1) * n + i], count);
	}
	size_t lw = 0, lg = 0;
	for (int r = 0; r < ROWS;) {
		int k = 1 + (int)(next() % 7);
		if (k > ROWS - r)
			k = ROWS - r;
		for (int j = 0; j < k; j++)
			lw += binary_encode(want + lw, pw, x + (size_t)(r + j) * n, n);
		lg += enc(got + lg, pg, x + (size_t)r * n, n, k);
		assert_int_equal(lg, lw);
		assert_memory_equal(got, want, lw);
		assert_memory_equal(pg, pw, sizeof(uint64_t) * (size_t)n);
		r += k;
	}
}

static const int widths[] = { 1, 2, 3, 7, 8, 9, 23, 31, 32, 33, 63, 64, 65, 100 };

static void
check_all(binary_encode_fn *enc)
{
	for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
		check(enc, widths[w]);
}

static void
test_chosen(void **st)
{
	(void)st;
	check_all(binary_encoder());
}

#if defined(__x86_64__) && defined(__GNUC__)
static void
test_avx2(void **st)
{
	(void)st;
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx2"))
		skip();
	check_all(binary_encode_avx2);
}

static void
test_avx512(void **st)
{
	(void)st;
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512dq") || !__builtin_cpu_supports("bmi2"))
		skip();
	check_all(binary_encode_avx512);
}
#endif

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chosen),
#if defined(__x86_64__) && defined(__GNUC__)
		cmocka_unit_test(test_avx2),
		cmocka_unit_test(test_avx512),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
