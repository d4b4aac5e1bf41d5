/*
 * logmap.h: where a log's signals are, for tagk-regress: the signals it
 * reads, their default columns, the presets of known log layouts, --map,
 * and the lookup of every signal's columns in an open table. The one place
 * that knows log layouts (tagk-estimate reads tagk streams only).
 */
#ifndef TAGK_LOGMAP_H
#define TAGK_LOGMAP_H

#include <stdio.h>
#include "../formats/table.h"

enum { S_T, S_ACC, S_ACCW, S_GYRO, S_ALPHA, S_QUAT, S_FORCE, S_TORQUE, S_THRUST, S_ROTORS, S_POS, S_VEL,
	S_RPY, S_VBAT, NSIG, LOGMAP_MAXK = 16 };

typedef struct {
	const char *name;
	int k;              /* columns; 0 = any number (rotors) */
	const char *cols;   /* default column names */
	const char *what;
} logmap_signal;

extern const logmap_signal logmap_signals[NSIG];

typedef struct {
	const char *name, *summary;
	const char *map[NSIG];
	int acc_g;          /* specific force in g */
	int pos_mm;         /* position in mm and velocity in mm/s */
	int gyro_deg;       /* angular velocity in degrees per second */
	const char *vehicle; /* the vehicle file the rotor columns need (vehicle_resolve), or NULL */
	int px4;            /* a PX4 ULog: FRD/NED frames, rotors from its parameters (px4.h) */
	const char *sd_vehicle; /* the vehicle file whose command_sd a commanded thrust has, or NULL */
} logmap_preset_t;

/* The preset called name, or NULL; the list for --list-presets. */
const logmap_preset_t *logmap_preset(const char *name);
/* For a Crazyflie uSD log read without --preset: the preset whose force
 * columns r has (the Lee controller's commanded thrust, else the motors'
 * PWM), or NULL. */
const logmap_preset_t *logmap_crazyflie_preset(tbl_reader *r);
void logmap_list_presets(FILE *f);

/* Parse --map SIGNAL=COL[,COL...] into user_map[SIGNAL]; exits with a
 * usage error for an unknown signal or a wrong column count. */
void logmap_parse(const char *arg, const char *user_map[NSIG]);

/* Every signal's columns in r: present when all are. */
typedef struct {
	int idx[NSIG][LOGMAP_MAXK], have[NSIG], nk[NSIG];
	char missing[NSIG][128]; /* the first absent column */
	const char *via[NSIG];   /* where the names came from when the user did not choose them, or NULL */
} logmap;

/* Look up map[s] (comma-separated names; one name for a k-column signal
 * names an N x k HDF5 dataset NAME.0 ... NAME.k-1) for every signal. */
void logmap_resolve(tbl_reader *r, const char *const map[NSIG], logmap *m);
/* Exit with "missing column ... for SIGNAL (why; map yours with --map)"
 * unless signal s is present. */
void logmap_need(const logmap *m, tbl_reader *r, int s, const char *why);

#endif
