/*
 * tagk-regress: read a flight or robot log and write the regressor stream,
 * the rows of A and b of the Newton-Euler equations per log sample.
 *
 * Output columns: t, row (0-5: fx fy fz tx ty tz; mass model 0-2), the ten
 * regressor entries Y_m ... Y_Izz (mass model: Y_m), b, then (with
 * --airborne) the span each sample belongs to, then every true_* column of
 * the input, unchanged.
 *
 * With -m state it writes instead the normalised state stream that the
 * state-space methods read (tagk-estimate -a ekf ...), one row per sample
 * in SI units: t, thrust, gx gy gz, qw qx qy qz, px py pz, vx vy vz, [span],
 * true_*. With --calibrate-mass it writes a vehicle file instead
 * (calibrate.h). Column mapping, units, presets (logmap.h) and the actuator
 * model (actuator.h) exist here only; -m multibody is regress_multibody.c.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "actuator.h"
#include "airborne.h"
#include "calibrate.h"
#include "friction_fit.h"
#include "cli.h"
#include "cmdio.h"
#include "logmap.h"
#include "px4.h"
#include "regress_multibody.h"
#include "wholearm.h"
#include "unitguard.h"
#include "consistency_guard.h"
#include "../formats/vehicle.h"
#include "../lib/tagk.h"

enum { M_RIGID, M_MASS, M_STATE, M_MULTIBODY };

/* Everything the command line says. */
typedef struct {
	int model;
	const char *user_map[NSIG], *outname, *vehfile, *wrench, *inname;
	int acc_g, gyro_deg, kwin, pos_mm, other; /* -1: not given */
	double tscale, max_gap;
	int tscale_set;            /* --time-unit given: unitguard.h checks nothing */
	int no_att_check;          /* --no-consistency-check (consistency_guard.h) */
	const logmap_preset_t *pre;
	int airborne;
	double min_span, trim;
	double calibrate;          /* the known mass of --calibrate-mass, or 0 */
	double scale_sd;           /* --scale-sd: the rows' scale's relative sd, or -1 */
	regress_mb_opts mb;
	int rows_set, mb_set;      /* a multibody-only option was given */
	const char *maps[64];      /* --map, parsed once the model is known */
	int nmaps;
	tbl_options in;
} regress_opts;

/* One log sample, in SI units. */
typedef struct {
	double t, a[3], w[3], f[3], tau[3];
	double *truth;
} sample;

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: tagk-regress [-m rigid-body|mass|state] [-f csv|hdf5|cfusd] [--map SIGNAL=COLS]...\n"
	    "                    [--preset NAME] [--acc-unit mps2|g] [--gyro-unit rad|deg] [--pos-unit m|mm]\n"
	    "                    [--time-unit s|ms|us|ns] [--no-consistency-check] [--wrench force|thrust|rotors]\n"
	    "                    [--vehicle FILE] [--airborne [--min-span S] [--trim S]] [--calibrate-mass KG]\n"
	    "                    [--alpha-window K] [--max-gap SEC] [--skip-bad] [--ignore-crc]\n"
	    "                    [--group G] [--event E] [--stream S] [-o FILE] [FILE|-]\n"
	    "       tagk-regress -m multibody --robot FILE --unknown BODY|BODY,BODY...|all | --held BODY\n"
	    "                    [--rows force|momentum|energy] [--metric] [--map SIGNAL=COLS]...\n"
	    "                    [--angle-unit rad|deg] [--sg-window S] [--sg-order P] [--sg-smooth]\n"
	    "                    [--friction FILE | --fit-friction TERMS | --friction-terms TERMS]\n"
	    "                    [--coulomb-smooth V] [--base [--base-groups FILE]] [--no-consistency-check]\n"
	    "                    [--no-fit-check]\n"
	    "                    [--time-unit s|ms|us|ns] [-f csv|hdf5] [--skip-bad] [--stream S]\n"
	    "                    [-o FILE] [FILE|-]\n"
	    "       tagk-regress -m multibody --robot FILE --identify [--friction-terms TERMS]\n"
	    "                    [--prior-metric euclid|pullback|logdet] [--prior-weight W]\n"
	    "                    [--write-robot FILE] [--write-friction FILE] [options as above]\n"
	    "       tagk-regress -m multibody --robot FILE --predict [--friction FILE] [options as above]\n"
	    "       tagk-regress --list-presets | --help | --version\n"
	    "Log to regressor rows (t, row, Y_*, b) of the Newton-Euler equations, or to a state stream.\n"
	    "  -m, --model M          rigid-body (10 parameters, default), mass, state (for ekf ... swls),\n"
	    "                         or multibody (a robot's joint log)\n"
	    "      --robot FILE       multibody: the robot: a model file, URDF or MJCF (tagk-formats(5)),\n"
	    "                         or a shipped one by name (panda, panda_nohand)\n"
	    "      --unknown BODY     multibody: rows for BODY's own ten parameters; all, or a list\n"
	    "                         BODY,BODY...: every listed body's at once (columns PARAM_BODY)\n"
	    "      --held BODY        multibody: rows for an object BODY holds (in BODY's frame)\n"
	    "      --rows R           multibody: force (inverse dynamics, default), momentum or energy rows\n"
	    "      --metric           multibody force rows: also each row of the mass matrix and of its parts\n"
	    "      --angle-unit U     multibody: revolute joints' q, qd, qdd in rad (default) or deg (a log\n"
	    "                         with a joint past 2 pi + 0.5 rad in five samples is refused unless given)\n"
	    "      --sg-window S      multibody: qdd (qd) absent: derived from qd (q) by a Savitzky-Golay\n"
	    "                         filter over S seconds (default: chosen from the data for qd and qdd\n"
	    "                         from q, and said; else 0.05)\n"
	    "      --sg-order P       ... of degree P (default 3)\n"
	    "      --sg-smooth        ... applied to the measured q, qd and tau too\n"
	    "      --friction FILE    multibody: subtract the joints' friction (tagk-formats(5)) from tau\n"
	    );
	fprintf(f,
	    "      --fit-friction T   multibody: fit friction terms T (viscous,coulomb,offset) on a log of\n"
	    "                         the robot without payload and write the friction file, not rows\n"
	    "      --friction-terms T multibody: estimate friction terms T with the payload, in one least\n"
	    "                         squares problem (concentrated out of the rows; stderr gives them);\n"
	    "                         --unknown all or a list: columns fv_J fc_J fo_J fs_J (T: viscous,\n"
	    "                         coulomb, offset, sigmoid)\n"
	    "      --coulomb-smooth V the Coulomb term tanh(qd / V) instead of sign(qd)\n"
	    "      --base             multibody, --unknown all or a list: rows for the base parameters\n"
	    "                         (Y_b1 ..), their grouping on stderr (Gautier's QR)\n"
	    "      --base-groups FILE ... and the grouping and null space written to FILE\n"
	    "      --no-fit-check     multibody: write the rows even where the torques are not explained by\n"
	    "                         the model and the unknown body (refused otherwise: a sign, unit,\n"
	    "                         column order, joint offset or robot that is wrong)\n");
	fprintf(f,
	    "      --identify         multibody: every link's ten parameters (and --friction-terms) from the\n"
	    "                         log, physically consistent, the rest from the description; -o gets\n"
	    "                         the identified model file, not rows\n"
	    "      --prior-metric M   --identify: the pull toward the description: euclid, pullback\n"
	    "                         (default) or logdet (paper 002)\n"
	    "      --prior-weight W   --identify: its weight a sample (default 1e-4)\n"
	    "      --write-robot F    --identify: the URDF or MJCF --robot with its inertials replaced\n"
	    "      --write-friction F --identify: the friction terms identified, as a friction file\n"
	    "      --predict          multibody: t, tau1.., tau_pred1.. (the description's inverse dynamics\n"
	    "                         plus --friction), and each joint's RMS residual on stderr\n"
	    );
	fprintf(f,
	    "      --map SIGNAL=COLS  read SIGNAL (t, acc, gyro, alpha, quat, force, torque, thrust, rotors,\n"
	    "                         vbat...; multibody: t, q, qd, qdd, tau) from COLS: names, PRE{1..7}SUF\n"
	    "                         ranges or globs\n"
	    "      --preset NAME      a log layout's columns and units (--list-presets names them;\n"
	    "                         default for a Crazyflie uSD log: crazyflie, or crazyflie-pwm;\n"
	    "                         px4: a PX4 ULog, FRD/NED turned, rotors from its CA_ROTOR*,\n"
	    "                         actuator_motors as normalised thrust (linear: THR_MDL_FAC is\n"
	    "                         PX4's FunctionMotors curve to actuator_outputs' PWM, read only\n"
	    "                         without actuator_motors), a rotor's full thrust from --vehicle's\n"
	    "                         thrust_scale)\n"
	    "      --acc-unit U       acc and acc_world in mps2 (default) or g (acc whose median is not\n"
	    "                         within 0.4-2.5 g is refused unless this is given)\n"
	    "      --gyro-unit U      angular velocity in rad (default) or deg per second (read as rad,\n"
	    "                         five samples over 40 rad/s are refused unless this is given)\n"
	    "      --time-unit U      time in s (default), ms, us or ns (a log whose samples are over\n"
	    "                         0.5 s apart is refused unless this is given)\n"
	    "      --pos-unit U       state: position and velocity in m (default) or mm\n"
	    "      --no-consistency-check  read signals as they are where they disagree: an attitude that\n"
	    "                         does not turn with the gyro, a gyro or a joint angle whose change\n"
	    "                         is not its alpha's or velocity's integral, a force against the\n"
	    "                         specific force (an order, frame, unit or column misread)\n"
	    "      --wrench W         force and torque from force (default), thrust or rotors\n"
	    "      --vehicle FILE     rotors, thrust map, scale and lag (tagk-formats(5)); a bare name\n"
	    "                         (crazyflie2) is looked up among the vehicles tagk ships\n"
	    "      --airborne         keep only the spans where the vehicle flies, by thrust and by\n"
	    "                         thrust / specific force at the ends (said on stderr)\n"
	    "      --min-span S       --airborne: the shortest span kept, seconds (default 1)\n"
	    "      --trim S           --airborne: seconds dropped at each end of a span (default 0.3)\n"
	    "      --scale-sd REL     the relative sd of the rows' scale (a thrust map's, a commanded\n"
	    "                         thrust's, an arm's efforts'), for tagk-estimate's sd_sys_* columns\n"
	    "                         (default: the vehicle file's thrust_map_sd or command_sd)\n"
	    "      --calibrate-mass KG  fit the thrust's scale (and offset) to a flight of known mass and\n"
	    "                         write the vehicle file with it, instead of rows\n"
	    "      --alpha-window K   differentiate the gyro over 2K+1 samples when alpha is absent\n"
	    "      --max-gap SEC      a longer gap in time is an error (default 0.5)\n"
	    "      --list-presets     list the presets and exit\n"
	    "  -o, --output FILE      write FILE (HDF5 if .h5, gzip if .gz) instead of stdout\n");
	cmdio_stream_help(f);
	cmdio_input_help(f);
}

