/* tools/train.c - `hexe train`: trains the `nnue` evaluator's network on the
 * games of `hexe datagen` (games.h, filtered as they are read) or its
 * 32-byte records (packed.h), on the CPU, in threads.
 *
 *   acc_p  = b1 + sum of the W1 rows of the pieces seen from perspective p
 *   out    = W2[k] . [screlu(acc_stm), screlu(acc_other)] + b2[k],  screlu(x) = clamp(x, 0, 1)^2
 *            (k: the output bucket of the number of pieces, nnue_bucket)
 *   eval   = out * K centipawns
 *   target = lambda * result + (1 - lambda) * sigmoid(score / K)   (side to move's view)
 *   loss   = mean of (sigmoid(out) - target)^2
 *
 * K is fitted to the data first (the scale at which sigmoid(score / K) best
 * predicts the results), so that the network speaks the search's
 * centipawns. AdamW with a cosine learning-rate schedule, weights clipped to
 * +-1.98 so that they quantise into int16 (nnue.h), the data shuffled every
 * epoch, a random half of the positions without castling rights read with
 * their files flipped (--mirror, train_features; a network of mirrored
 * inputs, --mirrored-inputs, reads them alike already), and the last --val
 * fraction of each file (whole games: datagen writes a game's records
 * together) held out. The weights of the epoch with
 * the lowest held-out loss are quantised (the output bias then takes back
 * the mean shift rounding made on training positions) and written, then read
 * back through the engine's own loader and compared with the float network. */
#include "train.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../args.h"
#include "../eval/nnue.h"
#include "games.h"
#include "packed.h"
#include "trainset.h"
#include "../timeman.h"

#define CLIP 1.98f
#define MAX_FILES 64

typedef struct {
    const char *data[MAX_FILES], *out, *init, *log;
    int ndata, hidden, buckets, epochs, batch, threads, skip_plies;
    int mirrored; /* mirrored inputs: 0 or 1; -1 until settled (--init's, else 0) */
    double lr, lr_end, lambda, val, wd, scale;
    int64_t epoch_size, max_positions, seed;
    bool mirror;
} TrainArgs;

/* The parameters, their gradients or Adam's moments: one block of floats. */
typedef struct {
    int hidden, buckets;
    bool mirrored; /* the inputs the forward pass reads (nnue_flip) */
    size_t size;
    float *w1, *b1, *w2, *b2; /* views into all: w2 [buckets][2 * hidden], b2 [buckets] */
    float *all;
} Params;

static bool params_alloc(Params *p, int hidden, int buckets)
{
    p->hidden = hidden, p->buckets = buckets;
    p->size = (size_t)NNUE_INPUTS * hidden + hidden + (2 * (size_t)hidden + 1) * buckets;
    p->all = aligned_alloc(64, (p->size * sizeof(float) + 63) / 64 * 64);
    if (!p->all)
        return false;
    memset(p->all, 0, p->size * sizeof(float));
    p->w1 = p->all;
    p->b1 = p->w1 + (size_t)NNUE_INPUTS * hidden;
    p->w2 = p->b1 + hidden;
    p->b2 = p->w2 + 2 * (size_t)hidden * buckets;
    return true;
}

/* A uniform draw from [-r, r). */
static float uniform(uint64_t *rng, float r)
{
    return r * (2.0f * (float)(xorshift64(rng) >> 11) / 9007199254740992.0f - 1.0f);
}

/* ---- Forward and backward ---- */

typedef struct {
    const Params *p;
    Params *grad;
    const PackedPos *rec;
    const uint32_t *index; /* the records of this slice */
    int count;
    float scale, lambda, norm; /* norm: 1 / batch size */
    double loss;
    float *acc;      /* 2 x hidden scratch */
    uint32_t mirror; /* 0, or this batch's seed: which records are mirrored */
} Work;

