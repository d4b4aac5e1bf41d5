/*
 * vehicle.h: the vehicle file, one "key values" line each, # comments:
 *
 *   rotor X Y Z DIR    a rotor's position (m, body) and the sign of its
 *                      reaction torque about z (+1 or -1)
 *   input thrust|speed|pwm   the rotor columns' meaning: thrust (N), speed
 *                      (rad/s, thrust = kf w^2) or a motor command (PWM or
 *                      any unit the thrust map takes)
 *   kf K               thrust per squared rad/s (input speed)
 *   kappa K            reaction torque per newton of thrust (m)
 *   thrust_map C0 C1 [C2 [C3]]   input pwm: a rotor's thrust in N as a
 *                      polynomial of its command u: C0 + C1 u + C2 u^2 + C3 u^3
 *   thrust_map_v C00 C10 C01 C20 C11 C02 [C30 C21 C12 C03]   input pwm: the
 *                      thrust as a polynomial of the command u and the
 *                      battery voltage v (V, the signal vbat): sum of
 *                      Cij u^i v^j, by degree then by falling power of u
 *   thrust_scale S     every thrust the file gives, or a log's commanded
 *                      collective thrust, times S (default 1)
 *   thrust_offset O    plus O newtons in all (a rotor's share O / n)
 *   motor_tau T        a first-order lag of time constant T (s) between the
 *                      command and the thrust (default 0: none)
 *   mass M             the vehicle's nominal mass (kg), which tagk-report
 *                      compares estimates with
 *   thrust_map_sd S    the relative sd of the thrust the rotor model gives
 *                      (the thrust map, or kf): a systematic error of every
 *                      force and torque from the rotors (0 to 1)
 *   command_sd S       the relative sd of a logged commanded collective
 *                      thrust as the thrust produced (--wrench thrust; 0 to 1)
 *   l_arm L            the physical gate's bound on ||c|| (m), eq. (15)
 *   alpha A            its bound on the largest inertia eigenvalue (kg m^2)
 *
 * Each value is one whole decimal number within its physical range
 * (keyval.h); every key but 'rotor' appears at most once.
 *
 * tagk-regress --wrench rotors reads the rotors and the thrust model;
 * --wrench thrust the scale, offset and lag; tagk-filter --physical the
 * gate's bounds; tagk-report the mass.
 */
#ifndef TAGK_VEHICLE_H
#define TAGK_VEHICLE_H

#include <stddef.h>
#include <stdio.h>

enum { VEHICLE_MAX_ROTORS = 16 };
typedef enum { VEH_INPUT_NONE, VEH_INPUT_THRUST, VEH_INPUT_SPEED, VEH_INPUT_PWM } vehicle_input;

typedef struct {
	int n;
	double pos[VEHICLE_MAX_ROTORS][3];
	double dir[VEHICLE_MAX_ROTORS];
	vehicle_input input;
	double kf, kappa;        /* thrust coefficient; reaction torque per newton */
	int map_n;               /* thrust_map's coefficients (0: none), C0 first */
	double map[4];
	int mapv_n;              /* thrust_map_v's (0: none; 6 or 10) */
	double mapv[10];
	double thrust_scale, thrust_offset; /* 1 and 0 unless given */
	double motor_tau;        /* s; 0 none */
	double mass;             /* kg, NAN when not given */
	double map_sd, cmd_sd;   /* thrust_map_sd, command_sd: relative, NAN when not given */
	double gate_l_arm, gate_alpha; /* NAN when the file does not say */
} vehicle;

/* Read path into v; 0, or -1 with "file:line: what" in err (len bytes).
 * rotors: the rotor lines and their input kind are required. */
int vehicle_read(const char *path, vehicle *v, int rotors, char *err, size_t len);
/* The same from f, open for reading, named path in messages; f is closed. */
int vehicle_read_file(FILE *f, const char *path, vehicle *v, int rotors, char *err, size_t len);
/* Write v in the same format (every value %.17g: reading it back gives v);
 * 0, or -1 on a write error. */
int vehicle_write(FILE *f, const vehicle *v);

/* Rotor i's thrust (N) from its command u (input pwm: the map; speed: kf
 * u^2; thrust: u), with the voltage vbat where thrust_map_v needs it, before
 * the scale, offset and lag. */
double vehicle_rotor_thrust(const vehicle *v, double u, double vbat);

#endif
