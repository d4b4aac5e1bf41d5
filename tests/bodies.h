/* bodies.h: random rigid bodies for the regressor and consistency tests. */
#ifndef TAGK_TEST_BODIES_H
#define TAGK_TEST_BODIES_H

#include "testutil.h"

/* A random rotation matrix R (3 x 3) from a normalised Gaussian quaternion. */
static inline void
random_rotation(tagk_rng *g, tagk_real R[9])
{
	tagk_real q[4];
	fill_gauss(g, 4, q);
	tagk_real s = tagk_sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
	tagk_real w = q[0] / s, x = q[1] / s, y = q[2] / s, z = q[3] / s;
	R[0] = 1 - 2 * (y * y + z * z); R[1] = 2 * (x * y - w * z); R[2] = 2 * (x * z + w * y);
	R[3] = 2 * (x * y + w * z); R[4] = 1 - 2 * (x * x + z * z); R[5] = 2 * (y * z - w * x);
	R[6] = 2 * (x * z - w * y); R[7] = 2 * (y * z + w * x); R[8] = 1 - 2 * (x * x + y * y);
}

/* Ic = R diag(d) R^T. */
static inline void
rotate_diag(const tagk_real R[9], const tagk_real d[3], tagk_real Ic[9])
{
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++) {
			tagk_real s = 0;
			for (int k = 0; k < 3; k++)
				s += R[i * 3 + k] * d[k] * R[j * 3 + k];
			Ic[i * 3 + j] = s;
		}
	for (int i = 0; i < 3; i++)
		for (int j = i + 1; j < 3; j++)
			Ic[j * 3 + i] = Ic[i * 3 + j];
}

/* A physically valid body: a solid box of random half-sizes and mass, at a
 * random offset and orientation, as theta about the origin. */
static inline void
random_valid_body(tagk_rng *g, tagk_real theta[TAGK_NPARAM])
{
	tagk_real m = (tagk_real)0.5 + tagk_rng_uniform(g) * 2;
	tagk_real h[3], c[3], d[3], R[9], Ic[9];
	for (int i = 0; i < 3; i++) {
		h[i] = (tagk_real)0.05 + tagk_rng_uniform(g) * (tagk_real)0.3;
		c[i] = (tagk_rng_uniform(g) - (tagk_real)0.5) * (tagk_real)0.4;
	}
	d[0] = m * (h[1] * h[1] + h[2] * h[2]) / 3;
	d[1] = m * (h[0] * h[0] + h[2] * h[2]) / 3;
	d[2] = m * (h[0] * h[0] + h[1] * h[1]) / 3;
	random_rotation(g, R);
	rotate_diag(R, d, Ic);
	tagk_theta_from_body(m, c, Ic, theta);
}

#endif
