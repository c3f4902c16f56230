use super::*;

fn graph(spec: &str) -> Graph {
    Graph::from_spec(spec).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn edge_names(g: &Graph) -> Vec<String> {
    (0..g.edge_count()).map(|e| g.edge_name(e)).collect()
}

fn factorial(n: usize) -> usize {
    (1..=n).product()
}

#[test]
fn families_have_the_documented_sizes() {
    let cases = [
        ("path:5", 5, 4),
        ("cycle:6", 6, 6),
        ("complete:5", 5, 10),
        ("star:4", 5, 4),
        ("bipartite:2,3", 5, 6),
        ("grid:3x4", 12, 17),
        ("wheel:5", 6, 10),
        ("petersen", 10, 15),
        ("tetrahedron", 4, 6),
        ("P5", 5, 4),
        ("C4", 4, 4),
        ("K4", 4, 6),
        ("K1,3", 4, 3),
        ("K2,3", 5, 6),
        ("edges:0-1,1-2,2-0", 3, 3),
        ("arcs:0>1,1>0,1>2", 3, 3),
        ("grid:100x100", 10_000, 19_800),
        ("path:1", 1, 0),
    ];
    for (spec, vertices, edges) in cases {
        let g = graph(spec);
        assert_eq!(
            (g.vertex_count(), g.edge_count()),
            (vertices, edges),
            "{spec}"
        );
    }
}

#[test]
fn edge_orders_are_as_documented() {
    assert_eq!(edge_names(&graph("path:4")), ["0-1", "1-2", "2-3"]);
    assert_eq!(edge_names(&graph("cycle:4")), ["0-1", "1-2", "2-3", "0-3"]);
    assert_eq!(
        edge_names(&graph("complete:4")),
        ["0-1", "0-2", "0-3", "1-2", "1-3", "2-3"]
    );
    assert_eq!(edge_names(&graph("star:3")), ["0-1", "0-2", "0-3"]);
    assert_eq!(
        edge_names(&graph("bipartite:2,2")),
        ["0-2", "0-3", "1-2", "1-3"]
    );
    assert_eq!(
        edge_names(&graph("grid:2x3")),
        ["0-1", "0-3", "1-2", "1-4", "2-5", "3-4", "4-5"]
    );
    assert_eq!(
        edge_names(&graph("wheel:4")),
        ["0-1", "0-2", "0-3", "0-4", "1-2", "2-3", "3-4", "1-4"]
    );
    assert_eq!(edge_names(&graph("edges:2-0,0-1")), ["2-0", "0-1"]);
    assert_eq!(edge_names(&graph("arcs:1>0,0>1")), ["1>0", "0>1"]);
}

#[test]
fn tetrahedron_names_follow_the_seed() {
    let t = graph("tetrahedron");
    assert_eq!(edge_names(&t), ["a", "b", "c", "A", "B", "C"]);
    let endpoints: Vec<String> = (0..6)
        .map(|e| {
            let (u, v) = t.edge(e);
            format!("{}-{}", t.vertex_name(u), t.vertex_name(v))
        })
        .collect();
    assert_eq!(endpoints, ["1-2", "1-3", "1-4", "3-4", "2-4", "2-3"]);
    // Each capital letter is the edge opposite its small letter: no common vertex.
    for (small, capital) in [("a", "A"), ("b", "B"), ("c", "C")] {
        let (s, c) = (
            t.edge(t.edge_index(small).unwrap()),
            t.edge(t.edge_index(capital).unwrap()),
        );
        assert!(s.0 != c.0 && s.0 != c.1 && s.1 != c.0 && s.1 != c.1);
    }
    assert_eq!(t.vertex_index("1"), Some(0));
    assert_eq!(t.vertex_index("0"), None);
    assert_eq!(t.edge_index("4-3"), t.edge_index("A"));
    assert_eq!(t.spec(), "tetrahedron");
}

#[test]
fn short_forms_expand_to_canonical_specs() {
    for (short, canonical) in [
        ("P5", "path:5"),
        ("C4", "cycle:4"),
        ("K4", "complete:4"),
        ("K1,3", "star:3"),
        ("K2,3", "bipartite:2,3"),
        (" Grid:2X3 ", "grid:2x3"),
    ] {
        assert_eq!(graph(short).spec(), canonical);
        assert_eq!(graph(short), graph(canonical));
    }
    assert_eq!(graph("K1,3").edges(), graph("bipartite:1,3").edges());
}

#[test]
fn adjacency_queries() {
    let g = graph("wheel:4");
    assert_eq!(g.neighbors(0), [1, 2, 3, 4]);
    assert_eq!(g.neighbors(2), [0, 1, 3]);
    assert_eq!(g.incident_edges(2), [1, 4, 5]);
    assert_eq!(g.degree(0), 4);
    assert_eq!(g.in_neighbors(2), g.neighbors(2));
    assert_eq!(g.edge_index("2-1"), Some(4));
    assert_eq!(g.edge_index("1-3"), None);
    assert_eq!(g.edge_index("1-9"), None);
    let d = graph("arcs:0>1,2>1,1>2");
    assert!(d.is_directed());
    assert_eq!(d.neighbors(1), [2]);
    assert_eq!(d.in_neighbors(1), [0, 2]);
    assert_eq!(d.incident_edges(1), [2]);
    assert_eq!(d.edge_index("2>1"), Some(1));
    assert_eq!(d.edge_index("1>0"), None);
    assert_eq!(d.edge_name(0), "0>1");
}

#[test]
fn components_and_edge_components() {
    let g = graph("edges:0-1,2-3,3-4,5-6");
    assert_eq!(g.components(), vec![vec![0, 1], vec![2, 3, 4], vec![5, 6]]);
    assert!(!g.is_connected());
    assert!(graph("petersen").is_connected());
    assert!(graph("arcs:0>1,2>1").is_connected());
    let t = graph("tetrahedron");
    // Edges a (1-2) and A (3-4) share no vertex; adding C (2-3) joins them.
    let (a, capital_a, capital_c) = (0, 3, 5);
    assert_eq!(
        t.edge_components(&[capital_a, a]),
        vec![vec![a], vec![capital_a]]
    );
    assert_eq!(
        t.edge_components(&[a, capital_a, capital_c]),
        vec![vec![a, capital_a, capital_c]]
    );
    assert!(t.edge_components(&[]).is_empty());
}

#[test]
fn automorphism_counts() {
    let cases = [
        ("path:5", 2),
        ("cycle:6", 12),
        ("complete:5", 120),
        ("star:4", 24),
        ("bipartite:2,3", 12),
        ("grid:3x4", 4),
        ("grid:3x3", 8),
        ("wheel:5", 10),
        ("petersen", 120),
        ("tetrahedron", 24),
        ("edges:0-1,2-3", 8),
        ("arcs:0>1,1>2,2>0", 3),
        ("arcs:0>1,1>2", 1),
        ("grid:30x30", 8),
    ];
    for (spec, count) in cases {
        let g = graph(spec);
        let autos = g.automorphisms();
        assert_eq!(autos.len(), count, "{spec}");
        assert_eq!(autos[0], (0..g.vertex_count()).collect::<Vec<_>>());
        for p in &autos {
            for &(u, v) in g.edges() {
                assert!(g.has_edge(p[u], p[v]), "{spec}: {p:?}");
            }
        }
    }
    assert_eq!(graph("complete:9").automorphisms().len(), MAX_AUTOMORPHISMS);
    assert!(factorial(9) > MAX_AUTOMORPHISMS);
}

#[test]
fn graph6_known_strings() {
    // Values from nauty's documentation and `geng`.
    assert_eq!(graph("path:2").to_graph6().unwrap(), "A_");
    assert_eq!(graph("complete:4").to_graph6().unwrap(), "C~");
    assert_eq!(graph("petersen").to_graph6().unwrap().len(), 9);
    let g = Graph::from_graph6("Dhc").unwrap();
    assert_eq!(g.vertex_count(), 5);
    assert_eq!(edge_names(&g), ["0-1", "0-4", "1-2", "2-3", "3-4"]);
    assert_eq!(g.spec(), "g6:Dhc");
    assert_eq!(Graph::from_graph6(">>graph6<<C~").unwrap(), graph("g6:C~"));
    assert_eq!(graph("g6:?").vertex_count(), 0);
    assert!(graph("arcs:0>1").to_graph6().is_none());
}

#[test]
fn graph6_round_trips_every_family() {
    for spec in [
        "path:7",
        "cycle:9",
        "complete:12",
        "star:70",
        "bipartite:3,4",
        "grid:9x9",
        "wheel:8",
        "petersen",
        "tetrahedron",
        "edges:0-5,3-1",
        "path:300",
    ] {
        let g = graph(spec);
        let text = g.to_graph6().unwrap();
        let back = Graph::from_graph6(&text).unwrap();
        assert_eq!(back.vertex_count(), g.vertex_count(), "{spec}");
        let mut original: Vec<_> = g
            .edges()
            .iter()
            .map(|&(u, v)| (u.min(v), u.max(v)))
            .collect();
        original.sort_unstable();
        assert_eq!(back.edges(), original, "{spec}");
        assert_eq!(back.to_graph6().unwrap(), text, "{spec}");
    }
}

#[test]
fn graph6_lines_from_a_reader() {
    let input = ">>graph6<<Bw\n\nC~\r\nDhc\n";
    let graphs: Vec<Graph> = read_graph6_lines(input.as_bytes())
        .collect::<Result<_, _>>()
        .unwrap();
    let sizes: Vec<_> = graphs
        .iter()
        .map(|g| (g.vertex_count(), g.edge_count()))
        .collect();
    assert_eq!(sizes, [(3, 3), (4, 6), (5, 5)]);
    let results: Vec<_> = read_graph6_lines("C~\nC!\n".as_bytes()).collect();
    let error = results[1].as_ref().unwrap_err();
    assert!(matches!(error, GraphError::AtLine { line: 2, .. }));
    assert!(
        error.to_string().starts_with("line 2: graph6 `C!`"),
        "{error}"
    );
    // The cause is in the message, not a source too: a chain printer shows it once.
    assert!(std::error::Error::source(error).is_none());
}

#[test]
fn bad_specs_name_the_bad_part() {
    let cases = [
        ("hypercube:3", "unknown graph spec `hypercube:3`"),
        ("path:x", "`x` is not a number"),
        ("path:0", "at least 1"),
        (
            "cycle:2",
            "a cycle's vertex count must be at least 3, not 2",
        ),
        ("wheel:2", "at least 3"),
        ("bipartite:3", "expected two numbers separated by `,`"),
        ("grid:3by4", "expected two numbers separated by `x`"),
        ("grid:0x4", "at least 1"),
        ("K", "unknown graph spec `K`"),
        ("Q5", "unknown graph spec `Q5`"),
        ("Kx", "unknown graph spec `Kx`"),
        ("", "unknown graph spec ``"),
        ("edges:0-1,1-1", "edge `1-1`: a loop"),
        ("edges:0-1,1-0", "edge `1-0`: repeats an earlier edge"),
        (
            "edges:0-1,1+2",
            "edge `1+2`: expected two vertex numbers joined by `-`",
        ),
        (
            "arcs:0-1",
            "edge `0-1`: expected two vertex numbers joined by `>`",
        ),
        ("arcs:0>1,0>1", "repeats an earlier edge"),
        ("complete:2000", "too large (2000 vertices, 1999000 edges"),
        ("path:100001", "too large"),
        ("grid:1000x1000", "too large"),
        ("edges:0-100000", "too large"),
        ("arcs:18446744073709551615>1", "too large"),
        ("path:99999999999999999999999", "is not a number"),
        ("g6:C", "4 vertices need 1 bytes of edge data, found 0"),
        ("g6:C~~", "found 2"),
        ("g6:Bx", "padding bits"),
        ("g6::Fa@x^", "sparse6"),
        ("g6:&Bx", "digraph6"),
        ("g6:", "empty"),
        ("g6:C é", "outside graph6's range"),
        ("g6:~", "cut short"),
    ];
    for (spec, message) in cases {
        let error = Graph::from_spec(spec).expect_err(spec).to_string();
        assert!(error.contains(message), "{spec}: {error}");
    }
}

/// Input echoed in a message is escaped, so that a message is one line and a terminal
/// escape in a spec does not reach the terminal.
#[test]
fn messages_escape_the_input_they_echo() {
    for (spec, echoed) in [
        ("C4\u{1b}[31m", "`C4\\u{1b}[31m`"),
        ("path:5\n0", "`5\\n0` is not a number"),
        ("edges:0-1,1\u{0}-2", "edge `1\\0-2`"),
        ("g6:B\tw", "graph6 `B\\tw`"),
    ] {
        let error = Graph::from_spec(spec).expect_err(spec).to_string();
        assert!(error.contains(echoed), "{spec:?}: {error}");
        assert!(!error.contains(char::is_control), "{spec:?}: {error}");
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// An edge list on up to 8 vertices, as `edges:` text (duplicates and loops dropped).
    fn edge_list() -> impl Strategy<Value = String> {
        prop::collection::vec((0usize..8, 0usize..8), 1..16).prop_map(|pairs| {
            let mut seen = std::collections::HashSet::new();
            let mut items: Vec<String> = pairs
                .into_iter()
                .filter(|&(u, v)| u != v && seen.insert((u.min(v), u.max(v))))
                .map(|(u, v)| format!("{u}-{v}"))
                .collect();
            if items.is_empty() {
                items.push("0-1".to_string());
            }
            format!("edges:{}", items.join(","))
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 200,
            rng_seed: proptest::test_runner::RngSeed::Fixed(6),
            ..ProptestConfig::default()
        })]

        #[test]
        fn graph6_round_trips_and_automorphisms_keep_edges(spec in edge_list()) {
            let g = Graph::from_spec(&spec).unwrap();
            let back = Graph::from_graph6(&g.to_graph6().unwrap()).unwrap();
            prop_assert_eq!(back.vertex_count(), g.vertex_count());
            prop_assert_eq!(back.edge_count(), g.edge_count());
            for &(u, v) in g.edges() {
                prop_assert!(back.has_edge(u, v));
            }
            let autos = g.automorphisms();
            let distinct: std::collections::HashSet<_> = autos.iter().collect();
            prop_assert_eq!(distinct.len(), autos.len());
            for p in &autos {
                for &(u, v) in g.edges() {
                    prop_assert!(g.has_edge(p[u], p[v]));
                }
            }
            // The group's size is the orbit of vertex 0 times its stabiliser.
            let orbit: std::collections::HashSet<_> = autos.iter().map(|p| p[0]).collect();
            let stabiliser = autos.iter().filter(|p| p[0] == 0).count();
            prop_assert_eq!(orbit.len() * stabiliser, autos.len());
        }
    }
}
