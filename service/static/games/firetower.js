// Fire Tower: Rising Flames, solo: the 16x16 board, the cards and the
// decisions of a game record; new games, moves, undo, hints, save and load
// through /v1/firetower/*. The page's game is always a record
// ({start, events}): sub-decisions inside a card cannot be written as a
// position. mount(root, game) is the interface main.js loads a game's view by.
import { ApiError, api } from "../lib/api.js";
import { cardSearch, hintCard, jsonCard, jsonEditor, layout, legend, underBoard } from "../lib/cards.js";
import { activatable, badge, fromTemplate, html, refs, svg } from "../lib/dom.js";
import { percent, plural } from "../lib/format.js";
import { createBoard, redraw } from "../lib/hexboard.js";
import { numberField, numberFrom } from "../lib/limits.js";
import { showMessage, showOutcome } from "../lib/message.js";
import { randomIndex } from "../lib/play.js";
import { searchSummary } from "../lib/stats.js";
import { setStatus } from "../lib/status.js";
import { worker } from "../lib/work.js";

const N = 16;
const CELL = 30;
const MARGIN = 16; // room for the row and column numbers
const LIST_CAP = 150; // moves rendered at once; the rest are counted

// Card ids (spec section 2) with their names and types.
const CARDS = {
  explosion: ["Explosion", "fire"], flare_up: ["Flare Up", "fire"], burning_snag: ["Burning Snag", "fire"],
  ember: ["Ember", "fire"], crown_fire: ["Crown Fire", "fire"], creeping_fires: ["Creeping Fires", "fire"],
  rolling_firebrand: ["Rolling Firebrand", "fire"],
  wind_n: ["Wind N", "wind"], wind_e: ["Wind E", "wind"], wind_s: ["Wind S", "wind"], wind_w: ["Wind W", "wind"],
  wind_nw: ["Wind NW", "wind"], wind_ne: ["Wind NE", "wind"], wind_sw: ["Wind SW", "wind"], wind_se: ["Wind SE", "wind"],
  dozer_line: ["Dozer Line", "firebreak"], scratch_line: ["Scratch Line", "firebreak"],
  de_reforest: ["De/Reforest", "firebreak"], backburn: ["Backburn", "firebreak"],
  smokejumper: ["Smokejumper", "water"], air_drop: ["Air Drop", "water"], fire_engine: ["Fire Engine", "water"],
  helitack: ["Helitack", "water"],
  hawks_2: ["Pair of Hawks", "hawk"], hawks_3: ["Trio of Hawks", "hawk"],
  firestorm: ["Firestorm", "event"],
};
const cardName = (id) => (id === null || id === undefined ? "none"
  : CARDS[id] ? CARDS[id][0] : String(id).replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase()));
const cardType = (id) => (CARDS[id] ? CARDS[id][1] : "other");
const windDirs = (id) => String(id).replace(/^wind_/, "").toUpperCase();

const TOWERS = { NW: [0, 0], NE: [0, 13], SW: [13, 0], SE: [13, 13] };
const CORNERS = { NW: [0, 0], NE: [0, 15], SW: [15, 0], SE: [15, 15] };
const VECTORS = { N: [-1, 0], E: [0, 1], S: [1, 0], W: [0, -1] };
const ANGLE = { N: -90, E: 0, S: 90, W: 180, NE: -45, SE: 45, SW: 135, NW: -135 };
const quadrant = ([r, c]) => (r < 8 ? "N" : "S") + (c < 8 ? "W" : "E");
const towerOf = ([r, c]) => Object.keys(TOWERS).find((t) => {
  const [r0, c0] = TOWERS[t];
  return r >= r0 && r < r0 + 3 && c >= c0 && c < c0 + 3;
}) || null;

const DECISIONS = {
  setup_hawk: "Set-up: put your hawk on an empty square of the NW quadrant, outside your tower area.",
  inferno_place: "Inferno: place the revealed Inferno card.",
  wind: "Wind: put a gem downwind of a fire.",
  action: "Your action: play a card, discard, Reckless Abandon or a specialty card.",
  end: "End of the turn: use your Bucket, or end the turn.",
  hawk: "An activated hawk: move its gem.",
  enemy_bucket: "An enemy Bucket ties: choose its line.",
  storm_reroll: "Firestorm: reroll the die with a wind card, or keep it.",
  storm_discard: "Firestorm: discard any cards (none is fine) and draw back up.",
  light_breeze: "Light Breeze: play one more wind card as a gem, or not.",
  heavy_wind: "Heavy Winds: play one more wind card as a gem, or stop.",
  pick: "Pick the card to play.",
};
const STATUS = {
  win: "Won: all three enemy towers burned.",
  loss: "Lost: a gem reached your back corner [0,0], or a penalty card could not be placed.",
  timeout: "Timeout: the turn limit came first.",
};

const TEMPLATE = layout(`
    <div class="ft-decision" data-ref="decision"></div>
    <div data-ref="boardSlot"></div>
    <div class="ft-table" data-ref="table"></div>
    <div class="section">
      <h3>Hand <span class="muted small" data-ref="handInfo"></span></h3>
      <div class="ft-hand" data-ref="hand"></div>
    </div>
    <div class="section">
      <h3>Moves <span class="muted small" data-ref="movesInfo"></span></h3>
      <div class="row ft-filters">
        <input type="search" data-ref="filter" placeholder="filter: words or [r,c]" aria-label="Filter the moves">
        <span data-ref="chips" class="ft-chips"></span>
      </div>
      <ol class="moves ft-moves" data-ref="moves" aria-label="Legal moves"></ol>
    </div>
    ${underBoard(`<div class="last-move muted" data-ref="last"></div>`,
      `<button type="button" data-ref="save" disabled title="Download the game record as JSON">Save record</button>`)}
    ${legend(
      `<span><svg width="14" height="14"><circle cx="7" cy="7" r="5" class="ft-gem"/></svg> fire gem</span>`,
      `<span><svg width="14" height="14"><rect x="1" y="1" width="12" height="12" class="ft-ef"/></svg> Eternal Flame</span>`,
      `<span><svg width="14" height="14"><rect x="1" y="1" width="12" height="12" class="ft-break"/></svg> firebreak</span>`,
      `<span><svg width="14" height="14"><circle cx="7" cy="7" r="6" class="ft-hawk own"/></svg> your hawk</span>`,
      `<span><svg width="14" height="14"><circle cx="7" cy="7" r="6" class="ft-hawk enemy"/></svg> enemy hawk</span>`,
      `<span><svg width="14" height="14"><circle cx="7" cy="7" r="6" class="ft-pending"/></svg> activated hawk (X)</span>`,
      `<span><svg width="14" height="14"><rect x="1" y="1" width="12" height="12" class="ft-tower"/></svg> tower area, ◆ back corner</span>`)}`,
  jsonCard("Game", `
      <div class="row">
        <label>Level <select data-ref="level">${[1, 2, 3, 4, 5, 6, 7].map((l) => `<option>${l}</option>`).join("")}</select></label>
        ${numberField("seed", "Seed", { value: 1, min: 0, title: "The seed of the deal; each move's draws follow from it" })}
        <button type="button" data-ref="newGame">New game</button>
      </div>
      <div class="row">
        <label class="small">Load a record file <input type="file" data-ref="file" accept=".json,application/json"></label>
      </div>`,
  { rows: 8, action: { ref: "load", label: "Load record", title: "Check the record (or a position) and play from it" } }),
  hintCard({
    seconds: 2, step: 0.5,
    fields: `<label>Objective <select data-ref="objective"><option value="win">win</option><option value="score">score</option></select></label> ` +
      numberField("hintSeed", "Seed", { value: 0, min: 0 }),
  }));

