/* fuzz_cfusd.c: the Crazyflie uSD binary log reader: header, event type
 * table, CRC-32, records. The CRC is ignored so that the fuzzer reaches the
 * records (a real run checks it first). */
#include "fuzz_table.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_table(data, size, TBL_CFUSD, WANT_ALL, 0, 1);
	return 0;
}
