//! The computer player: the engine's MCTS with a reward that counts the final margin of
//! Euler characteristics as well as the win, at named strength levels.

use std::sync::Arc;

use crosscap_engine::agents::{
    FlatMonteCarlo, Named, PERFECT_NODE_BUDGET, PERFECT_TIME, PerfectAgent, RandomAgent,
};
use crosscap_engine::mcts::{Mcts, MctsConfig, SearchLimit};
use crosscap_engine::solver::Budget;
use crosscap_engine::{Agent, Level};
use crosscap_topology::Symmetries;

use crate::game::{EulerGetter, Move};

/// The search settings: random playouts whose reward blends the win (90%) with the final
/// margin of Euler characteristics (10%, a margin of 6 counting fully), so that among
/// moves of equal win rate the search prefers larger margins.
pub fn mcts_config() -> MctsConfig {
    MctsConfig {
        exploration: 0.5,
        score_weight: 0.1,
        score_scale: 6.0,
        ..MctsConfig::default()
    }
}

/// The computer player at `level`: MCTS for the named levels (times per move, see
/// [`Level::think_ms`]), `mcts:N` and `mcts:Nms` (the swap
/// decision is one of its moves), the exact solver for `perfect` (falling back to
/// expert), and the engine's random and flat Monte Carlo baselines.
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
        named => Named::boxed(
            named,
            mcts(
                named.search_limit().unwrap_or(SearchLimit::Iterations(1)),
                seed,
            ),
        ),
    }
}

/// The MCTS player with Euler Getter's settings and any search limit (a playout count or
/// a thinking time).
pub fn mcts(limit: SearchLimit, seed: u64) -> Box<dyn Agent<EulerGetter>> {
    Box::new(Mcts::new(limit, mcts_config(), seed))
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
