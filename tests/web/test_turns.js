#!/usr/bin/env node
// House rules that change who moves when, in the browser (issue 25): the
// lobby offers the schedules of scripts/ (monster.lua, marseillais.lua ...)
// as it offers every script that loads for the variant, the lab as scripts
// to start from; a Monster-chess game between two pages shows "white: move
// 1 of 2", then "white: move 2 of 2" on both pages while White moves
// again, then "black: move 1 of 1", numbers the turns in the history, and
// is played by clicks to its end
// (Black promotes on a1 and mates the King White walks d1-e1 each turn);
// in duck chess (scripts/duck.lua on the fairy variant) White places the
// duck by a click on an empty square, drawn as a duck for both pages.
//
//   node tests/web/test_turns.js            (make test-web)
// Environment: as tests/web/lib.js says.
'use strict';
const { STEP, env, test, assert, open, waitPly, clickSquare, shot, main } = require('./lib.js');

// A game of variant with the house rule `rule` chosen in the lobby, two
// persons: their pages, at ply 0.
async function lobbyGame(variant, rule) {
  const lobby = await open('/');
  await lobby.waitForSelector(`#variant option[value="${variant}"]`);
  await lobby.select('#variant', variant);
  await lobby.waitForSelector(`#rules input[value="${rule}"]`);
  await lobby.click(`#rules input[value="${rule}"]`);
  await lobby.click('#create-btn');
  await lobby.waitForFunction(() => document.querySelectorAll('#links .seat-link').length === 2, { timeout: STEP });
  assert(!(await lobby.$eval('#create-error', e => e.textContent)), 'creating was refused');
  const [wl, bl] = await lobby.$$eval('#links .seat-link a', as => as.map(a => a.href));
  const w = await open(wl.slice(env.base.length)), b = await open(bl.slice(env.base.length));
  await waitPly(w, 0);
  await waitPly(b, 0);
  return { lobby, w, b };
}

// The line under the turn indicator ('' when hidden).
const turnLine = p => p.$eval('#turn-moves', e => (e.hidden ? '' : e.textContent));

async function waitTurnLine(p, want) {
  await p.waitForFunction(w => { const e = document.querySelector('#turn-moves'); return !e.hidden && e.textContent === w; },
    { timeout: STEP }, want).catch(async () => { throw new Error(`the turn line is '${await turnLine(p)}', not '${want}'`); });
}

// Two clicks move the piece on `from` to `to` ([file, rank], 0-based); both
// pages reach ply.  A promotion is chosen by its machine text.
async function move(p, other, from, to, ply, machine) {
  await clickSquare(p, from[0], from[1]);
  await p.waitForSelector(`#board circle.target[data-x="${to[0]}"][data-y="${to[1]}"]`);
  await clickSquare(p, to[0], to[1]);
  if (machine) {
    await p.waitForSelector(`#chooser button.choice[data-machine="${machine}"]`);
    await p.click(`#chooser button.choice[data-machine="${machine}"]`);
  }
  await waitPly(p, ply);
  await waitPly(other, ply);
}

