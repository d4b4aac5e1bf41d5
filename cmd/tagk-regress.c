/*
 * tagk-regress: read a flight or robot log and write the regressor stream,
 * the rows of A and b of the Newton-Euler equations per log sample.
 *
 * Output columns: t, row (0-5: fx fy fz tx ty tz; mass model 0-2), the ten
 * regressor entries Y_m ... Y_Izz (mass model: Y_m), b, then every true_*
 * column of the input, unchanged.
 *
 * With -m state it writes instead the normalised state stream that the
 * state-space methods read (tagk-estimate -a ekf ...), one row per sample
 * in SI units: t, thrust, gx gy gz, qw qx qy qz, px py pz, vx vy vz, true_*.
 * Column mapping, units and presets exist here only.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdio.h"
#include "logmap.h"
#include "regress_multibody.h"
#include "../formats/vehicle.h"
#include "../lib/tagk.h"


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
	    "                    [--time-unit s|ms|us] [--wrench force|thrust|rotors] [--vehicle FILE]\n"
	    "                    [--alpha-window K] [--max-gap SEC] [--skip-bad] [--ignore-crc]\n"
	    "                    [--group G] [--event E] [--stream S] [-o FILE] [FILE|-]\n"
	    "       tagk-regress -m multibody --robot FILE --unknown BODY|--held BODY\n"
	    "                    [--rows force|momentum|energy] [--metric]\n"
	    "                    [--time-unit s|ms|us] [-f csv|hdf5] [--skip-bad] [--stream S]\n"
	    "                    [-o FILE] [FILE|-]\n"
	    "       tagk-regress --list-presets | --help | --version\n"
	    "Log to regressor rows (t, row, Y_*, b) of the Newton-Euler equations, or to a state stream.\n"
	    "  -m, --model M          rigid-body (10 parameters, default), mass, state (for ekf ... swls),\n"
	    "                         or multibody (a robot's joint log)\n"
	    "      --robot FILE       multibody: the robot's model file (tagk-formats(5))\n"
	    "      --unknown BODY     multibody: rows for BODY's own ten parameters\n"
	    "      --held BODY        multibody: rows for an object BODY holds (in BODY's frame)\n"
	    "      --rows R           multibody: force (inverse dynamics, default), momentum or energy rows\n"
	    "      --metric           multibody force rows: also each row of the mass matrix and of its parts\n"
	    "      --map SIGNAL=COLS  read SIGNAL (t, acc, gyro, alpha, quat, force, torque, thrust...) from COLS\n"
	    "      --preset NAME      a log layout's columns and units (--list-presets names them;\n"
	    "                         default for a Crazyflie uSD log: crazyflie)\n"
	    "      --acc-unit U       specific force in mps2 (default) or g\n"
	    "      --gyro-unit U      angular velocity in rad (default) or deg per second\n"
	    "      --time-unit U      time in s (default), ms or us\n"
	    "      --pos-unit U       state: position and velocity in m (default) or mm\n"
	    "      --wrench W         force and torque from force (default), thrust or rotors\n"
	    "      --vehicle FILE     rotor geometry and coefficients, for --wrench rotors\n"
	    "      --alpha-window K   differentiate the gyro over 2K+1 samples when alpha is absent\n"
	    "      --max-gap SEC      a longer gap in time is an error (default 0.5)\n"
	    "      --list-presets     list the presets and exit\n"
	    "  -o, --output FILE      write FILE (HDF5 if .h5, gzip if .gz) instead of stdout\n");
	cmdio_stream_help(f);
	cmdio_input_help(f);
}

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

typedef struct {
	sink *out;
	int rigid, ntrue;
	double *orow;
	long rows_out;
	/* -m state */
	int state, use_rpy;
	double pos_scale;              /* m per unit of pos, (m/s) per unit of vel */
	const int *idx_att, *idx_pos, *idx_vel; /* columns of quat or rpy, pos, vel */
} emitter;

enum { NSTATE = 15 };
static const char *const state_cols[NSTATE] = { "t", "thrust", "gx", "gy", "gz", "qw", "qx", "qy", "qz",
	"px", "py", "pz", "vx", "vy", "vz" };

/* One row of the state stream from the sample s and its input row; -1 and
 * nothing written if the attitude is not a unit quaternion. The thrust is
 * s's body force along z: the thrust column, the rotors' sum, or fz. */
static int
emit_state(emitter *e, const sample *s, const double *row)
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
	for (int j = 0; j < e->ntrue; j++)
		o[NSTATE + j] = s->truth[j];
	cmdio_row(e->out, o);
	e->rows_out++;
	return 0;
}

