/* eval.h - the one narrow interface behind which evaluators are swapped at
 * run time, and the evaluator state each search thread owns.
 *
 * Which evaluator a search uses, and with which network, is the caller's
 * choice (EvalChoice), handed to the search in SearchParams. Each search
 * thread owns an EvalContext: that choice, copied in when a search starts,
 * and every evaluator's caches and accumulators. Nothing the search
 * evaluates with is a global or a thread-local. */
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

typedef struct Evaluator Evaluator;
typedef struct Network Network;     /* the nnue evaluator's network (eval/nnue.h) */
typedef struct NnueCache NnueCache; /* its accumulators of the last position (eval/nnue.c) */
typedef struct HexeCache HexeCache; /* hexe's pawn structures and correction sums (eval/hexe.c) */

/* The evaluator a search uses, and the network nnue evaluates with. */
typedef struct {
    const Evaluator *evaluator;
    const Network *net; /* NULL: no usable network (then nnue cannot be chosen) */
} EvalChoice;

/* One search thread's evaluator state (eval_context_new). */
typedef struct {
    EvalChoice use; /* set by eval_context_use() when a search starts */
    NnueCache *nnue;
    HexeCache *hexe;
} EvalContext;

struct Evaluator {
    const char *name;
    /* Centipawns from the side to move's point of view. */
    int (*evaluate)(EvalContext *ctx, const Position *pos);
    /* Prints every term for White, for Black and in total, then the final score. */
    void (*trace)(EvalContext *ctx, const Position *pos, FILE *out);
    /* Optional (NULL): false while the evaluator cannot run with this choice
     * (nnue without a network); set-up once at start-up; its weights offered
     * as UCI spin options (each option's apply forgets stored evaluations). */
    bool (*usable)(const EvalChoice *choice);
    void (*init)(void);
    EvalParam *params;
    int nparams;
};

static inline int evaluate(EvalContext *ctx, const Position *pos) { return ctx->use.evaluator->evaluate(ctx, pos); }

/* Each evaluator's caches for one thread; NULL when memory runs out. */
EvalContext *eval_context_new(void);
void eval_context_free(EvalContext *ctx);
/* Takes a choice for the next evaluations (a search's start). */
void eval_context_use(EvalContext *ctx, const EvalChoice *choice);
/* Drops every kept sum: the next evaluation starts from scratch (the tests'
 * check that incremental and fresh sums agree). */
void eval_context_forget(EvalContext *ctx);

void eval_init(void); /* once at start-up: each evaluator's init */
/* nnue with the embedded network; hexe when the build's network is unusable. */
EvalChoice eval_default(void);
/* Chooses the evaluator of that name (case-blind) for c's network; false,
 * and c unchanged, when there is none or it cannot run with that network. */
bool eval_choose(EvalChoice *c, const char *name);
int eval_count(void);
const Evaluator *eval_get(int i);
/* Every evaluator's weights offered as UCI options, in registry order. */
int eval_param_count(void);
EvalParam *eval_param(int i);

#endif
