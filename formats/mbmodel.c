/* mbmodel.c: the multi-body model file; see mbmodel.h. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "mbmodel.h"
#include "keyval.h"
#include "outfile.h"
#include "robotxml.h"

static int read_text(FILE *f, const char *path, mbmodel *mm, char *err, size_t len);

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

const char *
mbmodel_merged_into(const mbmodel *mm, const char *name)
{
	for (int i = 0; i < mm->nmerged; i++)
		if (strcmp(mm->merged[i][0], name) == 0)
			return mm->merged[i][1];
	return NULL;
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

/* Physical ranges of the model's values (SI units): a misplaced exponent
 * or a unit slip (mm for m, g for kg) is an error naming the range. */
#define GRAVITY_MAX 100.0   /* m/s^2 per component */
#define POS_MAX 100.0       /* m */
#define MASS_MAX 1e6        /* kg */
#define INERTIA_MAX 1e6     /* kg m^2 */
#define DIR_MAX 1e6         /* axis and quaternion components (normalised after) */

/* The n values after the key, each in [-max, max] (unit in messages). */
static int
numbers(kv_reader *k, int n, double max, const char *unit, const char *usage, double *x)
{
	if (kv_count(k, n, usage) != 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (kv_number(k, 1 + i, -max, max, unit, &x[i]) != 0)
			return -1;
	return 0;
}

int
mbmodel_read(const char *path, mbmodel *mm, char *err, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return fail(NULL, err, len, "%s: %s", path, strerror(errno));
	return mbmodel_read_file(f, path, mm, err, len);
}

/* The state of a read: the body being filled and what it has. */
typedef struct {
	mbmodel *mm;
	int cur, roots, seen_gravity, seen_quat, seen_pos;
	pending p;
} model_read;

static int
body_line(kv_reader *k, model_read *st)
{
	mbmodel *mm = st->mm;
	const char *word = k->w[1];
	if (k->nw != 2 || strlen(word) > 31 || strcmp(word, "world") == 0)
		return kv_fail(k, "expected 'body NAME' (one word, at most 31 characters, not 'world')");
	if (st->cur >= 0 && close_body(mm, st->cur, &st->p, k->path, k->err, k->errlen) != 0)
		return -1;
	if (mbmodel_find(mm, word) >= 0)
		return kv_fail(k, "a second body called '%s'", word);
	if (mm->m.nb == TAGK_MB_MAX_BODIES)
		return kv_fail(k, "at most %d bodies", TAGK_MB_MAX_BODIES);
	st->cur = mm->m.nb++;
	memcpy(mm->name[st->cur], word, strlen(word) + 1); /* at most 31 characters, checked above */
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			mm->m.rot[st->cur][i * 3 + j] = (tagk_real)(i == j);
	memset(&st->p, 0, sizeof(st->p));
	st->seen_quat = st->seen_pos = 0;
	st->p.line = k->line;
	return 0;
}

static int
parent_line(kv_reader *k, model_read *st)
{
	mbmodel *mm = st->mm;
	int cur = st->cur;
	if (kv_once(k, &st->p.have[K_PARENT]) != 0 || kv_count(k, 1, "parent NAME|world") != 0)
		return -1;
	const char *word = k->w[1];
	int par = strcmp(word, "world") == 0 ? -1 : mbmodel_find(mm, word);
	if (par < 0 && strcmp(word, "world") != 0)
		return kv_fail(k, "parent '%s' is not a body defined above", word);
	if (par == cur)
		return kv_fail(k, "body '%s' is its own parent", word);
	if (par < 0 && (++st->roots > 1 || cur != 0))
		return kv_fail(k, "only the first body, the base, has parent world");
	if (par >= 0 && cur == 0)
		return kv_fail(k, "the first body is the base: its parent is world");
	mm->m.parent[cur] = par;
	return 0;
}

static int
joint_line(kv_reader *k, model_read *st)
{
	mbmodel *mm = st->mm;
	if (kv_once(k, &st->p.have[K_JOINT]) != 0 || kv_count(k, 1, "joint KIND") != 0)
		return -1;
	const char *word = k->w[1];
	if (st->cur == 0) {
		if (strcmp(word, "fixed") && strcmp(word, "free"))
			return kv_fail(k, "the base's joint is fixed or free, not '%s'", word);
		mm->m.floating = strcmp(word, "free") == 0;
		return 0;
	}
	if (strcmp(word, "revolute") && strcmp(word, "prismatic"))
		return kv_fail(k, "a joint is revolute or prismatic, not '%s'", word);
	mm->m.joint[st->cur] = strcmp(word, "revolute") == 0 ? TAGK_JOINT_REVOLUTE : TAGK_JOINT_PRISMATIC;
	return 0;
}

/* A key of the current body, after 'body'. */
static int
body_key(kv_reader *k, model_read *st)
{
	mbmodel *mm = st->mm;
	const char *key = k->w[0];
	int cur = st->cur;
	double x[6];
	if (strcmp(key, "parent") == 0)
		return parent_line(k, st);
	if (strcmp(key, "joint") == 0)
		return joint_line(k, st);
	if (strcmp(key, "axis") == 0) {
		if (kv_once(k, &st->p.have[K_AXIS]) || numbers(k, 3, DIR_MAX, "", "axis X Y Z", x))
			return -1;
		double n = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
		if (!(n > 0))
			return kv_fail(k, "a zero axis");
		for (int i = 0; i < 3; i++)
			mm->m.axis[cur][i] = (tagk_real)(x[i] / n);
		return 0;
	}
	if (strcmp(key, "pos") == 0) {
		if (kv_once(k, &st->seen_pos) || numbers(k, 3, POS_MAX, "m", "pos X Y Z", x))
			return -1;
		for (int i = 0; i < 3; i++)
			mm->m.pos[cur][i] = (tagk_real)x[i];
		return 0;
	}
	if (strcmp(key, "com") == 0)
		return kv_once(k, &st->p.have[K_COM]) || numbers(k, 3, POS_MAX, "m", "com X Y Z", st->p.com) ? -1 : 0;
	if (strcmp(key, "quat") == 0) {
		if (kv_once(k, &st->seen_quat) || numbers(k, 4, DIR_MAX, "", "quat W X Y Z", x))
			return -1;
		double n = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3]);
		if (!(n > 0))
			return kv_fail(k, "a zero quaternion");
		tagk_real q[4] = { (tagk_real)(x[0] / n), (tagk_real)(x[1] / n), (tagk_real)(x[2] / n),
			(tagk_real)(x[3] / n) };
		tagk_qmatrix(q, mm->m.rot[cur]);
		return 0;
	}
	if (strcmp(key, "mass") == 0)
		return kv_once(k, &st->p.have[K_MASS]) || kv_count(k, 1, "mass M") ||
		    kv_positive(k, 1, MASS_MAX, "kg", &st->p.mass) ? -1 : 0;
	if (strcmp(key, "inertia") == 0)
		return kv_once(k, &st->p.have[K_INERTIA]) || numbers(k, 6, INERTIA_MAX, "kg m^2",
		    "inertia XX YY ZZ XY XZ YZ (about the centre of mass)", st->p.inertia) ? -1 : 0;
	return kv_fail(k, "unknown key '%s' (gravity, body, parent, joint, axis, pos, quat, mass, com, inertia)", key);
}

