//! The server's state: every game in play, held as a [`Match`] behind one lock each, the
//! database, and the computer players, which run on blocking threads within a limit of
//! games computing at once.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher, RandomState};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::http::StatusCode;
use crosscap_engine::session::{Match, SetupLimits};
use crosscap_engine::{Budget, Cancel, Level, MoveError, Player, Rng};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};

use crate::record::{Players, Record, Seat};
use crate::registry::Registry;
use crate::store::{GameState, Saved, Store};

/// Limits that keep the server healthy; a request over one gets a 4xx naming it.
#[derive(Clone, Debug, Serialize)]
pub struct Limits {
    /// Largest request body.
    pub max_body_bytes: usize,
    /// Longest board, graph or surface text (a pasted board file included).
    pub max_board_chars: usize,
    /// Most legal moves in a starting position: the measure of board size every game shares.
    pub max_legal_moves: usize,
    /// Largest drawing description of a position.
    pub max_view_bytes: usize,
    /// Most moves in one game.
    pub max_moves: usize,
    /// Games whose computer player (or hint) may compute at the same time (0: a server
    /// without computer players).
    pub computing_at_once: usize,
    /// How long a request waits for the computer before answering with `thinking: true`
    /// (the page then follows the game until the move arrives).
    #[serde(serialize_with = "as_seconds")]
    pub answer_wait: Duration,
    /// How long a follower's request waits for a change before answering unchanged.
    #[serde(serialize_with = "as_seconds")]
    pub follow_wait: Duration,
    /// Longest a computer move may think, whatever its level.
    #[serde(serialize_with = "as_seconds")]
    pub max_think: Duration,
    /// Most memory one search (a computer move or a hint) may hold in its tables and trees.
    pub max_search_bytes: usize,
    /// Largest `mcts:N` and `flatmc:N` levels.
    pub max_mcts_iterations: u64,
    pub max_flatmc_playouts: u32,
    /// Most games listed at once.
    pub max_listed: usize,
}

fn as_seconds<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: 256 * 1024,
            max_board_chars: 64 * 1024,
            max_legal_moves: 5_000,
            max_view_bytes: 4 * 1024 * 1024,
            max_moves: 20_000,
            computing_at_once: std::thread::available_parallelism().map_or(2, |n| n.get()),
            answer_wait: Duration::from_secs(20),
            follow_wait: Duration::from_secs(25),
            max_think: Duration::from_secs(60),
            max_search_bytes: 256 * 1024 * 1024,
            max_mcts_iterations: 1_000_000,
            max_flatmc_playouts: 20_000,
            max_listed: 500,
        }
    }
}

/// An error answer: a status and one sentence, sent as `{"error": "..."}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        Self::new(StatusCode::BAD_REQUEST, message)
    }
    pub fn conflict(message: impl Into<String>) -> ApiError {
        Self::new(StatusCode::CONFLICT, message)
    }
    fn internal(message: impl Into<String>) -> ApiError {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(err: crate::store::StoreError) -> Self {
        ApiError::internal(err.to_string())
    }
}

/// What followers are told on every change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Beat {
    pub version: u64,
    pub thinking: bool,
}

/// One game held in memory.
pub struct Slot {
    live: Mutex<Live>,
    beat: watch::Sender<Beat>,
}

impl Slot {
    fn lock(&self) -> MutexGuard<'_, Live> {
        self.live
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
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
}

struct Live {
    saved: Saved,
    current: Box<dyn Match>,
    /// The board's drawing, for games on surface boards.
    layout: Option<Value>,
    thinking: bool,
    undo_request: Option<Player>,
    version: u64,
}

impl Live {
    fn winner(&self) -> Option<Player> {
        match self.saved.record.resigned {
            Some(p) => Some(p.opponent()),
            None => self.current.outcome().and_then(|o| o.winner),
        }
    }

