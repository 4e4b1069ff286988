/* tt.h - the shared transposition table: 64-byte buckets of four entries,
 * lock-free (each entry's key is stored xor-ed with its data). */
#ifndef HEXE_TT_H
#define HEXE_TT_H

#include <stddef.h>

#include "types.h"

enum { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

typedef struct {
    Move move;
    int score, eval, depth, bound;
} TTHit;

/* Both clear the table with up to nthreads threads (the search's Threads). */
bool tt_resize(size_t mb, int nthreads); /* false (old table kept) when memory is short */
void tt_clear(int nthreads);
void tt_free(void);
void tt_new_search(void);   /* advances the age */
bool tt_probe(uint64_t key, TTHit *hit);
void tt_prefetch(uint64_t key); /* starts loading key's bucket into the cache */
void tt_store(uint64_t key, Move move, int score, int eval, int depth, int bound);
int tt_hashfull(void);      /* per mille of entries used by the current search */
size_t tt_size_mb(void);

#endif
