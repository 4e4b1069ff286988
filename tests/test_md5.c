/* test_md5.c - MD5 against the test suite of RFC 1321 (appendix A.5), in
 * pieces of every size, and the embedded list of published Syzygy checksums
 * (src/syzygy/checksums.c) against tablebases/checksums*.md5, which must agree
 * with the MD5 of every shipped table file. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "syzygy/md5.h"
#include "syzygy/checksums.h"

static void hex_of(const char *s, size_t n, size_t piece, char *out)
{
    Md5 c;
    unsigned char d[16];
    md5_init(&c);
    for (size_t i = 0; i < n; i += piece)
        md5_update(&c, s + i, n - i < piece ? n - i : piece);
    md5_final(&c, d);
    md5_hex(d, out);
}

static int listed(const char *name, const char *md5)
{
    for (int i = 0; i < tb_checksum_count; i++)
        if (!strcmp(tb_checksums[i].name, name) && !strcmp(tb_checksums[i].md5, md5))
            return 1;
    return 0;
}

int main(void)
{
    static const char *const rfc[][2] = {
        {"", "d41d8cd98f00b204e9800998ecf8427e"},
        {"a", "0cc175b9c0f1b6a831c399e269772661"},
        {"abc", "900150983cd24fb0d6963f7d28e17f72"},
        {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
        {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
        {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"},
        {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
         "57edf4a22be3c955ac49da2e2107b67a"},
    };
    for (int i = 0; i < 7; i++)
        for (size_t piece = 1; piece <= 81; piece++) {
            char hex[33];
            hex_of(rfc[i][0], strlen(rfc[i][0]), piece, hex);
            CHECK(!strcmp(hex, rfc[i][1]), "MD5(\"%s\") in pieces of %zu = %s, not %s", rfc[i][0], piece, hex,
                  rfc[i][1]);
        }

    /* The embedded list is the published one, both ways. */
    int lines = 0, shipped = 0;
    const char *lists[] = {"tablebases/checksums.md5", "tablebases/checksums-reissued.md5"};
    for (int f = 0; f < 2; f++) {
        FILE *in = fopen(lists[f], "r");
        CHECK(in != NULL, "cannot read %s", lists[f]);
        char md5[64], name[64];
        while (in && fscanf(in, "%63s %63s", md5, name) == 2) {
            lines++;
            CHECK(listed(name, md5), "%s %s of %s is not in src/syzygy/checksums.c", md5, name, lists[f]);
            char path[128];
            snprintf(path, sizeof path, "tablebases/%s", name);
            int fd = open(path, O_RDONLY);
            if (fd < 0)
                continue; /* a 5-piece table, not shipped */
            unsigned char d[16];
            char hex[33];
            CHECK(md5_fd(fd, d), "reading %s", path);
            close(fd);
            md5_hex(d, hex);
            if (f == 0) {
                shipped++;
                CHECK(listed(name, hex), "shipped %s has MD5 %s, not a published one", name, hex);
            }
        }
        if (in)
            fclose(in);
    }
    CHECK(lines == tb_checksum_count, "%d published checksums, %d embedded", lines, tb_checksum_count);
    CHECK(shipped == 70, "%d shipped tables checked, not 70", shipped);
    return check_report("test_md5");
}
