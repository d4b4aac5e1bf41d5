/*
 * bench_coordinv.h: tagk-bench coordinv, paper 002's coordinate-(in)dependent
 * identification compared as tables (lib/coordinv.h, bench/sim/swimmer.h).
 */
#ifndef TAGK_BENCH_COORDINV_H
#define TAGK_BENCH_COORDINV_H

int bench_coordinv(int argc, char **argv);

#endif
