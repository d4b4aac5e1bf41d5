/* h5load.c: libhdf5 loaded on first use; see h5load.h. */
#define H5LOAD_IMPL
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "h5load.h"

#ifndef TAGK_HDF5_SONAME
#error "TAGK_HDF5_SONAME: the Makefile passes libhdf5's soname (scripts/hdf5-soname)"
#endif
_Static_assert(sizeof(TAGK_HDF5_SONAME) > 1, "TAGK_HDF5_SONAME is empty: scripts/hdf5-soname found no libhdf5.so");

#define H5LOAD_DEFINE(name) __typeof__(name) *h5p_##name;
H5LOAD_SYMBOLS(H5LOAD_DEFINE)
#undef H5LOAD_DEFINE

/* dlsym's object pointer into a function or data pointer: by its bytes,
 * as POSIX allows and ISO C does not by a cast. */
static int
lookup(void *lib, const char *file, const char *name, void *slot, size_t size, char *err, size_t errlen)
{
	void *p = dlsym(lib, name);
	if (!p || size != sizeof(p)) {
		snprintf(err, errlen, "%s has no symbol %s: not an HDF5 library tagk can use", file, name);
		return -1;
	}
	memcpy(slot, &p, sizeof(p));
	return 0;
}

/* The library's version is the headers': 0, else -1 and why. */
static int
same_version(const char *lib, char *err, size_t errlen)
{
	unsigned maj = 0, min = 0, rel = 0;
	if (h5p_H5get_libversion(&maj, &min, &rel) < 0 || maj != H5_VERS_MAJOR || min != H5_VERS_MINOR ||
	    rel != H5_VERS_RELEASE) {
		snprintf(err, errlen, "%s is HDF5 %u.%u.%u; tagk was built with HDF5 %d.%d.%d", lib, maj, min,
		    rel, H5_VERS_MAJOR, H5_VERS_MINOR, H5_VERS_RELEASE);
		return -1;
	}
	return 0;
}

int
h5_load(char *err, size_t errlen)
{
	static int loaded;
	if (loaded)
		return 0;
	const char *name = getenv("TAGK_HDF5_LIB");
	if (!name || !*name)
		name = TAGK_HDF5_SONAME;
	/* RTLD_LOCAL: its symbols stay out of the process's namespace, where
	 * nothing else wants them. RTLD_LAZY, as a linked library is bound:
	 * the symbols tagk calls are each looked up below, and binding every
	 * function of its thirty-odd libraries at once (RTLD_NOW) took 1-2 ms */
	void *lib = dlopen(name, RTLD_LAZY | RTLD_LOCAL);
	if (!lib) {
		const char *why = dlerror();
		snprintf(err, errlen, "cannot load the HDF5 library (%s; Debian: apt-get install libhdf5-103-1)",
		    why ? why : name);
		return -1;
	}
#define H5LOAD_LOOKUP(sym) \
	if (lookup(lib, name, #sym, &h5p_##sym, sizeof(h5p_##sym), err, errlen) != 0) \
		return -1;
	H5LOAD_SYMBOLS(H5LOAD_LOOKUP)
#undef H5LOAD_LOOKUP
	/* before any call that starts the library (H5get_libversion does):
	 * started first, it registers an exit handler that closes files
	 * again after a failed H5Fclose, and crashes (hdf5_out.c) */
	h5p_H5dont_atexit();
	if (same_version(name, err, errlen) != 0)
		return -1;
	loaded = 1;
	return 0;
}
