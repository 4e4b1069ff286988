/* test_timeman.c - the time plan for every 64-bit clock `go` can send:
 * extremes of wtime/winc/movestogo/movetime give limits between 1 ms and
 * CLOCK_LIMIT, soft <= hard, a clock at or below zero means move now, and
 * nothing overflows (the sanitizer build runs this too, under UBSan). */
#include <stdint.h>

#include "check.h"
#include "timeman.h"

static const int64_t extremes[] = {INT64_MIN + 1, INT64_MIN / 2, -1000000, -1, 0, 1, 100, 60000,
                                   INT64_MAX / 4, INT64_MAX - 1, INT64_MAX};
#define NEXT (int)(sizeof extremes / sizeof extremes[0])

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
    return check_report("test_timeman");
}
