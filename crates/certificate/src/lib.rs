//! Certificates of solved Projective Hex and Euler Getter positions: strategies written out
//! as DAGs over positions, and [`verify`], a checker small enough to audit that trusts
//! nothing from the solver that wrote it. It links no solver: only the board model
//! (`topology`, which re-derives the board from its spec: cells, sides, vertices and edges,
//! and each side's Z2 homology class) and the zstd decoder.
//!
//! ```
//! use crosscap_certificate::{Certificate, verify};
//! use crosscap_engine::Player;
//!
//! // On the hemi-dodecahedron (six pentagons, each next to the other five), O to move
//! // wins: O takes 6; X must block 3 or 5, and O closes a loop with the other.
//! let text = "crosscap-certificate 1\ngame projective-hex\nboard goldberg:1\n\
//!             claim XO.X.. O 3\nnodes 4\nm 5\nm 3\nr 2 1\nm 6 1\n";
//! let proved = verify(&Certificate::read(text.as_bytes())?)?;
//! assert_eq!(proved.claims[0].winner, Player::O);
//! // O's first move changed to 5: one of X's replies at node 2 then closes a loop of X's.
//! let changed = text.replace("m 6 1", "m 5 1");
//! let refused = verify(&Certificate::read(changed.as_bytes())?).unwrap_err();
//! assert_eq!(refused.node, Some(2));
//! assert!(refused.reason.contains("closes a loop"), "{refused}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The format (versions 1 to 4)
//!
//! A text file, zstd-compressed when written by [`Certificate::save`] (the reader takes the
//! plain text too, so `zstd -d` gives a file a person can read and check again). The
//! example above, line by line: the format, the game, the board's spec (re-derived by the
//! checker), one `claim` line per claim, the number of nodes, then the nodes, numbered
//! from 0:
//!
//! - `claim POSITION WINNER ROOT`, one line per claim: the stones of the start position in
//!   cell order (`.` empty, `X`, `O`; X moves first, so X is to move when both have as many
//!   stones), the player who wins from it whatever the other does, and the node the
//!   strategy starts at.
//! - `m CELL BACK`: the winner's node, one move; the strategy goes on at the node `BACK`
//!   lines above. `m CELL` alone: the move closes a loop and wins.
//! - `r BACK BACK ...`: the loser's node, one reply a number, for every empty cell in cell
//!   order: where the strategy goes on after the loser takes that cell.
//! - `h A B C D ...`: a leaf, whoever is to move: a loop held by bridges, the pairs of
//!   empty cells (A, B), (C, D), ... The checker tries every choice of one cell from each
//!   pair (at most [`MAX_BRIDGES`] pairs) and finds a loop in the winner's stones and the
//!   cells chosen each time. The winner then wins by answering in the pair the loser
//!   plays in (and playing anywhere else otherwise), and the loser cannot make a loop
//!   first: on the projective plane two loops of cells always share a cell (curves of
//!   the non-zero class cross an odd number of times, and the curves through cell centres
//!   meet only at cells), while the winner's loop to come avoids every loser's stone. So
//!   the checker accepts `h` only on a board that is a projective plane.
//!
//! - `c A B C ...` (version 2): a leaf, whoever is to move: a *carrier*, at most
//!   [`MAX_CARRIER`] empty cells inside which the winner wins. The checker gives every
//!   other empty cell to the loser (who must not have a loop then), and searches every
//!   line of play inside the carrier from the node's player to move (one winner's move
//!   must win where the winner moves, every reply where the loser does; a memo indexed by
//!   the carrier's contents, at most 3^12 positions), requiring that the winner closes a
//!   loop on every line. Why that proves the win in the real game, on a projective plane
//!   only (the checker refuses `c` elsewhere): there a full board holds exactly one
//!   player's loop (two loops of cells share a cell, as above, and some loop there always
//!   is) and loops never disappear, so the game is decided by who owns the loop once the
//!   board is full, and an extra stone never hurts its owner. In the real game the winner
//!   plays the searched strategy; a loser's move outside the carrier takes a cell the
//!   check already gave the loser, so it changes nothing the search did not assume, and
//!   the winner answers it anywhere (the extra stone cannot hurt; should the strategy
//!   later ask for that cell, any other will do). So a win in the restricted game is a
//!   win in the real one. The solver writes a carrier where its proof set (the cells its
//!   argument uses) holds few empty cells; the check does not trust that proof set, it
//!   searches the carrier itself, so a wrong one makes the certificate invalid, never a
//!   false proof.
//!
//! A node refers only to nodes above it, so the graph has no cycle; a position reached
//! along several paths (a transposition) is one node, and every path must reach it with the
//! same stones. Leaves are a winner's move that closes a loop, a held loop and a carrier;
//! the loops the checker finds itself: a chain of one player's cells, each next to the
//! last, whose Z2 homology class is not zero. Version 2 is version 1 with carrier leaves:
//! a certificate without them is written as version 1, and the reader takes both.
//!
//! Version 4 adds the symmetry lines and `s MAP BACK` nodes described for Euler Getter
//! below. Here the checker accepts a map only when it takes the sides of the cells (each
//! as the cell across and the Z2 class of the step) onto sides, each class changed by at
//! most a class chosen per cell added at both ends of the step: around any closed chain
//! those additions cancel, so every chain keeps its class, a position holds a loop exactly
//! when its image does, and every line of play is carried to one. `--all-openings` writes
//! them to prove every first move, each symmetric one carried onto the one it searched.
//!
//! # Euler Getter (`game euler-getter`)
//!
//! The same lines with three differences. A claim is `claim POSITION PLAYER AT_LEAST ROOT`:
//! from the position, PLAYER's strategy at ROOT ends every game with PLAYER's Euler
//! characteristic at least AT_LEAST above the other's, whatever the other does (the swap
//! rule is off: X moves first and the players alternate, as above). `m CELL BACK` is
//! PLAYER's move (always with its next node), `r` the other's replies, and the leaves are
//! `e`: an endgame of at most [`MAX_ENDGAME`] empty cells (a full board is one of none),
//! which the checker settles itself by a search of every line of play from it: where
//! PLAYER moves, one move must keep the claim, where the other moves, every reply must,
//! down to full boards it scores. That is the definition of the claim, so the leaf is
//! sound whatever the certificate says; the search remembers each position of the endgame
//! it settled (its table indexed by the contents of the leaf's empty cells, at most 3^12
//! entries) and tries first the move that settled the last position of as many empty
//! cells, which changes only how soon it settles, not what. Two claims from one position,
//! one for each player, with AT_LEAST `a` and `-a`, prove the exact result with perfect
//! play: the margin `a`, neither side can do better. That is the claim `euler-getter solve
//! --certificate` writes, one strategy for the winner and one for the loser.
//!
//! Version 3 adds `p A B C D ... [S]`: a *pairing* leaf where the other player is to move,
//! the empty cells as pairs (A, B), (C, D), ... (at most [`MAX_PAIRS`]) and, when they are
//! odd, a single cell S. PLAYER answers each move in the partner cell (a move on S in any
//! pair, whose partner becomes the single cell), so every game ends with each pair split
//! one and one and S the other's; the checker scores each of the 2^pairs full boards by
//! its own count and requires the claim on all of them.
//!
//! Version 4 adds symmetries: lines `symmetry A B C ...` between the board and the claims,
//! each the image of every cell in cell order, and nodes `s MAP BACK`: the position
//! carried by symmetry MAP (numbered from 0 in the order of the lines) is the one of the
//! node BACK lines above, whose strategy, carried back, is this node's. The checker
//! accepts a map only when it takes the board's vertices, edges and cells (each as the set
//! of cells around it) onto vertices, edges and cells: then every full board has the
//! margin of its image (the count below reads nothing else), and every line of play (any
//! empty cell is a move) is carried to one, so a claim holds from a position exactly when
//! it holds from the image. A position reached in several symmetric ways is then proved
//! once: on taylor:3, O's answers to X's 27 first moves are 6 strategies and their images.
//!
//! The checker scores each full board by its own count, `V - E + F` of the closure of each
//! player's cells: a vertex or an edge counts when a cell of the player's touches it. It
//! re-derives the board from its spec through `topology`, the board model the Projective Hex
//! check already trusts, rather than reading a complex from the certificate: then nothing
//! about the complex needs checking (a complex in the file would need a check that it is a
//! closed trivalent surface matching the spec, more code to trust than it saves). The
//! claims need no surface condition either: each is about the two counts alone.

