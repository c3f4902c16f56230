//! Certificates of exact results: the margin with perfect play proved by two strategies
//! written out for the checker of crate `crosscap-certificate`, which verifies them without
//! this solver. The winner's strategy holds the loser to the margin, the loser's holds the
//! winner to it; each is a DAG over positions down to endgames of at most `LEAF_EMPTY`
//! empty cells, which the checker searches and scores itself, and pairing leaves of at most
//! `PAIRING_LEAF_EMPTY`, whose splits it scores. A position symmetric to one written is a
//! symmetry node that carries it onto that one, the map one of the board's symmetries,
//! which the checker verifies: so each class of positions is proved once.

use std::collections::HashMap;

use crosscap_certificate::{Certificate, Kind, MAX_ENDGAME, MAX_PAIRS, Node, ScoreClaim};
use crosscap_engine::solver::{Solver, margin_by_tests};
use crosscap_engine::{Budget, Game, Meter, Player, SolveError};

use crate::compact::{CompactBoard, CompactPosition, REMEMBERED_MAX_EMPTY};
use crate::game::{EulerGetter, Move, Rule};

/// Why no certificate was written.
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    #[error(
        "certificates are written for the normal rule without the swap (--rule normal --swap none)"
    )]
    Rules,
    #[error("certificates are written for boards of at most {MAX_CELLS} cells")]
    Board,
    /// The solver proved a bound of a position and then found no move keeping it: a bug.
    #[error("the solver's answers disagree: no move of {0} keeps the bound it proved")]
    Inconsistent(Player),
    /// The budget ran out before the certificate was complete; nothing is written.
    #[error(transparent)]
    Unknown(#[from] SolveError),
}

/// A certificate and what it proved and took.
pub struct Certified {
    pub certificate: Certificate,
    /// `chi X - chi O` with perfect play.
    pub margin: i32,
    /// Solver nodes, the extraction's positions included.
    pub nodes: u64,
}

/// The most cells of a board certified (a position is packed two bits a cell into a u128).
const MAX_CELLS: usize = 64;

/// The most empty cells of the endgame leaves written, which the checker searches itself
/// (it takes up to [`MAX_ENDGAME`]). Larger leaves make smaller certificates but cost the
/// checker more a leaf. From a taylor:3 position of 23 empty cells (BENCHMARKS.md): leaves
/// of 11 wrote 12% fewer bytes than leaves of 10 and checked faster (6.6 s, not 7.8: an
/// 11-cell leaf replaces a reply node and its 11 leaves); leaves of 12 wrote 45% fewer
/// bytes and checked 4 times slower.
const LEAF_EMPTY: usize = 11;
const _: () = assert!(LEAF_EMPTY <= MAX_ENDGAME);

/// The most empty cells of the pairing leaves written: where the strategy's player is not
/// to move and answering every move in the partner cell of the solver's pairing
/// ([`crate::compact::CompactPosition::pairing_bound`]) keeps the bound, the checker scores
/// each split of the pairs instead of searching the endgame or the strategy going on. As
/// many as the solver's pairings reach (the remembered ones).
const PAIRING_LEAF_EMPTY: usize = REMEMBERED_MAX_EMPTY;
const _: () = assert!(PAIRING_LEAF_EMPTY <= 2 * MAX_PAIRS + 1);

/// Bytes a position costs the certificate and the maps of positions written, roughly.
const NODE_BYTES: usize = 80;

