/* classic.c - the weighted sum of the original university Python AI:
 * material, attacked enemy pieces, piece-square tables, king-zone safety and
 * mobility, each multiplied by a weight that is a UCI spin option.
 *
 * Units: every term is first measured in pawns (pawn 1, knight 3, bishop 3,
 * rook 5, queen 9; piece-square values = Simplified-Evaluation-Function
 * tables / 100; king-safety penalty in centipawns / 100), multiplied by its
 * weight, and the weighted sum is in the AI's own units, where one pawn of
 * material is 50 units. Hexe reports centipawns: one pawn of material must
 * be 100 cp, so cp = units * 2. Each term is rounded to a whole centipawn per
 * side (halves away from zero) before it is added, so that the trace adds up
 * exactly to what evaluate() returns.
 *
 *   material     w_mat  * (pawn units of own men)
 *   attacks      w_att  * (sum of the pawn values of enemy men attacked),
 *                counted in full for the side to move and half for the other
 *   PST          w_pst  * (own piece-square sum / 100); the opponent's counts
 *                with the same weight against him
 *   king safety  w_king * (penalty / 100) against each king, penalty =
 *                sum of attacker constants (N 20, B 20, R 40, Q 80) of the
 *                pieces attacking the king zone * weight[n] / 100, n = number
 *                of such pieces, weight = 0, 0, 50, 75, 88, 94, 97, 99 %;
 *                the zone is the king's file +-1, over the king's rank and
 *                the three ranks ahead of it
 *   mobility     w_mob  * (number of pseudo-legal moves); castling counts
 *                when it is legal, en passant only for the side to move,
 *                a capture of the king never
 */
#include "evaluators.h"
#include "simplified.h"
#include "trace.h"

int classic_weight[CLASSIC_NWEIGHTS] = {50, 10, 25, 5, 4};
const int classic_weight_default[CLASSIC_NWEIGHTS] = {50, 10, 25, 5, 4};

static const int unit[7] = {0, 1, 3, 3, 5, 9, 0};
static const int zone_const[7] = {0, 0, 20, 20, 40, 80, 0};
static const int zone_weight[8] = {0, 0, 50, 75, 88, 94, 97, 99};


typedef struct {
    int material[2];  /* pawn units of each side's men */
    int attacked[2];  /* pawn units of the enemy men each side attacks */
    int pst[2];       /* centipawns, Simplified tables */
    int zone_n[2];    /* pieces attacking each side's king zone */
    int zone_sum[2];  /* their attacker constants */
    int moves[2];     /* pseudo-legal moves */
    int cp[CLASSIC_NWEIGHTS][2]; /* each weighted term in centipawns, per side */
    bool king_end;
} ClassicTerms;

/* num / den rounded to the nearest integer, halves away from zero (den > 0). */
static int rdiv(long num, long den)
{
    return num >= 0 ? (int)((num + den / 2) / den) : -(int)((-num + den / 2) / den);
}

/* Whether sq lies in the zone of the king of colour c standing on ksq. */
static inline bool in_zone(int c, int ksq, int sq)
{
    int df = FILE_OF(sq) - FILE_OF(ksq), dr = RANK_OF(sq) - RANK_OF(ksq);
    if (c == BLACK)
        dr = -dr;
    return df >= -1 && df <= 1 && dr >= 0 && dr <= 3;
}

/* Marks every square side c attacks in att, counts c's pseudo-legal moves
 * (castling aside) and the pieces of c attacking the enemy king zone. */
