/*
 * actuator.h: the body wrench a multirotor's actuators give, from a log's
 * collective thrust or per-rotor commands, through the vehicle file's
 * actuator model (vehicle.h): a rotor's thrust from its command (the
 * thrust itself, kf w^2, or a thrust map of the command and the battery
 * voltage), then the scale and offset, and a first-order lag of time
 * constant motor_tau between the commanded thrust and the thrust:
 *
 *   T(t) = T(t') + (1 - exp(-(t - t') / tau)) (T_cmd(t) - T(t')),
 *
 * exact for a command held between the samples t' and t. The lag starts
 * (and restarts, after a gap) at the command.
 */
#ifndef TAGK_ACTUATOR_H
#define TAGK_ACTUATOR_H

#include "../formats/vehicle.h"

typedef struct {
	const vehicle *v;    /* NULL: the thrust as logged */
	int rotors;          /* 1: per-rotor commands; 0: one collective thrust */
	double lagged[VEHICLE_MAX_ROTORS]; /* the lag's state, per rotor or [0] */
	double t_prev;
	int primed;
} actuator;

void actuator_init(actuator *a, const vehicle *v, int rotors);
/* Restart the lag at the next command (after a gap in the log). */
void actuator_reset(actuator *a);
/* The body force f and torque tau (rotors only: tau is left alone for a
 * collective thrust) at time t from the commands u (v->n of them, or one
 * thrust) and the battery voltage vbat (NaN when not logged). */
void actuator_wrench(actuator *a, double t, const double *u, double vbat, double f[3], double tau[3]);

#endif
