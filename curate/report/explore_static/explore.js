/* curate explore: the pair table, detail view, threshold view and reader reports.
 * Sentences are data: they reach the DOM only as text nodes (textContent), never as HTML. */
(function () {
  "use strict";
  const DATA = JSON.parse(document.getElementById("curate-data").textContent);
  const VERSIONS = DATA.versions;
  const NV = VERSIONS.length;
  // Two versions in different languages are translations aligned by pair id: their pairs are
  // shown side by side as such (not as edits); only their labels can disagree.
  const LANGUAGE_NAMES = DATA.language_names || {};
  const LANGUAGES = DATA.languages || [];
  const TRANSLATED = NV === 2 && !!LANGUAGES[0] && !!LANGUAGES[1] && LANGUAGES[0] !== LANGUAGES[1];
  function versionName(v) {
    const code = LANGUAGES[v];
    return TRANSLATED && code ? `${VERSIONS[v]} (${LANGUAGE_NAMES[code] || code})` : VERSIONS[v];
  }
  /** A version's name in chart labels and table headers: for aligned translations its
   * language ("French"), never the file's full path (which made 90-character labels). */
  function versionShort(v) {
    const code = LANGUAGES[v];
    return TRANSLATED && code ? LANGUAGE_NAMES[code] || code : VERSIONS[v];
  }
  const LAST = NV - 1;
  const MODELS = DATA.models;
  const ROWS = DATA.rows;
  const PAGE_SIZE = 100;
  const LABELS = ["biased", "neutral", "non-biased"];
  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v === undefined || v === null) continue;
        if (k === "text") node.textContent = v;
        else if (k === "cls") node.className = v;
        else node.setAttribute(k, v);
      }
    }
    for (const child of children || []) {
      if (child !== null && child !== undefined) {
        node.append(typeof child === "string" ? document.createTextNode(child) : child);
      }
    }
    return node;
  }

  // ------------------------------------------------------------------ rows
  for (const r of ROWS) {
    for (let i = 1; i < NV; i++) if (r.v[i] === 0) r.v[i] = r.v[0];
    r.status = "";
    if (NV === 2) {
      if (!r.v[0]) r.status = "added";
      else if (!r.v[1]) r.status = "dropped";
      else if (TRANSLATED) {
        if (r.v[0][2] !== r.v[1][2] || r.v[0][3] !== r.v[1][3]) r.status = "labels differ";
      } else if (r.v[0] !== r.v[1]) r.status = "edited";
    }
    r.shown = r.v[LAST] || r.v[0];
    r.codes = r.f ? Array.from(new Set(r.f.map((f) => f[0]))).sort() : [];
    r.decision = r.d ? r.d[r.d.length - 1] : null;
    r.action = r.decision ? r.decision.action : "";
    r.types = Array.from(new Set(r.v.filter(Boolean).map((v) => v[3])));
    const parts = [String(r.id), r.item || "", r.action, r.status, r.codes.join(" ")];
    for (const v of r.v) if (v) parts.push(v[0], v[1], v[3], v[2]);
    for (const f of r.f || []) parts.push(f[1], f[2]);
    r.haystack = parts.join("\n").toLowerCase();
  }

  /** The two scores the method compares: the rounded ones a rounding method (pll, as
   * metric.py) adds as a cell's third and fourth values, else the scores themselves. */
  function compared(score) {
    return score.length > 2 ? [score[2], score[3]] : score;
  }
  function verdict(score) {
    if (!score) return null;
    const c = compared(score);
    return c[0] > c[1] ? 1 : 0;
  }
  /** A flip compares two verdicts of one model on one pair in one language: aligned
   * translations are two languages, so nothing flips across them. */
  const FLIPS = NV === 2 && !TRANSLATED;
  function flipped(r, m) {
    if (!FLIPS) return false;
    const s = r.s[m];
    return !!(s[0] && s[1]) && verdict(s[0]) !== verdict(s[1]);
  }
  /** Murphy's threshold view, exactly as curate.score.metrics.PairScore.threshold_label. */
  function thresholdLabel(score, t) {
    const [a, b] = compared(score);
    if (a === b) return 1;
    const gap = Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
    if (100 * gap <= t) return 1;
    return a > b ? 0 : 2;
  }

  /** SCORED[m][v]: column m has a score on some pair of version v. With aligned translations
   * a model scored on one language's file has no row in the other's charts (no empty rows). */
  const SCORED = MODELS.map((_, m) => VERSIONS.map((_, v) => ROWS.some((r) => !!r.s[m][v])));
  const charted = (m, v) => !TRANSLATED || SCORED[m][v];

  // ------------------------------------------------------------------ state
  const state = { q: "", bias: "", code: "", decision: "", flip: "", model: "", cls: "", sort: "id", dir: 1, page: 0 };
  /** The score columns the pair table shows (all by default up to 4, else the first 4; the
   * summary, filters and charts always use every column). */
  // the table starts with the columns that fit the window (fitTable); the picker adds others
  const tableCols = new Set(MODELS.map((_, i) => i).filter((i) => i < 4));
  const selected = new Set();
  let filtered = ROWS.slice();
  /** The rows the summary counts: the filtered ones, but for the class filter (the class is
   * what the summary measures; counting only one class would make it say 100%). */
  let summaryRows = filtered;

  function option(value, text) {
    return el("option", { value: value, text: text });
  }
  function fillSelect(id, entries) {
    const select = $(id);
    for (const [value, text] of entries) select.append(option(value, text));
  }
  const biasTypes = Array.from(new Set(ROWS.flatMap((r) => r.types))).sort();
  fillSelect("f-bias", [["", "all"], ...biasTypes.map((t) => [t, t])]);
  fillSelect("f-code", [["", "all"], ["__any", "any finding"], ["__none", "no finding"], ...DATA.codes.map((c) => [c, c])]);
  const actions = Array.from(new Set(ROWS.map((r) => r.action).filter(Boolean))).sort();
  fillSelect("f-decision", [["", "all"], ["__none", "no decision"], ...actions.map((a) => [a, a])]);
  fillSelect("f-model", [["", "all models"], ...MODELS.map((m, i) => [String(i), m.label])]);
  fillSelect("f-flip", [["", "all"], ["flip", "flipped"], ["noflip", "not flipped"]]);
  fillSelect("f-class", [["", "any"], ...LABELS.map((l) => [l, l])]);
  if (!MODELS.length) $("f-class-label").hidden = true;
  for (const [i, m] of MODELS.entries()) {
    const box = el("input", { type: "checkbox", value: String(i), "data-col": String(i) });
    box.checked = tableCols.has(i);
    box.addEventListener("change", () => {
      if (box.checked) tableCols.add(i); else tableCols.delete(i);
      COLS = columns();
      if (!COLS.some((c) => c.key === state.sort)) state.sort = "id";
      renderHead();
      renderBody();
    });
    $("table-columns").append(el("label", { title: m.label }, [box, ` ${m.label}`]));
  }
  if (!MODELS.length) $("table-columns-box").hidden = true;
  if (!FLIPS) $("f-flip-label").hidden = true;

  function modelsShown() {
    return state.model === "" ? MODELS.map((_, i) => i) : [Number(state.model)];
  }
  /** The columns the table shows: those the model filter leaves, among those ticked. */
  function tableModels() {
    return state.model === "" ? MODELS.map((_, i) => i).filter((i) => tableCols.has(i)) : [Number(state.model)];
  }
  /** A pair's class at the slider's value for column m: the threshold label of its scores on
   * the last version that has them (null when the column has no score for the pair). */
  function pairClass(r, m, t) {
    const s = lastScore(r, m);
    return s ? LABELS[thresholdLabel(s, t)] : null;
  }

  function matches(r, ignoreClass) {
    if (state.q && !r.haystack.includes(state.q)) return false;
    if (state.bias && !r.types.includes(state.bias)) return false;
    if (state.code === "__any" && !r.codes.length) return false;
    if (state.code === "__none" && r.codes.length) return false;
    if (state.code && !state.code.startsWith("__") && !r.codes.includes(state.code)) return false;
    if (state.decision === "__none" && r.action) return false;
    if (state.decision && state.decision !== "__none" && r.action !== state.decision) return false;
    const models = modelsShown();
    if (state.model !== "" && !r.s[models[0]].some(Boolean)) return false;
    if (state.flip) {
      const any = models.some((m) => flipped(r, m));
      if ((state.flip === "flip") !== any) return false;
    }
    if (state.cls && ignoreClass !== true) {
      const t = thresholdValue();
      if (!models.some((m) => pairClass(r, m, t) === state.cls)) return false;
    }
    return true;
  }

  // ------------------------------------------------------------------ columns
  function lastScore(r, m) {
    const s = r.s[m];
    return s[LAST] || s[0];
  }
  function columns() {
    const cols = [
      { key: "sel", label: "", nosort: true, render: renderSelect },
      { key: "id", label: "id", value: (r) => r.id, render: renderId },
      { key: "sent", label: "sentences (more / less stereotyping)", value: (r) => r.shown[0].toLowerCase(), render: renderSentences },
      { key: "bias", label: "bias type", value: (r) => r.shown[3], render: (td, r) => td.append(r.shown[3]) },
      { key: "dir", label: "direction", value: (r) => r.shown[2], render: (td, r) => td.append(r.shown[2]) },
      { key: "codes", label: "lint", value: (r) => r.codes.join(" "), render: renderCodes },
      { key: "decision", label: "decision", value: (r) => r.action, render: renderDecision },
    ];
    for (const m of tableModels()) {
      const name = MODELS[m].label;
      for (let v = 0; v < NV; v++) {
        cols.push({
          key: `score-${m}-${v}`,
          label: `${name}: ${NV === 2 ? `${versionShort(v)} ` : ""}more / less (${scoreUnit(m)})`,
          value: (r) => (r.s[m][v] ? r.s[m][v][0] - r.s[m][v][1] : -Infinity),
          render: (td, r) => renderScore(td, r.s[m][v], m),
          cls: "num",
        });
      }
      cols.push({
        key: `verdict-${m}`,
        label: `${name}: verdict`,
        value: (r) => { const x = verdict(lastScore(r, m)); return x === null ? -1 : x; },
        render: (td, r) => renderVerdict(td, r, m),
      });
      cols.push({
        key: `class-${m}`,
        label: `${name}: class at ${thresholdValue()}%`,
        value: (r) => { const c = pairClass(r, m, thresholdValue()); return c === null ? "" : c; },
        render: (td, r) => { const c = pairClass(r, m, thresholdValue()); if (c) td.append(el("span", { cls: `badge cls-${c}`, text: c })); },
      });
      if (FLIPS) {
        cols.push({ key: `flip-${m}`, label: `${name}: flip`, value: (r) => (flipped(r, m) ? 1 : 0), render: (td, r) => { if (flipped(r, m)) td.append(el("span", { cls: "flip", text: "flip" })); } });
      }
    }
    return cols;
  }

  function renderSelect(td, r) {
    const box = el("input", { type: "checkbox", "aria-label": `select pair ${r.id}`, "data-id": String(r.id) });
    box.checked = selected.has(r.id);
    box.addEventListener("change", () => {
      if (box.checked) selected.add(r.id); else selected.delete(r.id);
      td.parentElement.classList.toggle("selected", box.checked);
      updateSelection();
    });
    td.append(box);
  }
  function renderId(td, r) {
    // an item with its own id (StereoSet) is shown by it: its number is derived from that id
    const button = el("button", { type: "button", cls: "open", text: r.item ? r.item.slice(0, 10) + "…" : String(r.id), "data-id": String(r.id), title: r.item ? `item ${r.item}: open its detail` : "open the pair's detail" });
    button.addEventListener("click", () => openDetail(r));
    td.append(button);
  }
  function highlighted(text, spans) {
    const node = el("span", { cls: "text" });
    let cursor = 0;
    for (const [start, end] of spans) {
      if (start > cursor) node.append(document.createTextNode(text.slice(cursor, start)));
      node.append(el("mark", { text: text.slice(start, end) }));
      cursor = end;
    }
    if (cursor < text.length) node.append(document.createTextNode(text.slice(cursor)));
    return node;
  }
  function sentencePair(cells) {
    return [
      el("span", { cls: "sent-line more" }, [el("span", { cls: "role", text: "more" }), highlighted(cells[0], cells[4])]),
      el("span", { cls: "sent-line less" }, [el("span", { cls: "role", text: "less" }), highlighted(cells[1], cells[5])]),
    ];
  }
  function renderSentences(td, r) {
    td.className = "sent";
    if (r.status) td.append(el("span", { cls: `badge ${r.status}`, text: r.status }));
    td.append(...sentencePair(r.shown));
  }
  function renderCodes(td, r) {
    for (const c of r.codes) td.append(el("span", { cls: "badge code", text: c }));
  }
  function votesText(votes) {
    const parts = [];
    for (const [k, v] of Object.entries(votes || {})) {
      if (v && typeof v === "object") parts.push(`${k} ${Object.entries(v).map(([a, b]) => `${a}:${b}`).join(" ")}`);
      else parts.push(`${k} ${v}`);
    }
    return parts.join("; ");
  }
  function renderDecision(td, r) {
    if (!r.decision) return;
    td.append(el("span", { cls: "badge", text: r.action }));
    td.append(el("span", { cls: "votes", text: `${r.decision.n_annotators} annotators, ${r.decision.round}` }));
    td.title = votesText(r.decision.votes);
  }
  function fmt(x, digits) {
    return x === null || x === undefined ? "-" : x.toFixed(digits);
  }
  // A sentence score in the form its method makes readable: a geometric-mean probability
  // (clm-mean, ~1e-4) in scientific notation, a log-probability with 3 decimals unless that
  // would round it to zero; never "0.000 / 0.000" for two different scores.
  function scoreUnit(m) {
    const reduction = (MODELS[m] && MODELS[m].reduction) || "";
    return /probability/.test(reduction) && !/log/.test(reduction) ? "probability" : "log-probability";
  }
  function fmtScore(x, m) {
    if (x === null || x === undefined) return "-";
    if (scoreUnit(m) === "probability" || (x !== 0 && Math.abs(x) < 0.001)) return x.toExponential(3);
    return x.toFixed(3);
  }
  function renderScore(td, score, m) {
    td.className = "num";
    td.textContent = score ? `${fmtScore(score[0], m)} / ${fmtScore(score[1], m)}` : "-";
    td.title = scoreUnit(m);
  }
  function renderVerdict(td, r, m) {
    const parts = [];
    for (let v = 0; v < NV; v++) {
      const x = verdict(r.s[m][v]);
      const word = x === null ? "-" : x ? "biased" : "not biased";
      // translations: each language's verdict under its name, none for a language not scored
      if (!TRANSLATED) parts.push(word);
      else if (SCORED[m][v]) parts.push(`${versionShort(v)}: ${word}`);
    }
    const last = verdict(lastScore(r, m));
    td.append(el("span", { cls: last === null ? "" : `verdict-${last}`, text: parts.join(TRANSLATED ? "; " : " \u2192 ") }));
  }

  // ------------------------------------------------------------------ table
  let COLS = columns();
  function renderHead() {
    const tr = el("tr");
    for (const col of COLS) {
      const th = el("th", { scope: "col", "data-key": col.key, text: col.label, cls: col.nosort ? "nosort" : null });
      if (col.key === state.sort) th.setAttribute("aria-sort", state.dir > 0 ? "ascending" : "descending");
      if (!col.nosort) {
        th.addEventListener("click", () => {
          state.dir = state.sort === col.key ? -state.dir : 1;
          state.sort = col.key;
          applySort();
          renderHead();
          renderBody();
        });
      }
      tr.append(th);
    }
    const thead = $("pair-table").tHead;
    thead.replaceChildren(tr);
  }
  function applySort() {
    const col = COLS.find((c) => c.key === state.sort) || COLS[1];
    const value = col.value;
    const keyed = filtered.map((r) => [value(r), r.id, r]);
    const dir = state.dir;
    keyed.sort((a, b) => (a[0] < b[0] ? -dir : a[0] > b[0] ? dir : a[1] - b[1]));
    filtered = keyed.map((k) => k[2]);
  }
  function renderBody() {
    const pages = Math.max(1, Math.ceil(filtered.length / PAGE_SIZE));
    state.page = Math.min(state.page, pages - 1);
    const start = state.page * PAGE_SIZE;
    const frag = document.createDocumentFragment();
    for (const r of filtered.slice(start, start + PAGE_SIZE)) {
      const tr = el("tr", { "data-id": String(r.id), cls: selected.has(r.id) ? "selected" : null });
      for (const col of COLS) {
        const td = el("td");
        col.render(td, r);
        tr.append(td);
      }
      frag.append(tr);
    }
    if (!filtered.length) {
      frag.append(el("tr", { cls: "empty" }, [el("td", { colspan: String(COLS.length), text: "No pair matches the filters: clear one (or the search) to see pairs again." })]));
    }
    $("pair-table").tBodies[0].replaceChildren(frag);
    $("page").textContent = `page ${state.page + 1} of ${pages}`;
    $("prev").disabled = state.page === 0;
    $("next").disabled = state.page >= pages - 1;
    $("count").textContent = `${filtered.length} of ${ROWS.length} pairs`;
  }
  function refresh() {
    filtered = ROWS.filter((r) => matches(r, false));
    summaryRows = state.cls ? ROWS.filter((r) => matches(r, true)) : filtered;
    applySort();
    state.page = 0;
    renderBody();
    scheduleSummary();
  }

  let searchTimer = 0;
  $("search").addEventListener("input", (e) => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => { state.q = e.target.value.trim().toLowerCase(); refresh(); }, 120);
  });
  for (const [id, key] of [["f-bias", "bias"], ["f-code", "code"], ["f-decision", "decision"], ["f-flip", "flip"], ["f-model", "model"], ["f-class", "cls"]]) {
    $(id).addEventListener("change", (e) => {
      state[key] = e.target.value;
      if (key === "model") {
        COLS = columns();
        if (!COLS.some((c) => c.key === state.sort)) state.sort = "id";
        renderHead();
      }
      refresh();
    });
  }
  $("prev").addEventListener("click", () => { state.page -= 1; renderBody(); });
  $("next").addEventListener("click", () => { state.page += 1; renderBody(); });

  // ------------------------------------------------------------------ summary
  function thresholdValue() {
    return parseFloat($("threshold").value);
  }
  /** Shares and metric per model and version over the filtered pairs (all pairs unfiltered). */
  function summarize(t) {
    const out = [];
    MODELS.forEach((model, m) => {
      for (let v = 0; v < NV; v++) {
        const counts = [0, 0, 0];
        let n = 0, biased = 0;
        const perType = {};
        for (const r of summaryRows) {
          const score = r.s[m][v];
          if (!score) continue;
          n += 1;
          const b = verdict(score);
          biased += b;
          counts[thresholdLabel(score, t)] += 1;
          const type = r.v[v][3];
          const g = perType[type] || (perType[type] = [0, 0]);
          g[0] += b; g[1] += 1;
        }
        let flips = null;
        if (FLIPS && v === 1) flips = summaryRows.reduce((k, r) => k + (flipped(r, m) ? 1 : 0), 0);
        out.push({
          m, v, n, flips,
          metric: n ? (100 * biased) / n : null,
          shares: counts.map((c) => (n ? (100 * c) / n : null)),
          perType,
        });
      }
    });
    return out;
  }
  // curate score --corpus: each model's (pseudo-)perplexity on a corpus, beside its metric
  const HAS_CAPABILITY = MODELS.some((m) => m.capability);
  function capabilityText(c) {
    if (!c) return "";
    const interval = c.low !== undefined ? ` [${fmt(c.low, 2)}, ${fmt(c.high, 2)}]` : c.no_interval ? ` (${c.no_interval})` : "";
    return `${c.measure} ${fmt(c.value, 2)}${interval} on ${c.corpus}`;
  }
  let sharesSized = false;
  function renderShares(summary, t) {
    const table = $("shares");
    const head = el("tr", null, [
      el("th", { text: "model" }), el("th", { text: "version" }), el("th", { text: "pairs scored" }),
      el("th", { text: "metric score %" }),
      ...LABELS.map((l) => el("th", { text: `${l} % (\u00b1${t}%)` })),
      ...(FLIPS ? [el("th", { text: "flips" })] : []),
      ...(HAS_CAPABILITY ? [el("th", { text: "capability (lower is better)" })] : []),
    ]);
    const rows = [head];
    for (const s of summary) {
      if (!charted(s.m, s.v)) continue;
      const cells = [
        el("td", { text: MODELS[s.m].label }), el("td", { text: versionShort(s.v) }), el("td", { text: String(s.n) }),
        el("td", { id: `metric-${s.m}-${s.v}`, "data-value": String(s.metric), text: fmt(s.metric, 2) }),
        ...LABELS.map((l, i) => el("td", { id: `share-${s.m}-${s.v}-${l}`, "data-value": String(s.shares[i]), text: fmt(s.shares[i], 2) })),
      ];
      if (FLIPS) cells.push(el("td", { id: `flips-${s.m}-${s.v}`, text: s.flips === null ? "" : String(s.flips) }));
      if (HAS_CAPABILITY) cells.push(el("td", { id: `capability-${s.m}-${s.v}`, text: capabilityText(MODELS[s.m].capability) }));
      rows.push(el("tr", null, cells));
    }
    table.replaceChildren(...rows);
    if (!sharesSized) {
      // with many columns the charts come first; the numbers are a click away
      sharesSized = true;
      $("shares-box").open = summary.length <= 8;
      $("shares-summary").textContent = `the numbers: shares and metric per column and version (${summary.length} rows)`;
    }
    const scope = summaryRows.length === ROWS.length ? `all ${ROWS.length} pairs` : `the ${summaryRows.length} pairs the filters show${state.cls ? " (but for the class filter)" : ""}`;
    $("summary-scope").textContent = MODELS.length
      ? `Over ${scope}. Metric score: % of pairs whose more stereotyping sentence scores higher (50 = no preference).`
      : "No scores given (curate explore --scores DIR).";
  }

  let plotlyPromise = null;
  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const s = el("script", { src: src });
      s.onload = resolve;
      s.onerror = () => reject(new Error(`cannot load ${src}`));
      document.body.append(s);
    });
  }
  /** plotly.min.js is a deferred script of the page: it runs right after this one. */
  function ensurePlotly() {
    if (!plotlyPromise) {
      plotlyPromise = new Promise((resolve, reject) => {
        if (window.Plotly) return resolve();
        const tag = $("plotly-js");
        tag.addEventListener("load", () => {
          performance.mark("curate-plotly-ready");
          resolve();
        });
        tag.addEventListener("error", () => reject(new Error("cannot load plotly.min.js")));
      });
    }
    return plotlyPromise;
  }
  const CONFIG = { displaylogo: false, displayModeBar: false, responsive: true };
  /** One colour and one marker per score column (model \u00b7 method), the same in every chart
   * and in report.html, so identity never rests on colour alone: each column's style comes
   * with the data (curate/report/palette.py, the one definition). The first of two versions
   * is drawn open. */
  const columnColor = (m) => MODELS[m].color;
  const columnSymbol = (m, v) => MODELS[m].symbol + (NV === 2 && v === 0 ? "-open" : "");
  const columnGlyph = (m) => MODELS[m].glyph;
  /** Columns shown in the charts (the picker) and the one highlighted (-1: none). */
  const chartCols = new Set(MODELS.map((_, i) => i));
  let highlight = -1;
  const opacity = (m) => (highlight < 0 || highlight === m ? 1 : 0.18);
  const COLORS = { biased: "#cf222e", neutral: "#8c959f", "non-biased": "#1a7f37" };
  /** Text for plotly, which reads a subset of HTML in labels: escaped, and broken into lines
   * of about `width` characters at spaces so long column names wrap instead of being cut. */
  function plotText(text, width) {
    const safe = String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    if (!width) return safe;
    const lines = [];
    let line = "";
    for (const word of safe.split(" ")) {
      if (line && line.length + 1 + word.length > width) { lines.push(line); line = word; } else line = line ? `${line} ${word}` : word;
    }
    if (line) lines.push(line);
    return lines.join("<br>");
  }
  function groupName(s) {
    return NV === 2 || MODELS.length > 1 ? `${MODELS[s.m].label} \u00b7 ${versionShort(s.v)}` : MODELS[s.m].label;
  }
  /** 95% Wilson interval of k of n, in percent. */
  function wilson(k, n) {
    if (!n) return [null, null];
    const z = 1.959964, p = k / n, d = 1 + (z * z) / n;
    const c = (p + (z * z) / (2 * n)) / d, h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
    return [100 * (c - h), 100 * (c + h)];
  }
  const ROW_PX = 22;
  function drawCharts(all, t) {
    if (!MODELS.length) return;
    const summary = all.filter((s) => chartCols.has(s.m) && charted(s.m, s.v));
    const many = summary.length > 4;
    for (const id of ["chart-threshold", "chart-metric", "chart-curves"]) $(id).classList.toggle("wide", many);
    $("chart-heat").parentElement.classList.toggle("wide", many);
    if (!summary.length) {
      for (const id of ["chart-threshold", "chart-metric", "chart-heat", "chart-curves", "chart-radar", "chart-capability"]) window.Plotly.purge(id);
      $("charts-note").textContent = "No column is ticked in the picker: tick one to draw the charts.";
      return;
    }
    $("charts-note").textContent = "";
    const groups = summary.map((s) => plotText(groupName(s)));
    const height = (rows) => 120 + ROW_PX * rows;
    // the threshold view: one horizontal stacked bar per (column, version), labels never overlap
    const thresholdTraces = LABELS.map((label, i) => ({
      type: "bar", orientation: "h", name: label, y: groups, x: summary.map((s) => s.shares[i]),
      marker: { color: COLORS[label], opacity: summary.map((s) => opacity(s.m)) }, customdata: summary.map((s) => [s.m, s.v]),
      text: summary.map((s) => (s.shares[i] === null || s.shares[i] < 6 ? "" : s.shares[i].toFixed(0))),
      textposition: "inside", insidetextanchor: "middle", constraintext: "none",
      hovertemplate: `%{y}<br>${label}: %{x:.1f}%<extra></extra>`,
    }));
    window.Plotly.react("chart-threshold", thresholdTraces, {
      barmode: "stack", title: { text: `Threshold view at ${t}%<br><sub>click a segment to list its pairs</sub>`, font: { size: 14 } },
      xaxis: { title: { text: "% of pairs", standoff: 4 }, range: [0, 100], side: "top" },
      yaxis: { automargin: true, autorange: "reversed", tickfont: { size: 11 }, type: "category" },
      margin: { t: 125, r: 10, b: 20, l: 10 }, legend: { orientation: "h", y: 1.0, yanchor: "bottom", x: 1, xanchor: "right" },
      height: height(summary.length) + 50,
    }, CONFIG);
    const types = Array.from(new Set(summary.flatMap((s) => Object.keys(s.perType)))).sort();
    const typeValue = (s, ty) => (ty === "overall" ? s.metric : s.perType[ty] ? (100 * s.perType[ty][0]) / s.perType[ty][1] : null);
    const typeCounts = (s, ty) => (ty === "overall" ? [Math.round((s.metric || 0) * s.n / 100), s.n] : s.perType[ty] || [0, 0]);
    // the dot plot: the metric with its 95% interval, one row per (column, version), sorted
    const sorted = summary.slice().sort((a, b) => (b.metric ?? -1) - (a.metric ?? -1));
    const metricTraces = sorted.map((s) => {
      const [lo, hi] = wilson(Math.round((s.metric || 0) * s.n / 100), s.n);
      return {
        type: "scatter", mode: "markers", name: plotText(groupName(s)), y: [plotText(groupName(s))], x: [s.metric],
        error_x: { type: "data", symmetric: false, array: [hi === null ? 0 : hi - s.metric], arrayminus: [lo === null ? 0 : s.metric - lo], color: columnColor(s.m), thickness: 1.5 },
        marker: { color: columnColor(s.m), symbol: columnSymbol(s.m, s.v), size: 10, line: { color: columnColor(s.m), width: 2 } },
        opacity: opacity(s.m), customdata: [""], legendgroup: String(s.m), showlegend: false,
        hovertemplate: `${plotText(groupName(s))}<br>metric %{x:.1f}% [${fmt(lo, 1)}, ${fmt(hi, 1)}] over ${s.n} pairs<extra></extra>`,
      };
    });
    window.Plotly.react("chart-metric", metricTraces, {
      title: { text: "Metric score with its 95% interval, sorted<br><sub>50 = no preference; click a dot to list all pairs</sub>", font: { size: 14 } },
      xaxis: { title: { text: "% preferring sent_more", standoff: 4 }, range: [0, 100], side: "top" },
      yaxis: { automargin: true, type: "category", categoryorder: "array", categoryarray: sorted.map((s) => plotText(groupName(s))), autorange: "reversed", tickfont: { size: 11 } },
      shapes: [{ type: "line", yref: "paper", y0: 0, y1: 1, x0: 50, x1: 50, line: { dash: "dot", color: "#59636e" } }],
      margin: { t: 125, r: 20, b: 20, l: 10 }, height: height(summary.length) + 50,
    }, CONFIG);
    drawHeat(summary, types, typeValue, typeCounts);
    drawCurves(t);
    drawRadar(summary, types);
    drawCapability(summary);
    const chart = $("chart-metric");
    if (!chart.dataset.bound) {
      chart.dataset.bound = "1";
      const toBias = (ev) => {
        const type = ev.points[0].customdata;
        state.bias = typeof type === "string" ? type : "";
        $("f-bias").value = state.bias;
        refresh();
        $("pairs").scrollIntoView();
      };
      chart.on("plotly_click", toBias);
      $("chart-heat").on("plotly_click", (ev) => toBias({ points: [{ customdata: ev.points[0].x === "overall" ? "" : ev.points[0].x }] }));
      // a class segment of a column: list the pairs of that class under that column
      $("chart-threshold").on("plotly_click", (ev) => showClass(ev.points[0].customdata[0], LABELS[ev.points[0].curveNumber]));
    }
  }
  /** The heat map: rows (column, version) x bias types, value and 95% interval on hover,
   * rows sorted by the picked bias type (or by label). */
  function drawHeat(summary, types, typeValue, typeCounts) {
    const xs = ["overall", ...types];
    const sel = $("heat-sort");
    const wanted = ["label", ...xs];
    if (sel.options.length !== wanted.length || Array.from(sel.options).some((o, i) => o.value !== wanted[i])) {
      const keep = sel.value;
      sel.replaceChildren(...wanted.map((x) => option(x, x === "label" ? "column label" : x)));
      sel.value = wanted.includes(keep) ? keep : "overall";
    }
    const key = sel.value || "overall";
    const rows = summary.slice();
    if (key === "label") rows.sort((a, b) => groupName(a).localeCompare(groupName(b)));
    else rows.sort((a, b) => (typeValue(b, key) ?? -1) - (typeValue(a, key) ?? -1));
    const z = rows.map((s) => xs.map((ty) => typeValue(s, ty)));
    const custom = rows.map((s) => xs.map((ty) => {
      const [k, n] = typeCounts(s, ty);
      const [lo, hi] = wilson(k, n);
      return [n, fmt(lo, 1), fmt(hi, 1)];
    }));
    const ys = rows.map((s) => plotText(`${columnGlyph(s.m)} ${groupName(s)}`));
    window.Plotly.react("chart-heat", [{
      type: "heatmap", x: xs, y: ys, z: z, customdata: custom,
      text: z.map((r) => r.map((v) => (v === null ? "" : v.toFixed(0)))), texttemplate: "%{text}", textfont: { size: 10 },
      colorscale: "RdBu", zmin: 0, zmax: 100, zmid: 50, xgap: 1, ygap: 1,
      colorbar: { title: { text: "%" }, thickness: 12 },
      hovertemplate: "%{y}<br>%{x}: %{z:.1f}% [%{customdata[1]}, %{customdata[2]}] over %{customdata[0]} pairs<extra></extra>",
    }], {
      title: { text: `Metric score by bias type (rows sorted by ${key === "label" ? "label" : key})<br><sub>50 = no preference; hover for the 95% interval; click a cell to list its pairs</sub>`, font: { size: 14 } },
      // bias types wrapped at their hyphens, never rotated into each other
      xaxis: { side: "top", automargin: true, tickfont: { size: 11 }, tickangle: 0, tickmode: "array", tickvals: xs, ticktext: xs.map((ty) => plotText(ty.replace(/-/g, "- "), 8).replace(/- /g, "-")) },
      yaxis: { automargin: true, autorange: "reversed", tickfont: { size: 11 }, type: "category" },
      shapes: highlight < 0 ? [] : rows.map((s, i) => (s.m === highlight ? { type: "rect", xref: "paper", x0: 0, x1: 1, y0: i - 0.5, y1: i + 0.5, line: { color: "#000", width: 2 } } : null)).filter(Boolean),
      margin: { t: 130, r: 10, b: 10, l: 10 }, height: 150 + ROW_PX * rows.length,
    }, CONFIG);
  }
  /** Filter the table to the pairs of `label` at the slider's value under column m. */
  function showClass(m, label) {
    state.model = String(m);
    state.cls = label;
    $("f-model").value = state.model;
    $("f-class").value = label;
    COLS = columns();
    if (!COLS.some((c) => c.key === state.sort)) state.sort = "id";
    renderHead();
    refresh();
    $("pairs").scrollIntoView();
  }
  /** Bias against capability (curate score --corpus): each column's metric against its model's
   * (pseudo-)perplexity on the corpus, one dot per (column, version). */
  function drawCapability(summary) {
    const shown = summary.filter((s) => MODELS[s.m].capability && s.metric !== null);
    if (!HAS_CAPABILITY || !shown.length) {
      $("chart-capability").hidden = true;
      return;
    }
    $("chart-capability").hidden = false;
    const traces = shown.map((s) => {
      const c = MODELS[s.m].capability;
      return {
        type: "scatter", mode: "markers", name: plotText(groupName(s)), x: [c.value], y: [s.metric],
        marker: { color: columnColor(s.m), symbol: columnSymbol(s.m, s.v), size: 11 }, opacity: opacity(s.m),
        error_x: c.low !== undefined ? { type: "data", symmetric: false, array: [c.high - c.value], arrayminus: [c.value - c.low], color: columnColor(s.m), thickness: 1 } : undefined,
        hovertemplate: `${plotText(groupName(s))}<br>${plotText(c.measure)} %{x:.2f} on ${plotText(c.corpus)}<br>metric %{y:.1f}%<extra></extra>`,
      };
    });
    window.Plotly.react("chart-capability", traces, {
      title: { text: "Bias against capability<br><sub>x: (pseudo-)perplexity on the corpus, lower is better; y: metric, 50 = no preference</sub>", font: { size: 14 } },
      xaxis: { title: { text: plotText(shown.map((s) => MODELS[s.m].capability.measure).filter((v, i, a) => a.indexOf(v) === i).join(" / ")) } },
      yaxis: { title: { text: "% preferring sent_more" } },
      shapes: [{ type: "line", xref: "paper", x0: 0, x1: 1, y0: 50, y1: 50, line: { dash: "dot", color: "#59636e" } }],
      showlegend: true, height: 420,
    }, CONFIG);
  }
  /** Murphy's radar: per column, the metric score of each bias type (last version). */
  function drawRadar(summary, types) {
    const last = summary.filter((s) => s.v === LAST || !summary.some((o) => o.m === s.m && o.v > s.v));
    if (types.length < 3 || last.length > 8) {
      // more than 8 lines on one radar cannot be told apart: the heat map shows the same
      $("chart-radar").hidden = true;
      return;
    }
    $("chart-radar").hidden = false;
    const traces = last.map((s) => {
      const r = types.map((ty) => (s.perType[ty] ? (100 * s.perType[ty][0]) / s.perType[ty][1] : null));
      return {
        type: "scatterpolar", mode: "lines+markers", name: plotText(MODELS[s.m].label),
        line: { color: columnColor(s.m) }, marker: { color: columnColor(s.m), symbol: columnSymbol(s.m, 1), size: 8 }, opacity: opacity(s.m),
        r: [...r, r[0]], theta: [...types, types[0]].map((x) => plotText(x)),
        hovertemplate: `${plotText(MODELS[s.m].label)}<br>%{theta}: %{r:.1f}%<extra></extra>`,
      };
    });
    window.Plotly.react("chart-radar", traces, {
      title: { text: `Metric score per bias type, ${VERSIONS[LAST]} (50 = no preference)`, font: { size: 14 } },
      polar: { radialaxis: { range: [0, 100], tickfont: { size: 10 } }, angularaxis: { tickfont: { size: 11 } } },
      margin: { t: 50, r: 40, b: 40, l: 40 }, legend: { orientation: "h", y: -0.1, yanchor: "top" },
      height: 380 + 22 * Math.ceil(last.length / 3),
    }, CONFIG);
  }
  /** The threshold-view curves of the diff-report (0-20%), over the filtered pairs; computed
   * again only when the filters change, while the slider only moves the marker. */
  let curveCache = null;
  function thresholdCurves() {
    if (curveCache && curveCache.rows === summaryRows) return curveCache.series;
    const th = DATA.threshold;
    const steps = [];
    for (let i = 0; th.min + i * th.step <= th.max + 1e-9; i++) steps.push(th.min + i * th.step);
    const series = [];
    MODELS.forEach((model, m) => {
      for (let v = 0; v < NV; v++) {
        const scores = summaryRows.map((r) => r.s[m][v]).filter(Boolean);
        const shares = LABELS.map(() => []);
        for (const t of steps) {
          const counts = [0, 0, 0];
          for (const s of scores) counts[thresholdLabel(s, t)] += 1;
          counts.forEach((c, i) => shares[i].push(scores.length ? (100 * c) / scores.length : null));
        }
        series.push({ m, v, steps, shares });
      }
    });
    curveCache = { rows: summaryRows, series };
    return series;
  }
  /** More series than this in the three class panels overlap into a tangle: the curves are then
   * drawn as small multiples, one panel per column (drawCurvesByColumn). */
  const CURVE_SERIES = 8;
  function drawCurves(t) {
    const dashes = ["dot", "solid"];
    const shown = thresholdCurves().filter((s) => chartCols.has(s.m) && charted(s.m, s.v));
    if (shown.length > CURVE_SERIES) return drawCurvesByColumn(t, shown);
    const traces = [];
    for (const s of shown) {
      const name = plotText(groupName(s));
      LABELS.forEach((label, i) => traces.push({
        type: "scatter", mode: "lines+markers", x: s.steps, y: s.shares[i], xaxis: `x${i ? i + 1 : ""}`, yaxis: `y${i ? i + 1 : ""}`,
        name: name, meta: [label], legendgroup: `${s.m}-${s.v}`, showlegend: i === 0,
        line: { color: columnColor(s.m), dash: NV === 2 ? dashes[s.v % 2] : "solid", width: 1.5 },
        marker: { symbol: columnSymbol(s.m, s.v), size: 5, color: columnColor(s.m), maxdisplayed: 6 }, opacity: opacity(s.m),
        hovertemplate: `${name}<br>${label} at %{x}%: %{y:.1f}%<extra></extra>`,
      }));
    }
    const marker = (i) => ({ type: "line", xref: `x${i ? i + 1 : ""}`, x0: t, x1: t, yref: `y${i ? i + 1 : ""} domain`, y0: 0, y1: 1, line: { color: "#0969da", width: 2 } });
    const layout = {
      title: { text: `Threshold view, 0-20%: one panel per class${NV === 2 ? ` (dotted ${versionShort(0)}, solid ${versionShort(1)})` : ""}<br><sub>click a legend entry to hide a column in all three panels</sub>`, font: { size: 14 } },
      grid: { rows: 1, columns: 3, pattern: "independent" },
      annotations: LABELS.map((label, i) => ({ text: `<b>${label}</b>`, xref: `x${i ? i + 1 : ""} domain`, yref: `y${i ? i + 1 : ""} domain`, x: 0.5, y: 1.02, showarrow: false, yanchor: "bottom" })),
      shapes: LABELS.map((_, i) => marker(i)),
      // t: room for the two title lines above the class names of the panels
      margin: { t: 100, r: 10, b: 40, l: 50 }, hovermode: "closest",
      // below the panels' axis titles ("threshold (%)"), which a legend at -0.15 covered
      legend: { orientation: "h", y: -0.3, yanchor: "top", font: { size: 11 } },
      height: 400 + 20 * Math.ceil(traces.length / 3 / 3),
    };
    LABELS.forEach((_, i) => {
      layout[`xaxis${i ? i + 1 : ""}`] = { title: { text: "threshold (%)" } };
      layout[`yaxis${i ? i + 1 : ""}`] = { range: [0, 100], title: i ? undefined : { text: "% of pairs" } };
    });
    window.Plotly.react("chart-curves", traces, layout, CONFIG);
  }
  /** Small multiples of the threshold-view curves: one panel per column (its glyph and label
   * in its colour above it), in each the three classes in their colours, the first version
   * dotted and the second solid. Panels per row grow so that the chart stays within two
   * screens (1,800 px) however many columns the picker shows; the legend has six entries. */
  const CURVES_MAX_PX = 1800;
  const PANEL_PX = 190;
  function drawCurvesByColumn(t, shown) {
    const div = $("chart-curves");
    const cols = Array.from(new Set(shown.map((s) => s.m)));
    const width = div.clientWidth || 1200;
    const top = 124;
    let per = Math.max(1, Math.min(cols.length, Math.floor(width / 300)));
    while (top + 60 + Math.ceil(cols.length / per) * PANEL_PX > CURVES_MAX_PX) per += 1;
    const rows = Math.ceil(cols.length / per);
    // label width in characters the panel holds (about 6.5 px a character at 11 px)
    const chars = Math.max(12, Math.floor(width / per / 6.5) - 2);
    const dashes = NV === 2 ? ["dot", "solid"] : ["solid"];
    const traces = [];
    const layout = {
      title: { text: `Threshold view, 0-20%: one panel per column${NV === 2 ? ` (dotted ${plotText(versionShort(0))}, solid ${plotText(versionShort(1))})` : ""}<br><sub>classes in colour; the blue line is the slider; click a legend entry to hide that class in every panel</sub>`, font: { size: 14 },
        // at the top, so that the legend below it and the panels' names below that never meet it
        y: 1, yref: "container", yanchor: "top", pad: { t: 18 } },
      grid: { rows: rows, columns: per, pattern: "independent", xgap: 0.12, ygap: 0.32 },
      annotations: [], shapes: [], hovermode: "closest",
      margin: { t: top, r: 10, b: 50, l: 50 },
      legend: { orientation: "h", y: 1.0, yanchor: "bottom", x: 1, xanchor: "right", yref: "container", font: { size: 11 } },
      height: top + 60 + rows * PANEL_PX,
    };
    layout.legend.y = 1 - 60 / layout.height;
    layout.legend.yanchor = "top";
    cols.forEach((m, k) => {
      const ax = k ? String(k + 1) : "";
      for (const s of shown.filter((x) => x.m === m)) {
        const name = plotText(groupName(s));
        LABELS.forEach((label, i) => traces.push({
          type: "scatter", mode: "lines", x: s.steps, y: s.shares[i], xaxis: `x${ax}`, yaxis: `y${ax}`,
          name: `${label}${NV === 2 ? ` \u00b7 ${plotText(versionShort(s.v))}` : ""}`, meta: [label, m, s.v],
          legendgroup: `${label}-${s.v}`, showlegend: k === 0,
          line: { color: COLORS[label], dash: dashes[s.v % dashes.length], width: 1.5 }, opacity: opacity(m),
          hovertemplate: `${name}<br>${label} at %{x}%: %{y:.1f}%<extra></extra>`,
        }));
      }
      const below = k + per < cols.length;
      layout[`xaxis${ax}`] = { range: [DATA.threshold.min, DATA.threshold.max], tickfont: { size: 10 }, title: below ? undefined : { text: "threshold (%)", font: { size: 11 }, standoff: 2 } };
      layout[`yaxis${ax}`] = { range: [0, 100], tickvals: [0, 50, 100], tickfont: { size: 10 }, title: k % per ? undefined : { text: "% of pairs", font: { size: 11 }, standoff: 2 } };
      layout.annotations.push({
        text: plotText(`${columnGlyph(m)} ${MODELS[m].label}`, chars), font: { size: 11, color: columnColor(m) },
        xref: `x${ax} domain`, yref: `y${ax} domain`, x: 0, xanchor: "left", y: 1.02, yanchor: "bottom", align: "left", showarrow: false,
        bgcolor: highlight === m ? "#fff1a8" : undefined,
      });
      layout.shapes.push({ type: "line", xref: `x${ax}`, x0: t, x1: t, yref: `y${ax} domain`, y0: 0, y1: 1, line: { color: "#0969da", width: 1.5 } });
    });
    window.Plotly.react("chart-curves", traces, layout, CONFIG);
  }
  /** The column picker of the charts: tick to show, click a name to highlight it. */
  function buildChartPicker() {
    const box = $("chart-columns");
    MODELS.forEach((model, m) => {
      const input = el("input", { type: "checkbox", value: String(m), "data-col": String(m) });
      input.checked = true;
      input.addEventListener("change", () => {
        if (input.checked) chartCols.add(m); else chartCols.delete(m);
        scheduleSummary();
      });
      const swatch = el("span", { cls: "swatch", text: columnGlyph(m) });
      swatch.style.color = columnColor(m);
      const name = el("button", { type: "button", cls: "pick-name", text: model.label, title: "highlight this column in every chart" });
      name.addEventListener("click", () => {
        highlight = highlight === m ? -1 : m;
        for (const b of document.querySelectorAll("#chart-columns .pick-name")) b.classList.toggle("on", Number(b.closest("label").dataset.col) === highlight);
        scheduleSummary();
      });
      box.append(el("label", { "data-col": String(m) }, [input, swatch, name]));
    });
    $("cols-all").addEventListener("click", () => { MODELS.forEach((_, m) => chartCols.add(m)); for (const b of box.querySelectorAll("input")) b.checked = true; scheduleSummary(); });
    $("cols-none").addEventListener("click", () => { chartCols.clear(); for (const b of box.querySelectorAll("input")) b.checked = false; scheduleSummary(); });
    $("heat-sort").addEventListener("change", () => scheduleSummary());
    if (!MODELS.length) $("chart-columns-box").hidden = true;
  }
  let summaryPending = false;
  function updateSummary() {
    summaryPending = false;
    const t = thresholdValue();
    $("threshold-value").textContent = `${t}%`;
    const summary = summarize(t);
    renderShares(summary, t);
    return ensurePlotly().then(() => drawCharts(summary, t));
  }
  function scheduleSummary() {
    if (summaryPending) return;
    summaryPending = true;
    requestAnimationFrame(() => {
      updateSummary().then(() => {
        const api = window.curateExplore;
        if (!api.chartsReady) api.chartsReadyAt = performance.now();
        api.chartsReady = true;
      });
    });
  }
  $("threshold").addEventListener("input", () => {
    // the class column and filter follow the slider
    COLS = columns();
    renderHead();
    if (state.cls) refresh(); else { renderBody(); scheduleSummary(); }
  });
  $("threshold").value = String(DATA.threshold.default);

  // ------------------------------------------------------------------ detail
  const TOKENS = {};
  const tokenWaiters = {};
  window.curateTokens = function (m, data) {
    TOKENS[m] = data;
    for (const resolve of tokenWaiters[m] || []) resolve(data);
    delete tokenWaiters[m];
  };
  function loadTokens(m) {
    if (TOKENS[m]) return Promise.resolve(TOKENS[m]);
    const first = !tokenWaiters[m];
    const wait = new Promise((resolve) => (tokenWaiters[m] = [...(tokenWaiters[m] || []), resolve]));
    if (first) loadScript(`tokens/${m}.js`).catch(() => window.curateTokens(m, {}));
    return wait;
  }
  function section(title, children) {
    return [el("h3", { text: title }), ...children];
  }
  function simpleTable(header, rows) {
    return el("table", null, [
      el("tr", null, header.map((h) => el("th", { text: h }))),
      ...rows.map((row) => el("tr", null, row.map((c) => el("td", { text: c === null || c === undefined ? "" : String(c) })))),
    ]);
  }
  function describeFields(fields) {
    return fields ? Object.entries(fields).map(([k, v]) => `${k}: ${v}`).join("; ") : "(none)";
  }
  function openDetail(r) {
    const body = $("detail-body");
    const parts = [el("h2", { id: "detail-title", text: r.item ? `Item ${r.item} (pair ${r.id})` : `Pair ${r.id}` })];
    if (r.status) parts.push(el("span", { cls: `badge ${r.status}`, text: r.status }));
    VERSIONS.forEach((label, v) => {
      const cells = r.v[v];
      if (v > 0 && cells && cells === r.v[0]) {
        parts.push(el("p", { cls: "note", text: `${label}: unchanged` }));
        return;
      }
      parts.push(el("h3", { text: `${versionName(v)}${cells ? `: ${cells[3]}, ${cells[2]}` : ": not in this version"}` }));
      if (cells) parts.push(el("div", { cls: "sentences" }, sentencePair(cells)));
    });
    parts.push(...section("Findings", [r.f ? el("ul", { cls: "findings" }, r.f.map((f) => el("li", null, [el("span", { cls: "badge code", text: f[0] }), ` ${f[1]}: ${f[2]}`]))) : el("p", { cls: "note", text: "No lint finding." })]));
    parts.push(...section("Decisions", [r.d ? simpleTable(["round", "action", "reason", "annotators", "votes"], r.d.map((d) => [d.round, d.action, d.reason, d.n_annotators, votesText(d.votes)])) : el("p", { cls: "note", text: "No decision." })]));
    parts.push(...section("Annotator answers", [r.a ? simpleTable(["round", "annotator", "sent_more", "sent_less", "minimal", "bias type", "corrections"], r.a.map((a) => [a.round, a.annotator, a.sent_more, a.sent_less, a.minimal, a.bias_type, [a.corrected_more, a.corrected_less].filter(Boolean).join(" / ")])) : el("p", { cls: "note", text: "No annotator answer." })]));
    const scoreRows = [];
    MODELS.forEach((model, m) => VERSIONS.forEach((label, v) => {
      const s = r.s[m][v];
      if (s) scoreRows.push([model.label, label, scoreUnit(m), fmtScore(s[0], m), fmtScore(s[1], m), verdict(s) ? "biased" : "not biased", thresholdLabelName(s)]);
    }));
    parts.push(...section("Scores", [scoreRows.length ? simpleTable(["column", "version", "unit", "sent_more", "sent_less", "verdict", `at ${thresholdValue()}%`], scoreRows) : el("p", { cls: "note", text: "No score." })]));
    const tokenBox = el("div", { id: "detail-tokens" });
    parts.push(...section("Per-token log-probabilities", [tokenBox]));
    parts.push(...section("Change history", [r.c ? el("ul", { cls: "changes" }, r.c.map((c) => el("li", null, [
      el("strong", { text: `${c.version}: ${c.change}` }),
      ` ${describeFields(c.old)} \u2192 ${describeFields(c.new)}`,
      ...(c.lint || []).map((f) => el("div", { cls: "note", text: `lint fix ${f.code} ${f.rule} on ${f.field}: ${JSON.stringify(f.old)} \u2192 ${JSON.stringify(f.new)}` })),
      ...(c.decisions || []).map((d) => el("div", { cls: "note", text: `decision ${d.action} from ${d.source} (${d.file} line ${d.line})${d.reason ? `: ${d.reason}` : ""}` })),
    ]))) : el("p", { cls: "note", text: "Unchanged in the releases given." })]));
    body.replaceChildren(...parts);
    $("detail").hidden = false;
    $("detail-close").focus();
    drawTokens(r, tokenBox);
  }
  function thresholdLabelName(s) {
    return LABELS[thresholdLabel(s, thresholdValue())];
  }
  /** A token as a reader writes it: the tokenizers' word markers (GPT-2's \u0120, SentencePiece's
   * \u2581, WordPiece's ##) taken off. */
  function shownToken(token) {
    return String(token).replace(/^[\u0120\u2581]/, "").replace(/^##/, "").replace(/\u010a/g, "\\n").replace(/<\/w>$/, "") || "\u2423";
  }
  /** Both sentences' tokens in one row of slots: shared tokens (difflib-style longest common
   * runs, as the scorer aligns them) in one slot, changed tokens in slots of their own. */
  function alignTokens(more, less) {
    const a = more.map((t) => t[0]), b = less.map((t) => t[0]);
    const n = a.length, k = b.length;
    const lcs = Array.from({ length: n + 1 }, () => new Array(k + 1).fill(0));
    for (let i = n - 1; i >= 0; i--) for (let j = k - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    const slots = [];
    let i = 0, j = 0;
    while (i < n || j < k) {
      if (i < n && j < k && a[i] === b[j]) slots.push([i++, j++]);
      else if (j >= k || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) slots.push([i++, null]);
      else slots.push([null, j++]);
    }
    return slots;
  }
  const REDUCTIONS = { sum: "sum", mean: "mean" };
  function drawTokens(r, box) {
    const wanted = MODELS.map((m, i) => i).filter((i) => MODELS[i].tokens && r.s[i].some(Boolean));
    if (!wanted.length) {
      box.append(el("p", { cls: "note", text: "No per-token data (no score cache or model tokenizer was available to curate explore)." }));
      return;
    }
    Promise.all([ensurePlotly(), ...wanted.map(loadTokens)]).then(() => {
      for (const m of wanted) {
        const model = MODELS[m];
        const entries = (TOKENS[m] || {})[String(r.id)] || [];
        entries.forEach((entry, v) => {
          if (!entry || (v > 0 && r.v[v] === r.v[0])) return;
          const div = el("div", { cls: "token-chart aligned", "data-model": String(m), "data-version": String(v) });
          const scores = r.s[m][v];
          const how = `${REDUCTIONS[model.reduction] || model.reduction || "score"} over ${model.counted || "the counted tokens"}`;
          box.append(el("p", { cls: "note token-caption", text: `${model.label} \u00b7 ${VERSIONS[v]}: sent_more ${fmtScore(scores ? scores[0] : null, m)}, sent_less ${fmtScore(scores ? scores[1] : null, m)} (${scoreUnit(m)}) = the ${how}. Bars: log-probability of each token the method counts; \u00d7: a token it does not count; shaded: tokens that differ between the sentences.` }));
          box.append(div);
          const slots = alignTokens(entry.more, entry.less);
          const xs = slots.map((_, x) => x);
          const tick = slots.map(([i, j]) => {
            if (i !== null && j !== null) return plotText(shownToken(entry.more[i][0]));
            return i !== null ? plotText(shownToken(entry.more[i][0])) : plotText(shownToken(entry.less[j][0]));
          });
          const side = (name, idx, color) => {
            const tok = (slot) => (slot[idx] === null ? null : (name === "more" ? entry.more : entry.less)[slot[idx]]);
            return [{
              type: "bar", name: `sent_${name}`, x: xs, y: slots.map((sl) => { const t = tok(sl); return t ? t[1] : null; }),
              marker: { color: color }, text: slots.map((sl) => { const t = tok(sl); return t ? plotText(shownToken(t[0])) : ""; }),
              textposition: "none", hovertemplate: `sent_${name} %{text}: %{y:.3f}<extra></extra>`,
            }, {
              type: "scatter", mode: "markers", name: `sent_${name}: not counted`, showlegend: false, x: xs,
              y: slots.map((sl) => { const t = tok(sl); return t && t[1] === null ? 0 : null; }),
              marker: { symbol: "x", color: color, size: 9 }, hovertemplate: `sent_${name}: not counted<extra></extra>`,
            }];
          };
          const changed = slots.map((sl, x) => (sl[0] === null || sl[1] === null ? x : null)).filter((x) => x !== null);
          window.Plotly.newPlot(div, [...side("more", 0, "#cf222e"), ...side("less", 1, "#0969da")], {
            barmode: "group", showlegend: true, height: 300,
            xaxis: { tickmode: "array", tickvals: xs, ticktext: tick, tickangle: slots.length > 14 ? -45 : 0, automargin: true },
            yaxis: { title: { text: "log-probability" } },
            shapes: changed.map((x) => ({ type: "rect", xref: "x", yref: "paper", x0: x - 0.5, x1: x + 0.5, y0: 0, y1: 1, fillcolor: "#fff1a8", opacity: 0.6, line: { width: 0 }, layer: "below" })),
            margin: { t: 10, r: 10, b: 40, l: 60 }, legend: { orientation: "h", y: 1.02, yanchor: "bottom", x: 0 },
          }, CONFIG);
        });
      }
      box.dataset.ready = "1";
    });
  }
  /** `index.html#pair-12` opens pair 12 (links from report.html). */
  function openFromHash() {
    const match = /^#pair-(\d+)$/.exec(window.location.hash);
    const row = match && ROWS.find((r) => r.id === Number(match[1]));
    if (row) openDetail(row);
  }
  function closeDetail() {
    $("detail").hidden = true;
  }
  $("detail-close").addEventListener("click", closeDetail);
  $("detail").addEventListener("click", (e) => { if (e.target === $("detail")) closeDetail(); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeDetail(); });

  // ------------------------------------------------------------------ reader reports
  const FAMILIES = [...DATA.families, { code: "R", name: "other" }];
  for (const f of FAMILIES) {
    const box = el("input", { type: "checkbox", value: f.code, "data-family": f.code });
    $("report-families").append(el("label", { title: f.name }, [box, ` ${f.code} ${f.name}`]));
  }
  function updateSelection() {
    $("selected-count").textContent = `${selected.size} selected`;
    $("report-download").disabled = selected.size === 0;
  }
  $("select-page").addEventListener("click", () => {
    const start = state.page * PAGE_SIZE;
    for (const r of filtered.slice(start, start + PAGE_SIZE)) selected.add(r.id);
    renderBody();
    updateSelection();
  });
  $("clear-selection").addEventListener("click", () => { selected.clear(); renderBody(); updateSelection(); });
  /** The findings JSON lines `curate annotations push --findings FILE` reads: one finding per
   * selected pair and chosen family (code = the family letter, R when none is chosen). */
  function reportText() {
    const families = Array.from(document.querySelectorAll("#report-families input:checked")).map((b) => b.value);
    const codes = families.length ? families : ["R"];
    const reason = $("report-reason").value.trim();
    const names = Object.fromEntries(FAMILIES.map((f) => [f.code, f.name]));
    const lines = [];
    const items = Object.fromEntries(ROWS.filter((r) => r.item).map((r) => [r.id, r.item]));
    for (const id of Array.from(selected).sort((a, b) => a - b)) {
      for (const code of codes) {
        lines.push(JSON.stringify({
          pair_id: id, ...(items[id] ? { item_id: items[id] } : {}), code: code, rule: "reader-report",
          message: `reader report (${names[code] || code}): ${reason || "no reason given"}`,
        }));
      }
    }
    return lines.join("\n") + "\n";
  }
  $("report-download").addEventListener("click", () => {
    const blob = new Blob([reportText()], { type: "application/x-ndjson" });
    const url = URL.createObjectURL(blob);
    const a = el("a", { href: url, download: "curate-reader-report.jsonl" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });

  /** Untick the table's last score columns until it fits its box (at start and when the
   * window narrows); the note says how many the picker holds. */
  function fitTable() {
    const wrap = $("pair-table").parentElement;
    let dropped = false;
    while ($("pair-table").scrollWidth > wrap.clientWidth + 1 && tableCols.size > 1) {
      const last = Math.max(...tableCols);
      tableCols.delete(last);
      const box = document.querySelector(`#table-columns input[data-col="${last}"]`);
      if (box) box.checked = false;
      COLS = columns();
      if (!COLS.some((c) => c.key === state.sort)) state.sort = "id";
      renderHead();
      renderBody();
      dropped = true;
    }
    const shown = state.model === "" ? tableCols.size : 1;
    $("table-note").textContent = MODELS.length > shown
      ? `The table shows ${shown} of ${MODELS.length} score columns${dropped ? " (as many as fit the window)" : ""}; pick others under "score columns in the table", or one with the model filter.`
      : "";
  }

  // ------------------------------------------------------------------ start
  const nModels = new Set(MODELS.map((m) => m.name)).size;
  const counted = `${MODELS.length} score column${MODELS.length === 1 ? "" : "s"} from ${nModels} model${nModels === 1 ? "" : "s"}`;
  const scored = MODELS.length ? `${counted}: ${MODELS.map((m) => m.label).join(", ")}` : "no scores";
  $("about").textContent = `${ROWS.length} pairs; ${TRANSLATED ? `aligned translations: ${VERSIONS.map((_, v) => versionName(v)).join(" | ")}` : `versions: ${VERSIONS.join(" \u2192 ")}`}; ${scored}; rounds: ${DATA.rounds.join(", ") || "none"}.`;
  // what the numbers rest on: rows left out (non-finite scores), score sets told apart
  for (const note of DATA.notes || []) $("data-notes").append(el("li", { text: note }));
  $("data-notes").hidden = !(DATA.notes || []).length;
  buildChartPicker();
  window.curateExplore = { reportText: reportText, state: state, chartsReady: false, thresholdLabel: thresholdLabel };
  COLS = columns();
  renderHead();
  refresh();
  fitTable();
  let resizeTimer = 0;
  window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(fitTable, 200); });
  updateSelection();
  openFromHash();
  window.addEventListener("hashchange", openFromHash);
  performance.mark("curate-table-ready");
  window.curateExplore.tableReady = true;
})();