static void side_scan(const Position *pos, int c, uint8_t *att, ClassicTerms *t)
{
    const uint8_t *b = pos->board;
    int them = c ^ 1, eks = KING_SQ(pos, them), moves = 0;
    for (int i = 0; i < pos->npieces[c]; i++) {
        int sq = pos->pieces[c][i], type = PTYPE(b[sq]);
        bool hits = false;
        if (type == KNIGHT || type == KING) {
            const int *d = type == KNIGHT ? knight_dirs : king_dirs;
            for (int k = 0; k < 8; k++) {
                int to = sq + d[k];
                if (OFFBOARD(to))
                    continue;
                att[to] = 1;
                moves += b[to] == EMPTY || (PCOLOR(b[to]) == them && to != eks);
                hits |= in_zone(them, eks, to);
            }
        } else {
            int k0 = type == ROOK ? 0 : type == BISHOP ? 4 : 0, k1 = type == ROOK ? 4 : 8;
            for (int k = k0; k < k1; k++) {
                int d = king_dirs[k];
                for (int to = sq + d; !OFFBOARD(to); to += d) {
                    att[to] = 1;
                    hits |= in_zone(them, eks, to);
                    if (b[to] != EMPTY) {
                        moves += PCOLOR(b[to]) == them && to != eks;
                        break;
                    }
                    moves++;
                }
            }
        }
        if (hits && type != KING) {
            t->zone_n[them]++;
            t->zone_sum[them] += zone_const[type];
        }
    }
    int fwd = c == WHITE ? 16 : -16, start = c == WHITE ? 1 : 6, last = c == WHITE ? 6 : 1;
    for (int i = 0; i < pos->npawns[c]; i++) {
        int sq = pos->pawns[c][i], per = RANK_OF(sq) == last ? 4 : 1;
        for (int dx = -1; dx <= 1; dx += 2) {
            int to = sq + fwd + dx;
            if (OFFBOARD(to))
                continue;
            att[to] = 1;
            if (b[to] != EMPTY && PCOLOR(b[to]) == them && to != eks)
                moves += per;
            else if (to == pos->ep && c == pos->side)
                moves++;
        }
        if (b[sq + fwd] == EMPTY) {
            moves += per;
            if (RANK_OF(sq) == start && b[sq + 2 * fwd] == EMPTY)
                moves++;
        }
    }
    t->moves[c] = moves;
}

/* Legal castling moves of side c: the squares the king and rook cross are
 * empty (but for the two of them) and the king crosses no attacked square. */
static int castling_moves(const Position *pos, int c, const uint8_t *enemy_att)
{
    int n = 0, ksq = KING_SQ(pos, c);
    for (int bit = 2 * c; bit <= 2 * c + 1; bit++) {
        if (!(pos->castle & (1 << bit)))
            continue;
        int rsq = pos->castle_rook[bit], rank = RANK_OF(ksq);
        bool kingside = rsq > ksq;
        int kto = SQ(kingside ? 6 : 2, rank), rto = SQ(kingside ? 5 : 3, rank);
        int lo = ksq, hi = ksq;
        int ends[3] = {kto, rsq, rto};
        for (int k = 0; k < 3; k++) {
            lo = ends[k] < lo ? ends[k] : lo;
            hi = ends[k] > hi ? ends[k] : hi;
        }
        bool ok = true;
        for (int s = lo; s <= hi && ok; s++)
            if (s != ksq && s != rsq && pos->board[s] != EMPTY)
                ok = false;
        int step = kto >= ksq ? 1 : -1;
        for (int s = ksq;; s += step) {
            if (enemy_att[s])
                ok = false;
            if (s == kto)
                break;
        }
        n += ok;
    }
    return n;
}

static void classic_terms(const Position *pos, ClassicTerms *t)
{
    uint8_t att[2][128] = {{0}};
    for (int c = WHITE; c <= BLACK; c++) {
        t->zone_n[c] = t->zone_sum[c] = t->pst[c] = t->attacked[c] = 0;
        t->material[c] = 0;
        for (int k = PAWN; k <= QUEEN; k++)
            t->material[c] += unit[k] * pos->count[MAKE_PIECE(c, k)];
    }
    side_scan(pos, WHITE, att[WHITE], t);
    side_scan(pos, BLACK, att[BLACK], t);
    t->king_end = sef_king_endgame(pos);
    for (int c = WHITE; c <= BLACK; c++) {
        int them = c ^ 1;
        t->moves[c] += castling_moves(pos, c, att[them]);
        for (int i = 0; i < pos->npawns[c]; i++) {
            int sq = pos->pawns[c][i];
            t->pst[c] += sef_pst_at(c, PAWN, sq);
            if (att[them][sq])
                t->attacked[them] += unit[PAWN];
        }
        t->pst[c] += sef_pst_at(c, t->king_end ? SEF_KING_END : KING, KING_SQ(pos, c));
        for (int i = 1; i < pos->npieces[c]; i++) {
            int sq = pos->pieces[c][i], k = PTYPE(pos->board[sq]);
            t->pst[c] += sef_pst_at(c, k, sq);
            if (att[them][sq])
                t->attacked[them] += unit[k];
        }
    }
    const int *w = classic_weight;
    for (int c = WHITE; c <= BLACK; c++) {
        int n = t->zone_n[c] < 7 ? t->zone_n[c] : 7;
        t->cp[CLASSIC_MATERIAL][c] = 2 * w[CLASSIC_MATERIAL] * t->material[c];
        t->cp[CLASSIC_ATTACKS][c] = rdiv(2L * w[CLASSIC_ATTACKS] * t->attacked[c] * (c == pos->side ? 2 : 1), 2);
        t->cp[CLASSIC_PST][c] = rdiv(2L * w[CLASSIC_PST] * t->pst[c], 100);
        t->cp[CLASSIC_KING][c] = -rdiv(2L * w[CLASSIC_KING] * t->zone_sum[c] * zone_weight[n], 10000);
        t->cp[CLASSIC_MOBILITY][c] = 2 * w[CLASSIC_MOBILITY] * t->moves[c];
    }
}

