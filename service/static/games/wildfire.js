// Wild Fire!: the growing forest on a hex board; check, play, hint and
// solve through /v1/wildfire/*.
// mount(root, game) is the interface main.js loads a game's view by.
import { ApiError, api } from "../lib/api.js";
import {
  BOARD_SLOTS, cardSearch, cellKey, fillSlots, hintCard, jsonCard, jsonEditor, layout, legend, solveCard, spaceKey, supplyBox,
  underBoard,
} from "../lib/cards.js";
import { activatable, addStyles, badge, fromTemplate, html, refs, svg } from "../lib/dom.js";
import { cellText, percent, plural } from "../lib/format.js";
import {
  DIRS, SIZE, TILE_FILLS, center, colorName, colorOf, corner, createBoard, dot, drawTile, emptyBoard, fitBoard, hexAt, key,
  redraw, supplyChips,
} from "../lib/hexboard.js";
import { hintRows } from "../lib/hints.js";
import { numberField, numberFrom } from "../lib/limits.js";
import { showOutcome } from "../lib/message.js";
import { checkHistory, randomIndex } from "../lib/play.js";
import { solutionLine } from "../lib/solution.js";
import { searchSummary } from "../lib/stats.js";
import { setStatus } from "../lib/status.js";
import { worker } from "../lib/work.js";

// Example positions for the Position card. Strict JSON between the
// brackets: tests/test_service.py reads it (and checks every example).
const EXAMPLES = [
  {
    "name": "Small deal (known order)",
    "note": "16 tiles, 10 pawns in four colours: solved in a moment",
    "position": {
      "deal": [
        {"n": 2}, {"n": 5}, {"n": 1}, {"n": 1}, {"n": 1}, {"n": 1}, {"n": 6}, {"n": 3}, {"n": 2},
        {"n": 2}, {"n": 3}, {"n": 3}, {"n": 2}, {"n": 4}, {"n": 4}, {"n": 1}
      ],
      "level": 1,
      "supply": [3, 3, 2, 2]
    }
  },
  {
    "name": "Mid-game (known order)",
    "note": "the small deal after 5 turns of a winning line",
    "position": {
      "tiles": [
        {"q": 0, "r": 0, "n": 2, "spaces": 1, "pawns": [0, 0, 0, 0]},
        {"q": 0, "r": 1, "n": 1, "spaces": 1, "pawns": [0, 1, 0, 0]},
        {"q": 1, "r": -1, "n": 1, "spaces": 1, "pawns": [1, 0, 0, 0]},
        {"q": 1, "r": 0, "n": 5, "spaces": 3, "pawns": [2, 0, 0, 0]},
        {"q": 2, "r": -1, "n": 1, "spaces": 1, "pawns": [0, 0, 1, 0]},
        {"q": 2, "r": 0, "n": 1, "spaces": 1, "pawns": [0, 0, 1, 0]}
      ],
      "turn": 5,
      "deal_rest": [
        {"n": 6, "spaces": 3}, {"n": 3, "spaces": 2}, {"n": 2, "spaces": 1},
        {"n": 2, "spaces": 1}, {"n": 3, "spaces": 2}, {"n": 3, "spaces": 2},
        {"n": 2, "spaces": 1}, {"n": 4, "spaces": 2}, {"n": 4, "spaces": 2},
        {"n": 1, "spaces": 1}
      ],
      "supply": [0, 2, 0, 2],
      "level": 1
    }
  },
  {
    "name": "Mid-game (hidden order, tile drawn)",
    "note": "the same table; the next tile comes from the unseen pool: ask for a hint",
    "position": {
      "tiles": [
        {"q": 0, "r": 0, "n": 2, "spaces": 1, "pawns": [0, 0, 0, 0]},
        {"q": 0, "r": 1, "n": 1, "spaces": 1, "pawns": [0, 1, 0, 0]},
        {"q": 1, "r": -1, "n": 1, "spaces": 1, "pawns": [1, 0, 0, 0]},
        {"q": 1, "r": 0, "n": 5, "spaces": 3, "pawns": [2, 0, 0, 0]},
        {"q": 2, "r": -1, "n": 1, "spaces": 1, "pawns": [0, 0, 1, 0]},
        {"q": 2, "r": 0, "n": 1, "spaces": 1, "pawns": [0, 0, 1, 0]}
      ],
      "turn": 5,
      "pool": [
        {"n": 1}, {"n": 1}, {"n": 1}, {"n": 2}, {"n": 2}, {"n": 2}, {"n": 2}, {"n": 2}, {"n": 2},
        {"n": 3}, {"n": 3}, {"n": 3}, {"n": 3}, {"n": 3}, {"n": 3}, {"n": 3}, {"n": 3}, {"n": 4},
        {"n": 4}, {"n": 4}, {"n": 4}, {"n": 4}, {"n": 4}, {"n": 4}, {"n": 5}, {"n": 5}, {"n": 5},
        {"n": 5}, {"n": 5}, {"n": 5}, {"n": 6}, {"n": 6}, {"n": 6}, {"n": 6}, {"n": 6}, {"n": 6},
        {"n": 6}
      ],
      "turns_left": 10,
      "supply": [0, 2, 0, 2],
      "level": 1,
      "drawn": {"n": 6}
    }
  },
  {
    "name": "Full deal (known order)",
    "note": "the real game: 36 tiles, 48 pawns in four colours",
    "position": {
      "deal": [
        {"n": 4}, {"n": 1}, {"n": 2}, {"n": 1}, {"n": 6}, {"n": 4}, {"n": 1}, {"n": 2}, {"n": 3},
        {"n": 5}, {"n": 5}, {"n": 3}, {"n": 6}, {"n": 3}, {"n": 3}, {"n": 4}, {"n": 2}, {"n": 1},
        {"n": 3}, {"n": 6}, {"n": 6}, {"n": 3}, {"n": 4}, {"n": 5}, {"n": 5}, {"n": 3}, {"n": 5},
        {"n": 2}, {"n": 4}, {"n": 6}, {"n": 1}, {"n": 6}, {"n": 1}, {"n": 2}, {"n": 4}, {"n": 5}
      ],
      "level": 1,
      "supply": [12, 12, 12, 12]
    }
  }
];

