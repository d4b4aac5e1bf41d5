/*
 * gz.h: gzip-compressed streams behind an ordinary FILE *, so that every
 * reader and writer works on them unchanged (zlib, through fopencookie).
 *
 * Input: gz_wrap_read peeks at the first bytes of a stream; a gzip stream
 * (magic 1f 8b, several members allowed, as `cat a.gz b.gz` makes) is
 * inflated on the fly, anything else passes through untouched. Output:
 * gz_open_write_fd writes gzip to a descriptor.
 */
#ifndef TAGK_GZ_H
#define TAGK_GZ_H

#include <stddef.h>
#include <stdio.h>

/* A stream reading under's bytes, inflated when they are gzip; *is_gz says
 * which. The returned stream owns under (closing it closes under), except
 * when under itself is returned. NULL on out of memory, with err set. */
FILE *gz_wrap_read(FILE *under, int *is_gz, char *err, size_t errlen);
/* A stream writing gzip to fd, which it owns (closing the stream closes
 * fd), or NULL with errno set (fd is then left open). */
FILE *gz_open_write_fd(int fd);
/* The reason for a failed read: the gzip stream's own ("gzip data cut
 * short ...") when it failed, else strerror(e). */
const char *gz_strerror(int e);
/* 1 if path ends in ".gz". */
int gz_name(const char *path);

#endif
