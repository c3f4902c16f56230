//! The computer player: the engine's MCTS with a reward that counts the final margin of
//! Euler characteristics as well as the win, at named strength levels.

use std::sync::Arc;

use crosscap_engine::agents::{
    ExactSearch, FlatMonteCarlo, KeptSolver, Named, PerfectAgent, RandomAgent,
};
use crosscap_engine::mcts::{Mcts, MctsConfig, PlayoutPolicy, SearchLimit};
use crosscap_engine::solver::{Budget, SolveError, Solver};
use crosscap_engine::{Agent, Game, Level, Meter, Outcome, Player, Rng};
use crosscap_topology::Symmetries;

use crate::compact::CompactBoard;
use crate::complex::Complex;
use crate::game::{EulerGetter, Move};
use crate::position::Stones;

/// The search settings: random playouts scored by win or loss, RAVE (a stone's value on
/// a surface hardly depends on when it is played), little UCT exploration on top of
/// RAVE's, and the tree kept between moves. Each was measured on and off at equal time
/// against flatmc:160 on goldberg:3 (BENCHMARKS.md, "Euler Getter at equal time"):
/// from 14/40 games with [`baseline_mcts_config`] to 33–36/40. The endgame solver
/// (`prove` and `leaf_solver` with [`EulerPolicy`]) stays off: it measured no stronger.
pub fn mcts_config() -> MctsConfig {
    MctsConfig {
        exploration: 0.05,
        score_weight: 0.0,
        rave_equivalence: 500.0,
        reuse_tree: true,
        ..baseline_mcts_config()
    }
}

/// The search before the switches of issue #21, every one of them off: plain UCT whose
/// reward blends the win (90%) with the final margin of Euler characteristics (10%, a
/// margin of 6 counting fully). Seeded iteration-budget searches with it play the moves
/// they played before.
pub fn baseline_mcts_config() -> MctsConfig {
    MctsConfig {
        exploration: 0.5,
        score_weight: 0.1,
        score_scale: 6.0,
        ..MctsConfig::default()
    }
}

/// Most empty cells of a position that the leaf solver ([`EulerPolicy`]) is asked about.
pub const LEAF_SOLVER_MAX_EMPTY: usize = 6;

/// Nodes the leaf solver may search per position before it gives no verdict.
pub const LEAF_SOLVER_NODES: u64 = 300;

/// Memory of the leaf solver's table.
const LEAF_SOLVER_MEMORY: usize = 16 << 20;

/// Euler Getter's playout policy, with switches that know what a stone does to the
/// mover's characteristic χ (a stone in a fresh place adds a piece, +1; touching the
/// mover's own stones adds nothing; joining pieces or closing a loop lowers it). Every
/// switch is off in [`Default`]: uniformly random playouts, no priors.
pub struct EulerPolicy {
    /// The scored exact solver for endgames, asked with [`MctsConfig::leaf_solver`]: a
    /// position with at most [`LEAF_SOLVER_MAX_EMPTY`] empty cells is solved within
    /// [`LEAF_SOLVER_NODES`] nodes, and the sign of its margin names the winner (a drawn
    /// position is left to the playouts).
    solver: Solver<EulerGetter>,
    /// Chance that a playout move is the better for the mover's χ of two random empty
    /// cells (the one adding more, under the reverse rule less) rather than one random
    /// cell (0: uniformly random playouts).
    pub greedy: f64,
    /// The prior value ([`PlayoutPolicy::prior`], weighted by
    /// [`MctsConfig::prior_visits`]) of a stone is one half plus this much per unit of χ it
    /// adds to the mover's region (0: no prior).
    pub prior_step: f64,
    /// How much the χ a cell would add to the opponent's region counts against it, in
    /// both the greedy playout and the prior (0: only the mover's gain).
    pub opponent_weight: f64,
}

impl Default for EulerPolicy {
    fn default() -> Self {
        EulerPolicy {
            solver: Solver::new(Budget::nodes(LEAF_SOLVER_NODES).with_memory(LEAF_SOLVER_MEMORY)),
            greedy: 0.0,
            prior_step: 0.0,
            opponent_weight: 0.0,
        }
    }
}

