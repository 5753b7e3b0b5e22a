// bench_chessjs.cjs -- `make bench`: the reference of bench_games (issue
// 12), chess.js playing random games in node, per ply moves(), move() of
// one drawn at random, isGameOver(), to the end or 2,000 plies.
// Usage: NODE_PATH=build/chessjs/node_modules node tests/bench_chessjs.cjs GAMES
// Prints one line: "chessjs GAMES SECONDS PLIES" (bench_games reads it).
'use strict';
const { Chess } = require('chess.js');

const games = Number(process.argv[2] || 20);
let seed = 12345; // a fixed generator, so runs repeat
function below(n) {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return (seed >>> 8) % n;
}

const t0 = process.hrtime.bigint();
let plies = 0;
for (let g = 0; g < games; g++) {
  const c = new Chess();
  for (let n = 0; n < 2000 && !c.isGameOver(); n++, plies++) {
    const moves = c.moves();
    c.move(moves[below(moves.length)]);
  }
}
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(`chessjs ${games} ${seconds.toFixed(4)} ${plies}`);