/* --- options --------------------------------------------------------------- */

static const struct option opts[] = {
	{ "model", required_argument, NULL, 'm' },
	{ "map", required_argument, NULL, 'M' },
	{ "preset", required_argument, NULL, 'p' },
	{ "acc-unit", required_argument, NULL, 2001 },
	{ "gyro-unit", required_argument, NULL, 2002 },
	{ "time-unit", required_argument, NULL, 2003 },
	{ "wrench", required_argument, NULL, 2004 },
	{ "vehicle", required_argument, NULL, 2005 },
	{ "alpha-window", required_argument, NULL, 2006 },
	{ "max-gap", required_argument, NULL, 2007 },
	{ "list-presets", no_argument, NULL, 2008 },
	{ "pos-unit", required_argument, NULL, 2009 },
	{ "robot", required_argument, NULL, 2010 },
	{ "unknown", required_argument, NULL, 2011 },
	{ "held", required_argument, NULL, 2012 },
	{ "rows", required_argument, NULL, 2013 },
	{ "metric", no_argument, NULL, 2014 },
	{ "airborne", no_argument, NULL, 2015 },
	{ "min-span", required_argument, NULL, 2016 },
	{ "trim", required_argument, NULL, 2017 },
	{ "calibrate-mass", required_argument, NULL, 2018 },
	{ "angle-unit", required_argument, NULL, 2019 },
	{ "sg-window", required_argument, NULL, 2020 },
	{ "sg-order", required_argument, NULL, 2021 },
	{ "sg-smooth", no_argument, NULL, 2022 },
	{ "friction", required_argument, NULL, 2023 },
	{ "fit-friction", required_argument, NULL, 2024 },
	{ "coulomb-smooth", required_argument, NULL, 2025 },
	{ "friction-terms", required_argument, NULL, 2026 },
	{ "scale-sd", required_argument, NULL, 2040 },
	{ "no-consistency-check", no_argument, NULL, 2027 },
	{ "base", no_argument, NULL, 2055 },
	{ "base-groups", required_argument, NULL, 2056 },
	{ "no-fit-check", no_argument, NULL, 2028 },
	{ "identify", no_argument, NULL, 2091 },
	{ "predict", no_argument, NULL, 2092 },
	{ "prior-weight", required_argument, NULL, 2093 },
	{ "prior-metric", required_argument, NULL, 2094 },
	{ "write-robot", required_argument, NULL, 2095 },
	{ "write-friction", required_argument, NULL, 2096 },
	CMDIO_OPTIONS_END,
};

/* The options of -m multibody's own group; the others are refused there. */
static int
multibody_option(regress_opts *o, int c, const char *arg)
{
	static const char *const rows[] = { "force", "momentum", "energy", NULL };
	static const char *const angu[] = { "rad", "deg", NULL };
	switch (c) {
	case 2019:
		o->mb.angle_deg = cli_choose("--angle-unit", arg, angu, "rad or deg");
		o->mb.angle_set = 1;
		o->mb_set = c;
		return 1;
	case 2020: o->mb.sg_window = cli_double("--sg-window", arg, 1e-6, 1e4); o->mb_set = c; return 1;
	case 2021: o->mb.sg_order = (int)cli_long("--sg-order", arg, 1, TAGK_SG_MAX_ORDER); o->mb_set = c; return 1;
	case 2022: o->mb.sg_smooth = 1; o->mb_set = c; return 1;
	case 2028: o->mb.no_fit_check = 1; o->mb_set = c; return 1;
	case 2023: o->mb.friction = arg; o->mb_set = c; return 1;
	case 2024: o->mb.fit_kinds = ffit_kinds("--fit-friction", arg); o->mb_set = c; return 1;
	case 2026: /* sigmoid only for the whole-arm rows (wholearm.h), which say so */
		o->mb.fwl_kinds = strstr(arg, "sigmoid") ? wa_kinds("--friction-terms", arg) : ffit_kinds("--friction-terms", arg);
		o->mb_set = c;
		return 1;
	case 2055: o->mb.base = 1; o->mb_set = c; return 1;
	case 2056: o->mb.base_groups = arg; o->mb.base = 1; o->mb_set = c; return 1;
	case 2025: o->mb.coulomb_smooth = cli_double("--coulomb-smooth", arg, 0, 1e3); o->mb_set = c; return 1;
	case 2010: o->mb.robot = arg; return 1;
	case 2091: /* fallthrough */
	case 2092:
		if (o->mb.arm.mode && o->mb.arm.mode != (c == 2091 ? ARM_IDENTIFY : ARM_PREDICT))
			cli_die(EXIT_USAGE, "--identify and --predict: one of the two");
		o->mb.arm.mode = c == 2091 ? ARM_IDENTIFY : ARM_PREDICT;
		o->mb_set = c;
		return 1;
	case 2093: o->mb.arm.prior_weight = cli_double("--prior-weight", arg, 0, 1e12); o->mb_set = c; return 1;
	case 2094: o->mb.arm.prior_metric = arm_prior_metric(arg); o->mb_set = c; return 1;
	case 2095: o->mb.arm.write_robot = arg; o->mb_set = c; return 1;
	case 2096: o->mb.arm.write_friction = arg; o->mb_set = c; return 1;
	case 2011:
	case 2012:
		if (o->mb.body)
			cli_die(EXIT_USAGE, "--unknown and --held: one body, once");
		o->mb.body = arg;
		o->mb.held = c == 2012;
		return 1;
	case 2013:
		o->mb.rows = cli_choose("--rows", arg, rows, "force, momentum or energy");
		o->rows_set = 1;
		return 1;
	case 2014: o->mb.metric = 1; return 1;
	}
	return 0;
}

