/*
 * tagk.h: the public interface of libtagk, the numerical core of tagk:
 * regressors, the estimators of the papers, the consistency gate, the UAV
 * mass estimators. Pure C11: no allocation, no I/O, no exit, no clocks;
 * builds for a Cortex-M7. The benchmarks' simulators are in tagk_sim.h.
 */
#ifndef TAGK_H
#define TAGK_H

#define TAGK_VERSION "0.1.0"

#include "scalar.h"
#include "status.h"
#include "rng.h"
#include "linalg.h"
#include "inertia.h"
#include "regressor.h"
#include "consistency.h"
#include "kaczmarz.h"
#include "outlier.h"
#include "rls.h"
#include "kf.h"
#include "method.h"
#include "estimator.h"
#include "batch.h"
#include "pcls.h"
#include "armpc.h"
#include "signals.h"
#include "metrics.h"
#include "multibody.h"
#include "dmls.h"
#include "learned.h"
#include "cnn.h"
#include "excitation.h"
#include "shake.h"
#include "so3.h"
#include "uav.h"
#include "massest.h"
#include "fitcheck.h"
#include "uncert.h"
#include "hac.h"
#include "changepoint.h"
#include "detect.h"
#include "baseparam.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif
