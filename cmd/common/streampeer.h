/*
 * streampeer.h: is the reader of a pipe a tagk command? Decides whether
 * `--stream auto` writes tagk's binary stream or CSV.
 */
#ifndef TAGK_STREAMPEER_H
#define TAGK_STREAMPEER_H

/* 1 if fd is a pipe whose every reader (at least one) is a tagk-*
 * executable; 0 otherwise, or when that cannot be told (no /proc). */
int stream_reader_is_tagk(int fd);

#endif
