// On the Run!: the hex forest (tiles with their pawns, the edge areas and
// the pawns saved there, the flashpoints), played by clicking: a flashpoint
// for the drawn tile, then a tile for pawns, an edge area for one pawn, an
// Evacuate button or Pass. Hint and solve through /v1/onrun/*: the hint's
// move is drawn where it is made, the solve's line can be stepped through.
// mount(root, game) is the interface main.js loads a game's view by.
import { ApiError, api } from "../lib/api.js";
import {
  BOARD_SLOTS, cardSearch, cellKey, fillSlots, hintCard, jsonCard, jsonEditor, layout, legend, solveCard, underBoard,
} from "../lib/cards.js";
import { activatable, addStyles, badge, fromTemplate, html, refs, svg } from "../lib/dom.js";
import { cellText, plural } from "../lib/format.js";
import { TILE_FILLS, center, createBoard, emptyBoard, fitBoard, hexAt, key, redraw } from "../lib/hexboard.js";
import { hintRows } from "../lib/hints.js";
import { numberField, numberFrom } from "../lib/limits.js";
import { showOutcome } from "../lib/message.js";
import { checkHistory, randomIndex } from "../lib/play.js";
import { solutionLine } from "../lib/solution.js";
import { searchSummary } from "../lib/stats.js";
import { setStatus } from "../lib/status.js";
import { worker } from "../lib/work.js";

// The spec's colour indices (its turn cycle N, E, S, W), not the house's palette.
const COLOURS = ["#2563eb", "#eab308", "#dc2626", "#16a34a"];
const NAMES = ["blue", "yellow", "red", "green"];

addStyles(`
.onrun-edge { fill: #f8fafc; stroke: #cbd5e1; stroke-width: 1; }
.onrun-edge.flash { fill: #fde68a; stroke: #f59e0b; }
.onrun-target { cursor: pointer; }
.onrun-target .onrun-edge, .onrun-target polygon { stroke: #ea580c; stroke-width: 2.5; }
.onrun-target:hover { filter: brightness(1.06); }
.onrun-chosen { fill: none; stroke: #ea580c; stroke-width: 3.5; pointer-events: none; }
.onrun-hint { fill: none; stroke: #16a34a; stroke-width: 3.5; stroke-dasharray: 6 3; pointer-events: none; }
.onrun-ghost { opacity: 0.55; }
.onrun-pawn { stroke: #fff; stroke-width: 1.2; pointer-events: none; }
.onrun-room { fill: none; stroke: rgba(255,255,255,0.8); stroke-width: 1.2; pointer-events: none; }
.onrun-action { display: flex; flex-wrap: wrap; gap: 0.35rem; align-items: center; margin: 0.4rem 0; }
.onrun-dot { display: inline-block; width: 0.8rem; height: 0.8rem; border-radius: 50%; vertical-align: -0.1rem; }
`);

const SPACES = [1, 1, 2, 2, 3, 3]; // the spec's default spaces by number
const withSpaces = (t) => ({ ...t, spaces: t.spaces ?? SPACES[t.n - 1] });
const isHidden = (p) => Array.isArray(p.pool);
// The tile to place this turn: the deal's next, or the one drawn from the pool.
const nextTile = (p) => (isHidden(p) ? p.drawn : (p.deal_rest || [])[0]) || null;

// A position with the order hidden in the mid-game form the board draws
// (the start tiles placed, the defaults written out), as the spec reads it.
function hiddenForm(p) {
  const tiles = p.start
    ? p.start.map((t, i) => ({ q: i, r: 0, ...withSpaces(t), pawns: [0, 0, 0, 0] }))
    : p.tiles.map((t) => ({ ...withSpaces(t), pawns: Array.isArray(t.pawns) ? t.pawns : [0, 0, 0, 0] }));
  const pool = p.pool.map(withSpaces);
  const drawn = p.drawn ? withSpaces(p.drawn) : null;
  return { tiles, edge: p.edge || [], supply: p.supply || [12, 12, 12, 12], next: p.next || 0, pool,
    turns_left: p.turns_left ?? pool.length + (drawn ? 1 : 0), ...(drawn ? { drawn } : {}) };
}

