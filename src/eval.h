/* eval.h - the one narrow interface behind which evaluators are swapped at run time. */
#ifndef HEXE_EVAL_H
#define HEXE_EVAL_H

#include <stdio.h>

#include "position.h"

/* A tunable integer exposed as a UCI spin option. */
typedef struct {
    const char *name;
    int *value;
    int def, min, max;
} EvalParam;

typedef struct {
    const char *name;
    /* Centipawns from the side to move's point of view. */
    int (*evaluate)(const Position *pos);
    /* Prints every term for White, for Black and in total, then the final score. */
    void (*trace)(const Position *pos, FILE *out);
    /* Optional (NULL): false while the evaluator cannot run (nnue without a
     * usable network); set-up once at start-up; its weights offered as UCI
     * spin options (each option's apply forgets stored evaluations). */
    bool (*usable)(void);
    void (*init)(void);
    EvalParam *params;
    int nparams;
} Evaluator;


extern const Evaluator *eval_current;

static inline int evaluate(const Position *pos) { return eval_current->evaluate(pos); }

void eval_init(void);                          /* once at start-up: each evaluator's init */
bool eval_select(const char *name);            /* false if there is no such evaluator or it cannot run */
int eval_count(void);
const Evaluator *eval_get(int i);
/* Every evaluator's weights offered as UCI options, in registry order. */
int eval_param_count(void);
EvalParam *eval_param(int i);

#endif
