// chessvar's page: the lobby (no #g= in the address) and a game (#g=ID,
// &t=TOKEN for a seat, &board=1 for the projector).  Everything it shows
// comes from the server's answers (the frames of docs/WEB.md): the
// board as the server draws the seat's view (board_svg), the clicks from
// legal.detail; it never reads
// a variant's texts to decide anything.

const SVGNS = 'http://www.w3.org/2000/svg';

// Side colours (fill, ink) for up to six sides, as the terminal's order:
// white, black, red, blue, green, yellow.
const COLOURS = {
  white: ['#f7f3e8', '#1a1a1a'], black: ['#262626', '#ffffff'],
  red: ['#b3261e', '#ffffff'], blue: ['#1f4fbf', '#ffffff'],
  green: ['#7cc46a', '#102010'], yellow: ['#f2c230', '#1a1a1a'],
  merged: ['#8a8a8a', '#ffffff'],
};
const SPARE = [['#7a4fa0', '#fff'], ['#2b8c8c', '#fff'], ['#c06a20', '#fff']];

const $ = (sel, root = document) => root.querySelector(sel);

function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

function s(tag, attrs = {}, ...kids) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs))
    if (v !== null && v !== undefined) el.setAttribute(k, v);
  for (const kid of kids) if (kid) el.append(kid);
  return el;
}

function parseHash() {
  const q = new URLSearchParams(location.hash.replace(/^#/, ''));
  return { game: q.get('g'), token: q.get('t') || '', board: q.get('board') === '1' };
}

async function getJSON(url, opts) {
  const r = await fetch(url, opts);
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  if (!r.ok) throw new Error((body && body.error) || `${url}: HTTP ${r.status}`);
  return body;
}

function colour(side, sides) {
  if (side && COLOURS[side]) return COLOURS[side];
  const i = sides ? sides.indexOf(side) : -1;
  return i >= 0 ? SPARE[i % SPARE.length] : COLOURS.merged;
}

async function copy(text, btn) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (e) {
    const ta = h('textarea', {}, text);
    document.body.append(ta); ta.select();
    document.execCommand('copy'); ta.remove();
  }
  btn.textContent = 'Copied';
  setTimeout(() => { btn.textContent = 'Copy'; }, 1500);
}

/* ------------------------------------------------------------------ lobby */

let catalogue = null;

// The seats' names of this number of sides (and seats), as the engine names
// them: /api/variants lists them for every count the variant allows.
function seatNames(v, sides, seats) {
  const e = (v.seat_names || []).find(x => x.sides === sides && (!seats || x.seats === seats));
  return e ? e.names : [];
}

function paramField(p) {
  const id = `param-${p.name}`;
  let input;
  if (p.type === 'bool') {
    input = h('select', { id, 'data-param': p.name },
      ['on', 'off'].map(o => h('option', { value: o, selected: String(p.default) === o }, o)));
  } else if (p.type === 'choice') {
    input = h('select', { id, 'data-param': p.name },
      (p.choices || []).map(o => h('option', { value: o, selected: String(p.default) === o }, o)));
  } else {
    input = h('input', { id, 'data-param': p.name, type: 'number', value: p.default,
      min: p.min, max: p.max, step: 1 });
  }
  return h('div', { class: 'field' }, h('label', { for: id }, p.name), ' ', input,
    p.doc ? h('small', {}, ' ', p.doc) : null);
}

function renderVariantForm() {
  const v = catalogue.variants.find(x => x.name === $('#variant').value);
  if (!v) return;
  $('#variant-summary').textContent = v.summary || '';
  const params = $('#params');
  params.replaceChildren(h('legend', {}, 'Parameters'), ...(v.params || []).map(paramField));
  params.hidden = !(v.params || []).length;

  const rules = $('#rules');
  const scripts = (catalogue.scripts || []).filter(sc =>
    !sc.variants || !sc.variants.length || sc.variants.includes(v.name));
  rules.replaceChildren(h('legend', {}, 'House rules'), ...scripts.map(sc =>
    h('label', { class: 'rule' }, h('input', { type: 'checkbox', value: sc.file }), ' ',
      h('b', {}, sc.name || sc.file), sc.description ? ` — ${sc.description}` : '')));
  rules.hidden = !scripts.length;

  const counts = $('#counts');
  counts.replaceChildren();
  const sd = v.sides || { min: 2, max: 2, default: 2 };
  if (sd.max > sd.min) {
    const sel = h('select', { id: 'sides' });
    for (let n = sd.min; n <= sd.max; n++)
      sel.append(h('option', { value: n, selected: n === sd.default }, n));
    sel.addEventListener('change', renderPlayers);
    counts.append(h('label', {}, 'Sides ', sel), ' ');
  }
  const seats = v.seats || [sd.default];
  if (seats.length > 1) {
    const sel = h('select', { id: 'seats' }, seats.map(n => h('option', { value: n }, n)));
    sel.addEventListener('change', renderPlayers);
    counts.append(h('label', {}, 'Seats ', sel));
  }
  renderPlayers();
}

function currentCounts() {
  const v = catalogue.variants.find(x => x.name === $('#variant').value);
  const sd = v.sides || { default: 2 };
  const sides = $('#sides') ? Number($('#sides').value) : sd.default;
  const seats = $('#seats') ? Number($('#seats').value) : null;
  return { v, sides, seats };
}

function renderPlayers() {
  const { v, sides, seats } = currentCounts();
  const names = seatNames(v, sides, seats);
  const box = $('#players');
  box.replaceChildren(h('legend', {}, 'Seats'), ...names.map(name => {
    const sel = h('select', { 'data-seat': name, 'aria-label': `${name}: person or bot` },
      h('option', { value: '' }, 'person'),
      ['random', 'greedy', 'search', 'search:2000', 'search:20000'].map(l =>
        h('option', { value: l }, `bot: ${l}`)));
    return h('div', { class: 'field' }, h('span', { class: 'swatch', style: swatchStyle(name) }),
      ` ${name} `, sel);
  }));
}

function swatchStyle(side) {
  const [fill] = colour(side);
  return `background:${fill}`;
}

async function createGame(ev) {
  ev.preventDefault();
  $('#create-error').textContent = '';
  const { v, sides, seats } = currentCounts();
  const params = {};
  for (const el of document.querySelectorAll('[data-param]')) {
    const p = v.params.find(x => x.name === el.dataset.param);
    if (p && String(el.value) !== String(p.default)) params[p.name] = String(el.value);
  }
  const rules = [...document.querySelectorAll('#rules input:checked')].map(el => el.value);
  const players = [...document.querySelectorAll('[data-seat]')].map(el =>
    ({ seat: el.dataset.seat, bot: el.value || null }));
  const body = { variant: v.name, params, rules, players };
  if ($('#sides')) body.sides = sides;
  if (seats) body.seats = seats;
  try {
    const g = await getJSON('/api/games', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
    showLinks(g);
    loadGames();
  } catch (e) {
    $('#create-error').textContent = e.message;
  }
}

// Load: a record file (docs/RECORDS.md) starts its game on the server.
async function loadRecord(ev) {
  ev.preventDefault();
  $('#load-error').textContent = '';
  const file = $('#load-file').files[0];
  if (!file) { $('#load-error').textContent = 'choose a record file first'; return; }
  try {
    const text = await file.text();
    const g = await getJSON('/api/games', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ record: text }),
    });
    showLinks(g);
    loadGames();
  } catch (e) {
    $('#load-error').textContent = e.message;
  }
}