/// A copy for another search thread: the same switches, a solver with a table of its own.
impl Clone for EulerPolicy {
    fn clone(&self) -> Self {
        EulerPolicy {
            greedy: self.greedy,
            prior_step: self.prior_step,
            opponent_weight: self.opponent_weight,
            ..EulerPolicy::default()
        }
    }
}

impl EulerPolicy {
    /// Plays the next playout move and returns it: a random one, or with chance
    /// [`EulerPolicy::greedy`] the better for the mover's χ of two random cells (the
    /// first on a tie). `None` on a full board. The stone's new vertices and edges,
    /// counted to compare it, are not counted again to place it (a third of the greedy
    /// playout's counting).
    fn playout_step(&self, game: &mut EulerGetter, rng: &mut Rng) -> Option<Move> {
        let first = game.random_move(rng)?;
        if self.greedy == 0.0 || rng.unit() >= self.greedy {
            game.play(&first);
            return Some(first);
        }
        let colour = game.colour_of(game.to_move());
        // The second cell is drawn even when the first move is the swap, which is played.
        let (Move::Place(a), Some(Move::Place(b))) = (first, game.random_move(rng)) else {
            game.play(&first);
            return Some(first);
        };
        let (rated_a, rated_b) = (self.rate(game, a, colour), self.rate(game, b, colour));
        let (cell, (_, added)) = if rated_b.0 > rated_a.0 {
            (b, rated_b)
        } else {
            (a, rated_a)
        };
        game.place_counted(cell as usize, added);
        Some(Move::Place(cell))
    }

    /// What the empty `cell` is worth to the player to move, of colour `colour`: the χ it
    /// adds to the mover's region, less [`EulerPolicy::opponent_weight`] times what it
    /// would add to the opponent's, negated under the reverse rule (where the smaller χ
    /// wins); with the vertices and edges it adds to the mover's.
    fn rate(&self, game: &EulerGetter, cell: u16, colour: Player) -> (f64, (i64, i64)) {
        let added = game.new_vertices_and_edges(cell as usize, colour);
        let own = (1 + added.0 - added.1) as f64;
        let value = if self.opponent_weight == 0.0 {
            own
        } else {
            let theirs = game.chi_gain(cell as usize, colour.opponent()) as f64;
            own - self.opponent_weight * theirs
        };
        (game.rule().oriented(value), added)
    }
}

impl PlayoutPolicy<EulerGetter> for EulerPolicy {
    fn playout(
        &mut self,
        game: &mut EulerGetter,
        rng: &mut Rng,
        meter: &mut Meter,
    ) -> Option<Outcome> {
        if self.greedy == 0.0 {
            return game.playout(rng, meter);
        }
        while self.playout_step(game, rng).is_some() {}
        game.outcome()
    }

    /// The same moves as [`EulerPolicy::playout`], recorded; no step is long enough to
    /// poll the meter (one stone per cell).
    fn playout_recorded(
        &mut self,
        game: &mut EulerGetter,
        rng: &mut Rng,
        _meter: &mut Meter,
        record: &mut Vec<(Player, Move)>,
    ) -> Option<Outcome> {
        loop {
            let mover = game.to_move();
            let Some(mv) = self.playout_step(game, rng) else {
                return game.outcome();
            };
            record.push((mover, mv));
        }
    }

    fn solve_leaf(&mut self, game: &EulerGetter) -> Option<Player> {
        if game.complex().cell_count() - game.placed() > LEAF_SOLVER_MAX_EMPTY {
            return None;
        }
        game.to_move().winner_by(self.solver.sign(game).ok()?)
    }

    /// A stone's value from the χ it adds to the mover's region; nothing for the swap.
    fn prior(&mut self, game: &EulerGetter, mv: &Move) -> Option<f64> {
        let Move::Place(cell) = *mv else {
            return None;
        };
        if self.prior_step == 0.0 {
            return None;
        }
        let colour = game.colour_of(game.to_move());
        Some((0.5 + self.prior_step * self.rate(game, cell, colour).0).clamp(0.0, 1.0))
    }

    /// The swap 0, a stone on cell `c` c + 1: the search's AMAF table is indexed by it.
    fn move_slot(&self, mv: &Move) -> Option<usize> {
        Some(match *mv {
            Move::Swap => 0,
            Move::Place(cell) => cell as usize + 1,
        })
    }
}

