//! Certificates of exact results: the margin with perfect play proved by two strategies
//! written out for the checker of crate `crosscap-certificate`, which verifies them without
//! this solver. The winner's strategy holds the loser to the margin, the loser's holds the
//! winner to it; each is a DAG over positions down to endgames of at most [`LEAF_EMPTY`]
//! empty cells, which the checker searches and scores itself, and pairing leaves of at most
//! [`PAIRING_LEAF_EMPTY`], whose splits it scores.

use std::collections::HashMap;

use crosscap_certificate::{Certificate, Kind, MAX_ENDGAME, MAX_PAIRS, ScoreClaim};
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
/// checker more a leaf: on the empty goldberg:2, leaves of 10 empty cells gave 993,580
/// positions (1.9 MB) checked in 69 s of CPU, leaves of 12 gave 197,770 (346 KB) in 83 s
/// (BENCHMARKS.md).
const LEAF_EMPTY: usize = 10;
const _: () = assert!(LEAF_EMPTY <= MAX_ENDGAME);

/// The most empty cells of the pairing leaves written: where the strategy's player is not
/// to move and answering every move in the partner cell of the solver's pairing
/// ([`crate::compact::CompactPosition::pairing_bound`]) keeps the bound, the checker scores
/// each split of the pairs instead of searching the endgame or the strategy going on. As
/// many as the solver's pairings reach (the remembered ones).
const PAIRING_LEAF_EMPTY: usize = REMEMBERED_MAX_EMPTY;
const _: () = assert!(PAIRING_LEAF_EMPTY <= 2 * MAX_PAIRS + 1);

/// Bytes a position costs the certificate and the map of positions written, roughly.
const NODE_BYTES: usize = 64;

/// Proves the margin with perfect play from `game` (normal rule, no swap) and writes both
/// strategies into one certificate. The margin comes from the solver's null-window tests
/// on compact positions, as [`crate::solve`] searches (hashed up to the board's
/// symmetries, pairing bounds and all), the strategies from more tests on the same table:
/// each move one to a position already written or to a pairing leaf where there is one,
/// else the first that keeps the bound, the one the table remembers tried first. `budget`
/// bounds the whole: the solver's time and nodes (the extraction's positions counted as
/// nodes), its table within three quarters of the memory cap and the certificate within the
/// rest.
pub fn certify(game: &EulerGetter, budget: &Budget) -> Result<Certified, CertifyError> {
    if game.rule() != Rule::Normal || game.swap_rule().0.is_some() || game.swapped() {
        return Err(CertifyError::Rules);
    }
    let board = game.complex().board();
    if board.cell_count() > MAX_CELLS {
        return Err(CertifyError::Board);
    }
    let compact = CompactBoard::new(game.complex().clone(), Some(&board.symmetries()))
        .ok_or(CertifyError::Board)?;
    let mut prover = Prover {
        solver: Solver::new(budget.clone()),
        meter: budget.meter(),
        budget: budget.clone(),
        certificate: Certificate::of(Kind::EulerGetter, board.clone()),
        known: HashMap::new(),
        compact: &compact,
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
    Ok(Certified {
        nodes: prover.spent(),
        margin,
        certificate: prover.certificate,
    })
}

struct Prover<'b> {
    solver: Solver<CompactPosition<'b>>,
    /// The extraction's own count (a position written is a tick) and its clock.
    meter: Meter,
    budget: Budget,
    certificate: Certificate,
    /// The node of each position written, by its stones and the strategy's player.
    known: HashMap<(u128, Player), u32>,
    /// The board of the solver's positions and of its pairing bound.
    compact: &'b CompactBoard,
}

impl<'b> Prover<'b> {
    fn spent(&self) -> u64 {
        self.solver.nodes() + self.meter.nodes()
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
        let position = self.compact.position(game);
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
        let key = (packed(game.stones()), player);
        if let Some(&node) = self.known.get(&key) {
            return Ok(node);
        }
        let bytes = self.known.len() * NODE_BYTES;
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
            if let Some(first) = self.solver.remembered_move(&self.compact.position(game))
                && let Some(i) = moves.iter().position(|m| *m == first)
            {
                moves[..=i].rotate_right(1);
            }
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
                .find(|(_, child)| self.known.contains_key(&(packed(child.stones()), player)))
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
        self.known.insert(key, node);
        Ok(node)
    }
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
