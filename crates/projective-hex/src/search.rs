//! What makes the engine's generic searches strong on Projective Hex: the game as the
//! searches see it ([`Focused`]: winning and forced moves, dead cells left out), the
//! fill-the-board playout with its move record for RAVE, the computer players, and the
//! exact analysis built on the engine's solver.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crosscap_engine::agents::{ExactSearch, FlatMonteCarlo, Named, PerfectAgent, RandomAgent};
use crosscap_engine::catalog::Status;
use crosscap_engine::jobs::{GroupValue, JobValue, SplitSolve, ValueCount, solve_all, solve_jobs};
use crosscap_engine::mcts::{Mcts, MctsConfig, PlayoutPolicy, SearchLimit};
use crosscap_engine::openings::{ClassValue, OpeningClass};
use crosscap_engine::solver::{Budget, MarginBounds, SolveError, Solver};
use crosscap_engine::{Agent, Game, Level, Meter, Outcome, Player, Proven, Rng};
use serde::Serialize;

use crate::exact::{BitSolver, GroupVerdict, SharedTable, VIRTUAL_CONNECTIONS_MAX_EMPTY, masks};
use crate::patterns::embedded_priors;
use crate::rules::{Geometry, Move, Opening, ProjectiveHex};

/// Projective Hex as the searches see it: the same positions, but the moves are cut to a
/// set that provably contains a best one. A move that closes a loop is played alone; an
/// opponent's threat to close one must be blocked (with two threats the position is lost
/// and one block shows it).
///
/// On trivalent projective planes, where a game is decided as if the board were filled
/// (exactly one player has a loop on a full board, and loops never disappear), extra stones
/// never hurt and Hex theory applies:
/// - dead cells are left out: a cell is dead when all its neighbours hold stones and each
///   colour's neighbours form one unbroken arc of its ring, so any loop through it can run
///   around it instead and its colour never matters;
/// - with `LOOKAHEAD` (the exact solver), a move after which the mover has two threats
///   wins and is played alone, and when the opponent has such moves, the mover must play
///   in every one's carrier (the move and the threats it makes): elsewhere the opponent
///   plays it and wins.
///
/// [`Playing`] (for MCTS, cheap) and [`Proving`] (for the solver) are the two depths.
#[derive(Clone, Debug)]
pub struct Focused<const LOOKAHEAD: bool>(pub ProjectiveHex);

/// The focused game without lookahead, cheap enough for every MCTS expansion.
pub type Playing = Focused<false>;
/// The focused game with double-threat lookahead, for the exact solver.
pub type Proving = Focused<true>;

/// Whether `cell` is dead (see [`Focused`]).
pub fn is_dead(game: &ProjectiveHex, cell: usize) -> bool {
    let geometry = game.geometry();
    if game.stone(cell).is_some() || !geometry.is_ringed(cell) {
        return false;
    }
    let mut ring = geometry.sides(cell).map(|(n, _)| game.stone(n));
    let Some(Some(first)) = ring.next() else {
        return false;
    };
    let mut changes = 0;
    let mut previous = first;
    for stone in ring {
        let Some(stone) = stone else {
            return false;
        };
        if stone != previous {
            changes += 1;
        }
        previous = stone;
    }
    if previous != first {
        changes += 1;
    }
    changes <= 2
}

/// The moves the searches consider (see [`Focused`]).
pub fn focused_moves(game: &ProjectiveHex, lookahead: bool) -> Vec<Move> {
    if game.outcome().is_some() || game.in_opening() {
        return game.legal_moves();
    }
    let mover = game.to_move();
    let opponent = mover.opponent();
    let n = game.stones().len();
    let empty: Vec<usize> = (0..n).filter(|&c| game.stone(c).is_none()).collect();
    let only = |cell: usize| vec![Move::Cell(cell as u32)];
    if let Some(&win) = empty.iter().find(|&&c| game.completes_loop(c, mover)) {
        return only(win);
    }
    if let Some(&block) = empty.iter().find(|&&c| game.completes_loop(c, opponent)) {
        return only(block);
    }
    let geometry = game.geometry();
    if !geometry.decides_full_boards() {
        return game.legal_moves();
    }
    let mut allowed = vec![true; n];
    if lookahead {
        // A move can only make new threats next to the player's own stones (on boards
        // where no cell meets another twice).
        let touches = |cell: usize, player: Player| {
            !geometry.has_simple_sides()
                || geometry
                    .sides(cell)
                    .any(|(nb, _)| game.stone(nb) == Some(player))
        };
        for &m in &empty {
            if touches(m, mover) && game.winning_cells_after(m, mover).len() >= 2 {
                return only(m);
            }
        }
        for &m in &empty {
            if !touches(m, opponent) {
                continue;
            }
            let threats = game.winning_cells_after(m, opponent);
            if threats.len() >= 2 {
                for (cell, keep) in allowed.iter_mut().enumerate() {
                    *keep &= cell == m || threats.contains(&cell);
                }
            }
        }
    }
    let live: Vec<Move> = empty
        .iter()
        .filter(|&&c| allowed[c] && !is_dead(game, c))
        .map(|&c| Move::Cell(c as u32))
        .collect();
    if !live.is_empty() {
        return live;
    }
    // Nothing survives: every move loses (or only dead cells are left); one shows it.
    let fallback = empty
        .iter()
        .copied()
        .find(|&c| allowed[c])
        .unwrap_or(empty[0]);
    only(fallback)
}

/// How many neighbours of `cell` hold a stone, own stones counting double: contact
/// moves first, which is where Hex is decided.
fn contact(game: &ProjectiveHex, cell: usize, mover: Player) -> u32 {
    game.geometry()
        .sides(cell)
        .map(|(n, _)| match game.stone(n) {
            Some(p) if p == mover => 2,
            Some(_) => 1,
            None => 0,
        })
        .sum()
}

impl<const LOOKAHEAD: bool> Game for Focused<LOOKAHEAD> {
    type Move = Move;

    fn to_move(&self) -> Player {
        self.0.to_move()
    }

    fn legal_moves(&self) -> Vec<Move> {
        focused_moves(&self.0, LOOKAHEAD)
    }

