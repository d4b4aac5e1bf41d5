#!/bin/sh
# robotxml_variants.sh DIR N SEED: writes N random MJCF robots into DIR and
# prints, one a line, FILE:TOL for tests/robotxml_oracle.c. Each mixes the
# settings that change the dynamics which formats/robotxml.c reads: compiler
# angle (radian, degree or MJCF's default), eulerseq (any three of xyzXYZ),
# settotalmass, option gravity and <flag gravity="disable">, default classes
# with childclass and class carrying axis, pos and ref, body orientations as
# quat, axisangle, xyaxes, zaxis (down included), euler or none, hinge and
# slide joints with pos and ref, fixed bodies (merged) with branches, a
# free or fixed or hinged top body, inertials rotated, diagonal or full.
# TOL is 1e-7 for a file with a fullinertia (MuJoCo 2.2's mju_eig3, see
# tests/robotxml_oracle.c), 1e-9 otherwise.
set -u
dir=$1 n=$2 seed=$3
awk -v dir="$dir" -v n="$n" -v seed="$seed" '
function u(a, b) { return a + (b - a) * rand() }
function v3(s) { return sprintf("%.6g %.6g %.6g", u(-s, s), u(-s, s), u(-s, s)) }
function angle(rad) { return deg ? rad * 180 / 3.141592653589793 : rad }
function orient(   k) {
	k = int(rand() * 6)
	if (k == 0) return sprintf(" quat=\"%.6g %.6g %.6g %.6g\"", u(-1, 1), u(-1, 1), u(-1, 1), u(-1, 1))
	if (k == 1) return sprintf(" axisangle=\"%s %.6g\"", v3(1), angle(u(-3, 3)))
	if (k == 2) return sprintf(" xyaxes=\"%s %s\"", v3(1), v3(1))
	if (k == 3) return rand() < 0.2 ? " zaxis=\"0 0 -1\"" : sprintf(" zaxis=\"%s\"", v3(1))
	if (k == 4) return sprintf(" euler=\"%.6g %.6g %.6g\"", angle(u(-3, 3)), angle(u(-3, 3)), angle(u(-3, 3)))
	return ""
}
# a diagonal inertia whose moments keep the triangle inequality
function diag() { return sprintf("%.6g %.6g %.6g", u(1, 2) / 100, u(1, 2) / 100, u(1, 2) / 100) }
# R diag(d) R^T for a random rotation, as fullinertia
function full(   a, b, c, w, x, y, z, s, R, d, i, j, k, M) {
	w = u(-1, 1); x = u(-1, 1); y = u(-1, 1); z = u(-1, 1); s = sqrt(w*w + x*x + y*y + z*z); w /= s; x /= s; y /= s; z /= s
	R[0,0] = 1 - 2*(y*y + z*z); R[0,1] = 2*(x*y - w*z); R[0,2] = 2*(x*z + w*y)
	R[1,0] = 2*(x*y + w*z); R[1,1] = 1 - 2*(x*x + z*z); R[1,2] = 2*(y*z - w*x)
	R[2,0] = 2*(x*z - w*y); R[2,1] = 2*(y*z + w*x); R[2,2] = 1 - 2*(x*x + y*y)
	d[0] = u(1, 2) / 100; d[1] = u(1, 2) / 100; d[2] = u(1, 2) / 100
	for (i = 0; i < 3; i++) for (j = 0; j < 3; j++) { M[i,j] = 0; for (k = 0; k < 3; k++) M[i,j] += R[i,k] * d[k] * R[j,k] }
	return sprintf("%.17g %.17g %.17g %.17g %.17g %.17g", M[0,0], M[1,1], M[2,2], M[0,1], M[0,2], M[1,2])
}
function inertial(   s) {
	if (rand() < 0.3) { hasfull = 1; return sprintf("<inertial pos=\"%s\" mass=\"%.6g\" fullinertia=\"%s\"/>", v3(0.1), u(0.2, 2), full()) }
	return sprintf("<inertial pos=\"%s\"%s mass=\"%.6g\" diaginertia=\"%s\"/>", v3(0.1), orient(), u(0.2, 2), diag())
}
function joint(   s, t, typed) {
	if (rand() < 0.2) return ""   # fixed: merged into its parent
	s = "<joint"
	if (rand() < 0.3) s = s " class=\"c\""
	else {
		t = rand() < 0.3 ? "slide" : "hinge"
		typed = t == "slide" || rand() < 0.5
		if (typed) s = s " type=\"" t "\""
		if (rand() < 0.8) s = s " axis=\"" v3(1) "\""
		# untyped, the joint may be a slide by its childclass: a small ref
		if (rand() < 0.7) s = s sprintf(" ref=\"%.6g\"", typed && t == "hinge" ? angle(u(-3, 3)) : u(-0.3, 0.3))
	}
	if (rand() < 0.5) s = s " pos=\"" v3(0.1) "\""
	if (rand() < 0.3) s = s " damping=\"0.5\" armature=\"0.01\" springref=\"0.2\" stiffness=\"1\""
	return s "/>"
}
function body(depth,   s, kids, i, j) {
	nb++
	j = depth > 1 ? joint() : top < 0.3 ? "<freejoint/>" : top < 0.5 ? "" : joint()
	s = sprintf("<body name=\"b%d\"%s pos=\"%s\"%s>%s%s", nb, depth == 1 && rand() < 0.3 ? " childclass=\"c\"" : "",
		v3(0.3), orient(), j, inertial())
	kids = depth < 4 ? (rand() < 0.25 ? 2 : 1) : 0
	for (i = 0; i < kids && nb < 8; i++) s = s "\n" body(depth + 1)
	return s "</body>"
}
BEGIN {
	srand(seed)
	for (f = 1; f <= n; f++) {
		file = sprintf("%s/v%03d.xml", dir, f)
		hasfull = 0; nb = 0
		r = rand(); deg = r >= 0.3   # MJCF default: degree
		comp = r < 0.3 ? " angle=\"radian\"" : r < 0.6 ? " angle=\"degree\"" : ""
		split("x y z X Y Z", ax, " ")
		if (rand() < 0.7) comp = comp " eulerseq=\"" ax[int(rand() * 6) + 1] ax[int(rand() * 6) + 1] ax[int(rand() * 6) + 1] "\""
		if (rand() < 0.4) comp = comp sprintf(" settotalmass=\"%.6g\"", u(1, 20))
		print "<mujoco model=\"v" f "\">\n<compiler" comp "/>" > file
		opt = rand() < 0.5 ? " gravity=\"" v3(10) "\"" : ""
		printf "<option%s>%s</option>\n", opt, rand() < 0.3 ? "<flag gravity=\"disable\"/>" : "" > file
		printf "<default><joint axis=\"%s\"/><default class=\"c\"><joint type=\"%s\" axis=\"%s\" ref=\"%.6g\"/></default></default>\n",
			v3(1), rand() < 0.5 ? "slide" : "hinge", v3(1), u(-0.5, 0.5) > file
		top = rand()
		s = body(1)
		print "<worldbody>\n" s "\n</worldbody>\n</mujoco>" > file
		close(file)
		print file ":" (hasfull ? "1e-7" : "1e-9")
	}
}'
