//! Parsing of graph specs into graphs, one builder per family.

use std::collections::HashMap;

use crate::{Graph, GraphError, MAX_EDGES, MAX_VERTICES, graph6};

/// Whether an `edges:` list may repeat an edge (a multigraph).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Parallel {
    Refused,
    Allowed,
}

pub(crate) fn parse(text: &str, parallel: Parallel) -> Result<Graph, GraphError> {
    let spec = text.trim();
    if let Some((family, args)) = spec.split_once(':') {
        let args = args.trim();
        return match family.trim().to_ascii_lowercase().as_str() {
            "path" => path(spec, count(spec, args)?),
            "cycle" => cycle(spec, count(spec, args)?),
            "complete" => complete(spec, count(spec, args)?),
            "star" => star(spec, count(spec, args)?),
            "bipartite" => {
                let (m, n) = pair(spec, args, ',')?;
                bipartite(spec, m, n)
            }
            "grid" => {
                let (rows, columns) = pair(spec, &args.to_ascii_lowercase(), 'x')?;
                grid(spec, rows, columns)
            }
            "wheel" => wheel(spec, count(spec, args)?),
            "edges" => edge_list(spec, args, false, parallel),
            "arcs" => edge_list(spec, args, true, Parallel::Refused),
            "g6" => graph6::parse(args),
            _ => Err(GraphError::UnknownSpec(spec.to_string())),
        };
    }
    match spec.to_ascii_lowercase().as_str() {
        "petersen" => return Ok(petersen()),
        "tetrahedron" => return Ok(tetrahedron()),
        _ => {}
    }
    let mut chars = spec.chars();
    let (Some(letter), rest) = (chars.next(), chars.as_str()) else {
        return Err(GraphError::UnknownSpec(spec.to_string()));
    };
    if rest.is_empty() || !rest.starts_with(|c: char| c.is_ascii_digit()) {
        return Err(GraphError::UnknownSpec(spec.to_string()));
    }
    match letter.to_ascii_uppercase() {
        'P' => path(spec, count(spec, rest)?),
        'C' => cycle(spec, count(spec, rest)?),
        'K' if rest.contains(',') => {
            let (m, n) = pair(spec, rest, ',')?;
            if m == 1 {
                star(spec, n)
            } else {
                bipartite(spec, m, n)
            }
        }
        'K' => complete(spec, count(spec, rest)?),
        _ => Err(GraphError::UnknownSpec(spec.to_string())),
    }
}

fn count(spec: &str, text: &str) -> Result<usize, GraphError> {
    let text = text.trim();
    text.parse().map_err(|_| GraphError::BadNumber {
        spec: spec.to_string(),
        part: text.to_string(),
    })
}

fn pair(spec: &str, text: &str, separator: char) -> Result<(usize, usize), GraphError> {
    let (first, second) = text
        .split_once(separator)
        .ok_or_else(|| GraphError::BadSize {
            spec: spec.to_string(),
            reason: format!("expected two numbers separated by `{separator}`"),
        })?;
    Ok((count(spec, first)?, count(spec, second)?))
}

fn at_least(spec: &str, what: &str, value: usize, minimum: usize) -> Result<(), GraphError> {
    if value < minimum {
        return Err(GraphError::BadSize {
            spec: spec.to_string(),
            reason: format!("{what} must be at least {minimum}, not {value}"),
        });
    }
    Ok(())
}

/// Refuses sizes over the limits before anything is allocated.
fn within_limits(spec: &str, vertices: usize, edges: usize) -> Result<(), GraphError> {
    if vertices > MAX_VERTICES || edges > MAX_EDGES {
        return Err(GraphError::TooLarge {
            spec: spec.to_string(),
            vertices,
            edges,
        });
    }
    Ok(())
}

fn path(spec: &str, n: usize) -> Result<Graph, GraphError> {
    at_least(spec, "a path's vertex count", n, 1)?;
    within_limits(spec, n, n - 1)?;
    let edges = (1..n).map(|v| (v - 1, v)).collect();
    Ok(Graph::build(format!("path:{n}"), false, n, edges))
}

fn cycle(spec: &str, n: usize) -> Result<Graph, GraphError> {
    at_least(spec, "a cycle's vertex count", n, 3)?;
    within_limits(spec, n, n)?;
    let mut edges: Vec<_> = (1..n).map(|v| (v - 1, v)).collect();
    edges.push((0, n - 1));
    Ok(Graph::build(format!("cycle:{n}"), false, n, edges))
}

fn complete(spec: &str, n: usize) -> Result<Graph, GraphError> {
    at_least(spec, "a complete graph's vertex count", n, 1)?;
    within_limits(spec, n, n.saturating_mul(n - 1) / 2)?;
    let edges = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect();
    Ok(Graph::build(format!("complete:{n}"), false, n, edges))
}

fn star(spec: &str, leaves: usize) -> Result<Graph, GraphError> {
    at_least(spec, "a star's leaf count", leaves, 1)?;
    within_limits(spec, leaves.saturating_add(1), leaves)?;
    let edges = (1..=leaves).map(|v| (0, v)).collect();
    Ok(Graph::build(
        format!("star:{leaves}"),
        false,
        leaves + 1,
        edges,
    ))
}

