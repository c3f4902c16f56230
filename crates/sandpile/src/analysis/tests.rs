use std::collections::{BTreeSet, HashMap};

use crosscap_engine::session::SetupLimits;
use crosscap_engine::solver::brute_force_value;
use crosscap_engine::{Notation, Rng};

use super::*;

/// Both answers of `analyse`, which no budget stops.
fn analyse_all(game: &Sandpile) -> (PerfectPlay, Sequences) {
    let a = analyse(game, &Budget::unlimited());
    (a.perfect_play.unwrap(), a.sequences.unwrap())
}

/// The analysis of `spec` under each toppling rule: the abelian one the crate plays by
/// default and the reset one the seed words, since every fact the seed states holds under both.
fn analyse_spec(spec: &str) -> [(Toppling, PerfectPlay, Sequences); 2] {
    [Toppling::Abelian, Toppling::Reset].map(|toppling| {
        let (play, sequences) = analyse_all(&Sandpile::new(Arc::new(board_under(spec, toppling))));
        (toppling, play, sequences)
    })
}

#[test]
fn seed_p2_is_a_first_player_win() {
    for (toppling, play, sequences) in analyse_spec("P2") {
        assert_eq!(play.winner, Some(Player::X), "{toppling:?}");
        assert!(sequences.predetermined, "{toppling:?}");
    }
}

#[test]
fn seed_p3_is_a_second_player_win_whatever_is_played() {
    for (toppling, play, sequences) in analyse_spec("P3") {
        assert_eq!(play.winner, Some(Player::O), "{toppling:?}");
        assert!(sequences.predetermined, "{toppling:?}");
        assert_eq!(
            sequences.possible_winners,
            vec![Some(Player::O)],
            "{toppling:?}"
        );
    }
}

#[test]
fn seed_c3_can_be_won_by_either_player() {
    for (toppling, _, sequences) in analyse_spec("C3") {
        assert!(!sequences.predetermined, "{toppling:?}");
        assert_eq!(
            sequences.possible_winners,
            vec![Some(Player::X), Some(Player::O)],
            "{toppling:?}"
        );
    }
}

#[test]
fn seed_stars_go_to_the_first_player_when_odd_and_the_second_when_even() {
    for m in 1..=6 {
        for (toppling, play, sequences) in analyse_spec(&format!("K1,{m}")) {
            let expected = if m % 2 == 1 { Player::X } else { Player::O };
            assert_eq!(play.winner, Some(expected), "K1,{m} {toppling:?}");
            assert!(
                sequences.predetermined,
                "K1,{m} {toppling:?}: the winner is the same whatever is played"
            );
        }
    }
}

#[test]
fn a_search_that_runs_out_leaves_the_other_answer() {
    // C3 needs more than two solver nodes; the sequences get a budget of their own.
    let game = Sandpile::from_spec("C3").unwrap();
    let a = analyse(&game, &Budget::nodes(2));
    assert!(a.perfect_play.is_err());
    let wide = analyse(&game, &Budget::nodes(1_000));
    assert!(wide.perfect_play.is_ok() && wide.sequences.is_ok());
    let row = classify(
        Graph::from_spec("C3").unwrap(),
        Toppling::Abelian,
        &Budget::nodes(2),
        &SetupLimits::default(),
    )
    .unwrap();
    assert!(row.analysis.perfect_play.is_err() && row.min_topple.is_err());
}

/// A seeded random graph on up to `max_n` vertices: undirected (maybe disconnected, maybe
/// with isolated vertices) or directed.
fn random_spec(rng: &mut Rng, max_n: usize, directed: bool) -> String {
    let n = 2 + rng.below(max_n - 1);
    let mut parts = Vec::new();
    for u in 0..n {
        for v in 0..n {
            let wanted = if directed { u != v } else { u < v };
            if wanted && rng.below(100) < 45 {
                parts.push(format!("{u}{}{v}", if directed { '>' } else { '-' }));
            }
        }
    }
    if parts.is_empty() {
        parts.push(if directed { "0>1" } else { "0-1" }.to_string());
    }
    format!(
        "{}:{}",
        if directed { "arcs" } else { "edges" },
        parts.join(",")
    )
}

