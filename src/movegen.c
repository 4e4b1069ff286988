/* movegen.c - strictly legal move generation (pins and check evasions found up
 * front, so no move needs to be tried and taken back), and perft. */
#include "movegen.h"

#include <string.h>


typedef struct {
    int nchecks;
    int checker;        /* square of the (last found) checker */
    int npins;
    int pin_sq[8];
    int pin_dir[8];
    uint8_t target[128]; /* in single check: squares that capture or block */
} CheckInfo;

static inline void add(MoveList *l, Move m) { l->moves[l->count++] = m; }

static inline int pin_dir_of(const CheckInfo *ci, int sq)
{
    for (int i = 0; i < ci->npins; i++)
        if (ci->pin_sq[i] == sq)
            return ci->pin_dir[i];
    return 0;
}

/* Finds the pieces giving check to `us` and our pieces pinned to the king. */
static void find_checks_and_pins(const Position *pos, CheckInfo *ci)
{
    int us = pos->side, them = us ^ 1;
    int ksq = KING_SQ(pos, us);
    const uint8_t *b = pos->board;
    ci->nchecks = ci->npins = 0;
    for (int i = 1, n = pos->npieces[them]; i < n; i++) {
        int s = pos->pieces[them][i];
        int d = DELTA(s, ksq);
        int t = PTYPE(b[s]);
        if (!(attack_kinds[d] & (1 << t)))
            continue;
        if (t == KNIGHT) {
            ci->nchecks++;
            ci->checker = s;
            continue;
        }
        int step = attack_step[d]; /* from s towards the king */
        int x = ksq - step;
        while (b[x] == EMPTY)
            x -= step;
        if (x == s) {
            ci->nchecks++;
            ci->checker = s;
        } else if (PCOLOR(b[x]) == us) {
            int y = x - step;
            while (b[y] == EMPTY)
                y -= step;
            if (y == s) {
                ci->pin_sq[ci->npins] = x;
                ci->pin_dir[ci->npins++] = step;
            }
        }
    }
    int pawn = MAKE_PIECE(them, PAWN);
    int f = us == WHITE ? 16 : -16;
    for (int dx = -1; dx <= 1; dx += 2) {
        int s = ksq + f + dx;
        if (!OFFBOARD(s) && b[s] == pawn) {
            ci->nchecks++;
            ci->checker = s;
        }
    }
    if (ci->nchecks == 1) {
        memset(ci->target, 0, sizeof ci->target);
        ci->target[ci->checker] = 1;
        int t = PTYPE(b[ci->checker]);
        if (t == BISHOP || t == ROOK || t == QUEEN) {
            int step = attack_step[DELTA(ci->checker, ksq)];
            for (int x = ci->checker + step; x != ksq; x += step)
                ci->target[x] = 1;
        }
    }
}

static void add_pawn_move(MoveList *l, int from, int to, int us)
{
    int r = RANK_OF(to);
    if (r == (us == WHITE ? 7 : 0)) {
        add(l, MAKE_PROMO(from, to, QUEEN));
        add(l, MAKE_PROMO(from, to, KNIGHT));
        add(l, MAKE_PROMO(from, to, ROOK));
        add(l, MAKE_PROMO(from, to, BISHOP));
    } else {
        add(l, MAKE_MOVE(from, to, MK_NORMAL));
    }
}

static bool castle_ok(const Position *pos, int ksq, int rsq, int kto, int rto)
{
    int them = pos->side ^ 1;
    int lo = ksq, hi = ksq;
    int sq[4] = {rsq, kto, rto, ksq};
    for (int i = 0; i < 4; i++) {
        if (sq[i] < lo) lo = sq[i];
        if (sq[i] > hi) hi = sq[i];
    }
    for (int x = lo; x <= hi; x++)
        if (x != ksq && x != rsq && pos->board[x] != EMPTY)
            return false;
    /* Test the king's path as if king and rook were lifted, so that a rook
     * that shielded its own king's destination (Chess960) is seen through.
     * The king's square itself is tested only when the king stays on it (king
     * c1, rook b1, enemy rook a1: the king is safe only while the rook is
     * there). */
    int step = kto > ksq ? 1 : -1;
    for (int x = ksq;; x += step) {
        if ((x != ksq || x == kto) && sq_attacked_through(pos, x, them, ksq, rsq))
            return false;
        if (x == kto)
            return true;
    }
}

