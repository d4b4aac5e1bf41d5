/* mbmodel.c: the multi-body model file; see mbmodel.h. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mbmodel.h"

/* The message into err, f closed if open; -1. */
static int __attribute__((format(printf, 4, 5)))
fail(FILE *f, char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	if (f)
		fclose(f);
	return -1;
}

int
mbmodel_find(const mbmodel *mm, const char *name)
{
	for (int i = 0; i < mm->m.nb; i++)
		if (strcmp(mm->name[i], name) == 0)
			return i;
	return -1;
}

enum { K_PARENT, K_JOINT, K_AXIS, K_MASS, K_COM, K_INERTIA, NKEYS };

/* What a body's block gave, to check it when the next one opens. */
typedef struct {
	int have[NKEYS], line;
	double mass, com[3], inertia[6];
} pending;

/* Finish body i: its theta from mass, com and inertia, and its checks. */
static int
close_body(mbmodel *mm, int i, const pending *p, const char *path, char *err, size_t len)
{
	static const char *const need[NKEYS] = { "parent", "joint", "axis", "mass", "com", "inertia" };
	for (int k = 0; k < NKEYS; k++)
		if (!p->have[k] && !(k == K_AXIS && mm->m.parent[i] < 0))
			return fail(NULL, err, len, "%s:%d: body '%s' has no '%s'", path, p->line, mm->name[i], need[k]);
	const double *I = p->inertia;
	tagk_real c[3] = { (tagk_real)p->com[0], (tagk_real)p->com[1], (tagk_real)p->com[2] };
	tagk_real Ic[9] = { (tagk_real)I[0], (tagk_real)I[3], (tagk_real)I[4], (tagk_real)I[3], (tagk_real)I[1],
		(tagk_real)I[5], (tagk_real)I[4], (tagk_real)I[5], (tagk_real)I[2] };
	tagk_real *th = mm->theta + TAGK_NPARAM * i;
	tagk_theta_from_body((tagk_real)p->mass, c, Ic, th);
	if (!tagk_triangle(th, (tagk_real)1e-9))
		return fail(NULL, err, len, "%s:%d: body '%s': the inertia is not physical (its principal moments "
		    "break the triangle inequality, or one is negative)", path, p->line, mm->name[i]);
	return 0;
}

/* n numbers after the key into x; 1 if exactly n finite numbers. */
static int
numbers(const char *s, int n, double *x)
{
	for (int i = 0; i < n; i++) {
		char *end;
		errno = 0;
		x[i] = strtod(s, &end);
		if (end == s || errno == ERANGE || !isfinite(x[i]))
			return 0;
		s = end;
	}
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	return *s == 0;
}

int
mbmodel_read(const char *path, mbmodel *mm, char *err, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return fail(NULL, err, len, "%s: %s", path, strerror(errno));
	return mbmodel_read_file(f, path, mm, err, len);
}

