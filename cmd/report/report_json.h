/*
 * report_json.h: text from a file (its name, its notes, the warnings it
 * carries, its column names) as a JSON string. Any byte may come: quotes,
 * backslashes, control bytes and bytes that are not UTF-8 (a name cut in
 * the middle of a character, a Latin-1 file name). RFC 8259 wants UTF-8,
 * so a byte that does not start or continue a valid sequence is written
 * as U+FFFD: the output stays valid JSON for any input.
 */
#ifndef TAGK_REPORT_JSON_H
#define TAGK_REPORT_JSON_H

#include <stdio.h>

/* s between quotes, escaped; NULL as null. */
void report_jstr(FILE *o, const char *s);

#endif
