// What the pages share: the JSON API, the catalog, each game's drawing module, the seat
// secrets this browser holds, and how a board is named.
import { plural } from "./draw.js";
import { t, translateMessage, valueName } from "./i18n.js";

export async function api(method, path, body, signal) {
  const response = await fetch("/api" + path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  const value = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) {
    // The status goes with the message: a page tells a game that is not there (404) from
    // one that refused a request.
    const error = new Error(translateMessage(value.error || response.statusText));
    error.status = response.status;
    throw error;
  }
  return value;
}

let catalog = null;
/** The catalog, its words in the reader's language (option choices stay the values the
 * API takes: the form shows them translated). */
export async function getCatalog() {
  if (!catalog) {
    const found = await api("GET", "/catalog");
    catalog = {
      ...found,
      games: found.games.map((g) => ({
        ...g,
        title: t(g.title), summary: t(g.summary), board_label: t(g.board_label), rules: t(g.rules),
        options: g.options.map((o) => ({ ...o, label: t(o.label), help: t(o.help) })),
      })),
    };
  }
  return catalog;
}

const renderers = {};
/** The game's drawing module (games/<name>.js), or null for a game without one. */
export async function renderer(game) {
  if (!(game in renderers)) {
    try {
      renderers[game] = await import(`./games/${game}.js`);
    } catch {
      renderers[game] = null;
    }
  }
  return renderers[game];
}

export const SEATS = ["X", "O"];

/** The seats this browser plays in a game (a token for a human seat), given its players. */
export function mySeats(players, mine) {
  return SEATS.filter((p) => players[p] === "human" && mine[p]);
}

/** Who sits in a seat (`human` or `ai:LEVEL`), as the pages say it: `you` for a seat
 * this browser holds. */
export function seatLabel(who, mine) {
  if (who !== "human") return t("the computer ({level})", { level: valueName(who.replace(/^ai:/, "")) });
  return mine ? t("you") : t("a person");
}

const tokenKey = (id) => `crosscap-tokens-${id}`;
/** The secrets this browser holds for a game: a token per seat it plays, the owner's. */
export function tokens(id) {
  try { return JSON.parse(localStorage.getItem(tokenKey(id))) || {}; } catch { return {}; }
}
/** The ids of the games this browser holds secrets of, the seat taken latest first. */
export function heldGames() {
  const prefix = tokenKey("");
  const held = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key.startsWith(prefix)) continue;
    const id = key.slice(prefix.length);
    held.push({ id, at: Number(tokens(id).at) || 0 });
  }
  return held.sort((a, b) => b.at - a.at).map((g) => g.id);
}
/** Keeps a game's secrets with the time they came (`at`, which orders `heldGames`). */
export function saveTokens(id, more) {
  const all = { ...tokens(id), at: Date.now() };
  for (const [seat, token] of Object.entries(more || {})) if (token && seat !== "claim" && seat !== "at") all[seat] = token;
  localStorage.setItem(tokenKey(id), JSON.stringify(all));
}

// The invitation of a friend's seat: kept by the creator until the friend claims it. It
// is a one-time code, never the seat's token.
const inviteKey = (id) => `crosscap-invite-${id}`;
export function invitation(id) {
  try { return JSON.parse(localStorage.getItem(inviteKey(id))); } catch { return null; }
}
export function saveInvitation(id, claim) {
  if (claim) localStorage.setItem(inviteKey(id), JSON.stringify(claim));
}
export const claimLink = (id, code) => `${location.origin}/#/claim/${id}/${code}`;

/** A new game from the form's or a finished game's settings; answers the game. */
export async function createGame(request) {
  const game = await api("POST", "/games", request);
  saveTokens(game.id, game.tokens);
  saveInvitation(game.id, game.tokens.claim);
  return game;
}

/** A board's name for headings and lists: a pasted board file by its name or size. */
export function boardName(board) {
  const text = board.trim();
  if (!text.startsWith("{") && !text.includes("\n") && text.length <= 40) return text;
  try {
    const parsed = JSON.parse(text);
    if (typeof parsed.name === "string" && parsed.name) return parsed.name.slice(0, 40);
    if (Array.isArray(parsed.faces)) return t("a pasted board ({faces})", { faces: plural(parsed.faces.length, "face") });
  } catch {
    // Not JSON: a long spec, named by its start.
  }
  return text.startsWith("{") ? t("a pasted board") : `${text.slice(0, 30)}…`;
}
