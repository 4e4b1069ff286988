/* timeman.c - time allocation for every kind of time control. */
#include "timeman.h"

#include <stdlib.h>
#include <time.h>

#include "tunables.h"

int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t now_ms(void) { return now_us() / 1000; }

TimePlan time_plan(const Limits *lim, int side, int move_overhead)
{
    TimePlan tp = {-1, -1, false};
    if (lim->infinite)
        return tp;
    if (lim->movetime >= 0) {
        int64_t t = clamp_clock(lim->movetime) - move_overhead;
        tp.soft = tp.hard = t < 1 ? 1 : t;
        tp.fixed = true;
        return tp;
    }
    if (lim->time[side] == NO_TIME)
        return tp; /* depth, nodes or mate only */

    /* What may be spent: the clock less the overhead, and a small reserve so
     * that process scheduling on a loaded machine never flags us. */
    /* A clock at or below zero means: move now (left becomes 1 ms below). */
    int64_t left = clamp_clock(lim->time[side]) - move_overhead;
    int64_t inc = lim->inc[side] > 0 ? clamp_clock(lim->inc[side]) : 0;
    int64_t reserve = left / 50 < 20 ? left / 50 : 20;
    left -= reserve;
    if (left < 1)
        left = 1;

    /* Sudden death: plan as if TM_MOVES (25) moves remained (30 left 0.7 s
     * of a 5 s clock unused at the end of a typical game; CHANGELOG.md, 0.4). */
    int mtg = lim->movestogo > 0 ? lim->movestogo : TM_MOVES;
    if (mtg > 50)
        mtg = 50;

    int64_t soft, hard;
    if (mtg == 1) {
        /* The clock is refilled after this move: use up to about half, never all. */
        soft = left / 2;
        hard = left * 3 / 4;
    } else {
        soft = left / mtg + inc * TM_INC / 100;
        hard = soft * 4;
        int64_t cap = lim->movestogo > 0 ? left * 2 / 5 : left / 3;
        if (hard > cap)
            hard = cap;
        if (soft > hard)
            soft = hard;
    }
    tp.soft = soft < 1 ? 1 : soft;
    tp.hard = hard < 1 ? 1 : hard;
    return tp;
}

bool time_soft_over(const TimePlan *p, int64_t elapsed, const Iteration *it)
{
    if (p->soft < 0 || p->fixed)
        return false;
    if (it->nroot == 1 && it->depth >= 4)
        return true; /* a forced move: answer quickly */
    /* Less time when the best move has stayed the same and takes most of the
     * effort, more when it changes or has rivals (the TM_ scales are in
     * hundredths: 1.3 - 0.1 a stable iteration, (1.5 - share) * 1.35). */
    double scale = TM_STABLE_BASE / 100.0 - TM_STABLE_STEP / 100.0 * (it->stable < 6 ? it->stable : 6);
    double node_scale = (TM_NODE_BASE / 100.0 - it->best_share) * (TM_NODE_MUL / 100.0);
    scale *= node_scale < 1.5 ? node_scale : 1.5;
    /* More time when the score has just fallen. */
    if (it->prev_score != -INF && abs(it->score) < TB_WIN_BOUND) {
        int fall = it->prev_score - it->score;
        double more = fall <= 0 ? 0.0 : fall / (double)TM_FALL_DIV;
        scale *= 1.0 + (more < 0.5 ? more : 0.5);
    }
    return elapsed >= (int64_t)(p->soft * scale);
}
