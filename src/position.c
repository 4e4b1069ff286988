/* position.c - piece lists, make/unmake, attack tests, repetition and the consistency check. */
#include "position.h"

#include <stdlib.h>
#include <string.h>

#include "zobrist.h"

/* ---- Delta tables: which piece kinds on `from` can attack `to`, and the step. ---- */

uint8_t attack_kinds[240];
int8_t attack_step[240];

const int knight_dirs[8] = {33, 31, 18, 14, -33, -31, -18, -14};
const int king_dirs[8] = {16, -16, 1, -1, 15, 17, -15, -17};
const int bishop_dirs[4] = {15, 17, -15, -17};
const int rook_dirs[4] = {16, -16, 1, -1};

void attack_init(void)
{
    memset(attack_kinds, 0, sizeof attack_kinds);
    memset(attack_step, 0, sizeof attack_step);
    for (int i = 0; i < 8; i++) {
        attack_kinds[knight_dirs[i] + 119] |= 1 << KNIGHT;
        attack_kinds[king_dirs[i] + 119] |= 1 << KING;
        int d = king_dirs[i];
        bool diag = (i >= 4);
        for (int n = 1; n < 8; n++) {
            int idx = n * d + 119;
            attack_kinds[idx] |= 1 << QUEEN | 1 << (diag ? BISHOP : ROOK);
            attack_step[idx] = (int8_t)d;
        }
    }
    /* Pawns: a white pawn on `from` attacks from+15 and from+17. Bit 0 marks a
     * white pawn's attack, bit 7 a black pawn's (PAWN's bit is not reused). */
    attack_kinds[15 + 119] |= 1;
    attack_kinds[17 + 119] |= 1;
    attack_kinds[-15 + 119] |= 0x80;
    attack_kinds[-17 + 119] |= 0x80;
}

/* ---- Square sets, pawn key and piece-square sums ---- */

Score psq_table[16][64];
unsigned psq_version;

void psq_table_changed(void)
{
    if (!++psq_version)
        psq_version = 1;
}

/* Piece p on square sq in the piece keys: the pawns', its colour's other
 * pieces', and either the knights' and bishops' or the rooks', queens' and
 * kings'. One rule for make/unmake and for pos_is_ok's recount. */
static inline void key_piece(PieceKeys *k, int p, int sq)
{
    uint64_t z = zob_piece[p][sq];
    if (PTYPE(p) == PAWN) {
        k->pawn ^= z;
    } else {
        k->nonpawn[PCOLOR(p)] ^= z;
        if (PTYPE(p) == KNIGHT || PTYPE(p) == BISHOP)
            k->minor ^= z;
        else
            k->major ^= z;
    }
}

/* Piece p appears on (sign 1) or leaves (sign -1) square sq. */
static inline void track(Position *pos, int p, int sq, int sign)
{
    int s = SQ64(sq);
    Score *v = &pos->psq[PCOLOR(p)];
    pos->bb[p] ^= (uint64_t)1 << s;
    v->mg += sign * psq_table[p][s].mg;
    v->eg += sign * psq_table[p][s].eg;
    key_piece(&pos->keys, p, sq);
}

static inline void track_add(Position *pos, int p, int sq) { track(pos, p, sq, 1); }
static inline void track_del(Position *pos, int p, int sq) { track(pos, p, sq, -1); }

static inline void track_move(Position *pos, int p, int from, int to)
{
    track_del(pos, p, from);
    track_add(pos, p, to);
}

/* unmake_move restores the pawn key and the sums from its Undo entry and
 * has only the square sets to put back. */
static inline void bb_flip(Position *pos, int p, int sq) { pos->bb[p] ^= (uint64_t)1 << SQ64(sq); }

void pos_psq_refresh(Position *pos)
{
    pos->psq[WHITE] = pos->psq[BLACK] = (Score){0, 0};
    for (int p = 0; p < 16; p++)
        for (uint64_t x = pos->bb[p]; x; x &= x - 1) {
            pos->psq[PCOLOR(p)].mg += psq_table[p][__builtin_ctzll(x)].mg;
            pos->psq[PCOLOR(p)].eg += psq_table[p][__builtin_ctzll(x)].eg;
        }
    pos->psq_ver = psq_version;
}

