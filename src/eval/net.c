/* net.c - the learnt correction of the `hexe` evaluation (net.h).
 *
 * Each search thread's NetSums keeps the two halves' sums for the last
 * position it evaluated
 * (one for each side's view, whoever is to move) with that position's
 * square sets; the next call adds and subtracts only the rows of the pieces
 * that differ, which in a search are a few, and sums from scratch when more
 * than REFRESH squares differ. Integer arithmetic, so either way gives the
 * same sums. */
#include "net.h"

#include <stdlib.h>
#include <string.h>

#include "../platform.h"
#include "bits.h"
#include "hexe_net.inc"

#define REFRESH 12

typedef struct {
    uint64_t bb[16]; /* the square sets the sums were made for */
    int32_t acc[2][NET_HIDDEN] __attribute__((aligned(64))); /* by view: WHITE, BLACK */
} Accumulator;

struct NetSums {
    Accumulator last;
    bool valid;
};

NetSums *net_sums_new(void) { return hexe_aligned_zalloc(64, sizeof(NetSums)); }

void net_sums_free(NetSums *s) { hexe_aligned_free(s); }

void net_sums_forget(NetSums *s)
{
    if (s)
        s->valid = false;
}

static inline void add_row(int32_t *acc, int input, int sign)
{
    const int16_t *w = net_w1[input];
    for (int h = 0; h < NET_HIDDEN; h++)
        acc[h] += sign * w[h];
}

static void refresh(Accumulator *a, const Position *pos)
{
    for (int v = WHITE; v <= BLACK; v++)
        for (int h = 0; h < NET_HIDDEN; h++)
            a->acc[v][h] = net_b1[h];
    for (int c = WHITE; c <= BLACK; c++)
        for (int t = PAWN; t <= KING; t++)
            for (Bits x = pos->bb[MAKE_PIECE(c, t)]; x; x &= x - 1)
                for (int v = WHITE; v <= BLACK; v++)
                    add_row(a->acc[v], net_input(v, c, t, lsb(x)), 1);
    memcpy(a->bb, pos->bb, sizeof a->bb);
}

static void update(Accumulator *a, const Position *pos)
{
    int changed = 0;
    for (int p = 0; p < 16; p++)
        changed += popcount(a->bb[p] ^ pos->bb[p]);
    if (changed > REFRESH) {
        refresh(a, pos);
        return;
    }
    for (int c = WHITE; c <= BLACK; c++)
        for (int t = PAWN; t <= KING; t++) {
            int p = MAKE_PIECE(c, t);
            Bits gone = a->bb[p] & ~pos->bb[p], come = pos->bb[p] & ~a->bb[p];
            for (; gone; gone &= gone - 1)
                for (int v = WHITE; v <= BLACK; v++)
                    add_row(a->acc[v], net_input(v, c, t, lsb(gone)), -1);
            for (; come; come &= come - 1)
                for (int v = WHITE; v <= BLACK; v++)
                    add_row(a->acc[v], net_input(v, c, t, lsb(come)), 1);
            a->bb[p] = pos->bb[p];
        }
}

int net_correction(NetSums *s, const Position *pos)
{
    if (!s->valid) {
        refresh(&s->last, pos);
        s->valid = true;
    } else {
        update(&s->last, pos);
    }
    int64_t out = net_b2;
    for (int k = 0; k < 2; k++) {
        const int32_t *acc = s->last.acc[k == 0 ? pos->side : !pos->side];
        for (int h = 0; h < NET_HIDDEN; h++) {
            int32_t a = acc[h] < 0 ? 0 : acc[h] > NET_Q1 ? NET_Q1 : acc[h];
            out += (int64_t)net_w2[k * NET_HIDDEN + h] * a;
        }
    }
    return (int)(out / ((int64_t)NET_Q1 * NET_Q2));
}
