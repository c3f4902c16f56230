use crate::{crosscap, crosscap_with_input};

/// The connected graphs on 4 vertices, as `geng -c 4` prints them.
const CONNECTED_4: &str = "CF\nCU\nCV\nC]\nC^\nC~\n";

fn solve(graph: &str) -> serde_json::Value {
    let v = crosscap(&["--json", "sandpile", "solve", "--graph", graph]).json();
    assert_eq!(v["status"], "solved", "{v}");
    v
}

#[test]
fn solve_gives_the_seeds_facts() {
    let p2 = solve("P2");
    assert_eq!(p2["perfect_play"]["winner"], "X");
    assert_eq!(p2["sequences"]["predetermined"], true);
    let p3 = solve("P3");
    assert_eq!(p3["perfect_play"]["winner"], "O");
    assert_eq!(p3["sequences"]["predetermined"], true);
    assert_eq!(
        p3["sequences"]["possible_winners"],
        serde_json::json!(["O"])
    );
    let c3 = solve("C3");
    assert_eq!(c3["perfect_play"]["status"], "solved");
    assert_eq!(c3["sequences"]["predetermined"], false);
    assert_eq!(
        c3["sequences"]["possible_winners"],
        serde_json::json!(["X", "O"])
    );
    assert_eq!(c3["perfect_play"]["winner"], "X");
    assert_eq!(
        c3["perfect_play"]["winning_moves"],
        serde_json::json!(["0", "1", "2"])
    );
    assert_eq!(p3["perfect_play"]["winning_moves"], serde_json::json!([]));
    assert!(c3["sequences"]["positions"].as_u64().unwrap() > 1);
    for (m, winner) in [(3, "X"), (4, "O"), (5, "X")] {
        let star = solve(&format!("K1,{m}"));
        assert_eq!(star["perfect_play"]["winner"], winner, "K1,{m}");
        assert_eq!(star["sequences"]["predetermined"], true, "K1,{m}");
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

/// A search that runs out is an answer: exit 3, the part that ran out `unknown` with its
/// limit, nodes and time, and the other part still solved.
/// A finished position (every vertex one colour: its owner has won, as the seed says) has
/// nobody to move, so its answer does not depend on `--to-move`: the value is X's margin,
/// as the JSON's null `to_move` implies.
#[test]
fn a_finished_position_is_answered_the_same_whoever_is_named_to_move() {
    for (position, winner, value) in [("X0,X1,X0", "X", 1), ("O0,O1,O0", "O", -1)] {
        let answers: Vec<serde_json::Value> = ["X", "O"]
            .iter()
            .map(|mover| {
                let mut v = crosscap(&[
                    "--json",
                    "sandpile",
                    "solve",
                    "--graph",
                    "P3",
                    "--position",
                    position,
                    "--to-move",
                    mover,
                ])
                .json();
                if let Some(o) = v.as_object_mut() {
                    o.retain(|k, _| k != "run" && k != "millis");
                }
                v
            })
            .collect();
        assert_eq!(answers[0], answers[1], "{position}");
        let v = &answers[0];
        assert_eq!(
            (&v["to_move"], &v["winner"], &v["value"]),
            (
                &serde_json::Value::Null,
                &serde_json::json!(winner),
                &serde_json::json!(value)
            ),
            "{v}"
        );
    }
}

#[test]
fn a_solve_whose_budget_runs_out_reports_each_part() {
    let run = crosscap(&[
        "--json",
        "sandpile",
        "solve",
        "--graph",
        "grid:3x3",
        "--max-positions",
        "300",
    ]);
    let v = run.unknown_json("nodes");
    assert_eq!(v["perfect_play"]["status"], "unknown", "{v}");
    assert_eq!(v["perfect_play"]["reason"], "nodes", "{v}");
    // Split between the solve's threads (at most 8): the first to spend its share stops.
    assert!(
        v["perfect_play"]["nodes"].as_u64().unwrap() > 300 / 8,
        "{v}"
    );
    assert!(v["perfect_play"]["millis"].is_number(), "{v}");
    assert!(v["sequences"]["status"].is_string(), "{v}");
    let text = crosscap(&[
        "sandpile",
        "solve",
        "--graph",
        "grid:3x3",
        "--max-nodes",
        "300",
    ]);
    assert_eq!(text.code, 3, "{}", text.stderr);
    assert!(
        text.stdout.contains(
            "the winner with perfect play is unknown: the node limit ran out (--max-nodes)"
        ),
        "{}",
        text.stdout
    );
}

/// Perfect play solved and the search of every play cut short (grid:2x5: about 100,000
/// nodes for the first, 220,000 positions for the second): the verdict, value and winning
/// moves are answered in full, the `sequences` part says it ran out, and the command
/// exits 3 as for any budget that ran out.
#[test]
fn perfect_play_is_answered_when_only_the_search_of_every_play_ran_out() {
    let args = [
        "sandpile",
        "solve",
        "--graph",
        "grid:2x5",
        "--max-nodes",
        "150000",
    ];
    let run = crosscap(&[&["--json"], &args[..]].concat());
    assert_eq!(run.code, 3, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["status"], "solved", "{v}");
    assert_eq!(v["winner"], "X", "{v}");
    assert_eq!(v["value"], 1, "{v}");
    assert_eq!(
        v["winning_moves"],
        serde_json::json!(["0", "2", "4", "5", "7", "9"]),
        "{v}"
    );
    assert_eq!(v["sequences"]["status"], "unknown", "{v}");
    assert_eq!(v["sequences"]["reason"], "nodes", "{v}");
    assert!(v.get("predetermined").is_none(), "{v}");
    let text = crosscap(&args);
    assert_eq!(text.code, 3, "{}", text.stderr);
    for line in [
        "X to move wins with perfect play",
        "winning moves: 0 2 4 5 7 9",
        "sequences is unknown: the node limit ran out (--max-nodes) after ",
    ] {
        assert!(text.stdout.contains(line), "{line}: {}", text.stdout);
    }
}

/// path:2000 used to run for minutes under `--max-positions 20000` (each placement of a
/// long game topples up to about a million times); the positions now count moves played
/// and the searches share a deadline. Small here: path:300, where the same holds.
#[test]
fn a_long_path_stops_at_its_budget() {
    let v = crosscap(&[
        "--json",
        "sandpile",
        "solve",
        "--graph",
        "path:300",
        "--max-positions",
        "2000",
    ])
    .unknown_json("nodes");
    assert!(v["perfect_play"]["nodes"].as_u64().unwrap() <= 2001, "{v}");
}

#[test]
fn min_topple_is_the_edge_count_with_a_placement_sequence() {
    let v = crosscap(&["--json", "sandpile", "min-topple", "--graph", "C4"]).json();
    assert_eq!(v["status"], "solved");
    assert_eq!(v["chip_firing"]["chips"], 4);
    assert_eq!(v["edges"], 4);
    assert_eq!(v["chip_firing"]["placements"].as_array().unwrap().len(), 4);
    assert!(v["game_rules"]["moves"].as_u64().unwrap() >= 4);
    let dag = crosscap(&[
        "--json",
        "sandpile",
        "min-topple",
        "--graph",
        "arcs:0>1,1>2",
    ])
    .json();
    assert_eq!(dag["chip_firing"]["chips"], serde_json::Value::Null);
    assert_eq!(dag["chip_firing"]["status"], "solved");
    // A budget too small for the game-rules search still gives the chip-firing answer.
    let partial = crosscap(&[
        "--json",
        "sandpile",
        "min-topple",
        "--graph",
        "grid:3x3",
        "--max-positions",
        "30000",
    ])
    .unknown_json("nodes");
    assert_eq!(partial["chip_firing"]["status"], "solved");
    assert_eq!(partial["chip_firing"]["chips"], 12);
    assert_eq!(partial["game_rules"]["status"], "unknown");
    assert_eq!(partial["game_rules"]["reason"], "nodes");
    let text = crosscap(&["sandpile", "min-topple", "--graph", "K1,3"]);
    assert!(text.stdout.contains("3 chips (3 edges)"), "{}", text.stdout);
}

#[test]
fn classify_reads_graph6_on_stdin() {
    let v = crosscap_with_input(&["--json", "sandpile", "classify"], CONNECTED_4).json();
    assert_eq!(v["graphs"], 6);
    assert_eq!(v["status"], "solved");
    let rows = v["rows"].as_array().unwrap();
    // CF is K1,3: the first player wins whatever is played; C~ is K4 with 6 edges.
    assert_eq!(rows[0]["graph6"], "CF");
    assert_eq!(rows[0]["perfect_play"]["winner"], "X");
    assert_eq!(rows[0]["sequences"]["predetermined"], true);
    assert_eq!(rows[5]["edges"], 6);
    for row in rows {
        assert_eq!(row["status"], "solved", "{row}");
        assert_eq!(row["min_topple"]["chips"], row["edges"], "{row}");
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

/// A graph whose searches run out does not stop the others: each row has its status.
#[test]
fn classify_reports_each_graph_with_its_status() {
    let run = crosscap_with_input(
        &["--json", "sandpile", "classify", "--max-nodes", "40"],
        "BW\nC~\n",
    );
    let v = run.unknown_json("nodes");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows[0]["status"], "solved", "P3 fits in 40 positions: {v}");
    assert_eq!(rows[0]["perfect_play"]["winner"], "O");
    assert_eq!(rows[1]["status"], "unknown", "K4 does not: {v}");
    assert_eq!(v["summary"][0]["unknown"], 0);
    assert_eq!(v["summary"][1]["unknown"], 1);
    let csv = crosscap_with_input(
        &[
            "sandpile",
            "classify",
            "--format",
            "csv",
            "--max-nodes",
            "40",
        ],
        "C~\n",
    );
    assert_eq!(csv.code, 3);
    assert!(csv.stdout.contains("unknown"), "{}", csv.stdout);
}

/// The seed's reset rule flips the perfect-play winner of these three graphs, the only ones
/// among the 996 connected graphs up to 7 vertices (README); both rules through
/// `--toppling`, and the reset rule through `--opt`, `classify` and `min-topple` too.
#[test]
fn the_reset_rule_flips_three_winners() {
    let winner = |graph: &str, toppling: &str| {
        let args = [
            "--json",
            "sandpile",
            "solve",
            "--graph",
            graph,
            "--toppling",
            toppling,
        ];
        let v = crosscap(&args).json();
        assert_eq!(v["status"], "solved", "{v}");
        v["winner"].as_str().unwrap().to_string()
    };
    for (graph, abelian, reset) in [
        ("g6:EQjO", "O", "X"),
        ("g6:FCQrO", "X", "O"),
        ("g6:FCQvg", "O", "X"),
    ] {
        assert_eq!(winner(graph, "abelian"), abelian, "{graph}");
        assert_eq!(winner(graph, "reset"), reset, "{graph}");
    }
    let opt = crosscap(&[
        "--json",
        "sandpile",
        "solve",
        "--graph",
        "g6:EQjO",
        "--opt",
        "toppling=reset",
    ])
    .json();
    assert_eq!(opt["winner"], "X");
    // Of the connected graphs on 4 vertices none changes: the rules agree row by row.
    let rows = |toppling: &str| {
        let args = ["--json", "sandpile", "classify", "--toppling", toppling];
        let v = crosscap_with_input(&args, CONNECTED_4).json();
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row["perfect_play"]["winner"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(rows("reset"), rows("abelian"));
    let reset = crosscap_with_input(&["sandpile", "classify", "--toppling", "reset"], "EQjO\n");
    assert!(
        reset.stdout.contains("EQjO") && reset.stdout.contains(" X "),
        "{}",
        reset.stdout
    );
    let min = crosscap(&[
        "--json",
        "sandpile",
        "min-topple",
        "--graph",
        "C4",
        "--toppling",
        "reset",
    ])
    .json();
    assert_eq!(min["chip_firing"]["chips"], 4);
    crosscap(&[
        "sandpile",
        "solve",
        "--graph",
        "C3",
        "--toppling",
        "sideways",
    ])
    .assert_user_error("`sideways` is not abelian or reset");
    crosscap(&[
        "sandpile",
        "min-topple",
        "--graph",
        "C3",
        "--toppling",
        "sideways",
    ])
    .assert_user_error("`sideways` is not abelian or reset");
}

#[test]
fn bad_input_gives_clear_errors() {
    crosscap(&["sandpile", "solve", "--graph", "grid:3"]).assert_user_error("grid:3");
    crosscap(&["sandpile", "solve", "--graph", "hexagon"]).assert_user_error("hexagon");
    crosscap(&["sandpile", "solve", "--graph", "edges:0-0"]).assert_user_error("0-0");
    crosscap(&["sandpile", "solve", "--graph", "P3", "--position", "X5,.,."])
        .assert_user_error("topples at 1");
    crosscap(&["sandpile", "solve", "--graph", "P3", "--to-move", "O"])
        .assert_user_error("O can only move first from a given position");
    // Over the setup limits (as the server's): refused before the board is built.
    crosscap(&["sandpile", "solve", "--graph", "K65536,2"])
        .assert_user_error("65538 legal moves (at most 5000)");
    crosscap(&["sandpile", "min-topple", "--graph", "grid:316x316"])
        .assert_user_error("99856 legal moves (at most 5000)");
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

/// A graph6 name with `|` in it (one of geng's connected graphs on 7 vertices) stays one
/// cell of its Markdown row.
#[test]
fn classify_markdown_escapes_bars_in_graph6_names() {
    let md = crosscap_with_input(
        &[
            "sandpile",
            "classify",
            "--max-nodes",
            "1",
            "--format",
            "markdown",
        ],
        "F?o|o\n",
    );
    assert!(md.code == 0 || md.code == 3, "{}", md.stderr);
    let lines: Vec<&str> = md.stdout.lines().collect();
    assert!(lines[2].starts_with("| F?o\\|o |"), "{}", md.stdout);
    let bars = |line: &str| {
        line.replace("\\\\", "")
            .replace("\\|", "")
            .matches('|')
            .count()
    };
    assert!(
        lines.iter().all(|l| bars(l) == bars(lines[0])),
        "{}",
        md.stdout
    );
}
