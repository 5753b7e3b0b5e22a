/*
 * record.h -- game records: save a game as readable text (PGN-like tags,
 * then one action per line) and load it back by replaying every action.
 *
 *     [Variant "orthodox"]
 *     [Seed "42"]
 *     [Sides "2"]
 *     [Result "1-0"]
 *     [Termination "resignation"]
 *
 *     1. white: e4
 *     2. black: resign
 *
 * Invariant: a record holds only what rebuilds the game (variant, seed,
 * sides, seats, parameters, start position) and the actions in order;
 * loading replays them through game_play, so a loaded game is exactly the
 * game that was saved, or loading fails with "source:line: what is wrong".
 * docs/RECORDS.md describes the format in full.
 */
#ifndef CHESSVAR_RECORD_H
#define CHESSVAR_RECORD_H

#include "../game.h"
#include "../util.h"

/* Append the record of g to out.  0, or -1 if g cannot be written as a
 * record (an action whose text is empty or holds a line break); out may
 * then hold part of the text. */
int record_save(const Game *g, StrBuf *out);
/* Write the record of g to the file at path (created or replaced), all
 * or nothing: the text goes to a new file beside it, is synced, then
 * renamed over path, so a failed write (disk full, a file size limit)
 * leaves the old record whole and no partial file.  A path that is a
 * directory, FIFO or device is refused.  0, or -1 with e naming the path
 * and the system's reason. */
int record_save_file(const Game *g, const char *path, Error *e);
/* Build a game from record text.  source_name names the text in messages
 * ("game.rec"; NULL: "record").  NULL with e = "source:line: problem" on
 * any malformed, inconsistent or truncated record; never crashes. */
Game *record_load(const char *text, const char *source_name, Error *e);
/* Read the file at path and load it (path names it in messages).  Only a
 * regular file: a directory, FIFO or device is refused at once (a FIFO
 * without a writer would block). */
Game *record_load_file(const char *path, Error *e);

/* One house-rule script a record carries, as a consent question names it:
 * its Rule tag (a name, not a path), the SHA-256 of its text (checked) and
 * the text's size. */
typedef struct RecordScript {
    const char *name;
    const char *sha256; /* 64 lower-case hex digits */
    size_t len;
} RecordScript;
/* Asked once per record that carries scripts, after every text matched its
 * digest and before any of them is loaded or run (issue 20 point 6):
 * 0 runs them; -1 refuses, with e saying why (loading then fails with e's
 * message as it is). v: the record's variant. */
typedef int (*RecordConsent)(void *ctx, const VariantOps *v, const RecordScript *s,
                             int n, Error *e);
/* record_load_file that asks `consent` (NULL: the scripts run unasked, for
 * callers that made the record themselves); lim: the limits its scripts
 * run under (core/lua/house.h; NULL: the defaults), the replay included. */
struct HouseLimits;
Game *record_load_file_asking(const char *path, RecordConsent consent, void *ctx,
                              const struct HouseLimits *lim, Error *e);
/* The bytes of the regular file at path (what names it in messages: "a
 * record", "a script"; no FIFO or device is waited on), at most max,
 * appended to out.  -1 with e naming the file and the reason. */
int record_read_file(const char *path, const char *what, size_t max, StrBuf *out,
                     Error *e);
/* record_load, finding the Variant tag's name in `variants` (a
 * NULL-terminated table such as variant_registry) instead of the built-in
 * registry: for variants that are not built in (tests, later scripts). */
Game *record_load_from(const char *text, const char *source_name,
                       const VariantOps *const *variants, Error *e);

#endif
