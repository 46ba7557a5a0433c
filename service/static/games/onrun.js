// On the Run!: a position on the hex forest; check, play, hint and solve
// through /v1/onrun/*. mount(root, game) is the interface main.js loads a
// game's view by. A first, plain view: the forest, edge pawns by colour,
// flashpoints, and the legal moves (valued by a hint) as buttons to play.
import { api } from "../lib/api.js";
import { setStatus } from "../lib/status.js";

const COLOURS = ["#2563eb", "#eab308", "#dc2626", "#16a34a"];
const SIZE = 22;

function centre(q, r) {
  return [SIZE * Math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r];
}

function hexPath(q, r) {
  const [x, y] = centre(q, r);
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 30);
    pts.push(`${(x + SIZE * Math.cos(a)).toFixed(1)},${(y + SIZE * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

const cellText = (c) => `(${c[0]}, ${c[1]})`;

function moveText(m) {
  const a = m.action;
  const what = a.kind === "pass" ? "pass"
    : a.kind === "tile" ? `${a.count} on ${cellText(a.tile)}`
    : a.kind === "edge" ? `edge ${cellText(a.cell)}`
    : `evacuate ${a.number} to ${a.to.map(cellText).join(" ") || "nothing"}`;
  return `tile to ${cellText(m.place)}, ${what}`;
}

function draw(svg, position, check, hinted) {
  const ns = "http://www.w3.org/2000/svg";
  svg.replaceChildren();
  const g = document.createElementNS(ns, "g");
  const cells = [...(position.tiles || []), ...check.edge_areas.map(([q, r]) => ({ q, r }))];
  const xs = cells.map((c) => centre(c.q, c.r)[0]);
  const ys = cells.map((c) => centre(c.q, c.r)[1]);
  const pad = SIZE * 2;
  svg.setAttribute("viewBox", `${Math.min(...xs) - pad} ${Math.min(...ys) - pad} ` +
    `${Math.max(...xs) - Math.min(...xs) + 2 * pad} ${Math.max(...ys) - Math.min(...ys) + 2 * pad}`);
  const flash = new Set(check.flashpoints.map((c) => `${c[0]},${c[1]}`));
  for (const [q, r] of check.edge_areas) {
    const p = document.createElementNS(ns, "polygon");
    p.setAttribute("points", hexPath(q, r));
    const hot = flash.has(`${q},${r}`) || (hinted && hinted.place[0] === q && hinted.place[1] === r);
    p.setAttribute("fill", hot ? "#fde68a" : "#f8fafc");
    p.setAttribute("stroke", hinted && hinted.place[0] === q && hinted.place[1] === r ? "#f97316" : "#cbd5e1");
    g.append(p);
  }
  for (const t of position.tiles || []) {
    const p = document.createElementNS(ns, "polygon");
    p.setAttribute("points", hexPath(t.q, t.r));
    p.setAttribute("fill", `hsl(${120 - t.n * 18}, 45%, ${70 - t.n * 5}%)`);
    p.setAttribute("stroke", "#f7f4ea");
    g.append(p);
    const [x, y] = centre(t.q, t.r);
    const label = document.createElementNS(ns, "text");
    label.setAttribute("x", x - 4);
    label.setAttribute("y", y - 6);
    label.setAttribute("font-size", "10");
    label.textContent = String(t.n);
    g.append(label);
    let k = 0;
    (t.pawns || [0, 0, 0, 0]).forEach((count, colour) => {
      for (let i = 0; i < count; i++, k++) {
        const c = document.createElementNS(ns, "circle");
        c.setAttribute("cx", x - 8 + 8 * k);
        c.setAttribute("cy", y + 6);
        c.setAttribute("r", 3.5);
        c.setAttribute("fill", COLOURS[colour]);
        g.append(c);
      }
    });
  }
  for (const e of position.edge || []) {
    const [x, y] = centre(e.q, e.r);
    const c = document.createElementNS(ns, "circle");
    c.setAttribute("cx", x);
    c.setAttribute("cy", y);
    c.setAttribute("r", 6);
    c.setAttribute("fill", COLOURS[e.color]);
    g.append(c);
  }
  svg.append(g);
}

export function mount(root, game) {
  root.innerHTML = `
    <div class="card">
      <div class="row">
        <label>Seed <input type="number" data-ref="seed" min="0" step="1" value="3"></label>
        <label>Tiles <input type="number" data-ref="tiles" min="2" max="43" step="1" value="43"></label>
        <button type="button" data-ref="deal">Deal</button>
        <button type="button" data-ref="hint">Hint (3 s)</button>
      </div>
      <svg data-ref="board" role="img" aria-label="${game.title} forest" width="100%" height="420"></svg>
      <div class="status-bar" data-ref="status"></div>
      <ol class="small" data-ref="moves" style="max-height: 16rem; overflow-y: auto"></ol>
    </div>`;
  const ui = Object.fromEntries([...root.querySelectorAll("[data-ref]")].map((n) => [n.dataset.ref, n]));
  const state = { position: null, check: null, hint: null };

  async function show(position) {
    state.position = position;
    state.check = await api("/v1/onrun/check", { position });
    state.hint = null;
    render();
  }

  function render() {
    const c = state.check;
    const values = new Map((state.hint?.moves || []).map((m) => [JSON.stringify(m.move), m]));
    draw(ui.board, state.position, c, state.hint?.moves?.[0]?.move);
    setStatus(ui.status, {
      status: c.status,
      text: [c.status === "ongoing"
        ? `${c.turns_left} turns left; ${["blue", "yellow", "red", "green"][c.color]} to play; score at most ${c.upper_score}`
        : `game over, score ${c.score}`],
    });
    const listed = state.hint ? state.hint.moves.map((m) => m.move) : c.moves.slice(0, 200).map((m) => m.move);
    ui.moves.replaceChildren(...listed.map((m) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      const v = values.get(JSON.stringify(m));
      b.textContent = moveText(m) + (v ? `  [${v.exact ? v.best_score : v.score_bounds.join("..")}]` : "");
      b.addEventListener("click", async () => {
        const played = await api("/v1/onrun/replay", { position: state.position, line: [m] });
        if (!played.error) await show(played.position);
      });
      li.append(b);
      return li;
    }));
  }

  ui.deal.addEventListener("click", async () => {
    const made = await api("/v1/onrun/generate", { seed: Number(ui.seed.value), tiles: Number(ui.tiles.value) });
    await show(made.position);
  });
  ui.hint.addEventListener("click", async () => {
    state.hint = await api("/v1/onrun/hint", { position: state.position, limit: { seconds: 3 } });
    render();
  });
  ui.deal.click();
}
