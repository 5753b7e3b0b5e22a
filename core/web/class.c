/*
 * class.c -- the teacher's board (issue 22 point 5): a class over the
 * WebSocket of `chessvar serve` (frames in docs/WEB.md).  A teacher opens a
 * class on a position of a game whose seat token it holds; the class plays
 * on a copy of that game.  Students join with the class code and a name,
 * each sees the board of the seat to play as that seat sees it and
 * submits an action; the teacher sees the submissions grouped by the
 * engine's machine text (legal ones) or the text typed (refused ones, with
 * the engine's refusal), reveals an answer and moves on (the answer is
 * played on the class's game).
 *
 * Invariant: everything here is under the classes' lock (cl->mu); a
 * connection is in at most one class, as its teacher or one student, and
 * in no game; the teacher's token goes in frames to the class's teachers
 * only; a class with nobody connected is gone.  Bounded: CLASS_MAX
 * classes, CLASS_STUDENTS students, CLASS_TEACHERS teacher connections,
 * texts of at most ACTION_TEXT_MAX bytes, names of CLASS_NAME_MAX.
 */
#include <stdlib.h>
#include <string.h>

#include "../cli/lesson.h"
#include "../draw/draw.h"
#include "web_int.h"

#define CLASS_MAX 64
#define CLASS_STUDENTS 64
#define CLASS_TEACHERS 4
#define CLASS_NAME_MAX 32
#define CLASS_CODE 7 /* six letters and a NUL */
#define CLASS_KEY 400
#define CLASS_WHY 700

typedef struct Student {
    WebConn *c;
    char name[CLASS_NAME_MAX + 1];
    int has;                        /* a submission this round */
    char text[ACTION_TEXT_MAX + 1]; /* as typed */
    int legal;
    char key[CLASS_KEY];            /* machine text (legal) or the text typed */
    char why[CLASS_WHY];            /* why it is refused, naming the rule */
} Student;

struct WebClass {
    char code[CLASS_CODE];
    char token[WEB_TOKEN_HEX];
    Game *g;
    int round;
    int nteachers;
    WebConn *teacher[CLASS_TEACHERS];
    int nst;
    Student st[CLASS_STUDENTS];
    int revealed;
    char answer[ACTION_TEXT_MAX + 1];
    char answer_key[CLASS_KEY];
    LessonFile *lf;          /* a class on lessons: their file, */
    int ln;                  /* the lesson shown (its index) */
};

struct WebClasses {
    pthread_mutex_t mu;
    int n;
    WebClass *v[CLASS_MAX];
};

WebClasses *web_classes_new(void)
{
    WebClasses *cl = calloc(1, sizeof *cl);
    if (cl)
        pthread_mutex_init(&cl->mu, NULL);
    return cl;
}

static void class_free(WebClass *k)
{
    if (k->lf) {
        lesson_file_free(k->lf);
        free(k->lf);
    }
    game_free(k->g);
    free(k);
}

void web_classes_free(WebClasses *cl)
{
    if (!cl)
        return;
    for (int i = 0; i < cl->n; i++)
        class_free(cl->v[i]);
    pthread_mutex_destroy(&cl->mu);
    free(cl);
}

/* ---- Checking a submission ---------------------------------------------- */

/* text tried by the seat to act on a copy of g: 1 with the machine texts
 * of the actions it stands for in key, 0 with why it is refused in why
 * (game_why's answer, naming the rule, else the engine's refusal) and the
 * text in key, -1 when memory ran out. */
