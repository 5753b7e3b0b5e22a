#!/usr/bin/env node
// The house-rule lab in the browser (issue 23 point 3): the page's #lab
// editor checks the rule as it is typed, as `chessvar check` does (the
// error at its line, then clean once fixed); a shipped script loads into
// it; the API panel lists what the server's GET /api/lab/api gives (the
// words of docs/HOUSE-RULES.md); "Try it" keeps the rule and opens a game
// under it against a bot, where the rule's end comes; "Measure it" plays
// the A/B of the kept rule in one click (web/measure.js).
//
//   node tests/web/test_lab_editor.js            (make test-web)
// Environment: as tests/web/lib.js says.
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { execFileSync } = require('child_process');
const { ROOT, CHESSVAR, STEP, env, test, assert, open, waitPly, shot, main } = require('./lib.js');

const sha256 = t => crypto.createHash('sha256').update(t, 'utf8').digest('hex');

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

const BROKEN = 'rule {\n  name = "Broken",\n  veto = function(game, action) retur nil end,\n}\n';

// issue 23: an error appears at its line with `chessvar check`'s text;
// fixed, the rule is clean and named.
test('lab_live_check_error_at_its_line_then_clean', async () => {
  const p = await open('/#lab');
  await p.waitForSelector('#lab-text');
  await waitCheck(p, 'ok'); // the starter rule passes
  await typeRule(p, BROKEN);
  await waitCheck(p, 'error');
  const bad = await p.$$eval('#lab-lines span.bad', s => s.map(e => e.dataset.line));
  assert(bad.join() === '3', `the lines marked: ${bad}`);
  const err = await p.$eval('#lab-error', e => e.textContent);
  const dir = fs.mkdtempSync(path.join(require('os').tmpdir(), 'chessvar-lab-js-'));
  fs.writeFileSync(path.join(dir, 'rule.lua'), BROKEN);
  let said = '';
  try {
    execFileSync(CHESSVAR, ['check', 'rule.lua'], { cwd: dir, encoding: 'utf8' });
  } catch (e) {
    said = e.stdout.trim();
  }
  fs.rmSync(dir, { recursive: true, force: true });
  assert(said.includes('rule.lua:3:') && err === said, `the page says '${err}', chessvar check '${said}'`);
  assert((await p.$eval('#lab-status', e => e.textContent)).includes('line 3'), 'the status names no line');
  assert(await p.$eval('#lab-try', b => b.disabled), 'Try it is offered for a broken rule');
  // fixed: the word typed right
  const box = await p.$('#lab-text');
  await box.evaluate(t => { t.focus(); const at = t.value.indexOf('retur ') + 5; t.setSelectionRange(at, at); });
  await p.keyboard.type('n');
  await waitCheck(p, 'ok');
  assert(await p.$$eval('#lab-lines span.bad', s => s.length) === 0, 'a line is still marked');
  const status = await p.$eval('#lab-status', e => e.textContent);
  assert(status.includes('rule.lua: ok (Broken)') && status.includes('orthodox'), `status: ${status}`);
  assert(await p.$eval('#lab-lines', l => l.children.length) === 5, 'the line numbers do not follow the text');
  // a hostile rule: stopped by the sandbox, said in the page
  await typeRule(p, 'rule { name = "Loop", veto = function(game, action)\n  while true do end\nend }\n');
  await waitCheck(p, 'error');
  assert((await p.$eval('#lab-error', e => e.textContent)).includes('rule.lua:2: instruction budget exceeded'),
    'the loop is not reported');
  assert(p.errors.length === 0, `page errors: ${p.errors}`);
});

