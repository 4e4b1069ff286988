/* evaluators.h - the evaluators that eval.c registers. */
#ifndef HEXE_EVALUATORS_H
#define HEXE_EVALUATORS_H

#include "../eval.h"

extern const Evaluator eval_material;

#endif
