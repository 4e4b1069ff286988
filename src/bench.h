/* bench.h - the fixed-depth benchmark whose node count signs every search change. */
#ifndef HEXE_BENCH_H
#define HEXE_BENCH_H

#include "eval.h"

#define BENCH_DEPTH 13

/* Searches the bench positions to `depth` (BENCH_DEPTH when 0) with one thread,
 * a cleared 16 MB hash and the evaluator chosen (eval_default() for the bench
 * signature); the last line is "<N> nodes <M> nps". The hash then gets its
 * old size back, cleared with `threads` threads. */
void bench_run(int depth, int threads, const EvalChoice *eval);

#endif