addStyles(`
.edge-open { stroke: #f97316; stroke-width: 3.5; stroke-linecap: round; pointer-events: none; }
.hex-hot { fill: rgba(250,204,21,0.30); stroke: #ca8a04; stroke-width: 2; stroke-dasharray: 6 3; cursor: pointer; }
.hex-hot:hover { fill: rgba(250,204,21,0.55); }
.legend-edge { stroke: #f97316; stroke-width: 3.5; stroke-linecap: round; }
.legend-hot { fill: rgba(250,204,21,0.30); stroke: #ca8a04; stroke-width: 1.5; stroke-dasharray: 3 2; }
.heat { font: 8px system-ui, sans-serif; fill: #9a9184; text-anchor: middle; pointer-events: none; }
.heat.hot { font-weight: 600; fill: #854d0e; }
.hex-tile.ghost { opacity: 0.7; stroke: #facc15; stroke-width: 2.5; stroke-dasharray: 5 3; }
.space.pawn.adding { opacity: 0.75; stroke: #1e293b; stroke-dasharray: 2 1.5; }
.space.closed { fill: none; stroke: #e2e8f0; stroke-dasharray: 2 2; opacity: 0.8; }
.legend .space.closed { stroke: #64748b; }

.action-box {
  display: flex; align-items: center; flex-wrap: wrap; gap: 6px; margin-top: 8px; padding: 6px 10px; min-height: 42px;
  border: 1px solid #f5d08a; background: #fff7e6; border-radius: 8px;
}
.action-box[hidden] { display: none; }
.count-button { min-width: 2.2em; font-weight: 600; padding: 2px 8px; }

.tiles { display: flex; flex-wrap: wrap; gap: 3px; align-items: center; }
.tile-chip {
  display: inline-flex; flex-direction: column; align-items: center; justify-content: center; min-width: 24px; height: 30px;
  padding: 0 3px; border-radius: 4px; color: #fff; line-height: 1; vertical-align: middle;
}
.tile-chip b { font-size: 14px; }
.tile-chip i { font-style: normal; font-size: 9px; letter-spacing: 1px; }
.tile-chip.next { box-shadow: 0 0 0 2px #facc15; }
.tile-chip.small { height: 24px; min-width: 20px; }
.tiles .times { color: var(--muted); margin-right: 6px; }
.pool-label { margin-left: 10px; }
.hint-table .share { font-weight: 600; }
`);

