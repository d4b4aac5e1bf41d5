/* fuzz_stream.c: the CSV reader as tagk-estimate and tagk-report use it on
 * tagk's own streams: the declaration and end markers, the error marker,
 * and only the stream's columns (t, row, b, Y_*, m, true_*) wanted. */
#include "fuzz_table.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_table(data, size, TBL_CSV, WANT_STREAM, size && (data[0] & 1), 0);
	return 0;
}
