/*
 * webclient.h -- a small HTTP and WebSocket client over plain sockets for
 * the tests of `chessvar serve` (tests/test_web*.c): requests with a body,
 * a WebSocket's handshake, masked text frames (or any raw bytes, to send
 * garbage), and frames read with a timeout.
 *
 * Invariant: nothing here blocks longer than the timeout it is given; a
 * failure returns -1 / NULL and never aborts, so a test can assert that
 * the server closed a connection.
 */
#ifndef CHESSVAR_WEBCLIENT_H
#define CHESSVAR_WEBCLIENT_H

#include <stddef.h>

#include "../../core/util.h"

/* One request to 127.0.0.1:port: the status (200, 404 ...) and the body
 * in *body (may be NULL), or -1 when there is no answer. */
int wc_http(int port, const char *method, const char *path, const char *body,
            size_t nbody, StrBuf *out);
/* The same with more header lines ("Name: value\r\n" each; NULL: none). */
int wc_http_with(int port, const char *method, const char *path, const char *headers,
                 const char *body, size_t nbody, StrBuf *out);

typedef struct WcSocket {
    int fd;
    unsigned char *buf;   /* bytes read but not yet taken */
    size_t len, cap;
} WcSocket;

/* Connect and upgrade to a WebSocket at path: 0, or -1. */
int wc_ws_open(WcSocket *w, int port, const char *path);
/* The same with a receive buffer of rcvbuf bytes (a client that reads
 * slowly fills the server's side quickly). */
int wc_ws_open_small(WcSocket *w, int port, const char *path, int rcvbuf);
void wc_ws_close(WcSocket *w);
/* A masked text frame of n bytes (one frame, FIN set): 0 or -1. */
int wc_ws_send(WcSocket *w, const char *text, size_t n);
/* A frame with opcode and fin as given (binary, continuation ...). */
int wc_ws_send_op(WcSocket *w, int opcode, int fin, const void *data, size_t n);
/* Raw bytes on the socket. */
int wc_ws_send_raw(WcSocket *w, const void *data, size_t n);
/* The next frame's payload (text or close), NUL-terminated, within
 * timeout_ms: malloc'd (the caller frees), its opcode in *op; NULL on a
 * timeout, an error or the end of the connection.  With timeout_ms 0 it
 * only takes a frame already read whole (after wc_ws_read_ready). */
char *wc_ws_recv(WcSocket *w, int timeout_ms, int *op);
/* The bytes the socket holds now, read without waiting (for a client
 * that polls many sockets, tests/bench_web.c): 1 some were read, 0 none,
 * -1 the end of the connection or an error. */
int wc_ws_read_ready(WcSocket *w);
/* 1 when the server ends the connection within timeout_ms (a close frame
 * or EOF), reading over any frames before it. */
int wc_ws_closed(WcSocket *w, int timeout_ms);

#endif
