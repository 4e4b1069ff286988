/* simplified.c - Tomasz Michniewski's Simplified Evaluation Function:
 * material 100/320/330/500/900 plus his piece-square tables.
 *
 * Source: T. Michniewski, "Simplified evaluation function", posted to the
 * Polish chess programming list progszach, republished on the Chess
 * Programming Wiki (chessprogramming.org/Simplified_Evaluation_Function).
 * The numbers below are his published values. */
#include "simplified.h"

#include "evaluators.h"
#include "trace.h"

const int sef_value[7] = {0, 100, 320, 330, 500, 900, 0};

/* clang-format off */
const int8_t sef_pst[8][64] = {
    [PAWN] = {
         0,  0,  0,  0,  0,  0,  0,  0,
        50, 50, 50, 50, 50, 50, 50, 50,
        10, 10, 20, 30, 30, 20, 10, 10,
         5,  5, 10, 25, 25, 10,  5,  5,
         0,  0,  0, 20, 20,  0,  0,  0,
         5, -5,-10,  0,  0,-10, -5,  5,
         5, 10, 10,-20,-20, 10, 10,  5,
         0,  0,  0,  0,  0,  0,  0,  0,
    },
    [KNIGHT] = {
        -50,-40,-30,-30,-30,-30,-40,-50,
        -40,-20,  0,  0,  0,  0,-20,-40,
        -30,  0, 10, 15, 15, 10,  0,-30,
        -30,  5, 15, 20, 20, 15,  5,-30,
        -30,  0, 15, 20, 20, 15,  0,-30,
        -30,  5, 10, 15, 15, 10,  5,-30,
        -40,-20,  0,  5,  5,  0,-20,-40,
        -50,-40,-30,-30,-30,-30,-40,-50,
    },
    [BISHOP] = {
        -20,-10,-10,-10,-10,-10,-10,-20,
        -10,  0,  0,  0,  0,  0,  0,-10,
        -10,  0,  5, 10, 10,  5,  0,-10,
        -10,  5,  5, 10, 10,  5,  5,-10,
        -10,  0, 10, 10, 10, 10,  0,-10,
        -10, 10, 10, 10, 10, 10, 10,-10,
        -10,  5,  0,  0,  0,  0,  5,-10,
        -20,-10,-10,-10,-10,-10,-10,-20,
    },
    [ROOK] = {
          0,  0,  0,  0,  0,  0,  0,  0,
          5, 10, 10, 10, 10, 10, 10,  5,
         -5,  0,  0,  0,  0,  0,  0, -5,
         -5,  0,  0,  0,  0,  0,  0, -5,
         -5,  0,  0,  0,  0,  0,  0, -5,
         -5,  0,  0,  0,  0,  0,  0, -5,
         -5,  0,  0,  0,  0,  0,  0, -5,
          0,  0,  0,  5,  5,  0,  0,  0,
    },
    [QUEEN] = {
        -20,-10,-10, -5, -5,-10,-10,-20,
        -10,  0,  0,  0,  0,  0,  0,-10,
        -10,  0,  5,  5,  5,  5,  0,-10,
         -5,  0,  5,  5,  5,  5,  0, -5,
          0,  0,  5,  5,  5,  5,  0, -5,
        -10,  5,  5,  5,  5,  5,  0,-10,
        -10,  0,  5,  0,  0,  0,  0,-10,
        -20,-10,-10, -5, -5,-10,-10,-20,
    },
    [KING] = { /* middlegame */
        -30,-40,-40,-50,-50,-40,-40,-30,
        -30,-40,-40,-50,-50,-40,-40,-30,
        -30,-40,-40,-50,-50,-40,-40,-30,
        -30,-40,-40,-50,-50,-40,-40,-30,
        -20,-30,-30,-40,-40,-30,-30,-20,
        -10,-20,-20,-20,-20,-20,-20,-10,
         20, 20,  0,  0,  0,  0, 20, 20,
         20, 30, 10,  0,  0, 10, 30, 20,
    },
    [SEF_KING_END] = {
        -50,-40,-30,-20,-20,-30,-40,-50,
        -30,-20,-10,  0,  0,-10,-20,-30,
        -30,-10, 20, 30, 30, 20,-10,-30,
        -30,-10, 30, 40, 40, 30,-10,-30,
        -30,-10, 30, 40, 40, 30,-10,-30,
        -30,-10, 20, 30, 30, 20,-10,-30,
        -30,-30,  0,  0,  0,  0,-30,-30,
        -50,-30,-30,-30,-30,-30,-30,-50,
    },
};
/* clang-format on */

