/* bits.h - 64-bit square sets that the evaluators build from the piece lists
 * for speed: bit rank * 8 + file (a1 = 0, h8 = 63). Slider attacks need no
 * branch: along a file or diagonal by the subtraction trick applied to the
 * set and to its byte-swapped mirror, along a rank by a table lookup on the
 * rank's inner occupancy (tables in bits.c). */
#ifndef HEXE_EVAL_BITS_H
#define HEXE_EVAL_BITS_H

#include <stdbool.h>
#include <stdint.h>

#include "../types.h"

typedef uint64_t Bits;

extern const Bits diag_masks[64], anti_masks[64], knight_moves[64], king_moves[64];
extern const uint8_t rank_moves[8][64];

#define BIT(s) ((Bits)1 << (s))
#define FILE_A_BITS 0x0101010101010101ULL
#define RANK_1_BITS 0xFFULL
#define LIGHT_BITS 0x55AA55AA55AA55AAULL
#define NOT_FILE_A (~FILE_A_BITS)
#define NOT_FILE_H (~(FILE_A_BITS << 7))

static inline int popcount(Bits b) { return __builtin_popcountll(b); }
static inline int lsb(Bits b) { return __builtin_ctzll(b); }

static inline Bits north(Bits b) { return b << 8; }
static inline Bits south(Bits b) { return b >> 8; }
static inline Bits east(Bits b) { return (b << 1) & NOT_FILE_A; }
static inline Bits west(Bits b) { return (b >> 1) & NOT_FILE_H; }

static inline Bits fill_north(Bits b)
{
    b |= b << 8;
    b |= b << 16;
    return b | b << 32;
}

static inline Bits fill_south(Bits b)
{
    b |= b >> 8;
    b |= b >> 16;
    return b | b >> 32;
}

static inline Bits file_fill(Bits b) { return fill_north(fill_south(b)); }

/* Forward/backward for side c (0 = White, moving north). */
static inline Bits forward(int c, Bits b) { return c ? south(b) : north(b); }
static inline Bits fill_forward(int c, Bits b) { return c ? fill_south(b) : fill_north(b); }
static inline Bits fill_backward(int c, Bits b) { return c ? fill_north(b) : fill_south(b); }

static inline Bits pawn_attacks(int c, Bits p)
{
    Bits f = forward(c, p);
    return east(f) | west(f);
}

static inline Bits knight_attacks(Bits b)
{
    Bits l1 = (b >> 1) & 0x7F7F7F7F7F7F7F7FULL, l2 = (b >> 2) & 0x3F3F3F3F3F3F3F3FULL;
    Bits r1 = (b << 1) & 0xFEFEFEFEFEFEFEFEULL, r2 = (b << 2) & 0xFCFCFCFCFCFCFCFCULL;
    Bits h1 = l1 | r1, h2 = l2 | r2;
    return h1 << 16 | h1 >> 16 | h2 << 8 | h2 >> 8;
}

static inline Bits king_attacks(Bits b)
{
    Bits row = b | east(b) | west(b);
    return (row | north(row) | south(row)) ^ b;
}

/* Attacks along a line that crosses every rank at most once (a file or a
 * diagonal); mask is the line without the slider's own square s. */
static inline Bits line_attacks(Bits occ, Bits mask, Bits s)
{
    Bits fwd = occ & mask, rev = __builtin_bswap64(fwd);
    fwd -= s;
    rev -= __builtin_bswap64(s);
    return (fwd ^ __builtin_bswap64(rev)) & mask;
}

static inline Bits rank_attacks(Bits occ, int s)
{
    int shift = s & 56;
    return (Bits)rank_moves[s & 7][(occ >> (shift + 1)) & 63] << shift;
}

static inline Bits bishop_attacks_lines(Bits occ, int s)
{
    return line_attacks(occ, diag_masks[s], BIT(s)) | line_attacks(occ, anti_masks[s], BIT(s));
}

static inline Bits rook_attacks_lines(Bits occ, int s)
{
    return line_attacks(occ, (FILE_A_BITS << (s & 7)) ^ BIT(s), BIT(s)) | rank_attacks(occ, s);
}

/* With BMI2 (and not on AMD Zen 1/2, where PEXT is slow), slider attacks are
 * looked up: PEXT gathers the occupied squares that can block the slider
 * (its rays without their last square) into an index, the table holds the
 * attack set packed to the bits of the slider's rays, and PDEP unpacks it.
 * 107,648 entries of 16 bits, filled at start-up from the functions above. */
#if defined(__BMI2__) && !defined(__znver1__) && !defined(__znver2__)
#define HEXE_PEXT 1
#include <immintrin.h>

typedef struct {
    Bits blockers, rays;
    uint32_t offset;
} SliderLookup;
extern SliderLookup rook_lookup[64], bishop_lookup[64];
extern uint16_t slider_table[];

static inline Bits slider_lookup(const SliderLookup *l, Bits occ)
{
    return _pdep_u64(slider_table[l->offset + _pext_u64(occ, l->blockers)], l->rays);
}

static inline Bits bishop_attacks(Bits occ, int s) { return slider_lookup(&bishop_lookup[s], occ); }
static inline Bits rook_attacks(Bits occ, int s) { return slider_lookup(&rook_lookup[s], occ); }
#else
static inline Bits bishop_attacks(Bits occ, int s) { return bishop_attacks_lines(occ, s); }
static inline Bits rook_attacks(Bits occ, int s) { return rook_attacks_lines(occ, s); }
#endif

static inline int file64(int s) { return s & 7; }
static inline int rank64(int s) { return s >> 3; }

/* A light square (h1, a8 ...), for a 0x88 square. */
static inline bool light_square(int sq88) { return ((FILE_OF(sq88) + RANK_OF(sq88)) & 1) != 0; }

static inline int distance64(int a, int b)
{
    int df = file64(a) - file64(b), dr = rank64(a) - rank64(b);
    df = df < 0 ? -df : df;
    dr = dr < 0 ? -dr : dr;
    return df > dr ? df : dr;
}

/* The same for 0x88 squares. */
static inline int distance88(int a, int b) { return distance64(SQ64(a), SQ64(b)); }

#endif
