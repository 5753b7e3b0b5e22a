#!/usr/bin/env node
// The teacher's board in the browser (issue 22 point 5): a teacher's page
// opens a class on a game's position from the game page's "Teach this
// position" link, three students join from their own browser contexts with
// the class link and a name, and submit a legal move (by clicking the
// board), the same move typed otherwise, and an illegal one; the teacher's
// page shows two groups, the illegal one with the engine's refusal; the
// teacher reveals, the students see the answer, the teacher goes on.
//
//   node tests/web/test_class.js            (make test-web)
// Environment: as tests/web/lib.js says.
'use strict';
const { env, test, assert, api, open, shot, main, STEP } = require('./lib.js');

const groupsOf = page => page.$$eval('#class-groups li.group', els => els.map(e => ({
  move: e.dataset.move, count: Number(e.dataset.count), legal: e.classList.contains('legal'),
  text: e.textContent,
})));

async function clickSquare(page, square) {
  const el = await page.$(`#class-board g.piece[data-square="${square}"]`) ||
    await page.$(`#class-board rect.cell[data-x="${square.charCodeAt(0) - 97}"][data-y="${Number(square.slice(1)) - 1}"]`);
  assert(el, `no square ${square} on the class's board`);
  const box = await el.boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

test('class_three_students_issue22', async () => {
  const g = await api('/api/games', { variant: 'orthodox' });
  const white = await open(g.seats[0].link);
  await white.waitForSelector('#teach-link:not([hidden])');
  const href = await white.$eval('#teach-link', a => a.getAttribute('href'));
  const teacher = await open('/' + href);
  await teacher.waitForSelector('#class-code');
  const code = await teacher.$eval('#class-code', e => e.textContent);
  assert(/^[A-Z]{6}$/.test(code), `the class code is '${code}'`);
  const link = await teacher.$eval('#class-link', a => a.getAttribute('href'));
  assert(link.endsWith(`/#class=${code}`), `the class link is ${link}`);
  assert(!(await teacher.evaluate(() => location.href)).includes('t='), 'the teacher page keeps a seat token in its address');
  const names = ['Ann', 'Bob', 'Cy'];
  const st = [];
  for (const n of names) {
    const p = await open(link.replace(env.base, ''));
    await p.waitForSelector('#class-name');
    await p.type('#class-name', n);
    await p.click('#class-join-form button');
    await p.waitForSelector('#class-board svg');
    st.push(p);
  }
  await teacher.waitForFunction(() => /3 student/.test(document.querySelector('#class-count').textContent));
  // Ann clicks e2 then e4; Bob types e4; Cy types an illegal Ke2
  await clickSquare(st[0], 'e2');
  await clickSquare(st[0], 'e4');
  assert(await st[0].$eval('#class-text', e => e.value) === 'e2e4', 'clicks on e2 and e4 did not write e2e4');
  await st[0].click('#class-submit button');
  await st[1].type('#class-text', 'e4');
  await st[1].click('#class-submit button');
  await st[2].type('#class-text', 'Ke2');
  await st[2].click('#class-submit button');
  for (const [i, m] of [[0, 'e2e4'], [1, 'e4'], [2, 'Ke2']])
    await st[i].waitForFunction(t => document.querySelector('#class-mine').textContent === `Your answer: ${t}`, {}, m);
  await teacher.waitForFunction(() => /3 answered/.test(document.querySelector('#class-count').textContent));
  const gs = await groupsOf(teacher);
  assert(gs.length === 2, `the teacher sees ${gs.length} groups: ${JSON.stringify(gs)}`);
  const legal = gs.find(x => x.legal), bad = gs.find(x => !x.legal);
  assert(legal && legal.move === 'e2e4' && legal.count === 2, `the legal group: ${JSON.stringify(legal)}`);
  assert(bad && bad.move === 'Ke2' && bad.count === 1 && /refused: Ke2 is illegal: .*\(ORTH-2\)/.test(bad.text), `the refused group: ${JSON.stringify(bad)}`);
  await shot(teacher, 'class-teacher');
  // no student's page holds the teacher's token
  const ttok = await teacher.evaluate(c => sessionStorage.getItem(`class-${c}`), code);
  assert(ttok && ttok.length === 32, 'the teacher token is not kept');
  for (const p of st)
    assert(!(await p.content()).includes(ttok), 'a student page holds the teacher token');
  await teacher.click('#class-groups li.legal button.reveal-group');
  for (const p of st)
    await p.waitForFunction(() => document.querySelector('#class-answer') && /The answer: e2e4/.test(document.querySelector('#class-answer').textContent));
  await shot(st[2], 'class-student');
  await teacher.click('#class-next');
  await teacher.waitForFunction(() => /Position 2: orthodox, black to play/.test(document.querySelector('#class-turn').textContent));
  for (const p of st) {
    await p.waitForFunction(() => /black to play/.test(document.querySelector('#class-turn').textContent));
    assert(!(await p.$('#class-answer')), 'the answer stays shown after moving on');
    assert(p.errors.length === 0, `page errors: ${p.errors.join('; ')}`);
  }
  // a reloaded teacher page comes back to its class
  await teacher.reload({ waitUntil: 'domcontentloaded', timeout: STEP });
  await teacher.waitForFunction(c => document.querySelector('#class-code') && document.querySelector('#class-code').textContent === c, {}, code);
  assert(teacher.errors.length === 0, `teacher page errors: ${teacher.errors.join('; ')}`);
});

// Lessons in the browser (issue 22 point 3): the list of a variant's
// lessons, one played by clicks after a wrong answer (refused with the
// rule's explanation, the board unchanged), its target square marked; a
// `views: both` lesson of Les Échecs Masqués shows both seats' boards,
// labelled, White's own figures only on White's.
test('learn_lessons_issue22', async () => {
  const p = await open('/#learn=orthodox');
  await p.waitForSelector('#learn-list a[data-id="first-move"]');
  await p.click('#learn-list a[data-id="first-move"]');
  await p.waitForSelector('#learn-goal');
  assert(/knight from g1 to f3/.test(await p.$eval('#learn-goal', e => e.textContent)), 'the goal is not shown');
  assert(await p.$('.learn-board rect.marked[data-square="f3"]'), 'the target square f3 is not marked');
  const before = await p.$eval('.learn-board .svg', e => e.innerHTML);
  await p.type('#learn-text', 'Bc4');
  await p.click('#learn-form button[type="submit"]');
  await p.waitForSelector('#learn-said.refused');
  const said = await p.$eval('#learn-said', e => e.textContent);
  assert(/Why \(ORTH-1, ORTH-2\)/.test(said), `the refusal does not explain the rules: ${said}`);
  assert(await p.$eval('.learn-board .svg', e => e.innerHTML) === before, 'a refused answer changed the board');
  await p.click('#learn-hint');
  await p.waitForSelector('#learn-said.hint');
  const g1 = await p.$('.learn-board g.piece[data-square="g1"]');
  let box = await g1.boundingBox();
  await p.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const f3 = await p.$('.learn-board rect.cell[data-x="5"][data-y="2"]');
  box = await f3.boundingBox();
  await p.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  assert(await p.$eval('#learn-text', e => e.value) === 'g1f3', 'clicks on g1 and f3 did not write g1f3');
  await p.click('#learn-form button[type="submit"]');
  await p.waitForSelector('#learn-done');
  assert(/knight jumped/.test(await p.$eval('#learn-said', e => e.textContent)), 'the success text is not shown');
  assert(await p.$('#learn-next'), 'no link to the next lesson');
  assert(p.errors.length === 0, `page errors: ${p.errors.join('; ')}`);

  const m = await open('/#learn=masques&n=masked-moves');
  await m.waitForSelector('#learn-boards.both');
  const caps = await m.$$eval('.learn-board figcaption', els => els.map(e => e.textContent));
  assert(caps.length === 2 && caps[0] === 'What white sees (you)' && caps[1] === 'What black sees', `the boards are labelled ${JSON.stringify(caps)}`);
  // White's board shows White's own figures; Black's shows them masked
  const fig = (i, sq) => m.$$eval('.learn-board', (els, i, sq) => {
    const g = els[i].querySelector(`g.piece[data-square="${sq}"]`);
    return g ? g.dataset.figure : null;
  }, i, sq);
  const mine = await fig(0, 'g1'), theirs = await fig(1, 'g1');
  assert(mine === 'knight', `White's board shows g1 as ${mine}`);
  assert(theirs !== 'knight', 'Black\'s board shows White\'s masked knight');
  await shot(m, 'learn-both');
  // the lesson taught to a class: the teacher reveals the lesson's answer
  const teach = await open('/' + await m.$eval('#learn-teach', a => a.getAttribute('href')));
  await teach.waitForSelector('#class-solution');
  assert(/Masked pieces move as pawns/.test(await teach.$eval('#class-lesson', e => e.textContent)), 'the class does not show the lesson');
  const code = await teach.$eval('#class-code', e => e.textContent);
  const s = await open(`/#class=${code}`);
  await s.waitForSelector('#class-name');
  await s.type('#class-name', 'Dee');
  await s.click('#class-join-form button');
  await s.waitForSelector('#class-lesson');
  assert(!(await s.content()).includes('g1g3'), 'a student sees the lesson\'s answer before it is revealed');
  await teach.click('#class-solution');
  await s.waitForFunction(() => document.querySelector('#class-answer') && /g1g3/.test(document.querySelector('#class-answer').textContent));
  await teach.click('#class-next');
  await s.waitForFunction(() => /Lesson 3 of/.test(document.querySelector('#class-lesson').textContent));
  assert(m.errors.length === 0, `page errors: ${m.errors.join('; ')}`);
});

main();
