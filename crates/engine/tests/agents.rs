//! The agents and the arena on Nim, and the solver on a scored game.

use std::hash::{Hash, Hasher};

use crosscap_engine::agents::{FlatMonteCarlo, RandomAgent, standard_agent};
use crosscap_engine::arena::arena;
use crosscap_engine::mcts::{Mcts, MctsConfig, SearchLimit};
use crosscap_engine::nim::Nim;
use crosscap_engine::solver::{Budget, Solver, brute_force_value, solve};
use crosscap_engine::{
    Agent, Exhausted, Game, Level, NormalPlay, Outcome, Player, Rng, SolveError, nim_sum,
};

fn nim(heaps: &[u32]) -> NormalPlay<Nim> {
    NormalPlay::new(Nim::new(heaps.to_vec()))
}

#[test]
fn mcts_beats_random_in_the_arena() {
    let start = nim(&[3, 4, 5, 6]);
    let mcts = |seed| -> Box<dyn Agent<_>> {
        Box::new(Mcts::new(
            SearchLimit::Iterations(2_000),
            MctsConfig::default(),
            seed,
        ))
    };
    let random = |seed| -> Box<dyn Agent<_>> { Box::new(RandomAgent::new(seed)) };
    let report = arena(&start, &mcts, &random, 40, 7, &Budget::unlimited(), &|| {});
    assert_eq!(report.games, 40);
    assert!(report.a_win_rate >= 0.9, "{report:?}");
    assert!(report.ci95[0] > 0.5, "{report:?}");
}

#[test]
fn arena_is_reproducible_from_its_seed() {
    let start = nim(&[2, 3, 4]);
    let flat = |seed| -> Box<dyn Agent<_>> { Box::new(FlatMonteCarlo::new(5, seed)) };
    let random = |seed| -> Box<dyn Agent<_>> { Box::new(RandomAgent::new(seed)) };
    let a = arena(&start, &flat, &random, 20, 3, &Budget::unlimited(), &|| {});
    let b = arena(&start, &flat, &random, 20, 3, &Budget::unlimited(), &|| {});
    assert_eq!((a.a_wins, a.b_wins), (b.a_wins, b.b_wins));
}

#[test]
fn perfect_agent_always_wins_a_won_position() {
    let mut rng = Rng::new(11);
    for _ in 0..30 {
        let heaps: Vec<u32> = (0..3).map(|_| rng.below(6) as u32).collect();
        if nim_sum(heaps.iter().copied()) == 0 {
            continue;
        }
        let mut game = nim(&heaps);
        let mut perfect = standard_agent(Level::Perfect, MctsConfig::default(), 1);
        let mut random = RandomAgent::new(rng.next_u64());
        while game.outcome().is_none() {
            let mv = if game.to_move() == Player::X {
                perfect.choose(&game, &Budget::unlimited())
            } else {
                random.choose(&game, &Budget::unlimited())
            };
            game.play(&mv.unwrap());
        }
        assert_eq!(game.outcome().unwrap().winner, Some(Player::X), "{heaps:?}");
    }
}

#[test]
fn solver_reports_unknown_when_the_budget_runs_out() {
    let game = nim(&[7, 7, 7, 7, 7]);
    match solve(&game, Budget::nodes(100)) {
        Err(SolveError::Unknown { nodes, .. }) => assert!(nodes <= 101),
        other => panic!("expected unknown, got {other:?}"),
    }
}

#[test]
fn a_line_longer_than_the_memory_cap_stops_the_solver() {
    // 200 moves at the root alone are over a 1000-byte cap; the table would only replace.
    let capped = Budget::unlimited().with_memory(1000);
    match solve(&nim(&[200]), capped) {
        Err(SolveError::Unknown { reason, .. }) => assert_eq!(reason, Exhausted::Memory),
        other => panic!("expected unknown, got {other:?}"),
    }
    assert!(solve(&nim(&[200]), Budget::unlimited().with_memory(1 << 20)).is_ok());
}

/// A scored game: players alternately take the leftmost or rightmost number of a row;
/// the margin is X's total minus O's.
#[derive(Clone, Debug)]
struct TakeEnds {
    row: Vec<i32>,
    lo: usize,
    hi: usize,
    to_move: Player,
    margin: i32,
}

impl TakeEnds {
    fn new(row: Vec<i32>) -> Self {
        let hi = row.len();
        TakeEnds {
            row,
            lo: 0,
            hi,
            to_move: Player::X,
            margin: 0,
        }
    }
}

impl Game for TakeEnds {
    type Move = bool;
    fn to_move(&self) -> Player {
        self.to_move
    }
    fn legal_moves(&self) -> Vec<bool> {
        if self.lo == self.hi {
            vec![]
        } else if self.hi - self.lo == 1 {
            vec![false]
        } else {
            vec![false, true]
        }
    }
    fn play(&mut self, right: &bool) {
        let v = if *right {
            self.hi -= 1;
            self.row[self.hi]
        } else {
            self.lo += 1;
            self.row[self.lo - 1]
        };
        self.margin += v * self.to_move.sign();
        self.to_move = self.to_move.opponent();
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.lo == self.hi).then(|| Outcome::scored(self.margin, Player::X.winner_by(self.margin)))
    }
    /// The margin so far decides the final margin, so it is part of the position.
    fn position_hash(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.lo, self.hi, self.to_move, self.margin).hash(&mut h);
        h.finish()
    }
}

#[test]
fn scored_solver_matches_brute_force_on_random_rows() {
    let mut rng = Rng::new(5);
    for _ in 0..200 {
        let len = 1 + rng.below(9);
        let row: Vec<i32> = (0..len).map(|_| rng.below(10) as i32).collect();
        let game = TakeEnds::new(row.clone());
        let solution = solve(&game, Budget::unlimited()).unwrap();
        assert_eq!(solution.value, brute_force_value(&game), "{row:?}");
        // Every reported best move really reaches the value, and no other move does.
        let values = Solver::new(Budget::unlimited()).move_values(&game).unwrap();
        for (mv, v) in values {
            assert_eq!(
                solution.best_moves.contains(&mv),
                v == solution.value,
                "{row:?}"
            );
        }
    }
}

#[test]
fn score_weighted_mcts_finds_the_big_number() {
    // From [9, 1, 1] taking the 9 is the only good move.
    let game = TakeEnds::new(vec![9, 1, 1]);
    let config = MctsConfig {
        score_weight: 0.5,
        score_scale: 10.0,
        ..MctsConfig::default()
    };
    let mut mcts = Mcts::new(SearchLimit::Iterations(500), config, 3);
    assert_eq!(mcts.choose(&game, &Budget::unlimited()), Some(false));
}
