//! Exact solver: negamax with alpha-beta pruning, a transposition table of value bounds,
//! the game's move-ordering hook and its margin bounds ([`Game::margin_bounds`], which
//! settle a node without search when they already answer the window). Works for win/loss
//! games and for games scored at the end alike, since it maximises
//! [`Outcome::margin`](crate::Outcome). Who wins before by how much: [`Solver::at_least`]
//! asks "is X's margin at least m?" in a null window, and [`margin_by_tests`] finds the
//! margin from such tests, keeping the bounds proven when a budget runs out.

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

/// Fewest moves of a node at which [`Solver::cut_by_children`] looks up every child first.
const CUT_BY_CHILDREN_MOVES: usize = 8;

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
        let best_moves = self.moves_reaching(game, value)?;
        Ok(Solution {
            to_move: mover,
            value,
            margin: value * mover.sign(),
            best_moves,
            nodes: self.meter.nodes(),
            elapsed: self.meter.elapsed(),
        })
    }

    /// Every move of `game` that reaches `value` (the mover's), by one null-window test
    /// each; none when the game is over. Within the current call's budget.
    fn moves_reaching(&mut self, game: &G, value: i32) -> Result<Vec<G::Move>, SolveError> {
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
        Ok(best_moves)
    }

    /// Every move of `game` that reaches `value`, the mover's known minimax value (from
    /// [`Solver::value`] or [`margin_by_tests`]). The budget covers the call.
    pub fn best_moves(&mut self, game: &G, value: i32) -> Result<Vec<G::Move>, SolveError> {
        self.start_call();
        self.moves_reaching(game, value)
    }

    /// The move the table remembers as best in `game` (or as the one that cut it off), if
    /// any: where the last search's proof went, for a caller that writes the proof out.
    /// With positions hashed up to symmetry it may be a move of an image of `game`: a hint
    /// to try first, not an answer.
    pub fn remembered_move(&self, game: &G) -> Option<G::Move> {
        self.table.get(game.position_hash())?.best.clone()
    }

    /// Whether X's final margin ([`Outcome::margin`](crate::Outcome)) under perfect play
    /// from `game` is at least `threshold`: one null-window search, which cuts far more
    /// than a full window, and whose bounds stay in the table for the next threshold. The
    /// budget covers the call.
    pub fn at_least(&mut self, game: &G, threshold: i32) -> Result<bool, SolveError> {
        self.start_call();
        let holds = match game.to_move() {
            Player::X => self.negamax(game, threshold - 1, threshold) >= threshold,
            Player::O => -self.negamax(game, -threshold, 1 - threshold) >= threshold,
        };
        self.finished()?;
        Ok(holds)
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

    /// Enhanced transposition cutoff: a move whose position the table already shows to
    /// reach `beta` (the mover's) cuts the node before any child is searched, with the
    /// bound the table holds. Only in games that ask for it ([`Game::CHILDREN_LOOKED_UP_FIRST`])
    /// and at nodes of at least [`CUT_BY_CHILDREN_MOVES`] moves,
    /// whose subtrees are dear enough to repay a copy and a table probe per move.
    fn cut_by_children(&self, game: &G, moves: &[G::Move], beta: i32) -> Option<(i32, G::Move)> {
        if !G::CHILDREN_LOOKED_UP_FIRST || moves.len() < CUT_BY_CHILDREN_MOVES {
            return None;
        }
        let mover = game.to_move();
        // The children's hashes first, then the probes in a tight loop: the probes are
        // cache misses (most of this function's time), which the processor then overlaps.
        let children: Vec<(u64, bool)> = moves
            .iter()
            .map(|mv| {
                let mut child = game.clone();
                child.play(mv);
                (child.position_hash(), child.to_move() == mover)
            })
            .collect();
        moves
            .iter()
            .zip(children)
            .find_map(|(mv, (key, same_mover))| {
                let entry = self.table.get(key)?;
                let least = if same_mover {
                    entry.lower
                } else {
                    -entry.upper
                };
                (least >= beta).then(|| (least, mv.clone()))
            })
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
        // Bounds that already answer the window cut the node: fail-soft, the bound itself
        // is returned (every continuation keeps it). They are read after the table, which
        // answers many positions for less than the bounds cost to work out.
        if let Some((least, most)) = game.margin_bounds() {
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
        let (mut best, mut best_move) = match self.cut_by_children(game, &moves, beta) {
            Some((least, mv)) => (least, Some(mv)),
            None => (-INF, None),
        };
        for mv in &moves {
            if best >= beta {
                break;
            }
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
/// `step` is 1 in general, 2 for games whose margins all have one parity (odd: then
/// `m = 1` alone tells the winner). On an error the bounds proven so far come with it.
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
            bounds.most = Some(m - 1);
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
            let leaves = self.leaves();
            let (least, most) = (*leaves.iter().min()?, *leaves.iter().max()?);
            self.bounded.then_some((least - 1, most + 1))
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
        let won = MarginBounds {
            least: Some(1),
            most: None,
        };
        assert_eq!(won.winner(), Some(Some(Player::X)));
        assert_eq!(MarginBounds::default().winner(), None);
    }
}
