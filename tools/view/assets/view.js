// The timef view front end (docs/view.md). Every piece of dataset text reaches the page through
// textContent / createTextNode or canvas fillText: never as HTML.
'use strict';

const app = document.getElementById('app');

// el('div', {class: 'x', href: '/y'}, child, 'text', ...): text children become text nodes.
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null) continue;
    if (k === 'class') node.className = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    node.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

async function api(path) {
  const res = await fetch(path);
  const body = await res.json();
  if (!res.ok) throw new Error(body.error || res.statusText);
  return body;
}

function showError(e) {
  app.appendChild(el('p', {class: 'error'}, 'Error: ', e.message));
}

function valueText(v) {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.join(', ');
  return String(v);
}

function annotationLabel(a) {
  const v = valueText(a.value);
  return v === '' ? a.key : a.key + ' = ' + v;
}

function kv(rows) {
  return el('table', {}, rows.filter(r => r[1] !== undefined).map(
      ([k, v]) => el('tr', {}, el('th', {}, k), el('td', {}, v instanceof Node ? v : valueText(v)))));
}

function jsonBlock(value) {
  return el('div', {class: 'pre'}, JSON.stringify(value, null, 2));
}

// ---- Home: card, counts, specs, records ----

async function home() {
  const card = await api('/api/card');
  const c = card.card || {};
  app.replaceChildren();
  document.getElementById('dataset-ref').textContent = card.dataset_id + '@' + card.dataset_version;
  app.appendChild(el('h1', {id: 'card-name'}, c.name || card.dataset_id));
  app.appendChild(el('p', {id: 'card-description'}, c.description || ''));
  app.appendChild(kv([
    ['dataset', card.dataset_id + '@' + card.dataset_version],
    ['license', c.license],
    ['domains', (c.domains || []).join(', ')],
    ['tags', (c.tags || []).join(', ')],
    ['parents', (c.parents || []).map(p => p.alias + ' → ' + p.dataset_id + '@' + p.version).join('; ')],
  ]));
  app.appendChild(el('h2', {}, 'Counts'));
  app.appendChild(jsonBlock(card.counts));
  const specs = (card.schema && card.schema.time_series_specs) || [];
  if (specs.length) {
    app.appendChild(el('h2', {}, 'Specs'));
    app.appendChild(el('table', {id: 'specs'},
        el('tr', {}, ['spec_type', 'name', 'dtype', 'unit', 'shape'].map(h => el('th', {}, h))),
        specs.map(s => el('tr', {}, el('td', {}, s.spec_type), el('td', {}, s.name),
                          el('td', {}, s.dtype), el('td', {}, s.unit_value || ''),
                          el('td', {}, JSON.stringify(s.value_shape || []))))));
  }
  app.appendChild(el('h2', {}, 'Records'));
  const id = el('input', {name: 'id', placeholder: 'record ID', size: 8});
  const key = el('input', {name: 'key', placeholder: 'annotation key', size: 14});
  const value = el('input', {name: 'value', placeholder: 'annotation value', size: 14});
  const split = el('select', {name: 'split'}, ['', 'train', 'validation', 'test'].map(
      s => el('option', {value: s}, s || 'any split')));
  const list = el('div', {id: 'records'});
  let offset = 0;
  const load = async () => {
    const q = new URLSearchParams({offset: String(offset), limit: '25'});
    if (id.value) q.set('id', id.value);
    if (key.value) q.set('key', key.value);
    if (value.value) q.set('value', value.value);
    if (split.value) q.set('split', split.value);
    list.replaceChildren(el('p', {class: 'muted'}, 'Loading…'));
    try {
      const page = await api('/api/records?' + q);
      const rows = page.records.map(r => el('tr', {},
          el('td', {}, el('a', {href: '/records/' + r.id}, String(r.id))),
          el('td', {}, r.duration_s === null ? '' : r.duration_s.toFixed(1) + ' s'),
          el('td', {}, r.signals.join(', '))));
      const pager = el('div', {class: 'pager'},
          el('button', {type: 'button', onclick: () => { offset = Math.max(0, offset - 25); load(); },
                        ...(offset === 0 ? {disabled: ''} : {})}, '← previous'),
          el('button', {type: 'button', onclick: () => { offset = page.next_offset; load(); },
                        ...(page.next_offset === null ? {disabled: ''} : {})}, 'next →'),
          el('span', {class: 'muted'}, page.total === null ? '' : page.total + ' records'));
      list.replaceChildren(el('table', {},
          el('tr', {}, el('th', {}, 'ID'), el('th', {}, 'duration'), el('th', {}, 'signals')), rows),
          pager);
    } catch (e) {
      list.replaceChildren(el('p', {class: 'error'}, e.message));
    }
  };
  app.appendChild(el('form', {class: 'filters', onsubmit: e => { e.preventDefault(); offset = 0; load(); }},
      id, key, value, split, el('button', {type: 'submit'}, 'Filter')));
  app.appendChild(list);
  await load();
}

