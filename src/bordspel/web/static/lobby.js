// The lobby: open challenges (live), a form to post one, and the games in progress to watch.

import { chosenClock } from "./clock-picker.js";
import { clockLabel } from "./clock.js";
import { $, api, element } from "./dom.js";
import { chosenOptions, optionWord, showGameChoices, showOptions } from "./game-form.js";
import { forgetChallenge, keepChallenge, keptChallenges, remember } from "./kept.js";
import { onLanguage, t, titleOf } from "./words.js";

// The form, the live list (server-sent events say when it changed; polled slowly besides).
async function lobbyPage() {
  const meta = await api("GET", "/api/meta");
  const lobby = { meta, data: { challenges: [], games: [] } };
  let chosen = Object.keys(meta.games)[0];
  const form = () => {
    showGameChoices(meta);
    $(`#game-${chosen}`).checked = true;
    showOptions(meta, chosen);
  };
  form();
  onLanguage.push(() => {
    chosen = document.querySelector("input[name=game]:checked").value;
    form();
    showLobby(lobby);
  });
  $("#new-challenge").addEventListener("submit", (event) => {
    event.preventDefault();
    postChallenge(lobby);
  });
  const source = window.EventSource ? new EventSource("/api/lobby/events") : null;
  if (source) source.addEventListener("version", () => loadLobby(lobby));
  setInterval(() => loadLobby(lobby), source ? 15000 : 2000);
  loadLobby(lobby);
}

// The form's challenge posted; its seat's token is kept here until the game starts.
async function postChallenge(lobby) {
  const game = document.querySelector("input[name=game]:checked").value;
  const seat = $("#your-seat").value;
  const body = {
    game, options: chosenOptions(lobby.meta, game), clock: chosenClock(),
    rated: $("#rated").checked, seat: seat === "random" ? "random" : Number(seat),
  };
  try {
    const posted = await api("POST", "/api/challenges", body);
    keepChallenge({ id: posted.id, token: posted.token, you: posted.you, game, host: true });
    seen(lobby, posted.id); // posted from this page: followed even if taken before the next read
    $("#form-error").textContent = "";
    await loadLobby(lobby);
  } catch (error) {
    $("#form-error").textContent = error.message;
  }
}

// The lobby read again and shown; a challenge of this browser that started leads to its game.
async function loadLobby(lobby) {
  try {
    lobby.data = await api("GET", "/api/lobby");
    $("#lobby-error").textContent = "";
  } catch (error) {
    $("#lobby-error").textContent = error.message;
    return;
  }
  showLobby(lobby);
  await followChallenges(lobby);
}

// Note that this page saw challenge ``id`` open (so its game is followed once it starts).
function seen(lobby, id) {
  lobby.seenOpen = new Set([...(lobby.seenOpen || []), id]);
}

// A challenge of this browser that left the open list: once started, go to its game if this page
// saw it open (one taken while the player was elsewhere is kept with the games, not followed).
async function followChallenges(lobby) {
  const open = new Set(lobby.data.challenges.map((found) => found.id));
  lobby.seenOpen = new Set([...(lobby.seenOpen || []), ...keptChallenges().map((kept) => kept.id).filter((id) => open.has(id))]);
  for (const kept of keptChallenges().filter((kept) => !open.has(kept.id))) {
    const found = await api("GET", `/api/challenges/${kept.id}`).catch(() => null);
    if (found && found.status === "open") continue; // not listed yet: look again next time
    forgetChallenge(kept.id);
    if (found && found.status === "started") {
      const link = `/games/${found.game_id}#seat=${kept.token}`;
      remember({ id: found.game_id, game: found.game, you: kept.you, link });
      if (!lobby.seenOpen.has(kept.id)) continue;
      location.href = link;
      return;
    }
  }
}

// A listed challenge or game in words: "alma (1500?) · <game> · advanced · 3+2 · Rated".
function describe(meta, item) {
  const options = Object.entries(item.options).map(([option, value]) => optionText(meta, item, option, value)).filter(Boolean);
  const rated = (name, seat) => {
    const rating = item.ratings && item.ratings[seat];
    return rating ? `${name} (${rating.rating}${rating.provisional ? "?" : ""})` : name;
  };
  const names = (item.players || []).map(rated).filter(Boolean);
  return [...names, titleOf(meta, item.game), ...options, clockLabel(item.clock), t(item.rated ? "rated_game" : "casual")].join(" · ");
}

