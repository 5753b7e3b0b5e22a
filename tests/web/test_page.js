#!/usr/bin/env node
// Browser tests of the page (issue 21): Debian's chromium, headless, driven
// by puppeteer-core, against `chessvar serve --port 0 --data DIR`.
// Output in cmocka's words, so tests/run.sh counts it with the C tests.
//
//   node tests/web/test_page.js            (make test-web)
// Environment: CHESSVAR (the program), CHROMIUM (default /usr/bin/chromium),
// PUPPETEER_DIR (default build/web-test), WEB_TEST_OUT (screenshots, default
// build/web-test), WEB_TEST_FILTER=substring (the tests whose name holds it),
// CHESSVAR_DOCS_UPDATE=1 (write the pictures of docs/WEB-PAGE.md again).
'use strict';
const path = require('path');
const fs = require('fs');
const os = require('os');
const { spawn } = require('child_process');
const {
  ROOT, CHESSVAR, STEP, env, test, withTimeout, assert, startServer, stopServer, api, open,
  waitPly, cellBox, clickSquare, stateOf, checkPieces, shot, seatLink, tokenOf, main,
} = require('./lib.js');

const sq = name => ({ x: name.charCodeAt(0) - 97, y: Number(name.slice(1)) - 1 });

async function move(page, from, to) {
  const a = sq(from), b = sq(to);
  await clickSquare(page, a.x, a.y);
  await page.waitForSelector('#board .target');
  await clickSquare(page, b.x, b.y);
}

async function drag(page, from, to) {
  const a = await cellBox(page, sq(from).x, sq(from).y), b = await cellBox(page, sq(to).x, sq(to).y);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 5, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
}

/* ------------------------------------------------------------------ tests */

