#!/usr/bin/env node
// Chess from parts in the browser (issue 24, "a user writes a new piece in
// one line and plays it ... in the browser"): in the #lab editor a rule of
// one line gives the fairy variant a new piece; "Try it" opens the game and
// the piece moves by two clicks.  The scripts of scripts/variants/ are
// offered by `chessvar serve` (the folders of --scripts, one level down):
// Capablanca chess on its 10 x 8 board, its archbishop moved by click
// (docs/web-fairy.png), and crazyhouse, a Knight dropped from the hand by
// clicks on the hand and the square, in a game from the lab and in one
// chosen in the lobby (two persons, captures going to the hands).
//
//   node tests/web/test_fairy.js            (make test-web)
// Environment: as tests/web/lib.js says.
'use strict';
const fs = require('fs');
const path = require('path');
const { ROOT, STEP, env, test, assert, open, waitPly, clickSquare, stateOf, checkPieces, shot, main } = require('./lib.js');

async function waitCheck(p, want) {
  await p.waitForSelector(`#lab[data-check="${want}"]`, { timeout: 2 * STEP })
    .catch(async () => { throw new Error(`the check did not come out ${want}: status '${await p.$eval('#lab-status', e => e.textContent)}', error '${await p.$eval('#lab-error', e => e.textContent)}'`); });
}

// Replace the editor's text as a person would: select all, type.
async function typeRule(p, text) {
  await p.click('#lab-text');
  await p.keyboard.down('Control');
  await p.keyboard.press('a');
  await p.keyboard.up('Control');
  await p.keyboard.press('Backspace');
  await p.type('#lab-text', text, { delay: 0 });
}

