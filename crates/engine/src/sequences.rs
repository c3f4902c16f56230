//! Searches over every play sequence rather than over optimal play: which results can
//! happen at all (is the winner predetermined, whatever is played?) and the shortest
//! sequence of moves that reaches a goal. Both explore each position once, keyed by
//! [`Game::position_hash`] and the player to move (or a caller's key), so a game whose
//! hash merges symmetric positions is searched up to symmetry.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::Hash;
use std::mem::size_of;

use crate::budget::Budget;
use crate::game::{Game, Player};
use crate::solver::SolveError;

/// The results reachable from a position over all legal play sequences.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReachableResults {
    pub x_wins: bool,
    pub o_wins: bool,
    pub draws: bool,
    /// Positions visited.
    pub positions: u64,
}

impl ReachableResults {
    /// The winners that can occur (`None` standing for a draw), X first.
    pub fn winners(&self) -> Vec<Option<Player>> {
        [
            (self.x_wins, Some(Player::X)),
            (self.o_wins, Some(Player::O)),
            (self.draws, None),
        ]
        .into_iter()
        .filter_map(|(possible, winner)| possible.then_some(winner))
        .collect()
    }

    /// The one result every play sequence leads to, if there is just one.
    pub fn predetermined(&self) -> Option<Option<Player>> {
        match self.winners().as_slice() {
            [only] => Some(*only),
            _ => None,
        }
    }

    fn complete(&self) -> bool {
        self.x_wins && self.o_wins && self.draws
    }
}

/// Every result reachable from `game`: a depth-first walk over all positions reachable by
/// legal moves, each visited once, stopping early once all three results have been seen.
/// Each move played is a node of the budget (so its limits bind between two moves however
/// many moves a position has); the positions seen and those waiting count against its
/// memory.
pub fn reachable_results<G: Game>(
    game: &G,
    budget: &Budget,
) -> Result<ReachableResults, SolveError> {
    let mut meter = budget.meter();
    let seen_bytes = 2 * size_of::<(u64, Player)>();
    let position_bytes = game.memory_bytes();
    let mut results = ReachableResults::default();
    let mut seen = HashSet::new();
    let mut stack = vec![game.clone()];
    seen.insert(key(game));
    while let Some(position) = stack.pop() {
        results.positions += 1;
        if meter.over_memory(seen.len() * seen_bytes + stack.len() * position_bytes) {
            return Err(meter.unknown());
        }
        if let Some(outcome) = position.outcome() {
            match outcome.winner {
                Some(Player::X) => results.x_wins = true,
                Some(Player::O) => results.o_wins = true,
                None => results.draws = true,
            }
            if results.complete() {
                break;
            }
            continue;
        }
        for mv in position.legal_moves() {
            if meter.tick() {
                return Err(meter.unknown());
            }
            let mut child = position.clone();
            child.play(&mv);
            if seen.insert(key(&child)) {
                stack.push(child);
            }
        }
    }
    Ok(results)
}

/// A shortest sequence of steps from `start` to a state satisfying `goal`, by
/// breadth-first search over the states `successors` generates (each a step and the state
/// it leads to, produced one at a time), states being identified by `key`. `None` when no
/// reachable state is a goal. Each state generated (kept or already known) is a node of
/// `budget`, so its limits bind between two steps; its memory counts `state_bytes` for
/// each state kept with its key.
pub fn shortest_sequence<S, M, K, I>(
    start: S,
    key: impl Fn(&S) -> K,
    successors: impl Fn(&S) -> I,
    goal: impl Fn(&S) -> bool,
    state_bytes: usize,
    budget: &Budget,
) -> Result<Option<Vec<M>>, SolveError>
where
    M: Clone,
    K: Hash + Eq,
    I: IntoIterator<Item = (M, S)>,
{
    let mut meter = budget.meter();
    let per_state = state_bytes + size_of::<(Option<(usize, M)>, K, usize)>();
    if goal(&start) {
        return Ok(Some(Vec::new()));
    }
    // Each discovered state: its parent's index and the step from there.
    let mut parents: Vec<Option<(usize, M)>> = vec![None];
    let mut index_of = HashMap::new();
    index_of.insert(key(&start), 0usize);
    let mut queue = VecDeque::from([(0usize, start)]);
    while let Some((index, state)) = queue.pop_front() {
        for (step, next) in successors(&state) {
            if meter.tick() {
                return Err(meter.unknown());
            }
            let next_index = parents.len();
            match index_of.entry(key(&next)) {
                Entry::Occupied(_) => continue,
                Entry::Vacant(slot) => {
                    slot.insert(next_index);
                }
            }
            parents.push(Some((index, step)));
            if meter.over_memory(parents.len() * per_state) {
                return Err(meter.unknown());
            }
            if goal(&next) {
                let mut steps = Vec::new();
                let mut at = next_index;
                while let Some((parent, step)) = &parents[at] {
                    steps.push(step.clone());
                    at = *parent;
                }
                steps.reverse();
                return Ok(Some(steps));
            }
            queue.push_back((next_index, next));
        }
    }
    Ok(None)
}