static int try_text(const Game *g, const char *text, char *key, char *why)
{
    Game *t = game_clone(g);
    if (!t)
        return -1;
    Error e;
    e.msg[0] = '\0';
    int n0 = game_history_len(t), seat = game_to_act(t), ok = 0;
    if (seat < 0)
        err_set(&e, "the game is over");
    else if (game_play(t, seat, text, &e) == 0) {
        StrBuf b = STRBUF_INIT;
        for (int i = n0; i < game_history_len(t); i++)
            sb_printf(&b, "%s%s", i > n0 ? " " : "", game_history(t, i)->machine);
        str_copy(key, CLASS_KEY, sb_str(&b));
        ok = !b.failed;
        sb_free(&b);
        if (!ok) {
            game_free(t);
            return -1;
        }
    }
    game_free(t);
    if (!ok) {
        /* the engine's why (issue 22 point 2) names the rule; its refusal
         * stands where why judges no action (a garbled text) */
        WhyAnswer w;
        Error we = {""};
        str_copy(key, CLASS_KEY, text);
        if (seat >= 0 && game_why(g, seat, text, &w, &we) == 0 && !w.legal)
            str_copy(why, CLASS_WHY, w.text);
        else
            str_copy(why, CLASS_WHY, e.msg);
    } else
        why[0] = '\0';
    return ok;
}

/* ---- Frames to the class ------------------------------------------------ */

/* The board of the seat to act as it sees it (a spectator's once over). */
static void put_board(WebClass *k, StrBuf *out)
{
    View *v = malloc(sizeof *v);
    DrawOpts *o = malloc(sizeof *o);
    int seat = game_to_act(k->g);
    Error e;
    e.msg[0] = '\0';
    sb_puts(out, ",\"seat\":");
    if (seat >= 0)
        sb_json_str(out, game_seat_name(k->g, seat));
    else
        sb_puts(out, "null");
    sb_puts(out, ",\"variant\":");
    sb_json_str(out, game_variant(k->g)->name);
    StrBuf svg = STRBUF_INIT;
    if (v && o && !game_view(k->g, seat, v)) {
        draw_opts_for(k->g, v, o);
        o->standalone = 1;
        if (draw_svg(v, o, &svg, &e))
            sb_free(&svg);
    }
    sb_puts(out, ",\"lesson\":");
    if (k->lf) {
        const Lesson *l = &k->lf->v[k->ln];
        sb_printf(out, "{\"n\":%d,\"count\":%d,\"id\":", k->ln + 1, k->lf->n);
        sb_json_str(out, l->id);
        sb_puts(out, ",\"title\":");
        sb_json_str(out, l->title);
        sb_puts(out, ",\"goal\":");
        sb_json_str(out, l->goal);
        sb_putc(out, '}');
    } else
        sb_puts(out, "null");
    sb_puts(out, ",\"svg\":");
    sb_json_str(out, sb_str(&svg));
    sb_free(&svg);
    free(v);
    free(o);
}

static void put_answer(WebClass *k, StrBuf *out)
{
    sb_puts(out, ",\"answer\":");
    if (!k->revealed) {
        sb_puts(out, "null");
        return;
    }
    sb_puts(out, "{\"text\":");
    sb_json_str(out, k->answer);
    sb_puts(out, ",\"move\":");
    sb_json_str(out, k->answer_key);
    sb_putc(out, '}');
}

/* The groups of the submissions: the same key and legality, the biggest
 * first, ties in the order first submitted. */
