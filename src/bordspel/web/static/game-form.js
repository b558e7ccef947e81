// The form of a new game (start page) and of a challenge (lobby): the game, its options, each
// seat's player (a person or a level of the computer) and each seat's own choices (a god).

import { $, element } from "./dom.js";
import { language, t, titleOf } from "./words.js";

// The game to choose (a radio button per game) and the links to the games' rules, on the start
// page and the lobby's form (pages/parts/game-fields.html).
export function showGameChoices(meta) {
  const names = Object.keys(meta.games);
  $("#game-choice").replaceChildren(...names.map((name) => {
    const input = element("input", { type: "radio", name: "game", value: name, id: `game-${name}` });
    input.addEventListener("change", () => showOptions(meta, name));
    return element("label", { for: `game-${name}` }, input, titleOf(meta, name));
  }));
  $("#rules-links").replaceChildren(...names.filter((name) => meta.games[name].rules).flatMap((name, i) => [
    ...(i ? [" · "] : []), element("a", { href: `/rules/${name}`, text: titleOf(meta, name) })]));
}

// The options chosen in the form: numbers, flags and each seat's choices (gods).
export function chosenOptions(meta, game) {
  const options = {};
  for (const input of document.querySelectorAll("#options input")) {
    options[input.name] = input.type === "checkbox" ? input.checked : Number(input.value);
  }
  return Object.assign(options, seatOptions(meta, game));
}

export function showOptions(meta, name) {
  const box = $("#options");
  const before = Object.fromEntries([...box.querySelectorAll("input")].map((i) => [i.name, i.type === "checkbox" ? i.checked : i.value]));
  box.replaceChildren();
  const options = Object.fromEntries(Object.entries(meta.games[name].options).filter(([o]) => !meta.games[name].limits[o].per_seat));
  for (const [option, value] of Object.entries(options)) {
    const label = optionWord(meta, name, option);
    if (typeof value === "boolean") {
      const input = element("input", { type: "checkbox", name: option, id: `option-${option}` });
      input.checked = option in before ? before[option] : value;
      input.addEventListener("change", () => markLevels(meta, name));
      box.append(element("label", { class: "check", for: input.id }, input, label));
    } else {
      const limit = meta.games[name].limits[option] || {};
      const choices = limit.choices || [];
      const limits = choices.length ? { min: Math.min(...choices), max: Math.max(...choices) } : { min: limit.min, max: limit.max };
      const input = element("input", { type: "number", name: option, value: String(before[option] ?? value), ...limits });
      input.addEventListener("input", () => showSeats(meta, name));
      box.append(element("label", {}, label, input));
    }
  }
  if (!Object.keys(options).length) box.append(element("span", { text: t("none") }));
  showSeats(meta, name);
}

// An option's label in the game's own words (its guide), else the page's.
export function optionWord(meta, name, option) {
  const words = meta.games[name].option_words || {};
  return (words[language] || words.en || {})[option] || t(option === "players" ? "players_option" : option);
}

// The note on a seat's choice (a god's power) under its select.
function choiceNote(meta, name, value) {
  const notes = meta.games[name].choice_notes || {};
  return (notes[language] || notes.en || {})[value] || "";
}

// Each seat's player (a person or a level of the computer) and its own options (a god); in the
// lobby every seat is a person's, and "Your seat" offers as many seats as the options make.
function showSeats(meta, name) {
  const players = document.querySelector("#options input[name=players]");
  const count = players ? Math.min(4, Math.max(2, Number(players.value) || 2)) : meta.games[name].seats;
  const lobby = document.body.dataset.page === "lobby";
  const box = $("#seats");
  const previous = Object.fromEntries([...box.querySelectorAll("select")].map((s) => [s.id, s.value]));
  box.replaceChildren();
  if (lobby) yourSeat(count);
  box.closest("fieldset").hidden = lobby && !perSeat(meta, name).length;
  for (let seat = 0; seat < count; seat++) {
    const select = element("select", { name: `seat-${seat}`, id: `seat-${seat}`, class: "seat" });
    for (const value of ["human", ...meta.games[name].levels]) {
      const rating = meta.games[name].level_ratings[value];
      const level = rating ? t("level_rating", { level: t(value), rating }) : t(value);
      const text = value === "human" ? t("person") : t("computer", { level });
      select.append(element("option", { value, text }));
    }
    select.value = previous[select.id] || (seat === 0 ? "human" : "medium");
    const who = lobby ? element("strong", { text: t("player", { n: seat + 1 }) }) : element("label", { for: select.id }, t("player", { n: seat + 1 }), select);
    const column = element("div", { class: "seat-choices" }, who);
    for (const [option, limit] of perSeat(meta, name)) {
      const choice = element("select", { name: option, id: `seat-${seat}-${option}`, "data-option": option });
      for (const value of limit.seat_choices) {
        const text = value === "-" ? t("none") : value === "random" ? t("random") : value[0].toUpperCase() + value.slice(1);
        choice.append(element("option", { value, text }));
      }
      choice.value = previous[choice.id] || "-";
      const note = element("small", { class: "choice-note", id: `${choice.id}-note`, text: choiceNote(meta, name, choice.value) });
      choice.addEventListener("change", () => {
        note.textContent = choiceNote(meta, name, choice.value);
        markLevels(meta, name);
      });
      column.append(element("label", { for: choice.id }, optionWord(meta, name, option), choice), note);
    }
    box.append(column);
  }
  markLevels(meta, name);
}

// A level that plays only some options (meta's level_options: zero, those of its networks) is
// shown for others greyed out, saying why.
function markLevels(meta, name) {
  const chosen = Object.entries(chosenOptions(meta, name));
  for (const [level, played] of Object.entries(meta.games[name].level_options)) {
    const plays = played.some((options) => chosen.every(([option, value]) => options[option] === value));
    for (const option of document.querySelectorAll(`#seats option[value="${level}"]`)) {
      option.dataset.text ??= option.textContent;
      option.disabled = !plays;
      option.textContent = plays ? option.dataset.text : t("unplayed", { level: t(level) });
      if (!plays && option.selected) option.parentElement.value = "medium";
    }
  }
}

// An option chosen seat by seat (a god per seat, from the option's seat_choices: "-" for none,
// "random" drawn by the server): each seat's value joined by commas, left out if no seat has one.
const perSeat = (meta, name) => Object.keys(meta.games[name].options)
  .filter((option) => meta.games[name].limits[option].per_seat).map((option) => [option, meta.games[name].limits[option]]);

function seatOptions(meta, name) {
  const options = {};
  for (const [option] of perSeat(meta, name)) {
    const chosen = [...document.querySelectorAll(`#seats select[data-option="${option}"]`)].map((s) => s.value);
    if (chosen.some((value) => value !== "-")) options[option] = chosen.join(",");
  }
  return options;
}

// The lobby's "Your seat": drawn at random, or one of the seats the options make.
function yourSeat(count) {
  const select = $("#your-seat");
  const before = select.value || "random";
  select.replaceChildren(element("option", { value: "random", text: t("random") }),
    ...Array.from({ length: count }, (_, seat) => element("option", { value: String(seat), text: t("player", { n: seat + 1 }) })));
  select.value = [...select.options].some((option) => option.value === before) ? before : "random";
}
