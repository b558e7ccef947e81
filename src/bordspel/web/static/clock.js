// Clocks: the server's seconds left, counted down here from when the page received them; and a
// time control in words.

import { element } from "./dom.js";
import { t } from "./words.js";

// "4:59", "0:09.4" under ten seconds, "2 d" from a day on.
function clockText(seconds) {
  if (seconds >= 86400) return t("days_left", { n: Math.floor(seconds / 86400) });
  const whole = Math.ceil(seconds - 1e-9);
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  const clock = `${h ? `${h}:${String(m).padStart(2, "0")}` : m}:${String(s).padStart(2, "0")}`;
  return seconds < 10 && seconds > 0 ? `${clock}.${Math.floor((seconds % 1) * 10)}` : clock;
}

function secondsLeft(page, seat) {
  const clock = page.view.clock;
  const running = clock.running === seat ? (performance.now() - page.seen) / 1000 : 0;
  return Math.max(0, clock.remaining[seat] - running);
}

// A seat's clock beside its name, if the game has clocks.
export function clockOf(view, seat) {
  if (!view.clock) return [];
  const running = view.clock.running === seat;
  return [element("span", { class: running ? "clock running" : "clock", "data-seat": String(seat), text: clockText(view.clock.remaining[seat]) })];
}

// Every 200 ms: the running seat's clocks on the page; at zero the server is asked for the result
// (``refresh``: the page reads the game again).
export function tickClocks(page, refresh) {
  const view = page.view;
  if (!view || !view.clock || view.clock.running === null) return;
  const left = secondsLeft(page, view.clock.running);
  for (const node of document.querySelectorAll(`.clock[data-seat="${view.clock.running}"]`)) {
    node.textContent = clockText(left);
    node.classList.toggle("low", left < 10);
  }
  if (left === 0 && !page.flagAsked) {
    page.flagAsked = true;
    setTimeout(() => { page.flagAsked = false; refresh(); }, 500);
  }
}

// A time control in words: "5+3", "1 day per move", "no clock".
export function clockLabel(clock) {
  if (!clock) return t("no_clock");
  return clock.days ? t("days", { n: clock.days }) : `${clock.initial / 60}+${clock.increment}`;
}
