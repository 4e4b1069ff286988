/* material.c - Shannon's piece values: 1, 3, 3, 5, 9 pawns. */
#include "evaluators.h"

static const int value[7] = {0, 100, 300, 300, 500, 900, 0};
static const char *const names[7] = {"", "pawns", "knights", "bishops", "rooks", "queens", ""};

static int material_white(const Position *pos)
{
    int s = 0;
    for (int t = PAWN; t <= QUEEN; t++)
        s += value[t] * (pos->count[MAKE_PIECE(WHITE, t)] - pos->count[MAKE_PIECE(BLACK, t)]);
    return s;
}

static int material_eval(const Position *pos)
{
    int s = material_white(pos);
    return pos->side == WHITE ? s : -s;
}

static void material_trace(const Position *pos, FILE *out)
{
    fprintf(out, "Evaluation: material (Shannon 1/3/3/5/9)\n\n");
    fprintf(out, "%-10s %8s %8s %8s\n", "term", "White", "Black", "total");
    for (int t = PAWN; t <= QUEEN; t++) {
        int w = value[t] * pos->count[MAKE_PIECE(WHITE, t)];
        int b = value[t] * pos->count[MAKE_PIECE(BLACK, t)];
        fprintf(out, "%-10s %8d %8d %8d\n", names[t], w, b, w - b);
    }
    int s = material_white(pos);
    fprintf(out, "\nFinal evaluation: %d cp (White's view), %d cp (side to move's view)\n", s,
            pos->side == WHITE ? s : -s);
}

const Evaluator eval_material = {"material", material_eval, material_trace};
