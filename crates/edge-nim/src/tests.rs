use std::collections::HashSet;
use std::sync::Arc;

use crosscap_engine::impartial_notation::ImpartialNotation;
use crosscap_engine::{GrundyTable, Impartial, Level, Rng};
use crosscap_graphs::Graph;
use serde_json::json;

use super::*;
use crate::analysis::{symmetries_fixing_a, theorem_says_p};
use crate::circular_nim::CircularNim;
use crate::table::MEMORY_LIMIT;

/// A game started through the catalog's descriptor, as every host starts one.
fn new_match(
    board: &str,
    options: &serde_json::Value,
    limits: &crosscap_engine::session::SetupLimits,
) -> Result<Box<dyn crosscap_engine::session::Match>, crosscap_engine::catalog::SetupError> {
    (DESCRIPTOR.start)(&crosscap_engine::catalog::Setup { board, options }, limits)
}

fn graph(spec: &str) -> Arc<Graph> {
    Arc::new(Graph::from_spec(spec).unwrap())
}

fn position(spec: &str, tokens: &str) -> EdgeNim {
    EdgeNim::parse(graph(spec), tokens).unwrap()
}

fn quiet(_: u64) {}

/// Every token list of a box, in lexicographic order.
fn box_positions(bounds: &[u32]) -> Vec<Vec<u32>> {
    let mut all = vec![vec![]];
    for &b in bounds {
        all = all
            .into_iter()
            .flat_map(|prefix: Vec<u32>| {
                (0..=b).map(move |t| {
                    let mut next = prefix.clone();
                    next.push(t);
                    next
                })
            })
            .collect();
    }
    all
}

/// A random simple graph on up to 5 vertices with at least one edge.
fn random_graph(rng: &mut Rng) -> Arc<Graph> {
    let edges = random_edges(rng, 5);
    graph(&format!("edges:{}", edges.join(",")))
}

/// The edges of a random simple graph on 2 to `most` vertices, at least one, shuffled.
fn random_edges(rng: &mut Rng, most: usize) -> Vec<String> {
    let n = 2 + rng.below(most - 1);
    let mut edges = Vec::new();
    for u in 0..n {
        for v in u + 1..n {
            if rng.below(2) == 0 {
                edges.push(format!("{u}-{v}"));
            }
        }
    }
    if edges.is_empty() {
        edges.push("0-1".to_string());
    }
    rng.shuffle(&mut edges);
    edges
}

#[test]
fn notation_reads_and_writes_the_seed_form() {
    let p = position("tetrahedron", "a=3,b=4,c=1");
    let mv = p.parse_move("1:a=0,b=2").unwrap();
    assert_eq!(mv.vertex, 0);
    assert_eq!(mv.changes, vec![(0, 0), (1, 2)]);
    assert_eq!(p.format_move(&mv), "1:a=0,b=2");
    // Unchanged edges may be written; they are dropped.
    let same = p.parse_move(" 1 : b=2, c=1, a=0 ").unwrap();
    assert_eq!(same, mv);
    assert_eq!(p.after(&mv).tokens(), [0, 2, 1, 0, 0, 0]);
    let bad = [
        ("1", "expected VERTEX:EDGE=COUNT"),
        ("5:a=0", "no vertex `5`"),
        ("1:z=0", "no edge `z`"),
        ("1:A=0", "edge A is not at vertex 1"),
        ("1:a=4", "cannot add"),
        ("1:a=3", "at least one token"),
        ("1:a=1,a=0", "named twice"),
        ("1:a=x", "`x` is not a token count"),
        ("1:a", "`a` is not EDGE=COUNT"),
    ];
    for (text, message) in bad {
        let error = p.parse_move(text).unwrap_err().to_string();
        assert!(error.contains(message), "{text}: {error}");
    }
    let path = position("path:3", "2,1");
    assert_eq!(
        path.format_move(&path.parse_move("1:0-1=0,1-2=0").unwrap()),
        "1:0-1=0,1-2=0"
    );
}

