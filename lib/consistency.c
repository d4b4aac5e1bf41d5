/* consistency.c: physical-consistency tests and projection; see consistency.h. */
#include "consistency.h"
#include <string.h>
#include "linalg.h"

unsigned
tagk_gate(const tagk_real t[TAGK_NPARAM], tagk_real l_arm, tagk_real alpha)
{
	if (!tagk_all_finite(TAGK_NPARAM, t))
		return TAGK_GATE_NONFINITE;
	unsigned why = 0;
	tagk_real m = t[TAGK_P_M];
	if (!(m > 0)) {
		why |= TAGK_GATE_MASS;
	} else {
		tagk_real c2 = 0;
		for (int i = 1; i <= 3; i++)
			c2 += (t[i] / m) * (t[i] / m);
		if (!(tagk_sqrt(c2) <= l_arm))
			why |= TAGK_GATE_COM;
	}
	tagk_real I[9], w[3];
	tagk_theta_inertia(t, I);
	if (tagk_symeig3(I, w) != TAGK_OK)
		return why | TAGK_GATE_NONFINITE;
	if (!(w[0] > 0))
		why |= TAGK_GATE_NOTPD;
	if (!(w[2] <= alpha))
		why |= TAGK_GATE_LMAX;
	return why;
}

int
tagk_triangle(const tagk_real t[TAGK_NPARAM], tagk_real tol)
{
	tagk_real c[3], Ic[9], w[3];
	if (!tagk_all_finite(TAGK_NPARAM, t) || !(t[TAGK_P_M] > 0))
		return 0;
	if (!tagk_theta_to_body(t, c, Ic) || tagk_symeig3(Ic, w) != TAGK_OK)
		return 0;
	tagk_real slack = tol * tagk_fabs(w[0] + w[1] + w[2]);
	if (w[0] < -slack)
		return 0;
	/* Sorted ascending, so w[0] + w[1] >= w[2] implies the other two. */
	return w[0] + w[1] >= w[2] - slack;
}

tagk_status
tagk_pseudo_min_eig(const tagk_real t[TAGK_NPARAM], tagk_real *lmin)
{
	tagk_real J[16], w[4], scratch[16];
	tagk_pseudo_inertia(t, J);
	tagk_status st = tagk_symeig(4, J, w, NULL, scratch);
	if (st == TAGK_OK)
		*lmin = w[0];
	return st;
}

int
tagk_consistent(const tagk_real t[TAGK_NPARAM], tagk_real tol)
{
	tagk_real J[16], w[4], scratch[16];
	if (!tagk_all_finite(TAGK_NPARAM, t) || !(t[TAGK_P_M] > 0))
		return 0;
	tagk_pseudo_inertia(t, J);
	/* Why a Cholesky first: tagk-estimate asks this of every estimate,
	 * and the eigenvalues were 9 % of its time. A factorisation that
	 * succeeds is exact for J + E with ||E|| <= 64 eps ||J|| (4 x 4;
	 * Higham, Accuracy and Stability, thm 10.3), so the least eigenvalue
	 * is >= -64 eps ||J||, within tol whenever 64 eps <= tol: the same
	 * answer as the eigenvalues'. A failed or a float-precision one
	 * leaves the question to them. */
	if ((tagk_real)64 * TAGK_EPS <= tol) {
		memcpy(scratch, J, sizeof(J));
		if (tagk_cholesky(4, scratch) == TAGK_OK)
			return 1;
	}
	if (tagk_symeig(4, J, w, NULL, scratch) != TAGK_OK)
		return 0;
	tagk_real big = tagk_fabs(w[0]) > tagk_fabs(w[3]) ? tagk_fabs(w[0]) : tagk_fabs(w[3]);
	return w[0] >= -tol * big;
}

tagk_status
tagk_project(const tagk_real t[TAGK_NPARAM], tagk_real floor, tagk_real out[TAGK_NPARAM])
{
	if (!(floor >= 0) || !tagk_isfinite(floor))
		return TAGK_EINVAL;
	if (!tagk_all_finite(TAGK_NPARAM, t))
		return TAGK_ENONFINITE;
	tagk_real J[16], V[16], w[4], scratch[16];
	tagk_pseudo_inertia(t, J);
	tagk_status st = tagk_symeig(4, J, w, V, scratch);
	if (st != TAGK_OK)
		return st;
	for (int k = 0; k < 4; k++)
		if (w[k] < floor)
			w[k] = floor;
	/* J = V diag(w) V^T */
	for (int i = 0; i < 4; i++)
		for (int j = i; j < 4; j++) {
			tagk_real v = 0;
			for (int k = 0; k < 4; k++)
				v += V[i * 4 + k] * w[k] * V[j * 4 + k];
			J[i * 4 + j] = J[j * 4 + i] = v;
		}
	tagk_theta_from_pseudo(J, out);
	return TAGK_OK;
}
