// bordspel in the browser, on every page first: the header's language buttons, and the page in
// the chosen language. Each page's behaviour is a module of its own that the page loads (start.js,
// game.js, lobby.js, analysis.js, rules.js, ...; see bordspel.web.pages). The server lists the
// legal moves; no rules live here. No bundler, no build step: the browser loads the modules as
// they are.

import { languageSwitch } from "./words.js";

languageSwitch();
