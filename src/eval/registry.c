/* eval/registry.c - the registry of evaluators behind eval.h: the default
 * choice, choosing by name, start-up, each thread's evaluator context, and
 * the evaluators' UCI-visible weights. */
#include "../eval.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "evaluators.h"
#include "nnue.h"

/* The first one is the default. */
static const Evaluator *const evaluators[] = {
    &eval_nnue,
    &eval_hexe,
    &eval_simplified,
    &eval_classic,
    &eval_material,
};
#define NEVAL ((int)(sizeof evaluators / sizeof evaluators[0]))

/* False while an evaluator cannot run with a choice's network. */
static bool ready(const Evaluator *e, const EvalChoice *c) { return !e->usable || e->usable(c); }

EvalChoice eval_default(void)
{
    EvalChoice c = {evaluators[0], nnue_embedded()};
    /* The build's network may be unusable: take the next usable one, hexe. */
    for (int i = 1; i < NEVAL && !ready(c.evaluator, &c); i++)
        c.evaluator = evaluators[i];
    return c;
}

bool eval_choose(EvalChoice *c, const char *name)
{
    for (int i = 0; i < NEVAL; i++)
        if (!strcasecmp(evaluators[i]->name, name)) {
            if (!ready(evaluators[i], c))
                return false;
            c->evaluator = evaluators[i];
            return true;
        }
    return false;
}

void eval_init(void)
{
    for (int i = 0; i < NEVAL; i++)
        if (evaluators[i]->init)
            evaluators[i]->init();
}

EvalContext *eval_context_new(void)
{
    EvalContext *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return NULL;
    ctx->use = eval_default();
    ctx->nnue = nnue_cache_new();
    ctx->hexe = hexe_cache_new();
    if (!ctx->nnue || !ctx->hexe) {
        eval_context_free(ctx);
        return NULL;
    }
    return ctx;
}

void eval_context_free(EvalContext *ctx)
{
    if (!ctx)
        return;
    nnue_cache_free(ctx->nnue);
    hexe_cache_free(ctx->hexe);
    free(ctx);
}

void eval_context_use(EvalContext *ctx, const EvalChoice *choice) { ctx->use = *choice; }

void eval_context_forget(EvalContext *ctx)
{
    nnue_cache_forget(ctx->nnue);
    hexe_cache_forget(ctx->hexe);
}

int eval_count(void) { return NEVAL; }

const Evaluator *eval_get(int i) { return i >= 0 && i < NEVAL ? evaluators[i] : NULL; }

int eval_param_count(void)
{
    int n = 0;
    for (int i = 0; i < NEVAL; i++)
        n += evaluators[i]->nparams;
    return n;
}

EvalParam *eval_param(int k)
{
    for (int i = 0; i < NEVAL && k >= 0; k -= evaluators[i++]->nparams)
        if (k < evaluators[i]->nparams)
            return &evaluators[i]->params[k];
    return NULL;
}
