/* syzygy/md5.h - the MD5 message digest (RFC 1321), to check files against
 * published checksums. Not for anything that needs a secure hash. */
#ifndef HEXE_SYZYGY_MD5_H
#define HEXE_SYZYGY_MD5_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t state[4];
    uint64_t length; /* bytes so far */
    unsigned char block[64];
    size_t used;     /* bytes waiting in block */
} Md5;

void md5_init(Md5 *c);
void md5_update(Md5 *c, const void *data, size_t n);
void md5_final(Md5 *c, unsigned char digest[16]);
/* The digest as 32 lower-case hex digits (out: at least 33 bytes). */
void md5_hex(const unsigned char digest[16], char *out);
/* The MD5 of an open file descriptor's contents from its current offset to
 * its end; false on a read error (errno set). */
bool md5_fd(int fd, unsigned char digest[16]);

#endif