    fn play(&mut self, mv: &Move) {
        self.0.play(mv)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    fn position_hash(&self) -> u64 {
        self.0.position_hash()
    }

    fn order_moves(&self, moves: &mut [Move]) {
        let mover = self.0.to_move();
        moves.sort_by_cached_key(|mv| match *mv {
            Move::Cell(c) => std::cmp::Reverse(contact(&self.0, c as usize, mover)),
            Move::Swap => std::cmp::Reverse(u32::MAX),
        });
    }

    fn random_move(&self, rng: &mut Rng) -> Option<Move> {
        self.0.random_move(rng)
    }

    /// One fill of the board: no step long enough to poll the meter.
    fn playout(&mut self, rng: &mut Rng, _meter: &mut Meter) -> Option<Outcome> {
        Some(self.0.fill_playout(rng, None, false))
    }
}

/// The Projective Hex knowledge of the search's playouts and tree, each a switch that can
/// be measured on and off; all off by default (the plain search). The priors
/// ([`move_prior`]) are switched by the engine's [`MctsConfig::prior_visits`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Knowledge {
    /// In the fill playout, answer an intrusion into a bridge by taking its other carrier
    /// cell ([`ProjectiveHex::bridge_reply`]): a bridge is a sure connection, and random
    /// playouts that let it be cut misjudge the positions that rely on it.
    pub bridge_save: bool,
    /// In the tree, the exact solver's survey of the groups ([`BitSolver::group_verdict`]):
    /// a node whose mover has a closing cell, a loop held by bridges or a key is proven
    /// won, one that two threats or the opponent's held loop decide is proven lost (with
    /// the leaf solver), and a node's children are only the cells that stop the
    /// opponent's closing cell or answer every opponent's key, inferior cells left out.
    /// Only on boards of at most 64 cells (the survey works on bit masks); the focused
    /// game already plays a closing cell alone and blocks a single threat everywhere.
    pub group_survey: bool,
    /// In the tree, the double-threat lookahead of [`Proving`] at every expansion (on any
    /// board): a move that makes two closing threats is the only child, and when the
    /// opponent has such moves the children are the cells of every one's carrier.
    pub threat_lookahead: bool,
    /// The priors of new tree moves are the self-play patterns' play rates
    /// ([`crate::patterns::embedded_priors`]) instead of [`move_prior`]'s hand-made
    /// ranking; priors act only with [`MctsConfig::prior_visits`] above 0.
    pub patterns: bool,
}

/// The knowledge the Projective Hex players use: the bridge replies, which won 39 of 40
/// games at equal time against flatmc:160 on goldberg:4 where the plain fill won 34
/// (BENCHMARKS.md). The tree's knowledge stays off: against `plain:expert` at 100 ms a
/// move, the survey won 74 of 100 on taylor:4 as without it, and the lookahead, 1.6
/// times slower an iteration, won 66 of 100 on taylor:5 where the search without it won
/// 81. The self-play patterns as priors (10 virtual visits) won 84 and 85 of 100 on
/// taylor:5 and goldberg:4 where the search without them won 79 and 85: within the noise.
pub fn knowledge() -> Knowledge {
    Knowledge {
        bridge_save: true,
        group_survey: false,
        threat_lookahead: false,
        patterns: false,
    }
}

/// How good `cell` looks for the player to move, in `[0, 1]`: saving a bridge the
/// opponent just intruded into is best, then moves next to the mover's own stones or a
/// bridge away from one, intruding into an opponent's intact bridge is poor, and moves
/// touching nothing come last.
pub fn move_prior(game: &ProjectiveHex, cell: usize) -> f64 {
    let mover = game.to_move();
    if game.last_cell().and_then(|l| game.bridge_reply(l, mover)) == Some(cell) {
        return 0.9;
    }
    let geometry = game.geometry();
    let bridges = geometry.bridges_through(cell);
    let intrudes = bridges.iter().any(|b| {
        game.stone(b.other as usize).is_none()
            && b.ends
                .iter()
                .all(|&e| game.stone(e as usize) == Some(mover.opponent()))
    });
    if intrudes {
        return 0.35;
    }
    let own = |c: usize| game.stone(c) == Some(mover);
    let touches_own = geometry.sides(cell).any(|(n, _)| own(n));
    let bridges_own = bridges
        .iter()
        .any(|b| game.stone(b.other as usize).is_none() && b.ends.iter().any(|&e| own(e as usize)));
    if touches_own || bridges_own {
        0.65
    } else if contact(game, cell, mover) > 0 {
        0.5
    } else {
        0.4
    }
}

/// The fill-the-board playout ([`ProjectiveHex::fill_playout`]), recording its moves for
/// RAVE, with the bridge replies of [`Knowledge::bridge_save`].
#[derive(Clone, Copy, Debug, Default)]
pub struct FillPlayout {
    pub bridge_save: bool,
}

impl PlayoutPolicy<Playing> for FillPlayout {
    fn playout(
        &mut self,
        game: &mut Playing,
        rng: &mut Rng,
        _meter: &mut Meter,
    ) -> Option<Outcome> {
        Some(game.0.fill_playout(rng, None, self.bridge_save))
    }

    fn playout_recorded(
        &mut self,
        game: &mut Playing,
        rng: &mut Rng,
        _meter: &mut Meter,
        record: &mut Vec<(Player, Move)>,
    ) -> Option<Outcome> {
        Some(game.0.fill_playout(rng, Some(record), self.bridge_save))
    }
}

/// Most empty cells of a position that the leaf solver ([`EndgameFill`]) is asked about.
pub const LEAF_SOLVER_MAX_EMPTY: usize = 12;

/// Nodes the leaf solver may search per position before it gives no verdict.
pub const LEAF_SOLVER_NODES: u64 = 2_000;

/// Memory of the leaf solver's tables.
const LEAF_SOLVER_MEMORY: usize = 16 << 20;

/// The fill-the-board playout with an exact solver for endgames: positions with at most
/// [`LEAF_SOLVER_MAX_EMPTY`] empty cells are solved by the [`Analyser`] (the bitmask
/// solver where the board allows it) within [`LEAF_SOLVER_NODES`] nodes.
/// Its [`Knowledge`] adds the bridge replies; its priors are [`move_prior`].
pub struct EndgameFill {
    analyser: Analyser,
    knowledge: Knowledge,
}

impl EndgameFill {
    pub fn with(knowledge: Knowledge) -> Self {
        EndgameFill {
            analyser: Analyser::new(
                Budget::nodes(LEAF_SOLVER_NODES).with_memory(LEAF_SOLVER_MEMORY),
            ),
            knowledge,
        }
    }

