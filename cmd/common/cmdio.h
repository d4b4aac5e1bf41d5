/*
 * cmdio.h: input and output as every pipeline command handles them: the
 * shared input options (-f, --skip-bad, --ignore-crc, --group, --event),
 * opening the input or dying with a clear message, and one output sink
 * that is committed at the end or abandoned (file removed, or stdout ended
 * with an error marker) whenever the command dies.
 */
#ifndef TAGK_CMDIO_H
#define TAGK_CMDIO_H

#include "../formats/sink.h"
#include "../formats/table.h"
#include "../formats/outfile.h"
#include "../formats/vehicle.h"

/* Long options of the input group, for getopt_long tables; their codes
 * are handled by cmdio_input_option. */
#define CMDIO_INPUT_OPTIONS \
	{ "input-format", required_argument, NULL, 'f' }, \
	{ "skip-bad", no_argument, NULL, 1001 }, \
	{ "ignore-crc", no_argument, NULL, 1002 }, \
	{ "group", required_argument, NULL, 1003 }, \
	{ "event", required_argument, NULL, 1004 }

/* The option that picks standard output's stream (--stream), handled by
 * cmdio_output_option; cmdio_stream_help prints its --help line. */
enum { CMDIO_STREAM_OPT = 1005, CMDIO_FSYNC_OPT = 1006 };
#define CMDIO_OUTPUT_OPTIONS \
	{ "stream", required_argument, NULL, CMDIO_STREAM_OPT }, \
	{ "fsync", no_argument, NULL, CMDIO_FSYNC_OPT }
int cmdio_output_option(int c, const char *arg);
void cmdio_stream_help(FILE *f);
/* The end of a pipeline command's getopt table: -o, --help, --version,
 * the input and output options, the terminator. */
#define CMDIO_OPTIONS_END \
	{ "output", required_argument, NULL, 'o' }, \
	{ "help", no_argument, NULL, 'h' }, \
	{ "version", no_argument, NULL, 'V' }, \
	CMDIO_INPUT_OPTIONS, \
	CMDIO_OUTPUT_OPTIONS, \
	{ NULL, 0, NULL, 0 }

/* The --help lines of the input options, --help and --version. */
void cmdio_input_help(FILE *f);

/* 1 if c (a getopt_long code) was an input option and has been applied. */
int cmdio_input_option(tbl_options *o, int c, const char *arg);

/* Open the input or die (exit 1). */
tbl_reader *cmdio_open_input(const char *path, const tbl_options *o);
/* The columns of a regressor stream (as tagk-regress writes it): t, b, row
 * (-1 when absent, unless need_row) and Y_m ... into iy, each one found
 * marked wanted (tbl_want); returns their number, 1 (mass) or TAGK_NPARAM,
 * or dies naming what is missing. */
int cmdio_regressor_cols(tbl_reader *r, int need_row, int *it, int *ib, int *irow, int *iy);
/* The rows of a regressor stream, sample by sample: rows with the same t
 * form a sample; with a row column they are numbered 0, 1, ... within it
 * (or, every sample alike, from the first sample's first index: the mass
 * rows of an attitude-less log are the z row alone, row 2).
 * A sample cut short (a stream cut or rows lost) is refused wherever it
 * is, the last one included, so that its equations are never used as if
 * whole: with a row column when its count differs from the first
 * sample's; without one when the last sample has fewer rows than every
 * sample before it, which all had the same number. */
typedef struct {
	double t;        /* the current sample's time */
	int rows;        /* rows seen in it */
	int base;        /* the first sample's first row index */
	int rows_per;    /* rows of the first sample, 0 until it is complete */
	int varies;      /* without a row column: the samples' counts differ */
	long samples;    /* complete samples */
} cmdio_samples;
/* One row at time t with row index idx (NAN without a row column); dies on
 * a row out of place or a short sample. Returns 1 if the row starts a new
 * sample (the previous one is then complete), else 0. */
int cmdio_sample_row(cmdio_samples *c, tbl_reader *r, double t, double idx);
/* At the end of the input: the last sample must be whole. */
void cmdio_sample_end(cmdio_samples *c, tbl_reader *r, int have_idx);

/* Open the output (path NULL or "-" for stdout) or die (exit 1); it is
 * abandoned automatically if the command dies afterwards. With fmt
 * TBL_AUTO the stream follows --stream: auto (the default) writes tagk's
 * binary stream to a pipe read by tagk commands, CSV to anything else
 * (files by their extension). */
sink *cmdio_open_output(const char *path, tbl_format fmt);
/* Write one row or die. */
void cmdio_row(sink *s, const double *v);
/* k rows at once (sink_rows), or the same exit. */
void cmdio_rows(sink *s, const double *v, int k);
/* Whether v[0..n) are all finite. Products of finite inputs can overflow
 * (a log's values of 1e200 in the wrong units); a stream with Inf in it is
 * one every tagk reader refuses, so the tool that computed it says so. */
int cmdio_all_finite(const double *v, int n);
/* The end of a "missing column" message: what the input holds under name
 * instead (an HDF5 dataset of text: ": the file has a dataset 'gx', but it
 * holds text, not numbers"), or "". The text lasts until the next call. */
const char *cmdio_unread_hint(const tbl_reader *r, const char *name);
void cmdio_header(sink *s, int n, const char *const *names);
/* Commit the output or die. */
void cmdio_commit(sink *s);
/* The input's "#tagk-note: KEY VALUE" lines (tagk-estimate's method and
 * refused updates) onto the output, oldest first, before cmdio_commit: a
 * command between tagk-estimate and tagk-report must not drop what the
 * report says about the estimate. Call once the input is read to its end,
 * where the notes are. */
void cmdio_pass_notes(sink *s, const tbl_reader *r);

/* A whole output that is not a stream (a report, a model file, a table):
 * path NULL or "-" is standard output; a file goes through outfile.h
 * (an exclusive temporary renamed on success) and is abandoned if the
 * command dies before cmdio_file_commit. One at a time. */
typedef struct {
	FILE *f;
	const char *name;  /* the path, or "stdout" */
	int to_file;
	outfile of;
} cmdio_file;
void cmdio_file_open(cmdio_file *w, const char *path);
/* Flush, close and commit, or die (exit 1) on a write error. */
void cmdio_file_commit(cmdio_file *w);

/* Read the vehicle file name into v (rotors: its rotor lines required), or
 * die naming the line. A bare name (no '/', no such file) is looked up
 * among the vehicles tagk ships: $TAGK_DATADIR/NAME.veh when that is set,
 * ../share/tagk/NAME.veh beside the program when installed,
 * ../datasets/NAME.veh in the source tree. */
void cmdio_vehicle(const char *name, vehicle *v, int rotors);
/* A robot description's path: name itself, or a bare name (panda,
 * panda_nohand) looked up in the same places as NAME, NAME.model,
 * NAME.urdf or NAME.xml; buf holds it (len bytes, 4200 will do). */
const char *cmdio_robot_path(const char *name, char *buf, size_t len);

#endif