function linkRow(label, link, cls) {
  const url = new URL(link, location.href).href;
  const btn = h('button', { type: 'button', class: 'copy' }, 'Copy');
  btn.addEventListener('click', () => copy(url, btn));
  return h('li', { class: cls }, h('b', {}, label), ' ', h('a', { href: url, target: '_blank' }, url), ' ', btn);
}

function showLinks(g) {
  const seats = g.seats.filter(st => !st.bot).map(st => linkRow(`${st.seat} (private)`, st.link, 'seat-link'));
  const bots = g.seats.filter(st => st.bot).map(st => h('li', {}, `${st.seat}: bot ${st.bot}`));
  $('#links').replaceChildren(
    h('h3', {}, `Game ${g.game}`),
    h('p', {}, 'Give each person its own link: it lets whoever has it play that seat.'),
    h('ul', {}, seats, bots,
      linkRow('spectators', g.spectator, 'spectator-link'),
      linkRow('board (projector)', g.board, 'board-link')));
}

async function loadGames() {
  try {
    const list = await getJSON('/api/games');
    const ul = $('#games');
    ul.replaceChildren(...list.games.map(g => h('li', {},
      h('b', {}, g.title || g.variant), ' ',
      g.seats.map(st => `${st.seat}${st.bot ? ` (bot ${st.bot})` : ''}${st.connected ? ' ●' : ''}`).join(', '),
      ' ', g.over ? h('span', { class: 'over' }, g.result) : 'playing', ' ',
      h('a', { href: `#g=${encodeURIComponent(g.game)}` }, 'watch'), ' ',
      h('a', { href: `#g=${encodeURIComponent(g.game)}&board=1` }, 'board'))));
    if (!list.games.length) ul.replaceChildren(h('li', {}, 'none yet'));
  } catch (e) {
    $('#games').replaceChildren(h('li', { class: 'error' }, e.message));
  }
}

async function lobby() {
  $('#lobby').hidden = false;
  document.title = 'chessvar — new game';
  try {
    catalogue = await getJSON('/api/variants');
  } catch (e) {
    $('#create-error').textContent = e.message;
    return;
  }
  const sel = $('#variant');
  sel.replaceChildren(...catalogue.variants.map(v => h('option', { value: v.name }, v.title || v.name)));
  sel.addEventListener('change', renderVariantForm);
  renderVariantForm();
  $('#create-form').addEventListener('submit', createGame);
  $('#load-form').addEventListener('submit', loadRecord);
  $('#refresh').addEventListener('click', loadGames);
  loadGames();
  setInterval(loadGames, 5000);
}

/* ------------------------------------------------------------------- game */

const G = {
  game: null, token: '', board: false,
  ws: null, state: null, tries: 0, timer: null,
  refused: false,          // the server refused the hello: no retrying
  selected: null,          // {x, y} of the selected piece
  focus: null,             // {x, y} of the keyboard's square
  handFigure: null,        // a figure of the hand chosen for placement
  messages: [],
  cam: null,               // unbounded plane: {x, y, w, h} in squares
  userCam: false,           // the person panned or zoomed: keep the camera
};

function connect() {
  clearTimeout(G.timer);
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(`${proto}//${location.host}/ws`);
  G.ws = ws;
  setConn('connecting…');
  ws.addEventListener('open', () => {
    const hello = { type: 'hello', game: G.game, token: G.token };
    if (G.board) hello.board = true;
    ws.send(JSON.stringify(hello));
  });
  ws.addEventListener('message', ev => {
    let f;
    try { f = JSON.parse(ev.data); } catch (e) { return; }
    if (f.type === 'state') {
      G.tries = 0;
      setConn('connected');
      onState(f);
    } else if (f.type === 'notice') {
      // A bot failed (its seat is stuck until the game changes).
      if (G.state) {
        for (const x of G.state.seats || []) if (x.seat === f.seat) x.stuck = f.message;
        drawSeats(G.state);
      }
      $('#notice').textContent = f.message;
    } else if (f.type === 'seats') {
      // Someone came or went: only the seats list changed.
      if (G.state) { G.state.seats = f.seats; drawSeats(G.state); }
    } else if (f.type === 'record') {
      download(`${f.game}.rec`, f.text);
    } else if (f.type === 'why') {
      // Issue 22: the rule that makes the action asked about legal or not.
      const w = $('#why');
      w.textContent = f.text;
      w.dataset.legal = f.legal ? 'yes' : 'no';
      w.dataset.rules = (f.rules || []).join(' ');
    } else if (f.type === 'error') {
      showError(f.message);
      // Refused before any state (an unknown game, a wrong token): trying
      // again would be refused again.
      if (!G.state) { G.refused = true; setConn('refused', true); }
    }
  });
  ws.addEventListener('close', () => {
    if (G.ws !== ws || G.refused) return;
    const delay = Math.min(30000, 500 * 2 ** G.tries);
    G.tries++;
    setConn(`connection lost: trying again in ${Math.round(delay / 1000)} s`, true);
    G.timer = setTimeout(connect, delay);
  });
}

function setConn(text, bad) {
  const el = $('#conn');
  el.textContent = text;
  el.classList.toggle('bad', !!bad);
  document.body.dataset.conn = bad ? (text === 'refused' ? 'refused' : 'lost') : text;
}

function showError(msg) {
  $('#error').textContent = msg;
}

// "Why?" (issue 22): ask whether an action is legal for this seat now, and
// by which rule; the answer comes as a why frame (or an error frame).
function askWhy(text) {
  if (!G.ws || G.ws.readyState !== WebSocket.OPEN || !G.state) return;
  showError('');
  G.ws.send(JSON.stringify({ type: 'why', text }));
}

function fileName(x) {
  return x < 26 ? String.fromCharCode(97 + x) : String(x + 1);
}

// The text a person would type for a square, and for a move between two.
function sqText(q) {
  return G.state.view.geometry.bounded ? `${fileName(q.x)}${q.y + 1}` : `${q.x},${q.y}`;
}
function moveText(from, to) {
  return G.state.view.geometry.bounded ? sqText(from) + sqText(to) : `${sqText(from)}-${sqText(to)}`;
}

