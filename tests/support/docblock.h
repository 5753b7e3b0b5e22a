/*
 * docblock.h -- the example blocks of README.md and docs/, shared by
 * tests/test_docs.c (which runs their `$ ` sessions) and the benches whose
 * output docs/EXPERIMENTS.md quotes (bench_calibration, bench_sequential:
 * too slow for the tests, so `make bench` checks their blocks).
 *
 * A session is a fenced code block whose first line starts with "$ "; the
 * lines after a "$ " line, up to the next one or the fence, are its
 * expected output, where a line "..." matches any number of lines.  A
 * session is not run by test_docs when the line before its fence is
 * "<!-- not run: REASON -->"; a bench's block is one such session, found
 * by its command line.
 *
 * Invariant: a doc file is written only by doc_write, and update mode
 * changes only the expected-output lines of the block it checks.
 */
#ifndef CHESSVAR_DOCBLOCK_H
#define CHESSVAR_DOCBLOCK_H

#include <stdio.h>

/* ---- Lines of text ------------------------------------------------------- */
typedef struct Lines {
    char **v;
    int n, cap;
} Lines;

void lines_push(Lines *l, const char *s, size_t len);
void lines_free(Lines *l);
/* Split text at '\n' (a final newline ends the last line): returns 1 if the
 * text ended with a newline (or was empty). */
int lines_split(Lines *l, const char *text);
int is_ellipsis(const char *s);
int count_ellipses(char *const *e, int ne);
/* Do the na lines a match the expected ne lines e, an "..." line matching
 * zero or more lines? */
int lines_match(char *const *e, int ne, char *const *a, int na);
/* Where a fails to match e: the 0-based index of the first differing line
 * in each (-1: past the end), counting from the start up to the first
 * "..." and from the end after the last one.  Returns 0 if those all match
 * (the difference is then between "..." lines), 1 otherwise. */
int lines_first_diff(char *const *e, int ne, char *const *a, int na, int *ei, int *ai);
/* The expected lines that update mode writes for the actual output a: e
 * itself if it matches, else a, shaped like e around its one "...".
 * Returns 0, or -1 (nothing in out) when e has several "..." lines. */
int lines_update(char *const *e, int ne, char *const *a, int na, Lines *out);

/* ---- A doc file ---------------------------------------------------------- */
typedef struct Doc {
    char path[4096];
    Lines lines;
    int final_newline;
    int changed; /* update mode rewrote some expected output */
} Doc;

void doc_from_text(Doc *d, const char *path, const char *text);
/* 0, or -1 if the file cannot be read. */
int doc_load(Doc *d, const char *path);
/* Write d's lines back to its file (through a new file renamed over it):
 * 0, or -1 with errno set. */
int doc_write(const Doc *d);
int is_fence(const char *s);
int is_command(const char *s);
/* Is line i of d a "not run" mark with a reason? */
int is_not_run_mark(const Doc *d, int i);

/* ---- A bench's quoted output ---------------------------------------------- */
/* The one rule for what may differ between a bench's run and the block the
 * docs quote: a figure of the time or of the machine, that is a number
 * directly before " s" (seconds; the next character is not a letter) or
 * before " workers", or directly after "--jobs ".  Line s with each such
 * number written "#" (malloc'd); every other character is compared. */
char *bench_line_key(const char *s);

/* Compare output (what a bench printed) with the expected lines of the
 * first session of d whose command line is "$ command", line by line by
 * bench_line_key ("..." lines as in a session).  Prints to msg what it
 * found, first "PATH quotes this output: the same", or which line differs
 * (with the docs' line number), or that no block quotes it (required: the
 * bench's own sizes, the block the docs must have; otherwise it is said
 * and not compared).  With update set, a block that differs gets the output
 * as its expected lines (d->changed; the caller writes d).  Returns 0 (the
 * same, updated or not compared) or 1 (it differs, or a required block is
 * missing or cannot be updated). */
int bench_doc_compare(Doc *d, const char *command, const char *output, int required,
                      int update, FILE *msg);

/* bench_doc_compare on the file $CHESSVAR_BENCH_DOC (default
 * docs/EXPERIMENTS.md), updating it when CHESSVAR_DOCS_UPDATE=1; messages
 * on standard output.  0 or 1 as bench_doc_compare, 1 too when the file
 * cannot be read or written: a bench's exit status. */
int bench_docs_check(const char *command, const char *output, int required);

#endif
