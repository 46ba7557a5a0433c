// Fire!: the aliens, weapons and piles of a position; reveals, moves,
// hints and solves through /v1/fire/*.
// mount(root, game) is the interface main.js loads a game's view by.
import { ApiError, api } from "../lib/api.js";
import { cardSearch, hintCard, jsonCard, jsonEditor, layout, legend, solveCard, underBoard } from "../lib/cards.js";
import { activatable, addStyles, badge, fromTemplate, html, refs } from "../lib/dom.js";
import { percent, plural } from "../lib/format.js";
import { hintRows } from "../lib/hints.js";
import { showOutcome } from "../lib/message.js";
import { checkHistory, randomIndex } from "../lib/play.js";
import { searchSummary } from "../lib/stats.js";
import { setStatus } from "../lib/status.js";
import { worker } from "../lib/work.js";

addStyles(`
.badge.reveal { background: #1d5fa8; }
.badge.decision { background: #a16207; }

.aliens { display: flex; flex-wrap: wrap; gap: 8px; }
.alien { flex: 1 1 150px; max-width: 260px; padding: 6px 8px; border: 1px solid #e5b48f; border-radius: 8px; background: #fff7ef; }
.alien-head { display: flex; justify-content: space-between; align-items: baseline; gap: 8px; }
.alien.dead { background: #f1f0ee; border-color: var(--line); color: var(--muted); filter: grayscale(1); opacity: 0.7; }
.alien.targeted, .weapon.hinted { box-shadow: 0 0 0 3px var(--water); }
.track { display: flex; gap: 3px; margin: 4px 0 2px; }
.cell {
  flex: 1; min-width: 2.2em; text-align: center; padding: 2px 0; border: 1px solid #d9c2ae; border-radius: 4px;
  background: #fff; font-weight: 600; font-variant-numeric: tabular-nums;
}
.cell.hit { background: #e9e4de; color: #a8a29e; text-decoration: line-through; border-style: dashed; }
.cell.next { background: #fde68a; border: 2px solid var(--accent); color: #7c2d12; }

.turn-box {
  display: flex; flex-wrap: wrap; align-items: center; gap: 10px; margin-top: 10px; padding: 8px 10px;
  border: 1px solid #f5d08a; background: #fff7e6; border-radius: 8px; min-height: 52px;
}
.turn-text { flex: 1 1 14em; display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
.turn-label { font-weight: 600; text-transform: capitalize; }
.reveal-button { font-weight: 600; padding: 6px 18px; }

.weapons { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(190px, 100%), 1fr)); gap: 8px; }
.weapon { padding: 6px 8px; border: 1px solid var(--line); border-radius: 8px; background: #fcfbf9; min-width: 0; }
.weapon.droppable { cursor: pointer; border-color: #e0a060; background: #fffaf3; }
.weapon.droppable:hover { box-shadow: 0 0 0 2px #f3b27a; }
.weapon.selected { box-shadow: 0 0 0 3px var(--accent); }
.weapon-head { font-weight: 600; margin-bottom: 4px; }
.weapon-head .hint-tag { margin-left: 6px; font-weight: 400; color: var(--water); }
.weapon-batteries { display: flex; flex-wrap: wrap; gap: 3px; min-height: 36px; align-items: center; }
.meter {
  position: relative; height: 10px; margin: 6px 0 3px; border-radius: 5px; border: 1px solid var(--line); overflow: hidden;
  background: repeating-linear-gradient(90deg, #ece6de 0 calc(10% - 1px), #fff calc(10% - 1px) 10%);
}
.meter-fill { position: absolute; left: 0; top: 0; bottom: 0; background: #f59e0b; }
.meter-add { position: absolute; top: 0; bottom: 0; background: repeating-linear-gradient(45deg, #fcd34d 0 4px, #fde68a 4px 8px); }
.meter-add.fires { background: repeating-linear-gradient(45deg, #ef4444 0 4px, #fca5a5 4px 8px); }
.charge { color: var(--muted); }
.shot-preview { margin-top: 2px; color: #7c5a12; }
.shot-preview.fires { color: var(--loss); font-weight: 600; }

.players { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(300px, 100%), 1fr)); gap: 10px; }
.player { padding: 8px; border: 1px solid var(--line); border-radius: 8px; background: #fff; min-width: 0; }
.player.on-turn { border: 2px solid var(--accent); box-shadow: 0 0 0 3px #fde3cc; }
.player-head { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin-bottom: 6px; }
.player-head .badge { min-width: 0; }
.player .weapons { grid-template-columns: repeat(auto-fill, minmax(min(130px, 100%), 1fr)); }
.player .piles { margin-top: 8px; }

.piles { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(170px, 100%), 1fr)); gap: 8px; }
.pile { padding: 4px 6px; border: 1px dashed var(--line); border-radius: 6px; min-width: 0; }
.pile-head { display: flex; align-items: baseline; gap: 6px; flex-wrap: wrap; margin-bottom: 3px; }
.pile-head .count { font-variant-numeric: tabular-nums; font-weight: 600; background: #efe9e1; border-radius: 999px; padding: 0 7px; }
.pile.destroyed .battery { opacity: 0.55; text-decoration: line-through; }
.chips { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; }
.chip-b { display: inline-flex; align-items: center; gap: 2px; }
.chip-b .times { font-size: 12px; color: var(--muted); font-variant-numeric: tabular-nums; }
.chip-b .ord { font-size: 10px; color: var(--muted); }
.chip-b.first .battery { box-shadow: 0 0 0 2px #1d5fa8; }

.battery {
  display: inline-flex; flex-direction: column; align-items: center; justify-content: center; min-width: 26px; height: 34px;
  padding: 1px 3px; border-radius: 4px; border: 1px solid rgba(0,0,0,0.25); line-height: 1; vertical-align: middle; color: #3b1d06;
}
.battery b { font-size: 15px; }
.battery i { font-style: normal; font-size: 10px; letter-spacing: -1px; color: #1f2937; }
.battery.e1 { background: #fef9c3; }
.battery.e2 { background: #fde68a; }
.battery.e3 { background: #fcd34d; }
.battery.e4 { background: #fb923c; }
.battery.e5 { background: #ef4444; color: #fff; }
.battery.e5 i { color: #fff; }
.battery.tiny { height: 22px; min-width: 20px; flex-direction: row; gap: 2px; padding: 0 3px; }
.battery.tiny b { font-size: 12px; }
.battery.big { height: 44px; min-width: 36px; }
.battery.big b { font-size: 20px; }
.legend .battery.tiny { margin-right: 2px; }

.legal-moves { max-height: 220px; }
.moves li.hinted { box-shadow: inset 3px 0 0 var(--water); }
.moves li.group { margin-top: 6px; background: #f7f3ee; }
.moves li.group:hover { background: #f7f3ee; }
.moves li.group .if { font-weight: 600; }
.moves li.sub { padding-left: 22px; color: #4b4540; }
.strategy { margin-top: 4px; display: flex; align-items: center; gap: 6px; flex-wrap: wrap; }
.info { margin: 4px 0; }
.info .assumed { margin-top: 2px; font-style: italic; }
.hint-value { display: inline; margin-right: 4px; color: var(--ink); }

.prob { display: inline-flex; align-items: center; gap: 6px; white-space: nowrap; font-variant-numeric: tabular-nums; }
.prob .pnum { font-weight: 600; }
.prob.inexact .pnum { color: #7c5a12; font-weight: 500; }
.pbar { position: relative; display: inline-block; width: 54px; height: 8px; border-radius: 4px; background: #ece6de; overflow: hidden; }
.pbar-low { position: absolute; left: 0; top: 0; bottom: 0; background: var(--win); }
.pbar-range { position: absolute; top: 0; bottom: 0; background: repeating-linear-gradient(45deg, #86c79a 0 3px, #cde9d5 3px 6px); }
.hint-list .prob { flex: none; }
`);

