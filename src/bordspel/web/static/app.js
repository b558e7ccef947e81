// bordspel in the browser: the start page and the game page.
// The server lists the legal moves; each move is a path of clicks (squares, pieces), and the
// page highlights the clicks that can come next. No rules live here.
"use strict";

const bordspel = (() => {
  const $ = (selector) => document.querySelector(selector);

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

  // -- the start page ------------------------------------------------------------------------
  async function startPage() {
    const meta = await api("GET", "/api/meta");
    const names = Object.keys(meta.games);
    const choice = $("#game-choice");
    for (const name of names) {
      const input = element("input", { type: "radio", name: "game", value: name, id: `game-${name}` });
      input.addEventListener("change", () => showOptions(meta, name));
      choice.append(element("label", { for: `game-${name}` }, input, name[0].toUpperCase() + name.slice(1)));
    }
    const first = new URLSearchParams(location.search).get("game") || names[0];
    $(`#game-${first}`).checked = true;
    showOptions(meta, first);
    $("#new-game").addEventListener("submit", async (event) => {
      event.preventDefault();
      const game = document.querySelector("input[name=game]:checked").value;
      const options = {};
      for (const input of document.querySelectorAll("#options input")) {
        options[input.name] = input.type === "checkbox" ? input.checked : Number(input.value);
      }
      const seats = [...document.querySelectorAll("#seats select")].map((s) => s.value);
      try {
        const created = await api("POST", "/api/games", { game, options, seats });
        const others = created.seats.filter((spec, seat) => spec === "human" && seat !== created.you);
        if (others.length) invite(created);
        else location.href = created.links.seats[created.you];
      } catch (error) {
        $("#form-error").textContent = error.message;
      }
    });
  }

  function invite(created) {
    const link = (label, path, id) => {
      const input = element("input", { type: "text", readonly: "", id, value: new URL(path, location.href).href });
      input.addEventListener("focus", () => input.select());
      return element("li", {}, element("label", { for: id }, label), input);
    };
    const items = created.seats.flatMap((spec, seat) =>
      spec === "human" && seat !== created.you ? [link(`Player ${seat + 1}`, created.links.seats[seat], `invite-${seat}`)] : []);
    items.push(link("Spectators", created.links.spectator, "invite-spectator"));
    $("#invitation-links").replaceChildren(...items);
    $("#play-link").href = created.links.seats[created.you];
    $("#play-link").textContent = `Play as Player ${created.you + 1}`;
    $("#new-game").hidden = true;
    $("#invitations").hidden = false;
  }

  function showOptions(meta, name) {
    const box = $("#options");
    box.replaceChildren();
    const options = meta.games[name].options;
    for (const [option, value] of Object.entries(options)) {
      const label = option.replace(/_/g, " ");
      if (typeof value === "boolean") {
        const input = element("input", { type: "checkbox", name: option, id: `option-${option}` });
        input.checked = value;
        box.append(element("label", { class: "check", for: input.id }, input, label));
      } else {
        const limit = meta.games[name].limits[option] || {};
        const choices = limit.choices || [];
        const limits = choices.length ? { min: Math.min(...choices), max: Math.max(...choices) } : { min: limit.min, max: limit.max };
        const input = element("input", { type: "number", name: option, value: String(value), ...limits });
        input.addEventListener("input", () => showSeats(meta, name));
        box.append(element("label", {}, label, input));
      }
    }
    if (!Object.keys(options).length) box.append(element("span", { text: "none" }));
    showSeats(meta, name);
  }

  function showSeats(meta, name) {
    const players = document.querySelector("#options input[name=players]");
    const count = players ? Math.min(4, Math.max(2, Number(players.value) || 2)) : meta.games[name].seats;
    const box = $("#seats");
    const previous = [...box.querySelectorAll("select")].map((s) => s.value);
    box.replaceChildren();
    for (let seat = 0; seat < count; seat++) {
      const select = element("select", { name: `seat-${seat}`, id: `seat-${seat}` });
      for (const value of ["human", ...meta.games[name].levels]) {
        const text = value === "human" ? "Person" : `Computer (${value})`;
        select.append(element("option", { value, text }));
      }
      select.value = previous[seat] || (seat === 0 ? "human" : "medium");
      box.append(element("label", { for: select.id }, `Player ${seat + 1}`, select));
    }
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
    const page = { id, token, view: null, clicks: [], mode: {}, asking: -1, busy: false };
    $("#download").href = `/api/games/${id}/record`;
    $("#undo").addEventListener("click", () => send(page, "undo", {}));
    $("#resign").addEventListener("click", () => resign(page));
    $("#accept").addEventListener("click", () => send(page, "takeback", { accept: true }));
    $("#decline").addEventListener("click", () => send(page, "takeback", { accept: false }));
    $("#board").addEventListener("click", (event) => click(page, event));
    refresh(page);
    listen(page);
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
      if (!page.busy && (!page.view || view.version !== page.view.version)) show(page, view);
    } catch (error) {
      $("#message").textContent = error.message;
    }
  }

  async function send(page, action, body) {
    page.busy = true;
    $("#message").textContent = "";
    try {
      const view = await api("POST", `/api/games/${page.id}/${action}`, { version: page.view.version, ...body }, page.token);
      show(page, { ...view, you: page.view.you });
    } catch (error) {
      $("#message").textContent = error.message;
      page.clicks = [];
      page.busy = false;
      await refresh(page);
    }
    page.busy = false;
  }

  function resign(page) {
    const button = $("#resign");
    if (button.dataset.confirm) send(page, "resign", {});
    else {
      button.dataset.confirm = "yes";
      button.textContent = "Really resign?";
    }
  }

  function seatName(view, seat) {
    const spec = view.seats[seat];
    const you = seat === view.you ? ", you" : "";
    return `Player ${seat + 1} ${spec === "human" ? `(person${you})` : `(computer, ${spec})`}`;
  }

  function show(page, view) {
    page.view = view;
    page.clicks = [];
    document.title = `bordspel — ${view.game}`;
    $("#title").textContent = `${view.game[0].toUpperCase()}${view.game.slice(1)} · ${view.seats.length} players`;
    $("#board").innerHTML = view.svg;
    $("#moves").replaceChildren(...view.moves.map((m) => element("li", { text: m })));
    $("#moves").scrollTop = 1e9;
    $("#players").replaceChildren(
      ...view.seats.map((_, seat) =>
        element("li", { class: !view.outcome && seat === view.to_move ? "to-move" : "", text: seatName(view, seat) })),
    );
    showStatus(view);
    controls(page);
    toolbar(page);
    highlight(page);
    const aiTurn = !view.outcome && view.seats[view.to_move] !== "human";
    if (aiTurn && view.you !== null && page.asking !== view.version) {
      page.asking = view.version;
      send(page, "ai", {});
    }
  }

  function showStatus(view) {
    const status = $("#status");
    status.classList.toggle("over", Boolean(view.outcome));
    if (view.outcome) {
      const winners = view.outcome.winners.map((s) => `Player ${s + 1}`).join(" and ");
      const how = view.outcome.termination;
      status.textContent = winners ? `Game over: ${winners} won (${how}).` : `Game over: a draw (${how}).`;
    } else if (view.seats[view.to_move] !== "human") {
      status.replaceChildren(`${seatName(view, view.to_move)} `, element("span", { class: "thinking", text: "is thinking…" }));
    } else {
      status.textContent = `${seatName(view, view.to_move)} to move`;
    }
  }

  function controls(page) {
    const view = page.view;
    const person = view.you !== null && view.seats[view.you] === "human";
    const againstPeople = view.seats.some((spec, seat) => spec === "human" && seat !== view.you);
    $("#you").textContent = view.you === null ? "You are watching this game." : `You play seat ${view.you + 1}.`;
    for (const id of ["#undo", "#resign"]) $(id).hidden = !person;
    $("#undo").textContent = againstPeople ? "Ask to take back" : "Undo";
    $("#undo").disabled = view.ply === 0 || view.takeback !== null || (view.outcome && view.outcome.termination === "resignation");
    $("#resign").disabled = Boolean(view.outcome);
    if (!$("#resign").dataset.confirm || view.outcome) {
      delete $("#resign").dataset.confirm;
      $("#resign").textContent = "Resign";
    }
    const asked = view.takeback;
    $("#takeback").hidden = asked === null;
    if (asked !== null) {
      const mine = asked === view.you;
      $("#takeback-text").textContent = mine ? "You asked to take back your move." : `Player ${asked + 1} asks to take back their move.`;
      $("#accept").hidden = mine || !person;
      $("#decline").hidden = !person;
      $("#decline").textContent = mine ? "Withdraw" : "Decline";
    }
  }

  function toolbar(page) {
    const bar = $("#toolbar");
    bar.replaceChildren();
    const view = page.view;
    if (view.outcome) return;
    const legal = view.legal;
    const group = (entries, key) => {
      const box = element("div", { class: "group" });
      for (const [value, label, swatch] of entries) {
        const usable = legal.some((m) => (m.choices || {})[key] === value);
        const button = element("button", { type: "button", "data-choice": `${key}:${value}` });
        if (swatch) button.append(element("span", { class: "swatch", style: `background:${swatch}` }));
        button.append(label);
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
    const chosen = legal.filter((m) => m.paths.some((path) => path[0].startsWith("move:")));
    if (chosen.length) {
      const box = element("div", { class: "group" });
      for (const m of chosen) {
        box.append(element("button", { type: "button", "data-token": `move:${m.text}`, text: m.text, onclick: () => send(page, "moves", { move: m.text }) }));
      }
      bar.append(box);
    }
  }

  function paths(page) {
    const view = page.view;
    if (view.outcome || view.seats[view.to_move] !== "human" || view.to_move !== view.you) return [];
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
      node.classList.toggle("chosen", chosen.has(token));
    }
  }

  function click(page, event) {
    const node = event.target.closest("[data-square], [data-piece]");
    if (!node || page.busy || !page.view) return;
    const token = tokenOf(node);
    const next = new Set(matching(page).map(({ path }) => path[page.clicks.length]));
    if (next.has(token)) {
      page.clicks.push(token);
    } else {
      page.clicks = paths(page).some(({ path }) => path[0] === token) ? [token] : [];
    }
    const done = matching(page).find(({ path }) => path.length === page.clicks.length);
    if (done) {
      send(page, "moves", { move: done.move.text });
    } else {
      highlight(page);
    }
  }

  return { startPage, gamePage };
})();

if (document.body.dataset.page === "start") bordspel.startPage();
if (document.body.dataset.page === "game") bordspel.gamePage();