/// The computer player at `level`: MCTS for the named levels (times per move, see
/// [`Level::think_ms`]), `mcts:N` and `mcts:Nms` (the swap decided by value) and, with
/// [`baseline_mcts_config`], every switch of [`EulerPolicy`] off and the swap one of the
/// tree's moves, `plain:LEVEL`; the
/// exact solver for `perfect` (falling back to expert), and the engine's random and flat
/// Monte Carlo baselines.
pub fn agent(level: Level, seed: u64) -> Box<dyn Agent<EulerGetter>> {
    match level {
        Level::Random => Box::new(RandomAgent::new(seed)),
        Level::FlatMc(playouts) => Box::new(FlatMonteCarlo::new(playouts, seed)),
        Level::Perfect => Box::new(
            PerfectAgent::standard(agent(Level::Expert, seed), seed)
                .searching(Box::new(CompactSearch::default()))
                .within(Box::new(within_reach)),
        ),
        named => {
            let limit = named.search_limit().unwrap_or(SearchLimit::Iterations(1));
            let search = if named.is_plain() {
                mcts_with(limit, baseline_mcts_config(), seed)
            } else {
                mcts(limit, seed)
            };
            Named::boxed(named, search)
        }
    }
}

/// The MCTS player with Euler Getter's settings and any search limit (a playout count or
/// a thinking time), the swap decided by value: on goldberg:3 at equal time against
/// flatmc:160 it won 98, 95 and 95 of 100 games on the seeds 5, 2027 and 11 where the
/// swap as a tree move won 94, 96 and 94 (BENCHMARKS.md, "Euler Getter's cheaper
/// selection and the swap by value"): within the noise, but at least 95 on all three.
pub fn mcts(limit: SearchLimit, seed: u64) -> Box<dyn Agent<EulerGetter>> {
    Box::new(EulerSearch {
        mcts: Mcts::with_policy(limit, mcts_config(), policy(), seed),
        swap_by_value: true,
    })
}

/// [`mcts`] with another tuning and every switch of the playout policy and of
/// [`EulerSearch`] off (the switches measured on and off).
pub fn mcts_with(limit: SearchLimit, config: MctsConfig, seed: u64) -> Box<dyn Agent<EulerGetter>> {
    Box::new(EulerSearch {
        mcts: Mcts::with_policy(limit, config, EulerPolicy::default(), seed),
        swap_by_value: false,
    })
}

/// The search as a player, deciding the swap itself when asked to.
pub struct EulerSearch {
    pub mcts: Mcts<EulerGetter, EulerPolicy>,
    /// Decide the swap by the value of the position rather than as one more move of the
    /// tree. Swapping hands the opponent the very position the mover faces, so the swap
    /// is worth one minus the best stone's value: the search spends all its iterations on
    /// the stones (the swap's subtree would search the same game again) and swaps when
    /// the best stone's mean reward is below one half.
    pub swap_by_value: bool,
}

impl Agent<EulerGetter> for EulerSearch {
    fn name(&self) -> String {
        self.mcts.name()
    }

    fn choose(&mut self, game: &EulerGetter, budget: &Budget) -> Option<Move> {
        if !(self.swap_by_value && game.swap_available()) {
            return self.mcts.choose(game, budget);
        }
        let stats = self.mcts.search(&game.clone().without_swap(), budget);
        match stats.first() {
            Some(best) if best.mean_reward < 0.5 => Some(Move::Swap),
            Some(best) => Some(best.mv),
            // Stopped before any playout ended: still a legal move.
            None => game.legal_moves().first().copied(),
        }
    }
}

/// The playout policy of [`mcts`]: every playout stone the better for the mover's χ of
/// two random cells, which won 96 of 100 games at equal time against flatmc:160 on
/// goldberg:3 where uniformly random playouts won 89 (BENCHMARKS.md, "Euler Getter's
/// playouts, priors and swap"). The priors, the opponent's gain and a greedy chance of
/// one half measured no stronger and stay off.
pub fn policy() -> EulerPolicy {
    EulerPolicy {
        greedy: 1.0,
        ..EulerPolicy::default()
    }
}

