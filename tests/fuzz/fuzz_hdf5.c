/* fuzz_hdf5.c: the HDF5 reader. The file is parsed by libhdf5 in a child
 * process (formats/hdf5_in.c); this harness checks what the parent hands
 * on. A crash of the child is contained by design and turns into an error
 * message; sanitizer reports from the child reach stderr, where `make fuzz`
 * looks for them (tests/fuzz/run). */
#include "fuzz_table.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_table(data, size, TBL_HDF5, WANT_ALL, 0, 0);
	return 0;
}
