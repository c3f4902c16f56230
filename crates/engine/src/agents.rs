//! Computer players, and the named strength levels shared by every game.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::Serialize;

use crate::budget::{Budget, Exhausted};
use crate::game::Game;
use crate::mcts::{Mcts, MctsConfig, SearchLimit};
use crate::rng::Rng;
use crate::solver::{SolveError, Solver, SolverTable};

/// A computer player.
pub trait Agent<G: Game>: Send {
    /// A short description, e.g. `flatmc:160`.
    fn name(&self) -> String;

    /// The move to play, or `None` when the game is over. The agent thinks within its
    /// level and within `budget`; when the budget runs out (or is cancelled) it still
    /// answers a legal move, the best it found so far.
    fn choose(&mut self, game: &G, budget: &Budget) -> Option<G::Move>;

    /// Whether the move last chosen is proven optimal by an exact solve of its position (a
    /// best move of a solved position: with perfect play, nothing does better), and then
    /// what that position is worth to its mover. Only perfect players ever say so, and
    /// they not when they fell back on a search.
    fn proven(&self) -> Option<Proven> {
        None
    }

    /// Why the move last chosen is not proven, from a perfect player that played another
    /// move than a proven one ([`Unproven`]); `None` when it is proven, and from players
    /// that never prove their moves.
    fn unproven(&self) -> Option<Unproven> {
        None
    }
}

/// Why a perfect player's move is not proven optimal: the position was out of its
/// search's [`Reach`], so only a short probe was tried, or the search or the game's
/// knowledge stopped without an answer ([`Exhausted`]: a limit of the budget ran out, or
/// the position is beyond a fixed limit of the game's exact analysis). In JSON
/// `"out of reach"`, or the limit's own name (`"time"`, `"beyond"`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unproven {
    OutOfReach,
    Stopped(Exhausted),
}

impl Serialize for Unproven {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Unproven::OutOfReach => serializer.serialize_str("out of reach"),
            Unproven::Stopped(limit) => limit.serialize(serializer),
        }
    }
}

/// What an exact solve proved a position worth to the player to move, with perfect play
/// from both sides. A hint's move in a lost position is still optimal (every move loses,
/// or it loses by the least), and a player should hear that the position is lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Proven {
    Win,
    Draw,
    Loss,
}

impl Proven {
    /// From whether the mover wins, in a game without draws.
    pub fn winning(mover_wins: bool) -> Proven {
        if mover_wins {
            Proven::Win
        } else {
            Proven::Loss
        }
    }

    /// From a solved value, the mover's margin.
    pub fn of_value(value: i32) -> Proven {
        match value.signum() {
            1 => Proven::Win,
            0 => Proven::Draw,
            _ => Proven::Loss,
        }
    }
}

/// Plays a uniformly random legal move.
pub struct RandomAgent {
    rng: Rng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: Rng::new(seed),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, game: &G, _budget: &Budget) -> Option<G::Move> {
        game.random_move(&mut self.rng)
    }
}

/// Flat Monte Carlo: for each legal move, `playouts` random playouts; the move with the
/// best win rate is played. The method of the Euler Getter web app, our baseline. Cut
/// short by its budget, it plays the best win rate among the moves tried.
pub struct FlatMonteCarlo {
    playouts: u32,
    rng: Rng,
}

impl FlatMonteCarlo {
    pub fn new(playouts: u32, seed: u64) -> Self {
        FlatMonteCarlo {
            playouts: playouts.max(1),
            rng: Rng::new(seed),
        }
    }
}

impl<G: Game> Agent<G> for FlatMonteCarlo {
    fn name(&self) -> String {
        format!("flatmc:{}", self.playouts)
    }

    fn choose(&mut self, game: &G, budget: &Budget) -> Option<G::Move> {
        let mover = game.to_move();
        let mut meter = budget.meter();
        let mut best: Option<(f64, G::Move)> = None;
        for mv in game.legal_moves() {
            if best.is_some() && meter.exhausted().is_some() {
                break;
            }
            let mut wins = 0.0;
            let mut played = 0.0;
            for _ in 0..self.playouts {
                if played > 0.0 && meter.tick() {
                    break;
                }
                let mut g = game.clone();
                g.play(&mv);
                let Some(outcome) = g.playout(&mut self.rng, &mut meter) else {
                    break;
                };
                played += 1.0;
                wins += match outcome.winner {
                    Some(w) if w == mover => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
            }
            let rate = if played > 0.0 {
                wins / played
            } else {
                f64::NEG_INFINITY
            };
            if best.as_ref().is_none_or(|(b, _)| rate > *b) {
                best = Some((rate, mv));
            }
        }
        best.map(|(_, mv)| mv)
    }
}

/// Whether a position is within the exact solver's reach: a game's own measure of how
/// much is left to play, set from what its solver proves within [`PERFECT_TIME`].
pub type Reach<G> = Box<dyn Fn(&G) -> bool + Send>;

/// What a perfect player asks of an exact search, within `budget`.
pub trait ExactSearch<G: Game>: Send {
    /// The value of a position for its mover and one optimal move drawn by `rng` (none
    /// when the game is over).
    fn value_and_best_move(
        &mut self,
        game: &G,
        budget: Budget,
        rng: &mut Rng,
    ) -> Result<(i32, Option<G::Move>), SolveError>;

