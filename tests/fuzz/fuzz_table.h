/*
 * fuzz_table.h: the contract every table reader must keep, checked on
 * arbitrary input by the fuzz harnesses (fuzz_*.c), with libFuzzer under
 * `make fuzz` and by replaying the regression corpus under `make check`.
 *
 * fuzz_table() hands the bytes to tbl_open() through an anonymous memory
 * file (no file on disk), then reads every row and aborts on a violation:
 *   - an error message that is empty or spans lines;
 *   - a row with a wanted cell that is NaN or infinite, or an unwanted cell
 *     that is not NaN, or any cell left unwritten (still the sentinel);
 *   - a reader that opens with no columns;
 * Crashes, leaks and undefined behaviour are the sanitizers' to report, and
 * hangs libFuzzer's (-timeout).
 */
#ifndef TAGK_FUZZ_TABLE_H
#define TAGK_FUZZ_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include "../../formats/table.h"

/* Which columns to want: every one, every other one, or those a regressor
 * or estimate stream reader wants (t, row, b, Y_*, m, true_*). */
typedef enum { WANT_ALL, WANT_ALTERNATE, WANT_STREAM } fuzz_want;

void fuzz_table(const uint8_t *data, size_t size, tbl_format fmt, fuzz_want want, int skip_bad,
    int ignore_crc);
/* The same, returning a digest of everything the reader said (column
 * names, cells, places, messages), for harnesses that compare two readings. */
uint64_t fuzz_table_digest(const uint8_t *data, size_t size, tbl_format fmt, fuzz_want want, int skip_bad,
    int ignore_crc);

/* Set by a harness: tbl_options.old_stream for the next readings (binary
 * streams of versions 2 and 3, which only tagk-filter --old-stream reads). */
extern int fuzz_old_stream;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
