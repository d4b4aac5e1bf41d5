/* actuator.c: the actuator model of tagk-regress; see actuator.h. */
#include <math.h>
#include <string.h>
#include "actuator.h"
#include "../lib/tagk.h"

void
actuator_init(actuator *a, const vehicle *v, int rotors)
{
	memset(a, 0, sizeof(*a));
	a->v = v;
	a->rotors = rotors;
}

void
actuator_reset(actuator *a)
{
	a->primed = 0;
}

/* The lag applied to the n thrusts T, in place. */
static void
lag(actuator *a, double t, int n, double *T)
{
	double tau = a->v ? a->v->motor_tau : 0;
	if (!(tau > 0))
		return;
	double w = a->primed ? 1 - exp(-(t - a->t_prev) / tau) : 1;
	for (int i = 0; i < n; i++) {
		a->lagged[i] += w * (T[i] - a->lagged[i]);
		T[i] = a->lagged[i];
	}
	a->t_prev = t;
	a->primed = 1;
}

void
actuator_wrench(actuator *a, double t, const double *u, double vbat, double f[3], double tau[3])
{
	const vehicle *v = a->v;
	double scale = v ? v->thrust_scale : 1, offset = v ? v->thrust_offset : 0;
	if (!a->rotors) {
		double T = u[0];
		lag(a, t, 1, &T);
		f[0] = f[1] = 0;
		f[2] = scale * T + offset;
		return;
	}
	double T[VEHICLE_MAX_ROTORS];
	for (int i = 0; i < v->n; i++)
		T[i] = vehicle_rotor_thrust(v, u[i], vbat);
	lag(a, t, v->n, T);
	for (int i = 0; i < v->n; i++)
		T[i] = scale * T[i] + offset / v->n;
	tagk_rotor_wrench(v->n, (const double (*)[3])v->pos, v->dir, v->kappa, T, f, tau);
}
