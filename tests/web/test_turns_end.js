#!/usr/bin/env node
// Each schedule of scripts/ plays to its end in the browser (issue 25):
// a lobby game with the house rule chosen and the server's greedy bots in
// both seats, watched by a spectator's page; every state the page shows
// has the turn line (#turn-moves) the schedule asks for, read from the
// script's own words and the game's history (Marseillais: "white: move 1
// of 1", then "black: move 1 of 2", "black: move 2 of 2" ...), and the
// game reaches "Game over" with the line gone.  Monster chess is
// test_turns.js's, the duck test_fairy's.
//
//   node tests/web/test_turns_end.js        (make test-web)
// Environment: as tests/web/lib.js says.
'use strict';
const { STEP, env, test, assert, open, main } = require('./lib.js');

// The schedules, as their scripts say: the moves of turn `t` (1, 2 ...)
// of `side`, once `j` moves of it are made, the last being `last` (its
// history text).
const SCHEDULES = {
  'marseillais.lua': t => (t === 1 ? 1 : 2),
  'progressive.lua': t => Math.min(t, 64),
  'balanced.lua': t => (t === 1 ? 1 : 2),
  'double_move.lua': () => 2,
  // Black moves again after each capture: the j-th move of a Black turn
  // is "j of j"
  'black_extra_capture.lua': (t, side, j, last) => (side === 'black' && j > 0 && /x/.test(last) ? j + 1 : Math.max(j, 1)),
};