    fn finished(&self) -> bool {
        self.saved.record.resigned.is_some() || self.current.outcome().is_some()
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

    fn state(&self) -> (bool, Option<String>, Option<String>) {
        (
            self.finished(),
            self.winner().map(|p| p.to_string()),
            self.saved.record.resigned.map(|p| p.to_string()),
        )
    }

    /// The seat a token opens, if any.
    fn seat_of(&self, token: &str) -> Option<Player> {
        Player::BOTH
            .into_iter()
            .find(|p| !token.is_empty() && self.saved.tokens[p.index()] == token)
    }
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
}

pub struct App {
    pub registry: Registry,
    pub limits: Limits,
    /// Where pasted board files are kept (none: pasted board files are refused).
    boards_dir: Option<PathBuf>,
    store: Mutex<Store>,
    games: Mutex<HashMap<String, Arc<Slot>>>,
    computing: Arc<Semaphore>,
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// 64 unpredictable bits (std's hasher keys come from the operating system).
fn random_u64() -> u64 {
    let mut h = RandomState::new().build_hasher();
    h.write_u128(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

/// A fixed 64-bit hash (FNV-1a), to name stored files by their contents.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

fn random_hex(words: usize) -> String {
    (0..words)
        .map(|_| format!("{:016x}", random_u64()))
        .collect()
}

impl App {
    /// The app over a database; `boards_dir` keeps pasted board files.
    pub fn new(
        registry: Registry,
        store: Store,
        limits: Limits,
        boards_dir: Option<PathBuf>,
    ) -> Arc<App> {
        Arc::new(App {
            boards_dir,
            computing: Arc::new(Semaphore::new(limits.computing_at_once)),
            registry,
            limits,
            store: Mutex::new(store),
            games: Mutex::new(HashMap::new()),
        })
    }

    fn store(&self) -> MutexGuard<'_, Store> {
        self.store
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Loads every unfinished game and lets the computer continue where it is to move.
    /// Returns how many games were resumed; games that no longer replay are reported on
    /// stderr and left in the database untouched.
    pub fn resume(self: &Arc<Self>) -> Result<usize, ApiError> {
        let ids = self.store().unfinished()?;
        let mut resumed = 0;
        for id in ids {
            match self.slot(&id) {
                Ok(slot) => {
                    resumed += 1;
                    let app = Arc::clone(self);
                    tokio::spawn(async move {
                        if let Ok(permit) = Arc::clone(&app.computing).acquire_owned().await {
                            app.kick(&slot, permit);
                        }
                    });
                }
                Err(err) => eprintln!("crosscap: saved game {id} not resumed: {}", err.message),
            }
        }
        Ok(resumed)
    }

    fn check_level(&self, seat: Seat) -> Result<(), ApiError> {
        let over = match seat {
            Seat::Computer(Level::Mcts(n)) => n > self.limits.max_mcts_iterations,
            Seat::Computer(Level::FlatMc(n)) => n > self.limits.max_flatmc_playouts,
            _ => false,
        };
        if over {
            return Err(ApiError::bad_request(format!(
                "level {seat} is over the server's limit (mcts:{} and flatmc:{} at most)",
                self.limits.max_mcts_iterations, self.limits.max_flatmc_playouts
            )));
        }
        Ok(())
    }

    /// Builds the game a record describes, checking the board limits and replaying the
    /// moves; a refused move is named with its number.
    fn build(&self, record: &Record, upto: usize) -> Result<Box<dyn Match>, ApiError> {
        if record.board.chars().count() > self.limits.max_board_chars {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the board text is over {} characters",
                    self.limits.max_board_chars
                ),
            ));
        }
        if record.moves.len() > self.limits.max_moves {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("a game has at most {} moves", self.limits.max_moves),
            ));
        }
        let options = if record.options.is_null() {
            json!({})
        } else {
            record.options.clone()
        };
        let spec = self.board_spec(record)?;
        let setup = SetupLimits {
            max_legal_moves: self.limits.max_legal_moves,
        };
        let mut game = self
            .registry
            .new_match(&record.game, &spec, &options, &setup)
            .map_err(ApiError::bad_request)?;
        for (i, mv) in record.moves.iter().take(upto).enumerate() {
            game.play(mv)
                .map_err(|e| ApiError::bad_request(format!("move {} ({mv:?}): {e}", i + 1)))?;
        }
        Ok(game)
    }

    /// The spec to build a record's board from. A pasted board file (JSON) is kept in the
    /// boards directory under a name made from its contents; `file:` specs are refused,
    /// so that a request cannot make the server read its files.
    fn board_spec(&self, record: &Record) -> Result<String, ApiError> {
        let board = record.board.trim();
        if board.starts_with("file:") {
            return Err(ApiError::bad_request(
                "the web app does not read files on the server: paste the board file's \
                 contents instead of file:PATH",
            ));
        }
        let surface = self
            .registry
            .get(&record.game)
            .is_some_and(|k| k.surface_board);
        if !(surface && board.starts_with('{')) {
            return Ok(board.to_string());
        }
        let dir = self
            .boards_dir
            .as_ref()
            .ok_or_else(|| ApiError::bad_request("this server keeps no pasted board files"))?;
        let path = dir.join(format!("{:016x}.json", fnv1a(board.as_bytes())));
        if !path.exists() {
            std::fs::create_dir_all(dir)
                .and_then(|()| std::fs::write(&path, board))
                .map_err(|e| ApiError::internal(format!("cannot keep the board file: {e}")))?;
        }
        Ok(format!("file:{}", path.display()))
    }

    /// The drawing of a record's board, for games on surface boards.
    fn layout(&self, record: &Record) -> Result<Option<Value>, ApiError> {
        if !self
            .registry
            .get(&record.game)
            .is_some_and(|k| k.surface_board)
        {
            return Ok(None);
        }
        let spec = self.board_spec(record)?;
        crate::registry::surface_layout(&spec)
            .map(Some)
            .map_err(ApiError::bad_request)
    }

    /// The game with this id, from memory or from the database.
    pub fn slot(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        if let Some(slot) = self.games.lock().unwrap_or_else(|p| p.into_inner()).get(id) {
            return Ok(Arc::clone(slot));
        }
        let saved = self
            .store()
            .load(id)?
            .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("no game {id:?}")))?;
        let current = self.build(&saved.record, usize::MAX).map_err(|e| {
            ApiError::conflict(format!(
                "saved game {id} can no longer be replayed: {}",
                e.message
            ))
        })?;
        let version = saved.record.moves.len() as u64;
        let layout = self.layout(&saved.record)?;
        let slot = Arc::new(Slot {
            live: Mutex::new(Live {
                saved,
                current,
                layout,
                thinking: false,
                undo_request: None,
                version,
            }),
            beat: watch::Sender::new(Beat {
                version,
                thinking: false,
            }),
        });
        let mut games = self.games.lock().unwrap_or_else(|p| p.into_inner());
        Ok(Arc::clone(games.entry(id.to_string()).or_insert(slot)))
    }

    /// Starts a game; answers the game and the secret of each human seat.
    pub fn create(self: &Arc<Self>, request: NewGame) -> Result<Value, ApiError> {
        let kind = self.registry.get(&request.game).ok_or_else(|| {
            ApiError::bad_request(format!(
                "unknown game {:?}: expected one of {}",
                request.game,
                self.registry.names().join(", ")
            ))
        })?;
        let record = Record {
            game: request.game.clone(),
            board: request
                .board
                .unwrap_or_else(|| kind.default_board.to_string()),
            options: if request.options.is_null() {
                json!({})
            } else {
                request.options
            },
            players: request.players,
            moves: Vec::new(),
            resigned: None,
        };
        self.insert(record, request.seed)
    }

    /// Loads an exported record as a new game.
    pub fn import(self: &Arc<Self>, record: Record) -> Result<Value, ApiError> {
        self.insert(record, None)
    }

    fn insert(self: &Arc<Self>, record: Record, seed: Option<u64>) -> Result<Value, ApiError> {
        self.check_level(record.players.x)?;
        self.check_level(record.players.o)?;
        let current = self.build(&record, usize::MAX)?;
        let layout = self.layout(&record)?;
        let view_bytes =
            current.view().to_string().len() + layout.as_ref().map_or(0, |l| l.to_string().len());
        if view_bytes > self.limits.max_view_bytes {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "the board is too large to draw",
            ));
        }
        let token = |seat: Seat| match seat {
            Seat::Human => random_hex(2),
            Seat::Computer(_) => String::new(),
        };
        let saved = Saved {
            id: random_hex(1),
            tokens: [token(record.players.x), token(record.players.o)],
            seed: seed.unwrap_or_else(random_u64),
            created: now(),
            updated: now(),
            record,
        };
        let mut live = Live {
            version: saved.record.moves.len() as u64,
            saved,
            current,
            layout,
            thinking: false,
            undo_request: None,
        };
        // A computer to move needs a place among the games computing at once.
        let permit = match live.computer_to_move() {
            Some(_) => Some(self.permit()?),
            None => None,
        };
        let (finished, winner, _) = live.state();
        self.store()
            .insert(&live.saved, finished, winner.as_deref())?;
        let tokens = json!({
            "X": (!live.saved.tokens[0].is_empty()).then(|| live.saved.tokens[0].clone()),
            "O": (!live.saved.tokens[1].is_empty()).then(|| live.saved.tokens[1].clone()),
        });
        live.thinking = permit.is_some();
        let id = live.saved.id.clone();
        let beat = Beat {
            version: live.version,
            thinking: live.thinking,
        };
        let slot = Arc::new(Slot {
            live: Mutex::new(live),
            beat: watch::Sender::new(beat),
        });
        self.games
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, Arc::clone(&slot));
        if let Some(permit) = permit {
            self.spawn_driver(&slot, permit);
        }
        let mut answer = self.snapshot(&slot, None)?;
        answer["tokens"] = tokens;
        Ok(answer)
    }

    /// The budget of one search: at most `time`, within the memory limit.
    fn search_budget(&self, time: Duration) -> Budget {
        Budget::time(time.min(self.limits.max_think)).with_memory(self.limits.max_search_bytes)
    }

    fn permit(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        Arc::clone(&self.computing)
            .try_acquire_owned()
            .map_err(|_| {
                ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    format!(
                        "the server is busy: {} games are computing; try again in a moment",
                        self.limits.computing_at_once
                    ),
                )
            })
    }

    /// Starts the computer on this game if it is to move and not already thinking.
    fn kick(self: &Arc<Self>, slot: &Arc<Slot>, permit: OwnedSemaphorePermit) {
        {
            let mut live = slot.lock();
            if live.thinking || live.computer_to_move().is_none() {
                return;
            }
            live.thinking = true;
            slot.announce(&live);
        }
        self.spawn_driver(slot, permit);
    }

    /// Plays the computer's moves until a human is to move or the game ends, committing
    /// each move before the next; holds `permit` throughout.
    fn spawn_driver(self: &Arc<Self>, slot: &Arc<Slot>, permit: OwnedSemaphorePermit) {
        let app = Arc::clone(self);
        let slot = Arc::clone(slot);
        tokio::spawn(async move {
            let _permit = permit;
            loop {
                let job = {
                    let mut live = slot.lock();
                    match live.computer_to_move() {
                        Some(level) => {
                            let ply = live.saved.record.moves.len() as u64;
                            let seed = Rng::derive(live.saved.seed, ply);
                            Some((live.current.clone_box(), level, seed, live.version))
                        }
                        None => {
                            live.thinking = false;
                            slot.announce(&live);
                            None
                        }
                    }
                };
                let Some((game, level, seed, version)) = job else {
                    return;
                };
                let budget = app.search_budget(app.limits.max_think);
                let choice =
                    tokio::task::spawn_blocking(move || game.computer_move(level, seed, &budget))
                        .await;
                let mut live = slot.lock();
                if live.version != version {
                    continue;
                }
                let played = match choice {
                    Ok(Some(text)) => app.apply(&mut live, &text).map_err(|e| e.message),
                    Ok(None) => Err("the computer found no move".to_string()),
                    Err(err) => Err(format!("the computer player failed: {err}")),
                };
                if let Err(message) = played {
                    eprintln!("crosscap: game {}: {message}", live.saved.id);
                    live.thinking = false;
                    slot.announce(&live);
                    return;
                }
                slot.announce(&live);
            }
        });
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
        let played = live.current.play(text).map_err(|e| match e {
            MoveError::GameOver => ApiError::conflict(e.to_string()),
            other => ApiError::bad_request(other.to_string()),
        })?;
        live.saved.record.moves.push(played.clone());
        live.saved.updated = now();
        let (finished, winner, resigned) = live.state();
        let ply = live.saved.record.moves.len() - 1;
        let stored = self.store().append_moves(
            &live.saved.id,
            ply,
            std::slice::from_ref(&played),
            &GameState {
                finished,
                winner: winner.as_deref(),
                resigned: resigned.as_deref(),
                updated: live.saved.updated,
            },
        );
        if let Err(err) = stored {
            live.current = before;
            live.saved.record.moves.pop();
            return Err(err.into());
        }
        live.undo_request = None;
        live.version += 1;
        Ok(played)
    }

    /// A human's move, then (within the answer wait) the computer's reply.
    pub async fn play(
        self: &Arc<Self>,
        id: &str,
        text: &str,
        token: &str,
    ) -> Result<Value, ApiError> {
        let slot = self.slot(id)?;
        let mut follower = slot.follow();
        {
            let mut live = slot.lock();
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
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    format!("it is {mover}'s turn, and this request does not hold {mover}'s token"),
                ));
            }
            let permit = match live.saved.record.players.seat(mover.opponent()) {
                Seat::Computer(_) => Some(self.permit()?),
                Seat::Human => None,
            };
            self.apply(&mut live, text)?;
            if let Some(permit) = permit.filter(|_| live.computer_to_move().is_some()) {
                live.thinking = true;
                slot.announce(&live);
                drop(live);
                self.spawn_driver(&slot, permit);
            } else {
                slot.announce(&live);
            }
        }
        let _ = tokio::time::timeout(
            self.limits.answer_wait,
            follower.wait_for(|beat| !beat.thinking),
        )
        .await;
        self.snapshot(&slot, None)
    }

    /// Waits until the game changes from `version` (or the follow wait passes).
    pub async fn follow(&self, id: &str, version: u64) -> Result<Value, ApiError> {
        let slot = self.slot(id)?;
        let mut follower = slot.follow();
        let _ = tokio::time::timeout(
            self.limits.follow_wait,
            follower.wait_for(|beat| beat.version != version),
        )
        .await;
        self.snapshot(&slot, None)
    }

    /// Resigns for the seat the token opens.
    pub fn resign(&self, id: &str, token: &str) -> Result<Value, ApiError> {
        let slot = self.slot(id)?;
        {
            let mut live = slot.lock();
            let player = self.seat(&live, token)?;
            if live.finished() {
                return Err(ApiError::conflict("the game is over"));
            }
            live.saved.record.resigned = Some(player);
            live.saved.updated = now();
            let (finished, winner, resigned) = live.state();
            let stored = self.store().set_state(
                &live.saved.id,
                &GameState {
                    finished,
                    winner: winner.as_deref(),
                    resigned: resigned.as_deref(),
                    updated: live.saved.updated,
                },
            );
            if let Err(err) = stored {
                live.saved.record.resigned = None;
                return Err(err.into());
            }
            live.version += 1;
            slot.announce(&live);
        }
        self.snapshot(&slot, None)
    }

    fn seat(&self, live: &Live, token: &str) -> Result<Player, ApiError> {
        live.seat_of(token).ok_or_else(|| {
            ApiError::new(
                StatusCode::FORBIDDEN,
                "this request holds the token of neither seat",
            )
        })
    }

    /// Takes back moves. Against the computer: the asking player's last move and the
    /// computer's replies. Between two people: the last move, once both have asked.
    pub fn undo(&self, id: &str, token: &str) -> Result<Value, ApiError> {
        let slot = self.slot(id)?;
        {
            let mut live = slot.lock();
            let player = self.seat(&live, token)?;
            if live.saved.record.resigned.is_some() {
                return Err(ApiError::conflict("the game ended by resignation"));
            }
            if live.thinking {
                return Err(ApiError::conflict(
                    "the computer is thinking; undo after its move",
                ));
            }
            let moves = live.saved.record.moves.len();
            let keep = match live.saved.record.players.seat(player.opponent()) {
                Seat::Computer(_) => {
                    // The ply of the player's last move: replay to find who moved when.
                    let movers = self.movers(&live.saved.record)?;
                    movers
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
            let mut record = live.saved.record.clone();
            record.moves.truncate(keep);
            let current = self.build(&record, usize::MAX)?;
            let updated = now();
            self.store().truncate_moves(
                &live.saved.id,
                keep,
                &GameState {
                    finished: false,
                    winner: None,
                    resigned: None,
                    updated,
                },
            )?;
            live.saved.record = record;
            live.saved.updated = updated;
            live.current = current;
            live.undo_request = None;
            live.version += 1;
            slot.announce(&live);
        }
        self.snapshot(&slot, None)
    }

    /// Who made each move of a record.
    fn movers(&self, record: &Record) -> Result<Vec<Player>, ApiError> {
        let mut game = self.build(record, 0)?;
        let mut movers = Vec::with_capacity(record.moves.len());
        for mv in &record.moves {
            movers.push(game.to_move().unwrap_or(Player::X));
            game.play(mv)
                .map_err(|e| ApiError::internal(format!("replay failed: {e}")))?;
        }
        Ok(movers)
    }

    /// The computer's suggestion for the player to move.
    pub async fn hint(&self, id: &str, level: Option<Level>) -> Result<Value, ApiError> {
        let slot = self.slot(id)?;
        let (game, level, seed) = {
            let live = slot.lock();
            if live.finished() {
                return Err(ApiError::conflict("the game is over"));
            }
            let level = match level {
                Some(level) => level,
                None => self
                    .registry
                    .get(&live.saved.record.game)
                    .map_or(Level::Medium, |k| k.hint_level),
            };
            self.check_level(Seat::Computer(level))?;
            let seed = Rng::derive(live.saved.seed ^ 0x4849_4e54, live.version);
            (live.current.clone_box(), level, seed)
        };
        let permit = self.permit()?;
        // The search stops when this request ends, answered, timed out or dropped.
        let cancel = Cancel::new();
        let _stop_when_done = cancel.on_drop();
        let budget = self
            .search_budget(self.limits.answer_wait)
            .with_cancel(cancel);
        let task = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            game.computer_move(level, seed, &budget)
        });
        match tokio::time::timeout(self.limits.answer_wait, task).await {
            Ok(Ok(Some(mv))) => Ok(json!({ "move": mv, "level": level.to_string() })),
            Ok(Ok(None)) => Err(ApiError::conflict("there is no move")),
            Ok(Err(err)) => Err(ApiError::internal(format!("the hint failed: {err}"))),
            Err(_) => Err(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the hint at level {level} took longer than {} s; ask a lower level",
                    self.limits.answer_wait.as_secs()
                ),
            )),
        }
    }

    /// The game as the API shows it; at `ply`, the position after that many moves.
    pub fn snapshot(&self, slot: &Slot, ply: Option<usize>) -> Result<Value, ApiError> {
        let live = slot.lock();
        let record = &live.saved.record;
        let replayed;
        let (game, at): (&dyn Match, usize) = match ply {
            Some(ply) if ply < record.moves.len() => {
                replayed = self.build(record, ply)?;
                (replayed.as_ref(), ply)
            }
            _ => (live.current.as_ref(), record.moves.len()),
        };
        let latest = at == record.moves.len();
        let finished = if latest {
            live.finished()
        } else {
            game.outcome().is_some()
        };
        let winner = if latest {
            live.winner()
        } else {
            game.outcome().and_then(|o| o.winner)
        };
        Ok(json!({
            "id": live.saved.id,
            "game": record.game,
            "title": self.registry.get(&record.game).map_or("", |k| k.title),
            "board": record.board,
            "options": record.options,
            "players": record.players,
            "moves": record.moves,
            "ply": at,
            "to_move": if finished { None } else { game.to_move() },
            "legal_moves": if finished || !latest { Vec::new() } else { game.legal_moves() },
            "status": if finished { "over" } else { "playing" },
            "winner": winner,
            "margin": if latest && record.resigned.is_some() { None } else { game.outcome().map(|o| o.margin) },
            "resigned": if latest { record.resigned } else { None },
            "thinking": live.thinking,
            "undo_request": live.undo_request,
            "view": game.view(),
            "layout": live.layout,
            "version": live.version,
            "created": live.saved.created,
            "updated": live.saved.updated,
        }))
    }

    /// The game's record, for export.
    pub fn record(&self, id: &str) -> Result<Value, ApiError> {
        let slot = self.slot(id)?;
        let live = slot.lock();
        let mut value = serde_json::to_value(&live.saved.record)
            .map_err(|e| ApiError::internal(e.to_string()))?;
        value["format"] = json!("crosscap-record");
        value["version"] = json!(1);
        value["winner"] = json!(live.winner());
        Ok(value)
    }

    /// The saved games, most recent first.
    pub fn list(&self) -> Result<Value, ApiError> {
        let store = self.store();
        let games = store.list(self.limits.max_listed)?;
        Ok(json!({ "games": games, "total": store.count()? }))
    }
}
