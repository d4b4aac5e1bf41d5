/*
 * bench_mass.c: tagk-bench massflight and rmspe; see bench_mass.h.
 *
 * rmspe flies every (trajectory, mass behaviour, repetition) once with
 * lib/uavsim.c and runs every method over the same samples: the state-space
 * methods of lib/massest.h on (thrust, gyro; q, r, v), and the regressor
 * methods on the 3 x 1 mass rows f = m a that tagk-regress -m mass builds
 * (the accelerometer and the thrust, or with --acc velocity the velocity's
 * difference quotient rotated into the body). Each method starts from the
 * same wrong mass. The RMSPE of eq. 33 is taken over every sample after the
 * first, the estimate held between updates; the update time is the mean
 * wall time of one call, measured around that call alone.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bench_mass.h"
#include "../cmd/common/cli.h"
#include "bench_commands.h"
#include "progress.h"
#include "workers.h"
#include "../cmd/common/cmdio.h"
#include "../formats/vehicle.h"
#include "sim/tagk_sim.h"

/* Paper 001, the tables under Fig. 8 (random) and Fig. 9 (lemniscate):
 * per mass behaviour 0-4, EKF, MSCKF, UKF, SWLS as (update ms, RMSPE). */
static const double paper_random[5][8] = {
	{ 0.00451, 0.00960, 0.13954, 0.00961, 0.00678, 0.00994, 0.53873, 0.00463 },
	{ 0.00498, 0.01100, 0.15324, 0.01100, 0.00738, 0.01174, 0.60580, 0.00568 },
	{ 0.00495, 0.02739, 0.15501, 0.02743, 0.00748, 0.02762, 0.62461, 0.02765 },
	{ 0.00497, 0.01338, 0.15458, 0.01337, 0.00746, 0.01386, 0.60814, 0.00978 },
	{ 0.00500, 0.01117, 0.15501, 0.01118, 0.00748, 0.01170, 0.60964, 0.00715 },
};
static const double paper_lemniscate[5][8] = {
	{ 0.00491, 0.01987, 0.15602, 0.01997, 0.00746, 0.02029, 0.59596, 0.01111 },
	{ 0.00492, 0.02104, 0.15527, 0.02115, 0.00755, 0.02170, 0.61136, 0.01219 },
	{ 0.00492, 0.02908, 0.15525, 0.02912, 0.00760, 0.02942, 0.61114, 0.02518 },
	{ 0.00492, 0.02191, 0.15554, 0.02202, 0.00774, 0.02242, 0.60827, 0.01439 },
	{ 0.00492, 0.02128, 0.15453, 0.02140, 0.00757, 0.02186, 0.65333, 0.01235 },
};

/* The column pair of method name in the tables above, or -1. */
static int
paper_column(const char *name)
{
	static const char *const cols[] = { "ekf", "msckf", "ukf", "swls" };
	for (int i = 0; i < 4; i++)
		if (strcmp(name, cols[i]) == 0)
			return i;
	return -1;
}

#define DEFAULT_METHODS "ekf,msckf,ukf,swls,tagk,rls-low,kf-low"
enum { MAXM = 16, REG_WINDOW = 5 };

typedef struct {
	const char *name;
	const tagk_method *mm;     /* state-space method, or */
	const tagk_method *rm;        /* regressor method */
	int zrow;                  /* rm on the body-z row alone ("tagk/z"): the one the thrust acts along */
	char label[40];
} method;

static int
find_name(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0 || (s[0] == '0' + i && s[1] == 0))
			return i;
	return -1;
}

/* A comma list of names (or indices) into sel; returns the count. */
static int
parse_set(const char *opt, const char *s, const char *const *names, int n, int *sel)
{
	char buf[256], *items[64];
	int nk = cli_split(opt, s, buf, sizeof(buf), items, 64), k = 0;
	for (int e = 0; e < nk; e++) {
		const char *tok = items[e];
		int i = find_name(tok, names, n);
		if (i < 0) {
			char all[128] = "";
			for (int j = 0; j < n; j++)
				snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s", j ? ", " : "", names[j]);
			cli_die(EXIT_USAGE, "%s: '%s' is not one of %s (or 0-%d)", opt, tok, all, n - 1);
		}
		if (k == n)
			cli_die(EXIT_USAGE, "%s: too many entries", opt);
		sel[k++] = i;
	}
	if (k == 0)
		cli_die(EXIT_USAGE, "%s: empty list", opt);
	return k;
}

/* ---- massflight ------------------------------------------------------ */

/* The actuator, reference, noise and mass settings of massflight and
 * rmspe (besides the simulator's defaults). */
typedef struct {
	double thrust_lag, thrust_max, speed;
	double noise;      /* every sensor's noise times this (1) */
	double mass_scale; /* the mass changes' amplitudes times this (1) */
} actuators;

static void
parse_actuators(actuators *a, int opt, const char *arg)
{
	if (opt == 'L')
		a->thrust_lag = cli_double("--thrust-lag", arg, 0, 10);
	else if (opt == 'X') {
		a->thrust_max = cli_double("--thrust-max", arg, 0, 100);
		if (a->thrust_max > 0 && a->thrust_max < 0.5)
			cli_die(EXIT_USAGE, "--thrust-max: %s weights cannot hold the vehicle up (0 or 0.5 to 100)", arg);
	} else if (opt == 'n')
		a->noise = cli_double("--noise", arg, 0, 100);
	else if (opt == 'K')
		a->mass_scale = cli_double("--mass-scale", arg, 0, 3);
	else
		a->speed = cli_double("--speed", arg, 0.01, 10);
}

