// simcycle serve: the page.  Every name goes into the page as text (textContent), never as
// markup; nothing is fetched from anywhere but this server.
"use strict";

const page = { state: null, fixes: [], odds: null, version: null, busy: false };

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("data-")) e.setAttribute(k, v);
    else if (k === "text") e.textContent = v;
    else e[k] = v;
  }
  for (const k of kids) e.append(k);
  return e;
}

const CERTAIN = 1e-12;       // report.CERTAIN: an exact sum of branches is 1 up to rounding

function pct(p) {            // as the command line's tables (report.percent): 0 and 100 only
  if (p === null || p === undefined || Number.isNaN(p)) return "-";   // when certain
  if (p <= CERTAIN) return "0";
  if (p >= 1 - CERTAIN) return "100";
  if (p < 0.0005) return "<0.1";
  if (p > 0.9995) return ">99.9";
  return (100 * p).toFixed(1);
}

function swatch(name) {
  const s = el("span", { class: "swatch" });
  s.style.background = (page.state && page.state.colours[name]) || "#999";
  return s;
}

// A command's text in a <pre>: a table keeps its columns (the block scrolls sideways when it
// is wider than the screen); prose -- a paragraph of one line (a title, a legend), or one with
// no columns (no run of spaces inside a line) -- wraps at the block's visible width instead of
// running off its right edge.  The text itself is unchanged.
function isProse(para) {
  return !para.includes("\n") || !/\S {2,}\S/.test(para);
}

function showText(id, text) {
  const pre = document.getElementById(id);
  pre.textContent = "";
  const paras = (text || "").split("\n\n");
  paras.forEach((para, i) => {
    const sep = i < paras.length - 1 ? "\n\n" : "";
    if (isProse(para)) pre.append(el("span", { class: "prose", text: para }));
    else pre.append(document.createTextNode(para));
    pre.append(document.createTextNode(sep));
  });
}

function showError(text) {
  const e = document.getElementById("error");
  e.textContent = text || "";
  e.hidden = !text;
}

async function ask(fixes) {
  page.busy = true;
  document.getElementById("status").textContent = "simulating…";
  try {
    const r = await fetch("/api/odds", { method: "POST", headers: { "Content-Type": "application/json" },
                                          body: JSON.stringify({ fix: fixes }) });
    const d = await r.json();
    if (!r.ok) { showError(d.error); return false; }
    showError("");
    page.fixes = fixes;
    page.odds = d;
    drawOdds();
    drawChoices();
    return true;
  } finally {
    page.busy = false;
    document.getElementById("status").textContent = statusText();
  }
}

function statusText() {
  const s = page.state;
  if (!s) return "";
  return `${s.sims.toLocaleString("en")} simulations, seed ${s.seed}` +
         (page.fixes.length ? "; the same random numbers as without the what-ifs" : "");
}

function drawOdds() {
  const s = page.state, d = page.odds || s.base;
  const base = {};
  for (const p of s.base.players) base[p.name] = p;
  const q = d.qualifying_places, showQ = q > 1, diff = page.fixes.length > 0;
  const head = document.querySelector("#odds thead"), body = document.querySelector("#odds tbody");
  head.replaceChildren(); body.replaceChildren();
  const hr = el("tr", {}, el("th", { text: "player" }), el("th", { text: "1st %" }));
  if (diff) hr.append(el("th", { text: "change" }));
  if (showQ) hr.append(el("th", { text: "qualify %" }));
  if (showQ && diff) hr.append(el("th", { text: "change", class: "wide" }));
  hr.append(el("th", { text: `exp. ${d.points_label}`, class: "wide" }));
  head.append(hr);
  for (const p of d.players) {
    const tr = el("tr", { "data-player": p.name });
    tr.append(el("td", { class: "name" }, swatch(p.name), el("span", { text: p.name })));
    tr.append(el("td", { class: "p-first", "data-p": String(p.p_first), "data-se": String(p.se_p_first) },
                 el("span", { text: pct(p.p_first) }), " ",
                 el("span", { class: "se", text: `±${(100 * p.se_p_first).toFixed(2)}` })));
    const delta = (now, was) => {
      const x = 100 * (now - was);
      const t = Math.abs(x) < 0.05 ? "0" : (x > 0 ? "+" : "−") + Math.abs(x).toFixed(1);
      return el("td", { class: x >= 0.05 ? "up" : (x <= -0.05 ? "down" : ""), text: t });
    };
    if (diff) tr.append(delta(p.p_first, base[p.name].p_first));
    if (showQ) {
      tr.append(el("td", { class: "p-qualify", "data-p": String(p.p_qualify), "data-se": String(p.se_p_qualify) },
                   el("span", { text: pct(p.p_qualify) }), " ",
                   el("span", { class: "se", text: `±${(100 * p.se_p_qualify).toFixed(2)}` })));
      if (diff) { const c = delta(p.p_qualify, base[p.name].p_qualify); c.classList.add("wide"); tr.append(c); }
    }
    tr.append(el("td", { class: "wide", text: p.expected_points.toFixed(2) }));
    body.append(tr);
  }
  const box = document.getElementById("assumed-box"), ul = document.getElementById("assumed");
  ul.replaceChildren();
  (d.assumed || []).forEach((text, i) => {
    const b = el("button", { type: "button", text: "undo", class: "undo" });
    b.addEventListener("click", () => ask(page.fixes.filter((_, k) => k !== i)));
    ul.append(el("li", {}, el("span", { text: text }), b));
  });
  box.hidden = !page.fixes.length;
  document.getElementById("odds-legend").textContent =
    "1st %: chance of first place; " +
    (showQ ? `qualify %: chance of a qualifying place (top ${q}); ` :
             (q === 1 ? "one place qualifies, so first place is the qualifying place; " : "")) +
    "±: one Monte Carlo standard error, in points of %" +
    (diff ? "; change: against the odds without the what-ifs, in points of %" : "") +
    `; exp. ${d.points_label}: expected final ${d.points_label}.`;
}

