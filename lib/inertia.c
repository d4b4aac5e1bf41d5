/* inertia.c: parameter-vector conversions; see inertia.h. */
#include "inertia.h"

const char *const tagk_param_names[TAGK_NPARAM] = {
	"m", "mcx", "mcy", "mcz", "Ixx", "Ixy", "Iyy", "Ixz", "Iyz", "Izz"
};

void
tagk_theta_from_body(tagk_real m, const tagk_real c[3], const tagk_real Ic[9],
    tagk_real t[TAGK_NPARAM])
{
	tagk_real cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
	tagk_real I[9];
	/* I_O = I_C + m (c.c 1 - c c^T) */
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			I[i * 3 + j] = Ic[i * 3 + j] + m * ((i == j ? cc : 0) - c[i] * c[j]);
	t[TAGK_P_M] = m;
	t[TAGK_P_MCX] = m * c[0];
	t[TAGK_P_MCY] = m * c[1];
	t[TAGK_P_MCZ] = m * c[2];
	tagk_theta_set_inertia(t, I);
}

void
tagk_theta_set_inertia(tagk_real t[TAGK_NPARAM], const tagk_real I[9])
{
	t[TAGK_P_IXX] = I[0];
	t[TAGK_P_IXY] = I[1];
	t[TAGK_P_IYY] = I[4];
	t[TAGK_P_IXZ] = I[2];
	t[TAGK_P_IYZ] = I[5];
	t[TAGK_P_IZZ] = I[8];
}

void
tagk_theta_inertia(const tagk_real t[TAGK_NPARAM], tagk_real I[9])
{
	I[0] = t[TAGK_P_IXX]; I[1] = t[TAGK_P_IXY]; I[2] = t[TAGK_P_IXZ];
	I[3] = t[TAGK_P_IXY]; I[4] = t[TAGK_P_IYY]; I[5] = t[TAGK_P_IYZ];
	I[6] = t[TAGK_P_IXZ]; I[7] = t[TAGK_P_IYZ]; I[8] = t[TAGK_P_IZZ];
}

int
tagk_theta_to_body(const tagk_real t[TAGK_NPARAM], tagk_real c[3], tagk_real Ic[9])
{
	tagk_real m = t[TAGK_P_M];
	if (m == 0 || !tagk_isfinite(m))
		return 0;
	tagk_real cv[3] = { t[TAGK_P_MCX] / m, t[TAGK_P_MCY] / m, t[TAGK_P_MCZ] / m };
	tagk_real cc = cv[0] * cv[0] + cv[1] * cv[1] + cv[2] * cv[2];
	tagk_real I[9];
	tagk_theta_inertia(t, I);
	for (int i = 0; i < 3; i++) {
		c[i] = cv[i];
		for (int j = 0; j < 3; j++)
			Ic[i * 3 + j] = I[i * 3 + j] - m * ((i == j ? cc : 0) - cv[i] * cv[j]);
	}
	return 1;
}

void
tagk_pseudo_inertia(const tagk_real t[TAGK_NPARAM], tagk_real J[16])
{
	tagk_real I[9];
	tagk_theta_inertia(t, I);
	tagk_real h = (I[0] + I[4] + I[8]) / 2;
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			J[i * 4 + j] = (i == j ? h : 0) - I[i * 3 + j];
	J[3] = J[12] = t[TAGK_P_MCX];
	J[7] = J[13] = t[TAGK_P_MCY];
	J[11] = J[14] = t[TAGK_P_MCZ];
	J[15] = t[TAGK_P_M];
}

void
tagk_theta_from_pseudo(const tagk_real J[16], tagk_real t[TAGK_NPARAM])
{
	tagk_real tr = J[0] + J[5] + J[10];
	t[TAGK_P_M] = J[15];
	t[TAGK_P_MCX] = J[3];
	t[TAGK_P_MCY] = J[7];
	t[TAGK_P_MCZ] = J[11];
	t[TAGK_P_IXX] = tr - J[0];
	t[TAGK_P_IXY] = -J[1];
	t[TAGK_P_IYY] = tr - J[5];
	t[TAGK_P_IXZ] = -J[2];
	t[TAGK_P_IYZ] = -J[6];
	t[TAGK_P_IZZ] = tr - J[10];
}
