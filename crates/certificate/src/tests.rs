//! The checker against strategies built here by plain minimax (no solver), and against
//! every kind of damage a certificate can take.

use std::collections::HashMap;

use super::*;

/// Who wins from `stones` with `to_move` to move, by minimax over every move.
fn minimax(
    board: &Board,
    stones: &mut Vec<Option<Player>>,
    to_move: Player,
    memo: &mut HashMap<Vec<Option<Player>>, Player>,
) -> Player {
    if let Some(&known) = memo.get(stones) {
        return known;
    }
    let mut winner = to_move.opponent();
    for cell in 0..stones.len() {
        if stones[cell].is_some() {
            continue;
        }
        stones[cell] = Some(to_move);
        let wins = check::has_loop_through(board, stones, cell)
            || minimax(board, stones, to_move.opponent(), memo) == to_move;
        stones[cell] = None;
        if wins {
            winner = to_move;
            break;
        }
    }
    memo.insert(stones.clone(), winner);
    winner
}

/// Writes the minimax strategy of `winner` from `stones` into `certificate`.
fn strategy(
    certificate: &mut Certificate,
    stones: &mut Vec<Option<Player>>,
    to_move: Player,
    winner: Player,
    memo: &mut HashMap<Vec<Option<Player>>, Player>,
    written: &mut HashMap<Vec<Option<Player>>, u32>,
) -> u32 {
    if let Some(&node) = written.get(stones) {
        return node;
    }
    let board = certificate.board.clone();
    let empty: Vec<usize> = (0..stones.len()).filter(|&c| stones[c].is_none()).collect();
    let node = if to_move == winner {
        let mut chosen = None;
        for &cell in &empty {
            stones[cell] = Some(winner);
            if check::has_loop_through(&board, stones, cell) {
                chosen = Some((cell, None));
            } else if minimax(&board, stones, winner.opponent(), memo) == winner {
                let next = strategy(
                    certificate,
                    stones,
                    winner.opponent(),
                    winner,
                    memo,
                    written,
                );
                chosen = Some((cell, Some(next)));
            }
            stones[cell] = None;
            if chosen.is_some() {
                break;
            }
        }
        let (cell, next) = chosen.expect("the winner has a winning move");
        certificate.push_move(cell, next)
    } else {
        let mut targets = Vec::new();
        for &cell in &empty {
            stones[cell] = Some(to_move);
            targets.push(strategy(certificate, stones, winner, winner, memo, written));
            stones[cell] = None;
        }
        certificate.push_replies(&targets)
    };
    written.insert(stones.clone(), node);
    node
}

/// A certificate of the winner of each position after one move on `spec`.
fn openings_certificate(spec: &str) -> Certificate {
    let board = Board::from_spec(spec).unwrap();
    let mut certificate = Certificate::new(board.clone());
    let (mut memo, mut written) = (HashMap::new(), HashMap::new());
    for opening in 0..board.cell_count() {
        let mut stones = vec![None; board.cell_count()];
        stones[opening] = Some(Player::X);
        let winner = minimax(&board, &mut stones, Player::O, &mut memo);
        let root = strategy(
            &mut certificate,
            &mut stones,
            Player::O,
            winner,
            &mut memo,
            &mut written,
        );
        certificate.claims.push(Claim {
            stones,
            winner,
            root,
        });
    }
    certificate
}

fn round_trip(certificate: &Certificate) -> Result<Certificate, CertificateError> {
    let mut text = Vec::new();
    certificate.write_text(&mut text).unwrap();
    Certificate::read(text.as_slice())
}

fn invalid(certificate: &Certificate) -> Invalid {
    match round_trip(certificate).map(|read| verify(&read)) {
        Ok(Err(invalid)) => invalid,
        Err(CertificateError::Invalid(invalid)) => invalid,
        other => panic!("accepted or unreadable: {other:?}"),
    }
}