static int
model_line(kv_reader *k, model_read *st)
{
	const char *key = k->w[0];
	for (const char *c = key; *c; c++)
		if (*c < '!' || *c > '~')
			return kv_fail(k, "not a model file (a key with bytes that are not printable ASCII)");
	if (strcmp(key, "gravity") == 0) {
		double x[3];
		if (kv_once(k, &st->seen_gravity) || numbers(k, 3, GRAVITY_MAX, "m/s^2", "gravity GX GY GZ", x))
			return -1;
		for (int i = 0; i < 3; i++)
			st->mm->m.gravity[i] = (tagk_real)x[i];
		return 0;
	}
	if (strcmp(key, "body") == 0)
		return body_line(k, st);
	if (st->cur < 0)
		return kv_fail(k, "'%s' before the first 'body' line", key);
	return body_key(k, st);
}

/* A model file or robot description is read whole, and at most this
 * much (tagk-formats(5)): the largest real robot descriptions are a few
 * MB; a larger file is refused before it is read, not after. */
#define MODEL_MAX_BYTES ((size_t)64 << 20)

/* All of f (closed) into a buffer; NULL and a message on failure. */
static char *
slurp(FILE *f, const char *path, size_t *n, char *err, size_t len)
{
	size_t cap = 1 << 16, used = 0;
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
		if ((size_t)st.st_size > MODEL_MAX_BYTES) {
			fclose(f);
			fail(NULL, err, len, "%s: larger than %zu MiB: not a model file or robot description", path,
			    MODEL_MAX_BYTES >> 20);
			return NULL;
		}
		cap = (size_t)st.st_size + 2; /* read whole in one pass, no doubling */
	}
	char *buf = malloc(cap);
	while (buf) {
		used += fread(buf + used, 1, cap - 1 - used, f);
		if (used < cap - 1 || used > MODEL_MAX_BYTES)
			break;
		char *nb = realloc(buf, cap * 2);
		if (!nb) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = nb;
		cap *= 2;
	}
	int bad = ferror(f);
	fclose(f);
	if (!buf || bad || used > MODEL_MAX_BYTES) {
		fail(NULL, err, len, buf && !bad ? "%s: larger than 64 MiB: not a model file or robot description" :
		    buf ? "%s: read error" : "%s: out of memory", path);
		free(buf);
		return NULL;
	}
	buf[used] = 0;
	*n = used;
	return buf;
}

