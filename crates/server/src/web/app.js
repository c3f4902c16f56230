// The Crosscap page: a small hash router over the JSON API. Each game's drawing lives in
// games/<name>.js and exports render(element, state, ctx).
import { el, clear } from "./draw.js";

const main = document.getElementById("main");
const renderers = {};
let catalog = null;
// Bumped on every navigation, so that a page left behind stops following its game.
let generation = 0;

async function api(method, path, body) {
  const response = await fetch("/api" + path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const value = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(value.error || response.statusText);
  return value;
}

async function getCatalog() {
  if (!catalog) catalog = await api("GET", "/catalog");
  return catalog;
}

async function renderer(game) {
  if (!(game in renderers)) {
    try {
      renderers[game] = await import(`./games/${game}.js`);
    } catch {
      renderers[game] = null;
    }
  }
  return renderers[game];
}

const tokenKey = (id) => `crosscap-tokens-${id}`;
function tokens(id) {
  try { return JSON.parse(localStorage.getItem(tokenKey(id))) || {}; } catch { return {}; }
}
function saveTokens(id, more) {
  const all = { ...tokens(id) };
  for (const [seat, token] of Object.entries(more || {})) if (token) all[seat] = token;
  localStorage.setItem(tokenKey(id), JSON.stringify(all));
}

// The invitation of a friend's seat: kept by the creator until the friend claims it. It
// is a one-time code, never the seat's token.
const inviteKey = (id) => `crosscap-invite-${id}`;
function invitation(id) {
  try { return JSON.parse(localStorage.getItem(inviteKey(id))); } catch { return null; }
}
const claimLink = (id, code) => `${location.origin}/#/claim/${id}/${code}`;

async function claimSeat(id, code) {
  const claimed = await api("POST", `/games/${id}/claim`, { code });
  saveTokens(id, { [claimed.seat]: claimed.token });
  const target = `#/game/${id}`;
  if (location.hash === target) route(); else location.replace(target);
}

// Opening an invitation link: the seat, or why not, with the game to watch.
async function claimPage(id, code) {
  try {
    await claimSeat(id, code);
  } catch (err) {
    clear(main);
    main.append(el("p", { class: "error", id: "claim-error" }, err.message),
      el("p", {}, el("a", { href: `#/game/${id}` }, "Watch the game")));
  }
}

function route() {
  generation += 1;
  const hash = location.hash.replace(/^#\/?/, "");
  const parts = hash.split("/").map(decodeURIComponent);
  const show = {
    "": () => newGamePage(),
    // #/games/{id} is a game's link too.
    games: () => (parts[1] ? gamePage(parts[1]) : savedGamesPage()),
    rules: () => rulesPage(parts[1]),
    game: () => gamePage(parts[1]),
    claim: () => claimPage(parts[1], parts[2]),
  }[parts[0]] || (() => newGamePage());
  Promise.resolve(show()).catch((err) => {
    clear(main);
    main.append(el("p", { class: "error" }, err.message));
  });
}
window.addEventListener("hashchange", route);
route();

// ---- New game ----

function playerPicker(seat, levels, initial) {
  const kind = el("select", { name: `${seat}-kind` },
    el("option", { value: "human" }, "a person on this device"),
    el("option", { value: "friend" }, "a friend on another device"),
    el("option", { value: "ai" }, "the computer"));
  kind.value = initial;
  const level = el("select", { name: `${seat}-level` },
    ...levels.map((l) => el("option", { value: l }, l)));
  level.value = "medium";
  const sync = () => { level.hidden = kind.value !== "ai"; };
  kind.addEventListener("change", sync);
  sync();
  return {
    element: el("span", {}, kind, " ", level),
    value: () => kind.value === "ai" ? `ai:${level.value}` : "human",
    friend: () => kind.value === "friend",
  };
}

async function newGamePage() {
  const cat = await getCatalog();
  clear(main);
  const gameSelect = el("select", { name: "game", id: "game" },
    ...cat.games.map((g) => el("option", { value: g.name }, g.title)));
  const wanted = new URLSearchParams(location.hash.split("?")[1] || "").get("game");
  if (wanted) gameSelect.value = wanted;
  const board = el("textarea", { name: "board", id: "board-spec", rows: 1, spellcheck: "false" });
  const examples = el("span", { class: "help" });
  const boardLabel = el("span", { class: "help" });
  const options = el("div", { id: "options" });
  const x = playerPicker("X", cat.levels, "human");
  const o = playerPicker("O", cat.levels, "ai");
  const error = el("p", { class: "error", id: "form-error" });
  const start = el("button", { type: "submit", class: "primary", id: "start" }, "Start the game");
  let optionInputs = [];

  const kind = () => cat.games.find((g) => g.name === gameSelect.value);
  function syncGame() {
    const g = kind();
    board.value = g.default_board;
    boardLabel.textContent = `The ${g.board_label}. Paste a board file, a graph spec or graph6 as you like.`;
    clear(examples);
    examples.append("Examples: ");
    for (const b of g.example_boards) {
      const a = el("a", { href: "#" }, b);
      a.addEventListener("click", (e) => { e.preventDefault(); board.value = b; });
      examples.append(a, " ");
    }
    clear(options);
    // Options the form does not offer (a start position, moves) are for the API and the CLI.
    optionInputs = g.options.filter((opt) => opt.on_form).map((opt) => {
      let input;
      if (opt.kind === "select") {
        input = el("select", { name: opt.name }, ...opt.choices.map((c) => el("option", { value: c }, c)));
        input.value = JSON.parse(opt.default);
      } else {
        input = el("input", { type: "text", name: opt.name, value: JSON.parse(opt.default) });
      }
      options.append(el("div", {}, el("label", {}, opt.label, " ", input), el("div", { class: "help" }, opt.help)));
      return { opt, input };
    });
  }
  gameSelect.addEventListener("change", syncGame);
  syncGame();

  const form = el("form", { class: "new-game" },
    el("label", { for: "game" }, "Game"), gameSelect,
    el("label", { for: "board-spec" }, "Board"), board, boardLabel, examples,
    el("label", {}, "Options"), options,
    el("label", {}, el("span", { class: "swatch X" }), " X (moves first)"), x.element,
    el("label", {}, el("span", { class: "swatch O" }), " O"), o.element,
    el("span"), start,
    el("span"), error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const opts = {};
    for (const { opt, input } of optionInputs) {
      if (opt.kind === "text" && input.value.trim() === "") continue;
      opts[opt.name] = input.value;
    }
    try {
      if (x.friend() && o.friend()) throw new Error("One seat at most is a friend's: you play the other.");
      start.disabled = true;
      const friend = x.friend() ? "X" : o.friend() ? "O" : undefined;
      const game = await api("POST", "/games", {
        game: gameSelect.value, board: board.value.trim(), options: opts,
        players: { X: x.value(), O: o.value() }, friend,
      });
      saveTokens(game.id, game.tokens);
      if (game.tokens.claim) localStorage.setItem(inviteKey(game.id), JSON.stringify(game.tokens.claim));
      location.hash = `#/game/${game.id}`;
    } catch (err) {
      error.textContent = err.message;
    } finally {
      start.disabled = false;
    }
  });
  main.append(el("h1", {}, "New game"), form);
}

// ---- Saved games ----

async function savedGamesPage() {
  const list = await api("GET", "/games");
  clear(main);
  const importInput = el("input", { type: "file", accept: "application/json,.json" });
  const importError = el("p", { class: "error" });
  importInput.addEventListener("change", async () => {
    try {
      const record = JSON.parse(await importInput.files[0].text());
      const game = await api("POST", "/games/import", record);
      saveTokens(game.id, game.tokens);
      location.hash = `#/game/${game.id}`;
    } catch (err) {
      importError.textContent = err.message;
    }
  });
  const rows = list.games.map((g) => el("tr", {},
    el("td", {}, el("a", { href: `#/game/${g.id}` }, g.id)),
    el("td", {}, g.game), el("td", {}, g.board),
    el("td", {}, `X ${g.players.X}, O ${g.players.O}`),
    el("td", {}, String(g.moves)),
    el("td", {}, g.finished ? (g.winner ? `${g.winner} won` : "over") : "in play"),
    el("td", {}, new Date(g.updated * 1000).toLocaleString())));
  main.append(
    el("h1", {}, "Saved games"),
    el("p", {}, "Import a game record: ", importInput), importError,
    el("table", { class: "games" },
      el("tr", {}, ...["game", "kind", "board", "players", "moves", "result", "last move"].map((h) => el("th", {}, h))),
      ...rows),
    list.total > list.games.length ? el("p", { class: "note" }, `${list.total} games; the latest ${list.games.length} are shown.`) : "");
}

// ---- Rules ----

async function rulesPage(name) {
  const cat = await getCatalog();
  clear(main);
  main.append(el("h1", {}, "Rules"));
  const box = el("div", { class: "rules" });
  for (const g of cat.games) {
    if (name && g.name !== name) continue;
    const section = el("section", { id: `rules-${g.name}` }, el("h2", {}, g.title));
    section.insertAdjacentHTML("beforeend", g.rules);
    section.append(el("p", {}, el("a", { href: `#/?game=${g.name}` }, `Play ${g.title}`)));
    box.append(section);
  }
  main.append(box);
}

// ---- Playing ----

function seatText(state, seat, mine) {
  const who = state.players[seat];
  const waiting = state.unclaimed === seat ? " (not yet joined)" : "";
  const label = who === "human" ? (mine[seat] ? "you" : `a person${waiting}`) : `the computer (${who.slice(3)})`;
  return [el("span", { class: `swatch ${seat}` }), ` ${seat}: ${label}`];
}

function statusText(state) {
  if (state.status === "over") {
    if (state.stopped) return "The game was stopped by its owner.";
    if (!state.winner) return "The game is over: a draw.";
    const how = state.resigned ? ` (${state.resigned} resigned)` : "";
    return `${state.winner} wins${how}.`;
  }
  if (state.thinking) return `${state.to_move} to move: the computer is thinking…`;
  return `${state.to_move} to move.`;
}

async function gamePage(id) {
  const mine = tokens(id);
  const myGeneration = generation;
  let state = await api("GET", `/games/${id}`);
  // The board's drawing comes once, with the game; later answers leave it out.
  const layout = state.layout;
  let viewing = null; // a ply under replay, or null for the live position
  let hint = null;
  clear(main);

  const title = el("h1");
  const players = el("p", { id: "players" });
  const status = el("p", { class: "status", id: "status" });
  const boardBox = el("div", { class: "board", id: "board" });
  const legalBox = el("div", { class: "legal" });
  const error = el("p", { class: "error", id: "play-error" });
  const moves = el("div", { class: "moves", id: "move-list" });
  const slider = el("input", { type: "range", min: 0, value: 0, id: "replay" });
  const replayLabel = el("span");
  const hintButton = el("button", { id: "hint" }, "Hint");
  const undoButton = el("button", { id: "undo" }, "Undo");
  const resignButton = el("button", { id: "resign" }, "Resign");
  const stopButton = el("button", { id: "stop", title: "End the game without a winner (its owner only)" }, "Stop");
  const exportLink = el("a", { href: `/api/games/${id}/record`, download: `crosscap-${id}.json` }, "Export record");
  const invite = el("div", { class: "invite" });

  main.append(el("div", { class: "play" },
    el("div", {}, title, players, status, error, boardBox, legalBox),
    el("aside", { class: "side" },
      el("div", { class: "controls" }, hintButton, undoButton, resignButton, stopButton),
      el("p", {}, exportLink),
      el("h3", {}, "Moves"), moves,
      el("div", { class: "replay" }, el("label", {}, "Replay: ", replayLabel), slider),
      invite)));

  const myTurn = () => state.status === "playing" && !state.thinking && viewing === null
    && state.players[state.to_move] === "human" && !!mine[state.to_move];
  const anyToken = () => mine.X || mine.O;

  async function act(work) {
    error.textContent = "";
    try {
      const next = await work();
      if (next && next.id) { state = next; viewing = null; }
      draw();
    } catch (err) {
      error.textContent = err.message;
    }
  }

  const play = (move) => act(async () => {
    hint = null;
    return api("POST", `/games/${id}/moves`, { move, token: mine[state.to_move] });
  });

  hintButton.addEventListener("click", () => act(async () => {
    const answer = await api("GET", `/games/${id}/hint`);
    hint = answer.move;
    error.textContent = `Hint (${answer.level}): ${answer.move}`;
  }));
  undoButton.addEventListener("click", () => act(() =>
    api("POST", `/games/${id}/undo`, { token: mine[state.to_move] || mine.X || mine.O })));
  resignButton.addEventListener("click", () => {
    if (!confirm("Resign this game?")) return;
    const seat = mine[state.to_move] ? state.to_move : (mine.X ? "X" : "O");
    act(() => api("POST", `/games/${id}/resign`, { token: mine[seat] }));
  });
  stopButton.addEventListener("click", () => {
    if (!confirm("Stop this game for good?")) return;
    act(() => api("POST", `/games/${id}/stop`, { token: mine.owner }));
  });
  slider.addEventListener("input", () => act(async () => {
    const ply = Number(slider.value);
    if (ply >= state.moves.length) { viewing = null; return state; }
    viewing = await api("GET", `/games/${id}?ply=${ply}`);
    return null;
  }));

  // The creator sees the friend's one-time link until it is used; anyone else, while the
  // seat is free, may type the code they were given.
  function drawInvite() {
    clear(invite);
    const seat = state.unclaimed;
    if (!seat) return;
    const sent = invitation(id);
    if (sent && sent.seat === seat) {
      invite.append(el("p", { class: "note" }, `Your friend plays ${seat}: send them this link (it works once), or the code `,
        el("strong", { id: "claim-code" }, sent.code), "."),
      el("input", { readonly: "", value: claimLink(id, sent.code), id: "claim-link" }));
      return;
    }
    if (anyToken()) return;
    const code = el("input", { id: "claim-input", placeholder: "code", autocomplete: "off", size: 12 });
    const join = el("button", { type: "submit" }, `Play ${seat}`);
    const form = el("form", { class: "claim" }, el("p", { class: "note" }, `Invited to play ${seat}? Type your code.`), code, " ", join);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      act(() => claimSeat(id, code.value.trim()));
    });
    invite.append(form);
  }

  async function draw() {
    const shown = viewing || state;
    title.textContent = `${state.title} on ${state.board}`;
    clear(players);
    players.append(...seatText(state, "X", mine), "  ·  ", ...seatText(state, "O", mine));
    status.textContent = viewing ? `Replay: position after ${viewing.ply} of ${state.moves.length} moves.` : statusText(state);
    status.dataset.status = viewing ? "replay" : state.status;
    status.dataset.winner = state.winner || "";
    if (state.undo_request && !viewing) status.textContent += ` ${state.undo_request} asks to take back the last move.`;
    hintButton.disabled = !myTurn();
    undoButton.disabled = !anyToken() || state.moves.length === 0 || state.thinking || !!state.resigned;
    resignButton.disabled = !anyToken() || state.status !== "playing";
    stopButton.hidden = !mine.owner || state.status !== "playing";
    slider.max = state.moves.length;
    slider.value = viewing ? viewing.ply : state.moves.length;
    replayLabel.textContent = `${slider.value} / ${state.moves.length}`;
    clear(moves);
    state.moves.forEach((m, i) => moves.append(el("span", {}, `${i + 1}. ${m}`)));
    drawInvite();
    const ctx = { canMove: myTurn(), play, hint, last: shown.moves[shown.ply - 1] || null };
    const module = await renderer(state.game);
    clear(boardBox);
    if (module) {
      module.render(boardBox, { ...shown, layout }, ctx);
    } else {
      boardBox.append(el("pre", {}, JSON.stringify(shown.view, null, 1)));
    }
    clear(legalBox);
    if (ctx.canMove && shown.legal_moves.length) {
      legalBox.append(el("details", {}, el("summary", {}, `All ${shown.legal_moves.length} legal moves`),
        el("div", { class: "buttons" }, ...shown.legal_moves.map((m) => {
          const b = el("button", { class: "move-button" }, m);
          b.addEventListener("click", () => play(m));
          return b;
        }))));
    }
  }

  await draw();
  // Follow the game live: each request waits until the game changes.
  while (generation === myGeneration) {
    try {
      const next = await api("GET", `/games/${id}?wait=${state.version}`);
      if (generation !== myGeneration) break;
      if (next.version !== state.version) {
        state = next;
        await draw();
      }
    } catch {
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}
