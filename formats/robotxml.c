/* robotxml.c: URDF and MJCF into a multi-body model; see robotxml.h. The
 * XML is libxml2's (no network, no external entities); this file only walks
 * the tree. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include "numconv.h"
#include "robotxml.h"

enum { RX_MAX = 512 };
/* the model format's ranges (mbmodel.c): what is read here must write back */
#define POS_MAX 100.0
#define MASS_MAX 1e6
#define INERTIA_MAX 1e6
enum { J_FIXED, J_REVOLUTE, J_PRISMATIC, J_FREE };

/* What a robot description may hold: far above the largest real ones
 * (MuJoCo's own test models: 100_humanoids_chol.xml, 1.1 MB, has 8970
 * elements, 38139 attributes, at most 10 on one element, depth 9;
 * flag.xml, 1.7 MB, 2359 elements, depth 30), and low enough that
 * libxml2's tree costs a bounded multiple of the file and its parse is
 * linear: libxml2 2.9 checks an element's attributes for duplicates
 * pairwise (400k attributes on one element took minutes), and spends
 * about 130 bytes on an element (100 MB of <a/> took 3.3 GB). */
enum {
	RX_MAX_BYTES = 64 << 20,
	RX_MAX_ELEMENTS = 100000,
	RX_MAX_ATTRS = 400000,
	RX_MAX_ELEMENT_ATTRS = 64,
	RX_MAX_DEPTH = 128,
	RX_MAX_CLASSES = 1000, /* MJCF default classes (Menagerie's use tens) */
	/* libxml2's tree, measured (peak RSS over the file, 2.9.14, x86-64):
	 * 134 bytes an element (100k <a/>), 120 a text node between two tags
	 * (60k "<a/>\n"), 240 an attribute (400k on 6240 elements); a file
	 * whose tree would cost more than 8 times its size and 8 MiB is
	 * refused, so that reading one costs at most about 10 times the file
	 * (buffer, tree) and the program's own few MB */
	RX_ELEMENT_COST = 140,
	RX_TEXT_COST = 130,
	RX_ATTR_COST = 250,
	RX_TREE_SLACK = 8 << 20,
};

/* A body as the description gives it, before fixed joints are merged. */
typedef struct {
	char name[32];
	int parent, joint, line;
	double pos[3], R[9];   /* parent <- body */
	double axis[3], jpos[3]; /* joint axis and (MJCF) its point, body frame */
	double ref;            /* MJCF joint ref: the joint's value in the pose given */
	double mass, com[3], I[9]; /* I about the com, body axes */
} rx_body;

typedef struct {
	rx_body b[RX_MAX];
	int n;
	double gravity[3];
	const char *path;
	char *err;
	size_t len;
	int degrees;           /* MJCF compiler angle */
	double totalmass;      /* MJCF compiler settotalmass, or 0 */
	char eulerseq[4];
	xmlNode *defaults;     /* MJCF's top <default>, or NULL */
	const xmlNode *jnamed[RX_MAX]; /* MJCF: the joints with a name */
	const xmlNode *classes[RX_MAX_CLASSES]; /* MJCF: the <default> elements */
	int nclasses;
	int njnamed;
	char merged[TAGK_MB_MAX_BODIES][2][32]; /* merged bodies' names and the body each is now part of */
	int nmerged;
} rx;

static int
vfail(rx *x, long line, const char *fmt, va_list ap)
{
	char msg[400];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (line > 0)
		snprintf(x->err, x->len, "%s:%ld: %s", x->path, line, msg);
	else
		snprintf(x->err, x->len, "%s: %s", x->path, msg);
	return -1;
}

/* The message, at n's line (none if n is NULL), into x->err; -1. */
static int __attribute__((format(printf, 3, 4)))
rxfail(rx *x, const xmlNode *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(x, n ? xmlGetLineNo(n) : 0, fmt, ap);
	va_end(ap);
	return -1;
}

/* The same at a line of the file. */
static int __attribute__((format(printf, 3, 4)))
rxfail_line(rx *x, long line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(x, line, fmt, ap);
	va_end(ap);
	return -1;
}

