// chessvar's page, #diff: two rule sets compared (issue 22 part 1, the same
// as `chessvar diff A B`, docs/TEACHING.md).  The server computes all of
// it (POST /api/diff): the card of what changes by area, the positions
// where the two part with both boards (drawn by the server, core/draw),
// the actions only one allows and the rule that makes the difference.
// The page only lays the answer out.

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

// One rule set's form: variant, parameters (NAME=VALUE, apart by spaces or
// commas) and the offered house rules that declare the variant.
function setForm(label, cat, preset) {
  const sel = h('select', { name: `variant-${label}`, 'aria-label': `rule set ${label}: variant` },
    cat.variants.map(v => h('option', { value: v.name }, v.title || v.name)));
  if (preset) sel.value = preset;
  const params = h('input', { name: `params-${label}`, size: 24, placeholder: 'NAME=VALUE ...',
    'aria-label': `rule set ${label}: parameters` });
  const rules = h('span', { class: 'diff-rules' });
  const fill = () => {
    rules.replaceChildren(...(cat.scripts || [])
      .filter(sc => !sc.variants || !sc.variants.length || sc.variants.includes(sel.value))
      .map(sc => h('label', {}, h('input', { type: 'checkbox', value: sc.file,
        name: `rules-${label}` }), ` ${sc.name || sc.file}`)));
  };
  sel.addEventListener('change', fill);
  fill();
  const box = h('fieldset', { class: 'diff-set' }, h('legend', {}, `Rule set ${label}`),
    h('label', {}, 'Variant ', sel), ' ', h('label', {}, 'Parameters ', params), ' ', rules);
  box.read = () => {
    const p = {};
    for (const item of params.value.split(/[\s,]+/).filter(Boolean)) {
      const eq = item.indexOf('=');
      if (eq <= 0) throw new Error(`rule set ${label}: parameter '${item}': write NAME=VALUE`);
      p[item.slice(0, eq)] = item.slice(eq + 1);
    }
    const r = [...rules.querySelectorAll('input:checked')].map(i => i.value);
    return { variant: sel.value, params: p, rules: r };
  };
  return box;
}

function setName(set) {
  return [set.variant, ...set.params.map(p => `--param ${p}`),
    ...set.rules.map(r => `--rules ${r}`)].join(' ');
}

function card(d) {
  const rows = d.card.map(a => h('tr', { class: a.changes ? 'changes' : 'same',
    'data-area': a.area },
    h('th', { scope: 'row' }, a.name),
    h('td', {}, a.changes
      ? h('ul', {}, a.lines.map(l => h('li', {}, h('b', {}, l.side), ' ', l.by,
        l.replaces.length ? ` (replaces ${l.replaces.join(' ')})` : '', ': ', l.what)))
      : `the same${a.same.length ? ` (${a.same.join(' ')})` : ''}`)));
  const undeclared = d.undeclared.map(u => h('p', { class: 'undeclared' },
    `${u.side} ${u.script}: ${u.what}`));
  return [h('h2', {}, 'What changes, by area'),
    h('table', { class: 'diff-card' }, h('tbody', {}, rows)), undeclared];
}

function board(svg, caption) {
  const fig = h('figure', { class: 'diff-board' });
  if (svg) {
    const holder = h('div', { class: 'diff-svg' });
    holder.innerHTML = svg; // the server's SVG, drawn from the view below
    fig.append(holder);
  } else {
    fig.append(h('p', {}, 'no board: the game is over here'));
  }
  fig.append(h('figcaption', {}, caption));
  return fig;
}

function actor(view) {
  return view ? `${view.seat_to_act || view.seat || 'nobody'} to act (${view.seat}'s view)` : '';
}

