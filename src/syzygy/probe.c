/* syzygy/probe.c - probing the Syzygy tables through Fathom: a position's
 * WDL in the search, and every root move's WDL and DTZ with the move to play;
 * the probe limits. */
#include "probe.h"

#include <string.h>

#include <tbprobe.h>

#include "../movegen.h"

#if TB_LOSS != 0 || TB_BLESSED_LOSS != 1 || TB_DRAW != 2 || TB_CURSED_WIN != 3 || TB_WIN != 4
#error "probe.h's WDL values must equal Fathom's"
#endif

/* Our own record of what is loaded. Fathom's TB_LARGEST is not reset when
 * its path is set to "" (and probing then would touch freed memory), so
 * every probe checks this value instead. Written only while no search runs. */
static int tb_largest;

int tb_max_pieces(void) { return tb_largest; }

void tb_set_max_pieces(int pieces) { tb_largest = pieces; }

TbParams tb_params_default(void) { return (TbParams){.probe_depth = 1, .probe_limit = 5, .rule50 = true}; }

int tb_probe_limit(const TbParams *p) { return p->probe_limit < tb_largest ? p->probe_limit : tb_largest; }

void tb_boards(const Position *pos, TbBoards *b)
{
    memset(b, 0, sizeof *b);
    for (int c = WHITE; c <= BLACK; c++) {
        uint64_t *side = c == WHITE ? &b->white : &b->black;
        for (int i = 0; i < pos->npieces[c]; i++) {
            int sq = pos->pieces[c][i];
            uint64_t bit = 1ULL << SQ64(sq);
            *side |= bit;
            switch (PTYPE(pos->board[sq])) {
            case KING: b->kings |= bit; break;
            case QUEEN: b->queens |= bit; break;
            case ROOK: b->rooks |= bit; break;
            case BISHOP: b->bishops |= bit; break;
            case KNIGHT: b->knights |= bit; break;
            default: break;
            }
        }
        for (int i = 0; i < pos->npawns[c]; i++) {
            uint64_t bit = 1ULL << SQ64(pos->pawns[c][i]);
            *side |= bit;
            b->pawns |= bit;
        }
    }
    b->ep = pos->ep == NO_SQ ? 0 : (unsigned)SQ64(pos->ep);
    b->rule50 = (unsigned)(pos->halfmove < 100 ? pos->halfmove : 100);
    b->turn = pos->side == WHITE;
}

static int piece_count(const Position *pos)
{
    return pos->npieces[WHITE] + pos->npieces[BLACK] + pos->npawns[WHITE] + pos->npawns[BLACK];
}

int tb_probe_wdl_pos(const Position *pos)
{
    int largest = tb_max_pieces();
    if (!largest || pos->castle || pos->halfmove || piece_count(pos) > largest)
        return -1;
    TbBoards b;
    tb_boards(pos, &b);
    unsigned r = tb_probe_wdl(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights,
                              b.pawns, 0, 0, b.ep, b.turn);
    return r == TB_RESULT_FAILED ? -1 : (int)r;
}

int tb_wdl_score(int wdl, int ply, bool rule50)
{
    int win = TB_WIN_SCORE - TB_MAX_DTZ - ply;
    switch (wdl) {
    case TB_WIN: return win;
    case TB_CURSED_WIN: return rule50 ? 0 : win;
    case TB_BLESSED_LOSS: return rule50 ? 0 : -win;
    case TB_LOSS: return -win;
    default: return 0;
    }
}

/* Index of the root move with Fathom's from/to/promotion, or -1. */
static int find_move(const TbRootResult *r, unsigned from, unsigned to, unsigned promotes)
{
    int promo = promotes == TB_PROMOTES_NONE ? 0 : 6 - (int)promotes; /* 1 Q .. 4 N -> QUEEN .. KNIGHT */
    for (int i = 0; i < r->count; i++) {
        Move mv = r->moves[i].move;
        int mpromo = MOVE_KIND(mv) == MK_PROMO ? MOVE_PROMO(mv) : 0;
        if ((unsigned)(mv & 63) == to && (unsigned)((mv >> 6) & 63) == from && mpromo == promo)
            return i;
    }
    return -1;
}

/* Has a position repeated since the last capture or pawn move? Fathom then
 * ranks wins that are not sure to beat the 50-move rule lower. */