function drawChoices() {
  const box = document.getElementById("choices");
  box.replaceChildren();
  const chosen = new Set(page.fixes);
  const choices = page.state.choices;
  const first = choices.length ? choices[0].label : null;
  let last = null, target = box, later = null;
  for (const g of choices) {
    if (g.label !== last) {
      if (g.label !== first && later === null) {      // later rounds fold away
        const n = choices.filter((c) => c.label !== first).length;
        later = el("details", { id: "later" }, el("summary", { text: `Later games (${n})` }));
        if (page.fixes.some((f) => choices.some((c) => c.label !== first && c.results.some((r) => r.fix === f))))
          later.open = true;
        box.append(later);
        target = later;
      }
      target.append(el("div", { class: "rounds-head", text: g.label }));
      last = g.label;
    }
    const who = el("span", { class: "who" });
    g.players.forEach((n, i) => { if (i) who.append(" – "); who.append(swatch(n), el("span", { text: n })); });
    const buttons = el("span", { class: "results" });
    const row = el("div", { class: "game" }, who, buttons);
    for (const r of g.results) {
      const on = chosen.has(r.fix);
      const b = el("button", { type: "button", class: on ? "on" : "", "data-fix": r.fix,
                               title: on ? "assumed: click to undo" : "assume this result" },
                   el("span", { text: r.text }),
                   el("small", { text: r.p === null || r.p === undefined ? "" : `${pct(r.p)} %` }));
      b.addEventListener("click", () => {
        if (page.busy) return;
        // one result per game: a new result replaces the game's other what-if
        const others = g.results.map((x) => x.fix);
        const rest = page.fixes.filter((f) => !others.includes(f));
        ask(on ? rest : [...rest, r.fix]);
      });
      buttons.append(b);
    }
    target.append(row);
  }
  if (!choices.length) box.append(el("p", { class: "sub", text: "Nothing left to play whose players are known." }));
}