#[test]
fn moves_reach_each_lower_neighbourhood_position_once() {
    let p = position("K1,3", "2,1,3");
    let moves = p.moves();
    // At the hub every lower tuple: 3*2*4 - 1; leaves add nothing new.
    assert_eq!(moves.len(), 23);
    let targets: HashSet<Vec<u32>> = moves.iter().map(|m| p.after(m).tokens().to_vec()).collect();
    assert_eq!(targets.len(), moves.len());
    let t = position("tetrahedron", "1,1,1,1,1,1");
    let targets: Vec<Vec<u32>> = t
        .moves()
        .iter()
        .map(|m| t.after(m).tokens().to_vec())
        .collect();
    let distinct: HashSet<_> = targets.iter().collect();
    // Four vertices with 7 proper subsets each, single edges shared by two vertices.
    assert_eq!((targets.len(), distinct.len()), (4 * 7 - 6, 22));
    for m in t.moves() {
        assert_eq!(t.parse_move(&t.format_move(&m)).unwrap(), m);
    }
}

/// Text echoed in a message is escaped: one line, no terminal escapes.
#[test]
fn messages_escape_the_text_they_echo() {
    let g = graph("tetrahedron");
    let p = position("tetrahedron", "a=3,b=4,c=1");
    let errors = [
        parse_tokens(&g, "a=1,\u{1b}[31mq=2")
            .unwrap_err()
            .to_string(),
        parse_tokens(&g, "a=1,a\u{0}").unwrap_err().to_string(),
        parse_tokens(&g, "a=1\n2,b=2").unwrap_err().to_string(),
        p.parse_move("1\u{1b}:a=0").unwrap_err().to_string(),
        p.parse_move("1:a\u{7}=0").unwrap_err().to_string(),
        p.parse_move("1:a=0\u{1b},b").unwrap_err().to_string(),
    ];
    for error in errors {
        assert!(!error.contains(char::is_control), "{error:?}");
    }
}

#[test]
fn token_lists_by_name_in_order_or_for_every_edge() {
    let g = graph("tetrahedron");
    assert_eq!(parse_tokens(&g, "3,1,0,2,0,1").unwrap(), [3, 1, 0, 2, 0, 1]);
    assert_eq!(parse_tokens(&g, "3 1 0 2 0 1").unwrap(), [3, 1, 0, 2, 0, 1]);
    assert_eq!(parse_tokens(&g, "C=1,a=3").unwrap(), [3, 0, 0, 0, 0, 1]);
    assert_eq!(parse_tokens(&g, "*=2,a=0").unwrap(), [0, 2, 2, 2, 2, 2]);
    assert_eq!(parse_tokens(&g, "2-3=4").unwrap(), [0, 0, 0, 0, 0, 4]);
    let errors = [
        ("3,1", "one token count per edge (6), not 2"),
        ("a=1,q=2", "no edge `q` (the edges are a, b, c, A, B, C)"),
        ("a=1,a=2", "edge `a` is given twice"),
        ("a=-1", "`-1` is not a token count"),
        ("a=1,b", "`b` is not EDGE=COUNT"),
        ("1,2,3,4,5,x", "`x` is not a token count"),
        ("-1", "`-1` is not a token count"),
        ("1,x", "`x` is not a token count"),
        ("a=1,*=2", "`*=COUNT` sets every edge, so it comes first"),
    ];
    for (text, message) in errors {
        let error = parse_tokens(&g, text).unwrap_err().to_string();
        assert!(error.contains(message), "{text}: {error}");
    }
    let directed = Arc::new(Graph::from_spec("arcs:0>1").unwrap());
    assert!(matches!(
        EdgeNim::new(directed, vec![1]),
        Err(EdgeNimError::Directed(_))
    ));
}

#[test]
fn disjoint_unions_add_by_nim_sum() {
    let mut rng = Rng::new(7);
    for _ in 0..30 {
        let tokens: Vec<u32> = (0..5).map(|_| rng.below(4) as u32).collect();
        // A triangle and a path, side by side.
        let union = EdgeNim::new(graph("edges:0-1,1-2,0-2,3-4,4-5"), tokens.clone()).unwrap();
        let triangle = EdgeNim::new(graph("C3"), tokens[..3].to_vec()).unwrap();
        let path = EdgeNim::new(graph("P3"), tokens[3..].to_vec()).unwrap();
        let mut table = GrundyTable::new();
        let separate = table.grundy(&triangle) ^ GrundyTable::new().grundy(&path);
        assert_eq!(GrundyTable::new().grundy(&union), separate);
        assert_eq!(analyse(&union, MEMORY_LIMIT).unwrap().grundy, separate);
        let live = tokens.iter().filter(|&&t| t > 0).count();
        let parts = union.components().len();
        assert!(parts <= 2 && (parts == 1 || live >= 2));
    }
}

