/*
 * bench_mass.h: tagk-bench's experiments on time-varying mass (paper 001,
 * lib/uavsim.h and lib/massest.h): massflight (one flight as a log) and
 * rmspe (the paper's tables of update time and RMSPE per trajectory).
 */
#ifndef TAGK_BENCH_MASS_H
#define TAGK_BENCH_MASS_H

int bench_massflight(int argc, char **argv);
int bench_rmspe(int argc, char **argv);

#endif
