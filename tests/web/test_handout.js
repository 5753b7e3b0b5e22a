#!/usr/bin/env node
// The handouts print (issue 22 point 4: "Tested by printing it with
// headless Chromium to PDF and checking every diagram is there"): for every
// variant, `chessvar handout VARIANT --html FILE` is loaded in chromium with
// every network request refused (the page is self-contained), shows one
// board per rule of `chessvar rules VARIANT`, one per exercise and one per
// solution, each with its squares and pieces laid out on the printed page,
// and prints to a PDF whose pages are those of the rules and exercises
// followed by those of the solutions alone (the solutions start a page of
// their own: the last pages).  And one board renderer: for positions with
// merged, trapped and checked pieces and three colours, the page's board
// (web/app.js) and GET /api/diagram (core/draw/, the renderer of `chessvar
// diagram`) draw the same pieces with the same classes, data attributes,
// places and colours, and a bounded board's squares alike.
//
//   node tests/web/test_handout.js            (make test-web)
// Environment: as tests/web/lib.js says.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const {
  CHESSVAR, STEP, env, test, assert, withTimeout, api, open, waitPly, main,
} = require('./lib.js');

function chessvar(args) {
  const r = spawnSync(CHESSVAR, args, { encoding: 'utf8' });
  assert(r.status === 0, `chessvar ${args.join(' ')}: status ${r.status}: ${r.stderr}`);
  return r.stdout;
}

// The number of pages of a PDF chromium wrote (a /Type /Page object each).
function pdfPages(buf) {
  const s = buf.toString('latin1');
  assert(s.startsWith('%PDF-'), 'not a PDF');
  return (s.match(/\/Type\s*\/Page\b(?!s)/g) || []).length;
}

async function printed(page, hide) {
  await page.evaluate(sel => {
    for (const e of document.querySelectorAll('body > *')) e.style.display = '';
    if (sel) for (const e of document.querySelectorAll(sel)) e.style.display = 'none';
  }, hide);
  const buf = Buffer.from(await withTimeout(page.pdf({ format: 'A4', printBackground: true }),
    STEP * 2, 'the PDF'));
  return { pages: pdfPages(buf), size: buf.length };
}

