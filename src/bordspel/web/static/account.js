// Accounts in the browser: sign up, log in and out from the header of every page, claim the games
// played in this browser before, and the player's profile page (ratings with their history as a
// small chart, the games with filters). Everything a player typed is shown as text, never as HTML.

import { $, api, element } from "./dom.js";
import { storedGames } from "./kept.js";
import { addWords, language, onLanguage, t } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const PUZZLES = "puzzles"; // the pool of the puzzle ratings

const WORDS = {
  en: {
    sign_up: "Sign up", log_in: "Log in", log_out: "Log out", username: "Username", password: "Password",
    cancel: "Cancel", username_rule: "3 to 20 letters, digits, _ or -, starting with a letter.",
    password_rule: "At least 8 characters, and not easy to guess (a few unusual words together are good).",
    claimed: "{n} games played in this browser are now on your profile.",
    claimed_one: "The game played in this browser is now on your profile.",
    ratings: "Ratings", no_ratings: "No rated games yet.", rating_games: "{n} rated games", rating_games_one: "{n} rated game",
    rating_puzzles: "{n} puzzles tried", rating_puzzles_one: "{n} puzzle tried",
    provisional: "provisional", games_heading: "Games", all_games: "All games", all_results: "All results",
    played_win: "won", played_loss: "lost", played_draw: "draw", played_ongoing: "in progress", played_aborted: "aborted",
    no_games: "No games to show.", against: "against {names}", anonymous: "anonymous", rated: "rated",
    no_player: "There is no player with that name.", history: "Rating after each rated game",
    pool_small: "up to 5x5", pool_medium: "6x6 to 8x8", pool_large: "9x9 and larger", pool_2p: "2 players",
    pool_3p: "3 players", pool_4p: "4 players", pool_gods: "with gods", pool_advanced: "advanced",
  },
  nl: {
    sign_up: "Account maken", log_in: "Inloggen", log_out: "Uitloggen", username: "Gebruikersnaam",
    password: "Wachtwoord", cancel: "Annuleren",
    username_rule: "3 tot 20 letters, cijfers, _ of -, te beginnen met een letter.",
    password_rule: "Minstens 8 tekens, en niet makkelijk te raden (een paar ongewone woorden samen zijn goed).",
    claimed: "{n} partijen uit deze browser staan nu op je profiel.",
    claimed_one: "De partij uit deze browser staat nu op je profiel.",
    ratings: "Ratings", no_ratings: "Nog geen partijen met rating.", rating_games: "{n} partijen met rating", rating_games_one: "{n} partij met rating",
    rating_puzzles: "{n} puzzels geprobeerd", rating_puzzles_one: "{n} puzzel geprobeerd",
    provisional: "voorlopig", games_heading: "Partijen", all_games: "Alle spellen", all_results: "Alle uitslagen",
    played_win: "gewonnen", played_loss: "verloren", played_draw: "gelijkspel", played_ongoing: "bezig", played_aborted: "afgebroken",
    no_games: "Geen partijen om te tonen.", against: "tegen {names}", anonymous: "anoniem", rated: "met rating",
    no_player: "Er is geen speler met die naam.", history: "Rating na elke partij met rating",
    pool_small: "tot 5x5", pool_medium: "6x6 tot 8x8", pool_large: "9x9 en groter", pool_2p: "2 spelers",
    pool_3p: "3 spelers", pool_4p: "4 spelers", pool_gods: "met goden", pool_advanced: "gevorderd",
  },
};
addWords(WORDS);

// This script's words on the page, now that they are known (only these: the game page may
// already show words of its own in place of its nodes' defaults, such as "Ask to take back").
for (const node of document.querySelectorAll("[data-i18n]")) {
  if (node.dataset.i18n in WORDS.en) node.textContent = t(node.dataset.i18n);
}

// -- the header: who is logged in, and the buttons ------------------------------------------
let username = null;