/// Proves the margin with perfect play from `game` (normal rule, no swap) and writes both
/// strategies into one certificate. The margin comes from the solver's null-window tests
/// on compact positions, as [`crate::solve`] searches (hashed up to the board's
/// symmetries, pairing bounds and all), the strategies from more tests on the same table:
/// each move one to a position already written or to a pairing leaf where there is one,
/// else the first in move order that keeps the bound; a position symmetric to one written
/// is carried onto it. Every choice rests on the tests' answers, which are facts, and never
/// on what the table happens to hold, so the certificate is the same on any number of
/// threads (the table's remembered move first was a tenth faster on a taylor:3 position,
/// BENCHMARKS.md, but each run wrote another file). `budget` bounds the whole: the
/// solver's time and nodes (the extraction's positions counted as nodes), its table within
/// three quarters of the memory cap and the certificate within the rest.
pub fn certify(game: &EulerGetter, budget: &Budget) -> Result<Certified, CertifyError> {
    if game.rule() != Rule::Normal || game.swap_rule().0.is_some() || game.swapped() {
        return Err(CertifyError::Rules);
    }
    let board = game.complex().board();
    if board.cell_count() > MAX_CELLS {
        return Err(CertifyError::Board);
    }
    let symmetries = board.symmetries();
    let compact =
        CompactBoard::new(game.complex().clone(), Some(&symmetries)).ok_or(CertifyError::Board)?;
    let pairing_board =
        CompactBoard::new(game.complex().clone(), None).ok_or(CertifyError::Board)?;
    let mut certificate = Certificate::of(Kind::EulerGetter, board.clone());
    certificate.symmetries = (symmetries.maps()[1..].iter())
        .map(|map| map.iter().map(|&cell| cell as u32).collect())
        .collect();
    let mut prover = Prover {
        solver: Solver::new(budget.clone()),
        meter: budget.meter(),
        budget: budget.clone(),
        certificate,
        known: HashMap::new(),
        images: HashMap::new(),
        compact: &compact,
        pairing_board: &pairing_board,
    };
    let margin = margin_by_tests(2, |m| prover.at_least(game, m)).map_err(|(error, _)| error)?;
    for (player, at_least) in [(Player::X, margin), (Player::O, -margin)] {
        let root = prover.node(game, player, at_least)?;
        prover.certificate.scores.push(ScoreClaim {
            stones: game.stones().to_vec(),
            player,
            at_least,
            root,
        });
    }
    let nodes = prover.spent();
    let mut certificate = prover.certificate;
    if !(certificate.nodes.iter()).any(|node| matches!(node, Node::Symmetry { .. })) {
        certificate.symmetries.clear();
    }
    Ok(Certified {
        nodes,
        margin,
        certificate,
    })
}

struct Prover<'b> {
    solver: Solver<CompactPosition<'b>>,
    /// The extraction's own count (a position written is a tick) and its clock.
    meter: Meter,
    budget: Budget,
    certificate: Certificate,
    /// The node of each position written and its stones, by the least of its images under
    /// the board's symmetries ([`Prover::least_image`]) and the strategy's player: a
    /// position symmetric to one written is that one's image, carried back.
    known: HashMap<(u128, Player), (u32, u128)>,
    /// The node carrying each position symmetric to a written one onto it, by its stones
    /// and the strategy's player.
    images: HashMap<(u128, Player), u32>,
    /// The board of the solver's positions.
    compact: &'b CompactBoard,
    /// The board of the pairing leaves' positions: their pairings start from the pairings
    /// remembered from the leaves before (`CompactPosition::pairs_deciding`), never from
    /// those of the solver's search, which depend on what its threads found first. So the
    /// certificate depends only on the position, whatever the threads.
    pairing_board: &'b CompactBoard,
}

impl<'b> Prover<'b> {
    fn spent(&self) -> u64 {
        self.solver.nodes() + self.meter.nodes()
    }

    /// The least of the packed images of `stones` (packed) under the certificate's
    /// symmetries and the identity.
    fn least_image(&self, stones: u128) -> u128 {
        (self.certificate.symmetries.iter())
            .map(|map| image(map, stones))
            .fold(stones, u128::min)
    }

    /// Whether the node of `player`'s strategy at the position `stones` (packed), or at one
    /// of its images, is written already.
    fn written(&self, stones: u128, player: Player) -> bool {
        (self.known).contains_key(&(self.least_image(stones), player))
    }

    /// The solver's "is X's margin at least `m`?", within what is left of the budget.
    fn at_least(&mut self, game: &EulerGetter, m: i32) -> Result<bool, SolveError> {
        self.solver
            .set_budget(self.budget.less(self.spent(), self.meter.elapsed()));
        let position = self.compact.position(game);
        self.solver.at_least(&position, m).map_err(|error| {
            let SolveError::Unknown { reason, .. } = error;
            SolveError::Unknown {
                nodes: self.spent(),
                elapsed: self.meter.elapsed(),
                reason,
            }
        })
    }

    /// Whether `player` ends at least `at_least` above the other from `game`.
    fn holds(
        &mut self,
        game: &EulerGetter,
        player: Player,
        at_least: i32,
    ) -> Result<bool, SolveError> {
        Ok(match player {
            Player::X => self.at_least(game, at_least)?,
            Player::O => !self.at_least(game, 1 - at_least)?,
        })
    }

    /// The cells of a pairing leaf at `game` (pairs side by side, then the single cell) when
    /// `player` is not to move and its pairing strategy keeps it at least `at_least` above.
    fn pairing(&self, game: &EulerGetter, player: Player, at_least: i32) -> Option<Vec<u32>> {
        let empty = game.complex().cell_count() - game.placed();
        if game.to_move() == player || empty > PAIRING_LEAF_EMPTY {
            return None;
        }
        let position = self.pairing_board.position(game);
        let pairs = match player {
            Player::X => position.pairs_deciding(i32::MIN, at_least),
            Player::O => position.pairs_deciding(-at_least, i32::MAX),
        }?;
        // In one order (each pair's cells and the pairs sorted), so that leaves with pairs
        // in common repeat text: the file compresses a sixth smaller.
        let mut pairs: Vec<[u32; 2]> = (pairs.iter())
            .map(|&(a, b)| [a.min(b) as u32, a.max(b) as u32])
            .collect();
        pairs.sort_unstable();
        let mut cells = pairs.concat();
        let single = (0..game.stones().len() as u32)
            .find(|&c| game.stones()[c as usize].is_none() && !cells.contains(&c));
        cells.extend(single);
        Some(cells)
    }

