#!/usr/bin/env node
// The browser's time to the first board (issue 21, speed and scale), for
// tests/bench_web.c: Debian's chromium, headless, driven by puppeteer-core,
// opens a seat's link N times, each in a fresh browser context (an empty
// cache: a first load), and times from the navigation's start until the
// page has drawn the first state (document.body.dataset.ply is set after
// the board is drawn).  The reference, in the same browser and run: the
// same navigation to a tiny document, /api/games.
//
//   node tests/bench_web_page.cjs BASE LINK N
// prints one line: "browser BOARD_MS REF_MS" (medians), or exits 1 with a
// line saying what failed.
'use strict';
const path = require('path');

const [base, link, n] = [process.argv[2], process.argv[3], Number(process.argv[4] || 10)];
const ROOT = path.resolve(__dirname, '..');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const PDIR = process.env.PUPPETEER_DIR || path.join(ROOT, 'build', 'web-test');

const median = a => a.slice().sort((x, y) => x - y)[Math.floor((a.length - 1) / 2)];

async function timed(browser, url, drawn) {
  const ctx = await browser.createBrowserContext();
  const page = await ctx.newPage();
  page.setDefaultTimeout(15000);
  const t0 = performance.now();
  await page.goto(url, { waitUntil: drawn ? 'domcontentloaded' : 'load' });
  if (drawn) await page.waitForFunction(() => document.body.dataset.ply !== undefined);
  const t = performance.now() - t0;
  await ctx.close();
  return t;
}

async function main() {
  const puppeteer = require(path.join(PDIR, 'node_modules', 'puppeteer-core'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    await timed(browser, base + link, true); // the browser's own first start
    const board = [], ref = [];
    for (let i = 0; i < n; i++) {
      board.push(await timed(browser, base + link, true));
      ref.push(await timed(browser, base + '/api/games', false));
    }
    console.log(`browser ${median(board).toFixed(2)} ${median(ref).toFixed(2)}`);
  } finally {
    await browser.close();
  }
}

main().catch(e => { console.log(`bench_web_page: ${e.message}`); process.exit(1); });