    /// Whether `mv` keeps the mover's `value`: with the position's value, whether it is
    /// an optimal move.
    fn reaches(
        &mut self,
        game: &G,
        mv: &G::Move,
        value: i32,
        budget: Budget,
    ) -> Result<bool, SolveError>;
}

/// The engine's solver, its table kept from one move to the next: a game's later
/// positions are among those the first solve went through, and the table's bounds hold
/// whatever budget found them. Only the table is kept, so the positions searched may
/// borrow what the caller keeps (Euler Getter's compact positions borrow their board);
/// they must be of one game throughout.
#[derive(Default)]
pub struct KeptSolver(Option<SolverTable>);

impl KeptSolver {
    /// Runs `search` on a solver of the kept table within `budget`, and keeps its table.
    fn with_solver<G: Game, R>(
        &mut self,
        budget: Budget,
        search: impl FnOnce(&mut Solver<G>) -> R,
    ) -> R {
        let mut solver = match self.0.take() {
            Some(table) => Solver::with_table(table, budget),
            None => Solver::new(budget),
        };
        let found = search(&mut solver);
        self.0 = Some(solver.into_table());
        found
    }
}

impl<G: Game> ExactSearch<G> for KeptSolver {
    fn value_and_best_move(
        &mut self,
        game: &G,
        budget: Budget,
        rng: &mut Rng,
    ) -> Result<(i32, Option<G::Move>), SolveError> {
        self.with_solver(budget, |solver| solver.value_and_best_move(game, rng))
    }

    fn reaches(
        &mut self,
        game: &G,
        mv: &G::Move,
        value: i32,
        budget: Budget,
    ) -> Result<bool, SolveError> {
        self.with_solver(budget, |solver| solver.move_reaches(game, mv, value))
    }
}

/// Plays an optimal move found by an exact search (a random one among equals, so that
/// games vary with the seed, found without testing every move:
/// [`Solver::value_and_best_move`]); falls back to another agent when the budget runs out, and
/// on a position out of the search's [`Reach`] after a probe of
/// [`OUT_OF_REACH_PROBE_NODES`] (a player would otherwise wait the whole budget for the
/// fallback's move). In a lost position it plays the fallback's move where that loses no
/// worse: every move of a lost win/loss game is optimal, and a random one gives up where
/// the fallback's makes the winner find the win. The search is the engine's solver on the
/// game ([`KeptSolver`]) unless a game gives its own ([`PerfectAgent::searching`]).
pub struct PerfectAgent<G: Game> {
    budget: Budget,
    search: Box<dyn ExactSearch<G>>,
    fallback: Box<dyn Agent<G>>,
    reach: Option<Reach<G>>,
    rng: Rng,
    proven: Option<Proven>,
    unproven: Option<Unproven>,
}

impl<G: Game> PerfectAgent<G> {
    pub fn new(budget: Budget, fallback: Box<dyn Agent<G>>, seed: u64) -> Self {
        PerfectAgent {
            budget,
            search: Box::new(KeptSolver::default()),
            fallback,
            reach: None,
            rng: Rng::new(seed),
            proven: None,
            unproven: None,
        }
    }

    /// The `perfect` level: the search within [`PERFECT_NODE_BUDGET`] and
    /// [`PERFECT_TIME`], then `fallback`.
    pub fn standard(fallback: Box<dyn Agent<G>>, seed: u64) -> Self {
        PerfectAgent::new(
            Budget::nodes(PERFECT_NODE_BUDGET).with_time(PERFECT_TIME),
            fallback,
            seed,
        )
    }

    /// The same player, trying its search only on positions within `reach`.
    pub fn within(self, reach: Reach<G>) -> Self {
        PerfectAgent {
            reach: Some(reach),
            ..self
        }
    }

