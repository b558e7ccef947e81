// The puzzle page: a position where one move wins by force, at the player's puzzle rating, played
// by clicks on the board as in a game (clicks.js) or by name from the list. Each move is sent with
// the line so far; the server checks it against the game's proof, answers the defence and rates
// a logged-in player's first attempt (bordspel.web.puzzles). /puzzles#<id> opens that puzzle.

import { drawBoard, fitBoard } from "./board.js";
import { boardEvents, highlight, prompt, toolbar } from "./clicks.js";
import { $, api, element } from "./dom.js";
import { addWords, onLanguage, t } from "./words.js";

addWords({
  en: {
    puzzles: "Puzzles", puzzle_your_move: "Your move", puzzle_play: "Play", puzzle_next: "Next puzzle",
    puzzle_task: "Win by force: find the move.",
    puzzle_facts_one: "{game} puzzle {id}, rated {rating}; a win in 1 move.",
    puzzle_facts: "{game} puzzle {id}, rated {rating}; a win in {distance} moves.",
    puzzle_right: "Right. The defence answered {reply}; go on.", puzzle_solved: "Solved!",
    puzzle_wrong: "Wrong: {move} does not win. Winning here: {moves}.",
    puzzle_rating: "Your puzzle rating: {rating} ({change}).",
    puzzle_rating_now: "Your puzzle rating: {rating}.", puzzle_log_in: "Log in to get a puzzle rating.",
    puzzle_over: "Puzzle over: on to the next one.", puzzle_click: "Your move: {prompt}",
  },
  nl: {
    puzzles: "Puzzels", puzzle_your_move: "Jouw zet", puzzle_play: "Speel", puzzle_next: "Volgende puzzel",
    puzzle_task: "Win geforceerd: vind de zet.",
    puzzle_facts_one: "{game}-puzzel {id}, rating {rating}; winst in 1 zet.",
    puzzle_facts: "{game}-puzzel {id}, rating {rating}; winst in {distance} zetten.",
    puzzle_right: "Goed. De verdediging speelde {reply}; ga door.", puzzle_solved: "Opgelost!",
    puzzle_wrong: "Fout: {move} wint niet. Hier wint: {moves}.",
    puzzle_rating: "Je puzzelrating: {rating} ({change}).",
    puzzle_rating_now: "Je puzzelrating: {rating}.", puzzle_log_in: "Log in voor een puzzelrating.",
    puzzle_over: "Puzzel voorbij: op naar de volgende.", puzzle_click: "Jouw zet: {prompt}",
  },
});

for (const node of document.querySelectorAll("[data-i18n^='puzzle']")) node.textContent = t(node.dataset.i18n);

let puzzle = null;
let line = [];
let over = false;
let shown = 0; // the puzzles asked for: an answer for an earlier one is not drawn

// The board as clicks.js wants it: the server's view, the clicks so far, and what a whole
// move clicked does.
const page = {
  view: null, clicks: [], mode: {}, busy: false, replay: null, touch: false, tapped: null,
  play: (text) => guarded(() => send(text))(), showStatus: () => showStatus(),
};

const said = new Map();  // each text shown, to say again in another language

function say(selector, key, values = {}) {
  said.set(selector, [key, values]);
  $(selector).textContent = t(key, values);
}

onLanguage.push(() => {
  for (const [selector, [key, values]] of said) $(selector).textContent = t(key, values);
  if (page.view) showBoard();
});

function showStatus() {
  const words = over ? "" : prompt(page);
  $("#status").textContent = over ? t("puzzle_over") : words ? t("puzzle_click", { prompt: words }) : "";
}

function showBoard() {
  page.clicks = [];
  page.tapped = null;
  drawBoard(page.view.svg);
  toolbar(page);
  showStatus();
  highlight(page);
  fitBoard();
}