function send(text) {
  if (!G.ws || G.ws.readyState !== WebSocket.OPEN || !G.state) {
    showError('not connected: the action was not sent');
    return;
  }
  showError('');
  G.ws.send(JSON.stringify({ type: 'act', text, ply: G.state.ply }));
  closeChooser();
}

// Save: the record the server gives this seat, as a file.
function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function askRecord() {
  if (!G.ws || G.ws.readyState !== WebSocket.OPEN) { showError('not connected'); return; }
  showError('');
  G.ws.send(JSON.stringify({ type: 'record' }));
}

function onState(f) {
  const prev = G.state;
  G.state = f;
  if (!prev || prev.ply !== f.ply) {
    G.selected = null; closeChooser();
    $('#why').textContent = '';
    // A window the person moved follows the pieces again when a square
    // this seat may now act on lies outside it: every legal target stays
    // in sight (the table grows as it is played).
    if (G.userCam && G.cam && details().some(d => [d.from, d.to].some(q => q &&
      (q.x < G.cam.x || q.x + 1 > G.cam.x + G.cam.w || -q.y < G.cam.y || -q.y + 1 > G.cam.y + G.cam.h))))
      G.userCam = false;
  }
  for (const m of f.messages || []) G.messages.push(m.text);
  document.title = `${f.title || f.variant} — chessvar`;
  $('#title').textContent = `${f.title || f.variant}${f.seat ? ` — you play ${f.seat}` : (f.board ? '' : ' — spectator')}`;
  draw();
  document.body.dataset.ply = f.ply;
  document.body.dataset.phase = f.view.phase || '';
}

// What this seat may click: its play actions (legal.detail) and the
// variant's other texts for them (legal.inputs: Échecs ambigus' whole
// moves and `keep` under the clock procedure), all of the same shape.
function details() {
  const L = G.state && G.state.legal;
  if (!L) return [];
  return [...(Array.isArray(L.detail) ? L.detail : []), ...(Array.isArray(L.inputs) ? L.inputs : [])];
}

const same = (a, b) => a && b && a.x === b.x && a.y === b.y;

/* Board geometry: map (x, y) of the engine to the SVG's columns and rows. */
function layout(view) {
  const geo = view.geometry;
  if (geo.bounded) {
    const flip = G.state.seat && view.sides && view.sides.indexOf(G.state.seat) === 1;
    const W = geo.width, H = geo.height;
    return {
      bounded: true, W, H, flip,
      col: x => flip ? W - 1 - x : x,
      row: y => flip ? y : H - 1 - y,
      fromCol: c => flip ? W - 1 - c : c,
      fromRow: r => flip ? r : H - 1 - r,
    };
  }
  return { bounded: false, col: x => x, row: y => -y, fromCol: c => c, fromRow: r => -r };
}

// The squares the window must show: the pieces, and every square of the
// seat's legal list (a target may lie a square beyond the pieces, a
// placement too), so whatever the seat may do can be clicked.
function extent(view) {
  const pts = view.pieces.map(p => ({ x: p.x, y: p.y }));
  for (const d of details()) for (const q of [d.from, d.to]) if (q) pts.push(q);
  if (!pts.length) pts.push({ x: 0, y: 0 });
  let x0 = Math.min(...pts.map(p => p.x)), x1 = Math.max(...pts.map(p => p.x));
  let y0 = Math.min(...pts.map(p => p.y)), y1 = Math.max(...pts.map(p => p.y));
  return { x0: x0 - 1, x1: x1 + 1, y0: y0 - 1, y1: y1 + 1 };
}

// The open table's frame: the bands of the coordinates (left, top) and
// the margins (right, bottom) have a size on the screen, in pixels,
// whatever the zoom, so their labels stay readable and apart.
const FRAME_PX = { l: 30, t: 20, r: 6, b: 6 };
const LABEL_PX = 11;      // the labels' font size on the screen

// The frame in squares for the camera cam, and s, pixels per square.
function planeFrame(cam) {
  const svg = $('#board');
  const cw = svg.clientWidth - FRAME_PX.l - FRAME_PX.r, ch = svg.clientHeight - FRAME_PX.t - FRAME_PX.b;
  let px = Math.min(cw / cam.w, ch / cam.h);
  if (!(px > 0)) px = 40;   // not laid out yet
  return { s: px, l: FRAME_PX.l / px, t: FRAME_PX.t / px, r: FRAME_PX.r / px, b: FRAME_PX.b / px };
}

// Every k-th label, k the first of 1, 2, 5, 10, 20 ... that leaves
// `need` pixels from one label to the next.
function labelStep(px, need) {
  for (let k = 1; ; k *= 10)
    for (const m of [1, 2, 5]) if (k * m * px >= need) return k * m;
}

function fitCamera(view) {
  const e = extent(view);
  // The window has the shape of the board less its frame, so the whole
  // SVG is the table.
  const svg = $('#board');
  const cw = svg.clientWidth - FRAME_PX.l - FRAME_PX.r, ch = svg.clientHeight - FRAME_PX.t - FRAME_PX.b;
  const ratio = cw > 0 && ch > 0 ? cw / ch : 1;
  let w = Math.max(8, e.x1 - e.x0 + 1), hgt = Math.max(8, e.y1 - e.y0 + 1);
  if (w / hgt < ratio) w = hgt * ratio; else hgt = w / ratio;
  // Centred on the squares: column x spans [x, x + 1], row -y [-y, -y + 1].
  G.cam = { x: (e.x0 + e.x1 + 1) / 2 - w / 2, y: (1 - e.y0 - e.y1) / 2 - hgt / 2, w, h: hgt };
}

