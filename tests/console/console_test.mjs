// The web console in a real browser (Debian's chromium, driven by playwright-core): it loads,
// the diagram of a route with a choice shows its branches, a node's count rises as messages
// flow, clicking a node shows its statistics and the route's recent exchanges, stopping a
// route without the token is refused and with it works, bad requests get 4xx.
//   node console_test.mjs BASE_URL TOKEN ARTIFACT_DIR
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';

const [base, token, artifacts] = process.argv.slice(2);
mkdirSync(artifacts, { recursive: true });
let failures = 0;
function check(name, ok, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : `: ${detail}`}`);
  if (!ok) failures++;
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));

  // Loads, with the first route's diagram.
  const started = Date.now();
  await page.goto(`${base}/console#route=orders`);
  await page.waitForSelector('#route-svg .node[data-node-id="by-kind"]', { timeout: 10000 });
  const firstPaint = await page.evaluate(() =>
    performance.getEntriesByType('paint').find((e) => e.name === 'first-paint')?.startTime ?? -1);
  check('the console loads with the route diagram', true);
  // Reported, not asserted (timings are noise on shared CPUs): the first load includes the
  // browser's renderer start; the reload is the page's own cost.
  await page.reload();
  await page.waitForSelector('#route-svg .node[data-node-id="by-kind"]', { timeout: 10000 });
  const [warmPaint, responseStart] = await page.evaluate(() => [
    performance.getEntriesByType('paint').find((e) => e.name === 'first-paint')?.startTime ?? -1,
    performance.getEntriesByType('navigation')[0].responseStart]);
  console.log(`     first paint ${firstPaint.toFixed(1)} ms cold, ${warmPaint.toFixed(1)} ms on ` +
              `reload (the server's answer began at ${responseStart.toFixed(1)} ms); diagram ` +
              `in ${Date.now() - started} ms`);
  check('the context is named in the header',
        (await page.textContent('#context')).includes('Dromedary'));
  check('the route list has both routes',
        (await page.$$eval('#routes li', (l) => l.map((e) => e.textContent))).join() ===
            'orders,lines');
  await page.screenshot({ path: `${artifacts}/console-loaded.png`, fullPage: true });

  // The choice shows its branches: two whens and otherwise, each with its steps below it.
  const labels = await page.$$eval('#route-svg .branch-label', (l) => l.map((e) => e.textContent));
  check('the choice shows its when and otherwise branches',
        labels.length === 3 && labels[0].startsWith('when[') && labels[2] === 'otherwise',
        JSON.stringify(labels));
  const ids = await page.$$eval('#route-svg .node', (n) => n.map((e) => e.dataset.nodeId));
  check('every step is a node, the split nested in its branch',
        ['orders', 'setBody1', 'by-kind', 'gold', 'lines', 'each-line', 'rest']
            .every((id) => ids.includes(id)), JSON.stringify(ids));
  const y = async (id) => page.$eval(`#route-svg .node[data-node-id="${id}"]`,
                                     (g) => g.getBoundingClientRect().y);
  const x = async (id) => page.$eval(`#route-svg .node[data-node-id="${id}"]`,
                                     (g) => g.getBoundingClientRect().x);
  check('branches sit side by side below the choice',
        (await y('gold')) > (await y('by-kind')) && (await x('gold')) < (await x('rest')) &&
            (await y('each-line')) > (await y('lines')));

  // A node's count rises as messages flow (the timer fires every 200 ms).
  const count = async () => parseInt(
      await page.textContent('#route-svg .node[data-node-id="setBody1"] .stats'), 10);
  const before = await count();
  await page.waitForTimeout(2500);
  const after = await count();
  check('a node\'s count rises as messages flow', after > before, `${before} -> ${after}`);

  // Clicking a node shows its statistics and the route's recent exchanges.
  await page.click('#route-svg .node[data-node-id="setBody1"]');
  await page.waitForSelector('#node-stats');
  await page.waitForSelector('#recent li');
  check('clicking a node shows its statistics',
        (await page.textContent('#node-stats')).includes('setBody[simple{order'));
  const recent = await page.$$eval('#recent li', (l) => l.map((e) => e.textContent));
  check('... and the recent exchanges from the flight recorder',
        recent.some((t) => t.includes('order ')), JSON.stringify(recent.slice(0, 2)));
  await page.click('#routes li[data-route="lines"]');
  await page.waitForSelector('#route-svg .node[data-node-id="refuse"]');
  await page.click('#route-svg .node[data-node-id="refuse"]');
  await page.waitForSelector('#recent li.failed', { timeout: 10000 });
  check('a failing node shows the exchanges that failed there',
        (await page.textContent('#recent li.failed')).includes('FAILED at refuse: '));
  check('a node that failed is marked',
        await page.$eval('#route-svg .node[data-node-id="refuse"]',
                         (g) => g.classList.contains('failing')));
  await page.screenshot({ path: `${artifacts}/console-node.png`, fullPage: true });

  // Stopping without the token is refused; with it, the route stops.
  await page.click('#routes li[data-route="orders"]');
  await page.waitForSelector('#route-svg .node[data-node-id="by-kind"]');
  await page.click('button[data-action="stop"]');
  await page.waitForFunction(() => document.querySelector('#control-result').textContent !== '');
  check('stop without the token is refused',
        (await page.textContent('#control-result')).startsWith('401: '),
        await page.textContent('#control-result'));
  check('... and the route runs on', (await page.textContent('#route-state')) === 'Started');
  await page.fill('#token', token);
  await page.click('button[data-action="stop"]');
  await page.waitForFunction(() => document.querySelector('#route-state').textContent === 'Stopped',
                             null, { timeout: 10000 });
  check('stop with the token stops the route', true);
  await page.click('button[data-action="start"]');
  await page.waitForFunction(() => document.querySelector('#route-state').textContent === 'Started',
                             null, { timeout: 10000 });
  check('start with the token starts it again', true);
  await page.screenshot({ path: `${artifacts}/console-control.png`, fullPage: true });
  const consumers = await page.$$eval('#consumers li', (l) => l.map((e) => e.textContent));
  check('the consumers list each route\'s endpoint and state',
        consumers.includes('timer:orders?period=200 \u2192 orders (Started)') &&
            consumers.includes('direct:line \u2192 lines (Started)'), JSON.stringify(consumers));
  const endpoints = await page.$$eval('#endpoints li', (l) => l.map((e) => e.textContent));
  check('the endpoints are listed', endpoints.includes('direct://line'), JSON.stringify(endpoints));

  // Bad requests to the console's endpoints get 4xx.
  const statuses = await page.evaluate(async () => {
    const codes = [];
    for (const [method, path] of [['GET', '/console/nope'], ['POST', '/console'],
                                  ['GET', '/console/../api/x'], ['DELETE', '/console/console.js']]) {
      codes.push((await fetch(path, { method })).status);
    }
    return codes;
  });
  check('bad requests to the console get 4xx',
        statuses.every((s) => s >= 400 && s < 500), JSON.stringify(statuses));
  check('no script error on the page', errors.length === 0, errors.join('; '));
} catch (e) {
  check('the browser test ran to its end', false, String(e));
} finally {
  await browser.close();
}
process.exit(failures === 0 ? 0 : 1);
