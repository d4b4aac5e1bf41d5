/* trial.c: one closed-loop flight; see trial.h. */
#include <string.h>
#include "trial.h"
#include "../../lib/consistency.h"
#include "../../lib/linalg.h"
#include "../../lib/metrics.h"
#include "../../lib/regressor.h"
#include "../../lib/rng.h"
#include "../../lib/so3.h"

const char *const tagk_traj_names[TAGK_TRAJ_COUNT] = {
	"figure-8", "circle", "spiral", "helix", "ellipse", "random",
};

static const tagk_real PI = (tagk_real)3.14159265358979323846;

void
tagk_trial_defaults(tagk_trial_config *c, uint64_t seed)
{
	memset(c, 0, sizeof(*c));
	c->seed = seed;
	c->traj = -1;
	c->duration = 20;
	c->every = 20;
	c->window = 5;
	c->gate = TAGK_TRIAL_GATE_EQ15;
	c->l_arm = (tagk_real)0.0325;
	c->alpha = (tagk_real)1e-4;
}

void
tagk_trial_vehicle(tagk_real th[TAGK_NPARAM])
{
	const tagk_real zero[3] = { 0, 0, 0 };
	const tagk_real Ic[9] = { (tagk_real)1.66e-5, (tagk_real)0.83e-6, (tagk_real)0.72e-6,
		(tagk_real)0.83e-6, (tagk_real)1.66e-5, (tagk_real)1.8e-6,
		(tagk_real)0.72e-6, (tagk_real)1.8e-6, (tagk_real)2.93e-5 };
	tagk_theta_from_body((tagk_real)0.035, zero, Ic, th);
}

static tagk_real
sinr(tagk_real x)
{
	return tagk_cos(x - PI / 2);
}

/* x and y amplitudes ax and ay (a figure-8's y runs at twice the rate);
 * spirals grow by grow per second; helices climb and swing by zamp at wz */
typedef struct {
	int kind;
	tagk_real c[3], r, r2, w, ph, climb, grow, ax, ay, zamp, wz;
	tagk_real ka[3][3], kf[3][3], kp[3][3]; /* random: amplitudes, freqs, phases */
} traj;

/* Reference position and velocity at time t; peak speeds about 0.5 m/s. */
static void
traj_eval(const traj *T, tagk_real t, tagk_real p[3], tagk_real v[3])
{
	tagk_real a = T->w * t + T->ph, ca = tagk_cos(a), sa = sinr(a);
	for (int i = 0; i < 3; i++)
		p[i] = T->c[i], v[i] = 0;
	switch (T->kind) {
	case TAGK_TRAJ_FIG8: {
		tagk_real s2 = sinr(2 * a), c2 = tagk_cos(2 * a);
		p[0] += T->ax * sa;
		p[1] += T->ay * s2;
		v[0] = T->ax * T->w * ca;
		v[1] = 2 * T->ay * T->w * c2;
		break;
	}
	case TAGK_TRAJ_CIRCLE:
	case TAGK_TRAJ_HELIX:
	case TAGK_TRAJ_ELLIPSE:
	case TAGK_TRAJ_SPIRAL: {
		tagk_real rx = T->ax, ry = T->ay;
		tagk_real g = T->kind == TAGK_TRAJ_SPIRAL ? T->grow : 0;
		p[0] += (rx + g * t) * ca;
		p[1] += (ry + g * t) * sa;
		v[0] = g * ca - (rx + g * t) * T->w * sa;
		v[1] = g * sa + (ry + g * t) * T->w * ca;
		if (T->kind == TAGK_TRAJ_HELIX) {
			p[2] += T->climb * t + T->zamp * sinr(T->wz * t);
			v[2] = T->climb + T->zamp * T->wz * tagk_cos(T->wz * t);
		}
		break;
	}
	default:
		for (int i = 0; i < 3; i++)
			for (int h = 0; h < 3; h++) {
				tagk_real b = T->kf[i][h] * t + T->kp[i][h];
				p[i] += T->ka[i][h] * sinr(b);
				v[i] += T->ka[i][h] * T->kf[i][h] * tagk_cos(b);
			}
	}
}

