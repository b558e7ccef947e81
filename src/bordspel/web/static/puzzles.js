// The puzzle page: a position where one move wins by force, at the player's puzzle rating. Each
// move is sent with the line so far; the server checks it against the solver's proof, answers
// the defence and rates a logged-in player's first attempt (bordspel.web.puzzles).

import { $, api, element } from "./dom.js";
import { addWords, onLanguage, t } from "./words.js";

addWords({
  en: {
    puzzles: "Puzzles", puzzle_your_move: "Your move", puzzle_play: "Play", puzzle_next: "Next puzzle",
    puzzle_task: "Win by force: find the move.", puzzle_facts: "{game} puzzle {id}, rated {rating}; a win in {distance} moves.",
    puzzle_right: "Right. The defence answered {reply}; go on.", puzzle_solved: "Solved!",
    puzzle_wrong: "Not that one. A winning move: {moves}.", puzzle_rating: "Your puzzle rating: {rating} ({change}).",
    puzzle_rating_now: "Your puzzle rating: {rating}.", puzzle_log_in: "Log in to get a puzzle rating.",
  },
  nl: {
    puzzles: "Puzzels", puzzle_your_move: "Jouw zet", puzzle_play: "Speel", puzzle_next: "Volgende puzzel",
    puzzle_task: "Win geforceerd: vind de zet.", puzzle_facts: "{game}-puzzel {id}, rating {rating}; winst in {distance} zetten.",
    puzzle_right: "Goed. De verdediging speelde {reply}; ga door.", puzzle_solved: "Opgelost!",
    puzzle_wrong: "Die niet. Een winnende zet: {moves}.", puzzle_rating: "Je puzzelrating: {rating} ({change}).",
    puzzle_rating_now: "Je puzzelrating: {rating}.", puzzle_log_in: "Log in voor een puzzelrating.",
  },
});

for (const node of document.querySelectorAll("[data-i18n^='puzzle']")) node.textContent = t(node.dataset.i18n);

let puzzle = null;
let line = [];

const said = new Map();  // each text shown, to say again in another language

function say(selector, key, values = {}) {
  said.set(selector, [key, values]);
  $(selector).textContent = t(key, values);
}

onLanguage.push(() => {
  for (const [selector, [key, values]] of said) $(selector).textContent = t(key, values);
});

async function showPosition(position) {
  const query = new URLSearchParams({ game: puzzle.game, position });
  const view = await api("GET", `/api/board?${query}`);
  $("#puzzle-board").innerHTML = view.svg;  // the server's own picture of the position
  const moves = $("#puzzle-moves");
  moves.replaceChildren(...view.legal.map((move) => element("option", { value: move.text, text: move.text })));
  return view;
}

function showRating(found) {
  if (!found) say("#puzzle-rating", "puzzle_log_in");
  else say("#puzzle-rating", "puzzle_rating_now", { rating: found.rating });
}

async function load() {
  $("#puzzle-error").textContent = "";
  $("#puzzle-result").textContent = "";
  said.delete("#puzzle-result");
  const found = await api("GET", "/api/puzzles/next");
  puzzle = found.puzzle;
  line = [];
  say("#puzzle-task", "puzzle_task");
  const game = puzzle.game.charAt(0).toUpperCase() + puzzle.game.slice(1);
  say("#puzzle-facts", "puzzle_facts", { game, id: puzzle.id, rating: puzzle.rating, distance: (puzzle.distance + 1) / 2 });
  showRating(found.rating);
  $("#puzzle-play").disabled = false;
  await showPosition(puzzle.start);
}

function ended(answer) {
  $("#puzzle-play").disabled = true;
  if (answer.rating) {
    const change = answer.change >= 0 ? `+${answer.change}` : `${answer.change}`;
    say("#puzzle-rating", "puzzle_rating", { rating: answer.rating.rating, change });
  }
}

async function play(event) {
  event.preventDefault();
  const move = $("#puzzle-moves").value;
  const answer = await api("POST", `/api/puzzles/${encodeURIComponent(puzzle.id)}/moves`, { line, move });
  line = answer.line;
  const position = await replayed(line);
  if (answer.result === "right") say("#puzzle-result", "puzzle_right", { reply: answer.reply });
  if (answer.result === "solved") { say("#puzzle-result", "puzzle_solved"); ended(answer); }
  if (answer.result === "wrong") {
    say("#puzzle-result", "puzzle_wrong", { moves: answer.solution.join(", ") });
    ended(answer);
  }
  await showPosition(position);
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
  return (event) => action(event).catch((error) => { $("#puzzle-error").textContent = error.message; });
}

$("#puzzle-move").addEventListener("submit", guarded(play));
$("#puzzle-next").addEventListener("click", guarded(load));
guarded(load)();
