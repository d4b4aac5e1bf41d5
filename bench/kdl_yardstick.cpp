// kdl_yardstick.cpp: the yardstick of tagk's arm path (make bench-kdl):
// Orocos KDL's recursive Newton-Euler (ChainIdSolver_RNE, liborocos-kdl-dev)
// on a serial chain read by tagk's own model reader, timed beside libtagk's
// multi-body functions on the same seeded states in one run, one process,
// both built with make's CFLAGS.
//
// First it checks that both sides compute the same thing: on every state
// KDL's torques equal libtagk's recursive Newton-Euler and its regressor
// times the description's parameters (Y theta), to a relative 1e-9; a
// larger difference is an error (exit 1), so the timing below is of one
// computation. KDL is independent of tagk's dynamics (its own frames,
// joints and inertias), which makes this an oracle of lib/multibody.c too.
//
// Then, per state (median ns over rounds, each round every side in turn
// over the same states, so that a busy machine slows all sides alike):
//   kdl-rnea    KDL::ChainIdSolver_RNE::CartToJnt: the torques of one state
//   tagk-rnea   tagk_mb_kinematics + tagk_mb_inverse_dynamics
//   held-rows   tagk_mb_kinematics + tagk_mb_body_rows: the nv x 10 rows of
//               one body (what tagk-regress -m multibody --held L computes)
//   all-rows    tagk_mb_kinematics + tagk_mb_regressor: all nv x 10 nb
//               columns (what --unknown all needs)
// and the ratios to kdl-rnea (below 1: tagk is faster).
//
// Usage: kdl-yardstick [--states N] [--rounds R] [--body NAME] MODEL
// MODEL: any description tagk reads (tagk model file, URDF, MJCF) of a
// fixed-base serial chain of revolute and prismatic joints.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <kdl/chain.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>

extern "C" {
#include "../lib/tagk.h"
#include "../formats/mbmodel.h"
}

#ifndef YARDSTICK_FLAGS
#define YARDSTICK_FLAGS "flags unknown"
#endif

static unsigned kdl_segments; // the chain's, mounts included: KDL wants one wrench each

[[noreturn]] static void
die(const std::string &msg)
{
	std::fprintf(stderr, "kdl-yardstick: %s\n", msg.c_str());
	std::exit(1);
}

[[noreturn]] static void
usage()
{
	std::fprintf(stderr, "usage: kdl-yardstick [--states N] [--rounds R] [--body NAME] MODEL\n");
	std::exit(2);
}

static KDL::Rotation
rot_of(const tagk_real *r)
{
	return KDL::Rotation(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8]);
}

// Body i's ten parameters (about its origin) as KDL's inertia, which is
// given about the centre of mass and moved to the origin by KDL itself.
static KDL::RigidBodyInertia
inertia_of(const tagk_real *th)
{
	double m = th[0];
	if (!(m > 0))
		return KDL::RigidBodyInertia::Zero();
	double c[3] = { th[1] / m, th[2] / m, th[3] / m };
	// I_C = I_O - m (c^T c 1 - c c^T)
	double cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
	double ixx = th[4] - m * (cc - c[0] * c[0]), iyy = th[6] - m * (cc - c[1] * c[1]);
	double izz = th[9] - m * (cc - c[2] * c[2]);
	double ixy = th[5] + m * c[0] * c[1], ixz = th[7] + m * c[0] * c[2], iyz = th[8] + m * c[1] * c[2];
	return KDL::RigidBodyInertia(m, KDL::Vector(c[0], c[1], c[2]),
	    KDL::RotationalInertia(ixx, iyy, izz, ixy, ixz, iyz));
}

