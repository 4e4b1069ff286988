/* see.c - static exchange evaluation: the material outcome of the capture
 * sequence on one square, each side recapturing with its least valuable
 * attacker. X-rays appear because captured-from squares are cleared on a
 * scratch copy of the board before the next attacker is looked for.
 * see() gives the outcome; see_ge() answers whether it reaches a threshold,
 * which is what the search asks, and stops as soon as that is decided. */
#include "see.h"

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

/* Plays m on the scratch board b (a copy of pos->board): returns what it
 * wins at once and sets *on_square to the type of the man left on its square. */
static int first_capture(const Position *pos, uint8_t *b, Move m, int *on_square)
{
    int from = MOVE_FROM(m), to = MOVE_TO(m);
    int gain = see_value[PTYPE(b[to])];
    *on_square = PTYPE(b[from]);
    if (MOVE_KIND(m) == MK_EP) {
        gain = see_value[PAWN];
        b[to + (pos->side == WHITE ? -16 : 16)] = EMPTY;
    } else if (MOVE_KIND(m) == MK_PROMO) {
        gain += see_value[MOVE_PROMO(m)] - see_value[PAWN];
        *on_square = MOVE_PROMO(m);
    }
    b[to] = b[from];
    b[from] = EMPTY;
    return gain;
}

int see(const Position *pos, Move m)
{
    if (MOVE_KIND(m) == MK_CASTLE)
        return 0;
    uint8_t b[128];
    memcpy(b, pos->board, sizeof b);
    int to = MOVE_TO(m);
    int gain[40], d = 0, on_square;
    gain[0] = first_capture(pos, b, m, &on_square);
    int side = pos->side ^ 1;
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

/* see(pos, m) >= threshold, decided as early as it can be. The outcome is
 * min(B0, max(B1, min(B2, ...))), B_j being our balance after the j-th
 * capture of the sequence (each side may stop before its capture; the first
 * is the move itself). Read from the outside, it fails as soon as a balance
 * after one of our captures is below the threshold, and holds as soon as one
 * after theirs reaches it; when the sequence ends, the side that made its
 * last capture has it. Both tests need only the value of the man the next
 * capture would take, not the capturer, so most calls stop before looking
 * for one. */
bool see_ge(const Position *pos, Move m, int threshold)
{
    if (MOVE_KIND(m) == MK_CASTLE)
        return 0 >= threshold;
    uint8_t b[128];
    memcpy(b, pos->board, sizeof b);
    int to = MOVE_TO(m), on_square;
    int balance = first_capture(pos, b, m, &on_square);
    if (balance < threshold)
        return false;
    for (int side = pos->side ^ 1;; side ^= 1) {
        bool theirs = side != pos->side;
        int v = see_value[on_square];
        /* Settled whether or not this capture comes. */
        if (theirs ? balance - v >= threshold : balance + v < threshold)
            return theirs;
        int s = least_attacker(pos, b, to, side);
        if (s < 0)
            return theirs; /* the previous capture was the last: its side has it */
        on_square = PTYPE(b[s]);
        b[to] = b[s];
        b[s] = EMPTY;
        if (on_square == KING && least_attacker(pos, b, to, side ^ 1) >= 0)
            return theirs; /* the king cannot take on a defended square */
        balance += theirs ? -v : v;
    }
}
