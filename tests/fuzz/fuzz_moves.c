/* fuzz_moves.c - libFuzzer target: `position ... moves` parsing. The first
 * byte picks a start position (standard or Chess960, with castling, en
 * passant and promotions near), the rest is a move list. Each word goes
 * through parse_move; a move it accepts must be legal, print back to a word
 * that parses to the same move, and leave a consistent position. The same
 * list is then given to the UCI front end as a `position` command. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "movegen.h"
#include "startup.h"
#include "uci.h"

static const char *const starts[] = {
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
};
#define NSTARTS (int)(sizeof starts / sizeof starts[0])

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_moves: %s: %s\n", what, detail ? detail : "");
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool ready;
    if (!ready) {
        if (!freopen("/dev/null", "w", stdout)) /* the engine's info lines */
            abort();
        hexe_start();
        uci_init();
        ready = true;
    }
    if (size < 1 || size > 8192)
        return 0;
    int which = data[0] % NSTARTS;
    bool chess960 = which >= 5;
    char *moves = malloc(size);
    memcpy(moves, data + 1, size - 1);
    moves[size - 1] = '\0';

    Position pos = {0};
    pos.chess960 = chess960;
    char err[256], b[8];
    if (!pos_set_fen(&pos, starts[which], err, sizeof err) || !pos_reserve(&pos, (int)size + 8))
        fail("start position refused", starts[which]);
    char *save = NULL;
    char *copy = strdup(moves);
    for (char *w = strtok_r(copy, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
        Move m = parse_move(&pos, w);
        if (m == MOVE_NONE)
            continue;
        if (!move_is_legal(&pos, m))
            fail("parse_move accepted an illegal move", w);
        if (parse_move(&pos, move_to_uci(m, chess960, b)) != m)
            fail("a move does not survive its UCI notation", w);
        make_move(&pos, m);
        const char *why = NULL;
        if (!pos_is_ok(&pos, &why))
            fail("inconsistent position after a move", why);
    }
    free(copy);
    pos_free(&pos);

    /* The same through the front end (which refuses the whole list at the
     * first bad word). */
    size_t n = strlen(moves) + 256;
    char *line = malloc(n);
    snprintf(line, n, "setoption name UCI_Chess960 value %s", chess960 ? "true" : "false");
    uci_command(line);
    snprintf(line, n, "position fen %s moves %s", starts[which], moves);
    for (char *c = line; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' '; /* one command line */
    uci_command(line);
    free(line);
    free(moves);
    return 0;
}
