//! The Euler Getter check: every node's position recomputed from its claim by the moves
//! along the way, every move's legality and turn, every endgame played out in every order
//! and each full board scored by a count of its own (`V - E + F` of each player's closure,
//! from the board the topology crate re-derives).

use std::fmt;

use crosscap_engine::Player;
use crosscap_topology::Board;
use serde::Serialize;

use crate::check::{Reached, Verified};
use crate::{Certificate, Invalid, MAX_ENDGAME, Node, ScoreClaim, Start, counts, to_move};

/// What a strategy is to reach: `player`'s characteristic at least `at_least` above the
/// other's at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Goal {
    player: Player,
    at_least: i32,
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (by at least {})", self.player, self.at_least)
    }
}

/// An Euler Getter claim in words: from the start, `player`'s strategy ends every game with
/// `player`'s Euler characteristic at least `at_least` above the other's.
#[derive(Clone, Debug, Serialize)]
pub struct ScoreSummary {
    #[serde(flatten)]
    pub start: Start,
    pub player: Player,
    pub at_least: i32,
}

impl fmt::Display for ScoreSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let player = self.player;
        write!(
            f,
            "{player} ends with chi at least {} above {}'s whatever {} does, from {}",
            self.at_least,
            player.opponent(),
            player.opponent(),
            self.start
        )
    }
}

/// The exact result with perfect play from a start, proved by two claims that meet: the
/// winner (none: a tie) and by how much its characteristic ends above the loser's.
#[derive(Clone, Debug, Serialize)]
pub struct ResultSummary {
    #[serde(flatten)]
    pub start: Start,
    pub winner: Option<Player>,
    pub margin: i32,
}

impl fmt::Display for ResultSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(winner) => write!(f, "{winner} wins by {}", self.margin)?,
            None => f.write_str("a tie")?,
        }
        write!(f, " with perfect play from {}", self.start)
    }
}

/// The claims of an Euler Getter certificate in words, and the exact results of the pairs
/// of claims from one position, one for each player, that meet (`a` and `-a`).
pub(crate) fn scores(certificate: &Certificate) -> (Vec<ScoreSummary>, Vec<ResultSummary>) {
    let claims = &certificate.scores;
    let summaries = claims
        .iter()
        .map(|claim| ScoreSummary {
            start: certificate.start(&claim.stones),
            player: claim.player,
            at_least: claim.at_least,
        })
        .collect();
    let mut results = Vec::new();
    for x in claims.iter().filter(|claim| claim.player == Player::X) {
        let meets = |o: &ScoreClaim| {
            o.player == Player::O && o.at_least == -x.at_least && o.stones == x.stones
        };
        if claims.iter().any(meets) {
            let margin = x.at_least;
            results.push(ResultSummary {
                start: certificate.start(&x.stones),
                winner: Player::X.winner_by(margin),
                margin: margin.abs(),
            });
        }
    }
    (summaries, results)
}

