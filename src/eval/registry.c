/* eval/registry.c - the registry of evaluators behind eval.h: which one is
 * current, selection by name, start-up, and their UCI-visible weights. */
#include "../eval.h"

#include <string.h>
#include <strings.h>

#include "evaluators.h"

/* The first one is the default. */
static const Evaluator *const evaluators[] = {
    &eval_nnue,
    &eval_hexe,
    &eval_simplified,
    &eval_classic,
    &eval_material,
};
#define NEVAL ((int)(sizeof evaluators / sizeof evaluators[0]))

const Evaluator *eval_current = &eval_nnue;

/* False while an evaluator cannot run (nnue without a network). */
static bool ready(const Evaluator *e) { return !e->usable || e->usable(); }

bool eval_select(const char *name)
{
    for (int i = 0; i < NEVAL; i++)
        if (!strcasecmp(evaluators[i]->name, name)) {
            if (!ready(evaluators[i]))
                return false;
            eval_current = evaluators[i];
            return true;
        }
    return false;
}

void eval_init(void)
{
    for (int i = 0; i < NEVAL; i++)
        if (evaluators[i]->init)
            evaluators[i]->init();
    /* The default may be unusable (a build whose embedded network does not
     * load): take the next usable one, hexe. */
    for (int i = 1; i < NEVAL && !ready(eval_current); i++)
        eval_current = evaluators[i];
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
