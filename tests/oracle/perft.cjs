// perft.cjs -- the oracle's command line (issue 24): perft counts of the
// lichess variants by chessops and of Fairy-Stockfish's by ffish, and the
// positions tests/test_fairy_oracle.c checks the fairy variant on.
//
//   node tests/oracle/perft.cjs perft VARIANT DEPTH [FEN]    the count
//   node tests/oracle/perft.cjs divide VARIANT DEPTH [FEN]   the count under
//        each root move (castling as the King's move, drops N@f3), then total
//   node tests/oracle/perft.cjs random VARIANT SEED [PLIES]  a position after
//        PLIES (default 20) random moves from the start, drawn from SEED
//   node tests/oracle/perft.cjs start VARIANT                the start position
//   node tests/oracle/perft.cjs check                        chessops against
//        the counts it publishes (tests/data/chessops_perft.epd)
//   node tests/oracle/perft.cjs plan [--random N] [--deep N] [--plies N] [--max-depth N]
//        the test's positions with the oracle's counts now, one a line:
//        VARIANT<TAB>LABEL<TAB>FEN<TAB>D1 D2 D3 [D4]<TAB>OUTCOME<TAB>ENDS
//        OUTCOME: the result here ('*' going on, '?' not compared), ENDS the
//        root moves after which the game is over, MOVE=RESULT, comma-separated
//        ('-' for none; ffish's lines: '?' and '-')
//   node tests/oracle/perft.cjs bench VARIANT DEPTH [FEN]    one line
//        "oracle VARIANT DEPTH NODES SECONDS" (tests/bench_fairy.c reads it)
//   node tests/oracle/perft.cjs versions                     the libraries'
//
// VARIANT: a lichess variant as our scripts are named (antichess, atomic,
// crazyhouse, horde, king_of_the_hill, racing_kings, three_check; orthodox)
// or chessops' own name (3check ...), computed by chessops; ffish:NAME (e.g.
// ffish:capablanca, ffish:grand) is computed by ffish.  Exit status 1 with
// the reason on standard error when anything fails; 2 when a library is
// not installed (make deps-oracle).
'use strict';
const fs = require('fs');
const path = require('path');
const O = require('./oracle.cjs');

const ROOT = path.resolve(__dirname, '..', '..');
const PUBLISHED = path.join(ROOT, 'tests', 'data', 'chessops_perft.epd');
const VARIANTS = ['antichess', 'atomic', 'crazyhouse', 'horde', 'king_of_the_hill', 'racing_kings',
  'three_check', 'orthodox'];
// Fairy-Stockfish's variants the issue names (scripts/variants/NAME.lua),
// counted by ffish: the plan's lines name them ffish:NAME.
const FFISH = ['capablanca', 'embassy', 'janus', 'grand'];

function usage() {
  throw new Error('usage: perft.cjs perft|divide VARIANT DEPTH [FEN] | random VARIANT SEED [PLIES] | '
    + 'start VARIANT | check | plan [--random N] [--deep N] [--plies N] [--max-depth N] | bench VARIANT DEPTH [FEN] | versions');
}

function depthOf(text) {
  const d = Number(text);
  if (!Number.isInteger(d) || d < 0 || d > 8)
    throw new Error(`depth "${text}": a whole number from 0 to 8`);
  return d;
}

const isFfish = v => v.startsWith('ffish:');

async function count(variant, depth, fen) {
  return isFfish(variant) ? O.ffishPerft(variant.slice(6), fen, depth) : O.perft(variant, fen, depth);
}

// The published positions: [{variant, name, fen, counts: [d1, d2, ...]}]
// (counts empty: a position without published counts).
function published() {
  const out = [];
  fs.readFileSync(PUBLISHED, 'utf8').split('\n').forEach((line, i) => {
    if (!line.trim() || line.startsWith('#'))
      return;
    const m = /^(\S+) (\S+) ([^;]+?)( (?:;D\d+ \d+ ?)+)?$/.exec(line);
    if (!m)
      throw new Error(`${PUBLISHED}:${i + 1}: not "VARIANT NAME FEN [;D1 n ;D2 n ...]": ${line}`);
    const counts = [];
    for (const f of (m[4] || '').split(';').filter(s => s.trim())) {
      const [d, n] = f.trim().slice(1).split(' ').map(Number);
      if (d !== counts.length + 1)
        throw new Error(`${PUBLISHED}:${i + 1}: depths must run 1, 2, ...`);
      counts.push(n);
    }
    out.push({ variant: m[1], name: m[2], fen: m[3], counts });
  });
  return out;
}

function check() {
  let n = 0;
  const wrong = [];
  for (const p of published())
    p.counts.forEach((want, i) => {
      const got = O.perft(p.variant, p.fen, i + 1);
      n++;
      if (got !== want)
        wrong.push(`${p.variant} ${p.name} depth ${i + 1}: chessops ${got}, published ${want}`);
    });
  wrong.forEach(w => console.log(w));
  console.log(`chessops ${O.ops().version}: ${n} published counts checked, ${wrong.length} wrong`);
  return wrong.length ? 1 : 0;
}

function option(args, name, dflt) {
  const i = args.indexOf(name);
  if (i < 0)
    return dflt;
  const v = Number(args[i + 1]);
  if (!Number.isInteger(v) || v < 0 || v > 100)
    throw new Error(`${name} "${args[i + 1]}": a whole number from 0 to 100`);
  return v;
}