const TEMPLATE = layout(`
    <div class="section">
      <h3>Aliens <span class="muted small" data-ref="aliensInfo"></span></h3>
      <div class="aliens" data-ref="aliens"></div>
    </div>

    <div class="turn-box">
      <div class="turn-text" data-ref="turn"></div>
      <button type="button" class="reveal-button" data-ref="reveal" disabled title="Draw a battery at random from the draw pile">Reveal</button>
    </div>

    <div class="section">
      <h3>Weapons <span class="muted small">(at a decision, click a weapon to put the revealed battery on it)</span></h3>
      <div data-ref="weapons"></div>
    </div>

    <div class="section" data-ref="piles"></div>

    <div class="section">
      <h3>Legal moves <span class="muted small" data-ref="movesInfo"></span></h3>
      <ol class="moves legal-moves" data-ref="moves"></ol>
      <div class="strategy small" data-ref="strategy"></div>
    </div>
    ${underBoard(`<div class="last-move muted" data-ref="last">Start a level or load a position.</div>`,
      `<button type="button" data-ref="strategyMove" disabled title="What the fixed strategy plays here">Strategy move</button>`)}
    ${legend(
      `<span><span class="battery e3 tiny"><b>3</b><i>✛</i></span> energy and crosshairs</span>`,
      `<span>fires at 10+ energy: damage (energy − 10) × crosshairs</span>`,
      `<span>hits: the next strengths whose sum fits</span>`)}`,
  jsonCard("Level", `
      <div class="row">
        <label title="The full level (5 aliens) cannot be solved exactly in seconds">Aliens
          <select data-ref="aliensCount">
            <option selected>1</option><option>2</option><option>3</option><option>4</option><option>5</option>
          </select></label>
        <label class="check" title="Deal the deck in an order you can see (the first battery is the next)"><input type="checkbox" data-ref="known"> known order</label>
      </div>
      <div class="row">
        <button type="button" data-ref="newSolo">New solo Level 1</button>
        <button type="button" data-ref="newTeam">New team Level 1</button>
      </div>
      <div class="small muted info" data-ref="levelInfo"></div>`),
  hintCard({ seconds: 3, step: 0.5, info: "info" }),
  solveCard({ seconds: 5 }));

