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
        let wins = loops::has_loop_through(board, stones, cell)
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

/// The empty cells left when the loser is given every empty cell, one after another, that
/// leaves the winner winning (by minimax, with `to_move` to move): a carrier in which each
/// cell is needed (the loser's stones only help the loser, so a cell the winner could not
/// spare then cannot be spared later either). Each minimax runs with a memo of its own:
/// with the loser's extra stones the counts no longer tell who moves.
fn minimal_carrier(
    board: &Board,
    stones: &[Option<Player>],
    to_move: Player,
    winner: Player,
) -> Vec<u32> {
    let mut given = stones.to_vec();
    for cell in 0..given.len() {
        if given[cell].is_some() {
            continue;
        }
        given[cell] = Some(winner.opponent());
        let spared = !loops::has_loop_through(board, &given, cell)
            && minimax(board, &mut given, to_move, &mut HashMap::new()) == winner;
        if !spared {
            given[cell] = None;
        }
    }
    (0..given.len() as u32)
        .filter(|&c| given[c as usize].is_none())
        .collect()
}

/// Writes the minimax strategy of `winner` from `stones` into `certificate`, with a
/// minimal carrier as the leaf of every position of at most `carriers` empty cells.
fn strategy(
    certificate: &mut Certificate,
    stones: &mut Vec<Option<Player>>,
    (to_move, winner): (Player, Player),
    carriers: usize,
    memo: &mut HashMap<Vec<Option<Player>>, Player>,
    written: &mut HashMap<Vec<Option<Player>>, u32>,
) -> u32 {
    if let Some(&node) = written.get(stones) {
        return node;
    }
    let board = certificate.board.clone();
    let empty: Vec<usize> = (0..stones.len()).filter(|&c| stones[c].is_none()).collect();
    let node = if empty.len() <= carriers {
        let cells = minimal_carrier(&board, stones, to_move, winner);
        certificate.push_carrier(&cells)
    } else if to_move == winner {
        let mut chosen = None;
        for &cell in &empty {
            stones[cell] = Some(winner);
            if loops::has_loop_through(&board, stones, cell) {
                chosen = Some((cell, None));
            } else if minimax(&board, stones, winner.opponent(), memo) == winner {
                let next = strategy(
                    certificate,
                    stones,
                    (winner.opponent(), winner),
                    carriers,
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
            targets.push(strategy(
                certificate,
                stones,
                (winner, winner),
                carriers,
                memo,
                written,
            ));
            stones[cell] = None;
        }
        certificate.push_replies(&targets)
    };
    written.insert(stones.clone(), node);
    node
}

/// A certificate of the winner of each position after one move on `spec`.
fn openings_certificate(spec: &str) -> Certificate {
    carrier_certificate(spec, 0)
}

/// [`openings_certificate`] with minimal carriers as the leaves of positions of at most
/// `carriers` empty cells.
fn carrier_certificate(spec: &str, carriers: usize) -> Certificate {
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
            (Player::O, winner),
            carriers,
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
    assert!(why.reason.contains("is to move here"), "{why}");
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
        "crosscap-certificate 1\ngame projective-hex\nboard goldberg:1\nclaim X..... O 0\nnodes 1\nc 2 3\n",
        "crosscap-certificate 5\ngame projective-hex\nboard goldberg:1\nclaim X..... O 0\nnodes 1\nc 2 3\n",
        "crosscap-certificate 3\ngame projective-hex\nboard goldberg:1\nclaim X..... O 0\nnodes 1\np 2 3\n",
        "crosscap-certificate 2\ngame euler-getter\nboard goldberg:1\nclaim X..... O 1 0\nnodes 1\np 2 3\n",
        "crosscap-certificate 2\ngame euler-getter\nboard goldberg:1\nclaim X..... O 1 0\nnodes 1\nc 2 3\n",
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

/// The reason a text is unreadable.
fn unreadable(text: &[u8]) -> String {
    match Certificate::read(text) {
        Err(CertificateError::Unreadable(reason)) => reason,
        other => panic!("not refused as unreadable: {other:?}"),
    }
}

/// A small zstd file may unpack to any size: a line too long, a node count that the
/// checker's memory could not hold, text past the limit and lines after the last node are
/// refused as soon as they are met, before the memory is spent.
#[test]
fn certificates_too_large_to_check_are_refused_before_they_are_read() {
    let long = format!("crosscap-certificate 1{}\n", " ".repeat(MAX_LINE_BYTES));
    let compressed = zstd::encode_all(long.as_bytes(), 1).unwrap();
    assert!(compressed.len() < 10_000);
    assert_eq!(
        unreadable(&compressed),
        format!("line 1: longer than {MAX_LINE_BYTES} bytes")
    );

    let mut valid = Vec::new();
    openings_certificate("taylor:2")
        .write_text(&mut valid)
        .unwrap();
    let valid = String::from_utf8(valid).unwrap();
    let nodes_line = valid
        .lines()
        .find(|line| line.starts_with("nodes "))
        .unwrap();
    let header = |nodes: &str| valid.replace(nodes_line, nodes);
    let reason = unreadable(header("nodes 4000000000").as_bytes());
    assert!(reason.contains("4000000000 nodes of 12 cells"), "{reason}");
    // On a large board, fewer nodes than the node count's bound are too many for the
    // positions' memory.
    let cells = Board::from_spec("goldberg:20").unwrap().cell_count();
    let nodes = MAX_POSITION_BYTES / (check::position_words(cells) as u64 * 8) + 1;
    assert!(nodes < u64::from(MAX_NODES));
    let board =
        format!("crosscap-certificate 1\ngame projective-hex\nboard goldberg:20\nnodes {nodes}\n");
    let reason = unreadable(board.as_bytes());
    assert!(
        reason.contains(&format!("{nodes} nodes of {cells} cells")),
        "{reason}"
    );

    let mut more = valid.clone();
    more.push_str("m a1 1\n");
    assert!(unreadable(more.as_bytes()).ends_with("more lines than the node count"));

    let mut reader = Reader::new(valid.as_bytes());
    reader.text_left = valid.len() - 1;
    match reader.certificate() {
        Err(CertificateError::Unreadable(reason)) => {
            assert!(reason.contains("the text goes on past"), "{reason}")
        }
        other => panic!("not refused: {other:?}"),
    }
    let mut reader = Reader::new(valid.as_bytes());
    reader.text_left = valid.len();
    assert!(verify(&reader.certificate().unwrap()).is_ok());
}

/// The carriers of a strategy's leaves.
fn carriers(certificate: &Certificate) -> Vec<usize> {
    (0..certificate.nodes.len())
        .filter(|&i| matches!(certificate.nodes[i], Node::Carrier { .. }))
        .collect()
}

#[test]
fn minimal_carrier_leaves_verify_after_a_round_trip() {
    for (spec, below) in [
        ("goldberg:1", 4),
        ("taylor:2", 8),
        ("taylor:2", MAX_CARRIER),
    ] {
        let certificate = carrier_certificate(spec, below);
        assert!(!carriers(&certificate).is_empty(), "{spec}");
        let mut text = Vec::new();
        certificate.write_text(&mut text).unwrap();
        assert!(text.starts_with(b"crosscap-certificate 2\n"));
        let verified = verify(&Certificate::read(text.as_slice()).unwrap()).unwrap();
        assert_eq!(
            verified.claims.len(),
            certificate.board.cell_count(),
            "{spec}"
        );
        // The same winners as the strategies written out move by move.
        let plain = verify(&openings_certificate(spec)).unwrap();
        let winners = |v: &Verified| v.claims.iter().map(|c| c.winner).collect::<Vec<_>>();
        assert_eq!(winners(&verified), winners(&plain), "{spec}");
    }
}

/// Random goldberg:2 positions of 12 empty cells, proved with carriers from 9 empty cells
/// down, where the loser is given cells outside them.
#[test]
fn carrier_leaves_verify_on_goldberg_2_positions() {
    let board = Board::from_spec("goldberg:2").unwrap();
    let mut rng = crosscap_engine::Rng::new(31);
    let mut given_away = 0;
    for _ in 0..6 {
        let Some(stones) = random_position(&board, 9, &mut rng) else {
            continue;
        };
        let mut certificate = Certificate::new(board.clone());
        let mut memo = HashMap::new();
        let mover = to_move(&stones);
        let winner = minimax(&board, &mut stones.clone(), mover, &mut memo);
        let root = strategy(
            &mut certificate,
            &mut stones.clone(),
            (mover, winner),
            9,
            &mut memo,
            &mut HashMap::new(),
        );
        certificate.claims.push(Claim {
            stones,
            winner,
            root,
        });
        let verified = verify(&round_trip(&certificate).unwrap()).unwrap();
        assert_eq!(verified.claims[0].winner, winner);
        given_away += carriers(&certificate)
            .iter()
            .filter(|&&i| matches!(certificate.nodes[i], Node::Carrier { count, .. } if count < 9))
            .count();
    }
    assert!(given_away > 0, "no carrier left out a cell");
}

/// A position of `stones` random moves with no loop, or `None` when one was closed.
fn random_position(
    board: &Board,
    stones: usize,
    rng: &mut crosscap_engine::Rng,
) -> Option<Vec<Option<Player>>> {
    let mut position = vec![None; board.cell_count()];
    for _ in 0..stones {
        let empty: Vec<usize> = (0..position.len())
            .filter(|&c| position[c].is_none())
            .collect();
        let cell = empty[rng.below(empty.len())];
        position[cell] = Some(to_move(&position));
        if loops::has_loop_through(board, &position, cell) {
            return None;
        }
    }
    Some(position)
}

#[test]
fn a_carrier_without_a_cell_it_needs_is_refused_with_its_node() {
    let certificate = carrier_certificate("taylor:2", 8);
    let (&leaf, count) = carriers(&certificate)
        .iter()
        .filter_map(|i| match certificate.nodes[*i] {
            Node::Carrier { count, .. } if count > 1 => Some((i, count)),
            _ => None,
        })
        .next()
        .unwrap();
    let mut damaged = certificate.clone();
    let Node::Carrier { first, .. } = certificate.nodes[leaf] else {
        unreachable!()
    };
    damaged.nodes[leaf] = Node::Carrier {
        first,
        count: count - 1,
    };
    let why = invalid(&damaged);
    assert_eq!(why.node, Some(leaf), "{why}");
    assert!(
        why.reason.contains("inside the carrier") || why.reason.contains("has a loop"),
        "{why}"
    );
}

#[test]
fn a_carrier_of_13_cells_or_a_taken_cell_is_refused() {
    let board = Board::from_spec("goldberg:2").unwrap();
    let mut stones = vec![None; board.cell_count()];
    stones[0] = Some(Player::X);
    let mut too_many = Certificate::new(board.clone());
    let cells: Vec<u32> = (1..=MAX_CARRIER as u32 + 1).collect();
    too_many.push_carrier(&cells);
    too_many.claims.push(Claim {
        stones: stones.clone(),
        winner: Player::X,
        root: 0,
    });
    let why = invalid(&too_many);
    assert_eq!(why.node, Some(0));
    assert_eq!(why.reason, "a carrier of 13 cells: at most 12");
    let mut taken = too_many;
    taken.lists = vec![0, 1];
    taken.nodes[0] = Node::Carrier { first: 0, count: 2 };
    assert!(invalid(&taken).reason.contains("cell 1 is taken"));
}

/// The carrier check against plain minimax on random positions of taylor:2 and goldberg:2
/// with random carriers: it accepts exactly when the loser, given every empty cell outside
/// the carrier, has no loop and the claimed winner wins the rest by minimax.
#[test]
fn the_carrier_check_agrees_with_minimax() {
    let mut rng = crosscap_engine::Rng::new(5);
    let (mut accepted, mut refused) = (0, 0);
    for (spec, stones) in [("taylor:2", 2), ("taylor:2", 4), ("goldberg:2", 11)] {
        let board = Board::from_spec(spec).unwrap();
        for _ in 0..40 {
            let Some(position) = random_position(&board, stones, &mut rng) else {
                continue;
            };
            let empty: Vec<u32> = (0..position.len() as u32)
                .filter(|&c| position[c as usize].is_none())
                .collect();
            let cells: Vec<u32> = empty
                .iter()
                .copied()
                .filter(|_| rng.below(4) != 0)
                .take(MAX_CARRIER)
                .collect();
            let mover = to_move(&position);
            for winner in [Player::X, Player::O] {
                let mut given = position.clone();
                let mut loser_loop = false;
                for &cell in empty.iter().filter(|c| !cells.contains(c)) {
                    given[cell as usize] = Some(winner.opponent());
                    loser_loop |= loops::has_loop_through(&board, &given, cell as usize);
                }
                let expected = !loser_loop
                    && minimax(&board, &mut given, mover, &mut HashMap::new()) == winner;
                let checked = check::carrier(&board, &mut position.clone(), winner, &cells);
                assert_eq!(checked.is_ok(), expected, "{spec} {position:?} {cells:?}");
                if expected {
                    accepted += 1;
                } else {
                    refused += 1;
                }
            }
        }
    }
    assert!(accepted > 10 && refused > 10, "{accepted} {refused}");
}

/// Carriers cut short by a cell, some of which then fail, and a loser's node left a reply
/// short above or among them: on 1, 2 and 4 threads the same answer, the first failure the
/// walk meets (it goes from the last node up, leaves included): the last failing carrier,
/// unless the damaged loser's node comes after it.
#[test]
fn the_first_failure_is_the_same_on_any_number_of_threads() {
    let certificate = carrier_certificate("taylor:2", 8);
    let cut = |certificate: &mut Certificate, leaf: usize| {
        if let Node::Carrier { count, .. } = &mut certificate.nodes[leaf] {
            *count -= 1;
        }
    };
    let cuttable: Vec<usize> = carriers(&certificate)
        .into_iter()
        .filter(|&leaf| matches!(certificate.nodes[leaf], Node::Carrier { count, .. } if count > 1))
        .collect();
    let fails_alone = |&&leaf: &&usize| {
        let mut damaged = certificate.clone();
        cut(&mut damaged, leaf);
        verify(&damaged).is_err_and(|why| why.node == Some(leaf))
    };
    let last = *cuttable.iter().rev().find(fails_alone).unwrap();
    let earliest = *cuttable.iter().find(fails_alone).unwrap();
    assert!(earliest < last, "{earliest} {last}");
    let mut damaged = certificate.clone();
    for &leaf in &cuttable {
        cut(&mut damaged, leaf);
    }
    let same_on_any = |certificate: &Certificate| {
        let first = verify_on(certificate, 1).unwrap_err();
        for threads in [2, 4] {
            assert_eq!(verify_on(certificate, threads).unwrap_err(), first);
        }
        first
    };
    assert_eq!(same_on_any(&damaged).node, Some(last));
    let replies = |range: std::ops::Range<usize>| {
        range
            .filter(|&i| matches!(certificate.nodes[i], Node::Replies { count, .. } if count > 1))
            .collect::<Vec<_>>()
    };
    let after = replies(last + 1..certificate.nodes.len());
    let among = replies(earliest + 1..last);
    for (node, expected) in [(after.first(), after.first()), (among.last(), Some(&last))] {
        let node = *node.expect("a loser's node there");
        let mut short = damaged.clone();
        if let Node::Replies { count, .. } = &mut short.nodes[node] {
            *count -= 1;
        }
        let first = same_on_any(&short);
        assert_eq!(first.node, expected.copied(), "{first}");
    }
}
