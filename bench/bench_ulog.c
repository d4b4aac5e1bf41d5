/* bench_ulog.c: a simulated flight as a PX4-like ULog; see bench_ulog.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bench_ulog.h"
#include "../formats/ulog_out.h"

enum { ID_SC, ID_ATT, ID_MOT, ID_ACC0, ID_ACC1, ID_ESC, ID_HOVER, ID_LAND, ID_OUT, NTOPIC };

/* PX4's quadrotor X: front right, rear left, front left, rear right (FRD),
 * KM > 0 for a counter-clockwise rotor. */
static const double rotor_px[4] = { 0.0325, -0.0325, 0.0325, -0.0325 };
static const double rotor_py[4] = { 0.0325, -0.0325, -0.0325, 0.0325 };
static const double rotor_km[4] = { 0.005964, 0.005964, -0.005964, -0.005964 };
/* actuator_outputs: channel c + 1's function (PWM_MAIN_FUNC, 101 + i for
 * rotor i), shuffled so that a reader must look it up; its PWM range */
static const int out_func[4] = { 103, 101, 104, 102 };
static const double pwm_min = 1100, pwm_max = 1900;
static const uint64_t boot_us = 5000000; /* the flight starts 5 s after boot */

struct bench_ulog {
	FILE *f;
	double mass;
	double q[4];      /* NWU <- FLU, integrated */
	double t_prev;
	int n, err;
	double inv[4][4]; /* rotor thrusts from (f_z, tau_x, tau_y, tau_z) in FLU */
	double ground;    /* s on the ground before the flight */
};

static void
put(unsigned char *p, size_t *at, const void *v, size_t n)
{
	memcpy(p + *at, v, n); /* the host is little-endian, as the format */
	*at += n;
}

static void
put_f(unsigned char *p, size_t *at, double v)
{
	float x = (float)v;
	put(p, at, &x, 4);
}

static void
put_u64(unsigned char *p, size_t *at, uint64_t v)
{
	put(p, at, &v, 8);
}

/* Invert the 4x4 allocation (Gauss-Jordan with partial pivoting). */
static void
allocation_inverse(double inv[4][4])
{
	double a[4][8];
	for (int i = 0; i < 4; i++) {
		/* FLU: y = -py, reaction torque about z up = -KM T */
		a[0][i] = 1;
		a[1][i] = -rotor_py[i];
		a[2][i] = -rotor_px[i];
		a[3][i] = -rotor_km[i];
		for (int j = 0; j < 4; j++)
			a[i][4 + j] = i == j;
	}
	for (int c = 0; c < 4; c++) {
		int p = c;
		for (int i = c + 1; i < 4; i++)
			if (fabs(a[i][c]) > fabs(a[p][c]))
				p = i;
		for (int j = 0; j < 8; j++) {
			double t = a[c][j];
			a[c][j] = a[p][j];
			a[p][j] = t;
		}
		double d = a[c][c];
		for (int j = 0; j < 8; j++)
			a[c][j] /= d;
		for (int i = 0; i < 4; i++)
			if (i != c) {
				double m = a[i][c];
				for (int j = 0; j < 8; j++)
					a[i][j] -= m * a[c][j];
			}
	}
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			inv[i][j] = a[i][4 + j];
}