function partings(d) {
  const s = d.search;
  const head = h('h2', {}, 'Positions where they part');
  const about = h('p', {}, `seed ${s.seed}, ${s.plies} plies in ${s.lines} lines: ` +
    `${s.positions} positions compared, ${s.parting_positions} part` +
    (s.missing.length ? `; no parting found for: ${s.missing.join(', ')}` : ''));
  const items = d.partings.map((p, i) => {
    const names = d.card.filter(a => p.areas.includes(a.area)).map(a => a.name);
    const what = { actions: 'the legal actions differ', views: 'what a seat sees differs',
      position: 'the same action gives different positions',
      end: 'the same line ends differently' }[p.kind] || p.kind;
    const only = (label, list, n) => n ? h('p', { class: `only only-${label.toLowerCase()}` },
      h('b', {}, `only in ${label} (${n}): `), list.join(' ') + (n > list.length ? ' ...' : '')) : null;
    return h('section', { class: 'parting', 'data-kind': p.kind },
      h('h3', {}, `${i + 1}. ${names.join(', ')}: ${what}`,
        p.rules.length ? ` (${p.rules.join(' ')})` : ''),
      h('p', { class: 'line' }, p.line.length ? `after: ${p.line.join(' ')}` : 'at the start',
        p.diverged ? ` (the positions differ since ply ${p.diverged})` : ''),
      p.action ? h('p', {}, `action: ${p.action}`) : null,
      p.end_a ? h('p', {}, `A ends: ${p.end_a}; B ends: ${p.end_b}`) : null,
      h('div', { class: 'diff-boards' },
        board(p.svg_a, `A ${d.a.variant}, ${actor(p.view_a)}`),
        board(p.svg_b, `B ${d.b.variant}, ${actor(p.view_b)}`)),
      only('A', p.only_a, p.n_only_a), only('B', p.only_b, p.n_only_b),
      p.why ? h('pre', { class: 'why' }, p.why) : null);
  });
  return [head, about, items];
}

export async function diffPage() {
  document.title = 'chessvar — compare rule sets';
  const main = h('main', { id: 'diff' });
  document.body.append(main);
  let cat;
  try {
    const r = await fetch('/api/variants');
    cat = await r.json();
    if (!r.ok) throw new Error(cat.error || `HTTP ${r.status}`);
  } catch (e) {
    main.append(h('p', { class: 'error', role: 'alert' }, e.message));
    return;
  }
  const q = new URLSearchParams(location.hash.replace(/^#/, ''));
  const a = setForm('A', cat, q.get('a') || 'orthodox');
  const b = setForm('B', cat, q.get('b') || 'masques');
  const err = h('p', { class: 'error', role: 'alert', id: 'diff-error' });
  const out = h('div', { id: 'diff-out', 'aria-live': 'polite' });
  const go = h('button', { type: 'submit', id: 'diff-go' }, 'Compare');
  const form = h('form', { id: 'diff-form' }, a, b, go);
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    err.textContent = '';
    let body;
    try {
      body = { a: a.read(), b: b.read() };
    } catch (e) {
      err.textContent = e.message;
      return;
    }
    go.disabled = true;
    out.replaceChildren(h('p', {}, 'comparing: both rule sets are played side by side ...'));
    try {
      const r = await fetch('/api/diff', { method: 'POST', body: JSON.stringify(body) });
      const d = await r.json();
      if (!r.ok) throw new Error(d.error || `HTTP ${r.status}`);
      out.replaceChildren(h('p', { class: 'diff-sets' }, `A: ${setName(d.a)}`, h('br'),
        `B: ${setName(d.b)}`), ...[...card(d), ...partings(d)].flat());
      out.dataset.done = '1';
    } catch (e) {
      out.replaceChildren();
      err.textContent = e.message;
    } finally {
      go.disabled = false;
    }
  });
  main.append(h('h1', {}, 'Compare two rule sets'),
    h('p', {}, 'What changes between two variants (with parameters and house rules), and ' +
      'positions where they part, found by playing both side by side: the same as ',
      h('code', {}, 'chessvar diff A B'), '.'), form, err, out);
}
