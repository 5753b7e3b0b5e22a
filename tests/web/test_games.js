#!/usr/bin/env node
// Whole games in the browser (issue 21: "for every variant, two (or three,
// six) browser contexts play a whole game through the page"): one browser
// context per seat, each on its seat's private link, plays by clicking the
// squares, the hand and the buttons the page draws from legal.detail, as a
// person would, to the variant's own end; a spectator's page watches
// throughout.  The lines were found with `chessvar run VARIANT --json`
// (each is replayed here only through the page, so an action the page
// cannot offer fails the test naming it).
//
//   node tests/web/test_games.js            (make test-web)
// Environment: as tests/web/lib.js says.
'use strict';
const {
  STEP, env, test, assert, api, open, waitPly, clickSquare, stateOf, checkPieces, shot,
  tokenOf, main,
} = require('./lib.js');

env.testMs = 300000;      // a whole game on a loaded machine: generous, never a speed claim

// The game's status in a state frame (its status member is the batch
// `status` answer: the status itself is one level down).
const statusOf = st => st.view.status || st.status.status;
const same = (a, b) => !!a && !!b && a.x === b.x && a.y === b.y;

// A game with a page per seat and a spectator's page.
async function table(body, size = {}) {
  const g = await api('/api/games', body);
  const pages = {}, tokens = {};
  for (const s of g.seats) {
    pages[s.seat] = await open(s.link, size);
    tokens[s.seat] = tokenOf(s.link);
  }
  const spect = await open(g.spectator, size);
  return { g, pages, tokens, spect };
}

// The spectator's page holds no hidden figure, and neither does the view
// the server sends a spectator.
async function spectatorSeesNoHidden(t, ply) {
  await waitPly(t.spect, ply);
  const hidden = await t.spect.$$eval('#board g.piece', els => els
    .filter(e => e.dataset.figure === 'hidden' || e.querySelector('text.letter') && e.querySelector('text.letter').textContent === '?')
    .map(e => e.dataset.square));
  assert(!hidden.length, `the spectator's page shows a hidden figure on ${hidden} at ply ${ply}`);
}

// The seat to act plays TEXT, the machine form of one of its legal
// actions (legal.detail) or another text the variant reads for one of
// them (legal.inputs: Échecs ambigus' whole moves and `keep`), on its own
// page: a piece then its target (and the chooser when several actions
// share the two squares), a figure of the hand then a square, a square
// alone, or the button of an action without squares (BUTTON: the button
// a choice has besides its squares).  AS: another seat that acts out of
// turn (an Échiqueté takeover).
async function act(t, text, as = null, button = false) {
  const st = await stateOf(t.spect, t.g.game, '');
  assert(!statusOf(st).over, `the game ended (${statusOf(st).result}) before ${text}`);
  const seat = as || st.view.seat_to_act || st.status.to_act;
  const p = t.pages[seat];
  assert(p, `no page for the seat to act '${seat}'`);
  await waitPly(p, st.ply);
  const mine = await stateOf(t.spect, t.g.game, t.tokens[seat]);
  const D = [...((mine.legal && mine.legal.detail) || []), ...((mine.legal && mine.legal.inputs) || [])];
  const d = D.find(x => x.machine === text);
  assert(d, `${seat} may not play ${text} at ply ${st.ply}; its legal actions: ${D.map(x => x.machine).join(' ')}`);
  if (button) {
    await p.click(`#actions button[data-machine="${text}"]`);
  } else if (d.from && d.to) {
    await clickSquare(p, d.from.x, d.from.y);
    await p.waitForSelector('#board .target');
    await clickSquare(p, d.to.x, d.to.y);
    if (D.filter(x => same(x.from, d.from) && same(x.to, d.to)).length > 1) {
      await p.waitForSelector(`#chooser:not([hidden]) button.choice[data-machine="${text}"]`);
      await p.click(`#chooser button.choice[data-machine="${text}"]`);
    }
  } else if (d.to && d.figure) {
    // (A figure already picked stays picked: a second click would drop it.)
    const fig = `#hand button[data-figure="${d.figure}"]`;
    await p.waitForSelector(fig);
    if (await p.$eval(fig, b => b.getAttribute('aria-pressed')) !== 'true') await p.click(fig);
    await p.waitForSelector('#board .target');
    await clickSquare(p, d.to.x, d.to.y);
  } else if (d.to) {
    await clickSquare(p, d.to.x, d.to.y);
  } else {
    await p.click(`#actions button[data-machine="${text}"]`);
  }
  await afterAct(p, st.ply, `${seat}: ${text}`);
  await spectatorSeesNoHidden(t, st.ply + 1);
  return seat;
}

