//! The rules: placing stones, incremental loop detection, the swap rule and
//! cut-and-choose, and game records.

use std::sync::{Arc, OnceLock};

use crosscap_engine::{Game, Meter, MoveError, Notation, Outcome, Player, Rng};
use crosscap_topology::{Board, Symmetries};
use serde::{Deserialize, Serialize};

use crate::HexError;
use crate::loops;

/// How the first player's advantage is offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Opening {
    /// X simply moves first.
    #[default]
    Standard,
    /// The pie rule: after X's first stone, O may answer `swap` and take it over (the
    /// stone turns O and X moves again).
    Swap,
    /// The seed's 3-move cut-and-choose: X places three stones, X O X, then O either
    /// plays on as O or answers `swap` to take the X colour (the colours of all stones
    /// are exchanged and X, the cutter, moves next).
    CutAndChoose,
}

impl Opening {
    pub const ALL: [Opening; 3] = [Opening::Standard, Opening::Swap, Opening::CutAndChoose];

    /// The openings' names, as options and flags take them.
    pub const NAMES: &'static [&'static str] = &["standard", "swap", "cut-and-choose"];

    /// Stones the first player places before the second chooses a colour.
    pub fn cut_stones(self) -> usize {
        match self {
            Opening::Standard => 0,
            Opening::Swap => 1,
            Opening::CutAndChoose => 3,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Opening::Standard => "standard",
            Opening::Swap => "swap",
            Opening::CutAndChoose => "cut-and-choose",
        }
    }
}

impl std::str::FromStr for Opening {
    type Err = HexError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Opening::ALL
            .into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| HexError::UnknownOpening(s.to_string()))
    }
}

/// A move: a stone on a cell, or the second player's colour choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    Cell(u32),
    Swap,
}

/// What the search and the rules need of a board, precomputed once and shared by every
/// position on it.
#[derive(Debug)]
pub struct Geometry {
    board: Board,
    side_start: Vec<usize>,
    side_neighbor: Vec<u32>,
    side_class: Vec<u64>,
    zobrist: Vec<[u64; 2]>,
    /// Keys of the opening phase (how many stones were placed, up to the colour choice).
    phase_keys: [u64; 5],
    o_to_move_key: u64,
    projective: bool,
    /// Cells whose closed polygon is an embedded disk ringed by distinct neighbours on a
    /// trivalent board, where the dead-cell rule applies.
    ringed: Vec<bool>,
    /// Whether no cell has two sides towards the same cell (or a side towards itself).
    simple_sides: bool,
    /// The board's symmetries, computed on first use and shared by every search.
    symmetries: OnceLock<Symmetries>,
    /// The bridges through each cell ([`Geometry::bridges_through`]), computed on first use.
    bridges: OnceLock<Bridges>,
}

/// A bridge: two cells that do not touch and share exactly two neighbours, the carrier.
/// When one carrier cell is taken, the other still joins the two ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bridge {
    /// The two cells the bridge joins, the lower first.
    pub ends: [u32; 2],
    /// The carrier cell that is not the one the bridge was looked up by.
    pub other: u32,
}

/// Every bridge, listed under each of its two carrier cells.
#[derive(Clone, Debug)]
struct Bridges {
    start: Vec<usize>,
    bridges: Vec<Bridge>,
}

impl Bridges {
    /// Empty on boards where a cell meets another twice (no Hex geometry to rely on).
    fn of(geometry: &Geometry) -> Bridges {
        let n = geometry.cell_count();
        let mut start = vec![0];
        let mut bridges = Vec::new();
        let neighbours: Vec<Vec<usize>> = (0..n)
            .map(|c| geometry.sides(c).map(|(nb, _)| nb).collect())
            .collect();
        for cell in 0..n {
            if geometry.has_simple_sides() {
                for (i, &a) in neighbours[cell].iter().enumerate() {
                    for &b in &neighbours[cell][i + 1..] {
                        if neighbours[a].contains(&b) {
                            continue;
                        }
                        let common: Vec<usize> = neighbours[a]
                            .iter()
                            .copied()
                            .filter(|c| neighbours[b].contains(c))
                            .collect();
                        if let [x, y] = common[..] {
                            let other = if x == cell { y } else { x };
                            bridges.push(Bridge {
                                ends: [a.min(b) as u32, a.max(b) as u32],
                                other: other as u32,
                            });
                        }
                    }
                }
            }
            start.push(bridges.len());
        }
        Bridges { start, bridges }
    }
}