    /// The survey's verdict with [`Knowledge::group_survey`], on boards the bitmask solver
    /// handles, after the opening and before the end.
    fn group_verdict(&mut self, game: &ProjectiveHex) -> Option<GroupVerdict> {
        if !self.knowledge.group_survey || game.in_opening() || game.outcome().is_some() {
            return None;
        }
        let exact = self.analyser.exact_for(game.geometry())?;
        let (mine, theirs) = masks(game);
        Some(exact.group_verdict(mine, theirs))
    }

    fn fill(&self) -> FillPlayout {
        FillPlayout {
            bridge_save: self.knowledge.bridge_save,
        }
    }
}

/// The plain policy: no [`Knowledge`].
impl Default for EndgameFill {
    fn default() -> Self {
        EndgameFill::with(Knowledge::default())
    }
}

/// A copy for another search thread: the same solver with tables of its own.
impl Clone for EndgameFill {
    fn clone(&self) -> Self {
        EndgameFill::with(self.knowledge)
    }
}

impl PlayoutPolicy<Playing> for EndgameFill {
    fn playout(&mut self, game: &mut Playing, rng: &mut Rng, meter: &mut Meter) -> Option<Outcome> {
        self.fill().playout(game, rng, meter)
    }

    fn playout_recorded(
        &mut self,
        game: &mut Playing,
        rng: &mut Rng,
        meter: &mut Meter,
        record: &mut Vec<(Player, Move)>,
    ) -> Option<Outcome> {
        self.fill().playout_recorded(game, rng, meter, record)
    }

    fn prior(&mut self, game: &Playing, mv: &Move) -> Option<f64> {
        match *mv {
            Move::Cell(cell) if self.knowledge.patterns => {
                Some(embedded_priors().of(&game.0, cell as usize))
            }
            Move::Cell(cell) => Some(move_prior(&game.0, cell as usize)),
            Move::Swap => None,
        }
    }

    /// The swap 0, a stone on cell `c` c + 1: the search's AMAF table is indexed by it.
    fn move_slot(&self, mv: &Move) -> Option<usize> {
        Some(match *mv {
            Move::Swap => 0,
            Move::Cell(cell) => cell as usize + 1,
        })
    }

    fn solve_leaf(&mut self, game: &Playing) -> Option<Player> {
        match self.group_verdict(&game.0) {
            Some(GroupVerdict::Won) => return Some(game.0.to_move()),
            Some(GroupVerdict::Lost) => return Some(game.0.to_move().opponent()),
            _ => {}
        }
        let empty = game.0.stones().iter().filter(|s| s.is_none()).count();
        if empty > LEAF_SOLVER_MAX_EMPTY || game.0.in_opening() {
            return None;
        }
        let value = self.analyser.value(&game.0).ok()?;
        game.0.to_move().winner_by(value)
    }

    fn tree_moves(&mut self, game: &Playing, moves: Vec<Move>) -> Vec<Move> {
        let moves = if self.knowledge.threat_lookahead {
            focused_moves(&game.0, true)
        } else {
            moves
        };
        let keep: Vec<Move> = match self.group_verdict(&game.0) {
            Some(GroupVerdict::Moves(allowed)) => moves
                .iter()
                .filter(|mv| matches!(**mv, Move::Cell(c) if allowed >> c & 1 != 0))
                .copied()
                .collect(),
            // Where the survey sees a win (at the root: other nodes are proven before
            // they expand), the moves after which it sees the opponent lost.
            Some(GroupVerdict::Won) => moves
                .iter()
                .filter(|mv| {
                    let mut after = game.0.clone();
                    after.play(mv);
                    after.outcome().is_some()
                        || self.group_verdict(&after) == Some(GroupVerdict::Lost)
                })
                .copied()
                .collect(),
            _ => Vec::new(),
        };
        if keep.is_empty() { moves } else { keep }
    }
}

/// The MCTS tuning of the Projective Hex players: RAVE and the MCTS-solver on, little
/// explicit exploration (RAVE explores), the tree kept between moves, and the endgame
/// solver in the tree ([`EndgameFill`]), which won a few more games at equal time against
/// flatmc:160 on taylor:5 and goldberg:4, within the noise of 100 games (BENCHMARKS.md).
/// No priors ([`MctsConfig::prior_visits`]): they won no more games in 40-game screens.
pub fn mcts_config() -> MctsConfig {
    MctsConfig {
        exploration: 0.2,
        rave_equivalence: 500.0,
        prove: true,
        reuse_tree: true,
        leaf_solver: true,
        ..MctsConfig::default()
    }
}

/// The search before the switches of issue #21 (the level `plain:LEVEL`): RAVE and the
/// MCTS-solver as in [`mcts_config`], but a new tree for every move, no endgame solver and
/// no priors; it plays with no [`Knowledge`] (the plain fill playout).
pub fn baseline_mcts_config() -> MctsConfig {
    MctsConfig {
        reuse_tree: false,
        leaf_solver: false,
        prior_visits: 0.0,
        ..mcts_config()
    }
}

/// MCTS on the focused game with the fill playout and the endgame solver, with a tuning
/// and knowledge ([`mcts_config`] and [`knowledge`], or others to measure the switches on
/// and off).
pub fn mcts_agent_with(
    limit: SearchLimit,
    config: MctsConfig,
    knowledge: Knowledge,
    seed: u64,
) -> Box<dyn Agent<ProjectiveHex>> {
    Box::new(OnFocused::<Playing>(Box::new(Mcts::with_policy(
        limit,
        config,
        EndgameFill::with(knowledge),
        seed,
    ))))
}

/// Time budget of each `perfect` move before it falls back to `expert`.
pub const PERFECT_TIME_BUDGET: Duration = Duration::from_secs(20);

/// Most empty cells the perfect player tries to solve; with more it plays as `expert`
/// after a short probe rather than spend its whole budget in vain. On three lines of
/// taylor:4 (48 cells) played by `medium`, no position with 43 or more empty cells gave a
/// proven move within the budget; one of three with 42 did, and both with 40 or 41
/// (BENCHMARKS.md).
pub const PERFECT_MAX_EMPTY_CELLS: usize = 42;

/// Whether the perfect player tries its solver on `game`: at most
/// [`PERFECT_MAX_EMPTY_CELLS`] empty cells.
fn within_reach(game: &ProjectiveHex) -> bool {
    game.empty_count() <= PERFECT_MAX_EMPTY_CELLS
}