static int
is(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* The value of n's attribute name, or NULL. An attribute with a prefix
 * (x:mass) is not that attribute: MuJoCo and urdfdom (TinyXML) match the
 * whole written name, so x:mass="7" beside mass="1" must not be read as
 * the mass (libxml2 gives both the local name "mass"). */
static const char *
attr(const xmlNode *n, const char *name)
{
	for (xmlAttr *a = n->properties; a; a = a->next)
		if (!a->ns && strcmp((const char *)a->name, name) == 0 && a->children && a->children->content)
			return (const char *)a->children->content;
	return NULL;
}

/* Exactly k numbers in s, each finite and within [-max, max]. */
static int
parse_nums(rx *x, const xmlNode *n, const char *what, const char *s, int k, double max, double *out)
{
	int got = 0;
	while (*s) {
		s += strspn(s, " \t\r\n");
		if (!*s)
			break;
		size_t l = strcspn(s, " \t\r\n");
		double v;
		if (got == k)
			return rxfail(x, n, "%s: more than %d number%s", what, k, k == 1 ? "" : "s");
		if (num_parse(s, l, &v) != 0 || !isfinite(v))
			return rxfail(x, n, "%s: '%.*s' is not a finite number", what, (int)(l < 40 ? l : 40), s);
		if (fabs(v) > max)
			return rxfail(x, n, "%s: %g is outside [-%g, %g]", what, v, max, max);
		out[got++] = v;
		s += l;
	}
	if (got != k)
		return rxfail(x, n, "%s: %d number%s, not %d", what, got, got == 1 ? "" : "s", k);
	return 0;
}

/* Attribute name of n as k numbers: 1 if present, 0 if absent, -1 bad. */
static int
nums(rx *x, const xmlNode *n, const char *name, int k, double max, double *out)
{
	const char *s = attr(n, name);
	if (!s)
		return 0;
	char what[64];
	snprintf(what, sizeof(what), "<%s %s>", (const char *)n->name, name);
	return parse_nums(x, n, what, s, k, max, out) ? -1 : 1;
}

/* ---- rotations ---- */

static void
matmul3(const double *A, const double *B, double *C)
{
	double T[9];
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			T[i * 3 + j] = A[i * 3] * B[j] + A[i * 3 + 1] * B[3 + j] + A[i * 3 + 2] * B[6 + j];
	memcpy(C, T, sizeof(T));
}

static void
matvec3(const double *A, const double *v, double *out)
{
	double t[3];
	for (int i = 0; i < 3; i++)
		t[i] = A[i * 3] * v[0] + A[i * 3 + 1] * v[1] + A[i * 3 + 2] * v[2];
	memcpy(out, t, sizeof(t));
}

/* R (A) R^T */
static void
rotate_tensor(const double *R, const double *A, double *out)
{
	double T[9], Rt[9];
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			Rt[i * 3 + j] = R[j * 3 + i];
	matmul3(R, A, T);
	matmul3(T, Rt, out);
}

static void
axis_angle(const double *u, double a, double *R)
{
	double c = cos(a), s = sin(a), t = 1 - c, x = u[0], y = u[1], z = u[2];
	double M[9] = { t * x * x + c, t * x * y - s * z, t * x * z + s * y, t * x * y + s * z, t * y * y + c,
		t * y * z - s * x, t * x * z - s * y, t * y * z + s * x, t * z * z + c };
	memcpy(R, M, sizeof(M));
}

static int
quat_matrix(rx *x, const xmlNode *n, const double *q, double *R)
{
	double s = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
	if (!(s > 1e-9))
		return rxfail(x, n, "quat: a zero quaternion");
	double w = q[0] / s, a = q[1] / s, b = q[2] / s, c = q[3] / s;
	double M[9] = { 1 - 2 * (b * b + c * c), 2 * (a * b - w * c), 2 * (a * c + w * b), 2 * (a * b + w * c),
		1 - 2 * (a * a + c * c), 2 * (b * c - w * a), 2 * (a * c - w * b), 2 * (b * c + w * a),
		1 - 2 * (a * a + b * b) };
	memcpy(R, M, sizeof(M));
	return 0;
}

/* URDF rpy: fixed axes x, y, z: R = Rz(yaw) Ry(pitch) Rx(roll). */
static void
rpy_matrix(const double *rpy, double *R)
{
	static const double X[3] = { 1, 0, 0 }, Y[3] = { 0, 1, 0 }, Z[3] = { 0, 0, 1 };
	double Rx[9], Ry[9], Rz[9];
	axis_angle(X, rpy[0], Rx);
	axis_angle(Y, rpy[1], Ry);
	axis_angle(Z, rpy[2], Rz);
	matmul3(Rz, Ry, R);
	matmul3(R, Rx, R);
}

/* MuJoCo's xyaxes (user_objects.cc, mjCAlternative::Set): x normalised,
 * y made orthogonal to it and normalised, z = x cross y; the columns of R. */
static int
xyaxes_matrix(rx *x, const xmlNode *n, double *v, double *R)
{
	double s = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
	if (!(s > 1e-14))
		return rxfail(x, n, "<%s xyaxes>: a zero x axis", n->name);
	for (int i = 0; i < 3; i++)
		v[i] /= s;
	double d = v[0] * v[3] + v[1] * v[4] + v[2] * v[5];
	for (int i = 0; i < 3; i++)
		v[3 + i] -= v[i] * d;
	s = sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
	if (!(s > 1e-14))
		return rxfail(x, n, "<%s xyaxes>: the y axis is zero or parallel to x", n->name);
	for (int i = 0; i < 3; i++)
		v[3 + i] /= s;
	double z[3] = { v[1] * v[5] - v[2] * v[4], v[2] * v[3] - v[0] * v[5], v[0] * v[4] - v[1] * v[3] };
	for (int i = 0; i < 3; i++) {
		R[i * 3] = v[i];
		R[i * 3 + 1] = v[3 + i];
		R[i * 3 + 2] = z[i];
	}
	return 0;
}

/* MuJoCo's zaxis (mjuu_z2quat): the least rotation taking (0,0,1) to z;
 * about x by pi when z points down. */
static int
zaxis_matrix(rx *x, const xmlNode *n, const double *v, double *R)
{
	double s = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
	if (!(s > 1e-14))
		return rxfail(x, n, "<%s zaxis>: a zero axis", n->name);
	double z[3] = { v[0] / s, v[1] / s, v[2] / s }, u[3] = { -z[1], z[0], 0 };
	double su = sqrt(u[0] * u[0] + u[1] * u[1]);
	if (su < 1e-10) {
		u[0] = 1, u[1] = 0;
	} else {
		u[0] /= su, u[1] /= su;
	}
	axis_angle(u, atan2(su, z[2]), R);
	return 0;
}

/* An MJCF element's orientation (quat, axisangle, xyaxes, zaxis, euler;
 * identity when none), into R. MuJoCo takes one of them (fullinertia
 * counts as one: it sets the inertial frame), and refuses two. */
static int
mjcf_orientation(rx *x, const xmlNode *n, double *R)
{
	static const double I3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
	double v[6];
	int k;
	memcpy(R, I3, sizeof(I3));
	int given = !!attr(n, "quat") + !!attr(n, "euler") + !!attr(n, "axisangle") + !!attr(n, "xyaxes") +
	    !!attr(n, "zaxis") + !!attr(n, "fullinertia");
	if (given > 1)
		return rxfail(x, n, "<%s>: more than one of quat, axisangle, xyaxes, zaxis, euler and fullinertia (MuJoCo "
		    "refuses it too)", n->name);
	const double unit = x->degrees ? M_PI / 180 : 1;
	if ((k = nums(x, n, "quat", 4, 1e6, v)) != 0)
		return k < 0 ? -1 : quat_matrix(x, n, v, R);
	if ((k = nums(x, n, "xyaxes", 6, 1e6, v)) != 0)
		return k < 0 ? -1 : xyaxes_matrix(x, n, v, R);
	if ((k = nums(x, n, "zaxis", 3, 1e6, v)) != 0)
		return k < 0 ? -1 : zaxis_matrix(x, n, v, R);
	if ((k = nums(x, n, "axisangle", 4, 1e6, v)) != 0) {
		double s = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
		if (k < 0 || !(s > 1e-9))
			return k < 0 ? -1 : rxfail(x, n, "axisangle: a zero axis");
		double u[3] = { v[0] / s, v[1] / s, v[2] / s };
		axis_angle(u, v[3] * unit, R);
		return 0;
	}
	if ((k = nums(x, n, "euler", 3, 1e6, v)) != 0) {
		if (k < 0)
			return -1;
		for (int i = 0; i < 3; i++) {
			char c = x->eulerseq[i];
			double u[3] = { 0, 0, 0 }, Ri[9];
			u[(c | 32) - 'x'] = 1;
			axis_angle(u, v[i] * unit, Ri);
			if (c >= 'a') /* about the moving frame's axis */
				matmul3(R, Ri, R);
			else
				matmul3(Ri, R, R);
		}
	}
	return 0;
}

/* ---- the tree ---- */

static rx_body *
new_body(rx *x, const xmlNode *n, const char *name, int parent)
{
	if (x->n == RX_MAX) {
		rxfail(x, n, "more than %d bodies", RX_MAX);
		return NULL;
	}
	rx_body *b = &x->b[x->n++];
	memset(b, 0, sizeof(*b));
	if (!name || !*name || strlen(name) > 31 || strcmp(name, "world") == 0) {
		if (name && (strlen(name) > 31 || strcmp(name, "world") == 0)) {
			rxfail(x, n, "body name '%.40s': at most 31 characters, and not 'world'", name);
			return NULL;
		}
		snprintf(b->name, sizeof(b->name), "body%d", x->n - 1);
	} else {
		/* one word the model format and a command line can carry */
		for (const char *c = name; *c; c++)
			if (*c <= ' ' || *c > '~' || *c == '#' || *c == ',') {
				rxfail(x, n, "body name '%.40s': one word of printable ASCII, without '#' or ','", name);
				return NULL;
			}
		snprintf(b->name, sizeof(b->name), "%s", name);
	}
	for (int i = 0; i < x->n - 1; i++)
		if (strcmp(x->b[i].name, b->name) == 0) {
			rxfail(x, n, "a second body called '%s'", b->name);
			return NULL;
		}
	b->parent = parent;
	b->line = (int)xmlGetLineNo(n);
	b->R[0] = b->R[4] = b->R[8] = 1;
	b->axis[2] = 1;
	return b;
}

/* Add the mass m at com c with inertia I (about c, in dst's axes) to dst. */
static void
add_inertia(rx_body *dst, double m, const double *c, const double *I)
{
	double M = dst->mass + m, cn[3], Io[9];
	if (!(M > 0)) {
		memset(dst->com, 0, sizeof(dst->com));
		memset(dst->I, 0, sizeof(dst->I));
		dst->mass = 0;
		return;
	}
	for (int i = 0; i < 3; i++)
		cn[i] = (dst->mass * dst->com[i] + m * c[i]) / M;
	/* each part about the new com (parallel axes) */
	const double *parts_c[2] = { dst->com, c }, *parts_I[2] = { dst->I, I }, parts_m[2] = { dst->mass, m };
	memset(Io, 0, sizeof(Io));
	for (int p = 0; p < 2; p++) {
		double d[3] = { parts_c[p][0] - cn[0], parts_c[p][1] - cn[1], parts_c[p][2] - cn[2] };
		double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 3; j++)
				Io[i * 3 + j] += parts_I[p][i * 3 + j] + parts_m[p] * ((i == j) * dd - d[i] * d[j]);
	}
	dst->mass = M;
	memcpy(dst->com, cn, sizeof(cn));
	memcpy(dst->I, Io, sizeof(Io));
}

