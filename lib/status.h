/*
 * status.h: the single error enum every library call returns.
 *
 * Contract shared by all routines that return tagk_status: on anything but
 * TAGK_OK the caller's outputs and the object's state are left exactly as they
 * were before the call.
 */
#ifndef TAGK_STATUS_H
#define TAGK_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
	TAGK_OK = 0,
	TAGK_EINVAL,     /* bad argument: size out of range, null pointer, bad option */
	TAGK_ESPACE,     /* caller's workspace is shorter than the size query asked */
	TAGK_ENONFINITE, /* NaN or Inf in the input window */
	TAGK_EZERO,      /* the window carries no information (all rows zero) */
	TAGK_ENOTPD,     /* a matrix that must be positive definite is not */
	TAGK_EDIVERGED,  /* the update produced a non-finite or unbounded result */
	TAGK_EOUTLIER    /* the innovation gate refused the window (outlier.h) */
} tagk_status;

#define TAGK_NSTATUS 8   /* number of tagk_status values */

/* A short, static, human-readable description of s (never NULL). */
const char *tagk_strerror(tagk_status s);

#ifdef __cplusplus
}
#endif

#endif
