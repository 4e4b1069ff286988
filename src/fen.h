/* fen.h - FEN in and out, and moves in UCI notation. */
#ifndef HEXE_FEN_H
#define HEXE_FEN_H

#include <stdio.h>

#include "position.h"

#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* Sets pos from a FEN (standard, X-FEN or Shredder-FEN castling; the two
 * counters may be left out). On failure pos is untouched and err says why. */
bool pos_set_fen(Position *pos, const char *fen, char *err, size_t errlen);
char *pos_get_fen(const Position *pos, char *buf); /* buf: at least 100 bytes */
/* A random placement of a material signature ("KRPvKR", read up to a '.' or
 * the end): pawns off the first and last ranks, no castling, counters 0,
 * squares drawn from *seed. False (pos untouched) when the placement is not
 * a legal position, e.g. the side not to move is in check. */
bool pos_set_random(Position *pos, const char *material, int side, uint64_t *seed);
void pos_print(const Position *pos, FILE *out);

/* UCI notation: e1g1 castling in standard mode, king-takes-rook in Chess960. */
char *move_to_uci(Move m, bool chess960, char *buf); /* buf: at least 6 bytes */
/* The legal move str names (either castling form), or MOVE_NONE. */
Move parse_move(const Position *pos, const char *str);

#endif