/* Merge fixed-joint bodies into their parents (last first: a body's fixed
 * children are in it by the time it is merged), drop them, and renumber. */
static void
merge_fixed(rx *x)
{
	int keep[RX_MAX], into[RX_MAX];
	for (int i = x->n - 1; i >= 1; i--) {
		rx_body *b = &x->b[i];
		if (b->joint != J_FIXED || b->parent < 0)
			continue;
		rx_body *p = &x->b[b->parent];
		double c[3], I[9];
		matvec3(b->R, b->com, c);
		for (int k = 0; k < 3; k++)
			c[k] += b->pos[k];
		rotate_tensor(b->R, b->I, I);
		add_inertia(p, b->mass, c, I);
		for (int j = i + 1; j < x->n; j++) {
			rx_body *ch = &x->b[j];
			if (ch->parent != i)
				continue;
			double q[3];
			matvec3(b->R, ch->pos, q);
			for (int k = 0; k < 3; k++)
				ch->pos[k] = b->pos[k] + q[k];
			matmul3(b->R, ch->R, ch->R);
			ch->parent = b->parent;
		}
		into[i] = b->parent;
		b->parent = -2; /* merged */
	}
	x->nmerged = 0;
	for (int i = 1; i < x->n && x->nmerged < TAGK_MB_MAX_BODIES; i++) {
		if (x->b[i].parent != -2)
			continue;
		int o = into[i];
		while (o > 0 && x->b[o].parent == -2)
			o = into[o];
		/* names are under 32 bytes, NUL included (rx_body) */
		memcpy(x->merged[x->nmerged][0], x->b[i].name, sizeof(x->b[i].name));
		memcpy(x->merged[x->nmerged++][1], x->b[o].name, sizeof(x->b[o].name));
	}
	int n = 0;
	for (int i = 0; i < x->n; i++)
		keep[i] = x->b[i].parent == -2 ? -1 : n++;
	n = 0;
	for (int i = 0; i < x->n; i++) {
		if (keep[i] < 0)
			continue;
		rx_body b = x->b[i];
		if (b.parent >= 0)
			b.parent = keep[b.parent];
		x->b[n++] = b;
	}
	x->n = n;
}

/* A joint's point off the body origin (MJCF joint pos): move the body's
 * frame onto it, which is where tagk's body frames sit. */
static void
shift_joint_points(rx *x)
{
	for (int i = 0; i < x->n; i++) {
		rx_body *b = &x->b[i];
		if (b->joint == J_FIXED || b->joint == J_FREE || (!b->jpos[0] && !b->jpos[1] && !b->jpos[2]))
			continue;
		double q[3];
		matvec3(b->R, b->jpos, q);
		for (int k = 0; k < 3; k++) {
			b->pos[k] += q[k];
			b->com[k] -= b->jpos[k];
		}
		for (int j = i + 1; j < x->n; j++)
			if (x->b[j].parent == i)
				for (int k = 0; k < 3; k++)
					x->b[j].pos[k] -= b->jpos[k];
		memset(b->jpos, 0, sizeof(b->jpos));
	}
}

/* MJCF joint ref: the pose given is the joint at ref, so the pose at 0,
 * which is tagk's body frame, is the given one moved back by ref along
 * (slide) or about (hinge) the joint's axis. After shift_joint_points the
 * body frame sits on the joint, so a hinge turns the frame in place. */
static void
apply_refs(rx *x)
{
	for (int i = 0; i < x->n; i++) {
		rx_body *b = &x->b[i];
		double s = sqrt(b->axis[0] * b->axis[0] + b->axis[1] * b->axis[1] + b->axis[2] * b->axis[2]);
		if (b->ref == 0 || !(s > 1e-9))
			continue; /* a zero axis is refused in finish */
		double u[3] = { b->axis[0] / s, b->axis[1] / s, b->axis[2] / s }, Rr[9], q[3];
		if (b->joint == J_REVOLUTE) {
			axis_angle(u, -b->ref, Rr);
			matmul3(b->R, Rr, b->R);
		} else if (b->joint == J_PRISMATIC) {
			matvec3(b->R, u, q);
			for (int k = 0; k < 3; k++)
				b->pos[k] -= b->ref * q[k];
		}
		b->ref = 0;
	}
}

/* MJCF compiler settotalmass: every body's mass and inertia scaled so
 * that they add up to it, after everything else (MuJoCo's
 * mj_setTotalmass, which the compiler runs last). */
static int
scale_total_mass(rx *x)
{
	double total = 0;
	for (int i = 0; i < x->n; i++)
		total += x->b[i].mass;
	if (!(total > 0))
		return rxfail(x, NULL, "compiler settotalmass: the bodies have no mass to scale");
	double f = x->totalmass / total;
	for (int i = 0; i < x->n; i++) {
		x->b[i].mass *= f;
		for (int k = 0; k < 9; k++)
			x->b[i].I[k] *= f;
	}
	return 0;
}

/* The tree into mm. */
static int
finish(rx *x, mbmodel *mm)
{
	if (x->n == 0)
		return rxfail(x, NULL, "no bodies");
	if (x->totalmass > 0 && scale_total_mass(x) != 0)
		return -1;
	shift_joint_points(x);
	apply_refs(x);
	merge_fixed(x);
	for (int i = 1; i < x->n; i++)
		if (x->b[i].joint == J_FREE)
			return rxfail(x, NULL, "body '%s': a free joint below the base (tagk's free joint is the base's)",
			    x->b[i].name);
	if (x->n > TAGK_MB_MAX_BODIES)
		return rxfail(x, NULL, "%d moving bodies and the base: at most %d bodies", x->n - 1, TAGK_MB_MAX_BODIES);
	memset(mm, 0, sizeof(*mm));
	tagk_mb_model *m = &mm->m;
	m->nb = x->n;
	m->floating = x->b[0].joint == J_FREE;
	for (int k = 0; k < 3; k++)
		m->gravity[k] = (tagk_real)x->gravity[k];
	memcpy(mm->merged, x->merged, sizeof(mm->merged));
	mm->nmerged = x->nmerged;
	for (int i = 0; i < x->n; i++) {
		rx_body *b = &x->b[i];
		snprintf(mm->name[i], sizeof(mm->name[i]), "%s", b->name);
		m->parent[i] = i ? b->parent : -1;
		m->joint[i] = b->joint == J_PRISMATIC ? TAGK_JOINT_PRISMATIC : TAGK_JOINT_REVOLUTE;
		double s = sqrt(b->axis[0] * b->axis[0] + b->axis[1] * b->axis[1] + b->axis[2] * b->axis[2]);
		if (i && !(s > 1e-9))
			return rxfail(x, NULL, "body '%s': a zero joint axis", b->name);
		tagk_real c[3], Ic[9];
		for (int k = 0; k < 3; k++) {
			m->axis[i][k] = (tagk_real)(i ? b->axis[k] / s : 0);
			m->pos[i][k] = (tagk_real)b->pos[k];
			c[k] = (tagk_real)b->com[k];
		}
		for (int k = 0; k < 9; k++) {
			m->rot[i][k] = (tagk_real)b->R[k];
			Ic[k] = (tagk_real)(0.5 * (b->I[k] + b->I[(k % 3) * 3 + k / 3]));
		}
		for (int k = 0; k < 3; k++)
			if (!(fabs(b->pos[k]) <= POS_MAX && fabs(b->com[k]) <= POS_MAX))
				return rxfail(x, NULL, "body '%s': its origin or centre of mass (after fixed bodies are merged) "
				    "lies beyond %g m", b->name, POS_MAX);
		for (int k = 0; k < 9; k++)
			if (!(fabs(b->I[k]) <= INERTIA_MAX) || !(b->mass <= MASS_MAX))
				return rxfail(x, NULL, "body '%s': its mass or inertia (after fixed bodies are merged) is beyond "
				    "%g", b->name, MASS_MAX);
		tagk_real *th = mm->theta + TAGK_NPARAM * i;
		tagk_theta_from_body((tagk_real)b->mass, c, Ic, th);
		if (b->mass > 0 && !tagk_triangle(th, (tagk_real)1e-9))
			return rxfail(x, NULL, "body '%s' (line %d): the inertia is not physical (its principal moments "
			    "break the triangle inequality, or one is negative)", b->name, b->line);
	}
	if (tagk_mb_check(m) != TAGK_OK)
		return rxfail(x, NULL, "not a valid tree (a rotation that is not orthonormal?)");
	return 0;
}

