/* nnue.c - the `nnue` evaluator (nnue.h): the embedded network, EvalFile,
 * the incremental accumulator and the output layer in portable C and SIMD.
 *
 * Each search thread's NnueCache keeps the accumulators of the last position
 * it evaluated with that position's square sets; the next call adds and
 * subtracts only the rows of the pieces that differ (a few, in a search) and
 * rebuilds both accumulators when more than REFRESH squares differ or the
 * network is another. In a network of mirrored inputs, a perspective whose
 * king crossed between the d and e files is rebuilt alone (all its inputs
 * flip); the other is updated. Integer arithmetic, so either way gives the
 * same sums. */
#include "nnue.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__AVX2__) || defined(__AVX512BW__)
#include <immintrin.h>
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#include "../eval.h"
#include "../platform.h"
#include "evaluators.h"
#include "trace.h"

/* The embedded network: the file the build names (Makefile: NNUE_FILE). */
#ifndef HEXE_NNUE_FILE
#error "HEXE_NNUE_FILE must name the embedded network (see the Makefile)"
#endif
#if defined(__wasm__) /* WebAssembly objects: a named data section, and each symbol sized */
__asm__(".section .rodata.hexe_nnue_blob,\"\",@\n"
        ".p2align 6\n"
        ".globl hexe_nnue_blob\n"
        ".type hexe_nnue_blob,@object\n"
        "hexe_nnue_blob:\n"
        ".incbin \"" HEXE_NNUE_FILE "\"\n"
        ".size hexe_nnue_blob, . - hexe_nnue_blob\n"
        ".globl hexe_nnue_blob_end\n"
        ".type hexe_nnue_blob_end,@object\n"
        "hexe_nnue_blob_end:\n"
        ".byte 0\n"
        ".size hexe_nnue_blob_end, 1\n");
#else
__asm__(ASM_RODATA_SECTION
        ".balign 64\n"
        ".globl hexe_nnue_blob\n"
        "hexe_nnue_blob:\n"
        ".incbin \"" HEXE_NNUE_FILE "\"\n"
        ".globl hexe_nnue_blob_end\n"
        "hexe_nnue_blob_end:\n"
        ".byte 0\n"
        ASM_END_SECTION);
#endif
extern const unsigned char hexe_nnue_blob[], hexe_nnue_blob_end[];

#define REFRESH 12
#define HEADER(version) (24 + 4 * (version)) /* 28, 32, 36 bytes */

static Network embedded;
static bool embedded_ok;
static atomic_uint last_id; /* the id of the network read last (0: none yet) */