function draw() {
  const f = G.state;
  const view = f.view;
  const svg = $('#board');
  const lay = layout(view);
  const D = details();
  const mine = !!f.legal;

  // What the selection allows.
  const fromSel = G.selected ? D.filter(d => same(d.from, G.selected) && d.to) : [];
  const toOnly = D.filter(d => !d.from && d.to && (!G.handFigure || d.figure === G.handFigure));
  const targets = G.selected ? fromSel.map(d => d.to) : toOnly.map(d => d.to);
  const movable = D.filter(d => d.from && d.to).map(d => d.from);

  svg.replaceChildren();
  let x0, x1, y0, y1, fr = null;
  if (lay.bounded) {
    svg.setAttribute('viewBox', `-0.6 -0.6 ${lay.W + 1.2} ${lay.H + 1.2}`);
    x0 = 0; x1 = lay.W - 1; y0 = 0; y1 = lay.H - 1;
    $('#zoom').hidden = true;
  } else {
    if (!G.cam || !G.userCam) fitCamera(view);
    fr = planeFrame(G.cam);
    svg.setAttribute('viewBox', `${G.cam.x - fr.l} ${G.cam.y - fr.t} ${G.cam.w + fr.l + fr.r} ${G.cam.h + fr.t + fr.b}`);
    $('#zoom').hidden = G.board;
    x0 = Math.floor(G.cam.x) - 1; x1 = Math.ceil(G.cam.x + G.cam.w) + 1;
    y0 = -Math.ceil(G.cam.y + G.cam.h) - 1; y1 = -Math.floor(G.cam.y) + 1;
  }
  svg.classList.toggle('plane', !lay.bounded);

  // The board is the server's: the seat's own View drawn by core/draw
  // (the renderer of `chessvar diagram`, issue 22), its cells, coordinates
  // and pieces; the page adds the selection, marks, focus and the open
  // table's frame on top.
  if (!f.board_svg) showError(`the board is not drawn: ${f.board_error || 'the server sent none'}`);
  const board = new DOMParser().parseFromString(f.board_svg || '<svg xmlns="http://www.w3.org/2000/svg"/>', 'image/svg+xml').documentElement;
  const part = cls => document.importNode(board.querySelector(`:scope > g.${cls}`) || s('g', { class: cls }), true);
  const cells = part('cells');
  if (G.selected) {
    const c = cells.querySelector(`rect.cell[data-x="${G.selected.x}"][data-y="${G.selected.y}"]`);
    if (c) c.classList.add('selected');
  }
  if (!lay.bounded) {
    // The open table beyond the pieces: one grid (a pattern) under the
    // window, the server's squares over it.
    svg.append(s('defs', {}, s('pattern', { id: 'plane-grid', width: 1, height: 1, patternUnits: 'userSpaceOnUse' },
      s('rect', { class: 'cell light', width: 1, height: 1 }))));
    cells.prepend(s('rect', { class: 'grid', x: x0, y: -y1, width: x1 - x0 + 1, height: y1 - y0 + 1, fill: 'url(#plane-grid)' }));
  }
  svg.append(cells);

  // Coordinates.
  const coords = lay.bounded ? part('coords') : s('g', { class: 'coords' });
  if (!lay.bounded) {
    // Labels on bands along the top and the left of the window: a column's
    // number only over the table (never in the corner, under the rows'
    // band), a row's only beside it, each whole, and every k-th one when
    // the squares are too small on the screen for all.
    const c = G.cam, font = LABEL_PX / fr.s, em = 0.7 * font;   // a digit's width, at most
    coords.append(s('rect', { class: 'band', x: c.x - fr.l, y: c.y - fr.t, width: c.w + fr.l + fr.r, height: fr.t }));
    coords.append(s('rect', { class: 'band', x: c.x - fr.l, y: c.y - fr.t, width: fr.l, height: c.h + fr.t + fr.b }));
    const widest = Math.max(String(x0).length, String(x1).length);
    const kx = labelStep(fr.s, widest * em * fr.s + 6), ky = labelStep(fr.s, LABEL_PX + 4);
    const style = `font-size:${font}px`;
    for (let x = x0; x <= x1; x++) {
      const half = String(x).length * em / 2;
      if (x % kx || x + 0.5 - half < c.x || x + 0.5 + half > c.x + c.w + fr.r) continue;
      coords.append(s('text', { x: x + 0.5, y: c.y - fr.t / 2 + 0.35 * font, style, 'data-col': x }, text(String(x))));
    }
    for (let y = y0; y <= y1; y++) {
      if (y % ky || -y + 0.5 - 0.65 * font < c.y || -y + 0.5 + 0.65 * font > c.y + c.h + fr.b) continue;
      coords.append(s('text', { x: c.x - fr.l / 2, y: -y + 0.5 + 0.35 * font, style, 'data-row': y }, text(String(y))));
    }
  }
  if (lay.bounded) svg.append(coords);

  // Movable pieces and targets.
  const marks = s('g', { class: 'marks' });
  if (mine && !G.selected) {
    for (const m of movable)
      marks.append(s('rect', { class: 'movable', x: lay.col(m.x) + 0.04, y: lay.row(m.y) + 0.04, width: 0.92, height: 0.92 }));
  }
  const occupied = new Set(view.pieces.map(p => `${p.x},${p.y}`));
  const seen = new Set();
  for (const t of targets) {
    const k = `${t.x},${t.y}`;
    if (seen.has(k)) continue;
    seen.add(k);
    const cx = lay.col(t.x) + 0.5, cy = lay.row(t.y) + 0.5;
    marks.append(occupied.has(k)
      ? s('circle', { class: 'target capture', cx, cy, r: 0.46, 'data-x': t.x, 'data-y': t.y })
      : s('circle', { class: 'target', cx, cy, r: 0.16, 'data-x': t.x, 'data-y': t.y }));
  }
  svg.append(marks);
  // The keyboard's square (drawn while the board has the focus).
  if (G.focus && document.activeElement === svg)
    svg.append(s('rect', { class: 'kbfocus', x: lay.col(G.focus.x) + 0.03, y: lay.row(G.focus.y) + 0.03, width: 0.94, height: 0.94, 'data-x': G.focus.x, 'data-y': G.focus.y }));

  svg.append(part('pieces'));
  if (!lay.bounded) svg.append(coords);

  drawHand(view, D);
  drawCaptured(view);
  drawSide(f, D);
}

function text(t) { return document.createTextNode(t); }

const LETTER = { king: 'K', queen: 'Q', rook: 'R', bishop: 'B', knight: 'N', pawn: 'P', hidden: '?' };

// A figure dragged from the hand onto a square is placed there.
let handDrag = null;
document.addEventListener('pointerup', ev => {
  const d = handDrag;
  handDrag = null;
  if (!d || !G.state || Math.hypot(ev.clientX - d.x, ev.clientY - d.y) < 8) return;
  const hit = document.elementFromPoint(ev.clientX, ev.clientY);
  if (!hit || !hit.closest('#board')) return;
  const sq = squareAt(ev);
  const acts = sq ? details().filter(x => !x.from && x.figure === d.figure && same(x.to, sq)) : [];
  if (acts.length) choose(acts);
});

