/* hostdev.c [SIZES [UPDATES]]: bench/device.c on the host, for comparison
 * with the microcontroller images (built in double or, with -DTAGK_FLOAT,
 * float; the device core is the same source). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../bench/device.h"

static uint64_t
ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void
line(const char *s)
{
	puts(s);
}

int
main(int argc, char **argv)
{
	int sizes[17] = { 40, 60, 80, 100, 120, 0 }, k = 0;
	if (argc > 1) {
		char *save, *buf = strdup(argv[1]);
		for (char *t = strtok_r(buf, ",", &save); t && k < 16; t = strtok_r(NULL, ",", &save))
			sizes[k++] = atoi(t);
		sizes[k] = 0;
	}
	bench_device_config c = { .target = "host", .puts = line, .ticks = ns, .tick_unit = "ns",
		.updates = argc > 2 ? atoi(argv[2]) : 20, .sizes = sizes, .seed = 1 };
	return bench_device_run(&c) != 0;
}
