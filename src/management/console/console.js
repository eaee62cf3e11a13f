// The Dromedary console: every route as a diagram drawn from its processors (the management
// API's /api/routes/{id}: each step with its parent step and branch), live counts refreshed
// every second, a node's statistics and the route's recent exchanges (the flight recorder) on
// click, route control with the token, health and endpoints. No framework, no build step.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const W = 270, H = 46, GAP = 22, BRANCH_GAP = 24, LABEL = 18;
const state = { route: null, data: null, shape: '', selected: null };
const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

async function api(path, options = {}) {
  const res = await fetch(path, options);
  let body = null;
  try { body = await res.json(); } catch (e) { body = null; }
  return { status: res.status, body };
}

function ms(v) { return (v || 0).toFixed(3); }
function clip(text, n) { return text.length > n ? text.slice(0, n - 1) + '\u2026' : text; }
function statsLine(s) {
  const t = s.processingTime || {};
  const failed = s.exchangesFailed ? ` \u00b7 \u2717${s.exchangesFailed}` : '';
  return `${s.exchangesTotal} msgs \u00b7 mean ${ms(t.meanMillis)} \u00b7 ` +
         `max ${ms(t.maxMillis)} ms${failed}`;
}

// The processors (depth-first, each naming its parent step and branch) as a tree.
function tree(route) {
  const byId = new Map(), top = [];
  for (const p of route.processors || []) {
    const node = { ...p, branches: [] };
    byId.set(p.id, node);
    if (p.clause) continue;  // error handling clauses are not on the route's path
    const parent = p.parent ? byId.get(p.parent) : null;
    if (!parent) { top.push(node); continue; }
    if (!parent.branches[p.branch]) {
      parent.branches[p.branch] = { label: p.branchLabel, nodes: [] };
    }
    parent.branches[p.branch].nodes.push(node);
  }
  return top;
}

function size(nodes) {
  let w = W, h = 0;
  for (const n of nodes) {
    h += H + GAP;
    const branches = n.branches.filter(Boolean);
    if (branches.length) {
      const sizes = branches.map((b) => size(b.nodes));
      w = Math.max(w, sizes.reduce((a, s) => a + s.w, 0) + BRANCH_GAP * (sizes.length - 1));
      h += LABEL + Math.max(...sizes.map((s) => s.h));
    }
  }
  return { w, h };
}

function nodeBox(svg, n, x, y, cls) {
  const g = el('g', { class: `node ${cls || ''}`, 'data-node-id': n.id,
                     transform: `translate(${x},${y})` });
  g.appendChild(el('rect', { width: W, height: H, rx: 6 }));
  g.appendChild(el('text', { x: 10, y: 18 }, clip(n.processor || n.id, 40)));
  g.appendChild(el('text', { x: 10, y: 36, class: 'stats' }, statsLine(n)));
  g.appendChild(el('title', {}, `${n.id}: ${n.processor || ''}`));
  g.addEventListener('click', () => select(n.id));
  svg.appendChild(g);
}

// Draws `nodes` as a column centred in [x, x + width] from y (edges into `edges`, drawn behind
// the boxes); returns where it ends.
function draw(svg, edges, nodes, x, y, width, above) {
  for (const n of nodes) {
    const nx = x + (width - W) / 2;
    if (above) {
      edges.appendChild(el('path', { class: 'edge',
                                     d: `M${above.x},${above.y} L${nx + W / 2},${y}` }));
    }
    nodeBox(svg, n, nx, y, n.exchangesFailed ? 'failing' : '');
    above = { x: nx + W / 2, y: y + H };
    y += H + GAP;
    const branches = n.branches.filter(Boolean);
    if (!branches.length) continue;
    const sizes = branches.map((b) => size(b.nodes));
    const total = sizes.reduce((a, s) => a + s.w, 0) + BRANCH_GAP * (sizes.length - 1);
    let bx = x + (width - total) / 2, bottom = y;
    branches.forEach((b, i) => {
      if (b.label) {
        svg.appendChild(el('text', { class: 'branch-label', x: bx + sizes[i].w / 2, y: y + 12,
                                     'text-anchor': 'middle' }, clip(b.label, 40)));
      }
      const end = draw(svg, edges, b.nodes, bx, y + LABEL, sizes[i].w, above);
      bottom = Math.max(bottom, end);
      bx += sizes[i].w + BRANCH_GAP;
    });
    // The next step follows the whole branching: its edge starts below the branches.
    above = { x: nx + W / 2, y: bottom - GAP + 4 };
    y = bottom;
  }
  return y;
}

