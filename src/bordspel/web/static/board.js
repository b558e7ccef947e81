// The board: the server's SVG picture of a position, fitted to the window (every click target at
// least 44 pixels on a phone), the last move's pieces animated, and the picture's squares and
// pieces named by click tokens. No rules live here.

import { $ } from "./dom.js";
import { translatePage } from "./words.js";

const TOUCH = 44; // the smallest click target on a screen, in CSS pixels
const ANIMATION = 320; // milliseconds

// The server's picture of a position, drawn in #board at the column's size.
export function drawBoard(svgText) {
  const board = $("#board");
  board.innerHTML = svgText;
  const picture = board.querySelector("svg");
  if (!picture) return;
  translatePage();
  picture.removeAttribute("width");
  picture.removeAttribute("height");
}

const sizeOf = (viewBox) => viewBox.split(/\s+/).slice(2).map(Number);

// The picture fills the column but stays within the window's height, below the status and
// toolbar and above the replay buttons. On a small screen it keeps every click target at least
// 44 pixels wide while the column is wide enough for that; a larger board (12x12 squares on a
// phone) takes the column's width with smaller squares, so that every square stays in view.
export function fitBoard() {
  const picture = $("#board svg");
  if (!picture) return;
  const room = Math.round($("#board").getBoundingClientRect().top + window.scrollY) + 75;
  layOut(picture, Math.max(320, window.innerHeight - room));
  const [width, height] = sizeOf(picture.getAttribute("viewBox"));
  picture.style.maxWidth = `max(320px, calc((100vh - ${room}px) * ${(width / height).toFixed(3)}))`;
  const targets = [...picture.querySelectorAll(".square, .piece")].map((node) => Number(node.getAttribute("width")));
  const border = 2; // the picture's frame, inside its width
  if (!targets.length) return;
  const touchable = Math.ceil((width * TOUCH) / Math.min(...targets)) + border;
  picture.style.minWidth = `${Math.min(touchable, $("#board").clientWidth)}px`;
}

// A picture with a tray under the board (data-beside="width height dx dy": see bordspel.svg)
// lays it beside the board when the board is larger so: on a wide screen, not on a phone.
function layOut(picture, high) {
  const tray = picture.querySelector(".tray");
  if (!picture.dataset.beside || !tray) return;
  if (!picture.dataset.under) picture.dataset.under = picture.getAttribute("viewBox");
  const [width, height, dx, dy] = picture.dataset.beside.split(/\s+/).map(Number);
  const [underWidth, underHeight] = sizeOf(picture.dataset.under);
  const column = $("#board").clientWidth;
  const scale = (w, h) => Math.min(column / w, high / h);
  const beside = scale(width, height) > scale(underWidth, underHeight);
  picture.setAttribute("viewBox", beside ? `0 0 ${width} ${height}` : picture.dataset.under);
  if (beside) tray.setAttribute("transform", `translate(${dx} ${dy})`);
  else tray.removeAttribute("transform");
}

// The pieces that arrived with the last move ("arrive", with where they came from) slide or grow in.
export function animateArrival() {
  if (!Element.prototype.animate || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  for (const node of document.querySelectorAll("#board .arrive")) {
    const dx = Number(node.dataset.dx), dy = Number(node.dataset.dy);
    const frames = dx || dy
      ? [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }]
      : [{ transform: "scale(0.3)", opacity: 0 }, { transform: "scale(1)", opacity: 1 }];
    node.animate(frames, { duration: ANIMATION, easing: "ease-out" });
  }
}

// The box (in the picture's units) around the squares named.
export function squaresBox(names) {
  const rects = names.map((name) => document.querySelector(`#board .square[data-square="${CSS.escape(name)}"]`)).filter(Boolean);
  if (!rects.length) return null;
  const edges = rects.map((r) => ["x", "y", "width", "height"].map((key) => Number(r.getAttribute(key))));
  const left = Math.min(...edges.map((e) => e[0])), top = Math.min(...edges.map((e) => e[1]));
  const right = Math.max(...edges.map((e) => e[0] + e[2])), bottom = Math.max(...edges.map((e) => e[1] + e[3]));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

// A click token (square:b3, piece:A) and the picture's node for it, both ways.
export function nodeOf(token) {
  const [kind, name] = token.split(/:(.*)/s);
  return document.querySelector(`#board [data-${kind}="${CSS.escape(name)}"]`);
}

export function tokenOf(node) {
  if (node.dataset.square) return `square:${node.dataset.square}`;
  if (node.dataset.piece) return `piece:${node.dataset.piece}`;
  return null;
}
