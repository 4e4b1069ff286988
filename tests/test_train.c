/* test_train.c - the trainer's inputs (train_features): a record gives one
 * input per piece from each side's view, as the engine's nnue_feature names
 * them; and `hexe train --mirror 1` reads a record without castling rights
 * as exactly the inputs of its a-h mirror image, over the positions of
 * random games, while a record with a castling right is read as it is.
 * For networks with and without mirrored inputs, the trainer's inputs of
 * every position of random games, summed by an integer network, give the
 * engine's own evaluation; with mirrored inputs a position and its a-h
 * mirror have the same inputs, and --mirror changes nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "eval/nnue.h"
#include "fen.h"
#include "movegen.h"
#include "tools/packed.h"
#include "position.h"
#include "tools/trainset.h"
#include "zobrist.h"

static uint64_t rng = 0x3C6EF372FE94F82AULL;

static int cmp16(const void *a, const void *b)
{
    return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* The inputs of pos, each perspective's list sorted; -1 if it does not pack. */
static int features_of(const Position *pos, bool mirror, bool mirrored, uint16_t us[32], uint16_t them[32])
{
    PackedPos rec;
    Unpacked u;
    if (!packed_encode(pos, 0, 1, &rec) || !packed_decode(&rec, &u))
        return -1;
    int n = train_features(&u, mirror, mirrored, us, them);
    qsort(us, (size_t)n, sizeof us[0], cmp16);
    qsort(them, (size_t)n, sizeof them[0], cmp16);
    return n;
}

/* The FEN of pos with its files flipped (a-h), castling rights dropped. */
static bool mirror_fen(const Position *pos, char *out)
{
    char fen[128], board[80], side[4], castle[8], ep[4];
    int half, full;
    pos_get_fen(pos, fen);
    if (sscanf(fen, "%79s %3s %7s %3s %d %d", board, side, castle, ep, &half, &full) != 6)
        return false;
    char *o = out;
    for (char *rank = strtok(board, "/"); rank; rank = strtok(NULL, "/")) {
        char sq[8];
        int f = 0;
        for (const char *c = rank; *c && f < 8; c++)
            if (*c >= '1' && *c <= '8')
                for (int k = 0; k < *c - '0' && f < 8; k++)
                    sq[f++] = '.';
            else
                sq[f++] = *c;
        for (int i = 7; i >= 0; i--)
            *o++ = sq[i] == '.' ? '1' : sq[i];
        *o++ = '/';
    }
    o[-1] = ' ';
    if (ep[0] != '-')
        ep[0] = (char)('h' - (ep[0] - 'a'));
    sprintf(o, "%s - %s %d %d", side, ep, half, full);
    return true;
}

static bool same(const uint16_t *a, const uint16_t *b, int n)
{
    return !memcmp(a, b, (size_t)n * sizeof a[0]);
}

/* A known case: White's king a1, pawn a2; Black's king h1. */
static void known(void)
{
    Position pos = {0}, mir = {0};
    char err[160];
    pos_set_fen(&pos, "8/8/8/8/8/8/P7/K6k w - - 0 1", err, sizeof err);
    pos_set_fen(&mir, "8/8/8/8/8/8/7P/k6K w - - 0 1", err, sizeof err);
    uint16_t us[32], them[32], mus[32], mthem[32];
    int n = features_of(&pos, false, false, us, them);
    CHECK(n == 3, "three pieces, three inputs a side: %d", n);
    /* White to move: our view is White's, a1 = 0, a2 = 8, h1 = 7. */
    uint16_t want[3] = {(uint16_t)nnue_feature(WHITE, WK, 0), (uint16_t)nnue_feature(WHITE, BK, 7),
                        (uint16_t)nnue_feature(WHITE, WP, 8)};
    qsort(want, 3, sizeof want[0], cmp16);
    CHECK(n == 3 && same(us, want, 3), "the side to move's inputs are nnue_feature's");
    int m = features_of(&pos, true, false, us, them);
    int k = features_of(&mir, false, false, mus, mthem);
    CHECK(m == 3 && k == 3 && same(us, mus, 3) && same(them, mthem, 3),
          "mirrored: the inputs of Ka1, Pa2 / Kh1 are those of Kh1, Ph2 / Ka1");
    pos_free(&pos);
    pos_free(&mir);
}

