use serde_json::json;

use crate::{crosscap, crosscap_with_input};

#[test]
fn value_of_the_seed_example_is_p() {
    let v = crosscap(&[
        "--json",
        "edge-nim",
        "value",
        "--graph",
        "tetrahedron",
        "--tokens",
        "a=0,b=4,c=9,A=6,B=2,C=7",
    ])
    .json();
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["grundy"], 0);
    assert_eq!(v["winning_moves"], json!([]));
    assert_eq!(v["edges"], json!(["a", "b", "c", "A", "B", "C"]));
    assert_eq!(v["tokens"], json!([0, 4, 9, 6, 2, 7]));
}

#[test]
fn value_lists_winning_moves_in_notation() {
    // One edge with 3 tokens is a Nim heap: the winning move empties it, from vertex 0.
    let v = crosscap(&[
        "--json", "edge-nim", "value", "--graph", "P2", "--tokens", "3",
    ])
    .json();
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["grundy"], 3);
    assert_eq!(v["winning_moves"], json!(["0:0-1=0"]));
    // K1,2 with 1 and 2 tokens: the hub empties both at once.
    let run = crosscap(&["edge-nim", "value", "--graph", "K1,2", "--tokens", "1,2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("winning moves: 0:0-1=0,0-2=0"),
        "{}",
        run.stdout
    );
}

#[test]
fn value_and_solve_default_to_the_same_tokens() {
    let value = crosscap(&["--json", "edge-nim", "value", "--graph", "tetrahedron"]).json();
    assert_eq!(value["tokens"], json!([3, 3, 3, 3, 3, 3]));
    let solve = crosscap(&["--json", "edge-nim", "solve", "--graph", "tetrahedron"]).json();
    assert_eq!(solve["value"], value["grundy"]);
    let tokens_help = |verb: &str| {
        let help = crosscap(&["edge-nim", verb, "--help"]).stdout;
        let line = help.lines().find(|l| l.contains("--tokens")).map(str::trim);
        line.map(|l| l.split_once(' ').unwrap().1.trim().to_string())
    };
    assert!(
        tokens_help("value")
            .unwrap()
            .contains("empty means 3 on each edge")
    );
    assert_eq!(tokens_help("value"), tokens_help("solve"));
}

/// Tables over `--max-memory` are a budget that ran out, as `solve` says it: `value`
/// answers `"status": "unknown"` with the reason and exits 3, and so do the tables, with
/// one line on stderr.
#[test]
fn value_and_solve_run_out_of_memory_alike() {
    let over = ["--graph", "complete:5", "--max-memory", "1MiB"];
    let value = crosscap(&[&["--json", "edge-nim", "value"][..], &over].concat());
    let solve = crosscap(&[&["--json", "edge-nim", "solve"][..], &over].concat());
    for run in [&value, &solve] {
        run.unknown_json("memory");
    }
    assert_eq!(value.unknown_json("memory")["tokens"], json!(vec![3; 10]));
    let text = crosscap(&[&["edge-nim", "value"][..], &over].concat());
    assert_eq!(
        text.stdout.trim(),
        "the Grundy value is unknown: the memory limit ran out (--max-memory): a table of \
         1048576 positions needs 22 MiB, over the limit of 1 MiB"
    );
    let table = crosscap(
        &[
            &["edge-nim", "grundy-table", "--max", "3", "--count"][..],
            &over,
        ]
        .concat(),
    );
    assert_eq!(table.code, 3, "{}", table.stderr);
    assert_eq!(table.stderr.lines().count(), 1, "{}", table.stderr);
    let solved = crosscap(&["--json", "edge-nim", "value", "--graph", "K4"]);
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    assert_eq!(solved.json()["status"], "solved");
}

#[test]
fn disjoint_union_adds_by_nim_sum() {
    let value = |graph: &str, tokens: &str| {
        crosscap(&[
            "--json", "edge-nim", "value", "--graph", graph, "--tokens", tokens,
        ])
        .json()["grundy"]
            .as_u64()
            .unwrap()
    };
    let triangle = value("C3", "1,2,2");
    let path = value("P3", "2,3");
    assert_eq!(
        value("edges:0-1,1-2,0-2,3-4,4-5", "1,2,2,2,3"),
        triangle ^ path
    );
}

