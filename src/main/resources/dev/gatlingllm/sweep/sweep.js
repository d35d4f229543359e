// The sweep pages: sweep-report.html (curves, SLA answers, every run), plots.html and pareto.html.
LLM.run(function (d, app) {
  var el = LLM.el, num = LLM.num;
  var chartNo = 0;

  function link(href, text) {
    return href ? el('a', { href: href, text: text }) : el('span', { text: '—' });
  }

  function figure(parent, f) {
    var X = LLM.label(f.varX), Y = LLM.label(f.varY);
    var box = LLM.section(parent, Y + ' against ' + X, f.varY + ' against ' + f.varX + ' of the result JSONs' +
      (f.hasIntervals ? '; bars: 95 % confidence interval of the mean over the point\'s runs (Student t)' : '; one run per point'));
    var grid = el('div', { cls: 'grid' });
    box.appendChild(grid);
    f.panels.forEach(function (p) {
      var series = [];
      p.curves.forEach(function (c, i) {
        var color = LLM.COLORS[i % LLM.COLORS.length];
        var bars = c.points.filter(function (pt) { return pt.lo !== null && pt.hi !== null; }).map(function (pt) {
          return [{ coord: [pt.x, pt.lo] }, { coord: [pt.x, pt.hi] }];
        });
        series.push({
          name: c.name, type: 'line', showSymbol: true, symbolSize: 7, color: color,
          data: c.points.map(function (pt) { return { value: [pt.x, pt.y], n: pt.n, std: pt.std, lo: pt.lo, hi: pt.hi, label: pt.label }; }),
          markLine: bars.length ? { symbol: ['none', 'none'], silent: true, animation: false, label: { show: false }, lineStyle: { color: color, type: 'solid', width: 1.5 }, data: bars } : undefined
        });
      });
      var title = [p.row, p.col].filter(function (s) { return s; }).join(' · ');
      LLM.chart(grid, 'chart-' + (chartNo++), {
        title: LLM.title(title || Y, title ? Y : ''),
        legend: {},
        tooltip: { trigger: 'item', formatter: function (it) {
          var v = it.data || {};
          var s = it.seriesName + '<br>' + X + ': ' + num(v.value[0]) + '<br>' + Y + ': ' + num(v.value[1]);
          if (v.n > 1) { s += '<br>n = ' + v.n + ', std = ' + num(v.std) + '<br>95 % CI [' + num(v.lo) + ', ' + num(v.hi) + ']'; }
          return s + '<br>' + (v.label || '');
        } },
        xAxis: { type: f.logX ? 'log' : 'value', name: X + (f.logX ? ' (log)' : ''), nameLocation: 'middle', nameGap: 28, scale: true },
        yAxis: { type: f.logY ? 'log' : 'value', name: Y + (f.logY ? ' (log)' : ''), scale: true },
        series: series
      }, 340);
    });
  }

  function answers(parent, list) {
    var s = LLM.section(parent, 'SLA answers', 'The largest value of the searched variable whose runs met every constraint (mean over the runs of each value).');
    var t = el('table', {}, [el('tr', {}, ['combination', 'SLA', 'variable', 'answer', 'values tried (✓ met, ✗ missed)'].map(function (h, i) { return el('th', { cls: i === 1 || i === 0 ? 'text' : '', text: h }); }))]);
    list.forEach(function (a) {
      t.appendChild(el('tr', { 'data-answer': a.variable }, [el('td', { cls: 'text', text: a.point }), el('td', { cls: 'text', text: a.sla }), el('td', { text: LLM.label(a.variable) }),
        el('td', { text: a.value === 0 ? 'none met' : String(a.value) + (a.capped ? ' (unlimited)' : '') }),
        el('td', { cls: 'reason', text: a.tested.map(function (x) { return x.value + (x.passed ? ' ✓' : ' ✗'); }).join(', ') })]));
    });
    s.appendChild(t);
  }

  function runs(parent, list) {
    var s = LLM.section(parent, 'Runs', 'Every run of the sweep, each a fresh Gatling run in a JVM of its own: its result JSON, LLM report, Gatling report and console.');
    var keys = ['request_throughput', 'output_throughput', 'mean_ttft_ms', 'p99_ttft_ms', 'p99_e2el_ms', 'failed'];
    // short headers, the key's full name on hover: the table keeps its columns in view at 800 px
    var labels = ['req/s', 'output tok/s', 'mean TTFT (ms)', 'P99 TTFT (ms)', 'P99 E2EL (ms)', 'failed'];
    var t = el('table', {}, [el('tr', {}, ['point', 'run'].concat(labels).concat(['reports']).map(function (h, i) { return el('th', { cls: i === 0 ? 'text' : '', title: i >= 2 && i < 2 + keys.length ? LLM.label(keys[i - 2]) : h, text: h }); }))]);
    list.forEach(function (r) {
      var reports = el('td', { cls: 'links' }, [link(r.json, 'JSON'), el('span', { text: ' · ' }), link(r.llm, 'LLM report'),
        el('span', { text: ' · ' }), link(r.gatling, 'Gatling report'), el('span', { text: ' · ' }), link(r.console, 'console')]);
      t.appendChild(el('tr', {}, [el('td', { cls: 'text', text: r.point }), el('td', { text: String(r.run_number) })]
        .concat(keys.map(function (k) { return el('td', { text: num(r[k]) }); })).concat([reports])));
    });
    s.appendChild(t);
  }

  function pareto(parent, p) {
    var s = LLM.section(parent, 'Pareto frontier', 'x = output tokens/s per user (÷ ' + p.userKey + '), y = output tokens/s per GPU (÷ ' + p.gpuKey + '); the frontier joins the points no other point beats on both.');
    LLM.chart(s, 'pareto', {
      title: LLM.title('tokens/s per user vs tokens/s per GPU'),
      legend: {},
      tooltip: { trigger: 'item', formatter: function (it) { var v = it.data; return v.point + '<br>' + num(v.value[0]) + ' tok/s/user, ' + num(v.value[1]) + ' tok/s/GPU<br>' + (v.label || ''); } },
      xAxis: { type: 'value', name: 'output tokens/s per user', nameLocation: 'middle', nameGap: 28, scale: true },
      yAxis: { type: 'value', name: 'output tokens/s per GPU', scale: true },
      series: [
        { name: 'points', type: 'scatter', color: '#8a94a6', data: p.points.map(function (q) { return { value: [q.x, q.y], label: q.label, point: q.point }; }) },
        { name: 'Pareto frontier', type: 'line', color: '#b42318', data: p.frontier.map(function (q) { return { value: [q.x, q.y], label: q.label, point: q.point }; }),
          label: { show: true, position: 'top', fontSize: 10, formatter: function (it) { return it.data.label; } } }
      ]
    }, 420);
  }

  var sum = d.summary || {};
  if (d.kind === 'sweep') {
    var head = LLM.section(app, 'Sweep', sum.folder);
    head.appendChild(el('p', { text: num(sum.runs) + ' runs at ' + num(sum.points) + ' points' + (sum.variable ? ', varying ' + sum.variable : '') + '.' }));
    if (sum.failures && sum.failures.length) {
      sum.failures.forEach(function (f) { app.appendChild(el('div', { cls: 'banner bad', text: 'Failed: ' + f })); });
    }
    if (d.answers && d.answers.length) { answers(app, d.answers); }
  }
  if (d.figures && d.figures.length) {
    d.figures.forEach(function (f) { figure(app, f); });
  } else if (d.kind !== 'pareto') {
    LLM.empty(app, 'No point to draw (no run has both keys as numbers).');
  }
  if (d.pareto) { pareto(app, d.pareto); }
  if (d.runs && d.runs.length) { runs(app, d.runs); }
});