#[test]
fn tables_agree_with_brute_force_on_random_graphs() {
    let mut rng = Rng::new(2026);
    for round in 0..60 {
        let g = random_graph(&mut rng);
        let bounds: Vec<u32> = (0..g.edge_count())
            .map(|_| rng.below(if g.edge_count() > 5 { 2 } else { 4 }) as u32)
            .collect();
        let p_table = PTable::compute(&g, &bounds, MEMORY_LIMIT, &quiet).unwrap();
        let values = GrundyValues::compute(&g, &bounds, MEMORY_LIMIT, &quiet).unwrap();
        let mut brute = GrundyTable::new();
        let mut p_count = 0;
        let all = box_positions(&bounds);
        assert_eq!(values.positions(), all.len() as u64);
        for tokens in &all {
            let pos = EdgeNim::new(Arc::clone(&g), tokens.clone()).unwrap();
            let expected = brute.grundy(&pos);
            let context = format!("round {round}, {} tokens {tokens:?}", g.spec());
            assert_eq!(values.value(tokens), Some(expected), "{context}");
            assert_eq!(p_table.is_p(tokens), Some(expected == 0), "{context}");
            p_count += u64::from(expected == 0);
        }
        assert_eq!(p_table.count(), p_count);
        let listed: Vec<Vec<u32>> = p_table.p_positions().collect();
        let expected: Vec<Vec<u32>> = all
            .iter()
            .filter(|t| values.value(t) == Some(0))
            .cloned()
            .collect();
        assert_eq!(listed, expected, "P-positions in lexicographic order");
    }
}

#[test]
fn analysis_agrees_with_brute_force() {
    let mut rng = Rng::new(11);
    for _ in 0..40 {
        let g = random_graph(&mut rng);
        let tokens: Vec<u32> = (0..g.edge_count()).map(|_| rng.below(3) as u32).collect();
        let pos = EdgeNim::new(g, tokens).unwrap();
        let mut brute = GrundyTable::new();
        let analysis = analyse(&pos, MEMORY_LIMIT).unwrap();
        assert_eq!(analysis.grundy, brute.grundy(&pos));
        assert_eq!(analysis.winning_moves, brute.winning_moves(&pos));
        assert_eq!(analysis.winning_moves.is_empty(), analysis.grundy == 0);
    }
}

#[test]
fn star_is_won_in_one_move_and_a_single_edge_is_a_nim_heap() {
    // At a star's hub every non-empty position can be emptied at once.
    let star = PTable::compute(&graph("K1,3"), &[3, 3, 3], MEMORY_LIMIT, &quiet).unwrap();
    assert_eq!(star.count(), 1);
    let edge = GrundyValues::compute(&graph("P2"), &[40], MEMORY_LIMIT, &quiet).unwrap();
    assert!(edge.iter().all(|(tokens, value)| value == tokens[0]));
    assert_eq!(edge.value(&[41]), None);
}

#[test]
fn seed_example_position_is_losing() {
    // a = 0, b + C = B + c = 11 (4 + 7, 2 + 9), A xor b xor B = 6 xor 4 xor 2 = 0, b <= c.
    let g = graph("tetrahedron");
    let symmetries = symmetries_fixing_a(&g);
    assert_eq!(symmetries.len(), 4);
    let tokens = parse_tokens(&g, "a=0,b=4,C=7,B=2,c=9,A=6").unwrap();
    assert!(theorem_says_p(&symmetries, &tokens));
    let table = PTable::compute(&g, &tokens, MEMORY_LIMIT, &quiet).unwrap();
    assert_eq!(table.is_p(&tokens), Some(true));
    let pos = EdgeNim::new(g, tokens).unwrap();
    let analysis = analyse(&pos, MEMORY_LIMIT).unwrap();
    assert_eq!((analysis.grundy, analysis.winning_moves.len()), (0, 0));
}

