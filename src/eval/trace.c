/* trace.c - the common layout of the evaluators' explain output. */
#include "trace.h"

void trace_header(FILE *out, const char *title)
{
    fprintf(out, "Evaluation: %s\n\n", title);
    fprintf(out, "%-22s %8s %8s %8s\n", "term (cp)", "White", "Black", "total");
    trace_rule(out);
}

void trace_row(FILE *out, const char *term, int white, int black)
{
    fprintf(out, "%-22s %8d %8d %8d\n", term, white, black, white - black);
}

void trace_rule(FILE *out)
{
    fprintf(out, "---------------------- -------- -------- --------\n");
}

void trace_header2(FILE *out, const char *title)
{
    fprintf(out, "Evaluation: %s\n\n", title);
    fprintf(out, "%-22s %15s %15s %15s\n", "", "White", "Black", "total");
    fprintf(out, "%-22s %7s %7s %7s %7s %7s %7s\n", "term (cp)", "mg", "eg", "mg", "eg", "mg", "eg");
    trace_rule2(out);
}

void trace_row2(FILE *out, const char *term, int wmg, int weg, int bmg, int beg)
{
    fprintf(out, "%-22s %7d %7d %7d %7d %7d %7d\n", term, wmg, weg, bmg, beg, wmg - bmg, weg - beg);
}

void trace_rule2(FILE *out)
{
    fprintf(out, "---------------------- --------------- --------------- ---------------\n");
}

void trace_final(FILE *out, const Position *pos, int white_score)
{
    fprintf(out, "\nFinal evaluation: %d cp (White's view), %d cp (side to move's view, %s)\n", white_score,
            pos->side == WHITE ? white_score : -white_score, pos->side == WHITE ? "White" : "Black");
}
