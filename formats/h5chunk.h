/*
 * h5chunk.h: a chunked dataset's rows read a chunk at a time with
 * H5Dread_chunk and decoded here, for the HDF5 reader's child
 * (hdf5_in.c), where H5Dread's selections, chunk lookups and conversion
 * path were most of the child's time.
 *
 * Only what this code can show it decodes exactly as H5Dread would into
 * native doubles is read so: a chunked 1-D dataset, or an N x k one whose
 * chunks hold whole rows; elements IEEE f64 or f32 little-endian, or
 * integers of 8, 16 or 32 bits little-endian (each exact in a double: a
 * C conversion, as libhdf5's own); no filter, or deflate, after shuffle
 * or not; no chunk options (partial edge chunks filtered as the others).
 * Anything else (compound, big-endian or other types, other filters,
 * contiguous or virtual storage, ...) is not set up (h5c_setup returns 0)
 * and is read by H5Dread as before. A chunk the direct path cannot decode
 * as it expects (not allocated, a filter skipped for it, a stored size or
 * a deflate stream that is not what its shape says) makes h5c_read return
 * 1: the caller reads that block with H5Dread instead, which fills
 * unallocated chunks with the fill value. A deflate stream that is
 * damaged, cut short, or ends before the chunk does makes h5c_read return
 * -1, naming the chunk: H5Dread failed on the first two, and on the third
 * handed on bytes it never wrote. Memory: one decoded chunk and one stored chunk a dataset,
 * each at most H5C_MAX_CHUNK bytes (larger chunks go to H5Dread).
 */
#ifndef TAGK_H5CHUNK_H
#define TAGK_H5CHUNK_H

#include "h5load.h"

#define H5C_MAX_CHUNK ((size_t)16 << 20)

typedef struct {
	char *name;          /* the dataset's, for messages */
	int on;              /* set up: the reads below may be tried */
	int elem;            /* the element's kind (h5chunk.c) */
	int shuffle, deflate;
	size_t esize;        /* bytes an element */
	int k;               /* elements a row */
	hsize_t crows;       /* rows a chunk */
	hsize_t n;           /* rows of the dataset */
	size_t cbytes;       /* bytes a decoded chunk */
	unsigned char *chunk; /* the chunk last decoded, or NULL */
	hsize_t chunk_at;    /* its first row; valid when chunk_ok */
	int chunk_ok;
	hsize_t bad_row;     /* h5c_read -1: the damaged chunk's first row, */
	char why[120];       /* and what is wrong with it */
} h5chunk;

/* Whether ds (rank 1, or 2 with k columns; n rows; named name in
 * messages) can be read by chunks: 1 and d set up, or 0 (d->on 0: read
 * it with H5Dread). */
int h5c_setup(h5chunk *d, hid_t ds, int rank, int k, hsize_t n, const char *name);

/* Rows b .. b + len - 1 (within the dataset) into out, k doubles a row,
 * out having room for cap >= len rows (a whole chunk may be read there
 * when it fits): 0, or 1 when a chunk is not one this code decodes (read
 * the block with H5Dread instead; out may hold part of it), or -1 for a
 * damaged chunk (d->bad_row, d->why). */
int h5c_read(h5chunk *d, hid_t ds, hsize_t b, hsize_t len, hsize_t cap, double *out);

/* Memory d holds, freed; d is off. */
void h5c_free(h5chunk *d);

#endif
