/* syzygy/checksums.h - the published MD5 checksums of the Syzygy table files. */
#ifndef HEXE_SYZYGY_CHECKSUMS_H
#define HEXE_SYZYGY_CHECKSUMS_H

typedef struct {
    const char *name; /* "KQvKR.rtbw" */
    const char *md5;  /* 32 lower-case hex digits */
} TbChecksum;

extern const TbChecksum tb_checksums[];
extern const int tb_checksum_count;

#endif
