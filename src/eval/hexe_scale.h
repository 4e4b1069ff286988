/* hexe_scale.h - drawish material for the `hexe` evaluator (hexe_scale.c). */
#ifndef HEXE_EVAL_HEXE_SCALE_H
#define HEXE_EVAL_HEXE_SCALE_H

#include "hexe_weights.h"

/* The factor (out of SCALE_NORMAL) for the endgame part, seen from the
 * stronger side; *why names the case. When the stronger side has no pawns and
 * can hardly win, *whole is set: the factor then applies to the middlegame
 * part too. */
int hexe_scale_factor(const Position *pos, int strong, const char **why, bool *whole);

#endif
