// Tails on Fire: the table of one round's hunt (hands, the discard pile,
// fire stacks, bonfires, the Rogue's deck and reserve); deal, play by
// clicking a card or Pass, hint (open hands) and the round's end, through
// /v1/tails/*. mount(root, game) is the interface main.js loads a game's view by.
import { ApiError, api, isAbort } from "../lib/api.js";
import { addStyles, fromTemplate, html, refs } from "../lib/dom.js";
import { showMessage } from "../lib/message.js";

addStyles(`
.tails-table { display: grid; gap: 0.6rem; }
.tails-seat { border: 1px solid #d6d3c4; border-radius: 8px; padding: 0.5rem 0.7rem; background: #fffdf6; }
.tails-seat.to-move { border-color: #ea580c; box-shadow: 0 0 0 2px rgba(234,88,12,0.25); }
.tails-seat h4 { margin: 0 0 0.3rem 0; font-size: 0.95rem; }
.tails-cards { display: flex; flex-wrap: wrap; gap: 0.3rem; align-items: center; }
.tails-card { min-width: 2rem; padding: 0.25rem 0.45rem; border: 1px solid #a8a29e; border-radius: 5px;
  background: #fff; text-align: center; font-weight: 600; }
.tails-card.playable { cursor: pointer; border-color: #ea580c; background: #fff7ed; }
.tails-card.best { outline: 3px solid #16a34a; }
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
    <button type="button" data-ref="pass">Pass</button>
    <button type="button" data-ref="hint">Hint</button>
    <button type="button" data-ref="undo">Undo</button>
  </div>
  <div class="status-bar" data-ref="status"></div>
  <div class="tails-table" data-ref="table"></div>
  <table class="tails-hint small" data-ref="hintTable"></table>
  <details><summary>Position JSON</summary>
    <textarea data-ref="json" rows="12" cols="80" spellcheck="false"></textarea>
    <div><button type="button" data-ref="load">Load</button></div>
  </details>
</div>`;

const cardText = (c) => String(c);
const moveKey = (m) => (m.pass ? "pass" : `play ${m.play}`);

export function mount(root, game) {
  root.append(fromTemplate(TEMPLATE));
  const ui = refs(root);
  const state = { start: null, line: [], draws: [], position: null, check: null, hint: null, round: null };
  let controller = null;

  async function call(op, body) {
    if (controller) controller.abort();
    controller = new AbortController();
    try {
      return await api(`/v1/${game?.name || "tails"}/${op}`, body, { signal: controller.signal });
    } catch (e) {
      if (!isAbort(e)) showMessage(e instanceof ApiError ? e.message : String(e));
      return null;
    }
  }

  async function refresh() {
    const replayed = await call("replay", { position: state.start, line: state.line, rogue_draws: state.draws });
    if (!replayed) return;
    state.position = replayed.position;
    state.round = replayed.round;
    state.check = replayed.status === "ongoing" ? await call("check", { position: state.position }) : null;
    state.hint = null;
    render();
  }

  function seatCards(p, i) {
    const row = html("div", { class: "tails-cards" });
    const movable = state.check && state.check.turn === i;
    const legal = new Set((state.check?.moves || []).map(moveKey));
    const best = state.hint?.best ? moveKey(state.hint.best) : null;
    row.append(html("span", { class: "tails-label" }, "hand"));
    for (const c of p.hand) {
      const key = `play ${c}`;
      const node = html("span", { class: "tails-card" }, cardText(c));
      if (movable && legal.has(key)) {
        node.classList.add("playable");
        node.title = "play this card";
        node.addEventListener("click", () => play({ play: c }));
      }
      if (movable && best === key) node.classList.add("best");
      row.append(node);
    }
    const extra = (label, cards) => {
      if (!cards.length) return;
      row.append(html("span", { class: "tails-label" }, label));
      for (const c of cards) row.append(html("span", { class: "tails-card muted" }, cardText(c)));
    };
    extra("den", p.den || []);
    extra("exhausted", p.exhausted || []);
    if (p.bonfire != null) extra("bonfire", [p.bonfire]);
    for (const s of p.stacks || []) {
      const flames = s["fire"].reduce((a, f) => a + f.flames, 0);
      row.append(html("span", { class: "tails-label" }, `stack ${flames} flames`),
        html("span", { class: "tails-card" }, cardText(s.top)));
    }
    return row;
  }

  function render() {
    const p = state.position;
    ui.table.replaceChildren();
    ui.hintTable.replaceChildren();
    if (!p) return;
    ui.json.value = JSON.stringify(state.start, null, 1);
    const top = p.iguana[0];
    let text = `Fire card: start ${top.start}, ${top.flames} flames · ${p.iguana.length} in the iguana pile`;
    if (state.check?.start_number) text += ` · starting number ${state.check.start_number}`;
    if (state.round) {
      const w = state.round.winner;
      text += ` · round over: ${w === null ? "no winner" : w === "rogue" ? "the Rogue wins" : `seat ${w} wins`}` +
        ` · flames ${state.round.flames.join(", ")}`;
    } else if (state.check?.rogue_draw) {
      text += " · the Rogue draws next (hidden deck)";
    } else if (state.check) {
      text += ` · seat ${state.check.turn} to move`;
    }
    ui.status.textContent = text;
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
      seat.append(html("h4", {}, `Seat ${i}${i === p.first ? " (first)" : ""}`), seatCards(pl, i));
      ui.table.append(seat);
    });
    if (p.rogue) {
      const rogue = html("div", { class: "tails-seat" });
      rogue.append(html("h4", {}, `The Rogue · deck ${p.rogue.deck.length} (${p.rogue.order})`));
      const row = html("div", { class: "tails-cards" });
      row.append(html("span", { class: "tails-label" }, "reserve"));
      for (const c of p.rogue.reserve || []) row.append(html("span", { class: "tails-card rogue" }, cardText(c)));
      rogue.append(row);
      ui.table.append(rogue);
    }
    if (state.hint) {
      for (const m of state.hint.moves) {
        const tr = html("tr");
        tr.append(html("td", {}, moveKey(m.move) + (state.hint.best && moveKey(state.hint.best) === moveKey(m.move)
          ? " (best)" : "")), html("td", {}, m.flames ? `flames ${m.flames.join(", ")}` : "unknown"));
        ui.hintTable.append(tr);
      }
    }
    ui.pass.disabled = !(state.check && state.check.moves.length);
  }

  async function play(move) {
    state.line.push(move);
    await refresh();
  }

  async function deal() {
    const made = await call("generate", { seed: Number(ui.seed.value) || 0, players: Number(ui.players.value) || 3 });
    if (!made) return;
    state.start = made.position;
    state.line = [];
    state.draws = [];
    await refresh();
  }

  ui.deal.addEventListener("click", deal);
  ui.pass.addEventListener("click", () => play({ pass: true }));
  ui.undo.addEventListener("click", () => {
    if (state.line.length) state.line.pop();
    refresh();
  });
  ui.hint.addEventListener("click", async () => {
    if (!state.check) return;
    const answer = await call("hint", { position: state.position, limit: { seconds: 5 } });
    if (answer) {
      state.hint = answer;
      render();
    }
  });
  ui.load.addEventListener("click", () => {
    try {
      state.start = JSON.parse(ui.json.value);
    } catch (e) {
      showMessage(`not JSON: ${e.message}`);
      return;
    }
    state.line = [];
    state.draws = [];
    refresh();
  });
  deal();
}
