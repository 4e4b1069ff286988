/* fen.c - FEN, X-FEN and Shredder-FEN in and out, with a reason for every rejection. */
#include "fen.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "zobrist.h"

static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return false;
}

static int piece_of_char(int ch)
{
    const char *s = strchr("PNBRQKpnbrqk", ch);
    if (!ch || !s)
        return EMPTY;
    int i = (int)(s - "PNBRQKpnbrqk");
    return MAKE_PIECE(i / 6, i % 6 + 1);
}

/* Reads a whole non-negative decimal field; false on anything else. */
static bool read_count(const char *s, long *out)
{
    if (!*s)
        return false;
    long v = 0;
    for (; *s; s++) {
        if (!isdigit((unsigned char)*s) || v > 100000000)
            return false;
        v = v * 10 + (*s - '0');
    }
    *out = v;
    return true;
}

static void add_castle_right(Position *pos, int color, int rsq)
{
    int ksq = KING_SQ(pos, color);
    int bit = 2 * color + (rsq < ksq);
    pos->castle |= 1 << bit;
    pos->castle_rook[bit] = (uint8_t)rsq;
    pos->castle_mask[rsq] &= (uint8_t)~(1 << bit);
    pos->castle_mask[ksq] &= (uint8_t)~(3 << (2 * color));
}

static bool parse_castling(Position *pos, const char *f, char *err, size_t errlen)
{
    if (!strcmp(f, "-"))
        return true;
    for (const char *c = f; *c; c++) {
        int ch = *c;
        int color = isupper(ch) ? WHITE : BLACK;
        int rank = color == WHITE ? 0 : 7;
        int rook = MAKE_PIECE(color, ROOK);
        int ksq = KING_SQ(pos, color);
        int lc = tolower(ch);
        if (!strchr("kqabcdefgh", lc))
            return fail(err, errlen, "bad castling letter '%c'", ch);
        if (RANK_OF(ksq) != rank)
            return fail(err, errlen, "castling right '%c' but the king is not on its first rank", ch);
        int rsq = NO_SQ;
        if (lc == 'k') {
            for (int file = 7; file > FILE_OF(ksq); file--)
                if (pos->board[SQ(file, rank)] == rook) {
                    rsq = SQ(file, rank);
                    break;
                }
        } else if (lc == 'q') {
            for (int file = 0; file < FILE_OF(ksq); file++)
                if (pos->board[SQ(file, rank)] == rook) {
                    rsq = SQ(file, rank);
                    break;
                }
        } else {
            int file = lc - 'a';
            if (pos->board[SQ(file, rank)] == rook && file != FILE_OF(ksq))
                rsq = SQ(file, rank);
        }
        if (rsq == NO_SQ)
            return fail(err, errlen, "castling right '%c' has no rook to castle with", ch);
        int bit = 2 * color + (rsq < ksq);
        if ((pos->castle & (1 << bit)) && pos->castle_rook[bit] != rsq)
            return fail(err, errlen, "castling right '%c': two %s rooks for %s", ch,
                        rsq < ksq ? "queenside" : "kingside", color == WHITE ? "White" : "Black");
        add_castle_right(pos, color, rsq);
    }
    return true;
}

