// A game's seats in words and on the page: names, colours, ratings and their changes, clocks,
// who plays which seat, and how the game ended.

import { clockOf } from "./clock.js";
import { element } from "./dom.js";
import { hasWord, language, t } from "./words.js";

// A seat's name for this page: "You", its account's name, "Player 2" or "Computer (hard)".
export function seatName(view, seat) {
  const spec = view.seats[seat];
  if (seat === view.you && spec === "human") return t("you");
  if (view.players && view.players[seat]) return view.players[seat];
  return spec === "human" ? t("player", { n: seat + 1 }) : t("computer", { level: t(spec) });
}

function swatchOf(colour) {
  const swatch = element("span", { class: colour ? "swatch" : "swatch none" });
  if (colour) swatch.style.background = colour;
  return swatch;
}

// One line per seat, numbered by the list in the order of play: "2. ● Computer (hard)".
export function player(view, seat) {
  const item = element("li", { class: !view.outcome && seat === view.to_move ? "to-move" : "" },
    swatchOf(view.seat_colours[seat]), playerName(view, seat), ...ratingOf(view, seat), ...clockOf(view, seat));
  const note = (view.seat_notes[language] || view.seat_notes.en)[seat];
  if (note) item.append(element("p", { class: "note", text: note }));
  return item;
}

// A rated game's rating next to the name ("1512?" while provisional) and, once it is over,
// the change this game made ("+12", "-12").
function ratingOf(view, seat) {
  const rating = view.ratings && view.ratings[seat];
  if (!rating) return [];
  const change = view.rating_changes && view.rating_changes[seat];
  const shown = [element("span", { class: "rating", text: `${rating.rating}${rating.provisional ? "?" : ""}` })];
  if (typeof change === "number") {
    shown.push(element("span", { class: `rating-change ${change > 0 ? "up" : change < 0 ? "down" : ""}`, text: signed(change) }));
  }
  return shown;
}

export const signed = (change) => `${change > 0 ? "+" : change < 0 ? "−" : "±"}${Math.abs(change)}`;

// A player with an account: their name links to their profile.
function playerName(view, seat) {
  const account = view.players && view.players[seat];
  if (!account || seat === view.you) return element("span", { class: "name", text: seatName(view, seat) });
  return element("a", { class: "name", href: `/players/${encodeURIComponent(account)}`, text: account });
}

// On a phone the players list is below the board: a line above it says who is who
// ("You: ●  Computer (hard): ●").
export function seatLine(view, seat) {
  const colour = view.seat_colours[seat];
  const item = element("li", { class: !view.outcome && seat === view.to_move ? "to-move" : "" },
    element("span", { class: "name", text: colour ? `${seatName(view, seat)}:` : seatName(view, seat) }));
  if (colour) item.append(swatchOf(colour));
  item.append(...clockOf(view, seat));
  return item;
}

// How a game ended, in words: resignation, time, or the game's own words for its ending.
export function ending(view) {
  const termination = view.outcome.termination;
  if (termination === "resignation" || termination === "time") return t(termination);
  return (view.prompts[language] || {})[`over:${termination}`] || termination;
}

// "You play first" ("Jij begint"), second, third, fourth; later seats by number.
export function playing(view) {
  if (view.you === null) return t("watching");
  const key = `playing_${view.you + 1}`;
  return hasWord(key) ? t(key) : t("playing", { n: view.you + 1 });
}

// Whether the page's seat is a person's, and whether another person plays in the game.
export function role(view) {
  return {
    person: view.you !== null && view.seats[view.you] === "human",
    againstPeople: view.seats.some((spec, seat) => spec === "human" && seat !== view.you),
  };
}
