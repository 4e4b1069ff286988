/* test_nnue.c - the nnue evaluator (eval/nnue.h): the incremental
 * accumulator equals a fresh one at every ply of random games (and across
 * jumps between games), for hidden layers of several sizes, with and
 * without mirrored inputs (kings crossing the middle, castling included);
 * the SIMD output layer equals the portable one bit for bit; a position and
 * its colour-flipped mirror score the same, and under mirrored inputs its
 * a-h mirror too; the network file round-trips in each version; every kind
 * of bad network file is refused with a reason; an accumulator made with
 * one network is never used with another. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "eval/evaluators.h"
#include "eval/nnue.h"
#include "fen.h"
#include "movegen.h"
#include "position.h"
#include "zobrist.h"

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static uint64_t next(void) { return xorshift64(&rng); }
static int rnd(int lo, int hi) { return lo + (int)(next() % (uint64_t)(hi - lo + 1)); }

static char dir[] = "/tmp/hexe-nnue-XXXXXX";

/* The network under test and the accumulators a search thread would keep. */
static const Network *net;
static Network *loaded; /* net, when read from a file */
static NnueCache *cache;

static int incremental(const Position *pos) { return nnue_evaluate(cache, net, pos); }

/* EvalFile's way: a network from a file replaces the one under test. */
static bool use_file(const char *path, char *err, size_t n)
{
    Network *next = nnue_load(path, err, n);
    if (!next)
        return false;
    nnue_unload(loaded);
    net = loaded = next;
    return true;
}

static void use_embedded(void)
{
    nnue_unload(loaded);
    loaded = NULL;
    net = nnue_embedded();
}

static size_t weights(const Network *n)
{
    return (size_t)NNUE_INPUTS * n->hidden + n->hidden + 2 * (size_t)n->hidden * n->buckets;
}

/* A network of random weights inside the quantisation bounds (nnue.h), so
 * that every part of the arithmetic carries real values. */
static Network random_net(int hidden, int buckets, bool mirrored)
{
    Network n = {.hidden = hidden, .scale = rnd(100, 600), .buckets = buckets, .mirrored = mirrored};
    n.w1 = aligned_alloc(64, (weights(&n) * 2 + 63) / 64 * 64);
    n.b1 = n.w1 + (size_t)NNUE_INPUTS * hidden;
    n.w2 = n.b1 + hidden;
    for (size_t i = 0; i < (size_t)NNUE_INPUTS * hidden; i++)
        n.w1[i] = (int16_t)rnd(-120, 120);
    for (int h = 0; h < hidden; h++)
        n.b1[h] = (int16_t)rnd(-100, 300);
    for (int h = 0; h < 2 * hidden * buckets; h++)
        n.w2[h] = (int16_t)rnd(-127, 127);
    for (int b = 0; b < buckets; b++)
        n.b2[b] = rnd(-200000, 200000);
    return n;
}

static void write_net(const Network *n, const char *path)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && nnue_write(n, f), "writing %s", path);
    if (f)
        fclose(f);
}

/* What the checked random games held: king moves between the d and e files
 * (a mirrored network rebuilds that side's accumulator), castling moves. */
static long crossings, castlings[2]; /* castlings: king side, queen side (which crosses) */

static int king_file(const Position *pos, int side)
{
    return __builtin_ctzll(pos->bb[MAKE_PIECE(side, KING)]) & 7;
}

static void play_random(Position *pos, int plies, bool check_each)
{
    for (int ply = 0; ply < plies; ply++) {
        if (check_each) {
            int inc = incremental(pos), fresh = nnue_evaluate_fresh(net, pos);
            CHECK(inc == fresh, "incremental %d, fresh %d at ply %d%s", inc, fresh, ply,
                  net->mirrored ? " (mirrored inputs)" : "");
        }
        MoveList l;
        gen_legal(pos, &l);
        if (!l.count)
            return;
        int side = pos->side, before = king_file(pos, side);
        pos_reserve(pos, 1);
        make_move(pos, l.moves[next() % (uint64_t)l.count]);
        int after = king_file(pos, side);
        crossings += check_each && (before < 4) != (after < 4);
        if (check_each && (after - before == 2 || before - after == 2))
            castlings[after < 4]++;
    }
}