/* ---- MJCF ---- */

/* Refuses a name that two of nodes[0..n) (links, or joints; each with a
 * name) share. In URDF a joint's <parent link> would name either, and the
 * tree tagk builds would depend on which it finds first; MuJoCo refuses
 * MJCF with a repeated joint name, which is a copy left unrenamed. */
static int
unique_names(rx *x, const xmlNode *const *nodes, int n, const char *what)
{
	for (int i = 1; i < n; i++)
		for (int j = 0; j < i; j++)
			if (strcmp(attr(nodes[i], "name"), attr(nodes[j], "name")) == 0)
				return rxfail(x, nodes[i], "%s '%s' is defined twice (first on line %ld)", what,
				    attr(nodes[i], "name"), xmlGetLineNo(nodes[j]));
	return 0;
}


/* The attributes of the MJCF elements that build the tree (MuJoCo 2.2's
 * and the newer ones of its current schema, src/xml/generated/
 * mjcf_table.inc): each is read here, or does not change the rigid-body
 * dynamics (names, groups, limits, the constraint solver's settings,
 * springs, damping, friction loss, armature: tagk-formats(5) says why),
 * or is checked for the value that changes nothing (mocap, gravcomp,
 * align). Any other (a newer MuJoCo's, a typo) is refused, named, rather
 * than taken to mean nothing. */
static const char *const body_attrs[] = { "name", "childclass", "pos", "quat", "axisangle", "xyaxes", "zaxis",
	"euler", "mocap", "gravcomp", "user", NULL };
static const char *const inertial_attrs[] = { "pos", "quat", "axisangle", "xyaxes", "zaxis", "euler", "mass",
	"diaginertia", "fullinertia", NULL };
static const char *const joint_attrs[] = { "name", "class", "type", "group", "pos", "axis", "ref", "springdamper",
	"limited", "actuatorfrclimited", "solreflimit", "solimplimit", "solreffriction", "solimpfriction", "stiffness",
	"range", "actuatorfrcrange", "actuatorgravcomp", "margin", "springref", "armature", "damping",
	"frictionloss", "user", NULL };
static const char *const freejoint_attrs[] = { "name", "group", "align", NULL };
static const char *const compiler_attrs[] = { "angle", "eulerseq", "settotalmass", "coordinate", "boundmass",
	"boundinertia", "balanceinertia", "inertiafromgeom", "alignfree", "autolimits", "strippath", "fitaabb",
	"meshdir", "texturedir", "assetdir", "discardvisual", "convexhull", "usethread", "fusestatic",
	"inertiagrouprange", "exactmeshinertia", "saveinertial", NULL };

static int
known_attrs(rx *x, const xmlNode *n, const char *const *known)
{
	for (const xmlAttr *a = n->properties; a; a = a->next) {
		if (a->ns)
			return rxfail(x, n, "<%s %.20s:%.40s>: an attribute with a namespace prefix, which MuJoCo does not "
			    "read (write it without the prefix, or remove it)", n->name,
			    a->ns->prefix ? (const char *)a->ns->prefix : "", a->name);
		int k = 0;
		while (known[k] && strcmp(known[k], (const char *)a->name) != 0)
			k++;
		if (!known[k])
			return rxfail(x, n, "<%s %.40s>: an attribute tagk does not know, so cannot say it leaves the dynamics "
			    "alone (remove it, or save the model with MuJoCo's mj_saveLastXML)", n->name, a->name);
	}
	return 0;
}

/* Refuses attribute name of n when present and its value is not one of
 * the values that change nothing (a '|'-separated list) or, for a
 * number, not 0 (ok "0"). */
static int
only_value(rx *x, const xmlNode *n, const char *name, const char *ok, const char *why)
{
	const char *v = attr(n, name);
	if (!v)
		return 0;
	if (strcmp(ok, "0") == 0) {
		double d;
		if (parse_nums(x, n, name, v, 1, 1e300, &d) != 0)
			return -1;
		if (d <= 0)
			return 0;
	} else {
		size_t l = strlen(v);
		for (const char *o = ok; *o; o += strcspn(o, "|"), o += *o == '|')
			if (strncmp(o, v, l) == 0 && (o[l] == 0 || o[l] == '|'))
				return 0;
	}
	return rxfail(x, n, "<%s %s=\"%.40s\">: not read: %s", n->name, name, v, why);
}

static const xmlNode *find_class(rx *x, const char *name);

/* A <default> k below n into the class table: under <mujoco> (the one
 * "main") or another <default>, with a name no other class has. */
static int
mjcf_class(rx *x, const xmlNode *n, const xmlNode *k)
{
	const char *c = attr(k, "class");
	if (!is(n, "default") && !is(n, "mujoco"))
		return rxfail(x, k, "<default> inside <%s>: classes are defined under <mujoco>", n->name);
	if (is(n, "default") && !c)
		return rxfail(x, k, "a <default> inside another without a class");
	if (is(n, "mujoco") && c && strcmp(c, "main") != 0)
		return rxfail(x, k, "the top <default> is class main, not '%.40s'", c);
	if (x->nclasses == RX_MAX_CLASSES)
		return rxfail(x, k, "more than %d default classes", RX_MAX_CLASSES);
	if (find_class(x, c ? c : "main"))
		return rxfail(x, k, "default class '%.40s' defined twice", c ? c : "main");
	x->classes[x->nclasses++] = k;
	return 0;
}

/* MJCF elements that build bodies or joints tagk cannot follow, anywhere
 * in the document; and the attributes of <default>'s joints. */
static int
mjcf_scan(rx *x, const xmlNode *n, int depth)
{
	for (const xmlNode *k = n->children; k; k = k->next) {
		if (k->type != XML_ELEMENT_NODE)
			continue;
		if (is(k, "include"))
			return rxfail(x, k, "<include> is not read: tagk reads the one file it is given (expand the model into "
			    "one file, e.g. with MuJoCo's mj_saveLastXML)");
		if (is(k, "frame") || is(k, "replicate") || is(k, "attach") || is(k, "composite") || is(k, "flexcomp"))
			return rxfail(x, k, "<%s> is not read (expand the model with MuJoCo first)", k->name);
		if (is(k, "equality") && xmlFirstElementChild((xmlNode *)k))
			return rxfail(x, k, "<equality> constraints are not read: a closed loop or coupled joints are not a "
			    "tree of independent joints");
		if (is(k, "default") && mjcf_class(x, n, k) != 0)
			return -1;
		if (is(k, "joint") && is(n, "default")) {
			if (n->_private)
				return rxfail(x, k, "a second <joint> in one <default> (MuJoCo allows one)");
			((xmlNode *)n)->_private = (void *)k;
			if (known_attrs(x, k, joint_attrs) != 0)
				return -1;
		}
		if (depth < RX_MAX_DEPTH && mjcf_scan(x, k, depth + 1) != 0)
			return -1;
	}
	return 0;
}

