//! Global loops found from scratch by breadth-first search: the reference the incremental
//! union-find is tested against, and the extraction of a winning loop as ordered cells.

use std::collections::VecDeque;

use crosscap_engine::Player;

use crate::rules::Geometry;

/// A breadth-first tree of one player's stones from `root`: parent, depth and the class
/// of the tree path from the root, for every cell reached.
struct Tree {
    parent: Vec<usize>,
    depth: Vec<usize>,
    label: Vec<u64>,
    order: Vec<usize>,
}

const UNREACHED: usize = usize::MAX;

fn bfs(geometry: &Geometry, stones: &[Option<Player>], player: Player, root: usize) -> Tree {
    let n = stones.len();
    let mut tree = Tree {
        parent: vec![UNREACHED; n],
        depth: vec![UNREACHED; n],
        label: vec![0; n],
        order: vec![root],
    };
    tree.parent[root] = root;
    tree.depth[root] = 0;
    let mut queue = VecDeque::from([root]);
    while let Some(u) = queue.pop_front() {
        for (v, class) in geometry.sides(u) {
            if stones[v] == Some(player) && tree.depth[v] == UNREACHED {
                tree.parent[v] = u;
                tree.depth[v] = tree.depth[u] + 1;
                tree.label[v] = tree.label[u] ^ class;
                tree.order.push(v);
                queue.push_back(v);
            }
        }
    }
    tree
}

/// Whether `player`'s stones contain a closed chain of non-zero homology class (a global
/// loop on the projective plane), checked from scratch.
pub fn has_global_loop(geometry: &Geometry, stones: &[Option<Player>], player: Player) -> bool {
    let mut seen = vec![false; stones.len()];
    for root in 0..stones.len() {
        if stones[root] != Some(player) || seen[root] {
            continue;
        }
        let tree = bfs(geometry, stones, player, root);
        for &u in &tree.order {
            seen[u] = true;
            for (v, class) in geometry.sides(u) {
                if stones[v] == Some(player) && tree.label[u] ^ class ^ tree.label[v] != 0 {
                    return true;
                }
            }
        }
    }
    false
}

/// A shortest global loop of `player`'s stones, as cells in order around it (each
/// adjacent to the next and the last to the first), starting from its lowest-numbered
/// cell and going towards the lower-numbered of that cell's two loop neighbours.
///
/// A shortest cycle of non-zero class consists of two shortest paths from some cell and
/// one more side, so trying every cell as the root of a breadth-first tree finds it.
pub fn shortest_global_loop(
    geometry: &Geometry,
    stones: &[Option<Player>],
    player: Player,
) -> Option<Vec<usize>> {
    let mut best: Option<Vec<usize>> = None;
    for root in 0..stones.len() {
        if stones[root] != Some(player) {
            continue;
        }
        let tree = bfs(geometry, stones, player, root);
        for &u in &tree.order {
            for (v, class) in geometry.sides(u) {
                if stones[v] != Some(player) || tree.label[u] ^ class ^ tree.label[v] == 0 {
                    continue;
                }
                let length = tree.depth[u] + tree.depth[v] + 1;
                if best.as_ref().is_some_and(|b| b.len() <= length) {
                    continue;
                }
                let cycle = tree_cycle(&tree, u, v);
                if best.as_ref().is_none_or(|b| cycle.len() < b.len()) {
                    best = Some(cycle);
                }
            }
        }
    }
    best.map(normalise)
}

/// The cycle made of the tree paths from `u` and `v` up to their lowest common ancestor
/// and the side from `u` to `v`.
fn tree_cycle(tree: &Tree, mut u: usize, mut v: usize) -> Vec<usize> {
    let mut up_from_u = Vec::new();
    let mut up_from_v = Vec::new();
    while tree.depth[u] > tree.depth[v] {
        up_from_u.push(u);
        u = tree.parent[u];
    }
    while tree.depth[v] > tree.depth[u] {
        up_from_v.push(v);
        v = tree.parent[v];
    }
    while u != v {
        up_from_u.push(u);
        up_from_v.push(v);
        u = tree.parent[u];
        v = tree.parent[v];
    }
    // lca, then down to the original u, across to the original v, and back up.
    let mut cycle = vec![u];
    cycle.extend(up_from_u.iter().rev());
    cycle.extend(up_from_v.iter());
    cycle
}

fn normalise(mut cycle: Vec<usize>) -> Vec<usize> {
    let start = (0..cycle.len())
        .min_by_key(|&i| cycle[i])
        .expect("cycles are not empty");
    cycle.rotate_left(start);
    if cycle.len() > 2 && cycle[cycle.len() - 1] < cycle[1] {
        cycle[1..].reverse();
    }
    cycle
}