// ---- Plots ----

const COLORS = ['rgba(255,152,0,0.25)', 'rgba(76,175,80,0.25)', 'rgba(156,39,176,0.2)',
                'rgba(3,169,244,0.25)', 'rgba(244,67,54,0.2)'];

function niceStep(span, count) {
  const raw = span / count;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (raw <= m * mag) return m * mag;
  return 10 * mag;
}

// One panel of plots sharing a time window [t0, t1] in seconds; `marks` are annotation bands and
// markers ({start_s, end_s|null, label, signal_id|null}).
class PlotGroup {
  constructor(container, signals, marks) {
    this.plots = [];
    this.marks = marks;
    const times = signals.filter(s => s.axis.first_us !== undefined);
    this.full = times.length
        ? [Math.min(...times.map(s => s.axis.first_us)) / 1e6,
           Math.max(...times.map(s => s.axis.last_us)) / 1e6]
        : [0, 1];
    if (this.full[1] <= this.full[0]) this.full[1] = this.full[0] + 1;
    this.window = this.full.slice();
    const toolbar = el('div', {class: 'toolbar'},
        el('button', {type: 'button', onclick: () => this.zoom(0.5)}, 'zoom in'),
        el('button', {type: 'button', onclick: () => this.zoom(2)}, 'zoom out'),
        el('button', {type: 'button', onclick: () => this.setWindow(this.full.slice())}, 'reset'),
        el('span', {class: 'muted window-label'}, ''));
    this.label = toolbar.lastChild;
    container.appendChild(toolbar);
    for (const s of signals) {
      const canvas = el('canvas', {'data-signal': s.id});
      const unit = s.spec.unit ? ' (' + s.spec.unit + ')' : '';
      const labels = el('ul', {class: 'labels'}, marks.filter(m => m.signal_id === null || m.signal_id === s.id)
          .map(m => el('li', {class: 'annotation-label'}, m.label + ' @ ' + m.start_s.toFixed(3) + ' s' +
                                                           (m.end_s === null ? '' : ' – ' + m.end_s.toFixed(3) + ' s'))));
      const box = el('div', {class: 'plot'},
          el('div', {class: 'plot-title'}, s.title + unit + ' ', el('span', {class: 'muted'}, s.spec.dtype)),
          canvas, labels);
      container.appendChild(box);
      const plot = {signal: s, canvas, data: null, seq: 0};
      this.plots.push(plot);
      this.attach(plot);
    }
    this.setWindow(this.window);
  }

  attach(plot) {
    const c = plot.canvas;
    c.addEventListener('wheel', e => {
      e.preventDefault();
      const r = c.getBoundingClientRect();
      const f = (e.clientX - r.left) / r.width;
      this.zoom(e.deltaY < 0 ? 0.8 : 1.25, f);
    }, {passive: false});
    let drag = null;
    c.addEventListener('mousedown', e => { drag = {x: e.clientX, w: this.window.slice()}; });
    window.addEventListener('mouseup', () => { drag = null; });
    window.addEventListener('mousemove', e => {
      if (!drag) return;
      const dt = (e.clientX - drag.x) / c.getBoundingClientRect().width * (drag.w[1] - drag.w[0]);
      this.setWindow([drag.w[0] - dt, drag.w[1] - dt]);
    });
    c.addEventListener('dblclick', () => this.setWindow(this.full.slice()));
  }

  zoom(factor, at = 0.5) {
    const [a, b] = this.window;
    const t = a + (b - a) * at;
    const w = Math.max((b - a) * factor, 1e-3);
    this.setWindow([t - w * at, t - w * at + w]);
  }

