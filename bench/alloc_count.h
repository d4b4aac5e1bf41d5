/*
 * alloc_count.h: counts calls to malloc, calloc, realloc and free in a host
 * program, by replacing glibc's allocator entry points with wrappers that
 * forward to __libc_malloc and friends (glibc documents this replacement).
 * Linked only into host benchmark binaries, never into lib/ or sanitizer
 * builds (whose runtime owns malloc).
 */
#ifndef TAGK_ALLOC_COUNT_H
#define TAGK_ALLOC_COUNT_H

/* Allocation calls (malloc, calloc, realloc) so far in this process. */
long tagk_alloc_count(void);

#endif
