//! Edge-Nim token lists (counts in edge order, `EDGE=COUNT` items, `*=N`) on a few graphs
//! (the first byte picks the graph), then the position they make.
#![no_main]

use libfuzzer_sys::fuzz_target;

use std::sync::{Arc, LazyLock};

use crosscap_edge_nim::{EdgeNim, parse_assignments, parse_tokens};
use crosscap_fuzz::text;
use crosscap_graphs::Graph;

static GRAPHS: LazyLock<Vec<Arc<Graph>>> = LazyLock::new(|| {
    ["tetrahedron", "C4", "P2", "petersen", "K4", "edges:0-5,5-9"]
        .iter()
        .map(|spec| Arc::new(Graph::from_spec(spec).expect("a valid graph")))
        .collect()
});

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let graph = &GRAPHS[usize::from(pick) % GRAPHS.len()];
    let text = text(rest);
    if let Err(error) = parse_assignments(graph, &text) {
        let _ = error.to_string();
    }
    match parse_tokens(graph, &text) {
        Ok(tokens) => {
            assert_eq!(tokens.len(), graph.edge_count());
            let position = EdgeNim::new(Arc::clone(graph), tokens).expect("counts fit the graph");
            let _ = (position.move_count_bound(), position.total_tokens());
        }
        Err(error) => {
            let _ = error.to_string();
        }
    }
});
