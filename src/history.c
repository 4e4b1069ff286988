/* history.c - move ordering and the tables behind it. */
#include "history.h"

#include <stdlib.h>

#include "eval/bits.h"
#include "tunables.h"

const int mvv[8] = {0, 100, 320, 330, 500, 950, 0, 0};

/* The entry of the move `back` plies before this node, or NULL when there is
 * no such move (the root's first plies, a null move). */
static inline const Stack *earlier_move(const Thread *t, int ply, int back)
{
    if (ply < back)
        return NULL;
    const Stack *prev = &t->stack[ply - back];
    return prev->move == MOVE_NONE || prev->move == MOVE_NULL ? NULL : prev;
}

/* The squares that the side not to move attacks, from the square sets. */
static Bits threatened_squares(const Position *pos)
{
    int them = !pos->side;
    const uint64_t *bb = pos->bb;
    Bits occ = 0;
    for (int p = 0; p < 16; p++)
        occ |= bb[p];
    Bits a = pawn_attacks(them, bb[MAKE_PIECE(them, PAWN)]) | knight_attacks(bb[MAKE_PIECE(them, KNIGHT)]) |
             king_attacks(bb[MAKE_PIECE(them, KING)]);
    for (Bits b = bb[MAKE_PIECE(them, BISHOP)] | bb[MAKE_PIECE(them, QUEEN)]; b; b &= b - 1)
        a |= bishop_attacks(occ, lsb(b));
    for (Bits b = bb[MAKE_PIECE(them, ROOK)] | bb[MAKE_PIECE(them, QUEEN)]; b; b &= b - 1)
        a |= rook_attacks(occ, lsb(b));
    return a;
}

/* A quiet move's main-history entry for the side that plays it, in the table
 * of whether the opponent attacks its from and its to square. */
static inline int16_t *main_entry(Thread *t, int side, Bits threats, Move m)
{
    int from = SQ64(MOVE_FROM(m)), to = SQ64(MOVE_TO(m));
    return &t->history[side][threats >> from & 1][threats >> to & 1][from][to];
}

/* The continuation-history row of the move `back` plies before this node. */
static inline int16_t *cont_row(Thread *t, int ply, int back)
{
    const Stack *prev = earlier_move(t, ply, back);
    return prev ? t->cont[prev->moved_piece][SQ64(MOVE_TO(prev->move))][0] : NULL;
}

/* A move's column in a continuation-history row: its piece and destination. */
static inline int cont_index(int piece, Move m) { return piece * 64 + SQ64(MOVE_TO(m)); }

/* A capture's (or promotion's) capture-history entry. */
static inline int16_t *capt_entry(Thread *t, const Position *pos, Move m)
{
    return &t->capt[pos->board[MOVE_FROM(m)]][SQ64(MOVE_TO(m))][captured_type(pos, m)];
}

void score_moves(Thread *t, const Position *pos, const MoveList *l, int *scores, Move ttm, int ply, bool qs)
{
    Move k1 = t->killers[ply][0], k2 = t->killers[ply][1];
    const Stack *prev = earlier_move(t, ply, 1);
    Move cm = prev ? t->counter[prev->moved_piece][MOVE_TO(prev->move)] : MOVE_NONE;
    /* The continuation histories of the moves one and two plies before. */
    const int16_t *c1 = cont_row(t, ply, 1), *c2 = cont_row(t, ply, 2);
    /* Quiescence (qs) scores no quiet move; elsewhere the threats stay on the
     * stack for this node's history updates. */
    Bits threats = 0;
    if (!qs)
        threats = t->stack[ply].threats = threatened_squares(pos);
    for (int i = 0; i < l->count; i++) {
        Move m = l->moves[i];
        if (m == ttm) {
            scores[i] = SCORE_TT;
            continue;
        }
        if (!is_quiet(pos, m)) {
            int victim = captured_type(pos, m);
            int attacker = PTYPE(pos->board[MOVE_FROM(m)]);
            int s = mvv[victim] * 16 - attacker + *capt_entry(t, pos, m) / 16;
            if (MOVE_KIND(m) == MK_PROMO)
                s += MOVE_PROMO(m) == QUEEN ? 16 * 900 : -16 * 1000;
            bool good = qs || capture_not_losing(pos, m, victim);
            scores[i] = (good ? SCORE_GOOD_CAPTURE : SCORE_BAD_CAPTURE) + s;
        } else if (m == k1) {
            scores[i] = SCORE_KILLER1;
        } else if (m == k2) {
            scores[i] = SCORE_KILLER2;
        } else if (m == cm) {
            scores[i] = SCORE_COUNTER;
        } else {
            int idx = cont_index(pos->board[MOVE_FROM(m)], m);
            scores[i] = *main_entry(t, pos->side, threats, m) + (c1 ? c1[idx] : 0) + (c2 ? c2[idx] : 0);
        }
    }
}