static void accumulator(void)
{
    Position a = {0}, b = {0};
    char err[160];
    crossings = castlings[0] = castlings[1] = 0;
    for (int g = 0; g < 30; g++) {
        /* Every other game starts where both sides can castle at once. */
        pos_set_fen(&a, g % 2 ? "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1" : START_FEN, err, sizeof err);
        play_random(&a, 160, true);
        /* Back up the game again, the way a search unmakes. */
        while (a.hply > 0) {
            unmake_move(&a);
            if (a.hply % 3 == 0) {
                int inc = incremental(&a), fresh = nnue_evaluate_fresh(net, &a);
                CHECK(inc == fresh, "after unmake: incremental %d, fresh %d", inc, fresh);
            }
        }
        /* Jumps between two unrelated games (the refresh path). */
        pos_set_fen(&b, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", err, sizeof err);
        play_random(&b, rnd(0, 40), false);
        for (int i = 0; i < 6; i++) {
            const Position *p = i & 1 ? &a : &b;
            CHECK(incremental(p) == nnue_evaluate_fresh(net, p), "jump %d between games", i);
        }
    }
    CHECK(crossings > 50 && castlings[0] > 2 && castlings[1] > 2,
          "the games moved kings across the middle (%ld) and castled (%ld king side, %ld queen side)", crossings,
          castlings[0], castlings[1]);
    pos_free(&a);
    pos_free(&b);
}

static void simd(const Network *n)
{
    int16_t us[NNUE_MAX_HIDDEN] __attribute__((aligned(64))), them[NNUE_MAX_HIDDEN] __attribute__((aligned(64)));
    int bad = 0;
    for (int t = 0; t < 2000; t++) {
        for (int h = 0; h < n->hidden; h++) {
            us[h] = (int16_t)(t % 3 ? rnd(-400, 400) : rnd(-16000, 16000));
            them[h] = (int16_t)rnd(-400, 400);
        }
        int b = t % n->buckets;
        int64_t s = nnue_output_scalar(n, b, us, them), v = nnue_output(n, b, us, them);
        bad += s != v;
#if defined(__AVX2__)
        bad += s != nnue_output_avx2(n, b, us, them);
#endif
    }
    CHECK(bad == 0, "%s output differs from the portable one %d times in 2000 (%d hidden, %d buckets)",
          nnue_simd_name(), bad, n->hidden, n->buckets);
}

/* Each position is scored by the output bucket of its number of pieces. */
static void buckets_chosen(Network *n)
{
    static const struct {
        const char *fen;
        int bucket; /* of 8: pieces 2-5, 6-9, ..., 30-32 */
    } cases[] = {
        {START_FEN, 7},
        {"8/8/4k3/8/8/3K4/8/8 w - - 0 1", 0},
        {"8/8/4k3/8/2R5/3K4/8/7r w - - 0 1", 0},
        {"8/3p4/4k3/8/2R5/3K4/2P5/7r w - - 0 1", 1},
        {"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", 7},
        {"r3k2r/p1p2pb1/bn2pnp1/3PN3/4P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 6},
    };
    Position pos = {0};
    char err[160];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        CHECK(pos_set_fen(&pos, cases[c].fen, err, sizeof err), "%s: %s", cases[c].fen, err);
        int before = nnue_evaluate_fresh(n, &pos), moved = -1;
        for (int b = 0; b < n->buckets; b++) {
            int32_t saved = n->b2[b];
            n->b2[b] += 100 * NNUE_QA * NNUE_QB; /* 100 x scale centipawns */
            if (nnue_evaluate_fresh(n, &pos) != before)
                moved = moved == -1 ? b : -2;
            n->b2[b] = saved;
        }
        CHECK(moved == cases[c].bucket, "%s: scored by bucket %d, not %d", cases[c].fen, cases[c].bucket, moved);
    }
    pos_free(&pos);
}

/* The colour-flipped mirror: ranks flipped, colours swapped, the other side to move. */
static void symmetry(void)
{
    Position pos = {0};
    char err[160];
    int bad = 0, n = 0;
    for (int g = 0; g < 20; g++) {
        pos_set_fen(&pos, START_FEN, err, sizeof err);
        for (int ply = 0; ply < 120; ply++) {
            uint64_t m[16] = {0};
            for (int p = WP; p <= BK; p++)
                if (PTYPE(p))
                    m[p ^ 8] = __builtin_bswap64(pos.bb[p]);
            int a = nnue_evaluate_board(net, pos.bb, pos.side), b = nnue_evaluate_board(net, m, !pos.side);
            bad += a != b, n++;
            MoveList l;
            gen_legal(&pos, &l);
            if (!l.count)
                break;
            pos_reserve(&pos, 1);
            make_move(&pos, l.moves[next() % (uint64_t)l.count]);
        }
    }
    CHECK(bad == 0, "%d of %d positions score differently from their mirror", bad, n);
    /* Through FEN and the engine's own position as well. */
    Position w = {0}, bl = {0};
    pos_set_fen(&w, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8", err, sizeof err);
    pos_set_fen(&bl, "r2qkb1r/pp3ppp/2n1pn2/2pp4/3P4/2N1PN2/PP2BPPP/R1BQ1RK1 b kq - 0 8", err, sizeof err);
    CHECK(incremental(&w) == incremental(&bl), "a FEN and its mirror: %d and %d", incremental(&w), incremental(&bl));
    pos_free(&w);
    pos_free(&bl);
    pos_free(&pos);
}

/* The board with its files flipped (a-h). */
static void flip_files(const uint64_t bb[16], uint64_t out[16])
{
    for (int p = 0; p < 16; p++) {
        out[p] = 0;
        for (int sq = 0; sq < 64; sq++)
            out[p] |= (bb[p] >> sq & 1) << (sq ^ 7);
    }
}

/* Under the mirrored network in use, a position and its a-h mirror (castling
 * rights are no input) score the same, which without mirrored inputs they
 * mostly do not. Its inputs are the unmirrored ones of the same weights for
 * the position itself when both kings stand on files e-h, and for its mirror
 * when both stand on a-d. */
static void horizontal(void)
{
    CHECK(net->mirrored, "a mirrored network is in use");
    Network plain = *net; /* the same weights without mirrored inputs: fresh evaluations only */
    plain.mirrored = false;
    Position pos = {0};
    char err[160];
    int bad = 0, n = 0, differ = 0, same_side = 0, bad_plain = 0;
    for (int g = 0; g < 20; g++) {
        pos_set_fen(&pos, START_FEN, err, sizeof err);
        for (int ply = 0; ply < 120; ply++) {
            uint64_t m[16];
            flip_files(pos.bb, m);
            int a = nnue_evaluate_board(net, pos.bb, pos.side), b = nnue_evaluate_board(net, m, pos.side);
            bad += a != b, n++;
            differ += nnue_evaluate_board(&plain, pos.bb, pos.side) != nnue_evaluate_board(&plain, m, pos.side);
            int w = king_file(&pos, WHITE) >= 4, k = king_file(&pos, BLACK) >= 4;
            if (w == k) {
                bad_plain += a != nnue_evaluate_board(&plain, w ? pos.bb : m, pos.side);
                same_side++;
            }
            MoveList l;
            gen_legal(&pos, &l);
            if (!l.count)
                break;
            pos_reserve(&pos, 1);
            make_move(&pos, l.moves[next() % (uint64_t)l.count]);
        }
    }
    CHECK(bad == 0, "mirrored inputs: %d of %d positions score differently from their a-h mirror", bad, n);
    CHECK(differ > n / 2, "without mirrored inputs most do (%d of %d)", differ, n);
    CHECK(bad_plain == 0 && same_side > n / 4,
          "with both kings on one side, the inputs are the unmirrored ones of the king-side view (%d of %d differ)",
          bad_plain, same_side);
    /* Through FEN and the search's incremental accumulators as well. */
    Position w = {0}, twin = {0};
    pos_set_fen(&w, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w - - 0 8", err, sizeof err);
    pos_set_fen(&twin, "1kr1qb1r/pppb2pp/2np1n2/4p3/4PP2/2NP1N2/PPP3PP/R1BKQ2R w - - 0 8", err, sizeof err);
    uint64_t m[16];
    flip_files(w.bb, m);
    CHECK(!memcmp(m, twin.bb, sizeof m), "the two FENs are mirror images");
    CHECK(incremental(&w) == incremental(&twin), "a FEN and its a-h mirror: %d and %d", incremental(&w),
          incremental(&twin));
    pos_free(&w);
    pos_free(&twin);
    pos_free(&pos);
}

static bool use_fails(const char *path, const char *why)
{
    char err[256] = "";
    const Network *before = net;
    bool ok = use_file(path, err, sizeof err);
    CHECK(!ok && strstr(err, why) && net == before, "%s: refused with '%s' (got %s: '%s')", path, why,
          ok ? "loaded" : "refused", err);
    return !ok;
}

static uint32_t fnv1a(const unsigned char *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

/* A version-3 file whose flags are 0 is a network without mirrored inputs. */
static void flags_zero(const Network *good)
{
    char path[256], err[256];
    snprintf(path, sizeof path, "%s/flags0.nnue", dir);
    Network m = *good;
    m.mirrored = true;
    write_net(&m, path);
    static unsigned char buf[1 << 20];
    FILE *f = fopen(path, "rb");
    size_t len = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    CHECK(len > 40 && buf[8] == 3 && buf[32] == 1, "a mirrored network is written as version 3 with flag bit 0");
    buf[32] = 0;
    uint32_t h = fnv1a(buf, len - 4);
    for (int i = 0; i < 4; i++)
        buf[len - 4 + i] = (unsigned char)(h >> (8 * i));
    Network back = {0};
    CHECK(nnue_read(buf, len, &back, err, sizeof err) && !back.mirrored, "version 3, flags 0: read unmirrored");
    Position pos = {0};
    pos_set_fen(&pos, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", err, sizeof err);
    if (back.w1)
        CHECK(nnue_evaluate_fresh(&back, &pos) == nnue_evaluate_fresh(good, &pos),
              "version 3 with flags 0 scores as the unmirrored network");
    nnue_free(&back);
    pos_free(&pos);
}

static void bad_files(const Network *good)
{
    char path[256], good_path[256];
    snprintf(good_path, sizeof good_path, "%s/good.nnue", dir);
    write_net(good, good_path);
    FILE *f = fopen(good_path, "rb");
    static unsigned char buf[1 << 20];
    size_t len = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    char err[256];
    CHECK(use_file(good_path, err, sizeof err), "a good network loads: %s", err);
    CHECK(!strcmp(net->name, good_path), "the name of the loaded network is kept");
    Network back;
    CHECK(nnue_read(buf, len, &back, err, sizeof err) && back.hidden == good->hidden && back.scale == good->scale &&
              back.buckets == good->buckets && back.mirrored == good->mirrored &&
              !memcmp(back.b2, good->b2, sizeof back.b2) && !memcmp(back.w1, good->w1, weights(good) * 2),
          "a network file of %d bucket(s)%s round-trips", good->buckets, good->mirrored ? ", mirrored" : "");
    int version = good->mirrored ? 3 : good->buckets > 1 ? 2 : 1;
    CHECK(buf[8] == version && (version < 3 || buf[32] == NNUE_FLAG_MIRRORED),
          "one bucket is written as version 1, more as version 2, mirrored inputs as version 3 (%d)", buf[8]);
    nnue_free(&back);

    struct {
        const char *name, *why;
        size_t len;
        int at, value; /* a byte to change, -1 for none */
        int version;   /* the oldest version the case applies to */
    } cases[] = {
        {"truncated", "truncated or padded", len - 100, -1, 0, 1},
        {"empty", "no HEXENNUE header", 0, -1, 0, 1},
        {"magic", "no HEXENNUE header", len, 0, 'X', 1},
        {"version", "format version", len, 8, 9, 1},
        {"hidden", "multiple of 32", len, 12, 33, 1},
        {"flipped", "checksum", len, 5000, 0x5a, 1},
        {"padded", "truncated or padded", len + 7, -1, 0, 1},
        {"buckets", "output buckets", len, 28, 0x10, 2}, /* 8 becomes 24, 1 becomes 17 */
        {"header", "truncated or padded", 36, -1, 0, 2},
        {"flags", "flags 0x3", len, 32, 2, 3}, /* an unknown flag beside the mirror */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        if (cases[c].version > version)
            continue;
        snprintf(path, sizeof path, "%s/%s.nnue", dir, cases[c].name);
        unsigned char *copy = calloc(len + 16, 1);
        memcpy(copy, buf, len);
        if (cases[c].at >= 0)
            copy[cases[c].at] ^= (unsigned char)cases[c].value;
        FILE *o = fopen(path, "wb");
        fwrite(copy, 1, cases[c].len, o);
        fclose(o);
        free(copy);
        use_fails(path, cases[c].why);
    }
    /* Garbage of the right size: random bytes. */
    snprintf(path, sizeof path, "%s/garbage.nnue", dir);
    FILE *o = fopen(path, "wb");
    for (size_t i = 0; i < len; i++)
        fputc(i < 8 ? "HEXENNUE"[i] : (int)(next() & 255), o);
    fclose(o);
    use_fails(path, "");
    /* An output weight beyond the int16 trick's bound, with a valid checksum. */
    Network wide = *good;
    int16_t saved = wide.w2[3];
    wide.w2[3] = 300;
    snprintf(path, sizeof path, "%s/wide.nnue", dir);
    write_net(&wide, path);
    wide.w2[3] = saved;
    use_fails(path, "out of range");
    snprintf(path, sizeof path, "%s/missing.nnue", dir);
    use_fails(path, "cannot open");
    use_fails(dir, "not a regular file");
    snprintf(path, sizeof path, "%s/fifo.nnue", dir);
    if (mkfifo(path, 0600) == 0)
        use_fails(path, "not a regular file"); /* and returns at once instead of blocking */
    use_embedded();
    CHECK(!strcmp(net->name, "<internal>"), "the embedded network is named <internal>");
    CHECK(use_file(good_path, err, sizeof err), "the good network loads again");
}

/* The trace: a cell for every piece but the kings, each the change in
 * White's score when that piece is taken off, and the final line. */
static void trace(void)
{
    Position pos = {0}, less = {0};
    char err[160], *text = NULL;
    size_t len = 0;
    pos_set_fen(&pos, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", err, sizeof err);
    FILE *f = open_memstream(&text, &len);
    nnue_trace(net, &pos, f);
    fclose(f);
    int cells = 0, white = 0, stm = 0;
    for (char *p = text; (p = strchr(p, '|'));) {
        p++;
        double v;
        if (sscanf(p, " %lf |", &v) == 1 && (p[1] == '+' || p[1] == '-'))
            cells++;
    }
    const char *fin = strstr(text, "Final evaluation:");
    CHECK(fin && sscanf(fin, "Final evaluation: %d cp (White's view), %d", &white, &stm) == 2 &&
              stm == incremental(&pos) && white == stm,
          "the trace's final line is the evaluation (%d)", incremental(&pos));
    CHECK(cells == 30, "a cell for each of the 30 pieces that are not kings: %d", cells);
    /* The knight on f3 taken off: the cell holds the difference. */
    pos_copy(&less, &pos);
    pos_remove(&less, SQ(5, 2));
    int diff = incremental(&pos) - incremental(&less); /* White to move in both: White's view */
    char want[16];
    snprintf(want, sizeof want, "%+5.2f", diff / 100.0);
    const char *row3 = strstr(text, "|       |       |       |       |       |   N   |       |       |");
    CHECK(row3 && strstr(row3, want), "the f3 knight's cell is %s", want);
    free(text);
    pos_free(&pos);
    pos_free(&less);
}

int main(void)
{
    zobrist_init();
    attack_init();
    net = nnue_embedded();
    cache = nnue_cache_new();
    CHECK(net != NULL, "the embedded network is usable");
    if (!net || !cache || !mkdtemp(dir))
        return 1;
    int sizes[] = {32, 128, 256, NNUE_MAX_HIDDEN};
    for (int i = 0; i < 4; i++)
        for (int buckets = 1; buckets <= NNUE_MAX_BUCKETS; buckets += NNUE_MAX_BUCKETS - 1)
            for (int mirrored = 0; mirrored <= 1; mirrored++) {
                Network n = random_net(sizes[i], buckets, mirrored);
                simd(&n);
                if (buckets > 1)
                    buckets_chosen(&n);
                if (sizes[i] == 128 && buckets == 1 && !mirrored)
                    flags_zero(&n);
                if (sizes[i] == 128)
                    bad_files(&n); /* leaves this random network in use: the mirrored one of 8 buckets last */
                free(n.w1);
            }
    accumulator();
    symmetry();
    horizontal();
    trace();
    char err[256];
    /* The update's loops run over the hidden units in vectors: a size below
     * 128, one that is not a multiple of 128, and the largest; each without
     * and with mirrored inputs. */
    int acc_sizes[] = {32, 160, NNUE_MAX_HIDDEN};
    for (int i = 0; i < 6; i++) {
        char path[64];
        int hidden = acc_sizes[i / 2];
        bool mirrored = i % 2;
        snprintf(path, sizeof path, "%s/acc%d%s.nnue", dir, hidden, mirrored ? "m" : "");
        Network n = random_net(hidden, mirrored ? 4 : 1, mirrored);
        write_net(&n, path);
        free(n.w1);
        CHECK(use_file(path, err, sizeof err), "a network of %d hidden%s loads: %s", hidden,
              mirrored ? ", mirrored" : "", err);
        accumulator();
        if (mirrored) {
            symmetry();
            horizontal();
        }
    }
    /* A network read again from the same file is another network: the
     * accumulators made with the first are not used with it. */
    char path[64];
    snprintf(path, sizeof path, "%s/acc%d.nnue", dir, acc_sizes[0]);
    const Network *first = net;
    Position pos = {0};
    pos_set_fen(&pos, START_FEN, err, sizeof err);
    int before = incremental(&pos);
    Network *other = nnue_load(path, err, sizeof err);
    CHECK(other && other->id != first->id, "every network read has an id of its own");
    if (other) {
        for (int p = WP; p <= BK; p++) /* another first layer: the old sums would be wrong */
            for (int h = 0; PTYPE(p) && PTYPE(p) <= KING && h < other->hidden; h++)
                other->w1[(size_t)nnue_feature(WHITE, p, 0) * other->hidden + h] ^= 3;
        CHECK(nnue_evaluate(cache, other, &pos) == nnue_evaluate_fresh(other, &pos),
              "a cache made with one network is rebuilt for another (%d before)", before);
        nnue_unload(other);
    }
    pos_free(&pos);
    use_embedded();
    accumulator();
    symmetry();
    nnue_cache_free(cache);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        printf("could not remove %s\n", dir);
    return check_report("test_nnue");
}