bool sef_king_endgame(const Position *pos)
{
    for (int c = WHITE; c <= BLACK; c++) {
        const uint8_t *n = pos->count;
        if (n[MAKE_PIECE(c, QUEEN)] &&
            (n[MAKE_PIECE(c, ROOK)] || n[MAKE_PIECE(c, KNIGHT)] + n[MAKE_PIECE(c, BISHOP)] > 1))
            return false;
    }
    return true;
}

/* Material and piece-square sums per side and piece type. */
typedef struct {
    int material[2][7];
    int pst[2][7];
    bool king_end;
} SefTerms;

static void sef_terms(const Position *pos, SefTerms *t)
{
    t->king_end = sef_king_endgame(pos);
    for (int c = WHITE; c <= BLACK; c++) {
        for (int k = 0; k < 7; k++)
            t->pst[c][k] = 0;
        for (int k = PAWN; k <= QUEEN; k++)
            t->material[c][k] = sef_value[k] * pos->count[MAKE_PIECE(c, k)];
        t->material[c][KING] = 0;
        for (int i = 0; i < pos->npawns[c]; i++)
            t->pst[c][PAWN] += sef_pst_at(c, PAWN, pos->pawns[c][i]);
        t->pst[c][KING] = sef_pst_at(c, t->king_end ? SEF_KING_END : KING, KING_SQ(pos, c));
        for (int i = 1; i < pos->npieces[c]; i++) {
            int sq = pos->pieces[c][i], k = PTYPE(pos->board[sq]);
            t->pst[c][k] += sef_pst_at(c, k, sq);
        }
    }
}

static int sef_white(const SefTerms *t)
{
    int s = 0;
    for (int k = PAWN; k <= KING; k++)
        s += t->material[WHITE][k] - t->material[BLACK][k] + t->pst[WHITE][k] - t->pst[BLACK][k];
    return s;
}

static int simplified_eval(EvalContext *ctx, const Position *pos)
{
    (void)ctx;
    SefTerms t;
    sef_terms(pos, &t);
    int s = sef_white(&t);
    return pos->side == WHITE ? s : -s;
}

static void simplified_trace(EvalContext *ctx, const Position *pos, FILE *out)
{
    (void)ctx;
    static const char *const mat_name[7] = {"", "material pawns", "material knights", "material bishops",
                                            "material rooks", "material queens", ""};
    static const char *const pst_name[7] = {"", "PST pawns", "PST knights", "PST bishops",
                                            "PST rooks", "PST queens", "PST king"};
    SefTerms t;
    sef_terms(pos, &t);
    trace_header(out, "simplified (Michniewski's Simplified Evaluation Function)");
    for (int k = PAWN; k <= QUEEN; k++)
        trace_row(out, mat_name[k], t.material[WHITE][k], t.material[BLACK][k]);
    for (int k = PAWN; k <= KING; k++)
        trace_row(out, pst_name[k], t.pst[WHITE][k], t.pst[BLACK][k]);
    trace_rule(out);
    int w = 0, b = 0;
    for (int k = PAWN; k <= KING; k++) {
        w += t.material[WHITE][k] + t.pst[WHITE][k];
        b += t.material[BLACK][k] + t.pst[BLACK][k];
    }
    trace_row(out, "sum", w, b);
    fprintf(out, "\nKing table: %s\n", t.king_end ? "endgame" : "middlegame");
    trace_final(out, pos, sef_white(&t));
}

const Evaluator eval_simplified = {.name = "simplified", .evaluate = simplified_eval, .trace = simplified_trace};
