"""The fixed parts of the HTML report: its style sheet, its start-up script and its palettes.

Kept in Python strings (not separate files) so that packaging needs nothing special. Nothing here
refers to the network: fonts are the reader's own system fonts, and the charts are drawn by the
plotly.js copy that :mod:`clfeval.report.html` embeds in the page.

>>> "http" in CSS or "url(" in CSS or "@import" in CSS
False
"""

from __future__ import annotations

__all__ = ["CSS", "BOOT_JS", "FONT_STACK", "CLASS_COLORS", "MODEL_COLORS", "CSP"]

#: System fonts only: nothing is fetched.
FONT_STACK = (
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", '
    '"Liberation Sans", sans-serif'
)

#: Colours of the classes (Tableau 10) and of the models (darker, so that a model's averaged
#: curve stands out among its class curves).
CLASS_COLORS = (
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
)
MODEL_COLORS = (
    "#1f4e9c", "#c0392b", "#1e8449", "#7d3c98", "#b9770e",
    "#117a65", "#873600", "#2e4053", "#a93226", "#5b2c6f",
)

#: The page may run its own inline scripts and styles and show data: images (plotly's "download
#: as PNG"); everything else, any network access included, is refused by the browser.
CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "img-src data: blob:; font-src data:; connect-src 'none'; worker-src blob:; "
    "base-uri 'none'; form-action 'none'"
)

CSS = """
:root {
  --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --soft: #f6f8fa; --accent: #1f4e9c;
  --warn-bg: #fff8e6; --warn-line: #e3b341; --best: #e6f4ea;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; color: var(--fg); background: #fff;
  font: 15px/1.5 """ + FONT_STACK + """;
}
main { max-width: 1280px; margin: 0 auto; padding: 0 24px 48px; }
header.page { border-bottom: 1px solid var(--line); padding: 24px 0 12px; margin-bottom: 8px; }
h1 { font-size: 1.65rem; margin: 0 0 12px; line-height: 1.25; word-break: break-word; }
h2 { font-size: 1.3rem; margin: 36px 0 12px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 24px 0 8px; }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; }
.meta dt { color: var(--muted); }
.meta dd { margin: 0; word-break: break-word; }
nav.toc { margin: 8px 0 0; font-size: 0.92rem; }
nav.toc a { color: var(--accent); text-decoration: none; margin-right: 10px; white-space: nowrap; }
nav.toc a:hover { text-decoration: underline; }
.warning {
  background: var(--warn-bg); border: 1px solid var(--warn-line); border-radius: 6px;
  padding: 8px 12px; margin: 12px 0;
}
.cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 8px 0 16px; padding: 0; list-style: none; }
.card {
  border: 1px solid var(--line); border-radius: 8px; padding: 8px 14px; min-width: 128px;
  background: var(--soft);
}
.card .label { display: block; color: var(--muted); font-size: 0.82rem; }
.card .value { display: block; font-size: 1.35rem; font-weight: 600; font-variant-numeric: tabular-nums; }
.table-wrap { overflow-x: auto; max-width: 100%; }
table.numbers { border-collapse: collapse; font-variant-numeric: tabular-nums; margin: 4px 0 8px; }
table.numbers caption { caption-side: top; text-align: left; color: var(--muted); font-size: 0.88rem; padding: 0 0 4px; }
table.numbers th, table.numbers td { padding: 5px 12px; border-bottom: 1px solid var(--line); }
table.numbers thead th {
  text-align: right; font-weight: 600; border-bottom: 2px solid var(--fg); white-space: nowrap;
  vertical-align: bottom;
}
table.numbers thead th:first-child, table.numbers th[scope="row"] { text-align: left; }
table.numbers td { text-align: right; white-space: nowrap; }
table.numbers th[scope="row"] { font-weight: 600; max-width: 28em; overflow-wrap: anywhere; }
table.numbers tbody.summary tr:first-child > * { border-top: 2px solid var(--fg); }
table.numbers tbody.summary th, table.numbers tbody.summary td { background: var(--soft); }
table.numbers tbody.summary th[scope="row"] { font-style: italic; font-weight: 500; }
table.numbers td.undefined { color: var(--muted); }
table.numbers td.best { background: var(--best); font-weight: 600; }
table.tests td.text, table.tests tr.note td { text-align: left; }
table.tests tr.note td { color: var(--muted); font-size: 0.85em; padding-left: 2em; }
.ci { display: block; color: var(--muted); font-size: 0.78em; font-weight: normal; white-space: nowrap; }
table.numbers tbody tr:hover > * { background: #eef3fb; }
table.numbers td.text { text-align: left; }
table.numbers.groups th, table.numbers.groups td { padding: 5px 8px; }
table.numbers.groups th[scope="row"] { white-space: nowrap; }
table.numbers.groups thead th { white-space: normal; min-width: 4.5em; }
table.numbers.comparison th[scope="row"] { min-width: 11em; overflow-wrap: break-word; }
table.numbers.comparison thead th { white-space: normal; min-width: 4.5em; }
table.numbers thead th.text { text-align: left; }
table.numbers td.signif { font-weight: 700; }
table.numbers .badge {
  display: inline-block; margin-left: 6px; padding: 0 6px; border-radius: 8px; font-size: 0.75em;
  font-weight: 500; background: var(--warn-bg); border: 1px solid var(--warn-line); vertical-align: 1px;
}
h4 { font-size: 0.98rem; margin: 16px 0 4px; }
.chart-frame.forest { margin: 4px 0 8px; }
ul.notes { color: var(--muted); font-size: 0.9rem; margin: 4px 0 16px; padding-left: 20px; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(440px, 1fr)); gap: 16px 24px; }
.chart-frame {
  min-width: 0; border: 1px solid var(--line); border-radius: 6px; overflow: hidden; background: #fff;
}
.chart-frame.confusion { max-width: 760px; }  /* widened per page for many classes */
.chart { width: 100%; min-height: 300px; }
.chart-error { padding: 16px; color: #b42318; }
.hint { color: var(--muted); font-size: 0.88rem; margin: 4px 0 12px; }
footer { color: var(--muted); font-size: 0.85rem; border-top: 1px solid var(--line); margin-top: 40px; padding-top: 12px; }
noscript p { background: var(--warn-bg); border: 1px solid var(--warn-line); padding: 8px 12px; }
@media (max-width: 640px) {
  main { padding: 0 12px 32px; }
  .charts { grid-template-columns: 1fr; }
}
@media print {
  nav.toc { display: none; }
  .chart { break-inside: avoid; }
}
"""

