/* eval.c - the registry of evaluators and their UCI-visible weights. */
#include "eval.h"

#include <string.h>
#include <strings.h>

#include "eval/evaluators.h"
#include "eval/hexe.h"

/* The first one is the default. */
static const Evaluator *const evaluators[] = {
    &eval_hexe,
    &eval_simplified,
    &eval_classic,
    &eval_material,
    &eval_nnue,
};
#define NEVAL ((int)(sizeof evaluators / sizeof evaluators[0]))

const Evaluator *eval_current = &eval_hexe;

bool eval_select(const char *name)
{
    for (int i = 0; i < NEVAL; i++)
        if (!strcasecmp(evaluators[i]->name, name)) {
            if (evaluators[i]->usable && !evaluators[i]->usable())
                return false;
            eval_current = evaluators[i];
            return true;
        }
    return false;
}

void eval_init(void) { hexe_params_changed(); /* the hexe weights' piece-square table */ }

int eval_count(void) { return NEVAL; }

const Evaluator *eval_get(int i) { return i >= 0 && i < NEVAL ? evaluators[i] : NULL; }

/* UCI spin options: the classic evaluator's weights (range 0..1000). */
static EvalParam params[] = {
    {"Classic Material", &classic_weight[CLASSIC_MATERIAL], 50, 0, 1000},
    {"Classic Attacks", &classic_weight[CLASSIC_ATTACKS], 10, 0, 1000},
    {"Classic PST", &classic_weight[CLASSIC_PST], 25, 0, 1000},
    {"Classic KingSafety", &classic_weight[CLASSIC_KING], 5, 0, 1000},
    {"Classic Mobility", &classic_weight[CLASSIC_MOBILITY], 4, 0, 1000},
};
#define NPARAM ((int)(sizeof params / sizeof params[0]))

int eval_param_count(void) { return NPARAM; }

EvalParam *eval_param(int i) { return i >= 0 && i < NPARAM ? &params[i] : NULL; }
