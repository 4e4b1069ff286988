/* tools/train.h - `hexe train`: the nnue evaluator's trainer (train.c). */
#ifndef HEXE_TRAIN_H
#define HEXE_TRAIN_H

int train_main(int argc, char **argv);

#endif
