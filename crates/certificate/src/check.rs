//! The checker: every node's position recomputed from its claim by the moves along the
//! way, every move's legality and turn, every loop found by a search of its own.

use std::cell::RefCell;
use std::fmt;
use std::path::Path;

use crosscap_engine::Player;
use crosscap_topology::Board;
use rayon::ThreadPoolBuilder;
use rayon::prelude::*;
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
/// its header is not a certificate's) or not one of `game` (`None`: any game's). Leaves are
/// checked on `threads` threads, as [`verify_on`] checks them.
pub fn check_file(
    path: &Path,
    game: Option<Kind>,
    threads: usize,
) -> Result<Result<Verified, Invalid>, String> {
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
            _ => Ok(verify_on(&certificate, threads)),
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

/// Checks `certificate` (see the crate documentation for what it claims) on one thread; the
/// first thing found wrong is the answer otherwise. [`verify_on`] with one thread.
pub fn verify(certificate: &Certificate) -> Result<Verified, Invalid> {
    verify_on(certificate, 1)
}

/// Checks `certificate` with its leaves checked on `threads` threads (1: one after another
/// on this one): the verdict, and the first thing found wrong, are the same on any number.
pub fn verify_on(certificate: &Certificate, threads: usize) -> Result<Verified, Invalid> {
    if certificate.kind == Kind::EulerGetter {
        return crate::euler::verify(certificate, threads);
    }
    let board = &certificate.board;
    let rules = HexRules {
        board,
        // The arguments of held loops and carriers (see the crate documentation) need the
        // projective plane.
        projective: !board.is_orientable() && board.euler_characteristic() == 1,
    };
    let claims: Vec<_> = (certificate.claims.iter())
        .map(|claim| Strategy {
            stones: &claim.stones,
            goal: claim.winner,
            root: claim.root,
        })
        .collect();
    walk(certificate, &rules, &claims, threads)?;
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

/// The threads [`check_file`]'s callers check leaves on unless told: the machine's cores.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The lines before the symmetries and the claims: the format, the game and the board.
const HEADER: usize = 3;

/// What the games' checks differ in; [`walk`] does the rest.
pub(crate) trait Rules: Sync {
    /// What a node is reached with: the winner (Projective Hex), a score claimed (Euler
    /// Getter).
    type Goal: Copy + PartialEq + fmt::Display + Send + Sync;

    /// The player whose strategy reaches `goal`: its moves are the certificate's `m`
    /// nodes, the other's the `r` nodes.
    fn player(goal: Self::Goal) -> Player;

    /// Why a claim cannot start from `stones`, beyond the counts of stones [`walk`]
    /// checks; `None` when it can.
    fn refuse_start(&self, stones: &[Option<Player>]) -> Option<String>;

    /// Why the cell map `map` (the image of each cell, a permutation of the cells: [`walk`]
    /// checks that first) is no symmetry of the game on this board, so that no
    /// [`Node::Symmetry`] may use it; `None` when it is one.
    fn refuse_symmetry(&self, map: &[u32]) -> Option<String>;

    /// Whether the move just made on `cell` closes a loop, which ends the game (`None`: the
    /// game's moves never end it before the board is full).
    fn closes(&self, stones: &[Option<Player>], cell: usize) -> Option<bool>;

    /// Checks the leaf `node` (a held loop, a carrier, an endgame or a pairing) reached with
    /// `stones` and `goal`; the reason when it fails.
    fn leaf(
        &self,
        certificate: &Certificate,
        node: Node,
        stones: &mut [Option<Player>],
        goal: Self::Goal,
    ) -> Result<(), String>;
}

/// A claim as [`walk`] reads it: the start position, the goal and the strategy's first node.
pub(crate) struct Strategy<'a, Goal> {
    pub(crate) stones: &'a [Option<Player>],
    pub(crate) goal: Goal,
    pub(crate) root: u32,
}

/// Checks the strategies of `claims`: their start positions, then the nodes from the last
/// to the first (every reference points up, so a node's parents are all checked before it,
/// and each one has handed it the position it reaches it with; a node keeps the first such
/// position and its goal, and any other must be equal), each move's legality and turn,
/// each reply's; then the leaves, independent of one another, on `threads` threads. The
/// answer is the first thing wrong in the order of a walk that checks each leaf where it
/// meets it, last node first, on any number of threads.
pub(crate) fn walk<R: Rules>(
    certificate: &Certificate,
    rules: &R,
    claims: &[Strategy<R::Goal>],
    threads: usize,
) -> Result<(), Invalid> {
    let cells = certificate.board.cell_count();
    let header = HEADER + certificate.symmetries.len();
    for (index, map) in certificate.symmetries.iter().enumerate() {
        let mut images: Vec<u32> = map.clone();
        images.sort_unstable();
        let permutation = images.iter().copied().eq(0..cells as u32);
        let refused = match permutation {
            true => rules.refuse_symmetry(map),
            false => Some("not a permutation of the cells".to_string()),
        };
        if let Some(reason) = refused {
            return Err(Invalid {
                node: None,
                line: HEADER + 1 + index,
                reason: format!("symmetry {index}: {reason}"),
            });
        }
    }
    let mut reached = Reached::new(certificate.nodes.len(), cells);
    for (index, &Strategy { stones, goal, root }) in claims.iter().enumerate() {
        let fail = |reason: String| Invalid {
            node: None,
            line: header + 1 + index,
            reason,
        };
        let (x, o) = counts(stones);
        if x != o && x != o + 1 {
            return Err(fail(format!(
                "X has {x} stones and O {o}: not a position of a game X started"
            )));
        }
        if let Some(why) = rules.refuse_start(stones) {
            return Err(fail(why));
        }
        reached
            .arrive(root as usize, stones, goal)
            .map_err(|why| fail(format!("node {root}: {why}")))?;
    }
    // The `nodes` line follows the claims.
    let fail = |node: usize, reason: String| Invalid {
        node: Some(node),
        line: header + claims.len() + 2 + node,
        reason,
    };
    let mut leaves = Vec::new();
    let inner = inner_nodes(certificate, rules, &mut reached, &mut leaves)
        .map_err(|(node, why)| fail(node, why));
    // Every leaf met comes before the first inner node that failed, if any.
    let leaf = first_failure(&leaves, threads, |node| {
        let mut stones = vec![None; cells];
        let goal = (reached.load(node, &mut stones)).expect("the walk met the leaf reached");
        let checked = rules.leaf(certificate, certificate.nodes[node], &mut stones, goal);
        checked.err().map(|why| fail(node, why))
    });
    match leaf {
        Some(failed) => Err(failed),
        None => inner,
    }
}

/// The walk of [`walk`] over the moves and replies, last node first, which lists the
/// leaves it meets in `leaves` for later; the first node that fails, and why.
fn inner_nodes<R: Rules>(
    certificate: &Certificate,
    rules: &R,
    reached: &mut Reached<R::Goal>,
    leaves: &mut Vec<usize>,
) -> Result<(), (usize, String)> {
    let board = &certificate.board;
    let mut stones = vec![None; board.cell_count()];
    for index in (0..certificate.nodes.len()).rev() {
        let fail = |why: String| (index, why);
        let Some(goal) = reached.load(index, &mut stones) else {
            return Err(fail("no claim reaches this node".to_string()));
        };
        let (player, to_move) = (R::player(goal), to_move(&stones));
        match certificate.nodes[index] {
            Node::Move { cell, next } => {
                if to_move != player {
                    return Err(fail(format!("{to_move} is to move here, not {player}")));
                }
                let cell = cell as usize;
                if stones[cell].is_some() {
                    return Err(fail(format!("{} is taken", board.cell_name(cell))));
                }
                stones[cell] = Some(player);
                let name = board.cell_name(cell);
                match (rules.closes(&stones, cell), next) {
                    (Some(true), None) => {}
                    (Some(true), Some(_)) => {
                        return Err(fail(format!("{name} closes a loop: the game is over")));
                    }
                    (Some(false), None) => {
                        return Err(fail(format!("{name} does not close a loop")));
                    }
                    (None, None) => return Err(fail("a move without its next node".to_string())),
                    (_, Some(next)) => reached
                        .arrive(next as usize, &stones, goal)
                        .map_err(|why| fail(format!("its next node {next}: {why}")))?,
                }
            }
            Node::Replies { first, count } => {
                if to_move == player {
                    return Err(fail(format!(
                        "{player}, whose strategy this is, is to move here"
                    )));
                }
                let empty: Vec<usize> =
                    (0..stones.len()).filter(|&c| stones[c].is_none()).collect();
                if empty.is_empty() {
                    return Err(fail("the board is full: no replies".to_string()));
                }
                let targets = certificate.list(first, count);
                if targets.len() != empty.len() {
                    return Err(fail(format!(
                        "{} replies for {} empty cells",
                        targets.len(),
                        empty.len()
                    )));
                }
                for (&cell, &next) in empty.iter().zip(targets) {
                    let name = board.cell_name(cell);
                    stones[cell] = Some(to_move);
                    if rules.closes(&stones, cell) == Some(true) {
                        return Err(fail(format!("{to_move}'s reply {name} closes a loop")));
                    }
                    reached
                        .arrive(next as usize, &stones, goal)
                        .map_err(|why| fail(format!("after {name}, node {next}: {why}")))?;
                    stones[cell] = None;
                }
            }
            Node::Symmetry { map, next } => {
                let mut image = vec![None; stones.len()];
                for (&cell, &stone) in certificate.symmetries[map as usize].iter().zip(&stones) {
                    image[cell as usize] = stone;
                }
                reached
                    .arrive(next as usize, &image, goal)
                    .map_err(|why| fail(format!("its image's node {next}: {why}")))?;
            }
            Node::Held { .. } | Node::Carrier { .. } | Node::Endgame | Node::Pairs { .. } => {
                leaves.push(index)
            }
        }
    }
    Ok(())
}

/// The first of `leaves`, in their order, whose `check` fails, and why: checked on
/// `threads` threads (1, or a pool that cannot be made: one after another on this one),
/// the same answer on any number.
fn first_failure(
    leaves: &[usize],
    threads: usize,
    check: impl Fn(usize) -> Option<Invalid> + Sync,
) -> Option<Invalid> {
    let pool = (threads > 1)
        .then(|| ThreadPoolBuilder::new().num_threads(threads).build().ok())
        .flatten();
    match pool {
        Some(pool) => pool.install(|| leaves.par_iter().find_map_first(|&leaf| check(leaf))),
        None => leaves.iter().find_map(|&leaf| check(leaf)),
    }
}

/// Projective Hex's rules: a move that closes a loop wins; held loops and carriers are its
/// leaves, on a projective plane only.
struct HexRules<'a> {
    board: &'a Board,
    projective: bool,
}

