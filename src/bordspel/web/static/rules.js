// The rules pages: a game's illustrated rules (/api/rules/<game>).

import { $, api, element } from "./dom.js";
import { language, onLanguage, translatePage } from "./words.js";

const GAME_ADDRESS = /^\/games\/[\w-]+(#seat=[\w-]+)?$/; // a game page of this site, nothing else

// The rules in the page's language, with their pictures; "Back to the game" when opened from one.
async function rulesPage() {
  const game = location.pathname.split("/").pop();
  const rules = await api("GET", `/api/rules/${game}`);
  $("#play-this").href = `/?game=${encodeURIComponent(game)}`;
  const from = new URLSearchParams(location.hash.slice(1)).get("from");
  if (from && GAME_ADDRESS.test(from)) {
    $("#back-to-game").href = from;
    $("#back-to-game").hidden = false;
    $("#play-this").classList.remove("primary");
  }
  const draw = () => {
    const text = rules.texts[language] || rules.texts.en;
    $("#rules-title").textContent = text.title;
    document.title = `bordspel — ${text.title}`;
    $("#rules-body").replaceChildren(...text.sections.map(([heading, paragraphs, picture]) => {
      const section = element("section", { class: "card rule" }, element("h2", { text: heading }),
        ...paragraphs.map((words) => element("p", { text: words })));
      if (picture) {
        const figure = element("figure", { class: "picture" });
        figure.innerHTML = rules.pictures[picture];
        section.append(figure);
      }
      return section;
    }));
    translatePage();
  };
  draw();
  onLanguage.push(draw);
}

rulesPage();
