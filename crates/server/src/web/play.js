// The game page: the board (drawn by games/<name>.js), whose turn and who you are, the
// scores with their changes, hints drawn on the board, the move list, replay, an end
// card, sound, a friend's invitation, and a paced view of computer-against-computer games.
import { el, clear, arrowKeys, plural } from "./draw.js";
import { api, renderer, tokens, saveTokens, invitation, claimLink, createGame, boardName, seatLabel, SEATS, mySeats } from "./api.js";
import * as sound from "./sound.js";
import { language, t, valueName } from "./i18n.js";

// How long each move of a computer-against-computer game stays on screen while it plays.
const PACE_MS = 800;
function seatText(state, seat, mine) {
  const who = state.players[seat];
  const waiting = who === "human" && !mine[seat] && state.unclaimed === seat ? t(" (not yet joined)") : "";
  return [el("span", { class: `swatch ${seat}` }), ` ${seat}: ${seatLabel(who, mine[seat])}${waiting}`];
}

/** What the computer's solver proved of the position it last moved from, said to the
 * person to move (its search's moves prove nothing and say nothing). */
const COMPUTER_PROVED = {
  win: " The computer has solved the game: it wins whatever you play.",
  draw: " The computer has solved the game: a draw with perfect play.",
  loss: " The computer has solved the game: it loses if you play perfectly from here.",
};

/** Why a perfect hint is not proven (the hint's `reason`), in plain words. */
const UNPROVEN_BECAUSE = {
  beyond: ", not proven: the position is past the limit of the game's exact analysis, a search's move",
  "out of reach": ", not proven: the position is too large for the exact solver, a search's move",
  time: ", not proven: the exact solver ran out of time, a search's move",
  nodes: ", not proven: the exact solver searched as many positions as it may, a search's move",
  // As the solve says it where nothing was searched: a hint counts no positions, so it
  // cannot tell a search that ran out of memory from an analysis that refused the
  // position before it began (Edge-Nim's tables), and these words are true of both.
  memory: ", not proven: the game's exact analysis of this position needs more memory than the server gives one search, a search's move",
  cancelled: ", not proven: the exact solver was stopped, a search's move",
};

/** Why a solve stopped (the API's `reason`), as the CLI says it. */
const STOPPED_BY = { nodes: "node limit", time: "time limit", memory: "memory limit", cancelled: "cancelled", beyond: "limit of the exact analysis" };

/** Why a solve that searched nothing (no positions counted) is unknown, in plain words:
 * the game's exact analysis refused the position before it began. */
const UNSEARCHED_BECAUSE = {
  beyond: "Unknown: the position is past the limit of the game's exact analysis, which no budget reaches.",
  memory: "Unknown: the game's exact analysis of this position needs more memory than the server gives one search.",
};

/** The status line and the tab's title: the result, or whose turn it is and who you are;
 * `outcome`: "won" or "lost" when the reader played one seat of a finished game, with
 * `result` the rest of the line, which the end card shows under its title. */
function describe(state, mine) {
  const seats = mySeats(state.players, mine);
  const mover = state.to_move;
  if (state.status === "over") {
    if (state.stopped) return { text: t("The game was stopped by its owner."), title: t("Stopped") };
    if (!state.winner) return { text: t("The game is over: a draw."), title: t("Draw") };
    const how = state.resigned ? t(" ({seat} resigned)", { seat: state.resigned }) : "";
    const result = t("{winner} wins{how}.", { winner: state.winner, how });
    if (seats.length === 1) {
      const outcome = state.winner === seats[0] ? "won" : "lost";
      const title = outcome === "won" ? t("You won") : t("You lost");
      return { text: t("{outcome}: {winner} wins{how}.", { outcome: title, winner: state.winner, how }), title, outcome, result };
    }
    return { text: result, title: t("{winner} wins", { winner: state.winner }) };
  }
  const you = seats.length === 1 ? t(" You play {seat}.", { seat: seats[0] }) : seats.length === 2 ? t(" You play both colours on this device.") : t(" You are watching.");
  const toMove = t("{mover} to move", { mover });
  // `after`: what follows the computer's thinking time, when the page shows it.
  if (state.thinking) return { text: t("{mover} to move: the computer is thinking…", { mover }), after: you, title: t("{mover} thinking", { mover }) };
  if (mine[mover] && state.players[mover] === "human") {
    // A swap changes no stone's place, only its colour: it is said, or the reader's stone
    // seems to have turned the other's by itself.
    const swapped = seats.length === 1 && state.moves[state.moves.length - 1] === "swap" && state.movers.slice(-1) !== mover
      ? t("{seat} swapped: your stones are now {seat}'s. ", { seat: state.movers.slice(-1) }) : "";
    const text = swapped + (seats.length === 1 ? t("Your turn: you play {mover}.", { mover }) : `${t("{mover} to move.", { mover })}${you}`);
    const proved = COMPUTER_PROVED[state.computer_proven];
    return { text: text + (proved ? t(proved) : ""), title: seats.length === 1 ? t("Your turn") : toMove };
  }
  if (state.players[mover] === "human" && seats.length) {
    const who = state.unclaimed === mover ? t("your friend to join") : t("the other player");
    return { text: `${t("{mover} to move: waiting for {who}.", { mover, who })}${you}`, title: toMove };
  }
  return { text: `${t("{mover} to move.", { mover })}${you}`, title: toMove };
}

