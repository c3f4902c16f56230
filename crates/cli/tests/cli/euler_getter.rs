use serde_json::Value;

use crate::{crosscap, crosscap_with_input, scratch};

/// Runs `crosscap --json euler-getter ARGS` and parses the output.
fn eg_json(args: &[&str]) -> Value {
    let mut all = vec!["--json", "euler-getter"];
    all.extend_from_slice(args);
    crosscap(&all).json()
}

/// The cell names of a board, in cell order, read from a scored full position.
fn cell_names(board: &str, cells: usize) -> Vec<String> {
    let half = cells / 2;
    let position = "X".repeat(cells - half) + &"O".repeat(half);
    let v = eg_json(&["score", "--board", board, "--position", &position]);
    let mut names = Vec::new();
    for player in ["X", "O"] {
        for piece in v["regions"][player]["pieces"].as_array().unwrap() {
            for name in piece["cells"].as_array().unwrap() {
                names.push(name.as_str().unwrap().to_string());
            }
        }
    }
    assert_eq!(names.len(), cells);
    names
}

#[test]
fn full_boards_score_to_the_surface_characteristic() {
    for (board, position, surface_chi) in [
        ("goldberg:1", "XOXOXO", 1),
        ("goldberg:1", "XXXOOO", 1),
        ("goldberg:2", "XOXOXOXOXOXOXOXOXOXOX", 1),
        ("goldberg:2", "XXXXXXXXXXXOOOOOOOOOO", 1),
    ] {
        let v = eg_json(&["score", "--board", board, "--position", position]);
        let (x, o) = (
            v["chi"]["X"].as_i64().unwrap(),
            v["chi"]["O"].as_i64().unwrap(),
        );
        assert_eq!(x + o, surface_chi, "{v}");
        assert_eq!(v["rule"], "normal");
        let expected_winner = if x > o { "X" } else { "O" };
        assert_eq!(v["winner"], expected_winner);
        for p in ["X", "O"] {
            let pieces = v["components"][p].as_i64().unwrap();
            let loops = v["loops"][p].as_i64().unwrap();
            assert_eq!(pieces - loops, v["chi"][p].as_i64().unwrap(), "{v}");
        }
    }
}

#[test]
fn a_lone_stone_is_a_disc_and_the_game_goes_on() {
    let v = eg_json(&["score", "--board", "goldberg:1", "--position", "X....."]);
    assert_eq!(v["chi"]["X"], 1);
    assert_eq!(v["components"]["X"], 1);
    assert_eq!(v["loops"]["X"], 0);
    assert_eq!(v["counts"]["X"]["vertices"], 5);
    assert_eq!(v["counts"]["X"]["edges"], 5);
    assert_eq!(v["chi"]["O"], 0);
    assert_eq!(v["components"]["O"], 0);
    assert_eq!(v["winner"], Value::Null);
    let text = crosscap(&[
        "euler-getter",
        "score",
        "--board",
        "goldberg:1",
        "--position",
        "X.....",
    ]);
    assert!(
        text.stdout.contains("X: chi 1 = 1 piece - 0 loops"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("O to move"), "{}", text.stdout);
}

#[test]
fn the_reverse_rule_gives_the_win_to_the_smaller_region() {
    let normal = eg_json(&["score", "--board", "goldberg:1", "--position", "XOXOXO"]);
    let reverse = eg_json(&[
        "score",
        "--board",
        "goldberg:1",
        "--position",
        "XOXOXO",
        "--rule",
        "reverse",
    ]);
    assert_eq!(reverse["rule"], "reverse");
    assert_ne!(normal["winner"], reverse["winner"]);
}

#[test]
fn small_boards_are_solved() {
    // Without swap the first player wins the hemi-dodecahedron (6 cells) by one.
    let v = eg_json(&["solve", "--board", "goldberg:1", "--swap", "none"]);
    assert_eq!(v["winner"], "X");
    assert_eq!(v["margin"], 1);
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 6, "{v}");
    assert_eq!(v["symmetries"], 60);
    // With the default swap after 3 moves, the second player takes the win.
    let v = eg_json(&["solve", "--board", "goldberg:1"]);
    assert_eq!(v["swap"], "3");
    assert_eq!(v["winner"], "O");
    assert_eq!(v["winning_moves"], serde_json::json!([]));
    let v = eg_json(&["solve", "--board", "taylor:2", "--swap", "none"]);
    assert!(v["winner"] == "X" || v["winner"] == "O", "{v}");
    assert_eq!(v["margin"].as_i64().unwrap() % 2, 1, "margins are odd: {v}");
    // Two threads sharing the table give the same answer as one.
    let solve = |threads: &str| {
        let args = [
            "solve",
            "--board",
            "taylor:2",
            "--swap",
            "none",
            "--threads",
            threads,
        ];
        eg_json(&args)
    };
    let (one, two) = (solve("1"), solve("2"));
    assert_eq!((&one["threads"], &two["threads"]), (&1.into(), &2.into()));
    for key in ["winner", "margin", "optimal_moves"] {
        assert_eq!(one[key], two[key], "{key}: {one} {two}");
    }
}

