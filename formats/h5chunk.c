/* h5chunk.c: direct chunk reads for the HDF5 reader's child; see h5chunk.h. */
#include "h5chunk.h"
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* The element kinds read directly: each converts to a double exactly, by
 * the C conversion libhdf5's hard conversion functions also use. */
enum { E_F64 = 1, E_F32, E_I8, E_U8, E_I16, E_U16, E_I32, E_U32 };

/* The kind of ds's element type, equal in every property (H5Tequal: size,
 * order, precision, offset, padding, sign, exponent and mantissa layout)
 * to a standard little-endian type; 0 for any other. */
static int
elem_kind(hid_t type, size_t *esize)
{
	static const size_t sizes[] = { 0, 8, 4, 1, 1, 2, 2, 4, 4 };
	int kind = 0;
	if (H5Tequal(type, H5T_IEEE_F64LE) > 0)
		kind = E_F64;
	else if (H5Tequal(type, H5T_IEEE_F32LE) > 0)
		kind = E_F32;
	else if (H5Tequal(type, H5T_STD_I8LE) > 0)
		kind = E_I8;
	else if (H5Tequal(type, H5T_STD_U8LE) > 0)
		kind = E_U8;
	else if (H5Tequal(type, H5T_STD_I16LE) > 0)
		kind = E_I16;
	else if (H5Tequal(type, H5T_STD_U16LE) > 0)
		kind = E_U16;
	else if (H5Tequal(type, H5T_STD_I32LE) > 0)
		kind = E_I32;
	else if (H5Tequal(type, H5T_STD_U32LE) > 0)
		kind = E_U32;
	*esize = sizes[kind];
	return kind;
}

/* The filter pipeline: none, shuffle, deflate, or shuffle then deflate
 * (the order they run in when writing), shuffle by the element's size;
 * no chunk options. 0 with d's flags set, or -1 for any other. */
static int
filters(h5chunk *d, hid_t dcpl)
{
	unsigned opts = 0;
	int nf = H5Pget_nfilters(dcpl);
	if (nf < 0 || nf > 2 || H5Pget_chunk_opts(dcpl, &opts) < 0 || opts != 0)
		return -1;
	for (int i = 0; i < nf; i++) {
		unsigned flags = 0, vals[8] = { 0 }, cfg = 0;
		size_t nv = 8;
		H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)i, &flags, &nv, vals, 0, NULL, &cfg);
		if (id == H5Z_FILTER_SHUFFLE && i == 0 && nv >= 1 && vals[0] == d->esize)
			d->shuffle = 1;
		else if (id == H5Z_FILTER_DEFLATE && !d->deflate)
			d->deflate = 1;
		else
			return -1;
	}
	return 0;
}

int
h5c_setup(h5chunk *d, hid_t ds, int rank, int k, hsize_t n, const char *name)
{
	memset(d, 0, sizeof(*d));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__STDC_IEC_559__)
	/* tests and tagk-bench only: libhdf5's own read, to compare with */
	const char *off = getenv("TAGK_HDF5_TEST_NO_CHUNK_READS");
	if ((off && strcmp(off, "1") == 0) || (rank != 1 && rank != 2) || k < 1 || n == 0)
		return 0;
	hid_t dcpl = H5Dget_create_plist(ds), type = H5Dget_type(ds);
	hsize_t cd[2] = { 0, 0 };
	int ok = dcpl >= 0 && type >= 0 && H5Pget_layout(dcpl) == H5D_CHUNKED &&
	    H5Pget_chunk(dcpl, 2, cd) == rank && cd[0] > 0 && (rank == 1 ? k == 1 : cd[1] == (hsize_t)k);
	ok = ok && (d->elem = elem_kind(type, &d->esize)) != 0 && filters(d, dcpl) == 0;
	if (ok && (double)cd[0] * (double)k * (double)d->esize <= (double)H5C_MAX_CHUNK) {
		d->k = k;
		d->crows = cd[0];
		d->n = n;
		d->cbytes = (size_t)cd[0] * (size_t)k * d->esize;
		d->on = (d->name = strdup(name)) != NULL;
	}
	if (dcpl >= 0)
		H5Pclose(dcpl);
	if (type >= 0)
		H5Tclose(type);
	if (!d->on)
		memset(d, 0, sizeof(*d));
	return d->on;