// issue 25: Monster chess chosen in the lobby, two pages: White's two moves
// a turn and Black's one said on both pages, the turns numbered in the
// history; played by clicks to Black's mate (White: Kd1 Ke1 each turn;
// Black: a5 a4 a3 a2 a1=Q#, the King held by its own pawns d2 e2 f2).
test('issue25_monster_move_2_of_2_on_both_pages_to_the_end', async () => {
  const { lobby, w, b } = await lobbyGame('orthodox', 'monster.lua');
  const offered = await lobby.$$eval('#rules input[type="checkbox"]', cs => cs.map(c => c.value));
  for (const f of ['monster.lua', 'marseillais.lua', 'progressive.lua', 'balanced.lua', 'double_move.lua'])
    assert(offered.includes(f), `the lobby offers ${offered} for orthodox`);
  // the lab offers them to start from too
  const lab = await open('/#lab');
  for (const f of ['monster.lua', 'marseillais.lua', 'progressive.lua', 'balanced.lua', 'double_move.lua', 'duck.lua'])
    await lab.waitForSelector(`#lab-script option[value="${f}"]`);
  await waitTurnLine(w, 'white: move 1 of 2');
  await waitTurnLine(b, 'white: move 1 of 2');
  await move(w, b, [4, 0], [3, 0], 1); // Kd1
  await waitTurnLine(w, 'white: move 2 of 2');
  await waitTurnLine(b, 'white: move 2 of 2');
  await shot(w, 'turns-monster');
  // White again: its pieces movable on its page, nothing on Black's
  assert(await w.$('#board rect.movable'), 'White cannot move again on its page');
  assert(!(await b.$('#board rect.movable')), 'Black may move during White\'s turn');
  await move(w, b, [3, 0], [4, 0], 2); // Ke1
  await waitTurnLine(w, 'black: move 1 of 1');
  await waitTurnLine(b, 'black: move 1 of 1');
  await move(b, w, [0, 6], [0, 4], 3); // a5
  const hist = await w.$$eval('#history li', ls => ls.map(l => l.textContent));
  assert(JSON.stringify(hist) === JSON.stringify(['1. white: Kd1', 'white: Ke1', '2. black: a5']),
    `the history: ${JSON.stringify(hist)}`);
  await waitTurnLine(w, 'white: move 1 of 2');
  let ply = 3;
  for (const rank of [4, 3, 2]) { // a4 a3 a2, White's King d1-e1 between
    await move(w, b, [4, 0], [3, 0], ++ply);
    await move(w, b, [3, 0], [4, 0], ++ply);
    await move(b, w, [0, rank], [0, rank - 1], ++ply);
  }
  await move(w, b, [4, 0], [3, 0], ++ply);
  await move(w, b, [3, 0], [4, 0], ++ply);
  await move(b, w, [0, 1], [0, 0], ++ply, 'a2a1q'); // a1=Q#
  for (const p of [w, b]) {
    await p.waitForFunction(() => document.body.classList.contains('over'), { timeout: STEP });
    assert(await turnLine(p) === '', `the turn line stays once over: '${await turnLine(p)}'`);
    const result = await p.$eval('#result', e => e.textContent);
    assert(/^0-1/.test(result) && /checkmate/.test(result), `the result: ${result}`);
  }
  const last = await b.$$eval('#history li', ls => ls.slice(-3).map(l => l.textContent));
  assert(JSON.stringify(last) === JSON.stringify(['9. white: Kd1', 'white: Ke1', '10. black: a1=Q#']),
    `the history's end: ${JSON.stringify(last)}`);
  assert(w.errors.length === 0 && b.errors.length === 0, `page errors: ${w.errors} ${b.errors}`);
});

// issue 25 (TURN-4): duck chess (scripts/duck.lua, fairy variant): after
// e4 White is asked to place the duck ("white: place the duck", the duck
// button in the place box); a click on the empty square e5 places it
// ("@e5"), drawn as a duck, nobody's, on both pages, and Black is to move.
test('issue25_duck_placed_by_a_click', async () => {
  const { w, b } = await lobbyGame('fairy', 'duck.lua');
  await waitTurnLine(w, 'white: move 1 of 1');
  await move(w, b, [4, 1], [4, 3], 1); // e4
  await waitTurnLine(w, 'white: place the duck');
  await waitTurnLine(b, 'white: place the duck');
  await w.waitForSelector('#hand button.hand-piece.duck[data-figure="*"]');
  // every empty square is a target, no occupied one
  await w.waitForSelector('#board circle.target[data-x="4"][data-y="4"]');
  assert(!(await w.$('#board circle.target[data-x="4"][data-y="3"]')), 'the duck may land on the pawn');
  await clickSquare(w, 4, 4);
  await waitPly(w, 2);
  await waitPly(b, 2);
  for (const p of [w, b]) {
    const duck = await p.$eval('#board g.piece[data-square="e5"]', e => ({ figure: e.dataset.figure, side: e.dataset.side, body: !!e.querySelector('ellipse.duck') }));
    assert(duck.figure === 'duck' && duck.side === 'null' && duck.body, `e5: ${JSON.stringify(duck)}`);
  }
  const hist = await b.$$eval('#history li', ls => ls.map(l => l.textContent));
  assert(JSON.stringify(hist) === JSON.stringify(['1. white: e4', 'white: @e5']), `the history: ${JSON.stringify(hist)}`);
  await waitTurnLine(b, 'black: move 1 of 1');
  await shot(w, 'turns-duck');
  assert(w.errors.length === 0 && b.errors.length === 0, `page errors: ${w.errors} ${b.errors}`);
});

main();