static int classic_white(const ClassicTerms *t)
{
    int s = 0;
    for (int i = 0; i < CLASSIC_NWEIGHTS; i++)
        s += t->cp[i][WHITE] - t->cp[i][BLACK];
    return s;
}

static int classic_eval(EvalContext *ctx, const Position *pos)
{
    (void)ctx;
    ClassicTerms t;
    classic_terms(pos, &t);
    int s = classic_white(&t);
    return pos->side == WHITE ? s : -s;
}

static void classic_trace(EvalContext *ctx, const Position *pos, FILE *out)
{
    (void)ctx;
    static const char *const name[CLASSIC_NWEIGHTS] = {"material", "attacks", "PST", "king safety", "mobility"};
    ClassicTerms t;
    classic_terms(pos, &t);
    trace_header(out, "classic (weighted sum of the university Python AI)");
    int w = 0, b = 0;
    for (int i = 0; i < CLASSIC_NWEIGHTS; i++) {
        trace_row(out, name[i], t.cp[i][WHITE], t.cp[i][BLACK]);
        w += t.cp[i][WHITE];
        b += t.cp[i][BLACK];
    }
    trace_rule(out);
    trace_row(out, "sum", w, b);

    fprintf(out, "\nRaw quantities:\n");
    trace_row(out, "material (pawns)", t.material[WHITE], t.material[BLACK]);
    trace_row(out, "attacked men (pawns)", t.attacked[WHITE], t.attacked[BLACK]);
    trace_row(out, "PST sum (cp)", t.pst[WHITE], t.pst[BLACK]);
    trace_row(out, "king-zone attackers", t.zone_n[WHITE], t.zone_n[BLACK]);
    trace_row(out, "their constants", t.zone_sum[WHITE], t.zone_sum[BLACK]);
    trace_row(out, "pseudo-legal moves", t.moves[WHITE], t.moves[BLACK]);
    fprintf(out,
            "\nWeights (units): material %d, attacks %d (side to move full, other half), PST %d,\n"
            "king safety %d, mobility %d; one pawn of material = 50 units, cp = units * 2.\n"
            "King table: %s\n",
            classic_weight[CLASSIC_MATERIAL], classic_weight[CLASSIC_ATTACKS], classic_weight[CLASSIC_PST],
            classic_weight[CLASSIC_KING], classic_weight[CLASSIC_MOBILITY], t.king_end ? "endgame" : "middlegame");
    trace_final(out, pos, classic_white(&t));
}

/* The weights as UCI spin options (range 0..1000). */
static EvalParam params[] = {
    {"Classic Material", &classic_weight[CLASSIC_MATERIAL], 50, 0, 1000},
    {"Classic Attacks", &classic_weight[CLASSIC_ATTACKS], 10, 0, 1000},
    {"Classic PST", &classic_weight[CLASSIC_PST], 25, 0, 1000},
    {"Classic KingSafety", &classic_weight[CLASSIC_KING], 5, 0, 1000},
    {"Classic Mobility", &classic_weight[CLASSIC_MOBILITY], 4, 0, 1000},
};

const Evaluator eval_classic = {.name = "classic", .evaluate = classic_eval, .trace = classic_trace,
                                .params = params, .nparams = (int)(sizeof params / sizeof params[0])};