function drawHand(view, D) {
  const box = $('#hand');
  const figs = [...new Set(D.filter(d => !d.from && d.to && d.figure).map(d => d.figure))];
  const held = (view.hand || []).filter(e => e.count > 0);
  // the board leaves room on the screen for the hands over and under it
  $('#board-wrap').classList.toggle('with-hands', held.length > 0);
  if (held.length) { drawHands(view, figs, held); return; }
  const top = $('#hand-top');
  top.hidden = true; top.replaceChildren(); delete top.dataset.key;
  if (!figs.length || G.board) { box.hidden = true; box.replaceChildren(); delete box.dataset.key; G.handFigure = null; return; }
  box.hidden = false;
  if (G.handFigure && !figs.includes(G.handFigure)) G.handFigure = null;
  const side = G.state.seat;
  const [fill, ink] = colour(side, view.sides);
  const count = fg => new Set(D.filter(d => !d.from && d.figure === fg).map(d => `${d.to.x},${d.to.y}`)).size;
  // The buttons stay as long as the figures do (a button replaced under a
  // click or the keyboard's focus would lose it); only their state and
  // counts change.  The figure picked is the hand's one tab stop, or the
  // first: the arrow keys move along the hand.
  const key = `${side}|${figs.join(' ')}`;
  if (box.dataset.key !== key) {
    const had = box.contains(document.activeElement) ? document.activeElement.dataset.figure : null;
    box.dataset.key = key;
    box.replaceChildren(h('span', {}, 'Place: '), ...figs.map(fg => {
      // the duck (issue 25) is nobody's: its own colour and name
      const b = fg === '*'
        ? h('button', { type: 'button', class: 'hand-piece duck', 'data-figure': fg }, 'duck')
        : h('button', { type: 'button', class: 'hand-piece', 'data-figure': fg, style: `background:${fill};color:${ink}` }, fg);
      // (detail 0: Enter or Space, not a pointer: the board takes the focus to place it)
      b.addEventListener('click', ev => pickFigure(G.handFigure === fg ? null : fg, ev.detail === 0));
      b.addEventListener('pointerdown', ev => { handDrag = { figure: fg, x: ev.clientX, y: ev.clientY }; });
      b.addEventListener('keydown', handKey);
      return b;
    }));
    const again = had && box.querySelector(`button[data-figure="${had}"]`);
    if (again) again.focus();
  }
  const stop = G.handFigure || figs[0];
  for (const b of box.querySelectorAll('button.hand-piece')) {
    const fg = b.dataset.figure, on = G.handFigure === fg;
    b.classList.toggle('on', on);
    b.setAttribute('aria-pressed', String(on));
    b.setAttribute('tabindex', fg === stop ? '0' : '-1');
    b.title = `${fg}: ${count(fg)} squares`;
  }
}

// Pieces in hand (issue 24, crazyhouse): every side's hand as the view
// tells it, the side at the top of the board over it (#hand-top), the one
// at the bottom under it (#hand).  The seat's own figures are buttons
// that pick a figure to drop (then a click on a square drops it), or are
// dragged onto a square, like Tile's placements; a figure it may not drop
// now is a disabled button.  A lettered figure (a piece of a rule set
// from parts) has the rounded square of the board's.
const ORTHODOX_LETTERS = 'KQRBNP';

function handRow(box, view, side, figs, held) {
  const mine = side === G.state.seat && !G.board;
  const list = held.filter(e => e.side === side);
  const [fill, ink] = colour(side, view.sides);
  const key = `${side}|${mine}|${list.map(e => `${e.letter}${e.count}${figs.includes(e.letter)}`).join(' ')}`;
  if (box.dataset.key === key) return;
  const had = box.contains(document.activeElement) ? document.activeElement.dataset.figure : null;
  box.dataset.key = key;
  box.dataset.side = side;
  const items = list.map(e => {
    const lettered = !ORTHODOX_LETTERS.includes(e.letter) && e.letter !== '?';
    const attrs = { class: `hand-piece${lettered ? ' lettered' : ''}`, 'data-figure': e.letter, 'data-count': e.count,
      style: `background:${fill};color:${ink}`, title: `${side} in hand: ${e.count} ${e.figure}` };
    const kids = [e.letter, e.count > 1 ? h('span', { class: 'count' }, `×${e.count}`) : null].filter(Boolean);
    if (!mine) return h('span', attrs, ...kids);
    const b = h('button', { type: 'button', ...attrs }, ...kids);
    if (!figs.includes(e.letter)) { b.disabled = true; return b; }
    const fg = e.letter;
    // (detail 0: Enter or Space, not a pointer: the board takes the focus to drop it)
    b.addEventListener('click', ev => pickFigure(G.handFigure === fg ? null : fg, ev.detail === 0));
    b.addEventListener('pointerdown', ev => { handDrag = { figure: fg, x: ev.clientX, y: ev.clientY }; });
    b.addEventListener('keydown', handKey);
    return b;
  });
  box.replaceChildren(h('span', { class: 'hand-label' }, `${side} in hand: `),
    ...(items.length ? items : [h('span', { class: 'hand-none' }, 'none')]));
  const again = had && box.querySelector(`button[data-figure="${had}"]`);
  if (again) again.focus();
}

function drawHands(view, figs, held) {
  const sides = view.sides || [];
  const bottom = sides[layout(view).flip ? 1 : 0], others = sides.filter(x => x !== bottom);
  if (G.handFigure && !figs.includes(G.handFigure)) G.handFigure = null;
  const box = $('#hand'), top = $('#hand-top');
  box.hidden = top.hidden = false;
  handRow(box, view, bottom, figs, held);
  if (others.length === 1) handRow(top, view, others[0], figs, held);
  else { // more than two sides: every other hand over the board, a row each
    const key = `rows|${JSON.stringify(held)}`;
    if (top.dataset.key !== key) {
      top.dataset.key = key;
      top.replaceChildren(...others.map(x => { const r = h('div', { class: 'hand-row' }); handRow(r, view, x, figs, held); return r; }));
    }
  }
  const live = [...box.querySelectorAll('button.hand-piece:not([disabled])')];
  const stop = G.handFigure || (live[0] && live[0].dataset.figure);
  for (const b of box.querySelectorAll('button.hand-piece')) {
    const on = G.handFigure === b.dataset.figure;
    b.classList.toggle('on', on);
    b.setAttribute('aria-pressed', String(on));
    b.setAttribute('tabindex', !b.disabled && b.dataset.figure === stop ? '0' : '-1');
  }
}

// Pick a figure of the hand (null: none).  From the keyboard the board
// takes the focus, its square on one where the figure may go.
function pickFigure(fg, keyboard) {
  G.handFigure = fg;
  G.selected = null;
  if (fg && keyboard) {
    const spots = details().filter(d => !d.from && d.to && d.figure === fg).map(d => d.to);
    if (spots.length && !spots.some(q => same(q, G.focus))) {
      const f = G.focus || spots[0];
      const near = spots.reduce((a, b) => Math.hypot(b.x - f.x, b.y - f.y) < Math.hypot(a.x - f.x, a.y - f.y) ? b : a);
      G.focus = { x: near.x, y: near.y };
      followFocus();
    }
  }
  draw();
  if (fg && keyboard) $('#board').focus();
}