/* A log option (one -m multibody refuses); 1 if c was one. */
static int
log_option(regress_opts *o, int c, const char *arg)
{
	static const char *const accu[] = { "mps2", "g", NULL }, *const gyu[] = { "rad", "deg", NULL };
	static const char *const posu[] = { "m", "mm", NULL };
	static const char *const wr[] = { "force", "thrust", "rotors", NULL };
	switch (c) {
	case 'p':
		if (!(o->pre = logmap_preset(arg)))
			cli_die(EXIT_USAGE, "--preset: unknown preset '%s' (see --list-presets)", arg);
		break;
	case 2001: o->acc_g = cli_choose("--acc-unit", arg, accu, "mps2 or g"); break;
	case 2002: o->gyro_deg = cli_choose("--gyro-unit", arg, gyu, "rad or deg"); break;
	case 2004: cli_choose("--wrench", arg, wr, "force, thrust or rotors"); o->wrench = arg; break;
	case 2005: o->vehfile = arg; break;
	case 2006: o->kwin = (int)cli_long("--alpha-window", arg, 1, 50); break;
	case 2007: o->max_gap = cli_double("--max-gap", arg, 1e-6, 1e9); break;
	case 2009: o->pos_mm = cli_choose("--pos-unit", arg, posu, "m or mm"); break;
	case 2015: o->airborne = 1; break;
	case 2016: o->min_span = cli_double("--min-span", arg, 0, 1e6); break;
	case 2017: o->trim = cli_double("--trim", arg, 0, 1e6); break;
	case 2018: o->calibrate = cli_double("--calibrate-mass", arg, 1e-6, 1e4); break;
	case 2040: o->scale_sd = cli_double("--scale-sd", arg, 0, 1); o->mb.scale_sd = o->scale_sd; return 1;
	default: return 0;
	}
	o->other = c;
	return 1;
}

static void
parse(int argc, char **argv, regress_opts *o)
{
	static const char *const models[] = { "rigid-body", "mass", "state", "multibody", NULL };
	memset(o, 0, sizeof(*o));
	o->acc_g = o->pos_mm = o->gyro_deg = -1;
	o->kwin = 2;
	o->tscale = 1;
	o->max_gap = 0.1;
	o->min_span = -1;
	o->trim = -1;
	o->scale_sd = o->mb.scale_sd = -1;
	o->mb.arm.prior_weight = -1;
	o->mb.arm.prior_metric = 1;
	int c;
	while ((c = cli_getopt(argc, argv, "m:f:o:hV", opts)) != -1) {
		if (cmdio_input_option(&o->in, c, optarg) || cmdio_output_option(c, optarg) ||
		    multibody_option(o, c, optarg) || log_option(o, c, optarg))
			continue;
		switch (c) {
		case 'm': o->model = cli_choose("-m", optarg, models, "rigid-body, mass, state or multibody"); break;
		case 'M':
			if (o->nmaps == (int)(sizeof(o->maps) / sizeof(o->maps[0])))
				cli_die(EXIT_USAGE, "--map: at most %d", o->nmaps);
			o->maps[o->nmaps++] = optarg;
			break;
		case 2027: /* both kinds of log */
			o->no_att_check = o->mb.no_check = 1;
			break;
		case 2003:
			o->tscale = timeunit_scale("--time-unit", optarg);
			o->tscale_set = 1;
			break;
		case 2008:
			logmap_list_presets(stdout);
			cli_close(stdout, "stdout");
			exit(0);
		case 'o': o->outname = optarg; break;
		case 'h': cli_help(usage);
		case 'V': cli_version();
		default: usage(stderr); exit(EXIT_USAGE);
		}
	}
	if (argc - optind > 1)
		cli_die(EXIT_USAGE, "one input file at most (got '%s' and '%s')", argv[optind], argv[optind + 1]);
	o->inname = optind < argc ? argv[optind] : "-";
	if (o->model != M_MULTIBODY && (o->mb.robot || o->mb.body || o->rows_set || o->mb.metric || o->mb_set))
		cli_die(EXIT_USAGE, "--robot, --unknown, --held, --rows, --metric, --angle-unit, --sg-* and the "
		    "friction options apply to -m multibody");
	for (int i = 0; i < o->nmaps; i++)
		if (o->model == M_MULTIBODY)
			regress_mb_map(o->maps[i], o->mb.map);
		else
			logmap_parse(o->maps[i], o->user_map);
	if (!o->mb.sg_order)
		o->mb.sg_order = 3;
	if (o->model == M_MULTIBODY && o->other) {
		const char *name = "?";
		for (int i = 0; opts[i].name; i++)
			if (opts[i].val == o->other)
				name = opts[i].name;
		cli_die(EXIT_USAGE, "--%s does not apply to -m multibody", name);
	}
	if (o->pos_mm >= 0 && o->model != M_STATE)
		cli_die(EXIT_USAGE, "--pos-unit applies to -m state");
	if ((o->min_span >= 0 || o->trim >= 0) && !o->airborne)
		cli_die(EXIT_USAGE, "--min-span and --trim apply to --airborne");
	if (o->calibrate && o->model == M_STATE)
		cli_die(EXIT_USAGE, "--calibrate-mass reads the specific force and the thrust: -m rigid-body or mass");
	/* ground time is not Newton's law of a flying body: a calibration
	 * always reads the airborne spans */
	if (o->calibrate)
		o->airborne = 1;
	if (o->min_span < 0)
		o->min_span = 1;
	if (o->trim < 0)
		o->trim = 0.3;
}

/* --- the vehicle ----------------------------------------------------------- */

/* --- reading a log --------------------------------------------------------- */

static void
quat_rotate_t(const double q[4], const double v[3], double out[3])
{
	/* out = R(q)^T v: world to body, for a unit quaternion q = (w, x, y, z) */
	double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
	double w = q[0] / n, x = q[1] / n, y = q[2] / n, z = q[3] / n;
	double R[9] = {
		1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
		2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
		2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
	};
	for (int i = 0; i < 3; i++)
		out[i] = R[i] * v[0] + R[3 + i] * v[1] + R[6 + i] * v[2];
}

/* Where each signal is, and how the sample is made. */
typedef struct {
	regress_opts *o;
	tbl_reader *r;
	logmap lm;
	const char *map[NSIG];
	int src;                  /* S_FORCE, S_THRUST or S_ROTORS */
	int use_accw, use_rpy, use_alpha, acc_g, gyro_deg, pos_mm;
	int reopened;        /* the second pass (--airborne): say nothing twice */
	vehicle veh;
	int have_veh;
	actuator act;
	int ntrue, *tidx;
	timeunit tu;
	accunit au;
	gyrounit gu;
	attguard ag;
	derivguard alg;      /* a logged alpha against the gyro's change (consistency_guard.h) */
	forceguard fg;       /* the force against the specific force (consistency_guard.h) */
	int att_on;          /* the rows use the log's attitude and the gyro: ag checks it */
	int px4;             /* --preset px4: rows turned from FRD/NED (px4.h) */
	int reopened_hover;  /* the hover thrust's mass said */
	char px4_rotors[VEHICLE_MAX_ROTORS * 32];
	const char *path;
	const logmap_preset_t *pre; /* the preset in use (given or the log's default), or NULL */
} logreader;

#define NEED(L, s, why) logmap_need(&(L)->lm, (L)->r, s, why)