#else
	(void)ds, (void)rank, (void)k, (void)n, (void)name;
	return 0;
#endif
}

/* For every dataset in turn (the reader's child is one thread): a
 * stored chunk, a chunk inflated before unshuffling, the zlib stream. */
static unsigned char *raw, *inflated;
static size_t rawcap, inflatedcap;
static z_stream *zs;

/* The stored chunk at row c0 into dst (room for cap bytes), whose size
 * must be want (0: anything up to cap): its size, or 0 if it is not
 * allocated, not of that size, or stored with a filter skipped. */
static size_t
stored_chunk(hid_t ds, hsize_t c0, unsigned char *dst, size_t cap, size_t want)
{
	hsize_t off[2] = { c0, 0 }, size = 0;
	uint32_t mask = 0;
	/* H5Dread_chunk writes the whole stored chunk, whatever dst holds:
	 * its size is checked first */
	if (H5Dget_chunk_storage_size(ds, off, &size) < 0 || size == 0 || size > cap || (want && size != want))
		return 0;
	if (H5Dread_chunk(ds, H5P_DEFAULT, off, &mask, dst) < 0 || mask != 0)
		return 0;
	return (size_t)size;
}

/* A deflate stream of size bytes in src into exactly want bytes at dst, as
 * libhdf5's filter inflates it (to the stream's end, whatever follows):
 * 0; 1 if it holds more than want bytes (libhdf5 keeps the first want:
 * left to it); -1, why in d->why, if it is damaged, cut short or ends
 * before want bytes (where libhdf5 failed, or handed on memory it never
 * wrote: a chunk's values then changed from one run to the next). */
static int
inflate_exact(h5chunk *d, const unsigned char *src, size_t size, unsigned char *dst, size_t want)
{
	z_stream *z = zs;
	if (size > UINT_MAX || want > UINT_MAX)
		return 1;
	if (!z) {
		if (!(z = calloc(1, sizeof(*z))))
			return 1;
		if (inflateInit(z) != Z_OK) {
			free(z);
			return 1;
		}
		zs = z;
	} else if (inflateReset(z) != Z_OK) {
		return 1;
	}
	z->next_in = (unsigned char *)src;
	z->avail_in = (uInt)size;
	z->next_out = dst;
	z->avail_out = (uInt)want;
	int rc = inflate(z, Z_FINISH);
	if (rc == Z_STREAM_END && z->avail_out == 0)
		return 0;
	if (rc == Z_BUF_ERROR && z->avail_out == 0)
		return 1;
	if (rc == Z_STREAM_END)
		snprintf(d->why, sizeof(d->why), "its deflate stream ends after %zu of the chunk's %zu bytes",
		    want - z->avail_out, want);
	else if (rc == Z_BUF_ERROR)
		snprintf(d->why, sizeof(d->why), "its deflate stream is cut short");
	else
		snprintf(d->why, sizeof(d->why), "its deflate stream is damaged (%s)", z->msg ? z->msg : "zlib error");
	return -1;
}

/* Shuffle's inverse: byte j of element i is at src[j * n + i]. */
static void
unshuffle(const unsigned char *src, unsigned char *dst, size_t nbytes, size_t es)
{
	size_t n = nbytes / es;
	for (size_t j = 0; j < es; j++)
		for (size_t i = 0; i < n; i++)
			dst[i * es + j] = src[j * n + i];
	memcpy(dst + n * es, src + n * es, nbytes - n * es);
}

static int
grow(unsigned char **p, size_t *cap, size_t want)
{
	if (*cap >= want)
		return 0;
	unsigned char *q = realloc(*p, want);
	if (!q)
		return -1;
	*p = q;
	*cap = want;
	return 0;
}

/* The chunk at row c0, decoded into dst (d->cbytes of room; d->chunk,
 * or the caller's rows for a chunk of doubles as they are): 0, 1 or -1
 * (h5c_read). */