#[test]
fn p_positions_of_c3_in_every_format() {
    let v = crosscap(&[
        "--json",
        "edge-nim",
        "p-positions",
        "--graph",
        "C3",
        "--max",
        "2",
    ])
    .json();
    assert_eq!(v["edges"], json!(["0-1", "1-2", "0-2"]));
    let positions = v["positions"].as_array().unwrap();
    assert_eq!(positions[0], json!([0, 0, 0]));
    assert_eq!(v["count"].as_u64().unwrap(), positions.len() as u64);
    assert_eq!(v["positions_checked"], 27);
    for (format, start) in [
        ("csv", "0-1,1-2,0-2\n0,0,0\n"),
        ("markdown", "| 0-1 | 1-2 | 0-2 |\n| --- |"),
        (
            "latex",
            "% needs \\usepackage{longtable,array}\n\\begin{longtable}{lll}",
        ),
    ] {
        let table = crosscap(&[
            "edge-nim",
            "p-positions",
            "--graph",
            "C3",
            "--max",
            "2",
            "--format",
            format,
        ]);
        assert!(
            table.stdout.starts_with(start),
            "{format}: {}",
            table.stdout
        );
    }
}

#[test]
fn p_positions_with_a_fixed_edge_and_count_only() {
    let v = crosscap(&[
        "--json",
        "edge-nim",
        "p-positions",
        "--graph",
        "tetrahedron",
        "--max",
        "3",
        "--fix",
        "a=0",
    ])
    .json();
    assert_eq!(v["fixed"], json!({"a": 0}));
    assert_eq!(v["positions_checked"], 4u64.pow(5));
    for p in v["positions"].as_array().unwrap() {
        assert_eq!(p[0], 0);
    }
    let count = crosscap(&[
        "--json",
        "edge-nim",
        "p-positions",
        "--graph",
        "tetrahedron",
        "--max",
        "3",
        "--fix",
        "a=0",
        "--count",
    ])
    .json();
    assert_eq!(count["count"], v["count"]);
    assert!(count.get("positions").is_none());
}

#[test]
fn grundy_table_and_its_histogram() {
    let v = crosscap(&[
        "--json",
        "edge-nim",
        "grundy-table",
        "--graph",
        "P2",
        "--max",
        "4",
    ])
    .json();
    assert_eq!(v["grundy"], json!([0, 1, 2, 3, 4]));
    assert_eq!(v["positions"], json!([[0], [1], [2], [3], [4]]));
    let h = crosscap(&[
        "--json",
        "edge-nim",
        "grundy-table",
        "--graph",
        "K1,2",
        "--max",
        "2",
        "--count",
    ])
    .json();
    assert_eq!(h["count"], 9);
    assert_eq!(h["histogram"][0], 1, "only the empty star is P");
    let text = crosscap(&["edge-nim", "grundy-table", "--graph", "P3", "--max", "1"]);
    assert!(
        text.stdout.starts_with("0-1  1-2  grundy\n"),
        "{}",
        text.stdout
    );
}

/// Tables listed row by row stop at 1000000 rows, refused before any work; `--count`
/// still counts them (the tetrahedron to 10 has 11^6 = 1771561 positions).
#[test]
fn tables_too_long_to_list_are_counted() {
    let table = |count: bool| {
        let mut args = vec![
            "--json",
            "edge-nim",
            "grundy-table",
            "--graph",
            "tetrahedron",
            "--max",
            "10",
        ];
        if count {
            args.push("--count");
        }
        crosscap(&args)
    };
    table(false).assert_user_error("1771561 positions, more than the 1000000 rows");
    assert_eq!(table(true).json()["count"], 1_771_561);
}

