// The start page: a new game against the computer or people (with the links to invite them), and
// "Your games": those kept in this browser and the account's, each saying where it stands.

import { chosenClock } from "./clock-picker.js";
import { $, api, element } from "./dom.js";
import { chosenOptions, showGameChoices, showOptions } from "./game-form.js";
import { remember, storedGames } from "./kept.js";
import { onGames } from "./notices.js";
import { language, onLanguage, t, titleOf } from "./words.js";

async function startPage() {
  const meta = await api("GET", "/api/meta");
  const names = Object.keys(meta.games);
  showGameChoices(meta);
  const home = { meta, accountGames: [] };
  showStoredGames(home);
  onLanguage.push(() => showStoredGames(home));
  onGames((games) => { // the live channel's latest snapshot, even one that came before /api/meta
    home.accountGames = games;
    showStoredGames(home);
  });
  const invited = storedGames().find((game) => game.id === new URLSearchParams(location.search).get("invite"));
  if (invited && invited.links) invite(invited);
  const asked = new URLSearchParams(location.search).get("game");
  let chosen = names.includes(asked) ? asked : names[0];
  const pick = () => {
    $(`#game-${chosen}`).checked = true;
    showOptions(meta, chosen);
  };
  pick();
  onLanguage.push(() => {
    chosen = document.querySelector("input[name=game]:checked").value;
    showGameChoices(meta);
    pick();
  });
  $("#new-game").addEventListener("submit", async (event) => {
    event.preventDefault();
    const game = document.querySelector("input[name=game]:checked").value;
    const options = chosenOptions(meta, game);
    const seats = [...document.querySelectorAll("#seats select.seat")].map((s) => s.value);
    try {
      const created = await api("POST", "/api/games", { game, options, seats, clock: chosenClock() });
      const others = created.seats.filter((spec, seat) => spec === "human" && seat !== created.you);
      const link = created.links.seats[created.you];
      remember({ id: created.id, game, you: created.you, link, seats: created.seats, links: others.length ? created.links : null });
      if (others.length) invite(storedGames()[0]);
      else location.href = link;
    } catch (error) {
      $("#form-error").textContent = error.message;
    }
  });
}

// The games kept in this browser, after the logged-in account's games in progress that it
// does not keep (from the live channel, notices.js), each of those marked "Your turn" when so.
// Always the account's latest games: a look-up that ends later shows them too.
function showStoredGames(home) {
  const { meta, accountGames } = home;
  const games = storedGames().filter((game) => meta.games[game.game]);
  const kept = new Set(games.map((game) => game.id));
  const others = accountGames.filter((game) => !kept.has(game.id) && meta.games[game.game]);
  const told = new Map(accountGames.map((game) => [game.id, game]));
  $("#your-games").hidden = !games.length && !others.length;
  $("#your-games-list").replaceChildren(...others.map((game) => accountGame(meta, game)), ...games.map((game) => {
    const when = new Date(game.since).toLocaleString(language, { dateStyle: "medium", timeStyle: "short" });
    const seat = game.you === null ? "" : ` · ${t("seat_n", { n: game.you + 1 })}`;
    const open = element("a", { href: game.link, class: "button", text: t("open_game") });
    const links = game.links ? [element("button", { type: "button", text: t("show_links"), onclick: () => invite(game) })] : [];
    const status = element("span", { class: "game-status", text: gameStatus(told.get(game.id) || keptStatus.get(game.id)) });
    return element("li", { "data-game": game.id }, element("span", { text: `${titleOf(meta, game.game)} · ${when}${seat}` }), status, open, ...links);
  }));
  lookUpKept(home, games.filter((game) => !told.has(game.id) && !keptStatus.has(game.id)));
}

// A game of the account that this browser does not keep: its opponents and where it stands.
function accountGame(meta, game) {
  const names = game.opponents.length ? ` · ${game.opponents.join(t("and"))}` : "";
  const open = element("a", { href: `/games/${encodeURIComponent(game.id)}`, class: "button", text: t("open_game") });
  return element("li", { "data-game": game.id }, element("span", { text: `${titleOf(meta, game.game)}${names} · ${gameStatus(game)}` }), open);
}

// Where a game stands for its player, from the live channel's entry (or one made alike from the
// game's own view): "Your turn", "Their turn", or how it ended for them.
function gameStatus(game) {
  if (!game) return "";
  if (game.over) return t(`status_${game.result}`);
  return t(game.your_move ? "your_move" : "their_move");
}

// The games kept in this browser that no live channel tells about (played without an account):
// each read once with its seat's token, the newest ten, then the list is shown again.
const keptStatus = new Map();

async function lookUpKept(home, games) {
  const asked = games.slice(0, 10);
  if (!asked.length) return;
  await Promise.all(asked.map(async (game) => {
    const token = new URLSearchParams(new URL(game.link, location.href).hash.slice(1)).get("seat");
    try {
      keptStatus.set(game.id, statusOf(await api("GET", `/api/games/${encodeURIComponent(game.id)}`, undefined, token)));
    } catch {
      keptStatus.set(game.id, null); // gone, or not readable: no status
    }
  }));
  showStoredGames(home);
}

// A game's view (GET /api/games/<id>) as the live channel would tell it.
function statusOf(view) {
  const you = view.you;
  if (!view.outcome) return { over: false, your_move: you !== null && view.to_move === you && view.seats[you] === "human" };
  const winners = view.outcome.winners;
  const result = view.outcome.termination === "aborted" ? "aborted"
    : !winners.length || winners.length === view.seats.length ? "draw" : winners.includes(you) ? "win" : "loss";
  return { over: true, result };
}

// The links to send: each other person's seat and the spectators'; a reload shows them again.
function invite(created) {
  const link = (label, path, id) => {
    const input = element("input", { type: "text", readonly: "", id, value: new URL(path, location.href).href });
    input.addEventListener("focus", () => input.select());
    return element("li", {}, element("label", { for: id }, label), input);
  };
  const items = created.seats.flatMap((spec, seat) =>
    spec === "human" && seat !== created.you ? [link(t("player", { n: seat + 1 }), created.links.seats[seat], `invite-${seat}`)] : []);
  items.push(link(t("spectators"), created.links.spectator, "invite-spectator"));
  $("#invitation-links").replaceChildren(...items);
  $("#play-link").href = created.links.seats[created.you];
  $("#play-link").textContent = t("go_player", { name: t("player", { n: created.you + 1 }) });
  $("#new-game").hidden = true;
  $("#your-games").hidden = true;
  $("#invitations").hidden = false;
  history.replaceState(null, "", `/?invite=${encodeURIComponent(created.id)}`); // a reload shows them again
}

startPage();
