//! The checker: every node's position recomputed from its claim by the moves along the
//! way, every move's legality and turn, every loop found by a search of its own.

use std::cell::RefCell;
use std::fmt;
use std::path::Path;

use crosscap_engine::Player;
use crosscap_topology::Board;
use serde::Serialize;

use crate::endgame::{self, Ending};
use crate::euler::{ResultSummary, ScoreSummary};
use crate::loops::{CarrierLoops, has_loop_through};
use crate::{Certificate, CertificateError, ClaimSummary, Invalid, Kind, Node, counts, to_move};

/// What a valid certificate proved.
#[derive(Clone, Debug, Serialize)]
pub struct Verified {
    pub game: &'static str,
    pub board: String,
    pub cells: usize,
    /// The claims proved: each `winner` wins from the position whatever the other does.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<ClaimSummary>,
    /// Euler Getter's claims proved: each `player` ends at least `at_least` above the other.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scores: Vec<ScoreSummary>,
    /// Euler Getter's exact results, from two claims on one position that meet.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub results: Vec<ResultSummary>,
    /// Nodes checked (every node of the certificate).
    pub nodes: usize,
}

/// The verdict on a certificate as `verify --json` prints it: `valid`, and what was proved
/// or where and why the check failed.
#[derive(Serialize)]
pub struct Report<'a> {
    pub valid: bool,
    #[serde(flatten)]
    pub verified: Option<&'a Verified>,
    #[serde(flatten)]
    pub invalid: Option<&'a Invalid>,
}

impl<'a> From<&'a Result<Verified, Invalid>> for Report<'a> {
    fn from(checked: &'a Result<Verified, Invalid>) -> Report<'a> {
        Report {
            valid: checked.is_ok(),
            verified: checked.as_ref().ok(),
            invalid: checked.as_ref().err(),
        }
    }
}

/// Reads and checks the certificate at `path`: the verdict (valid, or the first thing
/// wrong), or why the file is no certificate at all (it cannot be read, it is not zstd,
/// its header is not a certificate's) or not one of `game` (`None`: any game's).
pub fn check_file(path: &Path, game: Option<Kind>) -> Result<Result<Verified, Invalid>, String> {
    match Certificate::load(path) {
        Ok(certificate) => match game {
            Some(game) if game != certificate.kind => Err(format!(
                "{}: a certificate of {}, not of {}: check it with `crosscap {} verify` or \
                 `crosscap-verify`",
                path.display(),
                certificate.kind.name(),
                game.name(),
                certificate.kind.name()
            )),
            _ => Ok(verify(&certificate)),
        },
        Err(CertificateError::Invalid(invalid)) => Ok(Err(invalid)),
        Err(CertificateError::Unreadable(why)) => Err(format!("{}: {why}", path.display())),
    }
}

/// What a valid certificate proved, in words: the board, then a claim a line.
impl fmt::Display for Verified {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "valid: {} nodes on {} ({} cells) prove",
            self.nodes, self.board, self.cells
        )?;
        for claim in &self.claims {
            writeln!(f, "  {claim}")?;
        }
        for result in &self.results {
            writeln!(f, "  {result}")?;
        }
        for score in &self.scores {
            writeln!(f, "  {score}")?;
        }
        Ok(())
    }
}