async function accountBar() {
  const bar = $("#account");
  if (!bar) return;
  try {
    username = (await api("GET", "/api/session")).username;
  } catch {
    username = null;
  }
  const draw = () => {
    if (username) {
      bar.replaceChildren(
        element("a", { href: `/players/${encodeURIComponent(username)}`, class: "button", id: "profile-link", text: username }),
        element("button", { type: "button", id: "log-out", text: t("log_out"), onclick: logOut }));
    } else {
      bar.replaceChildren(
        element("button", { type: "button", id: "sign-up", text: t("sign_up"), onclick: () => openForm("sign_up") }),
        element("button", { type: "button", id: "log-in", text: t("log_in"), onclick: () => openForm("log_in") }));
    }
  };
  draw();
  onLanguage.push(draw);
}

async function logOut() {
  await api("DELETE", "/api/session");
  location.reload();
}

// -- the form: one dialog for signing up and logging in -----------------------------------------
function openForm(mode) {
  $("#account-dialog")?.remove();
  const name = element("input", { name: "username", id: "account-username", autocomplete: "username", required: "", maxlength: "20" });
  const password = element("input", {
    name: "password", id: "account-password", type: "password", required: "", maxlength: "256",
    autocomplete: mode === "sign_up" ? "new-password" : "current-password",
  });
  const error = element("p", { class: "error", role: "alert", id: "account-error" });
  const rules = mode === "sign_up" ? [element("p", { class: "note", text: `${t("username_rule")} ${t("password_rule")}` })] : [];
  const form = element("form", { class: "account-form" },
    element("h2", { text: t(mode) }),
    element("label", { for: "account-username" }, t("username"), name),
    element("label", { for: "account-password" }, t("password"), password),
    ...rules, error,
    element("div", { class: "buttons" },
      element("button", { type: "submit", class: "primary", id: "account-submit", text: t(mode) }),
      element("button", { type: "button", text: t("cancel"), onclick: () => dialog.close() })));
  const dialog = element("dialog", { id: "account-dialog", "aria-label": t(mode) }, form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const path = mode === "sign_up" ? "/api/account" : "/api/session";
      await api("POST", path, { username: name.value, password: password.value });
      await claimGames();
      location.reload();
    } catch (failure) {
      error.textContent = failure.message;
    }
  });
  document.body.append(dialog);
  dialog.showModal();
  name.focus();
}

// The games kept in this browser (their seats' links hold the tokens) go to the account.
async function claimGames() {
  const games = storedGames().flatMap((game) => {
    const token = new URLSearchParams(new URL(game.link, location.href).hash.slice(1)).get("seat");
    return token ? [{ id: game.id, token }] : [];
  });
  if (!games.length) return;
  const { claimed } = await api("POST", "/api/account/games", { games });
  if (claimed.length) sessionStorage.setItem("bordspel.claimed", String(claimed.length));
}

function showClaimed() {
  const count = sessionStorage.getItem("bordspel.claimed");
  if (!count) return;
  sessionStorage.removeItem("bordspel.claimed");
  const note = element("p", { class: "notice card", role: "status", id: "claimed", text: t("claimed", { n: Number(count) }) });
  $("main").prepend(note);
}

// -- the profile page ---------------------------------------------------------------------------
async function playerPage() {
  const name = decodeURIComponent(location.pathname.split("/").pop());
  const [meta, profile] = await Promise.all([
    api("GET", "/api/meta"),
    api("GET", `/api/players/${encodeURIComponent(name)}`).catch(() => null),
  ]);
  if (!profile) {
    $("#player-name").textContent = name;
    $("#player-missing").hidden = false;
    $("#player-body").hidden = true;
    return;
  }
  const title = (game) => ((meta.games[game] || {}).title || {})[language] || game;
  const draw = () => {
    $("#player-name").textContent = profile.username;
    document.title = `bordspel — ${profile.username}`;
    showRatings(profile, title);
    showGames(profile, title);
  };
  $("#filter-game").addEventListener("change", () => showGames(profile, title));
  $("#filter-result").addEventListener("change", () => showGames(profile, title));
  draw();
  onLanguage.push(draw);
}

// A pool's name in words: the game's title, then each part of the pool's name in the page's
// language when the page knows it (a pool "game-small" reads "Game, up to 5x5"); the puzzles'
// pool (bordspel.web.puzzles) is "Puzzles".
function poolName(pool, title) {
  if (pool === PUZZLES) return t("puzzles");
  const [game, ...rest] = pool.split("-");
  const word = (part) => (t(`pool_${part}`) === `pool_${part}` ? part : t(`pool_${part}`));
  return [title(game), ...rest.map(word)].join(", ");
}

