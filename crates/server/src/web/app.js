// The Crosscap page: a small hash router over the JSON API. Each game's drawing lives in
// games/<name>.js and exports render(element, state, ctx); play.js is the game page.
import { el, clear } from "./draw.js";
import { api, getCatalog, saveTokens, createGame, boardName } from "./api.js";
import { gamePage } from "./play.js";

const main = document.getElementById("main");
// Bumped on every navigation, so that a page left behind stops following its game.
let generation = 0;

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

function openGame(id) {
  const mine = generation;
  return gamePage(main, id, { current: () => generation === mine, claim: claimSeat });
}

function route() {
  generation += 1;
  const hash = location.hash.replace(/^#\/?/, "");
  const parts = hash.split("/").map(decodeURIComponent);
  const show = {
    "": () => newGamePage(),
    // #/games/{id} is a game's link too.
    games: () => (parts[1] ? openGame(parts[1]) : savedGamesPage()),
    rules: () => rulesPage(parts[1]),
    game: () => openGame(parts[1]),
    claim: () => claimPage(parts[1], parts[2]),
  }[parts[0].split("?")[0]] || (() => newGamePage());
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
  document.title = "New game — Crosscap";
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
      const game = await createGame({
        game: gameSelect.value, board: board.value.trim(), options: opts,
        players: { X: x.value(), O: o.value() }, friend,
      });
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
  document.title = "Saved games — Crosscap";
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
    el("td", {}, g.game), el("td", {}, boardName(g.board)),
    el("td", {}, `X ${g.players.X}, O ${g.players.O}`),
    el("td", {}, String(g.moves)),
    el("td", {}, g.finished ? (g.winner ? `${g.winner} won` : "over") : "in play"),
    el("td", {}, new Date(g.updated * 1000).toLocaleString())));
  main.append(
    el("h1", {}, "Saved games"),
    el("p", {}, "Import a game record: ", importInput), importError,
    el("div", { class: "table-scroll" }, el("table", { class: "games" },
      el("tr", {}, ...["game", "kind", "board", "players", "moves", "result", "last move"].map((h) => el("th", {}, h))),
      ...rows)),
    list.total > list.games.length ? el("p", { class: "note" }, `${list.total} games; the latest ${list.games.length} are shown.`) : "");
}

// ---- Rules ----

async function rulesPage(name) {
  const cat = await getCatalog();
  clear(main);
  document.title = "Rules — Crosscap";
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
