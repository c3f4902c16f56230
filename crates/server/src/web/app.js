// The Crosscap page: a small hash router over the JSON API. Each game's drawing lives in
// games/<name>.js and exports render(element, state, ctx); play.js is the game page.
import { el, clear, plural } from "./draw.js";
import { api, getCatalog, saveTokens, tokens, heldGames, createGame, boardName, renderer, seatLabel, SEATS, mySeats } from "./api.js";
import { gamePage } from "./play.js";
import { LANGUAGES, language, chooseLanguage, t, valueName } from "./i18n.js";

const main = document.getElementById("main");

/** Most requests the new-game page makes to find the reader's games in play, each for as
 * many held games as the server lists at once (`limits.max_listed`), the latest first. */
const HELD_REQUESTS = 10;

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
    // A game that is there can still be watched; one that is not leaves the way out.
    showFailure(err, "claim-error", err.status === 404
      ? null : el("a", { href: `#/game/${id}` }, t("Watch the game")));
  }
}

/** A page that could not be shown: why, then `next` (a link) or the way to a new game
 * and to the saved games, so that no link ends in a page with nowhere to go. */
function showFailure(err, id, next) {
  clear(main);
  main.append(el("p", { class: "error", id }, err.message),
    el("p", { class: "failure-links" }, ...(next ? [next] : [
      el("a", { href: "#/" }, t("New game")), " · ", el("a", { href: "#/games" }, t("Saved games"))])));
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
    setup: () => setupPage(parts[1], parts[2]),
  }[parts[0].split("?")[0]] || (() => newGamePage());
  Promise.resolve(show()).catch((err) => showFailure(err, "page-error"));
}
window.addEventListener("hashchange", route);
showLanguage();
route();

/** The page's fixed words in the reader's language, and the link to the other language. */
function showLanguage() {
  document.documentElement.lang = language;
  for (const node of document.querySelectorAll("[data-words]")) node.textContent = t(node.textContent);
  const other = language === "en" ? "ja" : "en";
  const link = document.getElementById("language");
  link.textContent = LANGUAGES[other];
  link.lang = other;
  link.hidden = false;
  link.addEventListener("click", (e) => { e.preventDefault(); chooseLanguage(other); });
}

// ---- New game ----

/** A game's title from the catalog ("Euler Getter" for `euler-getter`). */
function gameTitle(cat, name) {
  return cat.games.find((g) => g.name === name)?.title || name;
}

