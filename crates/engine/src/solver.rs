//! Exact solver: negamax with alpha-beta pruning, a transposition table of value bounds,
//! the game's move-ordering hook and its margin bounds ([`Game::margin_bounds`], which
//! settle a node without search when they already answer the window). Works for win/loss
//! games and for games scored at the end alike, since it maximises
//! [`Outcome::margin`](crate::Outcome). Who wins before by how much: [`Solver::at_least`]
//! asks "is X's margin at least m?" in a null window, and [`margin_by_tests`] finds the
//! margin from such tests, keeping the bounds proven when a budget runs out.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub use crate::budget::Budget;
use crate::budget::{Exhausted, Meter};
use crate::game::{Game, Player};
use crate::rng::Rng;
use crate::table::ShardedTable;

/// The budget ran out before the position was solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    #[error("unknown: the search budget ran out ({reason}) after {nodes} nodes in {elapsed:.1?}")]
    Unknown {
        nodes: u64,
        elapsed: Duration,
        reason: Exhausted,
    },
}

/// A solved position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// The player to move in the solved position.
    pub to_move: Player,
    /// The minimax margin from the mover's point of view (±1 in win/loss games).
    pub value: i32,
    /// The same from X's point of view.
    pub margin: i32,
    /// Every move that achieves `value` (empty when the game is over).
    pub best_moves: Vec<M>,
    pub nodes: u64,
    pub elapsed: Duration,
}

const INF: i32 = i32::MAX;

/// Fewest moves of a node at which [`Worker::cut_by_children`] looks up every child first.
const CUT_BY_CHILDREN_MOVES: usize = 8;

/// Shards of the table per search thread when several share it: enough that two threads
/// seldom wait for the same lock.
const SHARDS_PER_THREAD: usize = 64;

/// Marks of the moves being searched, when several threads search (a power of two).
const BUSY_MARKS: usize = 1 << 15;

/// What the table remembers of a position, in 6 bytes: bounds on its value and the move
/// that was best (or caused the cutoff) last time, tried first next time, as its index in
/// the position's ordered search moves ([`Game::search_moves`] and [`Game::order_moves`]
/// are functions of the position).
/// Bounds beyond ±[`Entry::SATURATED`] are kept loosened to it (or to none), which is
/// sound: a table only has to hold true bounds.
#[derive(Clone, Copy)]
struct Entry {
    lower: i16,
    upper: i16,
    best: u16,
}

impl Entry {
    const SATURATED: i32 = i16::MAX as i32 - 1;
    const NO_MOVE: u16 = u16::MAX;

    fn new(lower: i32, upper: i32, best: Option<usize>) -> Entry {
        let clamp = |v: i32| v.clamp(-Self::SATURATED, Self::SATURATED) as i16;
        Entry {
            lower: if lower < -Self::SATURATED {
                i16::MIN
            } else {
                clamp(lower)
            },
            upper: if upper > Self::SATURATED {
                i16::MAX
            } else {
                clamp(upper)
            },
            best: best
                .and_then(|i| u16::try_from(i).ok())
                .unwrap_or(Self::NO_MOVE),
        }
    }

    fn lower(&self) -> i32 {
        if self.lower == i16::MIN {
            -INF
        } else {
            i32::from(self.lower)
        }
    }

    fn upper(&self) -> i32 {
        if self.upper == i16::MAX {
            INF
        } else {
            i32::from(self.upper)
        }
    }

    fn best(&self) -> Option<usize> {
        (self.best != Self::NO_MOVE).then_some(usize::from(self.best))
    }
}

/// A reusable solver: its transposition table persists between calls, so solving many
/// related positions (every opening, say) shares work. With [`Budget::threads`] above one
/// each call searches on that many threads sharing the table: every thread runs the same
/// search, and a thread that reaches a move another one is searching puts it off to the
/// end of its node (simplified ABDADA), so the threads part and fill the table for each
/// other. The first thread done answers; values and best moves are those of one thread,
/// node counts vary from run to run.
pub struct Solver<G: Game> {
    table: ShardedTable<Entry>,
    busy: BusyMarks,
    budget: Budget,
    /// Nodes visited since the solver was made.
    nodes: u64,
    /// The current (or last) public call's first node and start: the budget covers it.
    call_start: (u64, Instant),
    _game: std::marker::PhantomData<fn(G)>,
}