    /// The same player with the exact search `search` instead of the engine's solver on
    /// the game (a faster representation of the game's positions, say).
    pub fn searching(self, search: Box<dyn ExactSearch<G>>) -> Self {
        PerfectAgent { search, ..self }
    }
}

impl<G: Game> Agent<G> for PerfectAgent<G> {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn choose(&mut self, game: &G, budget: &Budget) -> Option<G::Move> {
        if game.outcome().is_some() {
            return None;
        }
        self.unproven = None;
        // Out of reach, a probe of a fixed number of nodes still settles the positions a
        // game's measure of reach misses (a seeded game plays alike on every run).
        let within = self.reach.as_ref().is_none_or(|reach| reach(game));
        let own = if within {
            self.budget.clone()
        } else {
            Budget::nodes(OUT_OF_REACH_PROBE_NODES)
        };
        let clock = std::time::Instant::now();
        let budget_now = solver_budget(own.clone(), budget);
        match self
            .search
            .value_and_best_move(game, budget_now, &mut self.rng)
        {
            Ok((value, Some(best))) if value < 0 => {
                self.proven = Some(Proven::of_value(value));
                let left = |spent| budget.less(0, spent);
                let theirs = self
                    .fallback
                    .choose(game, &lost_position_budget(&left(clock.elapsed())))
                    .filter(|theirs| {
                        let spent = clock.elapsed();
                        let test = own.less(0, spent).within(&left(spent));
                        matches!(self.search.reaches(game, theirs, value, test), Ok(true))
                    });
                Some(theirs.unwrap_or(best))
            }
            Ok((value, Some(best))) => {
                self.proven = Some(Proven::of_value(value));
                Some(best)
            }
            found => {
                self.proven = None;
                if let Err(SolveError::Unknown { reason, .. }) = found {
                    self.unproven = Some(if within {
                        Unproven::Stopped(reason)
                    } else {
                        Unproven::OutOfReach
                    });
                }
                self.fallback.choose(game, &budget.less(0, clock.elapsed()))
            }
        }
    }

    fn proven(&self) -> Option<Proven> {
        self.proven
    }

    fn unproven(&self) -> Option<Unproven> {
        self.unproven
    }
}

/// What a [`KnownWins`] agent knows: the winning moves of a position (none when it is
/// lost), or why the knowledge does not reach it within the budget (its move is then
/// unproven for that reason: [`Exhausted::Beyond`] past a fixed limit of the knowledge,
/// [`Exhausted::Memory`] where the budget's memory would not hold it).
pub type WinningMoves<G> =
    Box<dyn FnMut(&G, &Budget) -> Result<Vec<<G as Game>::Move>, Exhausted> + Send>;

/// Perfect play from exact knowledge of a game's winning moves (a theory, tables, a
/// series) rather than a search, written once for every game that has such knowledge: a
/// winning move at random (seeded); from a lost position, where every move loses alike,
/// the fallback's move, which makes the winner find the win; where the knowledge does not
/// reach, the fallback's move, unproven.
pub struct KnownWins<G: Game> {
    winning_moves: WinningMoves<G>,
    fallback: Box<dyn Agent<G>>,
    rng: Rng,
    proven: Option<Proven>,
    unproven: Option<Unproven>,
}

impl<G: Game> KnownWins<G> {
    pub fn new(winning_moves: WinningMoves<G>, fallback: Box<dyn Agent<G>>, seed: u64) -> Self {
        KnownWins {
            winning_moves,
            fallback,
            rng: Rng::new(seed),
            proven: None,
            unproven: None,
        }
    }
}

impl<G: Game> Agent<G> for KnownWins<G> {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn choose(&mut self, game: &G, budget: &Budget) -> Option<G::Move> {
        if game.outcome().is_some() {
            return None;
        }
        let winning = match (self.winning_moves)(game, budget) {
            Ok(winning) => winning,
            Err(reason) => {
                let chosen = self.fallback.choose(game, budget);
                self.proven = self.fallback.proven();
                // A fallback that tried to prove its move says why it did not itself.
                self.unproven = match self.proven {
                    Some(_) => None,
                    None => Some(
                        self.fallback
                            .unproven()
                            .unwrap_or(Unproven::Stopped(reason)),
                    ),
                };
                return chosen;
            }
        };
        self.proven = Some(Proven::winning(!winning.is_empty()));
        self.unproven = None;
        if winning.is_empty() {
            return self.fallback.choose(game, &lost_position_budget(budget));
        }
        Some(winning[self.rng.below(winning.len())].clone())
    }

    fn proven(&self) -> Option<Proven> {
        self.proven
    }

    fn unproven(&self) -> Option<Unproven> {
        self.unproven
    }
}

/// An agent shown under its level's name (`expert` rather than `mcts:1500ms`).
pub struct Named<G: Game> {
    name: String,
    inner: Box<dyn Agent<G>>,
}

impl<G: Game + 'static> Named<G> {
    /// `inner` under the name of `level`.
    pub fn boxed(level: Level, inner: Box<dyn Agent<G>>) -> Box<dyn Agent<G>> {
        Box::new(Named {
            name: level.to_string(),
            inner,
        })
    }
}

impl<G: Game> Agent<G> for Named<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &G, budget: &Budget) -> Option<G::Move> {
        self.inner.choose(game, budget)
    }

    fn proven(&self) -> Option<Proven> {
        self.inner.proven()
    }

    fn unproven(&self) -> Option<Unproven> {
        self.inner.unproven()
    }
}