// tagk body i's frame at q is parent * (rot_i, pos_i) * Rot(axis_i, q): in
// KDL, a fixed segment (rot_i, pos_i), then a segment whose joint turns
// about axis_i through its root and whose tip is the joint's frame, where
// body i's inertia is. (A joint constructed with an origin away from its
// segment's root gave other torques in KDL 1.5.1 as Debian 12 ships it,
// for axes not through the root's origin; the fixed segment avoids that
// constructor.)
static KDL::Chain
chain_of(const mbmodel &mm)
{
	const tagk_mb_model &m = mm.m;
	if (m.floating)
		die("the yardstick needs a fixed base");
	KDL::Chain ch;
	ch.addSegment(KDL::Segment(std::string(mm.name[0]), KDL::Joint(KDL::Joint::None),
	    KDL::Frame(rot_of(m.rot[0]), KDL::Vector(m.pos[0][0], m.pos[0][1], m.pos[0][2])), inertia_of(mm.theta)));
	for (int i = 1; i < m.nb; i++) {
		if (m.parent[i] != i - 1)
			die(std::string("body ") + mm.name[i] + " branches: the yardstick needs a serial chain");
		KDL::Frame at(rot_of(m.rot[i]), KDL::Vector(m.pos[i][0], m.pos[i][1], m.pos[i][2]));
		ch.addSegment(KDL::Segment(std::string(mm.name[i]) + "_mount", KDL::Joint(KDL::Joint::None), at));
		KDL::Vector axis(m.axis[i][0], m.axis[i][1], m.axis[i][2]);
		KDL::Joint::JointType type = m.joint[i] == TAGK_JOINT_REVOLUTE ? KDL::Joint::RotAxis : KDL::Joint::TransAxis;
		KDL::Joint j(std::string(mm.name[i]) + "_joint", KDL::Vector::Zero(), axis, type);
		ch.addSegment(KDL::Segment(std::string(mm.name[i]), j, KDL::Frame::Identity(), inertia_of(mm.theta + 10 * i)));
	}
	return ch;
}

struct states {
	int nv = 0, n = 0;
	std::vector<double> q, qd, qdd;
};

static states
draw_states(int nv, int n)
{
	states s;
	s.nv = nv;
	s.n = n;
	std::mt19937_64 g(20261127);
	std::uniform_real_distribution<double> u(-M_PI, M_PI);
	std::normal_distribution<double> z(0.0, 1.0);
	for (int k = 0; k < n * nv; k++) {
		s.q.push_back(u(g));
		s.qd.push_back(z(g));
		s.qdd.push_back(3 * z(g));
	}
	return s;
}

static double
rel(const double *a, const double *b, int n)
{
	double d = 0, s = 0;
	for (int k = 0; k < n; k++) {
		d = std::max(d, std::fabs(a[k] - b[k]));
		s = std::max(s, std::fabs(b[k]));
	}
	return d / std::max(s, 1e-300);
}

// Every state: KDL's torques against tagk's RNEA and Y theta.
static double
check(const mbmodel &mm, KDL::ChainIdSolver_RNE &kdl, const states &s)
{
	int nv = s.nv, nb = mm.m.nb;
	KDL::JntArray q(nv), qd(nv), qdd(nv), tau(nv);
	KDL::Wrenches f(kdl_segments, KDL::Wrench::Zero());
	std::vector<tagk_real> Y((size_t)nv * 10 * nb), t1(nv), t2(nv), t3(nv);
	double worst = 0;
	for (int k = 0; k < s.n; k++) {
		const double *qk = &s.q[(size_t)k * nv], *qdk = &s.qd[(size_t)k * nv], *qddk = &s.qdd[(size_t)k * nv];
		for (int j = 0; j < nv; j++) {
			q(j) = qk[j];
			qd(j) = qdk[j];
			qdd(j) = qddk[j];
		}
		if (kdl.CartToJnt(q, qd, qdd, f, tau) < 0)
			die("KDL's solver failed");
		tagk_mb_kin kin;
		if (tagk_mb_kinematics(&mm.m, nullptr, nullptr, qk, qdk, qddk, &kin) != TAGK_OK)
			die("tagk_mb_kinematics failed");
		tagk_mb_inverse_dynamics(&kin, &mm.m, mm.theta, t1.data());
		tagk_mb_regressor(&kin, &mm.m, Y.data());
		for (int j = 0; j < nv; j++) {
			double acc = 0;
			for (int c = 0; c < 10 * nb; c++)
				acc += Y[(size_t)j * 10 * nb + c] * mm.theta[c];
			t2[j] = acc;
			t3[j] = tau(j);
		}
		if (getenv("KDL_DEBUG"))
			for (int j = 0; j < nv; j++)
				std::fprintf(stderr, "state %d joint %d: rnea %.9g Ytheta %.9g kdl %.9g\n", k, j, t1[j], t2[j], t3[j]);
		worst = std::max({ worst, rel(t1.data(), t3.data(), nv), rel(t2.data(), t3.data(), nv) });
	}
	return worst;
}

using clk = std::chrono::steady_clock;

struct sides {
	const mbmodel *mm;
	KDL::ChainIdSolver_RNE *kdl;
	const states *s;
	int body;
	double sink = 0;
};