#[test]
fn graph6_lines_on_stdin_give_one_table_each() {
    // K3 and the path on three vertices, as nauty's geng writes them.
    let run = crosscap_with_input(
        &[
            "--json",
            "edge-nim",
            "p-positions",
            "--graph",
            "-",
            "--max",
            "1",
            "--count",
        ],
        ">>graph6<<Bw\nBo\n",
    );
    let v = run.json();
    let reports = v.as_array().unwrap();
    assert_eq!(reports.len(), 2);
    assert_eq!(reports[0]["graph"], "g6:Bw");
    assert_eq!(reports[0]["edges"], json!(["0-1", "0-2", "1-2"]));
    assert_eq!(reports[1]["edges"].as_array().unwrap().len(), 2);
    crosscap_with_input(
        &["edge-nim", "p-positions", "--graph", "-", "--max", "1"],
        "Bw\nB!\n",
    )
    .assert_user_error("line 2: graph6 `B!`");
}

/// Tables of several graphs from stdin are one valid document in each format: CSV one
/// table led by a `graph` column, Markdown a heading per graph (escaped), no bare
/// `graph NAME` lines between tables.
#[test]
fn tables_of_several_graphs_are_one_document_per_format() {
    let run = |format: &str, count: bool| {
        let mut args = vec![
            "edge-nim",
            "p-positions",
            "--graph",
            "-",
            "--max",
            "1",
            "--format",
            format,
        ];
        if count {
            args.push("--count");
        }
        let run = crosscap_with_input(&args, "CF\nC^\nF?o|o\n");
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.stdout
    };
    for count in [false, true] {
        let csv = run("csv", count);
        let lines: Vec<&str> = csv.lines().collect();
        assert!(lines[0].starts_with("graph,"), "{csv}");
        let fields = lines[0].split(',').count();
        assert!(
            lines
                .iter()
                .all(|l| !l.is_empty() && l.split(',').count() == fields),
            "{csv}"
        );
        assert_eq!(lines.iter().filter(|l| l.starts_with("graph")).count(), 1);
        assert!(
            csv.contains("\ng6:CF,") && csv.contains("\ng6:F?o|o,"),
            "{csv}"
        );
    }
    let csv = run("csv", false);
    assert!(csv.starts_with("graph,0-3,1-3,2-3,"), "{csv}");
    assert!(csv.contains("\ng6:CF,0,0,0,"), "{csv}");
    let md = run("markdown", false);
    assert!(md.starts_with("### graph g6:CF\n\n| 0-3 |"), "{md}");
    assert!(md.contains("\n### graph g6:F?o\\|o\n\n|"), "{md}");
    assert!(!md.lines().any(|l| l.starts_with("graph ")), "{md}");
    let latex = run("latex", false);
    assert!(
        latex.contains("\\subsection*{Graph g6:C\\textasciicircum{}}"),
        "{latex}"
    );
    assert!(!latex.lines().any(|l| l.starts_with("graph ")), "{latex}");
}

#[test]
fn check_tetrahedron_agrees() {
    let v = crosscap(&["--json", "edge-nim", "check-tetrahedron", "--max", "6"]).json();
    assert_eq!(v["agrees"], true);
    assert_eq!(v["positions"], 7u64.pow(5));
    assert_eq!(v["counterexample"], serde_json::Value::Null);
    let text = crosscap(&["edge-nim", "check-tetrahedron", "--max", "3"]);
    assert!(
        text.stdout
            .contains("agrees with the table on all 1024 positions"),
        "{}",
        text.stdout
    );
}

