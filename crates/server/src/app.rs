//! The server's state: the games in memory (each a [`Match`] behind one lock, kept within
//! a memory cap and reloaded from the database on demand), the database, and the computer
//! players and hints, which search on blocking threads within a limit of games computing
//! at once, each under a budget whose cancel flag is raised when nobody waits any more.
//!
//! Every method that takes a lock, touches the database or replays a game is synchronous
//! and runs on a blocking thread ([`App::run`]); the async methods only wait.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::http::StatusCode;
use crosscap_engine::agents::{FALLBACK_RESERVE, PERFECT_RETRY_TIME};
use crosscap_engine::catalog::{Catalog, Setup, Solved};
use crosscap_engine::session::{Computer, Hint, Match, SetupLimits};
use crosscap_engine::{Budget, Cancel, Level, MoveError, Player, Proven, Rng};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Value, json};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};

use crate::api::ApiError;
pub use crate::limits::Limits;
use crate::record::{Players, Record, RecordFile, Seat};
use crate::resident::Resident;
use crate::starts::{Start, Starts};
use crate::store::{Filter, GameState, Saved, Store};

/// The share of the answer wait a hint or a solve may search, so that it answers before the
/// request would time out: a solve `unknown` with what it searched, a perfect player its
/// fallback's move (it keeps the fallback's time, `FALLBACK_RESERVE`), a long search level
/// its best move so far.
const SEARCH_SHARE_OF_WAIT: f64 = 0.75;

/// What followers are told on every change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Beat {
    pub version: u64,
    pub thinking: bool,
}

/// A computer move to search: the position, who plays it, and for how long.
struct Job {
    /// The game's [`Live::setup`], which its kept computer goes by.
    setup: String,
    game: Box<dyn Match>,
    level: Level,
    seed: u64,
    /// The game's version the move is for: a move found after a change is dropped.
    version: u64,
    think: Duration,
}

/// The `perfect` computers of the last setups (a game, board and options: one set of rules
/// and positions) they moved or gave a hint in, each with what its solver learnt (its
/// table, within `max_search_bytes` as while it searched): the next `perfect` move or hint
/// of any game of that setup starts from it, and a position an earlier solve went through
/// is answered at once (the first move of a game like one before it, a position after the
/// replies the last solve refuted). At most `computing_at_once`, the least recently used
/// dropped first.
struct WarmComputers {
    capacity: usize,
    kept: VecDeque<(String, Box<dyn Computer>)>,
}

impl WarmComputers {
    fn take(&mut self, setup: &str) -> Option<Box<dyn Computer>> {
        let at = self.kept.iter().position(|(kept, _)| kept == setup)?;
        self.kept.remove(at).map(|(_, computer)| computer)
    }

    /// Keeps `setup`'s computer; returns the one it replaces (the setup's other one, when
    /// two searches of it ran at once, else the least recently kept), to be dropped (a table
    /// of up to `max_search_bytes`) outside the lock.
    fn keep(&mut self, setup: String, computer: Box<dyn Computer>) -> Option<Box<dyn Computer>> {
        if self.capacity == 0 {
            return Some(computer);
        }
        let evicted = match self.take(&setup) {
            Some(other) => Some(other),
            None if self.kept.len() >= self.capacity => self.kept.pop_front().map(|(_, old)| old),
            None => None,
        };
        self.kept.push_back((setup, computer));
        evicted
    }
}

/// One game held in memory.
pub struct Slot {
    /// Who plays each colour (never changes).
    players: Players,
    live: Mutex<Live>,
    beat: watch::Sender<Beat>,
}

impl Slot {
    fn lock(&self) -> MutexGuard<'_, Live> {
        self.live
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The game to change, unless it was deleted while the request found it: a change
    /// then would be written to a record that is gone.
    fn lock_kept(&self) -> Result<MutexGuard<'_, Live>, ApiError> {
        let live = self.lock();
        if live.deleted {
            return Err(ApiError::not_found(format!("no game {:?}", live.saved.id)));
        }
        Ok(live)
    }

    /// A receiver of the game's changes.
    pub fn follow(&self) -> watch::Receiver<Beat> {
        self.beat.subscribe()
    }

    fn announce(&self, live: &Live) {
        self.beat.send_replace(Beat {
            version: live.version,
            thinking: live.thinking,
        });
    }

    /// Whether a request by a person may need a computer reply: one seat each.
    fn against_the_computer(&self) -> bool {
        self.players.any_computer()
            && matches!(self.players.x, Seat::Human) != matches!(self.players.o, Seat::Human)
    }
}

struct Live {
    saved: Saved,
    start: Arc<Start>,
    current: Box<dyn Match>,
    thinking: bool,
    undo_request: Option<Player>,
    /// Who made each move of the record (not always alternating: a swap, an opening).
    movers: Vec<Player>,
    version: u64,
    /// The cancel flag of the computer player driving this game, while one does.
    driver: Option<Cancel>,
    /// Deleted by its owner: followers still holding the slot get a 404.
    deleted: bool,
    /// The view of `current` and the version it shows: computed once per position however
    /// many answers and followers ask (a finished Euler Getter game's loop cycles take up
    /// to about 50 ms on taylor:40). Every change of `current` bumps `version`. Kept as
    /// its JSON text: as a `Value` a large board's view took ten times the memory.
    view: Option<(u64, Box<RawValue>)>,
    /// What the computer's last move was proven worth to it (its solver finished), since
    /// the game was loaded; cleared by a take-back.
    computer_proven: Option<Proven>,
    /// The `perfect` computer's last move was its fallback's: the next one tries the
    /// solver for [`PERFECT_RETRY_TIME`] only.
    solver_missed: bool,
}

impl Live {
    /// The game, board and options: games alike in them have the same rules and
    /// positions, so a solver's table serves them all.
    fn setup(&self) -> String {
        let record = &self.saved.record;
        format!("{}\n{}\n{}", record.game, record.options, record.board)
    }

    fn winner(&self) -> Option<Player> {
        match self.saved.record.resigned {
            Some(p) => Some(p.opponent()),
            None => self.current.outcome().and_then(|o| o.winner),
        }
    }

    fn finished(&self) -> bool {
        self.saved.record.stopped
            || self.saved.record.resigned.is_some()
            || self.current.outcome().is_some()
    }

    /// The level of the computer to move, if the computer is to move.
    fn computer_to_move(&self) -> Option<Level> {
        if self.finished() {
            return None;
        }
        match self.saved.record.players.seat(self.current.to_move()?) {
            Seat::Computer(level) => Some(level),
            Seat::Human => None,
        }
    }

    /// The view of the position now, from the cache while the version is unchanged, and
    /// whether it was worked out afresh (which changes the game's size).
    fn current_view(&mut self) -> (Box<RawValue>, bool) {
        if let Some((version, view)) = &self.view
            && *version == self.version
        {
            return (view.clone(), false);
        }
        let view = json_text(&self.current.view());
        self.view = Some((self.version, view.clone()));
        (view, true)
    }

