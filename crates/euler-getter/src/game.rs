//! The game: stones, the incremental score, the rules (normal or reverse, swap) and the
//! engine traits.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use crosscap_engine::{Game, Meter, MoveError, Notation, Outcome, Player, Rng};
use crosscap_topology::Symmetries;

use crate::EulerGetterError;
use crate::complex::Complex;
use crate::position::Stones;
use crate::region::{RegionAnalysis, RegionCounts};

/// Who wins at the end: the larger Euler characteristic (normal) or the smaller (reverse).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rule {
    #[default]
    Normal,
    Reverse,
}

impl Rule {
    /// The rules' names, as options and flags take them.
    pub const NAMES: &'static [&'static str] = &["normal", "reverse"];

    /// `value`, measured for the normal rule (more is better for its holder), as the rule
    /// in play sees it: negated under the reverse rule, where the smaller characteristic
    /// wins.
    pub fn oriented<T: std::ops::Neg<Output = T>>(self, value: T) -> T {
        match self {
            Rule::Normal => value,
            Rule::Reverse => -value,
        }
    }
}

impl FromStr for Rule {
    type Err = EulerGetterError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "normal" => Ok(Rule::Normal),
            "reverse" => Ok(Rule::Reverse),
            _ => Err(EulerGetterError::UnknownRule(s.to_string())),
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rule::Normal => "normal",
            Rule::Reverse => "reverse",
        })
    }
}

/// The swap rule of the author's web app: after this many moves (1, 3, 5 or 7) the second
/// player may swap colours instead of placing a stone; `None` turns it off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SwapRule(pub Option<u8>);

impl Default for SwapRule {
    /// After three moves, as in the author's app.
    fn default() -> Self {
        SwapRule(Some(3))
    }
}

impl SwapRule {
    /// The rules' names, as options and flags take them.
    pub const NAMES: &'static [&'static str] = &["none", "1", "3", "5", "7"];
}

impl FromStr for SwapRule {
    type Err = EulerGetterError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" => Ok(SwapRule(None)),
            "1" => Ok(SwapRule(Some(1))),
            "3" => Ok(SwapRule(Some(3))),
            "5" => Ok(SwapRule(Some(5))),
            "7" => Ok(SwapRule(Some(7))),
            _ => Err(EulerGetterError::UnknownSwap(s.to_string())),
        }
    }
}

impl fmt::Display for SwapRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            None => f.write_str("none"),
            Some(k) => write!(f, "{k}"),
        }
    }
}

/// A move: claim a cell, or (once, when the swap rule allows it) swap colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    Place(u16),
    Swap,
}

/// An Euler Getter position.
///
/// Stones are stored by colour: colour `X` is the first player's colour (blue in the
/// author's app), `O` the second's (red). Until a swap the player `X` owns colour `X`;
/// a swap exchanges the owners, so [`Game::to_move`] and outcomes are about players
/// (seats), while the board and the incremental counts are about colours.
#[derive(Clone)]
pub struct EulerGetter {
    complex: Arc<Complex>,
    rule: Rule,
    swap_rule: SwapRule,
    stones: Vec<Option<Player>>,
    /// Empty cells, in any order, and each empty cell's index in that list.
    empty: Vec<u16>,
    slot: Vec<u16>,
    placed: usize,
    /// Per colour: vertices, edges and faces of its region's closure.
    counts: [RegionCounts; 2],
    swapped: bool,
    hash: u64,
    /// Zobrist hashes of the position's images under the board's symmetries, kept only
    /// when symmetry-aware hashing was asked for (exact solving).
    symmetries: Option<Arc<Symmetries>>,
    symmetric_hashes: Vec<u64>,
}

const SWAPPED_KEY: u64 = 0x5157_4150_5045_4421;

/// A position's hash from the hash of its stones: a swap made changes it.
pub(crate) fn with_swap_key(stones: u64, swapped: bool) -> u64 {
    if swapped {
        stones ^ SWAPPED_KEY
    } else {
        stones
    }
}