fn bipartite(spec: &str, m: usize, n: usize) -> Result<Graph, GraphError> {
    at_least(spec, "each part's size", m.min(n), 1)?;
    within_limits(spec, m.saturating_add(n), m.saturating_mul(n))?;
    let edges = (0..m)
        .flat_map(|i| (m..m + n).map(move |j| (i, j)))
        .collect();
    Ok(Graph::build(
        format!("bipartite:{m},{n}"),
        false,
        m + n,
        edges,
    ))
}

fn grid(spec: &str, rows: usize, columns: usize) -> Result<Graph, GraphError> {
    at_least(spec, "each side of a grid", rows.min(columns), 1)?;
    let vertices = rows.saturating_mul(columns);
    let edges = rows
        .saturating_mul(columns - 1)
        .saturating_add(columns.saturating_mul(rows - 1));
    within_limits(spec, vertices, edges)?;
    let mut edges = Vec::with_capacity(edges);
    for r in 0..rows {
        for c in 0..columns {
            let v = r * columns + c;
            if c + 1 < columns {
                edges.push((v, v + 1));
            }
            if r + 1 < rows {
                edges.push((v, v + columns));
            }
        }
    }
    Ok(Graph::build(
        format!("grid:{rows}x{columns}"),
        false,
        vertices,
        edges,
    ))
}

fn wheel(spec: &str, rim: usize) -> Result<Graph, GraphError> {
    at_least(spec, "a wheel's rim length", rim, 3)?;
    within_limits(spec, rim.saturating_add(1), rim.saturating_mul(2))?;
    let mut edges: Vec<_> = (1..=rim).map(|v| (0, v)).collect();
    edges.extend((2..=rim).map(|v| (v - 1, v)));
    edges.push((1, rim));
    Ok(Graph::build(format!("wheel:{rim}"), false, rim + 1, edges))
}

fn petersen() -> Graph {
    let mut edges: Vec<_> = (0..5).map(|i| (i, (i + 1) % 5)).collect();
    edges[4] = (0, 4);
    edges.extend((0..5).map(|i| (i, i + 5)));
    edges.extend((0..5).map(|i| (5 + i, 5 + (i + 2) % 5)));
    for edge in &mut edges {
        *edge = (edge.0.min(edge.1), edge.0.max(edge.1));
    }
    Graph::build("petersen".to_string(), false, 10, edges)
}

/// The seed's tetrahedron: vertices 1..4, each capital letter the edge opposite its small one.
fn tetrahedron() -> Graph {
    let edges = vec![(0, 1), (0, 2), (0, 3), (2, 3), (1, 3), (1, 2)];
    let mut graph = Graph::build("tetrahedron".to_string(), false, 4, edges);
    graph.vertex_names = Some((1..=4).map(|v| v.to_string()).collect());
    graph.edge_names = Some(["a", "b", "c", "A", "B", "C"].map(String::from).to_vec());
    graph
}

/// `edges:0-1,1-2` or `arcs:0>1,1>2`, in the order written, with vertices `0..=max`. With
/// `parallel` allowed an edge may repeat: its `k`-th copy is named `u-v#k` (`k >= 2`).
fn edge_list(
    spec: &str,
    list: &str,
    directed: bool,
    parallel: Parallel,
) -> Result<Graph, GraphError> {
    let separator = if directed { '>' } else { '-' };
    let mut edges = Vec::new();
    let mut seen = HashMap::new();
    let mut names = Vec::new();
    for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let bad = |reason: String| GraphError::BadEdge {
            edge: part.to_string(),
            reason,
        };
        let (u, v) = part
            .split_once(separator)
            .and_then(|(u, v)| Some((u.trim().parse().ok()?, v.trim().parse().ok()?)))
            .ok_or_else(|| {
                bad(format!(
                    "expected two vertex numbers joined by `{separator}`"
                ))
            })?;
        let (u, v): (usize, usize) = (u, v);
        if u.max(v) >= MAX_VERTICES {
            return Err(GraphError::TooLarge {
                spec: spec.to_string(),
                vertices: u.max(v).saturating_add(1),
                edges: edges.len() + 1,
            });
        }
        if u == v {
            return Err(bad("a loop (both ends the same vertex)".to_string()));
        }
        let key = if directed {
            (u, v)
        } else {
            (u.min(v), u.max(v))
        };
        let copy = seen.entry(key).or_insert(0);
        *copy += 1;
        if *copy > 1 && parallel == Parallel::Refused {
            return Err(bad("repeats an earlier edge".to_string()));
        }
        names.push(match *copy {
            1 => format!("{u}{separator}{v}"),
            k => format!("{u}{separator}{v}#{k}"),
        });
        edges.push((u, v));
        within_limits(spec, 0, edges.len())?;
    }
    let vertex_count = edges.iter().map(|&(u, v)| u.max(v) + 1).max().unwrap_or(0);
    let family = if directed { "arcs" } else { "edges" };
    let written: Vec<String> = edges
        .iter()
        .map(|(u, v)| format!("{u}{separator}{v}"))
        .collect();
    let mut graph = Graph::build(
        format!("{family}:{}", written.join(",")),
        directed,
        vertex_count,
        edges,
    );
    if names.iter().any(|name| name.contains('#')) {
        graph.edge_names = Some(names);
    }
    Ok(graph)
}