/* The network's output for a sample, the accumulators left in acc. */
static float forward(const Params *p, const Sample *s, float *acc)
{
    int H = p->hidden, bucket = nnue_bucket(p->buckets, s->n);
    const float *w2 = p->w2 + 2 * (size_t)bucket * H;
    float *us = acc, *them = acc + H;
    memcpy(us, p->b1, (size_t)H * sizeof(float));
    memcpy(them, p->b1, (size_t)H * sizeof(float));
    for (int k = 0; k < s->n; k++) {
        const float *wu = p->w1 + (size_t)s->us[k] * H, *wt = p->w1 + (size_t)s->them[k] * H;
        for (int h = 0; h < H; h++) {
            us[h] += wu[h];
            them[h] += wt[h];
        }
    }
    float out = p->b2[bucket];
    for (int h = 0; h < H; h++) {
        float a = fminf(fmaxf(us[h], 0.0f), 1.0f), b = fminf(fmaxf(them[h], 0.0f), 1.0f);
        out += a * a * w2[h] + b * b * w2[H + h];
    }
    return out;
}

static void *work_run(void *arg)
{
    Work *w = arg;
    const Params *p = w->p;
    Params *g = w->grad;
    int H = p->hidden;
    memset(g->all, 0, g->size * sizeof(float));
    float *us = w->acc, *them = w->acc + H;
    float dus[NNUE_MAX_HIDDEN], dthem[NNUE_MAX_HIDDEN];
    w->loss = 0;
    for (int i = 0; i < w->count; i++) {
        Sample s;
        bool mirror = w->mirror && ((w->index[i] ^ w->mirror) * 0x9E3779B1u) >> 31;
        if (!sample_of(&w->rec[w->index[i]], &s, mirror, p->mirrored))
            continue;
        float out = forward(p, &s, w->acc);
        float pred = 1.0f / (1.0f + expf(-out));
        float target = w->lambda * s.result + (1.0f - w->lambda) / (1.0f + expf(-s.score / w->scale));
        float err = pred - target;
        w->loss += (double)(err * err);
        float d = 2.0f * err * pred * (1.0f - pred) * w->norm;
        int bucket = nnue_bucket(p->buckets, s.n);
        const float *w2 = p->w2 + 2 * (size_t)bucket * H;
        float *g2 = g->w2 + 2 * (size_t)bucket * H;
        g->b2[bucket] += d;
        for (int h = 0; h < H; h++) {
            float a = fminf(fmaxf(us[h], 0.0f), 1.0f), b = fminf(fmaxf(them[h], 0.0f), 1.0f);
            g2[h] += d * a * a;
            g2[H + h] += d * b * b;
            dus[h] = us[h] > 0.0f && us[h] < 1.0f ? 2.0f * a * d * w2[h] : 0.0f;
            dthem[h] = them[h] > 0.0f && them[h] < 1.0f ? 2.0f * b * d * w2[H + h] : 0.0f;
            g->b1[h] += dus[h] + dthem[h];
        }
        for (int k = 0; k < s.n; k++) {
            float *gu = g->w1 + (size_t)s.us[k] * H, *gt = g->w1 + (size_t)s.them[k] * H;
            for (int h = 0; h < H; h++)
                gu[h] += dus[h];
            for (int h = 0; h < H; h++)
                gt[h] += dthem[h];
        }
    }
    return NULL;
}

/* Loss over records (no gradient), in threads. */
typedef struct {
    const Params *p;
    const PackedPos *rec;
    long long from, to;
    float scale, lambda;
    double loss;
    long long n;
} EvalWork;

static void *eval_run(void *arg)
{
    EvalWork *w = arg;
    float acc[2 * NNUE_MAX_HIDDEN];
    w->loss = 0, w->n = 0;
    for (long long i = w->from; i < w->to; i++) {
        Sample s;
        if (!sample_of(&w->rec[i], &s, false, w->p->mirrored))
            continue;
        float pred = 1.0f / (1.0f + expf(-forward(w->p, &s, acc)));
        float target = w->lambda * s.result + (1.0f - w->lambda) / (1.0f + expf(-s.score / w->scale));
        w->loss += (double)((pred - target) * (pred - target));
        w->n++;
    }
    return NULL;
}

static double loss_of(const Params *p, const PackedPos *rec, long long n, const TrainArgs *a)
{
    EvalWork w[64];
    pthread_t th[64];
    int t = a->threads;
    for (int i = 0; i < t; i++) {
        w[i] = (EvalWork){p, rec, n * i / t, n * (i + 1) / t, (float)a->scale, (float)a->lambda, 0, 0};
        pthread_create(&th[i], NULL, eval_run, &w[i]);
    }
    double loss = 0;
    long long cnt = 0;
    for (int i = 0; i < t; i++) {
        pthread_join(th[i], NULL);
        loss += w[i].loss, cnt += w[i].n;
    }
    return cnt ? loss / (double)cnt : 0;
}

