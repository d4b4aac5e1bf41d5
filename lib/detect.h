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
 *   r_i     = b_i - A_i theta                 residual of row i
 *   mu_j    = mean of r_i over the rows of kind j in the window
 *   z_j^2   = min(mu_j^2 / V_j, cap)          V_j: the mean square of mu_j
 *                                             over past windows (batch means)
 *   s       = sum over the K kinds present of z_j^2
 *   l       = (1 - 1/ratio) s / 2 - K ln(ratio) / 2
 *   g       = max(0, g + l);  alarm when g > h.
 *
 * l is the log-likelihood ratio of the window means' variance being ratio
 * times V against being V (Gaussian means), so g is Page's CUSUM, for which
 * the mean number of updates between false alarms is at least e^h when the
 * model holds (Lorden 1971): h = ln(ARL) (tagk_detect_threshold) keeps false
 * alarms at most as frequent as asked. Window means, not rows, are tested:
 * their scale V is measured over past windows, which absorbs the noise's
 * colour within a window and any mis-set noise of the estimator (a real
 * log's residuals are neither white nor what R says). The cap bounds what
 * one outlying window adds, so that a single spike does not alarm while a
 * step, which moves every window after it (or, for a fast estimator, all
 * kinds at once), does.
 *
 * Phases: the first cfg.skip updates are ignored (the estimator leaves its
 * prior), the next cfg.learn set V (their plain mean) without testing;
 * then V follows the data with memory cfg.memory updates, each window's
 * mu_j^2 clipped at 9 V_j so that a change is not absorbed. V_j is floored
 * at 1e-12 of the mean square of kind j's b: below that is rounding. After
 * an alarm g restarts at 0 and cfg.skip updates are ignored again (the
 * re-opened estimator converging); V is kept (the noise did not change).
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
	tagk_real h;     /* alarm threshold on g, > 0 (tagk_detect_threshold) */
	tagk_real ratio; /* the variance ratio tested for, > 1 (default 4) */
	tagk_real cap;   /* largest z_j^2 one window adds, > 0 (default 50) */
	int skip;        /* updates ignored at the start and after an alarm, >= 0 (3) */
	int learn;       /* updates that learn V before testing, >= 1 (20) */
	int memory;      /* V's exponential memory, in updates, >= 1 (100) */
} tagk_detect_config;

typedef struct {
	tagk_detect_config cfg;
	int kinds;                      /* row kinds, 1 .. TAGK_DETECT_KINDS */
	tagk_real V[TAGK_DETECT_KINDS]; /* mean square of each kind's window mean */
	tagk_real B[TAGK_DETECT_KINDS]; /* mean square of each kind's b (V's floor) */
	long updates;                   /* updates seen since init */
	long since;                     /* updates since init or the last alarm */
	long learnt;                    /* windows V has learnt from */
	tagk_real g;                    /* the CUSUM */
	tagk_real l;                    /* the last update's increment (0 untested) */
	long onset;                     /* the update where the current (or the
	                                   alarmed) excursion of g began; -1 none */
	long alarms;
} tagk_detect;

/* h for a mean of arl updates between false alarms (> 1): ln(arl). */
tagk_real tagk_detect_threshold(double arl);
/* The defaults above with h = tagk_detect_threshold(arl). */
void tagk_detect_defaults(tagk_detect_config *cfg, double arl);
/* Wire d to cfg for kinds row kinds. TAGK_EINVAL (d untouched) for a
 * setting out of range or kinds outside 1 .. TAGK_DETECT_KINDS. */
tagk_status tagk_detect_init(tagk_detect *d, const tagk_detect_config *cfg, int kinds);
/* One window: A (m x n, row-major), b (m), kind (m, each in 0 .. kinds-1),
 * theta (n) the estimate before the window's update. *alarm is 1 when g
 * crossed h at this update (d->onset then says where the excursion began
 * and g restarts), else 0. TAGK_EINVAL for a kind out of range and
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
