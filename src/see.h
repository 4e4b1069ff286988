/* see.h - static exchange evaluation (see.c). */
#ifndef HEXE_SEE_H
#define HEXE_SEE_H

#include "position.h"

int see(const Position *pos, Move m); /* centipawns won by the exchange that m starts */
bool see_ge(const Position *pos, Move m, int threshold); /* see(pos, m) >= threshold, faster */

#endif