static void
emit(emitter *e, const sample *s, const double al[3])
{
	tagk_real a[3], w[3], alr[3], Y[60];
	for (int i = 0; i < 3; i++) {
		a[i] = (tagk_real)s->a[i];
		w[i] = (tagk_real)s->w[i];
		alr[i] = (tagk_real)al[i];
	}
	double b[6] = { s->f[0], s->f[1], s->f[2], s->tau[0], s->tau[1], s->tau[2] };
	int rows = e->rigid ? 6 : 3, n = e->rigid ? 10 : 1;
	if (e->rigid)
		tagk_regressor_rigid(a, w, alr, Y);
	else
		tagk_regressor_mass(a, Y);
	for (int r = 0; r < rows; r++) {
		double *o = e->orow;
		o[0] = s->t;
		o[1] = r;
		for (int j = 0; j < n; j++)
			o[2 + j] = (double)Y[r * n + j];
		o[2 + n] = b[r];
		for (int j = 0; j < e->ntrue; j++)
			o[3 + n + j] = s->truth[j];
		cmdio_row(e->out, o);
	}
	e->rows_out++;
}

int
main(int argc, char **argv)
{
	cli_init(argv[0]);
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
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		CMDIO_INPUT_OPTIONS,
		CMDIO_OUTPUT_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	tbl_options in = { 0 };
	const char *map[NSIG] = { 0 }, *user_map[NSIG] = { 0 }, *outname = NULL, *vehfile = NULL;
	const char *wrench = NULL;
	int rigid = 1, state = 0, acc_g = -1, gyro_deg = 0, kwin = 2, pos_mm = -1, multibody = 0, other = 0;
	int rows_set = 0;
	regress_mb_opts mb = { 0 };
	double tscale = 1, max_gap = 0.1;
	const logmap_preset_t *pre = NULL;
	int c;
	while ((c = cli_getopt(argc, argv, "m:f:o:hV", opts)) != -1) {
		if (cmdio_input_option(&in, c, optarg) || cmdio_output_option(c, optarg))
			continue;
		switch (c) {
		case 'm':
			if (strcmp(optarg, "rigid-body") == 0)
				rigid = 1;
			else if (strcmp(optarg, "mass") == 0)
				rigid = 0;
			else if (strcmp(optarg, "state") == 0)
				rigid = 0, state = 1;
			else if (strcmp(optarg, "multibody") == 0)
				multibody = 1;
			else
				cli_die(EXIT_USAGE, "-m: '%s' is not rigid-body, mass, state or multibody", optarg);
			break;
		case 2010: mb.robot = optarg; break;
		case 2011:
		case 2012:
			if (mb.body)
				cli_die(EXIT_USAGE, "--unknown and --held: one body, once");
			mb.body = optarg;
			mb.held = c == 2012;
			break;
		case 2013:
			if (strcmp(optarg, "force") == 0)
				mb.rows = MB_ROWS_FORCE;
			else if (strcmp(optarg, "momentum") == 0)
				mb.rows = MB_ROWS_MOMENTUM;
			else if (strcmp(optarg, "energy") == 0)
				mb.rows = MB_ROWS_ENERGY;
			else
				cli_die(EXIT_USAGE, "--rows: '%s' is not force, momentum or energy", optarg);
			rows_set = 1;
			break;
		case 2014: mb.metric = 1; break;
		case 'M':
			other = c;
			logmap_parse(optarg, user_map);
			break;
		case 'p':
			other = c;
			if (!(pre = logmap_preset(optarg)))
				cli_die(EXIT_USAGE, "--preset: unknown preset '%s' (see --list-presets)", optarg);
			break;
		case 2001:
			other = c;
			if (strcmp(optarg, "g") == 0) acc_g = 1;
			else if (strcmp(optarg, "mps2") == 0) acc_g = 0;
			else cli_die(EXIT_USAGE, "--acc-unit: '%s' is not mps2 or g", optarg);
			break;
		case 2002:
			other = c;
			if (strcmp(optarg, "deg") == 0) gyro_deg = 1;
			else if (strcmp(optarg, "rad") == 0) gyro_deg = 0;
			else cli_die(EXIT_USAGE, "--gyro-unit: '%s' is not rad or deg", optarg);
			break;
		case 2003:
			if (strcmp(optarg, "s") == 0) tscale = 1;
			else if (strcmp(optarg, "ms") == 0) tscale = 1e-3;
			else if (strcmp(optarg, "us") == 0) tscale = 1e-6;
			else cli_die(EXIT_USAGE, "--time-unit: '%s' is not s, ms or us", optarg);
			break;
		case 2004:
			other = c;
			if (strcmp(optarg, "force") && strcmp(optarg, "thrust") && strcmp(optarg, "rotors"))
				cli_die(EXIT_USAGE, "--wrench: '%s' is not force, thrust or rotors", optarg);
			wrench = optarg;
			break;
		case 2005: vehfile = optarg; other = c; break;
		case 2006: other = c; kwin = (int)cli_long("--alpha-window", optarg, 1, 50); break;
		case 2007: other = c; max_gap = cli_double("--max-gap", optarg, 1e-6, 1e9); break;
		case 2009:
			other = c;
			if (strcmp(optarg, "mm") == 0) pos_mm = 1;
			else if (strcmp(optarg, "m") == 0) pos_mm = 0;
			else cli_die(EXIT_USAGE, "--pos-unit: '%s' is not m or mm", optarg);
			break;
		case 2008:
			logmap_list_presets(stdout);
			cli_close(stdout, "stdout");
			return 0;
		case 'o': outname = optarg; break;
		case 'h': cli_help(usage);
		case 'V': cli_version();
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (argc - optind > 1)
		cli_die(EXIT_USAGE, "one input file at most (got '%s' and '%s')", argv[optind], argv[optind + 1]);
	const char *inname = optind < argc ? argv[optind] : "-";
	if (!multibody && (mb.robot || mb.body || rows_set || mb.metric))
		cli_die(EXIT_USAGE, "--robot, --unknown, --held, --rows and --metric apply to -m multibody");
	if (multibody) {
		if (other) {
			const char *name = "?";
			for (int i = 0; opts[i].name; i++)
				if (opts[i].val == other)
					name = opts[i].name;
			cli_die(EXIT_USAGE, "--%s does not apply to -m multibody", name);
		}
		if (!mb.robot || !mb.body)
			cli_die(EXIT_USAGE, "-m multibody needs --robot FILE and --unknown BODY or --held BODY");
		mb.tscale = tscale;
		mb.outname = outname;
		mb.in = in;
		return regress_multibody(&mb, inname);
	}
	if (pos_mm >= 0 && !state)
		cli_die(EXIT_USAGE, "--pos-unit applies to -m state");
	vehicle veh;
	char verr[512];
	if (vehfile && vehicle_read(vehfile, &veh, 1, verr, sizeof(verr)) != 0)
		cli_die(EXIT_DATA, "%s", verr);

	tbl_reader *r = cmdio_open_input(inname, &in);
	/* A Crazyflie uSD log names its signals the firmware's way: without
	 * --preset it is read with the crazyflie preset, and a missing column
	 * then says so. */
	const char *auto_preset = NULL;
	if (!pre && tbl_format_of(r) == TBL_CFUSD) {
		pre = logmap_preset("crazyflie");
		auto_preset = "the crazyflie preset's, the default for a Crazyflie uSD log";
	}
	for (int s = 0; s < NSIG; s++)
		map[s] = user_map[s] ? user_map[s] : pre && pre->map[s] ? pre->map[s] : logmap_signals[s].cols;
	if (acc_g < 0)
		acc_g = pre ? pre->acc_g : 0;
	if (pos_mm < 0)
		pos_mm = pre ? pre->pos_mm : 0;
	logmap lm;
	logmap_resolve(r, map, &lm);
	for (int s = 0; s < NSIG; s++)
		lm.via[s] = auto_preset && !user_map[s] && pre->map[s] ? auto_preset : NULL;
	const int *have = lm.have, *nk = lm.nk;
#define NEED(s, why) logmap_need(&lm, r, s, why)
	NEED(S_T, "time");
	int use_accw = 0, use_rpy = 0;
	if (state) {
		NEED(S_GYRO, "the state stream");
		NEED(S_POS, "the state stream");
		NEED(S_VEL, "the state stream");
		/* attitude: quat, or rpy when mapped (or the preset's) and quat is not */
		use_rpy = (user_map[S_RPY] || (pre && pre->map[S_RPY] && !user_map[S_QUAT])) && have[S_RPY];
		if (!use_rpy && !have[S_QUAT] && have[S_RPY])
			use_rpy = 1;
		if (!use_rpy)
			NEED(S_QUAT, "the state stream; or give rpy");
	} else if (!have[S_ACC] && have[S_ACCW] && have[S_QUAT])
		use_accw = 1;
	else
		NEED(S_ACC, "the specific force; or give acc_world and quat");
	if (rigid)
		NEED(S_GYRO, "the rigid-body model");
	int src;
	if (wrench)
		src = strcmp(wrench, "force") == 0 ? S_FORCE : strcmp(wrench, "thrust") == 0 ? S_THRUST : S_ROTORS;
	else
		src = have[S_FORCE] ? S_FORCE : have[S_THRUST] ? S_THRUST : have[S_ROTORS] && vehfile ? S_ROTORS : -1;
	if (src < 0)
		cli_die(EXIT_DATA, "%s: no force signal: need columns %s (force), %s (thrust), or rotor "
		    "columns with --vehicle; map yours with --map", tbl_name(r), map[S_FORCE], map[S_THRUST]);
	if (src == S_ROTORS) {
		if (!vehfile)
			cli_die(EXIT_USAGE, "--wrench rotors needs --vehicle FILE");
		NEED(S_ROTORS, "per-rotor thrusts or speeds");
		if (nk[S_ROTORS] != veh.n)
			cli_die(EXIT_DATA, "%s: %d rotor columns but the vehicle file has %d rotors", tbl_name(r),
			    nk[S_ROTORS], veh.n);
	} else {
		NEED(src, "the force");
	}
	if (rigid && src != S_ROTORS)
		NEED(S_TORQUE, "the rigid-body model");
	int use_alpha = rigid && have[S_ALPHA];
	for (int s = 0; s < NSIG; s++)
		if (have[s] && (s == S_T || (s == S_ACC && !use_accw && !state) ||
		    (use_accw && (s == S_ACCW || s == S_QUAT)) || ((rigid || state) && s == S_GYRO) ||
		    (use_alpha && s == S_ALPHA) || s == src || (rigid && s == S_TORQUE && src != S_ROTORS) ||
		    (state && (s == S_POS || s == S_VEL || s == (use_rpy ? S_RPY : S_QUAT)))))
			for (int j = 0; j < nk[s]; j++)
				tbl_want(r, lm.idx[s][j]);

	/* true_* columns pass through */
	int ntrue = 0, *tidx = malloc((size_t)tbl_ncols(r) * sizeof(int));
	for (int i = 0; i < tbl_ncols(r); i++)
		if (strncmp(tbl_col(r, i), "true_", 5) == 0) {
			tidx[ntrue++] = i;
			tbl_want(r, i);
		}

	int n = rigid ? 10 : 1;
	int ncol = state ? NSTATE + ntrue : 3 + n + ntrue;
	const char **names = malloc((size_t)ncol * sizeof(*names));
	char (*nbuf)[32] = malloc((size_t)n * sizeof(*nbuf));
	if (!names || !nbuf)
		cli_die(EXIT_DATA, "out of memory");
	if (state) {
		for (int j = 0; j < NSTATE; j++)
			names[j] = state_cols[j];
	} else {
		names[0] = "t";
		names[1] = "row";
		for (int j = 0; j < n; j++) {
			snprintf(nbuf[j], sizeof(nbuf[j]), "Y_%s", tagk_param_names[j]);
			names[2 + j] = nbuf[j];
		}
		names[2 + n] = "b";
	}
	for (int j = 0; j < ntrue; j++)
		names[ncol - ntrue + j] = tbl_col(r, tidx[j]);

	emitter em = { .rigid = rigid, .ntrue = ntrue };
	em.orow = malloc((size_t)ncol * sizeof(double));
	em.state = state;
	em.pos_scale = pos_mm ? 1e-3 : 1;
	em.use_rpy = use_rpy;
	em.idx_att = lm.idx[use_rpy ? S_RPY : S_QUAT];
	em.idx_pos = lm.idx[S_POS];
	em.idx_vel = lm.idx[S_VEL];
	/* ring of 2k+1 samples for the alpha slope; one slot when alpha is given */
	int ring = use_alpha || !rigid ? 1 : 2 * kwin + 1;
	sample *buf = calloc((size_t)ring, sizeof(*buf));
	for (int i = 0; i < ring; i++)
		buf[i].truth = malloc((size_t)(ntrue ? ntrue : 1) * sizeof(double));
	double *row = malloc((size_t)tbl_ncols(r) * sizeof(double));
	if (!tidx || !names || !nbuf || !em.orow || !buf || !row)
		cli_die(EXIT_DATA, "out of memory");
	em.out = cmdio_open_output(outname, TBL_AUTO);
	cmdio_header(em.out, ncol, names);

	int fill = 0, head = 0;
	double tprev = -INFINITY;
	long skipped_time = 0, nin = 0;
	int rc;
	while ((rc = tbl_next(r, row)) == 1) {
		sample s;
		s.t = row[lm.idx[S_T][0]] * tscale;
		if (!(s.t > tprev)) {
			if (in.skip_bad) {
				skipped_time++;
				continue;
			}
			char a[32], b[32];
			fmt_double(a, s.t);
			fmt_double(b, tprev);
			cli_die(EXIT_DATA, "%s: time %s %s the previous %s (--skip-bad skips such rows)",
			    tbl_where(r), a, s.t == tprev ? "repeats" : "goes back from", b);
		}
		double gap = s.t - tprev;
		tprev = s.t;
		nin++;
		if (state) {
		} else if (use_accw) {
			double q[4], aw[3];
			for (int j = 0; j < 4; j++)
				q[j] = row[lm.idx[S_QUAT][j]];
			for (int j = 0; j < 3; j++)
				aw[j] = row[lm.idx[S_ACCW][j]];
			aw[2] += TAGK_G0; /* specific force = a - g, g = (0, 0, -g0) */
			if (!(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] > 0))
				cli_die(EXIT_DATA, "%s: zero quaternion", tbl_where(r));
			quat_rotate_t(q, aw, s.a);
		} else {
			for (int j = 0; j < 3; j++)
				s.a[j] = row[lm.idx[S_ACC][j]] * (acc_g ? TAGK_G0 : 1);
		}
		for (int j = 0; j < 3; j++) {
			s.w[j] = rigid || state ? row[lm.idx[S_GYRO][j]] * (gyro_deg ? M_PI / 180 : 1) : 0;
			s.f[j] = s.tau[j] = 0;
		}
		if (src == S_FORCE) {
			for (int j = 0; j < 3; j++)
				s.f[j] = row[lm.idx[S_FORCE][j]];
		} else if (src == S_THRUST) {
			s.f[2] = row[lm.idx[S_THRUST][0]];
		} else {
			double T[16];
			for (int i = 0; i < veh.n; i++) {
				double u = row[lm.idx[S_ROTORS][i]];
				T[i] = veh.speeds ? veh.kf * u * u : u;
			}
			tagk_rotor_wrench(veh.n, (const double (*)[3])veh.pos, veh.dir, veh.kappa, T, s.f, s.tau);
		}
		if (rigid && src != S_ROTORS)
			for (int j = 0; j < 3; j++)
				s.tau[j] = row[lm.idx[S_TORQUE][j]];
		if (ring == 1) {
			double al[3] = { 0, 0, 0 };
			if (use_alpha)
				for (int j = 0; j < 3; j++)
					al[j] = row[lm.idx[S_ALPHA][j]] * (gyro_deg ? M_PI / 180 : 1);
			s.truth = buf[0].truth;
			for (int j = 0; j < ntrue; j++)
				s.truth[j] = row[tidx[j]];
			if (state && emit_state(&em, &s, row) != 0) {
				if (!in.skip_bad)
					cli_die(EXIT_DATA, "%s: the attitude quaternion is not of unit length (within 1e-3); "
					    "--skip-bad skips such rows", tbl_where(r));
				skipped_time++;
			} else if (!state)
				emit(&em, &s, al);
			continue;
		}
		/* A gap breaks the derivative: samples that cannot be centred
		 * in a gap-free window are dropped. */
		if (gap > max_gap)
			fill = 0;
		sample *slot = &buf[head];
		double *tr = slot->truth;
		*slot = s;
		slot->truth = tr;
		for (int j = 0; j < ntrue; j++)
			tr[j] = row[tidx[j]];
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
		emit(&em, &buf[(head + kwin) % ring], al);
	}
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	if (nin == 0)
		cli_die(EXIT_DATA, "%s: no data rows", tbl_name(r));
	if (em.rows_out == 0)
		cli_die(EXIT_DATA, "%s: %ld samples, too few to differentiate gyro over %d samples "
		    "without a gap longer than %g s", tbl_name(r), nin, ring, max_gap);
	cmdio_commit(em.out);
	long sk = tbl_skipped(r) + skipped_time;
	if (sk)
		cli_warn("skipped %ld bad row%s of %s", sk, sk == 1 ? "" : "s", tbl_name(r));
	tbl_close(r);
	return 0;
}