async function showPosition(position) {
  const query = new URLSearchParams({ game: puzzle.game, position });
  const view = await api("GET", `/api/board?${query}`);
  page.view = { ...view, you: view.to_move, legal: over ? [] : view.legal };  // no clicks once it is over
  showBoard();
  $("#puzzle-moves").replaceChildren(...page.view.legal.map((move) => element("option", { value: move.text, text: move.text })));
  $("#puzzle-moves").disabled = over;
  $("#puzzle-play").disabled = over;
}

function showRating(found) {
  if (!found) say("#puzzle-rating", "puzzle_log_in");
  else say("#puzzle-rating", "puzzle_rating_now", { rating: found.rating });
}

async function load() {
  $("#puzzle-error").textContent = "";
  $("#puzzle-result").textContent = "";
  said.delete("#puzzle-result");
  $("#puzzle-next").classList.remove("primary");
  const asked = puzzle === null && location.hash.slice(1);  // /puzzles#<id>: that puzzle first
  const mine = ++shown;
  const found = await api("GET", asked ? `/api/puzzles/${encodeURIComponent(asked)}` : "/api/puzzles/next");
  if (mine !== shown) return; // a later click on "Next" asked for another
  puzzle = found.puzzle;
  line = [];
  over = false;
  say("#puzzle-task", "puzzle_task");
  const game = puzzle.game.charAt(0).toUpperCase() + puzzle.game.slice(1);
  const moves = (puzzle.distance + 1) / 2;
  const facts = { game, id: puzzle.id, rating: puzzle.rating, distance: moves };
  say("#puzzle-facts", moves === 1 ? "puzzle_facts_one" : "puzzle_facts", facts);
  showRating(found.rating);
  await showPosition(puzzle.start);
}

// The puzzle is over: at once, before the last position is read, the board, the toolbar and the
// list take no more moves, until the next puzzle.
function ended(answer) {
  over = true;
  page.view = { ...page.view, legal: [] };
  showBoard();
  $("#puzzle-moves").disabled = true;
  $("#puzzle-play").disabled = true;
  $("#puzzle-next").classList.add("primary");
  if (answer.rating) {
    const change = answer.change >= 0 ? `+${answer.change}` : `${answer.change}`;
    say("#puzzle-rating", "puzzle_rating", { rating: answer.rating.rating, change });
  }
}

// One move sent; the board then shows the position after it and the defence (after a wrong
// move, the position it was played in, with the right move named).
async function send(move) {
  if (over || page.busy) return;
  page.busy = true;
  const mine = shown;
  try {
    const answer = await api("POST", `/api/puzzles/${encodeURIComponent(puzzle.id)}/moves`, { line, move });
    if (mine !== shown) return; // "Next" was clicked meanwhile: the answer is of another puzzle
    // The board first, then the words: once the answer is read, the board is the one to play on.
    if (answer.result === "wrong") {
      ended(answer);
      await showPosition(await replayed(line));
      say("#puzzle-result", "puzzle_wrong", { move, moves: answer.solution.join(", ") });
      return;
    }
    line = answer.line;
    if (answer.result === "solved") ended(answer);
    await showPosition(await replayed(line));
    if (answer.result === "right") say("#puzzle-result", "puzzle_right", { reply: answer.reply });
    if (answer.result === "solved") say("#puzzle-result", "puzzle_solved");
  } finally {
    page.busy = false;
  }
}

// The position after the moves of the line, each asked of the server's board.
async function replayed(moves) {
  let position = puzzle.start;
  for (const move of moves) {
    const query = new URLSearchParams({ game: puzzle.game, position, move });
    position = (await api("GET", `/api/board?${query}`)).position;
  }
  return position;
}

function guarded(action) {
  return (...args) => action(...args).catch((error) => { page.busy = false; $("#puzzle-error").textContent = error.message; });
}

boardEvents(page);
$("#puzzle-move").addEventListener("submit", guarded(async (event) => { event.preventDefault(); await send($("#puzzle-moves").value); }));
$("#puzzle-next").addEventListener("click", guarded(load));
guarded(load)();