/* ---- Set-up ---- */

void pos_init(Position *pos)
{
    Undo *hist = pos->hist;
    int cap = pos->hcap;
    memset(pos, 0, sizeof *pos);
    pos->hist = hist;
    pos->hcap = cap;
    pos->ep = NO_SQ;
    pos->fullmove = 1;
    pos->psq_ver = psq_version; /* the sums of an empty board (0) are right for any table */
    memset(pos->castle_mask, 0xF, sizeof pos->castle_mask);
    for (int i = 0; i < 4; i++)
        pos->castle_rook[i] = NO_SQ;
}

void pos_free(Position *pos)
{
    free(pos->hist);
    pos->hist = NULL;
    pos->hcap = pos->hply = 0;
}

bool pos_reserve(Position *pos, int extra)
{
    if (pos->hply + extra <= pos->hcap)
        return true;
    int cap = pos->hcap ? pos->hcap : 256;
    while (cap < pos->hply + extra)
        cap *= 2;
    Undo *h = realloc(pos->hist, (size_t)cap * sizeof *h);
    if (!h)
        return false;
    pos->hist = h;
    pos->hcap = cap;
    return true;
}

void pos_copy(Position *dst, const Position *src)
{
    Undo *hist = dst->hist;
    int cap = dst->hcap;
    *dst = *src;
    dst->hist = hist;
    dst->hcap = cap;
    dst->hply = 0;
    if (!pos_reserve(dst, src->hply + MAX_PLY + 8))
        abort();
    dst->hply = src->hply;
    if (src->hply)
        memcpy(dst->hist, src->hist, (size_t)src->hply * sizeof *src->hist);
    if (dst->psq_ver != psq_version)
        pos_psq_refresh(dst);
}

/* ---- Piece lists ---- */

static void list_add(Position *pos, int sq, int p)
{
    int c = PCOLOR(p);
    if (PTYPE(p) == PAWN) {
        pos->index[sq] = pos->npawns[c];
        pos->pawns[c][pos->npawns[c]++] = (uint8_t)sq;
    } else {
        pos->index[sq] = pos->npieces[c];
        pos->pieces[c][pos->npieces[c]++] = (uint8_t)sq;
    }
}

/* Removes the piece on sq from its list (the last entry fills the hole) and
 * returns the slot it had. */
static int list_del(Position *pos, int sq, int p)
{
    int c = PCOLOR(p), i = pos->index[sq];
    uint8_t *list = PTYPE(p) == PAWN ? pos->pawns[c] : pos->pieces[c];
    uint8_t *n = PTYPE(p) == PAWN ? &pos->npawns[c] : &pos->npieces[c];
    int last = list[--*n];
    list[i] = (uint8_t)last;
    pos->index[last] = (uint8_t)i;
    return i;
}

/* Undoes list_del exactly: the piece goes back into slot i. */
static void list_restore(Position *pos, int sq, int p, int i)
{
    int c = PCOLOR(p);
    uint8_t *list = PTYPE(p) == PAWN ? pos->pawns[c] : pos->pieces[c];
    uint8_t *n = PTYPE(p) == PAWN ? &pos->npawns[c] : &pos->npieces[c];
    if (i < *n) {
        int moved = list[i];
        list[*n] = (uint8_t)moved;
        pos->index[moved] = *n;
    }
    ++*n;
    list[i] = (uint8_t)sq;
    pos->index[sq] = (uint8_t)i;
}

static inline void move_piece(Position *pos, int from, int to)
{
    int p = pos->board[from];
    int c = PCOLOR(p);
    pos->board[to] = (uint8_t)p;
    pos->board[from] = EMPTY;
    int i = pos->index[from];
    pos->index[to] = (uint8_t)i;
    if (PTYPE(p) == PAWN)
        pos->pawns[c][i] = (uint8_t)to;
    else
        pos->pieces[c][i] = (uint8_t)to;
    pos->key ^= zob_piece[p][from] ^ zob_piece[p][to];
    track_move(pos, p, from, to);
}