const TEMPLATE = layout(`
    ${BOARD_SLOTS}
    <div class="action-box" data-ref="action"></div>
    ${underBoard(supplyBox("the colour for the pawn action"),
      `<button type="button" data-ref="draw" disabled title="Draw the next tile at random from the unseen pool">Draw</button>`)}
    <div class="section">
      <h3 data-ref="nextTitle">Next tiles</h3>
      <div class="tiles" data-ref="next"></div>
    </div>
    <div class="last-move muted" data-ref="last"></div>
    ${legend(
      `<span><svg width="18" height="14"><line x1="2" y1="7" x2="16" y2="7" class="legend-edge"/></svg> free edge</span>`,
      spaceKey("space", "space"),
      spaceKey("space closed", "space without a free edge"),
      cellKey("legend-hot", "hottest cell (the tile must go on one)"))}`,
  jsonCard("Position", `
      <div class="row">
        <select data-ref="example" aria-label="Example position"></select>
        <button type="button" data-ref="exampleLoad" class="secondary">Load example</button>
      </div>
      <div class="small muted" data-ref="exampleNote"></div>`,
  { rows: 10, action: { ref: "check", label: "Check", title: "Validate the JSON and play from it" } }),
  hintCard({
    seconds: 5,
    fields: numberField("hintSamples", "Samples", { value: 200, min: 1, step: 50, title: "Hidden order: deals sampled from the pool" }) +
      " " + numberField("hintSeed", "Seed", { value: 0 }),
    rows: `
      <div class="table-wrap">
        <table class="hint-table" data-ref="hintTable" hidden>
          <thead><tr><th>#</th><th>move</th><th title="Share of the sampled deals won after this move">wins</th><th title="95% confidence interval of the win probability (undecided deals widen it)">95% interval</th><th title="Deals won / lost / undecided at the node cap">W/L/?</th><th></th></tr></thead>
          <tbody data-ref="hintRows"></tbody>
        </table>
      </div>`,
  }),
  solveCard({ seconds: 10, title: "Known order only", line: true }));

const isKnown = (p) => Array.isArray(p.deal_rest);
const sameCell = (a, b) => !!a && !!b && a[0] === b[0] && a[1] === b[1];
const total = (list) => list.reduce((a, b) => a + b, 0);
const share = (x) => percent(x, 1);

// The tile this turn places: the deal's next (known order) or the one drawn.
const nextTile = (p) => (isKnown(p) ? p.deal_rest[0] : p.drawn) || null;

const freeEdges = (q, r, occupied) => DIRS.filter(([dq, dr]) => !occupied.has(key(q + dq, r + dr))).length;

function moveNode(m, { short = false } = {}) {
  const span = html("span", { class: "ftext" });
  span.append(short ? cellText(m.place) : `tile on ${cellText(m.place)}`);
  if (m.pawns) {
    span.append(" · ", dot(m.pawns.color), ` ${m.pawns.count} ${colorName(m.pawns.color)} on ${cellText(m.pawns.tile)}`);
  } else {
    span.append(html("span", { class: "muted" }, " · no pawns"));
  }
  return span;
}

