/*
 * hdf5_in.c: the HDF5 backend of table.c.
 *
 * A log is a group holding one dataset per signal, as h5py users write
 * them: 1-D datasets of N values become one column named like the dataset;
 * N x k datasets become k columns, named by a string attribute "columns"
 * ("qw,qx,qy,qz") when the dataset has one, else "name.0" ... "name.k-1".
 * Every dataset must have the same N. Datasets are visited in creation
 * order when the file tracks it, else by name. Rows are read in blocks of
 * 4096, so memory does not depend on N.
 */
#include <hdf5.h>
#include <stdlib.h>
#include <string.h>
#include "table_impl.h"

enum { BLOCK = 4096 };

typedef struct {
	hid_t ds;
	int k;            /* columns it provides */
	int col0;         /* its first column in the table */
	double *buf;      /* BLOCK x k */
} h5sig;

typedef struct {
	hid_t file, group;
	h5sig *sig;
	int nsig;
	hsize_t n;        /* rows */
	hsize_t pos;      /* next row */
	hsize_t bstart, blen;
	int n_set;
	char first[256];  /* name of the dataset that fixed n */
} h5in;

typedef struct {
	tbl_reader *r;
	int rc;
} iter_ctx;

static int
add_signal(tbl_reader *r, const char *name)
{
	h5in *h = r->impl;
	/* A small chunk cache: rows are read once, in order, a block at a time. */
	hid_t dapl = H5Pcreate(H5P_DATASET_ACCESS);
	H5Pset_chunk_cache(dapl, 521, 256 * 1024, 1.0);
	hid_t ds = H5Dopen2(h->group, name, dapl);
	H5Pclose(dapl);
	if (ds < 0)
		return 0; /* a subgroup or a named type: not a signal */
	hid_t type = H5Dget_type(ds);
	H5T_class_t cls = H5Tget_class(type);
	H5Tclose(type);
	if (cls != H5T_INTEGER && cls != H5T_FLOAT) {
		H5Dclose(ds);
		return tbl_fail(r, "%s: dataset '%s' is not numeric", r->name, name);
	}
	hid_t space = H5Dget_space(ds);
	int rank = H5Sget_simple_extent_ndims(space);
	hsize_t dims[2] = { 0, 1 };
	if (rank == 1 || rank == 2)
		H5Sget_simple_extent_dims(space, dims, NULL);
	H5Sclose(space);
	if (rank != 1 && rank != 2) {
		H5Dclose(ds);
		return tbl_fail(r, "%s: dataset '%s' has %d dimensions; a signal is N or N x k",
		    r->name, name, rank);
	}
	if (!h->n_set) {
		h->n = dims[0];
		h->n_set = 1;
		snprintf(h->first, sizeof(h->first), "%s", name);
	} else if (dims[0] != h->n) {
		H5Dclose(ds);
		return tbl_fail(r, "%s: dataset '%s' has %llu rows but '%s' has %llu", r->name,
		    name, (unsigned long long)dims[0], h->first, (unsigned long long)h->n);
	}
	h5sig *ns = realloc(h->sig, (size_t)(h->nsig + 1) * sizeof(*ns));
	if (!ns) {
		H5Dclose(ds);
		return tbl_fail(r, "out of memory");
	}
	h->sig = ns;
	h5sig *s = &h->sig[h->nsig++];
	s->ds = ds;
	s->k = (int)dims[1];
	s->col0 = r->ncols;
	s->buf = malloc((size_t)BLOCK * (size_t)s->k * sizeof(double));
	if (!s->buf)
		return tbl_fail(r, "out of memory");
	/* Column names: the "columns" attribute, or name / name.j */
	char names[1024] = "";
	if (rank == 2 && H5Aexists(ds, "columns") > 0) {
		hid_t a = H5Aopen(ds, "columns", H5P_DEFAULT);
		hid_t at = H5Aget_type(a);
		if (H5Tget_class(at) == H5T_STRING) {
			hid_t mt = H5Tcopy(H5T_C_S1);
			if (H5Tis_variable_str(at) > 0) {
				char *p = NULL;
				H5Tset_size(mt, H5T_VARIABLE);
				if (H5Aread(a, mt, &p) >= 0 && p)
					snprintf(names, sizeof(names), "%s", p);
				if (p)
					H5free_memory(p);
			} else {
				size_t sz = H5Tget_size(at);
				if (sz < sizeof(names)) {
					H5Tset_size(mt, sz + 1);
					H5Aread(a, mt, names);
					names[sz] = 0;
				}
			}
			H5Tclose(mt);
		}
		H5Tclose(at);
		H5Aclose(a);
	}
	if (names[0]) {
		int cnt = 0;
		char *save, *tok;
		for (tok = strtok_r(names, ",", &save); tok; tok = strtok_r(NULL, ",", &save), cnt++)
			if (cnt < s->k && tbl_add_col(r, tok, strlen(tok)) != 0)
				return tbl_fail(r, "out of memory");
		if (cnt != s->k)
			return tbl_fail(r, "%s: dataset '%s' has %d columns but its 'columns' attribute names %d",
			    r->name, name, s->k, cnt);
	} else if (rank == 1) {
		if (tbl_add_col(r, name, strlen(name)) != 0)
			return tbl_fail(r, "out of memory");
	} else {
		for (int j = 0; j < s->k; j++) {
			char cn[300];
			int l = snprintf(cn, sizeof(cn), "%s.%d", name, j);
			if (tbl_add_col(r, cn, (size_t)l) != 0)
				return tbl_fail(r, "out of memory");
		}
	}
	return 0;
}