impl Geometry {
    pub fn new(board: Board) -> Result<Geometry, HexError> {
        let n = board.cell_count();
        if n == 0 || n > u32::MAX as usize {
            return Err(HexError::BoardSize { cells: n });
        }
        let mut side_start = vec![0];
        let mut side_neighbor = Vec::new();
        let mut side_class = Vec::new();
        for cell in 0..n {
            for side in board.sides(cell) {
                side_neighbor.push(side.neighbor as u32);
                side_class.push(side.class);
            }
            side_start.push(side_neighbor.len());
        }
        let mut rng = Rng::new(0x005E_ED0F_4EC5);
        let zobrist = (0..n).map(|_| [rng.next_u64(), rng.next_u64()]).collect();
        let phase_keys = [0; 5].map(|_: u64| rng.next_u64());
        let o_to_move_key = rng.next_u64();
        let projective = !board.is_orientable() && board.euler_characteristic() == 1;
        let trivalent = board.is_trivalent();
        let ringed = (0..n)
            .map(|cell| {
                let sides = board.sides(cell);
                let neighbors = board.neighbors(cell);
                let vertices = board.cell_vertices(cell);
                let mut distinct_vertices = vertices.to_vec();
                distinct_vertices.sort_unstable();
                distinct_vertices.dedup();
                trivalent
                    && sides.len() >= 3
                    && neighbors.len() == sides.len()
                    && !neighbors.contains(&cell)
                    && distinct_vertices.len() == vertices.len()
            })
            .collect();
        let simple_sides = (0..n).all(|c| {
            board.neighbors(c).len() == board.sides(c).len() && !board.neighbors(c).contains(&c)
        });
        Ok(Geometry {
            board,
            side_start,
            side_neighbor,
            side_class,
            zobrist,
            phase_keys,
            o_to_move_key,
            projective,
            ringed,
            simple_sides,
            symmetries: OnceLock::new(),
            bridges: OnceLock::new(),
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Every symmetry of the board (computed once).
    pub fn symmetries(&self) -> &Symmetries {
        self.symmetries.get_or_init(|| self.board.symmetries())
    }

    pub fn cell_count(&self) -> usize {
        self.zobrist.len()
    }

    /// The bridges whose carrier holds `cell` (see [`Bridge`]; computed once).
    pub fn bridges_through(&self, cell: usize) -> &[Bridge] {
        let bridges = self.bridges.get_or_init(|| Bridges::of(self));
        &bridges.bridges[bridges.start[cell]..bridges.start[cell + 1]]
    }

    /// The sides of `cell` as (neighbour, homology class), in cyclic order.
    pub fn sides(&self, cell: usize) -> impl Iterator<Item = (usize, u64)> + '_ {
        let range = self.side_start[cell]..self.side_start[cell + 1];
        self.side_neighbor[range.clone()]
            .iter()
            .zip(&self.side_class[range])
            .map(|(&n, &k)| (n as usize, k))
    }

    /// Whether the board is a projective plane, where a loop is global exactly when its
    /// class is non-zero and, on trivalent boards, a full board has exactly one.
    pub fn is_projective(&self) -> bool {
        self.projective
    }

    pub(crate) fn is_ringed(&self, cell: usize) -> bool {
        self.ringed[cell]
    }

    /// Whether full boards always have exactly one loop: a trivalent projective plane.
    pub fn decides_full_boards(&self) -> bool {
        self.projective && self.board.is_trivalent()
    }

    pub(crate) fn has_simple_sides(&self) -> bool {
        self.simple_sides
    }
}

/// A union-find node: `label` is the homology class of a path from the cell to `parent`
/// through stones of its colour. Before any loop of non-zero class exists, every closed
/// path in a component has class zero, so the labels are well defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Link {
    parent: u32,
    size: u32,
    label: u64,
}

/// Union-find over the stones of both colours (components never mix colours).
#[derive(Clone, Debug)]
pub(crate) struct Components {
    links: Vec<Link>,
}

impl Components {
    pub(crate) fn new(cells: usize) -> Self {
        Components {
            links: (0..cells as u32)
                .map(|c| Link {
                    parent: c,
                    size: 1,
                    label: 0,
                })
                .collect(),
        }
    }

