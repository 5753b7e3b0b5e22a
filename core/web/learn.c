/*
 * learn.c -- lessons in the browser (issue 22 point 3): learn-* frames on
 * the WebSocket of `chessvar serve` (docs/WEB.md) play a lesson of
 * lessons/VARIANT.txt through core/cli/lesson.[ch], as `chessvar learn`
 * does: its goal, the board of the learner's seat with the step's target
 * squares marked, answers refused with the engine's reason and the rule's
 * explanation, hints, and the success text.
 *
 * Invariant: a connection holds at most one lesson (its file and its run),
 * used only by its own frames and freed when it leaves or starts another;
 * a board shows what its seat may know, and a lesson's boards are every
 * seat's only where the lesson says `views: both`, each labelled.
 */
#include <stdlib.h>
#include <string.h>

#include "../cli/lesson.h"
#include "../draw/draw.h"
#include "web_int.h"

struct WebLesson {
    LessonFile f;
    int n;          /* the lesson's index in f */
    LessonRun *run;
};

void web_learn_leave(WebConn *c)
{
    if (!c->lesson)
        return;
    lesson_run_free(c->lesson->run);
    lesson_file_free(&c->lesson->f);
    free(c->lesson);
    c->lesson = NULL;
}

static const char *str_of(const Json *j, const char *key)
{
    const Json *m = json_get(j, key);
    return m && m->type == JSON_STRING ? m->str : NULL;
}

int web_lesson_file(const char *name, LessonFile *f, Error *e)
{
    const VariantOps *v = name ? variant_find(name) : NULL;
    if (!v) {
        char q[48];
        return err_set(e, "give a variant as \"variant\" (unknown: '%s')",
                       str_clip(q, sizeof q, name ? name : "")), -1;
    }
    char dir[512], path[600];
    lessons_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/%s.txt", dir, v->name);
    if (lesson_file_read(path, f, e))
        return -1;
    if (f->variant != v) {
        lesson_file_free(f);
        return err_set(e, "the lessons of %s hold another variant", v->name), -1;
    }
    return 0;
}

static void put_rules(const Lesson *l, StrBuf *out)
{
    sb_puts(out, "[");
    for (int i = 0; i < l->nrules; i++) {
        sb_puts(out, i ? "," : "");
        sb_json_str(out, l->rule[i]);
    }
    sb_puts(out, "]");
}

/* {"type":"learn-list","variant":V}. */
static void on_list(WebConn *c, const Json *j)
{
    LessonFile f;
    Error e = {""};
    if (web_lesson_file(str_of(j, "variant"), &f, &e)) {
        StrBuf m = STRBUF_INIT;
        sb_printf(&m, "learn-list: %s", e.msg);
        web_conn_error(c, sb_str(&m));
        sb_free(&m);
        return;
    }
    StrBuf b = STRBUF_INIT;
    sb_puts(&b, "{\"type\":\"lessons\",\"variant\":");
    sb_json_str(&b, f.variant->name);
    sb_puts(&b, ",\"title\":");
    sb_json_str(&b, f.variant->title);
    sb_puts(&b, ",\"lessons\":[");
    for (int i = 0; i < f.n; i++) {
        sb_printf(&b, "%s{\"n\":%d,\"id\":", i ? "," : "", i + 1);
        sb_json_str(&b, f.v[i].id);
        sb_puts(&b, ",\"title\":");
        sb_json_str(&b, f.v[i].title);
        sb_puts(&b, ",\"teaches\":");
        put_rules(&f.v[i], &b);
        sb_puts(&b, "}");
    }
    sb_puts(&b, "]}");
    if (!b.failed)
        web_conn_send(c, b.s, b.len);
    else
        web_conn_error(c, "the server is out of memory");
    sb_free(&b);
    lesson_file_free(&f);
}

/* The board of seat as it sees it, the step's targets marked (on the
 * learner's), as {"seat":..,"label":..,"svg":..}. */
static void put_board(const Game *g, int seat, const LessonStep *st, int learner,
                      int labelled, StrBuf *out)
{
    View *v = malloc(sizeof *v);
    DrawOpts *o = malloc(sizeof *o);
    StrBuf svg = STRBUF_INIT, label = STRBUF_INIT;
    Error e = {""};
    const char *name = game_seat_name(g, seat);
    if (labelled)
        sb_printf(&label, "What %s sees%s", name, seat == learner ? " (you)" : "");
    else
        sb_printf(&label, "You play %s", name);
    if (v && o && !game_view(g, seat, v)) {
        draw_opts_for(g, v, o);
        o->standalone = 1;
        o->label = sb_str(&label);
        if (st && seat == learner && st->ntargets) {
            StrBuf m = STRBUF_INIT;
            for (int i = 0; i < st->ntargets; i++)
                sb_printf(&m, "%s%s", i ? "," : "", st->target[i]);
            if (draw_parse_marks(&v->geo, sb_str(&m), o, &e))
                o->nmarks = 0;
            sb_free(&m);
        }
        if (draw_svg(v, o, &svg, &e))
            sb_free(&svg);
    }
    sb_puts(out, "{\"seat\":");
    sb_json_str(out, name);
    sb_puts(out, ",\"label\":");
    sb_json_str(out, sb_str(&label));
    sb_puts(out, ",\"svg\":");
    sb_json_str(out, sb_str(&svg));
    sb_puts(out, "}");
    sb_free(&svg);
    sb_free(&label);
    free(v);
    free(o);
}

