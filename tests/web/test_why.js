#!/usr/bin/env node
// "Why?" in the browser (issue 22 point 2): a click on a square the
// selected piece cannot reach asks the server why, and the page shows the
// answer with its rule id; the Why? button asks about the typed action;
// the why frame answers as the seat's batch `why` does, and a text that
// names no action, or a spectator's question, is an error frame.
//
//   node tests/web/test_why.js            (make test-web)
// Environment: as tests/web/lib.js says.
'use strict';
const {
  STEP, test, assert, api, open, waitPly, clickSquare, seatLink, tokenOf, withTimeout, main,
} = require('./lib.js');

// The frame the server answers to FRAME, over a WebSocket of the test's
// own from a page of the server's origin, after hello with TOKEN.
async function ask(page, game, token, frame) {
  return withTimeout(page.evaluate((g, t, fr) => new Promise((res, rej) => {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', game: g, token: t || '' }));
    ws.onmessage = ev => {
      const f = JSON.parse(ev.data);
      if (f.type === 'state') { ws.send(JSON.stringify(fr)); return; }
      ws.close();
      res(f);
    };
    ws.onerror = () => rej(new Error('websocket error'));
  }), game, token, frame), STEP, `the answer to ${JSON.stringify(frame)}`);
}

const whyText = p => p.$eval('#why', e => ({ text: e.textContent, legal: e.dataset.legal, rules: e.dataset.rules }));

async function waitWhy(p, want) {
  await p.waitForFunction(w => document.querySelector('#why').textContent.includes(w), { timeout: STEP }, want)
    .catch(async () => { throw new Error(`the page does not show '${want}' (shows '${(await whyText(p)).text}', error '${await p.$eval('#error', e => e.textContent)}')`); });
  return whyText(p);
}

// ORTH-2, issue 22: white selects its pawn on e2 and clicks e5: nothing is
// played, the page says why (ORTH-2); the knight's g1-g3 too.  Typed Nf3
// and the Why? button: legal, ORTH-2.  The answer goes when the game moves.
test('why_orthodox_click_on_a_square_the_piece_cannot_reach_orth2', async () => {
  const g = await api('/api/games', { variant: 'orthodox' });
  const p = await open(seatLink(g, 'white'));
  await waitPly(p, 0);
  await clickSquare(p, 4, 1);
  await p.waitForSelector('#board .target');
  await clickSquare(p, 4, 4);
  let w = await waitWhy(p, 'e2e5 is illegal');
  assert(w.legal === 'no' && w.rules === 'ORTH-2', `e2e5: ${JSON.stringify(w)}`);
  assert(w.text.includes('(ORTH-2)'), `e2e5: ${w.text}`);
  assert(await p.evaluate(() => document.body.dataset.ply) === '0', 'a why click played something');
  await clickSquare(p, 6, 0);
  await p.waitForSelector('#board .target');
  await clickSquare(p, 6, 2);
  w = await waitWhy(p, 'g1g3 is illegal');
  assert(w.rules === 'ORTH-2', `g1g3: ${JSON.stringify(w)}`);
  await p.type('#typed-text', 'Nf3');
  await p.click('#why-typed');
  w = await waitWhy(p, 'Nf3 is legal');
  assert(w.legal === 'yes' && w.rules === 'ORTH-2', `Nf3: ${JSON.stringify(w)}`);
  assert(await p.$eval('#typed-text', e => e.value) === 'Nf3', 'Why? sent the typed action');
  assert(await p.evaluate(() => document.body.dataset.ply) === '0', 'Why? played something');
  await p.click('#typed button[type=submit]');
  await waitPly(p, 1);
  assert((await whyText(p)).text === '', 'the answer stays after the game moved on');
  assert(!p.errors.length, `the page had errors: ${p.errors}`);
});

// Issue 22: the why frame over the WebSocket: black's answer out of turn
// names ORTH-1; a garbled text and a spectator's question are errors.
test('why_frame_answers_the_seat_and_refuses_bad_input', async () => {
  const g = await api('/api/games', { variant: 'orthodox' });
  const p = await open(seatLink(g, 'white'));
  await waitPly(p, 0);
  const black = tokenOf(seatLink(g, 'black'));
  let f = await ask(p, g.game, black, { type: 'why', text: 'e7e5' });
  assert(f.type === 'why' && f.seat === 'black' && f.legal === false && f.rules.join() === 'ORTH-1' && f.script === null,
    `black's e7e5: ${JSON.stringify(f)}`);
  f = await ask(p, g.game, tokenOf(seatLink(g, 'white')), { type: 'why', text: 'e2e4' });
  assert(f.type === 'why' && f.legal === true && f.rules.join() === 'ORTH-2' && f.game === g.game, `e2e4: ${JSON.stringify(f)}`);
  f = await ask(p, g.game, tokenOf(seatLink(g, 'white')), { type: 'why', text: 'zz' });
  assert(f.type === 'error' && f.message.startsWith("why: 'zz' is not a move"), `zz: ${JSON.stringify(f)}`);
  f = await ask(p, g.game, black, { type: 'why' });
  assert(f.type === 'error' && f.message.startsWith('why: give the action'), `no text: ${JSON.stringify(f)}`);
  f = await ask(p, g.game, '', { type: 'why', text: 'e2e4' });
  assert(f.type === 'error' && f.message.includes('spectator'), `spectator: ${JSON.stringify(f)}`);
  f = await ask(p, g.game, black, { type: 'act', text: 'why e7e5', ply: 0 });
  assert(f.type === 'error' && f.message.includes('not an action'), `act why: ${JSON.stringify(f)}`);
});

main();
