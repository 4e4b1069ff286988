/* tt.c - the transposition table. Entries pack move, score, static eval, depth,
 * bound and age into 64 bits; the stored key is key ^ data, so a torn write
 * between threads reads back as a miss. */
#include "tt.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    _Atomic uint64_t keyx;
    _Atomic uint64_t data;
} Entry;

#define BUCKET 4
typedef struct {
    Entry e[BUCKET];
} Bucket;

static Bucket *table;
static size_t nbuckets;
static size_t table_mb;
static uint8_t age; /* 6 bits */

/* data: move 16 | score 16 | eval 16 | depth 8 | bound 2 + age 6 */
static inline uint64_t pack(Move m, int score, int eval, int depth, int bound)
{
    return (uint64_t)m | (uint64_t)(uint16_t)(int16_t)score << 16 | (uint64_t)(uint16_t)(int16_t)eval << 32 |
           (uint64_t)(uint8_t)depth << 48 | (uint64_t)(bound | age << 2) << 56;
}

static inline int d_depth(uint64_t d) { return (uint8_t)(d >> 48); }
static inline int d_age(uint64_t d) { return (int)(d >> 58); }

bool tt_resize(size_t mb)
{
    if (mb < 1)
        mb = 1;
    size_t n = mb * 1024 * 1024 / sizeof(Bucket);
    Bucket *t = aligned_alloc(64, n * sizeof(Bucket));
    if (!t)
        return false;
    free(table);
    table = t;
    nbuckets = n;
    table_mb = mb;
    tt_clear();
    return true;
}

size_t tt_size_mb(void) { return table_mb; }

void tt_clear(void)
{
    memset(table, 0, nbuckets * sizeof(Bucket));
    age = 0;
}

void tt_free(void)
{
    free(table);
    table = NULL;
    nbuckets = 0;
}

void tt_new_search(void) { age = (age + 1) & 63; }

static inline Bucket *bucket_of(uint64_t key)
{
    return &table[(size_t)(((unsigned __int128)key * nbuckets) >> 64)];
}

void tt_prefetch(uint64_t key) { __builtin_prefetch(bucket_of(key)); }

bool tt_probe(uint64_t key, TTHit *hit)
{
    Bucket *b = bucket_of(key);
    for (int i = 0; i < BUCKET; i++) {
        uint64_t d = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
        uint64_t k = atomic_load_explicit(&b->e[i].keyx, memory_order_relaxed);
        if ((k ^ d) != key || !d)
            continue;
        hit->move = (Move)d;
        hit->score = (int16_t)(d >> 16);
        hit->eval = (int16_t)(d >> 32);
        hit->depth = d_depth(d);
        hit->bound = (int)(d >> 56) & 3;
        return true;
    }
    return false;
}

void tt_store(uint64_t key, Move move, int score, int eval, int depth, int bound)
{
    Bucket *b = bucket_of(key);
    Entry *slot = &b->e[0];
    int worst = 1 << 30;
    for (int i = 0; i < BUCKET; i++) {
        uint64_t d = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
        uint64_t k = atomic_load_explicit(&b->e[i].keyx, memory_order_relaxed);
        if ((k ^ d) == key && d) {
            /* Same position: keep the old move when there is no new one, and
             * keep deeper results unless this one is exact or the old is stale. */
            if (!move)
                move = (Move)d;
            if (bound != BOUND_EXACT && depth + 3 < d_depth(d) && d_age(d) == age)
                return;
            slot = &b->e[i];
            break;
        }
        /* Otherwise replace the shallowest, oldest entry. */
        int value = d ? d_depth(d) - 8 * ((age - d_age(d)) & 63) : -1000;
        if (value < worst) {
            worst = value;
            slot = &b->e[i];
        }
    }
    if (depth < 0)
        depth = 0;
    uint64_t d = pack(move, score, eval, depth, bound);
    atomic_store_explicit(&slot->data, d, memory_order_relaxed);
    atomic_store_explicit(&slot->keyx, key ^ d, memory_order_relaxed);
}

int tt_hashfull(void)
{
    int used = 0;
    size_t n = nbuckets < 250 ? nbuckets : 250;
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < BUCKET; j++) {
            uint64_t d = atomic_load_explicit(&table[i].e[j].data, memory_order_relaxed);
            if (d && d_age(d) == age)
                used++;
        }
    return n ? (int)(used * 1000 / (n * BUCKET)) : 0;
}