static void put_groups(WebClass *k, StrBuf *out)
{
    int done[CLASS_STUDENTS] = {0};
    int order[CLASS_STUDENTS], count[CLASS_STUDENTS], ng = 0;
    for (int i = 0; i < k->nst; i++) {
        if (!k->st[i].has || done[i])
            continue;
        order[ng] = i;
        count[ng] = 0;
        for (int j = i; j < k->nst; j++)
            if (k->st[j].has && !done[j] && k->st[j].legal == k->st[i].legal &&
                strcmp(k->st[j].key, k->st[i].key) == 0) {
                done[j] = 1;
                count[ng]++;
            }
        ng++;
    }
    for (int a = 1; a < ng; a++) /* stable: insertion */
        for (int b = a; b > 0 && count[b] > count[b - 1]; b--) {
            int t = count[b]; count[b] = count[b - 1]; count[b - 1] = t;
            t = order[b]; order[b] = order[b - 1]; order[b - 1] = t;
        }
    sb_puts(out, ",\"groups\":[");
    for (int g = 0; g < ng; g++) {
        const Student *f = &k->st[order[g]];
        sb_printf(out, "%s{\"move\":", g ? "," : "");
        sb_json_str(out, f->key);
        sb_printf(out, ",\"legal\":%s,\"why\":", f->legal ? "true" : "false");
        sb_json_str(out, f->why);
        sb_printf(out, ",\"count\":%d,\"names\":[", count[g]);
        int first = 1;
        for (int j = 0; j < k->nst; j++)
            if (k->st[j].has && k->st[j].legal == f->legal && strcmp(k->st[j].key, f->key) == 0) {
                sb_puts(out, first ? "" : ",");
                sb_json_str(out, k->st[j].name);
                first = 0;
            }
        sb_puts(out, "],\"texts\":[");
        first = 1;
        for (int j = 0; j < k->nst; j++)
            if (k->st[j].has && k->st[j].legal == f->legal && strcmp(k->st[j].key, f->key) == 0) {
                sb_puts(out, first ? "" : ",");
                sb_json_str(out, k->st[j].text);
                first = 0;
            }
        sb_puts(out, "]}");
    }
    sb_putc(out, ']');
}

/* The class's frame to one of its connections: st the student, or NULL
 * for a teacher. */
static void send_class(WebClass *k, WebConn *c, const Student *st, const StrBuf *board)
{
    StrBuf b = STRBUF_INIT;
    sb_puts(&b, "{\"type\":\"class\",\"code\":");
    sb_json_str(&b, k->code);
    sb_printf(&b, ",\"role\":\"%s\",\"round\":%d,\"over\":%s", st ? "student" : "teacher",
              k->round, game_to_act(k->g) < 0 ? "true" : "false");
    sb_puts(&b, board->s ? board->s : "");
    put_answer(k, &b);
    if (st) {
        sb_puts(&b, ",\"name\":");
        sb_json_str(&b, st->name);
        sb_puts(&b, ",\"mine\":");
        if (st->has)
            sb_json_str(&b, st->text);
        else
            sb_puts(&b, "null");
    } else {
        sb_puts(&b, ",\"teacher\":");
        sb_json_str(&b, k->token);
        sb_puts(&b, ",\"students\":[");
        for (int i = 0; i < k->nst; i++) {
            sb_puts(&b, i ? "," : "");
            sb_json_str(&b, k->st[i].name);
        }
        sb_puts(&b, "]");
        put_groups(k, &b);
        /* the lesson's answer: the first text of its learner's step */
        sb_puts(&b, ",\"solution\":");
        const Lesson *l = k->lf ? &k->lf->v[k->ln] : NULL;
        int step = 0;
        while (l && step < l->nsteps && l->step[step].reply)
            step++;
        if (l && step < l->nsteps)
            sb_json_str(&b, l->step[step].alt[0]);
        else
            sb_puts(&b, "null");
    }
    sb_putc(&b, '}');
    if (!b.failed)
        web_conn_send(c, b.s, b.len);
    else
        web_conn_error(c, "the server is out of memory");
    sb_free(&b);
}

/* Every connection of the class gets its frame (the board drawn once). */
static void class_broadcast(WebClass *k)
{
    StrBuf board = STRBUF_INIT;
    put_board(k, &board);
    for (int i = 0; i < k->nteachers; i++)
        send_class(k, k->teacher[i], NULL, &board);
    for (int i = 0; i < k->nst; i++)
        send_class(k, k->st[i].c, &k->st[i], &board);
    sb_free(&board);
}

/* Teachers only (a submission changed nothing a student sees but its
 * own), and the student st. */