/// The computer player of a level. The MCTS levels (the named levels' times per move, see
/// [`Level::think_ms`], `mcts:N` and `mcts:Nms`) search the focused game with RAVE, the
/// MCTS-solver and the players' [`knowledge`] (`plain:LEVEL` with [`baseline_mcts_config`]
/// and no knowledge); `perfect` plays a winning move found by the [`Analyser`] (the
/// bitmask solver where the board allows it) and the `expert` move when it finds none (a
/// lost position, or the budget ran out); `random` and `flatmc:N` (the baseline) play the
/// plain game.
pub fn agent(level: Level, seed: u64) -> Box<dyn Agent<ProjectiveHex>> {
    match level {
        Level::Random => Box::new(RandomAgent::new(seed)),
        Level::FlatMc(n) => Box::new(FlatMonteCarlo::new(n, seed)),
        Level::Perfect => Box::new(
            PerfectAgent::new(
                Budget::time(PERFECT_TIME_BUDGET),
                agent(Level::Expert, seed),
                seed,
            )
            .searching(Box::new(AnalyserSearch(Analyser::new(Budget::time(
                PERFECT_TIME_BUDGET,
            )))))
            .within(Box::new(within_reach)),
        ),
        mcts => {
            let (config, knowledge) = level_search(mcts);
            level_agent(mcts, config, knowledge, seed)
        }
    }
}

/// The tuning and knowledge of an MCTS level: the players' or, for `plain:LEVEL`, none.
fn level_search(level: Level) -> (MctsConfig, Knowledge) {
    if level.is_plain() {
        (baseline_mcts_config(), Knowledge::default())
    } else {
        (mcts_config(), knowledge())
    }
}

fn level_agent(
    level: Level,
    config: MctsConfig,
    knowledge: Knowledge,
    seed: u64,
) -> Box<dyn Agent<ProjectiveHex>> {
    let limit = level.search_limit().unwrap_or(SearchLimit::Iterations(1));
    Named::boxed(level, mcts_agent_with(limit, config, knowledge, seed))
}

/// The player of `level` that self-play for the patterns uses ([`crate::patterns::learn`]):
/// [`agent`]'s, but an MCTS level without priors, so that the patterns learnt never
/// depend on the patterns the player was built with.
pub fn pattern_learner(level: Level, seed: u64) -> Box<dyn Agent<ProjectiveHex>> {
    if level.search_limit().is_none() {
        return agent(level, seed);
    }
    let (config, knowledge) = level_search(level);
    let config = MctsConfig {
        prior_visits: 0.0,
        ..config
    };
    let knowledge = Knowledge {
        patterns: false,
        ..knowledge
    };
    level_agent(level, config, knowledge, seed)
}

/// The [`Analyser`] as the exact search of the engine's perfect player
/// ([`PerfectAgent`]), its bitmask solver far faster here than the engine's solver: in a
/// won position one of the winning moves that the position's own solve proved, at
/// random (a win needs one, and checking every move, as an analysis does, costs far
/// more: the empty taylor:3 had every opening solved, BENCHMARKS.md); where the solver's
/// table shows none (off the bitmask solver's boards), one of every winning move by
/// analysis, or when that does not fit the budget one of those the solver proved on the
/// way.
struct AnalyserSearch(Analyser);

impl ExactSearch<ProjectiveHex> for AnalyserSearch {
    fn value_and_best_move(
        &mut self,
        game: &ProjectiveHex,
        budget: Budget,
        rng: &mut Rng,
    ) -> Result<(i32, Option<Move>), SolveError> {
        let clock = Instant::now();
        let analyser = &mut self.0;
        analyser.set_budget(budget.clone());
        let value = analyser.value(game)?;
        let pick = |moves: &[Move], rng: &mut Rng| {
            (!moves.is_empty()).then(|| moves[rng.below(moves.len())])
        };
        if value < 0 {
            // Nothing does worse than losing: every move is optimal.
            return Ok((value, game.random_move(rng)));
        }
        if value > 0
            && let Some(mv) = pick(&analyser.proven_winning_moves(game), rng)
        {
            return Ok((value, Some(mv)));
        }
        analyser.set_budget(budget.less(0, clock.elapsed()));
        match analyser.analyse(game) {
            Ok(analysis) => Ok((value, pick(&analysis.best_moves, rng))),
            Err(err) => match pick(&analyser.proven_winning_moves(game), rng) {
                Some(mv) if value > 0 => Ok((value, Some(mv))),
                _ => Err(err),
            },
        }
    }

    fn reaches(
        &mut self,
        game: &ProjectiveHex,
        mv: &Move,
        value: i32,
        budget: Budget,
    ) -> Result<bool, SolveError> {
        // A loss is the least a move can give.
        if value <= -1 {
            return Ok(true);
        }
        Ok(self.0.move_value(game, mv, budget)? >= value)
    }
}

/// An agent of the focused game playing the real one.
struct OnFocused<G>(Box<dyn Agent<G>>);

impl<const LOOKAHEAD: bool> Agent<ProjectiveHex> for OnFocused<Focused<LOOKAHEAD>> {
    fn name(&self) -> String {
        self.0.name()
    }

    fn choose(&mut self, game: &ProjectiveHex, budget: &Budget) -> Option<Move> {
        self.0.choose(&Focused(game.clone()), budget)
    }

    fn proven(&self) -> Option<Proven> {
        self.0.proven()
    }
}

/// A position solved: who wins with perfect play and every winning move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The player to move, `None` when the game is over.
    pub to_move: Option<Player>,
    /// The winner with perfect play (`None`: a draw, possible only off the projective
    /// plane).
    pub winner: Option<Player>,
    /// Every move of the player to move that keeps a win (empty when it loses), or that
    /// keeps the draw when a draw is the best.
    pub best_moves: Vec<Move>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// An exact analyser: the bitmask solver ([`BitSolver`]) on small trivalent
/// projective-plane boards after the opening phase, otherwise the engine's alpha-beta
/// solver (transposition table, move ordering) on the focused game; tables are shared
/// between calls.
pub struct Analyser {
    solver: Solver<Proving>,
    budget: Budget,
    /// The bitmask solver and the board it was made for (built on first use).
    exact: Option<(Arc<Geometry>, BitSolver)>,
    /// Whether the bitmask solver runs its H-search of virtual connections.
    virtual_connections: bool,
}

impl Analyser {
    pub fn new(budget: Budget) -> Self {
        Analyser {
            solver: Solver::new(budget.clone()),
            budget,
            exact: None,
            virtual_connections: false,
        }
    }