static void
defs(FILE *f)
{
	static const char *const fmts[] = {
		"sensor_combined:uint64_t timestamp;float[3] gyro_rad;uint32_t gyro_integral_dt;"
		"int32_t accelerometer_timestamp_relative;float[3] accelerometer_m_s2;"
		"uint32_t accelerometer_integral_dt;uint8_t accelerometer_clipping;uint8_t gyro_clipping;"
		"uint8_t[2] _padding0;",
		"vehicle_attitude:uint64_t timestamp;uint64_t timestamp_sample;float[4] q;float[4] delta_q_reset;"
		"uint8_t quat_reset_counter;uint8_t[7] _padding0;",
		"actuator_motors:uint64_t timestamp;uint64_t timestamp_sample;uint16_t reversible_flags;"
		"uint8_t[2] _padding0;float[12] control;",
		"sensor_accel:uint64_t timestamp;uint64_t timestamp_sample;uint32_t device_id;float x;float y;float z;"
		"float temperature;uint32_t error_count;",
		"esc_report:uint32_t esc_rpm;float esc_voltage;",
		"esc_status:uint64_t timestamp;uint8_t esc_count;uint8_t[3] _padding0;esc_report[4] esc;",
		"hover_thrust_estimate:uint64_t timestamp;uint64_t timestamp_sample;float hover_thrust;"
		"float hover_thrust_var;bool valid;uint8_t[7] _padding0;",
		"vehicle_land_detected:uint64_t timestamp;bool freefall;bool ground_contact;bool maybe_landed;"
		"bool landed;uint8_t[4] _padding0;",
		"actuator_outputs:uint64_t timestamp;uint32_t noutputs;float[16] output;uint8_t[4] _padding0;",
	};
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
		ulog_format(f, fmts[i]);
	ulog_info(f, "sys_name", "tagk-bench simulate");
	ulog_info(f, "ver_hw", "SITL");
	ulog_param_int(f, "CA_ROTOR_COUNT", 4);
	for (int i = 0; i < 4; i++) {
		char n[32];
		snprintf(n, sizeof(n), "CA_ROTOR%d_PX", i);
		ulog_param_float(f, n, (float)rotor_px[i]);
		snprintf(n, sizeof(n), "CA_ROTOR%d_PY", i);
		ulog_param_float(f, n, (float)rotor_py[i]);
		snprintf(n, sizeof(n), "CA_ROTOR%d_PZ", i);
		ulog_param_float(f, n, 0);
		snprintf(n, sizeof(n), "CA_ROTOR%d_KM", i);
		ulog_param_float(f, n, (float)rotor_km[i]);
	}
	ulog_param_float(f, "THR_MDL_FAC", (float)BENCH_ULOG_FAC);
	for (int c = 1; c <= 4; c++) {
		char n[32];
		snprintf(n, sizeof(n), "PWM_MAIN_FUNC%d", c);
		ulog_param_int(f, n, out_func[c - 1]);
		snprintf(n, sizeof(n), "PWM_MAIN_MIN%d", c);
		ulog_param_int(f, n, (int)pwm_min);
		snprintf(n, sizeof(n), "PWM_MAIN_MAX%d", c);
		ulog_param_int(f, n, (int)pwm_max);
	}
	static const char *const names[] = { "sensor_combined", "vehicle_attitude", "actuator_motors", "sensor_accel",
		"sensor_accel", "esc_status", "hover_thrust_estimate", "vehicle_land_detected", "actuator_outputs" };
	for (int id = 0; id < NTOPIC; id++)
		ulog_add(f, id == ID_ACC1, id, names[id]);
}

bench_ulog *
bench_ulog_begin(FILE *f, double mass, double ground)
{
	bench_ulog *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->f = f;
	b->mass = mass;
	b->ground = ground;
	b->q[0] = 1;
	allocation_inverse(b->inv);
	if (ulog_begin(f, boot_us))
		b->err = 1;
	defs(f);
	return b;
}

/* A rotor's actuator_motors value for thrust T: PX4's control allocator
 * writes the normalised thrust T / T_max, clamped to [0, 1]. */
static double
command(double T)
{
	double u = T / BENCH_ULOG_TMAX;
	return u < 0 ? 0 : u > 1 ? 1 : u;
}

/* Its actuator_outputs PWM, as PX4's FunctionMotors::updateValues() makes
 * it: the signal x in [0, 1] whose rel_thrust = fac x^2 + (1 - fac) x is
 * u, then x over the channel's PWM range. */
static double
pwm(double u)
{
	double a = BENCH_ULOG_FAC, bq = 1 - BENCH_ULOG_FAC;
	double x = a > 0 ? (-bq + sqrt(bq * bq + 4 * a * u)) / (2 * a) : u;
	return pwm_min + x * (pwm_max - pwm_min);
}