static void class_tell_teachers(WebClass *k, const Student *st)
{
    StrBuf board = STRBUF_INIT;
    put_board(k, &board);
    for (int i = 0; i < k->nteachers; i++)
        send_class(k, k->teacher[i], NULL, &board);
    if (st)
        send_class(k, st->c, st, &board);
    sb_free(&board);
}

/* ---- Frames from a connection ------------------------------------------- */

static const char *str_of(const Json *j, const char *key)
{
    const Json *m = json_get(j, key);
    return m && m->type == JSON_STRING ? m->str : NULL;
}

static WebClass *find_code(WebClasses *cl, const char *code)
{
    char up[CLASS_CODE];
    size_t n = strlen(code);
    if (n != CLASS_CODE - 1)
        return NULL;
    for (size_t i = 0; i < n; i++)
        up[i] = (char)(code[i] >= 'a' && code[i] <= 'z' ? code[i] - 32 : code[i]);
    up[n] = '\0';
    for (int i = 0; i < cl->n; i++)
        if (strcmp(cl->v[i]->code, up) == 0)
            return cl->v[i];
    return NULL;
}

/* Six letters (no I or O) from the random source: 0, or -1. */
static int new_code(WebClasses *cl, char *code)
{
    static const char L[] = "ABCDEFGHJKLMNPQRSTUVWXYZ";
    for (int tries = 0; tries < 8; tries++) {
        char hex[2 * (CLASS_CODE - 1) + 1];
        if (web_random_hex(hex, CLASS_CODE - 1))
            return -1;
        for (int i = 0; i < CLASS_CODE - 1; i++) {
            unsigned v = (unsigned)strtoul((char[]){hex[2 * i], hex[2 * i + 1], 0}, NULL, 16);
            code[i] = L[v % (sizeof L - 1)];
        }
        code[CLASS_CODE - 1] = '\0';
        if (!find_code(cl, code))
            return 0;
    }
    return -1;
}

/* The position of lesson n of f (after its opening replies) into *g:
 * 0, or -1 with e. */
static int lesson_position(LessonFile *f, int n, Game **g, Error *e)
{
    LessonRun *r = lesson_start(f->variant, &f->v[n], e);
    if (!r) {
        lesson_where(f, &f->v[n], e);
        return -1;
    }
    *g = game_clone(lesson_game(r));
    lesson_run_free(r);
    if (!*g)
        return err_set(e, "the server is out of memory"), -1;
    return 0;
}

/* {"type":"class-open","variant":V,"lesson":ID}: a class on a lesson's
 * position, then the next lessons'. */
static int open_lesson(const Json *j, LessonFile **lf, int *ln, Game **g, Error *e)
{
    *lf = calloc(1, sizeof **lf);
    if (!*lf)
        return err_set(e, "the server is out of memory"), -1;
    if (web_lesson_file(str_of(j, "variant"), *lf, e)) {
        free(*lf);
        *lf = NULL;
        return -1;
    }
    const Lesson *l = lesson_find(*lf, str_of(j, "lesson"), e);
    if (l && lesson_position(*lf, *ln = (int)(l - (*lf)->v), g, e) == 0)
        return 0;
    lesson_file_free(*lf);
    free(*lf);
    *lf = NULL;
    return -1;
}

/* {"type":"class-open","game":ID,"token":TOKEN}: a copy of the game,
 * whose seat token the teacher gives, into *g: 0, or -1 with e. */
static int open_game(WebServer *s, const Json *j, Game **g, Error *e)
{
    const char *id = str_of(j, "game"), *token = str_of(j, "token");
    if (!id || !token)
        return err_set(e, "give the game's id as \"game\" and one of its seat tokens as "
                          "\"token\" (or \"variant\" and \"lesson\")"), -1;
    WebGame *w = web_find_game(s, id);
    if (!w)
        return err_set(e, "no such game on this server"), -1;
    int ok = 0;
    for (int k = 0; k < w->nseats; k++)
        if (web_token_eq(token, w->token[k]))
            ok = 1;
    if (ok) {
        pthread_mutex_lock(&w->mu);
        *g = game_clone(batch_game(w->b));
        pthread_mutex_unlock(&w->mu);
    }
    web_game_put(s, w);
    if (!ok)
        return err_set(e, "this token is no seat's of this game"), -1;
    if (!*g)
        return err_set(e, "the server is out of memory"), -1;
    return 0;
}

