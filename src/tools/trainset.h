/* tools/trainset.h - the trainer's data: datagen's records read into
 * memory, each as the network's inputs with its score and result. */
#ifndef HEXE_TRAINSET_H
#define HEXE_TRAINSET_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "packed.h"

typedef struct {
    PackedPos *rec;
    long long n; /* the training records; the held-out ones are kept apart */
} TrainSet;

/* Appends the records of a file (at most max of them when max > 0) to d,
 * the last val fraction of them (whole games: datagen writes a game's
 * records together) to the held-out set instead; false, and says why on
 * stderr, when the file cannot be read. A game file (games.h) gives the
 * training positions of its games (games_keep, from ply skip_plies on), the
 * same records in the same order as datagen's 32-byte file of the same
 * games; a bad game ends it, the games before it kept. A folder gives each
 * of its game files (*.hxg) in the order of their names. */
bool trainset_read(const char *path, TrainSet *d, double val, long long max, int skip_plies, PackedPos **val_out,
                   long long *nval);

/* The network's inputs for a decoded record, from the side to move's view
 * (us) and the other side's (them); returns their number. With mirror, a
 * position without castling rights is read with its files flipped (a-h):
 * the same position to the rules of chess, and the same score. A position
 * with a castling right is read as it is. With mirrored_inputs, the inputs
 * of a network of mirrored inputs, as the engine reads them (nnue_flip):
 * then mirror changes nothing. */
int train_features(const Unpacked *u, bool mirror, bool mirrored_inputs, uint16_t us[32], uint16_t them[32]);

/* A record as the inputs of both perspectives (train_features) and the side
 * to move's score and result. False for a record that does not decode. */
typedef struct {
    int n;
    uint16_t us[32], them[32];
    float score, result;
} Sample;
bool sample_of(const PackedPos *r, Sample *s, bool mirror, bool mirrored_inputs);

static inline double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

/* The K at which sigmoid(score / K) best predicts the results. */
double trainset_fit_scale(const TrainSet *d);

#endif
