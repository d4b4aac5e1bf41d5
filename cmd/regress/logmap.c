/* logmap.c: signals, presets and column lookup of tagk-regress; see logmap.h. */
#include <string.h>
#include "colspec.h"
#include "logmap.h"
#include "cli.h"
#include "cmdio.h"

const logmap_signal logmap_signals[NSIG] = {
	{ "t", 1, "t", "time" },
	{ "acc", 3, "ax,ay,az", "body specific force (accelerometer)" },
	{ "acc_world", 3, "awx,awy,awz", "world-frame acceleration, gravity excluded (with quat; -m mass: alone)" },
	{ "gyro", 3, "gx,gy,gz", "body angular velocity" },
	{ "alpha", 3, "alx,aly,alz", "body angular acceleration" },
	{ "quat", 4, "qw,qx,qy,qz", "attitude quaternion, body to world" },
	{ "force", 3, "fx,fy,fz", "body force other than gravity" },
	{ "torque", 3, "tx,ty,tz", "body torque about the origin" },
	{ "thrust", 1, "thrust", "collective thrust along body z" },
	{ "rotors", 0, "", "per-rotor thrusts or speeds (with --vehicle)" },
	{ "pos", 3, "px,py,pz", "world position (-m state)" },
	{ "vel", 3, "vx,vy,vz", "world velocity (-m state)" },
	{ "rpy", 3, "roll,pitch,yaw", "attitude as roll, pitch, yaw in rad, instead of quat (-m state)" },
	{ "vbat", 1, "vbat", "battery voltage in V, for a vehicle's thrust_map_v" },
};

static const logmap_preset_t presets[] = {
	{ "crazyflie", "Crazyflie uSD log of the Lee controller (acc in g, commanded thrust and torque)",
	  { [S_T] = "t", [S_ACC] = "acc.x,acc.y,acc.z",
	    [S_GYRO] = "ctrlLee.omegax,ctrlLee.omegay,ctrlLee.omegaz",
	    [S_THRUST] = "ctrlLee.thrustSI|ctrlLee.thrustSi",
	    [S_TORQUE] = "ctrlLee.torquex,ctrlLee.torquey,ctrlLee.torquez",
	    /* -m state: the controller's attitude, the state estimate's
	     * position (mm) and velocity (mm/s) */
	    [S_RPY] = "ctrlLee.rpyx,ctrlLee.rpyy,ctrlLee.rpyz",
	    [S_POS] = "stateEstimateZ.x,stateEstimateZ.y,stateEstimateZ.z",
	    [S_VEL] = "stateEstimateZ.vx,stateEstimateZ.vy,stateEstimateZ.vz" },
	  1, 1, 0, NULL, 0, "crazyflie2" },
	{ "crazyflie-pwm", "Crazyflie uSD log of the motors' PWM (acc in g, gyro in deg/s), through the "
	  "vehicle crazyflie2",
	  { [S_T] = "t", [S_ACC] = "acc.x,acc.y,acc.z", [S_GYRO] = "gyro.x,gyro.y,gyro.z",
	    [S_ROTORS] = "motor.m1,motor.m2,motor.m3,motor.m4", [S_VBAT] = "pm.vbat",
	    /* without acc.*: the state estimate's world acceleration, in g
	     * with gravity removed (the firmware's stateEstimate.ax .. az) */
	    [S_ACCW] = "stateEstimate.ax,stateEstimate.ay,stateEstimate.az",
	    /* -m state: the state estimate's quaternion, position and velocity in m */
	    [S_QUAT] = "stateEstimate.qw,stateEstimate.qx,stateEstimate.qy,stateEstimate.qz",
	    [S_POS] = "stateEstimate.x,stateEstimate.y,stateEstimate.z",
	    [S_VEL] = "stateEstimate.vx,stateEstimate.vy,stateEstimate.vz" },
	  1, 0, 1, "crazyflie2", 0, NULL },
	{ "px4", "PX4 ULog (FRD/NED turned to tagk's frames): sensor_combined or vehicle_acceleration and "
	  "vehicle_angular_velocity, vehicle_attitude, actuator_motors through CA_ROTORi_* and THR_MDL_FAC, "
	  "full thrust from --vehicle or --calibrate-mass",
	  { [S_T] = "t",
	    [S_ACC] = "sensor_combined.accelerometer_m_s2.0|vehicle_acceleration.xyz.0,"
	    "sensor_combined.accelerometer_m_s2.1|vehicle_acceleration.xyz.1,"
	    "sensor_combined.accelerometer_m_s2.2|vehicle_acceleration.xyz.2",
	    [S_GYRO] = "sensor_combined.gyro_rad.0|vehicle_angular_velocity.xyz.0,"
	    "sensor_combined.gyro_rad.1|vehicle_angular_velocity.xyz.1,"
	    "sensor_combined.gyro_rad.2|vehicle_angular_velocity.xyz.2",
	    [S_QUAT] = "vehicle_attitude.q.0,vehicle_attitude.q.1,vehicle_attitude.q.2,vehicle_attitude.q.3",
	    /* the rotors: as many as CA_ROTOR_COUNT says (px4.h) */
	    [S_ROTORS] = "actuator_motors.control.0,actuator_motors.control.1,actuator_motors.control.2,"
	    "actuator_motors.control.3",
	    [S_POS] = "vehicle_local_position.x,vehicle_local_position.y,vehicle_local_position.z",
	    [S_VEL] = "vehicle_local_position.vx,vehicle_local_position.vy,vehicle_local_position.vz" },
	  0, 0, 0, NULL, 1, NULL },
	{ "sim", "tagk's own simulator and synthetic logs (the default column names)",
	  { 0 }, 0, 0, 0, NULL, 0, NULL },
};

