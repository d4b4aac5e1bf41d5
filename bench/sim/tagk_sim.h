/*
 * tagk_sim.h: the simulators behind tagk-bench, not part of the estimation
 * API: synthetic regressor logs (synth.h), the closed-loop quadrotor of the
 * TAG-K paper's experiment (quad.h, trial.h) and the UAV flights of the
 * time-varying-mass paper (uavsim.h), paper 003's grasped cube (grasp.h),
 * paper 004's arm shaking a held object (arm.h) and paper 002's
 * drag-dominated swimmer (swimmer.h). Built into libtagk.a,
 * for tagk-bench and the Cortex-M7 image; not installed.
 */
#ifndef TAGK_SIM_H
#define TAGK_SIM_H

#include "../../lib/tagk.h"
#include "synth.h"
#include "quad.h"
#include "trial.h"
#include "uavsim.h"
#include "grasp.h"
#include "arm.h"
#include "swimmer.h"
#include "cfpend.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif
