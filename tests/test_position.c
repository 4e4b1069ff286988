/* test_position.c - unit tests of the position layer: FEN in and out (X-FEN and
 * Shredder-FEN castling, every kind of malformed FEN), Polyglot keys, UCI move
 * notation in both castling modes, exact make/unmake, static exchange
 * evaluation, and game state
 * (halfmove clock, repetition, unbounded history, insufficient material). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "epd.h"
#include "eval.h"
#include "fen.h"
#include "movegen.h"
#include "position.h"
#include "see.h"
#include "zobrist.h"

#define KIWIPETE "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

static Position P, Q; /* zero-initialised: no history until the first make_move */

/* Sets pos from fen, recording a failure (with the reason) if it is refused. */
static bool set(Position *pos, const char *fen)
{
    char err[160] = "";
    bool ok = pos_set_fen(pos, fen, err, sizeof err);
    CHECK(ok, "pos_set_fen(\"%s\") refused it: %s", fen, err);
    return ok;
}

static const char *fen_of(const Position *pos)
{
    static char buf[4][128];
    static int next;
    next = (next + 1) % 4;
    return pos_get_fen(pos, buf[next]);
}

/* Plays space-separated UCI moves; false (and a failure) if one is not legal. */
static bool play(Position *pos, const char *moves)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        Move m = parse_move(pos, t);
        CHECK(m != MOVE_NONE, "move %s not legal in %s", t, fen_of(pos));
        if (m == MOVE_NONE)
            return false;
        make_move(pos, m);
    }
    return true;
}

/* ------------------------------------------------------------------ FEN out */

/* in must be accepted and written back as want; the output read again gives
 * the same FEN and the same key. */
static void roundtrip(const char *in, const char *want)
{
    if (!set(&P, in))
        return;
    const char *out = fen_of(&P);
    CHECK(!strcmp(out, want), "FEN \"%s\" written as \"%s\", want \"%s\"", in, out, want);
    uint64_t key = P.key;
    char copy[128];
    snprintf(copy, sizeof copy, "%s", out);
    if (set(&Q, copy)) {
        CHECK(Q.key == key, "key of \"%s\" changes when its output is read again", in);
        CHECK(!strcmp(fen_of(&Q), copy), "output of \"%s\" is not stable", in);
    }
}

static void test_fen_roundtrips(void)
{
    static const char *same[] = {
        START_FEN,
        KIWIPETE,
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "r1b1kbn1/pp1ppppr/7p/2p5/3nPP2/N2PK3/P1PQ2PP/1R3BNR b q - 0 11",
        "rnb1kb1r/pp1p2pp/5p1n/q3p3/7P/PNPpPNP1/RP3P2/2BQKB1R b Kkq - 1 10",
        "r1bk4/5pb1/p1np1N1n/1P2p1pp/3p4/BP6/R3BPPP/4K1NR w K - 4 22",
        "3r2r1/2pp2pp/2b1p1k1/pp6/P1P2B2/1P1p3P/1q4B1/RN4KR w - - 10 36",
        "r3k2r/8/8/8/8/8/8/R3K2R w Qk - 37 112",
        /* En passant squares where a capture is possible (a pawn of the side
         * to move stands beside the pawn that just advanced). */
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
        "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1",
        "4k3/8/8/pP6/8/8/8/4K3 w - a6 0 1",
        "4k3/8/8/6Pp/8/8/8/4K3 w - h6 0 1",
        "4k3/8/8/8/Pp6/8/8/4K3 b - a3 0 1",
        /* Kept although the capture is illegal (it would expose the king along
         * the rank): Polyglot keys the square by the adjacent pawn alone. */
        "7k/8/8/K2pP2r/8/8/8/8 w - d6 0 1",
        /* X-FEN: an inner castling rook is named by its file. */
        "4k3/8/8/8/8/8/8/1K1R3R w D - 0 1",
        "r1r1k3/8/8/8/8/8/8/4K3 w c - 0 1",
        "4k3/8/8/8/8/8/8/1K1R2R1 w K - 0 1",
    };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        roundtrip(same[i], same[i]);

    static const char *changed[][2] = {
        /* En passant square dropped: no pawn of the side to move beside the pushed pawn. */
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
         "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
        {"4k3/8/8/3pp3/8/8/8/4K3 w - d6 0 1", "4k3/8/8/3pp3/8/8/8/4K3 w - - 0 1"},  /* own pawn beside */
        {"4k3/8/8/3pN3/8/8/8/4K3 w - d6 0 1", "4k3/8/8/3pN3/8/8/8/4K3 w - - 0 1"},  /* a knight beside */
        {"4k3/8/8/p6P/8/8/8/4K3 w - a6 0 1", "4k3/8/8/p6P/8/8/8/4K3 w - - 0 1"},    /* no wrap a/h */
        {"4k3/8/8/P6p/8/8/8/4K3 w - h6 0 1", "4k3/8/8/P6p/8/8/8/4K3 w - - 0 1"},
        /* The two counters left out: 0 and 1. */
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", START_FEN},
        {"r3k2r/8/8/8/8/8/8/R3K2R b Kq -", "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 0 1"},
        /* Spacing and run-length spelling are normalised. */
        {"  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR \t w  KQkq   -  0   1 \n", START_FEN},
        {"rnbqkbnr/pppppppp/44/11111111/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", NULL},
        /* Shredder-FEN and X-FEN in, X-FEN out: K/Q when the rook is the outermost one. */
        {"r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"},
        {"r3k2r/8/8/8/8/8/8/R3K2R w AHah - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"},
        {"4k3/8/8/8/8/8/8/1K1R3R w H - 0 1", "4k3/8/8/8/8/8/8/1K1R3R w K - 0 1"},
        {"r1r1k3/8/8/8/8/8/8/4K3 w a - 0 1", "r1r1k3/8/8/8/8/8/8/4K3 w q - 0 1"},
        /* Chess960 positions from tests/data/perft/random.epd (c960). */
        {"rbbnnqkr/pppp1p1p/8/4p1p1/4P3/1P6/P1PP1PPP/RBBNNQKR w HAha - 0 3",
         "rbbnnqkr/pppp1p1p/8/4p1p1/4P3/1P6/P1PP1PPP/RBBNNQKR w KQkq - 0 3"},
        {"nrnb1kr1/4p2p/p1pp2P1/1p1b4/5PP1/3P1B2/PP3K2/NRN1B1QR w b - 0 18",
         "nrnb1kr1/4p2p/p1pp2P1/1p1b4/5PP1/3P1B2/PP3K2/NRN1B1QR w q - 0 18"},
        {"3krbnn/r1p1p1pp/p7/1p1p4/P5q1/2PNP1PP/1PKPB3/RQB2RN1 w e - 0 17",
         "3krbnn/r1p1p1pp/p7/1p1p4/P5q1/2PNP1PP/1PKPB3/RQB2RN1 w k - 0 17"},
        {"r1n2n1b/ppkpr1p1/2p2p1p/8/1P6/8/R1PNPPPP/1KN1R1BB b E - 0 10",
         "r1n2n1b/ppkpr1p1/2p2p1p/8/1P6/8/R1PNPPPP/1KN1R1BB b K - 0 10"},
        {"r1nnbbkr/1pppppp1/7p/p7/1P6/4qP2/P1PPPBPP/RQN2BKR b HAha - 1 5",
         "r1nnbbkr/1pppppp1/7p/p7/1P6/4qP2/P1PPPBPP/RQN2BKR b KQkq - 1 5"},
        {"1r4kr/1p4p1/8/8/8/8/1P4P1/RK4R1 w GAhb - 0 1", "1r4kr/1p4p1/8/8/8/8/1P4P1/RK4R1 w KQkq - 0 1"},
    };
    for (size_t i = 0; i < sizeof changed / sizeof *changed; i++)
        roundtrip(changed[i][0], changed[i][1] ? changed[i][1] : START_FEN);

    /* The right is bound to the rook its letter names. */
    if (set(&P, "4k3/8/8/8/8/8/8/1K1R3R w D - 0 1"))
        CHECK(P.castle == WKSIDE && P.castle_rook[0] == SQ(3, 0), "D binds d1, got %d", P.castle_rook[0]);
    if (set(&P, "4k3/8/8/8/8/8/8/1K1R3R w K - 0 1"))
        CHECK(P.castle == WKSIDE && P.castle_rook[0] == SQ(7, 0), "K binds h1, got %d", P.castle_rook[0]);
    if (set(&P, "r1r1k3/8/8/8/8/8/8/4K3 w c - 0 1"))
        CHECK(P.castle == BQSIDE && P.castle_rook[3] == SQ(2, 7), "c binds c8, got %d", P.castle_rook[3]);
    /* The FEN does not change the notation mode. */
    P.chess960 = true;
    set(&P, START_FEN);
    CHECK(P.chess960, "pos_set_fen cleared chess960");
    P.chess960 = false;
    set(&P, START_FEN);
    CHECK(!P.chess960, "pos_set_fen set chess960");
}

/* -------------------------------------------------------- malformed FENs */

/* fen must be refused with a reason, leaving the previous position (here one
 * with history and the Chess960 flag) untouched, to the last byte. */
static void reject(const char *fen, const char *what)
{
    set(&P, KIWIPETE);
    P.chess960 = true;
    play(&P, "e1g1 a6e2");
    Position before;
    memcpy(&before, &P, sizeof P);
    char fen0[128], err[160];
    pos_get_fen(&P, fen0);
    uint64_t key0 = P.key;

    memset(err, 0, sizeof err);
    bool ok = pos_set_fen(&P, fen, err, sizeof err);
    CHECK(!ok, "%s: accepted \"%s\"", what, fen ? fen : "(null)");
    CHECK(err[0] != '\0', "%s: refused without a reason", what);
    CHECK(!strcmp(fen_of(&P), fen0), "%s: position changed to %s", what, fen_of(&P));
    CHECK(P.key == key0, "%s: key changed", what);
    CHECK(!memcmp(&before, &P, sizeof P), "%s: Position struct changed", what);
    CHECK(!pos_set_fen(&P, fen, NULL, 0), "%s: accepted without an error buffer", what);
    printf("  refused %-36s %s\n", what, err);
}

static void test_fen_errors(void)
{
    static const char *bad[][2] = {
        {"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 ranks"},
        {"4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", "9 ranks"},
        {"rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "9 ranks, pawns on rank 1"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1", "trailing slash"},
        {"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 files in a rank"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "7 files in rank 1"},
        {"rnbqkbnr/pppppppp/8/7/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "empty rank of 7"},
        {"rnbqkbnr/pppppppp//8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "empty rank field"},
        {"rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "9 files (pieces)"},
        {"rnbqkbnr/pppppppp/8p/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "9 files (8 then piece)"},
        {"rnbqkbnr/pppppppp/54/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "9 files (digits)"},
        {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "digit 9"},
        {"rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "digit 0"},
        {"rnbqkbnr/pppppppp/8/8/4X3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "bad piece letter X"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "no white king"},
        {"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "no black king"},
        {"8/8/8/8/8/8/8/8 w - - 0 1", "no kings"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBKR w Qkq - 0 1", "two white kings"},
        {"rnbqkbkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQq - 0 1", "two black kings"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move x"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", "side to move W"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR wb KQkq - 0 1", "side to move wb"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "K without an h-side rook"},
        {"4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "K with the rook on the a-side only"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w KQkq - 0 1", "Q without an a-side rook"},
        {"r3k3/8/8/8/8/8/8/R3K2R w KQk - 0 1", "k without an h-side rook"},
        {"4k3/8/8/8/8/8/4K3/R6R w K - 0 1", "castling, white king off rank 1"},
        {"r6r/4k3/8/8/8/8/8/4K3 w q - 0 1", "castling, black king off rank 8"},
        {"4k3/8/8/8/8/8/8/R3K2R w C - 0 1", "Shredder C without a c1 rook"},
        {"4k3/8/8/8/8/8/8/R3K2R w E - 0 1", "Shredder E (the king's file)"},
        {"4k3/8/8/8/8/8/8/R3K2R w KX - 0 1", "castling letter X"},
        {"4k3/8/8/8/8/8/8/R3K2R w K- - 0 1", "castling K-"},
        {"4k3/8/8/8/8/8/8/1K1R3R w HD - 0 1", "two kingside rights for White"},
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", "ep square on rank 4"},
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1", "ep square on the mover's side"},
        {"rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/RNBQKB1R b KQkq e3 0 1", "ep square occupied"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "ep with no pawn in front"},
        {"rnbqkbnr/pppppppp/8/8/4N3/8/PPPP1PPP/RNBQKB1R b KQkq e3 0 1", "ep with a knight in front"},
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPPBPPP/RNBQK1NR b KQkq e3 0 1", "ep with the start square occupied"},
        {"rnbqkbnr/pppp1ppp/8/3Pp3/8/8/PPP1PPPP/RNBQKBNR w KQkq e3 0 1", "ep for the wrong side"},
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e9 0 1", "ep square e9"},
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq i3 0 1", "ep square i3"},
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e33 0 1", "ep square e33"},
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq E3 0 1", "ep square E3"},
        {"4k3/8/8/8/8/8/8/3PK3 w - - 0 1", "white pawn on rank 1"},
        {"3Pk3/8/8/8/8/8/8/4K3 w - - 0 1", "white pawn on rank 8"},
        {"4k3/8/8/8/8/8/8/3pK3 w - - 0 1", "black pawn on rank 1"},
        {"3pk3/8/8/8/8/8/8/4K3 w - - 0 1", "black pawn on rank 8"},
        {"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "side not to move in check (rook)"},
        {"4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", "side not to move in check (pawn)"},
        {"8/8/8/8/8/8/3k4/3K4 w - - 0 1", "kings side by side"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "halfmove -1"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - abc 1", "halfmove abc"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1x 1", "halfmove 1x"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999 1", "halfmove 99999999999"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "fullmove 0"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1", "fullmove -1"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 abc", "fullmove abc"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999", "fullmove 99999999999"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 18446744073709551617",
         "fullmove 2^64+1"},
        {"", "empty string"},
        {" \t \n ", "whitespace only"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "board field only"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", "two fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "three fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "halfmove without fullmove"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", "seven fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 0 1", "eight fields"},
        {"rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "9 white pawns"},
        {"rnbqkbnr/pppppppp/p7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "9 black pawns"},
        {"rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "17 white men"},
        {"rnbqkbnr/pppppppp/n7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "17 black men"},
        {"QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/8/8/8/8/k6K w - - 0 1", "24 white queens"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        reject(bad[i][0], bad[i][1]);
    reject(NULL, "NULL string");

    /* Longer than any real FEN: a halfmove clock of 300 zeros. */
    char longfen[400];
    int n = snprintf(longfen, sizeof longfen, "%s", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ");
    memset(longfen + n, '0', 300);
    strcpy(longfen + n + 300, " 1");
    reject(longfen, "over-long string");
    /* Leading whitespace is skipped before the length is judged. */
    char padded[400];
    memset(padded, ' ', 300);
    strcpy(padded + 300, START_FEN);
    roundtrip(padded, START_FEN);
}

/* ---------------------------------------------------------- Polyglot keys */

/* Length of the first n space-separated fields of s. */
static size_t fields_len(const char *s, int n)
{
    size_t i = 0;
    for (; s[i]; i++)
        if (s[i] == ' ' && --n == 0)
            break;
    return i;
}

static void test_polyglot_keys(void)
{
    /* Source: the "Test cases" section of /usr/share/doc/polyglot/book_format.html
     * (Debian package polyglot): the moves played from the start position, the
     * FEN given there and the Polyglot key of the position. */
    static const struct {
        const char *moves, *fen;
        uint64_t key;
    } cases[] = {
        {"", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9cULL},
        {"e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196ULL},
        {"e2e4 d7d5", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0ULL},
        {"e2e4 d7d5 e4e5", "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
         0x662fafb965db29d4ULL},
        {"e2e4 d7d5 e4e5 f7f5", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
         0x22a48b5a8e47ff78ULL},
        {"e2e4 d7d5 e4e5 f7f5 e1e2", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
         0x652a607ca3f242c1ULL},
        {"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
         0x00fdd303c946bdd9ULL},
        {"a2a4 b7b5 h2h4 b5b4 c2c4", "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
         0x3c8123ea7b067637ULL},
        {"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3",
         "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", 0x5c3f9b829b279560ULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (!set(&P, START_FEN) || !play(&P, cases[i].moves))
            continue;
        CHECK(P.key == cases[i].key, "after \"%s\": key %016llx, want %016llx", cases[i].moves,
              (unsigned long long)P.key, (unsigned long long)cases[i].key);
        /* The same key from the published FEN (its en-passant square is
         * dropped where no capture is possible, as Polyglot keys it). */
        if (set(&Q, cases[i].fen)) {
            CHECK(Q.key == cases[i].key, "FEN %s: key %016llx, want %016llx", cases[i].fen,
                  (unsigned long long)Q.key, (unsigned long long)cases[i].key);
            /* Compared without the counters: the published FENs leave the halfmove clock at 0. */
            const char *a = fen_of(&P), *b = fen_of(&Q);
            CHECK(!strncmp(a, b, fields_len(a, 4)), "after \"%s\": FEN %s, from its FEN %s", cases[i].moves, a, b);
        }
        /* And from the FEN the engine writes for the position it reached. */
        char buf[128];
        snprintf(buf, sizeof buf, "%s", fen_of(&P));
        if (set(&Q, buf))
            CHECK(Q.key == P.key, "after \"%s\": incremental key differs from its FEN's", cases[i].moves);
    }
}

/* ---------------------------------------------------------- move notation */

static bool is_standard_castling(Move m)
{
    int from = MOVE_FROM(m), to = MOVE_TO(m);
    return FILE_OF(from) == 4 && (FILE_OF(to) == 0 || FILE_OF(to) == 7);
}

static void notation_roundtrip(const char *fen)
{
    if (!set(&P, fen))
        return;
    for (int mode = 0; mode < 2; mode++) {
        P.chess960 = mode;
        MoveList l;
        gen_legal(&P, &l);
        char str[MAX_MOVES][8], other[8];
        for (int i = 0; i < l.count; i++)
            move_to_uci(l.moves[i], mode, str[i]);
        int bad = 0, collisions = 0;
        for (int i = 0; i < l.count; i++) {
            Move m = l.moves[i];
            const char *s = str[i];
            size_t n = strlen(s);
            int first = i; /* the first legal move written as s */
            for (int j = 0; j < i; j++)
                if (!strcmp(str[j], s)) {
                    first = j;
                    break;
                }
            int dups = 0;
            bool castle_among = false;
            for (int j = 0; j < l.count; j++)
                if (!strcmp(str[j], s)) {
                    dups++;
                    castle_among |= MOVE_KIND(l.moves[j]) == MK_CASTLE && !is_standard_castling(l.moves[j]);
                }
            bool ok = n == (MOVE_KIND(m) == MK_PROMO ? 5u : 4u) && s[0] >= 'a' && s[0] <= 'h' &&
                      s[1] >= '1' && s[1] <= '8' && s[2] >= 'a' && s[2] <= 'h' && s[3] >= '1' && s[3] <= '8';
            if (MOVE_KIND(m) == MK_PROMO)
                ok = ok && s[4] == "nbrq"[MOVE_PROMO(m) - KNIGHT];
            if (MOVE_KIND(m) == MK_CASTLE) {
                int to = MOVE_TO(m), from = MOVE_FROM(m);
                int kto = mode ? to : SQ(to > from ? 6 : 2, RANK_OF(from));
                ok = ok && s[2] == 'a' + FILE_OF(kto) && s[3] == '1' + RANK_OF(kto);
            }
            if (dups == 1) {
                ok = ok && parse_move(&P, s) == m;
            } else {
                /* Only possible in standard notation in a Chess960 position: a
                 * castle written by its king target looks like a plain king
                 * move (king b1, rook a1: b1c1). parse_move takes the first. */
                collisions++;
                ok = ok && !mode && castle_among && parse_move(&P, s) == l.moves[first];
            }
            /* The other notation: accepted wherever it names no other move. */
            move_to_uci(m, !mode, other);
            int owner = -1;
            for (int j = 0; j < l.count && owner < 0; j++)
                if (!strcmp(str[j], other))
                    owner = j;
            ok = ok && parse_move(&P, other) == (owner < 0 ? m : l.moves[owner]);
            if (!ok && bad++ < 3)
                printf("  %s (chess960 %d): move %s (other %s) does not read back\n", fen, mode, s, other);
        }
        CHECK(bad == 0, "%s, chess960 %d: %d of %d moves do not round-trip", fen, mode, bad, l.count);
        if (collisions)
            printf("  %s, chess960 %d: %d moves share standard notation with a castle\n", fen, mode, collisions);
    }
    P.chess960 = false;
}

static void test_notation(void)
{
    static const char *fens[] = {
        START_FEN,
        KIWIPETE,
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        /* Chess960 (random.epd and made-up ones). */
        "rbbnnqkr/pppp1p1p/8/4p1p1/4P3/1P6/P1PP1PPP/RBBNNQKR w HAha - 0 3",
        "r1nnbbkr/1pppppp1/7p/p7/1P6/4qP2/P1PPPBPP/RQN2BKR b HAha - 1 5",
        "nrnb1kr1/4p2p/p1pp2P1/1p1b4/5PP1/3P1B2/PP3K2/NRN1B1QR w b - 0 18",
        "3krbnn/r1p1p1pp/p7/1p1p4/P5q1/2PNP1PP/1PKPB3/RQB2RN1 b e - 0 17",
        "1r4kr/1p4p1/8/8/8/8/1P4P1/RK4R1 w GAhb - 0 1",
        "1r4kr/1p4p1/8/8/8/8/1P4P1/RK4R1 b GAhb - 0 1",
        "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w AEae - 0 1",
        "2r1k1r1/pppppppp/8/8/8/8/PPPPPPPP/2R1K1R1 w GCgc - 0 1",
        "4rkr1/8/8/8/8/8/8/4RKR1 w EGeg - 0 1",
    };
    for (size_t i = 0; i < sizeof fens / sizeof *fens; i++)
        notation_roundtrip(fens[i]);

    /* Castling in both notations, king e1 and rooks a1/h1. */
    if (set(&P, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")) {
        Move ks = MAKE_MOVE(SQ(4, 0), SQ(7, 0), MK_CASTLE), qs = MAKE_MOVE(SQ(4, 0), SQ(0, 0), MK_CASTLE);
        char b[8];
        for (int mode = 0; mode < 2; mode++) {
            P.chess960 = mode;
            CHECK(parse_move(&P, "e1g1") == ks, "e1g1, chess960 %d", mode);
            CHECK(parse_move(&P, "e1h1") == ks, "e1h1, chess960 %d", mode);
            CHECK(parse_move(&P, "e1c1") == qs, "e1c1, chess960 %d", mode);
            CHECK(parse_move(&P, "e1a1") == qs, "e1a1, chess960 %d", mode);
            CHECK(parse_move(&P, "E1G1") == ks, "E1G1, chess960 %d", mode);
        }
        CHECK(!strcmp(move_to_uci(ks, false, b), "e1g1"), "standard O-O written %s", b);
        CHECK(!strcmp(move_to_uci(qs, false, b), "e1c1"), "standard O-O-O written %s", b);
        CHECK(!strcmp(move_to_uci(ks, true, b), "e1h1"), "Chess960 O-O written %s", b);
        CHECK(!strcmp(move_to_uci(qs, true, b), "e1a1"), "Chess960 O-O-O written %s", b);
        P.chess960 = false;
        CHECK(parse_move(&P, "e1f1") == MAKE_MOVE(SQ(4, 0), SQ(5, 0), MK_NORMAL), "e1f1");
        CHECK(parse_move(&P, "e1e1") == MOVE_NONE, "e1e1");
    }
    /* Black castling and the king-takes-rook form in the 960 position where
     * the standard form is also a king step (king b1, rook a1). */
    if (set(&P, "1r4kr/1p4p1/8/8/8/8/1P4P1/RK4R1 w GAhb - 0 1")) {
        Move qs = MAKE_MOVE(SQ(1, 0), SQ(0, 0), MK_CASTLE), ks = MAKE_MOVE(SQ(1, 0), SQ(6, 0), MK_CASTLE);
        Move step = MAKE_MOVE(SQ(1, 0), SQ(2, 0), MK_NORMAL);
        P.chess960 = true;
        CHECK(parse_move(&P, "b1a1") == qs, "b1a1 in Chess960 mode");
        CHECK(parse_move(&P, "b1c1") == step, "b1c1 in Chess960 mode is the king step");
        CHECK(parse_move(&P, "b1g1") == ks, "b1g1 in Chess960 mode");
        P.chess960 = false;
        CHECK(parse_move(&P, "b1a1") == qs, "b1a1 in standard mode");
        CHECK(parse_move(&P, "b1g1") == ks, "b1g1 in standard mode");
        play(&P, "a1a2");
        Move bks = MAKE_MOVE(SQ(6, 7), SQ(7, 7), MK_CASTLE), bqs = MAKE_MOVE(SQ(6, 7), SQ(1, 7), MK_CASTLE);
        char b[8];
        CHECK(!strcmp(move_to_uci(bks, true, b), "g8h8"), "black 960 O-O written %s", b);
        CHECK(!strcmp(move_to_uci(bks, false, b), "g8g8"), "black O-O, king staying on g8, written %s", b);
        CHECK(!strcmp(move_to_uci(bqs, true, b), "g8b8"), "black 960 O-O-O written %s", b);
        CHECK(!strcmp(move_to_uci(bqs, false, b), "g8c8"), "black O-O-O written %s", b);
        P.chess960 = true;
        CHECK(parse_move(&P, "g8h8") == bks && parse_move(&P, "g8g8") == bks, "black O-O read");
        CHECK(parse_move(&P, "g8b8") == bqs && parse_move(&P, "g8c8") == bqs, "black O-O-O read");
        P.chess960 = false;
    }
    /* Promotions: lowercase out, either case in, the piece letter required. */
    if (set(&P, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")) {
        char b[8];
        Move q = MAKE_PROMO(SQ(1, 6), SQ(1, 7), QUEEN), n = MAKE_PROMO(SQ(1, 6), SQ(1, 7), KNIGHT);
        CHECK(!strcmp(move_to_uci(q, false, b), "b7b8q"), "promotion written %s", b);
        CHECK(!strcmp(move_to_uci(n, true, b), "b7b8n"), "promotion written %s", b);
        CHECK(parse_move(&P, "b7b8q") == q, "b7b8q");
        CHECK(parse_move(&P, "b7b8Q") == q, "b7b8Q");
        CHECK(parse_move(&P, "b7b8n") == n, "b7b8n");
        CHECK(parse_move(&P, "b7b8") == MOVE_NONE, "b7b8 without a piece");
        CHECK(parse_move(&P, "b7b8k") == MOVE_NONE, "b7b8k");
        CHECK(parse_move(&P, "b7b8p") == MOVE_NONE, "b7b8p");
    }
    /* Garbage. */
    set(&P, START_FEN);
    static const char *junk[] = {"", "e2", "e2e", "e2e4e5", "e2e5", "e7e5", "z9z9", "e2e4 ", "0000", "e2e4q", "a1a1"};
    for (size_t i = 0; i < sizeof junk / sizeof *junk; i++)
        CHECK(parse_move(&P, junk[i]) == MOVE_NONE, "\"%s\" accepted", junk[i]);
    char b[8];
    CHECK(!strcmp(move_to_uci(MOVE_NONE, false, b), "0000"), "MOVE_NONE written %s", b);
    CHECK(!strcmp(move_to_uci(MOVE_NULL, true, b), "0000"), "MOVE_NULL written %s", b);
}

/* -------------------------------------------------------- castling rules */

static void test_castling_rules(void)
{
    static const struct {
        const char *fen;
        int moves;
    } cases[] = {
        /* Chess960: the king stays on c1 and the rook b1 leaves for d1, which
         * would open the a1 rook's line to the king: no castling (Stockfish 15.1
         * agrees: 5 moves). */
        {"4k3/8/8/8/8/8/8/rRK5 w B - 0 1", 5},
        {"4k3/8/8/8/8/8/8/qRK5 w B - 0 1", 4},
        {"Rrk5/8/8/8/8/8/8/4K3 b b - 0 1", 5},
        /* With a knight on a1 instead it is legal: 4 king, 7 rook, 2 knight moves and O-O-O. */
        {"4k3/8/8/8/8/8/8/NRK5 w B - 0 1", 14},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (!set(&P, cases[i].fen))
            continue;
        MoveList l;
        gen_legal(&P, &l);
        CHECK(l.count == cases[i].moves, "%s: %d legal moves, want %d", cases[i].fen, l.count, cases[i].moves);
    }
    static const struct {
        const char *fen, *castle;
        bool legal;
    } rules[] = {
        {"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", true},
        {"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", true},
        {"4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", "e1g1", false},     /* f1 attacked */
        {"4k3/8/8/8/8/8/6r1/R3K2R w KQ - 0 1", "e1g1", false},     /* g1 attacked */
        {"4k3/8/8/8/8/8/7r/R3K2R w KQ - 0 1", "e1g1", true},       /* only the rook's h1 */
        {"4k3/8/8/8/8/8/1r6/R3K2R w KQ - 0 1", "e1c1", true},      /* only b1, which the king skips */
        {"4k3/8/8/8/8/8/3r4/R3K2R w KQ - 0 1", "e1c1", false},     /* d1 attacked */
        {"4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", "e1g1", false},     /* in check */
        {"4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", "e1c1", false},      /* b1 occupied */
        {"4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1", "e1g1", false},      /* g1 occupied */
        {"r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", "e8g8", true},
        {"r3k2r/8/8/8/8/8/8/2R1K3 b kq - 0 1", "e8c8", false},     /* c8 attacked */
        /* Chess960: king f1, rook g1 and an enemy rook h1 behind it. */
        {"4k3/8/8/8/8/8/8/5KRr w G - 0 1", "f1g1", false},
        /* King g1 staying, rook h1 to f1, nothing attacking g1. */
        {"4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", true},
    };
    for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
        if (!set(&P, rules[i].fen))
            continue;
        P.chess960 = true;
        Move m = parse_move(&P, rules[i].castle);
        bool castles = m != MOVE_NONE && MOVE_KIND(m) == MK_CASTLE;
        CHECK(castles == rules[i].legal, "%s: %s %s", rules[i].fen, rules[i].castle,
              rules[i].legal ? "refused" : "allowed");
        P.chess960 = false;
    }
}

/* --------------------------------------------------------- make / unmake */

/* Everything make_move may touch. index[] and the list tails past the counts
 * are scratch (stale values are never read), so only their live parts count. */
typedef struct {
    uint8_t board[128], index[128], pieces[2][16], pawns[2][8], npieces[2], npawns[2], count[16];
    uint8_t castle_rook[4], castle_mask[128];
    int32_t side, castle, ep, halfmove, fullmove, hply, chess960, pad;
    uint64_t key, bb[16];
    PieceKeys keys;
    Score psq[2];
} Snap;

static void snap(const Position *pos, Snap *s)
{
    memset(s, 0, sizeof *s);
    memcpy(s->board, pos->board, sizeof s->board);
    for (int sq = 0; sq < 128; sq++)
        s->index[sq] = pos->board[sq] != EMPTY ? pos->index[sq] : 0xFF;
    for (int c = 0; c < 2; c++) {
        memcpy(s->pieces[c], pos->pieces[c], pos->npieces[c]);
        memcpy(s->pawns[c], pos->pawns[c], pos->npawns[c]);
    }
    memcpy(s->npieces, pos->npieces, 2);
    memcpy(s->npawns, pos->npawns, 2);
    memcpy(s->count, pos->count, sizeof s->count);
    memcpy(s->castle_rook, pos->castle_rook, 4);
    memcpy(s->castle_mask, pos->castle_mask, sizeof s->castle_mask);
    s->side = pos->side;
    s->castle = pos->castle;
    s->ep = pos->ep;
    s->halfmove = pos->halfmove;
    s->fullmove = pos->fullmove;
    s->hply = pos->hply;
    s->chess960 = pos->chess960;
    s->key = pos->key;
    s->keys = pos->keys;
    memcpy(s->bb, pos->bb, sizeof s->bb);
    memcpy(s->psq, pos->psq, sizeof s->psq);
}

static const char *snap_diff(const Snap *a, const Snap *b)
{
#define FIELD(f) if (memcmp(&a->f, &b->f, sizeof a->f)) return #f
    FIELD(board); FIELD(index); FIELD(pieces); FIELD(pawns); FIELD(npieces); FIELD(npawns);
    FIELD(count); FIELD(castle_rook); FIELD(castle_mask); FIELD(side); FIELD(castle); FIELD(ep);
    FIELD(halfmove); FIELD(fullmove); FIELD(hply); FIELD(chess960); FIELD(key);
    FIELD(keys); FIELD(bb); FIELD(psq);
#undef FIELD
    return NULL;
}

static long made, fen_checked;

/* Makes and unmakes every legal move (and a null move), to depth 2; returns
 * the number of faults, printing the first few. */
static int make_unmake_all(Position *pos, int depth, const char *root)
{
    int bad = 0;
    Snap before, after;
    snap(pos, &before);
    MoveList l;
    gen_legal(pos, &l);
    for (int i = 0; i <= l.count; i++) {
        bool null = i == l.count;
        if (null && in_check(pos))
            break;
        Move m = null ? MOVE_NULL : l.moves[i];
        const char *why = NULL;
        char mv[8];
        if (null)
            make_null(pos);
        else
            make_move(pos, m);
        made++;
        if (!pos_is_ok(pos, &why)) {
            /* a made move must leave a consistent position */
        } else {
            /* The incremental key equals the key of the FEN it writes. */
            char fen[128];
            pos_get_fen(pos, fen);
            char err[160];
            if (!pos_set_fen(&Q, fen, err, sizeof err))
                why = "its FEN is refused";
            else if (Q.key != pos->key)
                why = "incremental key differs from its FEN's";
            fen_checked++;
        }
        if (!why && depth > 1)
            bad += make_unmake_all(pos, depth - 1, root);
        if (null)
            unmake_null(pos);
        else
            unmake_move(pos);
        snap(pos, &after);
        if (!why)
            why = snap_diff(&before, &after);
        if (why && bad++ < 3)
            printf("  %s: after %s%s: %s\n", root, depth == 1 ? "reply " : "", move_to_uci(m, true, mv), why);
    }
    return bad;
}

static void test_make_unmake(void)
{
    EpdSuite suite = epd_read_suites();
    int npos = 0;
    for (int k = 0; k < suite.count; k++) {
        const char *line = suite.pos[k].fen;
        if (!set(&P, line))
            continue;
        P.chess960 = suite.pos[k].c960;
        npos++;
        int bad = make_unmake_all(&P, 2, line);
        CHECK(bad == 0, "%s: %d make/unmake faults", line, bad);
        /* Notation round trips for every EPD position too. */
        if (npos % 10 == 0)
            notation_roundtrip(line);
    }
    epd_free(&suite);
    CHECK(npos > 200, "only %d EPD positions read", npos);
    printf("  make/unmake: %d positions, %ld moves made and unmade, %ld keys checked against FEN\n", npos, made,
           fen_checked);

    /* A long line of moves and all of it taken back, with history from empty. */
    Position g = {0};
    if (set(&g, KIWIPETE)) {
        Snap start, end;
        snap(&g, &start);
        int plies = 0;
        for (; plies < 400; plies++) {
            MoveList l;
            gen_legal(&g, &l);
            if (!l.count || g.halfmove >= 100)
                break;
            make_move(&g, l.moves[(plies * 7 + 3) % l.count]);
        }
        CHECK(plies > 20, "the long line stopped after %d plies", plies);
        const char *why = "";
        CHECK(pos_is_ok(&g, &why), "after %d plies: %s", plies, why);
        while (g.hply)
            unmake_move(&g);
        snap(&g, &end);
        const char *d = snap_diff(&start, &end);
        CHECK(!d, "after %d plies and back: %s differs", plies, d ? d : "");
        CHECK(!strcmp(fen_of(&g), KIWIPETE), "after %d plies and back: %s", plies, fen_of(&g));
    }
    pos_free(&g);
}

/* -------------------------------------------------------------------- SEE */

/* see() on exchanges worked out by hand (values 100/320/330/500/950), and
 * see_ge() against see() for every legal move of the EPD positions and their
 * children, at thresholds around the exact value and across the range. */
#define SEE_GRID 61 /* thresholds -1500, -1450, .. 1500 */

static int see_ge_faults(Position *pos, const char *root)
{
    static const int around[] = {-1, 0, 1};
    int bad = 0;
    MoveList l;
    gen_legal(pos, &l);
    for (int i = 0; i < l.count; i++) {
        int v = see(pos, l.moves[i]);
        for (int k = 0; k < SEE_GRID + 3; k++) {
            int thr = k < SEE_GRID ? -1500 + 50 * k : v + around[k - SEE_GRID];
            if (see_ge(pos, l.moves[i], thr) != (v >= thr) && bad++ < 3) {
                char mv[8];
                printf("  %s: %s: see %d, see_ge(%d) says %d\n", root, move_to_uci(l.moves[i], true, mv), v, thr,
                       !(v >= thr));
            }
        }
    }
    return bad;
}

static void test_see(void)
{
    static const struct {
        const char *fen, *move;
        int value;
    } cases[] = {
        /* An undefended pawn. */
        {"1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 100},
        /* NxP NxN RxN BxR QxB QxQ: -220, with x-rays behind the rook and the bishop. */
        {"1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", -220},
        /* Taking a defended pawn with the rook; then the king takes back. */
        {"8/8/4k3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", -400},
        /* The same with a second rook behind: the king may not take back. */
        {"8/8/4k3/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100},
        /* En passant, undefended and defended. */
        {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100},
        {"4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 0},
        /* Promotions: free, onto a guarded square, with a capture. */
        {"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", 850},
        {"r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", -100},
        {"r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8q", 1350},
        /* A quiet queen move onto a square a pawn attacks; a safe one. */
        {"4k3/8/8/2p5/8/8/8/3QK3 w - - 0 1", "d1d4", -950},
        {"4k3/8/8/2p5/8/8/8/3QK3 w - - 0 1", "d1d3", 0},
        /* Castling exchanges nothing. */
        {"4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (!set(&P, cases[i].fen))
            continue;
        Move m = parse_move(&P, cases[i].move);
        CHECK(m != MOVE_NONE, "%s not legal in %s", cases[i].move, cases[i].fen);
        if (m == MOVE_NONE)
            continue;
        int v = see(&P, m);
        CHECK(v == cases[i].value, "%s in %s: see %d, want %d", cases[i].move, cases[i].fen, v, cases[i].value);
        CHECK(see_ge(&P, m, v) && !see_ge(&P, m, v + 1), "%s in %s: see_ge disagrees at %d", cases[i].move,
              cases[i].fen, v);
    }

    EpdSuite suite = epd_read_suites();
    int npos = 0, bad = 0;
    for (int k = 0; k < suite.count; k++) {
        const char *line = suite.pos[k].fen;
        if (!set(&P, line))
            continue;
        P.chess960 = suite.pos[k].c960;
        bad += see_ge_faults(&P, line);
        MoveList l;
        gen_legal(&P, &l);
        for (int i = 0; i < l.count; i++) {
            make_move(&P, l.moves[i]);
            bad += see_ge_faults(&P, line);
            npos++;
            unmake_move(&P);
        }
    }
    epd_free(&suite);
    CHECK(npos > 5000, "only %d positions for see_ge", npos);
    CHECK(bad == 0, "see_ge differs from see >= threshold %d times", bad);
    printf("  see_ge: %d positions, every legal move at %d thresholds each\n", npos, SEE_GRID + 3);
}

/* ------------------------------------------------------------- game state */

static void test_game_state(void)
{
    /* Halfmove clock and fullmove number. */
    static const struct {
        const char *move;
        int halfmove, fullmove;
    } line[] = {
        {"g1f3", 1, 1}, {"b8c6", 2, 2}, {"b1c3", 3, 2}, {"e7e5", 0, 3}, {"f3e5", 0, 3}, {"c6e5", 0, 4},
        {"d2d4", 0, 4}, {"e5g4", 1, 5}, {"c1f4", 2, 5}, {"f8b4", 3, 6}, {"d1d2", 4, 6}, {"b4c3", 0, 7},
        {"e1c1", 1, 7}, {"g8f6", 2, 8}, {"c1b1", 3, 8}, {"e8g8", 4, 9},
    };
    Position g = {0};
    set(&g, START_FEN);
    for (size_t i = 0; i < sizeof line / sizeof *line; i++) {
        if (!play(&g, line[i].move))
            break;
        CHECK(g.halfmove == line[i].halfmove && g.fullmove == line[i].fullmove,
              "after %s: halfmove %d fullmove %d, want %d %d", line[i].move, g.halfmove, g.fullmove,
              line[i].halfmove, line[i].fullmove);
    }
    CHECK(!strcmp(fen_of(&g), "r1bq1rk1/pppp1ppp/5n2/8/3P1Bn1/2b5/PPPQPPPP/1K1R1B1R w - - 4 9"),
          "game ends in %s", fen_of(&g));
    unmake_move(&g);
    CHECK(g.halfmove == 3 && g.fullmove == 8 && g.side == BLACK, "unmake: halfmove %d fullmove %d", g.halfmove,
          g.fullmove);
    /* Promotion resets the clock. */
    set(&g, "4k3/1P6/8/8/8/8/8/4K3 w - - 7 40");
    play(&g, "b7b8q");
    CHECK(g.halfmove == 0 && g.fullmove == 40, "promotion: halfmove %d fullmove %d", g.halfmove, g.fullmove);
    play(&g, "e8d7");
    CHECK(g.halfmove == 1 && g.fullmove == 41, "then: halfmove %d fullmove %d", g.halfmove, g.fullmove);
    /* En passant capture resets it too, and removes the right pawn. */
    set(&g, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 4 3");
    play(&g, "e5f6");
    CHECK(g.halfmove == 0 && g.board[SQ(5, 4)] == EMPTY && g.board[SQ(5, 5)] == WP && g.count[BP] == 7,
          "en passant: %s", fen_of(&g));

    /* Repetition: one earlier occurrence after a knight shuffle, two after two. */
    set(&g, START_FEN);
    uint64_t start_key = g.key;
    CHECK(!is_repetition(&g, 1), "repetition at the start");
    play(&g, "g1f3 g8f6");
    CHECK(!is_repetition(&g, 1), "repetition after 2 plies");
    play(&g, "f3g1");
    CHECK(!is_repetition(&g, 1), "repetition after 3 plies");
    play(&g, "f6g8");
    CHECK(g.key == start_key, "shuffle does not come back to the start key");
    CHECK(is_repetition(&g, 1), "no repetition after Nf3 Nf6 Ng1 Ng8");
    CHECK(!is_repetition(&g, 2), "two repetitions after one shuffle");
    play(&g, "g1f3");
    CHECK(is_repetition(&g, 1) && !is_repetition(&g, 2), "Nf3 again: once before, 4 plies back");
    play(&g, "g8f6 f3g1 f6g8");
    CHECK(is_repetition(&g, 2), "no second repetition after two shuffles");
    CHECK(!is_repetition(&g, 3), "three repetitions after two shuffles");
    play(&g, "e2e4 e7e5 g1f3 g8f6 f3g1 f6g8");
    CHECK(is_repetition(&g, 1) && !is_repetition(&g, 2), "a pawn move must cut the repetition search");
    /* The history before the FEN is not known: no repetition right after setting one. */
    set(&g, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 10 6");
    CHECK(!is_repetition(&g, 1), "repetition right after a FEN");

    /* 1200 plies of knight shuffles: the history grows as needed. */
    Position h = {0};
    set(&h, START_FEN);
    int plies = 0;
    static const char *shuffle[4] = {"g1f3", "g8f6", "f3g1", "f6g8"};
    for (; plies < 1200; plies++) {
        Move m = parse_move(&h, shuffle[plies % 4]);
        if (m == MOVE_NONE)
            break;
        make_move(&h, m);
    }
    CHECK(plies == 1200 && h.hply == 1200 && h.hcap >= 1200, "1200 plies: %d played, hply %d, hcap %d", plies,
          h.hply, h.hcap);
    CHECK(h.key == start_key && h.halfmove == 1200 && h.fullmove == 601, "after 1200 plies: %s", fen_of(&h));
    CHECK(is_repetition(&h, 299) && is_repetition(&h, 300) && !is_repetition(&h, 301),
          "after 1200 plies: not exactly 300 earlier occurrences");
    const char *why = "";
    CHECK(pos_is_ok(&h, &why), "after 1200 plies: %s", why);
    pos_copy(&g, &h);
    CHECK(g.hply == 1200 && g.key == h.key && is_repetition(&g, 300) && g.hist != h.hist,
          "pos_copy of a 1200-ply game");
    while (h.hply)
        unmake_move(&h);
    CHECK(!strcmp(fen_of(&h), START_FEN), "1200 plies taken back: %s", fen_of(&h));
    CHECK(g.hply == 1200 && is_repetition(&g, 300), "the copy lost its history when the original was taken back");
    pos_free(&h);
    pos_free(&g);
    CHECK(g.hist == NULL && g.hply == 0, "pos_free");

    /* Insufficient material: no pawns, rooks or queens, and either at most one
     * minor piece or only bishops all on squares of one colour. */
    static const struct {
        const char *fen;
        bool draw;
    } mat[] = {
        {"8/8/8/4k3/8/8/8/4K3 w - - 0 1", true},         /* K v K */
        {"8/8/8/4k3/8/8/8/4KN2 w - - 0 1", true},        /* KN v K */
        {"8/8/8/4k3/8/8/8/n3K3 b - - 0 1", true},        /* K v KN */
        {"8/8/8/4k3/8/8/8/2B1K3 w - - 0 1", true},       /* KB v K */
        {"5b2/8/8/4k3/8/8/8/2B1K3 w - - 0 1", true},     /* KB v KB, both on dark squares */
        {"2b5/8/8/4k3/8/8/8/2B1K3 w - - 0 1", false},    /* KB v KB, opposite colours */
        {"8/8/8/4k3/8/4B3/8/2B1K3 w - - 0 1", true},     /* KBB v K, same colour: no mate possible */
        {"8/8/8/4k3/8/3B4/8/2B1K3 w - - 0 1", false},    /* KBB v K, opposite colours */
        /* KNN v K: mate cannot be forced but exists (the defender can blunder
         * into it), so it is not a dead position and the function says false. */
        {"8/8/8/4k3/8/8/8/1N2KN2 w - - 0 1", false},
        {"8/8/8/4k3/8/8/8/1n2KN2 w - - 0 1", false},     /* KN v KN */
        {"8/8/8/4k3/8/8/8/1n2KB2 w - - 0 1", false},     /* KB v KN */
        {"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", false},      /* KP v K */
        {"8/8/8/4k3/8/8/8/R3K3 w - - 0 1", false},       /* KR v K */
        {"8/8/8/4k3/8/8/8/3QK3 w - - 0 1", false},       /* KQ v K */
        {START_FEN, false},
    };
    for (size_t i = 0; i < sizeof mat / sizeof *mat; i++)
        if (set(&P, mat[i].fen))
            CHECK(insufficient_material(&P) == mat[i].draw, "%s: insufficient_material %d, want %d", mat[i].fen,
                  !mat[i].draw, mat[i].draw);
}

int main(void)
{
    zobrist_init();
    attack_init();
    eval_init(); /* a real psq_table, so that pos_is_ok checks the incremental sums */
    CHECK(psq_version != 0, "eval_init writes the piece-square table");
    test_fen_roundtrips();
    test_fen_errors();
    test_polyglot_keys();
    test_notation();
    test_castling_rules();
    test_make_unmake();
    test_see();
    test_game_state();
    pos_free(&P);
    pos_free(&Q);
    return check_report("test_position");
}
