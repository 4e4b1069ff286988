/* tools/tune.h - the Texel tuner for the `hexe` evaluator's weights. */
#ifndef HEXE_TUNE_H
#define HEXE_TUNE_H

int tune_main(int argc, char **argv);

#endif
