/*
 * device.h: the benchmark a microcontroller runs (Teensy 4.1, or QEMU's
 * Cortex-M7), and that the host runs too for comparison: the TAG-K paper's
 * Table III shape. For m = 30 and each n, it times the paper's RLS and KF
 * forms, the cheaper forms, and TAG-K, and prints one CSV line per method:
 *
 *   row,TARGET,METHOD,FORM,m,n,updates,median_ticks,p95_ticks,theta0_hex,checksum_hex,failures
 *
 * theta0_hex is the bit pattern of the final estimate's first element and
 * checksum_hex an exclusive-or of all its elements' bits, so that a host and
 * a device run can be compared exactly. Windows are uniform numbers from the
 * integer generator: the inputs are the same bits on every platform.
 * Pure C, no allocation (buffers are static), no stdio.
 */
#ifndef TAGK_BENCH_DEVICE_H
#define TAGK_BENCH_DEVICE_H

#include <stdint.h>

typedef struct {
	const char *target;              /* "teensy41", "qemu-mps2-an500", "host" */
	void (*puts)(const char *line);  /* writes one line and a newline */
	uint64_t (*ticks)(void);         /* cycles, instructions or nanoseconds */
	const char *tick_unit;           /* "cycles", "instructions", "ns" */
	int updates;                     /* per method and size */
	const int *sizes;                /* n values, 0-terminated */
	uint64_t seed;
} bench_device_config;

/* Runs the table; returns 0, or the first tagk_status that failed. */
int bench_device_run(const bench_device_config *c);

#endif
