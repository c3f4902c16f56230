//! Invariants of Projective Hex checked on many random positions: the loop theorem, the
//! incremental detection against a from-scratch search, and the solver against brute
//! force.

use std::sync::Arc;

use crosscap_engine::catalog::Status;
use crosscap_engine::jobs::SplitSolve;
use crosscap_engine::solver::{Budget, brute_force_value};
use crosscap_engine::{Game, Player, Rng};
use crosscap_projective_hex::loops::{has_global_loop, shortest_global_loop};
use crosscap_projective_hex::search::{Focused, focused_moves};
use crosscap_projective_hex::{
    Analyser, Geometry, Move, NotAtStart, Opening, OpeningJobs, ProjectiveHex, all_openings,
};
use crosscap_topology::Board;
use proptest::prelude::*;

fn geometry(spec: &str) -> Arc<Geometry> {
    Arc::new(Geometry::new(Board::from_spec(spec).unwrap()).unwrap())
}

/// Boards of the projective plane of taylor and goldberg sizes.
const BOARDS: [&str; 8] = [
    "taylor:2",
    "taylor:3",
    "taylor:4",
    "taylor:6",
    "goldberg:1",
    "goldberg:2",
    "goldberg:3",
    "goldberg:4",
];

/// A random full board: the cells shuffled, then coloured X, O, X, ... in that order.
fn random_full_board(cells: usize, rng: &mut Rng) -> Vec<Option<Player>> {
    let mut order: Vec<usize> = (0..cells).collect();
    rng.shuffle(&mut order);
    let mut stones = vec![None; cells];
    for (i, &c) in order.iter().enumerate() {
        stones[c] = Some(if i % 2 == 0 { Player::X } else { Player::O });
    }
    stones
}

