/*
 * report_plot.h: tagk-report --plot, estimates against time drawn with
 * cairo into PNG, SVG or PDF (by the file's extension). One panel per
 * chosen parameter, one coloured line per input stream (several methods on
 * one figure), the truth dashed in black when a stream carries true_*
 * columns, and dotted vertical lines at every change of that truth (payload
 * events). Cairo draws, rasterises and writes the three formats; nothing
 * here serialises a format by hand.
 */
#ifndef TAGK_REPORT_PLOT_H
#define TAGK_REPORT_PLOT_H

#include "../formats/table.h"

typedef struct plot plot;

/* params: "m", a comma list of parameter names, or "all". Dies on a bad
 * list. */
plot *plot_new(const char *params);
/* Read every row of the estimate stream at path ("-": stdin) as one line
 * of the figure, labelled by its file name. */
void plot_read(plot *p, const char *path, const tbl_options *in);
/* Write the figure (width x height pixels, or points for PDF); dies with a
 * one-line message on failure. The file appears only when whole. */
void plot_write(plot *p, const char *path, int width, int height);
void plot_free(plot *p);

#endif
