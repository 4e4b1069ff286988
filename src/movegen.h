/* movegen.h - strictly legal move generation and perft (movegen.c). */
#ifndef HEXE_MOVEGEN_H
#define HEXE_MOVEGEN_H

#include "position.h"

void gen_legal(const Position *pos, MoveList *list);
void gen_noisy(const Position *pos, MoveList *list); /* legal captures and promotions */
bool move_is_legal(const Position *pos, Move m);
uint64_t perft(Position *pos, int depth);
/* The same, giving up (and returning 0) once stop() says so. */
uint64_t perft_until(Position *pos, int depth, bool (*stop)(void));

#endif
