/* table.c: format detection and dispatch to the readers (tbl_open), and the
 * table's accessors and row checks; see table.h. The readers sit below the
 * dispatch, and what they share (table_impl.c) below them. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "table_impl.h"
#include "table_readers.h"
#include "gz.h"
#include "outfile.h"

const char *
tbl_format_label(tbl_format f)
{
	switch (f) {
	case TBL_CSV: return "CSV";
	case TBL_HDF5: return "HDF5";
	case TBL_CFUSD: return "a Crazyflie uSD log";
	case TBL_BINARY: return "a tagk binary stream";
	case TBL_ULOG: return "a PX4 ULog";
	default: return "format unknown";
	}
}

int
tbl_format_parse(const char *s)
{
	if (strcmp(s, "csv") == 0) return TBL_CSV;
	if (strcmp(s, "hdf5") == 0 || strcmp(s, "h5") == 0) return TBL_HDF5;
	if (strcmp(s, "cfusd") == 0) return TBL_CFUSD;
	return -1;
}

tbl_format
tbl_format_from_name(const char *path)
{
	if (!path)
		return TBL_AUTO;
	/* the extension before a final ".gz" counts: run.csv.gz is CSV */
	size_t n = strlen(path);
	if (gz_name(path))
		n -= 3;
	const char *dot = NULL;
	for (size_t i = n; i-- > 0 && path[i] != '/';)
		if (path[i] == '.') {
			dot = path + i;
			break;
		}
	if (!dot)
		return TBL_AUTO;
	size_t len = (size_t)(path + n - dot);
	if (len == 4 && strncmp(dot, ".csv", 4) == 0) return TBL_CSV;
	if ((len == 3 && strncmp(dot, ".h5", 3) == 0) || (len == 5 && strncmp(dot, ".hdf5", 5) == 0))
		return TBL_HDF5;
	return TBL_AUTO;
}

static void
free_reader(tbl_reader *r)
{
	for (int i = 0; i < r->ncols; i++)
		free(r->cols[i]);
	free(r->cols);
	free(r->want);
	free(r->text);
	free(r->name);
	free(r);
}

tbl_reader *
tbl_open(const char *path, const tbl_options *opt, char *err, size_t errlen)
{
	static const tbl_options defaults = { 0 };
	tbl_reader *r = calloc(1, sizeof(*r));
	int is_stdin = !path || strcmp(path, "-") == 0;
	if (!r || !(r->name = strdup(opt && opt->name ? opt->name : is_stdin ? "stdin" : path))) {
		snprintf(err, errlen, "out of memory");
		if (r)
			free(r);
		return NULL;
	}
	r->opt = opt ? *opt : defaults;
	tbl_format fmt = r->opt.format;

	FILE *f = NULL;
	int seekable = 0, is_gz = 0;
	if (fmt != TBL_HDF5) {
		f = is_stdin ? stdin : fopen(path, "rb");
		if (!f) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			free_reader(r);
			return NULL;
		}
		struct stat st;
		if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "%s: is a directory", r->name);
			fclose(f);
			free_reader(r);
			return NULL;
		}
		seekable = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
		outfile_note_input(fileno(f), NULL, r->name);
		FILE *g = gz_wrap_read(f, &is_gz, err, errlen);
		if (!g) {
			if (f != stdin)
				fclose(f);
			free_reader(r);
			return NULL;
		}
		f = g;
		if (is_gz)
			seekable = 0;
	}
	if (fmt == TBL_AUTO || fmt == TBL_CSV) {
		/* Peek at the magic bytes: 0xBC is a Crazyflie uSD log, the HDF5
		 * signature an HDF5 file, 0x93 tagk's binary stream (whatever -f
		 * says: a tagk command may send it to another that was told CSV);
		 * anything else is read as CSV. */
		int c = getc(f);
		if (c == 0x93)
			fmt = TBL_BINARY;
		else if (fmt == TBL_AUTO)
			fmt = c == 0xBC ? TBL_CFUSD : c == 0x89 ? TBL_HDF5 : TBL_CSV;
		if (c != EOF)
			ungetc(c, f);
		if (fmt == TBL_CSV && r->opt.format == TBL_AUTO && c == 'U' && tbl_ulog_sniff(&f) == 1)
			fmt = TBL_ULOG;
		if (fmt == TBL_HDF5) {
			if (is_gz) {
				snprintf(err, errlen, "%s: a gzip-compressed HDF5 file: gunzip it first (HDF5 "
				    "is read with random access)", r->name);
				fclose(f);
				free_reader(r);
				return NULL;
			}
			if (is_stdin || !seekable) {
				snprintf(err, errlen, "%s: HDF5 input must be a file, not a pipe", r->name);
				free_reader(r);
				return NULL;
			}
			fclose(f);
			f = NULL;
		}
	}
	r->format = fmt;
	int rc;
	switch (fmt) {
	case TBL_HDF5:
		if (is_stdin) {
			snprintf(err, errlen, "stdin: HDF5 input must be a file, not a pipe");
			free_reader(r);
			return NULL;
		}
		rc = tbl_hdf5_open(r, path);
		break;
	case TBL_CFUSD:
		rc = tbl_cfusd_open(r, f, seekable);
		break;
	case TBL_BINARY:
		rc = tbl_binary_open(r, f);
		break;
	case TBL_ULOG:
		rc = tbl_ulog_open(r, f);
		break;
	default:
		rc = tbl_csv_open(r, f);
		break;
	}
	if (rc != 0) {
		snprintf(err, errlen, "%s", r->err);
		if (r->close)
			r->close(r);
		else if (f && f != stdin)
			fclose(f);
		free_reader(r);
		return NULL;
	}
	return r;
}