    /// The node of `player`'s strategy at `game` (where it ends at least `at_least` above the
    /// other), written with everything below it (once per position).
    fn node(
        &mut self,
        game: &EulerGetter,
        player: Player,
        at_least: i32,
    ) -> Result<u32, CertifyError> {
        let stones = packed(game.stones());
        let key = (self.least_image(stones), player);
        if let Some(&(node, written)) = self.known.get(&key) {
            if written == stones {
                return Ok(node);
            }
            if let Some(&node) = self.images.get(&(stones, player)) {
                return Ok(node);
            }
            let map = (self.certificate.symmetries.iter())
                .position(|map| image(map, stones) == written)
                .expect("the least image is one of the symmetries'");
            let carried = self.certificate.push_symmetry(map, node);
            self.images.insert((stones, player), carried);
            return Ok(carried);
        }
        let bytes = (self.known.len() + self.images.len()) * NODE_BYTES;
        if self.meter.tick() || self.meter.over_memory(bytes * 4) {
            let SolveError::Unknown { reason, .. } = self.meter.unknown();
            return Err(SolveError::Unknown {
                nodes: self.spent(),
                elapsed: self.meter.elapsed(),
                reason,
            }
            .into());
        }
        let empty = game.complex().cell_count() - game.placed();
        let node = if let Some(cells) = self.pairing(game, player, at_least) {
            self.certificate.push_pairs(&cells)
        } else if empty <= LEAF_EMPTY {
            self.certificate.push_endgame()
        } else if game.to_move() == player {
            let mut moves = game.legal_moves();
            game.order_moves(&mut moves);
            // A move to a position already written adds nothing, and one after which the
            // pairing strategy keeps the bound ends the strategy at once: preferring them
            // shrinks the certificate several times over (BENCHMARKS.md).
            let children: Vec<(Move, EulerGetter)> = (moves.iter())
                .map(|&mv| {
                    let mut child = game.clone();
                    child.play(&mv);
                    (mv, child)
                })
                .collect();
            let mut kept = (children.iter())
                .find(|(_, child)| self.written(packed(child.stones()), player))
                .or_else(|| {
                    (children.iter())
                        .find(|(_, child)| self.pairing(child, player, at_least).is_some())
                })
                .cloned();
            if kept.is_none() {
                for (mv, child) in children {
                    if self.holds(&child, player, at_least)? {
                        kept = Some((mv, child));
                        break;
                    }
                }
            }
            let Some((Move::Place(cell), child)) = kept else {
                return Err(CertifyError::Inconsistent(player));
            };
            let next = self.node(&child, player, at_least)?;
            self.certificate.push_move(usize::from(cell), Some(next))
        } else {
            let mut targets = Vec::new();
            for cell in (0..game.stones().len()).filter(|&c| game.stones()[c].is_none()) {
                let mut child = game.clone();
                child.play(&Move::Place(cell as u16));
                targets.push(self.node(&child, player, at_least)?);
            }
            self.certificate.push_replies(&targets)
        };
        self.known.insert(key, (node, stones));
        Ok(node)
    }
}

/// The position `stones` (packed) carried by `map` (the image of each cell), packed.
fn image(map: &[u32], stones: u128) -> u128 {
    map.iter().enumerate().fold(0, |bits, (cell, &to)| {
        bits | (stones >> (2 * cell) & 3) << (2 * to)
    })
}

/// A position two bits a cell (at most [`MAX_CELLS`] cells).
fn packed(stones: &[Option<Player>]) -> u128 {
    stones.iter().enumerate().fold(0, |bits, (cell, stone)| {
        let code: u128 = match stone {
            None => 0,
            Some(Player::X) => 1,
            Some(Player::O) => 2,
        };
        bits | code << (2 * cell)
    })
}

#[cfg(test)]
mod tests {
    use crosscap_certificate::{Node, verify};
    use crosscap_engine::session::SetupLimits;

    use super::*;
    use crate::{SwapRule, new_game, solve};

    fn game(spec: &str, position: Option<&str>) -> EulerGetter {
        new_game(
            spec,
            Rule::Normal,
            SwapRule(None),
            position,
            &SetupLimits::default(),
        )
        .unwrap()
    }

