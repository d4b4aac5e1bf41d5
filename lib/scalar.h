/*
 * scalar.h: the one floating-point type of the library, chosen at build time.
 *
 * Double by default; define TAGK_FLOAT (make FLOAT=1) for single precision,
 * which the Cortex-M7 also runs in hardware. Every numerical routine uses
 * tagk_real and the math wrappers below so that one source serves both.
 */
#ifndef TAGK_SCALAR_H
#define TAGK_SCALAR_H

#include <math.h>
#include <float.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef TAGK_FLOAT
typedef float tagk_real;
#define TAGK_EPS FLT_EPSILON
#define TAGK_REAL_MAX FLT_MAX
#define TAGK_REAL_NAME "float"
#define tagk_sqrt sqrtf
#define tagk_fabs fabsf
#define tagk_log logf
#define tagk_cos cosf
#define tagk_sin sinf
#define tagk_atan2 atan2f
#else
typedef double tagk_real;
#define TAGK_EPS DBL_EPSILON
#define TAGK_REAL_MAX DBL_MAX
#define TAGK_REAL_NAME "double"
#define tagk_sqrt sqrt
#define tagk_fabs fabs
#define tagk_log log
#define tagk_cos cos
#define tagk_sin sin
#define tagk_atan2 atan2
#endif

/* Standard gravity, m/s^2: the one value of g in tagk (lib, commands and
 * simulators). A double literal: cast where a tagk_real is wanted. */
#define TAGK_G0 9.80665

/* True when x is neither NaN nor infinite. */
static inline int tagk_isfinite(tagk_real x) { return isfinite(x); }

#ifdef __cplusplus
}
#endif

#endif
