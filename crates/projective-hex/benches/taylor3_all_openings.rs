//! Every opening of taylor:3 solved once (half a minute: too long for criterion's ten
//! samples). Prints the nodes and the thread time of each class of openings (the sum over
//! its replies, solved on their own) and the nodes and wall time of the whole, as
//! `cargo bench -p crosscap-projective-hex --bench taylor3_all_openings` shows them.

use std::time::Instant;

use crosscap_engine::solver::Budget;
use crosscap_projective_hex::{Opening, ProjectiveHex, all_openings};

fn main() {
    // `cargo bench` passes `--bench` to every target; a filter that is not this bench's
    // name skips it, as criterion benches do.
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    if filter.is_some_and(|f| !"taylor3_all_openings".contains(f.as_str())) {
        return;
    }
    let start = ProjectiveHex::on_board("taylor:3", Opening::Standard).expect("a built-in board");
    let clock = Instant::now();
    let results = all_openings(&start, Budget::unlimited(), &|_| {}).expect("no budget");
    let elapsed = clock.elapsed();
    for r in &results {
        println!(
            "class {:<12} winner {:?}: {:>11} nodes, {:>7.1} s of thread time",
            r.cells.join(" "),
            r.winner,
            r.nodes,
            r.millis / 1000.0
        );
    }
    let nodes: u64 = results.iter().map(|r| r.nodes).sum();
    println!(
        "taylor:3 all openings: {nodes} nodes, {:.1} s on {} threads",
        elapsed.as_secs_f64(),
        rayon::current_num_threads()
    );
}
