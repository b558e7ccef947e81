// The evaluation graph of the game the analysis board was opened from (/api/games/<id>/graph,
// made by a server job after the game): the value of each position for the first seat, from
// -1 (lost) to 1 (won), exact results on the edges and the middle, mistakes (orange) and blunders
// (red) marked on the point after the move, a ring where the solver proved it. A click (or Enter)
// on a point sets up its position on the board; the position shown has a cursor. While the job
// has not finished, the graph is asked for again every few seconds.

import { api, element } from "./dom.js";
import { addWords, onLanguage, t } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 600, HEIGHT = 150, PAD = 9;
const POLL_MS = 3000, POLLS = 60;

addWords({
  en: {
    graph: "Evaluation", graph_waiting: "The computer is judging the game's positions…",
    graph_failed: "The evaluation of this game could not be made.", graph_mistake: "mistake", graph_blunder: "blunder",
    graph_proof: "proved by the solver: {was} thrown away", graph_win: "win", graph_draw: "draw", graph_loss: "loss",
    graph_point: "after move {n}", graph_start: "start position", graph_ahead: "{name} ahead",
    graph_exact: "{result} for {name}", graph_plies: "in {n} plies", graph_eval: "{score} for {name} (depth {depth})",
    graph_best: "best {move}",
  },
  nl: {
    graph: "Evaluatie", graph_waiting: "De computer beoordeelt de stellingen van het spel…",
    graph_failed: "De evaluatie van dit spel kon niet gemaakt worden.", graph_mistake: "fout", graph_blunder: "blunder",
    graph_proof: "bewezen door de oplosser: {was} weggegeven", graph_win: "winst", graph_draw: "remise", graph_loss: "verlies",
    graph_point: "na zet {n}", graph_start: "beginstelling", graph_ahead: "{name} staat voor",
    graph_exact: "{result} voor {name}", graph_plies: "in {n} ply", graph_eval: "{score} voor {name} (diepte {depth})",
    graph_best: "beste {move}",
  },
});

let game = null, names = null, graph = null, shown = null;

document.addEventListener("bordspel:game", (event) => {
  ({ game, names } = event.detail);
  onLanguage.push(draw);
  load(POLLS);
});
document.addEventListener("bordspel:shown-ply", (event) => {
  shown = event.detail.ply;
  cursor();
});

async function load(polls) {
  try {
    graph = await api("GET", `/api/games/${encodeURIComponent(game.id)}/graph`);
  } catch {
    return;
  }
  draw();
  if ((graph.status === "waiting" || graph.status === "running") && polls > 1) {
    setTimeout(() => load(polls - 1), POLL_MS);
  }
}

const x = (ply) => PAD + (WIDTH - 2 * PAD) * (graph.points.length > 1 ? ply / (graph.points.length - 1) : 0.5);
const y = (value) => HEIGHT / 2 - (HEIGHT / 2 - PAD) * value;

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

function draw() {
  const box = document.getElementById("game-graph");
  if (!box || !graph || graph.status === "none") return;
  box.hidden = false;
  const words = { waiting: "graph_waiting", running: "graph_waiting", failed: "graph_failed" }[graph.status];
  if (words) {
    box.replaceChildren(element("p", { class: "muted", role: "status", text: t(words) }));
    return;
  }
  const [first, second] = names();
  const line = graph.points.map((point) => `${x(point.ply).toFixed(1)},${y(point.value).toFixed(1)}`).join(" ");
  const area = `${x(0)},${y(0)} ${line} ${x(graph.points.length - 1)},${y(0)}`;
  const picture = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "graph", role: "img", "aria-label": t("graph") },
    svg("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT / 2, class: "graph-first" }),
    svg("line", { x1: 0, x2: WIDTH, y1: y(0), y2: y(0), class: "graph-axis" }),
    svg("polygon", { points: area, class: "graph-area" }),
    svg("polyline", { points: line, class: "graph-line" }),
    svg("line", { id: "graph-cursor", y1: 0, y2: HEIGHT, class: "graph-cursor", visibility: "hidden" }),
    ...graph.points.map(point));
  box.replaceChildren(
    element("div", { class: "graph-legend" },
      element("span", { text: t("graph_ahead", { name: first }) }),
      element("span", { class: "graph-key mistake", text: t("graph_mistake") }),
      element("span", { class: "graph-key blunder", text: t("graph_blunder") })),
    picture,
    element("div", { class: "graph-legend" }, element("span", { text: t("graph_ahead", { name: second }) })));
  markMoves();
  cursor();
}

// One point: a circle to click, with what the analysis said (and the mark of the move before it).
function point(found) {
  const mark = graph.marks.find((each) => each.ply === found.ply);
  const kind = mark ? ` ${mark.kind}${mark.proof ? " proof" : ""}` : "";
  const node = svg("circle", {
    cx: x(found.ply), cy: y(found.value), r: mark ? 7 : 4, class: `graph-point${kind}`, tabindex: "0",
    "data-ply": found.ply, "aria-label": describe(found, mark),
  }, svg("title", {}, describe(found, mark)));
  node.addEventListener("click", () => goTo(found.ply));
  node.addEventListener("keydown", (event) => event.key === "Enter" && goTo(found.ply));
  return node;
}

function goTo(ply) {
  document.dispatchEvent(new CustomEvent("bordspel:ply", { detail: { ply } }));
}

function describe(found, mark) {
  const where = found.ply ? t("graph_point", { n: found.ply }) : t("graph_start");
  const name = names()[found.to_move];
  let verdict;
  if (found.result) {
    verdict = t("graph_exact", { result: t(`graph_${found.result}`), name })
      + (found.plies_to_end ? ` ${t("graph_plies", { n: found.plies_to_end })}` : "");
  } else {
    verdict = t("graph_eval", { score: `${found.score > 0 ? "+" : ""}${found.score}`, name, depth: found.depth });
  }
  const best = found.best ? `; ${t("graph_best", { move: found.best })}` : "";
  return `${where}: ${verdict}${best}${mark ? `; ${markWords(mark)}` : ""}`;
}

function markWords(mark) {
  const kind = t(`graph_${mark.kind}`);
  return mark.proof ? `${kind} (${t("graph_proof", { was: t(`graph_${mark.was}`) })})` : kind;
}

// The marked moves in the move list too: "?" a mistake, "??" a blunder.
function markMoves() {
  for (const item of document.querySelectorAll("#game-move-list li")) {
    const mark = graph.marks.find((each) => each.ply === Number(item.dataset.ply));
    item.classList.toggle("mistake", Boolean(mark && mark.kind === "mistake"));
    item.classList.toggle("blunder", Boolean(mark && mark.kind === "blunder"));
    item.title = mark ? markWords(mark) : "";
  }
}

function cursor() {
  const line = document.getElementById("graph-cursor");
  if (!line) return;
  line.setAttribute("visibility", shown === null ? "hidden" : "visible");
  if (shown !== null) {
    line.setAttribute("x1", x(shown));
    line.setAttribute("x2", x(shown));
  }
}