/* ---- Quantisation ---- */

/* The quantised network against the float one, in cp. */
typedef struct {
    double bias, mean; /* the mean of float - quantised, and of its size */
    int worst;         /* the largest size */
    long long checked; /* positions compared */
    double bucket_bias[NNUE_MAX_BUCKETS]; /* the mean of float - quantised in each output bucket */
} QuantDiff;

/* On positions rec[0..n), about 20,000 of them evenly spaced. */
static QuantDiff compare(const Network *net, const Params *p, const PackedPos *rec, long long n, int scale)
{
    float acc[2 * NNUE_MAX_HIDDEN];
    double sum = 0, signed_sum = 0, bucket_sum[NNUE_MAX_BUCKETS] = {0};
    long long bucket_n[NNUE_MAX_BUCKETS] = {0};
    QuantDiff d = {0};
    long long step = n > 20000 ? n / 20000 : 1;
    for (long long i = 0; i < n; i += step) {
        Sample s;
        Unpacked u;
        if (!sample_of(&rec[i], &s, false, p->mirrored) || !packed_decode(&rec[i], &u))
            continue;
        uint64_t bb[16] = {0};
        for (int sq = 0; sq < 64; sq++)
            if (u.piece[sq] != EMPTY)
                bb[u.piece[sq]] |= 1ULL << sq;
        int q = nnue_evaluate_board(net, bb, u.side);
        double f = (double)forward(p, &s, acc) * scale;
        int diff = (int)fabs(f - q), k = nnue_bucket(net->buckets, s.n);
        sum += fabs(f - q), signed_sum += f - q;
        bucket_sum[k] += f - q, bucket_n[k]++;
        d.worst = diff > d.worst ? diff : d.worst;
        d.checked++;
    }
    if (d.checked)
        d.mean = sum / (double)d.checked, d.bias = signed_sum / (double)d.checked;
    for (int k = 0; k < net->buckets; k++)
        d.bucket_bias[k] = bucket_n[k] ? bucket_sum[k] / (double)bucket_n[k] : d.bias;
    return d;
}

static int16_t q16(float x, float mul, int lim)
{
    long v = lrintf(x * mul);
    return (int16_t)(v > lim ? lim : v < -lim ? -lim : v);
}

/* The float network in the engine's integers. Rounding the output weights
 * shifts the output by much the same amount in most positions of a bucket
 * (the saturated hidden units' errors add up), so each bucket's output bias
 * then takes back its mean shift, measured on the training positions
 * rec[0..n). */
static bool quantise(const Params *p, int scale, const PackedPos *rec, long long n, Network *net)
{
    int H = p->hidden, B = p->buckets;
    size_t nw1 = (size_t)NNUE_INPUTS * H, nw2 = 2 * (size_t)H * B;
    int16_t *mem = aligned_alloc(64, ((nw1 + H + nw2) * sizeof(int16_t) + 63) / 64 * 64);
    if (!mem)
        return false;
    net->hidden = H, net->scale = scale, net->buckets = B, net->mirrored = p->mirrored;
    net->w1 = mem, net->b1 = mem + nw1, net->w2 = mem + nw1 + H;
    for (size_t i = 0; i < nw1; i++)
        net->w1[i] = q16(p->w1[i], NNUE_QA, 32767);
    for (int h = 0; h < H; h++)
        net->b1[h] = q16(p->b1[h], NNUE_QA, 32767);
    for (size_t i = 0; i < nw2; i++)
        net->w2[i] = q16(p->w2[i], NNUE_QB, 127);
    for (int k = 0; k < B; k++)
        net->b2[k] = (int32_t)lrintf(p->b2[k] * NNUE_QA * NNUE_QB);
    QuantDiff shift = compare(net, p, rec, n, scale);
    for (int k = 0; k < B; k++)
        net->b2[k] += (int32_t)lrint(shift.bucket_bias[k] * NNUE_QA * NNUE_QB / scale);
    return true;
}

/* A network file's weights into the first net->hidden units of p. When p has
 * more units (a network grown from a smaller one), the others keep their
 * weights into the layer but get no output weight, so p computes what the
 * file does and the new units start from there. A file of one output bucket
 * gives its output layer to each of p's buckets. */
