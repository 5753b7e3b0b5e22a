// chessvar's page, "Measure it" (issue 23 point 3): a one-click A/B of a
// house rule against the variant's own rules, played by the server as
// `chessvar experiment VARIANT --compare --rules RULE` plays it
// (POST /api/experiments, docs/WEB.md).  #measure offers the form (a
// variant, one of the offered scripts, parameters, the bots, games, seed);
// window.labMeasure({variant, rules, params}) opens it on any page with
// that rule set (the rule editor's "Measure it"); #measure=ID (the link
// /measure/ID leads there) follows an experiment: its progress bar, then the
// report, its chart and its JSON, all the server's.  The page computes no
// figure.

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

async function getJSON(url, opts) {
  const r = await fetch(url, opts);
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  if (!r.ok) throw new Error((body && body.error) || `${url}: HTTP ${r.status}`);
  return body;
}

const tokenKey = id => `chessvar-lab-${id}`; // the maker's token: it cancels

// The seats of a variant's default game (GET /api/variants' seat_names).
function seatsOf(v) {
  const e = (v.seat_names || []).find(x => x.sides === v.sides.default) || (v.seat_names || [])[0];
  return e ? e.names : ['white', 'black'];
}

// The form; preset: {variant, rules, params} to start from.
function form(cat, preset, onStarted) {
  const variant = h('select', { id: 'measure-variant', 'aria-label': 'variant' },
    cat.variants.map(v => h('option', { value: v.name }, v.title || v.name)));
  if (preset.variant) variant.value = preset.variant;
  const rule = h('select', { id: 'measure-rule', 'aria-label': 'house rule to measure' });
  const fixed = (preset.rules || []).filter(r => !(cat.scripts || []).some(sc => sc.file === r));
  const fill = () => {
    const offered = (cat.scripts || []).filter(sc => !sc.variants || !sc.variants.length ||
      sc.variants.includes(variant.value));
    rule.replaceChildren(
      ...(fixed.length ? [h('option', { value: JSON.stringify(fixed) }, fixed.join(' + '))] : []),
      ...offered.map(sc => h('option', { value: JSON.stringify([sc.file]) },
        `${sc.name || sc.file} (${sc.file})`)));
    const want = JSON.stringify(preset.rules || []);
    if ([...rule.options].some(o => o.value === want)) rule.value = want;
  };
  variant.addEventListener('change', fill);
  fill();
  const params = h('input', { id: 'measure-params', size: 24, placeholder: 'NAME=VALUE ...',
    value: Object.entries(preset.params || {}).map(([k, v]) => `${k}=${v}`).join(' ') });
  const level = h('select', { id: 'measure-bots', 'aria-label': 'bots' },
    ['random', 'greedy', 'search'].map(l => h('option', { value: l }, l)));
  const games = h('input', { id: 'measure-games', type: 'number', min: 1, max: 1000, value: 100 });
  const seed = h('input', { id: 'measure-seed', size: 12, placeholder: 'fresh', inputmode: 'numeric' });
  const err = h('p', { id: 'measure-error', class: 'error', role: 'alert' });
  const go = h('button', { type: 'submit', id: 'measure-go' }, 'Measure');
  const f = h('form', { id: 'measure-form' },
    h('label', {}, 'Variant ', variant), ' ', h('label', {}, 'House rule ', rule), h('br'),
    h('label', {}, 'Parameters ', params), ' ', h('label', {}, 'Bots ', level), ' ',
    h('label', {}, 'Games per rule set ', games), ' ', h('label', {}, 'Seed ', seed), ' ', go);
  f.addEventListener('submit', async ev => {
    ev.preventDefault();
    err.textContent = '';
    const body = { variant: variant.value, params: {}, games: Number(games.value) };
    try {
      if (!rule.value) throw new Error(`no house rule is offered for ${variant.value}`);
      body.rules = JSON.parse(rule.value);
      for (const item of params.value.split(/[\s,]+/).filter(Boolean)) {
        const eq = item.indexOf('=');
        if (eq <= 0) throw new Error(`parameter '${item}': write NAME=VALUE`);
        body.params[item.slice(0, eq)] = item.slice(eq + 1);
      }
    } catch (e) {
      err.textContent = e.message;
      return;
    }
    const v = cat.variants.find(x => x.name === variant.value);
    body.bots = Object.fromEntries(seatsOf(v).map(sn => [sn, level.value]));
    if (seed.value.trim()) body.seed = seed.value.trim();
    go.disabled = true;
    try {
      const r = await getJSON('/api/experiments', { method: 'POST', body: JSON.stringify(body) });
      sessionStorage.setItem(tokenKey(r.id), r.token);
      onStarted(r.id);
    } catch (e) {
      err.textContent = e.message;
    } finally {
      go.disabled = false;
    }
  });
  return [f, err];
}