#[test]
fn tetrahedron_theorem_holds_to_seven_and_needs_b_at_most_c() {
    let check = check_tetrahedron(7, MEMORY_LIMIT, &quiet).unwrap();
    assert_eq!(check.positions, 8u64.pow(5));
    assert_eq!(check.counterexample, None);
    // Condition 2 matters: some positions meet conditions 1 and 3 with b > c, and no
    // symmetric image meets all three; they are N-positions.
    let g = graph("tetrahedron");
    let symmetries = symmetries_fixing_a(&g);
    let table = PTable::compute(&g, &[0, 7, 7, 7, 7, 7], MEMORY_LIMIT, &quiet).unwrap();
    let flipped = box_positions(&[0, 7, 7, 7, 7, 7]).into_iter().find(|t| {
        let [_, b, c, big_a, big_b, big_c] = t[..] else {
            unreachable!()
        };
        b + big_c == big_b + c && b > c && big_a ^ b ^ big_b == 0 && !theorem_says_p(&symmetries, t)
    });
    let flipped = flipped.expect("a position that breaks only condition 2");
    assert_eq!(table.is_p(&flipped), Some(false));
}

/// The seed's theorem at N = 15 (16^5 positions, about 2 s); the benchmark times it.
#[test]
fn tetrahedron_theorem_holds_to_fifteen() {
    let check = check_tetrahedron(15, MEMORY_LIMIT, &quiet).unwrap();
    assert_eq!(check.counterexample, None);
}

#[test]
fn edge_nim_on_c3_and_c4_is_circular_nim() {
    // The seed's equivalence: the same Grundy value in every position of the box, not only
    // the same losing positions.
    for (spec, max) in [("C3", 6u32), ("C4", 4)] {
        let g = graph(spec);
        let bounds = vec![max; g.edge_count()];
        let table = PTable::compute(&g, &bounds, MEMORY_LIMIT, &quiet).unwrap();
        let values = GrundyValues::compute(&g, &bounds, MEMORY_LIMIT, &quiet).unwrap();
        let mut circular = GrundyTable::new();
        for tokens in box_positions(&bounds) {
            let cn = CircularNim {
                stacks: tokens.clone(),
                k: 2,
            };
            let value = circular.grundy(&cn);
            assert_eq!(values.value(&tokens), Some(value), "{spec} {tokens:?}");
            assert_eq!(table.is_p(&tokens), Some(value == 0), "{spec} {tokens:?}");
        }
    }
}

#[test]
fn tables_refuse_what_they_cannot_hold() {
    let k4 = graph("K4");
    let huge = PTable::compute(&k4, &[1000; 6], MEMORY_LIMIT, &quiet).unwrap_err();
    assert!(huge.to_string().contains("too many to tabulate"), "{huge}");
    // Products of user numbers saturate: this box has more than 10^38 positions.
    let overflowing = vec![u32::MAX; 10];
    let error = PTable::compute(&graph("K5"), &overflowing, MEMORY_LIMIT, &quiet).unwrap_err();
    assert!(
        error.to_string().contains("more than 10^38 positions"),
        "{error}"
    );
    let big =
        PTable::compute(&k4, &[250, 250, 250, 250, 250, 0], MEMORY_LIMIT, &quiet).unwrap_err();
    assert!(
        big.to_string().contains("over the limit of 4096 MiB"),
        "{big}"
    );
    let capped = PTable::compute(&k4, &[15; 6], 1 << 20, &quiet).unwrap_err();
    assert!(
        capped.to_string().contains("over the limit of 1 MiB"),
        "{capped}"
    );
    let many_moves = EdgeNim::new(Arc::clone(&k4), vec![300, 300, 300, 0, 0, 0]).unwrap();
    assert!(matches!(
        analyse(&many_moves, MEMORY_LIMIT),
        Err(EdgeNimError::TooManyMoves { .. })
    ));
    assert!(matches!(
        GrundyValues::compute(&k4, &[1, 2], MEMORY_LIMIT, &quiet),
        Err(EdgeNimError::TokenCount { .. })
    ));
}