/* The lesson frame: result "start", "hint", "refused", "next" or "done",
 * with text what the lesson says. */
static void send_lesson(WebConn *c, const char *result, const char *text)
{
    WebLesson *w = c->lesson;
    const Lesson *l = lesson_of(w->run);
    const Game *g = lesson_game(w->run);
    int seat = lesson_seat(w->run);
    const LessonStep *st = lesson_step(w->run);
    StrBuf b = STRBUF_INIT;
    sb_puts(&b, "{\"type\":\"lesson\",\"variant\":");
    sb_json_str(&b, w->f.variant->name);
    sb_printf(&b, ",\"n\":%d,\"count\":%d,\"id\":", w->n + 1, w->f.n);
    sb_json_str(&b, l->id);
    sb_puts(&b, ",\"title\":");
    sb_json_str(&b, l->title);
    sb_puts(&b, ",\"goal\":");
    sb_json_str(&b, l->goal);
    sb_puts(&b, ",\"teaches\":");
    put_rules(l, &b);
    sb_puts(&b, ",\"seat\":");
    sb_json_str(&b, game_seat_name(g, seat));
    sb_printf(&b, ",\"done\":%s,\"result\":", lesson_done(w->run) ? "true" : "false");
    sb_json_str(&b, result);
    sb_puts(&b, ",\"text\":");
    sb_json_str(&b, text);
    sb_puts(&b, ",\"targets\":[");
    for (int i = 0; st && i < st->ntargets; i++) {
        sb_puts(&b, i ? "," : "");
        sb_json_str(&b, st->target[i]);
    }
    sb_printf(&b, "],\"both\":%s,\"boards\":[", l->both_views ? "true" : "false");
    if (l->both_views)
        for (int k = 0; k < game_nseats(g); k++) {
            sb_puts(&b, k ? "," : "");
            put_board(g, k, st, seat, 1, &b);
        }
    else
        put_board(g, seat, st, seat, 0, &b);
    sb_puts(&b, "]}");
    if (!b.failed)
        web_conn_send(c, b.s, b.len);
    else
        web_conn_error(c, "the server is out of memory");
    sb_free(&b);
}

/* {"type":"learn-start","variant":V,"lesson":ID or N}. */
static void on_start(WebConn *c, const Json *j)
{
    WebLesson *w = calloc(1, sizeof *w);
    Error e = {""};
    StrBuf m = STRBUF_INIT;
    const char *key = str_of(j, "lesson");
    if (!w) {
        web_conn_error(c, "the server is out of memory");
        return;
    }
    if (web_lesson_file(str_of(j, "variant"), &w->f, &e)) {
        free(w);
        sb_printf(&m, "learn-start: %s", e.msg);
        goto refuse;
    }
    const Lesson *l = lesson_find(&w->f, key ? key : "", &e);
    if (l)
        w->run = lesson_start(w->f.variant, l, &e);
    if (!l || !w->run) {
        if (l)
            lesson_where(&w->f, l, &e);
        lesson_file_free(&w->f);
        free(w);
        sb_printf(&m, "learn-start: %s", e.msg);
        goto refuse;
    }
    w->n = (int)(l - w->f.v);
    web_learn_leave(c);
    c->lesson = w;
    lesson_news(w->run, &m);
    send_lesson(c, "start", sb_str(&m));
    sb_free(&m);
    return;
refuse:
    web_conn_error(c, sb_str(&m));
    sb_free(&m);
}

void web_learn_frame(WebConn *c, const char *type, const Json *j)
{
    if (strcmp(type, "learn-list") == 0)
        return on_list(c, j);
    if (strcmp(type, "learn-start") == 0)
        return on_start(c, j);
    int answer = strcmp(type, "learn-answer") == 0, hint = strcmp(type, "learn-hint") == 0;
    if (!answer && !hint) {
        char q[48];
        StrBuf m = STRBUF_INIT;
        sb_printf(&m, "unknown frame type '%s' (learn-list, learn-start, learn-answer or "
                      "learn-hint)",
                  str_clip(q, sizeof q, type));
        web_conn_error(c, sb_str(&m));
        sb_free(&m);
        return;
    }
    if (!c->lesson)
        return web_conn_error(c, answer ? "learn-answer: start a lesson first (learn-start)"
                                        : "learn-hint: start a lesson first (learn-start)");
    if (lesson_done(c->lesson->run))
        return web_conn_error(c, "the lesson is done: start another (learn-start)");
    StrBuf out = STRBUF_INIT;
    if (hint) {
        lesson_hint(c->lesson->run, &out);
        send_lesson(c, "hint", sb_str(&out));
    } else {
        const char *text = str_of(j, "text");
        if (!text || !text[0] || strlen(text) > ACTION_TEXT_MAX) {
            sb_free(&out);
            return web_conn_error(c, "learn-answer: give your action as \"text\" (1 to 255 "
                                     "bytes)");
        }
        int r = lesson_answer(c->lesson->run, text, &out);
        send_lesson(c, r == LESSON_REFUSED ? "refused" : r == LESSON_DONE ? "done" : "next",
                    sb_str(&out));
    }
    sb_free(&out);
}