const dotOf = (colour) => {
  const d = html("span", { class: "onrun-dot" });
  d.style.background = COLOURS[colour];
  return d;
};
const same = (a, b) => !!a && !!b && a[0] === b[0] && a[1] === b[1];
const moveKey = (m) => JSON.stringify([m.place, m.action.kind, m.action.tile || m.action.cell || null,
  m.action.count || 0, m.action.number || 0, m.action.to || []]);

function actionText(a) {
  return a.kind === "pass" ? "pass"
    : a.kind === "tile" ? `${plural(a.count, "pawn")} on ${cellText(a.tile)}`
    : a.kind === "edge" ? `a pawn to the edge at ${cellText(a.cell)}`
    : `evacuate the ${a.number}s` + (a.to.length ? ` to ${a.to.map(cellText).join(" ")}` : ", every pawn back");
}

function moveNode(m) {
  return html("span", {}, `tile to ${cellText(m.place)}, ${actionText(m.action)}`);
}

// A hidden-order hint values a move or a draw by its expected score (a
// fraction) or, past the exact search, by sampled bounds: a policy's mean
// (lower) to the clairvoyant mean (upper).
const sampledText = (s) => `${s.policy.estimate.toFixed(1)}–${s.clairvoyant.estimate.toFixed(1)}`;
const SAMPLED_NOTE = "Sampled values run from a policy's mean score (a lower bound) to the clairvoyant mean (an upper bound). ";
const valueText = (v) => v.expected_score ?? (v.sampled ? sampledText(v.sampled)
  : v.exact ? String(v.best_score) : `${v.score_bounds[0]}–${v.score_bounds[1]}`);
const sampledNote = (items) => (items.some((x) => x.sampled) ? SAMPLED_NOTE : "");

const TEMPLATE = layout(
  `${BOARD_SLOTS}
    <div class="onrun-action small" data-ref="action"></div>
    ${underBoard(legend(cellKey("onrun-edge flash", "flashpoint"), cellKey("onrun-edge", "edge area")),
    `<button type="button" data-ref="draw" disabled title="Order hidden: draw the next tile from the pool">Draw</button>
     <button type="button" data-ref="pass" disabled>Pass</button>`)}`,
  jsonCard("Deal", `<div class="row">
      ${numberField("seed", "Seed", { value: 3 })}
      ${numberField("tiles", "Tiles", { value: 12, min: 2, title: "tiles of the shuffled box (43: a full game)" })}
      ${numberField("pawns", "Pawns", { value: 2, title: "pawns of each colour" })}
      <button type="button" data-ref="deal">Deal</button>
    </div>`),
  hintCard({ seconds: 3 }),
  solveCard({ seconds: 5, line: true }),
);

