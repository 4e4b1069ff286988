/* simplified.h - the tables of Tomasz Michniewski's Simplified Evaluation
 * Function, shared by the `simplified` and `classic` evaluators. */
#ifndef HEXE_EVAL_SIMPLIFIED_H
#define HEXE_EVAL_SIMPLIFIED_H

#include "../position.h"

/* Piece values in centipawns, by piece type (the king has none). */
extern const int sef_value[7];

/* Piece-square tables in centipawns, by piece type; index KING is the king's
 * middlegame table and SEF_KING_END its endgame table. Laid out as published:
 * index 0 is a8, 7 is h8, 56 is a1, from White's point of view. */
enum { SEF_KING_END = 7 };
extern const int8_t sef_pst[8][64];

/* True once the king should use its endgame table: both sides have no queen,
 * or every side that has a queen has no rook and at most one minor piece. */
bool sef_king_endgame(const Position *pos);

/* The table entry of a piece of colour c and type t (KING or SEF_KING_END
 * for the king) standing on the 0x88 square sq. */
static inline int sef_pst_at(int c, int t, int sq)
{
    int row = c == WHITE ? 7 - RANK_OF(sq) : RANK_OF(sq);
    return sef_pst[t][row * 8 + FILE_OF(sq)];
}

#endif
