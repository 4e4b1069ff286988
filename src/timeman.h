/* timeman.h - how long to think: a soft limit checked between iterations and
 * a hard limit checked inside the search. */
#ifndef HEXE_TIMEMAN_H
#define HEXE_TIMEMAN_H

#include "search.h"

typedef struct {
    int64_t soft, hard; /* ms from the start; -1: no limit */
    bool fixed;         /* movetime: use it all, no early stop */
} TimePlan;

int64_t now_ms(void);
int64_t now_us(void); /* the same clock in microseconds */
TimePlan time_plan(const Limits *lim, int side, int move_overhead);

#endif