impl EulerGetter {
    /// The empty board.
    pub fn new(complex: Arc<Complex>, rule: Rule, swap_rule: SwapRule) -> Self {
        let cells = complex.cell_count();
        EulerGetter {
            rule,
            swap_rule,
            stones: vec![None; cells],
            empty: (0..cells as u16).collect(),
            slot: (0..cells as u16).collect(),
            placed: 0,
            counts: [RegionCounts::default(); 2],
            swapped: false,
            hash: 0,
            symmetries: None,
            symmetric_hashes: Vec::new(),
            complex,
        }
    }

    /// A position given as text (see `Board::parse_position`), with no swap made.
    pub fn from_position(
        complex: Arc<Complex>,
        text: &str,
        rule: Rule,
        swap_rule: SwapRule,
    ) -> Result<Self, EulerGetterError> {
        let position = complex.board().parse_position(text)?;
        let mut game = EulerGetter::new(complex, rule, swap_rule);
        // Place X's and O's stones alternately so that the colour to move is always right.
        let cells_of = |p: Player| {
            position
                .cells
                .iter()
                .enumerate()
                .filter(move |(_, s)| **s == Some(p))
                .map(|(c, _)| c)
        };
        let xs = cells_of(Player::X);
        let mut os = cells_of(Player::O);
        for x in xs {
            game.place(x);
            match os.next() {
                Some(o) => game.place(o),
                None => break,
            }
        }
        Ok(game)
    }

    /// Turns on symmetry-aware position hashing: positions that are images of each other
    /// under a symmetry of the board share a transposition-table entry.
    pub fn with_symmetries(mut self, symmetries: Arc<Symmetries>) -> Self {
        self.symmetric_hashes = symmetries
            .maps()
            .iter()
            .map(|map| {
                self.stones
                    .iter()
                    .enumerate()
                    .filter_map(|(c, s)| s.map(|p| self.complex.zobrist(map[c], p.index())))
                    .fold(0, |h, z| h ^ z)
            })
            .collect();
        self.symmetries = Some(symmetries);
        self
    }

    /// The same position with the swap rule off (a swap not made stays unmade).
    pub fn without_swap(mut self) -> Self {
        self.swap_rule = SwapRule(None);
        self
    }