static bool repeated_since_zeroing(const Position *pos)
{
    int back = pos->halfmove < pos->hply ? pos->halfmove : pos->hply;
    for (int i = 0; i <= back; i++) {
        uint64_t ki = i == 0 ? pos->key : pos->hist[pos->hply - i].key;
        for (int j = i + 4; j <= back; j += 2)
            if (pos->hist[pos->hply - j].key == ki)
                return true;
    }
    return false;
}

/* wdl folded to TB_WIN, TB_DRAW or TB_LOSS. */
static int fold(int wdl, bool rule50)
{
    if (wdl == TB_WIN || (wdl == TB_CURSED_WIN && !rule50))
        return TB_WIN;
    if (wdl == TB_LOSS || (wdl == TB_BLESSED_LOSS && !rule50))
        return TB_LOSS;
    return TB_DRAW;
}

static int signed_dtz(int wdl, unsigned dtz)
{
    return wdl > TB_DRAW ? (int)dtz : wdl < TB_DRAW ? -(int)dtz : 0;
}

/* Replies' DTZ after a winning zeroing move, for tie-breaks (0: unknown). */
static int reply_dtz(Position *tmp, Move mv)
{
    make_move(tmp, mv);
    TbBoards b;
    tb_boards(tmp, &b);
    unsigned res = tb_probe_root(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights,
                                 b.pawns, 0, 0, b.ep, b.turn, NULL);
    unmake_move(tmp);
    if (res == TB_RESULT_FAILED || res == TB_RESULT_CHECKMATE || res == TB_RESULT_STALEMATE)
        return 0;
    return (int)TB_GET_DTZ(res);
}

bool tb_probe_root_moves(const Position *pos, bool rule50, TbRootResult *out)
{
    /* Too big for a thread's stack; the root probe is single-threaded anyway. */
    static struct TbRootMoves rm;
    static unsigned results[TB_MAX_MOVES];

    out->count = 0;
    out->best = MOVE_NONE;
    out->score = 0;
    int largest = tb_max_pieces();
    if (!largest || pos->castle || piece_count(pos) > largest)
        return false;
    MoveList legal;
    gen_legal(pos, &legal);
    if (legal.count == 0)
        return false;

    Position tmp = {0};
    pos_copy(&tmp, pos);
    out->count = legal.count;
    for (int i = 0; i < legal.count; i++) {
        TbRootMove *m = &out->moves[i];
        Move mv = legal.moves[i];
        memset(m, 0, sizeof *m);
        m->move = mv;
        m->zeroing = pos->board[MOVE_TO(mv)] != EMPTY || PTYPE(pos->board[MOVE_FROM(mv)]) == PAWN;
        make_move(&tmp, mv);
        MoveList replies;
        gen_legal(&tmp, &replies);
        m->mate = replies.count == 0 && in_check(&tmp);
        unmake_move(&tmp);
    }

    TbBoards b;
    tb_boards(pos, &b);
    bool ok = true;

    /* 1. WDL and DTZ of the root and of every move (Fathom's DTZ root probe). */
    unsigned res = tb_probe_root(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights,
                                 b.pawns, b.rule50, 0, b.ep, b.turn, results);
    out->dtz_ok = res != TB_RESULT_FAILED && res != TB_RESULT_CHECKMATE && res != TB_RESULT_STALEMATE;
    if (out->dtz_ok) {
        out->wdl = (int)TB_GET_WDL(res);
        out->dtz = signed_dtz(out->wdl, TB_GET_DTZ(res));
        int found = 0;
        for (int k = 0; k < TB_MAX_MOVES && results[k] != TB_RESULT_FAILED; k++) {
            int i = find_move(out, TB_GET_FROM(results[k]), TB_GET_TO(results[k]), TB_GET_PROMOTES(results[k]));
            if (i < 0) {
                ok = false;
                break;
            }
            out->moves[i].wdl = (int)TB_GET_WDL(results[k]);
            out->moves[i].dtz = signed_dtz(out->moves[i].wdl, TB_GET_DTZ(results[k]));
            found++;
        }
        ok = ok && found == out->count;
    }

    /* 2. Fathom's ranks and scores: from the DTZ tables, or from the WDL
     * tables when DTZ ones are missing. */
    bool repeated = repeated_since_zeroing(pos);
    int got = ok && out->dtz_ok
                  ? tb_probe_root_dtz(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights,
                                      b.pawns, b.rule50, 0, b.ep, b.turn, repeated, rule50, &rm)
                  : 0;
    if (ok && !got) {
        out->dtz_ok = false;
        got = tb_probe_root_wdl(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights,
                                b.pawns, b.rule50, 0, b.ep, b.turn, rule50, &rm);
    }
    ok = ok && got && (int)rm.size == out->count;
    out->best_rank = -1000000;
    for (unsigned k = 0; ok && k < rm.size; k++) {
        TbMove tm = rm.moves[k].move;
        int i = find_move(out, TB_MOVE_FROM(tm), TB_MOVE_TO(tm), TB_MOVE_PROMOTES(tm));
        if (i < 0) {
            ok = false;
            break;
        }
        out->moves[i].tb_rank = rm.moves[k].tbRank;
        out->moves[i].tb_score = rm.moves[k].tbScore;
        if (rm.moves[k].tbRank > out->best_rank)
            out->best_rank = rm.moves[k].tbRank;
    }

    /* 3. Without DTZ tables: each move's WDL from the WDL table of the
     * position it leads to (the halfmove clock cannot be counted then). */
    if (ok && !out->dtz_ok) {
        out->wdl = TB_LOSS;
        out->dtz = 0;
        for (int i = 0; ok && i < out->count; i++) {
            TbRootMove *m = &out->moves[i];
            make_move(&tmp, m->move);
            TbBoards c;
            tb_boards(&tmp, &c);
            unsigned w = tb_probe_wdl(c.white, c.black, c.kings, c.queens, c.rooks, c.bishops, c.knights,
                                      c.pawns, 0, 0, c.ep, c.turn);
            unmake_move(&tmp);
            ok = w != TB_RESULT_FAILED;
            m->wdl = ok ? TB_WIN - (int)w : TB_DRAW;
            m->dtz = 0;
            if (m->wdl > out->wdl)
                out->wdl = m->wdl;
        }
    }

    /* 4. Tie-break data for winning zeroing moves. */
    if (ok && out->dtz_ok && fold(out->wdl, rule50) == TB_WIN) {
        int nzero = 0;
        for (int i = 0; i < out->count; i++)
            nzero += out->moves[i].zeroing && out->moves[i].wdl == TB_WIN && !out->moves[i].mate;
        for (int i = 0; nzero > 1 && i < out->count; i++) {
            TbRootMove *m = &out->moves[i];
            if (m->zeroing && m->wdl == TB_WIN && !m->mate)
                m->reply_dtz = reply_dtz(&tmp, m->move);
        }
    }
    pos_free(&tmp);
    if (!ok) {
        out->count = 0;
        return false;
    }
    tb_pick_root_move(out, rule50);
    return true;
}

