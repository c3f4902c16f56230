use crate::{crosscap, crosscap_with_input, scratch};

/// The seed's finished game on taylor:3: O (white) has won with a loop across the rim.
const SEED_GAME: &str = ".XO/..XO/..OO./.XOX../XOX../XO..";

#[test]
fn the_seed_game_is_won_by_o_with_its_loop() {
    let v = crosscap(&[
        "--json",
        "projective-hex",
        "winner",
        "--board",
        "taylor:3",
        "--position",
        SEED_GAME,
    ])
    .json();
    assert_eq!(v["winner"], "O");
    let mut cells: Vec<&str> = v["loop"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    // In order around the loop, from its first cell.
    assert_eq!(cells, ["a3", "b4", "c4", "c3", "d3", "e2", "f2"]);
    cells.sort_unstable();
    assert_eq!(cells, ["a3", "b4", "c3", "c4", "d3", "e2", "f2"]);
}

#[test]
fn winner_as_text_and_for_an_unfinished_game() {
    let run = crosscap(&["projective-hex", "winner", "--position", SEED_GAME]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("O has a global loop"), "{}", run.stdout);
    let v = crosscap(&["--json", "projective-hex", "winner", "--moves", "c3 d3 a1"]).json();
    assert_eq!(v["winner"], serde_json::Value::Null);
    assert_eq!(v["loop"], serde_json::json!([]));
}

#[test]
fn bad_input_is_a_user_error() {
    crosscap(&["projective-hex", "winner", "--board", "taylor:0"]).assert_user_error("taylor");
    crosscap(&["projective-hex", "winner", "--position", "XX"]).assert_user_error("position");
    crosscap(&["projective-hex", "winner", "--moves", "a1 zz9"]).assert_user_error("zz9");
    crosscap(&["projective-hex", "winner", "--moves", "a1 a1"]).assert_user_error("taken");
    crosscap(&["projective-hex", "winner", "--moves", "swap"]).assert_user_error("swap");
    crosscap(&["projective-hex", "solve", "--opening", "pie"]).assert_user_error("pie");
    crosscap(&["projective-hex", "arena", "--a", "godlike"]).assert_user_error("godlike");
}

#[test]
fn small_boards_are_solved_for_the_first_player() {
    for board in ["taylor:2", "goldberg:1"] {
        let v = crosscap(&["--json", "projective-hex", "solve", "--board", board]).json();
        assert_eq!(v["to_move"], "X", "{board}");
        assert_eq!(v["winner"], "X", "{board}: strategy stealing");
        assert!(
            !v["winning_moves"].as_array().unwrap().is_empty(),
            "{board}"
        );
    }
}

#[test]
fn taylor_2_openings_a_pentagon_loses() {
    let v = crosscap(&[
        "--json",
        "projective-hex",
        "solve",
        "--board",
        "taylor:2",
        "--all-openings",
    ])
    .json();
    assert_eq!(v["cells"], 12);
    assert_eq!(v["winner"], "X");
    let openings = v["openings"].as_array().unwrap();
    let covered: usize = openings
        .iter()
        .map(|o| o["cells"].as_array().unwrap().len())
        .sum();
    assert_eq!(covered, 12, "every cell is in one class: {v}");
    for o in openings {
        // The six corner pentagons lose to the replies listed; every hexagon wins.
        if o["sides"] == 5 {
            assert_eq!(o["winner"], "O", "{o}");
            assert!(!o["winning_replies"].as_array().unwrap().is_empty(), "{o}");
        } else {
            assert_eq!(o["winner"], "X", "{o}");
            assert_eq!(o["winning_replies"], serde_json::json!([]), "{o}");
        }
    }
    let text = crosscap(&[
        "projective-hex",
        "solve",
        "--board",
        "taylor:2",
        "--all-openings",
        "--format",
        "markdown",
    ]);
    assert!(
        text.stdout.starts_with("| opening | sides |"),
        "{}",
        text.stdout
    );
}

/// `--virtual-connections` runs the solver's H-search: the answers of every opening of
/// taylor:2 and goldberg:2, and of a position of 14 empty cells (where the H-search
/// runs), are those without it, and the JSON says which search ran.
#[test]
fn virtual_connections_change_no_answer() {
    let words = |args: &[&'static str], extra: &[&'static str]| {
        let mut words = vec!["projective-hex", "solve"];
        words.extend_from_slice(args);
        words.extend_from_slice(extra);
        words
    };
    let solve = |args: &[&'static str], extra: &[&'static str]| {
        crosscap(&[&["--json"], &words(args, extra)[..]].concat()).json()
    };
    for board in ["taylor:2", "goldberg:2"] {
        let args = ["--board", board, "--all-openings"];
        let plain = solve(&args, &[]);
        let searched = solve(&args, &["--virtual-connections"]);
        assert_eq!(plain["virtual_connections"], false, "{plain}");
        assert_eq!(searched["virtual_connections"], true, "{searched}");
        assert_eq!(searched["budgets"][0]["virtual_connections"], true);
        for key in ["status", "winner", "winning_moves", "classes"] {
            assert_eq!(searched[key], plain[key], "{board} {key}");
        }
        let classes = |v: &serde_json::Value| -> Vec<serde_json::Value> {
            v["openings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| serde_json::json!([o["cells"], o["winner"], o["winning_replies"]]))
                .collect()
        };
        assert_eq!(classes(&searched), classes(&plain), "{board}");
    }
    let args = ["--position", ".XO/..XO/..OO./.XOX../XOX../X..."];
    let plain = solve(&args, &[]);
    let searched = solve(&args, &["--virtual-connections"]);
    assert_eq!(searched["virtual_connections"], true, "{searched}");
    for key in ["status", "winner", "winning_moves", "optimal_moves"] {
        assert_eq!(searched[key], plain[key], "{key}");
    }
    let text = crosscap(&words(
        &["--board", "taylor:2", "--all-openings"],
        &["--virtual-connections"],
    ));
    assert!(
        text.stdout.contains("with --virtual-connections"),
        "{}",
        text.stdout
    );
}

#[test]
fn goldberg_1_has_one_class_of_openings() {
    let v = crosscap(&[
        "--json",
        "projective-hex",
        "solve",
        "--board",
        "goldberg:1",
        "--all-openings",
    ])
    .json();
    assert_eq!(v["classes"], 1, "the six pentagons are all alike: {v}");
    assert_eq!(v["openings"][0]["sides"], 5);
}

#[test]
fn solve_a_position_and_agree_with_the_moves() {
    // After the seed game's moves minus O's last, O to move wins: at once with f2, the
    // seed's last move, and by b1 or d6 too (each checked by a certificate), as the
    // README says.
    let v = crosscap(&[
        "--json",
        "projective-hex",
        "solve",
        "--position",
        ".XO/..XO/..OO./.XOX../XOX../X...",
    ])
    .json();
    assert_eq!(v["to_move"], "O");
    assert_eq!(v["winner"], "O");
    assert_eq!(
        v["winning_moves"],
        serde_json::json!(["b1", "d6", "f2"]),
        "{v}"
    );
}

/// Two lines of the goldberg:2 answer, solved as positions: after the pentagon 1 and O's
/// far hexagon 17, X's 2 still loses; after the hexagon 2, O's reply in the pentagon 1
/// loses to X's 3.
#[test]
fn goldberg_2_lines_of_the_opening_answer() {
    for (moves, to_move, winner) in [("1 17 2 5", "X", "O"), ("2 1 3", "O", "X")] {
        let v = crosscap(&[
            "--json",
            "projective-hex",
            "solve",
            "--board",
            "goldberg:2",
            "--moves",
            moves,
        ])
        .json();
        assert_eq!(v["to_move"], to_move, "{moves}: {v}");
        assert_eq!(v["winner"], winner, "{moves}: {v}");
    }
}

/// The open question of the issue, answered in full (in under a second): X wins goldberg:2 with a
/// hexagon only; after a pentagon, O's winning replies are exactly the five hexagons
/// farthest from it.
#[test]
fn goldberg_2_every_opening() {
    let v = crosscap(&[
        "--json",
        "projective-hex",
        "solve",
        "--board",
        "goldberg:2",
        "--all-openings",
    ])
    .json();
    assert_eq!(v["winner"], "X", "{v}");
    let openings = v["openings"].as_array().unwrap();
    assert_eq!(
        openings.len(),
        2,
        "a pentagon class and a hexagon class: {v}"
    );
    for o in openings {
        if o["sides"] == 5 {
            assert_eq!(o["winner"], "O", "{o}");
            assert_eq!(o["cells"][0], "1", "analysed from the pentagon 1: {o}");
            assert_eq!(
                o["winning_replies"],
                serde_json::json!(["17", "18", "19", "20", "21"]),
                "{o}"
            );
        } else {
            assert_eq!(o["winner"], "X", "{o}");
            assert_eq!(o["cells"].as_array().unwrap().len(), 15, "{o}");
        }
    }
}

/// The largest board to solve whole: every one of taylor:3's 27 openings wins for
/// X. Its classes under the board's symmetries: the six corner pentagons, the middles of
/// the three short sides, the other six cells of the rim, and three classes inside.
#[test]
fn taylor_3_every_opening_wins() {
    let v = crosscap(&[
        "--json",
        "projective-hex",
        "solve",
        "--board",
        "taylor:3",
        "--all-openings",
    ])
    .json();
    assert_eq!(v["winner"], "X", "{v}");
    let openings = v["openings"].as_array().unwrap();
    let classes: Vec<(usize, u64)> = openings
        .iter()
        .map(|o| {
            assert_eq!(o["winner"], "X", "{o}");
            assert_eq!(o["winning_replies"], serde_json::json!([]), "{o}");
            (
                o["cells"].as_array().unwrap().len(),
                o["sides"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        classes,
        [(6, 5), (3, 6), (6, 6), (6, 6), (3, 6), (3, 6)],
        "{v}"
    );
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 27, "{v}");
}

/// A search that runs out is an answer (exit 3, JSON with the limit, the nodes and the
/// time), for one position and for every opening, where the budget applies to each reply
/// and every class is reported with its own status (the first reply to run out used to
/// stop them all, and print no JSON).
#[test]
fn the_budget_can_run_out() {
    let one = crosscap(&[
        "--json",
        "projective-hex",
        "solve",
        "--max-nodes",
        "100",
        "--board",
        "taylor:4",
    ])
    .unknown_json("nodes");
    assert!(one["nodes"].as_u64().unwrap() > 100, "{one}");
    assert!(one["millis"].is_number(), "{one}");
    assert_eq!(one["winner"], serde_json::Value::Null, "{one}");
    let all = crosscap(&[
        "--json",
        "projective-hex",
        "solve",
        "--max-nodes",
        "100",
        "--all-openings",
    ])
    .unknown_json("nodes");
    let openings = all["openings"].as_array().unwrap();
    assert_eq!(
        openings.len(),
        6,
        "every class of taylor:3 is reported: {all}"
    );
    assert!(openings.iter().all(|o| o["status"] == "unknown"), "{all}");
    let text = crosscap(&[
        "projective-hex",
        "solve",
        "--max-nodes",
        "100",
        "--all-openings",
    ]);
    assert_eq!(text.code, 3, "{}", text.stderr);
    assert!(
        text.stdout.contains("the winner is unknown"),
        "{}",
        text.stdout
    );
}

/// `--max-seconds` is a positive number of seconds up to 1000000: `1e30` used to panic.
#[test]
fn seconds_out_of_range_are_refused() {
    for seconds in ["1e30", "0", "-1", "NaN", "inf"] {
        crosscap(&[
            "projective-hex",
            "solve",
            &format!("--max-seconds={seconds}"),
        ])
        .assert_user_error("expected a number of seconds above 0, at most 1000000");
    }
}

#[test]
fn play_a_game_from_a_script() {
    let run = crosscap_with_input(
        &[
            "projective-hex",
            "play",
            "--board",
            "taylor:2",
            "--level",
            "perfect",
        ],
        "nonsense\nmoves\na1\nb1\nb2\nc1\nc2\nd1\nd2\na2\nb3\nc3\nquit\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("cannot read move"), "{}", run.stdout);
    assert!(run.stdout.contains("legal moves:"), "{}", run.stdout);
}

#[test]
fn swap_and_cut_and_choose_from_the_command_line() {
    let v = crosscap(&[
        "--json",
        "projective-hex",
        "winner",
        "--opening",
        "swap",
        "--moves",
        "c3 swap d3",
    ])
    .json();
    // After the swap the first stone is O's, and X has played d3.
    let position = v["position"].as_str().unwrap();
    assert_eq!(position.matches('O').count(), 1, "{v}");
    assert_eq!(position.matches('X').count(), 1, "{v}");
    crosscap(&[
        "projective-hex",
        "winner",
        "--opening",
        "swap",
        "--moves",
        "c3 d3 swap",
    ])
    .assert_user_error("swap");
    let v = crosscap(&[
        "--json",
        "projective-hex",
        "winner",
        "--opening",
        "cut-and-choose",
        "--moves",
        "a1 b1 c1 swap",
    ])
    .json();
    let position = v["position"].as_str().unwrap();
    assert_eq!(position.matches('O').count(), 2, "{v}");
    assert_eq!(position.matches('X').count(), 1, "{v}");
}

#[test]
fn arena_runs_and_reports_times() {
    let v = crosscap(&[
        "--json",
        "projective-hex",
        "arena",
        "--board",
        "taylor:3",
        "--a",
        "mcts:500",
        "--b",
        "random",
        "--games",
        "10",
    ])
    .json();
    assert_eq!(v["games"], 10);
    assert!(v["a_win_rate"].as_f64().unwrap() >= 0.8, "{v}");
    assert!(v["a_ms_per_move"].as_f64().unwrap() > 0.0, "{v}");
}

/// Writes the certificate of every opening class of `board` to the scratch file `name`
/// (one per test: the tests run at once) and returns its text (the file is zstd; the
/// tests edit the text).
fn certificate_text(board: &str, name: &str) -> String {
    certificate_text_with(board, name, &[])
}

/// [`certificate_text`] with the solve's extra flags `flags`, checked by `verify`.
fn certificate_text_with(board: &str, name: &str, flags: &[&str]) -> String {
    let file = scratch(name);
    let path = file.to_str().unwrap();
    let mut args = vec![
        "--json",
        "projective-hex",
        "solve",
        "--board",
        board,
        "--all-openings",
        "--certificate",
        path,
    ];
    args.extend_from_slice(flags);
    let v = crosscap(&args).json();
    assert_eq!(v["status"], "solved", "{v}");
    let verified = crosscap(&["--json", "projective-hex", "verify", path]).json();
    assert_eq!(verified["valid"], true, "{verified}");
    assert_eq!(verified["claims"], v["claims"], "{verified}");
    crate::certificate_text(&file)
}

/// `verify` on `text` as a plain-text certificate.
fn verify_text(text: &str, name: &str) -> crate::Run {
    crate::verify_text("projective-hex", text, name)
}

#[test]
fn taylor_2_certificates_prove_what_the_solver_found() {
    let text = certificate_text("taylor:2", "t2-proved.cert.zst");
    // Every first move, the nine outside the three searched classes by symmetry nodes:
    // the corner a1 loses, the hexagon b1 wins, and so does the empty board for X.
    let claims: Vec<&str> = text.lines().filter(|l| l.starts_with("claim")).collect();
    assert_eq!(claims.len(), 13, "{claims:?}");
    assert!(claims[0].starts_with("claim X........... O "), "{claims:?}");
    assert!(claims[2].starts_with("claim ..X......... X "), "{claims:?}");
    assert!(
        claims[12].starts_with("claim ............ X "),
        "{claims:?}"
    );
    assert_eq!(
        text.lines().filter(|l| l.starts_with("symmetry ")).count(),
        5
    );
    assert_eq!(text.lines().filter(|l| l.starts_with("s ")).count(), 9);
    assert_eq!(verify_text(&text, "t2.cert").code, 0);
}

/// `--carrier-cells`: none written with 0, some with 12 (the whole position of 12 or
/// fewer empty cells may be one), and both certificates verify with the same claims.
#[test]
fn the_carrier_size_is_chosen_and_both_certificates_verify() {
    let carriers = |text: &str| text.lines().filter(|l| l.starts_with("c ")).count();
    let claims = |text: &str| -> Vec<String> {
        let claim = |l: &&str| l.starts_with("claim ");
        let words = |l: &str| l.split(' ').take(3).collect::<Vec<_>>().join(" ");
        text.lines().filter(claim).map(words).collect()
    };
    let none = certificate_text_with("taylor:2", "t2-k0.cert.zst", &["--carrier-cells", "0"]);
    let large = certificate_text_with("taylor:2", "t2-k12.cert.zst", &["--carrier-cells", "12"]);
    assert_eq!(carriers(&none), 0, "{none}");
    assert!(carriers(&large) > 0, "{large}");
    // Symmetry nodes (version 4) in both.
    assert!(none.starts_with("crosscap-certificate 4\n"), "{none}");
    assert!(large.starts_with("crosscap-certificate 4\n"), "{large}");
    assert_eq!(claims(&none), claims(&large));
    assert!(large.lines().count() < none.lines().count());
}

#[test]
fn a_certificate_with_a_changed_move_or_claim_is_refused() {
    let text = certificate_text("taylor:2", "t2-changed.cert.zst");
    // Each winner's move changed to a cell the claim's stones or an earlier move took, or
    // the winner of a claim swapped: exit 1 and one line naming the node or claim line.
    let lines: Vec<&str> = text.lines().collect();
    let first_move = lines
        .iter()
        .position(|l| l.starts_with("m ") && l.split(' ').count() == 3)
        .unwrap();
    let mut changed = lines.clone();
    let moved = lines[first_move].replacen(lines[first_move].split(' ').nth(1).unwrap(), "a1", 1);
    assert_ne!(moved, lines[first_move], "the move was not a1 already");
    changed[first_move] = &moved;
    let run = verify_text(&(changed.join("\n") + "\n"), "t2-move.cert");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("invalid certificate: node "),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);

    let claim = lines.iter().position(|l| l.starts_with("claim ")).unwrap();
    let mut changed = lines.clone();
    let swapped = lines[claim].replace(" O ", " X ");
    changed[claim] = &swapped;
    let run = verify_text(&(changed.join("\n") + "\n"), "t2-claim.cert");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("invalid certificate:"),
        "{}",
        run.stderr
    );
}

/// `verify --threads N`: the stored taylor:2 certificate proves the same on 1 thread and on
/// 2; a number of threads out of range is bad input.
#[test]
fn verify_checks_on_the_threads_asked_for() {
    let stored = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../certificates/projective-hex-taylor-2.cert.zst");
    let file = stored.to_str().unwrap();
    let runs: Vec<crate::Run> = ["1", "2"]
        .iter()
        .map(|threads| crosscap(&["projective-hex", "verify", "--threads", threads, file]))
        .collect();
    assert_eq!(runs[0].code, 0, "{}", runs[0].stderr);
    assert!(
        runs[0].stdout.starts_with("valid: 36 nodes"),
        "{}",
        runs[0].stdout
    );
    assert_eq!((runs[1].code, &runs[1].stdout), (0, &runs[0].stdout));
    crosscap(&["projective-hex", "verify", "--threads", "0", file])
        .assert_user_error("expected a number of threads from 1 to 64");
}

#[test]
fn verify_refuses_what_is_no_certificate_with_status_2() {
    verify_text("not a certificate\n", "junk.cert").assert_user_error("not a certificate");
    crosscap(&["projective-hex", "verify", "/no/such/file.cert.zst"])
        .assert_user_error("cannot read");
}

#[test]
fn a_certificate_cut_short_by_its_budget_is_not_written() {
    let file = scratch("short.cert.zst");
    let path = file.to_str().unwrap();
    let run = crosscap(&[
        "--json",
        "projective-hex",
        "solve",
        "--board",
        "goldberg:2",
        "--all-openings",
        "--certificate",
        path,
        "--max-nodes",
        "1000",
    ]);
    run.unknown_json("nodes");
    assert!(!file.exists());
}

/// `patterns` with a tiny budget: the same seed writes the same file, which lists the
/// patterns the JSON shows, and the counts add up; a timed level and a bad board are
/// refused.
#[test]
fn patterns_are_learnt_reproducibly_from_seeded_self_play() {
    let file = scratch("patterns.txt");
    let path = file.to_str().unwrap();
    let args = [
        "--json",
        "projective-hex",
        "patterns",
        "--board",
        "taylor:3",
        "--games",
        "2",
        "--level",
        "mcts:20",
        "--seed",
        "5",
        "--out",
        path,
    ];
    let v = crosscap(&args).json();
    let first = std::fs::read_to_string(&file).unwrap();
    crosscap(&args).json();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), first);
    assert!(
        first.contains("--games 2 --level mcts:20 --seed 5"),
        "{first}"
    );
    let rows = v["patterns"].as_array().unwrap();
    let sum = |key: &str| rows.iter().map(|r| r[key].as_u64().unwrap()).sum::<u64>();
    assert_eq!(sum("available"), v["available"].as_u64().unwrap());
    assert_eq!(sum("played"), v["played"].as_u64().unwrap());
    assert!(v["played"].as_u64().unwrap() > 0);
    let listed = first.lines().filter(|l| !l.starts_with('#')).count();
    assert_eq!(listed, rows.len());
    std::fs::remove_file(&file).unwrap();

    let text = crosscap(&[
        "projective-hex",
        "patterns",
        "--board",
        "taylor:2",
        "--games",
        "1",
        "--level",
        "mcts:5",
        "--format",
        "markdown",
    ]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.starts_with("| pattern |"), "{}", text.stdout);
    crosscap(&["projective-hex", "patterns", "--level", "expert"]).assert_user_error("timed");
    crosscap(&["projective-hex", "patterns", "--board", "taylor:0"]).assert_user_error("taylor");
    crosscap(&["projective-hex", "patterns", "--games", "0"]).assert_user_error("games");
}

/// `--max-minutes` bounds the self-play: cut short, it shows the finished games' patterns,
/// writes no file (its header would name games that were not played) and exits 3.
#[test]
fn patterns_cut_short_write_no_file_and_exit_3() {
    let file = scratch("patterns-cut.txt");
    let run = crosscap(&[
        "--json",
        "projective-hex",
        "patterns",
        "--board",
        "taylor:5",
        "--games",
        "100000",
        "--level",
        "mcts:2000",
        "--max-minutes",
        "0.005",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert!(run.stderr.contains("ran out after"), "{}", run.stderr);
    let v = run.unknown_json("time");
    assert!(v["games"].as_u64().unwrap() < 100000, "{v}");
    assert!(v["file"].is_null(), "{v}");
    assert!(!file.exists());
}
