use crate::{crosscap, crosscap_with_input};

/// The connected graphs on 4 vertices, as `geng -c 4` prints them.
const CONNECTED_4: &str = "CF\nCU\nCV\nC]\nC^\nC~\n";

fn solve(graph: &str) -> serde_json::Value {
    crosscap(&["--json", "sandpile", "solve", "--graph", graph]).json()
}

#[test]
fn solve_gives_the_seeds_facts() {
    let p2 = solve("P2");
    assert_eq!(p2["winner"], "X");
    assert_eq!(p2["predetermined"], true);
    let p3 = solve("P3");
    assert_eq!(p3["winner"], "O");
    assert_eq!(p3["predetermined"], true);
    assert_eq!(p3["possible_winners"], serde_json::json!(["O"]));
    let c3 = solve("C3");
    assert_eq!(c3["predetermined"], false);
    assert_eq!(c3["possible_winners"], serde_json::json!(["X", "O"]));
    assert_eq!(c3["winner"], "X");
    assert_eq!(c3["winning_moves"], serde_json::json!(["0", "1", "2"]));
    assert_eq!(p3["winning_moves"], serde_json::json!([]));
    assert!(c3["positions"].as_u64().unwrap() > 1);
    for (m, winner) in [(3, "X"), (4, "O"), (5, "X")] {
        let star = solve(&format!("K1,{m}"));
        assert_eq!(star["winner"], winner, "K1,{m}");
        assert_eq!(star["predetermined"], true, "K1,{m}");
    }
}

#[test]
fn solve_a_mid_game_position_as_text() {
    // P4 with X on the leaf 0 and O on 1: O to move.
    let run = crosscap(&[
        "sandpile",
        "solve",
        "--graph",
        "P4",
        "--position",
        "X0,O1,.,X0",
        "--to-move",
        "O",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("with perfect play"), "{}", run.stdout);
    assert!(run.stdout.contains("winning moves:"), "{}", run.stdout);
}

#[test]
fn min_topple_is_the_edge_count_with_a_placement_sequence() {
    let v = crosscap(&["--json", "sandpile", "min-topple", "--graph", "C4"]).json();
    assert_eq!(v["chips"], 4);
    assert_eq!(v["edges"], 4);
    assert_eq!(v["placements"].as_array().unwrap().len(), 4);
    assert!(v["game_moves"].as_u64().unwrap() >= 4);
    let dag = crosscap(&[
        "--json",
        "sandpile",
        "min-topple",
        "--graph",
        "arcs:0>1,1>2",
    ])
    .json();
    assert_eq!(dag["chips"], serde_json::Value::Null);
    assert_eq!(v["game_search_complete"], true);
    // A budget too small for the game-rules search still gives the chip-firing answer.
    let partial = crosscap(&[
        "--json",
        "sandpile",
        "min-topple",
        "--graph",
        "grid:3x3",
        "--max-positions",
        "3000",
    ])
    .json();
    assert_eq!(partial["chips"], 12);
    assert_eq!(partial["game_search_complete"], false);
    let text = crosscap(&["sandpile", "min-topple", "--graph", "K1,3"]);
    assert!(text.stdout.contains("3 chips (3 edges)"), "{}", text.stdout);
}

#[test]
fn classify_reads_graph6_on_stdin() {
    let v = crosscap_with_input(&["--json", "sandpile", "classify"], CONNECTED_4).json();
    assert_eq!(v["graphs"], 6);
    let rows = v["rows"].as_array().unwrap();
    // CF is K1,3: the first player wins whatever is played; C~ is K4 with 6 edges.
    assert_eq!(rows[0]["graph6"], "CF");
    assert_eq!(rows[0]["winner"], "X");
    assert_eq!(rows[0]["predetermined"], true);
    assert_eq!(rows[5]["edges"], 6);
    for row in rows {
        assert_eq!(row["min_topple"], row["edges"], "{row}");
    }
    assert_eq!(v["summary"][0]["graphs"], 6);
    let csv = crosscap_with_input(&["sandpile", "classify", "--format", "csv"], CONNECTED_4);
    assert!(
        csv.stdout
            .starts_with("graph6,vertices,edges,winner,predetermined,min topple,min topple (game)\nCF,4,3,X,yes,3,"),
        "{}",
        csv.stdout
    );
    let md = crosscap_with_input(
        &["sandpile", "classify", "--summary", "--format", "markdown"],
        CONNECTED_4,
    );
    assert!(
        md.stdout.starts_with("| vertices | graphs |"),
        "{}",
        md.stdout
    );
}

#[test]
fn bad_input_gives_clear_errors() {
    crosscap(&["sandpile", "solve", "--graph", "grid:3"]).assert_user_error("grid:3");
    crosscap(&["sandpile", "solve", "--graph", "hexagon"]).assert_user_error("hexagon");
    crosscap(&["sandpile", "solve", "--graph", "edges:0-0"]).assert_user_error("0-0");
    crosscap(&["sandpile", "solve", "--graph", "P3", "--position", "X5,.,."])
        .assert_user_error("topples at 1");
    crosscap(&["sandpile", "solve", "--graph", "P3", "--to-move", "O"])
        .assert_user_error("--position");
    crosscap(&[
        "sandpile",
        "solve",
        "--graph",
        "grid:6x6",
        "--max-positions",
        "1000",
    ])
    .assert_user_error("budget");
    crosscap_with_input(&["sandpile", "classify"], "CF\nnot graph6!\n").assert_user_error("line 2");
}

#[test]
fn play_on_a_grid_from_a_script() {
    let run = crosscap_with_input(
        &["sandpile", "play", "--graph", "grid:3x3", "--level", "easy"],
        "9\nmoves\n4\nquit\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("cannot read move"), "{}", run.stdout);
    assert!(run.stdout.contains("legal moves: 0 1 2"), "{}", run.stdout);
    assert!(run.stdout.contains("O plays"), "{}", run.stdout);
}

#[test]
fn play_against_the_perfect_computer_on_p3() {
    // P3 is a second-player win whatever is played: the computer, playing O, wins.
    let run = crosscap_with_input(
        &["sandpile", "play", "--graph", "P3", "--level", "perfect"],
        "1\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("The computer wins."), "{}", run.stdout);
}

#[test]
fn arena_shows_mcts_beating_random_on_a_grid() {
    let v = crosscap(&[
        "--json", "sandpile", "arena", "--graph", "grid:3x3", "--a", "mcts:300", "--b", "random",
        "--games", "20", "--seed", "5",
    ])
    .json();
    assert_eq!(v["games"], 20);
    assert!(v["a_win_rate"].as_f64().unwrap() >= 0.7, "{v}");
}
