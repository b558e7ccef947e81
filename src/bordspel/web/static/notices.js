// The live channel of a logged-in player, on every page: GET /api/notices streams a snapshot of
// their games whenever one changes (one tab of the browser holds the stream and passes it on). Each snapshot is compared with the one before: a new game
// (a challenge accepted, a rematch offered), a game that turned to your move, a takeback asked
// and a game that ended each show a banner under the header with a link to the game, and the
// tab's title counts the games where it is your move: "(1) bordspel — Lobby". With the tab
// hidden, a browser notification too, once the player allowed them (asked on a click only).
// Everything is put on the page as text. Pages hear of each snapshot through onGames (the start
// page's "Your games").

import { api, element } from "./dom.js";
import { addWords, language, t } from "./words.js";

const SHOWN = 3; // banners at most; the oldest goes first

const WORDS = {
  en: {
    notice_started: "Your game against {names} has started: {game}.", notice_started_alone: "A game of yours has started: {game}.",
    notice_rematch: "{names} offers a rematch: {game}.", notice_your_move: "Your move against {names}: {game}.",
    notice_your_move_alone: "Your move: {game}.", notice_takeback: "{names} asks to take back a move: {game}.",
    notice_win: "You won against {names}: {game}.", notice_loss: "You lost against {names}: {game}.",
    notice_draw: "A draw against {names}: {game}.", notice_aborted: "Your game against {names} was aborted: {game}.",
    notice_open: "Go to the game", notice_dismiss: "Dismiss", notice_allow: "Notify me when the tab is hidden",
    notice_someone: "your opponent",
  },
  nl: {
    notice_started: "Je spel tegen {names} is begonnen: {game}.", notice_started_alone: "Een spel van je is begonnen: {game}.",
    notice_rematch: "{names} wil een revanche: {game}.", notice_your_move: "Jouw zet tegen {names}: {game}.",
    notice_your_move_alone: "Jouw zet: {game}.", notice_takeback: "{names} vraagt om een zet terug te nemen: {game}.",
    notice_win: "Je hebt gewonnen van {names}: {game}.", notice_loss: "Je hebt verloren van {names}: {game}.",
    notice_draw: "Gelijkspel tegen {names}: {game}.", notice_aborted: "Je spel tegen {names} is afgebroken: {game}.",
    notice_open: "Naar het spel", notice_dismiss: "Wegdoen", notice_allow: "Meld het me als het tabblad verborgen is",
    notice_someone: "je tegenstander",
  },
};
addWords(WORDS);

let previous = null; // the last snapshot's games by id
let latest = null; // the last snapshot's games, for pages that ask after it came
let yourMoves = 0;
const listeners = [];

// ``callback(games)`` with each snapshot of the account's games: at once with the last one if it
// has come already, so that a page that starts listening late misses none.
export function onGames(callback) {
  listeners.push(callback);
  if (latest) callback(latest);
}

async function start() {
  let session;
  try {
    session = await api("GET", "/api/session");
  } catch {
    return;
  }
  if (!session.username || !window.EventSource) return;
  new MutationObserver(countInTitle).observe(document.querySelector("title"), { childList: true });
  if (!navigator.locks || !window.BroadcastChannel) return listen(null);
  const channel = new BroadcastChannel(`bordspel-notices-${session.username}`);
  channel.onmessage = (event) => {
    if (event.data.games) received(event.data.games);
    else if (event.data.ask && latest) channel.postMessage({ games: latest });
  };
  channel.postMessage({ ask: true }); // the tab with the stream answers with its last snapshot
  // One tab of the browser holds the stream (a lock it keeps until it closes: then the next
  // tab's request gets it) and passes each snapshot on to the others: a browser opens at most six
  // connections to a site, and every tab's own stream would use one of them.
  navigator.locks.request(`bordspel-notices-${session.username}`, () => new Promise(() => listen(channel)));
}

