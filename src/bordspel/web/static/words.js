// The site's words in English and Dutch, the page's language (chosen once, kept in this browser)
// and the language buttons of every page's header. Other modules add their own words.

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
    waiting: "Waiting for {name}", to_move: "{name} to move", game_over: "Game over", thinking: "{name} is thinking… {elapsed} s of {budget} s",
    won: "Game over: {names} won ({how}).", you_won: "Game over: you won ({how}).", draw: "Game over: a draw ({how}).",
    resignation: "resignation", and: " and ", watching: "You are watching this game.",
    your_rating: "Your rating: {rating} ({change}).", abort: "Abort", aborted: "Game aborted before every player had made a move: it counts for nobody's rating.",
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
    exact_win: "{name} can force a win", exact_win_in: "{name} wins in {n} moves", exact_win_one: "{name} wins with the next move", exact_loss: "{name} loses against best play",
    exact_loss_in: "{name} loses in {n} moves", exact_loss_one: "{name} loses with the next move", exact_draw: "A draw with best play",
    score_better: "{name} is better by {score} · depth {depth}", score_worse: "{name} is worse by {score} · depth {depth}",
    score_even: "Even · depth {depth}",
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
    waiting: "Wachten op {name}", to_move: "{name} is aan zet", game_over: "Afgelopen", thinking: "{name} denkt na… {elapsed} s van {budget} s",
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
    exact_win: "{name} kan de winst afdwingen", exact_win_in: "{name} wint in {n} zetten", exact_win_one: "{name} wint met de volgende zet", exact_loss: "{name} verliest tegen het beste spel",
    exact_loss_in: "{name} verliest in {n} zetten", exact_loss_one: "{name} verliest met de volgende zet", exact_draw: "Remise met het beste spel",
    score_better: "{name} staat {score} beter · diepte {depth}", score_worse: "{name} staat {score} slechter · diepte {depth}",
    score_even: "Gelijk · diepte {depth}",
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
// The page's language ("en" or "nl"); a live binding, so importers see each switch.
export let language = chooseLanguage();

// Callbacks run after each switch of language, to say the page's own texts again.
export const onLanguage = [];

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
export function t(key, params = {}) {
  const one = typeof params.n === "number" && new Intl.PluralRules(language).select(params.n) === "one";
  const form = one && (`${key}_one` in TEXT[language] || `${key}_one` in TEXT.en) ? `${key}_one` : key;
  const text = TEXT[language][form] ?? TEXT.en[form] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
}

export function translatePage() {
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

export function languageSwitch() {
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

// Words of another module of the site (account.js, chat.js, ...), in both languages.
export function addWords(words) {
  for (const lang of Object.keys(TEXT)) Object.assign(TEXT[lang], words[lang]);
}

// A game's name in the page's language, from /api/meta.
export const titleOf = (meta, name) => (meta.games[name].title || {})[language] || name;

// Whether the site has words for ``key`` (some texts exist only for some counts).
export const hasWord = (key) => key in TEXT.en;