    fn state(&self) -> GameState<'static> {
        GameState {
            finished: self.finished(),
            stopped: self.saved.record.stopped,
            winner: self.winner().map(player_name),
            resigned: self.saved.record.resigned.map(player_name),
            updated: self.saved.updated,
        }
    }

    /// The friend's seat while its claim code is unspent.
    fn unclaimed(&self) -> Option<Player> {
        Player::BOTH
            .into_iter()
            .find(|p| !self.saved.claims[p.index()].is_empty())
    }

    /// The seat a token opens, if any.
    fn seat_of(&self, token: &str) -> Option<Player> {
        Player::BOTH
            .into_iter()
            .find(|p| same_secret(&self.saved.tokens[p.index()], token))
    }

    /// Stops the computer player driving this game, if one is.
    fn halt(&mut self) {
        if let Some(driver) = self.driver.take() {
            driver.cancel();
        }
        self.set_thinking(false);
    }

    /// Says whether a computer is thinking in this game. A change is a new version, so
    /// that the page following the game hears when thinking ends as it hears a move.
    fn set_thinking(&mut self, thinking: bool) {
        if self.thinking != thinking {
            self.thinking = thinking;
            self.version += 1;
        }
    }

    /// Estimated bytes: the game's own estimate, its share of the start and its record.
    fn bytes(&self) -> usize {
        const OVERHEAD: usize = 1024;
        let record = &self.saved.record;
        OVERHEAD
            + self.current.memory_bytes()
            + self.start.bytes()
            + record.board.len()
            + record.moves.iter().map(|m| m.len() + 25).sum::<usize>()
            + self.view.as_ref().map_or(0, |(_, view)| view.get().len())
    }
}

/// A view as JSON text (a `Value` always serializes).
fn json_text(view: &Value) -> Box<RawValue> {
    serde_json::value::to_raw_value(view).unwrap_or_default()
}

fn player_name(player: Player) -> &'static str {
    match player {
        Player::X => "X",
        Player::O => "O",
    }
}

/// Whether a presented secret matches a stored one (never an empty one), in time that
/// does not depend on where they first differ.
fn same_secret(stored: &str, presented: &str) -> bool {
    !stored.is_empty()
        && stored.len() == presented.len()
        && stored
            .bytes()
            .zip(presented.bytes())
            .fold(0, |diff, (a, b)| diff | (a ^ b))
            == 0
}

/// A request to start a game.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub game: String,
    #[serde(default)]
    pub board: Option<String>,
    #[serde(default)]
    pub options: Value,
    #[serde(default)]
    pub players: Players,
    /// Seed of the computer players (random when absent).
    #[serde(default)]
    pub seed: Option<u64>,
    /// The seat a friend plays on another device: the creation answer has a one-time
    /// claim code for it instead of its token, so that the creator never holds it.
    #[serde(default)]
    pub friend: Option<Player>,
}

/// A game as the API shows it, at its latest position or at an earlier ply.
#[derive(Serialize)]
pub struct Snapshot {
    pub id: String,
    pub game: String,
    pub title: &'static str,
    pub board: String,
    pub options: Value,
    pub players: Players,
    /// Every move played, whatever ply is shown.
    pub moves: Vec<String>,
    /// Who made each move, one letter a move (`"XOX"`).
    pub movers: String,
    /// The position shown is the one after this many moves.
    pub ply: usize,
    /// `None` once the game is over (or stopped, or resigned).
    pub to_move: Option<Player>,
    /// Empty unless the latest position is shown and the game goes on.
    pub legal_moves: Vec<String>,
    pub status: Progress,
    pub winner: Option<Player>,
    /// X's margin once the game is over on the board (not when resigned or stopped).
    pub margin: Option<i32>,
    pub resigned: Option<Player>,
    pub stopped: bool,
    pub thinking: bool,
    /// What the computer's last move was proven worth to it (`win`, `draw`, `loss`: its
    /// solver finished), absent where it was a search's move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computer_proven: Option<Proven>,
    pub undo_request: Option<Player>,
    /// The friend's seat while its claim code is unspent.
    pub unclaimed: Option<Player>,
    /// The game's own view of the position shown ([`Match::view`]).
    pub view: Box<RawValue>,
    pub version: u64,
    pub created: i64,
    pub updated: i64,
    /// The secrets of the human seats and of the owner: only in the answer that creates
    /// the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<Tokens>,
    /// The board's start, whose drawing (shared with every game on the same board) the
    /// answers that open a game send after these fields, since it never changes and is
    /// most of the bytes (131 KB on goldberg:4).
    #[serde(skip)]
    pub start: Arc<Start>,
}

/// A board's starting position as a page draws it, before any game on it; its answer
/// carries the board's drawing after these fields.
#[derive(Serialize)]
pub struct Preview {
    game: String,
    title: &'static str,
    board: String,
    moves: [String; 0],
    movers: &'static str,
    ply: usize,
    to_move: Option<Player>,
    legal_moves: Vec<String>,
    view: Box<RawValue>,
    #[serde(skip)]
    pub start: Arc<Start>,
}

/// Whether a game goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Progress {
    Playing,
    Over,
}

/// A new game's secrets: each human seat's (none for a computer seat) and the owner's.
#[derive(Serialize)]
pub struct Tokens {
    #[serde(rename = "X")]
    pub x: Option<String>,
    #[serde(rename = "O")]
    pub o: Option<String>,
    pub owner: String,
    /// The friend's seat and its one-time claim code, when a friend plays one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim: Option<Claim>,
}

/// A seat a friend claims, and the code that claims it.
#[derive(Serialize)]
pub struct Claim {
    pub seat: Player,
    pub code: String,
}

/// The searches running, each with its cancel flag (for the status and for shutdown).
#[derive(Default)]
struct Searches {
    next: AtomicU64,
    running: Mutex<HashMap<u64, Cancel>>,
}

/// A running search's place in [`Searches`], given back when dropped.
struct Searching {
    searches: Arc<Searches>,
    id: u64,
}

impl Searches {
    fn lock(&self) -> MutexGuard<'_, HashMap<u64, Cancel>> {
        self.running.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn start(self: &Arc<Self>, cancel: &Cancel) -> Searching {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.lock().insert(id, cancel.clone());
        Searching {
            searches: Arc::clone(self),
            id,
        }
    }
}

impl Drop for Searching {
    fn drop(&mut self) {
        self.searches.lock().remove(&self.id);
    }
}

pub struct App {
    pub catalog: Catalog,
    pub limits: Limits,
    store: Mutex<Store>,
    games: Mutex<Resident<Slot>>,
    starts: Starts,
    computing: Arc<Semaphore>,
    /// Places among the boards built at once for new games and previews (as many as games
    /// computing at once, at least one): a large board takes a second and a few tens of
    /// megabytes to build, and a burst of them at once took gigabytes.
    building: Arc<Semaphore>,
    /// Places of games the computer plays on both sides, one taken for each of their moves
    /// besides a computing place: half the computing places (at least one), so that on a
    /// server of two or more such games, which anyone may start and which may think for
    /// hours, always leave places for people playing against the computer and for hints.
    unattended: Arc<Semaphore>,
    searches: Arc<Searches>,
    warm: Mutex<WarmComputers>,
    /// Bumped by every deletion, so that a game loaded meanwhile is checked again.
    deletions: AtomicU64,
    /// Raised at shutdown: computer players stop, queued ones stop waiting.
    closing: watch::Sender<bool>,
    started: Instant,
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// `bytes` bytes from the operating system's random source, in hex.
fn random_hex(bytes: usize) -> Result<String, ApiError> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| ApiError::internal("the random source failed", e))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// A one-time claim code: 10 letters and digits that cannot be misread for one another
/// (50 bits; claims are rate-limited), easy to read out or type on another device.
fn claim_code() -> Result<String, ApiError> {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut buf = [0u8; 10];
    getrandom::fill(&mut buf).map_err(|e| ApiError::internal("the random source failed", e))?;
    Ok(buf
        .iter()
        .map(|b| ALPHABET[usize::from(b % 32)] as char)
        .collect())
}