  setWindow(w) {
    const span = Math.min(w[1] - w[0], this.full[1] - this.full[0]);
    let a = Math.max(this.full[0], Math.min(w[0], this.full[1] - span));
    this.window = [a, a + span];
    this.label.textContent = this.window[0].toFixed(3) + ' s – ' + this.window[1].toFixed(3) + ' s';
    for (const p of this.plots) this.draw(p);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.plots.forEach(p => this.fetch(p)), 60);
  }

  async fetch(plot) {
    const width = Math.max(100, Math.round(plot.canvas.getBoundingClientRect().width || 800));
    const [a, b] = this.window;
    const q = new URLSearchParams({
      start_us: String(Math.max(0, Math.floor(a * 1e6))),
      end_us: String(Math.max(0, Math.ceil(b * 1e6) + 1)),
      buckets: String(Math.min(width, 4000)),
    });
    if (plot.signal.channel) q.set('channel', String(plot.signal.channel));
    const seq = ++plot.seq;
    try {
      const data = await api('/api/signals/' + plot.signal.id + '/range?' + q);
      if (seq !== plot.seq) return;
      // ±infinity arrives as the strings "Infinity" / "-Infinity" (JSON has no such number).
      for (const k of ['min', 'max']) data[k] = data[k].map(v => (v === null ? null : Number(v)));
      plot.data = data;
      plot.canvas.setAttribute('data-buckets', String(data.min.length));
      this.draw(plot);
    } catch (e) {
      plot.canvas.setAttribute('data-error', e.message);
    }
  }

  draw(plot) {
    const c = plot.canvas;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(100, Math.round(c.getBoundingClientRect().width || 800));
    const h = 150;
    if (c.width !== w * dpr) { c.width = w * dpr; c.height = h * dpr; }
    const g = c.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.fillStyle = '#fff';
    g.fillRect(0, 0, w, h);
    const left = 60, right = w - 8, top = 8, bottom = h - 20;
    const [a, b] = this.window;
    const X = t => left + (t - a) / (b - a) * (right - left);
    // Annotations: intervals as bands, points as markers, each with its label.
    g.font = '11px sans-serif';
    this.marks.forEach((m, i) => {
      if (m.signal_id !== null && m.signal_id !== plot.signal.id) return;
      const x0 = X(m.start_s);
      if (m.end_s !== null) {
        const x1 = X(m.end_s);
        if (x1 < left || x0 > right) return;
        g.fillStyle = COLORS[i % COLORS.length];
        g.fillRect(Math.max(left, x0), top, Math.max(1, Math.min(right, x1) - Math.max(left, x0)), bottom - top);
        g.fillStyle = '#333';
        g.fillText(m.label, Math.max(left, x0) + 2, top + 10 + (i % 3) * 12);
      } else {
        if (x0 < left || x0 > right) return;
        g.strokeStyle = '#d32f2f';
        g.beginPath(); g.moveTo(x0, top); g.lineTo(x0, bottom); g.stroke();
        g.fillStyle = '#d32f2f';
        g.fillText(m.label, x0 + 2, bottom - 4 - (i % 3) * 12);
      }
    });
    // Axes.
    g.strokeStyle = '#999';
    g.strokeRect(left, top, right - left, bottom - top);
    g.fillStyle = '#555';
    const ts = niceStep(b - a, 8);
    for (let t = Math.ceil(a / ts) * ts; t <= b; t += ts) {
      const x = X(t);
      g.fillRect(x, bottom, 1, 4);
      g.fillText(Number(t.toPrecision(10)) + ' s', x - 10, h - 4);
    }
    const d = plot.data;
    if (!d || !d.time_us || d.min.length === 0) return;
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < d.min.length; i++) {
      if (d.min[i] !== null && isFinite(d.min[i])) lo = Math.min(lo, d.min[i]);
      if (d.max[i] !== null && isFinite(d.max[i])) hi = Math.max(hi, d.max[i]);
    }
    if (!isFinite(lo) || !isFinite(hi)) return;
    if (hi === lo) { hi += 1; lo -= 1; }
    const pad = (hi - lo) * 0.05;
    lo -= pad; hi += pad;
    const Y = v => Math.max(top - 2, Math.min(bottom + 2, bottom - (v - lo) / (hi - lo) * (bottom - top)));
    g.fillText(Number(hi.toPrecision(4)).toString(), 2, top + 10);
    g.fillText(Number(lo.toPrecision(4)).toString(), 2, bottom);
    g.save();
    g.beginPath(); g.rect(left, top, right - left, bottom - top); g.clip();
    g.fillStyle = '#1565c0';
    g.strokeStyle = '#1565c0';
    g.lineWidth = 1.5;
    g.beginPath();
    let pen = false;
    for (let i = 0; i < d.min.length; i++) {
      if (d.min[i] === null) { pen = false; continue; }
      const x0 = X(d.time_us[i] / 1e6), x1 = X(d.time_us[i + 1] / 1e6);
      const y0 = Y(d.max[i]), y1 = Y(d.min[i]);
      g.fillRect(x0, y0, Math.max(1.5, x1 - x0), Math.max(1.5, y1 - y0));
      const ym = (y0 + y1) / 2;
      if (pen) g.lineTo(x0, ym); else g.moveTo(x0, ym);
      pen = true;
    }
    g.stroke();
    g.restore();
  }
}