static void dequantise(const Network *net, Params *p)
{
    int n = net->hidden, H = p->hidden;
    for (size_t f = 0; f < NNUE_INPUTS; f++)
        for (int h = 0; h < n; h++)
            p->w1[f * H + h] = net->w1[f * n + h] / (float)NNUE_QA;
    for (int h = 0; h < n; h++)
        p->b1[h] = net->b1[h] / (float)NNUE_QA;
    for (int k = 0; k < p->buckets; k++) {
        int from = net->buckets == 1 ? 0 : k;
        for (int half = 0; half < 2; half++)
            for (int h = 0; h < H; h++)
                p->w2[(2 * k + half) * H + h] = h < n ? net->w2[(2 * from + half) * n + h] / (float)NNUE_QB : 0.0f;
        p->b2[k] = (float)net->b2[from] / (NNUE_QA * NNUE_QB);
    }
}

/* The written file read back by the engine's loader, against the float
 * network on held-out positions. */
static bool check_quantised(const char *path, const Params *p, const PackedPos *rec, long long n, int scale,
                            QuantDiff *diff)
{
    Network net;
    char err[256];
    if (!nnue_read_file(path, &net, err, sizeof err)) {
        fprintf(stderr, "train: the network written does not load: %s\n", err);
        return false;
    }
    if (net.mirrored != p->mirrored) {
        fprintf(stderr, "train: the network written reads %s inputs\n", net.mirrored ? "mirrored" : "unmirrored");
        nnue_free(&net);
        return false;
    }
    *diff = compare(&net, p, rec, n, scale);
    nnue_free(&net);
    return true;
}

/* ---- The command line ---- */

static const char usage[] =
    "usage: hexe train --data FILE|FOLDER [--data FILE2 ...] [--out FILE.nnue]\n"
    "                  [--hidden N] [--epochs N] [--epoch-size N] [--batch N] [--threads N]\n"
    "                  [--lr X] [--lr-end X] [--lambda X] [--wd X] [--val X] [--scale K]\n"
    "                  [--init FILE.nnue] [--log FILE.csv] [--max-positions N] [--seed N]\n"
    "                  [--mirror 0|1] [--buckets N] [--skip-plies N] [--mirrored-inputs 0|1]\n"
    "Trains the nnue evaluator's network on datagen's data (docs/nnue.md): game\n"
    "files (.hxg), 32-byte record files, or a folder's game files (the pool).\n"
    "--skip-plies N: a game's training positions start at ply N (default 8); the\n"
    "others: not in check, the move played quiet, no mate or tablebase score.\n"
    "--hidden N: hidden units, a multiple of 32 up to 512 (default 128).\n"
    "--buckets N: output layers, 1 to 8 (default: --init's, else 1), one chosen\n"
    "by the number of pieces on the board.\n"
    "--epochs N (default 20) of --epoch-size positions (default: the training set).\n"
    "--batch N (default 16384); --threads N (default 2).\n"
    "--lr X (default 0.001) falls along a cosine to --lr-end X (default 0.00001).\n"
    "--lambda X: the weight of the game result in the target, 0..1 (default 0.3;\n"
    "the rest is the search's score). --wd X: AdamW's weight decay (default 0.01).\n"
    "--val X: the fraction of each file's last games held out (default 0.02).\n"
    "--scale K: centipawns per unit of output (default: --init's, else fitted\n"
    "to the data).\n"
    "--init FILE: start from that network (default: random weights); one with\n"
    "fewer hidden units is grown to --hidden, its new units without output\n"
    "weights at first, so that training starts from what FILE computes.\n"
    "--mirror 1 (the default): each pass reads a random half of the positions\n"
    "without castling rights with their files flipped (a-h), the same position\n"
    "to the rules and its score; 0 reads every position as it is.\n"
    "--mirrored-inputs 1: a network of mirrored inputs (file version 3): each\n"
    "side's inputs seen with its own king on files e-h, flipped a-h while it\n"
    "stands on a-d (docs/nnue.md). --mirror then changes nothing. Default:\n"
    "--init's, else 0. From an --init without them, a side whose king stands on\n"
    "e-h starts with FILE's weights as they are, one on a-d with those of its\n"
    "mirror image; a network with them cannot start one without.\n"
    "--log FILE: epoch, train loss, validation loss, lr, positions/s as CSV\n"
    "(scripts/plot-loss draws it). Writes the weights of the epoch with the\n"
    "lowest validation loss to --out (default hexe.nnue).\n";

