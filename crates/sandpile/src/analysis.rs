//! Answers to the seed's questions, computed with the engine's generic searches: the
//! winner with perfect play (the exact solver), whether every play sequence has the same
//! winner (`sequences::reachable_results`), and the fewest chips that set a cascade
//! toppling for ever (`sequences::shortest_sequence`), read as chip-firing or under the
//! game's own rules.

use std::cell::RefCell;
use std::sync::Arc;

use crosscap_engine::sequences::{reachable_results, shortest_line, shortest_sequence};
use crosscap_engine::solver::{Budget, Solver};
use crosscap_engine::{Game, Player};
use crosscap_graphs::Graph;
use rayon::prelude::*;
use serde::Serialize;

use crate::board::{Board, Scratch};
use crate::{Sandpile, SandpileError};

/// Who wins a position with perfect play, and what can happen at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The winner with perfect play (`None`: a draw).
    pub winner: Option<Player>,
    /// The moves that achieve it for the player to move.
    pub best_moves: Vec<usize>,
    /// Whether every legal play sequence ends with the same result.
    pub predetermined: bool,
    /// Every result some play sequence reaches (`None`: a draw), X first.
    pub possible_winners: Vec<Option<Player>>,
    /// Positions in the game tree (up to symmetry) visited to find them.
    pub positions: u64,
    /// Nodes the exact solver visited.
    pub solver_nodes: u64,
}

/// Solves `game` exactly and enumerates the results reachable from it.
pub fn analyse(game: &Sandpile, budget: &Budget) -> Result<Analysis, SandpileError> {
    let solution = Solver::new(budget.clone()).solve(game)?;
    let winner = match game.outcome() {
        Some(outcome) => outcome.winner,
        None if solution.value > 0 => Some(game.to_move()),
        None if solution.value < 0 => Some(game.to_move().opponent()),
        None => None,
    };
    let reachable = reachable_results(game, budget)?;
    Ok(Analysis {
        winner,
        best_moves: solution.best_moves,
        predetermined: reachable.predetermined().is_some(),
        possible_winners: reachable.winners(),
        positions: reachable.positions,
        solver_nodes: solution.nodes,
    })
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
pub fn min_topple(board: &Board, budget: &Budget) -> Result<Option<MinTopple>, SandpileError> {
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
pub fn min_topple_game(
    game: &Sandpile,
    budget: &Budget,
) -> Result<Option<Vec<usize>>, SandpileError> {
    Ok(shortest_line(game, Sandpile::last_move_erupted, budget)?)
}

/// One row of `classify`: a graph and the answers to the seed's questions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClassifyRow {
    pub graph6: String,
    pub vertices: usize,
    pub edges: usize,
    /// The winner with perfect play (`None`: a draw).
    pub winner: Option<Player>,
    pub predetermined: bool,
    pub possible_winners: Vec<Option<Player>>,
    /// Question 4 as chip-firing (`None`: never).
    pub min_topple: Option<usize>,
    /// Question 4 under the game's rules (`None`: never).
    pub min_topple_game: Option<usize>,
    pub positions: u64,
}

/// Classifies one undirected graph.
pub fn classify(graph: Graph, budget: &Budget) -> Result<ClassifyRow, SandpileError> {
    let graph6 = graph
        .to_graph6()
        .unwrap_or_else(|| graph.spec().to_string());
    let (vertices, edges) = (graph.vertex_count(), graph.edge_count());
    let board = Arc::new(Board::new(graph)?);
    let game = Sandpile::new(Arc::clone(&board));
    let analysis = analyse(&game, budget)?;
    Ok(ClassifyRow {
        graph6,
        vertices,
        edges,
        winner: analysis.winner,
        predetermined: analysis.predetermined,
        possible_winners: analysis.possible_winners,
        min_topple: min_topple(&board, budget)?.map(|m| m.chips),
        min_topple_game: min_topple_game(&game, budget)?.map(|line| line.len()),
        positions: analysis.positions,
    })
}

/// Classifies many graphs in parallel, keeping their order; `done` is called after each.
pub fn classify_all(
    graphs: Vec<Graph>,
    budget: &Budget,
    done: &(dyn Fn() + Sync),
) -> Vec<Result<ClassifyRow, SandpileError>> {
    graphs
        .into_par_iter()
        .map(|graph| {
            let row = classify(graph, budget);
            done();
            row
        })
        .collect()
}

#[cfg(test)]
mod tests;
