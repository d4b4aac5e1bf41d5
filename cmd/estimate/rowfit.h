/*
 * rowfit.h: tagk-estimate's model-fit check after estimation: can a
 * physical body explain each kind of row (each axis of a rigid body: fx fy
 * fz tx ty tz; each joint of an arm) to within the noise the rows show?
 *
 * A misread log (an axis's or a joint's effort of the wrong sign or unit,
 * two columns exchanged, a joint's zero offset, another robot's
 * description, a thrust map or a torque that is not the one acting) leaves
 * a residual b - a theta on the rows it touches that follows the motion: a
 * smooth signal, often as large as the row's target. Noise is rough. So
 * per kind k and per block of rows the check keeps the Gram matrices of
 * z = [a, b] and of its fourth difference over consecutive samples d (for
 * white noise of sd s the residual's fourth difference has sd s sqrt(70);
 * a motion sampled 20 or more times a period leaves under 1 % of its
 * amplitude in it), and reads, with theta the block's least-squares body
 * (z . [-theta, 1] is the residual):
 *
 *   res   the residual's rms,
 *   noise the rms of its fourth difference / sqrt(70): the noise the rows
 *         show, whatever part of them (a or b) carries it,
 *   typ   the kind's size: the larger rms of b and of a theta,
 *   resp  the residual's rms with the block's physically consistent
 *         least-squares body (pcls.h; a mass: at least 0).
 *
 * The block's own fit, not the method's estimate: a load that changes
 * during the log, or a method that lags it (rls-low leaves 11 to 42 % of
 * the rows of a right simulated flight for seconds after each payload
 * event), is no misfit of the model; the method's own miss is the note on
 * its windows' prediction error. A kind misfits (rowfit.c, verdict) when,
 * in the median block, no body explains it (res far over the noise and a
 * large part of typ), or only a body that is not physical does (resp a
 * large part of typ, over the noise and well over res): an axis's sign or
 * unit is absorbed by its own inertia turned negative, which the
 * unconstrained fit alone cannot see. The cause is named when one kind,
 * left out of the fits, leaves all the others well fitted in most blocks
 * that misfit (a single axis's or joint's sign, unit or column). Kinds
 * whose b is 0 in every row
 * (--wrench thrust's lateral forces: no measurement, the residual is the
 * model's lateral force) are not judged.
 *
 * Blocks: RF_BLOCK_S seconds of at least RF_BLOCK_MIN samples. Memory:
 * two (n+1)^2 Gram matrices per kind, and nine numbers per kind for each
 * of at most RF_MAX_BLOCKS blocks kept (past that, every other one, evenly
 * over the log); kinds a sample gains after the first block are not
 * judged.
 */
#ifndef TAGK_ROWFIT_H
#define TAGK_ROWFIT_H

typedef struct rowfit rowfit;

enum { RF_KINDS = 64, RF_BLOCK_MIN = 50, RF_MAX_BLOCKS = 256 };
#define RF_BLOCK_S 2.0

/* A check of rows of n parameters; NULL (no check) unless 1 <= n <= 10.
 * Dies out of memory. */
rowfit *rowfit_new(int n);
/* A row of kind k (its index in its sample, 0 .. RF_KINDS - 1; others
 * are ignored) with regressor a (n) and target b. */
void rowfit_add(rowfit *f, int k, const double *a, double b);
/* A sample begins at time t: the open block is closed first when it is
 * due, and judged by its own least-squares body. */
void rowfit_sample(rowfit *f, double t);

/* Judge the blocks closed (and the open one, if it is long enough or the
 * only one) and
 * say a misfit as a caution (cli_caution, which the stream carries) naming
 * the kinds and the likely causes; arm: the rows are an arm's joints;
 * verbose: every kind's figures on stderr. Returns the kinds that misfit. */
int rowfit_judge(rowfit *f, int arm, int verbose);
void rowfit_free(rowfit *f);

#endif