bool pos_set_fen(Position *out, const char *fen, char *err, size_t errlen)
{
    if (!fen)
        return fail(err, errlen, "empty FEN");
    char buf[256];
    while (isspace((unsigned char)*fen))
        fen++;
    size_t len = strlen(fen);
    if (len == 0)
        return fail(err, errlen, "empty FEN");
    if (len >= sizeof buf)
        return fail(err, errlen, "FEN too long");
    memcpy(buf, fen, len + 1);

    char *field[8] = {0};
    int nf = 0;
    for (char *t = strtok(buf, " \t\r\n"); t; t = strtok(NULL, " \t\r\n")) {
        if (nf == 6)
            return fail(err, errlen, "too many fields in FEN");
        field[nf++] = t;
    }
    if (nf < 4)
        return fail(err, errlen, "truncated FEN: %d field%s, need at least board, side, castling and en passant",
                    nf, nf == 1 ? "" : "s");
    if (nf == 5)
        return fail(err, errlen, "truncated FEN: a halfmove clock without the fullmove number");

    Position pos;
    pos.hist = NULL;
    pos.hcap = 0;
    pos_init(&pos);

    /* 1. Placement. */
    int rank = 7, file = 0;
    for (const char *c = field[0]; *c; c++) {
        if (*c == '/') {
            if (file != 8)
                return fail(err, errlen, "rank %d has %d files, not 8", rank + 1, file);
            if (--rank < 0)
                return fail(err, errlen, "more than 8 ranks");
            file = 0;
        } else if (*c >= '1' && *c <= '8') {
            file += *c - '0';
            if (file > 8)
                return fail(err, errlen, "rank %d has more than 8 files", rank + 1);
        } else {
            int p = piece_of_char(*c);
            if (p == EMPTY)
                return fail(err, errlen, "bad piece letter '%c'", *c);
            if (file > 7)
                return fail(err, errlen, "rank %d has more than 8 files", rank + 1);
            int c2 = PCOLOR(p);
            if (PTYPE(p) == PAWN && (rank == 0 || rank == 7))
                return fail(err, errlen, "pawn on the first or last rank");
            if (PTYPE(p) == PAWN ? pos.npawns[c2] >= 8 : pos.npieces[c2] >= 16)
                return fail(err, errlen, "too many %s for %s", PTYPE(p) == PAWN ? "pawns" : "pieces",
                            c2 == WHITE ? "White" : "Black");
            if (pos.npawns[c2] + pos.npieces[c2] >= 16)
                return fail(err, errlen, "more than 16 men for %s", c2 == WHITE ? "White" : "Black");
            if (PTYPE(p) == KING && pos.count[p])
                return fail(err, errlen, "more than one %s king", c2 == WHITE ? "white" : "black");
            pos_put(&pos, SQ(file, rank), p);
            file++;
        }
    }
    if (rank != 0)
        return fail(err, errlen, "%d ranks, not 8", 8 - rank);
    if (file != 8)
        return fail(err, errlen, "rank 1 has %d files, not 8", file);
    if (!pos.count[WK] || !pos.count[BK])
        return fail(err, errlen, "missing %s king", pos.count[WK] ? "black" : "white");

    /* 2. Side to move. */
    if (!strcmp(field[1], "w"))
        pos.side = WHITE;
    else if (!strcmp(field[1], "b"))
        pos.side = BLACK;
    else
        return fail(err, errlen, "side to move must be 'w' or 'b', not '%s'", field[1]);

    /* 3. Castling. */
    if (!parse_castling(&pos, field[2], err, errlen))
        return false;

    /* 4. En passant: a square on the sixth rank (seen from the mover), empty,
     * with the enemy pawn that just advanced in front of it and its start square empty. */
    if (strcmp(field[3], "-")) {
        const char *e = field[3];
        if (strlen(e) != 2 || e[0] < 'a' || e[0] > 'h' || e[1] < '1' || e[1] > '8')
            return fail(err, errlen, "bad en-passant square '%s'", e);
        int sq = SQ(e[0] - 'a', e[1] - '1');
        int us = pos.side, push = us == WHITE ? -16 : 16;
        if (RANK_OF(sq) != (us == WHITE ? 5 : 2) || pos.board[sq] != EMPTY ||
            pos.board[sq + push] != MAKE_PIECE(us ^ 1, PAWN) || pos.board[sq - push] != EMPTY)
            return fail(err, errlen, "impossible en-passant square '%s'", e);
        int mine = MAKE_PIECE(us, PAWN), victim = sq + push;
        if ((!OFFBOARD(victim - 1) && pos.board[victim - 1] == mine) ||
            (!OFFBOARD(victim + 1) && pos.board[victim + 1] == mine))
            pos.ep = sq;
    }

    /* 5. Counters (optional). */
    if (nf == 6) {
        long hm, fm;
        if (!read_count(field[4], &hm) || hm > 10000)
            return fail(err, errlen, "bad halfmove clock '%s'", field[4]);
        if (!read_count(field[5], &fm) || fm < 1 || fm > 100000)
            return fail(err, errlen, "bad fullmove number '%s'", field[5]);
        pos.halfmove = (int)hm;
        pos.fullmove = (int)fm;
    }

    /* 6. Key and final checks. */
    pos.key ^= zob_castle[pos.castle];
    if (pos.ep != NO_SQ)
        pos.key ^= zob_ep[FILE_OF(pos.ep)];
    if (pos.side == WHITE)
        pos.key ^= zob_turn;
    if (sq_attacked(&pos, KING_SQ(&pos, pos.side ^ 1), pos.side))
        return fail(err, errlen, "the side not to move is in check");
    const char *why;
    if (!pos_is_ok(&pos, &why))
        return fail(err, errlen, "inconsistent position: %s", why);

    bool chess960 = out->chess960;
    Undo *hist = out->hist;
    int cap = out->hcap;
    *out = pos;
    out->hist = hist;
    out->hcap = cap;
    out->hply = 0;
    out->chess960 = chess960;
    return true;
}

/* Writes the piece-placement field of a FEN from piece letters by square
 * (a1 = 0 .. h8 = 63, 0 for an empty square); returns the end. */
static char *write_placement(const char board[64], char *s)
{
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            char c = board[rank * 8 + file];
            if (!c) {
                empty++;
                continue;
            }
            if (empty)
                *s++ = (char)('0' + empty);
            empty = 0;
            *s++ = c;
        }
        if (empty)
            *s++ = (char)('0' + empty);
        if (rank)
            *s++ = '/';
    }
    return s;
}

