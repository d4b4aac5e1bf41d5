/* synth.c: prescribed-motion rigid-body log with exact wrench; see synth.h. */
#include "synth.h"
#include "../../lib/regressor.h"
#include "../../lib/rng.h"

static const tagk_real cf_inertia[9] = {
	(tagk_real)1.66e-5, (tagk_real)0.83e-6, (tagk_real)0.72e-6,
	(tagk_real)0.83e-6, (tagk_real)1.66e-5, (tagk_real)1.8e-6,
	(tagk_real)0.72e-6, (tagk_real)1.8e-6, (tagk_real)2.93e-5,
};

void
tagk_synth_defaults(tagk_synth_config *c, uint64_t seed)
{
	tagk_rng g;
	tagk_rng_seed(&g, seed ^ UINT64_C(0x5eed5eed5eed5eed));
	const tagk_real zero[3] = { 0, 0, 0 };
	const tagk_real mass = (tagk_real)0.035, arm = (tagk_real)(0.046 / 1.4142135623730951);
	c->seed = seed;
	c->rate = 100;
	tagk_theta_from_body(mass, zero, cf_inertia, c->base);
	c->payload_mass = mass * ((tagk_real)0.3 + (tagk_real)0.2 * tagk_rng_uniform(&g));
	tagk_real r = arm * ((tagk_real)0.2 + (tagk_real)0.1 * tagk_rng_uniform(&g));
	tagk_real phi = (tagk_real)6.283185307179586 * tagk_rng_uniform(&g);
	/* a horizontal offset, slightly below the body (payload hangs) */
	tagk_real cphi = tagk_cos(phi), sphi = tagk_cos(phi - (tagk_real)1.5707963267948966);
	c->payload_pos[0] = r * cphi;
	c->payload_pos[1] = r * sphi;
	c->payload_pos[2] = -r / 2;
	c->t_on = 4 + 2 * tagk_rng_uniform(&g);
	c->t_off = 12 + 2 * tagk_rng_uniform(&g);
	c->omega_amp = 2;
	c->accel_amp = 2;
	c->noise_acc = c->noise_gyro = c->noise_force = c->noise_torque = 0;
}

/* Parameters in force at time t: base plus the payload when attached. */
static void
params_at(const tagk_synth_config *c, tagk_real t, tagk_real th[TAGK_NPARAM])
{
	for (int j = 0; j < TAGK_NPARAM; j++)
		th[j] = c->base[j];
	if (c->payload_mass > 0 && t >= c->t_on && t < c->t_off) {
		const tagk_real zero[9] = { 0 };
		tagk_real p[TAGK_NPARAM];
		/* a point mass at payload_pos: its own inertia about its centre is 0 */
		tagk_theta_from_body(c->payload_mass, c->payload_pos, zero, p);
		for (int j = 0; j < TAGK_NPARAM; j++)
			th[j] += p[j];
	}
}

void
tagk_synth_at(const tagk_synth_config *c, long k, tagk_synth_sample *s)
{
	/* Motion: three sinusoids per axis with frequencies and phases drawn
	 * from the seed (the same for every sample). */
	tagk_rng g;
	tagk_rng_seed(&g, c->seed);
	tagk_real t = (tagk_real)k / c->rate;
	const tagk_real two_pi = (tagk_real)6.283185307179586;
	s->t = t;
	for (int ax = 0; ax < 3; ax++) {
		tagk_real w = 0, dw = 0, a = 0;
		for (int h = 0; h < 3; h++) {
			tagk_real fw = (tagk_real)0.2 + (tagk_real)1.3 * tagk_rng_uniform(&g);
			tagk_real pw = two_pi * tagk_rng_uniform(&g);
			tagk_real fa = (tagk_real)0.2 + (tagk_real)1.3 * tagk_rng_uniform(&g);
			tagk_real pa = two_pi * tagk_rng_uniform(&g);
			tagk_real om = two_pi * fw;
			w += c->omega_amp / 3 * tagk_cos(om * t + pw);
			dw -= c->omega_amp / 3 * om * tagk_cos(om * t + pw - (tagk_real)1.5707963267948966);
			a += c->accel_amp / 3 * tagk_cos(two_pi * fa * t + pa);
		}
		s->gyro[ax] = w;
		s->alpha[ax] = dw;
		s->acc[ax] = a + (ax == 2 ? (tagk_real)TAGK_G0 : 0);
	}
	params_at(c, t, s->truth);
	tagk_real Y[6 * TAGK_NPARAM], w[6];
	tagk_regressor_rigid(s->acc, s->gyro, s->alpha, Y);
	for (int r = 0; r < 6; r++) {
		w[r] = 0;
		for (int j = 0; j < TAGK_NPARAM; j++)
			w[r] += Y[r * TAGK_NPARAM + j] * s->truth[j];
	}
	for (int i = 0; i < 3; i++) {
		s->force[i] = w[i];
		s->torque[i] = w[3 + i];
	}
	/* Measurement noise, from a generator keyed by the sample index. */
	if (c->noise_acc > 0 || c->noise_gyro > 0 || c->noise_force > 0 || c->noise_torque > 0) {
		tagk_rng n;
		tagk_rng_seed(&n, c->seed * UINT64_C(0x9e3779b97f4a7c15) + (uint64_t)k);
		for (int i = 0; i < 3; i++) {
			s->acc[i] += c->noise_acc * tagk_rng_gaussian(&n);
			s->gyro[i] += c->noise_gyro * tagk_rng_gaussian(&n);
			s->alpha[i] += c->noise_gyro * c->rate * tagk_rng_gaussian(&n);
			s->force[i] += c->noise_force * tagk_rng_gaussian(&n);
			s->torque[i] += c->noise_torque * tagk_rng_gaussian(&n);
		}
	}
}
