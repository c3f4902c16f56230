//! Every game of the catalog through the command line's generic verbs: one `solve`
//! answer, `--think-ms` on `play`, `arena` and `hint`, unknown options refused.

use crosscap_engine::catalog::OptionKind;
use serde_json::{Value, json};

use crate::{crosscap, crosscap_with_input};

/// The keys of `solve` that every game gives.
const SOLVE_KEYS: [&str; 11] = [
    "game",
    "position",
    "to_move",
    "status",
    "winner",
    "value",
    "value_kind",
    "winning_moves",
    "optimal_moves",
    "nodes",
    "millis",
];

/// The examples, each with the game's own keys.
#[test]
fn every_game_solves_in_one_shape() {
    for (args, own) in [
        (
            &["nim", "solve", "3", "4", "5"][..],
            &["grundy", "heaps"][..],
        ),
        (
            &["projective-hex", "solve", "--board", "taylor:2"],
            &["board"],
        ),
        (
            &[
                "euler-getter",
                "solve",
                "--board",
                "goldberg:1",
                "--swap",
                "none",
            ],
            &["margin", "symmetries", "cells"],
        ),
        (
            &["edge-nim", "solve", "--graph", "C4", "--tokens", "1,2,0,2"],
            &["grundy", "edges", "tokens"],
        ),
        (&["manifold", "solve", "n5", "o2"], &["grundy", "surfaces"]),
        (
            &["sandpile", "solve", "--graph", "C3"],
            &[
                "predetermined",
                "possible_winners",
                "perfect_play",
                "sequences",
            ],
        ),
    ] {
        let v = crosscap(&[&["--json"], args].concat()).json();
        for key in SOLVE_KEYS.iter().chain(own) {
            assert!(v.get(key).is_some(), "{args:?} has no {key}: {v}");
        }
        assert_eq!(v["game"], args[0], "{v}");
        assert_eq!(v["status"], "solved", "{v}");
        assert_eq!(v["to_move"], "X", "{v}");
        assert!(
            ["X", "O", "draw"].contains(&v["winner"].as_str().unwrap()),
            "{v}"
        );
        let impartial = v["value_kind"] == "grundy";
        assert_eq!(v.get("outcome").is_some(), impartial, "{v}");
        if impartial {
            let p = v["value"] == 0;
            assert_eq!(v["outcome"], if p { "P" } else { "N" }, "{v}");
        }
    }
}

/// The games of the catalog, each with a board its `--board` takes.
fn games() -> Vec<(&'static str, &'static str)> {
    crosscap_catalog::standard()
        .games()
        .map(|game| {
            let board = match game.info.name {
                // Small enough for an arena of two games with a few moves each.
                "euler-getter" => "goldberg:1",
                "projective-hex" => "taylor:2",
                "edge-nim" => "C4",
                _ => game.info.default_board,
            };
            (game.info.name, board)
        })
        .collect()
}

/// `--think-ms` bounds every computer move, the same flag on every game's `play`, `arena`
/// and `hint`.
#[test]
fn every_play_arena_and_hint_takes_think_ms() {
    for (game, board) in games() {
        let play = crosscap_with_input(
            &[
                game,
                "play",
                "--board",
                board,
                "--colour",
                "O",
                "--think-ms",
                "20",
            ],
            "quit\n",
        );
        assert_eq!(play.code, 0, "{game}: {}", play.stderr);
        assert!(play.stdout.contains("X plays "), "{game}: {}", play.stdout);
        let arena = crosscap(&[
            "--json",
            game,
            "arena",
            "--board",
            board,
            "--games",
            "2",
            "--think-ms",
            "5",
        ])
        .json();
        assert_eq!(arena["games"], 2, "{game}: {arena}");
        let hint = crosscap(&["--json", game, "hint", "--board", board, "--think-ms", "20"]).json();
        assert_eq!(hint["level"], "mcts:20ms", "{game}: {hint}");
        assert_eq!(hint["to_move"], "X", "{game}: {hint}");
        assert!(hint["move"].is_string(), "{game}: {hint}");
    }
}

/// `--threads` runs every game's search on several threads, and a seeded iteration
/// budget still gives the same move.
#[test]
fn every_hint_and_arena_takes_threads_and_a_seed_reproduces() {
    for (game, board) in games() {
        let hint = || {
            crosscap(&[
                "--json",
                game,
                "hint",
                "--board",
                board,
                "--level",
                "mcts:600",
                "--threads",
                "2",
                "--seed",
                "5",
            ])
            .json()
        };
        let (first, again) = (hint(), hint());
        assert_eq!(first["threads"], 2, "{game}: {first}");
        assert_eq!(first["move"], again["move"], "{game}: {first} {again}");
    }
}

