/* position.h - the 0x88 position: board, piece lists, game history, make/unmake. */
#ifndef HEXE_POSITION_H
#define HEXE_POSITION_H

#include <stddef.h>

#include "types.h"

/* Castling rights: one bit each. */
enum { WKSIDE = 1, WQSIDE = 2, BKSIDE = 4, BQSIDE = 8 };

/* Polyglot key terms of groups of pieces, which key the correction
 * histories and the pawn cache. */
typedef struct {
    uint64_t pawn;       /* the pawns */
    uint64_t nonpawn[2]; /* each side's other pieces, king included */
    uint64_t minor;      /* both sides' knights and bishops */
    uint64_t major;      /* both sides' rooks, queens and kings */
} PieceKeys;

/* What make_move must remember so that unmake_move restores the position
 * exactly; one entry per ply played, kept for the whole game. */
typedef struct {
    uint64_t key;     /* key before the move */
    PieceKeys keys;
    Score psq[2];
    Move move;
    uint8_t captured; /* piece captured (EMPTY if none) */
    uint8_t castle;
    uint8_t ep;
    uint8_t cap_index; /* list slot the captured piece occupied */
    uint8_t pro_index; /* pawn-list slot of a promoting pawn */
    int16_t halfmove;
} Undo;

typedef struct Position {
    uint8_t board[128];      /* piece on each 0x88 square */
    uint8_t index[128];      /* slot of the piece in its list */
    uint8_t pieces[2][16];   /* non-pawn pieces per side; the king is slot 0 */
    uint8_t pawns[2][8];     /* pawns per side */
    uint8_t npieces[2], npawns[2];
    uint8_t count[16];       /* number of each coloured piece */
    int side;                /* side to move */
    int castle;              /* WKSIDE | WQSIDE | BKSIDE | BQSIDE */
    uint8_t castle_rook[4];  /* rook square for each right (index = bit number) */
    uint8_t castle_mask[128];/* rights kept when a move touches a square */
    int ep;                  /* en-passant target square, or NO_SQ */
    int halfmove;            /* plies since the last capture or pawn move */
    int fullmove;
    bool chess960;           /* write castling as king-takes-rook */
    uint64_t key;            /* Polyglot key of the position */
    /* Kept up to date with the board for the evaluators: */
    uint64_t bb[16];         /* squares of each coloured piece (bit rank * 8 + file, a1 = 0) */
    PieceKeys keys;
    Score psq[2];            /* sum of psq_table over each side's pieces ... */
    unsigned psq_ver;        /* ... valid when this equals psq_version */
    /* Game history, growable: every position since the FEN was set. */
    Undo *hist;
    int hply, hcap;
} Position;

#define KING_SQ(pos, c) ((pos)->pieces[c][0])

/* Incremental piece-square sums. An evaluator that scores each piece by its
 * square alone (material and piece-square tables) writes its values into
 * psq_table (by coloured piece and square 0..63, from the piece owner's
 * point of view) and calls psq_table_changed(); positions then keep
 * pos->psq[side] up to date through make/unmake. A position whose psq_ver
 * differs from psq_version (set up before the table last changed) has sums
 * that mean nothing: the evaluator computes them itself then. The table is
 * only written between searches. */
extern Score psq_table[16][64];
extern unsigned psq_version; /* 0: no table written yet */
void psq_table_changed(void);
void pos_psq_refresh(Position *pos); /* recompute pos->psq for the current table */

/* Set-up and copies. */
void pos_init(Position *pos);                 /* empty board, no history */
void pos_free(Position *pos);
void pos_copy(Position *dst, const Position *src); /* deep copy (history too) */
bool pos_reserve(Position *pos, int extra);   /* room for extra more plies */
bool pos_is_ok(const Position *pos, const char **why); /* full consistency check */

/* Board edits used by FEN parsing (they keep lists, counts and key right). */
void pos_put(Position *pos, int sq, int piece);
void pos_remove(Position *pos, int sq);

/* Make/unmake. make_move expects a legal move. */
void make_move(Position *pos, Move m);
void unmake_move(Position *pos);
void make_null(Position *pos);
void unmake_null(Position *pos);

/* Attacks. */
bool sq_attacked(const Position *pos, int sq, int by);
/* The same with the squares skip1 and skip2 (NO_SQ for none) taken as empty. */
bool sq_attacked_through(const Position *pos, int sq, int by, int skip1, int skip2);
bool in_check(const Position *pos);

/* Steps on the 0x88 board. */
extern const int knight_dirs[8], king_dirs[8], bishop_dirs[4], rook_dirs[4];

/* Game state. */
bool is_repetition(const Position *pos, int count_needed); /* count_needed earlier occurrences */
bool insufficient_material(const Position *pos);
int castle_side_of(const Position *pos, Move m); /* index of the right a castle move uses */

/* Delta tables (position.c). */
extern uint8_t attack_kinds[240];
extern int8_t attack_step[240];
#define DELTA(from, to) ((to) - (from) + 119)
void attack_init(void);

#endif
