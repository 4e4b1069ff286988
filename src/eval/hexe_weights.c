/* hexe_weights.c - every weight of the `hexe` evaluator in one struct (the
 * defaults are in hexe_defaults.inc), the flat view a tuner uses, and the
 * piece-square table the weights give (hexe_weights.h). */
#include "hexe_weights.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define S(mg, eg) {(mg), (eg)}

const HexeWeights hexe_weights_default = {
#include "hexe_defaults.inc"
};

HexeWeights hexe_weights = {
#include "hexe_defaults.inc"
};

uint64_t hexe_weights_salt = 0x9E3779B97F4A7C15ULL;

/* Material plus piece-square value of each piece on each square, from its
 * owner's side (the pst tables are drawn from White's side, a8 first). */
static Score psq_value(int p, int s)
{
    int t = PTYPE(p), i = PCOLOR(p) == WHITE ? s ^ 56 : s;
    Score v = {hexe_weights.pst_mg[t - 1][i], hexe_weights.pst_eg[t - 1][i]};
    if (t != KING) {
        v.mg += hexe_weights.material[t - PAWN].mg;
        v.eg += hexe_weights.material[t - PAWN].eg;
    }
    return v;
}

void hexe_params_changed(void)
{
    hexe_weights_salt = hexe_weights_salt * 6364136223846793005ULL + 1442695040888963407ULL;
    for (int c = WHITE; c <= BLACK; c++)
        for (int t = PAWN; t <= KING; t++)
            for (int s = 0; s < 64; s++)
                psq_table[MAKE_PIECE(c, t)][s] = psq_value(MAKE_PIECE(c, t), s);
    psq_table_changed();
}

/* ---- The flat view ---- */

_Static_assert(sizeof(HexeWeights) % sizeof(int) == 0, "HexeWeights must be made of ints only");
#define NPARAMS ((int)(sizeof(HexeWeights) / sizeof(int)))

enum { L_INDEX, L_PIECE, L_SQUARE, L_KNIGHT_UP, L_ROOK_UP };

typedef struct {
    const char *name;
    size_t offset; /* bytes */
    int n;         /* elements; 0 for a single one */
    bool score;    /* each element an mg/eg pair */
    int labels;
} Group;

#define ONE(f, sc) {#f, offsetof(HexeWeights, f), 0, sc, L_INDEX}
#define ARR(f, sc, lab) {#f, offsetof(HexeWeights, f), (int)(sizeof hexe_weights.f / sizeof hexe_weights.f[0]), sc, lab}
#define PST(f, t, nm) {#f " " nm, offsetof(HexeWeights, f) + (t) * 64 * sizeof(int), 64, false, L_SQUARE}

static const Group groups[] = {
    ARR(material, true, L_PIECE),
    PST(pst_mg, 0, "pawn"), PST(pst_mg, 1, "knight"), PST(pst_mg, 2, "bishop"),
    PST(pst_mg, 3, "rook"), PST(pst_mg, 4, "queen"), PST(pst_mg, 5, "king"),
    PST(pst_eg, 0, "pawn"), PST(pst_eg, 1, "knight"), PST(pst_eg, 2, "bishop"),
    PST(pst_eg, 3, "rook"), PST(pst_eg, 4, "queen"), PST(pst_eg, 5, "king"),
    ARR(mob_knight, true, L_INDEX), ARR(mob_bishop, true, L_INDEX),
    ARR(mob_rook, true, L_INDEX), ARR(mob_queen, true, L_INDEX),
    ONE(isolated, true), ONE(doubled, true), ONE(backward, true),
    ARR(connected, true, L_INDEX), ARR(passed, true, L_INDEX), ARR(passed_free, true, L_INDEX),
    ARR(passed_own_king, true, L_INDEX), ARR(passed_enemy_king, true, L_INDEX),
    ONE(unstoppable, true),
    ARR(shield, true, L_INDEX), ONE(king_open_file, true),
    ARR(pawn_storm, true, L_INDEX), ONE(pawn_storm_blocked, true), ONE(king_pawn_distance, true),
    ARR(king_attacker, true, L_KNIGHT_UP), ARR(king_attack_pct, false, L_INDEX),
    ONE(king_ring_attack, true), ONE(king_weak_square, true), ARR(king_safe_check, true, L_KNIGHT_UP),
    ONE(bishop_pair, true), ONE(rook_open, true), ONE(rook_semiopen, true), ONE(rook_seventh, true),
    ARR(outpost, true, L_KNIGHT_UP), ONE(bishop_pawns, true), ONE(minor_behind_pawn, true), ONE(space, true),
    ARR(threat_by_pawn, true, L_KNIGHT_UP), ARR(threat_by_minor, true, L_ROOK_UP),
    ONE(threat_by_rook, true), ONE(push_threat, true),
    ARR(hanging, true, L_PIECE), ONE(tempo, true),
    ONE(complexity_pawn, false), ONE(complexity_passed, false), ONE(complexity_flanks, false),
    ONE(complexity_pawns_only, false), ONE(complexity_outflank, false), ONE(complexity_base, false),
    ONE(scale_ocb, false), ONE(scale_ocb_pieces, false), ONE(scale_rook_minor, false),
    ONE(scale_small_edge, false), ONE(scale_cannot_win, false),
    ONE(known_win, false), ONE(lone_king_edge, false), ONE(lone_king_corner, false),
    ONE(kings_close, false),
};
#define NGROUPS ((int)(sizeof groups / sizeof groups[0]))

