// The analysis board's address, which the game page links and the analysis board keeps up to
// date: the game, the position and, opened from a game, that game's id (its moves are listed
// beside the board: analysis-moves.js).

export const analysisLink = (game, position, from) => `/analysis#game=${encodeURIComponent(game)}&position=${encodeURIComponent(position)}`
  + (from ? `&from=${encodeURIComponent(from)}` : "");
