/* cnn.c: paper 004's 1D-CNN inference; see cnn.h and scripts/train-cnn. */
#include <string.h>
#include "cnn.h"
#include "inertia.h"
#include "learned.h"
#include "linalg.h"
#include "cnn_weights.h"

_Static_assert(CNN_LEN == TAGK_CNN_LEN && CNN_IN == 2 * TAGK_CNN_JOINTS && CNN_OUT == TAGK_CNN_OUT,
    "lib/cnn_weights.h does not fit cnn.h");
_Static_assert((int)TAGK_CNN_OUT <= (int)TAGK_LEARNED_MAX_OUT, "the learned kind's output bound");
_Static_assert(((((CNN_LEN / 2) / 2) / 2) / 2) == CNN_POOLED, "four poolings of the window");

#define WIDEST (CNN_F > CNN_IN ? CNN_F : CNN_IN)

size_t
tagk_cnn_workspace_len(void)
{
	return (size_t)WIDEST * CNN_LEN + (size_t)CNN_F * (CNN_LEN / 2) + CNN_H;
}

/* Conv1d (kernel 3, padding 1) of in (cin x n, channel-major), ReLU, then
 * MaxPool1d(2) into out (CNN_F x n / 2). */
static void
block(const tagk_real *in, int cin, int n, const float *w, const float *b, tagk_real *out)
{
	const int half = n / 2;
	for (int f = 0; f < CNN_F; f++) {
		const float *wf = w + (size_t)f * cin * 3;
		for (int t2 = 0; t2 < half; t2++) {
			tagk_real best = 0; /* ReLU then max = max of 0 and both */
			for (int t = 2 * t2; t < 2 * t2 + 2; t++) {
				tagk_real s = (tagk_real)b[f];
				for (int c = 0; c < cin; c++) {
					const tagk_real *x = in + (size_t)c * n;
					const float *k = wf + c * 3;
					if (t > 0)
						s += (tagk_real)k[0] * x[t - 1];
					s += (tagk_real)k[1] * x[t];
					if (t + 1 < n)
						s += (tagk_real)k[2] * x[t + 1];
				}
				if (s > best)
					best = s;
			}
			out[(size_t)f * half + t2] = best;
		}
	}
}

tagk_status
tagk_cnn_predict(const tagk_real *q, const tagk_real *qd, tagk_real out[TAGK_CNN_OUT], tagk_real *ws, size_t len)
{
	if (!q || !qd || !out || !ws || len < tagk_cnn_workspace_len())
		return TAGK_EINVAL;
	if (!tagk_all_finite(CNN_LEN * TAGK_CNN_JOINTS, q) || !tagk_all_finite(CNN_LEN * TAGK_CNN_JOINTS, qd))
		return TAGK_ENONFINITE;
	tagk_real *a = ws, *b = ws + (size_t)WIDEST * CNN_LEN, *hid = b + (size_t)CNN_F * (CNN_LEN / 2);
	for (int c = 0; c < CNN_IN; c++) {
		const tagk_real *src = c < TAGK_CNN_JOINTS ? q + c : qd + (c - TAGK_CNN_JOINTS);
		for (int t = 0; t < CNN_LEN; t++)
			a[(size_t)c * CNN_LEN + t] = (src[t * TAGK_CNN_JOINTS] - (tagk_real)cnn_in_mean[c])
			    / (tagk_real)cnn_in_std[c];
	}
	/* a -> b -> a -> b -> a: the window halves each time */
	block(a, CNN_IN, CNN_LEN, cnn_conv0_w, cnn_conv0_b, b);
	block(b, CNN_F, CNN_LEN / 2, cnn_conv1_w, cnn_conv1_b, a);
	block(a, CNN_F, CNN_LEN / 4, cnn_conv2_w, cnn_conv2_b, b);
	block(b, CNN_F, CNN_LEN / 8, cnn_conv3_w, cnn_conv3_b, a);
	const int nflat = CNN_F * CNN_POOLED;
	for (int h = 0; h < CNN_H; h++) {
		tagk_real s = (tagk_real)cnn_fc1_b[h];
		for (int i = 0; i < nflat; i++)
			s += (tagk_real)cnn_fc1_w[(size_t)h * nflat + i] * a[i];
		hid[h] = s > 0 ? s : 0;
	}
	for (int o = 0; o < CNN_OUT; o++) {
		tagk_real s = (tagk_real)cnn_fc2_b[o];
		for (int h = 0; h < CNN_H; h++)
			s += (tagk_real)cnn_fc2_w[o * CNN_H + h] * hid[h];
		out[o] = s * (tagk_real)cnn_out_std[o] + (tagk_real)cnn_out_mean[o];
	}
	return tagk_all_finite(CNN_OUT, out) ? TAGK_OK : TAGK_ENONFINITE;
}

const tagk_real tagk_cnn_grip[3] = { 0, 0, (tagk_real)-0.22 };

void
tagk_cnn_theta(const tagk_real out[TAGK_CNN_OUT], tagk_real theta[TAGK_NPARAM])
{
	tagk_real c[3], Ic[9] = { 0 };
	for (int i = 0; i < 3; i++) {
		c[i] = out[1 + i] + tagk_cnn_grip[i];
		Ic[i * 4] = out[4 + i];
	}
	tagk_theta_from_body(out[0], c, Ic, theta);
}

static const char *const cnn_keys[] = { NULL };
const tagk_learned_ops tagk_cnn_ops = { { cnn_keys }, TAGK_CNN_LEN, TAGK_CNN_JOINTS, TAGK_CNN_OUT, 400,
	tagk_cnn_workspace_len, tagk_cnn_predict, tagk_cnn_theta };
