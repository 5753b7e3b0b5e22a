// chessvar's page, #lab: the house-rule lab (issue 23 point 3).  A house
// rule's text in an editor with line numbers, checked as you type by the
// server as `chessvar check` checks a file (POST /api/lab/check: its error,
// at its line); the scripts of scripts/ to start from (GET /api/scripts/F);
// the API a script sees (GET /api/lab/api, the words of
// docs/HOUSE-RULES.md); "Try it": the rule kept (POST /api/lab/rules) and a
// game under it against a bot, opened at once; "Measure it": handed to
// window.labMeasure (web/measure.js) when the page has it.
// #lab=ID opens a rule the server keeps.

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

// A text of the docs with `code` in it, as nodes.
function prose(text) {
  return text.split('`').map((part, i) => i % 2 ? h('code', {}, part) : part);
}

async function getJson(url, opts) {
  const r = await fetch(url, opts);
  let j;
  try { j = await r.json(); } catch (e) { throw new Error(`${url}: HTTP ${r.status}`); }
  return { status: r.status, ok: r.ok, body: j };
}

const STARTER = `-- A house rule (docs/HOUSE-RULES.md): rule{...} once.
rule {
  name = "My rule",
  description = "What it changes, in a sentence.",
  variants = {"orthodox"},
  veto = function(game, action)
    -- return a reason to forbid the action, nil to allow it
  end,
}
`;

const SECTIONS = [['rule', 'rule{...}'], ['game', 'The game (read-only)'],
  ['react', 'In a reaction'], ['action', 'The action'], ['sandbox', 'The sandbox']];

function apiPanel(api) {
  const box = h('aside', { id: 'lab-api', 'aria-labelledby': 'lab-api-h' },
    h('h2', { id: 'lab-api-h' }, 'What a rule may use'));
  for (const [key, title] of SECTIONS) {
    const items = api.api.filter(a => a.section === key);
    if (!items.length) continue;
    box.append(h('h3', {}, title), h('dl', { 'data-section': key },
      items.flatMap(a => [h('dt', {}, prose(a.call)), h('dd', {}, prose(a.doc))])));
  }
  const l = api.limits;
  box.append(h('p', { class: 'summary' }, `Bounded as untrusted code: a text of at most ` +
    `${l.text_bytes} bytes; each hook call within the sandbox's instruction, time and memory ` +
    `limits; a check's hooks ${l.check_ms / 1000} s together, a game's ${l.game_ms / 1000} s ` +
    `(a bot's search ${l.bot_ms / 1000} s a move); the server keeps the ` +
    `${l.rules_kept} rules used the most recently.`));
  return box;
}

// Who plays: the seats of the variant's default game, the first one the
// person, the others the bot.
function seatsOf(v) {
  const s = (v.seat_names || []).find(x => x.sides === v.sides.default) || (v.seat_names || [])[0];
  return s ? s.names : ['white', 'black'];
}