#[test]
fn a_goldberg_2_position_is_solved() {
    let v = eg_json(&[
        "solve",
        "--board",
        "goldberg:2",
        "--swap",
        "none",
        "--position",
        "XOXOXOXO.............",
    ]);
    assert_eq!(v["to_move"], "X");
    let margin = v["margin"].as_i64().unwrap();
    assert_eq!(v["winner"], if margin > 0 { "X" } else { "O" });
    assert!(!v["optimal_moves"].as_array().unwrap().is_empty());
}

/// A board file shipped with the euler-getter crate, as a `file:` spec.
fn board_file(name: &str) -> String {
    format!(
        "file:{}/../euler-getter/boards/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn even_characteristic_and_four_valent_boards_are_refused() {
    for board in ["torus:4x4", "klein:4x4"] {
        crosscap(&["euler-getter", "solve", "--board", board]).assert_user_error("even");
    }
    let four_valent = board_file("four-valent.json");
    crosscap(&[
        "euler-getter",
        "score",
        "--board",
        &four_valent,
        "--position",
        "....",
    ])
    .assert_user_error("not trivalent");
}

#[test]
fn a_user_board_of_characteristic_minus_one_is_played_and_solved() {
    let n3 = board_file("n3.json");
    let v = eg_json(&["score", "--board", &n3, "--position", "XOXOXOXOXOXO"]);
    assert_eq!(v["surface"], "N3");
    assert_eq!(v["surface_chi"], -1);
    let (x, o) = (
        v["chi"]["X"].as_i64().unwrap(),
        v["chi"]["O"].as_i64().unwrap(),
    );
    assert_eq!(x + o, -1);
    let v = eg_json(&["solve", "--board", &n3, "--swap", "none"]);
    assert_eq!(v["cells"], 12);
    assert_eq!(v["winner"], "X", "{v}");
}

#[test]
fn bad_input_is_a_user_error() {
    let score = |position: &str| {
        crosscap(&[
            "euler-getter",
            "score",
            "--board",
            "goldberg:1",
            "--position",
            position,
        ])
    };
    score("XOZ...").assert_user_error("position");
    score("XX....").assert_user_error("position");
    crosscap(&[
        "euler-getter",
        "solve",
        "--board",
        "goldberg:1",
        "--rule",
        "sideways",
    ])
    .assert_user_error("sideways");
    crosscap(&[
        "euler-getter",
        "solve",
        "--board",
        "goldberg:1",
        "--swap",
        "2",
    ])
    .assert_user_error("swap");
    crosscap(&["euler-getter", "solve", "--board", "nowhere:3"]).assert_user_error("nowhere");
    crosscap(&[
        "euler-getter",
        "arena",
        "--board",
        "goldberg:1",
        "--a",
        "godlike",
    ])
    .assert_user_error("godlike");
}

#[test]
fn the_survey_checks_the_even_cells_claim() {
    let v = eg_json(&["survey", "--board", "goldberg:1", "--board", "taylor:2"]);
    let rows = v["boards"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["cells"], 6);
    assert_eq!(rows[0]["winner"], "first");
    assert_eq!(rows[0]["claim"], "holds");
    assert_eq!(rows[0]["status"], "solved");
    assert_eq!(v["status"], "solved");
    let md = crosscap(&[
        "euler-getter",
        "survey",
        "--board",
        "goldberg:1",
        "--format",
        "markdown",
    ]);
    assert!(
        md.stdout
            .contains("| goldberg:1 | 6 | projective plane | first | 1 | holds |"),
        "{}",
        md.stdout
    );
    // Beyond the projective plane (README's table): sums of boards, N3 odd and N5 even.
    let sums = crosscap(&[
        "euler-getter",
        "survey",
        "--board",
        "sum:goldberg:1+torus:2x3",
        "--board",
        "sum:goldberg:1+torus:2x3+klein:2x3",
        "--format",
        "markdown",
    ]);
    for row in [
        "| sum:goldberg:1+torus:2x3 | 9 | N3 | second | -1 | n/a (odd) |",
        "| sum:goldberg:1+torus:2x3+klein:2x3 | 12 | N5 | first | 1 | holds |",
    ] {
        assert!(sums.stdout.contains(row), "{}", sums.stdout);
    }
}

/// A solve whose budget runs out is an answer (exit 3, JSON with the limit, nodes and
/// time); in a survey each board has its status and the boards solved are still given.
#[test]
fn a_budget_that_runs_out_is_an_unknown_answer() {
    let solve = crosscap(&[
        "--json",
        "euler-getter",
        "solve",
        "--board",
        "goldberg:2",
        "--swap",
        "none",
        "--max-nodes",
        "1000",
        // On one thread the cap is spent whole (on two, each stops at its half or when
        // the other does).
        "--threads",
        "1",
    ])
    .unknown_json("nodes");
    assert!(solve["nodes"].as_u64().unwrap() > 1000, "{solve}");
    assert_eq!(solve["cells"], 21);
    let survey = crosscap(&[
        "--json",
        "euler-getter",
        "survey",
        "--board",
        "goldberg:1",
        "--board",
        "goldberg:2",
        "--max-nodes",
        "1000",
    ])
    .unknown_json("nodes");
    let rows = survey["boards"].as_array().unwrap();
    assert_eq!(rows[0]["status"], "solved");
    assert_eq!(rows[0]["claim"], "holds");
    assert_eq!(rows[1]["status"], "unknown");
    assert_eq!(rows[1]["reason"], "nodes");
    let text = crosscap(&[
        "euler-getter",
        "survey",
        "--board",
        "goldberg:2",
        "--max-nodes",
        "1000",
    ]);
    assert_eq!(text.code, 3);
    assert!(text.stdout.contains("unknown"), "{}", text.stdout);
}

/// Who wins is searched before by how much: a budget that runs out on the margin still
/// names the winner and the margin's bounds proven so far, and the answer stays `unknown`
/// (a winner alone is not a solution). One that runs out after the margin, on the optimal
/// moves, answers `solved` (winner and margin), the moves marked unknown. On goldberg:1
/// with one thread the margin takes 9 nodes of the whole solve's 15.
#[test]
fn solved_means_winner_and_margin() {
    let solve = |json: bool, max_nodes: &str| {
        // One thread: node caps this small answer the same way every run.
        let mut args = vec!["euler-getter", "solve", "--board", "goldberg:1"];
        args.extend(["--swap", "none", "--threads", "1", "--max-nodes", max_nodes]);
        if json {
            args.insert(0, "--json");
        }
        crosscap(&args)
    };
    let cut = solve(true, "8").unknown_json("nodes");
    assert_eq!(cut["winner"], "X", "{cut}");
    assert!(cut["value"].is_null(), "{cut}");
    assert_eq!(cut["margin_at_least"], 1, "{cut}");
    assert!(cut.get("margin_at_most").is_none(), "{cut}");
    let margin_known = solve(true, "9").json();
    assert_eq!(margin_known["status"], "solved", "{margin_known}");
    assert_eq!(
        (&margin_known["winner"], &margin_known["margin"]),
        (&Value::from("X"), &Value::from(1)),
        "{margin_known}"
    );
    assert_eq!(margin_known["optimal_moves_status"], "unknown");
    assert_eq!(margin_known["optimal_moves_reason"], "nodes");
    for absent in ["winning_moves", "optimal_moves", "margin_at_least"] {
        assert!(margin_known.get(absent).is_none(), "{margin_known}");
    }
    let margin_text = solve(false, "9");
    assert_eq!(margin_text.code, 0);
    assert!(
        margin_text
            .stdout
            .contains("optimal moves: not all found before the node limit ran out (--max-nodes)")
            && !margin_text.stdout.contains("winning moves"),
        "{}",
        margin_text.stdout
    );
    let whole = solve(true, "15").json();
    assert_eq!(
        whole["optimal_moves"].as_array().unwrap().len(),
        6,
        "{whole}"
    );
    assert!(whole.get("optimal_moves_status").is_none(), "{whole}");
    // What the winner and margin took, of what the whole solve took.
    let spent = |answer: &Value, key: &str| answer[key].as_f64().expect(key);
    assert!(spent(&margin_known, "margin_nodes") <= spent(&margin_known, "nodes"));
    assert!(
        spent(&whole, "margin_nodes") < spent(&whole, "nodes"),
        "{whole}"
    );
    assert!(
        spent(&whole, "margin_millis") <= spent(&whole, "millis"),
        "{whole}"
    );
    let text = solve(false, "8");
    assert_eq!(text.code, 3);
    assert!(
        text.stdout.contains("X to move wins with perfect play")
            && text.stdout.contains("the value is unknown"),
        "{}",
        text.stdout
    );
    let starved = solve(true, "5").unknown_json("nodes");
    assert!(starved["winner"].is_null(), "{starved}");
}

#[test]
fn arena_shows_mcts_beating_random() {
    let v = eg_json(&[
        "arena",
        "--board",
        "goldberg:2",
        "--a",
        "mcts:1000",
        "--b",
        "random",
        "--games",
        "10",
    ]);
    assert_eq!(v["games"], 10);
    assert!(v["a_win_rate"].as_f64().unwrap() >= 0.8, "{v}");
}

#[test]
fn a_scripted_game_against_the_perfect_computer() {
    let names = cell_names("goldberg:1", 6);
    // The human (X) tries every cell in turn; taken ones are refused, the rest played.
    let mut script = String::from("nowhere\nmoves\nswap\n");
    for name in &names {
        script += &format!("{name}\n");
    }
    let run = crosscap_with_input(
        &[
            "euler-getter",
            "play",
            "--board",
            "goldberg:1",
            "--swap",
            "none",
            "--level",
            "perfect",
        ],
        &script,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("cannot read move"), "{}", run.stdout);
    assert!(run.stdout.contains("legal moves:"), "{}", run.stdout);
    assert!(
        run.stdout.contains("the swap rule is off"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("You win.") || run.stdout.contains("The computer wins."),
        "{}",
        run.stdout
    );
}

/// Tables name a board file by its file name, not its path; JSON keeps the spec too.
#[test]
fn survey_tables_name_board_files() {
    let board = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../euler-getter/boards/hemi-prism-6.json"
    );
    let spec = format!("file:{board}");
    let run = crosscap(&[
        "euler-getter",
        "survey",
        "--board",
        &spec,
        "--format",
        "markdown",
    ]);
    assert!(
        run.stdout.contains("| hemi-prism-6 | 4 |"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("boards/"), "{}", run.stdout);
    let v = crosscap(&["--json", "euler-getter", "survey", "--board", &spec]).json();
    assert_eq!(v["boards"][0]["name"], "hemi-prism-6");
    assert_eq!(v["boards"][0]["board"], spec.as_str());
}

/// `plain:mcts:N` is the search with every switch of the strength work off: it plays the
/// moves the search played before them (the unit test
/// `with_the_new_switches_off_the_search_plays_as_before` pins the same moves).
#[test]
fn the_plain_level_plays_the_old_search() {
    for (seed, expected) in [("7", "13"), ("8", "15")] {
        let hint = eg_json(&[
            "hint",
            "--board",
            "goldberg:2",
            "--level",
            "plain:mcts:3000",
            "--seed",
            seed,
        ]);
        assert_eq!(hint["level"], "plain:mcts:3000", "{hint}");
        assert_eq!(hint["move"], expected, "seed {seed}: {hint}");
    }
}

/// Writes the certificate of `position` on goldberg:2 (swap none, one thread, so the same
/// every run) to the scratch file `name`, checks that `verify` proves what `solve` found,
/// and returns its text (the file is zstd; the tests edit the text).
fn certificate_text(position: &str, name: &str) -> String {
    let file = scratch(name);
    let path = file.to_str().unwrap();
    let written = eg_json(&[
        "solve",
        "--board",
        "goldberg:2",
        "--position",
        position,
        "--swap",
        "none",
        "--threads",
        "1",
        "--certificate",
        path,
    ]);
    assert_eq!(written["status"], "solved", "{written}");
    let verified = eg_json(&["verify", path]);
    assert_eq!(verified["valid"], true, "{verified}");
    let result = &verified["results"][0];
    assert_eq!(result["winner"], written["winner"], "{verified}");
    assert_eq!(result["margin"], written["margin"], "{verified}");
    crate::certificate_text(&file)
}

/// `euler-getter verify` on `text` as a plain-text certificate.
fn verify_text(text: &str, name: &str) -> crate::Run {
    crate::verify_text("euler-getter", text, name)
}

#[test]
fn a_certificate_proves_the_margin_and_refuses_a_changed_move_or_claim() {
    // Sixteen empty cells, O to move: O's moves and X's replies down to endgames of at
    // most 12 empty cells, which the checker searches itself.
    let position = "XOXOX................";
    let text = certificate_text(position, "eg-g2.cert.zst");
    let run = verify_text(&text, "eg-g2.cert");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(" with perfect play from X "),
        "{}",
        run.stdout
    );
    // Lines: magic, game, board, the symmetries (version 4), the two claims (X's, then
    // O's), `nodes`, then node i.
    let lines: Vec<&str> = text.lines().collect();
    let maps = lines.iter().filter(|l| l.starts_with("symmetry ")).count();
    let o_claim = 4 + maps;
    let node = |i: usize| lines[o_claim + 2 + i];
    let words = |line: &str| line.split(' ').map(str::to_string).collect::<Vec<_>>();
    let claim = words(lines[o_claim]);
    assert_eq!(claim[..3], ["claim", position, "O"], "{claim:?}");
    // O's second move (the first `m` node below O's root, breadth first: its first move
    // may lead straight to a pairing leaf) changed to the cell of its first: taken. Nodes
    // name the nodes below them by how far back they are; a symmetry node's position is
    // carried elsewhere, so the walk stops there.
    let root: usize = claim[4].parse().unwrap();
    let first = words(node(root));
    let below = |i: usize| -> Vec<usize> {
        let line = words(node(i));
        let offsets = match line[0].as_str() {
            "m" => &line[2..3],
            "r" => &line[1..],
            _ => &line[..0],
        };
        offsets
            .iter()
            .map(|o| i - o.parse::<usize>().unwrap())
            .collect()
    };
    let mut queue = std::collections::VecDeque::from(below(root));
    let second = loop {
        let i = queue
            .pop_front()
            .expect("O moves again below its first move");
        if node(i).starts_with("m ") {
            break i;
        }
        queue.extend(below(i));
    };
    let taken = node(second).replacen(&words(node(second))[1], &first[1], 1);
    let mut changed = lines.clone();
    changed[o_claim + 2 + second] = &taken;
    let run = verify_text(&(changed.join("\n") + "\n"), "eg-move.cert");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("is taken"), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    // O's margin raised by 2, or its claim made X's: refused.
    let raised = format!(" O {} ", claim[3].parse::<i32>().unwrap() + 2);
    for changed_claim in [
        lines[o_claim].replace(&format!(" O {} ", claim[3]), &raised),
        lines[o_claim].replace(" O ", " X "),
    ] {
        assert_ne!(changed_claim, lines[o_claim]);
        let mut changed = lines.clone();
        changed[o_claim] = &changed_claim;
        let run = verify_text(&(changed.join("\n") + "\n"), "eg-claim.cert");
        assert_eq!(run.code, 1, "{changed_claim}: {}", run.stderr);
        assert!(
            run.stderr.starts_with("invalid certificate: "),
            "{}",
            run.stderr
        );
    }
    // Pairing leaves (`p A B C D ... [SINGLE]`, version 3, here with symmetries: version
    // 4) damaged: a cell named twice, a cell left out, or the partners of the first two
    // pairs of every leaf exchanged (A C B D), which breaks some leaf's bound.
    assert!(maps > 0 && lines[0].ends_with(" 4"), "{}", lines[0]);
    let pairings: Vec<usize> = (0..lines.len() - (o_claim + 2))
        .filter(|&i| node(i).starts_with("p "))
        .collect();
    assert!(!pairings.is_empty());
    let leaf = words(node(pairings[0]));
    let damaged = |edit: &dyn Fn(&mut Vec<String>), name: &str| {
        let mut changed: Vec<String> = lines.iter().map(|line| line.to_string()).collect();
        for &i in &pairings {
            let mut leaf = words(node(i));
            edit(&mut leaf);
            changed[o_claim + 2 + i] = leaf.join(" ");
        }
        verify_text(&(changed.join("\n") + "\n"), name)
    };
    let twice = damaged(&|leaf| leaf[2] = leaf[1].clone(), "eg-twice.cert");
    assert!(twice.stderr.contains("names"), "{}", twice.stderr);
    let missing = damaged(&|leaf| drop(leaf.pop()), "eg-missing.cert");
    assert!(missing.stderr.contains("empty"), "{}", missing.stderr);
    let exchanged = damaged(
        &|leaf| {
            if leaf.len() >= 5 {
                leaf.swap(2, 3)
            }
        },
        "eg-exchanged.cert",
    );
    assert!(
        exchanged.stderr.contains("not at least"),
        "{}",
        exchanged.stderr
    );
    for run in [twice, missing, exchanged] {
        assert_eq!(run.code, 1, "{leaf:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
}
#[test]
fn a_certificate_needs_the_plain_rules_and_its_budget() {
    let file = scratch("eg-short.cert.zst");
    let path = file.to_str().unwrap();
    let solve = [
        "euler-getter",
        "solve",
        "--board",
        "goldberg:2",
        "--certificate",
        path,
    ];
    crosscap(&[&solve[..], &["--swap", "3"]].concat()).assert_user_error("--swap none");
    let short = crosscap(
        &[
            &["--json"],
            &solve[..],
            &["--swap", "none", "--max-nodes", "1000"],
        ]
        .concat(),
    );
    short.unknown_json("nodes");
    assert!(!file.exists());
}

/// Each game's `verify` checks its own certificates: given the other game's, it says which
/// game's the file is and where to check it, in one line with exit 2.
#[test]
fn verify_refuses_the_other_games_certificate_in_one_line() {
    let hex = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../certificates/projective-hex-taylor-2.cert.zst");
    let run = crosscap(&["euler-getter", "verify", hex.to_str().unwrap()]);
    run.assert_user_error(
        "a certificate of projective-hex, not of euler-getter: check it with \
         `crosscap projective-hex verify`",
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    let euler = "crosscap-certificate 1\ngame euler-getter\nboard goldberg:1\n\
                 claim ...... X 1 0\nclaim ...... O -1 1\nnodes 2\ne\ne\n";
    assert_eq!(verify_text(euler, "eg-whole.cert").code, 0);
    let run = crate::verify_text("projective-hex", euler, "eg-as-hex.cert");
    run.assert_user_error("a certificate of euler-getter, not of projective-hex");
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

/// The name of each cell of `board` (of `cells` cells), in cell order: the one cell of
/// X's region when X holds only it.
fn names_in_cell_order(board: &str, cells: usize) -> Vec<String> {
    (0..cells)
        .map(|cell| {
            let mut position = vec!['.'; cells];
            position[cell] = 'X';
            let position: String = position.into_iter().collect();
            let v = eg_json(&["score", "--board", board, "--position", &position]);
            v["regions"]["X"]["pieces"][0]["cells"][0]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

fn all_openings(board: &str, extra: &[&str]) -> crate::Run {
    let mut args = vec![
        "--json",
        "euler-getter",
        "solve",
        "--board",
        board,
        "--all-openings",
        "--swap",
        "none",
        "--threads",
        "1",
    ];
    args.extend_from_slice(extra);
    crosscap(&args)
}

/// Every class of first moves of taylor:2 has the margin that `solve --position` gives
/// the position after each of its cells, under both rules; the classes cover every cell
/// once, and the board's margin is the best class's.
#[test]
fn each_opening_class_has_the_margin_of_its_position() {
    let board = "taylor:2";
    for rule in ["normal", "reverse"] {
        let v = all_openings(board, &["--rule", rule]).json();
        assert_eq!(v["status"], "solved", "{v}");
        let cells = v["cells"].as_u64().unwrap() as usize;
        let names = names_in_cell_order(board, cells);
        let mut covered = Vec::new();
        for class in v["openings"].as_array().unwrap() {
            assert_eq!(class["status"], "solved", "{class}");
            for name in class["cells"].as_array().unwrap() {
                let cell = names.iter().position(|n| n == name).unwrap();
                let mut position = vec!['.'; cells];
                position[cell] = 'X';
                let position: String = position.into_iter().collect();
                let solved = eg_json(&[
                    "solve",
                    "--board",
                    board,
                    "--swap",
                    "none",
                    "--rule",
                    rule,
                    "--position",
                    &position,
                    "--threads",
                    "1",
                ]);
                assert_eq!(
                    (&solved["margin"], &solved["winner"]),
                    (&class["margin"], &class["winner"]),
                    "{rule} {name}"
                );
                covered.push(cell);
            }
        }
        covered.sort_unstable();
        assert_eq!(covered, (0..cells).collect::<Vec<_>>(), "{rule}");
        let empty = eg_json(&[
            "solve",
            "--board",
            board,
            "--swap",
            "none",
            "--rule",
            rule,
            "--threads",
            "1",
        ]);
        assert_eq!(
            (&v["margin"], &v["winner"]),
            (&empty["margin"], &empty["winner"]),
            "{rule}"
        );
    }
}

/// A node budget below what some classes need and above what others do leaves those
/// unknown (no margin, exit 3) and solves the others with their exact margins.
#[test]
fn classes_out_of_budget_are_unknown_and_the_others_solved() {
    let board = "taylor:2";
    let whole = all_openings(board, &[]).json();
    let nodes: Vec<u64> = whole["openings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|class| class["nodes"].as_u64().unwrap())
        .collect();
    let (least, most) = (*nodes.iter().min().unwrap(), *nodes.iter().max().unwrap());
    assert!(least < most, "the classes need different nodes: {nodes:?}");
    let budget = least.to_string();
    let cut = all_openings(board, &["--max-nodes", &budget]).unknown_json("nodes");
    let (mut solved, mut unknown) = (0, 0);
    for (class, exact) in cut["openings"]
        .as_array()
        .unwrap()
        .iter()
        .zip(whole["openings"].as_array().unwrap())
    {
        match class["status"].as_str().unwrap() {
            "solved" => {
                assert_eq!(class["margin"], exact["margin"], "{class}");
                solved += 1;
            }
            _ => {
                assert_eq!(class["reason"], "nodes", "{class}");
                assert!(class["margin"].is_null(), "{class}");
                unknown += 1;
            }
        }
    }
    assert!(solved > 0 && unknown > 0, "{cut}");
    assert!(cut["margin"].is_null(), "{cut}");
}

/// Two shards of the all-openings solve, merged, give the classes of the unsharded
/// solve; a job directory makes a rerun solve nothing again.
#[test]
fn all_openings_shards_merge_and_resume() {
    let dir = scratch("eg-shards");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let whole = all_openings("taylor:2", &[]).json();
    for (shard, file) in [("1/2", "one.json"), ("2/2", "two.json")] {
        all_openings("taylor:2", &["--shard", shard, "--out", &path(file)]).json();
    }
    let merged = crosscap(&["--json", "merge", &path("one.json"), &path("two.json")]).json();
    let verdict = |v: &Value| {
        let classes: Vec<(Value, Value, Value)> = v["openings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c["cells"].clone(), c["margin"].clone(), c["status"].clone()))
            .collect();
        (classes, v["margin"].clone(), v["optimal_moves"].clone())
    };
    assert_eq!(verdict(&merged), verdict(&whole));
    // Projective Hex's H-search flag is no budget of Euler Getter's.
    for answer in [&whole, &merged] {
        let budget = &answer["budgets"][0];
        assert!(budget.is_object(), "{answer}");
        assert!(budget.get("virtual_connections").is_none(), "{answer}");
    }
    let shard: Value =
        serde_json::from_str(&std::fs::read_to_string(path("one.json")).unwrap()).unwrap();
    assert!(
        shard["budget"].get("virtual_connections").is_none(),
        "{shard}"
    );
    let jobs = path("jobs");
    let first = all_openings("taylor:2", &["--jobs", &jobs]).json();
    let again = all_openings("taylor:2", &["--jobs", &jobs]);
    assert!(again.stderr.contains("already solved"), "{}", again.stderr);
    let again = again.json();
    assert_eq!(verdict(&again), verdict(&first));
    assert_eq!(
        again["nodes"], first["nodes"],
        "the recorded nodes, none new"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// Shards record the threads of their classes' searches: merged, they state them when
/// every shard recorded the same number, and `null` beside a shard file written before
/// threads were recorded, which still merges into the same answer.
#[test]
fn merged_shards_state_the_threads_they_ran_on() {
    let dir = scratch("eg-threads");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    for (shard, file) in [("1/2", "one.json"), ("2/2", "two.json")] {
        let written = all_openings("taylor:2", &["--shard", shard, "--out", &path(file)]).json();
        assert_eq!(written["budget"]["threads"], 1, "{written}");
    }
    let merge = |files: &[&str]| {
        let mut args = vec!["--json", "merge"];
        let paths: Vec<String> = files.iter().map(|f| path(f)).collect();
        args.extend(paths.iter().map(String::as_str));
        crosscap(&args).json()
    };
    let merged = merge(&["one.json", "two.json"]);
    assert_eq!(merged["threads"], 1, "{merged}");
    let mut old: Value =
        serde_json::from_str(&std::fs::read_to_string(path("two.json")).unwrap()).unwrap();
    old["budget"].as_object_mut().unwrap().remove("threads");
    std::fs::write(path("old.json"), old.to_string()).unwrap();
    let with_old = merge(&["one.json", "old.json"]);
    assert!(with_old["threads"].is_null(), "{with_old}");
    assert_eq!(with_old["budgets"].as_array().unwrap().len(), 2);
    for key in ["margin", "optimal_moves", "winner"] {
        assert_eq!(with_old[key], merged[key], "{key}");
    }
    let text = crosscap(&["merge", &path("one.json"), &path("old.json")]);
    assert!(
        text.stdout
            .contains("each class under --max-seconds 600 --max-memory 512MiB\n"),
        "budgets reading alike are named once: {}",
        text.stdout
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// `--threads` changes nodes and time, not values, so a restart under another number
/// reuses the job directory's classes (each recorded with its threads) and reports both
/// budgets: `threads` is `null` and `budgets` lists each, as a merge of such shards does.
#[test]
fn a_restart_under_other_threads_reuses_its_jobs_and_reports_both() {
    let dir = scratch("eg-restart-threads");
    let _ = std::fs::remove_dir_all(&dir);
    let jobs = dir.join("jobs").to_str().unwrap().to_string();
    let out = dir.join("one.json").to_str().unwrap().to_string();
    let solve = |threads: &str, extra: &[&str]| {
        let mut args = vec![
            "--json",
            "euler-getter",
            "solve",
            "--board",
            "taylor:2",
            "--all-openings",
            "--swap",
            "none",
            "--jobs",
            &jobs,
            "--threads",
            threads,
        ];
        args.extend_from_slice(extra);
        crosscap(&args)
    };
    let first = solve("2", &["--shard", "1/2", "--out", &out]).json();
    assert_eq!(first["budget"]["threads"], 2, "{first}");
    let job: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("jobs").join("job-0.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(job["ran_under"]["threads"], 2, "{job}");
    let restart = solve("1", &[]);
    assert!(
        restart.stderr.contains("already solved"),
        "{}",
        restart.stderr
    );
    let restart = restart.json();
    assert_eq!(restart["status"], "solved", "{restart}");
    assert!(restart["threads"].is_null(), "{restart}");
    let mut threads: Vec<u64> = (restart["budgets"].as_array().unwrap().iter())
        .map(|b| b["threads"].as_u64().unwrap())
        .collect();
    threads.sort_unstable();
    assert_eq!(threads, [1, 2], "{restart}");
    let whole = all_openings("taylor:2", &[]).json();
    for key in ["margin", "optimal_moves", "winner"] {
        assert_eq!(restart[key], whole[key], "{key}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}