const logmap_preset_t *
logmap_preset(const char *name)
{
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		if (strcmp(presets[i].name, name) == 0)
			return &presets[i];
	return NULL;
}

const logmap_preset_t *
logmap_crazyflie_preset(tbl_reader *r)
{
	if (tbl_find(r, "ctrlLee.thrustSI") >= 0 || tbl_find(r, "ctrlLee.thrustSi") >= 0 || tbl_find(r, "motor.m1") < 0)
		return logmap_preset("crazyflie");
	return logmap_preset("crazyflie-pwm");
}

void
logmap_list_presets(FILE *f)
{
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		fprintf(f, "%-14s %s\n", presets[i].name, presets[i].summary);
}

void
logmap_parse(const char *arg, const char *user_map[NSIG])
{
	const logmap_signal *sig = logmap_signals;
	const char *eq = strchr(arg, '=');
	int s = -1;
	for (int i = 0; eq && i < NSIG; i++)
		if (strlen(sig[i].name) == (size_t)(eq - arg) && strncmp(sig[i].name, arg, (size_t)(eq - arg)) == 0)
			s = i;
	if (!eq || s < 0 || !eq[1])
		cli_die(EXIT_USAGE, "--map: '%s' is not SIGNAL=COL[,COL...] with SIGNAL one of "
		    "t, acc, acc_world, gyro, alpha, quat, force, torque, thrust, rotors, pos, vel, rpy, vbat", arg);
	char buf[2048], *cols[LOGMAP_MAXK];
	int k = cli_split("--map", eq + 1, buf, sizeof(buf), cols, LOGMAP_MAXK);
	/* one name for a k-column signal: an N x k dataset, whose columns
	 * NAME.0 ... are looked up once the input is open */
	/* ranges and globs are counted once the input is open */
	if (sig[s].k && k != sig[s].k && k != 1 && !strpbrk(eq + 1, "{*?["))
		cli_die(EXIT_USAGE, "--map: %s takes %d column%s, '%s' names %d", sig[s].name, sig[s].k,
		    sig[s].k > 1 ? "s" : "", eq + 1, k);
	user_map[s] = eq + 1;
}

void
logmap_resolve(tbl_reader *r, const char *const map[NSIG], logmap *m)
{
	const logmap_signal *sig = logmap_signals;
	for (int s = 0; s < NSIG; s++) {
		char *cols[LOGMAP_MAXK], gen[LOGMAP_MAXK][128], names[LOGMAP_MAXK][COLSPEC_NAME];
		m->nk[s] = *map[s] ? colspec_expand(r, "--map", map[s], names, LOGMAP_MAXK) : 0;
		for (int j = 0; j < m->nk[s]; j++)
			cols[j] = names[j];
		if (sig[s].k && m->nk[s] != sig[s].k && m->nk[s] != 1)
			cli_die(EXIT_USAGE, "--map: %s takes %d column%s, '%s' names %d", sig[s].name, sig[s].k,
			    sig[s].k > 1 ? "s" : "", map[s], m->nk[s]);
		if (m->nk[s] == 1 && sig[s].k > 1) {
			/* an N x k dataset (HDF5 imu/acc) read as NAME.0 ... NAME.k-1 */
			char base[128];
			snprintf(base, sizeof(base), "%.100s", cols[0]);
			for (int j = 0; j < sig[s].k; j++) {
				snprintf(gen[j], sizeof(gen[j]), "%.100s.%d", base, j);
				cols[j] = gen[j];
			}
			if (tbl_find(r, cols[0]) < 0)
				cli_die(EXIT_DATA, "%s: --map %s=%s: no %d-column dataset '%s' (columns %s.0 ... %s.%d), "
				    "and %s takes %d columns", tbl_name(r), sig[s].name, base, sig[s].k, base, base, base,
				    sig[s].k - 1, sig[s].name, sig[s].k);
			m->nk[s] = sig[s].k;
		}
		m->have[s] = m->nk[s] > 0;
		m->via[s] = NULL;
		m->missing[s][0] = 0;
		for (int j = 0; j < m->nk[s]; j++) {
			/* "A|B": the first of the names the log has (firmware
			 * versions spell some log variables differently) */
			char *alt = cols[j], *bar;
			while ((bar = strchr(alt, '|')) && (*bar = 0, tbl_find(r, alt) < 0))
				alt = bar + 1;
			cols[j] = alt;
			m->idx[s][j] = tbl_find(r, cols[j]);
			if (m->idx[s][j] < 0 && m->have[s]) {
				m->have[s] = 0;
				snprintf(m->missing[s], sizeof(m->missing[s]), "%.120s", cols[j]);
			}
		}
	}
}

void
logmap_need(const logmap *m, tbl_reader *r, int s, const char *why)
{
	const logmap_signal *sig = logmap_signals;
	const char *col = m->missing[s][0] ? m->missing[s] : sig[s].cols;
	if (!m->have[s])
		cli_die(EXIT_DATA, "%s: missing column '%s' for %s (%s%s%s; map yours with --map %s=COLS)%s", tbl_name(r),
		    col, sig[s].name, why, m->via[s] ? "; the name is " : "", m->via[s] ? m->via[s] : "", sig[s].name,
		    cmdio_unread_hint(r, col));
}