    /// The root of `cell` and the class of a path from the cell to it (no compression,
    /// for read-only callers).
    pub(crate) fn find(&self, mut cell: usize) -> (usize, u64) {
        let mut label = 0;
        loop {
            let link = self.links[cell];
            if link.parent as usize == cell {
                return (cell, label);
            }
            label ^= link.label;
            cell = link.parent as usize;
        }
    }

    fn find_compress(&mut self, cell: usize) -> (usize, u64) {
        let (root, label) = self.find(cell);
        // Point every cell on the path straight at the root.
        let mut at = cell;
        let mut to_root = label;
        while at != root {
            let link = self.links[at];
            self.links[at].parent = root as u32;
            self.links[at].label = to_root;
            to_root ^= link.label;
            at = link.parent as usize;
        }
        (root, label)
    }

    /// Joins `a` and `b` across a side of class `class`; returns the class of the closed
    /// path this closes when they were already joined (0 when contractible or a merge).
    pub(crate) fn join(&mut self, a: usize, b: usize, class: u64) -> u64 {
        let (ra, la) = self.find_compress(a);
        let (rb, lb) = self.find_compress(b);
        let through = la ^ class ^ lb;
        if ra == rb {
            return through;
        }
        let (small, large) = if self.links[ra].size < self.links[rb].size {
            (ra, rb)
        } else {
            (rb, ra)
        };
        self.links[small].parent = large as u32;
        self.links[small].label = through;
        self.links[large].size += self.links[small].size;
        0
    }
}

/// A Projective Hex position (and the game so far): the board, the stones, the union-find
/// of their components, whose turn it is and the moves played.
#[derive(Clone, Debug)]
pub struct ProjectiveHex {
    geometry: Arc<Geometry>,
    opening: Opening,
    cells: Vec<Option<Player>>,
    components: Components,
    to_move: Player,
    winner: Option<Player>,
    empty: usize,
    /// Zobrist hash of the stones.
    hash: u64,
    /// Moves played since the start position.
    history: Vec<Move>,
    /// The start position when the game did not start from an empty board.
    start: Option<String>,
    swapped: bool,
}

impl ProjectiveHex {
    /// A new game on an empty board.
    pub fn new(geometry: Arc<Geometry>, opening: Opening) -> Self {
        let n = geometry.cell_count();
        ProjectiveHex {
            opening,
            cells: vec![None; n],
            components: Components::new(n),
            to_move: Player::X,
            winner: None,
            empty: n,
            hash: 0,
            history: Vec::new(),
            start: None,
            swapped: false,
            geometry,
        }
    }

    /// A game on `spec` (e.g. `taylor:3`) from the empty board.
    pub fn on_board(spec: &str, opening: Opening) -> Result<Self, HexError> {
        Ok(ProjectiveHex::new(
            Arc::new(Geometry::new(Board::from_spec(spec)?)?),
            opening,
        ))
    }

    /// The position given by stones and the player to move (the colour choice of the
    /// opening, if any, is taken as made). Refused when both players have a global loop,
    /// which no game reaches.
    pub fn from_stones(
        geometry: Arc<Geometry>,
        stones: &[Option<Player>],
        to_move: Player,
    ) -> Result<Self, HexError> {
        let n = geometry.cell_count();
        if stones.len() != n {
            return Err(HexError::PositionSize {
                expected: n,
                found: stones.len(),
            });
        }
        let mut game = ProjectiveHex::new(geometry, Opening::Standard);
        let mut looped = [false; 2];
        for (cell, stone) in stones.iter().enumerate() {
            if let Some(player) = *stone {
                looped[player.index()] |= game.place(cell, player);
            }
        }
        game.winner = match looped {
            [true, true] => return Err(HexError::BothLoops),
            [true, false] => Some(Player::X),
            [false, true] => Some(Player::O),
            [false, false] => None,
        };
        game.to_move = to_move;
        game.start = Some(game.board().format_position(&game.cells));
        Ok(game)
    }

    /// Parses a position string of the board (see the topology crate).
    pub fn from_position_text(geometry: Arc<Geometry>, text: &str) -> Result<Self, HexError> {
        let position = geometry.board().parse_position(text)?;
        ProjectiveHex::from_stones(geometry, &position.cells, position.to_move)
    }

    pub fn geometry(&self) -> &Arc<Geometry> {
        &self.geometry
    }

