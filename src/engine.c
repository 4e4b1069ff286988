/* engine.c - the engine's side of a search: sets up the root (its moves,
 * the tablebase verdict), starts the main search thread and wakes the
 * helpers, waits for ponder and infinite, and answers with bestmove. */
#include "engine.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fen.h"
#include "history.h"
#include "output.h"
#include "search.h"
#include "strength.h"
#include "tt.h"
#include "wdl.h"

static atomic_bool running;
static pthread_t main_handle;
static pthread_mutex_t run_lock = PTHREAD_MUTEX_INITIALIZER;

/* The root move to play: the best, or for a weakened Hexe one of the best few. */
static const RootMove *choose_root_move(const Thread *t)
{
    int scores[STRENGTH_CHOICES], n = t->nroot < STRENGTH_CHOICES ? t->nroot : STRENGTH_CHOICES;
    for (int i = 0; i < n; i++)
        scores[i] = t->root[i].score;
    return &t->root[strength_pick(scores, n, &search_state.params)];
}


/* Tablebases at the root: only moves that keep the best result are searched;
 * when the position is won or lost and DTZ tables are there, only the move
 * that converts fastest (or resists longest). */
static void probe_root_tables(const Position *root)
{
    SearchState *ss = &search_state;
    ss->tb_root_ok = false;
    int npieces = root->npieces[0] + root->npieces[1] + root->npawns[0] + root->npawns[1];
    if (root->castle || npieces > tb_probe_limit(&ss->params.tb) || ss->limits.nsearchmoves)
        return;
    ss->tb_root_ok = tb_probe_root_moves(root, ss->params.tb.rule50, &ss->tb_root);
}

static bool tb_root_keeps(Move m)
{
    SearchState *ss = &search_state;
    if (ss->tb_root.result != TB_DRAW && ss->tb_root.dtz_ok)
        return m == ss->tb_root.best;
    for (int i = 0; i < ss->tb_root.count; i++)
        if (ss->tb_root.moves[i].move == m)
            return ss->tb_root.moves[i].keeps;
    return false;
}

