/* codec_speed.c: the version 4 codec alone, ns a row: each encoder of
 * formats/binary_enc.c and decoder of formats/binary_dec.c this CPU has,
 * binary.h's references, and version 3's copy (binary_put), on the first
 * 3000 rows of a CSV stream (in cache, as in a command: the sink encodes
 * a sample's rows as they are made, the reader decodes a block it has
 * just read), six rows an encoder call; the least of 21 runs of 40 passes.
 * Not a test: the figures of binary_enc.c's and binary_dec.c's comments.
 *
 *   make build/codec-speed
 *   bin/tagk-bench synth --samples 1000 | bin/tagk-regress --stream csv > rows.csv
 *   build/codec-speed rows.csv [quarter]
 *
 * quarter: a quarter of the cells replaced by random values (what makes
 * binary_encode's branches mispredict). Every decoder's rows are checked
 * against the input's words. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../formats/binary.h"

enum { MAXROWS = 3000, RUNS = 21, PASSES = 40, K = 6 };

static double *x;
static int n, nr;
static unsigned char *out;
static size_t outlen;

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int
load(const char *path, int quarter)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char *line = NULL;
	size_t cap = 0;
	int header = 0;
	while (nr < MAXROWS && getline(&line, &cap, f) > 0) {
		if (line[0] == '#')
			continue;
		if (!header) {
			header = 1;
			n = 1;
			for (char *p = line; *p; p++)
				n += *p == ',';
			x = malloc(sizeof(double) * (size_t)n * MAXROWS);
			if (!x)
				return -1;
			continue;
		}
		char *p = line;
		for (int i = 0; i < n; i++, p++)
			x[(size_t)nr * n + i] = strtod(p, &p);
		nr++;
	}
	free(line);
	fclose(f);
	uint64_t s = 88172645463325252u;
	for (size_t i = 0; quarter && i < (size_t)nr * n; i++) {
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		if (s % 4 == 0)
			x[i] = (double)(s >> 11) * 0x1p-53;
	}
	out = malloc((size_t)nr * binary_record_max(n));
	return nr > 0 && out ? 0 : -1;
}

static size_t
enc_reference(unsigned char *restrict p, uint64_t *restrict prev, const double *restrict xr, int cols, int k,
    int same)
{
	(void)same;
	size_t len = 0;
	for (int r = 0; r < k; r++, xr += cols)
		len += binary_encode(p + len, prev, xr, cols);
	return len;
}

static size_t
enc_copy(unsigned char *restrict p, uint64_t *restrict prev, const double *restrict xr, int cols, int k, int same)
{
	(void)prev, (void)same;
	binary_put(p, xr, cols * k);
	return 8 * (size_t)cols * (size_t)k;
}

static size_t
dec_reference(uint64_t *restrict cur, double *restrict row, const unsigned char *restrict p, int cols, int *nf)
{
	return binary_decode(cur, row, p, cols, nf);
}

static void
time_enc(const char *name, binary_encode_fn *enc, int keep, int same)
{
	uint64_t *prev = malloc(8 * (size_t)n);
	double best = 1e9;
	size_t len = 0;
	for (int run = 0; run < RUNS; run++) {
		double t0 = now();
		for (int pass = 0; pass < PASSES; pass++) {
			for (int i = 0; i < n; i++)
				prev[i] = BINARY_NONE;
			len = 0;
			for (int r = 0; r < nr; r += K)
				len += enc(out + len, prev, x + (size_t)r * n, n, nr - r < K ? nr - r : K, same);
		}
		double t = (now() - t0) / PASSES;
		best = t < best ? t : best;
	}
	if (keep)
		outlen = len;
	printf("encode %-14s %6.2f ns a row (%zu bytes a row)\n", name, best / nr * 1e9, len / (size_t)nr);
	free(prev);
}

static int
time_dec(const char *name, binary_decode_fn *dec)
{
	uint64_t *cur = calloc((size_t)n, 8);
	double *row = malloc(8 * (size_t)n), best = 1e9;
	int ok = 1;
	for (int run = 0; run < RUNS; run++) {
		double t0 = now();
		for (int pass = 0; pass < PASSES; pass++) {
			size_t off = 0;
			int nf;
			for (int r = 0; r < nr; r++) {
				off += dec(cur, row, out + off, n, &nf);
				if (pass == 0 && run == 0)
					for (int i = 0; i < n; i++)
						ok &= binary_word(row[i]) == binary_word(x[(size_t)r * n + i]);
			}
			ok &= off == outlen;
		}
		double t = (now() - t0) / PASSES;
		best = t < best ? t : best;
	}
	printf("decode %-14s %6.2f ns a row%s\n", name, best / nr * 1e9, ok ? "" : " (WRONG ROWS)");
	free(cur);
	free(row);
	return ok ? 0 : 1;
}

int
main(int argc, char **argv)
{
	if (argc < 2 || load(argv[1], argc > 2) != 0) {
		fprintf(stderr, "usage: codec-speed ROWS.csv [quarter]\n");
		return 2;
	}
	printf("%d rows of %d columns%s\n", nr, n, argc > 2 ? ", a quarter of the cells random" : "");
	/* tagk-regress's promise: from b on (column 13 of its 23), a
	 * sample's six rows are alike */
	int same = n == 23 ? 13 : n;
	time_enc("copy (v3)", enc_copy, 0, n);
	time_enc("binary_encode", enc_reference, 1, n);
	int bad = time_dec("binary_decode", dec_reference);
#if defined(__x86_64__) && defined(__GNUC__)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt")) {
		time_enc("avx2", binary_encode_avx2, 0, n);
		time_enc("avx2, promise", binary_encode_avx2, 0, same);
		bad |= time_dec("avx2", binary_decode_avx2);
	}
	if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("bmi2")) {
		time_enc("avx512", binary_encode_avx512, 0, n);
		time_enc("avx512, promise", binary_encode_avx512, 0, same);
		bad |= time_dec("avx512", binary_decode_avx512);
	}
#endif
	return bad;
}
