/* search.c - the search: iterative deepening and aspiration windows,
 * principal variation search with its pruning, reductions and extensions,
 * and quiescence. Every search thread runs it on its own position and
 * tables, sharing the transposition table (Lazy SMP). */
#include "search.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "fen.h"
#include "history.h"
#include "strength.h"
#include "output.h"
#include "tt.h"
#include "tunables.h"
#include "wdl.h"

/* Late move reductions by depth and move number: 0.75 + ln(depth) ln(moves) / 2.25
 * (LMR_BASE, LMR_DIV: recomputed when the tuning build changes them). */
static int lmr_table[64][64];

void search_init_tables(void)
{
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++)
            lmr_table[d][m] = (int)(LMR_BASE / 100.0 + log(d) * log(m) / (LMR_DIV / 100.0));
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

/* The TT key leaves out the halfmove clock, so a mate stored from a node
 * where it was low may be read where the 50-move rule comes first: such a
 * mate (further from the node than the plies left before the rule; is_draw
 * scores a node at halfmove 100 as a draw, so 99 - halfmove) is read as the
 * largest score that is no mate or tablebase result. Kept, it grew to
 * impossible mate distances (mate 56 in KR v K) that later searches lost. */
static int score_from_tt(int s, int ply, int halfmove)
{
    if (s >= MATE_IN_MAX && MATE - s > 99 - halfmove)
        return TB_WIN_BOUND - 1;
    if (s <= -MATE_IN_MAX && MATE + s > 99 - halfmove)
        return -TB_WIN_BOUND + 1;
    if (s >= TB_WIN_BOUND)
        return s - ply;
    if (s <= -TB_WIN_BOUND)
        return s + ply;
    return s;
}

/* ---- Draws ---- */

static bool is_draw(const Position *pos)
{
    if (pos->halfmove >= 100)
        return true;
    return is_repetition(pos, 1) || insufficient_material(pos);
}

static bool has_non_pawn_material(const Position *pos, int side) { return pos->npieces[side] > 1; }

/* ---- Time and stop checks ---- */

/* Every thread watches the clock: with many threads on few cores the main
 * thread may get little CPU time, and the hard limit must hold all the
 * same. The node limit is the main thread's. */
static void check_time(Thread *t)
{
    SearchState *ss = &search_state;
    if (atomic_load_explicit(&ss->pondering, memory_order_relaxed))
        return;
    uint64_t n = atomic_load_explicit(&t->nodes, memory_order_relaxed);
    /* A node limit (go nodes, a strength level's budget) is kept to the node
     * when alone, to 64 nodes with helpers, once depth 1 has given a move. */
    if (t->id == 0 && ss->limits.nodes && t->completed_depth > 0 && (nthreads == 1 || !(n & 63)) &&
        total_nodes() >= ss->limits.nodes)
        atomic_store(&ss->stop, true);
    if (n & 1023)
        return;
    if (time_hard_over(&ss->plan, now_ms() - ss->start_time))
        atomic_store(&ss->stop, true);
    if (atomic_load_explicit(&ss->depth_finisher, memory_order_relaxed) >= 0)
        atomic_store(&ss->stop, true);
}

/* ---- Evaluation ---- */

/* The evaluator's score, from the thread's cache when the position was
 * evaluated lately. The result is the evaluator's own, so the tree is the same. */
static inline uint64_t *eval_cache_entry(Thread *t, uint64_t key) { return &t->eval_cache[key & (EVAL_CACHE_SIZE - 1)]; }

