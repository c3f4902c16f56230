//! Proof extraction: the winning strategy of solved positions written out as a
//! certificate (crate `crosscap-certificate`), which its checker verifies without this
//! solver. The solver's own arguments (keys, proof sets, mustplay) stay out of the
//! certificate: at the winner's turn it holds one move, at the loser's every reply, down to
//! a move that closes a loop, a loop held by bridges, or a carrier: where the winner's
//! proof set holds at most [`CARRIER_CELLS`] empty cells, those cells, inside which the
//! checker searches every line of play itself (so a proof set the solver got wrong makes
//! the certificate invalid, never a false proof).

use std::collections::HashMap;

use crosscap_certificate::{Certificate, Claim, MAX_BRIDGES, MAX_CARRIER};
use crosscap_engine::{Exhausted, Player};

use super::*;
use crate::rules::Opening;

/// Certificates of positions the bitmask solver can take on.
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    #[error("certificates need a trivalent projective-plane board of at most {MAX_CELLS} cells")]
    Board,
    #[error("the game is over already: there is nothing to prove")]
    Over,
    #[error("certificates are written for the standard opening only")]
    Opening,
    #[error("--all-openings starts from the empty board")]
    NotEmpty,
    #[error("carriers of at most {MAX_CARRIER} cells: the checker takes no larger")]
    CarrierCells,
    /// The budget ran out before the certificate was complete; nothing is written.
    #[error(transparent)]
    Unknown(#[from] SolveError),
    /// The solver contradicted itself (a position it called won showed no winning move):
    /// a defect of the solver, reported rather than written into a certificate.
    #[error("the solver found no winning move in a position it proved won (a solver defect)")]
    NoWinningMove,
}

/// A certificate and what it took.
pub struct Certified {
    pub certificate: Certificate,
    /// Solver nodes, the extraction's included.
    pub nodes: u64,
}

/// Proves who wins each of `starts` (positions of one board under the standard opening)
/// and writes the winning strategies into one certificate, positions shared between them
/// stored once, with carrier leaves of at most `carrier_cells` empty cells (0: none, every
/// line written out down to a closing move or a held loop; [`CARRIER_CELLS`] by default).
/// `budget` bounds the whole: the solver's time and nodes, its table's memory and, apart
/// from it, the certificate's.
pub fn certify(
    starts: &[ProjectiveHex],
    budget: &Budget,
    carrier_cells: usize,
) -> Result<Certified, CertifyError> {
    if carrier_cells > MAX_CARRIER {
        return Err(CertifyError::CarrierCells);
    }
    let Some(first) = starts.first() else {
        return Err(CertifyError::Over);
    };
    let geometry = first.geometry();
    let solver = BitSolver::new(geometry, budget.clone()).ok_or(CertifyError::Board)?;
    let mut prover = Prover {
        solver,
        certificate: Certificate::new(geometry.board().clone()),
        known: HashMap::new(),
        meter: budget.meter(),
        budget: budget.clone(),
        carrier_cells,
    };
    for start in starts {
        if start.winner().is_some() {
            return Err(CertifyError::Over);
        }
        if start.opening() != Opening::Standard || start.in_opening() {
            return Err(CertifyError::Opening);
        }
        let (mine, theirs) = masks(start);
        let mover = start.to_move();
        let solved = prover.solve(mine, theirs)?;
        let (winner, winner_stones, loser_stones) = if solved.mover_wins {
            (mover, mine, theirs)
        } else {
            (mover.opponent(), theirs, mine)
        };
        let root = prover.node(winner_stones, loser_stones, winner, solved.mover_wins)?;
        prover.certificate.claims.push(Claim {
            stones: start.stones().to_vec(),
            winner,
            root,
        });
    }
    Ok(Certified {
        nodes: prover.solver.nodes() + prover.meter.nodes(),
        certificate: prover.certificate,
    })
}

