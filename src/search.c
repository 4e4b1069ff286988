/* search.c - iterative deepening, aspiration windows, principal variation
 * search and quiescence, run by one or more threads (Lazy SMP: they share the
 * transposition table; the main thread decides and reports). */
#include "search.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eval.h"
#include "fen.h"
#include "movegen.h"
#include "see.h"
#include "strength.h"
#include "timeman.h"
#include "tt.h"
#include "uci.h"

SearchOptions search_options = {
    .threads = 1,
    .multipv = 1,
    .move_overhead = 10,
    .skill = 20,
    .elo = 3000,
    .syzygy_probe_depth = 1,
    .syzygy_probe_limit = 5,
    .syzygy_50_move_rule = true,
};

typedef struct {
    Move move;
    int score, prev_score;
    int seldepth;
    uint64_t nodes; /* spent below this move, all iterations (time management) */
    bool bound_lower, bound_upper;
    int pvlen;
    Move pv[MAX_PLY + 1];
} RootMove;

typedef struct {
    int eval;
    Move move;
    int moved_piece;
    Move excluded; /* the move a singular-extension search leaves out */
    int double_ext; /* double extensions on the path to this node */
} Stack;

/* Correction history: how far the search result of a position has come out
 * from its static evaluation, averaged over positions with the same pawns. */
#define CORR_SIZE 16384
#define CORR_GRAIN 256
#define CORR_LIMIT (64 * CORR_GRAIN)
/* Static evaluations of positions met lately (their TT entry gone or never
 * made): about a fifth of the calls in the bench repeat one of these. */
#define EVAL_CACHE_SIZE 65536

typedef struct Thread {
    int id;
    pthread_t handle;
    bool started; /* a helper whose pthread_create succeeded, to be joined */
    unsigned generation; /* a helper: the last search it was woken for */
    Position pos;
    _Atomic uint64_t nodes, tbhits;
    int seldepth;
    int root_depth, completed_depth;
    int pv_idx;
    int nroot;
    RootMove root[MAX_MOVES];
    Stack stack[MAX_PLY + 4];
    Move killers[MAX_PLY + 2][2];
    Move counter[16][128];
    int16_t history[2][64][64];
    int16_t cont[16][64][16][64]; /* continuation history: [earlier piece][its to][piece][to] */
    int16_t capt[16][64][8];      /* capture history: [piece][to][captured type] */
    int32_t corr[2][CORR_SIZE];   /* static-eval correction by pawn structure, in 1/CORR_GRAIN cp */
    uint64_t eval_cache[EVAL_CACHE_SIZE]; /* key's upper 48 bits | the evaluation (16 bits); 0: empty */
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pvlen[MAX_PLY + 1];
} Thread;

/* ---- Shared state ---- */

static Thread **threads;
static int nthreads;
static Limits limits;
static TimePlan plan;
static _Atomic int64_t start_time;
static atomic_bool stop_flag;  /* the search threads end (asked, or a limit reached) */
static atomic_bool stop_asked; /* the host sent stop (or quit) */
static atomic_bool pondering;
static atomic_bool running;
/* go depth N: the first helper to complete depth N (-1: none yet). Its
 * answer is as deep as asked, so the search ends and it is reported. */
static atomic_int depth_finisher = -1;
static pthread_t main_handle;
static pthread_mutex_t run_lock = PTHREAD_MUTEX_INITIALIZER;
static bool quiet_output; /* bench: no info lines */
static int lmr_table[64][64];
static TbRootResult tb_root; /* the root's tablebase verdict for this search */
static bool tb_root_ok;

int tb_probe_limit(void)
{
    int largest = tb_max_pieces();
    return search_options.syzygy_probe_limit < largest ? search_options.syzygy_probe_limit : largest;
}

static inline void count_node(_Atomic uint64_t *c)
{
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1, memory_order_relaxed);
}

static uint64_t total_nodes(void)
{
    uint64_t n = 0;
    for (int i = 0; i < nthreads; i++)
        n += atomic_load_explicit(&threads[i]->nodes, memory_order_relaxed);
    return n;
}

static uint64_t total_tbhits(void)
{
    uint64_t n = 0;
    for (int i = 0; i < nthreads; i++)
        n += atomic_load_explicit(&threads[i]->tbhits, memory_order_relaxed);
    return n;
}

void limits_init(Limits *lim)
{
    memset(lim, 0, sizeof *lim);
    lim->time[0] = lim->time[1] = NO_TIME;
    lim->inc[0] = lim->inc[1] = NO_TIME;
    lim->movetime = -1;
}

/* ---- Scores ---- */

/* Mate and tablebase scores count plies from the root; the TT stores them
 * counted from the node. */
static int score_to_tt(int s, int ply)
{
    if (s >= TB_WIN_BOUND)
        return s + ply;
    if (s <= -TB_WIN_BOUND)
        return s - ply;
    return s;
}

static int score_from_tt(int s, int ply)
{
    if (s >= TB_WIN_BOUND)
        return s - ply;
    if (s <= -TB_WIN_BOUND)
        return s + ply;
    return s;
}

/* UCI_ShowWDL: win/draw/loss per mille for a score, from a logistic model
 * fitted on Hexe's own self-play games by scripts/fit-wdl (docs/tuning.md):
 * P(win) = 1 / (1 + exp(-(s - WDL_A) / WDL_B)), P(loss) likewise for -s. */
#define WDL_A 125
#define WDL_B 101
static void wdl_of(int s, int *w, int *d, int *l)
{
    if (s >= TB_WIN_BOUND || s <= -TB_WIN_BOUND) {
        *w = s > 0 ? 1000 : 0;
        *l = s > 0 ? 0 : 1000;
        *d = 0;
        return;
    }
    *w = (int)lround(1000.0 / (1.0 + exp(-(s - WDL_A) / (double)WDL_B)));
    *l = (int)lround(1000.0 / (1.0 + exp(-(-s - WDL_A) / (double)WDL_B)));
    *d = 1000 - *w - *l;
}

static void format_score(int s, char *buf, size_t n)
{
    if (s >= MATE_IN_MAX)
        snprintf(buf, n, "mate %d", (MATE - s + 1) / 2);
    else if (s <= -MATE_IN_MAX)
        snprintf(buf, n, "mate %d", -(MATE + s) / 2);
    else
        snprintf(buf, n, "cp %d", s);
    if (search_options.show_wdl) {
        int w, d, l;
        wdl_of(s, &w, &d, &l);
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, " wdl %d %d %d", w, d, l);
    }
}

/* ---- Draws ---- */

static bool is_draw(const Position *pos)
{
    if (pos->halfmove >= 100)
        return true;
    return is_repetition(pos, 1) || insufficient_material(pos);
}

static bool has_non_pawn_material(const Position *pos, int side) { return pos->npieces[side] > 1; }

/* The helper threads live in a pool: created when the thread count
 * changes, parked between searches. A search wakes them once the main
 * thread has completed depth 1 (or at its end, to find the stop at once).
 * Created one by one at every go while the others already searched, they
 * starved the main thread on few cores: with Threads 256 on 2 cores a
 * movetime of 200 ms took 19-51 s, most of it in pthread_create. */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_wake = PTHREAD_COND_INITIALIZER; /* a new search, or quit */
