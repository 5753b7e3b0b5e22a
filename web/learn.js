// Lessons in the browser (issue 22 point 3): #learn=VARIANT lists the
// variant's lessons, #learn=VARIANT&n=ID plays one.  The server plays the
// lesson through core/cli/lesson.[ch] (learn-* frames, docs/WEB.md) as
// `chessvar learn` does; the boards are its drawings (core/draw/), the
// step's target squares marked.  A `views: both` lesson shows every
// seat's board side by side, each labelled with whose view it is.
'use strict';
import { h, squareOf } from './teach.js';

const $ = sel => document.querySelector(sel);
const L = { ws: null, variant: null, n: null, from: null, frame: null };

function connect(first) {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(`${proto}//${location.host}/ws`);
  L.ws = ws;
  ws.addEventListener('open', () => ws.send(JSON.stringify(first)));
  ws.addEventListener('message', ev => {
    const f = JSON.parse(ev.data);
    if (f.type === 'error') $('#learn-error').textContent = f.message;
    else if (f.type === 'lessons') list(f);
    else if (f.type === 'lesson') { $('#learn-error').textContent = ''; lesson(f); }
  });
}

function send(frame) {
  if (L.ws && L.ws.readyState === WebSocket.OPEN) L.ws.send(JSON.stringify(frame));
}

function list(f) {
  const main = $('#learn');
  main.textContent = '';
  main.append(h('h2', {}, `Lessons of ${f.title}`),
    h('ol', { id: 'learn-list' }, f.lessons.map(l => h('li', {},
      h('a', { href: `#learn=${f.variant}&n=${encodeURIComponent(l.id)}`, 'data-id': l.id }, l.title),
      ' ', h('small', {}, l.teaches.join(', '))))),
    h('p', { id: 'learn-error', class: 'error', role: 'alert' }));
}

function board(b, mine) {
  const box = h('figure', { class: 'learn-board', 'data-seat': b.seat },
    h('figcaption', {}, b.label), h('div', { class: 'svg' }));
  box.querySelector('.svg').innerHTML = b.svg;
  if (mine) box.addEventListener('click', ev => {
    const sq = squareOf(ev.target), input = $('#learn-text');
    if (!sq || !input) return;
    if (!L.from) {
      if (!ev.target.closest('g.piece')) return;
      L.from = sq; input.value = sq;
    } else { input.value = L.from + sq; L.from = null; }
  });
  return box;
}

function lesson(f) {
  L.frame = f;
  const main = $('#learn');
  main.textContent = '';
  const boards = h('div', { id: 'learn-boards', class: f.both ? 'both' : '' },
    f.boards.map(b => board(b, b.seat === f.seat)));
  const side = h('aside', { id: 'learn-side' },
    h('p', {}, h('a', { href: `#learn=${f.variant}` }, `Lessons of ${f.variant}`), ` — lesson ${f.n} of ${f.count} — `,
      h('a', { id: 'learn-teach', target: '_blank', href: `#teach&v=${f.variant}&lesson=${encodeURIComponent(f.id)}` }, 'Teach it to a class')),
    h('h2', {}, f.title),
    h('p', { id: 'learn-goal', class: 'goal' }, f.goal),
    h('p', { class: 'summary' }, `You play ${f.seat}. Teaches ${f.teaches.join(', ')}.`,
      f.targets.length ? ` Target squares: ${f.targets.join(', ')}.` : ''),
    f.both ? h('p', { class: 'summary', id: 'learn-both' }, 'Both seats\' views, side by side: only a lesson shows this, never a real game.') : null,
    f.text ? h('pre', { id: 'learn-said', class: `said ${f.result}` }, f.text) : null);
  if (f.done) {
    side.append(h('p', { id: 'learn-done', class: 'answer' }, 'Lesson done.'),
      f.n < f.count ? h('p', {}, h('a', { id: 'learn-next', href: `#learn=${f.variant}&n=${f.n + 1}` }, 'Next lesson')) : null);
  } else {
    side.append(h('form', { id: 'learn-form', onsubmit: ev => {
      ev.preventDefault();
      const t = $('#learn-text').value.trim();
      if (t) send({ type: 'learn-answer', text: t });
    } }, h('label', {}, 'Your move ', h('input', { id: 'learn-text', autocomplete: 'off', spellcheck: 'false' })),
    ' ', h('button', { type: 'submit' }, 'Play'),
    ' ', h('button', { type: 'button', id: 'learn-hint', onclick: () => send({ type: 'learn-hint' }) }, 'Hint')));
  }
  side.append(h('p', { id: 'learn-error', class: 'error', role: 'alert' }));
  main.append(boards, side);
}

export function learn(hash) {
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  L.variant = q.get('learn');
  L.n = q.get('n');
  document.body.append(h('main', { id: 'learn', class: 'learn' }, h('p', { id: 'learn-error', class: 'error', role: 'alert' })));
  connect(L.n ? { type: 'learn-start', variant: L.variant, lesson: L.n } : { type: 'learn-list', variant: L.variant });
}