function render(route) {
  const nodes = tree(route);
  const from = { id: route.id, processor: `from[${route.from}]`, branches: [], ...route };
  const s = size(nodes);
  const width = Math.max(s.w, W) + 40;
  const svg = el('svg', { width, height: s.h + H + GAP + 20, id: 'route-svg' });
  const edges = el('g', { class: 'edges' });
  svg.appendChild(edges);
  nodeBox(svg, from, (width - W) / 2, 10, 'from');
  draw(svg, edges, nodes, 20, 10 + H + GAP, width - 40, { x: width / 2, y: 10 + H });
  $('diagram').replaceChildren(svg);
  highlight();
}

function update(route) {
  const byId = new Map((route.processors || []).map((p) => [p.id, p]));
  byId.set(route.id, route);
  for (const g of document.querySelectorAll('#route-svg .node')) {
    const s = byId.get(g.dataset.nodeId);
    if (!s) continue;
    g.querySelector('.stats').textContent = statsLine(s);
    if (!g.classList.contains('from')) g.classList.toggle('failing', s.exchangesFailed > 0);
  }
}

function highlight() {
  for (const g of document.querySelectorAll('#route-svg .node')) {
    g.classList.toggle('selected', g.dataset.nodeId === state.selected);
  }
}

async function refresh() {
  if (!state.route) return;
  const { status, body } = await api(`/api/routes/${encodeURIComponent(state.route)}`);
  if (status !== 200) return;
  state.data = body;
  $('route-title').textContent = body.id;
  $('route-state').textContent = body.state;
  $('route-state').className = `badge ${body.state}`;
  const shape = (body.processors || []).map((p) => `${p.id}/${p.parent}/${p.branch}`).join(',');
  if (shape !== state.shape) {
    state.shape = shape;
    render(body);
  } else {
    update(body);
  }
  if (state.selected) showDetails();
}

function row(table, key, value) {
  const tr = document.createElement('tr');
  for (const v of [key, value]) {
    const td = document.createElement('td');
    td.textContent = v;
    tr.appendChild(td);
  }
  table.appendChild(tr);
}

async function showDetails() {
  const id = state.selected, route = state.data;
  if (!route) return;
  const s = id === route.id ? route : (route.processors || []).find((p) => p.id === id);
  if (!s) return;
  const panel = document.createElement('div');
  const h = document.createElement('h2');
  h.textContent = `${id}`;
  panel.appendChild(h);
  const table = document.createElement('table');
  table.id = 'node-stats';
  const t = s.processingTime || {};
  row(table, 'processor', s.processor || `from[${route.from}]`);
  row(table, 'total', s.exchangesTotal);
  row(table, 'completed', s.exchangesCompleted);
  row(table, 'failed', s.exchangesFailed);
  row(table, 'in flight', s.exchangesInflight);
  row(table, 'mean / max / last ms',
      `${ms(t.meanMillis)} / ${ms(t.maxMillis)} / ${ms(t.lastMillis)}`);
  row(table, 'redeliveries', s.redeliveries);
  panel.appendChild(table);
  const { status, body } = await api(`/api/routes/${encodeURIComponent(route.id)}/recent`);
  const h2 = document.createElement('h2');
  h2.textContent = id === route.id ? 'Recent exchanges'
                                   : 'Failed here, and the route\'s recent exchanges';
  panel.appendChild(h2);
  const list = document.createElement('ul');
  list.className = 'recent';
  list.id = 'recent';
  if (status === 200) {
    const entries = [...body.failed.filter((e) => id === route.id || e.nodeId === id),
                     ...body.completed.slice(-8).reverse()];
    for (const e of entries) {
      const li = document.createElement('li');
      if (e.failed) li.className = 'failed';
      const when = new Date(e.endMillis).toLocaleTimeString();
      li.textContent = `${when} ${e.failed ? `FAILED at ${e.nodeId}: ${e.error}` : 'ok'} ` +
                       `+${ms(e.elapsedMillis)} ms \u00b7 ${e.bodyType}: ${e.body}` +
                       (e.headers ? ` \u00b7 {${e.headers}}` : '');
      list.appendChild(li);
    }
    if (!entries.length) list.textContent = 'none recorded yet';
  }
  panel.appendChild(list);
  $('details').replaceChildren(panel);
}