/// A solver's table without its solver: a search whose positions borrow from something
/// it keeps (Euler Getter's compact positions borrow their board) cannot keep a
/// [`Solver`] from one call to the next, but can keep its table
/// ([`Solver::into_table`], [`Solver::with_table`]).
pub struct SolverTable {
    table: ShardedTable<Entry>,
    busy: BusyMarks,
}

impl SolverTable {
    /// An empty table for a solver with `budget`: sharded for its threads, within its
    /// memory.
    fn new(budget: &Budget) -> SolverTable {
        let threads = budget.threads.unwrap_or(1).max(1);
        let shards = if threads == 1 {
            1
        } else {
            threads * SHARDS_PER_THREAD
        };
        SolverTable {
            table: ShardedTable::new(shards, budget.max_memory.map(|bytes| bytes / 4 * 3)),
            busy: BusyMarks::new(if threads == 1 { 0 } else { BUSY_MARKS }),
        }
    }
}

impl<G: Game> Solver<G> {
    pub fn new(budget: Budget) -> Self {
        Self::with_table(SolverTable::new(&budget), budget)
    }

    /// A solver searching `table`, kept from a solver of the same positions, within
    /// `budget` (the table keeps its first memory cap and number of shards, as
    /// [`Solver::set_budget`] does).
    pub fn with_table(table: SolverTable, budget: Budget) -> Self {
        Solver {
            table: table.table,
            busy: table.busy,
            budget,
            nodes: 0,
            call_start: (0, Instant::now()),
            _game: std::marker::PhantomData,
        }
    }

    /// The solver's table, for a later [`Solver::with_table`].
    pub fn into_table(self) -> SolverTable {
        SolverTable {
            table: self.table,
            busy: self.busy,
        }
    }

    /// Nodes visited since this solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The budget of the next calls (the table is kept, within its first memory cap, and
    /// so is its number of shards).
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// Solves `game`: its value and every optimal move. The budget covers the call.
    pub fn solve(&mut self, game: &G) -> Result<Solution<G::Move>, SolveError> {
        self.start_call();
        let value = self.run(|worker| worker.negamax(game, -INF, INF))?;
        let mover = game.to_move();
        let best_moves = self.moves_reaching(game, value)?;
        let (nodes, elapsed) = self.call_spent();
        Ok(Solution {
            to_move: mover,
            value,
            margin: value * mover.sign(),
            best_moves,
            nodes,
            elapsed,
        })
    }

    /// Every move of `game` that reaches `value` (the mover's), by one null-window test
    /// each; none when the game is over. Within the current call's budget.
    fn moves_reaching(&mut self, game: &G, value: i32) -> Result<Vec<G::Move>, SolveError> {
        let mut best_moves = Vec::new();
        if game.outcome().is_none() {
            let mut moves = game.legal_moves();
            game.order_moves(&mut moves);
            for mv in moves {
                if self.reaches(game, &mv, value)? {
                    best_moves.push(mv);
                }
            }
        }
        Ok(best_moves)
    }

    /// A null-window test: does `mv` reach at least `value` (the mover's)? Within the
    /// current call's budget.
    fn reaches(&mut self, game: &G, mv: &G::Move, value: i32) -> Result<bool, SolveError> {
        let mover = game.to_move();
        let mut child = game.clone();
        child.play(mv);
        let at_least = self.run(|worker| worker.child_value(&child, mover, value - 1, value))?;
        Ok(at_least >= value)
    }

    /// The value of `game` (the mover's) and one optimal move drawn uniformly at random by
    /// `rng` (none when the game is over): the moves are tested in a random order and the
    /// first to reach the value is the answer, so that each optimal move is as likely as
    /// any other, usually after far fewer null-window tests than [`Solver::solve`]'s one
    /// a move. The budget covers the call.
    pub fn value_and_best_move(
        &mut self,
        game: &G,
        rng: &mut Rng,
    ) -> Result<(i32, Option<G::Move>), SolveError> {
        self.start_call();
        let value = self.run(|worker| worker.negamax(game, -INF, INF))?;
        if game.outcome().is_some() {
            return Ok((value, None));
        }
        let mut moves = game.legal_moves();
        rng.shuffle(&mut moves);
        for mv in moves {
            if self.reaches(game, &mv, value)? {
                return Ok((value, Some(mv)));
            }
        }
        Ok((value, None))
    }