// An option as the lobby says it: a flag by the first words of its label ("advanced"), a board
// size as "5×5 board", a choice per seat by seat ("alma: Athena, Player 2: Pan").
function optionText(meta, item, option, value) {
  const word = optionWord(meta, item.game, option).split(":")[0];
  if (typeof value === "boolean") return value ? word : null;
  if (option === "size") return t("board_of", { n: value });
  if (!meta.games[item.game].limits[option].per_seat) return `${word}: ${value}`;
  const seats = String(value).split(",").map((chosen, seat) => chosen === "-" ? null
    : `${listedName(item, seat)}: ${chosen[0].toUpperCase()}${chosen.slice(1)}`);
  return `${word} (${seats.filter(Boolean).join(", ")})`;
}

// The username of a listed item's seat (``players`` follow the seats ``taken``), or "Player n".
function listedName(item, seat) {
  const index = (item.taken || []).indexOf(seat);
  return (index >= 0 && (item.players || [])[index]) || t("player", { n: seat + 1 });
}

// The open challenges (with this browser's own marked) and the games in progress to watch.
function showLobby(lobby) {
  const { meta, data } = lobby;
  const mine = new Map(keptChallenges().map((kept) => [kept.id, kept]));
  const rows = data.challenges.filter((found) => meta.games[found.game]).map((found) => challengeRow(lobby, found, mine.get(found.id)));
  $("#challenges").replaceChildren(...(rows.length ? rows : [element("li", { class: "muted", text: t("no_challenges") })]));
  const games = data.games.filter((game) => meta.games[game.game]).map((game) => element("li", { "data-game": game.id },
    element("span", { class: "what", text: describe(meta, game) }),
    element("a", { class: "button", href: `/games/${game.id}`, text: t("watch") })));
  $("#games").replaceChildren(...(games.length ? games : [element("li", { class: "muted", text: t("no_games") })]));
}

// A challenge's row: accept it (or take a seat), or, for this browser's own, wait or cancel.
function challengeRow(lobby, found, kept) {
  const seats = found.seats > 2 ? [element("span", { class: "muted", text: t("seats_taken", { taken: found.taken.length, seats: found.seats }) })] : [];
  const row = element("li", { "data-challenge": found.id }, element("span", { class: "what", text: describe(lobby.meta, found) }), ...seats);
  if (!kept) {
    const take = () => acceptChallenge(lobby, found);
    row.append(element("button", { type: "button", class: "primary", text: t(found.seats > 2 ? "take_seat" : "accept_challenge"), onclick: take }));
    return row;
  }
  row.append(element("span", { class: "muted", text: `${t(kept.host ? "yours" : "you_sit")} · ${t("waiting_players")}` }));
  if (kept.host) row.append(element("button", { type: "button", text: t("cancel"), onclick: () => cancelChallenge(lobby, kept) }));
  return row;
}

// Accepting: with the last seat taken the game starts and the page goes to it.
async function acceptChallenge(lobby, found) {
  try {
    const taken = await api("POST", `/api/challenges/${found.id}/accept`, {});
    if (taken.game) {
      remember({ id: taken.game.id, game: found.game, you: taken.you, link: taken.link });
      location.href = taken.link;
      return;
    }
    keepChallenge({ id: found.id, token: taken.token, you: taken.you, game: found.game, host: false });
    seen(lobby, found.id);
    await loadLobby(lobby);
  } catch (error) {
    $("#lobby-error").textContent = error.message;
    await loadLobby(lobby);
  }
}

// This browser's own challenge withdrawn.
async function cancelChallenge(lobby, kept) {
  try {
    await api("DELETE", `/api/challenges/${kept.id}`, undefined, kept.token);
    forgetChallenge(kept.id);
  } catch (error) {
    $("#lobby-error").textContent = error.message;
  }
  await loadLobby(lobby);
}

lobbyPage();
