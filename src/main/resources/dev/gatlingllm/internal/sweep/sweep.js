// The sweep pages: sweep-report.html (curves with knee and flags, SLA answers, spread of repeated runs, every run), plots.html and pareto.html.
LLM.run(function (d, app) {
  var el = LLM.el, num = LLM.num;
  var chartNo = 0;

  function link(href, text) {
    return href ? el('a', { href: href, text: text }) : el('span', { text: '—' });
  }

  var FLAG = '#b42318';

  // plot --scale-x/-y beyond linear and log (ECharts draws those two itself): values are placed
  // at fwd(v) on a value axis whose labels read inv(position); the same scales as AxisScale.java
  var SYMLOG_LINEAR = 1 / (1 - 1 / 10);
  var SCALES = {
    symlog: { ok: isFinite, fwd: function (v) { return Math.abs(v) <= 1 ? v * SYMLOG_LINEAR : Math.sign(v) * (SYMLOG_LINEAR + Math.log10(Math.abs(v))); },
      inv: function (u) { return Math.abs(u) <= SYMLOG_LINEAR ? u / SYMLOG_LINEAR : Math.sign(u) * Math.pow(10, Math.abs(u) - SYMLOG_LINEAR); } },
    logit: { ok: function (v) { return v > 0 && v < 1; }, fwd: function (v) { return Math.log10(v / (1 - v)); }, inv: function (u) { return 1 / (1 + Math.pow(10, -u)); } },
    asinh: { ok: isFinite, fwd: Math.asinh, inv: Math.sinh },
    sqrt: { ok: function (v) { return v >= 0; }, fwd: Math.sqrt, inv: function (u) { return u * u; } },
    log: { ok: function (v) { return v > 0; } }
  };
  function place(scale, v) { var s = SCALES[scale]; return s && s.fwd ? s.fwd(v) : v; }
  function fits(scale, v) { var s = SCALES[scale]; return v !== null && (!s || s.ok(v)); }
  function axis(scale, name, extra) {
    var s = SCALES[scale], a = { type: scale === 'log' ? 'log' : 'value', name: name + (scale && scale !== 'linear' ? ' (' + scale + ')' : ''), scale: true };
    if (s && s.inv) { a.axisLabel = { formatter: function (u) { return num(Number(s.inv(u).toPrecision(3))); } }; }
    Object.keys(extra || {}).forEach(function (k) { a[k] = extra[k]; });
    return a;
  }

  function figure(parent, f, along) {
    var X = LLM.label(f.varX), Y = LLM.label(f.varY);
    var kneeView = /_throughput$/.test(f.varX) && /_ms$/.test(f.varY);
    var box = LLM.section(parent, Y + ' against ' + X, f.varY + ' against ' + f.varX + ' of the result JSONs' +
      (along && along !== f.varX ? '; each curve joins its points in the order of ' + along : '') +
      (kneeView ? '; ◆ knee: past it latency rises much faster than throughput' : '') +
      '; red ▲: a run of the point was flagged (client self-check warned, over-saturated or failed requests), see Runs' +
      (f.hasIntervals ? '; bars: 95 % confidence interval of the mean over the point\'s runs (Student t)' : '; one run per point'));
    var grid = el('div', { cls: 'grid' });
    box.appendChild(grid);
    f.panels.forEach(function (p) {
      var series = [], notes = [];
      p.curves.forEach(function (c, i) {
        var color = LLM.COLORS[i % LLM.COLORS.length];
        var shown = c.points.filter(function (pt) { return fits(f.scaleX, pt.x) && fits(f.scaleY, pt.y); });
        var bars = shown.filter(function (pt) { return fits(f.scaleY, pt.lo) && fits(f.scaleY, pt.hi); }).map(function (pt) {
          return [{ coord: [place(f.scaleX, pt.x), place(f.scaleY, pt.lo)] }, { coord: [place(f.scaleX, pt.x), place(f.scaleY, pt.hi)] }];
        });
        series.push({
          name: c.name, type: 'line', showSymbol: true, symbolSize: 7, color: color,
          data: shown.map(function (pt) {
            var flagged = pt.flags && pt.flags.length > 0, knee = c.points.indexOf(pt) === c.knee;
            var d = { value: [place(f.scaleX, pt.x), place(f.scaleY, pt.y)], x: pt.x, y: pt.y, n: pt.n, std: pt.std, lo: pt.lo, hi: pt.hi, label: pt.label, flags: pt.flags || [], knee: knee };
            if (flagged) { d.symbol = 'triangle'; d.symbolSize = 12; d.itemStyle = { color: FLAG, borderColor: FLAG }; }
            else if (knee) { d.symbol = 'diamond'; d.symbolSize = 13; }
            return d;
          }),
          markLine: bars.length ? { symbol: ['none', 'none'], silent: true, animation: false, label: { show: false }, lineStyle: { color: color, type: 'solid', width: 1.5 }, data: bars } : undefined
        });
        shown.forEach(function (pt) {
          var text = [];
          if (c.points.indexOf(pt) === c.knee) { text.push('knee'); }
          if (pt.flags && pt.flags.length) { text.push('⚑ ' + pt.flags.join(', ')); }
          if (text.length) { notes.push({ x: place(f.scaleX, pt.x), y: place(f.scaleY, pt.y), text: text.join(' · '), color: pt.flags && pt.flags.length ? FLAG : color }); }
        });
      });
      var title = [p.row, p.col].filter(function (s) { return s; }).join(' · ');
      LLM.chart(grid, 'chart-' + (chartNo++), {
        title: LLM.title(title || Y, title ? Y : ''),
        legend: {},
        tooltip: { trigger: 'item', formatter: function (it) {
          var v = it.data || {};
          var s = it.seriesName + '<br>' + X + ': ' + num(v.x) + '<br>' + Y + ': ' + num(v.y);
          if (v.n > 1) { s += '<br>n = ' + v.n + ', std = ' + num(v.std) + '<br>95 % CI [' + num(v.lo) + ', ' + num(v.hi) + ']'; }
          if (v.knee) { s += '<br>knee of the curve'; }
          if (v.flags && v.flags.length) { s += '<br>flagged: ' + v.flags.join(', '); }
          return s + '<br>' + (v.label || '');
        } },
        xAxis: axis(f.scaleX, X, { nameLocation: 'middle', nameGap: 28 }),
        yAxis: axis(f.scaleY, Y),
        series: series
      }, 340, notes);
    });
  }

  function spreads(parent, map) {
    var points = Object.keys(map);
    if (!points.length) { return; }
    var s = LLM.section(parent, 'Repeated runs', 'Each point run several times (fresh arrivals per run unless --seed was given): the spread of its headline figures over the runs. std: sample standard deviation (n − 1); CV: std ÷ mean; interval: 95 %, Student t. The same in each point\'s aggregate.json.');
    points.forEach(function (point) {
      var a = map[point];
      // one table a point: with several points each is folded under its name, the page stays short
      var holder = s;
      if (points.length > 1) {
        holder = el('details', {}, [el('summary', { text: point + ' (' + a.num_runs + ' runs)' })]);
        s.appendChild(holder);
      } else if (point) {
        s.appendChild(el('h3', { text: point + ' (' + a.num_runs + ' runs)' }));
      }
      var t = el('table', { 'data-spread': point }, [el('tr', {}, ['figure', 'mean', 'std', 'min', 'max', 'CV', '95 % interval'].map(function (h, i) { return el('th', { cls: i === 0 ? 'text' : '', text: h }); }))]);
      Object.keys(a.metrics).forEach(function (k) {
        var m = a.metrics[k];
        t.appendChild(el('tr', {}, [el('td', { cls: 'text', text: LLM.label(k) }), el('td', { text: num(m.mean) }), el('td', { text: num(m.std) }),
          el('td', { text: num(m.min) }), el('td', { text: num(m.max) }), el('td', { text: m.cv === null ? '—' : num(100 * m.cv) + ' %' }),
          el('td', { text: m.ci95_low === null ? '—' : '[' + num(m.ci95_low) + ', ' + num(m.ci95_high) + ']' })]));
      });
      holder.appendChild(t);
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
    var t = el('table', {}, [el('tr', {}, ['point', 'run'].concat(labels).concat(['flags', 'reports']).map(function (h, i) { return el('th', { cls: i === 0 || h === 'flags' ? 'text' : '', title: i >= 2 && i < 2 + keys.length ? LLM.label(keys[i - 2]) : h, text: h }); }))]);
    var flagged = [];
    list.forEach(function (r) {
      var reports = el('td', { cls: 'links' }, [link(r.json, 'JSON'), el('span', { text: ' · ' }), link(r.llm, 'LLM report'),
        el('span', { text: ' · ' }), link(r.gatling, 'Gatling report'), el('span', { text: ' · ' }), link(r.console, 'console')]);
      var flags = r.flags || [];
      var names = flags.map(function (f) { return f.split(':')[0]; });
      if (flags.length) { flagged.push(r); }
      t.appendChild(el('tr', flags.length ? { 'data-flagged': names.join(',') } : {}, [el('td', { cls: 'text', text: r.point }), el('td', { text: String(r.run_number) })]
        .concat(keys.map(function (k) { return el('td', { text: num(r[k]) }); }))
        .concat([flags.length ? el('td', { cls: 'text', title: flags.join('\n'), text: '⚑ ' + names.join(', ') }) : el('td', { cls: 'text', text: 'ok' })])
        .concat([reports])));
    });
    s.appendChild(t);
    flagged.forEach(function (r) {
      r.flags.forEach(function (f) { s.appendChild(el('div', { cls: 'banner bad warn', text: '⚑ ' + (r.point ? r.point + ' ' : '') + 'run ' + r.run_number + ': ' + f })); });
    });
  }

  function pareto(parent, p) {
    var perJoule = p.yLabel && p.yLabel !== 'output tokens/s per GPU';
    var s = LLM.section(parent, 'Pareto frontier', 'x = output tokens/s per user (÷ ' + p.userKey + '), y = ' + (perJoule ? 'output tokens per joule (' + p.gpuKey + ', the GPUs\' energy over the run)' : 'output tokens/s per GPU (÷ ' + p.gpuKey + ')') + '; the frontier joins the points no other point beats on both.');
    LLM.chart(s, 'pareto', {
      title: LLM.title(perJoule ? 'tokens/s per user vs tokens per joule' : 'tokens/s per user vs tokens/s per GPU'),
      legend: {},
      tooltip: { trigger: 'item', formatter: function (it) { var v = it.data; return v.point + '<br>' + num(v.value[0]) + ' tok/s/user, ' + num(v.value[1]) + ' tok/s/GPU<br>' + (v.label || ''); } },
      xAxis: { type: 'value', name: 'output tokens/s per user', nameLocation: 'middle', nameGap: 28, scale: true },
      yAxis: { type: 'value', name: p.yLabel || 'output tokens/s per GPU', scale: true },
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
    if (sum.flagged) {
      app.appendChild(el('div', { cls: 'banner bad', text: '⚑ ' + sum.flagged + ' of ' + sum.runs + ' runs flagged: their figures may be the client\'s or the queue\'s, not the server\'s (red ▲ on the charts; reasons under Runs).' }));
    }
    if (d.answers && d.answers.length) { answers(app, d.answers); }
  }
  if (d.figures && d.figures.length) {
    d.figures.forEach(function (f) { figure(app, f, sum.variable); });
  } else if (d.kind !== 'pareto') {
    LLM.empty(app, 'No point to draw (no run has both keys as numbers).');
  }
  if (d.pareto) { pareto(app, d.pareto); }
  if (d.spreads) { spreads(app, d.spreads); }
  if (d.runs && d.runs.length) { runs(app, d.runs); }
});