static void
set_actuators(tagk_uavsim_config *sc, const actuators *a)
{
	sc->thrust_tau = (tagk_real)a->thrust_lag;
	sc->thrust_max = (tagk_real)a->thrust_max;
	sc->speed = (tagk_real)a->speed;
	sc->mass_scale = (tagk_real)a->mass_scale;
	sc->sd_att *= (tagk_real)a->noise;
	sc->sd_pos *= (tagk_real)a->noise;
	sc->sd_vel *= (tagk_real)a->noise;
	sc->sd_gyro *= (tagk_real)a->noise;
	sc->sd_acc *= (tagk_real)a->noise;
}

/* The command u in [0, 65535] that gives a rotor thrust T through the
 * vehicle's map (at voltage vbat), by bisection: maps rise with u. */
static double
pwm_of(const vehicle *v, double T, double vbat)
{
	double lo = 0, hi = 65535;
	if (vehicle_rotor_thrust(v, hi, vbat) < T)
		cli_die(EXIT_DATA, "massflight --pwm: a rotor thrust of %g N is more than the map gives at 65535 "
		    "(the flight too heavy for the vehicle: --m-nom near its mass)", T);
	for (int i = 0; i < 60; i++) {
		double mid = 0.5 * (lo + hi);
		if (vehicle_rotor_thrust(v, mid, vbat) < T)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/* massflight's log with the motors' commands (--pwm): the names of a
 * Crazyflie log, each rotor a quarter of the thrust. */
typedef struct {
	const vehicle *v;
	double vbat0, vbat1, duration; /* the battery sags linearly from vbat0 to vbat1 */
} pwm_out;

/* Columns of the row for thrust T at time t into row (4 motors, vbat). */
static int
pwm_columns(const pwm_out *p, double t, double T, double *row)
{
	double vbat = p->vbat0 + (p->vbat1 - p->vbat0) * (p->duration > 0 ? t / p->duration : 0);
	for (int j = 0; j < 4; j++)
		row[j] = T > 0 ? pwm_of(p->v, T / 4, vbat) : 0;
	row[4] = vbat;
	return 5;
}

/* tagk-bench massflight's options. */
typedef struct {
	int traj, beh;
	uint64_t seed;
	double duration, rate, m_nom, thrust_sd, vbat[2], ground;
	double ar1;        /* --noise-ar1: the sensors' noise coloured (0) */
	double state_ar1;  /* --state-noise-ar1: the logged state's noise coloured (0) */
	double map_gain;   /* the logged thrust over the thrust (1; --thrust-map-sd) */
	actuators act;
	const char *outname, *pwmveh;
} mf_opts;

/* The simulator configured from the options. */
static void
mf_sim(const mf_opts *o, tagk_uavsim_config *sc, tagk_uavsim *sim)
{
	tagk_uavsim_defaults(sc, o->traj, o->beh, o->seed);
	sc->duration = (tagk_real)o->duration;
	sc->dt = (tagk_real)(1 / o->rate);
	sc->m_nom = (tagk_real)o->m_nom;
	sc->sd_thrust = (tagk_real)o->thrust_sd;
	sc->noise_ar1 = (tagk_real)o->ar1;
	sc->state_ar1 = (tagk_real)o->state_ar1;
	set_actuators(sc, &o->act);
	if (tagk_uavsim_init(sim, sc) != TAGK_OK)
		cli_die(EXIT_USAGE, "massflight: the settings are out of range");
}

static const char *const mf_names[] = { "t", "thrust", "gx", "gy", "gz", "ax", "ay", "az", "qw", "qx", "qy",
	"qz", "px", "py", "pz", "vx", "vy", "vz", "true_m" };
enum { MF_NC = sizeof(mf_names) / sizeof(mf_names[0]) };

/* The output's columns: with --pwm, the four motor commands and the
 * battery voltage in place of the thrust. */
static int
mf_columns(const mf_opts *o, const char **cols)
{
	static const char *const pwm_names[] = { "motor.m1", "motor.m2", "motor.m3", "motor.m4", "pm.vbat" };
	int nc = 0;
	for (int i = 0; i < MF_NC; i++) {
		if (i == 1 && o->pwmveh)
			for (int j = 0; j < 5; j++)
				cols[nc++] = pwm_names[j];
		else
			cols[nc++] = mf_names[i];
	}
	return nc;
}

/* Resting on the ground, motors off, where the flight starts (before it)
 * or ended (after it), at flight time kf / rate: the ground holds the
 * weight, the accelerometer reads +g. */
static void
mf_ground(tagk_uavsim_sample *s, const tagk_uavsim_sample *at, long kf, double rate)
{
	*s = *at;
	s->t = (tagk_real)((double)kf / rate);
	s->u.thrust = 0;
	for (int j = 0; j < 3; j++)
		s->u.w[j] = s->acc[j] = s->y.v[j] = 0;
	s->acc[2] = (tagk_real)TAGK_G0;
	s->y.q[0] = 1;
	s->y.q[1] = s->y.q[2] = s->y.q[3] = 0;
}

/* One sample as an output row. */
static void
mf_row(const mf_opts *o, const pwm_out *pw, const tagk_uavsim_sample *s, sink *out)
{
	double row[MF_NC + 4];
	int i = 0;
	row[i++] = (double)s->t + o->ground;
	if (o->pwmveh)
		i += pwm_columns(pw, (double)s->t + o->ground, o->map_gain * (double)s->u.thrust, row + i);
	else
		row[i++] = o->map_gain * (double)s->u.thrust;
	for (int j = 0; j < 3; j++)
		row[i++] = (double)s->u.w[j];
	for (int j = 0; j < 3; j++)
		row[i++] = (double)s->acc[j];
	for (int j = 0; j < 4; j++)
		row[i++] = (double)s->y.q[j];
	for (int j = 0; j < 3; j++)
		row[i++] = (double)s->y.r[j];
	for (int j = 0; j < 3; j++)
		row[i++] = (double)s->y.v[j];
	row[i++] = (double)s->m;
	cmdio_row(out, row);
}

/* The flight with --ground seconds on the ground before and after, written
 * to out; the sum over the flight of the tracking error, m. */
static double
mf_fly(const mf_opts *o, tagk_uavsim *sim, const pwm_out *pw, sink *out)
{
	double err = 0;
	long n = tagk_uavsim_steps(sim), nground = (long)(o->ground * o->rate + 0.5);
	tagk_uavsim_sample s0;
	memset(&s0, 0, sizeof(s0));
	s0.m = (tagk_real)tagk_uavsim_mass(sim, 0);
	for (long k = 0; k < n + 2 * nground; k++) {
		tagk_uavsim_sample s;
		long kf = k - nground;
		int flying = kf >= 0 && kf < n;
		if (!flying) {
			mf_ground(&s, &s0, kf, o->rate);
		} else {
			tagk_status st = tagk_uavsim_next(sim, &s);
			if (st != TAGK_OK)
				cli_die(EXIT_DATA, "massflight: the flight left the envelope at sample %ld: %s", kf,
				    tagk_strerror(st));
			s0 = s;
		}
		mf_row(o, pw, &s, out);
		if (!flying)
			continue;
		double d = 0;
		for (int j = 0; j < 3; j++)
			d += (double)((s.x.r[j] - s.ref[j]) * (s.x.r[j] - s.ref[j]));
		err += sqrt(d);
	}
	return err;
}

int
bench_massflight(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "traj", required_argument, NULL, 't' },
		{ "mass", required_argument, NULL, 'm' },
		{ "seed", required_argument, NULL, 's' },
		{ "duration", required_argument, NULL, 'd' },
		{ "rate", required_argument, NULL, 'r' },
		{ "m-nom", required_argument, NULL, 'M' },
		{ "noise", required_argument, NULL, 'n' },
		{ "thrust-sd", required_argument, NULL, 'T' },
		{ "thrust-lag", required_argument, NULL, 'L' },
		{ "thrust-max", required_argument, NULL, 'X' },
		{ "noise-ar1", required_argument, NULL, 'A' },
		{ "state-noise-ar1", required_argument, NULL, 'Z' },
		{ "thrust-map-sd", required_argument, NULL, 'Q' },
		{ "speed", required_argument, NULL, 'S' },
		{ "mass-scale", required_argument, NULL, 'K' },
		{ "pwm", required_argument, NULL, 'P' },
		{ "vbat", required_argument, NULL, 'B' },
		{ "ground", required_argument, NULL, 'G' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	mf_opts o = { .traj = TAGK_UAVTRAJ_LOOP, .beh = TAGK_MASS_DRAIN, .seed = 1, .duration = 20, .rate = 100,
		.m_nom = NAN, .act = { 0, 0, 1, 1, 1 }, .vbat = { 4.0, 4.0 }, .map_gain = 1 };
	int c;
	double map_sd = 0;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "o:h", opts)) != -1) {
		int one[1];
		switch (c) {
		case 't': parse_set("--traj", optarg, tagk_uavtraj_names, TAGK_UAVTRAJ_COUNT, one); o.traj = one[0]; break;
		case 'm': parse_set("--mass", optarg, tagk_massb_names, TAGK_MASSB_COUNT, one); o.beh = one[0]; break;
		case 's': o.seed = cli_u64("--seed", optarg); break;
		case 'd': o.duration = cli_double("--duration", optarg, 0.1, 3600); break;
		case 'r': o.rate = cli_double("--rate", optarg, 10, 10000); break;
		case 'M': o.m_nom = cli_double("--m-nom", optarg, 1e-3, 1e4); break;
		case 'T': o.thrust_sd = cli_double("--thrust-sd", optarg, 0, 1); break;
		case 'A': o.ar1 = cli_double("--noise-ar1", optarg, 0, 0.999); break;
		case 'Z': o.state_ar1 = cli_double("--state-noise-ar1", optarg, 0, 0.999); break;
		case 'Q': map_sd = cli_double("--thrust-map-sd", optarg, 0, 0.3); break;
		case 'L': case 'X': case 'S': case 'n': case 'K': parse_actuators(&o.act, c, optarg); break;
		case 'P': o.pwmveh = optarg; break;
		case 'B': {
			char buf[64], *it[2];
			int k = cli_split("--vbat", optarg, buf, sizeof(buf), it, 2);
			o.vbat[0] = cli_double("--vbat", it[0], 1, 100);
			o.vbat[1] = k == 2 ? cli_double("--vbat", it[1], 1, 100) : o.vbat[0];
			break;
		}
		case 'G': o.ground = cli_double("--ground", optarg, 0, 3600); break;
		case 'o': o.outname = optarg; break;
		case 'h':
			bench_help(stdout, "massflight");
			cli_close(stdout, "stdout");
			return 0;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		cli_die(EXIT_USAGE, "massflight: unexpected argument '%s'", argv[optind]);
	if (map_sd > 0) {
		/* the log's thrust map off by a factor drawn once per flight, from
		 * a generator of its own (the flight is the same for every sd) */
		tagk_rng g;
		tagk_rng_seed(&g, o.seed ^ 0x6d61702d6572726fULL);
		o.map_gain = 1 + map_sd * (double)tagk_rng_gaussian(&g);
	}
	vehicle veh;
	pwm_out pw = { &veh, o.vbat[0], o.vbat[1], o.duration + 2 * o.ground };
	if (o.pwmveh) {
		cmdio_vehicle(o.pwmveh, &veh, 1);
		if (veh.input != VEH_INPUT_PWM || veh.n != 4)
			cli_die(EXIT_USAGE, "--pwm: %s is not a four-rotor vehicle of 'input pwm'", o.pwmveh);
		/* 1 kg is more than a Crazyflie's motors lift: the vehicle's own
		 * mass unless told */
		if (isnan(o.m_nom) && !isnan(veh.mass))
			o.m_nom = veh.mass;
	}
	if (isnan(o.m_nom))
		o.m_nom = 1;
	tagk_uavsim_config sc;
	tagk_uavsim sim;
	mf_sim(&o, &sc, &sim);
	const char *cols[MF_NC + 4];
	int nc = mf_columns(&o, cols);
	sink *out = cmdio_open_output(o.outname, TBL_AUTO);
	cmdio_header(out, nc, cols);
	double err = mf_fly(&o, &sim, &pw, out);
	cmdio_commit(out);
	long n = tagk_uavsim_steps(&sim), nground = (long)(o.ground * o.rate + 0.5);
	cli_warn("%s, %s, seed %llu: %ld samples at %g Hz, mass %g -> %g kg, mean tracking error %.1f cm",
	    tagk_uavtraj_names[o.traj], tagk_massb_names[o.beh], (unsigned long long)o.seed, n + 2 * nground, o.rate,
	    (double)tagk_uavsim_mass(&sim, 0), (double)tagk_uavsim_mass(&sim, sc.duration), 100 * err / (double)n);
	return 0;
}

/* ---- rmspe ----------------------------------------------------------- */

/* RMSPE is also reported after a start-up of BURN_S: at constant mass most
 * of the squared error is in the first fraction of a second, from the 20 %
 * initial error, which says nothing about tracking. */
#define BURN_S 2.0

typedef struct {
	double rmspe, ns;     /* RMSPE; wall time of all updates, ns */
	double rmspe_burn;    /* RMSPE over t >= BURN_S */
	long updates;
	int diverged;
} outcome;

/* Add the relative error r at time t to the sums. */
static void
add_error(double r, double t, double *se, double *sb, long *nb)
{
	*se += r * r;
	if (t >= BURN_S) {
		*sb += r * r;
		(*nb)++;
	}
}

/* The state-space method mm over the flight's samples s[0 .. n-1]. */
static outcome
run_state(const tagk_method *mm, const tagk_uavsim_sample *s, long n, double m0)
{
	outcome o = { 0, 0, 0, 0, 0 };
	double sb = 0;
	long nb = 0;
	tagk_mass_config cfg;
	tagk_mass_defaults(&cfg, mm, (tagk_real)m0);
	size_t len = tagk_mass_workspace_len(&cfg);
	tagk_real *ws = malloc(len * sizeof(*ws));
	tagk_mass_est e;
	if (!ws || tagk_mass_init(&e, &cfg, ws, len) != TAGK_OK || tagk_mass_start(&e, &s[0].y) != TAGK_OK)
		cli_die(EXIT_DATA, "rmspe: %s: cannot start", mm->name);
	double se = 0;
	for (long k = 1; k < n; k++) {
		tagk_real m;
		double t0 = cli_seconds();
		tagk_status st = tagk_mass_update(&e, &s[k - 1].u, s[k].t - s[k - 1].t, &s[k].y, &m);
		o.ns += 1e9 * (cli_seconds() - t0);
		o.updates++;
		if (st != TAGK_OK) {
			o.diverged = 1;
			break;
		}
		add_error(((double)m - (double)s[k].m) / (double)s[k].m, (double)(s[k].t - s[0].t), &se, &sb, &nb);
	}
	o.rmspe = sqrt(se / (double)(n - 1));
	o.rmspe_burn = nb ? sqrt(sb / (double)nb) : (double)NAN;
	free(ws);
	return o;
}

/* The regressor method rm on 3 x 1 mass rows (zrow: the body-z row alone)
 * over a window of REG_WINDOW samples, updated at every sample; the
 * estimate is held in between and is m0 before the first update. Why the
 * z row alone: the thrust acts along body z, so the x and y rows say
 * a_x m = 0 with a_x mere noise and drag; a one-parameter Kaczmarz step
 * solves its row exactly, so such a row sets m to 0. */
static outcome
run_regressor(const tagk_method *rm, const tagk_uavsim_sample *s, long n, double m0, int velocity, int zrow)
{
	outcome o = { 0, 0, 0, 0, 0 };
	double sb = 0;
	long nb = 0;
	tagk_config cfg;
	tagk_real th0 = (tagk_real)m0, th[1], A[3 * REG_WINDOW], b[3 * REG_WINDOW];
	tagk_config_defaults(&cfg, rm, 1, 3 * REG_WINDOW);
	cfg.theta0 = &th0;
	size_t len = tagk_est_workspace_len(&cfg);
	tagk_real *ws = malloc(len * sizeof(*ws));
	tagk_estimator est;
	if (!ws || tagk_est_init(&est, &cfg, ws, len) != TAGK_OK)
		cli_die(EXIT_DATA, "rmspe: %s: cannot start", rm->name);
	double se = 0, hold = m0;
	for (long k = 1; k < n; k++) {
		if (k >= REG_WINDOW) {
			int m = 0;
			for (long j = k - REG_WINDOW + 1; j <= k; j++) {
				tagk_real a[3], f[3] = { 0, 0, 0 };
				if (velocity) {
					/* specific force over [t_j-1, t_j] from the measured velocities */
					tagk_real dv[3], dt = s[j].t - s[j - 1].t;
					for (int i = 0; i < 3; i++)
						dv[i] = (s[j].y.v[i] - s[j - 1].y.v[i]) / dt + (i == 2 ? TAGK_UAV_G : 0);
					tagk_qrotate_t(s[j - 1].y.q, dv, a);
					f[2] = s[j - 1].u.thrust;
				} else {
					memcpy(a, s[j].acc, sizeof(a));
					f[2] = s[j].u.thrust;
				}
				tagk_real Y[3];
				tagk_regressor_mass(a, Y);
				for (int i = zrow ? 2 : 0; i < 3; i++, m++) {
					A[m] = Y[i];
					b[m] = f[i];
				}
			}
			double t0 = cli_seconds();
			tagk_status st = tagk_est_update(&est, A, b, m, th);
			o.ns += 1e9 * (cli_seconds() - t0);
			o.updates++;
			if (st == TAGK_OK)
				hold = (double)th[0];
			if (!isfinite(hold) || !(hold > m0 / 100) || !(hold < m0 * 100)) {
				o.diverged = 1;
				break;
			}
		}
		add_error((hold - (double)s[k].m) / (double)s[k].m, (double)(s[k].t - s[0].t), &se, &sb, &nb);
	}
	o.rmspe = sqrt(se / (double)(n - 1));
	o.rmspe_burn = nb ? sqrt(sb / (double)nb) : (double)NAN;
	free(ws);
	return o;
}

typedef struct {
	double rmspe_sum, burn_sum, ns_sum;
	long updates, flights, diverged, lost; /* lost: the vehicle left the envelope */
} cell;

static uint64_t
flight_seed(uint64_t seed, int traj, int beh, int trial)
{
	/* splitmix64 of the flight's coordinates: independent streams */
	uint64_t z = seed * 0x9e3779b97f4a7c15ULL + (uint64_t)(traj * 64 + beh) * 0xbf58476d1ce4e5b9ULL +
	    (uint64_t)trial * 0x94d049bb133111ebULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

typedef struct {
	actuators act;
	int trials, ntraj, nbeh, nm, velocity;
	int traj[TAGK_UAVTRAJ_COUNT], beh[TAGK_MASSB_COUNT];
	method ms[MAXM];
	uint64_t seed;
	double duration, m0_error;
} rmspe_cfg;

/* Fly flight number f (of ntraj x nbeh x trials) and append one line per
 * method to out: "ti,bi,method,diverged,rmspe,ns,updates"; diverged 2 when
 * the vehicle left the envelope (an aggressive reference it cannot follow),
 * a flight not scored. */
static void
fly_one(const rmspe_cfg *c, long f, tagk_uavsim_sample *buf, FILE *out)
{
	int trial = (int)(f % c->trials), bi = (int)(f / c->trials % c->nbeh), ti = (int)(f / c->trials / c->nbeh);
	tagk_uavsim_config sc;
	tagk_uavsim_defaults(&sc, c->traj[ti], c->beh[bi], flight_seed(c->seed, c->traj[ti], c->beh[bi], trial));
	sc.duration = (tagk_real)c->duration;
	set_actuators(&sc, &c->act);
	tagk_uavsim sim;
	if (tagk_uavsim_init(&sim, &sc) != TAGK_OK)
		cli_die(EXIT_USAGE, "rmspe: the flight settings are out of range");
	long n = tagk_uavsim_steps(&sim);
	for (long k = 0; k < n; k++) {
		if (tagk_uavsim_next(&sim, &buf[k]) != TAGK_OK) {
			for (int i = 0; i < c->nm; i++)
				fprintf(out, "%d,%d,%d,2,0,0,0,0\n", ti, bi, i);
			return;
		}
	}
	double m0 = (1 + c->m0_error) * (double)buf[0].m;
	for (int i = 0; i < c->nm; i++) {
		outcome o = c->ms[i].mm ? run_state(c->ms[i].mm, buf, n, m0)
		    : run_regressor(c->ms[i].rm, buf, n, m0, c->velocity, c->ms[i].zrow);
		fprintf(out, "%d,%d,%d,%d,%.17g,%.17g,%.17g,%ld\n", ti, bi, i, o.diverged, o.rmspe, o.rmspe_burn, o.ns,
		    o.updates);
	}
}

/* The mean RMSPE of a cell over its scored flights (NaN if none). */
static double
cell_rmspe(const cell *g)
{
	long ok = g->flights - g->diverged - g->lost;
	return ok ? g->rmspe_sum / (double)ok : (double)NAN;
}

/* The line under a paper row: ours / the paper's, update time and RMSPE. */
static void
print_ratios(const rmspe_cfg *c, const cell *cells, int ti, int bi, const double *paper, int md)
{
	if (md)
		printf("| %d ratio |", c->beh[bi]);
	else
		printf("%-12s", "  ratio");
	for (int i = 0; i < c->nm; i++) {
		const cell *g = &cells[(ti * c->nbeh + bi) * c->nm + i];
		int pi = c->ms[i].mm ? paper_column(c->ms[i].mm->name) : -1;
		if (pi < 0) {
			printf(md ? " | | |" : " %9s %9s %9s", "", "", "");
			continue;
		}
		double ms = g->updates ? g->ns_sum / (double)g->updates / 1e6 : (double)NAN;
		printf(md ? " %.3g | %.3g | |" : " %8.3gx %8.3gx %9s", ms / paper[2 * pi], cell_rmspe(g) / paper[2 * pi + 1], "");
	}
	printf("\n");
}

static void
print_tables(const rmspe_cfg *c, const cell *cells, const char *fmt)
{
	int csv = strcmp(fmt, "csv") == 0, md = strcmp(fmt, "md") == 0;
	if (csv)
		printf("trajectory,mass,method,flights,diverged,update_ms,rmspe,paper_update_ms,paper_rmspe,rmspe_after_2s,"
		    "lost_flights,rmspe_ratio\n");
	for (int ti = 0; ti < c->ntraj; ti++) {
		int tr = c->traj[ti];
		const double (*paper)[8] = tr == TAGK_UAVTRAJ_RANDOM ? paper_random
		    : tr == TAGK_UAVTRAJ_LEMNISCATE ? paper_lemniscate : NULL;
		if (!csv) {
			printf("%s%s%s\n\n", md ? "### " : "", tagk_uavtraj_names[tr],
			    paper ? (tr == TAGK_UAVTRAJ_RANDOM ? " (paper: Fig. 8)" : " (paper: Fig. 9)") : "");
			if (md) {
				printf("| mass |");
				for (int i = 0; i < c->nm; i++)
					printf(" %s ms | %s RMSPE | %s after 2 s |", c->ms[i].name, c->ms[i].name, c->ms[i].name);
				printf("\n|---|");
				for (int i = 0; i < c->nm; i++)
					printf("---:|---:|---:|");
				printf("\n");
			} else {
				printf("%-12s", "mass");
				for (int i = 0; i < c->nm; i++)
					printf(" %29s", c->ms[i].name);
				printf("\n%-12s", "");
				for (int i = 0; i < c->nm; i++)
					printf(" %9s %9s %9s", "ms", "RMSPE", ">2s");
				printf("\n");
			}
		}
		for (int bi = 0; bi < c->nbeh; bi++) {
			int b = c->beh[bi];
			char label[32];
			snprintf(label, sizeof(label), "%d %s", b, tagk_massb_names[b]);
			if (!csv)
				printf(md ? "| %s |" : "%-12s", label);
			for (int i = 0; i < c->nm; i++) {
				const cell *g = &cells[(ti * c->nbeh + bi) * c->nm + i];
				long ok = g->flights - g->diverged - g->lost;
				double ms = g->updates ? g->ns_sum / (double)g->updates / 1e6 : (double)NAN;
				double rm = ok ? g->rmspe_sum / (double)ok : (double)NAN;
				double rb = ok ? g->burn_sum / (double)ok : (double)NAN;
				int pi = -1;
				if (paper && c->ms[i].mm)
					pi = paper_column(c->ms[i].mm->name);
				if (csv) {
					printf("%s,%d,%s,%ld,%ld,%.6g,", tagk_uavtraj_names[tr], b, c->ms[i].name, g->flights,
					    g->diverged, ms);
					if (ok)
						printf("%.6g", rm);
					if (pi >= 0)
						printf(",%g,%g,", paper[b][2 * pi], paper[b][2 * pi + 1]);
					else
						printf(",,,");
					if (ok)
						printf("%.6g", rb);
					printf(",%ld,", g->lost);
					if (ok && pi >= 0)
						printf("%.6g", rm / paper[b][2 * pi + 1]);
					printf("\n");
					continue;
				}
				char r[32], r2[32];
				if (ok) {
					snprintf(r, sizeof(r), "%.5f%s", rm, g->diverged ? "*" : "");
					snprintf(r2, sizeof(r2), "%.5f", rb);
				} else {
					snprintf(r, sizeof(r), "%s", g->lost == g->flights ? "lost" : "diverged");
					snprintf(r2, sizeof(r2), "-");
				}
				printf(md ? " %.5f | %s | %s |" : " %9.5f %9s %9s", ms, r, r2);
			}
			if (!csv)
				printf("\n");
			if (paper && !csv) {
				if (md)
					printf("| %d paper |", b);
				else
					printf("%-12s", "  paper");
				for (int i = 0; i < c->nm; i++) {
					int pi = c->ms[i].mm ? paper_column(c->ms[i].mm->name) : -1;
					if (pi >= 0) {
						printf(md ? " %.5f | %.5f | |" : " %9.5f %9.5f %9s", paper[b][2 * pi], paper[b][2 * pi + 1], "");
					} else {
						printf(md ? " | | |" : " %9s %9s %9s", "", "", "");
					}
				}
				printf("\n");
				print_ratios(c, cells, ti, bi, paper[b], md);
			}
		}
		if (!csv)
			printf("\n");
	}
	/* the flights not scored, by cell */
	for (int ti = 0; ti < c->ntraj && !csv; ti++)
		for (int bi = 0; bi < c->nbeh; bi++) {
			const cell *g = &cells[(ti * c->nbeh + bi) * c->nm];
			if (g->lost)
				printf("%s %s/%s: %ld of %ld flights left the envelope (10 m off the reference) and are not "
				    "scored\n", md ? "" : "#", tagk_uavtraj_names[c->traj[ti]], tagk_massb_names[c->beh[bi]],
				    g->lost, g->flights);
		}
}

/* --methods: each a state-space or regressor-window method. */
static void
rm_methods(rmspe_cfg *c, const char *methods)
{
	char mbuf[256], *mitems[MAXM];
	int nmi = cli_split("--methods", methods, mbuf, sizeof(mbuf), mitems, MAXM);
	for (int mi = 0; mi < nmi; mi++) {
		char tok[40];
		snprintf(tok, sizeof(tok), "%s", mitems[mi]);
		size_t tl = strlen(tok);
		method *m = &c->ms[c->nm++];
		m->zrow = tl > 2 && strcmp(tok + tl - 2, "/z") == 0;
		if (m->zrow)
			tok[tl - 2] = 0;
		m->mm = tagk_method_find_kind(tok, TAGK_KIND_STATE);
		m->rm = m->mm ? NULL : tagk_method_find_kind(tok, TAGK_KIND_WINDOW);
		if (!m->mm && !m->rm)
			cli_die(EXIT_USAGE, "--methods: unknown method '%s' (tagk-estimate --list names them)", tok);
		if (m->zrow && !m->rm)
			cli_die(EXIT_USAGE, "--methods: '%s/z': only a regressor method takes the body-z row alone", tok);
		snprintf(m->label, sizeof(m->label), "%s%s", m->mm ? m->mm->name : m->rm->name, m->zrow ? "/z" : "");
		m->name = m->label;
	}
}

/* Samples per flight: every flight has the same number; the simulator says. */
static long
rm_samples(const rmspe_cfg *c)
{
	tagk_uavsim_config sc0;
	tagk_uavsim sim0;
	tagk_uavsim_defaults(&sc0, c->traj[0], c->beh[0], c->seed);
	sc0.duration = (tagk_real)c->duration;
	set_actuators(&sc0, &c->act);
	if (tagk_uavsim_init(&sim0, &sc0) != TAGK_OK)
		cli_die(EXIT_USAGE, "rmspe: the flight settings are out of range");
	return tagk_uavsim_steps(&sim0);
}

/* The flights shared among jobs forked workers, flight f to worker f mod
 * jobs, each writing its result lines to its own temporary file parts[j]. */
static void
rm_fly(const rmspe_cfg *c, int jobs, progress_mode pmode, long nflights, FILE **parts)
{
	long nsamples = rm_samples(c);
	pid_t pids[64];
	fflush(stdout);
	for (int j = 0; j < jobs; j++) {
		parts[j] = tmpfile();
		if (!parts[j])
			cli_die(EXIT_DATA, "rmspe: cannot create a temporary file");
		pids[j] = fork();
		if (pids[j] < 0)
			cli_die(EXIT_DATA, "rmspe: cannot fork");
		if (pids[j] == 0) {
			tagk_uavsim_sample *buf = malloc((size_t)nsamples * sizeof(*buf));
			if (!buf)
				cli_die(EXIT_DATA, "out of memory");
			/* the first worker speaks for all: its flights times jobs */
			progress pg;
			progress_init(&pg, "rmspe: flights", nflights, j == 0 ? pmode : PROGRESS_QUIET);
			long mine = 0;
			for (long f = j; f < nflights; f += jobs) {
				fly_one(c, f, buf, parts[j]);
				progress_step(&pg, ++mine * jobs < nflights ? mine * jobs : nflights);
			}
			progress_end(&pg);
			if (fflush(parts[j]) != 0)
				_exit(EXIT_DATA);
			_exit(0);
		}
	}
	workers_wait("rmspe", pids, jobs);
}

/* The workers' result lines summed per cell (trajectory, behaviour,
 * method); every flight's line for every method must be there. */
static cell *
rm_gather(const rmspe_cfg *c, int jobs, long nflights, FILE **parts)
{
	cell *cells = calloc((size_t)(c->ntraj * c->nbeh * c->nm), sizeof(*cells));
	if (!cells)
		cli_die(EXIT_DATA, "out of memory");
	long lines = 0;
	for (int j = 0; j < jobs; j++) {
		rewind(parts[j]);
		int ti, bi, mi, dv;
		double rm, rb, ns;
		long up;
		while (fscanf(parts[j], "%d,%d,%d,%d,%lf,%lf,%lf,%ld\n", &ti, &bi, &mi, &dv, &rm, &rb, &ns, &up) == 8) {
			cell *g = &cells[(ti * c->nbeh + bi) * c->nm + mi];
			if (dv < 0 || dv > 2)
				cli_die(EXIT_DATA, "rmspe: a worker wrote a malformed result");
			g->flights++;
			g->diverged += dv == 1;
			g->lost += dv == 2;
			if (!dv) {
				g->rmspe_sum += rm;
				g->burn_sum += rb;
			}
			g->ns_sum += ns;
			g->updates += up;
			lines++;
		}
		fclose(parts[j]);
	}
	if (lines != nflights * c->nm)
		cli_die(EXIT_DATA, "rmspe: %ld results of %ld expected", lines, nflights * c->nm);
	return cells;
}

/* The text and Markdown tables' preamble. */
static void
rm_preamble(const rmspe_cfg *c, const char *fmt, int jobs)
{
	const char *h = strcmp(fmt, "md") ? "#" : "";
	printf("%s tagk-bench rmspe: %d flight%s of %g s at 100 Hz per cell, seed %llu, %d job%s; every method\n"
	    "%s starts %+g %% off the true mass. ms: mean wall time of one update; RMSPE (eq. 33) over\n"
	    "%s the flight, mean over flights (* some diverged, left out); >2s: over t >= 2 s, after the\n"
	    "%s start-up. Regressor methods: 3 x 1 rows from the %s, window %d samples, every sample.\n\n",
	    h, c->trials, c->trials == 1 ? "" : "s", c->duration, (unsigned long long)c->seed, jobs, jobs == 1 ? "" : "s",
	    h, 100 * c->m0_error, h, h, c->velocity ? "velocity's difference quotient" : "accelerometer", REG_WINDOW);
	if (c->act.thrust_lag > 0 || c->act.thrust_max > 0 || c->act.speed != 1)
		printf("%s Actuators: thrust lag %g s, thrust limit %g weights (0: the controller's 2.5),\n"
		    "%s reference speed x %g; the logged thrust is the command.\n\n", h, c->act.thrust_lag, c->act.thrust_max,
		    h, c->act.speed);
	if (c->act.noise != 1 || c->act.mass_scale != 1)
		printf("%s Every sensor's noise x %g; the mass changes' amplitudes x %g.\n\n", h, c->act.noise,
		    c->act.mass_scale);
}

int
bench_rmspe(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "trials", required_argument, NULL, 'N' },
		{ "traj", required_argument, NULL, 't' },
		{ "mass", required_argument, NULL, 'm' },
		{ "methods", required_argument, NULL, 'M' },
		{ "duration", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },
		{ "m0-error", required_argument, NULL, 'e' },
		{ "acc", required_argument, NULL, 'A' },
		{ "thrust-lag", required_argument, NULL, 'L' },
		{ "thrust-max", required_argument, NULL, 'X' },
		{ "speed", required_argument, NULL, 'S' },
		{ "noise", required_argument, NULL, 'n' },
		{ "mass-scale", required_argument, NULL, 'K' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "format", required_argument, NULL, 'f' },
		{ "progress", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	progress_mode pmode = PROGRESS_AUTO;
	static rmspe_cfg c;
	memset(&c, 0, sizeof(c));
	c.trials = 10;
	c.seed = 1;
	c.duration = 20;
	c.m0_error = 0.2;
	c.act.speed = 1;
	c.act.noise = 1;
	c.act.mass_scale = 1;
	c.ntraj = TAGK_UAVTRAJ_COUNT;
	c.nbeh = TAGK_MASSB_COUNT;
	for (int i = 0; i < TAGK_UAVTRAJ_COUNT; i++)
		c.traj[i] = i;
	for (int i = 0; i < TAGK_MASSB_COUNT; i++)
		c.beh[i] = i;
	const char *methods = DEFAULT_METHODS, *fmt = "text";
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int jobs = ncpu < 1 ? 1 : ncpu > 8 ? 8 : (int)ncpu, ch;
	optind = 1;
	while ((ch = cli_getopt(argc, argv, "j:f:qh", opts)) != -1) {
		switch (ch) {
		case 'N': c.trials = (int)cli_long("--trials", optarg, 1, 100000); break;
		case 't': c.ntraj = parse_set("--traj", optarg, tagk_uavtraj_names, TAGK_UAVTRAJ_COUNT, c.traj); break;
		case 'm': c.nbeh = parse_set("--mass", optarg, tagk_massb_names, TAGK_MASSB_COUNT, c.beh); break;
		case 'M': methods = optarg; break;
		case 'd': c.duration = cli_double("--duration", optarg, 0.1, 3600); break;
		case 's': c.seed = cli_u64("--seed", optarg); break;
		case 'e': c.m0_error = cli_double("--m0-error", optarg, -0.9, 10); break;
		case 'L': case 'X': case 'S': case 'n': case 'K': parse_actuators(&c.act, ch, optarg); break;
		case 'A':
			if (strcmp(optarg, "imu") && strcmp(optarg, "velocity"))
				cli_die(EXIT_USAGE, "--acc: '%s' is not imu or velocity", optarg);
			c.velocity = strcmp(optarg, "velocity") == 0;
			break;
		case 'j': jobs = (int)cli_long("--jobs", optarg, 1, 64); break;
		case 'P': pmode = PROGRESS_LINES; break;
		case 'q': pmode = PROGRESS_QUIET; break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "md") && strcmp(optarg, "csv"))
				cli_die(EXIT_USAGE, "--format: '%s' is not text, md or csv", optarg);
			fmt = optarg;
			break;
		case 'h':
			bench_help(stdout, "rmspe");
			cli_close(stdout, "stdout");
			return 0;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		cli_die(EXIT_USAGE, "rmspe: unexpected argument '%s'", argv[optind]);
	rm_methods(&c, methods);
	long nflights = (long)c.ntraj * c.nbeh * c.trials;
	if (jobs > nflights)
		jobs = (int)nflights;
	double t0 = cli_seconds();
	FILE *parts[64];
	rm_fly(&c, jobs, pmode, nflights, parts);
	cell *cells = rm_gather(&c, jobs, nflights, parts);
	if (strcmp(fmt, "csv") != 0)
		rm_preamble(&c, fmt, jobs);
	print_tables(&c, cells, fmt);
	double wall = cli_seconds() - t0;
	/* the run of issue 17's target: the default 5 x 5 x 10 flights of the
	 * 7 default methods */
	const char *target = nflights == 250 && c.nm == 7 && c.duration == 20 ? " (target for this run: 30 s on 2 cores, -j 2)" : "";
	if (strcmp(fmt, "csv") != 0)
		printf("%s wall time %.1f s%s\n", strcmp(fmt, "md") ? "#" : "", wall, target);
	else
		fprintf(stderr, "rmspe: wall time %.1f s%s\n", wall, target);
	free(cells);
	cli_close(stdout, "stdout");
	return 0;
}
