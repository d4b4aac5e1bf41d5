/*
 * mbmodel.h: the multi-body model file (tagk-formats(5)), a kinematic tree
 * for lib/multibody.h. Text, # comments, one "key values" per line; a
 * "body NAME" line opens a body, whose keys follow it:
 *
 *   gravity GX GY GZ     world gravity, m/s^2 (default 0 0 -9.81; anywhere)
 *   body NAME            a new body (names unique, at most 31 characters)
 *   parent NAME|world    its parent, defined above it; exactly one body,
 *                        the base, has parent world
 *   joint KIND           base: fixed or free; others: revolute or prismatic
 *   axis X Y Z           joint axis in the body's frame (normalised)
 *   pos X Y Z            body origin in the parent's frame at q = 0 (m; 0)
 *   quat W X Y Z         body orientation in the parent's frame at q = 0
 *                        (normalised; default 1 0 0 0), as MJCF's quat
 *   mass M               kg, > 0
 *   com X Y Z            centre of mass in the body's frame (m)
 *   inertia XX YY ZZ XY XZ YZ   about the centre of mass, body axes
 *                        (kg m^2), MJCF's fullinertia order; it must be
 *                        physical (the triangle inequalities)
 *
 * Body i's frame sits on its joint, as in MJCF: a model from an MJCF file
 * carries over line for line. The base's pose for a fixed base is its pos
 * and quat in the world.
 */
#ifndef TAGK_MBMODEL_H
#define TAGK_MBMODEL_H

#include <stddef.h>
#include <stdio.h>
#include "../lib/tagk.h"

typedef struct {
	tagk_mb_model m;                           /* floating: from the base's joint */
	tagk_real theta[TAGK_NPARAM * TAGK_MB_MAX_BODIES]; /* about each body's origin */
	char name[TAGK_MB_MAX_BODIES][32];
	char merged[TAGK_MB_MAX_BODIES][2][32]; /* URDF/MJCF: a body fixed to its parent and merged into it,
	                                         * and the body it is now part of */
	int nmerged;
} mbmodel;

/* Read path into mm; 0, or -1 with "file:line: what" in err (len bytes). */
int mbmodel_read(const char *path, mbmodel *mm, char *err, size_t len);
/* The same from f, open for reading, named path in messages; f is closed. */
int mbmodel_read_file(FILE *f, const char *path, mbmodel *mm, char *err, size_t len);
/* Write mm to f in the same format (inertias about each centre of mass,
 * %.17g: reading it back gives mm to rounding); 0, or -1 on a write error. */
int mbmodel_write(FILE *f, const mbmodel *mm, const char *comment);
/* The index of the body called name, or -1. */
int mbmodel_find(const mbmodel *mm, const char *name);
/* The body a frame named name was merged into (a fixed joint), or NULL. */
const char *mbmodel_merged_into(const mbmodel *mm, const char *name);

#endif