static int cached_eval(Thread *t, const Position *pos)
{
    uint64_t *e = eval_cache_entry(t, pos->key);
    uint64_t hi = pos->key & ~(uint64_t)0xFFFF;
    if (*e && (*e & ~(uint64_t)0xFFFF) == hi)
        return (int16_t)(*e & 0xFFFF);
    int s = evaluate(t->eval, pos);
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

/* The search's make and unmake: the move goes on the thread's stack (for
 * the histories of the plies below), and the child's TT bucket and cache
 * entry are fetched while the search goes on. */
static inline void play_move(Thread *t, int ply, Move m)
{
    t->stack[ply].move = m;
    t->stack[ply].moved_piece = t->pos.board[MOVE_FROM(m)];
    make_move(&t->pos, m);
    prefetch_child(t, &t->pos);
}

static inline void play_null(Thread *t, int ply)
{
    t->stack[ply].move = MOVE_NULL;
    t->stack[ply].moved_piece = 0;
    make_null(&t->pos);
    prefetch_child(t, &t->pos);
}

/* Whether a score with this bound settles the node for the window. */
static inline bool bound_cuts(int bound, int s, int alpha, int beta)
{
    return bound == BOUND_EXACT || (bound == BOUND_LOWER && s >= beta) || (bound == BOUND_UPPER && s <= alpha);
}

/* A TT score whose bound says it is on the far side of the static
 * evaluation is a better guess of the position's value than that eval.
 * A TT miss leaves the bound BOUND_NONE, which never qualifies. */
static inline int tt_guess(int bound, int ttscore, int eval)
{
    if (bound == BOUND_EXACT || (bound == BOUND_LOWER && ttscore > eval) || (bound == BOUND_UPPER && ttscore < eval))
        return ttscore;
    return eval;
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

/* Delta pruning: a capture that leaves the evaluation DELTA_MARGIN below
 * alpha even after winning the victim is not tried. */

static int qsearch(Thread *t, int alpha, int beta, int ply)
{
    Position *pos = &t->pos;
    count_node(&t->nodes);
    check_time(t);
    t->pvlen[ply] = ply;
    if (ply > t->seldepth)
        t->seldepth = ply;
    if (search_stopped())
        return 0;
    if (is_draw(pos))
        return 0;
    bool check = in_check(pos);
    if (ply >= MAX_PLY - 1)
        return check ? 0 : evaluate(t->eval, pos);

    bool pv = beta - alpha > 1;
    TTHit hit = {0};
    Move ttm = MOVE_NONE;
    int ttscore = -INF;
    bool tthit = tt_probe(pos->key, &hit);
    if (tthit) {
        ttm = hit.move;
        ttscore = score_from_tt(hit.score, ply, pos->halfmove);
        if (!pv && bound_cuts(hit.bound, ttscore, alpha, beta))
            return ttscore;
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
        eval = corrected_eval(t, pos, raw_eval, ply);
        /* Stand pat on the TT's better guess; never on a mate or tablebase score. */
        best = abs(ttscore) < TB_WIN_BOUND ? tt_guess(hit.bound, ttscore, eval) : eval;
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
            if (MOVE_KIND(m) != MK_PROMO && eval + mvv[victim] + DELTA_MARGIN <= alpha)
                continue; /* delta pruning */
            if (!capture_not_losing(pos, m, victim))
                continue;
        }
        play_move(t, ply, m);
        int s = -qsearch(t, -beta, -alpha, ply + 1);
        unmake_move(pos);
        if (search_stopped())
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
        if (search_stopped())
            return 0;
        if (is_draw(pos))
            return 0;
        if (ply >= MAX_PLY - 1)
            return in_check(pos) ? 0 : evaluate(t->eval, pos);
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
    int ttscore = tthit ? score_from_tt(hit.score, ply, pos->halfmove) : 0;
    if (root && t->nroot)
        ttm = t->root[t->pv_idx].move;
    if (!pv && !excluded && tthit && hit.depth >= depth &&
        bound_cuts(hit.bound, ttscore, alpha, beta)) {
        if (ttm != MOVE_NONE && ttscore >= beta && is_quiet(pos, ttm))
            update_tt_cutoff_stats(t, pos, ttm, ply, depth);
        return ttscore;
    }

    /* 3. Probe the tablebases right after a capture or pawn move. */
    int npieces = pos->npieces[0] + pos->npieces[1] + pos->npawns[0] + pos->npawns[1];
    const TbParams *tbp = &search_state.params.tb;
    int tb_limit = tb_probe_limit(tbp);
    if (!root && !excluded && pos->halfmove == 0 && !pos->castle && npieces <= tb_limit &&
        (depth >= tbp->probe_depth || npieces < tb_limit)) {
        int wdl = tb_probe_wdl_pos(pos);
        if (wdl >= 0) {
            count_node(&t->tbhits);
            int s = tb_wdl_score(wdl, ply, tbp->rule50);
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
        eval = corrected_eval(t, pos, raw_eval, ply);
    }
    t->stack[ply].eval = eval;
    if (!check && !excluded)
        update_eval_diff(t, pos, ply);
    bool improving = !check && ply >= 2 && eval > t->stack[ply - 2].eval;
    int guess = check ? eval : tt_guess(hit.bound, ttscore, eval);

    t->killers[ply + 1][0] = t->killers[ply + 1][1] = MOVE_NONE;

    if (!pv && !check) {
        /* 5. Reverse futility pruning: far enough above beta, shallow enough.
         * Never with a mate or tablebase guess: it may come from a TT entry
         * of any depth, and returning it would graft that entry's mate
         * distance here unchecked. */
        if (depth <= RFP_DEPTH && guess - RFP_MARGIN * (depth - improving) >= beta && abs(beta) < TB_WIN_BOUND &&
            abs(guess) < TB_WIN_BOUND)
            return guess;

        /* 6. Null move, with a zugzwang guard (only with pieces besides pawns). */
        enum { NMP_DEPTH = 3 };
        if (depth >= NMP_DEPTH && !excluded && guess >= beta && eval >= beta && has_non_pawn_material(pos, pos->side) &&
            ply > 0 && t->stack[ply - 1].move != MOVE_NULL && abs(beta) < TB_WIN_BOUND) {
            /* The reduction grows with depth and with the margin over beta. */
            enum { NMP_MARGIN_MAX = 3 };
            int over = (guess - beta) / NMP_MARGIN_DIV;
            int r = NMP_BASE + depth / NMP_DEPTH_DIV + (over < NMP_MARGIN_MAX ? over : NMP_MARGIN_MAX);
            play_null(t, ply);
            int s = -search(t, -beta, -beta + 1, depth - 1 - r, ply + 1, !cutnode);
            unmake_null(pos);
            if (search_stopped())
                return 0;
            if (s >= beta)
                return s >= TB_WIN_BOUND ? beta : s;
        }
    }

    /* 7. Internal iterative reduction: no move to try first, search less deep. */
    enum { IIR_DEPTH = 4 };
    if (depth >= IIR_DEPTH && ttm == MOVE_NONE && (pv || cutnode))
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

        /* 9. Pruning at shallow depth, once a move has saved the node from
         * being mated: late quiet moves (move-count pruning), quiet moves with
         * a bad history, quiet moves that cannot lift the evaluation to alpha
         * (futility), and moves that lose too much material (SEE). */
        enum { HIST_PRUNE_DEPTH = 4, SEE_QUIET_DEPTH = 7, SEE_NOISY_DEPTH = 6 };
        if (!root && best > -TB_WIN_BOUND && has_non_pawn_material(pos, pos->side)) {
            if (quiet) {
                if (depth <= LMP_DEPTH && tried.nquiets >= (LMP_BASE + depth * depth) / (2 - improving)) {
                    skip_quiets = true;
                    continue;
                }
                if (!check && depth <= HIST_PRUNE_DEPTH && scores[i] < -HIST_PRUNE_MARGIN * depth)
                    continue;
                if (!check && depth <= FUT_DEPTH && eval + FUT_BASE + FUT_MARGIN * depth <= alpha &&
                    scores[i] < SCORE_COUNTER)
                    continue;
                if (depth <= SEE_QUIET_DEPTH && !see_ge(pos, m, -SEE_QUIET_MARGIN * depth))
                    continue;
            } else if (depth <= SEE_NOISY_DEPTH && scores[i] < 0 && !see_ge(pos, m, -SEE_NOISY_MARGIN * depth)) {
                continue;
            }
        }

        if (root && t->id == 0 && !search_state.quiet && now_ms() - search_state.start_time > 1000) {
            char b[8];
            send_line("info depth %d currmove %s currmovenumber %d", depth,
                     move_to_uci(m, pos->chess960, b), t->pv_idx + i + 1);
        }

        /* 10. Singular extension: the TT move is searched a ply deeper when
         * every other move falls well short of its score; when even without
         * it the node fails high, it is cut at once (multi-cut). */
        int extension = 0;
        enum { SE_TT_DEPTH = 3, SE_DOUBLE_MAX = 6 };
        if (!root && m == ttm && !excluded && depth >= SE_DEPTH && hit.depth >= depth - SE_TT_DEPTH &&
            hit.bound != BOUND_UPPER && abs(ttscore) < TB_WIN_BOUND && ply < 2 * t->root_depth) {
            int sbeta = ttscore - SE_MARGIN * depth;
            t->stack[ply].excluded = m;
            int s = search(t, sbeta - 1, sbeta, (depth - 1) / 2, ply, cutnode);
            t->stack[ply].excluded = MOVE_NONE;
            t->pvlen[ply] = ply;
            if (search_stopped())
                return 0;
            if (s < sbeta) {
                extension = 1;
                /* Far short: two plies, a bounded number of times per path. */
                if (!pv && s < sbeta - SE_DOUBLE_MARGIN && t->stack[ply].double_ext < SE_DOUBLE_MAX)
                    extension = 2;
            } else if (sbeta >= beta) {
                return sbeta;
            } else if (ttscore >= beta) {
                extension = -1; /* another move fails high too: the TT move is less special */
            }
        }

        uint64_t nodes_before = root ? atomic_load_explicit(&t->nodes, memory_order_relaxed) : 0;
        play_move(t, ply, m);
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
            enum { LMR_DEPTH = 3 };
            if (depth >= LMR_DEPTH && moves_tried > 1 + 2 * pv && (quiet || scores[i] < 0)) {
                r = lmr_table[depth < 63 ? depth : 63][moves_tried < 63 ? moves_tried : 63];
                r -= pv;
                r += cutnode;
                r += !improving;
                r -= gives_check;
                if (quiet)
                    r -= scores[i] >= SCORE_COUNTER ? 1 : scores[i] / LMR_HIST_DIV;
                if (r < 0)
                    r = 0;
                if (r > new_depth - 1)
                    r = new_depth - 1 > 0 ? new_depth - 1 : 0;
            }
            s = -search(t, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
            if (s > alpha && r > 0) {
                /* The reduced search failed high: search again at full depth,
                 * a ply deeper when it beat the best so far by far, a ply
                 * shallower when only just. */
                enum { DEEPER_MARGIN = 60 };
                new_depth += (s > best + DEEPER_MARGIN + 2 * new_depth) - (s < best + new_depth);
                s = -search(t, -alpha - 1, -alpha, new_depth, ply + 1, !cutnode);
            }
            if (s > alpha && s < beta && pv)
                s = -search(t, -beta, -alpha, new_depth, ply + 1, false);
        }
        unmake_move(pos);
        if (search_stopped())
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

    /* Every move failed low: the opponent's quiet move that led here was good. */
    if (best <= old_alpha && !root && !excluded)
        update_fail_low_stats(t, pos, ply, depth);

    /* 13. Store the result. */
    int bound = best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    if (!(root && t->pv_idx > 0) && !excluded) {
        tt_store(pos->key, best_move, score_to_tt(best, ply), raw_eval, depth, bound);
        /* 14. Correct the static evaluation where a quiet search settled it. */
        if (!check && abs(best) < TB_WIN_BOUND && (best_move == MOVE_NONE || is_quiet(pos, best_move)) &&
            !(bound == BOUND_LOWER && best <= eval) && !(bound == BOUND_UPPER && best >= eval))
            update_correction(t, pos, raw_eval, best, depth, ply);
    }
    return best;
}

/* ---- Reporting ---- */

void search_report(const Thread *t, int depth, int idx, int score, bool lower, bool upper, const RootMove *rm)
{
    char sc[64], b[8];
    /* A root in the tablebases shows their verdict until the search proves a mate. */
    if (search_state.tb_root_ok && abs(score) < MATE_IN_MAX && !lower && !upper)
        score = search_state.tb_root.result == TB_DRAW ? 0 : search_state.tb_root.score;
    format_score(score, search_state.params.show_wdl, sc, sizeof sc);
    int64_t elapsed = now_ms() - search_state.start_time;
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
    send_line("%s", line);
}

const RootMove *search_final_line(const Thread *t, const RootMove *rm)
{
    if (rm->score != -INF && !rm->bound_lower && !rm->bound_upper)
        return rm;
    for (int i = 0; i < t->ndone; i++)
        if (t->done[i].move == rm->move)
            return &t->done[i];
    return rm->score != -INF ? rm : NULL;
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

/* ---- Iterative deepening ---- */

void search_iterate(Thread *t)
{
    SearchState *ss = &search_state;
    const Limits *lim = &ss->limits;
    int max_depth = lim->depth > 0 && lim->depth < MAX_PLY - 4 ? lim->depth : MAX_PLY - 4;
    int shown = ss->params.multipv;
    /* A weakened Hexe chooses among several moves: it needs their scores. */
    int multipv = strength_limited(&ss->params) && shown < STRENGTH_CHOICES ? STRENGTH_CHOICES : shown;
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
            enum { ASP_DEPTH = 5 };
            int delta = ASP_DELTA, alpha = -INF, beta = INF;
            if (depth >= ASP_DEPTH && abs(prev) < TB_WIN_BOUND) {
                alpha = prev - delta > -INF ? prev - delta : -INF;
                beta = prev + delta < INF ? prev + delta : INF;
            }
            /* 1. Aspiration windows: widen on each failure. */
            for (;;) {
                int s = search(t, alpha, beta, depth, 0, false);
                if (search_stopped())
                    break;
                sort_root(t, t->pv_idx);
                if (s <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = s - delta > -INF ? s - delta : -INF;
                    if (t->id == 0 && !ss->quiet && t->pv_idx < shown)
                        search_report(t, depth, t->pv_idx, s, false, true, &t->root[t->pv_idx]);
                } else if (s >= beta) {
                    beta = s + delta < INF ? s + delta : INF;
                    if (t->id == 0 && !ss->quiet && t->pv_idx < shown)
                        search_report(t, depth, t->pv_idx, s, true, false, &t->root[t->pv_idx]);
                } else {
                    break;
                }
                delta += delta / 2 + 5;
            }
            sort_root(t, 0 + t->pv_idx);
            if (search_stopped())
                break;
        }
        if (search_stopped())
            break;
        t->completed_depth = depth;
        sort_root(t, 0);
        t->ndone = multipv; /* the lines searched to an exact score */
        memcpy(t->done, t->root, (size_t)multipv * sizeof *t->done);
        if (t->id == 0 && depth == 1 && nthreads > 1)
            pool_release(); /* the helpers start now */

        if (t->id != 0) {
            int none = -1;
            if (depth == lim->depth)
                atomic_compare_exchange_strong(&ss->depth_finisher, &none, t->id);
            continue;
        }
        if (!ss->quiet)
            for (int i = 0; i < shown; i++)
                search_report(t, depth, i, t->root[i].score, false, false, &t->root[i]);

        /* 2. Stop conditions checked between iterations (main thread). */
        int best_score = t->root[0].score;
        if (lim->mate > 0 && best_score >= MATE_IN_MAX && (MATE - best_score + 1) / 2 <= lim->mate)
            break;
        if (atomic_load(&ss->pondering) || lim->infinite)
            continue;
        if ((lim->nodes && total_nodes() >= lim->nodes) ||
            (lim->soft_nodes && total_nodes() >= lim->soft_nodes))
            break;
        stable = t->root[0].move == last_best ? stable + 1 : 0;
        last_best = t->root[0].move;
        int fell_from = last_score;
        last_score = best_score;
        uint64_t spent = atomic_load_explicit(&t->nodes, memory_order_relaxed);
        Iteration it = {.depth = depth,
                        .nroot = t->nroot,
                        .stable = stable,
                        .best_share = spent ? (double)t->root[0].nodes / (double)spent : 1.0,
                        .score = best_score,
                        .prev_score = fell_from};
        if (time_soft_over(&ss->plan, now_ms() - ss->start_time, &it))
            break;
    }
}