static pthread_cond_t pool_idle = PTHREAD_COND_INITIALIZER; /* the last helper is done */
static unsigned pool_generation; /* counts the searches the helpers were woken for */
static bool pool_quit, pool_released;
static int pool_busy; /* helpers still searching */

/* Wakes the parked helpers for this search (once per search). */
static void release_helpers(void)
{
    pthread_mutex_lock(&pool_lock);
    if (!pool_released) {
        pool_released = true;
        pool_busy = 0;
        for (int i = 1; i < nthreads; i++)
            pool_busy += threads[i]->started;
        pool_generation++;
        pthread_cond_broadcast(&pool_wake);
    }
    pthread_mutex_unlock(&pool_lock);
}

/* Waits until every helper woken for this search has stopped. */
static void wait_helpers(void)
{
    pthread_mutex_lock(&pool_lock);
    while (pool_busy > 0)
        pthread_cond_wait(&pool_idle, &pool_lock);
    pool_released = false;
    pthread_mutex_unlock(&pool_lock);
}

/* ---- Time and stop checks ---- */

/* Every thread watches the clock: with many threads on few cores the main
 * thread may get little CPU time, and the hard limit must hold all the
 * same. The node limit is the main thread's. */
static void check_time(Thread *t)
{
    if (atomic_load_explicit(&pondering, memory_order_relaxed))
        return;
    uint64_t n = atomic_load_explicit(&t->nodes, memory_order_relaxed);
    /* A node limit (go nodes, a strength level's budget) is kept to the node
     * when alone, to 64 nodes with helpers, once depth 1 has given a move. */
    if (t->id == 0 && limits.nodes && t->completed_depth > 0 && (nthreads == 1 || !(n & 63)) &&
        total_nodes() >= limits.nodes)
        atomic_store(&stop_flag, true);
    if (n & 1023)
        return;
    if (plan.hard >= 0 && now_ms() - start_time >= plan.hard)
        atomic_store(&stop_flag, true);
    if (atomic_load_explicit(&depth_finisher, memory_order_relaxed) >= 0)
        atomic_store(&stop_flag, true);
}

static inline bool stopped(void) { return atomic_load_explicit(&stop_flag, memory_order_relaxed); }

/* ---- Move ordering ---- */

static const int mvv[8] = {0, 100, 320, 330, 500, 950, 0, 0};

enum {
    SCORE_TT = 30000000,
    SCORE_GOOD_CAPTURE = 20000000,
    SCORE_KILLER1 = 10000002,
    SCORE_KILLER2 = 10000001,
    SCORE_COUNTER = 10000000,
    SCORE_BAD_CAPTURE = -20000000,
};

static inline bool is_capture(const Position *pos, Move m)
{
    return MOVE_KIND(m) == MK_EP || (MOVE_KIND(m) != MK_CASTLE && pos->board[MOVE_TO(m)] != EMPTY);
}

/* SEE >= 0 without the exchange when the victim is worth at least the
 * attacker (a legal king capture never loses its king either). */
static inline bool capture_not_losing(const Position *pos, Move m, int victim)
{
    int attacker = PTYPE(pos->board[MOVE_FROM(m)]);
    return mvv[victim] >= mvv[attacker] || see_ge(pos, m, 0);
}

/* The type of the piece a move takes (NO_TYPE for none). */
static inline int captured_type(const Position *pos, Move m)
{
    return MOVE_KIND(m) == MK_EP ? PAWN : MOVE_KIND(m) == MK_CASTLE ? NO_TYPE : PTYPE(pos->board[MOVE_TO(m)]);
}

static inline bool is_quiet(const Position *pos, Move m)
{
    return !is_capture(pos, m) && MOVE_KIND(m) != MK_PROMO;
}

/* The entry of the move `back` plies before this node, or NULL when there is
 * no such move (the root's first plies, a null move). */
static inline const Stack *earlier_move(const Thread *t, int ply, int back)
{
    if (ply < back)
        return NULL;
    const Stack *prev = &t->stack[ply - back];
    return prev->move == MOVE_NONE || prev->move == MOVE_NULL ? NULL : prev;
}

/* The continuation-history row of the move `back` plies before this node. */
static inline int16_t *cont_row(Thread *t, int ply, int back)
{
    const Stack *prev = earlier_move(t, ply, back);
    return prev ? t->cont[prev->moved_piece][SQ64(MOVE_TO(prev->move))][0] : NULL;
}

/* A quiet move's column in a continuation-history row. */
static inline int cont_index(const Position *pos, Move m)
{
    return pos->board[MOVE_FROM(m)] * 64 + SQ64(MOVE_TO(m));
}

/* A capture's (or promotion's) capture-history entry. */
static inline int16_t *capt_entry(Thread *t, const Position *pos, Move m)
{
    return &t->capt[pos->board[MOVE_FROM(m)]][SQ64(MOVE_TO(m))][captured_type(pos, m)];
}

/* The correction-history entry of this side to move and pawn structure. */
static inline int32_t *corr_entry(Thread *t, const Position *pos)
{
    return &t->corr[pos->side][pos->pawn_key & (CORR_SIZE - 1)];
}

/* The evaluator's score, from the thread's cache when the position was
 * evaluated lately. The result is the evaluator's own, so the tree is the same. */
static inline uint64_t *eval_cache_entry(Thread *t, uint64_t key) { return &t->eval_cache[key & (EVAL_CACHE_SIZE - 1)]; }

static int cached_eval(Thread *t, const Position *pos)
{
    uint64_t *e = eval_cache_entry(t, pos->key);
    uint64_t hi = pos->key & ~(uint64_t)0xFFFF;
    if (*e && (*e & ~(uint64_t)0xFFFF) == hi)
        return (int16_t)(*e & 0xFFFF);
    int s = evaluate(pos);
    if (s >= INT16_MIN && s <= INT16_MAX)
        *e = hi | (uint16_t)s;
    return s;
}

/* Right after a move: the child's TT bucket and eval-cache entry start on
 * their way into the cache while the move's bookkeeping goes on. */
static inline void prefetch_child(Thread *t, const Position *pos)
{
    tt_prefetch(pos->key);
    __builtin_prefetch(eval_cache_entry(t, pos->key));
}

/* The static evaluation corrected by the pawn structure's history, kept off
 * the tablebase and mate range. */
static int corrected_eval(Thread *t, const Position *pos, int raw)
{
    int e = raw + *corr_entry(t, pos) / CORR_GRAIN;
    return e >= TB_WIN_BOUND ? TB_WIN_BOUND - 1 : e <= -TB_WIN_BOUND ? -TB_WIN_BOUND + 1 : e;
}

/* Moves the correction towards the search result `best` of a node searched
 * `depth` deep whose static evaluation was `raw`. */
static void update_correction(Thread *t, const Position *pos, int raw, int best, int depth)
{
    int32_t *c = corr_entry(t, pos);
    int w = depth + 1 < 16 ? depth + 1 : 16;
    int64_t v = ((int64_t)*c * (256 - w) + (int64_t)(best - raw) * CORR_GRAIN * w) / 256;
    *c = (int32_t)(v > CORR_LIMIT ? CORR_LIMIT : v < -CORR_LIMIT ? -CORR_LIMIT : v);
}

