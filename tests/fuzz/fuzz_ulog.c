/* fuzz_ulog.c: the PX4 ULog reader: header, flag bits and appended data,
 * formats (nested, arrays, padding), parameters, subscriptions, data, and
 * the join of the topics wanted onto the base topic's times. Every column
 * wanted, then every other one (the join reads only the topics wanted). */
#include "fuzz_table.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_table(data, size, TBL_ULOG, WANT_ALL, 0, 0);
	fuzz_table(data, size, TBL_ULOG, WANT_ALTERNATE, 1, 0);
	return 0;
}