// The arrow keys move along the hand's buttons.
function handKey(ev) {
  const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[ev.key];
  if (!step) return;
  ev.preventDefault();
  const list = [...$('#hand').querySelectorAll('button.hand-piece:not([disabled])')];
  const i = list.indexOf(ev.currentTarget);
  const next = list[(i + step + list.length) % list.length];
  for (const b of list) b.setAttribute('tabindex', b === next ? '0' : '-1');
  next.focus();
}

function drawCaptured(view) {
  const box = $('#captured');
  const caps = view.captured || [];
  box.hidden = !caps.length;
  box.replaceChildren(caps.length ? 'Captured: ' : '', ...caps.map(c => {
    const [fill, ink] = colour(c.side, view.sides);
    return h('span', { class: 'cap', style: `background:${fill};color:${ink}` },
      c.figure === 'hidden' ? '?' : (c.letter || LETTER[c.figure] || '?'));
  }));
}

function drawSide(f, D) {
  const view = f.view;
  const st = view.status || f.status || {};
  $('#turn').textContent = st.over ? 'Game over' :
    (view.question || (view.seat_to_act ? `${view.seat_to_act} to act` : ''));
  // A house rule's schedule (issue 25): which move of the turn, or the duck.
  const tm = $('#turn-moves'), tn = view.turn;
  tm.hidden = st.over || !tn || !view.side_to_move;
  tm.textContent = tm.hidden ? '' : tn.duck ? `${view.side_to_move}: place the duck` :
    `${view.side_to_move}: move ${Math.min(tn.made + 1, tn.moves)} of ${tn.moves}`;
  $('#result').textContent = st.over ? `${st.result}${st.reason ? ` — ${st.reason}` : ''}` :
    (st.in_check && st.in_check.length ? `check: ${st.in_check.join(', ')}` : '');
  document.body.classList.toggle('over', !!st.over);
  $('#info').replaceChildren(...[...(view.info || []).map(t => h('li', {}, t)),
    view.draw_offer ? h('li', {}, `${view.draw_offer} offers a draw`) : null,
    takebackLine(f.takeback),
    (view.out || []).length ? h('li', {}, `out: ${view.out.join(', ')}`) : null].filter(Boolean));

  // Actions without squares: buttons with their record text; a choice
  // among candidates (kind `choose`) is a button too, besides its squares.
  // (Rebuilt only when they change: a button replaced under a pressed
  // mouse or finger would lose the click.)
  // A kind with many amounts (Masqués bids 1 to 41) is one list and a button.
  const free = D.filter(d => !d.to || d.kind === 'choose');
  keep($('#actions'), JSON.stringify(free.map(d => [d.machine, d.record])), () => {
    const out = [], groups = new Map();
    for (const d of free) {
      if (d.amount !== null && d.amount !== undefined) {
        if (!groups.has(d.kind)) groups.set(d.kind, []);
        groups.get(d.kind).push(d);
      }
    }
    const grouped = new Set([...groups.values()].filter(g => g.length > 5).flat());
    for (const d of free) {
      if (!grouped.has(d)) {
        out.push(h('button', { type: 'button', class: 'act', 'data-machine': d.machine, onclick: () => send(d.machine) }, d.record || d.machine));
      } else if (groups.get(d.kind)[0] === d) {
        const sel = h('select', { class: 'amounts', 'data-kind': d.kind, 'aria-label': d.kind },
          groups.get(d.kind).map(x => h('option', { value: x.machine }, x.record || x.machine)));
        out.push(h('span', { class: 'amount-group' }, sel, ' ',
          h('button', { type: 'button', class: 'act', 'data-kind': d.kind, onclick: () => send(sel.value) }, d.kind)));
      }
    }
    return out;
  });

  const meta = [];
  const L = f.legal;
  const label = { resign: 'Resign', draw: 'Offer a draw', offer: 'Offer a draw', accept: 'Accept the draw', decline: 'Decline the draw', claim: 'Claim a draw' };
  if (L && Array.isArray(L.meta)) {
    for (const m of L.meta) {
      meta.push(h('button', { type: 'button', class: 'meta', 'data-meta': m, onclick: () => {
        if (m === 'resign' && !confirm('Resign the game?')) return;
        send(m);
      } }, label[m] || m));
    }
  }
  if (f.seat && !st.over && (f.history || []).length)
    meta.push(h('button', { type: 'button', class: 'meta', 'data-meta': 'undo', onclick: () => send('undo') }, 'Undo'));
  // A takeback asked (the server's offer): its answers, for the seats it waits for.
  const tb = f.takeback;
  if (tb && f.seat && tb.waiting.includes(f.seat)) {
    meta.push(h('button', { type: 'button', class: 'meta', 'data-meta': 'takeback accept', onclick: () => send('takeback accept') }, 'Accept the takeback'));
    meta.push(h('button', { type: 'button', class: 'meta', 'data-meta': 'takeback decline', onclick: () => send('takeback decline') }, 'Decline the takeback'));
  } else if (tb && f.seat === tb.by) {
    meta.push(h('button', { type: 'button', class: 'meta', 'data-meta': 'takeback cancel', onclick: () => send('takeback cancel') }, 'Cancel the takeback'));
  }
  // Showing one's pieces (MASQ-16) where some are still masked.
  const masked = [...view.pieces, ...(view.captured || [])].some(p => (p.flags || []).includes('masked'));
  if (f.seat && st.over && masked)
    meta.push(h('button', { type: 'button', class: 'meta', 'data-meta': 'show', onclick: () => send('show') }, 'Show my pieces'));
  keep($('#meta'), meta.map(b => b.dataset.meta).join(' '), () => meta);
  $('#typed').hidden = !f.seat;

  drawSeats(f);

  const hist = $('#history');
  // With a schedule (issue 25) each action has its turn: a turn's number
  // before its first action (the list's own numbers, one per action, give
  // way to them); the turn's other actions are indented under it.
  const turns = (f.history || []).some(e => e.turn);
  hist.classList.toggle('by-turn', turns);
  hist.replaceChildren(...(f.history || []).map((e, i, all) => {
    const first = e.turn && (i === 0 || all[i - 1].turn !== e.turn);
    return h('li', { title: e.seat, 'data-turn': e.turn || null, class: turns && !first ? 'more' : null },
      first ? `${e.turn}. ${e.seat}: ${e.text}` : `${e.seat}: ${e.text}`);
  }));
  hist.scrollTop = hist.scrollHeight;
  const ms = $('#messages');
  ms.replaceChildren(...G.messages.slice(-50).map(t => h('li', {}, t)));
  ms.scrollTop = ms.scrollHeight;
}