    /// Whether `mv` reaches `value`, the mover's, by one null-window test: with the
    /// position's value, whether it is an optimal move. The budget covers the call.
    pub fn move_reaches(&mut self, game: &G, mv: &G::Move, value: i32) -> Result<bool, SolveError> {
        self.start_call();
        self.reaches(game, mv, value)
    }

    /// Every move of `game` that reaches `value`, the mover's known minimax value (from
    /// [`Solver::value`] or [`margin_by_tests`]). The budget covers the call.
    pub fn best_moves(&mut self, game: &G, value: i32) -> Result<Vec<G::Move>, SolveError> {
        self.start_call();
        self.moves_reaching(game, value)
    }

    /// Whether X's final margin ([`Outcome::margin`](crate::Outcome)) under perfect play
    /// from `game` is at least `threshold`: one null-window search, which cuts far more
    /// than a full window, and whose bounds stay in the table for the next threshold. The
    /// budget covers the call.
    pub fn at_least(&mut self, game: &G, threshold: i32) -> Result<bool, SolveError> {
        self.start_call();
        self.run(|worker| match game.to_move() {
            Player::X => worker.negamax(game, threshold - 1, threshold) >= threshold,
            Player::O => -worker.negamax(game, -threshold, 1 - threshold) >= threshold,
        })
    }

    /// The exact value of every legal move, from the mover's point of view, best first.
    /// The budget covers the call.
    pub fn move_values(&mut self, game: &G) -> Result<Vec<(G::Move, i32)>, SolveError> {
        self.start_call();
        let mover = game.to_move();
        let mut values = Vec::new();
        for mv in game.legal_moves() {
            let mut child = game.clone();
            child.play(&mv);
            let v = self.run(|worker| worker.child_value(&child, mover, -INF, INF))?;
            values.push((mv, v));
        }
        values.sort_by_key(|(_, v)| -v);
        Ok(values)
    }

    /// The sign of the value of `game` for the player to move (1 a win, 0 a draw, -1 a
    /// loss): who wins, without how much. One search in the window (-1, 1), which cuts far
    /// more than the full window that finds the margin; the table's bounds it leaves help
    /// a later [`Solver::value`] or [`Solver::solve`] of the same position.
    pub fn sign(&mut self, game: &G) -> Result<i32, SolveError> {
        self.start_call();
        Ok(self.run(|worker| worker.negamax(game, -1, 1))?.signum())
    }

    /// The minimax value of `game` for the player to move.
    pub fn value(&mut self, game: &G) -> Result<i32, SolveError> {
        self.start_call();
        self.run(|worker| worker.negamax(game, -INF, INF))
    }

    /// A public call starts now: the budget covers what it spends from here.
    fn start_call(&mut self) {
        self.call_start = (self.nodes, Instant::now());
    }

    /// Nodes and time of the current call so far.
    fn call_spent(&self) -> (u64, Duration) {
        (self.nodes - self.call_start.0, self.call_start.1.elapsed())
    }

    /// One search of the current call: `search` under what is left of its budget, on
    /// [`Budget::threads`] threads sharing the table (their share of the node cap each, the
    /// time, memory and cancel flag binding them all). The first thread to finish answers and stops the others; when the budget
    /// runs out on one, they all stop and the call is `Unknown`.
    fn run<T: Send>(&mut self, search: impl Fn(&mut Worker) -> T + Sync) -> Result<T, SolveError> {
        let threads = self.budget.threads.unwrap_or(1).max(1);
        let stop = AtomicBool::new(false);
        let (spent, elapsed) = self.call_spent();
        let left = self.budget.less(spent, elapsed);
        let budget = Budget {
            max_nodes: left.max_nodes.map(|n| n.div_ceil(threads as u64)),
            ..left
        };
        let one = || {
            let mut worker = Worker {
                table: &self.table,
                busy: &self.busy,
                stop: &stop,
                meter: budget.meter(),
                line_bytes: 0,
                line_share: threads,
            };
            let value = search(&mut worker);
            let answered = !worker.stopped();
            stop.store(true, Ordering::Relaxed);
            (answered.then_some(value), worker.meter)
        };
        let ends: Vec<(Option<T>, Meter)> = if threads == 1 {
            vec![one()]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads).map(|_| scope.spawn(one)).collect();
                handles
                    .into_iter()
                    .map(|handle| {
                        handle
                            .join()
                            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                    })
                    .collect()
            })
        };
        self.nodes += ends.iter().map(|(_, meter)| meter.nodes()).sum::<u64>();
        let mut reason = None;
        for (value, meter) in ends {
            if let Some(value) = value {
                return Ok(value);
            }
            reason = reason.or(meter.exhausted());
        }
        let (nodes, elapsed) = self.call_spent();
        Err(SolveError::Unknown {
            nodes,
            elapsed,
            reason: reason.unwrap_or(Exhausted::Cancelled),
        })
    }
}