/* q <- q (x) exp(w dt / 2) */
static void
integrate(double q[4], const tagk_real w[3], double dt)
{
	double th = dt * sqrt((double)(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]));
	double s = th > 0 ? sin(th / 2) / th * dt : dt / 2, d[4] = { cos(th / 2), s * (double)w[0], s * (double)w[1],
		s * (double)w[2] };
	double r[4] = {
		q[0] * d[0] - q[1] * d[1] - q[2] * d[2] - q[3] * d[3],
		q[0] * d[1] + q[1] * d[0] + q[2] * d[3] - q[3] * d[2],
		q[0] * d[2] - q[1] * d[3] + q[2] * d[0] + q[3] * d[1],
		q[0] * d[3] + q[1] * d[2] - q[2] * d[1] + q[3] * d[0],
	};
	double nq = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
	for (int i = 0; i < 4; i++)
		q[i] = r[i] / nq;
}

static void
write_imu(bench_ulog *b, uint64_t ts, const tagk_real acc[3], const tagk_real gyro[3])
{
	unsigned char p[64];
	size_t at = 0;
	uint32_t dt = 20000;
	int32_t rel = 0;
	uint8_t z[2] = { 0, 0 };
	put_u64(p, &at, ts);
	put_f(p, &at, gyro[0]), put_f(p, &at, -gyro[1]), put_f(p, &at, -gyro[2]);
	put(p, &at, &dt, 4), put(p, &at, &rel, 4);
	put_f(p, &at, acc[0]), put_f(p, &at, -acc[1]), put_f(p, &at, -acc[2]);
	put(p, &at, &dt, 4), put(p, &at, z, 2), put(p, &at, z, 2);
	b->err |= ulog_data(b->f, ID_SC, p, at);
	for (int k = 0; k < 2; k++) {
		uint32_t dev = 1000u + (uint32_t)k, ec = 0;
		at = 0;
		put_u64(p, &at, ts + 500u * (uint64_t)k), put_u64(p, &at, ts), put(p, &at, &dev, 4);
		put_f(p, &at, acc[0]), put_f(p, &at, -acc[1]), put_f(p, &at, -acc[2]), put_f(p, &at, 25 + k);
		put(p, &at, &ec, 4);
		b->err |= ulog_data(b->f, k ? ID_ACC1 : ID_ACC0, p, at);
	}
}

static void
put_motors(bench_ulog *b, uint64_t ts, const double u[4]);

static void
write_motors(bench_ulog *b, uint64_t ts, const tagk_real f[3], const tagk_real tau[3])
{
	double w[4] = { (double)f[2], (double)tau[0], (double)tau[1], (double)tau[2] }, u[4];
	for (int i = 0; i < 4; i++) {
		double T = 0;
		for (int j = 0; j < 4; j++)
			T += b->inv[i][j] * w[j];
		u[i] = command(T);
	}
	put_motors(b, ts, u);
}

/* actuator_motors, actuator_outputs and esc_status of the commands u. */
static void
put_motors(bench_ulog *b, uint64_t ts, const double u[4])
{
	unsigned char p[128];
	size_t at = 0;
	uint16_t rev = 0;
	uint8_t z[2] = { 0, 0 };
	put_u64(p, &at, ts), put_u64(p, &at, ts), put(p, &at, &rev, 2), put(p, &at, z, 2);
	for (int i = 0; i < 4; i++)
		put_f(p, &at, u[i]);
	for (int i = 4; i < 12; i++)
		put_f(p, &at, NAN);
	b->err |= ulog_data(b->f, ID_MOT, p, at);
	at = 0;
	uint32_t nout = 4;
	put_u64(p, &at, ts), put(p, &at, &nout, 4);
	for (int c = 0; c < 16; c++)
		put_f(p, &at, c < 4 ? pwm(u[out_func[c] - 101]) : 0);
	put(p, &at, z, 2), put(p, &at, z, 2);
	b->err |= ulog_data(b->f, ID_OUT, p, at);
	at = 0;
	uint8_t cnt = 4, z3[3] = { 0, 0, 0 };
	put_u64(p, &at, ts), put(p, &at, &cnt, 1), put(p, &at, z3, 3);
	for (int i = 0; i < 4; i++) {
		uint32_t rpm = (uint32_t)(20000 * u[i]);
		put(p, &at, &rpm, 4);
		put_f(p, &at, 4.1 - 0.001 * i);
	}
	b->err |= ulog_data(b->f, ID_ESC, p, at);
}

