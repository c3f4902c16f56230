//! Exact solver: negamax with alpha-beta pruning, a transposition table of value bounds
//! and the game's move-ordering hook. Works for win/loss games and for games scored at
//! the end alike, since it maximises [`Outcome::margin`](crate::Outcome).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::game::{Game, Player};

/// How much work the solver may do before giving up with [`SolveError::Unknown`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    pub max_nodes: Option<u64>,
    pub max_time: Option<Duration>,
}

impl Budget {
    pub fn unlimited() -> Budget {
        Budget::default()
    }

    pub fn nodes(max_nodes: u64) -> Budget {
        Budget {
            max_nodes: Some(max_nodes),
            max_time: None,
        }
    }

    pub fn time(max_time: Duration) -> Budget {
        Budget {
            max_nodes: None,
            max_time: Some(max_time),
        }
    }

    /// Whether a search that has visited `nodes` since `start` must stop. The clock is
    /// read only every 1024 nodes, so checking costs almost nothing per node.
    pub fn exhausted(&self, nodes: u64, start: Instant) -> bool {
        self.max_nodes.is_some_and(|max| nodes > max)
            || (nodes.is_multiple_of(1024)
                && self.max_time.is_some_and(|max| start.elapsed() > max))
    }
}

/// The budget ran out before the position was solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    #[error("unknown: the search budget ran out after {nodes} nodes in {elapsed:?}")]
    Unknown { nodes: u64, elapsed: Duration },
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
    table: HashMap<u64, Entry<G::Move>>,
    budget: Budget,
    nodes: u64,
    start: Instant,
    aborted: bool,
    _game: std::marker::PhantomData<fn(G)>,
}

impl<G: Game> Solver<G> {
    pub fn new(budget: Budget) -> Self {
        Solver {
            table: HashMap::new(),
            budget,
            nodes: 0,
            start: Instant::now(),
            aborted: false,
            _game: std::marker::PhantomData,
        }
    }

    /// Nodes visited since this solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The budget of the next calls (the table is kept).
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// Solves `game`: its value and every optimal move.
    pub fn solve(&mut self, game: &G) -> Result<Solution<G::Move>, SolveError> {
        let call_start = Instant::now();
        let nodes_before = self.nodes;
        let value = self.value(game)?;
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
                self.check_aborted(call_start, nodes_before)?;
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
            nodes: self.nodes - nodes_before,
            elapsed: call_start.elapsed(),
        })
    }

    /// The exact value of every legal move, from the mover's point of view, best first.
    pub fn move_values(&mut self, game: &G) -> Result<Vec<(G::Move, i32)>, SolveError> {
        let call_start = Instant::now();
        let nodes_before = self.nodes;
        let mover = game.to_move();
        let mut values = Vec::new();
        for mv in game.legal_moves() {
            let mut child = game.clone();
            child.play(&mv);
            let v = self.child_value(&child, mover, -INF, INF);
            self.check_aborted(call_start, nodes_before)?;
            values.push((mv, v));
        }
        values.sort_by_key(|(_, v)| -v);
        Ok(values)
    }

    /// The minimax value of `game` for the player to move.
    pub fn value(&mut self, game: &G) -> Result<i32, SolveError> {
        let call_start = Instant::now();
        let nodes_before = self.nodes;
        self.start = Instant::now();
        self.aborted = false;
        let v = self.negamax(game, -INF, INF);
        self.check_aborted(call_start, nodes_before)?;
        Ok(v)
    }

    fn check_aborted(&self, call_start: Instant, nodes_before: u64) -> Result<(), SolveError> {
        if self.aborted {
            Err(SolveError::Unknown {
                nodes: self.nodes - nodes_before,
                elapsed: call_start.elapsed(),
            })
        } else {
            Ok(())
        }
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

    fn out_of_budget(&mut self) -> bool {
        self.aborted |= self.budget.exhausted(self.nodes, self.start);
        self.aborted
    }

    fn negamax(&mut self, game: &G, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let mover = game.to_move();
        if let Some(outcome) = game.outcome() {
            return outcome.value_for(mover);
        }
        let key = game.position_hash();
        let (lower, upper, remembered) = match self.table.get(&key) {
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
            if self.aborted {
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
        let (lower, upper) = if best <= alpha {
            (lower, best.min(upper))
        } else if best >= beta {
            (best.max(lower), upper)
        } else {
            (best, best)
        };
        self.table.insert(
            key,
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