/// A two-game `arena --equal-time` on `game` between `sides` (the `--a`, `--b` flags).
fn equal_time_arena(game: &str, board: &str, sides: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "--json",
        game,
        "arena",
        "--board",
        board,
        "--games",
        "2",
        "--equal-time",
    ];
    args.extend_from_slice(sides);
    crosscap(&args).json()
}

/// `plain:LEVEL`, the search with the new switches off, is a level of every game, and an
/// equal-time arena gives it its time bank like any timed level.
#[test]
fn every_game_plays_the_plain_level() {
    for (game, board) in games() {
        let sides = ["--a", "expert", "--b", "plain:mcts:200", "--seed", "3"];
        let arena = equal_time_arena(game, board, &sides);
        assert_eq!(arena["agent_b"], "plain:mcts:200", "{game}: {arena}");
        assert_eq!(arena["games"], 2, "{game}: {arena}");
    }
}

/// `arena --equal-time` gives A a time bank matched to B's time on every game, and says
/// whether the run counts; A searches on two threads, charged twice its time.
#[test]
fn every_arena_plays_at_equal_time() {
    for (game, board) in games() {
        let sides = ["--a", "mcts:1000000", "--a-threads", "2", "--b", "flatmc:8"];
        let arena = equal_time_arena(game, board, &sides);
        assert_eq!(arena["equal_time"], true, "{game}: {arena}");
        assert!(arena["valid"].is_boolean(), "{game}: {arena}");
        // A run that does not count names the side whose time was off.
        assert_eq!(
            arena["valid"] == false,
            arena["slower"] == "A" || arena["slower"] == "B",
            "{game}: {arena}"
        );
        assert!(
            arena["a_ms_per_move"].as_f64() > Some(0.0),
            "{game}: {arena}"
        );
    }
}

/// A ladder whose wall-time bound runs out (0.005 minutes, far less than 400 games of
/// 20 ms moves) stops starting games, rates the games it played and exits 3 with the
/// time as the limit that ran out. The board is taylor:4: on taylor:2 the search proves
/// every position at once, and 400 games took 0.2 s, a race with the bound.
#[test]
fn a_ladder_cut_short_rates_the_games_played_and_exits_3() {
    let run = crosscap(&[
        "--json",
        "projective-hex",
        "ladder",
        "--board",
        "taylor:4",
        "--levels",
        "random,mcts:20ms",
        "--games",
        "400",
        "--max-minutes",
        "0.005",
    ]);
    assert!(run.stderr.contains("ran out after"), "{}", run.stderr);
    let v = run.unknown_json("time");
    let played = v["games_played"].as_u64().unwrap();
    assert!(played < 400, "{v}");
    assert_eq!(v["pairs"][0]["games"].as_u64(), Some(played), "{v}");
    assert_eq!(
        v["ratings"][1]["games"].as_f64(),
        Some(played as f64),
        "{v}"
    );
    assert_eq!(v["ratings"][0]["elo"], 0.0, "{v}");
}

/// A level whose games the ladder's time bound left unplayed has no rating: "unknown" in
/// the table, null Elo and interval in JSON (not an Elo of the fit's starting point and
/// "-inf to inf"). The first pair's 400 games of 20 ms moves outlast the 0.12 s bound.
#[test]
fn a_ladder_cut_short_leaves_unplayed_levels_unrated() {
    let args = [
        "nim",
        "ladder",
        "3",
        "4",
        "5",
        "--levels",
        "random,mcts:20ms,perfect",
        "--games",
        "400",
        "--max-minutes",
        "0.002",
    ];
    let text = crosscap(&args);
    assert_eq!(text.code, 3, "{}", text.stderr);
    let last: Vec<&str> = (text.stdout.lines().last().unwrap_or_default())
        .split_whitespace()
        .collect();
    assert_eq!(
        last.join(" "),
        "perfect unknown unknown (time ran out) 0 0",
        "{}",
        text.stdout
    );
    assert!(!text.stdout.contains("inf"), "{}", text.stdout);
    let v = crosscap(&[&["--json"][..], &args[..]].concat()).unknown_json("time");
    let unplayed = &v["ratings"][2];
    assert_eq!(unplayed["player"], "perfect", "{v}");
    assert_eq!(
        (&unplayed["elo"], &unplayed["ci95"]),
        (&Value::Null, &Value::Null),
        "{v}"
    );
    assert_eq!(
        v["ratings"][0]["ci95"],
        serde_json::json!([0.0, 0.0]),
        "{v}"
    );
}