// "Try it" against the greedy bot: the game's page as the first seat; the
// game's id and the seat's token.
async function tryIt(p) {
  await p.select('#lab-bot', 'greedy');
  await Promise.all([p.waitForNavigation({ timeout: STEP }).catch(() => {}), p.click('#lab-try')]);
  await p.waitForFunction(() => /#g=[0-9a-f]+&t=/.test(location.hash), { timeout: STEP });
  await waitPly(p, 0);
  const q = new URLSearchParams(p.url().split('#')[1]);
  return { game: q.get('g'), token: q.get('t') };
}

// Load a script of --scripts into the editor (the lab's "Start from").
async function loadScript(p, file) {
  await p.waitForSelector(`#lab-script option[value="${file}"]`);
  await p.select('#lab-script', file);
  await p.click('#lab-load');
  const text = fs.readFileSync(path.join(ROOT, 'scripts', file), 'utf8');
  await p.waitForFunction(f => document.querySelector('#lab-text').value === f, { timeout: STEP }, text);
  return text;
}

// Two clicks move the piece on `from` to `to` (squares as [file, rank],
// 0-based); the bot answers.
async function clickMove(p, from, to, ply) {
  await clickSquare(p, from[0], from[1]);
  await p.waitForSelector(`#board circle.target[data-x="${to[0]}"][data-y="${to[1]}"]`);
  await clickSquare(p, to[0], to[1]);
  await waitPly(p, ply);
}

// issue 24: the piece of one line, `A archbishop BN 8` in place of the
// Queen, typed in the lab for the fairy variant, checked clean, tried, and
// moved by two clicks as the knight it partly is (d1-e3).
const ONE_LINE = 'rule { name = "Archbishop", variants = {"fairy"}, ruleset = { pieces = {"A archbishop BN 8"}, ' +
  'start = "rnbakbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBAKBNR w KQkq - 0 1" } }\n';
test('issue24_a_piece_of_one_line_typed_in_the_lab_and_moved_by_click', async () => {
  const p = await open('/#lab');
  await p.waitForSelector('#lab-text');
  await waitCheck(p, 'ok');
  await p.waitForSelector('#lab-variant option[value="fairy"]');
  await p.select('#lab-variant', 'fairy');
  await typeRule(p, ONE_LINE);
  await waitCheck(p, 'ok');
  const status = await p.$eval('#lab-status', e => e.textContent);
  assert(status.includes('ok (Archbishop)') && status.includes('fairy'), `status: ${status}`);
  const { game, token } = await tryIt(p);
  const games = await (await fetch(env.base + '/api/games')).json();
  const g = games.games.find(x => x.game === game);
  assert(g && g.variant === 'fairy', `the game: ${JSON.stringify(g)}`);
  const s0 = await stateOf(p, game, token);
  const drawn = await checkPieces(p, s0.view);
  const d1 = drawn.find(x => x.square === 'd1');
  assert(d1.figure === 'A' && d1.letter === 'A', `d1: ${JSON.stringify(d1)}`);
  assert(await p.$('#board g.piece[data-square="d1"] rect.body'), 'the archbishop is not drawn as a lettered piece');
  // its targets: the knight's c3 and e3 (the bishop's lines are blocked)
  await clickSquare(p, 3, 0);
  await p.waitForSelector('#board circle.target[data-x="4"][data-y="2"]');
  const targets = await p.$$eval('#board circle.target', c => c.map(e => `${e.dataset.x},${e.dataset.y}`).sort());
  assert(targets.join(' ') === '2,2 4,2', `the archbishop's targets: ${targets}`);
  await clickSquare(p, 4, 2);
  await waitPly(p, 2); // the bot answered
  const s2 = await stateOf(p, game, token);
  await checkPieces(p, s2.view);
  assert(s2.view.pieces.find(x => x.square === 'e3').figure === 'A', 'no archbishop on e3');
  assert(p.errors.length === 0, `page errors: ${p.errors}`);
});

// issue 24: Capablanca chess, scripts/variants/capablanca.lua as shipped,
// offered by `chessvar serve` and loaded into the lab: the 10 x 8 board
// (files a..j), the archbishop c1-d3 by click; the picture of
// docs/web-fairy.png.
test('issue24_capablanca_from_scripts_variants_on_its_10x8_board', async () => {
  const p = await open('/#lab');
  await p.waitForSelector('#lab-text');
  await waitCheck(p, 'ok');
  await loadScript(p, 'variants/capablanca.lua');
  assert(await p.$eval('#lab-variant', s => s.value) === 'fairy', 'the lab did not switch to the fairy variant');
  await waitCheck(p, 'ok');
  const { game, token } = await tryIt(p);
  assert(await p.$$eval('#board rect.cell', c => c.length) === 80, 'not a board of 80 squares');
  const labels = await p.$$eval('#board g.coords text', els => els.map(e => e.textContent));
  assert(labels.includes('j') && !labels.includes('k') && labels.includes('8') && !labels.includes('9'), `labels: ${labels}`);
  await checkPieces(p, (await stateOf(p, game, token)).view);
  await clickMove(p, [2, 0], [3, 2], 2);
  const s2 = await stateOf(p, game, token);
  await checkPieces(p, s2.view);
  assert(s2.view.pieces.find(x => x.square === 'd3').figure === 'A', 'no archbishop on d3');
  await shot(p, 'fairy');
  assert(p.errors.length === 0, `page errors: ${p.errors}`);
});

// issue 24 (PART-6): crazyhouse, scripts/variants/crazyhouse.lua from the
// lab's list, its start given a Knight in White's hand: the hand is shown
// under the board, a click on its Knight and one on f3 drop it (N@f3).
test('issue24_crazyhouse_drop_from_the_hand_by_click', async () => {
  const p = await open('/#lab');
  await p.waitForSelector('#lab-text');
  await waitCheck(p, 'ok');
  const file = await loadScript(p, 'variants/crazyhouse.lua');
  const text = file.replace('RNBQKBNR[] w', 'RNBQKBNR[N] w');
  assert(text !== file, 'the start of scripts/variants/crazyhouse.lua was not found');
  await p.$eval('#lab-text', (t, v) => { t.value = v; t.dispatchEvent(new Event('input')); }, text);
  await waitCheck(p, 'ok');
  const { game, token } = await tryIt(p);
  await p.waitForSelector('#hand button.hand-piece[data-figure="N"]');
  await p.click('#hand button.hand-piece[data-figure="N"]');
  await p.waitForSelector('#board circle.target[data-x="5"][data-y="2"]');
  await clickSquare(p, 5, 2);
  await waitPly(p, 2);
  const s2 = await stateOf(p, game, token);
  await checkPieces(p, s2.view);
  assert(s2.view.pieces.find(x => x.square === 'f3').figure === 'knight', 'no Knight on f3');
  assert(!(s2.view.hand || []).some(h => h.side === 'white' && h.count > 0), `white's hand: ${JSON.stringify(s2.view.hand)}`);
  assert(!(await p.$('#hand button.hand-piece[data-figure="N"]')), 'the Knight is still in the hand shown');
  assert(p.errors.length === 0, `page errors: ${p.errors}`);
});

// issue 24 (PART-6): crazyhouse chosen in the lobby as a person would:
// the variant fairy, the house rule variants/crazyhouse.lua among those
// offered for it, two persons; by clicks on two pages 1. e4 d5 2. exd5
// Qxd5, each capture goes to the capturer's hand, shown on both pages
// (White's hand under White's board, over Black's), and White drops the
// pawn on e6 from its hand.
test('issue24_crazyhouse_chosen_in_the_lobby_captures_to_the_hand_and_a_drop', async () => {
  const lobby = await open('/');
  await lobby.waitForSelector('#variant option[value="fairy"]');
  await lobby.select('#variant', 'fairy');
  const offered = await lobby.$$eval('#rules input[type="checkbox"]', cs => cs.map(c => c.value));
  for (const f of ['variants/crazyhouse.lua', 'variants/capablanca.lua', 'variants/atomic.lua'])
    assert(offered.includes(f), `the lobby offers ${offered} for fairy`);
  assert(!offered.includes('king_of_the_hill.lua'), 'a rule of orthodox is offered for fairy');
  await lobby.click('#rules input[value="variants/crazyhouse.lua"]');
  await lobby.click('#create-btn');
  await lobby.waitForFunction(() => document.querySelectorAll('#links .seat-link').length === 2, { timeout: STEP });
  assert(!(await lobby.$eval('#create-error', e => e.textContent)), 'creating was refused');
  const [wl, bl] = await lobby.$$eval('#links .seat-link a', as => as.map(a => a.href));
  const w = await open(wl.slice(env.base.length)), b = await open(bl.slice(env.base.length));
  await waitPly(w, 0);
  await waitPly(b, 0);
  const move = async (p, from, to, ply) => {
    await clickMove(p, from, to, ply);
    await waitPly(p === w ? b : w, ply);
  };
  await move(w, [4, 1], [4, 3], 1); // e4
  await move(b, [3, 6], [3, 4], 2); // d5
  await move(w, [4, 3], [3, 4], 3); // exd5
  await move(b, [3, 7], [3, 4], 4); // Qxd5
  const handOf = (p, sel) => p.$$eval(`${sel} .hand-piece`, es => es.map(e => e.dataset.figure).join());
  assert(await handOf(w, '#hand') === 'P' && await handOf(w, '#hand-top') === 'P', 'the hands on White\'s page');
  assert(await handOf(b, '#hand') === 'P' && await handOf(b, '#hand-top') === 'P', 'the hands on Black\'s page');
  await w.click('#hand button.hand-piece[data-figure="P"]');
  await w.waitForSelector('#board circle.target[data-x="4"][data-y="5"]');
  // no pawn drop on the first or last rank
  assert(!(await w.$('#board circle.target[data-x="4"][data-y="7"]')), 'a pawn may be dropped on the last rank');
  await clickSquare(w, 4, 5);
  await waitPly(b, 5);
  const g = new URLSearchParams(wl.split('#')[1]);
  const s5 = await stateOf(w, g.get('g'), g.get('t'));
  await checkPieces(w, s5.view);
  assert(s5.view.pieces.find(x => x.square === 'e6').figure === 'pawn', 'no pawn on e6');
  assert(await handOf(b, '#hand-top') === '', `White's hand on Black's page: ${await handOf(b, '#hand-top')}`);
  assert(w.errors.length === 0 && b.errors.length === 0, `page errors: ${w.errors} ${b.errors}`);
});

main();
