//! graph6, nauty's format for undirected graphs, so that `geng` output can be piped in.
//!
//! A graph6 line is the vertex count `N(n)` followed by the upper triangle of the adjacency
//! matrix column by column (`x(0,1) x(0,2) x(1,2) x(0,3) …`), six bits per printable byte
//! (each byte is 63 plus its bits).

use std::io::BufRead;

use crate::{Graph, GraphError, MAX_EDGES, MAX_VERTICES};

const HEADER: &str = ">>graph6<<";

/// One graph per non-empty line of graph6; errors name the line (counted from 1).
pub fn read_graph6_lines(input: impl BufRead) -> impl Iterator<Item = Result<Graph, GraphError>> {
    input
        .lines()
        .enumerate()
        .filter_map(|(index, line)| match line {
            Err(error) => Some(Err(GraphError::Io(error.to_string()))),
            Ok(line) if line.trim().is_empty() => None,
            Ok(line) => Some(parse(&line).map_err(|error| GraphError::AtLine {
                line: index + 1,
                error: Box::new(error),
            })),
        })
}

pub(crate) fn parse(line: &str) -> Result<Graph, GraphError> {
    let text = line.trim();
    let body = text.strip_prefix(HEADER).unwrap_or(text);
    let error = |reason: &str| GraphError::Graph6 {
        text: text.to_string(),
        reason: reason.to_string(),
    };
    if body.starts_with(':') || body.starts_with(';') {
        return Err(error(
            "this is sparse6, not graph6 (run it through nauty's copyg -g)",
        ));
    }
    if body.starts_with('&') {
        return Err(error(
            "this is digraph6; give a directed graph as arcs:0>1,…",
        ));
    }
    let bytes = body.as_bytes();
    if bytes.is_empty() {
        return Err(error("empty"));
    }
    if let Some(bad) = bytes.iter().find(|b| !(63..=126).contains(*b)) {
        return Err(error(&format!(
            "byte `{}` is outside graph6's range `?` to `~`",
            char::from(*bad).escape_default()
        )));
    }
    let sextets: Vec<u64> = bytes.iter().map(|&b| u64::from(b - 63)).collect();
    let (n, data) = match sextets[..] {
        [63, 63, ..] if sextets.len() >= 8 => (big_endian(&sextets[2..8]), &sextets[8..]),
        [63, ..] if sextets.len() >= 4 => (big_endian(&sextets[1..4]), &sextets[4..]),
        [63, ..] => return Err(error("the vertex count is cut short")),
        [n, ..] => (n, &sextets[1..]),
        [] => unreachable!("checked non-empty above"),
    };
    if n > MAX_VERTICES as u64 {
        return Err(GraphError::TooLarge {
            spec: format!("g6:{body}"),
            vertices: n as usize,
            edges: 0,
        });
    }
    let n = n as usize;
    let bits = n * n.saturating_sub(1) / 2;
    let expected = bits.div_ceil(6);
    if data.len() != expected {
        return Err(error(&format!(
            "{n} vertices need {expected} bytes of edge data, found {}",
            data.len()
        )));
    }
    let bit = |k: usize| data[k / 6] >> (5 - k % 6) & 1 == 1;
    let mut edges = Vec::new();
    let mut k = 0;
    for j in 1..n {
        for i in 0..j {
            if bit(k) {
                edges.push((i, j));
            }
            k += 1;
        }
    }
    if (k..expected * 6).any(bit) {
        return Err(error("the padding bits after the edges are not zero"));
    }
    if edges.len() > MAX_EDGES {
        return Err(GraphError::TooLarge {
            spec: format!("g6:{body}"),
            vertices: n,
            edges: edges.len(),
        });
    }
    edges.sort_unstable();
    Ok(Graph::build(format!("g6:{body}"), false, n, edges))
}

fn big_endian(sextets: &[u64]) -> u64 {
    sextets.iter().fold(0, |acc, &s| acc << 6 | s)
}

pub(crate) fn write(graph: &Graph) -> String {
    let n = graph.vertex_count();
    let mut sextets: Vec<u8> = match n {
        0..=62 => vec![n as u8],
        63..=258_047 => vec![63, (n >> 12) as u8 & 63, (n >> 6) as u8 & 63, n as u8 & 63],
        _ => {
            let mut head = vec![63, 63];
            head.extend((0..6).rev().map(|k| (n >> (6 * k)) as u8 & 63));
            head
        }
    };
    let mut current = 0u8;
    let mut filled = 0;
    for j in 1..n {
        for i in 0..j {
            current = current << 1 | u8::from(graph.has_edge(i, j));
            filled += 1;
            if filled == 6 {
                sextets.push(current);
                (current, filled) = (0, 0);
            }
        }
    }
    if filled > 0 {
        sextets.push(current << (6 - filled));
    }
    sextets.into_iter().map(|s| char::from(s + 63)).collect()
}