/// A shortest line of legal moves from `game` to a position satisfying `goal`, searched
/// with [`shortest_sequence`] over positions keyed by their hash and player to move.
pub fn shortest_line<G: Game>(
    game: &G,
    goal: impl Fn(&G) -> bool,
    budget: &Budget,
) -> Result<Option<Vec<G::Move>>, SolveError> {
    shortest_sequence(
        game.clone(),
        key,
        // One child at a time, so that the budget binds between two of them.
        |position: &G| {
            let position = position.clone();
            let moves = match position.outcome() {
                Some(_) => Vec::new(),
                None => position.legal_moves(),
            };
            moves.into_iter().map(move |mv| {
                let mut child = position.clone();
                child.play(&mv);
                (mv, child)
            })
        },
        goal,
        game.memory_bytes(),
        budget,
    )
}

/// Identifies a position: its hash and, since not every game hashes it (impartial games
/// need not), the player to move.
fn key<G: Game>(game: &G) -> (u64, Player) {
    (game.position_hash(), game.to_move())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impartial::NormalPlay;
    use crate::nim::Nim;

    fn nim(heaps: &[u32]) -> NormalPlay<Nim> {
        NormalPlay::new(Nim::new(heaps.to_vec()))
    }

    #[test]
    fn one_heap_of_one_has_a_predetermined_winner() {
        let results = reachable_results(&nim(&[1]), &Budget::unlimited()).unwrap();
        assert_eq!(results.predetermined(), Some(Some(Player::X)));
    }

    #[test]
    fn two_heaps_can_go_either_way() {
        let results = reachable_results(&nim(&[1, 2]), &Budget::unlimited()).unwrap();
        assert_eq!(results.winners(), vec![Some(Player::X), Some(Player::O)]);
        assert_eq!(results.predetermined(), None);
    }

    #[test]
    fn a_tiny_budget_gives_up() {
        assert!(reachable_results(&nim(&[5, 5, 5]), &Budget::nodes(3)).is_err());
    }

    thread_local! {
        static PLAYED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    /// Nim that counts the moves played on this thread: how far a search went.
    #[derive(Clone)]
    struct Counted(NormalPlay<Nim>);

    impl Game for Counted {
        type Move = crate::nim::NimMove;
        fn to_move(&self) -> Player {
            self.0.to_move()
        }
        fn legal_moves(&self) -> Vec<Self::Move> {
            self.0.legal_moves()
        }
        fn play(&mut self, mv: &Self::Move) {
            PLAYED.with(|played| played.set(played.get() + 1));
            self.0.play(mv);
        }
        fn outcome(&self) -> Option<crate::game::Outcome> {
            self.0.outcome()
        }
        fn position_hash(&self) -> u64 {
            self.0.position_hash()
        }
    }

    #[test]
    fn the_node_cap_binds_between_two_moves_of_a_position() {
        // Every position of one heap of 1000 has up to 1000 moves: a cap of 10 nodes
        // stops after about 10 moves played, not 10 positions of 1000 moves each.
        let wide = Counted(nim(&[1000]));
        PLAYED.with(|played| played.set(0));
        assert!(reachable_results(&wide, &Budget::nodes(10)).is_err());
        assert!(PLAYED.with(|played| played.get()) <= 11);
        PLAYED.with(|played| played.set(0));
        let never = |_: &Counted| false;
        assert!(shortest_line(&wide, never, &Budget::nodes(10)).is_err());
        assert!(PLAYED.with(|played| played.get()) <= 11);
    }

    #[test]
    fn the_shortest_line_to_an_empty_board_takes_one_move_per_heap() {
        let empty = |g: &NormalPlay<Nim>| g.position.heaps.iter().all(|&h| h == 0);
        let line = shortest_line(&nim(&[3, 4]), empty, &Budget::unlimited()).unwrap();
        assert_eq!(line.map(|l| l.len()), Some(2));
    }

    #[test]
    fn shortest_sequence_counts_steps_on_integers() {
        // From 1, steps +1 or *2: 10 = ((1+1)*2+1)*2 takes 4 steps.
        let line = shortest_sequence(
            1u32,
            |&n| n,
            |&n| vec![('+', n + 1), ('*', n * 2)],
            |&n| n == 10,
            4,
            &Budget::unlimited(),
        )
        .unwrap();
        assert_eq!(line.map(|l| l.len()), Some(4));
        let none = shortest_sequence(
            1u32,
            |&n| n,
            |&n| if n < 5 { vec![((), n + 1)] } else { vec![] },
            |&n| n == 10,
            4,
            &Budget::unlimited(),
        )
        .unwrap();
        assert_eq!(none, None);
    }
}
