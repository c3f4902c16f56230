//! Loops: whether a player's stones connected to a cell hold a closed chain of non-zero Z2
//! homology class. One search, on two graphs: the board's cells (every move the checker
//! follows), and a carrier's graph, where the stones outside the carrier, which stay put
//! during the carrier's search, are merged once per leaf into groups, so that each of the
//! up to 3^12 positions of the search looks at a dozen nodes rather than the whole board.

use crosscap_engine::Player;
use crosscap_topology::Board;

/// Whether the stones of `cell`'s colour connected to it hold a closed chain of non-zero
/// Z2 homology class (a global loop); see [`LoopSearch::through`].
pub(crate) fn has_loop_through(board: &Board, stones: &[Option<Player>], cell: usize) -> bool {
    LoopSearch::default().through(board, stones, cell)
}

/// Why `map` (the image of each cell, a permutation) is no symmetry of the loops, `None`
/// when it is one: it must take the sides of the cells (the cell across, the class of the
/// step) onto the sides, each class changed only by a shift chosen per cell and added at
/// both ends of the step. Around a closed chain the shifts cancel, so every chain keeps its
/// class. The shifts are read off sides met in a search from each cell not yet reached; a
/// wrong guess there (two sides between the same cells) only refuses a map, as the check
/// of every side decides. `map` is a permutation of the cells ([`crate::check::walk`]
/// checks).
pub(crate) fn refuse_symmetry(board: &Board, map: &[u32]) -> Option<String> {
    let image = |cell: usize| map[cell] as usize;
    let mut shift: Vec<Option<u64>> = vec![None; board.cell_count()];
    let mut queue = Vec::with_capacity(board.cell_count());
    for start in 0..board.cell_count() {
        if shift[start].is_some() {
            continue;
        }
        shift[start] = Some(0);
        queue.push(start);
        while let Some(at) = queue.pop() {
            let here = shift[at].expect("queued cells are shifted");
            for side in board.sides(at) {
                if shift[side.neighbor].is_some() {
                    continue;
                }
                let carried = (board.sides(image(at)).iter())
                    .find(|carried| carried.neighbor == image(side.neighbor));
                let Some(across) = carried else {
                    return Some(format!(
                        "takes {} and {}, neighbours, to cells that are not",
                        board.cell_name(at),
                        board.cell_name(side.neighbor)
                    ));
                };
                shift[side.neighbor] = Some(here ^ side.class ^ across.class);
                queue.push(side.neighbor);
            }
        }
    }
    let shift = |cell: usize| shift[cell].expect("every cell is shifted");
    let mut sides = Vec::new();
    let mut images = Vec::new();
    for cell in 0..board.cell_count() {
        for side in board.sides(cell) {
            sides.push((cell, side.neighbor, side.class));
            let class = side.class ^ shift(cell) ^ shift(side.neighbor);
            images.push((image(cell), image(side.neighbor), class));
        }
    }
    sides.sort_unstable();
    images.sort_unstable();
    (sides != images)
        .then(|| "no symmetry of the board's cells, their sides and the sides' classes".into())
}

/// The buffers of the loop search, kept from one search to the next: a carrier's check
/// runs it after every move of every line, and allocating them each time took most of
/// its time.
#[derive(Default)]
pub(crate) struct LoopSearch {
    /// Each reached node's label (none: not reached).
    label: Vec<Option<u64>>,
    /// The reached nodes in the order reached; the search reads it as its queue.
    reached: Vec<usize>,
}

impl LoopSearch {
    /// Whether the stones of `cell`'s colour connected to it hold a global loop, searched
    /// on the board's cells and sides.
    pub(crate) fn through(
        &mut self,
        board: &Board,
        stones: &[Option<Player>],
        cell: usize,
    ) -> bool {
        let colour = stones[cell];
        self.odd_cycle(
            stones.len(),
            cell,
            |at| {
                board
                    .sides(at)
                    .iter()
                    .map(|side| (side.neighbor, side.class))
            },
            |node| stones[node] == colour,
        )
    }