/// Checks an Euler Getter certificate (see the crate documentation); the first thing found
/// wrong is the answer otherwise. Nodes are visited from the last to the first, as in
/// [`crate::verify`].
pub(crate) fn verify(certificate: &Certificate) -> Result<Verified, Invalid> {
    let board = &certificate.board;
    let header = 4; // magic, game, board and the `nodes` line.
    let claims = &certificate.scores;
    let fail = |node: usize, reason: String| Invalid {
        node: Some(node),
        line: header + claims.len() + node + 1,
        reason,
    };
    let mut reached = Reached::new(certificate.nodes.len(), board.cell_count());
    for (index, claim) in claims.iter().enumerate() {
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
        let goal = Goal {
            player: claim.player,
            at_least: claim.at_least,
        };
        reached
            .arrive(claim.root as usize, &claim.stones, goal)
            .map_err(|why| fail(format!("node {}: {why}", claim.root)))?;
    }
    let mut stones = vec![None; board.cell_count()];
    for index in (0..certificate.nodes.len()).rev() {
        let Some(goal) = reached.load(index, &mut stones) else {
            return Err(fail(index, "no claim reaches this node".to_string()));
        };
        let (player, to_move) = (goal.player, to_move(&stones));
        let empty: Vec<usize> = (0..stones.len()).filter(|&c| stones[c].is_none()).collect();
        match certificate.nodes[index] {
            Node::Move { cell, next } => {
                if to_move != player {
                    return Err(fail(
                        index,
                        format!("{to_move} is to move here, not {player}"),
                    ));
                }
                let Some(next) = next else {
                    return Err(fail(index, "a move without its next node".to_string()));
                };
                let cell = cell as usize;
                if stones[cell].is_some() {
                    return Err(fail(index, format!("{} is taken", board.cell_name(cell))));
                }
                stones[cell] = Some(player);
                reached
                    .arrive(next as usize, &stones, goal)
                    .map_err(|why| fail(index, format!("its next node {next}: {why}")))?;
            }
            Node::Replies { first, count } => {
                if to_move == player {
                    return Err(fail(
                        index,
                        format!("{player}, whose strategy this is, is to move here"),
                    ));
                }
                if empty.is_empty() {
                    return Err(fail(index, "the board is full: no replies".to_string()));
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
                    reached
                        .arrive(next as usize, &stones, goal)
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
                if empty.len() > MAX_ENDGAME {
                    return Err(fail(
                        index,
                        format!(
                            "{} empty cells: an endgame has at most {MAX_ENDGAME}",
                            empty.len()
                        ),
                    ));
                }
                let best = best_margin(board, &mut stones, player);
                if best < i64::from(goal.at_least) {
                    return Err(fail(
                        index,
                        format!(
                            "{player} ends at most {best} above {} from here: not at least {}",
                            player.opponent(),
                            goal.at_least
                        ),
                    ));
                }
            }
            Node::Held { .. } => {
                return Err(fail(
                    index,
                    "a held loop is no leaf of an euler-getter certificate".to_string(),
                ));
            }
        }
    }
    let (scores, results) = scores(certificate);
    Ok(Verified {
        game: certificate.kind.name(),
        board: board.spec().to_string(),
        cells: board.cell_count(),
        claims: Vec::new(),
        scores,
        results,
        nodes: certificate.nodes.len(),
    })
}

/// What `player`'s characteristic ends above the other's from `stones` with perfect play
/// by both: plain minimax over every order of the remaining moves (endgames only).
fn best_margin(board: &Board, stones: &mut [Option<Player>], player: Player) -> i64 {
    let mover = to_move(stones);
    let mut best: Option<i64> = None;
    for cell in 0..stones.len() {
        if stones[cell].is_some() {
            continue;
        }
        stones[cell] = Some(mover);
        let value = best_margin(board, stones, player);
        stones[cell] = None;
        best = Some(match best {
            None => value,
            Some(known) if mover == player => known.max(value),
            Some(known) => known.min(value),
        });
    }
    best.unwrap_or_else(|| chi(board, stones, player) - chi(board, stones, player.opponent()))
}

/// The Euler characteristic `V - E + F` of the closure of `player`'s cells: its cells, and
/// every vertex and edge a cell of its touches.
pub(crate) fn chi(board: &Board, stones: &[Option<Player>], player: Player) -> i64 {
    let touched = |cells: &[usize]| cells.iter().any(|&c| stones[c] == Some(player));
    let vertices = (0..board.vertex_count())
        .filter(|&v| touched(board.vertex_cells(v)))
        .count();
    let edges = (0..board.edge_count())
        .filter(|&e| touched(&board.edge_cells(e)))
        .count();
    let faces = stones.iter().filter(|&&s| s == Some(player)).count();
    (vertices + faces) as i64 - edges as i64
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::{CertificateError, Kind};

    type Memo = HashMap<Vec<Option<Player>>, i64>;

    /// X's margin `chi X - chi O` with perfect play from `stones`, by minimax over every
    /// move (no solver), scored by the checker's own count.
    fn minimax(board: &Board, stones: &mut Vec<Option<Player>>, memo: &mut Memo) -> i64 {
        if let Some(&known) = memo.get(stones) {
            return known;
        }
        let mover = to_move(stones);
        let empty: Vec<usize> = (0..stones.len()).filter(|&c| stones[c].is_none()).collect();
        let value = if empty.is_empty() {
            chi(board, stones, Player::X) - chi(board, stones, Player::O)
        } else {
            let values = empty.iter().map(|&cell| {
                stones[cell] = Some(mover);
                let value = minimax(board, stones, memo);
                stones[cell] = None;
                value
            });
            let values: Vec<i64> = values.collect();
            match mover {
                Player::X => values.into_iter().max().unwrap(),
                Player::O => values.into_iter().min().unwrap(),
            }
        };
        memo.insert(stones.clone(), value);
        value
    }

    /// Writes `player`'s minimax strategy from `stones` (keeping X's margin at least
    /// `margin` for X, at most it for O) into `certificate`.
    fn strategy(
        certificate: &mut Certificate,
        stones: &mut Vec<Option<Player>>,
        player: Player,
        margin: i64,
        memo: &mut Memo,
    ) -> u32 {
        let board = certificate.board.clone();
        let empty: Vec<usize> = (0..stones.len()).filter(|&c| stones[c].is_none()).collect();
        if empty.len() <= MAX_ENDGAME {
            return certificate.push_endgame();
        }
        if to_move(stones) == player {
            let keeps = |value: i64| match player {
                Player::X => value >= margin,
                Player::O => value <= margin,
            };
            let cell = *empty
                .iter()
                .find(|&&cell| {
                    stones[cell] = Some(player);
                    let value = minimax(&board, stones, memo);
                    stones[cell] = None;
                    keeps(value)
                })
                .unwrap();
            stones[cell] = Some(player);
            let next = strategy(certificate, stones, player, margin, memo);
            stones[cell] = None;
            certificate.push_move(cell, Some(next))
        } else {
            let mut targets = Vec::new();
            for &cell in &empty {
                stones[cell] = Some(player.opponent());
                targets.push(strategy(certificate, stones, player, margin, memo));
                stones[cell] = None;
            }
            certificate.push_replies(&targets)
        }
    }

    /// Both minimax strategies from the empty `spec`, with their claims.
    fn minimax_certificate(spec: &str) -> (Certificate, i64) {
        let board = Board::from_spec(spec).unwrap();
        let mut certificate = Certificate::of(Kind::EulerGetter, board.clone());
        let mut stones = vec![None; board.cell_count()];
        let mut memo = Memo::new();
        let margin = minimax(&board, &mut stones, &mut memo);
        for (player, at_least) in [(Player::X, margin), (Player::O, -margin)] {
            let root = strategy(&mut certificate, &mut stones, player, margin, &mut memo);
            certificate.scores.push(ScoreClaim {
                stones: stones.clone(),
                player,
                at_least: at_least as i32,
                root,
            });
        }
        (certificate, margin)
    }

    fn refused(certificate: &Certificate) -> Invalid {
        let mut text = Vec::new();
        certificate.write_text(&mut text).unwrap();
        match Certificate::read(text.as_slice()).map(|read| verify(&read)) {
            Ok(Err(invalid)) | Err(CertificateError::Invalid(invalid)) => invalid,
            other => panic!("accepted or unreadable: {other:?}"),
        }
    }

    #[test]
    fn minimax_strategies_prove_the_minimax_margin_after_a_round_trip() {
        // goldberg:1: X wins by 1 (the engine's solver agrees, in the game crate's tests).
        let (certificate, margin) = minimax_certificate("goldberg:1");
        assert_eq!(margin, 1);
        let mut text = Vec::new();
        certificate.write_text(&mut text).unwrap();
        let verified = crate::verify(&Certificate::read(text.as_slice()).unwrap()).unwrap();
        assert_eq!(verified.game, "euler-getter");
        assert_eq!(verified.scores.len(), 2);
        let result = &verified.results[0];
        assert_eq!((result.winner, result.margin), (Some(Player::X), 1));
        assert_eq!(
            result.to_string(),
            "X wins by 1 with perfect play from X - / O - (X to move)"
        );
    }

    #[test]
    fn false_claims_and_damage_are_refused_with_the_node_and_the_reason() {
        let (certificate, _) = minimax_certificate("goldberg:1");
        // A larger margin claimed: some endgame falls short.
        let mut damaged = certificate.clone();
        damaged.scores[0].at_least += 2;
        assert!(refused(&damaged).reason.contains("not at least 3"));
        // The claims' players exchanged: the wrong side is to move at each root.
        let mut damaged = certificate.clone();
        damaged.scores[0].player = Player::O;
        assert!(refused(&damaged).reason.contains("is to move here"));
        // An endgame claimed too early: X's first move (six empty cells) made a leaf.
        let root = certificate.scores[0].root as usize;
        let mut damaged = certificate.clone();
        damaged.nodes[root] = Node::Endgame;
        let why = refused(&damaged);
        assert_eq!(why.node, Some(root), "{why}");
        assert!(why.reason.contains("6 empty cells"), "{why}");
        // A held loop is no Euler Getter leaf (nor can it be written as one).
        let mut damaged = certificate;
        damaged.nodes[0] = Node::Held { first: 0, count: 0 };
        assert!(verify(&damaged).unwrap_err().reason.contains("no leaf"));
    }
}