fn random_u64() -> Result<u64, ApiError> {
    let mut buf = [0u8; 8];
    getrandom::fill(&mut buf).map_err(|e| ApiError::internal("the random source failed", e))?;
    Ok(u64::from_le_bytes(buf))
}

/// The resident memory of this process, where the system tells it.
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

impl App {
    /// The app over a database.
    pub fn new(catalog: Catalog, store: Store, limits: Limits) -> Arc<App> {
        Arc::new(App {
            computing: Arc::new(Semaphore::new(limits.computing_at_once)),
            building: Arc::new(Semaphore::new(limits.computing_at_once.max(1))),
            unattended: Arc::new(Semaphore::new((limits.computing_at_once / 2).max(1))),
            warm: Mutex::new(WarmComputers {
                capacity: limits.computing_at_once,
                kept: VecDeque::new(),
            }),
            games: Mutex::new(Resident::new(limits.max_games_bytes)),
            catalog,
            limits,
            store: Mutex::new(store),
            starts: Starts::default(),
            searches: Arc::default(),
            deletions: AtomicU64::new(0),
            closing: watch::Sender::new(false),
            started: Instant::now(),
        })
    }

    fn store(&self) -> MutexGuard<'_, Store> {
        self.store
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn warm(&self) -> MutexGuard<'_, WarmComputers> {
        self.warm
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The computer's move at `level` in `game`, of [`Live::setup`] `setup`. A `perfect`
    /// computer is the setup's kept one when there is one, and is kept again afterwards
    /// ([`WarmComputers`]); other levels are made for the move.
    fn computer_hint(
        &self,
        setup: &str,
        game: &dyn Match,
        level: Level,
        seed: u64,
        budget: &Budget,
    ) -> Option<Hint> {
        if level != Level::Perfect {
            return game.hint(level, seed, budget);
        }
        let kept = self.warm().take(setup);
        let mut computer = kept.unwrap_or_else(|| game.computer(level, seed));
        let hint = game.hint_by(computer.as_mut(), budget);
        let evicted = self.warm().keep(setup.to_string(), computer);
        drop(evicted);
        hint
    }