#: Draws every figure listed in the page's JSON block; marks the <body> with how many charts
#: were drawn (data-charts-rendered) and how many failed (data-charts-failed).
BOOT_JS = """
(function () {
  "use strict";
  var body = document.body;
  function done(ok, failed) {
    body.setAttribute("data-charts-rendered", String(ok));
    body.setAttribute("data-charts-failed", String(failed));
  }
  var figures = JSON.parse(document.getElementById("clfeval-figures").textContent);
  if (typeof Plotly === "undefined") {
    console.error("clfeval report: plotly.js did not load; the charts cannot be drawn.");
    done(0, figures.length);
    return;
  }
  // an array written once for two charts: {"same_as": [figure, trace, name]} (html_numbers.share_arrays)
  figures.forEach(function (fig) {
    fig.data.forEach(function (trace) {
      Object.keys(trace).forEach(function (key) {
        var ref = trace[key] && trace[key].same_as;
        if (ref) { trace[key] = figures[ref[0]].data[ref[1]][ref[2]].slice(); }
      });
    });
  });
  var jobs = figures.map(function (fig) {
    var el = document.getElementById(fig.id);
    if (!el) { return Promise.reject(new Error("no element with id " + fig.id)); }
    return Plotly.newPlot(el, fig.data, fig.layout, fig.config).catch(function (err) {
      el.textContent = "This chart could not be drawn: " + err;
      el.classList.add("chart-error");
      throw err;
    });
  });
  Promise.allSettled(jobs).then(function (results) {
    var failed = 0;
    results.forEach(function (r, i) {
      if (r.status === "rejected") {
        failed += 1;
        console.error("clfeval report: chart " + figures[i].id + " failed: " + r.reason);
      }
    });
    // let the WebGL scenes paint before anyone looks
    requestAnimationFrame(function () {
      requestAnimationFrame(function () { done(results.length - failed, failed); });
    });
  });
})();
"""
