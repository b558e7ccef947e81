// bordspel in the browser: each page's behaviour is a module of its own, started here by the
// page's name (the body's data-page); the pages' shared parts (the header's language buttons)
// first. The server lists the legal moves; no rules live here. No bundler, no build step: the
// browser loads the modules as they are.

import { analysisPage } from "./analysis.js";
import { gamePage } from "./game.js";
import { lobbyPage } from "./lobby.js";
import { rulesPage } from "./rules.js";
import { startPage } from "./start.js";
import { languageSwitch } from "./words.js";

const PAGES = { start: startPage, game: gamePage, rules: rulesPage, lobby: lobbyPage, analysis: analysisPage };

languageSwitch();
PAGES[document.body.dataset.page]?.();