/* The force source: as asked, or what the log has. */
static void
choose_source(logreader *L)
{
	const regress_opts *o = L->o;
	const int *have = L->lm.have;
	if (o->wrench)
		L->src = strcmp(o->wrench, "force") == 0 ? S_FORCE : strcmp(o->wrench, "thrust") == 0 ? S_THRUST : S_ROTORS;
	else
		L->src = have[S_FORCE] ? S_FORCE : have[S_THRUST] ? S_THRUST : have[S_ROTORS] && L->have_veh ? S_ROTORS : -1;
	/* the Crazyflie's own names for its motors' PWM (a log its firmware
	 * or tagk-bench massflight --pwm wrote, its other columns not the
	 * uSD preset's): named in the message, not taken unasked */
	int cf_pwm = !have[S_ROTORS] && tbl_find(L->r, "motor.m1") >= 0 && tbl_find(L->r, "motor.m4") >= 0;
	if (L->src < 0)
		cli_die(EXIT_DATA, "%s: no force signal: need columns %s (force), %s (thrust), or rotor "
		    "columns with --vehicle; map yours with --map%s", tbl_name(L->r), L->map[S_FORCE], L->map[S_THRUST],
		    !cf_pwm ? "" : L->have_veh ? " (the Crazyflie's motors: --map rotors=motor.m1,motor.m2,motor.m3,"
		    "motor.m4)" : " (the Crazyflie's motors: --vehicle crazyflie2 --map rotors=motor.m1,motor.m2,"
		    "motor.m3,motor.m4)");
	if (L->src == S_ROTORS) {
		if (!L->have_veh)
			cli_die(EXIT_USAGE, "--wrench rotors needs --vehicle FILE");
		NEED(L, S_ROTORS, "per-rotor thrusts, speeds or commands");
		if (L->lm.nk[S_ROTORS] != L->veh.n)
			cli_die(EXIT_DATA, "%s: %d rotor columns but the vehicle file has %d rotors", tbl_name(L->r),
			    L->lm.nk[S_ROTORS], L->veh.n);
		if (L->veh.mapv_n)
			NEED(L, S_VBAT, "the battery voltage the vehicle's thrust_map_v takes");
	} else {
		NEED(L, L->src, "the force");
	}
	if (L->src == S_FORCE && L->have_veh && (L->veh.thrust_scale != 1 || L->veh.thrust_offset != 0 ||
	    L->veh.motor_tau > 0))
		cli_die(EXIT_USAGE, "%s: the vehicle's thrust_scale, thrust_offset and motor_tau model commanded "
		    "thrust; with a measured force (--wrench force) they do not apply", o->vehfile);
}

/* The signals the model needs, wanted; dies naming a missing one. */
static void
want_signals(logreader *L)
{
	const regress_opts *o = L->o;
	const int *have = L->lm.have;
	int state = o->model == M_STATE, rigid = o->model == M_RIGID;
	NEED(L, S_T, "time");
	if (state) {
		NEED(L, S_GYRO, "the state stream");
		NEED(L, S_POS, "the state stream");
		NEED(L, S_VEL, "the state stream");
		/* attitude: quat, or rpy when mapped (or the preset's) and quat is not */
		L->use_rpy = (o->user_map[S_RPY] || (o->pre && o->pre->map[S_RPY] && !o->user_map[S_QUAT])) &&
		    have[S_RPY];
		if (!L->use_rpy && !have[S_QUAT] && have[S_RPY])
			L->use_rpy = 1;
		if (!L->use_rpy)
			NEED(L, S_QUAT, "the state stream; or give rpy");
	} else if (!have[S_ACC] && have[S_ACCW] && have[S_QUAT]) {
		L->use_accw = 1;
	} else if (!have[S_ACC] && have[S_ACCW] && o->model == M_MASS) {
		/* no attitude: the thrust, the only force but gravity (drag
		 * neglected), is along the specific force, so T = m |a - g| */
		L->use_accw = 2;
		if (!L->reopened)
			cli_warn("%s: no attitude (quat): the mass rows are the thrust against the magnitude of the specific "
		    "force, |acc_world - g|, one row per sample (exact when the thrust is the only force but gravity; "
		    "drag is neglected)", tbl_name(L->r));
	} else {
		NEED(L, S_ACC, "the specific force; or give acc_world and quat");
	}
	if (rigid)
		NEED(L, S_GYRO, "the rigid-body model");
	choose_source(L);
	if (rigid && L->src != S_ROTORS)
		NEED(L, S_TORQUE, "the rigid-body model");
	L->use_alpha = rigid && have[S_ALPHA];
	int src = L->src;
	for (int s = 0; s < NSIG; s++)
		if (have[s] && (s == S_T || (s == S_ACC && !L->use_accw && !state) ||
		    (L->use_accw && s == S_ACCW) || (L->use_accw == 1 && s == S_QUAT) || ((rigid || state) && s == S_GYRO) ||
		    (L->use_alpha && s == S_ALPHA) || s == src || (rigid && s == S_TORQUE && src != S_ROTORS) ||
		    (src == S_ROTORS && s == S_VBAT && L->veh.mapv_n) ||
		    (state && (s == S_POS || s == S_VEL || s == (L->use_rpy ? S_RPY : S_QUAT)))))
			for (int j = 0; j < L->lm.nk[s]; j++)
				tbl_want(L->r, L->lm.idx[s][j]);
	/* true_* columns pass through */
	L->tidx = malloc((size_t)tbl_ncols(L->r) * sizeof(int));
	if (!L->tidx)
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 0; i < tbl_ncols(L->r); i++)
		if (strncmp(tbl_col(L->r, i), "true_", 5) == 0) {
			L->tidx[L->ntrue++] = i;
			tbl_want(L->r, i);
		}
}

/* --preset px4 on the log just opened: a ULog's rotor columns, as many as
 * its parameters say (px4.h). */
static void
open_px4(logreader *L, const logmap_preset_t *pre)
{
	regress_opts *o = L->o;
	if (tbl_format_of(L->r) != TBL_ULOG)
		cli_die(EXIT_DATA, "%s: --preset %s reads a PX4 ULog, and this is %s", tbl_name(L->r), pre->name,
		    tbl_format_label(tbl_format_of(L->r)));
	L->px4 = 1;
	if (!o->user_map[S_ROTORS]) {
		px4_rotor_cols(L->r, 0, L->px4_rotors, sizeof(L->px4_rotors));
		L->map[S_ROTORS] = L->px4_rotors;
	}
}

/* Open the input and find its signals (a Crazyflie uSD log is read with
 * the crazyflie preset, or crazyflie-pwm for a PWM log, unless --preset). */