/* Every position of random games: mirrored inputs equal the mirror image's. */
static void random_games(void)
{
    Position pos = {0}, mir = {0};
    char err[160], fen[128];
    int mirrored = 0, kept = 0, bad = 0;
    for (int g = 0; g < 40; g++) {
        pos_set_fen(&pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", err, sizeof err);
        for (int ply = 0; ply < 160; ply++) {
            uint16_t us[32], them[32], us0[32], them0[32], mus[32], mthem[32];
            int n = features_of(&pos, true, false, us, them);
            int n0 = features_of(&pos, false, false, us0, them0);
            if (n < 0 || n != n0) {
                bad++;
            } else if (pos.castle) {
                bad += !same(us, us0, n) || !same(them, them0, n);
                kept++;
            } else {
                bool ok = mirror_fen(&pos, fen) && pos_set_fen(&mir, fen, err, sizeof err);
                ok = ok && features_of(&mir, false, false, mus, mthem) == n && same(us, mus, n) && same(them, mthem, n);
                /* The mirror changes the inputs unless the position is symmetric. */
                bad += !ok;
                mirrored++;
            }
            MoveList list;
            gen_legal(&pos, &list);
            if (list.count == 0 || pos.halfmove >= 100)
                break;
            make_move(&pos, list.moves[xorshift64(&rng) % (uint64_t)list.count]);
        }
    }
    CHECK(bad == 0, "%d of %d positions read wrongly", bad, mirrored + kept);
    CHECK(mirrored > 1000 && kept > 100, "both kinds seen: %d mirrored, %d with castling rights", mirrored,
          kept);
    printf("random games: %d positions mirrored, %d with castling rights read as they are\n", mirrored, kept);
    pos_free(&pos);
    pos_free(&mir);
}

/* A network of random weights inside the quantisation bounds (nnue.h). */
static Network random_net(int hidden, int buckets, bool mirrored)
{
    Network n = {.hidden = hidden, .scale = 300, .buckets = buckets, .mirrored = mirrored};
    size_t total = (size_t)NNUE_INPUTS * hidden + hidden + 2 * (size_t)hidden * buckets;
    n.w1 = aligned_alloc(64, (total * 2 + 63) / 64 * 64);
    n.b1 = n.w1 + (size_t)NNUE_INPUTS * hidden;
    n.w2 = n.b1 + hidden;
    for (size_t i = 0; i < (size_t)NNUE_INPUTS * hidden; i++)
        n.w1[i] = (int16_t)((int)(xorshift64(&rng) % 241) - 120);
    for (int h = 0; h < hidden; h++)
        n.b1[h] = (int16_t)((int)(xorshift64(&rng) % 401) - 100);
    for (int h = 0; h < 2 * hidden * buckets; h++)
        n.w2[h] = (int16_t)((int)(xorshift64(&rng) % 255) - 127);
    for (int b = 0; b < buckets; b++)
        n.b2[b] = (int32_t)(xorshift64(&rng) % 400001) - 200000;
    return n;
}

/* The score of the trainer's inputs in the engine's integers (nnue.h). */
static int score_of(const Network *net, const uint16_t *us, const uint16_t *them, int n)
{
    int16_t acc[2][NNUE_MAX_HIDDEN];
    for (int v = 0; v < 2; v++) {
        const uint16_t *f = v ? them : us;
        memcpy(acc[v], net->b1, (size_t)net->hidden * sizeof(int16_t));
        for (int k = 0; k < n; k++)
            for (int h = 0; h < net->hidden; h++)
                acc[v][h] = (int16_t)(acc[v][h] + net->w1[(size_t)f[k] * net->hidden + h]);
    }
    int b = net->buckets == 1 ? 0 : nnue_bucket(net->buckets, n);
    int64_t out = nnue_output_scalar(net, b, acc[0], acc[1]);
    return (int)((out / NNUE_QA + net->b2[b]) * net->scale / (NNUE_QA * NNUE_QB));
}

/* The trainer reads each network's inputs as the engine does, over random
 * games from a start where both sides can castle at once (kings on both
 * wings); with mirrored inputs a position's mirror image has the same. */
static void as_the_engine(bool mirrored)
{
    Network net = random_net(64, mirrored ? 8 : 1, mirrored);
    Position pos = {0}, mir = {0};
    char err[160], fen[128];
    int bad = 0, twins = 0, bad_twin = 0, bad_flip = 0, n = 0, queen_side = 0;
    for (int g = 0; g < 40; g++) {
        pos_set_fen(&pos, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", err, sizeof err);
        for (int ply = 0; ply < 160; ply++) {
            PackedPos rec;
            Unpacked u;
            uint16_t us[32], them[32], fus[32], fthem[32], mus[32], mthem[32];
            if (!packed_encode(&pos, 0, 1, &rec) || !packed_decode(&rec, &u)) {
                bad++;
                break;
            }
            int k = train_features(&u, false, mirrored, us, them);
            bad += score_of(&net, us, them, k) != nnue_evaluate_board(&net, pos.bb, pos.side);
            n++;
            queen_side += (__builtin_ctzll(pos.bb[WK]) & 7) < 4;
            if (mirrored) {
                /* --mirror's flip is read back by the network's own. */
                bad_flip += train_features(&u, true, true, fus, fthem) != k || !same(fus, us, k) ||
                            !same(fthem, them, k);
                if (!pos.castle && mirror_fen(&pos, fen) && pos_set_fen(&mir, fen, err, sizeof err)) {
                    int m = features_of(&mir, false, true, mus, mthem);
                    qsort(us, (size_t)k, sizeof us[0], cmp16);
                    qsort(them, (size_t)k, sizeof them[0], cmp16);
                    bad_twin += m != k || !same(us, mus, k) || !same(them, mthem, k);
                    twins++;
                }
            }
            MoveList list;
            gen_legal(&pos, &list);
            if (list.count == 0 || pos.halfmove >= 100)
                break;
            make_move(&pos, list.moves[xorshift64(&rng) % (uint64_t)list.count]);
        }
    }
    const char *kind = mirrored ? "mirrored inputs" : "unmirrored inputs";
    CHECK(bad == 0 && n > 2000, "%s: %d of %d positions score otherwise through the trainer's inputs", kind, bad, n);
    CHECK(queen_side > n / 10, "%s: White's king stood on files a-d in %d of %d positions", kind, queen_side, n);
    if (mirrored) {
        CHECK(bad_twin == 0 && twins > 1000, "mirrored inputs: %d of %d a-h mirrors read otherwise", bad_twin, twins);
        CHECK(bad_flip == 0, "mirrored inputs: --mirror changed the inputs of %d positions", bad_flip);
    }
    printf("%s: %d positions read as the engine reads them\n", kind, n);
    free(net.w1);
    pos_free(&pos);
    pos_free(&mir);
}

int main(void)
{
    zobrist_init();
    attack_init();
    known();
    random_games();
    as_the_engine(false);
    as_the_engine(true);
    return check_report("test_train");
}
