/* tools/train.h - `hexe train`: the nnue evaluator's trainer (train.c). */
#ifndef HEXE_TRAIN_H
#define HEXE_TRAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "packed.h"

int train_main(int argc, char **argv);

/* The network's inputs for a decoded record, from the side to move's view
 * (us) and the other side's (them); returns their number. With mirror, a
 * position without castling rights is read with its files flipped (a-h):
 * the same position to the rules of chess, and the same score. A position
 * with a castling right is read as it is. */
int train_features(const Unpacked *u, bool mirror, uint16_t us[32], uint16_t them[32]);

#endif