export async function labPage() {
  document.title = 'chessvar — house-rule lab';
  const main = h('main', { id: 'lab' });
  document.body.append(main);
  let cat, api;
  try {
    const [a, b] = await Promise.all([getJson('/api/variants'), getJson('/api/lab/api')]);
    if (!a.ok) throw new Error(a.body.error);
    if (!b.ok) throw new Error(b.body.error);
    cat = a.body; api = b.body;
  } catch (e) {
    main.append(h('p', { class: 'error', role: 'alert' }, e.message));
    return;
  }

  const variant = h('select', { id: 'lab-variant', 'aria-label': 'variant' },
    cat.variants.map(v => h('option', { value: v.name }, v.title || v.name)));
  const script = h('select', { id: 'lab-script', 'aria-label': 'a script to start from' },
    h('option', { value: '' }, '(a new rule)'),
    (cat.scripts || []).map(s => h('option', { value: s.file }, `${s.name} (${s.file})`)));
  const load = h('button', { type: 'button', id: 'lab-load' }, 'Start from it');
  const text = h('textarea', { id: 'lab-text', spellcheck: 'false', autocomplete: 'off',
    wrap: 'off', 'aria-label': 'the rule\'s text (Lua; Tab indents, Escape then Tab leaves)',
    'aria-describedby': 'lab-status' });
  const lines = h('div', { id: 'lab-lines', 'aria-hidden': 'true' });
  const status = h('p', { id: 'lab-status', role: 'status', 'aria-live': 'polite' });
  const error = h('p', { id: 'lab-error', class: 'error', role: 'alert' });
  const log = h('pre', { id: 'lab-log', hidden: true });
  const bot = h('select', { id: 'lab-bot', 'aria-label': 'the bot\'s level' },
    ['greedy', 'random', 'search'].map(l => h('option', { value: l }, l)));
  const tryIt = h('button', { type: 'button', id: 'lab-try' }, 'Try it');
  const measure = h('button', { type: 'button', id: 'lab-measure', hidden: true,
    title: 'play 100 games with and without the rule, random bots, and compare' }, 'Measure it');
  const actionError = h('p', { id: 'lab-action-error', class: 'error', role: 'alert' });

  let seq = 0, timer = null, lastOk = null, checking = null;

  function number() {
    const n = text.value.split('\n').length;
    if (lines.children.length !== n) {
      lines.replaceChildren(...Array.from({ length: n }, (_, i) =>
        h('span', { 'data-line': i + 1 }, String(i + 1))));
    }
    lines.scrollTop = text.scrollTop;
  }

  function mark(line) {
    for (const el of lines.querySelectorAll('.bad')) el.classList.remove('bad');
    if (!line) return;
    const el = lines.querySelector(`[data-line="${line}"]`);
    if (el) el.classList.add('bad');
  }

  function show(answer) {
    main.dataset.check = answer.ok ? 'ok' : 'error';
    lastOk = answer.ok ? answer : null;
    status.className = answer.ok ? 'ok' : 'bad';
    status.textContent = answer.ok
      ? `${answer.message}: loads for ${answer.variants.join(', ')}`
      : (answer.line ? `line ${answer.line}: the rule does not pass the check` : 'the rule does not pass the check');
    error.textContent = answer.ok ? '' : answer.error;
    mark(answer.ok ? 0 : answer.line);
    log.hidden = !answer.log;
    log.textContent = answer.log ? answer.log.split('\n').map(l => `print: ${l}`).join('\n') : '';
    tryIt.disabled = !answer.ok;
    measure.disabled = !answer.ok;
  }

  // The check of the text as it stands; answers to older texts are dropped.
  async function check() {
    const mine = ++seq;
    main.dataset.check = 'running';
    const body = JSON.stringify({ text: text.value, variant: variant.value });
    for (let tries = 0; tries < 20; tries++) {
      let r;
      try {
        r = await getJson('/api/lab/check', { method: 'POST', body });
      } catch (e) {
        r = { status: 0, body: { error: e.message } };
      }
      if (mine !== seq) return;
      if (r.status === 503) { await new Promise(res => setTimeout(res, 300)); continue; }
      if (r.status !== 200) {
        show({ ok: false, error: r.body.error || `HTTP ${r.status}`, line: null, log: '' });
        return;
      }
      show(r.body);
      return;
    }
  }

  function changed() {
    number();
    clearTimeout(timer);
    seq++; // a check of the text before this change answers too late: dropped
    main.dataset.check = 'waiting';
    timer = setTimeout(() => { checking = check(); }, 350);
  }

  // The rule kept on the server: its id, or an error thrown.
  async function keep() {
    const r = await getJson('/api/lab/rules', { method: 'POST',
      body: JSON.stringify({ text: text.value, variant: variant.value }) });
    if (r.status !== 201) {
      if (r.body.ok === false) show(r.body);
      throw new Error(r.body.error || `HTTP ${r.status}`);
    }
    return r.body.id;
  }

  text.addEventListener('input', changed);
  text.addEventListener('scroll', () => { lines.scrollTop = text.scrollTop; });
  let escaped = false; // Escape, then Tab: the focus moves on (the keyboard is never trapped)
  text.addEventListener('keydown', ev => { // a tab indents, as in an editor
    if (ev.key === 'Escape') { escaped = true; return; }
    const plain = ev.key === 'Tab' && !ev.shiftKey && !ev.ctrlKey && !ev.altKey && !ev.metaKey;
    if (!plain || escaped) { escaped = false; return; }
    ev.preventDefault();
    text.setRangeText('  ', text.selectionStart, text.selectionEnd, 'end');
    changed();
  });
  variant.addEventListener('change', changed);
  load.addEventListener('click', async () => {
    actionError.textContent = '';
    if (!script.value) { text.value = STARTER; changed(); return; }
    const r = await getJson(`/api/scripts/${encodeURIComponent(script.value)}`);
    if (!r.ok) { actionError.textContent = r.body.error; return; }
    text.value = r.body.text;
    const sc = (cat.scripts || []).find(s => s.file === script.value);
    if (sc && sc.variants && sc.variants.length && !sc.variants.includes(variant.value))
      variant.value = sc.variants[0];
    changed();
  });
  tryIt.addEventListener('click', async () => {
    actionError.textContent = '';
    tryIt.disabled = true;
    try {
      const id = await keep();
      const v = cat.variants.find(x => x.name === variant.value);
      const seats = seatsOf(v);
      const r = await getJson('/api/games', { method: 'POST', body: JSON.stringify({
        variant: variant.value, rules: [`lab:${id}`],
        players: seats.slice(1).map(seat => ({ seat, bot: bot.value })) }) });
      if (!r.ok) throw new Error(r.body.error || `HTTP ${r.status}`);
      location.href = r.body.seats[0].link; // the game's page, as the person's seat
    } catch (e) {
      actionError.textContent = e.message;
      tryIt.disabled = false;
    }
  });
  measure.addEventListener('click', async () => {
    actionError.textContent = '';
    try {
      const id = await keep();
      if (window.labMeasure) window.labMeasure({ variant: variant.value, rules: [`lab:${id}`], params: {}, start: true });
    } catch (e) {
      actionError.textContent = e.message;
    }
  });
  const showMeasure = () => { measure.hidden = typeof window.labMeasure !== 'function'; };
  window.addEventListener('load', showMeasure);
  window.addEventListener('labmeasure', showMeasure); // web/measure.js says it is there
  showMeasure();

  main.append(h('h1', {}, 'House-rule lab'),
    h('p', {}, 'Write a house rule in Lua (', h('a', { href: 'https://www.lua.org/manual/5.4/' }, 'Lua 5.4'),
      '): it is checked as you type, as ', h('code', {}, 'chessvar check'), ' checks a file. ',
      'Try it against a bot, or measure what it changes.'),
    h('div', { class: 'lab-grid' },
      h('section', { id: 'lab-edit', 'aria-label': 'the rule' },
        h('p', { class: 'lab-bar' }, h('label', {}, 'Variant ', variant), ' ',
          h('label', {}, 'Start from ', script), ' ', load),
        h('div', { class: 'lab-editor' }, lines, text),
        status, error, log,
        h('p', { class: 'lab-bar' }, h('label', {}, 'Bot ', bot), ' ', tryIt, ' ', measure),
        actionError),
      apiPanel(api)));

  const m = /^#lab=([0-9a-f]{64})/.exec(location.hash);
  text.value = STARTER;
  if (m) {
    const r = await getJson(`/api/lab/rules/${m[1]}`);
    if (r.ok) text.value = r.body.text;
    else actionError.textContent = r.body.error;
  }
  changed();
}