    /// Whether the nodes `alike` with `start` connected to it hold a cycle of non-zero
    /// class, in a graph of `nodes` nodes whose `links` from a node are the node at the
    /// other end and the class of the way there. A breadth-first search labels each reached
    /// node with the class of its path from `start`; a link between two reached nodes whose
    /// labels differ by other than the link's class closes such a cycle.
    ///
    /// A cycle through `start` leaves it by two links: with fewer than two to nodes alike
    /// there is none (most moves of a carrier's search). So a cycle that avoids `start` is
    /// not looked for: the callers ask after each move, when there was none before it.
    fn odd_cycle<Links: Iterator<Item = (usize, u64)>>(
        &mut self,
        nodes: usize,
        start: usize,
        links: impl Fn(usize) -> Links,
        alike: impl Fn(usize) -> bool,
    ) -> bool {
        if links(start).filter(|&(next, _)| alike(next)).count() < 2 {
            return false;
        }
        self.label.resize(nodes, None);
        self.reached.clear();
        self.label[start] = Some(0);
        self.reached.push(start);
        let mut next_in_queue = 0;
        let mut found = false;
        'search: while let Some(&at) = self.reached.get(next_in_queue) {
            next_in_queue += 1;
            let here = self.label[at].expect("queued nodes are labelled");
            for (next, class) in links(at) {
                if !alike(next) {
                    continue;
                }
                let through = here ^ class;
                match self.label[next] {
                    None => {
                        self.label[next] = Some(through);
                        self.reached.push(next);
                    }
                    Some(known) if known != through => {
                        found = true;
                        break 'search;
                    }
                    Some(_) => {}
                }
            }
        }
        for &node in &self.reached {
            self.label[node] = None;
        }
        found
    }
}

/// The loop search of one carrier leaf. Its graph's nodes are the carrier's cells, then
/// the groups: each colour's connected stones outside the carrier, which no move of the
/// search changes. A group's cells are labelled with the class of a path to them from the
/// group's first cell; a group holds no loop (else [`CarrierLoops::new`] refuses), so every
/// path inside it between two of its cells has the class their labels differ by. A side
/// from a carrier cell to a group's cell becomes a link to the group with the side's class
/// plus that cell's label, and a cycle of non-zero class in the graph is exactly one on the
/// board: replace each pass through a group by a path inside it, or the reverse.
pub(crate) struct CarrierLoops {
    /// The carrier's cells, nodes `0..cells.len()`; group `g` is node `cells.len() + g`.
    cells: Vec<usize>,
    /// By cell: its node when it is one of the carrier's.
    node_of: Vec<Option<usize>>,
    /// Each group's colour.
    groups: Vec<Player>,
    /// Each node's links: the node at the other end (a carrier cell or a group) and the
    /// class of the way there.
    links: Vec<Vec<(usize, u64)>>,
    /// The answers found, by what they depend on: the colour, which carrier cells hold it
    /// and the cell asked about (see [`CarrierLoops::through`]); the search asks the same
    /// question again and again from positions that differ only in the other colour.
    answers: Vec<Option<bool>>,
    search: LoopSearch,
}