    pub fn complex(&self) -> &Arc<Complex> {
        &self.complex
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    pub fn swap_rule(&self) -> SwapRule {
        self.swap_rule
    }

    /// Whether the players have swapped colours.
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    /// Stones by colour (colour `X` is the first player's colour).
    pub fn stones(&self) -> &[Option<Player>] {
        &self.stones
    }

    /// The player owning each cell's stone (differs from the colour after a swap).
    pub fn owners(&self) -> Vec<Option<Player>> {
        self.stones
            .iter()
            .map(|s| s.map(|c| self.owner_of(c)))
            .collect()
    }

    /// The player who owns colour `colour`.
    pub fn owner_of(&self, colour: Player) -> Player {
        if self.swapped {
            colour.opponent()
        } else {
            colour
        }
    }

    /// The colour player `player` plays.
    pub fn colour_of(&self, player: Player) -> Player {
        self.owner_of(player)
    }

    /// Stones placed so far.
    pub fn placed(&self) -> usize {
        self.placed
    }

    pub fn is_full(&self) -> bool {
        self.placed == self.stones.len()
    }

    /// Whether the player to move may swap colours now.
    pub fn swap_available(&self) -> bool {
        !self.swapped && self.swap_rule.0 == Some(self.placed as u8) && !self.is_full()
    }

    /// V, E, F of `player`'s region, kept up to date stone by stone.
    pub fn counts(&self, player: Player) -> RegionCounts {
        self.counts[self.colour_of(player).index()]
    }

    /// The Euler characteristic of `player`'s region.
    pub fn chi(&self, player: Player) -> i64 {
        self.counts(player).chi()
    }

    /// `player`'s region split into pieces and loops, computed from scratch.
    pub fn analysis(&self, player: Player) -> RegionAnalysis {
        let colour = Some(self.colour_of(player));
        let in_region: Vec<bool> = self.stones.iter().map(|&s| s == colour).collect();
        RegionAnalysis::of(self.complex.board(), &in_region)
    }

    /// `player`'s counts computed from scratch over the whole board (for tests and checks).
    pub fn counts_from_scratch(&self, player: Player) -> RegionCounts {
        let colour = Some(self.colour_of(player));
        let in_region: Vec<bool> = self.stones.iter().map(|&s| s == colour).collect();
        RegionCounts::from_scratch(self.complex.board(), &in_region)
    }

    /// How much `colour`'s V - E + F would grow if it claimed the empty `cell`.
    pub fn chi_gain(&self, cell: usize, colour: Player) -> i64 {
        Stones::chi_gain(self, cell, colour)
    }

    /// Whether a swap may still come: then the seats' colours are not settled yet.
    fn swap_pending(&self) -> bool {
        self.swap_rule
            .0
            .is_some_and(|after| !self.swapped && self.placed <= after as usize)
    }

    /// Places a stone of the colour to move on the empty `cell`: a constant-time update
    /// of that colour's V, E and F (only the cell's own edges and vertices are looked at).
    fn place(&mut self, cell: usize) {
        self.place_counted(
            cell,
            self.new_vertices_and_edges(cell, self.colour_to_move()),
        );
    }

    /// [`EulerGetter::place`] given what the stone adds, `(vertices, edges)` from
    /// [`EulerGetter::new_vertices_and_edges`] for the colour to move: a playout that
    /// compared cells by their gain has counted them already.
    pub(crate) fn place_counted(&mut self, cell: usize, (vertices, edges): (i64, i64)) {
        let colour = self.colour_to_move();
        let counts = &mut self.counts[colour.index()];
        counts.vertices += vertices;
        counts.edges += edges;
        counts.faces += 1;
        self.stones[cell] = Some(colour);
        let i = self.slot[cell] as usize;
        let last = *self.empty.last().expect("the cell is empty");
        self.empty.swap_remove(i);
        if (last as usize) != cell {
            self.slot[last as usize] = i as u16;
        }
        self.placed += 1;
        self.hash ^= self.complex.zobrist(cell, colour.index());
        if let Some(symmetries) = &self.symmetries {
            for (h, map) in self.symmetric_hashes.iter_mut().zip(symmetries.maps()) {
                *h ^= self.complex.zobrist(map[cell], colour.index());
            }
        }
    }

    /// The winner and X's margin on a full board under the rule.
    fn final_outcome(&self) -> Outcome {
        let (x, o) = (self.chi(Player::X), self.chi(Player::O));
        let margin = match self.rule {
            Rule::Normal => x - o,
            Rule::Reverse => o - x,
        };
        Outcome::scored(margin as i32, Player::X.winner_by(margin as i32))
    }
}

impl Stones for EulerGetter {
    fn rule(&self) -> Rule {
        self.rule
    }

    fn complex(&self) -> &Complex {
        &self.complex
    }

    fn stone(&self, cell: usize) -> Option<Player> {
        self.stones[cell]
    }

    fn empty_cells(&self) -> impl Iterator<Item = usize> + '_ {
        self.empty.iter().map(|&cell| cell as usize)
    }

    fn empty_count(&self) -> usize {
        self.empty.len()
    }

    fn colour_counts(&self, colour: Player) -> RegionCounts {
        self.counts[colour.index()]
    }

    fn colour_to_move(&self) -> Player {
        if self.placed.is_multiple_of(2) {
            Player::X
        } else {
            Player::O
        }
    }
}

impl Game for EulerGetter {
    type Move = Move;

    fn to_move(&self) -> Player {
        self.owner_of(self.colour_to_move())
    }

    fn legal_moves(&self) -> Vec<Move> {
        let mut moves: Vec<Move> = (0..self.stones.len())
            .filter(|&c| self.stones[c].is_none())
            .map(|c| Move::Place(c as u16))
            .collect();
        if self.swap_available() {
            moves.push(Move::Swap);
        }
        moves
    }

    fn play(&mut self, mv: &Move) {
        match *mv {
            Move::Place(cell) => self.place(cell as usize),
            Move::Swap => self.swapped = true,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.is_full().then(|| self.final_outcome())
    }

    fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        size_of::<Self>()
            + self.stones.len() * size_of::<Option<Player>>()
            + (self.empty.len() + self.slot.len()) * size_of::<u16>()
            + self.symmetric_hashes.len() * size_of::<u64>()
    }

