// The game page: the board, the clicks that make a move, the players with their clocks and
// ratings, the moves (replayed on a click), takebacks, resign or abort, rematch and hints.
// The seat's secret is in the URL fragment (#seat=...), which the browser never sends to the
// server; the page sends it as a bearer token. Without one the page is a spectator's.

import { animateArrival, drawBoard, fitBoard } from "./board.js";
import { boardEvents, highlight, prompt, toolbar } from "./clicks.js";
import { tickClocks } from "./clock.js";
import { $, api, element } from "./dom.js";
import { gameStream } from "./game-stream.js";
import { askHint, showHint } from "./hint.js";
import { remember, storedGames } from "./kept.js";
import { analysisLink } from "./links.js";
import { replayPly, replayTo, showReplay } from "./replay.js";
import { ending, player, playing, role, seatLine, seatName, signed } from "./seats.js";
import { language, onLanguage, t } from "./words.js";

// The page's state (its view, clicks, replay, hint, error) and its events.
function gamePage() {
  const id = location.pathname.split("/").pop();
  const token = new URLSearchParams(location.hash.slice(1)).get("seat");
  const page = {
    id, token, view: null, clicks: [], mode: {}, asking: -1, busy: false,
    replay: null, thinking: null, timer: null, hint: null, error: null, touch: false, tapped: null, seen: 0,
    play: (text) => send(page, "moves", { move: text }), showStatus: () => showStatus(page),
  };
  setInterval(() => tickClocks(page, () => refresh(page)), 200);
  $("#download").href = `/api/games/${id}/record`;
  $("#undo").addEventListener("click", () => send(page, "undo", {}));
  $("#resign").addEventListener("click", () => resign(page));
  $("#hint-button").addEventListener("click", () => askHint(page, (error) => showError(page, error)));
  $("#rematch").addEventListener("click", () => rematch(page));
  $("#decline-rematch").addEventListener("click", () => send(page, "rematch/decline", {}));
  $("#accept").addEventListener("click", () => send(page, "takeback", { accept: true }));
  $("#decline").addEventListener("click", () => send(page, "takeback", { accept: false }));
  boardEvents(page);
  $("#first").addEventListener("click", () => replay(page, 0));
  $("#previous").addEventListener("click", () => replay(page, replayPly(page) - 1));
  $("#next").addEventListener("click", () => replay(page, replayPly(page) + 1));
  $("#last").addEventListener("click", () => replay(page, page.view.ply));
  $("#live").addEventListener("click", () => replay(page, page.view.ply));
  $("#moves").addEventListener("click", (event) => {
    const item = event.target.closest("li[data-ply]");
    if (item) replay(page, Number(item.dataset.ply));
  });
  document.addEventListener("keydown", (event) => keyboard(page, event));
  onLanguage.push(() => page.view && showParts(page));
  refresh(page);
  listen(page);
}

// Live updates: the server sends the game's version when it changes; polling only while the
// event stream is not open (no EventSource, or reconnecting).
function listen(page) {
  const source = gameStream(page.id);
  if (source) {
    source.addEventListener("version", () => refresh(page));
  }
  setInterval(() => {
    if (!source || source.readyState !== EventSource.OPEN) refresh(page);
  }, 1000);
}

// The game read again; the page is drawn anew if it moved on. Versions only grow, so an answer
// that comes after a newer one (two reads under way at once) is dropped, not drawn over it. A
// read asked for while the page sends waits until the answer is drawn (page.behind).
async function refresh(page) {
  if (page.busy) {
    page.behind = true;
    return;
  }
  page.behind = false;
  try {
    const view = await api("GET", `/api/games/${page.id}`, undefined, page.token);
    if (!page.view && view.you !== null) remember({ id: page.id, game: view.game, you: view.you, link: location.href });
    if (page.error && page.error.lost) showError(page, null); // the server answers again
    if (!page.busy && (!page.view || view.version > page.view.version)) show(page, view);
  } catch (error) {
    showError(page, Object.assign(error, { lost: true }));
  }
}

// A request refused because the game changed meanwhile (409) shows the board as it is now; the
// computer's move asked for by this page needs no words then (another page asked first).
async function send(page, action, body) {
  page.busy = true;
  showError(page, null);
  try {
    const view = await api("POST", `/api/games/${page.id}/${action}`, { version: page.view.version, ...body }, page.token);
    page.busy = false;
    show(page, { ...view, you: page.view.you });
    if (page.behind) refresh(page); // the stream told of a change while this was sent
  } catch (error) {
    page.clicks = [];
    page.busy = false;
    await refresh(page);
    if (action !== "ai" || error.status !== 409) showError(page, error);
  }
  page.busy = false;
}

// The error under the board, until a newer position is drawn: a conflict in the page's own
// words (the board already shows the current position), any other in the server's.
function showError(page, error) {
  page.error = error && { lost: Boolean(error.lost), key: error.status === 409 ? "changed" : null, text: error.message };
  showMessage(page);
}

// The page's error under the board, in the page's language.
function showMessage(page) {
  const error = page.error;
  $("#message").textContent = !error ? "" : error.key ? t(error.key) : error.text;
}