impl CarrierLoops {
    /// The graph of the carrier `cells` with the stones outside it as `stones` has them
    /// (the contents of the carrier's cells do not matter here); `Err(cell)` when those
    /// stones already hold a loop through `cell` (a group would hide it).
    pub(crate) fn new(
        board: &Board,
        stones: &[Option<Player>],
        cells: &[usize],
    ) -> Result<CarrierLoops, usize> {
        let mut node_of = vec![None; stones.len()];
        for (node, &cell) in cells.iter().enumerate() {
            node_of[cell] = Some(node);
        }
        // Each stone outside the carrier: its group and its label.
        let mut grouped: Vec<Option<(usize, u64)>> = vec![None; stones.len()];
        let mut groups = Vec::new();
        let mut unvisited = Vec::new();
        for first in 0..stones.len() {
            let Some(colour) = stones[first] else {
                continue;
            };
            if node_of[first].is_some() || grouped[first].is_some() {
                continue;
            }
            let group = groups.len();
            groups.push(colour);
            grouped[first] = Some((group, 0));
            unvisited.push(first);
            while let Some(at) = unvisited.pop() {
                let (_, here) = grouped[at].expect("visited cells are grouped");
                for side in board.sides(at) {
                    let next = side.neighbor;
                    if stones[next] != Some(colour) || node_of[next].is_some() {
                        continue;
                    }
                    let through = here ^ side.class;
                    match grouped[next] {
                        None => {
                            grouped[next] = Some((group, through));
                            unvisited.push(next);
                        }
                        // The labels' tree paths to `at` and `next` and this side close a
                        // chain of non-zero class through `next`.
                        Some((_, known)) if known != through => return Err(next),
                        Some(_) => {}
                    }
                }
            }
        }
        let carrier = cells.len();
        let mut links = vec![Vec::new(); carrier + groups.len()];
        for (node, &cell) in cells.iter().enumerate() {
            for side in board.sides(cell) {
                let next = side.neighbor;
                if let Some(other) = node_of[next] {
                    // The other cell's own sides give the link back.
                    links[node].push((other, side.class));
                } else if let Some((group, label)) = grouped[next] {
                    links[node].push((carrier + group, side.class ^ label));
                    links[carrier + group].push((node, side.class ^ label));
                }
            }
        }
        Ok(CarrierLoops {
            cells: cells.to_vec(),
            node_of,
            groups,
            links,
            answers: vec![None; (2 * cells.len()) << cells.len()],
            search: LoopSearch::default(),
        })
    }

    /// Whether the stones of `cell`'s colour connected to it hold a global loop, as
    /// [`LoopSearch::through`] answers on the board (none through an empty cell): `cell`
    /// is one of the carrier's, and the stones outside the carrier are those the graph was
    /// made with.
    pub(crate) fn through(&mut self, stones: &[Option<Player>], cell: usize) -> bool {
        let start = self.node_of[cell].expect("the carrier's search moves in the carrier");
        let Some(player) = stones[cell] else {
            return false;
        };
        let colour = Some(player);
        // Nothing else changes the answer: the stones outside the carrier are fixed, and
        // the search passes only through the carrier's cells of this colour.
        let held = (self.cells.iter().enumerate())
            .filter(|&(_, &cell)| stones[cell] == colour)
            .fold(0, |held, (node, _)| held | 1 << node);
        let key = ((usize::from(player == Player::O) << self.cells.len()) | held)
            * self.cells.len()
            + start;
        if let Some(known) = self.answers[key] {
            return known;
        }
        let (cells, groups, links) = (&self.cells, &self.groups, &self.links);
        let colour_of = |node: usize| match cells.get(node) {
            Some(&cell) => stones[cell],
            None => Some(groups[node - cells.len()]),
        };
        let found = self.search.odd_cycle(
            links.len(),
            start,
            |node| links[node].iter().copied(),
            |node| colour_of(node) == colour,
        );
        self.answers[key] = Some(found);
        found
    }
}

#[cfg(test)]
mod tests {
    use crosscap_engine::Rng;

    use super::*;

    /// A random position of `board`: each cell empty with probability `empty` in 8, else X
    /// or O alike (no rule of play: loops anywhere, as many as chance makes).
    fn random_stones(board: &Board, empty: usize, rng: &mut Rng) -> Vec<Option<Player>> {
        (0..board.cell_count())
            .map(|_| match rng.below(8) {
                draw if draw < empty => None,
                _ if rng.below(2) == 0 => Some(Player::X),
                _ => Some(Player::O),
            })
            .collect()
    }

