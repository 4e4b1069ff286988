/* test_san.c - unit tests of SAN: every legal move of the perft suites (and of
 * their children) written and read back, known spellings (disambiguation,
 * promotions, castling in both modes, check and mate marks), lenient input,
 * and ambiguous, illegal and malformed input refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "epd.h"
#include "fen.h"
#include "movegen.h"
#include "position.h"
#include "san.h"
#include "zobrist.h"

static Position P;

static bool set(Position *pos, const char *fen, bool chess960)
{
    char err[160] = "";
    bool ok = pos_set_fen(pos, fen, err, sizeof err);
    CHECK(ok, "pos_set_fen(\"%s\") refused it: %s", fen, err);
    pos->chess960 = chess960;
    return ok;
}

/* ------------------------------------------------------------ round trips */

static long roundtrip_moves;

/* Every legal move: SAN is well formed, unique in the position, and reads
 * back as the same move; the position is left exactly as it was. */
static int roundtrip_position(const Position *pos, const char *fen)
{
    MoveList l;
    gen_legal(pos, &l);
    char san[MAX_MOVES][SAN_MAX];
    int bad = 0;
    uint64_t key = pos->key;
    int hply = pos->hply;
    for (int i = 0; i < l.count; i++) {
        move_to_san(pos, l.moves[i], san[i]);
        size_t len = strlen(san[i]);
        bool shape = len >= 2 && len < SAN_MAX && !strchr(san[i], ' ');
        Move back = parse_san(pos, san[i]);
        roundtrip_moves++;
        if (!shape || back != l.moves[i]) {
            char u[8], v[8];
            if (bad++ < 3)
                printf("  %s: %s written as \"%s\", read back as %s\n", fen, move_to_uci(l.moves[i], true, u),
                       san[i], move_to_uci(back, true, v));
        }
        for (int j = 0; j < i; j++)
            if (!strcmp(san[i], san[j]) && bad++ < 3)
                printf("  %s: two moves written \"%s\"\n", fen, san[i]);
    }
    CHECK(pos->key == key && pos->hply == hply, "%s: move_to_san changed the position", fen);
    return bad;
}

static void test_roundtrip(void)
{
    EpdSuite suite = epd_read_suites();
    int npos = 0, nchildren = 0;
    Position child = {0};
    for (int k = 0; k < suite.count; k++) {
        const char *line = suite.pos[k].fen;
        if (!set(&P, line, suite.pos[k].c960))
            continue;
        npos++;
        int bad = roundtrip_position(&P, line);
        /* The children too: many more checks, mates and promotions. */
        MoveList l;
        gen_legal(&P, &l);
        for (int i = 0; i < l.count; i++) {
            pos_copy(&child, &P);
            make_move(&child, l.moves[i]);
            bad += roundtrip_position(&child, line);
            nchildren++;
        }
        CHECK(bad == 0, "%s: %d SAN faults", line, bad);
    }
    epd_free(&suite);
    pos_free(&child);
    CHECK(npos > 200, "only %d EPD positions read", npos);
    printf("  round trips: %d positions and %d children, %ld moves\n", npos, nchildren, roundtrip_moves);
}

/* ----------------------------------------------------------- known strings */

/* The move uci in fen is written want, and want reads back as it. */
static void known(const char *fen, bool c960, const char *uci, const char *want)
{
    if (!set(&P, fen, c960))
        return;
    Move m = parse_move(&P, uci);
    CHECK(m != MOVE_NONE, "%s not legal in %s", uci, fen);
    if (m == MOVE_NONE)
        return;
    char san[SAN_MAX];
    move_to_san(&P, m, san);
    CHECK(!strcmp(san, want), "%s in %s written \"%s\", want \"%s\"", uci, fen, san, want);
    CHECK(parse_san(&P, want) == m, "\"%s\" in %s not read as %s", want, fen, uci);
}

