/* see.c - static exchange evaluation: the material outcome of the capture
 * sequence on one square, each side recapturing with its least valuable
 * attacker. X-rays appear because captured-from squares are cleared on a
 * scratch copy of the board before the next attacker is looked for. */
#include "position.h"

#include <string.h>

static const int see_value[8] = {0, 100, 320, 330, 500, 950, 20000, 0};

/* The square of `side`'s least valuable piece attacking `to` on board b, or -1. */
static int least_attacker(const Position *pos, const uint8_t *b, int to, int side)
{
    int pawn = MAKE_PIECE(side, PAWN);
    int back = side == WHITE ? -16 : 16;
    if (!OFFBOARD(to + back - 1) && b[to + back - 1] == pawn)
        return to + back - 1;
    if (!OFFBOARD(to + back + 1) && b[to + back + 1] == pawn)
        return to + back + 1;
    int best = -1, best_type = 7;
    for (int i = 0, n = pos->npieces[side]; i < n; i++) {
        int s = pos->pieces[side][i];
        int p = b[s];
        if (p != pos->board[s]) /* already used in this exchange */
            continue;
        int t = PTYPE(p);
        if (t >= best_type)
            continue;
        int d = DELTA(s, to);
        if (!(attack_kinds[d] & (1 << t)))
            continue;
        if (t != KNIGHT && t != KING) {
            int step = attack_step[d], x = s + step;
            while (x != to && b[x] == EMPTY)
                x += step;
            if (x != to)
                continue;
        }
        best = s;
        best_type = t;
    }
    return best;
}

int see(const Position *pos, Move m)
{
    if (MOVE_KIND(m) == MK_CASTLE)
        return 0;
    uint8_t b[128];
    memcpy(b, pos->board, sizeof b);
    int from = MOVE_FROM(m), to = MOVE_TO(m);
    int us = pos->side;
    int gain[40], d = 0;
    int captured = b[to];
    gain[0] = see_value[PTYPE(captured)];
    int on_square = PTYPE(b[from]);
    if (MOVE_KIND(m) == MK_EP) {
        gain[0] = see_value[PAWN];
        b[to + (us == WHITE ? -16 : 16)] = EMPTY;
    } else if (MOVE_KIND(m) == MK_PROMO) {
        gain[0] += see_value[MOVE_PROMO(m)] - see_value[PAWN];
        on_square = MOVE_PROMO(m);
    }
    b[to] = b[from];
    b[from] = EMPTY;
    int side = us ^ 1;
    for (;;) {
        int s = least_attacker(pos, b, to, side);
        if (s < 0)
            break;
        d++;
        gain[d] = see_value[on_square] - gain[d - 1];
        on_square = PTYPE(b[s]);
        b[to] = b[s];
        b[s] = EMPTY;
        side ^= 1;
        if (on_square == KING && least_attacker(pos, b, to, side) >= 0) {
            d--; /* the king cannot capture into a defended square */
            break;
        }
        if (d >= 38)
            break;
    }
    while (d > 0) {
        if (-gain[d] < gain[d - 1])
            gain[d - 1] = -gain[d];
        d--;
    }
    return gain[0];
}
