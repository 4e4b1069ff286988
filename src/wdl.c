/* wdl.c - the win/draw/loss model and the UCI form of a score. */
#include "wdl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* UCI_ShowWDL: win/draw/loss per mille for a score, from a logistic model
 * fitted on Hexe's own self-play games by scripts/fit-wdl (docs/tuning.md):
 * P(win) = 1 / (1 + exp(-(s - WDL_A) / WDL_B)), P(loss) likewise for -s. */
#define WDL_A 125
#define WDL_B 101
static void wdl_of(int s, int *w, int *d, int *l)
{
    if (s >= TB_WIN_BOUND || s <= -TB_WIN_BOUND) {
        *w = s > 0 ? 1000 : 0;
        *l = s > 0 ? 0 : 1000;
        *d = 0;
        return;
    }
    *w = (int)lround(1000.0 / (1.0 + exp(-(s - WDL_A) / (double)WDL_B)));
    *l = (int)lround(1000.0 / (1.0 + exp(-(-s - WDL_A) / (double)WDL_B)));
    *d = 1000 - *w - *l;
}

void format_score(int s, bool show_wdl, char *buf, size_t n)
{
    if (s >= MATE_IN_MAX)
        snprintf(buf, n, "mate %d", (MATE - s + 1) / 2);
    else if (s <= -MATE_IN_MAX)
        snprintf(buf, n, "mate %d", -(MATE + s) / 2);
    else
        snprintf(buf, n, "cp %d", s);
    if (show_wdl) {
        int w, d, l;
        wdl_of(s, &w, &d, &l);
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, " wdl %d %d %d", w, d, l);
    }
}
