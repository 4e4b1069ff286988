/* eval.c - the registry of evaluators and their UCI-visible weights. */
#include "eval.h"

#include <string.h>
#include <strings.h>

#include "eval/evaluators.h"

static const Evaluator *const evaluators[] = {
    &eval_material,
};
#define NEVAL ((int)(sizeof evaluators / sizeof evaluators[0]))

const Evaluator *eval_current = &eval_material;

bool eval_select(const char *name)
{
    for (int i = 0; i < NEVAL; i++)
        if (!strcasecmp(evaluators[i]->name, name)) {
            eval_current = evaluators[i];
            return true;
        }
    return false;
}

int eval_count(void) { return NEVAL; }
const Evaluator *eval_get(int i) { return evaluators[i]; }

int eval_param_count(void) { return 0; }
EvalParam *eval_param(int i)
{
    (void)i;
    return NULL;
}