static int
decode_chunk(h5chunk *d, hid_t ds, hsize_t c0, unsigned char *dst)
{
	size_t have = 0;
	if (!d->shuffle && !d->deflate)
		return stored_chunk(ds, c0, dst, d->cbytes, d->cbytes) ? 0 : 1;
	/* a deflated chunk is at most zlib's bound over the chunk (what
	 * libhdf5's filter allocates to write it) */
	size_t bound = d->deflate ? (size_t)compressBound((uLong)d->cbytes) : d->cbytes;
	if (grow(&raw, &rawcap, bound) != 0 || (d->shuffle && d->deflate && grow(&inflated, &inflatedcap, d->cbytes) != 0))
		return 1;
	if (!(have = stored_chunk(ds, c0, raw, bound, d->deflate ? 0 : d->cbytes)))
		return 1;
	const unsigned char *plain = raw;
	if (d->deflate) {
		unsigned char *to = d->shuffle ? inflated : dst;
		int rc = inflate_exact(d, raw, have, to, d->cbytes);
		if (rc != 0)
			return rc;
		plain = to;
	}
	if (d->shuffle)
		unshuffle(plain, dst, d->cbytes, d->esize);
	return 0;
}

/* The chunk at row c0, decoded into d->chunk: 0, 1 or -1 (h5c_read). */
static int
load_chunk(h5chunk *d, hid_t ds, hsize_t c0)
{
	d->chunk_ok = 0;
	if (!d->chunk && !(d->chunk = malloc(d->cbytes)))
		return 1;
	int rc = decode_chunk(d, ds, c0, d->chunk);
	if (rc == 0) {
		d->chunk_ok = 1;
		d->chunk_at = c0;
	}
	return rc;
}

/* cnt elements of d's kind at src into doubles at dst. */
static void
convert(const h5chunk *d, const unsigned char *src, double *dst, size_t cnt)
{
	switch (d->elem) {
	case E_F64: memcpy(dst, src, cnt * 8); break;
#define H5C_CONV(kind, ctype) \
	case kind: \
		for (size_t i = 0; i < cnt; i++) { \
			ctype v; \
			memcpy(&v, src + i * sizeof(v), sizeof(v)); \
			dst[i] = (double)v; \
		} \
		break;
	H5C_CONV(E_F32, float)
	H5C_CONV(E_I8, int8_t)
	H5C_CONV(E_U8, uint8_t)
	H5C_CONV(E_I16, int16_t)
	H5C_CONV(E_U16, uint16_t)
	H5C_CONV(E_I32, int32_t)
	H5C_CONV(E_U32, uint32_t)
#undef H5C_CONV
	}
}

int
h5c_read(h5chunk *d, hid_t ds, hsize_t b, hsize_t len, hsize_t cap, double *out)
{
	size_t row = (size_t)d->k * d->esize;
	for (hsize_t r = b, end = b + len; r < end;) {
		hsize_t c0 = r / d->crows * d->crows, stop = c0 + d->crows < end ? c0 + d->crows : end;
		double *to = out + (size_t)(r - b) * (size_t)d->k;
		if (d->elem == E_F64 && r == c0 && c0 - b + d->crows <= cap) {
			/* the whole chunk straight into out, decoded there (where a
			 * deflated one was inflated into d->chunk, then copied): its
			 * rows past the end of the block (the last chunk's, past the
			 * dataset's end) are room out has and nobody reads */
			int rc = decode_chunk(d, ds, c0, (unsigned char *)to);
			if (rc != 0) {
				d->bad_row = c0;
				return rc;
			}
		} else {
			int rc = d->chunk_ok && d->chunk_at == c0 ? 0 : load_chunk(d, ds, c0);
			if (rc != 0) {
				d->bad_row = c0;
				return rc;
			}
			convert(d, d->chunk + (size_t)(r - c0) * row, to, (size_t)(stop - r) * (size_t)d->k);
		}
		r = stop;
	}
	return 0;
}

void
h5c_free(h5chunk *d)
{
	free(d->name);
	free(d->chunk);
	memset(d, 0, sizeof(*d));
}