/// Checks `certificate` (see the crate documentation for what it claims); the first thing
/// found wrong is the answer otherwise.
///
/// Nodes are visited from the last to the first: every reference points up, so a node's
/// parents are all checked before it, and each one has handed it the position it reaches
/// it with. A node keeps the first such position and its winner; any other must be equal.
pub fn verify(certificate: &Certificate) -> Result<Verified, Invalid> {
    if certificate.kind == Kind::EulerGetter {
        return crate::euler::verify(certificate);
    }
    let board = &certificate.board;
    let header = 4; // magic, game, board and the `nodes` line.
    let node_line = |node: usize| header + certificate.claims.len() + node + 1;
    let fail = |node: usize, reason: String| Invalid {
        node: Some(node),
        line: node_line(node),
        reason,
    };
    // The arguments of held loops and carriers (see the crate documentation) need the
    // projective plane.
    let projective = !board.is_orientable() && board.euler_characteristic() == 1;
    let mut reached = Reached::new(certificate.nodes.len(), board.cell_count());
    for (index, claim) in certificate.claims.iter().enumerate() {
        let fail = |reason: String| Invalid {
            node: None,
            line: 4 + index,
            reason,
        };
        let (x, o) = counts(&claim.stones);
        if x != o && x != o + 1 {
            return Err(fail(format!(
                "X has {x} stones and O {o}: not a position of a game X started"
            )));
        }
        if let Some(cell) = (0..board.cell_count()).find(|&cell| {
            claim.stones[cell].is_some() && has_loop_through(board, &claim.stones, cell)
        }) {
            return Err(fail(format!(
                "the game is over: {} has a loop through {}",
                claim.stones[cell].expect("a stone"),
                board.cell_name(cell)
            )));
        }
        reached
            .arrive(claim.root as usize, &claim.stones, claim.winner)
            .map_err(|why| fail(format!("node {}: {why}", claim.root)))?;
    }
    let mut stones = vec![None; board.cell_count()];
    for index in (0..certificate.nodes.len()).rev() {
        let Some(winner) = reached.load(index, &mut stones) else {
            return Err(fail(index, "no claim reaches this node".to_string()));
        };
        let to_move = to_move(&stones);
        match certificate.nodes[index] {
            Node::Move { cell, next } => {
                if to_move != winner {
                    return Err(fail(
                        index,
                        format!("{to_move}, the loser, is to move here"),
                    ));
                }
                let cell = cell as usize;
                if stones[cell].is_some() {
                    return Err(fail(index, format!("{} is taken", board.cell_name(cell))));
                }
                stones[cell] = Some(winner);
                let closes = has_loop_through(board, &stones, cell);
                match (closes, next) {
                    (true, None) => {}
                    (true, Some(_)) => {
                        return Err(fail(
                            index,
                            format!("{} closes a loop: the game is over", board.cell_name(cell)),
                        ));
                    }
                    (false, None) => {
                        return Err(fail(
                            index,
                            format!("{} does not close a loop", board.cell_name(cell)),
                        ));
                    }
                    (false, Some(next)) => reached
                        .arrive(next as usize, &stones, winner)
                        .map_err(|why| fail(index, format!("its next node {next}: {why}")))?,
                }
            }
            Node::Held { first, count } | Node::Carrier { first, count } => {
                let (leaf, check): (&str, LeafCheck) = match certificate.nodes[index] {
                    Node::Held { .. } => ("a held loop", held),
                    _ => ("a carrier", carrier),
                };
                if !projective {
                    return Err(fail(
                        index,
                        format!("{leaf} on a board that is not a projective plane"),
                    ));
                }
                check(board, &mut stones, winner, certificate.list(first, count))
                    .map_err(|why| fail(index, why))?;
            }
            Node::Replies { first, count } => {
                if to_move == winner {
                    return Err(fail(
                        index,
                        format!("{to_move}, the winner, is to move here"),
                    ));
                }
                let empty: Vec<usize> =
                    (0..stones.len()).filter(|&c| stones[c].is_none()).collect();
                if empty.is_empty() {
                    return Err(fail(
                        index,
                        format!("the board is full and {winner} has no loop"),
                    ));
                }
                let targets = certificate.list(first, count);
                if targets.len() != empty.len() {
                    return Err(fail(
                        index,
                        format!("{} replies for {} empty cells", targets.len(), empty.len()),
                    ));
                }
                for (&cell, &next) in empty.iter().zip(targets) {
                    stones[cell] = Some(to_move);
                    if has_loop_through(board, &stones, cell) {
                        return Err(fail(
                            index,
                            format!("{to_move}'s reply {} closes a loop", board.cell_name(cell)),
                        ));
                    }
                    reached
                        .arrive(next as usize, &stones, winner)
                        .map_err(|why| {
                            fail(
                                index,
                                format!("after {}, node {next}: {why}", board.cell_name(cell)),
                            )
                        })?;
                    stones[cell] = None;
                }
            }
            Node::Endgame => {
                return Err(fail(
                    index,
                    "an endgame is no leaf of a projective-hex certificate".to_string(),
                ));
            }
        }
    }
    Ok(Verified {
        game: certificate.kind.name(),
        board: board.spec().to_string(),
        cells: board.cell_count(),
        claims: certificate.summaries(),
        scores: Vec::new(),
        results: Vec::new(),
        nodes: certificate.nodes.len(),
    })
}

