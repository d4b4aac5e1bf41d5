/* hdf5_out.c: the HDF5 stream writer; see hdf5_out.h. */
#include "h5load.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "hdf5_out.h"

enum { CH = 4096 };

struct h5out {
	hid_t file;
	int ncols;
	hid_t *ds;
	double *buf;      /* ncols x CH, column-major: column c at buf + c * CH */
	int nbuf;
	hsize_t rows;
};

h5out *
h5out_create(const char *path, char *err, size_t errlen)
{
	/* When H5Fclose fails (a full disk, a file size limit), libhdf5's own
	 * exit handler tries to close the file again and crashes (exit 139
	 * with 1.10.8). Without the handler, which h5_load turns off before
	 * the library starts (H5dont_atexit), the process exits with the file
	 * still open, which is harmless: the temporary is unlinked anyway. The
	 * library is closed by hand after a clean H5Fclose (h5out_close). */
	if (h5_load(err, errlen) != 0)
		return NULL;
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	h5out *h = calloc(1, sizeof(*h));
	if (!h) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
	H5Pset_link_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
	/* The 1.10 file format indexes the chunks of an unlimited dataset with
	 * an extensible array, which reading walks without the per-chunk
	 * B-tree state of the 1.8 format (memory then grows with the file). */
	hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
	H5Pset_libver_bounds(fapl, H5F_LIBVER_V110, H5F_LIBVER_LATEST);
	/* H5Fclose fails while any object of the file is open, instead of
	 * answering success and closing later (the default, weak degree): a
	 * dataset whose close failed to write its cached chunks cannot then
	 * pass for a closed, whole file */
	H5Pset_fclose_degree(fapl, H5F_CLOSE_SEMI);
	h->file = H5Fcreate(path, H5F_ACC_TRUNC, fcpl, fapl);
	H5Pclose(fapl);
	H5Pclose(fcpl);
	if (h->file < 0) {
		snprintf(err, errlen, "cannot create the HDF5 file");
		free(h);
		return NULL;
	}
	return h;
}

int
h5out_header(h5out *h, int ncols, const char *const *names, char *err, size_t errlen)
{
	h->ncols = ncols;
	h->ds = calloc((size_t)ncols, sizeof(*h->ds));
	h->buf = malloc((size_t)ncols * CH * sizeof(*h->buf));
	if (!h->ds || !h->buf) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	hsize_t dims = 0, maxdims = H5S_UNLIMITED, chunk = CH;
	for (int c = 0; c < ncols; c++) {
		if (strchr(names[c], '/') || strcmp(names[c], ".") == 0 || !names[c][0]) {
			snprintf(err, errlen, "column name '%s' cannot name an HDF5 dataset", names[c]);
			return -1;
		}
		hid_t space = H5Screate_simple(1, &dims, &maxdims);
		hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
		H5Pset_chunk(dcpl, 1, &chunk);
		h->ds[c] = H5Dcreate2(h->file, names[c], H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl,
		    H5P_DEFAULT);
		H5Pclose(dcpl);
		H5Sclose(space);
		if (h->ds[c] < 0) {
			snprintf(err, errlen, "cannot create HDF5 dataset '%s'", names[c]);
			return -1;
		}
	}
	return 0;
}

static int
flush_rows(h5out *h, char *err, size_t errlen)
{
	if (h->nbuf == 0)
		return 0;
	hsize_t start = h->rows, count = (hsize_t)h->nbuf, total = h->rows + count;
	hid_t mspace = H5Screate_simple(1, &count, NULL);
	for (int c = 0; c < h->ncols; c++) {
		if (H5Dset_extent(h->ds[c], &total) < 0)
			goto fail;
		hid_t fspace = H5Dget_space(h->ds[c]);
		H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &start, NULL, &count, NULL);
		herr_t rc = H5Dwrite(h->ds[c], H5T_NATIVE_DOUBLE, mspace, fspace, H5P_DEFAULT,
		    h->buf + (size_t)c * CH);
		H5Sclose(fspace);
		if (rc < 0)
			goto fail;
	}
	H5Sclose(mspace);
	h->rows = total;
	h->nbuf = 0;
	return 0;
fail:
	H5Sclose(mspace);
	snprintf(err, errlen, "HDF5 write failed (disk full or file too large?)");
	return -1;
}

int
h5out_row(h5out *h, const double *v, char *err, size_t errlen)
{
	for (int c = 0; c < h->ncols; c++)
		h->buf[(size_t)c * CH + (size_t)h->nbuf] = v[c];
	if (++h->nbuf == CH)
		return flush_rows(h, err, errlen);
	return 0;
}

/* The notes as the root group's attribute tagk_notes (h5out_close). */
static int
write_notes(h5out *h, const char *notes, char *err, size_t errlen)
{
	hid_t t = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR), a = -1;
	herr_t rc = -1;
	if (t >= 0 && sp >= 0 && H5Tset_size(t, strlen(notes) + 1) >= 0 && H5Tset_strpad(t, H5T_STR_NULLTERM) >= 0 &&
	    (a = H5Acreate2(h->file, "tagk_notes", t, sp, H5P_DEFAULT, H5P_DEFAULT)) >= 0)
		rc = H5Awrite(a, t, notes);
	if (a >= 0)
		H5Aclose(a);
	if (sp >= 0)
		H5Sclose(sp);
	if (t >= 0)
		H5Tclose(t);
	if (rc < 0)
		snprintf(err, errlen, "HDF5 write failed (the notes; disk full or file too large?)");
	return rc < 0 ? -1 : 0;
}

int
h5out_close(h5out *h, int ok, const char *notes, char *err, size_t errlen)
{
	int rc = 0;
	if (ok && h->ds)
		rc = flush_rows(h, err, errlen);
	if (ok && rc == 0 && notes && notes[0])
		rc = write_notes(h, notes, err, errlen);
	/* Every status counts: a dataset's close writes its cached chunks
	 * (with 32 KiB chunks and libhdf5's 1 MiB cache, most of the rows),
	 * the flush the file's metadata, and each can meet a full disk. */
	int said = rc != 0;
	for (int c = 0; h->ds && c < h->ncols; c++)
		if (h->ds[c] > 0 && H5Dclose(h->ds[c]) < 0)
			rc = -1;
	if (rc == 0 && ok && H5Fflush(h->file, H5F_SCOPE_GLOBAL) < 0)
		rc = -1;
	if (H5Fclose(h->file) < 0)
		rc = -1;
	else if (rc == 0)
		H5close();
	if (rc != 0 && ok && !said)
		snprintf(err, errlen, "HDF5 write failed (disk full or file too large?)");
	free(h->ds);
	free(h->buf);
	free(h);
	return rc;
}