static void score_moves(Thread *t, const Position *pos, const MoveList *l, int *scores, Move ttm,
                        int ply, bool qs)
{
    Move k1 = t->killers[ply][0], k2 = t->killers[ply][1];
    const Stack *prev = earlier_move(t, ply, 1);
    Move cm = prev ? t->counter[prev->moved_piece][MOVE_TO(prev->move)] : MOVE_NONE;
    /* The continuation histories of the moves one and two plies before. */
    const int16_t *c1 = cont_row(t, ply, 1), *c2 = cont_row(t, ply, 2);
    for (int i = 0; i < l->count; i++) {
        Move m = l->moves[i];
        if (m == ttm) {
            scores[i] = SCORE_TT;
            continue;
        }
        if (!is_quiet(pos, m)) {
            int victim = captured_type(pos, m);
            int attacker = PTYPE(pos->board[MOVE_FROM(m)]);
            int s = mvv[victim] * 16 - attacker + *capt_entry(t, pos, m) / 16;
            if (MOVE_KIND(m) == MK_PROMO)
                s += MOVE_PROMO(m) == QUEEN ? 16 * 900 : -16 * 1000;
            bool good = qs || capture_not_losing(pos, m, victim);
            scores[i] = (good ? SCORE_GOOD_CAPTURE : SCORE_BAD_CAPTURE) + s;
        } else if (m == k1) {
            scores[i] = SCORE_KILLER1;
        } else if (m == k2) {
            scores[i] = SCORE_KILLER2;
        } else if (m == cm) {
            scores[i] = SCORE_COUNTER;
        } else {
            int idx = cont_index(pos, m);
            scores[i] = t->history[pos->side][SQ64(MOVE_FROM(m))][SQ64(MOVE_TO(m))] + (c1 ? c1[idx] : 0) +
                        (c2 ? c2[idx] : 0);
        }
    }
}

/* Selection sort step: brings the best remaining move to position i. */
static inline Move pick_move(MoveList *l, int *scores, int i)
{
    int best = i;
    for (int j = i + 1; j < l->count; j++)
        if (scores[j] > scores[best])
            best = j;
    Move m = l->moves[best];
    int s = scores[best];
    l->moves[best] = l->moves[i];
    scores[best] = scores[i];
    l->moves[i] = m;
    scores[i] = s;
    return m;
}

static void update_history(int16_t *h, int bonus)
{
    *h += (int16_t)(bonus - *h * abs(bonus) / 16384);
}

/* A quiet move's history and continuation histories (rows c1, c2 if any). */
static void update_quiet_history(Thread *t, const Position *pos, Move m, int bonus, int16_t *c1, int16_t *c2)
{
    int idx = cont_index(pos, m);
    update_history(&t->history[pos->side][SQ64(MOVE_FROM(m))][SQ64(MOVE_TO(m))], bonus);
    if (c1)
        update_history(&c1[idx], bonus);
    if (c2)
        update_history(&c2[idx], bonus);
}

/* The moves a node tried before its best, for the history updates. */
typedef struct {
    int nquiets, ncaptures;
    Move quiets[MAX_MOVES], captures[MAX_MOVES];
} Tried;

/* A beta cutoff by `best`: its history (quiet or capture) gains, the moves
 * tried before it lose; a quiet best move also becomes a killer and the
 * counter move to the previous move. */
static void update_cutoff_stats(Thread *t, const Position *pos, Move best, int ply, int depth, const Tried *tried)
{
    int bonus = 8 * (depth * depth > 1200 ? 1200 : depth * (depth + 8));
    if (is_quiet(pos, best)) {
        int16_t *c1 = cont_row(t, ply, 1), *c2 = cont_row(t, ply, 2);
        update_quiet_history(t, pos, best, bonus, c1, c2);
        for (int i = 0; i < tried->nquiets; i++)
            if (tried->quiets[i] != best)
                update_quiet_history(t, pos, tried->quiets[i], -bonus, c1, c2);
        if (t->killers[ply][0] != best) {
            t->killers[ply][1] = t->killers[ply][0];
            t->killers[ply][0] = best;
        }
        const Stack *prev = earlier_move(t, ply, 1);
        if (prev)
            t->counter[prev->moved_piece][MOVE_TO(prev->move)] = best;
    } else {
        update_history(capt_entry(t, pos, best), bonus);
    }
    for (int i = 0; i < tried->ncaptures; i++)
        if (tried->captures[i] != best)
            update_history(capt_entry(t, pos, tried->captures[i]), -bonus);
}

/* Whether a score with this bound settles the node for the window. */
static inline bool bound_cuts(int bound, int s, int alpha, int beta)
{
    return bound == BOUND_EXACT || (bound == BOUND_LOWER && s >= beta) || (bound == BOUND_UPPER && s <= alpha);
}

/* The PV of this node: m, then the child's PV. */
static inline void update_pv(Thread *t, int ply, Move m)
{
    t->pv[ply][ply] = m;
    int n = t->pvlen[ply + 1] > ply + 1 ? t->pvlen[ply + 1] : ply + 1;
    for (int j = ply + 1; j < n; j++)
        t->pv[ply][j] = t->pv[ply + 1][j];
    t->pvlen[ply] = n;
}

/* ---- Quiescence ---- */

static int qsearch(Thread *t, int alpha, int beta, int ply)
{
    Position *pos = &t->pos;
    count_node(&t->nodes);
    check_time(t);
    t->pvlen[ply] = ply;
    if (ply > t->seldepth)
        t->seldepth = ply;
    if (stopped())
        return 0;
    if (is_draw(pos))
        return 0;
    bool check = in_check(pos);
    if (ply >= MAX_PLY - 1)
        return check ? 0 : evaluate(pos);

    bool pv = beta - alpha > 1;
    TTHit hit = {0};
    Move ttm = MOVE_NONE;
    bool tthit = tt_probe(pos->key, &hit);
    if (tthit) {
        ttm = hit.move;
        int s = score_from_tt(hit.score, ply);
        if (!pv && bound_cuts(hit.bound, s, alpha, beta))
            return s;
    }

    int best, eval = -INF, raw_eval = -INF;
    MoveList l;
    if (check) {
        best = -MATE + ply;
        gen_legal(pos, &l);
        if (l.count == 0)
            return best;
    } else {
        raw_eval = tthit && hit.eval != -INF ? hit.eval : cached_eval(t, pos);
        eval = best = corrected_eval(t, pos, raw_eval);
        if (best >= beta)
            return best;
        if (best > alpha)
            alpha = best;
        gen_noisy(pos, &l);
    }

    int scores[MAX_MOVES];
    score_moves(t, pos, &l, scores, ttm, ply, !check);
    Move best_move = MOVE_NONE;
    int old_alpha = alpha;
    for (int i = 0; i < l.count; i++) {
        Move m = pick_move(&l, scores, i);
        if (!check) {
            if (MOVE_KIND(m) == MK_PROMO && MOVE_PROMO(m) != QUEEN)
                continue;
            int victim = captured_type(pos, m);
            if (MOVE_KIND(m) != MK_PROMO && eval + mvv[victim] + 200 <= alpha)
                continue; /* delta pruning */
            if (!capture_not_losing(pos, m, victim))
                continue;
        }
        t->stack[ply].move = m;
        t->stack[ply].moved_piece = pos->board[MOVE_FROM(m)];
        make_move(pos, m);
        prefetch_child(t, pos);
        int s = -qsearch(t, -beta, -alpha, ply + 1);
        unmake_move(pos);
        if (stopped())
            return 0;
        if (s > best) {
            best = s;
            if (s > alpha) {
                alpha = s;
                best_move = m;
                update_pv(t, ply, m);
                if (s >= beta)
                    break;
            }
        }
    }
    int bound = best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(pos->key, best_move, score_to_tt(best, ply), raw_eval, 0, bound);
    return best;
}

