// What this browser keeps (localStorage): every game started or joined here with its links, and
// the challenges it posted or took a seat at.

const STORED_GAMES = "bordspel.games";
const KEPT_GAMES = 30;

function readList(key) {
  try {
    const list = JSON.parse(localStorage.getItem(key) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function writeList(key, list) {
  try {
    localStorage.setItem(key, JSON.stringify(list.slice(0, KEPT_GAMES)));
  } catch {
    // storage full or refused: the game still works from its link
  }
}

export const storedGames = () => readList(STORED_GAMES);

// Keep (or refresh) a game: its id, name, when it was first kept, your seat's link and, for the
// one who started it, the other seats' and the spectators' links.
export function remember(game) {
  const games = storedGames();
  const old = games.find((kept) => kept.id === game.id);
  const kept = { ...old, ...game, since: (old && old.since) || Date.now() };
  writeList(STORED_GAMES, [kept, ...games.filter((other) => other.id !== game.id)]);
}

// A seat taken at a challenge (posted or accepted here) is kept in this browser with its token
// until its game starts; then the lobby goes to the game with that token as the seat's.
const STORED_CHALLENGES = "bordspel.challenges";

export const keptChallenges = () => readList(STORED_CHALLENGES);

export function keepChallenge(kept) {
  writeList(STORED_CHALLENGES, [kept, ...keptChallenges().filter((other) => other.id !== kept.id)]);
}

export const forgetChallenge = (id) => writeList(STORED_CHALLENGES, keptChallenges().filter((kept) => kept.id !== id));