static void init_thread_root(Thread *t, const Position *root)
{
    SearchState *ss = &search_state;
    pos_copy(&t->pos, root);
    eval_context_use(t->eval, &ss->params.eval);
    atomic_store(&t->nodes, 0);
    atomic_store(&t->tbhits, 0);
    t->completed_depth = 0;
    t->ndone = 0;
    t->seldepth = 0;
    memset(t->stack, 0, sizeof t->stack);
    memset(t->killers, 0, sizeof t->killers);
    MoveList l;
    gen_legal(&t->pos, &l);
    t->nroot = 0;
    for (int i = 0; i < l.count; i++) {
        bool wanted = ss->limits.nsearchmoves == 0;
        for (int j = 0; j < ss->limits.nsearchmoves; j++)
            if (ss->limits.searchmoves[j] == l.moves[i])
                wanted = true;
        if (ss->tb_root_ok && !tb_root_keeps(l.moves[i]))
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
    SearchState *ss = &search_state;
    (void)arg;
    Thread *t = threads[0];
    char b1[8], b2[8];

    if (ss->limits.book_move != MOVE_NONE) {
        /* A book move: announced below, once any ponder wait is over. */
    } else if (t->nroot == 0) {
        /* Mate or stalemate: nothing to search. */
        send_line("info depth 0 score %s", in_check(&t->pos) ? "mate 0" : "cp 0");
    } else {
        search_iterate(t); /* wakes the helpers after depth 1 */
    }

    /* 3. infinite and ponder: the answer waits for stop or ponderhit, also
     * when the search ended by itself (a depth or node limit, a helper that
     * completed the depth). */
    while (!atomic_load(&ss->stop_asked) && (atomic_load(&ss->pondering) || ss->limits.infinite)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    atomic_store(&ss->stop, true);
    bool searched = t->nroot && ss->limits.book_move == MOVE_NONE;
    if (searched) {
        pool_release(); /* helpers not yet woken (depth 1 never completed) stop at once */
        pool_wait();
    }

    /* The search is over before its answer goes out: a command that follows
     * bestmove at once never finds it still running. */
    char answer[32] = "bestmove (none)";
    if (ss->limits.book_move != MOVE_NONE) {
        move_to_uci(ss->limits.book_move, t->pos.chess960, b1);
        char sc[64];
        format_score(0, ss->params.show_wdl, sc, sizeof sc);
        send_line("info string book move %s", b1);
        send_line("info depth 0 score %s nodes 0 nps 0 hashfull 0 tbhits 0 time %lld pv %s", sc,
                 (long long)(now_ms() - ss->start_time), b1);
        snprintf(answer, sizeof answer, "bestmove %s", b1);
    } else if (t->nroot) {
        /* The main thread answers, unless a helper completed the asked
         * depth first (go depth): then the helper's deeper result does. */
        int f = atomic_load(&ss->depth_finisher);
        if (f > 0 && f < nthreads && threads[f]->completed_depth > t->completed_depth)
            t = threads[f];
        const RootMove *rm = choose_root_move(t);
        /* The final lines: every PV line shown (a search stopped inside an
         * iteration has re-sorted its moves), the played move's line first,
         * each with its exact score where the search has one (a bound left
         * by a cut-short iteration is no verdict). */
        int depth = t->completed_depth > 0 ? t->completed_depth : 1;
        if (!ss->quiet) {
            const RootMove *line = search_final_line(t, rm);
            if (line)
                search_report(t, depth, 0, line->score, line->bound_lower, line->bound_upper, line);
            else
                search_report(t, depth, 0, 0, false, false, rm);
            int multipv = ss->params.multipv, shown = multipv < t->nroot ? multipv : t->nroot;
            for (int i = 1, k = 1; i < t->nroot && k < shown; i++)
                if (&t->root[i] != rm && (line = search_final_line(t, &t->root[i])) != NULL)
                    search_report(t, depth, k++, line->score, line->bound_lower, line->bound_upper, line);
        }
        Move pm = ponder_move(t, rm);
        if (pm != MOVE_NONE)
            snprintf(answer, sizeof answer, "bestmove %s ponder %s", move_to_uci(rm->move, t->pos.chess960, b1),
                     move_to_uci(pm, t->pos.chess960, b2));
        else
            snprintf(answer, sizeof answer, "bestmove %s", move_to_uci(rm->move, t->pos.chess960, b1));
    }
    atomic_store(&running, false);
    send_line("%s", answer);
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
    for (int i = 0; i < l.count && !search_stopped(); i++) {
        uint64_t cnt = 1;
        if (perft_depth > 1) {
            make_move(pos, l.moves[i]);
            cnt = perft_until(pos, perft_depth - 1, search_stopped);
            unmake_move(pos);
        }
        if (search_stopped())
            break;
        char b[8];
        total += cnt;
        done++;
        send_line("%s: %llu", move_to_uci(l.moves[i], pos->chess960, b), (unsigned long long)cnt);
    }
    atomic_store(&running, false);
    if (done < l.count)
        send_line("info string go perft %d stopped after %d of %d moves (%llu nodes)", perft_depth, done, l.count,
                 (unsigned long long)total);
    else
        send_line("\nNodes searched: %llu\n", (unsigned long long)total);
    return NULL;
}

void engine_perft(const Position *root, int depth)
{
    engine_wait();
    pthread_mutex_lock(&run_lock);
    pool_resize(nthreads > 0 ? nthreads : 1);
    limits_init(&search_state.limits);
    atomic_store(&search_state.stop, false);
    atomic_store(&search_state.stop_asked, false);
    atomic_store(&search_state.pondering, false);
    pos_copy(&threads[0]->pos, root);
    perft_depth = depth;
    atomic_store(&running, true);
    if (pthread_create(&main_handle, NULL, perft_thread, NULL) != 0) {
        main_handle = 0;
        perft_thread(NULL); /* no thread to spare: here, to the end */
    }
    pthread_mutex_unlock(&run_lock);
}

void engine_set_threads(int n)
{
    engine_wait();
    pthread_mutex_lock(&run_lock);
    pool_resize(n);
    pthread_mutex_unlock(&run_lock);
}

void engine_init(void)
{
    search_init_tables();
    pool_init(search_iterate);
    pool_resize(1);
}

int engine_threads(void) { return nthreads; }

/* The search's copy of what it was asked, its clock and root, for threads
 * [0, nthr): the same for a search in its own threads and in the caller's. */
static void prepare(const Position *root, const Limits *lim, const SearchParams *params, int nthr, bool quiet)
{
    SearchState *ss = &search_state;
    ss->params = *params;
    ss->limits = *lim;
    strength_limit(&ss->limits, &ss->params);
    atomic_store(&ss->stop, false);
    atomic_store(&ss->stop_asked, false);
    atomic_store(&ss->depth_finisher, -1);
    atomic_store(&ss->pondering, ss->limits.ponder);
    ss->start_time = now_ms();
    ss->plan = time_plan(&ss->limits, root->side, ss->params.move_overhead);
    ss->quiet = quiet;
    tt_new_search();
    probe_root_tables(root);
    for (int i = 0; i < nthr; i++)
        init_thread_root(threads[i], root);
}

void engine_go(const Position *root, const Limits *lim, const SearchParams *params)
{
    engine_wait();
    pthread_mutex_lock(&run_lock);
    pool_resize(params->threads);
    prepare(root, lim, params, nthreads, false);
    if (search_state.tb_root_ok)
        count_node(&threads[0]->tbhits);
    atomic_store(&running, true);
    if (pthread_create(&main_handle, NULL, main_thread, NULL) != 0) {
        /* No thread to spare: search here, where no stop can be read, so
         * the search must end on its own (no ponder or infinite wait; at
         * most depth 10 when there is no clock). */
        main_handle = 0;
        send_line("info string cannot start the search thread: a short search in the input thread");
        atomic_store(&search_state.pondering, false);
        search_state.limits.infinite = false;
        Limits *l = &search_state.limits;
        if (search_state.plan.soft < 0 && (l->depth <= 0 || l->depth > 10) && !l->nodes)
            l->depth = 10;
        main_thread(NULL);
    }
    pthread_mutex_unlock(&run_lock);
}

void engine_wait(void)
{
    pthread_mutex_lock(&run_lock);
    if (main_handle) {
        pthread_join(main_handle, NULL);
        main_handle = 0;
    }
    pthread_mutex_unlock(&run_lock);
}

void engine_stop(void)
{
    atomic_store(&search_state.stop_asked, true);
    atomic_store(&search_state.stop, true);
    atomic_store(&search_state.pondering, false);
    engine_wait();
}

void engine_ponderhit(void)
{
    if (!atomic_load(&search_state.pondering))
        return;
    search_state.start_time = now_ms(); /* the clock runs from now on */
    atomic_store(&search_state.pondering, false);
}

bool engine_running(void) { return atomic_load(&running); }

bool engine_unbounded(void)
{
    return atomic_load(&running) && (atomic_load(&search_state.pondering) || search_state.limits.infinite);
}

void engine_clear(void)
{
    for (int i = 0; i < nthreads; i++) {
        memset(threads[i]->history, 0, sizeof threads[i]->history);
        memset(threads[i]->cont, 0, sizeof threads[i]->cont);
        memset(threads[i]->capt, 0, sizeof threads[i]->capt);
        memset(threads[i]->counter, 0, sizeof threads[i]->counter);
        memset(threads[i]->killers, 0, sizeof threads[i]->killers);
    }
    engine_forget_evals();
}

/* Everything learnt about the evaluator's scores: the TT's, the threads'
 * caches and their corrections (learnt for one evaluator, wrong for another). */
void engine_forget_evals(void)
{
    tt_clear(nthreads);
    for (int i = 0; i < nthreads; i++) {
        memset(threads[i]->eval_cache, 0, sizeof threads[i]->eval_cache);
        memset(&threads[i]->corr, 0, sizeof threads[i]->corr);
    }
}

void engine_quit(void)
{
    engine_stop();
    pool_free();
}

SearchResult engine_search(const Position *pos, const Limits *lim, const SearchParams *params, bool quiet)
{
    engine_wait();
    pool_resize(1);
    Limits once = *lim; /* nobody to send stop or ponderhit */
    once.infinite = once.ponder = false;
    prepare(pos, &once, params, 1, quiet);
    Thread *t = threads[0];
    SearchResult r = {MOVE_NONE, MOVE_NONE, 0, 0, 0};
    if (t->nroot) {
        search_iterate(t);
        const RootMove *rm = choose_root_move(t);
        r.best = rm->move;
        const RootMove *line = search_final_line(t, rm);
        r.score = line ? line->score : 0;
        r.ponder = ponder_move(t, rm);
    } else {
        r.score = in_check(&t->pos) ? -MATE : 0;
    }
    r.depth = t->completed_depth;
    r.nodes = atomic_load(&t->nodes);
    search_state.quiet = false;
    return r;
}