int
mbmodel_read_file(FILE *f, const char *path, mbmodel *mm, char *err, size_t len)
{
	memset(mm, 0, sizeof(*mm));
	outfile_note_input(fileno(f), path, path);
	/* a URDF or MJCF description starts with '<' (after a UTF-8
	 * byte-order mark and blanks); a model text file may start with a
	 * byte-order mark too, which keyval skips */
	size_t n;
	char *buf = slurp(f, path, &n, err, len);
	if (!buf)
		return -1;
	size_t bom = n >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	size_t lead = bom + strspn(buf + bom, " \t\r\n");
	if (lead < n && buf[lead] == '<') {
		int rc = robotxml_read(buf, n, path, mm, err, len);
		free(buf);
		return rc;
	}
	f = n ? fmemopen(buf, n, "r") : NULL;
	if (!f) {
		free(buf);
		return fail(NULL, err, len, "%s: no 'body' lines", path);
	}
	int rc = read_text(f, path, mm, err, len);
	free(buf);
	return rc;
}

static int
read_text(FILE *f, const char *path, mbmodel *mm, char *err, size_t len)
{
	mm->m.gravity[2] = (tagk_real)-9.81;
	model_read st;
	memset(&st, 0, sizeof(st));
	st.mm = mm;
	st.cur = -1;
	kv_reader k;
	kv_init(&k, f, path, err, len);
	int rc;
	while ((rc = kv_next(&k)) == 1)
		if (model_line(&k, &st) != 0) {
			rc = -1;
			break;
		}
	fclose(f);
	if (rc < 0)
		return -1;
	if (st.cur < 0)
		return fail(NULL, err, len, "%s: no 'body' lines", path);
	if (close_body(mm, st.cur, &st.p, path, err, len) != 0)
		return -1;
	mm->m.parent[0] = -1;
	if (tagk_mb_check(&mm->m) != TAGK_OK)
		return fail(NULL, err, len, "%s: not a valid tree", path);
	return 0;
}

/* A value recovered from theta (c = h / m) can land an ulp outside the
 * range it was read in; pull such a rounding overshoot back to the edge,
 * so that what is written reads back. A real overshoot is left alone. */
static double
edge(double x, double max)
{
	if (fabs(x) > max && fabs(x) <= max * (1 + 1e-12))
		return copysign(max, x);
	return x;
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
		    (double)mm->theta[TAGK_NPARAM * i], edge((double)c[0], POS_MAX), edge((double)c[1], POS_MAX),
		    edge((double)c[2], POS_MAX), edge((double)Ic[0], INERTIA_MAX),
		    edge((double)Ic[4], INERTIA_MAX), edge((double)Ic[8], INERTIA_MAX), edge((double)Ic[1], INERTIA_MAX),
		    edge((double)Ic[2], INERTIA_MAX), edge((double)Ic[5], INERTIA_MAX));
	}
	return ferror(f) ? -1 : 0;
}
