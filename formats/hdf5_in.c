/*
 * hdf5_in.c: the HDF5 backend of table.c.
 *
 * What is read. A log is a group holding one dataset per signal, as h5py
 * and pandas users write them:
 * - a 1-D numeric dataset of N values is one column named like the dataset;
 * - an N x k numeric dataset is k columns, named by its "columns" attribute
 *   (a scalar "qw,qx,qy,qz" or a 1-D array of names; fixed or variable
 *   length; ASCII or UTF-8), else "name.0" ... "name.k-1";
 * - a compound (numpy structured) dataset is one column per numeric field
 *   (a field that is an array of k numbers gives "field.0" ...);
 * - datasets in nested groups are named by their path below the group
 *   opened ("imu/acc"); a pandas frame written by to_hdf (format "fixed":
 *   axis1 and blockN_items/blockN_values; format "table": a compound
 *   "table" with index and values_block_N, names from its attributes) gives
 *   its own column names and "index";
 * - datasets that are not numeric (text, references, ...) are skipped;
 * - a soft link to a dataset is a signal named by the link's path, after
 *   the group's own datasets.
 * Every signal must have the same N. Datasets are visited in creation order
 * when the file tracks it, else by name.
 *
 * What is refused. A file is read only from itself: a dataset whose rows
 * are in another file (external storage, a virtual dataset of another
 * file) and a link that leaves the file (external, user-defined) below
 * the group or in its path are refused by name before any value is read,
 * and so are soft links that lead to a group, nowhere, or round a loop.
 * Under these checks the child confines itself (h5sandbox.h: Landlock,
 * seccomp), so that what the checks miss cannot open another file either.
 *
 * How it is read. libhdf5 (1.10 in Debian 12) can crash or hang on a
 * malformed file, so all of its work happens in a child process that
 * streams the table to this process: the header through a pipe, then rows
 * in blocks of 4096, each built in one of two slots of memory the two
 * processes share and announced on the pipe, this process telling the
 * child on a socket when it has read a block (send_shared). When every
 * signal is one column (a log's usual case), the block is its columns,
 * read into the slot by the child (its chunks straight there), and this
 * process gathers each row from them into its own memory, where its
 * checks read it. Where the
 * slots cannot be had, or a block of a wide table does not fit one, the
 * rows go through the pipe itself, built in the child's pages and handed
 * over by reference (pipeout.h; this process, the pipe's only reader,
 * copies them once with read(2)). A child can only spoil the values in
 * the slots, never this process's memory: the lengths it sends are
 * checked. The child has a time limit per step (H5_STEP_SECONDS);
 * if it dies or exceeds it, the reader fails with "FILE: malformed HDF5
 * file (the HDF5 library failed reading it: ...)" and the command ends
 * cleanly, without partial output. Memory does not depend on N.
 */
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include "h5load.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "table_impl.h"
#include "pipeout.h"
#include "outfile.h"
#include "h5sandbox.h"
#include "h5chunk.h"

enum { BLOCK = 4096, H5_STEP_SECONDS = 20, MAX_NAME = 1024, H5_NOTES_MAX = 2048 };
/* The memory the two processes share: two slots, each a block of rows
 * for tables of up to 128 columns (wider ones go through the pipe). Only
 * the pages a block uses are ever touched. */
#define SHM_SLOT ((size_t)4 << 20)
/* A 'C' block's column stride in a slot, in doubles: a block and a cache
 * line, so that the columns a row is gathered from do not all fall in the
 * same cache set (at a stride of 32 KiB they did, and the gather was
 * slower than the child's turning them into rows). */
#define SHM_COL (BLOCK + 8)
/* Declared rows beyond this are refused before any read: 2^36 rows is
 * years of a 1 kHz log, and a damaged header can declare 2^60. */
#define H5_MAX_ROWS ((hsize_t)1 << 36)

/* ---- the child: libhdf5 to a pipe --------------------------------------- */

typedef struct {
	hid_t ds;
	hid_t mtype;      /* memory type: native double, or a compound of doubles */
	int k;            /* columns it provides */
	int rank;
	double *buf;      /* BLOCK x k */
	h5chunk dc;       /* its chunks read directly (h5chunk.h), when dc.on */
} h5sig;

typedef struct {
	int fd;
	unsigned char *shm; /* the shared slots, or NULL */
	int ack;          /* the parent's byte per block let go, when shm */
	hid_t file, group;
	h5sig *sig;
	int nsig;
	int single;       /* every signal is one column (k = 1) */
	hsize_t n;
	int n_set;
	char first[MAX_NAME];
	char **names;     /* column names, in order */
	int ncols;
	char unread[TBL_UNREAD_MAX]; /* "NAME\tWHY\n" of the datasets skipped (tbl_unread) */
	size_t nunread;
	char notes[H5_NOTES_MAX]; /* the group's tagk_notes attribute: "KEY VALUE\n" lines */
	char gpath[MAX_NAME]; /* the group's path through hard links; "" for the root */
	char **soft;      /* link path, target path: the datasets behind soft links */
	int nsoft;
	int skip_checks;  /* TAGK_HDF5_TEST_SKIP_CHECKS in a confined child */
	char err[700];
	const char *path;
} child;

