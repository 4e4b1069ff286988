/* bench.c - a fixed list of varied positions searched at a fixed depth. The
 * total node count is deterministic: it goes into every commit message that
 * changes the search or the evaluation ("Bench: N"). */
#include "bench.h"

#include <stdio.h>

#include "engine.h"
#include "fen.h"
#include "output.h"
#include "timeman.h"
#include "tt.h"

/* Openings from ../shared/openings/balanced-2000.epd, then middlegames and
 * endgames (the perft suite's test positions and hand-picked endings). */
static const char *const bench_fens[] = {
    "r1b1kbnr/ppp2ppp/2n1pq2/3p4/2PP4/4P3/PP2KPPP/RNBQ1BNR w kq - 0 1",
    "r1bqk1nr/pp1pppbp/2n3p1/2p5/4P3/2N3P1/PPPPNPBP/R1BQK2R b KQkq - 0 1",
    "r1bqkb1r/1ppp1ppp/p1n5/4p3/B3n3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 0 1",
    "r1bqkb1r/pp1ppp1p/2n2np1/8/2PNP3/8/PP3PPP/RNBQKB1R w KQkq - 0 1",
    "r1bqkb1r/ppp2ppp/2n2n2/3pp3/2P5/2N2NP1/PP1PPP1P/R1BQKB1R w KQkq - 0 1",
    "r1bqkbnr/pp1n1ppp/2p1p3/3p4/2PP4/2N2N2/PP2PPPP/R1BQKB1R w KQkq - 0 1",
    "rn1qk2r/pbppbppp/1p2pn2/8/5P2/1P2PN2/PBPP2PP/RN1QKB1R w KQkq - 0 1",
    "rn1qkb1r/pbpp1ppp/1p2pn2/8/3P4/3BPN2/PPP2PPP/RNBQK2R w KQkq - 0 1",
    "rnb1kb1r/pp2pppp/5n2/2pq4/3P4/2P5/PP3PPP/RNBQKBNR w KQkq - 0 1",
    "rnbq1rk1/pppp1ppp/4pn2/8/1bPP4/2N2P2/PP1BP1PP/R2QKBNR b KQ - 0 1",
    "rnbqk2r/pp1p1ppp/4pn2/2p5/1bPP4/2N2NP1/PP2PP1P/R1BQKB1R b KQkq - 0 1",
    "rnbqk2r/ppp1bppp/4pn2/3p4/2P5/5NP1/PP1PPPBP/RNBQK2R w KQkq - 0 1",
    "rnbqk2r/ppp1ppbp/5np1/3p4/2PP1B2/2N2N2/PP2PPPP/R2QKB1R b KQkq - 0 1",
    "rnbqkb1r/pp3ppp/2p1pn2/3P4/3P4/2N2N2/PP2PPPP/R1BQKB1R b KQkq - 0 1",
    "rnbqkb1r/ppp2ppp/4pn2/8/2pP4/2N1PN2/PP3PPP/R1BQKB1R b KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 1",
    "r2q1rk1/pp1bbppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 1",
    "r1b2rk1/2q1bppp/p2p1n2/np2p3/3PP3/5N1P/PPB2PP1/RNBQR1K1 w - - 0 1",
    "2rq1rk1/pp1bppbp/3p1np1/8/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 1",
    "r2qr1k1/1b1nbppp/p2p1n2/1p2p3/3PP3/1BP2N1P/PP1N1PP1/R1BQR1K1 w - - 0 1",
    "3r1rk1/p4ppp/1pq1pn2/2b5/2P5/1P3NP1/PB2QPBP/3R1RK1 b - - 0 1",
    "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 1",
    "2r2rk1/1bqnbppp/pp1ppn2/8/2PNP3/1PN1BB2/P3QPPP/2RR2K1 w - - 0 1",
    "r5k1/pp3ppp/2p5/3n4/3P4/2P2N2/P4PPP/R5K1 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
    "8/5pk1/6p1/7p/7P/6P1/5PK1/8 w - - 0 1",
    "8/8/8/3k4/8/8/3KP3/8 w - - 0 1",
    "6k1/8/6K1/6P1/8/8/8/8 w - - 0 1",
    "8/8/1p1k4/1P6/2K5/8/8/8 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "8/8/8/4k3/8/8/8/KQ6 w - - 0 1",
    "8/8/3k4/8/8/3K4/8/2B1N3 w - - 0 1",
    "1r4k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    "8/pp3k2/2p2p2/3p1P2/3P4/2P3P1/PP4K1/8 w - - 0 1",
    "8/3k4/8/2PKP3/8/8/8/8 w - - 0 1",
    "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 0 1",
    "rnbqkb1r/pp1p1ppp/4pn2/2p5/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 1",
    "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 0 1",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "2kr3r/pp1q1ppp/5n2/1Nb5/2Pp1B2/7Q/P4PPP/1R3RK1 w - - 0 1",
    "r4rk1/ppp2ppp/2n5/2bqp3/8/P2PB3/1PP1NPPP/R2Q1RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
};
#define NBENCH ((int)(sizeof bench_fens / sizeof bench_fens[0]))

void bench_run(int depth, int threads, const EvalChoice *eval)
{
    if (depth <= 0)
        depth = BENCH_DEPTH;
    size_t old_mb = tt_size_mb();
    /* bench's own parameters: full strength, one PV, no tablebases (the same
     * count with or without tables), whatever the options say; only the
     * evaluator is the caller's. */
    SearchParams params = search_params_default();
    params.tb.probe_limit = 0;
    params.eval = *eval;
    tt_resize(16, 1);
    uint64_t total = 0;
    int64_t us = 0; /* search time only: clearing the hash is not searching */
    Position pos = {0};
    for (int i = 0; i < NBENCH; i++) {
        char err[160], b[8];
        if (!pos_set_fen(&pos, bench_fens[i], err, sizeof err)) {
            send_line("info string bench position %d: %s", i + 1, err);
            continue;
        }
        engine_clear();
        Limits lim;
        limits_init(&lim);
        lim.depth = depth;
        int64_t t0 = now_us();
        SearchResult r = engine_search(&pos, &lim, &params, true);
        us += now_us() - t0;
        total += r.nodes;
        send_line("info string bench %2d/%d %-6s score %6d nodes %10llu  %s", i + 1, NBENCH,
                  move_to_uci(r.best, false, b), r.score, (unsigned long long)r.nodes, bench_fens[i]);
    }
    pos_free(&pos);
    send_line("%llu nodes %llu nps", (unsigned long long)total,
              (unsigned long long)(us > 0 ? total * 1000000 / (uint64_t)us : total));
    tt_resize(old_mb, threads);
}