/// The check of a leaf that holds cells: the board, the node's position, the winner, the
/// cells; the reason it fails.
type LeafCheck = fn(&Board, &mut [Option<Player>], Player, &[u32]) -> Result<(), String>;

/// Checks a held loop: `cells` are pairs of distinct empty cells, and the winner's stones
/// with one cell of each pair, whichever, hold a loop.
fn held(
    board: &Board,
    stones: &mut [Option<Player>],
    winner: Player,
    cells: &[u32],
) -> Result<(), String> {
    let bridges = cells.len() / 2;
    if !cells.len().is_multiple_of(2) || bridges > crate::MAX_BRIDGES {
        return Err(format!(
            "a held loop needs pairs of cells, at most {} of them",
            crate::MAX_BRIDGES
        ));
    }
    distinct_empty(board, stones, cells, "the held loop")?;
    for choice in 0..1u32 << bridges {
        let chosen: Vec<usize> = (0..bridges)
            .map(|b| cells[2 * b + (choice >> b & 1) as usize] as usize)
            .collect();
        for &cell in &chosen {
            stones[cell] = Some(winner);
        }
        let looped = chosen
            .iter()
            .any(|&cell| has_loop_through(board, stones, cell));
        for &cell in &chosen {
            stones[cell] = None;
        }
        if !looped {
            let names: Vec<&str> = chosen.iter().map(|&c| board.cell_name(c)).collect();
            return Err(format!(
                "no loop with the bridges' cells {}",
                names.join(" ")
            ));
        }
    }
    Ok(())
}

/// Checks that a leaf's `cells` are empty and named once each; `leaf` names it in the
/// reason otherwise.
fn distinct_empty(
    board: &Board,
    stones: &[Option<Player>],
    cells: &[u32],
    leaf: &str,
) -> Result<(), String> {
    for (index, &cell) in cells.iter().enumerate() {
        let name = board.cell_name(cell as usize);
        if stones[cell as usize].is_some() {
            return Err(format!("{leaf}'s cell {name} is taken"));
        }
        if cells[..index].contains(&cell) {
            return Err(format!("{leaf} names {name} twice"));
        }
    }
    Ok(())
}