/* hover_thrust_estimate and vehicle_land_detected (10 Hz). */
static void
write_slow(bench_ulog *b, uint64_t ts, double hover, int valid, int landed)
{
	unsigned char p[64];
	size_t at = 0;
	uint8_t z[7] = { 0 }, v = (uint8_t)valid, land[8] = { 0, (uint8_t)landed, (uint8_t)landed, (uint8_t)landed };
	put_u64(p, &at, ts), put_u64(p, &at, ts);
	put_f(p, &at, hover), put_f(p, &at, 1e-6);
	put(p, &at, &v, 1), put(p, &at, z, 7);
	b->err |= ulog_data(b->f, ID_HOVER, p, at);
	at = 0;
	put_u64(p, &at, ts), put(p, &at, land, 8);
	b->err |= ulog_data(b->f, ID_LAND, p, at);
}

/* The ground before the flight (bench_ulog_begin), at 50 Hz. */
static void
write_ground(bench_ulog *b)
{
	static const tagk_real rest[3] = { 0, 0, (tagk_real)9.80665 }, still[3] = { 0, 0, 0 };
	static const double idle[4] = { 0.05, 0.05, 0.05, 0.05 };
	long steps = lround(b->ground * 50);
	for (long k = steps; k > 0; k--) {
		uint64_t ts = boot_us - (uint64_t)(k * 20000);
		write_imu(b, ts, rest, still);
		put_motors(b, ts, idle);
		unsigned char p[64];
		size_t at = 0;
		uint8_t z[8] = { 0 };
		put_u64(p, &at, ts + 1000), put_u64(p, &at, ts);
		put_f(p, &at, 1), put_f(p, &at, 0), put_f(p, &at, 0), put_f(p, &at, 0);
		for (int i = 0; i < 4; i++)
			put_f(p, &at, 0);
		put(p, &at, z, 8);
		b->err |= ulog_data(b->f, ID_ATT, p, at);
		if (k % 5 == 0)
			write_slow(b, ts, 0, 0, k * 20000 > 1000000);
	}
}

void
bench_ulog_row(void *ctx, tagk_real t, const tagk_real acc[3], const tagk_real gyro[3], const tagk_real al[3],
    const tagk_real f[3], const tagk_real tau[3], const tagk_real truth[TAGK_NPARAM], const tagk_real pos[3],
    const tagk_real ref[3])
{
	(void)al, (void)pos, (void)ref;
	bench_ulog *b = ctx;
	if (b->n == 0 && b->ground > 0)
		write_ground(b);
	uint64_t ts = boot_us + (uint64_t)llround((double)t * 1e6);
	if (b->n > 0)
		integrate(b->q, gyro, (double)t - b->t_prev);
	b->t_prev = (double)t;
	write_imu(b, ts, acc, gyro);
	write_motors(b, ts, f, tau);
	unsigned char p[64];
	size_t at = 0;
	uint8_t z[7] = { 0 };
	/* NED <- FRD from NWU <- FLU: (w, x, -y, -z) */
	put_u64(p, &at, ts + 1000), put_u64(p, &at, ts);
	put_f(p, &at, b->q[0]), put_f(p, &at, b->q[1]), put_f(p, &at, -b->q[2]), put_f(p, &at, -b->q[3]);
	for (int i = 0; i < 4; i++)
		put_f(p, &at, 0);
	put(p, &at, z, 1), put(p, &at, z, 7);
	b->err |= ulog_data(b->f, ID_ATT, p, at);
	if (b->n % 5 == 0) /* 10 Hz */
		write_slow(b, ts, (double)truth[0] * 9.80665 / 4 / BENCH_ULOG_TMAX, 1, 0);
	if (b->n == 100) {
		b->err |= ulog_logged(b->f, '6', ts, "tagk-bench: a logged string");
		b->err |= ulog_dropout(b->f, 3);
	}
	b->n++;
}

int
bench_ulog_end(bench_ulog *b)
{
	int rc = b->err ? -1 : 0;
	free(b);
	return rc;
}
