/*
 * harness.h: the timing benchmark shared by the host and microcontroller
 * builds. Pure C: no allocation, no I/O, no clock of its own. The caller
 * passes a tick source (nanoseconds on a host, DWT cycles on a Cortex-M7),
 * an optional allocation counter, and the buffers; results come back as
 * rows through a callback, which the host prints as a table and a board as
 * CSV on its UART.
 *
 * Each timed update gets a fresh window A (m x n), b = A theta* + noise,
 * generated from the run's seed before the clock starts, so every method
 * sees the same windows and generation is never timed.
 */
#ifndef TAGK_BENCH_HARNESS_H
#define TAGK_BENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include "sim/tagk_sim.h"

typedef struct {
	const char *method;  /* registry name, or "tagk-naive" for the yardstick */
	const char *form;    /* implementation form actually run */
	int m, n;
	int updates;         /* timed updates */
	double median, p95;  /* ticks per update */
	long allocs;         /* allocations during the timed updates, -1 unknown */
	int failures;        /* updates that returned an error */
	double rel_err;      /* ||theta - theta*|| / ||theta*|| after the last update */
	double columns;      /* greedy methods: mean Gram columns formed per update
	                        (distinct rows chosen); -1 otherwise */
	const tagk_real *theta; /* n: the final estimate, valid during emit */
} tagk_bench_row;

typedef struct {
	uint64_t (*ticks)(void);      /* monotonic tick counter */
	long (*alloc_count)(void);    /* allocations so far, or NULL */
	void (*emit)(const tagk_bench_row *row, void *ctx);
	void *ctx;
	uint64_t seed;
	int updates;                  /* per method and size */
	tagk_real noise;              /* std of the noise added to b */
	int iters;                    /* Kaczmarz iterations per update; 0 means m */
	int uniform;                  /* windows of uniform numbers in [-1, 1): made
	                                 by integer arithmetic only, so the same on
	                                 every platform (Gaussian ones call libm) */
} tagk_bench_setup;

/* Buffer sizes, in tagk_real elements, for windows up to m x n. */
size_t tagk_bench_scratch_len(int m, int n);
/* Workspace the method needs at this size: the largest of all methods. */
size_t tagk_bench_workspace_len(int m, int n);

/*
 * Time `method` (a registry name, optionally suffixed ":paper" or ":info" to
 * force an RLS form or ":joseph" or ":info" a KF form, or "tagk-naive") at
 * size m x n. ws holds ws_len reals
 * (>= tagk_bench_workspace_len), scratch >= tagk_bench_scratch_len, and times
 * holds setup->updates doubles. Emits one row. Returns TAGK_EINVAL for an
 * unknown method or bad sizes, TAGK_ESPACE for short buffers.
 */
tagk_status tagk_bench_run(const tagk_bench_setup *setup, const char *method, int m, int n,
    tagk_real *ws, size_t ws_len, tagk_real *scratch, size_t scratch_len, double *times);

#endif
