// bordspel in the browser: the start page, the game page, the rules pages and the 404 page.
// The server lists the legal moves; each move is a path of clicks (squares, pieces) with the
// words of each click, and the page highlights the clicks that can come next. No rules live here.
"use strict";

const bordspel = (() => {
  const $ = (selector) => document.querySelector(selector);
  const TOUCH = 44; // the smallest click target on a screen, in CSS pixels
  const ANIMATION = 320; // milliseconds

  // -- words: English and Dutch ----------------------------------------------------------------
  const TEXT = {
    en: {
      tagline: "board games to play and to learn", new_game: "New game", game: "Game", options: "Options",
      players: "Players", start: "Start", invite: "Invite the other players",
      invite_text: "Send each person their own link: it holds their seat. Anyone with the spectator link can watch but not play.",
      go: "Go to your game", learn: "New to a game? Read its rules:", rules: "Rules", accept: "Accept",
      decline: "Decline", withdraw: "Withdraw", undo: "Undo", ask_takeback: "Ask to take back", resign: "Resign",
      really_resign: "Really resign?", download: "Download record", moves: "Moves", first: "First position",
      previous: "Previous move", next: "Next move", last: "Last move", live: "Back to the game",
      missing: "No such game", missing_title: "not found", missing_text: "There is no game or page at this address: the link may be mistyped, or the game was stored by another server.",
      rematch: "Rematch", your_games: "Your games", your_games_text: "The games started or joined in this browser, with their links.",
      open_game: "Open", show_links: "Invitation links", seat_n: "seat {n}",
      play_this: "Play this game", none: "none", person: "Person", computer: "Computer ({level})",
      unplayed: "Computer ({level}): no network for these options",
      player: "Player {n}", you: "You", level_rating: "{level}, rating {rating}", your_move: "Your turn", your_turn: "Your turn: {prompt}",
      waiting: "Waiting for {name}", to_move: "{name} to move", thinking: "{name} is thinking… {elapsed} s of {budget} s",
      won: "Game over: {names} won ({how}).", you_won: "Game over: you won ({how}).", draw: "Game over: a draw ({how}).",
      resignation: "resignation", and: " and ", watching: "You are watching this game.",
      your_rating: "Your rating: {rating} ({change}).", abort: "Abort", aborted: "Game aborted: nobody moved on both sides, so it counts for nobody's rating.",
      playing: "You are player {n}.", playing_1: "You play first.", playing_2: "You play second.",
      playing_3: "You play third.", playing_4: "You play fourth.", you_asked: "You asked to take back your move.",
      asks: "{name} asks to take back their move.", replaying: "Move {ply} of {plies}",
      replay_start: "Start position ({plies} moves)", go_player: "Play as {name}", spectators: "Spectators",
      in_hand: "in hand", to_give: "to give", supply: "supply",
      easy: "easy", medium: "medium", hard: "hard", perfect: "perfect", size: "size", players_option: "players",
      finite_supply: "finite supply", advanced: "advanced", pieces: "pieces",
      red: "red", yellow: "yellow", blue: "blue", upright: "upright", horizontal: "horizontal", vertical: "vertical",
      hint: "Hint", hint_thinking: "Thinking…", hint_move: "Best move: {move}",
      hint_line: "Likely play: {line}", result_win: "You can force a win.", result_draw: "With best play on both sides it is a draw.",
      result_loss: "Your opponent can force a win whatever you play; this move holds out longest.",
      ends_in: "The game can end in {n} moves.", ends_in_one: "The game can end with the next move.", eval_better: "The computer thinks you stand better",
      eval_worse: "The computer thinks your opponent stands better", eval_even: "The computer sees the position as even",
      looked_ahead: "{judgement}, looking {depth} moves ahead.", known: "The computer plays this move from what it knows, without a search.",
      gods: "God", random: "draw at random", or: " or ", end_turn: "End turn", or_end: "{prompt}, or end your turn",
      confirm_turn: "press End turn to play this turn",
      changed: "The game changed meanwhile; the board shows the current position.",
      replay_status: "Replaying move {ply} of {plies}", replay_status_start: "Replaying the start position ({plies} moves)",
      back_to_game: "Back to the game", tap_again: "tap the square again to play there, or tap another square",
      time: "time ran out", days_left: "{n} d", join_rematch: "Play the rematch", decline_rematch: "Decline the rematch", rematch_offered: "A rematch has started: Play the rematch takes your seat in it.", rated_rematch_offered: "A rated rematch has started: Play the rematch takes your seat in it.",
      analysis: "analysis board", analyse: "Analyse", engine: "Engine", position_editor: "Position",
      position_text: "Position (as text; edit it to set one up)", set_up: "Set up", start_position: "Start position",
      analysis_note: "Moves played here change no game.", take_back: "Take back",
      depth_going: "Depth {depth}, looking deeper…", depth_done: "Depth {depth}: the search has finished.",
      exact_win: "{name} can force a win.", exact_loss: "{name} loses against best play.", exact_draw: "A draw with best play.",
      score_for: "{score} for {name} (looking {depth} moves ahead)",
      lobby: "Lobby", puzzles: "Puzzles", open_challenges: "Open challenges", open_challenges_text: "Accept one to play at once, or post your own below.",
      post_challenge: "Post a challenge", time_control: "Time control", your_seat: "Your seat", rated_game: "Rated", casual: "Casual",
      post: "Post", games_in_progress: "Games in progress", no_challenges: "No open challenges: post one.",
      no_games: "No games in progress.", board_of: "{n}×{n} board", their_move: "Their turn",
      status_win: "You won", status_loss: "You lost", status_draw: "A draw", status_aborted: "Aborted", no_clock: "no clock", days: "{n} days per move", days_one: "{n} day per move", minutes: "{m} min + {s} s",
      accept_challenge: "Accept", take_seat: "Take a seat", cancel: "Cancel", watch: "Watch", waiting_players: "waiting for players…",
      seats_taken: "{taken} of {seats} seats taken", yours: "your challenge", you_sit: "you sit here",
    },
    nl: {
      tagline: "bordspellen om te spelen en te leren", new_game: "Nieuw spel", game: "Spel", options: "Opties",
      players: "Spelers", start: "Beginnen", invite: "Nodig de andere spelers uit",
      invite_text: "Stuur iedereen een eigen link: daarin zit hun plaats. Met de kijkerslink kan iedereen meekijken maar niet spelen.",
      go: "Naar je spel", learn: "Nieuw in een spel? Lees de regels:", rules: "Regels", accept: "Goed",
      decline: "Weigeren", withdraw: "Intrekken", undo: "Terug", ask_takeback: "Vraag om terug te nemen", resign: "Opgeven",
      really_resign: "Echt opgeven?", download: "Partij downloaden", moves: "Zetten", first: "Beginstelling",
      previous: "Vorige zet", next: "Volgende zet", last: "Laatste zet", live: "Terug naar het spel",
      missing: "Spel niet gevonden", missing_title: "niet gevonden", missing_text: "Op dit adres is geen spel of pagina: de link is misschien verkeerd getypt, of het spel staat op een andere server.",
      rematch: "Revanche", your_games: "Je spellen", your_games_text: "De spellen die in deze browser begonnen of geopend zijn, met hun links.",
      open_game: "Openen", show_links: "Uitnodigingslinks", seat_n: "plaats {n}",
      play_this: "Speel dit spel", none: "geen", person: "Mens", computer: "Computer ({level})",
      unplayed: "Computer ({level}): geen netwerk voor deze opties",
      player: "Speler {n}", you: "Jij", level_rating: "{level}, rating {rating}", your_move: "Jouw beurt", your_turn: "Jouw beurt: {prompt}",
      waiting: "Wachten op {name}", to_move: "{name} is aan zet", thinking: "{name} denkt na… {elapsed} s van {budget} s",
      won: "Afgelopen: {names} wint ({how}).", you_won: "Afgelopen: je hebt gewonnen ({how}).", draw: "Afgelopen: gelijkspel ({how}).",
      resignation: "opgegeven", and: " en ", watching: "Je kijkt naar dit spel.",
      your_rating: "Je rating: {rating} ({change}).", abort: "Afbreken", aborted: "Spel afgebroken: niet iedereen heeft gezet, dus het telt voor niemands rating.",
      playing: "Jij bent speler {n}.", playing_1: "Jij begint.", playing_2: "Jij speelt als tweede.",
      playing_3: "Jij speelt als derde.", playing_4: "Jij speelt als vierde.", you_asked: "Je vroeg om je zet terug te nemen.",
      asks: "{name} vraagt om een zet terug te nemen.", replaying: "Zet {ply} van {plies}",
      replay_start: "Beginstelling ({plies} zetten)", go_player: "Speel als {name}", spectators: "Kijkers",
      in_hand: "je hand", to_give: "te geven", supply: "voorraad",
      easy: "makkelijk", medium: "gemiddeld", hard: "moeilijk", perfect: "perfect", size: "grootte", players_option: "spelers",
      finite_supply: "beperkte voorraad", advanced: "gevorderd", pieces: "stukken",
      red: "rood", yellow: "geel", blue: "blauw", upright: "rechtop", horizontal: "horizontaal", vertical: "verticaal",
      hint: "Tip", hint_thinking: "Denkt na…", hint_move: "Beste zet: {move}",
      hint_line: "Vervolg: {line}", result_win: "Je kunt de winst afdwingen.", result_draw: "Met het beste spel van beide kanten wordt het remise.",
      result_loss: "Je tegenstander kan de winst afdwingen, wat je ook speelt; deze zet houdt het langst vol.",
      ends_in: "Het spel kan in {n} zetten eindigen.", ends_in_one: "Het spel kan met de volgende zet eindigen.", eval_better: "De computer vindt dat jij beter staat",
      eval_worse: "De computer vindt dat je tegenstander beter staat", eval_even: "De computer ziet de stelling als gelijk",
      looked_ahead: "{judgement}, {depth} zetten vooruitkijkend.", known: "De computer speelt deze zet uit wat hij weet, zonder te zoeken.",
      gods: "God", random: "willekeurig trekken", or: " of ", end_turn: "Beurt klaar", or_end: "{prompt}, of maak je beurt af",
      confirm_turn: "druk op Beurt klaar om deze beurt te spelen",
      changed: "Het spel is intussen veranderd; het bord toont de huidige stand.",
      replay_status: "Terugkijken: zet {ply} van {plies}", replay_status_start: "Terugkijken: de beginstelling ({plies} zetten)",
      back_to_game: "Terug naar het spel", tap_again: "tik nog eens op het veld om daar te spelen, of tik op een ander veld",
      time: "tijd om", days_left: "{n} d", join_rematch: "Speel de revanche", decline_rematch: "Weiger de revanche", rematch_offered: "Er is een revanche begonnen: Speel de revanche geeft je je plaats erin.", rated_rematch_offered: "Er is een revanche met rating begonnen: Speel de revanche geeft je je plaats erin.",
      analysis: "analysebord", analyse: "Analyseren", engine: "Engine", position_editor: "Stelling",
      position_text: "Stelling (als tekst; pas hem aan om er een op te zetten)", set_up: "Opzetten", start_position: "Beginstelling",
      analysis_note: "Zetten die je hier speelt veranderen geen spel.", take_back: "Terugnemen",
      depth_going: "Diepte {depth}, zoekt dieper…", depth_done: "Diepte {depth}: het zoeken is klaar.",
      exact_win: "{name} kan de winst afdwingen.", exact_loss: "{name} verliest tegen het beste spel.", exact_draw: "Remise met het beste spel.",
      score_for: "{score} voor {name} ({depth} zetten vooruitkijkend)",
      lobby: "Lobby", puzzles: "Puzzels", open_challenges: "Open uitdagingen", open_challenges_text: "Neem er een aan om meteen te spelen, of plaats hieronder je eigen.",
      post_challenge: "Plaats een uitdaging", time_control: "Bedenktijd", your_seat: "Jouw plaats", rated_game: "Met rating", casual: "Vriendschappelijk",
      post: "Plaatsen", games_in_progress: "Lopende spellen", no_challenges: "Geen open uitdagingen: plaats er een.",
      no_games: "Geen lopende spellen.", board_of: "bord van {n}×{n}", their_move: "Hun beurt",
      status_win: "Gewonnen", status_loss: "Verloren", status_draw: "Gelijkspel", status_aborted: "Afgebroken", no_clock: "geen klok", days: "{n} dagen per zet", days_one: "{n} dag per zet", minutes: "{m} min + {s} s",
      accept_challenge: "Aannemen", take_seat: "Neem plaats", cancel: "Annuleren", watch: "Kijken", waiting_players: "wachten op spelers…",
      seats_taken: "{taken} van {seats} plaatsen bezet", yours: "jouw uitdaging", you_sit: "jij zit hier",
    },
  };
  const STORED_LANGUAGE = "bordspel.language";
  let language = chooseLanguage();
  const onLanguage = [];

  function chooseLanguage() {
    let stored = null;
    try {
      stored = localStorage.getItem(STORED_LANGUAGE);
    } catch (error) {
      stored = null;
    }
    if (stored in TEXT) return stored;
    return (navigator.languages || [navigator.language || "en"]).some((l) => l.toLowerCase().startsWith("nl")) ? "nl" : "en";
  }

  // A text in the page's language; a count ``n`` of one takes the key's ``_one`` form if it has one.
  function t(key, params = {}) {
    const one = typeof params.n === "number" && new Intl.PluralRules(language).select(params.n) === "one";
    const form = one && (`${key}_one` in TEXT[language] || `${key}_one` in TEXT.en) ? `${key}_one` : key;
    const text = TEXT[language][form] ?? TEXT.en[form] ?? key;
    return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
  }

  function translatePage() {
    document.documentElement.lang = language;
    const titleKey = document.body.dataset.titleKey;  // pages whose title is a fixed text
    if (titleKey) document.title = `bordspel — ${t(titleKey)}`;
    for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
    for (const node of document.querySelectorAll("[data-i18n-title]")) {
      node.title = t(node.dataset.i18nTitle);
      node.setAttribute("aria-label", node.title);
    }
    for (const button of document.querySelectorAll("[data-lang]")) {
      button.classList.toggle("selected", button.dataset.lang === language);
      button.setAttribute("aria-pressed", String(button.dataset.lang === language));
    }
  }

  function languageSwitch() {
    for (const button of document.querySelectorAll("[data-lang]")) {
      button.addEventListener("click", () => {
        language = button.dataset.lang;
        try {
          localStorage.setItem(STORED_LANGUAGE, language);
        } catch (error) {
          // private windows may refuse storage: the choice then lasts for this page
        }
        translatePage();
        for (const callback of onLanguage) callback();
      });
    }
    translatePage();
  }

  async function api(method, path, body, token) {
    const headers = body ? { "Content-Type": "application/json" } : {};
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = await fetch(path, {
      method,
      headers,
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    if (!response.ok) throw Object.assign(new Error(data.error || `HTTP ${response.status}`), { status: response.status });
    return data;
  }

  function element(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) {
      if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value);
    }
    node.append(...children);
    return node;
  }

  const titleOf = (meta, name) => (meta.games[name].title || {})[language] || name;

  // -- the start page ------------------------------------------------------------------------
  async function startPage() {
    const meta = await api("GET", "/api/meta");
    const names = Object.keys(meta.games);
    const labels = () => {
      $("#game-choice").replaceChildren(...gameChoices(meta));
      $("#rules-links").replaceChildren(...names.filter((name) => meta.games[name].rules).flatMap((name, i) => [
        ...(i ? [" · "] : []), element("a", { href: `/rules/${name}`, text: titleOf(meta, name) })]));
    };
    labels();
    let accountGames = [];
    showStoredGames(meta, accountGames);
    onLanguage.push(() => showStoredGames(meta, accountGames));
    document.addEventListener("bordspel:games", (event) => {
      accountGames = event.detail;
      showStoredGames(meta, accountGames);
    });
    const invited = storedGames().find((game) => game.id === new URLSearchParams(location.search).get("invite"));
    if (invited && invited.links) invite(invited);
    const asked = new URLSearchParams(location.search).get("game");
    let chosen = names.includes(asked) ? asked : names[0];
    const pick = () => {
      $(`#game-${chosen}`).checked = true;
      showOptions(meta, chosen);
    };
    pick();
    onLanguage.push(() => {
      chosen = document.querySelector("input[name=game]:checked").value;
      labels();
      pick();
    });
    $("#new-game").addEventListener("submit", async (event) => {
      event.preventDefault();
      const game = document.querySelector("input[name=game]:checked").value;
      const options = chosenOptions(meta, game);
      const seats = [...document.querySelectorAll("#seats select.seat")].map((s) => s.value);
      try {
        const created = await api("POST", "/api/games", { game, options, seats, clock: bordspel.chosenClock() });
        const others = created.seats.filter((spec, seat) => spec === "human" && seat !== created.you);
        const link = created.links.seats[created.you];
        remember({ id: created.id, game, you: created.you, link, seats: created.seats, links: others.length ? created.links : null });
        if (others.length) invite(storedGames()[0]);
        else location.href = link;
      } catch (error) {
        $("#form-error").textContent = error.message;
      }
    });
  }

  // The game to choose (a radio button per game) on the start page and the lobby's form.
  const gameChoices = (meta) => Object.keys(meta.games).map((name) => {
    const input = element("input", { type: "radio", name: "game", value: name, id: `game-${name}` });
    input.addEventListener("change", () => showOptions(meta, name));
    return element("label", { for: `game-${name}` }, input, titleOf(meta, name));
  });

  // The options chosen in the form: numbers, flags and each seat's choices (gods).
  function chosenOptions(meta, game) {
    const options = {};
    for (const input of document.querySelectorAll("#options input")) {
      options[input.name] = input.type === "checkbox" ? input.checked : Number(input.value);
    }
    return Object.assign(options, seatOptions(meta, game));
  }

  // -- your games: every game started or joined here, kept in this browser with its links --------
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

  const storedGames = () => readList(STORED_GAMES);

  // Keep (or refresh) a game: its id, name, when it was first kept, your seat's link and, for the
  // one who started it, the other seats' and the spectators' links.
  function remember(game) {
    const games = storedGames();
    const old = games.find((kept) => kept.id === game.id);
    const kept = { ...old, ...game, since: (old && old.since) || Date.now() };
    writeList(STORED_GAMES, [kept, ...games.filter((other) => other.id !== game.id)]);
  }

  // The games kept in this browser, after the logged-in account's games in progress that it
  // does not keep (from the live channel, notices.js), each of those marked "Your turn" when so.
  function showStoredGames(meta, accountGames) {
    const games = storedGames().filter((game) => meta.games[game.game]);
    const kept = new Set(games.map((game) => game.id));
    const others = accountGames.filter((game) => !kept.has(game.id) && meta.games[game.game]);
    const told = new Map(accountGames.map((game) => [game.id, game]));
    $("#your-games").hidden = !games.length && !others.length;
    $("#your-games-list").replaceChildren(...others.map((game) => accountGame(meta, game)), ...games.map((game) => {
      const when = new Date(game.since).toLocaleString(language, { dateStyle: "medium", timeStyle: "short" });
      const seat = game.you === null ? "" : ` · ${t("seat_n", { n: game.you + 1 })}`;
      const open = element("a", { href: game.link, class: "button", text: t("open_game") });
      const links = game.links ? [element("button", { type: "button", text: t("show_links"), onclick: () => invite(game) })] : [];
      const status = element("span", { class: "game-status", text: gameStatus(told.get(game.id) || keptStatus.get(game.id)) });
      return element("li", { "data-game": game.id }, element("span", { text: `${titleOf(meta, game.game)} · ${when}${seat}` }), status, open, ...links);
    }));
    lookUpKept(meta, games.filter((game) => !told.has(game.id) && !keptStatus.has(game.id)), accountGames);
  }

  function accountGame(meta, game) {
    const names = game.opponents.length ? ` · ${game.opponents.join(t("and"))}` : "";
    const open = element("a", { href: `/games/${encodeURIComponent(game.id)}`, class: "button", text: t("open_game") });
    return element("li", { "data-game": game.id }, element("span", { text: `${titleOf(meta, game.game)}${names} · ${gameStatus(game)}` }), open);
  }

  // Where a game stands for its player, from the live channel's entry (or one made alike from the
  // game's own view): "Your turn", "Their turn", or how it ended for them.
  function gameStatus(game) {
    if (!game) return "";
    if (game.over) return t(`status_${game.result}`);
    return t(game.your_move ? "your_move" : "their_move");
  }

  // The games kept in this browser that no live channel tells about (played without an account):
  // each read once with its seat's token, the newest ten, then the list is shown again.
  const keptStatus = new Map();
  async function lookUpKept(meta, games, accountGames) {
    const asked = games.slice(0, 10);
    if (!asked.length) return;
    await Promise.all(asked.map(async (game) => {
      const token = new URLSearchParams(new URL(game.link, location.href).hash.slice(1)).get("seat");
      try {
        keptStatus.set(game.id, statusOf(await api("GET", `/api/games/${encodeURIComponent(game.id)}`, undefined, token)));
      } catch {
        keptStatus.set(game.id, null); // gone, or not readable: no status
      }
    }));
    showStoredGames(meta, accountGames);
  }

  function statusOf(view) {
    const you = view.you;
    if (!view.outcome) return { over: false, your_move: you !== null && view.to_move === you && view.seats[you] === "human" };
    const winners = view.outcome.winners;
    const result = view.outcome.termination === "aborted" ? "aborted"
      : !winners.length || winners.length === view.seats.length ? "draw" : winners.includes(you) ? "win" : "loss";
    return { over: true, result };
  }

  function invite(created) {
    const link = (label, path, id) => {
      const input = element("input", { type: "text", readonly: "", id, value: new URL(path, location.href).href });
      input.addEventListener("focus", () => input.select());
      return element("li", {}, element("label", { for: id }, label), input);
    };
    const items = created.seats.flatMap((spec, seat) =>
      spec === "human" && seat !== created.you ? [link(t("player", { n: seat + 1 }), created.links.seats[seat], `invite-${seat}`)] : []);
    items.push(link(t("spectators"), created.links.spectator, "invite-spectator"));
    $("#invitation-links").replaceChildren(...items);
    $("#play-link").href = created.links.seats[created.you];
    $("#play-link").textContent = t("go_player", { name: t("player", { n: created.you + 1 }) });
    $("#new-game").hidden = true;
    $("#your-games").hidden = true;
    $("#invitations").hidden = false;
    history.replaceState(null, "", `/?invite=${encodeURIComponent(created.id)}`); // a reload shows them again
  }

  function showOptions(meta, name) {
    const box = $("#options");
    const before = Object.fromEntries([...box.querySelectorAll("input")].map((i) => [i.name, i.type === "checkbox" ? i.checked : i.value]));
    box.replaceChildren();
    const options = Object.fromEntries(Object.entries(meta.games[name].options).filter(([o]) => !meta.games[name].limits[o].per_seat));
    for (const [option, value] of Object.entries(options)) {
      const label = optionWord(meta, name, option);
      if (typeof value === "boolean") {
        const input = element("input", { type: "checkbox", name: option, id: `option-${option}` });
        input.checked = option in before ? before[option] : value;
        input.addEventListener("change", () => markLevels(meta, name));
        box.append(element("label", { class: "check", for: input.id }, input, label));
      } else {
        const limit = meta.games[name].limits[option] || {};
        const choices = limit.choices || [];
        const limits = choices.length ? { min: Math.min(...choices), max: Math.max(...choices) } : { min: limit.min, max: limit.max };
        const input = element("input", { type: "number", name: option, value: String(before[option] ?? value), ...limits });
        input.addEventListener("input", () => showSeats(meta, name));
        box.append(element("label", {}, label, input));
      }
    }
    if (!Object.keys(options).length) box.append(element("span", { text: t("none") }));
    showSeats(meta, name);
  }

  // An option's label in the game's own words (its guide), else the page's.
  function optionWord(meta, name, option) {
    const words = meta.games[name].option_words || {};
    return (words[language] || words.en || {})[option] || t(option === "players" ? "players_option" : option);
  }

  // The note on a seat's choice (a god's power) under its select.
  function choiceNote(meta, name, value) {
    const notes = meta.games[name].choice_notes || {};
    return (notes[language] || notes.en || {})[value] || "";
  }

  // Each seat's player (a person or a level of the computer) and its own options (a god); in the
  // lobby every seat is a person's, and "Your seat" offers as many seats as the options make.
  function showSeats(meta, name) {
    const players = document.querySelector("#options input[name=players]");
    const count = players ? Math.min(4, Math.max(2, Number(players.value) || 2)) : meta.games[name].seats;
    const lobby = document.body.dataset.page === "lobby";
    const box = $("#seats");
    const previous = Object.fromEntries([...box.querySelectorAll("select")].map((s) => [s.id, s.value]));
    box.replaceChildren();
    if (lobby) yourSeat(count);
    box.closest("fieldset").hidden = lobby && !perSeat(meta, name).length;
    for (let seat = 0; seat < count; seat++) {
      const select = element("select", { name: `seat-${seat}`, id: `seat-${seat}`, class: "seat" });
      for (const value of ["human", ...meta.games[name].levels]) {
        const rating = meta.games[name].level_ratings[value];
        const level = rating ? t("level_rating", { level: t(value), rating }) : t(value);
        const text = value === "human" ? t("person") : t("computer", { level });
        select.append(element("option", { value, text }));
      }
      select.value = previous[select.id] || (seat === 0 ? "human" : "medium");
      const who = lobby ? element("strong", { text: t("player", { n: seat + 1 }) }) : element("label", { for: select.id }, t("player", { n: seat + 1 }), select);
      const column = element("div", { class: "seat-choices" }, who);
      for (const [option, limit] of perSeat(meta, name)) {
        const choice = element("select", { name: option, id: `seat-${seat}-${option}`, "data-option": option });
        for (const value of limit.seat_choices) {
          const text = value === "-" ? t("none") : value === "random" ? t("random") : value[0].toUpperCase() + value.slice(1);
          choice.append(element("option", { value, text }));
        }
        choice.value = previous[choice.id] || "-";
        const note = element("small", { class: "choice-note", id: `${choice.id}-note`, text: choiceNote(meta, name, choice.value) });
        choice.addEventListener("change", () => {
          note.textContent = choiceNote(meta, name, choice.value);
          markLevels(meta, name);
        });
        column.append(element("label", { for: choice.id }, optionWord(meta, name, option), choice), note);
      }
      box.append(column);
    }
    markLevels(meta, name);
  }

  // A level that plays only some options (meta's level_options: zero, those of its networks) is
  // shown for others greyed out, saying why.
  function markLevels(meta, name) {
    const chosen = Object.entries(chosenOptions(meta, name));
    for (const [level, played] of Object.entries(meta.games[name].level_options)) {
      const plays = played.some((options) => chosen.every(([option, value]) => options[option] === value));
      for (const option of document.querySelectorAll(`#seats option[value="${level}"]`)) {
        option.dataset.text ??= option.textContent;
        option.disabled = !plays;
        option.textContent = plays ? option.dataset.text : t("unplayed", { level: t(level) });
        if (!plays && option.selected) option.parentElement.value = "medium";
      }
    }
  }

  // An option chosen seat by seat (a god per seat, from the option's seat_choices: "-" for none,
  // "random" drawn by the server): each seat's value joined by commas, left out if no seat has one.
  const perSeat = (meta, name) => Object.keys(meta.games[name].options)
    .filter((option) => meta.games[name].limits[option].per_seat).map((option) => [option, meta.games[name].limits[option]]);

  function seatOptions(meta, name) {
    const options = {};
    for (const [option] of perSeat(meta, name)) {
      const chosen = [...document.querySelectorAll(`#seats select[data-option="${option}"]`)].map((s) => s.value);
      if (chosen.some((value) => value !== "-")) options[option] = chosen.join(",");
    }
    return options;
  }

  // -- click paths ---------------------------------------------------------------------------------
  // Each legal move comes with its click paths (tokens square:b3, piece:A, move:<text>) and the
  // toolbar choices it needs (e.g. a colour); a move is offered while the toolbar shows its choices.
  const fits = (move, mode) => Object.entries(move.choices || {}).every(([key, value]) => mode[key] === value);

  // -- the game page ---------------------------------------------------------------------------
  // The seat's secret is in the URL fragment (#seat=...), which the browser never sends to the
  // server; the page sends it as a bearer token. Without one the page is a spectator's.
  function gamePage() {
    const id = location.pathname.split("/").pop();
    const token = new URLSearchParams(location.hash.slice(1)).get("seat");
    const page = {
      id, token, view: null, clicks: [], mode: {}, asking: -1, busy: false,
      replay: null, thinking: null, timer: null, hint: null, error: null, touch: false, tapped: null, seen: 0,
    };
    setInterval(() => tickClocks(page), 200);
    $("#download").href = `/api/games/${id}/record`;
    $("#undo").addEventListener("click", () => send(page, "undo", {}));
    $("#resign").addEventListener("click", () => resign(page));
    $("#hint-button").addEventListener("click", () => askHint(page));
    $("#rematch").addEventListener("click", () => rematch(page));
    $("#decline-rematch").addEventListener("click", () => send(page, "rematch/decline", {}));
    $("#accept").addEventListener("click", () => send(page, "takeback", { accept: true }));
    $("#decline").addEventListener("click", () => send(page, "takeback", { accept: false }));
    boardEvents(page);
    $("#first").addEventListener("click", () => replayTo(page, 0));
    $("#previous").addEventListener("click", () => replayTo(page, replayPly(page) - 1));
    $("#next").addEventListener("click", () => replayTo(page, replayPly(page) + 1));
    $("#last").addEventListener("click", () => replayTo(page, page.view.ply));
    $("#live").addEventListener("click", () => replayTo(page, page.view.ply));
    $("#moves").addEventListener("click", (event) => {
      const item = event.target.closest("li[data-ply]");
      if (item) replayTo(page, Number(item.dataset.ply));
    });
    document.addEventListener("keydown", (event) => keyboard(page, event));
    onLanguage.push(() => page.view && showParts(page));
    refresh(page);
    listen(page);
  }

  // Clicks on the board (and, with a mouse, the preview of where a click would go).
  function boardEvents(page) {
    $("#board").addEventListener("pointerdown", (event) => {
      page.touch = touching(event);
    });
    $("#board").addEventListener("click", (event) => click(page, event));
    $("#board").addEventListener("pointerover", (event) => touching(event) || preview(page, event.target));
    $("#board").addEventListener("pointerleave", (event) => touching(event) || preview(page, null));
    addEventListener("resize", fitBoard);
  }

  // Live updates: the server sends the game's version when it changes; polling only while the
  // event stream is not open (no EventSource, or reconnecting).
  function listen(page) {
    const source = window.EventSource ? new EventSource(`/api/games/${page.id}/events`) : null;
    if (source) {
      source.addEventListener("version", (event) => {
        if (!page.view || JSON.parse(event.data).version !== page.view.version) refresh(page);
      });
    }
    setInterval(() => {
      if (!source || source.readyState !== EventSource.OPEN) refresh(page);
    }, 1000);
  }

  async function refresh(page) {
    if (page.busy) return;
    try {
      const view = await api("GET", `/api/games/${page.id}`, undefined, page.token);
      if (!page.view && view.you !== null) remember({ id: page.id, game: view.game, you: view.you, link: location.href });
      if (page.error && page.error.lost) showError(page, null); // the server answers again
      if (!page.busy && (!page.view || view.version !== page.view.version)) show(page, view);
    } catch (error) {
      showError(page, Object.assign(error, { lost: true }));
    }
  }

  // A request refused because the game changed meanwhile (409) shows the board as it is now; the
  // computer's move asked for by this page needs no words then (another page asked first).
  async function send(page, action, body) {
    page.busy = true;
    showError(page, null);
    try {
      const view = await api("POST", `/api/games/${page.id}/${action}`, { version: page.view.version, ...body }, page.token);
      page.busy = false;
      show(page, { ...view, you: page.view.you });
    } catch (error) {
      page.clicks = [];
      page.busy = false;
      await refresh(page);
      if (action !== "ai" || error.status !== 409) showError(page, error);
    }
    page.busy = false;
  }

  // The error under the board, until a newer position is drawn: a conflict in the page's own
  // words (the board already shows the current position), any other in the server's.
  function showError(page, error) {
    page.error = error && { lost: Boolean(error.lost), key: error.status === 409 ? "changed" : null, text: error.message };
    showMessage(page);
  }

  function showMessage(page) {
    const error = page.error;
    $("#message").textContent = !error ? "" : error.key ? t(error.key) : error.text;
  }

  // The rematch: the same options and clock, each player (with their god) one seat on: with two,
  // the seats swapped. The first to ask starts it; each other person takes their seat in it from
  // their own page (which then offers "Play the rematch"), so no links need sending.
  async function rematch(page) {
    const kept = storedGames().find((game) => game.id === page.view.rematch);
    if (kept) {
      location.href = kept.link;
      return;
    }
    try {
      const created = await api("POST", `/api/games/${page.id}/rematch`, {}, page.token);
      remember({ id: created.id, game: created.game, you: created.you, link: created.link });
      location.href = created.link;
    } catch (error) {
      showError(page, error);
    }
  }

  // Before every side has moved the button aborts the game (one click, nothing is rated);
  // afterwards it resigns, on a second click.
  function resign(page) {
    const button = $("#resign");
    if (page.view && page.view.abortable) send(page, "abort", {});
    else if (button.dataset.confirm) send(page, "resign", {});
    else {
      button.dataset.confirm = "yes";
      button.textContent = t("really_resign");
    }
  }

  function seatName(view, seat) {
    const spec = view.seats[seat];
    if (seat === view.you && spec === "human") return t("you");
    if (view.players && view.players[seat]) return view.players[seat];
    return spec === "human" ? t("player", { n: seat + 1 }) : t("computer", { level: t(spec) });
  }

  function show(page, view) {
    const previous = page.view;
    page.view = view;
    page.seen = performance.now();
    document.dispatchEvent(new CustomEvent("bordspel:view", { detail: view })); // for chat.js
    page.clicks = [];
    page.tapped = null;
    if (previous && previous.version !== view.version) page.error = null;
    if (page.hint && page.hint.version !== view.version) page.hint = null;
    if (page.replay !== null && page.replay > view.ply) page.replay = null;
    if (page.replay === null) {
      drawBoard(view.svg);
      if (previous && view.ply === previous.ply + 1) animateArrival();
    }
    showParts(page);
    const aiTurn = !view.outcome && view.seats[view.to_move] !== "human";
    if (aiTurn && view.you !== null && page.asking !== view.version) {
      page.asking = view.version;
      askComputer(page, view.version);
    }
  }

  // The computer's turn is asked for by one page: the first person's. The other people's pages
  // ask only if the game has not moved on after the computer's time (that page may be closed),
  // so no page's request is refused as stale.
  // The moves numbered as in the record: one number for each round of the seats ("1. A a1:B").
  function moveItem(page, view, text, i) {
    const round = i % view.seats.length === 0;
    const classes = [page.replay === i + 1 ? "current" : "", round ? "" : "same-move"].filter(Boolean).join(" ");
    return element("li", {
      "data-ply": String(i + 1), value: String(Math.floor(i / view.seats.length) + 1), class: classes, tabindex: "0", text,
    });
  }

  function askComputer(page, version) {
    const view = page.view;
    const first = view.seats.indexOf("human");
    const ask = () => {
      if (page.view.version === version && !page.view.outcome) send(page, "ai", {});
    };
    if (view.you === first) ask();
    else setTimeout(ask, (view.ai_time + 5) * 1000);
  }

  function showParts(page) {
    const view = page.view;
    const title = view.title[language] || view.game;
    document.title = `bordspel — ${title}`;
    $("#title").textContent = title;
    // The rules page offers the way back to this game: its address (with the seat) in the rules
    // page's fragment, which the browser never sends to the server.
    $("#rules-link").href = `/rules/${view.game}#from=${encodeURIComponent(location.pathname + location.hash)}`;
    $("#rules-link").hidden = !view.rules;
    // While a clock runs the rules open in a tab of their own: the game stays on screen.
    const ticking = view.clock && view.clock.running !== null;
    if (ticking) Object.assign($("#rules-link"), { target: "_blank", rel: "noopener" });
    else $("#rules-link").removeAttribute("target");
    $("#moves").replaceChildren(...view.moves.map((m, i) => moveItem(page, view, m, i)));
    if (page.replay === null) $("#moves").scrollTop = 1e9;
    $("#players").replaceChildren(...view.seats.map((_, seat) => player(view, seat)));
    $("#seat-line").replaceChildren(...view.seats.map((_, seat) => seatLine(view, seat)));
    toolbar(page); // before the status: the toolbar's choices decide which moves fit
    showStatus(page);
    controls(page);
    highlight(page);
    showReplay(page);
    showHint(page);
    showMessage(page);
    fitBoard();
  }

  // A hint: the server's analysis of the current position (best move, score, depth and line).
  async function askHint(page) {
    const version = page.view.version;
    page.hint = { version, found: null };
    showHint(page);
    try {
      const found = await api("GET", `/api/games/${page.id}/analysis`, undefined, page.token);
      if (page.hint && page.hint.version === version && found.version === version) page.hint.found = found;
    } catch (error) {
      page.hint = null;
      showError(page, error);
    }
    showHint(page);
  }

  function showHint(page) {
    const view = page.view, hint = page.hint;
    // Hints are for a person playing the computer (the server refuses the others).
    const { person, againstPeople } = role(view);
    const live = page.replay === null && !view.outcome && person && !againstPeople;
    $("#hint-button").hidden = !live;
    $("#hint-button").disabled = Boolean(hint && !hint.found);
    $("#hint").hidden = !live || !hint;
    for (const node of document.querySelectorAll("#board .hint")) node.classList.remove("hint");
    if (!live || !hint) return;
    const found = hint.found;
    if (!found) {
      $("#hint").replaceChildren(element("p", { class: "thinking", text: t("hint_thinking") }));
      return;
    }
    $("#hint").replaceChildren(
      element("p", { class: "hint-move", text: t("hint_move", { move: found.move }) }),
      element("p", { class: "hint-judgement", text: judgement(found) }),
      element("p", { class: "hint-line", text: t("hint_line", { line: found.line.join(" ") }) }),
    );
    markHint(view, found.move);
  }

  // The hint's verdict in words: a result that can be forced (and how soon), or the search's leaning.
  function judgement(found) {
    if (found.result) {
      const soon = found.plies_to_end ? ` ${t("ends_in", { n: found.plies_to_end })}` : "";
      return t(`result_${found.result}`) + soon;
    }
    if (found.depth === 0) return t("known");
    const leaning = found.score > 0 ? "eval_better" : found.score < 0 ? "eval_worse" : "eval_even";
    return t("looked_ahead", { judgement: t(leaning), depth: found.depth });
  }

  // The squares and pieces the hint's move clicks, outlined on the board.
  function markHint(view, text) {
    const move = view.legal.find((m) => m.text === text);
    if (!move || !move.paths.length) return;
    for (const token of move.paths[0]) {
      const node = nodeOf(token);
      if (node) node.classList.add("hint");
    }
  }

  function swatchOf(colour) {
    const swatch = element("span", { class: colour ? "swatch" : "swatch none" });
    if (colour) swatch.style.background = colour;
    return swatch;
  }

  // -- clocks: the server's seconds left, counted down here from when the page received them ----
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

  function clockOf(view, seat) {
    if (!view.clock) return [];
    const running = view.clock.running === seat;
    return [element("span", { class: running ? "clock running" : "clock", "data-seat": String(seat), text: clockText(view.clock.remaining[seat]) })];
  }

  // Every 200 ms: the running seat's clocks on the page; at zero the server is asked for the result.
  function tickClocks(page) {
    const view = page.view;
    if (!view || !view.clock || view.clock.running === null) return;
    const left = secondsLeft(page, view.clock.running);
    for (const node of document.querySelectorAll(`.clock[data-seat="${view.clock.running}"]`)) {
      node.textContent = clockText(left);
      node.classList.toggle("low", left < 10);
    }
    if (left === 0 && !page.flagAsked) {
      page.flagAsked = true;
      setTimeout(() => { page.flagAsked = false; refresh(page); }, 500);
    }
  }

  // One line per seat, numbered by the list in the order of play: "2. ● Computer (hard)".
  function player(view, seat) {
    const item = element("li", { class: !view.outcome && seat === view.to_move ? "to-move" : "" },
      swatchOf(view.seat_colours[seat]), playerName(view, seat), ...ratingOf(view, seat), ...clockOf(view, seat));
    const note = (view.seat_notes[language] || view.seat_notes.en)[seat];
    if (note) item.append(element("p", { class: "note", text: note }));
    return item;
  }

  // A rated game's rating next to the name ("1512?" while provisional) and, once it is over,
  // the change this game made ("+12", "-12").
  function ratingOf(view, seat) {
    const rating = view.ratings && view.ratings[seat];
    if (!rating) return [];
    const change = view.rating_changes && view.rating_changes[seat];
    const shown = [element("span", { class: "rating", text: `${rating.rating}${rating.provisional ? "?" : ""}` })];
    if (typeof change === "number") {
      shown.push(element("span", { class: `rating-change ${change > 0 ? "up" : change < 0 ? "down" : ""}`, text: signed(change) }));
    }
    return shown;
  }

  const signed = (change) => `${change > 0 ? "+" : change < 0 ? "−" : "±"}${Math.abs(change)}`;

  // A player with an account: their name links to their profile.
  function playerName(view, seat) {
    const account = view.players && view.players[seat];
    if (!account || seat === view.you) return element("span", { class: "name", text: seatName(view, seat) });
    return element("a", { class: "name", href: `/players/${encodeURIComponent(account)}`, text: account });
  }

  // On a phone the players list is below the board: a line above it says who is who
  // ("You: ●  Computer (hard): ●").
  function seatLine(view, seat) {
    const colour = view.seat_colours[seat];
    const item = element("li", { class: !view.outcome && seat === view.to_move ? "to-move" : "" },
      element("span", { class: "name", text: colour ? `${seatName(view, seat)}:` : seatName(view, seat) }));
    if (colour) item.append(swatchOf(colour));
    item.append(...clockOf(view, seat));
    return item;
  }

  function ending(view) {
    const termination = view.outcome.termination;
    if (termination === "resignation" || termination === "time") return t(termination);
    return (view.prompts[language] || {})[`over:${termination}`] || termination;
  }

  // A whole move clicked: sent to the game, or played on the analysis board.
  const play = (page, text) => (page.play ? page.play(text) : send(page, "moves", { move: text }));

  function showStatus(page) {
    if (page.analysis) return boardStatus(page);
    const view = page.view;
    const status = $("#status");
    status.classList.toggle("over", Boolean(view.outcome) && page.replay === null);
    stopThinking(page);
    if (page.replay !== null) {
      const key = page.replay ? "replay_status" : "replay_status_start";
      status.textContent = t(key, { ply: page.replay, plies: view.ply });
    } else if (view.outcome && view.outcome.termination === "aborted") {
      status.textContent = t("aborted");
    } else if (view.outcome) {
      const winners = view.outcome.winners;
      const how = ending(view);
      if (!winners.length) status.textContent = t("draw", { how });
      else if (winners.includes(view.you)) status.textContent = t("you_won", { how });
      else status.textContent = t("won", { names: winners.map((s) => seatName(view, s)).join(t("and")), how });
      const mine = view.you !== null && view.rating_changes && view.ratings ? view.rating_changes[view.you] : null;
      if (typeof mine === "number") status.textContent += ` ${t("your_rating", { rating: view.ratings[view.you].rating, change: signed(mine) })}`;
      if (rematchWaits(view)) status.textContent += ` ${t(view.rated ? "rated_rematch_offered" : "rematch_offered")}`;
    } else if (view.seats[view.to_move] !== "human") {
      startThinking(page);
    } else if (view.to_move === view.you) {
      const words = prompt(page);
      status.textContent = words ? t("your_turn", { prompt: words }) : t("your_move");
    } else {
      status.textContent = t(view.you === null ? "to_move" : "waiting", { name: seatName(view, view.to_move) });
    }
  }

  // Whether another person started a rematch in which this page's player has not taken a seat.
  function rematchWaits(view) {
    return Boolean(view.rematch) && role(view).person && !storedGames().some((game) => game.id === view.rematch);
  }

  // The words of the clicks that can come next ("pick a worker or choose where to build before
  // moving"), and "or end your turn" when the clicks so far already make a whole turn.
  function prompt(page) {
    if (page.tapped && previewOf(page, page.tapped)) return t("tap_again");
    const steps = [...new Set(matching(page).map(({ move }) => move.steps[page.clicks.length]).filter(Boolean))];
    const words = page.view.prompts[language] || page.view.prompts.en || {};
    const next = forTouch(page, steps.map((step) => words[step] || step).join(t("or")));
    if (!finished(page)) return next;
    return next ? t("or_end", { prompt: next }) : t("confirm_turn");
  }

  // The games' prompts say "click"; on a touch screen (known before the first tap) they say "tap".
  function forTouch(page, text) {
    if (!page.touch && !matchMedia("(pointer: coarse)").matches) return text;
    return text.replace(/\bclick/g, "tap").replace(/\bClick/g, "Tap").replace(/\bklik/g, "tik").replace(/\bKlik/g, "Tik");
  }

  // "Computer (hard) is thinking… 3 s of 10 s": the time since this page saw the position.
  function startThinking(page) {
    const view = page.view;
    if (!page.thinking || page.thinking.version !== view.version) page.thinking = { version: view.version, since: Date.now() };
    const tick = () => {
      const elapsed = Math.floor((Date.now() - page.thinking.since) / 1000);
      const text = t("thinking", { name: seatName(view, view.to_move), elapsed, budget: Math.round(view.ai_time) });
      $("#status").replaceChildren(element("span", { class: "thinking", text }));
    };
    tick();
    page.timer = setInterval(tick, 1000);
  }

  function stopThinking(page) {
    if (page.timer) clearInterval(page.timer);
    page.timer = null;
  }

  // "You play first" ("Jij begint"), second, third, fourth; later seats by number.
  function playing(view) {
    if (view.you === null) return t("watching");
    const key = `playing_${view.you + 1}`;
    return key in TEXT.en ? t(key) : t("playing", { n: view.you + 1 });
  }

  // Whether the page's seat is a person's, and whether another person plays in the game.
  function role(view) {
    return {
      person: view.you !== null && view.seats[view.you] === "human",
      againstPeople: view.seats.some((spec, seat) => spec === "human" && seat !== view.you),
    };
  }

  function controls(page) {
    const view = page.view;
    const { person, againstPeople } = role(view);
    $("#you").textContent = playing(view);
    for (const id of ["#undo", "#resign"]) $(id).hidden = !person;
    $("#undo").textContent = againstPeople ? t("ask_takeback") : t("undo");
    // A finished game's result is final: nothing is taken back once it is over.
    $("#undo").disabled = view.ply === 0 || view.takeback !== null || Boolean(view.outcome);
    $("#resign").disabled = Boolean(view.outcome);
    $("#rematch").hidden = !(person && view.outcome);
    $("#analyse").hidden = !view.outcome;
    $("#analyse").href = analysisLink(view.game, page.replay === null ? view.position : page.replayPosition, page.id);
    $("#rematch").textContent = t(view.rematch ? "join_rematch" : "rematch");
    $("#rematch").classList.toggle("primary", Boolean(view.rematch));
    $("#decline-rematch").hidden = !(person && rematchWaits(view));
    $("#new").href = `/?game=${encodeURIComponent(view.game)}`;
    if (!$("#resign").dataset.confirm || view.outcome || view.abortable) {
      delete $("#resign").dataset.confirm;
      $("#resign").textContent = t(view.abortable ? "abort" : "resign");
    }
    const asked = view.takeback;
    $("#takeback").hidden = asked === null;
    if (asked !== null) {
      const mine = asked === view.you;
      $("#takeback-text").textContent = mine ? t("you_asked") : t("asks", { name: seatName(view, asked) });
      $("#accept").hidden = mine || !person;
      $("#decline").hidden = !person;
      $("#decline").textContent = mine ? t("withdraw") : t("decline");
    }
  }

  function toolbar(page) {
    const bar = $("#toolbar");
    bar.replaceChildren();
    const view = page.view;
    const legal = view.legal;
    const byText = legal.filter((m) => m.paths.some((path) => path[0].startsWith("move:")));
    bar.hidden = (!view.choices.length && !byText.length) || Boolean(view.outcome) || page.replay !== null;
    if (bar.hidden) return;
    const group = (entries, key) => {
      const box = element("div", { class: "group" });
      for (const [value, label, swatch] of entries) {
        const usable = legal.some((m) => (m.choices || {})[key] === value);
        const button = element("button", { type: "button", "data-choice": `${key}:${value}`, "data-key": value, title: value });
        if (swatch) {
          const mark = element("span", { class: "swatch" });
          mark.style.background = swatch;
          button.append(mark);
        }
        button.append(t(label));
        button.disabled = !usable;
        button.classList.toggle("selected", page.mode[key] === value);
        button.addEventListener("click", () => {
          page.mode[key] = value;
          toolbar(page);
          highlight(page);
        });
        box.append(button);
      }
      bar.append(box);
    };
    // Keep the chosen values while some move fits them, else take the first fitting move's, group by group.
    view.choices.forEach(({ key }, index) => {
      const before = view.choices.slice(0, index + 1).map((choice) => choice.key);
      const fitsBefore = (m, mode) => before.every((k) => (m.choices || {})[k] === mode[k]);
      if (!legal.some((m) => fitsBefore(m, page.mode))) {
        const fit = legal.find((m) => fitsBefore(m, { ...page.mode, [key]: (m.choices || {})[key] }));
        if (fit) page.mode[key] = fit.choices[key];
      }
    });
    for (const { key, options } of view.choices) group(options, key);
    if (byText.length && paths(page).length) {
      const box = element("div", { class: "group" });
      for (const m of byText) {
        box.append(element("button", { type: "button", "data-token": `move:${m.text}`, text: m.text, onclick: () => play(page, m.text) }));
      }
      bar.append(box);
    }
  }

  function paths(page) {
    const view = page.view;
    if (page.replay !== null || view.outcome || view.seats[view.to_move] !== "human" || view.to_move !== view.you) return [];
    const found = [];
    for (const move of view.legal) {
      if (fits(move, page.mode)) for (const path of move.paths) found.push({ path, move });
    }
    return found;
  }

  function matching(page) {
    const clicks = page.clicks;
    return paths(page).filter(({ path }) => clicks.every((token, i) => path[i] === token));
  }

  // The move the clicks so far make, if any: played at once unless a longer move goes on from it.
  function finished(page) {
    const count = page.clicks.length;
    return count ? matching(page).find(({ path }) => path.length === count) : undefined;
  }

  function nodeOf(token) {
    const [kind, name] = token.split(/:(.*)/s);
    return document.querySelector(`#board [data-${kind}="${CSS.escape(name)}"]`);
  }

  function tokenOf(node) {
    if (node.dataset.square) return `square:${node.dataset.square}`;
    if (node.dataset.piece) return `piece:${node.dataset.piece}`;
    return null;
  }

  function highlight(page) {
    const next = new Set(matching(page).map(({ path }) => path[page.clicks.length]).filter(Boolean));
    const chosen = new Set(page.clicks);
    for (const node of document.querySelectorAll("#board [data-square], #board [data-piece]")) {
      const token = tokenOf(node);
      node.classList.toggle("target", next.has(token));
      node.classList.toggle("chosen", chosen.has(token) && !next.has(token)); // a target looks like one
    }
    slide(page);
    preview(page, null);
    turnBar(page);
  }

  // The clicks that are buttons rather than squares (a "button:dome" token, labelled by the game's
  // words), and "End turn" when the clicks make a whole turn that could also go on.
  function turnBar(page) {
    const words = (page.view && (page.view.prompts[language] || page.view.prompts.en)) || {};
    const next = new Set(matching(page).map(({ path }) => path[page.clicks.length]));
    const buttons = [...next].filter((token) => token && token.startsWith("button:")).map((token) =>
      element("button", { type: "button", "data-token": token, text: words[token] || token.slice(7), onclick: () => advance(page, token) }));
    const done = finished(page);
    if (done) {
      buttons.push(element("button", {
        type: "button", id: "end-turn", class: "primary", text: t("end_turn"), onclick: () => page.busy || play(page, done.move.text),
      }));
    }
    $("#turn-bar").replaceChildren(...buttons);
    $("#turn-bar").hidden = !buttons.length;
  }

  // The box (in the picture's units) around the squares named.
  function squaresBox(names) {
    const rects = names.map((name) => document.querySelector(`#board .square[data-square="${CSS.escape(name)}"]`)).filter(Boolean);
    if (!rects.length) return null;
    const edges = rects.map((r) => ["x", "y", "width", "height"].map((key) => Number(r.getAttribute(key))));
    const left = Math.min(...edges.map((e) => e[0])), top = Math.min(...edges.map((e) => e[1]));
    const right = Math.max(...edges.map((e) => e[0] + e[2])), bottom = Math.max(...edges.map((e) => e[1] + e[3]));
    return { x: left, y: top, width: right - left, height: bottom - top };
  }

  // The move a click on ``token`` would make next that shows a preview, if any.
  const previewOf = (page, token) =>
    matching(page).find(({ path, move }) => path[page.clicks.length] === token && move.preview);

  // Pointing at a target shows what the move would put there (a move's "preview": squares and
  // colour); on touch, where nothing points, the square tapped once shows it (page.tapped).
  function preview(page, node) {
    for (const old of document.querySelectorAll("#board .preview")) old.remove();
    const shown = node || (page.tapped && nodeOf(page.tapped));
    const target = shown && shown.closest && shown.closest("#board .target[data-square]");
    if (!target || !page.view) return;
    const found = previewOf(page, tokenOf(target));
    if (!found) return;
    const box = squaresBox(found.move.preview.squares);
    if (!box) return;
    const inset = 5;
    const shape = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    for (const [key, value] of Object.entries({
      x: box.x + inset, y: box.y + inset, width: box.width - 2 * inset, height: box.height - 2 * inset, rx: 5,
      fill: found.move.preview.colour, class: "preview",
    })) shape.setAttribute(key, String(value));
    target.parentNode.insertBefore(shape, document.querySelector("#board .square"));
  }

  // A move's "slide" [i, j, ...]: the piece on click i's square is drawn on the square of the latest
  // of the other clicks made, so a turn shows its steps before the rest is chosen.
  function slide(page) {
    for (const moved of document.querySelectorAll("#board [data-slid]")) {
      moved.style.transform = "";
      delete moved.dataset.slid;
    }
    const made = ({ move }) => (move.slide || []).filter((i) => i < page.clicks.length);
    const found = matching(page).find((entry) => made(entry).length > 1);
    if (!found) return;
    const route = made(found);
    const [from, to] = [route[0], route[route.length - 1]].map((i) => page.clicks[i].replace(/^square:/, ""));
    const piece = document.querySelector(`#board [data-at="${CSS.escape(from)}"]`);
    const start = squaresBox([from]), end = squaresBox([to]);
    if (!piece || !start || !end) return;
    piece.dataset.slid = "yes";
    piece.style.transform = `translate(${end.x - start.x}px, ${end.y - start.y}px)`;
  }

  const touching = (event) => (event.pointerType ? event.pointerType === "touch" : matchMedia("(pointer: coarse)").matches);

  // A click on a square or piece. On touch a tap that would play a move with a preview (a block to
  // lay) shows the preview first, and a second tap on the same square plays it.
  function click(page, event) {
    const node = event.target.closest("[data-square], [data-piece]");
    if (!node) return;
    const token = tokenOf(node);
    if (page.touch && page.tapped !== token && previewOf(page, token)) {
      page.tapped = token;
      preview(page, null);
      showStatus(page);
    } else advance(page, token);
  }

  // One more click (a square, a piece or a button); a whole turn that cannot go on is sent, unless
  // its move parts ask for a confirmation (End turn).
  function advance(page, token) {
    if (page.busy || !page.view) return;
    page.tapped = null;
    const next = new Set(matching(page).map(({ path }) => path[page.clicks.length]));
    if (next.has(token)) {
      page.clicks.push(token);
    } else {
      page.clicks = paths(page).some(({ path }) => path[0] === token) ? [token] : [];
    }
    const done = finished(page);
    if (done && !done.move.confirm && !matching(page).some(({ path }) => path.length > page.clicks.length)) {
      play(page, done.move.text);
    } else {
      highlight(page);
      showStatus(page);
    }
  }

  function keyboard(page, event) {
    if (!page.view || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const steps = { ArrowLeft: -1, ArrowRight: 1 };
    if (event.key in steps) replayTo(page, replayPly(page) + steps[event.key]);
    else if (event.key === "Home") replayTo(page, 0);
    else if (event.key === "End") replayTo(page, page.view.ply);
    else if (event.key === "Escape") {
      page.clicks = [];
      page.tapped = null;
      highlight(page);
      showStatus(page);
    } else {
      const button = document.querySelector(`#toolbar button[data-key="${CSS.escape(event.key.toUpperCase())}"]:not([disabled])`);
      if (!button) return;
      button.click();
    }
    event.preventDefault();
  }

  // -- replay: earlier positions, the game unchanged -------------------------------------------
  const replayPly = (page) => (page.replay === null ? page.view.ply : page.replay);

  async function replayTo(page, ply) {
    const view = page.view;
    if (!view) return;
    const target = Math.max(0, Math.min(view.ply, ply));
    if (target === view.ply) {
      const wasReplaying = page.replay !== null;
      page.replay = null;
      if (wasReplaying) drawBoard(view.svg);
      showParts(page);
      return;
    }
    const position = await api("GET", `/api/games/${page.id}/positions/${target}`);
    const forward = target === replayPly(page) + 1;
    page.replay = target;
    page.replayPosition = position.position;
    page.clicks = [];
    drawBoard(position.svg);
    if (forward) animateArrival();
    showParts(page);
  }

  function showReplay(page) {
    const view = page.view;
    const ply = replayPly(page);
    $("#first").disabled = $("#previous").disabled = ply === 0;
    $("#next").disabled = $("#last").disabled = ply === view.ply;
    $("#live").hidden = page.replay === null;
    $("#replay").classList.toggle("replaying", page.replay !== null);
    $("#board").classList.toggle("replaying", page.replay !== null);
    $("#replay-text").textContent = page.replay === null ? "" : ply === 0
      ? t("replay_start", { plies: view.ply }) : t("replaying", { ply, plies: view.ply });
  }

  // -- the board picture -----------------------------------------------------------------------
  function drawBoard(svgText) {
    const board = $("#board");
    board.innerHTML = svgText;
    const picture = board.querySelector("svg");
    if (!picture) return;
    translatePage();
    picture.removeAttribute("width");
    picture.removeAttribute("height");
  }

  const sizeOf = (viewBox) => viewBox.split(/\s+/).slice(2).map(Number);

  // The picture fills the column but stays within the window's height, below the status and
  // toolbar and above the replay buttons. On a small screen it keeps every click target at least
  // 44 pixels wide while the column is wide enough for that; a larger board (12x12 squares on a
  // phone) takes the column's width with smaller squares, so that every square stays in view.
  function fitBoard() {
    const picture = $("#board svg");
    if (!picture) return;
    const room = Math.round($("#board").getBoundingClientRect().top + window.scrollY) + 75;
    layOut(picture, Math.max(320, window.innerHeight - room));
    const [width, height] = sizeOf(picture.getAttribute("viewBox"));
    picture.style.maxWidth = `max(320px, calc((100vh - ${room}px) * ${(width / height).toFixed(3)}))`;
    const targets = [...picture.querySelectorAll(".square, .piece")].map((node) => Number(node.getAttribute("width")));
    const border = 2; // the picture's frame, inside its width
    if (!targets.length) return;
    const touchable = Math.ceil((width * TOUCH) / Math.min(...targets)) + border;
    picture.style.minWidth = `${Math.min(touchable, $("#board").clientWidth)}px`;
  }

  // A picture with a tray under the board (data-beside="width height dx dy": see bordspel.svg)
  // lays it beside the board when the board is larger so: on a wide screen, not on a phone.
  function layOut(picture, high) {
    const tray = picture.querySelector(".tray");
    if (!picture.dataset.beside || !tray) return;
    if (!picture.dataset.under) picture.dataset.under = picture.getAttribute("viewBox");
    const [width, height, dx, dy] = picture.dataset.beside.split(/\s+/).map(Number);
    const [underWidth, underHeight] = sizeOf(picture.dataset.under);
    const column = $("#board").clientWidth;
    const scale = (w, h) => Math.min(column / w, high / h);
    const beside = scale(width, height) > scale(underWidth, underHeight);
    picture.setAttribute("viewBox", beside ? `0 0 ${width} ${height}` : picture.dataset.under);
    if (beside) tray.setAttribute("transform", `translate(${dx} ${dy})`);
    else tray.removeAttribute("transform");
  }

  function animateArrival() {
    if (!Element.prototype.animate || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    for (const node of document.querySelectorAll("#board .arrive")) {
      const dx = Number(node.dataset.dx), dy = Number(node.dataset.dy);
      const frames = dx || dy
        ? [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }]
        : [{ transform: "scale(0.3)", opacity: 0 }, { transform: "scale(1)", opacity: 1 }];
      node.animate(frames, { duration: ANIMATION, easing: "ease-out" });
    }
  }

  // -- the lobby: open challenges (live), a form to post one, the games in progress to watch -----
  // A seat taken at a challenge (posted or accepted here) is kept in this browser with its token
  // until its game starts; then the page goes to the game with that token as the seat's.
  const STORED_CHALLENGES = "bordspel.challenges";
  function clockLabel(clock) {
    if (!clock) return t("no_clock");
    return clock.days ? t("days", { n: clock.days }) : `${clock.initial / 60}+${clock.increment}`;
  }

  function yourSeat(count) {
    const select = $("#your-seat");
    const before = select.value || "random";
    select.replaceChildren(element("option", { value: "random", text: t("random") }),
      ...Array.from({ length: count }, (_, seat) => element("option", { value: String(seat), text: t("player", { n: seat + 1 }) })));
    select.value = [...select.options].some((option) => option.value === before) ? before : "random";
  }

  async function lobbyPage() {
    const meta = await api("GET", "/api/meta");
    const lobby = { meta, data: { challenges: [], games: [] } };
    let chosen = Object.keys(meta.games)[0];
    const form = () => {
      $("#game-choice").replaceChildren(...gameChoices(meta));
      $(`#game-${chosen}`).checked = true;
      showOptions(meta, chosen);
    };
    form();
    onLanguage.push(() => {
      chosen = document.querySelector("input[name=game]:checked").value;
      form();
      showLobby(lobby);
    });
    $("#new-challenge").addEventListener("submit", (event) => {
      event.preventDefault();
      postChallenge(lobby);
    });
    const source = window.EventSource ? new EventSource("/api/lobby/events") : null;
    if (source) source.addEventListener("version", () => loadLobby(lobby));
    setInterval(() => loadLobby(lobby), source ? 15000 : 2000);
    loadLobby(lobby);
  }

  async function postChallenge(lobby) {
    const game = document.querySelector("input[name=game]:checked").value;
    const seat = $("#your-seat").value;
    const body = {
      game, options: chosenOptions(lobby.meta, game), clock: bordspel.chosenClock(),
      rated: $("#rated").checked, seat: seat === "random" ? "random" : Number(seat),
    };
    try {
      const posted = await api("POST", "/api/challenges", body);
      keepChallenge({ id: posted.id, token: posted.token, you: posted.you, game, host: true });
      $("#form-error").textContent = "";
      await loadLobby(lobby);
    } catch (error) {
      $("#form-error").textContent = error.message;
    }
  }

  function keepChallenge(kept) {
    writeList(STORED_CHALLENGES, [kept, ...readList(STORED_CHALLENGES).filter((other) => other.id !== kept.id)]);
  }

  const forgetChallenge = (id) => writeList(STORED_CHALLENGES, readList(STORED_CHALLENGES).filter((kept) => kept.id !== id));

  async function loadLobby(lobby) {
    try {
      lobby.data = await api("GET", "/api/lobby");
      $("#lobby-error").textContent = "";
    } catch (error) {
      $("#lobby-error").textContent = error.message;
      return;
    }
    showLobby(lobby);
    await followChallenges(lobby);
  }

  // A challenge of this browser that left the open list: once started, go to its game.
  async function followChallenges(lobby) {
    const open = new Set(lobby.data.challenges.map((found) => found.id));
    for (const kept of readList(STORED_CHALLENGES).filter((kept) => !open.has(kept.id))) {
      const found = await api("GET", `/api/challenges/${kept.id}`).catch(() => null);
      if (found && found.status === "open") continue; // not listed yet: look again next time
      forgetChallenge(kept.id);
      if (found && found.status === "started") {
        const link = `/games/${found.game_id}#seat=${kept.token}`;
        remember({ id: found.game_id, game: found.game, you: kept.you, link });
        location.href = link;
        return;
      }
    }
  }

  // A listed challenge or game in words: "alma (1500?) · <game> · advanced · 3+2 · Rated".
  function describe(meta, item) {
    const options = Object.entries(item.options).map(([option, value]) => optionText(meta, item, option, value)).filter(Boolean);
    const rated = (name, seat) => {
      const rating = item.ratings && item.ratings[seat];
      return rating ? `${name} (${rating.rating}${rating.provisional ? "?" : ""})` : name;
    };
    const names = (item.players || []).map(rated).filter(Boolean);
    return [...names, titleOf(meta, item.game), ...options, clockLabel(item.clock), t(item.rated ? "rated_game" : "casual")].join(" · ");
  }

  // An option as the lobby says it: a flag by the first words of its label ("advanced"), a board
  // size as "5×5 board", a choice per seat by seat ("alma: Athena, Player 2: Pan").
  function optionText(meta, item, option, value) {
    const word = optionWord(meta, item.game, option).split(":")[0];
    if (typeof value === "boolean") return value ? word : null;
    if (option === "size") return t("board_of", { n: value });
    if (!meta.games[item.game].limits[option].per_seat) return `${word}: ${value}`;
    const seats = String(value).split(",").map((chosen, seat) => chosen === "-" ? null
      : `${listedName(item, seat)}: ${chosen[0].toUpperCase()}${chosen.slice(1)}`);
    return `${word} (${seats.filter(Boolean).join(", ")})`;
  }

  // The username of a listed item's seat (``players`` follow the seats ``taken``), or "Player n".
  function listedName(item, seat) {
    const index = (item.taken || []).indexOf(seat);
    return (index >= 0 && (item.players || [])[index]) || t("player", { n: seat + 1 });
  }

  function showLobby(lobby) {
    const { meta, data } = lobby;
    const mine = new Map(readList(STORED_CHALLENGES).map((kept) => [kept.id, kept]));
    const rows = data.challenges.filter((found) => meta.games[found.game]).map((found) => challengeRow(lobby, found, mine.get(found.id)));
    $("#challenges").replaceChildren(...(rows.length ? rows : [element("li", { class: "muted", text: t("no_challenges") })]));
    const games = data.games.filter((game) => meta.games[game.game]).map((game) => element("li", { "data-game": game.id },
      element("span", { class: "what", text: describe(meta, game) }),
      element("a", { class: "button", href: `/games/${game.id}`, text: t("watch") })));
    $("#games").replaceChildren(...(games.length ? games : [element("li", { class: "muted", text: t("no_games") })]));
  }

  function challengeRow(lobby, found, kept) {
    const seats = found.seats > 2 ? [element("span", { class: "muted", text: t("seats_taken", { taken: found.taken.length, seats: found.seats }) })] : [];
    const row = element("li", { "data-challenge": found.id }, element("span", { class: "what", text: describe(lobby.meta, found) }), ...seats);
    if (!kept) {
      const take = () => acceptChallenge(lobby, found);
      row.append(element("button", { type: "button", class: "primary", text: t(found.seats > 2 ? "take_seat" : "accept_challenge"), onclick: take }));
      return row;
    }
    row.append(element("span", { class: "muted", text: `${t(kept.host ? "yours" : "you_sit")} · ${t("waiting_players")}` }));
    if (kept.host) row.append(element("button", { type: "button", text: t("cancel"), onclick: () => cancelChallenge(lobby, kept) }));
    return row;
  }

  async function acceptChallenge(lobby, found) {
    try {
      const taken = await api("POST", `/api/challenges/${found.id}/accept`, {});
      if (taken.game) {
        remember({ id: taken.game.id, game: found.game, you: taken.you, link: taken.link });
        location.href = taken.link;
        return;
      }
      keepChallenge({ id: found.id, token: taken.token, you: taken.you, game: found.game, host: false });
      await loadLobby(lobby);
    } catch (error) {
      $("#lobby-error").textContent = error.message;
      await loadLobby(lobby);
    }
  }

  async function cancelChallenge(lobby, kept) {
    try {
      await api("DELETE", `/api/challenges/${kept.id}`, undefined, kept.token);
      forgetChallenge(kept.id);
    } catch (error) {
      $("#lobby-error").textContent = error.message;
    }
    await loadLobby(lobby);
  }

  // -- the analysis board: any position, the engine's best lines, moves played freely -----------
  // The analysis board's address: the game, the position and, opened from a game, that game's id
  // (its moves are listed beside the board: analysis-moves.js).
  const analysisLink = (game, position, from) => `/analysis#game=${encodeURIComponent(game)}&position=${encodeURIComponent(position)}`
    + (from ? `&from=${encodeURIComponent(from)}` : "");
  const BEST_LINES = 3;

  async function analysisPage() {
    const params = new URLSearchParams(location.hash.slice(1));
    const page = {
      analysis: true, view: null, clicks: [], mode: {}, busy: false, replay: null, touch: false, tapped: null,
      played: [], asked: 0, lines: null, game: null, play: (text) => boardMove(page, text),
    };
    document.addEventListener("bordspel:game", (event) => {
      page.game = { game: event.detail.game.game, names: event.detail.names };
      if (page.view) showBoard(page);
      if (page.lines) showLines(page);
    });
    const meta = await api("GET", "/api/meta");
    boardEvents(page);
    const games = () => $("#game-select").replaceChildren(...Object.keys(meta.games).map((name) =>
      element("option", { value: name, text: titleOf(meta, name) })));
    games();
    $("#editor").addEventListener("submit", (event) => {
      event.preventDefault();
      setUp(page, $("#game-select").value, $("#position").value.trim());
    });
    $("#start-position").addEventListener("click", () => setUp(page, $("#game-select").value, null));
    $("#back").addEventListener("click", () => takeBackOnBoard(page));
    onLanguage.push(() => {
      games();
      if (!page.view) return;
      $("#game-select").value = page.view.game;
      showBoard(page);
      if (page.lines) showLines(page);
    });
    page.from = params.get("from");
    document.addEventListener("bordspel:set-up", (event) => setUp(page, event.detail.game, event.detail.position));
    const asked = params.get("game");
    setUp(page, meta.games[asked] ? asked : Object.keys(meta.games)[0], params.get("position"));
  }

  function setUp(page, game, position) {
    page.played = [];
    return loadBoard(page, game, position, null);
  }

  async function loadBoard(page, game, position, move) {
    page.busy = true;
    try {
      const query = new URLSearchParams({ game });
      if (position) query.set("position", position);
      if (move) query.set("move", move);
      const view = await api("GET", `/api/board?${query}`);
      page.view = { ...view, you: view.to_move }; // whoever is to move, the board's user plays them
      history.replaceState(null, "", analysisLink(game, page.view.position, page.from));
      document.dispatchEvent(new CustomEvent("bordspel:board", { detail: page.view }));
      $("#message").textContent = "";
      showBoard(page);
      analyseBoard(page);
      return true;
    } catch (error) {
      $("#message").textContent = error.message;
      return false;
    } finally {
      page.busy = false;
    }
  }

  function showBoard(page) {
    const view = page.view;
    page.clicks = [];
    page.tapped = null;
    $("#title").textContent = view.title[language] || view.game;
    $("#position").value = view.position;
    $("#game-select").value = view.game;
    $("#back").disabled = !page.played.length;
    $("#played").textContent = page.played.map((step) => step.move).join(" ");
    drawBoard(view.svg);
    toolbar(page);
    showStatus(page);
    highlight(page);
    fitBoard();
  }

  async function boardMove(page, text) {
    const before = { game: page.view.game, position: page.view.position, move: text };
    page.played.push(before);
    if (!(await loadBoard(page, before.game, before.position, text))) page.played.pop();
  }

  function takeBackOnBoard(page) {
    const last = page.played.pop();
    if (last) loadBoard(page, last.game, last.position, null);
  }

  // A seat's name on the analysis board: its player's in the game it was opened from (the
  // "bordspel:game" event of analysis-moves.js), while it shows that game's kind, else "Player n".
  function boardName(page, seat) {
    const names = page.game && page.game.game === page.view.game ? page.game.names() : [];
    return names[seat] || t("player", { n: seat + 1 });
  }

  function boardStatus(page) {
    const view = page.view;
    const name = boardName(page, view.to_move);
    const status = $("#status");
    status.classList.toggle("over", Boolean(view.outcome));
    if (view.outcome) {
      const winners = view.outcome.winners.map((seat) => boardName(page, seat));
      status.textContent = winners.length ? t("won", { names: winners.join(t("and")), how: ending(view) }) : t("draw", { how: ending(view) });
      return;
    }
    const words = prompt(page);
    status.textContent = words ? `${t("to_move", { name })}: ${words}` : t("to_move", { name });
  }

  // The engine's lines, deeper and deeper (server-sent events read from a fetch, so that a
  // refusal's words can be shown); a new position stops the stream of the one before.
  async function analyseBoard(page) {
    if (page.stopLines) page.stopLines.abort();
    const stop = page.stopLines = new AbortController();
    const view = page.view;
    page.lines = null;
    $("#depth").textContent = "";
    if (view.outcome) {
      $("#lines").replaceChildren();
      return;
    }
    $("#lines").replaceChildren(element("li", { class: "thinking", text: t("hint_thinking") }));
    const query = new URLSearchParams({ game: view.game, position: view.position, lines: BEST_LINES });
    try {
      const response = await fetch(`/api/board/analysis/stream?${query}`, { signal: stop.signal });
      if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error || `HTTP ${response.status}`);
      for await (const [event, data] of serverEvents(response)) {
        if (event === "refused") throw new Error(data.error);
        page.lines = data.lines;
        page.depth = data;
        showLines(page);
      }
    } catch (error) {
      if (!stop.signal.aborted) $("#lines").replaceChildren(element("li", { class: "error", text: error.message }));
    }
  }

  // Each event of a text/event-stream response: its name ("message" without one) and its data.
  async function* serverEvents(response) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      buffer += read.value;
      const blocks = buffer.split("\n\n");
      buffer = blocks.pop();
      for (const block of blocks) {
        const fields = Object.fromEntries(block.split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]));
        if (fields.data) yield [fields.event || "message", JSON.parse(fields.data)];
      }
    }
  }

  function showLines(page) {
    const depth = page.depth;
    $("#depth").textContent = t(depth.last ? "depth_done" : "depth_going", { depth: depth.depth });
    $("#lines").replaceChildren(...page.lines.map((line) => element("li", {},
      element("button", { type: "button", class: "line-move", text: line.move, onclick: () => boardMove(page, line.move) }),
      element("span", { class: "judgement", text: lineJudgement(page, line) }),
      element("span", { class: "line", text: line.line.join(" ") }))));
  }

  // A line's verdict for the player to move: an exact result where a solver proved it, else the
  // search's score and depth.
  function lineJudgement(page, line) {
    const name = boardName(page, page.view.to_move);
    if (line.result) {
      const soon = line.plies_to_end ? ` ${t("ends_in", { n: line.plies_to_end })}` : "";
      return t(`exact_${line.result}`, { name }) + soon;
    }
    if (line.depth === 0) return t("known");
    const score = `${line.score > 0 ? "+" : ""}${Math.round(line.score * 10) / 10}`;
    return t("score_for", { score, name, depth: line.depth });
  }

  // -- the rules pages ---------------------------------------------------------------------------
  const GAME_ADDRESS = /^\/games\/[\w-]+(#seat=[\w-]+)?$/; // a game page of this site, nothing else
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

  // Words of another script of the site (account.js), in both languages.
  function addWords(words) {
    for (const lang of Object.keys(TEXT)) Object.assign(TEXT[lang], words[lang]);
  }

  return {
    startPage, gamePage, rulesPage, lobbyPage, analysisPage, languageSwitch,
    api, element, t, addWords, onLanguage, storedGames, clockLabel, language: () => language,
  };
})();

bordspel.languageSwitch();
if (document.body.dataset.page === "start") bordspel.startPage();
if (document.body.dataset.page === "game") bordspel.gamePage();
if (document.body.dataset.page === "rules") bordspel.rulesPage();
if (document.body.dataset.page === "lobby") bordspel.lobbyPage();
if (document.body.dataset.page === "analysis") bordspel.analysisPage();