function marksOf(annotations) {
  return annotations.filter(a => a.span !== 'static').map(a => ({
    start_s: a.start_us / 1e6,
    end_s: a.span === 'interval' ? a.end_us / 1e6 : null,
    label: annotationLabel(a),
    signal_id: a.signal_id,
  }));
}

// N-D signals: their first channels (scalars in row-major order of value_shape), at most this many.
const MAX_CHANNELS = 3;

function plotRecord(container, record, extraMarks) {
  const timed = record.signals.filter(s => s.has_values && s.axis.type !== 'ordinal' && s.spec.dtype !== 'str');
  const plots = [];
  for (const s of timed) {
    const shape = s.spec.value_shape || [];
    if (shape.length === 0) { plots.push(Object.assign({}, s, {channel: 0, title: s.name})); continue; }
    const width = shape.reduce((a, b) => a * b, 1);
    for (let c = 0; c < Math.min(width, MAX_CHANNELS); c++) {
      plots.push(Object.assign({}, s, {channel: c, title: s.name + ' [channel ' + c + ' of ' + width + ']'}));
    }
  }
  const others = record.signals.filter(s => !timed.includes(s));
  const box = el('div', {class: 'plots'});
  container.appendChild(box);
  if (plots.length) new PlotGroup(box, plots, marksOf(record.annotations).concat(extraMarks || []));
  else box.appendChild(el('p', {class: 'muted'}, 'No signal on a time axis to plot.'));
  if (others.length) {
    container.appendChild(el('p', {class: 'muted'}, 'Not plotted (ordinal axis, text or no values): ',
        others.map(s => el('span', {class: 'tag'}, s.name + ' [' + s.spec.dtype + ', ' + s.axis.type + ']'))));
  }
}

async function recordPage(id) {
  const r = await api('/api/records/' + id);
  app.replaceChildren();
  app.appendChild(el('h1', {}, 'Record ' + r.id));
  app.appendChild(kv([
    ['duration', r.duration_s === null ? 'no time span' : r.duration_s + ' s'],
    ['start time', r.start_time_us === null ? '' : new Date(r.start_time_us / 1000).toISOString()],
    ['signals', r.signals.map(s => s.name + (s.spec.unit ? ' (' + s.spec.unit + ')' : '')).join(', ')],
  ]));
  app.appendChild(el('h2', {}, 'Signals'));
  plotRecord(app, r, []);
  const statics = r.annotations.filter(a => a.span === 'static');
  app.appendChild(el('h2', {}, 'Annotations'));
  app.appendChild(el('table', {id: 'annotations'},
      el('tr', {}, ['key', 'value', 'on', 'span'].map(h => el('th', {}, h))),
      r.annotations.map(a => el('tr', {}, el('td', {}, a.key), el('td', {}, valueText(a.value)),
          el('td', {}, a.on), el('td', {}, a.span === 'static' ? 'static' :
              a.span === 'point' ? (a.start_us / 1e6) + ' s' : (a.start_us / 1e6) + ' – ' + (a.end_us / 1e6) + ' s')))));
  if (!r.annotations.length) app.appendChild(el('p', {class: 'muted'}, 'none'));
  app.appendChild(el('p', {class: 'muted'}, statics.length + ' static annotation(s) listed above.'));
  app.appendChild(el('h2', {}, 'Tasks using this record'));
  app.appendChild(r.tasks.length
      ? el('ul', {}, r.tasks.map(t => el('li', {}, el('a', {href: '/tasks/' + t.id}, 'task ' + t.id),
                                               ' ' + t.type + (t.split ? ' (' + t.split + ')' : ''))))
      : el('p', {class: 'muted'}, 'none'));
  app.appendChild(el('h2', {}, 'Metadata'));
  app.appendChild(jsonBlock(r.metadata));
}

