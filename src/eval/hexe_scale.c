/* hexe_scale.c - drawish material for the hexe evaluator: fortresses,
 * pawnless endings with too little to win, opposite-coloured bishops. */
#include "hexe_scale.h"

#include "bits.h"

#define WT hexe_weights

static int npm(const Position *pos, int c)
{
    int v = 0;
    for (int t = KNIGHT; t <= QUEEN; t++)
        v += WT.material[t - PAWN].eg * pos->count[MAKE_PIECE(c, t)];
    return v;
}

/* A known fortress: the stronger side has only pawns on one rook file, and
 * at most a bishop that does not cover their promotion square; the other
 * side has a bare king, on that square or next to it. The king cannot be
 * driven out of the corner: a draw, however many pawns. */
static bool rook_pawn_fortress(const Position *pos, int strong)
{
    int weak = strong ^ 1;
    if (pos->npieces[weak] != 1 || pos->npawns[weak] || pos->npieces[strong] > 2 || !pos->npawns[strong])
        return false;
    Bits pawns = pos->bb[MAKE_PIECE(strong, PAWN)];
    int file = file64(lsb(pawns));
    if ((file != 0 && file != 7) || (pawns & ~(FILE_A_BITS << file)))
        return false;
    int queening = SQ(file, strong == WHITE ? 7 : 0);
    if (pos->npieces[strong] == 2) {
        int sq = pos->pieces[strong][1];
        if (PTYPE(pos->board[sq]) != BISHOP || light_square(sq) == light_square(queening))
            return false;
    }
    return distance88(KING_SQ(pos, weak), queening) <= 1;
}

int hexe_scale_factor(const Position *pos, int strong, const char **why, bool *whole)
{
    const uint8_t *n = pos->count;
    *whole = false;
    *why = "normal";
    if (rook_pawn_fortress(pos, strong)) {
        *whole = true;
        *why = "rook pawns and the wrong bishop (or none) against the king in their corner";
        return 0;
    }
    /* Only a side without pawns or bishops of one each can change the scale. */
    if (pos->npawns[strong] && !(n[WB] == 1 && n[BB] == 1))
        return SCALE_NORMAL;
    int weak = strong ^ 1;
    int sn = n[MAKE_PIECE(strong, KNIGHT)], sb = n[MAKE_PIECE(strong, BISHOP)];
    int sr = n[MAKE_PIECE(strong, ROOK)], sq = n[MAKE_PIECE(strong, QUEEN)];
    int wminors = n[MAKE_PIECE(weak, KNIGHT)] + n[MAKE_PIECE(weak, BISHOP)];
    int wmajors = n[MAKE_PIECE(weak, ROOK)] + n[MAKE_PIECE(weak, QUEEN)];
    int minor = WT.material[BISHOP - PAWN].eg;
    if (pos->npawns[strong] == 0) {
        *whole = true;
        int s_npm = npm(pos, strong), w_npm = npm(pos, weak);
        if (s_npm <= minor) {
            *why = "pawnless with at most a minor: cannot win";
            return WT.scale_cannot_win;
        }
        if (sn == 2 && !sb && !sr && !sq && !pos->npawns[weak] && !wminors && !wmajors) {
            *why = "two knights against a bare king";
            return WT.scale_cannot_win;
        }
        if (s_npm - w_npm <= minor) {
            if (sr == 1 && !sn && !sb && !sq && wminors == 1 && !wmajors) {
                *why = "rook against a minor";
                return WT.scale_rook_minor;
            }
            *why = "pawnless, at most a minor up";
            return WT.scale_small_edge;
        }
        *whole = false;
    }
    if (n[WB] == 1 && n[BB] == 1) {
        int sqs[2] = {NO_SQ, NO_SQ};
        for (int c = WHITE; c <= BLACK; c++)
            for (int i = 1; i < pos->npieces[c]; i++)
                if (PTYPE(pos->board[pos->pieces[c][i]]) == BISHOP)
                    sqs[c] = pos->pieces[c][i];
        if (light_square(sqs[WHITE]) != light_square(sqs[BLACK])) {
            if (!n[WN] && !n[BN] && !n[WR] && !n[BR] && !n[WQ] && !n[BQ]) {
                *why = "opposite-coloured bishops";
                return WT.scale_ocb;
            }
            *why = "opposite-coloured bishops with other pieces";
            return WT.scale_ocb_pieces;
        }
    }
    return SCALE_NORMAL;
}