static double
time_kdl(sides &x)
{
	int nv = x.s->nv;
	KDL::JntArray q(nv), qd(nv), qdd(nv), tau(nv);
	KDL::Wrenches f(kdl_segments, KDL::Wrench::Zero());
	auto t0 = clk::now();
	for (int k = 0; k < x.s->n; k++) {
		for (int j = 0; j < nv; j++) {
			q(j) = x.s->q[(size_t)k * nv + j];
			qd(j) = x.s->qd[(size_t)k * nv + j];
			qdd(j) = x.s->qdd[(size_t)k * nv + j];
		}
		x.kdl->CartToJnt(q, qd, qdd, f, tau);
		x.sink += tau(nv - 1);
	}
	return std::chrono::duration<double>(clk::now() - t0).count();
}

// kind 0: RNEA torques; 1: one body's rows; 2: the whole regressor.
static double
time_tagk(sides &x, int kind)
{
	int nv = x.s->nv, nb = x.mm->m.nb;
	static tagk_real Y[TAGK_MB_MAX_DOF * 10 * TAGK_MB_MAX_BODIES], A[TAGK_MB_MAX_DOF * 10], b[TAGK_MB_MAX_DOF];
	static tagk_real zero[TAGK_MB_MAX_DOF];
	tagk_mb_kin kin;
	auto t0 = clk::now();
	for (int k = 0; k < x.s->n; k++) {
		size_t o = (size_t)k * nv;
		tagk_mb_kinematics(&x.mm->m, nullptr, nullptr, &x.s->q[o], &x.s->qd[o], &x.s->qdd[o], &kin);
		if (kind == 0) {
			tagk_mb_inverse_dynamics(&kin, &x.mm->m, x.mm->theta, b);
			x.sink += b[nv - 1];
		} else if (kind == 1) {
			tagk_mb_force_rows(&kin, &x.mm->m, zero, x.mm->theta, x.body, Y, A, b);
			x.sink += A[10 * nv - 1] + b[0];
		} else {
			tagk_mb_regressor(&kin, &x.mm->m, Y);
			x.sink += Y[(size_t)nv * 10 * nb - 1];
		}
	}
	return std::chrono::duration<double>(clk::now() - t0).count();
}

static double
median(std::vector<double> v)
{
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}

int
main(int argc, char **argv)
{
	int n = 20000, rounds = 9;
	const char *body = nullptr, *path = nullptr;
	for (int i = 1; i < argc; i++) {
		if (!std::strcmp(argv[i], "--states") && i + 1 < argc)
			n = std::atoi(argv[++i]);
		else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc)
			rounds = std::atoi(argv[++i]);
		else if (!std::strcmp(argv[i], "--body") && i + 1 < argc)
			body = argv[++i];
		else if (argv[i][0] == '-' || path)
			usage();
		else
			path = argv[i];
	}
	if (!path || n < 1 || rounds < 1)
		usage();
	static mbmodel mm;
	char err[512];
	if (mbmodel_read(path, &mm, err, sizeof(err)) != 0)
		die(err);
	int u = body ? mbmodel_find(&mm, body) : mm.m.nb - 1;
	if (u < 0)
		die(std::string("no body '") + body + "' in " + path);
	KDL::Chain ch = chain_of(mm);
	kdl_segments = ch.getNrOfSegments();
	KDL::Vector g(mm.m.gravity[0], mm.m.gravity[1], mm.m.gravity[2]);
	KDL::ChainIdSolver_RNE kdl(ch, g);
	int nv = tagk_mb_dof(&mm.m);
	states s = draw_states(nv, n);
	double worst = check(mm, kdl, s);
	std::printf("# kdl-yardstick: %s, %d joints, %d seeded states, rows of body %s; built %s\n", path, nv, n, mm.name[u],
	    YARDSTICK_FLAGS);
	std::printf("# KDL RNEA against tagk's RNEA and Y theta: largest relative difference %.2g\n", worst);
	if (!(worst < 1e-9))
		die("KDL and tagk disagree: the timing would compare different computations");
	sides x{ &mm, &kdl, &s, u };
	std::vector<double> tk, tr, th, ta;
	for (int r = 0; r < rounds; r++) {
		tk.push_back(time_kdl(x));
		tr.push_back(time_tagk(x, 0));
		th.push_back(time_tagk(x, 1));
		ta.push_back(time_tagk(x, 2));
	}
	double k = median(tk);
	std::printf("%-10s %12s %10s\n", "side", "ns/state", "/ kdl");
	const char *names[] = { "kdl-rnea", "tagk-rnea", "held-rows", "all-rows" };
	double ts[] = { k, median(tr), median(th), median(ta) };
	for (int i = 0; i < 4; i++)
		std::printf("%-10s %12.1f %10.3f\n", names[i], 1e9 * ts[i] / n, ts[i] / k);
	std::printf("# checksum of the timed results %.6g (keeps every computation alive)\n", x.sink);
	return 0;
}