impl Rules for HexRules<'_> {
    type Goal = Player;

    fn player(winner: Player) -> Player {
        winner
    }

    fn refuse_start(&self, stones: &[Option<Player>]) -> Option<String> {
        let board = self.board;
        let cell = (0..board.cell_count())
            .find(|&cell| stones[cell].is_some() && has_loop_through(board, stones, cell))?;
        Some(format!(
            "the game is over: {} has a loop through {}",
            stones[cell].expect("a stone"),
            board.cell_name(cell)
        ))
    }

    fn refuse_symmetry(&self, map: &[u32]) -> Option<String> {
        crate::loops::refuse_symmetry(self.board, map)
    }

    fn closes(&self, stones: &[Option<Player>], cell: usize) -> Option<bool> {
        Some(has_loop_through(self.board, stones, cell))
    }

    fn leaf(
        &self,
        certificate: &Certificate,
        node: Node,
        stones: &mut [Option<Player>],
        winner: Player,
    ) -> Result<(), String> {
        let (leaf, check, first, count): (&str, LeafCheck, _, _) = match node {
            Node::Held { first, count } => ("a held loop", held, first, count),
            Node::Carrier { first, count } => ("a carrier", carrier, first, count),
            _ => {
                return Err(
                    "an endgame or a pairing is no leaf of a projective-hex certificate"
                        .to_string(),
                );
            }
        };
        if !self.projective {
            return Err(format!("{leaf} on a board that is not a projective plane"));
        }
        check(self.board, stones, winner, certificate.list(first, count))
    }
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
pub(crate) fn distinct_empty(
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

    fn at_full(&self, _: u32) -> bool {
        false
    }
}

/// The 64-bit words of a position of `cells` cells in [`Reached`], two bits a cell.
pub(crate) fn position_words(cells: usize) -> usize {
    (2 * cells).div_ceil(64)
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
        let words = position_words(cells);
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