// The test's positions: the published ones at their published depths (a
// published count chessops disagrees with fails the plan; those without
// counts to depth 3), each variant's
// start to depth 4, and `random` middlegame positions of each (seeds 1..)
// to depth 3; the first `deep` of those whose depth 3 is at most 60,000
// leaves go on to depth 4 (a couple of million), so the test keeps its time.
// Then Fairy-Stockfish's variants by ffish: the start and `random`
// middlegame positions, to depth 3.  --max-depth cuts every position's
// depths (the sanitized build's 3).
async function plan(args) {
  const random = option(args, '--random', 3);
  const deep = option(args, '--deep', 1);
  const plies = option(args, '--plies', 20);
  const most = option(args, '--max-depth', 4);
  const lines = [];
  const emit = (variant, label, fen, depth, want) => {
    const counts = [];
    for (let d = 1; d <= Math.min(depth, most); d++) {
      const n = O.perft(variant, fen, d);
      if (want && want[d - 1] !== undefined && want[d - 1] !== n)
        throw new Error(`chessops ${O.ops().version} counts ${n} for ${variant} ${label} at depth ${d}, `
          + `its tests publish ${want[d - 1]}: the oracle is not the one the tests were written for`);
      counts.push(n);
    }
    return counts;
  };
  const line = (variant, label, fen, counts) => {
    let here = '?', ends = '-';
    if (!isFfish(variant)) {
      const o = O.outcomes(variant, fen);
      here = o.here;
      if (o.ends.length)
        ends = o.ends.map(([m, r]) => `${m}=${r}`).join(',');
    }
    lines.push([variant, label, fen, counts.join(' '), here, ends].join('\t'));
  };
  for (const p of published())
    line(p.variant, p.name, p.fen, emit(p.variant, p.name, p.fen, p.counts.length || 3, p.counts));
  for (const v of VARIANTS) {
    const start = O.fenOf(O.position(v));
    line(v, 'start', start, emit(v, 'start', start, 4));
    let deeper = deep;
    for (let s = 1; s <= random; s++) {
      const r = O.randomPosition(v, s, plies);
      const label = `random-${s} (${r.moves.join(' ')})`;
      const counts = emit(v, label, r.fen, 3);
      if (deeper > 0 && most >= 4 && counts[2] <= 60000) {
        counts.push(O.perft(v, r.fen, 4));
        deeper--;
      }
      line(v, label, r.fen, counts);
    }
  }
  const ff = async (v, label, fen) => {
    const counts = [];
    for (let d = 1; d <= Math.min(3, most); d++)
      counts.push(await O.ffishPerft(v, fen, d));
    line(`ffish:${v}`, label, fen, counts);
  };
  for (const v of FFISH) {
    await ff(v, 'start', await O.ffishStart(v));
    for (let s = 1; s <= random; s++) {
      const r = await O.ffishRandomPosition(v, s, plies);
      await ff(v, `random-${s} (${r.moves.join(' ')})`, r.fen);
    }
  }
  console.log(lines.join('\n'));
}

async function main(argv) {
  const [cmd, ...args] = argv;
  if (!(cmd === 'versions' || (args[0] && isFfish(args[0]))))
    await O.load();
  switch (cmd) {
    case 'perft': {
      if (args.length < 2 || args.length > 3)
        usage();
      console.log(await count(args[0], depthOf(args[1]), args[2]));
      return 0;
    }
    case 'divide': {
      if (args.length < 2 || args.length > 3)
        usage();
      const depth = depthOf(args[1]);
      if (depth < 1)
        throw new Error('divide needs a depth of 1 or more');
      const rows = isFfish(args[0]) ? await O.ffishDivide(args[0].slice(6), args[2], depth)
        : O.divide(args[0], args[2], depth);
      let total = 0;
      for (const [m, n] of rows) {
        console.log(`${m}: ${n}`);
        total += n;
      }
      console.log(`total: ${total}`);
      return 0;
    }
    case 'random': {
      if (args.length < 2 || args.length > 3)
        usage();
      const plies = args[2] === undefined ? 20 : Number(args[2]);
      const r = isFfish(args[0]) ? await O.ffishRandomPosition(args[0].slice(6), Number(args[1]), plies)
        : O.randomPosition(args[0], Number(args[1]), plies);
      console.log(r.fen);
      return 0;
    }
    case 'start': {
      if (args.length !== 1)
        usage();
      console.log(isFfish(args[0]) ? await O.ffishStart(args[0].slice(6)) : O.fenOf(O.position(args[0])));
      return 0;
    }
    case 'check':
      return check();
    case 'plan':
      await plan(args);
      return 0;
    case 'bench': {
      if (args.length < 2 || args.length > 3)
        usage();
      const depth = depthOf(args[1]);
      await count(args[0], Math.max(1, depth - 1), args[2]); // loaded and warmed up first
      const t0 = process.hrtime.bigint();
      const n = await count(args[0], depth, args[2]);
      const s = Number(process.hrtime.bigint() - t0) / 1e9;
      console.log(`oracle ${args[0]} ${depth} ${n} ${s.toFixed(4)}`);
      return 0;
    }
    case 'versions': {
      const c = await O.load();
      const f = await O.ffish();
      console.log(`chessops ${c.version}\nffish ${f.version}`);
      return 0;
    }
    default:
      usage();
  }
  return 1;
}

main(process.argv.slice(2)).then(rc => process.exit(rc), e => {
  console.error(`perft.cjs: ${e.message}`);
  process.exit(e.missing ? 2 : 1);
});