static int
cfail(child *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The child's error, the first one given; but an open the confinement
 * refused (h5sandbox.h) is the reason for whatever failed after it, and
 * is what the message says. */
static int
cfail(child *c, const char *fmt, ...)
{
	if (!c->err[0] && h5sb_denied()[0]) {
		snprintf(c->err, sizeof(c->err), "%s: the HDF5 library tried to open another file, '%s': refused "
		    "(tagk's HDF5 reader may read only the file it is given: tagk-formats(5))", c->path,
		    h5sb_denied());
	} else if (!c->err[0]) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(c->err, sizeof(c->err), fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* -1 (with cfail's message) if the confinement refused an open so far:
 * libhdf5 may have carried on without the file (a virtual dataset's
 * missing source reads as fill values), and nothing it read then counts. */
static int
check_denied(child *c)
{
	return h5sb_denied()[0] ? cfail(c, "-") : 0;
}

static int
add_name(child *c, const char *name)
{
	if (strlen(name) >= MAX_NAME)
		return cfail(c, "%s: a column name is longer than %d bytes", c->path, MAX_NAME - 1);
	char **nn = realloc(c->names, (size_t)(c->ncols + 1) * sizeof(*nn));
	if (!nn)
		return cfail(c, "out of memory");
	c->names = nn;
	if (!(nn[c->ncols] = strdup(name)))
		return cfail(c, "out of memory");
	c->ncols++;
	return 0;
}

/* Read a string attribute, scalar or 1-D, fixed or variable length, into
 * out as a comma-separated list. Returns the number of names (a scalar
 * counts its commas), 0 if the attribute is absent or not text, -1 on error. */
static int
read_names_attr(child *c, hid_t obj, const char *attr, char *out, size_t outlen)
{
	out[0] = 0;
	if (H5Aexists(obj, attr) <= 0)
		return 0;
	hid_t a = H5Aopen(obj, attr, H5P_DEFAULT);
	if (a < 0)
		return 0;
	hid_t at = H5Aget_type(a), sp = H5Aget_space(a);
	int rc = 0;
	int rank = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1;
	hssize_t npts = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
	if (at < 0 || H5Tget_class(at) != H5T_STRING || rank < 0 || rank > 1 || npts < 1 || npts > 4096) {
		rc = 0;
		goto done;
	}
	htri_t var = H5Tis_variable_str(at);
	hid_t mt = H5Tcopy(H5T_C_S1);
	H5Tset_cset(mt, H5Tget_cset(at));
	size_t used = 0;
	if (var > 0) {
		char **p = calloc((size_t)npts, sizeof(*p));
		H5Tset_size(mt, H5T_VARIABLE);
		if (p && H5Aread(a, mt, p) >= 0) {
			for (hssize_t i = 0; i < npts; i++) {
				const char *s = p[i] ? p[i] : "";
				used += (size_t)snprintf(out + used, used < outlen ? outlen - used : 0, "%s%s",
				    i ? "," : "", s);
			}
			rc = (int)npts;
			H5Dvlen_reclaim(mt, sp, H5P_DEFAULT, p);
		} else {
			rc = cfail(c, "%s: cannot read attribute '%s'", c->path, attr);
		}
		free(p);
	} else {
		size_t sz = H5Tget_size(at);
		char *p = sz && sz < 65536 ? calloc((size_t)npts, sz + 1) : NULL;
		H5Tset_size(mt, sz + 1);
		H5Tset_strpad(mt, H5T_STR_NULLTERM);
		if (p && H5Aread(a, mt, p) >= 0) {
			for (hssize_t i = 0; i < npts; i++) {
				char *s = p + (size_t)i * (sz + 1);
				s[sz] = 0;
				used += (size_t)snprintf(out + used, used < outlen ? outlen - used : 0, "%s%s",
				    i ? "," : "", s);
			}
			rc = (int)npts;
		} else {
			rc = cfail(c, "%s: cannot read attribute '%s'", c->path, attr);
		}
		free(p);
	}
	H5Tclose(mt);
	if (rc > 0 && used >= outlen)
		rc = cfail(c, "%s: attribute '%s' is longer than %zu bytes", c->path, attr, outlen - 1);
	if (rc == 1 && npts == 1) { /* a scalar list "a,b,c" */
		rc = 1;
		for (const char *s = out; *s; s++)
			rc += *s == ',';
	}
done:
	if (sp >= 0)
		H5Sclose(sp);
	if (at >= 0)
		H5Tclose(at);
	H5Aclose(a);
	return rc;
}

static int
is_number(hid_t t)
{
	H5T_class_t cls = H5Tget_class(t);
	return cls == H5T_INTEGER || cls == H5T_FLOAT;
}

/* Note a dataset skipped as not numeric, for a caller that wanted it by
 * name (tbl_unread): what it holds, by its type class. Notes past the
 * buffer are dropped; they only sharpen a message. */
static void
note_unread(child *c, const char *name, H5T_class_t cls)
{
	const char *why = cls == H5T_STRING ? "holds text"
	    : cls == H5T_ENUM ? "holds an enumeration (h5py writes booleans so)"
	    : cls == H5T_REFERENCE ? "holds references"
	    : cls == H5T_OPAQUE ? "holds opaque bytes"
	    : cls == H5T_BITFIELD ? "holds bit fields"
	    : cls == H5T_VLEN ? "holds variable-length sequences"
	    : cls == H5T_ARRAY ? "holds an array type" : "holds another type";
	size_t room = sizeof(c->unread) - c->nunread;
	int n = snprintf(c->unread + c->nunread, room, "%s\t%s\n", name, why);
	if (n > 0 && (size_t)n < room && !strpbrk(name, "\t\n"))
		c->nunread += (size_t)n;
	else
		c->unread[c->nunread] = 0;
}

/* Check that storage exists for every declared row: a damaged or unfinished
 * file can declare 2^60 rows of unwritten chunks, which would read as fill
 * values (or never end). */
static int
check_storage(child *c, hid_t ds, const char *name, hsize_t n, hsize_t rowbytes)
{
	if (n > H5_MAX_ROWS)
		return cfail(c, "%s: dataset '%s' declares %llu rows, more than the limit of %llu", c->path,
		    name, (unsigned long long)n, (unsigned long long)H5_MAX_ROWS);
	if (n == 0)
		return 0;
	hid_t dcpl = H5Dget_create_plist(ds);
	H5D_layout_t lay = dcpl >= 0 ? H5Pget_layout(dcpl) : H5D_LAYOUT_ERROR;
	int rc = 0;
	if (lay == H5D_CHUNKED) {
		hsize_t cd[2] = { 1, 1 }, dims[2] = { n, 1 };
		int crank = H5Pget_chunk(dcpl, 2, cd);
		hid_t sp = H5Dget_space(ds);
		int rank = H5Sget_simple_extent_ndims(sp);
		if (rank == 2)
			H5Sget_simple_extent_dims(sp, dims, NULL);
		hsize_t want = 1;
		for (int i = 0; i < crank && i < 2; i++)
			want *= cd[i] ? (dims[i] + cd[i] - 1) / cd[i] : 0;
		hsize_t have = 0;
		herr_t nrc = crank < 1 ? -1 : H5Dget_num_chunks(ds, sp, &have);
		H5Sclose(sp);
		if (nrc < 0 || have < want)
			rc = cfail(c, "%s: dataset '%s' declares %llu rows but only part of it was written "
			    "(%llu of %llu chunks)", c->path, name, (unsigned long long)n,
			    (unsigned long long)have, (unsigned long long)want);
	} else if (lay == H5D_CONTIGUOUS) {
		if (H5Dget_storage_size(ds) < n * rowbytes)
			rc = cfail(c, "%s: dataset '%s' declares %llu rows but its storage holds fewer",
			    c->path, name, (unsigned long long)n);
	}
	if (dcpl >= 0)
		H5Pclose(dcpl);
	return rc;
}

/* Column names from a pandas pickle of a list of strings (the
 * "values_block_N_kind" attribute of a to_hdf table): the strings are the
 * pickle's UNICODE (protocol 0) or (SHORT_)BINUNICODE operands, in order. */
static int
pickle_strings(const unsigned char *p, size_t n, char *out, size_t outlen)
{
	int cnt = 0;
	size_t used = 0;
	if (n > 0 && p[0] != 0x80) {
		/* protocol 0 (what PyTables writes): opcodes one after the other;
		 * V, S, p, g, I, F, L take the rest of the line as argument, V
		 * being a string */
		for (size_t i = 0; i < n; i++) {
			if (!strchr("VSpgIFL", p[i]) || p[i] == 0)
				continue;
			size_t e = i + 1;
			while (e < n && p[e] != '\n')
				e++;
			if (p[i] == 'V') {
				used += (size_t)snprintf(out + used, used < outlen ? outlen - used : 0, "%s%.*s",
				    cnt ? "," : "", (int)(e - i - 1), (const char *)p + i + 1);
				cnt++;
			}
			i = e;
		}
		return used < outlen ? cnt : -1;
	}
	for (size_t i = 0; i < n; i++) {
		size_t len = 0, hdr = 0;
		if (p[i] == 0x8c && i + 1 < n) /* SHORT_BINUNICODE */
			len = p[i + 1], hdr = 2;
		else if (p[i] == 'X' && i + 4 < n) /* BINUNICODE */
			len = (size_t)p[i + 1] | (size_t)p[i + 2] << 8 | (size_t)p[i + 3] << 16 | (size_t)p[i + 4] << 24,
			hdr = 5;
		else
			continue;
		if (i + hdr + len > n || len >= 256)
			continue;
		used += (size_t)snprintf(out + used, used < outlen ? outlen - used : 0, "%s%.*s",
		    cnt ? "," : "", (int)len, (const char *)p + i + hdr);
		cnt++;
		i += hdr + len - 1;
	}
	return used < outlen ? cnt : -1;
}

/* pandas' table format: the names of values_block_N's columns. */
static int
pandas_block_names(child *c, hid_t ds, const char *field, char *out, size_t outlen)
{
	char attr[300];
	snprintf(attr, sizeof(attr), "%s_kind", field);
	out[0] = 0;
	if (H5Aexists(ds, attr) <= 0)
		return 0;
	hid_t a = H5Aopen(ds, attr, H5P_DEFAULT);
	hid_t at = H5Aget_type(a), sp = H5Aget_space(a);
	int rc = 0;
	size_t sz = H5Tget_size(at);
	hssize_t np = H5Sget_simple_extent_npoints(sp);
	/* PyTables stores a pickle as a scalar of opaque or string bytes */
	if (np == 1 && sz > 0 && sz < 65536 && H5Tget_class(at) != H5T_VLEN) {
		unsigned char *buf = malloc(sz);
		if (buf && H5Aread(a, at, buf) >= 0)
			rc = pickle_strings(buf, sz, out, outlen);
		free(buf);
	}
	H5Sclose(sp);
	H5Tclose(at);
	H5Aclose(a);
	(void)c;
	return rc;
}

/* Whether a compound type is how h5py stores complex numbers: two
 * members, r and i. Its columns are then NAME.r and NAME.i: named by their
 * fields alone, as a table's are, two complex signals would both give r
 * and i, and neither would carry its dataset's name. */
static int
h5py_complex(hid_t type)
{
	if (H5Tget_nmembers(type) != 2)
		return 0;
	int ok = 1;
	for (unsigned i = 0; i < 2; i++) {
		char *f = H5Tget_member_name(type, i);
		ok &= f && strcmp(f, i ? "i" : "r") == 0;
		if (f)
			H5free_memory(f);
	}
	return ok;
}

/* The chunk cache ds is read with. None where its chunks each lie
 * within one of read_block's blocks (their row count divides BLOCK): each
 * is read whole, once, and the cache only copied every value once more
 * (13 % of tagk-regress from HDF5's CPU time, perf, on 4096-row chunks).
 * Else room for the chunks across one row of chunks, at least 256 KiB:
 * a chunk that straddles blocks is read (and decompressed) once, where a
 * cache smaller than it had libhdf5 read the whole chunk again for every
 * block (a log stored as one gzip chunk per dataset took time quadratic
 * in its length: 1 s for 200k rows of three). At most 64 MiB a dataset,
 * the bound on the reader's memory; libhdf5 holds a whole chunk to read
 * any of it anyway. */
static size_t
chunk_cache_bytes(hid_t ds)
{
	hid_t dcpl = H5Dget_create_plist(ds), type = H5Dget_type(ds), space = H5Dget_space(ds);
	/* H5S_MAX_RANK: extent_dims writes as many as the dataset has, and
	 * 3-D ones are refused only later */
	hsize_t cd[H5S_MAX_RANK] = { 0, 1 }, dims[H5S_MAX_RANK] = { 0, 1 };
	int chunked = dcpl >= 0 && H5Pget_layout(dcpl) == H5D_CHUNKED && H5Pget_chunk(dcpl, H5S_MAX_RANK, cd) >= 1 &&
	    cd[0] > 0 && cd[1] > 0 && space >= 0 && H5Sget_simple_extent_dims(space, dims, NULL) >= 1;
	size_t esize = type >= 0 ? H5Tget_size(type) : 0;
	if (dcpl >= 0)
		H5Pclose(dcpl);
	if (type >= 0)
		H5Tclose(type);
	if (space >= 0)
		H5Sclose(space);
	size_t lo = 256 * 1024, hi = 64u << 20;
	if (!chunked || esize == 0)
		return lo;
	if (BLOCK % cd[0] == 0)
		return 0;
	double row = (double)cd[0] * (double)cd[1] * (double)esize * (double)((dims[1] + cd[1] - 1) / cd[1]);
	return row < (double)lo ? lo : row > (double)hi ? hi : (size_t)row + 4096;
}

/* ---- what points outside the file --------------------------------------- */

/* Whether ds keeps its rows outside the file: external storage
 * (H5Pset_external: raw bytes of any file, /dev/zero or /etc/passwd
 * alike) or a virtual dataset mapping another file (H5Pset_virtual; a
 * mapping of the file itself, ".", reads only the file). 0, or -1 with a
 * message naming the dataset and what it points to. Checked right after
 * H5Dopen2, before anything asks the dataset's extent: libhdf5 opens a
 * virtual dataset's sources to compute it. */
static int
check_outside(child *c, hid_t ds, const char *name)
{
	if (c->skip_checks)
		return 0;
	hid_t dcpl = H5Dget_create_plist(ds);
	if (dcpl < 0)
		return cfail(c, "%s: dataset '%s': cannot read its storage layout", c->path, name);
	int rc = 0, next = H5Pget_external_count(dcpl);
	char file[512] = "", obj[512] = "";
	size_t nmap = 0;
	if (next > 0) {
		off_t off = 0;
		hsize_t size = 0;
		H5Pget_external(dcpl, 0, sizeof(file), file, &off, &size);
		file[sizeof(file) - 1] = 0;
		rc = cfail(c, "%s: dataset '%s' keeps its rows in another file, '%s' (external storage): tagk "
		    "reads only the file it is given", c->path, name, file);
	} else if (H5Pget_layout(dcpl) == H5D_VIRTUAL && H5Pget_virtual_count(dcpl, &nmap) >= 0) {
		for (size_t i = 0; i < nmap && rc == 0; i++) {
			if (H5Pget_virtual_filename(dcpl, i, file, sizeof(file)) < 0 ||
			    H5Pget_virtual_dsetname(dcpl, i, obj, sizeof(obj)) < 0)
				rc = cfail(c, "%s: dataset '%s' is a virtual dataset whose sources cannot be read", c->path,
				    name);
			else if (strcmp(file, ".") != 0)
				rc = cfail(c, "%s: dataset '%s' is a virtual dataset reading '%s' in another file, '%s': "
				    "tagk reads only the file it is given", c->path, name, obj, file);
		}
	} else if (next < 0) {
		rc = cfail(c, "%s: dataset '%s': cannot read its storage layout", c->path, name);
	}
	H5Pclose(dcpl);
	return rc;
}

enum { MAX_SOFT_HOPS = 16 };

/* The link at link (a path from the root), in another file or of another
 * kind: why it is refused. what says whose path was being resolved
 * ("link 'x'"); direct, that link is what itself names. */
static int
refuse_link(child *c, const char *what, const char *link, const H5L_info_t *li, int direct)
{
	char how[MAX_NAME + 32];
	snprintf(how, sizeof(how), direct ? "%s is" : "%s goes through '%s',", what, link);
	if (li->type != H5L_TYPE_EXTERNAL)
		return cfail(c, "%s: %s a user-defined link (type %d): tagk reads only the file it is given and "
		    "follows only hard and soft links", c->path, how, (int)li->type);
	char val[2048];
	const char *file = "?", *obj = "?";
	unsigned flags;
	if (li->u.val_size <= sizeof(val) && H5Lget_val(c->file, link, val, sizeof(val), H5P_DEFAULT) >= 0)
		H5Lunpack_elink_val(val, li->u.val_size, &flags, &file, &obj);
	return cfail(c, "%s: %s an external link to '%s' in another file, '%s': tagk reads only the file it "
	    "is given", c->path, how, obj, file);
}

/* Resolve path (from the root if it starts with '/', else from dir, a
 * path from the root through hard links only, "" for the root) into out:
 * the same object's path from the root through hard links only. Soft
 * links are followed (MAX_SOFT_HOPS of them at most: more is a loop); an
 * external or user-defined link, or a soft link that leads nowhere, is
 * refused by name, what saying whose path it is ("link 'a'"): -1. A path
 * that does not exist as given: -2, without a message. Each H5Lget_info
 * below traverses only the hard links already checked. */
static int
resolve_path(child *c, const char *dir, const char *path, char *out, size_t outlen, const char *what)
{
	char todo[2 * MAX_NAME], cur[MAX_NAME], probe[MAX_NAME];
	snprintf(todo, sizeof(todo), "%s", path);
	snprintf(cur, sizeof(cur), "%s", path[0] == '/' ? "" : dir);
	for (int hops = 0;;) {
		char *s = todo;
		while (*s == '/' || (s[0] == '.' && (s[1] == '/' || !s[1])))
			s += *s == '/' || !s[1] ? 1 : 2;
		if (!*s)
			break;
		size_t clen = strcspn(s, "/");
		if ((size_t)snprintf(probe, sizeof(probe), "%s/%.*s", cur, (int)clen, s) >= sizeof(probe))
			return cfail(c, "%s: %s: a path longer than %d bytes", c->path, what, MAX_NAME - 1);
		const char *rest = s + clen;
		H5L_info_t li;
		if (H5Lget_info(c->file, probe, &li, H5P_DEFAULT) < 0)
			return hops == 0 ? -2 : cfail(c, "%s: %s leads to '%s', which does not exist", c->path, what, probe);
		if (li.type == H5L_TYPE_HARD) {
			memcpy(cur, probe, strlen(probe) + 1);
			memmove(todo, rest, strlen(rest) + 1);
			continue;
		}
		if (li.type != H5L_TYPE_SOFT)
			return refuse_link(c, what, probe, &li, hops == 0 && !*rest);
		char val[MAX_NAME], next[2 * MAX_NAME];
		if (++hops > MAX_SOFT_HOPS)
			return cfail(c, "%s: %s leads round a loop of soft links (more than %d in a row, at '%s')",
			    c->path, what, MAX_SOFT_HOPS, probe);
		if (li.u.val_size >= sizeof(val) || H5Lget_val(c->file, probe, val, sizeof(val), H5P_DEFAULT) < 0)
			return cfail(c, "%s: %s: cannot read the soft link '%s'", c->path, what, probe);
		val[li.u.val_size < sizeof(val) ? li.u.val_size : sizeof(val) - 1] = 0;
		if ((size_t)snprintf(next, sizeof(next), "%s%s", val, rest) >= sizeof(next))
			return cfail(c, "%s: %s: a path longer than %d bytes", c->path, what, MAX_NAME - 1);
		memcpy(todo, next, strlen(next) + 1);
		if (val[0] == '/')
			cur[0] = 0;
	}
	if ((size_t)snprintf(out, outlen, "%s", cur[0] ? cur : "/") >= outlen)
		return cfail(c, "%s: %s: a path longer than %d bytes", c->path, what, MAX_NAME - 1);
	return 0;
}

typedef struct {
	child *c;
	int rc;
} visit_ctx;

/* H5Lvisit's callback, before any dataset is read: every link below the
 * group that is not a hard link. External and user-defined links are
 * refused, soft links resolved: to a dataset, kept to be read under the
 * link's name (add_soft); to a group, refused (its datasets would come
 * twice, or from outside the group asked for); leading nowhere or round
 * in a loop, refused. Hard links need nothing: H5Lvisit and H5Ovisit go
 * down hard links only. */
static herr_t
check_link(hid_t g, const char *name, const H5L_info_t *li, void *data)
{
	visit_ctx *v = data;
	child *c = v->c;
	(void)g;
	if (li->type == H5L_TYPE_HARD)
		return 0;
	char what[MAX_NAME + 32], target[MAX_NAME];
	snprintf(what, sizeof(what), "link '%s'", name);
	if (strlen(name) >= MAX_NAME) {
		v->rc = cfail(c, "%s: a link path is longer than %d bytes", c->path, MAX_NAME - 1);
		return 1;
	}
	int rc = resolve_path(c, c->gpath, name, target, sizeof(target), what);
	if (rc != 0) {
		v->rc = rc == -2 ? cfail(c, "%s: link '%s' cannot be read", c->path, name) : -1;
		return 1;
	}
	H5O_info_t oi;
	if (H5Oget_info_by_name2(c->file, target, &oi, H5O_INFO_BASIC, H5P_DEFAULT) < 0) {
		v->rc = cfail(c, "%s: link '%s' leads to '%s', which cannot be read", c->path, name, target);
		return 1;
	}
	if (oi.type == H5O_TYPE_GROUP) {
		v->rc = cfail(c, "%s: link '%s' is a soft link to the group '%s': tagk follows soft links to "
		    "datasets only (read that group with --group %s)", c->path, name, target, target);
		return 1;
	}
	if (oi.type != H5O_TYPE_DATASET)
		return 0;
	char **nn = realloc(c->soft, (size_t)(c->nsoft + 1) * 2 * sizeof(*nn));
	if (!nn) {
		v->rc = cfail(c, "out of memory");
		return 1;
	}
	c->soft = nn;
	nn[2 * c->nsoft] = strdup(name);
	nn[2 * c->nsoft + 1] = strdup(target);
	c->nsoft++;
	if (!nn[2 * c->nsoft - 2] || !nn[2 * c->nsoft - 1]) {
		v->rc = cfail(c, "out of memory");
		return 1;
	}
	return 0;
}

/* Dataset path at loc (checked by check_outside), with the chunk cache
 * chunk_cache_bytes chooses: the dataset, -1 if it cannot be opened
 * (skipped, as before), -2 with a message if it points outside. */
static hid_t
open_dataset(child *c, hid_t loc, const char *path, const char *name)
{
	hid_t ds = H5Dopen2(loc, path, H5P_DEFAULT);
	if (ds < 0)
		return ds;
	if (check_outside(c, ds, name) != 0) {
		H5Dclose(ds);
		return -2;
	}
	size_t bytes = chunk_cache_bytes(ds);
	H5Dclose(ds);
	hid_t dapl = H5Pcreate(H5P_DATASET_ACCESS);
	H5Pset_chunk_cache(dapl, 521, bytes, 1.0);
	ds = H5Dopen2(loc, path, dapl);
	H5Pclose(dapl);
	return ds;
}

/* The columns of a compound dataset's numeric fields into s (its memory
 * type, s->k) and c's names: NAME.r/NAME.i for h5py's complex numbers,
 * a pandas table's own names, FIELD.j for an array field, else the
 * field's name. 0 (s->k 0: no numeric field), or -1. */
static int
compound_columns(child *c, h5sig *s, hid_t type, hid_t ds, const char *name, const char *base)
{
	char names[65536];
	int is_pandas_table = strcmp(base, "table") == 0, rc = 0;
	int nm = H5Tget_nmembers(type);
	int cplx = h5py_complex(type);
	s->mtype = H5Tcreate(H5T_COMPOUND, 8);
	size_t off = 0;
	for (int i = 0; i < nm && rc == 0; i++) {
		char *fname = H5Tget_member_name(type, (unsigned)i);
		hid_t ft = H5Tget_member_type(type, (unsigned)i);
		hid_t base_t = ft;
		int nk = 1;
		if (H5Tget_class(ft) == H5T_ARRAY) {
			hsize_t ad[4] = { 0 };
			int ar = H5Tget_array_ndims(ft);
			base_t = H5Tget_super(ft);
			if (ar == 1 && H5Tget_array_dims2(ft, ad) == 1 && ad[0] > 0 && ad[0] < 4096)
				nk = (int)ad[0];
			else
				nk = 0;
		}
		if (fname && nk > 0 && is_number(base_t)) {
			hid_t mt = H5T_NATIVE_DOUBLE, arr = -1;
			if (H5Tget_class(ft) == H5T_ARRAY) {
				hsize_t ad = (hsize_t)nk;
				mt = arr = H5Tarray_create2(H5T_NATIVE_DOUBLE, 1, &ad);
			}
			H5Tset_size(s->mtype, off + 8 * (size_t)nk);
			H5Tinsert(s->mtype, fname, off, mt);
			off += 8 * (size_t)nk;
			if (arr >= 0)
				H5Tclose(arr);
			int got = 0;
			if (is_pandas_table && strncmp(fname, "values_block_", 13) == 0)
				got = pandas_block_names(c, ds, fname, names, sizeof(names));
			if (got == nk) {
				char *save, *tok = strtok_r(names, ",", &save);
				for (int j = 0; j < nk && rc == 0; j++, tok = strtok_r(NULL, ",", &save))
					rc = add_name(c, tok ? tok : "");
			} else if (H5Tget_class(ft) == H5T_ARRAY) {
				for (int j = 0; j < nk && rc == 0; j++) {
					char cn[MAX_NAME + 16];
					snprintf(cn, sizeof(cn), "%s.%d", fname, j);
					rc = add_name(c, cn);
				}
			} else if (cplx) {
				char cn[MAX_NAME + 16];
				snprintf(cn, sizeof(cn), "%s.%s", name, fname);
				rc = add_name(c, cn);
			} else {
				rc = add_name(c, fname);
			}
			s->k += nk;
		}
		if (base_t != ft)
			H5Tclose(base_t);
		H5Tclose(ft);
		if (fname)
			H5free_memory(fname);
	}
	return rc;
}

/* A pandas fixed frame's column names for base "blockN_values", k of
 * them, from its sibling "blockN_items" (a hard link, stored in the file)
 * into c's names: how many were added (0: none there), or -1. */
static int
pandas_items(child *c, hid_t parent, const char *base, int k)
{
	size_t bl = strlen(base);
	if (strncmp(base, "block", 5) != 0 || bl <= 12 || strcmp(base + bl - 7, "_values") != 0)
		return 0;
	char items[MAX_NAME];
	snprintf(items, sizeof(items), "%.*s_items", (int)(bl - 7), base);
	H5L_info_t li;
	if (!c->skip_checks && (H5Lget_info(parent, items, &li, H5P_DEFAULT) < 0 || li.type != H5L_TYPE_HARD))
		return 0;
	hid_t it = H5Dopen2(parent, items, H5P_DEFAULT);
	if (it < 0)
		return 0;
	if (check_outside(c, it, items) != 0) {
		H5Dclose(it);
		return -1;
	}
	int got = 0, rc = 0;
	hid_t itt = H5Dget_type(it), isp = H5Dget_space(it);
	hssize_t np = H5Sget_simple_extent_npoints(isp);
	size_t sz = H5Tget_size(itt);
	if (H5Tget_class(itt) == H5T_STRING && np == k && !H5Tis_variable_str(itt) && sz < 4096) {
		char *p = calloc((size_t)np, sz + 1);
		hid_t mt = H5Tcopy(H5T_C_S1);
		H5Tset_size(mt, sz + 1);
		if (p && H5Dread(it, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, p) >= 0) {
			for (hssize_t j = 0; j < np && rc == 0; j++)
				rc = add_name(c, p + (size_t)j * (sz + 1));
			got = (int)np;
		}
		H5Tclose(mt);
		free(p);
	}
	H5Sclose(isp);
	H5Tclose(itt);
	H5Dclose(it);
	return rc != 0 ? -1 : got;
}

/* The columns of an N or N x k numeric dataset into s and c's names: a
 * pandas fixed frame's blockN_items, the "columns" attribute, or name /
 * name.j ("index" for a pandas frame's axis1). 0, or -1. */
static int
plain_columns(child *c, h5sig *s, hid_t ds, hid_t parent, const char *name, const char *base, int rank,
    hsize_t cols)
{
	char names[65536];
	int rc = 0;
	s->k = (int)cols;
	if (cols > 4096)
		return cfail(c, "%s: dataset '%s' has %llu columns, more than 4096", c->path, name,
		    (unsigned long long)cols);
	s->mtype = H5Tcopy(H5T_NATIVE_DOUBLE);
	int got = pandas_items(c, parent, base, s->k);
	if (got < 0)
		return -1;
	if (!got && rank == 2) {
		got = read_names_attr(c, ds, "columns", names, sizeof(names));
		if (got < 0)
			return -1;
		if (got > 0 && got != s->k)
			return cfail(c, "%s: dataset '%s' has %d columns but its 'columns' attribute names %d",
			    c->path, name, s->k, got);
		if (got > 0) {
			char *save, *tok = strtok_r(names, ",", &save);
			for (int j = 0; j < s->k && rc == 0; j++, tok = strtok_r(NULL, ",", &save))
				rc = add_name(c, tok ? tok : "");
		}
	}
	if (!got && rank == 1) {
		/* a pandas frame's index */
		rc = add_name(c, strcmp(base, "axis1") == 0 && H5Lexists(parent, "block0_values", H5P_DEFAULT) > 0
		    ? "index" : name);
	} else if (!got) {
		for (int j = 0; j < s->k && rc == 0; j++) {
			char cn[MAX_NAME + 16];
			snprintf(cn, sizeof(cn), "%s.%d", name, j);
			rc = add_name(c, cn);
		}
	}
	return rc;
}

/* s, named, among c's signals once its row count agrees with the first
 * signal's and its storage holds every row. 0, or -1. */
static int
keep_signal(child *c, h5sig *s, hid_t type, const char *name, const hsize_t *dims, int compound)
{
	if (!c->n_set) {
		c->n = dims[0];
		c->n_set = 1;
		snprintf(c->first, sizeof(c->first), "%s", name);
	} else if (dims[0] != c->n) {
		return cfail(c, "%s: dataset '%s' has %llu rows but '%s' has %llu", c->path, name,
		    (unsigned long long)dims[0], c->first, (unsigned long long)c->n);
	}
	if (check_storage(c, s->ds, name, dims[0], H5Tget_size(type) * (compound ? 1 : dims[1])) != 0)
		return -1;
	if (!compound)
		h5c_setup(&s->dc, s->ds, s->rank, s->k, dims[0], name);
	s->buf = malloc((size_t)BLOCK * (size_t)s->k * sizeof(double));
	h5sig *ns = realloc(c->sig, (size_t)(c->nsig + 1) * sizeof(*ns));
	if (ns)
		c->sig = ns;
	if (!s->buf || !ns) {
		free(s->buf);
		return cfail(c, "out of memory");
	}
	c->sig[c->nsig++] = *s;
	return 0;
}

/* Add a dataset's signal: path, at loc, is where it is opened, name its
 * path below the opened group (the column's name), base its own name,
 * parent the group it is in. Non-numeric datasets are skipped; one whose
 * rows are outside the file is refused. 0, or -1. */
static int
add_dataset(child *c, hid_t loc, const char *path, hid_t parent, const char *name, const char *base)
{
	hid_t ds = open_dataset(c, loc, path, name);
	if (ds < 0)
		return ds == -2 ? -1 : 0;
	hid_t type = H5Dget_type(ds), space = H5Dget_space(ds);
	int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
	hsize_t dims[2] = { 0, 1 };
	if (rank == 1 || rank == 2)
		H5Sget_simple_extent_dims(space, dims, NULL);
	if (space >= 0)
		H5Sclose(space);
	H5T_class_t cls = type >= 0 ? H5Tget_class(type) : H5T_NO_CLASS;
	int compound = cls == H5T_COMPOUND, rc = 0;
	h5sig s = { .ds = ds, .rank = rank, .k = 0, .mtype = -1 };
	if (!compound && !is_number(type)) /* text, references, ...: not a signal */
		note_unread(c, name, cls);
	else if (rank != 1 && rank != 2)
		rc = cfail(c, "%s: dataset '%s' has %d dimensions; a signal is N or N x k", c->path, name, rank);
	else if (compound && rank != 1)
		rc = cfail(c, "%s: compound dataset '%s' has %d dimensions; a table is 1-D", c->path, name, rank);
	else if (compound)
		rc = compound_columns(c, &s, type, ds, name, base);
	else
		rc = plain_columns(c, &s, ds, parent, name, base, rank, dims[1]);
	/* a signal (a compound one with a numeric field) is kept, and then
	 * owns ds and its memory type */
	if (rc == 0 && (compound ? s.k > 0 : is_number(type)) &&
	    (rc = keep_signal(c, &s, type, name, dims, compound)) == 0) {
		H5Tclose(type);
		return 0;
	}
	if (s.mtype >= 0)
		H5Tclose(s.mtype);
	H5Tclose(type);
	H5Dclose(ds);
	return rc;
}

static herr_t
visit(hid_t obj, const char *name, const H5O_info_t *info, void *data)
{
	visit_ctx *v = data;
	if (info->type != H5O_TYPE_DATASET || strcmp(name, ".") == 0)
		return 0;
	/* PyTables keeps the index of a table "x" in a group "_i_x" (pandas'
	 * to_hdf(format="table", data_columns=...)): search structures, not
	 * signals */
	if (strncmp(name, "_i_", 3) == 0 || strstr(name, "/_i_"))
		return 0;
	if (strlen(name) >= MAX_NAME) {
		v->rc = cfail(v->c, "%s: a dataset path is longer than %d bytes", v->c->path, MAX_NAME - 1);
		return 1;
	}
	char parent_path[MAX_NAME];
	const char *slash = strrchr(name, '/');
	const char *base = slash ? slash + 1 : name;
	snprintf(parent_path, sizeof(parent_path), "%.*s", slash ? (int)(slash - name) : 1, slash ? name : ".");
	hid_t parent = H5Gopen2(obj, parent_path, H5P_DEFAULT);
	if (parent < 0)
		return 0;
	int rc = add_dataset(v->c, v->c->group, name, parent, name, base);
	H5Gclose(parent);
	if (rc != 0) {
		v->rc = -1;
		return 1;
	}
	return 0;
}

/* The datasets check_link found behind soft links, after the group's own:
 * each read from its target, named by the link's path. */
static int
add_soft(child *c)
{
	for (int i = 0; i < c->nsoft; i++) {
		const char *name = c->soft[2 * i], *target = c->soft[2 * i + 1];
		if (strncmp(name, "_i_", 3) == 0 || strstr(name, "/_i_"))
			continue;
		char parent_path[MAX_NAME];
		const char *slash = strrchr(target, '/');
		snprintf(parent_path, sizeof(parent_path), "%.*s", slash > target ? (int)(slash - target) : 1, target);
		hid_t parent = H5Gopen2(c->file, parent_path, H5P_DEFAULT);
		if (parent < 0)
			return cfail(c, "%s: link '%s' leads to '%s', which cannot be read", c->path, name, target);
		int rc = add_dataset(c, c->file, target, parent, name, slash ? slash + 1 : target);
		H5Gclose(parent);
		if (rc != 0)
			return -1;
	}
	return 0;
}

static void
send_error(child *c)
{
	uint32_t l = (uint32_t)strlen(c->err);
	pipeout_write_all(c->fd, "E", 1);
	pipeout_write_all(c->fd, &l, 4);
	pipeout_write_all(c->fd, c->err, l);
}

/* The file with a small metadata cache, or -1. */
static hid_t
open_file(const char *path)
{
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	H5set_free_list_limits(1 << 20, 1 << 18, 1 << 20, 1 << 18, 4 << 20, 1 << 20);
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
	hid_t f = H5Fopen(path, H5F_ACC_RDONLY, fapl);
	H5Pclose(fapl);
	return f;
}

/* Confine this process (h5sandbox.h) around opening the file: Landlock
 * before, seccomp after. What is missing is noted on stderr, or refused
 * when TAGK_REQUIRE_SANDBOX=1. TAGK_HDF5_TEST_SKIP_CHECKS=1 (for tests
 * only: it shows the confinement stopping what the checks would) turns
 * the checks of links and storage off, and only in a child that either
 * layer confines. */
static int
confined_open(child *c)
{
	const char *req = getenv("TAGK_REQUIRE_SANDBOX");
	int require = req && strcmp(req, "1") == 0;
	h5sb_state sb;
	memset(&sb, 0, sizeof(sb));
	h5sb_landlock(&sb, c->path);
	if (require && !sb.landlock)
		return cfail(c, "%s: the HDF5 reader cannot be confined (%s) and TAGK_REQUIRE_SANDBOX=1 asks it to be",
		    c->path, sb.why);
	c->file = open_file(c->path);
	h5sb_seccomp(&sb);
	if (require && !sb.seccomp)
		return cfail(c, "%s: the HDF5 reader cannot be confined (%s) and TAGK_REQUIRE_SANDBOX=1 asks it to be",
		    c->path, sb.why);
	if (sb.why[0])
		fprintf(stderr, "%s: note: %s: the HDF5 reader runs less confined than it can (%s): see "
		    "tagk-formats(5)\n", program_invocation_short_name, c->path, sb.why);
	const char *skip = getenv("TAGK_HDF5_TEST_SKIP_CHECKS");
	c->skip_checks = skip && strcmp(skip, "1") == 0 && (sb.landlock || sb.seccomp);
	if (c->file < 0)
		return cfail(c, "%s: not a readable HDF5 file (truncated or damaged?)", c->path);
	return 0;
}

/* Open the file, confined, and the group (its path through hard and soft
 * links only); refuse any link below it that leaves the file; collect
 * its datasets' signals and the group's notes. 0, or -1. */
static int
child_open(child *c, const char *group)
{
	if (confined_open(c) != 0)
		return -1;
	char what[MAX_NAME + 16];
	int rc = 0;
	snprintf(what, sizeof(what), "group '%s'", group);
	if (strlen(group) >= MAX_NAME)
		return cfail(c, "%s: no group '%s'", c->path, group);
	if (c->skip_checks)
		snprintf(c->gpath, sizeof(c->gpath), "%s", group);
	else if ((rc = resolve_path(c, "", group, c->gpath, sizeof(c->gpath), what)) != 0)
		return rc == -2 ? cfail(c, "%s: no group '%s'", c->path, group) : -1;
	c->group = H5Gopen2(c->file, c->gpath, H5P_DEFAULT);
	if (c->group < 0)
		return cfail(c, "%s: no group '%s'", c->path, group);
	if (strcmp(c->gpath, "/") == 0)
		c->gpath[0] = 0;
	visit_ctx v = { c, 0 };
	if (!c->skip_checks) {
		rc = H5Lvisit(c->group, H5_INDEX_CRT_ORDER, H5_ITER_INC, check_link, &v);
		if (rc < 0 && v.rc == 0 && c->nsoft == 0)
			rc = H5Lvisit(c->group, H5_INDEX_NAME, H5_ITER_INC, check_link, &v);
		if (v.rc != 0)
			return -1;
		if (rc < 0)
			return cfail(c, "%s: cannot list group '%s' (file truncated?)", c->path, group);
	}
	rc = H5Ovisit2(c->group, H5_INDEX_CRT_ORDER, H5_ITER_INC, visit, &v, H5O_INFO_BASIC);
	if (rc < 0 && v.rc == 0 && c->nsig == 0 && c->ncols == 0)
		rc = H5Ovisit2(c->group, H5_INDEX_NAME, H5_ITER_INC, visit, &v, H5O_INFO_BASIC);
	if (v.rc != 0)
		return -1;
	if (rc < 0)
		return cfail(c, "%s: cannot list group '%s' (file truncated?)", c->path, group);
	if (add_soft(c) != 0)
		return -1;
	if (c->nsig == 0)
		return cfail(c, "%s: group '%s' holds no numeric datasets", c->path, group);
	/* tagk's notes (hdf5_out.h), or none; too long an attribute is an
	 * error, not notes cut short */
	return read_names_attr(c, c->group, "tagk_notes", c->notes, sizeof(c->notes)) < 0 ? -1 : 0;
}

/* Rows r0 .. r0 + nrows - 1 of the block into out, from the signals'
 * column buffers, row after row: the rows written in order and each buffer
 * read in order (a column at a time wrote the block with a stride of a
 * row, a seventh of reading). */
static void
rows_from_columns(const child *c, double *out, hsize_t r0, hsize_t nrows)
{
	hsize_t r = r0;
#if defined(__SSE2__)
	if (c->single) {
		/* every signal one column (a log's usual case): two rows of two
		 * columns at a time, a 2x2 transpose in two registers, where the
		 * loop below moved a value at a time (a third of the child's
		 * time, perf) */
		int nc = c->nsig;
		for (; r + 2 <= r0 + nrows; r += 2, out += 2 * nc) {
			int i = 0;
			for (; i + 2 <= nc; i += 2) {
				__m128d a = _mm_loadu_pd(c->sig[i].buf + r), b = _mm_loadu_pd(c->sig[i + 1].buf + r);
				_mm_storeu_pd(out + i, _mm_unpacklo_pd(a, b));
				_mm_storeu_pd(out + nc + i, _mm_unpackhi_pd(a, b));
			}
			if (i < nc) {
				out[i] = c->sig[i].buf[r];
				out[nc + i] = c->sig[i].buf[r + 1];
			}
		}
	}
#endif
	for (; r < r0 + nrows; r++)
		for (int i = 0; i < c->nsig; i++) {
			const h5sig *s = &c->sig[i];
			if (s->k == 1) {
				*out++ = s->buf[r];
			} else {
				memcpy(out, s->buf + r * (hsize_t)s->k, (size_t)s->k * sizeof(double));
				out += s->k;
			}
		}
}

/* Rows b .. b + len - 1 of every signal into its column buffer, or when
 * cols is not NULL (every signal one column) into cols + i * SHM_COL for
 * signal i: by its chunks (h5chunk.h) while they are ones h5c_read
 * decodes, else, from the first that is not, by H5Dread. */
static int
read_block(child *c, hsize_t b, hsize_t len, double *cols)
{
	for (int i = 0; i < c->nsig; i++) {
		h5sig *s = &c->sig[i];
		double *to = cols ? cols + (size_t)i * SHM_COL : s->buf;
		int drc = s->dc.on ? h5c_read(&s->dc, s->ds, b, len, BLOCK, to) : 1;
		if (drc == 0)
			continue;
		if (drc < 0)
			return cfail(c, "%s: dataset '%s': the chunk at row %llu is damaged: %s", c->path,
			    s->dc.name, (unsigned long long)s->dc.bad_row, s->dc.why);
		if (s->dc.on)
			h5c_free(&s->dc);
		hsize_t start[2] = { b, 0 }, count[2] = { len, (hsize_t)(s->rank == 2 ? s->k : 1) };
		hid_t fspace = H5Dget_space(s->ds);
		H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL);
		hid_t mspace = H5Screate_simple(s->rank, count, NULL);
		herr_t rc = H5Dread(s->ds, s->mtype, mspace, fspace, H5P_DEFAULT, to);
		H5Sclose(mspace);
		H5Sclose(fspace);
		if (rc < 0)
			return cfail(c, "%s: cannot read dataset rows %llu.. (file truncated?)", c->path,
			    (unsigned long long)b);
	}
	return 0;
}

/* The block's len rows from the column buffers to the parent: 'B', three
 * zero bytes and the row count (8 bytes, so that what follows stays
 * aligned), then the rows. Through po when there is one, built straight in
 * its slots a few rows at a time (pieces under a page, so that slots go
 * out nearly full, as pipeout asks): the pipe then holds references to
 * the child's pages instead of a copy of every row, and the parent's read
 * copies them once (po only when a row fits in a slot). Else through rows
 * and write(2). */
static int
send_block(const child *c, pipeout *po, double *rows, hsize_t len)
{
	unsigned char hdr[8] = { 'B', 0, 0, 0 };
	uint32_t l = (uint32_t)len;
	memcpy(hdr + 4, &l, 4);
	size_t rowbytes = (size_t)c->ncols * sizeof(double);
	if (!po) {
		rows_from_columns(c, rows, 0, len);
		return pipeout_write_all(c->fd, hdr, 8) || pipeout_write_all(c->fd, rows, (size_t)len * rowbytes)
		    ? -1 : 0;
	}
	unsigned char *p = pipeout_room(po, 8);
	if (!p)
		return -1;
	memcpy(p, hdr, 8);
	pipeout_commit(po, 8);
	hsize_t piece = rowbytes < 2048 ? 2048 / rowbytes : 1;
	for (hsize_t r = 0; r < len; r += piece) {
		hsize_t k = len - r < piece ? len - r : piece;
		if (!(p = pipeout_room(po, (size_t)k * rowbytes)))
			return -1;
		/* slots start on a page and everything put in them is a multiple
		 * of 8 bytes: p is aligned for doubles */
		rows_from_columns(c, (double *)(void *)p, r, k);
		pipeout_commit(po, (size_t)k * rowbytes);
	}
	return 0;
}

/* Shared slot bi % 2 once the parent has let go of the block that
 * filled it before (a byte on c->ack): 0, or -1 if the parent is gone. */
static int
slot_free(const child *c, hsize_t bi)
{
	if (bi >= 2) {
		char a;
		ssize_t g;
		while ((g = read(c->ack, &a, 1)) < 0 && errno == EINTR)
			;
		if (g != 1)
			return -1; /* the parent is gone */
	}
	return 0;
}

/* Block bi's len rows into shared slot bi % 2, once it is free, then
 * 'S', three zero bytes and the row count to the pipe: the parent reads
 * the rows where they are. Through the pipe, its read(2) copied every
 * row (and handing the pages over by reference cost the child as much).
 * With cols (its columns already in the slot, read there by read_block:
 * every signal one column), 'C' instead: the parent gathers each row from
 * the columns, where the child's turning the columns into rows was a
 * twentieth of the command's CPU time from HDF5 (perf). */
static int
send_shared(const child *c, hsize_t bi, hsize_t len, int cols)
{
	if (!cols && slot_free(c, bi) != 0)
		return -1;
	if (!cols)
		rows_from_columns(c, (double *)(void *)(c->shm + (bi & 1) * SHM_SLOT), 0, len);
	unsigned char hdr[8] = { cols ? 'C' : 'S', 0, 0, 0 };
	uint32_t l = (uint32_t)len;
	memcpy(hdr + 4, &l, 4);
	return pipeout_write_all(c->fd, hdr, 8);
}

static int
child_stream(child *c)
{
	uint32_t nc = (uint32_t)c->ncols;
	uint64_t n = c->n;
	if (pipeout_write_all(c->fd, "H", 1) || pipeout_write_all(c->fd, &nc, 4) ||
	    pipeout_write_all(c->fd, &n, 8))
		return -1;
	for (int i = 0; i < c->ncols; i++) {
		uint32_t l = (uint32_t)strlen(c->names[i]);
		if (pipeout_write_all(c->fd, &l, 4) || pipeout_write_all(c->fd, c->names[i], l))
			return -1;
	}
	uint32_t lu = (uint32_t)c->nunread, ln = (uint32_t)strlen(c->notes);
	if (pipeout_write_all(c->fd, &lu, 4) || pipeout_write_all(c->fd, c->unread, lu) ||
	    pipeout_write_all(c->fd, &ln, 4) || pipeout_write_all(c->fd, c->notes, ln))
		return -1;
	/* in the shared slots when the parent made them and a block fits;
	 * else through the pipe, by reference when a row fits in a pipeout
	 * slot (the parent reads with read(2), as pipeout's contract asks),
	 * or as a block of rows to copy */
	size_t rowbytes = (size_t)c->ncols * sizeof(double);
	c->single = 1;
	for (int i = 0; i < c->nsig; i++)
		c->single &= c->sig[i].k == 1;
	int shared = c->shm && (size_t)BLOCK * rowbytes <= SHM_SLOT;
	int cols = shared && c->single && (size_t)SHM_COL * rowbytes <= SHM_SLOT;
	pipeout *po = !shared && rowbytes <= pipeout_slot_size() ? pipeout_open(c->fd) : NULL;
	double *rows = po || shared ? NULL : malloc((size_t)BLOCK * rowbytes);
	if (!po && !shared && !rows)
		return cfail(c, "out of memory");
	int rc = 0;
	for (hsize_t b = 0, bi = 0; b < c->n && rc == 0; b += BLOCK, bi++) {
		hsize_t len = c->n - b < BLOCK ? c->n - b : BLOCK;
		/* columns are read into their slot: it must be free first */
		if (cols && slot_free(c, bi) != 0) {
			rc = -1;
			break;
		}
		alarm(H5_STEP_SECONDS);
		rc = read_block(c, b, len, cols ? (double *)(void *)(c->shm + (bi & 1) * SHM_SLOT) : NULL) != 0 ||
		    check_denied(c) != 0 ? -1 : 0;
		alarm(0); /* the parent may take its time reading */
		if (rc == 0 && (shared ? send_shared(c, bi, len, cols) : send_block(c, po, rows, len)) != 0)
			rc = -1;
	}
	free(rows);
	/* what the slots hold goes out before the end or an error message */
	if (po && pipeout_send(po) != 0)
		rc = -1;
	pipeout_close(po);
	return rc != 0 ? rc : pipeout_write_all(c->fd, "Z", 1);
}

static _Noreturn void
run_child(int fd, unsigned char *shm, int ack, const char *path, const char *group)
{
	/* never run the parent's handlers, nor a sanitizer's or fuzzer's crash
	 * handler: a crash of libhdf5 ends the child, which the parent reports */
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGALRM, SIGSEGV, SIGBUS, SIGFPE,
		SIGILL, SIGABRT };
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	child c;
	memset(&c, 0, sizeof(c));
	c.fd = fd;
	c.shm = shm;
	c.ack = ack;
	c.path = path;
	c.file = c.group = -1;
	alarm(H5_STEP_SECONDS);
	if (child_open(&c, group) != 0 || check_denied(&c) != 0) {
		send_error(&c);
		_exit(0);
	}
	alarm(0);
	if (child_stream(&c) != 0 && c.err[0])
		send_error(&c);
	/* no H5Fclose: the process ends here, and closing a damaged file is one
	 * more place for the library to fail */
	_exit(0);
}

/* ---- the parent: the table backend ------------------------------------- */

typedef struct {
	pid_t pid;
	int fd;
	hsize_t n;
	unsigned char *shm; /* the slots shared with the child, or NULL */
	int ack;          /* a byte to the child per shared block let go */
	long shared;      /* shared blocks received */
	double *buf;      /* BLOCK x ncols, for blocks through the pipe */
	double *blk;      /* the block being read: buf, or a shared slot */
	int cols;         /* blk holds columns, SHM_COL values apart (a 'C' block), not rows */
	uint32_t blen, bpos;
	hsize_t pos;      /* rows returned */
	int done;
} h5in;

static int
rd(int fd, void *p, size_t n)
{
	char *q = p;
	while (n) {
		ssize_t g = read(fd, q, n);
		if (g < 0 && errno == EINTR)
			continue;
		if (g <= 0)
			return -1;
		q += g;
		n -= (size_t)g;
	}
	return 0;
}

/* The child stopped talking: say why, from how it ended. */
static int
child_failed(tbl_reader *r)
{
	h5in *h = r->impl;
	int st = 0;
	pid_t w = h->pid > 0 ? waitpid(h->pid, &st, 0) : -1;
	h->pid = -1;
	if (w > 0 && WIFSIGNALED(st)) {
		int sig = WTERMSIG(st);
		if (sig == SIGALRM)
			return tbl_fail(r, "%s: malformed HDF5 file (the HDF5 library did not finish a read "
			    "within %d s)", r->name, H5_STEP_SECONDS);
		return tbl_fail(r, "%s: malformed HDF5 file (the HDF5 library failed reading it: %s)",
		    r->name, strsignal(sig));
	}
	return tbl_fail(r, "%s: malformed HDF5 file (the HDF5 library failed reading it)", r->name);
}

/* The child's 'E' message after its tag: the command fails with it. */
static int
child_error(tbl_reader *r)
{
	h5in *h = r->impl;
	uint32_t l;
	char msg[800];
	if (rd(h->fd, &l, 4) != 0 || l >= sizeof(msg) || rd(h->fd, msg, l) != 0)
		return child_failed(r);
	msg[l] = 0;
	return tbl_fail(r, "%s", msg);
}

static int
read_message(tbl_reader *r)
{
	h5in *h = r->impl;
	char tag;
	if (rd(h->fd, &tag, 1) != 0)
		return child_failed(r);
	if (tag == 'E')
		return child_error(r);
	if (tag == 'Z') {
		h->done = 1;
		return 0;
	}
	if (tag != 'B' && !((tag == 'S' || tag == 'C') && h->shm))
		return child_failed(r);
	/* a block of rows: three zero bytes and its row count, then for 'B'
	 * the rows themselves, for 'S' nothing (they are in the next slot),
	 * for 'C' nothing (the next slot holds the columns, SHM_COL values
	 * apart, the first l values of each the block's) */
	uint32_t l;
	char pad[3];
	if (rd(h->fd, pad, 3) != 0 || rd(h->fd, &l, 4) != 0 || l == 0 || l > BLOCK)
		return child_failed(r);
	size_t bytes = (size_t)(tag == 'C' ? SHM_COL : l) * (size_t)r->ncols * sizeof(double);
	h->cols = tag == 'C';
	if (tag == 'B') {
		if (rd(h->fd, h->buf, bytes) != 0)
			return child_failed(r);
		h->blk = h->buf;
	} else {
		if (bytes > SHM_SLOT)
			return child_failed(r);
		/* the block before is read: its slot is the child's again (if
		 * the child is gone, its pipe says so next) */
		if (h->shared++ > 0)
			(void)send(h->ack, "A", 1, MSG_NOSIGNAL);
		h->blk = (double *)(void *)(h->shm + (size_t)((h->shared - 1) & 1) * SHM_SLOT);
	}
	h->blen = l;
	h->bpos = 0;
	return 1;
}

static int
h5_next(tbl_reader *r, double *row)
{
	h5in *h = r->impl;
	if (h->bpos == h->blen) {
		if (h->done)
			return 0;
		int rc = read_message(r);
		if (rc <= 0) {
			if (rc == 0 && h->pos != h->n)
				return tbl_fail(r, "%s: %llu rows read of the %llu declared", r->name,
				    (unsigned long long)h->pos, (unsigned long long)h->n);
			return rc;
		}
	}
	h->pos++;
	if (h->cols) {
		/* each value from its column, into this process's memory: the
		 * checks that follow see what is used, whatever the child does;
		 * then the row tested as tbl_next's check would first test it */
		const double *p = h->blk + h->bpos++;
		int nc = r->ncols; /* a local: the stores to row could change r's, to the compiler */
#if defined(__GNUC__)
		/* every eighth row, each column's line 64 rows on: the child
		 * wrote them on another core (a fifth of the gather's time) */
		if ((h->bpos & 7) == 1 && h->bpos + 64 < h->blen) /* within the block's columns */
			for (int i = 0; i < nc; i++)
				__builtin_prefetch(p + (size_t)i * SHM_COL + 64);
#endif
		for (int i = 0; i < nc; i++)
			row[i] = p[(size_t)i * SHM_COL];
		return tbl_all_finite(row, nc) ? TBL_ROW_FINITE : 1;
	}
	memcpy(row, h->blk + (size_t)h->bpos * (size_t)r->ncols, (size_t)r->ncols * sizeof(*row));
	h->bpos++;
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
	if (h->fd >= 0)
		close(h->fd);
	if (h->pid > 0) {
		kill(h->pid, SIGKILL);
		waitpid(h->pid, NULL, 0);
	}
	if (h->ack >= 0)
		close(h->ack);
	if (h->shm)
		munmap(h->shm, 2 * SHM_SLOT);
	free(h->buf);
	free(h);
	r->impl = NULL;
}

/* The notes the child sent after the header: the text's length, then
 * "KEY VALUE" lines; each line kept as a note. */
static int
read_notes(tbl_reader *r)
{
	h5in *h = r->impl;
	uint32_t ln;
	char text[H5_NOTES_MAX];
	if (rd(h->fd, &ln, 4) != 0 || ln >= sizeof(text) || rd(h->fd, text, ln) != 0)
		return -1;
	text[ln] = 0;
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		tbl_add_note(r, line);
	return 0;
}

int
tbl_hdf5_open(tbl_reader *r, const char *path)
{
	h5in *h = calloc(1, sizeof(*h));
	if (!h)
		return tbl_fail(r, "out of memory");
	h->fd = h->ack = -1;
	r->impl = h;
	r->next = h5_next;
	r->where_fn = h5_where;
	r->close = h5_close;
	FILE *probe = fopen(path, "rb");
	if (!probe)
		return tbl_fail(r, "%s: %s", path, strerror(errno));
	outfile_note_input(fileno(probe), path, r->name);
	fclose(probe);
	/* loaded here, so that the child (and the next file's) inherit it:
	 * loading runs no HDF5 code on the file, which is what the child
	 * contains */
	char why[400];
	if (h5_load(why, sizeof(why)) != 0)
		return tbl_fail(r, "%s: %s", path, why);
	int p[2];
	if (pipe(p) != 0)
		return tbl_fail(r, "%s: cannot start the HDF5 reader: %s", path, strerror(errno));
	/* the rows' way back, where the system gives it: else the pipe */
	int ack[2] = { -1, -1 };
	void *shm = mmap(NULL, 2 * SHM_SLOT, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm != MAP_FAILED && socketpair(AF_UNIX, SOCK_STREAM, 0, ack) == 0) {
		h->shm = shm;
		h->ack = ack[0];
	} else if (shm != MAP_FAILED) {
		munmap(shm, 2 * SHM_SLOT);
	}
	fflush(NULL); /* the child must not inherit unwritten stdio buffers */
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		if (ack[1] >= 0)
			close(ack[1]);
		return tbl_fail(r, "%s: cannot start the HDF5 reader: %s", path, strerror(errno));
	}
	if (pid == 0) {
		close(p[0]);
		if (h->ack >= 0)
			close(h->ack);
		run_child(p[1], h->shm, ack[1], path, r->opt.group ? r->opt.group : "/");
	}
	close(p[1]);
	if (ack[1] >= 0)
		close(ack[1]);
#ifdef MADV_DONTFORK
	/* the child of another HDF5 input opened later must not see these
	 * slots: its libhdf5 could write there */
	if (h->shm)
		(void)madvise(h->shm, 2 * SHM_SLOT, MADV_DONTFORK);
#endif
#ifdef F_SETPIPE_SZ
	(void)fcntl(p[0], F_SETPIPE_SZ, 1 << 20); /* the child's blocks in fewer switches */
#endif
	h->pid = pid;
	h->fd = p[0];
	char tag;
	if (rd(h->fd, &tag, 1) != 0)
		return child_failed(r);
	if (tag == 'E')
		return child_error(r);
	uint32_t nc;
	uint64_t n;
	if (tag != 'H' || rd(h->fd, &nc, 4) != 0 || rd(h->fd, &n, 8) != 0 || nc == 0 || nc > 1u << 20)
		return child_failed(r);
	h->n = n;
	for (uint32_t i = 0; i < nc; i++) {
		uint32_t l;
		char name[MAX_NAME];
		if (rd(h->fd, &l, 4) != 0 || l >= sizeof(name) || rd(h->fd, name, l) != 0)
			return child_failed(r);
		if (tbl_add_col(r, name, l) != 0)
			return tbl_fail(r, "out of memory");
	}
	uint32_t lu;
	if (rd(h->fd, &lu, 4) != 0 || lu >= sizeof(r->unread) || rd(h->fd, r->unread, lu) != 0)
		return child_failed(r);
	r->unread[lu] = 0;
	if (read_notes(r) != 0)
		return child_failed(r);
	h->buf = malloc((size_t)BLOCK * nc * sizeof(double));
	if (!h->buf)
		return tbl_fail(r, "out of memory");
	return tbl_finish_header(r, path);
}
