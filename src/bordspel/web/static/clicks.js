// Moves by clicks, on the game page and the analysis board. The server lists the legal moves;
// each move is a path of clicks (tokens square:b3, piece:A, button:dome, move:<text>) with the
// words of each click, and the board highlights the clicks that can come next.
// A page here is an object with its view (the server's), its clicks so far, its toolbar mode,
// and two callbacks of its own: play(text), for a whole move clicked, and showStatus().

import { fitBoard, nodeOf, squaresBox, tokenOf } from "./board.js";
import { $, element } from "./dom.js";
import { language, t } from "./words.js";

// Each legal move comes with its click paths (tokens square:b3, piece:A, move:<text>) and the
// toolbar choices it needs (e.g. a colour); a move is offered while the toolbar shows its choices.
const fits = (move, mode) => Object.entries(move.choices || {}).every(([key, value]) => mode[key] === value);

// Clicks on the board (and, with a mouse, the preview of where a click would go).
export function boardEvents(page) {
  $("#board").addEventListener("pointerdown", (event) => {
    page.touch = touching(event);
  });
  $("#board").addEventListener("click", (event) => click(page, event));
  $("#board").addEventListener("pointerover", (event) => touching(event) || preview(page, event.target));
  $("#board").addEventListener("pointerleave", (event) => touching(event) || preview(page, null));
  addEventListener("resize", fitBoard);
}

// The toolbar: the choices a move needs (a colour, a piece) and the moves played by name.
export function toolbar(page) {
  const bar = $("#toolbar");
  bar.replaceChildren();
  const view = page.view;
  const legal = view.legal;
  const byText = legal.filter((m) => m.paths.some((path) => path[0].startsWith("move:")));
  bar.hidden = (!view.choices.length && !byText.length) || Boolean(view.outcome) || page.replay !== null;
  if (bar.hidden) return;
  const group = (entries, key) => {
    const box = element("div", { class: "group" });
    for (const [value, label, swatch] of entries) {
      const usable = legal.some((m) => (m.choices || {})[key] === value);
      const button = element("button", { type: "button", "data-choice": `${key}:${value}`, "data-key": value, title: value });
      if (swatch) {
        const mark = element("span", { class: "swatch" });
        mark.style.background = swatch;
        button.append(mark);
      }
      button.append(t(label));
      button.disabled = !usable;
      button.classList.toggle("selected", page.mode[key] === value);
      button.addEventListener("click", () => {
        page.mode[key] = value;
        toolbar(page);
        highlight(page);
      });
      box.append(button);
    }
    bar.append(box);
  };
  // Keep the chosen values while some move fits them, else take the first fitting move's, group by group.
  view.choices.forEach(({ key }, index) => {
    const before = view.choices.slice(0, index + 1).map((choice) => choice.key);
    const fitsBefore = (m, mode) => before.every((k) => (m.choices || {})[k] === mode[k]);
    if (!legal.some((m) => fitsBefore(m, page.mode))) {
      const fit = legal.find((m) => fitsBefore(m, { ...page.mode, [key]: (m.choices || {})[key] }));
      if (fit) page.mode[key] = fit.choices[key];
    }
  });
  for (const { key, options } of view.choices) group(options, key);
  if (byText.length && paths(page).length) {
    const box = element("div", { class: "group" });
    for (const m of byText) {
      box.append(element("button", { type: "button", "data-token": `move:${m.text}`, text: m.text, onclick: () => page.play(m.text) }));
    }
    bar.append(box);
  }
}

// Every click path of a legal move that fits the toolbar's choices, while it is the page's turn.
function paths(page) {
  const view = page.view;
  if (page.replay !== null || view.outcome || view.seats[view.to_move] !== "human" || view.to_move !== view.you) return [];
  const found = [];
  for (const move of view.legal) {
    if (fits(move, page.mode)) for (const path of move.paths) found.push({ path, move });
  }
  return found;
}

// The paths that go on from the clicks made so far.
function matching(page) {
  const clicks = page.clicks;
  return paths(page).filter(({ path }) => clicks.every((token, i) => path[i] === token));
}

// The move the clicks so far make, if any: played at once unless a longer move goes on from it.
function finished(page) {
  const count = page.clicks.length;
  return count ? matching(page).find(({ path }) => path.length === count) : undefined;
}

// The squares and pieces that can be clicked next ("target") and those clicked ("chosen").
export function highlight(page) {
  const next = new Set(matching(page).map(({ path }) => path[page.clicks.length]).filter(Boolean));
  const chosen = new Set(page.clicks);
  for (const node of document.querySelectorAll("#board [data-square], #board [data-piece]")) {
    const token = tokenOf(node);
    node.classList.toggle("target", next.has(token));
    node.classList.toggle("chosen", chosen.has(token) && !next.has(token)); // a target looks like one
  }
  slide(page);
  preview(page, null);
  turnBar(page);
}