/* <compiler>: what it sets, what it is refused for. */
static int
mjcf_compiler(rx *x, const xmlNode *k)
{
	const char *a = attr(k, "angle"), *e = attr(k, "eulerseq");
	if (known_attrs(x, k, compiler_attrs) != 0)
		return -1;
	if (a && strcmp(a, "radian") && strcmp(a, "degree"))
		return rxfail(x, k, "compiler angle '%s' (radian or degree)", a);
	if (a)
		x->degrees = strcmp(a, "degree") == 0;
	if (e && (strlen(e) != 3 || strspn(e, "xyzXYZ") != 3))
		return rxfail(x, k, "compiler eulerseq '%s' (three of x, y, z, X, Y, Z)", e);
	if (e)
		memcpy(x->eulerseq, e, 4);
	if (attr(k, "settotalmass") && parse_nums(x, k, "<compiler settotalmass>", attr(k, "settotalmass"), 1, MASS_MAX,
	    &x->totalmass) != 0)
		return -1;
	if (only_value(x, k, "coordinate", "local", "positions and orientations in the world frame (MuJoCo 2.3.3 "
	    "dropped them too)") || only_value(x, k, "boundmass", "0", "it raises masses below it") ||
	    only_value(x, k, "boundinertia", "0", "it raises inertias below it") ||
	    only_value(x, k, "balanceinertia", "false", "it changes inertias that break the triangle inequality") ||
	    only_value(x, k, "inertiafromgeom", "false|auto", "tagk does not infer inertia from geometry") ||
	    only_value(x, k, "alignfree", "false", "it moves a free body's frame onto its centre of mass"))
		return -1;
	return 0;
}

/* <option>: gravity, and <flag gravity="disable">, which MuJoCo's inverse
 * dynamics honours. Its other settings are the simulation's (time step,
 * solver, contacts) or passive forces (wind, density, viscosity): not
 * the rigid-body dynamics tagk estimates. */
static int
mjcf_option(rx *x, const xmlNode *k, int *nogravity)
{
	if (nums(x, k, "gravity", 3, 100, x->gravity) < 0)
		return -1;
	for (const xmlNode *f = k->children; f; f = f->next)
		if (is(f, "flag") && attr(f, "gravity")) {
			const char *g = attr(f, "gravity");
			if (strcmp(g, "enable") && strcmp(g, "disable"))
				return rxfail(x, f, "<flag gravity=\"%.40s\">: enable or disable", g);
			*nogravity = strcmp(g, "disable") == 0;
		}
	return 0;
}

/* The <default class=name> node (the top one for "main"), or NULL: from
 * the table mjcf_scan made, not a walk of the tree per lookup. */
static const xmlNode *
find_class(rx *x, const char *name)
{
	for (int i = 0; i < x->nclasses; i++) {
		const char *c = attr(x->classes[i], "class");
		if (strcmp(c ? c : "main", name) == 0)
			return x->classes[i];
	}
	return NULL;
}

/* A joint attribute: the element's own, else its class's (up the default
 * tree), else NULL. A class's <joint>, if any, is its _private (mjcf_scan). */
static const char *
joint_attr(rx *x, const xmlNode *j, const char *cls, const char *name)
{
	const char *v = attr(j, name);
	if (v)
		return v;
	const char *own = attr(j, "class");
	for (const xmlNode *d = find_class(x, own ? own : cls); d && is(d, "default"); d = d->parent)
		if (d->_private && (v = attr(d->_private, name)))
			return v;
	return NULL;
}

static int
mjcf_joint(rx *x, rx_body *b, const xmlNode *j, const char *cls)
{
	if (attr(j, "name") && x->njnamed < RX_MAX)
		x->jnamed[x->njnamed++] = j;
	if (is(j, "freejoint")) {
		b->joint = J_FREE;
		return known_attrs(x, j, freejoint_attrs) || only_value(x, j, "align", "false",
		    "it moves the body's frame onto its centre of mass") ? -1 : 0;
	}
	if (known_attrs(x, j, joint_attrs) != 0)
		return -1;
	if (attr(j, "class") && !find_class(x, attr(j, "class")))
		return rxfail(x, j, "class '%.40s': no such default class", attr(j, "class"));
	const char *type = joint_attr(x, j, cls, "type");
	if (!type || strcmp(type, "hinge") == 0)
		b->joint = J_REVOLUTE;
	else if (strcmp(type, "slide") == 0)
		b->joint = J_PRISMATIC;
	else if (strcmp(type, "free") == 0)
		b->joint = J_FREE;
	else
		return rxfail(x, j, "joint type '%s' is not read (hinge, slide or free)", type);
	const char *s;
	if ((s = joint_attr(x, j, cls, "axis")) && parse_nums(x, j, "<joint axis>", s, 3, 1e6, b->axis))
		return -1;
	if ((s = joint_attr(x, j, cls, "pos")) && parse_nums(x, j, "<joint pos>", s, 3, POS_MAX, b->jpos))
		return -1;
	if ((s = joint_attr(x, j, cls, "ref")) && parse_nums(x, j, "<joint ref>", s, 1, 1e6, &b->ref))
		return -1;
	if (b->joint == J_REVOLUTE && x->degrees)
		b->ref *= M_PI / 180;
	if (b->joint == J_FREE)
		b->ref = 0; /* MuJoCo ignores ref but for hinge and slide joints */
	return 0;
}

static int
mjcf_inertial(rx *x, rx_body *b, const xmlNode *n)
{
	double R[9], d[6];
	int k;
	if (known_attrs(x, n, inertial_attrs) != 0)
		return -1;
	if (nums(x, n, "pos", 3, POS_MAX, b->com) < 0 || mjcf_orientation(x, n, R) != 0)
		return -1;
	if ((k = nums(x, n, "mass", 1, 1e6, &b->mass)) <= 0)
		return k < 0 ? -1 : rxfail(x, n, "<inertial>: no mass");
	if (b->mass < 0)
		return rxfail(x, n, "<inertial mass>: negative");
	double I[9] = { 0 };
	if ((k = nums(x, n, "fullinertia", 6, 1e6, d)) != 0) {
		if (k < 0)
			return -1;
		double F[9] = { d[0], d[3], d[4], d[3], d[1], d[5], d[4], d[5], d[2] };
		memcpy(I, F, sizeof(F));
	} else if ((k = nums(x, n, "diaginertia", 3, 1e6, d)) != 0) {
		if (k < 0)
			return -1;
		I[0] = d[0], I[4] = d[1], I[8] = d[2];
	} else if (b->mass > 0)
		return rxfail(x, n, "<inertial>: neither diaginertia nor fullinertia");
	rotate_tensor(R, I, b->I);
	return 0;
}

