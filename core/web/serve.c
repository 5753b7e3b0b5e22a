/*
 * serve.c -- the `chessvar serve` command: start the server, print its
 * address (and a QR code of it when other devices are to reach it), wait
 * for SIGINT or SIGTERM, stop cleanly.
 *
 * Invariant: the signals are blocked in every thread (civetweb's and the
 * bots' inherit the mask) and taken by sigwait in the main thread alone,
 * so a stop never interrupts a write of the data folder.
 */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <qrencode.h>

#include "../cli/cli.h"
#include "web.h"

int web_qr_text(const char *text, StrBuf *out, Error *e)
{
    QRcode *qr = QRcode_encodeString(text, 0, QR_ECLEVEL_L, QR_MODE_8, 1);
    if (!qr)
        return err_set(e, "the QR code of %s could not be made", text);
    int w = qr->width, q = 2; /* quiet zone, modules */
    /* dark modules are printed as spaces on a light block: the terminal's
     * background may be dark or light, so the code draws its own light */
    for (int y = -q; y < w + q; y += 2) {
        for (int x = -q; x < w + q; x++) {
            int top = y >= 0 && y < w && x >= 0 && x < w && (qr->data[y * w + x] & 1);
            int bot = y + 1 >= 0 && y + 1 < w && x >= 0 && x < w &&
                      (qr->data[(y + 1) * w + x] & 1);
            sb_puts(out, top ? (bot ? " " : "\xe2\x96\x84") : (bot ? "\xe2\x96\x80"
                                                                   : "\xe2\x96\x88"));
        }
        sb_putc(out, '\n');
    }
    QRcode_free(qr);
    return out->failed ? err_set(e, "out of memory") : 0;
}

/* The address other devices reach for host: host itself, or for a
 * wildcard (0.0.0.0, ::) this machine's first non-loopback IPv4 address. */
static void public_host(const char *host, char *out, size_t n)
{
    snprintf(out, n, "%s", host);
    if (strcmp(host, "0.0.0.0") != 0 && strcmp(host, "::") != 0)
        return;
    struct ifaddrs *ifs, *i;
    if (getifaddrs(&ifs))
        return;
    for (i = ifs; i; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET)
            continue;
        char buf[INET_ADDRSTRLEN];
        struct sockaddr_in *a = (struct sockaddr_in *)(void *)i->ifa_addr;
        if (inet_ntop(AF_INET, &a->sin_addr, buf, sizeof buf) && !web_host_is_loopback(buf)) {
            snprintf(out, n, "%s", buf);
            break;
        }
    }
    freeifaddrs(ifs);
}

int cli_serve(const CliOptions *o)
{
    WebConfig c;
    web_config_defaults(&c);
    if (o->host)
        c.host = o->host;
    if (o->have_port)
        c.port = o->port;
    c.data = o->data;
    if (o->scripts)
        c.scripts = o->scripts;
    if (o->max_games)
        c.max_games = o->max_games;
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    Error e;
    e.msg[0] = '\0';
    WebServer *s = web_start(&c, &e);
    if (!s) {
        fprintf(stderr, "chessvar serve: %s\n", e.msg);
        return CLI_EXIT_FAIL;
    }
    char host[256];
    public_host(c.host, host, sizeof host);
    StrBuf url = STRBUF_INIT;
    sb_printf(&url, strchr(host, ':') ? "http://[%s]:%d/" : "http://%s:%d/", host,
              web_port(s));
    printf("chessvar serve: %s\n", sb_str(&url));
    if (c.data)
        printf("games kept in %s (%d loaded)\n", c.data, web_game_count(s));
    if (!web_host_is_loopback(c.host)) {
        StrBuf qr = STRBUF_INIT;
        if (web_qr_text(sb_str(&url), &qr, &e) == 0)
            printf("%s", sb_str(&qr));
        sb_free(&qr);
        printf("anyone who can reach this address can create games and watch them; a "
               "seat's link is its key (docs/WEB.md)\n");
    }
    printf("Ctrl-C stops the server\n");
    fflush(stdout);
    int sig = 0;
    sigwait(&stop, &sig);
    web_stop(s);
    printf("chessvar serve: stopped (%s)\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    sb_free(&url);
    return CLI_EXIT_OK;
}
