// The analysis board: any position, the engine's best lines (deeper and deeper while you watch),
// moves played freely. Opened from a game, analysis-moves.js lists that game's moves beside it.

import { drawBoard, fitBoard } from "./board.js";
import { boardEvents, highlight, prompt, toolbar } from "./clicks.js";
import { $, api, element } from "./dom.js";
import { analysisLink } from "./links.js";
import { ending } from "./seats.js";
import { language, onLanguage, t, titleOf } from "./words.js";

const BEST_LINES = 3;

// The board set up from the address (a game and a position), the position editor, moves played
// freely and taken back.
async function analysisPage() {
  const params = new URLSearchParams(location.hash.slice(1));
  const page = {
    view: null, clicks: [], mode: {}, busy: false, replay: null, touch: false, tapped: null,
    played: [], lines: null, game: null, play: (text) => boardMove(page, text), showStatus: () => boardStatus(page),
  };
  document.addEventListener("bordspel:game", (event) => {
    page.game = { game: event.detail.game.game, names: event.detail.names };
    if (page.view) showBoard(page);
    if (page.lines) showLines(page);
  });
  const meta = await api("GET", "/api/meta");
  boardEvents(page);
  const games = () => $("#game-select").replaceChildren(...Object.keys(meta.games).map((name) =>
    element("option", { value: name, text: titleOf(meta, name) })));
  games();
  $("#editor").addEventListener("submit", (event) => {
    event.preventDefault();
    setUp(page, $("#game-select").value, $("#position").value.trim());
  });
  $("#start-position").addEventListener("click", () => setUp(page, $("#game-select").value, null));
  $("#back").addEventListener("click", () => takeBackOnBoard(page));
  onLanguage.push(() => {
    games();
    if (!page.view) return;
    $("#game-select").value = page.view.game;
    showBoard(page);
    if (page.lines) showLines(page);
  });
  page.from = params.get("from");
  document.addEventListener("bordspel:set-up", (event) => setUp(page, event.detail.game, event.detail.position));
  const asked = params.get("game");
  setUp(page, meta.games[asked] ? asked : Object.keys(meta.games)[0], params.get("position"));
}

// A position set up afresh (no moves played on the board yet).
function setUp(page, game, position) {
  page.played = [];
  return loadBoard(page, game, position, null);
}

// The position (after ``move``, if given) read from the server and shown; false if refused.
async function loadBoard(page, game, position, move) {
  page.busy = true;
  try {
    const query = new URLSearchParams({ game });
    if (position) query.set("position", position);
    if (move) query.set("move", move);
    const view = await api("GET", `/api/board?${query}`);
    page.view = { ...view, you: view.to_move }; // whoever is to move, the board's user plays them
    history.replaceState(null, "", analysisLink(game, page.view.position, page.from));
    document.dispatchEvent(new CustomEvent("bordspel:board", { detail: page.view }));
    $("#message").textContent = "";
    showBoard(page);
    analyseBoard(page);
    return true;
  } catch (error) {
    $("#message").textContent = error.message;
    return false;
  } finally {
    page.busy = false;
  }
}

// The board, the editor's text and the moves played on the board.
function showBoard(page) {
  const view = page.view;
  page.clicks = [];
  page.tapped = null;
  $("#title").textContent = view.title[language] || view.game;
  $("#position").value = view.position;
  $("#game-select").value = view.game;
  $("#back").disabled = !page.played.length;
  $("#played").textContent = page.played.map((step) => step.move).join(" ");
  drawBoard(view.svg);
  toolbar(page);
  boardStatus(page);
  highlight(page);
  fitBoard();
}

// A move played on the board (kept, to be taken back).
async function boardMove(page, text) {
  const before = { game: page.view.game, position: page.view.position, move: text };
  page.played.push(before);
  if (!(await loadBoard(page, before.game, before.position, text))) page.played.pop();
}

function takeBackOnBoard(page) {
  const last = page.played.pop();
  if (last) loadBoard(page, last.game, last.position, null);
}

// A seat's name on the analysis board: its player's in the game it was opened from (the
// "bordspel:game" event of analysis-moves.js), while it shows that game's kind, else "Player n".
function boardName(page, seat) {
  const names = page.game && page.game.game === page.view.game ? page.game.names() : [];
  return names[seat] || t("player", { n: seat + 1 });
}

