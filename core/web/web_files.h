/*
 * web_files.h -- the page's files (web/), built into the program: the
 * Makefile runs tools/embed.c over every file of web/ and compiles the
 * C file it writes (build/gen/web_files.c).
 *
 * Invariant: the table ends with a NULL name; each data array holds len
 * bytes and one NUL after them.
 */
#ifndef CHESSVAR_WEB_FILES_H
#define CHESSVAR_WEB_FILES_H

#include <stddef.h>

typedef struct WebFile {
    const char *name;          /* relative to web/: "index.html", "app.js" */
    const unsigned char *data;
    size_t len;
} WebFile;

extern const WebFile web_files[];

#endif