/// Whether a brute-force walk of every play sequence is affordable.
fn small_enough(game: &Sandpile) -> bool {
    let graph = game.board().graph();
    let (n, m) = (graph.vertex_count() as i32, graph.edge_count() as i32);
    let length = if !graph.is_directed() && graph.is_connected() {
        2 * m - n + 1
    } else {
        game.board().move_limit() as i32
    };
    (n as f64).powi(length) <= 2e5
}

/// Every result of every play sequence, without memory: the reference for
/// `reachable_results`.
fn brute_force_winners(game: &Sandpile, found: &mut BTreeSet<Option<Player>>) {
    if let Some(outcome) = game.outcome() {
        found.insert(outcome.winner);
        return;
    }
    for mv in game.legal_moves() {
        let mut child = game.clone();
        child.play(&mv);
        brute_force_winners(&child, found);
    }
}

#[test]
fn the_solver_and_the_sequence_search_agree_with_brute_force_on_random_graphs() {
    let mut rng = Rng::new(2010);
    let mut checked = 0;
    for i in 0..600 {
        let spec = random_spec(&mut rng, 5, i % 3 == 2);
        let game = Sandpile::from_spec(&spec).unwrap();
        if !small_enough(&game) {
            continue;
        }
        checked += 1;
        let (play, sequences) = analyse_all(&game);
        let value = brute_force_value(&game);
        let expected = match value {
            v if v > 0 => Some(Player::X),
            v if v < 0 => Some(Player::O),
            _ => None,
        };
        assert_eq!(play.winner, expected, "{spec}");
        let mut found = BTreeSet::new();
        brute_force_winners(&game, &mut found);
        let mut possible: Vec<_> = sequences.possible_winners.clone();
        possible.sort();
        assert_eq!(possible, found.into_iter().collect::<Vec<_>>(), "{spec}");
    }
    assert!(checked >= 200, "only {checked} graphs were small enough");
}

/// Topples all chips at once with the seed's rule (any unstable vertex, one toppling at a
/// time, sinks never) for at most `cap` topplings: whether it was still going.
fn naive_never_stops(board: &Board, chips: &[u32], cap: usize) -> bool {
    let mut scores = chips.to_vec();
    for _ in 0..cap {
        let unstable =
            (0..scores.len()).find(|&v| !board.is_sink(v) && scores[v] >= board.threshold(v));
        let Some(v) = unstable else {
            return false;
        };
        scores[v] -= board.threshold(v);
        for &w in board.graph().neighbors(v) {
            scores[w] += 1;
        }
    }
    true
}

#[test]
fn cascades_that_never_stop_are_detected_as_a_naive_simulation_finds_them() {
    let mut rng = Rng::new(7);
    let mut erupted = [0, 0];
    for i in 0..1500 {
        let spec = random_spec(&mut rng, 6, i % 2 == 1);
        let board = Board::from_spec(&spec).unwrap();
        let n = board.vertex_count();
        let chips: Vec<u32> = (0..n)
            .map(|v| rng.below(2 * board.threshold(v) as usize + 1) as u32)
            .collect();
        let mut scores = vec![0; n];
        let mut scratch = Scratch::default();
        let mut detected = false;
        'placing: for (v, &c) in chips.iter().enumerate() {
            for _ in 0..c {
                if !board
                    .place(&mut scores, &|_| false, v, &mut scratch)
                    .erupted
                    .is_empty()
                {
                    detected = true;
                    break 'placing;
                }
            }
        }
        assert_eq!(
            detected,
            naive_never_stops(&board, &chips, 50_000),
            "{spec} {chips:?}"
        );
        erupted[detected as usize] += 1;
    }
    assert!(erupted[0] > 100 && erupted[1] > 100, "{erupted:?}");
}

