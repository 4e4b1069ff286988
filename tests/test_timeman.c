/* test_timeman.c - the time plan for every 64-bit clock `go` can send:
 * extremes of wtime/winc/movestogo/movetime give limits between 1 ms and
 * CLOCK_LIMIT, soft <= hard, a clock at or below zero means move now, and
 * nothing overflows (the sanitizer build runs this too, under UBSan).
 * Then the decisions between iterations and inside the search. */
#include <stdint.h>

#include "check.h"
#include "timeman.h"

static const int64_t extremes[] = {INT64_MIN + 1, INT64_MIN / 2, -1000000, -1, 0, 1, 100, 60000,
                                   INT64_MAX / 4, INT64_MAX - 1, INT64_MAX};
#define NEXT (int)(sizeof extremes / sizeof extremes[0])

/* The soft stop: never without a clock or with movetime; a forced move
 * stops at depth 4; a settled best move stops sooner than a changing one,
 * a falling score later than a steady one; never before the soft time's
 * smallest scale (0.7 x 0.2 x 1.35 of it) nor past its largest (1.3 x 1.5 x 1.5). */
static void soft_stop(void)
{
    TimePlan none = {-1, -1, false}, fixed = {1000, 1000, true}, tp = {1000, 4000, false};
    Iteration it = {.depth = 10, .nroot = 20, .stable = 0, .best_share = 0.5, .score = 30, .prev_score = 30};
    CHECK(!time_soft_over(&none, 1000000, &it), "no clock: the soft limit never stops");
    CHECK(!time_soft_over(&fixed, 999, &it), "movetime: no early stop");
    Iteration forced = it;
    forced.nroot = 1;
    forced.depth = 3;
    CHECK(!time_soft_over(&tp, 0, &forced), "a forced move searches to depth 4");
    forced.depth = 4;
    CHECK(time_soft_over(&tp, 0, &forced), "a forced move stops at depth 4");
    /* The first elapsed time at which each iteration would stop. */
    int64_t at[3];
    Iteration cases[3] = {it, it, it};
    cases[1].stable = 6, cases[1].best_share = 0.9;   /* settled */
    cases[2].prev_score = 130;                        /* fell by a pawn */
    for (int c = 0; c < 3; c++) {
        at[c] = -1;
        for (int64_t ms = 0; ms <= 4000 && at[c] < 0; ms++)
            if (time_soft_over(&tp, ms, &cases[c]))
                at[c] = ms;
        CHECK(at[c] >= 189 && at[c] <= 2925, "case %d stops at %lld ms, outside [189, 2925]", c, (long long)at[c]);
    }
    CHECK(at[1] < at[0], "a settled best move stops sooner (%lld ms) than a new one (%lld ms)", (long long)at[1],
          (long long)at[0]);
    CHECK(at[2] > at[0], "a falling score searches longer (%lld ms) than a steady one (%lld ms)", (long long)at[2],
          (long long)at[0]);
    Iteration mate = cases[2];
    mate.score = -TB_WIN_BOUND - 5;
    mate.prev_score = 0;
    int64_t t;
    for (t = 0; t <= 4000 && !time_soft_over(&tp, t, &mate); t++)
        ;
    CHECK(t == at[0], "a fall into a tablebase or mate score adds no time (%lld, %lld ms)", (long long)t,
          (long long)at[0]);
    CHECK(!time_hard_over(&none, INT64_MAX / 2), "no clock: no hard stop");
    CHECK(!time_hard_over(&tp, 3999) && time_hard_over(&tp, 4000), "the hard limit stops at 4000 ms");
}

static void check_plan(const TimePlan *tp, const char *what, int64_t a, int64_t b)
{
    CHECK(tp->soft >= 1 && tp->hard >= 1 && tp->soft <= tp->hard && tp->hard <= CLOCK_LIMIT,
          "%s %lld %lld: soft %lld hard %lld", what, (long long)a, (long long)b, (long long)tp->soft,
          (long long)tp->hard);
}

int main(void)
{
    static const int mtgs[] = {0, 1, 2, 50, 9999};
    static const int overheads[] = {0, 10, 5000};
    for (int o = 0; o < 3; o++)
        for (int i = 0; i < NEXT; i++) {
            for (int j = 0; j < NEXT; j++)
                for (int m = 0; m < 5; m++) {
                    Limits lim;
                    limits_init(&lim);
                    lim.time[WHITE] = extremes[i];
                    lim.inc[WHITE] = extremes[j];
                    lim.movestogo = mtgs[m];
                    TimePlan tp = time_plan(&lim, WHITE, overheads[o]);
                    check_plan(&tp, "wtime/winc", extremes[i], extremes[j]);
                    if (extremes[i] <= 0 && extremes[j] <= 0)
                        CHECK(tp.hard <= 1, "a clock of %lld ms must mean move now, not %lld ms",
                              (long long)extremes[i], (long long)tp.hard);
                    if (extremes[i] >= 60000 && m != 1)
                        CHECK(tp.soft >= 10, "a clock of %lld ms gives only %lld ms", (long long)extremes[i],
                              (long long)tp.soft);
                }
            Limits lim;
            limits_init(&lim);
            lim.movetime = extremes[i] < 0 ? 0 : extremes[i];
            TimePlan tp = time_plan(&lim, BLACK, overheads[o]);
            check_plan(&tp, "movetime", extremes[i], overheads[o]);
            CHECK(tp.fixed, "movetime is a fixed time");
        }
    /* Only an absent clock means "no time limit". */
    Limits lim;
    limits_init(&lim);
    TimePlan tp = time_plan(&lim, WHITE, 10);
    CHECK(tp.soft < 0 && tp.hard < 0, "no clock: no time limit");
    lim.time[BLACK] = clamp_clock(INT64_MIN);
    tp = time_plan(&lim, BLACK, 10);
    CHECK(tp.hard == 1, "the smallest 64-bit clock means move now, not %lld", (long long)tp.hard);
    soft_stop();
    return check_report("test_timeman");
}