/* Gravity: a bonus moves the entry towards +-16384 and never past it. */
static void update_history(int16_t *h, int bonus)
{
    *h += (int16_t)(bonus - *h * abs(bonus) / 16384);
}

/* A quiet move's history and continuation histories (rows c1, c2 if any):
 * `piece` of `side` plays m, with `threats` the squares its opponent attacked. */
static void update_quiet_history(Thread *t, int side, int piece, Move m, int bonus, Bits threats, int16_t *c1,
                                 int16_t *c2)
{
    int idx = cont_index(piece, m);
    update_history(main_entry(t, side, threats, m), bonus);
    if (c1)
        update_history(&c1[idx], bonus);
    if (c2)
        update_history(&c2[idx], bonus);
}

/* The history change a cutoff (or a fail low) at `depth` makes. */
static inline int history_bonus(int depth) { return 8 * (depth * depth > 1200 ? 1200 : depth * (depth + 8)); }

void update_cutoff_stats(Thread *t, const Position *pos, Move best, int ply, int depth, const Tried *tried)
{
    int bonus = history_bonus(depth);
    if (is_quiet(pos, best)) {
        int16_t *c1 = cont_row(t, ply, 1), *c2 = cont_row(t, ply, 2);
        Bits threats = t->stack[ply].threats;
        update_quiet_history(t, pos->side, pos->board[MOVE_FROM(best)], best, bonus, threats, c1, c2);
        for (int i = 0; i < tried->nquiets; i++) {
            Move q = tried->quiets[i];
            if (q != best)
                update_quiet_history(t, pos->side, pos->board[MOVE_FROM(q)], q, -bonus, threats, c1, c2);
        }
        if (t->killers[ply][0] != best) {
            t->killers[ply][1] = t->killers[ply][0];
            t->killers[ply][0] = best;
        }
        const Stack *prev = earlier_move(t, ply, 1);
        if (prev)
            t->counter[prev->moved_piece][MOVE_TO(prev->move)] = best;
    } else {
        update_history(capt_entry(t, pos, best), bonus);
    }
    for (int i = 0; i < tried->ncaptures; i++)
        if (tried->captures[i] != best)
            update_history(capt_entry(t, pos, tried->captures[i]), -bonus);
}

void update_tt_cutoff_stats(Thread *t, const Position *pos, Move ttm, int ply, int depth)
{
    static const Tried none;
    t->stack[ply].threats = threatened_squares(pos);
    update_cutoff_stats(t, pos, ttm, ply, depth, &none);
}

/* The entry of the quiet move that led to this node, or NULL (none, a null
 * move, a capture or a promotion). */
static const Stack *prev_quiet_move(const Thread *t, const Position *pos, int ply)
{
    const Stack *prev = earlier_move(t, ply, 1);
    if (!prev || pos->hist[pos->hply - 1].captured != EMPTY || MOVE_KIND(prev->move) == MK_PROMO)
        return NULL;
    return prev;
}

