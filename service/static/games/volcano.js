// Volcano!: a position on a hex board; check, play, hint, solve and
// generate through /v1/volcano/*.
// mount(root, game) is the interface main.js loads a game's view by.
import { ApiError, api } from "../lib/api.js";
import {
  BOARD_SLOTS, cardSearch, cellKey, fillSlots, hintCard, jsonCard, jsonEditor, layout, legend, solveCard, spaceKey, supplyBox,
  underBoard,
} from "../lib/cards.js";
import { activatable, addStyles, badge, fromTemplate, html, refs, svg } from "../lib/dom.js";
import { cellText, plural } from "../lib/format.js";
import {
  DIRS, DIR_NAMES, center, colorName, colorOf, createBoard, dot, drawTile, emptyBoard, fitBoard, hexAt, key,
  redraw, supplyChips,
} from "../lib/hexboard.js";
import { hintRows } from "../lib/hints.js";
import { showMessage, showOutcome } from "../lib/message.js";
import { solutionLine } from "../lib/solution.js";
import { searchSummary } from "../lib/stats.js";
import { setStatus } from "../lib/status.js";
import { worker } from "../lib/work.js";

addStyles(`
.volcano-hex { stroke: #f7f4ea; stroke-width: 1.5; }
.ghost-ext { fill: rgba(14,165,233,0.10); stroke: #0ea5e9; stroke-width: 2; stroke-dasharray: 5 3; pointer-events: none; }
.ghost-iso { fill: rgba(156,163,175,0.15); stroke: #9ca3af; stroke-width: 2; stroke-dasharray: 5 3; pointer-events: none; }
.legend-ext { fill: none; stroke: #0ea5e9; stroke-width: 2; stroke-dasharray: 3 2; }
.legend-iso { fill: none; stroke: #9ca3af; stroke-width: 2; stroke-dasharray: 3 2; }
.space.pawn.uncoloured { fill: #475569; }
.arrow { cursor: pointer; }
.arrow circle { fill: #fff; stroke-width: 2.5; }
.arrow:hover circle { fill: #fff7d6; }
.path-start { stroke-width: 2.5; fill: #fff; pointer-events: none; }
`);

const TEMPLATE = layout(`
    ${BOARD_SLOTS}
    ${underBoard(supplyBox("pick a colour, click a tile, then an arrow"))}
    <div class="last-move muted" data-ref="lastMove"></div>
    ${legend(
      spaceKey("space pawn", "pawn, in its colour", `fill: ${colorOf(0)}`),
      spaceKey("space pawn uncoloured", "pawn there when the position was loaded"),
      spaceKey("space", "empty space"),
      cellKey("legend-ext", "extinguished last move"),
      cellKey("legend-iso", "isolated last move"))}`,
  jsonCard("Layout", `
      <div class="row">
        <label>Seed <input type="number" data-ref="seed" min="0" step="1" value="3"></label>
        <label class="check"><input type="checkbox" data-ref="solvable"> solvable only</label>
        <label class="check" title="Also measure how hard a won layout is"><input type="checkbox" data-ref="rate"> rate it</label>
        <button type="button" data-ref="generate">New layout</button>
      </div>
      <div class="progress small" data-ref="generateProgress" hidden></div>
      <div class="small muted" data-ref="layoutInfo"></div>`),
  hintCard({ seconds: 3, step: 0.5 }),
  solveCard({ seconds: 10, line: true }));

const flightKey = (f) => `${f.color},${f.tile[0]},${f.tile[1]},${f.dir}`;
const flightText = (f) => `${colorName(f.color)} into ${cellText(f.tile)} flying ${DIR_NAMES[f.dir]}`;
const cellsText = (cells) => (cells.length ? cells.map(cellText).join(" ") : "none");

function flightNode(f) {
  const span = html("span", { class: "ftext" });
  span.append(dot(f.color), " " + flightText(f));
  return span;
}

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

