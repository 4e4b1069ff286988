/* tunables.h - the search's named parameters, listed once.
 *
 * Each row is X(name, default, min, max, c): c is the SPSA perturbation at
 * the first iteration (scripts/spsa reads this list; docs/testing.md). A
 * release build keeps every parameter a compile-time constant with its
 * default; the tuning build (make TUNE=1, -DHEXE_TUNE) makes each an int
 * that the UCI option of the same name sets. Units: centipawns unless said;
 * "/100" means hundredths (LMR_BASE 75 is 0.75). The TM_ rows are the time
 * manager's: they matter only at a time control, never at fixed nodes. */
#ifndef HEXE_TUNABLES_H
#define HEXE_TUNABLES_H

#define TUNABLES(X)                                                                                                    \
    X(RFP_DEPTH, 8, 4, 12, 1)            /* reverse futility: deepest node */                                          \
    X(RFP_MARGIN, 72, 30, 150, 10)       /* reverse futility: margin a ply */                                          \
    X(NMP_BASE, 3, 1, 6, 1)              /* null move: the reduction's base */                                         \
    X(NMP_DEPTH_DIV, 4, 2, 8, 1)         /* null move: one more ply each this many */                                  \
    X(NMP_MARGIN_DIV, 203, 80, 400, 25)  /* null move: one more ply each this far over beta */                         \
    X(LMP_DEPTH, 6, 3, 10, 1)            /* move-count pruning: deepest node */                                        \
    X(LMP_BASE, 3, 0, 10, 1)             /* move-count pruning: quiets tried, (base + d^2) / 2 */                      \
    X(HIST_PRUNE_MARGIN, 3181, 1000, 6000, 400) /* history pruning: history below -margin a ply */                     \
    X(FUT_DEPTH, 7, 4, 10, 1)            /* futility: deepest node */                                                  \
    X(FUT_BASE, 92, 30, 250, 15)         /* futility: margin at depth 0 */                                             \
    X(FUT_MARGIN, 86, 40, 180, 10)       /* futility: margin a ply */                                                  \
    X(SEE_QUIET_MARGIN, 42, 10, 100, 6)  /* SEE pruning of quiets: loss allowed a ply */                               \
    X(SEE_NOISY_MARGIN, 86, 30, 180, 10) /* SEE pruning of captures: loss allowed a ply */                             \
    X(SE_DEPTH, 7, 5, 12, 1)             /* singular extension: shallowest node */                                     \
    X(SE_MARGIN, 3, 1, 5, 1)             /* singular extension: margin a ply */                                        \
    X(SE_DOUBLE_MARGIN, 26, 5, 60, 5)    /* double extension: this far below the singular beta */                      \
    X(LMR_BASE, 82, 0, 150, 10)          /* LMR table: base, /100 */                                                   \
    X(LMR_DIV, 204, 150, 350, 15)        /* LMR table: ln d ln m divisor, /100 */                                      \
    X(LMR_HIST_DIV, 9770, 4000, 20000, 1000)  /* LMR: one ply less each this much history */                           \
    X(EVAL_DIFF_MUL, 8, 2, 20, 1)        /* history of the last quiet move: this times the evaluation's change */     \
    X(EVAL_DIFF_MAX, 1068, 300, 2000, 100) /* ... at most this either way */                                          \
    X(DELTA_MARGIN, 194, 50, 400, 25)    /* quiescence delta pruning */                                                \
    X(ASP_DELTA, 18, 8, 50, 3)           /* aspiration window: first half-width */                                     \
    X(CORR_PAWN_WEIGHT, 8, 2, 16, 1)     /* correction: the pawns' table, /16 */                                       \
    X(CORR_PIECE_WEIGHT, 5, 0, 12, 1)    /* correction: each colour's pieces' table, /16 */                            \
    X(CORR_CONT_WEIGHT, 4, 0, 12, 1)     /* correction: the last move's table, /16 */                                  \
    X(CORR_MINOR_WEIGHT, 4, 0, 12, 1)    /* correction: the knights' and bishops' table, /16 */                        \
    X(CORR_MAJOR_WEIGHT, 4, 0, 12, 1)    /* correction: the rooks', queens' and kings' table, /16 */                   \
    X(TM_MOVES, 25, 15, 45, 3)           /* time: moves planned in sudden death */                                     \
    X(TM_INC, 75, 40, 100, 6)            /* time: % of the increment added to a move's share */                        \
    X(TM_STABLE_BASE, 130, 100, 170, 6)  /* time: scale /100 with a new best move ... */                               \
    X(TM_STABLE_STEP, 10, 0, 20, 2)      /* ... less this /100 each iteration it stays, 6 at most */                   \
    X(TM_NODE_BASE, 150, 110, 200, 6)    /* time: scale by (base/100 - best move's node share) ... */                  \
    X(TM_NODE_MUL, 135, 80, 200, 8)      /* ... times this /100 */                                                     \
    X(TM_FALL_DIV, 200, 100, 400, 20)    /* time: 1 + fall/div more when the score falls (at most 1.5) */

#ifdef HEXE_TUNE
#define X(name, def, min, max, c) extern int name;
TUNABLES(X)
#undef X
#else
enum {
#define X(name, def, min, max, c) name = def,
    TUNABLES(X)
#undef X
};
#endif

/* A parameter of the tuning build, as its UCI option. */
typedef struct {
    const char *name;
    int *value;
    int def, min, max;
} Tunable;

/* The tuning build's parameters (none in a release build). */
int tunable_count(void);
Tunable *tunable(int i);

#endif