static int
mjcf_body(rx *x, const xmlNode *n, int parent, const char *cls)
{
	rx_body *b = new_body(x, n, attr(n, "name"), parent);
	if (!b)
		return -1;
	const int me = x->n - 1;
	const char *cc = attr(n, "childclass");
	if (known_attrs(x, n, body_attrs) || only_value(x, n, "mocap", "false", "a mocap body moves as data says, not "
	    "by a joint") || only_value(x, n, "gravcomp", "0", "gravity compensation changes the torques"))
		return -1;
	if (cc) {
		if (!find_class(x, cc))
			return rxfail(x, n, "childclass '%s': no such default class", cc);
		cls = cc;
	}
	if (nums(x, n, "pos", 3, POS_MAX, b->pos) < 0 || mjcf_orientation(x, n, b->R) != 0)
		return -1;
	int joints = 0, inertial = 0, geoms = 0;
	for (xmlNode *k = n->children; k; k = k->next) {
		if (is(k, "joint") || is(k, "freejoint")) {
			if (++joints > 1)
				return rxfail(x, k, "body '%s' has two joints: tagk's model has one joint per body "
				    "(split it into bodies of one joint each)", b->name);
			if (mjcf_joint(x, b, k, cls) != 0)
				return -1;
		} else if (is(k, "inertial")) {
			if (inertial++)
				return rxfail(x, k, "body '%s' has two <inertial>", b->name);
			if (mjcf_inertial(x, b, k) != 0)
				return -1;
		} else if (is(k, "geom"))
			geoms++;
	}
	if (!inertial && geoms)
		return rxfail(x, n, "body '%s' has geoms but no <inertial>: tagk does not infer inertia from geometry "
		    "(add <inertial>, or save the compiled model with mj_saveLastXML)", b->name);
	if (b->joint == J_FREE && parent > 0)
		return rxfail(x, n, "body '%s': a free joint below the base", b->name);
	for (xmlNode *k = n->children; k; k = k->next)
		if (is(k, "body") && mjcf_body(x, k, me, cls) != 0)
			return -1;
	return 0;
}

static int
mjcf(rx *x, xmlNode *root)
{
	x->gravity[2] = -9.81;
	x->degrees = 1; /* MJCF's default unit */
	snprintf(x->eulerseq, sizeof(x->eulerseq), "xyz");
	xmlNode *world = NULL;
	int nogravity = 0;
	if (mjcf_scan(x, root, 0) != 0)
		return -1;
	/* MuJoCo reads every <compiler> and <option> before the bodies, a
	 * later attribute over an earlier one, as this loop does */
	for (xmlNode *k = root->children; k; k = k->next) {
		if (is(k, "compiler") && mjcf_compiler(x, k) != 0)
			return -1;
		if (is(k, "option") && mjcf_option(x, k, &nogravity) != 0)
			return -1;
		if ((is(k, "default") && x->defaults) || (is(k, "worldbody") && world))
			return rxfail(x, k, "a second <%s>: give the model in one", k->name);
		if (is(k, "default"))
			x->defaults = k;
		else if (is(k, "worldbody"))
			world = k;
	}
	if (nogravity)
		memset(x->gravity, 0, sizeof(x->gravity));
	if (!world)
		return rxfail(x, root, "no <worldbody>");
	if (world->properties)
		return rxfail(x, world, "<worldbody> has attributes (MuJoCo allows none)");
	/* the world as a fixed, massless base: the top body merges into it
	 * unless it moves (a hinge to the world) */
	rx_body *w = new_body(x, world, "worldbody", -1);
	if (!w)
		return -1;
	int tops = 0;
	for (xmlNode *k = world->children; k; k = k->next)
		if (is(k, "body")) {
			if (tops++)
				return rxfail(x, k, "a second body in <worldbody>: tagk reads one robot (one tree)");
			if (mjcf_body(x, k, 0, "main") != 0)
				return -1;
		} else if (is(k, "joint") || is(k, "freejoint") || is(k, "inertial"))
			return rxfail(x, k, "<%s> in <worldbody> (MuJoCo allows it only in a body)", k->name);
	if (!tops)
		return rxfail(x, world, "no <body> in <worldbody>");
	if (unique_names(x, x->jnamed, x->njnamed, "joint") != 0)
		return -1;
	/* a fixed or free top body is the base itself, with its name */
	if (x->b[1].joint == J_FIXED || x->b[1].joint == J_FREE) {
		memmove(&x->b[0], &x->b[1], (size_t)(x->n - 1) * sizeof(rx_body));
		x->n--;
		x->b[0].parent = -1;
		for (int i = 1; i < x->n; i++)
			x->b[i].parent--;
	}
	return 0;
}

/* ---- URDF ---- */

/* origin xyz and rpy of the <origin> child of n (identity if none). */
static int
urdf_origin(rx *x, const xmlNode *n, double *p, double *R)
{
	static const double I3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
	memset(p, 0, 3 * sizeof(double));
	memcpy(R, I3, sizeof(I3));
	for (xmlNode *k = n->children; k; k = k->next)
		if (is(k, "origin")) {
			double rpy[3] = { 0, 0, 0 };
			if (nums(x, k, "xyz", 3, POS_MAX, p) < 0 || nums(x, k, "rpy", 3, 1e3, rpy) < 0)
				return -1;
			rpy_matrix(rpy, R);
		}
	return 0;
}

static const xmlNode *
child(const xmlNode *n, const char *name)
{
	for (xmlNode *k = n->children; k; k = k->next)
		if (is(k, name))
			return k;
	return NULL;
}

static int
urdf_inertial(rx *x, rx_body *b, const xmlNode *link)
{
	const xmlNode *in = child(link, "inertial");
	if (!in)
		return 0;
	double R[9], v, I6[6];
	if (urdf_origin(x, in, b->com, R) != 0)
		return -1;
	const xmlNode *m = child(in, "mass"), *ine = child(in, "inertia");
	if (!m || nums(x, m, "value", 1, 1e6, &v) <= 0)
		return x->err[0] ? -1 : rxfail(x, in, "<inertial>: no <mass value=...>");
	if (v < 0)
		return rxfail(x, m, "<mass value>: negative");
	b->mass = v;
	static const char *const names[6] = { "ixx", "iyy", "izz", "ixy", "ixz", "iyz" };
	for (int i = 0; i < 6; i++) {
		if (!ine || nums(x, ine, names[i], 1, 1e6, &I6[i]) <= 0)
			return x->err[0] ? -1 : rxfail(x, in, "<inertial>: <inertia> needs ixx, ixy, ixz, iyy, iyz, izz");
	}
	double I[9] = { I6[0], I6[3], I6[4], I6[3], I6[1], I6[5], I6[4], I6[5], I6[2] };
	rotate_tensor(R, I, b->I);
	return 0;
}

typedef struct {
	const xmlNode *links[RX_MAX], *joints[RX_MAX];
	int jparent[RX_MAX], jchild[RX_MAX]; /* each joint's links, by index */
	int nl, nj;
} urdf_index;

static int
link_index(const urdf_index *u, const char *name)
{
	for (int i = 0; name && i < u->nl; i++)
		if (strcmp(attr(u->links[i], "name"), name) == 0)
			return i;
	return -1;
}

