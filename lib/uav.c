/* uav.c: the 4-DoF UAV model of paper 001; see uav.h. */
#include <string.h>
#include "uav.h"
#include "so3.h"

void
tagk_uav_propagate(tagk_uav_state *x, const tagk_uav_input *u, tagk_real dt)
{
	tagk_real f[3] = { 0, 0, u->thrust }, a[3], d[3];
	tagk_qrotate(x->q, f, a);
	for (int i = 0; i < 3; i++) {
		x->r[i] += x->v[i] * dt;
		x->v[i] += (a[i] / x->m - (i == 2 ? TAGK_UAV_G : 0)) * dt;
		d[i] = u->w[i] * dt;
	}
	tagk_qplus(x->q, d);
}

void
tagk_uav_jacobian(const tagk_uav_state *x, const tagk_uav_input *u, tagk_real J[100])
{
	tagk_real R[9], S[9], f[3] = { 0, 0, u->thrust }, Rf[3];
	memset(J, 0, 100 * sizeof(tagk_real));
	/* dtheta' = -[w]x dtheta */
	tagk_skew(u->w, S);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			J[i * 10 + j] = -S[i * 3 + j];
	/* dr' = dv */
	for (int i = 0; i < 3; i++)
		J[(3 + i) * 10 + 6 + i] = 1;
	/* dv' = -R [f]x dtheta / m - R f dm / m^2 */
	tagk_qmatrix(x->q, R);
	tagk_skew(f, S);
	tagk_qrotate(x->q, f, Rf);
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 3; j++) {
			tagk_real s = 0;
			for (int k = 0; k < 3; k++)
				s += R[i * 3 + k] * S[k * 3 + j];
			J[(6 + i) * 10 + j] = -s / x->m;
		}
		J[(6 + i) * 10 + 9] = -Rf[i] / (x->m * x->m);
	}
}

void
tagk_uav_plus(tagk_uav_state *x, const tagk_real d[10])
{
	tagk_qplus(x->q, d);
	for (int i = 0; i < 3; i++) {
		x->r[i] += d[3 + i];
		x->v[i] += d[6 + i];
	}
	x->m += d[9];
}

void
tagk_uav_minus(const tagk_uav_state *a, const tagk_uav_state *b, tagk_real d[10])
{
	tagk_qminus(a->q, b->q, d);
	for (int i = 0; i < 3; i++) {
		d[3 + i] = a->r[i] - b->r[i];
		d[6 + i] = a->v[i] - b->v[i];
	}
	d[9] = a->m - b->m;
}

void
tagk_uav_innovation(const tagk_uav_meas *y, const tagk_uav_state *x, tagk_real z[9])
{
	tagk_qminus(y->q, x->q, z);
	for (int i = 0; i < 3; i++) {
		z[3 + i] = y->r[i] - x->r[i];
		z[6 + i] = y->v[i] - x->v[i];
	}
}

int
tagk_uav_meas_ok(const tagk_uav_meas *y)
{
	const tagk_real *p[3] = { y->q, y->r, y->v };
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < (k ? 3 : 4); i++)
			if (!tagk_isfinite(p[k][i]))
				return 0;
	tagk_real n = y->q[0] * y->q[0] + y->q[1] * y->q[1] + y->q[2] * y->q[2] + y->q[3] * y->q[3];
	return tagk_fabs(n - 1) < (tagk_real)2e-3;
}
