/* alloc_count.c: glibc allocator wrappers that count calls; see alloc_count.h. */
#include <stddef.h>
#include "alloc_count.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static long calls;

void *malloc(size_t n);
void *calloc(size_t k, size_t n);
void *realloc(void *p, size_t n);
void free(void *p);

void *
malloc(size_t n)
{
	calls++;
	return __libc_malloc(n);
}

void *
calloc(size_t k, size_t n)
{
	calls++;
	return __libc_calloc(k, n);
}

void *
realloc(void *p, size_t n)
{
	calls++;
	return __libc_realloc(p, n);
}

void
free(void *p)
{
	__libc_free(p);
}

long
tagk_alloc_count(void)
{
	return calls;
}
