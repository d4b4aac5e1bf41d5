/*
 * bench_shake.h: tagk-bench's paper 004 experiments (bench/sim/arm.h): shake
 * (simulated held objects as a joint log or a training set) and
 * shake-table (the paper's Tables II and III on simulated test objects).
 */
#ifndef TAGK_BENCH_SHAKE_H
#define TAGK_BENCH_SHAKE_H

int bench_shake(int argc, char **argv);
int bench_shake_table(int argc, char **argv);

#endif
