/* tools/packed.h - one training position in 32 bytes: the `hexe datagen --format bin`
 * record that the network trainer reads (docs/nnue.md, "Data format").
 *
 *   bytes  0-7   occupancy, bit i = square i (a1 = 0, h1 = 7, a8 = 56), little-endian
 *   bytes  8-23  one 4-bit code per occupied square, in square order, low nibble first:
 *                bit 3 = colour (1 = Black), bits 0-2 = type 1..6 (pawn..king),
 *                type 7 = a rook that still has its castling right
 *   bytes 24-25  score, centipawns from White's view (int16, little-endian)
 *   byte  26     result for White: 0 loss, 1 draw, 2 win
 *   byte  27     side to move: 0 White, 1 Black
 *   byte  28     en-passant square 0..63, or 64 for none
 *   byte  29     halfmove clock (capped at 255)
 *   bytes 30-31  fullmove number (uint16, little-endian)
 *
 * A file is a plain sequence of records; a trailing partial record (a write
 * cut short by a kill) is ignored by readers and cut off by the next
 * `datagen` run that appends. */
#ifndef HEXE_PACKED_H
#define HEXE_PACKED_H

#include <stddef.h>

#include "../position.h"

#define PACKED_SIZE 32
#define PACKED_CASTLE_ROOK 7

typedef struct {
    uint8_t b[PACKED_SIZE];
} PackedPos;

/* Positions with more than 32 pieces cannot be packed (false). */
bool packed_encode(const Position *pos, int white_score, int result, PackedPos *out);

/* What a record holds, unpacked. */
typedef struct {
    uint8_t piece[64]; /* coloured piece per square (types.h), EMPTY when none */
    bool castle_rook[64];
    int side, ep /* 0..63 or -1 */, halfmove, fullmove;
    int score;  /* White's view */
    int result; /* 0, 1, 2 for White */
} Unpacked;

/* False when the record is not well formed (too many pieces for its
 * occupancy, an unknown code, a result or side out of range). */
bool packed_decode(const PackedPos *in, Unpacked *out);
/* The record's position as a FEN (buf: at least 100 bytes). */
char *packed_fen(const Unpacked *u, char *buf);

#endif
