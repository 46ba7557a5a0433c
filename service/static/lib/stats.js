// What a search answer says about the search: its counters, and the
// server's caps when they cut the limit asked for.
import { html } from "./dom.js";

function statsText(s) {
  return `${s.nodes.toLocaleString()} nodes · ${s.seconds.toFixed(2)} s` + (s.stopped_by ? ` · stopped by ${s.stopped_by}` : "");
}

const limitValue = (v) => (v === null || v === undefined ? "∞" : typeof v === "number" ? v.toLocaleString() : String(v));

// "server cap: seconds 60 → 10" for an answer's ``limits`` whose ``capped``
// is not empty, else null (also for answers of servers that send no limits).
function limitsNotice(limits) {
  if (!limits?.capped?.length) return null;
  return "server cap: " + limits.capped
    .map((k) => `${k} ${limitValue(limits.asked?.[k])} → ${limitValue(limits.applied?.[k])}`).join(", ");
}

// The counters of ``result.stats`` followed by ``extra`` (strings), and the
// cap notice: the nodes for a search card's stats line.
export function searchSummary(result, ...extra) {
  const parts = [result.stats ? statsText(result.stats) : null, ...extra].filter(Boolean);
  const nodes = [parts.join(" · ")];
  const notice = limitsNotice(result.limits);
  if (notice) nodes.push(html("span", { class: "capped", title: "The server's caps override the limit asked for" }, notice));
  return nodes;
}
