// Replay on the game page: earlier positions on the board (read from the server), the game
// unchanged; page.replay is the move shown, null for the live position.

import { animateArrival, drawBoard } from "./board.js";
import { $, api } from "./dom.js";
import { t } from "./words.js";

// The move whose position the board shows.
export const replayPly = (page) => (page.replay === null ? page.view.ply : page.replay);

// The board at move ``ply`` (the live position at the last); false while there is no game yet.
// The page then shows its parts again.
export async function replayTo(page, ply) {
  const view = page.view;
  if (!view) return false;
  const target = Math.max(0, Math.min(view.ply, ply));
  if (target === view.ply) {
    const wasReplaying = page.replay !== null;
    page.replay = null;
    if (wasReplaying) drawBoard(view.svg);
    return true;
  }
  const position = await api("GET", `/api/games/${page.id}/positions/${target}`);
  const forward = target === replayPly(page) + 1;
  page.replay = target;
  page.replayPosition = position.position;
  page.clicks = [];
  drawBoard(position.svg);
  if (forward) animateArrival();
  return true;
}

// The replay buttons and the words under the board ("Move 3 of 12").
export function showReplay(page) {
  const view = page.view;
  const ply = replayPly(page);
  $("#first").disabled = $("#previous").disabled = ply === 0;
  $("#next").disabled = $("#last").disabled = ply === view.ply;
  $("#live").hidden = page.replay === null;
  $("#replay").classList.toggle("replaying", page.replay !== null);
  $("#board").classList.toggle("replaying", page.replay !== null);
  $("#replay-text").textContent = page.replay === null ? "" : ply === 0
    ? t("replay_start", { plies: view.ply }) : t("replaying", { ply, plies: view.ply });
}