void update_fail_low_stats(Thread *t, const Position *pos, int ply, int depth)
{
    const Stack *prev = prev_quiet_move(t, pos, ply);
    if (!prev)
        return;
    update_quiet_history(t, !pos->side, prev->moved_piece, prev->move, history_bonus(depth), prev->threats,
                         cont_row(t, ply - 1, 1), cont_row(t, ply - 1, 2));
}

void update_eval_diff(Thread *t, const Position *pos, int ply)
{
    const Stack *prev = prev_quiet_move(t, pos, ply);
    if (!prev || prev->eval == -INF || t->stack[ply].eval == -INF)
        return;
    int bonus = -EVAL_DIFF_MUL * (prev->eval + t->stack[ply].eval);
    bonus = bonus > EVAL_DIFF_MAX ? EVAL_DIFF_MAX : bonus < -EVAL_DIFF_MAX ? -EVAL_DIFF_MAX : bonus;
    update_history(main_entry(t, !pos->side, prev->threats, prev->move), bonus);
}

/* The keys of the keyed correction tables (worker.h), in their order. */
static inline void corr_keys(const Position *pos, uint64_t k[NCORR_KEYED])
{
    k[CORR_PAWN] = pos->keys.pawn;
    k[CORR_WHITE] = pos->keys.nonpawn[WHITE];
    k[CORR_BLACK] = pos->keys.nonpawn[BLACK];
    k[CORR_MINOR] = pos->keys.minor;
    k[CORR_MAJOR] = pos->keys.major;
}

/* The slot of the move that led to this node (-1 after a null move or at the root). */
static inline int corr_cont_slot(const Thread *t, int ply)
{
    const Stack *prev = earlier_move(t, ply, 1);
    return prev ? cont_index(prev->moved_piece, prev->move) : -1;
}

int corrected_eval(const Thread *t, const Position *pos, int raw, int ply)
{
    /* Weights in sixteenths (tunables.h). */
    const int w[NCORR_KEYED] = {CORR_PAWN_WEIGHT, CORR_PIECE_WEIGHT, CORR_PIECE_WEIGHT, CORR_MINOR_WEIGHT,
                                CORR_MAJOR_WEIGHT};
    uint64_t k[NCORR_KEYED];
    int cc = corr_cont_slot(t, ply);
    corr_keys(pos, k);
    int64_t sum = cc >= 0 ? CORR_CONT_WEIGHT * (int64_t)t->corr.cont[cc] : 0;
    for (int i = 0; i < NCORR_KEYED; i++)
        sum += w[i] * (int64_t)t->corr.keyed[i][pos->side][k[i] & (CORR_SIZE - 1)];
    int e = raw + (int)(sum / (16 * CORR_GRAIN));
    return e >= TB_WIN_BOUND ? TB_WIN_BOUND - 1 : e <= -TB_WIN_BOUND ? -TB_WIN_BOUND + 1 : e;
}

/* One table's entry moves towards the error, by a weight that grows with depth. */
_Static_assert(CORR_LIMIT <= INT16_MAX, "a correction entry is an int16_t");
static inline void correct(int16_t *c, int error, int w)
{
    int64_t v = ((int64_t)*c * (256 - w) + (int64_t)error * CORR_GRAIN * w) / 256;
    *c = (int16_t)(v > CORR_LIMIT ? CORR_LIMIT : v < -CORR_LIMIT ? -CORR_LIMIT : v);
}

void update_correction(Thread *t, const Position *pos, int raw, int best, int depth, int ply)
{
    uint64_t k[NCORR_KEYED];
    int w = depth + 1 < 16 ? depth + 1 : 16, cc = corr_cont_slot(t, ply);
    corr_keys(pos, k);
    if (cc >= 0)
        correct(&t->corr.cont[cc], best - raw, w);
    for (int i = 0; i < NCORR_KEYED; i++)
        correct(&t->corr.keyed[i][pos->side][k[i] & (CORR_SIZE - 1)], best - raw, w);
}