/// Proves who wins after each first move of the empty board and, when some first move wins
/// for X, that X wins from the empty board by it; carriers as in [`certify`]. One first
/// move per class of cells that the board's symmetries map onto each other is searched; each
/// other cell's claim is a symmetry node carrying its position onto its class's, the map
/// given in the certificate for the checker to verify. The claims are the first moves in
/// cell order, then the empty board.
pub fn certify_openings(
    start: &ProjectiveHex,
    budget: &Budget,
    carrier_cells: usize,
) -> Result<Certified, CertifyError> {
    if start.stones().iter().any(Option::is_some) {
        return Err(CertifyError::NotEmpty);
    }
    let after = |cell: usize| {
        let mut game = start.clone();
        game.play(&crate::Move::Cell(cell as u32));
        game
    };
    let symmetries = start.geometry().symmetries();
    let orbits = symmetries.cell_orbits();
    let representatives: Vec<ProjectiveHex> = orbits.iter().map(|orbit| after(orbit[0])).collect();
    let mut certified = certify(&representatives, budget, carrier_cells)?;
    let certificate = &mut certified.certificate;
    let searched = std::mem::take(&mut certificate.claims);
    let maps: Vec<Vec<u32>> = (symmetries.maps()[1..].iter())
        .map(|map| map.iter().map(|&image| image as u32).collect())
        .collect();
    let mut claims: Vec<Option<Claim>> = vec![None; start.stones().len()];
    for (orbit, claim) in orbits.iter().zip(searched) {
        for &cell in &orbit[1..] {
            let map = (maps.iter())
                .position(|map| map[cell] as usize == orbit[0])
                .expect("the cells of an orbit are images of each other");
            claims[cell] = Some(Claim {
                stones: after(cell).stones().to_vec(),
                winner: claim.winner,
                root: certificate.push_symmetry(map, claim.root),
            });
        }
        claims[orbit[0]] = Some(claim);
    }
    if orbits.iter().any(|orbit| orbit.len() > 1) {
        certificate.symmetries = maps;
    }
    certificate.claims = claims.into_iter().flatten().collect();
    if let Some((cell, claim)) =
        (certificate.claims.iter().enumerate()).find(|(_, claim)| claim.winner == Player::X)
    {
        let root = certificate.push_move(cell, Some(claim.root));
        certificate.claims.push(Claim {
            stones: start.stones().to_vec(),
            winner: Player::X,
            root,
        });
    }
    Ok(certified)
}

struct Prover {
    solver: BitSolver,
    certificate: Certificate,
    /// The node of each position written, by (winner's stones, loser's stones, winner).
    known: HashMap<(u64, u64, Player), u32>,
    /// The extraction's own count (a node written is a tick) and its clock.
    meter: Meter,
    budget: Budget,
    /// The most empty cells of a carrier leaf.
    carrier_cells: usize,
}

/// The most pairings of a held loop's cells tried before it is written out move by move.
const PAIRING_TRIES: u32 = 64;

/// The most empty cells of a carrier leaf written unless told otherwise (`solve
/// --carrier-cells`): the checker's search of a carrier of
/// `k` cells visits up to 3^k positions. On every opening of taylor:3, 12 (the most the
/// checker takes) wrote 1.2 MB that took 155 s of CPU to check, 10 wrote 2.0 MB checked
/// in 76 s, 8 wrote 3.7 MB checked in 61 s (BENCHMARKS.md).
pub const CARRIER_CELLS: usize = 10;
const _: () = assert!(CARRIER_CELLS <= MAX_CARRIER);

/// Bytes a node costs the certificate and the map of known positions, roughly.
const NODE_BYTES: usize = 64;

impl Prover {
    /// Solves a position (no loop on the board) within what is left of the budget.
    fn solve(&mut self, mine: u64, theirs: u64) -> Result<Solved, SolveError> {
        let spent = self.solver.nodes() + self.meter.nodes();
        self.solver
            .set_budget(self.budget.less(spent, self.meter.elapsed()));
        self.solver.solve(mine, theirs).map_err(|_| self.unknown())
    }

