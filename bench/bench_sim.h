/*
 * bench_sim.h: tagk-bench's closed-loop experiments (lib/trial.h):
 * simulate (one flight as a log), table2 (the TAG-K paper's Table II, with
 * sharding), merge (shards into the table), ablation (Fig. 3b).
 */
#ifndef TAGK_BENCH_SIM_H
#define TAGK_BENCH_SIM_H

int bench_simulate(int argc, char **argv);
int bench_table2(int argc, char **argv);
int bench_merge(int argc, char **argv);
int bench_ablation(int argc, char **argv);

#endif