static int
urdf_link(rx *x, const urdf_index *u, int li, int parent, const xmlNode *joint)
{
	/* a link called world (the usual URDF root) is not tagk's world, whose
	 * name the model format keeps for the base's parent */
	const char *lname = attr(u->links[li], "name");
	rx_body *b = new_body(x, u->links[li], strcmp(lname, "world") == 0 ? "world_link" : lname, parent);
	if (!b)
		return -1;
	const int me = x->n - 1;
	b->joint = J_FIXED;
	if (joint) {
		const char *type = attr(joint, "type");
		if (!type)
			return rxfail(x, joint, "<joint> without a type");
		if (strcmp(type, "revolute") == 0 || strcmp(type, "continuous") == 0)
			b->joint = J_REVOLUTE;
		else if (strcmp(type, "prismatic") == 0)
			b->joint = J_PRISMATIC;
		else if (strcmp(type, "floating") == 0)
			b->joint = J_FREE;
		else if (strcmp(type, "fixed") != 0)
			return rxfail(x, joint, "joint type '%s' is not read (revolute, continuous, prismatic, fixed, "
			    "floating)", type);
		if (urdf_origin(x, joint, b->pos, b->R) != 0)
			return -1;
		b->axis[0] = 1, b->axis[2] = 0; /* URDF's default axis */
		const xmlNode *ax = child(joint, "axis");
		if (ax && nums(x, ax, "xyz", 3, 1e6, b->axis) < 0)
			return -1;
	}
	if (urdf_inertial(x, b, u->links[li]) != 0)
		return -1;
	if (b->mass == 0 && b->joint != J_FIXED && child(u->links[li], "inertial") == NULL &&
	    (child(u->links[li], "visual") || child(u->links[li], "collision")))
		return rxfail(x, u->links[li], "link '%s' has geometry but no <inertial>: tagk does not infer "
		    "inertia from geometry", b->name);
	for (int j = 0; j < u->nj; j++)
		if (u->jparent[j] == li && urdf_link(x, u, u->jchild[j], me, u->joints[j]) != 0)
			return -1;
	return 0;
}

/* The children of a URDF element that it holds at most once: urdfdom
 * takes the first of two, other readers the last (as tagk did), so two
 * are refused rather than read one way. */
static int
urdf_once(rx *x, const xmlNode *n, const char *const *names)
{
	const xmlNode *seen[8] = { 0 };
	for (const xmlNode *k = n->children; k; k = k->next)
		for (int i = 0; k->type == XML_ELEMENT_NODE && names[i]; i++) {
			if (!is(k, names[i]))
				continue;
			if (seen[i])
				return rxfail(x, k, "<%s '%.40s'> has a second <%s> (first on line %ld): which one is meant?",
				    n->name, attr(n, "name") ? attr(n, "name") : "", k->name, xmlGetLineNo(seen[i]));
			seen[i] = k;
		}
	return 0;
}

/* Each link and joint (and inertial) with its parts once, no mimic joint
 * (its value follows another's: not a joint of its own in the log), no
 * MuJoCo <mujoco> extension (MuJoCo's compiler settings, which only
 * MuJoCo reads). */
static int
urdf_parts(rx *x, const xmlNode *root)
{
	static const char *const link_once[] = { "inertial", NULL }, *const inertial_once[] = { "origin", "mass",
		"inertia", NULL }, *const joint_once[] = { "origin", "parent", "child", "axis", "limit", "calibration",
		"dynamics", "safety_controller", NULL };
	for (const xmlNode *k = root->children; k; k = k->next) {
		if (is(k, "mujoco"))
			return rxfail(x, k, "<mujoco> in a URDF: MuJoCo's compiler settings are not read (remove them, or "
			    "give the model as MJCF)");
		if (is(k, "joint") && child(k, "mimic"))
			return rxfail(x, child(k, "mimic"), "joint '%.40s' mimics another: a coupled joint is not read "
			    "(tagk's joints move independently)", attr(k, "name"));
		if ((is(k, "link") && urdf_once(x, k, link_once)) || (is(k, "joint") && urdf_once(x, k, joint_once)))
			return -1;
		if (is(k, "link") && child(k, "inertial") && urdf_once(x, child(k, "inertial"), inertial_once))
			return -1;
	}
	return 0;
}

static int
urdf(rx *x, xmlNode *root)
{
	static urdf_index u;
	memset(&u, 0, sizeof(u));
	x->gravity[2] = -9.81;
	for (xmlNode *k = root->children; k; k = k->next) {
		if ((is(k, "link") || is(k, "joint")) && !attr(k, "name"))
			return rxfail(x, k, "<%s> without a name", k->name);
		if (is(k, "link") && u.nl < RX_MAX)
			u.links[u.nl++] = k;
		else if (is(k, "joint") && u.nj < RX_MAX)
			u.joints[u.nj++] = k;
		else if (is(k, "link") || is(k, "joint"))
			return rxfail(x, k, "more than %d links or joints", RX_MAX);
	}
	if (!u.nl)
		return rxfail(x, root, "no <link>");
	if (urdf_parts(x, root) != 0)
		return -1;
	if (unique_names(x, u.links, u.nl, "link") != 0 || unique_names(x, u.joints, u.nj, "joint") != 0)
		return -1;
	for (int j = 0; j < u.nj; j++) {
		const xmlNode *p = child(u.joints[j], "parent"), *c = child(u.joints[j], "child");
		if (!p || !c || (u.jparent[j] = link_index(&u, attr(p, "link"))) < 0 ||
		    (u.jchild[j] = link_index(&u, attr(c, "link"))) < 0)
			return rxfail(x, u.joints[j], "joint '%s': its <parent link> and <child link> must name links",
			    attr(u.joints[j], "name"));
	}
	/* a link is the child of one joint at most: two would make a loop */
	static int parent_of[RX_MAX];
	for (int i = 0; i < u.nl; i++)
		parent_of[i] = -1;
	for (int j = 0; j < u.nj; j++) {
		int c = u.jchild[j];
		if (parent_of[c] >= 0)
			return rxfail(x, u.joints[j], "link '%.40s' is the child of joints '%.40s' and '%.40s': a loop, not a "
			    "tree", attr(u.links[c], "name"), attr(u.joints[parent_of[c]], "name"), attr(u.joints[j], "name"));
		parent_of[c] = j;
	}
	int rootlink = -1;
	for (int i = 0; i < u.nl; i++)
		if (parent_of[i] < 0) {
			if (rootlink >= 0)
				return rxfail(x, u.links[i], "links '%s' and '%s' both have no parent joint: one tree, one root",
				    attr(u.links[rootlink], "name"), attr(u.links[i], "name"));
			rootlink = i;
		}
	if (rootlink < 0)
		return rxfail(x, root, "every link has a parent joint: a loop, not a tree");
	if (urdf_link(x, &u, rootlink, -1, NULL) != 0)
		return -1;
	if (x->n < u.nl)
		return rxfail(x, root, "%d of %d links are not reached from '%s' (a loop?)", u.nl - x->n, u.nl,
		    attr(u.links[rootlink], "name"));
	/* a massless root ("world") with one child joint: that child is the
	 * base, placed (fixed) or floating in the world; a child that turns
	 * or slides on the world keeps its joint (MuJoCo reads it as a hinge
	 * or slide on the world), so the root stays as the fixed base */
	if (x->b[0].mass == 0 && x->n > 1 && (x->b[1].joint == J_FIXED || x->b[1].joint == J_FREE)) {
		int kids = 0;
		for (int i = 1; i < x->n; i++)
			kids += x->b[i].parent == 0;
		if (kids == 1 && x->b[1].parent == 0) {
			memmove(&x->b[0], &x->b[1], (size_t)(x->n - 1) * sizeof(rx_body));
			x->n--;
			x->b[0].parent = -1;
			for (int i = 1; i < x->n; i++)
				x->b[i].parent--;
			if (x->b[0].joint != J_FREE)
				x->b[0].joint = J_FIXED;
		}
	}
	if (x->b[0].joint != J_FREE)
		x->b[0].joint = J_FIXED;
	return 0;
}

/* ---- the bounds ---- */


/* The end of the construct that starts at s (after its opening), or NULL:
 * the first occurrence of the k bytes of end in [s, e). */
static const char *
skip_to(const char *s, const char *e, const char *end, size_t k, long *line)
{
	for (; s + k <= e; s++) {
		if (*s == '\n')
			++*line;
		if (memcmp(s, end, k) == 0)
			return s + k;
	}
	return NULL;
}

/* One start tag from s (after '<'): its attributes (an '=' outside
 * quotes) counted; the byte after '>', or NULL if the tag does not end. */
