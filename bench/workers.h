/*
 * workers.h: the join half of the benchmarks' fork-join (table2, ablation,
 * rmspe): each worker writes its share to a temporary file and exits 0.
 */
#ifndef TAGK_WORKERS_H
#define TAGK_WORKERS_H

#include <sys/types.h>

/* Wait for every worker; dies naming what ("table2") if one did not exit 0. */
void workers_wait(const char *what, const pid_t *pids, int n);

#endif
