/*
 * detect.h: online detection of a change in a linear regression's
 * parameters from the residuals of its windows against the estimate
 * before each update (tagk-estimate --detect).
 *
 * Use (every array the caller's; nothing allocated, nothing printed):
 *
 *   tagk_detect_config cfg;
 *   tagk_detect_defaults(&cfg, arl_updates);      // mean updates between false alarms
 *   tagk_detect d;
 *   tagk_detect_init(&d, &cfg, kinds);            // kinds: rows per sample
 *   for each window A (m x n), b, kind[m] (each row's index in its sample),
 *   with theta the estimate BEFORE the window's update:
 *       int alarm;
 *       tagk_detect_update(&d, n, m, A, b, kind, theta, &alarm);
 *       if (alarm) ... d.onset is the update (counted from 0) where the
 *                      evidence began; re-open the estimator
 *
 * The statistic, update k (Gustafsson, "Adaptive Filtering and Change
 * Detection", ch. 3 and 5, with the noise scale learnt from the data):
 *
 *   r_i   = b_i - A_i theta                 residual of row i
 *   mu_j  = mean of r_i over the rows of kind j in the window (rows all
 *           zero, A_i and b_i, say nothing and are left out)
 *   z_j^2 = mu_j^2 / V_j                    V_j: the mean square of mu_j over
 *                                           past windows (batch means)
 *   l_j   = (nu+1)/2 [ln(1 + z_j^2/nu) - ln(1 + z_j^2/(ratio nu))] - ln(ratio)/2
 *   g_j   = max(0, g_j + l_j);  alarm when some g_j > h + ln K (K kinds present)
 *
 * l_j is the log-likelihood ratio of z_j being Student-t with nu degrees of
 * freedom and scale sqrt(ratio) against scale 1, so each g_j is Page's
 * CUSUM, whose mean run between false alarms is at least e^(h + ln K) when
 * the model holds (Lorden 1971); K of them in parallel alarm at most K
 * times as often, so h = ln(ARL) (tagk_detect_threshold) keeps false alarms
 * at most as frequent as asked. Why these choices, measured on real
 * Crazyflie logs and simulated payload flights (tests/detect_test.sh):
 * - window means, not rows: their scale V is measured over past windows,
 *   which absorbs the noise's colour within a window and a mis-set noise
 *   setting of the estimator (a real log's residuals are neither white nor
 *   what R says);
 * - one CUSUM per kind: a mass change moves the force rows, a centre of
 *   mass the torque rows; summed, the quiet kinds would dilute it;
 * - Student-t, not Gaussian: real residuals come in bursts (window means
 *   of 10 to 20 times their usual size on a real flight), and under a
 *   heavy-tailed model one window adds at most (nu/2) ln(ratio) = 13.8 to
 *   g_j however large it is, so a burst does not alarm at once while a step
 *   of tens of sd does within one or two windows.
 *
 * Phases: the first cfg.skip updates are ignored (the estimator leaves its
 * prior), the next cfg.learn set V (their plain mean) without testing;
 * then V follows the data with memory cfg.memory updates (not clipped: a
 * log whose bursts are its noise raises V to them). V_j is floored at
 * 1e-12 of the mean square of kind j's b: below that is rounding. After an
 * alarm every g_j restarts at 0, each V_j that the alarm's excursion had
 * taught goes back to its value before it (those windows were the change,
 * not noise), and the next cfg.skip + cfg.learn updates are neither tested
 * nor learnt from: the re-opened estimator converges, its prediction
 * errors larger than a settled one's. So changes closer than that are
 * seen as one.
 */
#ifndef TAGK_DETECT_H
#define TAGK_DETECT_H

#include "scalar.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TAGK_DETECT_KINDS = 64 };

typedef struct {
	tagk_real h;     /* alarm threshold, > 0 (tagk_detect_threshold) */
	tagk_real ratio; /* the variance ratio tested for, > 1 (default 1000) */
	tagk_real nu;    /* the t model's degrees of freedom, > 0 (default 4) */
	int skip;        /* updates ignored at the start and after an alarm, >= 0 (3) */
	int learn;       /* updates that learn V before testing, >= 1 (20) */
	int memory;      /* V's exponential memory, in updates, >= 1 (50) */
} tagk_detect_config;

typedef struct {
	tagk_detect_config cfg;
	int kinds;                      /* row kinds, 1 .. TAGK_DETECT_KINDS */
	tagk_real V[TAGK_DETECT_KINDS]; /* mean square of each kind's window mean */
	tagk_real B[TAGK_DETECT_KINDS]; /* mean square of each kind's b (V's floor) */
	long updates;                   /* updates seen since init */
	long since;                     /* updates since init or the last alarm */
	long learnt;                    /* windows V has learnt from */
	tagk_real g[TAGK_DETECT_KINDS]; /* each kind's CUSUM */
	long start[TAGK_DETECT_KINDS];  /* the update where g_j last left 0 */
	tagk_real Vsave[TAGK_DETECT_KINDS], Bsave[TAGK_DETECT_KINDS]; /* V, B then */
	tagk_real gmax;                 /* the largest g_j after the last update */
	int tested;                     /* 1 if the last update was tested */
	long onset;                     /* the update where the alarming g_j's
	                                   excursion began; -1 before any alarm */
	int kind;                       /* the alarming kind; -1 before any */
	long alarms;
} tagk_detect;

/* h for a mean of arl updates between false alarms (> 1): ln(arl); 0 for
 * arl <= 1. */
tagk_real tagk_detect_threshold(double arl);
/* The defaults above with h = tagk_detect_threshold(arl). */
void tagk_detect_defaults(tagk_detect_config *cfg, double arl);
/* Wire d to cfg for kinds row kinds. TAGK_EINVAL (d untouched) for a
 * setting out of range or kinds outside 1 .. TAGK_DETECT_KINDS. */
tagk_status tagk_detect_init(tagk_detect *d, const tagk_detect_config *cfg, int kinds);
/* One window: A (m x n, row-major), b (m), kind (m, each in 0 .. kinds-1),
 * theta (n) the estimate before the window's update. *alarm is 1 when a
 * g_j crossed h + ln K at this update (d->onset and d->kind then say where
 * its excursion began and which kind; every g_j restarts), else 0. TAGK_EINVAL for a kind out of range and
 * TAGK_ENONFINITE for a residual that is not finite: d is then untouched
 * and *alarm 0. */
tagk_status tagk_detect_update(tagk_detect *d, int n, int m, const tagk_real *A, const tagk_real *b,
    const int *kind, const tagk_real *theta, int *alarm);
/* The same from the window's per-kind residual means mu (kinds), their row
 * counts cnt (kinds; 0: the kind is absent) and mean squared b per kind
 * bsq (kinds): for a caller that forms residuals itself. */
tagk_status tagk_detect_means(tagk_detect *d, const tagk_real *mu, const int *cnt, const tagk_real *bsq,
    int *alarm);

#ifdef __cplusplus
}
#endif

#endif
