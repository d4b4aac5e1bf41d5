/*
 * robotxml.h: a robot's URDF or MJCF description into a multi-body model
 * (mbmodel.h), through libxml2. mbmodel_read calls it when the file starts
 * with '<'; the root element says which (<robot>: URDF, <mujoco>: MJCF).
 *
 * Read: the kinematic tree (URDF links and joints; MJCF nested bodies),
 * revolute, continuous and prismatic joints (MJCF hinge and slide, with
 * their axis and pos, and <default> classes), fixed joints (URDF fixed, an
 * MJCF body without a joint), which are merged into their parent with the
 * inertia moved by the parallel-axis theorem, a free base (URDF floating,
 * MJCF free joint or freejoint), origins as xyz/rpy (URDF) or pos with
 * quat, euler (compiler eulerseq) or axisangle (MJCF, compiler angle
 * unit), and inertials with their own origin and orientation (URDF
 * ixx..izz; MJCF diaginertia or fullinertia), and MJCF's option gravity.
 * Ignored: geometry, visuals, collisions, meshes, materials, actuators,
 * transmissions, sensors, limits, dynamics. Refused with a message: xacro,
 * MJCF include, ball and planar joints, two joints in one body, a body
 * with geoms but no inertial (tagk does not infer inertia from geometry),
 * more bodies than the library holds.
 *
 * Joints are numbered in the order of the description's bodies, depth
 * first, after fixed joints are merged: q1 is the first moving body's.
 */
#ifndef TAGK_ROBOTXML_H
#define TAGK_ROBOTXML_H

#include <stddef.h>
#include "mbmodel.h"

/* Parse the n bytes at buf (an XML document) named path in messages into
 * mm; 0, or -1 with "path:line: what" in err (len bytes). */
int robotxml_read(const char *buf, size_t n, const char *path, mbmodel *mm, char *err, size_t len);

#endif