export function mount(root, game) {
  root.append(fromTemplate(TEMPLATE));
  const ui = refs(root);
  const { wrap, board } = createBoard(`${game.title} forest`);
  const state = {
    check: null,    // the check of the position on show, with that ``position``
    initial: null,
    history: [],
    last: null,
    place: null,    // the flashpoint chosen for the drawn tile
    tile: null,     // the tile chosen for pawns (counts to pick)
    number: null,   // the number chosen to evacuate (outcomes to pick)
    hinted: null,   // the hint row's move on show
    solved: null,   // the position the line starts from
    preview: null,
  };
  const work = worker(() => renderButtons());
  const record = checkHistory(state, setPosition);
  const line = solutionLine(root, {
    noun: "turn",
    moveNode,
    async load(index, _previous, moves) {
      const replayed = await api("/v1/onrun/replay", { position: state.solved, line: moves.slice(0, index) });
      if (replayed.error) throw new ApiError(`The line does not replay: ${replayed.error}`);
      return withPosition(await api("/v1/onrun/check", { position: replayed.position }), replayed.position);
    },
    show(view) {
      state.preview = view;
      render();
    },
    adopt(view) { record.advance(view.entry, null); },
  });
  fillSlots(ui, wrap, line);
  const current = () => state.check && state.check.position;
  const shown = () => (state.preview ? state.preview.entry : state.check);
  const editor = jsonEditor(ui, { format: (p) => JSON.stringify(p, null, 1), current });
  const withPosition = (check, position) => ({ ...check, position });
  const legal = () => (state.check ? state.check.moves.map((c) => c.move) : []);
  const here = () => legal().filter((m) => same(m.place, state.place));

  // ------------------------------------------------------------- board

  function drawBoard() {
    redraw(board, () => {
      const c = shown();
      if (!c) {
        emptyBoard(board, "Deal or load a position.");
        return;
      }
      const p = c.position;
      const interactive = !state.preview && c.status === "ongoing";
      const flash = new Set(c.flashpoints.map(([q, r]) => key(q, r)));
      const moves = interactive ? here() : [];
      const tileTargets = new Set(moves.filter((m) => m.action.kind === "tile").map((m) => key(...m.action.tile)));
      const edgeTargets = new Map(moves.filter((m) => m.action.kind === "edge").map((m) => [key(...m.action.cell), m]));
      const drawn = nextTile(p);
      const ghostAt = state.preview ? state.preview.next?.place : state.place;
      fitBoard(board, [...p.tiles.map((t) => [t.q, t.r]), ...c.edge_areas]);

      const gCells = svg("g", {}, board);
      const gOver = svg("g", {}, board);
      for (const [q, r] of c.edge_areas) {
        if (same(ghostAt, [q, r]) && drawn) continue;
        const k = key(q, r);
        const g = svg("g", { "data-focus": `cell:${k}` }, gCells);
        hexAt(g, [q, r], 1, { class: flash.has(k) ? "onrun-edge flash" : "onrun-edge" });
        const pawn = (p.edge || []).find((e) => e.q === q && e.r === r);
        if (pawn) svg("circle", { cx: center(q, r)[0], cy: center(q, r)[1], r: 9, class: "onrun-pawn", fill: COLOURS[pawn.color] }, g);
        svg("title", {}, g).textContent = `${cellText([q, r])}: ${flash.has(k) ? "flashpoint" : "edge area"}` +
          (pawn ? `, a ${NAMES[pawn.color]} pawn` : "");
        if (interactive && flash.has(k) && !same(state.place, [q, r])) {
          g.classList.add("onrun-target", "place-target");
          activatable(g, () => choosePlace([q, r]));
        } else if (edgeTargets.has(k)) {
          g.classList.add("onrun-target", "edge-target");
          activatable(g, () => play(edgeTargets.get(k)));
        }
      }
      const tiles = [...p.tiles];
      if (ghostAt && drawn) tiles.push({ q: ghostAt[0], r: ghostAt[1], n: drawn.n, spaces: drawn.spaces, pawns: [0, 0, 0, 0], ghost: true });
      for (const t of tiles) drawTile(gCells, t, interactive && tileTargets.has(key(t.q, t.r)));
      if (state.place && !state.preview) hexAt(gOver, state.place, 2, { class: "onrun-chosen" });
      const hinted = state.preview ? state.preview.next : state.hinted;
      if (hinted) {
        const a = hinted.action;
        const marked = [hinted.place, a.tile, a.cell, ...(a.to || [])].filter(Boolean);
        for (const cell of marked) hexAt(gOver, cell, 5, { class: "onrun-hint" });
      }
    });
  }

  function drawTile(parent, t, target) {
    const [cx, cy] = center(t.q, t.r);
    const g = svg("g", { "data-focus": `tile:${t.q},${t.r}`, class: t.ghost ? "onrun-ghost" : "" }, parent);
    hexAt(g, [t.q, t.r], 0.5, { class: "hex-tile", fill: TILE_FILLS[t.n - 1] });
    svg("text", { x: cx, y: cy - 2, class: "tile-num" }, g).textContent = String(t.n);
    const pawns = t.pawns.flatMap((n, colour) => Array(n).fill(colour));
    for (let i = 0; i < t.spaces; i++) {
      const x = cx + (i - (t.spaces - 1) / 2) * 11;
      if (i < pawns.length) svg("circle", { cx: x, cy: cy + 12, r: 4.5, class: "onrun-pawn", fill: COLOURS[pawns[i]] }, g);
      else svg("circle", { cx: x, cy: cy + 12, r: 4, class: "onrun-room" }, g);
    }
    const held = t.pawns.map((n, colour) => (n ? `${n} ${NAMES[colour]}` : "")).filter(Boolean);
    svg("title", {}, g).textContent = `${t.ghost ? "the drawn tile, here: " : ""}tile ${cellText([t.q, t.r])}: ` +
      `${t.n}, ${plural(t.spaces, "space")}` + (held.length ? `; pawns: ${held.join(", ")}` : "");
    if (target) {
      g.classList.add("onrun-target", "tile-target");
      activatable(g, () => chooseTile([t.q, t.r]));
    } else {
      g.style.cursor = "default";
    }
  }

  // ------------------------------------------------------------ panels

  function renderStatus() {
    const c = shown();
    if (!c) {
      ui.status.textContent = "No position loaded.";
      return;
    }
    const stepping = !!state.preview;
    if (c.status !== "ongoing") {
      setStatus(ui.status, { status: c.status, stepping, text: [`Game over: score ${c.score}.`],
        extra: c.status === "win" ? " · every pawn is out of the supply" : " · pawns are left in the supply" });
      return;
    }
    setStatus(ui.status, { status: c.status, stepping, text: [dotOf(c.color), ` ${NAMES[c.color]} to play`],
      extra: ` · ${plural(c.turns_left, "turn")} left · supply ${c.position.supply.join(" / ")} · ` +
        `score at most ${c.upper_score} · ` + (isHidden(c.position)
        ? `order hidden, ${plural(c.position.pool.length, "tile")} in the pool` + (nextTile(c.position) ? "" : ", none drawn")
        : `${plural(c.moves.length, "legal move")}`) });
  }

  // What to do next, and the buttons that finish the move being built.
  function renderAction() {
    const box = ui.action;
    box.replaceChildren();
    const c = state.check;
    if (!c || state.preview || c.status !== "ongoing") return;
    const drawn = nextTile(c.position);
    if (!drawn) {
      box.append(`Order hidden: Draw the next tile from the pool of ${plural(c.position.pool.length, "tile")}.`);
      return;
    }
    box.append(`The drawn tile (${drawn.n}, ${plural(drawn.spaces, "space")}) `);
    if (!state.place) {
      box.append("goes on a flashpoint: click one.");
      return;
    }
    box.append(`goes on ${cellText(state.place)}. `, dotOf(c.color),
      ` ${NAMES[c.color]}: click a tile for pawns, an edge area for one pawn, or `);
    const moves = here();
    for (const number of [...new Set(moves.filter((m) => m.action.kind === "evacuate").map((m) => m.action.number))]) {
      const b = html("button", { type: "button", class: "secondary" }, `Evacuate ${number}s`);
      b.addEventListener("click", () => chooseNumber(number));
      box.append(b);
    }
    if (state.tile) {
      box.append(html("span", {}, ` pawns on ${cellText(state.tile)}: `));
      for (const m of moves.filter((x) => x.action.kind === "tile" && same(x.action.tile, state.tile))) {
        const b = html("button", { type: "button", class: "secondary count-button" }, String(m.action.count));
        b.addEventListener("click", () => play(m));
        box.append(b);
      }
    }
    if (state.number) {
      const outcomes = moves.filter((m) => m.action.kind === "evacuate" && m.action.number === state.number);
      const list = html("ol", { class: "moves" });
      for (const m of outcomes) {
        const li = html("li", { title: "Play this evacuation" }, actionText(m.action));
        list.append(activatable(li, () => play(m)));
      }
      box.append(html("span", {}, ` the ${state.number}s go (${plural(outcomes.length, "outcome")}):`), list);
    }
  }

  function renderButtons() {
    const c = state.check;
    const idle = !work.busy;
    const ongoing = !!c && c.status === "ongoing" && !state.preview;
    ui.pass.disabled = !idle || !ongoing || !state.place;
    ui.draw.disabled = !idle || !ongoing || !isHidden(c.position) || !!c.position.drawn;
    ui.undo.disabled = !idle || state.history.length === 0;
    ui.restart.disabled = !idle || !state.initial || state.history.length === 0;
    ui.hint.disabled = !idle || !ongoing;
    ui.solve.disabled = !idle || !ongoing;
    for (const b of [ui.deal, ui.load, line.adoptButton]) b.disabled = !idle;
  }

  function render() {
    renderStatus();
    renderAction();
    drawBoard();
    renderButtons();
  }

  // -------------------------------------------------------------- game

  function setPosition(check, last) {
    state.check = check;
    state.last = last;
    state.place = check.flashpoints.length === 1 && check.moves.length ? check.flashpoints[0] : null;
    state.tile = null;
    state.number = null;
    state.preview = null;
    clearHint();
    clearSolve();
    editor.show(check.position);
    render();
    showOutcome(check.status, { win: `Won: every pawn is out of the supply; score ${check.score}.`,
      loss: "Lost: the last tile is down with pawns left in the supply." });
  }

  function choosePlace(cell) {
    state.place = cell;
    state.tile = null;
    state.number = null;
    render();
  }

  function chooseTile(cell) {
    const counts = here().filter((m) => m.action.kind === "tile" && same(m.action.tile, cell));
    if (counts.length === 1) return play(counts[0]);
    state.tile = cell;
    state.number = null;
    render();
  }

  function chooseNumber(number) {
    const outcomes = here().filter((m) => m.action.kind === "evacuate" && m.action.number === number);
    if (outcomes.length === 1) return play(outcomes[0]);
    state.number = number;
    state.tile = null;
    render();
  }

  function play(move) {
    if (work.busy || !state.check) return;
    return work.run(ui.undo, null, async () => {
      const before = current();
      // With the order hidden, the drawn tile is this turn's whole deal;
      // after it the pool is as it was, one turn fewer.
      const hidden = isHidden(before);
      const known = hidden ? { tiles: before.tiles, edge: before.edge, supply: before.supply, next: before.next,
        deal_rest: [before.drawn] } : before;
      const replayed = await api("/v1/onrun/replay", { position: known, line: [move] });
      if (replayed.error) throw new ApiError(`Illegal move: ${replayed.error}`);
      const { deal_rest: _rest, ...board } = replayed.position;
      const after = hidden ? { ...board, pool: before.pool, turns_left: before.turns_left - 1 } : replayed.position;
      record.advance(withPosition(await api("/v1/onrun/check", { position: after }), after), move);
    });
  }

  // A position in the mid-game form with every tile's spaces (the
  // server's replay of no moves writes it so; with the order hidden, which
  // replay refuses, hiddenForm), and its check. A position that is neither
  // goes to check as it is, for the server's error.
  async function checked(position) {
    if (isHidden(position) && !position.start && !position.tiles) await api("/v1/onrun/check", { position });
    const p = isHidden(position) ? hiddenForm(position)
      : (await api("/v1/onrun/replay", { position, line: [] })).position;
    return withPosition(await api("/v1/onrun/check", { position: p }), p);
  }

  function draw() {
    const p = current();
    if (work.busy || !p || !isHidden(p) || p.drawn || !p.pool.length) return;
    work.run(ui.draw, "Drawing…", async () => {
      const i = randomIndex(p.pool.length); // uniform over the tiles in the pool
      record.advance(await checked({ ...p, pool: p.pool.filter((_, k) => k !== i), drawn: p.pool[i] }), state.last);
    });
  }

  function loadPosition(position, button) {
    return work.run(button, "Checking…", async () => record.start(await checked(position())));
  }

  // ------------------------------------------------------ hint and solve

  function clearHint() {
    state.hinted = null;
    ui.hintList.replaceChildren();
    ui.hintInfo.replaceChildren();
  }

  function showHintResult(result) {
    clearHint();
    if (result.draws && result.draws.length) {
      // The order hidden, no tile drawn: what each draw is worth.
      ui.hintInfo.append(`Expected score ${result.expected_score ?? "not exact within the limit"}; ` +
        `each possible draw with its chance and value. ${sampledNote(result.draws)}`, ...searchSummary(result));
      ui.hintList.replaceChildren(...result.draws.map((d) => html("li", {},
        `draw a ${d.tile.n} (${plural(d.tile.spaces, "space")}): chance ${d.probability}, value ` +
        (d.expected_score ?? (d.sampled ? sampledText(d.sampled) : "?")))));
      return;
    }
    ui.hintInfo.append(`${plural(result.moves.length, "move")}, each with its ` +
      `${result.mode === "hidden" ? "expected" : "best final"} score. ${sampledNote(result.moves)}`,
    ...searchSummary(result));
    hintRows(ui.hintList, result.moves, {
      row(m, playButton) {
        const li = html("li");
        li.append(html("span", { class: "share" }, valueText(m)), " ", moveNode(m.move), " ", playButton);
        return li;
      },
      show(m) {
        state.hinted = m ? m.move : null;
        drawBoard();
      },
      play: (m) => play(m.move),
    });
  }

  function clearSolve() {
    state.solved = null;
    line.clear();
    ui.solveVerdict.replaceChildren();
    ui.solveStats.replaceChildren();
  }

  async function showSolveResult(result, { position }) {
    clearSolve();
    ui.solveVerdict.append(badge(result.verdict));
    const s = result.sampled;
    const range = (e) => `${e.estimate.toFixed(1)} [${e.interval[0].toFixed(1)}, ${e.interval[1].toFixed(1)}]`;
    ui.solveStats.append(...searchSummary(result, result.mode !== "hidden"
      ? `best score ${valueText(result)}` +
        (result.line ? `, a line of ${plural(result.line.length, "turn")} reaching ${result.score_bounds[0]}` : "")
      : result.expected_score ? `expected score ${result.expected_score} (exact)`
      : s ? `sampled over ${plural(s.samples, "deal")}: a policy scores ${range(s.policy)} (a lower bound), ` +
            `the clairvoyant mean is ${range(s.clairvoyant)} (an upper bound)`
      : "no value within the limit"));
    if (!result.line || !result.line.length) return;
    state.solved = position;
    line.start(result.line, { first: 1 });
    await line.goTo(0);
  }

  // ------------------------------------------------------------ wiring

  ui.draw.addEventListener("click", draw);
  ui.pass.addEventListener("click", () => {
    const pass = here().find((m) => m.action.kind === "pass");
    if (pass) play(pass);
  });
  ui.undo.addEventListener("click", () => record.undo());
  ui.restart.addEventListener("click", () => record.restart());
  ui.hint.addEventListener("click", () => cardSearch(ui, work, "hint", { current, path: "/v1/onrun/hint", answer: showHintResult }));
  ui.solve.addEventListener("click", () => cardSearch(ui, work, "solve", { current, path: "/v1/onrun/solve", answer: showSolveResult }));
  ui.load.addEventListener("click", () => loadPosition(() => editor.read(), ui.load));
  ui.deal.addEventListener("click", () => work.run(ui.deal, "Dealing…", async () => {
    const made = await api("/v1/onrun/generate", {
      seed: Math.round(numberFrom(ui.seed, 3, 0)), tiles: Math.round(numberFrom(ui.tiles, 12, 2)),
      pawns: Math.round(numberFrom(ui.pawns, 2, 0)),
    });
    record.start(await checked(made.position));
  }));
  render();
  ui.deal.click();
}