static void
open_log(logreader *L, const char *path)
{
	regress_opts *o = L->o;
	tbl_options in = o->in;
	/* --preset px4: the IMU's samples are the rows, whatever the other
	 * topics' rates (an actuator logged faster would be the default) */
	if (o->pre && o->pre->px4 && !in.event)
		in.event = "sensor_combined|vehicle_acceleration";
	L->r = cmdio_open_input(path, &in);
	L->path = path;
	const logmap_preset_t *pre = o->pre;
	const char *auto_preset = NULL;
	if (!pre && tbl_format_of(L->r) == TBL_CFUSD) {
		pre = logmap_crazyflie_preset(L->r);
		auto_preset = pre->vehicle ? "the crazyflie-pwm preset's, the default for a Crazyflie uSD log of motor PWM"
		    : "the crazyflie preset's, the default for a Crazyflie uSD log";
	}
	L->pre = pre;
	for (int s = 0; s < NSIG; s++)
		L->map[s] = o->user_map[s] ? o->user_map[s] : pre && pre->map[s] ? pre->map[s] : logmap_signals[s].cols;
	if (pre && pre->px4)
		open_px4(L, pre);
	L->acc_g = o->acc_g >= 0 ? o->acc_g : pre ? pre->acc_g : 0;
	L->pos_mm = o->pos_mm >= 0 ? o->pos_mm : pre ? pre->pos_mm : 0;
	L->gyro_deg = o->gyro_deg >= 0 ? o->gyro_deg : pre ? pre->gyro_deg : 0;
	logmap_resolve(L->r, L->map, &L->lm);
	timeunit_init(&L->tu, o->tscale_set, tbl_name(L->r), tbl_col(L->r, L->lm.idx[S_T][0]));
	accunit_init(&L->au, o->acc_g >= 0, L->acc_g, tbl_name(L->r), L->map[S_ACC]);
	gyrounit_init(&L->gu, o->gyro_deg >= 0 || L->gyro_deg, tbl_name(L->r), L->map[S_GYRO]);
	for (int s = 0; s < NSIG; s++)
		L->lm.via[s] = auto_preset && !o->user_map[s] && pre->map[s] ? auto_preset : NULL;
	/* the vehicle: --vehicle, else the preset's */
	const char *veh = o->vehfile ? o->vehfile : pre ? pre->vehicle : NULL;
	if (veh && !L->have_veh) {
		cmdio_vehicle(veh, &L->veh, 0);
		L->have_veh = 1;
		if (!o->vehfile && !L->reopened)
			cli_warn("%s: reading motor.m1 .. m4 as PWM through the vehicle %s (its published thrust map; "
			    "--vehicle FILE for yours, --calibrate-mass to fit it to a flight of known mass)",
			    tbl_name(L->r), veh);
	}
	if (L->px4 && !L->have_veh) {
		if (!o->calibrate)
			cli_die(EXIT_USAGE, "--preset px4: the log does not say a rotor's full thrust: give it as the "
			    "thrust_scale (N) of a vehicle file (--vehicle FILE), or fit it with --calibrate-mass KG");
		px4_vehicle(L->r, &L->veh, 0, L->map[S_ROTORS]);
		L->have_veh = 1;
	} else if (L->px4 && !L->reopened) {
		px4_vehicle(L->r, &L->veh, 1, L->map[S_ROTORS]);
	}
	if (L->have_veh && L->lm.have[S_ROTORS] && !o->wrench && !L->lm.have[S_FORCE] && !L->lm.have[S_THRUST] &&
	    L->veh.input == VEH_INPUT_NONE)
		cli_die(EXIT_DATA, "%s: the vehicle file has no 'input' line for the rotor columns", o->vehfile);
	want_signals(L);
	actuator_init(&L->act, L->have_veh ? &L->veh : NULL, L->src == S_ROTORS);
	int use_w = o->model == M_RIGID || o->model == M_STATE;
	L->att_on = use_w && (o->model == M_STATE || L->use_accw == 1);
	int att = L->use_rpy ? S_RPY : S_QUAT;
	attguard_init(&L->ag, o->no_att_check || !L->att_on, tbl_name(L->r), L->map[att], !L->use_rpy,
	    L->map[S_GYRO]);
	const char *gc[3] = { "", "", "" }, *ac[3] = { "", "", "" };
	for (int j = 0; L->use_alpha && j < 3; j++) {
		gc[j] = tbl_col(L->r, L->lm.idx[S_GYRO][j]);
		ac[j] = tbl_col(L->r, L->lm.idx[S_ALPHA][j]);
	}
	derivguard_init(&L->alg, o->no_att_check || !L->use_alpha, tbl_name(L->r), 3, gc, ac);
	forceguard_init(&L->fg, o->no_att_check || o->model == M_STATE, tbl_name(L->r), L->map[L->src],
	    L->map[L->use_accw ? S_ACCW : S_ACC]);
}

/* The sample's attitude as read (w, x, y, z, or from roll, pitch, yaw)
 * with its gyro, for the attitude's check (consistency_guard.h). */
static void
check_attitude(logreader *L, const double *row, const sample *s)
{
	double q[4];
	if (L->use_rpy) {
		tagk_real rpy[3], qr[4];
		for (int j = 0; j < 3; j++)
			rpy[j] = (tagk_real)row[L->lm.idx[S_RPY][j]];
		tagk_qfromrpy(rpy, qr);
		for (int j = 0; j < 4; j++)
			q[j] = (double)qr[j];
	} else {
		for (int j = 0; j < 4; j++)
			q[j] = row[L->lm.idx[S_QUAT][j]];
	}
	attguard_add(&L->ag, s->t, q, s->w);
}

/* One row into s (t in seconds; a, w, f, tau in SI units); the truth
 * columns too when truth is not NULL. */
static void
read_sample(logreader *L, const double *row, sample *s, double *truth)
{
	const logmap *lm = &L->lm;
	s->t = row[lm->idx[S_T][0]] * L->o->tscale;
	if (L->o->model == M_STATE) {
		for (int j = 0; j < 3; j++)
			s->a[j] = 0;
	} else if (L->use_accw) {
		double q[4], aw[3];
		for (int j = 0; j < 3; j++)
			aw[j] = row[lm->idx[S_ACCW][j]] * (L->acc_g ? TAGK_G0 : 1);
		aw[2] += TAGK_G0; /* specific force = a - g, g = (0, 0, -g0) */
		if (L->use_accw == 2) {
			s->a[0] = s->a[1] = 0;
			s->a[2] = sqrt(aw[0] * aw[0] + aw[1] * aw[1] + aw[2] * aw[2]);
		} else {
			for (int j = 0; j < 4; j++)
				q[j] = row[lm->idx[S_QUAT][j]];
			if (!(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] > 0))
				cli_die(EXIT_DATA, "%s: zero quaternion", tbl_where(L->r));
			quat_rotate_t(q, aw, s->a);
		}
	} else {
		for (int j = 0; j < 3; j++)
			s->a[j] = row[lm->idx[S_ACC][j]] * (L->acc_g ? TAGK_G0 : 1);
		accunit_add(&L->au, s->a);
	}
	int use_w = L->o->model == M_RIGID || L->o->model == M_STATE;
	for (int j = 0; j < 3; j++) {
		s->w[j] = use_w ? row[lm->idx[S_GYRO][j]] * (L->gyro_deg ? M_PI / 180 : 1) : 0;
		s->f[j] = s->tau[j] = 0;
	}
	if (use_w)
		gyrounit_add(&L->gu, s->w, s->t);
	if (L->att_on && !L->ag.said) /* judged: no quaternion a sample from rpy */
		check_attitude(L, row, s);
	if (L->src == S_FORCE) {
		for (int j = 0; j < 3; j++)
			s->f[j] = row[lm->idx[S_FORCE][j]];
	} else {
		double u[VEHICLE_MAX_ROTORS];
		int nu = L->src == S_ROTORS ? L->veh.n : 1;
		for (int i = 0; i < nu; i++)
			u[i] = row[lm->idx[L->src][i]];
		double vbat = L->src == S_ROTORS && L->veh.mapv_n ? row[lm->idx[S_VBAT][0]] : (double)NAN;
		actuator_wrench(&L->act, s->t, u, vbat, s->f, s->tau);
	}
	if (L->o->model == M_RIGID && L->src != S_ROTORS)
		for (int j = 0; j < 3; j++)
			s->tau[j] = row[lm->idx[S_TORQUE][j]];
	if (!L->fg.said)
		forceguard_add(&L->fg, s->f, s->a, s->t);
	if (truth)
		for (int j = 0; j < L->ntrue; j++)
			truth[j] = row[L->tidx[j]];
}

/* The next row whose time increases (rows that go back are skipped with
 * --skip-bad, else refused): 1 with the row's time gap, 0 at the end. */
static int
next_row(logreader *L, double *row, double *tprev, long *skipped)
{
	for (;;) {
		int rc = tbl_next(L->r, row);
		if (rc < 0)
			cli_die(EXIT_DATA, "%s", tbl_error(L->r));
		if (rc == 1 && L->px4)
			px4_frames(row, &L->lm);
		if (rc == 0) {
			timeunit_end(&L->tu);
			accunit_end(&L->au);
			return 0;
		}
		double t = row[L->lm.idx[S_T][0]] * L->o->tscale;
		if (t > *tprev) {
			*tprev = t;
			timeunit_add(&L->tu, t);
			return 1;
		}
		if (L->o->in.skip_bad) {
			(*skipped)++;
			continue;
		}
		char a[32], b[32];
		fmt_double(a, t);
		fmt_double(b, *tprev);
		cli_die(EXIT_DATA, "%s: time %s %s the previous %s (--skip-bad skips such rows)", tbl_where(L->r), a,
		    t == *tprev ? "repeats" : "goes back from", b);
	}
}

/* --- output ----------------------------------------------------------------- */

typedef struct {
	sink *out;
	int model, ntrue, spans;
	int z_only;          /* mass rows: the z row alone (see regress()) */
	double *orow;
	int ocols;
	long rows_out;
	double pos_scale;
	const int *idx_att, *idx_pos, *idx_vel;
	int use_rpy;
	tbl_reader *r;
	double scale_sd;     /* the column scale_sd's value, NaN: no column */
} emitter;

enum { NSTATE = 15 };
static const char *const state_cols[NSTATE] = { "t", "thrust", "gx", "gy", "gz", "qw", "qx", "qy", "qz",
	"px", "py", "pz", "vx", "vy", "vz" };