// The stream, opened again when the server refused it (EventSource gives up for good on an
// answer that is not 200: a restart behind a proxy, a 503 for too many streams), each wait
// twice the last, up to a minute; so the tab that holds the lock never sits on a dead stream.
function listen(channel, wait = 1000) {
  const source = new EventSource("/api/notices");
  source.addEventListener("open", () => { wait = 1000; });
  source.addEventListener("snapshot", (event) => {
    const games = JSON.parse(event.data).games;
    received(games);
    if (channel) channel.postMessage({ games });
  });
  source.addEventListener("error", () => {
    if (source.readyState === EventSource.CLOSED) setTimeout(() => listen(channel, Math.min(2 * wait, 60000)), wait);
  });
}

function received(games) {
  const now = new Map(games.map((game) => [game.id, game]));
  if (previous) for (const game of games) tell(game, previous.get(game.id));
  previous = now;
  latest = games;
  yourMoves = games.filter((game) => game.your_move).length;
  countInTitle();
  for (const callback of listeners) callback(games);
  document.body.dataset.notices = "live"; // the channel has told this page where things stand
}

// The banner a game's change calls for, if any (none for the game this page shows).
function tell(game, before) {
  if (location.pathname === `/games/${game.id}`) return;
  const key = noticeKey(game, before);
  if (!key) return;
  const names = game.opponents.join(t("and"));
  const alone = !names && `${key}_alone` in WORDS.en;
  const text = t(alone ? `${key}_alone` : key, { names: names || t("notice_someone"), game: titleOf(game) });
  show(game, text);
  notifyHidden(text, game);
}

function noticeKey(game, before) {
  if (!before) return game.rematch_offer ? "notice_rematch" : "notice_started";
  if (game.over && !before.over) return `notice_${game.result}`;
  if (game.takeback && !before.takeback) return "notice_takeback";
  if (game.your_move && !before.your_move) return "notice_your_move";
  return null;
}

const titleOf = (game) => game.title[language] || game.title.en || game.game;

function show(game, text) {
  const box = noticeBox();
  for (const old of box.querySelectorAll(`[data-notice="${CSS.escape(game.id)}"]`)) old.remove();
  const item = element("div", { class: "notice", "data-notice": game.id },
    element("span", { class: "notice-text", text }),
    element("a", { class: "button primary", href: `/games/${encodeURIComponent(game.id)}`, text: t("notice_open") }),
    element("button", { type: "button", class: "dismiss", "aria-label": t("notice_dismiss"), title: t("notice_dismiss"), text: "×", onclick: () => item.remove() }));
  box.prepend(item);
  while (box.children.length > SHOWN) box.lastElementChild.remove();
  offerNotifications(box);
}

function noticeBox() {
  let box = document.getElementById("notices");
  if (!box) {
    box = element("div", { id: "notices", class: "notices", role: "status", "aria-live": "polite" });
    document.querySelector("header").after(box);
  }
  return box;
}

// The browser's notifications are asked for on a click of this button, never on their own.
function offerNotifications(box) {
  if (!window.Notification || Notification.permission !== "default" || box.querySelector(".allow")) return;
  const button = element("button", { type: "button", class: "allow", text: t("notice_allow") });
  button.addEventListener("click", async () => {
    await Notification.requestPermission();
    button.remove();
  });
  box.firstElementChild.querySelector(".dismiss").before(button);
}

function notifyHidden(text, game) {
  if (!document.hidden || !window.Notification || Notification.permission !== "granted") return;
  const shown = new Notification("bordspel", { body: text, tag: game.id });
  shown.onclick = () => {
    window.focus();
    location.href = `/games/${encodeURIComponent(game.id)}`;
  };
}

// "(2) bordspel — Lobby": the games where it is your move, before whatever title the page has.
function countInTitle() {
  const base = document.title.replace(/^\(\d+\) /, "");
  const wanted = yourMoves ? `(${yourMoves}) ${base}` : base;
  if (document.title !== wanted) document.title = wanted;
}

start();