// issue 21: the lobby lists the variants and makes a game with a link per seat.
test('lobby_creates_game_with_links', async () => {
  const page = await open('/');
  await page.waitForSelector('#variant option[value="masques"]');
  const names = await page.$$eval('#variant option', os => os.map(o => o.value));
  for (const v of ['orthodox', 'masques', 'ambigus', 'echiquete', 'tile'])
    assert(names.includes(v), `the lobby does not offer ${v} (${names})`);
  await page.select('#variant', 'tile');
  await page.waitForSelector('#sides');
  await page.select('#sides', '4');
  const seats = await page.$$eval('[data-seat]', els => els.map(e => e.dataset.seat));
  assert(seats.length === 4, `4 sides give ${seats.length} seat fields`);
  // The seats' names are the engine's (/api/variants), and each is one the
  // server takes: L'Échiqueté's third seat, a six-colour table.
  const catalogue = await api('/api/variants');
  for (const [variant, count, sel] of [['echiquete', '3', '#seats'], ['tile', '6', '#sides']]) {
    await page.select('#variant', variant);
    await page.select(sel, count);
    const offered = await page.$$eval('[data-seat]', els => els.map(e => e.dataset.seat));
    const v = catalogue.variants.find(x => x.name === variant);
    const want = v.seat_names.find(e => e.names.length === Number(count)).names;
    assert(JSON.stringify(offered) === JSON.stringify(want),
      `${variant}: the lobby offers ${offered}, the engine names ${want}`);
    await page.click('#create-btn');
    await page.waitForFunction(n => document.querySelectorAll('#links .seat-link').length === n, { timeout: STEP }, Number(count));
    const err = await page.$eval('#create-error', e => e.textContent);
    assert(!err, `${variant}: creating was refused: ${err}`);
  }
  await page.select('#variant', 'orthodox');
  await page.select('[data-seat="black"]', 'random');
  await page.click('#create-btn');
  await page.waitForFunction(() => document.querySelectorAll('#links .seat-link').length === 1, { timeout: STEP });
  const links = await page.$$eval('#links a', as => as.map(a => a.href));
  assert(links.length === 3, `expected white's link, the spectator's and the board's, got ${links.length}`);
  assert(/#g=[0-9a-f]+&t=[0-9a-f]{32,}$/.test(links[0]), `white's link carries no token: ${links[0]}`);
  await page.waitForFunction(() => document.querySelectorAll('#games li a').length >= 2);
  await page.ctx.close();
});

// issue 21: a record file loaded in the lobby starts its game; its seats'
// links open the position it holds.
test('lobby_loads_a_record', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chessvar-rec-'));
  try {
    const made = require('child_process').spawnSync(CHESSVAR, ['run', 'orthodox'],
      { cwd: dir, input: 'e4\ne5\nNf3\nsave game.rec\n', timeout: STEP });
    assert(made.status === 0, `chessvar run could not save: ${made.stderr}`);
    const page = await open('/');
    await page.waitForSelector('#variant option');
    const input = await page.$('#load-file');
    await input.uploadFile(path.join(dir, 'game.rec'));
    await page.click('#load-btn');
    await page.waitForSelector('#links .seat-link a');
    const link = await page.$eval('#links .seat-link a', a => a.getAttribute('href'));
    const black = await open(new URL(link).pathname + new URL(link).hash);
    await waitPly(black, 3);
    const f3 = await black.$eval('#board g.piece[data-square="f3"]', e => `${e.dataset.side} ${e.dataset.figure}`);
    assert(f3 === 'white knight', `f3 holds ${f3}`);
    // A file that is no record: the server's message is shown.
    fs.writeFileSync(path.join(dir, 'bad.rec'), 'not a record\n');
    await input.uploadFile(path.join(dir, 'bad.rec'));
    await page.click('#load-btn');
    await page.waitForFunction(() => document.querySelector('#load-error').textContent !== '');
    console.log(`(refused: ${await page.$eval('#load-error', e => e.textContent)})`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// issue 21: two devices play fool's mate by clicking (and one drag); the
// spectator follows; the refusal of a move shows the engine's message.
test('orthodox_fools_mate_two_contexts', async () => {
  const g = await api('/api/games', { variant: 'orthodox' });
  const white = await open(seatLink(g, 'white'));
  const black = await open(seatLink(g, 'black'));
  const spect = await open(g.spectator);
  await waitPly(white, 0); await waitPly(black, 0); await waitPly(spect, 0);
  // Black's board has rank 1 on top: e1's square is above e8's.
  const e1 = await cellBox(black, 4, 0), e8 = await cellBox(black, 4, 7);
  assert(e1.y < e8.y, 'black has rank 1 at the bottom, not on top');
  const w1 = await cellBox(white, 4, 0), w8 = await cellBox(white, 4, 7);
  assert(w1.y > w8.y, 'white has rank 1 on top, not at the bottom');

  await move(white, 'f2', 'f3');
  await waitPly(black, 1);
  await move(black, 'e7', 'e5');
  await waitPly(white, 2);
  // Typed text: a refusal is shown as the engine wrote it.
  await white.type('#typed-text', 'Qh5\n');
  await white.waitForFunction(() => /queen/.test(document.querySelector('#error').textContent));
  const err = await white.$eval('#error', e => e.textContent);
  assert(/Qh5/.test(err), `the refusal is not the engine's: ${err}`);
  await drag(white, 'g2', 'g4');
  await waitPly(black, 3);
  await move(black, 'd8', 'h4');
  for (const p of [white, black, spect]) await waitPly(p, 4);
  for (const p of [white, black, spect]) {
    const r = await p.$eval('#result', e => e.textContent);
    assert(/0-1/.test(r) && /checkmate/.test(r), `the result reads '${r}'`);
  }
  const halo = await white.$('#board g.piece[data-square="e1"] .check-halo');
  assert(halo, "white's King is not marked in check");
  const hist = await spect.$$eval('#history li', ls => ls.map(l => l.textContent));
  assert(hist.length === 4 && /Qh4#/.test(hist[3]), `the move list reads ${JSON.stringify(hist)}`);
  // Save: the record comes down as a file (the spectator's holds no secret).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chessvar-dl-'));
  try {
    const cdp = await spect.createCDPSession();
    await cdp.send('Page.setDownloadBehavior', { behavior: 'allow', downloadPath: dir });
    await spect.click('#save');
    const file = path.join(dir, `${g.game}.rec`);
    for (let i = 0; i < 100 && !fs.existsSync(file); i++) await new Promise(r => setTimeout(r, 100));
    assert(fs.existsSync(file), `no record was downloaded (${fs.readdirSync(dir)})`);
    const rec = fs.readFileSync(file, 'utf8');
    assert(/Qh4/.test(rec) && /0-1/.test(rec), `the record reads: ${rec}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  for (const p of [white, black, spect]) assert(!p.errors.length, `page errors: ${p.errors}`);
  for (const p of [white, black, spect]) await p.ctx.close();
});

// issue 21: a promotion goes through the chooser (four actions share b7-a8).
test('orthodox_promotion_through_chooser', async () => {
  const g = await api('/api/games', { variant: 'orthodox' });
  const white = await open(seatLink(g, 'white'));
  const black = await open(seatLink(g, 'black'));
  const moves = ['e4', 'd5', 'exd5', 'c6', 'dxc6', 'Nf6', 'cxb7', 'Nbd7'];
  for (let i = 0; i < moves.length; i++) {
    const p = i % 2 ? black : white;
    await waitPly(p, i);
    await p.type('#typed-text', `${moves[i]}\n`);
  }
  await waitPly(white, 8);
  await move(white, 'b7', 'a8');
  await white.waitForSelector('#chooser:not([hidden]) button.choice');
  const choices = await white.$$eval('#chooser button.choice', bs => bs.map(b => b.textContent));
  assert(choices.length === 4, `the chooser offers ${JSON.stringify(choices)}`);
  const knight = await white.$$('#chooser button.choice');
  await knight[choices.findIndex(c => /=N/.test(c))].click();
  await waitPly(black, 9);
  const fig = await black.$eval('#board g.piece[data-square="a8"]', e => `${e.dataset.side} ${e.dataset.figure}`);
  assert(fig === 'white knight', `a8 holds ${fig}`);
  await white.ctx.close(); await black.ctx.close();
});

// MASQ-1, issue 21: setup from the hand and by the 'standard' button; a move
// with a reveal choice; the spectator and the enemy never see a masked figure.
test('masques_setup_and_no_masked_figure_for_others', async () => {
  const g = await api('/api/games', { variant: 'masques' });
  const white = await open(seatLink(g, 'white'));
  const black = await open(seatLink(g, 'black'));
  const spect = await open(g.spectator);
  await waitPly(white, 0);
  // White places its King from the hand on e1, then the rest at random.
  await white.click('#hand button[data-figure="K"]');
  await white.waitForSelector('#board .target');
  await clickSquare(white, 4, 0);
  await waitPly(white, 1);
  const k = await white.$eval('#board g.piece[data-square="e1"]', e => `${e.dataset.figure} ${e.dataset.flags}`);
  assert(k === 'king masked', `e1 holds ${k}`);
  // A Pawn dragged from the hand onto e2 (so that e2e4 has a reveal twin).
  const pawn = await (await white.$('#hand button[data-figure="P"]')).boundingBox();
  const e2box = await cellBox(white, 4, 1);
  await white.mouse.move(pawn.x + pawn.width / 2, pawn.y + pawn.height / 2);
  await white.mouse.down();
  await white.mouse.move(e2box.x + e2box.width / 2, e2box.y + e2box.height / 2, { steps: 10 });
  await white.mouse.up();
  await waitPly(white, 2);
  const p2 = await white.$eval('#board g.piece[data-square="e2"]', e => e.dataset.figure);
  assert(p2 === 'pawn', `e2 holds ${p2} after the drag from the hand`);
  await white.click('#actions button[data-machine="random"]');
  await white.waitForFunction(() => !document.querySelector('#actions button[data-machine="random"]'));
  await waitPly(black, 3);
  await black.click('#actions button[data-machine="standard"]');
  await white.waitForFunction(() => document.body.dataset.phase === 'play');
  // e2e4 or reveal e2e4: the chooser asks.
  await waitPly(white, 4);
  await move(white, 'e2', 'e4');
  await white.waitForSelector('#chooser:not([hidden]) button.choice[data-machine="e2e4"]');
  const n = (await white.$$('#chooser button.choice')).length;
  assert(n === 2, `a masked piece's move offers ${n} choices`);
  await white.click('#chooser button.choice[data-machine="e2e4"]');
  // MASQ-8, MASQ-10: black passes its announcement, white attacks d5 with
  // a masked piece: a battle with bids, from the buttons.
  await waitPly(black, 5);
  await move(black, 'd7', 'd5');
  await black.waitForSelector('#chooser:not([hidden]) button.choice[data-machine="d7d5"]');
  await black.click('#chooser button.choice[data-machine="d7d5"]');
  await waitPly(black, 6);
  await black.click('#actions button[data-machine="pass"]');
  await white.waitForFunction(() => document.body.dataset.phase === 'play' && document.querySelector('#board .movable'));
  await waitPly(white, 7);
  await move(white, 'e4', 'd5');
  await white.waitForSelector('#chooser:not([hidden]) button.choice[data-machine="e4d5"]');
  await white.click('#chooser button.choice[data-machine="e4d5"]');
  await white.waitForFunction(() => document.body.dataset.phase === 'bid');
  await waitPly(white, 8);
  await white.select('#actions select[data-kind="bid"]', 'bid 1');
  await white.click('#actions button[data-kind="bid"]');
  await black.waitForSelector('#actions button[data-machine="call"]');
  await waitPly(black, 9);
  await black.click('#actions button[data-machine="call"]');
  await spect.waitForFunction(() => [...document.querySelectorAll('#history li')].some(l => /call/.test(l.textContent)));
  const hist = await spect.$$eval('#history li', ls => ls.map(l => l.textContent));
  assert(hist.some(t => /bid 1/.test(t)), `the move list lacks the bid: ${JSON.stringify(hist)}`);
  // Every masked piece of the other side is drawn without its figure.
  for (const [who, p, sides] of [['the spectator', spect, ['white', 'black']], ['black', black, ['white']]]) {
    const masked = await p.$$eval('#board g.piece', els => els
      .filter(e => e.dataset.flags.split(' ').includes('masked'))
      .map(e => ({ sq: e.dataset.square, side: e.dataset.side, fig: e.dataset.figure,
        letter: e.querySelector('text.letter').textContent, title: e.querySelector('title').textContent })));
    const theirs = masked.filter(m => sides.includes(m.side));
    assert(theirs.length >= 14 * sides.length, `${who} sees only ${theirs.length} masked pieces`);
    for (const m of theirs) {
      assert(m.fig === 'hidden' && m.letter === '?' && !/king|queen|rook|bishop|knight|pawn/.test(m.title),
        `${who} sees ${m.side}'s masked piece on ${m.sq} as ${m.fig} '${m.letter}' (${m.title})`);
    }
  }
  await shot(spect, 'masques-spectator');
  // MASQ-16: black resigns (the page asks first); white shows its pieces:
  // the spectator then sees white's figures, black's stay hidden.
  await waitPly(black, 10);
  black.on('dialog', d => d.accept());
  await black.click('#meta button[data-meta="resign"]');
  await white.waitForSelector('#meta button[data-meta="show"]');
  const r = await white.$eval('#result', e => e.textContent);
  assert(/1-0/.test(r) && /resign/.test(r), `the result reads '${r}'`);
  await white.click('#meta button[data-meta="show"]');
  await spect.waitForFunction(() => [...document.querySelectorAll('#board g.piece[data-side="white"]')].every(e => e.dataset.figure !== 'hidden'));
  const hiddenBlack = await spect.$$eval('#board g.piece[data-side="black"]', els => els.filter(e => e.dataset.figure === 'hidden').length);
  assert(hiddenBlack >= 14, `after white shows, the spectator sees black's figures (${hiddenBlack} hidden)`);
  for (const p of [white, black, spect]) await p.ctx.close();
});

// ECHQ-9, ECHQ-12, issue 21: three devices; a capture merges two pieces
// (drawn in two colours), the third seat takes the merged side over with its
// button and moves the merged piece by clicking.
test('echiquete_takeover_by_the_third_seat', async () => {
  const g = await api('/api/games', { variant: 'echiquete', seats: 3 });
  assert(g.seats.length === 3, `three seats, got ${g.seats.map(x => x.seat)}`);
  const pages = {};
  for (const st of g.seats) pages[st.seat] = await open(st.link);
  const third = g.seats[2].seat;
  await waitPly(pages.white, 0);
  await move(pages.white, 'e2', 'e4');
  await waitPly(pages.black, 1);
  await move(pages.black, 'd7', 'd5');
  await waitPly(pages.white, 2);
  await move(pages.white, 'e4', 'd5');
  const chooser = await pages.white.waitForSelector('#chooser:not([hidden]) button.choice', { timeout: 3000 }).catch(() => null);
  if (chooser) await chooser.click();
  await waitPly(pages[third], 3);
  const halves = await pages[third].$$('#board g.piece.f-merged[data-square="d5"] path.body');
  assert(halves.length === 2, `the merged piece on d5 has ${halves.length} coloured halves`);
  await pages[third].waitForSelector('#actions button[data-machine="takeover"]');
  await pages[third].click('#actions button[data-machine="takeover"]');
  await pages[third].waitForFunction(() => /takeover/.test(document.querySelector('#history').textContent));
  await waitPly(pages[third], 4);
  await move(pages[third], 'd5', 'd6');
  await pages.white.waitForFunction(() => [...document.querySelectorAll('#history li')].length === 5);
  const hist = await pages.white.$$eval('#history li', ls => ls.map(l => l.textContent));
  assert(/takeover/.test(hist[3]) && /d6/.test(hist[4]), `the move list reads ${JSON.stringify(hist)}`);
});

// TILE-2, issue 21: placement from the hand on the open plane, then pan (a
// drag on empty space) and zoom (the buttons) move the window.
test('tile_placement_from_hand_pan_and_zoom', async () => {
  const g = await api('/api/games', { variant: 'tile', sides: 3 });
  const white = await open(seatLink(g, 'white'));
  await waitPly(white, 0);
  await white.click('#hand button[data-figure="Q"]');
  await white.waitForSelector('#board .target');
  await clickSquare(white, 0, 0);
  await waitPly(white, 1);
  const q = await white.$eval('#board g.piece[data-square="0,0"]', e => `${e.dataset.side} ${e.dataset.figure}`);
  assert(q === 'white queen', `0,0 holds ${q}`);
  const vb = () => white.$eval('#board', e => e.getAttribute('viewBox'));
  const before = await vb();
  const box = await cellBox(white, 2, -2);
  await white.mouse.move(box.x + 5, box.y + 5);
  await white.mouse.down();
  await white.mouse.move(box.x + 120, box.y + 60, { steps: 6 });
  await white.mouse.up();
  const panned = await vb();
  assert(panned !== before, 'a drag on empty space did not pan the table');
  await white.click('#zoom button[data-zoom="in"]');
  const zoomed = (await vb()).split(' ').map(Number), p = panned.split(' ').map(Number);
  assert(zoomed[2] < p[2], `zooming in did not narrow the window (${p[2]} -> ${zoomed[2]})`);
  await white.click('#zoom button[data-zoom="fit"]');
  assert(await white.$('#board g.piece[data-square="0,0"]'), 'the queen is gone after fitting');
});

// The open table's coordinate labels as the screen shows them: none
// overlaps another; a column's number lies in the top band and right of
// the rows' band (never in the corner), a row's in the left band and
// below the top one; each lies whole on the board.
async function labelsApart(page, what) {
  const r = await page.evaluate(() => {
    const box = e => { const b = e.getBoundingClientRect(); return { l: b.left, t: b.top, r: b.right, b: b.bottom }; };
    const svg = box(document.querySelector('#board'));
    const [top, left] = [...document.querySelectorAll('#board .coords rect.band')].map(box);
    // (labels beyond the board's edge are not seen)
    const labels = [...document.querySelectorAll('#board .coords text')].map(e => ({ text: e.textContent, ...box(e) }))
      .filter(a => a.r > svg.l && a.l < svg.r && a.b > svg.t && a.t < svg.b);
    return { svg, top, left, labels, viewBox: document.querySelector('#board').getAttribute('viewBox') };
  });
  const where = `${what} (viewBox ${r.viewBox})`;
  // A label is a column's when its middle is in the top band, a row's
  // when in the left band; the corner is both: no label may be there.
  const inside = (x, y, b) => x >= b.l && x <= b.r && y >= b.t && y <= b.b;
  const cols = [], rows = [];
  for (const a of r.labels) {
    const x = (a.l + a.r) / 2, y = (a.t + a.b) / 2, c = inside(x, y, r.top), w = inside(x, y, r.left);
    assert(!(c && w), `${where}: the label ${a.text} is in the corner of the two bands`);
    assert(c || w, `${where}: the label ${a.text} is on no band`);
    (c ? cols : rows).push(a);
  }
  assert(cols.length >= 2 && rows.length >= 2, `${where}: ${cols.length} column and ${rows.length} row labels`);
  const E = 0.5;   // a pixel's rounding
  for (let i = 0; i < r.labels.length; i++) {
    const a = r.labels[i];
    for (let j = i + 1; j < r.labels.length; j++) {
      const b = r.labels[j];
      assert(a.r <= b.l + E || b.r <= a.l + E || a.b <= b.t + E || b.b <= a.t + E,
        `${where}: the labels ${a.text} and ${b.text} overlap`);
    }
    assert(a.l >= r.svg.l - E && a.r <= r.svg.r + E && a.t >= r.svg.t - E && a.b <= r.svg.b + E,
      `${where}: the label ${a.text} is cut by the board's edge`);
  }
  for (const a of cols)
    assert(a.t >= r.top.t - E && a.b <= r.top.b + E && a.l >= r.left.r - E,
      `${where}: the column label ${a.text} is outside the top band or in the corner`);
  for (const a of rows)
    assert(a.l >= r.left.l - E && a.r <= r.left.r + E && a.t >= r.top.b - E,
      `${where}: the row label ${a.text} is outside the left band or in the corner`);
  return cols.length + rows.length;
}

// issue 21: the open table's labels never overlap (the top row's number
// was drawn in the corner over the column numbers), whatever the number of
// colours, the zoom (in to the nearest, out to the farthest) and the
// screen's width.  The bots place and move; the spectator's page zooms.
test('tile_labels_never_overlap', async () => {
  for (const sides of [2, 3, 4, 5, 6]) {
    const names = (await api('/api/variants')).variants.find(v => v.name === 'tile')
      .seat_names.find(e => e.sides === sides).names;
    const g = await api('/api/games', { variant: 'tile', sides, players: names.map(seat => ({ seat, bot: 'random' })) });
    const size = sides % 2 ? { width: 420, height: 900 } : { width: 1100, height: 800 };
    const page = await open(g.spectator, size);
    await page.waitForFunction(n => Number(document.body.dataset.ply) >= n, { timeout: 40000 }, 3 * sides);
    let n = await labelsApart(page, `${sides} sides, fitted`);
    const width = () => page.$eval('#board', e => Number(e.getAttribute('viewBox').split(' ')[2]));
    for (const [dir, most] of [['in', 4], ['out', 20]]) {
      // in to the nearest the page allows, out to the farthest
      for (let i = 1, w = await width(); i <= most; i++) {
        await page.click(`#zoom button[data-zoom="${dir}"]`);
        n += await labelsApart(page, `${sides} sides, zoomed ${dir} ${i} times`);
        if (w === (w = await width())) break;
      }
    }
    await page.click('#zoom button[data-zoom="fit"]');
    n += await labelsApart(page, `${sides} sides, fitted again`);
    console.log(`(${sides} sides at ${size.width} px: ${n} labels checked)`);
    await page.ctx.close();
    env.live = env.live.filter(p => p !== page);
  }
}, 300000);

// AMBI-2, AMBI-3, issue 21: a seat names a square by clicking it; the
// opponent chooses which enemy piece goes there by clicking it, then the square.
test('ambigus_name_a_square_then_the_opponent_chooses', async () => {
  const g = await api('/api/games', { variant: 'ambigus' });
  const white = await open(seatLink(g, 'white'));
  const black = await open(seatLink(g, 'black'));
  await waitPly(white, 0);
  await clickSquare(white, 4, 2);             // e3: only the e-pawn can go
  await waitPly(black, 1);
  await clickSquare(black, 5, 5);             // f6: Pf7 or Ng8, white chooses
  await white.waitForFunction(() => document.body.dataset.phase === 'choose');
  await waitPly(white, 2);
  await move(white, 'g8', 'f6');
  await waitPly(black, 3);
  const f6 = await black.$eval('#board g.piece[data-square="f6"]', e => `${e.dataset.side} ${e.dataset.figure}`);
  assert(f6 === 'black knight', `f6 holds ${f6}`);
});

// ORTH-8, issue 21: a draw offered and accepted with the buttons.
test('orthodox_draw_offer_accepted', async () => {
  const g = await api('/api/games', { variant: 'orthodox' });
  const white = await open(seatLink(g, 'white'));
  const black = await open(seatLink(g, 'black'));
  await waitPly(white, 0); await waitPly(black, 0);
  await white.click('#meta button[data-meta="draw"]');
  await black.waitForSelector('#meta button[data-meta="accept"]');
  await black.click('#meta button[data-meta="accept"]');
  for (const p of [white, black]) {
    await p.waitForFunction(() => document.body.classList.contains('over'));
    const r = await p.$eval('#result', e => e.textContent);
    assert(/1\/2-1\/2/.test(r) && /agreement/.test(r), `the result reads '${r}'`);
  }
});

// issue 21: undo with the consent the variant requires: White's Undo asks
// Black (the offer shown to both and to the spectator), Black declines
// with the page's button, White asks again, Black accepts, and both moves
// are taken back.
test('orthodox_takeback_asked_and_accepted', async () => {
  const g = await api('/api/games', { variant: 'orthodox' });
  const white = await open(seatLink(g, 'white'));
  const black = await open(seatLink(g, 'black'));
  const spect = await open(g.spectator);
  await waitPly(white, 0); await waitPly(black, 0);
  await move(white, 'e2', 'e4');
  await waitPly(black, 1);
  await move(black, 'e7', 'e5');
  for (const p of [white, black, spect]) await waitPly(p, 2);
  await white.click('#meta button[data-meta="undo"]');
  await black.waitForSelector('#meta button[data-meta="takeback accept"]');
  await white.waitForSelector('#meta button[data-meta="takeback cancel"]');
  for (const p of [white, black, spect]) {
    await p.waitForSelector('#info li.takeback');
    const t = await p.$eval('#info li.takeback', e => e.textContent);
    assert(t === 'white asks to take back 2 actions: waiting for black', `the offer reads '${t}'`);
  }
  assert(!(await white.$('#meta button[data-meta="takeback accept"]')), 'the asker may accept its own takeback');
  assert(!(await spect.$('#meta button')), 'the spectator has buttons');
  await black.click('#meta button[data-meta="takeback decline"]');
  for (const p of [white, black]) {
    await p.waitForFunction(() => !document.querySelector('#info li.takeback') &&
      /black declined the takeback white asked/.test(document.querySelector('#notice').textContent));
  }
  await waitPly(white, 2);
  await white.click('#meta button[data-meta="undo"]');
  await black.waitForSelector('#meta button[data-meta="takeback accept"]');
  await black.click('#meta button[data-meta="takeback accept"]');
  for (const p of [white, black, spect]) await waitPly(p, 0);
  for (const p of [white, black, spect]) {
    assert(!(await p.$('#info li.takeback')), 'the offer is still shown after the takeback');
    assert(!(await p.$('#board g.piece[data-square="e4"]')), 'e4 was not taken back');
  }
  for (const p of [white, black, spect]) assert(!p.errors.length, `page errors: ${p.errors}`);
});

// issue 21: a bot plays its seat in the server; the page shows its moves.
test('orthodox_against_a_bot', async () => {
  const g = await api('/api/games', { variant: 'orthodox', players: [{ seat: 'black', bot: 'greedy' }] });
  const white = await open(seatLink(g, 'white'));
  await waitPly(white, 0);
  await move(white, 'e2', 'e4');
  await waitPly(white, 2);
  const seats = await white.$eval('#seats', e => e.textContent);
  assert(/black \(bot greedy\)/.test(seats), `the seats read '${seats}'`);
  await move(white, 'd2', 'd4');
  await waitPly(white, 4);
});

// issue 21: a phone: the board fits the narrow screen and a move is played
// by tapping the piece, then its target.
test('phone_width_tap_tap', async () => {
  const g = await api('/api/games', { variant: 'orthodox' });
  const white = await open(seatLink(g, 'white'), { width: 390, height: 844, touch: true });
  await waitPly(white, 0);
  const board = await (await white.$('#board')).boundingBox();
  assert(board.x >= 0 && board.x + board.width <= 390, `the board is ${board.width} px wide at x ${board.x}`);
  const tap = async (x, y) => { const b = await cellBox(white, x, y); await white.touchscreen.tap(b.x + b.width / 2, b.y + b.height / 2); };
  await tap(6, 0);                            // g1
  await white.waitForSelector('#board .target');
  await tap(5, 2);                            // f3
  await waitPly(white, 1);
  const f3 = await white.$eval('#board g.piece[data-square="f3"]', e => e.dataset.figure);
  assert(f3 === 'knight', `f3 holds ${f3}`);
  const buttons = await white.$$eval('#meta button', bs => bs.map(b => b.getBoundingClientRect().right));
  assert(buttons.every(r => r <= 390), 'a button is off the screen');
  await shot(white, 'phone-orthodox');
});

// issue 21: the server stops and starts again on the same --data mid-game;
// the pages come back by themselves and the game goes on.
test('server_restart_mid_game', async () => {
  const g = await api('/api/games', { variant: 'orthodox' });
  const white = await open(seatLink(g, 'white'));
  await waitPly(white, 0);
  await move(white, 'e2', 'e4');
  await waitPly(white, 1);
  await stopServer();
  await white.waitForFunction(() => document.body.dataset.conn === 'lost');
  const again = await startServer(Number(new URL(env.base).port));
  assert(again === env.base, `the server came back at ${again}, not ${env.base}`);
  const black = await open(seatLink(g, 'black'));
  await waitPly(black, 1);
  await move(black, 'e7', 'e5');
  await white.waitForFunction(() => document.body.dataset.conn === 'connected', { timeout: 40000 });
  await waitPly(white, 2);
  const e5 = await white.$eval('#board g.piece[data-square="e5"]', e => e.dataset.figure);
  assert(e5 === 'pawn', `e5 holds ${e5}`);
});

// issue 21: two tabs on one seat both show each move; either may play.
test('two_tabs_on_one_seat', async () => {
  const g = await api('/api/games', { variant: 'orthodox' });
  const a = await open(seatLink(g, 'white'));
  const b = await open(seatLink(g, 'white'));
  const black = await open(seatLink(g, 'black'));
  await waitPly(a, 0); await waitPly(b, 0);
  await move(a, 'd2', 'd4');
  await waitPly(b, 1);
  await waitPly(black, 1);
  await move(black, 'd7', 'd5');
  await waitPly(a, 2);
  await move(b, 'c2', 'c4');
  await waitPly(a, 3);
  const hist = await a.$$eval('#history li', ls => ls.map(l => l.textContent));
  assert(hist.join(' ') === 'white: d4 black: d5 white: c4', `the move list reads ${JSON.stringify(hist)}`);
});

// issue 21: White's page shows Black online as soon as Black's page opens,
// and away as soon as it closes, with no move between (a seats frame).
test('join_and_leave_shown_at_once', async () => {
  const g = await api('/api/games', { variant: 'orthodox' });
  const white = await open(seatLink(g, 'white'));
  await waitPly(white, 0);
  const shows = state => white.waitForFunction(cls =>
    (document.querySelector('#seats li[data-seat-name="black"]') || {}).className === cls, { timeout: STEP }, state)
    .catch(async () => { throw new Error(`black is not shown ${state}: ${await white.$eval('#seats', e => e.textContent)}`); });
  await shows('off');
  const black = await open(seatLink(g, 'black'));
  await shows('on');
  await black.ctx.close();
  env.live = env.live.filter(p => p !== black);
  await shows('off');
  assert(await white.evaluate(() => document.body.dataset.ply) === '0', 'a move was played');
});

// issue 21: a bot that fails is said on every page (the engine's message),
// not a silent stall.  A server of its own, offering a house rule whose
// veto fails below the game, so the search bot fails and a person does not.
test('failed_bot_is_said', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chessvar-rules-'));
  fs.writeFileSync(path.join(dir, 'deep.lua'), 'rule {\n  name = "Deep",\n  variants = {"orthodox"},\n' +
    '  veto = function(game, action)\n    if game:move_number() > #game:history() + 1 then error("no search here") end\n  end,\n}\n');
  const proc = spawn(CHESSVAR, ['serve', '--port', '0', '--scripts', dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const saved = env.base;
  try {
    env.base = await withTimeout(new Promise((res, rej) => {
      let out = '';
      proc.stdout.on('data', d => { out += d; const m = /(http:\/\/[0-9.:]+:\d+)/.exec(out); if (m) res(m[1]); });
      proc.on('exit', code => rej(new Error(`the second server exited (${code})`)));
    }), STEP, 'a second server');
    const g = await api('/api/games', { variant: 'orthodox', rules: ['deep.lua'], players: [{ seat: 'black', bot: 'search:200' }] });
    const white = await open(seatLink(g, 'white'));
    const spec = await open(g.spectator);
    await waitPly(white, 0);
    await move(white, 'e2', 'e4');
    for (const p of [white, spec]) {
      await p.waitForFunction(() => /the bot of black .*failed: .*no search here/.test(document.querySelector('#notice').textContent), { timeout: STEP })
        .catch(async () => { throw new Error(`no notice of the failed bot: '${await p.$eval('#notice', e => e.textContent)}'`); });
    }
    const seats = await spec.$eval('#seats', e => e.textContent);
    assert(/black \(bot search:200\) — stuck/.test(seats), `the seats read '${seats}'`);
    // a page opened now learns it from its first state
    const late = await open(g.spectator);
    await late.waitForFunction(() => /no search here/.test(document.querySelector('#notice').textContent), { timeout: STEP });
  } finally {
    env.base = saved;
    proc.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// issue 21: a move played by the keyboard alone: Tab reaches the board (one
// tab stop), the arrow keys move the focus square as the board is drawn
// (Black's is upside down), Enter selects and plays; a promotion's chooser
// is answered by the keyboard too.
test('keyboard_plays_a_move', async () => {
  const g = await api('/api/games', { variant: 'orthodox' });
  const white = await open(seatLink(g, 'white'));
  const black = await open(seatLink(g, 'black'));
  await waitPly(white, 0);
  const focusAt = async p => p.$eval('#board .kbfocus', e => ({ x: Number(e.dataset.x), y: Number(e.dataset.y) }));
  async function tabToBoard(p) {
    for (let i = 0; i < 40; i++) {
      await p.keyboard.press('Tab');
      if (await p.evaluate(() => document.activeElement && document.activeElement.id === 'board')) return;
    }
    throw new Error('Tab never reached the board');
  }
  // walk the focus square to a square by arrows: flip says Black's view
  async function walk(p, to, flip) {
    for (let i = 0; i < 20; i++) {
      const f = await focusAt(p);
      if (f.x === to.x && f.y === to.y) return;
      const right = flip ? 'ArrowLeft' : 'ArrowRight', left = flip ? 'ArrowRight' : 'ArrowLeft';
      const up = flip ? 'ArrowDown' : 'ArrowUp', down = flip ? 'ArrowUp' : 'ArrowDown';
      await p.keyboard.press(f.x < to.x ? right : f.x > to.x ? left : f.y < to.y ? up : down);
    }
    throw new Error(`the focus square did not reach ${to.x},${to.y}: at ${JSON.stringify(await focusAt(p))}`);
  }
  async function play(p, from, to, flip, ply) {
    await walk(p, sq(from), flip);
    await p.keyboard.press('Enter');
    await p.waitForSelector('#board .target');
    await walk(p, sq(to), flip);
    await p.keyboard.press(' ');
    await waitPly(p, ply);
  }
  await tabToBoard(white);
  await play(white, 'e2', 'e4', false, 1);
  await waitPly(black, 1);
  await tabToBoard(black);
  await play(black, 'd7', 'd5', true, 2);
  // White's page must have Black's reply before White picks a piece: a
  // frame that lands between Enter and the targets redraws the board
  // without them (fresh-clone CI, sanitized build: no targets in 15 s)
  await waitPly(white, 2);
  // the board kept the focus: White goes on without Tab
  await play(white, 'e4', 'd5', false, 3);
  const d5 = await white.$eval('#board g.piece[data-square="d5"]', e => e.dataset.side);
  assert(d5 === 'white', `d5 holds ${d5}`);
});

// TILE-2, issue 21: Tile placements from the hand by the keyboard alone
// (no mouse): Tab reaches the hand (one tab stop), the arrow keys move
// along it, Enter picks the figure and the board takes the focus on a
// square where it may go; the arrow keys move the focus square (up is +y
// on the open table) and Enter places.  On the board a figure's letter
// picks it too.  Masqués' setup uses the same hand.
test('tile_placement_from_the_hand_by_keyboard', async () => {
  const g = await api('/api/games', { variant: 'tile', params: { pawns: 0 } });
  const pages = { white: await open(seatLink(g, 'white')), black: await open(seatLink(g, 'black')) };
  await waitPly(pages.white, 0);
  const focused = p => p.evaluate(() => {
    const e = document.activeElement;
    return e && e.id === 'board' ? 'board' : e && e.dataset.figure ? `hand ${e.dataset.figure}` : (e && e.tagName) || '';
  });
  const focusAt = p => p.$eval('#board .kbfocus', e => ({ x: Number(e.dataset.x), y: Number(e.dataset.y) }));
  async function walk(p, to) {
    for (let i = 0; i < 30; i++) {
      const f = await focusAt(p);
      if (f.x === to.x && f.y === to.y) return;
      await p.keyboard.press(f.x < to.x ? 'ArrowRight' : f.x > to.x ? 'ArrowLeft' : f.y < to.y ? 'ArrowUp' : 'ArrowDown');
    }
    throw new Error(`the focus square did not reach ${to.x},${to.y}: at ${JSON.stringify(await focusAt(p))}`);
  }
  // Tab until the hand, then the arrows along it to the figure, Enter.
  async function pickByTab(p, fig) {
    for (let i = 0; i < 40 && !(await focused(p)).startsWith('hand'); i++) await p.keyboard.press('Tab');
    assert((await focused(p)).startsWith('hand'), `Tab never reached the hand (at ${await focused(p)})`);
    for (let i = 0; i < 8 && await focused(p) !== `hand ${fig}`; i++) await p.keyboard.press('ArrowRight');
    assert(await focused(p) === `hand ${fig}`, `the arrows did not reach ${fig} in the hand (at ${await focused(p)})`);
    await p.keyboard.press('Enter');
  }
  const line = [['white', 'Q', 0, 0, 'tab'], ['black', 'Q', 0, -1, 'tab'], ['white', 'R', -1, 1, 'letter'],
    ['black', 'R', -2, 2, 'tab'], ['white', 'N', -1, 0, 'letter'], ['black', 'B', 0, -2, 'letter']];
  let ply = 0;
  for (const [seat, fig, x, y, how] of line) {
    const p = pages[seat];
    await waitPly(p, ply);
    if (how === 'tab') {
      await pickByTab(p, fig);
    } else {
      if (await focused(p) !== 'board') await p.focus('#board');
      await p.keyboard.press(fig.toLowerCase());
    }
    assert(await focused(p) === 'board', `${seat}: picking ${fig} did not give the board the focus (at ${await focused(p)})`);
    assert(await p.$eval(`#hand button[data-figure="${fig}"]`, b => b.getAttribute('aria-pressed')) === 'true', `${seat}: ${fig} is not picked`);
    await walk(p, { x, y });
    await p.keyboard.press('Enter');
    await waitPly(p, ++ply);
    const placed = await p.$eval(`#board g.piece[data-square="${x},${y}"]`, e => `${e.dataset.side} ${e.dataset.figure}`);
    assert(placed.startsWith(seat), `${x},${y} holds ${placed} after ${seat} placed ${fig}`);
  }
  const st = await stateOf(pages.white, g.game, '');
  const hist = st.history.map(e => e.machine).join(' ');
  assert(hist === 'Q@0,0 Q@0,-1 R@-1,1 R@-2,2 N@-1,0 B@0,-2', `the placements: ${hist}`);
  for (const p of Object.values(pages)) assert(!p.errors.length, `the page had errors: ${p.errors}`);
});

// issue 21: a forged token and an unknown game are refused with the
// server's message, and the page shows no board and does not retry.
test('forged_token_and_unknown_game_refused', async () => {
  const g = await api('/api/games', { variant: 'masques' });
  const link = seatLink(g, 'white').replace(/t=[0-9a-f]+/, `t=${'0'.repeat(32)}`);
  for (const l of [link, '/#g=ffffffffffffffff']) {
    const p = await open(l);
    await p.waitForFunction(() => document.querySelector('#error').textContent !== '');
    const err = await p.$eval('#error', e => e.textContent);
    assert(err.length > 5, `the refusal reads '${err}'`);
    const n = await p.$$eval('#board g.piece', els => els.length);
    assert(n === 0, `a refused page shows ${n} pieces`);
    assert(await p.evaluate(() => document.body.dataset.conn) === 'refused', 'the page does not say it was refused');
    console.log(`(refused: ${err})`);
  }
});

// TILE-1, issue 21: six devices, six colours: the table placed at random,
// then each seat plays one move by clicking on its own page.
test('tile_six_sides_a_round_by_clicks', async () => {
  const g = await api('/api/games', { variant: 'tile', sides: 6 });
  assert(g.seats.length === 6, `six seats, got ${g.seats.length}`);
  const pages = {};
  for (const st of g.seats) pages[st.seat] = await open(st.link, { width: 900, height: 900 });
  await waitPly(pages.white, 0);
  await pages.white.type('#typed-text', 'random\n');
  let st = await stateOf(pages.white, g.game, '');
  for (let i = 0; i < 50 && st.view.phase !== 'play'; i++) {
    await pages.white.evaluate(() => new Promise(r => setTimeout(r, 100)));
    st = await stateOf(pages.white, g.game, '');
  }
  assert(st.view.phase === 'play', `the table is still in ${st.view.phase}`);
  // Each person but the one to act zooms in (the window no longer follows
  // the pieces): when its turn comes, the window shows its legal squares
  // again.
  for (const [seat, p] of Object.entries(pages))
    if (seat !== st.view.seat_to_act)
      for (let i = 0; i < 3; i++) await p.click('#zoom [data-zoom="in"]');
  for (let turn = 0; turn < 6; turn++) {
    st = await stateOf(pages.white, g.game, '');
    if (st.status.status.over) break; // the status answer holds the status object
    const seat = st.view.seat_to_act;
    const p = pages[seat];
    await waitPly(p, st.ply);
    const mine = await stateOf(p, g.game, tokenOf(g.seats.find(x => x.seat === seat).link));
    // Every square of the seat's legal list is inside the board's window
    // (the table follows the pieces and the targets), so each can be
    // clicked: the window is the SVG's box, its viewBox mapped on it.
    const outside = await p.evaluate(detail => {
      const svg = document.querySelector('#board');
      const r = svg.getBoundingClientRect();
      const bad = [];
      for (const d of detail) {
        for (const q of [d.from, d.to]) {
          if (!q) continue;
          const c = svg.querySelector(`rect.cell[data-x="${q.x}"][data-y="${q.y}"]`);
          const b = c && c.getBoundingClientRect();
          if (!b || b.left < r.left - 0.5 || b.right > r.right + 0.5 || b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5)
            bad.push(`${q.x},${q.y}`);
        }
      }
      return { bad, viewBox: svg.getAttribute('viewBox'), w: r.width, h: r.height };
    }, mine.legal.detail);
    assert(!outside.bad.length, `${seat}: squares of its legal list outside the window: ${outside.bad.slice(0, 8)} (viewBox ${outside.viewBox}, ${outside.w}x${outside.h})`);
    const d = mine.legal.detail.find(x => x.from && x.to);
    if (d) {
      await clickSquare(p, d.from.x, d.from.y);
      await p.waitForSelector('#board .target');
      await clickSquare(p, d.to.x, d.to.y);
      const c = await p.waitForSelector('#chooser:not([hidden]) button.choice', { timeout: 1000 }).catch(() => null);
      if (c) await c.click();
    } else {
      const b = await p.$('#actions button.act');
      assert(b, `${seat}: no move and no button: ${JSON.stringify(mine.legal.detail.slice(0, 3))}`);
      await b.click();
    }
    await waitPly(p, st.ply + 1);
  }
  const colours = new Set(await pages.white.$$eval('#board g.piece circle.body', els => els.map(e => e.getAttribute('fill'))));
  assert(colours.size === 6, `the table shows ${colours.size} colours`);
  const hist = await pages.yellow.$$eval('#history li', ls => ls.map(l => l.textContent));
  for (const side of ['white', 'black', 'red', 'blue', 'green', 'yellow'])
    assert(hist.slice(-6).some(t => t.startsWith(`${side}:`)), `${side} has no move in ${JSON.stringify(hist.slice(-6))}`);
});

// issue 21: each variant's board, drawn from the view: a piece element per
// piece of the view with its figure; the screenshots are the artefacts.
const BOARDS = [
  { name: 'orthodox', body: { variant: 'orthodox' }, play: ['e4', 'e5', 'Nf3'] },
  { name: 'masques', body: { variant: 'masques' }, play: ['standard', 'standard', 'e2e4'] },
  { name: 'ambigus', body: { variant: 'ambigus' }, play: ['e4', 'e5'] },
  { name: 'echiquete', body: { variant: 'echiquete', seats: 3 }, play: ['e4', 'd5', 'exd5=P*'] },
  { name: 'tile-6', body: { variant: 'tile', sides: 6 }, play: ['random'] },
];
for (const b of BOARDS) {
  test(`board_screenshot_${b.name}`, async () => {
    const g = await api('/api/games', b.body);
    const pages = {};
    for (const s of g.seats) pages[s.seat] = await open(s.link);
    let ply = 0;
    for (const text of b.play) {
      const st = await stateOf(Object.values(pages)[0], g.game, '');
      const actor = st.view.seat_to_act || st.status.to_act;
      const p = pages[actor];
      assert(p, `no page for the seat to act '${actor}'`);
      await waitPly(p, st.ply);
      await p.type('#typed-text', `${text}\n`);
      await p.waitForFunction(n => Number(document.body.dataset.ply) > n || document.querySelector('#error').textContent, {}, st.ply);
      const e = await p.$eval('#error', el => el.textContent);
      assert(!e, `${text}: ${e}`);
      ply = st.ply;
    }
    const first = g.seats[0];
    const page = pages[first.seat];
    const board = await open(g.board, { width: 1280, height: 800 });
    const st = await stateOf(page, g.game, tokenOf(first.link));
    await waitPly(page, st.ply);
    await checkPieces(page, st.view);
    await shot(page, `${b.name}`);
    const bst = await stateOf(page, g.game, '');
    await waitPly(board, bst.ply);
    await checkPieces(board, bst.view);
    await shot(board, `${b.name}-board`);
    if (b.name === 'tile-6') {
      const sides = new Set(await page.$$eval('#board g.piece', els => els.map(e => e.dataset.side)));
      assert(sides.size === 6, `the six-colour table shows ${sides.size} colours`);
      const fills = new Set(await page.$$eval('#board g.piece circle.body', els => els.map(e => e.getAttribute('fill'))));
      assert(fills.size === 6, `six sides drawn in ${fills.size} colours`);
    }
    if (b.name === 'echiquete') {
      const merged = await page.$$('#board g.piece.f-merged path.body');
      assert(merged.length === 2, `the merged piece is drawn with ${merged.length} halves`);
    }
    void ply;
    for (const p of [...Object.values(pages), board]) await p.ctx.close();
  });
}

// issue 21: a lost connection is shown and the page comes back by itself
// and resumes: the page talks to the server through a proxy that the test
// cuts, as a dropped network would.
test('reconnect_after_lost_connection', async () => {
  const net = require('net');
  const target = new URL(env.base);
  const socks = new Set();
  const proxy = net.createServer(c => {
    const u = net.connect(Number(target.port), target.hostname);
    socks.add(c); socks.add(u);
    c.pipe(u); u.pipe(c);
    const drop = () => { c.destroy(); u.destroy(); socks.delete(c); socks.delete(u); };
    c.on('error', drop); u.on('error', drop); c.on('close', drop); u.on('close', drop);
  });
  await new Promise(r => proxy.listen(0, '127.0.0.1', r));
  const via = `http://127.0.0.1:${proxy.address().port}`;
  try {
    const g = await api('/api/games', { variant: 'orthodox' });
    const ctx = await env.browser.createBrowserContext();
    const white = await ctx.newPage();
    white.setDefaultTimeout(STEP);
    await white.goto(via + seatLink(g, 'white'));
    await waitPly(white, 0);
    for (const k of socks) k.destroy();
    await white.waitForFunction(() => document.body.dataset.conn === 'lost');
    await white.waitForFunction(() => document.body.dataset.conn === 'connected');
    await move(white, 'e2', 'e4');
    await waitPly(white, 1);
    await ctx.close();
  } finally {
    for (const k of socks) k.destroy();
    proxy.close();
  }
});

main();