mod check;
mod endgame;
mod euler;
mod loops;

use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

use crosscap_engine::Player;
use crosscap_engine::text::escape_controls;
use crosscap_topology::{Board, MAX_BOARD_FILE_BYTES};
use serde::Serialize;

pub use check::{Report, Verified, check_file, default_threads, verify, verify_on};
pub use euler::{ResultSummary, ScoreSummary};

/// The most empty cells of an Euler Getter endgame leaf, which the checker settles by its
/// own search of every line of play (at most 3^12 positions a leaf).
pub const MAX_ENDGAME: usize = 12;
/// The most empty cells of a Projective Hex carrier leaf, inside which the checker
/// searches every line of play (at most 3^12 positions a leaf).
pub const MAX_CARRIER: usize = 12;
/// The most bridges of a held loop (the checker tries 2^bridges choices).
pub const MAX_BRIDGES: usize = 16;
/// The most pairs of an Euler Getter pairing leaf (the checker scores 2^pairs full boards).
pub const MAX_PAIRS: usize = 10;
/// The first line of every certificate, before its version: the format's name.
const MAGIC: &str = "crosscap-certificate";
/// The version of certificates without carrier or pairing leaves, of those with carriers,
/// and of those with pairing leaves.
const VERSION: u32 = 1;
const CARRIER_VERSION: u32 = 2;
const PAIRING_VERSION: u32 = 3;
/// The version of Euler Getter certificates with symmetries.
const SYMMETRY_VERSION: u32 = 4;
/// The games certificates are written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Who wins: claims are [`Claim`]s, leaves closing moves, held loops and carriers.
    ProjectiveHex,
    /// By how much: claims are [`ScoreClaim`]s, leaves endgames.
    EulerGetter,
}