_Static_assert(NNUE_MAX_HIDDEN == 512 && NNUE_MAX_BUCKETS == 8, "train's usage names the limits");

static ArgsResult parse(int argc, char **argv, TrainArgs *a)
{
    *a = (TrainArgs){.out = "hexe.nnue", .hidden = 128, .epochs = 20, .batch = 16384, .threads = 2,
                     .lr = 0.001, .lr_end = 0.00001, .lambda = 0.3, .val = 0.02, .wd = 0.01, .seed = 1,
                     .skip_plies = 8};
    ArgList data = {a->data, MAX_FILES, 0};
    int mirror = 1;
    a->mirrored = -1;
    const ArgSpec specs[] = {
        ARG_SPEC_LIST("--data", &data),
        ARG_SPEC_STRING("--out", &a->out),
        ARG_SPEC_STRING("--init", &a->init),
        ARG_SPEC_STRING("--log", &a->log),
        ARG_SPEC_INT("--hidden", &a->hidden, 32, NNUE_MAX_HIDDEN),
        ARG_SPEC_INT("--buckets", &a->buckets, 1, NNUE_MAX_BUCKETS), /* 0, unset: --init's count, else 1 */
        ARG_SPEC_INT("--epochs", &a->epochs, 1, 1e6),
        ARG_SPEC_INT64("--epoch-size", &a->epoch_size, 0, 1e15),
        ARG_SPEC_INT("--batch", &a->batch, 1, 1 << 24),
        ARG_SPEC_INT("--threads", &a->threads, 1, 64),
        ARG_SPEC_DOUBLE("--lr", &a->lr, 1e-12, 10),
        ARG_SPEC_DOUBLE("--lr-end", &a->lr_end, 1e-12, 10),
        ARG_SPEC_DOUBLE("--lambda", &a->lambda, 0, 1),
        ARG_SPEC_DOUBLE("--wd", &a->wd, 0, 10),
        ARG_SPEC_DOUBLE("--val", &a->val, 1e-9, 1 - 1e-9),
        ARG_SPEC_DOUBLE("--scale", &a->scale, 0, 1e5),
        ARG_SPEC_INT64("--max-positions", &a->max_positions, 0, 1e15),
        ARG_SPEC_INT64("--seed", &a->seed, 0, 4294967295.0),
        ARG_SPEC_INT("--mirror", &mirror, 0, 1),
        ARG_SPEC_INT("--skip-plies", &a->skip_plies, 0, GAMES_MAX_PLIES),
        ARG_SPEC_INT("--mirrored-inputs", &a->mirrored, 0, 1),
    };
    ArgsResult r = args_parse("train", argc, argv, specs, ARG_SPECS(specs));
    a->ndata = data.count;
    a->mirror = mirror == 1;
    if (r == ARGS_OK && a->hidden % 32)
        r = args_error("train", "--hidden %d is not a multiple of 32", a->hidden);
    if (r == ARGS_OK && !a->ndata)
        r = args_error("train", "no --data file");
    return r;
}

/* ---- The trainer ---- */

/* The training records of every --data file, and the held-out ones. */
static bool load_data(const TrainArgs *a, TrainSet *d, PackedPos **val, long long *nval)
{
    for (int i = 0; i < a->ndata; i++)
        if (!trainset_read(a->data[i], d, a->val, a->max_positions, a->skip_plies, val, nval))
            return false;
    if (d->n < 1 || *nval < 1) {
        fprintf(stderr, "train: too few positions (%lld to train on, %lld held out)\n", d->n, *nval);
        return false;
    }
    return true;
}

/* --init's network, checked against --hidden, --buckets and
 * --mirrored-inputs; settles the bucket count (--buckets, else --init's,
 * else 1) and the inputs (--mirrored-inputs, else --init's, else
 * unmirrored). */
