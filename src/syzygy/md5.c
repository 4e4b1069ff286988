/* syzygy/md5.c - MD5 as published in RFC 1321 (R. Rivest, 1992), written from the
 * RFC's description: 64-byte blocks, four rounds of sixteen steps with the
 * functions F, G, H, I, the sine-derived constants T[i] = floor(2^32 *
 * |sin(i + 1)|) and the per-step rotations, little-endian words, and the
 * padding (0x80, zeros, the bit length as 64-bit little-endian). */
#define _POSIX_C_SOURCE 200809L
#include "md5.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static uint32_t T[64];
static const int S[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

static void make_table(void)
{
    if (T[0])
        return; /* 0xd76aa478 once made; racing threads write the same values */
    for (int i = 0; i < 64; i++)
        T[i] = (uint32_t)(fabs(sin((double)(i + 1))) * 4294967296.0);
}

static inline uint32_t rotl(uint32_t x, int s) { return x << s | x >> (32 - s); }

static void transform(uint32_t st[4], const unsigned char *p)
{
    uint32_t x[16];
    for (int i = 0; i < 16; i++)
        x[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 |
               (uint32_t)p[4 * i + 3] << 24;
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
    for (int i = 0; i < 64; i++) {
        uint32_t f;
        int k, round = i / 16;
        switch (round) {
        case 0: f = (b & c) | (~b & d); k = i; break;              /* F */
        case 1: f = (b & d) | (c & ~d); k = (5 * i + 1) & 15; break; /* G */
        case 2: f = b ^ c ^ d; k = (3 * i + 5) & 15; break;          /* H */
        default: f = c ^ (b | ~d); k = (7 * i) & 15; break;          /* I */
        }
        uint32_t t = d;
        d = c;
        c = b;
        b = b + rotl(a + f + x[k] + T[i], S[round][i & 3]);
        a = t;
    }
    st[0] += a, st[1] += b, st[2] += c, st[3] += d;
}

void md5_init(Md5 *c)
{
    make_table();
    c->state[0] = 0x67452301;
    c->state[1] = 0xefcdab89;
    c->state[2] = 0x98badcfe;
    c->state[3] = 0x10325476;
    c->length = 0;
    c->used = 0;
}

void md5_update(Md5 *c, const void *data, size_t n)
{
    const unsigned char *p = data;
    c->length += n;
    if (c->used) {
        size_t take = 64 - c->used < n ? 64 - c->used : n;
        memcpy(c->block + c->used, p, take);
        c->used += take, p += take, n -= take;
        if (c->used < 64)
            return;
        transform(c->state, c->block);
        c->used = 0;
    }
    for (; n >= 64; p += 64, n -= 64)
        transform(c->state, p);
    memcpy(c->block, p, n);
    c->used = n;
}

void md5_final(Md5 *c, unsigned char digest[16])
{
    uint64_t bits = c->length * 8;
    static const unsigned char pad[64] = {0x80};
    size_t padlen = c->used < 56 ? 56 - c->used : 120 - c->used;
    unsigned char len[8];
    for (int i = 0; i < 8; i++)
        len[i] = (unsigned char)(bits >> (8 * i));
    md5_update(c, pad, padlen);
    md5_update(c, len, 8);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            digest[4 * i + j] = (unsigned char)(c->state[i] >> (8 * j));
}

void md5_hex(const unsigned char digest[16], char *out)
{
    for (int i = 0; i < 16; i++)
        snprintf(out + 2 * i, 3, "%02x", digest[i]);
}

bool md5_fd(int fd, unsigned char digest[16])
{
    static _Thread_local unsigned char buf[1 << 16];
    Md5 c;
    md5_init(&c);
    for (;;) {
        ssize_t r = read(fd, buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return false;
        if (r == 0)
            break;
        md5_update(&c, buf, (size_t)r);
    }
    md5_final(&c, digest);
    return true;
}