#[test]
fn cascades_never_stop_on_every_family() {
    for spec in [
        "P6",
        "C7",
        "K5",
        "K1,4",
        "K2,3",
        "grid:3x4",
        "wheel:5",
        "petersen",
        "tetrahedron",
    ] {
        // The seed: a total above the degree sum less the vertex count topples for ever. A
        // stable position holds at most that total, with every vertex one chip short of
        // toppling; one more chip anywhere erupts, under either rule.
        for toppling in [Toppling::Abelian, Toppling::Reset] {
            let board = board_under(spec, toppling);
            let mut scores: Vec<u32> = (0..board.vertex_count())
                .map(|v| board.threshold(v) - 1)
                .collect();
            let degree_sum = 2 * board.graph().edge_count() as u32;
            assert_eq!(
                scores.iter().sum::<u32>(),
                degree_sum - board.vertex_count() as u32
            );
            let cascade = board.place(&mut scores, &|_| false, 0, &mut Scratch::default());
            assert_eq!(cascade.erupted, vec![0], "{spec} {toppling:?}");
            assert_eq!(
                cascade.reached.len(),
                board.vertex_count(),
                "{spec} {toppling:?}"
            );
        }
    }
}

#[test]
fn min_topple_is_the_edge_count_on_connected_graphs() {
    for spec in [
        "P2", "P4", "C3", "C5", "K4", "K1,3", "K2,3", "grid:2x3", "petersen",
    ] {
        let board = Board::from_spec(spec).unwrap();
        let found = min_topple(&board, &Budget::unlimited()).unwrap().unwrap();
        assert_eq!(found.chips, board.graph().edge_count(), "{spec}");
        // Replaying the placements sets the board toppling for ever on the last one.
        let mut scores = vec![0; board.vertex_count()];
        let mut scratch = Scratch::default();
        let (last, before) = found.placements.split_last().unwrap();
        for &v in before {
            assert!(
                board
                    .place(&mut scores, &|_| false, v, &mut scratch)
                    .erupted
                    .is_empty()
            );
        }
        assert!(
            !board
                .place(&mut scores, &|_| false, *last, &mut scratch)
                .erupted
                .is_empty()
        );
    }
}

#[test]
fn min_topple_of_the_variants() {
    // A directed cycle: one chip. A DAG drains every chip into its sink: never.
    let cycle = Board::from_spec("arcs:0>1,1>2,2>0").unwrap();
    assert_eq!(
        min_topple(&cycle, &Budget::unlimited())
            .unwrap()
            .unwrap()
            .chips,
        1
    );
    let dag = Board::from_spec("arcs:0>1,1>2,0>2").unwrap();
    assert_eq!(min_topple(&dag, &Budget::unlimited()).unwrap(), None);
    // Disconnected: the cheaper component decides.
    let two = Board::from_spec("edges:0-1,1-2,2-0,3-4").unwrap();
    assert_eq!(
        min_topple(&two, &Budget::unlimited())
            .unwrap()
            .unwrap()
            .chips,
        1
    );
}

#[test]
fn min_topple_under_the_games_rules() {
    // P3: the second move always erupts. K1,2 = P3 with the hub first.
    let game = Sandpile::from_spec("P3").unwrap();
    let line = min_topple_game(&game, &Budget::unlimited())
        .unwrap()
        .unwrap();
    assert_eq!(line.len(), 2);
    let mut replay = game.clone();
    for mv in &line {
        replay.play(mv);
    }
    assert!(replay.last_move_erupted());
    // C3: three chips as chip-firing, and under the rules too.
    let c3 = Sandpile::from_spec("C3").unwrap();
    let line = min_topple_game(&c3, &Budget::unlimited()).unwrap().unwrap();
    assert_eq!(line.len(), 3);
}

#[test]
fn classify_reports_a_graph6_line() {
    let limits = SetupLimits::default();
    let row = classify(
        Graph::from_graph6("Bw").unwrap(),
        Toppling::Abelian,
        &Budget::unlimited(),
        &limits,
    )
    .unwrap();
    assert_eq!((row.vertices, row.edges), (3, 3));
    assert_eq!(row.graph6, "Bw");
    assert!(!row.analysis.sequences.unwrap().predetermined);
    assert_eq!(row.min_topple, Ok(Some(3)));
    let rows = classify_all(
        ["BW", "CF", "C~"]
            .iter()
            .map(|g| Graph::from_graph6(g).unwrap())
            .collect(),
        Toppling::Abelian,
        &Budget::unlimited(),
        &limits,
        &|| {},
    );
    let rows: Vec<ClassifyRow> = rows.into_iter().map(Result::unwrap).collect();
    // BW is P3, CF is K1,3: both predetermined, second and first player.
    for (row, winner) in rows.iter().zip([Player::O, Player::X]) {
        let (play, sequences) = (&row.analysis.perfect_play, &row.analysis.sequences);
        assert_eq!(play.as_ref().unwrap().winner, Some(winner));
        assert!(sequences.as_ref().unwrap().predetermined);
    }
    assert_eq!(rows[2].edges, 6);
    assert_eq!(rows[2].min_topple, Ok(Some(6)));
    let too_big = classify(
        Graph::from_spec("path:5001").unwrap(),
        Toppling::Abelian,
        &Budget::unlimited(),
        &limits,
    );
    assert!(matches!(too_big, Err(SandpileError::Limits(_))));
}

