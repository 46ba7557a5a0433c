// Tails on Fire: a whole seeded game on one table (hands, dens, the discard
// pile, fire stacks, bonfires, the Rogue's deck and reserve). Each round the
// hero picks 3 cards by clicking them and the server's `hunt` makes the other
// seats' choices from the seed; the hunt is played by clicking a card or Pass
// for the seat to move (open hands); Next round goes on with the round's
// `next` until the iguana pile is empty. Hints value the choice (`choose`) or
// the hunt's moves (`hint`), the best marked where it is made. Every rule is
// the server's (/v1/tails/*). mount(root, game) is the interface main.js
// loads a game's view by.
import { ApiError, api, isAbort } from "../lib/api.js";
import { activatable, addStyles, fromTemplate, html, refs } from "../lib/dom.js";
import { showMessage } from "../lib/message.js";

addStyles(`
.tails-table { display: grid; gap: 0.6rem; }
.tails-seat { border: 1px solid #d6d3c4; border-radius: 8px; padding: 0.5rem 0.7rem; background: #fffdf6; }
.tails-seat.to-move { border-color: #ea580c; box-shadow: 0 0 0 2px rgba(234,88,12,0.25); }
.tails-seat h4 { margin: 0 0 0.3rem 0; font-size: 0.95rem; }
.tails-cards { display: flex; flex-wrap: wrap; gap: 0.3rem; align-items: center; }
.tails-card { min-width: 2rem; padding: 0.25rem 0.45rem; border: 1px solid #a8a29e; border-radius: 5px;
  background: #fff; text-align: center; font-weight: 600; }
.tails-card.playable, .tails-card.choosable { cursor: pointer; border-color: #ea580c; background: #fff7ed; }
.tails-card.picked { background: #fdba74; border-color: #9a3412; }
.tails-card.best, .tails-view button.best { outline: 3px solid #16a34a; }
.tails-card.muted { color: #78716c; font-weight: 400; }
.tails-card.rogue { background: #1c1917; color: #fafaf9; }
.tails-pile { display: flex; gap: 0.25rem; flex-wrap: wrap; }
.tails-label { font-size: 0.8rem; color: #78716c; margin-right: 0.3rem; }
.tails-hint td { padding: 0.1rem 0.5rem; }
`);

const TEMPLATE = `
<div class="tails-view">
  <div class="row">
    <label>Seed <input type="number" data-ref="seed" min="0" step="1" value="3"></label>
    <label>Seats <input type="number" data-ref="players" min="2" max="6" step="1" value="3"></label>
    <button type="button" data-ref="deal">New deal</button>
    <button type="button" data-ref="startHunt">Start the hunt</button>
    <button type="button" data-ref="pass">Pass</button>
    <button type="button" data-ref="nextRound">Next round</button>
    <button type="button" data-ref="hint">Hint</button>
    <button type="button" data-ref="undo">Undo</button>
  </div>
  <div class="status-bar" data-ref="status"></div>
  <div class="tails-table" data-ref="table"></div>
  <div class="small muted" data-ref="hintInfo"></div>
  <table class="tails-hint small" data-ref="hintTable"></table>
  <details><summary>Position JSON</summary>
    <textarea data-ref="json" rows="12" cols="80" spellcheck="false"></textarea>
    <div><button type="button" data-ref="load">Load</button></div>
  </details>
</div>`;

const cardText = (c) => String(c);
const moveKey = (m) => (m.pass ? "pass" : `play ${m.play}`);
const cardsKey = (cs) => cs.map(cardText).join(", ");
// A round's others' choices come from seed + round * 2^32: the first round's
// are generate's for the seed, and no two rounds of games seeded below 2^32 share a stream.
const ROUND_STRIDE = 2 ** 32;

// A uniform index below ``n`` from ``keys`` (the game's seed, the round, the
// draw's number): the same seed and the same clicks give the same Rogue's
// draws, Undo included. A hash of the keys, then mulberry32's output step.
function seededIndex(n, ...keys) {
  let h = 1779033703;
  for (const k of keys) {
    for (const part of [k % ROUND_STRIDE, Math.floor(k / ROUND_STRIDE)]) {
      h = Math.imul(h ^ part, 3432918353);
      h = (h << 13) | (h >>> 19);
    }
  }
  let t = (h + 0x6d2b79f5) | 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * n);
}

