/*
 * cli_learn.c -- `chessvar learn`: the lessons of a variant in the
 * terminal (issue 22 point 3; the lessons and their format: lesson.h,
 * docs/LESSONS.md).
 *
 *   chessvar learn                     the variants and their lessons
 *   chessvar learn VARIANT             the variant's lessons, numbered
 *   chessvar learn VARIANT LESSON      play one: goal, board, answers
 *   chessvar learn [VARIANT] --check   play every lesson's solution and
 *                                      wrong answers; say which rules
 *                                      have no lesson
 *   --lessons FILE                     a teacher's own lesson file
 *
 * Invariant: the board shown is the learner's seat's View, except in a
 * lesson that asks for `views: both`, where every seat's View is drawn
 * side by side under its seat's name (a lesson is the one place that
 * shows what each seat knows; a game never does).  Input is read as in
 * `chessvar play`: libedit on a terminal, plain lines echoed otherwise.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <editline/readline.h>

#include "cli.h"
#include "lesson.h"

/* lesson.h */
void lessons_dir(char *buf, size_t n)
{
    const char *env = getenv("CHESSVAR_LESSONS");
    struct stat st;
    if (env && env[0]) {
        snprintf(buf, n, "%s", env);
        return;
    }
    snprintf(buf, n, "lessons");
    if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
        return;
    char exe[400];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = k > 0 ? (exe[k] = '\0', strrchr(exe, '/')) : NULL;
    if (slash) {
        *slash = '\0';
        int w = snprintf(buf, n, "%s/lessons", exe);
        if (w > 0 && (size_t)w < n && stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
            return;
    }
    snprintf(buf, n, "lessons");
}

/* The lesson file of v (or --lessons): 0, or -1 after a message. */
static int open_lessons(const CliOptions *o, const VariantOps *v, LessonFile *f)
{
    char dir[512], path[600];
    Error e = {""};
    if (o->lessons) {
        snprintf(path, sizeof path, "%s", o->lessons);
    } else {
        lessons_dir(dir, sizeof dir);
        snprintf(path, sizeof path, "%s/%s.txt", dir, v->name);
    }
    if (lesson_file_read(path, f, &e)) {
        fprintf(stderr, "chessvar learn: %s\n", e.msg);
        return -1;
    }
    if (v && f->variant != v) {
        fprintf(stderr, "chessvar learn: %s holds lessons of %s, not %s\n", path,
                f->variant->name, v->name);
        lesson_file_free(f);
        return -1;
    }
    return 0;
}

/* Text wrapped at 78 columns, line by line (a line's own breaks kept). */
static void put_text(const char *text)
{
    while (*text) {
        size_t n = strcspn(text, "\n");
        const char *end = text + n;
        int col = 0;
        for (const char *w = text; w < end;) {
            size_t k = strcspn(w, " \n");
            if (w + k > end)
                k = (size_t)(end - w);
            char word[600];
            snprintf(word, sizeof word, "%.*s", (int)k, w);
            int width = str_width(word);
            if (col && col + 1 + width > 78) {
                fputs("\n    ", stdout);
                col = 4;
            } else if (col) {
                fputc(' ', stdout);
                col++;
            }
            fwrite(w, 1, k, stdout);
            col += width;
            w += k;
            while (w < end && *w == ' ')
                w++;
        }
        fputc('\n', stdout);
        text = *end ? end + 1 : end;
    }
}

static void rule_list(const Lesson *l, StrBuf *out)
{
    for (int i = 0; i < l->nrules; i++)
        sb_printf(out, "%s%s", i ? ", " : "", l->rule[i]);
}

/* ---- Lists ----------------------------------------------------------------- */

static int list_variants(void)
{
    puts("Lessons (chessvar learn VARIANT lists a variant's, chessvar learn VARIANT N "
         "plays one):");
    for (int i = 0; variant_registry[i]; i++) {
        const VariantOps *v = variant_registry[i];
        char dir[512], path[600];
        LessonFile f;
        Error e;
        lessons_dir(dir, sizeof dir);
        snprintf(path, sizeof path, "%s/%s.txt", dir, v->name);
        if (lesson_file_read(path, &f, &e)) {
            printf("  %-10s no lessons\n", v->name);
            continue;
        }
        printf("  %-10s %2d lesson%s  %s\n", v->name, f.n, f.n == 1 ? " " : "s", v->title);
        lesson_file_free(&f);
    }
    return CLI_EXIT_OK;
}

static void list_lessons(const LessonFile *f)
{
    const VariantOps *v = f->variant;
    printf("Lessons of %s (%s): chessvar learn %s N plays lesson N\n", v->title, f->path,
           v->name);
    for (int i = 0; i < f->n; i++) {
        StrBuf ids = STRBUF_INIT;
        rule_list(&f->v[i], &ids);
        int pad = 36 - str_width(f->v[i].title);
        printf("%3d  %-20s %s%*s %s\n", i + 1, f->v[i].id, f->v[i].title, pad > 1 ? pad : 1,
               "", sb_str(&ids));
        sb_free(&ids);
    }
}

/* ---- Checking ---------------------------------------------------------------- */

/* Every lesson of f played; the rules of f's variant no lesson teaches
 * are named.  Number of lessons that failed. */
static int check_file(const LessonFile *f)
{
    int bad = 0;
    for (int i = 0; i < f->n; i++) {
        Error e = {""};
        if (lesson_verify(f, &f->v[i], &e)) {
            printf("%s\n", e.msg);
            bad++;
        }
    }
    char ids[64][LESSON_ID_MAX + 1];
    int nids = lesson_rule_ids(f->variant, ids, 64);
    StrBuf missing = STRBUF_INIT;
    for (int k = 0; k < nids; k++) {
        int taught = 0;
        for (int i = 0; i < f->n && !taught; i++)
            for (int j = 0; j < f->v[i].nrules; j++)
                taught |= strcmp(f->v[i].rule[j], ids[k]) == 0;
        if (!taught)
            sb_printf(&missing, "%s%s", missing.len ? ", " : "", ids[k]);
    }
    printf("%s: %d lesson%s, %s; %s\n", f->path, f->n, f->n == 1 ? "" : "s",
           bad ? "some failed" : "every solution plays and every wrong answer is refused",
           missing.len ? "no lesson yet for " : "every rule has a lesson");
    if (missing.len)
        printf("  %s\n", sb_str(&missing));
    sb_free(&missing);
    return bad;
}

static int check_lessons(const CliOptions *o)
{
    int bad = 0;
    for (int i = 0; variant_registry[i]; i++) {
        const VariantOps *v = o->lessons ? o->variant : variant_registry[i];
        if (!o->lessons && o->variant && v != o->variant)
            continue;
        LessonFile f;
        if (open_lessons(o, v, &f)) {
            bad++;
        } else {
            bad += check_file(&f);
            lesson_file_free(&f);
        }
        if (o->lessons)
            break; /* the one file */
    }
    return bad ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

/* ---- Playing one lesson ------------------------------------------------------ */

typedef struct Learn {
    const CliOptions *o;
    int tty_in, edit;
} Learn;

static char *read_answer(const Learn *L, const char *prompt)
{
    char *line = NULL;
    size_t len;
    if (L->edit) {
        fflush(stdout);
        line = readline(prompt);
        if (line && line[0])
            add_history(line);
        len = line ? strlen(line) : 0;
    } else {
        size_t cap = 0;
        fputs(prompt, stdout);
        fflush(stdout);
        ssize_t n = getline(&line, &cap, stdin);
        if (n < 0) {
            free(line);
            fputc('\n', stdout);
            return NULL;
        }
        len = (size_t)n;
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (!L->tty_in)
            printf("%s\n", utf8_valid(line, len) ? line : "(a line that is not UTF-8 text)");
    }
    if (!line)
        return NULL;
    if (strlen(line) != len || !utf8_valid(line, len) || len > ACTION_TEXT_MAX) {
        puts("error: that line is not an action (a NUL byte, not UTF-8, or too long)");
        line[0] = '\0';
    }
    str_trim(line);
    return line;
}

/* The lines of text, split (no newlines kept). */
static int split_lines(char *text, char **lines, int max)
{
    int n = 0;
    for (char *s = text; *s && n < max;) {
        lines[n++] = s;
        char *nl = strchr(s, '\n');
        if (!nl)
            break;
        *nl = '\0';
        s = nl + 1;
    }
    return n;
}

/* Every seat's board side by side, each under its name: what each one
 * knows (a lesson only). */
static void draw_both(const Learn *L, const Game *g)
{
    int n = game_nseats(g);
    if (n > 3)
        n = 3;
    StrBuf text[3];
    char *lines[3][128];
    int nl[3], width[3];
    RenderOpts ro;
    memset(&ro, 0, sizeof ro);
    ro.ascii = L->o->ascii;
    ro.bottom = 1; /* every board the same way up: the first side below */
    for (int s = 0; s < n; s++) {
        View *v = malloc(sizeof *v);
        sb_init(&text[s]);
        if (v && game_view(g, s, v) == 0) {
            sb_printf(&text[s], "What %s knows:\n", game_seat_name(g, s));
            render_board(v, &ro, &text[s]);
            /* the pieces off the board as this seat knows them: the line
             * the full view ends with */
            StrBuf full = STRBUF_INIT;
            RenderNames names;
            cli_names(g, &names);
            render_view_text(v, &names, &ro, &full);
            const char *cap = strstr(sb_str(&full), "\ncaptured:");
            if (cap)
                sb_puts(&text[s], cap + 1);
            sb_free(&full);
        }
        free(v);
        nl[s] = split_lines(text[s].s ? text[s].s : (char *)"", lines[s], 128);
        width[s] = 0;
        for (int i = 0; i < nl[s]; i++)
            if (str_width(lines[s][i]) > width[s])
                width[s] = str_width(lines[s][i]);
    }
    int rows = 0;
    for (int s = 0; s < n; s++)
        rows = nl[s] > rows ? nl[s] : rows;
    for (int i = 0; i < rows; i++) {
        StrBuf row = STRBUF_INIT;
        for (int s = 0; s < n; s++) {
            const char *t = i < nl[s] ? lines[s][i] : "";
            sb_puts(&row, t);
            if (s + 1 < n)
                sb_printf(&row, "%*s", width[s] - str_width(t) + 4, "");
        }
        while (row.len && row.s[row.len - 1] == ' ')
            row.s[--row.len] = '\0';
        printf("%s\n", sb_str(&row));
        sb_free(&row);
    }
    for (int s = 0; s < n; s++)
        sb_free(&text[s]);
    puts("(a lesson shows every seat's board; in a game each seat sees only its own)");
}

static void draw(const Learn *L, const LessonRun *r)
{
    const Game *g = lesson_game(r);
    fputc('\n', stdout);
    if (lesson_of(r)->both_views)
        draw_both(L, g);
    View *v = malloc(sizeof *v);
    if (!v || game_view(g, lesson_seat(r), v)) {
        free(v);
        return;
    }
    RenderNames n;
    cli_names(g, &n);
    RenderOpts ro;
    memset(&ro, 0, sizeof ro);
    ro.ascii = L->o->ascii;
    ro.color = cli_use_color();
    StrBuf out = STRBUF_INIT;
    if (lesson_of(r)->both_views) { /* the boards are drawn: the texts */
        StrBuf st = STRBUF_INIT;
        render_status_line(v, &n, &st);
        sb_printf(&out, "%s\n", sb_str(&st));
        if (v->question[0] && strncmp(v->question, sb_str(&st), strlen(v->question)) != 0)
            sb_printf(&out, "question: %s\n", v->question);
        for (const char *line = v->info; *line;) { /* not the status line again */
            size_t k = strcspn(line, "\n");
            if (k != st.len || strncmp(line, sb_str(&st), k) != 0)
                sb_printf(&out, "%.*s\n", (int)k, line);
            line += k + (line[k] == '\n');
        }
        sb_free(&st);
    } else {
        render_view_text(v, &n, &ro, &out);
    }
    const LessonStep *st = lesson_step(r); /* lichess's target squares */
    if (st && st->ntargets) {
        sb_puts(&out, "target:");
        for (int i = 0; i < st->ntargets; i++)
            sb_printf(&out, " %s", st->target[i]);
        sb_putc(&out, '\n');
    }
    fputs(sb_str(&out), stdout);
    sb_free(&out);
    free(v);
}

static void lesson_intro(const LessonFile *f, const Lesson *l, int index, const Game *g,
                         int seat)
{
    StrBuf ids = STRBUF_INIT;
    rule_list(l, &ids);
    printf("Lesson %d of %d, %s: %s (%s)\n", index + 1, f->n, f->variant->title, l->title,
           sb_str(&ids));
    sb_free(&ids);
    StrBuf goal = STRBUF_INIT;
    sb_printf(&goal, "Goal: %s", l->goal);
    put_text(sb_str(&goal));
    sb_free(&goal);
    printf("You play %s. Type your answer, or 'hint', 'board', 'rules', 'quit'.\n",
           game_seat_name(g, seat));
}

static int play_lesson(const CliOptions *o, const LessonFile *f, const Lesson *l)
{
    Error e = {""};
    LessonRun *r = lesson_start(f->variant, l, &e);
    if (!r) {
        lesson_where(f, l, &e);
        fprintf(stderr, "chessvar learn: %s\n", e.msg);
        return CLI_EXIT_FAIL;
    }
    Learn L = {o, isatty(STDIN_FILENO), 0};
    L.edit = L.tty_in && isatty(STDOUT_FILENO);
    int index = (int)(l - f->v);
    lesson_intro(f, l, index, lesson_game(r), lesson_seat(r));
    StrBuf out = STRBUF_INIT;
    lesson_news(r, &out);
    put_text(sb_str(&out));
    draw(&L, r);
    int rc = CLI_EXIT_OK;
    char prompt[64];
    snprintf(prompt, sizeof prompt, "%s> ", game_seat_name(lesson_game(r), lesson_seat(r)));
    while (!lesson_done(r)) {
        char *line = read_answer(&L, prompt);
        if (!line) {
            rc = CLI_EXIT_FAIL; /* the lesson was left undone */
            break;
        }
        sb_reset(&out);
        if (!line[0]) {
        } else if (str_ieq(line, "quit") || str_ieq(line, "exit")) {
            free(line);
            puts("The lesson is left undone.");
            rc = CLI_EXIT_FAIL;
            break;
        } else if (str_ieq(line, "hint")) {
            lesson_hint(r, &out);
            put_text(sb_str(&out));
        } else if (str_ieq(line, "board")) {
            draw(&L, r);
        } else if (str_ieq(line, "goal")) {
            lesson_intro(f, l, index, lesson_game(r), lesson_seat(r));
        } else if (str_ieq(line, "rules")) {
            StrBuf why = STRBUF_INIT;
            lesson_why(l, &why);
            put_text(sb_str(&why));
            sb_free(&why);
        } else if (lesson_answer(r, line, &out) == LESSON_REFUSED) {
            put_text(sb_str(&out));
        } else {
            put_text(sb_str(&out));
            if (!lesson_done(r))
                draw(&L, r);
        }
        free(line);
    }
    if (lesson_done(r)) {
        draw(&L, r);
        if (index + 1 < f->n)
            printf("Next: chessvar learn %s %d (%s)\n", f->variant->name, index + 2,
                   f->v[index + 1].title);
        else
            printf("That was the last lesson of %s.\n", f->variant->title);
    }
    sb_free(&out);
    lesson_run_free(r);
    return rc;
}

int cli_learn(const CliOptions *o)
{
    if (!o->variant && !o->lessons && o->lesson) {
        StrBuf b = STRBUF_INIT;
        for (int i = 0; variant_registry[i]; i++)
            sb_printf(&b, "%s%s", i ? ", " : "", variant_registry[i]->name);
        fprintf(stderr, "chessvar learn: unknown variant '%s'; the variants are: %s\n",
                o->lesson, sb_str(&b));
        sb_free(&b);
        return CLI_EXIT_USAGE;
    }
    if (o->check_lessons && o->lesson) {
        fputs("chessvar learn: --check plays every lesson of a file: leave out the lesson\n",
              stderr);
        return CLI_EXIT_USAGE;
    }
    if (o->check_lessons)
        return check_lessons(o);
    if (!o->variant && !o->lessons)
        return list_variants();
    LessonFile f;
    if (open_lessons(o, o->variant, &f))
        return CLI_EXIT_FAIL;
    int rc = CLI_EXIT_OK;
    if (!o->lesson) {
        list_lessons(&f);
    } else {
        Error e = {""};
        const Lesson *l = lesson_find(&f, o->lesson, &e);
        if (!l) {
            fprintf(stderr, "chessvar learn: %s\n", e.msg);
            rc = CLI_EXIT_USAGE;
        } else {
            rc = play_lesson(o, &f, l);
        }
    }
    lesson_file_free(&f);
    return rc;
}