// A takeback asked: who asks, how many actions, whom it waits for.
function takebackLine(tb) {
  if (!tb) return null;
  const n = tb.actions === 1 ? '1 action' : `${tb.actions} actions`;
  return h('li', { class: 'takeback' }, `${tb.by} asks to take back ${n}: waiting for ${tb.waiting.join(', ')}` +
    (tb.agreed.length ? ` (${tb.agreed.join(', ')} agreed)` : ''));
}

// The seats: bot or person, online or away (a seats frame redraws them
// when someone comes or goes), which one is you.
function drawSeats(f) {
  // A seat whose bot failed at this point says so (a page that comes later
  // learns it here, not from the notice frame).
  $('#notice').textContent = (f.seats || []).filter(x => x.stuck).map(x => x.stuck).join(' ');
  $('#seats').replaceChildren(...(f.seats || []).map(x => h('li', { class: x.connected ? 'on' : 'off', 'data-seat-name': x.seat },
    h('span', { class: 'swatch', style: swatchStyle(x.seat) }), ' ', x.seat,
    x.bot ? ` (bot ${x.bot})` : '', x.stuck ? ' — stuck' : '', x.seat === f.seat ? ' — you' : '',
    ' ', h('span', { class: 'dot', title: x.connected ? 'connected' : 'not connected' }, x.bot ? '' : (x.connected ? '● online' : '○ away')))));
}

function keep(box, key, make) {
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...make());
}

/* Choosing among several actions on one pair of squares. */
function choose(list) {
  if (list.length === 1) { send(list[0].machine); return; }
  const box = $('#chooser');
  box.replaceChildren(h('p', {}, 'Choose:'), ...list.map(d =>
    h('button', { type: 'button', class: 'choice', 'data-machine': d.machine, onclick: () => send(d.machine) }, d.record || d.machine)),
    h('button', { type: 'button', class: 'cancel', onclick: closeChooser }, 'Cancel'));
  box.hidden = false;
  box.querySelector('button').focus();
}

function closeChooser() {
  const box = $('#chooser');
  if (!box) return;
  // The keyboard goes back to the board it came from.
  const back = box.contains(document.activeElement) && G.focus;
  box.hidden = true; box.replaceChildren();
  if (back) $('#board').focus();
}

function clickSquare(sq) {
  if (!G.state || !G.state.legal) return;
  const D = details();
  if (G.selected) {
    const acts = D.filter(d => same(d.from, G.selected) && same(d.to, sq));
    if (acts.length) { choose(acts); return; }
  }
  if (D.some(d => same(d.from, sq))) {
    G.selected = same(G.selected, sq) ? null : sq;
    if (G.selected) G.handFigure = null;
    closeChooser();
    draw();
    return;
  }
  const placed = D.filter(d => !d.from && same(d.to, sq) && (!G.handFigure || d.figure === G.handFigure));
  if (placed.length) { choose(placed); return; }
  // A square no action of this seat's reaches: ask why not (issue 22).
  if (G.selected) {
    const from = G.selected;
    G.selected = null; draw();
    askWhy(moveText(from, sq));
  } else if (G.handFigure) {
    const drops = (G.state.view.hand || []).length > 0; // a drop of a piece in hand (issue 24)
    askWhy(G.state.view.geometry.bounded && !drops ? `place ${G.handFigure} ${sqText(sq)}` : `${G.handFigure}@${sqText(sq)}`);
  } else if (D.some(d => d.kind === 'move' && !d.from && d.to)) {
    askWhy(sqText(sq)); // naming a square (Échecs ambigus)
  }
}

function svgPoint(ev) {
  const svg = $('#board');
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const m = svg.getScreenCTM();
  return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
}

function squareAt(ev) {
  const p = svgPoint(ev);
  const lay = layout(G.state.view);
  const c = Math.floor(p.x), r = Math.floor(p.y);
  if (lay.bounded && (c < 0 || r < 0 || c >= lay.W || r >= lay.H)) return null;
  return { x: lay.fromCol(c), y: lay.fromRow(r) };
}

/* Pointer input: click or tap, drag and drop of a piece, pan and pinch on
   the unbounded plane. */
function setupPointer() {
  const svg = $('#board');
  const pointers = new Map();
  let press = null;

  svg.addEventListener('pointerdown', ev => {
    if (!G.state) return;
    pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    svg.setPointerCapture(ev.pointerId);
    if (pointers.size === 2) { press = { pinch: dist(), cam: { ...G.cam } }; return; }
    const sq = squareAt(ev);
    const piece = sq && G.state.view.pieces.find(p => same(p, sq));
    const draggable = piece && details().some(d => same(d.from, sq));
    press = { sq, x: ev.clientX, y: ev.clientY, drag: false, piece: draggable ? piece : null,
      cam: G.cam ? { ...G.cam } : null, pt: svgPoint(ev) };
  });

  function dist() {
    const [a, b] = [...pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y) || 1;
  }

  svg.addEventListener('pointermove', ev => {
    if (!press || !pointers.has(ev.pointerId)) return;
    pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (press.pinch && pointers.size === 2 && G.cam) {
      zoomBy(press.pinch / dist(), press.cam);
      return;
    }
    const moved = Math.hypot(ev.clientX - press.x, ev.clientY - press.y) > 6;
    if (!moved && !press.drag) return;
    press.drag = true;
    if (press.piece) {
      if (!same(G.selected, press.sq)) { G.selected = press.sq; draw(); }
      const el = svg.querySelector(`.piece[data-x="${press.sq.x}"][data-y="${press.sq.y}"]`);
      const p = svgPoint(ev);
      if (el) el.setAttribute('transform', `translate(${p.x - press.pt.x} ${p.y - press.pt.y})`);
      if (el) el.classList.add('dragging');
    } else if (G.cam && press.cam) {
      const m = svg.getScreenCTM();
      const k = m ? m.a : 40;
      G.userCam = true;
      G.cam.x = press.cam.x - (ev.clientX - press.x) / k;
      G.cam.y = press.cam.y - (ev.clientY - press.y) / k;
      draw();
    }
  });

  function end(ev) {
    pointers.delete(ev.pointerId);
    if (!press) return;
    const p = press;
    if (pointers.size) return;
    press = null;
    if (p.pinch) return;
    if (!p.drag) { if (p.sq) clickSquare(p.sq); return; }
    if (p.piece) {
      const to = squareAt(ev);
      const acts = to ? details().filter(d => same(d.from, p.sq) && same(d.to, to)) : [];
      if (acts.length) choose(acts);
      else draw();
    }
  }
  svg.addEventListener('pointerup', end);
  svg.addEventListener('pointercancel', ev => { pointers.delete(ev.pointerId); press = null; if (G.state) draw(); });

  svg.addEventListener('wheel', ev => {
    if (!G.cam || !G.state || G.state.view.geometry.bounded) return;
    ev.preventDefault();
    zoomBy(ev.deltaY > 0 ? 1.15 : 1 / 1.15, G.cam);
  }, { passive: false });

  for (const b of document.querySelectorAll('[data-zoom]')) {
    b.addEventListener('click', () => {
      if (!G.cam) return;
      if (b.dataset.zoom === 'fit') { G.userCam = false; fitCamera(G.state.view); draw(); }
      else zoomBy(b.dataset.zoom === 'in' ? 1 / 1.25 : 1.25, G.cam);
    });
  }
}

