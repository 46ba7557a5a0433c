// smokejumper's page: a tab per game the server lists (GET /v1/games, in
// its order), each game's view in its own module, games/<name>.js, loaded
// the first time its tab is shown. No build step, no dependencies.
//
// A game module exports one function:
//
//   export function mount(root, game)
//
// called once, on the first show of the game's tab. ``root`` is the game's
// empty tab panel, which the module fills (its DOM, its own styles) and
// keeps up to date; ``game`` is the game's entry in /v1/games ({name,
// title, summary, operations}). The module talks to the API itself (lib/
// has what views share). The page hides ``root`` while another tab is
// shown; a module that listens on the document checks that its root is
// on show (lib/dom.js onShow).
import { api } from "./lib/api.js";
import { html } from "./lib/dom.js";
import { clearMessage, showMessage } from "./lib/message.js";

const tabs = document.getElementById("tabs");
const panels = document.getElementById("views");
const subtitle = document.getElementById("subtitle");

// Game names go into a module's URL and the page's hash.
const NAME = /^[a-z][a-z0-9-]*$/;

function mountView(view) {
  view.mounted = true;
  import(new URL(`./games/${view.game.name}.js`, import.meta.url))
    .then((module) => module.mount(view.panel, view.game))
    .catch((e) => {
      view.panel.replaceChildren(html("p", { class: "card view-missing" },
        `This page cannot show ${view.game.title} (${e.message}).`));
    });
}

function start(games) {
  const views = new Map();
  for (const game of games.filter((g) => NAME.test(g.name))) {
    const tab = html("button", { type: "button", role: "tab", class: "tab", id: `tab-${game.name}`,
      "aria-controls": `view-${game.name}`, "aria-selected": "false", title: game.summary }, game.title);
    const panel = html("main", { class: "view", id: `view-${game.name}`, role: "tabpanel",
      "aria-labelledby": tab.id });
    panel.hidden = true;
    tab.addEventListener("click", () => { location.hash = game.name; });
    tabs.append(tab);
    panels.append(panel);
    views.set(game.name, { game, tab, panel, mounted: false });
  }
  if (!views.size) {
    showMessage("The server lists no games.");
    return;
  }
  const first = views.values().next().value;

  // The hash (#name) keeps the tab across reloads.
  function show() {
    const view = views.get(location.hash.slice(1)) || first;
    for (const other of views.values()) {
      other.panel.hidden = other !== view;
      other.tab.setAttribute("aria-selected", String(other === view));
    }
    subtitle.textContent = view.game.summary;
    document.title = `smokejumper · ${view.game.title}`;
    if (location.hash !== `#${view.game.name}`) history.replaceState(null, "", `#${view.game.name}`);
    clearMessage();
    if (!view.mounted) mountView(view);
  }
  window.addEventListener("hashchange", show);
  show();
}

api("/v1/games").then((answer) => start(answer.games), (e) => showMessage(`Cannot list the games: ${e.message}`));