impl Kind {
    /// The game's name on the certificate's `game` line (and in the CLI).
    pub fn name(self) -> &'static str {
        match self {
            Kind::ProjectiveHex => "projective-hex",
            Kind::EulerGetter => "euler-getter",
        }
    }
}

/// What a certificate may hold, checked while it is read, before the memory is spent: a
/// small zstd file can unpack to any size, and the checker keeps every node's position.
/// The longest line: a board pasted as JSON ([`MAX_BOARD_FILE_BYTES`]) and its key.
const MAX_LINE_BYTES: usize = MAX_BOARD_FILE_BYTES as usize + 64;
/// The most text (the largest certificate written, Euler Getter taylor:3, is 122 MB).
const MAX_TEXT_BYTES: usize = 1 << 30;
/// The most nodes (that certificate has 5.9 million).
const MAX_NODES: u32 = 1 << 26;
/// The most memory the nodes' positions may take in the checker (two bits a cell).
const MAX_POSITION_BYTES: u64 = 2 << 30;

/// How hard [`Certificate::save`] compresses (zstd's levels run to 22).
const COMPRESSION_LEVEL: i32 = 19;
/// The first bytes of a zstd frame.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// Strategies from one or more start positions: winning ones (Projective Hex) or ones
/// that guarantee a score (Euler Getter).
#[derive(Clone, Debug)]
pub struct Certificate {
    pub kind: Kind,
    pub board: Board,
    /// Projective Hex's claims.
    pub claims: Vec<Claim>,
    /// Euler Getter's claims.
    pub scores: Vec<ScoreClaim>,
    pub nodes: Vec<Node>,
    /// The cell maps [`Node::Symmetry`] names: each the image of every cell, in cell order.
    pub symmetries: Vec<Vec<u32>>,
    /// The targets of the loser's replies and the cells of held loops and carriers, which
    /// [`Node::Replies`], [`Node::Held`] and [`Node::Carrier`] index into.
    pub lists: Vec<u32>,
}

/// What a certificate claims: `winner` wins from `stones` by the strategy at `root`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    pub stones: Vec<Option<Player>>,
    pub winner: Player,
    pub root: u32,
}

/// What an Euler Getter certificate claims: from `stones`, `player`'s strategy at `root`
/// ends every game with `player`'s Euler characteristic at least `at_least` above the
/// other's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreClaim {
    pub stones: Vec<Option<Player>>,
    pub player: Player,
    pub at_least: i32,
    pub root: u32,
}

/// A claim in words: the start position, its stones by cell name, who moves, who wins.
#[derive(Clone, Debug, Serialize)]
pub struct ClaimSummary {
    /// Stones in cell order (`.` empty).
    pub position: String,
    pub x: Vec<String>,
    pub o: Vec<String>,
    pub to_move: Player,
    pub winner: Player,
}

impl fmt::Display for ClaimSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} wins from {}",
            self.winner,
            start_text(&self.x, &self.o, self.to_move)
        )
    }
}

/// A start position in words: `X a1,b2 / O - (O to move)`.
fn start_text(x: &[String], o: &[String], to_move: Player) -> String {
    let stones = |names: &[String]| match names {
        [] => "-".to_string(),
        names => names.join(","),
    };
    format!("X {} / O {} ({to_move} to move)", stones(x), stones(o))
}

/// A start position: its stones in cell order (`.` empty), by cell name, and who moves.
#[derive(Clone, Debug, Serialize)]
pub struct Start {
    pub position: String,
    pub x: Vec<String>,
    pub o: Vec<String>,
    pub to_move: Player,
}

impl fmt::Display for Start {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&start_text(&self.x, &self.o, self.to_move))
    }
}

