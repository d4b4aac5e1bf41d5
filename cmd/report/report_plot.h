/*
 * report_plot.h: tagk-report --plot, estimates against time drawn with
 * cairo into PNG, SVG or PDF (by the file's extension). One panel per
 * chosen parameter, one coloured line per input stream (several methods on
 * one figure) with its 95 % band, the truth dashed in black (the streams'
 * true_* columns or a --truth file), dotted vertical lines at every change
 * of that truth (payload events). The y range is the estimates' 1st to
 * 99th percentile widened to the truth, so that one method's spikes do not
 * flatten the others; points beyond it are marked on the panel's edge. Cairo draws, rasterises and writes the three formats; nothing
 * here serialises a format by hand.
 */
#ifndef TAGK_REPORT_PLOT_H
#define TAGK_REPORT_PLOT_H

#include "../formats/table.h"

typedef struct plot plot;

/* params: "m", a comma list of parameter names, or "all". Dies on a bad
 * list. */
plot *plot_new(const char *params);
/* The truth from a file (t, true_X or X), drawn instead of the streams'
 * own: a step function from each row, or straight lines with interp. Call
 * before plot_read. */
void plot_truth(plot *p, const char *path, int interp);
/* Read every row of the estimate stream at path ("-": stdin) as one line
 * of the figure, labelled by the method its #tagk-note names (else its
 * file's name), with a band of +- 1.96 sd where it has sd_* columns. At
 * most 16384 points are kept per stream: a longer one is thinned evenly. */
void plot_read(plot *p, const char *path, const tbl_options *in);
void plot_title(plot *p, const char *title);
/* The default height for the panels chosen (540, taller for more than
 * two rows of panels; more than four parameters take two columns). */
int plot_height(const plot *p);
/* Write the figure (width x height pixels, or points for PDF); dies with a
 * one-line message on failure. The file appears only when whole. */
void plot_write(plot *p, const char *path, int width, int height);
void plot_free(plot *p);

#endif