/* The keyboard: the board is one tab stop; the arrow keys move a focus
   square (as the board is drawn: up is up on the screen), Enter or Space
   does what a click on it does.  On the open table the window follows the
   focus square. */
/* The keyboard's square alone, put in or taken out of the drawn board. */
function drawFocusMark() {
  const svg = $('#board');
  svg.querySelectorAll('.kbfocus').forEach(e => e.remove());
  if (!G.state || !G.focus || document.activeElement !== svg) return;
  const lay = layout(G.state.view);
  const mark = s('rect', { class: 'kbfocus', x: lay.col(G.focus.x) + 0.03, y: lay.row(G.focus.y) + 0.03, width: 0.94, height: 0.94, 'data-x': G.focus.x, 'data-y': G.focus.y });
  svg.insertBefore(mark, svg.querySelector('g.pieces'));
}

// On the open table the window follows the keyboard's square: the
// person moves it now.
function followFocus() {
  if (!G.state || !G.focus || !G.cam || G.state.view.geometry.bounded) return;
  const lay = layout(G.state.view);
  const c = lay.col(G.focus.x), r = lay.row(G.focus.y);
  const dx = c < G.cam.x ? c - G.cam.x : c + 1 > G.cam.x + G.cam.w ? c + 1 - G.cam.x - G.cam.w : 0;
  const dy = r < G.cam.y ? r - G.cam.y : r + 1 > G.cam.y + G.cam.h ? r + 1 - G.cam.y - G.cam.h : 0;
  if (dx || dy) { G.userCam = true; G.cam = { ...G.cam, x: G.cam.x + dx, y: G.cam.y + dy }; }
}

function setupKeyboard() {
  const svg = $('#board');
  svg.setAttribute('tabindex', '0');
  svg.setAttribute('aria-label', 'board: arrow keys move the focus square, Enter or Space selects and plays; a figure\'s letter picks it from the hand');
  svg.addEventListener('focus', () => {
    if (!G.state) return;
    if (!G.focus) {
      const D = details();
      const first = G.selected || (D.find(d => d.from) || {}).from || (D.find(d => d.to) || {}).to ||
        G.state.view.pieces.find(p => p.side === G.state.seat) || G.state.view.pieces[0] || { x: 0, y: 0 };
      G.focus = { x: first.x, y: first.y };
    }
    drawFocusMark();
  });
  // Only the focus square changes: a whole redraw here would replace the
  // button or square a click is landing on (focus moves on mousedown), and
  // that click would be lost (a figure of the hand, picked, not picked).
  svg.addEventListener('blur', drawFocusMark);
  svg.addEventListener('keydown', ev => {
    if (!G.state || !G.focus) return;
    const lay = layout(G.state.view);
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[ev.key];
    if (step) {
      ev.preventDefault();
      let c = lay.col(G.focus.x) + step[0], r = lay.row(G.focus.y) + step[1];
      if (lay.bounded) { c = Math.max(0, Math.min(lay.W - 1, c)); r = Math.max(0, Math.min(lay.H - 1, r)); }
      G.focus = { x: lay.fromCol(c), y: lay.fromRow(r) };
      followFocus();
      draw();
    } else if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      clickSquare(G.focus);
      if (G.state && $('#chooser').hidden) draw();
    } else if (/^[a-z]$/i.test(ev.key) && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
      // A figure's letter picks it from the hand (again: drops it).
      const b = $(`#hand button.hand-piece[data-figure="${ev.key.toUpperCase()}"]:not([disabled])`);
      if (b) { ev.preventDefault(); pickFigure(G.handFigure === b.dataset.figure ? null : b.dataset.figure, true); }
    }
  });
}

function zoomBy(k, base) {
  G.userCam = true;
  const w = Math.min(200, Math.max(4, base.w * k)), hh = Math.min(200, Math.max(4, base.h * k));
  const cx = base.x + base.w / 2, cy = base.y + base.h / 2;
  G.cam = { x: cx - w / 2, y: cy - hh / 2, w, h: hh };
  draw();
}

function game(route) {
  G.game = route.game; G.token = route.token; G.board = route.board;
  $('#game').hidden = false;
  if (G.board) document.body.classList.add('projector');
  $('#save').addEventListener('click', askRecord);
  $('#why-typed').addEventListener('click', () => {
    const t = $('#typed-text').value.trim();
    if (t) askWhy(t);
  });
  if (G.token) { // a seat's holder may open a class on this game (web/teach.js)
    $('#teach-link').href = `#teach&g=${encodeURIComponent(G.game)}&t=${encodeURIComponent(G.token)}`;
    $('#teach-link').hidden = false;
  }
  $('#typed').addEventListener('submit', ev => {
    ev.preventDefault();
    const t = $('#typed-text').value.trim();
    if (t) { send(t); $('#typed-text').value = ''; }
  });
  document.addEventListener('keydown', ev => { if (ev.key === 'Escape') { closeChooser(); G.selected = null; G.handFigure = null; if (G.state) draw(); } });
  setupPointer();
  setupKeyboard();
  connect();
  setInterval(() => {
    if (G.ws && G.ws.readyState === WebSocket.OPEN) G.ws.send(JSON.stringify({ type: 'ping' }));
  }, 25000);
}

function start() {
  if (/^#(teach|class=|learn=)/.test(location.hash)) { // web/teach.js, web/learn.js (issue 22)
    window.addEventListener('hashchange', () => location.reload());
    if (location.hash.startsWith('#learn=')) import('./learn.js').then(m => m.learn(location.hash));
    else import('./teach.js').then(m => m.teach(location.hash));
    return;
  }
  const route = parseHash();
  window.addEventListener('hashchange', () => location.reload());
  $('#lobby').hidden = true;
  $('#game').hidden = true;
  if (/^#diff\b/.test(location.hash)) import('./diff.js').then(m => m.diffPage());
  else if (/^#measure\b/.test(location.hash)) import('./measure.js').then(m => m.measurePage(location.hash));
  else if (/^#lab\b/.test(location.hash)) import('./lab.js').then(m => m.labPage()); // issue 23
  else if (route.game) game(route);
  else lobby();
}

// "Measure it" (web/measure.js, issue 23): the A/B panel with a rule set,
// for any page (the rule editor's button).
window.labMeasure = opts => import('./measure.js').then(m => m.labMeasure(opts));

start();
