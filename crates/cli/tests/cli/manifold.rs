use crate::{crosscap, crosscap_with_input};

#[test]
fn value_of_a_two_manifold_with_its_winning_moves() {
    let v = crosscap(&["--json", "manifold", "value", "n3", "o2", "n5"]).json();
    assert_eq!(v["position"], "o2 n3 n5");
    assert_eq!(v["grundy"], 6);
    assert_eq!(v["outcome"], "N");
    assert_eq!(
        v["winning_moves"],
        serde_json::json!(["c:n3->n2", "c:n5->n4", "g:n5->n2+n3"])
    );
    assert_eq!(
        v["surfaces"][1],
        serde_json::json!({"surface": "n3", "grundy": 4})
    );
    assert!(v.get("moves").is_none());
}

/// The usual names and connected sums read as the paper's surfaces: `T#P` is `n3`
/// (Theorem 1.2), `K` is `n2`.
#[test]
fn value_reads_usual_names_and_connected_sums() {
    let usual = crosscap(&["--json", "manifold", "value", "T#P", "T#T", "K+RP2"]).json();
    let paper = crosscap(&["--json", "manifold", "value", "n3", "o2", "n2", "n1"]).json();
    assert_eq!(usual["position"], "o2 n1 n2 n3");
    assert_eq!(usual["position"], paper["position"]);
    assert_eq!(usual["grundy"], paper["grundy"]);
    assert_eq!(usual["winning_moves"], paper["winning_moves"]);
}

