// Shared by the run report and the comparison page: DOM helpers, charts, and the verdict.
var LLM = (function () {
  var started = performance.now();
  var charts = [];

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') { e.textContent = attrs[k]; } else if (k === 'cls') { e.className = attrs[k]; } else { e.setAttribute(k, attrs[k]); }
    });
    (children || []).forEach(function (c) { if (c) { e.appendChild(c); } });
    return e;
  }

  function num(v, digits) {
    if (v === null || v === undefined) { return '—'; }
    if (typeof v !== 'number') { return String(v); }
    if (Number.isInteger(v)) { return v.toLocaleString('en-US'); }
    return v.toLocaleString('en-US', { minimumFractionDigits: digits === undefined ? 2 : digits, maximumFractionDigits: digits === undefined ? 2 : digits });
  }

  function section(parent, title, note) {
    var s = el('section', {}, [el('h2', { text: title })]);
    if (note) { s.appendChild(el('p', { cls: 'note', text: note })); }
    parent.appendChild(s);
    return s;
  }

  function empty(parent, text) {
    parent.appendChild(el('div', { cls: 'empty', text: text }));
  }

  /** Draws an ECharts option into a new box of `parent` and registers it for the verdict. */
  function chart(parent, id, option, height) {
    var box = el('div', { cls: 'chart', id: id, 'data-chart': 'echarts' });
    if (height) { box.style.height = height + 'px'; }
    parent.appendChild(box);
    option.animation = false;
    option.textStyle = { fontFamily: 'system-ui, "DejaVu Sans", sans-serif' };
    if (!option.grid) { option.grid = { left: 64, right: 64, top: 46, bottom: 48 }; }
    if (!option.tooltip) { option.tooltip = { trigger: 'axis' }; }
    [].concat(option.xAxis || [], option.yAxis || []).forEach(function (a) {
      if (a.type === 'value') { a.axisLabel = Object.assign({ formatter: short, hideOverlap: true }, a.axisLabel || {}); }
    });
    var c = echarts.init(box, null, { renderer: 'canvas' });
    c.setOption(option);
    charts.push({ id: id, box: box });
    window.addEventListener('resize', function () { c.resize(); });
    return c;
  }

  /** An axis label: at most four significant digits. */
  function short(v) {
    return Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : String(+Number(v).toPrecision(4));
  }

  /** Registers a chart the page drew on its own canvas. */
  function register(id, box) {
    charts.push({ id: id, box: box });
  }

  function title(text, sub) {
    return { text: text, subtext: sub || '', left: 8, top: 2, textStyle: { fontSize: 13 }, subtextStyle: { fontSize: 11 } };
  }

  /** Histogram data [[bin start, count], ...] of {lo, width, counts}. */
  function bins(h) {
    return (h.counts || []).map(function (c, i) { return [h.lo + i * h.width, c]; });
  }

  /** Vertical marker lines at named values. */
  function markers(list) {
    return {
      symbol: 'none', silent: true,
      label: { formatter: '{b}', position: 'insideEndTop', fontSize: 10 },
      lineStyle: { type: 'dashed' },
      data: list.map(function (m) { return { name: m.name, xAxis: m.value, lineStyle: { color: m.color || '#b42318' } }; })
    };
  }

  /** Painted (non-transparent) pixels of every canvas inside `box`. */
  function painted(box) {
    var total = 0;
    box.querySelectorAll('canvas').forEach(function (cv) {
      if (!cv.width || !cv.height) { return; }
      var d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
      for (var i = 3; i < d.length; i += 4) { if (d[i] !== 0) { total++; } }
    });
    box.querySelectorAll('svg').forEach(function (svg) { total += svg.querySelectorAll('path,rect,line').length; });
    return total;
  }

  /** Writes what a test needs to judge the page into #llm-verdict: errors, charts drawn. */
  function verdict() {
    var list = charts.map(function (c) { return { id: c.id, painted: painted(c.box) }; });
    var errors = window.__llmErrors.slice();
    var ok = errors.length === 0 && list.every(function (c) { return c.painted > 0; });
    var v = { ok: ok, errors: errors, charts: list, renderMs: Math.round((performance.now() - started) * 10) / 10, sinceNavigationMs: Math.round(performance.now()) };
    var out = document.getElementById('llm-verdict');
    out.textContent = JSON.stringify(v);
    document.documentElement.setAttribute('data-verdict', ok ? 'ok' : 'failed');
  }

  function data() {
    return JSON.parse(document.getElementById('llm-data').textContent);
  }

  function run(draw) {
    try {
      draw(data(), document.getElementById('app'));
    } catch (e) {
      window.__llmErrors.push('error: ' + e.message);
      document.getElementById('app').appendChild(el('div', { cls: 'banner bad', text: 'This page could not be drawn: ' + e.message }));
    }
    verdict();
  }

  var METRICS = [['ttft', 'TTFT', 'Time to first token'], ['tpot', 'TPOT', 'Time per output token (excl. 1st)'], ['itl', 'ITL', 'Inter-token latency'], ['e2el', 'E2EL', 'End-to-end latency'], ['ttfc', 'TTFC', 'Time to first content token']];
  var COLORS = ['#2e6bd8', '#e07b12', '#14925d', '#b42318', '#7a4cc2', '#0e8a9e', '#a15c07', '#5b6473'];

  /** The percentile, mean and median keys the result holds for a metric, in its order. */
  function statKeys(result, metric) {
    return Object.keys(result).filter(function (k) {
      return k === 'mean_' + metric + '_ms' || k === 'median_' + metric + '_ms' || k === 'std_' + metric + '_ms' || (/^p[0-9.]+_/.test(k) && k.endsWith('_' + metric + '_ms'));
    });
  }

  return { el: el, num: num, section: section, empty: empty, chart: chart, register: register, title: title, bins: bins, markers: markers, run: run, METRICS: METRICS, COLORS: COLORS, statKeys: statKeys };
})();