#define START START_FEN
#define AFTER_D4_D5_NF3_NF6 "rnbqkb1r/ppp1pppp/5n2/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 2 3"
#define TWO_ROOKS "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1"
#define THREE_QUEENS "8/2k5/8/8/4Q2Q/8/8/K6Q w - - 0 1"
#define FOOLS_MATE "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2"
#define PROMO "k7/4P3/8/8/8/8/8/4K3 w - - 0 1"
#define CASTLES "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
#define SCANDI "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"
#define EP "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
#define C960 "1r4kr/1p4p1/8/8/8/8/1P4P1/RK4R1 w GAhb - 0 1"
#define BPAWN "4k3/8/8/2p5/1P6/8/8/4K1B1 w - - 0 1"

static void test_known(void)
{
    known(START, false, "g1f3", "Nf3");
    known(START, false, "e2e4", "e4");
    known(START, false, "b1c3", "Nc3");
    known(SCANDI, false, "e4d5", "exd5");
    known(EP, false, "e5d6", "exd6");
    known(EP, false, "e5e6", "e6");
    known(PROMO, false, "e7e8q", "e8=Q+");
    known(PROMO, false, "e7e8r", "e8=R+");
    known(PROMO, false, "e7e8b", "e8=B");
    known(PROMO, false, "e7e8n", "e8=N");
    known(CASTLES, false, "e1a1", "O-O-O");
    known(CASTLES, false, "e1g1", "O-O");
    known(CASTLES, false, "a1a8", "Rxa8+");
    known(CASTLES, false, "h1h8", "Rxh8+");
    known(AFTER_D4_D5_NF3_NF6, false, "b1d2", "Nbd2");
    known(AFTER_D4_D5_NF3_NF6, false, "f3d2", "Nfd2");
    known(AFTER_D4_D5_NF3_NF6, false, "f3e5", "Ne5");
    known(TWO_ROOKS, false, "a1a3", "R1a3");
    known(TWO_ROOKS, false, "a5a3", "R5a3");
    known(TWO_ROOKS, false, "a5a8", "Ra8+");
    known(THREE_QUEENS, false, "h4e1", "Qh4e1");
    known(THREE_QUEENS, false, "e4e1", "Qee1");
    known(THREE_QUEENS, false, "h1e1", "Q1e1");
    known(THREE_QUEENS, false, "h4h2", "Q4h2+");
    known(THREE_QUEENS, false, "e4c6", "Qc6+");
    known(FOOLS_MATE, false, "d8h4", "Qh4#");
    known("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", false, "a1a8", "Ra8#");
    known("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1", false, "b1b8", "Qb8#");
    known("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1", false, "b1b2", "Qb2+");
    known("k7/8/8/2Q5/8/8/8/7K w - - 0 1", false, "c5b6", "Qb6");
    /* Chess960: the king on b1 castles with the a1 rook (queen side) and the g1 rook. */
    known(C960, true, "b1a1", "O-O-O");
    known(C960, true, "b1g1", "O-O");
    known(C960, true, "a1a7", "Ra7");
    /* A capture that promotes with check. */
    known("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", false, "a7b8q", "axb8=Q+");
    known(BPAWN, false, "b4c5", "bxc5");
    known(BPAWN, false, "g1c5", "Bxc5");
}

/* ---------------------------------------------------------------- reading */

/* s in fen reads as the move uci (or, with uci NULL, is refused as want). */
static void reads(const char *fen, bool c960, const char *s, const char *uci, SanStatus want)
{
    if (!set(&P, fen, c960))
        return;
    Move m = MOVE_NONE;
    MoveList cand;
    SanStatus st = san_parse(&P, s, &m, &cand);
    if (uci) {
        Move e = parse_move(&P, uci);
        CHECK(e != MOVE_NONE, "%s not legal in %s", uci, fen);
        CHECK(st == SAN_OK && m == e, "\"%s\" in %s: status %d, want %s", s, fen, (int)st, uci);
        CHECK(parse_san(&P, s) == e, "parse_san(\"%s\") differs from san_parse", s);
    } else {
        CHECK(st == want, "\"%s\" in %s: status %d, want %d", s, fen, (int)st, (int)want);
        CHECK(m == MOVE_NONE && parse_san(&P, s) == MOVE_NONE, "\"%s\" in %s gave a move", s, fen);
    }
}