#[test]
fn the_best_moves_win() {
    // K1,3: X wins whatever; on P4 check that a best move keeps the solver's value.
    let game = Sandpile::from_spec("P4").unwrap();
    let (play, _) = analyse_all(&game);
    for mv in &play.best_moves {
        let mut child = game.clone();
        child.play_text(&child.format_move(mv)).unwrap();
        assert_eq!(analyse_all(&child).0.winner, play.winner);
    }
}

/// One placement under the seed's reset rule, simulated naively: one toppling at a time
/// in the order the vertices became unstable, a repeated state (scores and queue) meaning
/// the cascade never stops. The scores after it (`None`: it never stops) and the vertices
/// it reached.
fn naive_reset_placement(board: &Board, scores: &[u32], v: usize) -> (Option<Vec<u32>>, Vec<bool>) {
    let mut scores = scores.to_vec();
    let mut reached = vec![false; scores.len()];
    let unstable =
        |u: usize, scores: &[u32]| board.threshold(u) > 0 && scores[u] == board.threshold(u);
    scores[v] += 1;
    reached[v] = true;
    let mut queue: std::collections::VecDeque<usize> =
        unstable(v, &scores).then_some(v).into_iter().collect();
    let mut seen = std::collections::HashSet::new();
    while let Some(&u) = queue.front() {
        if !seen.insert((scores.clone(), queue.clone())) {
            return (None, reached);
        }
        queue.pop_front();
        scores[u] = 0;
        for &w in board.graph().neighbors(u) {
            scores[w] += 1;
            reached[w] = true;
            if unstable(w, &scores) {
                queue.push_back(w);
            }
        }
    }
    (Some(scores), reached)
}

fn reset_board(spec: &str) -> Board {
    board_under(spec, Toppling::Reset)
}

/// The board of `spec` under `toppling`.
fn board_under(spec: &str, toppling: Toppling) -> Board {
    Board::with_toppling(Graph::from_spec(spec).unwrap(), toppling).unwrap()
}

#[test]
fn reset_placements_agree_with_a_naive_simulation() {
    let mut rng = Rng::new(22);
    let (mut erupted, mut lost) = (0, 0);
    for i in 0..1500 {
        let spec = random_spec(&mut rng, 6, i % 2 == 1);
        let board = reset_board(&spec);
        let n = board.vertex_count();
        // A random stable position (sinks hold a few chips too), then one chip.
        let mut scores: Vec<u32> = (0..n)
            .map(|v| match board.threshold(v) {
                0 => rng.below(3) as u32,
                threshold => rng.below(threshold as usize) as u32,
            })
            .collect();
        let v = rng.below(n);
        let (expected, reached) = naive_reset_placement(&board, &scores, v);
        let chips: u32 = scores.iter().sum();
        let cascade = board.place(&mut scores, &|_| false, v, &mut Scratch::default());
        match expected {
            None => {
                assert!(!cascade.erupted.is_empty(), "{spec} never stops");
                erupted += 1;
            }
            Some(expected) => {
                assert!(cascade.erupted.is_empty(), "{spec} stops");
                assert_eq!(scores, expected, "{spec}");
                let mut found = vec![false; n];
                for &u in &cascade.reached {
                    found[u] = true;
                }
                assert_eq!(found, reached, "{spec}");
                lost += (expected.iter().sum::<u32>() <= chips) as usize;
            }
        }
    }
    assert!(
        erupted > 100 && lost > 30,
        "{erupted} erupted, {lost} lost chips"
    );
}