static void on_open(WebServer *s, WebClasses *cl, WebConn *c, const Json *j)
{
    LessonFile *lf = NULL;
    int ln = 0;
    Game *copy = NULL;
    Error e = {""};
    if (str_of(j, "lesson") ? open_lesson(j, &lf, &ln, &copy, &e) : open_game(s, j, &copy, &e)) {
        StrBuf m = STRBUF_INIT;
        sb_printf(&m, "class-open: %s", e.msg);
        web_conn_error(c, sb_str(&m));
        sb_free(&m);
        return;
    }
    WebClass *k = calloc(1, sizeof *k);
    pthread_mutex_lock(&cl->mu);
    const char *why = NULL;
    if (!k)
        why = "class-open: the server is out of memory";
    else if (cl->n >= CLASS_MAX)
        why = "class-open: the server holds as many classes as it may (64): try later";
    else if (new_code(cl, k->code) || web_random_hex(k->token, 16))
        why = "class-open: no random numbers for the class code";
    if (why) {
        pthread_mutex_unlock(&cl->mu);
        game_free(copy);
        if (lf) {
            lesson_file_free(lf);
            free(lf);
        }
        free(k);
        return web_conn_error(c, why);
    }
    k->g = copy;
    k->lf = lf;
    k->ln = ln;
    k->teacher[k->nteachers++] = c;
    cl->v[cl->n++] = k;
    c->cls = k;
    c->cls_teacher = 1;
    class_broadcast(k);
    pthread_mutex_unlock(&cl->mu);
}

/* {"type":"class-teach","code":CODE,"teacher":TOKEN}: another connection
 * of the teacher (a page reloaded, a second screen). */
static void on_teach(WebClasses *cl, WebConn *c, const Json *j)
{
    const char *code = str_of(j, "code"), *token = str_of(j, "teacher");
    if (!code || !token)
        return web_conn_error(c, "class-teach: give \"code\" and the class's \"teacher\" token");
    pthread_mutex_lock(&cl->mu);
    WebClass *k = find_code(cl, code);
    const char *why = NULL;
    if (!k || !web_token_eq(token, k->token))
        why = "class-teach: no class with this code and teacher token";
    else if (k->nteachers >= CLASS_TEACHERS)
        why = "class-teach: the class has as many teacher screens as it may (4)";
    if (why) {
        pthread_mutex_unlock(&cl->mu);
        return web_conn_error(c, why);
    }
    k->teacher[k->nteachers++] = c;
    c->cls = k;
    c->cls_teacher = 1;
    class_tell_teachers(k, NULL);
    pthread_mutex_unlock(&cl->mu);
}