static void
traj_random(traj *T, tagk_rng *g, int kind)
{
	memset(T, 0, sizeof(*T));
	T->kind = kind;
	T->c[2] = 1;
	T->r = (tagk_real)0.3 + (tagk_real)0.3 * tagk_rng_uniform(g);
	T->r2 = T->r * ((tagk_real)0.5 + (tagk_real)0.3 * tagk_rng_uniform(g));
	T->w = (tagk_real)0.45 / T->r;                       /* peak speed about 0.45-0.5 m/s */
	if (kind == TAGK_TRAJ_FIG8)
		T->w = (tagk_real)0.45 / (T->r * (tagk_real)1.4142);
	T->ph = 2 * PI * tagk_rng_uniform(g);
	T->climb = (tagk_real)0.02 + (tagk_real)0.03 * tagk_rng_uniform(g);
	T->grow = (tagk_real)0.005 + (tagk_real)0.005 * tagk_rng_uniform(g);
	for (int i = 0; i < 3; i++)
		for (int h = 0; h < 3; h++) {
			T->ka[i][h] = (tagk_real)(i == 2 ? 0.03 : 0.1) * tagk_rng_uniform(g);
			T->kf[i][h] = (tagk_real)0.3 + (tagk_real)1.2 * tagk_rng_uniform(g);
			T->kp[i][h] = 2 * PI * tagk_rng_uniform(g);
		}
	T->ax = T->r;
	T->ay = kind == TAGK_TRAJ_FIG8 ? T->r / 2 : kind == TAGK_TRAJ_ELLIPSE ? T->r2 : T->r;
}

static tagk_real
unif(tagk_rng *g, tagk_real lo, tagk_real hi)
{
	return lo + (hi - lo) * tagk_rng_uniform(g);
}

/* The authors' generators (online_estimators/trajectories/generators.py):
 * periods of 15-20 s, phase 0, height jittered by 5 cm. */
static void
traj_authors(traj *T, tagk_rng *g, int kind, tagk_real duration)
{
	memset(T, 0, sizeof(*T));
	T->kind = kind;
	switch (kind) {
	case TAGK_TRAJ_FIG8:
		T->ax = unif(g, (tagk_real)0.4, (tagk_real)0.8);
		T->ay = unif(g, (tagk_real)0.2, (tagk_real)0.4);
		T->w = 2 * PI / 20 * unif(g, (tagk_real)0.8, (tagk_real)1.25);
		break;
	case TAGK_TRAJ_CIRCLE:
		T->ax = T->ay = unif(g, (tagk_real)0.3, (tagk_real)0.6);
		T->w = 2 * PI / 15 * unif(g, (tagk_real)0.8, (tagk_real)1.2);
		break;
	case TAGK_TRAJ_ELLIPSE:
		T->ax = unif(g, (tagk_real)0.5, (tagk_real)0.9);
		T->ay = unif(g, (tagk_real)0.2, (tagk_real)0.5);
		T->w = 2 * PI / 18 * unif(g, (tagk_real)0.9, (tagk_real)1.2);
		break;
	case TAGK_TRAJ_HELIX:
		T->ax = T->ay = unif(g, (tagk_real)0.3, (tagk_real)0.6);
		T->w = 2 * PI / 16 * unif(g, (tagk_real)0.9, (tagk_real)1.2);
		T->zamp = unif(g, (tagk_real)0.04, (tagk_real)0.10);
		T->wz = T->w * unif(g, (tagk_real)0.4, (tagk_real)0.8);
		break;
	default: { /* spiral */
		T->kind = TAGK_TRAJ_SPIRAL;
		tagk_real r0 = unif(g, (tagk_real)0.2, (tagk_real)0.35), r1 = unif(g, (tagk_real)0.45, (tagk_real)0.7);
		T->ax = T->ay = r0;
		T->w = 2 * PI / 18 * unif(g, (tagk_real)0.8, (tagk_real)1.2);
		T->grow = (r1 - r0) / duration;
	}
	}
	T->c[2] = 1 + unif(g, (tagk_real)-0.05, (tagk_real)0.05);
}

