#!/usr/bin/env node
// chessvar diff in the browser (issue 22 part 1): the page's #diff compares
// two rule sets through POST /api/diff, the same answer as `chessvar diff
// A B --json`: the card of every area (the rule ids that change each), and
// the positions where the two part, each with both boards drawn by the
// server (core/draw) and the actions only one rule set allows.
//
//   node tests/web/test_diff.js            (make test-web)
// Environment: as tests/web/lib.js says.
'use strict';
const { execFileSync } = require('child_process');
const { STEP, CHESSVAR, ROOT, env, test, assert, open, main } = require('./lib.js');

const AREAS = ['board', 'turns', 'moves', 'captures', 'check', 'hidden', 'end', 'draws'];

// AMBI-1, AMBI-2, AMBI-4 (issue 22): orthodox against Échecs ambigus, chosen
// in the page's form; the card and partings are those of the command.
test('diff_orthodox_ambigus_in_the_page_as_the_command_says', async () => {
  const p = await open('/#diff');
  await p.waitForSelector('#diff-form select[name=variant-B]');
  await p.select('#diff-form select[name=variant-A]', 'orthodox');
  await p.select('#diff-form select[name=variant-B]', 'ambigus');
  await p.click('#diff-go');
  await p.waitForSelector('#diff-out[data-done="1"]', { timeout: 4 * STEP });
  const cmd = JSON.parse(execFileSync(CHESSVAR, ['diff', 'orthodox', 'ambigus', '--json'],
    { cwd: ROOT, encoding: 'utf8' }));
  const rows = await p.$$eval('table.diff-card tr', trs => trs.map(t => ({
    area: t.dataset.area, changes: t.classList.contains('changes'), text: t.textContent })));
  assert(rows.map(r => r.area).join() === AREAS.join(), `areas: ${rows.map(r => r.area)}`);
  for (const a of cmd.card) {
    const r = rows.find(x => x.area === a.area);
    assert(r.changes === a.changes, `${a.area}: changes ${r.changes}, the command ${a.changes}`);
    for (const l of a.lines)
      assert(r.text.includes(l.by) && r.text.includes(l.what), `${a.area}: no '${l.by}: ${l.what}'`);
  }
  const parts = await p.$$eval('section.parting', ss => ss.map(s => ({
    head: s.querySelector('h3').textContent,
    boards: s.querySelectorAll('.diff-svg svg.board').length,
    pieces: [...s.querySelectorAll('.diff-svg svg.board')].map(b => b.querySelectorAll('.piece').length),
    onlyA: (s.querySelector('.only-a') || {}).textContent || '',
  })));
  assert(parts.length === cmd.partings.length && parts.length > 0,
    `${parts.length} partings shown, the command finds ${cmd.partings.length}`);
  cmd.partings.forEach((c, i) => {
    for (const id of c.rules) assert(parts[i].head.includes(id), `parting ${i + 1}: no ${id} in '${parts[i].head}'`);
    const want = [c.view_a, c.view_b].filter(Boolean).map(v => v.pieces.length);
    assert(parts[i].boards === want.length, `parting ${i + 1}: ${parts[i].boards} boards`);
    assert(parts[i].pieces.join() === want.join(), `parting ${i + 1}: pieces ${parts[i].pieces}, views ${want}`);
    if (c.n_only_a) assert(parts[i].onlyA.includes(c.only_a[0]), `parting ${i + 1}: only in A lacks ${c.only_a[0]}`);
  });
  assert(p.errors.length === 0, `page errors: ${p.errors}`);
});

// A house rule from the lobby's scripts (scripts/atomic.lua declares its
// changes: captures), and bad input: an unknown parameter is refused with
// the engine's own message, shown in the page, nothing drawn.
test('diff_house_rule_and_refusal_in_the_page', async () => {
  const p = await open('/#diff&a=orthodox&b=orthodox');
  await p.waitForSelector('#diff-form input[name=rules-B][value="atomic.lua"]');
  await p.click('#diff-form input[name=rules-B][value="atomic.lua"]');
  await p.click('#diff-go');
  await p.waitForSelector('#diff-out[data-done="1"]', { timeout: 4 * STEP });
  const cap = await p.$eval('tr[data-area=captures]', t => t.textContent);
  assert(cap.includes('atomic.lua') && cap.includes('explodes'), `captures: ${cap}`);
  await p.evaluate(() => { delete document.querySelector('#diff-out').dataset.done; });
  await p.type('#diff-form input[name=params-B]', 'nosuch=1');
  await p.click('#diff-go');
  await p.waitForFunction(() => document.querySelector('#diff-error').textContent !== '', { timeout: 4 * STEP });
  const err = await p.$eval('#diff-error', e => e.textContent);
  assert(err.includes('nosuch'), `the refusal: '${err}'`);
  assert(await p.$$eval('section.parting', s => s.length) === 0, 'a refused comparison left partings');
  // garbled: not NAME=VALUE, refused by the page before asking
  await p.$eval('#diff-form input[name=params-B]', e => { e.value = 'castling'; });
  await p.click('#diff-go');
  await p.waitForFunction(() => document.querySelector('#diff-error').textContent.includes('NAME=VALUE'));
});

// The API alone: a malformed body, an unknown variant, a script not offered.
test('diff_api_refusals', async () => {
  const post = async body => {
    const r = await fetch(env.base + '/api/diff', { method: 'POST', body });
    return { status: r.status, body: await r.json() };
  };
  let r = await post('{"a":');
  assert(r.status === 400 && r.body.error.startsWith('malformed JSON'), JSON.stringify(r));
  r = await post(JSON.stringify({ a: { variant: 'orthodox' }, b: { variant: 'nope' } }));
  assert(r.status === 400 && r.body.error.includes("unknown variant 'nope'"), JSON.stringify(r));
  r = await post(JSON.stringify({ a: { variant: 'orthodox', rules: ['../../etc/passwd'] }, b: { variant: 'orthodox' } }));
  assert(r.status === 400 && r.body.error.includes('is offered'), JSON.stringify(r));
  r = await post(JSON.stringify({ a: { variant: 'orthodox' } }));
  assert(r.status === 400 && r.body.error.includes('"b"'), JSON.stringify(r));
  const g = await fetch(env.base + '/api/diff');
  assert(g.status === 405, `GET /api/diff: ${g.status}`);
});

main();