async function taskPage(id) {
  const t = await api('/api/tasks/' + id);
  app.replaceChildren();
  app.appendChild(el('h1', {}, 'Task ' + t.id + ' (' + t.type + ')'));
  app.appendChild(kv([
    ['split', t.split || ''],
    ['target name', t.target_name || ''],
    ['unit', t.unit || ''],
    ['built from', t.from_tasks.length ? el('span', {}, t.from_tasks.map(
        f => el('a', {href: '/tasks/' + f}, 'task ' + f + ' '))) : ''],
  ]));
  if (t.prompt !== null) { app.appendChild(el('h2', {}, 'Prompt')); app.appendChild(el('div', {class: 'pre', id: 'prompt'}, t.prompt)); }
  if (t.rationale !== null) { app.appendChild(el('h2', {}, 'Rationale')); app.appendChild(el('div', {class: 'pre'}, t.rationale)); }
  app.appendChild(el('h2', {}, 'Targets'));
  app.appendChild(el('ul', {id: 'targets'}, t.targets.map(x => el('li', {},
      x.kind + ': ' + (x.value !== undefined ? valueText(x.value) :
          x.record_id !== undefined ? 'record ' + x.record_id :
          x.signal_id !== undefined ? 'signal ' + x.signal_id :
          (x.span_kind.startsWith('time')
              ? x.span_kind + ' ' + x.start / 1e6 + ' s' + (x.end === null ? '' : ' – ' + x.end / 1e6 + ' s')
              : x.span_kind + ' step ' + x.start + (x.end === null ? '' : ' – ' + x.end)) +
          (x.signal_ids && x.signal_ids.length ? ' on signal ' + x.signal_ids.join(', ') : ''))))));
  app.appendChild(el('h2', {}, 'Inputs'));
  for (const rid of t.inputs) {
    app.appendChild(el('h2', {}, el('a', {href: '/records/' + rid}, 'record ' + rid)));
    const r = await api('/api/records/' + rid);
    // Span targets drawn on the input signals: time spans in µs, step spans on their signals.
    const marks = [];
    for (const x of t.targets) {
      if (x.span_kind === undefined) continue;
      const timeSpan = x.span_kind.startsWith('time');
      const label = 'target ' + x.span_kind;
      if (timeSpan) {
        marks.push({start_s: x.start / 1e6, end_s: x.end === null ? null : x.end / 1e6, label, signal_id: null});
      } else {
        for (const sid of x.signal_ids) {
          const s = r.signals.find(v => v.id === sid);
          if (!s || s.axis.type !== 'regular') continue;
          const at = step => (s.axis.offset_us + Math.floor((s.axis.start_index + step) *
                              s.axis.period_numerator_us / s.axis.period_denominator)) / 1e6;
          marks.push({start_s: at(x.start), end_s: x.end === null ? null : at(x.end), label, signal_id: sid});
        }
      }
    }
    plotRecord(app, r, marks);
  }
}

async function route() {
  const path = location.pathname;
  let m;
  try {
    if (path === '/') await home();
    else if ((m = /^\/records\/([1-9][0-9]*)$/.exec(path))) await recordPage(m[1]);
    else if ((m = /^\/tasks\/([1-9][0-9]*)$/.exec(path))) await taskPage(m[1]);
    else { app.replaceChildren(); showError(new Error('no such page')); }
    if (!document.getElementById('dataset-ref').textContent) {
      const card = await api('/api/card');
      document.getElementById('dataset-ref').textContent = card.dataset_id + '@' + card.dataset_version;
    }
  } catch (e) {
    app.replaceChildren();
    showError(e);
  }
  document.body.setAttribute('data-ready', '1');
}

route();