/* All legal moves, or only the noisy ones (captures, promotions, en passant). */
static void generate(const Position *pos, MoveList *list, bool noisy)
{
    const uint8_t *b = pos->board;
    int us = pos->side, them = us ^ 1;
    int ksq = KING_SQ(pos, us);
    CheckInfo ci;
    find_checks_and_pins(pos, &ci);
    list->count = 0;

    /* 1. King moves, tested as if the king were off its square (a slider's
     * ray through it goes on). */
    for (int i = 0; i < 8; i++) {
        int to = ksq + king_dirs[i];
        if (OFFBOARD(to) || (b[to] != EMPTY && PCOLOR(b[to]) == us) || (noisy && b[to] == EMPTY))
            continue;
        if (!sq_attacked_through(pos, to, them, ksq, NO_SQ))
            add(list, MAKE_MOVE(ksq, to, MK_NORMAL));
    }

    /* 2. Castling. */
    if (!noisy && ci.nchecks == 0 && (pos->castle & (3 << (2 * us)))) {
        int rank = RANK_OF(ksq);
        for (int kingside = 1; kingside >= 0; kingside--) {
            int bit = 2 * us + !kingside;
            if (!(pos->castle & (1 << bit)))
                continue;
            int rsq = pos->castle_rook[bit];
            if (castle_ok(pos, ksq, rsq, SQ(kingside ? 6 : 2, rank), SQ(kingside ? 5 : 3, rank)))
                add(list, MAKE_MOVE(ksq, rsq, MK_CASTLE));
        }
    }
    if (ci.nchecks >= 2)
        return;
    bool check = ci.nchecks == 1;

    /* 3. Knights, bishops, rooks, queens. */
    for (int i = 1, n = pos->npieces[us]; i < n; i++) {
        int from = pos->pieces[us][i];
        int t = PTYPE(b[from]);
        int pd = ci.npins ? pin_dir_of(&ci, from) : 0;
        if (t == KNIGHT) {
            if (pd)
                continue;
            for (int k = 0; k < 8; k++) {
                int to = from + knight_dirs[k];
                if (OFFBOARD(to) || (b[to] != EMPTY && PCOLOR(b[to]) == us) || (noisy && b[to] == EMPTY))
                    continue;
                if (check && !ci.target[to])
                    continue;
                add(list, MAKE_MOVE(from, to, MK_NORMAL));
            }
            continue;
        }
        const int *dirs = t == BISHOP ? bishop_dirs : t == ROOK ? rook_dirs : king_dirs;
        int nd = t == QUEEN ? 8 : 4;
        for (int k = 0; k < nd; k++) {
            int d = dirs[k];
            if (pd && d != pd && d != -pd)
                continue;
            for (int to = from + d; !OFFBOARD(to); to += d) {
                int occ = b[to];
                if (occ != EMPTY && PCOLOR(occ) == us)
                    break;
                if ((!check || ci.target[to]) && (!noisy || occ != EMPTY))
                    add(list, MAKE_MOVE(from, to, MK_NORMAL));
                if (occ != EMPTY)
                    break;
            }
        }
    }

    /* 4. Pawns. */
    int fwd = us == WHITE ? 16 : -16;
    int start_rank = us == WHITE ? 1 : 6;
    for (int i = 0, n = pos->npawns[us]; i < n; i++) {
        int from = pos->pawns[us][i];
        int pd = ci.npins ? pin_dir_of(&ci, from) : 0;
        int to = from + fwd;
        if (b[to] == EMPTY && (!pd || pd == fwd || pd == -fwd)) {
            bool promo = RANK_OF(to) == 0 || RANK_OF(to) == 7;
            if ((!check || ci.target[to]) && (!noisy || promo))
                add_pawn_move(list, from, to, us);
            if (!noisy && RANK_OF(from) == start_rank && b[to + fwd] == EMPTY && (!check || ci.target[to + fwd]))
                add(list, MAKE_MOVE(from, to + fwd, MK_NORMAL));
        }
        for (int dx = -1; dx <= 1; dx += 2) {
            int c = from + fwd + dx;
            if (OFFBOARD(c))
                continue;
            int d = fwd + dx;
            if (pd && d != pd && d != -pd)
                continue;
            if (b[c] != EMPTY && PCOLOR(b[c]) == them) {
                if (!check || ci.target[c])
                    add_pawn_move(list, from, c, us);
            } else if (c == pos->ep) {
                /* En passant (rare): play it on a copy of the board and look
                 * at the king, which covers the pawn pinned along the rank,
                 * the captured checker and a check blocked on the square. */
                Position after = *pos; /* a shallow copy: only its board changes */
                after.board[from] = after.board[c - fwd] = EMPTY;
                after.board[c] = b[from];
                if (!sq_attacked(&after, ksq, them))
                    add(list, MAKE_MOVE(from, c, MK_EP));
            }
        }
    }
}

void gen_legal(const Position *pos, MoveList *list) { generate(pos, list, false); }
void gen_noisy(const Position *pos, MoveList *list) { generate(pos, list, true); }

bool move_is_legal(const Position *pos, Move m)
{
    MoveList l;
    gen_legal(pos, &l);
    for (int i = 0; i < l.count; i++)
        if (l.moves[i] == m)
            return true;
    return false;
}

uint64_t perft_until(Position *pos, int depth, bool (*stop)(void))
{
    MoveList l;
    gen_legal(pos, &l);
    if (depth <= 1)
        return depth == 1 ? (uint64_t)l.count : 1;
    if (stop && stop())
        return 0;
    uint64_t total = 0;
    for (int i = 0; i < l.count; i++) {
        make_move(pos, l.moves[i]);
        total += perft_until(pos, depth - 1, stop);
        unmake_move(pos);
    }
    return total;
}

uint64_t perft(Position *pos, int depth) { return perft_until(pos, depth, NULL); }