static void test_lenient(void)
{
    reads(START, false, "Nf3", "g1f3", SAN_OK);
    reads(START, false, "nf3", "g1f3", SAN_OK);
    reads(START, false, "Ng1f3", "g1f3", SAN_OK);
    reads(START, false, "Ng1-f3", "g1f3", SAN_OK);
    reads(START, false, "Ngf3", "g1f3", SAN_OK);
    reads(START, false, "  Nf3  ", "g1f3", SAN_OK);
    reads(START, false, "Nf3!?", "g1f3", SAN_OK);
    reads(START, false, "e4!", "e2e4", SAN_OK);
    reads(START, false, "e4??", "e2e4", SAN_OK);
    reads(START, false, "e2e4", "e2e4", SAN_OK);
    reads(START, false, "e2-e4", "e2e4", SAN_OK);
    reads(SCANDI, false, "exd5", "e4d5", SAN_OK);
    reads(SCANDI, false, "ed5", "e4d5", SAN_OK);
    reads(SCANDI, false, "e:d5", "e4d5", SAN_OK);
    reads(SCANDI, false, "exd5+", "e4d5", SAN_OK);
    reads(EP, false, "exd6", "e5d6", SAN_OK);
    reads(EP, false, "exd6e.p.", "e5d6", SAN_OK);
    reads(EP, false, "exd6 e.p.", "e5d6", SAN_OK);
    reads(EP, false, "ed6", "e5d6", SAN_OK);
    reads(PROMO, false, "e8=Q+", "e7e8q", SAN_OK);
    reads(PROMO, false, "e8=Q", "e7e8q", SAN_OK);
    reads(PROMO, false, "e8Q", "e7e8q", SAN_OK);
    reads(PROMO, false, "e8q", "e7e8q", SAN_OK);
    reads(PROMO, false, "e8n", "e7e8n", SAN_OK);
    reads(PROMO, false, "e8=b", "e7e8b", SAN_OK);
    reads(PROMO, false, "e7e8r", "e7e8r", SAN_OK);
    reads(CASTLES, false, "O-O", "e1g1", SAN_OK);
    reads(CASTLES, false, "0-0", "e1g1", SAN_OK);
    reads(CASTLES, false, "o-o", "e1g1", SAN_OK);
    reads(CASTLES, false, "OO", "e1g1", SAN_OK);
    reads(CASTLES, false, "O-O-O", "e1a1", SAN_OK);
    reads(CASTLES, false, "0-0-0+", "e1a1", SAN_OK);
    reads(CASTLES, false, "o-o-o", "e1a1", SAN_OK);
    reads(CASTLES, false, "Rxa8", "a1a8", SAN_OK);
    reads(CASTLES, false, "Ra8", "a1a8", SAN_OK);
    reads(C960, true, "O-O-O", "b1a1", SAN_OK);
    reads(C960, true, "0-0", "b1g1", SAN_OK);
    reads(FOOLS_MATE, false, "Qh4#", "d8h4", SAN_OK);
    reads(FOOLS_MATE, false, "Qh4+", "d8h4", SAN_OK);
    reads(FOOLS_MATE, false, "qh4", "d8h4", SAN_OK);
    reads(AFTER_D4_D5_NF3_NF6, false, "Nbd2", "b1d2", SAN_OK);
    reads(AFTER_D4_D5_NF3_NF6, false, "N1d2", "b1d2", SAN_OK);
    reads(AFTER_D4_D5_NF3_NF6, false, "Nb1d2", "b1d2", SAN_OK);
    reads(TWO_ROOKS, false, "R1a3", "a1a3", SAN_OK);
    reads(TWO_ROOKS, false, "Ra1a3", "a1a3", SAN_OK);
    reads(THREE_QUEENS, false, "Qh4e1", "h4e1", SAN_OK);
    reads(THREE_QUEENS, false, "Qh4xe1", NULL, SAN_ILLEGAL); /* nothing to take */
    reads(THREE_QUEENS, false, "Qee1", "e4e1", SAN_OK);
    reads(THREE_QUEENS, false, "Q1e1", "h1e1", SAN_OK);
    reads(THREE_QUEENS, false, "kb2", "a1b2", SAN_OK);
    /* A lower-case b: the b-pawn, else the bishop. */
    reads(BPAWN, false, "bxc5", "b4c5", SAN_OK);
    reads(BPAWN, false, "Bxc5", "g1c5", SAN_OK);
    reads(BPAWN, false, "bh2", "g1h2", SAN_OK);
    reads(BPAWN, false, "b5", "b4b5", SAN_OK);
    reads(BPAWN, false, "bc5", "b4c5", SAN_OK); /* the pawn before the bishop */
}