    fn unknown(&self) -> SolveError {
        let reason = match self.meter.exhausted() {
            Some(reason) => reason,
            None if self.budget.is_cancelled() => Exhausted::Cancelled,
            None if self
                .budget
                .max_time
                .is_some_and(|t| self.meter.elapsed() >= t) =>
            {
                Exhausted::Time
            }
            None if self.budget.max_nodes.is_some() => Exhausted::Nodes,
            None => Exhausted::Memory,
        };
        SolveError::Unknown {
            nodes: self.solver.nodes() + self.meter.nodes(),
            elapsed: self.meter.elapsed(),
            reason,
        }
    }

    /// The node of the position where `winner` holds `mine` and the loser `theirs`, written
    /// with everything below it (once per position).
    fn node(
        &mut self,
        mine: u64,
        theirs: u64,
        winner: Player,
        winner_to_move: bool,
    ) -> Result<u32, CertifyError> {
        if let Some(&node) = self.known.get(&(mine, theirs, winner)) {
            return Ok(node);
        }
        if self.meter.tick() || self.meter.over_memory(self.known.len() * NODE_BYTES) {
            return Err(self.unknown().into());
        }
        let empty = self.solver.sides.full() & !(mine | theirs);
        let survey = self.solver.sides.survey(mine, empty, false);
        let node = if let Some(bridges) = self.bridges(mine, survey.held & empty) {
            self.certificate.push_held(&bridges)
        } else if winner_to_move && survey.closing != 0 {
            self.certificate
                .push_move(survey.closing.trailing_zeros() as usize, None)
        } else if let Some(carrier) = self.carrier(mine, theirs, empty, winner_to_move)? {
            self.certificate.push_carrier(&carrier)
        } else if winner_to_move {
            // A key makes a held loop; otherwise the solver chooses.
            let cell = match survey.key {
                0 => self.winning_move(mine, theirs, empty)?,
                key => key.trailing_zeros() as usize,
            };
            let next = self.node(mine | 1 << cell, theirs, winner, false)?;
            self.certificate.push_move(cell, Some(next))
        } else {
            let mut targets = Vec::with_capacity(empty.count_ones() as usize);
            let mut rest = empty;
            while rest != 0 {
                let bit = rest & rest.wrapping_neg();
                rest &= rest - 1;
                targets.push(self.node(mine, theirs | bit, winner, true)?);
            }
            self.certificate.push_replies(&targets)
        };
        self.known.insert((mine, theirs, winner), node);
        Ok(node)
    }

    /// The empty cells of the winner's proof set when there are at most [`CARRIER_CELLS`]
    /// of them: the winner (holding `mine`) wins inside them with the loser given every
    /// other empty cell, the carrier leaf.
    fn carrier(
        &mut self,
        mine: u64,
        theirs: u64,
        empty: u64,
        winner_to_move: bool,
    ) -> Result<Option<Vec<u32>>, CertifyError> {
        let solved = if winner_to_move {
            self.solve(mine, theirs)?
        } else {
            self.solve(theirs, mine)?
        };
        if solved.mover_wins != winner_to_move {
            return Err(CertifyError::NoWinningMove);
        }
        let cells = solved.proof & empty;
        Ok(
            (cells.count_ones() as usize <= self.carrier_cells).then(|| {
                (0..MAX_CELLS as u32)
                    .filter(|&c| cells >> c & 1 != 0)
                    .collect()
            }),
        )
    }

    /// The loop that `mine` holds with the empty cells `cells` (a held loop of the survey),
    /// as pairs of cells such that one of each pair, whichever, makes a loop with `mine`:
    /// the certificate's held loop. `None` when the cells pair up in no such way (a key's
    /// loop, or more than the certificate allows); partners next to each other are tried
    /// first, as a bridge's two cells are.
    fn bridges(&self, mine: u64, cells: u64) -> Option<Vec<u32>> {
        let bridges = cells.count_ones() as usize / 2;
        if cells == 0 || !cells.count_ones().is_multiple_of(2) || bridges > MAX_BRIDGES {
            return None;
        }
        let mut pairs = Vec::with_capacity(bridges);
        let mut tries = PAIRING_TRIES;
        self.pair_up(mine, cells, &mut pairs, &mut tries).then(|| {
            pairs
                .iter()
                .flat_map(|&(a, b)| [a as u32, b as u32])
                .collect()
        })
    }

