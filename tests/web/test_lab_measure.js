#!/usr/bin/env node
// "Measure it" in the browser (issue 23 point 3): the page's #measure
// starts the A/B of an offered house rule (POST /api/experiments), its
// progress bar moves to the end, then the report (the same text as
// `chessvar experiment` prints for the same experiment), its chart and
// its JSON are shown; the share link opens the same result in another
// browser; window.labMeasure opens the panel with a rule set; the maker
// cancels a running experiment.
//
//   node tests/web/test_lab_measure.js        (make test-web)
// Environment: as tests/web/lib.js says.
'use strict';
const { execFileSync } = require('child_process');
const { STEP, CHESSVAR, ROOT, env, test, assert, open, shot, main } = require('./lib.js');

const cli = args => execFileSync(CHESSVAR, args, { cwd: ROOT, encoding: 'utf8' });

// issue 23: click Measure, watch the bar move to 100%, see the report and
// the chart; the figures are the command's; the share link and the JSON.
test('lab_measure_bar_report_chart_share_and_json', async () => {
  const p = await open('/#measure');
  await p.waitForSelector('#measure-rule option[value=\'["king_of_the_hill.lua"]\']');
  await p.select('#measure-rule', '["king_of_the_hill.lua"]');
  await p.select('#measure-bots', 'greedy');
  await p.$eval('#measure-games', e => { e.value = '40'; });
  await p.type('#measure-seed', '11');
  // every value the bar takes, from the moment it is drawn.  The server's
  // games may all be played between two polls (80 greedy games take a
  // fraction of a second), so the first answer of the job's progress is
  // shown as the server would give it half-way (its own figures, the state
  // running, done half the total): the page must draw that, then the end.
  await p.evaluate(() => {
    const f = window.fetch;
    let halfway = false;
    window.fetch = async (u, o) => {
      const r = await f(u, o);
      if (halfway || !/\/api\/experiments\/[0-9a-f]{16}$/.test(String(u))) return r;
      halfway = true;
      const st = await r.json();
      delete st.report;
      return new Response(JSON.stringify({ ...st, state: 'running', done: Math.floor(st.total / 2) }),
        { status: 200, headers: { 'Content-Type': 'application/json' } });
    };
    window.barSeen = [];
    new MutationObserver(() => {
      const b = document.querySelector('#measure-progress');
      if (b && window.barSeen[window.barSeen.length - 1] !== `${b.value}/${b.max}`)
        window.barSeen.push(`${b.value}/${b.max}`);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await p.click('#measure-go');
  await p.waitForSelector('#measure-job[data-state="done"]', { timeout: 8 * STEP });
  const seen = await p.evaluate(() => window.barSeen);
  const bar = await p.$eval('#measure-progress', b => [b.value, b.max]);
  assert(bar[0] === 80 && bar[1] === 80, `the bar ends at ${bar[0]} of ${bar[1]}`);
  assert(seen.some(v => { const [a, b] = v.split('/').map(Number); return b === 80 && a > 0 && a < 80; }),
    `the bar never showed a value between 0 and 80: ${seen.join(' ')}`);
  assert(await p.$eval('#measure-count', e => e.textContent) === '80 / 80 games (done)', 'the count');
  const command = await p.$eval('#measure-command', e => e.textContent);
  assert(command === 'chessvar experiment orthodox --games 40 --seed 11 --bot white=greedy ' +
    '--bot black=greedy --compare --rules scripts/king_of_the_hill.lua', `command: ${command}`);
  const args = command.split(' ').slice(1);
  const report = await p.$eval('#measure-report', e => e.textContent);
  const want = cli(args);
  assert(report === want, `the page's report differs from the command's:\n${report}\n---\n${want}`);
  assert(report.includes('B: King of the Hill'), report);
  await p.waitForFunction(() => { const i = document.querySelector('#measure-chart'); return i && i.complete && i.naturalWidth > 0; });
  const chart = await p.evaluate(async () => (await fetch(document.querySelector('#measure-chart').src)).text());
  assert(chart.startsWith('<svg') && chart.includes('King of the Hill'), 'the chart is the server\'s SVG');
  assert(/^#measure=[0-9a-f]{16}$/.test(await p.evaluate(() => location.hash)), 'the address names the experiment');
  await shot(p, 'lab-measure');
  // the JSON to download: the command's --json
  const dl = await p.$eval('#measure-json', a => ({ href: a.href, download: a.download }));
  assert(/^experiment-[0-9a-f]{16}\.json$/.test(dl.download), `download name: ${dl.download}`);
  const json = await p.evaluate(async u => (await fetch(u)).text(), dl.href);
  assert(json === cli([...args, '--json']), 'the JSON differs from the command\'s --json');
  // the share link in another browser (its own storage): the same result,
  // and no Cancel (only its maker's page has the token)
  const share = await p.$eval('#measure-share', a => a.href);
  assert(/\/measure\/[0-9a-f]{16}$/.test(share), `share link: ${share}`);
  const q = await open(new URL(share).pathname);
  await q.waitForSelector('#measure-job[data-state="done"]');
  assert(await q.$eval('#measure-report', e => e.textContent) === want, 'the shared page\'s report');
  await q.waitForFunction(() => { const i = document.querySelector('#measure-chart'); return i && i.complete && i.naturalWidth > 0; });
  assert(await q.$eval('#measure-cancel', b => b.hidden), 'a shared page offers to cancel');
  assert(p.errors.length === 0 && q.errors.length === 0, `page errors: ${p.errors} ${q.errors}`);
});

// issue 23: window.labMeasure({variant, rules, params}) (the rule editor's
// button) opens the panel with that rule set on the page it is called on;
// a refusal (a bad parameter) is shown with the server's message.
test('lab_measure_panel_from_labMeasure_and_refusal', async () => {
  const p = await open('/');
  await p.waitForSelector('#measure-link');
  await p.evaluate(() => window.labMeasure({ variant: 'orthodox', rules: ['atomic.lua'], params: { castling: 'off' } }));
  await p.waitForSelector('#measure-panel #measure-form');
  assert(await p.$eval('#measure-rule', s => s.value) === '["atomic.lua"]', 'the rule set is not chosen');
  assert(await p.$eval('#measure-params', e => e.value) === 'castling=off', 'the parameters');
  await p.$eval('#measure-params', e => { e.value = 'castling=sometimes'; });
  await p.click('#measure-go');
  await p.waitForFunction(() => document.querySelector('#measure-error').textContent !== '');
  const err = await p.$eval('#measure-error', e => e.textContent);
  assert(err.includes('castling') && err.includes('sometimes'), `the refusal: ${err}`);
  assert(!(await p.$('#measure-job')), 'a refused experiment shows a job');
});

// issue 23: its maker cancels a running experiment from the page.
test('lab_measure_cancel', async () => {
  const p = await open('/#measure');
  await p.waitForSelector('#measure-rule option[value=\'["king_of_the_hill.lua"]\']');
  await p.select('#measure-rule', '["king_of_the_hill.lua"]');
  await p.select('#measure-bots', 'greedy');
  await p.$eval('#measure-games', e => { e.value = '1000'; });
  await p.click('#measure-go');
  await p.waitForSelector('#measure-job[data-state="running"] #measure-cancel:not([hidden])', { timeout: 4 * STEP });
  await p.click('#measure-cancel');
  await p.waitForSelector('#measure-job[data-state="cancelled"]', { timeout: 4 * STEP });
  const err = await p.$eval('#measure-job-error', e => e.textContent);
  assert(err.includes('cancelled by its maker'), `the page says: ${err}`);
  const st = await (await fetch(`${env.base}/api/experiments/${await p.$eval('#measure-job', e => e.dataset.id)}`)).json();
  assert(st.state === 'cancelled' && st.done < st.total, JSON.stringify(st).slice(0, 200));
});

main();