    fn games(&self) -> MutexGuard<'_, Resident<Slot>> {
        self.games
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs `work` on a blocking thread: everything that locks a game, reads or writes
    /// the database or replays moves goes through here, off the async threads.
    pub async fn run<T: Send + 'static>(
        self: &Arc<Self>,
        work: impl FnOnce(&Arc<App>) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let app = Arc::clone(self);
        tokio::task::spawn_blocking(move || work(&app))
            .await
            .map_err(|e| ApiError::internal("the request failed", e))?
    }

    /// Queues every unfinished game with a computer seat behind the places among the
    /// games computing at once: each waits for a place (never dropped), then loads and
    /// lets the computer continue if it is to move. Returns how many were queued.
    pub fn resume(self: &Arc<Self>) -> Result<usize, ApiError> {
        let ids = self.store().unfinished_with_computer()?;
        let queued = ids.len();
        for id in ids {
            let app = Arc::clone(self);
            tokio::spawn(async move {
                let permit = tokio::select! {
                    permit = Arc::clone(&app.computing).acquire_owned() => permit,
                    () = app.closed() => return,
                };
                let Ok(permit) = permit else { return };
                let resumed = app
                    .run(move |app| {
                        let slot = app.slot(&id)?;
                        app.kick(&slot, permit);
                        Ok(())
                    })
                    .await;
                if let Err(err) = resumed {
                    tracing::warn!("a saved game was not resumed: {}", err.message);
                }
            });
        }
        Ok(queued)
    }

    /// Resolves once shutdown has begun.
    async fn closed(&self) {
        let _ = self.closing.subscribe().wait_for(|&closing| closing).await;
    }

    /// Waits for `change` for at most `wait`, or until shutdown begins.
    async fn wait_for_change(&self, wait: Duration, change: impl Future<Output = ()>) {
        tokio::select! {
            _ = tokio::time::timeout(wait, change) => {}
            () = self.closed() => {}
        }
    }

    /// Stops every search and computer player and ends every wait (at shutdown; moves
    /// already made are committed, and the games resume at the next start).
    pub fn shutdown(&self) {
        self.closing.send_replace(true);
        for cancel in self.searches.lock().values() {
            cancel.cancel();
        }
    }

    fn check_level(&self, seat: Seat) -> Result<(), ApiError> {
        let over = match seat {
            Seat::Computer(Level::FlatMc(n)) => n > self.limits.max_flatmc_playouts,
            Seat::Computer(level) => {
                level
                    .mcts_iterations()
                    .is_some_and(|n| n > self.limits.max_mcts_iterations)
                    || level
                        .think_ms()
                        .is_some_and(|ms| u128::from(ms) > self.limits.max_think.as_millis())
            }
            _ => false,
        };
        if over {
            return Err(ApiError::bad_request(format!(
                "level {seat} is over the server's limit (mcts:{}, mcts:{}ms and flatmc:{} at \
                 most)",
                self.limits.max_mcts_iterations,
                self.limits.max_think.as_millis(),
                self.limits.max_flatmc_playouts
            )));
        }
        Ok(())
    }

    /// The start a record's game begins from, checking the board limits; built once per
    /// (game, board, options) while a game holds it.
    fn start_of(&self, record: &Record) -> Result<Arc<Start>, ApiError> {
        if record.board.chars().count() > self.limits.max_board_chars {
            return Err(ApiError::too_large(format!(
                "the board text is over {} characters",
                self.limits.max_board_chars
            )));
        }
        let options = if record.options.is_null() {
            json!({})
        } else {
            record.options.clone()
        };
        let board = record.board.trim();
        self.starts
            .get_or_build(&record.game, board, &options.to_string(), || {
                if board.starts_with("file:") {
                    return Err(ApiError::bad_request(
                        "the web app does not read files on the server: paste the board \
                         file's contents instead of file:PATH",
                    ));
                }
                let setup = SetupLimits {
                    max_legal_moves: self.limits.max_legal_moves,
                };
                let descriptor = self
                    .catalog
                    .find(&record.game)
                    .map_err(|e| ApiError::bad_request(e.0))?;
                let game = (descriptor.start)(
                    &Setup {
                        board,
                        options: &options,
                    },
                    &setup,
                )
                .map_err(|e| ApiError::bad_request(e.0))?;
                let layout = if let Some(layout) = descriptor.layout {
                    let layout = layout(board).map_err(|e| ApiError::bad_request(e.0))?;
                    Some(
                        serde_json::value::to_raw_value(&layout)
                            .map_err(|e| ApiError::internal("the board's drawing failed", e))?,
                    )
                } else {
                    None
                };
                Ok(Start { game, layout })
            })
    }

    /// Builds the game a record describes and replays its first `upto` moves; a refused
    /// move is named with its number.
    fn build(
        &self,
        record: &Record,
        upto: usize,
    ) -> Result<(Arc<Start>, Box<dyn Match>), ApiError> {
        if record.moves.len() > self.limits.max_moves {
            return Err(ApiError::too_large(format!(
                "a game has at most {} moves",
                self.limits.max_moves
            )));
        }
        let start = self.start_of(record)?;
        let game = replay(
            start.game.as_ref(),
            &record.moves[..upto.min(record.moves.len())],
        )?;
        Ok((start, game))
    }

    /// The game with this id, from memory or else from the database.
    pub fn slot(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        if let Some(slot) = self.games().get(id) {
            return Ok(slot);
        }
        let deletions = self.deletions.load(Ordering::SeqCst);
        let saved = self
            .store()
            .load(id)?
            .ok_or_else(|| ApiError::not_found(format!("no game {id:?}")))?;
        let (start, current) = self.build(&saved.record, usize::MAX).map_err(|e| {
            ApiError::conflict(format!(
                "saved game {id} can no longer be replayed: {}",
                e.message
            ))
        })?;
        let version = saved.record.moves.len() as u64;
        let live = Live {
            movers: movers(start.game.as_ref(), &saved.record.moves)?,
            saved,
            start,
            current,
            thinking: false,
            undo_request: None,
            version,
            driver: None,
            deleted: false,
            view: None,
            computer_proven: None,
            solver_missed: false,
        };
        let bytes = live.bytes();
        let slot = Arc::new(Slot {
            players: live.saved.record.players,
            beat: watch::Sender::new(Beat {
                version,
                thinking: false,
            }),
            live: Mutex::new(live),
        });
        let mut games = self.games();
        if self.deletions.load(Ordering::SeqCst) != deletions && self.store().owner(id)?.is_none() {
            return Err(ApiError::not_found(format!("no game {id:?}")));
        }
        Ok(games.insert(id, slot, bytes))
    }

    /// Refuses a position whose view and board drawing together are over the limit.
    fn check_drawable(&self, view: &RawValue, start: &Start) -> Result<(), ApiError> {
        let bytes = view.get().len() + start.layout.as_ref().map_or(0, |l| l.get().len());
        if bytes > self.limits.max_view_bytes {
            return Err(ApiError::too_large("the board is too large to draw"));
        }
        Ok(())
    }

    /// Checks a request to start a game and builds it (not yet saved).
    fn prepare(&self, request: NewGame) -> Result<Record, ApiError> {
        let kind = self
            .catalog
            .find(&request.game)
            .map_err(|e| ApiError::bad_request(e.0))?
            .info;
        Ok(Record {
            game: request.game.clone(),
            board: request
                .board
                .unwrap_or_else(|| kind.default_board.to_string()),
            options: request.options,
            players: request.players,
            moves: Vec::new(),
            resigned: None,
            stopped: false,
        })
    }

    /// Starts a game; answers the game, the secret of each human seat and the owner's.
    pub async fn create(self: &Arc<Self>, request: NewGame) -> Result<Snapshot, ApiError> {
        let (seed, friend) = (request.seed, request.friend);
        let record = self.run(move |app| app.prepare(request)).await?;
        self.insert(record, seed, friend).await
    }

    /// Loads an exported record as a new game.
    pub async fn import(self: &Arc<Self>, file: RecordFile) -> Result<Snapshot, ApiError> {
        self.insert(file.record, None, None).await
    }

    async fn insert(
        self: &Arc<Self>,
        mut record: Record,
        seed: Option<u64>,
        friend: Option<Player>,
    ) -> Result<Snapshot, ApiError> {
        // No options are the empty set of options, created or imported alike.
        if record.options.is_null() {
            record.options = json!({});
        }
        let building = self.building_permit().await?;
        let live = self
            .run(move |app| app.new_live(record, seed, friend))
            .await?;
        drop(building);
        // A computer to move needs a place among the games computing at once.
        let permit = match live.computer_to_move() {
            Some(_) => Some(self.permit().await?),
            None => None,
        };
        self.run(move |app| app.save_new(live, permit)).await
    }

    /// A new game's state in memory, checked against the limits.
    fn new_live(
        &self,
        record: Record,
        seed: Option<u64>,
        friend: Option<Player>,
    ) -> Result<Live, ApiError> {
        self.check_level(record.players.x)?;
        self.check_level(record.players.o)?;
        let (start, current) = self.build(&record, usize::MAX)?;
        let view = json_text(&current.view());
        self.check_drawable(&view, &start)?;
        if let Some(seat) = friend
            && record.players.seat(seat) != Seat::Human
        {
            return Err(ApiError::bad_request(format!(
                "a friend plays {seat} on another device, so {seat} must be \"human\""
            )));
        }
        let mut tokens = [String::new(), String::new()];
        let mut claims = [String::new(), String::new()];
        for player in Player::BOTH {
            let i = player.index();
            if friend == Some(player) {
                claims[i] = claim_code()?;
            } else if record.players.seat(player) == Seat::Human {
                tokens[i] = random_hex(16)?;
            }
        }
        let saved = Saved {
            id: random_hex(8)?,
            tokens,
            claims,
            owner: random_hex(16)?,
            seed: match seed {
                Some(seed) => seed,
                None => random_u64()?,
            },
            created: now(),
            updated: now(),
            record,
        };
        let saved_moves = saved.record.moves.len() as u64;
        Ok(Live {
            version: saved_moves,
            movers: movers(start.game.as_ref(), &saved.record.moves)?,
            saved,
            start,
            current,
            thinking: false,
            undo_request: None,
            driver: None,
            deleted: false,
            view: Some((saved_moves, view)),
            computer_proven: None,
            solver_missed: false,
        })
    }

    /// Saves a new game, keeps it in memory and starts the computer if it is to move.
    fn save_new(
        self: &Arc<Self>,
        live: Live,
        permit: Option<OwnedSemaphorePermit>,
    ) -> Result<Snapshot, ApiError> {
        let state = live.state();
        self.store()
            .insert(&live.saved, state.finished, state.winner)?;
        let secret = |s: &String| (!s.is_empty()).then(|| s.clone());
        let tokens = Tokens {
            x: secret(&live.saved.tokens[0]),
            o: secret(&live.saved.tokens[1]),
            owner: live.saved.owner.clone(),
            claim: live.unclaimed().map(|seat| Claim {
                seat,
                code: live.saved.claims[seat.index()].clone(),
            }),
        };
        let id = live.saved.id.clone();
        let bytes = live.bytes();
        let slot = Arc::new(Slot {
            players: live.saved.record.players,
            beat: watch::Sender::new(Beat {
                version: live.version,
                thinking: false,
            }),
            live: Mutex::new(live),
        });
        let slot = self.games().insert(&id, slot, bytes);
        if let Some(permit) = permit {
            self.kick(&slot, permit);
        }
        let mut answer = self.snapshot(&slot, None)?;
        answer.tokens = Some(tokens);
        Ok(answer)
    }

    /// The budget of one search: at most `time`, within the memory limit, stopped by
    /// `cancel`.
    fn search_budget(&self, time: Duration, cancel: &Cancel) -> Budget {
        Budget::time(time.min(self.limits.max_think))
            .with_memory(self.limits.max_search_bytes)
            .with_cancel(cancel.clone())
    }

    /// A place among the games computing at once, waiting a moment for one to free up.
    async fn permit(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        let busy = format!(
            "the server is busy: {} games are computing; try again in a moment",
            self.limits.computing_at_once
        );
        if self.limits.computing_at_once == 0 {
            return Err(ApiError::busy(busy));
        }
        self.place(&self.computing, busy).await
    }

    /// A place among the boards built at once, waiting a moment for one to free up.
    pub async fn building_permit(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        let busy = "the server is busy building boards; try again in a moment".to_string();
        self.place(&self.building, busy).await
    }

    /// A permit of `places`, or a 429 saying `busy` once the permit wait has passed.
    async fn place(
        &self,
        places: &Arc<Semaphore>,
        busy: String,
    ) -> Result<OwnedSemaphorePermit, ApiError> {
        match tokio::time::timeout(self.limits.permit_wait, Arc::clone(places).acquire_owned())
            .await
        {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(ApiError::busy(busy)),
        }
    }

    /// Starts the computer on this game if it is to move and none is driving it.
    fn kick(self: &Arc<Self>, slot: &Arc<Slot>, permit: OwnedSemaphorePermit) {
        let mut live = slot.lock();
        if live.deleted || live.driver.is_some() || live.computer_to_move().is_none() {
            return;
        }
        let cancel = Cancel::new();
        live.driver = Some(cancel.clone());
        live.set_thinking(true);
        slot.announce(&live);
        drop(live);
        self.spawn_driver(Arc::clone(slot), cancel, permit);
    }

    /// Waits for a place of `places` (in turn, however long) until `cancel` is raised or
    /// the server closes.
    async fn queue_for(
        &self,
        places: &Arc<Semaphore>,
        cancel: &Cancel,
    ) -> Option<OwnedSemaphorePermit> {
        let place = Arc::clone(places).acquire_owned();
        tokio::pin!(place);
        loop {
            tokio::select! {
                permit = &mut place => return permit.ok(),
                () = self.closed() => return None,
                () = tokio::time::sleep(Duration::from_millis(100)) => {
                    if cancel.is_cancelled() {
                        return None;
                    }
                }
            }
        }
    }

    /// Plays the computer's moves until a person is to move, the game ends or `cancel`
    /// is raised (resignation, undo, stop, deletion, shutdown), committing each move
    /// before the next. The first move has `permit`, the place its request took; each
    /// next one waits for a place in turn, and in a game the computer plays on both sides,
    /// for an unattended place too (the first move included), so that such games never
    /// hold every computing place.
    fn spawn_driver(
        self: &Arc<Self>,
        slot: Arc<Slot>,
        cancel: Cancel,
        permit: OwnedSemaphorePermit,
    ) {
        let app = Arc::clone(self);
        let unattended = slot.players.all_computer();
        let mut first = (!unattended).then_some(permit);
        tokio::spawn(async move {
            loop {
                let (slot_, cancel_) = (Arc::clone(&slot), cancel.clone());
                let job = app.run(move |app| Ok(app.next_job(&slot_, &cancel_))).await;
                let Ok(Some(Job {
                    setup,
                    game,
                    level,
                    seed,
                    version,
                    think,
                })) = job
                else {
                    return;
                };
                // Waiting ends with the game let go of (a halt) or the server closing.
                let background = match unattended {
                    true => match app.queue_for(&app.unattended, &cancel).await {
                        Some(place) => Some(place),
                        None => return,
                    },
                    false => None,
                };
                let computing = match first.take() {
                    Some(place) => place,
                    None => match app.queue_for(&app.computing, &cancel).await {
                        Some(place) => place,
                        None => return,
                    },
                };
                let _places = (background, computing);
                let searching = app.searches.start(&cancel);
                let budget = app.search_budget(think, &cancel);
                let app_ = Arc::clone(&app);
                let choice = tokio::task::spawn_blocking(move || {
                    let _searching = searching;
                    app_.computer_hint(&setup, game.as_ref(), level, seed, &budget)
                })
                .await
                .map_err(|e| e.to_string());
                let (slot_, cancel_) = (Arc::clone(&slot), cancel.clone());
                let go_on = app
                    .run(move |app| {
                        Ok(app.computer_played(&slot_, &cancel_, version, level, choice))
                    })
                    .await;
                if go_on != Ok(true) {
                    return;
                }
            }
        });
    }

    /// What the computer driving a game under `cancel` is to search next, if anything;
    /// when nothing, it lets go of the game.
    fn next_job(&self, slot: &Slot, cancel: &Cancel) -> Option<Job> {
        let mut live = slot.lock();
        if live.driver.as_ref() != Some(cancel) {
            return None;
        }
        let level = live
            .computer_to_move()
            .filter(|_| !cancel.is_cancelled() && !*self.closing.borrow());
        let Some(level) = level else {
            live.driver = None;
            live.set_thinking(false);
            slot.announce(&live);
            return None;
        };
        let ply = live.saved.record.moves.len() as u64;
        let think = if level == Level::Perfect && live.solver_missed {
            PERFECT_RETRY_TIME + FALLBACK_RESERVE
        } else {
            self.limits.max_think
        };
        Some(Job {
            setup: live.setup(),
            game: live.current.clone_box(),
            level,
            seed: Rng::derive(live.saved.seed, ply),
            version: live.version,
            think,
        })
    }

    /// Commits the computer's move if the game is still where it searched; true to go on.
    fn computer_played(
        &self,
        slot: &Slot,
        cancel: &Cancel,
        version: u64,
        level: Level,
        choice: Result<Option<Hint>, String>,
    ) -> bool {
        let mut live = slot.lock();
        if live.driver.as_ref() != Some(cancel) || live.version != version {
            return live.driver.as_ref() == Some(cancel);
        }
        let played = match choice {
            Ok(Some(hint)) => {
                let played = self.apply(&mut live, &hint.notation);
                if played.is_ok() {
                    live.computer_proven = hint.proven;
                    if level == Level::Perfect {
                        live.solver_missed = hint.proven.is_none();
                    }
                }
                played.map_err(|e| e.message)
            }
            Ok(None) => Err("the computer found no move".to_string()),
            Err(err) => Err(format!("the computer player failed: {err}")),
        };
        if let Err(message) = played {
            tracing::error!("game {}: {message}", live.saved.id);
            live.driver = None;
            live.set_thinking(false);
        }
        self.resized(&live);
        slot.announce(&live);
        live.driver.is_some()
    }

    /// Tells the memory cap a game's new size.
    fn resized(&self, live: &Live) {
        self.games().resize(&live.saved.id, live.bytes());
    }

    /// Plays a move and commits it; on any failure nothing changes.
    fn apply(&self, live: &mut Live, text: &str) -> Result<String, ApiError> {
        if live.finished() {
            return Err(ApiError::conflict("the game is over"));
        }
        if live.saved.record.moves.len() >= self.limits.max_moves {
            return Err(ApiError::conflict(format!(
                "a game has at most {} moves",
                self.limits.max_moves
            )));
        }
        let before = live.current.clone_box();
        let mover = live.current.to_move().unwrap_or(Player::X);
        let played = live.current.play(text).map_err(|e| match e {
            MoveError::GameOver => ApiError::conflict(e.to_string()),
            other => ApiError::bad_request(other.to_string()),
        })?;
        live.saved.record.moves.push(played.clone());
        live.saved.updated = now();
        let ply = live.saved.record.moves.len() - 1;
        let stored = self.store().append_moves(
            &live.saved.id,
            ply,
            std::slice::from_ref(&played),
            &live.state(),
        );
        if let Err(err) = stored {
            live.current = before;
            live.saved.record.moves.pop();
            return Err(err.into());
        }
        live.movers.push(mover);
        live.undo_request = None;
        live.version += 1;
        Ok(played)
    }

    /// A person's move, in the position after `ply` moves when that is given, then
    /// (within the answer wait) the computer's reply.
    pub async fn play(
        self: &Arc<Self>,
        id: &str,
        text: &str,
        token: &str,
        ply: Option<usize>,
    ) -> Result<Snapshot, ApiError> {
        let slot = self.slot_async(id).await?;
        let mut follower = slot.follow();
        let permit = match slot.against_the_computer() {
            true => Some(self.permit().await?),
            false => None,
        };
        let (text, token) = (text.to_string(), token.to_string());
        let moved = Arc::clone(&slot);
        self.run(move |app| app.play_now(&moved, &text, &token, ply, permit))
            .await?;
        self.wait_for_change(self.limits.answer_wait, async {
            let _ = follower.wait_for(|beat| !beat.thinking).await;
        })
        .await;
        self.run(move |app| app.snapshot(&slot, None)).await
    }

    fn play_now(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        text: &str,
        token: &str,
        ply: Option<usize>,
        permit: Option<OwnedSemaphorePermit>,
    ) -> Result<(), ApiError> {
        let mut live = slot.lock_kept()?;
        let played = live.saved.record.moves.len();
        if let Some(ply) = ply.filter(|&ply| ply != played) {
            return Err(ApiError::conflict(format!(
                "the game has moved on since this move was chosen (at ply {ply}, now {played})"
            )));
        }
        let mover = live
            .current
            .to_move()
            .filter(|_| !live.finished())
            .ok_or_else(|| ApiError::conflict("the game is over"))?;
        if let Seat::Computer(_) = live.saved.record.players.seat(mover) {
            return Err(ApiError::conflict(format!(
                "it is the computer's turn ({mover})"
            )));
        }
        if live.seat_of(token) != Some(mover) {
            return Err(ApiError::forbidden(format!(
                "it is {mover}'s turn, and this request does not hold {mover}'s token"
            )));
        }
        self.apply(&mut live, text)?;
        self.resized(&live);
        slot.announce(&live);
        drop(live);
        if let Some(permit) = permit {
            self.kick(slot, permit);
        }
        Ok(())
    }

    async fn slot_async(self: &Arc<Self>, id: &str) -> Result<Arc<Slot>, ApiError> {
        let id = id.to_string();
        self.run(move |app| app.slot(&id)).await
    }

    /// Waits until the game changes from `version` (or the follow wait passes).
    pub async fn follow(self: &Arc<Self>, id: &str, version: u64) -> Result<Snapshot, ApiError> {
        let slot = self.slot_async(id).await?;
        let mut follower = slot.follow();
        self.wait_for_change(self.limits.follow_wait, async {
            let _ = follower.wait_for(|beat| beat.version != version).await;
        })
        .await;
        self.run(move |app| app.snapshot(&slot, None)).await
    }

    /// Records a change of the game's state that is not a move (resignation, stop).
    fn save_state(&self, live: &mut Live) -> Result<(), ApiError> {
        live.saved.updated = now();
        self.store().set_state(&live.saved.id, &live.state())?;
        live.version += 1;
        Ok(())
    }

    /// Gives the friend's seat to whoever presents its claim code, once: answers the
    /// seat and its new token; the code is spent (a second claim is refused).
    pub fn claim(&self, id: &str, code: &str) -> Result<Value, ApiError> {
        let slot = self.slot(id)?;
        let mut live = slot.lock_kept()?;
        let seat = live.unclaimed().ok_or_else(|| {
            ApiError::conflict("this game's invitation has been used: its seat is taken")
        })?;
        let code = code.trim().to_ascii_uppercase();
        if !same_secret(&live.saved.claims[seat.index()], &code) {
            return Err(ApiError::forbidden(
                "this claim code does not open a seat of this game",
            ));
        }
        let token = random_hex(16)?;
        if !self
            .store()
            .claim(&live.saved.id, seat.index(), &code, &token)?
        {
            return Err(ApiError::conflict(
                "this game's invitation has been used: its seat is taken",
            ));
        }
        live.saved.tokens[seat.index()] = token.clone();
        live.saved.claims[seat.index()].clear();
        live.version += 1;
        slot.announce(&live);
        Ok(json!({ "seat": seat, "token": token }))
    }

    /// Resigns for the seat the token opens.
    pub fn resign(&self, id: &str, token: &str) -> Result<Snapshot, ApiError> {
        let slot = self.slot(id)?;
        {
            let mut live = slot.lock_kept()?;
            let player = seat(&live, token)?;
            if live.finished() {
                return Err(ApiError::conflict("the game is over"));
            }
            live.saved.record.resigned = Some(player);
            if let Err(err) = self.save_state(&mut live) {
                live.saved.record.resigned = None;
                return Err(err);
            }
            live.halt();
            slot.announce(&live);
        }
        self.snapshot(&slot, None)
    }

    /// Stops the game for good with the owner's token: any computer thinking in it stops,
    /// and it is over without a winner.
    pub fn stop(&self, id: &str, token: &str) -> Result<Snapshot, ApiError> {
        let slot = self.slot(id)?;
        {
            let mut live = slot.lock_kept()?;
            owner(&live, token)?;
            if live.finished() {
                return Err(ApiError::conflict("the game is over"));
            }
            live.saved.record.stopped = true;
            if let Err(err) = self.save_state(&mut live) {
                live.saved.record.stopped = false;
                return Err(err);
            }
            live.halt();
            slot.announce(&live);
        }
        self.snapshot(&slot, None)
    }

    /// Deletes the game with the owner's token, from the database and from memory;
    /// a computer thinking in it stops.
    pub fn delete(&self, id: &str, token: &str) -> Result<Value, ApiError> {
        let missing = || ApiError::not_found(format!("no game {id:?}"));
        let resident = self.games().get(id);
        let stored_owner = match &resident {
            Some(slot) => slot.lock_kept()?.saved.owner.clone(),
            None => self.store().owner(id)?.ok_or_else(missing)?,
        };
        if !same_secret(&stored_owner, token) {
            return Err(ApiError::forbidden(
                "this request does not hold the game's owner token",
            ));
        }
        // The game is held while its record is deleted (the lock order is the game's,
        // then the registry's), so that a move or resignation under way is written first
        // and any later one finds the game gone.
        let mut live = resident.as_ref().map(|slot| slot.lock());
        {
            let mut games = self.games();
            self.deletions.fetch_add(1, Ordering::SeqCst);
            games.remove(id);
            if !self.store().delete(id)? {
                return Err(missing());
            }
        }
        if let (Some(slot), Some(live)) = (&resident, live.as_mut()) {
            live.halt();
            live.deleted = true;
            live.version += 1;
            slot.announce(live);
        }
        Ok(json!({ "deleted": id }))
    }

    /// Takes back moves. Against the computer: the asking player's last move and the
    /// computer's replies (stopping the computer if it is thinking). Between two people:
    /// the last move, once both have asked.
    pub fn undo(&self, id: &str, token: &str) -> Result<Snapshot, ApiError> {
        let slot = self.slot(id)?;
        {
            let mut live = slot.lock_kept()?;
            let player = seat(&live, token)?;
            if live.saved.record.resigned.is_some() || live.saved.record.stopped {
                return Err(ApiError::conflict("the game is over"));
            }
            let moves = live.saved.record.moves.len();
            let keep = match live.saved.record.players.seat(player.opponent()) {
                Seat::Computer(_) => {
                    if live.finished() {
                        return Err(ApiError::conflict(
                            "the game is over: there is no taking back against the computer",
                        ));
                    }
                    live.movers
                        .iter()
                        .rposition(|&m| m == player)
                        .ok_or_else(|| ApiError::conflict("you have no move to take back"))?
                }
                Seat::Human => {
                    if moves == 0 {
                        return Err(ApiError::conflict("there is no move to take back"));
                    }
                    if live.undo_request != Some(player.opponent()) {
                        live.undo_request = Some(player);
                        live.version += 1;
                        slot.announce(&live);
                        drop(live);
                        return self.snapshot(&slot, None);
                    }
                    moves - 1
                }
            };
            let current = replay(live.start.game.as_ref(), &live.saved.record.moves[..keep])?;
            let updated = now();
            self.store().truncate_moves(
                &live.saved.id,
                keep,
                &GameState {
                    finished: false,
                    stopped: false,
                    winner: None,
                    resigned: None,
                    updated,
                },
            )?;
            live.halt();
            live.saved.record.moves.truncate(keep);
            live.movers.truncate(keep);
            live.saved.updated = updated;
            live.current = current;
            live.undo_request = None;
            live.computer_proven = None;
            live.version += 1;
            self.resized(&live);
            slot.announce(&live);
        }
        self.snapshot(&slot, None)
    }

    /// The computer's suggestion for the player to move, searched for three quarters of
    /// the answer wait at most; the search stops as soon as this request ends (answered,
    /// timed out or dropped on a client's disconnect). A `perfect` hint that is not proven
    /// says why (`reason`: out of the player's reach, beyond the game's exact analysis, or
    /// the limit of the budget that ran out).
    pub async fn hint(self: &Arc<Self>, id: &str, level: Option<Level>) -> Result<Value, ApiError> {
        let id = id.to_string();
        let (game, level, seed, setup) = self
            .run(move |app| {
                let slot = app.slot(&id)?;
                let live = slot.lock();
                if live.finished() {
                    return Err(ApiError::conflict("the game is over"));
                }
                let level = match level {
                    Some(level) => level,
                    None => app
                        .catalog
                        .get(&live.saved.record.game)
                        .map_or(Level::Medium, |k| k.info.hint_level),
                };
                app.check_level(Seat::Computer(level))?;
                let seed = Rng::derive(live.saved.seed ^ 0x4849_4e54, live.version);
                Ok((live.current.clone_box(), level, seed, live.setup()))
            })
            .await?;
        let timed_out = format!(
            "the hint at level {level} took longer than {} s; ask a lower level",
            self.limits.answer_wait.as_secs_f64()
        );
        let app = Arc::clone(self);
        let work = move |game: &dyn Match, budget: &Budget| {
            app.computer_hint(&setup, game, level, seed, budget)
        };
        let hint = self
            .search(game, ("the hint failed", timed_out), work)
            .await?
            .ok_or_else(|| ApiError::conflict("there is no move"))?;
        Ok(hint.details(level))
    }

    /// The exact solve of the live position (who wins with perfect play, the value, the
    /// winning and optimal moves), within the server's search bounds. Its clock stops it
    /// before the answer wait, so a position beyond it answers `unknown` with the nodes
    /// searched rather than a timeout; it stops too as soon as this request ends.
    pub async fn solve(self: &Arc<Self>, id: &str) -> Result<Solved, ApiError> {
        let id = id.to_string();
        let game = self
            .run(move |app| Ok(app.slot(&id)?.lock().current.clone_box()))
            .await?;
        let timed_out = format!(
            "the solve took longer than {} s",
            self.limits.answer_wait.as_secs_f64()
        );
        let work = |game: &dyn Match, budget: &Budget| game.solve(budget);
        self.search(game, ("the solve failed", timed_out), work)
            .await
    }

    /// Runs `work` on `game` on a blocking thread, among the games computing at once,
    /// within the search memory and [`SEARCH_SHARE_OF_WAIT`] of the answer wait (at most
    /// the longest think), so that its own clock stops it before the request's deadline;
    /// past that deadline (a search that overran its clock) it answers 408 with the second
    /// of `errors`, and a failed task 500 with the first. The search is cancelled when this
    /// future is dropped, answered or not.
    async fn search<T: Send + 'static>(
        &self,
        game: Box<dyn Match>,
        (failed, timed_out): (&str, String),
        work: impl FnOnce(&dyn Match, &Budget) -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let permit = self.permit().await?;
        let cancel = Cancel::new();
        let _stop_when_done = cancel.on_drop();
        let searching = self.searches.start(&cancel);
        let time = self.limits.answer_wait.mul_f64(SEARCH_SHARE_OF_WAIT);
        let budget = self.search_budget(time, &cancel);
        let task = tokio::task::spawn_blocking(move || {
            let (_permit, _searching) = (permit, searching);
            work(game.as_ref(), &budget)
        });
        match tokio::time::timeout(self.limits.answer_wait, task).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(err)) => Err(ApiError::internal(failed, err)),
            Err(_) => Err(ApiError::new(StatusCode::REQUEST_TIMEOUT, timed_out)),
        }
    }

    /// The game as the API shows it; at `ply`, the position after that many moves
    /// (replayed without holding the game).
    pub fn snapshot(&self, slot: &Slot, ply: Option<usize>) -> Result<Snapshot, ApiError> {
        let mut live = slot.lock();
        if live.deleted {
            return Err(ApiError::not_found(format!("no game {:?}", live.saved.id)));
        }
        let played = live.saved.record.moves.len();
        let Some(at) = ply.filter(|&p| p < played) else {
            let (view, fresh) = live.current_view();
            // Only a fresh view changes the size the memory cap knows.
            if fresh {
                self.resized(&live);
            }
            let (finished, winner) = (live.finished(), live.winner());
            return Ok(self.shown(&live, live.current.as_ref(), view, played, finished, winner));
        };
        let record = &live.saved.record;
        let (start, moves) = (Arc::clone(&live.start), record.moves[..at].to_vec());
        drop(live);
        let game = replay(start.game.as_ref(), &moves)?;
        let live = slot.lock();
        let outcome = game.outcome();
        Ok(self.shown(
            &live,
            game.as_ref(),
            json_text(&game.view()),
            at,
            outcome.is_some(),
            outcome.and_then(|o| o.winner),
        ))
    }

    /// The snapshot of `game`, the position after `at` moves of `live`'s game, whose view
    /// is `view`.
    fn shown(
        &self,
        live: &Live,
        game: &dyn Match,
        view: Box<RawValue>,
        at: usize,
        finished: bool,
        winner: Option<Player>,
    ) -> Snapshot {
        let record = &live.saved.record;
        let latest = at == record.moves.len();
        // A resigned or stopped game has a result but no margin on the board.
        let ended_off_the_board =
            latest && (record.resigned.is_some() || live.saved.record.stopped);
        Snapshot {
            id: live.saved.id.clone(),
            game: record.game.clone(),
            title: self.catalog.get(&record.game).map_or("", |k| k.info.title),
            board: record.board.clone(),
            options: record.options.clone(),
            players: record.players,
            moves: record.moves.clone(),
            movers: live.movers.iter().map(|&p| player_name(p)).collect(),
            ply: at,
            to_move: if finished { None } else { game.to_move() },
            legal_moves: if finished || !latest {
                Vec::new()
            } else {
                game.legal_moves()
            },
            status: if finished {
                Progress::Over
            } else {
                Progress::Playing
            },
            winner,
            margin: if ended_off_the_board {
                None
            } else {
                game.outcome().map(|o| o.margin)
            },
            resigned: if latest { record.resigned } else { None },
            stopped: latest && live.saved.record.stopped,
            thinking: live.thinking,
            computer_proven: if latest { live.computer_proven } else { None },
            undo_request: live.undo_request,
            unclaimed: live.unclaimed(),
            view,
            version: live.version,
            created: live.saved.created,
            updated: live.saved.updated,
            tokens: None,
            start: Arc::clone(&live.start),
        }
    }

    /// A board's starting position as a page draws it (view, drawing, moves), without
    /// starting a game, under `options` as a new game takes them: the pictures of the rules
    /// pages and the new-game form.
    pub fn preview(
        &self,
        game: &str,
        board: Option<&str>,
        options: Value,
    ) -> Result<Preview, ApiError> {
        let kind = self
            .catalog
            .find(game)
            .map_err(|e| ApiError::bad_request(e.0))?
            .info;
        let record = Record {
            game: game.to_string(),
            board: board.unwrap_or(kind.default_board).to_string(),
            options,
            players: Players::default(),
            moves: Vec::new(),
            resigned: None,
            stopped: false,
        };
        let start = self.start_of(&record)?;
        let view = json_text(&start.game.view());
        self.check_drawable(&view, &start)?;
        Ok(Preview {
            game: record.game,
            title: kind.title,
            board: record.board,
            moves: [],
            movers: "",
            ply: 0,
            to_move: start.game.to_move(),
            legal_moves: start.game.legal_moves(),
            view,
            start,
        })
    }

    /// The game's record, for export.
    pub fn record(&self, id: &str) -> Result<RecordFile, ApiError> {
        let slot = self.slot(id)?;
        let live = slot.lock();
        Ok(RecordFile {
            record: live.saved.record.clone(),
            winner: live.winner(),
        })
    }

    /// The saved games, most recent first: at most `limit` (and never more than the
    /// listing limit) after skipping `offset`, and how many there are in all; of every
    /// game, or of those whose ids `only` lists (at most the listing limit of them).
    pub fn list(
        &self,
        limit: Option<usize>,
        offset: usize,
        filter: Filter,
    ) -> Result<Value, ApiError> {
        let limit = limit
            .unwrap_or(self.limits.max_listed)
            .min(self.limits.max_listed);
        if let Some(ids) = &filter.ids
            && ids.len() > self.limits.max_listed
        {
            return Err(ApiError::bad_request(format!(
                "ids: at most {} games at once, not {}",
                self.limits.max_listed,
                ids.len()
            )));
        }
        if let Some(game) = &filter.game {
            self.catalog
                .find(game)
                .map_err(|e| ApiError::bad_request(e.0))?;
        }
        let store = self.store();
        let games = store.list(limit, offset, &filter)?;
        Ok(json!({
            "games": games,
            "total": store.count(&filter)?,
            "limit": limit,
            "offset": offset,
        }))
    }

    /// What the server is doing: searches running, games in memory and their estimated
    /// bytes, boards shared, resident memory (where the system tells it), uptime.
    pub fn status(&self) -> Value {
        let (games, bytes) = {
            let games = self.games();
            (games.count(), games.bytes())
        };
        json!({
            "searches_running": self.searches.lock().len(),
            "games_in_memory": games,
            "games_bytes": bytes,
            "starts_in_memory": self.starts.count(),
            "resident_bytes": resident_bytes(),
            "uptime_seconds": self.started.elapsed().as_secs(),
        })
    }
}