/// The named strength levels every game offers. The MCTS levels `easy` … `expert` are
/// times per move, so that a level means the same wait on every board; `mcts:N` counts
/// iterations instead, which a seed reproduces exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    Random,
    Easy,
    Medium,
    Hard,
    Expert,
    /// The exact solver, where the game is solved exactly.
    Perfect,
    /// Flat Monte Carlo with this many playouts per legal move (the baseline).
    FlatMc(u32),
    /// MCTS with this many iterations.
    Mcts(u64),
    /// MCTS for this many milliseconds per move (`mcts:500ms`).
    MctsMs(u64),
    /// `plain:mcts:N`: MCTS with this many iterations and every search switch of the
    /// strength work (issue #21) off, the game's baseline settings, so that a new search
    /// can be measured against the old one in one binary.
    PlainMcts(u64),
    /// `plain:mcts:Nms`, or `plain:` before a named level (`plain:expert` thinks 1.5 s):
    /// [`Level::PlainMcts`] for a time per move.
    PlainMctsMs(u64),
}

/// The text named no level.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown level {0:?}: expected easy, medium, hard, expert, perfect, random, flatmc:N, mcts:N, mcts:Nms or plain:LEVEL (an MCTS level with the new search switches off)"
)]
pub struct LevelError(pub String);

impl FromStr for Level {
    type Err = LevelError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || LevelError(s.to_string());
        let number = |rest: &str| rest.parse::<u64>().ok().filter(|&n| n > 0);
        Ok(match s.trim() {
            "random" => Level::Random,
            "easy" => Level::Easy,
            "medium" => Level::Medium,
            "hard" => Level::Hard,
            "expert" => Level::Expert,
            "perfect" => Level::Perfect,
            other => {
                if let Some(rest) = other.strip_prefix("flatmc:") {
                    let n = number(rest)
                        .filter(|&n| n <= u32::MAX as u64)
                        .ok_or_else(err)?;
                    Level::FlatMc(n as u32)
                } else if let Some(rest) = other.strip_prefix("plain:") {
                    match rest.parse::<Level>().map_err(|_| err())? {
                        Level::Mcts(n) => Level::PlainMcts(n),
                        timed @ (Level::Easy
                        | Level::Medium
                        | Level::Hard
                        | Level::Expert
                        | Level::MctsMs(_)) => {
                            Level::PlainMctsMs(timed.think_ms().ok_or_else(err)?)
                        }
                        _ => return Err(err()),
                    }
                } else if let Some(rest) = other.strip_prefix("mcts:") {
                    match rest.strip_suffix("ms") {
                        Some(ms) => Level::MctsMs(number(ms).ok_or_else(err)?),
                        None => Level::Mcts(number(rest).ok_or_else(err)?),
                    }
                } else {
                    return Err(err());
                }
            }
        })
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Level::Random => write!(f, "random"),
            Level::Easy => write!(f, "easy"),
            Level::Medium => write!(f, "medium"),
            Level::Hard => write!(f, "hard"),
            Level::Expert => write!(f, "expert"),
            Level::Perfect => write!(f, "perfect"),
            Level::FlatMc(n) => write!(f, "flatmc:{n}"),
            Level::Mcts(n) => write!(f, "mcts:{n}"),
            Level::MctsMs(ms) => write!(f, "mcts:{ms}ms"),
            Level::PlainMcts(n) => write!(f, "plain:mcts:{n}"),
            Level::PlainMctsMs(ms) => write!(f, "plain:mcts:{ms}ms"),
        }
    }
}

impl Level {
    /// Thinking time per move of the named MCTS levels, in milliseconds: `easy` thinks
    /// 10 ms (a few hundred iterations on a board of 50 to 100 cells, beatable by a
    /// beginner), `medium` 60 ms, `hard` 400 ms and `expert` 1.5 s.
    pub fn think_ms(self) -> Option<u64> {
        match self {
            Level::Easy => Some(10),
            Level::Medium => Some(60),
            Level::Hard => Some(400),
            Level::Expert => Some(EXPERT_MS),
            Level::MctsMs(ms) | Level::PlainMctsMs(ms) => Some(ms),
            _ => None,
        }
    }

    /// When an MCTS level stops: after its time, or after `mcts:N`'s iterations; `None`
    /// for the levels that are not MCTS.
    pub fn search_limit(self) -> Option<SearchLimit> {
        match self {
            Level::Mcts(n) | Level::PlainMcts(n) => Some(SearchLimit::Iterations(n)),
            timed => timed
                .think_ms()
                .map(|ms| SearchLimit::Time(Duration::from_millis(ms))),
        }
    }

    /// Whether the level searches with MCTS, so that it can search on several threads
    /// ([`crate::mcts::with_search_threads`]): the MCTS levels, and `perfect` for the
    /// expert it falls back to. `random` and `flatmc:N` (the frozen baseline) play on
    /// one thread.
    pub fn uses_threads(self) -> bool {
        self.search_limit().is_some() || self == Level::Perfect
    }

