/*
** ves.c -- BIRD's VES and R-VES from per-run time ratios (ves.h).
**
** Layer: backend/eval.  Pure arithmetic, so that the scripts' rules are
** tested on fixed numbers (tests/unit/test_eval.c); the timing itself is
** sq_ex_time's (metric.h).
*/
#include "backend/eval/ves.h"

#include <math.h>

double sq_ves_time_ratio(const double *ratios, size_t n) {
    if (!n) return 0;
    double mean = 0, var = 0;
    for (size_t i = 0; i < n; i++) mean += ratios[i];
    mean /= (double)n;
    for (size_t i = 0; i < n; i++) var += (ratios[i] - mean) * (ratios[i] - mean);
    double sd = sqrt(var / (double)n), sum = 0;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (ratios[i] < mean + 3 * sd && ratios[i] > mean - 3 * sd) sum += ratios[i], kept++;
    return kept ? sum / (double)kept : 0;
}

double sq_rves_reward(double r) {
    if (r == 0) return 0;
    if (r >= 2) return 1.25;
    if (r >= 1) return 1;
    if (r >= 0.5) return 0.75;
    if (r >= 0.25) return 0.5;
    return 0.25;
}