/// The seat a token opens, or a 403.
fn seat(live: &Live, token: &str) -> Result<Player, ApiError> {
    live.seat_of(token)
        .ok_or_else(|| ApiError::forbidden("this request holds the token of neither seat"))
}

/// Checks the owner's token, or a 403.
fn owner(live: &Live, token: &str) -> Result<(), ApiError> {
    if same_secret(&live.saved.owner, token) {
        Ok(())
    } else {
        Err(ApiError::forbidden(
            "this request does not hold the game's owner token",
        ))
    }
}

/// A copy of `start` with `moves` played; a refused move is named with its number.
fn replay(start: &dyn Match, moves: &[String]) -> Result<Box<dyn Match>, ApiError> {
    let mut game = start.clone_box();
    for (i, mv) in moves.iter().enumerate() {
        game.play(mv)
            .map_err(|e| ApiError::bad_request(format!("move {} ({mv:?}): {e}", i + 1)))?;
    }
    Ok(game)
}

/// Who made each move, replaying from `start`.
fn movers(start: &dyn Match, moves: &[String]) -> Result<Vec<Player>, ApiError> {
    let mut game = start.clone_box();
    let mut movers = Vec::with_capacity(moves.len());
    for mv in moves {
        movers.push(game.to_move().unwrap_or(Player::X));
        game.play(mv)
            .map_err(|e| ApiError::internal("a saved game no longer replays", e))?;
    }
    Ok(movers)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A computer that only says which one it is.
    struct Named(&'static str);

    impl Computer for Named {
        fn choose(&mut self, _: &dyn std::any::Any, _: &Budget) -> Option<String> {
            Some(self.0.to_string())
        }
    }

    fn name_of(computer: Option<Box<dyn Computer>>) -> Option<String> {
        computer.and_then(|mut c| c.choose(&(), &Budget::unlimited()))
    }

    /// Each setup gets its own computer back once; past the capacity the least recently
    /// kept goes, and with no capacity nothing is kept.
    #[test]
    fn warm_computers_are_kept_per_setup_within_the_capacity() {
        let mut warm = WarmComputers {
            capacity: 2,
            kept: VecDeque::new(),
        };
        assert!(warm.keep("a".into(), Box::new(Named("a"))).is_none());
        assert!(warm.keep("b".into(), Box::new(Named("b"))).is_none());
        assert_eq!(name_of(warm.take("a")).as_deref(), Some("a"));
        assert!(warm.take("a").is_none(), "taken once");
        assert!(warm.keep("a".into(), Box::new(Named("a2"))).is_none());
        let evicted = warm.keep("c".into(), Box::new(Named("c")));
        assert_eq!(name_of(evicted).as_deref(), Some("b"));
        assert_eq!(name_of(warm.take("c")).as_deref(), Some("c"));
        assert_eq!(name_of(warm.take("a")).as_deref(), Some("a2"));
        // A setup's second computer (two of its games searched at once) replaces its first.
        assert!(warm.keep("d".into(), Box::new(Named("d"))).is_none());
        let replaced = warm.keep("d".into(), Box::new(Named("d2")));
        assert_eq!(name_of(replaced).as_deref(), Some("d"));
        assert_eq!(name_of(warm.take("d")).as_deref(), Some("d2"));
        let mut none = WarmComputers {
            capacity: 0,
            kept: VecDeque::new(),
        };
        let refused = none.keep("a".into(), Box::new(Named("a")));
        assert_eq!(name_of(refused).as_deref(), Some("a"));
        assert!(none.take("a").is_none());
    }
}