    /// An analyser whose bitmask solver for `geometry` stores its positions in `table`
    /// (when there is one), shared with the analysers of other threads.
    fn sharing(
        budget: Budget,
        geometry: &Arc<Geometry>,
        table: Option<&SharedTable>,
        virtual_connections: bool,
    ) -> Self {
        let mut analyser = Analyser {
            exact: table
                .and_then(|table| BitSolver::sharing(geometry, budget.clone(), table))
                .map(|s| (geometry.clone(), s)),
            ..Analyser::new(budget)
        };
        analyser.set_virtual_connections(virtual_connections);
        analyser
    }

    /// Runs the bitmask solver's H-search of virtual connections at positions of at most
    /// [`VIRTUAL_CONNECTIONS_MAX_EMPTY`] empty cells (off by default: fewer nodes, each
    /// dearer; BENCHMARKS.md). The answers are the same either way.
    pub fn set_virtual_connections(&mut self, on: bool) {
        self.virtual_connections = on;
        if let Some((_, exact)) = &mut self.exact {
            exact.set_virtual_connections(on.then_some(VIRTUAL_CONNECTIONS_MAX_EMPTY));
        }
    }

    /// The bitmask solver of `geometry`, made on first use (`None` where it does not
    /// apply).
    fn exact_for(&mut self, geometry: &Arc<Geometry>) -> Option<&mut BitSolver> {
        if !self
            .exact
            .as_ref()
            .is_some_and(|(g, _)| Arc::ptr_eq(g, geometry))
        {
            self.exact =
                BitSolver::new(geometry, self.budget.clone()).map(|s| (geometry.clone(), s));
            self.set_virtual_connections(self.virtual_connections);
        }
        self.exact.as_mut().map(|(_, s)| s)
    }

    /// The budget of the next analyses (the tables are kept).
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// Nodes searched by both solvers since the analyser was made.
    fn nodes(&self) -> u64 {
        self.solver.nodes() + self.exact.as_ref().map_or(0, |(_, s)| s.nodes())
    }

    /// The value of `game` for the player to move: 1 win, 0 draw, -1 loss.
    pub fn value(&mut self, game: &ProjectiveHex) -> Result<i32, SolveError> {
        self.value_within(game, self.budget.clone())
    }

    /// [`Analyser::value`] with what is left of a budget.
    fn value_within(&mut self, game: &ProjectiveHex, budget: Budget) -> Result<i32, SolveError> {
        self.solver.set_budget(budget.clone());
        if game.outcome().is_none()
            && !game.in_opening()
            && let Some(exact) = self.exact_for(game.geometry())
        {
            exact.set_budget(budget);
            let (mine, theirs) = masks(game);
            return Ok(if exact.mover_wins(mine, theirs)? {
                1
            } else {
                -1
            });
        }
        self.solver.value(&Focused(game.clone()))
    }

    /// The moves of the player to move that the bitmask solver's table already shows to
    /// win: after [`Analyser::value`] found a win, at least the one it proved. Empty when
    /// the bitmask solver does not apply (another board, or the opening phase, whose swap
    /// the table knows nothing of).
    pub fn proven_winning_moves(&self, game: &ProjectiveHex) -> Vec<Move> {
        let Some((geometry, exact)) = &self.exact else {
            return Vec::new();
        };
        if !Arc::ptr_eq(geometry, game.geometry()) || game.outcome().is_some() || game.in_opening()
        {
            return Vec::new();
        }
        let (mine, theirs) = masks(game);
        let wins = exact.proven_wins(mine, theirs);
        (0..game.stones().len())
            .filter(|&c| wins >> c & 1 != 0)
            .map(|c| Move::Cell(c as u32))
            .collect()
    }

    /// The value of playing `mv` in `game` for the player who plays it.
    fn move_value(
        &mut self,
        game: &ProjectiveHex,
        mv: &Move,
        budget: Budget,
    ) -> Result<i32, SolveError> {
        let mover = game.to_move();
        let mut child = game.clone();
        child.play(mv);
        Ok(match child.outcome() {
            Some(outcome) => outcome.value_for(mover),
            None if child.to_move() == mover => self.value_within(&child, budget)?,
            None => -self.value_within(&child, budget)?,
        })
    }

    /// Who wins `game` and every best move (each move of the full game is checked). The
    /// budget covers the whole analysis.
    pub fn analyse(&mut self, game: &ProjectiveHex) -> Result<Analysis, SolveError> {
        let start = Instant::now();
        let nodes_before = self.nodes();
        let Some(mover) = game.outcome().is_none().then(|| game.to_move()) else {
            return Ok(Analysis {
                to_move: None,
                winner: game.winner(),
                best_moves: Vec::new(),
                nodes: 0,
                elapsed: start.elapsed(),
            });
        };
        let left = |analyser: &Self| {
            analyser
                .budget
                .less(analyser.nodes() - nodes_before, start.elapsed())
        };
        let value = self.value_within(game, left(self))?;
        let winner = mover.winner_by(value);
        if value == -1 {
            // Nothing does better than losing: every move is as good as any.
            return Ok(Analysis {
                to_move: Some(mover),
                winner,
                best_moves: game.legal_moves(),
                nodes: self.nodes() - nodes_before,
                elapsed: start.elapsed(),
            });
        }
        let classes = MoveClasses::of(game);
        let mut known: HashMap<Move, i32> = HashMap::new();
        let mut best_moves = Vec::new();
        for mv in game.legal_moves() {
            let representative = classes.representative(&mv);
            if let Some(&child_value) = known.get(&representative) {
                if child_value == value {
                    best_moves.push(mv);
                }
                continue;
            }
            let child_value = self.move_value(game, &mv, left(self))?;
            known.insert(representative, child_value);
            if child_value == value {
                best_moves.push(mv);
            }
        }
        Ok(Analysis {
            to_move: Some(mover),
            winner,
            best_moves,
            nodes: self.nodes() - nodes_before,
            elapsed: start.elapsed(),
        })
    }
}

/// A class of first moves' value in Projective Hex: the second player's winning replies
/// (empty when the first move wins, or when the class is unknown).
#[derive(Clone, Debug, Serialize)]
pub struct WinningReplies {
    pub winning_replies: Vec<String>,
}

impl ClassValue for WinningReplies {
    type Board = ();
}

