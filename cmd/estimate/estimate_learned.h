/*
 * estimate_learned.h: tagk-estimate -a cnn (the learned kind, lib/learned.h):
 * a joint log (tagk-bench shake's columns t, q1..qN, qd1..qdN) to one
 * estimate per window. Windows are the log's objects (an `object` column),
 * else its segments of constant true_* columns, else consecutive runs of
 * the method's window; each must hold exactly the window's samples.
 */
#ifndef TAGK_ESTIMATE_LEARNED_H
#define TAGK_ESTIMATE_LEARNED_H

#include "../formats/table.h"
#include "../lib/method.h"

typedef struct {
	const tagk_method *method; /* of kind TAGK_KIND_LEARNED */
	const char *outname;
	tbl_options in;
} learned_opts;

int estimate_learned(const learned_opts *o, const char *input);

#endif
