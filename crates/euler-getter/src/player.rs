//! The computer player: the engine's MCTS with a reward that counts the final margin of
//! Euler characteristics as well as the win, at named strength levels.

use std::sync::Arc;

use crosscap_engine::agents::{
    FlatMonteCarlo, Named, PERFECT_NODE_BUDGET, PERFECT_TIME, PerfectAgent, RandomAgent,
};
use crosscap_engine::mcts::{Mcts, MctsConfig, PlayoutPolicy, SearchLimit};
use crosscap_engine::solver::{Budget, Solver};
use crosscap_engine::{Agent, Game, Level, Meter, Outcome, Player, Rng};
use crosscap_topology::Symmetries;

use crate::game::{EulerGetter, Move};

/// The search settings: random playouts scored by win or loss, RAVE (a stone's value on
/// a surface hardly depends on when it is played), little UCT exploration on top of
/// RAVE's, and the tree kept between moves. Each was measured on and off at equal time
/// against flatmc:160 on goldberg:3 (BENCHMARKS.md, "Euler Getter at equal time"):
/// from 14/40 games with [`baseline_mcts_config`] to 33–36/40. The endgame solver
/// (`prove` and `leaf_solver` with [`EndgameSolver`]) stays off: it measured no stronger.
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

/// Most empty cells of a position that the leaf solver ([`EndgameSolver`]) is asked about.
pub const LEAF_SOLVER_MAX_EMPTY: usize = 6;

/// Nodes the leaf solver may search per position before it gives no verdict.
pub const LEAF_SOLVER_NODES: u64 = 300;

/// Memory of the leaf solver's table.
const LEAF_SOLVER_MEMORY: usize = 16 << 20;

/// Random playouts, with the scored exact solver for endgames: a position with at most
/// [`LEAF_SOLVER_MAX_EMPTY`] empty cells is solved within [`LEAF_SOLVER_NODES`] nodes, and
/// the sign of its margin names the winner (a drawn position is left to the playouts).
pub struct EndgameSolver {
    solver: Solver<EulerGetter>,
}

impl Default for EndgameSolver {
    fn default() -> Self {
        EndgameSolver {
            solver: Solver::new(Budget::nodes(LEAF_SOLVER_NODES).with_memory(LEAF_SOLVER_MEMORY)),
        }
    }
}

/// A copy for another search thread: the same solver with a table of its own.
impl Clone for EndgameSolver {
    fn clone(&self) -> Self {
        EndgameSolver::default()
    }
}

impl PlayoutPolicy<EulerGetter> for EndgameSolver {
    fn playout(
        &mut self,
        game: &mut EulerGetter,
        rng: &mut Rng,
        meter: &mut Meter,
    ) -> Option<Outcome> {
        game.playout(rng, meter)
    }

    fn solve_leaf(&mut self, game: &EulerGetter) -> Option<Player> {
        if game.complex().cell_count() - game.placed() > LEAF_SOLVER_MAX_EMPTY {
            return None;
        }
        game.to_move().winner_by(self.solver.sign(game).ok()?)
    }
}

/// The computer player at `level`: MCTS for the named levels (times per move, see
/// [`Level::think_ms`]), `mcts:N` and `mcts:Nms` (the swap
/// decision is one of its moves) and, with [`baseline_mcts_config`], `plain:LEVEL`; the
/// exact solver for `perfect` (falling back to expert), and the engine's random and flat
/// Monte Carlo baselines.
pub fn agent(level: Level, seed: u64) -> Box<dyn Agent<EulerGetter>> {
    match level {
        Level::Random => Box::new(RandomAgent::new(seed)),
        Level::FlatMc(playouts) => Box::new(FlatMonteCarlo::new(playouts, seed)),
        Level::Perfect => Box::new(SymmetricPerfect {
            symmetries: None,
            solver: PerfectAgent::new(
                Budget::nodes(PERFECT_NODE_BUDGET).with_time(PERFECT_TIME),
                agent(Level::Expert, seed),
                seed,
            ),
            fallback: agent(Level::Expert, seed),
        }),
        named => {
            let config = if named.is_plain() {
                baseline_mcts_config()
            } else {
                mcts_config()
            };
            let limit = named.search_limit().unwrap_or(SearchLimit::Iterations(1));
            Named::boxed(named, mcts_with(limit, config, seed))
        }
    }
}

/// The MCTS player with Euler Getter's playouts, a tuning ([`mcts_config`], or another
/// to measure the switches on and off) and any search limit (a playout count or a
/// thinking time).
pub fn mcts_with(limit: SearchLimit, config: MctsConfig, seed: u64) -> Box<dyn Agent<EulerGetter>> {
    Box::new(Mcts::with_policy(
        limit,
        config,
        EndgameSolver::default(),
        seed,
    ))
}

/// Most empty cells the perfect player tries to solve; with more it plays as expert at
/// once rather than spend its whole budget in vain (goldberg:2, 21 cells, takes about 9
/// million nodes).
pub const PERFECT_MAX_EMPTY_CELLS: usize = 22;

/// The engine's perfect player searching with symmetry-aware hashing, which shrinks the
/// solver's table by up to the order of the board's symmetry group.
struct SymmetricPerfect {
    symmetries: Option<Arc<Symmetries>>,
    solver: PerfectAgent<EulerGetter>,
    fallback: Box<dyn Agent<EulerGetter>>,
}

impl Agent<EulerGetter> for SymmetricPerfect {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn choose(&mut self, game: &EulerGetter, budget: &Budget) -> Option<Move> {
        if game.complex().cell_count() - game.placed() > PERFECT_MAX_EMPTY_CELLS {
            return self.fallback.choose(game, budget);
        }
        let symmetries = self
            .symmetries
            .get_or_insert_with(|| Arc::new(game.complex().board().symmetries()))
            .clone();
        self.solver
            .choose(&game.clone().with_symmetries(symmetries), budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Rule, SwapRule};
    use crate::load_board;

    #[test]
    fn the_endgame_solver_names_the_winner_of_small_positions_only() {
        let board = load_board("goldberg:1").unwrap();
        let start = EulerGetter::new(board, Rule::Normal, SwapRule(None));
        let mut leaf = EndgameSolver::default();
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
            EndgameSolver::default(),
            1,
        );
        let stats = mcts.search(&start, &Budget::unlimited());
        assert_eq!(stats[0].proven_winner, Some(Player::X));
        let mut after = start.clone();
        after.play(&stats[0].mv);
        assert_eq!(leaf.solve_leaf(&after), Some(Player::X));
    }
}