// ---------------------------------------------------------------- moves

const sqText = ([r, c]) => `[${r},${c}]`;
const sqsText = (list) => (list && list.length ? list.map(sqText).join(" ") : "nothing");
const isSquare = (s) => Array.isArray(s) && s.length === 2 && Number.isInteger(s[0]) && Number.isInteger(s[1]);
const sqKey = ([r, c]) => r * N + c;
const cardsText = (ids) => (ids && ids.length ? ids.map(cardName).join(", ") : "none");

// A play's words without the card's name in front.
function playText(m) {
  const name = cardName(m.card);
  if (m.type === "play" || m.type === "pick") {
    if (cardType(m.card) === "wind" && m.option) {
      const lead = `Wind card ${windDirs(m.card)}`;
      if (m.option === "set") return `${lead}: set the wind ${m.wind}`;
      if (m.option === "roll") return `${lead}: roll the wind`;
      return `${lead}: gem on ${sqText(m.square)}`;
    }
    if (m.card === "de_reforest") {
      return m.option === "remove" ? `${name}: remove the firebreak on ${sqText(m.square)}`
        : `${name}: firebreak on ${sqText(m.square)}`;
    }
    if (m.hawks) return `${name}: hawks on ${sqsText(m.hawks)}` + (m.take && m.take.length ? `, taking ${sqsText(m.take)}` : "");
    if (m.from && m.to) return `${name} ${sqText(m.from)} → ${sqText(m.to)}`;
    if (m.pair) return `${name} ${sqsText(m.pair)} → ${m.dir}`;
    if (m.center) return `${name} at ${sqText(m.center)}`;
    if (m.squares) {
      const verb = cardType(m.card) === "water" ? "removes" : "on";
      return `${name}${m.double ? " ×2" : ""} ${verb} ${sqsText(m.squares)}`;
    }
  }
  return name;
}

// A move in words (section 11.3 shapes); ``revealed``: the Inferno card on show.
export function moveText(m, revealed = null) {
  const inferno = revealed ? cardName(revealed) : "card";
  switch (m.type) {
    case "setup_hawk": return `Hawk on ${sqText(m.square)}`;
    case "inferno":
      if (m.squares) return `Inferno ${inferno} on ${sqsText(m.squares)}`;
      if (m.center) return `Inferno ${inferno} at ${sqText(m.center)}`;
      return `Resolve the Inferno ${inferno} (storm)`;
    case "penalty": return `Penalty: Inferno storm ${m.storm}, then draw again`;
    case "wind_gem": return `Wind gem on ${sqText(m.square)}`;
    case "play": return playText(m);
    case "discard": return `Discard ${cardsText(m.cards)}`;
    case "reckless": return `Reckless Abandon: discard ${cardsText(m.discard)}, gems on ${sqsText(m.squares)}`;
    case "specialty":
      return m.card === "patrol" ? `Patrol, discarding ${cardName(m.discard)}` : cardName(m.card) === m.card
        ? `Specialty ${m.card}` : `Specialty: ${cardName(m.card)}`;
    case "heavy_wind":
      return m.card ? `Heavy Winds: wind card ${windDirs(m.card)}, gem on ${sqText(m.square)}` : "Heavy Winds: stop";
    case "pick":
      if (!m.card) return `Nothing playable: keep ${cardName(m.keep)}`;
      return `Pick ${playText(m)}` + (m.keep ? `; keep ${cardName(m.keep)}` : "");
    case "light_breeze":
      return m.card ? `Light Breeze: wind card ${windDirs(m.card)}, gem on ${sqText(m.square)}` : "No Light Breeze";
    case "bucket": return `Bucket removes ${sqsText(m.squares)}`;
    case "end": return "End the turn";
    case "hawk": return m.to ? `Hawk ${sqText(m.from)}: gem to ${sqText(m.to)}` : `Hawk ${sqText(m.from)}: gem leaves the game`;
    case "enemy_bucket": return `${m.tower} Bucket removes ${sqsText(m.squares)}`;
    case "reroll": return `Reroll the storm die, discarding ${cardName(m.discard)}`;
    case "keep": return "Keep the die";
    case "storm_discard": return m.cards && m.cards.length ? `Storm: discard ${cardsText(m.cards)}` : "Storm: discard nothing";
    default: return JSON.stringify(m);
  }
}

// The named specialty cards (not in CARDS: never in a hand).
const SPECIALTY = { heavy_winds: "Heavy Winds", light_breeze: "Light Breeze", lookout: "Lookout", patrol: "Patrol" };
Object.entries(SPECIALTY).forEach(([id, name]) => { CARDS[id] = [name, "specialty"]; });

// Where a move two squares along ``dir`` takes a pair (drawn only; a hawk may catch a gem sooner).
function rolled(pair, dir) {
  const [dr, dc] = VECTORS[dir] || [0, 0];
  return pair.map(([r, c]) => [r + 2 * dr, c + 2 * dc]).filter(([r, c]) => r >= 0 && r < N && c >= 0 && c < N);
}

// The squares a move marks on the board, each with its role: gem (fire
// placed), clear (gems or pieces removed), break (a firebreak), hawk, src
// (a piece that moves away), center (an Explosion), spill (the gems an
// Explosion spreads, on ``board``). ``click`` is false for squares a click
// does not choose the move by.
export function moveMarks(m, board) {
  const out = [];
  const add = (s, role, click = true) => { if (isSquare(s)) out.push({ sq: s, role, click }); };
  const addAll = (list, role) => (Array.isArray(list) ? list : []).forEach((s) => add(s, role));
  const water = m.type === "bucket" || m.type === "enemy_bucket" || cardType(m.card) === "water";
  if (m.type === "setup_hawk") {
    add(m.square, "hawk");
  } else if (m.type === "hawk" || (m.from && m.to)) {
    add(m.from, "src", false);
    add(m.to, "gem");
  } else if (m.pair) {
    m.pair.forEach((s) => add(s, "src", false));
    rolled(m.pair, m.dir).forEach((s) => add(s, "gem"));
  } else if (m.card === "de_reforest") {
    add(m.square, m.option === "remove" ? "clear" : "break");
  } else if (m.hawks) {
    addAll(m.hawks, "hawk");
    (m.take || []).forEach((s) => add(s, "clear"));
  } else if (m.center) {
    add(m.center, "center");
    const inferno = m.type === "inferno";
    for (let dr = -1; dr <= 1; dr++) {
      for (let dc = -1; dc <= 1; dc++) {
        const s = [m.center[0] + dr, m.center[1] + dc];
        if ((dr || dc) && board && placeable(board, s) && (!inferno || quadrant(s) === "NW")) add(s, "spill", false);
      }
    }
  } else {
    add(m.square, water ? "clear" : "gem");
    addAll(m.squares, water ? "clear" : "gem");
  }
  return out;
}

