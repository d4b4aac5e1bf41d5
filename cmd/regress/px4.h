/*
 * px4.h: tagk-regress --preset px4, a PX4 ULog (tagk-formats(5)) read as a
 * flight log: the frames, the rotors and thrust curve from the log's own
 * parameters, and the mass PX4's hover thrust estimate implies.
 *
 * Frames: PX4 logs its IMU in FRD (x forward, y right, z down) and its
 * attitude as the rotation NED <- FRD; tagk's body frame is FLU and its
 * world z up (NWU here). Both turn by pi about x: a vector's y and z change
 * sign, and a quaternion (w, x, y, z) becomes (w, x, -y, -z).
 *
 * Thrust: actuator_motors' control.i is rotor i's normalised thrust u in
 * [0, 1] (the control allocator's output; NaN for a channel no rotor
 * uses); its thrust is T_max u, linear: THR_MDL_FAC is applied after it,
 * by PX4's FunctionMotors::updateValues(), which inverts rel_thrust =
 * fac x^2 + (1 - fac) x into the signal x it writes to actuator_outputs.
 * Without actuator_motors, actuator_outputs.output is read: rotor i's
 * channel c has PWM_MAIN_FUNCc = 101 + i, x = (PWM - PWM_MAIN_MINc) /
 * (PWM_MAIN_MAXc - PWM_MAIN_MINc), its thrust T_max (fac x^2 + (1 - fac) x).
 * T_max, the full thrust of one rotor, is not in the log: the vehicle
 * file's thrust_scale, or --calibrate-mass's fit. Rotor i sits at CA_ROTORi_PX,
 * _PY, _PZ (FRD, m); CA_ROTORi_KM is its moment coefficient (PX4: the
 * torque about FRD's z per newton, > 0 for a counter-clockwise rotor), so
 * its reaction torque about tagk's z is -KM T.
 */
#ifndef TAGK_PX4_H
#define TAGK_PX4_H

#include <stddef.h>
#include "logmap.h"
#include "../formats/vehicle.h"

/* The rotor columns of n rotors ("actuator_motors.control.0,...", else
 * actuator_outputs' channels by PWM_MAIN_FUNCc) into cols, and n: from
 * CA_ROTOR_COUNT, else the CA_ROTORi_PX there are, else the vehicle file's
 * rotors (nveh). Dies when none says, or the log has neither topic. */
int px4_rotor_cols(tbl_reader *r, int nveh, char *cols, size_t len);
/* v completed from the log's parameters: rotors (unless the vehicle file
 * has rotor lines), input pwm, the thrust curve (unless it has a
 * thrust_map): linear, or THR_MDL_FAC's over the PWM range when the rotor
 * columns (rotors, as --map gives them) are actuator_outputs'; have_file:
 * v holds a vehicle file, else it is new (thrust_scale 1). Dies naming a
 * missing parameter. */
void px4_vehicle(tbl_reader *r, vehicle *v, int have_file, const char *rotors);
/* Row from FRD/NED to tagk's frames, in place: y and z of the 3-vector
 * signals present, y and z of the quaternion. */
void px4_frames(double *row, const logmap *lm);
/* The mass hover_thrust_estimate implies through v's thrust model: the
 * median of its valid hover_thrust (a rotor's normalised thrust at hover)
 * as each of v's rotors' actuator_motors value (linear when v's map reads
 * actuator_outputs' PWM: rotors, the rotor columns, name them); NAN when path is not a file or the log has no
 * such topic. *n the samples used. */
double px4_hover_mass(const char *path, const tbl_options *in, const vehicle *v, const char *rotors, long *n,
    double *hover);

#endif