function select(id) {
  state.selected = id;
  highlight();
  showDetails();
}

async function control(action) {
  if (!state.route) return;
  const headers = {};
  const token = $('token').value;
  sessionStorage.setItem('dromedary-token', token);
  if (token) headers.Authorization = `Bearer ${token}`;
  const { status, body } = await api(`/api/routes/${encodeURIComponent(state.route)}/${action}`,
                                     { method: 'POST', headers });
  $('control-result').textContent =
      status < 300 ? '' : `${status}: ${(body && body.error) || 'refused'}`;
  refresh();
}

async function loadRoutes() {
  const { status, body } = await api('/api/routes');
  if (status !== 200) return;
  const list = $('routes');
  list.replaceChildren();
  for (const r of body) {
    const li = document.createElement('li');
    li.textContent = r.id;
    li.dataset.route = r.id;
    li.className = r.id === state.route ? 'selected' : '';
    li.addEventListener('click', () => { location.hash = `route=${encodeURIComponent(r.id)}`; });
    list.appendChild(li);
  }
  // Each route's consumer: the endpoint it takes messages from, and its state.
  $('consumers').replaceChildren(...body.map((r) => {
    const li = document.createElement('li');
    li.textContent = `${r.from} \u2192 ${r.id} (${r.state})`;
    li.className = r.state === 'Started' ? '' : 'stopped';
    return li;
  }));
  if (!state.route && body.length) openRoute(body[0].id);
}

function openRoute(id) {
  state.route = id;
  state.shape = '';
  state.selected = null;
  $('details').replaceChildren();
  for (const li of $('routes').children) li.classList.toggle('selected', li.dataset.route === id);
  refresh();
}

async function health() {
  const { body } = await api('/api/health');
  const up = body && body.status === 'UP';
  $('health').textContent = up ? 'UP' : 'DOWN';
  $('health').className = `badge ${up ? 'up' : 'down'}`;
}

async function endpoints() {
  const { status, body } = await api('/api/endpoints');
  if (status !== 200) return;
  $('endpoints').replaceChildren(...body.map((e) => {
    const li = document.createElement('li');
    li.textContent = e.uri;
    return li;
  }));
}

async function start() {
  $('token').value = sessionStorage.getItem('dromedary-token') || '';
  for (const b of document.querySelectorAll('#route-bar button')) {
    b.addEventListener('click', () => control(b.dataset.action));
  }
  const ctx = await api('/api/context');
  if (ctx.status === 200) {
    $('context').textContent = `${ctx.body.name} \u00b7 Dromedary ${ctx.body.version}`;
  }
  const fromHash = () => {
    const m = /route=([^&]+)/.exec(location.hash);
    if (m) openRoute(decodeURIComponent(m[1]));
  };
  window.addEventListener('hashchange', fromHash);
  fromHash();
  await loadRoutes();
  health();
  endpoints();
  setInterval(refresh, 1000);
  setInterval(() => { health(); loadRoutes(); endpoints(); }, 3000);
}

start();