for (const variant of ['orthodox', 'masques', 'ambigus', 'echiquete', 'tile']) {
  test(`handout_prints_${variant}`, async () => {
    const rules = chessvar(['rules', variant]).split('\n').filter(l => /^[A-Z]+-\d+ /.test(l))
      .map(l => l.split(' ')[0]);
    assert(rules.length >= 7, `${variant}: only ${rules.length} rules`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chessvar-handout-'));
    const file = path.join(dir, `${variant}.html`);
    chessvar(['handout', variant, '--html', file]);

    const ctx = await env.browser.createBrowserContext();
    const page = await ctx.newPage();
    env.live.push(Object.assign(page, { ctx }));
    page.setDefaultTimeout(STEP);
    const fetched = [];
    await page.setRequestInterception(true);
    page.on('request', r => {
      if (r.url().startsWith('file:')) r.continue();
      else { fetched.push(r.url()); r.abort(); }
    });
    await page.goto('file://' + file, { waitUntil: 'load' });
    await page.emulateMediaType('print');
    assert(!fetched.length, `the handout fetches ${fetched.join(', ')}`);

    // One board per rule, in the rules' order, then one per exercise and
    // one per solution, each laid out with its squares and pieces.
    const seen = await page.evaluate(() => ({
      rules: [...document.querySelectorAll('article.rule')].map(a => ({
        id: a.dataset.rule, boards: a.querySelectorAll('svg.board').length,
      })),
      exercises: document.querySelectorAll('.exercises .exercise svg.board').length,
      solutions: document.querySelectorAll('.solutions .solution svg.board').length,
      boards: [...document.querySelectorAll('svg.board')].map(s => {
        const r = s.getBoundingClientRect();
        return { w: r.width, h: r.height, cells: s.querySelectorAll('rect.cell').length,
          pieces: s.querySelectorAll('g.piece').length, label: s.getAttribute('aria-label') };
      }),
    }));
    assert(JSON.stringify(seen.rules.map(r => r.id)) === JSON.stringify(rules),
      `${variant}: the page's rules ${seen.rules.map(r => r.id)} are not ${rules}`);
    for (const r of seen.rules) assert(r.boards === 1, `${variant} ${r.id}: ${r.boards} boards`);
    assert(seen.exercises >= 1, `${variant}: no exercise`);
    // Issue 22: the exercises are the variant's lessons, every one in the
    // lesson file's order, each with its board and a solution of its own;
    // a board shows no masked figure of a seat other than the learner's.
    const lessons = fs.readFileSync(path.join(__dirname, '..', '..', 'lessons', `${variant}.txt`),
      'utf8').split('\n').filter(l => l.startsWith('lesson: ')).map(l => l.slice(8).trim());
    const taught = await page.evaluate(() => ['exercise', 'solution'].map(k =>
      [...document.querySelectorAll(`div.${k}`)].map(d => ({
        id: d.dataset.lesson, boards: d.querySelectorAll('svg.board').length,
        seen: [...d.querySelectorAll('g.piece.f-masked')].filter(g =>
          g.dataset.side !== d.dataset.seat && g.dataset.figure !== 'hidden').length,
      }))));
    for (const list of taught) {
      assert(JSON.stringify(list.map(x => x.id)) === JSON.stringify(lessons),
        `${variant}: the lessons ${lessons} are not the page's ${list.map(x => x.id)}`);
      for (const x of list) {
        assert(x.boards === 1, `${variant} ${x.id}: ${x.boards} boards`);
        assert(x.seen === 0, `${variant} ${x.id}: ${x.seen} masked figures of the other seat show`);
      }
    }
    assert(seen.solutions === seen.exercises,
      `${variant}: ${seen.exercises} exercises, ${seen.solutions} solutions`);
    assert(seen.boards.length === rules.length + 2 * seen.exercises,
      `${variant}: ${seen.boards.length} boards for ${rules.length} rules and ${seen.exercises} exercises`);
    for (const b of seen.boards) {
      assert(b.w > 100 && b.h > 50, `${variant} ${b.label}: the board is ${b.w} x ${b.h} on paper`);
      // Tile's plane shows the window around its pieces: a lesson's few
      // pieces make a 3 x 3 one
      assert(b.cells >= (variant === 'tile' ? 9 : 16), `${variant} ${b.label}: ${b.cells} squares`);
    }
    assert(seen.boards.some(b => b.pieces > 0), `${variant}: no piece on any board`);

    const whole = await printed(page, null);
    const front = await printed(page, '.solutions');
    const back = await printed(page, 'body > :not(.solutions)');
    assert(whole.size > 20000, `${variant}: the PDF is ${whole.size} bytes`);
    assert(front.pages >= 1 && back.pages >= 1, `${variant}: ${front.pages} + ${back.pages} pages`);
    assert(whole.pages === front.pages + back.pages,
      `${variant}: the PDF has ${whole.pages} pages, the rules and exercises ${front.pages} and ` +
      `the solutions ${back.pages}: the solutions do not start a page of their own`);
    fs.rmSync(dir, { recursive: true, force: true });
  });
}

// What a board shows, read the same way from the page's #board and from
// the server's SVG: each piece's attributes and shapes, each square.
function readBoard(svg) {
  const num = v => Math.round(Number(v) * 1000) / 1000;
  const shape = e => [e.tagName, e.getAttribute('class') || '',
    ...['cx', 'cy', 'r', 'x', 'y', 'fill', 'stroke', 'd'].map(a => {
      const v = e.getAttribute(a);
      if (v === null) return '';
      return a === 'd' ? v.replace(/-?\d+(\.\d+)?/g, n => String(num(n))) : (isNaN(v) ? v : String(num(v)));
    }), e.tagName === 'text' || e.tagName === 'title' ? e.textContent : ''].join('|');
  return {
    pieces: [...svg.querySelectorAll('g.piece')].map(g => [
      g.getAttribute('class'), g.dataset.square, g.dataset.x, g.dataset.y, g.dataset.side,
      g.dataset.figure, g.dataset.flags, g.getAttribute('opacity') || '',
      [...g.children].map(shape).join(' / ')].join(' ')).sort(),
    cells: [...svg.querySelectorAll('g.cells rect.cell')].map(shape).sort(),
    coords: [...svg.querySelectorAll('g.coords text')].map(shape).sort(),
  };
}

// A game made with `chessvar run` (ARGS, the commands of INPUT, then the
// record saved: by both seats where it holds hidden facts).
const SAME = [
  ['orthodox', ['--fen', 'rnbqkb1r/pppp1ppp/5n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4'], 'Qxf7\n', ''],
  ['masques', [], 'standard\nstandard\ne2e4\n', 'as white '],
  ['echiquete', ['--fen', 'rnbqkbnr/ppp1pppp/8/3*P4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2'], '', ''],
  ['tile', ['--sides', '3', '--fen', 'wK0,0 wR1,0 bK2,0 rK3,0 rQ3,1 turn:w'], '', ''],
];
for (const [variant, args, moves, again] of SAME) {
  test(`page_and_diagram_same_board_${variant}`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chessvar-same-'));
    const rec = path.join(dir, 'g.rec');
    const r = spawnSync(CHESSVAR, ['run', variant, ...args],
      { input: `${moves}save ${rec}\n${again ? `${again}save ${rec}\n` : ''}`, encoding: 'utf8' });
    assert(r.status === 0, `chessvar run: ${r.stderr}`);
    const g = await api('/api/games', { record: fs.readFileSync(rec, 'utf8') });
    fs.rmSync(dir, { recursive: true, force: true });
    const page = await open(g.spectator);
    await waitPly(page, moves.split('\n').length - 1);
    const both = await page.evaluate(async (id, readSrc) => {
      const read = eval(`(${readSrc})`);
      const res = await fetch(`/api/diagram?game=${encodeURIComponent(id)}`);
      const text = await res.text();
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      const err = doc.querySelector('parsererror');
      return { status: res.status, type: res.headers.get('content-type'), error: err && err.textContent,
        server: read(doc.documentElement), page: read(document.querySelector('#board')),
        bounded: !document.querySelector('#board').classList.contains('plane') };
    }, g.game, readBoard.toString());
    assert(both.status === 200 && both.type === 'image/svg+xml', `GET /api/diagram: ${both.status} ${both.type}`);
    assert(!both.error, `the server's SVG is not well-formed: ${both.error}`);
    assert(both.server.pieces.length > 0, 'no piece in the server\'s board');
    const diff = (a, b, what) => {
      const onlyA = a.filter(x => !b.includes(x)), onlyB = b.filter(x => !a.includes(x));
      assert(!onlyA.length && !onlyB.length && a.length === b.length,
        `${variant}: the ${what} differ:\n  page only:   ${onlyA.slice(0, 3).join('\n               ')}` +
        `\n  server only: ${onlyB.slice(0, 3).join('\n               ')}`);
    };
    diff(both.page.pieces, both.server.pieces, 'pieces');
    if (both.bounded) {
      diff(both.page.cells, both.server.cells, 'squares');
      diff(both.page.coords, both.server.coords, 'coordinates');
    }
  });
}