// The rematch: the same options and clock, each player (with their god) one seat on: with two,
// the seats swapped. The first to ask starts it; each other person takes their seat in it from
// their own page (which then offers "Play the rematch"), so no links need sending.
async function rematch(page) {
  const kept = storedGames().find((game) => game.id === page.view.rematch);
  if (kept) {
    location.href = kept.link;
    return;
  }
  try {
    const created = await api("POST", `/api/games/${page.id}/rematch`, {}, page.token);
    remember({ id: created.id, game: created.game, you: created.you, link: created.link });
    location.href = created.link;
  } catch (error) {
    showError(page, error);
  }
}

// Before every side has moved the button aborts the game (one click, nothing is rated);
// afterwards it resigns, on a second click.
function resign(page) {
  const button = $("#resign");
  if (page.view && page.view.abortable) send(page, "abort", {});
  else if (button.dataset.confirm) send(page, "resign", {});
  else {
    button.dataset.confirm = "yes";
    button.textContent = t("really_resign");
  }
}

// A new view of the game from the server: the board (unless replaying) and everything around it;
// the computer's move is asked for when it is its turn.
function show(page, view) {
  const previous = page.view;
  page.view = view;
  page.seen = performance.now();
  document.dispatchEvent(new CustomEvent("bordspel:view", { detail: view })); // for chat.js
  const samePosition = previous && previous.ply === view.ply && previous.position === view.position;
  if (!samePosition) { // a newer version of the same position (a job's result) keeps a move half made
    page.clicks = [];
    page.tapped = null;
  }
  if (previous && previous.version !== view.version) page.error = null;
  if (page.hint && page.hint.version !== view.version) page.hint = null;
  if (page.replay !== null && page.replay > view.ply) page.replay = null;
  if (page.replay === null) {
    drawBoard(view.svg);
    if (previous && view.ply === previous.ply + 1) animateArrival();
  }
  showParts(page);
  const aiTurn = !view.outcome && view.seats[view.to_move] !== "human";
  if (aiTurn && view.you !== null && page.asking !== view.version) {
    page.asking = view.version;
    askComputer(page, view.version);
  }
}

// The computer's turn is asked for by one page: the first person's. The other people's pages
// ask only if the game has not moved on after the computer's time (that page may be closed),
// so no page's request is refused as stale.
function askComputer(page, version) {
  const view = page.view;
  const first = view.seats.indexOf("human");
  const ask = () => {
    if (page.view.version === version && !page.view.outcome) send(page, "ai", {});
  };
  if (view.you === first) ask();
  else setTimeout(ask, (view.ai_time + 5) * 1000);
}

// The moves numbered as in the record: one number for each round of the seats ("1. A a1:B").
function moveItem(page, view, text, i) {
  const round = i % view.seats.length === 0;
  const classes = [page.replay === i + 1 ? "current" : "", round ? "" : "same-move"].filter(Boolean).join(" ");
  return element("li", {
    "data-ply": String(i + 1), value: String(Math.floor(i / view.seats.length) + 1), class: classes, tabindex: "0", text,
  });
}

// Everything on the page but the board's picture, from the page's view.
function showParts(page) {
  const view = page.view;
  const title = view.title[language] || view.game;
  document.title = `${turnInTitle(view)} — ${title} — bordspel`;
  $("#title").textContent = title;
  // The rules page offers the way back to this game: its address (with the seat) in the rules
  // page's fragment, which the browser never sends to the server.
  $("#rules-link").href = `/rules/${view.game}#from=${encodeURIComponent(location.pathname + location.hash)}`;
  $("#rules-link").hidden = !view.rules;
  // While a clock runs the rules open in a tab of their own: the game stays on screen.
  const ticking = view.clock && view.clock.running !== null;
  if (ticking) Object.assign($("#rules-link"), { target: "_blank", rel: "noopener" });
  else $("#rules-link").removeAttribute("target");
  $("#moves").replaceChildren(...view.moves.map((m, i) => moveItem(page, view, m, i)));
  if (page.replay === null) $("#moves").scrollTop = 1e9;
  $("#players").replaceChildren(...view.seats.map((_, seat) => player(view, seat)));
  $("#seat-line").replaceChildren(...view.seats.map((_, seat) => seatLine(view, seat)));
  toolbar(page); // before the status: the toolbar's choices decide which moves fit
  showStatus(page);
  controls(page);
  highlight(page);
  showReplay(page);
  showHint(page);
  showMessage(page);
  fitBoard();
}