// One experiment followed until it ends, then its result, into box.
function follow(box, id) {
  const bar = h('progress', { id: 'measure-progress', max: 1, value: 0 });
  const count = h('span', { id: 'measure-count' }, 'waiting for the server ...');
  const about = h('p', { id: 'measure-about' });
  const cancel = h('button', { type: 'button', id: 'measure-cancel', hidden: true }, 'Cancel');
  const err = h('p', { id: 'measure-job-error', class: 'error', role: 'alert' });
  const out = h('div', { id: 'measure-result' });
  const job = h('section', { id: 'measure-job', 'data-id': id, 'data-state': 'asking' },
    h('h2', {}, 'Experiment'), about, h('p', {}, bar, ' ', count, ' ', cancel), err, out);
  box.replaceChildren(job);
  const token = sessionStorage.getItem(tokenKey(id));
  cancel.addEventListener('click', async () => {
    cancel.disabled = true;
    try {
      await getJSON(`/api/experiments/${id}`, { method: 'DELETE',
        headers: { 'X-Chessvar-Token': token } });
    } catch (e) {
      err.textContent = e.message;
      cancel.disabled = false;
    }
  });
  const show = st => {
    job.dataset.state = st.state;
    about.textContent = `${st.title}: A its own rules${st.params ? ` (${st.params})` : ''}, ` +
      `B with ${st.rules.map(r => r.name || r.file).join(', ')}; players ${st.players.join(', ')}; ` +
      `${st.games} games per rule set, seed ${st.seed}`;
    bar.max = st.total;
    bar.value = st.done;
    count.textContent = st.state === 'queued'
      ? `queued${st.ahead ? ` (${st.ahead} ahead)` : ''}: 0 / ${st.total} games`
      : `${st.done} / ${st.total} games${st.state === 'running' ? '' : ` (${st.state})`}`;
    cancel.hidden = !token || !['queued', 'running'].includes(st.state);
    if (st.error) err.textContent = st.error;
    if (st.state !== 'done') return;
    const link = new URL(st.link, location.href).href;
    out.replaceChildren(
      h('p', { class: 'lab-links' }, 'Share: ', h('a', { id: 'measure-share', href: st.link }, link),
        ' · ', h('a', { id: 'measure-json', href: st.json, download: `experiment-${id}.json` },
          'the JSON'), ' · ', h('a', { id: 'measure-svg', href: st.svg, download: `experiment-${id}.svg` },
          'the chart')),
      h('img', { id: 'measure-chart', src: st.svg, alt: `the chart of experiment ${id}` }),
      h('pre', { id: 'measure-report' }, st.report),
      h('p', {}, 'The same on the command line: ', h('code', { id: 'measure-command' }, st.command)));
  };
  const poll = async () => {
    try {
      const st = await getJSON(`/api/experiments/${id}`);
      show(st);
      if (['queued', 'running'].includes(st.state)) setTimeout(poll, 250);
    } catch (e) {
      job.dataset.state = 'unknown';
      err.textContent = e.message;
    }
  };
  poll();
}

async function catalog() {
  return getJSON('/api/variants');
}

// The measure panel in box (made at the end of the page when absent).
async function panel(preset, box) {
  if (!box) {
    box = $('#measure-panel') || h('section', { id: 'measure-panel' });
    if (!box.isConnected) document.body.append(box);
  }
  const out = h('div', { id: 'measure-out', 'aria-live': 'polite' });
  box.replaceChildren(h('h2', {}, 'Measure a house rule'),
    h('p', {}, 'Bots play the variant with its own rules (A) and with the house rule (B), ' +
      'on the same seeds, as ', h('code', {}, 'chessvar experiment --compare'),
      ' does; the server plays it beside the games.'));
  let cat;
  try {
    cat = await catalog();
  } catch (e) {
    box.append(h('p', { class: 'error', role: 'alert' }, e.message));
    return box;
  }
  const [f, err] = form(cat, preset, id => {
    if (/^#measure/.test(location.hash)) history.replaceState(null, '', `#measure=${id}`);
    follow(out, id);
  });
  box.append(f, err, out);
  box.scrollIntoView();
  if (preset.start) f.requestSubmit(); // the editor's "Measure it": one click
  return box;
}

// window.labMeasure (web/app.js): the panel with that rule set, started at
// once (its defaults: 100 games a rule set, random bots) when opts.start.
export function labMeasure(opts = {}) {
  return panel({ variant: opts.variant, rules: opts.rules || [], params: opts.params || {},
    start: !!opts.start });
}

// #measure[&variant=V&rules=R,...] and #measure=ID.
export function measurePage(hash) {
  document.title = 'chessvar — measure a house rule';
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const main = h('main', { id: 'measure' });
  document.body.append(main);
  if (q.get('measure')) {
    const box = h('div', { id: 'measure-out' });
    main.append(h('p', {}, h('a', { href: '#measure' }, 'Measure another house rule')), box);
    follow(box, q.get('measure'));
    return;
  }
  panel({ variant: q.get('variant') || 'orthodox',
    rules: (q.get('rules') || '').split(',').filter(Boolean) }, main);
}
