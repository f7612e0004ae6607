// satiling's web page: pose a puzzle, see it, watch it solve, browse its solutions.
// Plain JavaScript, no build step and nothing from the internet. Text from the server is always
// inserted with textContent; only SVG drawn by satiling itself (the server escapes text inside it)
// is inserted as markup.
"use strict";

(() => {
  const TOKEN = new URLSearchParams(location.search).get("token");
  const FORMATS = ["dimacs", "wcnf", "opb", "cpsat", "lp", "lpsolve", "mps", "xcc", "mzn", "xcsp3"];
  const PAGE = 24;
  const FINAL = new Set(["done", "stopped", "failed"]);
  const SVGNS = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);

  // ---- talking to the server -----------------------------------------------------------------

  // A URL with the page's token, for links and EventSource, which cannot send headers.
  function withToken(url) {
    if (!TOKEN) return url;
    return url + (url.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(TOKEN);
  }

  // fetch with the token header; JSON in and out; a failed request throws an Error carrying the
  // server's one-line message and the field it names.
  async function api(path, json) {
    const init = { method: json === undefined ? "GET" : "POST", headers: {} };
    if (TOKEN) init.headers["X-Satiling-Token"] = TOKEN;
    if (json !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(json);
    }
    let resp;
    try {
      resp = await fetch(path, init);
    } catch (e) {
      throw Object.assign(new Error("the server does not answer (is satiling serve still running?)"), { field: null });
    }
    const text = await resp.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
    if (!resp.ok) {
      const message = data && typeof data.error === "string" ? data.error : `HTTP ${resp.status}`;
      throw Object.assign(new Error(message), { field: data ? data.field || null : null, status: resp.status });
    }
    return data;
  }

  const enc = encodeURIComponent;

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    Object.assign(node, props || {});
    for (const child of children) node.append(child);
    return node;
  }

  function svgEl(tag, attrs) {
    const node = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    return node;
  }

  function netError(message) { $("net-error").textContent = message || ""; }

  // The server's message beside the field it names (inside `box`), else in the box's own line.
  function showError(box, fallback, err) {
    clearErrors(box, fallback);
    const field = err && err.field ? box.querySelector(`[data-field="${CSS.escape(err.field)}"]`) : null;
    if (field) {
      field.classList.add("bad");
      const span = el("span", { className: "error field-error", textContent: err.message });
      span.setAttribute("role", "alert");
      (field.closest("label") || field).after(span);
    } else {
      fallback.textContent = err ? err.message : "";
    }
  }

  function clearErrors(box, fallback) {
    fallback.textContent = "";
    box.querySelectorAll(".field-error").forEach((n) => n.remove());
    box.querySelectorAll(".bad").forEach((n) => n.classList.remove("bad"));
  }

  function fmtSeconds(s) {
    if (s === null || s === undefined || !isFinite(s)) return "–";
    if (s < 60) return `${s.toFixed(1)} s`;
    if (s < 3600) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
    return `${(s / 3600).toFixed(1)} h`;
  }

  function fmtNumber(n) {
    return n === null || n === undefined ? "–" : Number(n).toLocaleString("en");
  }

  // ---- puzzles: the list and their details, fetched once ---------------------------------------

  const puzzles = new Map();   // name -> {name, title, family}
  const details = new Map();   // name -> promise of the full record
  const cards = new Map();     // name -> promise of the record without its facts (a card's picture)

  function puzzleDetails(name) {
    if (!details.has(name)) {
      const p = api(`api/puzzles/${enc(name)}`);
      p.catch(() => details.delete(name));
      details.set(name, p);
    }
    return details.get(name);
  }

  // A card draws the puzzle and needs none of its facts: asking without them keeps the facts
  // process (one puzzle at a time, Eternity's 1.4 million placements among them) for the
  // puzzles a user opens.
  function cardRecord(name) {
    if (details.has(name)) return details.get(name);
    if (!cards.has(name)) {
      const p = api(`api/puzzles/${enc(name)}?facts=0`);
      p.catch(() => cards.delete(name));
      cards.set(name, p);
    }
    return cards.get(name);
  }

  function remember(record) {
    puzzles.set(record.name, { name: record.name, title: record.title, family: record.family });
    details.set(record.name, Promise.resolve(record));
    fillPuzzleSelect();
  }

  async function loadPuzzles() {
    const list = await api("api/puzzles");
    for (const p of list) puzzles.set(p.name, p);
    buildGallery(list);
    fillPuzzleSelect();
  }

  // ---- 1. Pose: the gallery ---------------------------------------------------------------------

  function buildGallery(list) {
    const gallery = $("gallery");
    gallery.textContent = "";
    // Pictures are fetched as their cards scroll into view, two at a time.
    const queue = [];
    let busy = 0;
    const pump = () => {
      while (busy < 2 && queue.length) {
        const card = queue.shift();
        busy += 1;
        cardRecord(card.dataset.name)
          .then((d) => { card.querySelector(".picture").innerHTML = d.svg; card.classList.add("drawn"); })
          .catch((e) => { card.querySelector(".picture").textContent = e.message; })
          .finally(() => { busy -= 1; pump(); });
      }
    };
    const seen = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        seen.unobserve(entry.target);
        queue.push(entry.target);
      }
      pump();
    }, { rootMargin: "200px" });
    for (const p of list) {
      const card = el("a", { className: "card", href: `#see/${enc(p.name)}` },
        el("div", { className: "picture" }),
        el("div", { className: "card-title", textContent: p.title || p.name }),
        el("div", { className: "card-name mono", textContent: p.name }),
        el("span", { className: "tag", textContent: p.family }));
      card.dataset.name = p.name;
      gallery.append(card);
      seen.observe(card);
    }
  }

  // ---- 1. Pose: the paint editor ------------------------------------------------------------------

  const paint = { cells: new Set(), painting: false, adding: true };
  const S = 32;                              // a cell's size in the editor, px
  const H3 = Math.sqrt(3) / 2;

  // The grid's cells in the lattice's own coordinates (as instance files write them):
  // square [row, col]; triangle [row, col], `cols` up/down pairs a row, each row half a side left
  // of the one above (the `parallelogram` region); hexagon axial [q, r], each row half a hexagon
  // right of the one above.
  function gridCells(lattice, rows, cols) {
    const cells = [];
    for (let r = 0; r < rows; r++) {
      if (lattice === "square") for (let c = 0; c < cols; c++) cells.push([r, c]);
      else if (lattice === "triangle") for (let c = -r; c < -r + 2 * cols; c++) cells.push([r, c]);
      else for (let q = 0; q < cols; q++) cells.push([q, r]);
    }
    return cells;
  }

  // The polygon of one cell, and the origin shift that keeps the whole grid in view.
  function cellPoints(lattice, cell, rows) {
    if (lattice === "square") {
      const [r, c] = cell;
      return [[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]].map(([x, y]) => [x * S, y * S]);
    }
    if (lattice === "triangle") {
      const [r, c] = cell;
      const up = ((r + c) % 2 + 2) % 2 === 0;
      const h = S * H3, ox = rows * S / 2;
      const x = (k) => ox + k * S / 2;
      return up ? [[x(c), r * h], [x(c + 1), (r + 1) * h], [x(c - 1), (r + 1) * h]]
                : [[x(c - 1), r * h], [x(c + 1), r * h], [x(c), (r + 1) * h]];
    }
    const [q, r] = cell;
    const R = S / Math.sqrt(3);
    const cx = (q + r / 2) * S + S / 2, cy = r * S * H3 + R;
    return [-90, -30, 30, 90, 150, 210].map((a) => [cx + R * Math.cos(a * Math.PI / 180),
                                                   cy + R * Math.sin(a * Math.PI / 180)]);
  }

  // The seams of a cylinder (left meets right) and a torus (and top meets bottom), as polylines.
  function seams(lattice, topology, rows, cols) {
    if (topology === "plane") return [];
    const edge = (cells, picks) => cells.flatMap((cell) => picks.map((k) => cellPoints(lattice, cell, rows)[k]));
    let left, right, top, bottom;
    if (lattice === "hexagon") {
      const range = (n) => [...Array(n).keys()];
      left = edge(range(rows).map((r) => [0, r]), [5, 4]);
      right = edge(range(rows).map((r) => [cols - 1, r]), [1, 2]);
      top = edge(range(cols).map((q) => [q, 0]), [5, 0]).concat([cellPoints(lattice, [cols - 1, 0], rows)[1]]);
      bottom = edge(range(cols).map((q) => [q, rows - 1]), [4, 3]).concat([cellPoints(lattice, [cols - 1, rows - 1], rows)[2]]);
    } else {
      const w = lattice === "square" ? cols * S : cols * S, h = lattice === "square" ? rows * S : rows * S * H3;
      const shear = lattice === "square" ? 0 : rows * S / 2;    // the triangle grid leans left
      const ox = lattice === "square" ? 0 : rows * S / 2;
      left = [[ox, 0], [ox - shear, h]];
      right = [[ox + w, 0], [ox + w - shear, h]];
      top = [[ox, 0], [ox + w, 0]];
      bottom = [[ox - shear, h], [ox + w - shear, h]];
    }
    return topology === "torus" ? [left, right, top, bottom] : [left, right];
  }

  function paintSize() {
    const clamp = (v) => Math.max(1, Math.min(40, Math.floor(Number(v)) || 1));
    return { lattice: $("paint-lattice").value, rows: clamp($("paint-rows").value), cols: clamp($("paint-cols").value),
             topology: $("paint-topology").value };
  }

  function drawPaintGrid() {
    const { lattice, rows, cols, topology } = paintSize();
    const svg = $("paint-grid");
    svg.textContent = "";
    const all = gridCells(lattice, rows, cols);
    const inside = new Set(all.map((c) => c.join(",")));
    for (const key of [...paint.cells]) if (!inside.has(key)) paint.cells.delete(key);
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const cell of all) {
      const pts = cellPoints(lattice, cell, rows);
      for (const [x, y] of pts) { minX = Math.min(minX, x); minY = Math.min(minY, y); maxX = Math.max(maxX, x); maxY = Math.max(maxY, y); }
      const poly = svgEl("polygon", { points: pts.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" ") });
      poly.dataset.cell = cell.join(",");
      poly.classList.add("cell");
      if (paint.cells.has(poly.dataset.cell)) poly.classList.add("on");
      svg.append(poly);
    }
    for (const line of seams(lattice, topology, rows, cols)) {
      svg.append(svgEl("polyline", { class: "seam", points: line.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" ") }));
    }
    const pad = 4;
    svg.setAttribute("viewBox", `${minX - pad} ${minY - pad} ${maxX - minX + 2 * pad} ${maxY - minY + 2 * pad}`);
    svg.setAttribute("width", Math.ceil(maxX - minX + 2 * pad));
    svg.setAttribute("height", Math.ceil(maxY - minY + 2 * pad));
    $("paint-cols-label").textContent = lattice === "triangle" ? "Columns (triangle pairs)" : "Columns";
    updatePaintCount();
  }

  function updatePaintCount() {
    const n = paint.cells.size;
    $("paint-count").textContent = n === 1 ? "1 cell painted." : `${n} cells painted.`;
    $("paint-hint").classList.toggle("done", n > 0);
    if (n > 0) $("paint-cells-error").textContent = "";
  }

  function setCell(poly, on) {
    const key = poly.dataset.cell;
    if (on) paint.cells.add(key); else paint.cells.delete(key);
    poly.classList.toggle("on", on);
    updatePaintCount();
  }

  function setupPaint() {
    const svg = $("paint-grid");
    const cellAt = (e) => {
      const node = document.elementFromPoint(e.clientX, e.clientY);
      return node && node.classList && node.classList.contains("cell") && svg.contains(node) ? node : null;
    };
    svg.addEventListener("pointerdown", (e) => {
      const cell = cellAt(e);
      if (!cell) return;
      e.preventDefault();
      paint.painting = true;
      paint.adding = !paint.cells.has(cell.dataset.cell);
      setCell(cell, paint.adding);
    });
    svg.addEventListener("pointermove", (e) => {
      if (!paint.painting) return;
      const cell = cellAt(e);
      if (cell) setCell(cell, paint.adding);
    });
    window.addEventListener("pointerup", () => { paint.painting = false; });
    for (const id of ["paint-rows", "paint-cols", "paint-topology"]) {
      $(id).addEventListener("input", drawPaintGrid);
      $(id).addEventListener("change", drawPaintGrid);
    }
    $("paint-lattice").addEventListener("change", () => { paint.cells.clear(); drawPaintGrid(); loadPieceSets(); });
    $("paint-fill").addEventListener("click", () => {
      svg.querySelectorAll(".cell").forEach((poly) => setCell(poly, true));
    });
    $("paint-clear").addEventListener("click", () => {
      svg.querySelectorAll(".cell").forEach((poly) => setCell(poly, false));
    });
    $("create").addEventListener("click", createPainted);
    drawPaintGrid();
    loadPieceSets();
  }

  const DEFAULT_SET = { square: "pentominoes", triangle: "hexiamonds", hexagon: "tetrahexes" };

  async function loadPieceSets() {
    const lattice = $("paint-lattice").value;
    const select = $("piece-set");
    try {
      const names = await api(`api/piece-sets?lattice=${enc(lattice)}`);
      if ($("paint-lattice").value !== lattice) return;          // changed again meanwhile
      select.textContent = "";
      for (const item of names) {
        const name = typeof item === "string" ? item : item.name;
        select.append(el("option", { value: name, textContent: name }));
      }
      if (names.some((n) => (n.name || n) === DEFAULT_SET[lattice])) select.value = DEFAULT_SET[lattice];
    } catch (e) {
      showError($("paint"), $("paint-error"), e);
    }
  }

  async function createPainted() {
    const box = $("paint"), fallback = $("paint-error");
    clearErrors(box, fallback);
    $("paint-cells-error").textContent = "";
    const { lattice, topology } = paintSize();
    if (paint.cells.size === 0) {
      $("paint-cells-error").textContent = "Paint the region first: click or drag over the cells of the grid.";
      return;
    }
    const body = {
      lattice, topology,
      cells: [...paint.cells].map((k) => k.split(",").map(Number)),
      pieces: $("piece-set").value,
      freedom: $("paint-freedom").value,
      title: $("paint-title").value,
    };
    await submit(box, fallback, "api/paint", body, (err) => {
      if (err.field === "cells") { $("paint-cells-error").textContent = err.message; return true; }
      return false;
    });
  }

  // POST a new instance; on success show it on the See page.
  async function submit(box, fallback, path, body, special) {
    try {
      box.classList.add("busy");
      const record = await api(path, body);
      remember(record);
      location.hash = `#see/${enc(record.name)}`;
    } catch (err) {
      if (!(special && special(err))) showError(box, fallback, err);
    } finally {
      box.classList.remove("busy");
    }
  }

  // ---- 1. Pose: upload and generate ---------------------------------------------------------------

  function setupUpload() {
    $("upload-file").addEventListener("change", async () => {
      const file = $("upload-file").files[0];
      if (file) $("upload-toml").value = await file.text();
    });
    $("upload-send").addEventListener("click", () => {
      const toml = $("upload-toml").value;
      if (!toml.trim()) {
        showError($("upload"), $("upload-error"), { message: "Choose a file or write an instance in the box first.", field: "toml" });
        return;
      }
      submit($("upload"), $("upload-error"), "api/instances", { toml });
    });
    $("generate-send").addEventListener("click", () => {
      const n = (id) => Number($(id).value);
      submit($("generate"), $("generate-error"), "api/generate", {
        rows: n("gen-rows"), cols: n("gen-cols"), frame_colours: n("gen-frame"),
        inner_colours: n("gen-inner"), seed: n("gen-seed"),
      });
    });
  }

  // ---- 2. See -------------------------------------------------------------------------------------

  let tomlUrl = null;

  async function showPuzzle(name) {
    $("see-empty").hidden = !!name;
    $("see-body").hidden = true;
    if (!name) return;
    let d;
    try {
      d = await puzzleDetails(name);
    } catch (e) {
      $("see-empty").hidden = false;
      $("see-empty").textContent = e.message;
      return;
    }
    if (d.pending) {
      // The server is still measuring the model (large puzzles): ask again in a moment.
      details.delete(name);
      setTimeout(() => { if (lastPuzzle === name && !$("view-see").hidden) showPuzzle(name); }, 2000);
    }
    $("see-body").hidden = false;
    $("see-title").textContent = d.title || d.name;
    $("see-name").textContent = d.name;
    $("see-family").textContent = d.family;
    $("see-svg").innerHTML = d.svg;
    $("see-obstruction").hidden = !d.obstruction;
    $("see-obstruction").textContent = d.obstruction ? `Settled before any search: ${d.obstruction}` : "";
    const table = $("see-info");
    table.textContent = "";
    for (const [k, v] of Object.entries(d.info || {})) {
      const value = v !== null && typeof v === "object" ? JSON.stringify(v) : String(v);
      table.append(el("tr", {}, el("th", { textContent: k }), el("td", { textContent: value })));
    }
    $("see-toml").textContent = d.toml;
    if (tomlUrl) URL.revokeObjectURL(tomlUrl);
    tomlUrl = URL.createObjectURL(new Blob([d.toml], { type: "application/toml" }));
    $("toml-download").href = tomlUrl;
    $("toml-download").download = `${d.name}.toml`;
    const links = $("exports");
    links.textContent = "";
    for (const f of FORMATS) {
      const a = el("a", { href: withToken(`api/puzzles/${enc(d.name)}/export?format=${f}`), textContent: f });
      a.id = `export-${f}`;
      a.setAttribute("download", "");
      links.append(a, " ");
    }
    $("see-watch").onclick = () => { location.hash = `#watch/${enc(d.name)}`; };
  }

  // ---- 3. Watch -----------------------------------------------------------------------------------

  const live = { id: null, source: null, run: null, scores: [], seconds: 0, state: null };

  function fillPuzzleSelect() {
    const select = $("watch-puzzle");
    const keep = select.value;
    select.textContent = "";
    for (const p of puzzles.values()) {
      const label = p.name.startsWith("i-") ? `${p.title || "instance"} (${p.name})` : p.name;
      select.append(el("option", { value: p.name, textContent: label }));
    }
    if (keep && puzzles.has(keep)) select.value = keep;
    updateTaskButtons();
  }

  async function choosePuzzle(name) {
    if (!puzzles.has(name)) {
      try { remember(await puzzleDetails(name)); } catch (e) { $("run-error").textContent = e.message; return; }
    }
    $("watch-puzzle").value = name;
    updateTaskButtons();
  }

  // Maximise is for edge matching only.
  function updateTaskButtons() {
    const p = puzzles.get($("watch-puzzle").value);
    $("run-maximise").disabled = !p || p.family !== "edgematch";
  }

  async function startRun(task) {
    const box = $("view-watch").querySelector(".panel"), fallback = $("run-error");
    clearErrors(box, fallback);
    const limit = $("time-limit").value.trim();
    const symmetry = $("symmetry").value;
    const body = {
      puzzle: $("watch-puzzle").value, task, engine: $("engine").value,
      time_limit: limit === "" ? null : Number(limit),
    };
    if (task === "count" || task === "enumerate") {   // the group is a count's (the server refuses it elsewhere)
      body.raw = symmetry === "none";
      body.symmetry = symmetry === "" || symmetry === "none" ? null : symmetry;
    }
    try {
      const { id } = await api("api/runs", body);
      refreshRuns();
      location.hash = `#run/${enc(id)}`;
    } catch (err) {
      showError(box, fallback, err);
    }
  }

  function resetLive(id) {
    if (live.source) live.source.close();
    Object.assign(live, { id, source: null, run: null, scores: [], seconds: 0, state: null });
    $("live").hidden = !id;
    $("live-id").textContent = id || "";
    $("live-task").textContent = "";
    $("live-puzzle").textContent = "";
    $("found").textContent = "0";
    $("rate").textContent = "–";
    $("eta").textContent = "–";
    $("elapsed").textContent = "0 s";
    $("score").textContent = "–";
    $("live-error").textContent = "";
    $("live-note").textContent = "";
    $("progress").value = 0;
    $("best-board").textContent = "";
    $("best-json").removeAttribute("href");
    $("best-svg-link").removeAttribute("href");
    $("stop").disabled = true;
    drawPlot();
  }

  async function followRun(id) {
    if (live.id === id && live.source) return;
    resetLive(id);
    let run;
    try {
      run = await api(`api/runs/${enc(id)}`);
    } catch (e) {
      $("live-error").textContent = e.message;
      return;
    }
    if (live.id !== id) return;
    live.run = run;
    $("live-task").textContent = run.task;
    $("live-puzzle").textContent = `on ${run.puzzle}`;
    $("live-browse").href = `#browse/${enc(id)}`;
    if (puzzles.has(run.puzzle)) $("watch-puzzle").value = run.puzzle;
    updateTaskButtons();
    const maximise = run.task === "maximise";
    $("maximise-box").hidden = !maximise;
    $("score-box").hidden = !maximise;
    for (const id of ["found-box", "rate-box", "eta-box"]) $(id).hidden = maximise;
    $("live-note").textContent = run.note || "";
    setState(run.state);
    $("found").textContent = fmtNumber(run.found);
    if (run.seconds !== null && run.seconds !== undefined) { live.seconds = run.seconds; $("elapsed").textContent = fmtSeconds(run.seconds); }
    if (run.error) $("live-error").textContent = run.error;
    if (maximise) {
      if (run.score !== null && run.score !== undefined) showScore(run.score, run.joins);
      if (run.best_svg) $("best-board").innerHTML = run.best_svg;
      try {
        const points = await api(`api/runs/${enc(id)}/scores`);
        if (live.id !== id) return;
        for (const [s, v] of points) addScore(s, v);
      } catch (e) { /* the plot starts empty */ }
      drawPlot();
      updateBestLinks();
    }
    // The stream starts with the current state, so a late start misses nothing.
    const source = new EventSource(withToken(`api/runs/${enc(id)}/events`));
    live.source = source;
    source.onmessage = (msg) => {
      if (live.id !== id) { source.close(); return; }
      let ev;
      try { ev = JSON.parse(msg.data); } catch (e) { return; }
      onEvent(ev);
    };
    source.onerror = () => {
      // A finished run's stream ends; otherwise EventSource reconnects by itself.
      if (FINAL.has(live.state)) source.close();
    };
  }

  function setState(state) {
    live.state = state;
    const node = $("run-state");
    node.textContent = state || "";
    node.className = `state state-${state}`;
    $("stop").disabled = !(state === "running" || state === "queued");
    $("progress").hidden = FINAL.has(state) && !$("progress").value;
  }

  function showScore(score, joins) {
    $("score").textContent = joins ? `${score} / ${joins}` : String(score);
  }

  function onEvent(ev) {
    if (ev.type === "progress") {
      if (live.state !== "running" && !FINAL.has(live.state)) setState("running");
      $("found").textContent = fmtNumber(ev.found);
      $("rate").textContent = ev.rate === null || ev.rate === undefined ? "–" : `${fmtNumber(Math.round(ev.rate))} /s`;
      $("eta").textContent = fmtSeconds(ev.eta);
      if (ev.seconds !== undefined && ev.seconds !== null) {
        live.seconds = ev.seconds;
        $("elapsed").textContent = fmtSeconds(ev.seconds);
      }
      if (ev.fraction !== null && ev.fraction !== undefined) $("progress").value = ev.fraction;
      if (live.scores.length) drawPlot();
    } else if (ev.type === "improve") {
      showScore(ev.score, ev.joins);
      addScore(ev.seconds, ev.score);
      drawPlot();
    } else if (ev.type === "board") {
      $("best-board").innerHTML = ev.svg;
      updateBestLinks();
    } else if (ev.type === "end") {
      setState(ev.state);
      if (ev.found !== undefined && ev.found !== null) $("found").textContent = fmtNumber(ev.found);
      if (ev.score !== undefined && ev.score !== null) showScore(ev.score, live.run && live.run.joins);
      if (ev.state === "done") $("progress").value = 1;
      $("eta").textContent = "–";
      if (live.source) live.source.close();
      refreshRuns();
      finishRun(live.id);
    }
  }

  // After the end: the final figures and the error, if any, from the run's record.
  async function finishRun(id) {
    try {
      const run = await api(`api/runs/${enc(id)}`);
      if (live.id !== id) return;
      live.run = run;
      $("found").textContent = fmtNumber(run.found);
      if (run.seconds !== null && run.seconds !== undefined) $("elapsed").textContent = fmtSeconds(run.seconds);
      if (run.error) $("live-error").textContent = run.error;
      $("live-note").textContent = run.note || "";
      if (run.task === "maximise") {
        if (run.score !== null && run.score !== undefined) showScore(run.score, run.joins);
        if (run.best_svg) $("best-board").innerHTML = run.best_svg;
        updateBestLinks();
      }
    } catch (e) { /* keep what the stream said */ }
  }

  // The best board's downloads: the run's latest stored solution.
  async function updateBestLinks() {
    const id = live.id;
    try {
      let page = await api(`api/runs/${enc(id)}/solutions?offset=0&limit=1`);
      if (page.total > 1 && live.id === id) page = await api(`api/runs/${enc(id)}/solutions?offset=${page.total - 1}&limit=1`);
      if (!page.items.length || live.id !== id) return;
      const k = page.items[0].index;
      $("best-json").href = withToken(`api/runs/${enc(id)}/solutions/${k}.json`);
      $("best-svg-link").href = withToken(`api/runs/${enc(id)}/solutions/${k}.svg`);
      $("best-json").dataset.index = k;
    } catch (e) { /* no board stored yet */ }
  }

  function addScore(seconds, score) {
    live.scores.push([Number(seconds) || 0, Number(score)]);
    live.seconds = Math.max(live.seconds, Number(seconds) || 0);
  }

  // Score against time: a step line from each improvement to the next, drawn to the run's
  // latest time; axes with their ranges.
  function drawPlot() {
    const svg = $("score-plot");
    svg.textContent = "";
    const W = 400, Hh = 240, L = 48, R = 10, T = 10, B = 30;
    svg.append(svgEl("rect", { x: L, y: T, width: W - L - R, height: Hh - T - B, class: "plot-frame" }));
    const pts = live.scores;
    if (!pts.length) {
      const t = svgEl("text", { x: W / 2, y: Hh / 2, "text-anchor": "middle", class: "plot-label" });
      t.textContent = "no score yet";
      svg.append(t);
      return;
    }
    const tMax = Math.max(live.seconds, pts[pts.length - 1][0], 1e-3);
    const sMin = Math.min(...pts.map((p) => p[1])), sMax = Math.max(...pts.map((p) => p[1]));
    const lo = Math.max(0, sMin - 1), hi = sMax + 1;
    const X = (t) => L + (t / tMax) * (W - L - R);
    const Y = (s) => T + (1 - (s - lo) / (hi - lo)) * (Hh - T - B);
    const line = [];
    pts.forEach(([t, s], i) => {
      if (i > 0) line.push([X(t), Y(pts[i - 1][1])]);
      line.push([X(t), Y(s)]);
    });
    line.push([X(tMax), Y(pts[pts.length - 1][1])]);
    const poly = svgEl("polyline", { id: "score-line", class: "plot-line",
      points: line.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ") });
    poly.dataset.points = String(pts.length);
    svg.append(poly);
    const label = (x, y, text, anchor) => {
      const t = svgEl("text", { x, y, "text-anchor": anchor, class: "plot-label" });
      t.textContent = text;
      svg.append(t);
    };
    label(L - 4, Y(hi) + 4, String(hi), "end");
    label(L - 4, Y(lo), String(lo), "end");
    label(L, Hh - B + 16, "0 s", "start");
    label(W - R, Hh - B + 16, fmtSeconds(tMax), "end");
    label(W / 2, Hh - 4, "time", "middle");
  }

  async function stopRun(id) {
    try {
      await api(`api/runs/${enc(id)}/stop`, {});
    } catch (e) {
      $("run-error").textContent = e.message;
    }
    refreshRuns();
  }

  // ---- 3. Watch: the list of runs, refreshed while any is active ---------------------------------

  let runsTimer = null;

  async function refreshRuns() {
    clearTimeout(runsTimer);
    let runs = [];
    try {
      runs = await api("api/runs");
      netError("");
    } catch (e) {
      netError(e.message);
    }
    const body = $("runs").querySelector("tbody");
    body.textContent = "";
    for (const run of runs) {
      const row = el("tr", { id: `run-${run.id}`, className: `state-${run.state}` });
      row.dataset.state = run.state;
      const cells = [run.id, run.puzzle, run.task, run.engine, run.state, fmtNumber(run.found),
                     run.score === null || run.score === undefined ? "" : String(run.score),
                     run.seconds === null || run.seconds === undefined ? "" : Number(run.seconds).toFixed(1)];
      cells.forEach((text, i) => {
        const td = el("td", { textContent: text });
        td.className = ["id mono", "puzzle", "task", "engine", "state", "found", "score", "seconds"][i];
        row.append(td);
      });
      const actions = el("td", { className: "actions" },
        el("a", { href: `#run/${enc(run.id)}`, textContent: "watch" }), " ",
        el("a", { href: `#browse/${enc(run.id)}`, textContent: "solutions" }));
      if (!FINAL.has(run.state)) {
        const stop = el("button", { type: "button", textContent: "stop" });
        stop.addEventListener("click", () => stopRun(run.id));
        actions.append(" ", stop);
      }
      row.append(actions);
      if (run.id === live.id) row.classList.add("current");
      body.append(row);
    }
    const active = runs.some((r) => !FINAL.has(r.state));
    runsTimer = setTimeout(refreshRuns, active ? 1000 : 5000);
  }

  function setupWatch() {
    for (const task of ["solve", "count", "enumerate", "maximise"]) {
      $(`run-${task}`).addEventListener("click", () => startRun(task));
    }
    $("stop").addEventListener("click", () => { if (live.id) stopRun(live.id); });
    $("watch-puzzle").addEventListener("change", updateTaskButtons);
  }

  // ---- 4. Browse ----------------------------------------------------------------------------------

  async function showSolutions(id, offset) {
    $("browse-empty").hidden = !!id;
    $("browse-body").hidden = !id;
    if (!id) return;
    $("browse-id").textContent = id;
    $("jsonl").href = withToken(`api/runs/${enc(id)}/solutions.jsonl`);
    $("jsonl").download = `${id}.jsonl`;
    const gallery = $("solutions");
    try {
      const run = await api(`api/runs/${enc(id)}`);
      $("browse-puzzle").textContent = `(${run.task} ${run.puzzle}, ${run.state})`;
      const page = await api(`api/runs/${enc(id)}/solutions?offset=${offset}&limit=${PAGE}`);
      gallery.textContent = "";
      for (const item of page.items) {
        const base = `api/runs/${enc(id)}/solutions/${item.index}`;
        const svgLink = el("a", { href: withToken(`${base}.svg`), textContent: "SVG" });
        svgLink.setAttribute("download", `${id}-${item.index}.svg`);
        const jsonLink = el("a", { href: withToken(`${base}.json`), textContent: "JSON" });
        jsonLink.setAttribute("download", `${id}-${item.index}.json`);
        const card = el("div", { className: "card solution" },
          el("div", { className: "picture" }),
          el("div", { className: "card-title", textContent: `#${item.index}` }),
          el("div", { className: "links" }, svgLink, " ", jsonLink));
        card.querySelector(".picture").innerHTML = item.svg;
        card.dataset.index = item.index;
        gallery.append(card);
      }
      const last = Math.min(offset + page.items.length, page.total);
      $("page-info").textContent = page.total
        ? `${fmtNumber(offset + 1)}–${fmtNumber(last)} of ${fmtNumber(page.total)}`
        : "no solutions stored";
      $("page-prev").disabled = offset <= 0;
      $("page-next").disabled = offset + PAGE >= page.total;
      $("page-prev").onclick = () => { location.hash = `#browse/${enc(id)}/${Math.max(0, offset - PAGE)}`; };
      $("page-next").onclick = () => { location.hash = `#browse/${enc(id)}/${offset + PAGE}`; };
    } catch (e) {
      gallery.textContent = "";
      $("page-info").textContent = e.message;
    }
  }

  // ---- routes -------------------------------------------------------------------------------------

  const VIEWS = ["pose", "see", "watch", "browse"];
  let lastPuzzle = null, lastRun = null;

  function route() {
    const [view, ...rest] = location.hash.replace(/^#/, "").split("/").map(decodeURIComponent);
    const show = (name) => {
      for (const v of VIEWS) {
        $(`view-${v}`).hidden = v !== name;
        $(`nav-${v}`).classList.toggle("active", v === name);
      }
    };
    if (view === "see") {
      show("see");
      lastPuzzle = rest[0] || lastPuzzle;
      showPuzzle(lastPuzzle);
    } else if (view === "watch") {
      show("watch");
      if (rest[0]) { lastPuzzle = rest[0]; choosePuzzle(rest[0]); }
      else if (lastPuzzle) choosePuzzle(lastPuzzle);
    } else if (view === "run") {
      show("watch");
      lastRun = rest[0];
      followRun(rest[0]);
    } else if (view === "browse") {
      show("browse");
      lastRun = rest[0] || lastRun;
      showSolutions(lastRun, Math.max(0, Number(rest[1]) || 0));
    } else {
      show("pose");
    }
    // The nav keeps the last puzzle and run in view.
    $("nav-see").href = lastPuzzle ? `#see/${enc(lastPuzzle)}` : "#see";
    $("nav-watch").href = lastRun ? `#run/${enc(lastRun)}` : (lastPuzzle ? `#watch/${enc(lastPuzzle)}` : "#watch");
    $("nav-browse").href = lastRun ? `#browse/${enc(lastRun)}` : "#browse";
  }

  async function start() {
    setupPaint();
    setupUpload();
    setupWatch();
    resetLive(null);
    try {
      await loadPuzzles();
    } catch (e) {
      netError(e.message);
    }
    window.addEventListener("hashchange", route);
    route();
    refreshRuns();
    document.body.dataset.ready = "1";
  }

  start();
})();