#[test]
fn minimax_strategies_verify_after_a_round_trip_through_text_and_zstd() {
    for spec in ["goldberg:1", "taylor:2"] {
        let certificate = openings_certificate(spec);
        let verified = verify(&round_trip(&certificate).unwrap()).unwrap();
        assert_eq!(verified.claims.len(), certificate.board.cell_count());
        assert_eq!(verified.nodes, certificate.nodes.len());
        let path = std::env::temp_dir().join(format!("crosscap-cert-{spec}.cert.zst"));
        certificate.save(&path).unwrap();
        let loaded = Certificate::load(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(loaded.nodes, certificate.nodes);
        assert_eq!(loaded.claims, certificate.claims);
    }
}

#[test]
fn taylor_2_corner_openings_lose_as_the_solver_found() {
    let certificate = openings_certificate("taylor:2");
    let verified = verify(&certificate).unwrap();
    let corner = verified.claims.iter().find(|c| c.x == ["a1"]).unwrap();
    assert_eq!(corner.winner, Player::O);
    assert_eq!(corner.to_move, Player::O);
}

#[test]
fn a_claim_for_the_other_player_is_refused() {
    let mut certificate = openings_certificate("goldberg:1");
    certificate.claims[0].winner = certificate.claims[0].winner.opponent();
    let why = invalid(&certificate);
    assert!(
        why.reason.contains("the loser, is to move")
            || why.reason.contains("the winner, is to move"),
        "{why}"
    );
}

#[test]
fn a_move_onto_a_taken_cell_is_refused() {
    let certificate = openings_certificate("taylor:2");
    // After an opening X wins, every position below its claim has the opening cell taken:
    // X's first answer changed to that cell is refused at its node.
    let claim = certificate
        .claims
        .iter()
        .find(|c| c.winner == Player::X)
        .unwrap();
    let opening = claim.stones.iter().position(Option::is_some).unwrap();
    let Node::Replies { first, .. } = certificate.nodes[claim.root as usize] else {
        panic!("O is to move after the opening");
    };
    let answer = certificate.lists[first as usize] as usize;
    let Node::Move { next, .. } = certificate.nodes[answer] else {
        panic!("the winner answers");
    };
    let mut damaged = certificate.clone();
    damaged.nodes[answer] = Node::Move {
        cell: opening as u32,
        next,
    };
    let why = invalid(&damaged);
    assert_eq!(why.node, Some(answer));
    let name = certificate.board.cell_name(opening);
    assert_eq!(why.reason, format!("{name} is taken"));
}

#[test]
fn damage_is_refused_with_the_node_and_the_reason() {
    let certificate = openings_certificate("goldberg:1");
    let last_move = (0..certificate.nodes.len())
        .rev()
        .find(|&i| matches!(certificate.nodes[i], Node::Move { next: Some(_), .. }))
        .unwrap();
    let Node::Move { cell, .. } = certificate.nodes[last_move] else {
        unreachable!()
    };
    // A win claimed for a move that does not close a loop.
    let mut damaged = certificate.clone();
    damaged.nodes[last_move] = Node::Move { cell, next: None };
    let why = invalid(&damaged);
    assert_eq!(why.node, Some(last_move));
    assert!(why.reason.contains("does not close a loop"), "{why}");
    // A reply left out.
    let replies = (0..certificate.nodes.len())
        .find(|&i| matches!(certificate.nodes[i], Node::Replies { count, .. } if count > 1))
        .unwrap();
    let mut damaged = certificate.clone();
    if let Node::Replies { count, .. } = &mut damaged.nodes[replies] {
        *count -= 1;
    }
    assert!(invalid(&damaged).reason.contains("replies for"));
    // A node no claim reaches.
    let mut damaged = certificate.clone();
    damaged.push_move(0, None);
    assert!(invalid(&damaged).reason.contains("no claim reaches"));
    // A start position where the game is over, or not one X started.
    let mut damaged = certificate.clone();
    damaged.claims[0].stones = vec![Some(Player::O); 6];
    assert!(
        invalid(&damaged)
            .reason
            .contains("not a position of a game X started")
    );
}

#[test]
fn text_that_is_no_certificate_is_unreadable() {
    for text in [
        "",
        "hello",
        "crosscap-certificate 1\ngame nim\n",
        "crosscap-certificate 1\ngame projective-hex\nboard nowhere:3\n",
        "crosscap-certificate 1\ngame projective-hex\nboard goldberg:1\nnodes 0\n",
        "crosscap-certificate 1\ngame projective-hex\nboard goldberg:1\nclaim X..... X 0\nnodes 2\nm 1\n",
        "crosscap-certificate 1\ngame projective-hex\nboard goldberg:1\nclaim X..... X 0\nnodes 1\nq\n",
    ] {
        assert!(
            matches!(
                Certificate::read(text.as_bytes()),
                Err(CertificateError::Unreadable(_))
            ),
            "{text:?}"
        );
    }
}
