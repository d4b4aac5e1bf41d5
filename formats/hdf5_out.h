/*
 * hdf5_out.h: write a stream as an HDF5 file holding one 1-D float64
 * dataset per column, in the root group, in column order (link creation
 * order is tracked), chunked and extended as rows arrive.
 */
#ifndef TAGK_HDF5_OUT_H
#define TAGK_HDF5_OUT_H

#include <stddef.h>

typedef struct h5out h5out;

/* NULL and why in err (without the path: the caller names the file its
 * user gave, not the temporary it writes) when libhdf5 cannot be loaded
 * (h5load.h) or the file created. */
h5out *h5out_create(const char *path, char *err, size_t errlen);
int h5out_header(h5out *h, int ncols, const char *const *names, char *err, size_t errlen);
int h5out_row(h5out *h, const double *v, char *err, size_t errlen);
/* Flush (when ok) and close; always frees h. notes (NULL or "" for none)
 * are the stream's "KEY VALUE" lines, each ended by a newline: written,
 * when ok, as the root group's scalar string attribute tagk_notes, which
 * tagk's HDF5 reader gives back as notes (an HDF5 file has no end marker
 * to carry them after the rows). */
int h5out_close(h5out *h, int ok, const char *notes, char *err, size_t errlen);

#endif
