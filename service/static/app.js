// smokejumper web page: a view per game, Volcano! (/v1/volcano/*), Fire!
// (/v1/fire/*) and Wild Fire! (/v1/wildfire/*), switched by the tabs in the
// header.
// Plain JavaScript, no build step, no dependencies.
"use strict";

// Shared by the views: API calls, the message box, DOM helpers, one action
// at a time, the hex board's geometry, the tabs.
const SJ = (() => {
  class ApiError extends Error {}

  // POST ``body`` as JSON (GET when there is none); the parsed answer, or an
  // ApiError with the problem's one-line detail.
  async function api(path, body) {
    let response;
    try {
      response = await fetch(path, body === undefined
        ? { method: "GET", headers: { Accept: "application/json" } }
        : {
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

  const $ = (id) => document.getElementById(id);

  function showMessage(text, kind = "error") {
    const box = $("message");
    $("message-text").textContent = text;
    box.className = "message" + (kind === "info" ? " info" : "");
    box.hidden = false;
  }

  function clearMessage() {
    $("message").hidden = true;
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

  function statsText(s) {
    return `${s.nodes.toLocaleString()} nodes · ${s.seconds.toFixed(2)} s` + (s.stopped_by ? ` · stopped by ${s.stopped_by}` : "");
  }

  // A view's async actions: ``run(button, label, action)`` disables the
  // button (relabelled ``label``) while ``action`` runs and shows its error;
  // ``onChange`` runs when an action starts and ends (to switch buttons).
  function actions(onChange = () => {}) {
    let running = 0;
    async function run(button, label, action) {
      const old = button.textContent;
      if (label) button.textContent = label;
      running += 1;
      onChange();
      button.disabled = true;
      try {
        clearMessage();
        await action();
      } catch (e) {
        showMessage(e instanceof ApiError ? e.message : `Error: ${e.message}`);
        if (!(e instanceof ApiError)) console.error(e);
      } finally {
        running -= 1;
        button.disabled = false;
        button.textContent = old;
        onChange();
      }
    }
    return { run, get busy() { return running > 0; } };
  }

  // Undo and Restart over CheckResults (Fire!, Wild Fire!). The view keeps
  // the shown ``state.check``, what led to it ``state.last``,
  // ``state.history`` and ``state.initial``, and shows a check with
  // ``setPosition(check, last, {reset})`` (reset: a new game starts there).
  function checkHistory(state, setPosition) {
    return {
      // Show ``check``, reached by ``last``; Undo comes back here.
      advance(check, last) {
        state.history.push({ check: state.check, last: state.last });
        setPosition(check, last);
      },
      undo() {
        const prev = state.history.pop();
        if (!prev) return;
        setPosition(prev.check, prev.last);
        clearMessage();
      },
      restart() {
        if (!state.initial) return;
        setPosition(state.initial, null, { reset: true });
        clearMessage();
      },
    };
  }

  // A winning line to step through on the board (Volcano!, Wild Fire!), in
  // the elements whose ids start with ``prefix``: the solve panel's verdict,
  // stats and list of moves, the step buttons, and the preview bar over the
  // board. ``at()`` is the line being stepped through ({line, index}) or
  // null; ``goTo(index)`` shows the position after ``index`` moves; ``close``
  // goes back to the game and ``adopt`` plays on from the preview.
  function solutionLine(prefix, { at, goTo, close, adopt }) {
    const $p = (name) => $(prefix + name);
    const list = $p("solve-line");
    $p("step-first").addEventListener("click", () => goTo(0));
    $p("step-prev").addEventListener("click", () => goTo((at()?.index ?? 0) - 1));
    $p("step-next").addEventListener("click", () => goTo((at()?.index ?? 0) + 1));
    $p("step-last").addEventListener("click", () => goTo(at() ? at().line.length : 0));
    $p("preview-close").addEventListener("click", () => {
      [...list.children].forEach((li) => li.classList.remove("current", "done"));
      close();
    });
    $p("preview-adopt").addEventListener("click", adopt);

    return {
      clear() {
        $p("solve-verdict").replaceChildren();
        $p("solve-stats").textContent = "";
        list.replaceChildren();
        $p("step-controls").hidden = true;
      },
      // List the line's moves, ``node(move)`` each, numbered from ``first``;
      // clicking one shows the position before it.
      show(line, node, { title, first = 1 }) {
        list.replaceChildren();
        line.forEach((move, i) => {
          const li = html("li", { title });
          li.append(html("span", { class: "num" }, `${first + i}.`), node(move));
          li.addEventListener("click", () => goTo(i));
          list.append(li);
        });
        $p("step-label").textContent = `0 / ${line.length}`;
        $p("step-controls").hidden = false;
      },
      // Mark the moves played and the next one after ``index`` moves.
      mark(index) {
        $p("step-label").textContent = `${index} / ${list.children.length}`;
        [...list.children].forEach((li, i) => {
          li.classList.toggle("current", i === index);
          li.classList.toggle("done", i < index);
        });
        // Scroll the list itself (not the page) to keep the next move in view.
        const next = list.children[Math.min(index, list.children.length - 1)];
        if (next) list.scrollTop = next.offsetTop - list.clientHeight / 2 + next.offsetHeight / 2;
      },
      // The preview bar: hidden when ``text`` is null, else saying it (a
      // list of strings and nodes).
      bar(text) {
        $p("preview-bar").hidden = !text;
        if (text) $p("preview-text").replaceChildren(...text);
      },
    };
  }

  // Hex boards (Volcano!, Wild Fire!): axial (q, r) cells, pointy-top hexes,
  // directions in the spec's order so that the names are literal.
  const hex = (() => {
    const SIZE = 30;
    const SQ3 = Math.sqrt(3);
    const DIRS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
    const DIR_NAMES = ["E", "NE", "NW", "W", "SW", "SE"];
    const COLORS = ["#dc2626", "#2563eb", "#eab308", "#7c3aed", "#ea580c", "#0891b2", "#db2777", "#57534e"];
    const COLOR_NAMES = ["red", "blue", "yellow", "purple", "orange", "teal", "pink", "grey"];
    const TILE_FILLS = ["#86b86a", "#6fa85a", "#5a984c", "#47873f", "#367634", "#26652b"];
    const SVGNS = "http://www.w3.org/2000/svg";

    const key = (q, r) => `${q},${r}`;
    const colorOf = (c) => COLORS[c % COLORS.length];
    const colorName = (c) => (c < COLOR_NAMES.length ? COLOR_NAMES[c] : `colour ${c}`);
    const center = (q, r) => [SIZE * SQ3 * (q + r / 2), SIZE * 1.5 * r];

    // Corner i sits at 60i - 30 degrees (y points down), so the side facing
    // direction d runs from corner -d to corner 1 - d.
    function corner(cx, cy, s, i) {
      const a = (Math.PI / 180) * (60 * i - 30);
      return [cx + s * Math.cos(a), cy + s * Math.sin(a)];
    }

    function hexPoints(cx, cy, s) {
      const pts = [];
      for (let i = 0; i < 6; i++) pts.push(corner(cx, cy, s, i).map((v) => v.toFixed(2)).join(","));
      return pts.join(" ");
    }

    function svg(tag, attrs = {}, parent = null) {
      const node = document.createElementNS(SVGNS, tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      if (parent) parent.appendChild(node);
      return node;
    }

    // Show every cell with a margin; keep a minimum extent so that a tiny
    // board is not blown up.
    function fitBoard(board, cells) {
      let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
      for (const [q, r] of cells) {
        const [x, y] = center(q, r);
        x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
      }
      const m = SIZE * 1.1;
      const w = Math.max(x1 - x0 + 2 * m, SIZE * 16);
      const h = Math.max(y1 - y0 + 2 * m, SIZE * 10);
      const [mx, my] = [(x0 + x1) / 2, (y0 + y1) / 2];
      board.setAttribute("viewBox", `${mx - w / 2} ${my - h / 2} ${w} ${h}`);
    }

    return { SIZE, DIRS, DIR_NAMES, TILE_FILLS, key, colorOf, colorName, center, corner, hexPoints, svg, fitBoard };
  })();

  // A colour's dot, for text.
  function dot(color) {
    const d = html("span", { class: "fdot" });
    d.style.background = hex.colorOf(color);
    return d;
  }

  // A chip per colour in ``supply``: its dot, pawn count and name;
  // ``selected`` is marked, and clicking a chip calls ``pick(colour)``.
  function supplyChips(box, supply, selected, title, pick) {
    box.replaceChildren();
    supply.forEach((n, c) => {
      const chip = html("button", { type: "button", class: "chip", title: title(c) });
      if (c === selected) chip.classList.add("selected");
      if (n === 0) chip.classList.add("empty");
      const d = html("span", { class: "dot" });
      d.style.background = hex.colorOf(c);
      chip.append(d, html("span", { class: "count" }, String(n)), html("span", { class: "small muted" }, hex.colorName(c)));
      chip.addEventListener("click", () => pick(c));
      box.append(chip);
    });
  }

  // Game tabs: the hash (#fire) keeps the choice across reloads.
  const GAMES = {
    volcano: { sub: "Volcano! solitaire", title: "smokejumper · Volcano!" },
    fire: { sub: "Fire! battery sequencing", title: "smokejumper · Fire!" },
    wildfire: { sub: "Wild Fire! solitaire", title: "smokejumper · Wild Fire!" },
  };
  const firstShown = new Map(); // game -> callbacks for the first time its view is shown

  // Run ``callback`` the first time ``game``'s view is shown (a view loads
  // its first position only when someone looks at it).
  function onFirstShow(game, callback) {
    if (!firstShown.has(game)) firstShown.set(game, []);
    firstShown.get(game).push(callback);
  }

  function showGame(game) {
    if (!GAMES[game]) game = "volcano";
    for (const name of Object.keys(GAMES)) {
      $(`${name}-view`).hidden = name !== game;
      $(`tab-${name}`).setAttribute("aria-selected", String(name === game));
    }
    $("game-sub").textContent = GAMES[game].sub;
    document.title = GAMES[game].title;
    if (location.hash !== `#${game}`) history.replaceState(null, "", `#${game}`);
    clearMessage();
    const callbacks = firstShown.get(game) || [];
    firstShown.delete(game);
    for (const callback of callbacks) callback();
  }

  function startTabs() {
    for (const name of Object.keys(GAMES)) $(`tab-${name}`).addEventListener("click", () => showGame(name));
    window.addEventListener("hashchange", () => showGame(location.hash.slice(1)));
    showGame(location.hash.slice(1) || "volcano");
  }

  return {
    ApiError, api, showMessage, clearMessage, html, badge, dot, statsText, actions, checkHistory, solutionLine,
    hex, supplyChips, onFirstShow, startTabs,
  };
})();

// Volcano!: draws a position on a hex board and talks to /v1/volcano/*.
(() => {
  const { SIZE, DIRS, DIR_NAMES, TILE_FILLS, key, colorOf, colorName, center, hexPoints, svg, fitBoard } = SJ.hex;
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
  };

  const { ApiError, api, showMessage, clearMessage, html, badge, dot, statsText } = SJ;
  const work = SJ.actions();
  const busy = work.run;
  const solution = SJ.solutionLine("", {
    at: () => state.solve,
    goTo: goToStep,
    close: () => { state.preview = null; render(); },
    adopt: adoptPreview,
  });

  // ------------------------------------------------------------- helpers

  const flightKey = (f) => `${f.color},${f.tile[0]},${f.tile[1]},${f.dir}`;

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

    fitBoard(board, [...frame.values(), ...ghosts.map(([c]) => c), [pos.volcano.q, pos.volcano.r]]);

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
    const supply = (state.preview ? state.preview.position : state.position)?.supply || [];
    SJ.supplyChips($("supply"), supply, state.color, (c) => `Fly ${colorName(c)}`, (c) => {
      state.color = c;
      renderSupply();
      drawBoard();
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
    const p = state.preview;
    const n = p && state.solve.line.length;
    solution.bar(p && [p.index === n
      ? `Solution: after all ${n} flights (${p.status}).`
      : `Solution: after ${p.index} of ${n} flights; next: ${flightText(p.next)}.`]);
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
    if (work.busy || !state.check) return;
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
    if (work.busy) return;
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
      $("hint-info").textContent = `${result.moves.length} flights · ${statsText(result.stats)}`;
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
    solution.clear();
  }

  function showLine(line) {
    solution.show(line, flightNode, { title: "Show the position before this flight" });
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
      $("solve-stats").textContent = statsText(result.stats) +
        (result.line ? ` · winning line of ${result.line.length} flights` : "");
      if (!result.line) return;
      state.solve = { base: position, line: result.line, cache: new Map() };
      showLine(result.line);
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
    solution.mark(index);
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
        showLine(rest);
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
  $("seed").addEventListener("keydown", (e) => { if (e.key === "Enter") generate(); });

  render();
  generate();
})();

// Fire!: the aliens, weapons and piles of a position; reveals, moves, hints
// and solves through /v1/fire/*.
(() => {
  const { ApiError, api, showMessage, html, badge, statsText } = SJ;
  const $ = (id) => document.getElementById(id);
  const FIRES_AT = 10;

  const state = {
    position: null,     // the current position (after anything automatic)
    check: null,        // its CheckResult: status and every legal move
    initial: null,      // the CheckResult the game started from (Restart)
    history: [],        // [{check, last}] for Undo
    last: null,         // what led here: {reveal, side} or {move, before}
    filter: null,       // a weapon whose moves alone are listed (it fires: pick target and battery)
    strategy: null,     // {position, move} the fixed strategy's move here
  };
  const work = SJ.actions(() => renderButtons());
  const busy = work.run;
  const game = SJ.checkHistory(state, setPosition);

  // ------------------------------------------------------------- helpers

  const plural = (n, word) => `${n} ${n === 1 ? word : word.endsWith("y") ? word.slice(0, -1) + "ies" : word + "s"}`;
  const energyOf = (pile) => pile.reduce((s, b) => s + b.energy, 0);
  const crosshairsOf = (pile) => pile.reduce((s, b) => s + b.crosshairs, 0);
  const batteryKey = (b) => `${b.energy},${b.crosshairs}`;
  const sameMove = (a, b) => JSON.stringify(normMove(a)) === JSON.stringify(normMove(b));
  const normMove = (m) => ({ weapon: m.weapon ?? null, target: m.target ?? null,
    destroy: m.destroy ? { energy: m.destroy.energy, crosshairs: m.destroy.crosshairs } : null, give: !!m.give });

  function pct(p) {
    if (p > 0 && p < 1e-7) return "<0.00001%";
    if (p > 0 && p < 1e-4) return `${(100 * p).toPrecision(2)}%`;
    if (p < 1 && p > 1 - 1e-4) return p > 1 - 1e-7 ? ">99.99999%" : `${(100 * p).toFixed(5)}%`;
    return `${(100 * p).toFixed(2)}%`;
  }

  function valueText(v) {
    const [lo, hi] = v.interval;
    return v.exact ? pct(v.win_probability) : `[${pct(lo)}, ${pct(hi)}] (not exact)`;
  }

  // A win probability: a bar (the proved interval lighter) and the number.
  function valueNode(v) {
    const [lo, hi] = v.exact ? [v.win_probability, v.win_probability] : v.interval;
    const node = html("span", { class: "prob" + (v.exact ? "" : " inexact"),
      title: v.exact ? "exact win probability" : "not exact: the search stopped; proved bounds on the win probability" });
    const bar = html("span", { class: "pbar" });
    const low = html("span", { class: "pbar-low" });
    low.style.width = `${(100 * lo).toFixed(2)}%`;
    const range = html("span", { class: "pbar-range" });
    range.style.left = `${(100 * lo).toFixed(2)}%`;
    range.style.width = `${(100 * (hi - lo)).toFixed(2)}%`;
    bar.append(low, range);
    node.append(bar, html("span", { class: "pnum" }, valueText(v)));
    return node;
  }

  function crosshairText(n) {
    return n <= 3 ? "✛".repeat(n) : `${n}✛`;
  }

  function batteryNode(b, extra = "") {
    const node = html("span", {
      class: `battery e${b.energy}${extra ? " " + extra : ""}`,
      title: `energy ${b.energy}, ${plural(b.crosshairs, "crosshair")}`,
    });
    node.append(html("b", {}, String(b.energy)), html("i", {}, crosshairText(b.crosshairs)));
    return node;
  }

  // Each player's weapons and piles; solo has one side.
  function sides(p) {
    if (p.mode === "team") {
      return p.players.map((pl, i) => ({ ...pl, index: i, name: `Player ${i + 1}`,
        order_known: pl.order_known ?? p.order_known }));
    }
    return [{ weapons: p.weapons, draw: p.draw, discard: p.discard, destroyed: p.destroyed, exchanges: null,
      index: 0, name: "Solo", order_known: p.order_known }];
  }

  const onTurn = (p) => sides(p)[p.mode === "team" ? p.turn : 0];

  // The revealed battery on weapon ``w`` of the player on turn.
  function shot(p, w) {
    const weapon = onTurn(p).weapons[w];
    const energy = energyOf(weapon) + p.revealed.energy;
    const crosshairs = crosshairsOf(weapon) + p.revealed.crosshairs;
    const fires = energy >= FIRES_AT;
    return { energy, crosshairs, fires, damage: fires ? (energy - FIRES_AT) * crosshairs : 0 };
  }

  // Hits an alien takes from ``damage``: the next strengths whose sum fits.
  function hitsFor(alien, damage) {
    let h = 0;
    let used = 0;
    while (alien.hits + h < 4 && used + alien.strengths[alien.hits + h] <= damage) {
      used += alien.strengths[alien.hits + h];
      h += 1;
    }
    return h;
  }

  function moveNode(m, p) {
    const span = html("span", { class: "ftext" });
    if (m.give) {
      const left = onTurn(p).exchanges - 1;
      span.append(`Give it to player ${2 - p.turn} (face up on their draw pile; ${plural(left, "exchange")} left)`);
      return span;
    }
    span.append(html("b", {}, `Weapon ${m.weapon + 1}`));
    if (!p.revealed) return span;
    const s = shot(p, m.weapon);
    if (m.target === null || m.target === undefined) {
      span.append(html("span", { class: "muted" }, ` → ${s.energy}/${FIRES_AT} energy, ${s.crosshairs}✛: holds`));
      return span;
    }
    const h = hitsFor(p.aliens[m.target], s.damage);
    span.append(` fires: (${s.energy} − ${FIRES_AT}) × ${s.crosshairs}✛ = ${s.damage} damage at `,
      html("b", {}, `alien ${m.target + 1}`), ` → ${plural(h, "hit")}`);
    if (m.destroy) span.append("; destroy ", batteryNode(m.destroy, "tiny"));
    else span.append(html("span", { class: "win-text" }, " — wins"));
    return span;
  }

  function formatPosition(p) {
    const j = (v) => JSON.stringify(v);
    const lines = Object.entries(p).map(([k, v]) => {
      if ((k === "aliens" || k === "players") && Array.isArray(v) && v.length) {
        return `  ${j(k)}: [\n${v.map((x) => "    " + j(x)).join(",\n")}\n  ]`;
      }
      return `  ${j(k)}: ${j(v)}`;
    });
    return "{\n" + lines.join(",\n") + "\n}";
  }

  // --------------------------------------------------------------- views

  const STATUS_TEXT = {
    win: () => "Every alien is destroyed: won.",
    loss: () => "Lost: nothing left to draw, and no weapon can fire.",
    reveal: (p) => `${p.mode === "team" ? `Player ${p.turn + 1}: r` : "R"}eveal the next battery.`,
    decision: (p) => `${p.mode === "team" ? `Player ${p.turn + 1}: p` : "P"}ut the revealed battery on a weapon.`,
  };

  function renderStatus() {
    const bar = $("fire-status");
    bar.replaceChildren();
    if (!state.check) {
      bar.textContent = "No position loaded.";
      return;
    }
    const p = state.position;
    const alive = p.aliens.filter((a) => a.hits < 4).length;
    bar.append(badge(state.check.status), STATUS_TEXT[state.check.status](p),
      html("span", { class: "muted status-extra" },
        ` ${p.mode === "team" ? "Team" : "Solo"} · ${alive} of ${plural(p.aliens.length, "alien")} alive · ` +
        `${p.order_known ? "known order" : "hidden order"}`));
  }

  function renderAliens() {
    const box = $("fire-aliens");
    box.replaceChildren();
    const p = state.position;
    $("fire-aliens-info").textContent = "";
    if (!p) return;
    p.aliens.forEach((a, i) => {
      const dead = a.hits >= 4;
      const card = html("div", { class: "alien" + (dead ? " dead" : "") });
      const head = html("div", { class: "alien-head" });
      head.append(html("b", {}, `Alien ${i + 1}`),
        html("span", { class: "small muted" }, dead ? "destroyed" : `${a.hits}/4 hits`));
      const track = html("div", { class: "track" });
      a.strengths.forEach((v, k) => {
        const cls = k < a.hits ? "cell hit" : k === a.hits ? "cell next" : "cell";
        const cell = html("span", { class: cls, title: k < a.hits ? "hit taken" : k === a.hits
          ? `next hit: needs ${v} damage` : `strength ${v}` }, String(v));
        track.append(cell);
      });
      card.append(head, track);
      if (!dead) {
        let sum = 0;
        const need = [];
        for (let k = a.hits; k < 4; k++) need.push((sum += a.strengths[k]));
        card.append(html("div", { class: "small muted", title: "damage for 1, 2, ... more hits" },
          `hits at ${need.join(" · ")} damage`));
      }
      box.append(card);
    });
  }

  function renderTurn() {
    const box = $("fire-turn-text");
    box.replaceChildren();
    const c = state.check;
    if (!c) return;
    const p = state.position;
    const side = onTurn(p);
    const who = p.mode === "team" ? `${side.name}: ` : "";
    if (c.status === "decision") {
      box.append(html("span", { class: "turn-label" }, `${who}revealed`), batteryNode(p.revealed, "big"),
        html("span", { class: "muted" }, ` ${plural(c.moves.length, "legal move")} — click a weapon, a move or a hint`));
    } else if (c.status === "reveal") {
      const n = side.draw.length;
      box.append(html("span", { class: "turn-label" }, `${who}reveal`),
        html("span", { class: "muted" }, ` each of the ${plural(n, "battery")} in the draw pile is equally likely next`));
    } else {
      box.append(badge(c.status), c.status === "win" ? " The game is won." : " The game is lost.");
    }
  }

  function weaponNode(p, side, w, onTurnSide) {
    const weapon = side.weapons[w];
    const c = state.check;
    const energy = energyOf(weapon);
    const crosshairs = crosshairsOf(weapon);
    const moves = onTurnSide && c.status === "decision" ? c.moves.filter((m) => !m.give && m.weapon === w) : [];
    const card = html("div", { class: "weapon" });
    if (moves.length) card.classList.add("droppable");
    if (state.filter === w && onTurnSide) card.classList.add("selected");

    card.append(html("div", { class: "weapon-head" }, `Weapon ${w + 1}`));
    const pile = html("div", { class: "weapon-batteries" });
    if (weapon.length) weapon.forEach((b) => pile.append(batteryNode(b)));
    else pile.append(html("span", { class: "muted small" }, "empty"));
    card.append(pile);

    const meter = html("div", { class: "meter", title: `${energy} of ${FIRES_AT} energy` });
    const fill = html("span", { class: "meter-fill" });
    fill.style.width = `${Math.min(100, (100 * energy) / FIRES_AT)}%`;
    meter.append(fill);
    let preview = null;
    if (moves.length) {
      preview = shot(p, w);
      const add = html("span", { class: "meter-add" + (preview.fires ? " fires" : "") });
      add.style.left = fill.style.width;
      add.style.width = `${Math.max(0, Math.min(100, (100 * preview.energy) / FIRES_AT) - Math.min(100, (100 * energy) / FIRES_AT))}%`;
      meter.append(add);
    }
    card.append(meter);
    card.append(html("div", { class: "small charge", title: `fires at ${FIRES_AT}+ energy: damage (energy − ${FIRES_AT}) × crosshairs` },
      `${energy}/${FIRES_AT} energy · ${crosshairs}✛ · fires with ${FIRES_AT - energy}+ more`));
    if (preview) {
      const r = p.revealed;
      card.append(html("div", { class: "small preview" + (preview.fires ? " fires" : "") }, preview.fires
        ? `+${r.energy} → ${preview.energy} energy, ${preview.crosshairs}✛: fires, ${preview.damage} damage`
        : `+${r.energy} → ${preview.energy}/${FIRES_AT} energy, ${preview.crosshairs}✛: holds`));
      card.title = moves.length === 1 ? "Click to put the revealed battery here"
        : "Click to choose the target and the battery to destroy";
      card.addEventListener("click", () => {
        if (work.busy) return;
        if (moves.length === 1) {
          play(moves[0]);
        } else {
          state.filter = state.filter === w ? null : w;
          render();
        }
      });
    }
    return card;
  }

  function pileNode(title, pile, { ordered = false, note = "", cls = "" } = {}) {
    const box = html("div", { class: "pile " + cls });
    const head = html("div", { class: "pile-head" });
    head.append(html("b", {}, title), html("span", { class: "count" }, String(pile.length)));
    if (note) head.append(html("span", { class: "small muted" }, note));
    box.append(head);
    const chips = html("div", { class: "chips" });
    if (!pile.length) chips.append(html("span", { class: "muted small" }, "none"));
    if (ordered) {
      pile.forEach((b, i) => {
        const chip = html("span", { class: "chip-b" + (i === 0 ? " first" : ""), title: i === 0 ? "next" : `${i + 1}.` });
        chip.append(html("span", { class: "ord" }, String(i + 1)), batteryNode(b));
        chips.append(chip);
      });
    } else {
      const groups = new Map();
      for (const b of pile) {
        const k = batteryKey(b);
        if (!groups.has(k)) groups.set(k, { b, n: 0 });
        groups.get(k).n += 1;
      }
      [...groups.values()].sort((x, y) => x.b.energy - y.b.energy || x.b.crosshairs - y.b.crosshairs)
        .forEach(({ b, n }) => {
          const chip = html("span", { class: "chip-b" });
          chip.append(batteryNode(b), html("span", { class: "times" }, `×${n}`));
          chips.append(chip);
        });
    }
    box.append(chips);
    return box;
  }

  function pilesNode(p, side) {
    const box = html("div", { class: "piles" });
    const known = side.order_known;
    box.append(
      pileNode("Draw pile", side.draw, { ordered: known, note: known ? "known order: first is next" : "hidden order" }),
      pileNode("Discard", side.discard, { note: "reshuffled when the draw pile runs out" }),
      pileNode("Destroyed", side.destroyed, { note: "out for this level", cls: "destroyed" }));
    return box;
  }

  function renderBoard() {
    const weaponsBox = $("fire-weapons");
    const pilesBox = $("fire-piles");
    weaponsBox.replaceChildren();
    pilesBox.replaceChildren();
    const p = state.position;
    if (!p) return;
    const turnSide = onTurn(p);
    if (p.mode !== "team") {
      const row = html("div", { class: "weapons" });
      p.weapons.forEach((_, w) => row.append(weaponNode(p, turnSide, w, true)));
      weaponsBox.append(row);
      pilesBox.append(pilesNode(p, turnSide));
      return;
    }
    const grid = html("div", { class: "players" });
    for (const side of sides(p)) {
      const mine = side.index === p.turn;
      const panel = html("div", { class: "player" + (mine ? " on-turn" : "") });
      const head = html("div", { class: "player-head" });
      head.append(html("b", {}, side.name));
      if (mine && state.check.status !== "win" && state.check.status !== "loss") {
        head.append(html("span", { class: "badge decision" }, "on turn"));
      }
      head.append(html("span", { class: "small muted", title: "Energy exchanges (gives) left this level" },
        `${plural(side.exchanges, "exchange")} left`));
      panel.append(head);
      const row = html("div", { class: "weapons" });
      side.weapons.forEach((_, w) => row.append(weaponNode(p, side, w, mine)));
      panel.append(row, pilesNode(p, side));
      grid.append(panel);
    }
    weaponsBox.append(grid);
  }

  function renderMoves() {
    const list = $("fire-moves");
    list.replaceChildren();
    const info = $("fire-moves-info");
    info.replaceChildren();
    const c = state.check;
    if (!c) return;
    if (c.status !== "decision") {
      list.append(html("li", { class: "muted static" },
        c.status === "reveal" ? "Reveal a battery first." : "The game is over."));
      return;
    }
    const p = state.position;
    const shown = state.filter === null ? c.moves : c.moves.filter((m) => !m.give && m.weapon === state.filter);
    info.append(`(${plural(c.moves.length, "move")}` + (state.filter === null ? ")" : `; weapon ${state.filter + 1} only) `));
    if (state.filter !== null) {
      const all = html("button", { type: "button", class: "text-button" }, "show all");
      all.addEventListener("click", () => { state.filter = null; render(); });
      info.append(all);
    }
    for (const m of shown) {
      const li = html("li", { title: "Click to play it" });
      if (state.strategy && state.strategy.position === p && sameMove(state.strategy.move, m)) {
        li.classList.add("active");
        li.title = "The fixed strategy's move; click to play it";
      }
      li.append(moveNode(m, p));
      li.addEventListener("click", () => play(m));
      list.append(li);
    }
  }

  function renderStrategy() {
    const box = $("fire-strategy");
    box.replaceChildren();
    const s = state.strategy;
    if (!s || s.position !== state.position) return;
    const play_ = html("button", { type: "button", class: "secondary small-button" }, "Play it");
    play_.addEventListener("click", () => play(s.move));
    box.append("Fixed strategy: ", moveNode(s.move, s.position), " ", play_);
  }

  function renderLast() {
    const box = $("fire-last");
    box.replaceChildren();
    const last = state.last;
    if (!state.check) {
      box.textContent = "Start a level or load a position.";
    } else if (!last) {
      box.textContent = `Move ${state.history.length}: start.`;
    } else if (last.reveal) {
      box.append(`Move ${state.history.length}: ${last.who}revealed `, batteryNode(last.reveal, "tiny"));
    } else {
      box.append(`Move ${state.history.length}: `, moveNode(last.move, last.before));
    }
  }

  // Every button is off while a request runs: one action at a time.
  function renderButtons() {
    const c = state.check;
    const idle = !work.busy;
    $("fire-reveal").disabled = !idle || !c || c.status !== "reveal";
    $("fire-strategy-move").disabled = !idle || !c || c.status !== "decision";
    $("fire-undo").disabled = !idle || state.history.length === 0;
    $("fire-restart").disabled = !idle || !state.initial || state.history.length === 0;
    $("fire-hint").disabled = !idle || !c;
    $("fire-solve").disabled = !idle || !c;
    for (const id of ["fire-new-solo", "fire-new-team", "fire-load"]) $(id).disabled = !idle;
  }

  function render() {
    renderStatus();
    renderAliens();
    renderTurn();
    renderBoard();
    renderMoves();
    renderStrategy();
    renderLast();
    renderButtons();
  }

  // ---------------------------------------------------------------- game

  function setPosition(check, last, { reset = false } = {}) {
    state.check = check;
    state.position = check.position;
    state.last = last;
    state.filter = null;
    state.strategy = null;
    if (reset) {
      state.initial = check;
      state.history = [];
    }
    clearHint();
    clearSolve();
    $("fire-json").value = formatPosition(check.position);
    render();
    if (check.status === "win") showMessage("Won: every alien is destroyed.", "info");
    else if (check.status === "loss") showMessage("Lost: the piles are empty and no weapon can fire.", "info");
  }

  // The CheckResult of a position a replay reached (a game over has no moves).
  async function checked(result) {
    if (result.status === "win" || result.status === "loss") {
      return { status: result.status, position: result.position, moves: [] };
    }
    return api("/v1/fire/check", { position: result.position });
  }

  function play(move) {
    if (work.busy || !state.check || state.check.status !== "decision") return;
    return busy($("fire-undo"), null, async () => {
      const before = state.position;
      const after = await api("/v1/fire/apply", { position: before, move });
      game.advance(after, { move, before });
    });
  }

  function reveal() {
    if (work.busy || !state.check || state.check.status !== "reveal") return;
    busy($("fire-reveal"), "Revealing…", async () => {
      const p = state.position;
      const side = onTurn(p);
      if (!side.draw.length) throw new ApiError("The draw pile is empty.");
      // Uniform over the batteries in the pile (the multiset is open).
      const pick = new Uint32Array(1);
      crypto.getRandomValues(pick);
      const battery = side.draw[pick[0] % side.draw.length];
      const result = await api("/v1/fire/replay", { position: p, steps: [{ reveal: battery }] });
      if (result.error) throw new ApiError(`Reveal: ${result.error}`);
      const after = await checked(result);
      game.advance(after, { reveal: battery, who: p.mode === "team" ? `${side.name} ` : "" });
    });
  }

  function strategyMove() {
    if (!state.check || state.check.status !== "decision") return;
    busy($("fire-strategy-move"), "Asking…", async () => {
      const position = state.position;
      const move = await api("/v1/fire/strategy-move", { position });
      if (position !== state.position) return;
      state.strategy = { position, move };
      render();
    });
  }

  // ---------------------------------------------------------------- level

  function newLevel(id, button) {
    busy(button, "Dealing…", async () => {
      const aliens = Number($("fire-aliens-count").value) || 1;
      const params = new URLSearchParams({ aliens: String(aliens) });
      let seed = null;
      if ($("fire-known").checked) {
        const pick = new Uint32Array(1);
        crypto.getRandomValues(pick);
        seed = pick[0];
        params.set("seed", String(seed));
      }
      const data = await api(`/v1/fire/levels?${params}`);
      const entry = data.levels.find((l) => l.id === id);
      if (!entry) throw new ApiError(`the server has no level ${id}`);
      const check = await api("/v1/fire/check", { position: entry.position });
      const info = $("fire-level-info");
      info.replaceChildren();
      info.append(html("div", {}, `${entry.level.name}: ${aliens} of ${plural(entry.level.aliens.length, "alien")}, ` +
        (seed === null ? "hidden order" : `known order (seed ${seed})`) + "."));
      info.append(html("div", { class: "assumed" }, "Assumed (not printed in the rulebook): " +
        entry.level.assumptions.join("; ") + "."));
      setPosition(check, null, { reset: true });
    });
  }

  function load() {
    busy($("fire-load"), "Loading…", async () => {
      let parsed;
      try {
        parsed = JSON.parse($("fire-json").value);
      } catch (e) {
        throw new ApiError(`Position JSON: ${e.message}`);
      }
      const check = await api("/v1/fire/check", { position: parsed });
      $("fire-level-info").textContent = "Loaded from JSON.";
      setPosition(check, null, { reset: true });
    });
  }

  // ----------------------------------------------------------------- hint

  function clearHint() {
    $("fire-hint-list").replaceChildren();
    $("fire-hint-info").textContent = "";
  }

  function choiceItem(c, p, clickable) {
    const li = html("li", { class: clickable ? "" : "static",
      title: clickable ? "Click to play it" : "The choices if this battery comes up" });
    li.append(valueNode(c), moveNode(c.move, p));
    if (c.equivalent.length) {
      li.append(html("span", { class: "eq small muted", title: "Other moves that reach the same state" },
        `+${c.equivalent.length} equiv.`));
    }
    if (clickable) li.addEventListener("click", () => play(c.move));
    return li;
  }

  function hint() {
    if (!state.position) return;
    busy($("fire-hint"), "Thinking…", async () => {
      const seconds = Math.max(0.1, Number($("fire-hint-seconds").value) || 3);
      const position = state.position;
      const result = await api("/v1/fire/hint", { position, limit: { seconds } });
      if (position !== state.position) return; // the game moved on meanwhile
      clearHint();
      const info = $("fire-hint-info");
      info.append(html("div", { class: "hint-value" }, "Win probability here: "), valueNode(result));
      info.append(html("div", {}, statsText(result.stats)));
      const list = $("fire-hint-list");
      const p = result.position;
      if (result.status === "decision") {
        for (const c of result.choices) list.append(choiceItem(c, p, true));
      } else if (result.status === "reveal") {
        const n = onTurn(p).draw.length;
        for (const r of result.reveals) {
          const head = html("li", { class: "group static", title: "If this battery comes up" });
          const count = Math.round(r.probability * n);
          head.append(html("span", { class: "if" }, "if"), batteryNode(r.battery),
            html("span", { class: "small" }, `comes up (${count} of ${n}, ${pct(r.probability)})`), valueNode(r));
          list.append(head);
          const rp = { ...p, revealed: r.battery };
          for (const c of r.choices) {
            const li = choiceItem(c, rp, false);
            li.classList.add("sub");
            list.append(li);
          }
        }
      } else {
        list.append(html("li", { class: "static muted" }, `The game is over (${result.status}).`));
      }
    });
  }

  // ---------------------------------------------------------------- solve

  function clearSolve() {
    $("fire-solve-verdict").replaceChildren();
    $("fire-solve-stats").textContent = "";
  }

  function solve() {
    if (!state.position) return;
    busy($("fire-solve"), "Solving…", async () => {
      const seconds = Math.max(0.1, Number($("fire-solve-seconds").value) || 5);
      const position = state.position;
      const result = await api("/v1/fire/solve", { position, limit: { seconds } });
      if (position !== state.position) return;
      clearSolve();
      $("fire-solve-verdict").append("Win probability under optimal play: ", valueNode(result));
      const certain = { true: "won whatever the reveals", false: "some reveals lose against any play" };
      if (result.won_for_certain !== null) $("fire-solve-verdict").append(` (${certain[result.won_for_certain]})`);
      $("fire-solve-stats").textContent = statsText(result.stats) +
        ` · ${result.stats.states_stored.toLocaleString()} states stored`;
    });
  }

  // ----------------------------------------------------------------- wire

  $("fire-new-solo").addEventListener("click", () => newLevel("solo-1", $("fire-new-solo")));
  $("fire-new-team").addEventListener("click", () => newLevel("team-1", $("fire-new-team")));
  $("fire-load").addEventListener("click", load);
  $("fire-revert").addEventListener("click", () => {
    if (state.position) $("fire-json").value = formatPosition(state.position);
  });
  $("fire-reveal").addEventListener("click", reveal);
  $("fire-strategy-move").addEventListener("click", strategyMove);
  $("fire-undo").addEventListener("click", game.undo);
  $("fire-restart").addEventListener("click", game.restart);
  $("fire-hint").addEventListener("click", hint);
  $("fire-solve").addEventListener("click", solve);

  render();
  // The first time the view is shown, deal a small solo level.
  SJ.onFirstShow("fire", () => newLevel("solo-1", $("fire-new-solo")));
})();

// Wild Fire!: the growing forest on a hex board; check, play, hint and solve
// through /v1/wildfire/*.
(() => {
  const { ApiError, api, showMessage, html, badge, dot, statsText } = SJ;
  const { SIZE, DIRS, TILE_FILLS, key, colorOf, colorName, center, corner, hexPoints, svg, fitBoard } = SJ.hex;
  const $ = (id) => document.getElementById(id);

  const state = {
    examples: [],     // [{name, note, position}] from /static/wildfire-examples.json
    check: null,      // CheckResult of the current position (its position in the mid-game form)
    initial: null,    // the CheckResult the game started from (Restart)
    history: [],      // [{check, last}] for Undo
    last: null,       // {move, tile, turn}: what led here
    place: null,      // [q, r]: the hottest cell chosen for the next tile
    target: null,     // [q, r]: the tile chosen for pawns
    color: 0,
    highlight: null,  // a move drawn over the board (hovered in the hint or the line)
    solve: null,      // {base, line, steps, index}: a winning line and the positions along it
    preview: null,    // {position, index, next} while stepping through the line
  };
  const work = SJ.actions(() => renderButtons());
  const busy = work.run;
  const game = SJ.checkHistory(state, setPosition);
  const solution = SJ.solutionLine("wf-", {
    at: () => state.solve,
    goTo: goToStep,
    close: () => { state.preview = null; render(); },
    adopt: adoptPreview,
  });

  // ------------------------------------------------------------- helpers

  const current = () => state.check && state.check.position;
  const isKnown = (p) => Array.isArray(p.deal_rest);
  const sameCell = (a, b) => !!a && !!b && a[0] === b[0] && a[1] === b[1];
  const cellText = ([q, r]) => `(${q}, ${r})`;
  const total = (list) => list.reduce((a, b) => a + b, 0);
  const sameMove = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  // The tile this turn places: the deal's next (known order) or the one drawn.
  function nextTile(p) {
    return (isKnown(p) ? p.deal_rest[0] : p.drawn) || null;
  }

  const freeEdges = (q, r, occupied) => DIRS.filter(([dq, dr]) => !occupied.has(key(q + dq, r + dr))).length;

  function moveNode(m, { short = false } = {}) {
    const span = html("span", { class: "ftext" });
    span.append(short ? cellText(m.place) : `tile on ${cellText(m.place)}`);
    if (m.pawns) {
      span.append(" · ", dot(m.pawns.color),
        ` ${m.pawns.count} ${colorName(m.pawns.color)} on ${cellText(m.pawns.tile)}`);
    } else {
      span.append(html("span", { class: "muted" }, " · no pawns"));
    }
    return span;
  }

  // A tile off the board: its number on its colour, a dot per space.
  function tileChip(t, extra = "") {
    const chip = html("span", { class: `wf-tile${extra ? " " + extra : ""}`,
      title: `${t.n}, ${plural(t.spaces, "space")}` });
    chip.style.background = TILE_FILLS[t.n - 1];
    chip.append(html("b", {}, String(t.n)), html("i", {}, "•".repeat(t.spaces || 1)));
    return chip;
  }

  // The table first, one tile per line; tiles to come several to a line.
  const KEY_ORDER = ["tiles", "turn", "supply", "level", "deal_rest", "turns_left", "drawn", "pool"];
  const keyRank = (k) => (KEY_ORDER.includes(k) ? KEY_ORDER.indexOf(k) : KEY_ORDER.length);

  function formatPosition(p) {
    const j = (v) => JSON.stringify(v).replace(/"(\w+)":/g, '"$1": ').replace(/,(?=["{\[\d-])/g, ", ");
    const entries = Object.entries(p).sort(([a], [b]) => keyRank(a) - keyRank(b));
    const lines = entries.map(([k, v]) => {
      if (!Array.isArray(v) || !v.length || typeof v[0] !== "object") return `  ${j(k)}: ${j(v)}`;
      const items = v.map((t) => j(k === "tiles" ? { q: t.q, r: t.r, n: t.n, spaces: t.spaces, pawns: t.pawns } : t));
      const rows = [];
      for (const item of items) {
        const last = rows.length ? rows[rows.length - 1] : null;
        if (k !== "tiles" && last !== null && last.length + item.length < 44) rows[rows.length - 1] = `${last}, ${item}`;
        else rows.push(item);
      }
      return `  ${j(k)}: [\n    ${rows.join(",\n    ")}\n  ]`;
    });
    return "{\n" + lines.join(",\n") + "\n}";
  }

  // --------------------------------------------------------------- board

  function drawBoard() {
    const board = $("wf-board");
    board.replaceChildren();
    const p = state.preview ? state.preview.position : current();
    if (!p) {
      board.setAttribute("viewBox", "-200 -100 400 200");
      svg("text", { x: 0, y: 0, class: "board-empty" }, board).textContent = "Load a position.";
      return;
    }
    const interactive = !state.preview;
    const tiles = new Map(p.tiles.map((t) => [key(t.q, t.r), t]));

    // The move drawn over the board: hovered, next in the line, or being built.
    let shown = state.highlight || (state.preview && state.preview.next);
    if (!shown && interactive && state.place) shown = { place: state.place, pawns: null };
    const drawn = nextTile(p);
    const ghost = shown && drawn ? { q: shown.place[0], r: shown.place[1], n: drawn.n, spaces: drawn.spaces,
      pawns: p.supply.map(() => 0) } : null;
    const occupied = new Set(tiles.keys());
    if (ghost) occupied.add(key(ghost.q, ghost.r));

    // Candidate cells (empty, next to a tile) with their heat.
    const frame = new Map();
    for (const t of p.tiles) {
      for (const [dq, dr] of DIRS) {
        const [q, r] = [t.q + dq, t.r + dr];
        if (!tiles.has(key(q, r))) frame.set(key(q, r), [q, r]);
      }
    }
    const heat = ([q, r]) => total(DIRS.map(([dq, dr]) => tiles.get(key(q + dq, r + dr))?.n || 0));
    const hottest = new Set(interactive && state.check.status === "ongoing"
      ? state.check.hottest.map(([q, r]) => key(q, r)) : []);
    fitBoard(board, [...frame.values()]);

    const gCells = svg("g", {}, board);
    const gTiles = svg("g", {}, board);
    const gOver = svg("g", {}, board);
    frame.forEach(([q, r], k) => {
      if (ghost && sameCell(shown.place, [q, r])) return;
      const [cx, cy] = center(q, r);
      const hot = hottest.has(k);
      const g = svg("g", {}, gCells);
      svg("polygon", { points: hexPoints(cx, cy, SIZE - 1), class: hot ? "hex-hot" : "hex-frame" }, g);
      svg("text", { x: cx, y: cy + 4, class: hot ? "heat hot" : "heat" }, g).textContent = `heat ${heat([q, r])}`;
      svg("title", {}, g).textContent = `${cellText([q, r])}: heat ${heat([q, r])}` +
        (hot ? (drawn ? " — hottest: click to put the tile here" : " — hottest") : "");
      if (hot && drawn && state.check.moves.length) g.addEventListener("click", () => choosePlace([q, r]));
    });

    for (const t of p.tiles) drawTile(gTiles, t, occupied, interactive, shown);
    if (ghost) drawTile(gTiles, ghost, occupied, interactive, shown, true);

    if (interactive && state.target) {
      const [cx, cy] = center(...state.target);
      svg("polygon", { points: hexPoints(cx, cy, SIZE - 2), class: "hex-selected" }, gOver);
    }
    if (shown && shown.pawns) {
      const [cx, cy] = center(...shown.pawns.tile);
      svg("polygon", { points: hexPoints(cx, cy, SIZE - 2), class: "hex-path", stroke: colorOf(shown.pawns.color) }, gOver);
    }
  }

  // A tile: its number, free edges, and a circle per space (pawns by colour;
  // a dashed circle is a space with no free edge left to take a pawn).
  function drawTile(parent, t, occupied, interactive, shown, ghost = false) {
    const [cx, cy] = center(t.q, t.r);
    const g = svg("g", {}, parent);
    svg("polygon", { points: hexPoints(cx, cy, SIZE - 0.5), class: ghost ? "hex-tile ghost" : "hex-tile",
      fill: TILE_FILLS[t.n - 1] }, g);
    DIRS.forEach(([dq, dr], d) => {
      if (occupied.has(key(t.q + dq, t.r + dr))) return;
      const [x1, y1] = corner(cx, cy, SIZE - 3, (6 - d) % 6);
      const [x2, y2] = corner(cx, cy, SIZE - 3, (7 - d) % 6);
      svg("line", { x1, y1, x2, y2, class: "edge-open" }, g);
    });
    svg("text", { x: cx, y: cy - 2, class: "tile-num" }, g).textContent = String(t.n);

    const free = freeEdges(t.q, t.r, occupied);
    const pawns = [];
    t.pawns.forEach((n, c) => { for (let i = 0; i < n; i++) pawns.push(c); });
    const adding = shown && shown.pawns && sameCell(shown.pawns.tile, [t.q, t.r]) ? shown.pawns : null;
    const room = Math.max(pawns.length, Math.min(t.spaces, free));
    for (let i = 0; i < t.spaces; i++) {
      const x = cx + (i - (t.spaces - 1) / 2) * 11;
      const attrs = { cx: x, cy: cy + 12, r: 4.3, class: "space" };
      if (i < pawns.length) {
        attrs.class = "space pawn";
        attrs.style = `fill: ${colorOf(pawns[i])}`;
      } else if (adding && i < pawns.length + adding.count) {
        attrs.class = "space pawn adding";
        attrs.style = `fill: ${colorOf(adding.color)}`;
      } else if (i >= room) {
        attrs.class = "space closed";
      }
      svg("circle", attrs, g);
    }
    const held = t.pawns.map((n, c) => (n ? `${n} ${colorName(c)}` : "")).filter(Boolean);
    svg("title", {}, g).textContent = `${ghost ? "the drawn tile, if placed here: " : ""}tile ${cellText([t.q, t.r])}: ` +
      `${t.n}, ${plural(t.spaces, "space")}, ${plural(free, "free edge")}` + (held.length ? `; pawns: ${held.join(", ")}` : "");
    if (interactive && state.place) g.addEventListener("click", () => chooseTarget([t.q, t.r]));
    else g.style.cursor = "default";
  }

  // ------------------------------------------------------------- panels

  function renderStatus() {
    const bar = $("wf-status");
    bar.replaceChildren();
    const c = state.check;
    if (!c) {
      bar.textContent = "No position loaded.";
      return;
    }
    const p = c.position;
    bar.append(badge(c.status));
    if (c.status === "win") {
      bar.append("Won: every pawn is on the table, and each colour's tiles form one group with a 1-tile on its edge.");
    } else if (c.status === "loss") {
      bar.append("Lost: the last tile is down and the goal is not met.");
    } else {
      bar.append(`Turn ${c.turn + 1} of ${c.turn + c.turns_left}`,
        html("span", { class: "muted status-extra" },
          ` · level ${p.level}${c.pawns_allowed ? "" : " (no pawns this turn)"} · ` +
          `${plural(c.hottest.length, "hottest cell")} · ` +
          (nextTile(p) ? `${plural(c.moves.length, "legal move")} · ` : "") +
          `${total(p.supply)} pawns to place · ${isKnown(p) ? "known order" : "hidden order"}`));
    }
  }

  // What to do next, and the buttons that finish the move being built.
  function renderAction() {
    const box = $("wf-action");
    box.replaceChildren();
    const c = state.check;
    if (!c || state.preview) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const p = c.position;
    const tile = nextTile(p);
    if (c.status !== "ongoing") {
      box.append(`The game is over: ${c.status === "win" ? "won" : "lost"}.`);
      return;
    }
    if (!tile) {
      box.append("Hidden order: draw the next tile from the pool.");
      return;
    }
    box.append(tileChip(tile, "small"));
    if (!state.place) {
      box.append(" goes on a hottest cell: click one.");
      return;
    }
    box.append(` on ${cellText(state.place)}. `);
    const none = { place: state.place, pawns: null };
    const playNone = html("button", { type: "button" }, "Play, no pawns");
    playNone.addEventListener("click", () => play(none));
    box.append(playNone);
    if (c.pawns_allowed) {
      const options = c.moves.filter((m) => m.pawns && sameCell(m.place, state.place) && m.pawns.color === state.color &&
        sameCell(m.pawns.tile, state.target));
      if (!state.target) {
        box.append(html("span", { class: "muted" }, ` or pick a colour below and click a tile for ${colorName(state.color)} pawns.`));
      } else if (!options.length) {
        box.append(html("span", { class: "muted" }, p.supply[state.color] === 0
          ? ` No ${colorName(state.color)} pawns left: pick another colour.`
          : ` No room for ${colorName(state.color)} on ${cellText(state.target)}: pawns may fill at most ` +
            "min(spaces, free edges) after this tile."));
      } else {
        box.append(" or put ", dot(state.color));
        for (const m of options) {
          const b = html("button", { type: "button", class: "secondary count-button",
            title: `${m.pawns.count} ${colorName(m.pawns.color)} on ${cellText(m.pawns.tile)}` }, String(m.pawns.count));
          b.addEventListener("click", () => play(m));
          box.append(b);
        }
        box.append(` ${colorName(state.color)} on ${cellText(state.target)}.`);
      }
    } else {
      box.append(html("span", { class: "muted" }, ` Level ${p.level}: no pawns during the first ${p.level - 1} turns.`));
    }
    const cancel = html("button", { type: "button", class: "text-button" }, "cancel");
    cancel.addEventListener("click", () => { state.place = null; state.target = null; render(); });
    box.append(" ", cancel);
  }

  function renderSupply() {
    const p = state.preview ? state.preview.position : current();
    SJ.supplyChips($("wf-supply"), p ? p.supply : [], state.color, (c) => `Pawns of ${colorName(c)}`, (c) => {
      state.color = c;
      render();
    });
  }

  function renderNext() {
    const box = $("wf-next");
    box.replaceChildren();
    const p = state.preview ? state.preview.position : current();
    if (!p) return;
    if (isKnown(p)) {
      $("wf-next-title").textContent = `Next tiles (known order, ${p.deal_rest.length} to come)`;
      p.deal_rest.forEach((t, i) => box.append(tileChip(t, i === 0 ? "next" : "")));
      if (!p.deal_rest.length) box.append(html("span", { class: "muted small" }, "none"));
      return;
    }
    $("wf-next-title").textContent = `Hidden order: ${plural(p.turns_left, "turn")} left, drawn from the pool`;
    box.append(html("span", { class: "small" }, "drawn "),
      p.drawn ? tileChip(p.drawn, "next") : html("span", { class: "muted small" }, "none yet"),
      html("span", { class: "small wf-pool-label" }, ` pool of ${p.pool.length}: `));
    const groups = new Map();
    for (const t of p.pool) {
      const k = `${t.n},${t.spaces}`;
      if (!groups.has(k)) groups.set(k, { t, n: 0 });
      groups.get(k).n += 1;
    }
    [...groups.values()].sort((a, b) => a.t.n - b.t.n || a.t.spaces - b.t.spaces).forEach(({ t, n }) => {
      box.append(tileChip(t), html("span", { class: "times small" }, `×${n}`));
    });
  }

  function renderLast() {
    const box = $("wf-last");
    box.replaceChildren();
    const last = state.last;
    if (!state.check) {
      box.textContent = "Load an example or paste a position, then Check.";
    } else if (!last) {
      box.textContent = "Click a hottest cell for the tile, then (optionally) a colour and a tile for pawns.";
    } else {
      box.append(`Turn ${last.turn}: `, tileChip(last.tile, "small"), " ", moveNode(last.move));
    }
  }

  // Every button is off while a request runs: one action at a time.
  function renderButtons() {
    const c = state.check;
    const p = current();
    const idle = !work.busy;
    const ongoing = !!c && c.status === "ongoing";
    $("wf-draw").disabled = !idle || !ongoing || isKnown(p) || !!p.drawn;
    $("wf-undo").disabled = !idle || state.history.length === 0;
    $("wf-restart").disabled = !idle || !state.initial || state.history.length === 0;
    $("wf-hint").disabled = !idle || !ongoing || !nextTile(p);
    $("wf-solve").disabled = !idle || !c || !isKnown(p);
    for (const id of ["wf-check", "wf-example-load", "wf-preview-adopt"]) $(id).disabled = !idle;
  }

  function render() {
    renderStatus();
    renderAction();
    renderSupply();
    renderNext();
    renderLast();
    drawBoard();
    renderButtons();
    const p = state.preview;
    const n = p && state.solve.line.length;
    solution.bar(p && [p.index === n
      ? `Winning line: after all ${n} turns.`
      : `Winning line: after ${p.index} of ${n} turns; next: `, ...(p.next ? [moveNode(p.next)] : [])]);
  }

  // ---------------------------------------------------------------- game

  function setPosition(check, last, { reset = false } = {}) {
    state.check = check;
    state.last = last;
    state.place = check.hottest.length === 1 && check.moves.length ? check.hottest[0] : null;
    state.target = null;
    state.highlight = null;
    state.preview = null;
    if (reset) {
      state.initial = check;
      state.history = [];
    }
    const supply = check.position.supply;
    if (!(supply[state.color] > 0)) state.color = Math.max(0, supply.findIndex((n) => n > 0));
    clearHint();
    clearSolve();
    $("wf-json").value = formatPosition(check.position);
    render();
    if (check.status === "win") showMessage("Won: every pawn placed, each colour in one group with a 1-tile on its edge.", "info");
    else if (check.status === "loss") showMessage("Lost: the forest is complete and the goal is not met.", "info");
  }

  function choosePlace(cell) {
    if (work.busy) return;
    state.place = cell;
    state.target = null;
    render();
  }

  function chooseTarget(cell) {
    if (work.busy || !state.place) return;
    state.target = sameCell(state.target, cell) ? null : cell;
    render();
  }

  function play(move) {
    if (work.busy || !state.check) return;
    return busy($("wf-undo"), null, async () => {
      const before = current();
      const result = await api("/v1/wildfire/replay", { position: before, line: [move] });
      if (result.error) throw new ApiError(`Illegal move: ${result.error}`);
      const check = await api("/v1/wildfire/check", { position: result.position });
      game.advance(check, { move, tile: nextTile(before), turn: before.turn + 1 });
    });
  }

  function draw() {
    const p = current();
    if (!p || isKnown(p) || p.drawn || !p.pool.length) return;
    busy($("wf-draw"), "Drawing…", async () => {
      // Uniform over the tiles in the pool (the unseen tiles).
      const pick = new Uint32Array(1);
      crypto.getRandomValues(pick);
      const check = await api("/v1/wildfire/check", { position: { ...p, drawn: p.pool[pick[0] % p.pool.length] } });
      game.advance(check, state.last);
    });
  }

  function loadPosition(position, button) {
    return busy(button, "Checking…", async () => {
      const check = await api("/v1/wildfire/check", { position });
      setPosition(check, null, { reset: true });
    });
  }

  function loadExample() {
    const e = state.examples[Number($("wf-example").value)];
    if (!e) return;
    $("wf-example-note").textContent = e.note;
    loadPosition(e.position, $("wf-example-load"));
  }

  function checkJson() {
    let parsed;
    try {
      parsed = JSON.parse($("wf-json").value);
    } catch (e) {
      showMessage(`Position JSON: ${e.message}`);
      return;
    }
    loadPosition(parsed, $("wf-check"));
  }

  // ---------------------------------------------------------------- hint

  function clearHint() {
    $("wf-hint-rows").replaceChildren();
    $("wf-hint-table").hidden = true;
    $("wf-hint-info").textContent = "";
  }

  function numberIn(id, fallback, min) {
    const v = Number($(id).value);
    return Number.isFinite(v) && v >= min ? v : fallback;
  }

  function hint() {
    const position = current();
    if (!position) return;
    busy($("wf-hint"), "Thinking…", async () => {
      const body = {
        position,
        samples: Math.round(numberIn("wf-hint-samples", 200, 1)),
        seed: Math.round(numberIn("wf-hint-seed", 0, 0)),
        limit: { seconds: numberIn("wf-hint-seconds", 5, 0.1) },
      };
      const result = await api("/v1/wildfire/hint", body);
      if (position !== current()) return; // the game moved on meanwhile
      clearHint();
      $("wf-hint-info").textContent = (result.exact
        ? "Exact: one possible deal, so each move's verdict. "
        : `${result.samples} of ${plural(result.samples_requested, "sampled deal")} (seed ${result.seed}). `) +
        statsText(result.stats);
      const rows = $("wf-hint-rows");
      result.choices.forEach((c, i) => {
        const tr = html("tr", { title: "Hover to see it on the board; click to play it" });
        const [lo, hi] = c.interval95;
        const cell = (text, cls) => html("td", { class: cls }, text);
        const moveCell = html("td");
        moveCell.append(moveNode(c.move, { short: true }));
        tr.append(cell(String(i + 1), "num"), moveCell, cell(pct(c.win_share), "share"),
          cell(`${pct(lo)}–${pct(hi)}`, "small nowrap"), cell(`${c.wins}/${c.losses}/${c.unknown}`, "small muted nowrap"));
        tr.addEventListener("mouseenter", () => { state.highlight = c.move; drawBoard(); });
        tr.addEventListener("mouseleave", () => { state.highlight = null; drawBoard(); });
        tr.addEventListener("click", () => play(c.move));
        rows.append(tr);
      });
      $("wf-hint-table").hidden = false;
    });
  }

  // --------------------------------------------------------------- solve

  function clearSolve() {
    state.solve = null;
    solution.clear();
  }

  function solve() {
    const position = current();
    if (!position) return;
    busy($("wf-solve"), "Solving…", async () => {
      const seconds = numberIn("wf-solve-seconds", 10, 0.1);
      const result = await api("/v1/wildfire/solve", { position, limit: { seconds } });
      if (position !== current()) return;
      clearSolve();
      $("wf-solve-verdict").append(badge(result.verdict));
      $("wf-solve-stats").textContent = statsText(result.stats) +
        (result.line ? ` · winning line of ${plural(result.line.length, "turn")}` : "");
      if (!result.line) return;
      // One replay gives every position along the line.
      const replay = await api("/v1/wildfire/replay", { position, line: result.line });
      if (replay.error) throw new ApiError(`The winning line does not replay: ${replay.error}`);
      state.solve = { base: position, line: result.line, steps: replay.steps, index: 0 };
      solution.show(result.line, moveNode, { title: "Show the position before this turn", first: position.turn + 1 });
      goToStep(0);
    });
  }

  // Show the line's position after ``index`` turns, and the next move.
  function goToStep(index) {
    const sol = state.solve;
    if (!sol) return;
    index = Math.max(0, Math.min(index, sol.line.length));
    sol.index = index;
    const position = index === 0 ? sol.base : sol.steps[index - 1].position;
    state.preview = { position, index, next: sol.line[index] || null };
    state.highlight = null;
    solution.mark(index);
    render();
  }

  function adoptPreview() {
    const p = state.preview;
    if (!p) return;
    const { base, line, steps } = state.solve;
    const before = p.index > 1 ? steps[p.index - 2].position : base;
    const last = p.index ? { move: line[p.index - 1], tile: nextTile(before), turn: p.position.turn } : state.last;
    busy($("wf-preview-adopt"), null, async () => {
      const check = await api("/v1/wildfire/check", { position: p.position });
      game.advance(check, last);
    });
  }

  // ---------------------------------------------------------------- wire

  $("wf-example-load").addEventListener("click", loadExample);
  $("wf-example").addEventListener("change", () => {
    const e = state.examples[Number($("wf-example").value)];
    $("wf-example-note").textContent = e ? e.note : "";
  });
  $("wf-check").addEventListener("click", checkJson);
  $("wf-revert").addEventListener("click", () => {
    if (current()) $("wf-json").value = formatPosition(current());
  });
  $("wf-draw").addEventListener("click", draw);
  $("wf-undo").addEventListener("click", game.undo);
  $("wf-restart").addEventListener("click", game.restart);
  $("wf-hint").addEventListener("click", hint);
  $("wf-solve").addEventListener("click", solve);

  render();
  // The first time the view is shown, fetch the examples and load the first.
  SJ.onFirstShow("wildfire", () => {
    busy($("wf-example-load"), "Loading…", async () => {
      state.examples = await api("/static/wildfire-examples.json");
      const select = $("wf-example");
      state.examples.forEach((e, i) => select.append(html("option", { value: String(i) }, e.name)));
      $("wf-example-note").textContent = state.examples.length ? state.examples[0].note : "";
      if (state.examples.length) await loadPosition(state.examples[0].position, $("wf-check"));
    });
  });
})();

SJ.startTabs();