/// Most empty cells the perfect player tries to solve; with more it plays as expert after
/// a short probe rather than spend its whole budget in vain (goldberg:2 after one stone,
/// 20 empty cells, takes about 0.7 million nodes on compact positions).
pub const PERFECT_MAX_EMPTY_CELLS: usize = 22;

/// Whether the perfect player tries its solver on `game`: at most
/// [`PERFECT_MAX_EMPTY_CELLS`] empty cells.
fn within_reach(game: &EulerGetter) -> bool {
    game.complex().cell_count() - game.placed() <= PERFECT_MAX_EMPTY_CELLS
}

/// Euler Getter's exact search for `perfect`: the engine's solver on [`CompactPosition`]s
/// hashed up to the board's symmetries, the positions `solve` searches (goldberg:2 after
/// one stone in 2.4 s, where the game itself took 11.6 s; BENCHMARKS.md), with the
/// solver's table kept from one move to the next ([`KeptSolver`]). Boards too large for
/// compact positions are searched as the game itself, hashed up to their symmetries.
///
/// [`CompactPosition`]: crate::compact::CompactPosition
#[derive(Default)]
struct CompactSearch {
    /// The complex searched, its symmetries and its compact board where it has one (made
    /// on the first search: a probe out of reach makes it too).
    board: Option<(Arc<Complex>, Arc<Symmetries>, Option<CompactBoard>)>,
    /// The solver's table, of the board's compact positions or of the game's.
    solver: KeptSolver,
}

impl CompactSearch {
    /// The solver, the symmetries and the compact board (where it has one) of `game`'s
    /// board, worked out anew, and the table dropped, when its complex is not the one
    /// searched before.
    fn parts(
        &mut self,
        game: &EulerGetter,
    ) -> (&mut KeptSolver, &Arc<Symmetries>, Option<&CompactBoard>) {
        let complex = game.complex();
        if !self
            .board
            .as_ref()
            .is_some_and(|(searched, ..)| Arc::ptr_eq(searched, complex))
        {
            self.board = None;
            self.solver = KeptSolver::default();
        }
        let (_, symmetries, compact) = self.board.get_or_insert_with(|| {
            let symmetries = Arc::new(complex.board().symmetries());
            let compact = CompactBoard::new(complex.clone(), Some(&symmetries));
            (complex.clone(), symmetries, compact)
        });
        (&mut self.solver, symmetries, compact.as_ref())
    }
}

impl ExactSearch<EulerGetter> for CompactSearch {
    fn value_and_best_move(
        &mut self,
        game: &EulerGetter,
        budget: Budget,
        rng: &mut Rng,
    ) -> Result<(i32, Option<Move>), SolveError> {
        match self.parts(game) {
            (solver, _, Some(board)) => {
                solver.value_and_best_move(&board.position(game), budget, rng)
            }
            (solver, symmetries, None) => solver.value_and_best_move(
                &game.clone().with_symmetries(symmetries.clone()),
                budget,
                rng,
            ),
        }
    }

