/*
 * webclient.c -- see webclient.h.
 */
#include "webclient.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int dial_rcvbuf(int port, int rcvbuf)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (rcvbuf > 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a)) {
        close(fd);
        return -1;
    }
    return fd;
}

static int dial(int port)
{
    return dial_rcvbuf(port, 0);
}

static int send_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* More bytes into w->buf within wait ms (0: only what is there now): 1
 * read, 0 timeout, -1 EOF. */
static int fill_within(WcSocket *w, int wait)
{
    struct pollfd p = {.fd = w->fd, .events = POLLIN};
    int r = poll(&p, 1, wait);
    if (r <= 0)
        return r < 0 && errno != EINTR ? -1 : 0;
    if (w->len + 65536 > w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 131072;
        while (cap < w->len + 65536)
            cap *= 2;
        unsigned char *b = realloc(w->buf, cap);
        if (!b)
            return -1;
        w->buf = b;
        w->cap = cap;
    }
    ssize_t n = recv(w->fd, w->buf + w->len, w->cap - w->len, 0);
    if (n <= 0)
        return -1;
    w->len += (size_t)n;
    return 1;
}

/* More bytes into w->buf within the time left: 1 read, 0 timeout, -1 EOF. */
static int fill(WcSocket *w, long long deadline)
{
    long long left = deadline - now_ms();
    return left <= 0 ? 0 : fill_within(w, (int)left);
}

static void take(WcSocket *w, size_t n)
{
    memmove(w->buf, w->buf + n, w->len - n);
    w->len -= n;
}

int wc_http(int port, const char *method, const char *path, const char *body,
            size_t nbody, StrBuf *out)
{
    return wc_http_with(port, method, path, NULL, body, nbody, out);
}

int wc_http_with(int port, const char *method, const char *path, const char *headers,
                 const char *body, size_t nbody, StrBuf *out)
{
    int fd = dial(port);
    if (fd < 0)
        return -1;
    char head[1024];
    snprintf(head, sizeof head, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                                "%sContent-Length: %zu\r\n\r\n", method, path,
             headers ? headers : "", body ? nbody : 0);
    WcSocket w = {.fd = fd};
    int status = -1;
    if (send_all(fd, head, strlen(head)) || (body && send_all(fd, body, nbody)))
        goto done;
    long long deadline = now_ms() + 20000;
    int r;
    while ((r = fill(&w, deadline)) > 0)
        ;
    if (r == 0 || w.len < 12)
        goto done;
    status = atoi((char *)w.buf + 9);
    for (size_t i = 0; i + 3 < w.len; i++)
        if (memcmp(w.buf + i, "\r\n\r\n", 4) == 0) {
            if (out)
                sb_putn(out, (char *)w.buf + i + 4, w.len - i - 4);
            break;
        }
done:
    free(w.buf);
    close(fd);
    return status;
}

int wc_ws_open(WcSocket *w, int port, const char *path)
{
    return wc_ws_open_small(w, port, path, 0);
}

int wc_ws_open_small(WcSocket *w, int port, const char *path, int rcvbuf)
{
    memset(w, 0, sizeof *w);
    w->fd = dial_rcvbuf(port, rcvbuf);
    if (w->fd < 0)
        return -1;
    char head[512];
    snprintf(head, sizeof head, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                                "Connection: Upgrade\r\nSec-WebSocket-Key: "
                                "dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
             path);
    if (send_all(w->fd, head, strlen(head)))
        goto fail;
    long long deadline = now_ms() + 10000;
    for (;;) {
        for (size_t i = 0; i + 3 < w->len; i++)
            if (memcmp(w->buf + i, "\r\n\r\n", 4) == 0) {
                int ok = w->len >= 12 && memcmp(w->buf + 9, "101", 3) == 0;
                take(w, i + 4);
                if (ok)
                    return 0;
                goto fail;
            }
        if (fill(w, deadline) <= 0)
            goto fail;
    }
fail:
    wc_ws_close(w);
    return -1;
}

void wc_ws_close(WcSocket *w)
{
    if (w->fd >= 0)
        close(w->fd);
    free(w->buf);
    memset(w, 0, sizeof *w);
    w->fd = -1;
}

int wc_ws_send_op(WcSocket *w, int opcode, int fin, const void *data, size_t n)
{
    unsigned char head[14];
    size_t h = 0;
    head[h++] = (unsigned char)((fin ? 0x80 : 0) | (opcode & 0x0f));
    if (n < 126) {
        head[h++] = (unsigned char)(0x80 | n);
    } else if (n < 65536) {
        head[h++] = 0x80 | 126;
        head[h++] = (unsigned char)(n >> 8);
        head[h++] = (unsigned char)n;
    } else {
        head[h++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--)
            head[h++] = (unsigned char)((unsigned long long)n >> (8 * i));
    }
    static const unsigned char MASK[4] = {0x12, 0x34, 0x56, 0x78};
    memcpy(head + h, MASK, 4);
    h += 4;
    unsigned char *frame = malloc(h + n + 1);
    if (!frame)
        return -1;
    memcpy(frame, head, h);
    for (size_t i = 0; i < n; i++)
        frame[h + i] = ((const unsigned char *)data)[i] ^ MASK[i % 4];
    int rc = send_all(w->fd, frame, h + n);
    free(frame);
    return rc;
}

int wc_ws_send(WcSocket *w, const char *text, size_t n)
{
    return wc_ws_send_op(w, 1, 1, text, n);
}

int wc_ws_send_raw(WcSocket *w, const void *data, size_t n)
{
    return send_all(w->fd, data, n);
}

char *wc_ws_recv(WcSocket *w, int timeout_ms, int *op)
{
    long long deadline = now_ms() + timeout_ms;
    for (;;) {
        if (w->len >= 2) {
            size_t h = 2, n = w->buf[1] & 0x7f;
            if (n == 126 && w->len >= 4) {
                n = (size_t)w->buf[2] << 8 | w->buf[3];
                h = 4;
            } else if (n == 127 && w->len >= 10) {
                n = 0;
                for (int i = 0; i < 8; i++)
                    n = n << 8 | w->buf[2 + i];
                h = 10;
            } else if (n >= 126) {
                h = 0; /* the length is not all there */
            }
            if (h && w->len >= h + n) {
                char *p = malloc(n + 1);
                if (!p)
                    return NULL;
                memcpy(p, w->buf + h, n);
                p[n] = '\0';
                *op = w->buf[0] & 0x0f;
                take(w, h + n);
                return p;
            }
        }
        if (fill(w, deadline) <= 0)
            return NULL;
    }
}

int wc_ws_read_ready(WcSocket *w)
{
    return fill_within(w, 0);
}

int wc_ws_closed(WcSocket *w, int timeout_ms)
{
    long long deadline = now_ms() + timeout_ms;
    for (;;) {
        int op = 0;
        long long left = deadline - now_ms();
        if (left <= 0)
            return 0;
        char *p = wc_ws_recv(w, (int)left, &op);
        if (!p)
            return now_ms() < deadline; /* EOF before the deadline */
        free(p);
        if (op == 8)
            return 1;
    }
}