/// One class of first moves (cells the board's symmetries map onto each other).
pub type OpeningResult = OpeningClass<WinningReplies>;

/// Every first move of a board, solved: one class of symmetric cells a row.
pub type Openings = crosscap_engine::openings::Openings<WinningReplies>;

/// [`all_openings`] is for the empty board under the standard opening: the classes of
/// first moves are the board's, and the answer is the first player's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("every opening is analysed from the empty board under the standard opening")]
pub struct NotAtStart;

/// The classes of a position's moves that the symmetries keeping the position map onto
/// each other: such moves have one value. Empty in the opening phase, whose colour choice
/// the board's symmetries know nothing of.
struct MoveClasses {
    stabiliser: Vec<Vec<usize>>,
}

impl MoveClasses {
    fn of(game: &ProjectiveHex) -> MoveClasses {
        let stabiliser = if game.in_opening() {
            Vec::new()
        } else {
            game.geometry().symmetries().stabiliser(game.stones())
        };
        MoveClasses { stabiliser }
    }

    /// The move standing for `mv`'s class: the least cell the symmetries map it to (the
    /// swap is a class of its own).
    fn representative(&self, mv: &Move) -> Move {
        match *mv {
            Move::Cell(c) => Move::Cell(
                self.stabiliser
                    .iter()
                    .map(|g| g[c as usize] as u32)
                    .min()
                    .unwrap_or(c),
            ),
            Move::Swap => Move::Swap,
        }
    }
}

/// One reply to a first move, solved on its own: the reply stands for every reply that
/// the symmetries keeping the first move map onto it.
struct ReplyJob {
    opening: usize,
    reply: Move,
}

/// The solve of every first move of the empty board, split into jobs: one per reply to
/// one first move of each class of symmetric cells, and one per class of replies that the
/// symmetries keeping the first move map onto each other. The jobs and their order depend
/// only on the board, so that shards of the jobs can be solved on other machines or
/// resumed later (by the CLI) and their values put together by [`SplitSolve::answer`].
pub struct OpeningJobs {
    start: ProjectiveHex,
    orbits: Vec<Vec<usize>>,
    /// The position after the first cell of each orbit.
    openings: Vec<ProjectiveHex>,
    classes: Vec<MoveClasses>,
    jobs: Vec<ReplyJob>,
    /// Whether the jobs' solvers run the H-search of virtual connections.
    virtual_connections: bool,
}

impl OpeningJobs {
    /// The jobs of `start`, which must be the empty board under the standard opening.
    pub fn of(start: &ProjectiveHex) -> Result<OpeningJobs, NotAtStart> {
        if !start.history().is_empty()
            || start.stones().iter().any(Option::is_some)
            || start.opening() != Opening::Standard
        {
            return Err(NotAtStart);
        }
        let orbits = start.geometry().symmetries().cell_orbits();
        let openings: Vec<ProjectiveHex> = orbits
            .iter()
            .map(|orbit| {
                let mut game = start.clone();
                game.play(&Move::Cell(orbit[0] as u32));
                game
            })
            .collect();
        let classes: Vec<MoveClasses> = openings.iter().map(MoveClasses::of).collect();
        let mut jobs = Vec::new();
        for (opening, game) in openings.iter().enumerate() {
            if game.outcome().is_some() {
                continue;
            }
            for reply in game.legal_moves() {
                if classes[opening].representative(&reply) == reply {
                    jobs.push(ReplyJob { opening, reply });
                }
            }
        }
        Ok(OpeningJobs {
            start: start.clone(),
            orbits,
            openings,
            classes,
            jobs,
            virtual_connections: false,
        })
    }

    /// Solves the jobs with the H-search of virtual connections
    /// ([`Analyser::set_virtual_connections`]): the same values, other node counts.
    pub fn set_virtual_connections(&mut self, on: bool) {
        self.virtual_connections = on;
    }

    /// The player who makes the job's reply (whose value [`JobValue::value`] is).
    fn replier(&self, job: usize) -> Player {
        self.openings[self.jobs[job].opening].to_move()
    }

    /// One class of first moves, from the values of its replies.
    fn opening_result(&self, opening: usize, values: &[JobValue]) -> OpeningResult {
        let game = &self.openings[opening];
        let orbit = &self.orbits[opening];
        let cells = orbit
            .iter()
            .map(|&c| self.start.board().cell_name(c).to_string())
            .collect();
        let sides = self.start.board().sides(orbit[0]).len();
        let Some(replier) = game.outcome().is_none().then(|| game.to_move()) else {
            return OpeningResult {
                cells,
                sides,
                winner: game.winner(),
                value: WinningReplies {
                    winning_replies: Vec::new(),
                },
                nodes: 0,
                millis: 0.0,
                status: Status::Solved,
            };
        };
        let (mine, values): (Vec<&ReplyJob>, Vec<&JobValue>) = self
            .jobs
            .iter()
            .zip(values)
            .filter(|(job, _)| job.opening == opening)
            .unzip();
        let GroupValue {
            values,
            nodes,
            millis,
        } = GroupValue::of(values);
        let solved: Vec<(&ReplyJob, i32)> = match values {
            Ok(values) => mine.into_iter().zip(values).collect(),
            Err(reason) => {
                return OpeningResult {
                    cells,
                    sides,
                    winner: None,
                    value: WinningReplies {
                        winning_replies: Vec::new(),
                    },
                    nodes,
                    millis,
                    status: Status::Unknown { reason },
                };
            }
        };
        let best = solved.iter().map(|&(_, v)| v).max().unwrap_or(-1);
        let winner = replier.winner_by(best);
        let value_of = |reply: &Move| {
            let stands_for = self.classes[opening].representative(reply);
            solved
                .iter()
                .find(|(job, _)| job.reply == stands_for)
                .map(|&(_, v)| v)
        };
        let winning_replies = if winner == Some(replier) {
            game.legal_moves()
                .iter()
                .filter(|reply| value_of(reply) == Some(best))
                .map(|reply| crosscap_engine::Notation::format_move(game, reply))
                .collect()
        } else {
            Vec::new()
        };
        OpeningResult {
            cells,
            sides,
            winner,
            value: WinningReplies { winning_replies },
            nodes,
            millis,
            status: Status::Solved,
        }
    }
}

impl SplitSolve for OpeningJobs {
    type Answer = Openings;

    fn len(&self) -> usize {
        self.jobs.len()
    }

