/* tools/trainset.c - the trainer's data (trainset.h): datagen's records
 * read into memory with the held-out part apart, the network's inputs of a
 * record, and the output scale fitted to the data. */
#include "trainset.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../eval/nnue.h"

bool trainset_read(const char *path, TrainSet *d, double val, long long max, PackedPos **val_out, long long *nval)
{
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0) {
        fprintf(stderr, "train: cannot read %s: %s\n", path, strerror(errno));
        if (f)
            fclose(f);
        return false;
    }
    long long n = ftell(f) / PACKED_SIZE;
    if (max && n > max)
        n = max;
    rewind(f);
    PackedPos *buf = malloc((size_t)(n ? n : 1) * sizeof *buf);
    if (!buf || (long long)fread(buf, sizeof *buf, (size_t)n, f) != n) {
        fprintf(stderr, "train: cannot read %lld records of %s\n", n, path);
        free(buf);
        fclose(f);
        return false;
    }
    fclose(f);
    /* The last val fraction of the file (whole games) is held out. */
    long long nv = (long long)((double)n * val), nt = n - nv;
    PackedPos *rec = realloc(d->rec, (size_t)(d->n + nt + 1) * sizeof *rec);
    PackedPos *vr = realloc(*val_out, (size_t)(*nval + nv + 1) * sizeof *vr);
    if (!rec || !vr) {
        free(buf);
        return false;
    }
    memcpy(rec + d->n, buf, (size_t)nt * sizeof *buf);
    memcpy(vr + *nval, buf + nt, (size_t)nv * sizeof *buf);
    d->rec = rec, d->n += nt;
    *val_out = vr, *nval += nv;
    free(buf);
    fprintf(stderr, "train: %s: %lld positions (%lld held out)\n", path, n, nv);
    return true;
}

int train_features(const Unpacked *u, bool mirror, bool mirrored_inputs, uint16_t us[32], uint16_t them[32])
{
    int king[2] = {0, 0};
    for (int sq = 0; sq < 64; sq++) {
        mirror = mirror && !u->castle_rook[sq];
        if (PTYPE(u->piece[sq]) == KING)
            king[PCOLOR(u->piece[sq])] = sq;
    }
    /* Each perspective's squares: flipped by mirror, then as the network
     * sees the position so flipped. */
    int flip = mirror ? 7 : 0, n = 0;
    int fu = flip ^ nnue_flip(mirrored_inputs, king[u->side] ^ flip);
    int ft = flip ^ nnue_flip(mirrored_inputs, king[!u->side] ^ flip);
    for (int sq = 0; sq < 64; sq++)
        if (u->piece[sq] != EMPTY && n < 32) {
            us[n] = (uint16_t)nnue_feature(u->side, u->piece[sq], sq ^ fu);
            them[n++] = (uint16_t)nnue_feature(!u->side, u->piece[sq], sq ^ ft);
        }
    return n;
}

bool sample_of(const PackedPos *r, Sample *s, bool mirror, bool mirrored_inputs)
{
    Unpacked u;
    if (!packed_decode(r, &u))
        return false;
    s->n = train_features(&u, mirror, mirrored_inputs, s->us, s->them);
    float sign = u.side == WHITE ? 1.0f : -1.0f;
    s->score = sign * (float)u.score;
    s->result = u.side == WHITE ? (float)u.result / 2.0f : 1.0f - (float)u.result / 2.0f;
    return true;
}

double trainset_fit_scale(const TrainSet *d)
{
    long long step = d->n > 1000000 ? d->n / 1000000 : 1;
    double lo = 50, hi = 2000;
    for (int it = 0; it < 60; it++) {
        double k[2] = {lo + (hi - lo) / 3, hi - (hi - lo) / 3}, e[2] = {0, 0};
        for (int j = 0; j < 2; j++)
            for (long long i = 0; i < d->n; i += step) {
                Sample s;
                if (sample_of(&d->rec[i], &s, false, false)) { /* the score and result alone */
                    double x = sigmoid(s.score / k[j]) - s.result;
                    e[j] += x * x;
                }
            }
        if (e[0] < e[1])
            hi = k[1];
        else
            lo = k[0];
    }
    return (lo + hi) / 2;
}
