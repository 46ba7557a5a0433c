// Hex boards: axial (q, r) cells, pointy-top hexes, directions in the
// specs' order so that the names are literal; pawn colours and the supply.
import { html, svg } from "./dom.js";

export const SIZE = 30;
const SQ3 = Math.sqrt(3);
export const DIRS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
export const DIR_NAMES = ["E", "NE", "NW", "W", "SW", "SE"];
const COLORS = ["#dc2626", "#2563eb", "#eab308", "#7c3aed", "#ea580c", "#0891b2", "#db2777", "#57534e"];
const COLOR_NAMES = ["red", "blue", "yellow", "purple", "orange", "teal", "pink", "grey"];
// A forest tile's fill by its number 1..6: the higher, the darker.
export const TILE_FILLS = ["#86b86a", "#6fa85a", "#5a984c", "#47873f", "#367634", "#26652b"];

export const key = (q, r) => `${q},${r}`;
export const colorOf = (c) => COLORS[c % COLORS.length];
export const colorName = (c) => (c < COLOR_NAMES.length ? COLOR_NAMES[c] : `colour ${c}`);
export const center = (q, r) => [SIZE * SQ3 * (q + r / 2), SIZE * 1.5 * r];

// Corner i sits at 60i - 30 degrees (y points down), so the side facing
// direction d runs from corner -d to corner 1 - d.
export function corner(cx, cy, s, i) {
  const a = (Math.PI / 180) * (60 * i - 30);
  return [cx + s * Math.cos(a), cy + s * Math.sin(a)];
}

function hexPoints(cx, cy, s) {
  const pts = [];
  for (let i = 0; i < 6; i++) pts.push(corner(cx, cy, s, i).map((v) => v.toFixed(2)).join(","));
  return pts.join(" ");
}

// A hex on cell (q, r), ``inset`` inside the cell's outline.
export function hexAt(parent, [q, r], inset, attrs) {
  const [cx, cy] = center(q, r);
  return svg("polygon", { points: hexPoints(cx, cy, SIZE - inset), ...attrs }, parent);
}

// The board's svg in its frame: it scales with the page's width.
export function createBoard(label) {
  const wrap = html("div", { class: "board-wrap" });
  const board = svg("svg", { class: "board", role: "group", "aria-label": label }, wrap);
  return { wrap, board };
}

// Redraw ``board`` with ``draw()``. A cell or arrow that had the focus
// (its data-focus name) gets it back, else the board's first one does:
// the keyboard goes on playing.
export function redraw(board, draw) {
  const focused = board.contains(document.activeElement) ? document.activeElement.dataset.focus : null;
  board.replaceChildren();
  draw();
  if (focused) (board.querySelector(`[data-focus="${focused}"]`) || board.querySelector("[tabindex]"))?.focus();
}

export function emptyBoard(board, text) {
  board.setAttribute("viewBox", "-200 -100 400 200");
  svg("text", { x: 0, y: 0, class: "board-empty" }, board).textContent = text;
}

// Show every cell with a margin; keep a minimum extent so that a tiny
// board is not blown up.
export function fitBoard(board, cells) {
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

// A forest tile: its hex in the number's fill, the number, and a circle
// per space, each ``{color, cls}`` (a pawn's colour index, null when
// unknown; cls: extra classes).
export function drawTile(parent, t, spaces, { cls = "hex-tile", attrs = {} } = {}) {
  const [cx, cy] = center(t.q, t.r);
  const g = svg("g", attrs, parent);
  svg("polygon", { points: hexPoints(cx, cy, SIZE - 0.5), class: cls, fill: TILE_FILLS[(t.n - 1) % 6] }, g);
  svg("text", { x: cx, y: cy - 2, class: "tile-num" }, g).textContent = String(t.n);
  spaces.forEach(({ color, cls: extra }, i) => {
    const circle = svg("circle", { cx: cx + (i - (spaces.length - 1) / 2) * 11, cy: cy + 12, r: 4.3,
      class: extra ? `space ${extra}` : "space" }, g);
    if (color !== null && color !== undefined) circle.style.fill = colorOf(color);
  });
  return g;
}

// A colour's dot, for text.
export function dot(color) {
  const d = html("span", { class: "fdot" });
  d.style.background = colorOf(color);
  return d;
}

// A chip per colour in ``supply``: its dot, pawn count and name;
// ``selected`` is marked, and clicking a chip calls ``pick(colour)``.
export function supplyChips(box, supply, selected, title, pick) {
  const focused = box.contains(document.activeElement) ? document.activeElement.dataset.color : null;
  box.replaceChildren();
  supply.forEach((n, c) => {
    const chip = html("button", { type: "button", class: "chip", title: title(c), "aria-pressed": String(c === selected),
      "data-color": String(c) });
    if (c === selected) chip.classList.add("selected");
    if (n === 0) chip.classList.add("empty");
    const d = html("span", { class: "dot" });
    d.style.background = colorOf(c);
    chip.append(d, html("span", { class: "count" }, String(n)), html("span", { class: "small muted" }, colorName(c)));
    chip.addEventListener("click", () => pick(c));
    box.append(chip);
  });
  if (focused !== null) box.querySelector(`[data-color="${focused}"]`)?.focus();
}