    /// The job's name: its first move and the reply, e.g. `a1 b2`.
    fn id(&self, job: usize) -> String {
        let ReplyJob { opening, reply } = &self.jobs[job];
        let first = self.orbits[*opening][0];
        format!(
            "{} {}",
            self.start.board().cell_name(first),
            crosscap_engine::Notation::format_move(&self.openings[*opening], reply)
        )
    }

    /// Who wins after the job's reply, given its value (`None`: a draw).
    fn winner(&self, job: usize, value: i32) -> Option<Player> {
        self.replier(job).winner_by(value)
    }

    /// Solves the jobs numbered `which` on the threads of the rayon pool
    /// ([`solve_jobs`]), each thread with an analyser of its own, all of them storing
    /// positions in one shared table (so each finds what the others solved, and the nodes
    /// counted vary a little from run to run; the answers do not). The budget applies to
    /// each job. `done` is called with each job and its value as soon as it is solved or
    /// cut short. The values come in the order of `which`.
    fn solve(
        &self,
        which: &[usize],
        budget: &Budget,
        done: &(dyn Fn(usize, &JobValue) + Sync),
    ) -> Vec<JobValue> {
        let Some(&first) = which.first() else {
            return Vec::new();
        };
        // One table for every thread: each finds the positions the others solved.
        let geometry = self.openings[self.jobs[first].opening].geometry();
        let table = SharedTable::for_board(geometry, budget.max_memory);
        let new_worker = || {
            Analyser::sharing(
                budget.clone(),
                geometry,
                table.as_ref(),
                self.virtual_connections,
            )
        };
        let solve = |analyser: &mut Analyser, job: usize| {
            let ReplyJob { opening, reply } = &self.jobs[job];
            let (start, nodes_before) = (Instant::now(), analyser.nodes());
            let value = analyser.move_value(&self.openings[*opening], reply, budget.clone());
            JobValue {
                value: value.map_err(|SolveError::Unknown { reason, .. }| reason),
                bounds: MarginBounds::default(),
                nodes: analyser.nodes() - nodes_before,
                elapsed: start.elapsed(),
            }
        };
        solve_jobs(
            which,
            rayon::current_num_threads(),
            &new_worker,
            &solve,
            done,
        )
    }

    /// The answer made of every job's value, `millis` the time the solve took. A class
    /// one of whose replies ran out of budget is unknown. Values of another number than
    /// the jobs' are refused.
    fn answer(&self, values: &[JobValue], millis: f64) -> Result<Openings, ValueCount> {
        ValueCount::check(values, self.jobs.len())?;
        let openings: Vec<OpeningResult> = (0..self.openings.len())
            .map(|opening| self.opening_result(opening, values))
            .collect();
        Ok(Openings::of(
            self.start.board().spec().to_string(),
            self.start.stones().len(),
            openings,
            |_, _| (),
            millis,
        ))
    }
}

