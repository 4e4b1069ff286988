/* eval.h - the one narrow interface behind which evaluators are swapped at run time. */
#ifndef HEXE_EVAL_H
#define HEXE_EVAL_H

#include <stdio.h>

#include "position.h"

typedef struct {
    const char *name;
    /* Centipawns from the side to move's point of view. */
    int (*evaluate)(const Position *pos);
    /* Prints every term for White, for Black and in total, then the final score. */
    void (*trace)(const Position *pos, FILE *out);
    /* NULL, or false while the evaluator cannot run (nnue without a usable network). */
    bool (*usable)(void);
} Evaluator;

/* A tunable integer exposed as a UCI spin option. */
typedef struct {
    const char *name;
    int *value;
    int def, min, max;
} EvalParam;

extern const Evaluator *eval_current;

static inline int evaluate(const Position *pos) { return eval_current->evaluate(pos); }

void eval_init(void);                          /* once at start-up (fills psq_table) */
bool eval_select(const char *name);            /* false if there is no such evaluator or it cannot run */
int eval_count(void);
const Evaluator *eval_get(int i);
/* Evaluator weights offered as UCI options. */
int eval_param_count(void);
EvalParam *eval_param(int i);

#endif
