// Hints on the game page, for a person playing the computer: the best move, the verdict (exact
// where a solver knows it) and the likely play, with the move's squares outlined.

import { nodeOf } from "./board.js";
import { $, api, element } from "./dom.js";
import { role } from "./seats.js";
import { t } from "./words.js";

// A hint: the server's analysis of the current position (best move, score, depth and line);
// a refusal goes to ``failed``.
export async function askHint(page, failed) {
  const version = page.view.version;
  page.hint = { version, found: null };
  showHint(page);
  try {
    const found = await api("GET", `/api/games/${page.id}/analysis`, undefined, page.token);
    if (page.hint && page.hint.version === version && found.version === version) page.hint.found = found;
  } catch (error) {
    page.hint = null;
    failed(error);
  }
  showHint(page);
}

// The hint's panel and the squares of its move, while the page's player may have one.
export function showHint(page) {
  const view = page.view, hint = page.hint;
  // Hints are for a person playing the computer (the server refuses the others).
  const { person, againstPeople } = role(view);
  const live = page.replay === null && !view.outcome && person && !againstPeople;
  $("#hint-button").hidden = !live;
  $("#hint-button").disabled = Boolean(hint && !hint.found);
  $("#hint").hidden = !live || !hint;
  for (const node of document.querySelectorAll("#board .hint")) node.classList.remove("hint");
  if (!live || !hint) return;
  const found = hint.found;
  if (!found) {
    $("#hint").replaceChildren(element("p", { class: "thinking", text: t("hint_thinking") }));
    return;
  }
  $("#hint").replaceChildren(
    element("p", { class: "hint-move", text: t("hint_move", { move: found.move }) }),
    element("p", { class: "hint-judgement", text: judgement(found) }),
    element("p", { class: "hint-line", text: t("hint_line", { line: found.line.join(" ") }) }),
  );
  markHint(view, found.move);
}

// The hint's verdict in words: a result that can be forced (and how soon), or the search's leaning.
function judgement(found) {
  if (found.result) {
    const soon = found.plies_to_end ? ` ${t("ends_in", { n: found.plies_to_end })}` : "";
    return t(`result_${found.result}`) + soon;
  }
  if (found.depth === 0) return t("known");
  const leaning = found.score > 0 ? "eval_better" : found.score < 0 ? "eval_worse" : "eval_even";
  return t("looked_ahead", { judgement: t(leaning), depth: found.depth });
}

// The squares and pieces the hint's move clicks, outlined on the board.
function markHint(view, text) {
  const move = view.legal.find((m) => m.text === text);
  if (!move || !move.paths.length) return;
  for (const token of move.paths[0]) {
    const node = nodeOf(token);
    if (node) node.classList.add("hint");
  }
}
