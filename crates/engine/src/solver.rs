//! Exact solver: negamax with alpha-beta pruning, a transposition table of value bounds
//! and the game's move-ordering hook. Works for win/loss games and for games scored at
//! the end alike, since it maximises [`Outcome::margin`](crate::Outcome).

use std::time::Duration;

pub use crate::budget::Budget;
use crate::budget::{Exhausted, Meter};
use crate::game::{Game, Player};
use crate::table::BoundedTable;

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

/// A reusable solver: its transposition table persists between calls, so solving many
/// related positions (every opening, say) shares work.
/// What the table remembers of a position: bounds on its value and the move that was
/// best (or caused the cutoff) last time, tried first next time.
struct Entry<M> {
    lower: i32,
    upper: i32,
    best: Option<M>,
}

pub struct Solver<G: Game> {
    table: BoundedTable<Entry<G::Move>>,
    budget: Budget,
    /// Nodes of the calls before the current one.
    nodes: u64,
    meter: Meter,
    /// Bytes held along the line being searched: a position and a move list per level.
    /// The table keeps within three quarters of the memory cap (it replaces entries to
    /// stay there); a search whose line outgrows what the table leaves of the cap stops.
    line_bytes: usize,
    _game: std::marker::PhantomData<fn(G)>,
}

impl<G: Game> Solver<G> {
    pub fn new(budget: Budget) -> Self {
        Solver {
            table: BoundedTable::new(budget.max_memory.map(|bytes| bytes / 4 * 3)),
            meter: budget.meter(),
            budget,
            nodes: 0,
            line_bytes: 0,
            _game: std::marker::PhantomData,
        }
    }

    /// Nodes visited since this solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes + self.meter.nodes()
    }

    /// The budget of the next calls (the table is kept, within its first memory cap).
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// Solves `game`: its value and every optimal move. The budget covers the call.
    pub fn solve(&mut self, game: &G) -> Result<Solution<G::Move>, SolveError> {
        self.start_call();
        let value = self.negamax(game, -INF, INF);
        self.finished()?;
        let mover = game.to_move();
        let mut best_moves = Vec::new();
        if game.outcome().is_none() {
            let mut moves = game.legal_moves();
            game.order_moves(&mut moves);
            for mv in moves {
                let mut child = game.clone();
                child.play(&mv);
                // A null-window test: does this move reach at least `value`?
                let at_least = self.child_value(&child, mover, value - 1, value);
                self.finished()?;
                if at_least >= value {
                    best_moves.push(mv);
                }
            }
        }
        Ok(Solution {
            to_move: mover,
            value,
            margin: value * mover.sign(),
            best_moves,
            nodes: self.meter.nodes(),
            elapsed: self.meter.elapsed(),
        })
    }

    /// The exact value of every legal move, from the mover's point of view, best first.
    pub fn move_values(&mut self, game: &G) -> Result<Vec<(G::Move, i32)>, SolveError> {
        self.start_call();
        let mover = game.to_move();
        let mut values = Vec::new();
        for mv in game.legal_moves() {
            let mut child = game.clone();
            child.play(&mv);
            let v = self.child_value(&child, mover, -INF, INF);
            self.finished()?;
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
        let v = self.negamax(game, -1, 1);
        self.finished()?;
        Ok(v.signum())
    }

    /// The minimax value of `game` for the player to move.
    pub fn value(&mut self, game: &G) -> Result<i32, SolveError> {
        self.start_call();
        let v = self.negamax(game, -INF, INF);
        self.finished()?;
        Ok(v)
    }

    /// A fresh meter for a public call.
    fn start_call(&mut self) {
        self.nodes += self.meter.nodes();
        self.meter = self.budget.meter();
        self.line_bytes = 0;
    }

    /// `Unknown` when the budget ran out during this call.
    fn finished(&self) -> Result<(), SolveError> {
        match self.meter.exhausted() {
            Some(_) => Err(self.meter.unknown()),
            None => Ok(()),
        }
    }

    fn stopped(&self) -> bool {
        self.meter.exhausted().is_some()
    }

    /// The value of `child` for `mover`, searched in `mover`'s window `(alpha, beta)`;
    /// handles games where the same player may move twice.
    fn child_value(&mut self, child: &G, mover: Player, alpha: i32, beta: i32) -> i32 {
        if child.to_move() == mover {
            self.negamax(child, alpha, beta)
        } else {
            -self.negamax(child, -beta, -alpha)
        }
    }

    fn negamax(&mut self, game: &G, mut alpha: i32, mut beta: i32) -> i32 {
        if self.meter.tick() {
            return 0;
        }
        let nodes_before = self.meter.nodes();
        let mover = game.to_move();
        if let Some(outcome) = game.outcome() {
            return outcome.value_for(mover);
        }
        let key = game.position_hash();
        let (lower, upper, remembered) = match self.table.get(key) {
            Some(e) => (e.lower, e.upper, e.best.clone()),
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

        let mut moves = game.legal_moves();
        let level_bytes = game.memory_bytes() + moves.len() * std::mem::size_of::<G::Move>();
        self.line_bytes += level_bytes;
        if self.meter.over_memory(self.table.bytes() + self.line_bytes) {
            return 0;
        }
        game.order_moves(&mut moves);
        if let Some(first) = remembered
            && let Some(i) = moves.iter().position(|m| *m == first)
        {
            moves[..=i].rotate_right(1);
        }
        let mut best = -INF;
        let mut best_move = None;
        for mv in &moves {
            let mut child = game.clone();
            child.play(mv);
            let v = self.child_value(&child, mover, alpha.max(best), beta);
            if self.stopped() {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(mv.clone());
            }
            if best >= beta {
                break;
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
            Entry {
                lower,
                upper,
                best: best_move,
            },
        );
        best
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