    pub fn board(&self) -> &Board {
        self.geometry.board()
    }

    pub fn opening(&self) -> Opening {
        self.opening
    }

    pub fn stones(&self) -> &[Option<Player>] {
        &self.cells
    }

    pub fn stone(&self, cell: usize) -> Option<Player> {
        self.cells[cell]
    }

    pub fn winner(&self) -> Option<Player> {
        self.winner
    }

    pub fn history(&self) -> &[Move] {
        &self.history
    }

    /// Whether the second player chose the first player's colour (swap).
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    /// Empty cells left.
    pub fn empty_count(&self) -> usize {
        self.empty
    }

    /// Whether the opening's cut is still being made or the colour choice is pending:
    /// moves are then not ordinary moves of their mover's colour.
    pub fn in_opening(&self) -> bool {
        self.start.is_none()
            && self.opening != Opening::Standard
            && self.history.len() <= self.opening.cut_stones()
    }

    /// Whether `swap` is legal now.
    pub fn can_swap(&self) -> bool {
        self.winner.is_none()
            && self.start.is_none()
            && self.opening != Opening::Standard
            && self.history.len() == self.opening.cut_stones()
    }

    /// The colour of the stone the next placement puts down.
    pub fn stone_to_place(&self) -> Player {
        let placed = self.history.len();
        if self.start.is_none() && placed < self.opening.cut_stones() {
            if placed.is_multiple_of(2) {
                Player::X
            } else {
                Player::O
            }
        } else {
            self.to_move
        }
    }

    /// One global loop of the winner, as cells in order around it (the shortest there
    /// is); `None` while nobody has won.
    pub fn winning_loop(&self) -> Option<Vec<usize>> {
        let winner = self.winner?;
        loops::shortest_global_loop(&self.geometry, &self.cells, winner)
    }

