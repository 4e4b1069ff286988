/* san.c - Standard Algebraic Notation out (move_to_san) and in (san_parse),
 * both checked against the legal move list. */
#include "san.h"
#include "movegen.h"

#include <ctype.h>
#include <string.h>

static const char piece_letter[] = "?PNBRQK";
static const char san_pieces[] = "NBRQKnbrqk"; /* what may start a piece move */

/* 0: m gives no check, 1: check, 2: mate. m is played on a shallow copy
 * with a one-entry history of its own, so pos is never touched. */
static int check_state(const Position *pos, Move m)
{
    Position tmp = *pos;
    Undo u[1];
    tmp.hist = u;
    tmp.hply = 0;
    tmp.hcap = 1;
    make_move(&tmp, m);
    if (!in_check(&tmp))
        return 0;
    MoveList l;
    gen_legal(&tmp, &l);
    return l.count ? 1 : 2;
}

static bool is_capture(const Position *pos, Move m)
{
    return MOVE_KIND(m) == MK_EP || (MOVE_KIND(m) != MK_CASTLE && pos->board[MOVE_TO(m)] != EMPTY);
}

char *move_to_san(const Position *pos, Move m, char *buf)
{
    char *s = buf;
    if (m == MOVE_NONE || m == MOVE_NULL) {
        strcpy(buf, "--");
        return buf;
    }
    int from = MOVE_FROM(m), to = MOVE_TO(m), kind = MOVE_KIND(m);
    if (kind == MK_CASTLE) { /* stored as king takes rook: the rook's side names it */
        strcpy(s, to > from ? "O-O" : "O-O-O");
        s += strlen(s);
    } else {
        int piece = pos->board[from], type = PTYPE(piece);
        bool capture = is_capture(pos, m);
        if (type == PAWN) {
            if (capture)
                *s++ = (char)('a' + FILE_OF(from));
        } else {
            *s++ = piece_letter[type];
            /* Other pieces of the same kind that can go to the same square. */
            MoveList l;
            gen_legal(pos, &l);
            bool clash = false, same_file = false, same_rank = false;
            for (int i = 0; i < l.count; i++) {
                Move o = l.moves[i];
                int ofrom = MOVE_FROM(o);
                if (MOVE_KIND(o) == MK_CASTLE || MOVE_TO(o) != to || ofrom == from || pos->board[ofrom] != piece)
                    continue;
                clash = true;
                same_file |= FILE_OF(ofrom) == FILE_OF(from);
                same_rank |= RANK_OF(ofrom) == RANK_OF(from);
            }
            if (clash && (!same_file || same_rank))
                *s++ = (char)('a' + FILE_OF(from));
            if (clash && same_file)
                *s++ = (char)('1' + RANK_OF(from));
        }
        if (capture)
            *s++ = 'x';
        *s++ = (char)('a' + FILE_OF(to));
        *s++ = (char)('1' + RANK_OF(to));
        if (kind == MK_PROMO) {
            *s++ = '=';
            *s++ = piece_letter[MOVE_PROMO(m)];
        }
    }
    int cs = check_state(pos, m);
    if (cs)
        *s++ = cs == 2 ? '#' : '+';
    *s = '\0';
    return buf;
}

/* ---- Reading ---- */

/* One reading of the text: which piece, where from (either may be -1 when
 * not given), where to, the promotion piece (0 if none). */
typedef struct {
    int type, file, rank, to, promo;
    bool capture;
} SanReading;

/* Reads the part before the destination ("", "e", "1", "e1") into r. */
static bool read_origin(const char *p, size_t n, SanReading *r)
{
    size_t i = 0;
    r->file = r->rank = -1;
    if (i < n && p[i] >= 'a' && p[i] <= 'h')
        r->file = p[i++] - 'a';
    if (i < n && p[i] >= '1' && p[i] <= '8')
        r->rank = p[i++] - '1';
    return i == n;
}

static bool matches_reading(const Position *pos, Move m, const SanReading *r)
{
    int from = MOVE_FROM(m), to = MOVE_TO(m), kind = MOVE_KIND(m);
    if (kind == MK_CASTLE || to != r->to || PTYPE(pos->board[from]) != r->type)
        return false;
    if ((r->file >= 0 && FILE_OF(from) != r->file) || (r->rank >= 0 && RANK_OF(from) != r->rank))
        return false;
    if (r->promo && (kind != MK_PROMO || MOVE_PROMO(m) != r->promo))
        return false; /* no promotion given matches all four: ambiguous */
    if (r->capture && !is_capture(pos, m))
        return false;
    /* A pawn named by its destination alone ("e4") only pushes. */
    if (r->type == PAWN && r->file < 0 && FILE_OF(from) != FILE_OF(to))
        return false;
    return true;
}

