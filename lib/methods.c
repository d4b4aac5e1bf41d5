/* methods.c: the registry of methods.def; see method.h. */
#include <string.h>
#include "estimator.h"
#include "massest.h"
#include "batch.h"
#include "learned.h"

/* Each row's operations are declared here, so that a new method's file
 * needs no header: its row in methods.def is all the registry needs. */
#define TAGK_METHOD(name, summary, family, kind, output, ops, p1, p2, p3) \
	extern const tagk_##kind##_ops ops;
#include "methods.def"
#undef TAGK_METHOD

enum { tagk__window = TAGK_KIND_WINDOW, tagk__state = TAGK_KIND_STATE, tagk__batch = TAGK_KIND_BATCH,
	tagk__learned = TAGK_KIND_LEARNED };

static const tagk_method methods[] = {
#define TAGK_METHOD(name, summary, family, kind, output, ops, p1, p2, p3) \
	{ name, summary, family, (tagk_kind)tagk__##kind, output, &ops, \
	  { (tagk_real)(p1), (tagk_real)(p2), (tagk_real)(p3) } },
#include "methods.def"
#undef TAGK_METHOD
};

int
tagk_method_count(void)
{
	return (int)(sizeof(methods) / sizeof(methods[0]));
}

const tagk_method *
tagk_method_at(int i)
{
	return i >= 0 && i < tagk_method_count() ? &methods[i] : NULL;
}

const tagk_method *
tagk_method_find(const char *name)
{
	if (!name)
		return NULL;
	for (int i = 0; i < tagk_method_count(); i++)
		if (strcmp(methods[i].name, name) == 0)
			return &methods[i];
	return NULL;
}

const tagk_method *
tagk_method_find_kind(const char *name, tagk_kind k)
{
	const tagk_method *mt = tagk_method_find(name);
	return mt && mt->kind == k ? mt : NULL;
}

int
tagk_method_accepts(const tagk_method *mt, const char *key)
{
	if (!mt || !mt->ops || !key)
		return 0;
	const tagk_ops_head *h = (const tagk_ops_head *)mt->ops;
	for (const char *const *k = h->keys; k && *k; k++)
		if (strcmp(*k, key) == 0)
			return 1;
	return 0;
}

const tagk_learned_ops *
tagk_learned_ops_of(const tagk_method *mt)
{
	return mt && mt->kind == TAGK_KIND_LEARNED ? (const tagk_learned_ops *)mt->ops : NULL;
}