#[test]
fn a_match_plays_and_the_perfect_computer_wins() {
    let mut m = new_match(
        "tetrahedron",
        &json!({"tokens": "a=0,b=1,c=2,A=3"}),
        &crosscap_engine::session::SetupLimits::default(),
    )
    .unwrap();
    assert_eq!(
        m.view()["edges"][1],
        json!({"name": "b", "ends": ["1", "3"], "tokens": 1})
    );
    assert!(m.play("1:a=0").is_err());
    assert!(m.legal_moves().contains(&"3:b=0,A=0".to_string()));
    let mut rng = Rng::new(5);
    // Perfect play (X) against random replies (O) wins exactly from an N-position.
    while m.outcome().is_none() {
        let reply = m
            .computer_move(
                Level::Perfect,
                rng.next_u64(),
                &crosscap_engine::Budget::unlimited(),
            )
            .unwrap();
        m.play(&reply).unwrap();
        if m.outcome().is_some() {
            break;
        }
        let legal = m.legal_moves();
        let random = legal[rng.below(legal.len())].clone();
        m.play(&random).unwrap();
    }
    let first = analyse(&position("tetrahedron", "a=0,b=1,c=2,A=3"), MEMORY_LIMIT).unwrap();
    let winner = m.outcome().unwrap().winner.unwrap();
    assert_eq!(winner == crosscap_engine::Player::X, first.grundy != 0);
    let defaults = new_match(
        "C4",
        &json!({}),
        &crosscap_engine::session::SetupLimits::default(),
    )
    .unwrap();
    assert_eq!(defaults.view()["tokens"], json!([3, 3, 3, 3]));
    let empty = new_match(
        "C4",
        &json!({"tokens": " "}),
        &crosscap_engine::session::SetupLimits::default(),
    )
    .unwrap();
    assert_eq!(empty.view()["tokens"], json!([3, 3, 3, 3]));
    let array = new_match(
        "P3",
        &json!({"tokens": [1, 2]}),
        &crosscap_engine::session::SetupLimits::default(),
    )
    .unwrap();
    assert_eq!(array.view()["tokens"], json!([1, 2]));
    for (board, options, message) in [
        ("cube", json!({}), "unknown graph spec `cube`"),
        ("C4", json!({"tokens": 3}), "\"tokens\" must be"),
        (
            "C4",
            json!({"tokens": [1, -2, 0, 0]}),
            "`-2` is not a token count",
        ),
        (
            "C4",
            json!({"tokens": "1,2"}),
            "one token count per edge (4), not 2",
        ),
        ("arcs:0>1", json!({}), "undirected"),
        (
            "C4",
            json!({"token": "1"}),
            "edge-nim has no option `token` (the options are tokens, moves)",
        ),
        ("C4", json!(["tokens"]), "must be a JSON object"),
    ] {
        let error = new_match(
            board,
            &options,
            &crosscap_engine::session::SetupLimits::default(),
        )
        .err()
        .unwrap()
        .to_string();
        assert!(error.contains(message), "{board} {options}: {error}");
    }
}

#[test]
fn boards_over_the_limits_are_refused_before_moves_are_listed() {
    // Each used to list every move first and abort the server at about 5.5 GB.
    let limits = crosscap_engine::session::SetupLimits::default();
    for (board, options) in [
        ("star:99999", json!({})),
        ("complete:1414", json!({})),
        ("P2", json!({"tokens": "4294967295"})),
    ] {
        let clock = std::time::Instant::now();
        let error = new_match(board, &options, &limits)
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("the board is too large"), "{board}: {error}");
        assert!(clock.elapsed().as_secs() < 5, "{board}: refused at once");
    }
}