/// A node of the strategy (its position is the one every path from a claim reaches).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// The winner's move, and the node after it (`None`: the move closes a loop).
    Move { cell: u32, next: Option<u32> },
    /// The loser's replies: `lists[first..first + count]`, one per empty cell in cell
    /// order.
    Replies { first: u32, count: u32 },
    /// A leaf: a loop held by bridges, `lists[first..first + count]` the bridges' cells,
    /// two by two.
    Held { first: u32, count: u32 },
    /// A leaf: the winner wins inside the carrier, the empty cells
    /// `lists[first..first + count]` (at most [`MAX_CARRIER`]), the loser given the others.
    Carrier { first: u32, count: u32 },
    /// An Euler Getter leaf: an endgame of at most [`MAX_ENDGAME`] empty cells, which the
    /// checker searches and scores itself.
    Endgame,
    /// An Euler Getter leaf, the other to move: the claim's player answers every move in
    /// the partner cell. `lists[first..first + count]` are the pairs (at most
    /// [`MAX_PAIRS`]) side by side, then the single cell left when the empty cells are odd.
    Pairs { first: u32, count: u32 },
    /// An Euler Getter node: the position carried by the symmetry `map` (an index into
    /// [`Certificate::symmetries`]) is `next`'s, whose strategy, carried back, is this one's.
    Symmetry { map: u32, next: u32 },
}

/// Why a certificate was not accepted.
#[derive(Debug, thiserror::Error)]
pub enum CertificateError {
    /// The input is not a certificate at all (exit status 2 in the CLI).
    #[error("{0}")]
    Unreadable(String),
    /// The certificate is read but proves nothing (exit status 1 in the CLI).
    #[error("{0}")]
    Invalid(#[from] Invalid),
}

/// The first thing found wrong in a certificate: where and why.
#[derive(Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{}: {reason}", place(*.node, *.line))]
pub struct Invalid {
    /// The node that failed (none when a header line did).
    pub node: Option<usize>,
    /// The line of the text it is on, from 1.
    pub line: usize,
    pub reason: String,
}

fn place(node: Option<usize>, line: usize) -> String {
    match node {
        Some(node) => format!("node {node} (line {line})"),
        None => format!("line {line}"),
    }
}

impl Certificate {
    /// An empty Projective Hex certificate on `board`, to which the writer adds claims and
    /// nodes.
    pub fn new(board: Board) -> Certificate {
        Certificate::of(Kind::ProjectiveHex, board)
    }

    /// An empty certificate of `kind` on `board`.
    pub fn of(kind: Kind, board: Board) -> Certificate {
        Certificate {
            kind,
            board,
            claims: Vec::new(),
            scores: Vec::new(),
            nodes: Vec::new(),
            symmetries: Vec::new(),
            lists: Vec::new(),
        }
    }

    /// Adds an endgame, an Euler Getter leaf; returns its node.
    pub fn push_endgame(&mut self) -> u32 {
        self.push(Node::Endgame)
    }

    /// Adds a winner's move (`next: None` when it closes a loop); returns its node.
    pub fn push_move(&mut self, cell: usize, next: Option<u32>) -> u32 {
        self.push(Node::Move {
            cell: cell as u32,
            next,
        })
    }

    /// Adds a loser's node with the node after each reply, in cell order; returns it.
    pub fn push_replies(&mut self, targets: &[u32]) -> u32 {
        self.push_list(targets, |first, count| Node::Replies { first, count })
    }

    /// Adds a loop held by bridges, the cells of each bridge side by side; returns it.
    pub fn push_held(&mut self, cells: &[u32]) -> u32 {
        self.push_list(cells, |first, count| Node::Held { first, count })
    }

    /// Adds a carrier leaf, its empty cells; returns it.
    pub fn push_carrier(&mut self, cells: &[u32]) -> u32 {
        self.push_list(cells, |first, count| Node::Carrier { first, count })
    }

    /// Adds a pairing leaf: the pairs' cells side by side, then the single cell if any.
    pub fn push_pairs(&mut self, cells: &[u32]) -> u32 {
        self.push_list(cells, |first, count| Node::Pairs { first, count })
    }

    /// Adds a node whose position is `next`'s carried by the symmetry `map` (an index into
    /// [`Certificate::symmetries`]); returns it.
    pub fn push_symmetry(&mut self, map: usize, next: u32) -> u32 {
        self.push(Node::Symmetry {
            map: map as u32,
            next,
        })
    }

    /// Adds a node whose list is `items`, made by `node` from the list's place.
    fn push_list(&mut self, items: &[u32], node: fn(u32, u32) -> Node) -> u32 {
        let first = self.lists.len() as u32;
        self.lists.extend_from_slice(items);
        self.push(node(first, items.len() as u32))
    }

    fn push(&mut self, node: Node) -> u32 {
        self.nodes.push(node);
        (self.nodes.len() - 1) as u32
    }

    /// The nodes after each of a loser's replies, or a held loop's or a carrier's cells.
    pub fn list(&self, first: u32, count: u32) -> &[u32] {
        &self.lists[first as usize..(first + count) as usize]
    }

    /// The claims in words.
    pub fn summaries(&self) -> Vec<ClaimSummary> {
        self.claims
            .iter()
            .map(|claim| {
                let start = self.start(&claim.stones);
                ClaimSummary {
                    position: start.position,
                    x: start.x,
                    o: start.o,
                    to_move: start.to_move,
                    winner: claim.winner,
                }
            })
            .collect()
    }

