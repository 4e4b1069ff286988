/* platform.c - the few calls that Linux and Windows spell differently. */
#ifndef _WIN32
#define _POSIX_C_SOURCE 200809L /* pread, readlink */
#endif
#include "platform.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef _WIN32
#include <io.h>
#include <malloc.h>
#include <windows.h>
#endif

bool path_sep_on(char c, bool windows) { return c == '/' || (windows && c == '\\'); }

static bool drive_letter(const char *p)
{
    return ((p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z')) && p[1] == ':';
}

bool path_absolute_on(const char *p, bool windows)
{
    if (path_sep_on(p[0], windows))
        return true;
    return windows && drive_letter(p) && path_sep_on(p[2], true);
}

void path_trim_on(char *p, bool windows)
{
    size_t len = strlen(p), keep = 1; /* "/" */
    if (windows && drive_letter(p))
        keep = 3; /* "C:\" */
    while (len > keep && path_sep_on(p[len - 1], windows))
        p[--len] = '\0';
}

bool platform_exe_path(char *out, size_t n)
{
    if (n < 2)
        return false;
#ifdef _WIN32
    DWORD len = GetModuleFileNameA(NULL, out, (DWORD)n);
    return len > 0 && len < n;
#else
    ssize_t len = readlink("/proc/self/exe", out, n - 1);
    if (len <= 0 || (size_t)len >= n - 1)
        return false;
    out[len] = '\0';
    return true;
#endif
}

void *hexe_aligned_alloc(size_t align, size_t size)
{
    size = (size + align - 1) / align * align; /* C17's aligned_alloc wants a multiple */
#ifdef _WIN32
    return _aligned_malloc(size ? size : align, align);
#else
    return aligned_alloc(align, size ? size : align);
#endif
}

void *hexe_aligned_zalloc(size_t align, size_t size)
{
    void *p = hexe_aligned_alloc(align, size);
    if (p)
        memset(p, 0, size);
    return p;
}

void hexe_aligned_free(void *p)
{
#ifdef _WIN32
    _aligned_free(p);
#else
    free(p);
#endif
}

long long hexe_pread(int fd, void *buf, size_t n, long long off)
{
#ifdef _WIN32
    /* ReadFile at an offset: the Windows form of pread on a plain handle. */
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    if (h == INVALID_HANDLE_VALUE)
        return -1;
    OVERLAPPED ov;
    memset(&ov, 0, sizeof ov);
    ov.Offset = (DWORD)((unsigned long long)off & 0xffffffffu);
    ov.OffsetHigh = (DWORD)((unsigned long long)off >> 32);
    DWORD got = 0;
    if (!ReadFile(h, buf, n > 0x40000000u ? 0x40000000u : (DWORD)n, &got, &ov))
        return GetLastError() == ERROR_HANDLE_EOF ? 0 : -1;
    return (long long)got;
#else
    return (long long)pread(fd, buf, n, (off_t)off);
#endif
}

void fd_set_blocking(int fd)
{
#ifdef _WIN32
    (void)fd;
#else
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
#endif
}

bool file_id(const char *path, const struct stat *st, FileId *id)
{
    memset(id, 0, sizeof *id);
    id->size = (long long)st->st_size;
#ifdef _WIN32
    id->mtime_s = (long long)st->st_mtime;
    HANDLE h = CreateFileA(path, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                           FILE_FLAG_BACKUP_SEMANTICS, NULL);
    if (h == INVALID_HANDLE_VALUE)
        return false;
    BY_HANDLE_FILE_INFORMATION info;
    bool ok = GetFileInformationByHandle(h, &info);
    CloseHandle(h);
    if (!ok)
        return false;
    id->dev = info.dwVolumeSerialNumber;
    id->ino = (uint64_t)info.nFileIndexHigh << 32 | info.nFileIndexLow;
    return true;
#else
    (void)path;
    id->dev = (uint64_t)st->st_dev;
    id->ino = (uint64_t)st->st_ino;
    id->mtime_s = (long long)st->st_mtim.tv_sec;
    id->mtime_ns = (long long)st->st_mtim.tv_nsec;
    return true;
#endif
}

void platform_console_init(void)
{
#ifdef _WIN32
    SetConsoleOutputCP(CP_UTF8);
    HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
    DWORD mode;
    if (out != INVALID_HANDLE_VALUE && GetConsoleMode(out, &mode))
        SetConsoleMode(out, mode | 0x0004 /* ENABLE_VIRTUAL_TERMINAL_PROCESSING */);
#endif
}