    /// The level with its time per move set to `think` (`--think-ms`): a timed MCTS level
    /// becomes `mcts:Nms`; the others keep their own limit (a host bounds their moves by
    /// `think` through the budget).
    pub fn with_think_time(self, think: Duration) -> Level {
        let ms = (think.as_millis() as u64).max(1);
        match self {
            Level::PlainMctsMs(_) => Level::PlainMctsMs(ms),
            timed if timed.think_ms().is_some() => Level::MctsMs(ms),
            other => other,
        }
    }

    /// Whether the level searches with every search switch of issue #21 off
    /// (`plain:LEVEL`): a game with such switches plays it with its baseline settings.
    pub fn is_plain(self) -> bool {
        matches!(self, Level::PlainMcts(_) | Level::PlainMctsMs(_))
    }

    /// The iterations of an iteration-budget MCTS level (`mcts:N`, `plain:mcts:N`), which
    /// hosts bound.
    pub fn mcts_iterations(self) -> Option<u64> {
        match self {
            Level::Mcts(n) | Level::PlainMcts(n) => Some(n),
            _ => None,
        }
    }
}

/// The most iterations a host should allow `mcts:N` (the server's and the CLI's default
/// limit).
pub const MAX_MCTS_ITERATIONS: u64 = 1_000_000;

/// The most playouts per legal move a host should allow `flatmc:N` (the server's and the
/// CLI's default limit).
pub const MAX_FLATMC_PLAYOUTS: u32 = 20_000;

/// Node budget of the `perfect` level before it falls back to `expert`.
pub const PERFECT_NODE_BUDGET: u64 = 20_000_000;

/// Nodes a `perfect` player's search may spend on a position out of its [`Reach`] before
/// it plays its fallback's move: a tenth of a second or so, enough for the complete
/// graphs of the sandpile game, whose room puts them out of reach though they end fast.
pub const OUT_OF_REACH_PROBE_NODES: u64 = 50_000;

/// Time budget of the `perfect` level's solver before it falls back to `expert`.
pub const PERFECT_TIME: Duration = Duration::from_secs(30);

/// The solver time of a `perfect` computer whose previous move in the same game was its
/// fallback's (the solve ran out): a position a stone or two smaller seldom comes within
/// the full budget's reach, so a short try keeps a player from waiting the whole budget at
/// every move; a proven move gives the next one the full budget again.
pub const PERFECT_RETRY_TIME: Duration = Duration::from_secs(4);

/// The most iterations of a perfect player's fallback search in a lost position, where
/// its move only makes the winner work: a search of fixed size, so that `perfect` with a
/// seed plays the same moves on every run (where the fallback's own time does not bind
/// first: 50,000 iterations take a third of a second or less on Euler Getter's,
/// Projective Hex's and the sandpile game's small boards, where `expert` thinks 1.5 s).
pub const LOST_POSITION_ITERATIONS: u64 = 50_000;

/// The budget of a perfect player's fallback in a lost position: the caller's, within
/// [`LOST_POSITION_ITERATIONS`].
fn lost_position_budget(caller: &Budget) -> Budget {
    caller.within(&Budget::nodes(LOST_POSITION_ITERATIONS))
}

/// The time a perfect player's solver leaves its fallback when the caller's budget is the
/// shorter (a hint that must answer before the server's wait): the expert's think time, so
/// that past the solver's reach the move is still searched as long as `expert` searches.
pub const FALLBACK_RESERVE: Duration = Duration::from_millis(EXPERT_MS);

/// `expert`'s think time per move, in milliseconds.
const EXPERT_MS: u64 = 1_500;

/// The budget of a perfect player's solver: its own, within the caller's less the
/// fallback's reserve.
pub fn solver_budget(own: Budget, caller: &Budget) -> Budget {
    own.within(&caller.less(0, FALLBACK_RESERVE))
}

/// The `perfect` level: the solver within [`PERFECT_NODE_BUDGET`] and [`PERFECT_TIME`],
/// falling back to `expert` MCTS with `config`.
pub fn perfect_agent<G: Game + 'static>(config: MctsConfig, seed: u64) -> PerfectAgent<G> {
    PerfectAgent::standard(standard_agent(Level::Expert, config, seed), seed)
}

