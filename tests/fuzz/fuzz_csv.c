/* fuzz_csv.c: the CSV reader (libcsv underneath, and csv_in.c's own
 * splitter for quote-free lines). The first byte picks the columns wanted
 * and --skip-bad; the whole input is the file. Each input is read twice,
 * with the fast path and with every line through libcsv: the two must say
 * exactly the same (cells, places, messages). */
#include <stdio.h>
#include <stdlib.h>
#include "fuzz_table.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int mode = size ? data[0] : 0;
	fuzz_want want = (mode & 1) ? WANT_ALTERNATE : WANT_ALL;
	tbl_csv_fastpath = 1;
	uint64_t fast = fuzz_table_digest(data, size, TBL_CSV, want, (mode >> 1) & 1, 0);
	tbl_csv_fastpath = 0;
	uint64_t slow = fuzz_table_digest(data, size, TBL_CSV, want, (mode >> 1) & 1, 0);
	tbl_csv_fastpath = 1;
	if (fast != slow) {
		fprintf(stderr, "fuzz_csv: the fast path and libcsv read this input differently\n");
		abort();
	}
	return 0;
}