static void
emit_header(emitter *e, tbl_reader *r, const int *tidx)
{
	int n = e->model == M_RIGID ? 10 : 1;
	int ncol = e->model == M_STATE ? NSTATE : 3 + n;
	const char *names[NSTATE + 2 + 64];
	const char **nm = ncol + 2 + e->ntrue <= (int)(sizeof(names) / sizeof(names[0])) ? names
	    : malloc((size_t)(ncol + 2 + e->ntrue) * sizeof(*nm));
	static char ybuf[TAGK_NPARAM][16];
	if (!nm)
		cli_die(EXIT_DATA, "out of memory");
	if (e->model == M_STATE) {
		for (int j = 0; j < NSTATE; j++)
			nm[j] = state_cols[j];
	} else {
		nm[0] = "t";
		nm[1] = "row";
		for (int j = 0; j < n; j++) {
			snprintf(ybuf[j], sizeof(ybuf[j]), "Y_%s", tagk_param_names[j]);
			nm[2 + j] = ybuf[j];
		}
		nm[2 + n] = "b";
	}
	if (e->spans)
		nm[ncol++] = "span";
	if (!isnan(e->scale_sd))
		nm[ncol++] = "scale_sd";
	for (int j = 0; j < e->ntrue; j++)
		nm[ncol + j] = tbl_col(r, tidx[j]);
	e->ocols = ncol + e->ntrue;
	e->orow = malloc(6 * (size_t)e->ocols * sizeof(double)); /* a sample's rows */
	if (!e->orow)
		cli_die(EXIT_DATA, "out of memory");
	cmdio_header(e->out, ncol + e->ntrue, nm);
}

/* The state row of s; -1 and nothing written if the attitude is not a
 * unit quaternion. */
static int
emit_state(emitter *e, const sample *s, const double *row, int span)
{
	double *o = e->orow, q[4];
	if (e->use_rpy) {
		tagk_real qr[4], rpy[3];
		for (int j = 0; j < 3; j++)
			rpy[j] = (tagk_real)row[e->idx_att[j]];
		tagk_qfromrpy(rpy, qr);
		for (int j = 0; j < 4; j++)
			q[j] = (double)qr[j];
	} else {
		for (int j = 0; j < 4; j++)
			q[j] = row[e->idx_att[j]];
	}
	if (!(fabs(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] - 1) <= 1e-3))
		return -1;
	o[0] = s->t;
	o[1] = s->f[2];
	for (int j = 0; j < 3; j++) {
		o[2 + j] = s->w[j];
		o[9 + j] = row[e->idx_pos[j]] * e->pos_scale;
		o[12 + j] = row[e->idx_vel[j]] * e->pos_scale;
	}
	for (int j = 0; j < 4; j++)
		o[5 + j] = q[j];
	int k = NSTATE;
	if (e->spans)
		o[k++] = span;
	if (!isnan(e->scale_sd))
		o[k++] = e->scale_sd;
	for (int j = 0; j < e->ntrue; j++)
		o[k + j] = s->truth[j];
	cmdio_row(e->out, o);
	e->rows_out++;
	return 0;
}

/* Whether the regressor of a, w and alpha may overflow tagk_real: it is
 * linear in a and alpha and quadratic in w (with constant factors), so
 * below 1e15 in every input (1e30 squared, under even float's 3.4e38) it
 * cannot, and emit_rows checks its 60 values only past that (or for a
 * NaN). Compares, not fmax: libm's fmax was a call per value. */
static int
may_overflow(const sample *s, const double al[3])
{
	int big = 0;
	for (int i = 0; i < 3; i++)
		big |= !(fabs(s->a[i]) < 1e15) | !(fabs(s->w[i]) < 1e15) | !(fabs(al[i]) < 1e15);
	return big;
}

/* x as the i-th double at p, whatever p's type and alignment. */
static inline void
put_f64(unsigned char *p, int i, double x)
{
	memcpy(p + 8 * i, &x, sizeof(x));
}

static int
emit_rows(emitter *e, const sample *s, const double al[3], int span)
{
	tagk_real a[3], w[3], alr[3], Y[60];
	for (int i = 0; i < 3; i++) {
		a[i] = (tagk_real)s->a[i];
		w[i] = (tagk_real)s->w[i];
		alr[i] = (tagk_real)al[i];
	}
	double b[6] = { s->f[0], s->f[1], s->f[2], s->tau[0], s->tau[1], s->tau[2] };
	int rigid = e->model == M_RIGID, rows = rigid ? 6 : 3, n = rigid ? 10 : 1;
	if (rigid)
		tagk_regressor_rigid(a, w, alr, Y);
	else
		tagk_regressor_mass(a, Y);
	if (!cmdio_all_finite(b, 6))
		return -1;
	if (may_overflow(s, al)) {
		double y[60];
		for (int i = 0; i < rows * n; i++)
			y[i] = (double)Y[i];
		if (!cmdio_all_finite(y, rows * n))
			return -1;
	}
	int r0 = e->z_only ? 2 : 0;
	/* straight into the binary stream's buffer where it has room (the
	 * values are finite: b and Y checked above, or Y bounded, and t and
	 * the truth are the reader's, which refuses NaN and Inf in them; the
	 * check of the truth is cheap insurance), sparing a copy through orow */
	unsigned char *room = isfinite(s->t) && cmdio_all_finite(s->truth, e->ntrue) ?
	    sink_rows_room(e->out, rows - r0) : NULL;
	unsigned char *o0 = room ? room : (unsigned char *)e->orow, *o = o0;
	size_t stride = 8 * (size_t)e->ocols;
	int k = 3 + n + (e->spans != 0) + !isnan(e->scale_sd);
	for (int r = r0; r < rows; r++, o += stride) {
		put_f64(o, 0, s->t);
		put_f64(o, 1, r);
		for (int j = 0; j < n; j++)
			put_f64(o, 2 + j, (double)Y[r * n + j]);
		put_f64(o, 2 + n, b[r]);
		if (e->spans)
			put_f64(o, 3 + n, span);
		if (!isnan(e->scale_sd))
			put_f64(o, k - 1, e->scale_sd);
	}
	/* the truth, a value at a time down the rows: a memcpy a row was a
	 * call into libc six times a sample, its wide loads stalled on the
	 * truth's stores just made (5 % of tagk-regress's time from HDF5,
	 * perf) */
	for (int j = 0; j < e->ntrue; j++) {
		double x = s->truth[j];
		o = o0 + 8 * (size_t)(k + j);
		for (int r = r0; r < rows; r++, o += stride)
			put_f64(o, 0, x);
	}
	if (room)
		/* from b on, a sample's rows are alike: the span, the scale's
		 * sd and the truth (the encoder skips comparing them) */
		sink_rows_commit(e->out, rows - r0, k + e->ntrue == e->ocols ? 3 + n : e->ocols);
	else
		cmdio_rows(e->out, e->orow, rows - r0);
	e->rows_out++;
	return 0;
}

/* emit_rows, or for a sample whose rows overflow, --skip-bad's skip or
 * the error. */
static void
emit_or_skip(emitter *e, const sample *s, const double al[3], int span, int skip_bad, long *skipped)
{
	if (emit_rows(e, s, al, span) == 0)
		return;
	if (!skip_bad)
		cli_die(EXIT_DATA, "%s: the sample at t = %.9g s gives a regressor row beyond a double's range "
		    "(Inf): the log's values are too large for tagk's units (SI: m/s^2, rad/s, N, N m); "
		    "--skip-bad skips such samples", tbl_name(e->r), s->t);
	(*skipped)++;
}

/* --- the passes ------------------------------------------------------------- */

/* A path that can be read twice: the input itself when it is a regular
 * file, else standard input or a pipe copied to an unlinked temporary. */
