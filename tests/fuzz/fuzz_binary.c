/* fuzz_binary.c: tagk's binary stream reader (formats/binary_in.c): magic
 * line, names and units, records (version 4's masks and the values they
 * carry), trailer, notes and markers. Opened as CSV, as a reader told
 * -f csv would be: the first byte 0x93 switches to the binary reader.
 * Bit 0 of the second byte picks --skip-bad, bit 1 the columns wanted;
 * bit 1 of the last byte tagk-filter --old-stream (versions 2 and 3 read
 * too: on for a stream that ends in its newline). */
#include "fuzz_table.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int mode = size > 1 ? data[1] : 0;
	fuzz_old_stream = size > 0 && (data[size - 1] & 2) != 0;
	fuzz_table(data, size, TBL_CSV, (mode & 2) ? WANT_ALTERNATE : WANT_STREAM, mode & 1, 0);
	return 0;
}