// issue 22 point 4: one renderer serves the diagrams and the page.  The
// page draws the board the state frame carries (board_svg, the viewer's own
// View drawn by core/draw), not a drawing of its own: a square marked in
// the frame on its way in, and a piece's letter changed, are what the page
// shows, the selection and the targets on top of them.
test('page_draws_the_state_frames_board_svg', async () => {
  const g = await api('/api/games', { variant: 'orthodox' });
  const ctx = await env.browser.createBrowserContext();
  const page = await ctx.newPage();
  page.setDefaultTimeout(STEP);
  page.ctx = ctx;
  env.live.push(page);
  await page.evaluateOnNewDocument(() => {
    const add = WebSocket.prototype.addEventListener;
    WebSocket.prototype.addEventListener = function (type, fn, ...rest) {
      const on = type !== 'message' ? fn : ev => {
        const f = JSON.parse(ev.data);
        if (f.type !== 'state') return fn(ev);
        window.frames_seen = (window.frames_seen || 0) + 1;
        window.svg_seen = f.board_svg;
        if (typeof f.board_svg === 'string')
          f.board_svg = f.board_svg.replace('data-square="d1"', 'data-square="d1" data-test="changed"')
            .replace(/(data-square="d1"[^]*?<text[^>]*>)Q</, '$1Z<');
        return fn({ data: JSON.stringify(f) });
      };
      return add.call(this, type, on, ...rest);
    };
  });
  await page.setViewport({ width: 1100, height: 800 });
  await page.goto(env.base + g.seats.find(x => x.seat === 'white').link, { waitUntil: 'domcontentloaded' });
  await waitPly(page, 0);
  const r = await page.evaluate(() => {
    const q = document.querySelector('#board g.piece[data-square="d1"]');
    return { svg: window.svg_seen, test: q && q.dataset.test, letter: q && q.querySelector('text').textContent,
      style: !!document.querySelector('#board style'), pieces: document.querySelectorAll('#board g.piece').length };
  });
  assert(typeof r.svg === 'string' && r.svg.startsWith('<svg'), `the state frame's board_svg: ${String(r.svg).slice(0, 60)}`);
  assert(!/<style|<\?xml/.test(r.svg), 'the frame\'s board carries a style or an XML declaration: the page has the style');
  assert(r.test === 'changed' && r.letter === 'Z', `the page did not draw the frame's board (d1: ${r.test} ${r.letter})`);
  assert(r.pieces === 32 && !r.style, `${r.pieces} pieces, style ${r.style}`);
  // The page's overlays lie on the server's board: a piece picked shows
  // its square selected and its targets.
  const cell = await page.$('#board rect.cell[data-x="4"][data-y="1"]');
  await cell.click();
  await page.waitForSelector('#board rect.cell.selected[data-x="4"][data-y="1"]');
  const targets = await page.$$eval('#board .marks .target', ts => ts.map(t => `${t.dataset.x},${t.dataset.y}`).sort());
  assert(targets.join(' ') === '4,2 4,3', `e2's targets: ${targets}`);
});

main();