#[test]
fn reset_loses_the_chips_a_waiting_vertex_gained() {
    // C4 with a chip on each vertex: 0 topples, then 1 and 3, each sending 2 a chip while
    // it waits; it topples from 3 to 0 and that chip is lost, where abelian keeps it.
    let reset = reset_board("C4");
    assert_eq!(reset.toppling(), Toppling::Reset);
    let abelian = Board::from_spec("C4").unwrap();
    let mut scratch = Scratch::default();
    // Four chips (the most C4 holds stably) then one: abelian topples for ever.
    let mut scores = vec![1, 1, 1, 1];
    assert_eq!(
        abelian
            .place(&mut scores, &|_| false, 0, &mut scratch)
            .erupted,
        vec![0]
    );
    // Reset drops back to four chips (0, 2, 0, 2 after the loss) and still topples for
    // ever: the two chips pass round the cycle without meeting.
    let mut scores = vec![1, 1, 1, 1];
    assert_eq!(
        reset
            .place(&mut scores, &|_| false, 0, &mut scratch)
            .erupted,
        vec![0]
    );
    // On P4 with a chip on each inner vertex, a chip on 1 topples it, and the chips then
    // pass along the path and back: under both rules the cascade never stops.
    let mut abelian_scores = vec![0, 1, 1, 0];
    let mut reset_scores = abelian_scores.clone();
    let abelian = Board::from_spec("P4").unwrap();
    let reset = reset_board("P4");
    let a = abelian.place(&mut abelian_scores, &|_| false, 1, &mut scratch);
    let r = reset.place(&mut reset_scores, &|_| false, 1, &mut scratch);
    assert_eq!((a.erupted.len(), r.erupted.len()), (1, 1));
}

/// The winner of a connected graph with perfect play under the reset rule, by a plain
/// minimax over (scores, owners, mover, placements) that plays each placement with
/// [`naive_reset_placement`]: the reference for the solver under that rule.
fn naive_reset_winner(board: &Board) -> Option<Player> {
    type State = (Vec<u32>, Vec<Option<Player>>, Player, u32);
    /// +1 when the player to move wins, -1 when they lose, 0 for a draw.
    fn value(board: &Board, state: &State, memo: &mut HashMap<State, i8>) -> i8 {
        if let Some(&v) = memo.get(state) {
            return v;
        }
        let (scores, owners, mover, placements) = state;
        let mut best = -1;
        for v in (0..board.vertex_count()).filter(|&v| owners[v].is_none_or(|p| p == *mover)) {
            let outcome = match naive_reset_placement(board, scores, v) {
                (None, _) => 1,
                (Some(next), reached) => {
                    let owners: Vec<Option<Player>> = owners
                        .iter()
                        .zip(&reached)
                        .map(|(&o, &r)| if r { Some(*mover) } else { o })
                        .collect();
                    if owners.iter().all(|&o| o == Some(*mover)) {
                        1
                    } else if placements + 1 >= board.move_limit() {
                        0
                    } else {
                        let child = (next, owners, mover.opponent(), placements + 1);
                        -value(board, &child, memo)
                    }
                }
            };
            best = best.max(outcome);
        }
        memo.insert(state.clone(), best);
        best
    }
    let n = board.vertex_count();
    let start = (vec![0; n], vec![None; n], Player::X, 0);
    match value(board, &start, &mut HashMap::new()) {
        1 => Some(Player::X),
        -1 => Some(Player::O),
        _ => None,
    }
}

#[test]
fn the_solver_under_the_reset_rule_agrees_with_a_naive_minimax() {
    let mut rng = Rng::new(27);
    let (mut checked, mut flipped) = (0, 0);
    while checked < 40 {
        let spec = random_spec(&mut rng, 5, false);
        let graph = Graph::from_spec(&spec).unwrap();
        if !graph.is_connected() || graph.vertex_count() < 3 {
            continue;
        }
        checked += 1;
        let board = Arc::new(Board::with_toppling(graph, Toppling::Reset).unwrap());
        let (play, _) = analyse_all(&Sandpile::new(Arc::clone(&board)));
        assert_eq!(play.winner, naive_reset_winner(&board), "{spec}");
        let abelian = analyse_all(&Sandpile::from_spec(&spec).unwrap()).0;
        flipped += (play.winner != abelian.winner) as usize;
    }
    assert_eq!(
        flipped, 0,
        "no graph on 5 vertices or fewer changes its winner"
    );
}
