/* tools/packed.c - the 32-byte training record (packed.h). */
#include "packed.h"

#include <stdio.h>
#include <string.h>

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v & 0xff);
    p[1] = (uint8_t)(v >> 8);
}

static unsigned get16(const uint8_t *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }

bool packed_encode(const Position *pos, int white_score, int result, PackedPos *out)
{
    memset(out, 0, sizeof *out);
    bool castle_rook[64] = {false};
    for (int b = 0; b < 4; b++)
        if (pos->castle & (1 << b))
            castle_rook[SQ64(pos->castle_rook[b])] = true;
    uint64_t occ = 0;
    int n = 0;
    for (int s = 0; s < 64; s++) {
        int p = pos->board[SQ88(s)];
        if (p == EMPTY)
            continue;
        if (n == 32)
            return false;
        unsigned code = castle_rook[s] && PTYPE(p) == ROOK ? (unsigned)(PCOLOR(p) << 3 | PACKED_CASTLE_ROOK)
                                                            : (unsigned)p;
        out->b[8 + n / 2] |= (uint8_t)(code << (4 * (n & 1)));
        occ |= 1ULL << s;
        n++;
    }
    for (int i = 0; i < 8; i++)
        out->b[i] = (uint8_t)(occ >> (8 * i));
    if (white_score > INT16_MAX)
        white_score = INT16_MAX;
    if (white_score < INT16_MIN)
        white_score = INT16_MIN;
    put16(out->b + 24, (unsigned)(uint16_t)(int16_t)white_score);
    out->b[26] = (uint8_t)result;
    out->b[27] = (uint8_t)pos->side;
    out->b[28] = (uint8_t)(pos->ep == NO_SQ ? 64 : SQ64(pos->ep));
    out->b[29] = (uint8_t)(pos->halfmove > 255 ? 255 : pos->halfmove);
    put16(out->b + 30, (unsigned)(pos->fullmove > 65535 ? 65535 : pos->fullmove));
    return true;
}

bool packed_decode(const PackedPos *in, Unpacked *out)
{
    memset(out, 0, sizeof *out);
    uint64_t occ = 0;
    for (int i = 0; i < 8; i++)
        occ |= (uint64_t)in->b[i] << (8 * i);
    int n = 0;
    for (int s = 0; s < 64; s++) {
        if (!(occ >> s & 1))
            continue;
        if (n == 32)
            return false;
        unsigned code = in->b[8 + n / 2] >> (4 * (n & 1)) & 15;
        n++;
        unsigned type = code & 7;
        if (type == 0)
            return false;
        if (type == PACKED_CASTLE_ROOK) {
            out->castle_rook[s] = true;
            type = ROOK;
        }
        out->piece[s] = (uint8_t)MAKE_PIECE((int)(code >> 3), (int)type);
    }
    out->score = (int16_t)get16(in->b + 24);
    out->result = in->b[26];
    out->side = in->b[27];
    out->ep = in->b[28] == 64 ? -1 : in->b[28];
    out->halfmove = in->b[29];
    out->fullmove = (int)get16(in->b + 30);
    return out->result <= 2 && out->side <= 1 && in->b[28] <= 64;
}

char *packed_fen(const Unpacked *u, char *buf)
{
    static const char letters[] = " PNBRQK  pnbrqk";
    char *p = buf;
    for (int r = 7; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 8; f++) {
            int pc = u->piece[r * 8 + f];
            if (pc == EMPTY) {
                empty++;
                continue;
            }
            if (empty)
                *p++ = (char)('0' + empty), empty = 0;
            *p++ = letters[pc];
        }
        if (empty)
            *p++ = (char)('0' + empty);
        if (r)
            *p++ = '/';
    }
    p += sprintf(p, " %c ", u->side ? 'b' : 'w');
    char *rights = p;
    for (int c = WHITE; c <= BLACK; c++) {
        int king_file = -1;
        for (int s = 0; s < 64; s++)
            if (u->piece[s] == MAKE_PIECE(c, KING))
                king_file = s & 7;
        /* Kingside right first, as FEN orders them. */
        for (int side = 0; side < 2; side++)
            for (int f = side ? 0 : 7; side ? f < 8 : f >= 0; f += side ? 1 : -1) {
                int s = (c ? 56 : 0) + f;
                if (!u->castle_rook[s] || (side == 0) != (f > king_file))
                    continue;
                char ch = king_file == 4 && (f == 7 || f == 0) ? (f == 7 ? 'K' : 'Q') : (char)('A' + f);
                *p++ = c ? (char)(ch - 'A' + 'a') : ch;
            }
    }
    if (p == rights)
        *p++ = '-';
    if (u->ep >= 0)
        p += sprintf(p, " %c%c", 'a' + (u->ep & 7), '1' + (u->ep >> 3));
    else
        p += sprintf(p, " -");
    sprintf(p, " %d %d", u->halfmove, u->fullmove);
    return buf;
}