// issue 23: a shipped script loads into the editor (its exact text), is
// checked clean; the API panel lists every entry the server gives.  The
// check of the text before the load is still on its way when the script
// comes (its answer held until then): it must not be shown as the
// script's.
test('lab_starts_from_a_shipped_script_with_the_api_at_hand', async () => {
  const p = await open('/#lab');
  await p.waitForSelector('#lab-text');
  await waitCheck(p, 'ok');
  await p.evaluate(() => {
    const f = window.fetch;
    let hold = true;
    window.fetch = async (u, o) => {
      const r = await f(u, o);
      if (hold && String(u).includes('/api/lab/check')) {
        hold = false;
        while (!document.querySelector('#lab-text').value.includes('King of the Hill'))
          await new Promise(res => setTimeout(res, 10));
      }
      return r;
    };
    const t = document.querySelector('#lab-text');
    t.value = t.value.replace(/name = "[^"]*"/, 'name = "Before the load"');
    t.dispatchEvent(new Event('input'));
  });
  await p.waitForSelector('#lab[data-check="running"]');
  await p.waitForSelector('#lab-script option[value="king_of_the_hill.lua"]');
  await p.select('#lab-script', 'king_of_the_hill.lua');
  await p.click('#lab-load');
  const file = fs.readFileSync(path.join(ROOT, 'scripts', 'king_of_the_hill.lua'), 'utf8');
  await p.waitForFunction(f => document.querySelector('#lab-text').value === f, { timeout: STEP }, file);
  await waitCheck(p, 'ok');
  const status = await p.$eval('#lab-status', e => e.textContent);
  assert(status.includes('ok (King of the Hill)'), `status: ${status}`);
  const api = await (await fetch(env.base + '/api/lab/api')).json();
  const shown = await p.$$eval('#lab-api dt', d => d.map(e => e.textContent));
  assert(shown.length === api.api.length, `${shown.length} entries shown, the server gives ${api.api.length}`);
  for (const a of api.api)
    assert(shown.includes(a.call.replace(/`/g, '')), `the panel lacks ${a.call}`);
  assert(shown.includes('game:piece_at(square)') && shown.includes('veto'), 'no game:piece_at or veto');
  await shot(p, 'lab-editor');
  assert(p.errors.length === 0, `page errors: ${p.errors}`);
});

// issue 23: "Try it": the rule is kept, a game under it starts against the
// bot and opens as the person's seat; a King on the rule's hill (e2 here,
// reached in two moves whatever the bot does) ends it with the rule's
// reason.
test('lab_try_it_plays_the_rule_against_the_bot', async () => {
  const file = fs.readFileSync(path.join(ROOT, 'scripts', 'king_of_the_hill.lua'), 'utf8');
  const text = file.replace(/local hill = \{[^}]*\}/, 'local hill = { e2 = true }');
  assert(text !== file, 'the hill of scripts/king_of_the_hill.lua was not found');
  const p = await open('/#lab');
  await p.waitForSelector('#lab-text');
  await waitCheck(p, 'ok');
  await p.$eval('#lab-text', (t, v) => { t.value = v; t.dispatchEvent(new Event('input')); }, text);
  await waitCheck(p, 'ok');
  await p.select('#lab-bot', 'greedy');
  await Promise.all([p.waitForNavigation({ timeout: STEP }).catch(() => {}), p.click('#lab-try')]);
  await p.waitForFunction(() => /#g=[0-9a-f]+&t=/.test(location.hash), { timeout: STEP });
  await waitPly(p, 0);
  const game = new URLSearchParams(p.url().split('#')[1]).get('g');
  const games = await (await fetch(env.base + '/api/games')).json();
  const g = games.games.find(x => x.game === game);
  assert(g && g.seats.find(s => s.seat === 'black').bot === 'greedy', `the game: ${JSON.stringify(g)}`);
  await p.type('#typed-text', 'e4');
  await p.keyboard.press('Enter');
  await waitPly(p, 2); // the bot answered
  await p.type('#typed-text', 'Ke2');
  await p.keyboard.press('Enter');
  await waitPly(p, 3);
  await p.waitForFunction(() => document.querySelector('#result').textContent.includes('hill'), { timeout: STEP });
  const result = await p.$eval('#result', e => e.textContent);
  assert(result.startsWith('1-0') && result.includes("white's King reached the hill"), `result: ${result}`);
  // the rule is kept as lab:SHA256 of its text
  const kept = await (await fetch(`${env.base}/api/lab/rules/${sha256(text)}`)).json();
  assert(kept.text === text, 'the rule kept is not the text typed');
  assert(p.errors.length === 0, `page errors: ${p.errors}`);
});

// issue 23 point 3: "Measure it" is one click from the editor: the rule is
// kept, and the server plays the variant with and without it (web/measure.js,
// POST /api/experiments) while a bar moves to its end; the report's B is the
// rule typed, by the name it declares, and the figures are the command's.
test('lab_measure_it_one_click_ab_of_the_rule', async () => {
  const p = await open('/#lab');
  await p.waitForSelector('#lab-text');
  await waitCheck(p, 'ok');
  await p.waitForSelector('#lab-script option[value="king_of_the_hill.lua"]');
  await p.select('#lab-script', 'king_of_the_hill.lua');
  await p.click('#lab-load');
  const text = fs.readFileSync(path.join(ROOT, 'scripts', 'king_of_the_hill.lua'), 'utf8');
  await p.waitForFunction(f => document.querySelector('#lab-text').value === f, { timeout: STEP }, text);
  await waitCheck(p, 'ok');
  assert(!(await p.$eval('#lab-measure', b => b.hidden)), 'Measure it is hidden');
  await p.click('#lab-measure');
  await p.waitForSelector('#measure-job[data-state="done"]', { timeout: 8 * STEP });
  const bar = await p.$eval('#measure-progress', b => [b.value, b.max]);
  assert(bar[0] === bar[1] && bar[1] === 200, `the bar at the end: ${bar}`);
  const report = await p.$eval('#measure-report', e => e.textContent);
  const file = `lab-${sha256(text).slice(0, 16)}.lua`;
  assert(/^B: King of the Hill \(.*lab-[0-9a-f]{16}\.lua\)$/m.test(report) && report.includes(file),
    `the report's B: ${report.split('\n').slice(0, 5).join(' | ')}`);
  assert(report.includes('100 games per rule set'), 'not the 100 games of one click');
  // the same figures as the command the page shows, run with the shipped script
  const command = await p.$eval('#measure-command', e => e.textContent);
  const args = command.replace(/^chessvar /, '').split(' ').map(a => a.replace(/^.*lab-[0-9a-f]{16}\.lua$/, 'scripts/king_of_the_hill.lua'));
  const cli = execFileSync(CHESSVAR, args, { cwd: ROOT, encoding: 'utf8' });
  const strip = r => r.replace(/^B: .*$/m, 'B');
  assert(strip(cli) === strip(report), 'the page\'s report is not the command\'s');
  assert(p.errors.length === 0, `page errors: ${p.errors}`);
});

main();
