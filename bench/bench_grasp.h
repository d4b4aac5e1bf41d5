/*
 * bench_grasp.h: tagk-bench's paper 003 experiments (bench/sim/grasp.h):
 * grasp (one run as a log) and grasp-table (the paper's Tables II and III).
 */
#ifndef TAGK_BENCH_GRASP_H
#define TAGK_BENCH_GRASP_H

int bench_grasp(int argc, char **argv);
int bench_grasp_table(int argc, char **argv);

#endif