// The clicks that are buttons rather than squares (a "button:dome" token, labelled by the game's
// words), and "End turn" when the clicks make a whole turn that could also go on.
function turnBar(page) {
  const words = (page.view && (page.view.prompts[language] || page.view.prompts.en)) || {};
  const next = new Set(matching(page).map(({ path }) => path[page.clicks.length]));
  const buttons = [...next].filter((token) => token && token.startsWith("button:")).map((token) =>
    element("button", { type: "button", "data-token": token, text: words[token] || token.slice(7), onclick: () => advance(page, token) }));
  const done = finished(page);
  if (done) {
    buttons.push(element("button", {
      type: "button", id: "end-turn", class: "primary", text: t("end_turn"), onclick: () => page.busy || page.play(done.move.text),
    }));
  }
  $("#turn-bar").replaceChildren(...buttons);
  $("#turn-bar").hidden = !buttons.length;
}

// The move a click on ``token`` would make next that shows a preview, if any.
const previewOf = (page, token) =>
  matching(page).find(({ path, move }) => path[page.clicks.length] === token && move.preview);

// Pointing at a target shows what the move would put there (a move's "preview": squares and
// colour); on touch, where nothing points, the square tapped once shows it (page.tapped).
function preview(page, node) {
  for (const old of document.querySelectorAll("#board .preview")) old.remove();
  const shown = node || (page.tapped && nodeOf(page.tapped));
  const target = shown && shown.closest && shown.closest("#board .target[data-square]");
  if (!target || !page.view) return;
  const found = previewOf(page, tokenOf(target));
  if (!found) return;
  const box = squaresBox(found.move.preview.squares);
  if (!box) return;
  const inset = 5;
  const shape = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  for (const [key, value] of Object.entries({
    x: box.x + inset, y: box.y + inset, width: box.width - 2 * inset, height: box.height - 2 * inset, rx: 5,
    fill: found.move.preview.colour, class: "preview",
  })) shape.setAttribute(key, String(value));
  target.parentNode.insertBefore(shape, document.querySelector("#board .square"));
}

// A move's "slide" [i, j, ...]: the piece on click i's square is drawn on the square of the latest
// of the other clicks made, so a turn shows its steps before the rest is chosen.
function slide(page) {
  for (const moved of document.querySelectorAll("#board [data-slid]")) {
    moved.style.transform = "";
    delete moved.dataset.slid;
  }
  const made = ({ move }) => (move.slide || []).filter((i) => i < page.clicks.length);
  const found = matching(page).find((entry) => made(entry).length > 1);
  if (!found) return;
  const route = made(found);
  const [from, to] = [route[0], route[route.length - 1]].map((i) => page.clicks[i].replace(/^square:/, ""));
  const piece = document.querySelector(`#board [data-at="${CSS.escape(from)}"]`);
  const start = squaresBox([from]), end = squaresBox([to]);
  if (!piece || !start || !end) return;
  piece.dataset.slid = "yes";
  piece.style.transform = `translate(${end.x - start.x}px, ${end.y - start.y}px)`;
}

const touching = (event) => (event.pointerType ? event.pointerType === "touch" : matchMedia("(pointer: coarse)").matches);

// A click on a square or piece. On touch a tap that would play a move with a preview (a block to
// lay) shows the preview first, and a second tap on the same square plays it.
function click(page, event) {
  const node = event.target.closest("[data-square], [data-piece]");
  if (!node) return;
  const token = tokenOf(node);
  if (page.touch && page.tapped !== token && previewOf(page, token)) {
    page.tapped = token;
    preview(page, null);
    page.showStatus();
  } else advance(page, token);
}

// One more click (a square, a piece or a button); a whole turn that cannot go on is sent, unless
// its move parts ask for a confirmation (End turn).
function advance(page, token) {
  if (page.busy || !page.view) return;
  page.tapped = null;
  const next = new Set(matching(page).map(({ path }) => path[page.clicks.length]));
  if (next.has(token)) {
    page.clicks.push(token);
  } else {
    page.clicks = paths(page).some(({ path }) => path[0] === token) ? [token] : [];
  }
  const done = finished(page);
  if (done && !done.move.confirm && !matching(page).some(({ path }) => path.length > page.clicks.length)) {
    page.play(done.move.text);
  } else {
    highlight(page);
    page.showStatus();
  }
}

// The words of the clicks that can come next ("pick a worker or choose where to build before
// moving"), and "or end your turn" when the clicks so far already make a whole turn.
export function prompt(page) {
  if (page.tapped && previewOf(page, page.tapped)) return t("tap_again");
  const steps = [...new Set(matching(page).map(({ move }) => move.steps[page.clicks.length]).filter(Boolean))];
  const words = page.view.prompts[language] || page.view.prompts.en || {};
  const next = forTouch(page, steps.map((step) => words[step] || step).join(t("or")));
  if (!finished(page)) return next;
  return next ? t("or_end", { prompt: next }) : t("confirm_turn");
}

// The games' prompts say "click"; on a touch screen (known before the first tap) they say "tap".
function forTouch(page, text) {
  if (!page.touch && !matchMedia("(pointer: coarse)").matches) return text;
  return text.replace(/\bclick/g, "tap").replace(/\bClick/g, "Tap").replace(/\bklik/g, "tik").replace(/\bKlik/g, "Tik");
}
