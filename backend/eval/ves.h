/*
** ves.h -- BIRD's efficiency scores: VES (the BIRD dev release) and
** R-VES (the Mini-Dev release's reward-based one), from the running times
** of a correct prediction and its gold query.
**
** Layer: backend/eval.  The scripts run both queries N times (100 by
** default), take each run's ratio gold time / prediction time, keep the
** ratios strictly within three standard deviations of their mean (numpy's
** population deviation), and average what is kept: the time ratio.  A
** prediction that is not correct (or fails, or runs out of time) has 0.
**   VES    per item sqrt(time ratio) * 100; the mean over items.
**   R-VES  per item sqrt(reward) * 100, reward by the time ratio: 1.25 at
**          2 or more, 1 from 1, 0.75 from 0.5, 0.5 from 0.25, 0.25 below,
**          0 for 0; the mean over items.
** Quirk kept: when every ratio is the same (a single run, or runs timed
** alike), none lies strictly within the band, the scripts divide by zero
** and score the item 0.  Running times depend on the machine: the scores
** are measurements, not verdicts (docs/squint-eval.md, "VES and R-VES").
*/
#ifndef SQ_EVAL_VES_H
#define SQ_EVAL_VES_H

#include <stddef.h>

/* The time ratio of n per-run ratios (gold / prediction) after the outlier
** rule; 0 when nothing is kept (the scripts' division by zero). */
double sq_ves_time_ratio(const double *ratios, size_t n);
/* R-VES's reward for a time ratio. */
double sq_rves_reward(double time_ratio);

#endif
