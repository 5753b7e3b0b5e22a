/*
 * sha256.h -- SHA-256 (FIPS 180-4), for the house-rule scripts a record
 * carries: the record stores each script's text with its digest, and a
 * text whose digest does not match is refused (issue 11).
 *
 * Invariant: plain data, no allocation; a Sha256 can be copied with `=`
 * to digest a common prefix once.
 */
#ifndef CHESSVAR_SHA256_H
#define CHESSVAR_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct Sha256 {
    uint32_t h[8];
    uint64_t bytes;      /* message length so far */
    unsigned char buf[64];
    size_t nbuf;         /* bytes waiting in buf */
} Sha256;

void sha256_init(Sha256 *s);
void sha256_update(Sha256 *s, const void *data, size_t n);
/* The 32-byte digest; s is spent afterwards. */
void sha256_final(Sha256 *s, unsigned char out[32]);
/* The digest of n bytes as 64 lower-case hex digits and a NUL. */
void sha256_hex(const void *data, size_t n, char out[65]);

#endif
