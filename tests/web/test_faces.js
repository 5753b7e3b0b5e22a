#!/usr/bin/env node
// Browser test of the page's faces for a rule set from parts (issue 24): a
// board of 10 x 10 squares, a lettered piece drawn as a glyph of its own
// with its letter, the hands of both sides, and a drop from the hand by a
// click and by a drag.  The game is the test-only toy's board mode
// (toyboard, TOYB-1 .. in tests/support/toy_variant.c), which the server
// does not hold: `build/tests/test_faces --frame SEAT SIZE [ACTIONS]` prints
// the answers the server makes a state frame of (the view, legal list,
// status, history and board SVG of the real renderers), and the page,
// served by `chessvar serve`, gets the frame through a WebSocket stand-in
// that keeps what the page sends.
//
//   node tests/web/test_faces.js            (make test-web)
'use strict';
const path = require('path');
const fs = require('fs');
const { execFileSync } = require('child_process');
const { ROOT, CHESSVAR, STEP, env, test, withTimeout, assert, cellBox, clickSquare, checkPieces, shot, main } = require('./lib.js');

// The test binary of the same build as the program: build/tests/ for
// ./chessvar, build-san/tests/ for build-san/chessvar (SANITIZE=...).
const FRAMER = path.join(path.dirname(CHESSVAR) === ROOT ? path.join(ROOT, 'build') : path.dirname(CHESSVAR), 'tests', 'test_faces');

// The state frame seat gets in a toyboard game of size after actions, as
// core/web/server.c state_frame builds it from the same answers.
function frame(seat, size, actions = []) {
  if (!fs.existsSync(FRAMER)) throw new Error(`${FRAMER} is missing: build it first (make tests-build)`);
  const a = JSON.parse(execFileSync(FRAMER, ['--frame', seat, String(size), ...actions], { encoding: 'utf8' }));
  const strip = o => { const r = { ...o }; delete r.ok; delete r.cmd; return r; };
  const legal = strip(a.legal);
  return {
    type: 'state', game: 'toyboard', seat, ply: a.ply, variant: 'toyboard', title: 'Toy board (test-only)',
    view: a.view.view, status: strip(a.status), legal: legal.actions.length || legal.meta.length ? legal : null,
    history: a.history.history, messages: [],
    seats: ['white', 'black'].map(x => ({ seat: x, bot: null, connected: x === seat })),
    takeback: null, board: false, board_svg: a.board_svg,
  };
}

// A page of the server whose WebSocket is a stand-in: window.__sent holds
// the frames the page sent, window.__ws.deliver(text) hands it one.
async function openFaked() {
  const ctx = await withTimeout(env.browser.createBrowserContext(), STEP, 'a browser context');
  const page = await ctx.newPage();
  page.setDefaultTimeout(STEP);
  page.errors = [];
  page.on('pageerror', e => page.errors.push(e.message));
  page.ctx = ctx;
  env.live.push(page);
  await page.setViewport({ width: 1100, height: 900 });
  await page.evaluateOnNewDocument(() => {
    window.__sent = [];
    class FakeSocket extends EventTarget {
      constructor(url) {
        super();
        this.url = url;
        this.readyState = 0;
        window.__ws = this;
        setTimeout(() => { this.readyState = 1; this.dispatchEvent(new Event('open')); }, 0);
      }
      send(text) { window.__sent.push(JSON.parse(text)); }
      close() {}
      deliver(text) { this.dispatchEvent(new MessageEvent('message', { data: text })); }
    }
    FakeSocket.CONNECTING = 0; FakeSocket.OPEN = 1; FakeSocket.CLOSING = 2; FakeSocket.CLOSED = 3;
    window.WebSocket = FakeSocket;
  });
  await page.goto(`${env.base}/#g=toyboard&t=faked`, { waitUntil: 'domcontentloaded', timeout: STEP });
  await page.waitForFunction(() => window.__sent.some(f => f.type === 'hello'));
  return page;
}

async function deliver(page, f) {
  await page.evaluate(text => window.__ws.deliver(text), JSON.stringify(f));
  await page.waitForFunction(n => document.body.dataset.ply === String(n), {}, f.ply);
}

// The actions the page sent, in order.
const acts = page => page.evaluate(() => window.__sent.filter(f => f.type === 'act').map(f => f.text));

// The hand rows as the page shows them: side, then each figure's letter,
// count, whether it is a button and whether it may be pressed.
const handsShown = page => page.evaluate(() => ['#hand-top', '#hand'].map(sel => {
  const box = document.querySelector(sel);
  return {
    hidden: box.hidden, side: box.dataset.side,
    pieces: [...box.querySelectorAll('.hand-piece')].map(p => ({
      letter: p.dataset.figure, count: Number(p.dataset.count), button: p.tagName === 'BUTTON',
      enabled: p.tagName === 'BUTTON' && !p.disabled, lettered: p.classList.contains('lettered'),
      badge: (p.querySelector('.count') || {}).textContent || null,
    })),
  };
}));