    /// The cells that would complete a global loop for `player` at once.
    pub fn winning_cells(&self, player: Player) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&c| self.cells[c].is_none() && self.completes_loop(c, player))
            .collect()
    }

    /// The cells where `player` could close a global loop after also taking the empty
    /// `cell` (which must not close one itself).
    pub fn winning_cells_after(&self, cell: usize, player: Player) -> Vec<usize> {
        let mut after = self.clone();
        after.place(cell, player);
        after.winning_cells(player)
    }

    /// Whether a stone of `player` on the empty `cell` would close a global loop.
    pub fn completes_loop(&self, cell: usize, player: Player) -> bool {
        let mut reached: [(usize, u64); 8] = [(usize::MAX, 0); 8];
        let mut count = 0;
        for (n, class) in self.geometry.sides(cell) {
            if n == cell {
                if class != 0 {
                    return true;
                }
                continue;
            }
            if self.cells[n] != Some(player) {
                continue;
            }
            let (root, label) = self.components.find(n);
            let through = label ^ class;
            for &(r, l) in &reached[..count.min(reached.len())] {
                if r == root && l != through {
                    return true;
                }
            }
            if count < reached.len() {
                reached[count] = (root, through);
            } else if self.completes_loop_slow(cell, player) {
                return true;
            }
            count += 1;
        }
        false
    }

    /// The same check for cells with more than eight sides.
    fn completes_loop_slow(&self, cell: usize, player: Player) -> bool {
        let reached: Vec<(usize, u64)> = self
            .geometry
            .sides(cell)
            .filter(|&(n, _)| n != cell && self.cells[n] == Some(player))
            .map(|(n, class)| {
                let (root, label) = self.components.find(n);
                (root, label ^ class)
            })
            .collect();
        reached
            .iter()
            .any(|&(r, l)| reached.iter().any(|&(r2, l2)| r == r2 && l != l2))
    }

    /// Puts a stone and joins it to its neighbours; true when that closes a global loop.
    fn place(&mut self, cell: usize, player: Player) -> bool {
        debug_assert!(self.cells[cell].is_none());
        self.cells[cell] = Some(player);
        self.empty -= 1;
        self.hash ^= self.geometry.zobrist[cell][player.index()];
        let mut looped = false;
        let geometry = Arc::clone(&self.geometry);
        for (n, class) in geometry.sides(cell) {
            if self.cells[n] == Some(player) && self.components.join(cell, n, class) != 0 {
                looped = true;
            }
        }
        looped
    }

    fn stones_hash(&self) -> u64 {
        let mut hash = 0;
        for (cell, stone) in self.cells.iter().enumerate() {
            if let Some(p) = stone {
                hash ^= self.geometry.zobrist[cell][p.index()];
            }
        }
        hash
    }

    /// Plays a legal move.
    fn apply(&mut self, mv: &Move) {
        match *mv {
            Move::Cell(cell) => {
                let colour = self.stone_to_place();
                if self.place(cell as usize, colour) {
                    self.winner = Some(colour);
                }
            }
            Move::Swap => {
                for stone in self.cells.iter_mut().flatten() {
                    *stone = stone.opponent();
                }
                self.swapped = !self.swapped;
                self.hash = self.stones_hash();
            }
        }
        self.history.push(*mv);
        self.to_move = if *mv == Move::Swap
            || (self.in_opening() && self.history.len() < self.opening.cut_stones())
        {
            Player::X
        } else {
            self.to_move.opponent()
        };
    }

    /// The game record: board, opening, start position (when not empty) and moves.
    pub fn record(&self) -> GameRecord {
        GameRecord {
            board: self.board().spec().to_string(),
            opening: self.opening,
            position: self.start.clone(),
            moves: self.history.iter().map(|m| self.format_move(m)).collect(),
        }
    }

    /// Fills every empty cell at random (X and O alternating from the player to move,
    /// after finishing the opening's cut with random moves), then scores the full board.
    /// On a trivalent projective plane exactly one player has a loop on a full board, and
    /// whoever has it is the one who closes a loop first in any order of play, so this
    /// is a complete random game. Elsewhere it plays move by move. Each move is appended
    /// to `record` when given.
    pub fn fill_playout(
        &mut self,
        rng: &mut Rng,
        mut record: Option<&mut Vec<(Player, Move)>>,
        bridge_save: bool,
    ) -> Outcome {
        loop {
            if let Some(winner) = self.winner {
                return Outcome::win(winner);
            }
            if !self.in_opening() && self.fill_scores() {
                break;
            }
            let Some(mv) = self.random_move(rng) else {
                return Outcome::scored(0, None);
            };
            if let Some(r) = record.as_deref_mut() {
                r.push((self.to_move, mv));
            }
            self.apply(&mv);
        }
        let mut empties: Vec<usize> = (0..self.cells.len())
            .filter(|&c| self.cells[c].is_none())
            .collect();
        rng.shuffle(&mut empties);
        // With `bridge_save`, where each empty cell stands in the fill order, so that a
        // bridge reply can be brought forward.
        let mut order = Vec::new();
        if bridge_save {
            order = vec![usize::MAX; self.cells.len()];
            for (i, &cell) in empties.iter().enumerate() {
                order[cell] = i;
            }
        }
        let mut last = self.last_cell();
        let first = self.to_move;
        let mut x_looped = false;
        for i in 0..empties.len() {
            let player = if i % 2 == 0 { first } else { first.opponent() };
            if bridge_save && let Some(reply) = last.and_then(|c| self.bridge_reply(c, player)) {
                let at = order[reply];
                order[empties[i]] = at;
                order[reply] = i;
                empties.swap(i, at);
            }
            let cell = empties[i];
            if let Some(r) = record.as_deref_mut() {
                r.push((player, Move::Cell(cell as u32)));
            }
            if player == Player::X {
                x_looped |= self.place(cell, player);
            } else {
                self.cells[cell] = Some(player);
                self.empty -= 1;
            }
            last = Some(cell);
        }
        let winner = if x_looped { Player::X } else { Player::O };
        self.winner = Some(winner);
        Outcome::win(winner)
    }

    /// The cell of the last move, unless it was the swap or no move was played.
    pub fn last_cell(&self) -> Option<usize> {
        match self.history.last()? {
            Move::Cell(c) => Some(*c as usize),
            Move::Swap => None,
        }
    }

    /// The cell that saves a bridge of `player`'s when the opponent has just played
    /// `intrusion` into its carrier: the carrier's other cell, still empty, between two
    /// stones of `player`'s (the first such bridge).
    pub fn bridge_reply(&self, intrusion: usize, player: Player) -> Option<usize> {
        if self.cells[intrusion] != Some(player.opponent()) {
            return None;
        }
        self.geometry
            .bridges_through(intrusion)
            .iter()
            .find(|b| {
                self.cells[b.other as usize].is_none()
                    && b.ends
                        .iter()
                        .all(|&e| self.cells[e as usize] == Some(player))
            })
            .map(|b| b.other as usize)
    }

    /// Whether a full board decides the game by itself (see [`Self::fill_playout`]).
    fn fill_scores(&self) -> bool {
        self.geometry.decides_full_boards()
    }
}