/* {"type":"class-join","code":CODE,"name":NAME}. */
static void on_join(WebClasses *cl, WebConn *c, const Json *j)
{
    const char *code = str_of(j, "code"), *name = str_of(j, "name");
    if (!code)
        return web_conn_error(c, "class-join: give the class code as \"code\"");
    if (!name || !name[0] || strlen(name) > CLASS_NAME_MAX)
        return web_conn_error(c, "class-join: give your name as \"name\" (1 to 32 bytes)");
    for (const char *p = name; *p; p++)
        if ((unsigned char)*p < 32)
            return web_conn_error(c, "class-join: the name may not hold control characters");
    pthread_mutex_lock(&cl->mu);
    WebClass *k = find_code(cl, code);
    const char *why = NULL;
    if (!k)
        why = "class-join: no class with this code (ask your teacher for it again)";
    else if (k->nst >= CLASS_STUDENTS)
        why = "class-join: the class is full (64 students)";
    else
        for (int i = 0; i < k->nst; i++)
            if (strcmp(k->st[i].name, name) == 0)
                why = "class-join: a student of this name is in the class: choose another";
    if (why) {
        pthread_mutex_unlock(&cl->mu);
        return web_conn_error(c, why);
    }
    Student *st = &k->st[k->nst++];
    memset(st, 0, sizeof *st);
    st->c = c;
    str_copy(st->name, sizeof st->name, name);
    c->cls = k;
    c->cls_teacher = 0;
    class_tell_teachers(k, st);
    pthread_mutex_unlock(&cl->mu);
}

static Student *student_of(WebClass *k, WebConn *c)
{
    for (int i = 0; i < k->nst; i++)
        if (k->st[i].c == c)
            return &k->st[i];
    return NULL;
}

/* {"type":"class-submit","text":TEXT}: a student's action (again: it
 * replaces the one before). */
static void on_submit(WebClasses *cl, WebConn *c, const Json *j)
{
    const char *text = str_of(j, "text");
    if (!text || !text[0])
        return web_conn_error(c, "class-submit: give your action as \"text\"");
    if (strlen(text) > ACTION_TEXT_MAX)
        return web_conn_error(c, "class-submit: the text is longer than 255 bytes");
    pthread_mutex_lock(&cl->mu);
    WebClass *k = c->cls;
    Student *st = k && !c->cls_teacher ? student_of(k, c) : NULL;
    const char *why = NULL;
    if (!st)
        why = "class-submit: join a class first (class-join)";
    else if (k->revealed)
        why = "class-submit: the answer is revealed; wait for the next position";
    else if (game_to_act(k->g) < 0)
        why = "class-submit: the game is over";
    if (why) {
        pthread_mutex_unlock(&cl->mu);
        return web_conn_error(c, why);
    }
    int r = try_text(k->g, text, st->key, st->why);
    if (r < 0) {
        pthread_mutex_unlock(&cl->mu);
        return web_conn_error(c, "class-submit: the server is out of memory");
    }
    st->legal = r;
    st->has = 1;
    str_copy(st->text, sizeof st->text, text);
    class_tell_teachers(k, st);
    pthread_mutex_unlock(&cl->mu);
}

/* {"type":"class-reveal","text":TEXT}: the teacher's answer, which must be
 * legal; every student sees it. */
static void on_reveal(WebClasses *cl, WebConn *c, const Json *j)
{
    const char *text = str_of(j, "text");
    if (!text || !text[0] || strlen(text) > ACTION_TEXT_MAX)
        return web_conn_error(c, "class-reveal: give the answer as \"text\" (1 to 255 bytes)");
    pthread_mutex_lock(&cl->mu);
    WebClass *k = c->cls;
    if (!k || !c->cls_teacher) {
        pthread_mutex_unlock(&cl->mu);
        return web_conn_error(c, "class-reveal: only the class's teacher reveals the answer");
    }
    char key[CLASS_KEY], why[CLASS_WHY];
    int r = try_text(k->g, text, key, why);
    if (r <= 0) {
        StrBuf m = STRBUF_INIT;
        sb_printf(&m, "class-reveal: %s", r < 0 ? "the server is out of memory" : why);
        pthread_mutex_unlock(&cl->mu);
        web_conn_error(c, sb_str(&m));
        sb_free(&m);
        return;
    }
    k->revealed = 1;
    str_copy(k->answer, sizeof k->answer, text);
    str_copy(k->answer_key, sizeof k->answer_key, key);
    class_broadcast(k);
    pthread_mutex_unlock(&cl->mu);
}

/* {"type":"class-next"}: the answer revealed is played on the class's
 * game; the next round begins with no submissions. */
