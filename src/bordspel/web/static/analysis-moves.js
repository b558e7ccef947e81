// The analysis board opened from a game (/analysis#...&from=<game id>): that game's players and
// moves beside the board, numbered as in its record; a click on a move sets up the position after
// it on the board (the page's "bordspel:set-up" event), and the move whose position the board
// shows is marked. The game is read as a spectator reads it: no token is needed. Other scripts
// (analysis-graph.js) hear of the game ("bordspel:game", with its players' names) and of the
// move shown ("bordspel:shown-ply"), and ask for a move's position ("bordspel:ply").

import { api, element } from "./dom.js";
import { addWords, onLanguage, t } from "./words.js";

addWords({
  en: { analysis_game: "The game", analysis_start: "Start" },
  nl: { analysis_game: "Het spel", analysis_start: "Begin" },
});

const from = new URLSearchParams(location.hash.slice(1)).get("from");
const positions = new Map(); // ply -> position text, as read
let game = null;

async function start() {
  if (!from || !document.getElementById("game-moves")) return;
  try {
    game = await api("GET", `/api/games/${encodeURIComponent(from)}`);
  } catch {
    return; // no such game: the board alone
  }
  positions.set(game.ply, game.position);
  document.addEventListener("bordspel:board", (event) => mark(event.detail.position));
  document.addEventListener("bordspel:ply", (event) => setUp(event.detail.ply));
  onLanguage.push(show);
  show();
  document.dispatchEvent(new CustomEvent("bordspel:game", { detail: { game, names: () => game.seats.map(name) } }));
  mark(new URLSearchParams(location.hash.slice(1)).get("position"));
}

function show() {
  const box = document.getElementById("game-moves");
  box.hidden = false;
  for (const node of box.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  document.getElementById("game-players").textContent = game.seats.map(name).join(" – ");
  const seats = game.seats.length;
  const first = element("li", { "data-ply": "0", value: "0", class: "same-move", tabindex: "0", text: t("analysis_start") });
  document.getElementById("game-move-list").replaceChildren(first, ...game.moves.map((text, i) => element("li", {
    "data-ply": String(i + 1), value: String(Math.floor(i / seats) + 1), class: i % seats ? "same-move" : "",
    tabindex: "0", text,
  })));
  for (const item of document.querySelectorAll("#game-move-list li")) {
    item.addEventListener("click", () => setUp(Number(item.dataset.ply)));
    item.addEventListener("keydown", (event) => event.key === "Enter" && setUp(Number(item.dataset.ply)));
  }
}

function name(spec, seat) {
  const account = game.players && game.players[seat];
  if (account) return account;
  return spec === "human" ? t("player", { n: seat + 1 }) : t("computer", { level: t(spec) });
}

async function setUp(ply) {
  if (!positions.has(ply)) {
    try {
      positions.set(ply, (await api("GET", `/api/games/${encodeURIComponent(from)}/positions/${ply}`)).position);
    } catch {
      return;
    }
  }
  document.dispatchEvent(new CustomEvent("bordspel:set-up", { detail: { game: game.game, position: positions.get(ply) } }));
}

// The move after which the board's position stands, if the game reached it (the last such).
function mark(position) {
  let shown = null;
  for (const [ply, text] of positions) if (text === position && (shown === null || ply > shown)) shown = ply;
  for (const item of document.querySelectorAll("#game-move-list li")) {
    const current = Number(item.dataset.ply) === shown;
    item.classList.toggle("current", current);
    if (current) scrollListTo(item);
  }
  document.dispatchEvent(new CustomEvent("bordspel:shown-ply", { detail: { ply: shown } }));
}

// The move list scrolled (not the page) so that ``item`` is in view.
function scrollListTo(item) {
  const list = item.parentElement;
  if (item.offsetTop < list.scrollTop) list.scrollTop = item.offsetTop;
  const bottom = item.offsetTop + item.offsetHeight - list.clientHeight;
  if (bottom > list.scrollTop) list.scrollTop = bottom;
}

start();