/// Marks of the moves the search threads are in: a move of a node is marked, by a hash of
/// the node's key and the move's place, while a thread searches it. A lossy set of atomics
/// (a clash makes a thread put off a move it need not have, which costs time, not truth).
struct BusyMarks(Box<[AtomicU64]>);

impl BusyMarks {
    fn new(marks: usize) -> BusyMarks {
        BusyMarks((0..marks).map(|_| AtomicU64::new(0)).collect())
    }

    fn slot(&self, mark: u64) -> &AtomicU64 {
        &self.0[mark as usize & (self.0.len() - 1)]
    }

    fn is_marked(&self, mark: u64) -> bool {
        self.slot(mark).load(Ordering::Relaxed) == mark
    }

    fn mark(&self, mark: u64) {
        self.slot(mark).store(mark, Ordering::Relaxed);
    }

    fn unmark(&self, mark: u64) {
        let _ = self
            .slot(mark)
            .compare_exchange(mark, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// One thread's search in a [`Solver`] call: its meter and the line it holds, over the
/// table (and marks) the threads share.
struct Worker<'s> {
    table: &'s ShardedTable<Entry>,
    busy: &'s BusyMarks,
    /// Raised when a thread finished or ran out: the others stop at their next node.
    stop: &'s AtomicBool,
    meter: Meter,
    /// Bytes held along the line being searched: a position and a move list per level.
    /// The table keeps within three quarters of the memory cap (it replaces entries to
    /// stay there); a search whose lines outgrow what the table leaves of the cap stops.
    line_bytes: usize,
    /// Threads holding a line each: this one's line is counted that many times.
    line_share: usize,
}

impl Worker<'_> {
    fn stopped(&self) -> bool {
        self.meter.exhausted().is_some() || self.stop.load(Ordering::Relaxed)
    }

    /// Whether several threads share the search (then moves others are in are put off).
    fn shared(&self) -> bool {
        !self.busy.0.is_empty()
    }

    /// The value of `child` for `mover`, searched in `mover`'s window `(alpha, beta)`;
    /// handles games where the same player may move twice.
    fn child_value<G: Game>(&mut self, child: &G, mover: Player, alpha: i32, beta: i32) -> i32 {
        if child.to_move() == mover {
            self.negamax(child, alpha, beta)
        } else {
            -self.negamax(child, -beta, -alpha)
        }
    }

    /// Enhanced transposition cutoff: a move whose position the table already shows to
    /// reach `beta` (the mover's) cuts the node before any child is searched, with the
    /// bound the table holds. Only in games that ask for it ([`Game::CHILDREN_LOOKED_UP_FIRST`])
    /// and at nodes of at least [`CUT_BY_CHILDREN_MOVES`] moves,
    /// whose subtrees are dear enough to repay a copy and a table probe per move.
    fn cut_by_children<G: Game>(
        &self,
        game: &G,
        moves: &[G::Move],
        beta: i32,
    ) -> Option<(i32, usize)> {
        if !G::CHILDREN_LOOKED_UP_FIRST || moves.len() < CUT_BY_CHILDREN_MOVES {
            return None;
        }
        let mover = game.to_move();
        // The children's hashes first, then the probes in a tight loop under one lock (on
        // one thread): the probes are cache misses (most of this function's time), which
        // the processor then overlaps.
        let (keys, same_mover): (Vec<u64>, Vec<bool>) = moves
            .iter()
            .map(|mv| {
                let mut child = game.clone();
                child.play(mv);
                (child.position_hash(), child.to_move() == mover)
            })
            .unzip();
        self.table.find_first(&keys, |i, entry| {
            let least = if same_mover[i] {
                entry.lower()
            } else {
                -entry.upper()
            };
            (least >= beta).then_some((least, i))
        })
    }

    fn negamax<G: Game>(&mut self, game: &G, mut alpha: i32, mut beta: i32) -> i32 {
        if self.meter.tick() || self.stop.load(Ordering::Relaxed) {
            return 0;
        }
        let nodes_before = self.meter.nodes();
        let mover = game.to_move();
        if let Some(outcome) = game.outcome() {
            return outcome.value_for(mover);
        }
        let key = game.position_hash();
        let (lower, upper, remembered) = match self.table.get(key) {
            Some(e) => (e.lower(), e.upper(), e.best()),
            None => (-INF, INF, None),
        };
        if lower >= beta || lower == upper {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);
        // Bounds that already answer the window cut the node: fail-soft, the bound itself
        // is returned (every continuation keeps it). They are read after the table, which
        // answers many positions for less than the bounds cost to work out, and asked only
        // whether they decide the window (X's view of it), which the game may settle early.
        let (low, high) = match mover {
            Player::X => (alpha, beta),
            Player::O => (-beta, -alpha),
        };
        if let Some((least, most)) = game.margin_bounds_deciding(low, high) {
            let (least, most) = match mover {
                Player::X => (least, most),
                Player::O => (-most, -least),
            };
            if least >= beta || least == most {
                return least;
            }
            if most <= alpha {
                return most;
            }
        }

        let mut moves = game.search_moves();
        let level_bytes = game.memory_bytes() + moves.len() * std::mem::size_of::<G::Move>();
        self.line_bytes += level_bytes;
        if self
            .meter
            .over_memory(self.table.bytes() + self.line_bytes * self.line_share)
        {
            return 0;
        }
        game.order_moves(&mut moves);
        let (mut best, mut best_move) = match self.cut_by_children(game, &moves, beta) {
            Some((least, i)) => (least, Some(i)),
            None => (-INF, None),
        };
        // The moves by their places in `moves` (which the table's entries name), the
        // remembered one first; with threads sharing the search, a move another thread is
        // in is put off to the end (never the first: each thread starts on the best guess).
        // Only the put-off moves are listed (one thread puts none off: no allocation).
        let first = remembered.filter(|&i| i < moves.len());
        let rest = (0..moves.len()).filter(|&i| Some(i) != first);
        let mut put_off = std::collections::VecDeque::new();
        let mut order = first.into_iter().chain(rest).enumerate();
        while best < beta {
            let i = match order.next() {
                Some((next, i)) => {
                    if self.shared() && next > 0 && self.busy.is_marked(Rng::derive(key, i as u64))
                    {
                        put_off.push_back(i);
                        continue;
                    }
                    i
                }
                None => match put_off.pop_front() {
                    Some(i) => i,
                    None => break,
                },
            };
            let v = self.search_move(game, key, &moves, i, alpha.max(best), beta);
            if self.stopped() {
                return 0;
            }
            if v > best {
                (best, best_move) = (v, Some(i));
            }
        }
        self.line_bytes -= level_bytes;
        let (lower, upper) = if best <= alpha {
            (lower, best.min(upper))
        } else if best >= beta {
            (best.max(lower), upper)
        } else {
            (best, best)
        };
        self.table.insert(
            key,
            self.meter.nodes() - nodes_before,
            Entry::new(lower, upper, best_move),
        );
        best
    }

    /// The value for the mover of playing `moves[i]` in `game` (whose key is `key`), in
    /// the window `(alpha, beta)`, with the move marked meanwhile when threads share the
    /// search.
    fn search_move<G: Game>(
        &mut self,
        game: &G,
        key: u64,
        moves: &[G::Move],
        i: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut child = game.clone();
        child.play(&moves[i]);
        if !self.shared() {
            return self.child_value(&child, game.to_move(), alpha, beta);
        }
        let mark = Rng::derive(key, i as u64);
        self.busy.mark(mark);
        let v = self.child_value(&child, game.to_move(), alpha, beta);
        self.busy.unmark(mark);
        v
    }
}

/// Solves `game` with a fresh solver.
///
/// A budget that runs out is an answer saying what was spent, not a panic:
///
/// ```
/// use crosscap_engine::budget::Exhausted;
/// use crosscap_engine::nim::Nim;
/// use crosscap_engine::{Budget, NormalPlay, SolveError, solver};
///
/// let game = NormalPlay::new(Nim::new(vec![30, 31, 32, 33]));
/// match solver::solve(&game, Budget::nodes(100)) {
///     Err(SolveError::Unknown { reason, nodes, .. }) => {
///         assert_eq!(reason, Exhausted::Nodes);
///         assert!(nodes >= 100);
///     }
///     Ok(_) => unreachable!("100 nodes cannot solve this"),
/// }
/// let small = NormalPlay::new(Nim::new(vec![1, 2, 3]));
/// assert_eq!(solver::solve(&small, Budget::nodes(100_000)).unwrap().value, -1); // a P-position
/// ```
pub fn solve<G: Game>(game: &G, budget: Budget) -> Result<Solution<G::Move>, SolveError> {
    Solver::new(budget).solve(game)
}

/// What the null-window tests proved of the margin before a budget ran out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MarginBounds {
    /// The margin is at least this.
    pub least: Option<i32>,
    /// The margin is at most this.
    pub most: Option<i32>,
}

