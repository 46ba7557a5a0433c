// smokejumper web page: draws a Volcano! position and talks to /v1/volcano/*.
// Plain JavaScript, no build step, no dependencies.
"use strict";

(() => {
  // Axial directions in the spec's order; pointy-top hexes make the names literal.
  const DIRS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
  const DIR_NAMES = ["E", "NE", "NW", "W", "SW", "SE"];
  const COLORS = ["#dc2626", "#2563eb", "#eab308", "#7c3aed", "#ea580c", "#0891b2", "#db2777", "#57534e"];
  const COLOR_NAMES = ["red", "blue", "yellow", "purple", "orange", "teal", "pink", "grey"];
  const TILE_FILLS = ["#86b86a", "#6fa85a", "#5a984c", "#47873f", "#367634", "#26652b"];
  const SIZE = 30;
  const SQ3 = Math.sqrt(3);
  const SVGNS = "http://www.w3.org/2000/svg";

  const $ = (id) => document.getElementById(id);

  const state = {
    position: null,   // the game's current position
    initial: null,    // where the game started (for Restart)
    check: null,      // CheckResult of the current position
    legal: new Set(), // "c,q,r,d" of every legal flight
    history: [],      // [{position, lastStep, moveNo}] for Undo
    lastStep: null,   // ReplayStep of the flight that led here
    moveNo: 0,
    color: 0,
    selected: null,   // [q, r] of the clicked tile
    highlight: null,  // a Flight to draw (hover)
    solve: null,      // {base, line, index, cache}
    preview: null,    // {position, step, next, index} while stepping through a solution
    busy: false,
  };

  // ------------------------------------------------------------------ API

  class ApiError extends Error {}

  async function api(path, body) {
    let response;
    try {
      response = await fetch(path, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
      });
    } catch (e) {
      throw new ApiError(`cannot reach the server (${e.message})`);
    }
    const text = await response.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch (e) {
      data = null;
    }
    if (!response.ok) {
      const title = (data && data.title) || response.statusText || "Error";
      const detail = (data && data.detail) || text.slice(0, 200);
      throw new ApiError(`${response.status} ${title}: ${detail}`);
    }
    return data;
  }

  function showMessage(text, kind = "error") {
    const box = $("message");
    $("message-text").textContent = text;
    box.className = "message" + (kind === "info" ? " info" : "");
    box.hidden = false;
  }

  function clearMessage() {
    $("message").hidden = true;
  }

  // Run an async action with its button disabled and errors shown.
  async function busy(button, label, action) {
    const old = button.textContent;
    button.disabled = true;
    if (label) button.textContent = label;
    state.busy = true;
    try {
      clearMessage();
      await action();
    } catch (e) {
      showMessage(e instanceof ApiError ? e.message : `Error: ${e.message}`);
      if (!(e instanceof ApiError)) console.error(e);
    } finally {
      state.busy = false;
      button.disabled = false;
      button.textContent = old;
    }
  }

  // ------------------------------------------------------------- helpers

  const key = (q, r) => `${q},${r}`;
  const flightKey = (f) => `${f.color},${f.tile[0]},${f.tile[1]},${f.dir}`;
  const colorOf = (c) => COLORS[c % COLORS.length];
  const colorName = (c) => (c < COLOR_NAMES.length ? COLOR_NAMES[c] : `colour ${c}`);

  function center(q, r) {
    return [SIZE * SQ3 * (q + r / 2), SIZE * 1.5 * r];
  }

  function hexPoints(cx, cy, s) {
    const pts = [];
    for (let i = 0; i < 6; i++) {
      const a = (Math.PI / 180) * (60 * i - 30);
      pts.push(`${(cx + s * Math.cos(a)).toFixed(2)},${(cy + s * Math.sin(a)).toFixed(2)}`);
    }
    return pts.join(" ");
  }

  function svg(tag, attrs = {}, parent = null) {
    const node = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  function html(tag, attrs = {}, text = null) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== null) node.textContent = text;
    return node;
  }

  function badge(value) {
    return html("span", { class: `badge ${value}` }, value);
  }

  function dot(color) {
    const d = html("span", { class: "fdot" });
    d.style.background = colorOf(color);
    return d;
  }

  function flightText(f) {
    return `${colorName(f.color)} into (${f.tile[0]}, ${f.tile[1]}) flying ${DIR_NAMES[f.dir]}`;
  }

  function flightNode(f) {
    const span = html("span", { class: "ftext" });
    span.append(dot(f.color), " " + flightText(f));
    return span;
  }

  const cellsText = (cells) => (cells.length ? cells.map(([q, r]) => `(${q}, ${r})`).join(" ") : "none");

  function formatPosition(p) {
    const tiles = p.tiles.length
      ? "[\n" + p.tiles.map((t) => "    " + JSON.stringify(t)).join(",\n") + "\n  ]"
      : "[]";
    return (
      "{\n" +
      `  "volcano": ${JSON.stringify(p.volcano)},\n` +
      `  "supply": ${JSON.stringify(p.supply)},\n` +
      `  "setup": ${JSON.stringify(p.setup || "free")},\n` +
      `  "tiles": ${tiles}\n}`
    );
  }

  // --------------------------------------------------------------- board

  function drawBoard() {
    const board = $("board");
    board.replaceChildren();
    const view = state.preview || { position: state.position, step: state.lastStep, next: null };
    const pos = view.position;
    const interactive = !state.preview;
    if (!pos) {
      board.setAttribute("viewBox", "-200 -100 400 200");
      svg("text", { x: 0, y: 0, class: "board-empty" }, board).textContent = "Generate or load a position.";
      return;
    }

    const tiles = new Map(pos.tiles.map((t) => [key(t.q, t.r), t]));
    const vKey = key(pos.volcano.q, pos.volcano.r);
    const occupied = (q, r) => tiles.has(key(q, r)) || key(q, r) === vKey;

    // Empty cells next to the layout: where planes take off.
    const frame = new Map();
    for (const [q, r] of [...pos.tiles.map((t) => [t.q, t.r]), [pos.volcano.q, pos.volcano.r]]) {
      for (const [dq, dr] of DIRS) {
        const [a, b] = [q + dq, r + dr];
        if (!occupied(a, b)) frame.set(key(a, b), [a, b]);
      }
    }
    const step = view.step;
    const ghosts = [];
    if (step) {
      for (const c of step.extinguished) ghosts.push([c, "ghost-ext"]);
      for (const c of step.isolated) ghosts.push([c, "ghost-iso"]);
    }

    // Fit the view to everything drawn.
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    const grow = ([q, r]) => {
      const [x, y] = center(q, r);
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
    };
    frame.forEach(grow);
    ghosts.forEach(([c]) => grow(c));
    grow([pos.volcano.q, pos.volcano.r]);
    // Keep a minimum extent so that a tiny layout is not blown up.
    const m = SIZE * 1.1;
    const w = Math.max(x1 - x0 + 2 * m, SIZE * 16);
    const h = Math.max(y1 - y0 + 2 * m, SIZE * 10);
    const [mx, my] = [(x0 + x1) / 2, (y0 + y1) / 2];
    board.setAttribute("viewBox", `${mx - w / 2} ${my - h / 2} ${w} ${h}`);

    const gFrame = svg("g", {}, board);
    const gGhost = svg("g", {}, board);
    const gTiles = svg("g", {}, board);
    const gOver = svg("g", {}, board);

    frame.forEach(([q, r]) => {
      const [cx, cy] = center(q, r);
      svg("polygon", { points: hexPoints(cx, cy, SIZE - 1), class: "hex-frame" }, gFrame);
    });

    for (const [[q, r], cls] of ghosts) {
      const [cx, cy] = center(q, r);
      svg("polygon", { points: hexPoints(cx, cy, SIZE - 2), class: cls }, gGhost);
    }

    // Volcano.
    {
      const [cx, cy] = center(pos.volcano.q, pos.volcano.r);
      const g = svg("g", {}, gTiles);
      svg("polygon", { points: hexPoints(cx, cy, SIZE - 0.5), class: "hex-volcano", fill: "#7c2d12" }, g);
      svg("polygon", {
        points: `${cx - 15},${cy + 12} ${cx - 5},${cy - 8} ${cx + 5},${cy - 8} ${cx + 15},${cy + 12}`,
        fill: "#3b1306",
      }, g);
      svg("polygon", {
        points: `${cx - 5},${cy - 8} ${cx - 2},${cy - 16} ${cx + 1},${cy - 10} ${cx + 4},${cy - 17} ${cx + 5},${cy - 8}`,
        fill: "#f97316",
      }, g);
      const title = svg("title", {}, g);
      title.textContent = `volcano (${pos.volcano.q}, ${pos.volcano.r})`;
    }

    // Forest tiles.
    for (const t of pos.tiles) {
      const [cx, cy] = center(t.q, t.r);
      const g = svg("g", { "data-q": t.q, "data-r": t.r }, gTiles);
      svg("polygon", {
        points: hexPoints(cx, cy, SIZE - 0.5),
        class: "hex-tile",
        fill: TILE_FILLS[(t.n - 1) % 6],
      }, g);
      svg("text", { x: cx, y: cy + 1, class: "tile-num" }, g).textContent = String(t.n);
      const spaces = t.spaces || 1;
      for (let i = 0; i < spaces; i++) {
        const x = cx + (i - (spaces - 1) / 2) * 11;
        svg("circle", { cx: x, cy: cy + 12, r: 4.3, class: i < t.pawns ? "space full" : "space" }, g);
      }
      const title = svg("title", {}, g);
      title.textContent = `tile (${t.q}, ${t.r}): n ${t.n}, ${t.pawns}/${spaces} pawns`;
      if (interactive) g.addEventListener("click", () => selectTile(t.q, t.r));
      else g.style.cursor = "default";
    }

    // Overlays: a highlighted flight, the selected tile and its arrows.
    const shown = state.highlight || view.next;
    if (shown) drawFlight(gOver, shown, occupied);
    if (interactive && state.selected) {
      const [q, r] = state.selected;
      const [cx, cy] = center(q, r);
      svg("polygon", { points: hexPoints(cx, cy, SIZE - 2), class: "hex-selected" }, gOver);
      for (let d = 0; d < 6; d++) {
        const f = { color: state.color, tile: [q, r], dir: d };
        if (state.legal.has(flightKey(f))) drawArrow(gOver, f, true);
      }
    }
  }

  // The path t, t+d, ... while cells hold tiles, and the take-off arrow.
  function drawFlight(parent, f, occupied) {
    const [dq, dr] = DIRS[f.dir];
    let [q, r] = f.tile;
    const stroke = colorOf(f.color);
    for (let i = 0; i < 200 && occupied(q, r); i++) {
      const [cx, cy] = center(q, r);
      svg("polygon", { points: hexPoints(cx, cy, SIZE - 3), class: "hex-path", stroke }, parent);
      q += dq;
      r += dr;
    }
    drawArrow(parent, f, false);
  }

  function drawArrow(parent, f, clickable) {
    const [dq, dr] = DIRS[f.dir];
    const [sx, sy] = center(f.tile[0] - dq, f.tile[1] - dr);
    const [vx, vy] = center(dq, dr);
    const angle = (Math.atan2(vy, vx) * 180) / Math.PI;
    const color = colorOf(f.color);
    const g = svg("g", { class: clickable ? "arrow" : "", transform: `translate(${sx.toFixed(2)},${sy.toFixed(2)})` }, parent);
    svg("circle", { r: 13, stroke: color, class: clickable ? "" : "path-start" }, g);
    svg("path", {
      d: "M-8,-3 L1,-3 L1,-8 L10,0 L1,8 L1,3 L-8,3 Z",
      fill: color,
      transform: `rotate(${angle.toFixed(1)})`,
    }, g);
    if (clickable) {
      svg("title", {}, g).textContent = `Fly ${flightText(f)}`;
      g.addEventListener("click", (e) => {
        e.stopPropagation();
        playFlight(f, $("undo"));
      });
    }
  }

  // ----------------------------------------------------------- panels

  function renderStatus() {
    const bar = $("status");
    bar.replaceChildren();
    if (!state.position || !state.check) {
      bar.textContent = state.position ? "Checking…" : "No position loaded.";
      return;
    }
    const c = state.check;
    bar.append(badge(c.status));
    const text =
      c.status === "win" ? "Every forest tile is gone: won."
      : c.status === "loss" ? "No winning continuation: the game is lost."
      : `${state.position.tiles.length} forest tiles · ` +
        (c.plan_pawns < 0 ? "no removal plan clears the board · "
          : `at least ${Math.max(c.pawns_needed, c.plan_pawns)} pawns needed · `) +
        `${c.supply_total} in supply · ${c.flights.length} distinct flights`;
    bar.append(text);
  }

  function renderSupply() {
    const box = $("supply");
    box.replaceChildren();
    const supply = (state.preview ? state.preview.position : state.position)?.supply || [];
    supply.forEach((n, c) => {
      const chip = html("button", { type: "button", class: "chip", title: `Fly ${colorName(c)}` });
      if (c === state.color) chip.classList.add("selected");
      if (n === 0) chip.classList.add("empty");
      const d = html("span", { class: "dot" });
      d.style.background = colorOf(c);
      chip.append(d, html("span", { class: "count" }, String(n)), html("span", { class: "small muted" }, colorName(c)));
      chip.addEventListener("click", () => {
        state.color = c;
        renderSupply();
        drawBoard();
      });
      box.append(chip);
    });
  }

  function renderLastMove() {
    const box = $("last-move");
    box.replaceChildren();
    const step = state.lastStep;
    if (!step) {
      box.textContent = state.moveNo === 0
        ? "Play a flight: choose a colour, click a forest tile, then one of its arrows."
        : "";
      return;
    }
    box.append(`Move ${state.moveNo}: `, flightNode(step.flight),
      ` — dropped ${step.dropped} · extinguished ${cellsText(step.extinguished)} · ` +
      `isolated ${cellsText(step.isolated)} → `, badge(step.status));
  }

  function render() {
    renderStatus();
    renderSupply();
    renderLastMove();
    drawBoard();
    $("undo").disabled = state.history.length === 0;
    $("restart").disabled = !state.initial || state.history.length === 0;
    const bar = $("preview-bar");
    bar.hidden = !state.preview;
    if (state.preview) {
      const p = state.preview;
      const n = state.solve.line.length;
      $("preview-text").textContent = p.index === n
        ? `Solution: after all ${n} flights (${p.status}).`
        : `Solution: after ${p.index} of ${n} flights; next: ${flightText(p.next)}.`;
    }
  }

  // --------------------------------------------------------------- game

  async function setPosition(position, lastStep, { resetGame = false, keepSolve = false } = {}) {
    state.position = position;
    state.lastStep = lastStep;
    state.selected = null;
    state.highlight = null;
    state.preview = null;
    state.check = null;
    if (resetGame) {
      state.initial = position;
      state.history = [];
      state.moveNo = 0;
    }
    clearHint();
    if (!keepSolve) clearSolve();
    $("position-json").value = formatPosition(position);
    render();
    state.check = await api("/v1/volcano/check", { position });
    state.legal = new Set();
    for (const choice of state.check.flights) {
      state.legal.add(flightKey(choice.flight));
      for (const f of choice.equivalent) state.legal.add(flightKey(f));
    }
    if (state.position.supply[state.color] === 0) {
      const other = state.position.supply.findIndex((n) => n > 0);
      if (other >= 0) state.color = other;
    }
    render();
  }

  function selectTile(q, r) {
    if (state.busy || !state.check) return;
    state.selected = [q, r];
    state.highlight = null;
    let any = false;
    for (let d = 0; d < 6; d++) {
      if (state.legal.has(flightKey({ color: state.color, tile: [q, r], dir: d }))) any = true;
    }
    render();
    if (!any) {
      const box = $("last-move");
      box.textContent = state.position.supply[state.color] === 0
        ? `No ${colorName(state.color)} pawns left: pick another colour.`
        : `No legal ${colorName(state.color)} flight enters (${q}, ${r}) (the plane needs an empty cell ` +
          "behind it, a path without the volcano, and a free space on the path).";
    }
  }

  function playFlight(flight, button) {
    if (state.busy) return;
    return busy(button, null, async () => {
      const before = { position: state.position, lastStep: state.lastStep, moveNo: state.moveNo };
      const result = await api("/v1/volcano/replay", { position: state.position, line: [flight] });
      if (result.error) throw new ApiError(`Illegal flight: ${result.error}`);
      state.history.push(before);
      state.moveNo += 1;
      await setPosition(result.position, result.steps[0]);
      if (result.status === "win") showMessage("Won: every forest tile is extinguished or isolated with pawns.", "info");
      else if (result.status === "loss") showMessage("Lost: no legal flight can finish the forest.", "info");
    });
  }

  function undo() {
    const prev = state.history.pop();
    if (!prev) return;
    state.moveNo = prev.moveNo;
    busy($("undo"), null, () => setPosition(prev.position, prev.lastStep));
  }

  function restart() {
    if (!state.initial) return;
    busy($("restart"), null, () => setPosition(state.initial, null, { resetGame: true }));
  }

  // ------------------------------------------------------------- layout

  function generate() {
    busy($("generate"), "Generating…", async () => {
      const seed = Number($("seed").value);
      if (!Number.isInteger(seed) || seed < 0) throw new ApiError("Seed must be a whole number ≥ 0.");
      const solvable = $("solvable").checked;
      const result = await api("/v1/volcano/generate", { seed, solvable });
      let info = `layout seed ${result.layout_seed}, ${result.attempts} attempt${result.attempts === 1 ? "" : "s"}`;
      if (result.verdict) info += `, verdict ${result.verdict}`;
      $("layout-info").textContent = info;
      if (solvable && result.verdict !== "win") {
        showMessage("No layout was proved solvable within the server's limits; showing the last one tried.", "info");
      }
      await setPosition(result.position, null, { resetGame: true });
    });
  }

  function load() {
    busy($("load"), "Loading…", async () => {
      let parsed;
      try {
        parsed = JSON.parse($("position-json").value);
      } catch (e) {
        throw new ApiError(`Position JSON: ${e.message}`);
      }
      // An empty replay validates the position and fills in defaults (spaces).
      const result = await api("/v1/volcano/replay", { position: parsed, line: [] });
      $("layout-info").textContent = "loaded from JSON";
      await setPosition(result.position, null, { resetGame: true });
    });
  }

  // --------------------------------------------------------------- hint

  function clearHint() {
    $("hint-list").replaceChildren();
    $("hint-info").textContent = "";
  }

  function hint() {
    if (!state.position) return;
    busy($("hint"), "Thinking…", async () => {
      const seconds = Math.max(0.1, Number($("hint-seconds").value) || 3);
      const position = state.position;
      const result = await api("/v1/volcano/hint", { position, limit: { seconds } });
      if (position !== state.position) return; // the game moved on meanwhile
      clearHint();
      const s = result.stats;
      $("hint-info").textContent = `${result.moves.length} flights · ${s.nodes.toLocaleString()} nodes · ` +
        `${s.seconds.toFixed(2)} s` + (s.stopped_by ? ` · stopped by ${s.stopped_by}` : "");
      const list = $("hint-list");
      if (!result.moves.length) list.append(html("li", { class: "muted" }, "No legal flight."));
      for (const m of result.moves) {
        const li = html("li", { title: "Hover to see it on the board; click to play it" });
        li.append(badge(m.value), flightNode(m.flight));
        if (m.equivalent.length) li.append(html("span", { class: "eq small muted", title: "Other flights with the same result" }, `+${m.equivalent.length} equiv.`));
        li.addEventListener("mouseenter", () => { state.highlight = m.flight; drawBoard(); });
        li.addEventListener("mouseleave", () => { state.highlight = null; drawBoard(); });
        li.addEventListener("click", () => playFlight(m.flight, $("hint")));
        list.append(li);
      }
    });
  }

  // -------------------------------------------------------------- solve

  function clearSolve() {
    state.solve = null;
    $("solve-verdict").replaceChildren();
    $("solve-stats").textContent = "";
    $("solve-line").replaceChildren();
    $("step-controls").hidden = true;
  }

  function solve() {
    if (!state.position) return;
    busy($("solve"), "Solving…", async () => {
      const seconds = Math.max(0.1, Number($("solve-seconds").value) || 10);
      const position = state.position;
      const result = await api("/v1/volcano/solve", { position, limit: { seconds } });
      if (position !== state.position) return;
      clearSolve();
      $("solve-verdict").append(badge(result.verdict));
      const s = result.stats;
      $("solve-stats").textContent = `${s.nodes.toLocaleString()} nodes · ${s.seconds.toFixed(2)} s` +
        (s.stopped_by ? ` · stopped by ${s.stopped_by}` : "") +
        (result.line ? ` · winning line of ${result.line.length} flights` : "");
      if (!result.line) return;
      state.solve = { base: position, line: result.line, cache: new Map() };
      const list = $("solve-line");
      result.line.forEach((f, i) => {
        const li = html("li", { title: "Show the position before this flight" });
        li.append(html("span", { class: "num" }, `${i + 1}.`), flightNode(f));
        li.addEventListener("click", () => goToStep(i));
        list.append(li);
      });
      $("step-controls").hidden = false;
      await goToStep(0);
    });
  }

  // Show the solution's position after `index` flights (fetched by replay).
  async function goToStep(index) {
    const sol = state.solve;
    if (!sol) return;
    index = Math.max(0, Math.min(index, sol.line.length));
    let entry = sol.cache.get(index);
    if (!entry) {
      if (index === 0) {
        entry = { position: sol.base, step: null, status: "ongoing" };
      } else {
        try {
          const r = await api("/v1/volcano/replay", { position: sol.base, line: sol.line.slice(0, index) });
          entry = { position: r.position, step: r.steps[index - 1] || null, status: r.status };
        } catch (e) {
          showMessage(e.message);
          return;
        }
      }
      sol.cache.set(index, entry);
    }
    if (state.solve !== sol) return;
    sol.index = index;
    state.preview = { ...entry, index, next: sol.line[index] || null };
    state.highlight = null;
    $("step-label").textContent = `${index} / ${sol.line.length}`;
    [...$("solve-line").children].forEach((li, i) => {
      li.classList.toggle("current", i === index);
      li.classList.toggle("done", i < index);
    });
    // Scroll the list itself (not the page) to keep the next flight in view.
    const list = $("solve-line");
    const current = list.children[Math.min(index, list.children.length - 1)];
    if (current) list.scrollTop = current.offsetTop - list.clientHeight / 2 + current.offsetHeight / 2;
    render();
  }

  function closePreview() {
    state.preview = null;
    [...$("solve-line").children].forEach((li) => li.classList.remove("current", "done"));
    render();
  }

  function adoptPreview() {
    const p = state.preview;
    const sol = state.solve;
    if (!p || !sol) return;
    busy($("preview-adopt"), null, async () => {
      state.history.push({ position: state.position, lastStep: state.lastStep, moveNo: state.moveNo });
      state.moveNo += p.index;
      // Keep the rest of the line: it still wins from here.
      const rest = sol.line.slice(p.index);
      await setPosition(p.position, p.step, { keepSolve: true });
      if (rest.length) {
        state.solve = { base: p.position, line: rest, cache: new Map() };
        const list = $("solve-line");
        list.replaceChildren();
        rest.forEach((f, i) => {
          const li = html("li", { title: "Show the position before this flight" });
          li.append(html("span", { class: "num" }, `${i + 1}.`), flightNode(f));
          li.addEventListener("click", () => goToStep(i));
          list.append(li);
        });
        $("step-label").textContent = `0 / ${rest.length}`;
      } else {
        clearSolve();
      }
    });
  }

  // --------------------------------------------------------------- wire

  $("message-close").addEventListener("click", clearMessage);
  $("generate").addEventListener("click", generate);
  $("load").addEventListener("click", load);
  $("revert").addEventListener("click", () => {
    if (state.position) $("position-json").value = formatPosition(state.position);
  });
  $("hint").addEventListener("click", hint);
  $("solve").addEventListener("click", solve);
  $("undo").addEventListener("click", undo);
  $("restart").addEventListener("click", restart);
  $("step-first").addEventListener("click", () => goToStep(0));
  $("step-prev").addEventListener("click", () => goToStep((state.solve?.index ?? 0) - 1));
  $("step-next").addEventListener("click", () => goToStep((state.solve?.index ?? 0) + 1));
  $("step-last").addEventListener("click", () => goToStep(state.solve ? state.solve.line.length : 0));
  $("preview-close").addEventListener("click", closePreview);
  $("preview-adopt").addEventListener("click", adoptPreview);
  $("seed").addEventListener("keydown", (e) => { if (e.key === "Enter") generate(); });

  render();
  generate();
})();