// Whether a turn may stop short of its moves after `last`: in orthodox
// chess a move that gives check ends the turn (TURN-2, ORTH-6); Échecs
// ambigus has no check (AMBI-4).
const SHORT = { orthodox: last => /[+#]/.test(last), ambigus: () => false };

// Lobby: `variant` with `rule`, White a person, Black the greedy bot;
// White's page, recording from its start each state it draws: [ply, turn
// line].
async function botGame(variant, rule) {
  const lobby = await open('/');
  await lobby.waitForSelector(`#variant option[value="${variant}"]`);
  await lobby.select('#variant', variant);
  await lobby.waitForSelector(`#rules input[value="${rule}"]`);
  await lobby.click(`#rules input[value="${rule}"]`);
  await lobby.select('[data-seat="black"]', 'greedy');
  await lobby.click('#create-btn');
  await lobby.waitForSelector('#links .seat-link a', { timeout: STEP });
  assert(!(await lobby.$eval('#create-error', e => e.textContent)), `creating ${variant} with ${rule} was refused`);
  const link = await lobby.$eval('#links .seat-link a', a => a.href);
  await lobby.close();
  const p = await open(link.slice(env.base.length));
  await p.evaluate(() => {
    window.seen = [];
    const look = () => {
      const ply = document.body.dataset.ply, e = document.querySelector('#turn-moves');
      if (ply === undefined || !e) return;
      const line = e.hidden ? '' : e.textContent, last = window.seen[window.seen.length - 1];
      if (!last || last[0] !== ply || last[1] !== line) window.seen.push([ply, line]);
    };
    new MutationObserver(look).observe(document.body, { attributes: true, childList: true, subtree: true, characterData: true });
    look();
  });
  return p;
}

// White's page plays by clicks, each time it may act: the first piece it
// marks movable to the first square it offers, or the first square it
// offers alone (Échecs ambigus: name a square), or its first action
// button (choose among candidates); the first choice where it asks one;
// until the game is over.
async function playWhite(p) {
  for (;;) {
    const h = await p.waitForFunction(() => (document.body.classList.contains('over') ? 'over' :
      document.querySelector('#board rect.movable, #board circle.target, #actions button') && document.body.dataset.ply),
    { timeout: STEP });
    const ply = await h.jsonValue();
    if (ply === 'over') return;
    const piece = await p.$('#board rect.movable'), button = await p.$('#actions button');
    if (piece) {
      await piece.click();
      await p.waitForSelector('#board circle.target', { timeout: STEP });
    }
    await (piece || !button ? await p.$('#board circle.target') : button).click();
    const choice = await p.waitForFunction(n => document.body.dataset.ply !== n ||
      document.querySelector('#chooser button.choice'), { timeout: STEP }, ply);
    if (await choice.evaluate(c => c instanceof Element)) await choice.click();
    await p.waitForFunction(n => document.body.dataset.ply !== n, { timeout: STEP }, ply);
  }
}

// The turn line the schedule asks for before each action of `history`
// of `variant` ([{turn, seat, text}], the page's list), '' once the game
// is over; and the turns checked: numbered 1, 2 ... in order, the sides alternating,
// each as long as the schedule says (shorter only where it allows, or at
// the game's end).
function expectedLines(variant, rule, history) {
  const moves = SCHEDULES[rule], lines = [];
  let i = 0;
  for (let t = 1; i < history.length; t++) {
    const side = t % 2 ? 'white' : 'black';
    let j = 0, last = '';
    while (i < history.length && history[i].turn === t) {
      if (variant === 'ambigus' && /^choose /.test(history[i].text)) {
        // the opponent's choice completes the move just named (Échecs
        // ambigus):
        // the line stays until it is made
        assert(history[i].seat !== side && j > 0, `action ${i + 1} (${history[i].text}) is ${history[i].seat}'s in turn ${t}`);
        lines.push(lines[lines.length - 1]);
        i++;
        continue;
      }
      assert(history[i].seat === side, `action ${i + 1} (${history[i].text}) is ${history[i].seat}'s in turn ${t}, not ${side}'s`);
      const n = moves(t, side, j, last);
      assert(j < n, `turn ${t} has more than ${n} moves: ${history[i].text}`);
      lines.push(`${side}: move ${j + 1} of ${n}`);
      last = history[i++].text;
      j++;
    }
    assert(j > 0, `turn ${t} is missing (action ${i + 1} is in turn ${history[i] && history[i].turn})`);
    const n = moves(t, side, j, last);
    assert(j === n || SHORT[variant](last) || i === history.length,
      `turn ${t} (${side}) ends after ${j} of ${n} moves, on ${last}`);
  }
  lines.push('');
  return lines;
}

async function playsToEnd(variant, rule) {
  const p = await botGame(variant, rule);
  await playWhite(p);
  const history = await p.$$eval('#history li', ls => ls.map(l => ({ turn: Number(l.dataset.turn), seat: l.title,
    text: l.textContent.replace(/^\d+\. /, '').replace(/^[a-z]+: /, '') })));
  const seen = await p.evaluate(() => window.seen);
  const want = expectedLines(variant, rule, history);
  assert(Number(seen[seen.length - 1][0]) === history.length, `the page ended at ply ${seen[seen.length - 1][0]}, its history has ${history.length}`);
  for (const [ply, line] of seen)
    assert(line === want[Number(ply)], `${variant} + ${rule}, ply ${ply}: the turn line is '${line}', the schedule asks for '${want[Number(ply)]}'`);
  // the page saw the start, and every state where White was to act
  assert(seen[0][0] === '0' && seen[0][1] === want[0], `${rule}: the page's first state: ${seen[0]}`);
  const whites = new Set(seen.map(([ply]) => Number(ply)));
  want.forEach((l, ply) => assert(!l.startsWith('white') || whites.has(ply), `${rule}: the page never drew ply ${ply} (${l})`));
  const result = await p.$eval('#result', e => e.textContent);
  assert(await p.$eval('#turn', e => e.textContent) === 'Game over' && result, `${rule}: over, but the result reads '${result}'`);
  assert(p.errors.length === 0, `page errors: ${p.errors}`);
  return { plies: history.length, seen: seen.length, result, first: want[0] };
}

// issue 25: every schedule on orthodox chess, and Marseillais on Échecs
// ambigus, played by the server's bots to "Game over" in the browser, the
// turn line as the schedule says at every state the page drew.
test('issue25_each_schedule_plays_to_its_end_in_the_browser', async () => {
  const games = [...Object.keys(SCHEDULES).map(r => ['orthodox', r]), ['ambigus', 'marseillais.lua']];
  const out = await Promise.all(games.map(([v, r]) => playsToEnd(v, r)));
  games.forEach(([v, r], k) => console.log(`(${v} + ${r}: ${out[k].plies} plies, ${out[k].seen} states seen, ${out[k].result})`));
}, 240000);

main();
