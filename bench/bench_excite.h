/*
 * bench_excite.h: tagk-bench excite: an exciting trajectory for a robot's
 * whole-arm identification (Swevers et al. 1997): per joint a finite
 * Fourier series, its coefficients chosen to minimise the condition number
 * of the base regressor (Gautier's base parameters, lib/baseparam.h)
 * within the joints' position, velocity and acceleration limits, written
 * as a joint log (t, q, qd, qdd) a controller can replay.
 */
#ifndef TAGK_BENCH_EXCITE_H
#define TAGK_BENCH_EXCITE_H

int bench_excite(int argc, char **argv);

#endif
