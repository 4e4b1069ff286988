/* platform.h - what differs between Linux and Windows, in one place: file
 * open flags, path conventions (separators, drive letters, the folder list
 * of SyzygyPath), the executable's own path, aligned memory, positional
 * reads and file identity. Everything else in Hexe is plain C17 and POSIX
 * threads (winpthreads in the MinGW-w64 build). */
#ifndef HEXE_PLATFORM_H
#define HEXE_PLATFORM_H

#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#ifdef _WIN32
#define HEXE_WINDOWS 1
#define PATH_LIST_SEP ';' /* SyzygyPath "C:\tb\wdl;D:\tb": drive letters hold ':' */
#define NULL_DEVICE "NUL"
#define DIR_SEP "\\"
#ifndef O_NONBLOCK
#define O_NONBLOCK 0 /* no FIFO on Windows blocks open() */
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC O_NOINHERIT
#endif
#else
#define HEXE_WINDOWS 0
#define PATH_LIST_SEP ':'
#define NULL_DEVICE "/dev/null"
#define DIR_SEP "/"
#endif
/* Assembler sections for data embedded with .incbin (the network): the
 * read-only section, then back to the code. */
#ifdef _WIN32
#define ASM_RODATA_SECTION ".section .rdata,\"dr\"\n"
#define ASM_END_SECTION ".text\n" /* COFF has no .previous */
#else
#define ASM_RODATA_SECTION ".section .rodata\n"
#define ASM_END_SECTION ".previous\n"
#endif
#ifndef O_BINARY
#define O_BINARY 0 /* Windows opens files as text (CRLF translated) without it */
#endif
#ifndef S_ISSOCK
#define S_ISSOCK(m) 0
#endif

/* Path rules of either system, `windows` choosing which (the tests check
 * both on one machine); the plain forms use the running system's.
 * A separator: '/', and on Windows '\\' too. */
bool path_sep_on(char c, bool windows);
/* Absolute: "/x"; on Windows also "\\x", "C:\\x", "C:/x" and "\\\\server\\share". */
bool path_absolute_on(const char *p, bool windows);
/* Drops trailing separators ("C:\\tb\\" -> "C:\\tb"), keeping a root ("/", "C:\\"). */
void path_trim_on(char *p, bool windows);
static inline bool path_sep(char c) { return path_sep_on(c, HEXE_WINDOWS); }
static inline bool path_absolute(const char *p) { return path_absolute_on(p, HEXE_WINDOWS); }
static inline void path_trim(char *p) { path_trim_on(p, HEXE_WINDOWS); }

/* The running executable's full path (Linux: /proc/self/exe; Windows:
 * GetModuleFileName). False when unknown or when it does not fit in out. */
bool platform_exe_path(char *out, size_t n);

/* Memory aligned to align (a power of two), freed with hexe_aligned_free
 * (Windows' C library has no aligned_alloc that free() takes back). */
void *hexe_aligned_alloc(size_t align, size_t size);
void *hexe_aligned_zalloc(size_t align, size_t size); /* the same, filled with zeros */
void hexe_aligned_free(void *p);

/* Reads up to n bytes at offset off without moving a shared file position
 * (pread); -1 on error. */
long long hexe_pread(int fd, void *buf, size_t n, long long off);

/* Makes a file opened with O_NONBLOCK block again (Linux; nothing to do on
 * Windows). */
void fd_set_blocking(int fd);

/* Which file path is, as far as a cache of verdicts needs: device and inode
 * on Linux (from st), volume serial number and file index on Windows
 * (whose stat gives no inode), with size and modification time. */
typedef struct {
    uint64_t dev, ino;
    long long size, mtime_s, mtime_ns;
} FileId;
bool file_id(const char *path, const struct stat *st, FileId *id);

/* A console that shows UTF-8 and ANSI colours (Windows' console does not
 * by default); nothing on Linux. */
void platform_console_init(void);

#endif
