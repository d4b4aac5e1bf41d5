/* regressor.c: Newton-Euler regressors; see regressor.h for the equations. */
#include "regressor.h"

/* S(v) x = v x x, as a 3 x 3 row-major matrix. */
static void
skew(const tagk_real v[3], tagk_real S[9])
{
	S[0] = 0;     S[1] = -v[2]; S[2] = v[1];
	S[3] = v[2];  S[4] = 0;     S[5] = -v[0];
	S[6] = -v[1]; S[7] = v[0];  S[8] = 0;
}

/* L(v) with I v = L(v) [Ixx, Ixy, Iyy, Ixz, Iyz, Izz]^T; 3 x 6 row-major. */
static void
inertia_map(const tagk_real v[3], tagk_real L[18])
{
	const tagk_real x = v[0], y = v[1], z = v[2];
	L[0] = x;  L[1] = y;  L[2] = 0;  L[3] = z;  L[4] = 0;  L[5] = 0;
	L[6] = 0;  L[7] = x;  L[8] = y;  L[9] = 0;  L[10] = z; L[11] = 0;
	L[12] = 0; L[13] = 0; L[14] = 0; L[15] = x; L[16] = y; L[17] = z;
}

void
tagk_regressor_rigid(const tagk_real a[3], const tagk_real w[3],
    const tagk_real al[3], tagk_real Y[6 * TAGK_NPARAM])
{
	tagk_real Sw[9], Sal[9], Sa[9], La[18], Lw[18];
	skew(w, Sw);
	skew(al, Sal);
	skew(a, Sa);
	inertia_map(al, La);
	inertia_map(w, Lw);
	for (int i = 0; i < 6 * TAGK_NPARAM; i++)
		Y[i] = 0;
	for (int r = 0; r < 3; r++) {
		tagk_real *fy = Y + r * TAGK_NPARAM, *ty = Y + (r + 3) * TAGK_NPARAM;
		/* force: m a + (S(alpha) + S(omega)^2) mc */
		fy[0] = a[r];
		for (int c = 0; c < 3; c++) {
			tagk_real ww = 0;
			for (int k = 0; k < 3; k++)
				ww += Sw[r * 3 + k] * Sw[k * 3 + c];
			fy[1 + c] = Sal[r * 3 + c] + ww;
		}
		/* torque: mc x a = -S(a) mc;  (L(alpha) + S(omega) L(omega)) I */
		for (int c = 0; c < 3; c++)
			ty[1 + c] = -Sa[r * 3 + c];
		for (int c = 0; c < 6; c++) {
			tagk_real v = La[r * 6 + c];
			for (int k = 0; k < 3; k++)
				v += Sw[r * 3 + k] * Lw[k * 6 + c];
			ty[4 + c] = v;
		}
	}
}

void
tagk_regressor_mass(const tagk_real a[3], tagk_real Y[3])
{
	Y[0] = a[0];
	Y[1] = a[1];
	Y[2] = a[2];
}