impl MarginBounds {
    /// The winner the bounds prove (X above 0, O below, nobody when the margin is 0).
    pub fn winner(&self) -> Option<Option<Player>> {
        match (self.least, self.most) {
            (Some(least), _) if least > 0 => Some(Some(Player::X)),
            (_, Some(most)) if most < 0 => Some(Some(Player::O)),
            (Some(0), Some(0)) => Some(None),
            _ => None,
        }
    }
}

/// The exact margin (X's point of view) from null-window tests `at_least(m)`: "is the
/// margin at least `m`?". The first test is `m = 1`, who wins; then the tests climb (or
/// descend) by `step` from there, each narrowing the bounds, until one fails (or holds).
/// `step` is 1 in general, 2 for games whose margins are all odd (then `m = 1` alone
/// tells the winner, and a test that fails at `m` proves the margin at most `m - 2`). On
/// an error the bounds proven so far come with it.
pub fn margin_by_tests(
    step: i32,
    mut at_least: impl FnMut(i32) -> Result<bool, SolveError>,
) -> Result<i32, (SolveError, MarginBounds)> {
    let mut bounds = MarginBounds::default();
    let mut test = |m: i32, bounds: &mut MarginBounds| {
        let holds = at_least(m).map_err(|error| (error, *bounds))?;
        if holds {
            bounds.least = Some(m);
        } else {
            bounds.most = Some(m - step);
        }
        Ok(holds)
    };
    if test(1, &mut bounds)? {
        let mut m = 1;
        while test(m + step, &mut bounds)? {
            m += step;
        }
        Ok(m)
    } else {
        let mut m = 1 - step;
        while !test(m, &mut bounds)? {
            m -= step;
        }
        Ok(m)
    }
}