    /// A claim's start position in words.
    pub fn start(&self, stones: &[Option<Player>]) -> Start {
        let names = |player: Player| {
            (0..self.board.cell_count())
                .filter(|&c| stones[c] == Some(player))
                .map(|c| self.board.cell_name(c).to_string())
                .collect()
        };
        Start {
            position: position_text(stones),
            x: names(Player::X),
            o: names(Player::O),
            to_move: to_move(stones),
        }
    }

    /// Writes the certificate as text (see the crate documentation).
    pub fn write_text(&self, out: &mut impl Write) -> std::io::Result<()> {
        let board = &self.board;
        let has = |leaf: fn(&Node) -> bool| self.nodes.iter().any(leaf);
        let version = if !self.symmetries.is_empty() {
            SYMMETRY_VERSION
        } else if has(|node| matches!(node, Node::Pairs { .. })) {
            PAIRING_VERSION
        } else if has(|node| matches!(node, Node::Carrier { .. })) {
            CARRIER_VERSION
        } else {
            VERSION
        };
        writeln!(
            out,
            "{MAGIC} {version}\ngame {}\nboard {}",
            self.kind.name(),
            board.spec()
        )?;
        for map in &self.symmetries {
            out.write_all(b"symmetry")?;
            for &image in map {
                write!(out, " {}", board.cell_name(image as usize))?;
            }
            out.write_all(b"\n")?;
        }
        for claim in &self.claims {
            writeln!(
                out,
                "claim {} {} {}",
                position_text(&claim.stones),
                claim.winner,
                claim.root
            )?;
        }
        for claim in &self.scores {
            writeln!(
                out,
                "claim {} {} {} {}",
                position_text(&claim.stones),
                claim.player,
                claim.at_least,
                claim.root
            )?;
        }
        writeln!(out, "nodes {}", self.nodes.len())?;
        for (index, node) in self.nodes.iter().enumerate() {
            let back = |target: u32| index as u32 - target;
            match *node {
                Node::Move { cell, next: None } => {
                    writeln!(out, "m {}", board.cell_name(cell as usize))?
                }
                Node::Move {
                    cell,
                    next: Some(next),
                } => writeln!(out, "m {} {}", board.cell_name(cell as usize), back(next))?,
                Node::Replies { first, count } => {
                    out.write_all(b"r")?;
                    for &target in self.list(first, count) {
                        write!(out, " {}", back(target))?;
                    }
                    out.write_all(b"\n")?;
                }
                Node::Held { first, count }
                | Node::Carrier { first, count }
                | Node::Pairs { first, count } => {
                    let key: &[u8] = match node {
                        Node::Held { .. } => b"h",
                        Node::Carrier { .. } => b"c",
                        _ => b"p",
                    };
                    out.write_all(key)?;
                    for &cell in self.list(first, count) {
                        write!(out, " {}", board.cell_name(cell as usize))?;
                    }
                    out.write_all(b"\n")?;
                }
                Node::Endgame => out.write_all(b"e\n")?,
                Node::Symmetry { map, next } => writeln!(out, "s {map} {}", back(next))?,
            }
        }
        Ok(())
    }

    /// Writes the certificate to `path`, zstd-compressed.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let file = std::fs::File::create(path)?;
        let mut encoder = zstd::Encoder::new(file, COMPRESSION_LEVEL)?;
        {
            let mut buffered = std::io::BufWriter::new(&mut encoder);
            self.write_text(&mut buffered)?;
            buffered.flush()?;
        }
        encoder.finish()?.sync_all()
    }

    /// Reads a certificate from `path`, zstd-compressed or plain text.
    pub fn load(path: &Path) -> Result<Certificate, CertificateError> {
        let file = std::fs::File::open(path)
            .map_err(|e| CertificateError::Unreadable(format!("cannot read: {e}")))?;
        Certificate::read(file)
    }

    /// Reads a certificate, zstd-compressed or plain text. Node lines are checked for form
    /// only (cell names, references to nodes above); [`verify`] checks the rest.
    pub fn read(input: impl Read) -> Result<Certificate, CertificateError> {
        let mut input = BufReader::new(input);
        let compressed = input
            .fill_buf()
            .map_err(|e| CertificateError::Unreadable(format!("cannot read: {e}")))?
            .starts_with(&ZSTD_MAGIC);
        if compressed {
            let decoder = zstd::Decoder::with_buffer(input)
                .map_err(|e| CertificateError::Unreadable(format!("not zstd: {e}")))?;
            Reader::new(BufReader::new(decoder)).certificate()
        } else {
            Reader::new(input).certificate()
        }
    }
}

