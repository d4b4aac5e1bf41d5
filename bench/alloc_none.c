/* alloc_none.c: tagk_alloc_count for builds whose runtime owns malloc
 * (sanitizers): the count is unknown, which the benchmark prints as -1. */
#include "alloc_count.h"

long
tagk_alloc_count(void)
{
	return -1;
}