    fn pair_up(
        &self,
        mine: u64,
        unpaired: u64,
        pairs: &mut Vec<(usize, usize)>,
        tries: &mut u32,
    ) -> bool {
        if unpaired == 0 {
            *tries = tries.saturating_sub(1);
            return self.holds(mine, pairs);
        }
        let a = unpaired.trailing_zeros() as usize;
        let rest = unpaired & !(1 << a);
        let near = self.solver.sides.neighbors[a];
        for partners in [rest & near, rest & !near] {
            let mut left = partners;
            while left != 0 && *tries > 0 {
                let b = left.trailing_zeros() as usize;
                left &= left - 1;
                pairs.push((a, b));
                if self.pair_up(mine, rest & !(1 << b), pairs, tries) {
                    return true;
                }
                pairs.pop();
            }
        }
        false
    }

    /// Whether every choice of one cell of each pair makes a loop with `mine`.
    fn holds(&self, mine: u64, pairs: &[(usize, usize)]) -> bool {
        let mut labels = [0u64; MAX_CELLS];
        (0..1u32 << pairs.len()).all(|choice| {
            let chosen = pairs.iter().enumerate().fold(mine, |stones, (i, &(a, b))| {
                stones | 1 << if choice >> i & 1 == 0 { a } else { b }
            });
            self.solver.sides.has_loop(chosen, &mut labels)
        })
    }

    /// A move that wins for the mover, who wins (the solver said so) but has no cell that
    /// closes a loop: among the moves of the solver's proof that its table shows winning,
    /// the one with the smallest proof (fewer cells that matter, so a shorter strategy);
    /// when the table has none, the first such move the solver proves, the proof's cells
    /// first (a held loop or a key leaves no move in the table).
    fn winning_move(&mut self, mine: u64, theirs: u64, empty: u64) -> Result<usize, CertifyError> {
        let solved = self.solve(mine, theirs)?;
        if !solved.mover_wins {
            return Err(CertifyError::NoWinningMove);
        }
        let focus = solved.proof & empty;
        let mut best: Option<(u32, usize)> = None;
        let mut rest = focus;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if let Some(numbers) = self.solver.table.get(theirs, mine | 1 << cell)
                && numbers.dn == 0
            {
                let size = numbers.proof.count_ones();
                if best.is_none_or(|(smallest, _)| size < smallest) {
                    best = Some((size, cell));
                }
            }
        }
        if let Some((_, cell)) = best {
            return Ok(cell);
        }
        for cells in [focus, empty & !focus] {
            let mut rest = cells;
            while rest != 0 {
                let cell = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if !self.solve(theirs, mine | 1 << cell)?.mover_wins {
                    return Ok(cell);
                }
            }
        }
        Err(CertifyError::NoWinningMove)
    }
}

#[cfg(test)]
mod tests {
    use crosscap_certificate::Node;
    use crosscap_engine::Rng;

    use super::*;

    /// Certificates of random positions verify, and claim the winner that plain minimax
    /// finds on the real game: written out move by move, with small carriers, and with
    /// the usual ones (on goldberg:1 and taylor:2 mostly one carrier of every empty cell;
    /// on goldberg:2, 9 empty cells, carriers that give the loser the rest).
    #[test]
    fn certificates_of_random_positions_verify_and_name_the_minimax_winner() {
        let mut rng = Rng::new(23);
        let mut carriers = [0; 3];
        for spec in ["goldberg:1", "taylor:2", "goldberg:2"] {
            let start = ProjectiveHex::on_board(spec, Opening::Standard).unwrap();
            // Few enough empty cells for plain minimax.
            let stones = match spec {
                "goldberg:1" => 1,
                "taylor:2" => 4,
                _ => 12,
            };
            for _ in 0..6 {
                let mut game = start.clone();
                while game.winner().is_none() && game.history().len() < stones {
                    let mv = game.random_move(&mut rng).unwrap();
                    game.play(&mv);
                }
                if game.winner().is_some() {
                    continue;
                }
                let minimax_winner = if super::super::tests::brute_force_wins(&game) {
                    game.to_move()
                } else {
                    game.to_move().opponent()
                };
                for (written, carrier_cells) in carriers.iter_mut().zip([0, 4, CARRIER_CELLS]) {
                    let certified = certify(
                        std::slice::from_ref(&game),
                        &Budget::unlimited(),
                        carrier_cells,
                    )
                    .unwrap();
                    let certificate = &certified.certificate;
                    let verified = crosscap_certificate::verify(certificate).unwrap();
                    assert_eq!(verified.claims[0].winner, minimax_winner, "{spec}");
                    *written += certificate
                        .nodes
                        .iter()
                        .filter(|node| matches!(node, Node::Carrier { .. }))
                        .count();
                }
            }
        }
        assert_eq!(carriers[0], 0);
        assert!(carriers[1] > 0 && carriers[2] > 0, "{carriers:?}");
    }

