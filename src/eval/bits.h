/* bits.h - 64-bit square sets that the evaluators build from the piece lists
 * for speed: bit rank * 8 + file (a1 = 0, h8 = 63). Slider attacks are
 * computed without tables and without branches: lines that cross the ranks
 * by the subtraction trick applied forwards and on the byte-swapped set,
 * ranks by isolating the nearest blockers on either side. */
#ifndef HEXE_EVAL_BITS_H
#define HEXE_EVAL_BITS_H

#include <stdint.h>

typedef uint64_t Bits;

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

/* A diagonal through the main one, moved d ranks up (down if d < 0), by
 * shifts picked without a branch. */
static inline Bits shift_ranks(Bits m, int d)
{
    int a = d < 0 ? -d : d; /* compiles to a branch-free abs */
    return (m << (4 * (a + d))) >> (4 * (a - d));
}

static inline Bits diag_mask(int s) { return shift_ranks(0x8040201008040201ULL, (s >> 3) - (s & 7)) ^ BIT(s); }

static inline Bits anti_mask(int s) { return shift_ranks(0x0102040810204080ULL, (s >> 3) + (s & 7) - 7) ^ BIT(s); }

static inline Bits rank_attacks(Bits occ, int s)
{
    int shift = s & 56;
    unsigned o = (unsigned)(occ >> shift) & 0xFF, r = 1u << (s & 7);
    unsigned above = (r << 1) - 1; /* r and the squares west of it */
    unsigned e = (o & ~above) | 0x80, first = e & (0u - e);
    unsigned w = (o & (r - 1)) | 1, last = 1u << (31 - __builtin_clz(w));
    unsigned att = (((first << 1) - 1) & ~above) | ((r - 1) & ~(last - 1));
    return (Bits)att << shift;
}

static inline Bits bishop_attacks(Bits occ, int s)
{
    return line_attacks(occ, diag_mask(s), BIT(s)) | line_attacks(occ, anti_mask(s), BIT(s));
}

static inline Bits rook_attacks(Bits occ, int s)
{
    return line_attacks(occ, (FILE_A_BITS << (s & 7)) ^ BIT(s), BIT(s)) | rank_attacks(occ, s);
}

static inline int file64(int s) { return s & 7; }
static inline int rank64(int s) { return s >> 3; }

static inline int distance64(int a, int b)
{
    int df = file64(a) - file64(b), dr = rank64(a) - rank64(b);
    df = df < 0 ? -df : df;
    dr = dr < 0 ? -dr : dr;
    return df > dr ? df : dr;
}

#endif
