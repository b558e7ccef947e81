// The analysis board's players: each seat's colour, name (its player's in the game the board was
// opened from, while the board shows that game's kind; else "Player n") and god card, or whatever
// the game notes for the seat; the seat to move in bold. Drawn from the board's view
// ("bordspel:board") and the game's names ("bordspel:game", analysis-moves.js).

import { element } from "./dom.js";
import { language, onLanguage, t } from "./words.js";

let view = null, game = null;

document.addEventListener("bordspel:board", (event) => {
  view = event.detail;
  draw();
});
document.addEventListener("bordspel:game", (event) => {
  game = event.detail;
  draw();
});
onLanguage.push(draw);

function name(seat) {
  const names = game && game.game.game === view.game ? game.names() : [];
  return names[seat] || t("player", { n: seat + 1 });
}

function draw() {
  if (!view) return;
  const notes = view.seat_notes[language] || view.seat_notes.en;
  document.getElementById("board-players").replaceChildren(...view.seat_colours.map((colour, seat) => {
    const swatch = element("span", { class: colour ? "swatch" : "swatch none" });
    if (colour) swatch.style.background = colour;
    const item = element("li", { class: !view.outcome && seat === view.to_move ? "to-move" : "" }, swatch, name(seat));
    if (notes[seat]) item.append(element("p", { class: "note", text: notes[seat] }));
    return item;
  }));
}
