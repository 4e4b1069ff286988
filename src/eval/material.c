/* material.c - Shannon's piece values: 1, 3, 3, 5, 9 pawns. */
#include "evaluators.h"
#include "trace.h"

static const int value[7] = {0, 100, 300, 300, 500, 900, 0};
static const char *const names[7] = {"", "pawns", "knights", "bishops", "rooks", "queens", ""};

static int material_white(const Position *pos)
{
    int s = 0;
    for (int t = PAWN; t <= QUEEN; t++)
        s += value[t] * (pos->count[MAKE_PIECE(WHITE, t)] - pos->count[MAKE_PIECE(BLACK, t)]);
    return s;
}

static int material_eval(EvalContext *ctx, const Position *pos)
{
    (void)ctx;
    int s = material_white(pos);
    return pos->side == WHITE ? s : -s;
}

static void material_trace(EvalContext *ctx, const Position *pos, FILE *out)
{
    (void)ctx;
    trace_header(out, "material (Shannon 1/3/3/5/9)");
    int w = 0, b = 0;
    for (int t = PAWN; t <= QUEEN; t++) {
        int wt = value[t] * pos->count[MAKE_PIECE(WHITE, t)];
        int bt = value[t] * pos->count[MAKE_PIECE(BLACK, t)];
        trace_row(out, names[t], wt, bt);
        w += wt;
        b += bt;
    }
    trace_rule(out);
    trace_row(out, "sum", w, b);
    trace_final(out, pos, material_white(pos));
}

const Evaluator eval_material = {.name = "material", .evaluate = material_eval, .trace = material_trace};
