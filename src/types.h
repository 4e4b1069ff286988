/* types.h - basic types, pieces, squares and the 16-bit move encoding shared by every module. */
#ifndef HEXE_TYPES_H
#define HEXE_TYPES_H

#include <stdbool.h>
#include <stdint.h>

/* The version comes from the VERSION file (the Makefile passes it). */
#ifndef HEXE_VERSION
#define HEXE_VERSION "unknown"
#endif

#ifdef HEXE_DEBUG
#include <stdio.h>
#include <stdlib.h>
#define ASSERT(c)                                                                  \
    do {                                                                           \
        if (!(c)) {                                                                \
            fprintf(stderr, "assertion failed: %s (%s:%d)\n", #c, __FILE__, __LINE__); \
            abort();                                                               \
        }                                                                          \
    } while (0)
#else
#define ASSERT(c) ((void)0)
#endif

enum { WHITE = 0, BLACK = 1 };

/* Piece types and coloured pieces: piece = type | colour << 3. */
enum { NO_TYPE = 0, PAWN = 1, KNIGHT = 2, BISHOP = 3, ROOK = 4, QUEEN = 5, KING = 6 };
enum {
    EMPTY = 0,
    WP = 1, WN = 2, WB = 3, WR = 4, WQ = 5, WK = 6,
    BP = 9, BN = 10, BB = 11, BR = 12, BQ = 13, BK = 14
};
#define MAKE_PIECE(c, t) ((t) | ((c) << 3))
#define PTYPE(p) ((p) & 7)
#define PCOLOR(p) ((p) >> 3)

/* 0x88 squares: sq = rank * 16 + file; sq & 0x88 is non-zero off the board. */
#define SQ(f, r) ((r) * 16 + (f))
#define FILE_OF(sq) ((sq) & 7)
#define RANK_OF(sq) ((sq) >> 4)
#define OFFBOARD(sq) ((sq) & 0x88)
#define SQ64(sq) (((sq) + ((sq) & 7)) >> 1)
#define SQ88(s) ((s) + ((s) & ~7))
#define NO_SQ 127 /* an off-board sentinel (127 & 0x88 != 0) */

/* Moves: to (bits 0-5), from (6-11) in 0..63 numbering, promotion piece
 * (12-13: knight, bishop, rook, queen), kind (14-15). Castling is stored as
 * king-takes-own-rook, so Chess960 needs nothing special. */
typedef uint16_t Move;
#define MOVE_NONE 0
#define MOVE_NULL 65 /* b1b1: never a real move */
enum { MK_NORMAL = 0, MK_PROMO = 1, MK_EP = 2, MK_CASTLE = 3 };
#define MAKE_MOVE(from88, to88, kind) ((Move)(SQ64(to88) | (SQ64(from88) << 6) | (kind) << 14))
#define MAKE_PROMO(from88, to88, promo_type) \
    ((Move)(MAKE_MOVE(from88, to88, MK_PROMO) | ((promo_type) - KNIGHT) << 12))
#define MOVE_FROM(m) SQ88(((m) >> 6) & 63)
#define MOVE_TO(m) SQ88((m) & 63)
#define MOVE_KIND(m) ((m) >> 14)
#define MOVE_PROMO(m) ((((m) >> 12) & 3) + KNIGHT)

#define MAX_MOVES 256
#define MAX_PLY 128

typedef struct {
    Move moves[MAX_MOVES];
    int count;
} MoveList;

/* Marsaglia's xorshift64 (13, 7, 17): the next value of a non-zero state. */
static inline uint64_t xorshift64(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A middlegame/endgame pair, in centipawns. */
typedef struct {
    int mg, eg;
} Score;

#endif