/**
 * What a solve found, as a sentence and the best moves as buttons (`ring(move)` makes one):
 * who wins with perfect play and the value, as the CLI says them, then the winning moves
 * (unless every move wins), or in a lost position whether any move does better than the
 * rest.
 */
function solvedText(answer, legal, ring) {
  const mover = answer.to_move;
  const sign = (v) => (v > 0 ? `+${v}` : `${v}`);
  const value = answer.value_kind === "grundy" ? t("Grundy value {value}", { value: answer.value })
    : t("value {value} for {mover}", { value: sign(answer.value), mover });
  if (answer.status !== "solved") {
    const known = answer.winner ? t(" It proved that {winner} wins, not yet by how much.", { winner: answer.winner }) : "";
    // Past a fixed limit of the game's analysis (Edge-Nim's tables), or over the search's
    // memory before it began, no search ran: no count of positions means anything.
    const unsearched = answer.nodes === 0 && UNSEARCHED_BECAUSE[answer.reason];
    if (unsearched) return [t(unsearched) + known];
    const reason = t(STOPPED_BY[answer.reason] || answer.reason);
    return [t("Unknown: the solver stopped ({reason}) after {nodes} positions.", { reason, nodes: answer.nodes.toLocaleString(language) }) + known];
  }
  const verdict = answer.winner === "draw" ? t("a draw with perfect play")
    : answer.winner === mover ? t("{mover} to move wins with perfect play", { mover })
    : t("{mover} to move loses: {winner} wins with perfect play", { mover, winner: answer.winner });
  const said = [t("Solved: {verdict} ({value}).", { verdict, value })];
  if (!answer.optimal_moves) return [...said, t(" The solver ran out before it had found every best move.")];
  const listed = (what, moves) => [...said, t(" {what} ({count} of {legal}):", { what, count: moves.length, legal }), ...moves.flatMap((m) => [" ", ring(m)])];
  if (answer.winner === mover) {
    return answer.winning_moves.length === legal ? [...said, t(" Every move wins.")] : listed(t("Winning moves"), answer.winning_moves);
  }
  if (answer.optimal_moves.length === legal) {
    return [...said, answer.winner === "draw" ? t(" Every move keeps the draw.") : t(" Every move loses alike.")];
  }
  return listed(answer.winner === "draw" ? t("Moves that keep the draw") : t("Every move loses; the best"), answer.optimal_moves);
}

/** Scrolls a note just answered into view where it is not: on a phone the buttons that
 * ask for it lie below the board, and the note above it. */
function inView(note) {
  note.scrollIntoView({ block: "nearest" });
}

/**
 * Shows game `id` in `main`. `page.current()` is false once the reader has navigated
 * away (the page then stops following the game); `page.claim(id, code)` claims a seat.
 */
