/*
 * calibrate.h: tagk-regress --calibrate-mass, the thrust model fitted to a
 * flight of known mass m. Along body z, m a_z = S T + O for every airborne
 * sample, a_z the specific force and T the thrust the vehicle's model gives
 * now: least squares for the scale S and, when the flight varies the thrust
 * enough to tell them apart (its spread over 5 % of its mean), the offset O;
 * else O stays 0 and the note says the offset was not identifiable. The new
 * model composes with the old one: scale S * scale, offset S * offset + O.
 *
 * What is identifiable: one flight of known mass fixes the thrust's scale
 * (mass and scale are not both identifiable from one flight: m a = S T
 * holds for every (m, S) with the same m / S); a flight of unknown payload
 * then gives its mass through that scale, as far as the thrust map carries
 * over between flights (battery, motors, propellers).
 */
#ifndef TAGK_CALIBRATE_H
#define TAGK_CALIBRATE_H

#include <stddef.h>
#include "../formats/vehicle.h"

typedef struct {
	double m;                    /* the known mass, kg */
	long n;
	double sT, sA, sTT, sAA, sTA; /* sums of T, a, T^2, a^2, T a */
} calib;

void calib_init(calib *c, double mass);
/* One sample: the specific force along body z (m/s^2) and the thrust (N). */
void calib_add(calib *c, double az, double thrust);
/* Fit, fold the result into v's thrust_scale and thrust_offset, and say
 * what was fitted in what (one line). 0, or -1 with why in what. */
int calib_fit(const calib *c, vehicle *v, char *what, size_t len);

#endif