    /// On the hemi-dodecahedron (one endgame leaf a strategy), and from a goldberg:2
    /// position with 14 empty cells (moves and replies down to leaves of 10), the
    /// certificate proves the margin the solver finds, and the checker's results say so.
    #[test]
    fn certificates_prove_the_solved_margin() {
        let start = game("goldberg:2", None);
        let mut rng = crosscap_engine::Rng::new(5);
        let mut endgame = start.clone();
        while endgame.placed() < 7 {
            let mv = endgame.random_move(&mut rng).unwrap();
            endgame.play(&mv);
        }
        for position in [game("goldberg:1", None), endgame] {
            let certified = certify(&position, &Budget::unlimited()).unwrap();
            let solved = solve(&position, &Budget::unlimited()).unwrap();
            assert_eq!(certified.margin, solved.margin);
            let leaves = (certified.certificate.nodes.iter())
                .filter(|node| matches!(node, Node::Endgame | Node::Pairs { .. }))
                .count();
            let inner = certified.certificate.nodes.len() - leaves;
            assert_eq!(inner > 0, position.placed() == 7, "{inner} inner nodes");
            let verified = verify(&certified.certificate).unwrap();
            assert_eq!(verified.results.len(), 1);
            let result = &verified.results[0];
            assert_eq!(result.winner, solved.winner);
            assert_eq!(result.margin, solved.margin.abs());
        }
    }

    /// From a taylor:3 position with 19 empty cells, the strategies end in pairing leaves
    /// of more empty cells than the greedy pairing takes (the remembered pairings reach
    /// them), and the checker accepts the certificate with the solved margin.
    #[test]
    fn pairing_leaves_reach_past_the_greedy_pairing() {
        let position = game("taylor:3", Some(".O.O.X....OX..........XX.O."));
        let certified = certify(&position, &Budget::unlimited()).unwrap();
        let certificate = &certified.certificate;
        let widest = (certificate.nodes.iter())
            .filter_map(|node| match node {
                Node::Pairs { count, .. } => Some(*count as usize),
                _ => None,
            })
            .max()
            .unwrap();
        assert!(
            widest > 14,
            "pairing leaves of at most {widest} empty cells"
        );
        let verified = verify(certificate).unwrap();
        let solved = solve(&position, &Budget::unlimited()).unwrap();
        assert_eq!(verified.results[0].margin, solved.margin.abs());
        assert_eq!(verified.results[0].winner, solved.winner);
    }

    /// On the empty goldberg:2 (60 symmetries), positions symmetric to one written are
    /// symmetry nodes carrying them onto it: X's first moves fall in two classes
    /// (pentagons and hexagons), so O's strategy answers two of them. The checker accepts the certificate with the solved
    /// margin; with the maps dropped it is unreadable.
    #[test]
    fn symmetric_positions_are_written_once() {
        let position = game("goldberg:2", None);
        let certified = certify(&position, &Budget::unlimited()).unwrap();
        let certificate = &certified.certificate;
        let first_moves = match certificate.nodes[certificate.scores[1].root as usize] {
            Node::Replies { first, count } => certificate.list(first, count).to_vec(),
            other => panic!("O's strategy starts with {other:?}"),
        };
        let carried = (first_moves.iter())
            .filter(|&&node| matches!(certificate.nodes[node as usize], Node::Symmetry { .. }))
            .count();
        let classes = position.complex().board().symmetries().cell_orbits().len();
        assert_eq!((classes, carried), (2, first_moves.len() - 2));
        assert_eq!(certificate.symmetries.len(), 59);
        let verified = verify(certificate).unwrap();
        let solved = solve(&position, &Budget::unlimited()).unwrap();
        assert_eq!(verified.results[0].margin, solved.margin.abs());
        assert_eq!(verified.results[0].winner, solved.winner);
        let mut text = Vec::new();
        certificate.write_text(&mut text).unwrap();
        let without_maps: Vec<&[u8]> = (text.split(|&b| b == b'\n'))
            .filter(|line| !line.starts_with(b"symmetry"))
            .collect();
        let read = Certificate::read(without_maps.join(&b'\n').as_slice());
        assert!(
            read.unwrap_err()
                .to_string()
                .contains("none of the `symmetry` lines")
        );
    }

    #[test]
    fn other_rules_and_a_spent_budget_write_nothing() {
        let reverse = new_game(
            "goldberg:1",
            Rule::Reverse,
            SwapRule(None),
            None,
            &SetupLimits::default(),
        )
        .unwrap();
        assert!(matches!(
            certify(&reverse, &Budget::unlimited()),
            Err(CertifyError::Rules)
        ));
        assert!(matches!(
            certify(&game("goldberg:2", None), &Budget::nodes(1_000)),
            Err(CertifyError::Unknown(_))
        ));
    }
}