void pos_put(Position *pos, int sq, int p)
{
    pos->board[sq] = (uint8_t)p;
    list_add(pos, sq, p);
    pos->count[p]++;
    pos->key ^= zob_piece[p][sq];
    track_add(pos, p, sq);
    if (PTYPE(p) == KING) { /* keep the king in slot 0 */
        int c = PCOLOR(p), n = pos->npieces[c];
        int first = pos->pieces[c][0];
        pos->pieces[c][0] = (uint8_t)sq;
        pos->pieces[c][n - 1] = (uint8_t)first;
        pos->index[first] = (uint8_t)(n - 1);
        pos->index[sq] = 0;
    }
}

void pos_remove(Position *pos, int sq)
{
    int p = pos->board[sq];
    list_del(pos, sq, p);
    pos->board[sq] = EMPTY;
    pos->count[p]--;
    pos->key ^= zob_piece[p][sq];
    track_del(pos, p, sq);
}

/* ---- Make / unmake ---- */

#ifdef HEXE_DEBUG
#include <stdio.h>
static void debug_check(const Position *pos, const char *where)
{
    const char *why;
    if (!pos_is_ok(pos, &why)) {
        fprintf(stderr, "position check failed after %s: %s\n", where, why);
        abort();
    }
}
#define DEBUG_CHECK(pos) debug_check(pos, __func__)
#else
#define DEBUG_CHECK(pos) ((void)0)
#endif

int castle_side_of(const Position *pos, Move m)
{
    int us = pos->side, rsq = MOVE_TO(m);
    return 2 * us + (rsq < MOVE_FROM(m)); /* bit number: 0 WK, 1 WQ, 2 BK, 3 BQ */
}

/* The en-passant square is kept only when a pawn of the side to move stands
 * next to the pawn that just advanced two squares: Polyglot keys it the same way. */
static void set_ep_if_capturable(Position *pos, int to, int ep)
{
    int them_pawn = MAKE_PIECE(pos->side ^ 1, PAWN); /* side has not switched yet */
    if ((!OFFBOARD(to - 1) && pos->board[to - 1] == them_pawn) ||
        (!OFFBOARD(to + 1) && pos->board[to + 1] == them_pawn)) {
        pos->ep = ep;
        pos->key ^= zob_ep[FILE_OF(ep)];
    }
}

