// The run report: draws the data the plugin embedded in #llm-data.
LLM.run(function (d, app) {
  var el = LLM.el, num = LLM.num, R = d.result;
  var BUCKET_RULE = 'vLLM counts a request in every one-second bucket it touched, and so do the peak and the in-flight line here: a second where one request ended and the next one started counts both, so the count passes the max concurrency although the client never had more than ' + R.max_concurrency + ' requests open at once.';
  var HEADLINE = [
    ['completed', 'Successful requests'], ['failed', 'Failed requests'], ['cancelled', 'Cancelled requests (on purpose)'], ['duration', 'Benchmark duration (s)'],
    ['total_input_tokens', 'Total input tokens'], ['total_output_tokens', 'Total generated tokens'],
    ['request_throughput', 'Request throughput (req/s)'], ['request_goodput', 'Request goodput (req/s)'],
    ['output_throughput', 'Output token throughput (tok/s)'], ['max_output_tokens_per_s', 'Peak output token throughput (tok/s)'],
    ['max_concurrent_requests', 'Peak concurrent requests'], ['total_token_throughput', 'Total token throughput (tok/s)'],
    ['total_reasoning_tokens', 'Total reasoning tokens'], ['tool_call_requests', 'Requests that called a tool'], ['total_tool_calls', 'Tool calls'],
    ['tool_call_parse_rate', 'Tool calls with JSON arguments (share)'], ['structured_output_requests', 'Answers checked against their schema'],
    ['structured_output_valid_rate', 'Answers valid against their schema (share)']];
  var SETTINGS = [['model_id', 'Model'], ['tokenizer_id', 'Tokenizer'], ['backend', 'Backend'], ['endpoint_type', 'Endpoint type'], ['label', 'Label'],
    ['num_prompts', 'Prompts'], ['request_rate', 'Request rate (req/s)'], ['burstiness', 'Burstiness (1 = Poisson)'],
    ['max_concurrency', 'Max concurrency (requests)'], ['ramp_up_strategy', 'Ramp-up strategy'], ['ramp_up_start_rps', 'Ramp-up start (req/s)'],
    ['ramp_up_end_rps', 'Ramp-up end (req/s)'], ['seed', 'Seed'], ['date', 'Date']];
  var known = {};
  HEADLINE.forEach(function (h) { known[h[0]] = 1; });
  SETTINGS.forEach(function (k) { known[k[0]] = 1; });
  ['client_self_check', 'server_metrics', 'gpu_energy', 'rps_change_events', 'arrival_replay', 'reasoning_tokens_from_server', 'total_tool_calls_parsed', 'structured_output_valid'].forEach(function (k) { known[k] = 1; });
  known.server_compliance = 1;
  known.cancellation = 1;
  known.request_phases = 1;

  var total = (R.completed || 0) + (R.failed || 0);
  selfCheckVerdict(R.client_self_check);
  if (total === 0) {
    app.appendChild(el('div', { cls: 'banner bad', id: 'no-request', text: 'No request was recorded in this run: nothing was sent, so there is no figure to show. '
      + 'Usually the run ended before its first request (a failed ready check, a dataset with no usable prompt, a duration of 0) or every user was stopped before sending; the console output of the run says which.' }));
  } else if (!R.completed) {
    app.appendChild(el('div', { cls: 'banner bad', id: 'failed-banner', text: 'Every request failed (' + num(R.failed) + ' of ' + num(total) + '). The reasons are below; no latency was measured.' }));
  } else if (R.failed) {
    app.appendChild(el('div', { cls: 'banner bad', id: 'failed-banner', text: num(R.failed) + ' of ' + num(total) + ' requests failed; they count in no latency figure.' }));
  }
  saturationBanner();

  // Headline figures and settings, the result JSON's own values
  var top = LLM.section(app, 'Headline figures', 'The values of the result JSON, as vLLM\'s summary prints them.');
  var wrap = el('div', { cls: 'tables' });
  top.appendChild(wrap);
  var t1 = el('table', {}, [el('tr', {}, [el('th', { text: 'figure' }), el('th', { text: 'value' })])]);
  HEADLINE.forEach(function (h) {
    if (!(h[0] in R)) { return; }
    t1.appendChild(el('tr', {}, [el('td', { text: h[1] }), el('td', { 'data-key': h[0], text: R[h[0]] === null ? 'no SLO set' : num(R[h[0]]) })]));
  });

  wrap.appendChild(t1);
  var stats = [];
  LLM.METRICS.forEach(function (m) { var keys = LLM.statKeys(R, m[0]); if (keys.length) { stats.push([m, keys]); } });
  if (stats.length) {
    var cols = stats[0][1].map(function (k) { return k.replace('_' + stats[0][0][0] + '_ms', ''); });
    var t2 = el('table', {}, [el('tr', {}, [el('th', { text: 'latency (ms)' })].concat(cols.map(function (c) { return el('th', { text: c.replace(/^p/, 'P') }); })))]);
    stats.forEach(function (s) {
      var row = el('tr', {}, [el('td', { text: s[0][1] })]);
      cols.forEach(function (c) { var k = c + '_' + s[0][0] + '_ms'; row.appendChild(el('td', { 'data-key': k, text: k in R ? num(R[k]) : '—' })); });
      t2.appendChild(row);
    });
    wrap.appendChild(t2);
  }
  var t3 = el('table', {}, [el('tr', {}, [el('th', { text: 'setting' }), el('th', { text: 'value' })])]);
  SETTINGS.concat(Object.keys(R).filter(function (k) { return !known[k] && !/_ms$/.test(k) && typeof R[k] !== 'object'; }).map(function (k) { return [k, human(k)]; })).forEach(function (k) {
    if (k[0] in R && R[k[0]] !== null) { t3.appendChild(el('tr', {}, [el('td', { text: k[1] }), el('td', { cls: 'text', 'data-key': k[0], text: String(R[k[0]]) })])); }
  });
  var slos = Object.keys(d.slos || {});
  t3.appendChild(el('tr', {}, [el('td', { text: 'Goodput SLOs' }), el('td', { cls: 'text', text: slos.length ? slos.map(function (k) { return k + ' ≤ ' + d.slos[k] + ' ms'; }).join(', ') : 'none' })]));
  if (R.arrival_replay) { t3.appendChild(el('tr', {}, [el('td', { text: 'Arrival replay' }), el('td', { cls: 'text', text: JSON.stringify(R.arrival_replay) })])); }
  wrap.appendChild(t3);
  if (overCap(R.max_concurrent_requests)) {
    top.appendChild(el('p', { cls: 'note', id: 'peak-note', text: 'Peak concurrent requests (' + num(R.max_concurrent_requests) + ') is above the max concurrency (' + R.max_concurrency + '): ' + BUCKET_RULE }));
  }

  if (R.probe) { probeSection(app, R.probe); }

  // Over time
  var ot = d.overTime;
  if (ot && ot.time.length && !R.completed) {
    // nothing succeeded: a chart of zero tokens, or of one bucket of failures on an axis of
    // its own making (-0.4 to 0.4 s), would only look like figures
    var none = LLM.section(app, 'Over time', null);
    none.appendChild(el('p', { id: 'over-time-none', text: 'No request succeeded, so there is nothing to chart over time: '
      + num(total) + ' requests started and failed within ' + num(R.duration, 2) + ' s. Their reasons are under Failures by reason below.' }));
  } else if (ot && ot.time.length) {
    var s = LLM.section(app, 'Over time', 'One-second buckets on the grid vLLM takes its peaks over: from the first successful start (' + num(ot.t0, 3) + ' s after the benchmark start). Output tokens are content chunks, as vLLM counts them for its peak; in flight counts the successful requests active during each second.');
    var g = el('div', { cls: 'grid' });
    s.appendChild(g);
    function x() { return { type: 'value', name: 'seconds after the benchmark start', min: 'dataMin', max: 'dataMax' }; }
    function pts(arr) { return arr.map(function (v, i) { return [ot.time[i], v]; }); }
    var cap = R.max_concurrency, peakRunning = Math.max.apply(null, ot.running.concat([0]));
    var inFlight = { name: 'in flight', type: 'line', step: 'start', yAxisIndex: 1, data: pts(ot.running), showSymbol: false };
    var capNotes = [];
    if (typeof cap === 'number') {
      inFlight.markLine = { symbol: 'none', silent: true, label: { show: false }, lineStyle: { type: 'dashed', color: '#b42318' }, data: [{ yAxis: cap }] };
      var first = ot.running.findIndex(function (v) { return v > cap; });
      capNotes.push(first < 0 ? { x: ot.time[0], y: cap, yAxisIndex: 1, text: 'max concurrency ' + cap, color: '#b42318' }
        : { x: ot.time[first], y: cap, yAxisIndex: 1, text: 'max concurrency ' + cap + ': a request counts in every second it touched (note below)', color: '#b42318' });
    }
    LLM.chart(g, 'over-tokens', { title: LLM.title('Output tokens per second and requests in flight'), legend: {}, xAxis: x(),
      yAxis: [{ type: 'value', name: 'tok/s' }, { type: 'value', name: 'requests' }],
      series: [{ name: 'output tok/s', type: 'line', step: 'start', data: pts(ot.chunks), showSymbol: false }, inFlight].concat(windowSeries()) }, null, capNotes.concat(windowNotes()));
    if (overCap(peakRunning)) { s.appendChild(el('p', { cls: 'note', id: 'cap-note', text: 'Requests in flight above the dashed red line (max concurrency ' + R.max_concurrency + '): ' + BUCKET_RULE })); }
    var reqSeries = [{ name: 'started', type: 'bar', data: pts(ot.started) }, { name: 'completed', type: 'bar', data: pts(ot.completed) }];
    Object.keys(ot.failed).forEach(function (r) { reqSeries.push({ name: 'failed: ' + r, type: 'bar', data: pts(ot.failed[r]), itemStyle: { color: '#b42318' } }); });
    LLM.chart(g, 'over-requests', { title: LLM.title('Requests started, completed and failed per second'), legend: {}, xAxis: { type: 'value', name: 'seconds after the benchmark start', min: function (v) { return v.min - 0.5; }, max: function (v) { return v.max + 0.5; }, axisLabel: { showMinLabel: false, showMaxLabel: false } }, yAxis: { type: 'value', name: 'req/s' }, series: reqSeries.concat(windowSeries()) }, null, windowNotes());
    ['ttft', 'itl'].forEach(function (m) {
      var p = ot[m];
      var has = Object.keys(p).some(function (k) { return p[k].some(function (v) { return v !== null; }); });
      if (!has) { return; }
      LLM.chart(g, 'over-' + m, { title: LLM.title((m === 'ttft' ? 'TTFT by the second the request started' : 'ITL by the second the token arrived') + ' (ms)'), legend: {}, xAxis: x(), yAxis: { type: 'value', name: 'ms' },
        series: Object.keys(p).map(function (k) { return { name: k, type: 'line', data: pts(p[k]), showSymbol: false, connectNulls: false }; }).concat(windowSeries()) }, null, windowNotes());
    });
    windowNote(s);
  }

  /**
   * Where the time went: the TTFT of the successful requests split into network (clock start to
   * the last byte written), server (written to the response head) and stream (head to the first
   * token), whose means add up to the mean TTFT; the connection phases of the requests that
   * opened one (k6's and AIPerf's names); and the users who left, with the server's aborts.
   */
  function wherePhases(p, c) {
    if (!p && !c) { return; }
    var ws = LLM.section(app, 'Where the time went', 'Each request is stamped on arrival: connection opened (DNS, TCP connect, TLS), last byte written, response head read, first token. The three parts of a TTFT add up to it; their means add up to the mean TTFT (percentiles do not add up). vLLM sends a stream\'s head at once, so its queueing and prefill fall in the stream part.');
    if (p) {
      var wg = el('div', { cls: 'grid' });
      ws.appendChild(wg);
      var parts = [['ttft_network', 'network (connect, TLS, write)'], ['ttft_server', 'server (written → head)'], ['ttft_stream', 'stream (head → first token)']];
      if (p.ttft_split_requests) {
        LLM.chart(wg, 'ttft-split', { title: LLM.title('Where the TTFT went (ms)', num(p.ttft_split_requests) + ' successful requests'), legend: {}, tooltip: { trigger: 'axis' },
          xAxis: { type: 'value', name: 'ms' }, yAxis: { type: 'category', data: ['P99', 'P90', 'median', 'mean'] },
          series: parts.map(function (q) { return { name: q[1], type: 'bar', stack: 'ttft', data: ['p99_', 'p90_', 'median_', 'mean_'].map(function (s) { return Math.round((p[s + q[0] + '_ms'] || 0) * 1000) / 1000; }) }; }) },
          null, ['The mean bar is the mean TTFT split exactly; the median and percentile bars stack each part\'s own percentile, which need not be the same request\'s.']);
      } else {
        LLM.empty(wg, 'No successful request to split');
      }
      var rows = [['http_req_dns_lookup', 'DNS lookup', 'http_req_dns_lookup (AIPerf), http_req_looking_up (k6)', p.new_connections],
        ['http_req_connecting', 'TCP connect', 'http_req_connecting (k6; AIPerf adds TLS to it)', p.new_connections],
        ['http_req_tls_handshaking', 'TLS handshake', 'http_req_tls_handshaking (k6)', p.tls_handshakes]].concat(parts.map(function (q) { return [q[0], 'TTFT ' + q[1], q[0] === 'ttft_server' ? 'close to http_req_waiting (AIPerf, k6): to the head, not the first body byte' : '', p.ttft_split_requests]; }));
      var pt = el('table', { id: 'phase-table' }, [el('tr', {}, ['phase', 'also known as', 'requests', 'mean (ms)', 'median (ms)', 'P90 (ms)', 'P99 (ms)'].map(function (h, i) { return el('th', { cls: i < 2 ? 'text' : '', text: h }); }))]);
      rows.forEach(function (r) {
        // the names wrap, so that the figures stay in view on a narrow window
        pt.appendChild(el('tr', {}, [el('td', { cls: 'text', text: r[1] }), el('td', { cls: 'text', text: r[2] }), el('td', { text: num(r[3]) })].concat(['mean_', 'median_', 'p90_', 'p99_'].map(function (s) {
          return el('td', { 'data-key': s + r[0] + '_ms', text: r[3] ? num(p[s + r[0] + '_ms']) : '–' });
        }))));
      });
      ws.appendChild(el('p', { cls: 'note', text: num(p.new_connections) + ' requests opened their connection, ' + num(p.reused_connections) + ' reused one (no DNS, connect or TLS of their own).' }));
      ws.appendChild(pt);
    }
    if (c) {
      var ct = el('table', { id: 'cancel-table' }, [el('tr', {}, [el('th', { cls: 'text', text: 'users who left' }), el('th', { text: 'value' })])]);
      [['fraction', 'Share cancelled (--cancel-fraction)'], ['after_tokens', 'After tokens'], ['after_ms', 'After ms (from the request written)'], ['cancelled', 'Requests cancelled'],
        ['cancelled_with_first_token', 'of which had a first token'], ['mean_cancelled_ttft_ms', 'Their mean TTFT (ms)'], ['server_aborted', 'Aborts the server counted (vllm:request_success_total{finished_reason="abort"})']].forEach(function (k) {
        if (c[k[0]] === null || c[k[0]] === undefined) { return; }
        ct.appendChild(el('tr', {}, [el('td', { cls: 'text', text: k[1] }), el('td', { 'data-key': k[0], text: num(c[k[0]]) })]));
      });
      ws.appendChild(el('p', { cls: 'note', text: 'Cancelled requests closed their connection, as a browser closing the tab; they are in neither the completed nor the failed count, nor in any latency figure above.' }));
      ws.appendChild(ct);
    }
  }

  perTurn(R.per_turn_metrics);
  perClass(R.request_class_metrics);
  perUrl(R.per_url);

  // Server metrics
  var sm = R.server_metrics;
  if (sm) {
    var ss = LLM.section(app, 'Server metrics', 'Scraped from ' + sm.endpoint + ' every ' + sm.interval_s + ' s during the run (status: ' + sm.status + ', ' + sm.failed_scrapes + ' failed scrapes). Times are seconds after the benchmark start; the client\'s requests in flight are drawn beside the server\'s.');
    if (!sm.time_s.length) {
      LLM.empty(ss, 'No sample: ' + sm.status);
    } else {
      var sg = el('div', { cls: 'grid' });
      ss.appendChild(sg);
      function spts(arr) { return arr.map(function (v, i) { return [sm.time_s[i], v]; }); }
      var queue = [{ name: 'server running', type: 'line', data: spts(sm.num_requests_running), showSymbol: false },
        { name: 'server waiting', type: 'line', data: spts(sm.num_requests_waiting), showSymbol: false }];
      if (ot && ot.time.length) { queue.push({ name: 'client in flight', type: 'line', step: 'start', data: ot.running.map(function (v, i) { return [ot.time[i], v]; }), showSymbol: false, lineStyle: { type: 'dashed' } }); }
      LLM.chart(sg, 'server-queue', { title: LLM.title('Requests running and waiting on the server'), legend: {}, xAxis: { type: 'value', name: 'seconds after the benchmark start' }, yAxis: { type: 'value', name: 'requests', minInterval: 1 }, series: queue });
      function pct(arr) { return arr.map(function (v) { return v === null ? null : Math.round(v * 10000) / 100; }); }
      LLM.chart(sg, 'server-cache', { title: LLM.title('KV-cache usage and prefix-cache hit rate (%)'), legend: {}, xAxis: { type: 'value', name: 'seconds after the benchmark start' }, yAxis: { type: 'value', name: '%', min: 0, max: 100 },
        series: [{ name: 'KV-cache usage', type: 'line', data: spts(pct(sm.kv_cache_usage_perc)), showSymbol: false },
          { name: 'prefix-cache hit rate', type: 'line', data: spts(pct(sm.prefix_cache_hit_rate)), showSymbol: false, connectNulls: false }] });
      if (sm.requests_aborted) {
        var first = sm.requests_aborted.filter(function (v) { return v !== null; })[0] || 0;
        LLM.chart(sg, 'server-aborted', { title: LLM.title('Requests the server aborted since the first scrape', 'vllm:request_success_total{finished_reason="abort"}, as the client cancelled them'), xAxis: { type: 'value', name: 'seconds after the benchmark start' }, yAxis: { type: 'value', name: 'requests', minInterval: 1 },
          series: [{ name: 'aborted', type: 'line', step: 'end', data: spts(sm.requests_aborted.map(function (v) { return v === null ? null : v - first; })), showSymbol: false }] });
      }
    }
  }

  gpuEnergy(R.gpu_energy);
  wherePhases(d.phases, R.cancellation);

  // Distributions
  var H = d.hist || {};
  var ds = LLM.section(app, 'Distributions', 'Successful requests. Equal bins up to the 99.9th percentile; when values lie above it, the last bar holds them too. Dashed lines: the mean, median and percentiles of the result JSON.');
  var dg = el('div', { cls: 'grid' });
  ds.appendChild(dg);
  LLM.METRICS.forEach(function (m) {
    var h = H[m[0]];
    if (!h) { return; }
    if (!h.count) { LLM.empty(dg, m[2] + ': no sample'); return; }
    var marks = LLM.statKeys(R, m[0]).filter(function (k) { return k.indexOf('std_') !== 0; }).map(function (k, i) {
      return { name: k.replace('_' + m[0] + '_ms', '').replace(/^p/, 'P'), value: R[k], color: LLM.COLORS[(i + 3) % LLM.COLORS.length] };
    });
    LLM.chart(dg, 'hist-' + m[0], { title: LLM.title(m[2] + ' (ms)', num(h.count) + ' samples' + (h.overflow ? ', last bar: ≥ ' + num(h.lo + (h.counts.length - 1) * h.width) + ' ms, max ' + num(h.max) : '')),
      tooltip: { trigger: 'axis' }, xAxis: { type: 'value', name: 'ms', min: 'dataMin' }, yAxis: { type: 'value', name: 'count', minInterval: 1 },
      series: [{ name: m[1], type: 'bar', barWidth: '90%', barMaxWidth: 40, data: LLM.bins(h).map(function (b) { return [b[0] + h.width / 2, b[1]]; }), markLine: LLM.markers(marks) }] }, null, LLM.markerNotes(marks));
  });
  [['input_len', 'Input length (tokens), all requests'], ['output_len', 'Output length (tokens), successful requests']].forEach(function (p) {
    var h = H[p[0]];
    if (!h) { return; }
    if (!h.count) { LLM.empty(dg, p[1] + ': no sample'); return; }
    LLM.chart(dg, 'hist-' + p[0], { title: LLM.title(p[1], num(h.count) + ' requests'), xAxis: { type: 'value', name: 'tokens', min: 'dataMin' }, yAxis: { type: 'value', name: 'requests', minInterval: 1 },
      series: [{ type: 'bar', barWidth: '90%', barMaxWidth: 40, data: LLM.bins(h).map(function (b) { return [b[0] + h.width / 2, b[1]]; }), itemStyle: { color: p[0] === 'input_len' ? '#7a4cc2' : '#0e8a9e' } }] });
  });

  // Request timeline
  var tl = d.timeline;
  if (tl && tl.rows.length) {
    var th = tl.thresholds;
    var ts = LLM.section(app, 'Request timeline', 'One row per request in start order: its TTFT, then its inter-token latencies coloured by the thresholds ' + th.join(' / ') + ' ms. Drawn on a canvas, every request' + (tl.every > 1 ? ' — except that this run is large: every ' + tl.every + 'th request is drawn' : '') + ' (' + num(tl.rows.length) + ' rows). Hover for a request\'s figures.');
    var classes = [['TTFT', '#2e6bd8']];
    var itlColors = ['#22a06b', '#f0a020', '#d1372b', '#7a1d14'];
    for (var c = 0; c <= th.length; c++) {
      classes.push(['ITL ' + (c === 0 ? '< ' + th[0] : c === th.length ? '≥ ' + th[c - 1] : th[c - 1] + '–' + th[c]) + ' ms', itlColors[Math.min(c, 3)]]);
    }
    var failedColor = '#98a2b3', cancelledColor = '#b8a6e8';
    classes.push(['failed', failedColor]);
    if (tl.rows.some(function (r) { return r[1] === -2; })) { classes.push(['cancelled', cancelledColor]); }
    ts.appendChild(el('div', { cls: 'legend' }, classes.map(function (k) { var i = el('i'); i.style.background = k[1]; return el('span', {}, [i, document.createTextNode(k[0])]); })));
    var box = el('div', { cls: 'timeline-wrap', id: 'timeline', 'data-chart': 'canvas' });
    ts.appendChild(box);
    drawTimeline(box, tl, classes, itlColors);
  }

  // Goodput
  if (d.goodput) {
    var gs = LLM.section(app, 'Goodput', 'Share of all requests meeting each SLO on its own, and all of them (failed requests meet none). Request goodput: ' + num(R.request_goodput) + ' req/s.');
    var gt = el('table', {}, [el('tr', {}, [el('th', { text: 'SLO' }), el('th', { text: 'requests meeting it' }), el('th', { text: 'share' })])]);
    d.goodput.forEach(function (row) { gt.appendChild(el('tr', {}, [el('td', { text: row.slo }), el('td', { 'data-good': row.slo, text: num(row.good) }), el('td', { text: num(row.share, 1) + ' %' })])); });
    gs.appendChild(gt);
    LLM.chart(gs, 'goodput', { title: LLM.title('Requests meeting the SLOs (%)'), grid: { left: 140, right: 40, top: 40, bottom: 30 }, xAxis: { type: 'value', max: 100 }, yAxis: { type: 'category', data: d.goodput.map(function (r) { return r.slo; }) },
      series: [{ type: 'bar', data: d.goodput.map(function (r) { return Math.round(r.share * 10) / 10; }), label: { show: true, position: 'right', formatter: '{c} %' } }] }, 60 + 36 * d.goodput.length);
  }

  // Server compliance: did the server do what each request asked?
  var sv = R.server_compliance;
  if (sv && sv.checks) {
    var ss = LLM.section(app, 'Server compliance', 'The server checked against each request: output tokens vs the limit asked, ignore_eos, the model name vs /v1/models'
      + (sv.models_listed ? ' (' + sv.models_listed.join(', ') + ')' : ' (not listed: not checked)') + ', usage.prompt_tokens vs the prompt\'s own count' + (sv.prompt_check_off ? ' (not compared: ' + sv.prompt_check_off + ').' : '.'));
    (sv.warnings || []).forEach(function (w) { ss.appendChild(el('div', { cls: 'banner bad', 'data-compliance-warning': 1, text: w })); });
    if (!(sv.warnings || []).length) { ss.appendChild(el('div', { cls: 'banner ok', text: 'The server did what the requests asked.' })); }
    var st = el('table', {}, [el('tr', {}, [el('th', { text: 'check' }), el('th', { text: 'requests checked' }), el('th', { text: 'failed' }), el('th', { text: 'example request ids' })])]);
    Object.keys(sv.checks).forEach(function (k) {
      var c = sv.checks[k];
      st.appendChild(el('tr', {}, [el('td', { text: human(k) }), el('td', { text: num(c.checked) }), el('td', { 'data-compliance': k, text: num(c.violations) }), el('td', { cls: 'text', text: (c.example_request_ids || []).join(', ') })]));
    });
    ss.appendChild(st);
  }

  // Client self-check: the console's self-check block, as a table with the same labels
  var sc = R.client_self_check;
  if (sc) {
    var cs = LLM.section(app, 'Client self-check', 'How much the load generator itself may have distorted the timings, measured during the run.');
    cs.id = 'self-check';
    (sc.warnings || []).forEach(function (w) { cs.appendChild(el('div', { cls: 'banner warn ' + (/^fair: /.test(w) ? 'fair' : 'bad'), 'data-self-check-warning': 1, text: 'Warning: ' + w })); });
    // the JVM's own banner, unless a warning above already says that its settings differ
    if (sc.jvm && !(sc.warnings || []).some(function (w) { return /JVM's settings differ/.test(w); })) {
      // The client JVM's settings: a run whose JVM differs says so above its figures.
      cs.appendChild(el('div', { cls: sc.jvm.verdict === 'ok' ? 'banner ok' : 'banner bad', 'data-jvm-verdict': sc.jvm.verdict,
        text: sc.jvm.verdict === 'ok' ? 'JVM settings: ok (the ones the timings need).'
          : 'JVM settings differ from what the timings need: ' + sc.jvm.differences.join('; ') + '.' }));
    }
    var ct = el('table', { id: 'self-check-table' }, [el('tr', {}, [el('th', { text: 'figure' }), el('th', { text: 'value' })])]);
    selfCheckRows(sc).forEach(function (r) { ct.appendChild(el('tr', {}, [el('td', { text: r[0] }), el('td', { cls: 'text', 'data-self-check': r[2], text: r[1] })])); });
    cs.appendChild(ct);
  }

  // Failures
  var fs = LLM.section(app, 'Failures by reason', d.failures.length ? 'Numbers inside a reason are replaced by # so that alike failures count together.' : 'No request failed.');
  if (d.failures.length) {
    var ft = el('table', {}, [el('tr', {}, [el('th', { text: 'reason' }), el('th', { text: 'requests' })])]);
    d.failures.forEach(function (f) { ft.appendChild(el('tr', {}, [el('td', { cls: 'reason', text: f.reason }), el('td', { 'data-failures': f.reason, text: num(f.count) })])); });
    fs.appendChild(ft);
  }

  /** [label, value, key] rows of the self-check, labelled and ordered as its console block. */
  function selfCheckRows(sc) {
    var rows = [], used = { warnings: 1, jvm: 1, grade: 1, cause: 1, grade_reason: 1 };
    function row(key, label, value) { if (key in sc) { used[key] = 1; if (sc[key] !== null || value !== undefined) { rows.push([label, value !== undefined ? value : num(sc[key], 3), key]); } } }
    row('window_ms', 'Self-check window (s)', num(sc.window_ms / 1000, 2));
    row('event_loops', 'Event loops');
    [['loop_lag', 'loop lag', true], ['send_lateness', 'send lateness', false], ['write_time', 'write time', false]].forEach(function (l) {
      row(l[0] + '_samples', l[1].charAt(0).toUpperCase() + l[1].slice(1) + ' samples');
      row('median_' + l[0] + '_ms', 'Median ' + l[1] + ' (ms)');
      row('p99_' + l[0] + '_ms', 'P99 ' + l[1] + ' (ms)');
      row('p99.9_' + l[0] + '_ms', 'P99.9 ' + l[1] + ' (ms)');
      row('max_' + l[0] + '_ms', 'Max ' + l[1] + ' (ms)');
      if (l[2] && sc.max_loop_lag_ms_per_loop) { row('max_loop_lag_ms_per_loop', 'Max loop lag per loop (ms)', sc.max_loop_lag_ms_per_loop.map(function (v) { return num(v, 3); }).join(' ')); }
      if (l[2]) {
        var sp = sc.loop_lag_split;
        used.loop_lag_split = 1;
        if (sp) {
          var over = 'Lag over ' + num(sp.over_ms, 0) + ' ms';
          rows.push([over + ' (ms)', num(sp.lag_ms, 3), 'loop_lag_split.lag_ms'], [over + ', running (ms)', num(sp.running_ms, 3), 'loop_lag_split.running_ms'],
            [over + ', waiting for CPU (ms)', num(sp.waiting_for_cpu_ms, 3), 'loop_lag_split.waiting_for_cpu_ms'], [over + ', not runnable (ms)', num(sp.not_runnable_ms, 3), 'loop_lag_split.not_runnable_ms']);
        } else if ('loop_lag_split' in sc) {
          rows.push(['Lag split by thread state', 'not measured on this platform', 'loop_lag_split']);
        }
      }
    });
    row('connection_retries', 'Connection retries');
    row('connection_reuse_stopped', 'Connection reuse', sc.connection_reuse_stopped ? 'stopped' : 'on');
    row('gc_pauses', 'GC pauses');
    row('gc_pause_total_ms', 'GC pause total (ms)');
    row('max_gc_pause_ms', 'Max GC pause (ms)');
    row('cpu_percent_of_one_core', 'Client CPU (% of one core)', sc.cpu_percent_of_one_core === null ? 'n/a' : num(sc.cpu_percent_of_one_core, 2));
    row('available_processors', 'Available processors');
    if (sc.jvm) {
      var j = sc.jvm;
      rows.push(['JVM settings', j.verdict === 'ok' ? 'ok' : (j.differences || []).length + ' differ', 'jvm.verdict']);
      [['compiler', 'JIT compiler'], ['gc', 'Garbage collector'], ['initial_heap_mb', 'Initial heap (MB)'], ['max_heap_mb', 'Max heap (MB)'], ['young_mb', 'Young generation (MB)'],
        ['always_pre_touch', 'Heap pre-touched'], ['compile_threshold_scaling', 'Compile threshold scaling (global)'], ['metaspace_size_mb', 'Metaspace size (MB)'],
        ['netty_leak_detection', 'Netty leak detection']].forEach(function (k) {
        if (k[0] in j) { rows.push([k[1], j[k[0]] === null ? 'unknown' : typeof j[k[0]] === 'boolean' ? (j[k[0]] ? 'yes' : 'no') : num(j[k[0]]), 'jvm.' + k[0]]); }
      });
      if (j.early_compilation) {
        // each early-compiled package's threshold scaling, as in effect (global times its own)
        rows.push(['Early compilation (threshold scaling)', Object.keys(j.early_compilation).map(function (p) {
          var v = j.early_compilation[p];
          return p + ' ' + (v === null ? 'unknown' : num(v));
        }).join(', '), 'jvm.early_compilation']);
      }
    }
    // figures added after this page was written: labelled from their key, never dropped
    Object.keys(sc).forEach(function (k) {
      if (!used[k] && typeof sc[k] !== 'object') { rows.push([human(k), num(sc[k], 3), k]); }
    });
    return rows;
  }

  /**
   * Conversation runs: TTFT and the mean prompt length by turn index, from the result's
   * per_turn_metrics (absent for single requests). Every turn resends the history, so the
   * prompt grows turn by turn; where the server's prefix cache holds the history, TTFT does not.
   */
  function perTurn(turns) {
    if (!turns || !turns.length) { return; }
    var sent = turns.reduce(function (n, t) { return n + t.completed + t.failed; }, 0);
    var s = LLM.section(app, 'Per turn', 'Conversations: each turn index with its TTFT over the successful turns (lines, ms) and its mean prompt tokens, history included (bars). A turn that failed ends its conversation, so later turn indexes have fewer requests.');
    s.id = 'per-turn-section';
    var keys = Object.keys(turns[0]).filter(function (k) { return /_ttft_ms$/.test(k) && k.indexOf('std_') !== 0; });
    var series = [{ name: 'prompt tokens', type: 'bar', yAxisIndex: 1, barMaxWidth: 40, data: turns.map(function (t) { return t.mean_input_tokens; }), itemStyle: { color: '#c9b8ec' } }];
    keys.forEach(function (k) {
      series.push({ name: k.replace('_ttft_ms', '').replace(/^p/, 'P') + ' TTFT', type: 'line', data: turns.map(function (t) { return t[k]; }), connectNulls: false });
    });
    LLM.chart(s, 'per-turn', { title: LLM.title('TTFT and prompt length by turn', num(turns.length) + ' turn indexes, ' + num(sent) + ' requests'), legend: {},
      xAxis: { type: 'category', name: 'turn', data: turns.map(function (t) { return String(t.turn); }) },
      yAxis: [{ type: 'value', name: 'TTFT (ms)' }, { type: 'value', name: 'prompt tokens', minInterval: 1 }], series: series });
    var table = el('table', { id: 'per-turn-table' }, [el('tr', {}, ['turn', 'completed', 'failed', 'prompt tokens', 'mean TTFT (ms)', 'median TTFT (ms)'].map(function (h) { return el('th', { text: h }); }))]);
    turns.forEach(function (t) {
      table.appendChild(el('tr', {}, [el('td', { text: String(t.turn) }), el('td', { 'data-turn-completed': t.turn, text: num(t.completed) }), el('td', { text: num(t.failed) }),
        el('td', { 'data-turn-prompt': t.turn, text: num(t.mean_input_tokens, 1) }), el('td', { text: num(t.mean_ttft_ms) }), el('td', { text: num(t.median_ttft_ms) })]));
    });
    s.appendChild(table);
  }

  /** The request classes of a mixed_serving_boundary run, one row each: medians (ms) and tokens. */
  function perClass(classes) {
    var names = classes ? Object.keys(classes) : [];
    if (!names.length) { return; }
    var s = LLM.section(app, 'Per request class', 'Each request class of the dataset on its own: requests, mean tokens in and out, and the medians of the successful ones (ms).');
    s.id = 'per-class-section';
    var metrics = ['ttft', 'tpot', 'itl', 'e2el'];
    var table = el('table', { id: 'per-class-table' }, [el('tr', {}, ['class', 'requests', 'failed', 'input tokens', 'output tokens'].concat(metrics.map(function (m) { return 'median ' + m.toUpperCase(); })).map(function (h) { return el('th', { text: h }); }))]);
    names.forEach(function (n) {
      var c = classes[n];
      table.appendChild(el('tr', {}, [el('td', { cls: 'text', text: n }), el('td', { 'data-class-requests': n, text: num(c.requests) }), el('td', { text: num(c.failed) }),
        el('td', { text: num(c.mean_input_tokens, 1) }), el('td', { text: num(c.mean_output_tokens, 1) })].concat(metrics.map(function (m) { return el('td', { text: num(c['median_' + m + '_ms']) }); }))));
    });
    s.appendChild(table);
  }

  /**
   * A run against several replicas (--base-url given more than once): each URL's share, one row
   * each, from the result's per_url (absent for one server): its requests, throughputs, and
   * the mean and highest selected percentile of its latencies (ms), with its first error.
   */
  function perUrl(urls) {
    if (!urls || urls.length < 2) { return; }
    var s = LLM.section(app, 'Per base URL', 'Each replica on its own (' + (R.base_url_strategy || 'round-robin') + '): the requests sent to it, its throughputs over the whole run\'s duration (they add up to the headline figures), and its latencies by the run\'s rules (ms).');
    s.id = 'per-url-section';
    var high = Object.keys(urls[0]).filter(function (k) { return /^p[0-9.]+_ttft_ms$/.test(k); }).map(function (k) { return k.replace('_ttft_ms', ''); }).pop() || 'median';
    var metrics = ['ttft', 'itl', 'e2el'];
    var head = ['URL', 'completed', 'failed', 'req/s', 'output tok/s'];
    metrics.forEach(function (m) { head.push('mean ' + m.toUpperCase(), high.replace(/^p/, 'P') + ' ' + m.toUpperCase()); });
    var table = el('table', { id: 'per-url-table' }, [el('tr', {}, head.map(function (h) { return el('th', { text: h }); }))]);
    urls.forEach(function (u, i) {
      var cells = [el('td', { cls: 'text', text: u.url }), el('td', { 'data-url-completed': i, text: num(u.completed) }), el('td', { 'data-url-failed': i, text: num(u.failed) }),
        el('td', { text: num(u.request_throughput) }), el('td', { text: num(u.output_throughput) })];
      metrics.forEach(function (m) { cells.push(el('td', { text: num(u['mean_' + m + '_ms']) }), el('td', { text: num(u[high + '_' + m + '_ms']) })); });
      table.appendChild(el('tr', {}, cells));
    });
    s.appendChild(table);
    urls.forEach(function (u) {
      if (u.first_error) { s.appendChild(el('p', { cls: 'note', text: u.url + ': ' + num(u.failed) + ' failed, the first with “' + u.first_error + '”.' })); }
    });
  }

  /** The self-check's verdict, one sentence at the top of the page. */
  function selfCheckVerdict(sc) {
    // green, amber, red only for distorted, grey when not graded
    var BANNER = { good: 'ok', fair: 'fair', distorted: 'bad', ungraded: 'neutral' }, v = LLM.selfCheck(sc);
    if (v) { app.appendChild(el('div', { cls: 'banner ' + BANNER[v.level], id: 'self-check-verdict', 'data-grade': v.level, text: v.text })); }
  }

  /**
   * The steady-state window (shaded) and the over-saturation instants (dashed: detected after
   * the run; solid: the live stop of --stop-on-over-saturation) as one series to add to a time
   * chart, whose legend entry hides them; none when the run has neither.
   */
  function windowSeries() {
    var w = R.steady_state && R.steady_state.window, os = R.over_saturation, lines = [];
    if (os && os.detected && typeof os.since_s === 'number') { lines.push({ xAxis: os.since_s, lineStyle: { color: '#b42318', type: 'dashed' } }); }
    if (os && os.stop) { lines.push({ xAxis: os.stop.at_s, lineStyle: { color: '#7a1d14', type: 'solid', width: 2 } }); }
    if (!w && !lines.length) { return []; }
    var s = { name: w ? 'steady state' : 'over-saturation', type: 'line', data: [], silent: true, itemStyle: { color: w ? '#22a06b' : '#b42318' } };
    if (w) { s.markArea = { silent: true, itemStyle: { color: 'rgba(34,160,107,0.13)' }, data: [[{ xAxis: w.start_s }, { xAxis: w.end_s }]] }; }
    if (lines.length) { s.markLine = { symbol: 'none', silent: true, label: { show: false }, data: lines }; }
    return [s];
  }

  /** The names of windowSeries()'s shading and lines, at the top of the plot. */
  function windowNotes() {
    var w = R.steady_state && R.steady_state.window, os = R.over_saturation, notes = [];
    if (w) { notes.push({ x: w.start_s, text: 'steady state', color: '#167a50' }); }
    if (os && os.detected && typeof os.since_s === 'number') { notes.push({ x: os.since_s, text: 'over-saturated', color: '#b42318' }); }
    if (os && os.stop) { notes.push({ x: os.stop.at_s, text: 'stopped', color: '#7a1d14' }); }
    return notes;
  }

  /** One sentence under the time charts saying what their shading and lines are. */
  function windowNote(section) {
    var ss = R.steady_state, os = R.over_saturation, parts = [];
    if (ss && ss.window) {
      var w = ss.window;
      parts.push('Shaded green: the steady-state window, ' + num(w.start_s, 2) + '–' + num(w.end_s, 2) + ' s (' + (w.mode === 'closed_loop'
        ? 'in flight ≥ ' + num(w.threshold_abs) + ' of ' + num(w.target_concurrency) + ' max concurrency' : 'warm-up and cool-down trimmed') + ', '
        + num(w.requests_completed_in_window) + ' requests completed in it); its figures are the summary\'s steady-state block.');
    }
    if (os && os.detected && typeof os.since_s === 'number') { parts.push('Dashed red line: over-saturated since ' + num(os.since_s, 2) + ' s (in flight and TTFT rising while completions stay flat).'); }
    if (os && os.stop) { parts.push('Solid dark red line: the run was stopped there (--stop-on-over-saturation).'); }
    if (parts.length) { section.appendChild(el('p', { cls: 'note', id: 'window-note', text: parts.join(' ') })); }
  }

  /** A run the over-saturation stop ended early says so at the top: when, why, what was kept. */
  function saturationBanner() {
    var st = R.over_saturation && R.over_saturation.stop;
    if (!st) { return; }
    app.appendChild(el('div', { cls: 'banner bad', id: 'stopped-banner', text: 'Stopped early at ' + num(st.at_s, 2) + ' s (--stop-on-over-saturation): ' + st.reason
      + '. The figures are those of the ' + num(R.completed + R.failed) + ' requests that finished; ' + num(st.requests_unfinished) + ' still in flight never finished and count in none.' }));
  }

  // --probe-request-rate: the single-token probes sent beside the run, outside its cap and its figures
  function probeSection(parent, p) {
    var sec = LLM.section(parent, 'Probe requests', 'Single-token requests sent at ' + num(p.request_rate) + ' a second during the run, outside its max concurrency: the latency of a caller who does not queue behind the benchmark. They count in none of the figures above or below.');
    sec.id = 'probe';
    var counts = el('table', {}, [el('tr', {}, [el('th', { text: 'probes' }), el('th', { text: 'count' })])]);
    [['sent', 'Sent'], ['completed', 'Successful'], ['failed', 'Failed'], ['unfinished', 'Unfinished (left out)']].forEach(function (c) {
      counts.appendChild(el('tr', {}, [el('td', { text: c[1] }), el('td', { 'data-key': 'probe.' + c[0], text: num(p[c[0]]) })]));
    });
    var cols = Object.keys(p).filter(function (k) { return /_ttft_ms$/.test(k); }).map(function (k) { return k.replace('_ttft_ms', ''); });
    var lat = el('table', {}, [el('tr', {}, [el('th', { text: 'latency (ms)' })].concat(cols.map(function (c) { return el('th', { text: c.replace(/^p/, 'P') }); })))]);
    [['ttft', 'TTFT'], ['e2el', 'E2EL']].forEach(function (m) {
      var row = el('tr', {}, [el('td', { text: m[1] })]);
      cols.forEach(function (c) { var k = c + '_' + m[0] + '_ms'; row.appendChild(el('td', { 'data-key': 'probe.' + k, text: num(p[k]) })); });
      lat.appendChild(row);
    });
    sec.appendChild(el('div', { cls: 'tables' }, [counts, lat]));
  }

  // --gpu-metrics-url: the GPUs' energy and power from DCGM over the run
  function gpuEnergy(ge) {
    if (!ge) { return; }
    var sec = LLM.section(app, 'GPU energy', 'Scraped from ' + ge.endpoints.map(function (e) { return e.endpoint; }).join(', ') + ' every ' + num(ge.interval_s) + ' s from the first request to the results (' + num(ge.window_s) + ' s): '
      + 'each GPU\'s energy counter (DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION) and power (DCGM_FI_DEV_POWER_USAGE). Per output token: the energy of all GPUs over the run\'s ' + num(R.total_output_tokens) + ' output tokens.');
    sec.id = 'gpu-energy';
    (ge.warnings || []).forEach(function (w) { sec.appendChild(el('div', { cls: 'banner warn fair', 'data-gpu-warning': 1, text: 'Warning: ' + w })); });
    var totals = el('table', {}, [el('tr', {}, [el('th', { text: 'figure' }), el('th', { text: 'value' })])]);
    [['energy_j', 'GPU energy (J)'], ['joules_per_output_token', 'Energy per output token (J/tok)'], ['output_tokens_per_joule', 'Output tokens per joule (tok/J)'], ['avg_power_w', 'Average power, all GPUs (W)']].forEach(function (r) {
      totals.appendChild(el('tr', {}, [el('td', { text: r[1] }), el('td', { 'data-key': 'gpu_energy.' + r[0], text: ge[r[0]] === null ? '—' : num(ge[r[0]], r[0] === 'joules_per_output_token' ? 4 : 2) })]));
    });
    var per = el('table', {}, [el('tr', {}, ['GPU', 'energy (J)', 'avg W', 'peak W'].map(function (h) { return el('th', { text: h }); }))]);
    ge.gpus.forEach(function (g) {
      per.appendChild(el('tr', {}, [el('td', { cls: 'text', text: gpuName(g) }), el('td', { text: g.energy_j === null ? '—' : num(g.energy_j) + (g.energy_source === 'power' ? ' *' : '') }),
        el('td', { text: g.avg_power_w === null ? '—' : num(g.avg_power_w) }), el('td', { text: g.peak_power_w === null ? '—' : num(g.peak_power_w) })]));
    });
    sec.appendChild(el('div', { cls: 'tables' }, [totals, per]));
    var drawn = ge.gpus.filter(function (g) { return g.power_w.some(function (v) { return v !== null; }); });
    if (drawn.length) {
      LLM.chart(sec, 'gpu-power', { title: LLM.title('Power per GPU (W), at each scrape'), legend: {}, xAxis: { type: 'value', name: 'seconds after the benchmark start' }, yAxis: { type: 'value', name: 'W', min: 0 },
        series: drawn.map(function (g) { return { name: gpuName(g), type: 'line', data: g.power_w.map(function (v, i) { return [g.time_s[i], v]; }), showSymbol: false, connectNulls: false }; }) });
    }
  }

  function gpuName(g) {
    return 'GPU ' + (g.gpu === null ? '?' : g.gpu) + (g.hostname ? ' · ' + g.hostname : '') + (g.model_name ? ' · ' + g.model_name : '');
  }

  function human(k) {
    return LLM.label(k);
  }

  /** A peak above the max-concurrency cap, which vLLM's one-second buckets allow. */
  function overCap(peak) {
    return typeof R.max_concurrency === 'number' && typeof peak === 'number' && peak > R.max_concurrency;
  }

  function drawTimeline(box, tl, classes, itlColors) {
    var rows = tl.rows, n = rows.length;
    var lo = Infinity, hi = -Infinity;
    rows.forEach(function (r) {
      var end = r[0] + (r[1] < 0 ? r[2] : r[1]);
      for (var k = 2; r[1] >= 0 && k < r.length; k += 2) { end += r[k + 1]; }
      lo = Math.min(lo, r[0]); hi = Math.max(hi, end);
    });
    if (!(hi > lo)) { hi = lo + 1; }
    var width = Math.max(600, (box.parentNode.clientWidth || 1200) - 34), axis = 28, left = 8;
    var rowH = n <= 150 ? 5 : n <= 600 ? 2 : 1;
    var height = Math.max(120, Math.min(900, n * rowH)) + axis;
    var cv = el('canvas', { width: width, height: height });
    box.appendChild(cv);
    var tip = el('div', { cls: 'tip' });
    box.appendChild(tip);
    var g = cv.getContext('2d'), plotH = height - axis, perRow = plotH / n, scale = (width - 2 * left) / (hi - lo);
    function X(ms) { return left + (ms - lo) * scale; }
    g.fillStyle = '#fff'; g.fillRect(0, 0, width, height);
    for (var i = 0; i < n; i++) {
      var r = rows[i], y = i * perRow, h = Math.max(1, perRow * 0.8);
      if (r[1] < 0) { g.fillStyle = r[1] === -2 ? cancelledColor : failedColor; g.fillRect(X(r[0]), y, Math.max(1, r[2] * scale), h); continue; }
      var t = r[0];
      g.fillStyle = classes[0][1]; g.fillRect(X(t), y, Math.max(1, r[1] * scale), h); t += r[1];
      for (var k = 2; k < r.length; k += 2) { g.fillStyle = itlColors[Math.min(r[k], 3)]; g.fillRect(X(t), y, Math.max(0.5, r[k + 1] * scale), h); t += r[k + 1]; }
    }
    g.fillStyle = '#1d2330'; g.font = '11px system-ui, sans-serif'; g.fillRect(left, plotH + 1, width - 2 * left, 1);
    var span = (hi - lo) / 1000, step = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600].find(function (s) { return span / s <= 10; }) || 1200;
    for (var s = Math.ceil(lo / 1000 / step) * step; s * 1000 <= hi; s += step) {
      var xx = X(s * 1000); g.fillRect(xx, plotH + 1, 1, 5); g.fillText((Math.round(s * 10) / 10) + ' s', xx + 2, plotH + 16);
    }
    cv.addEventListener('mousemove', function (ev) {
      var rect = cv.getBoundingClientRect(), i = Math.floor((ev.clientY - rect.top) / perRow);
      if (i < 0 || i >= n) { tip.style.display = 'none'; return; }
      var r = rows[i], text = 'request #' + (i * tl.every) + ' · start ' + num(r[0] / 1000, 3) + ' s';
      if (r[1] < 0) { text += (r[1] === -2 ? ' · cancelled after ' : ' · failed after ') + num(r[2], 1) + ' ms'; } else {
        var itl = 0; for (var k = 2; k < r.length; k += 2) { itl += r[k + 1]; }
        text += ' · TTFT ' + num(r[1], 1) + ' ms · E2EL ' + num(r[1] + itl, 1) + ' ms';
      }
      tip.textContent = text; tip.style.display = 'block'; tip.style.left = Math.min(ev.clientX - rect.left + 12, width - 360) + 'px'; tip.style.top = (ev.clientY - rect.top + 12) + 'px';
    });
    cv.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
    box.setAttribute('data-points', String(n));
    LLM.register('timeline', box);
  }
});