static void test_refused(void)
{
    /* Ambiguous. */
    reads(AFTER_D4_D5_NF3_NF6, false, "Nd2", NULL, SAN_AMBIGUOUS);
    reads(TWO_ROOKS, false, "Ra3", NULL, SAN_AMBIGUOUS);
    reads(TWO_ROOKS, false, "Raa3", NULL, SAN_AMBIGUOUS);
    reads(THREE_QUEENS, false, "Qe1", NULL, SAN_AMBIGUOUS);
    reads(THREE_QUEENS, false, "Qhe1", NULL, SAN_AMBIGUOUS);
    reads(THREE_QUEENS, false, "Q4e1", NULL, SAN_AMBIGUOUS);
    reads(PROMO, false, "e8", NULL, SAN_AMBIGUOUS); /* which piece? */
    if (set(&P, AFTER_D4_D5_NF3_NF6, false)) {
        MoveList cand;
        Move m;
        CHECK(san_parse(&P, "Nd2", &m, &cand) == SAN_AMBIGUOUS && cand.count == 2, "Nd2: %d candidates",
              cand.count);
    }
    /* Illegal. */
    reads(START, false, "Ke2", NULL, SAN_ILLEGAL);
    reads(START, false, "Nf6", NULL, SAN_ILLEGAL);
    reads(START, false, "e5", NULL, SAN_ILLEGAL);
    reads(START, false, "Nxf3", NULL, SAN_ILLEGAL); /* x where nothing is taken */
    reads(START, false, "exd3", NULL, SAN_ILLEGAL);
    reads(START, false, "O-O", NULL, SAN_ILLEGAL);
    reads(START, false, "O-O-O", NULL, SAN_ILLEGAL);
    reads(START, false, "e4=Q", NULL, SAN_ILLEGAL);
    reads(START, false, "Bb5", NULL, SAN_ILLEGAL);
    reads(SCANDI, false, "d5", NULL, SAN_ILLEGAL); /* a pawn capture needs its file */
    reads(PROMO, false, "e8=K", NULL, SAN_SYNTAX);
    reads(PROMO, false, "Ke8=Q", NULL, SAN_SYNTAX);
    reads(FOOLS_MATE, false, "Qh5", NULL, SAN_ILLEGAL);
    reads(C960, true, "O-O-O-O", NULL, SAN_SYNTAX);
    /* Not SAN at all. */
    reads(START, false, "", NULL, SAN_SYNTAX);
    reads(START, false, "   ", NULL, SAN_SYNTAX);
    reads(START, false, "+", NULL, SAN_SYNTAX);
    reads(START, false, "xyz", NULL, SAN_SYNTAX);
    reads(START, false, "Nf9", NULL, SAN_SYNTAX);
    reads(START, false, "Zf3", NULL, SAN_SYNTAX);
    reads(START, false, "Ni3", NULL, SAN_SYNTAX);
    reads(START, false, "N", NULL, SAN_SYNTAX);
    reads(START, false, "e", NULL, SAN_SYNTAX);
    reads(START, false, "Nf 3", NULL, SAN_SYNTAX);
    reads(START, false, "Ng1g2f3", NULL, SAN_SYNTAX);
    reads(START, false, "quit", NULL, SAN_SYNTAX);
    reads(START, false, "O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O", NULL, SAN_SYNTAX);
}

int main(void)
{
    zobrist_init();
    attack_init();
    test_known();
    test_lenient();
    test_refused();
    test_roundtrip();
    pos_free(&P);
    return check_report("test_san");
}