const FIRES_AT = 10;

const energyOf = (pile) => pile.reduce((s, b) => s + b.energy, 0);
const crosshairsOf = (pile) => pile.reduce((s, b) => s + b.crosshairs, 0);
const batteryKey = (b) => `${b.energy},${b.crosshairs}`;
const normMove = (m) => ({ weapon: m.weapon ?? null, target: m.target ?? null,
  destroy: m.destroy ? { energy: m.destroy.energy, crosshairs: m.destroy.crosshairs } : null, give: !!m.give });
const sameMove = (a, b) => !!a && !!b && JSON.stringify(normMove(a)) === JSON.stringify(normMove(b));

// A win probability: exact, or the proved interval when the search
// stopped (its win_probability is then null, never a value to show).
function valueText(v) {
  if (v.exact) return percent(v.win_probability);
  const [lo, hi] = v.interval;
  return `[${percent(lo)}, ${percent(hi)}] (not exact)`;
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

const crosshairText = (n) => (n <= 3 ? "✛".repeat(n) : `${n}✛`);

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
    return p.players.map((pl, i) => ({ ...pl, index: i, name: `Player ${i + 1}`, order_known: pl.order_known ?? p.order_known }));
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

const STATUS_TEXT = {
  win: () => "Every alien is destroyed: won.",
  loss: () => "Lost: nothing left to draw, and no weapon can fire.",
  reveal: (p) => `${p.mode === "team" ? `Player ${p.turn + 1}: r` : "R"}eveal the next battery.`,
  decision: (p) => `${p.mode === "team" ? `Player ${p.turn + 1}: p` : "P"}ut the revealed battery on a weapon.`,
};

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

function pilesNode(side) {
  const box = html("div", { class: "piles" });
  const known = side.order_known;
  box.append(
    pileNode("Draw pile", side.draw, { ordered: known, note: known ? "known order: first is next" : "hidden order" }),
    pileNode("Discard", side.discard, { note: "reshuffled when the draw pile runs out" }),
    pileNode("Destroyed", side.destroyed, { note: "out for this level", cls: "destroyed" }));
  return box;
}

export function mount(root) {
  root.append(fromTemplate(TEMPLATE));
  const ui = refs(root);
  const editor = jsonEditor(ui, { format: formatPosition, current: () => state.position });

  const state = {
    position: null,     // the current position (after anything automatic)
    check: null,        // its CheckResult: status and every legal move
    initial: null,      // the CheckResult the game started from (Restart)
    history: [],        // [{check, last}] for Undo
    last: null,         // what led here: {reveal, who} or {move, before}
    filter: null,       // a weapon whose moves alone are listed (it fires: pick target and battery)
    strategy: null,     // {position, move} the fixed strategy's move here
    hinted: null,       // the move of the hint row hovered or selected
  };
  const work = worker(() => renderButtons());
  const record = checkHistory(state, setPosition); // new games, Undo and Restart

  // ------------------------------------------------------------- views

  function renderStatus() {
    if (!state.check) {
      ui.status.textContent = "No position loaded.";
      return;
    }
    const p = state.position;
    const alive = p.aliens.filter((a) => a.hits < 4).length;
    setStatus(ui.status, { status: state.check.status, text: [STATUS_TEXT[state.check.status](p)],
      extra: ` ${p.mode === "team" ? "Team" : "Solo"} · ${alive} of ${plural(p.aliens.length, "alien")} alive · ` +
        `${p.order_known ? "known order" : "hidden order"}` });
  }

  function renderAliens() {
    ui.aliens.replaceChildren();
    const p = state.position;
    if (!p) return;
    p.aliens.forEach((a, i) => {
      const dead = a.hits >= 4;
      const card = html("div", { class: "alien" + (dead ? " dead" : "") });
      if (state.hinted && state.hinted.target === i) card.classList.add("targeted");
      const head = html("div", { class: "alien-head" });
      head.append(html("b", {}, `Alien ${i + 1}`),
        html("span", { class: "small muted" }, dead ? "destroyed" : `${a.hits}/4 hits`));
      const track = html("div", { class: "track" });
      a.strengths.forEach((v, k) => {
        const cls = k < a.hits ? "cell hit" : k === a.hits ? "cell next" : "cell";
        track.append(html("span", { class: cls, title: k < a.hits ? "hit taken" : k === a.hits
          ? `next hit: needs ${v} damage` : `strength ${v}` }, String(v)));
      });
      card.append(head, track);
      if (!dead) {
        let sum = 0;
        const need = [];
        for (let k = a.hits; k < 4; k++) need.push((sum += a.strengths[k]));
        card.append(html("div", { class: "small muted", title: "damage for 1, 2, ... more hits" },
          `hits at ${need.join(" · ")} damage`));
      }
      ui.aliens.append(card);
    });
  }

  function renderTurn() {
    const box = ui.turn;
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
      box.append(html("span", { class: "turn-label" }, `${who}reveal`),
        html("span", { class: "muted" }, ` each of the ${plural(side.draw.length, "battery")} in the draw pile is equally likely next`));
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
    const card = html("div", { class: "weapon", "data-weapon": String(w) });
    if (moves.length) card.classList.add("droppable");
    if (state.filter === w && onTurnSide) card.classList.add("selected");
    const head = html("div", { class: "weapon-head" }, `Weapon ${w + 1}`);
    if (onTurnSide && state.hinted && !state.hinted.give && state.hinted.weapon === w) {
      card.classList.add("hinted");
      head.append(html("span", { class: "small hint-tag" }, "the hint's move"));
    }
    card.append(head);
    const pile = html("div", { class: "weapon-batteries" });
    if (weapon.length) weapon.forEach((b) => pile.append(batteryNode(b)));
    else pile.append(html("span", { class: "muted small" }, "empty"));
    card.append(pile);

    const meter = html("div", { class: "meter", title: `${energy} of ${FIRES_AT} energy` });
    const fill = html("span", { class: "meter-fill" });
    const filled = Math.min(100, (100 * energy) / FIRES_AT);
    fill.style.width = `${filled}%`;
    meter.append(fill);
    let preview = null;
    if (moves.length) {
      preview = shot(p, w);
      const add = html("span", { class: "meter-add" + (preview.fires ? " fires" : "") });
      add.style.left = fill.style.width;
      add.style.width = `${Math.max(0, Math.min(100, (100 * preview.energy) / FIRES_AT) - filled)}%`;
      meter.append(add);
    }
    card.append(meter);
    card.append(html("div", { class: "small charge", title: `fires at ${FIRES_AT}+ energy: damage (energy − ${FIRES_AT}) × crosshairs` },
      `${energy}/${FIRES_AT} energy · ${crosshairs}✛ · fires with ${FIRES_AT - energy}+ more`));
    if (preview) {
      const r = p.revealed;
      card.append(html("div", { class: "small shot-preview" + (preview.fires ? " fires" : "") }, preview.fires
        ? `+${r.energy} → ${preview.energy} energy, ${preview.crosshairs}✛: fires, ${preview.damage} damage`
        : `+${r.energy} → ${preview.energy}/${FIRES_AT} energy, ${preview.crosshairs}✛: holds`));
      card.title = moves.length === 1 ? "Click to put the revealed battery here"
        : "Click to choose the target and the battery to destroy";
      activatable(card, () => {
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

  function renderBoard() {
    ui.weapons.replaceChildren();
    ui.piles.replaceChildren();
    const p = state.position;
    if (!p) return;
    const turnSide = onTurn(p);
    if (p.mode !== "team") {
      const row = html("div", { class: "weapons" });
      p.weapons.forEach((_, w) => row.append(weaponNode(p, turnSide, w, true)));
      ui.weapons.append(row);
      ui.piles.append(pilesNode(turnSide));
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
      panel.append(row, pilesNode(side));
      grid.append(panel);
    }
    ui.weapons.append(grid);
  }

  function renderMoves() {
    const list = ui.moves;
    list.replaceChildren();
    const info = ui.movesInfo;
    info.replaceChildren();
    const c = state.check;
    if (!c) return;
    if (c.status !== "decision") {
      list.append(html("li", { class: "muted static" }, c.status === "reveal" ? "Reveal a battery first." : "The game is over."));
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
      if (sameMove(state.hinted, m)) li.classList.add("hinted");
      li.append(moveNode(m, p));
      list.append(activatable(li, () => play(m)));
    }
  }

  function renderStrategy() {
    const box = ui.strategy;
    box.replaceChildren();
    const s = state.strategy;
    if (!s || s.position !== state.position) return;
    const playIt = html("button", { type: "button", class: "secondary small-button" }, "Play it");
    playIt.addEventListener("click", () => play(s.move));
    box.append("Fixed strategy: ", moveNode(s.move, s.position), " ", playIt);
  }

  function renderLast() {
    const box = ui.last;
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
    ui.reveal.disabled = !idle || !c || c.status !== "reveal";
    ui.strategyMove.disabled = !idle || !c || c.status !== "decision";
    ui.undo.disabled = !idle || state.history.length === 0;
    ui.restart.disabled = !idle || !state.initial || state.history.length === 0;
    ui.hint.disabled = !idle || !c;
    ui.solve.disabled = !idle || !c;
    for (const b of [ui.newSolo, ui.newTeam, ui.load]) b.disabled = !idle;
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

  // -------------------------------------------------------------- game

  function setPosition(check, last) {
    state.check = check;
    state.position = check.position;
    state.last = last;
    state.filter = null;
    state.strategy = null;
    clearHint();
    clearSolve();
    editor.show(check.position);
    render();
    showOutcome(check.status, { win: "Won: every alien is destroyed.", loss: "Lost: the piles are empty and no weapon can fire." });
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
    return work.run(ui.undo, null, async () => {
      const before = state.position;
      const after = await api("/v1/fire/apply", { position: before, move });
      record.advance(after, { move, before });
    });
  }

  function reveal() {
    if (work.busy || !state.check || state.check.status !== "reveal") return;
    work.run(ui.reveal, "Revealing…", async () => {
      const p = state.position;
      const side = onTurn(p);
      if (!side.draw.length) throw new ApiError("The draw pile is empty.");
      // Uniform over the batteries in the pile (the multiset is open).
      const battery = side.draw[randomIndex(side.draw.length)];
      const result = await api("/v1/fire/replay", { position: p, steps: [{ reveal: battery }] });
      if (result.error) throw new ApiError(`Reveal: ${result.error}`);
      record.advance(await checked(result), { reveal: battery, who: p.mode === "team" ? `${side.name} ` : "" });
    });
  }

  function strategyMove() {
    if (!state.check || state.check.status !== "decision") return;
    work.run(ui.strategyMove, "Asking…", async () => {
      const position = state.position;
      const move = await api("/v1/fire/strategy-move", { position });
      if (position !== state.position) return;
      state.strategy = { position, move };
      render();
    });
  }

  // ------------------------------------------------------------- level

  function newLevel(id, button) {
    work.run(button, "Dealing…", async () => {
      const aliens = Number(ui.aliensCount.value) || 1;
      const params = new URLSearchParams({ aliens: String(aliens) });
      const seed = ui.known.checked ? randomIndex(2 ** 32) : null;
      if (seed !== null) params.set("seed", String(seed));
      const data = await api(`/v1/fire/levels?${params}`);
      const entry = data.levels.find((l) => l.id === id);
      if (!entry) throw new ApiError(`the server has no level ${id}`);
      const check = await api("/v1/fire/check", { position: entry.position });
      ui.levelInfo.replaceChildren(
        html("div", {}, `${entry.level.name}: ${aliens} of ${plural(entry.level.aliens.length, "alien")}, ` +
          (seed === null ? "hidden order" : `known order (seed ${seed})`) + "."),
        html("div", { class: "assumed" }, "Assumed (not printed in the rulebook): " + entry.level.assumptions.join("; ") + "."));
      record.start(check);
    });
  }

  function load() {
    work.run(ui.load, "Loading…", async () => {
      const check = await api("/v1/fire/check", { position: editor.read() });
      ui.levelInfo.textContent = "Loaded from JSON.";
      record.start(check);
    });
  }

  // -------------------------------------------------------------- hint

  function clearHint() {
    state.hinted = null;
    ui.hintList.replaceChildren();
    ui.hintInfo.replaceChildren();
  }

  function choiceNodes(c, p) {
    const nodes = [valueNode(c), moveNode(c.move, p)];
    if (c.equivalent.length) {
      nodes.push(html("span", { class: "eq small muted", title: "Other moves that reach the same state" },
        `+${c.equivalent.length} equiv.`));
    }
    return nodes;
  }

  function hint() {
    cardSearch(ui, work, "hint", { current: () => state.position, path: "/v1/fire/hint", answer: showHintResult });
  }

  function showHintResult(result) {
    clearHint();
    const stats = html("div");
    stats.append(...searchSummary(result));
    ui.hintInfo.append(html("div", { class: "hint-value" }, "Win probability here: "), valueNode(result), stats);
    const list = ui.hintList;
    const p = result.position;
    if (result.status === "decision") {
      hintRows(list, result.moves, {
        row(c, playButton) {
          const li = html("li");
          li.append(...choiceNodes(c, p), playButton);
          return li;
        },
        show(c) {
          state.hinted = c ? c.move : null;
          render();
        },
        play: (c) => play(c.move),
      });
    } else if (result.status === "reveal") {
      const n = onTurn(p).draw.length;
      for (const r of result.reveals) {
        const head = html("li", { class: "group static", title: "If this battery comes up" });
        const count = Math.round(r.probability * n);
        head.append(html("span", { class: "if" }, "if"), batteryNode(r.battery),
          html("span", { class: "small" }, `comes up (${count} of ${n}, ${percent(r.probability)})`), valueNode(r));
        list.append(head);
        const rp = { ...p, revealed: r.battery };
        for (const c of r.moves) {
          const li = html("li", { class: "static sub", title: "The choices if this battery comes up" });
          li.append(...choiceNodes(c, rp));
          list.append(li);
        }
      }
    } else {
      list.append(html("li", { class: "static muted" }, `The game is over (${result.status}).`));
    }
  }

  // ------------------------------------------------------------- solve

  function clearSolve() {
    ui.solveVerdict.replaceChildren();
    ui.solveStats.replaceChildren();
  }

  function solve() {
    cardSearch(ui, work, "solve", { current: () => state.position, path: "/v1/fire/solve", answer: showSolveResult });
  }

  function showSolveResult(result) {
    clearSolve();
    ui.solveVerdict.append("Win probability under optimal play: ", valueNode(result));
    const certain = { true: "won whatever the reveals", false: "some reveals lose against any play" };
    if (result.won_for_certain !== null) ui.solveVerdict.append(` (${certain[result.won_for_certain]})`);
    ui.solveStats.append(...searchSummary(result, `${result.stats.states_stored.toLocaleString()} states stored`));
  }

  // -------------------------------------------------------------- wire

  ui.newSolo.addEventListener("click", () => newLevel("solo-1", ui.newSolo));
  ui.newTeam.addEventListener("click", () => newLevel("team-1", ui.newTeam));
  ui.load.addEventListener("click", load);
  ui.reveal.addEventListener("click", reveal);
  ui.strategyMove.addEventListener("click", strategyMove);
  ui.undo.addEventListener("click", record.undo);
  ui.restart.addEventListener("click", record.restart);
  ui.hint.addEventListener("click", hint);
  ui.solve.addEventListener("click", solve);

  render();
  newLevel("solo-1", ui.newSolo); // a small solo level to start with
}