// The page moved on past PLY, or its refusal is the error.
async function afterAct(p, ply, what) {
  await p.waitForFunction(n => Number(document.body.dataset.ply) > n || document.querySelector('#error').textContent,
    { timeout: STEP }, ply).catch(() => { throw new Error(`${what}: the page did not move on from ply ${ply}`); });
  const e = await p.$eval('#error', el => el.textContent);
  assert(!e, `${what}: refused: ${e}`);
}

// Every seat's page and the spectator's show the result; the spectator's
// board is its view; the final boards are the test's artefacts.
async function theEnd(t, name, result) {
  const st = await stateOf(t.spect, t.g.game, '');
  assert(statusOf(st).over, `the game is not over after the line (ply ${st.ply})`);
  for (const [who, p] of [...Object.entries(t.pages), ['the spectator', t.spect]]) {
    await waitPly(p, st.ply);
    await p.waitForFunction(() => document.body.classList.contains('over'), { timeout: STEP })
      .catch(() => { throw new Error(`${who}'s page does not show the end`); });
    const r = await p.$eval('#result', e => e.textContent);
    assert(result.test(r), `${who}'s page reads '${r}', not ${result}`);
    const moves = await p.$$eval('#board .movable, #board .target, #actions button.act', els => els.length);
    assert(moves === 0, `${who}'s page still offers ${moves} actions after the end`);
    assert(!p.errors.length, `${who}'s page had errors: ${p.errors}`);
  }
  await checkPieces(t.spect, st.view);
  const first = Object.values(t.pages)[0];
  await shot(first, `game-${name}-end`);
  await shot(t.spect, `game-${name}-end-spectator`);
  console.log(`(${name}: ${st.ply} plies, ${await t.spect.$eval('#result', e => e.textContent)})`);
  for (const p of [...Object.values(t.pages), t.spect]) await p.ctx.close();
}

const history = p => p.$$eval('#history li', ls => ls.map(l => l.textContent));

/* ------------------------------------------------------------------ tests */

// AMBI-1, AMBI-2, AMBI-4, issue 21: a whole Échecs ambigus game by clicks.
// White names f3 (Pf2 or Ng1: Black chooses the pawn by clicking it, then
// f3), Black names e5 and h4 (one candidate each: played at once), White
// g4 and a3 (Black chooses Pa2), and Black names e1, White's King's square:
// the King is taken, 0-1 (AMBI-4; there is no check, AMBI-4).
test('ambigus_whole_game_to_king_captured', async () => {
  const t = await table({ variant: 'ambigus' });
  await waitPly(t.pages.white, 0);
  const line = ['f3', 'choose f2', 'e5', 'g4', 'h4', 'a3', 'choose a2', 'e1'];
  const actors = [];
  for (const text of line) actors.push(await act(t, text));
  // AMBI-2: the choices were made by the opponent's seat, on its page.
  assert(actors.join(' ') === 'white black black white black white black black',
    `the seats that acted: ${actors.join(' ')}`);
  const hist = await history(t.spect);
  assert(/black: choose Pf2/.test(hist[1]) && /e1 \(King taken\)/.test(hist[7]),
    `the spectator's move list reads ${JSON.stringify(hist)}`);
  await theEnd(t, 'ambigus', /0-1.*king captured/);
});