    /// goldberg:2's openings: carriers make the certificate far smaller, and it proves
    /// the same claims.
    #[test]
    fn carriers_shorten_goldberg_2_certificates() {
        let start = ProjectiveHex::on_board("goldberg:2", Opening::Standard).unwrap();
        let mut opening = start.clone();
        opening.play(&crate::Move::Cell(1));
        let written = |carrier_cells| {
            let certified = certify(
                std::slice::from_ref(&opening),
                &Budget::unlimited(),
                carrier_cells,
            )
            .unwrap();
            let verified = crosscap_certificate::verify(&certified.certificate).unwrap();
            (certified.certificate.nodes.len(), verified.claims[0].winner)
        };
        let (plain, winner) = written(0);
        let (carried, same) = written(CARRIER_CELLS);
        assert_eq!(winner, same);
        assert!(
            carried * 5 < plain,
            "{carried} positions, {plain} without carriers"
        );
    }

    /// Every first move of taylor:2 is proved, the three classes searched and the other
    /// nine cells carried onto them by symmetries that the checker verifies: the six corner
    /// pentagons lose, the hexagons win, and so X wins the empty board.
    #[test]
    fn every_opening_and_the_empty_board_are_certified() {
        let start = ProjectiveHex::on_board("taylor:2", Opening::Standard).unwrap();
        let certified = certify_openings(&start, &Budget::unlimited(), CARRIER_CELLS).unwrap();
        let symmetry_nodes = (certified.certificate.nodes.iter())
            .filter(|node| matches!(node, Node::Symmetry { .. }))
            .count();
        assert_eq!(symmetry_nodes, 9);
        let verified = crosscap_certificate::verify(&certified.certificate).unwrap();
        let winners: Vec<(String, Player)> = (verified.claims.iter())
            .map(|c| (c.x.join(" "), c.winner))
            .collect();
        let corners = ["a1", "a2", "c1", "c4", "d1", "d3"];
        let mut expected: Vec<(String, Player)> = (0..start.stones().len())
            .map(|cell| start.geometry().board().cell_name(cell).to_string())
            .map(|name| {
                let winner = if corners.contains(&name.as_str()) {
                    Player::O
                } else {
                    Player::X
                };
                (name, winner)
            })
            .collect();
        expected.push((String::new(), Player::X));
        assert_eq!(winners, expected);
        // A map that is no symmetry (two cells' images exchanged) is refused.
        let mut damaged = certified.certificate;
        damaged.symmetries[0].swap(0, 1);
        let why = crosscap_certificate::verify(&damaged).unwrap_err();
        assert!(why.reason.starts_with("symmetry 0: "), "{why}");
    }

    #[test]
    fn carriers_larger_than_the_checker_takes_are_refused() {
        let start = ProjectiveHex::on_board("taylor:2", Opening::Standard).unwrap();
        let result = certify_openings(&start, &Budget::unlimited(), MAX_CARRIER + 1);
        assert!(matches!(result, Err(CertifyError::CarrierCells)));
    }

    #[test]
    fn a_budget_that_runs_out_gives_no_certificate() {
        let start = ProjectiveHex::on_board("goldberg:2", Opening::Standard).unwrap();
        let result = certify_openings(&start, &Budget::nodes(500), CARRIER_CELLS);
        assert!(matches!(result, Err(CertifyError::Unknown(_))));
    }
}
