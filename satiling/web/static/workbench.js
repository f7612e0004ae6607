// The workbench on See: the puzzle's share link and pictures, and pieces pinned by hand (choose a
// piece and an orientation, click it onto the board, undo and redo), then solve, count, see what
// is forced or ask for a hint with those pins. A puzzle with pins travels as its share text
// (satiling:...): the server turns the pins into one, checked by satiling's own loader.
// Uses what app.js shares on window.satilingPage; draws only text with textContent and SVG that
// satiling itself drew.
"use strict";

(() => {
  const page = window.satilingPage;
  if (!page) return;
  const { api, withToken, el, enc, svgEl, NO_SOLUTION } = page;
  const $ = (id) => document.getElementById(id);
  const COLOURS = ["#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#46f0f0",
                   "#f032e6", "#bcf60c", "#fabebe", "#008080", "#e6beff", "#9a6324", "#fffac8",
                   "#800000", "#aaffc3", "#808000", "#ffd8b1", "#000075", "#808080"];

  // how long a question may run, and the states a run ends in
  const MAX_SECONDS = 120, ENDED = ["done", "partial", "stopped", "failed"];

  const wb = {
    name: null, bench: null, piece: null, o: 0, pins: [], undo: [], redo: [],
    byAnchor: new Map(), byPiece: new Map(), polys: new Map(), hover: null,
  };
  const key = (cell) => cell.join(",");

  // ---- the share link and the pictures ---------------------------------------------------------

  async function showShare(d) {
    const link = $("share-link");
    link.removeAttribute("href");
    link.textContent = "";
    $("share-error").textContent = "";
    for (const kind of ["svg", "png"]) {
      const a = $(`picture-${kind}`);
      a.href = withToken(`api/puzzles/${enc(d.name)}/picture.${kind}`);
      a.setAttribute("download", `${d.name.startsWith("satiling:") ? "shared" : d.name}.${kind}`);
    }
    try {
      const text = d.name.startsWith("satiling:") ? d.name
        : (await api(`api/puzzles/${enc(d.name)}/share`)).text;
      if (wb.name !== d.name) return;
      // the page's own address without its token: it opens on any satiling server
      const url = `${location.origin}${location.pathname}#see/${text}`;
      link.href = url;
      link.textContent = url.length > 90 ? `${url.slice(0, 60)}…${url.slice(-20)}` : url;
      link.title = url;
      $("share-text").value = text;
    } catch (e) {
      $("share-error").textContent = e.message;
    }
  }

  // ---- pins by hand ------------------------------------------------------------------------------

  async function showBench(d) {
    wb.title = (d.title || d.name).replace(/, [^,]* pinned$/, "");
    const box = $("workbench");
    box.hidden = d.family !== "polyform";
    $("wb-error").textContent = "";
    $("wb-unavailable").textContent = "";
    $("wb-result").textContent = "";
    $("wb-picture").textContent = "";
    if (box.hidden) return;
    let bench;
    try {
      bench = await api(`api/puzzles/${enc(d.name)}/workbench`);
    } catch (e) {
      if (wb.name !== d.name) return;
      $("wb-tools").hidden = true;
      // a puzzle pinned otherwise (a solid, drafters, too many placements) is a fact of the
      // puzzle, said plainly; anything else went wrong
      if (e.field === "puzzle") $("wb-unavailable").textContent = `${e.message[0].toUpperCase()}${e.message.slice(1)}.`;
      else $("wb-error").textContent = e.message;
      return;
    }
    if (wb.name !== d.name) return;
    $("wb-tools").hidden = false;
    Object.assign(wb, { bench, piece: bench.pieces[0].name, o: 0, undo: [], redo: [], hover: null });
    wb.pins = bench.placed.map((p) => ({ piece: p.piece, cells: p.cells }));
    wb.byAnchor = new Map();
    wb.byPiece = new Map();
    for (const p of bench.placements) {
      wb.byAnchor.set(`${p.piece}|${p.o}|${key(p.at)}`, p);
      const k = `${p.piece}|${p.o}`;
      if (!wb.byPiece.has(k)) wb.byPiece.set(k, []);
      wb.byPiece.get(k).push(p);
    }
    wb.colour = new Map(bench.pieces.map((p, i) => [p.name, p.colour || COLOURS[i % COLOURS.length]]));
    drawBoard();
    drawPieces();
    update();
  }

  function drawBoard() {
    const svg = $("wb-board");
    svg.textContent = "";
    svg.dataset.name = wb.name;          // the puzzle it is the board of
    wb.polys = new Map();
    const xs = [], ys = [];
    for (const c of wb.bench.cells) for (const [x, y] of c.points) { xs.push(x); ys.push(y); }
    // cells come in the lattice's units (a square cell is 1 by 1): some 40 px each, 600 px at most
    const pad = 0.1, minX = Math.min(...xs), minY = Math.min(...ys);
    const w = Math.max(...xs) - minX, h = Math.max(...ys) - minY;
    const unit = Math.min(44, 600 / Math.max(w, h, 1));
    svg.setAttribute("viewBox", `${minX - pad} ${minY - pad} ${w + 2 * pad} ${h + 2 * pad}`);
    svg.setAttribute("width", Math.ceil((w + 2 * pad) * unit));
    svg.setAttribute("height", Math.ceil((h + 2 * pad) * unit));
    for (const c of wb.bench.cells) {
      const poly = svgEl("polygon", { class: "wb-cell", points: c.points.map((p) => p.join(",")).join(" ") });
      poly.dataset.cell = key(c.cell);
      wb.polys.set(key(c.cell), poly);
      svg.append(poly);
    }
    const labels = svgEl("g", { class: "wb-labels" });
    labels.id = "wb-labels";
    svg.append(labels);
  }

  function orientations(piece) {
    return wb.bench.pieces.find((p) => p.name === piece).orientations.length;
  }

  function drawPieces() {
    const box = $("wb-pieces");
    box.textContent = "";
    for (const p of wb.bench.pieces) {
      const b = el("button", { type: "button", className: "wb-piece", textContent: p.name });
      b.dataset.piece = p.name;
      b.style.borderColor = wb.colour.get(p.name);
      b.onclick = () => { wb.piece = p.name; wb.o = 0; update(); };
      box.append(b);
    }
  }

  // The placement the pointer over CELL would pin: the chosen piece in the chosen orientation,
  // held by CELL (or any placement of it covering CELL).
  function candidate(cell) {
    if (!cell || !wb.piece) return null;
    const exact = wb.byAnchor.get(`${wb.piece}|${wb.o}|${cell}`);
    if (exact) return exact;
    const all = wb.byPiece.get(`${wb.piece}|${wb.o}`) || [];
    return all.find((p) => p.cells.some((c) => key(c) === cell)) || null;
  }

  function pinnedCells() {
    const owner = new Map();
    wb.pins.forEach((p, i) => p.cells.forEach((c) => owner.set(key(c), i)));
    return owner;
  }

  // Why PLACEMENT cannot be pinned now, or "".
  function refusal(placement) {
    const owner = pinnedCells();
    const clash = placement.cells.find((c) => owner.has(key(c)));
    // (the board shows the clash in red under the pointer: the board has no coordinates to name)
    if (clash) return `${placement.piece} would overlap the pinned ${wb.pins[owner.get(key(clash))].piece} (in red)`;
    const piece = wb.bench.pieces.find((p) => p.name === placement.piece);
    const used = wb.pins.filter((p) => p.piece === placement.piece).length;
    if (used >= piece.count) return `every ${placement.piece} is pinned already (the set has ${piece.count})`;
    return "";
  }

  function update() {
    const owner = pinnedCells();
    for (const [k, poly] of wb.polys) {
      const i = owner.get(k);
      poly.style.fill = i === undefined ? "" : wb.colour.get(wb.pins[i].piece);
      poly.classList.toggle("pinned", i !== undefined);
      poly.classList.remove("preview", "clash");
    }
    const labels = $("wb-labels");
    labels.textContent = "";
    for (const pin of wb.pins) {
      const pts = pin.cells.map((c) => centre(wb.polys.get(key(c))));
      const mid = pts.reduce((a, p) => [a[0] + p[0] / pts.length, a[1] + p[1] / pts.length], [0, 0]);
      // on the cell nearest the piece's middle (its middle may fall on an edge)
      const [x, y] = pts.reduce((b, p) => (Math.hypot(p[0] - mid[0], p[1] - mid[1]) < Math.hypot(b[0] - mid[0], b[1] - mid[1]) ? p : b));
      const t = svgEl("text", { x: x.toFixed(2), y: y.toFixed(2), class: "wb-label", "font-size": "0.55" });
      t.textContent = pin.piece;
      labels.append(t);
    }
    const shown = candidate(wb.hover);
    if (shown) {
      const bad = refusal(shown);
      for (const c of shown.cells) wb.polys.get(key(c)).classList.add(bad ? "clash" : "preview");
    }
    for (const b of document.querySelectorAll(".wb-piece")) {
      const p = wb.bench.pieces.find((q) => q.name === b.dataset.piece);
      const left = p.count - wb.pins.filter((q) => q.piece === p.name).length;
      b.classList.toggle("chosen", p.name === wb.piece);
      b.disabled = left <= 0;
      b.title = `${p.name}: ${left} of ${p.count} left`;
    }
    const n = wb.piece ? orientations(wb.piece) : 0;
    $("wb-orientation").textContent = wb.piece ? `${wb.piece}, orientation ${wb.o + 1} of ${n}` : "";
    drawShape();
    $("wb-undo").disabled = !wb.undo.length;
    $("wb-redo").disabled = !wb.redo.length;
    $("wb-clear").disabled = !wb.pins.length;
    $("wb-count-pins").textContent = wb.pins.length === 1 ? "1 piece pinned" : `${wb.pins.length} pieces pinned`;
  }

  function centre(poly) {
    const pts = poly.getAttribute("points").split(" ").map((p) => p.split(",").map(Number));
    return pts.reduce((a, p) => [a[0] + p[0] / pts.length, a[1] + p[1] / pts.length], [0, 0]);
  }

  // The chosen orientation, drawn from one of its placements' cells.
  function drawShape() {
    const svg = $("wb-shape");
    svg.textContent = "";
    const any = (wb.byPiece.get(`${wb.piece}|${wb.o}`) || [])[0];
    if (!any) {                  // nothing to draw: no room taken (an SVG unsized is 300 px wide)
      svg.setAttribute("width", 0);
      svg.setAttribute("height", 0);
      return;
    }
    const polys = any.cells.map((c) => wb.polys.get(key(c)).getAttribute("points"));
    const xs = [], ys = [];
    for (const p of polys) for (const xy of p.split(" ")) { const [x, y] = xy.split(",").map(Number); xs.push(x); ys.push(y); }
    const minX = Math.min(...xs), minY = Math.min(...ys), w = Math.max(...xs) - minX, h = Math.max(...ys) - minY;
    svg.setAttribute("viewBox", `${minX - 0.1} ${minY - 0.1} ${w + 0.2} ${h + 0.2}`);
    const scale = Math.min(16, 64 / Math.max(w, h, 1));
    svg.setAttribute("width", Math.ceil((w + 0.2) * scale));
    svg.setAttribute("height", Math.ceil((h + 0.2) * scale));
    for (const p of polys) svg.append(svgEl("polygon", { points: p, fill: wb.colour.get(wb.piece), class: "wb-shape-cell" }));
  }

  function turn(step) {
    if (!wb.piece) return;
    const n = orientations(wb.piece);
    wb.o = (wb.o + step + n) % n;
    update();
  }

  function change(pins) {
    wb.undo.push(wb.pins);
    wb.redo = [];
    wb.pins = pins;
    clearResult();
    update();
  }

  function clearResult() {
    $("wb-result").textContent = "";
    $("wb-picture").textContent = "";
  }

  function place(cell) {
    $("wb-error").textContent = "";
    const p = candidate(cell);
    if (!p) {
      $("wb-error").textContent = `${wb.piece} does not fit there in this orientation`;
      return;
    }
    const bad = refusal(p);
    if (bad) { $("wb-error").textContent = `refused: ${bad}`; return; }
    change([...wb.pins, { piece: p.piece, cells: p.cells }]);
  }

  function unpin(cell) {
    const i = pinnedCells().get(cell);
    if (i === undefined) return false;
    change(wb.pins.filter((_, j) => j !== i));
    return true;
  }

  function setupBoard() {
    const svg = $("wb-board");
    const cellOf = (e) => {
      const node = e.target;
      return node && node.dataset && node.dataset.cell ? node.dataset.cell : null;
    };
    svg.addEventListener("pointermove", (e) => { const c = cellOf(e); if (c !== wb.hover) { wb.hover = c; update(); } });
    svg.addEventListener("pointerleave", () => { wb.hover = null; update(); });
    svg.addEventListener("click", (e) => {
      const c = cellOf(e);
      if (!c) return;
      wb.hover = c;
      // a click on a pinned piece takes it off (undo puts it back)
      if (!unpin(c)) place(c);
    });
    $("wb-turn").onclick = () => turn(1);
    $("wb-turn-back").onclick = () => turn(-1);
    $("wb-undo").onclick = () => { if (wb.undo.length) { wb.redo.push(wb.pins); wb.pins = wb.undo.pop(); clearResult(); update(); } };
    $("wb-redo").onclick = () => { if (wb.redo.length) { wb.undo.push(wb.pins); wb.pins = wb.redo.pop(); clearResult(); update(); } };
    $("wb-clear").onclick = () => change([]);
    $("wb-apply").onclick = () => act(async (text) => { location.hash = `#see/${text}`; });
    $("wb-solve").onclick = () => act((text) => startRun(text, { task: "solve" }));
    $("wb-count").onclick = () => act((text) => startRun(text, { task: "count", raw: true }));
    $("wb-forced").onclick = () => act((text) => ask("forced", text));
    $("wb-hint").onclick = () => act((text) => ask("hint", text));
  }

  // The puzzle with the pins on the board, as a share text (the server checks the pins), then DO.
  async function act(run) {
    $("wb-error").textContent = "";
    const buttons = document.querySelectorAll("#wb-actions button");
    buttons.forEach((b) => { b.disabled = true; });
    try {
      // the title says what is pinned, so the runs and the share link tell it from the puzzle
      const title = wb.pins.length ? `${wb.title}, ${wb.pins.map((p) => p.piece).join(" ")} pinned`.slice(0, 200) : wb.title;
      const { text } = await api("api/pinned", { puzzle: wb.name, placed: wb.pins, title });
      await run(text);
    } catch (e) {
      $("wb-error").textContent = e.field ? `${e.field}: ${e.message}` : e.message;
    } finally {
      buttons.forEach((b) => { b.disabled = false; });
    }
  }

  async function startRun(text, body) {
    const { id } = await api("api/runs", { puzzle: text, ...body });
    location.hash = `#run/${enc(id)}`;
  }

  // Forced or a hint as a run of its own (listed with the others on Watch): followed here, its
  // Stop keeping what was proved so far; then its words and its picture.
  async function ask(command, text) {
    $("wb-result").textContent = command === "forced" ? "Proving which placements every solution holds…" : "Finding a hint…";
    $("wb-picture").textContent = "";
    const { id } = await api("api/runs", { puzzle: text, task: command, time_limit: MAX_SECONDS });
    wb.asking = id;
    const stop = $("wb-stop");
    stop.hidden = false;
    stop.disabled = false;
    stop.onclick = () => { stop.disabled = true; api(`api/runs/${enc(id)}/stop`, {}).catch(() => {}); };
    let run;
    try {
      do {
        await new Promise((done) => setTimeout(done, 250));
        run = await api(`api/runs/${enc(id)}`);
        if (wb.asking !== id) return;             // another question, or another puzzle, since
      } while (!ENDED.includes(run.state));
    } finally {
      if (wb.asking === id) stop.hidden = true;
    }
    if (run.state === "failed") throw new Error(run.error || `${command} failed`);
    $("wb-result").textContent = answerWords(command, run);
    $("wb-result").dataset.count = String(run.found || 0);
    if (run.stored) {
      const page = await api(`api/runs/${enc(id)}/solutions?offset=0&limit=1`);
      if (wb.asking === id && page.items.length) $("wb-picture").innerHTML = page.items[0].svg;
    }
  }

  function answerWords(command, run) {
    const n = Number(run.found) || 0, note = run.note || "";
    const whole = run.state === "done";
    const secs = run.seconds ? `${Number(run.seconds).toFixed(1)} s` : "";
    if (command === "hint") return whole ? note || "Nothing to reveal." : `Stopped${secs ? ` after ${secs}` : ""}: no hint yet.`;
    if (note.startsWith(NO_SOLUTION)) return note;      // the hint's words too, reason and all
    // the note says what is forced beyond the pins (the user placed those); found counts them too
    const said = note.replace(/^partial: /, "") ||
      `${n} placement${n === 1 ? "" : "s"} ${whole ? "" : "proved "}in every solution${whole ? "" : " so far"}`;
    return whole ? `${said.charAt(0).toUpperCase()}${said.slice(1)}${secs ? `, in ${secs}` : ""}.`
      : `${run.state === "partial" ? "Stopped by the time limit" : "Stopped"}${secs ? ` after ${secs}` : ""}, the list is partial: ${said}.`;
  }

  document.addEventListener("keydown", (e) => {
    if ($("view-see").hidden || $("workbench").hidden || /INPUT|TEXTAREA|SELECT/.test(e.target.tagName)) return;
    if (e.key === "r") turn(1);
    else if (e.key === "R") turn(-1);
    else if ((e.ctrlKey || e.metaKey) && e.key === "z") $("wb-undo").click();
    else if ((e.ctrlKey || e.metaKey) && e.key === "y") $("wb-redo").click();
  });

  document.addEventListener("satiling:see", (e) => {
    const d = e.detail;
    if (wb.name === d.name) return;
    wb.name = d.name;
    wb.asking = null;
    $("wb-stop").hidden = true;
    showShare(d);
    showBench(d);
  });
  setupBoard();
})();