/// How many stones X and O have.
fn counts(stones: &[Option<Player>]) -> (usize, usize) {
    let x = stones.iter().filter(|s| **s == Some(Player::X)).count();
    (x, stones.iter().filter(|s| s.is_some()).count() - x)
}

/// X moves first and the players alternate: X is to move when both have as many stones.
fn to_move(stones: &[Option<Player>]) -> Player {
    let (x, o) = counts(stones);
    if x == o { Player::X } else { Player::O }
}

/// Stones in cell order: `.` empty, `X`, `O`.
pub fn position_text(stones: &[Option<Player>]) -> String {
    stones
        .iter()
        .map(|stone| match stone {
            None => '.',
            Some(Player::X) => 'X',
            Some(Player::O) => 'O',
        })
        .collect()
}

/// Reads the text line by line, counting lines for the messages.
struct Reader<R> {
    input: R,
    line: String,
    number: usize,
    /// The text still allowed ([`MAX_TEXT_BYTES`] at the start).
    text_left: usize,
    /// The format's version, from the first line.
    version: u32,
}

impl<R: BufRead> Reader<R> {
    fn new(input: R) -> Reader<R> {
        Reader {
            input,
            line: String::new(),
            number: 0,
            text_left: MAX_TEXT_BYTES,
            version: VERSION,
        }
    }

    /// The next line, without its line break; no line is read beyond [`MAX_LINE_BYTES`]
    /// (its break included), nor the text beyond [`MAX_TEXT_BYTES`].
    fn next(&mut self) -> Result<&str, CertificateError> {
        self.line.clear();
        self.number += 1;
        let limit = MAX_LINE_BYTES.min(self.text_left);
        let read = (self.input.by_ref().take(limit as u64 + 1))
            .read_line(&mut self.line)
            .map_err(|e| {
                CertificateError::Unreadable(format!("line {}: cannot read: {e}", self.number))
            })?;
        if read == 0 {
            return Err(self.unreadable("the file ends early"));
        }
        if read > limit {
            return Err(self.unreadable(&match limit == MAX_LINE_BYTES {
                true => format!("longer than {MAX_LINE_BYTES} bytes"),
                false => format!("the text goes on past {MAX_TEXT_BYTES} bytes"),
            }));
        }
        self.text_left -= read;
        Ok(self.line.trim_end_matches(['\n', '\r']))
    }

    /// Messages may echo the input: its control characters are escaped.
    fn unreadable(&self, why: &str) -> CertificateError {
        CertificateError::Unreadable(format!("line {}: {}", self.number, escape_controls(why)))
    }

    fn invalid(&self, node: Option<usize>, reason: String) -> CertificateError {
        CertificateError::Invalid(Invalid {
            node,
            line: self.number,
            reason: escape_controls(&reason),
        })
    }

    /// The index of the cell `name` names, read for node `node` (none on a symmetry line).
    fn cell(
        &self,
        board: &Board,
        name: &str,
        node: Option<usize>,
    ) -> Result<u32, CertificateError> {
        (board.cell_index(name).map(|cell| cell as u32))
            .ok_or_else(|| self.invalid(node, format!("`{name}` is not a cell of the board")))
    }

    /// The rest of the next line after `key` and a space.
    fn keyed(&mut self, key: &str) -> Result<String, CertificateError> {
        let line = self.next()?.to_string();
        line.strip_prefix(key)
            .and_then(|rest| rest.strip_prefix(' '))
            .map(str::to_string)
            .ok_or_else(|| self.unreadable(&format!("expected `{key} ...`")))
    }