    /// The carrier's graph against the search on the board, on random full and partial
    /// positions of taylor:2, taylor:3 and goldberg:2 with random carriers of up to 12
    /// cells, each filled several ways: the same answer for every stone of the carrier,
    /// and a loop the board's search finds too wherever the graph is refused.
    #[test]
    fn the_carrier_graph_finds_the_loops_the_board_search_finds() {
        let mut rng = Rng::new(32);
        let (mut loops, mut no_loops, mut refused) = (0, 0, 0);
        for spec in ["taylor:2", "taylor:3", "goldberg:2"] {
            let board = Board::from_spec(spec).unwrap();
            for round in 0..300 {
                let mut stones = random_stones(&board, [0, 2, 4][round % 3], &mut rng);
                let size = 1 + rng.below(crate::MAX_CARRIER);
                let mut cells: Vec<usize> = (0..board.cell_count()).collect();
                for index in 0..size {
                    let other = index + rng.below(cells.len() - index);
                    cells.swap(index, other);
                }
                cells.truncate(size);
                let mut graph = match CarrierLoops::new(&board, &stones, &cells) {
                    Ok(graph) => graph,
                    Err(cell) => {
                        assert!(!cells.contains(&cell));
                        assert!(has_loop_through(&board, &stones, cell), "{spec} {cell}");
                        refused += 1;
                        continue;
                    }
                };
                for _ in 0..8 {
                    for &cell in &cells {
                        stones[cell] = [None, Some(Player::X), Some(Player::O)][rng.below(3)];
                    }
                    for &cell in cells.iter().filter(|&&cell| stones[cell].is_some()) {
                        let expected = has_loop_through(&board, &stones, cell);
                        assert_eq!(
                            graph.through(&stones, cell),
                            expected,
                            "{spec} {stones:?} {cells:?} {cell}"
                        );
                        if expected {
                            loops += 1;
                        } else {
                            no_loops += 1;
                        }
                    }
                }
            }
        }
        assert!(
            loops > 100 && no_loops > 100 && refused > 10,
            "{loops} {no_loops} {refused}"
        );
    }

    /// Every symmetry of the Projective Hex boards is accepted and carries every position
    /// with a loop through a cell to one with a loop through its image, and none without
    /// (random positions); two neighbours exchanged are refused. On N3 (three cross-caps,
    /// classes of three bits) the two of its four symmetries that change classes are
    /// refused, and the two others carry loops too.
    #[test]
    fn symmetries_are_accepted_exactly_when_they_keep_the_loops() {
        let mut rng = Rng::new(5);
        for (spec, keeping) in [
            ("taylor:2", 6),
            ("taylor:3", 6),
            ("goldberg:2", 60),
            ("file:../euler-getter/boards/n3.json", 2),
        ] {
            let board = Board::from_spec(spec).unwrap();
            let maps = board.symmetries().maps().to_vec();
            let mut accepted = 0;
            for map in &maps {
                let map: Vec<u32> = map.iter().map(|&c| c as u32).collect();
                if refuse_symmetry(&board, &map).is_some() {
                    continue;
                }
                accepted += 1;
                for _ in 0..20 {
                    let stones = random_stones(&board, 2, &mut rng);
                    let mut image = vec![None; stones.len()];
                    for (cell, &stone) in stones.iter().enumerate() {
                        image[map[cell] as usize] = stone;
                    }
                    for cell in (0..stones.len()).filter(|&c| stones[c].is_some()) {
                        assert_eq!(
                            has_loop_through(&board, &stones, cell),
                            has_loop_through(&board, &image, map[cell] as usize),
                            "{spec} {map:?} {stones:?}"
                        );
                    }
                }
            }
            assert_eq!(accepted, keeping, "{spec}: {} symmetries", maps.len());
            let mut swapped: Vec<u32> = (0..board.cell_count() as u32).collect();
            swapped.swap(0, board.sides(0)[0].neighbor);
            assert!(refuse_symmetry(&board, &swapped).is_some(), "{spec}");
        }
    }
}
