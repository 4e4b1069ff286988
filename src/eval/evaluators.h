/* evaluators.h - the evaluators that registry.c registers, their per-thread
 * caches (made, freed and forgotten through the registry's EvalContext),
 * and the classic weights. */
#ifndef HEXE_EVALUATORS_H
#define HEXE_EVALUATORS_H

#include "../eval.h"

extern const Evaluator eval_hexe;
extern const Evaluator eval_simplified;
extern const Evaluator eval_classic;
extern const Evaluator eval_material;
extern const Evaluator eval_nnue;

/* Each evaluator's caches for one thread: NULL when out of memory; free
 * and forget take NULL too. */
NnueCache *nnue_cache_new(void);
void nnue_cache_free(NnueCache *c);
void nnue_cache_forget(NnueCache *c);
HexeCache *hexe_cache_new(void);
void hexe_cache_free(HexeCache *c);
void hexe_cache_forget(HexeCache *c);

/* The classic evaluator's weights (its own units), offered as UCI spin options. */
enum { CLASSIC_MATERIAL, CLASSIC_ATTACKS, CLASSIC_PST, CLASSIC_KING, CLASSIC_MOBILITY, CLASSIC_NWEIGHTS };
extern int classic_weight[CLASSIC_NWEIGHTS];
extern const int classic_weight_default[CLASSIC_NWEIGHTS];

#endif
