// The comparison page: several runs' figures side by side, their charts overlaid.
LLM.run(function (d, app) {
  var el = LLM.el, num = LLM.num, runs = d.runs, C = LLM.COLORS;
  if (d.warning) { app.appendChild(el('div', { cls: 'banner bad', id: 'not-alike', text: 'Warning: ' + d.warning + '.' })); }
  var s = LLM.section(app, 'Runs', 'The first run is the baseline: differences are the other runs against it (red: worse, green: better; uncoloured and marked "same" when within noise: under 1 % of the baseline, or for a mean under two standard errors).');
  var t = el('table', {}, [el('tr', {}, [el('th', { text: '#' }), el('th', { cls: 'text', text: 'run' }), el('th', { text: 'date' }), el('th', { text: 'request rate' }), el('th', { text: 'max concurrency' }), el('th', { cls: 'text', text: 'client self-check' }), el('th', { cls: 'text', text: 'source' })])]);
  runs.forEach(function (r, i) {
    var box = el('i'); box.style.cssText = 'display:inline-block;width:10px;height:10px;margin-right:6px;background:' + C[i % C.length];
    t.appendChild(el('tr', {}, [el('td', { text: String(i + 1) }), el('td', { cls: 'text' }, [box, document.createTextNode(r.name)]), el('td', { text: String(r.result.date) }),
      el('td', { text: String(r.result.request_rate) }), el('td', { text: r.result.max_concurrency === null || r.result.max_concurrency === undefined ? '—' : String(r.result.max_concurrency) }),
      selfCheckCell(r.result.client_self_check), el('td', { cls: 'reason', text: r.source })]));
  });
  s.appendChild(t);

  /** A run's self-check in a few words; the whole sentence on hover. */
  function selfCheckCell(sc) {
    var v = LLM.selfCheck(sc);
    // red only for distorted; fair and not graded stay plain, their sentence on hover
    return v ? el('td', { cls: 'text ' + (v.ok ? 'neg' : v.level === 'distorted' ? 'pos' : ''), title: v.text, text: v.short }) : el('td', { cls: 'text', text: 'not measured' });
  }

  // the differences and their directions come computed with the data (CompareTable), as
  // the drop-in's --compare prints them
  var hs = LLM.section(app, 'Headline figures', 'Values of each run\'s result JSON.');
  var head = [el('th', { text: 'figure' })];
  runs.forEach(function (r, i) { head.push(el('th', { text: '#' + (i + 1) })); if (i > 0) { head.push(el('th', { text: 'Δ #' + (i + 1) + ' vs #1' })); } });
  var ht = el('table', {}, [el('tr', {}, head)]);
  d.differences.forEach(function (row) {
    var tr = el('tr', {}, [el('td', { text: row.label })]);
    row.values.forEach(function (v, i) {
      tr.appendChild(el('td', { 'data-run': String(i), 'data-key': row.key, text: v === null ? '—' : num(v) }));
      if (i === 0) { return; }
      var diff = row.differences[i - 1], cell = el('td');
      if (diff.delta === null) { cell.textContent = '—'; } else {
        var pct = diff.percent === null ? '' : ' (' + (diff.percent >= 0 ? '+' : '') + num(diff.percent, 1) + ' %)';
        cell.textContent = (diff.delta >= 0 ? '+' : '') + num(diff.delta) + pct;
        if (diff.verdict === 'better' || diff.verdict === 'worse') { cell.className = diff.verdict === 'worse' ? 'pos' : 'neg'; cell.title = diff.verdict; }
        else if (diff.verdict === 'same') { cell.textContent += ' same'; cell.title = 'within noise (±' + num(diff.noise) + ')'; }
      }
      tr.appendChild(cell);
    });
    ht.appendChild(tr);
  });
  hs.appendChild(ht);

  var charted = runs.filter(function (r) { return r.hist; });
  if (charted.length < runs.length) {
    app.appendChild(el('p', { cls: 'note', text: (runs.length - charted.length) + ' run(s) have figures only (a result JSON without per-request arrays and without its report): they are in the table, not in the charts.' }));
  }
  function color(r) { return C[runs.indexOf(r) % C.length]; }

  var ds = LLM.section(app, 'Distributions, overlaid', 'Share of each run\'s samples per bin (each run keeps its own bins).');
  var dg = el('div', { cls: 'grid' });
  ds.appendChild(dg);
  LLM.METRICS.concat([['input_len', 'Input', 'Input length (tokens)'], ['output_len', 'Output', 'Output length (tokens)']]).forEach(function (m) {
    var series = charted.filter(function (r) { return r.hist[m[0]] && r.hist[m[0]].count; }).map(function (r) {
      var h = r.hist[m[0]];
      return { name: r.name, type: 'line', step: 'middle', showSymbol: h.counts.length === 1, itemStyle: { color: color(r) },
        data: LLM.bins(h).map(function (b) { return [b[0] + h.width / 2, Math.round(10000 * b[1] / h.count) / 100]; }) };
    });
    if (!series.length) { return; }
    LLM.chart(dg, 'cmp-hist-' + m[0], { title: LLM.title(m[2] + (/_len$/.test(m[0]) ? '' : ' (ms)')), legend: { top: 22, type: 'scroll' },
      xAxis: { type: 'value', min: 'dataMin' }, yAxis: { type: 'value', name: '% of samples' }, series: series });
  });

  var withTime = charted.filter(function (r) { return r.overTime && r.overTime.time.length; });
  if (withTime.length) {
    var os = LLM.section(app, 'Over time, overlaid', 'Seconds after each run\'s benchmark start, one-second buckets.');
    var og = el('div', { cls: 'grid' });
    os.appendChild(og);
    [['chunks', 'Output tokens per second', 'tok/s'], ['running', 'Requests in flight', 'requests']].forEach(function (c) {
      LLM.chart(og, 'cmp-over-' + (c[0] === 'chunks' ? 'tokens' : c[0]), { title: LLM.title(c[1]), legend: { top: 22, type: 'scroll' }, xAxis: { type: 'value', name: 'seconds after the benchmark start' }, yAxis: { type: 'value', name: c[2] },
        series: withTime.map(function (r) {
          var o = r.overTime, cap = r.result.max_concurrency;
          var line = { name: r.name, type: 'line', step: 'start', showSymbol: false, itemStyle: { color: color(r) }, data: o[c[0]].map(function (v, i) { return [o.time[i], v]; }) };
          // each run's max concurrency, dashed in its colour (the note below says why a line may pass it)
          if (c[0] === 'running' && typeof cap === 'number') { line.markLine = { symbol: 'none', silent: true, label: { show: false }, lineStyle: { type: 'dashed', color: color(r) }, data: [{ yAxis: cap }] }; }
          return line;
        }) });
    });
    // vLLM's one-second buckets count a request in every second it touched: a line above a cap is no bug
    var above = withTime.filter(function (r) { var cap = r.result.max_concurrency; return typeof cap === 'number' && r.overTime.running.some(function (v) { return v > cap; }); });
    if (above.length) {
      os.appendChild(el('p', { cls: 'note', id: 'cap-note', text: 'Requests in flight of ' + above.map(function (r) { return r.name + ' (max concurrency ' + r.result.max_concurrency + ')'; }).join(', ')
        + ' pass their max concurrency (dashed): a request counts in every one-second bucket it touched, as vLLM counts its peak, so a second where one request ended and the next started counts both.' }));
    }
    [['ttft', 'TTFT p90 by second (ms)'], ['itl', 'ITL p90 by second (ms)']].forEach(function (c) {
      var series = withTime.filter(function (r) { return r.overTime[c[0]]; }).map(function (r) { var o = r.overTime; return { name: r.name, type: 'line', showSymbol: false, itemStyle: { color: color(r) }, data: o[c[0]].p90.map(function (v, i) { return [o.time[i], v]; }) }; });
      if (series.length) { LLM.chart(og, 'cmp-over-' + c[0], { title: LLM.title(c[1]), legend: { top: 22, type: 'scroll' }, xAxis: { type: 'value', name: 'seconds after the benchmark start' }, yAxis: { type: 'value', name: 'ms' }, series: series }); }
    });
  }

  var withServer = runs.filter(function (r) { return r.result.server_metrics && r.result.server_metrics.time_s.length; });
  if (withServer.length) {
    var ss = LLM.section(app, 'Server metrics, overlaid', 'Scraped from each server\'s Prometheus endpoint during its run.');
    var sg = el('div', { cls: 'grid' });
    ss.appendChild(sg);
    [['num_requests_running', 'Requests running on the server', 'cmp-server-running', 1], ['num_requests_waiting', 'Requests waiting on the server', 'cmp-server-waiting', 1], ['kv_cache_usage_perc', 'KV-cache usage (%)', 'cmp-server-kv', 100]].forEach(function (c) {
      LLM.chart(sg, c[2], { title: LLM.title(c[1]), legend: { top: 22, type: 'scroll' }, xAxis: { type: 'value', name: 'seconds after the benchmark start' }, yAxis: { type: 'value' },
        series: withServer.map(function (r) { var m = r.result.server_metrics; return { name: r.name, type: 'line', showSymbol: false, itemStyle: { color: color(r) }, data: m[c[0]].map(function (v, i) { return [m.time_s[i], v === null ? null : Math.round(v * c[3] * 100) / 100]; }) }; }) });
    });
  }
});