// AMBI-7, issue 21: the clock procedure by clicks only.  White clicks its
// pawn f2 then f3: the whole move proposes the pawn (legal.inputs, read by
// the engine as the naming of f3 with the proposal); Black's `keep`
// button takes it.  Black clicks e7 then e5 (an unambiguous whole move is
// simply played), White names g4 by its square, Black plays Qd8-h4 by
// clicks; White proposes Nb1-a3 and Black sends the pawn instead with the
// button of that choice; Black's Queen takes the King by a click on h4,
// then e1 (AMBI-4).
test('ambigus_clock_procedure_by_clicks_to_king_captured', async () => {
  const t = await table({ variant: 'ambigus', params: { clock: true } });
  await waitPly(t.pages.white, 0);
  assert(await act(t, 'f2f3') === 'white', 'the proposal was not white\'s');
  await t.pages.black.waitForFunction(() => /white proposes Pf2f3/.test(document.querySelector('#info').textContent));
  assert(await t.spect.$eval('#info', e => /white proposes Pf2f3/.test(e.textContent)), "the spectator's page does not show the proposal");
  const keepLabel = await t.pages.black.$eval('#actions button[data-machine="keep"]', b => b.textContent);
  assert(keepLabel === 'keep Pf2f3', `black's keep button reads '${keepLabel}'`);
  assert(await act(t, 'keep') === 'black', 'keep was not black\'s');
  assert(!(await t.pages.white.$('#actions button[data-machine="keep"]')), 'white is offered keep');
  for (const text of ['e7e5', 'g4', 'd8h4']) await act(t, text);
  assert(await act(t, 'b1a3') === 'white', 'the proposal was not white\'s');
  await t.pages.black.waitForFunction(() => /white proposes Nb1a3/.test(document.querySelector('#info').textContent));
  assert(await act(t, 'choose a2', null, true) === 'black', 'the choice was not black\'s');
  const a3 = await t.spect.$eval('#board g.piece[data-square="a3"]', e => `${e.dataset.side} ${e.dataset.figure}`);
  assert(a3 === 'white pawn', `a3 holds ${a3}: black's choice was not played`);
  await act(t, 'h4e1');
  const hist = await history(t.pages.white);
  assert(hist.join(' | ') === 'white: Pf2f3 | black: choose Pf2 | black: e5 (Pe7e5) | white: g4 (Pg2g4) | black: h4 (Qd8h4) | white: Nb1a3 | black: choose Pa2 | black: e1 (King taken)',
    `the move list reads ${JSON.stringify(hist)}`);
  await theEnd(t, 'ambigus-clock', /0-1.*king captured/);
});

// AMBI-6, issue 21: the mate rule, from a position: the lobby's way of
// starting one is a record (POST /api/games {record}) whose Position tag
// holds it.  White names e4 (only the knight goes), Black names a1: the
// King on g1 has only squares where it is still attacked, so it is mate.
test('ambigus_mate_rule_from_a_record', async () => {
  const record = '[Variant "ambigus"]\n[Seed "0"]\n[Sides "2"]\n[Params "mate=on"]\n' +
    '[Position "6k1/8/8/8/8/6N1/r4PPP/6K1 w - - 0 1"]\n[Result "*"]\n';
  const t = await table({ record });
  await waitPly(t.pages.white, 0);
  await act(t, 'e4');
  await act(t, 'a1');
  await theEnd(t, 'ambigus-mate', /0-1.*mate/);
});

// ECHQ-1, ECHQ-3, ECHQ-9, ECHQ-10, ECHQ-12, ECHQ-13, issue 21: three seats.
// Two captures fuse pieces (exd5: a merged pawn; Bg4xNf3: the chooser
// offers the bishop or the knight, ECHQ-1), then White's seat, to act,
// takes the merged side over with its button (ECHQ-12, not the third seat):
// the merged side moves at once (cycle É, White, Black, ECHQ-9) and Black's
// seat plays both colours.  One-coloured captures remove the merged pieces
// (ECHQ-10): the merged side has lost its last piece, White and Black win.
test('echiquete_three_seats_takeover_by_white_to_the_end', async () => {
  const t = await table({ variant: 'echiquete', seats: 3 });
  assert(Object.keys(t.pages).length === 3, `three seats, got ${Object.keys(t.pages)}`);
  const third = Object.keys(t.pages)[2];
  await waitPly(t.pages.white, 0);
  for (const text of ['e2e4', 'd7d5', 'e4d5p', 'c8g4', 'g1f3', 'g4f3b']) await act(t, text);
  const merged = await t.spect.$$eval('#board g.piece.f-merged', els => els.map(e => `${e.dataset.square} ${e.dataset.figure}`));
  assert(merged.sort().join(',') === 'd5 pawn,f3 bishop', `the merged pieces drawn: ${merged}`);
  // The third seat may take over too; White's seat does it first.
  await t.pages[third].waitForSelector('#actions button[data-machine="takeover"]');
  assert(await act(t, 'takeover') === 'white', 'the takeover was not white\'s');
  await t.pages[third].waitForFunction(() => !document.querySelector('#actions button[data-machine="takeover"]'))
    .catch(() => { throw new Error('the third seat is still offered the takeover after White took it'); });
  assert(await act(t, 'd5d4') === 'white', 'the merged pawn was not moved by White\'s seat');
  assert(await act(t, 'g2f3') === 'black', 'White\'s pieces are not played by Black\'s seat');
  assert(await act(t, 'd8d4') === 'black', 'Black\'s pieces are not played by Black\'s seat');
  const hist = await history(t.pages[third]);
  assert(hist.join(' | ') === 'white: e4 | black: d5 | white: e4xd5=PÉ | black: Bg4 | white: Nf3 | black: Bg4xNf3=BÉ | white: takeover | white: *d4 | black: gxf3 | black: Qxd4',
    `the move list reads ${JSON.stringify(hist)}`);
  await theEnd(t, 'echiquete', /white\+black.*merged side lost its last piece/);
});