bool pos_set_random(Position *pos, const char *material, int side, uint64_t *seed)
{
    char board[64] = {0}, fen[100], err[160];
    bool white = true;
    for (const char *p = material; *p && *p != '.'; p++) {
        if (*p == 'v') {
            white = false;
            continue;
        }
        int sq;
        do {
            *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
            sq = (int)(*seed >> 58); /* a1 = 0 .. h8 = 63 */
        } while (board[sq] || (*p == 'P' && (sq < 8 || sq >= 56)));
        board[sq] = white ? *p : (char)tolower((unsigned char)*p);
    }
    char *f = write_placement(board, fen);
    snprintf(f, sizeof fen - (size_t)(f - fen), " %c - - 0 1", side == WHITE ? 'w' : 'b');
    return pos_set_fen(pos, fen, err, sizeof err);
}

char *pos_get_fen(const Position *pos, char *buf)
{
    char board[64];
    for (int sq = 0; sq < 64; sq++) {
        int p = pos->board[SQ88(sq)];
        board[sq] = p == EMPTY ? 0 : "?PNBRQK??pnbrqk?"[p];
    }
    char *s = write_placement(board, buf);
    *s++ = ' ';
    *s++ = pos->side == WHITE ? 'w' : 'b';
    *s++ = ' ';
    if (!pos->castle)
        *s++ = '-';
    for (int b = 0; b < 4; b++) {
        if (!(pos->castle & (1 << b)))
            continue;
        int color = b / 2, rsq = pos->castle_rook[b];
        bool kingside = !(b & 1);
        /* X-FEN: K/Q when the rook is the outermost one on its side, else its file. */
        bool outer = true;
        int rook = MAKE_PIECE(color, ROOK);
        for (int x = rsq + (kingside ? 1 : -1); !OFFBOARD(x) && RANK_OF(x) == RANK_OF(rsq);
             x += kingside ? 1 : -1)
            if (pos->board[x] == rook)
                outer = false;
        char ch = outer ? (kingside ? 'K' : 'Q') : (char)('A' + FILE_OF(rsq));
        *s++ = color == WHITE ? ch : (char)tolower(ch);
    }
    *s++ = ' ';
    if (pos->ep == NO_SQ)
        *s++ = '-';
    else {
        *s++ = (char)('a' + FILE_OF(pos->ep));
        *s++ = (char)('1' + RANK_OF(pos->ep));
    }
    sprintf(s, " %d %d", pos->halfmove, pos->fullmove);
    return buf;
}

char *move_to_uci(Move m, bool chess960, char *buf)
{
    if (m == MOVE_NONE || m == MOVE_NULL) {
        strcpy(buf, "0000");
        return buf;
    }
    int from = MOVE_FROM(m), to = MOVE_TO(m);
    if (MOVE_KIND(m) == MK_CASTLE && !chess960)
        to = SQ(to > from ? 6 : 2, RANK_OF(from));
    buf[0] = (char)('a' + FILE_OF(from));
    buf[1] = (char)('1' + RANK_OF(from));
    buf[2] = (char)('a' + FILE_OF(to));
    buf[3] = (char)('1' + RANK_OF(to));
    buf[4] = '\0';
    if (MOVE_KIND(m) == MK_PROMO) {
        buf[4] = "nbrq"[MOVE_PROMO(m) - KNIGHT];
        buf[5] = '\0';
    }
    return buf;
}

Move parse_move(const Position *pos, const char *str)
{
    char low[8];
    size_t n = strlen(str);
    if (n < 4 || n > 5)
        return MOVE_NONE;
    for (size_t i = 0; i <= n; i++)
        low[i] = (char)tolower((unsigned char)str[i]);
    MoveList l;
    gen_legal(pos, &l);
    /* The current mode's notation first, then the other one where it is unambiguous. */
    for (int pass = 0; pass < 2; pass++) {
        bool c960 = pass == 0 ? pos->chess960 : !pos->chess960;
        for (int i = 0; i < l.count; i++) {
            char b[8];
            if (!strcmp(move_to_uci(l.moves[i], c960, b), low))
                return l.moves[i];
        }
    }
    return MOVE_NONE;
}

void pos_print(const Position *pos, FILE *out)
{
    char fen[128];
    for (int rank = 7; rank >= 0; rank--) {
        fprintf(out, "\n +---+---+---+---+---+---+---+---+\n");
        for (int file = 0; file < 8; file++)
            fprintf(out, " | %c", " PNBRQK  pnbrqk "[pos->board[SQ(file, rank)]]);
        fprintf(out, " | %d", rank + 1);
    }
    fprintf(out, "\n +---+---+---+---+---+---+---+---+\n");
    fprintf(out, "   a   b   c   d   e   f   g   h\n\n");
    fprintf(out, "Fen: %s\n", pos_get_fen(pos, fen));
    fprintf(out, "Key: %016llX\n", (unsigned long long)pos->key);
    fflush(out);
}