function playerPicker(seat, levels, initial) {
  const kind = el("select", { name: `${seat}-kind` },
    el("option", { value: "human" }, t("a person on this device")),
    el("option", { value: "friend" }, t("a friend on another device")),
    el("option", { value: "ai" }, t("the computer")));
  kind.value = initial;
  const level = el("select", { name: `${seat}-level` },
    ...levels.map((l) => el("option", { value: l }, valueName(l))));
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
  document.title = `${t("New game")} — Crosscap`;
  const gameSelect = el("select", { name: "game", id: "game" },
    ...cat.games.map((g) => el("option", { value: g.name }, g.title)));
  // A link may name the game to start (the rules pages' "Play" links), and its board (a
  // set-up page's way back from a board that will not do); a game the catalog does not
  // hold leaves the first game chosen, with its own board.
  const query = new URLSearchParams(location.hash.split("?")[1] || "");
  const wanted = query.get("game");
  let linkedBoard = null;
  if (cat.games.some((g) => g.name === wanted)) {
    gameSelect.value = wanted;
    linkedBoard = query.get("board");
  }
  const summary = el("span", { class: "help", id: "game-summary" });
  const board = el("textarea", { name: "board", id: "board-spec", rows: 1, spellcheck: "false" });
  // The board as it will start, redrawn as the board text or an option changes: a player
  // sees which board a name stands for, and a board that will not do, before starting.
  const preview = el("figure", { class: "board board-preview", id: "board-preview" });
  let previewsAsked = 0;
  let previewTimer;
  async function drawPreview() {
    clearTimeout(previewTimer);
    const asked = ++previewsAsked;
    const g = kind();
    const spec = board.value.trim();
    try {
      // Not once the form is left (Start pressed before the preview came): drawn then,
      // the preview would take the board's drawing from the game page, which would build
      // it anew on the next move, and its 3D view would leave full screen.
      await drawAtStart(preview, g, spec, () => asked === previewsAsked && preview.isConnected, formOptions());
    } catch (err) {
      if (asked === previewsAsked) preview.replaceChildren(el("p", { class: "error", id: "board-error" }, err.message));
    }
  }
  const previewSoon = () => { clearTimeout(previewTimer); previewTimer = setTimeout(drawPreview, 400); };
  board.addEventListener("input", previewSoon);
  const examples = el("span", { class: "help" });
  const boardLabel = el("span", { class: "help" });
  const options = el("div", { id: "options" });
  const x = playerPicker("X", cat.levels, "human");
  const o = playerPicker("O", cat.levels, "ai");
  const error = el("p", { class: "error", id: "form-error" });
  const start = el("button", { type: "submit", class: "primary", id: "start" }, t("Start the game"));
  const setup = el("a", { id: "setup", href: "#" }, t("or set up a position to analyse"));
  setup.addEventListener("click", (e) => {
    e.preventDefault();
    location.hash = `#/setup/${encodeURIComponent(gameSelect.value)}/${encodeURIComponent(board.value.trim())}`;
  });
  let optionInputs = [];
  // The options as a new game takes them: a text option left empty is left out.
  const formOptions = () => {
    const opts = {};
    for (const { opt, input } of optionInputs) {
      if (opt.kind === "text" && input.value.trim() === "") continue;
      opts[opt.name] = input.value;
    }
    return opts;
  };

  const kind = () => cat.games.find((g) => g.name === gameSelect.value);
  function syncGame() {
    const g = kind();
    // Games whose drawing can take a position stone by stone offer to set one up.
    setup.hidden = true;
    renderer(g.name).then((module) => { setup.hidden = !(module && module.positionField); });
    board.value = linkedBoard ?? g.default_board;
    linkedBoard = null;
    clear(summary);
    summary.append(g.summary, " ", el("a", { href: `#/rules/${g.name}` }, t("Rules")));
    boardLabel.textContent = t("The {board}. Paste a board file, a graph spec or graph6 as you like.", { board: g.board_label });
    clear(examples);
    examples.append(t("Examples: "));
    for (const b of g.example_boards) {
      const a = el("a", { href: "#" }, b);
      a.addEventListener("click", (e) => { e.preventDefault(); board.value = b; drawPreview(); });
      examples.append(a, " ");
    }
    clear(options);
    // Options the form does not offer (a start position) are for the API and the CLI.
    optionInputs = g.options.filter((opt) => opt.on_form).map((opt) => {
      let input;
      if (opt.kind === "select") {
        input = el("select", { name: opt.name }, ...opt.choices.map((c) => el("option", { value: c }, valueName(c))));
        input.value = JSON.parse(opt.default);
      } else {
        // An option with no default (moves) has an empty default text.
        input = el("input", { type: "text", name: opt.name, value: opt.default ? JSON.parse(opt.default) : "" });
      }
      options.append(el("div", {}, el("label", {}, opt.label, " ", input), el("div", { class: "help" }, opt.help)));
      input.addEventListener(opt.kind === "select" ? "change" : "input", previewSoon);
      return { opt, input };
    });
    drawPreview();
  }
  gameSelect.addEventListener("change", syncGame);
  syncGame();

  const form = el("form", { class: "new-game" },
    el("label", { for: "game" }, t("Game")), gameSelect, summary,
    el("label", { for: "board-spec" }, t("Board")), board, boardLabel, examples,
    el("label", {}, t("Options")), options,
    el("label", {}, el("span", { class: "swatch X" }), t(" X (moves first)")), x.element,
    el("label", {}, el("span", { class: "swatch O" }), " O"), o.element,
    el("span"), el("span", {}, start, " ", setup),
    el("span"), error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const opts = formOptions();
    try {
      if (x.friend() && o.friend()) throw new Error(t("One seat at most is a friend's: you play the other."));
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
  const yours = el("section", { id: "your-games", hidden: "" });
  main.append(el("h1", {}, t("New game")), el("div", { class: "new-game-layout" }, form, preview), yours);
  listYourGames(yours, cat).catch(() => {});
}

/** Below the form, the games in play that this browser plays a seat of, latest first:
 * where a reader who closed the page finds their game again, however many games it has
 * finished since (the held games are asked for as many at a time as the server lists). */
async function listYourGames(box, cat) {
  const most = cat.limits.max_listed;
  const held = heldGames().slice(0, most * HELD_REQUESTS);
  const asks = [];
  for (let i = 0; i < held.length; i += most) {
    const ids = held.slice(i, i + most);
    asks.push(api("GET", `/games?limit=${ids.length}&ids=${ids.join(",")}`));
  }
  const games = (await Promise.all(asks)).flatMap((list) => list.games).sort((a, b) => b.updated - a.updated);
  const playing = games.filter((g) => !g.finished && mySeats(g.players, tokens(g.id)).length);
  if (!playing.length) return;
  box.append(el("h2", {}, t("Your games in play")), el("ul", {}, ...playing.map((g) => el("li", {},
    el("a", { href: `#/game/${g.id}` }, t("{game} on {board}", { game: gameTitle(cat, g.game), board: boardName(g.board) })),
    ` · ${plural(g.moves, "move")} · ${t("last move {when}", { when: new Date(g.updated * 1000).toLocaleString(language) })}`))));
  box.hidden = false;
}

// ---- Saved games ----

/** The saved games, 50 a page (fewer where the server lists fewer at once), or only the
 * reader's (`#/games?yours=1`: the latest held, as many as the server takes), of every
 * game or of one (`#/games?game=NAME`). */
async function savedGamesPage() {
  const cat = await getCatalog();
  const perPage = Math.min(50, cat.limits.max_listed);
  const query = new URLSearchParams(location.hash.split("?")[1] || "");
  const page = Math.max(1, Number.parseInt(query.get("page"), 10) || 1);
  const onlyYours = query.get("yours") === "1";
  const oneGame = cat.games.some((g) => g.name === query.get("game")) ? query.get("game") : "";
  const offset = (page - 1) * perPage;
  const ids = onlyYours ? `&ids=${heldGames().slice(0, cat.limits.max_listed).join(",")}` : "";
  const gameParam = oneGame ? `&game=${encodeURIComponent(oneGame)}` : "";
  const list = await api("GET", `/games?limit=${perPage}&offset=${offset}${ids}${gameParam}`);
  clear(main);
  document.title = `${t("Saved games")} — Crosscap`;
  // The browser's own file button is worded in the browser's language: it is hidden (still
  // focusable and the label's target) behind a button of the page's words.
  const importInput = el("input", { type: "file", accept: "application/json,.json", class: "file-input" });
  const importError = el("p", { class: "error", id: "import-error" });
  // A file that is not JSON is said to be no record, not in the parser's words.
  const readRecord = (file) => file.text().then(JSON.parse).catch(() => {
    throw new Error(t("This file is not a game record (JSON)."));
  });
  importInput.addEventListener("change", async () => {
    try {
      const game = await api("POST", "/games/import", await readRecord(importInput.files[0]));
      saveTokens(game.id, game.tokens);
      location.hash = `#/game/${game.id}`;
    } catch (err) {
      importError.textContent = err.message;
    }
  });
  const rows = list.games.map((g) => {
    const mine = tokens(g.id);
    const yours = mySeats(g.players, mine);
    const result = !g.finished ? t("in play")
      : !g.winner ? t("over")
      : yours.length === 1 ? (g.winner === yours[0] ? t("you won") : t("you lost"))
      : t("{winner} won", { winner: g.winner });
    return el("tr", { class: yours.length ? "yours" : "", "data-id": g.id },
      el("td", {}, el("a", { href: `#/game/${g.id}`, title: t("game {id}", { id: g.id }) }, gameTitle(cat, g.game))),
      el("td", { "data-label": t("board") }, boardName(g.board)),
      el("td", { class: "seats" }, ...SEATS.map((seat) => el("div", {}, `${seat}: ${seatLabel(g.players[seat], mine[seat])}`))),
      el("td", { "data-label": t("moves") }, String(g.moves)),
      el("td", { "data-label": t("result") }, result),
      el("td", { "data-label": t("last move") }, new Date(g.updated * 1000).toLocaleString(language)));
  });
  // The games' page as asked for, with some of its parameters changed.
  const linkTo = (changes) => {
    const params = new URLSearchParams({ ...(onlyYours ? { yours: "1" } : {}), ...(oneGame ? { game: oneGame } : {}), ...changes });
    for (const [key, value] of [...params]) if (!value) params.delete(key);
    return `#/games?${params}`;
  };
  const pageLink = (to, text) => el("a", { href: linkTo({ page: String(to) }), class: "page-link" }, text);
  const gameFilter = el("select", { id: "game-filter", "aria-label": t("Game") },
    el("option", { value: "" }, t("every game")),
    ...cat.games.map((g) => el("option", { value: g.name }, g.title)));
  gameFilter.value = oneGame;
  gameFilter.addEventListener("change", () => { location.hash = linkTo({ game: gameFilter.value, page: "" }); });
  const older = offset + list.games.length < list.total;
  const shown = list.games.length ? t("Games {first}–{last} of {total}, latest first.", { first: offset + 1, last: offset + list.games.length, total: list.total })
    : list.total ? t("No games this far back: {total} saved in all.", { total: list.total })
    : onlyYours ? t("No games of yours on this server.")
    : oneGame ? t("No saved games of {game} yet.", { game: gameTitle(cat, oneGame) }) : t("No saved games yet.");
  const newer = list.games.length ? pageLink(page - 1, t("← Newer")) : pageLink(1, t("← The latest"));
  const pages = el("p", { class: "note pages" }, shown,
    ...(page > 1 ? [" ", newer] : []),
    ...(older ? [" ", pageLink(page + 1, t("Older →"))] : []));
  main.append(
    el("h1", {}, t("Saved games")),
    el("p", {}, el("label", {}, t("Import a game record: "), importInput,
      el("span", { class: "file-button", "aria-hidden": "true" }, t("Choose a file…")))), importError,
    el("p", {}, t("Show "), gameFilter, onlyYours ? t(" that you play · ") : " · ", onlyYours
      ? el("a", { href: linkTo({ yours: "", page: "" }), id: "every-game" }, t("everyone's games"))
      : el("a", { href: linkTo({ yours: "1", page: "" }), id: "only-yours" }, t("only the games you play"))),
    el("div", { class: "table-scroll" }, el("table", { class: "games" },
      el("tr", { class: "column-names" }, ...["game", "board", "players", "moves", "result", "last move"].map((h) => el("th", {}, t(h)))),
      ...rows)),
    pages);
}

// ---- Rules ----

async function rulesPage(name) {
  const cat = await getCatalog();
  clear(main);
  document.title = `${t("Rules")} — Crosscap`;
  main.append(el("h1", {}, t("Rules")));
  const box = el("div", { class: "rules" });
  // Every game's rules on one page start with each game in a sentence.
  if (!name) {
    box.append(el("ul", { class: "rules-index", id: "rules-index" }, ...cat.games.map((g) => el("li", {},
      el("a", { href: `#/rules/${g.name}` }, g.title), ` — ${g.summary}`))));
  }
  for (const g of cat.games) {
    if (name && g.name !== name) continue;
    const picture = el("figure", { class: "board rule-picture" });
    drawAtStart(picture, g, g.default_board).catch(() => picture.remove());
    const section = el("section", { id: `rules-${g.name}` }, el("h2", {}, g.title), picture);
    section.insertAdjacentHTML("beforeend", g.rules);
    section.append(el("p", {}, el("a", { href: `#/?game=${g.name}` }, t("Play {game}", { game: g.title }))));
    box.append(section);
  }
  main.append(box);
}

// A board at its start, drawn by the game's own module without its 3D view, with a caption
// (the rules shown on the real board; the new game's board before it starts), unless
// `current` says by then that it is no longer wanted; under the game's `options` as a new
// game takes them. Throws the server's word on a board or options that will not do.
async function drawAtStart(figure, g, spec, current = () => true, options = {}) {
  // Posted, not in the address: a pasted board may be too long for one.
  const [start, module] = await Promise.all([
    api("POST", "/board", { game: g.name, board: spec, options }),
    renderer(g.name),
  ]);
  if (!current()) return;
  clear(figure);
  if (!module) return;
  module.render(figure, start, { canMove: false, hint: null, last: null, play: () => {}, still: true });
  const caption = options.moves ? "{game} on {board}, after the moves given." : "{game} on {board}, at the start.";
  figure.append(el("figcaption", { class: "note" }, t(caption, { game: g.title, board: boardName(spec) })));
}

// ---- Setting up a position ----

// Click cells to cycle them through empty, X and O; then analyse the position: a game
// from it between two people on this device, with hints from the solver at hand.
async function setupPage(game, board) {
  const cat = await getCatalog();
  const known = cat.games.find((g) => g.name === game);
  // A link that names no board sets up on the game's own.
  board ||= known?.default_board ?? "";
  document.title = `${t("Set up a position")} — Crosscap`;
  let start, module;
  try {
    [start, module] = await Promise.all([
      api("POST", "/board", { game, board }),
      renderer(game),
    ]);
    if (!module || !module.positionField) throw new Error(t("{game} has no position to set up on the page", { game }));
  } catch (err) {
    // A link to a board that will not do leads back to the form, with the board to mend.
    const back = known ? `#/?${new URLSearchParams({ game, board })}` : "#/";
    clear(main);
    main.append(el("h1", {}, t("Set up a position")),
      el("p", { class: "error", id: "setup-error" }, err.message),
      el("p", {}, el("a", { href: back, id: "setup-back" }, t("Change the board"))));
    return;
  }
  const title = known.title;
  const names = start.layout.names;
  const stones = names.map(() => null);
  const next = (stone) => (stone === null ? "X" : stone === "X" ? "O" : null);
  const box = el("div", { class: "board", id: "board" });
  const error = el("p", { class: "error", id: "setup-error" });
  const go = el("button", { class: "primary", id: "analyse-position", type: "button" }, t("Analyse this position"));
  const draw = () => {
    clear(box);
    const view = { ...start.view, [module.positionField]: stones };
    module.render(box, { ...start, view, legal_moves: names }, {
      canMove: true, hint: null, last: null,
      play: (name) => { const i = names.indexOf(name); stones[i] = next(stones[i]); draw(); },
    });
  };
  go.addEventListener("click", async () => {
    try {
      const position = stones.map((s) => s || ".").join("");
      const created = await createGame({ game, board, options: { position }, players: { X: "human", O: "human" } });
      location.hash = `#/game/${created.id}`;
    } catch (err) {
      error.textContent = err.message;
    }
  });
  clear(main);
  main.append(el("h1", {}, t("Set up {game} on {board}", { game: title, board: boardName(board) })),
    el("p", { class: "note" }, t("Click a cell to put an X stone on it, again for an O stone, once more to empty it.")),
    go, error, box);
  draw();
}