static bool read_init(TrainArgs *a, Network *init)
{
    if (a->init) {
        char err[256];
        if (!nnue_read_file(a->init, init, err, sizeof err)) {
            fprintf(stderr, "train: --init: %s\n", err);
            return false;
        }
        if (a->buckets == 0)
            a->buckets = init->buckets;
        const char *bad = init->hidden > a->hidden ? "hidden" : init->buckets != 1 && init->buckets != a->buckets
                                                                   ? "buckets" : NULL;
        if (bad && !strcmp(bad, "hidden"))
            fprintf(stderr, "train: --init has %d hidden units, more than --hidden %d\n", init->hidden, a->hidden);
        else if (bad)
            fprintf(stderr, "train: --init has %d output buckets, --buckets says %d\n", init->buckets, a->buckets);
        if (!bad && init->mirrored && a->mirrored == 0) {
            fprintf(stderr, "train: --init has mirrored inputs: a network without them cannot start from it\n");
            bad = "mirrored";
        }
        if (bad) {
            nnue_free(init);
            return false;
        }
        if (a->mirrored < 0)
            a->mirrored = init->mirrored;
        if (a->mirrored && !init->mirrored)
            printf("train: mirrored inputs from an --init without them: a side whose king stands on files a-d starts "
                   "from the weights of its mirror image\n");
    }
    if (a->buckets == 0) /* no --buckets and no --init */
        a->buckets = 1;
    if (a->mirrored < 0)
        a->mirrored = 0;
    return true;
}

/* The weights, Adam's two moments, the best weights so far, and a gradient
 * for each thread, all of one shape. */
typedef struct {
    Params p, m, v, best, grad[64];
    int nparams;
} Trainer;

static void trainer_free(Trainer *tr)
{
    Params *all[] = {&tr->p, &tr->m, &tr->v, &tr->best};
    for (int i = 0; i < 4; i++)
        free(all[i]->all);
    for (int t = 0; t < tr->nparams; t++)
        free(tr->grad[t].all);
    memset(tr, 0, sizeof *tr);
}

static bool trainer_alloc(Trainer *tr, const TrainArgs *a)
{
    memset(tr, 0, sizeof *tr);
    bool ok = params_alloc(&tr->p, a->hidden, a->buckets) && params_alloc(&tr->m, a->hidden, a->buckets) &&
              params_alloc(&tr->v, a->hidden, a->buckets) && params_alloc(&tr->best, a->hidden, a->buckets);
    for (int t = 0; t < a->threads && ok; t++, tr->nparams++)
        ok = params_alloc(&tr->grad[t], a->hidden, a->buckets);
    tr->p.mirrored = tr->best.mirrored = a->mirrored; /* the two that run forward */
    if (!ok) {
        fprintf(stderr, "train: out of memory\n");
        trainer_free(tr);
    }
    return ok;
}

/* The starting weights: --init's (its units first), the rest small and random
 * so that the accumulators start inside SCReLU's slope. Frees init. */
static void init_weights(Params *p, TrainArgs *a, Network *init, uint64_t *rng)
{
    float r1 = 0.5f / sqrtf(32.0f), r2 = 1.0f / sqrtf((float)a->hidden);
    int grown = 0; /* the first unit --init does not give */
    if (a->init) {
        grown = init->hidden;
        dequantise(init, p);
        if (a->scale == 0) /* its outputs are in units of its own scale */
            a->scale = init->scale;
        nnue_free(init);
    }
    for (size_t f = 0; f < NNUE_INPUTS && grown < a->hidden; f++)
        for (int h = grown; h < a->hidden; h++)
            p->w1[f * (size_t)a->hidden + h] = uniform(rng, r1);
    for (int h = grown; h < a->hidden; h++)
        p->b1[h] = 0.25f;
    for (int h = 0; h < 2 * a->hidden * a->buckets && !a->init; h++)
        p->w2[h] = uniform(rng, r2);
}

/* AdamW on the threads' summed gradients at this step of the cosine
 * schedule, then the clip that quantisation needs; returns the rate used. */