    fn position_hash(&self) -> u64 {
        let stones = match self.symmetric_hashes.iter().min() {
            Some(&canonical) => canonical,
            None => self.hash,
        };
        with_swap_key(stones, self.swapped)
    }

    /// `Stones::order_cells`.
    fn order_moves(&self, moves: &mut [Move]) {
        self.order_cells(moves);
    }

    /// Cells are cheap to play and endgame subtrees dear: goldberg:2 takes 4.4 M nodes with
    /// the children looked up first against 5.7 M without, in about the same time.
    const CHILDREN_LOOKED_UP_FIRST: bool = true;

    /// `Stones::margin_bounds_for`, none while a swap may still change who owns which
    /// colour.
    fn margin_bounds(&self) -> Option<(i32, i32)> {
        if self.swap_pending() {
            return None;
        }
        self.margin_bounds_for(self.colour_of(Player::X), self.rule)
    }

    fn random_move(&self, rng: &mut Rng) -> Option<Move> {
        if self.is_full() {
            return None;
        }
        let choices = self.empty.len() + usize::from(self.swap_available());
        let pick = rng.below(choices);
        Some(match self.empty.get(pick) {
            Some(&c) => Move::Place(c),
            None => Move::Swap,
        })
    }

    /// Uniformly random moves to the end, without building move lists: one stone per
    /// cell, no step long enough to poll the meter.
    fn playout(&mut self, rng: &mut Rng, _meter: &mut Meter) -> Option<Outcome> {
        while let Some(mv) = self.random_move(rng) {
            self.play(&mv);
        }
        Some(self.final_outcome())
    }
}