// ECHQ-9, ECHQ-12, ECHQ-13, issue 21: two seats; Black's merging capture
// dxe4, then Black's seat, which has just moved, takes the merged side over
// out of turn with its button (ECHQ-12): the merged pawn moves at once and
// White's seat plays both colours; White's pawn takes it and the merged
// side, without pieces, loses (ECHQ-13, duo_empty_loses).
test('echiquete_two_seats_takeover_by_black_out_of_turn', async () => {
  const t = await table({ variant: 'echiquete' });
  await waitPly(t.pages.white, 0);
  for (const text of ['e2e4', 'd7d5', 'b1c3', 'd5e4p']) await act(t, text);
  await act(t, 'takeover', 'black');
  assert(await act(t, 'e4e3') === 'black', 'the merged pawn was not moved by Black\'s seat');
  assert(await act(t, 'd2e3') === 'white', 'White\'s pieces are not played by White\'s seat');
  const hist = await history(t.pages.black);
  assert(hist.join(' | ') === 'white: e4 | black: d5 | white: Nc3 | black: d5xe4=PÉ | black: takeover | black: *e3 | white: d2xe3',
    `the move list reads ${JSON.stringify(hist)}`);
  await theEnd(t, 'echiquete-2', /white\+black.*merged side lost its last piece/);
});

// TILE-2, TILE-3, TILE-8, TILE-9, TILE-10, issue 21: two sides, no pawns:
// sixteen placements from the hand (the King last), then moves by clicks;
// White's bishop checks (TILE-8), Black's King cannot escape and Black
// passes with its button (TILE-9), and the bishop takes the King: the last
// King on the table wins (TILE-10).  The line is one the search bots of
// `chessvar play tile --param pawns=0 --seed 3` played.
test('tile_two_sides_placement_to_king_capture', async () => {
  const t = await table({ variant: 'tile', params: { pawns: 0 } }, { width: 1000, height: 900 });
  await waitPly(t.pages.white, 0);
  const line = [
    'Q@0,0', 'Q@0,-1', 'R@-1,1', 'R@-2,2', 'R@-1,0', 'R@0,-2', 'N@-2,3', 'N@1,0',
    'B@0,2', 'B@0,1', 'B@-1,-1', 'N@0,3', 'N@1,4', 'B@1,3', 'K@2,5', 'K@1,-2',
    '-1,-1-0,-2', '0,1--1,0', '0,0-1,-1', '1,-2-2,-2', '0,-2-1,-3',
  ];
  for (const text of line) await act(t, text);
  // TILE-8: Black's King is in check, and the page says so.
  const check = await t.pages.black.$eval('#result', e => e.textContent);
  assert(/check: black/.test(check), `black's page reads '${check}' while its King is in check`);
  assert(await t.pages.black.$('#board g.piece[data-side="black"][data-figure="king"] .check-halo'), "black's King is not marked in check");
  assert(await act(t, 'pass') === 'black', 'the pass was not black\'s');
  assert(await act(t, '1,-3-2,-2') === 'white', 'the King was not taken by white');
  const kings = await t.spect.$$eval('#board g.piece[data-figure="king"]', els => els.map(e => e.dataset.side));
  assert(kings.join() === 'white', `the Kings left on the table: ${kings}`);
  await theEnd(t, 'tile', /1-0.*last King/);
});