static int promo_of(char c)
{
    const char *p = strchr("NBRQ", toupper((unsigned char)c));
    return c && p ? KNIGHT + (int)(p - "NBRQ") : 0;
}

/* Removes trailing check marks, annotations and "e.p."; true if any was there. */
static bool strip_suffix(char *b, size_t *n)
{
    size_t n0 = *n;
    while (*n && strchr("+#!?", b[*n - 1]))
        b[--*n] = '\0';
    if (*n >= 4 && !strcmp(b + *n - 4, "e.p.")) {
        *n -= 4;
        b[*n] = '\0';
    }
    while (*n && isspace((unsigned char)b[*n - 1]))
        b[--*n] = '\0';
    return *n != n0;
}

static SanStatus finish(int count, const MoveList *found, Move *out, MoveList *matches)
{
    if (matches)
        *matches = *found;
    if (count == 0)
        return SAN_ILLEGAL;
    if (count > 1)
        return SAN_AMBIGUOUS;
    if (out)
        *out = found->moves[0];
    return SAN_OK;
}

SanStatus san_parse(const Position *pos, const char *s, Move *out, MoveList *matches)
{
    char b[32];
    MoveList found;
    found.count = 0;
    if (out)
        *out = MOVE_NONE;
    if (matches)
        matches->count = 0;

    /* Trim, then drop what decorates a move without naming it. */
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    if (n >= sizeof b)
        return SAN_SYNTAX;
    memcpy(b, s, n + 1);
    while (n && isspace((unsigned char)b[n - 1]))
        b[--n] = '\0';
    while (strip_suffix(b, &n))
        ;
    if (!n)
        return SAN_SYNTAX;

    MoveList legal;
    gen_legal(pos, &legal);

    /* Castling: O-O, 0-0, o-o (with or without the hyphens). */
    char c[32];
    size_t k = 0;
    bool only_o = true;
    for (size_t i = 0; i < n; i++) {
        if (b[i] == '-')
            continue;
        if (!strchr("Oo0", b[i]))
            only_o = false;
        c[k++] = b[i];
    }
    if (only_o && (k == 2 || k == 3)) {
        bool kingside = k == 2;
        for (int i = 0; i < legal.count; i++) {
            Move m = legal.moves[i];
            if (MOVE_KIND(m) == MK_CASTLE && (MOVE_TO(m) > MOVE_FROM(m)) == kingside)
                found.moves[found.count++] = m;
        }
        return finish(found.count, &found, out, matches);
    }

    /* Everything else: [piece][file][rank][x]<file><rank>[=][promotion]. */
    bool capture = false;
    k = 0;
    for (size_t i = 0; i < n; i++) {
        if (b[i] == 'x' || b[i] == ':')
            capture = true;
        else if (b[i] != '-' && b[i] != '=')
            c[k++] = b[i];
    }
    c[k] = '\0';
    int promo = 0;
    if (k >= 3 && isdigit((unsigned char)c[k - 2]) && (promo = promo_of(c[k - 1])) != 0)
        c[--k] = '\0';
    if (k < 2 || c[k - 2] < 'a' || c[k - 2] > 'h' || c[k - 1] < '1' || c[k - 1] > '8')
        return SAN_SYNTAX;
    int to = SQ(c[k - 2] - 'a', c[k - 1] - '1');
    size_t plen = k - 2;

    /* Up to two readings: a lower-case b may be the b-pawn (the last reading)
     * or a bishop. */
    SanReading readings[2];
    int nread = 0;
    const char *letter = plen ? strchr(san_pieces, c[0]) : NULL;
    if (letter && !promo) { /* only pawns promote */
        SanReading r = {0};
        r.type = KNIGHT + (int)(letter - san_pieces) % 5;
        if (read_origin(c + 1, plen - 1, &r))
            readings[nread++] = r;
    }
    if (!letter || c[0] == 'b') {
        SanReading r = {0};
        r.type = PAWN;
        if (read_origin(c, plen, &r))
            readings[nread++] = r;
    }
    if (!nread)
        return SAN_SYNTAX;
    for (int j = 0; j < nread; j++) {
        readings[j].to = to;
        readings[j].promo = promo;
        readings[j].capture = capture;
    }
    /* The readings in turn, the pawn first: "bxc4" is the b-pawn's capture
     * even where a bishop could take on c4 too. */
    for (int j = nread - 1; j >= 0 && !found.count; j--)
        for (int i = 0; i < legal.count; i++)
            if (matches_reading(pos, legal.moves[i], &readings[j]))
                found.moves[found.count++] = legal.moves[i];
    return finish(found.count, &found, out, matches);
}

Move parse_san(const Position *pos, const char *s)
{
    Move m;
    return san_parse(pos, s, &m, NULL) == SAN_OK ? m : MOVE_NONE;
}
