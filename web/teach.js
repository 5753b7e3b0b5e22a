// The teacher's board (issue 22 point 5): a class over the server's
// WebSocket (docs/WEB.md, "Classes").  Routes:
//   #teach&g=GAME&t=TOKEN   the teacher opens a class on that game's position
//   #class=CODE             a student joins the class (a name, no account)
// The teacher's token stays in this tab's sessionStorage (never in the
// link, which a projector shows); a reloaded teacher's page comes back
// with it.  The board is the server's drawing (core/draw/) of what the seat
// to play may see; clicks on a piece and a square write the move's text.
'use strict';

const $ = sel => document.querySelector(sel);

export function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

const T = { ws: null, role: null, code: null, teacher: null, name: null, frame: null, from: null, open: null };

function showError(msg) { $('#class-error').textContent = msg || ''; }

function connect() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(`${proto}//${location.host}/ws`);
  T.ws = ws;
  ws.addEventListener('open', () => { $('#class-conn').textContent = 'connected'; T.open(); });
  ws.addEventListener('message', ev => {
    const f = JSON.parse(ev.data);
    if (f.type === 'error') { showError(f.message); return; }
    if (f.type !== 'class') return;
    showError('');
    T.frame = f;
    T.code = f.code;
    if (f.role === 'teacher') {
      T.teacher = f.teacher;
      sessionStorage.setItem(`class-${f.code}`, f.teacher);
      if (!location.hash.includes('code=')) history.replaceState(null, '', `#teach&code=${f.code}`);
    }
    draw();
  });
  ws.addEventListener('close', () => {
    if (T.ws !== ws) return;
    $('#class-conn').textContent = 'disconnected: trying again';
    setTimeout(connect, 2000);
  });
}

function send(frame) {
  if (!T.ws || T.ws.readyState !== WebSocket.OPEN) { showError('not connected'); return; }
  T.ws.send(JSON.stringify(frame));
}

/* The board: the server's SVG; a click on a piece then a square writes
   "e2e4" into the answer field (bounded boards: files a.., ranks 1..). */
export function squareOf(el) {
  const p = el.closest('g.piece');
  if (p && p.dataset.square) return p.dataset.square;
  const c = el.closest('rect.cell');
  if (!c) return null;
  const x = Number(c.dataset.x), y = Number(c.dataset.y);
  if (!(x >= 0 && x < 26 && y >= 0)) return null;
  return String.fromCharCode(97 + x) + (y + 1);
}

function drawBoard(f, box) {
  box.innerHTML = f.svg || '';
  box.onclick = ev => {
    const input = $('#class-text');
    if (!input) return;
    const sq = squareOf(ev.target);
    if (!sq) return;
    if (!T.from) {
      if (!ev.target.closest('g.piece')) return;
      T.from = sq;
      box.dataset.from = sq;
      input.value = sq;
    } else {
      input.value = T.from + sq;
      T.from = null;
      delete box.dataset.from;
    }
  };
}

function answerLine(f) {
  if (!f.answer) return null;
  const t = f.answer.text === f.answer.move ? f.answer.text : `${f.answer.text} (${f.answer.move})`;
  return h('p', { id: 'class-answer', class: 'answer' }, `The answer: ${t}`);
}

function draw() {
  const f = T.frame, main = $('#class');
  const typed = $('#class-text') ? $('#class-text').value : '';
  main.textContent = '';
  const turn = f.over ? 'The game is over.' : `${f.seat} to play (you see what ${f.seat} may see)`;
  const board = h('div', { id: 'class-board', class: 'class-board' });
  drawBoard(f, board);
  const side = h('aside', { id: 'class-side' },
    h('p', { id: 'class-conn', class: 'conn' }, 'connected'),
    h('h2', {}, `Class ${f.code}`, f.role === 'student' ? ` — ${f.name}` : ''),
    h('p', { id: 'class-turn' }, `Position ${f.round + 1}: ${f.variant}, ${turn}`),
    f.lesson ? h('p', { id: 'class-lesson', class: 'goal' }, h('b', {}, `Lesson ${f.lesson.n} of ${f.lesson.count}: ${f.lesson.title}. `), f.lesson.goal) : null,
    answerLine(f));
  if (f.role === 'teacher') teacherSide(f, side);
  else studentSide(f, side);
  side.append(h('p', { id: 'class-error', class: 'error', role: 'alert' }));
  main.append(board, side);
  if ($('#class-text') && f.round === T.round) $('#class-text').value = typed;
  T.round = f.round;
}

