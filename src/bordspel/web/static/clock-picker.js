// The time control of a new game (start page) or challenge (lobby): a list of common controls
// and "Custom", which shows the minutes (0.25 to 180) and the increment (0 to 60 s) to type;
// the server checks them again (bordspel.web.clocks). chosenClock() gives the choice
// as the API takes it: null, {initial, increment} in seconds or {days}.

import { clockLabel } from "./clock.js";
import { element } from "./dom.js";
import { addWords, onLanguage, t } from "./words.js";

const WORDS = {
  en: { clock_custom: "Custom", clock_minutes: "Minutes", clock_increment: "Seconds added per move" },
  nl: { clock_custom: "Zelf kiezen", clock_minutes: "Minuten", clock_increment: "Seconden erbij per zet" },
};
addWords(WORDS);

const PRESETS = [
  null, { initial: 60, increment: 0 }, { initial: 60, increment: 1 }, { initial: 180, increment: 2 },
  { initial: 300, increment: 3 }, { initial: 600, increment: 5 }, { initial: 900, increment: 10 },
  { days: 1 }, { days: 3 },
];
const CUSTOM = "custom";

const select = document.getElementById("clock");
const custom = document.getElementById("clock-custom");

function fill() {
  const before = select.value || select.dataset.default || "0";
  select.replaceChildren(
    ...PRESETS.map((clock, i) => element("option", { value: String(i), text: clockLabel(clock) })),
    element("option", { value: CUSTOM, text: t("clock_custom") }));
  select.value = before;
  for (const node of custom.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  custom.hidden = select.value !== CUSTOM;
}

export function chosenClock() {
  if (select.value !== CUSTOM) return PRESETS[Number(select.value)];
  const minutes = Number(document.getElementById("clock-minutes").value);
  return { initial: Math.round(minutes * 60 * 1000) / 1000, increment: Number(document.getElementById("clock-increment").value) };
}

if (select && custom) {
  fill();
  select.addEventListener("change", () => { custom.hidden = select.value !== CUSTOM; });
  onLanguage.push(fill);
}