int
mbmodel_read_file(FILE *f, const char *path, mbmodel *mm, char *err, size_t len)
{
	memset(mm, 0, sizeof(*mm));
	mm->m.gravity[2] = (tagk_real)-9.81;
	char line[512];
	int ln = 0, cur = -1, roots = 0;
	pending p;
	memset(&p, 0, sizeof(p));
	while (fgets(line, sizeof(line), f)) {
		ln++;
		if (!strchr(line, '\n') && !feof(f))
			return fail(f, err, len, "%s:%d: a line longer than %d characters", path, ln, (int)sizeof(line) - 2);
		char *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		char key[32], word[64];
		double x[6];
		int k;
		if (sscanf(line, " %31s%n", key, &k) != 1)
			continue;
		for (const char *c = key; *c; c++)
			if (*c < '!' || *c > '~')
				return fail(f, err, len, "%s:%d: not a model file (a key with bytes that are not "
				    "printable ASCII)", path, ln);
		const char *rest = line + k;
		if (strcmp(key, "gravity") == 0) {
			if (!numbers(rest, 3, x))
				return fail(f, err, len, "%s:%d: expected 'gravity GX GY GZ'", path, ln);
			for (int i = 0; i < 3; i++)
				mm->m.gravity[i] = (tagk_real)x[i];
			continue;
		}
		if (strcmp(key, "body") == 0) {
			char extra[8];
			if (sscanf(rest, " %63s %7s", word, extra) != 1 || strlen(word) > 31 || strcmp(word, "world") == 0)
				return fail(f, err, len, "%s:%d: expected 'body NAME' (one word, at most 31 characters, "
				    "not 'world')", path, ln);
			if (cur >= 0 && close_body(mm, cur, &p, path, err, len) != 0) {
				fclose(f);
				return -1;
			}
			if (mbmodel_find(mm, word) >= 0)
				return fail(f, err, len, "%s:%d: a second body called '%s'", path, ln, word);
			if (mm->m.nb == TAGK_MB_MAX_BODIES)
				return fail(f, err, len, "%s:%d: at most %d bodies", path, ln, TAGK_MB_MAX_BODIES);
			cur = mm->m.nb++;
			memcpy(mm->name[cur], word, strlen(word) + 1); /* at most 31 characters, checked above */
			for (int i = 0; i < 3; i++)
				for (int j = 0; j < 3; j++)
					mm->m.rot[cur][i * 3 + j] = (tagk_real)(i == j);
			memset(&p, 0, sizeof(p));
			p.line = ln;
			continue;
		}
		if (cur < 0)
			return fail(f, err, len, "%s:%d: '%s' before the first 'body' line", path, ln, key);
		if (strcmp(key, "parent") == 0) {
			if (sscanf(rest, " %63s", word) != 1)
				return fail(f, err, len, "%s:%d: expected 'parent NAME' or 'parent world'", path, ln);
			int par = strcmp(word, "world") == 0 ? -1 : mbmodel_find(mm, word);
			if (par < 0 && strcmp(word, "world") != 0)
				return fail(f, err, len, "%s:%d: parent '%s' is not a body defined above", path, ln, word);
			if (par == cur)
				return fail(f, err, len, "%s:%d: body '%s' is its own parent", path, ln, word);
			if (par < 0 && (++roots > 1 || cur != 0))
				return fail(f, err, len, "%s:%d: only the first body, the base, has parent world", path, ln);
			if (par >= 0 && cur == 0)
				return fail(f, err, len, "%s:%d: the first body is the base: its parent is world", path, ln);
			mm->m.parent[cur] = par;
			p.have[K_PARENT] = 1;
		} else if (strcmp(key, "joint") == 0) {
			if (sscanf(rest, " %63s", word) != 1)
				return fail(f, err, len, "%s:%d: expected 'joint KIND'", path, ln);
			if (cur == 0) {
				if (strcmp(word, "fixed") && strcmp(word, "free"))
					return fail(f, err, len, "%s:%d: the base's joint is fixed or free, not '%s'", path, ln,
					    word);
				mm->m.floating = strcmp(word, "free") == 0;
			} else {
				if (strcmp(word, "revolute") && strcmp(word, "prismatic"))
					return fail(f, err, len, "%s:%d: a joint is revolute or prismatic, not '%s'", path, ln,
					    word);
				mm->m.joint[cur] = strcmp(word, "revolute") == 0 ? TAGK_JOINT_REVOLUTE : TAGK_JOINT_PRISMATIC;
			}
			p.have[K_JOINT] = 1;
		} else if (strcmp(key, "axis") == 0 || strcmp(key, "pos") == 0 || strcmp(key, "com") == 0) {
			if (!numbers(rest, 3, x))
				return fail(f, err, len, "%s:%d: expected '%s X Y Z'", path, ln, key);
			if (key[0] == 'a') {
				double n = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
				if (!(n > 0))
					return fail(f, err, len, "%s:%d: a zero axis", path, ln);
				for (int i = 0; i < 3; i++)
					mm->m.axis[cur][i] = (tagk_real)(x[i] / n);
				p.have[K_AXIS] = 1;
			} else if (key[0] == 'p') {
				for (int i = 0; i < 3; i++)
					mm->m.pos[cur][i] = (tagk_real)x[i];
			} else {
				memcpy(p.com, x, sizeof(p.com));
				p.have[K_COM] = 1;
			}
		} else if (strcmp(key, "quat") == 0) {
			if (!numbers(rest, 4, x))
				return fail(f, err, len, "%s:%d: expected 'quat W X Y Z'", path, ln);
			double n = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3]);
			if (!(n > 0))
				return fail(f, err, len, "%s:%d: a zero quaternion", path, ln);
			tagk_real q[4] = { (tagk_real)(x[0] / n), (tagk_real)(x[1] / n), (tagk_real)(x[2] / n),
				(tagk_real)(x[3] / n) };
			tagk_qmatrix(q, mm->m.rot[cur]);
		} else if (strcmp(key, "mass") == 0) {
			if (!numbers(rest, 1, x) || !(x[0] > 0))
				return fail(f, err, len, "%s:%d: 'mass' needs a positive number (kg)", path, ln);
			p.mass = x[0];
			p.have[K_MASS] = 1;
		} else if (strcmp(key, "inertia") == 0) {
			if (!numbers(rest, 6, x))
				return fail(f, err, len, "%s:%d: expected 'inertia XX YY ZZ XY XZ YZ' (about the centre of "
				    "mass)", path, ln);
			memcpy(p.inertia, x, sizeof(p.inertia));
			p.have[K_INERTIA] = 1;
		} else {
			return fail(f, err, len, "%s:%d: unknown key '%s' (gravity, body, parent, joint, axis, pos, quat, "
			    "mass, com, inertia)", path, ln, key);
		}
	}
	if (ferror(f))
		return fail(f, err, len, "%s: %s", path, strerror(errno));
	fclose(f);
	if (cur < 0)
		return fail(NULL, err, len, "%s: no 'body' lines", path);
	if (close_body(mm, cur, &p, path, err, len) != 0)
		return -1;
	mm->m.parent[0] = -1;
	if (tagk_mb_check(&mm->m) != TAGK_OK)
		return fail(NULL, err, len, "%s: not a valid tree", path);
	return 0;
}