void make_move(Position *pos, Move m)
{
    if (pos->hply >= pos->hcap && !pos_reserve(pos, 1))
        abort();
    Undo *u = &pos->hist[pos->hply++];
    int from = MOVE_FROM(m), to = MOVE_TO(m), kind = MOVE_KIND(m);
    int us = pos->side;

    u->key = pos->key;
    u->keys = pos->keys;
    u->psq[WHITE] = pos->psq[WHITE];
    u->psq[BLACK] = pos->psq[BLACK];
    u->move = m;
    u->castle = (uint8_t)pos->castle;
    u->ep = (uint8_t)pos->ep;
    u->halfmove = (int16_t)pos->halfmove;
    u->captured = EMPTY;

    pos->key ^= zob_castle[pos->castle];
    if (pos->ep != NO_SQ) {
        pos->key ^= zob_ep[FILE_OF(pos->ep)];
        pos->ep = NO_SQ;
    }
    pos->halfmove++;

    if (kind == MK_CASTLE) {
        bool kingside = to > from;
        int rank = RANK_OF(from);
        int kto = SQ(kingside ? 6 : 2, rank), rto = SQ(kingside ? 5 : 3, rank);
        int king = pos->board[from], rook = pos->board[to];
        int ki = pos->index[from], ri = pos->index[to];
        pos->board[from] = pos->board[to] = EMPTY;
        pos->board[kto] = (uint8_t)king;
        pos->board[rto] = (uint8_t)rook;
        pos->index[kto] = (uint8_t)ki;
        pos->index[rto] = (uint8_t)ri;
        pos->pieces[us][ki] = (uint8_t)kto;
        pos->pieces[us][ri] = (uint8_t)rto;
        pos->key ^= zob_piece[king][from] ^ zob_piece[king][kto] ^ zob_piece[rook][to] ^
                    zob_piece[rook][rto];
        track_move(pos, king, from, kto);
        track_move(pos, rook, to, rto);
    } else {
        int piece = pos->board[from];
        int capsq = kind == MK_EP ? to + (us == WHITE ? -16 : 16) : to;
        int cap = pos->board[capsq];
        if (cap != EMPTY) {
            u->captured = (uint8_t)cap;
            u->cap_index = (uint8_t)list_del(pos, capsq, cap);
            pos->board[capsq] = EMPTY;
            pos->count[cap]--;
            pos->key ^= zob_piece[cap][capsq];
            track_del(pos, cap, capsq);
            pos->halfmove = 0;
        }
        move_piece(pos, from, to);
        if (PTYPE(piece) == PAWN) {
            pos->halfmove = 0;
            if (kind == MK_PROMO) {
                int np = MAKE_PIECE(us, MOVE_PROMO(m));
                u->pro_index = (uint8_t)list_del(pos, to, piece);
                pos->count[piece]--;
                pos->board[to] = (uint8_t)np;
                list_add(pos, to, np);
                pos->count[np]++;
                pos->key ^= zob_piece[piece][to] ^ zob_piece[np][to];
                track_del(pos, piece, to);
                track_add(pos, np, to);
            } else if (to - from == 32 || from - to == 32) {
                set_ep_if_capturable(pos, to, (from + to) / 2);
            }
        }
    }

    pos->castle &= pos->castle_mask[from] & pos->castle_mask[to];
    pos->key ^= zob_castle[pos->castle] ^ zob_turn;
    pos->side ^= 1;
    if (us == BLACK)
        pos->fullmove++;
    DEBUG_CHECK(pos);
}

void unmake_move(Position *pos)
{
    Undo *u = &pos->hist[--pos->hply];
    Move m = u->move;
    int from = MOVE_FROM(m), to = MOVE_TO(m), kind = MOVE_KIND(m);
    pos->side ^= 1;
    int us = pos->side;
    if (us == BLACK)
        pos->fullmove--;

    if (kind == MK_CASTLE) {
        bool kingside = to > from;
        int rank = RANK_OF(from);
        int kto = SQ(kingside ? 6 : 2, rank), rto = SQ(kingside ? 5 : 3, rank);
        int king = pos->board[kto], rook = pos->board[rto];
        int ki = pos->index[kto], ri = pos->index[rto];
        pos->board[kto] = pos->board[rto] = EMPTY;
        pos->board[from] = (uint8_t)king;
        pos->board[to] = (uint8_t)rook;
        pos->index[from] = (uint8_t)ki;
        pos->index[to] = (uint8_t)ri;
        pos->pieces[us][ki] = (uint8_t)from;
        pos->pieces[us][ri] = (uint8_t)to;
        bb_flip(pos, king, kto);
        bb_flip(pos, king, from);
        bb_flip(pos, rook, rto);
        bb_flip(pos, rook, to);
    } else {
        if (kind == MK_PROMO) {
            int np = pos->board[to], pawn = MAKE_PIECE(us, PAWN);
            list_del(pos, to, np); /* it is the last entry, so nothing else moves */
            pos->count[np]--;
            pos->board[to] = (uint8_t)pawn;
            list_restore(pos, to, pawn, u->pro_index);
            pos->count[pawn]++;
            bb_flip(pos, np, to);
            bb_flip(pos, pawn, to);
        }
        /* move_piece also updates the key; the key is restored below anyway. */
        int p = pos->board[to];
        bb_flip(pos, p, to);
        bb_flip(pos, p, from);
        pos->board[from] = (uint8_t)p;
        pos->board[to] = EMPTY;
        int i = pos->index[to];
        pos->index[from] = (uint8_t)i;
        if (PTYPE(p) == PAWN)
            pos->pawns[us][i] = (uint8_t)from;
        else
            pos->pieces[us][i] = (uint8_t)from;
        if (u->captured != EMPTY) {
            int capsq = kind == MK_EP ? to + (us == WHITE ? -16 : 16) : to;
            pos->board[capsq] = u->captured;
            list_restore(pos, capsq, u->captured, u->cap_index);
            pos->count[u->captured]++;
            bb_flip(pos, u->captured, capsq);
        }
    }
    pos->castle = u->castle;
    pos->ep = u->ep;
    pos->halfmove = u->halfmove;
    pos->key = u->key;
    pos->keys = u->keys;
    pos->psq[WHITE] = u->psq[WHITE];
    pos->psq[BLACK] = u->psq[BLACK];
    DEBUG_CHECK(pos);
}