/// Checks that `cells` is a closed chain of `player`'s stones with non-zero class.
fn assert_global_loop(
    geometry: &Geometry,
    stones: &[Option<Player>],
    player: Player,
    cells: &[usize],
) {
    assert!(!cells.is_empty());
    let mut distinct = cells.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), cells.len(), "a simple loop: {cells:?}");
    let mut class = 0;
    for i in 0..cells.len() {
        let (a, b) = (cells[i], cells[(i + 1) % cells.len()]);
        assert_eq!(stones[a], Some(player));
        // The loop steps through one side from a to b (any, when there are several:
        // the loop has some side choice of non-zero class).
        let sides: Vec<u64> = geometry
            .sides(a)
            .filter(|&(n, _)| n == b)
            .map(|(_, k)| k)
            .collect();
        assert!(!sides.is_empty(), "{a} and {b} are not adjacent");
        class ^= sides[0];
    }
    if cells.len() > 2 {
        assert_ne!(class, 0, "the loop is global: {cells:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 150,
        rng_seed: proptest::test_runner::RngSeed::Fixed(4),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// The seed's theorem: on a full trivalent projective-plane board exactly one player
    /// has a global loop.
    #[test]
    fn exactly_one_player_has_a_loop_on_a_full_board(board in 0..BOARDS.len(), seed in any::<u64>()) {
        let g = geometry(BOARDS[board]);
        prop_assert!(g.is_projective() && g.board().is_trivalent());
        let stones = random_full_board(g.cell_count(), &mut Rng::new(seed));
        let x = has_global_loop(&g, &stones, Player::X);
        let o = has_global_loop(&g, &stones, Player::O);
        prop_assert!(x != o, "{}: X {x}, O {o}", BOARDS[board]);
        // The incremental detection agrees.
        let game = ProjectiveHex::from_stones(g.clone(), &stones, Player::X).unwrap();
        let winner = if x { Player::X } else { Player::O };
        prop_assert_eq!(game.winner(), Some(winner));
        let cells = shortest_global_loop(&g, &stones, winner).unwrap();
        assert_global_loop(&g, &stones, winner, &cells);
    }

    /// Random games: after every move the incremental union-find agrees with a search
    /// from scratch, and the game ends exactly when the mover closes a loop.
    #[test]
    fn incremental_detection_matches_from_scratch(board in 0..BOARDS.len(), seed in any::<u64>()) {
        let g = geometry(BOARDS[board]);
        let mut rng = Rng::new(seed);
        let mut game = ProjectiveHex::new(g.clone(), Opening::Standard);
        while game.outcome().is_none() {
            let mover = game.to_move();
            let mv = game.random_move(&mut rng).unwrap();
            let Move::Cell(cell) = mv else { unreachable!() };
            let predicted = game.completes_loop(cell as usize, mover);
            game.play(&mv);
            let x = has_global_loop(&g, game.stones(), Player::X);
            let o = has_global_loop(&g, game.stones(), Player::O);
            prop_assert_eq!(predicted, game.winner().is_some());
            prop_assert_eq!(game.winner() == Some(Player::X), x);
            prop_assert_eq!(game.winner() == Some(Player::O), o);
        }
        let winner = game.winner().unwrap();
        let cells = game.winning_loop().unwrap();
        assert_global_loop(&g, game.stones(), winner, &cells);
    }
}

/// Random positions of small boards with a few empty cells: the analyser (alpha-beta on
/// the focused game) agrees with plain minimax on the full game, and its winning moves
/// are exactly the moves after which minimax says the mover wins.
#[test]
fn solver_matches_brute_force_on_small_positions() {
    let mut rng = Rng::new(17);
    for spec in ["taylor:2", "goldberg:1", "goldberg:2", "taylor:3"] {
        let g = geometry(spec);
        for _ in 0..20 {
            let mut game = ProjectiveHex::new(g.clone(), Opening::Standard);
            let empties = 6 + rng.below(3);
            while game.outcome().is_none() && game.empty_count() > empties {
                let mv = game.random_move(&mut rng).unwrap();
                game.play(&mv);
            }
            if game.outcome().is_some() {
                continue;
            }
            let mover = game.to_move();
            let expected = brute_force_value(&game);
            let analysis = Analyser::new(Budget::unlimited()).analyse(&game).unwrap();
            let winner = if expected > 0 {
                mover
            } else {
                mover.opponent()
            };
            assert_eq!(analysis.winner, Some(winner), "{spec}");
            for mv in game.legal_moves() {
                let mut child = game.clone();
                child.play(&mv);
                let wins = match child.outcome() {
                    Some(o) => o.winner == Some(mover),
                    None => brute_force_value(&child) < 0,
                };
                if expected > 0 {
                    assert_eq!(analysis.best_moves.contains(&mv), wins, "{spec} {mv:?}");
                }
            }
            // The focused moves (with lookahead) contain a best move.
            let focused = focused_moves(&game, true);
            let best = focused
                .iter()
                .map(|mv| {
                    let mut child = Focused::<true>(game.clone());
                    child.play(mv);
                    match child.outcome() {
                        Some(o) => o.value_for(mover),
                        None => -brute_force_value(&child.0),
                    }
                })
                .max()
                .unwrap();
            assert_eq!(best, expected, "{spec}");
        }
    }
}

#[test]
fn openings_with_a_choice() {
    let g = geometry("taylor:3");
    let mut game = ProjectiveHex::new(g.clone(), Opening::CutAndChoose);
    let cell = |name: &str| Move::Cell(g.board().cell_index(name).unwrap() as u32);
    for (name, colour) in [("a1", Player::X), ("b1", Player::O), ("c1", Player::X)] {
        assert_eq!(game.to_move(), Player::X, "the cutter places all three");
        assert_eq!(game.stone_to_place(), colour);
        assert!(!game.legal_moves().contains(&Move::Swap));
        game.play(&cell(name));
    }
    assert_eq!(game.to_move(), Player::O);
    assert!(game.legal_moves().contains(&Move::Swap));
    let mut swapped = game.clone();
    swapped.play(&Move::Swap);
    assert_eq!(swapped.to_move(), Player::X);
    assert_eq!(
        swapped.stone(g.board().cell_index("a1").unwrap()),
        Some(Player::O)
    );
    assert_eq!(
        swapped.stone(g.board().cell_index("b1").unwrap()),
        Some(Player::X)
    );
    assert_ne!(swapped.position_hash(), game.position_hash());
    game.play(&cell("d1"));
    assert_eq!(
        game.stone(g.board().cell_index("d1").unwrap()),
        Some(Player::O)
    );
    assert_eq!(game.to_move(), Player::X);
    assert!(!game.legal_moves().contains(&Move::Swap));
    // Records replay to the same position.
    let record = swapped.record();
    assert_eq!(record.moves, ["a1", "b1", "c1", "swap"]);
    let replayed = record.replay().unwrap();
    assert_eq!(replayed.stones(), swapped.stones());
    assert_eq!(replayed.position_hash(), swapped.position_hash());
}

#[test]
fn symmetric_openings_have_equal_values() {
    let g = geometry("taylor:2");
    let orbits = g.board().symmetries().cell_orbits();
    let mut analyser = Analyser::new(Budget::unlimited());
    for orbit in orbits {
        let values: Vec<i32> = orbit
            .iter()
            .map(|&c| {
                let mut game = ProjectiveHex::new(g.clone(), Opening::Standard);
                game.play(&Move::Cell(c as u32));
                analyser.value(&game).unwrap()
            })
            .collect();
        assert!(
            values.windows(2).all(|w| w[0] == w[1]),
            "{orbit:?}: {values:?}"
        );
    }
}

/// `all_openings` solves each reply to a first move on its own (one per class of
/// symmetric replies, on every thread); each class must come out as the analysis of the
/// whole position after its first move does: the same winner and, when the reply wins,
/// the same winning replies.
#[test]
fn openings_split_into_replies_agree_with_whole_analyses() {
    for spec in ["taylor:2", "goldberg:1", "goldberg:2"] {
        let opening = Opening::Standard;
        let g = geometry(spec);
        let start = ProjectiveHex::new(g.clone(), opening);
        let openings = all_openings(&start, &Budget::unlimited()).unwrap();
        assert_eq!(openings.status, Status::Solved, "{spec}");
        let results = openings.openings;
        assert_eq!(results.len(), g.board().symmetries().cell_orbits().len());
        for result in results {
            assert_eq!(
                result.status,
                Status::Solved,
                "{spec}: nothing stops the search"
            );
            let mut game = start.clone();
            let first = g.board().cell_index(&result.cells[0]).unwrap();
            game.play(&Move::Cell(first as u32));
            let whole = Analyser::new(Budget::unlimited()).analyse(&game).unwrap();
            assert_eq!(result.winner, whole.winner, "{spec} {opening:?} {result:?}");
            let replies: Vec<String> = if whole.winner == Some(game.to_move()) {
                whole
                    .best_moves
                    .iter()
                    .map(|m| crosscap_engine::Notation::format_move(&game, m))
                    .collect()
            } else {
                Vec::new()
            };
            assert_eq!(result.value.winning_replies, replies, "{spec} {opening:?}");
        }
    }
}

/// The jobs of an all-openings solve, solved in two parts (as two shards are) and put
/// together, answer what solving them all at once does; each job is reported once, as it
/// finishes, with the value it ends with, and the jobs' names are distinct.
#[test]
fn opening_jobs_solved_in_parts_answer_as_all_at_once() {
    for spec in ["taylor:2", "goldberg:2"] {
        let start = ProjectiveHex::new(geometry(spec), Opening::Standard);
        let jobs = OpeningJobs::of(&start).unwrap();
        let names: std::collections::HashSet<String> =
            (0..jobs.len()).map(|j| jobs.id(j)).collect();
        assert_eq!(names.len(), jobs.len(), "{spec}");
        let (even, odd): (Vec<usize>, Vec<usize>) = (0..jobs.len()).partition(|j| j % 2 == 0);
        let mut values = vec![None; jobs.len()];
        for part in [odd, even] {
            let reported = std::sync::Mutex::new(Vec::new());
            let solved = jobs.solve(&part, &Budget::unlimited(), &|job, value| {
                reported.lock().unwrap().push((job, value.clone()));
            });
            let mut reported = reported.into_inner().unwrap();
            reported.sort_by_key(|&(job, _)| job);
            let returned: Vec<_> = part.iter().copied().zip(solved).collect();
            assert_eq!(reported, returned, "{spec}");
            for (job, value) in returned {
                values[job] = Some(value);
            }
        }
        let values: Vec<_> = values.into_iter().map(Option::unwrap).collect();
        let parts = jobs.answer(&values, 0.0).unwrap();
        let short = jobs.answer(&values[1..], 0.0).unwrap_err();
        assert_eq!((short.given, short.jobs), (jobs.len() - 1, jobs.len()));
        let whole = all_openings(&start, &Budget::unlimited()).unwrap();
        assert_eq!(parts.nodes, values.iter().map(|v| v.nodes).sum::<u64>());
        assert_eq!(
            (parts.status, parts.winner, &parts.winning_moves),
            (whole.status, whole.winner, &whole.winning_moves),
            "{spec}"
        );
        for (part, all) in parts.openings.iter().zip(&whole.openings) {
            assert_eq!(
                (
                    &part.cells,
                    part.winner,
                    &part.value.winning_replies,
                    part.status
                ),
                (
                    &all.cells,
                    all.winner,
                    &all.value.winning_replies,
                    all.status
                ),
                "{spec}"
            );
        }
    }
}

/// A class one of whose replies runs out of budget is unknown, and the call still returns
/// every class (it used to fail on the first reply that ran out).
#[test]
fn openings_whose_replies_run_out_are_unknown_and_all_are_returned() {
    let g = geometry("goldberg:2");
    let start = ProjectiveHex::new(g.clone(), Opening::Standard);
    let unknown = all_openings(&start, &Budget::nodes(1)).unwrap();
    assert_eq!(
        unknown.openings.len(),
        g.board().symmetries().cell_orbits().len()
    );
    let ran_out = Status::Unknown {
        reason: crosscap_engine::Exhausted::Nodes,
    };
    assert_eq!(unknown.status, ran_out);
    assert_eq!(unknown.winner, None, "no class is proved to win");
    for result in &unknown.openings {
        assert_eq!(result.status, ran_out);
        assert_eq!(result.winner, None);
    }
    let solved = all_openings(&start, &Budget::nodes(1_000_000)).unwrap();
    assert!(
        solved
            .openings
            .iter()
            .all(|r| r.status == Status::Solved && r.winner.is_some())
    );
    assert_eq!(solved.winner, Some(crosscap_engine::Player::X));
    assert_eq!(
        solved.winning_moves.len(),
        15,
        "the hexagons of goldberg:2 win"
    );
}

/// The classes of first moves are the empty board's, and the verdict the first player's:
/// any other start is refused.
#[test]
fn openings_are_analysed_from_the_empty_board_under_the_standard_opening() {
    let g = geometry("taylor:2");
    let mut played = ProjectiveHex::new(g.clone(), Opening::Standard);
    played.play(&Move::Cell(0));
    for start in [
        played,
        ProjectiveHex::new(g.clone(), Opening::Swap),
        ProjectiveHex::new(g, Opening::CutAndChoose),
    ] {
        let refused = all_openings(&start, &Budget::unlimited());
        assert_eq!(refused.err(), Some(NotAtStart));
    }
}