// The rules count pawns, not their colours; the page keeps each tile's
// pawns by colour (tile key -> colour indices, null for pawns a loaded
// position already had) to draw them. A flight's pawns are the ones the
// tiles still standing gained.
function pawnColours(before, position, color) {
  return new Map(position.tiles.map((t) => {
    const had = (before.get(key(t.q, t.r)) || []).slice(0, t.pawns);
    return [key(t.q, t.r), [...had, ...Array(t.pawns - had.length).fill(color)]];
  }));
}
const loadedColours = (position) => pawnColours(new Map(), position, null);

// A difficulty rating of generate (asked with rate).
function difficultyText(d) {
  if (!d) return "rating: none (only a layout proved won is rated)";
  if (!d.complete || d.winning_share === null) {
    return `rating: unfinished (the limit stopped it after ${d.steps} steps)`;
  }
  return `rating: winning share ${d.winning_share.toFixed(3)} (lower is harder), ` +
    `${d.forced_steps} of ${plural(d.steps, "step")} forced`;
}

export function mount(root, game) {
  root.append(fromTemplate(TEMPLATE));
  const ui = refs(root);
  const { wrap, board } = createBoard(`${game.title} board`);
  const editor = jsonEditor(ui, { format: formatPosition, current: () => state.position });

  const state = {
    position: null,   // the game's current position
    colours: new Map(), // its pawns by colour (pawnColours)
    initial: null,    // where the game started (for Restart)
    check: null,      // CheckResult of the current position
    legal: new Set(), // flightKey of every legal flight
    history: [],      // [{position, colours, check, lastStep, moveNo}] for Undo
    lastStep: null,   // ReplayStep of the flight that led here
    moveNo: 0,
    color: 0,
    selected: null,   // [q, r] of the clicked tile
    hinted: null,     // the flight of the hint row hovered or selected
    preview: null,    // {index, entry, next} while stepping through a solution
  };

  const work = worker(() => renderButtons());
  const line = solutionLine(root, {
    noun: "flight",
    moveNode: flightNode,
    // The position after ``index`` flights of the line, one replay from the last.
    async load(index, previous, moves) {
      if (index === 0) {
        return { position: state.position, colours: state.colours, check: state.check, step: state.lastStep };
      }
      const flight = moves[index - 1];
      const played = await api("/v1/volcano/replay", { position: previous.position, line: [flight] });
      if (played.error) throw new ApiError(`The solution does not replay: ${played.error}`);
      const check = await api("/v1/volcano/check", { position: played.position });
      return { position: played.position, colours: pawnColours(previous.colours, played.position, flight.color),
        check, step: played.steps[0] };
    },
    show(view) {
      state.preview = view;
      render();
    },
    adopt: adoptPreview,
  });
  fillSlots(ui, wrap, line);

  // ------------------------------------------------------------- board

  // What the board and the panels show: the game, or the line's position.
  function shown() {
    const p = state.preview;
    return p ? { ...p.entry, next: p.next } : {
      position: state.position, colours: state.colours, check: state.check, step: state.lastStep, next: null,
    };
  }

  function drawBoard() {
    redraw(board, () => {
      const view = shown();
      const pos = view.position;
      if (!pos) {
        emptyBoard(board, "Generate or load a position.");
        return;
      }
      const interactive = !state.preview;
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
      const ghosts = view.step
        ? [...view.step.extinguished.map((c) => [c, "ghost-ext"]), ...view.step.isolated.map((c) => [c, "ghost-iso"])]
        : [];
      fitBoard(board, [...frame.values(), ...ghosts.map(([c]) => c), [pos.volcano.q, pos.volcano.r]]);

      const gFrame = svg("g", {}, board);
      const gGhost = svg("g", {}, board);
      const gTiles = svg("g", {}, board);
      const gOver = svg("g", {}, board);
      frame.forEach((cell) => hexAt(gFrame, cell, 1, { class: "hex-frame" }));
      for (const [cell, cls] of ghosts) hexAt(gGhost, cell, 2, { class: cls });
      drawVolcano(gTiles, pos.volcano);

      for (const t of pos.tiles) {
        const colours = view.colours.get(key(t.q, t.r)) || [];
        const spaces = Array.from({ length: t.spaces || 1 }, (_, i) => (i < t.pawns
          ? { color: colours[i], cls: colours[i] === null || colours[i] === undefined ? "pawn uncoloured" : "pawn" }
          : {}));
        const g = drawTile(gTiles, t, spaces, { attrs: { "data-q": t.q, "data-r": t.r, "data-focus": `tile:${t.q},${t.r}` } });
        const held = colours.filter((c) => c !== null).map(colorName);
        svg("title", {}, g).textContent = `tile ${cellText([t.q, t.r])}: n ${t.n}, ${t.pawns}/${t.spaces || 1} pawns` +
          (held.length ? ` (${held.join(", ")})` : "");
        if (interactive) activatable(g, () => selectTile(t.q, t.r));
        else g.style.cursor = "default";
      }

      // Overlays: the hinted flight or the line's next, the selected tile and its arrows.
      const flight = (interactive && state.hinted) || view.next;
      if (flight) drawFlight(gOver, flight, occupied);
      if (interactive && state.selected) {
        hexAt(gOver, state.selected, 2, { class: "hex-selected" });
        for (let d = 0; d < 6; d++) {
          const f = { color: state.color, tile: state.selected, dir: d };
          if (state.legal.has(flightKey(f))) drawArrow(gOver, f, true);
        }
      }
    });
  }

  function drawVolcano(parent, { q, r }) {
    const [cx, cy] = center(q, r);
    const g = svg("g", {}, parent);
    hexAt(g, [q, r], 0.5, { class: "volcano-hex", fill: "#7c2d12" });
    svg("polygon", { points: `${cx - 15},${cy + 12} ${cx - 5},${cy - 8} ${cx + 5},${cy - 8} ${cx + 15},${cy + 12}`,
      fill: "#3b1306" }, g);
    svg("polygon", {
      points: `${cx - 5},${cy - 8} ${cx - 2},${cy - 16} ${cx + 1},${cy - 10} ${cx + 4},${cy - 17} ${cx + 5},${cy - 8}`,
      fill: "#f97316",
    }, g);
    svg("title", {}, g).textContent = `volcano ${cellText([q, r])}`;
  }

  // The path t, t+d, ... while cells hold tiles, and the take-off arrow.
  function drawFlight(parent, f, occupied) {
    const [dq, dr] = DIRS[f.dir];
    let [q, r] = f.tile;
    for (let i = 0; i < 200 && occupied(q, r); i++) {
      hexAt(parent, [q, r], 3, { class: "hex-path", stroke: colorOf(f.color) });
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
    svg("path", { d: "M-8,-3 L1,-3 L1,-8 L10,0 L1,8 L1,3 L-8,3 Z", fill: color, transform: `rotate(${angle.toFixed(1)})` }, g);
    if (!clickable) return;
    g.dataset.dir = String(f.dir);
    g.dataset.focus = `arrow:${f.dir}`;
    g.setAttribute("aria-label", `Fly ${flightText(f)}`);
    svg("title", {}, g).textContent = `Fly ${flightText(f)}`;
    activatable(g, () => playFlight(f, ui.undo));
  }

  // ------------------------------------------------------------ panels

  function renderStatus() {
    const { position, check } = shown();
    if (!position || !check) {
      ui.status.textContent = position ? "Checking…" : "No position loaded.";
      return;
    }
    const text =
      check.status === "win" ? "Every forest tile is gone: won."
      : check.status === "loss" ? "No winning continuation: the game is lost."
      : `${plural(position.tiles.length, "forest tile")} · ` +
        (check.plan_pawns < 0 ? "no removal plan clears the board · "
          : `at least ${Math.max(check.pawns_needed, check.plan_pawns)} pawns needed · `) +
        `${check.supply_total} in supply · ${plural(check.moves.length, "distinct flight")}`;
    setStatus(ui.status, { status: check.status, text: [text], stepping: !!state.preview });
  }

  function renderSupply() {
    supplyChips(ui.supply, shown().position?.supply || [], state.color, (c) => `Fly ${colorName(c)}`, (c) => {
      state.color = c;
      renderSupply();
      drawBoard();
    });
  }

  function renderLastMove() {
    const box = ui.lastMove;
    box.replaceChildren();
    const step = state.lastStep;
    if (!step) {
      box.textContent = state.moveNo === 0
        ? "Play a flight: choose a colour, click a forest tile (or focus it and press Enter), then one of its arrows."
        : "";
      return;
    }
    box.append(`Move ${state.moveNo}: `, flightNode(step.flight),
      ` — dropped ${step.dropped} · extinguished ${cellsText(step.extinguished)} · ` +
      `isolated ${cellsText(step.isolated)} → `, badge(step.status));
  }

  function renderButtons() {
    ui.undo.disabled = state.history.length === 0;
    ui.restart.disabled = !state.initial || state.history.length === 0;
  }

  function render() {
    renderStatus();
    renderSupply();
    renderLastMove();
    drawBoard();
    renderButtons();
  }

  // -------------------------------------------------------------- game

  async function setPosition(position, lastStep, { resetGame = false, keepSolve = false, colours = null, check = null } = {}) {
    state.position = position;
    state.colours = colours || loadedColours(position);
    state.lastStep = lastStep;
    state.selected = null;
    state.preview = null;
    state.check = check;
    if (resetGame) {
      state.initial = position;
      state.history = [];
      state.moveNo = 0;
    }
    clearHint();
    if (!keepSolve) clearSolve();
    editor.show(position);
    render();
    if (!check) {
      check = await api("/v1/volcano/check", { position });
      if (state.position !== position) return; // another position came meanwhile
      state.check = check;
    }
    state.legal = new Set();
    for (const choice of check.moves) {
      state.legal.add(flightKey(choice.flight));
      for (const f of choice.equivalent) state.legal.add(flightKey(f));
    }
    if (position.supply[state.color] === 0) {
      const other = position.supply.findIndex((n) => n > 0);
      if (other >= 0) state.color = other;
    }
    render();
  }

  // The game as it is, for Undo.
  const snapshot = () => ({ position: state.position, colours: state.colours, check: state.check,
    lastStep: state.lastStep, moveNo: state.moveNo });

  function selectTile(q, r) {
    if (work.busy || !state.check) return;
    state.selected = [q, r];
    let any = false;
    for (let d = 0; d < 6; d++) {
      if (state.legal.has(flightKey({ color: state.color, tile: [q, r], dir: d }))) any = true;
    }
    const fromKeys = board.contains(document.activeElement);
    render();
    // A keyboard player goes on with the tile's arrows.
    if (fromKeys) board.querySelector(".arrow")?.focus();
    if (!any) {
      ui.lastMove.textContent = state.position.supply[state.color] === 0
        ? `No ${colorName(state.color)} pawns left: pick another colour.`
        : `No legal ${colorName(state.color)} flight enters ${cellText([q, r])} (the plane needs an empty cell ` +
          "behind it, a path without the volcano, and a free space on the path).";
    }
  }

  function playFlight(flight, button) {
    if (work.busy || !state.position) return;
    return work.run(button, null, async () => {
      const before = snapshot();
      const result = await api("/v1/volcano/replay", { position: state.position, line: [flight] });
      if (result.error) throw new ApiError(`Illegal flight: ${result.error}`);
      state.history.push(before);
      state.moveNo += 1;
      await setPosition(result.position, result.steps[0], { colours: pawnColours(state.colours, result.position, flight.color) });
      showOutcome(result.status, { win: "Won: every forest tile is extinguished or isolated with pawns.",
        loss: "Lost: no legal flight can finish the forest." });
    });
  }

  function undo() {
    const prev = state.history.pop();
    if (!prev) return;
    state.moveNo = prev.moveNo;
    work.run(ui.undo, null, () => setPosition(prev.position, prev.lastStep, { colours: prev.colours, check: prev.check }));
  }

  function restart() {
    if (!state.initial) return;
    work.run(ui.restart, null, () => setPosition(state.initial, null, { resetGame: true }));
  }

  // ------------------------------------------------------------ layout

  function generate() {
    const seed = Number(ui.seed.value);
    if (!Number.isInteger(seed) || seed < 0) {
      showMessage("Seed must be a whole number ≥ 0.");
      return;
    }
    const solvable = ui.solvable.checked;
    const rate = ui.rate.checked;
    work.search(ui.generate, "Generating…", ui.generateProgress, async (request) => {
      const result = await api("/v1/volcano/generate", { seed, solvable, rate }, request);
      let info = `layout seed ${result.layout_seed}, ${plural(result.attempts, "attempt")}`;
      if (result.verdict) info += `, verdict ${result.verdict}`;
      const counters = html("div");
      counters.append(...searchSummary(result));
      ui.layoutInfo.replaceChildren(html("div", {}, info), ...(rate ? [html("div", {}, difficultyText(result.difficulty))] : []),
        counters);
      if (solvable && result.verdict !== "win") {
        showMessage("No layout was proved solvable within the server's limits; showing the last one tried.", "info");
      }
      await setPosition(result.position, null, { resetGame: true });
    });
  }

  function load() {
    work.run(ui.load, "Loading…", async () => {
      // An empty replay validates the position and fills in defaults (spaces).
      const result = await api("/v1/volcano/replay", { position: editor.read(), line: [] });
      ui.layoutInfo.textContent = "loaded from JSON";
      await setPosition(result.position, null, { resetGame: true });
    });
  }

  // -------------------------------------------------------------- hint

  function clearHint() {
    state.hinted = null;
    ui.hintList.replaceChildren();
    ui.hintInfo.replaceChildren();
  }

  function showHinted(move) {
    state.hinted = move ? move.flight : null;
    drawBoard();
  }

  function hint() {
    cardSearch(ui, work, "hint", { current: () => state.position, path: "/v1/volcano/hint", answer: showHintResult });
  }

  function showHintResult(result) {
    clearHint();
    ui.hintInfo.replaceChildren(...searchSummary(result, plural(result.moves.length, "flight")));
    if (!result.moves.length) {
      ui.hintList.append(html("li", { class: "muted static" }, "No legal flight."));
      return;
    }
    hintRows(ui.hintList, result.moves, {
      row(m, playButton) {
        const li = html("li");
        li.append(badge(m.value), flightNode(m.flight));
        if (m.equivalent.length) {
          li.append(html("span", { class: "eq small muted", title: "Other flights with the same result" },
            `+${m.equivalent.length} equiv.`));
        }
        li.append(playButton);
        return li;
      },
      show: showHinted,
      play: (m, button) => playFlight(m.flight, button),
    });
  }

  // ------------------------------------------------------------- solve

  function clearSolve() {
    line.clear();
    ui.solveVerdict.replaceChildren();
    ui.solveStats.replaceChildren();
  }

  function solve() {
    cardSearch(ui, work, "solve", { current: () => state.position, path: "/v1/volcano/solve", answer: showSolveResult });
  }

  async function showSolveResult(result) {
    clearSolve();
    ui.solveVerdict.append(badge(result.verdict));
    ui.solveStats.replaceChildren(...searchSummary(result,
      result.line ? `winning line of ${plural(result.line.length, "flight")}` : null));
    if (!result.line) return;
    line.start(result.line);
    await line.goTo(0);
  }

  function adoptPreview(view) {
    work.run(line.adoptButton, null, async () => {
      const rest = line.moves.slice(view.index);
      state.history.push(snapshot());
      state.moveNo += view.index;
      const { position, colours, check, step } = view.entry;
      await setPosition(position, step, { keepSolve: true, colours, check });
      // Keep the rest of the line: it still wins from here.
      if (rest.length) line.start(rest);
      else clearSolve();
    });
  }

  // -------------------------------------------------------------- wire

  ui.generate.addEventListener("click", generate);
  ui.load.addEventListener("click", load);
  ui.hint.addEventListener("click", hint);
  ui.solve.addEventListener("click", solve);
  ui.undo.addEventListener("click", undo);
  ui.restart.addEventListener("click", restart);
  ui.seed.addEventListener("keydown", (e) => { if (e.key === "Enter") generate(); });

  render();
  generate();
}
