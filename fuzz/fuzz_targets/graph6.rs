//! graph6: one line through `Graph::from_graph6`, and the whole input as `geng` output
//! through `read_graph6_lines`; a graph read writes back to graph6 that reads the same.
#![no_main]

use libfuzzer_sys::fuzz_target;

use crosscap_fuzz::text;
use crosscap_graphs::{Graph, read_graph6_lines};

fuzz_target!(|data: &[u8]| {
    match Graph::from_graph6(&text(data)) {
        Ok(graph) => {
            let written = graph
                .to_graph6()
                .expect("a graph read from graph6 writes back");
            let again = Graph::from_graph6(&written).expect("written graph6 reads back");
            assert_eq!(again.edges(), graph.edges());
        }
        Err(error) => {
            let _ = error.to_string();
        }
    }
    for graph in read_graph6_lines(data).take(16) {
        if let Err(error) = graph {
            let _ = error.to_string();
        }
    }
});