void
tbl_close(tbl_reader *r)
{
	if (!r)
		return;
	if (r->close)
		r->close(r);
	free_reader(r);
}

const char *tbl_name(const tbl_reader *r) { return r->name; }
tbl_format tbl_format_of(const tbl_reader *r) { return r->format; }

int tbl_ncols(const tbl_reader *r) { return r->ncols; }
const char *tbl_col(const tbl_reader *r, int i) { return i >= 0 && i < r->ncols ? r->cols[i] : NULL; }
const char *tbl_error(const tbl_reader *r) { return r->err; }
long tbl_skipped(const tbl_reader *r) { return r->skipped; }

void
tbl_want(tbl_reader *r, int col)
{
	if (col >= 0 && col < r->ncols)
		r->want[col] = 1;
}

void
tbl_want_nullable(tbl_reader *r, int col)
{
	if (col >= 0 && col < r->ncols)
		r->want[col] = 2;
}

void
tbl_want_time(tbl_reader *r, int col)
{
	if (col >= 0 && col < r->ncols) {
		r->want[col] = 1;
		r->tcol1 = col + 1;
	}
}

const char *
tbl_time_origin(const tbl_reader *r)
{
	return r->tstate == 1 ? r->t0text : NULL;
}

void
tbl_want_all(tbl_reader *r)
{
	memset(r->want, 1, (size_t)r->ncols);
}

void
tbl_want_numeric(tbl_reader *r)
{
	tbl_want_all(r);
	r->want_numeric = 1;
	/* An estimate stream's sd_* cells are empty where the method has no
	 * uncertainty (tagk-formats(5)): values, not errors, wherever the
	 * stream is read whole. */
	for (int i = 0; i < r->ncols; i++)
		if (strncmp(r->cols[i], "sd_", 3) == 0)
			r->want[i] = 2;
}

const char *
tbl_note(const tbl_reader *r, const char *key)
{
	size_t k = strlen(key);
	for (int i = 1; i <= r->nnotes; i++) {
		const char *n = r->notes[(r->note_next - i + TBL_NOTES) % TBL_NOTES];
		if (strncmp(n, key, k) == 0 && n[k] == ' ')
			return n + k + 1;
	}
	return NULL;
}

int
tbl_nnotes(const tbl_reader *r)
{
	return r->nnotes;
}

const char *
tbl_note_line(const tbl_reader *r, int i)
{
	if (i < 0 || i >= r->nnotes)
		return NULL;
	return r->notes[(r->note_next - r->nnotes + i + 2 * TBL_NOTES) % TBL_NOTES];
}

int
tbl_is_text(const tbl_reader *r, int col)
{
	return col >= 0 && col < r->ncols && r->text[col];
}

/* Whether cell i holding v is bad: wanted, and Inf, or NaN in a column
 * that is not nullable (want 2 takes NaN as an empty cell). Without
 * branches, so that any_bad's loop vectorises. */
static inline int
cell_bad(const tbl_reader *r, int i, double v)
{
	return (r->want[i] != 0) & !(fabs(v) <= DBL_MAX) & !((r->want[i] == 2) & (v != v));
}

/* Whether row holds a bad cell, without a branch per cell: a loop that
 * stopped at the first was a twentieth of tagk-regress from HDF5 (perf).
 * A row of finite cells (nearly every row) has none, whatever is wanted:
 * that is found first, by each cell's exponent (all ones: NaN or Inf)
 * with three integer operations a cell, where the loop over cell_bad took
 * ten (a third of tagk-regress's reading from HDF5 beyond the chunks,
 * callgrind). */
static int
any_bad(const tbl_reader *r, const double *row)
{
	if (tbl_all_finite(row, r->ncols))
		return 0;
	int any = 0;
	for (int i = 0; i < r->ncols; i++)
		any |= cell_bad(r, i, row[i]);
	return any;
}

int
tbl_next(tbl_reader *r, double *row)
{
	if (r->failed)
		return -1;
	for (;;) {
		int rc = r->next(r, row);
		if (rc == TBL_ROW_FINITE) /* no cell NaN or Inf: none bad */
			return 1;
		if (rc != 1 || r->format == TBL_CSV || r->format == TBL_BINARY)
			return rc; /* these backends check their cells themselves */
		if (!any_bad(r, row))
			return 1;
		int bad = 0;
		while (!cell_bad(r, bad, row[bad]))
			bad++;
		if (r->opt.skip_bad) {
			r->skipped++;
			continue;
		}
		return tbl_fail(r, "%s: column '%s': %s (--skip-bad skips such rows)", tbl_where(r),
		    r->cols[bad], isnan(row[bad]) ? "NaN" : "Inf");
	}
}

const char *
tbl_unread(const tbl_reader *r, const char *name, char *why, size_t len)
{
	size_t nl = strlen(name);
	for (const char *p = r->unread; *p;) {
		const char *tab = strchr(p, '\t'), *end = tab ? strchr(tab, '\n') : NULL;
		if (!end)
			return NULL;
		if ((size_t)(tab - p) == nl && memcmp(p, name, nl) == 0) {
			snprintf(why, len, "%.*s", (int)(end - tab - 1), tab + 1);
			return why;
		}
		p = end + 1;
	}
	return NULL;
}

const char *
tbl_where(tbl_reader *r)
{
	r->where_fn(r, r->where, sizeof(r->where));
	return r->where;
}