    fn certificate(mut self) -> Result<Certificate, CertificateError> {
        let first = self.next()?.to_string();
        self.version = first
            .strip_prefix(MAGIC)
            .and_then(|rest| rest.strip_prefix(' '))
            .and_then(|version| version.parse().ok())
            .filter(|version| (VERSION..=SYMMETRY_VERSION).contains(version))
            .ok_or_else(|| {
                self.unreadable(&format!(
                    "not a certificate: expected `{MAGIC} {VERSION}` to `{MAGIC} \
                     {SYMMETRY_VERSION}`"
                ))
            })?;
        let game = self.keyed("game")?;
        let kind = [Kind::ProjectiveHex, Kind::EulerGetter]
            .into_iter()
            .find(|kind| kind.name() == game)
            .ok_or_else(|| {
                self.unreadable(&format!(
                    "a certificate of `{game}`, not of projective-hex or euler-getter"
                ))
            })?;
        let spec = self.keyed("board")?;
        let board =
            Board::from_spec(&spec).map_err(|e| self.unreadable(&format!("the board: {e}")))?;
        let mut certificate = Certificate::of(kind, board);
        let count = loop {
            let line = self.next()?.to_string();
            if let Some(count) = line.strip_prefix("nodes ") {
                let count = count
                    .parse::<u32>()
                    .map_err(|_| self.unreadable("the node count is not a number"))?;
                let words = check::position_words(certificate.board.cell_count()) as u64;
                if count > MAX_NODES || u64::from(count) * words * 8 > MAX_POSITION_BYTES {
                    return Err(self.unreadable(&format!(
                        "{count} nodes of {} cells: more than the checker takes (at most \
                         {MAX_NODES} nodes, their positions in {MAX_POSITION_BYTES} bytes)",
                        certificate.board.cell_count()
                    )));
                }
                break count;
            }
            if let Some(names) = line.strip_prefix("symmetry ") {
                let map = self.symmetry(&certificate, names)?;
                certificate.symmetries.push(map);
                continue;
            }
            match kind {
                Kind::ProjectiveHex => {
                    let claim = self.claim(&certificate.board, &line)?;
                    certificate.claims.push(claim);
                }
                Kind::EulerGetter => {
                    let claim = self.score_claim(&certificate.board, &line)?;
                    certificate.scores.push(claim);
                }
            }
        };
        if certificate.claims.is_empty() && certificate.scores.is_empty() {
            return Err(self.unreadable("no claim"));
        }
        for index in 0..count as usize {
            let line = self.next()?.to_string();
            self.node(&mut certificate, index, &line)?;
        }
        if !self.input.fill_buf().is_ok_and(|rest| rest.is_empty()) {
            return Err(self.unreadable("more lines than the node count"));
        }
        let roots = certificate.claims.iter().map(|claim| claim.root);
        for root in roots.chain(certificate.scores.iter().map(|claim| claim.root)) {
            if root >= count {
                return Err(self.invalid(
                    None,
                    format!("a claim starts at node {root}, past the last"),
                ));
            }
        }
        Ok(certificate)
    }

    fn claim(&self, board: &Board, line: &str) -> Result<Claim, CertificateError> {
        let words: Vec<&str> = line.split(' ').collect();
        let [key, position, winner, root] = words[..] else {
            return Err(self.unreadable("expected `claim POSITION WINNER ROOT` or `nodes N`"));
        };
        if key != "claim" {
            return Err(self.unreadable("expected `claim POSITION WINNER ROOT` or `nodes N`"));
        }
        Ok(Claim {
            stones: self.stones(board, position)?,
            winner: self.player(winner)?,
            root: self.root(root)?,
        })
    }

    fn score_claim(&self, board: &Board, line: &str) -> Result<ScoreClaim, CertificateError> {
        const EXPECTED: &str = "expected `claim POSITION PLAYER AT_LEAST ROOT` or `nodes N`";
        let words: Vec<&str> = line.split(' ').collect();
        let ["claim", position, player, at_least, root] = words[..] else {
            return Err(self.unreadable(EXPECTED));
        };
        Ok(ScoreClaim {
            stones: self.stones(board, position)?,
            player: self.player(player)?,
            at_least: at_least
                .parse()
                .map_err(|_| self.unreadable("AT_LEAST is not a number"))?,
            root: self.root(root)?,
        })
    }

    /// A `symmetry` line's map, `names` the image of each cell in cell order: read in a
    /// certificate of version 4 before any claim (the line numbers of the
    /// check's messages count on that), a permutation of the cells. Whether it is a
    /// symmetry of the board [`verify`] checks.
    fn symmetry(
        &self,
        certificate: &Certificate,
        names: &str,
    ) -> Result<Vec<u32>, CertificateError> {
        if self.version < SYMMETRY_VERSION {
            return Err(self.unreadable(&format!(
                "symmetries are lines of certificates of version {SYMMETRY_VERSION}"
            )));
        }
        if !certificate.scores.is_empty() || !certificate.claims.is_empty() {
            return Err(self.unreadable("symmetry lines come before the claims"));
        }
        let board = &certificate.board;
        let map = (names.split(' '))
            .map(|name| self.cell(board, name, None))
            .collect::<Result<Vec<u32>, _>>()?;
        if map.len() != board.cell_count() {
            return Err(self.invalid(
                None,
                format!(
                    "the symmetry maps {} cells, the board has {}",
                    map.len(),
                    board.cell_count()
                ),
            ));
        }
        let mut seen = vec![false; board.cell_count()];
        for &image in &map {
            if std::mem::replace(&mut seen[image as usize], true) {
                return Err(self.invalid(
                    None,
                    format!(
                        "the symmetry takes two cells to {}",
                        board.cell_name(image as usize)
                    ),
                ));
            }
        }
        Ok(map)
    }

    fn root(&self, root: &str) -> Result<u32, CertificateError> {
        root.parse()
            .map_err(|_| self.unreadable("the root is not a number"))
    }

    fn player(&self, player: &str) -> Result<Player, CertificateError> {
        match player {
            "X" => Ok(Player::X),
            "O" => Ok(Player::O),
            _ => Err(self.invalid(None, format!("`{player}` is not a player"))),
        }
    }

