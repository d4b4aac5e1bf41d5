/*
 * bench_ulog.h: tagk-bench simulate -o FLIGHT.ulg, the simulated flight as
 * a PX4-like ULog (formats/ulog_out.h), for the ULog reader's and the px4
 * preset's tests: no outside file needed.
 *
 * What it writes, at every simulation step (50 Hz), since a boot 5 s before
 * the flight: sensor_combined (FRD: the specific force and angular
 * velocity with y and z negated), vehicle_attitude (q, NED <- FRD, from the
 * angular velocity integrated from level, stamped 1 ms later),
 * actuator_motors (control[12]: the four rotors' normalised thrusts
 * T / T_max, as PX4's allocator writes them, NaN in the rest; each rotor's
 * thrust from the body force's z and the torque through the rotor
 * geometry), actuator_outputs (output[16]: PWM, channel c driving the
 * rotor PWM_MAIN_FUNCc says, shuffled; the signal x from THR_MDL_FAC's
 * curve inverted, as PX4's FunctionMotors::updateValues(), over
 * PWM_MAIN_MINc .. MAXc = 1100 .. 1900), a second
 * sensor_accel instance, esc_status with a nested esc_report[4],
 * hover_thrust_estimate (hover_thrust: the normalised thrust each rotor
 * needs to carry the true mass m, m g / 4 / T_max),
 * vehicle_land_detected; parameters
 * CA_ROTOR_COUNT, CA_ROTORi_PX/PY/PZ/KM, THR_MDL_FAC, PWM_MAIN_FUNCc,
 * PWM_MAIN_MINc, PWM_MAIN_MAXc; a logged string and
 * a dropout.
 */
#ifndef TAGK_BENCH_ULOG_H
#define TAGK_BENCH_ULOG_H

#include <stdio.h>
#include "../lib/tagk.h"

/* The thrust model written: full thrust per rotor (N), THR_MDL_FAC. */
#define BENCH_ULOG_TMAX 0.2
#define BENCH_ULOG_FAC 0.5

typedef struct bench_ulog bench_ulog;

/* Begin the log on f (which stays the caller's); mass is the vehicle's
 * mass without payload. ground: seconds on the ground before the flight
 * (at most 4.9): the IMU at rest, the motors idling at 5 % (a command
 * whose thrust is far below the hover's), the land detector saying landed
 * until 1 s before lift-off (as PX4's says airborne early), the hover
 * estimate not valid. NULL out of memory. */
bench_ulog *bench_ulog_begin(FILE *f, double mass, double ground);
/* The trial's log callback (tagk_trial_log). */
void bench_ulog_row(void *ctx, tagk_real t, const tagk_real acc[3], const tagk_real gyro[3],
    const tagk_real al[3], const tagk_real f[3], const tagk_real tau[3], const tagk_real truth[TAGK_NPARAM],
    const tagk_real pos[3], const tagk_real ref[3]);
/* Finish: 0, or -1 if a write failed; frees b. */
int bench_ulog_end(bench_ulog *b);

#endif
