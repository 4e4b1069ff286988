/* hexe_weights.h - the weights of the `hexe` evaluator, laid out for a tuner.
 *
 * Every weight is an int inside one struct (HexeWeights, defaults in
 * hexe_defaults.inc), so a Texel tuner can treat them as one flat vector:
 *
 *     for (int i = 0; i < hexe_param_count(); i++)
 *         printf("%s = %d\n", hexe_param_name(i), *hexe_param(i));
 *     *hexe_param(j) += 1;
 *     hexe_params_changed();          // after any write: drops cached scores
 */
#ifndef HEXE_EVAL_HEXE_WEIGHTS_H
#define HEXE_EVAL_HEXE_WEIGHTS_H

#include <stdio.h>

#include "../position.h"
#include "../types.h" /* Score */

typedef struct {
    Score material[5];           /* pawn, knight, bishop, rook, queen */
    /* Piece-square tables by piece type pawn..king, from White's point of
     * view, laid out as a board is drawn: index 0 = a8, 7 = h8, 63 = h1. */
    int pst_mg[6][64];
    int pst_eg[6][64];
    /* Mobility by number of safe squares (attacked, not holding an own pawn
     * or king, not attacked by an enemy pawn). */
    Score mob_knight[9];
    Score mob_bishop[14];
    Score mob_rook[15];
    Score mob_queen[28];
    /* Pawn structure; arrays by the pawn's rank as seen from its own side (0..7). */
    Score isolated, doubled, backward;
    Score connected[8];          /* defended by a pawn or beside one */
    Score passed[8];
    Score passed_free[8];        /* the square in front empty and not attacked */
    Score passed_own_king[8];    /* times own king's distance to that square */
    Score passed_enemy_king[8];  /* times enemy king's distance to that square */
    Score unstoppable;           /* a passer the lone enemy king cannot catch */
    /* King safety. */
    Score shield[3];             /* own pawn 1 or 2 squares ahead on each of the 3 files, or neither */
    Score king_open_file;        /* no own pawn on one of those files */
    Score pawn_storm[8];         /* per enemy pawn on those files, by its rank seen from its side, not blocked */
    Score pawn_storm_blocked;    /* per enemy pawn on those files with an own pawn right in front of it */
    Score king_pawn_distance;    /* times the king's distance to its nearest own pawn */
    Score king_attacker[4];      /* weight of a knight, bishop, rook, queen attacking the zone */
    int king_attack_pct[8];      /* percent of the weight sum, by number of attackers */
    Score king_ring_attack;      /* added to the weight sum per attack on a square next to the king */
    Score king_weak_square;      /* added per square next to the king attacked and guarded by king or queen alone */
    Score king_safe_check[4];    /* per square a knight, bishop, rook, queen could check from safely */
    /* Pieces. */
    Score bishop_pair;
    Score rook_open, rook_semiopen, rook_seventh;
    Score outpost[2];            /* knight, bishop */
    Score bishop_pawns;          /* per bishop, per own pawn on squares of its colour */
    Score minor_behind_pawn;     /* a knight or bishop with a pawn right in front of it */
    Score space;                 /* in 1/16 cp, times safe central squares (ranks 2-4) times own pieces */
    /* Threats. */
    Score threat_by_pawn[4];     /* on a knight, bishop, rook, queen */
    Score threat_by_minor[2];    /* on a rook, queen */
    Score threat_by_rook;        /* on a queen */
    Score push_threat;           /* per enemy piece a safe pawn push would attack */
    Score hanging[5];            /* attacked and undefended pawn .. queen */
    Score tempo;
    /* Complexity: added to the endgame sum towards the side ahead there (and
     * never more than taking the sum to 0): per pawn, per passed pawn, with
     * pawns on both wings, with no pieces but kings and pawns, per file of
     * distance between the kings minus their rank distance, and a constant. */
    int complexity_pawn, complexity_passed, complexity_flanks, complexity_pawns_only, complexity_outflank,
        complexity_base;
    /* Scale factors for the endgame part, out of SCALE_NORMAL (64). */
    int scale_ocb;               /* opposite-coloured bishops, nothing else but pawns */
    int scale_ocb_pieces;        /* opposite-coloured bishops with other pieces */
    int scale_rook_minor;        /* pawnless rook against a minor */
    int scale_small_edge;        /* pawnless, at most a minor up */
    int scale_cannot_win;        /* pawnless with at most a minor */
    /* Won endings against a bare king. */
    int known_win;
    int lone_king_edge;          /* per step of the lone king away from the centre */
    int lone_king_corner;        /* KBNK: per step nearer a corner of the bishop's colour */
    int kings_close;             /* per step the kings are nearer than 7 */
} HexeWeights;

extern HexeWeights hexe_weights;              /* the weights in use */
extern const HexeWeights hexe_weights_default;

/* The weights as a flat vector of ints. */
int hexe_param_count(void);
int *hexe_param(int i);             /* NULL when i is out of range */
const char *hexe_param_name(int i); /* e.g. "pst_mg knight e4", "passed[5] eg" */
/* Call after writing weights (not during a search): rebuilds the positions'
 * piece-square table and changes hexe_weights_salt. */
void hexe_params_changed(void);
void hexe_params_reset(void);       /* back to the defaults */
void hexe_params_write(FILE *out);  /* "name = value" lines */
void hexe_params_write_inc(FILE *out); /* a hexe_defaults.inc with the current weights */

/* Mixed into the keys of the pawn cache and changed with the weights, so
 * that no pawn score computed with older weights is found again. */
extern uint64_t hexe_weights_salt;

#define SCALE_NORMAL 64 /* the scale factors' unit */

#endif