void make_null(Position *pos)
{
    if (pos->hply >= pos->hcap && !pos_reserve(pos, 1))
        abort();
    Undo *u = &pos->hist[pos->hply++];
    u->key = pos->key;
    u->move = MOVE_NULL;
    u->castle = (uint8_t)pos->castle;
    u->ep = (uint8_t)pos->ep;
    u->halfmove = (int16_t)pos->halfmove;
    u->captured = EMPTY;
    if (pos->ep != NO_SQ) {
        pos->key ^= zob_ep[FILE_OF(pos->ep)];
        pos->ep = NO_SQ;
    }
    pos->halfmove++;
    pos->key ^= zob_turn;
    pos->side ^= 1;
}

void unmake_null(Position *pos)
{
    Undo *u = &pos->hist[--pos->hply];
    pos->side ^= 1;
    pos->ep = u->ep;
    pos->halfmove = u->halfmove;
    pos->key = u->key;
}

/* ---- Attacks ---- */

/* Whether side `by` attacks sq, with the squares skip1 and skip2 (or NO_SQ)
 * taken as empty: a king's own square when it steps away, a castling
 * rook's square. */
static inline __attribute__((always_inline)) bool attacked(const Position *pos, int sq, int by, int skip1, int skip2)
{
    const uint8_t *b = pos->board;
    if (by == WHITE) {
        if ((!OFFBOARD(sq - 15) && b[sq - 15] == WP) || (!OFFBOARD(sq - 17) && b[sq - 17] == WP))
            return true;
    } else {
        if ((!OFFBOARD(sq + 15) && b[sq + 15] == BP) || (!OFFBOARD(sq + 17) && b[sq + 17] == BP))
            return true;
    }
    for (int i = 0, n = pos->npieces[by]; i < n; i++) {
        int from = pos->pieces[by][i];
        int d = DELTA(from, sq);
        int t = PTYPE(b[from]);
        if (!(attack_kinds[d] & (1 << t)))
            continue;
        if (t == KNIGHT || t == KING)
            return true;
        int step = attack_step[d];
        int x = from + step;
        while (x != sq && (b[x] == EMPTY || x == skip1 || x == skip2))
            x += step;
        if (x == sq)
            return true;
    }
    return false;
}

bool sq_attacked(const Position *pos, int sq, int by) { return attacked(pos, sq, by, NO_SQ, NO_SQ); }

bool sq_attacked_through(const Position *pos, int sq, int by, int skip1, int skip2)
{
    return attacked(pos, sq, by, skip1, skip2);
}

bool in_check(const Position *pos)
{
    return sq_attacked(pos, KING_SQ(pos, pos->side), pos->side ^ 1);
}

/* ---- Game state ---- */

bool is_repetition(const Position *pos, int count_needed)
{
    int found = 0;
    int limit = pos->halfmove < pos->hply ? pos->halfmove : pos->hply;
    for (int i = 4; i <= limit; i += 2)
        if (pos->hist[pos->hply - i].key == pos->key && ++found >= count_needed)
            return true;
    return false;
}

static bool is_light(int sq) { return ((FILE_OF(sq) + RANK_OF(sq)) & 1) != 0; }

