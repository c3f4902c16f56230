use crate::{crosscap, crosscap_with_input};
use serde_json::json;

#[test]
fn value_of_three_four_five() {
    let v = crosscap(&["--json", "nim", "value", "3", "4", "5"]).json();
    assert_eq!(v["grundy"], 2);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["winning_moves"], serde_json::json!(["1:1"]));
}

/// The text says the Grundy value once: the `grundy` key of the JSON repeats it.
#[test]
fn solve_as_text_gives_the_value_once() {
    let run = crosscap(&["nim", "solve", "3", "4", "5"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("Grundy value 2 (N-position)\n"));
    assert!(!run.stdout.contains("grundy:"), "{}", run.stdout);
}

/// Misère Nim by Bouton's rule: three single counters lose for the mover (normal play's
/// N-position), two win by taking one, and heaps far past the Grundy search's reach are
/// answered at once.
#[test]
fn value_under_misere_play() {
    let misere = |heaps: &[&str]| {
        let mut args = vec!["--json", "nim", "value", "--misere"];
        args.extend_from_slice(heaps);
        crosscap(&args).json()
    };
    let v = misere(&["1", "1", "1"]);
    assert_eq!((&v["rule"], &v["outcome"]), (&json!("misere"), &json!("P")));
    assert_eq!(v["winning_moves"], json!([]));
    assert_eq!(misere(&["1", "1"])["winning_moves"], json!(["1:0", "2:0"]));
    // One heap over one counter: leave an odd number of single counters.
    assert_eq!(misere(&["5", "1", "1"])["winning_moves"], json!(["1:1"]));
    assert_eq!(misere(&["5", "1"])["winning_moves"], json!(["1:0"]));
    let big = misere(&["1000000", "1000000"]);
    assert_eq!(
        (&big["status"], &big["outcome"]),
        (&json!("solved"), &json!("P"))
    );
    let text = crosscap(&["nim", "value", "2", "2", "--misere"]);
    assert!(
        text.stdout.contains("misère play: P-position"),
        "{}",
        text.stdout
    );
    // No counter left: the player to move cannot move, and so wins.
    let empty = crosscap(&["nim", "value", "0", "--misere"]);
    assert!(
        empty.stdout.contains("N-position") && empty.stdout.contains("no move is left"),
        "{}",
        empty.stdout
    );
}

#[test]
fn value_of_a_p_position_as_text() {
    let run = crosscap(&["nim", "value", "1", "2", "3"]);
    assert_eq!(run.code, 0);
    assert!(
        run.stdout.contains("Grundy value 0 (P-position)"),
        "{}",
        run.stdout
    );
}

#[test]
fn solve_agrees_with_value() {
    let v = crosscap(&["--json", "nim", "solve", "3", "4", "5"]).json();
    assert_eq!(v["winner"], "X");
    assert_eq!(v["winning_moves"], serde_json::json!(["1:1"]));
}

#[test]
fn bad_heaps_are_user_errors() {
    crosscap(&["nim", "value", "three"]).assert_user_error("three");
    crosscap(&["nim", "value", "-1"]).assert_user_error("-1");
    crosscap(&["nim", "hint", "3000", "3000"]).assert_user_error("6000 legal moves (at most 5000)");
    crosscap(&["nim", "arena", "3", "--a", "godlike"]).assert_user_error("godlike");
}

#[test]
fn arena_shows_mcts_beating_random() {
    let v = crosscap(&[
        "--json",
        "nim",
        "arena",
        "3",
        "4",
        "5",
        "6",
        "--a",
        "mcts:2000",
        "--b",
        "random",
        "--games",
        "20",
        "--seed",
        "3",
    ])
    .json();
    assert_eq!(v["games"], 20);
    assert!(v["a_win_rate"].as_f64().unwrap() >= 0.9, "{v}");
}

#[test]
fn play_against_the_perfect_computer_from_a_script() {
    // 1 2 3 is a P-position: whatever we play, the perfect computer wins.
    let run = crosscap_with_input(
        &["nim", "play", "1", "2", "3", "--level", "perfect"],
        "bogus\n1:0\n2:0\n3:0\n3:1\nmoves\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("cannot read move"), "{}", run.stdout);
    assert!(run.stdout.contains("The computer wins."), "{}", run.stdout);
}

/// Terminal play takes `hint` (the game's hint level, or one named, proven where it solves: at 1 2 3
/// every move loses) and `undo` (the player's last move and the computer's reply).
#[test]
fn hint_and_undo_in_terminal_play() {
    let run = crosscap_with_input(
        &["nim", "play", "1", "2", "3", "--level", "perfect"],
        "undo\nhint\nhint mcts:50\nhint strong\n1:0\nundo\nmoves\nquit\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = &run.stdout;
    assert!(text.contains("nothing to take back"), "{text}");
    assert!(
        text.contains("(the computer at perfect, proven optimal, but the position is lost"),
        "{text}"
    );
    assert!(text.contains("(the computer at mcts:50)"), "{text}");
    assert!(text.contains("hint LEVEL: expected easy, medium"), "{text}");
    assert!(text.contains("O plays "), "{text}");
    let after = text
        .split("took back your last move")
        .nth(1)
        .expect("an undo");
    assert!(
        after.contains("legal moves: 1:0 2:0 2:1 3:0 3:1 3:2"),
        "{text}"
    );
}

#[test]
fn p_positions_of_three_heaps() {
    let v = crosscap(&["--json", "nim", "p-positions", "--heaps", "3", "--max", "3"]).json();
    assert_eq!(
        v["positions"],
        serde_json::json!([[0, 0, 0], [0, 1, 1], [0, 2, 2], [0, 3, 3], [1, 2, 3]])
    );
    let md = crosscap(&[
        "nim",
        "p-positions",
        "--heaps",
        "2",
        "--max",
        "1",
        "--format",
        "markdown",
    ]);
    assert_eq!(
        md.stdout,
        "| heap 1 | heap 2 |\n| --- | --- |\n| 0 | 0 |\n| 1 | 1 |\n"
    );
}

/// Inside the documented limits (6 heaps of 255) the table has about 1.6e9 rows: listing
/// it is refused before any work, and `--count` counts it at once.
#[test]
fn p_positions_too_many_to_list_are_counted() {
    crosscap(&["nim", "p-positions", "--heaps", "6", "--max", "255"])
        .assert_user_error("1618935552 P-positions, more than the 1000000 rows");
    let v = crosscap(&[
        "--json",
        "nim",
        "p-positions",
        "--heaps",
        "6",
        "--max",
        "255",
        "--count",
    ])
    .json();
    assert_eq!(v["count"], 1_618_935_552u64);
    assert_eq!(v.get("positions"), None);
    let listed = crosscap(&["--json", "nim", "p-positions", "--heaps", "3", "--max", "3"]);
    assert_eq!(listed.json()["count"], 5);
}

/// Nim's solve is Bouton's theorem: solved on any heaps whatever the budget (the generic
/// solver spent 10 s on the web form's example board 50 53 30 14 and played a losing
/// move as `perfect`).
#[test]
fn a_solve_follows_boutons_theorem_on_any_heaps() {
    let v = crosscap(&[
        "--json",
        "nim",
        "solve",
        "50",
        "53",
        "30",
        "14",
        "--max-nodes",
        "1",
    ])
    .json();
    assert_eq!(
        (&v["status"], &v["winner"]),
        (&json!("solved"), &json!("X"))
    );
    assert_eq!(v["winning_moves"], json!(["1:37", "2:34", "3:9"]), "{v}");
    let hint = crosscap(&["--json", "nim", "hint", "50", "53", "30", "14"]).json();
    assert!(
        v["winning_moves"]
            .as_array()
            .unwrap()
            .contains(&hint["move"]),
        "{hint}"
    );
    assert_eq!(hint["proven"], true, "{hint}");
}

/// Past the setup limit of play and hints (5000 moves), `solve` still answers from the
/// nim-sum, in the same shape; a lost position's moves (every move) are listed while they
/// fit in `--max-memory`.
#[test]
fn a_solve_answers_heaps_past_the_setup_limit() {
    let v = crosscap(&["--json", "nim", "solve", "20000", "30000"]).json();
    assert_eq!(
        (&v["status"], &v["winner"], &v["outcome"]),
        (&json!("solved"), &json!("X"), &json!("N"))
    );
    assert_eq!(
        (&v["value"], &v["grundy"]),
        (&json!(20000 ^ 30000), &json!(20000 ^ 30000))
    );
    assert_eq!(v["winning_moves"], json!(["2:20000"]), "{v}");
    assert_eq!(v["optimal_moves"], json!(["2:20000"]), "{v}");
    assert_eq!(v["heaps"], json!([20000, 30000]));
    let text = crosscap(&["nim", "solve", "20000", "30000"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout
            .contains("Grundy value 15120 (N-position)\nwinning moves: 2:20000\n"),
        "{}",
        text.stdout
    );
    let lost = crosscap(&["--json", "nim", "solve", "3000", "3000"]).json();
    assert_eq!(lost["winner"], "O");
    assert_eq!(lost["optimal_moves"].as_array().map(Vec::len), Some(6000));
    let huge = crosscap(&["--json", "nim", "solve", "4000000000", "4000000000"]);
    assert_eq!(huge.code, 0, "{}", huge.stderr);
    let huge = huge.json();
    assert_eq!(
        (&huge["status"], &huge["value"]),
        (&json!("solved"), &json!(0))
    );
    assert_eq!(
        (&huge["optimal_moves_status"], &huge["optimal_moves_reason"]),
        (&json!("unknown"), &json!("memory")),
        "{huge}"
    );
}

/// Counts honour `--format` as tables do: one row of counts.
#[test]
fn counts_are_tables_in_every_format() {
    let csv = crosscap(&[
        "nim",
        "p-positions",
        "--heaps",
        "3",
        "--max",
        "3",
        "--count",
        "--format",
        "csv",
    ]);
    assert_eq!(csv.stdout, "heaps,max,P-positions\n3,3,5\n");
    let edges = crosscap(&[
        "edge-nim",
        "p-positions",
        "--graph",
        "C4",
        "--max",
        "2",
        "--count",
        "--format",
        "csv",
    ]);
    assert_eq!(edges.stdout, "graph,positions,P-positions\ncycle:4,81,9\n");
}