static void on_next(WebClasses *cl, WebConn *c)
{
    pthread_mutex_lock(&cl->mu);
    WebClass *k = c->cls;
    const char *why = NULL;
    Error e;
    e.msg[0] = '\0';
    if (!k || !c->cls_teacher)
        why = "class-next: only the class's teacher moves on";
    else if (!k->revealed)
        why = "class-next: reveal an answer first (class-reveal)";
    else if (k->lf) { /* the next lesson's position */
        Game *t = NULL;
        if (k->ln + 1 >= k->lf->n)
            why = "class-next: that was the last lesson of the file";
        else if (lesson_position(k->lf, k->ln + 1, &t, &e))
            why = e.msg;
        else {
            game_free(k->g);
            k->g = t;
            k->ln++;
        }
    } else {
        Game *t = game_clone(k->g);
        if (!t)
            why = "class-next: the server is out of memory";
        else if (game_play(t, game_to_act(t), k->answer, &e)) {
            game_free(t);
            why = e.msg;
        } else {
            game_free(k->g);
            k->g = t;
        }
    }
    if (why) {
        StrBuf m = STRBUF_INIT;
        sb_printf(&m, "%s", why);
        pthread_mutex_unlock(&cl->mu);
        web_conn_error(c, sb_str(&m));
        sb_free(&m);
        return;
    }
    k->round++;
    k->revealed = 0;
    k->answer[0] = k->answer_key[0] = '\0';
    for (int i = 0; i < k->nst; i++)
        k->st[i].has = 0;
    class_broadcast(k);
    pthread_mutex_unlock(&cl->mu);
}

void web_class_frame(WebServer *s, WebConn *c, const char *type, const Json *j)
{
    WebClasses *cl = s->classes;
    if (c->game)
        return web_conn_error(c, "class frames are for a connection that is in no game: open "
                                 "another connection");
    if (strcmp(type, "class-open") == 0 || strcmp(type, "class-teach") == 0 ||
        strcmp(type, "class-join") == 0) {
        if (c->cls)
            return web_conn_error(c, "this connection is in a class already: open another");
        if (type[6] == 'o')
            on_open(s, cl, c, j);
        else if (type[6] == 't')
            on_teach(cl, c, j);
        else
            on_join(cl, c, j);
    } else if (strcmp(type, "class-submit") == 0)
        on_submit(cl, c, j);
    else if (strcmp(type, "class-reveal") == 0)
        on_reveal(cl, c, j);
    else if (strcmp(type, "class-next") == 0)
        on_next(cl, c);
    else {
        char q[48];
        StrBuf m = STRBUF_INIT;
        sb_printf(&m, "unknown frame type '%s' (class-open, class-teach, class-join, "
                      "class-submit, class-reveal or class-next)",
                  str_clip(q, sizeof q, type));
        web_conn_error(c, sb_str(&m));
        sb_free(&m);
    }
}

void web_class_leave(WebServer *s, WebConn *c)
{
    WebClasses *cl = s->classes;
    if (!cl || !c->cls)
        return;
    pthread_mutex_lock(&cl->mu);
    WebClass *k = c->cls;
    for (int i = 0; i < k->nteachers; i++)
        if (k->teacher[i] == c)
            k->teacher[i] = k->teacher[--k->nteachers];
    for (int i = 0; i < k->nst; i++)
        if (k->st[i].c == c) {
            memmove(&k->st[i], &k->st[i + 1], (size_t)(k->nst - i - 1) * sizeof k->st[0]);
            k->nst--;
            break;
        }
    c->cls = NULL;
    if (!k->nteachers && !k->nst) {
        for (int i = 0; i < cl->n; i++)
            if (cl->v[i] == k)
                cl->v[i] = cl->v[--cl->n];
        class_free(k);
    } else
        class_tell_teachers(k, NULL);
    pthread_mutex_unlock(&cl->mu);
}