// issue 24: a 10 x 10 board with lettered pieces and both hands; White
// drops a Knight from its hand by a click on the figure, then one on e5.
test('issue24_lettered_pieces_hands_and_a_drop_by_click', async () => {
  const page = await openFaked();
  const f0 = frame('white', 10);
  await deliver(page, f0);
  const drawn = await checkPieces(page, f0.view);
  const a1 = drawn.find(p => p.square === 'a1');
  assert(a1.figure === 'A' && a1.letter === 'A', `a1: ${JSON.stringify(a1)}`);
  // the lettered piece's body is a rounded square, the King's a disc
  assert(await page.$('#board g.piece[data-square="a1"] rect.body'), 'a1 has no square body');
  assert(await page.$('#board g.piece[data-square="f1"] circle.body'), 'the King has no disc');
  // labels a..j and 1..10 (the two-digit rank once on each side)
  const labels = await page.$$eval('#board g.coords text', els => els.map(e => e.textContent));
  assert(labels.includes('j') && labels.filter(t => t === '10').length === 2, `labels: ${labels}`);
  const [top, bottom] = await handsShown(page);
  assert(!top.hidden && top.side === 'black', `over the board: ${JSON.stringify(top)}`);
  assert(JSON.stringify(top.pieces) === JSON.stringify([{ letter: 'Q', count: 1, button: false, enabled: false, lettered: false, badge: null }]),
    `black's hand: ${JSON.stringify(top.pieces)}`);
  assert(!bottom.hidden && bottom.side === 'white', `under the board: ${JSON.stringify(bottom)}`);
  assert(JSON.stringify(bottom.pieces) === JSON.stringify([
    { letter: 'N', count: 2, button: true, enabled: true, lettered: false, badge: '×2' },
    { letter: 'Z', count: 1, button: true, enabled: true, lettered: true, badge: null }]),
  `white's hand: ${JSON.stringify(bottom.pieces)}`);
  // the hand over the board, the board, the hand under it
  const ys = await page.evaluate(() => ['#hand-top', '#board', '#hand'].map(s => document.querySelector(s).getBoundingClientRect().top));
  assert(ys[0] < ys[1] && ys[1] < ys[2], `hand over, board, hand under: ${ys}`);
  await shot(page, 'faces-toyboard-white');

  await page.click('#hand button.hand-piece[data-figure="N"]');
  // every empty square is a target of the Knight in hand
  await page.waitForSelector('#board circle.target[data-x="4"][data-y="4"]');
  await clickSquare(page, 4, 4);
  await page.waitForFunction(() => window.__sent.some(f => f.type === 'act'));
  assert(JSON.stringify(await acts(page)) === '["N@e5"]', `sent: ${await acts(page)}`);

  // the server's next frame: the Knight on e5, one left in hand, Black to move
  const f1 = frame('white', 10, ['N@e5']);
  await deliver(page, f1);
  const now = await checkPieces(page, f1.view);
  assert(now.find(p => p.square === 'e5').figure === 'knight', 'no Knight on e5');
  const [, after] = await handsShown(page);
  assert(after.pieces[0].letter === 'N' && after.pieces[0].count === 1 && after.pieces[0].badge === null &&
    !after.pieces[0].enabled, `after the drop (Black to move): ${JSON.stringify(after.pieces)}`);
  assert(page.errors.length === 0, `page errors: ${page.errors}`);
});

// issue 24: on a 16 x 16 board Black's seat sees the board turned and its
// own hand under it; White's lettered Z dragged from the hand onto f6 (on
// 10 x 10) is dropped there.
test('issue24_hands_turned_for_black_and_a_drop_by_drag', async () => {
  const page = await openFaked();
  const fb = frame('black', 16, ['N@e5']);
  await deliver(page, fb);
  await checkPieces(page, fb.view);
  const labels = await page.$$eval('#board g.coords text', els => els.map(e => e.textContent));
  assert(labels.includes('p') && labels.filter(t => t === '16').length === 2, `labels: ${labels}`);
  // the whole board and both hands on the screen
  const fits = await page.evaluate(() => ['#hand-top', '#board', '#hand'].every(s => {
    const r = document.querySelector(s).getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight;
  }));
  assert(fits, 'the board and both hands do not fit the screen');
  const [top, bottom] = await handsShown(page);
  assert(top.side === 'white' && bottom.side === 'black', `black's seat: ${top.side} over, ${bottom.side} under`);
  assert(bottom.pieces.length === 1 && bottom.pieces[0].letter === 'Q' && bottom.pieces[0].enabled, `black's hand: ${JSON.stringify(bottom.pieces)}`);
  assert(top.pieces.every(p => !p.button), 'the other side\'s hand has buttons');
  await shot(page, 'faces-toyboard-black');

  const page2 = await openFaked();
  await deliver(page2, frame('white', 10, ['N@e5', 'e10e9']));
  const z = await (await page2.$('#hand button.hand-piece[data-figure="Z"]')).boundingBox();
  const b = await cellBox(page2, 5, 5);
  await page2.mouse.move(z.x + z.width / 2, z.y + z.height / 2);
  await page2.mouse.down();
  await page2.mouse.move(z.x + z.width / 2 + 10, z.y + z.height / 2 - 5, { steps: 3 });
  await page2.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page2.mouse.up();
  await page2.waitForFunction(() => window.__sent.some(f => f.type === 'act'));
  assert(JSON.stringify(await acts(page2)) === '["Z@f6"]', `sent: ${await acts(page2)}`);
  assert(page.errors.length === 0 && page2.errors.length === 0, `page errors: ${page.errors} ${page2.errors}`);
});

main();