/// The seed's theorem as a predicate gives check-tetrahedron's answer exactly, and a
/// planted change (b < c for b <= c) is caught with a counterexample each way it fails.
#[test]
fn check_reproduces_the_tetrahedron_theorem_and_finds_a_planted_error() {
    let theorem = "b + C == B + c and b <= c and (A xor b xor B) == 0";
    let check = |predicate: &str| {
        crosscap(&[
            "--json",
            "edge-nim",
            "check",
            "--graph",
            "tetrahedron",
            "--max",
            "5",
            "--fix",
            "a=0",
            "--up-to-symmetry",
            "--predicate",
            predicate,
        ])
        .json()
    };
    let v = check(theorem);
    let saved = crosscap(&["--json", "edge-nim", "check-tetrahedron", "--max", "5"]).json();
    assert_eq!(v["holds"], true, "{v}");
    assert_eq!(
        (v["positions"].clone(), v["p_positions"].clone()),
        (saved["positions"].clone(), saved["p_positions"].clone())
    );
    assert_eq!(v["fixed"], json!({ "a": 0 }));
    let planted = check(&theorem.replace("b <= c", "b < c"));
    assert_eq!(planted["holds"], false, "{planted}");
    let missed = planted["p_not_predicate"]
        .as_array()
        .expect("a P-position missed");
    assert_eq!(missed[0], 0, "a stays fixed: {planted}");
    assert_eq!(missed[1], missed[2], "b = c is what b < c loses: {planted}");
    let text = crosscap(&[
        "edge-nim",
        "check",
        "--graph",
        "C4",
        "--max",
        "3",
        "--predicate",
        "0-1 == 2-3 and 1-2 == 0-3",
    ]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.contains("P-positions"), "{}", text.stdout);
    crosscap(&[
        "edge-nim",
        "check",
        "--graph",
        "C4",
        "--max",
        "3",
        "--predicate",
        "q == 1",
    ])
    .assert_user_error("--predicate");
}