function showRatings(profile, title) {
  const pools = Object.entries(profile.ratings);
  $("#no-ratings").hidden = pools.length > 0;
  $("#ratings").replaceChildren(...pools.map(([pool, rating]) => element("li", { "data-pool": pool },
    element("span", { class: "pool", text: poolName(pool, title) }),
    element("strong", { class: "rating", text: `${rating.rating}${rating.provisional ? "?" : ""}` }),
    element("span", { class: "muted", text: t(pool === PUZZLES ? "rating_puzzles" : "rating_games", { n: rating.games }) + (rating.provisional ? ` · ${t("provisional")}` : "") }),
    chart(rating.history))));
}

// The rating after each rated game, as a line in a small inline SVG.
function chart(history) {
  const width = 240, height = 56, pad = 4;
  const values = history.map((point) => point.rating);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${t("history")}: ${values.join(", ")}`);
  const low = Math.min(...values), high = Math.max(...values);
  const x = (i) => pad + (values.length > 1 ? (i * (width - 2 * pad)) / (values.length - 1) : (width - 2 * pad) / 2);
  const y = (v) => (high === low ? height / 2 : pad + ((high - v) * (height - 2 * pad)) / (high - low));
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
  svg.append(line);
  values.forEach((v, i) => {
    const dot = document.createElementNS(SVG, "circle");
    dot.setAttribute("cx", x(i).toFixed(1));
    dot.setAttribute("cy", y(v).toFixed(1));
    dot.setAttribute("r", "2.5");
    svg.append(dot);
  });
  return svg;
}

function showGames(profile, title) {
  const gameFilter = $("#filter-game"), resultFilter = $("#filter-result");
  const chosenGame = gameFilter.value, chosenResult = resultFilter.value;
  const games = [...new Set(profile.games.map((game) => game.game))];
  gameFilter.replaceChildren(element("option", { value: "", text: t("all_games") }),
    ...games.map((game) => element("option", { value: game, text: title(game) })));
  gameFilter.value = chosenGame;
  resultFilter.replaceChildren(element("option", { value: "", text: t("all_results") }),
    ...["win", "loss", "draw", "aborted", "ongoing"].map((result) => element("option", { value: result, text: t(`played_${result}`) })));
  resultFilter.value = chosenResult;
  const shown = profile.games.filter((game) => (!chosenGame || game.game === chosenGame) && (!chosenResult || game.result === chosenResult));
  $("#no-games").hidden = shown.length > 0;
  $("#player-games").replaceChildren(...shown.map((game) => {
    const when = new Date(game.created * 1000).toLocaleString(language, { dateStyle: "medium", timeStyle: "short" });
    const others = game.seats.flatMap((spec, seat) => seat === game.you ? [] : [opponent(game, spec, seat)]);
    return element("li", { "data-game": game.id, "data-result": game.result },
      element("span", { class: "when", text: when }),
      element("span", { text: `${title(game.game)} · ${t("against", { names: others.join(t("and")) })}${game.rated ? ` · ${t("rated")}` : ""}` }),
      element("strong", { class: `result ${game.result}`, text: t(`played_${game.result}`) }),
      element("a", { href: `/games/${encodeURIComponent(game.id)}`, class: "button", text: t("open_game") }));
  }));
}

function opponent(game, spec, seat) {
  if (game.players[seat]) return game.players[seat];
  return spec === "human" ? t("anonymous") : t("computer", { level: t(spec) });
}

// A logged-in player who opens a seat's link (an invitation) gets the game on their profile.
async function claimThisGame() {
  const token = new URLSearchParams(location.hash.slice(1)).get("seat");
  if (!username || document.body.dataset.page !== "game" || !token) return;
  const id = location.pathname.split("/").pop();
  await api("POST", "/api/account/games", { games: [{ id, token }] }).catch(() => null);
}

accountBar().then(showClaimed).then(claimThisGame);
if (document.body.dataset.page === "player") playerPage();
