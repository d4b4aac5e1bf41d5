/*
 * vehicle.h: the vehicle file, one "key values" line each, # comments:
 *
 *   rotor X Y Z DIR    a rotor's position (m, body) and spin (+1 or -1)
 *   input thrust|speed the rotor columns' meaning
 *   kf K               thrust per squared rad/s (input speed)
 *   kappa K            reaction torque per newton of thrust
 *   l_arm L            the physical gate's bound on ||c|| (m), eq. (15)
 *   alpha A            its bound on the largest inertia eigenvalue (kg m^2)
 *
 * Each value is one whole decimal number within its physical range
 * (keyval.h); every key but 'rotor' appears at most once.
 *
 * tagk-regress --wrench rotors reads the rotors; tagk-filter --physical the
 * gate's bounds.
 */
#ifndef TAGK_VEHICLE_H
#define TAGK_VEHICLE_H

#include <stddef.h>
#include <stdio.h>

enum { VEHICLE_MAX_ROTORS = 16 };

typedef struct {
	int n;
	double pos[VEHICLE_MAX_ROTORS][3];
	double dir[VEHICLE_MAX_ROTORS];
	int speeds;       /* rotor columns are speeds (rad/s), thrust = kf w^2 */
	double kf, kappa; /* thrust coefficient; reaction torque per newton */
	double gate_l_arm, gate_alpha; /* NAN when the file does not say */
} vehicle;

/* Read path into v; 0, or -1 with "file:line: what" in err (len bytes).
 * rotors: the rotor lines and their input kind are required. */
int vehicle_read(const char *path, vehicle *v, int rotors, char *err, size_t len);
/* The same from f, open for reading, named path in messages; f is closed. */
int vehicle_read_file(FILE *f, const char *path, vehicle *v, int rotors, char *err, size_t len);

#endif