/// A predicate nested 10,000 deep is refused in one line (it overflowed the stack), and
/// arithmetic beyond 64 bits is an error (it wrapped: this product was 0 at b = 1).
#[test]
fn check_refuses_deep_predicates_and_overflow() {
    let check = |predicate: &str| {
        crosscap(&[
            "edge-nim",
            "check",
            "--graph",
            "tetrahedron",
            "--max",
            "1",
            "--predicate",
            predicate,
        ])
    };
    let deep = format!("{}a{} == 0", "(".repeat(10_000), ")".repeat(10_000));
    let run = check(&deep);
    run.assert_user_error("--predicate: cannot read the predicate at character 101: parentheses");
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    let run = check("b * 4611686018427387904 * 4 == 0");
    run.assert_user_error(
        "the predicate's arithmetic overflows 64-bit integers at a=0,b=1,c=0,A=0,B=0,C=0",
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

/// A position whose Grundy values pass the tables' limit (1024 on one edge) is refused
/// with that reason, whatever the memory (it said the memory limit ran out, exit 3), and
/// the perfect player's hint there claims no reason it did not find.
#[test]
fn solve_past_the_grundy_value_limit_says_so() {
    for memory in ["512MiB", "3GiB"] {
        crosscap(&[
            "edge-nim",
            "solve",
            "--graph",
            "path:2",
            "--tokens",
            "1024",
            "--max-memory",
            memory,
        ])
        .assert_user_error(
            "the exact analysis cannot answer this position: Grundy values reach 1024 or more, \
             and the tables track values below 1024",
        );
    }
    let v = crosscap(&[
        "--json", "edge-nim", "solve", "--graph", "path:2", "--tokens", "1023",
    ])
    .json();
    assert_eq!(v["value"], 1023, "{v}");
    let hint = crosscap(&[
        "edge-nim",
        "hint",
        "--graph",
        "path:2",
        "--tokens",
        "1024",
        "--level",
        "perfect",
        "--think-ms",
        "50",
    ]);
    assert_eq!(hint.code, 0, "{}", hint.stderr);
    assert!(!hint.stdout.contains("budget"), "{}", hint.stdout);
    assert!(hint.stdout.contains("not proven"), "{}", hint.stdout);
}

/// Misère play: one token on one edge loses for the player to move (who must take it), two
/// tokens win (take one); the answers match the engine's brute force (engine tests).
#[test]
fn value_under_misere_play() {
    let value = |tokens: &str| {
        crosscap(&[
            "--json", "edge-nim", "value", "--graph", "P2", "--tokens", tokens, "--misere",
        ])
        .json()
    };
    let one = value("1");
    assert_eq!(
        (one["rule"].clone(), one["outcome"].clone()),
        (json!("misere"), json!("P"))
    );
    assert_eq!(one["status"], "solved");
    let two = value("2");
    assert_eq!(two["outcome"], "N", "{two}");
    assert_eq!(
        two["winning_moves"].as_array().map(Vec::len),
        Some(1),
        "{two}"
    );
}

#[test]
fn play_against_the_perfect_computer() {
    // A heap of 2 on one edge: we take one, the computer takes the last and wins.
    let run = crosscap_with_input(
        &[
            "edge-nim", "play", "--graph", "P2", "--tokens", "2", "--level", "perfect",
        ],
        "moves\n0:0-1=1\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("legal moves: 0:0-1=0 0:0-1=1"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("O plays 0:0-1=0"), "{}", run.stdout);
    assert!(run.stdout.contains("The computer wins."), "{}", run.stdout);
}

#[test]
fn arena_perfect_beats_random_from_an_n_position() {
    let v = crosscap(&[
        "--json", "edge-nim", "arena", "--graph", "C4", "--tokens", "1,2,0,2", "--a", "perfect",
        "--b", "random", "--games", "10",
    ])
    .json();
    assert_eq!(v["games"], 10);
    assert!(v["a_wins"].as_u64().unwrap() >= 5, "{v}");
}

#[test]
fn bad_graphs_and_tokens_are_user_errors() {
    let value = |graph: &str, tokens: &str| {
        crosscap(&["edge-nim", "value", "--graph", graph, "--tokens", tokens])
    };
    value("cube", "1").assert_user_error("unknown graph spec `cube`");
    value("cycle:2", "1,1").assert_user_error("at least 3");
    value("edges:0-1,1-1", "1,1").assert_user_error("edge `1-1`: a loop");
    value("g6:C", "1").assert_user_error("graph6 `C`");
    value("arcs:0>1", "1").assert_user_error("undirected");
    value("K4", "1,2").assert_user_error("one token count per edge (6), not 2");
    value("tetrahedron", "a=1,q=2").assert_user_error("no edge `q`");
    value("tetrahedron", "a=x").assert_user_error("`x` is not a token count");
    value("K4", "*=100").assert_user_error("too many to tabulate");
    crosscap(&[
        "edge-nim",
        "p-positions",
        "--graph",
        "K4",
        "--max",
        "2",
        "--fix",
        "z=0",
    ])
    .assert_user_error("--fix");
    crosscap(&["edge-nim", "p-positions", "--graph", "K4", "--max", "400"])
        .assert_user_error("positions");
    // Over the setup limits the server has too (119160 moves), refused before any is listed.
    crosscap(&["edge-nim", "play", "--graph", "K4", "--tokens", "*=30"])
        .assert_user_error("the board is too large: 119160 legal moves (at most 5000)");
}

/// `--orbits` counts the tetrahedron's P-positions up to its 24 automorphisms as a brute
/// force does: every permutation of K4's vertices applied to every P-position.
#[test]
fn orbit_counts_match_a_brute_force_over_the_vertex_permutations() {
    let v = crosscap(&[
        "--json",
        "edge-nim",
        "p-positions",
        "--graph",
        "K4",
        "--max",
        "3",
        "--orbits",
    ])
    .json();
    let edges: Vec<(usize, usize)> = v["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|name| {
            let (a, b) = name.as_str().unwrap().split_once('-').unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect();
    let positions: std::collections::BTreeSet<Vec<u64>> =
        serde_json::from_value(v["positions"].clone()).unwrap();
    let mut permutations = Vec::new();
    for a in 0..4usize {
        for b in 0..4 {
            for c in 0..4 {
                let Some(d) = 6usize.checked_sub(a + b + c) else {
                    continue;
                };
                if a != b && a != c && b != c && d < 4 && d != a && d != b && d != c {
                    permutations.push([a, b, c, d]);
                }
            }
        }
    }
    assert_eq!(permutations.len(), 24);
    let mut seen = std::collections::BTreeSet::new();
    let mut by_size = std::collections::BTreeMap::<usize, u64>::new();
    for tokens in &positions {
        if seen.contains(tokens) {
            continue;
        }
        let orbit: std::collections::BTreeSet<Vec<u64>> = permutations
            .iter()
            .map(|p| {
                let mut moved = vec![0; tokens.len()];
                for (e, &(a, b)) in edges.iter().enumerate() {
                    let (x, y) = (p[a].min(p[b]), p[a].max(p[b]));
                    let image = edges.iter().position(|&edge| edge == (x, y)).unwrap();
                    moved[image] = tokens[e];
                }
                moved
            })
            .collect();
        assert!(
            orbit.is_subset(&positions),
            "P-positions are closed under symmetry"
        );
        *by_size.entry(orbit.len()).or_default() += 1;
        seen.extend(orbit);
    }
    let orbits = &v["orbits"];
    assert_eq!(orbits["symmetries"], 24);
    assert_eq!(orbits["orbits"], by_size.values().sum::<u64>());
    let reported: std::collections::BTreeMap<usize, u64> =
        serde_json::from_value(orbits["by_size"].clone()).unwrap();
    assert_eq!(reported, by_size);
    // The tetrahedron spec is the same graph with other edge names.
    let named = crosscap(&[
        "--json",
        "edge-nim",
        "p-positions",
        "--graph",
        "tetrahedron",
        "--max",
        "3",
        "--count",
        "--orbits",
    ])
    .json();
    assert_eq!(named["orbits"], *orbits);
}

/// `slice --json` with the budget flags given.
fn slice(args: &[&str]) -> crate::Run {
    let mut all = vec!["--json", "edge-nim", "slice"];
    all.extend(args);
    crosscap(&all)
}

#[test]
fn a_slice_along_one_edge_shows_its_arithmetic_periodicity() {
    // P4 with its middle edge empty is two Nim heaps: 5 xor x along the last edge, which
    // repeats every 8 values, 8 higher each time.
    let v = slice(&[
        "--graph", "P4", "--fix", "0-1=5", "--free", "2-3", "--max", "40",
    ])
    .json();
    let expected: Vec<u32> = (0..=40).map(|x| x ^ 5).collect();
    assert_eq!(v["grundy"], json!(expected));
    assert_eq!(v["p_positions"], json!([5]));
    assert_eq!(v["held"], json!({"0-1": 5, "1-2": 0}));
    assert_eq!(v["status"], "solved");
    let period = &v["periodicity"];
    assert_eq!(
        (&period["preperiod"], &period["period"], &period["saltus"]),
        (&json!(0), &json!(8), &json!(8))
    );
    // On a star every lower position is a move away: the value is the number of tokens.
    let star = slice(&[
        "--graph", "K1,3", "--fix", "*=2", "--free", "0-3", "--max", "12",
    ])
    .json();
    assert_eq!(star["grundy"], json!((4..=16).collect::<Vec<u32>>()));
    assert_eq!(star["periodicity"]["saltus"], 1);
    let text = crosscap(&[
        "edge-nim", "slice", "--graph", "P4", "--fix", "0-1=5", "--free", "2-3", "--max", "40",
    ]);
    assert!(
        text.stdout
            .contains("periodicity: preperiod 0, period 8, saltus 8: [54761032] +8"),
        "{}",
        text.stdout
    );
}

#[test]
fn a_slice_along_two_edges_of_the_tetrahedron_holds_the_seeds_example() {
    // a = 0, c = 9, A = 6, C = 7; b and B free: the seed's P-position has b = 4, B = 2.
    let args = [
        "--graph",
        "tetrahedron",
        "--fix",
        "c=9,A=6,C=7",
        "--free",
        "b",
        "--free",
        "B",
        "--max",
        "8",
    ];
    let v = slice(&args).json();
    assert_eq!(v["free"], json!(["b", "B"]));
    assert_eq!(v["grundy"].as_array().unwrap().len(), 9);
    assert_eq!(v["grundy"][4][2], 0);
    assert!(v["periodicity"].is_null());
    // Each P-position of the slice is one of the table's, and the other way round.
    let table = crosscap(&[
        "--json",
        "edge-nim",
        "p-positions",
        "--graph",
        "tetrahedron",
        "--max",
        "9",
        "--fix",
        "a=0,c=9,A=6,C=7",
    ])
    .json();
    let in_table: Vec<serde_json::Value> = table["positions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t[1].as_u64() <= Some(8) && t[4].as_u64() <= Some(8))
        .map(|t| json!([t[1], t[4]]))
        .collect();
    assert_eq!(v["p_positions"], json!(in_table));
    let mut csv = vec!["edge-nim", "slice"];
    csv.extend(args);
    csv.extend(["--format", "csv"]);
    let run = crosscap(&csv);
    assert!(
        run.stdout.starts_with("b \\ B,0,1,2,3,4,5,6,7,8\n0,"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_slice_whose_budget_runs_out_keeps_its_first_values() {
    let args = [
        "--graph",
        "tetrahedron",
        "--fix",
        "*=3",
        "--free",
        "C",
        "--max",
        "50",
        "--max-nodes",
        "3000",
    ];
    let v = slice(&args).unknown_json("nodes");
    assert_eq!(v["grundy"], json!([15, 16, 17]));
    let mut text = vec!["edge-nim", "slice"];
    text.extend(args);
    let run = crosscap(&text);
    assert_eq!(run.code, 3);
    assert!(
        run.stdout.contains("stopped early: unknown"),
        "{}",
        run.stdout
    );
}

#[test]
fn bad_slices_are_refused_in_one_line() {
    let refuse = |args: &[&str], needle: &str| slice(args).assert_user_error(needle);
    refuse(
        &[
            "--graph", "C4", "--free", "0-1", "--free", "1-2", "--free", "2-3", "--max", "3",
        ],
        "one or two free edges",
    );
    refuse(
        &["--graph", "C4", "--free", "z", "--max", "3"],
        "there is no edge `z`",
    );
    refuse(
        &["--graph", "C4", "--free", "0-1", "--max", "0"],
        "at least 1",
    );
    refuse(
        &[
            "--graph", "C4", "--free", "0-1", "--free", "0-1", "--max", "3",
        ],
        "distinct",
    );
    refuse(
        &[
            "--graph", "C4", "--free", "0-1", "--free", "1-2", "--max", "1000",
        ],
        "more than the 1000000",
    );
}

/// Two parallel edges 0-1 and 0-1#2, then 1-2: every Edge-Nim command reads the multigraph.
const MULTIGRAPH: &str = "edges:0-1,0-1,1-2";

#[test]
fn every_edge_nim_command_takes_a_multigraph() {
    let value = crosscap(&[
        "--json",
        "edge-nim",
        "value",
        "--graph",
        MULTIGRAPH,
        "--tokens",
        "0-1=2,0-1#2=3",
    ])
    .json();
    assert_eq!(value["edges"], json!(["0-1", "0-1#2", "1-2"]));
    // Both parallel edges lie at both ends: every lower position is a move away.
    assert_eq!(value["grundy"], 5);
    assert_eq!(
        value["winning_moves"],
        json!(["0:0-1=0,0-1#2=0", "1:0-1=0,0-1#2=0"])
    );
    let table = crosscap(&[
        "--json",
        "edge-nim",
        "grundy-table",
        "--graph",
        MULTIGRAPH,
        "--max",
        "2",
    ])
    .json();
    assert_eq!(table["count"], 27);
    let check = crosscap(&[
        "--json",
        "edge-nim",
        "check",
        "--graph",
        MULTIGRAPH,
        "--max",
        "3",
        "--fix",
        "1-2=0",
        "--up-to-symmetry",
        "--predicate",
        "0-1 + 0-1#2 == 0",
    ])
    .json();
    // With 1-2 empty the pair plays as one heap of their total: P when both are empty.
    assert_eq!(check["holds"], true);
    let slice = crosscap(&[
        "--json",
        "edge-nim",
        "slice",
        "--graph",
        MULTIGRAPH,
        "--fix",
        "0-1=1,1-2=2",
        "--free",
        "0-1#2",
        "--max",
        "9",
    ])
    .json();
    assert_eq!(slice["grundy"], json!((3..=12).collect::<Vec<u32>>()));
    assert_eq!(slice["held"], json!({"0-1": 1, "1-2": 2}));
    let solve = crosscap(&[
        "--json", "edge-nim", "solve", "--graph", MULTIGRAPH, "--tokens", "1,1,0",
    ])
    .json();
    assert_eq!(solve["value"], 2);
}

#[test]
fn parallel_edges_swap_as_symmetries_of_the_p_positions() {
    let v = crosscap(&[
        "--json",
        "edge-nim",
        "p-positions",
        "--graph",
        MULTIGRAPH,
        "--max",
        "3",
        "--orbits",
    ])
    .json();
    // The only symmetry besides the identity swaps the parallel edges (vertex 0 and 2 have
    // different degrees).
    assert_eq!(v["orbits"]["symmetries"], 2);
    let positions: Vec<Vec<u64>> = v["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            t.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect()
        })
        .collect();
    let swapped = |t: &Vec<u64>| vec![t[1], t[0], t[2]];
    assert!(positions.iter().all(|t| positions.contains(&swapped(t))));
    // Burnside: orbits = (P-positions + those the swap fixes) / 2.
    let fixed = positions.iter().filter(|t| t[0] == t[1]).count();
    assert_eq!(
        v["orbits"]["orbits"].as_u64().unwrap() as usize,
        (positions.len() + fixed) / 2
    );
}

/// `p-positions --orbits` is one table in every table format (a CSV file holds one): each
/// P-position's orbit (numbered in the order listed) and its size as columns, or, counted,
/// a row per orbit size; the orbits in it agree with the JSON's counts.
#[test]
fn orbits_are_columns_of_the_one_table_in_every_format() {
    let args = [
        "edge-nim",
        "p-positions",
        "--graph",
        "C4",
        "--max",
        "2",
        "--orbits",
    ];
    let p_positions = |extra: &[&str]| crosscap(&[&args[..], extra].concat()).stdout;
    let csv = p_positions(&["--format", "csv"]);
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows[0],
        ["0-1", "1-2", "2-3", "0-3", "orbit", "orbit size"],
        "{csv}"
    );
    assert!(rows.iter().all(|r| r.len() == 6), "{csv}");
    assert_eq!(rows.len(), 1 + 9, "{csv}");
    // 0 1 0 1 and 1 0 1 0 are one orbit (a rotation) of size 2.
    assert_eq!(rows[2], ["0", "1", "0", "1", "2", "2"], "{csv}");
    assert_eq!(rows[4], ["1", "0", "1", "0", "2", "2"], "{csv}");
    let v = crosscap(&[&["--json"][..], &args[..]].concat()).json();
    let orbits: std::collections::BTreeSet<&str> = rows[1..].iter().map(|r| r[4]).collect();
    assert_eq!(Some(orbits.len() as u64), v["orbits"]["orbits"].as_u64());
    let markdown = p_positions(&["--format", "markdown"]);
    let rules = markdown.lines().filter(|l| l.starts_with("| ---")).count();
    assert_eq!(rules, 1, "{markdown}");
    assert!(markdown.starts_with("| 0-1 | 1-2 | 2-3 | 0-3 | orbit | orbit size |"));
    let latex = p_positions(&["--format", "latex"]);
    assert_eq!(latex.matches("\\begin{longtable}").count(), 1, "{latex}");
    let text = p_positions(&[]);
    assert!(text.contains("orbit size"), "{text}");
    assert!(text.contains("6 orbits under 8 automorphisms"), "{text}");
    assert_eq!(
        p_positions(&["--count", "--format", "csv"]),
        "graph,positions,P-positions,orbit size,orbits\ncycle:4,81,9,1,3\ncycle:4,81,9,2,3\n"
    );
}