static char names[NPARAMS][40];
static bool names_ready;

static void build_names(void)
{
    static const char *const piece[] = {"pawn", "knight", "bishop", "rook", "queen", "king"};
    for (int g = 0; g < NGROUPS; g++) {
        const Group *gr = &groups[g];
        int n = gr->n ? gr->n : 1;
        for (int e = 0; e < n; e++) {
            char base[40];
            if (!gr->n)
                snprintf(base, sizeof base, "%s", gr->name);
            else if (gr->labels == L_SQUARE)
                snprintf(base, sizeof base, "%s %c%c", gr->name, 'a' + e % 8, '8' - e / 8);
            else if (gr->labels == L_PIECE || gr->labels == L_KNIGHT_UP || gr->labels == L_ROOK_UP)
                snprintf(base, sizeof base, "%s %s", gr->name,
                         piece[e + (gr->labels == L_KNIGHT_UP ? 1 : gr->labels == L_ROOK_UP ? 3 : 0)]);
            else
                snprintf(base, sizeof base, "%s[%d]", gr->name, e);
            int idx = (int)(gr->offset / sizeof(int)) + e * (gr->score ? 2 : 1);
            if (gr->score) {
                snprintf(names[idx], sizeof names[idx], "%.36s mg", base);
                snprintf(names[idx + 1], sizeof names[idx + 1], "%.36s eg", base);
            } else {
                snprintf(names[idx], sizeof names[idx], "%s", base);
            }
        }
    }
    names_ready = true;
}

int hexe_param_count(void) { return NPARAMS; }

int *hexe_param(int i) { return i >= 0 && i < NPARAMS ? (int *)&hexe_weights + i : NULL; }

const char *hexe_param_name(int i)
{
    if (i < 0 || i >= NPARAMS)
        return NULL;
    if (!names_ready)
        build_names();
    return names[i];
}

void hexe_params_reset(void)
{
    hexe_weights = hexe_weights_default;
    hexe_params_changed();
}

/* The weights as the body of a HexeWeights initializer, the format of
 * hexe_defaults.inc, so tuned weights can replace the defaults. */
void hexe_params_write_inc(FILE *out)
{
    fprintf(out, "/* hexe_defaults.inc - the weights of the `hexe` evaluator: the body of a\n"
                 " * HexeWeights initializer (see hexe.h), included by hexe_weights.c.\n"
                 " * S(mg, eg) is a middlegame/endgame pair in centipawns.\n"
                 " * Written by `hexe tune` (src/tools/tune.c): fitted to positions of Hexe's\n"
                 " * self-play games and the targets docs/tuning.md names,\n"
                 " * starting from hand-set weights whose piece-square tables began as\n"
                 " * Michniewski's Simplified Evaluation Function tables. docs/tuning.md says\n"
                 " * how to make it again. */\n"
                 "/* clang-format off */\n");
    for (int g = 0; g < NGROUPS; g++) {
        const Group *gr = &groups[g];
        const int *v = (const int *)((const char *)&hexe_weights + gr->offset);
        char field[40];
        snprintf(field, sizeof field, "%s", gr->name);
        field[strcspn(field, " ")] = '\0';
        if (gr->labels == L_SQUARE) {
            size_t base = !strcmp(field, "pst_mg") ? offsetof(HexeWeights, pst_mg) : offsetof(HexeWeights, pst_eg);
            fprintf(out, ".%s[%d] = {\n", field, (int)((gr->offset - base) / (64 * sizeof(int))));
            for (int r = 0; r < 8; r++) {
                fprintf(out, "   ");
                for (int f = 0; f < 8; f++)
                    fprintf(out, " %4d,", v[r * 8 + f]);
                fprintf(out, "\n");
            }
            fprintf(out, "},\n");
            continue;
        }
        int n = gr->n ? gr->n : 1;
        fprintf(out, ".%s = %s", field, gr->n ? "{" : "");
        for (int e = 0; e < n; e++) {
            if (gr->score)
                fprintf(out, "S(%d, %d)", v[2 * e], v[2 * e + 1]);
            else
                fprintf(out, "%d", v[e]);
            if (e + 1 < n)
                fprintf(out, ", ");
        }
        fprintf(out, "%s,\n", gr->n ? "}" : "");
    }
}

void hexe_params_write(FILE *out)
{
    for (int i = 0; i < NPARAMS; i++)
        fprintf(out, "%s = %d\n", hexe_param_name(i), *hexe_param(i));
}
