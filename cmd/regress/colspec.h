/*
 * colspec.h: a list of a log's columns as a user writes it in --map:
 * comma-separated items, each a column name, a numbered range
 * PREFIX{A..B}SUFFIX (joint{1..7}_pos: joint1_pos .. joint7_pos, A > B
 * counts down), or a glob (*, ?, [...]) matched against the log's columns
 * in their order in the file.
 */
#ifndef TAGK_COLSPEC_H
#define TAGK_COLSPEC_H

#include "../formats/table.h"

enum { COLSPEC_NAME = 128 };

/* Expand spec against r's columns into names (at most max); returns the
 * count. Exits with a one-line error naming opt for a malformed range, a
 * glob that matches nothing, or more than max names. Plain names are not
 * checked against r (the caller says which signal lacks one). */
int colspec_expand(tbl_reader *r, const char *opt, const char *spec, char (*names)[COLSPEC_NAME], int max);

#endif