/// Checks a carrier leaf: `cells` are at most [`crate::MAX_CARRIER`] distinct empty cells,
/// and with every other empty cell the loser's, the winner closes a loop on every line of
/// play inside them from the position's player to move (see the crate documentation).
pub(crate) fn carrier(
    board: &Board,
    stones: &mut [Option<Player>],
    winner: Player,
    cells: &[u32],
) -> Result<(), String> {
    if cells.len() > crate::MAX_CARRIER {
        return Err(format!(
            "a carrier of {} cells: at most {}",
            cells.len(),
            crate::MAX_CARRIER
        ));
    }
    distinct_empty(board, stones, cells, "the carrier")?;
    let mover = to_move(stones);
    let loser = winner.opponent();
    let carrier: Vec<usize> = cells.iter().map(|&cell| cell as usize).collect();
    for (cell, stone) in stones.iter_mut().enumerate() {
        if stone.is_none() && !carrier.contains(&cell) {
            *stone = Some(loser);
        }
    }
    let names = || {
        let names: Vec<&str> = carrier.iter().map(|&c| board.cell_name(c)).collect();
        names.join(" ")
    };
    let search = CarrierLoops::new(board, stones, &carrier).map_err(|cell| {
        format!(
            "with every empty cell outside the carrier {} {loser}'s, {} has a loop \
             through {}",
            names(),
            stones[cell].expect("a loop's cell holds a stone"),
            board.cell_name(cell)
        )
    })?;
    let loops = Loops {
        winner,
        search: RefCell::new(search),
    };
    if !endgame::holds(&loops, stones, winner, mover) {
        return Err(format!(
            "{loser} stops {winner}'s loop inside the carrier {} (every other empty cell \
             {loser}'s, {mover} to move)",
            names()
        ));
    }
    Ok(())
}

/// Projective Hex's lines of play end with a loop, which wins for the player who closes
/// it; a full board without one (impossible on a projective plane) is no win.
struct Loops {
    winner: Player,
    search: RefCell<CarrierLoops>,
}

impl Ending for Loops {
    const ENDS_EARLY: bool = true;

    fn after_move(&self, stones: &[Option<Player>], cell: usize, mover: Player) -> Option<bool> {
        let closes = self.search.borrow_mut().through(stones, cell);
        closes.then_some(mover == self.winner)
    }

    fn at_full(&self, _: &[Option<Player>]) -> bool {
        false
    }
}

/// The position and goal (the winner, or a score claimed) each node was reached with, two
/// bits a cell.
pub(crate) struct Reached<Goal> {
    words: usize,
    cells: usize,
    bits: Vec<u64>,
    winner: Vec<Option<Goal>>,
}

impl<Goal: Copy + PartialEq + fmt::Display> Reached<Goal> {
    pub(crate) fn new(nodes: usize, cells: usize) -> Reached<Goal> {
        let words = (2 * cells).div_ceil(64);
        Reached {
            words,
            cells,
            bits: vec![0; nodes * words],
            winner: vec![None; nodes],
        }
    }

    /// Records that `node` is reached with `stones` and `winner`; the reason when it was
    /// reached before with others.
    pub(crate) fn arrive(
        &mut self,
        node: usize,
        stones: &[Option<Player>],
        winner: Goal,
    ) -> Result<(), String> {
        let mut packed = vec![0u64; self.words];
        for (cell, stone) in stones.iter().enumerate() {
            let code = match stone {
                None => 0,
                Some(Player::X) => 1,
                Some(Player::O) => 2,
            };
            packed[2 * cell / 64] |= code << (2 * cell % 64);
        }
        let slot = &mut self.bits[node * self.words..(node + 1) * self.words];
        match self.winner[node] {
            None => {
                slot.copy_from_slice(&packed);
                self.winner[node] = Some(winner);
                Ok(())
            }
            Some(known) if known != winner => {
                Err(format!("reached with {known} and {winner} as the winner"))
            }
            Some(_) if slot != packed.as_slice() => {
                Err("reached with two different positions".to_string())
            }
            Some(_) => Ok(()),
        }
    }

    /// The position `node` was reached with, into `stones`, and its winner (`None`: never
    /// reached).
    pub(crate) fn load(&self, node: usize, stones: &mut [Option<Player>]) -> Option<Goal> {
        let winner = self.winner[node]?;
        let slot = &self.bits[node * self.words..(node + 1) * self.words];
        for (cell, stone) in stones.iter_mut().enumerate().take(self.cells) {
            *stone = match slot[2 * cell / 64] >> (2 * cell % 64) & 3 {
                1 => Some(Player::X),
                2 => Some(Player::O),
                _ => None,
            };
        }
        Some(winner)
    }
}
