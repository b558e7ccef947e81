// The game page's one live stream (GET /api/games/{id}/events), shared by its parts: the game
// listens to its "version" events and the chat to its "chat" events. A browser opens at most six
// connections to a site, so each page keeps its streams few; null without EventSource.

const streams = new Map();

export function gameStream(id) {
  if (!window.EventSource) return null;
  if (!streams.has(id)) streams.set(id, new EventSource(`/api/games/${encodeURIComponent(id)}/events`));
  return streams.get(id);
}