// TILE-1, TILE-2, TILE-9, TILE-10, issue 21 ("a six-colour Tile game"):
// six seats, six pages, no pawns: 48 placements from the hands, then moves
// until one King is left; each captured King's colours pass to its captor,
// whose page then moves them.  The line is the one the search bots of
// `chessvar play tile --sides 6 --param pawns=0 --seed 6` (search:1000
// each) played.
test('tile_six_sides_whole_game', async () => {
  const t = await table({ variant: 'tile', sides: 6, params: { pawns: 0 } }, { width: 1000, height: 1000 });
  assert(Object.keys(t.pages).length === 6, `six seats, got ${Object.keys(t.pages)}`);
  await waitPly(t.pages.white, 0);
  const placements = [
    'Q@0,0', 'Q@-1,0', 'Q@-2,0', 'Q@-1,-1', 'Q@-1,-2', 'Q@-2,-3', 'R@-2,-4', 'R@0,1', 'R@1,0',
    'R@-3,-3', 'R@-2,-5', 'R@-2,-1', 'R@-2,1', 'R@-4,-4', 'R@-4,-2', 'R@-2,-6', 'R@0,-3', 'R@0,2',
    'N@2,1', 'N@1,-1', 'N@-5,-5', 'N@1,1', 'N@-3,-5', 'N@1,2', 'N@3,2', 'B@-1,2', 'N@-3,-7',
    'B@1,3', 'B@0,-4', 'N@3,0', 'B@4,0', 'B@-2,-8', 'B@-2,-2', 'N@-5,-1', 'B@-2,2', 'B@0,4',
    'B@2,-1', 'N@0,-2', 'B@-1,-6', 'B@4,3', 'N@5,4', 'B@5,3', 'K@4,1', 'K@1,4', 'K@3,4', 'K@6,5',
    'K@-6,-5', 'K@-5,-2',
  ];
  const moves = [
    '4,0-1,-3', '-1,0--1,3', '1,0-0,0', '-5,-1--3,0', '-6,-5--6,-6', '5,3-3,5', '4,1-5,2',
    '-1,2-1,0', '-1,-6--2,-7', '-1,-1-0,-2', '-2,-5--2,-4', '0,4-1,3', '1,-3-0,-4', '1,-1-0,-3',
    '-3,-7--5,-6', '1,1--1,0', '-6,-6--6,-7', '-2,-3--3,-2', '2,-1-1,-2', '-1,3--1,0', '0,0-1,0',
    '0,-2--1,-1', '-2,2-1,5', '3,5--1,1', '-2,1--3,1', '0,1-0,-1', '1,0--1,0', '-1,-1-4,4',
    '-1,-2--1,-6', 'pass', '0,-4--2,-6', '-2,-8-0,-6', '-2,-2-4,4', '-3,0--4,-2', '1,5--3,1',
    '-5,-2--4,-2', '5,2-6,3', '0,-6--2,-4', '-2,-7--1,-6', '6,5-7,4', '-3,1--2,0', '-4,-2--4,-1',
    'pass', '-2,-4--3,-3', '4,4--3,-3', '7,4-7,3', '-2,0--1,1', '3,0-2,2', 'pass', '1,4-2,5',
    'pass', '7,3-6,2', '-6,-7--5,-6', '1,3--1,1', 'pass', '0,-3--2,-4', 'pass', '6,2-7,3',
    '-5,-6--5,-5', '2,2-4,3', 'pass', '-2,-4--3,-2', 'pass', '7,3-6,3', '-5,-5--4,-4',
    '-4,-1--3,-1', '2,5-2,4', 'pass', '1,-2-0,-1', 'pass', '-3,-1--4,-2', '2,4-3,4', '0,-1--1,0',
    'pass', '-4,-2--3,-2', '-1,-6-7,2', 'pass', 'pass', 'pass', '3,4-4,3', 'pass', 'pass', 'pass',
    '7,2-6,3', 'pass', 'pass', '6,3-5,4', 'pass', 'pass', '5,4--2,-3', 'pass', 'pass',
    '-2,-3--3,-2', 'pass', '-2,-6--3,-5', 'pass', '-3,-5--4,-4',
  ];
  const colours = new Set();
  for (const text of placements) colours.add(await act(t, text));
  assert(colours.size === 6, `${colours.size} seats placed pieces`);
  const fills = new Set(await t.spect.$$eval('#board g.piece circle.body', els => els.map(e => e.getAttribute('fill'))));
  assert(fills.size === 6, `the six colours are drawn in ${fills.size} fills once placed`);
  await shot(t.spect, 'game-tile-6-placed');
  for (const text of moves) await act(t, text);
  const kings = await t.spect.$$eval('#board g.piece[data-figure="king"]', els => els.map(e => e.dataset.side));
  assert(kings.join() === 'black', `the Kings left on the table: ${kings}`);
  await theEnd(t, 'tile-6', /black.*last King/);
}, 600000);

main();