static const char *
reopenable(const char *path, char *buf, size_t len)
{
	struct stat st;
	int is_stdin = strcmp(path, "-") == 0;
	if (!is_stdin && stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return path;
	FILE *in = is_stdin ? stdin : fopen(path, "rb");
	if (!in)
		cli_die(EXIT_DATA, "%s: %s", path, strerror(errno));
	FILE *sp = cli_tmpfile("the input, read twice by --airborne");
	char b[65536];
	size_t n;
	while ((n = fread(b, 1, sizeof(b), in)) > 0)
		if (fwrite(b, 1, n, sp) != n)
			cli_die(EXIT_DATA, "cannot copy the input: %s", strerror(errno));
	if (ferror(in) || fflush(sp) != 0)
		cli_die(EXIT_DATA, "%s: read error", is_stdin ? "stdin" : path);
	if (!is_stdin)
		fclose(in);
	snprintf(buf, len, "/proc/self/fd/%d", fileno(sp));
	return buf;
}

/* The first reading of --airborne: every sample's collective thrust. */
static void
plan_airborne(logreader *L, airborne *air)
{
	double *row = malloc((size_t)tbl_ncols(L->r) * sizeof(double)), tprev = -INFINITY;
	long skipped = 0;
	sample s;
	if (!row)
		cli_die(EXIT_DATA, "out of memory");
	while (next_row(L, row, &tprev, &skipped)) {
		read_sample(L, row, &s, NULL);
		airborne_add(air, s.t, s.f[2], L->o->model == M_STATE ? (double)NAN : s.a[2]);
	}
	free(row);
	char what[1024];
	if (airborne_plan(air) == 0)
		cli_die(EXIT_DATA, "%s: --airborne: the vehicle never flies for %g s (thrust above 0.6 of the hover "
		    "thrust %.4g N, less %g s at each end): no rows", tbl_name(L->r), L->o->min_span, air->hover,
		    L->o->trim);
	airborne_describe(air, what, sizeof(what));
	cli_warn("--airborne: %s", what);
	if (air->motion == 0)
		cli_warn("--airborne: no specific force along the thrust (-m state reads no accelerometer) or too few "
		    "samples above 0.9 of the hover thrust: trimmed by thrust alone, a spin-up on the ground counts as flight");
	else
		cli_warn("--airborne: the motion cut %.2f s from the ends of %d span%s (the ground bearing part of the weight: "
		    "thrust / specific force below %g of its value in the flight beside)", air->cut, air->motion,
		    air->motion == 1 ? "" : "s", 1 - AIR_BAND);
}

/* --preset px4: the mass PX4's hover thrust estimate implies through the
 * thrust model v, said on stderr and as the stream's note px4_hover_mass
 * (when out is not NULL), for a comparison with tagk's estimate. */
static void
say_hover(logreader *L, const vehicle *v, sink *out)
{
	if (!L->px4 || L->reopened_hover)
		return;
	L->reopened_hover = 1;
	long n;
	double h = NAN, m = px4_hover_mass(L->path, &L->o->in, v, L->map[S_ROTORS], &n, &h);
	if (!isfinite(m))
		return;
	cli_warn("%s: hover_thrust_estimate implies m = %.4g kg (its median hover thrust %.4g over %ld valid samples, "
	    "as each of %d rotors' normalised thrust, through the same thrust model: full thrust %.4g N, %.4g N a rotor)",
	    tbl_name(L->r), m, h, n, v->n, v->thrust_scale, m * TAGK_G0 / v->n);
	char b[32];
	fmt_double(b, m);
	if (out)
		sink_note(out, "px4_hover_mass", b);
}

/* The relative sd of the rows' scale (the thrust map's, a commanded
 * thrust's, --scale-sd's), for the stream's column scale_sd, which
 * tagk-estimate turns into the sd_sys_* columns, and what it is of (*of):
 * --scale-sd, else the vehicle file's thrust_map_sd (rotors) or command_sd
 * (a commanded thrust), else for a commanded thrust the command_sd of the
 * preset's vehicle (the crazyflie preset: crazyflie2). NaN when none says. */
static double
scale_of(logreader *L, const char **ofp)
{
	const regress_opts *o = L->o;
	double sd = o->scale_sd;
	const char *of = L->src == S_ROTORS ? "thrust map" : L->src == S_THRUST ? "commanded thrust" : "force";
	if (sd < 0 && L->have_veh)
		sd = L->src == S_ROTORS ? L->veh.map_sd : L->src == S_THRUST ? L->veh.cmd_sd : (double)NAN;
	if (!(sd >= 0) && L->src == S_THRUST && L->pre && L->pre->sd_vehicle) {
		vehicle v;
		cmdio_vehicle(L->pre->sd_vehicle, &v, 0);
		sd = v.cmd_sd;
	}
	*ofp = of;
	return sd >= 0 ? sd : (double)NAN;
}

/* The rows of every sample (those of the airborne spans with --airborne). */
static void
regress(logreader *L, airborne *air)
{
	regress_opts *o = L->o;
	emitter em = { .model = o->model, .ntrue = L->ntrue, .spans = o->airborne, .r = L->r,
		.z_only = o->model == M_MASS && (L->use_accw == 2 || L->src == S_THRUST || L->src == S_ROTORS) };
	/* The mass rows of a thrust along body z: the x and y rows say
	 * 0 = m a_x, which holds for any m; their regressor is the
	 * accelerometer's noise (and drag), which only pulls least squares
	 * toward zero (by sigma_a^2 / |a|^2 per row). Only the z row carries
	 * the mass. */
	em.pos_scale = L->pos_mm ? 1e-3 : 1;
	em.use_rpy = L->use_rpy;
	em.idx_att = L->lm.idx[L->use_rpy ? S_RPY : S_QUAT];
	em.idx_pos = L->lm.idx[S_POS];
	em.idx_vel = L->lm.idx[S_VEL];
	em.out = cmdio_open_output(o->outname, TBL_AUTO);
	const char *scale_what = NULL;
	em.scale_sd = scale_of(L, &scale_what);
	emit_header(&em, L->r, L->tidx);
	say_hover(L, &L->veh, em.out);
	/* the vehicle file's nominal mass, for tagk-report's verdicts */
	if (L->have_veh && isfinite(L->veh.mass)) {
		char b[32];
		fmt_double(b, L->veh.mass);
		sink_note(em.out, "nominal_mass", b);
	}
	/* ring of 2k+1 samples for the alpha slope; one slot when alpha is given */
	int ring = L->use_alpha || o->model != M_RIGID ? 1 : 2 * o->kwin + 1;
	sample *buf = calloc((size_t)ring, sizeof(*buf));
	double *row = malloc((size_t)tbl_ncols(L->r) * sizeof(double));
	if (!buf || !row)
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 0; i < ring; i++)
		if (!(buf[i].truth = malloc((size_t)(L->ntrue ? L->ntrue : 1) * sizeof(double))))
			cli_die(EXIT_DATA, "out of memory");
	int fill = 0, head = 0, last_span = 0;
	double tprev = -INFINITY, tseen = -INFINITY;
	long skipped = 0, nin = 0;
	/* without --airborne, how much of a thrust log flies: said at the end */
	airborne ground;
	int watch = !air && L->src != S_FORCE;
	if (watch) /* the time above the thresholds, untrimmed: a short log is not ground */
		airborne_init(&ground, 0, 0);
	while (next_row(L, row, &tprev, &skipped)) {
		double gap = tprev - tseen;
		tseen = tprev;
		nin++;
		int span = air ? airborne_span(air, tprev) : 0;
		if (air && !span)
			continue;
		/* a gap or a new span breaks the derivative and the motor lag */
		if (gap > o->max_gap || span != last_span) {
			fill = 0;
			actuator_reset(&L->act);
		}
		last_span = span;
		sample *slot = &buf[head];
		double *tr = slot->truth;
		read_sample(L, row, slot, tr);
		slot->truth = tr;
		if (watch)
			airborne_add(&ground, slot->t, slot->f[2], o->model == M_STATE ? (double)NAN : slot->a[2]);
		if (ring == 1) {
			double al[3] = { 0, 0, 0 };
			if (L->use_alpha) {
				for (int j = 0; j < 3; j++)
					al[j] = row[L->lm.idx[S_ALPHA][j]] * (L->gyro_deg ? M_PI / 180 : 1);
				if (!L->alg.said)
					derivguard_add(&L->alg, slot->t, slot->w, al);
			}
			if (o->model == M_STATE && emit_state(&em, slot, row, span) != 0) {
				if (!o->in.skip_bad)
					cli_die(EXIT_DATA, "%s: the attitude quaternion is not of unit length (within 1e-3); "
					    "--skip-bad skips such rows", tbl_where(L->r));
				skipped++;
			} else if (o->model != M_STATE)
				emit_or_skip(&em, slot, al, span, o->in.skip_bad, &skipped);
			continue;
		}
		head = (head + 1) % ring;
		if (fill < ring)
			fill++;
		if (fill < ring)
			continue;
		/* least-squares slope of gyro against time over the window */
		double tw[101], ww[101 * 3], al[3];
		for (int i = 0; i < ring; i++) {
			tw[i] = buf[i].t;
			for (int j = 0; j < 3; j++)
				ww[i * 3 + j] = buf[i].w[j];
		}
		tagk_slope(ring, tw, 3, ww, al);
		emit_or_skip(&em, &buf[(head + o->kwin) % ring], al, span, o->in.skip_bad, &skipped);
	}
	if (nin == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(L->r));
	if (em.rows_out == 0 && skipped)
		cli_die(EXIT_DATA, "%s: no rows: every usable sample of the %ld read was skipped as bad (--skip-bad)",
		    tbl_name(L->r), nin);
	if (em.rows_out == 0)
		cli_die(EXIT_DATA, "%s: %ld samples, too few to differentiate gyro over %d samples "
		    "without a gap longer than %g s", tbl_name(L->r), nin, ring, o->max_gap);
	if (scale_what && !isnan(em.scale_sd))
		sink_note(em.out, "scale_sd_of", scale_what);
	if (watch) {
		airborne_plan(&ground);
		double total = ground.t_last - ground.t_first;
		if (total > 0 && ground.flown < 0.9 * total)
			cli_caution("%s: the vehicle flies in %.0f %% of the log (thrust above 0.6 of the hover thrust, %.4g N): "
			    "the rest, on the ground, gives rows that are not a flying body's and bias every estimate; "
			    "--airborne keeps the flight only", tbl_name(L->r), 100 * ground.flown / total, ground.hover);
		airborne_free(&ground);
	}
	cmdio_commit(em.out); /* after the caution, which the stream carries */
	long sk = tbl_skipped(L->r) + skipped;
	if (sk)
		cli_warn("skipped %ld bad row%s of %s", sk, sk == 1 ? "" : "s", tbl_name(L->r));
	for (int i = 0; i < ring; i++)
		free(buf[i].truth);
	free(buf);
	free(row);
	free(em.orow);
}