/// `ladder` rates levels in Elo from a round robin, the first level at 0, on every game.
#[test]
fn a_ladder_rates_levels_on_every_game() {
    for (game, board) in games() {
        let v = crosscap(&[
            "--json",
            game,
            "ladder",
            "--board",
            board,
            "--levels",
            "random,mcts:50",
            "--games",
            "2",
        ])
        .json();
        assert_eq!(v["ratings"][0]["elo"], 0.0, "{game}: {v}");
        assert_eq!(
            v["ratings"][0]["ci95"],
            serde_json::json!([0.0, 0.0]),
            "{game}: {v}"
        );
        let [low, high] = [0, 1].map(|k| v["ratings"][1]["ci95"][k].as_f64().unwrap());
        let elo = v["ratings"][1]["elo"].as_f64().unwrap();
        assert!(low < elo && elo < high, "{game}: {v}");
        assert_eq!(v["games_played"], 2, "{game}: {v}");
        assert_eq!(v["status"], "solved", "{game}: {v}");
        assert_eq!(v["ratings"][1]["games"], 2.0, "{game}: {v}");
        assert_eq!(v["pairs"].as_array().map(Vec::len), Some(1), "{game}: {v}");
    }
    let v = crosscap(&[
        "--json",
        "nim",
        "ladder",
        "3",
        "4",
        "5",
        "--levels",
        "random,perfect",
        "--games",
        "10",
    ])
    .json();
    assert!(
        v["ratings"][1]["elo"].as_f64() > Some(300.0),
        "perfect beats random: {v}"
    );
    let table = crosscap(&[
        "nim",
        "ladder",
        "3",
        "4",
        "--levels",
        "random,perfect",
        "--games",
        "4",
        "--format",
        "markdown",
    ]);
    assert!(
        table
            .stdout
            .starts_with("| level | Elo | 95% interval | score | games |"),
        "{}",
        table.stdout
    );
    crosscap(&["nim", "ladder", "3", "4", "--levels", "random"])
        .assert_user_error("at least two levels");
}

/// A hint is the computer's move at the game's hint level, or the level asked for, and
/// says whether an exact solve proved it.
#[test]
fn hints_name_their_level() {
    let v = crosscap(&["--json", "nim", "hint", "3", "4", "5"]).json();
    assert_eq!(v["move"], "1:1", "the perfect level: {v}");
    assert_eq!(
        (&v["level"], &v["proven"], &v["result"]),
        (&json!("perfect"), &json!(true), &json!("win"))
    );
    let text = crosscap(&["nim", "hint", "3", "4", "5"]).stdout;
    assert!(text.contains("perfect, proven optimal: it wins"), "{text}");
    // In a lost position the best move still loses, and the hint says so.
    let text = crosscap(&["nim", "hint", "1", "2", "3"]).stdout;
    assert!(
        text.contains("proven optimal, but the position is lost against perfect play"),
        "{text}"
    );
    let text = crosscap(&["sandpile", "hint", "--graph", "P3", "--level", "random"]);
    assert!(text.stdout.starts_with("X to move: "), "{}", text.stdout);
    let v = crosscap(&[
        "--json", "sandpile", "hint", "--graph", "P3", "--level", "random",
    ])
    .json();
    assert_eq!(
        (&v["proven"], &v["result"]),
        (&json!(false), &Value::Null),
        "{v}"
    );
    // Past the solver's reach the perfect level answers a search's move, and says why, as
    // the API and the Python module do: too large to try, or past the tables' limit.
    let unproven = |args: &[&str], reason: &str, words: &str| {
        let args = [args, &["--level", "perfect", "--think-ms", "50"]].concat();
        let v = crosscap(&[&["--json"], &args[..]].concat()).json();
        assert_eq!(
            (&v["proven"], &v["reason"]),
            (&json!(false), &json!(reason))
        );
        let text = crosscap(&args).stdout;
        assert!(
            text.contains(&format!("not proven: {words}, a search's move")),
            "{text}"
        );
    };
    unproven(
        &["euler-getter", "hint", "--board", "goldberg:3"],
        "out of reach",
        "the position is too large for the exact solver",
    );
    unproven(
        &["edge-nim", "hint", "--graph", "P2", "--tokens", "1024"],
        "beyond",
        "the position is past the limit of the game's exact analysis",
    );
    crosscap(&[
        "projective-hex",
        "hint",
        "--position",
        ".XO/..XO/..OO./.XOX../XOX../XO..",
    ])
    .assert_user_error("the game is already over");
}

/// Options are checked in one place, each game's: an unknown one is refused before any
/// work, naming the game's options.
#[test]
fn unknown_options_are_refused_for_every_game() {
    for game in crosscap_catalog::standard().games() {
        let info = &game.info;
        let run = crosscap(&[
            info.name,
            "solve",
            "--board",
            info.default_board,
            "--opt",
            "bogus=1",
        ]);
        let names: Vec<&str> = info.options.iter().map(|o| o.name).collect();
        let listed = if names.is_empty() {
            "it has none".to_string()
        } else {
            format!("the options are {}", names.join(", "))
        };
        run.assert_user_error(&format!("{} has no option `bogus` ({listed})", info.name));
    }
}

