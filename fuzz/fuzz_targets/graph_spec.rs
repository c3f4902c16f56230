//! `Graph::from_spec` on any text.
#![no_main]

use libfuzzer_sys::fuzz_target;

use crosscap_fuzz::text;
use crosscap_graphs::Graph;

fuzz_target!(|data: &[u8]| match Graph::from_spec(&text(data)) {
    Ok(graph) => {
        assert!(
            graph
                .edges()
                .iter()
                .all(|&(u, v)| u != v && u.max(v) < graph.vertex_count())
        );
        let _ = (graph.spec(), graph.components().len());
    }
    Err(error) => {
        let _ = error.to_string();
    }
});
