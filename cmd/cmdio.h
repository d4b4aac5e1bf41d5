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
enum { CMDIO_STREAM_OPT = 1005 };
#define CMDIO_OUTPUT_OPTIONS \
	{ "stream", required_argument, NULL, CMDIO_STREAM_OPT }
int cmdio_output_option(int c, const char *arg);
void cmdio_stream_help(FILE *f);

/* The --help lines of the input options, --help and --version. */
void cmdio_input_help(FILE *f);

/* 1 if c (a getopt_long code) was an input option and has been applied. */
int cmdio_input_option(tbl_options *o, int c, const char *arg);

/* Open the input or die (exit 1). */
tbl_reader *cmdio_open_input(const char *path, const tbl_options *o);
/* The columns of a regressor stream (as tagk-regress writes it): t, b, row
 * (-1 when absent, unless need_row) and Y_m ... into iy; returns their
 * number, 1 (mass) or TAGK_NPARAM, or dies naming what is missing. */
int cmdio_regressor_cols(tbl_reader *r, int need_row, int *it, int *ib, int *irow, int *iy);
/* Open the output (path NULL or "-" for stdout) or die (exit 1); it is
 * abandoned automatically if the command dies afterwards. With fmt
 * TBL_AUTO the stream follows --stream: auto (the default) writes tagk's
 * binary stream to a pipe read by tagk commands, CSV to anything else
 * (files by their extension). */
sink *cmdio_open_output(const char *path, tbl_format fmt);
/* Write one row or die. */
void cmdio_row(sink *s, const double *v);
void cmdio_header(sink *s, int n, const char *const *names);
/* Commit the output or die. */
void cmdio_commit(sink *s);

#endif