static double adamw_step(Trainer *tr, const TrainArgs *a, long long step, long long total_steps)
{
    double lr = a->lr_end + 0.5 * (a->lr - a->lr_end) * (1.0 + cos(M_PI * (double)step / (double)total_steps));
    const float b1 = 0.9f, b2 = 0.999f;
    float c1 = 1.0f - powf(b1, (float)step), c2 = 1.0f - powf(b2, (float)step);
    float flr = (float)lr, decay = (float)(lr * a->wd);
    Params *p = &tr->p, *m = &tr->m, *v = &tr->v;
    size_t clip_end = p->size - (size_t)a->buckets; /* every weight but the output biases */
    for (size_t i = 0; i < p->size; i++) {
        float g = tr->grad[0].all[i];
        for (int t = 1; t < a->threads; t++)
            g += tr->grad[t].all[i];
        m->all[i] = b1 * m->all[i] + (1.0f - b1) * g;
        v->all[i] = b2 * v->all[i] + (1.0f - b2) * g * g;
        float x = p->all[i] - decay * p->all[i] - flr * (m->all[i] / c1) / (sqrtf(v->all[i] / c2) + 1e-8f);
        p->all[i] = i < clip_end ? fminf(fmaxf(x, -CLIP), CLIP) : x;
    }
    return lr;
}

/* Where one epoch is in the training set: the shuffled order and the next
 * record of it, the step count and the generator. */
typedef struct {
    uint32_t *perm;
    long long cursor, step, total_steps;
    uint64_t rng;
    float *acc; /* each thread's two accumulators */
} Schedule;

/* One epoch of per_epoch positions in batches across the threads; returns
 * the summed loss, the positions seen in *seen and the last learning rate in
 * *lr. */
static double train_epoch(Trainer *tr, const TrainArgs *a, const TrainSet *d, Schedule *s, long long per_epoch,
                          long long *seen, double *lr)
{
    double loss = 0;
    for (*seen = 0; *seen < per_epoch;) {
        int bs = (int)(per_epoch - *seen < a->batch ? per_epoch - *seen : a->batch);
        if (s->cursor + bs > d->n) { /* a new pass: shuffle */
            for (long long i = d->n - 1; i > 0; i--) {
                long long j = (long long)(xorshift64(&s->rng) % (uint64_t)(i + 1));
                uint32_t t = s->perm[i];
                s->perm[i] = s->perm[j], s->perm[j] = t;
            }
            s->cursor = 0;
            if (bs > d->n)
                bs = (int)d->n;
        }
        /* Mirrored inputs read a position and its mirror image alike already. */
        uint32_t mirror_seed = a->mirror && !a->mirrored ? (uint32_t)xorshift64(&s->rng) | 1u : 0;
        Work w[64];
        pthread_t th[64];
        for (int t = 0; t < a->threads; t++) {
            int from = bs * t / a->threads, to = bs * (t + 1) / a->threads;
            w[t] = (Work){&tr->p, &tr->grad[t], d->rec, s->perm + s->cursor + from, to - from, (float)a->scale,
                          (float)a->lambda, 1.0f / (float)bs, 0, s->acc + (size_t)t * 2 * a->hidden, mirror_seed};
            pthread_create(&th[t], NULL, work_run, &w[t]);
        }
        for (int t = 0; t < a->threads; t++) {
            pthread_join(th[t], NULL);
            loss += w[t].loss;
        }
        s->cursor += bs, *seen += bs, s->step++;
        *lr = adamw_step(tr, a, s->step, s->total_steps);
    }
    return loss;
}

/* Every epoch, keeping the weights with the lowest validation loss in
 * tr->best; false when the log cannot be written. */