#[test]
fn an_empty_edge_is_as_if_it_were_not_there() {
    // The seed: with a = 0 the tetrahedron plays like K4 without the edge 1-2.
    let tetrahedron = graph("tetrahedron");
    let without_a = graph("edges:0-2,0-3,2-3,1-3,1-2");
    let mut rng = Rng::new(3);
    for _ in 0..30 {
        let rest: Vec<u32> = (0..5).map(|_| rng.below(5) as u32).collect();
        let mut tokens = vec![0];
        tokens.extend(&rest);
        let with = EdgeNim::new(Arc::clone(&tetrahedron), tokens).unwrap();
        let without = EdgeNim::new(Arc::clone(&without_a), rest).unwrap();
        assert_eq!(
            analyse(&with, MEMORY_LIMIT).unwrap().grundy,
            analyse(&without, MEMORY_LIMIT).unwrap().grundy
        );
    }
}

#[test]
fn a_table_box_reads_tables_where_the_fixed_edges_hold() {
    let g = graph("tetrahedron");
    let within = TableBox::new(&g, 2, Some("a=0,C=1")).unwrap();
    assert_eq!(within.bounds(), vec![0, 2, 2, 2, 2, 1]);
    assert_eq!(within.positions(), 3u128.pow(4));
    assert_eq!(within.work(), 3u64.pow(4) * 2);
    assert_eq!(
        within.fixed_names(&g),
        [("C".to_string(), 1), ("a".to_string(), 0)].into()
    );
    let p = PTable::compute(&g, &within.bounds(), MEMORY_LIMIT, &|_| {}).unwrap();
    let listed: Vec<Vec<u32>> = p.p_positions_in(&within).collect();
    assert!(listed.iter().all(|t| t[0] == 0 && t[5] == 1), "{listed:?}");
    assert_eq!(p.count_in(&within), listed.len() as u64);
    let values = GrundyValues::compute(&g, &within.bounds(), MEMORY_LIMIT, &|_| {}).unwrap();
    let histogram = values.histogram_in(&within);
    assert_eq!(
        u128::from(histogram.iter().sum::<u64>()),
        within.positions()
    );
    assert_eq!(
        histogram[0],
        listed.len() as u64,
        "P-positions have value 0"
    );
    assert_eq!(
        TableBox::new(&g, 2, Some("*=0")).unwrap_err(),
        EdgeNimError::FixEveryEdge
    );
    assert!(TableBox::new(&g, 2, Some("z=0")).is_err());
}

/// A random multigraph on 2 to 4 vertices: a random simple graph with one to three of its
/// edges repeated.
fn random_multigraph(rng: &mut Rng) -> Arc<Graph> {
    let mut edges = random_edges(rng, 4);
    for _ in 0..1 + rng.below(3) {
        let again = edges[rng.below(edges.len())].clone();
        edges.push(again);
    }
    rng.shuffle(&mut edges);
    Arc::new(read_graph(&format!("edges:{}", edges.join(","))).unwrap())
}

/// Grundy values straight from the rules, independent of the crate's move lists: a move
/// picks a vertex and lowers its edges to any counts at most theirs, at least one lower.
fn rules_grundy(
    g: &Graph,
    tokens: &[u32],
    memo: &mut std::collections::HashMap<Vec<u32>, u32>,
) -> u32 {
    if let Some(&value) = memo.get(tokens) {
        return value;
    }
    let mut options = HashSet::new();
    for v in 0..g.vertex_count() {
        let edges = g.incident_edges(v);
        for lower in box_positions(&edges.iter().map(|&e| tokens[e]).collect::<Vec<_>>()) {
            let mut next = tokens.to_vec();
            for (&e, &t) in edges.iter().zip(&lower) {
                next[e] = t;
            }
            if next != tokens {
                options.insert(rules_grundy(g, &next, memo));
            }
        }
    }
    let value = (0..).find(|x| !options.contains(x)).unwrap();
    memo.insert(tokens.to_vec(), value);
    value
}