// The line above the board: who is to move and what to click, or how the game ended.
function boardStatus(page) {
  const view = page.view;
  const name = boardName(page, view.to_move);
  const status = $("#status");
  status.classList.toggle("over", Boolean(view.outcome));
  if (view.outcome) {
    const winners = view.outcome.winners.map((seat) => boardName(page, seat));
    status.textContent = winners.length ? t("won", { names: winners.join(t("and")), how: ending(view) }) : t("draw", { how: ending(view) });
    return;
  }
  const words = prompt(page);
  status.textContent = words ? `${t("to_move", { name })}: ${words}` : t("to_move", { name });
}

// The engine's lines, deeper and deeper (server-sent events read from a fetch, so that a
// refusal's words can be shown); a new position stops the stream of the one before.
async function analyseBoard(page) {
  if (page.stopLines) page.stopLines.abort();
  const stop = page.stopLines = new AbortController();
  const view = page.view;
  page.lines = null;
  $("#depth").textContent = "";
  if (view.outcome) {
    $("#lines").replaceChildren();
    return;
  }
  $("#lines").replaceChildren(element("li", { class: "thinking", text: t("hint_thinking") }));
  const query = new URLSearchParams({ game: view.game, position: view.position, lines: BEST_LINES });
  try {
    const response = await fetch(`/api/board/analysis/stream?${query}`, { signal: stop.signal });
    if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error || `HTTP ${response.status}`);
    for await (const [event, data] of serverEvents(response)) {
      if (stop.signal.aborted) return; // a read finished after the board moved on: not this position's lines
      if (event === "refused") throw new Error(data.error);
      page.lines = data.lines;
      page.depth = data;
      showLines(page);
    }
  } catch (error) {
    if (!stop.signal.aborted) $("#lines").replaceChildren(element("li", { class: "error", text: error.message }));
  }
}

// Each event of a text/event-stream response: its name ("message" without one) and its data.
async function* serverEvents(response) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    buffer += read.value;
    const blocks = buffer.split("\n\n");
    buffer = blocks.pop();
    for (const block of blocks) {
      const fields = Object.fromEntries(block.split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]));
      if (fields.data) yield [fields.event || "message", JSON.parse(fields.data)];
    }
  }
}

// The engine's lines: each best move (a click plays it), its verdict and its line.
function showLines(page) {
  const depth = page.depth;
  $("#depth").textContent = t(depth.last ? "depth_done" : "depth_going", { depth: depth.depth });
  $("#lines").replaceChildren(...page.lines.map((line) => element("li", {},
    element("button", { type: "button", class: "line-move", text: line.move, onclick: () => boardMove(page, line.move) }),
    element("span", { class: "judgement", text: lineJudgement(page, line) }),
    element("span", { class: "line", text: line.line.join(" ") }))));
}

// A line's verdict in words, named for the side it favours: "Player 1 wins in 5 moves" where a
// solver proved it, else "Player 2 is better by 1.5 · depth 4" from the search (its score is the
// player to move's; with two players a minus is the other one's plus).
function lineJudgement(page, line) {
  const seat = page.view.to_move;
  const other = page.view.seat_colours.length === 2 ? 1 - seat : null;
  if (line.result === "draw") return t("exact_draw");
  if (line.result) {
    const [winner, key] = line.result === "win" ? [seat, "exact_win"] : other !== null ? [other, "exact_win"] : [seat, "exact_loss"];
    const when = !line.plies_to_end ? "" : line.plies_to_end === 1 ? "_one" : "_in";
    return t(`${key}${when}`, { name: boardName(page, winner), n: line.plies_to_end });
  }
  if (line.depth === 0) return t("known");
  const score = Math.round(Math.abs(line.score) * 10) / 10;
  if (!score) return t("score_even", { depth: line.depth });
  const [favoured, key] = line.score > 0 ? [seat, "score_better"] : other !== null ? [other, "score_better"] : [seat, "score_worse"];
  return t(key, { name: boardName(page, favoured), score, depth: line.depth });
}

analysisPage();
