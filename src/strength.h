/* strength.h - Skill Level and UCI_LimitStrength/UCI_Elo: a weakened Hexe
 * searches few nodes, looks at several root moves, and picks among the
 * near-best ones at random, more loosely the weaker it is. */
#ifndef HEXE_STRENGTH_H
#define HEXE_STRENGTH_H

#include "searchlimits.h"

#define STRENGTH_CHOICES 4 /* root moves a weakened Hexe chooses among */

/* The level of the parameters' Skill Level, or of UCI_Elo with
 * UCI_LimitStrength: 0-20 (fractions allowed); 20 is full strength. */
double strength_level(const SearchParams *p);
bool strength_limited(const SearchParams *p);

/* Caps the limits' node count for the level and reseeds the choice. */
void strength_limit(Limits *lim, const SearchParams *p);

/* The index to play among the first n scores of the root moves, best first
 * (-INF for a move not searched). 0 at full strength. */
int strength_pick(const int *scores, int n, const SearchParams *p);

#endif
