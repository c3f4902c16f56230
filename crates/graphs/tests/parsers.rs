//! Any text given as a graph spec or as graph6: a graph or a clean error, never a panic.

use crosscap_graphs::{Graph, read_graph6_lines};
use crosscap_testkit::{check_message, text_like};
use proptest::prelude::*;

const SPECS: &[&str] = &[
    "path:5",
    "cycle:4",
    "complete:5",
    "star:3",
    "bipartite:2,3",
    "grid:3x4",
    "wheel:5",
    "petersen",
    "tetrahedron",
    "P5",
    "C4",
    "K4",
    "K1,3",
    "K2,3",
    "edges:0-1,1-2,2-0",
    "arcs:0>1,1>2,2>0",
    "g6:Bw",
    "star:99999",
    "complete:1414",
];

const GRAPH6: &[&str] = &[
    "Bw",
    "C~",
    ">>graph6<<IheA@GUAo",
    "DQc",
    "?",
    "~?@A",
    ":Bw",
    "&Bw",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_spec_gives_a_graph_or_a_clean_error(spec in text_like(SPECS)) {
        match Graph::from_spec(&spec) {
            Ok(graph) => prop_assert!(graph
                .edges()
                .iter()
                .all(|&(u, v)| u != v && u.max(v) < graph.vertex_count())),
            Err(error) => check_message(&spec, &error.to_string())?,
        }
    }

    #[test]
    fn any_graph6_line_gives_a_graph_or_a_clean_error(line in text_like(GRAPH6)) {
        match Graph::from_graph6(&line) {
            Ok(graph) => {
                let written = graph.to_graph6().expect("a graph6 graph writes back");
                let again = Graph::from_graph6(&written).expect("written graph6 reads back");
                prop_assert_eq!(again.edges(), graph.edges());
            }
            Err(error) => check_message(&line, &error.to_string())?,
        }
        for graph in read_graph6_lines(line.as_bytes()) {
            if let Err(error) = graph {
                check_message(&line, &error.to_string())?;
            }
        }
    }
}
