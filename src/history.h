/* history.h - move ordering: what each search thread learns about moves
 * (killers, counter moves, quiet, continuation and capture histories) and
 * about its static evaluations (the correction history), and the order in
 * which a node tries its moves. */
#ifndef HEXE_HISTORY_H
#define HEXE_HISTORY_H

#include "movegen.h"
#include "see.h"
#include "worker.h"

/* Piece values for ordering captures (most valuable victim first). */
extern const int mvv[8];

/* Ordering scores: the TT move, then good captures, killers, the counter
 * move, quiet moves by history (around 0), and losing captures last. */
enum {
    SCORE_TT = 30000000,
    SCORE_GOOD_CAPTURE = 20000000,
    SCORE_KILLER1 = 10000002,
    SCORE_KILLER2 = 10000001,
    SCORE_COUNTER = 10000000,
    SCORE_BAD_CAPTURE = -20000000,
};

static inline bool is_capture(const Position *pos, Move m)
{
    return MOVE_KIND(m) == MK_EP || (MOVE_KIND(m) != MK_CASTLE && pos->board[MOVE_TO(m)] != EMPTY);
}

/* SEE >= 0 without the exchange when the victim is worth at least the
 * attacker (a legal king capture never loses its king either). */
static inline bool capture_not_losing(const Position *pos, Move m, int victim)
{
    int attacker = PTYPE(pos->board[MOVE_FROM(m)]);
    return mvv[victim] >= mvv[attacker] || see_ge(pos, m, 0);
}

/* The type of the piece a move takes (NO_TYPE for none). */
static inline int captured_type(const Position *pos, Move m)
{
    return MOVE_KIND(m) == MK_EP ? PAWN : MOVE_KIND(m) == MK_CASTLE ? NO_TYPE : PTYPE(pos->board[MOVE_TO(m)]);
}

static inline bool is_quiet(const Position *pos, Move m)
{
    return !is_capture(pos, m) && MOVE_KIND(m) != MK_PROMO;
}

/* Ordering scores of the moves of l at this ply; ttm first. qs: every
 * capture counts as good (quiescence has pruned the losing ones), and l
 * holds no quiet move. Else the squares the opponent attacks, which index
 * the main history, are kept in the ply's stack entry for the updates. */
void score_moves(Thread *t, const Position *pos, const MoveList *l, int *scores, Move ttm, int ply, bool qs);

/* Selection sort step: brings the best remaining move to position i. */
static inline Move pick_move(MoveList *l, int *scores, int i)
{
    int best = i;
    for (int j = i + 1; j < l->count; j++)
        if (scores[j] > scores[best])
            best = j;
    Move m = l->moves[best];
    int s = scores[best];
    l->moves[best] = l->moves[i];
    scores[best] = scores[i];
    l->moves[i] = m;
    scores[i] = s;
    return m;
}

/* The moves a node tried before its best, for the history updates. */
typedef struct {
    int nquiets, ncaptures;
    Move quiets[MAX_MOVES], captures[MAX_MOVES];
} Tried;

/* A beta cutoff by `best` at this ply and depth: its history (quiet or
 * capture) gains, the moves tried before it lose; a quiet best move also
 * becomes a killer and the counter move to the previous move. */
void update_cutoff_stats(Thread *t, const Position *pos, Move best, int ply, int depth, const Tried *tried);

/* Every move of the node at `ply` failed low: the opponent's quiet move that
 * led to it was good, and gains in their histories. */
void update_fail_low_stats(Thread *t, const Position *pos, int ply, int depth);

/* A quiet TT move's cutoff without a search of this node's moves. */
void update_tt_cutoff_stats(Thread *t, const Position *pos, Move ttm, int ply, int depth);

/* After a quiet move, the static evaluations of the position before and after
 * it (each from its own side) tell how well it did for the side that played
 * it: its history gains by how far the mover's evaluation rose, and loses by
 * how far it fell. */
void update_eval_diff(Thread *t, const Position *pos, int ply);

/* The static evaluation raw corrected by the correction histories (pawns,
 * each colour's pieces, the move to this node at `ply`), kept off the
 * tablebase and mate range. */
int corrected_eval(const Thread *t, const Position *pos, int raw, int ply);

/* Moves the correction towards the search result `best` of a node searched
 * `depth` deep whose static evaluation was `raw`. */
void update_correction(Thread *t, const Position *pos, int raw, int best, int depth, int ply);

#endif
