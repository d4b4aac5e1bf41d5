/*
 * bench_grasp.h: tagk-bench's paper 003 experiments (lib/sim/grasp.h):
 * grasp-table (the paper's Tables II and III).
 */
#ifndef TAGK_BENCH_GRASP_H
#define TAGK_BENCH_GRASP_H

int bench_grasp_table(int argc, char **argv);

#endif
