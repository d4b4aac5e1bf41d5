/*
 * sink.h: write a stream of named numeric columns as CSV or tagk's binary
 * stream (binary.h; to a file or standard output) or HDF5 (to a file),
 * with numbers that round-trip.
 *
 * Nothing half-written may pass for a complete result:
 * - a file is written under a temporary name and renamed into place only
 *   by sink_close(s, 1); sink_close(s, 0) removes it;
 * - standard output is held in memory until 1 MiB has accumulated, so a
 *   command that fails on a small input leaves stdout empty (a pipe gets
 *   the line TBL_ERROR_MARK WHY alone, so that the next command says why);
 *   once output has begun, sink_close(s, 0) ends it with that line, which
 *   every tagk reader turns into an error.
 */
#ifndef TAGK_SINK_H
#define TAGK_SINK_H

#include <stddef.h>
#include "table.h"

typedef struct sink sink;

/* path NULL or "-": standard output (CSV or the binary stream; not HDF5).
 * fmt TBL_AUTO: by extension, else CSV. Returns NULL with a message in err. */
sink *sink_open(const char *path, tbl_format fmt, char *err, size_t errlen);
/* Column names; must come before the first row. */
int sink_header(sink *s, int ncols, const char *const *names);
/* One row of ncols values; NaN is written as an empty cell. */
int sink_row(sink *s, const double *v);
/* k rows, v[0 .. k * ncols): as k calls of sink_row. */
int sink_rows(sink *s, const double *v, int k);
/* For a caller that builds k rows of finite values in place: room for
 * them, k * ncols little-endian doubles (store each with memcpy), which
 * sink_rows_commit encodes as the binary stream's records (each row
 * against the one before, binary.h), or NULL where they must go through
 * sink_rows instead (CSV, HDF5, a big-endian host, an error). A room must
 * be filled and then committed, by sink_rows_commit with the same k,
 * before any other call on s; a write error there shows in the next call
 * or sink_close. Rows that may hold a NaN go through sink_rows, which
 * writes every NaN as the stream's one quiet NaN. */
unsigned char *sink_rows_room(sink *s, int k);
/* same: the caller's promise that rows 1 to k - 1 hold row 0's values in
 * columns same to ncols - 1 (binary.h's binary_encode_fn: fewer compares,
 * the same bytes); ncols or out of range: no promise. */
void sink_rows_commit(sink *s, int k, int same);
/* ok = 1: finish and commit; ok = 0: abandon (see above), with why as the
 * message of the error marker. Returns 0, or -1 with sink_error() set when
 * committing failed. Frees s. */
int sink_close(sink *s, int ok, const char *why, char *err, size_t errlen);
const char *sink_error(const sink *s);
/* The caller knows that every reader of standard output, a pipe, copies
 * what it reads with read(2) (it is a tagk command: streampeer.h): once
 * output has begun, binary rows are then handed to the pipe by reference
 * rather than copied into it (pipeout.h). Ignored for anything else. */
void sink_by_reference(sink *s);
/* A fact about the stream, written as "#tagk-note: KEY VALUE" before the end
 * marker of a CSV stream that succeeds (HDF5 output carries none); up to 4. */
void sink_note(sink *s, const char *key, const char *value);

/* Write x with the fewest digits that read back as exactly x (at most 17
 * significant digits); returns the length. buf holds at least 32 bytes. */
int fmt_double(char *buf, double x);

#endif
