/* test_packed.c - the 32-byte training record (packed.h): every position of
 * random games, standard and Chess960, packed and unpacked gives the same
 * position back (board, side, castling rooks, en passant, counters), with
 * its score and result; malformed records are refused. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fen.h"
#include "movegen.h"
#include "tools/packed.h"
#include "position.h"
#include "zobrist.h"

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint64_t next(void) { return xorshift64(&rng); }

/* Packs pos, unpacks it, reads the FEN back and compares. */
static void roundtrip(const Position *pos, int score, int result)
{
    PackedPos rec;
    if (!packed_encode(pos, score, result, &rec)) {
        CHECK(false, "a legal position could not be packed");
        return;
    }
    Unpacked u;
    CHECK(packed_decode(&rec, &u), "a packed record decodes");
    char fen[128], orig[128], err[160];
    packed_fen(&u, fen);
    Position back = {0};
    bool ok = pos_set_fen(&back, fen, err, sizeof err);
    CHECK(ok, "the record's FEN '%s' reads back (%s)", fen, err);
    if (ok) {
        bool same = back.key == pos->key && back.side == pos->side && back.castle == pos->castle &&
                    back.halfmove == (pos->halfmove > 255 ? 255 : pos->halfmove) && back.fullmove == pos->fullmove;
        for (int b = 0; b < 4; b++)
            if (pos->castle & (1 << b))
                same = same && back.castle_rook[b] == pos->castle_rook[b];
        for (int s = 0; s < 128; s++)
            if (!OFFBOARD(s))
                same = same && back.board[s] == pos->board[s];
        CHECK(same, "packed %s, unpacked %s", pos_get_fen(pos, orig), fen);
    }
    pos_free(&back);
    int clamped = score > 32767 ? 32767 : score < -32768 ? -32768 : score;
    CHECK(u.score == clamped && u.result == result, "score %d result %d came back as %d %d", score, result,
          u.score, u.result);
}

static void random_games(const char *fen, int games)
{
    Position pos = {0};
    char err[160];
    for (int g = 0; g < games; g++) {
        if (!pos_set_fen(&pos, fen, err, sizeof err)) {
            CHECK(false, "start FEN %s: %s", fen, err);
            return;
        }
        for (int ply = 0; ply < 200; ply++) {
            int score = (int)(next() % 70001) - 35000;
            roundtrip(&pos, score, (int)(next() % 3));
            MoveList l;
            gen_legal(&pos, &l);
            if (!l.count)
                break;
            pos_reserve(&pos, 1);
            make_move(&pos, l.moves[next() % (uint64_t)l.count]);
        }
    }
    pos_free(&pos);
}

static void malformed(void)
{
    Position pos = {0};
    char err[160];
    pos_set_fen(&pos, START_FEN, err, sizeof err);
    PackedPos rec, bad;
    packed_encode(&pos, 12, 1, &rec);
    Unpacked u;
    bad = rec, bad.b[26] = 3;
    CHECK(!packed_decode(&bad, &u), "a result of 3 is refused");
    bad = rec, bad.b[27] = 2;
    CHECK(!packed_decode(&bad, &u), "a side of 2 is refused");
    bad = rec, bad.b[8] &= 0xf0;
    CHECK(!packed_decode(&bad, &u), "a piece code of 0 is refused");
    bad = rec, bad.b[28] = 65;
    CHECK(!packed_decode(&bad, &u), "an en-passant square of 65 is refused");
    CHECK(packed_decode(&rec, &u) && u.score == 12 && u.result == 1 && u.piece[4] == WK && u.castle_rook[0] &&
              u.castle_rook[63] && u.ep == -1 && u.fullmove == 1,
          "the start position's record holds what was packed");
    /* The layout is a file format: pin it. */
    CHECK(rec.b[0] == 0xff && rec.b[1] == 0xff && rec.b[2] == 0 && rec.b[7] == 0xff && rec.b[8] == (7 | 2 << 4) &&
              rec.b[24] == 12 && rec.b[25] == 0,
          "the start position packs as documented (occupancy, a1 castling rook and b1 knight, score)");
    pos_free(&pos);
}

int main(void)
{
    zobrist_init();
    attack_init();
    random_games(START_FEN, 40);
    random_games("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 20); /* Chess960 */
    random_games("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 20);
    malformed();
    return check_report("test_packed");
}
