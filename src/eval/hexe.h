/* hexe.h - the `hexe` evaluator's own entry points besides the Evaluator
 * (evaluators.h): the evaluation without its learnt correction, for the
 * tuners and the tests. Its weights are in hexe_weights.h. */
#ifndef HEXE_EVAL_HEXE_H
#define HEXE_EVAL_HEXE_H

#include "../eval.h"
#include "hexe_weights.h"

/* The evaluation without the learnt correction (net.h), side to move's view,
 * with ctx's caches; *corrected tells whether the full evaluation adds the
 * correction. */
int hexe_base_eval(EvalContext *ctx, const Position *pos, bool *corrected);

#endif