impl Game for ProjectiveHex {
    type Move = Move;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self) -> Vec<Move> {
        if self.winner.is_some() {
            return Vec::new();
        }
        let mut moves: Vec<Move> = (0..self.cells.len())
            .filter(|&c| self.cells[c].is_none())
            .map(|c| Move::Cell(c as u32))
            .collect();
        if self.can_swap() {
            moves.push(Move::Swap);
        }
        moves
    }

    fn play(&mut self, mv: &Move) {
        self.apply(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner {
            Some(w) => Some(Outcome::win(w)),
            None if self.empty == 0 => Some(Outcome::scored(0, None)),
            None => None,
        }
    }

    fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        size_of::<Self>()
            + self.cells.len() * size_of::<Option<Player>>()
            + self.components.links.len() * size_of::<Link>()
            + self.history.len() * size_of::<Move>()
            + self.start.as_ref().map_or(0, String::len)
    }

    fn position_hash(&self) -> u64 {
        let mut hash = self.hash;
        if self.to_move == Player::O {
            hash ^= self.geometry.o_to_move_key;
        }
        if self.in_opening() {
            hash ^= self.geometry.phase_keys[self.history.len()];
        }
        hash
    }

    fn random_move(&self, rng: &mut Rng) -> Option<Move> {
        if self.outcome().is_some() {
            return None;
        }
        let choices = self.empty + usize::from(self.can_swap());
        let mut pick = rng.below(choices);
        if pick == self.empty {
            return Some(Move::Swap);
        }
        for (cell, stone) in self.cells.iter().enumerate() {
            if stone.is_none() {
                if pick == 0 {
                    return Some(Move::Cell(cell as u32));
                }
                pick -= 1;
            }
        }
        unreachable!("fewer empty cells than counted")
    }

    /// One fill of the board: no step long enough to poll the meter.
    fn playout(&mut self, rng: &mut Rng, _meter: &mut Meter) -> Option<Outcome> {
        Some(self.fill_playout(rng, None, false))
    }
}

impl Notation for ProjectiveHex {
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let name = text.trim();
        if name.eq_ignore_ascii_case("swap") {
            return if self.can_swap() {
                Ok(Move::Swap)
            } else {
                Err(MoveError::illegal(
                    name,
                    match self.opening {
                        Opening::Standard => "this game has no swap".to_string(),
                        _ => format!(
                            "swap is only legal as the second player's reply to the first {} stone(s)",
                            self.opening.cut_stones()
                        ),
                    },
                ))
            };
        }
        let cell = self
            .board()
            .cell_index(name)
            .or_else(|| self.board().cell_index(&name.to_lowercase()))
            .ok_or_else(|| {
                MoveError::malformed(
                    name,
                    format!("no cell of {} has this name", self.board().spec()),
                )
            })?;
        if self.cells[cell].is_some() {
            return Err(MoveError::illegal(name, "the cell is taken"));
        }
        Ok(Move::Cell(cell as u32))
    }

    fn format_move(&self, mv: &Move) -> String {
        match *mv {
            Move::Cell(cell) => self.board().cell_name(cell as usize).to_string(),
            Move::Swap => "swap".to_string(),
        }
    }
}

/// A game as text: the board spec, the opening rule, the start position when the game
/// did not start from an empty board, and the moves in notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    pub board: String,
    #[serde(default)]
    pub opening: Opening,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    pub moves: Vec<String>,
}

impl GameRecord {
    /// Replays the record, checking every move.
    pub fn replay(&self) -> Result<ProjectiveHex, HexError> {
        let geometry = Arc::new(Geometry::new(Board::from_spec(&self.board)?)?);
        let mut game = match &self.position {
            Some(text) => ProjectiveHex::from_position_text(geometry, text)?,
            None => ProjectiveHex::new(geometry, self.opening),
        };
        for mv in &self.moves {
            game.play_text(mv)?;
        }
        Ok(game)
    }
}