#[test]
fn value_lists_every_move_in_words() {
    let v = crosscap(&["--json", "manifold", "value", "n2", "--all"]).json();
    let moves = v["moves"].as_array().unwrap();
    let names: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(names, ["c:n2->n1", "e:n2->S", "f:n2->S", "g:n2->n1+n1"]);
    assert_eq!(moves[3]["to"], "n1 n1");
    assert_eq!(moves[3]["grundy"], 0);
    assert!(
        moves[1]["curve"]
            .as_str()
            .unwrap()
            .contains("two crosscaps")
    );
    assert!(
        moves[1]["curve"]
            .as_str()
            .unwrap()
            .ends_with("a sphere is left")
    );
    let text = crosscap(&["manifold", "value", "o2", "o2"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout.contains("Grundy value 0 (P-position)"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("winning moves: none"),
        "{}",
        text.stdout
    );
}

#[test]
fn value_reaches_large_genus() {
    let v = crosscap(&["--json", "manifold", "value", "n1000000", "o999999"]).json();
    // n(10^6): 10^6 is 0 mod 4, like n4 and n8: 6; o(999999) has odd genus: 0.
    assert_eq!(v["grundy"], 6);
}

#[test]
fn table_2_1_as_json_text_and_markdown() {
    let v = crosscap(&["--json", "manifold", "table", "--max-genus", "14"]).json();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 15);
    assert_eq!(
        rows[1]["moves"],
        serde_json::json!([{"move": "c,d", "to": "S", "grundy": 0}])
    );
    assert_eq!(
        rows[5]["moves"][0],
        serde_json::json!({"move": "c", "to": "n4", "grundy": 6})
    );
    assert_eq!(rows[9]["moves"].as_array().unwrap().len(), 11);
    assert_eq!(
        rows[9]["moves"][10],
        serde_json::json!({"move": "h", "to": "o4+n1", "grundy": 3})
    );
    let g: Vec<u64> = rows
        .iter()
        .map(|r| r["nonorientable"].as_u64().unwrap())
        .collect();
    assert_eq!(g, [0, 1, 2, 4, 6, 0, 3, 4, 6, 0, 3, 4, 6, 0, 3]);
    assert_eq!(rows[4]["orientable"], 2);

    let text = crosscap(&["manifold", "table", "--max-genus", "3"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout
            .contains("c: n2, 2; e: n1, 1; d: o1, 1; g: (n1, n2), 3; h: (o1, n1), 0"),
        "{}",
        text.stdout
    );
    let md = crosscap(&[
        "manifold",
        "table",
        "--max-genus",
        "2",
        "--format",
        "markdown",
    ]);
    assert_eq!(
        md.stdout,
        "| g | G(o_g) | moves from n_g and G-values | G(n_g) |\n\
         | --- | --- | --- | --- |\n\
         | 0 | 0 | none | 0 |\n\
         | 1 | 1 | c,d: S, 0 | 1 |\n\
         | 2 | 2 | c: n1, 1; e,f: S, 0; g: (n1, n1), 0 | 2 |\n"
    );
    let latex = crosscap(&["manifold", "table", "--max-genus", "1", "--format", "latex"]);
    assert!(
        latex
            .stdout
            .contains("$1$ & $1$ & $c$,$d$: $S$, $0$ & $1$ \\\\"),
        "{}",
        latex.stdout
    );
}

#[test]
fn series_shows_the_papers_periods() {
    let v = crosscap(&[
        "--json",
        "manifold",
        "series",
        "--max-genus",
        "1000000",
        "--show",
        "8",
    ])
    .json();
    assert_eq!(v["max_genus"], 1_000_000);
    assert_eq!(
        v["orientable"]["values"],
        serde_json::json!([0, 1, 2, 0, 2, 0, 2, 0])
    );
    assert_eq!(v["orientable"]["periodicity"]["preperiod"], 2);
    assert_eq!(
        v["orientable"]["periodicity"]["repeating"],
        serde_json::json!([2, 0])
    );
    assert_eq!(
        v["nonorientable"]["values"],
        serde_json::json!([0, 1, 2, 4, 6, 0, 3, 4])
    );
    assert_eq!(
        v["nonorientable"]["periodicity"]["pre"],
        serde_json::json!([0, 1, 2])
    );
    assert_eq!(
        v["nonorientable"]["periodicity"]["repeating"],
        serde_json::json!([4, 6, 0, 3])
    );
    assert_eq!(v["orientable"]["proven"], true);
    assert_eq!(v["nonorientable"]["proven"], true);
    let short = crosscap(&["--json", "manifold", "series", "--max-genus", "13"]).json();
    // Three periods of n are seen only from genus 14 on, which also proves the period.
    assert_eq!(
        short["nonorientable"]["periodicity"],
        serde_json::Value::Null
    );
    assert_eq!(short["nonorientable"]["proven"], false);
    let text = crosscap(&["manifold", "series", "--max-genus", "100"]);
    assert!(
        text.stdout
            .contains("preperiod 3, period 4: 012[4603] (proved for every genus)"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("preperiod 2, period 2: 01[20]"),
        "{}",
        text.stdout
    );
    // For a paper or a plot: a row per genus.
    let csv = crosscap(&[
        "manifold",
        "series",
        "--max-genus",
        "100",
        "--show",
        "5",
        "--format",
        "csv",
    ]);
    assert_eq!(
        csv.stdout,
        "g,G(o_g),G(n_g)\n0,0,0\n1,1,1\n2,2,2\n3,0,4\n4,2,6\n"
    );
    let latex = crosscap(&["manifold", "series", "--show", "4", "--format", "latex"]);
    assert!(
        latex.stdout.contains("$3$ & $0$ & $4$ \\\\"),
        "{}",
        latex.stdout
    );
}

#[test]
fn bad_input_is_a_user_error() {
    crosscap(&["manifold", "value", "n3", "t2"]).assert_user_error("bad surface \"t2\"");
    crosscap(&["manifold", "value", "nx"]).assert_user_error("whole number");
    crosscap(&["manifold", "value", "T#Q"]).assert_user_error("a connected sum such as T#P");
    crosscap(&["manifold", "value", "n99999999999"]).assert_user_error("at most 10000000");
    crosscap(&["manifold", "value", ","]).assert_user_error("empty position");
    crosscap(&["manifold", "table", "--max-genus", "5000"]).assert_user_error("too large");
    crosscap(&["manifold", "series", "--max-genus", "20000000"]).assert_user_error("too large");
    crosscap(&["manifold", "play", "n2000"]).assert_user_error("too large");
    crosscap(&["manifold", "arena", "n4", "--a", "godlike"]).assert_user_error("godlike");
}

#[test]
fn play_against_the_perfect_computer_from_a_script() {
    // o2 o2 is a P-position: whatever we play, the perfect computer wins. Our moves are
    // refused or accepted as typed; the rest of the script is never read once we lose.
    let run = crosscap_with_input(
        &["manifold", "play", "o2", "o2", "--level", "perfect"],
        "bogus\nc:o2->o1\nmoves\na:o2->o1\na:o2->o1\no1->S\na:o1->S\na:o1->S\na:o1->S\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("cannot read move"), "{}", run.stdout);
    assert!(
        run.stdout.contains("(c) does not decompose o2"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("legal moves: a:o2->o1 b:o2->o1+o1"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("The computer wins."), "{}", run.stdout);
}

#[test]
fn arena_perfect_against_random() {
    let v = crosscap(&[
        "--json", "manifold", "arena", "n6", "o3", "--a", "perfect", "--b", "random", "--games",
        "20", "--seed", "3",
    ])
    .json();
    assert_eq!(v["games"], 20);
    assert!(v["a_wins"].as_u64().unwrap() >= 10, "{v}");
}

/// The longest play from o_g or n_g is 2g - 1 moves (the seed's Corollary 2.2 says 2g), the
/// shortest and the remoteness come with it, and a budget that runs out still prints the
/// lengths with exit 3.
#[test]
fn length_answers_corollary_2_2() {
    for surface in ["o3", "n3"] {
        let v = crosscap(&["--json", "manifold", "length", surface]).json();
        assert_eq!(v["longest"], 5, "{surface}: {v}");
        assert_eq!(v["status"], "solved", "{v}");
        assert!(v["remoteness"].as_u64() <= Some(5), "{v}");
        assert!(v["shortest"].as_u64() <= v["remoteness"].as_u64(), "{v}");
    }
    let both = crosscap(&["--json", "manifold", "length", "o3", "n3"]).json();
    assert_eq!(both["longest"], 10, "lengths add up over surfaces: {both}");
    let cut = crosscap(&[
        "--json",
        "manifold",
        "length",
        "n40",
        "o30",
        "--max-nodes",
        "10",
    ]);
    let v = cut.unknown_json("nodes");
    assert_eq!(v["longest"], 79 + 59, "{v}");
    let text = crosscap(&["manifold", "length", "n5"]);
    assert!(
        text.stdout.contains("the longest play lasts 9 moves"),
        "{}",
        text.stdout
    );
    crosscap(&["manifold", "length", "n2001"]).assert_user_error("too large");
}

#[test]
fn value_under_misere_play() {
    let v = crosscap(&["--json", "manifold", "value", "n2", "--misere"]).json();
    assert_eq!(v["rule"], "misere");
    assert!(v["outcome"] == "P" || v["outcome"] == "N", "{v}");
    assert_eq!(v["status"], "solved");
}

/// The misère search takes the usual budget flags (its message names them): a large
/// position stops at --max-seconds, a small budget of nodes at --max-nodes.
#[test]
fn misere_value_takes_the_budget_flags() {
    let slow = [
        "manifold",
        "value",
        "n40",
        "o30",
        "n20",
        "--misere",
        "--max-seconds",
        "0.2",
    ];
    crosscap(&[&["--json"], &slow[..]].concat()).unknown_json("time");
    let text = crosscap(&slow);
    assert_eq!(text.code, 3, "{}", text.stderr);
    assert!(
        text.stdout
            .contains("the time limit ran out (--max-seconds)"),
        "{}",
        text.stdout
    );
    let run = crosscap(&[
        "--json",
        "edge-nim",
        "value",
        "--graph",
        "K4",
        "--tokens",
        "*=9",
        "--misere",
        "--max-nodes",
        "100",
    ]);
    assert!(run.unknown_json("nodes")["nodes"].as_u64() <= Some(110));
}