/* ---- Main search ---- */

static int search(Thread *t, int alpha, int beta, int depth, int ply, bool cutnode)
{
    Position *pos = &t->pos;
    bool root = ply == 0;
    bool pv = beta - alpha > 1;
    Move excluded = t->stack[ply].excluded;

    if (depth <= 0)
        return qsearch(t, alpha, beta, ply);

    /* 1. Node bookkeeping, stop, draws, mate distance. */
    count_node(&t->nodes);
    check_time(t);
    t->pvlen[ply] = ply;
    if (ply > t->seldepth)
        t->seldepth = ply;
    if (!root) {
        if (stopped())
            return 0;
        if (is_draw(pos))
            return 0;
        if (ply >= MAX_PLY - 1)
            return in_check(pos) ? 0 : evaluate(pos);
        int mated = -MATE + ply;
        if (alpha < mated)
            alpha = mated;
        if (beta > MATE - ply - 1)
            beta = MATE - ply - 1;
        if (alpha >= beta)
            return alpha;
    }

    /* 2. Probe the transposition table. */
    TTHit hit = {0};
    bool tthit = tt_probe(pos->key, &hit);
    Move ttm = tthit ? hit.move : MOVE_NONE;
    int ttscore = tthit ? score_from_tt(hit.score, ply) : 0;
    if (root && t->nroot)
        ttm = t->root[t->pv_idx].move;
    if (!pv && !excluded && tthit && hit.depth >= depth &&
        bound_cuts(hit.bound, ttscore, alpha, beta)) {
        if (ttm != MOVE_NONE && ttscore >= beta && is_quiet(pos, ttm)) {
            static const Tried none;
            update_cutoff_stats(t, pos, ttm, ply, depth, &none);
        }
        return ttscore;
    }

    /* 3. Probe the tablebases right after a capture or pawn move. */
    int npieces = pos->npieces[0] + pos->npieces[1] + pos->npawns[0] + pos->npawns[1];
    int tb_limit = tb_probe_limit();
    if (!root && !excluded && pos->halfmove == 0 && !pos->castle && npieces <= tb_limit &&
        (depth >= search_options.syzygy_probe_depth || npieces < tb_limit)) {
        int wdl = tb_probe_wdl_pos(pos);
        if (wdl >= 0) {
            count_node(&t->tbhits);
            int s = tb_wdl_score(wdl, ply, search_options.syzygy_50_move_rule);
            int bound = s > 0 ? BOUND_LOWER : s < 0 ? BOUND_UPPER : BOUND_EXACT;
            if (bound_cuts(bound, s, alpha, beta)) {
                tt_store(pos->key, MOVE_NONE, score_to_tt(s, ply), -INF, MAX_PLY, bound);
                return s;
            }
        }
    }

    /* 4. Static evaluation. */
    bool check = in_check(pos);
    int eval = -INF, raw_eval = -INF;
    if (!check) {
        raw_eval = tthit && hit.eval != -INF ? hit.eval : cached_eval(t, pos);
        eval = corrected_eval(t, pos, raw_eval);
    }
    t->stack[ply].eval = eval;
    bool improving = !check && ply >= 2 && eval > t->stack[ply - 2].eval;
    /* A TT score with the right bound is a better guess than the static eval. */
    int guess = eval;
    if (!check && tthit &&
        (hit.bound == BOUND_EXACT || (hit.bound == BOUND_LOWER && ttscore > eval) ||
         (hit.bound == BOUND_UPPER && ttscore < eval)))
        guess = ttscore;

    t->killers[ply + 1][0] = t->killers[ply + 1][1] = MOVE_NONE;

    if (!pv && !check) {
        /* 5. Reverse futility pruning. */
        if (depth <= 8 && guess - 75 * (depth - improving) >= beta && abs(beta) < TB_WIN_BOUND)
            return guess;

        /* 6. Null move, with a zugzwang guard (only with pieces besides pawns). */
        if (depth >= 3 && !excluded && guess >= beta && eval >= beta && has_non_pawn_material(pos, pos->side) &&
            ply > 0 && t->stack[ply - 1].move != MOVE_NULL && abs(beta) < TB_WIN_BOUND) {
            int r = 3 + depth / 4 + ((guess - beta) / 200 < 3 ? (guess - beta) / 200 : 3);
            t->stack[ply].move = MOVE_NULL;
            t->stack[ply].moved_piece = 0;
            make_null(pos);
            prefetch_child(t, pos);
            int s = -search(t, -beta, -beta + 1, depth - 1 - r, ply + 1, !cutnode);
            unmake_null(pos);
            if (stopped())
                return 0;
            if (s >= beta)
                return s >= TB_WIN_BOUND ? beta : s;
        }
    }

    /* 7. Internal iterative reduction: no move to try first, search less deep. */
    if (depth >= 4 && ttm == MOVE_NONE && (pv || cutnode))
        depth--;

    /* 8. The move loop. */
    MoveList l;
    if (root) {
        l.count = 0;
        for (int i = t->pv_idx; i < t->nroot; i++)
            l.moves[l.count++] = t->root[i].move;
    } else {
        gen_legal(pos, &l);
    }
    if (l.count == 0)
        return check ? -MATE + ply : 0;

    int scores[MAX_MOVES];
    score_moves(t, pos, &l, scores, ttm, ply, false);
    if (root)
        for (int i = 0; i < l.count; i++) /* keep the previous iteration's order */
            scores[i] = l.count - i + (l.moves[i] == ttm ? SCORE_TT : 0);

    int best = -INF, old_alpha = alpha, moves_tried = 0;
    Move best_move = MOVE_NONE;
    Tried tried;
    tried.nquiets = tried.ncaptures = 0;
    bool skip_quiets = false;

    for (int i = 0; i < l.count; i++) {
        Move m = pick_move(&l, scores, i);
        if (m == excluded)
            continue;
        bool quiet = is_quiet(pos, m);
        if (quiet && skip_quiets)
            continue;

        /* 9. Pruning at shallow depth. */
        if (!root && best > -TB_WIN_BOUND && has_non_pawn_material(pos, pos->side)) {
            if (quiet) {
                if (depth <= 6 && tried.nquiets >= (3 + depth * depth) / (2 - improving)) {
                    skip_quiets = true;
                    continue;
                }
                if (!check && depth <= 4 && scores[i] < -3000 * depth)
                    continue; /* history pruning */
                if (!check && depth <= 7 && eval + 100 + 90 * depth <= alpha && scores[i] < SCORE_COUNTER)
                    continue;
                if (depth <= 7 && !see_ge(pos, m, -40 * depth))
                    continue;
            } else if (depth <= 6 && scores[i] < 0 && !see_ge(pos, m, -90 * depth)) {
                continue;
            }
        }

        if (root && t->id == 0 && !quiet_output && now_ms() - start_time > 1000) {
            char b[8];
            uci_send("info depth %d currmove %s currmovenumber %d", depth,
                     move_to_uci(m, pos->chess960, b), t->pv_idx + i + 1);
        }

        /* 10. Singular extension: the TT move is searched a ply deeper when
         * every other move falls well short of its score; when even without
         * it the node fails high, it is cut at once (multi-cut). */
        int extension = 0;
        if (!root && m == ttm && !excluded && depth >= 8 && hit.depth >= depth - 3 &&
            hit.bound != BOUND_UPPER && abs(ttscore) < TB_WIN_BOUND && ply < 2 * t->root_depth) {
            int sbeta = ttscore - 2 * depth;
            t->stack[ply].excluded = m;
            int s = search(t, sbeta - 1, sbeta, (depth - 1) / 2, ply, cutnode);
            t->stack[ply].excluded = MOVE_NONE;
            t->pvlen[ply] = ply;
            if (stopped())
                return 0;
            if (s < sbeta) {
                extension = 1;
                /* Far short: two plies, a bounded number of times per path. */
                if (!pv && s < sbeta - 25 && t->stack[ply].double_ext < 6)
                    extension = 2;
            } else if (sbeta >= beta) {
                return sbeta;
            } else if (ttscore >= beta) {
                extension = -1; /* another move fails high too: the TT move is less special */
            }
        }

        uint64_t nodes_before = root ? atomic_load_explicit(&t->nodes, memory_order_relaxed) : 0;
        t->stack[ply].move = m;
        t->stack[ply].moved_piece = pos->board[MOVE_FROM(m)];
        make_move(pos, m);
        prefetch_child(t, pos);
        moves_tried++;
        if (quiet)
            tried.quiets[tried.nquiets++] = m;
        else
            tried.captures[tried.ncaptures++] = m;
        bool gives_check = in_check(pos);

        /* 11. Extensions: a singular move, a move that gives check. */
        if (extension == 0 && gives_check && ply < 2 * t->root_depth + 4)
            extension = 1;
        t->stack[ply + 1].double_ext = t->stack[ply].double_ext + (extension == 2);
        int new_depth = depth - 1 + extension;
        int s;
        if (moves_tried == 1) {
            s = -search(t, -beta, -alpha, new_depth, ply + 1, false);
        } else {
            /* 12. Late move reductions. */
            int r = 0;
            if (depth >= 3 && moves_tried > 1 + 2 * pv && (quiet || scores[i] < 0)) {
                r = lmr_table[depth < 63 ? depth : 63][moves_tried < 63 ? moves_tried : 63];
                r -= pv;
                r += cutnode;
                r += !improving;
                r -= gives_check;
                if (quiet)
                    r -= scores[i] >= SCORE_COUNTER ? 1 : scores[i] / 10000;
                if (r < 0)
                    r = 0;
                if (r > new_depth - 1)
                    r = new_depth - 1 > 0 ? new_depth - 1 : 0;
            }
            s = -search(t, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
            if (s > alpha && r > 0)
                s = -search(t, -alpha - 1, -alpha, new_depth, ply + 1, !cutnode);
            if (s > alpha && s < beta && pv)
                s = -search(t, -beta, -alpha, new_depth, ply + 1, false);
        }
        unmake_move(pos);
        if (stopped())
            return 0;

        if (root) {
            RootMove *rm = NULL;
            for (int k = t->pv_idx; k < t->nroot; k++)
                if (t->root[k].move == m)
                    rm = &t->root[k];
            rm->nodes += atomic_load_explicit(&t->nodes, memory_order_relaxed) - nodes_before;
            if (moves_tried == 1 || s > alpha) {
                rm->score = s;
                rm->seldepth = t->seldepth;
                rm->bound_lower = s >= beta;
                rm->bound_upper = false;
                rm->pv[0] = m;
                rm->pvlen = 1;
                for (int j = 1; j < t->pvlen[1] && j < MAX_PLY; j++)
                    rm->pv[rm->pvlen++] = t->pv[1][j];
                if (s <= alpha)
                    rm->bound_upper = true;
            } else {
                rm->score = -INF;
            }
        }

        if (s > best) {
            best = s;
            if (s > alpha) {
                best_move = m;
                alpha = s;
                update_pv(t, ply, m);
                if (s >= beta) {
                    update_cutoff_stats(t, pos, m, ply, depth, &tried);
                    break;
                }
            }
        }
    }

    if (moves_tried == 0) /* everything pruned: only possible with legal moves left */
        return alpha;

    /* 13. Store the result. */
    int bound = best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    if (!(root && t->pv_idx > 0) && !excluded) {
        tt_store(pos->key, best_move, score_to_tt(best, ply), raw_eval, depth, bound);
        /* 14. Correct the static evaluation where a quiet search settled it. */
        if (!check && abs(best) < TB_WIN_BOUND && (best_move == MOVE_NONE || is_quiet(pos, best_move)) &&
            !(bound == BOUND_LOWER && best <= eval) && !(bound == BOUND_UPPER && best >= eval))
            update_correction(t, pos, raw_eval, best, depth);
    }
    return best;
}

/* ---- Reporting ---- */

static void print_pv_line(Thread *t, int depth, int idx, int score, bool lower, bool upper, const RootMove *rm)
{
    char sc[64], b[8];
    /* A root in the tablebases shows their verdict until the search proves a mate. */
    if (tb_root_ok && abs(score) < MATE_IN_MAX && !lower && !upper)
        score = tb_root.result == TB_DRAW ? 0 : tb_root.score;
    format_score(score, sc, sizeof sc);
    int64_t elapsed = now_ms() - start_time;
    uint64_t nodes = total_nodes();
    uint64_t nps = elapsed > 0 ? nodes * 1000 / (uint64_t)elapsed : nodes * 1000;
    char line[8192];
    int n = snprintf(line, sizeof line,
                     "info depth %d seldepth %d multipv %d score %s%s nodes %llu nps %llu hashfull %d tbhits %llu "
                     "time %lld pv",
                     depth, rm->seldepth > depth ? rm->seldepth : depth, idx + 1, sc,
                     lower ? " lowerbound" : upper ? " upperbound" : "", (unsigned long long)nodes,
                     (unsigned long long)nps, tt_hashfull(), (unsigned long long)total_tbhits(), (long long)elapsed);
    for (int i = 0; i < rm->pvlen && n < (int)sizeof line - 8; i++)
        n += snprintf(line + n, sizeof line - (size_t)n, " %s", move_to_uci(rm->pv[i], t->pos.chess960, b));
    uci_send("%s", line);
}

/* Stable insertion sort of root moves [from, n) by score. */
static void sort_root(Thread *t, int from)
{
    for (int i = from + 1; i < t->nroot; i++) {
        RootMove tmp = t->root[i];
        int j = i - 1;
        while (j >= from && t->root[j].score < tmp.score) {
            t->root[j + 1] = t->root[j];
            j--;
        }
        t->root[j + 1] = tmp;
    }
}

/* The root move to play: the best, or for a weakened Hexe one of the best few. */
static const RootMove *choose_root_move(const Thread *t)
{
    int scores[STRENGTH_CHOICES], n = t->nroot < STRENGTH_CHOICES ? t->nroot : STRENGTH_CHOICES;
    for (int i = 0; i < n; i++)
        scores[i] = t->root[i].score;
    return &t->root[strength_pick(scores, n)];
}

/* ---- Iterative deepening ---- */

static void iterative_deepening(Thread *t)
{
    int max_depth = limits.depth > 0 && limits.depth < MAX_PLY - 4 ? limits.depth : MAX_PLY - 4;
    int shown = search_options.multipv;
    /* A weakened Hexe chooses among several moves: it needs their scores. */
    int multipv = strength_limited() && shown < STRENGTH_CHOICES ? STRENGTH_CHOICES : shown;
    if (multipv > t->nroot)
        multipv = t->nroot;
    if (shown > multipv)
        shown = multipv;
    Move last_best = MOVE_NONE;
    int stable = 0, last_score = -INF;
    if (multipv < 1)
        multipv = 1;

    for (int depth = 1 + (t->id & 1); depth <= max_depth; depth++) {
        t->root_depth = depth;
        for (int i = 0; i < t->nroot; i++)
            t->root[i].prev_score = t->root[i].score;

        for (t->pv_idx = 0; t->pv_idx < multipv; t->pv_idx++) {
            t->seldepth = 0;
            int prev = t->root[t->pv_idx].prev_score;
            int delta = 20, alpha = -INF, beta = INF;
            if (depth >= 5 && abs(prev) < TB_WIN_BOUND) {
                alpha = prev - delta > -INF ? prev - delta : -INF;
                beta = prev + delta < INF ? prev + delta : INF;
            }
            /* 1. Aspiration windows: widen on each failure. */
            for (;;) {
                int s = search(t, alpha, beta, depth, 0, false);
                if (stopped())
                    break;
                sort_root(t, t->pv_idx);
                if (s <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = s - delta > -INF ? s - delta : -INF;
                    if (t->id == 0 && !quiet_output && t->pv_idx < shown)
                        print_pv_line(t, depth, t->pv_idx, s, false, true, &t->root[t->pv_idx]);
                } else if (s >= beta) {
                    beta = s + delta < INF ? s + delta : INF;
                    if (t->id == 0 && !quiet_output && t->pv_idx < shown)
                        print_pv_line(t, depth, t->pv_idx, s, true, false, &t->root[t->pv_idx]);
                } else {
                    break;
                }
                delta += delta / 2 + 5;
            }
            sort_root(t, 0 + t->pv_idx);
            if (stopped())
                break;
        }
        if (stopped())
            break;
        t->completed_depth = depth;
        sort_root(t, 0);
        if (t->id == 0 && depth == 1 && nthreads > 1)
            release_helpers(); /* the helpers start now */

        if (t->id != 0) {
            int none = -1;
            if (depth == limits.depth)
                atomic_compare_exchange_strong(&depth_finisher, &none, t->id);
            continue;
        }
        if (!quiet_output)
            for (int i = 0; i < shown; i++)
                print_pv_line(t, depth, i, t->root[i].score, false, false, &t->root[i]);

        /* 2. Stop conditions checked between iterations (main thread). */
        int best_score = t->root[0].score;
        if (limits.mate > 0 && best_score >= MATE_IN_MAX && (MATE - best_score + 1) / 2 <= limits.mate)
            break;
        if (atomic_load(&pondering) || limits.infinite)
            continue;
        if ((limits.nodes && total_nodes() >= limits.nodes) ||
            (limits.soft_nodes && total_nodes() >= limits.soft_nodes))
            break;
        stable = t->root[0].move == last_best ? stable + 1 : 0;
        last_best = t->root[0].move;
        int fell_from = last_score;
        last_score = best_score;
        if (plan.soft >= 0 && !plan.fixed) {
            int64_t elapsed = now_ms() - start_time;
            if (t->nroot == 1 && depth >= 4)
                break; /* a forced move: answer quickly */
            /* Less time when the best move has stayed the same and takes most
             * of the effort, more when it changes or has rivals. */
            double scale = 1.3 - 0.1 * (stable < 6 ? stable : 6);
            uint64_t spent = atomic_load_explicit(&t->nodes, memory_order_relaxed);
            double best_share = spent ? (double)t->root[0].nodes / (double)spent : 1.0;
            double node_scale = (1.5 - best_share) * 1.35;
            scale *= node_scale < 1.5 ? node_scale : 1.5;
            /* More time when the score has just fallen. */
            if (fell_from != -INF && abs(best_score) < TB_WIN_BOUND) {
                int fall = fell_from - best_score;
                scale *= 1.0 + (fall <= 0 ? 0.0 : fall >= 100 ? 0.5 : fall / 200.0);
            }
            if (elapsed >= (int64_t)(plan.soft * scale))
                break;
        }
    }
}

/* ---- Threads ---- */

/* Tablebases at the root: only moves that keep the best result are searched;
 * when the position is won or lost and DTZ tables are there, only the move
 * that converts fastest (or resists longest). */
static void probe_root_tables(const Position *root)
{
    tb_root_ok = false;
    int npieces = root->npieces[0] + root->npieces[1] + root->npawns[0] + root->npawns[1];
    if (root->castle || npieces > tb_probe_limit() || limits.nsearchmoves)
        return;
    tb_root_ok = tb_probe_root_moves(root, search_options.syzygy_50_move_rule, &tb_root);
}

static bool tb_root_keeps(Move m)
{
    if (tb_root.result != TB_DRAW && tb_root.dtz_ok)
        return m == tb_root.best;
    for (int i = 0; i < tb_root.count; i++)
        if (tb_root.moves[i].move == m)
            return tb_root.moves[i].keeps;
    return false;
}

static void init_thread_root(Thread *t, const Position *root)
{
    pos_copy(&t->pos, root);
    atomic_store(&t->nodes, 0);
    atomic_store(&t->tbhits, 0);
    t->completed_depth = 0;
    t->seldepth = 0;
    memset(t->stack, 0, sizeof t->stack);
    memset(t->killers, 0, sizeof t->killers);
    MoveList l;
    gen_legal(&t->pos, &l);
    t->nroot = 0;
    for (int i = 0; i < l.count; i++) {
        bool wanted = limits.nsearchmoves == 0;
        for (int j = 0; j < limits.nsearchmoves; j++)
            if (limits.searchmoves[j] == l.moves[i])
                wanted = true;
        if (tb_root_ok && !tb_root_keeps(l.moves[i]))
            wanted = false;
        if (!wanted)
            continue;
        RootMove *rm = &t->root[t->nroot++];
        memset(rm, 0, sizeof *rm);
        rm->move = l.moves[i];
        rm->score = rm->prev_score = -INF;
        rm->pv[0] = l.moves[i];
        rm->pvlen = 1;
    }
    /* Captures first at the start, the order the first iteration will refine. */
    int scores[MAX_MOVES];
    MoveList rl;
    rl.count = t->nroot;
    for (int i = 0; i < t->nroot; i++)
        rl.moves[i] = t->root[i].move;
    TTHit hit;
    Move ttm = tt_probe(t->pos.key, &hit) ? hit.move : MOVE_NONE;
    score_moves(t, &t->pos, &rl, scores, ttm, 0, false);
    for (int i = 0; i < t->nroot; i++) {
        pick_move(&rl, scores, i);
        t->root[i].move = t->root[i].pv[0] = rl.moves[i];
    }
}

static void *helper_main(void *arg)
{
    Thread *t = arg;
    pthread_mutex_lock(&pool_lock);
    for (;;) {
        while (!pool_quit && pool_generation == t->generation)
            pthread_cond_wait(&pool_wake, &pool_lock);
        if (pool_quit)
            break;
        t->generation = pool_generation;
        pthread_mutex_unlock(&pool_lock);
        if (!stopped())
            iterative_deepening(t);
        pthread_mutex_lock(&pool_lock);
        if (--pool_busy == 0)
            pthread_cond_broadcast(&pool_idle);
    }
    pthread_mutex_unlock(&pool_lock);
    return NULL;
}

/* Ends every helper thread (they are parked: no search runs). */
static void stop_helpers(void)
{
    pthread_mutex_lock(&pool_lock);
    pool_quit = true;
    pthread_cond_broadcast(&pool_wake);
    pthread_mutex_unlock(&pool_lock);
    for (int i = 1; i < nthreads; i++)
        if (threads[i]->started) {
            pthread_join(threads[i]->handle, NULL);
            threads[i]->started = false;
        }
    pool_quit = false;
}

/* Grows or shrinks the thread pool to n (each thread holds about 2 MB of
 * histories). When memory runs out the search goes on with the threads it
 * has and says so; only the first thread is needed. */
static void ensure_threads(int n)
{
    if (n == nthreads)
        return;
    stop_helpers();
    for (int i = n; i < nthreads; i++) {
        pos_free(&threads[i]->pos);
        free(threads[i]);
    }
    if (n < nthreads)
        nthreads = n;
    Thread **nt = realloc(threads, (size_t)n * sizeof *nt); /* a failed shrink keeps the old block */
    if (nt)
        threads = nt;
    while (nt && nthreads < n) {
        Thread *t = calloc(1, sizeof *t);
        /* Room for a long game's history now, so that pos_copy need not
         * allocate when the search starts. */
        if (t && !pos_reserve(&t->pos, 1024)) {
            free(t);
            t = NULL;
        }
        if (!t)
            break;
        t->id = nthreads;
        threads[nthreads++] = t;
    }
    if (nthreads == 0)
        abort(); /* not even the main thread: nothing can search */
    if (nthreads < n)
        uci_send("info string only %d of %d threads: out of memory", nthreads, n);
    int failed = 0;
    for (int i = 1; i < nthreads; i++) {
        threads[i]->generation = pool_generation;
        threads[i]->started = pthread_create(&threads[i]->handle, NULL, helper_main, threads[i]) == 0;
        failed += !threads[i]->started;
    }
    if (failed)
        uci_send("info string %d of %d helper threads could not start: searching without them", failed,
                 nthreads - 1);
}

static bool game_over_after(Position *pos, Move m)
{
    make_move(pos, m);
    MoveList l;
    gen_legal(pos, &l);
    bool over = l.count == 0 || pos->halfmove >= 100 || is_repetition(pos, 2) || insufficient_material(pos);
    unmake_move(pos);
    return over;
}

/* The move to ponder on: the PV's second move, or the TT's move after the best one. */
static Move ponder_move(Thread *t, const RootMove *rm)
{
    Position *pos = &t->pos;
    Move best = rm->move, pm = rm->pvlen >= 2 ? rm->pv[1] : MOVE_NONE;
    make_move(pos, best);
    if (pm == MOVE_NONE) {
        TTHit hit;
        if (tt_probe(pos->key, &hit))
            pm = hit.move;
    }
    if (pm != MOVE_NONE && (!move_is_legal(pos, pm) || game_over_after(pos, pm)))
        pm = MOVE_NONE;
    unmake_move(pos);
    return pm;
}

static void *main_thread(void *arg)
{
    (void)arg;
    Thread *t = threads[0];
    char b1[8], b2[8];

    if (limits.book_move != MOVE_NONE) {
        /* A book move: announced below, once any ponder wait is over. */
    } else if (t->nroot == 0) {
        /* Mate or stalemate: nothing to search. */
        uci_send("info depth 0 score %s", in_check(&t->pos) ? "mate 0" : "cp 0");
    } else {
        iterative_deepening(t); /* wakes the helpers after depth 1 */
    }

    /* 3. infinite and ponder: the answer waits for stop or ponderhit, also
     * when the search ended by itself (a depth or node limit, a helper that
     * completed the depth). */
    while (!atomic_load(&stop_asked) && (atomic_load(&pondering) || limits.infinite)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    atomic_store(&stop_flag, true);
    bool searched = t->nroot && limits.book_move == MOVE_NONE;
    if (searched) {
        release_helpers(); /* helpers not yet woken (depth 1 never completed) stop at once */
        wait_helpers();
    }

    /* The search is over before its answer goes out: a command that follows
     * bestmove at once never finds it still running. */
    char answer[32] = "bestmove (none)";
    if (limits.book_move != MOVE_NONE) {
        move_to_uci(limits.book_move, t->pos.chess960, b1);
        char sc[64];
        format_score(0, sc, sizeof sc);
        uci_send("info string book move %s", b1);
        uci_send("info depth 0 score %s nodes 0 nps 0 hashfull 0 tbhits 0 time %lld pv %s", sc,
                 (long long)(now_ms() - start_time), b1);
        snprintf(answer, sizeof answer, "bestmove %s", b1);
    } else if (t->nroot) {
        /* The main thread answers, unless a helper completed the asked
         * depth first (go depth): then the helper's deeper result does. */
        int f = atomic_load(&depth_finisher);
        if (f > 0 && f < nthreads && threads[f]->completed_depth > t->completed_depth)
            t = threads[f];
        const RootMove *rm = choose_root_move(t);
        /* The final, exact lines: every PV line shown (a search stopped inside
         * an iteration has re-sorted its moves), the played move's line first. */
        int depth = t->completed_depth > 0 ? t->completed_depth : 1;
        if (!quiet_output) {
            print_pv_line(t, depth, 0, rm->score == -INF ? 0 : rm->score, false, false, rm);
            int shown = search_options.multipv < t->nroot ? search_options.multipv : t->nroot;
            for (int i = 1, k = 1; i < t->nroot && k < shown; i++)
                if (&t->root[i] != rm && t->root[i].score != -INF)
                    print_pv_line(t, depth, k++, t->root[i].score, false, false, &t->root[i]);
        }
        Move pm = ponder_move(t, rm);
        if (pm != MOVE_NONE)
            snprintf(answer, sizeof answer, "bestmove %s ponder %s", move_to_uci(rm->move, t->pos.chess960, b1),
                     move_to_uci(pm, t->pos.chess960, b2));
        else
            snprintf(answer, sizeof answer, "bestmove %s", move_to_uci(rm->move, t->pos.chess960, b1));
    }
    atomic_store(&running, false);
    uci_send("%s", answer);
    return NULL;
}

/* ---- go perft: on the search thread, like a search ---- */

static int perft_depth;

static void *perft_thread(void *arg)
{
    (void)arg;
    Position *pos = &threads[0]->pos;
    MoveList l;
    gen_legal(pos, &l);
    uint64_t total = 0;
    int done = 0;
    for (int i = 0; i < l.count && !stopped(); i++) {
        uint64_t cnt = 1;
        if (perft_depth > 1) {
            make_move(pos, l.moves[i]);
            cnt = perft_until(pos, perft_depth - 1, stopped);
            unmake_move(pos);
        }
        if (stopped())
            break;
        char b[8];
        total += cnt;
        done++;
        uci_send("%s: %llu", move_to_uci(l.moves[i], pos->chess960, b), (unsigned long long)cnt);
    }
    atomic_store(&running, false);
    if (done < l.count)
        uci_send("info string go perft %d stopped after %d of %d moves (%llu nodes)", perft_depth, done, l.count,
                 (unsigned long long)total);
    else
        uci_send("\nNodes searched: %llu\n", (unsigned long long)total);
    return NULL;
}

void search_start_perft(const Position *root, int depth)
{
    search_wait();
    pthread_mutex_lock(&run_lock);
    ensure_threads(nthreads > 0 ? nthreads : 1);
    limits_init(&limits);
    atomic_store(&stop_flag, false);
    atomic_store(&stop_asked, false);
    atomic_store(&pondering, false);
    pos_copy(&threads[0]->pos, root);
    perft_depth = depth;
    atomic_store(&running, true);
    if (pthread_create(&main_handle, NULL, perft_thread, NULL) != 0) {
        main_handle = 0;
        perft_thread(NULL); /* no thread to spare: here, to the end */
    }
    pthread_mutex_unlock(&run_lock);
}

void search_set_threads(int n)
{
    search_wait();
    pthread_mutex_lock(&run_lock);
    ensure_threads(n);
    pthread_mutex_unlock(&run_lock);
}

void search_init(void)
{
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++)
            lmr_table[d][m] = (int)(0.75 + log(d) * log(m) / 2.25);
    ensure_threads(1);
}

void search_start(const Position *root, const Limits *lim)
{
    search_wait();
    pthread_mutex_lock(&run_lock);
    ensure_threads(search_options.threads);
    limits = *lim;
    strength_limit(&limits);
    atomic_store(&stop_flag, false);
    atomic_store(&stop_asked, false);
    atomic_store(&depth_finisher, -1);
    atomic_store(&pondering, lim->ponder);
    start_time = now_ms();
    plan = time_plan(lim, root->side, search_options.move_overhead);
    quiet_output = false;
    tt_new_search();
    probe_root_tables(root);
    for (int i = 0; i < nthreads; i++)
        init_thread_root(threads[i], root);
    if (tb_root_ok)
        count_node(&threads[0]->tbhits);
    atomic_store(&running, true);
    if (pthread_create(&main_handle, NULL, main_thread, NULL) != 0) {
        /* No thread to spare: search here, where no stop can be read, so
         * the search must end on its own (no ponder or infinite wait; at
         * most depth 10 when there is no clock). */
        main_handle = 0;
        uci_send("info string cannot start the search thread: a short search in the input thread");
        atomic_store(&pondering, false);
        limits.infinite = false;
        if (plan.soft < 0 && (limits.depth <= 0 || limits.depth > 10) && !limits.nodes)
            limits.depth = 10;
        main_thread(NULL);
    }
    pthread_mutex_unlock(&run_lock);
}

void search_wait(void)
{
    pthread_mutex_lock(&run_lock);
    if (main_handle) {
        pthread_join(main_handle, NULL);
        main_handle = 0;
    }
    pthread_mutex_unlock(&run_lock);
}

void search_stop(void)
{
    atomic_store(&stop_asked, true);
    atomic_store(&stop_flag, true);
    atomic_store(&pondering, false);
    search_wait();
}

void search_ponderhit(void)
{
    if (!atomic_load(&pondering))
        return;
    start_time = now_ms(); /* the clock runs from now on */
    atomic_store(&pondering, false);
}

bool search_running(void) { return atomic_load(&running); }

bool search_is_unbounded(void) { return atomic_load(&running) && (atomic_load(&pondering) || limits.infinite); }

void search_clear(void)
{
    for (int i = 0; i < nthreads; i++) {
        memset(threads[i]->history, 0, sizeof threads[i]->history);
        memset(threads[i]->cont, 0, sizeof threads[i]->cont);
        memset(threads[i]->capt, 0, sizeof threads[i]->capt);
        memset(threads[i]->counter, 0, sizeof threads[i]->counter);
        memset(threads[i]->killers, 0, sizeof threads[i]->killers);
    }
    search_forget_evals();
}

/* Everything learnt about the evaluator's scores: the TT's, the threads'
 * caches and their corrections (learnt for one evaluator, wrong for another). */
void search_forget_evals(void)
{
    tt_clear(search_options.threads);
    for (int i = 0; i < nthreads; i++) {
        memset(threads[i]->eval_cache, 0, sizeof threads[i]->eval_cache);
        memset(threads[i]->corr, 0, sizeof threads[i]->corr);
    }
}

void search_quit(void)
{
    search_stop();
    stop_helpers();
    for (int i = 0; i < nthreads; i++) {
        pos_free(&threads[i]->pos);
        free(threads[i]);
    }
    free(threads);
    threads = NULL;
    nthreads = 0;
}

SearchResult search_sync(const Position *pos, const Limits *lim, bool quiet)
{
    search_wait();
    ensure_threads(1);
    limits = *lim;
    limits.infinite = limits.ponder = false;
    strength_limit(&limits);
    atomic_store(&stop_flag, false);
    atomic_store(&depth_finisher, -1);
    atomic_store(&pondering, false);
    start_time = now_ms();
    plan = time_plan(&limits, pos->side, search_options.move_overhead);
    quiet_output = quiet;
    tt_new_search();
    probe_root_tables(pos);
    Thread *t = threads[0];
    init_thread_root(t, pos);
    SearchResult r = {MOVE_NONE, MOVE_NONE, 0, 0, 0};
    if (t->nroot) {
        iterative_deepening(t);
        const RootMove *rm = choose_root_move(t);
        r.best = rm->move;
        r.score = rm->score == -INF ? 0 : rm->score;
        r.ponder = ponder_move(t, rm);
    } else {
        r.score = in_check(&t->pos) ? -MATE : 0;
    }
    r.depth = t->completed_depth;
    r.nodes = atomic_load(&t->nodes);
    quiet_output = false;
    return r;
}