const charAt = (board, [r, c]) => (r >= 0 && r < N && c >= 0 && c < N ? board[r][c] : null);
const placeable = (board, s) => [".", "H"].includes(charAt(board, s));

// Whether a move uses card ``id`` (played, discarded, kept or picked).
function usesCard(m, id) {
  if (m.card === id || m.keep === id) return true;
  for (const k of ["cards", "discard"]) {
    const v = m[k];
    if (v === id || (Array.isArray(v) && v.includes(id))) return true;
  }
  return false;
}

const sameMove = (a, b) => !!a && !!b && canonical(a) === canonical(b);
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  return JSON.stringify(v);
}

const isMove = (e) => e && typeof e === "object" && !("chance" in e);

function eventText(e, revealed) {
  if (isMove(e)) return moveText(e, revealed);
  if (e.chance === "inferno") return `Inferno card: ${cardName(e.card)}`;
  if (e.chance === "draw") return `drew ${cardName(e.card)}`;
  if (e.chance === "die") return `die: ${e.dir}`;
  return JSON.stringify(e);
}

// A record as JSON: the start's keys one a line, an event a line.
function formatRecord(record) {
  const j = (v) => JSON.stringify(v);
  const start = record.start && typeof record.start === "object"
    ? "{\n" + Object.entries(record.start).map(([k, v]) => `    ${j(k)}: ${j(v)}`).join(",\n") + "\n  }" : j(record.start);
  const events = (record.events || []).map((e) => `    ${j(e)}`).join(",\n");
  return `{\n  "start": ${start},\n  "events": [${events ? `\n${events}\n  ` : ""}]\n}`;
}

const total = (counts) => Object.values(counts || {}).reduce((a, b) => a + (Number(b) || 0), 0);

// ---------------------------------------------------------------- view

// The view's own styles, added to the page once: a game's view is its one
// module, and the shared style.css names no game.
const STYLE = `
.ft-board { max-height: min(640px, 80vh); }
.ft-cell { stroke: #e2dacd; stroke-width: 0.6; }
.ft-cell.own { fill: #fdf0e8; }
.ft-cell.enemy { fill: #f3f1ec; }
.ft-cell.own-tower { fill: #f9d6c3; }
.ft-cell.enemy-tower { fill: #dfe3ea; }
.ft-cell.burned { fill: #9ca3af; }
.ft-area { fill: none; stroke: #6f675d; stroke-width: 1.6; pointer-events: none; }
.ft-area.burned { stroke: #1f2937; stroke-width: 2.5; stroke-dasharray: 5 3; }
.ft-corner { fill: none; stroke: #475569; stroke-width: 1.4; pointer-events: none; }
.ft-corner.own { stroke: var(--loss); stroke-width: 2; }
.ft-burned-text { font: 700 13px system-ui, sans-serif; fill: #fff; text-anchor: middle; pointer-events: none;
  paint-order: stroke; stroke: #1f2937; stroke-width: 3; }
.ft-quarter { stroke: #b8ad9e; stroke-width: 1.2; stroke-dasharray: 4 3; pointer-events: none; }
.ft-coord { font: 9px system-ui, sans-serif; fill: var(--muted); text-anchor: middle; }
.ft-coord.row { text-anchor: end; }
.ft-gem { fill: #f97316; stroke: #9a3412; stroke-width: 1.5; }
.ft-ef { fill: #991b1b; stroke: #450a0a; stroke-width: 1.5; }
.ft-ef-text { font: 700 14px system-ui, sans-serif; fill: #fde68a; text-anchor: middle; pointer-events: none; }
.ft-break { fill: #92400e; stroke: #451a03; stroke-width: 1; }
.ft-hawk { stroke: #fff; stroke-width: 1.5; }
.ft-hawk.own { fill: #15803d; }
.ft-hawk.enemy { fill: #6d28d9; }
.ft-wings { fill: none; stroke: #fff; stroke-width: 1.8; stroke-linecap: round; }
.ft-pending { fill: none; stroke: #dc2626; stroke-width: 2.2; stroke-dasharray: 3 2; }
.legend .ft-pending { fill: #f97316; }
.ft-tower { fill: #f9d6c3; stroke: #6f675d; }
.ft-hit { fill: transparent; }
.ft-board [data-sq][tabindex] { cursor: pointer; }
.ft-board [data-sq][tabindex]:hover .ft-hit { fill: rgba(250, 204, 21, 0.25); }
.ft-board [data-sq][tabindex]:focus-visible .ft-hit { stroke: var(--focus); stroke-width: 3; }
.ft-overlay { pointer-events: none; }
.ft-mark { stroke-width: 2; }
.ft-mark.cand { fill: rgba(250, 204, 21, 0.18); stroke: #ca8a04; stroke-width: 1; stroke-dasharray: 3 2; }
.ft-mark.chosen { fill: none; stroke: var(--focus); stroke-width: 3.5; }
.ft-mark.gem { fill: rgba(249, 115, 22, 0.55); stroke: #c2410c; stroke-dasharray: 3 2; }
.ft-mark.spill { fill: rgba(249, 115, 22, 0.4); stroke: #c2410c; stroke-width: 1; }
.ft-mark.clear { fill: rgba(29, 95, 168, 0.28); stroke: var(--water); }
.ft-mark.break { fill: rgba(146, 64, 14, 0.55); stroke: #451a03; stroke-dasharray: 3 2; }
.ft-mark.hawk { fill: rgba(21, 128, 61, 0.4); stroke: #15803d; stroke-dasharray: 3 2; }
.ft-mark.src { fill: none; stroke: #1f2937; stroke-dasharray: 2 2; }
.ft-mark.center { fill: rgba(146, 64, 14, 0.45); stroke: #7c2d12; stroke-width: 2.5; }
.ft-mark.hinted { stroke: var(--water); stroke-width: 3; stroke-dasharray: none; }
.ft-mark.preview { stroke-width: 3; }

.ft-decision { margin: 2px 0 8px; padding: 6px 10px; border: 1px solid #f5d08a; background: #fff7e6; border-radius: 8px; }
.ft-decision-name { display: inline-block; padding: 0 6px; border-radius: 4px; background: #a16207; color: #fff; font-size: 12px; }
.ft-note { color: var(--accent-dark); }
.ft-arrange { margin-top: 4px; font-size: 13px; }
.ft-table { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 8px; }
.ft-pile { display: inline-flex; flex-wrap: wrap; align-items: center; gap: 2px 4px; padding: 3px 8px; border: 1px dashed var(--line);
  border-radius: 6px; min-width: 0; max-width: 100%; }
.ft-count { font-variant-numeric: tabular-nums; font-weight: 600; background: #efe9e1; border-radius: 999px; padding: 0 7px; }
.ft-compass { fill: #fff; stroke: var(--line); }
.ft-arrow { fill: #0e7490; }
.ft-bucket { font-size: 12px; padding: 0 5px; border-radius: 4px; background: #dbeafe; color: #17406e; }
.ft-bucket.used, .ft-bucket.none { background: #eee; color: var(--muted); text-decoration: line-through; }
.ft-spec { font-size: 12px; padding: 0 5px; border-radius: 4px; background: #fef3c7; }
.ft-spec.back { background: #e0e7ff; }
.ft-warn { color: var(--loss); font-weight: 600; }
.ft-hand { display: flex; flex-wrap: wrap; gap: 6px; }
.ft-card { display: inline-flex; flex-direction: column; align-items: flex-start; gap: 1px; min-width: 92px; padding: 4px 8px;
  border-radius: 6px; border: 1px solid rgba(0,0,0,0.2); border-left-width: 5px; background: #fff; color: var(--ink);
  text-align: left; line-height: 1.2; }
button.ft-card:hover:not(:disabled) { background: #f3eee7; }
.ft-card.fire { border-left-color: #ea580c; }
.ft-card.water { border-left-color: var(--water); }
.ft-card.wind { border-left-color: #0e7490; }
.ft-card.firebreak { border-left-color: #92400e; }
.ft-card.hawk { border-left-color: #15803d; }
.ft-card.event, .ft-card.specialty { border-left-color: #7c3aed; }
.ft-card.selected { box-shadow: 0 0 0 3px var(--accent); }
.ft-card.idle { opacity: 0.6; }
.ft-card.mini { min-width: 0; padding: 1px 6px; }
.ft-card-name { font-weight: 600; }
.ft-card-type, .ft-card-count { font-size: 11px; color: var(--muted); }
.ft-filters input[type="search"] { flex: 1 1 12em; min-width: 0; padding: 4px 6px; border: 1px solid var(--line); border-radius: 4px; font: inherit; }
.ft-chips { display: inline-flex; flex-wrap: wrap; gap: 4px; }
.ft-chip { display: inline-flex; align-items: center; gap: 2px; padding: 0 4px 0 8px; border-radius: 999px; background: #fde3cc; font-size: 12px; }
.ft-moves { max-height: 300px; }
.ft-moves li.hinted { box-shadow: inset 3px 0 0 var(--water); }
.ft-moves .ftext, .hint-list .ftext { overflow-wrap: anywhere; }
.ft-value { font-size: 12px; color: var(--muted); font-variant-numeric: tabular-nums; }
.badge.timeout { background: var(--unknown); }
`;

