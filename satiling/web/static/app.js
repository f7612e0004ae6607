// satiling's web page: pose a puzzle, see it, watch it solve, browse its solutions.
// Plain JavaScript, no build step and nothing from the internet. Text from the server is always
// inserted with textContent; only SVG drawn by satiling itself (the server escapes text inside it)
// is inserted as markup.
"use strict";

(() => {
  const TOKEN = new URLSearchParams(location.search).get("token");
  const FORMATS = ["dimacs", "wcnf", "opb", "cpsat", "lp", "lpsolve", "mps", "xcc", "mzn", "xcsp3"];
  const PAGE = 24;
  const FINAL = new Set(["done", "partial", "stopped", "failed"]);
  const SVGNS = "http://www.w3.org/2000/svg";
  // how a forced or hint run's note begins when there is no solution (the server's one sentence,
  // satiling.run.forced.no_solution_words, with its reason)
  const NO_SOLUTION = "No solution";
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
      reveal(span);
    } else {
      fallback.textContent = err ? err.message : "";
      reveal(fallback);
    }
  }

  // Scroll a message into sight if it is not (on a phone the button pressed may lie a screen
  // below the field the message is about: nothing seemed to happen).
  function reveal(node) {
    const r = node.getBoundingClientRect();
    if (r.top < 60 || r.bottom > window.innerHeight) node.scrollIntoView({ block: "center" });
  }

  function clearErrors(box, fallback) {
    fallback.textContent = "";
    box.querySelectorAll(".field-error").forEach((n) => n.remove());
    box.querySelectorAll(".bad").forEach((n) => n.classList.remove("bad"));
  }

  const given = (v) => v !== null && v !== undefined;

  function fmtSeconds(s) {
    if (!given(s) || !isFinite(s)) return "–";
    if (s < 60) return `${s.toFixed(1)} s`;
    if (s < 3600) return `${Math.floor(s / 60)} min ${Math.floor(s % 60)} s`;
    return `${(s / 3600).toFixed(1)} h`;
  }

  // A time limit as the user gave it: "30 s", "1.5 s", "2 min".
  function fmtLimit(s) {
    if (s < 60) return `${Number(s.toPrecision(6))} s`;
    return fmtSeconds(s);
  }

  function fmtNumber(n) {
    return given(n) ? Number(n).toLocaleString("en") : "–";
  }

  const plural = (n, one, many) => `${fmtNumber(n)} ${Number(n) === 1 ? one : many}`;

  // ---- what a run's state means, in words ------------------------------------------------------

  // The state shown: the server's, except that a run its time limit ended, which older servers
  // call "done", is "partial" (what the command line's exit code 3 says).
  function shownState(run) {
    if (run.state === "done" && run.stop === "time") return "partial";
    return run.state || "";
  }

  // Whether the run keeps its solutions (Browse has something to show): a count keeps none.
  function storesSolutions(run) {
    return !!run.stored;
  }

  const LIMIT_WORDS = { time: "the time limit", nodes: "the node limit" };

  // What a count's number counts (the same puzzle gives 2,339 or 9,356 solutions: the 6x10's
  // rotations and reflections counted once, or each apart), as `satiling count` says it.
  function countedAs(run) {
    if (run.raw || run.symmetry === "none") return "(each rotation and reflection apart)";
    if (run.symmetry === "rotations") return "(up to rotations only)";
    return "(up to the board's symmetries)";
  }

  // One sentence saying how a run ended (or where it is), never "done" for a part of an answer.
  function outcomeText(run) {
    const state = shownState(run);
    const found = Number(run.found) || 0;
    const secs = given(run.seconds) ? ` in ${fmtSeconds(Number(run.seconds))}` : "";
    const score = given(run.score) ? (given(run.joins) ? `${run.score} / ${run.joins}` : String(run.score)) : null;
    if (state === "queued") return "Waiting for a free core.";
    if (state === "running") return "";                 // the state says it; the figures follow
    if (state === "failed") return `Failed: ${run.error || "the run broke off"}.`;
    if (state === "done") {
      if (run.task === "count") return `Done${secs}: ${plural(found, "solution", "solutions")} ${countedAs(run)}, the whole search.`;
      if (run.task === "enumerate") return `Done${secs}: all ${plural(found, "solution", "solutions")} ${countedAs(run)} listed.`;
      if (run.task === "maximise") return `Done${secs}: best score ${score ?? "–"}.`;
      if (run.task === "pack") return found ? `Done${secs}: at most ${plural(found, "piece fits", "pieces fit")}, proved; the packing is drawn.` : `Done${secs}: no packing.`;
      if (run.task === "forced") return run.note && run.note.startsWith(NO_SOLUTION) ? `Done${secs}: ${run.note}` : `Done${secs}: ${plural(found, "placement", "placements")} in every solution.`;
      if (run.task === "hint") return found ? `Done${secs}: ${run.note || "a hint."}` : `Done${secs}: ${run.note || "no hint."}`;
      if (run.task === "unique") {
        if (found === 2) return `Done${secs}: not unique. A second solution is drawn.`;
        return found ? `Done${secs}: unique. No second solution exists.` : `Done${secs}: no solution exists.`;
      }
      return found ? `Done${secs}: solved, the solution checked by the verifier.`
                   : `Done${secs}: no solution exists.`;
    }
    const after = given(run.seconds) ? `after ${fmtSeconds(Number(run.seconds))}` : "";
    const cause = LIMIT_WORDS[run.stop] || "a limit";
    const what = state === "partial" ? `Partial (${[cause, after].filter(Boolean).join(", ")})`
                                     : `Stopped${after ? ` (${after})` : ""}`;
    if (run.task === "count") return `${what}: ${plural(found, "solution", "solutions")} ${countedAs(run)} counted so far, not the whole count.`;
    if (run.task === "enumerate") return `${what}: ${plural(found, "solution", "solutions")} ${countedAs(run)} found so far, not all of them.`;
    if (run.task === "maximise") return score ? `${what}: the best board so far scores ${score}.` : `${what}: no board yet.`;
    if (run.task === "forced") return `${what}: ${plural(found, "placement", "placements")} proved in every solution so far; the list is partial.`;
    if (run.task === "hint") return `${what}: no hint yet.`;
    if (run.task === "pack") return found ? `${what}: the best packing so far holds ${plural(found, "piece", "pieces")}, not proved the most.` : `${what}: no packing yet.`;
    if (found) return `${what}, with a solution.`;
    if (state === "partial" && run.stop === "time" && given(run.time_limit)) {
      return `No answer in ${fmtLimit(Number(run.time_limit))}: the time limit ended the search.`;
    }
    if (state === "partial" && run.stop === "nodes") return "No answer within the node limit.";
    return `${what}: no answer.`;
  }

  // ---- puzzles: the list and their details, fetched once ---------------------------------------

  const puzzles = new Map();   // name -> {name, title, family}
  const mine = new Map();      // the user's own puzzles (painted, uploaded, generated): name -> same
  const details = new Map();   // name -> promise of the full record
  const cards = new Map();     // name -> promise of the record without its facts (a card's picture)

  // A puzzle's name as a heading shows it: a shared puzzle's is its whole share text (some
  // hundreds of characters, wider than a phone), so its start only.
  function shortName(name) {
    return name && name.startsWith("satiling:") ? `${name.slice(0, 18)}…` : (name || "");
  }

  function titleOf(name, fallback) {
    const p = puzzles.get(name);
    return (fallback || (p && p.title) || name || "");
  }

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
    details.set(record.name, Promise.resolve(record));
    listPuzzle(record);
  }

  // A puzzle put in the lists (the run form's menu; the user's own also in their gallery).
  function listPuzzle(record) {
    const p = { name: record.name, title: record.title, family: record.family };
    const isNew = !puzzles.has(record.name);
    puzzles.set(record.name, p);
    if (record.name.startsWith("i-") && !mine.has(record.name)) {
      mine.set(record.name, p);
      buildGallery($("my-gallery"), [...mine.values()].reverse());
      $("mine").hidden = false;
    }
    if (isNew) fillPuzzleSelect();
  }

  async function loadPuzzles() {
    const [list, own] = await Promise.all([
      api("api/puzzles"),
      api("api/instances").catch(() => []),    // the user's own puzzles, newest first
    ]);
    for (const p of list) puzzles.set(p.name, p);
    for (const p of own) { puzzles.set(p.name, p); mine.set(p.name, p); }
    buildGallery($("gallery"), list);
    buildGallery($("my-gallery"), own);
    $("mine").hidden = own.length === 0;
    fillPuzzleSelect();
  }

  // ---- pictures: no text too small to read, and nothing lost -------------------------------------

  // satiling's pictures carry text: an edge-matching tile's number, a board's row letters and
  // column numbers, a polyform piece's name (class label), a picture's caption, the names of a
  // solid's layers (part-caption). Where a picture is shown so small that some of its text would
  // come out below MIN_TEXT_PX (Eternity II's 16x16 board on a phone: numbers some 5 px, its
  // caption 6 px), that text is not drawn, and nothing is lost: a caption's words are a line of
  // the page under the picture; a tile's number, a square's name and a piece's name are its title,
  // which the pointer shows and a tap says under the picture (a phone has no pointer to hover with).
  const MIN_TEXT_PX = 8;
  // what a tap says, by the kind of text not drawn (the box's class that says it is not)
  const TAP_NOTES = [
    ["numbers-hidden", "The tiles are too small here for their numbers: tap a tile (or point at it) to read its number."],
    ["names-hidden", "Pieces too small here for their names are not named: tap a piece (or point at it) to read its name."],
  ];
  // each kind of text, the box's class when some of it is not drawn
  const TEXT_KINDS = [
    ["text.tile-number", "numbers-hidden"], [".board-labels text", "labels-hidden"], ["text.label", "names-hidden"],
    ["text.caption", "captions-hidden"], ["text.part-caption", "captions-hidden"],
  ];

  // The line of KIND under a picture (`said` lines follow it: its caption's words, then what a
  // tap says); none under a card's (a card is a link, and small). `make` false: the line if there is one.
  function saidLine(box, kind, make = true) {
    let last = box;
    for (let n = box.nextElementSibling; n && n.classList.contains("said"); n = n.nextElementSibling) {
      if (n.classList.contains(kind)) return n;
      last = n;
    }
    if (!make || box.closest(".card")) return null;
    const line = el("p", { className: `said ${kind}${kind === "tile-said" ? " note" : ""}` });
    (kind === "caption-said" ? box : last).after(line);
    return line;
  }

  // A text's size on the screen, in CSS pixels, by its parent's scale (the parent is always
  // drawn), each parent measured once in SCALES: an Eternity II board and its tray hold some 1300
  // texts in a few groups.
  function shownPx(text, scales) {
    const parent = text.parentNode;
    if (!scales.has(parent)) {
      const ctm = parent.getScreenCTM();
      scales.set(parent, ctm ? Math.hypot(ctm.a, ctm.b) : Infinity);
    }
    return Number(text.getAttribute("font-size")) * scales.get(parent);
  }

  // The words of the captions not drawn, as the picture says them: each caption's lines as one
  // sentence, a solid's layer names in their order, the copies a tray's names count.
  function hiddenWords(svg) {
    const words = (sel) => [...svg.querySelectorAll(sel)].map((t) => t.textContent);
    const out = [];
    for (const part of [svg, ...svg.querySelectorAll("svg")]) {
      const lines = [...part.children].filter((t) => t.matches("text.caption"));
      if (lines.some((t) => t.classList.contains("too-small"))) out.push(lines.map((t) => t.textContent).join(" "));
    }
    if (svg.querySelector("text.part-caption.too-small")) out.push(`left to right: ${words("text.part-caption").join(", ")}`);
    const counted = words("text.label.too-small").filter((w) => / x\d+$/.test(w));
    if (counted.length) out.push(`copies: ${counted.join(", ")}`);
    return out;
  }

  // Which of the box's texts are drawn, and the lines under it saying what is not.
  function fitText(box) {
    const svg = box.querySelector("svg");
    const width = svg ? svg.getBoundingClientRect().width : 0;
    if (!width) return;                                // hidden: measured again when shown
    widen(box, svg);
    // every text measured before any is hidden or shown: a change between two measures would
    // lay the page out again for the second
    const scales = new Map(), hidden = new Set();
    const sized = TEXT_KINDS.flatMap(([sel, cls]) =>
      [...svg.querySelectorAll(sel)].map((t) => [t, cls, shownPx(t, scales) < MIN_TEXT_PX]));
    for (const [t, cls, small] of sized) {
      t.classList.toggle("too-small", small);
      if (small) hidden.add(cls);
    }
    for (const [, cls] of TEXT_KINDS) box.classList.toggle(cls, hidden.has(cls));
    const words = hiddenWords(svg);
    const caption = saidLine(box, "caption-said", words.length > 0);
    if (caption) caption.textContent = words.join("\n");
    const tap = TAP_NOTES.filter(([cls]) => box.classList.contains(cls)).map(([, words]) => words);
    const note = saidLine(box, "tile-said", tap.length > 0);
    if (note) note.textContent = tap.join(" ");
  }

  // Measured whenever a picture is put in its box (every place the page shows one; another
  // puzzle's picture may have no text) and whenever its box changes size (the window, a view
  // shown).
  const textSized = new ResizeObserver((entries) => entries.forEach((e) => fitText(e.target)));
  new MutationObserver((records) => {
    const boxes = new Set();
    for (const r of records) {
      boxes.add(r.target.closest && r.target.closest(".picture"));
      for (const n of r.addedNodes) {
        if (!n.querySelectorAll) continue;
        if (n.matches(".picture")) boxes.add(n);
        n.querySelectorAll(".picture").forEach((b) => boxes.add(b));
      }
    }
    for (const box of boxes) {
      if (!box) continue;
      if (box.querySelector("svg text")) textSized.observe(box);
      fitText(box);
    }
  }).observe(document.querySelector("main"), { childList: true, subtree: true });

  // A tap on a picture whose numbers or names are not all drawn says what was tapped: its title
  // (a tile's side: its number, square, side; a piece: its name).
  document.addEventListener("click", (e) => {
    const box = e.target.closest && e.target.closest(".numbers-hidden, .names-hidden");
    const svg = box && e.target.closest("svg");
    let n = svg ? e.target : null;
    while (n && n !== svg && !(n.firstElementChild && n.firstElementChild.tagName === "title")) n = n.parentNode;
    if (!n || n === svg || n.tagName === "svg") return;
    const title = n.firstElementChild.textContent;
    saidLine(box, "tile-said").textContent = n.tagName === "g" ? `piece ${title}` : title;
  });

  // ---- pictures on See: board and pieces apart, a long thin board drawn to read ------------------

  // satiling draws a puzzle as its board above its pieces, in one SVG (stack_svg's nested
  // documents), the pieces at the board's scale: on a phone tetromino-4x45's tray of five pieces
  // had 3.5 px names under a 45-square board. See shows each part as a picture of its own, fitted
  // to the width on its own.
  function showParts(container, svg) {
    container.innerHTML = svg;
    const root = container.firstElementChild;
    const nested = root ? [...root.children].filter((n) => n.tagName === "svg") : [];
    const parts = nested.length > 1 ? nested : [root].filter(Boolean);
    container.replaceChildren(...parts.map((part) => el("div", { className: "picture see-part" }, part)));
    // a long thin board takes the figure's whole row (the facts below it), not a column beside them
    const view = parts.length ? parts[0].viewBox.baseVal : null;
    $("see-figure").classList.toggle("wide", !!view && view.width >= WIDE_ASPECT * view.height);
  }

  // A board this many times wider than high whose text would be too small to read across the
  // box is drawn where its largest text is READ_PX, in a box that scrolls sideways (4x45 on a
  // phone: 2.7 screens of readable letters, rather than letters of 3.5 px or none).
  const WIDE_ASPECT = 3, READ_PX = 10;
  function widen(box, svg) {
    if (!box.classList.contains("see-part")) return;
    svg.style.width = "";
    svg.style.maxWidth = "";
    const view = svg.viewBox.baseVal;
    const sizes = [...svg.querySelectorAll("text")].map((t) => Number(t.getAttribute("font-size")));
    const shown = svg.getBoundingClientRect().width, scale = shown / view.width;
    const wanted = sizes.length ? Math.ceil(view.width * READ_PX / Math.max(...sizes)) : 0;
    const thin = view.width >= WIDE_ASPECT * view.height && Math.min(...sizes) * scale < MIN_TEXT_PX && wanted > shown;
    box.classList.toggle("scrolls", thin);
    if (!thin) return;
    svg.style.width = `${wanted}px`;
    svg.style.maxWidth = "none";
  }

  // ---- 1. Pose: the galleries -------------------------------------------------------------------

  // Pictures are fetched as their cards scroll into view, two at a time (over both galleries).
  const drawQueue = [];
  let drawing = 0;
  function pumpCards() {
    while (drawing < 2 && drawQueue.length) {
      const card = drawQueue.shift();
      drawing += 1;
      cardRecord(card.dataset.name)
        .then((d) => {
          const box = card.querySelector(".picture");
          box.innerHTML = d.svg;
          fitCard(box);
          card.classList.add("drawn");
        })
        .catch((e) => { card.querySelector(".picture").textContent = e.message; })
        .finally(() => { drawing -= 1; pumpCards(); });
    }
  }
  const cardSeen = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      cardSeen.unobserve(entry.target);
      drawQueue.push(entry.target);
    }
    pumpCards();
  }, { rootMargin: "200px" });

  // A card's picture fitted to its box. satiling draws a puzzle as its board above its pieces
  // (one nested SVG each, stack_svg's); where that is tall the card showed a sliver (Eternity's
  // 209 pieces under its board: 28 px of a 200 px card). Laid out as whichever shows larger in the
  // box, board above pieces or beside them; where even that is narrower than half the box, the
  // board alone (the puzzle's shape; See shows the pieces).
  const STACK_GAP = 12;                              // stack_svg's gap between the parts
  function fitCard(box) {
    const svg = box.firstElementChild;
    const parts = svg ? [...svg.children].filter((n) => n.tagName === "svg") : [];
    if (parts.length < 2 || !box.clientWidth) return;
    const size = parts.map((p) => [Number(p.getAttribute("width")), Number(p.getAttribute("height"))]);
    const sum = (k) => size.reduce((a, s) => a + s[k], 0) + STACK_GAP * (size.length - 1);
    const most = (k) => Math.max(...size.map((s) => s[k]));
    // a layout's width and height, and its width as the box shows it
    const shown = ([w, h]) => Math.min(box.clientWidth, box.clientHeight * w / h);
    const stacked = [most(0), sum(1)], beside = [sum(0), most(1)];
    const area = ([w, h]) => shown([w, h]) ** 2 * h / w;
    const best = area(beside) > area(stacked) ? beside : stacked;
    if (shown(best) < box.clientWidth / 2 && shown(size[0]) > shown(best)) {
      parts.slice(1).forEach((p) => p.setAttribute("display", "none"));
      return frame(svg, [Number(parts[0].getAttribute("x")), Number(parts[0].getAttribute("y")), ...size[0]]);
    }
    if (best === beside) {
      let x = 0;
      parts.forEach((p, i) => {
        p.setAttribute("x", x);
        p.setAttribute("y", (beside[1] - size[i][1]) / 2);
        x += size[i][0] + STACK_GAP;
      });
    }
    frame(svg, [0, 0, ...best]);
  }

  // The part of an SVG picture shown, [x, y, width, height], at its own size.
  function frame(svg, [x, y, w, h]) {
    svg.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
    svg.setAttribute("width", w);
    svg.setAttribute("height", h);
  }

  // The cards of LIST, under a heading for each kind where the list says its puzzles' kinds (the
  // bundled ones: polyominoes, ..., edge matching, IQ-Link, in the server's order).
  function buildGallery(gallery, list) {
    gallery.textContent = "";
    let kind = null;
    for (const p of list) {
      if (p.kind && p.kind !== kind) {
        kind = p.kind;
        gallery.append(el("h3", { className: "gallery-kind", textContent: kind[0].toUpperCase() + kind.slice(1) }));
      }
      const card = el("a", { className: "card", href: `#see/${enc(p.name)}` },
        el("div", { className: "picture" }),
        el("div", { className: "card-title", textContent: p.title || p.name }),
        el("div", { className: "card-name mono", textContent: p.name }),
        el("span", { className: "tag", textContent: p.family }));
      card.dataset.name = p.name;
      gallery.append(card);
      cardSeen.observe(card);
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
    $("paint-lattice").addEventListener("change", () => {
      paint.cells.clear();
      drawPaintGrid();
      loadPieceSets();
      own.drawn = [];
      own.cells.clear();
      drawDrawGrid();
      showDrawn();
    });
    $("piece-set").addEventListener("change", loadSetPieces);
    $("paint-freedom").addEventListener("change", loadSetPieces);
    $("set-copies").addEventListener("input", () => {
      const n = $("set-copies").value;
      document.querySelectorAll("#set-pieces input").forEach((input) => { input.value = n; });
    });
    setupDraw();
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
      select.append(el("option", { value: "", textContent: "none (only pieces I draw)" }));
      if (names.some((n) => (n.name || n) === DEFAULT_SET[lattice])) select.value = DEFAULT_SET[lattice];
    } catch (e) {
      showError($("paint"), $("paint-error"), e);
    }
    await loadSetPieces();
  }

  // ---- 1. Pose: the pieces -- a bundled set, how many of each, and pieces drawn by hand ----------

  const own = { drawn: [], cells: new Set() };
  const SMALL = 12 / S;                      // a piece's picture: 12 px a cell

  // A shape drawn small: its cells (the lattice's coordinates) as polygons.
  function shapeSvg(lattice, cells, colour) {
    const svg = svgEl("svg", { class: "shape" });
    const polys = cells.map((c) => cellPoints(lattice, c, 0));
    const xs = polys.flat().map((p) => p[0]), ys = polys.flat().map((p) => p[1]);
    const minX = Math.min(...xs), minY = Math.min(...ys);
    const w = Math.max(...xs) - minX, h = Math.max(...ys) - minY;
    svg.setAttribute("viewBox", `${minX - 1} ${minY - 1} ${w + 2} ${h + 2}`);
    svg.setAttribute("width", Math.ceil((w + 2) * SMALL));
    svg.setAttribute("height", Math.ceil((h + 2) * SMALL));
    for (const pts of polys) {
      svg.append(svgEl("polygon", { points: pts.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" "), fill: colour }));
    }
    return svg;
  }

  // The chosen set's pieces (as the chosen freedom makes them), each with how many go on the board.
  async function loadSetPieces() {
    const lattice = $("paint-lattice").value, name = $("piece-set").value, freedom = $("paint-freedom").value;
    const box = $("set-pieces");
    const before = new Map([...box.querySelectorAll("input")].map((i) => [i.dataset.piece, i.value]));
    $("set-copies-label").hidden = $("set-note").hidden = box.hidden = !name;
    if (!name) { box.textContent = ""; return; }
    let set;
    try {
      set = await api(`api/piece-sets/${enc(name)}?lattice=${enc(lattice)}&freedom=${enc(freedom)}`);
    } catch (e) {
      showError($("paint"), $("paint-error"), e);
      return;
    }
    if ($("piece-set").value !== name || $("paint-freedom").value !== freedom) return;
    box.textContent = "";
    for (const piece of set.pieces) {
      const input = el("input", { type: "number", min: 0, max: 100, value: before.get(piece.name) ?? $("set-copies").value });
      input.dataset.piece = piece.name;
      input.setAttribute("aria-label", `how many ${piece.name}`);
      const chip = el("label", { className: "piece-chip" }, shapeSvg(lattice, piece.cells, "#9fb7e6"),
                      el("span", { textContent: piece.name }), input);
      chip.dataset.piece = piece.name;
      box.append(chip);
    }
  }

  function drawGridSize(lattice) {
    return lattice === "triangle" ? [4, 4] : [5, 5];
  }

  function drawDrawGrid() {
    const lattice = $("paint-lattice").value;
    const [rows, cols] = drawGridSize(lattice);
    const svg = $("draw-grid");
    svg.textContent = "";
    const polys = gridCells(lattice, rows, cols).map((cell) => [cell, cellPoints(lattice, cell, rows)]);
    const xs = polys.flatMap(([, pts]) => pts.map((p) => p[0])), ys = polys.flatMap(([, pts]) => pts.map((p) => p[1]));
    const minX = Math.min(...xs), minY = Math.min(...ys), w = Math.max(...xs) - minX, h = Math.max(...ys) - minY;
    svg.setAttribute("viewBox", `${minX - 2} ${minY - 2} ${w + 4} ${h + 4}`);
    const scale = 0.75;                            // 24 px a cell: five fit on a phone beside nothing
    svg.setAttribute("width", Math.ceil((w + 4) * scale));
    svg.setAttribute("height", Math.ceil((h + 4) * scale));
    for (const [cell, pts] of polys) {
      const poly = svgEl("polygon", { class: "cell", points: pts.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" ") });
      poly.dataset.cell = cell.join(",");
      poly.classList.toggle("on", own.cells.has(poly.dataset.cell));
      svg.append(poly);
    }
  }

  function nextName() {
    const taken = new Set([...document.querySelectorAll("#set-pieces .piece-chip"), ...own.drawn]
      .map((p) => p.dataset ? p.dataset.piece : p.name));
    for (let k = 1; ; k++) if (!taken.has(`P${k}`)) return `P${k}`;
  }

  function setupDraw() {
    const svg = $("draw-grid");
    svg.addEventListener("click", (e) => {
      const key = e.target && e.target.dataset ? e.target.dataset.cell : null;
      if (!key) return;
      if (own.cells.has(key)) own.cells.delete(key); else own.cells.add(key);
      e.target.classList.toggle("on", own.cells.has(key));
      $("draw-error").textContent = "";
    });
    $("draw-clear").onclick = () => { own.cells.clear(); drawDrawGrid(); };
    $("draw-add").onclick = addDrawn;
    drawDrawGrid();
  }

  // Why the piece on the drawing grid cannot join the pieces as NAME, COUNT times; or "".
  function drawnRefusal(name, count) {
    if (!own.cells.size) return "Click the cells of the piece first.";
    if (own.drawn.some((p) => p.name === name)) return `You have a piece named ${name} already.`;
    return count >= 1 && count <= 100 ? "" : "How many: a whole number from 1 to 100.";
  }

  // The piece drawn joins the pieces (the server checks it with the rest, at Create).
  function addDrawn() {
    const name = $("draw-name").value.trim() || nextName();
    const count = Math.floor(Number($("draw-count").value));
    $("draw-error").textContent = drawnRefusal(name, count);
    if ($("draw-error").textContent) return;
    own.drawn.push({ name, count, cells: [...own.cells].map((k) => k.split(",").map(Number)) });
    own.cells.clear();
    Object.assign($("draw-name"), { value: "" });
    Object.assign($("draw-count"), { value: 1 });
    drawDrawGrid();
    showDrawn();
  }

  function showDrawn() {
    const box = $("drawn-pieces");
    box.textContent = "";
    box.classList.remove("bad");                   // what a refusal said was of the pieces before
    if (box.nextElementSibling && box.nextElementSibling.classList.contains("field-error")) box.nextElementSibling.remove();
    const lattice = $("paint-lattice").value;
    for (const piece of own.drawn) {
      const remove = el("button", { type: "button", className: "remove", textContent: "×", title: `remove ${piece.name}` });
      remove.onclick = () => { own.drawn = own.drawn.filter((p) => p !== piece); showDrawn(); };
      const chip = el("span", { className: "piece-chip" }, shapeSvg(lattice, piece.cells, "#f0b37e"),
                      el("span", { textContent: `${piece.name} ×${piece.count}` }), remove);
      chip.dataset.piece = piece.name;
      box.append(chip);
    }
  }

  // How many of each of the set's pieces, as the page shows them.
  function setCounts() {
    return Object.fromEntries([...document.querySelectorAll("#set-pieces input")]
      .map((i) => [i.dataset.piece, Number(i.value)]));
  }

  async function createPainted() {
    const box = $("paint"), fallback = $("paint-error");
    clearErrors(box, fallback);
    $("paint-cells-error").textContent = "";
    const { lattice, topology } = paintSize();
    if (paint.cells.size === 0) {
      $("paint-cells-error").textContent = "Paint the region first: click or drag over the cells of the grid.";
      reveal($("paint-cells-error"));
      return;
    }
    const body = {
      lattice, topology,
      cells: [...paint.cells].map((k) => k.split(",").map(Number)),
      pieces: $("piece-set").value || null,
      counts: setCounts(),
      drawn: own.drawn,
      freedom: $("paint-freedom").value,
      title: $("paint-title").value,
    };
    await submit(box, fallback, "api/paint", body, (err) => {
      if (err.field === "cells") {
        $("paint-cells-error").textContent = err.message;
        reveal($("paint-cells-error"));
        return true;
      }
      if (err.field === "drawn") $("draw-box").open = true;       // the message beside the pieces
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
  // An instance's answer (IQ-Link's `answer`, a generator's `planted` board) is not shown: See
  // poses the puzzle. The downloaded file is the file, whole.
  const ANSWER_LINE = /^\s*(answer|planted)\s*=.*$/gm;

  // What the picture is: the puzzle posed, never an answer (the old page captioned it "solution").
  const CAPTION = "The puzzle before any search: not a solution.";

  // Facts as the server gives them: {key: value}, [[label, value]] or [{label, value}].
  function factRows(facts) {
    if (!facts) return [];
    if (Array.isArray(facts)) {
      return facts.map((f) => (Array.isArray(f) ? f : [f.label || f.name || f.key, f.value]));
    }
    return Object.entries(facts);
  }

  // The facts as a table; with `met`, the command line's options their names quote are marked
  // (`satiling info` names its "hint pieces (--hints)") and gathered in `met`.
  function fillFacts(table, facts, met, family) {
    table.textContent = "";
    for (const [k, v] of factRows(facts)) {
      if (!given(v) || v === "") continue;
      const value = typeof v === "object" ? JSON.stringify(v) : (typeof v === "number" ? fmtNumber(v) : String(v));
      let key = String(k).replace(/_/g, " ");
      // a fact that is none quotes an option that does nothing for this puzzle: left out
      if (value === "none") key = key.replace(/\s*\(--[a-z-]+\)/g, "");
      const th = el("th", {}, ...(met ? withFlags(key, met, family) : [key]));
      table.append(el("tr", {}, th, el("td", {}, ...withPaths(value))));
    }
    return table.rows.length;
  }

  // ---- 2. See: the command line's options in the puzzle's words ----------------------------------

  // What an option of the command line is on this page: the control that does the same. The
  // family's model options (--hints, --parity) are the run form's, one control each
  // (pageControl).
  const PAGE_CONTROLS = {
    "--time-limit": "the Time limit (s) box on Watch",
    "--engine": "the Engine menu on Watch",
    "--raw": "“every solution (raw)” in the Count menu on Watch",
    "--symmetry": "the Count menu on Watch",
    "--maximize-matches": "the task “maximise matching edges” on Watch",
  };
  const FLAG = /(?<![\w-])--[a-z][a-z-]*/g;

  // The control on this page that does what FLAG does on the command line, in words, or null:
  // one of PAGE_CONTROLS, or a model option of the puzzle's family (the run form's box of that
  // name).
  function pageControl(flag, family) {
    if (PAGE_CONTROLS[flag]) return PAGE_CONTROLS[flag];
    const option = familyOptions(family).find((o) => o.flag === flag);
    return option ? `the option “${option.label}” in the run form on Watch` : null;
  }

  // A bundled data file as the puzzles' words cite it (data/eternity2/SOURCE.md): a path under
  // data/ whose last part has a suffix (data/eternity/, a folder, is no file); no part starts
  // with a dot, so none climbs out (the server refuses any other path anyway).
  const DATA_PATH = /(?<![\w./-])data\/(?:[\w-][\w.-]*\/)*[\w-]+(?:\.[\w-]+)+/g;

  // TEXT as nodes, each bundled data file it cites a link to the file as the server serves it
  // (GET api/data/...), the words themselves unchanged.
  function withPaths(text) {
    const out = [];
    let at = 0;
    for (const m of text.matchAll(DATA_PATH)) {
      out.push(text.slice(at, m.index), el("a", { href: withToken(`api/${m[0]}`), textContent: m[0],
        target: "_blank", rel: "noopener", title: "the file, as satiling has it" }));
      at = m.index + m[0].length;
    }
    out.push(text.slice(at));
    return out.filter((n) => n !== "");
  }

  // TEXT as nodes, each option of the command line it quotes marked as one (the file's words are
  // kept as they are: they are its provenance) and added to `met`, each data file it cites a link
  // (withPaths). A "Generated by:" line is a whole command line, and says so: no option marked.
  function withFlags(text, met, family) {
    const out = [];
    for (const line of text.split(/(?<=\n)/)) {
      let at = 0;
      if (!/^generated by/i.test(line)) {
        for (const m of line.matchAll(FLAG)) {
          const here = pageControl(m[0], family);
          out.push(line.slice(at, m.index), el("code", { className: "cli-flag", textContent: m[0],
            title: here ? `on this page: ${here}` : "an option of the command line" }));
          met.add(m[0]);
          at = m.index + m[0].length;
        }
      }
      out.push(line.slice(at));
    }
    return out.filter((n) => n !== "").flatMap((n) => typeof n === "string" ? withPaths(n) : [n]);
  }

  // One line under the facts saying what the options quoted are on this page.
  function showFlags(met, name, family) {
    const code = (text) => el("code", { className: "cli-flag", textContent: text });
    const line = [];
    for (const flag of met) {
      const here = pageControl(flag, family);
      if (here) line.push(code(flag), ` is ${here}. `);
    }
    const none = [...met].filter((f) => !pageControl(f, family));
    if (none.length) {
      const bundled = name && !name.includes(":") && !name.startsWith("i-") ? name : "NAME";
      none.forEach((f, i) => line.push(i ? " and " : "", code(f)));
      line.push(` ${none.length > 1 ? "are options" : "is an option"} of satiling's command line (`,
                code(`satiling solve ${bundled} ${none[0]}`),
                `): this page has no control for ${none.length > 1 ? "them" : "it"}, and its runs go without.`);
    }
    $("see-flags").replaceChildren(...line);
    $("see-flags").hidden = !line.length;
  }

  // The facts for the table: the file's own words are a paragraph of their own, and the argument
  // that settles the puzzle is said once, in the banner above (tetromino-4x5's parity proof stood
  // there, in the parity row and in an obstruction row, word for word).
  function tableFacts(facts, obstruction) {
    if (!facts) return null;
    const rows = Object.entries(facts).filter(([k]) => k !== "about" && k !== "obstruction");
    return Object.fromEntries(rows.map(([k, v]) => [k, obstruction && v === obstruction ? "rules out every solution (the argument above)" : v]));
  }

  async function showPuzzle(name) {
    $("see-empty").hidden = !!name;
    // another puzzle's page goes at once; the same one's stays while its facts are asked again
    if ($("see-name").textContent !== name) $("see-body").hidden = true;
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
    $("see-title").textContent = d.title || shortName(d.name);
    $("see-name").textContent = d.name.startsWith("satiling:") ? `${d.name.slice(0, 24)}… (shared: its link below)` : d.name;
    $("see-family").textContent = d.family;
    // drawn once a puzzle (the page is asked again while its facts are measured: what a tap on a
    // tile said under the picture stays)
    if ($("see-svg").dataset.name !== d.name) showParts($("see-svg"), d.svg);
    $("see-svg").dataset.name = d.name;
    $("see-caption").textContent = CAPTION;
    $("see-obstruction").hidden = !d.obstruction;
    $("see-obstruction").textContent = d.obstruction ? `Settled before any search: ${d.obstruction}` : "";
    // What a puzzle person asks (known counts and their source, cells, pieces) apart from the
    // model's sizes.
    const facts = d.facts;
    const model = d.model;
    // the instance file's own words (its known counts and where they come from) as a paragraph;
    // the command line's options they and the facts quote marked, and said in the page's terms
    const met = new Set();
    $("see-about").replaceChildren(...withFlags(facts && facts.about ? facts.about : "", met, d.family));
    fillFacts($("see-facts"), tableFacts(facts, d.obstruction), met, d.family);
    showFlags(met, d.name, d.family);
    fillFacts($("see-model"), model);
    $("see-facts").hidden = $("see-facts-head").hidden = !$("see-facts").rows.length;
    $("see-model-box").open = !$("see-facts").rows.length;     // nothing else beside the picture
    $("see-pending").textContent = d.pending ? "Still measuring the model: the rest follows in a moment." : "";
    $("see-toml").textContent = d.toml.replace(ANSWER_LINE, (line) => `${line.split("=")[0].trim()} = … (not shown here; it is in the downloaded file)`);
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
    showBoardScoring(d);
    document.dispatchEvent(new CustomEvent("satiling:see", { detail: d }));   // workbench.js
  }

  // ---- See: a pasted board scored (POST api/puzzles/NAME/score, what `satiling score` says) ------

  let seenPuzzle = null;     // the puzzle whose board or solution the boxes below check

  // The scoring box on an edge-matching puzzle's page; another puzzle's page starts both boxes empty.
  function showBoardScoring(d) {
    $("see-score").hidden = d.family !== "edgematch";
    if (seenPuzzle && seenPuzzle.name === d.name) return;
    seenPuzzle = d;
    $("see-score-board").value = "";
    showScoredBoard(null);
    clearErrors($("see-score"), $("see-score-error"));
    $("see-check-solution").value = "";
    checkHelp(d.name);
    showCheckedSolution(null);
    clearErrors($("see-check"), $("see-check-error"));
  }

  function showScoredBoard(got) {
    $("see-score-svg").innerHTML = got ? got.svg : "";
    const misfits = got && got.misfits ? `, ${got.misfits} pieces off their frame position` : "";
    $("see-score-line").textContent = got ? `score ${got.score}/${got.joins} (${got.filled}/${got.squares} squares filled${misfits})` : "";
    const fixed = got ? got.pins.filter((p) => p.kind === "fixed").length : 0;
    // a fixed piece out of place breaks the puzzle; a hint piece only makes it the puzzle without
    // its clues (as the command line, which names hints only under --hints): said, not in red
    $("see-score-pins").replaceChildren(...(got ? got.pins : []).map((p) => {
      const what = `${p.kind === "hint" ? "hint piece" : fixed === 1 ? "starter" : "fixed piece"} ${p.piece}/${p.rotation}`;
      const held = p.holds ? `holds ${p.holds.piece}/${p.holds.rotation}` : "is empty";
      if (p.in_place) return el("li", { className: "in-place", textContent: `the ${what} on ${p.square} is in place` });
      if (p.kind === "hint") return el("li", { className: "hint-elsewhere", textContent: `the ${what} is not on ${p.square} (it ${held}): not a board with the clues` });
      return el("li", { className: "not-in-place", textContent: `${p.square} should hold the ${what}; it ${held}` });
    }));
  }

  function setupBoardScoring() {
    setupPasteBox("see-score", "board", "Paste a board in the box first.", "score", showScoredBoard);
  }

  // A box of See that posts its text to api/puzzles/NAME/ACTION as FIELD and shows the answer
  // (SHOW(null) first: never the last answer beside this one); a refusal in one line beside it.
  function setupPasteBox(id, field, empty, action, show) {
    const area = $(id).querySelector(`[data-field="${field}"]`);
    $(`${id}-send`).addEventListener("click", async () => {
      const box = $(id), name = seenPuzzle && seenPuzzle.name;
      clearErrors(box, $(`${id}-error`));
      show(null);
      if (!area.value.trim()) {
        showError(box, $(`${id}-error`), { message: empty, field });
        return;
      }
      try {
        box.classList.add("busy");
        const got = await api(`api/puzzles/${enc(name)}/${action}`, { [field]: area.value });
        if (seenPuzzle && seenPuzzle.name === name) show(got);
      } catch (err) {
        showError(box, $(`${id}-error`), err);
      } finally {
        box.classList.remove("busy");
      }
    });
  }

  // ---- See: a pasted solution file checked (POST api/puzzles/NAME/check, what `satiling verify` says)

  function showCheckedSolution(got) {
    $("see-check-svg").innerHTML = got && got.svg ? got.svg : "";
    $("see-check-line").textContent = got ? checkLine(got) : "";
    // a wrong solution in the page's colour for what is bad, a verified one in its good colour
    $("see-check-line").classList.toggle("wrong", !!(got && got.wrong));
    $("see-check-line").classList.toggle("verified", !!(got && !got.wrong));
  }

  // Where a solution file of this puzzle comes from, said above the box (a placeholder was cut
  // off on a phone). The command line knows a bundled puzzle by its name; a posted one (painted,
  // generated, uploaded: an id only this server knows) or a shared one by its instance file, the
  // download below (a posted one's is named ID.toml); any puzzle's runs give their solutions as
  // a JSON Lines download on Browse.
  function checkHelp(name) {
    const code = (text) => el("code", { className: "command", textContent: text });
    const bundled = !name.includes(":") && !name.startsWith("i-");
    const file = bundled ? name : name.startsWith("i-") ? `${name}.toml` : "FILE.toml";
    $("see-check-help").replaceChildren(
      "Paste a solution file: a run's “whole run as JSON Lines” (on Browse), or what ",
      code(`satiling solve ${file} --json`), " or ", code(`satiling enumerate ${file}`), " writes",
      ...(bundled ? [] : [` (${file}: this puzzle's instance file, the download below)`]), ".");
    $("see-check-solution").placeholder = "one solution per line, as JSON";
  }

  // The line `satiling verify` prints: its count (and repeats), or the first wrong solution.
  function checkLine(got) {
    if (got.wrong) return `solution ${got.wrong.index} is wrong: ${got.wrong.error}`;
    const n = got.solutions, again = n - got.different;
    const repeats = again ? ` (${again} repeat${again === 1 ? "s" : ""} an earlier one: ${got.different} different)` : "";
    return `${n} solution${n === 1 ? "" : "s"} verified${repeats}`;
  }

  function setupSolutionCheck() {
    setupPasteBox("see-check", "solution", "Paste a solution in the box first.", "check", showCheckedSolution);
  }

  // ---- 3. Watch: the task and engine menus, from the server's engine table ------------------------

  let META = { tasks: [], engines: {}, families: {}, option_tasks: {} };
  const TASK_WORDS = {
    solve: "solve: find a solution",
    count: "count every solution",
    enumerate: "enumerate: list every solution",
    maximise: "maximise matching edges",
    pack: "pack: the most pieces that fit",
    unique: "unique: is the solution the only one",
    forced: "forced: what every solution holds",
    hint: "hint: one placement of a solution",
  };
  const TASK_HINTS = {
    solve: "Finds one solution and shows it, or proves there is none (without a time limit it runs until it does, or until you stop it).",
    count: "Counts every solution; the bar is the engine's estimate of the search done, and while it runs the picture is the board the search stands on (where its engine can show one: not a SAT solver's).",
    enumerate: "Finds and keeps every solution, to browse a page at a time; shows the latest found as it goes.",
    maximise: "Edge matching: the board with the most matching edges in the time given.",
    pack: "Polyforms: places as many pieces as fit and shows the hole left; a proved most below every piece shows the board cannot be tiled.",
    unique: "IQ-Link: solves the challenge, then looks for a second solution: unique, or not unique with the second one drawn.",
    forced: "The placements every solution holds (with the puzzle's pins); Stop keeps those proved so far.",
    hint: "One placement of some solution that agrees with the pins, at random.",
  };
  // the family each task is for (the others are for every family)
  const TASK_FAMILY = { maximise: "edgematch", pack: "polyform", unique: "iqlink" };

  async function loadMeta() {
    META = await api("api/meta");
    const select = $("task");
    select.textContent = "";
    for (const task of META.tasks) select.append(el("option", { value: task, textContent: TASK_WORDS[task] || task }));
    updateTaskMenu();
  }

  // The engines of the task that take the chosen puzzle's family (the server's table says which).
  function fillEngines() {
    const select = $("engine");
    const keep = select.value;
    const p = puzzles.get($("watch-puzzle").value);
    select.textContent = "";
    for (const e of META.engines[$("task").value] || []) {
      if (p && e.families && e.families.length && !e.families.includes(p.family)) continue;
      select.append(el("option", { value: e.name, textContent: e.label || e.name }));
    }
    if ([...select.options].some((o) => o.value === keep)) select.value = keep;
  }

  // Maximise is for edge matching only; the count's symmetry for count and enumerate only.
  function updateTaskMenu() {
    const p = puzzles.get($("watch-puzzle").value);
    const task = $("task");
    for (const option of task.options) {
      const family = TASK_FAMILY[option.value];
      option.disabled = !!family && !!p && p.family !== family;
    }
    if (task.selectedOptions[0] && task.selectedOptions[0].disabled) task.value = META.tasks[0];
    $("symmetry-label").hidden = !(task.value === "count" || task.value === "enumerate");
    $("task-hint").textContent = TASK_HINTS[task.value] || "";
    fillEngines();
    fillOptions();
  }

  // ---- 3. Watch: the family's model options, one control each, from the registry's table -----------

  // The model options of a family, as GET /api/meta lists them (the command line's flags).
  function familyOptions(family) {
    const record = (META.families || {})[family];
    return record ? record.options : [];
  }

  // Every family's options, to name a run's by their flags.
  function flagOf(key) {
    for (const record of Object.values(META.families || {})) {
      const option = record.options.find((o) => o.key === key);
      if (option) return option.flag;
    }
    return `--${key.replace(/_/g, "-")}`;
  }

  // One control per option of the chosen puzzle's family (built again when the family changes;
  // another puzzle of the same family keeps what was set), shown where the task takes them.
  function fillOptions() {
    const p = puzzles.get($("watch-puzzle").value);
    const family = p ? p.family : "";
    const box = $("model-options"), list = $("model-option-list");
    if (box.dataset.family !== family) {
      box.dataset.family = family;
      list.textContent = "";
      for (const option of familyOptions(family)) list.append(optionControl(option));
      const record = (META.families || {})[family];
      $("model-options-legend").textContent = record ? `${record.title} options` : "Model options";
    }
    const task = $("task").value, keys = (META.option_tasks || {})[task];
    box.hidden = !list.children.length || !takesOptions(task);
    // a task that takes some of them (maximise: the hint pieces) offers those alone
    for (const input of list.querySelectorAll("[data-key]")) {
      input.disabled = Array.isArray(keys) && !keys.includes(input.dataset.key);
      const label = input.closest("label");
      label.classList.toggle("off", input.disabled);
      label.title = input.disabled ? `${task} takes ${keys.map(flagOf).join(", ")} only` : "";
    }
    const off = list.querySelector("[data-key]:disabled");
    $("model-options-note").textContent = off ? `${task} takes ${keys.map(flagOf).join(", ")} only (the others are for solve, count and enumerate).` : "";
    showFormNotes();
  }

  // Whether TASK takes model options (its command has their flags).
  function takesOptions(task) {
    return Object.prototype.hasOwnProperty.call(META.option_tasks || {}, task);
  }

  // An option's control: a checkbox for a flag, a menu for its choices, a number or text box
  // otherwise; labelled in a puzzle solver's words and the flag, its help on the command line
  // (the model's words) on a pointer's rest.
  function optionControl(option) {
    let input;
    if (option.kind === "flag") {
      input = el("input", { type: "checkbox" });
    } else if (option.choices.length) {
      input = el("select", {}, el("option", { value: "", textContent: "default" }),
                 ...option.choices.map((c) => el("option", { value: c, textContent: c })));
    } else {
      input = el("input", { type: option.kind === "int" ? "number" : "text", placeholder: "default" });
      if (option.kind === "int") input.step = "1";
    }
    input.dataset.key = option.key;
    input.dataset.kind = option.kind;
    input.id = `option-${option.key}`;
    // the flag inside the words, so that on a phone it follows them rather than standing apart
    return el("label", { className: "model-option", title: `${option.flag}: ${option.help}` }, input,
              el("span", {}, `${option.label} `, el("code", { className: "cli-flag", textContent: option.flag })));
  }

  // The options set in the form, keyed as the API takes them (unset ones left out).
  function optionValues() {
    const out = {};
    for (const input of $("model-option-list").querySelectorAll("[data-key]")) {
      const kind = input.dataset.kind;
      if (input.disabled) continue;                 // not the task's: never sent
      if (kind === "flag") {
        if (input.checked) out[input.dataset.key] = true;
      } else if (input.value.trim() !== "") {
        out[input.dataset.key] = kind === "int" ? Number(input.value) : input.value.trim();
      }
    }
    return out;
  }

  // The form's options as a run had them (those it did not set cleared).
  function setOptionValues(options) {
    for (const input of $("model-option-list").querySelectorAll("[data-key]")) {
      const value = (options || {})[input.dataset.key];
      if (input.dataset.kind === "flag") input.checked = value === true;
      else input.value = given(value) ? String(value) : "";
    }
  }

  // A run's options as the command line's words ("--hints", "--encoding", "compact").
  function optionWords(options) {
    return Object.entries(options || {})
      .flatMap(([key, value]) => (value === true ? [flagOf(key)] : [flagOf(key), shellWord(String(value))]));
  }

  // A word as a shell takes it: quoted where it holds anything but plain characters.
  function shellWord(word) {
    return /^[\w.,:/=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
  }

  // The command of each task (maximise is solve's --maximize-matches).
  const TASK_COMMANDS = { count: "count", enumerate: "enumerate", pack: "pack", unique: "iqlink unique",
                          forced: "forced", hint: "hint" };

  // The form's run as satiling's command line runs it, word by word: the task's command, the
  // engine, the count's symmetry, the time limit and the model options set. A puzzle of the
  // user's own is its instance file (See downloads it), a shared one its share text.
  function commandLine() {
    const task = $("task").value, engine = $("engine").value, name = $("watch-puzzle").value;
    if (!name) return [];
    const words = ["satiling", ...(TASK_COMMANDS[task] || "solve").split(" "),
                   shellWord(name.startsWith("i-") ? `${name}.toml` : name)];
    if (task === "maximise") words.push(engine === "auto" ? "--maximize-matches" : `--maximize-matches=${engine}`);
    else if (task === "forced" && engine !== "auto") words.push("--method", engine);
    else if (["solve", "count", "enumerate"].includes(task) && engine !== "auto") words.push("--engine", engine);
    if (task === "count" || task === "enumerate") {
      const symmetry = $("symmetry").value;
      if (symmetry === "none") words.push("--raw");
      else if (symmetry) words.push("--symmetry", symmetry);
    }
    const limit = $("time-limit").value.trim();
    if (limit !== "" && task !== "unique") words.push("--time-limit", shellWord(limit));
    if (takesOptions(task)) words.push(...optionWords(optionValues()));
    return words;
  }

  // The command line, each word kept whole where it wraps ("--parity" broke after its dashes);
  // a share text, longer than a phone is wide, may break anywhere.
  function showCommand() {
    const words = commandLine();
    $("run-command-line").replaceChildren(...words.flatMap((w, i) => [
      ...(i ? [" "] : []), el("span", { className: w.length > 40 ? "" : "word", textContent: w })]));
    $("run-command").hidden = !words.length;
  }

  // The lines under the form, which follow each change of it: the command line, and the warning
  // of a run that may never end.
  function showFormNotes() {
    showCommand();
    showWarning();
  }

  // The puzzle's model is this large or more (Eternity II's 155,253 placements, Eternity's
  // 1,372,296; the bundled puzzles that solve in seconds have under 10,000): a search of it may
  // not end in a lifetime.
  const HUGE_PLACEMENTS = 100000;
  // the words an instance file says "no solution is known" in (Eternity II's; Eternity's data)
  const NO_KNOWN_SOLUTION = /\bno solution (?:is |has been )?known\b|\bno solution data\b/i;

  // Why a run of RECORD (a puzzle's record: its file's words; its model's size where the page
  // has measured it) may never end, or null: what the puzzle's own data says, never a guess.
  function neverEnds(record) {
    if (record.obstruction) return null;                 // an argument settles it before any search
    const about = (record.facts && record.facts.about) || "";
    if (NO_KNOWN_SOLUTION.test(about)) return "No solution of this puzzle is known (its instance file says so)";
    const model = record.model || {};
    const size = Number(model.placements ?? model["legal placements"]) || 0;
    if (size >= HUGE_PLACEMENTS) return `This puzzle is huge (${fmtNumber(size)} placements)`;
    return null;
  }

  // The warning under the form: a task that takes a time limit, none set, on such a puzzle.
  async function showWarning() {
    const name = $("watch-puzzle").value, task = $("task").value;
    const unlimited = $("time-limit").value.trim() === "" && task !== "unique";
    let why = null;
    if (name && unlimited) {
      try { why = neverEnds(await cardRecord(name)); } catch (e) { why = null; }
    }
    // the form may have changed while the record came
    if (name !== $("watch-puzzle").value || task !== $("task").value) return;
    $("run-warning").textContent = why && $("time-limit").value.trim() === ""
      ? `${why}: without a time limit this run may never end, and it keeps one of the server's cores busy until you press Stop. Set a time limit to have it end by itself.`
      : "";
  }

  // ---- 3. Watch: starting a run -------------------------------------------------------------------

  const live = {
    id: null, source: null, run: null, scores: [], seconds: 0, state: null,
    clock: { seconds: 0, at: 0, running: false }, solution: false,
  };

  function fillPuzzleSelect() {
    const select = $("watch-puzzle");
    const keep = select.value;
    // no puzzle until one is chosen (the first of the list was run by a Start nobody aimed)
    select.replaceChildren(el("option", { value: "", textContent: "choose a puzzle…", disabled: true }));
    for (const p of puzzles.values()) {
      // every puzzle by its name and title, a bundled one too (it was a bare name beside the
      // user's own titled ones)
      const label = p.name.startsWith("i-") ? `${p.title || "instance"} (${p.name})`
        : (p.name.startsWith("satiling:") ? `${p.title || "a shared puzzle"} (shared)`
          : (p.title ? `${p.name}: ${p.title}` : p.name));
      select.append(el("option", { value: p.name, textContent: label }));
    }
    select.value = keep && puzzles.has(keep) ? keep : "";
    updateTaskMenu();
  }

  // NAME chosen in the run form's menu, put in it first where it is not (a share text; a puzzle
  // of the user's own posted since the page loaded); the menu on "choose" where the server does
  // not know it. Whether it is chosen.
  async function choosePuzzle(name) {
    if (!puzzles.has(name)) {
      try {
        listPuzzle(await cardRecord(name));
      } catch (e) {
        $("watch-puzzle").value = "";
        updateTaskMenu();
        $("run-error").textContent = e.message;
        return false;
      }
    }
    $("watch-puzzle").value = name;
    updateTaskMenu();
    return true;
  }

  async function startRun() {
    const box = $("start-panel"), fallback = $("run-error");
    clearErrors(box, fallback);
    const task = $("task").value;
    const limit = $("time-limit").value.trim();
    const symmetry = $("symmetry").value;
    if (!$("watch-puzzle").value) {
      showError(box, fallback, { message: "Choose the puzzle to run first.", field: "puzzle" });
      return;
    }
    const body = {
      puzzle: $("watch-puzzle").value, task, engine: $("engine").value,
      time_limit: limit === "" ? null : Number(limit),
    };
    if (task === "count" || task === "enumerate") {   // the group is a count's (the server refuses it elsewhere)
      body.raw = symmetry === "none";
      body.symmetry = symmetry === "" || symmetry === "none" ? null : symmetry;
    }
    const options = optionValues();
    // the options where the task takes them (their box is hidden elsewhere: nothing is sent unseen)
    if (takesOptions(task) && Object.keys(options).length) body.options = options;
    try {
      const { id } = await api("api/runs", body);
      location.hash = `#run/${enc(id)}`;
      refreshRuns();
    } catch (err) {
      showError(box, fallback, err);
    }
  }

  // ---- 3. Watch: following one run ----------------------------------------------------------------

  function resetLive(id) {
    if (live.source) live.source.close();
    Object.assign(live, { id, source: null, run: null, scores: [], seconds: 0, state: null, solution: false });
    live.clock = { seconds: 0, at: 0, running: false };
    $("live").hidden = !id;
    $("live").classList.remove("unknown");
    $("live-id").textContent = id || "";
    // the runs table marks this run at once (its row said the run before's state until the next refresh)
    for (const row of $("runs").querySelectorAll("tbody tr")) row.classList.toggle("current", row.id === `run-${id}`);
    $("live-task").textContent = "";
    $("live-puzzle").textContent = "";
    $("live-options").textContent = "";
    $("run-state").textContent = "";
    $("run-state").className = "state";
    $("found").textContent = "0";
    $("rate").textContent = "–";
    $("eta").textContent = "–";
    $("elapsed").textContent = fmtSeconds(0);
    $("score").textContent = "–";
    $("live-error").textContent = "";
    $("live-note").textContent = "";
    $("run-outcome").textContent = "";
    $("progress").value = 0;
    $("progress-text").textContent = "";
    $("time-bar").value = 0;
    $("time-bar-text").textContent = "";
    for (const box of ["partial-box", "solution-box", "maximise-box", "search-bar", "time-bar-box", "live-links"]) $(box).hidden = true;
    $("partial-board").textContent = "";
    $("partial-board").dataset.snapshots = "0";
    $("solution-board").textContent = "";
    $("best-board").textContent = "";
    $("best-json").removeAttribute("href");
    $("best-svg-link").removeAttribute("href");
    $("best-png-link").removeAttribute("href");
    $("stop").disabled = true;
    drawPlot();
  }

  // The panels a task has: the count's figures and estimate for count and enumerate, the best
  // board and score plot for maximise, the time-limit bar where there is a limit.
  function taskPanels(run) {
    const maximise = run.task === "maximise";
    const counting = run.task === "count" || run.task === "enumerate";
    $("maximise-box").hidden = !maximise;
    $("score-box").hidden = !maximise;
    for (const box of ["rate-box", "eta-box", "search-bar"]) $(box).hidden = !counting;
    $("found-box").hidden = !(counting || ["pack", "unique", "forced"].includes(run.task));
    $("found-label").textContent = { count: "counted", pack: "pieces placed", unique: "solutions", forced: "forced" }[run.task] || "found";
    $("time-bar-box").hidden = !given(run.time_limit);
    $("live-links").hidden = !storesSolutions(run);
    $("live-browse").textContent = maximise ? "the best board kept…"
      : ({ solve: "the solution kept…", pack: "the packing kept…", forced: "the forced placements kept…",
           hint: "the hint kept…", unique: "the solutions kept…" }[run.task] || "all its solutions…");
  }

  // An engine in words, as the server's engine table labels it (a bare engine name says little):
  // as the run's task's menu has it (forced's sat is "SAT under assumptions", not a solve's).
  function engineLabel(name, task) {
    const engines = META.engines || {};
    for (const list of [engines[task] || [], ...Object.values(engines)]) {
      const known = list.find((e) => e.name === name);
      if (known && known.label && known.label !== name) return known.label;
    }
    return name || "";
  }

  // The run's note, unless the engine's name or the outcome line says it already (a hint's).
  function runNote(run) {
    return run.note && run.note !== run.engine && !outcomeText(run).includes(run.note) ? run.note : "";
  }

  function runHeading(run) {
    $("live-task").textContent = run.task;
    $("live-engine").textContent = engineLabel(run.engine, run.task);
    const title = run.title || titleOf(run.puzzle);
    $("live-puzzle").textContent = title && title !== run.puzzle ? `“${title}” (${shortName(run.puzzle)})` : shortName(run.puzzle);
    $("live-options").textContent = withOptions(run);
  }

  // " with --hints": the model options a run had, as the command line's flags ("" for none).
  function withOptions(run) {
    const words = optionWords(run.options);
    return words.length ? ` with ${words.join(" ")}` : "";
  }

  async function followRun(id) {
    if (live.id === id && live.source) return;
    resetLive(id);
    let run;
    try {
      run = await api(`api/runs/${enc(id)}`);
    } catch (e) {
      if (live.id !== id) return;
      $("live").classList.add("unknown");         // its message alone: no figures of no run
      $("live-error").textContent = e.status === 404
        ? `There is no run ${id} on this server (${e.message}): choose a run from the list below.` : e.message;
      return;
    }
    if (live.id !== id) return;
    live.run = run;
    runHeading(run);
    $("live-browse").href = `#browse/${enc(id)}`;
    formFromRun(run);
    taskPanels(run);
    $("live-note").textContent = runNote(run);
    $("found").textContent = fmtNumber(run.found);
    if (given(run.seconds)) tick(Number(run.seconds));
    setState(run);
    if (run.error) $("live-error").textContent = run.error;
    if (run.task === "maximise") {
      if (given(run.score)) showScore(run.score, run.joins);
      if (run.best_svg) $("best-board").innerHTML = run.best_svg;
      try {
        const points = await api(`api/runs/${enc(id)}/scores`);
        if (live.id !== id) return;
        for (const [s, v] of points) addScore(s, v);
      } catch (e) { /* the plot starts empty */ }
      drawPlot();
      updateBestLinks();
    }
    if (FINAL.has(shownState(run))) {
      endRun(run);
      return;
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

  // The run form as the run had it (its puzzle, a share text's or a stored one's too, task,
  // engine, count, time limit and options): its command line is the run's, and Start repeats
  // it. The engine is the one the run records: the one asked for until it chose, then the one
  // that ran ("auto" where that is not an engine of the menu: a solve settled by an argument).
  async function formFromRun(run) {
    if (!(await choosePuzzle(run.puzzle)) || live.id !== run.id) return;
    if ([...$("task").options].some((o) => o.value === run.task)) $("task").value = run.task;
    updateTaskMenu();
    $("engine").value = [...$("engine").options].some((o) => o.value === run.engine) ? run.engine : "auto";
    $("time-limit").value = given(run.time_limit) ? String(run.time_limit) : "";
    $("symmetry").value = run.raw ? "none" : (run.symmetry === "rotations" ? "rotations" : "");
    setOptionValues(run.options);
    clearErrors($("start-panel"), $("run-error"));
    showFormNotes();
  }

  function setState(run) {
    const state = shownState(run);
    live.state = state;
    const node = $("run-state");
    node.textContent = state;
    node.className = `state state-${state}`;
    $("run-outcome").textContent = outcomeText(run);
    $("run-outcome").className = `outcome state-${state}`;
    $("stop").disabled = !(state === "running" || state === "queued");
    $("stop").hidden = FINAL.has(state);
    live.clock.running = state === "running";
    if (state === "running" && !live.clock.at) tick(live.clock.seconds);
  }

  // ---- the clock: the run's own seconds at each progress tick, and the wall clock between ticks

  // While the run goes the clock never goes back: a tick reports the run's time when the search
  // sent it, a moment before the page reads it.
  function tick(seconds) {
    live.clock.seconds = Math.max(0, live.clock.running ? Math.max(seconds, clockSeconds()) : seconds);
    live.clock.at = performance.now();
    showClock();
  }

  function clockSeconds() {
    const c = live.clock;
    return c.running && c.at ? c.seconds + (performance.now() - c.at) / 1000 : c.seconds;
  }

  function showClock() {
    if (!live.id) return;
    const s = clockSeconds();
    $("elapsed").textContent = fmtSeconds(s);
    const limit = live.run && given(live.run.time_limit) ? Number(live.run.time_limit) : null;
    if (limit) {
      $("time-bar").value = Math.min(1, s / limit);
      $("time-bar-text").textContent = `${fmtSeconds(Math.min(s, limit))} of ${fmtLimit(limit)}`;
    }
  }

  setInterval(() => { if (live.clock.running) showClock(); }, 100);

  function showScore(score, joins) {
    $("score").textContent = joins ? `${score} / ${joins}` : String(score);
  }

  function showFraction(fraction) {
    $("progress").value = fraction;
    const pct = fraction * 100;
    $("progress-text").textContent = pct < 1 ? `${pct.toFixed(1)} %` : `${Math.floor(pct)} %`;
  }

  function onEvent(ev) {
    if (ev.type === "progress") {
      if (live.state !== "running" && !FINAL.has(live.state)) setState(Object.assign(live.run || {}, { state: "running" }));
      if (given(ev.found)) $("found").textContent = fmtNumber(ev.found);
      $("rate").textContent = given(ev.rate) ? `${fmtNumber(Math.round(ev.rate))} /s` : "–";
      $("eta").textContent = etaText(ev);
      if (given(ev.seconds)) tick(Number(ev.seconds));
      if (given(ev.fraction)) showFraction(Math.min(0.999, Number(ev.fraction)));   // full only when finished
      // the clock moves the bar between ticks; a tick never moves it back
      if (given(ev.limit_fraction)) $("time-bar").value = Math.max($("time-bar").value, Math.min(1, Number(ev.limit_fraction)));
      if (live.scores.length) drawPlot();
    } else if (ev.type === "engine") {
      if (live.run) live.run.engine = ev.engine;
      $("live-engine").textContent = engineLabel(ev.engine, live.run && live.run.task);
    } else if (ev.type === "solution") {
      showSolution(ev.svg, ev.index);
    } else if (ev.type === "partial") {
      showPartial(ev.svg);
    } else if (ev.type === "improve") {
      showScore(ev.score, ev.joins);
      addScore(ev.seconds, ev.score);
      drawPlot();
    } else if (ev.type === "board") {
      $("best-board").innerHTML = ev.svg;
      updateBestLinks();
    } else if (ev.type === "end") {
      const run = Object.assign(live.run || {}, ev);
      if (live.source) live.source.close();
      endRun(run);
      refreshRuns();
      finishRun(live.id);
    }
  }

  // The search's own estimate of its time left, which knows nothing of the time limit: where the
  // limit comes first, said so (a newcomer read "4 min 44 s" beside "5 s of 20 s").
  function etaText(ev) {
    if (!given(ev.eta)) return "–";
    const limit = live.run && given(live.run.time_limit) ? Number(live.run.time_limit) : null;
    const left = limit !== null && given(ev.seconds) ? limit - Number(ev.seconds) : null;
    const eta = fmtSeconds(Number(ev.eta));
    return left !== null && Number(ev.eta) > left ? `${eta}, more than the time limit leaves` : eta;
  }

  const maximising = () => !!live.run && live.run.task === "maximise";

  // The engine's board as it works, a few snapshots a second.
  function showPartial(svg) {
    const board = $("partial-board");
    board.innerHTML = svg;
    board.dataset.snapshots = String(Number(board.dataset.snapshots || 0) + 1);
    $("partial-caption").textContent = "The search at work: the board as the engine has it now"
      + (maximising() ? " (on its way to a better board: the best so far is above)" : "");
    $("partial-box").hidden = false;
  }

  function showSolution(svg, index) {
    const task = live.run ? live.run.task : "";
    $("solution-board").innerHTML = svg;
    $("solution-board").dataset.index = given(index) ? String(index) : "";
    const unique = live.run && live.run.task === "unique" && given(live.run.found) ? Number(live.run.found) : null;
    $("solution-caption").textContent = task === "solve" ? "The solution, checked by the verifier"
      : task === "pack" ? "The packing (the hole in white)"
      : task === "forced" ? (shownState(live.run) === "done" ? "The placements every solution holds" : "The placements proved in every solution so far")
      : task === "hint" ? `The pins and the hint${svg.includes('class="marked"') ? " (outlined in orange)" : ""}`
      : task === "unique" && unique === 2 && Number(index) === 1 ? "The second solution: the challenge is not unique"
      : task === "unique" && unique === 1 ? "The one solution, proved unique"
      : `The latest solution found${given(index) ? ` (no. ${fmtNumber(Number(index) + 1)})` : ""}`;
    $("solution-box").hidden = false;
    live.solution = true;
  }

  // The end, from the end event or the run's record: the state in words, the clock stopped at
  // the run's own time, the bar full only when the search finished.
  function endRun(run) {
    live.run = run;
    live.clock.running = false;
    if (given(run.seconds)) tick(Number(run.seconds));
    setState(run);
    if (given(run.found)) $("found").textContent = fmtNumber(run.found);
    if (given(run.score)) showScore(run.score, run.joins || (live.run && live.run.joins));
    if (shownState(run) === "done") {
      showFraction(1);
      $("progress-text").textContent = "finished";
    }
    $("eta").textContent = "–";
    // the rate over the whole run (a page opened after the end heard no live rate)
    const secs = Number(run.seconds), found = Number(run.found);
    if ((run.task === "count" || run.task === "enumerate") && secs > 0 && found > 0) {
      $("rate").textContent = `${fmtNumber(Math.round(found / secs))} /s`;
    }
    showClock();
    if (run.error) $("live-error").textContent = run.error;
    showFinalSolution(run);
  }

  // After the end: the final figures and the error, if any, from the run's record.
  async function finishRun(id) {
    try {
      const run = await api(`api/runs/${enc(id)}`);
      if (live.id !== id) return;
      live.run = run;
      runHeading(run);
      taskPanels(run);
      $("found").textContent = fmtNumber(run.found);
      if (given(run.seconds)) tick(Number(run.seconds));
      setState(run);
      if (run.error) $("live-error").textContent = run.error;
      $("live-note").textContent = runNote(run);
      if (run.task === "maximise") {
        if (given(run.score)) showScore(run.score, run.joins);
        if (run.best_svg) $("best-board").innerHTML = run.best_svg;
        updateBestLinks();
      }
      showFinalSolution(run);
    } catch (e) { /* keep what the stream said */ }
  }

  // A solve's solution, an enumeration's last one, from the store; the board at work, stale now,
  // stays only where the search was cut short and no solution replaces it (where it got to).
  async function showFinalSolution(run) {
    const id = live.id;
    const wanted = ["solve", "enumerate", "pack", "unique", "forced", "hint"].includes(run.task) && storesSolutions(run) && Number(run.found) > 0;
    if (wanted) {
      try {
        let page = await api(`api/runs/${enc(id)}/solutions?offset=0&limit=1`);
        if (page.total > 1 && live.id === id) page = await api(`api/runs/${enc(id)}/solutions?offset=${page.total - 1}&limit=1`);
        if (live.id !== id || !page.items.length) return;
        const item = page.items[0];
        showSolution(item.svg, item.index);
        if (run.task === "enumerate") {
          $("solution-caption").textContent = `Solution no. ${fmtNumber(item.index + 1)} of ${fmtNumber(page.total)}, the last found`;
        }
      } catch (e) { /* none stored */ }
    }
    if (live.id !== id) return;
    if (live.solution || shownState(run) === "done") $("partial-box").hidden = true;
    else if (!$("partial-box").hidden) {
      $("partial-caption").textContent = "Where the search was when it ended"
        + (run.task === "maximise" ? " (not the answer: the best board is above)" : "");
    }
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
      $("best-png-link").href = withToken(`api/runs/${enc(id)}/solutions/${k}.png`);
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
    const tMax = Math.max(live.seconds, clockSeconds(), pts[pts.length - 1][0], 1e-3);
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
    // the axis names the scores reached, the first and the best (the frame's edges lie a point
    // beyond them: labelled, they read as scores the run had reached)
    label(L - 4, Y(sMax) + 4, String(sMax), "end");
    if (sMin < sMax) label(L - 4, Y(sMin) + 4, String(sMin), "end");
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

  function puzzleCell(run) {
    const title = run.title || titleOf(run.puzzle);
    const name = shortName(run.puzzle);
    const td = el("td", { className: "puzzle" }, el("span", { className: "run-title", textContent: title || name }));
    if (title && title !== run.puzzle) td.append(el("span", { className: "run-name mono", textContent: name }));
    return td;
  }

  // The runs table's "found" cell in the task's own words: a bare 0 was read as "no solution" for
  // a forced run where nothing is forced, and a unique check's 2 as two solutions wanted.  Only a
  // finished run's 0 says there is none: a stopped one's says nothing yet
  function foundCell(run) {
    const n = Number(run.found) || 0, done = shownState(run) === "done";
    if (run.task === "maximise" || !given(run.found)) return "";
    if (run.task === "forced") return `${fmtNumber(n)} forced`;
    if (run.task === "pack") return plural(n, "piece", "pieces");
    if (run.task === "hint") return n ? "a hint" : (done ? "none" : "0");
    if (run.task === "unique" && done) return ["no solution", "unique", "not unique"][Math.min(n, 2)];
    return fmtNumber(n);
  }

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
      const state = shownState(run);
      const row = el("tr", { id: `run-${run.id}` });
      row.dataset.state = state;
      row.append(el("td", { className: "id mono", textContent: run.id }), puzzleCell(run));
      const cells = [run.task + withOptions(run), run.engine, state, foundCell(run),
                     given(run.score) ? String(run.score) : "",
                     given(run.seconds) ? Number(run.seconds).toFixed(1) : ""];
      cells.forEach((text, i) => {
        const td = el("td", { textContent: text });
        td.className = ["task", "engine", `state state-${state}`, "found", "score", "seconds"][i];
        if (i > 0) td.dataset.label = ["", "engine", "", "found", "score", "seconds"][i];   // a phone's card names them
        if (i === 1) td.title = engineLabel(run.engine, run.task);
        if (i === 2) td.title = outcomeText(run);
        row.append(td);
      });
      const actions = el("td", { className: "actions" }, el("a", { href: `#run/${enc(run.id)}`, textContent: "watch" }));
      if (storesSolutions(run)) {
        actions.append(" ", el("a", { href: `#browse/${enc(run.id)}`, className: "solutions-link",
          textContent: run.task === "maximise" ? "best board" : "solutions" }));
      }
      if (!FINAL.has(state)) {
        const stop = el("button", { type: "button", textContent: "stop" });
        stop.addEventListener("click", () => stopRun(run.id));
        actions.append(" ", stop);
      }
      row.append(actions);
      if (run.id === live.id) row.classList.add("current");
      body.append(row);
    }
    if (!runs.length) {
      body.append(el("tr", { id: "runs-none" }, el("td", { className: "none", colSpan: 9,
        textContent: "No runs yet: choose a puzzle and a task above, then Start." })));
    }
    const active = runs.some((r) => !FINAL.has(shownState(r)));
    runsTimer = setTimeout(refreshRuns, active ? 1000 : 5000);
  }

  function setupWatch() {
    $("run-start").addEventListener("click", startRun);
    $("task").addEventListener("change", updateTaskMenu);
    $("stop").addEventListener("click", () => { if (live.id) stopRun(live.id); });
    $("watch-puzzle").addEventListener("change", updateTaskMenu);
    // the command line and the warning follow every change of the form
    for (const kind of ["input", "change"]) $("start-panel").addEventListener(kind, showFormNotes);
  }

  // ---- 4. Browse: a page of solutions; a run still going is followed to its end --------------------

  const browse = { id: null, offset: 0, total: -1, timer: null };

  async function showSolutions(id, offset) {
    clearTimeout(browse.timer);
    $("browse-empty").hidden = !!id;
    $("browse-unknown").hidden = true;
    if (!id) {
      $("browse-body").hidden = true;
      return;
    }
    const again = browse.id === id && browse.offset === offset;
    // another run: nothing of the one before stays while this one's record is on its way
    if (browse.id !== id) $("browse-body").hidden = true;
    if (!again) Object.assign(browse, { id, offset, total: -1 });
    const gallery = $("solutions");
    try {
      const run = await api(`api/runs/${enc(id)}`);
      const stored = storesSolutions(run);
      const page = stored ? await api(`api/runs/${enc(id)}/solutions?offset=${offset}&limit=${PAGE}`) : null;
      if (browse.id !== id) return;
      $("browse-body").hidden = false;
      $("browse-id").textContent = id;
      $("jsonl").href = withToken(`api/runs/${enc(id)}/solutions.jsonl`);
      $("jsonl").download = `${id}.jsonl`;
      const state = shownState(run);
      $("browse-kept").textContent = kept(run.task)[0];
      $("browse-title").textContent = `${run.task} “${run.title || titleOf(run.puzzle)}” (${shortName(run.puzzle)})`;
      $("browse-options").textContent = withOptions(run);
      $("browse-state").textContent = outcomeText(run);
      $("browse-state").className = `outcome state-${state}`;
      $("browse-state").dataset.state = state;
      for (const node of [$("jsonl").parentNode, $("page-prev").parentNode]) node.hidden = !stored;
      $("pager-end").hidden = true;
      if (!stored) {
        gallery.textContent = "";
        $("page-info").textContent = "";
        gallery.append(el("p", { className: "note", textContent: "This run keeps no solutions: a count keeps only its number (while it runs, Watch shows the board the search stands on)." }));
      } else {
        if (page.total !== browse.total || page.items.length !== gallery.children.length) drawSolutions(id, page, run.task);
        browse.total = page.total;
        const last = Math.min(offset + page.items.length, page.total);
        $("page-info").textContent = page.total
          ? `${fmtNumber(offset + 1)}–${fmtNumber(last)} of ${fmtNumber(page.total)}${FINAL.has(state) ? "" : " so far"}`
          : (FINAL.has(state) ? "no solutions stored" : "none yet");
        // the pager above the page and, on a page of more than a few pictures, below it too
        $("pager-end").hidden = page.items.length <= 4;
        for (const end of ["", "-end"]) {
          if (end) $(`page-info${end}`).textContent = $("page-info").textContent;
          $(`page-prev${end}`).disabled = offset <= 0;
          $(`page-next${end}`).disabled = offset + PAGE >= page.total;
          const go = (to) => () => {
            location.hash = `#browse/${enc(id)}/${to}`;
            if (end) $("browse-body").scrollIntoView();     // the next page from its top
          };
          $(`page-prev${end}`).onclick = go(Math.max(0, offset - PAGE));
          $(`page-next${end}`).onclick = go(offset + PAGE);
        }
      }
      if (!FINAL.has(state)) {
        browse.timer = setTimeout(() => {
          if (browse.id === id && !$("view-browse").hidden) showSolutions(id, browse.offset);
        }, 1000);
      }
    } catch (e) {
      if (browse.id !== id) return;
      if (e.status !== 404) {           // the server or the network: what is shown stays, said stale
        netError(e.message);
        return;
      }
      // an unknown run: that alone, and the way back (no title, outcome or links of another)
      $("browse-body").hidden = true;
      gallery.textContent = "";
      $("browse-unknown-text").textContent = `There is no run ${id} on this server (${e.message}).`;
      $("browse-unknown").hidden = false;
    }
  }

  // What a run keeps, in words: most tasks keep solutions, numbered; the others one answer each.
  const KEPT = {
    maximise: ["The best board", () => "the best board found"],
    pack: ["The packing", () => "the most pieces that fit"],
    forced: ["The forced placements", () => "the placements every solution holds"],
    hint: ["The hint", () => "the pins and the hint"],
    unique: ["Solutions", (i) => (i === 0 ? "the solution" : "a second solution: not unique")],
  };
  const kept = (task) => KEPT[task] || ["Solutions", (i) => `no. ${fmtNumber(i + 1)}`];

  function drawSolutions(id, page, task) {
    const gallery = $("solutions");
    gallery.textContent = "";
    // a run's one answer (a best board, a packing, a unique solution) drawn at the page's width,
    // not as a thumbnail among others
    gallery.classList.toggle("single", page.total === 1);
    for (const item of page.items) {
      const base = `api/runs/${enc(id)}/solutions/${item.index}`;
      const svgLink = el("a", { href: withToken(`${base}.svg`), textContent: "SVG" });
      svgLink.setAttribute("download", `${id}-${item.index}.svg`);
      const pngLink = el("a", { href: withToken(`${base}.png`), textContent: "PNG" });
      pngLink.setAttribute("download", `${id}-${item.index}.png`);
      const jsonLink = el("a", { href: withToken(`${base}.json`), textContent: "JSON" });
      jsonLink.setAttribute("download", `${id}-${item.index}.json`);
      const card = el("div", { className: "card solution" },
        el("div", { className: "picture" }),
        el("div", { className: "card-title", textContent: kept(task)[1](item.index) }),
        el("div", { className: "links" }, svgLink, " ", pngLink, " ", jsonLink));
      card.querySelector(".picture").innerHTML = item.svg;
      card.dataset.index = item.index;
      gallery.append(card);
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
      // the form for a puzzle (the one named, else the one last seen), and no run beside it that
      // is not of the form; without either, the form asks for a puzzle
      show("watch");
      resetLive(null);
      lastPuzzle = rest[0] || lastPuzzle;
      if (lastPuzzle) choosePuzzle(lastPuzzle);
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

  // In-page links to a part of a view, which the address's route (#pose, #see/NAME) leaves alone.
  function setupJumps() {
    for (const a of document.querySelectorAll("[data-jump]")) {
      a.addEventListener("click", (e) => {
        e.preventDefault();
        $(a.dataset.jump).scrollIntoView({ behavior: "smooth" });
      });
    }
  }

  async function start() {
    setupJumps();
    setupPaint();
    setupUpload();
    setupBoardScoring();
    setupSolutionCheck();
    setupWatch();
    resetLive(null);
    try {
      await Promise.all([loadMeta(), loadPuzzles()]);
    } catch (e) {
      netError(e.message);
    }
    window.addEventListener("hashchange", route);
    route();
    refreshRuns();
    document.body.dataset.ready = "1";
  }

  // what workbench.js uses
  window.satilingPage = { api, withToken, el, enc, svgEl, NO_SOLUTION };
  start();
})();
