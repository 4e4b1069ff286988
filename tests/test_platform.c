/* test_platform.c - the path rules of Linux and of Windows (both checked
 * here, on one machine: separators, drive letters, the trailing separators
 * that Windows' stat refuses), the executable's folder, aligned memory,
 * positional reads and file identity (src/platform.c). The Windows build
 * itself is checked under Wine by scripts/release. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "files.h"
#include "platform.h"

static void trimmed(const char *in, bool windows, const char *want)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", in);
    path_trim_on(buf, windows);
    CHECK(!strcmp(buf, want), "%s trimmed (%s) is '%s', not '%s'", in, windows ? "Windows" : "Linux", buf, want);
}

static void path_rules(void)
{
    CHECK(path_absolute_on("/usr/share", false), "a Linux absolute path");
    CHECK(!path_absolute_on("books/book.bin", false), "a Linux relative path");
    CHECK(!path_absolute_on("C:\\tb", false), "C:\\tb is a relative name on Linux");
    CHECK(!path_absolute_on("\\tb", false), "a backslash is no separator on Linux");
    CHECK(path_absolute_on("C:\\Syzygy\\wdl", true), "a drive letter and a backslash");
    CHECK(path_absolute_on("d:/Syzygy", true), "a drive letter and a slash");
    CHECK(path_absolute_on("\\\\server\\tables", true), "a network share");
    CHECK(path_absolute_on("/tables", true), "a rooted path on Windows");
    CHECK(!path_absolute_on("C:tables", true), "C:tables is relative to drive C's folder");
    CHECK(!path_absolute_on("books\\book.bin", true), "a Windows relative path");
    CHECK(!path_absolute_on("", true) && !path_absolute_on("", false), "an empty path");
    CHECK(path_sep_on('\\', true) && !path_sep_on('\\', false) && path_sep_on('/', true), "separators");

    trimmed("/tables/", false, "/tables");
    trimmed("/tables//", false, "/tables");
    trimmed("/", false, "/");
    trimmed("tables\\", false, "tables\\");
    trimmed("C:\\Syzygy\\", true, "C:\\Syzygy");
    trimmed("C:\\Syzygy/\\", true, "C:\\Syzygy");
    trimmed("C:\\", true, "C:\\");
    trimmed("C:/", true, "C:/");
    trimmed("\\", true, "\\");
    trimmed("tables", true, "tables");
    trimmed("", true, "");
}

static void exe_folder(void)
{
    char exe[4096], dir[4096];
    CHECK(platform_exe_path(exe, sizeof exe), "the executable's path is known");
    CHECK(path_absolute(exe), "it is absolute: %s", exe);
    CHECK(strstr(exe, "test_platform") != NULL, "it names this test: %s", exe);
    CHECK(exe_dir(0, dir, sizeof dir) && !strncmp(exe, dir, strlen(dir)) && path_sep(exe[strlen(dir)]),
          "its folder: %s", dir);
    CHECK(!platform_exe_path(exe, 4), "a buffer too small is refused");
}

static void memory(void)
{
    for (size_t align = 16; align <= ((size_t)2 << 20); align *= 8) {
        void *p = hexe_aligned_alloc(align, 1000);
        CHECK(p && (uintptr_t)p % align == 0, "%zu-byte alignment", align);
        if (p)
            memset(p, 1, 1000);
        hexe_aligned_free(p);
    }
    hexe_aligned_free(NULL);
}

static void files(void)
{
    char a[] = "/tmp/hexe-platform-a-XXXXXX", b[] = "/tmp/hexe-platform-b-XXXXXX";
    int fa = mkstemp(a), fb = mkstemp(b);
    CHECK(fa >= 0 && fb >= 0, "two temporary files");
    if (fa < 0 || fb < 0)
        return;
    const char text[] = "0123456789abcdef";
    CHECK(write(fa, text, 16) == 16 && write(fb, text, 16) == 16, "written");
    char buf[8] = {0};
    CHECK(hexe_pread(fa, buf, 4, 10) == 4 && !memcmp(buf, "abcd", 4), "pread at 10: %.4s", buf);
    CHECK(hexe_pread(fa, buf, 8, 14) == 2 && !memcmp(buf, "ef", 2), "pread past the end reads what is there");
    CHECK(hexe_pread(fa, buf, 4, 16) == 0, "pread at the end reads nothing");
    CHECK(hexe_pread(-1, buf, 4, 0) < 0, "pread on no file fails");
    CHECK(lseek(fa, 0, SEEK_CUR) == 16, "pread leaves the file position alone");

    struct stat sa, sb, sa2;
    FileId ia, ib, ia2;
    CHECK(stat(a, &sa) == 0 && stat(b, &sb) == 0 && stat(a, &sa2) == 0, "stat");
    CHECK(file_id(a, &sa, &ia) && file_id(b, &sb, &ib) && file_id(a, &sa2, &ia2), "file ids");
    CHECK(!memcmp(&ia, &ia2, sizeof ia), "one file, one id");
    CHECK(memcmp(&ia, &ib, sizeof ia) != 0, "two files of one size and time, two ids");
    CHECK(ia.size == 16, "the id holds the size");
    close(fa);
    close(fb);
    unlink(a);
    unlink(b);
}

int main(void)
{
    path_rules();
    exe_folder();
    memory();
    files();
    return check_report("test_platform");
}