impl Notation for EulerGetter {
    /// A cell's name, or `swap`.
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let name = text.trim();
        if name.eq_ignore_ascii_case("swap") {
            return if self.swap_available() {
                Ok(Move::Swap)
            } else {
                Err(MoveError::illegal(
                    name,
                    match self.swap_rule.0 {
                        None => "the swap rule is off".to_string(),
                        Some(k) => format!(
                            "swapping is allowed only as the second player's answer to move {k}"
                        ),
                    },
                ))
            };
        }
        let cell =
            self.complex.board().cell_index(name).ok_or_else(|| {
                MoveError::malformed(name, "no cell has that name (or type `swap`)")
            })?;
        match self.stones[cell] {
            None => Ok(Move::Place(cell as u16)),
            Some(colour) => Err(MoveError::illegal(
                name,
                format!("the cell is taken by {}", self.owner_of(colour)),
            )),
        }
    }

    fn format_move(&self, mv: &Move) -> String {
        match *mv {
            Move::Place(c) => self.complex.board().cell_name(c as usize).to_string(),
            Move::Swap => "swap".to_string(),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::load_board;
    use crosscap_engine::solver::{Budget, Solver, brute_force_value};
    use proptest::prelude::*;

    /// Boards small enough for brute force near the end of the game.
    const SMALL_BOARDS: [&str; 3] = ["goldberg:1", "goldberg:2", "taylor:2"];

    /// Boards of every family, for the invariants: Goldberg, Taylor, and user files (the
    /// surface N3 of characteristic -1, a small projective plane).
    fn boards() -> Vec<String> {
        let file = |name: &str| format!("file:{}/boards/{name}", env!("CARGO_MANIFEST_DIR"));
        let mut boards: Vec<String> = [
            "goldberg:1",
            "goldberg:2",
            "goldberg:4",
            "taylor:2",
            "taylor:3",
            "taylor:5",
            // Other surfaces of odd characteristic: N3 and N5 as connected sums.
            "sum:taylor:2+torus:2x3",
            "sum:goldberg:1+klein:2x3+torus:2x3",
        ]
        .map(String::from)
        .to_vec();
        boards.extend([file("n3.json"), file("hemi-prism-8.json")]);
        boards
    }

    fn game(spec: &str, swap: SwapRule) -> EulerGetter {
        EulerGetter::new(load_board(spec).unwrap(), Rule::Normal, swap)
    }

    /// Plays `cells` in order (each an empty cell, colours alternating).
    fn play_cells(game: &mut EulerGetter, cells: &[usize]) {
        for &c in cells {
            game.play(&Move::Place(c as u16));
        }
    }

    fn assert_counts_agree(game: &EulerGetter) {
        let board = game.complex().board();
        for p in Player::BOTH {
            assert_eq!(game.counts(p), game.counts_from_scratch(p));
            let colour = Some(game.colour_of(p));
            let region: Vec<bool> = game.stones().iter().map(|&s| s == colour).collect();
            assert_eq!(game.chi(p), board.region_euler_characteristic(&region));
            let analysis = game.analysis(p);
            let whole = region.iter().all(|&b| b);
            assert_eq!(
                analysis.chi,
                analysis.components as i64 - analysis.loops as i64 + i64::from(whole)
            );
            assert_eq!(analysis.chi, game.chi(p));
            // chi = F - M/2 on boards of plain polygons: M = 2 (E - V) counts the vertices
            // where the region holds two or three cells (the margin bounds read it so).
            if game.complex().rings_exact() {
                let held = (0..board.vertex_count())
                    .filter(|&v| board.vertex_cells(v).iter().filter(|&&c| region[c]).count() >= 2)
                    .count() as i64;
                let counts = game.counts(p);
                assert_eq!(2 * (counts.edges - counts.vertices), held);
            }
        }
    }

    #[test]
    fn one_pentagon_is_a_disc_and_the_hemi_dodecahedron_scores_by_hand() {
        // goldberg:1 is the hemi-dodecahedron: six pentagons, any two sharing one edge,
        // and ten vertices, each where three pentagons meet.
        let mut g = game("goldberg:1", SwapRule(None));
        let board = g.complex().board();
        assert_eq!(
            (board.cell_count(), board.edge_count(), board.vertex_count()),
            (6, 15, 10)
        );
        let corner = board.vertex_cells(0).to_vec();
        let mut others: Vec<usize> = (0..6).filter(|c| !corner.contains(c)).collect();
        // X: a pentagon (a disc: V 5, E 5, F 1).
        play_cells(&mut g, &[corner[0]]);
        assert_eq!(
            g.counts(Player::X),
            RegionCounts {
                vertices: 5,
                edges: 5,
                faces: 1
            }
        );
        // O takes one of the three cells away from that corner...
        play_cells(&mut g, &[others.remove(0)]);
        // ...X completes the corner: three pentagons around a vertex, still a disc.
        play_cells(&mut g, &[corner[1], others[0], corner[2]]);
        assert_eq!(g.chi(Player::X), 1);
        assert_eq!(
            g.counts(Player::X),
            RegionCounts {
                vertices: 5 * 3 - 2 * 3 + 1,
                edges: 15 - 3,
                faces: 3
            }
        );
        // O's three cells pairwise share an edge but no vertex: a Möbius band, chi 0
        // (one piece, one loop).
        play_cells(&mut g, &[others[1]]);
        assert!(g.is_full());
        assert_eq!(g.chi(Player::O), 0);
        let o = g.analysis(Player::O);
        assert_eq!((o.components, o.loops), (1, 1));
        let outcome = g.outcome().unwrap();
        assert_eq!((outcome.winner, outcome.margin), (Some(Player::X), 1));
        assert_counts_agree(&g);
    }

    #[test]
    fn the_reverse_rule_flips_the_winner() {
        for spec in &boards() {
            let mut normal = game(spec, SwapRule(None));
            let mut rng = crosscap_engine::Rng::new(5);
            normal.playout(&mut rng, &mut Budget::unlimited().meter());
            let mut reverse = normal.clone();
            reverse.rule = Rule::Reverse;
            let (n, r) = (normal.outcome().unwrap(), reverse.outcome().unwrap());
            assert_eq!(n.margin, -r.margin);
            assert_eq!(n.winner.map(Player::opponent), r.winner);
        }
    }

    /// The solver tries first, under the normal rule, a move that raises the mover's
    /// characteristic most and, under the reverse rule, one that raises it least.
    #[test]
    fn the_move_order_follows_the_rule() {
        for spec in &boards() {
            for seed in 0..4 {
                let normal = random_position(spec, SwapRule(None), 1 + seed as usize, seed);
                let mut reverse = normal.clone();
                reverse.rule = Rule::Reverse;
                let mover = normal.colour_to_move();
                let gains: Vec<i64> = normal
                    .empty_cells()
                    .map(|cell| normal.chi_gain(cell, mover))
                    .collect();
                for (g, best) in [
                    (&normal, *gains.iter().max().unwrap()),
                    (&reverse, *gains.iter().min().unwrap()),
                ] {
                    let mut moves = g.legal_moves();
                    g.order_moves(&mut moves);
                    let Move::Place(first) = moves[0] else {
                        panic!("no swap on {spec}")
                    };
                    assert_eq!(
                        g.chi_gain(first as usize, mover),
                        best,
                        "{spec} seed {seed}"
                    );
                }
            }
        }
    }

    #[test]
    fn swapping_exchanges_the_colours_and_hands_the_move_back() {
        let mut g = game("goldberg:1", SwapRule(Some(1)));
        assert!(!g.swap_available());
        assert!(g.parse_move("swap").is_err());
        let first = g.legal_moves()[0];
        g.play(&first);
        assert!(g.swap_available());
        assert_eq!(g.legal_moves().len(), 6);
        let x_chi = g.chi(Player::X);
        g.play(&g.parse_move("SWAP").unwrap());
        assert_eq!(
            g.to_move(),
            Player::X,
            "after O swaps, X moves (with O's old colour)"
        );
        assert_eq!(g.chi(Player::O), x_chi, "O now owns the first stone");
        assert!(!g.swap_available());
        assert_eq!(g.legal_moves().len(), 5);
        assert_ne!(g.position_hash(), {
            let mut unswapped = game("goldberg:1", SwapRule(Some(1)));
            unswapped.play(&first);
            unswapped.position_hash()
        });
    }

    #[test]
    fn moves_are_read_back_and_bad_ones_refused() {
        let mut g = game("goldberg:1", SwapRule::default());
        for mv in g.legal_moves() {
            assert_eq!(g.parse_move(&g.format_move(&mv)).unwrap(), mv);
        }
        let first = g.format_move(&g.legal_moves()[0]);
        g.play_text(&first).unwrap();
        assert!(matches!(
            g.parse_move(&first),
            Err(MoveError::Illegal { .. })
        ));
        assert!(matches!(
            g.parse_move("zz99"),
            Err(MoveError::Malformed { .. })
        ));
    }

    #[test]
    fn the_solver_agrees_with_brute_force_on_the_hemi_dodecahedron() {
        for swap in [None, Some(1), Some(3), Some(5)] {
            for rule in [Rule::Normal, Rule::Reverse] {
                let complex = load_board("goldberg:1").unwrap();
                let g = EulerGetter::new(complex.clone(), rule, SwapRule(swap));
                let expected = brute_force_value(&g);
                let plain = Solver::new(Budget::unlimited()).solve(&g).unwrap();
                assert_eq!(plain.value, expected, "swap {swap:?} {rule}");
                let symmetric = g
                    .clone()
                    .with_symmetries(Arc::new(complex.board().symmetries()));
                let fast = Solver::new(Budget::unlimited()).solve(&symmetric).unwrap();
                assert_eq!(fast.value, expected);
                assert_eq!(fast.best_moves, plain.best_moves);
            }
        }
    }

    #[test]
    fn the_hemi_dodecahedron_has_sixty_symmetries() {
        let complex = load_board("goldberg:1").unwrap();
        assert_eq!(complex.board().symmetries().len(), 60);
    }

    /// A random position of `stones` stones on `spec`, by random play.
    fn random_position(spec: &str, swap: SwapRule, stones: usize, seed: u64) -> EulerGetter {
        let mut g = game(spec, swap);
        let mut rng = crosscap_engine::Rng::new(seed);
        while g.placed() < stones {
            let empty = g
                .legal_moves()
                .into_iter()
                .filter(|m| *m != Move::Swap)
                .collect::<Vec<_>>();
            g.play(&empty[rng.below(empty.len())]);
        }
        g
    }

    #[test]
    fn the_solver_agrees_with_brute_force_on_endgames() {
        for spec in SMALL_BOARDS {
            let cells = load_board(spec).unwrap().cell_count();
            for seed in 0..6 {
                for swap in [SwapRule(None), SwapRule(Some(7))] {
                    let empties = 7.min(cells);
                    let g = random_position(spec, swap, cells - empties, seed);
                    let expected = brute_force_value(&g);
                    let solved = Solver::new(Budget::unlimited()).solve(&g).unwrap();
                    assert_eq!(solved.value, expected, "{spec} seed {seed}");
                    let sign = Solver::new(Budget::unlimited()).sign(&g).unwrap();
                    assert_eq!(sign, expected.signum(), "{spec} seed {seed}");
                }
            }
        }
    }

    /// The least and the most final margin over every continuation, by brute force.
    pub(crate) fn reachable_margins<G: Game>(game: &G) -> (i32, i32) {
        if let Some(outcome) = game.outcome() {
            return (outcome.margin, outcome.margin);
        }
        game.legal_moves()
            .iter()
            .map(|mv| {
                let mut child = game.clone();
                child.play(mv);
                reachable_margins(&child)
            })
            .fold((i32::MAX, i32::MIN), |(a, b), (c, d)| (a.min(c), b.max(d)))
    }

    #[test]
    fn margin_bounds_hold_every_continuation_and_often_decide() {
        let n3 = format!("file:{}/boards/n3.json", env!("CARGO_MANIFEST_DIR"));
        let mut deciding = 0;
        for spec in SMALL_BOARDS.iter().copied().chain(["taylor:3", &n3]) {
            assert!(load_board(spec).unwrap().rings_exact(), "{spec}");
            let cells = load_board(spec).unwrap().cell_count();
            for seed in 0..24 {
                let empties = 1 + seed as usize % 8.min(cells);
                let swap = SwapRule([None, Some(7)][seed as usize % 2]);
                let mut g = random_position(spec, swap, cells - empties, seed);
                if seed % 3 == 0 {
                    g.rule = Rule::Reverse;
                }
                let (low, high) = reachable_margins(&g);
                match g.margin_bounds() {
                    Some((least, most)) => {
                        assert!(least <= low && high <= most, "{spec} seed {seed}");
                        deciding += usize::from(least > 0 || most < 0);
                    }
                    None => assert!(g.swap_pending(), "{spec} seed {seed}"),
                }
            }
        }
        assert!(deciding > 10, "the bounds decide some endgames: {deciding}");
    }

    #[test]
    fn symmetric_positions_hash_alike_and_score_alike() {
        for spec in SMALL_BOARDS {
            let complex = load_board(spec).unwrap();
            let symmetries = Arc::new(complex.board().symmetries());
            assert!(symmetries.len() > 1, "{spec} has symmetries");
            for seed in 0..4 {
                let g = random_position(spec, SwapRule(None), complex.cell_count() / 2, seed);
                let hashed = g.clone().with_symmetries(symmetries.clone());
                for map in symmetries.maps() {
                    let mapped = Symmetries::image(map, g.stones());
                    let text = complex.board().format_position(&mapped);
                    let image = EulerGetter::from_position(
                        complex.clone(),
                        &text,
                        Rule::Normal,
                        SwapRule(None),
                    )
                    .unwrap()
                    .with_symmetries(symmetries.clone());
                    assert_eq!(image.position_hash(), hashed.position_hash());
                    for p in Player::BOTH {
                        assert_eq!(image.counts(p), g.counts(p));
                    }
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, rng_seed: proptest::test_runner::RngSeed::Fixed(7), ..ProptestConfig::default() })]

        #[test]
        fn incremental_counts_match_a_recount_and_full_boards_add_up(seed in any::<u64>()) {
            for spec in &boards() {
                let mut g = game(spec, SwapRule::default());
                let mut rng = crosscap_engine::Rng::new(seed);
                while let Some(mv) = g.random_move(&mut rng) {
                    g.play(&mv);
                    assert_counts_agree(&g);
                }
                let surface = g.complex().board().euler_characteristic();
                prop_assert_eq!(g.chi(Player::X) + g.chi(Player::O), surface);
                prop_assert!(g.outcome().unwrap().winner.is_some());
            }
        }
    }
}
