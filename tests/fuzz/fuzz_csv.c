/* fuzz_csv.c: the CSV reader (libcsv underneath). The first byte picks the
 * columns wanted and --skip-bad; the whole input is the file. */
#include "fuzz_table.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int mode = size ? data[0] : 0;
	fuzz_table(data, size, TBL_CSV, (mode & 1) ? WANT_ALTERNATE : WANT_ALL, (mode >> 1) & 1, 0);
	return 0;
}
