# sites.awk -- list the mutation sites of one C file, then pick a sample.
#
# Usage: awk -v seed=S -v n=N -f sites.awk FILE
# Prints N lines "LINENO<TAB>OP<TAB>MUTATED LINE", chosen from every site
# of FILE by a Fisher-Yates shuffle driven by a Park-Miller generator seeded
# with S and the file's name (n=0: every site, in file order).
#
# Invariant: a site is found on the line with comments blanked and the
# contents of string and character literals replaced by '_', and preprocessor
# lines skipped, so a mutant never touches a comment, a message text or an
# #include; the mutation itself is applied to the original line at the same
# column.  The same seed, file and awk give the same sample (plain POSIX awk:
# no srand/rand, no gawk extensions).

function add(op, col, len, rep) {
    ns++
    s_line[ns] = cur; s_op[ns] = op
    s_text[ns] = substr($0, 1, col - 1) rep substr($0, col + len)
}

function isword(c) { return c ~ /[A-Za-z0-9_.]/ }

# m: the line with comments and literal contents blanked (same length).
function mask(line,    out, i, c, nx, q) {
    out = ""; i = 1
    while (i <= length(line)) {
        c = substr(line, i, 1); nx = substr(line, i + 1, 1)
        if (incomment) {
            if (c == "*" && nx == "/") { incomment = 0; out = out "  "; i += 2; continue }
            out = out " "; i++; continue
        }
        if (c == "/" && nx == "*") { incomment = 1; out = out "  "; i += 2; continue }
        if (c == "/" && nx == "/") { while (i <= length(line)) { out = out " "; i++ }; break }
        if (c == "\"" || c == "'") {
            q = c; out = out c; i++
            while (i <= length(line) && substr(line, i, 1) != q) {
                if (substr(line, i, 1) == "\\") { out = out "_"; i++ }
                out = out "_"; i++
            }
            if (i <= length(line)) { out = out q; i++ }
            continue
        }
        out = out c; i++
    }
    return out
}

# Column of the parenthesis closing the one at col in m, 0 if not on the line.
function closing(m, col,    d, i, c) {
    d = 0
    for (i = col; i <= length(m); i++) {
        c = substr(m, i, 1)
        if (c == "(") d++
        else if (c == ")") { d--; if (d == 0) return i }
    }
    return 0
}

function scan(m,    i, c, two, prev, nx, nx2, j, cl, cond) {
    for (i = 1; i <= length(m); i++) {
        c = substr(m, i, 1); two = substr(m, i, 2)
        prev = i > 1 ? substr(m, i - 1, 1) : ""
        nx = substr(m, i + 1, 1); nx2 = substr(m, i + 2, 1)
        if (two == "==") { add("eq->ne", i, 2, "!="); i++; continue }
        if (two == "!=") { add("ne->eq", i, 2, "=="); i++; continue }
        if (two == "&&") { add("and->or", i, 2, "||"); i++; continue }
        if (two == "||") { add("or->and", i, 2, "&&"); i++; continue }
        if (two == "<<" || two == ">>" || two == "->") { i++; continue }
        if (two == "<=") { add("le->lt", i, 2, "<"); i++; continue }
        if (two == ">=") { add("ge->gt", i, 2, ">"); i++; continue }
        if (c == "<") { add("lt->le", i, 1, "<="); continue }
        if (c == ">") { add("gt->ge", i, 1, ">="); continue }
        if (two == "+=") { add("addeq->subeq", i, 2, "-="); i++; continue }
        if (two == "-=") { add("subeq->addeq", i, 2, "+="); i++; continue }
        if (substr(m, i - 1, 3) == " + ") { add("add->sub", i, 1, "-"); continue }
        if (substr(m, i - 1, 3) == " - ") { add("sub->add", i, 1, "+"); continue }
        if (c == "!" && nx != "=") { add("drop-not", i, 1, ""); continue }
        if ((c == "0" || c == "1") && !isword(prev) && !isword(nx) && nx != "x") {
            add("const-" c, i, 1, c == "0" ? "1" : "0"); continue
        }
        if (substr(m, i, 4) == "if (" && !isword(prev)) {
            cl = closing(m, i + 3)
            if (cl) {
                cond = substr($0, i + 4, cl - i - 4)
                add("negate-if", i, cl - i + 1, "if (!(" cond "))")
                if (index(substr(m, cl), "return") || (substr(m, cl + 1) ~ /^[ \t]*$/ && nextret))
                    add("drop-check", i, cl - i + 1, "if (0 && (" cond "))")
            }
            i += 3
        }
    }
}

BEGIN { ns = 0; incomment = 0 }
{ lines[NR] = $0 }
END {
    # Second pass, with one line of look-ahead for "if (...)\n return".
    incomment = 0; total = NR
    for (cur = 1; cur <= total; cur++) {
        $0 = lines[cur]
        m = mask($0)
        nextret = lines[cur + 1] ~ /^[ \t]*return/
        if (m ~ /^[ \t]*#/) continue
        scan(m)
    }
    if (n == 0 || n > ns) n = ns
    # Park-Miller "minimal standard" generator; products stay below 2^53.
    x = seed + 0
    for (i = 1; i <= length(FILENAME); i++) x = (x * 31 + index("abcdefghijklmnopqrstuvwxyz/._", substr(FILENAME, i, 1))) % 2147483646
    x = x + 1
    for (i = ns; i > 1 && n < ns; i--) {
        x = (x * 16807) % 2147483647
        j = 1 + x % i
        t = s_line[i]; s_line[i] = s_line[j]; s_line[j] = t
        t = s_op[i]; s_op[i] = s_op[j]; s_op[j] = t
        t = s_text[i]; s_text[i] = s_text[j]; s_text[j] = t
    }
    # The sample is the last n after the shuffle; print it in file order.
    first = ns - n + 1
    for (i = first; i <= ns; i++) order[i - first + 1] = i
    for (a = 1; a <= n; a++)
        for (b = a + 1; b <= n; b++)
            if (s_line[order[b]] < s_line[order[a]]) { t = order[a]; order[a] = order[b]; order[b] = t }
    for (a = 1; a <= n; a++) printf "%d\t%s\t%s\n", s_line[order[a]], s_op[order[a]], s_text[order[a]]
}
