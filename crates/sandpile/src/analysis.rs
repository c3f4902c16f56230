//! Answers to the seed's questions, computed with the engine's generic searches: the
//! winner with perfect play (the exact solver), whether every play sequence has the same
//! winner (`sequences::reachable_results`), and the fewest chips that set a cascade
//! toppling for ever (`sequences::shortest_sequence`), read as chip-firing or under the
//! game's own rules.

use std::cell::RefCell;
use std::sync::Arc;
use std::time::Instant;

use crosscap_engine::sequences::{reachable_results, shortest_line, shortest_sequence};
use crosscap_engine::session::SetupLimits;
use crosscap_engine::solver::{Budget, SolveError, Solver};
use crosscap_engine::{Game, Player};
use crosscap_graphs::Graph;
use rayon::prelude::*;
use serde::Serialize;

use crate::board::{Board, Scratch, Toppling};
use crate::{Sandpile, SandpileError};

/// Who wins a position with perfect play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerfectPlay {
    /// The winner with perfect play (`None`: a draw).
    pub winner: Option<Player>,
    /// The moves that achieve it for the player to move.
    pub best_moves: Vec<usize>,
    /// Nodes the exact solver visited.
    pub nodes: u64,
}

/// What can happen at all, over every legal play sequence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Sequences {
    /// Whether every legal play sequence ends with the same result.
    pub predetermined: bool,
    /// Every result some play sequence reaches (`None`: a draw, `"draw"` in JSON), X
    /// first.
    #[serde(serialize_with = "results")]
    pub possible_winners: Vec<Option<Player>>,
    /// Positions in the game tree (up to symmetry) visited to find them.
    pub positions: u64,
}

/// The two answers of [`analyse`], each found or cut short by the budget on its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub perfect_play: Result<PerfectPlay, SolveError>,
    pub sequences: Result<Sequences, SolveError>,
}

/// A result as its name: `X`, `O` or `draw`.
pub fn result_name(winner: Option<Player>) -> String {
    winner.map_or("draw".to_string(), |p| p.to_string())
}

fn results<S: serde::Serializer>(winners: &[Option<Player>], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(winners.iter().map(|&w| result_name(w)))
}

/// The winner with perfect play, by the engine's exact solver.
pub fn perfect_play(game: &Sandpile, budget: &Budget) -> Result<PerfectPlay, SolveError> {
    let solution = Solver::new(budget.clone()).solve(game)?;
    let winner = match game.outcome() {
        Some(outcome) => outcome.winner,
        None if solution.value > 0 => Some(game.to_move()),
        None if solution.value < 0 => Some(game.to_move().opponent()),
        None => None,
    };
    Ok(PerfectPlay {
        winner,
        best_moves: solution.best_moves,
        nodes: solution.nodes,
    })
}

/// The results reachable from `game` over every play sequence.
pub fn sequences(game: &Sandpile, budget: &Budget) -> Result<Sequences, SolveError> {
    let reachable = reachable_results(game, budget)?;
    Ok(Sequences {
        predetermined: reachable.predetermined().is_some(),
        possible_winners: reachable.winners(),
        positions: reachable.positions,
    })
}

/// Solves `game` exactly and enumerates the results reachable from it. The budget's time
/// covers both searches (the second gets what the first left), its node and memory caps
/// apply to each; one running out does not keep the other from answering.
pub fn analyse(game: &Sandpile, budget: &Budget) -> Analysis {
    let start = Instant::now();
    let perfect_play = perfect_play(game, budget);
    let sequences = sequences(game, &budget.less(0, start.elapsed()));
    Analysis {
        perfect_play,
        sequences,
    }
}

/// The fewest chips, placed one at a time on any vertices (colours ignored) with toppling
/// in between, after which toppling never stops, and a placement sequence achieving it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MinTopple {
    pub chips: usize,
    pub placements: Vec<usize>,
}