/* Is a a better choice than b, both keeping the root result `result`? */
static bool better(const TbRootMove *a, const TbRootMove *b, int result)
{
    if (a->wdl != b->wdl)
        return a->wdl > b->wdl;
    if (result == TB_WIN || a->wdl > TB_DRAW) {
        if (a->mate != b->mate)
            return a->mate;
        if (a->dtz != b->dtz && a->dtz > 0 && b->dtz > 0)
            return a->dtz < b->dtz;
        if (a->zeroing != b->zeroing)
            return a->zeroing;
        if (a->zeroing && a->reply_dtz != b->reply_dtz && a->reply_dtz > 0 && b->reply_dtz > 0)
            return a->reply_dtz < b->reply_dtz;
        return false;
    }
    if (a->wdl < TB_DRAW) /* losing, or a blessed loss kept as a draw: resist longest */
        return a->dtz < b->dtz;
    return false;
}

Move tb_pick_root_move(TbRootResult *r, bool rule50)
{
    r->best = MOVE_NONE;
    r->score = 0;
    if (r->count == 0)
        return MOVE_NONE;
    int result = TB_LOSS;
    for (int i = 0; i < r->count; i++)
        if (fold(r->moves[i].wdl, rule50) > result)
            result = fold(r->moves[i].wdl, rule50);
    r->result = result;
    int best = -1;
    for (int i = 0; i < r->count; i++) {
        TbRootMove *m = &r->moves[i];
        m->keeps = fold(m->wdl, rule50) == result;
        if (m->keeps && (best < 0 || better(m, &r->moves[best], result)))
            best = i;
    }
    const TbRootMove *b = &r->moves[best];
    int d = b->dtz < 0 ? -b->dtz : b->dtz;
    int dist = d == 0 || d > TB_MAX_DTZ ? TB_MAX_DTZ : d;
    r->best = b->move;
    r->score = result == TB_WIN ? TB_WIN_SCORE - dist : result == TB_LOSS ? -(TB_WIN_SCORE - dist) : 0;
    return r->best;
}