/// The standard agent for a level: MCTS with `config` for the named levels, the solver
/// for `perfect` (falling back to expert MCTS), flat Monte Carlo and random as named.
pub fn standard_agent<G: Game + 'static>(
    level: Level,
    config: MctsConfig,
    seed: u64,
) -> Box<dyn Agent<G>> {
    match level {
        Level::Random => Box::new(RandomAgent::new(seed)),
        Level::FlatMc(n) => Box::new(FlatMonteCarlo::new(n, seed)),
        Level::Perfect => Box::new(perfect_agent(config, seed)),
        mcts => Named::boxed(
            mcts,
            Box::new(Mcts::new(
                mcts.search_limit().unwrap_or(SearchLimit::Iterations(1)),
                config,
                seed,
            )),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impartial::NormalPlay;
    use crate::nim::{Nim, NimMove};
    use crate::{Outcome, Player};
    use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};

    /// The baseline is frozen: uniformly random playouts and the best win rate. Its move
    /// for this seed and position must not change whatever the searches' own playouts
    /// become (a change here changes every strength figure measured against it).
    #[test]
    fn flat_monte_carlo_is_frozen() {
        let game = NormalPlay::new(Nim::new(vec![3, 4, 5, 6, 7]));
        let mut flat = FlatMonteCarlo::new(160, 2027);
        let mv = flat.choose(&game, &Budget::unlimited());
        assert_eq!(mv, Some(NimMove { heap: 4, to: 2 }));
    }

    /// The solver's table outlives a move: a position the first solve went through is
    /// proven again within a budget that a fresh solver cannot prove it in.
    #[test]
    fn the_perfect_agent_keeps_what_its_solver_learnt() {
        let fallback = || Box::new(RandomAgent::new(1));
        let game = NormalPlay::new(Nim::new(vec![3, 4, 5]));
        let mut later = game.clone();
        later.play(&NimMove { heap: 0, to: 1 });
        later.play(&NimMove { heap: 2, to: 2 });
        // From nothing it takes 94 nodes; after the first position's solve, 21.
        let small = Budget::nodes(40);
        let mut fresh = PerfectAgent::new(Budget::unlimited(), fallback(), 1);
        assert!(fresh.choose(&later, &small).is_some());
        assert_eq!(
            fresh.proven(),
            None,
            "40 nodes do not solve it from nothing"
        );
        let mut warm = PerfectAgent::new(Budget::unlimited(), fallback(), 1);
        assert!(warm.choose(&game, &Budget::unlimited()).is_some());
        assert!(warm.choose(&later, &small).is_some());
        assert_eq!(warm.proven(), Some(Proven::Win));
    }

    /// The perfect agent says its move is proven when its solver finished, with what the
    /// position is worth to its mover (won at 3 4 5, lost at 1 2 3), not when a budget too
    /// small for the solve left the move to its fallback.
    #[test]
    fn the_perfect_agent_says_when_its_move_is_proven() {
        let fallback = || Box::new(RandomAgent::new(1));
        let won = NormalPlay::new(Nim::new(vec![3, 4, 5]));
        let mut solved = PerfectAgent::new(Budget::unlimited(), fallback(), 1);
        assert_eq!(
            solved.choose(&won, &Budget::unlimited()),
            Some(NimMove { heap: 0, to: 1 })
        );
        assert_eq!(solved.proven(), Some(Proven::Win));
        let lost = NormalPlay::new(Nim::new(vec![1, 2, 3]));
        assert!(solved.choose(&lost, &Budget::unlimited()).is_some());
        assert_eq!(solved.proven(), Some(Proven::Loss));
        assert_eq!(solved.unproven(), None);
        let mut cut_short = PerfectAgent::new(Budget::nodes(1), fallback(), 1);
        assert!(cut_short.choose(&won, &Budget::unlimited()).is_some());
        assert_eq!(cut_short.proven(), None);
        assert_eq!(
            cut_short.unproven(),
            Some(Unproven::Stopped(Exhausted::Nodes)),
            "says which limit ran out"
        );
        let mut flat = FlatMonteCarlo::new(10, 1);
        assert!(flat.choose(&won, &Budget::unlimited()).is_some());
        assert_eq!(Agent::<NormalPlay<Nim>>::proven(&flat), None);
        assert_eq!(Agent::<NormalPlay<Nim>>::unproven(&flat), None);
    }

    /// Out of its reach the perfect agent probes: a position the probe settles is played
    /// proven, any other gets the fallback's move, unproven as out of reach; within its
    /// reach, the search's.
    #[test]
    fn the_perfect_agent_only_probes_out_of_its_reach() {
        /// The engine's solver, counting its calls.
        struct Counted(KeptSolver, std::sync::Arc<AtomicUsize>);
        impl ExactSearch<NormalPlay<Nim>> for Counted {
            fn value_and_best_move(
                &mut self,
                game: &NormalPlay<Nim>,
                budget: Budget,
                rng: &mut Rng,
            ) -> Result<(i32, Option<NimMove>), SolveError> {
                self.1.fetch_add(1, AtomicOrdering::Relaxed);
                self.0.value_and_best_move(game, budget, rng)
            }

            fn reaches(
                &mut self,
                game: &NormalPlay<Nim>,
                mv: &NimMove,
                value: i32,
                budget: Budget,
            ) -> Result<bool, SolveError> {
                self.0.reaches(game, mv, value, budget)
            }
        }
        let calls = std::sync::Arc::new(AtomicUsize::new(0));
        let reach: Reach<NormalPlay<Nim>> =
            Box::new(|game| game.position.heaps.iter().sum::<u32>() <= 6);
        let mut perfect = PerfectAgent::new(Budget::unlimited(), Box::new(RandomAgent::new(1)), 1)
            .searching(Box::new(Counted(KeptSolver::default(), calls.clone())))
            .within(reach);
        let far = NormalPlay::new(Nim::new(vec![20, 21, 22, 23, 24]));
        let clock = std::time::Instant::now();
        assert!(perfect.choose(&far, &Budget::unlimited()).is_some());
        assert_eq!(perfect.proven(), None);
        assert_eq!(perfect.unproven(), Some(Unproven::OutOfReach));
        assert_eq!(calls.load(AtomicOrdering::Relaxed), 1, "one probe");
        assert!(
            clock.elapsed() < Duration::from_secs(20),
            "not the whole budget"
        );
        let easy = NormalPlay::new(Nim::new(vec![3, 4, 5]));
        assert!(perfect.choose(&easy, &Budget::unlimited()).is_some());
        assert_eq!(perfect.proven(), Some(Proven::Win));
        assert_eq!(perfect.unproven(), None);
        let near = NormalPlay::new(Nim::new(vec![1, 2, 3]));
        assert!(perfect.choose(&near, &Budget::unlimited()).is_some());
        assert_eq!(perfect.proven(), Some(Proven::Loss));
        assert_eq!(perfect.unproven(), None);
        assert_eq!(calls.load(AtomicOrdering::Relaxed), 3);
    }

    /// One move for X, each ending the game with its margin for X.
    #[derive(Clone, Debug)]
    struct LastMove {
        margins: Vec<i32>,
        played: Option<usize>,
    }

    impl Game for LastMove {
        type Move = usize;

        fn to_move(&self) -> Player {
            Player::X
        }

        fn legal_moves(&self) -> Vec<usize> {
            match self.played {
                None => (0..self.margins.len()).collect(),
                Some(_) => Vec::new(),
            }
        }

        fn play(&mut self, mv: &usize) {
            self.played = Some(*mv);
        }

        fn outcome(&self) -> Option<Outcome> {
            let margin = self.margins[self.played?];
            Some(Outcome::scored(margin, Player::X.winner_by(margin)))
        }

        fn position_hash(&self) -> u64 {
            self.played.map_or(0, |mv| mv as u64 + 1)
        }
    }

    /// Always the same move.
    struct Always<M>(M);

    impl<G: Game> Agent<G> for Always<G::Move> {
        fn name(&self) -> String {
            "always".into()
        }

        fn choose(&mut self, _game: &G, _budget: &Budget) -> Option<G::Move> {
            Some(self.0.clone())
        }
    }

    /// In a lost position the perfect agent plays its fallback's move where it loses no
    /// worse than the best, and one of the best moves where it loses more.
    #[test]
    fn the_perfect_agent_loses_with_its_fallbacks_move_where_that_is_optimal() {
        let game = LastMove {
            margins: vec![-1, -3, -1, -2],
            played: None,
        };
        for seed in 0..8 {
            let mut perfect = PerfectAgent::new(Budget::unlimited(), Box::new(Always(2)), seed);
            assert_eq!(perfect.choose(&game, &Budget::unlimited()), Some(2));
            assert_eq!(perfect.proven(), Some(Proven::Loss));
            let mut perfect = PerfectAgent::new(Budget::unlimited(), Box::new(Always(1)), seed);
            let chosen = perfect.choose(&game, &Budget::unlimited());
            assert!(matches!(chosen, Some(0 | 2)), "{chosen:?} loses by more");
        }
        let lost = NormalPlay::new(Nim::new(vec![1, 2, 3]));
        let fallback = NimMove { heap: 1, to: 0 };
        let mut perfect = PerfectAgent::new(Budget::unlimited(), Box::new(Always(fallback)), 1);
        assert_eq!(perfect.choose(&lost, &Budget::unlimited()), Some(fallback));
    }

    /// With a fallback that searches for a time (as `expert` does), a seeded perfect
    /// player still plays the same move in a lost position on every run: the fallback
    /// searches a fixed number of iterations there (a minute's search would vary).
    #[test]
    fn a_seeded_perfect_player_loses_the_same_way_on_every_run() {
        let lost = NormalPlay::new(Nim::new(vec![9, 10, 11, 8]));
        let minute: Level = "mcts:60000ms".parse().unwrap();
        let moves: Vec<_> = (0..3)
            .map(|_| {
                let fallback = standard_agent(minute, MctsConfig::default(), 7);
                let mut perfect = PerfectAgent::standard(fallback, 7);
                let chosen = perfect.choose(&lost, &Budget::unlimited());
                assert_eq!(perfect.proven(), Some(Proven::Loss));
                chosen
            })
            .collect();
        assert!(moves[0].is_some());
        assert!(moves.iter().all(|m| *m == moves[0]), "{moves:?}");
    }

    /// Known wins play one of the moves the knowledge names, the fallback's move in a
    /// lost position (every move loses), and the fallback's move, unproven, where the
    /// knowledge does not reach.
    #[test]
    fn known_wins_play_the_knowledge_and_fall_back_beyond_it() {
        let won = NormalPlay::new(Nim::new(vec![3, 4, 5]));
        let lost = NormalPlay::new(Nim::new(vec![1, 2, 3]));
        let knowledge: WinningMoves<NormalPlay<Nim>> = Box::new(|game, _| {
            let heaps = &game.position.heaps;
            if heaps.len() == 3 {
                Ok(game.position.winning_moves())
            } else {
                Err(Exhausted::Beyond)
            }
        });
        let fallback = NimMove { heap: 2, to: 1 };
        let mut perfect = KnownWins::new(knowledge, Box::new(Always(fallback)), 1);
        let budget = Budget::unlimited();
        assert_eq!(
            perfect.choose(&won, &budget),
            Some(NimMove { heap: 0, to: 1 })
        );
        assert_eq!(perfect.proven(), Some(Proven::Win));
        assert_eq!(perfect.choose(&lost, &budget), Some(fallback));
        assert_eq!(perfect.proven(), Some(Proven::Loss));
        let beyond = NormalPlay::new(Nim::new(vec![3, 4]));
        assert!(perfect.choose(&beyond, &budget).is_some());
        assert_eq!(perfect.proven(), None, "the fallback's move");
        assert_eq!(
            perfect.unproven(),
            Some(Unproven::Stopped(Exhausted::Beyond))
        );
        assert_eq!(
            perfect.choose(&won, &budget),
            Some(NimMove { heap: 0, to: 1 })
        );
        assert_eq!(perfect.unproven(), None, "proven again");
        let over = NormalPlay::new(Nim::new(vec![0, 0, 0]));
        assert_eq!(perfect.choose(&over, &budget), None);
    }

    /// Why a move is not proven reads in JSON as the API answers it.
    #[test]
    fn unproven_reads_as_its_reason() {
        let json = |why| serde_json::to_value(why).unwrap();
        assert_eq!(json(Unproven::OutOfReach), "out of reach");
        assert_eq!(json(Unproven::Stopped(Exhausted::Beyond)), "beyond");
        assert_eq!(json(Unproven::Stopped(Exhausted::Time)), "time");
    }

    #[test]
    fn levels_round_trip() {
        for text in [
            "random",
            "easy",
            "medium",
            "hard",
            "expert",
            "perfect",
            "flatmc:160",
            "mcts:500",
            "mcts:250ms",
            "plain:mcts:500",
            "plain:mcts:250ms",
        ] {
            assert_eq!(text.parse::<Level>().unwrap().to_string(), text);
        }
        assert_eq!("plain:expert".parse(), Ok(Level::PlainMctsMs(1_500)));
        assert_eq!("plain:easy".parse(), Ok(Level::PlainMctsMs(10)));
        for bad in [
            "",
            "godlike",
            "flatmc:",
            "flatmc:0",
            "mcts:-3",
            "flatmc:x",
            "mcts:ms",
            "mcts:0ms",
            "plain:",
            "plain:random",
            "plain:flatmc:160",
            "plain:perfect",
            "plain:plain:expert",
            "plain:mcts:0",
        ] {
            assert!(bad.parse::<Level>().is_err(), "{bad}");
        }
    }

    #[test]
    fn named_levels_are_times_and_think_ms_overrides_them() {
        let ms = Duration::from_millis;
        assert_eq!(
            Level::Expert.search_limit(),
            Some(SearchLimit::Time(ms(1_500)))
        );
        assert_eq!(
            Level::Mcts(500).search_limit(),
            Some(SearchLimit::Iterations(500))
        );
        assert_eq!(Level::FlatMc(160).search_limit(), None);
        let times: Vec<u64> = [Level::Easy, Level::Medium, Level::Hard, Level::Expert]
            .iter()
            .filter_map(|level| level.think_ms())
            .collect();
        assert!(times.is_sorted() && times.len() == 4, "{times:?}");
        assert_eq!(Level::Easy.with_think_time(ms(2_000)), Level::MctsMs(2_000));
        assert_eq!(Level::MctsMs(5).with_think_time(ms(7)), Level::MctsMs(7));
        assert_eq!(Level::Mcts(500).with_think_time(ms(7)), Level::Mcts(500));
        assert_eq!(Level::FlatMc(9).with_think_time(ms(7)), Level::FlatMc(9));
        assert_eq!(
            Level::PlainMctsMs(1_500).with_think_time(ms(7)),
            Level::PlainMctsMs(7)
        );
        assert_eq!(
            Level::PlainMcts(500).search_limit(),
            Some(SearchLimit::Iterations(500))
        );
        assert!(Level::PlainMcts(5).is_plain() && !Level::Mcts(5).is_plain());
        assert!(Level::PlainMctsMs(5).uses_threads());
        assert!(Level::Expert.uses_threads() && Level::Mcts(5).uses_threads());
        assert!(Level::Perfect.uses_threads());
        assert!(!Level::FlatMc(160).uses_threads() && !Level::Random.uses_threads());
    }
}