static bool train_all(Trainer *tr, TrainArgs *a, const TrainSet *d, const PackedPos *val, long long nval,
                      uint64_t rng)
{
    FILE *log = a->log ? fopen(a->log, "w") : NULL;
    long long per_epoch = a->epoch_size ? a->epoch_size : d->n;
    Schedule s = {malloc((size_t)d->n * sizeof(uint32_t)), d->n, 0, 0, rng,
                  malloc((size_t)a->threads * 2 * a->hidden * sizeof(float))};
    bool ok = !(a->log && !log) && s.perm && s.acc && d->n <= UINT32_MAX;
    if (a->log && !log)
        fprintf(stderr, "train: cannot write %s\n", a->log);
    else if (!ok)
        fprintf(stderr, "train: too many positions for one run\n");
    for (long long i = 0; ok && i < d->n; i++)
        s.perm[i] = (uint32_t)i;
    s.total_steps = (per_epoch + a->batch - 1) / a->batch * a->epochs;
    double best_val = ok ? loss_of(&tr->p, val, nval, a) : 0;
    int best_epoch = 0;
    if (ok) {
        memcpy(tr->best.all, tr->p.all, tr->p.size * sizeof(float));
        if (log)
            fprintf(log, "epoch,train,validation,lr,positions_per_s\n");
        printf("train: %lld positions, %lld held out, %d hidden, %d output buckets%s, K = %d, lambda %.2f, "
               "%d threads, output %s\n",
               d->n, nval, a->hidden, a->buckets, a->mirrored ? ", mirrored inputs" : "", (int)a->scale, a->lambda,
               a->threads, nnue_simd_name());
        printf("epoch 0: validation %.6f\n", best_val);
    }
    int64_t t_all = now_ms();
    for (int e = 1; ok && e <= a->epochs; e++) {
        int64_t t0 = now_ms();
        long long seen;
        double lr = 0, loss = train_epoch(tr, a, d, &s, per_epoch, &seen, &lr);
        double secs = (double)(now_ms() - t0) / 1000.0;
        double vl = loss_of(&tr->p, val, nval, a);
        double rate = secs > 0 ? (double)seen / secs : 0;
        printf("epoch %d/%d: train %.6f validation %.6f lr %.7f %.0f positions/s\n", e, a->epochs,
               loss / (double)seen, vl, lr, rate);
        if (log)
            fprintf(log, "%d,%.6f,%.6f,%.8f,%.0f\n", e, loss / (double)seen, vl, lr, rate), fflush(log);
        if (vl < best_val) {
            best_val = vl, best_epoch = e;
            memcpy(tr->best.all, tr->p.all, tr->p.size * sizeof(float));
        }
    }
    if (ok)
        printf("train: %.1f s; the lowest validation loss %.6f after epoch %d\n",
               (double)(now_ms() - t_all) / 1000.0, best_val, best_epoch);
    if (log)
        fclose(log);
    free(s.perm);
    free(s.acc);
    return ok;
}

/* The best weights quantised to a.out, read back by the engine's loader and
 * compared with the float network on the held-out positions. */
static bool write_network(const TrainArgs *a, const Params *best, int scale, const TrainSet *d, const PackedPos *val,
                          long long nval)
{
    Network net;
    FILE *out = fopen(a->out, "wb");
    bool wrote = out && quantise(best, scale, d->rec, d->n, &net) && nnue_write(&net, out);
    if (out && fclose(out) != 0)
        wrote = false;
    if (!wrote) {
        fprintf(stderr, "train: cannot write %s\n", a->out);
        return false;
    }
    nnue_free(&net);
    QuantDiff qd;
    if (!check_quantised(a->out, best, val, nval, scale, &qd))
        return false;
    /* Rounding moves each weight by at most half a step: a few cp on average. */
    bool close = qd.mean <= 4.0;
    printf("quantised %s: against the float network on %lld held-out positions, mean |diff| %.2f cp, "
           "mean diff %+.2f cp, largest %d cp: %s\n",
           a->out, qd.checked, qd.mean, qd.bias, qd.worst,
           close ? "ok (tolerance: mean 4 cp)" : "FAILED (tolerance: mean 4 cp)");
    return close;
}

int train_main(int argc, char **argv)
{
    TrainArgs a;
    ArgsResult r = parse(argc, argv, &a);
    if (r != ARGS_OK)
        return args_finish(r, usage);
    TrainSet d = {0};
    PackedPos *val = NULL;
    long long nval = 0;
    Network init;
    Trainer tr;
    bool ok = load_data(&a, &d, &val, &nval) && read_init(&a, &init);
    if (ok && !trainer_alloc(&tr, &a)) {
        if (a.init)
            nnue_free(&init);
        ok = false;
    }
    if (ok) {
        uint64_t rng = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)a.seed * 0xD1B54A32D192ED03ULL);
        init_weights(&tr.p, &a, &init, &rng);
        if (a.scale == 0)
            a.scale = trainset_fit_scale(&d);
        a.scale = (int)lround(a.scale); /* the integer scale the network file keeps */
        ok = train_all(&tr, &a, &d, val, nval, rng) && write_network(&a, &tr.best, (int)a.scale, &d, val, nval);
        trainer_free(&tr);
    }
    free(d.rec);
    free(val);
    return ok ? 0 : 1;
}
