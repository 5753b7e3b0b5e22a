#!/usr/bin/env node
// The handouts print (issue 22 point 4: "Tested by printing it with
// headless Chromium to PDF and checking every diagram is there"): for every
// variant, `chessvar handout VARIANT --html FILE` is loaded in chromium with
// every network request refused (the page is self-contained), shows one
// board per rule of `chessvar rules VARIANT`, one per exercise and one per
// solution, each with its squares and pieces laid out on the printed page,
// and prints to a PDF whose pages are those of the rules and exercises
// followed by those of the solutions alone (the solutions start a page of
// their own: the last pages).
//
//   node tests/web/test_handout.js            (make test-web)
// Environment: as tests/web/lib.js says.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { CHESSVAR, STEP, env, test, assert, withTimeout, main } = require('./lib.js');

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
    assert(seen.solutions === seen.exercises,
      `${variant}: ${seen.exercises} exercises, ${seen.solutions} solutions`);
    assert(seen.boards.length === rules.length + 2 * seen.exercises,
      `${variant}: ${seen.boards.length} boards for ${rules.length} rules and ${seen.exercises} exercises`);
    for (const b of seen.boards) {
      assert(b.w > 100 && b.h > 50, `${variant} ${b.label}: the board is ${b.w} x ${b.h} on paper`);
      assert(b.cells >= 16, `${variant} ${b.label}: ${b.cells} squares`);
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

main();