    fn reaches(
        &mut self,
        game: &EulerGetter,
        mv: &Move,
        value: i32,
        budget: Budget,
    ) -> Result<bool, SolveError> {
        match self.parts(game) {
            (solver, _, Some(board)) => solver.reaches(&board.position(game), mv, value, budget),
            (solver, symmetries, None) => solver.reaches(
                &game.clone().with_symmetries(symmetries.clone()),
                mv,
                value,
                budget,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Rule, SwapRule};
    use crate::load_board;
    use crosscap_engine::Proven;

    #[test]
    fn the_endgame_solver_names_the_winner_of_small_positions_only() {
        let board = load_board("goldberg:1").unwrap();
        let start = EulerGetter::new(board, Rule::Normal, SwapRule(None));
        let mut leaf = EulerPolicy::default();
        // goldberg:1, 6 cells: a first-player win (README, the even-cells survey).
        assert_eq!(leaf.solve_leaf(&start), Some(Player::X));
        let large = EulerGetter::new(
            load_board("goldberg:2").unwrap(),
            Rule::Normal,
            SwapRule(None),
        );
        assert_eq!(leaf.solve_leaf(&large), None, "21 empty cells: no verdict");
        // With the switches on, the search proves the start and plays a winning move.
        let config = MctsConfig {
            prove: true,
            leaf_solver: true,
            ..mcts_config()
        };
        let mut mcts = Mcts::with_policy(
            SearchLimit::Iterations(500),
            config,
            EulerPolicy::default(),
            1,
        );
        let stats = mcts.search(&start, &Budget::unlimited());
        assert_eq!(stats[0].proven_winner, Some(Player::X));
        let mut after = start.clone();
        after.play(&stats[0].mv);
        assert_eq!(leaf.solve_leaf(&after), Some(Player::X));
    }

    /// The perfect player's move is one of the optimal moves `solve` lists, with the
    /// value it proves, on random positions with a given number of empty cells: of
    /// goldberg:1 and goldberg:2 (the swap rule on and off) and a connected sum, searched
    /// on compact positions, and of goldberg:6, too large for them.
    #[test]
    fn the_perfect_player_plays_an_optimal_move() {
        let mut rng = Rng::new(5);
        for (spec, swap, empty) in [
            ("goldberg:1", SwapRule(None), 6),
            ("goldberg:1", SwapRule(Some(1)), 5),
            ("goldberg:2", SwapRule(None), 12),
            ("goldberg:2", SwapRule(Some(3)), 10),
            ("sum:goldberg:1+torus:2x4", SwapRule(None), 10),
            ("goldberg:6", SwapRule(None), 8),
        ] {
            for seed in 0..3 {
                let mut game = start(spec, swap);
                while game.complex().cell_count() - game.placed() > empty {
                    let mv = game.random_move(&mut rng).unwrap();
                    game.play(&mv);
                }
                if game.outcome().is_some() {
                    continue;
                }
                let compact = CompactBoard::new(game.complex().clone(), None).is_some();
                assert_eq!(compact, spec != "goldberg:6", "{spec}");
                let solved = crate::host::solve(&game, &Budget::unlimited()).unwrap();
                let mut perfect = agent(Level::Perfect, seed);
                let mv = perfect.choose(&game, &Budget::unlimited()).unwrap();
                let best = solved.best_moves.unwrap().unwrap();
                assert!(
                    best.contains(&mv),
                    "{spec} seed {seed}: {mv:?} not in {best:?}"
                );
                assert_eq!(
                    perfect.proven(),
                    Some(Proven::of_value(solved.value)),
                    "{spec} seed {seed}"
                );
            }
        }
    }

    fn start(spec: &str, swap: SwapRule) -> EulerGetter {
        EulerGetter::new(load_board(spec).unwrap(), Rule::Normal, swap)
    }

    #[test]
    fn the_greedy_playout_prefers_stones_that_raise_the_movers_chi_under_the_rule() {
        let start = start("goldberg:3", SwapRule::default());
        // Off: the game's own uniformly random playout, stone for stone.
        let mut plain = EulerPolicy::default();
        let mut meter = Budget::unlimited().meter();
        for seed in 0..5 {
            let (mut by_policy, mut by_game) = (start.clone(), start.clone());
            plain.playout(&mut by_policy, &mut Rng::new(seed), &mut meter);
            by_game.playout(&mut Rng::new(seed), &mut meter);
            assert_eq!(by_policy.stones(), by_game.stones());
            let mut recorded = start.clone();
            let mut record = Vec::new();
            plain.playout_recorded(&mut recorded, &mut Rng::new(seed), &mut meter, &mut record);
            assert_eq!(recorded.stones(), by_game.stones());
            assert_eq!(
                record.len(),
                recorded.placed() + usize::from(recorded.swapped())
            );
        }
        // On: the first 30 stones of 20 playouts add more χ to their movers, and under the
        // reverse rule less. (Over a whole playout the gains add up to the surface's χ
        // whatever the policy.)
        let early_gain = |greedy: f64, rule: Rule| {
            let policy = EulerPolicy {
                greedy,
                ..EulerPolicy::default()
            };
            let start = EulerGetter::new(start.complex().clone(), rule, SwapRule::default());
            let mut rng = Rng::new(1);
            let mut total = 0;
            for _ in 0..20 {
                let mut game = start.clone();
                while game.placed() < 30 {
                    let mover = game.to_move();
                    let before = game.chi(mover);
                    if let Move::Place(_) = policy.playout_step(&mut game, &mut rng).unwrap() {
                        total += game.chi(mover) - before;
                    }
                }
            }
            total
        };
        let (random, greedy) = (early_gain(0.0, Rule::Normal), early_gain(1.0, Rule::Normal));
        assert!(greedy > random + 20, "greedy {greedy}, random {random}");
        let (random, greedy) = (
            early_gain(0.0, Rule::Reverse),
            early_gain(1.0, Rule::Reverse),
        );
        assert!(
            greedy < random - 20,
            "reverse: greedy {greedy}, random {random}"
        );
    }

    #[test]
    fn greedy_playouts_keep_the_counts_that_a_count_from_scratch_finds() {
        let file = format!("file:{}/boards/n3.json", env!("CARGO_MANIFEST_DIR"));
        for spec in ["goldberg:2", "goldberg:3", "taylor:3", &file] {
            for (greedy, opponent_weight) in [(1.0, 0.0), (0.5, 0.5)] {
                let policy = EulerPolicy {
                    greedy,
                    opponent_weight,
                    ..EulerPolicy::default()
                };
                for seed in 0..4 {
                    let mut game = start(spec, SwapRule(Some(1)));
                    let mut rng = Rng::new(seed);
                    while policy.playout_step(&mut game, &mut rng).is_some() {
                        for p in Player::BOTH {
                            assert_eq!(game.counts(p), game.counts_from_scratch(p), "{spec}");
                        }
                    }
                    assert!(game.is_full());
                }
            }
        }
    }

    #[test]
    fn every_move_has_its_own_amaf_slot() {
        let mut moves = start("goldberg:3", SwapRule::default()).legal_moves();
        moves.push(Move::Swap);
        let policy = EulerPolicy::default();
        let slots: std::collections::HashSet<usize> = moves
            .iter()
            .map(|mv| policy.move_slot(mv).unwrap())
            .collect();
        assert_eq!(slots.len(), moves.len());
        assert!(slots.iter().all(|&slot| slot <= moves.len()));
    }

    #[test]
    fn the_prior_rates_a_stone_by_the_chi_it_adds() {
        let mut game = start("goldberg:3", SwapRule(Some(1)));
        let mut policy = EulerPolicy {
            prior_step: 0.25,
            ..EulerPolicy::default()
        };
        // X's first stone is a disc: χ 1.
        assert_eq!(policy.prior(&game, &Move::Place(0)), Some(0.75));
        game.play(&Move::Place(0));
        assert_eq!(
            policy.prior(&game, &Move::Swap),
            None,
            "no prior for the swap"
        );
        let neighbour = *game
            .complex()
            .edge_others(0)
            .iter()
            .find(|&&c| c != 0)
            .unwrap();
        let elsewhere = (1..46).find(|&c| c != neighbour as u16).unwrap();
        game.play(&Move::Place(elsewhere));
        // A stone sharing an edge with X's disc leaves one disc: no gain.
        assert_eq!(
            policy.prior(&game, &Move::Place(neighbour as u16)),
            Some(0.5)
        );
        assert_eq!(EulerPolicy::default().prior(&game, &Move::Place(3)), None);
    }

    #[test]
    fn the_swap_by_value_swaps_exactly_when_the_position_is_lost_for_the_mover() {
        let (mut swaps, mut stones) = (0, 0);
        for seed in 0..16 {
            let mut game = start("goldberg:1", SwapRule(Some(3)));
            let mut rng = Rng::new(seed);
            while !game.swap_available() {
                let mv = game.random_move(&mut rng).unwrap();
                game.play(&mv);
            }
            let mut search = EulerSearch {
                mcts: Mcts::with_policy(
                    SearchLimit::Iterations(2_000),
                    mcts_config(),
                    EulerPolicy::default(),
                    seed,
                ),
                swap_by_value: true,
            };
            let chosen = search.choose(&game, &Budget::unlimited()).unwrap();
            let sign = Solver::new(Budget::unlimited())
                .sign(&game.clone().without_swap())
                .unwrap();
            assert_eq!(chosen == Move::Swap, sign < 0, "seed {seed}");
            if chosen == Move::Swap {
                swaps += 1;
            } else {
                stones += 1;
            }
        }
        assert!(swaps > 0 && stones > 0, "swaps {swaps}, stones {stones}");
    }
}
