// A game's chat, on the game's page (bordspel.web.chat): the players' room for the players, the
// spectators' room for everyone else (and for the players once the game is over). The game's
// stream (GET /api/games/{id}/events, its "chat" events) tells when the chat changed; the page then reads the rooms it
// may read with the seat's token (or the account's cookie). A player may mute the others or
// turn the chat off. Every message is put on the page as text (textContent), never as HTML.

import { api, element } from "./dom.js";
import { gameStream } from "./game-stream.js";
import { addWords, onLanguage, t } from "./words.js";

const WORDS = {
  en: {
    chat: "Chat", chat_players: "Players", chat_spectators: "Spectators", chat_send: "Send",
    chat_placeholder: "Write a message", chat_empty: "No messages yet.", chat_muted: "The other players' messages are hidden: you muted them.", chat_mute: "Mute the other players",
    chat_off: "Turn the chat off", chat_on: "Turn the chat on", chat_is_off: "You turned the chat off.",
    chat_log_in: "Log in to write here.", chat_seat: "Player {seat}", chat_you: "You",
  },
  nl: {
    chat: "Chat", chat_players: "Spelers", chat_spectators: "Toeschouwers", chat_send: "Verstuur",
    chat_placeholder: "Schrijf een bericht", chat_empty: "Nog geen berichten.", chat_muted: "De berichten van de andere spelers zijn verborgen: je hebt ze gedempt.", chat_mute: "Demp de andere spelers",
    chat_off: "Zet de chat uit", chat_on: "Zet de chat aan", chat_is_off: "Je hebt de chat uitgezet.",
    chat_log_in: "Log in om hier te schrijven.", chat_seat: "Speler {seat}", chat_you: "Jij",
  },
};
addWords(WORDS);

const id = decodeURIComponent(location.pathname.split("/")[2] || "");
const token = new URLSearchParams(location.hash.slice(1)).get("seat");
const chat = { rooms: {}, you: null, over: null, settings: null, limits: { length: 140 }, room: null, asked: 0 };
const POLL_MS = 3000;

function start() {
  const box = document.getElementById("chat");
  if (!box || !id) return;
  box.hidden = false;
  document.getElementById("chat-form").addEventListener("submit", send);
  document.getElementById("chat-text").addEventListener("input", showLeft);
  document.getElementById("chat-mute").addEventListener("change", (event) => choose({ muted: event.target.checked }));
  document.getElementById("chat-toggle").addEventListener("click", () => choose({ off: !(chat.settings && chat.settings.off) }));
  onLanguage.push(show);
  document.addEventListener("bordspel:view", (event) => { // the game's end opens the spectators' room to its players
    const over = Boolean(event.detail.outcome);
    if (chat.over !== null && over !== chat.over) load();
    chat.over = over;
  });
  const source = gameStream(id);
  if (source) source.addEventListener("chat", load);
  load();
  setInterval(() => { // read by polling while the stream is not open (refused, reconnecting, none)
    if (!source || source.readyState !== EventSource.OPEN) load();
  }, POLL_MS);
}

// The rooms read again; only the answer to the latest read is drawn (an earlier one may come
// after it, without the newest message).
async function load() {
  const asked = ++chat.asked;
  let rooms;
  try {
    rooms = await api("GET", `/api/games/${encodeURIComponent(id)}/chat`, undefined, token);
  } catch (error) {
    return showError(error);
  }
  if (asked !== chat.asked) return;
  Object.assign(chat, rooms);
  if (!(chat.room in chat.rooms)) chat.room = Object.keys(chat.rooms)[0] || null;
  show();
}

async function send(event) {
  event.preventDefault();
  const input = document.getElementById("chat-text");
  const button = event.target.querySelector("button");
  button.disabled = true; // one message at a time: what is typed meanwhile is not lost
  try {
    await api("POST", `/api/games/${encodeURIComponent(id)}/chat`, { room: chat.room, text: input.value }, token);
  } catch (error) {
    return showError(error);
  } finally {
    button.disabled = false;
  }
  input.value = "";
  showLeft();
  showError(null);
  load();
}

async function choose(settings) {
  try {
    chat.settings = await api("POST", `/api/games/${encodeURIComponent(id)}/chat/settings`, settings, token);
  } catch (error) {
    return showError(error);
  }
  load();
}

function showError(error) {
  document.getElementById("chat-error").textContent = error ? error.message : "";
}

// "12 / 140": the characters a message may still have (longer text cannot be typed).
function showLeft() {
  const input = document.getElementById("chat-text");
  document.getElementById("chat-left").textContent = `${input.value.length} / ${chat.limits.length}`;
}

function show() {
  for (const node of document.querySelectorAll("#chat [data-i18n]")) node.textContent = t(node.dataset.i18n);
  showTabs();
  const room = chat.rooms[chat.room];
  const log = document.getElementById("chat-log");
  const messages = room ? room.messages : [];
  log.replaceChildren(...messages.map(line));
  const muted = chat.settings && chat.settings.muted && chat.room === "players";
  if (room && !messages.length) log.append(element("li", { class: "chat-empty", text: t(muted ? "chat_muted" : "chat_empty") }));
  log.scrollTop = log.scrollHeight;
  showForm(room);
  showSettings();
}

function showTabs() {
  const tabs = document.getElementById("chat-rooms");
  const names = Object.keys(chat.rooms);
  tabs.hidden = names.length < 2;
  tabs.replaceChildren(...names.map((name) => element("button", {
    type: "button", role: "tab", "aria-selected": String(name === chat.room), text: t(`chat_${name}`),
    onclick: () => { chat.room = name; show(); },
  })));
}

function line(message) {
  const own = chat.you !== null && message.seat === chat.you;
  const name = own ? t("chat_you") : message.name || t("chat_seat", { seat: message.seat + 1 });
  return element("li", { class: "chat-line" }, element("span", { class: "chat-name", text: name }), " ",
    element("span", { class: "chat-text", text: message.text }));
}

function showForm(room) {
  const form = document.getElementById("chat-form");
  const input = document.getElementById("chat-text");
  form.hidden = !room || !room.can_write;
  input.maxLength = chat.limits.length;
  input.placeholder = t("chat_placeholder");
  showLeft();
  const note = document.getElementById("chat-note");
  const off = chat.settings && chat.settings.off;
  note.textContent = off ? t("chat_is_off") : room && !room.can_write && chat.room === "spectators" && !chat.settings ? t("chat_log_in") : "";
}

function showSettings() {
  const own = document.getElementById("chat-settings");
  own.hidden = !chat.settings;
  if (!chat.settings) return;
  document.getElementById("chat-mute").checked = chat.settings.muted;
  document.getElementById("chat-mute").disabled = chat.settings.off;
  document.getElementById("chat-toggle").textContent = t(chat.settings.off ? "chat_on" : "chat_off");
}

start();
