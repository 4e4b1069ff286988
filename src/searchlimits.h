/* searchlimits.h - what a search is asked for: the limits of one `go`, the
 * parameters its caller sets (options), and the score scale. Every caller of
 * the search (the UCI front end, bench, play, datagen) fills these and hands
 * them over; nothing reaches the search through a global. */
#ifndef HEXE_SEARCHLIMITS_H
#define HEXE_SEARCHLIMITS_H

#include "eval.h"
#include "syzygy/probe.h"

/* Scores: centipawns from the side to move's view. Mate in n plies from the
 * root is MATE - n; tablebase results lie between TB_WIN_BOUND (18872) and
 * 20000 (tb.h). */
#define INF 32000
#define MATE 31000
#define MATE_IN_MAX (MATE - MAX_PLY)

/* What `go` asked for. Times are in milliseconds; NO_TIME means "not given"
 * (a clock may be given as zero or negative). */
#define NO_TIME INT64_MIN
/* Clocks, increments and movetime are kept within +-CLOCK_LIMIT ms (about
 * 35,000 years): any 64-bit value `go` sends is clamped into it, so that it
 * never meets NO_TIME and the time arithmetic cannot overflow. */
#define CLOCK_LIMIT ((int64_t)1 << 50)
static inline int64_t clamp_clock(int64_t v) { return v < -CLOCK_LIMIT ? -CLOCK_LIMIT : v > CLOCK_LIMIT ? CLOCK_LIMIT : v; }
typedef struct {
    int64_t time[2], inc[2];
    int movestogo;
    int depth;
    uint64_t nodes;
    uint64_t soft_nodes; /* no new iteration once this many nodes are spent (datagen) */
    int mate;
    int64_t movetime;
    bool infinite, ponder;
    int nsearchmoves;
    Move searchmoves[MAX_MOVES];
    Move book_move; /* play this book move without searching */
} Limits;

void limits_init(Limits *lim);

/* How to search: the settings the caller's options give (the UCI options, or
 * bench's, play's and datagen's own), copied by the search when it starts. */
typedef struct {
    int threads;
    int multipv;
    int move_overhead; /* ms kept back from every clock */
    bool show_wdl;     /* UCI_ShowWDL */
    bool limit_strength;
    int elo;           /* UCI_Elo, with limit_strength */
    int skill;         /* 0..20; 20 is full strength */
    TbParams tb;       /* the Syzygy probe limits (syzygy/probe.h) */
    EvalChoice eval;   /* the evaluator and its network (eval.h) */
} SearchParams;

/* Full strength, one thread, one PV, the default tablebase limits and
 * evaluator. */
SearchParams search_params_default(void);

#endif
