/* nnue.h - the `nnue` evaluator: a network trained on Hexe's own games
 * (docs/nnue.md).
 *
 * Architecture: (768 -> H) x 2 perspectives -> 1, SCReLU. The 768 inputs are
 * one per (piece relative to the perspective, type, square); the square is
 * flipped vertically for Black's perspective, so a position and its
 * colour-flipped mirror score exactly the same. The side to move's
 * accumulator comes first in the output layer. The output layer may come in
 * B buckets, one chosen by the number of pieces on the board (nnue_bucket).
 * A network of mirrored inputs (file flag bit 0) sees each perspective's own
 * king on files e-h: while that king stands on files a-d, every square of
 * that perspective's inputs is flipped a<->h (nnue_flip), so a position and
 * its a-h mirror image score the same.
 *
 * Quantisation: first-layer weights and biases x NNUE_QA (int16), output
 * weights x NNUE_QB (int16, |w| <= 127), output bias x QA*QB (int32).
 * score_cp = (sum(clamp(acc, 0, QA)^2 * w) / QA + bias) * scale / (QA * QB).
 *
 * File (little-endian): "HEXENNUE", u32 version, u32 H, u32 scale, u32 QA,
 * u32 QB, then in versions 2 and 3 u32 B (version 1 has one bucket and no
 * such field), in version 3 u32 flags (bit 0: mirrored inputs; the others
 * 0), then int16 W1[768][H], int16 b1[H], int16 W2[B][2H], int32 b2[B], u32
 * FNV-1a hash of every byte before it. A network is written in the oldest
 * version that holds it: 1 for one bucket, 2 for more, 3 when mirrored. */
#ifndef HEXE_NNUE_H
#define HEXE_NNUE_H

#include <stddef.h>
#include <stdio.h>

#include "../eval.h"
#include "../position.h"

#define NNUE_INPUTS 768
#define NNUE_MAX_HIDDEN 512 /* the int32 output sums cannot overflow up to here */
#define NNUE_QA 255
#define NNUE_QB 64
#define NNUE_VERSION 3 /* the newest file version; 1 and 2 are read too */
#define NNUE_MAX_BUCKETS 8
#define NNUE_FLAG_MIRRORED 1u /* version 3's flags: mirrored inputs */

struct Network {
    int hidden, scale, buckets;
    bool mirrored; /* each perspective's inputs seen with its king on files e-h (nnue_flip) */
    int16_t *w1;  /* [NNUE_INPUTS][hidden], 64-byte aligned */
    int16_t *b1;  /* [hidden] */
    int16_t *w2;  /* [buckets][2 * hidden]: side to move's half first */
    int32_t b2[NNUE_MAX_BUCKETS];
    unsigned id;    /* different for every network read: accumulators made with another are stale */
    char name[256]; /* "<internal>" or the file it was read from */
};

/* The output bucket of a position of `pieces` pieces, kings included: the
 * range 2-32 cut into `buckets` parts of (nearly) equal width. */
static inline int nnue_bucket(int buckets, int pieces)
{
    int b = (pieces - 2) * buckets / 31;
    return b < 0 ? 0 : b >= buckets ? buckets - 1 : b;
}

/* The input of a piece seen from a perspective. */
static inline int nnue_feature(int persp, int piece, int sq64)
{
    return ((PCOLOR(piece) != persp) * 6 + PTYPE(piece) - 1) * 64 + (persp == BLACK ? sq64 ^ 56 : sq64);
}

/* What a perspective's squares are XORed with before nnue_feature, given
 * that perspective's own king square: in a network of mirrored inputs 7
 * (files a<->h) while the king stands on files a-d, else 0. The engine and
 * the trainer both read the inputs this way. */
static inline int nnue_flip(bool mirrored, int king_sq64) { return mirrored && (king_sq64 & 7) < 4 ? 7 : 0; }

/* The network built in (Makefile: NNUE_FILE), or NULL when it is unusable. */
const Network *nnue_embedded(void);

/* Reads a network from memory or a file; on failure returns false, says why
 * in err and leaves *net untouched. A network read is freed with nnue_free. */
bool nnue_read(const unsigned char *data, size_t len, Network *net, char *err, size_t errlen);
bool nnue_read_file(const char *path, Network *net, char *err, size_t errlen);
void nnue_free(Network *net);
/* EvalFile: a network read from a file into memory of its own (NULL, and err
 * says why, when the file cannot be used), and its release. */
Network *nnue_load(const char *path, char *err, size_t errlen);
void nnue_unload(Network *net);
/* Serialises a network (the trainer's output); false on a write error. */
bool nnue_write(const Network *net, FILE *out);

/* The score of pos for the side to move, in centipawns, through the
 * thread's incremental accumulators (a cache of eval_context_new's). */
int nnue_evaluate(NnueCache *cache, const Network *net, const Position *pos);
/* The same from freshly built accumulators (the tests' reference). */
int nnue_evaluate_fresh(const Network *net, const Position *pos);
/* The same for square sets by coloured piece (bit 0 = a1) and a side to move. */
int nnue_evaluate_board(const Network *net, const uint64_t bb[16], int side);

/* The output layer of a bucket over two accumulators of net->hidden values:
 * the portable version and the one the build's SIMD level chooses (identical
 * results). */
int64_t nnue_output_scalar(const Network *net, int bucket, const int16_t *us, const int16_t *them);
int64_t nnue_output(const Network *net, int bucket, const int16_t *us, const int16_t *them);
const char *nnue_simd_name(void);
#if defined(__AVX2__)
/* also in AVX-512 builds */
int64_t nnue_output_avx2(const Network *net, int bucket, const int16_t *us, const int16_t *them);
#endif

void nnue_trace(const Network *net, const Position *pos, FILE *out);

#endif