/// Plain minimax without pruning or tables: the brute-force reference that the fast
/// solver is tested against. Exponential; for small positions only.
pub fn brute_force_value<G: Game>(game: &G) -> i32 {
    let mover = game.to_move();
    if let Some(outcome) = game.outcome() {
        return outcome.value_for(mover);
    }
    game.legal_moves()
        .iter()
        .map(|mv| {
            let mut child = game.clone();
            child.play(mv);
            let v = brute_force_value(&child);
            if child.to_move() == mover { v } else { -v }
        })
        .max()
        .expect("a game that is not over has a legal move")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;

    /// A random game tree of fixed depth and branching, each leaf a margin in -4..=4, and
    /// bounds that are true but loose (or none), from a seeded hash of the path.
    #[derive(Clone, Debug)]
    struct Tree {
        path: u64,
        depth: u32,
        height: u32,
        branching: u64,
        seed: u64,
        bounded: bool,
    }

    impl Tree {
        fn new(height: u32, branching: u64, seed: u64, bounded: bool) -> Tree {
            Tree {
                path: 1,
                depth: 0,
                height,
                branching,
                seed,
                bounded,
            }
        }

        fn leaf(&self, path: u64) -> i32 {
            (crate::Rng::derive(self.seed, path) % 9) as i32 - 4
        }

        /// Every leaf margin below this node.
        fn leaves(&self) -> Vec<i32> {
            let below = self.height - self.depth;
            let first = self.path * self.branching.pow(below);
            let count = self.branching.pow(below);
            (first..first + count).map(|p| self.leaf(p)).collect()
        }
    }

    impl Game for Tree {
        type Move = u64;

        fn to_move(&self) -> Player {
            if self.depth.is_multiple_of(2) {
                Player::X
            } else {
                Player::O
            }
        }

        fn legal_moves(&self) -> Vec<u64> {
            if self.depth == self.height {
                Vec::new()
            } else {
                (0..self.branching).collect()
            }
        }

        fn play(&mut self, mv: &u64) {
            self.path = self.path * self.branching + mv;
            self.depth += 1;
        }

        fn outcome(&self) -> Option<Outcome> {
            (self.depth == self.height).then(|| {
                let margin = self.leaf(self.path);
                Outcome::scored(margin, Player::X.winner_by(margin))
            })
        }

        fn position_hash(&self) -> u64 {
            crate::Rng::derive(self.path, u64::from(self.depth))
        }

        const CHILDREN_LOOKED_UP_FIRST: bool = true;

        fn margin_bounds(&self) -> Option<(i32, i32)> {
            if !self.bounded {
                return None;
            }
            let leaves = self.leaves();
            let (least, most) = (*leaves.iter().min()?, *leaves.iter().max()?);
            Some((least - 1, most + 1))
        }
    }

    #[test]
    fn null_window_tests_agree_with_minimax_on_random_trees() {
        for seed in 0..40 {
            for bounded in [false, true] {
                // Odd heights: O moves last, and X's margin is -value at O's turn. Eight
                // moves a node: the children's table entries are looked up first.
                for (height, branching) in [(4, 3), (5, 3), (3, 8), (4, 8)] {
                    let tree = Tree::new(height, branching, seed, bounded);
                    let expected = brute_force_value(&tree);
                    let mut solver = Solver::new(Budget::unlimited());
                    for m in -5..=5 {
                        assert_eq!(
                            solver.at_least(&tree, m).unwrap(),
                            expected >= m,
                            "seed {seed}, m {m}"
                        );
                    }
                    let margin = margin_by_tests(1, |m| solver.at_least(&tree, m)).unwrap();
                    assert_eq!(margin, expected, "seed {seed}");
                    let full = solve(&tree, Budget::unlimited()).unwrap();
                    assert_eq!(full.value, expected);
                    assert_eq!(solver.best_moves(&tree, margin).unwrap(), full.best_moves);
                }
            }
        }
    }

    /// The one best move drawn at random is always among every best move, and over seeds
    /// each best move is drawn (the random trees, whose leaves tie often).
    #[test]
    fn a_random_best_move_is_a_best_move_and_any_of_them() {
        for seed in 0..30 {
            for (height, branching) in [(3, 4), (4, 3), (2, 8)] {
                let tree = Tree::new(height, branching, seed, false);
                let full = solve(&tree, Budget::unlimited()).unwrap();
                let mut drawn = Vec::new();
                for draw in 0..40 {
                    let mut solver = Solver::new(Budget::unlimited());
                    let (value, best) = solver
                        .value_and_best_move(&tree, &mut Rng::new(draw))
                        .unwrap();
                    assert_eq!(value, full.value, "seed {seed}");
                    let best = best.unwrap();
                    assert!(full.best_moves.contains(&best), "seed {seed}");
                    if !drawn.contains(&best) {
                        drawn.push(best);
                    }
                }
                assert_eq!(drawn.len(), full.best_moves.len(), "seed {seed}");
            }
        }
    }

    /// Two threads sharing the table answer as one does: the tests, the margin, the
    /// value and the best moves, on the random trees (with and without the children's
    /// look-up and bounds) and on Nim.
    #[test]
    fn threads_agree_with_one_thread() {
        let two = || Budget::unlimited().with_threads(2);
        for seed in 0..12 {
            for bounded in [false, true] {
                for (height, branching) in [(5, 3), (4, 8), (6, 4)] {
                    let tree = Tree::new(height, branching, seed, bounded);
                    let one = solve(&tree, Budget::unlimited()).unwrap();
                    let mut parallel = Solver::new(two());
                    for m in -5..=5 {
                        let holds = Solver::new(Budget::unlimited()).at_least(&tree, m).unwrap();
                        assert_eq!(parallel.at_least(&tree, m).unwrap(), holds, "seed {seed}");
                    }
                    let margin = margin_by_tests(1, |m| parallel.at_least(&tree, m)).unwrap();
                    assert_eq!(margin, one.margin, "seed {seed}");
                    let both = Solver::new(two()).solve(&tree).unwrap();
                    assert_eq!((both.value, both.best_moves), (one.value, one.best_moves));
                }
            }
        }
        for heaps in [vec![1, 2, 3], vec![2, 3, 4, 5], vec![3, 3, 5, 6]] {
            let game = crate::NormalPlay::new(crate::nim::Nim::new(heaps));
            let one = Solver::new(Budget::unlimited()).move_values(&game).unwrap();
            let both = Solver::new(two()).move_values(&game).unwrap();
            assert_eq!(both, one);
        }
    }

    /// A tree far too big to solve: every limit stops both threads, and the call says
    /// which ran out.
    #[test]
    fn a_budget_binds_on_every_thread() {
        let huge = Tree::new(20, 8, 1, false);
        let two = Budget::unlimited().with_threads(2);
        let reason = |budget: Budget| {
            let SolveError::Unknown { reason, nodes, .. } =
                Solver::new(budget).at_least(&huge, 0).unwrap_err();
            (reason, nodes)
        };
        let (by_nodes, nodes) = reason(two.clone().with_nodes(10_000));
        assert_eq!(by_nodes, Exhausted::Nodes);
        assert!(nodes <= 10_002, "{nodes} nodes for a cap of 10,000");
        let by_time = reason(two.clone().with_time(Duration::from_millis(30))).0;
        assert_eq!(by_time, Exhausted::Time);
        let cancel = crate::Cancel::new();
        let by_cancel = std::thread::scope(|scope| {
            let raised = cancel.clone();
            scope.spawn(move || {
                std::thread::sleep(Duration::from_millis(30));
                raised.cancel();
            });
            reason(two.with_cancel(cancel.clone())).0
        });
        assert_eq!(by_cancel, Exhausted::Cancelled);
    }

    #[test]
    fn a_budget_that_runs_out_keeps_the_bounds_proven() {
        let tree = Tree::new(8, 3, 3, false);
        let expected = brute_force_value(&tree);
        let mut partial = 0;
        for max_nodes in (1..=40).map(|i| 25 * i * i) {
            // One budget for every test, each reusing the table of those before.
            let total = Budget::nodes(max_nodes);
            let mut search = Solver::new(total.clone());
            match margin_by_tests(1, |m| {
                search.set_budget(total.less(search.nodes(), Duration::ZERO));
                search.at_least(&tree, m)
            }) {
                Ok(margin) => assert_eq!(margin, expected),
                Err((SolveError::Unknown { .. }, bounds)) => {
                    assert!(bounds.least.is_none_or(|least| least <= expected));
                    assert!(bounds.most.is_none_or(|most| most >= expected));
                    partial += usize::from(bounds != MarginBounds::default());
                }
            }
        }
        assert!(partial > 0, "some budget ran out after a test was answered");
        // Odd margins (step 2): the first test failing proves O the winner.
        let cut = margin_by_tests(2, |m| match m {
            1 => Ok(false),
            _ => Err(SolveError::Unknown {
                nodes: 0,
                elapsed: Duration::ZERO,
                reason: Exhausted::Nodes,
            }),
        });
        let Err((_, bounds)) = cut else {
            panic!("the second test ran out")
        };
        assert_eq!(bounds.most, Some(-1));
        assert_eq!(bounds.winner(), Some(Some(Player::O)));
        let won = MarginBounds {
            least: Some(1),
            most: None,
        };
        assert_eq!(won.winner(), Some(Some(Player::X)));
        assert_eq!(MarginBounds::default().winner(), None);
    }
}