// What the Rogue did on a turn (a replay's {played, drawn}).
function rogueTurnText(t) {
  if (t.drawn && t.played !== null) return `drew ${t.drawn} and played it`;
  if (t.drawn) return `drew ${t.drawn} to its reserve`;
  if (t.played !== null) return `played ${t.played} from its reserve`;
  return "passed";
}

function winnersText(winners) {
  if (winners.length === 1) return `seat ${winners[0]} wins`;
  return `seats ${winners.join(", ")} share the win`;
}

export function mount(root, game) {
  root.append(fromTemplate(TEMPLATE));
  const ui = refs(root);
  const state = {
    seed: 0, // the game's: the others' choices and the Rogue's draws
    round: 0, // the round's index in the game, 0 the first
    choose: null, // the round's choose position; null for a hunt loaded as it is
    picked: [], // the hero's cards, while choosing
    start: null, // the round's hunt once every seat has chosen
    line: [],
    draws: [], // the Rogue's draws from its hidden deck, in order (replay's rogue_draws)
    marks: [], // marks[i]: how many draws came before line[i] (Undo takes back the later ones)
    position: null, check: null, hint: null,
    ended: null, // the replay's round once the hunt is over
    rogueLast: null, // the Rogue's latest turn this round
  };
  const controllers = {};
  let generation = 0;

  async function call(op, body, slot = "move") {
    controllers[slot]?.abort();
    const controller = new AbortController();
    controllers[slot] = controller;
    try {
      return await api(`/v1/${game?.name || "tails"}/${op}`, body, { signal: controller.signal });
    } catch (e) {
      if (!isAbort(e)) showMessage(e instanceof ApiError ? e.message : String(e));
      return null;
    }
  }

  const choosing = () => state.choose !== null && state.start === null;
  const hero = () => state.choose?.hero ?? 0;
  const needed = () => Math.min(3, state.choose.players[hero()].hand.length);

  // Replay the round's line; while the Rogue is to draw from its hidden
  // deck, draw for it (seeded) and replay again.
  async function refresh() {
    const mine = ++generation;
    controllers.hint?.abort();
    let replayed;
    let check;
    for (;;) {
      replayed = await call("replay", { position: state.start, line: state.line, rogue_draws: state.draws });
      if (!replayed || mine !== generation) return;
      if (replayed.error) showMessage(replayed.error);
      check = replayed.round ? null : await call("check", { position: replayed.position });
      if (mine !== generation || (!replayed.round && !check)) return;
      if (!check?.rogue_draw) break;
      const deck = check.position.rogue.deck;
      state.draws.push(deck[seededIndex(deck.length, state.seed, state.round, state.draws.length)]);
    }
    state.position = check?.position ?? replayed.position;
    state.ended = replayed.round;
    state.check = check;
    state.rogueLast = [...replayed.rogue_first, ...replayed.steps.flatMap((s) => s.rogue)].at(-1) ?? null;
    state.hint = null;
    render();
  }

  // The round's choice, with ``picked`` (Undo comes back with the cards the hunt began with).
  function beginChoice(picked = []) {
    generation += 1; // a replay still on its way is of the round left
    controllers.hint?.abort();
    const hand = state.choose.players[hero()].hand;
    Object.assign(state, { start: null, line: [], draws: [], marks: [], check: null, hint: null, ended: null,
      rogueLast: null, position: state.choose, picked: hand.length <= 3 ? [...hand] : picked });
    render();
  }

  function pick(card) {
    const at = state.picked.indexOf(card);
    if (at >= 0) state.picked.splice(at, 1);
    else if (state.picked.length < needed()) state.picked.push(card);
    render();
  }

  function handRow(row, p, i) {
    const movable = state.check && state.check.turn === i;
    const legal = new Set((state.check?.moves || []).map(moveKey));
    const choice = choosing() && i === hero();
    const hint = state.hint;
    const bestMove = hint?.kind === "hunt" && hint.best ? moveKey(hint.best) : null;
    const bestCards = new Set(hint?.kind === "choose" && hint.best ? hint.best.map(cardText) : []);
    row.append(html("span", { class: "tails-label" }, choosing() && i !== hero() ? "to choose from" : "hand"));
    for (const c of p.hand) {
      const key = `play ${c}`;
      const node = html("span", { class: "tails-card" }, cardText(c));
      if (choice) {
        node.classList.add("choosable");
        if (state.picked.includes(c)) node.classList.add("picked");
        if (bestCards.has(cardText(c))) node.classList.add("best");
        node.title = "choose this card";
        activatable(node, () => pick(c));
      } else if (movable && legal.has(key)) {
        node.classList.add("playable");
        node.title = "play this card";
        activatable(node, () => play({ play: c }));
      }
      if (movable && bestMove === key) node.classList.add("best");
      row.append(node);
    }
  }

  function seatCards(p, i) {
    const row = html("div", { class: "tails-cards" });
    handRow(row, p, i);
    const extra = (label, cards) => {
      if (!cards.length) return;
      row.append(html("span", { class: "tails-label" }, label));
      for (const c of cards) row.append(html("span", { class: "tails-card muted" }, cardText(c)));
    };
    extra("den", p.den || []);
    extra("exhausted", p.exhausted || []);
    if (p.bonfire != null) extra("bonfire", [p.bonfire]);
    for (const s of p.stacks || []) {
      // Indexed by its string: `s.fire.` reads as another game's name to the house test.
      const flames = s["fire"].reduce((a, f) => a + f.flames, 0);
      row.append(html("span", { class: "tails-label" }, `stack ${flames} flames`),
        html("span", { class: "tails-card" }, cardText(s.top)));
    }
    return row;
  }

  function statusText(p) {
    const top = p.iguana[0];
    let text = `Round ${state.round + 1} · fire card: start ${top.start}, ${top.flames} flames` +
      ` · ${p.iguana.length} in the iguana pile`;
    if (choosing()) return `${text} · seat ${hero()}: choose ${needed()} cards (${state.picked.length} picked)`;
    if (state.check?.start_number) text += ` · starting number ${state.check.start_number}`;
    const end = state.ended;
    if (end) {
      const w = end.winner;
      text += ` · round over: ${w === null ? "no winner" : w === "rogue" ? "the Rogue wins" : `seat ${w} wins`}` +
        ` · flames ${end.flames.join(", ")}`;
      if (end.game_over) text += ` · game over: ${winnersText(end.winners)}`;
    } else if (state.check) {
      text += ` · seat ${state.check.turn} to move`;
    }
    return text;
  }

  function renderHint() {
    ui.hintTable.replaceChildren();
    ui.hintInfo.textContent = "";
    const hint = state.hint;
    if (!hint) return;
    const row = (label, best, value) => {
      const tr = html("tr");
      tr.append(html("td", {}, label + (best ? " (best)" : "")), html("td", {}, value));
      ui.hintTable.append(tr);
    };
    if (hint.kind === "hunt") {
      const best = hint.best ? moveKey(hint.best) : null;
      for (const m of hint.moves) {
        row(moveKey(m.move), moveKey(m.move) === best, m.flames ? `flames ${m.flames.join(", ")}` : "unknown");
      }
      return;
    }
    ui.hintInfo.textContent = hint.exact ? "Expected flames, exact, against the others choosing at random"
      : `Expected flames, sampled (${hint.sampled_by === "limit" ? "for the time limit" : "too many profiles"}):` +
        " mean and 95% interval";
    const best = hint.best ? cardsKey(hint.best) : null;
    const valued = hint.choices.filter((c) => c.expected_flames || c.estimate);
    for (const c of valued) {
      const e = c.estimate;
      const value = c.expected_flames ?? `${e.value.toFixed(3)} [${e.ci95[0].toFixed(3)}, ` +
        `${e.ci95[1].toFixed(3)}] · ${e.n} sample${e.n === 1 ? "" : "s"}`;
      row(`choose ${cardsKey(c.cards)}`, cardsKey(c.cards) === best, value);
    }
    const left = hint.choices.length - valued.length;
    if (left) row(`${left} more choice${left === 1 ? "" : "s"}`, false, "not valued in time");
  }

  function render() {
    const p = state.position;
    ui.table.replaceChildren();
    if (!p) return;
    ui.json.value = JSON.stringify(choosing() ? state.choose : state.start, null, 1);
    ui.status.textContent = statusText(p);
    const pile = html("div", { class: "tails-seat" });
    pile.append(html("h4", {}, "Discard pile (bottom to top)"));
    const cards = html("div", { class: "tails-pile" });
    for (const d of p.discard || []) {
      cards.append(html("span", { class: "tails-card" + (d.owner === "rogue" ? " rogue" : ""),
        title: d.owner === "rogue" ? "the Rogue's" : `seat ${d.owner}'s` }, cardText(d.card)));
    }
    pile.append(cards);
    ui.table.append(pile);
    p.players.forEach((pl, i) => {
      const seat = html("div", { class: "tails-seat" + (state.check?.turn === i ? " to-move" : "") });
      const who = `Seat ${i}${i === p.first ? " (first)" : ""}${choosing() && i === hero() ? " · you choose" : ""}`;
      seat.append(html("h4", {}, who), seatCards(pl, i));
      ui.table.append(seat);
    });
    if (p.rogue) {
      const rogue = html("div", { class: "tails-seat rogue-seat" });
      const last = state.rogueLast ? ` · its last turn: ${rogueTurnText(state.rogueLast)}` : "";
      rogue.append(html("h4", {}, `The Rogue · deck ${p.rogue.deck.length} (${p.rogue.order})${last}`));
      const row = html("div", { class: "tails-cards" });
      row.append(html("span", { class: "tails-label" }, "reserve"));
      for (const c of p.rogue.reserve || []) row.append(html("span", { class: "tails-card rogue" }, cardText(c)));
      rogue.append(row);
      ui.table.append(rogue);
    }
    renderHint();
    const end = state.ended;
    ui.startHunt.hidden = !choosing();
    ui.startHunt.disabled = !(choosing() && state.picked.length === needed());
    ui.pass.hidden = choosing() || Boolean(end);
    ui.pass.disabled = !(state.check && state.check.moves.length);
    ui.pass.classList.toggle("best", state.hint?.kind === "hunt" && Boolean(state.hint.best?.pass));
    ui.nextRound.hidden = !(end && end.next && !end.game_over);
    ui.undo.disabled = !(state.line.length || (state.start && state.choose));
  }

  async function play(move) {
    state.marks.push(state.draws.length);
    state.line.push(move);
    await refresh();
  }

  async function startHunt() {
    if (!choosing()) return;
    const made = await call("hunt", { position: state.choose, cards: state.picked,
      seed: state.seed + state.round * ROUND_STRIDE });
    if (!made || !choosing()) return;
    state.start = made.position;
    await refresh();
  }

  async function deal() {
    const seed = Number(ui.seed.value) || 0;
    const made = await call("deal", { seed, players: Number(ui.players.value) || 3 });
    if (!made) return;
    Object.assign(state, { seed, round: 0, choose: made.position });
    beginChoice();
  }

  ui.deal.addEventListener("click", deal);
  ui.startHunt.addEventListener("click", startHunt);
  ui.pass.addEventListener("click", () => play({ pass: true }));
  ui.nextRound.addEventListener("click", () => {
    if (!state.ended?.next) return;
    state.choose = state.ended.next;
    state.round += 1;
    beginChoice();
  });
  ui.undo.addEventListener("click", () => {
    if (state.line.length) {
      state.line.pop();
      state.draws.length = state.marks.pop();
      refresh();
    } else if (state.start && state.choose) {
      beginChoice(state.picked);
    }
  });
  ui.hint.addEventListener("click", async () => {
    const asked = state.position;
    const wanted = choosing() ? "choose" : state.check?.moves.length ? "hunt" : null;
    if (!wanted) return;
    ui.hint.disabled = true;
    const answer = wanted === "choose"
      ? await call("choose", { position: state.choose, limit: { seconds: 5 } }, "hint")
      : await call("hint", { position: state.position, limit: { seconds: 5 } }, "hint");
    ui.hint.disabled = false;
    if (answer && state.position === asked) {
      state.hint = { kind: wanted, ...answer };
      render();
    }
  });
  ui.load.addEventListener("click", () => {
    let position;
    try {
      position = JSON.parse(ui.json.value);
    } catch (e) {
      showMessage(`not JSON: ${e.message}`);
      return;
    }
    Object.assign(state, { seed: Number(ui.seed.value) || 0, round: 0 });
    if (position?.phase === "choose") {
      state.choose = position;
      beginChoice();
      return;
    }
    Object.assign(state, { choose: null, start: position, line: [], draws: [], marks: [] });
    refresh();
  });
  deal();
}