function drawHistory() {
  const h = page.state.history, box = document.getElementById("history");
  box.replaceChildren();
  if (!h || h.checkpoints.length < 2) { box.append(el("p", { class: "sub", text: "Not enough checkpoints yet." })); return; }
  // drawn at the width it is shown at, so its text stays readable on a phone
  const W = Math.max(320, Math.min(900, box.clientWidth || 720));
  const narrow = W < 520, H = narrow ? 260 : 320, L = 40, R = narrow ? 108 : 150, T = 12, B = 46;
  const names = Object.keys(h.series);
  const peak = (n) => Math.max(0, ...h.series[n].filter((x) => !Number.isNaN(x) && x !== null));
  const top = Math.max(...names.map(peak));
  const ymax = Math.min(1, Math.max(0.1, Math.ceil((top * 100 + 1e-9) / 10) * 10 / 100));
  // the contenders stand out (coloured, labelled); the rest recede (thin grey)
  const ranked = [...names].sort((a, b) => peak(b) - peak(a));
  const shown = new Set(ranked.filter((n, i) => i < 6 && peak(n) >= 0.02));
  const n = h.checkpoints.length;
  const x = (i) => L + (W - L - R) * i / (n - 1), y = (v) => T + (H - T - B) * (1 - v / ymax);
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  const mk = (tag, a, text) => { const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(a)) e.setAttribute(k, v); if (text !== undefined) e.textContent = text; svg.append(e); return e; };
  const step = ymax <= 0.2 ? 0.05 : (ymax <= 0.5 ? 0.1 : 0.2);
  for (let v = 0; v <= ymax + 1e-9; v += step) {
    mk("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#e5e5e5" });
    mk("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#555" }, `${Math.round(v * 100)} %`);
  }
  const every = Math.max(1, Math.ceil(n / 8));
  h.checkpoints.forEach((c, i) => { if ((i % every === 0 && n - 1 - i >= every) || i === n - 1)
    mk("text", { x: x(i), y: H - B + 16, "text-anchor": "middle", "font-size": 11, fill: "#555" }, c); });
  mk("text", { x: L, y: H - 8, "font-size": 11, fill: "#555" },
     `${h.key === "p_first" ? "P(first place)" : "P(qualify)"} at each checkpoint`);
  const draw = (name, front) => {
    const pts = h.series[name].map((v, i) => (v === null || Number.isNaN(v)) ? null : `${x(i)},${y(v)}`).filter(Boolean);
    mk("polyline", { points: pts.join(" "), fill: "none",
                     stroke: front ? page.state.colours[name] : "#c8c8c8",
                     "stroke-width": front ? 2.5 : 1, "data-player": name });
  };
  names.filter((m) => !shown.has(m)).forEach((m) => draw(m, false));
  const labels = [];
  names.filter((m) => shown.has(m)).forEach((m) => { draw(m, true);
    const v = h.series[m][n - 1]; labels.push({ name: m, y: y(Number.isNaN(v) ? 0 : v) }); });
  // end-of-line labels, spread so none overlaps, kept inside the plot
  labels.sort((a, b) => a.y - b.y);
  for (let i = 1; i < labels.length; i++) labels[i].y = Math.max(labels[i].y, labels[i - 1].y + 13);
  if (labels.length) labels[labels.length - 1].y = Math.min(labels[labels.length - 1].y, H - B);
  for (let i = labels.length - 2; i >= 0; i--) labels[i].y = Math.min(labels[i].y, labels[i + 1].y - 13);
  for (const lb of labels) mk("text", { x: W - R + 6, y: lb.y + 4, "font-size": narrow ? 11 : 12, fill: page.state.colours[lb.name] },
                              lb.name.length > (narrow ? 12 : 22) ? lb.name.split(" ").slice(-1)[0] : lb.name);
  box.append(svg);
  if (names.length > shown.size)
    box.append(el("p", { class: "legend", text: `Coloured and named: the ${shown.size} players with the best chances at any point; the other ${names.length - shown.size} in grey.` }));
}

function drawState() {
  const s = page.state;
  document.title = `${s.scenario} — simcycle`;
  document.getElementById("title").textContent = s.scenario;
  document.getElementById("after").textContent = `Odds ${s.after}.`;
  const w = document.getElementById("warning");
  w.textContent = s.warning || ""; w.hidden = !s.warning;
  showText("standings", s.standings);
  document.getElementById("swing-section").hidden = !s.swing;
  showText("swing", s.swing);
  document.getElementById("needs-section").hidden = !s.needs;
  showText("needs", s.needs);
  document.getElementById("scores-section").hidden = !s.scores;
  showText("scores", s.scores);
  const chart = document.getElementById("scores-chart");
  if (s.scores) chart.src = `/api/scores.svg?v=${s.version}`; else chart.removeAttribute("src");
  document.getElementById("whocan-section").hidden = !s.whocan;
  showText("whocan", s.whocan);
  document.getElementById("footer").textContent =
    `simcycle serve · ${s.format} · ${s.sims.toLocaleString("en")} simulations per answer, seed ${s.seed} · page version ${s.version}`;
  document.body.setAttribute("data-version", String(s.version));
  drawHistory();
}

async function refresh() {
  const since = page.version === null ? "" : `?since=${page.version}`;
  const r = await fetch(`/api/state${since}`);
  const d = await r.json();
  if (page.state && d.version === page.version && !("scenario" in d)) return;
  page.state = d; page.version = d.version;
  drawState();
  // the what-ifs stay assumed while they are still open (a new result can contradict one:
  // then they are all dropped, and the page says why)
  let ok = false;
  if (page.fixes.length) ok = await ask(page.fixes);
  if (!ok) { page.fixes = []; page.odds = null; drawOdds(); drawChoices(); }
  document.getElementById("status").textContent = statusText();
}

let resizing = null;
window.addEventListener("resize", () => {      // the chart is drawn at the width it is shown at
  clearTimeout(resizing);
  resizing = setTimeout(() => { if (page.state) drawHistory(); }, 150);
});
document.getElementById("undo-all").addEventListener("click", () => ask([]));
document.getElementById("fix-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const t = document.getElementById("fix-input").value.trim();
  if (t) ask([...page.fixes, t]).then((ok) => { if (ok) document.getElementById("fix-input").value = ""; });
});
refresh();
setInterval(() => { if (!page.busy) refresh().catch(() => {}); }, 1500);
