/*
 * fuzz_targets.h -- the fuzz targets (docs/FUZZING.md): functions that take
 * arbitrary bytes, drive the library with them and check invariants, not
 * only "no crash".  libFuzzer calls them from tests/fuzz/fuzz_*.c;
 * tests/test_fuzz_replay.c runs every committed corpus file through them.
 *
 * Invariant: a target returns 0 for every input that respects the
 * invariants; a broken invariant prints what failed (with the input's
 * line, escaped) on standard error and calls abort(), so libFuzzer keeps
 * the input as a crash and a replay test dies loudly.  Nothing here keeps
 * state between calls.
 *
 * Built with -DFUZZ_TOLERATE_KNOWN (make fuzz does, by default), the
 * targets let pass the failures of the bugs listed in issue 8 that are
 * still open (see fuzz_targets.c, "Known bugs"), so a long run can find
 * new ones; the replay test is built without it and checks everything.
 */
#ifndef CHESSVAR_FUZZ_TARGETS_H
#define CHESSVAR_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

/* Batch mode (core/cli/cli.h, batch_*): byte 0 picks the variant and the
 * output (JSON or text), byte 1 a few parameters, byte 2 the seed, byte 3
 * how often the costly checks run; the rest is command lines. */
int fuzz_batch(const uint8_t *data, size_t size);
/* Record text (core/record/record.h, record_load). */
int fuzz_record(const uint8_t *data, size_t size);
/* Byte 0 picks the variant (and parameters), the rest is a position
 * string (GameConfig.position). */
int fuzz_position(const uint8_t *data, size_t size);
/* House rules over the game: API (docs/HOUSE-RULES.md): byte 0 picks the
 * variant (Tile: and its sides), byte 1 the seed, byte 2 the plies (low
 * nibble, at most 12) and who chooses them (bits 4-5); the rest is a Lua
 * script, loaded as "fuzz.lua" with small limits. */
int fuzz_house(const uint8_t *data, size_t size);

/* The checkers the targets use, exposed for their own tests. */
/* 1 when s[0..n) is UTF-8 as RFC 3629 defines it: no surrogates, no
 * overlong forms, nothing above U+10FFFF, no NUL byte. */
int fuzz_utf8_valid(const char *s, size_t n);
/* 1 when s[0..n) is one JSON object (RFC 8259, strictly: no trailing
 * commas, no control characters in strings, \u escapes of surrogates in
 * pairs) with nothing after it but white space. */
int fuzz_json_object_valid(const char *s, size_t n);

/* The targets by name, NULL-terminated: "batch", "record", "position", "house"
 * (the names of the corpus directories tests/fuzz/corpus/NAME). */
typedef struct FuzzTarget {
    const char *name;
    int (*run)(const uint8_t *data, size_t size);
} FuzzTarget;
extern const FuzzTarget fuzz_targets[];

#endif