#[test]
fn multigraph_tables_moves_and_analysis_agree_with_the_rules() {
    let mut rng = Rng::new(22);
    for round in 0..30 {
        let g = random_multigraph(&mut rng);
        let bounds: Vec<u32> = (0..g.edge_count())
            .map(|_| rng.below(if g.edge_count() > 4 { 2 } else { 3 }) as u32)
            .collect();
        let values = GrundyValues::compute(&g, &bounds, MEMORY_LIMIT, &quiet).unwrap();
        let p_table = PTable::compute(&g, &bounds, MEMORY_LIMIT, &quiet).unwrap();
        let mut memo = std::collections::HashMap::new();
        let mut brute = GrundyTable::new();
        for tokens in box_positions(&bounds) {
            let expected = rules_grundy(&g, &tokens, &mut memo);
            let context = format!("round {round}, {} tokens {tokens:?}", g.spec());
            assert_eq!(values.value(&tokens), Some(expected), "{context}");
            assert_eq!(p_table.is_p(&tokens), Some(expected == 0), "{context}");
            let pos = EdgeNim::new(Arc::clone(&g), tokens.clone()).unwrap();
            assert_eq!(brute.grundy(&pos), expected, "{context}");
        }
        let tokens: Vec<u32> = bounds.iter().map(|&b| b + 1).collect();
        let pos = EdgeNim::new(Arc::clone(&g), tokens.clone()).unwrap();
        let analysis = analyse(&pos, MEMORY_LIMIT).unwrap();
        assert_eq!(analysis.grundy, rules_grundy(&g, &tokens, &mut memo));
        assert_eq!(analysis.winning_moves, brute.winning_moves(&pos));
    }
}

#[test]
fn parallel_edges_have_names_of_their_own_and_swap_as_symmetries() {
    let g = read_graph("edges:0-1,0-1,1-2").unwrap();
    assert_eq!(edge_names(&g), ["0-1", "0-1#2", "1-2"]);
    assert_eq!(parse_tokens(&g, "0-1#2=4,1-0=1").unwrap(), [1, 4, 0]);
    assert_eq!(
        predicate::symmetries_fixing(&g, &[]).unwrap(),
        [vec![0, 1, 2], vec![1, 0, 2]]
    );
    assert_eq!(
        predicate::symmetries_fixing(&g, &[(1, 0)]).unwrap(),
        [vec![0, 1, 2]]
    );
    assert!(matches!(
        read_graph("edges:0-1,1-1"),
        Err(EdgeNimError::Graph(_))
    ));
    assert!(matches!(
        read_graph("arcs:0>1"),
        Err(EdgeNimError::Directed(_))
    ));
    // C4 with multiplicities 2 1 2 1 around: of the square's 8 symmetries the 4 that keep
    // multiplicities, each with the 2 x 2 orders of the parallel pairs.
    let square = Arc::new(read_graph("edges:0-1,0-1,1-2,2-3,2-3,3-0").unwrap());
    let maps = predicate::symmetries_fixing(&square, &[]).unwrap();
    assert_eq!(maps.len(), 16);
    assert_eq!(maps[0], (0..6).collect::<Vec<_>>());
    let values = GrundyValues::compute(&square, &[1; 6], MEMORY_LIMIT, &quiet).unwrap();
    for (tokens, value) in values.iter() {
        for map in &maps {
            let mut image = vec![0; 6];
            orbits::image_into(map, &tokens, &mut image);
            assert_eq!(values.value(&image), Some(value), "{map:?} {tokens:?}");
        }
    }
}

/// The perfect player says why its move is not proven: the tables would not fit the
/// budget's memory, or the position is past their limits, which no budget reaches.
#[test]
fn the_perfect_player_says_why_the_tables_gave_no_answer() {
    use crosscap_engine::agents::Unproven;
    use crosscap_engine::{Budget, Exhausted};
    let game = |spec: &str, tokens: &str| EdgeNimGame::new(position(spec, tokens));
    let reason = |game: &EdgeNimGame, budget: &Budget| {
        let mut perfect = agent(Level::Perfect, 1);
        assert!(perfect.choose(game, budget).is_some());
        perfect.unproven()
    };
    let small = game("P2", "5");
    assert_eq!(reason(&small, &Budget::unlimited()), None);
    let no_memory = Budget {
        max_memory: Some(0),
        ..Budget::unlimited()
    };
    assert_eq!(
        reason(&small, &no_memory),
        Some(Unproven::Stopped(Exhausted::Memory))
    );
    let past_the_tables = game("P2", "1024");
    assert_eq!(
        reason(&past_the_tables, &Budget::unlimited()),
        Some(Unproven::Stopped(Exhausted::Beyond))
    );
}