export async function gamePage(main, id, page) {
  const mine = tokens(id);
  let state = await api("GET", `/games/${id}`);
  // The board's drawing comes once, with the game; later answers leave it out.
  const layout = state.layout;
  const module = await renderer(state.game);
  // A move in words, where the game's drawing module says them (the notation alone may
  // name a curve by a letter or a move by its changes).
  const moveWords = (move, view) => (module && module.describeMove ? module.describeMove(move, view) : null);
  let viewing = null; // a position under replay, or null for the live one
  let hint = null;
  let solvedMoves = null; // the best moves the last solve listed, marked on the board
  let keyboardPlace = null; // the board piece the keyboard was on when a redraw left none to focus
  let lastScores = null; // the scores last drawn, and at which ply, to show their change
  let cardClosed = false;
  let heard = state.moves.length; // moves already sounded
  // Computer against computer: the moves are shown one by one, with pause and step.
  // `seen`: the furthest move shown, the moves after it kept from the list.
  const watch = state.players.X !== "human" && state.players.O !== "human" ? { ply: 0, seen: 0, playing: true } : null;
  clear(main);

  const title = el("h1");
  const players = el("p", { id: "players" });
  const status = el("p", { class: "status", id: "status", "aria-live": "polite" });
  const scores = el("div", { class: "scores", id: "scores" });
  const hintNote = el("p", { class: "hint-note", id: "hint-note" });
  const solveNote = el("div", { class: "solve-note", id: "solve-note", "aria-live": "polite" });
  const endCard = el("div", { class: "end-card", id: "end-card", hidden: "" });
  const boardBox = el("div", { class: "board", id: "board" });
  const legalBox = el("div", { class: "legal" });
  const error = el("p", { class: "error", id: "play-error" });
  const moves = el("ol", { class: "moves", id: "move-list" });
  const slider = el("input", { type: "range", min: 0, value: 0, id: "replay", "aria-label": t("Replay") });
  const replayLabel = el("span");
  const button = (idName, text, titleText) => el("button", { id: idName, type: "button", title: titleText && t(titleText) }, text && t(text));
  const hintButton = button("hint", "Hint", "The computer's suggestion, ringed on the board");
  const solveButton = button("solve", "Solve", "Who wins with perfect play, and every winning move (the exact solver, within the server's budget)");
  // Whose suggestion: the game's own hint level, the exact solver (within the server's
  // budget), or a computer level.
  const hintLevel = el("select", { id: "hint-level", "aria-label": t("Hint from") },
    el("option", { value: "" }, t("the game's hint level")),
    el("option", { value: "perfect" }, t("the solver")),
    ...["hard", "medium", "easy"].map((l) => el("option", { value: l }, t("the computer ({level})", { level: valueName(l) }))));
  const undoButton = button("undo", "Undo");
  const acceptButton = button("accept-undo", "Accept", "Take back the last move, as the other player asks");
  // Beside the live status line that says the request, not in it: screen readers would
  // read the button out again with every change of the line.
  const acceptLine = el("p", { class: "accept-undo" }, acceptButton);
  const resignButton = button("resign", "Resign");
  const stopButton = button("stop", "Stop", "End the game without a winner (its owner only)");
  const soundButton = button("sound", "", "Sounds for moves and the result");
  const musicButton = button("music", "", "Quiet music that follows the game");
  const analyseButton = button("analyse", "Analyse from here", "A copy of the position shown, in which you play both sides and ask the computer at will");
  const pace = el("div", { class: "pace", id: "pace" });
  // How long the computer has been thinking on this position, as this page has seen it
  // (a perfect player's solve may take twenty seconds); hidden from screen readers, which
  // would hear the live status line every second.
  const thinkClock = el("span", { class: "think-clock", id: "think-clock", "aria-hidden": "true" });
  let thinkingSince = null;
  const tickThinkClock = () => {
    const seconds = thinkingSince ? Math.floor((Date.now() - thinkingSince.at) / 1000) : 0;
    thinkClock.textContent = seconds >= 2 ? t(" {seconds} s.", { seconds }) : "";
  };
  const thinkTimer = setInterval(() => (page.current() ? tickThinkClock() : clearInterval(thinkTimer)), 1000);
  const exportLink = el("a", { href: `/api/games/${id}/record`, download: `crosscap-${id}.json` }, t("Export record"));
  const invite = el("div", { class: "invite" });
  arrowKeys(boardBox);

  main.append(el("div", { class: "play" },
    el("div", { class: "play-main", "data-fullscreen": "" }, title, players, status, scores, solveNote, hintNote, error, endCard, boardBox, legalBox),
    el("aside", { class: "side" },
      el("div", { class: "controls" }, hintButton, hintLevel, solveButton, undoButton, resignButton, stopButton, soundButton, musicButton, analyseButton),
      pace, invite,
      el("h3", {}, t("Moves")), moves,
      el("div", { class: "replay" }, el("label", { for: "replay" }, t("Replay: "), replayLabel), slider),
      el("p", {}, exportLink, " · ", el("a", { href: `#/rules/${state.game}` }, t("Rules"))))));

  const myTurn = () => state.status === "playing" && !state.thinking && viewing === null
    && state.players[state.to_move] === "human" && !!mine[state.to_move];
  const anyToken = () => mine.X || mine.O;

  async function act(work) {
    error.textContent = "";
    try {
      const next = await work();
      // A move's answer and the live wait race: when the wait has brought (and drawn) this
      // very position already, there is nothing new to draw. The computer's thinking ends
      // without a new version, so an answer that says it has ended is drawn (else the page
      // went on saying "the computer is thinking" and offered no move).
      const known = next && next.id && next.version === state.version && next.thinking === state.thinking;
      if (known && viewing === null) return;
      performance.mark("crosscap:answer");
      if (next && next.id) { state = next; viewing = null; }
      await draw();
    } catch (err) {
      error.textContent = err.message;
      // A refused move takes its stone back off the board.
      await draw();
    }
  }

  // The hint, and the solve, of the position they were asked in.
  const forgetAdvice = () => { hint = null; solvedMoves = null; hintNote.textContent = ""; clear(solveNote); };

  const play = (move) => act(async () => {
    forgetAdvice();
    showPending(move);
    return api("POST", `/games/${id}/moves`, { move, token: mine[state.to_move], ply: state.moves.length });
  });

  // The stone goes down as it is clicked, before the server answers (which then redraws
  // the board as it is); the marks time it for BENCHMARKS.md.
  function showPending(move) {
    performance.mark("crosscap:clicked");
    for (const node of boardBox.querySelectorAll(`[data-move="${CSS.escape(move)}"].empty`)) {
      node.classList.replace("empty", state.to_move);
      node.classList.add("pending");
    }
    requestAnimationFrame(() => performance.mark("crosscap:pending-drawn"));
  }

  // The position after `ply` moves (the live one at the end); `wanted()` says, once the
  // position has come, whether it is still to be shown (a paced step that Pause or Step
  // overtook while it was on its way is not: it would move on past the position paused at).
  const showPly = (ply, wanted = () => true) => act(async () => {
    const position = ply >= state.moves.length ? null : await api("GET", `/games/${id}?ply=${ply}`);
    if (!wanted()) return null;
    viewing = position;
    if (watch) watch.ply = Math.min(ply, state.moves.length);
    return null;
  });

  hintButton.addEventListener("click", () => act(async () => {
    const level = hintLevel.value ? `?level=${hintLevel.value}` : "";
    const answer = await api("GET", `/games/${id}/hint${level}`);
    hint = answer.move;
    // Say whether the solver proved the move: without an answer of the exact solver the
    // solver level answers a search's move, which a player should not take for a proof,
    // and the note says why (the hint's `reason`). A proven move of a lost position is
    // still the best, but the player should hear that the position is lost.
    const results = {
      win: ": it wins",
      draw: ": it draws",
      loss: ", but the position is lost against perfect play",
    };
    const proof = answer.proven ? t(", proven optimal") + (results[answer.result] ? t(results[answer.result]) : "")
      : answer.level === "perfect" ? t(UNPROVEN_BECAUSE[answer.reason] || ", not proven: the exact solver gave no answer, a search's move") : "";
    const words = moveWords(answer.move, state.view);
    hintNote.textContent = t("Hint ({level}{proof}): {move}, ringed on the board.",
      { level: valueName(answer.level), proof, move: `${answer.move}${words ? ` (${words})` : ""}` });
    inView(hintNote);
  }));
  solveButton.addEventListener("click", () => act(async () => {
    const asked = state.version;
    solveNote.replaceChildren(t("Solving…"));
    const answer = await api("GET", `/games/${id}/solve`).finally(() => clear(solveNote));
    if (state.version !== asked) return null;
    const ring = (move) => {
      const b = el("button", { type: "button", class: "solve-move", "data-move": move, title: t("Ring it on the board"),
        "aria-pressed": String(hint === move) }, move);
      b.addEventListener("click", () => act(async () => {
        hint = move;
        hintNote.textContent = t("From the solve: {move}, ringed on the board.", { move });
        for (const other of solveNote.querySelectorAll(".solve-move")) other.setAttribute("aria-pressed", String(other === b));
        return null;
      }));
      return b;
    };
    const more = module && module.describeSolve ? module.describeSolve(answer) : null;
    solveNote.replaceChildren(...solvedText(answer, state.legal_moves.length, ring), ...(more ? [" ", more] : []));
    inView(solveNote);
    const listed = [...solveNote.querySelectorAll(".solve-move")].map((b) => b.dataset.move);
    solvedMoves = listed.length ? new Set(listed) : null;
    return null;
  }));
  // Between two people the server takes a move back once both seats have asked: a device
  // that holds both asks with each, the seat that has not asked yet first.
  const takeBack = (seats) => act(async () => {
    let answer = null;
    for (const seat of seats) {
      answer = await api("POST", `/games/${id}/undo`, { token: mine[seat] });
      if (!answer.undo_request) break;
    }
    return answer;
  });
  undoButton.addEventListener("click", () =>
    takeBack(SEATS.filter((p) => mine[p]).sort((a, b) => (a === state.undo_request) - (b === state.undo_request))));
  // The other seat's request, granted by this one.
  acceptButton.addEventListener("click", () => takeBack(SEATS.filter((p) => p !== state.undo_request)));
  resignButton.addEventListener("click", () => {
    if (!confirm(t("Resign this game?"))) return;
    const seat = mine[state.to_move] ? state.to_move : (mine.X ? "X" : "O");
    act(() => api("POST", `/games/${id}/resign`, { token: mine[seat] }));
  });
  stopButton.addEventListener("click", () => {
    if (!confirm(t("Stop this game for good?"))) return;
    act(() => api("POST", `/games/${id}/stop`, { token: mine.owner }));
  });
  soundButton.addEventListener("click", () => { sound.setSound(!sound.soundOn()); drawAudio(); });
  musicButton.addEventListener("click", () => { sound.setMusic(!sound.musicOn()); drawAudio(); });
  // The music follows the position shown, a replayed one included.
  sound.followGame(() => {
    const shown = viewing || state;
    return { toMove: shown.to_move, ply: shown.ply, over: !viewing && state.status !== "playing" };
  }, page.current);
  // Analysis: the moves up to the position shown, imported as a new game between two
  // people on this device, where hints and undo are always at hand.
  analyseButton.addEventListener("click", () => act(async () => {
    const shown = viewing || state;
    const record = {
      game: state.game, board: state.board, options: state.options,
      players: { X: "human", O: "human" }, moves: state.moves.slice(0, shown.ply),
    };
    const game = await api("POST", "/games/import", record);
    saveTokens(game.id, game.tokens);
    location.hash = `#/game/${game.id}`;
  }));
  slider.addEventListener("input", () => {
    if (watch) watch.playing = false;
    showPly(Number(slider.value));
  });

  function drawAudio() {
    const on = sound.soundOn();
    soundButton.textContent = on ? t("Sound: on") : t("Sound: off");
    soundButton.setAttribute("aria-pressed", String(on));
    const music = sound.musicOn();
    musicButton.textContent = music ? t("Music: on") : t("Music: off");
    musicButton.setAttribute("aria-pressed", String(music));
  }

  // Pause, step and skip for a game the computer plays against itself: made once, and
  // only their words and states written as the game goes on (made anew with each move
  // shown, a button took no click whose press and release straddled a move, and lost the
  // keyboard's focus).
  const pause = button("pause");
  const step = button("step", "Step");
  const end = button("to-end", "End");
  pause.addEventListener("click", () => { watch.playing = !watch.playing; drawPace(); });
  step.addEventListener("click", () => { watch.playing = false; showPly(watch.ply + 1); });
  end.addEventListener("click", () => { watch.playing = false; showPly(state.moves.length); });
  if (watch) pace.append(el("p", { class: "note" }, t("Computer against computer, one move at a time:")), pause, " ", step, " ", end);
  function drawPace() {
    if (!watch) return;
    pause.textContent = watch.playing ? t("Pause") : t("Play");
    step.disabled = end.disabled = watch.ply >= state.moves.length && state.status === "over";
  }
  if (watch) {
    const timer = setInterval(() => {
      if (!page.current()) { clearInterval(timer); return; }
      if (!watch.playing || watch.ply >= state.moves.length) return;
      const ply = watch.ply + 1;
      showPly(ply, () => watch.playing && watch.ply === ply - 1);
    }, PACE_MS);
  }

  // The creator sees the friend's one-time link until it is used; anyone else, while the
  // seat is free, may type the code they were given.
  function drawInvite() {
    clear(invite);
    const seat = state.unclaimed;
    if (!seat) return;
    const sent = invitation(id);
    if (sent && sent.seat === seat) {
      invite.append(el("p", { class: "note" }, t("Your friend plays {seat}: send them this link (it works once), or the code ", { seat }),
        el("strong", { id: "claim-code" }, sent.code), t(".")),
      el("input", { readonly: "", value: claimLink(id, sent.code), id: "claim-link", "aria-label": t("Invitation link") }));
      return;
    }
    if (anyToken()) return;
    const code = el("input", { id: "claim-input", placeholder: t("code"), autocomplete: "off", size: 12, "aria-label": t("Claim code") });
    const join = el("button", { type: "submit" }, t("Play {seat}", { seat }));
    const form = el("form", { class: "claim" }, el("p", { class: "note" }, t("Invited to play {seat}? Type your code.", { seat })), code, " ", join);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      act(() => page.claim(id, code.value.trim()));
    });
    invite.append(form);
  }

  // Each seat's score, with its change since the position drawn before (+1, −1) floating
  // up beside it; the swap offer sits beside the scores.
  function drawScores(shown, ctx) {
    clear(scores);
    const now = module && module.scores ? module.scores(shown.view) : null;
    if (now) {
      // The change since the last position drawn before this one; a redraw of the same
      // position keeps it.
      const last = lastScores;
      const deltas = !last || shown.ply < last.ply ? {} : shown.ply === last.ply ? last.deltas
        : { X: now.X.value - last.values.X, O: now.O.value - last.values.O };
      for (const p of SEATS) {
        const s = now[p];
        const item = el("span", { class: `score ${p}`, "data-score": s.value },
          el("span", { class: `swatch ${p}` }), ` ${p}${mine[p] && state.players[p] === "human" ? t(" (you)") : ""}: ${s.text} `,
          s.detail ? el("small", {}, `(${s.detail})`) : "");
        const delta = deltas[p];
        if (delta) item.append(el("span", { class: `delta ${delta > 0 ? "up" : "down"}` }, delta > 0 ? `+${delta}` : `−${-delta}`));
        scores.append(item);
      }
      lastScores = { ply: shown.ply, values: { X: now.X.value, O: now.O.value }, deltas };
    }
    if (ctx.canMove && shown.legal_moves.includes("swap")) {
      const swap = el("button", { "data-move": "swap", id: "swap", class: "primary" }, t((module && module.swapLabel) || "Swap"));
      swap.addEventListener("click", () => ctx.play("swap"));
      const other = SEATS.find((p) => p !== shown.to_move);
      scores.append(swap, el("small", { class: "swap-note", id: "swap-note" },
        t("Instead of a cell, you may swap: {other}'s stones become yours, yours become {other}'s, and {other} moves next.", { other })));
    }
    scores.hidden = !scores.firstChild;
  }

  // The result, the score, and what next: play again (the same colours or swapped), share
  // the result, copy the record, or look back.
  function drawEndCard(said) {
    const over = state.status === "over" && viewing === null && !cardClosed;
    endCard.hidden = !over;
    clear(endCard);
    if (!over) return;
    const again = button("play-again", "Play again");
    const swapped = button("play-swapped", "Play again, colours swapped");
    const share = button("share-result", "Share the result");
    const copy = button("copy-record", "Copy the record");
    const close = button("close-card", "Look at the board");
    const copied = el("span", { class: "note", id: "copied" });
    // To the clipboard, or, where the page may not write there (not served over https or
    // from localhost), selected in a box to copy by hand: one box, holding what was asked
    // for last.
    const copyBox = el("textarea", { readonly: "", rows: 4, id: "copy-box", "aria-label": t("Text to copy") });
    const toClipboard = async (text, what) => {
      try {
        await navigator.clipboard.writeText(text);
        copied.textContent = t("Copied.");
      } catch {
        copyBox.value = text;
        if (!copyBox.isConnected) endCard.append(copyBox);
        copyBox.select();
        copied.textContent = t("Select and copy {what} below.", { what });
      }
    };
    // A game against a friend elsewhere invites them again (to the other colour when the
    // colours are swapped, the reader taking theirs).
    const seats = mySeats(state.players, mine);
    const other = seats[0] === "X" ? "O" : "X";
    const withFriend = seats.length === 1 && state.players[other] === "human";
    const rematch = (swap) => act(async () => {
      const players = swap ? { X: state.players.O, O: state.players.X } : state.players;
      const friend = withFriend ? (swap ? seats[0] : other) : undefined;
      const game = await createGame({ game: state.game, board: state.board, options: state.options, players, friend });
      location.hash = `#/game/${game.id}`;
    });
    again.addEventListener("click", () => rematch(false));
    swapped.addEventListener("click", () => rematch(true));
    // Swapping changes nothing where both seats are the same kind of player on this device.
    swapped.hidden = state.players.X === state.players.O && !withFriend;
    copy.addEventListener("click", async () => {
      toClipboard(await (await fetch(`/api/games/${id}/record`)).text(), t("the record"));
    });
    close.addEventListener("click", () => { cardClosed = true; drawEndCard(said); });
    const result = module && module.scores ? module.scores(state.view) : null;
    const scoreLine = result ? `X ${result.X.text} · O ${result.O.text}` : "";
    // How the game was won, where a move won it (a resignation says so in the title), or
    // why a game that can end drawn was drawn.
    const how = !module || state.resigned || state.stopped ? ""
      : state.winner ? (module.endNote ? module.endNote(state.view, { winner: state.winner, loser: state.winner === "X" ? "O" : "X" }) : "")
        : module.drawNote ? module.drawNote(state.view, { toMove: state.movers.slice(-1) === "X" ? "O" : "X" }) : "";
    // Said the same to whoever reads it (not "you won"), with the game's link, which shows
    // the game to anyone and lets nobody play in it.
    share.addEventListener("click", () => {
      const outcome = !state.winner ? t("the game is over")
        : state.resigned ? t("{winner} won ({seat} resigned)", { winner: state.winner, seat: state.resigned }) : t("{winner} won", { winner: state.winner });
      const text = t("{game} on {board}: {outcome}{score}, in {moves}.", {
        game: t(state.title), board: boardName(state.board), outcome,
        score: scoreLine ? `, ${scoreLine}` : "", moves: plural(state.moves.length, "move"),
      });
      const url = `${location.origin}${location.pathname}#/game/${id}`;
      if (navigator.share) {
        navigator.share({ title: `${t(state.title)} — Crosscap`, text, url }).catch(() => {});
      } else {
        toClipboard(`${text} ${url}`, t("the result"));
      }
    });
    // Under the title, what it does not say already: "X wins." under "You won", not the
    // status line's "You won: X wins."; and the score once: how the game was won gives it
    // where a game has one (each area's χ, every vertex held), else the score line (which
    // a draw's reason does not give).
    const under = said.result ?? said.text;
    endCard.append(el("h2", {}, said.title), under === `${said.title}${t(".")}` ? "" : el("p", {}, under),
      scoreLine && !(how && state.winner) ? el("p", { class: "end-score" }, scoreLine) : "",
      how ? el("p", { class: "end-how" }, how) : "",
      el("p", { class: "note" }, t("{count} moves.", { count: state.moves.length })),
      el("div", { class: "controls" }, again, swapped, share, copy, close), copied);
  }

  // Sounds for moves new since the last drawing, and for the result.
  function listen(said) {
    if (viewing !== null || state.moves.length <= heard) { heard = Math.min(heard, state.moves.length); return; }
    sound.play(state.movers[state.moves.length - 1] || "X");
    heard = state.moves.length;
    if (state.status === "over" && said.outcome) sound.play(said.outcome);
  }

  // The move list changes at its end only: the moves still listed stay, a move taken back
  // goes, a new one is appended (the whole list was built again on every move).
  let listed = []; // `${mover} ${move}` of each item
  let currentItem = null;
  function drawMoves(shown, known) {
    const wanted = state.moves.slice(0, known).map((m, i) => `${state.movers[i] || ""} ${m}`);
    let same = 0;
    while (same < listed.length && same < wanted.length && listed[same] === wanted[same]) same++;
    while (moves.children.length > same) moves.lastChild.remove();
    for (let i = same; i < wanted.length; i++) {
      const [mover, m] = [state.movers[i] || "", state.moves[i]];
      const words = moveWords(m, state.view);
      const item = el("button", { type: "button", class: `mv ${mover}`, title: t("{mover} played {move}: show the position after it", { mover, move: `${m}${words ? ` (${words})` : ""}` }) },
        `${i + 1}. ${m}`);
      item.addEventListener("click", () => {
        if (watch) watch.playing = false;
        showPly(i + 1);
      });
      moves.append(el("li", {}, item));
    }
    listed = wanted;
    const current = moves.children[shown.ply - 1]?.firstChild ?? null;
    if (current === currentItem && (!current || current.isConnected)) return;
    if (currentItem) currentItem.classList.remove("current");
    currentItem = current;
    if (!current) return;
    current.classList.add("current");
    // The list scrolls to the move shown (the page itself stays where the reader is) at the
    // next frame: measured there, the layout it needs is the frame's own, laid out once,
    // not one forced halfway through this drawing and undone by the board's changes.
    requestAnimationFrame(() => {
      if (currentItem === current) moves.scrollTop = Math.max(0, current.parentElement.offsetTop - moves.clientHeight / 2);
    });
  }

  async function draw() {
    const shown = viewing || state;
    if (watch && viewing === null) watch.ply = state.moves.length;
    // A computer game watched move by move shows the moves up to the furthest one shown:
    // the rest, or their number, would give the result away.
    if (watch) watch.seen = Math.max(watch.seen, watch.ply);
    const known = watch ? watch.seen : state.moves.length;
    const said = describe(state, mine);
    title.textContent = t("{game} on {board}", { game: t(state.title), board: boardName(state.board) });
    const tabTitle = `${viewing ? t("Replay") : said.title} · ${t(state.title)} — Crosscap`;
    // Written only when it changes: a write took 3.6 ms at the median (at load 9).
    if (document.title !== tabTitle) document.title = tabTitle;
    clear(players);
    players.append(...seatText(state, "X", mine), "  ·  ", ...seatText(state, "O", mine));
    status.textContent = !viewing ? said.text
      : known < state.moves.length ? t("Computer against computer: the position after {moves}.", { moves: plural(viewing.ply, "move") })
      : t("{what}: the position after {ply} of {count} moves.", { what: watch ? t("Computer against computer") : t("Replay"), ply: viewing.ply, count: state.moves.length });
    if (!viewing && state.status === "playing" && state.to_move) status.prepend(el("span", { class: `swatch ${state.to_move}` }), " ");
    status.dataset.status = viewing ? "replay" : state.status;
    // The reader's turn in their seat's colour (the style flashes it once as it comes).
    if (myTurn()) status.dataset.turn = state.to_move;
    else delete status.dataset.turn;
    status.dataset.winner = state.winner || "";
    const thinking = !viewing && state.thinking;
    if (!thinking) thinkingSince = null;
    else if (!thinkingSince || thinkingSince.ply !== state.moves.length) thinkingSince = { ply: state.moves.length, at: Date.now() };
    if (thinking) status.append(thinkClock, said.after ?? "");
    tickThinkClock();
    const asked = state.undo_request && !viewing;
    if (asked) status.append(t(" {seat} asks to take back the last move.", { seat: state.undo_request }));
    if (asked && !mine[state.undo_request] && anyToken()) status.after(acceptLine);
    else acceptLine.remove();
    if (!myTurn()) forgetAdvice();
    hintButton.disabled = hintLevel.disabled = solveButton.disabled = !myTurn();
    undoButton.disabled = !anyToken() || viewing !== null || state.status === "over" || state.moves.length === 0 || state.thinking;
    resignButton.disabled = !anyToken() || state.status !== "playing";
    stopButton.hidden = !mine.owner || state.status !== "playing";
    drawAudio();
    drawPace();
    slider.max = known;
    slider.value = shown.ply;
    replayLabel.textContent = `${shown.ply} / ${known}`;
    drawMoves(shown, known);
    drawInvite();
    const ctx = { canMove: myTurn(), play, hint, solved: solvedMoves, last: shown.moves[shown.ply - 1] || null };
    drawScores(shown, ctx);
    drawEndCard(said);
    listen(said);
    // Keep the keyboard's place on the board across the redraw; one lost while no piece
    // could take the focus (the computer thinking) comes back with the next drawing,
    // unless the focus has gone elsewhere meanwhile. A box or button of a board's own
    // panel (Edge-Nim's Take, whose counts the game module keeps) is found again by its
    // id or name: a live update while the player types leaves the focus in the box.
    const focused = boardBox.contains(document.activeElement) ? document.activeElement : null;
    const adrift = !focused && keyboardPlace !== null && [null, document.body].includes(document.activeElement);
    const place = focused ? ["data-cell", "data-vertex", "data-move", "id", "name"].map((a) => [a, focused.getAttribute(a)]).find(([, v]) => v !== null)
      : adrift ? keyboardPlace : null;
    // A drawing the board keeps across moves (data-kept) stays where it is: taken out and
    // put back, all of its cells would be styled and laid out again.
    for (const node of [...boardBox.childNodes]) {
      if (!(node.dataset && "kept" in node.dataset)) node.remove();
    }
    if (module) {
      module.render(boardBox, { ...shown, layout }, ctx);
    } else {
      boardBox.append(el("pre", {}, JSON.stringify(shown.view, null, 1)));
    }
    keyboardPlace = null;
    if (focused || adrift) {
      const pieces = place && ["id", "name"].includes(place[0]) ? "" : "[tabindex]";
      const again = (place && boardBox.querySelector(`[${place[0]}="${CSS.escape(place[1])}"]${pieces}`)) || boardBox.querySelector("[tabindex]");
      if (again) again.focus();
      else keyboardPlace = place || [];
    }
    requestAnimationFrame(() => performance.mark("crosscap:drawn"));
    clear(legalBox);
    if (ctx.canMove && shown.legal_moves.length) {
      legalBox.append(el("details", {}, el("summary", {}, t("All {count} legal moves", { count: shown.legal_moves.length })),
        el("div", { class: "buttons" }, ...shown.legal_moves.map((m) => {
          const b = el("button", { class: "move-button", type: "button" }, m);
          b.addEventListener("click", () => play(m));
          return b;
        }))));
    }
    // The drawing's own script is done (the frame that shows it comes after).
    performance.mark("crosscap:drawn-script");
  }

  if (watch) {
    await showPly(0);
  } else {
    await draw();
  }
  // Follow the game live: each request waits until the game changes. Leaving the page
  // ends the wait at once: a browser keeps only a few connections per server, and waits
  // left behind by pages opened in turn would hold them all.
  const leaving = new AbortController();
  const leave = () => leaving.abort();
  window.addEventListener("hashchange", leave, { once: true });
  window.addEventListener("pagehide", leave, { once: true });
  while (page.current() && !leaving.signal.aborted) {
    try {
      const asked = state.version;
      const next = await api("GET", `/games/${id}?wait=${asked}`, undefined, leaving.signal);
      if (!page.current()) break;
      // A move's answer may have brought a later position meanwhile: this one is older,
      // so wait again from that one instead of drawing the game backwards.
      if (state.version !== asked) continue;
      if (next.version !== state.version) {
        // A computer game watched move by move keeps its place while the game runs on.
        if (watch && viewing === null && next.moves.length > watch.ply) viewing = state;
        performance.mark("crosscap:answer");
        state = next;
        await draw();
      }
    } catch {
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}
