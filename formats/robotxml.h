/*
 * robotxml.h: a robot's URDF or MJCF description into a multi-body model
 * (mbmodel.h), through libxml2. mbmodel_read calls it when the file starts
 * with '<'; the root element says which (<robot>: URDF, <mujoco>: MJCF).
 *
 * Read, as MuJoCo 2.2 reads it: the kinematic tree (URDF links and joints;
 * MJCF nested bodies), revolute, continuous and prismatic joints (MJCF
 * hinge and slide, with their axis, pos and ref, and <default> classes),
 * fixed joints (URDF fixed, an MJCF body without a joint), which are
 * merged into their parent with the inertia moved by the parallel-axis
 * theorem, a free base (URDF floating, MJCF free joint or freejoint),
 * origins as xyz/rpy (URDF) or pos with quat, axisangle, xyaxes, zaxis or
 * euler (MJCF, compiler eulerseq and angle unit), inertials with their own
 * origin and orientation (URDF ixx..izz; MJCF diaginertia or
 * fullinertia), compiler settotalmass, option gravity and its gravity
 * flag. Ignored: what does not enter the links' rigid-body dynamics
 * (geometry, actuators, sensors, limits, the simulation's settings) and,
 * on purpose, joint damping, friction, springs and armature. Refused with
 * a message naming it: everything else that would change the dynamics
 * (tagk-formats(5) lists it: include, xacro, XInclude, equality, mimic,
 * ball and planar joints, boundmass, inertiafromgeom="true", a URDF part
 * given twice, an attribute outside MuJoCo's schema...).
 *
 * Bounded: at most 64 MiB, 100000 elements, 400000 attributes (64 on one
 * element), depth 128, no <!DOCTYPE>, checked in one linear pass before
 * libxml2 parses, so that time and memory are linear in the file.
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

/* The description at buf (n bytes, named path) with the inertial of every
 * moving body replaced so that, read back, it gives target's parameters
 * (robotxml_write.c): the URDF <link>'s or MJCF <body>'s own <inertial>
 * (inserted where there is none), every other byte kept. A body's merged
 * fixed children keep theirs; its own inertial takes the difference. The
 * result is read back and checked (each body to 1e-9 of its scale) before
 * it is returned in *out (malloc'd, *outlen bytes): 0, or -1 with why in
 * err (a body whose own inertial would not be physical, an MJCF joint off
 * its body's origin, a body the text does not name...). target must have
 * the description's tree. */
int robotxml_rewrite_buf(const char *buf, size_t n, const char *path, const mbmodel *target, char **out,
    size_t *outlen, char *err, size_t len);
/* The same from the file path. */
int robotxml_rewrite(const char *path, const mbmodel *target, char **out, size_t *outlen, char *err, size_t len);

#endif