/* --calibrate-mass: the thrust model fitted to the known mass. */
static void
calibrate(logreader *L, airborne *air)
{
	calib c;
	calib_init(&c, L->o->calibrate);
	double *row = malloc((size_t)tbl_ncols(L->r) * sizeof(double)), tprev = -INFINITY;
	long skipped = 0;
	sample s;
	if (!row)
		cli_die(EXIT_DATA, "out of memory");
	while (next_row(L, row, &tprev, &skipped))
		if (!air || airborne_span(air, tprev)) {
			read_sample(L, row, &s, NULL);
			calib_add(&c, s.a[2], s.f[2]);
		}
	free(row);
	vehicle v;
	if (L->have_veh) {
		v = L->veh;
	} else {
		memset(&v, 0, sizeof(v));
		v.thrust_scale = 1;
		v.mass = v.gate_l_arm = v.gate_alpha = v.map_sd = v.cmd_sd = NAN;
	}
	char what[1024];
	if (calib_fit(&c, &v, what, sizeof(what)) != 0)
		cli_die(EXIT_DATA, "%s: --calibrate-mass: %s", tbl_name(L->r), what);
	cmdio_file w;
	cmdio_file_open(&w, L->o->outname);
	const char *from = L->o->vehfile ? L->o->vehfile : L->o->pre && L->o->pre->vehicle ? L->o->pre->vehicle : NULL;
	fprintf(w.f, "# tagk-regress --calibrate-mass %g on %s%s%s: %s\n# Valid for this vehicle, its motors, "
	    "propellers and battery; a calibration does not carry to other conditions.\n", L->o->calibrate,
	    tbl_name(L->r), from ? ", from the vehicle " : "", from ? from : "", what);
	if (vehicle_write(w.f, &v) != 0)
		cli_die(EXIT_DATA, "%s: write error", w.name);
	cmdio_file_commit(&w);
	cli_warn("--calibrate-mass: %s", what);
	say_hover(L, &v, NULL);
}

/* The directory part of path into buf ("." for none); its last part. */
static const char *
out_split(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	if (!slash) {
		snprintf(buf, len, ".");
		return path;
	}
	snprintf(buf, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return slash + 1;
}

/* 1 if a and b (NULL or "-": standard output) name one file: the same
 * string, or the same last part in the same directory. */
static int
same_output(const char *a, const char *b)
{
	a = a ? a : "-";
	b = b ? b : "-";
	if (strcmp(a, b) == 0)
		return 1;
	char da[4096], db[4096];
	const char *ba = out_split(a, da, sizeof(da)), *bb = out_split(b, db, sizeof(db));
	struct stat sa, sb;
	return strcmp(ba, bb) == 0 && stat(da, &sa) == 0 && stat(db, &sb) == 0 && sa.st_dev == sb.st_dev &&
	    sa.st_ino == sb.st_ino;
}

/* -m multibody's outputs, each named once: two the same would leave the
 * one written last in place of the other, with exit 0. */
static void
mb_outputs_differ(const regress_opts *o)
{
	const char *name[4] = { o->outname, o->mb.arm.write_robot, o->mb.arm.write_friction, o->mb.base_groups };
	const char *opt[4] = { "-o", "--write-robot", "--write-friction", "--base-groups" };
	int given[4] = { 1, !!name[1], !!name[2], !!name[3] };
	for (int i = 0; i < 4; i++)
		for (int j = i + 1; j < 4; j++)
			if (given[i] && given[j] && same_output(name[i], name[j]))
				cli_die(EXIT_USAGE, "%s '%s' and %s '%s' name the same file: the one written last would "
				    "replace the other", opt[i], name[i] ? name[i] : "-", opt[j], name[j] ? name[j] : "-");
}

int
main(int argc, char **argv)
{
	cli_init(argv[0]);
	regress_opts o;
	parse(argc, argv, &o);
	if (o.model == M_MULTIBODY) {
		if (!o.mb.robot || (!o.mb.body && !o.mb.fit_kinds && !o.mb.arm.mode))
			cli_die(EXIT_USAGE, "-m multibody needs --robot FILE and --unknown BODY or --held BODY "
			    "(or --fit-friction, --identify, --predict)");
		if (o.mb.arm.mode != ARM_IDENTIFY && (o.mb.arm.write_robot || o.mb.arm.write_friction ||
		    o.mb.arm.prior_weight >= 0 || o.mb.arm.prior_metric != 1))
			cli_die(EXIT_USAGE, "--prior-weight, --prior-metric, --write-robot and --write-friction go with "
			    "--identify");
		if (o.mb.arm.prior_weight < 0)
			o.mb.arm.prior_weight = 1e-4;
		if (o.mb.arm.prior_metric == 2 && !(o.mb.arm.prior_weight > 0))
			cli_die(EXIT_USAGE, "--prior-metric logdet needs --prior-weight > 0 (at 0 its minimum lies on the "
			    "physical boundary)");
		if (!!o.mb.friction + !!o.mb.fit_kinds + !!o.mb.fwl_kinds > 1)
			cli_die(EXIT_USAGE, "--friction, --fit-friction and --friction-terms: one of the three");
		mb_outputs_differ(&o);
		o.mb.tscale = o.tscale;
		o.mb.tscale_set = o.tscale_set;
		o.mb.outname = o.outname;
		o.mb.in = o.in;
		return regress_multibody(&o.mb, o.inname);
	}
	char spool[64];
	const char *path = o.airborne ? reopenable(o.inname, spool, sizeof(spool)) : o.inname;
	if (path != o.inname)
		o.in.name = "stdin";
	logreader L = { .o = &o };
	open_log(&L, path);
	airborne air;
	if (o.airborne) {
		airborne_init(&air, o.min_span, o.trim);
		plan_airborne(&L, &air);
		tbl_close(L.r);
		free(L.tidx);
		L.ntrue = 0;
		L.reopened = 1;
		open_log(&L, path);
	}
	if (o.calibrate)
		calibrate(&L, o.airborne ? &air : NULL);
	else
		regress(&L, o.airborne ? &air : NULL);
	if (o.airborne)
		airborne_free(&air);
	tbl_close(L.r);
	free(L.tidx);
	return 0;
}
