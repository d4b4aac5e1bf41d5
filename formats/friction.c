/* friction.c: the joint friction file; see friction.h. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "friction.h"
#include "keyval.h"
#include "numconv.h"
#include "outfile.h"

#define COEF_MAX 1e6  /* N m (s/rad): beyond any joint's friction */
#define SMOOTH_MAX 1e3

int
friction_read(const char *path, friction *fr, char *err, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	return friction_read_file(f, path, fr, err, len);
}

static int
joint_line(kv_reader *k, friction *fr, int *seen)
{
	double j, v[3];
	if (kv_count(k, 4, "joint J FV FC FO") || kv_number(k, 1, 1, FRICTION_MAX_JOINTS, "", &j))
		return -1;
	if (j != floor(j))
		return kv_fail(k, "joint %s: a joint number is a whole number", k->w[1]);
	int i = (int)j - 1;
	if (kv_once(k, &seen[i]) != 0)
		return -1;
	for (int c = 0; c < 3; c++)
		if (kv_number(k, 2 + c, -COEF_MAX, COEF_MAX, c == 0 ? "N m s/rad" : "N m", &v[c]) != 0)
			return -1;
	fr->fv[i] = v[0], fr->fc[i] = v[1], fr->fo[i] = v[2];
	if (i + 1 > fr->n)
		fr->n = i + 1;
	return 0;
}

int
friction_read_file(FILE *f, const char *path, friction *fr, char *err, size_t len)
{
	memset(fr, 0, sizeof(*fr));
	outfile_note_input(fileno(f), path, path);
	int seen[FRICTION_MAX_JOINTS] = { 0 }, seen_smooth = 0, rc;
	kv_reader k;
	kv_init(&k, f, path, err, len);
	while ((rc = kv_next(&k)) == 1) {
		if (strcmp(k.w[0], "joint") == 0)
			rc = joint_line(&k, fr, seen);
		else if (strcmp(k.w[0], "smooth") == 0)
			rc = kv_once(&k, &seen_smooth) || kv_count(&k, 1, "smooth V") ||
			    kv_number(&k, 1, 0, SMOOTH_MAX, "rad/s", &fr->smooth) ? -1 : 0;
		else
			rc = kv_fail(&k, "unknown key '%.40s' (joint, smooth)", k.w[0]);
		if (rc != 0)
			break;
	}
	fclose(f);
	if (rc < 0)
		return -1;
	if (fr->n == 0) {
		snprintf(err, len, "%s: no 'joint' lines", path);
		return -1;
	}
	for (int i = 0; i < fr->n; i++)
		if (!seen[i]) {
			snprintf(err, len, "%s: joints 1 .. %d, but no line for joint %d", path, fr->n, i + 1);
			return -1;
		}
	return 0;
}

static void
put(FILE *f, double x, const char *after)
{
	char b[32];
	num_format(b, x);
	fprintf(f, "%s%s", b, after);
}

int
friction_write(FILE *f, const friction *fr, const char *comment)
{
	for (const char *c = comment; c && *c;) {
		size_t l = strcspn(c, "\n");
		fprintf(f, "# %.*s\n", (int)l, c);
		c += l + (c[l] == '\n');
	}
	if (fr->smooth > 0) {
		fprintf(f, "smooth ");
		put(f, fr->smooth, "\n");
	}
	for (int i = 0; i < fr->n; i++) {
		fprintf(f, "joint %d ", i + 1);
		put(f, fr->fv[i], " ");
		put(f, fr->fc[i], " ");
		put(f, fr->fo[i], "\n");
	}
	return ferror(f) ? -1 : 0;
}

double
friction_torque(const friction *fr, int j, double qd)
{
	double s = fr->smooth > 0 ? tanh(qd / fr->smooth) : (qd > 0) - (qd < 0);
	return fr->fv[j] * qd + fr->fc[j] * s + fr->fo[j];
}
