/* timeman.h - how long to think: a soft limit checked between iterations and
 * a hard limit checked inside the search. */
#ifndef HEXE_TIMEMAN_H
#define HEXE_TIMEMAN_H

#include "searchlimits.h"

typedef struct {
    int64_t soft, hard; /* ms from the start; -1: no limit */
    bool fixed;         /* movetime: use it all, no early stop */
} TimePlan;

int64_t now_ms(void);
int64_t now_us(void); /* the same clock in microseconds */
TimePlan time_plan(const Limits *lim, int side, int move_overhead);

/* The hard limit: the search stops wherever it is. */
static inline bool time_hard_over(const TimePlan *p, int64_t elapsed) { return p->hard >= 0 && elapsed >= p->hard; }

/* What the iteration just completed tells about the next one. */
typedef struct {
    int depth;          /* the depth completed */
    int nroot;          /* root moves searched */
    int stable;         /* iterations in a row the best move has not changed */
    double best_share;  /* the share of the nodes spent below the best move */
    int score;          /* the best move's score */
    int prev_score;     /* the previous iteration's, -INF at the first */
} Iteration;

/* The soft limit, between iterations: true when no new iteration should
 * start. The soft time scaled by how settled the best move is. */
bool time_soft_over(const TimePlan *p, int64_t elapsed, const Iteration *it);

#endif