/// Every game's commands take `--moves`: the computer's move, given back as `--moves`,
/// is played before the solve, which then has O to move; a move that cannot be played is
/// refused as bad input.
#[test]
fn every_game_takes_moves_to_play_first() {
    for game in crosscap_catalog::standard().games() {
        let info = &game.info;
        let board = ["--board", info.default_board];
        let hint = crosscap(
            &[
                &["--json", info.name, "hint"],
                &board[..],
                &["--level", "random"],
            ]
            .concat(),
        )
        .json();
        let first = hint["move"].as_str().unwrap();
        let after = crosscap(
            &[
                &["--json", info.name, "solve"],
                &board[..],
                &["--moves", first, "--max-nodes", "1"],
            ]
            .concat(),
        );
        assert!(
            [0, 3].contains(&after.code),
            "{}: {}",
            info.name,
            after.stderr
        );
        let after: Value = serde_json::from_str(&after.stdout).unwrap();
        assert_eq!(after["to_move"], "O", "{}: {after}", info.name);
        assert_ne!(after["position"], hint["position"], "{}", info.name);
        crosscap(&[&[info.name, "solve"], &board[..], &["--moves", "zz9"]].concat())
            .assert_user_error("zz9");
    }
}

/// A select option's value outside its choices is refused in the same words for every
/// game and every host, naming the choices, from the flag and from `--opt`; the choices
/// themselves are taken in any case.
#[test]
fn select_options_outside_their_choices_are_refused_alike() {
    let mut selects = 0;
    for game in crosscap_catalog::standard().games() {
        let info = &game.info;
        for option in info.options.iter().filter(|o| o.kind == OptionKind::Select) {
            selects += 1;
            let choices = match option.choices {
                [most @ .., last] => format!("{} or {last}", most.join(", ")),
                [] => unreachable!("a select has choices"),
            };
            let expected = format!("option {}: `sideways` is not {choices}", option.name);
            let flag = format!("--{}", option.flag());
            let by_flag = crosscap(&[
                info.name,
                "solve",
                "--board",
                info.default_board,
                &flag,
                "sideways",
            ]);
            by_flag.assert_user_error(&expected);
            assert_eq!(by_flag.stderr.trim(), format!("error: {expected}"));
            let opt = format!("{}=sideways", option.name);
            crosscap(&[
                info.name,
                "solve",
                "--board",
                info.default_board,
                "--opt",
                &opt,
            ])
            .assert_user_error(&expected);
            let first = format!(" {} ", option.choices[0].to_uppercase());
            let accepted = crosscap(&[
                info.name,
                "solve",
                "--board",
                info.default_board,
                &flag,
                &first,
                "--max-nodes",
                "1",
            ]);
            assert!([0, 3].contains(&accepted.code), "{}", accepted.stderr);
        }
    }
    assert!(selects >= 4, "{selects} select options");
}

/// `--opt` gives any option by name, as its flag does; twice is refused.
#[test]
fn opt_is_any_option() {
    let flag = crosscap(&[
        "--json",
        "euler-getter",
        "solve",
        "--board",
        "goldberg:1",
        "--swap",
        "none",
    ])
    .json();
    let opt = crosscap(&[
        "--json",
        "euler-getter",
        "solve",
        "--board",
        "goldberg:1",
        "--opt",
        "swap=none",
    ])
    .json();
    assert_eq!(flag["winner"], opt["winner"]);
    assert_eq!(opt["swap"], "none");
    let to_move = crosscap(&[
        "--json",
        "sandpile",
        "solve",
        "--graph",
        "P4",
        "--position",
        "X0,O1,.,X0",
        "--opt",
        "to-move=O",
    ])
    .json();
    assert_eq!(to_move["to_move"], "O");
    crosscap(&[
        "euler-getter",
        "solve",
        "--board",
        "goldberg:1",
        "--swap",
        "none",
        "--opt",
        "swap=3",
    ])
    .assert_user_error("the option swap is given twice");
    crosscap(&["nim", "solve", "3", "--opt", "swap"]).assert_user_error("expected KEY=VALUE");
}

/// Heaps and surfaces are given as arguments or as one `--board` text, not both.
#[test]
fn lists_are_arguments_or_one_board() {
    let listed = crosscap(&["--json", "manifold", "solve", "n5", "o2"]).json();
    let board: Value = crosscap(&["--json", "manifold", "solve", "--board", "n5 o2"]).json();
    assert_eq!(listed["position"], board["position"]);
    crosscap(&["nim", "solve", "3", "--board", "4"]).assert_user_error("cannot be used with");
}