static herr_t
visit(hid_t g, const char *name, const H5L_info_t *info, void *data)
{
	(void)g;
	(void)info;
	iter_ctx *c = data;
	if (add_signal(c->r, name) != 0) {
		c->rc = -1;
		return 1; /* stop */
	}
	return 0;
}

static int
h5_next(tbl_reader *r, double *row)
{
	h5in *h = r->impl;
	if (h->pos >= h->n)
		return 0;
	if (h->pos >= h->bstart + h->blen) {
		h->bstart = h->pos;
		h->blen = h->n - h->pos < BLOCK ? h->n - h->pos : BLOCK;
		for (int i = 0; i < h->nsig; i++) {
			h5sig *s = &h->sig[i];
			hsize_t start[2] = { h->bstart, 0 }, count[2] = { h->blen, (hsize_t)s->k };
			int rank = 0;
			hid_t fspace = H5Dget_space(s->ds);
			rank = H5Sget_simple_extent_ndims(fspace);
			H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL);
			hid_t mspace = H5Screate_simple(rank, count, NULL);
			herr_t rc = H5Dread(s->ds, H5T_NATIVE_DOUBLE, mspace, fspace, H5P_DEFAULT, s->buf);
			H5Sclose(mspace);
			H5Sclose(fspace);
			if (rc < 0)
				return tbl_fail(r, "%s: cannot read dataset rows %llu.. (file truncated?)",
				    r->name, (unsigned long long)h->bstart);
		}
	}
	hsize_t off = h->pos - h->bstart;
	for (int i = 0; i < h->nsig; i++) {
		h5sig *s = &h->sig[i];
		for (int j = 0; j < s->k; j++)
			row[s->col0 + j] = s->buf[off * (hsize_t)s->k + (hsize_t)j];
	}
	h->pos++;
	return 1;
}

static void
h5_where(tbl_reader *r, char *buf, size_t len)
{
	h5in *h = r->impl;
	snprintf(buf, len, "%s:row %llu", r->name, (unsigned long long)h->pos);
}

static void
h5_close(tbl_reader *r)
{
	h5in *h = r->impl;
	if (!h)
		return;
	for (int i = 0; i < h->nsig; i++) {
		H5Dclose(h->sig[i].ds);
		free(h->sig[i].buf);
	}
	free(h->sig);
	if (h->group >= 0)
		H5Gclose(h->group);
	if (h->file >= 0)
		H5Fclose(h->file);
	free(h);
	r->impl = NULL;
}

int
tbl_hdf5_open(tbl_reader *r, const char *path)
{
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	/* HDF5 keeps freed blocks on free lists for reuse; cap them so that
	 * they do not grow with the number of chunks read. */
	H5set_free_list_limits(1 << 20, 1 << 18, 1 << 20, 1 << 18, 4 << 20, 1 << 20);
	h5in *h = calloc(1, sizeof(*h));
	if (!h)
		return tbl_fail(r, "out of memory");
	h->file = h->group = -1;
	r->impl = h;
	r->next = h5_next;
	r->where_fn = h5_where;
	r->close = h5_close;
	FILE *probe = fopen(path, "rb");
	if (!probe)
		return tbl_fail(r, "%s: cannot open", path);
	fclose(probe);
	/* Cap the metadata cache, which otherwise grows with the number of
	 * chunks in the file (memory must not depend on the log's length). */
	hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
	H5AC_cache_config_t mdc;
	memset(&mdc, 0, sizeof(mdc));
	mdc.version = H5AC__CURR_CACHE_CONFIG_VERSION;
	H5Pget_mdc_config(fapl, &mdc);
	mdc.set_initial_size = 1;
	mdc.initial_size = 1 << 20;
	mdc.max_size = 2 << 20;
	mdc.min_size = 1 << 19;
	H5Pset_mdc_config(fapl, &mdc);
	h->file = H5Fopen(path, H5F_ACC_RDONLY, fapl);
	H5Pclose(fapl);
	if (h->file < 0)
		return tbl_fail(r, "%s: not a readable HDF5 file (truncated or damaged?)", path);
	const char *g = r->opt.group ? r->opt.group : "/";
	h->group = H5Gopen2(h->file, g, H5P_DEFAULT);
	if (h->group < 0)
		return tbl_fail(r, "%s: no group '%s'", path, g);
	iter_ctx ctx = { r, 0 };
	hsize_t idx = 0;
	herr_t rc = H5Literate(h->group, H5_INDEX_CRT_ORDER, H5_ITER_INC, &idx, visit, &ctx);
	if (rc < 0 && ctx.rc == 0 && h->nsig == 0) {
		idx = 0;
		rc = H5Literate(h->group, H5_INDEX_NAME, H5_ITER_INC, &idx, visit, &ctx);
	}
	if (ctx.rc != 0)
		return -1;
	if (rc < 0)
		return tbl_fail(r, "%s: cannot list group '%s' (file truncated?)", path, g);
	if (h->nsig == 0)
		return tbl_fail(r, "%s: group '%s' holds no datasets", path, g);
	return tbl_finish_header(r, path);
}