/// Question 4 read as chip-firing: breadth-first over the stable chip configurations
/// reachable by single placements (up to symmetry; chips on sinks ignored, as they never
/// move), to the first placement that sets a closed class toppling for ever. `None` when
/// no number of chips does (every chip drains into a sink).
pub fn min_topple(board: &Board, budget: &Budget) -> Result<Option<MinTopple>, SolveError> {
    let n = board.vertex_count();
    let scratch = &RefCell::new(Scratch::default());
    let start = (vec![0u32; n], false);
    let key = |(scores, erupted): &(Vec<u32>, bool)| {
        let live = |v: usize| if board.is_sink(v) { 0 } else { scores[v] };
        let mut best: Option<Vec<u32>> = None;
        for perm in board.symmetries() {
            let image: Vec<u32> = perm.iter().map(|&v| live(v)).collect();
            if best.as_ref().is_none_or(|b| image < *b) {
                best = Some(image);
            }
        }
        (best.unwrap_or_default(), *erupted)
    };
    // One placement at a time, so that the search's budget binds between two of them.
    let successors = |(scores, erupted): &(Vec<u32>, bool)| {
        let scores = scores.clone();
        let vertices = if *erupted { 0..0 } else { 0..n };
        vertices.map(move |v| {
            let mut next = scores.clone();
            let cascade = board.place(&mut next, &|_| false, v, &mut scratch.borrow_mut());
            (v, (next, !cascade.erupted.is_empty()))
        })
    };
    // A state and its key: two score vectors.
    let state_bytes = 2 * n * std::mem::size_of::<u32>();
    let line = shortest_sequence(start, key, successors, |s| s.1, state_bytes, budget)?;
    Ok(line.map(|placements| MinTopple {
        chips: placements.len(),
        placements,
    }))
}

/// Question 4 under the game's own rules (alternate moves, each player only on unclaimed
/// or own vertices, play stopping when the game ends): a shortest line of moves whose last
/// move sets a cascade toppling for ever; `None` when every game ends before one can.
pub fn min_topple_game(game: &Sandpile, budget: &Budget) -> Result<Option<Vec<usize>>, SolveError> {
    shortest_line(game, Sandpile::last_move_erupted, budget)
}

/// One row of `classify`: a graph and the answers to the seed's questions, each found or
/// cut short by the budget on its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassifyRow {
    pub graph6: String,
    pub vertices: usize,
    pub edges: usize,
    /// Questions 1 and 2: the winner with perfect play, and what every sequence reaches.
    pub analysis: Analysis,
    /// Question 4 as chip-firing (`None`: never).
    pub min_topple: Result<Option<usize>, SolveError>,
    /// Question 4 under the game's rules (`None`: never).
    pub min_topple_game: Result<Option<usize>, SolveError>,
}

/// Classifies one undirected graph under `toppling`, refused over `limits` like any game's
/// setup. The budget's time covers the graph's four searches, its node and memory caps
/// apply to each.
pub fn classify(
    graph: Graph,
    toppling: Toppling,
    budget: &Budget,
    limits: &SetupLimits,
) -> Result<ClassifyRow, SandpileError> {
    let start = Instant::now();
    let left = || budget.less(0, start.elapsed());
    let graph6 = graph
        .to_graph6()
        .unwrap_or_else(|| graph.spec().to_string());
    let (vertices, edges) = (graph.vertex_count(), graph.edge_count());
    limits.check_moves(vertices as u128)?;
    let board = Arc::new(Board::with_toppling(graph, toppling)?);
    let game = Sandpile::new(Arc::clone(&board));
    let analysis = analyse(&game, budget);
    let min_topple = min_topple(&board, &left()).map(|found| found.map(|m| m.chips));
    let min_topple_game = min_topple_game(&game, &left()).map(|line| line.map(|l| l.len()));
    Ok(ClassifyRow {
        graph6,
        vertices,
        edges,
        analysis,
        min_topple,
        min_topple_game,
    })
}

/// Classifies many graphs in parallel, keeping their order; `done` is called after each.
pub fn classify_all(
    graphs: Vec<Graph>,
    toppling: Toppling,
    budget: &Budget,
    limits: &SetupLimits,
    done: &(dyn Fn() + Sync),
) -> Vec<Result<ClassifyRow, SandpileError>> {
    graphs
        .into_par_iter()
        .map(|graph| {
            let row = classify(graph, toppling, budget, limits);
            done();
            row
        })
        .collect()
}

#[cfg(test)]
mod tests;