static const char *
start_tag(const char *s, const char *e, long *line, int *nattr, int *empty)
{
	char q = 0;
	*nattr = 0;
	for (; s < e; s++) {
		if (*s == '\n')
			++*line;
		if (q) {
			q = *s == q ? 0 : q;
		} else if (*s == '"' || *s == '\'') {
			q = *s;
		} else if (*s == '=') {
			++*nattr;
		} else if (*s == '>') {
			*empty = s[-1] == '/';
			return s + 1;
		}
	}
	return NULL;
}

/* The document's size, elements, attributes and depth against the
 * bounds above, in one linear pass before libxml2 sees it, and no
 * document type declaration: a robot description needs none, and without
 * one there are no entities to expand (the billion laughs), no external
 * DTD or entity to load. Not a validator: what it cannot follow it leaves
 * to libxml2, which refuses the same bytes (a tag, comment, CDATA section
 * or processing instruction starts and ends the same way for both). */
static int
prescan(rx *x, const char *buf, size_t n)
{
	const char *s = buf, *e = buf + n;
	long line = 1, elements = 0, attrs = 0, texts = 0;
	int depth = 0, na, empty = 0;
	if (n > RX_MAX_BYTES)
		return rxfail(x, NULL, "larger than %d MiB: not a robot description", RX_MAX_BYTES >> 20);
	while (s < e) {
		const char *lt = memchr(s, '<', (size_t)(e - s));
		if (!lt)
			break;
		texts += lt > s; /* libxml2 keeps even blanks as a text node */
		for (const char *c = s; (c = memchr(c, '\n', (size_t)(lt - c))) != NULL; c++)
			line++;
		s = lt + 1;
		if (e - s >= 3 && memcmp(s, "!--", 3) == 0)
			s = skip_to(s + 3, e, "-->", 3, &line);
		else if (e - s >= 8 && memcmp(s, "![CDATA[", 8) == 0)
			s = skip_to(s + 8, e, "]]>", 3, &line);
		else if (s < e && *s == '!')
			return rxfail_line(x, line, "a document type declaration (<!DOCTYPE or <!ENTITY): not read in a "
			    "robot description (no entities, no external DTD)");
		else if (s < e && *s == '?')
			s = skip_to(s + 1, e, "?>", 2, &line);
		else if (s < e && *s == '/') {
			s = skip_to(s + 1, e, ">", 1, &line);
			depth--;
		} else {
			long at = line;
			s = start_tag(s, e, &line, &na, &empty);
			if (++elements > RX_MAX_ELEMENTS)
				return rxfail_line(x, at, "more than %d elements: not a robot description",
				    RX_MAX_ELEMENTS);
			if (na > RX_MAX_ELEMENT_ATTRS)
				return rxfail_line(x, at, "an element with %d attributes (at most %d)", na,
				    RX_MAX_ELEMENT_ATTRS);
			if ((attrs += na) > RX_MAX_ATTRS)
				return rxfail_line(x, at, "more than %d attributes: not a robot description",
				    RX_MAX_ATTRS);
			if (s && !empty && ++depth > RX_MAX_DEPTH)
				return rxfail_line(x, at, "elements nested more than %d deep", RX_MAX_DEPTH);
		}
		if (!s)
			break; /* unterminated: libxml2 says so */
	}
	double tree = (double)elements * RX_ELEMENT_COST + (double)texts * RX_TEXT_COST + (double)attrs * RX_ATTR_COST;
	if (tree > 8.0 * (double)n + RX_TREE_SLACK)
		return rxfail(x, NULL, "%ld elements, %ld texts and %ld attributes in %zu bytes: their tree would take "
		    "%.0f MB, more than 8 times the file and 8 MiB (a robot description is mostly numbers)", elements, texts,
		    attrs, n, tree / 1e6);
	return 0;
}

/* Whether name is an element tagk reads in either format. Written with a
 * prefix (<x:inertial>), libxml2 still names it "inertial", but MuJoCo and
 * urdfdom (TinyXML) match the whole written name and so do not read it:
 * taken, it would make a model neither of them makes. */
static int
dynamics_element(const char *name)
{
	static const char *const names[] = { "mujoco", "robot", "worldbody", "body", "joint", "freejoint",
		"inertial", "compiler", "option", "flag", "default", "include", "link", "origin", "mass", "inertia",
		"axis", "parent", "child", "limit", "mimic", "frame", "replicate", "attach", "composite", "flexcomp",
		"equality", "geom", "site", NULL };
	for (int i = 0; names[i]; i++)
		if (strcmp(names[i], name) == 0)
			return 1;
	return 0;
}

/* Elements of xacro (a macro file, not a URDF) or XInclude (another
 * file, which libxml2 would read only if asked, and tagk does not ask:
 * left in, the description would silently lack what they bring), at any
 * depth of either format. */
static int
foreign(rx *x, const xmlNode *n, int depth)
{
	for (const xmlNode *k = n; k; k = k->next) {
		if (k->type != XML_ELEMENT_NODE)
			continue;
		const char *href = k->ns && k->ns->href ? (const char *)k->ns->href : "";
		const char *prefix = k->ns && k->ns->prefix ? (const char *)k->ns->prefix : "";
		if (strcmp(prefix, "xacro") == 0 || strstr(href, "xacro"))
			return rxfail(x, k, "a xacro file: expand it first (xacro robot.urdf.xacro > robot.urdf)");
		if (strstr(href, "www.w3.org/200") && strstr(href, "XInclude"))
			return rxfail(x, k, "<%s:%s> (XInclude) is not read: tagk reads the one file it is given", prefix,
			    k->name);
		if (*prefix && dynamics_element((const char *)k->name))
			return rxfail(x, k, "<%s:%s>: an element with a namespace prefix, which MuJoCo and urdfdom do not "
			    "read as <%s> (libxml2 would): remove the prefix or the element", prefix, k->name, k->name);
		if (depth < RX_MAX_DEPTH && foreign(x, k->children, depth + 1) != 0)
			return -1;
	}
	return 0;
}

/* libxml2's own messages are not printed: the first one becomes ours. */
static void
quiet(void *ctx, const char *msg, ...)
{
	(void)ctx, (void)msg;
}

int
robotxml_read(const char *buf, size_t n, const char *path, mbmodel *mm, char *err, size_t len)
{
	static rx x;
	memset(&x, 0, sizeof(x));
	x.path = path, x.err = err, x.len = len;
	err[0] = 0;
	if (prescan(&x, buf, n) != 0)
		return -1;
	xmlSetGenericErrorFunc(NULL, quiet);
	xmlDoc *doc = xmlReadMemory(buf, (int)n, path, NULL, XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_NOERROR);
	if (!doc) {
		const xmlError *e = xmlGetLastError();
		char msg[200];
		snprintf(msg, sizeof(msg), "%s", e && e->message ? e->message : "unreadable");
		msg[strcspn(msg, "\n")] = 0;
		snprintf(err, len, "%s:%d: not well-formed XML: %s", path, e ? e->line : 0, msg);
		return -1;
	}
	xmlNode *root = xmlDocGetRootElement(doc);
	int rc = foreign(&x, root, 0);
	if (rc == 0 && root && is(root, "robot"))
		rc = urdf(&x, root);
	else if (rc == 0 && root && is(root, "mujoco"))
		rc = mjcf(&x, root);
	else if (rc == 0)
		rc = rxfail(&x, root, "an XML file whose root is <%s>, not <robot> (URDF) or <mujoco> (MJCF)",
		    root ? (const char *)root->name : "nothing");
	if (rc == 0)
		rc = finish(&x, mm);
	xmlFreeDoc(doc);
	return rc;
}
