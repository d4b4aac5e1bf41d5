/*
 * friction.h: the joint friction file, written by tagk-regress
 * --fit-friction and read by --friction: per joint, the torque (or force)
 * its friction and offset add to the rigid-body dynamics,
 *   tau_f = fv qd + fc s(qd) + fo,
 * s the sign, or tanh(qd / smooth) when smooth > 0. Lines, # comments:
 *   smooth V               the Coulomb term's smoothing velocity (rad/s or
 *                          m/s; default 0: the sign), at most once
 *   joint J FV FC FO       joint J (1 ..) : viscous (N m s/rad), Coulomb
 *                          (N m) and offset (N m), each once
 * Numbers are read by keyval.h's strict rules; joints 1 .. N must all be
 * given. Written with every value shortest round-trip.
 */
#ifndef TAGK_FRICTION_H
#define TAGK_FRICTION_H

#include <stddef.h>
#include <stdio.h>

enum { FRICTION_MAX_JOINTS = 64 };

typedef struct {
	int n;
	double fv[FRICTION_MAX_JOINTS], fc[FRICTION_MAX_JOINTS], fo[FRICTION_MAX_JOINTS];
	double smooth;
} friction;

/* Read path (or f, closed) into fr; 0, or -1 with "file:line: what". */
int friction_read(const char *path, friction *fr, char *err, size_t len);
int friction_read_file(FILE *f, const char *path, friction *fr, char *err, size_t len);
/* Write fr, with comment lines first (each line of comment prefixed "# ";
 * NULL: none); 0, or -1 on a write error. */
int friction_write(FILE *f, const friction *fr, const char *comment);
/* Joint j's (0-based) friction torque at velocity qd. */
double friction_torque(const friction *fr, int j, double qd);

#endif