bool insufficient_material(const Position *pos)
{
    const uint8_t *c = pos->count;
    if (c[WP] || c[BP] || c[WR] || c[BR] || c[WQ] || c[BQ])
        return false;
    int minors = c[WN] + c[BN] + c[WB] + c[BB];
    if (minors <= 1)
        return true; /* K v K, K+minor v K */
    if (c[WN] || c[BN])
        return false;
    /* Only bishops: a draw when they all stand on squares of one colour. */
    int light = 0, dark = 0;
    for (int side = 0; side < 2; side++)
        for (int i = 1; i < pos->npieces[side]; i++) {
            int sq = pos->pieces[side][i];
            if (is_light(sq))
                light++;
            else
                dark++;
        }
    return light == 0 || dark == 0;
}

/* ---- Consistency ---- */

bool pos_is_ok(const Position *pos, const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    uint8_t count[16] = {0};
    uint64_t key = 0, bb[16] = {0};
    PieceKeys keys = {0};
    Score psq[2] = {{0, 0}, {0, 0}};
    for (int sq = 0; sq < 128; sq++) {
        int p = pos->board[sq];
        if (OFFBOARD(sq)) {
            if (p != EMPTY) {
                *why = "piece off the board";
                return false;
            }
            continue;
        }
        if (p == EMPTY)
            continue;
        if (PTYPE(p) == NO_TYPE || PTYPE(p) > KING) {
            *why = "bad piece code";
            return false;
        }
        count[p]++;
        key ^= zob_piece[p][sq];
        bb[p] |= (uint64_t)1 << SQ64(sq);
        key_piece(&keys, p, sq);
        psq[PCOLOR(p)].mg += psq_table[p][SQ64(sq)].mg;
        psq[PCOLOR(p)].eg += psq_table[p][SQ64(sq)].eg;
        int c = PCOLOR(p), i = pos->index[sq];
        const uint8_t *list = PTYPE(p) == PAWN ? pos->pawns[c] : pos->pieces[c];
        int n = PTYPE(p) == PAWN ? pos->npawns[c] : pos->npieces[c];
        if (i >= n || list[i] != sq) {
            *why = "piece list out of step with the board";
            return false;
        }
    }
    for (int p = 0; p < 16; p++)
        if (p != EMPTY && count[p] != pos->count[p]) {
            *why = "piece counts wrong";
            return false;
        }
    if (memcmp(bb, pos->bb, sizeof bb) || memcmp(&keys, &pos->keys, sizeof keys)) {
        *why = "square sets or piece keys out of step with the board";
        return false;
    }
    if (pos->psq_ver == psq_version && memcmp(psq, pos->psq, sizeof psq)) {
        *why = "piece-square sums wrong";
        return false;
    }
    for (int c = 0; c < 2; c++) {
        if (pos->npawns[c] != count[MAKE_PIECE(c, PAWN)] ||
            pos->npieces[c] + pos->npawns[c] !=
                count[MAKE_PIECE(c, PAWN)] + count[MAKE_PIECE(c, KNIGHT)] +
                    count[MAKE_PIECE(c, BISHOP)] + count[MAKE_PIECE(c, ROOK)] +
                    count[MAKE_PIECE(c, QUEEN)] + count[MAKE_PIECE(c, KING)]) {
            *why = "list lengths wrong";
            return false;
        }
        if (count[MAKE_PIECE(c, KING)] != 1 || pos->board[pos->pieces[c][0]] != MAKE_PIECE(c, KING)) {
            *why = "king missing from slot 0";
            return false;
        }
    }
    key ^= zob_castle[pos->castle];
    if (pos->ep != NO_SQ)
        key ^= zob_ep[FILE_OF(pos->ep)];
    if (pos->side == WHITE)
        key ^= zob_turn;
    if (key != pos->key) {
        *why = "incremental key wrong";
        return false;
    }
    for (int b = 0; b < 4; b++)
        if ((pos->castle & (1 << b)) &&
            (pos->castle_rook[b] == NO_SQ || pos->board[pos->castle_rook[b]] != MAKE_PIECE(b / 2, ROOK))) {
            *why = "castling right without its rook";
            return false;
        }
    if (sq_attacked(pos, KING_SQ(pos, pos->side ^ 1), pos->side)) {
        *why = "side not to move is in check";
        return false;
    }
    return true;
}
