/*
 * learned.h: the learned kind of method (method.h): an estimate from a
 * fixed window of a robot's joint signals by a trained model with static
 * weights (paper 004's 1D-CNN, cnn.h). What the estimate holds is the
 * method's output string; for "object" it is a summary of a held object:
 * m, its centre of mass from the grip, and the diagonal of its inertia
 * about the centre of mass (cnn.h); theta turns it into ten parameters.
 */
#ifndef TAGK_LEARNED_H
#define TAGK_LEARNED_H

#include <stddef.h>
#include "method.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TAGK_LEARNED_MAX_OUT = 16 }; /* outputs' bound, for callers' arrays */

typedef struct {
	tagk_ops_head head;
	int window;   /* samples per estimate */
	int joints;   /* joints: the input is q and qd, each window x joints */
	int outputs;  /* values per estimate */
	double rate;  /* Hz, the sampling rate the model was trained at */
	size_t (*workspace_len)(void);
	tagk_status (*predict)(const tagk_real *q, const tagk_real *qd, tagk_real *out, tagk_real *ws, size_t len);
	/* An estimate (outputs values) as the ten parameters (inertia.h order)
	 * in the frame the model was trained in; what it cannot say is 0. */
	void (*theta)(const tagk_real *out, tagk_real *theta);
} tagk_learned_ops;

/* The operations of mt if it is a learned method, else NULL. */
const tagk_learned_ops *tagk_learned_ops_of(const tagk_method *mt);

#ifdef __cplusplus
}
#endif

#endif