// A tile off the board: its number on its colour, a dot per space.
function tileChip(t, extra = "") {
  const chip = html("span", { class: `tile-chip${extra ? " " + extra : ""}`, title: `${t.n}, ${plural(t.spaces, "space")}` });
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

export function mount(root, game) {
  root.append(fromTemplate(TEMPLATE));
  const ui = refs(root);
  const { wrap, board } = createBoard(`${game.title} board`);

  const state = {
    check: null,      // CheckResult of the current position (its position in the mid-game form)
    initial: null,    // the CheckResult the game started from (Restart)
    history: [],      // [{check, last}] for Undo
    last: null,       // {move, tile, turn}: what led here
    place: null,      // [q, r]: the hottest cell chosen for the next tile
    target: null,     // [q, r]: the tile chosen for pawns
    color: 0,
    hinted: null,     // the move of the hint row hovered or selected
    solved: null,     // {base, steps}: the positions along the winning line (one replay)
    preview: null,    // {index, entry, next} while stepping through the line
  };
  const work = worker(() => renderButtons());
  const record = checkHistory(state, setPosition); // new games, Undo and Restart
  const line = solutionLine(root, {
    noun: "turn",
    moveNode,
    async load(index) {
      if (index === 0) return { position: state.solved.base, check: state.check };
      const position = state.solved.steps[index - 1].position;
      return { position, check: await api("/v1/wildfire/check", { position }) };
    },
    show(view) {
      state.preview = view;
      render();
    },
    adopt: adoptPreview,
  });
  fillSlots(ui, wrap, line);

  const current = () => state.check && state.check.position;
  const editor = jsonEditor(ui, { format: formatPosition, current });
  // The position on show: the game's, or the line's being stepped through.
  const shownPosition = () => (state.preview ? state.preview.entry.position : current());

  // ------------------------------------------------------------- board

  function drawBoard() {
    redraw(board, () => {
      const p = shownPosition();
      if (!p) {
        emptyBoard(board, "Load a position.");
        return;
      }
      const interactive = !state.preview;
      const tiles = new Map(p.tiles.map((t) => [key(t.q, t.r), t]));

      // The move drawn over the board: the line's next, the hint's, or the one being built.
      let shown = state.preview ? state.preview.next : state.hinted;
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
        const g = svg("g", { "data-focus": `cell:${k}` }, gCells);
        hexAt(g, [q, r], 1, { class: hot ? "hex-hot" : "hex-frame" });
        svg("text", { x: cx, y: cy + 4, class: hot ? "heat hot" : "heat" }, g).textContent = `heat ${heat([q, r])}`;
        svg("title", {}, g).textContent = `${cellText([q, r])}: heat ${heat([q, r])}` +
          (hot ? (drawn ? " — hottest: click to put the tile here" : " — hottest") : "");
        if (hot && drawn && state.check.moves.length) {
          g.classList.add("hot-cell");
          activatable(g, () => choosePlace([q, r]));
        }
      });

      for (const t of p.tiles) drawForestTile(gTiles, t, occupied, interactive, shown);
      if (ghost) drawForestTile(gTiles, ghost, occupied, interactive, shown, true);

      if (interactive && state.target) hexAt(gOver, state.target, 2, { class: "hex-selected" });
      if (shown && shown.pawns) hexAt(gOver, shown.pawns.tile, 2, { class: "hex-path", stroke: colorOf(shown.pawns.color) });
    });
  }

  // A tile: its number, free edges, and a circle per space (pawns by
  // colour; a dashed circle is a space with no free edge left to take a pawn).
  function drawForestTile(parent, t, occupied, interactive, shown, ghost = false) {
    const free = freeEdges(t.q, t.r, occupied);
    const pawns = t.pawns.flatMap((n, c) => Array(n).fill(c));
    const adding = shown && shown.pawns && sameCell(shown.pawns.tile, [t.q, t.r]) ? shown.pawns : null;
    const room = Math.max(pawns.length, Math.min(t.spaces, free));
    const spaces = Array.from({ length: t.spaces }, (_, i) => (
      i < pawns.length ? { color: pawns[i], cls: "pawn" }
      : adding && i < pawns.length + adding.count ? { color: adding.color, cls: "pawn adding" }
      : i >= room ? { cls: "closed" } : {}));
    const g = drawTile(parent, t, spaces, { cls: ghost ? "hex-tile ghost" : "hex-tile",
      attrs: { "data-focus": `tile:${t.q},${t.r}` } });
    const [cx, cy] = center(t.q, t.r);
    DIRS.forEach(([dq, dr], d) => {
      if (occupied.has(key(t.q + dq, t.r + dr))) return;
      const [x1, y1] = corner(cx, cy, SIZE - 3, (6 - d) % 6);
      const [x2, y2] = corner(cx, cy, SIZE - 3, (7 - d) % 6);
      svg("line", { x1, y1, x2, y2, class: "edge-open" }, g);
    });
    const held = t.pawns.map((n, c) => (n ? `${n} ${colorName(c)}` : "")).filter(Boolean);
    svg("title", {}, g).textContent = `${ghost ? "the drawn tile, if placed here: " : ""}tile ${cellText([t.q, t.r])}: ` +
      `${t.n}, ${plural(t.spaces, "space")}, ${plural(free, "free edge")}` + (held.length ? `; pawns: ${held.join(", ")}` : "");
    if (interactive && state.place) activatable(g, () => chooseTarget([t.q, t.r]));
    else g.style.cursor = "default";
  }

  // ------------------------------------------------------------ panels

  function renderStatus() {
    const c = state.preview ? state.preview.entry.check : state.check;
    if (!c) {
      ui.status.textContent = "No position loaded.";
      return;
    }
    const p = c.position;
    const stepping = !!state.preview;
    if (c.status === "win") {
      setStatus(ui.status, { status: c.status, stepping,
        text: ["Won: every pawn is on the table, and each colour's tiles form one group with a 1-tile on its edge."] });
    } else if (c.status === "loss") {
      setStatus(ui.status, { status: c.status, stepping, text: ["Lost: the last tile is down and the goal is not met."] });
    } else {
      setStatus(ui.status, { status: c.status, stepping, text: [`Turn ${c.turn + 1} of ${c.turn + c.turns_left}`],
        extra: ` · level ${p.level}${c.pawns_allowed ? "" : " (no pawns this turn)"} · ` +
          `${plural(c.hottest.length, "hottest cell")} · ` +
          (nextTile(p) ? `${plural(c.moves.length, "legal move")} · ` : "") +
          `${total(p.supply)} pawns to place · ${isKnown(p) ? "known order" : "hidden order"}` });
    }
  }

  // What to do next, and the buttons that finish the move being built.
  function renderAction() {
    const box = ui.action;
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
    const playNone = html("button", { type: "button" }, "Play, no pawns");
    playNone.addEventListener("click", () => play({ place: state.place, pawns: null }));
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
    const p = shownPosition();
    supplyChips(ui.supply, p ? p.supply : [], state.color, (c) => `Pawns of ${colorName(c)}`, (c) => {
      state.color = c;
      render();
    });
  }

  function renderNext() {
    const box = ui.next;
    box.replaceChildren();
    const p = shownPosition();
    if (!p) return;
    if (isKnown(p)) {
      ui.nextTitle.textContent = `Next tiles (known order, ${p.deal_rest.length} to come)`;
      p.deal_rest.forEach((t, i) => box.append(tileChip(t, i === 0 ? "next" : "")));
      if (!p.deal_rest.length) box.append(html("span", { class: "muted small" }, "none"));
      return;
    }
    ui.nextTitle.textContent = `Hidden order: ${plural(p.turns_left, "turn")} left, drawn from the pool`;
    box.append(html("span", { class: "small" }, "drawn "),
      p.drawn ? tileChip(p.drawn, "next") : html("span", { class: "muted small" }, "none yet"),
      html("span", { class: "small pool-label" }, ` pool of ${p.pool.length}: `));
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
    const box = ui.last;
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
    ui.draw.disabled = !idle || !ongoing || isKnown(p) || !!p.drawn;
    ui.undo.disabled = !idle || state.history.length === 0;
    ui.restart.disabled = !idle || !state.initial || state.history.length === 0;
    ui.hint.disabled = !idle || !ongoing || !nextTile(p);
    ui.solve.disabled = !idle || !c || !isKnown(p);
    for (const b of [ui.check, ui.exampleLoad, line.adoptButton]) b.disabled = !idle;
  }

  function render() {
    renderStatus();
    renderAction();
    renderSupply();
    renderNext();
    renderLast();
    drawBoard();
    renderButtons();
  }

  // -------------------------------------------------------------- game

  function setPosition(check, last) {
    state.check = check;
    state.last = last;
    state.place = check.hottest.length === 1 && check.moves.length ? check.hottest[0] : null;
    state.target = null;
    state.preview = null;
    const supply = check.position.supply;
    if (!(supply[state.color] > 0)) state.color = Math.max(0, supply.findIndex((n) => n > 0));
    clearHint();
    clearSolve();
    editor.show(check.position);
    render();
    showOutcome(check.status, { win: "Won: every pawn placed, each colour in one group with a 1-tile on its edge.",
      loss: "Lost: the forest is complete and the goal is not met." });
  }

  function choosePlace(cell) {
    if (work.busy) return;
    const fromKeys = board.contains(document.activeElement);
    state.place = cell;
    state.target = null;
    state.hinted = null; // the move being built is what the board shows now
    render();
    // A keyboard player goes on in the action bar.
    if (fromKeys) ui.action.querySelector("button")?.focus();
  }

  function chooseTarget(cell) {
    if (work.busy || !state.place) return;
    state.target = sameCell(state.target, cell) ? null : cell;
    state.hinted = null;
    render();
  }

  function play(move) {
    if (work.busy || !state.check) return;
    return work.run(ui.undo, null, async () => {
      const before = current();
      const result = await api("/v1/wildfire/replay", { position: before, line: [move] });
      if (result.error) throw new ApiError(`Illegal move: ${result.error}`);
      const check = await api("/v1/wildfire/check", { position: result.position });
      record.advance(check, { move, tile: nextTile(before), turn: before.turn + 1 });
    });
  }

  function draw() {
    const p = current();
    if (!p || isKnown(p) || p.drawn || !p.pool.length) return;
    work.run(ui.draw, "Drawing…", async () => {
      // Uniform over the tiles in the pool (the unseen tiles).
      const check = await api("/v1/wildfire/check", { position: { ...p, drawn: p.pool[randomIndex(p.pool.length)] } });
      record.advance(check, state.last);
    });
  }

  // ``position()``: what to check (it may throw, as the JSON box does).
  function loadPosition(position, button) {
    return work.run(button, "Checking…", async () => {
      const check = await api("/v1/wildfire/check", { position: position() });
      record.start(check);
    });
  }

  function showExampleNote() {
    ui.exampleNote.textContent = EXAMPLES[Number(ui.example.value)]?.note ?? "";
  }

  function loadExample() {
    const e = EXAMPLES[Number(ui.example.value)];
    if (e) loadPosition(() => e.position, ui.exampleLoad);
  }


  // -------------------------------------------------------------- hint

  function clearHint() {
    state.hinted = null;
    ui.hintRows.replaceChildren();
    ui.hintTable.hidden = true;
    ui.hintInfo.replaceChildren();
  }

  function hint() {
    cardSearch(ui, work, "hint", {
      current,
      path: "/v1/wildfire/hint",
      extra: { samples: Math.round(numberFrom(ui.hintSamples, 200, 1)), seed: Math.round(numberFrom(ui.hintSeed, 0, 0)) },
      answer: showHintResult,
    });
  }

  function showHintResult(result) {
    clearHint();
    ui.hintInfo.append(result.exact
      ? "Exact: one possible deal, so each move's verdict. "
      : `${result.samples} of ${plural(result.samples_requested, "sampled deal")} (seed ${result.seed}). `,
    ...searchSummary(result));
    const cell = (text, cls) => html("td", { class: cls }, text);
    hintRows(ui.hintRows, result.moves, {
      row(c, playButton, i) {
        const [lo, hi] = c.ci95;
        const moveCell = html("td");
        moveCell.append(moveNode(c.move, { short: true }));
        const playCell = html("td");
        playCell.append(playButton);
        const tr = html("tr");
        tr.append(cell(String(i + 1), "num"), moveCell, cell(share(c.value), "share"),
          cell(`${share(lo)}–${share(hi)}`, "small nowrap"), cell(`${c.wins}/${c.losses}/${c.unknown}`, "small muted nowrap"),
          playCell);
        return tr;
      },
      show(c) {
        state.hinted = c ? c.move : null;
        drawBoard();
      },
      play: (c) => play(c.move),
    });
    ui.hintTable.hidden = false;
  }

  // ------------------------------------------------------------- solve

  function clearSolve() {
    state.solved = null;
    line.clear();
    ui.solveVerdict.replaceChildren();
    ui.solveStats.replaceChildren();
  }

  function solve() {
    cardSearch(ui, work, "solve", { current, path: "/v1/wildfire/solve", answer: showSolveResult });
  }

  async function showSolveResult(result, { position, signal }) {
    clearSolve();
    ui.solveVerdict.append(badge(result.verdict));
    ui.solveStats.append(...searchSummary(result,
      result.line ? `winning line of ${plural(result.line.length, "turn")}` : null));
    if (!result.line) return;
    // One replay gives every position along the line.
    const replay = await api("/v1/wildfire/replay", { position, line: result.line }, { signal });
    if (replay.error) throw new ApiError(`The winning line does not replay: ${replay.error}`);
    state.solved = { base: position, steps: replay.steps };
    line.start(result.line, { first: position.turn + 1 });
    await line.goTo(0);
  }

  function adoptPreview(view) {
    const { base, steps } = state.solved;
    const before = view.index > 1 ? steps[view.index - 2].position : base;
    const last = view.index
      ? { move: line.moves[view.index - 1], tile: nextTile(before), turn: view.entry.position.turn }
      : state.last;
    record.advance(view.entry.check, last);
  }

  // -------------------------------------------------------------- wire

  EXAMPLES.forEach((e, i) => ui.example.append(html("option", { value: String(i) }, e.name)));
  ui.example.addEventListener("change", showExampleNote);
  ui.exampleLoad.addEventListener("click", loadExample);
  ui.check.addEventListener("click", () => loadPosition(editor.read, ui.check));
  ui.draw.addEventListener("click", draw);
  ui.undo.addEventListener("click", record.undo);
  ui.restart.addEventListener("click", record.restart);
  ui.hint.addEventListener("click", hint);
  ui.solve.addEventListener("click", solve);

  render();
  showExampleNote();
  loadExample();
}
