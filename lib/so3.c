/* so3.c: quaternion and rotation-vector helpers; see so3.h. */
#include "so3.h"

void
tagk_cross(const tagk_real a[3], const tagk_real b[3], tagk_real o[3])
{
	o[0] = a[1] * b[2] - a[2] * b[1];
	o[1] = a[2] * b[0] - a[0] * b[2];
	o[2] = a[0] * b[1] - a[1] * b[0];
}

void
tagk_skew(const tagk_real a[3], tagk_real S[9])
{
	S[0] = 0;     S[1] = -a[2]; S[2] = a[1];
	S[3] = a[2];  S[4] = 0;     S[5] = -a[0];
	S[6] = -a[1]; S[7] = a[0];  S[8] = 0;
}

void
tagk_qmul(const tagk_real a[4], const tagk_real b[4], tagk_real o[4])
{
	o[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
	o[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
	o[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
	o[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

void
tagk_qconj(const tagk_real q[4], tagk_real o[4])
{
	o[0] = q[0];
	o[1] = -q[1];
	o[2] = -q[2];
	o[3] = -q[3];
}

void
tagk_qnormalize(tagk_real q[4])
{
	tagk_real n = tagk_sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
	if (q[0] < 0)
		n = -n;
	for (int i = 0; i < 4; i++)
		q[i] /= n;
}

void
tagk_qmatrix(const tagk_real q[4], tagk_real R[9])
{
	tagk_real w = q[0], x = q[1], y = q[2], z = q[3];
	R[0] = 1 - 2 * (y * y + z * z); R[1] = 2 * (x * y - w * z);     R[2] = 2 * (x * z + w * y);
	R[3] = 2 * (x * y + w * z);     R[4] = 1 - 2 * (x * x + z * z); R[5] = 2 * (y * z - w * x);
	R[6] = 2 * (x * z - w * y);     R[7] = 2 * (y * z + w * x);     R[8] = 1 - 2 * (x * x + y * y);
}

void
tagk_qrotate(const tagk_real q[4], const tagk_real v[3], tagk_real o[3])
{
	tagk_real R[9];
	tagk_qmatrix(q, R);
	for (int i = 0; i < 3; i++)
		o[i] = R[i * 3] * v[0] + R[i * 3 + 1] * v[1] + R[i * 3 + 2] * v[2];
}

void
tagk_qrotate_t(const tagk_real q[4], const tagk_real v[3], tagk_real o[3])
{
	tagk_real R[9];
	tagk_qmatrix(q, R);
	for (int i = 0; i < 3; i++)
		o[i] = R[i] * v[0] + R[3 + i] * v[1] + R[6 + i] * v[2];
}

void
tagk_qfrommatrix(const tagk_real R[9], tagk_real q[4])
{
	/* Shepperd: pivot on the largest of w, x, y, z */
	tagk_real tr = R[0] + R[4] + R[8], s;
	if (tr >= R[0] && tr >= R[4] && tr >= R[8]) {
		s = 2 * tagk_sqrt(1 + tr);
		q[0] = s / 4;
		q[1] = (R[7] - R[5]) / s;
		q[2] = (R[2] - R[6]) / s;
		q[3] = (R[3] - R[1]) / s;
	} else if (R[0] >= R[4] && R[0] >= R[8]) {
		s = 2 * tagk_sqrt(1 + R[0] - R[4] - R[8]);
		q[0] = (R[7] - R[5]) / s;
		q[1] = s / 4;
		q[2] = (R[1] + R[3]) / s;
		q[3] = (R[2] + R[6]) / s;
	} else if (R[4] >= R[8]) {
		s = 2 * tagk_sqrt(1 + R[4] - R[0] - R[8]);
		q[0] = (R[2] - R[6]) / s;
		q[1] = (R[1] + R[3]) / s;
		q[2] = s / 4;
		q[3] = (R[5] + R[7]) / s;
	} else {
		s = 2 * tagk_sqrt(1 + R[8] - R[0] - R[4]);
		q[0] = (R[3] - R[1]) / s;
		q[1] = (R[2] + R[6]) / s;
		q[2] = (R[5] + R[7]) / s;
		q[3] = s / 4;
	}
	tagk_qnormalize(q);
}

void
tagk_qexp(const tagk_real d[3], tagk_real q[4])
{
	tagk_real a = tagk_sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
	/* sin(a/2)/a by its series below 1e-4 rad, where the ratio loses digits */
	tagk_real s = a < (tagk_real)1e-4 ? (tagk_real)0.5 - a * a / 48 : tagk_sin(a / 2) / a;
	q[0] = tagk_cos(a / 2);
	q[1] = s * d[0];
	q[2] = s * d[1];
	q[3] = s * d[2];
}

void
tagk_qlog(const tagk_real q[4], tagk_real d[3])
{
	tagk_real sg = q[0] < 0 ? -1 : 1; /* q and -q are the same rotation */
	tagk_real w = sg * q[0], v[3] = { sg * q[1], sg * q[2], sg * q[3] };
	tagk_real s = tagk_sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
	/* angle = 2 atan2(s, w); d = angle v / s, by its series for small s */
	tagk_real k = s < (tagk_real)1e-6 ? 2 / w * (1 - s * s / (3 * w * w)) : 2 * tagk_atan2(s, w) / s;
	for (int i = 0; i < 3; i++)
		d[i] = k * v[i];
}

void
tagk_qplus(tagk_real q[4], const tagk_real d[3])
{
	tagk_real e[4], o[4];
	tagk_qexp(d, e);
	tagk_qmul(q, e, o);
	tagk_qnormalize(o);
	for (int i = 0; i < 4; i++)
		q[i] = o[i];
}

void
tagk_qminus(const tagk_real q1[4], const tagk_real q2[4], tagk_real d[3])
{
	tagk_real c[4], o[4];
	tagk_qconj(q2, c);
	tagk_qmul(c, q1, o);
	tagk_qlog(o, d);
}

void
tagk_so3_jr_inv(const tagk_real e[3], tagk_real J[9])
{
	tagk_real t2 = e[0] * e[0] + e[1] * e[1] + e[2] * e[2], t = tagk_sqrt(t2), S[9], S2[9];
	/* Jr^-1 = I + S/2 + c S^2, c = 1/t^2 - (1 + cos t) / (2 t sin t) -> 1/12 */
	tagk_real c = t < (tagk_real)1e-3 ? (tagk_real)1 / 12 + t2 / 720
	    : 1 / t2 - (1 + tagk_cos(t)) / (2 * t * tagk_sin(t));
	tagk_skew(e, S);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			S2[i * 3 + j] = S[i * 3] * S[j] + S[i * 3 + 1] * S[3 + j] + S[i * 3 + 2] * S[6 + j];
	for (int i = 0; i < 9; i++)
		J[i] = (tagk_real)(i % 4 == 0) + S[i] / 2 + c * S2[i];
}

void
tagk_qfromrpy(const tagk_real rpy[3], tagk_real q[4])
{
	tagk_real h = (tagk_real)0.5;
	tagk_real cr = tagk_cos(h * rpy[0]), sr = tagk_sin(h * rpy[0]);
	tagk_real cp = tagk_cos(h * rpy[1]), sp = tagk_sin(h * rpy[1]);
	tagk_real cy = tagk_cos(h * rpy[2]), sy = tagk_sin(h * rpy[2]);
	q[0] = cr * cp * cy + sr * sp * sy;
	q[1] = sr * cp * cy - cr * sp * sy;
	q[2] = cr * sp * cy + sr * cp * sy;
	q[3] = cr * cp * sy - sr * sp * cy;
}
