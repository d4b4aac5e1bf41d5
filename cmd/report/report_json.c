/*
 * report_json.c: report_json.h's JSON string writer.
 */
#include "report_json.h"

/* The length of the valid UTF-8 sequence at p (1 to 4), or 0 if there is
 * none: no overlong form, no surrogate, nothing past U+10FFFF. */
static int
utf8_len(const unsigned char *p)
{
	int n = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 && p[0] < 0xe0 ? 2 : 0;
	if (p[0] >= 0xf5)
		return 0;
	for (int i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if ((n == 3 && p[0] == 0xe0 && p[1] < 0xa0) || (n == 3 && p[0] == 0xed && p[1] >= 0xa0) ||
	    (n == 4 && p[0] == 0xf0 && p[1] < 0x90) || (n == 4 && p[0] == 0xf4 && p[1] >= 0x90))
		return 0;
	return n;
}

void
report_jstr(FILE *o, const char *s)
{
	if (!s) {
		fputs("null", o);
		return;
	}
	fputc('"', o);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		if (*p == '"' || *p == '\\') {
			fprintf(o, "\\%c", *p++);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(o, "\\u%04x", *p++);
		} else if (*p < 0x80) {
			fputc(*p++, o);
		} else {
			int n = utf8_len(p);
			if (n == 0) {
				fputs("\\ufffd", o);
				p++;
			} else {
				fwrite(p, 1, (size_t)n, o);
				p += n;
			}
		}
	}
	fputc('"', o);
}
