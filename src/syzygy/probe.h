/* syzygy/probe.h - probing the Syzygy endgame tablebases through Fathom
 * (Debian's libfathom): the scores of tablebase results, the search's probe
 * limits, WDL probes for the search, and the DTZ root probe that ranks the
 * root moves and picks the one to play. Setting the tables up is setup.h's.
 *
 * Threads: tb_probe_wdl_pos() may be called from any number of search
 * threads at once. tb_set_path() and tb_probe_root_moves() must be called by
 * one thread while no search runs (Fathom's root probe is not thread-safe). */
#ifndef HEXE_SYZYGY_PROBE_H
#define HEXE_SYZYGY_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "../position.h"

/* WDL values from the side to move's view; the same numbers as Fathom's
 * (tbprobe.h defines the same macros with the same values). */
#ifndef TB_LOSS
#define TB_LOSS 0         /* lost */
#define TB_BLESSED_LOSS 1 /* lost without the 50-move rule, drawn with it */
#define TB_DRAW 2
#define TB_CURSED_WIN 3   /* won without the 50-move rule, drawn with it */
#define TB_WIN 4          /* won */
#endif

/* Scores handed to UCI and to the search, in centipawns from the side to
 * move's view; all of them lie strictly between the normal evaluation range
 * and mate scores (mate scores must stay above TB_WIN_SCORE):
 *   root, won:   TB_WIN_SCORE - dtz   with dtz (plies to the next capture or
 *                                     pawn move, counted from the root) in
 *                                     1..TB_MAX_DTZ: 19000..19999
 *   root, WDL only (no DTZ table):    TB_WIN_SCORE - TB_MAX_DTZ = 19000
 *   search, WDL probe at ply p:       TB_WIN_SCORE - TB_MAX_DTZ - p (>= TB_WIN_BOUND)
 *   lost: the negation; drawn (or cursed/blessed under the 50-move rule): 0.
 * Any |score| >= TB_WIN_BOUND is a tablebase result. */
#define TB_WIN_SCORE 20000
#define TB_MAX_DTZ 1000
#define TB_WIN_BOUND (TB_WIN_SCORE - TB_MAX_DTZ - MAX_PLY) /* 18872 */

/* Largest piece count (kings included) the loaded tables cover; 0 when off. */
int tb_max_pieces(void);
/* Set by tb_set_path() (setup.h) once Fathom has its tables, 0 while it has
 * none: every probe checks it, since Fathom's own TB_LARGEST is not reset
 * when its path is set to "". */
void tb_set_max_pieces(int pieces);

/* How the search uses the tables (the options SyzygyProbeDepth,
 * SyzygyProbeLimit and Syzygy50MoveRule). */
typedef struct {
    int probe_depth; /* probe in the tree only this deep or deeper (1..100) ... */
    int probe_limit; /* ... with at most this many pieces (0..7; 0: not at all) */
    bool rule50;     /* count the 50-move rule: a cursed win is a draw */
} TbParams;

/* Depth 1, 5 pieces, the 50-move rule counted. */
TbParams tb_params_default(void);

/* Most pieces probed: the parameters' limit, capped at the largest table found. */
int tb_probe_limit(const TbParams *p);

/* Fathom's view of a position: bitboards with a1 = bit 0 .. h8 = bit 63. */
typedef struct {
    uint64_t white, black, kings, queens, rooks, bishops, knights, pawns;
    unsigned ep;   /* en-passant square 0..63, or 0 for none */
    unsigned rule50;
    bool turn;     /* true = white to move */
} TbBoards;
void tb_boards(const Position *pos, TbBoards *b);

/* WDL of the position from the side to move's view (TB_LOSS..TB_WIN), or -1
 * when it cannot be probed: tablebases off, more pieces than
 * tb_max_pieces(), castling rights, halfmove clock not 0 (Fathom's WDL probe
 * refuses rule50 != 0, since the WDL tables assume a fresh 50-move counter:
 * the search probes right after a capture or pawn move), or a missing or
 * corrupt table. Thread-safe. */
int tb_probe_wdl_pos(const Position *pos);

/* Score for a WDL value found by the search at distance ply from the root
 * (see the score table above). rule50: the Syzygy50MoveRule option. */
int tb_wdl_score(int wdl, int ply, bool rule50);

typedef struct {
    Move move;
    int wdl;      /* TB_LOSS..TB_WIN after this move, root side's view,
                     counting the root's halfmove clock */
    int dtz;      /* plies from the root to the next zeroing move with best
                     play, this move included: > 0 win, < 0 loss, 0 draw;
                     0 as well when only WDL tables were available */
    int tb_rank;  /* Fathom's tbRank: 1000 sure win .. -1000 sure loss */
    int tb_score; /* Fathom's tbScore (its own scale, for information) */
    bool zeroing; /* capture or pawn move */
    bool mate;    /* gives checkmate */
    bool keeps;   /* keeps the root result (the moves the search may play) */
    int reply_dtz;/* winning zeroing moves (when several): the DTZ left to the
                     opponent, for tie-breaks; 0 otherwise */
} TbRootMove;

typedef struct {
    int count;              /* legal root moves, all listed */
    TbRootMove moves[MAX_MOVES];
    int wdl;                /* the root position's WDL counting its halfmove
                               clock (Fathom's five values) */
    int result;             /* TB_WIN, TB_DRAW or TB_LOSS: wdl with cursed wins
                               and blessed losses folded by the rule50 flag */
    int dtz;                /* the root's DTZ as Fathom reports it (signed:
                               > 0 win, < 0 loss); 0 without DTZ tables */
    bool dtz_ok;            /* false: DTZ tables missing, WDL fallback used */
    int best_rank;          /* highest tb_rank among the moves */
    Move best;              /* the move to play (see tb_pick_root_move) */
    int score;              /* its score for UCI */
} TbRootResult;

/* Probes the root: every legal move with its WDL, DTZ, rank and score, the
 * root result, and the move to play (tb_pick_root_move). rule50: count the
 * 50-move rule (cursed win = draw). Uses Fathom's DTZ root probe and falls
 * back to the WDL one when DTZ tables are missing. Returns false when the
 * position cannot be probed (tablebases off, too many pieces, castling
 * rights, no legal move, a table missing or corrupt). Not thread-safe. */
bool tb_probe_root_moves(const Position *pos, bool rule50, TbRootResult *out);

/* Marks the moves that keep the root result and chooses among them:
 *   win:  a mate in one, else a zeroing move (capture or pawn move) that
 *         keeps the win, else the smallest DTZ; ties among zeroing moves go
 *         to the one that leaves the opponent the smallest DTZ;
 *   loss: the largest DTZ (longest resistance);
 *   draw: a move that keeps the draw, preferring a cursed win over a plain
 *         draw over a blessed loss (chances if the opponent errs).
 * Sets r->best and r->score and returns the move. Called by
 * tb_probe_root_moves; public so that a caller can re-pick after changing
 * the list (e.g. removing moves that repeat). */
Move tb_pick_root_move(TbRootResult *r, bool rule50);

#endif
