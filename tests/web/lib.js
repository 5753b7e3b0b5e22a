// Shared helpers of the browser tests (issue 21): the harness (cmocka's
// words, so tests/run.sh counts them with the C tests), `chessvar serve`,
// chromium through puppeteer-core, and the page's board.  A test file
// requires it, registers its tests with test() and calls main().
//
// Environment: CHESSVAR (the program), CHROMIUM (default /usr/bin/chromium),
// PUPPETEER_DIR (default build/web-test), WEB_TEST_OUT (screenshots, default
// build/web-test), WEB_TEST_FILTER=substring (the tests whose name holds it),
// CHESSVAR_DOCS_UPDATE=1 (write the pictures of docs/WEB-PAGE.md again).
'use strict';
const path = require('path');
const fs = require('fs');
const os = require('os');
const { spawn } = require('child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const CHESSVAR = process.env.CHESSVAR || path.join(ROOT, 'chessvar');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const PDIR = process.env.PUPPETEER_DIR || path.join(ROOT, 'build', 'web-test');
const OUT = process.env.WEB_TEST_OUT || path.join(ROOT, 'build', 'web-test');
const STEP = 15000;       // the most one step may take (ms)

// What the tests share: the server's address, the browser, the pages of
// the running test (photographed when it fails).
const env = { server: null, base: null, dataDir: null, browser: null, live: [], testMs: 120000 };

/* ---------------------------------------------------------------- harness */
const tests = [];
const test = (name, fn, ms = 0) => tests.push({ name, fn, ms });

function withTimeout(promise, ms, what) {
  let t;
  return Promise.race([
    promise,
    new Promise((_, rej) => { t = setTimeout(() => rej(new Error(`timed out after ${ms / 1000} s: ${what}`)), ms); }),
  ]).finally(() => clearTimeout(t));
}

function assert(cond, msg) { if (!cond) throw new Error(msg); }

const sleep = ms => new Promise(r => setTimeout(r, ms));

/* ------------------------------------------------------------- the server */
function startServer(port = 0) {
  if (!fs.existsSync(CHESSVAR)) return Promise.reject(new Error(`${CHESSVAR} is missing: build it first (make)`));
  if (!env.dataDir) env.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chessvar-web-'));
  return withTimeout(new Promise((res, rej) => {
    const s = spawn(CHESSVAR, ['serve', '--port', String(port), '--data', env.dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    env.server = s;
    let out = '';
    const look = d => {
      out += d;
      const m = /(http:\/\/[0-9.:\[\]a-z]+:\d+)/i.exec(out);
      if (m) res(m[1].replace('0.0.0.0', '127.0.0.1'));
    };
    s.stdout.on('data', look);
    s.stderr.on('data', look);
    s.on('error', rej);
    s.on('exit', code => rej(new Error(`chessvar serve exited with status ${code} before printing its address: ${out.trim()}`)));
  }), STEP, 'chessvar serve to print its address');
}

function stopServer() {
  const s = env.server;
  if (!s || s.exitCode !== null) return Promise.resolve();
  return withTimeout(new Promise(res => { s.on('exit', res); s.kill('SIGTERM'); }), STEP, 'the server to stop');
}

async function api(pathname, body) {
  const r = await withTimeout(fetch(env.base + pathname, body ? {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  } : {}), STEP, `${pathname}`);
  const j = await r.json();
  if (!r.ok) throw new Error(`${pathname}: ${r.status} ${JSON.stringify(j)}`);
  return j;
}

/* ------------------------------------------------------------- the browser */
async function startBrowser() {
  let puppeteer;
  try {
    puppeteer = require(path.join(PDIR, 'node_modules', 'puppeteer-core'));
  } catch (e) {
    throw new Error(`puppeteer-core is not installed in ${PDIR} (make deps-web): ${e.message}`);
  }
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing (sh tests/deps.sh chromium)`);
  env.browser = await withTimeout(puppeteer.launch({
    executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  }), STEP * 2, 'chromium to start');
}

// A page in its own browser context (its own storage: another device).
async function open(link, { width = 1100, height = 800, touch = false } = {}) {
  const ctx = await withTimeout(env.browser.createBrowserContext(), STEP, 'a browser context');
  const page = await ctx.newPage();
  page.setDefaultTimeout(STEP);
  page.errors = [];
  page.on('pageerror', e => page.errors.push(e.message));
  await page.setViewport({ width, height, isMobile: touch, hasTouch: touch });
  await page.goto(env.base + link, { waitUntil: 'domcontentloaded', timeout: STEP });
  page.ctx = ctx;
  env.live.push(page);
  return page;
}

async function waitPly(page, ply) {
  await page.waitForFunction(n => document.body.dataset.ply === String(n), { timeout: STEP }, ply)
    .catch(async () => { throw new Error(`the page did not reach ply ${ply} (at ${await page.evaluate(() => document.body.dataset.ply)}; error shown: ${await page.$eval('#error', e => e.textContent)})`); });
}

async function cellBox(page, x, y) {
  const cell = await page.$(`#board rect.cell[data-x="${x}"][data-y="${y}"]`);
  assert(cell, `no square ${x},${y} on the board`);
  const box = await cell.boundingBox();
  assert(box, `the square ${x},${y} is not on the screen`);
  return box;
}

// Click the middle of square (x, y) on the page's board.
async function clickSquare(page, x, y) {
  const box = await cellBox(page, x, y);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

// The state frame a viewer gets, read over a WebSocket of the test's own
// (not through the page's code), from a page of the server's origin.
async function stateOf(page, game, token) {
  return withTimeout(page.evaluate((g, t) => new Promise((res, rej) => {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', game: g, token: t || '' }));
    ws.onmessage = ev => { const f = JSON.parse(ev.data); ws.close(); f.type === 'state' ? res(f) : rej(new Error(f.message)); };
    ws.onerror = () => rej(new Error('websocket error'));
  }), game, token), STEP, 'a state frame');
}

// Every piece of the view is on the board with its figure, and nothing else.
async function checkPieces(page, view) {
  const drawn = await page.$$eval('#board g.piece', els => els.map(e => ({
    square: e.dataset.square, figure: e.dataset.figure, side: e.dataset.side,
    letter: (e.querySelector('text.letter') || {}).textContent,
  })));
  assert(drawn.length === view.pieces.length,
    `the board shows ${drawn.length} pieces, the view lists ${view.pieces.length}`);
  for (const p of view.pieces) {
    const d = drawn.find(e => e.square === p.square);
    assert(d, `the view's piece on ${p.square} is not drawn`);
    assert(d.figure === p.figure, `${p.square}: drawn as ${d.figure}, the view says ${p.figure}`);
  }
  return drawn;
}

// A screenshot as a test artefact; with CHESSVAR_DOCS_UPDATE=1 the ones
// docs/WEB-PAGE.md shows are written to docs/ too (as test_docs' update).
const DOC_SHOTS = { 'orthodox': 'web-orthodox.png', 'masques-spectator': 'web-masques-spectator.png', 'tile-6-board': 'web-tile-board.png',
  'class-teacher': 'web-class-teacher.png', 'class-student': 'web-class-student.png',
  'learn-both': 'web-learn-both.png', 'lab-measure': 'web-lab-measure.png',
  'lab-editor': 'web-lab-editor.png', 'fairy': 'web-fairy.png', 'turns-monster': 'web-monster.png' };
async function shot(page, name) {
  fs.mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, `${name}.png`);
  await withTimeout(page.screenshot({ path: file }), STEP, `the screenshot ${name}`);
  assert(fs.statSync(file).size > 1000, `${file} is empty`);
  if (process.env.CHESSVAR_DOCS_UPDATE && DOC_SHOTS[name])
    fs.copyFileSync(file, path.join(ROOT, 'docs', DOC_SHOTS[name]));
  return file;
}

const seatLink = (g, seat) => g.seats.find(s => s.seat === seat).link;
const tokenOf = link => new URLSearchParams(link.split('#')[1]).get('t');

/* -------------------------------------------------------------------- run */
async function main() {
  const filter = process.env.WEB_TEST_FILTER || '';
  const chosen = tests.filter(t => t.name.includes(filter));
  console.log(`[==========] Running ${chosen.length} test(s).`);
  let setupError = null;
  try {
    env.base = await startServer();
    await startBrowser();
    console.log(`(server: ${CHESSVAR} serve at ${env.base}; chromium: ${CHROMIUM})`);
  } catch (e) {
    setupError = e;
  }
  const failed = [];
  let passed = 0;
  for (const t of chosen) {
    console.log(`[ RUN      ] ${t.name}`);
    for (const p of env.live) await withTimeout(p.ctx.close(), 5000, 'a context to close').catch(() => {});
    env.live = [];
    try {
      if (setupError) throw setupError;
      await withTimeout(t.fn(), t.ms || env.testMs, t.name);
      console.log(`[       OK ] ${t.name}`);
      passed++;
    } catch (e) {
      console.log(`[  ERROR   ] --- ${e.message}`);
      fs.mkdirSync(OUT, { recursive: true });
      for (let i = 0; i < env.live.length; i++) {
        const f = path.join(OUT, `FAILED-${t.name}-${i}.png`);
        await withTimeout(env.live[i].screenshot({ path: f }), 5000, 'a screenshot').then(() => console.log(`(screenshot: ${f})`), () => {});
      }
      console.log(`[  FAILED  ] ${t.name}`);
      failed.push(t.name);
    }
  }
  console.log(`[==========] ${chosen.length} test(s) run.`);
  console.log(`[  PASSED  ] ${passed} test(s).`);
  if (failed.length) {
    console.log(`[  FAILED  ] ${failed.length} test(s), listed below:`);
    for (const n of failed) console.log(`[  FAILED  ] ${n}`);
  }
  const b = env.browser;
  if (b) await withTimeout(b.close(), 5000, 'chromium to close').catch(() => b.process() && b.process().kill('SIGKILL'));
  await stopServer().catch(() => env.server.kill('SIGKILL'));
  if (env.dataDir) fs.rmSync(env.dataDir, { recursive: true, force: true });
  process.exit(failed.length ? 1 : 0);
}

module.exports = {
  ROOT, CHESSVAR, STEP, env, test, withTimeout, assert, sleep, startServer, stopServer, api,
  open, waitPly, cellBox, clickSquare, stateOf, checkPieces, shot, seatLink, tokenOf, main,
};