static uint32_t rd32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t fnv1a(const unsigned char *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

/* The int16 values of W1, b1 and W2. */
static size_t weights(int hidden, int buckets)
{
    return (size_t)NNUE_INPUTS * hidden + hidden + 2 * (size_t)hidden * buckets;
}

static size_t file_size(int version, int hidden, int buckets)
{
    return HEADER(version) + 2 * weights(hidden, buckets) + 4 * (size_t)buckets + 4;
}

bool nnue_read(const unsigned char *d, size_t len, Network *net, char *err, size_t n)
{
    if (len < HEADER(1) + 8 || memcmp(d, "HEXENNUE", 8)) {
        snprintf(err, n, "not a Hexe network (no HEXENNUE header)");
        return false;
    }
    uint32_t version = rd32(d + 8), hidden = rd32(d + 12), scale = rd32(d + 16);
    if (version < 1 || version > NNUE_VERSION) {
        snprintf(err, n, "network format version %u, this build reads 1 to %d", version, NNUE_VERSION);
        return false;
    }
    if (len < HEADER(version) + 8) {
        snprintf(err, n, "%zu bytes: truncated or padded", len);
        return false;
    }
    uint32_t buckets = version == 1 ? 1 : rd32(d + 28), flags = version < 3 ? 0 : rd32(d + 32);
    if (buckets < 1 || buckets > NNUE_MAX_BUCKETS) {
        snprintf(err, n, "%u output buckets: must be 1 to %d", buckets, NNUE_MAX_BUCKETS);
        return false;
    }
    if (flags & ~NNUE_FLAG_MIRRORED) {
        snprintf(err, n, "flags 0x%x: this build knows only bit 0 (mirrored inputs)", flags);
        return false;
    }
    if (hidden < 32 || hidden > NNUE_MAX_HIDDEN || hidden % 32) {
        snprintf(err, n, "hidden layer of %u: must be a multiple of 32 from 32 to %d", hidden, NNUE_MAX_HIDDEN);
        return false;
    }
    if (rd32(d + 20) != NNUE_QA || rd32(d + 24) != NNUE_QB || scale < 1 || scale > 100000) {
        snprintf(err, n, "quantisation %u/%u, scale %u: this build needs %d/%d", rd32(d + 20), rd32(d + 24), scale,
                 NNUE_QA, NNUE_QB);
        return false;
    }
    size_t want = file_size((int)version, (int)hidden, (int)buckets);
    if (len != want) {
        snprintf(err, n, "%zu bytes, a network of %u hidden units and %u buckets has %zu (truncated or padded)", len,
                 hidden, buckets, want);
        return false;
    }
    if (fnv1a(d, len - 4) != rd32(d + len - 4)) {
        snprintf(err, n, "checksum mismatch: the file is damaged");
        return false;
    }
    size_t nw1 = (size_t)NNUE_INPUTS * hidden, total = weights((int)hidden, (int)buckets);
    int16_t *mem = hexe_aligned_alloc(64, total * sizeof(int16_t));
    if (!mem) {
        snprintf(err, n, "out of memory");
        return false;
    }
    const unsigned char *p = d + HEADER(version);
    for (size_t i = 0; i < total; i++, p += 2)
        mem[i] = (int16_t)(uint16_t)(p[0] | p[1] << 8);
    for (size_t i = nw1 + hidden; i < total; i++)
        if (mem[i] > 127 || mem[i] < -127) {
            snprintf(err, n, "an output weight of %d is out of range (|w| <= 127)", mem[i]);
            hexe_aligned_free(mem);
            return false;
        }
    net->hidden = (int)hidden;
    net->scale = (int)scale;
    net->buckets = (int)buckets;
    net->mirrored = flags & NNUE_FLAG_MIRRORED;
    net->w1 = mem;
    net->b1 = mem + nw1;
    net->w2 = mem + nw1 + hidden;
    memset(net->b2, 0, sizeof net->b2);
    for (uint32_t b = 0; b < buckets; b++)
        net->b2[b] = (int32_t)rd32(p + 4 * b);
    net->id = atomic_fetch_add(&last_id, 1) + 1;
    snprintf(net->name, sizeof net->name, "<memory>");
    return true;
}

void nnue_free(Network *net)
{
    hexe_aligned_free(net->w1);
    memset(net, 0, sizeof *net);
}

bool nnue_read_file(const char *path, Network *net, char *err, size_t n)
{
    /* A FIFO or a device would block or never end: regular files only. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_BINARY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, n, "cannot open %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return false;
    }
    if (!S_ISREG(st.st_mode) || st.st_size > (off_t)file_size(NNUE_VERSION, NNUE_MAX_HIDDEN, NNUE_MAX_BUCKETS)) {
        snprintf(err, n, "%s is %s", path, !S_ISREG(st.st_mode) ? "not a regular file" : "too large for a network");
        close(fd);
        return false;
    }
    size_t len = (size_t)st.st_size, got = 0;
    unsigned char *buf = malloc(len ? len : 1);
    while (buf && got < len) {
        ssize_t r = read(fd, buf + got, len - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    bool ok = buf && got == len;
    if (!ok)
        snprintf(err, n, "cannot read %s", path);
    else if (!nnue_read(buf, len, net, err, n)) {
        char why[200];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, n, "%s: %s", path, why);
        ok = false;
    } else {
        snprintf(net->name, sizeof net->name, "%s", path);
    }
    free(buf);
    return ok;
}

static void put(FILE *f, uint32_t v, int bytes, uint32_t *h, bool *ok)
{
    for (int i = 0; i < bytes; i++) {
        unsigned char c = (unsigned char)(v >> (8 * i));
        *h = (*h ^ c) * 16777619u;
        *ok = *ok && fputc(c, f) != EOF;
    }
}

bool nnue_write(const Network *net, FILE *f)
{
    uint32_t h = 2166136261u;
    bool ok = true;
    for (const char *m = "HEXENNUE"; *m; m++)
        put(f, (unsigned char)*m, 1, &h, &ok);
    int version = net->mirrored ? 3 : net->buckets > 1 ? 2 : 1; /* the oldest that holds it */
    put(f, (uint32_t)version, 4, &h, &ok);
    put(f, (uint32_t)net->hidden, 4, &h, &ok);
    put(f, (uint32_t)net->scale, 4, &h, &ok);
    put(f, NNUE_QA, 4, &h, &ok);
    put(f, NNUE_QB, 4, &h, &ok);
    if (version >= 2)
        put(f, (uint32_t)net->buckets, 4, &h, &ok);
    if (version >= 3)
        put(f, net->mirrored ? NNUE_FLAG_MIRRORED : 0, 4, &h, &ok);
    size_t total = weights(net->hidden, net->buckets);
    for (size_t i = 0; i < total; i++) /* w1, b1 and w2 lie one after another */
        put(f, (uint16_t)net->w1[i], 2, &h, &ok);
    for (int b = 0; b < net->buckets; b++)
        put(f, (uint32_t)net->b2[b], 4, &h, &ok);
    uint32_t sum = h;
    put(f, sum, 4, &h, &ok);
    return ok;
}

/* The embedded network is read before main (no thread runs yet) and never
 * changes. */
__attribute__((constructor)) static void nnue_init(void)
{
    char err[256];
    embedded_ok = nnue_read(hexe_nnue_blob, (size_t)(hexe_nnue_blob_end - hexe_nnue_blob), &embedded, err, sizeof err);
    if (!embedded_ok)
        fprintf(stderr, "hexe: the embedded network is unusable: %s\n", err);
    else
        snprintf(embedded.name, sizeof embedded.name, "<internal>");
}

const Network *nnue_embedded(void) { return embedded_ok ? &embedded : NULL; }

Network *nnue_load(const char *path, char *err, size_t n)
{
    Network *net = calloc(1, sizeof *net);
    if (!net) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    if (!nnue_read_file(path, net, err, n)) {
        free(net);
        return NULL;
    }
    return net;
}

void nnue_unload(Network *net)
{
    if (!net)
        return;
    nnue_free(net);
    free(net);
}

/* ---- Accumulators ---- */

typedef struct {
    uint64_t bb[16]; /* the square sets the sums were made for */
    unsigned net_id; /* the network they were made with (0: none) */
    int16_t acc[2][NNUE_MAX_HIDDEN] __attribute__((aligned(64))); /* by perspective */
} Accumulator;

struct NnueCache {
    Accumulator last; /* of the last position evaluated */
};

NnueCache *nnue_cache_new(void) { return hexe_aligned_zalloc(64, sizeof(NnueCache)); }

void nnue_cache_free(NnueCache *c) { hexe_aligned_free(c); }

void nnue_cache_forget(NnueCache *c)
{
    if (c)
        c->last.net_id = 0;
}

static inline void add_row(const Network *net, int16_t *acc, int feature, int sign)
{
    const int16_t *w = net->w1 + (size_t)feature * net->hidden;
    if (sign > 0)
        for (int h = 0; h < net->hidden; h++)
            acc[h] = (int16_t)(acc[h] + w[h]);
    else
        for (int h = 0; h < net->hidden; h++)
            acc[h] = (int16_t)(acc[h] - w[h]);
}

/* The flip of perspective v's squares on the board bb (nnue_flip). */
static inline int flip_of(bool mirrored, const uint64_t bb[16], int v)
{
    uint64_t king = bb[MAKE_PIECE(v, KING)];
    return mirrored && king ? nnue_flip(true, __builtin_ctzll(king)) : 0;
}

/* Perspective v's accumulator made from nothing. */
static void refresh_one(const Network *net, int16_t *acc, const uint64_t bb[16], int v)
{
    int flip = flip_of(net->mirrored, bb, v);
    memcpy(acc, net->b1, (size_t)net->hidden * sizeof(int16_t));
    for (int p = WP; p <= BK; p++)
        for (uint64_t x = bb[p]; x; x &= x - 1)
            add_row(net, acc, nnue_feature(v, p, __builtin_ctzll(x) ^ flip), 1);
}

static void refresh(const Network *net, Accumulator *a, const uint64_t bb[16])
{
    for (int v = WHITE; v <= BLACK; v++)
        refresh_one(net, a->acc[v], bb, v);
    memcpy(a->bb, bb, sizeof a->bb);
    a->net_id = net->id;
}

/* The update of a network of mirrored inputs: a perspective whose king
 * crossed between the d and e files is rebuilt (all its inputs flip), the
 * other updated by the pieces that moved. */
static void update_mirrored(const Network *net, Accumulator *a, const uint64_t bb[16])
{
    for (int v = WHITE; v <= BLACK; v++) {
        int flip = flip_of(true, bb, v);
        if (flip != flip_of(true, a->bb, v)) {
            refresh_one(net, a->acc[v], bb, v);
            continue;
        }
        for (int p = WP; p <= BK; p++) {
            for (uint64_t x = a->bb[p] & ~bb[p]; x; x &= x - 1)
                add_row(net, a->acc[v], nnue_feature(v, p, __builtin_ctzll(x) ^ flip), -1);
            for (uint64_t x = bb[p] & ~a->bb[p]; x; x &= x - 1)
                add_row(net, a->acc[v], nnue_feature(v, p, __builtin_ctzll(x) ^ flip), 1);
        }
    }
    memcpy(a->bb, bb, sizeof a->bb);
}

static void update(const Network *net, Accumulator *a, const uint64_t bb[16])
{
    int changed = 0;
    for (int p = WP; p <= BK; p++)
        changed += __builtin_popcountll(a->bb[p] ^ bb[p]);
    if (a->net_id != net->id || changed > REFRESH) {
        refresh(net, a, bb);
        return;
    }
    if (net->mirrored) {
        update_mirrored(net, a, bb);
        return;
    }
    for (int p = WP; p <= BK; p++) {
        for (uint64_t x = a->bb[p] & ~bb[p]; x; x &= x - 1)
            for (int v = WHITE; v <= BLACK; v++)
                add_row(net, a->acc[v], nnue_feature(v, p, __builtin_ctzll(x)), -1);
        for (uint64_t x = bb[p] & ~a->bb[p]; x; x &= x - 1)
            for (int v = WHITE; v <= BLACK; v++)
                add_row(net, a->acc[v], nnue_feature(v, p, __builtin_ctzll(x)), 1);
        a->bb[p] = bb[p];
    }
}

/* ---- Output layer ---- */

int64_t nnue_output_scalar(const Network *net, int bucket, const int16_t *us, const int16_t *them)
{
    int64_t sum = 0;
    for (int half = 0; half < 2; half++) {
        const int16_t *acc = half ? them : us, *w = net->w2 + (2 * bucket + half) * net->hidden;
        for (int h = 0; h < net->hidden; h++) {
            int v = acc[h] < 0 ? 0 : acc[h] > NNUE_QA ? NNUE_QA : acc[h];
            sum += (int64_t)(v * w[h]) * v;
        }
    }
    return sum;
}

#if defined(__AVX512BW__)
static int64_t output_avx512(const Network *net, int bucket, const int16_t *us, const int16_t *them)
{
    const __m512i zero = _mm512_setzero_si512(), qa = _mm512_set1_epi16(NNUE_QA);
    __m512i sum = _mm512_setzero_si512();
    for (int half = 0; half < 2; half++) {
        const int16_t *acc = half ? them : us, *w = net->w2 + (2 * bucket + half) * net->hidden;
        for (int h = 0; h < net->hidden; h += 32) {
            __m512i v = _mm512_min_epi16(_mm512_max_epi16(_mm512_load_si512((const void *)(acc + h)), zero), qa);
            __m512i vw = _mm512_mullo_epi16(v, _mm512_loadu_si512((const void *)(w + h))); /* |v*w| <= 32385 */
            sum = _mm512_add_epi32(sum, _mm512_madd_epi16(vw, v));
        }
    }
    int32_t lanes[16];
    _mm512_storeu_si512((void *)lanes, sum);
    int64_t total = 0;
    for (int i = 0; i < 16; i++)
        total += lanes[i];
    return total;
}
#endif

#if defined(__AVX2__)
int64_t nnue_output_avx2(const Network *net, int bucket, const int16_t *us, const int16_t *them)
{
    const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(NNUE_QA);
    __m256i sum = _mm256_setzero_si256();
    for (int half = 0; half < 2; half++) {
        const int16_t *acc = half ? them : us, *w = net->w2 + (2 * bucket + half) * net->hidden;
        for (int h = 0; h < net->hidden; h += 16) {
            __m256i v = _mm256_min_epi16(_mm256_max_epi16(_mm256_load_si256((const void *)(acc + h)), zero), qa);
            __m256i vw = _mm256_mullo_epi16(v, _mm256_loadu_si256((const void *)(w + h)));
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
        }
    }
    int32_t lanes[8];
    _mm256_storeu_si256((void *)lanes, sum);
    int64_t total = 0;
    for (int i = 0; i < 8; i++)
        total += lanes[i];
    return total;
}
#endif

#if defined(__wasm_simd128__) && !defined(__AVX2__)
/* WebAssembly SIMD (make wasm): the AVX2 sums on 128-bit vectors. Four
 * int32 lanes hold at most 128 products of 2 x 255 x 32385 each (hidden
 * 512): 2,114,092,800, below 2^31, so they equal the scalar sum too. */
static int64_t output_wasm(const Network *net, int bucket, const int16_t *us, const int16_t *them)
{
    const v128_t zero = wasm_i16x8_splat(0), qa = wasm_i16x8_splat(NNUE_QA);
    v128_t sum = wasm_i32x4_splat(0);
    for (int half = 0; half < 2; half++) {
        const int16_t *acc = half ? them : us, *w = net->w2 + (2 * bucket + half) * net->hidden;
        for (int h = 0; h < net->hidden; h += 8) {
            v128_t v = wasm_i16x8_min(wasm_i16x8_max(wasm_v128_load(acc + h), zero), qa);
            v128_t vw = wasm_i16x8_mul(v, wasm_v128_load(w + h));
            sum = wasm_i32x4_add(sum, wasm_i32x4_dot_i16x8(vw, v));
        }
    }
    return (int64_t)wasm_i32x4_extract_lane(sum, 0) + wasm_i32x4_extract_lane(sum, 1) +
           wasm_i32x4_extract_lane(sum, 2) + wasm_i32x4_extract_lane(sum, 3);
}
#endif

int64_t nnue_output(const Network *net, int bucket, const int16_t *us, const int16_t *them)
{
#if defined(__AVX512BW__)
    return output_avx512(net, bucket, us, them);
#elif defined(__AVX2__)
    return nnue_output_avx2(net, bucket, us, them);
#elif defined(__wasm_simd128__)
    return output_wasm(net, bucket, us, them);
#else
    return nnue_output_scalar(net, bucket, us, them);
#endif
}

const char *nnue_simd_name(void)
{
#if defined(__AVX512BW__)
    return "AVX-512";
#elif defined(__AVX2__)
    return "AVX2";
#elif defined(__wasm_simd128__)
    return "WebAssembly SIMD";
#else
    return "portable C";
#endif
}

/* The output bucket of a position of that many pieces, kings included. */
static int bucket_of(const Network *net, int pieces)
{
    return net->buckets == 1 ? 0 : nnue_bucket(net->buckets, pieces);
}

static int to_cp(const Network *net, int bucket, int64_t out)
{
    return (int)((out / NNUE_QA + net->b2[bucket]) * net->scale / (NNUE_QA * NNUE_QB));
}

int nnue_evaluate(NnueCache *cache, const Network *net, const Position *pos)
{
    Accumulator *a = &cache->last;
    update(net, a, pos->bb);
    int b = bucket_of(net, pos->npieces[WHITE] + pos->npieces[BLACK] + pos->npawns[WHITE] + pos->npawns[BLACK]);
    return to_cp(net, b, nnue_output(net, b, a->acc[pos->side], a->acc[!pos->side]));
}

int nnue_evaluate_board(const Network *net, const uint64_t bb[16], int side)
{
    Accumulator a;
    refresh(net, &a, bb);
    int pieces = 0;
    for (int p = WP; p <= BK; p++)
        pieces += __builtin_popcountll(bb[p]);
    int b = bucket_of(net, pieces);
    return to_cp(net, b, nnue_output_scalar(net, b, a.acc[side], a.acc[!side]));
}

int nnue_evaluate_fresh(const Network *net, const Position *pos) { return nnue_evaluate_board(net, pos->bb, pos->side); }

/* ---- Trace ---- */

void nnue_trace(const Network *net, const Position *pos, FILE *out)
{
    int stm = nnue_evaluate_fresh(net, pos), white = pos->side == WHITE ? stm : -stm;
    fprintf(out, "NNUE network %s: %d hidden units, %d output bucket%s,%s output %s\n", net->name, net->hidden,
            net->buckets, net->buckets > 1 ? "s" : "", net->mirrored ? " mirrored inputs," : "", nnue_simd_name());
    fprintf(out, "Each piece: the change in White's score (cp) if it were taken off (kings stay).\n\n");
    Position copy = {0};
    pos_copy(&copy, pos);
    for (int r = 7; r >= 0; r--) {
        fprintf(out, "+-------+-------+-------+-------+-------+-------+-------+-------+\n|");
        for (int f = 0; f < 8; f++)
            fprintf(out, "   %c   |", " PNBRQK  pnbrqk"[pos->board[SQ(f, r)]]);
        fprintf(out, "\n|");
        for (int f = 0; f < 8; f++) {
            int sq = SQ(f, r), p = pos->board[sq];
            if (p == EMPTY || PTYPE(p) == KING) {
                fprintf(out, "       |");
                continue;
            }
            pos_remove(&copy, sq);
            int without = nnue_evaluate_fresh(net, &copy);
            pos_put(&copy, sq, p);
            int w = white - (pos->side == WHITE ? without : -without);
            fprintf(out, " %+5.2f |", w / 100.0);
        }
        fprintf(out, "\n");
    }
    fprintf(out, "+-------+-------+-------+-------+-------+-------+-------+-------+\n\n");
    pos_free(&copy);
    trace_final(out, pos, white);
}

/* A bare king (no pawn either) against more than pawns is the hand-made
 * evaluator's: it knows the basic mates and drives the lone king to the edge.
 * The network saw few such positions (datagen adjudicates them by tablebase)
 * and gives the search no direction there: without tables it let a KRK mate
 * grow longer. */
static bool bare_king(const Position *pos)
{
    for (int s = WHITE; s <= BLACK; s++)
        if (pos->npieces[s] == 1 && !pos->npawns[s] && pos->npieces[!s] > 1)
            return true;
    return false;
}

static int nnue_or_hexe(EvalContext *ctx, const Position *pos)
{
    return bare_king(pos) ? eval_hexe.evaluate(ctx, pos) : nnue_evaluate(ctx->nnue, ctx->use.net, pos);
}

static void trace(EvalContext *ctx, const Position *pos, FILE *out)
{
    if (bare_king(pos)) {
        fprintf(out, "A bare king against more than pawns: nnue uses the hexe evaluator's score.\n\n");
        eval_hexe.trace(ctx, pos, out);
        return;
    }
    nnue_trace(ctx->use.net, pos, out);
}

static bool usable(const EvalChoice *c) { return c->net != NULL; }

const Evaluator eval_nnue = {.name = "nnue", .evaluate = nnue_or_hexe, .trace = trace, .usable = usable};
