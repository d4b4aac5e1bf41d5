/*
 * cnn.h: paper 004's learned estimator, a small 1D-CNN (eqs. 10-11), run
 * with static weights: from 0.5 s of a held object's shake (201 samples at
 * 400 Hz of the 4 joint positions and velocities of bench/sim/arm.h's arm)
 * to its mass, centre of mass (from the grip) and the diagonal of its
 * inertia about the centre of mass. No allocation; the caller gives the
 * workspace.
 *
 * The weights are lib/cnn_weights.h, made by `make train`
 * (scripts/train-cnn, which states the architecture and how it reads the
 * paper). The network has learnt one arm under one controller and one
 * excitation: it is meaningful for bench/sim/arm.h's robot and nothing else.
 */
#ifndef TAGK_CNN_H
#define TAGK_CNN_H

#include <stddef.h>
#include "inertia.h"
#include "scalar.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TAGK_CNN_LEN = 201, TAGK_CNN_JOINTS = 4, TAGK_CNN_OUT = 7 };

/* Reals of workspace tagk_cnn_predict needs. */
size_t tagk_cnn_workspace_len(void);

/* out = m, c - grip (3), Ixx, Iyy, Izz (about c) from q and qd (each
 * TAGK_CNN_LEN x 4, one row per sample). TAGK_EINVAL for a short
 * workspace, TAGK_ENONFINITE for a NaN or Inf input. The output is the
 * network's: it may be unphysical (the training penalties make that rare,
 * not impossible). */
tagk_status tagk_cnn_predict(const tagk_real *q, const tagk_real *qd, tagk_real out[TAGK_CNN_OUT], tagk_real *ws,
    size_t len);

/* The grip of the arm the network learned (bench/sim/arm.h's tagk_arm_grip,
 * which test_arm checks is the same), in the hand's frame, m: the
 * network's centre of mass is measured from it. */
extern const tagk_real tagk_cnn_grip[3];
/* A prediction as ten parameters in the hand's frame (inertia.h order),
 * with zero products of inertia, which the network does not estimate. */
void tagk_cnn_theta(const tagk_real out[TAGK_CNN_OUT], tagk_real theta[TAGK_NPARAM]);

#ifdef __cplusplus
}
#endif

#endif