int
mbmodel_write(FILE *f, const mbmodel *mm, const char *comment)
{
	const tagk_mb_model *m = &mm->m;
	if (comment)
		fprintf(f, "# %s\n", comment);
	fprintf(f, "gravity %.17g %.17g %.17g\n", (double)m->gravity[0], (double)m->gravity[1], (double)m->gravity[2]);
	for (int i = 0; i < m->nb; i++) {
		tagk_real c[3], Ic[9], q[4];
		if (!tagk_theta_to_body(mm->theta + TAGK_NPARAM * i, c, Ic))
			return -1;
		tagk_qfrommatrix(m->rot[i], q);
		fprintf(f, "\nbody %s\n  parent %s\n", mm->name[i], i ? mm->name[m->parent[i]] : "world");
		if (i == 0)
			fprintf(f, "  joint %s\n", m->floating ? "free" : "fixed");
		else
			fprintf(f, "  joint %s\n  axis %.17g %.17g %.17g\n", m->joint[i] == TAGK_JOINT_REVOLUTE ? "revolute"
			    : "prismatic", (double)m->axis[i][0], (double)m->axis[i][1], (double)m->axis[i][2]);
		fprintf(f, "  pos %.17g %.17g %.17g\n  quat %.17g %.17g %.17g %.17g\n  mass %.17g\n"
		    "  com %.17g %.17g %.17g\n  inertia %.17g %.17g %.17g %.17g %.17g %.17g\n",
		    (double)m->pos[i][0], (double)m->pos[i][1], (double)m->pos[i][2], (double)q[0], (double)q[1],
		    (double)q[2], (double)q[3],
		    (double)mm->theta[TAGK_NPARAM * i], (double)c[0], (double)c[1], (double)c[2], (double)Ic[0],
		    (double)Ic[4], (double)Ic[8], (double)Ic[1], (double)Ic[2], (double)Ic[5]);
	}
	return ferror(f) ? -1 : 0;
}
