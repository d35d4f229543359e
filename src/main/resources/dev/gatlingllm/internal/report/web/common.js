// Shared by the run report and the comparison page: DOM helpers, charts, and the verdict.
var LLM = (function () {
  var started = performance.now();
  var charts = [];

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text' && attrs.cls && /\btext\b/.test(attrs.cls)) { breakable(e, attrs[k]); } else if (k === 'text') { e.textContent = attrs[k]; } else if (k === 'cls') { e.className = attrs[k]; } else { e.setAttribute(k, attrs[k]); }
    });
    (children || []).forEach(function (c) { if (c) { e.appendChild(c); } });
    return e;
  }

  /**
   * Text that may break after - _ = / , . : (a <wbr> each): names, paths and flags wrap there
   * instead of pushing their table past its container, and copy without hidden characters.
   */
  function breakable(e, text) {
    String(text).split(/(?<=[-_=/,.:])/).forEach(function (part, i) {
      if (i > 0) { e.appendChild(document.createElement('wbr')); }
      e.appendChild(document.createTextNode(part));
    });
  }

  var KEY_LABELS = { request_throughput: 'Request throughput (req/s)', output_throughput: 'Output token throughput (tok/s)',
    total_token_throughput: 'Total token throughput (tok/s)', request_goodput: 'Request goodput (req/s)', request_rate: 'Request rate (req/s)',
    max_concurrency: 'Max concurrency', max_concurrent_requests: 'Peak concurrent requests', max_output_tokens_per_s: 'Peak output token throughput (tok/s)',
    completed: 'Successful requests', failed: 'Failed requests', duration: 'Benchmark duration (s)', num_prompts: 'Prompts',
    total_input_tokens: 'Total input tokens', total_output_tokens: 'Total generated tokens', burstiness: 'Burstiness',
    'gpu_energy.output_tokens_per_joule': 'Output tokens per joule (tok/J)', 'gpu_energy.joules_per_output_token': 'Energy per output token (J/tok)',
    'gpu_energy.energy_j': 'GPU energy (J)', 'gpu_energy.avg_power_w': 'Average GPU power, all GPUs (W)',
    cancelled: 'Cancelled requests', requests_cancelled: 'Requests cancelled (client) or aborted (server)',
    mean_ttft_part_ms: 'Mean TTFT part (ms)' };

  /** A result JSON key as a person reads it: "p99_e2el_ms" is "P99 E2EL (ms)". */
  function label(key) {
    if (KEY_LABELS[key]) { return KEY_LABELS[key]; }
    // a sweep's figure of each replica (--base-url given several times)
    if (/^per_url\./.test(key)) { return label(key.slice(8)) + ', per replica'; }
    var m = /^(mean|median|std|p[0-9.]+)_(ttft|tpot|itl|e2el|ttfc)_ms$/.exec(key);
    if (m) { return m[1].charAt(0).toUpperCase() + m[1].slice(1) + ' ' + m[2].toUpperCase() + ' (ms)'; }
    var units = { ms: 'ms', s: 's', mb: 'MB', rps: 'req/s', perc: '%' };
    var parts = String(key).split('_'), unit = units[parts[parts.length - 1]];
    if (unit && parts.length > 1) { parts.pop(); }
    var text = parts.join(' ');
    return text.charAt(0).toUpperCase() + text.slice(1) + (unit && parts.length ? ' (' + unit + ')' : '');
  }

  /**
   * The self-check of a run in one sentence ({ok, level, text, short}): its grade (level: good,
   * fair, distorted or ungraded; only distorted is red), why, and by how much against the
   * figure it distorts. A result written before the grades (no `grade`) is read as it was
   * then: any warning meant distorted.
   */
  function selfCheck(sc) {
    if (!sc) { return null; }
    var warnings = sc.warnings || [], jvmOk = !sc.jvm || sc.jvm.verdict === 'ok';
    var lag = sc.p99_loop_lag_ms, gc = sc.max_gc_pause_ms, cpu = sc.cpu_percent_of_one_core;
    if (sc.grade) {
      var level = { good: 'good', fair: 'fair', distorted: 'distorted' }[sc.grade] || 'ungraded';
      var why = sc.grade_reason ? ': ' + sc.grade_reason : '';
      var said = { good: 'good. The load generator did not distort these timings',
        fair: 'fair. The load generator added a delay worth knowing, within a tolerable share of the figures',
        distorted: 'distorted. Part of these timings is the load generator\'s own delay' }[level] || sc.grade + '. Not enough to grade';
      var more = warnings.length ? ' (' + warnings.length + (warnings.length === 1 ? ' warning' : ' warnings') + ' in the self-check below)' : '';
      return { ok: level === 'good', level: level, short: sc.grade,
        text: 'Client self-check: ' + said + (level === 'ungraded' ? why.replace(/^: not enough to grade: /, ': ') : why) + more + '.' };
    }
    if (!warnings.length) {
      var figures = [];
      if (lag !== undefined) { figures.push('event-loop lag p99 ' + num(lag, 2) + ' ms'); }
      if (gc !== undefined) { figures.push('longest GC pause ' + num(gc, 1) + ' ms'); }
      if (cpu !== null && cpu !== undefined) { figures.push('client CPU ' + num(cpu, 0) + ' % of one core'); }
      return { ok: jvmOk, level: jvmOk ? 'good' : 'distorted', short: 'ok',
        text: 'Client self-check: ok. The load generator did not distort these timings' + (figures.length ? ' (' + figures.join(', ') + ')' : '')
          + (jvmOk ? '.' : ', but its JVM settings differ from what the timings need (see the self-check).') };
    }
    var by = Math.max(lag > 1 ? lag : 0, gc > 10 ? gc : 0);
    var count = warnings.length + (warnings.length === 1 ? ' warning' : ' warnings');
    return { ok: false, level: 'distorted', short: by > 0 ? 'distorted: up to ' + num(by, 2) + ' ms' : 'distorted (' + count + ')',
      // without an amount, the first warning's gist (a JVM whose settings differ, a busy CPU)
      text: 'Client self-check: distorted. ' + (by > 0 ? 'These latencies include up to ' + num(by, 2) + ' ms of the client\'s own delay'
        : 'Its first warning: ' + warnings[0].split(/ \(|;/)[0]) + ' (' + count + ' in the self-check below).' };
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

  /**
   * Draws an ECharts option into a new box of `parent` and registers it for the verdict. SVG,
   * not canvas: every text of a chart is then an element a test can measure. The title, its
   * subtitle, the legend and the axis names each get a row of their own above the plot, so
   * none is drawn over another; `notes` are texts placed at data coordinates after the first
   * layout, stacked in lanes where they would overlap (see place()).
   */
  function chart(parent, id, option, height, notes) {
    var box = el('div', { cls: 'chart', id: id, 'data-chart': 'echarts' });
    if (height) { box.style.height = height + 'px'; }
    parent.appendChild(box);
    option.animation = false;
    option.textStyle = { fontFamily: FONT };
    var top = 6 + (option.title ? 20 : 0) + (option.title && option.title.subtext ? 18 : 0);
    if (option.legend) { option.legend = Object.assign({ type: 'scroll', left: 8, right: 8 }, option.legend, { top: top }); top += 24; }
    var axisNames = [].concat(option.yAxis || []).some(function (a) { return a.name; });
    if (!option.grid) { option.grid = { left: 64, right: 64, top: top + (axisNames ? 22 : 8), bottom: 48 }; }
    if (!option.tooltip) { option.tooltip = { trigger: 'axis' }; }
    // an x axis that starts at its data has its first label next to the origin, where the y
    // axis's lowest label is (seen: "50.2" ms over the count axis's "0"): the y axis leaves it out
    var xFromData = [].concat(option.xAxis || []).some(function (a) { return a.min === 'dataMin'; });
    [].concat(option.xAxis || [], option.yAxis || []).forEach(function (a) {
      var isY = [].concat(option.yAxis || []).indexOf(a) >= 0;
      // an axis cut at the data's ends would label them with odd values, drawn over their neighbours
      if (a.type === 'value') { a.axisLabel = Object.assign({ formatter: short, hideOverlap: true, showMinLabel: a.min !== 'dataMin' && !(isY && xFromData), showMaxLabel: a.max !== 'dataMax' }, a.axisLabel || {}); }
    });
    // an x axis's name goes under its labels: at its end it met the right axis's labels
    [].concat(option.xAxis || []).forEach(function (a) { if (a.name && !a.nameLocation) { a.nameLocation = 'middle'; a.nameGap = 26; } });
    [].concat(option.yAxis || []).forEach(function (a) { if (a.name) { a.nameGap = 10; a.nameTextStyle = Object.assign({ align: a.position === 'right' || (a !== [].concat(option.yAxis)[0]) ? 'right' : 'left' }, a.nameTextStyle || {}); } });
    var c = echarts.init(box, null, { renderer: 'svg' });
    c.setOption(option);
    var entry = { id: id, box: box, chart: c, notes: notes || [] };
    charts.push(entry);
    place(entry);
    window.addEventListener('resize', function () { c.resize(); place(entry); });
    return c;
  }

  var FONT = 'system-ui, "DejaVu Sans", sans-serif';
  var measure = document.createElement('canvas').getContext('2d');

  /**
   * Notes at data points ({x, y, text, color, yAxisIndex}): each goes right of its point (left
   * of it when that would leave the plot) and one line lower while it would touch a note
   * already placed, so close values (a mean and a median) stay readable side by side.
   */
  function place(entry) {
    if (!entry.notes.length) { return; }
    var c = entry.chart, grid = c.getModel().getComponent('grid').coordinateSystem.getRect();
    measure.font = '10px ' + FONT;
    var placed = [], graphics = [];
    entry.notes.slice().sort(function (a, b) { return a.x - b.x; }).forEach(function (n) {
      var p = c.convertToPixel({ xAxisIndex: 0, yAxisIndex: n.yAxisIndex || 0 }, [n.x, n.y === undefined ? 0 : n.y]);
      var w = Math.ceil(measure.measureText(n.text).width) + 4, h = 13;
      var x = p[0] + 3 + w > grid.x + grid.width ? p[0] - 3 - w : p[0] + 3;
      x = Math.max(grid.x, x);
      var y = n.y === undefined ? grid.y + 2 : p[1] - h - 2;
      var clash = function (q) { return x < q.x + q.w && q.x < x + w && y < q.y + q.h && q.y < y + h; };
      while (placed.some(clash)) { y += h; }
      placed.push({ x: x, y: y, w: w, h: h });
      graphics.push({ type: 'text', left: x, top: y, silent: true, z: 100,
        style: { text: n.text, fill: n.color || '#1d2330', font: '10px ' + FONT, backgroundColor: 'rgba(255,255,255,0.85)' } });
    });
    c.setOption({ graphic: graphics }, { replaceMerge: ['graphic'] });
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
    return { text: text, subtext: sub || '', left: 8, top: 2, itemGap: 6, textStyle: { fontSize: 13 }, subtextStyle: { fontSize: 11 } };
  }

  /** Histogram data [[bin start, count], ...] of {lo, width, counts}. */
  function bins(h) {
    return (h.counts || []).map(function (c, i) { return [h.lo + i * h.width, c]; });
  }

  /** Vertical dashed lines at named values; their names go in notes (see place()). */
  function markers(list) {
    return {
      symbol: 'none', silent: true, label: { show: false },
      lineStyle: { type: 'dashed' },
      data: list.map(function (m) { return { name: m.name, xAxis: m.value, lineStyle: { color: m.color || '#b42318' } }; })
    };
  }

  /** The notes naming marker lines, in the lines' colours. */
  function markerNotes(list) {
    var byValue = {};
    list.forEach(function (m) {
      var k = String(m.value);
      if (byValue[k]) { byValue[k].text += ' = ' + m.name; } else { byValue[k] = { x: m.value, text: m.name, color: m.color || '#b42318' }; }
    });
    return Object.keys(byValue).map(function (k) { return byValue[k]; });
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
      // a chart drawn first in a grid was sized before its neighbours took their share
      charts.forEach(function (c) { if (c.chart) { c.chart.resize(); place(c); } });
    } catch (e) {
      window.__llmErrors.push('error: ' + e.message);
      document.getElementById('app').appendChild(el('div', { cls: 'banner bad', text: 'This page could not be drawn: ' + e.message }));
    }
    verdict();
  }

  var METRICS = [['ttft', 'TTFT', 'Time to first token'], ['tpot', 'TPOT', 'Time per output token (excl. 1st)'], ['itl', 'ITL', 'Inter-token latency'], ['e2el', 'E2EL', 'End-to-end latency'], ['ttfc', 'TTFC (TTFO)', 'Time to first content token (AIPerf\'s time to first output token)'], ['ttftc', 'TTFTC', 'Time to first tool-call token'],
    ['client_queue_time', 'Client queue', 'Client queue time (wait for a max-concurrency permit)'], ['e2el_including_client_queue', 'E2EL + queue', 'End-to-end latency incl. client queue']];
  var COLORS = ['#2e6bd8', '#e07b12', '#14925d', '#b42318', '#7a4cc2', '#0e8a9e', '#a15c07', '#5b6473'];

  /** The percentile, mean and median keys the result holds for a metric, in its order. */
  function statKeys(result, metric) {
    return Object.keys(result).filter(function (k) {
      return k === 'mean_' + metric + '_ms' || k === 'median_' + metric + '_ms' || k === 'std_' + metric + '_ms' || (/^p[0-9.]+_/.test(k) && k.endsWith('_' + metric + '_ms'));
    });
  }

  return { el: el, num: num, section: section, empty: empty, chart: chart, register: register, title: title, bins: bins, markers: markers, markerNotes: markerNotes, label: label, selfCheck: selfCheck, run: run, METRICS: METRICS, COLORS: COLORS, statKeys: statKeys };
})();