export function mount(root, game) {
  if (!document.getElementById("firetower-style")) {
    document.head.append(html("style", { id: "firetower-style" }, STYLE));
  }
  root.append(fromTemplate(TEMPLATE));
  const ui = refs(root);
  const { wrap, board } = createBoard(`${game.title} board`);
  board.classList.add("ft-board");
  ui.boardSlot.replaceWith(wrap);

  const state = {
    answer: null,       // the State answer on show
    record: null,       // its record (the object sent with every request)
    texts: [],          // the words of each move of answer.moves
    card: null,         // the hand card the moves are filtered by
    squares: [],        // the squares the moves are filtered by (every one used)
    preview: null,      // the move hovered or focused in a list
    hint: null,         // {record, result, shown}: the hint and the move it draws
    note: "",           // a word about the last click on the board
    arrange: null,      // {family, hawks, take}: a hawk card's move being built square by square
  };
  const work = worker(() => renderButtons());
  const editor = jsonEditor(ui, { format: formatRecord, current: () => state.record });
  const current = () => state.record;
  let overlay = null;

  // ------------------------------------------------------------- board

  const xy = ([r, c]) => [c * CELL, r * CELL];

  function drawBoard() {
    redraw(board, () => {
      board.setAttribute("viewBox", `${-MARGIN} ${-MARGIN} ${N * CELL + MARGIN + 2} ${N * CELL + MARGIN + 2}`);
      const a = state.answer;
      const rows = a?.board || [];
      const gCells = svg("g", {}, board);
      const gPieces = svg("g", {}, board);
      for (let i = 0; i < N; i++) {
        svg("text", { x: i * CELL + CELL / 2, y: -4, class: "ft-coord" }, board).textContent = String(i);
        svg("text", { x: -4, y: i * CELL + CELL / 2 + 3, class: "ft-coord row" }, board).textContent = String(i);
      }
      for (let r = 0; r < N; r++) {
        for (let c = 0; c < N; c++) {
          const [x, y] = xy([r, c]);
          const tower = towerOf([r, c]);
          const cls = ["ft-cell", quadrant([r, c]) === "NW" ? "own" : "enemy"];
          if (tower) cls.push("tower", tower === "NW" ? "own-tower" : "enemy-tower");
          if (tower && a?.burned?.[tower]) cls.push("burned");
          svg("rect", { x, y, width: CELL, height: CELL, class: cls.join(" ") }, gCells);
        }
      }
      // The tower areas' outlines and back corners.
      for (const [t, [r0, c0]] of Object.entries(TOWERS)) {
        const [x, y] = xy([r0, c0]);
        svg("rect", { x, y, width: 3 * CELL, height: 3 * CELL, class: `ft-area${a?.burned?.[t] ? " burned" : ""}` }, gCells);
        const [bx, by] = xy(CORNERS[t]);
        svg("path", { d: `M${bx + 15} ${by + 3} L${bx + 27} ${by + 15} L${bx + 15} ${by + 27} L${bx + 3} ${by + 15} Z`,
          class: `ft-corner${t === "NW" ? " own" : ""}` }, gCells);
        if (a?.burned?.[t]) {
          svg("text", { x: x + 1.5 * CELL, y: y + 1.5 * CELL + 5, class: "ft-burned-text" }, gPieces).textContent = "burned";
        }
      }
      svg("line", { x1: 8 * CELL, y1: 0, x2: 8 * CELL, y2: N * CELL, class: "ft-quarter" }, gCells);
      svg("line", { x1: 0, y1: 8 * CELL, x2: N * CELL, y2: 8 * CELL, class: "ft-quarter" }, gCells);
      if (rows.length === N) {
        svg("rect", { x: 7 * CELL + 2, y: 7 * CELL + 2, width: 2 * CELL - 4, height: 2 * CELL - 4, rx: 6, class: "ft-ef" }, gPieces);
        svg("text", { x: 8 * CELL, y: 8 * CELL + 5, class: "ft-ef-text" }, gPieces).textContent = "EF";
        rows.forEach((row, r) => [...row].forEach((ch, c) => drawPiece(gPieces, ch, [r, c])));
      }
      overlay = svg("g", { class: "ft-overlay" }, board);
      drawOverlay();
      drawHits();
    });
  }

  function drawHawk(parent, [x, y], own, pending = false) {
    const g = svg("g", { transform: `translate(${x + 15},${y + 15})` }, parent);
    if (pending) svg("circle", { r: 11, class: "ft-gem" }, g);
    svg("circle", { r: pending ? 8 : 11, class: `ft-hawk ${own ? "own" : "enemy"}` }, g);
    const s = pending ? 0.7 : 1;
    svg("path", { d: `M${-7 * s} ${2 * s} Q${-3.5 * s} ${-5 * s} 0 ${1 * s} Q${3.5 * s} ${-5 * s} ${7 * s} ${2 * s}`,
      class: "ft-wings" }, g);
    if (pending) svg("circle", { r: 13.5, class: "ft-pending" }, g);
  }

  function drawPiece(parent, ch, s) {
    const [x, y] = xy(s);
    if (ch === "F") svg("circle", { cx: x + 15, cy: y + 15, r: 10, class: "ft-gem" }, parent);
    else if (ch === "#") svg("rect", { x: x + 3, y: y + 3, width: 24, height: 24, rx: 2, class: "ft-break" }, parent);
    else if (ch === "H") drawHawk(parent, [x, y], quadrant(s) === "NW");
    else if (ch === "X") drawHawk(parent, [x, y], quadrant(s) === "NW", true);
  }

  function markNode(parent, { sq, role }, extra) {
    const [x, y] = xy(sq);
    const cls = `ft-mark ${role}${extra ? " " + extra : ""}`;
    if (role === "gem" || role === "hawk" || role === "spill") {
      svg("circle", { cx: x + 15, cy: y + 15, r: role === "spill" ? 7 : 10.5, class: cls }, parent);
    } else {
      svg("rect", { x: x + 2.5, y: y + 2.5, width: 25, height: 25, rx: 3, class: cls }, parent);
    }
  }

  // What floats over the pieces: the candidate squares of the moves on
  // show, the squares chosen, and one move (the one hovered, else the hint's).
  function drawOverlay() {
    if (!overlay) return;
    overlay.replaceChildren();
    const a = state.answer;
    if (!a) return;
    if (showCandidates()) {
      for (const k of candidateKeys()) markNode(overlay, { sq: [Math.floor(k / N), k % N], role: "cand" });
    }
    for (const s of state.squares) markNode(overlay, { sq: s, role: "chosen" });
    if (state.arrange) moveMarks(arrangedMove(state.arrange), a.board).forEach((mk) => markNode(overlay, mk, "preview"));
    const hinted = state.hint && state.hint.record === state.record ? state.hint.shown : null;
    if (hinted && !sameMove(hinted, state.preview)) moveMarks(hinted, a.board).forEach((mk) => markNode(overlay, mk, "hinted"));
    if (state.preview) moveMarks(state.preview, a.board).forEach((mk) => markNode(overlay, mk, "preview"));
  }

  // The hit squares over everything, for clicks and the keyboard: the candidates are focusable.
  function drawHits() {
    const a = state.answer;
    if (!a) return;
    const gHits = svg("g", {}, board);
    const cands = showCandidates() ? candidateKeys() : new Set();
    for (let r = 0; r < N; r++) {
      for (let c = 0; c < N; c++) {
        const [x, y] = xy([r, c]);
        const g = svg("g", { "data-sq": `${r},${c}`, "data-focus": `sq:${r},${c}` }, gHits);
        svg("rect", { x, y, width: CELL, height: CELL, class: "ft-hit" }, g);
        svg("title", {}, g).textContent = squareTitle([r, c]);
        if (cands.has(sqKey([r, c]))) {
          activatable(g, (e) => { e.stopPropagation(); clickSquare([r, c]); });
          g.setAttribute("aria-label", `Square [${r},${c}]`);
        }
      }
    }
  }

  function squareTitle(s) {
    const ch = charAt(state.answer.board || [], s);
    const what = { ".": "empty", F: "fire gem", E: "Eternal Flame", "#": "firebreak",
      H: quadrant(s) === "NW" ? "your hawk" : "enemy hawk", X: "activated hawk with a gem" }[ch] || "";
    const tower = towerOf(s);
    const corner = Object.entries(CORNERS).find(([, c]) => c[0] === s[0] && c[1] === s[1]);
    return `${sqText(s)}: ${what}` + (tower ? ` · ${tower} tower area` : "") + (corner ? ` · ${corner[0]} back corner` : "") +
      ` · ${plural(movesAt(s).length, "move")} here`;
  }

  // ------------------------------------------------------------- moves

  // The moves that pass the card and square filters (not the words).
  function filtered({ squares = state.squares } = {}) {
    const a = state.answer;
    if (!a) return [];
    const keys = squares.map(sqKey);
    return a.moves.filter((m) => (!state.card || usesCard(m, state.card)) &&
      keys.every((k) => moveMarks(m, a.board).some((mk) => sqKey(mk.sq) === k)));
  }

  // The moves on show in the list: the filters, then the words.
  function listed() {
    const words = ui.filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    const a = state.answer;
    return filtered().filter((m) => {
      if (!words.length) return true;
      const text = state.texts[a.moves.indexOf(m)].toLowerCase();
      return words.every((w) => text.includes(w));
    });
  }

  const movesAt = (s) => filtered().filter((m) => moveMarks(m, state.answer.board).some((mk) => sqKey(mk.sq) === sqKey(s)));

  // ---------------------------------------------------- hawk arrangements

  // A hawk card with more arrangements than the server lists (a Trio of
  // Hawks has tens of thousands) is played by choosing its squares here:
  // the final set of own-hawk squares (spec 6.10), built square by square
  // from what the server says of the card (its squares, what may be taken,
  // the set's size), and then checked by the server like any move.
  const familyOf = (id) => (state.answer?.unlisted || []).find((u) => u.card === id) || null;
  const inList = (list, s) => list.some((q) => sqKey(q) === sqKey(s));
  const toggled = (list, s) => (inList(list, s) ? list.filter((q) => sqKey(q) !== sqKey(s)) : [...list, s]);
  const arrangeSize = (arr) => arr.family.own + arr.family.placed + arr.take.length;

  function startArrange(id) {
    const family = familyOf(id);
    const own = family.squares.filter((s) => charAt(state.answer.board, s) === "H");
    state.arrange = { family, hawks: own, take: [] };
    state.card = id;
    state.squares = [];
    state.note = "";
  }

  // A click in an arrangement: a square for a hawk is chosen or let go; an
  // enemy hawk is taken or given back (only while the supply is short).
  function arrangeClick(s) {
    const arr = state.arrange;
    state.note = "";
    if (inList(arr.family.squares, s)) {
      arr.hawks = toggled(arr.hawks, s);
    } else if (inList(arr.family.takeable, s)) {
      if (!inList(arr.take, s) && arr.take.length >= arr.family.max_take) {
        state.note = `At most ${plural(arr.family.max_take, "enemy hawk")} may be taken.`;
      } else {
        arr.take = toggled(arr.take, s);
      }
    }
    render();
  }

  const arrangeCandidates = () => new Set([...state.arrange.family.squares, ...state.arrange.family.takeable].map(sqKey));
  const byRowCol = (list) => [...list].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const arrangedMove = (arr) => ({ ...arr.family.move, hawks: byRowCol(arr.hawks), take: byRowCol(arr.take) });

  function renderArrange(box) {
    const arr = state.arrange;
    const size = arrangeSize(arr);
    const line = html("div", { class: "ft-arrange" });
    const card = arr.family.card;
    line.append(html("b", {}, cardName(card)), ` (${arr.family.moves.toLocaleString("en-US")} arrangements): click the ` +
      `squares of all your hawks after it, ${arr.hawks.length} of ${size} chosen` +
      (arr.family.max_take ? `; you may also take up to ${plural(arr.family.max_take, "enemy hawk")} (${arr.take.length} taken)` : "") +
      ". ");
    const playButton = html("button", { type: "button" }, `Play ${cardName(card)}`);
    playButton.disabled = arr.hawks.length !== size || arr.family.placed + arr.take.length === 0 || work.busy;
    playButton.addEventListener("click", () => play(arrangedMove(arr)));
    const cancel = html("button", { type: "button", class: "text-button" }, "Cancel");
    cancel.addEventListener("click", () => chooseCard(card));
    line.append(playButton, " ", cancel);
    box.append(line);
  }

  function candidateKeys() {
    const a = state.answer;
    if (state.arrange) return arrangeCandidates();
    const keys = new Set();
    for (const m of filtered()) for (const mk of moveMarks(m, a.board)) if (mk.click || mk.role === "src") keys.add(sqKey(mk.sq));
    return keys;
  }

  // Candidates are drawn where a click chooses among few kinds of move:
  // any decision but the whole action, or the action once filtered.
  const showCandidates = () => !!state.answer && (!!state.arrange || (state.answer.moves.length > 0 &&
    (state.answer.decision !== "action" || !!state.card || state.squares.length > 0)));

  // A click on a square: the one move that is this square is played;
  // else the square filters the moves (a second click lifts it).
  function clickSquare(s) {
    if (work.busy || !state.answer) return;
    if (state.arrange) {
      arrangeClick(s);
      return;
    }
    const k = sqKey(s);
    if (state.squares.some((q) => sqKey(q) === k)) {
      state.squares = state.squares.filter((q) => sqKey(q) !== k);
      state.note = "";
      render();
      return;
    }
    const pool = filtered();
    const exact = pool.filter((m) => {
      const own = moveMarks(m, state.answer.board).filter((mk) => mk.click);
      return own.length === 1 && sqKey(own[0].sq) === k;
    });
    if (exact.length === 1) {
      play(exact[0]);
      return;
    }
    const using = filtered({ squares: [...state.squares, s] });
    if (!using.length) {
      state.note = `No legal move${state.card ? ` with ${cardName(state.card)}` : ""} uses ${sqText(s)}.`;
      render();
      return;
    }
    state.squares = [...state.squares, s];
    state.note = `${plural(using.length, "move")} use ${state.squares.map(sqText).join(" and ")}.`;
    render();
  }

  function chooseCard(id) {
    if (work.busy) return;
    const again = state.card === id;
    state.arrange = null;
    if (!again && familyOf(id)) {
      startArrange(id);
    } else {
      state.card = again ? null : id;
      state.squares = [];
      state.note = "";
    }
    render();
  }

  // A row of a move list: hovering or focusing it previews its squares;
  // a click, Enter or Space plays it.
  function moveRow(move, text, { cls = "", extra = [] } = {}) {
    const li = html("li", { class: cls, title: "Click to play it" });
    li.append(html("span", { class: "ftext" }, text), ...extra);
    activatable(li, () => play(move));
    const show = () => { state.preview = move; drawOverlay(); };
    const hide = () => { if (sameMove(state.preview, move)) { state.preview = null; drawOverlay(); } };
    li.addEventListener("mouseenter", show);
    li.addEventListener("focus", show);
    li.addEventListener("mouseleave", hide);
    li.addEventListener("blur", hide);
    return li;
  }

  // ------------------------------------------------------------ panels

  function renderStatus() {
    const a = state.answer;
    if (!a) {
      ui.status.textContent = "No game loaded.";
      return;
    }
    const done = a.status !== "ongoing";
    const text = done ? (STATUS[a.status] || a.status) : `Turn ${a.turn} · round ${a.round}`;
    const score = a.score === null || a.score === undefined ? "" : ` · score ${a.score}`;
    setStatus(ui.status, { status: a.status, text: [text],
      extra: ` · level ${a.record.start?.level ?? "?"}` + (a.decision ? ` · decision ${a.decision}` : "") + ` · phase ${a.phase}` + score });
  }

  function renderDecision() {
    const box = ui.decision;
    box.replaceChildren();
    const a = state.answer;
    if (!a) {
      box.textContent = "Start a new game or load a record.";
      return;
    }
    if (!a.decision) {
      box.append(badge(a.status), ` ${STATUS[a.status] || "No decision."}` +
        (a.score !== null && a.score !== undefined ? ` Score ${a.score} of 9.` : ""));
      return;
    }
    const head = html("div", { class: "ft-decision-head" });
    head.append(html("b", { class: "ft-decision-name" }, a.decision), " ",
      html("span", {}, DECISIONS[a.decision] || "Choose a move."));
    box.append(head);
    if (a.decision === "inferno_place" && a.inferno?.revealed) {
      box.append(html("div", { class: "small" }, `Revealed: ${cardName(a.inferno.revealed)}` +
        (a.inferno.penalty ? " (a penalty draw: no legal placement loses)" : "")));
    }
    const tip = a.moves.length === 1 ? "One legal move." : showCandidates()
      ? "Click a marked square (one move there is played at once; else it filters), or a move below."
      : "Click a card of your hand to see its moves on the board, or a square, or a move below.";
    if (state.arrange) renderArrange(box);
    else box.append(html("div", { class: "small muted" }, tip));
    if (state.note) box.append(html("div", { class: "small ft-note" }, state.note));
  }

  function chip(text, title, onClear) {
    const c = html("span", { class: "ft-chip", title });
    const x = html("button", { type: "button", class: "text-button", "aria-label": `Clear ${text}` }, "×");
    x.addEventListener("click", onClear);
    c.append(text, x);
    return c;
  }

  function renderMoves() {
    const list = ui.moves;
    list.replaceChildren();
    ui.chips.replaceChildren();
    ui.movesInfo.textContent = "";
    const a = state.answer;
    if (!a) return;
    if (state.card) ui.chips.append(chip(cardName(state.card), "Only moves with this card", () => chooseCard(state.card)));
    for (const s of state.squares) {
      ui.chips.append(chip(sqText(s), "Only moves using this square", () => clickSquare(s)));
    }
    if (!a.moves.length && !(a.unlisted || []).length) {
      list.append(html("li", { class: "muted static" }, a.status === "ongoing" ? "No decision here." : "The game is over."));
      return;
    }
    if (state.arrange) {
      list.append(html("li", { class: "muted static" }, `${cardName(state.arrange.family.card)}'s arrangements are too many to list: ` +
        "choose its squares on the board."));
      return;
    }
    // A card whose arrangements are not listed gets a row that starts its
    // arrangement (a picked card is in no hand to click).
    const families = (a.unlisted || []).filter((u) => !state.card || state.card === u.card);
    for (const u of families) {
      const li = html("li", { class: "ft-family", title: "Click to choose its squares on the board" });
      li.append(html("span", { class: "ftext" }, `${u.move.type === "pick" ? "Pick " : ""}${cardName(u.card)}: ` +
        `${u.moves.toLocaleString("en-US")} arrangements, chosen on the board`));
      activatable(li, () => chooseCard(u.card));
      list.append(li);
    }
    const shown = listed();
    ui.movesInfo.textContent = `(${a.decision}: ${plural(a.moves.length, "legal move")}` +
      (shown.length !== a.moves.length ? `, ${shown.length} shown` : "") + ")";
    const hinted = state.hint && state.hint.record === state.record ? state.hint.shown : null;
    for (const m of shown.slice(0, LIST_CAP)) {
      const text = state.texts[a.moves.indexOf(m)];
      list.append(moveRow(m, text, { cls: sameMove(m, hinted) ? "hinted" : "" }));
    }
    if (shown.length > LIST_CAP) {
      list.append(html("li", { class: "muted static ft-more" },
        `and ${(shown.length - LIST_CAP).toLocaleString("en-US")} more: filter by card, square or words`));
    }
    if (!shown.length && !families.length) {
      list.append(html("li", { class: "muted static" }, "No move matches the filters."));
    }
  }

  function cardNode(id, { count = null, selected = false, onClick = null, cls = "" } = {}) {
    const type = cardType(id);
    const node = html(onClick ? "button" : "span", { class: `ft-card ${type}${cls ? " " + cls : ""}`, title: `${cardName(id)} (${type})` });
    if (onClick) {
      node.type = "button";
      node.setAttribute("aria-pressed", String(selected));
      node.addEventListener("click", onClick);
    }
    if (selected) node.classList.add("selected");
    node.append(html("span", { class: "ft-card-name" }, cardName(id)), html("span", { class: "ft-card-type" }, type));
    if (count !== null) node.append(html("span", { class: "ft-card-count" }, plural(count, "move")));
    return node;
  }

  function renderHand() {
    ui.hand.replaceChildren();
    const a = state.answer;
    ui.handInfo.textContent = a ? `(${a.hand.length} of ${a.hand_size}; click a card for its moves)` : "";
    if (!a) return;
    const seen = new Set();
    for (const id of a.hand) {
      // A hand card's own arrangements (at a pick the family is the picked card's, not the hand's).
      const count = a.moves.filter((m) => usesCard(m, id)).length +
        (a.decision === "action" ? familyOf(id)?.moves || 0 : 0);
      const first = !seen.has(id);
      seen.add(id);
      ui.hand.append(cardNode(id, { count: first ? count : null, selected: state.card === id && first,
        onClick: () => chooseCard(id), cls: count ? "" : "idle" }));
    }
    if (!a.hand.length) ui.hand.append(html("span", { class: "muted small" }, "empty"));
  }

  function countsNode(title, counts, note = "") {
    const box = html("div", { class: "ft-pile" });
    box.append(html("b", {}, title), " ", html("span", { class: "ft-count" }, String(total(counts))));
    const detail = Object.entries(counts || {}).filter(([, n]) => n > 0)
      .map(([id, n]) => `${cardName(id)} ${n}`).join(", ");
    box.title = detail || "empty";
    if (note) box.append(html("span", { class: "small muted" }, ` ${note}`));
    return box;
  }

  // The wind, and the die's last roll in the record (the wind step's, a
  // card's or a storm's).
  function windNode(dir, events) {
    const box = html("div", { class: "ft-pile ft-wind", title: dir ? `Wind ${dir}: fire spreads toward ${dir}` : "No wind yet" });
    const icon = svg("svg", { width: 30, height: 30, viewBox: "-15 -15 30 30", "aria-hidden": "true" });
    svg("circle", { r: 13.5, class: "ft-compass" }, icon);
    if (dir) {
      svg("path", { d: "M-9,-3 L2,-3 L2,-8 L11,0 L2,8 L2,3 L-9,3 Z", class: "ft-arrow", transform: `rotate(${ANGLE[dir] ?? 0})` }, icon);
    }
    box.append(icon, html("b", {}, "Wind "), html("span", { class: "ft-count", "data-ref-wind": "" }, dir || "none"));
    const roll = [...events].reverse().find((e) => e && e.chance === "die");
    box.append(html("span", { class: "small muted ft-die", title: "The die's last roll" }, ` · die ${roll ? roll.dir : "not rolled"}`));
    return box;
  }

  function renderTable() {
    const box = ui.table;
    box.replaceChildren();
    const a = state.answer;
    if (!a) return;
    box.append(windNode(a.wind, a.record.events || []));
    box.append(countsNode("Draw pile", a.draw_pile), countsNode("Discard", a.discard));
    const inf = a.inferno || {};
    const deck = Array.isArray(inf.deck) ? inf.deck.length : total(inf.deck);
    const infBox = html("div", { class: "ft-pile ft-inferno" });
    infBox.append(html("b", {}, "Inferno deck "), html("span", { class: "ft-count" }, String(deck)));
    infBox.title = `Inferno discard: ${cardsText(inf.discard || [])}`;
    infBox.append(html("span", { class: "small muted" }, ` · discard ${(inf.discard || []).length}`));
    if (inf.revealed) infBox.append(" ", cardNode(inf.revealed, { cls: "mini revealed" }));
    if (inf.penalty) infBox.append(html("span", { class: "small ft-warn" }, " penalty"));
    box.append(infBox);
    const buckets = html("div", { class: "ft-pile ft-buckets" });
    buckets.append(html("b", {}, "Buckets"));
    for (const t of ["NW", "NE", "SW", "SE"]) {
      const v = a.buckets?.[t] ?? "?";
      buckets.append(" ", html("span", { class: `ft-bucket ${v}`, title: `${t} Bucket: ${v}` }, `${t} ${v}`));
    }
    box.append(buckets);
    const sp = a.specialty || {};
    const spec = html("div", { class: "ft-pile ft-specialty" });
    spec.append(html("b", {}, "Specialty"), " ",
      html("span", { class: `ft-spec ${sp.heavy_winds}`, title: "Heavy Winds (front) / Light Breeze (back)" },
        sp.heavy_winds === "back" ? "Light Breeze (back)" : "Heavy Winds (front)"), " ",
      html("span", { class: `ft-spec ${sp.lookout}`, title: "Lookout (front) / Patrol (back)" },
        sp.lookout === "back" ? "Patrol (back)" : "Lookout (front)"));
    box.append(spec);
    const counts = html("div", { class: "ft-pile" });
    counts.append(html("b", {}, "Hand size "), html("span", { class: "ft-count" }, String(a.hand_size)),
      html("b", {}, " · hawk supply "), html("span", { class: "ft-count" }, String(a.hawk_supply)));
    const burned = Object.entries(a.burned || {}).filter(([, v]) => v).map(([t]) => t);
    counts.append(html("span", { class: "small muted" }, ` · burned: ${burned.length ? burned.join(", ") : "none"}`));
    box.append(counts);
  }

  // The last move and the chance events that followed it.
  function renderLast() {
    const box = ui.last;
    const a = state.answer;
    if (!a) {
      box.textContent = "";
      return;
    }
    const events = a.record.events || [];
    let i = events.length - 1;
    while (i >= 0 && !isMove(events[i])) i--;
    const moves = events.filter(isMove).length;
    if (i < 0) {
      box.textContent = events.length ? `Start; then ${events.map((e) => eventText(e)).join(" · ")}` : "Start of the record.";
      return;
    }
    box.textContent = `Move ${moves}: ${events.slice(i).map((e) => eventText(e)).join(" · ")}`;
  }

  // Every button is off while a request runs: one action at a time.
  function renderButtons() {
    const idle = !work.busy;
    const a = state.answer;
    const moves = (state.record?.events || []).some(isMove);
    ui.undo.disabled = !idle || !moves;
    ui.restart.disabled = !idle || !(state.record?.events || []).length;
    ui.hint.disabled = !idle || !a || !a.decision;
    ui.save.disabled = !state.record;
    for (const b of [ui.newGame, ui.load]) b.disabled = !idle;
  }

  function render() {
    renderStatus();
    renderDecision();
    drawBoard();
    renderTable();
    renderHand();
    renderMoves();
    renderLast();
    renderButtons();
  }

  // -------------------------------------------------------------- game

  function setAnswer(answer) {
    state.answer = answer;
    state.record = answer.record;
    const revealed = answer.inferno?.revealed || null;
    state.texts = answer.moves.map((m) => moveText(m, revealed));
    state.card = null;
    state.arrange = null;
    state.squares = [];
    state.preview = null;
    state.note = "";
    if (state.hint && state.hint.record !== state.record) clearHint();
    editor.show(answer.record);
    render();
    showOutcome(answer.status, { win: `${STATUS.win} Score ${answer.score ?? "?"} of 9.`, loss: STATUS.loss, timeout: STATUS.timeout });
  }

  const gameSeed = () => Math.round(numberFrom(ui.seed, 0, 0));

  function play(move) {
    if (work.busy || !state.record) return;
    return work.run(ui.undo, null, async () => {
      const record = state.record;
      // Each move's draws follow from the game's seed and the record's length: a game replays from its clicks.
      const seed = (gameSeed() * 7919 + record.events.length) % 2147483647;
      const answer = await api("/v1/firetower/apply", { position: record, move, seed });
      setAnswer(answer);
    });
  }

  function check(record, button, label = "Checking…") {
    return work.run(button, label, async () => setAnswer(await api("/v1/firetower/check", { position: record })));
  }

  // Back to the previous decision: the last move and the chance events after it go.
  function undo() {
    const events = state.record?.events || [];
    let i = events.length - 1;
    while (i >= 0 && !isMove(events[i])) i--;
    if (i < 0) return;
    check({ start: state.record.start, events: events.slice(0, i) }, ui.undo, null);
  }

  function restart() {
    if (state.record) check({ start: state.record.start, events: [] }, ui.restart, null);
  }

  function newGame() {
    work.run(ui.newGame, "Dealing…", async () => {
      const level = Number(ui.level.value) || 1;
      setAnswer(await api("/v1/firetower/new", { level, seed: gameSeed() }));
    });
  }

  // A record (or a position) from the box or a file: replayed first, so
  // that a bad event is named; the events before it are then played from.
  function loadRecord(read, button) {
    work.run(button, "Loading…", async () => {
      const data = read();
      if (!data || typeof data !== "object") throw new ApiError("Record JSON: not an object");
      const record = "start" in data ? { start: data.start, events: Array.isArray(data.events) ? data.events : [] }
        : { start: data, events: [] };
      const replay = await api("/v1/firetower/replay", { position: record });
      if (!replay.ok && replay.error) {
        const e = replay.error;
        setAnswer(await api("/v1/firetower/check", { position: { start: record.start, events: record.events.slice(0, e.index) } }));
        showMessage(`The record stops at event ${e.index + 1} (${JSON.stringify(e.event)}): ${e.reason}. ` +
          `Loaded the ${plural(e.index, "event")} before it.`);
        return;
      }
      setAnswer(await api("/v1/firetower/check", { position: record }));
    });
  }

  function readFile() {
    const file = ui.file.files?.[0];
    if (!file) return;
    file.text().then((text) => {
      ui.file.value = "";
      loadRecord(() => {
        try {
          return JSON.parse(text);
        } catch (e) {
          throw new ApiError(`${file.name}: ${e.message}`);
        }
      }, ui.load);
    });
  }

  function save() {
    if (!state.record) return;
    const blob = new Blob([JSON.stringify(state.record, null, 1) + "\n"], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const a = state.answer;
    const link = html("a", { href: url, download: `firetower-level${state.record.start?.level ?? ""}-turn${a?.turn ?? 0}.json` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  // -------------------------------------------------------------- hint

  function clearHint() {
    state.hint = null;
    ui.hintList.replaceChildren();
    ui.hintInfo.replaceChildren();
  }

  function hint() {
    cardSearch(ui, work, "hint", {
      current,
      path: "/v1/firetower/hint",
      extra: { seed: Math.round(numberFrom(ui.hintSeed, 0, 0)), objective: ui.objective.value },
      answer: showHint,
    });
  }

  function valueText(v, objective) {
    return objective === "score" ? v.toFixed(2) : percent(v, 1);
  }

  function showHint(result, { position }) {
    clearHint();
    const objective = ui.objective.value;
    const best = result.best || result.moves?.[0]?.move || null;
    state.hint = { record: position, result, shown: best };
    const stats = result.stats || {};
    ui.hintInfo.append(`${result.decision}: ${plural(result.moves.length, "move")} (${objective}, seed ${result.seed}` +
      (stats.iterations ? `, ${stats.iterations.toLocaleString("en-US")} iterations` : "") + "). ",
    ...searchSummary(result));
    const revealed = state.answer?.inferno?.revealed || null;
    result.moves.slice(0, LIST_CAP).forEach((h, i) => {
      const [lo, hi] = h.ci95 || [h.value, h.value];
      const value = html("span", { class: "ft-value", title: `${objective}: value, 95% interval and samples` },
        `${valueText(h.value, objective)} [${valueText(lo, objective)}–${valueText(hi, objective)}] n=${h.n.toLocaleString("en-US")}`);
      const li = moveRow(h.move, `${i + 1}. ${moveText(h.move, revealed)}`, { cls: sameMove(h.move, best) ? "selected" : "",
        extra: [value] });
      ui.hintList.append(li);
    });
    if (result.moves.length > LIST_CAP) {
      ui.hintList.append(html("li", { class: "muted static" }, `and ${result.moves.length - LIST_CAP} more`));
    }
    drawOverlay();
    renderMoves();
  }

  // -------------------------------------------------------------- wire

  ui.newGame.addEventListener("click", newGame);
  ui.load.addEventListener("click", () => loadRecord(editor.read, ui.load));
  ui.file.addEventListener("change", readFile);
  ui.save.addEventListener("click", save);
  ui.undo.addEventListener("click", undo);
  ui.restart.addEventListener("click", restart);
  ui.hint.addEventListener("click", hint);
  ui.filter.addEventListener("input", () => renderMoves());
  ui.seed.value = String(randomIndex(1000));

  render();
  newGame();
}
