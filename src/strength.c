/* strength.c - strength levels: UCI_Elo to a level, the level to a node
 * budget and to the looseness of the choice among the best root moves. */
#include "strength.h"

#include <math.h>

#include "timeman.h"

/* UCI_Elo to a level, interpolated between anchors measured against
 * Stockfish 15.1's own UCI_Elo levels at 5+0.05 (docs/strength.md,
 * "Against Stockfish's UCI_Elo levels"; scripts/calibrate-elo). Stockfish's
 * scale is flat at the top: level 18.1 scored -131 against its 2250 and
 * full strength +42, so every UCI_Elo from 2250 up is full strength, which
 * scores about -45 against its 2500 (500 games; docs/strength.md). */
static const struct {
    int elo;
    double level;
} elo_anchors[] = {{1000, 0}, {1500, 6.6}, {2000, 13.8}, {2250, 20}};
#define NANCHORS ((int)(sizeof elo_anchors / sizeof elo_anchors[0]))

double strength_level(const SearchParams *p)
{
    if (!p->limit_strength)
        return p->skill < 20 ? p->skill : 20;
    int e = p->elo;
    if (e <= elo_anchors[0].elo)
        return elo_anchors[0].level;
    for (int i = 1; i < NANCHORS; i++)
        if (e <= elo_anchors[i].elo)
            return elo_anchors[i - 1].level + (elo_anchors[i].level - elo_anchors[i - 1].level) *
                                                  (e - elo_anchors[i - 1].elo) /
                                                  (elo_anchors[i].elo - elo_anchors[i - 1].elo);
    return elo_anchors[NANCHORS - 1].level;
}

bool strength_limited(const SearchParams *p) { return strength_level(p) < 20; }

static uint64_t node_budget(double level) { return (uint64_t)(60 * pow(1.55, level)); }

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static double rng_uniform(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (rng_state >> 11) * (1.0 / 9007199254740992.0);
}

void strength_limit(Limits *lim, const SearchParams *p)
{
    if (!strength_limited(p))
        return;
    uint64_t budget = node_budget(strength_level(p));
    if (!lim->nodes || lim->nodes > budget)
        lim->nodes = budget;
    rng_state ^= (uint64_t)now_ms() * 0x2545F4914F6CDD1DULL;
    if (!rng_state)
        rng_state = 1;
}

/* A soft-max over the score deficits: weight exp(-deficit / temperature),
 * nothing further behind than four temperatures. */
int strength_pick(const int *scores, int n, const SearchParams *p)
{
    if (!strength_limited(p) || n < 2)
        return 0;
    if (n > STRENGTH_CHOICES)
        n = STRENGTH_CHOICES;
    double temp = 5 + 2 * (20 - strength_level(p)); /* centipawns */
    double w[STRENGTH_CHOICES], sum = 0;
    for (int i = 0; i < n; i++) {
        int s = scores[i];
        w[i] = (s == -INF || scores[0] - s > 4 * temp) ? 0 : exp((s - scores[0]) / temp);
        sum += w[i];
    }
    double r = rng_uniform() * sum;
    for (int i = 0; i < n; i++) {
        if (r < w[i])
            return i;
        r -= w[i];
    }
    return 0;
}
