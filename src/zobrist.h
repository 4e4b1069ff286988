/* zobrist.h - Zobrist keys (the Polyglot Random64 table). */
#ifndef HEXE_ZOBRIST_H
#define HEXE_ZOBRIST_H

#include "types.h"

extern uint64_t zob_piece[16][128]; /* [piece][0x88 square] */
extern uint64_t zob_castle[16];     /* [castling-rights mask] */
extern uint64_t zob_ep[8];          /* [file] */
extern uint64_t zob_turn;           /* xor-ed in when White is to move */

void zobrist_init(void);

#endif
