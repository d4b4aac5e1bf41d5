/*
 * method.h: the one registry of estimation methods, every family and kind.
 *
 * A method is a row of lib/methods.def: a name, a one-line summary, a family
 * (the name users see grouped: "Kaczmarz", "RLS", "KF", "state-space",
 * "batch", "learned"), a kind, what each estimate holds, a table of
 * operations and up to three preset values that the operations read. Four
 * kinds of method share this descriptor, each with its own typed operations:
 *
 *   TAGK_KIND_WINDOW  regressor rows in windows       tagk_window_ops, estimator.h
 *   TAGK_KIND_STATE   a vehicle's state, per sample   tagk_state_ops,  massest.h
 *   TAGK_KIND_BATCH   regressor rows, a whole stream  tagk_batch_ops,  batch.h
 *   TAGK_KIND_LEARNED joint signals, a fixed window    tagk_learned_ops, learned.h
 *
 * Adding a method is one new file in lib/ that defines its operations
 * (for example `const tagk_window_ops tagk_zero_ops = { ... };`) and one row
 * in lib/methods.def; tagk-estimate, tagk-bench, the harness and
 * `tagk-estimate --list` read this table and nothing else.
 */
#ifndef TAGK_METHOD_H
#define TAGK_METHOD_H

#include "scalar.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { TAGK_KIND_WINDOW, TAGK_KIND_STATE, TAGK_KIND_BATCH, TAGK_KIND_LEARNED } tagk_kind;

/* The first member of every kind's operations: the option keys the method
 * accepts (NULL-terminated), so that a front end can say which options apply
 * without knowing the family. Keys name options of tagk-estimate without
 * their dashes ("lambda", "seed", "window"). */
typedef struct {
	const char *const *keys;
} tagk_ops_head;

typedef struct tagk_method {
	const char *name;
	const char *summary;      /* one line, no trailing period */
	const char *family;       /* shown by --list and in messages */
	tagk_kind kind;
	const char *output;       /* what an estimate holds: "theta" (the regressor's
	                           * parameters), "mass" or "object" (learned.h) */
	const void *ops;          /* tagk_window_ops, tagk_state_ops, tagk_batch_ops or
	                           * tagk_learned_ops, by kind; begins with a
	                           * tagk_ops_head */
	tagk_real preset[3];      /* family-specific defaults that ops read */
} tagk_method;

/* Number of registered methods, and the i-th one (NULL past the end). */
int tagk_method_count(void);
const tagk_method *tagk_method_at(int i);
/* The method called name, of any kind, or NULL. */
const tagk_method *tagk_method_find(const char *name);
/* The method called name if it is of kind k, else NULL. */
const tagk_method *tagk_method_find_kind(const char *name, tagk_kind k);
/* 1 if mt accepts the option key (see tagk_ops_head), else 0. */
int tagk_method_accepts(const tagk_method *mt, const char *key);

#ifdef __cplusplus
}
#endif

#endif