// The line above the board: whose turn, what to click next, or how the game ended.
function showStatus(page) {
  const view = page.view;
  const status = $("#status");
  status.classList.toggle("over", Boolean(view.outcome) && page.replay === null);
  stopThinking(page);
  if (page.replay !== null) {
    const key = page.replay ? "replay_status" : "replay_status_start";
    status.textContent = t(key, { ply: page.replay, plies: view.ply });
  } else if (view.outcome && view.outcome.termination === "aborted") {
    status.textContent = t("aborted");
  } else if (view.outcome) {
    const winners = view.outcome.winners;
    const how = ending(view);
    if (!winners.length) status.textContent = t("draw", { how });
    else if (winners.includes(view.you)) status.textContent = t("you_won", { how });
    else status.textContent = t("won", { names: winners.map((s) => seatName(view, s)).join(t("and")), how });
    const mine = view.you !== null && view.rating_changes && view.ratings ? view.rating_changes[view.you] : null;
    if (typeof mine === "number") status.textContent += ` ${t("your_rating", { rating: view.ratings[view.you].rating, change: signed(mine) })}`;
    if (rematchWaits(view)) status.textContent += ` ${t(view.rated ? "rated_rematch_offered" : "rematch_offered")}`;
  } else if (view.seats[view.to_move] !== "human") {
    startThinking(page);
  } else if (view.to_move === view.you) {
    const words = prompt(page);
    status.textContent = words ? t("your_turn", { prompt: words }) : t("your_move");
  } else {
    status.textContent = t(view.you === null ? "to_move" : "waiting", { name: seatName(view, view.to_move) });
  }
}

// Whose move it is, for the tab's title ("Your turn", "Waiting for Player 2"), so a tab in the
// background tells; notices.js puts the count of the account's games to move before it.
function turnInTitle(view) {
  if (view.outcome) return t("game_over");
  if (view.to_move === view.you) return t("your_move");
  return t(view.you === null ? "to_move" : "waiting", { name: seatName(view, view.to_move) });
}

// Whether another person started a rematch in which this page's player has not taken a seat.
function rematchWaits(view) {
  return Boolean(view.rematch) && role(view).person && !storedGames().some((game) => game.id === view.rematch);
}

// "Computer (hard) is thinking… 3 s of 10 s": the time since this page saw the position.
function startThinking(page) {
  const view = page.view;
  if (!page.thinking || page.thinking.version !== view.version) page.thinking = { version: view.version, since: Date.now() };
  const tick = () => {
    const elapsed = Math.floor((Date.now() - page.thinking.since) / 1000);
    const text = t("thinking", { name: seatName(view, view.to_move), elapsed, budget: Math.round(view.ai_time) });
    $("#status").replaceChildren(element("span", { class: "thinking", text }));
  };
  tick();
  page.timer = setInterval(tick, 1000);
}

// The thinking line's counter stops.
function stopThinking(page) {
  if (page.timer) clearInterval(page.timer);
  page.timer = null;
}

// The buttons beside the board, and a takeback asked for.
function controls(page) {
  const view = page.view;
  const { person, againstPeople } = role(view);
  $("#you").textContent = playing(view);
  for (const id of ["#undo", "#resign"]) $(id).hidden = !person;
  $("#undo").textContent = againstPeople ? t("ask_takeback") : t("undo");
  // A finished game's result is final: nothing is taken back once it is over.
  $("#undo").disabled = view.ply === 0 || view.takeback !== null || Boolean(view.outcome);
  $("#resign").disabled = Boolean(view.outcome);
  $("#rematch").hidden = !(person && view.outcome);
  $("#analyse").hidden = !view.outcome || view.ply === 0; // nothing to analyse in a game aborted unplayed
  $("#analyse").href = analysisLink(view.game, page.replay === null ? view.position : page.replayPosition, page.id);
  $("#rematch").textContent = t(view.rematch ? "join_rematch" : "rematch");
  $("#rematch").classList.toggle("primary", Boolean(view.rematch));
  $("#decline-rematch").hidden = !(person && rematchWaits(view));
  $("#new").href = `/?game=${encodeURIComponent(view.game)}`;
  if (!$("#resign").dataset.confirm || view.outcome || view.abortable) {
    delete $("#resign").dataset.confirm;
    $("#resign").textContent = t(view.abortable ? "abort" : "resign");
  }
  const asked = view.takeback;
  $("#takeback").hidden = asked === null;
  if (asked !== null) {
    const mine = asked === view.you;
    $("#takeback-text").textContent = mine ? t("you_asked") : t("asks", { name: seatName(view, asked) });
    $("#accept").hidden = mine || !person;
    $("#decline").hidden = !person;
    $("#decline").textContent = mine ? t("withdraw") : t("decline");
  }
}

// The board at move ``ply``, and the page around it.
async function replay(page, ply) {
  if (await replayTo(page, ply)) showParts(page);
}

// Arrows, Home and End replay the game; Escape forgets the clicks; a letter picks a toolbar choice.
function keyboard(page, event) {
  if (!page.view || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest && event.target.closest("input, select, textarea")) return;
  const steps = { ArrowLeft: -1, ArrowRight: 1 };
  if (event.key in steps) replay(page, replayPly(page) + steps[event.key]);
  else if (event.key === "Home") replay(page, 0);
  else if (event.key === "End") replay(page, page.view.ply);
  else if (event.key === "Escape") {
    page.clicks = [];
    page.tapped = null;
    highlight(page);
    showStatus(page);
  } else {
    const button = document.querySelector(`#toolbar button[data-key="${CSS.escape(event.key.toUpperCase())}"]:not([disabled])`);
    if (!button) return;
    button.click();
  }
  event.preventDefault();
}

gamePage();