/// Analyses every first move of the empty board, one per class of symmetric cells: every
/// job of [`OpeningJobs`] solved at once. On taylor:3 the corner class alone used to set
/// the wall time; split into its 26 replies, it spreads over every core. The budget
/// applies to each reply; a reply that runs out leaves its class unknown and the other
/// classes are still solved. `start` must be the empty board under the standard opening.
pub fn all_openings(start: &ProjectiveHex, budget: &Budget) -> Result<Openings, NotAtStart> {
    Ok(solve_all(&OpeningJobs::of(start)?, budget))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past [`PERFECT_MAX_EMPTY_CELLS`] the perfect player plays its fallback's move,
    /// unproven, after a probe (the empty taylor:4 is far beyond its solver); within it,
    /// it solves.
    #[test]
    fn the_perfect_player_solves_only_within_its_reach() {
        let mut game = ProjectiveHex::on_board("taylor:4", Opening::Standard).unwrap();
        let mut player = agent(Level::Perfect, 1);
        assert!(!within_reach(&game));
        assert!(player.choose(&game, &Budget::unlimited()).is_some());
        assert_eq!(player.proven(), None);
        let mut rng = Rng::new(5);
        while game.empty_count() > PERFECT_MAX_EMPTY_CELLS {
            assert!(!within_reach(&game));
            let mv = game.random_move(&mut rng).unwrap();
            game.play(&mv);
        }
        assert!(within_reach(&game));
        while game.empty_count() > 12 && game.outcome().is_none() {
            let mv = game.random_move(&mut rng).unwrap();
            game.play(&mv);
        }
        assert!(player.choose(&game, &Budget::unlimited()).is_some());
        assert!(player.proven().is_some());
    }

    fn neighbours(game: &ProjectiveHex, cell: usize) -> Vec<usize> {
        game.geometry().sides(cell).map(|(n, _)| n).collect()
    }

    /// The AMAF table's slots number the swap and every cell of a board apart, densely.
    #[test]
    fn move_slots_number_every_move_apart() {
        let game = ProjectiveHex::on_board("taylor:4", Opening::Swap).unwrap();
        let policy = EndgameFill::default();
        let moves: Vec<Move> = std::iter::once(Move::Swap)
            .chain((0..game.stones().len() as u32).map(Move::Cell))
            .collect();
        let slots: std::collections::HashSet<usize> = moves
            .iter()
            .map(|mv| policy.move_slot(mv).unwrap())
            .collect();
        assert_eq!(slots.len(), moves.len());
        assert!(slots.iter().all(|&slot| slot < moves.len()));
    }

    /// Every bridge through every cell of taylor:4 against the definition, brute force:
    /// ends that do not touch, whose common neighbours are exactly the cell and `other`;
    /// and every such pair of ends is listed.
    #[test]
    fn the_bridges_are_those_of_the_definition() {
        let game = ProjectiveHex::on_board("taylor:4", Opening::Standard).unwrap();
        let n = game.stones().len();
        let common = |a: usize, b: usize| -> Vec<usize> {
            (0..n)
                .filter(|&c| neighbours(&game, a).contains(&c) && neighbours(&game, b).contains(&c))
                .collect()
        };
        let mut listed = 0;
        for cell in 0..n {
            let bridges = game.geometry().bridges_through(cell);
            for a in 0..n {
                for b in a + 1..n {
                    let shared = common(a, b);
                    let is_bridge = !neighbours(&game, a).contains(&b)
                        && shared.len() == 2
                        && shared.contains(&cell);
                    let found = bridges.iter().find(|br| br.ends == [a as u32, b as u32]);
                    assert_eq!(found.is_some(), is_bridge, "cell {cell}, ends {a} {b}");
                    if let Some(bridge) = found {
                        let other = bridge.other as usize;
                        assert!(other != cell && shared.contains(&other));
                        listed += 1;
                    }
                }
            }
        }
        assert!(listed > n, "taylor:4 has bridges through most cells");
    }

    /// X's stones at a bridge's ends, O intrudes into its carrier: the reply is the other
    /// carrier cell, and the bridge-saving fill playout takes it as X's first move.
    #[test]
    fn an_intrusion_into_a_bridge_is_answered_in_the_other_cell() {
        let mut game = ProjectiveHex::on_board("taylor:4", Opening::Standard).unwrap();
        let n = game.stones().len();
        let (cell, bridge) = (0..n)
            .find_map(|c| game.geometry().bridges_through(c).first().map(|&b| (c, b)))
            .unwrap();
        let [a, b] = bridge.ends.map(|e| e as usize);
        let elsewhere = (0..n)
            .find(|&c| ![a, b, cell, bridge.other as usize].contains(&c))
            .unwrap();
        for mv in [a, elsewhere, b, cell] {
            game.play(&Move::Cell(mv as u32));
        }
        assert_eq!(game.to_move(), Player::X);
        assert_eq!(
            game.bridge_reply(cell, Player::X),
            Some(bridge.other as usize)
        );
        assert_eq!(game.bridge_reply(cell, Player::O), None, "not O's bridge");
        assert_eq!(game.bridge_reply(a, Player::O), None, "no intrusion");
        for seed in 0..20 {
            let mut record = Vec::new();
            game.clone()
                .fill_playout(&mut Rng::new(seed), Some(&mut record), true);
            assert_eq!(
                record[0],
                (Player::X, Move::Cell(bridge.other)),
                "seed {seed}"
            );
            assert_eq!(record.len(), n - 4);
        }
        let plain_firsts: Vec<(Player, Move)> = (0..20)
            .map(|seed| {
                let mut record = Vec::new();
                game.clone()
                    .fill_playout(&mut Rng::new(seed), Some(&mut record), false);
                record[0]
            })
            .collect();
        assert!(
            plain_firsts
                .iter()
                .any(|&first| first.1 != Move::Cell(bridge.other))
        );
        // The prior ranks the save above every other move.
        let save = move_prior(&game, bridge.other as usize);
        assert!(
            (0..n)
                .filter(|&c| game.stone(c).is_none() && c != bridge.other as usize)
                .all(|c| move_prior(&game, c) < save)
        );
    }

    /// Positions of `spec` after 8 to 20 random moves, not over, each with the survey's
    /// verdict for the player to move.
    fn surveyed_positions(spec: &str) -> Vec<(ProjectiveHex, GroupVerdict)> {
        let start = ProjectiveHex::on_board(spec, Opening::Standard).unwrap();
        let solver = BitSolver::new(start.geometry(), Budget::nodes(1)).unwrap();
        let mut positions = Vec::new();
        for seed in 0..60 {
            let mut rng = Rng::new(seed);
            let mut game = start.clone();
            for stones in 1..=20 {
                let Some(mv) = game.random_move(&mut rng) else {
                    break;
                };
                game.play(&mv);
                if game.outcome().is_some() {
                    break;
                }
                if stones >= 8 {
                    let (mine, theirs) = masks(&game);
                    positions.push((game.clone(), solver.group_verdict(mine, theirs)));
                }
            }
        }
        positions
    }

    fn surveying(iterations: u64, group_survey: bool) -> Box<dyn Agent<ProjectiveHex>> {
        let knowledge = Knowledge {
            group_survey,
            ..knowledge()
        };
        mcts_agent_with(
            SearchLimit::Iterations(iterations),
            mcts_config(),
            knowledge,
            1,
        )
    }

    /// Where the survey finds a win (a closing cell, or a key that makes a loop held by
    /// bridges), the search with it plays a winning move after two iterations (the exact
    /// solver agrees, where it answers in its budget).
    #[test]
    fn with_the_survey_a_tiny_search_plays_a_closing_cell_or_a_key() {
        let mut analyser = Analyser::new(Budget::nodes(200_000));
        let (mut closing, mut keys) = (0, 0);
        for (game, verdict) in surveyed_positions("taylor:3") {
            if verdict != GroupVerdict::Won {
                continue;
            }
            let mover = game.to_move();
            let mv = surveying(2, true)
                .choose(&game, &Budget::unlimited())
                .unwrap();
            let mut after = game.clone();
            after.play(&mv);
            if after.winner() == Some(mover) {
                closing += 1;
                continue;
            }
            if let Ok(value) = analyser.value(&after) {
                assert_eq!(value, -1, "{mv:?} wins");
                keys += 1;
            }
        }
        assert!(
            closing > 0 && keys > 0,
            "{closing} closing cells, {keys} keys"
        );
    }

    /// Where the opponent has a key (or a closing cell), the survey's moves are those
    /// that answer it: the search's children are all among them (not so without the
    /// survey), and they keep a best move (checked with the exact solver).
    #[test]
    fn with_the_survey_every_child_answers_the_opponents_threats() {
        let mut analyser = Analyser::new(Budget::nodes(200_000));
        let mut checked = 0;
        for (game, verdict) in surveyed_positions("taylor:3") {
            let GroupVerdict::Moves(allowed) = verdict else {
                continue;
            };
            let focused = Focused::<false>(game.clone()).legal_moves();
            let inside = |mv: &Move| matches!(*mv, Move::Cell(c) if allowed >> c & 1 != 0);
            if focused.iter().all(inside) || !focused.iter().any(inside) {
                continue;
            }
            let children = |group_survey: bool| -> Vec<Move> {
                let knowledge = Knowledge {
                    group_survey,
                    ..knowledge()
                };
                let mut search = Mcts::with_policy(
                    SearchLimit::Iterations(200),
                    mcts_config(),
                    EndgameFill::with(knowledge),
                    1,
                );
                let stats = search.search(&Focused(game.clone()), &Budget::unlimited());
                stats.into_iter().map(|s| s.mv).collect()
            };
            let surveyed = children(true);
            assert!(!surveyed.is_empty() && surveyed.iter().all(inside));
            if let Ok(analysis) = analyser.analyse(&game) {
                assert!(
                    analysis.best_moves.iter().any(inside),
                    "a best move is kept"
                );
                checked += 1;
            }
        }
        assert!(checked > 0);
    }
}