static tagk_real
norm3(const tagk_real v[3])
{
	return tagk_sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

/* The authors' gate (gate_param_update with closest_spd before it): th is
 * replaced by the estimate they use; 1 if it is accepted. */
static int
authors_gate(tagk_real th[TAGK_NPARAM], const tagk_real *A, const tagk_real *b, int m, tagk_real *r)
{
	tagk_real avg = (th[TAGK_P_IXX] + th[TAGK_P_IYY]) / 2, I[9], w[3], V[9], scr[9];
	th[TAGK_P_IXX] = th[TAGK_P_IYY] = avg;
	tagk_theta_inertia(th, I);
	if (tagk_symeig(3, I, w, V, scr) != TAGK_OK)
		return 0;
	for (int k = 0; k < 3; k++)
		w[k] = w[k] < (tagk_real)1e-6 ? (tagk_real)1e-6 : w[k];
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			I[i * 3 + j] = V[i * 3] * w[0] * V[j * 3] + V[i * 3 + 1] * w[1] * V[j * 3 + 1] +
			    V[i * 3 + 2] * w[2] * V[j * 3 + 2];
	tagk_theta_set_inertia(th, I);
	tagk_real mc[3] = { th[TAGK_P_MCX], th[TAGK_P_MCY], th[TAGK_P_MCZ] };
	if (!(th[TAGK_P_M] >= (tagk_real)0.02 && th[TAGK_P_M] <= (tagk_real)0.08) || !(norm3(mc) <= (tagk_real)0.02))
		return 0;
	if (tagk_symeig3(I, w) != TAGK_OK || !(w[0] >= (tagk_real)1e-7) || !(w[2] <= (tagk_real)1e-4))
		return 0;
	tagk_residual(m, TAGK_NPARAM, A, th, b, r);
	tagk_real bb = tagk_dot(m, b, b);
	bb = bb > (tagk_real)1e-24 ? bb : (tagk_real)1e-24;
	return tagk_dot(m, r, r) <= (tagk_real)0.01 * bb;
}

enum { ROWS = 6, MAXW = 16 };

/* One trial's state: the flight, its controller, the window ring of rows,
 * and the running scores. */
typedef struct {
	const tagk_trial_config *c;
	tagk_estimator *est;
	tagk_trial_result *out;
	tagk_rng g;
	traj T;
	tagk_quad_config qc;
	tagk_real base[TAGK_NPARAM], loaded[TAGK_NPARAM], truth[TAGK_NPARAM], model[TAGK_NPARAM];
	int on_step, off_step, check_step;
	tagk_real Q[12], R[4];
	tagk_lqr *lqr;
	tagk_quad_state x, seen; /* the state, and what the controller and estimator measure */
	tagk_real A[MAXW * ROWS * TAGK_NPARAM], b[MAXW * ROWS], Ah[MAXW * ROWS * TAGK_NPARAM], bh[MAXW * ROWS];
	int filled, head, pending_t1, n_t1, check_ok, checks, n_ok, n_ld, err_n;
	tagk_real err_sum, res_sum, par_sum, blk_sum[3], ld_sum;
} trial;

/* The payload: its mass and place, and the steps it is attached and
 * dropped at (the authors' draws, or tagk's). */
static void
payload(trial *w)
{
	tagk_rng *g = &w->g;
	const tagk_real *base = w->base;
	tagk_real pm, ppos[3], zero9[9] = { 0 }, pth[TAGK_NPARAM];
	if (w->c->payload_authors) {
		/* attached and dropped after the steps add_step and drop_step */
		int add_step = 300 + (int)(tagk_rng_next(g) % 101), drop_step = 700 + (int)(tagk_rng_next(g) % 101);
		pm = unif(g, base[TAGK_P_M] / 3, base[TAGK_P_M] / 2);
		for (int i = 0; i < 3; i++)
			ppos[i] = unif(g, (tagk_real)-0.001, (tagk_real)0.001);
		w->on_step = add_step + 1;
		w->off_step = drop_step + 1;
	} else {
		pm = base[TAGK_P_M] * ((tagk_real)0.3 + (tagk_real)0.2 * tagk_rng_uniform(g));
		tagk_real pr = (tagk_real)0.0325 * ((tagk_real)0.2 + (tagk_real)0.1 * tagk_rng_uniform(g));
		tagk_real pa = 2 * PI * tagk_rng_uniform(g);
		ppos[0] = pr * tagk_cos(pa);
		ppos[1] = pr * sinr(pa);
		ppos[2] = 0;
		tagk_real t_on = 4 + 2 * tagk_rng_uniform(g), t_off = 12 + 2 * tagk_rng_uniform(g);
		w->on_step = (int)(t_on / w->qc.dt);
		w->off_step = (int)(t_off / w->qc.dt);
	}
	tagk_theta_from_body(pm, ppos, zero9, pth);
	for (int j = 0; j < TAGK_NPARAM; j++)
		w->loaded[j] = base[j] + pth[j];
	w->out->payload_mass = pm;
	w->out->t_on = (tagk_real)w->on_step * w->qc.dt;
	w->out->t_off = (tagk_real)w->off_step * w->qc.dt;
	/* the authors' success check: the position 10 steps before the drop
	 * (their drop_step is off_step - 1); -1: tagk's, after both events */
	w->check_step = w->c->success_authors ? w->off_step - 11 : -1;
}

/* The LQR's weights and its first design, on the vehicle without payload. */
static tagk_status
controller(trial *w)
{
	/* Bryson's rule: 1 / (largest acceptable value)^2 for 5 cm, 0.5 m/s,
	 * 0.3 rad, 2 rad/s, and 0.05 N per rotor */
	const tagk_real Q[12] = { 400, 400, 400, 4, 4, 4, (tagk_real)11.1, (tagk_real)11.1, (tagk_real)11.1,
		(tagk_real)0.25, (tagk_real)0.25, (tagk_real)0.25 };
	memcpy(w->Q, Q, sizeof(Q));
	for (int i = 0; i < 4; i++)
		w->R[i] = 400;
	if (w->c->rotors_authors) {
		/* their kt = 2.245365e-6 * 65535 N at full command, thrustToTorque
		 * 0.0008; their Bryson bounds are on the Rodrigues vector (half the
		 * angle), so on the angle they weigh 1, 1 and 100 */
		const tagk_real Qa[12] = { 100, 100, 100, 4, 4, 4, 1, 1, 100,
			(tagk_real)(1 / 0.49), (tagk_real)(1 / 0.49), 25 };
		w->qc.umax = (tagk_real)(2.245365e-6 * 65535);
		w->qc.kappa = (tagk_real)0.0008;
		memcpy(w->Q, Qa, sizeof(Qa));
		for (int i = 0; i < 4; i++)
			w->R[i] = 1 / ((w->qc.umax / 2) * (w->qc.umax / 2));
	}
	memset(w->lqr, 0, sizeof(*w->lqr));
	memcpy(w->model, w->base, sizeof(w->model));
	return tagk_lqr_design(w->lqr, &w->qc, w->model, w->Q, w->R);
}

/* The start on the reference, perturbed (the authors' way, or tagk's). */
static void
initial_state(trial *w)
{
	tagk_rng *g = &w->g;
	tagk_quad_state *x = &w->x;
	tagk_real p0[3], v0[3];
	traj_eval(&w->T, 0, p0, v0);
	x->q[0] = 1;
	x->q[1] = x->q[2] = x->q[3] = 0;
	if (w->c->reference_authors) {
		tagk_real rp[3];
		for (int i = 0; i < 3; i++) {
			x->p[i] = p0[i] + (tagk_real)0.05 * tagk_rng_gaussian(g);
			rp[i] = (tagk_real)0.02 * tagk_rng_gaussian(g);
			x->v[i] = v0[i] + (tagk_real)0.01 * tagk_rng_gaussian(g);
			x->w[i] = (tagk_real)0.01 * tagk_rng_gaussian(g);
		}
		/* Rodrigues parameters to a quaternion, as their rptoq */
		tagk_real s = 1 / tagk_sqrt(1 + rp[0] * rp[0] + rp[1] * rp[1] + rp[2] * rp[2]);
		x->q[0] = s;
		for (int i = 0; i < 3; i++)
			x->q[1 + i] = s * rp[i];
	} else {
		for (int i = 0; i < 3; i++) {
			x->p[i] = p0[i] + (tagk_real)0.02 * (2 * tagk_rng_uniform(g) - 1);
			x->v[i] = v0[i];
			x->w[i] = 0;
		}
	}
	w->seen = *x;
}

/* The step's six rows (Y from the measured signals, b from the wrench or
 * the oracle) into the window ring, with the authors' sign and factor
 * errors when asked. */
static void
add_rows(trial *w, const tagk_real am[3], const tagk_real wv[3], const tagk_real al[3], const tagk_real f[3],
    const tagk_real tau[3])
{
	const tagk_trial_config *c = w->c;
	tagk_real Y[ROWS * TAGK_NPARAM], *b = w->b + w->head * ROWS;
	tagk_regressor_rigid(am, wv, al, Y);
	if (c->b_oracle) {
		tagk_gemv(ROWS, TAGK_NPARAM, Y, w->truth, b);
		if (c->regressor_authors) {
			/* their get_force_vector: the torque's first-moment term
			 * is m (mc x a), an extra factor m */
			for (int r = 3; r < ROWS; r++) {
				tagk_real h = 0;
				for (int j = TAGK_P_MCX; j <= TAGK_P_MCZ; j++)
					h += Y[r * TAGK_NPARAM + j] * w->truth[j];
				b[r] += (w->truth[TAGK_P_M] - 1) * h;
			}
		}
	}
	if (c->regressor_authors) {
		/* their get_data_matrix: four entries of the torque rows'
		 * first-moment block, -S(a), have the wrong sign */
		Y[3 * TAGK_NPARAM + TAGK_P_MCY] = -Y[3 * TAGK_NPARAM + TAGK_P_MCY];
		Y[4 * TAGK_NPARAM + TAGK_P_MCX] = -Y[4 * TAGK_NPARAM + TAGK_P_MCX];
		Y[4 * TAGK_NPARAM + TAGK_P_MCZ] = -Y[4 * TAGK_NPARAM + TAGK_P_MCZ];
		Y[5 * TAGK_NPARAM + TAGK_P_MCY] = -Y[5 * TAGK_NPARAM + TAGK_P_MCY];
	}
	memcpy(w->A + w->head * ROWS * TAGK_NPARAM, Y, sizeof(Y));
	if (!c->b_oracle) {
		for (int r = 0; r < 3; r++) {
			b[r] = f[r];
			b[3 + r] = tau[r];
		}
	}
	w->head = (w->head + 1) % c->window;
	if (w->filled < c->window)
		w->filled++;
}

/* The estimate th of an update, scored against the truth. */
static void
score(trial *w, const tagk_real th[TAGK_NPARAM], int m, int u_i)
{
	tagk_trial_result *out = w->out;
	const tagk_real *truth = w->truth;
	tagk_real rr[MAXW * ROWS];
	tagk_residual(m, TAGK_NPARAM, w->Ah, th, w->bh, rr);
	tagk_real res = tagk_sqrt(tagk_dot(m, rr, rr) / tagk_dot(m, w->bh, w->bh));
	tagk_real dn = 0, tn = 0;
	for (int j = 0; j < TAGK_NPARAM; j++) {
		dn += (th[j] - truth[j]) * (th[j] - truth[j]);
		tn += truth[j] * truth[j];
	}
	tagk_real par = tagk_sqrt(dn / tn);
	if (u_i < 64)
		out->upd_par[u_i] = par;
	/* the blocks: mass and inertia relative, the first moment as the
	 * centre of mass it implies (the truth's is often zero) */
	tagk_real be[TAGK_NERR], dh = 0;
	tagk_block_errors(th, truth, be);
	for (int j = TAGK_P_MCX; j <= TAGK_P_MCZ; j++)
		dh += (th[j] - truth[j]) * (th[j] - truth[j]);
	w->blk_sum[0] += be[TAGK_ERR_MASS];
	w->blk_sum[1] += tagk_sqrt(dh) / truth[TAGK_P_M];
	w->blk_sum[2] += be[TAGK_ERR_INERTIA];
	if (u_i < 64)
		out->upd_ierr[u_i] = be[TAGK_ERR_INERTIA];
	tagk_real ld = tagk_logdet_divergence(th, truth);
	if (ld >= 0) {
		w->ld_sum += ld;
		w->n_ld++;
	}
	w->n_ok++;
	w->res_sum += res;
	w->par_sum += par;
	if (w->pending_t1) {
		out->res_t1 += res;
		out->par_t1 += par;
		w->n_t1++;
		w->pending_t1 = 0;
	}
}

/* One update of the estimator on the window (oldest sample first) ending
 * at t; its estimate scored, and the controller redesigned on it when the
 * gate accepts it. */
static void
update(trial *w, tagk_real t)
{
	const tagk_trial_config *c = w->c;
	tagk_trial_result *out = w->out;
	int m = 0;
	for (int s = 0; s < c->window; s++) {
		int slot = (w->head + s) % c->window;
		memcpy(w->Ah + m * TAGK_NPARAM, w->A + slot * ROWS * TAGK_NPARAM, ROWS * TAGK_NPARAM * sizeof(tagk_real));
		memcpy(w->bh + m, w->b + slot * ROWS, ROWS * sizeof(tagk_real));
		m += ROWS;
	}
	tagk_real th[TAGK_NPARAM], rr[MAXW * ROWS];
	uint64_t t0 = c->ticks ? c->ticks() : 0;
	tagk_status st = tagk_est_update(w->est, w->Ah, w->bh, m, th);
	int u_i = out->updates++;
	if (c->ticks && u_i < 64)
		out->times[u_i] = c->ticks() - t0;
	if (u_i < 64) {
		out->upd_t[u_i] = t + w->qc.dt;
		out->upd_par[u_i] = out->upd_ierr[u_i] = -1;
	}
	if (st != TAGK_OK)
		return;
	int accept = 1;
	if (c->gate == TAGK_TRIAL_GATE_AUTHORS)
		accept = authors_gate(th, w->Ah, w->bh, m, rr);
	else if (c->gate == TAGK_TRIAL_GATE_EQ15)
		accept = tagk_gate(th, c->l_arm, c->alpha) == 0;
	score(w, th, m, u_i);
	if (accept) {
		tagk_lqr trial_lqr = *w->lqr;
		if (tagk_lqr_design(&trial_lqr, &w->qc, th, w->Q, w->R) == TAGK_OK) {
			*w->lqr = trial_lqr;
			memcpy(w->model, th, sizeof(w->model));
			out->accepted++;
		}
	}
}

/* Step k: control, the plant's step, the measured signals and the rows,
 * the tracking error and the success checks, then an update when due.
 * 1 to go on; 0 when the trial ends here (aborted, or *st an error). */
static int
fly_step(trial *w, int k, tagk_status *st, tagk_trial_log log, void *ctx)
{
	const tagk_trial_config *c = w->c;
	tagk_rng *g = &w->g;
	tagk_quad_state *x = &w->x;
	tagk_real t = (tagk_real)k * w->qc.dt;
	int attached = k >= w->on_step && k < w->off_step;
	memcpy(w->truth, attached ? w->loaded : w->base, sizeof(w->truth));
	if (k == w->on_step || k == w->off_step)
		w->pending_t1 = 1;
	tagk_real pref[3], vref[3], u[4];
	traj_eval(&w->T, t, pref, vref);
	if (!c->state_noise) {
		w->seen = *x;
		for (int i = 0; i < 3; i++)
			w->seen.v[i] += c->sigma_v * tagk_rng_gaussian(g);
	}
	tagk_lqr_control(w->lqr, &w->qc, &w->seen, pref, vref, u);
	for (int i = 0; i < 4; i++)
		u[i] = u[i] < 0 ? 0 : u[i] > w->qc.umax ? w->qc.umax : u[i];
	tagk_real f[3], tau[3], acc[3], al[3], am[3], wv[3] = { x->w[0], x->w[1], x->w[2] };
	tagk_quad_wrench(&w->qc, u, f, tau);
	if ((*st = tagk_quad_accel(w->truth, f, tau, x->w, acc, al)) != TAGK_OK)
		return 0;
	if (!c->state_noise)
		for (int i = 0; i < 3; i++)
			am[i] = acc[i] + c->sigma_a * tagk_rng_gaussian(g);
	tagk_quad_state prev = *x;
	if (tagk_quad_step(&w->qc, w->truth, x, u) != TAGK_OK) {
		w->out->aborted = 1;
		return 0;
	}
	if (c->state_noise) {
		/* forward differences of what is measured, rotated by the
		 * attitude at the step's start, as their get_data_matrix */
		tagk_quad_state next = *x;
		tagk_real aw[3];
		for (int i = 0; i < 3; i++) {
			next.p[i] += c->sigma_p * tagk_rng_gaussian(g);
			next.v[i] += c->sigma_v * tagk_rng_gaussian(g);
			aw[i] = (next.v[i] - w->seen.v[i]) / w->qc.dt + (i == 2 ? (tagk_real)TAGK_G0 : 0);
			al[i] = (x->w[i] - prev.w[i]) / w->qc.dt;
		}
		tagk_qrotate_t(prev.q, aw, am);
		w->seen = next;
	}
	if (log)
		log(ctx, t, am, wv, al, f, tau, w->truth, prev.p, pref);
	add_rows(w, am, wv, al, f, tau);
	tagk_real pn[3], vn[3], d[3];
	traj_eval(&w->T, t + w->qc.dt, pn, vn);
	for (int i = 0; i < 3; i++)
		d[i] = (c->state_noise ? w->seen.p[i] : x->p[i]) - pn[i];
	tagk_real e = norm3(d);
	/* their script scores the mean absolute error per axis */
	w->err_sum += c->success_authors ? (tagk_fabs(d[0]) + tagk_fabs(d[1]) + tagk_fabs(d[2])) / 3 : e;
	w->err_n++;
	if (e > (tagk_real)0.3) {
		w->out->aborted = 1;
		return 0;
	}
	if (w->check_step >= 0 ? k + 1 == w->check_step : k == w->on_step + 10 || k == w->off_step + 10) {
		w->checks++;
		w->check_ok &= e < (tagk_real)0.05;
	}
	if ((k + 1) % c->every == 0 && w->filled == c->window)
		update(w, t);
	return 1;
}

/* The means and the success verdict into out. */
static void
finish(trial *w)
{
	tagk_trial_result *out = w->out;
	int n_ok = w->n_ok;
	out->pos_err_mean = w->err_n ? w->err_sum / (tagk_real)w->err_n : 0;
	out->res_mean = n_ok ? w->res_sum / (tagk_real)n_ok : 0;
	out->par_mean = n_ok ? w->par_sum / (tagk_real)n_ok : 0;
	for (int j = 0; j < 3; j++)
		out->blk_mean[j] = n_ok ? w->blk_sum[j] / (tagk_real)n_ok : 0;
	out->ld_mean = w->n_ld ? w->ld_sum / (tagk_real)w->n_ld : -1;
	out->ok_updates = n_ok;
	out->nonphysical = n_ok - w->n_ld;
	if (w->n_t1) {
		out->res_t1 /= (tagk_real)w->n_t1;
		out->par_t1 /= (tagk_real)w->n_t1;
	}
	out->success = !out->aborted && w->checks == (w->check_step >= 0 ? 1 : 2) && w->check_ok;
}

tagk_status
tagk_trial_run(const tagk_trial_config *c, tagk_estimator *est, tagk_trial_result *out,
    tagk_trial_log log, void *ctx)
{
	if (c->window < 1 || c->window > MAXW || c->every < 1)
		return TAGK_EINVAL;
	/* large, so off the stack; not reentrant, which the LQR (whose P
	 * warm-starts each redesign within the trial) already was */
	static trial w;
	static tagk_lqr lqr;
	memset(&w, 0, sizeof(w));
	memset(out, 0, sizeof(*out));
	w.c = c, w.est = est, w.out = out, w.lqr = &lqr, w.check_ok = 1;
	tagk_rng_seed(&w.g, c->seed);
	int kind = c->traj >= 0 ? c->traj : (int)(tagk_rng_next(&w.g) % 5);
	if (c->reference_authors && kind < TAGK_TRAJ_RANDOM)
		traj_authors(&w.T, &w.g, kind, c->duration);
	else
		traj_random(&w.T, &w.g, kind);
	out->traj = kind;
	tagk_trial_vehicle(w.base);
	tagk_quad_defaults(&w.qc);
	w.qc.authors_dynamics = c->dynamics_authors;
	payload(&w);
	tagk_status st = controller(&w);
	if (st != TAGK_OK)
		return st;
	initial_state(&w);
	int steps = (int)(c->duration / w.qc.dt + (tagk_real)0.5);
	for (int k = 0; k < steps; k++)
		if (!fly_step(&w, k, &st, log, ctx)) {
			if (st != TAGK_OK)
				return st;
			break;
		}
	finish(&w);
	return TAGK_OK;
}