function teacherSide(f, side) {
  const link = `${location.origin}/#class=${f.code}`;
  side.append(
    h('p', {}, 'Students join at ', h('a', { id: 'class-link', href: link }, link),
      ' with the code ', h('b', { id: 'class-code' }, f.code), '.'),
    h('p', { id: 'class-count' }, `${f.students.length} student(s): ${f.students.join(', ') || 'none yet'}; `,
      `${f.groups.reduce((n, g) => n + g.count, 0)} answered.`));
  const list = h('ul', { id: 'class-groups' });
  for (const g of f.groups) {
    const li = h('li', { class: `group ${g.legal ? 'legal' : 'illegal'}`, 'data-move': g.move, 'data-count': g.count },
      h('b', {}, g.move), ` ×${g.count} `,
      h('span', { class: 'verdict' }, g.legal ? 'legal' : `refused: ${g.why}`),
      h('br'), h('small', {}, `${g.names.join(', ')} — typed ${g.texts.join(', ')}`));
    if (g.legal && !f.answer)
      li.append(' ', h('button', { type: 'button', class: 'reveal-group', onclick: () => send({ type: 'class-reveal', text: g.texts[0] }) }, 'Reveal this'));
    list.append(li);
  }
  side.append(h('h3', {}, 'Answers'), list);
  if (!f.answer && f.solution)
    side.append(h('p', { class: 'buttons' }, h('button', { type: 'button', id: 'class-solution', onclick: () => send({ type: 'class-reveal', text: f.solution }) }, `Reveal the lesson's answer (${f.solution})`)));
  if (!f.answer) {
    side.append(h('form', { id: 'class-reveal', onsubmit: ev => {
      ev.preventDefault();
      const t = $('#class-text').value.trim();
      if (t) send({ type: 'class-reveal', text: t });
    } }, h('label', {}, 'Answer ', h('input', { id: 'class-text', autocomplete: 'off', spellcheck: 'false' })),
    ' ', h('button', { type: 'submit' }, 'Reveal')));
  } else {
    side.append(h('p', { class: 'buttons' }, h('button', { type: 'button', id: 'class-next', onclick: () => send({ type: 'class-next' }) }, f.lesson ? 'Next lesson' : 'Play it and go on')));
  }
}

function studentSide(f, side) {
  side.append(h('p', { id: 'class-mine' }, f.mine ? `Your answer: ${f.mine}` : 'Your answer: none yet'));
  if (!f.answer && !f.over) {
    side.append(h('form', { id: 'class-submit', onsubmit: ev => {
      ev.preventDefault();
      const t = $('#class-text').value.trim();
      if (t) send({ type: 'class-submit', text: t });
    } }, h('label', {}, 'Your move ', h('input', { id: 'class-text', autocomplete: 'off', spellcheck: 'false', placeholder: 'e4, Nf3, or click the board' })),
    ' ', h('button', { type: 'submit' }, f.mine ? 'Change' : 'Submit')));
  }
}

function joinForm(code) {
  const main = $('#class');
  main.textContent = '';
  main.append(h('section', { id: 'class-join' },
    h('h2', {}, `Join class ${code}`),
    h('form', { id: 'class-join-form', onsubmit: ev => {
      ev.preventDefault();
      const name = $('#class-name').value.trim();
      if (!name) return;
      T.name = name;
      sessionStorage.setItem(`class-name-${code}`, name);
      T.open = () => send({ type: 'class-join', code, name: T.name });
      connect();
    } }, h('label', {}, 'Your name ', h('input', { id: 'class-name', maxlength: 32, autocomplete: 'off' })),
    ' ', h('button', { type: 'submit' }, 'Join')),
    h('p', { id: 'class-conn', class: 'conn' }),
    h('p', { id: 'class-error', class: 'error', role: 'alert' })));
}

export function teach(hash) {
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const main = h('main', { id: 'class', class: 'class' });
  document.body.append(main);
  main.append(h('p', { id: 'class-conn', class: 'conn' }), h('p', { id: 'class-error', class: 'error', role: 'alert' }));
  if (q.has('class')) {
    const code = q.get('class').toUpperCase();
    const name = sessionStorage.getItem(`class-name-${code}`);
    if (name) {
      T.name = name;
      T.open = () => send({ type: 'class-join', code, name });
      connect();
    } else joinForm(code);
  } else if (q.get('code')) {
    const code = q.get('code');
    T.open = () => send({ type: 'class-teach', code, teacher: sessionStorage.getItem(`class-${code}`) || '' });
    connect();
  } else {
    const game = q.get('g'), token = q.get('t'), variant = q.get('v'), lesson = q.get('lesson');
    T.open = () => {
      if (T.code) send({ type: 'class-teach', code: T.code, teacher: T.teacher });
      else if (lesson) send({ type: 'class-open', variant, lesson });
      else send({ type: 'class-open', game, token });
    };
    connect();
  }
  setInterval(() => {
    if (T.ws && T.ws.readyState === WebSocket.OPEN) T.ws.send(JSON.stringify({ type: 'ping' }));
  }, 25000);
}