    /// A position: a stone a cell, in cell order.
    fn stones(
        &self,
        board: &Board,
        position: &str,
    ) -> Result<Vec<Option<Player>>, CertificateError> {
        let stones = position
            .chars()
            .map(|c| match c {
                '.' => Ok(None),
                'X' => Ok(Some(Player::X)),
                'O' => Ok(Some(Player::O)),
                _ => Err(self.invalid(None, format!("`{c}` is not a stone (`.`, `X`, `O`)"))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        if stones.len() != board.cell_count() {
            return Err(self.invalid(
                None,
                format!(
                    "the position has {} cells, the board {}",
                    stones.len(),
                    board.cell_count()
                ),
            ));
        }
        Ok(stones)
    }

    fn node(
        &self,
        certificate: &mut Certificate,
        index: usize,
        line: &str,
    ) -> Result<(), CertificateError> {
        let mut words = line.split(' ');
        let kind = words.next().unwrap_or_default();
        let target = |word: &str| -> Result<u32, CertificateError> {
            let back: usize = word
                .parse()
                .map_err(|_| self.unreadable(&format!("`{word}` is not a number")))?;
            if back == 0 || back > index {
                return Err(self.invalid(
                    Some(index),
                    format!("refers {back} lines back, not to a node above it"),
                ));
            }
            Ok((index - back) as u32)
        };
        match kind {
            "m" => {
                let name = words
                    .next()
                    .ok_or_else(|| self.unreadable("a move without a cell"))?;
                let cell = self.cell(&certificate.board, name, Some(index))?;
                let next = words.next().map(target).transpose()?;
                if words.next().is_some() {
                    return Err(self.unreadable("expected `m CELL [BACK]`"));
                }
                certificate.push_move(cell as usize, next);
            }
            "r" => {
                let targets = words.map(target).collect::<Result<Vec<u32>, _>>()?;
                certificate.push_replies(&targets);
            }
            "h" | "c" | "p"
                if (certificate.kind == Kind::ProjectiveHex
                    && (kind == "h" || (kind == "c" && self.version >= CARRIER_VERSION)))
                    || (certificate.kind == Kind::EulerGetter
                        && kind == "p"
                        && self.version >= PAIRING_VERSION) =>
            {
                let cells = words
                    .map(|name| self.cell(&certificate.board, name, Some(index)))
                    .collect::<Result<Vec<u32>, _>>()?;
                match kind {
                    "h" => certificate.push_held(&cells),
                    "c" => certificate.push_carrier(&cells),
                    _ => certificate.push_pairs(&cells),
                };
            }
            "e" if certificate.kind == Kind::EulerGetter && words.next().is_none() => {
                certificate.push_endgame();
            }
            "s" if self.version >= SYMMETRY_VERSION => {
                let (Some(map), Some(back), None) = (words.next(), words.next(), words.next())
                else {
                    return Err(self.unreadable("expected `s MAP BACK`"));
                };
                let map: usize = map
                    .parse()
                    .map_err(|_| self.unreadable(&format!("`{map}` is not a number")))?;
                if map >= certificate.symmetries.len() {
                    return Err(self.invalid(
                        Some(index),
                        format!(
                            "symmetry {map} of {}: none of the `symmetry` lines",
                            certificate.symmetries.len()
                        ),
                    ));
                }
                let next = target(back)?;
                certificate.push_symmetry(map, next);
            }
            _ => {
                return Err(self.unreadable(match certificate.kind {
                    Kind::ProjectiveHex if self.version >= SYMMETRY_VERSION => {
                        "a node is `m CELL [BACK]`, `r BACK ...`, `h CELL ...`, `c CELL ...` or \
                         `s MAP BACK`"
                    }
                    Kind::ProjectiveHex if self.version >= CARRIER_VERSION => {
                        "a node is `m CELL [BACK]`, `r BACK ...`, `h CELL ...` or `c CELL ...` \
                         (symmetries `s MAP BACK` need version 4)"
                    }
                    Kind::ProjectiveHex => {
                        "a node is `m CELL [BACK]`, `r BACK ...` or `h CELL ...` (carriers \
                         `c CELL ...` need version 2)"
                    }
                    Kind::EulerGetter if self.version >= SYMMETRY_VERSION => {
                        "a node is `m CELL BACK`, `r BACK ...`, `e`, `p CELL ...` or `s MAP BACK`"
                    }
                    Kind::EulerGetter if self.version >= PAIRING_VERSION => {
                        "a node is `m CELL BACK`, `r BACK ...`, `e` or `p CELL ...` (symmetries \
                         `s MAP BACK` need version 4)"
                    }
                    Kind::EulerGetter => {
                        "a node is `m CELL BACK`, `r BACK ...` or `e` (pairing leaves \
                         `p CELL ...` need version 3)"
                    }
                }));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
