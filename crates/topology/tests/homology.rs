//! Z2 classes of adjacencies and Euler characteristics of regions.

use crosscap_engine::Player;
use crosscap_topology::Board;

/// True when the cells marked true contain a closed chain with a non-zero class: give each
/// cell of a component a potential so that every step changes it by the step's class; a
/// contradiction is such a chain.
fn has_nonzero_loop(board: &Board, in_region: &[bool]) -> bool {
    let mut potential: Vec<Option<u64>> = vec![None; board.cell_count()];
    for start in 0..board.cell_count() {
        if !in_region[start] || potential[start].is_some() {
            continue;
        }
        potential[start] = Some(0);
        let mut stack = vec![start];
        while let Some(c) = stack.pop() {
            let p = potential[c].unwrap();
            for side in board.sides(c) {
                let d = side.neighbor;
                if !in_region[d] {
                    continue;
                }
                match potential[d] {
                    None => {
                        potential[d] = Some(p ^ side.class);
                        stack.push(d);
                    }
                    Some(q) if q != p ^ side.class => return true,
                    Some(_) => {}
                }
            }
        }
    }
    false
}

#[test]
fn classes_around_every_vertex_cancel() {
    for spec in ["taylor:2", "taylor:5", "goldberg:1", "goldberg:4"] {
        let board = Board::from_spec(spec).unwrap();
        let mut around = vec![0u64; board.vertex_count()];
        let mut seen = std::collections::HashSet::new();
        for cell in 0..board.cell_count() {
            let vertices = board.cell_vertices(cell);
            for (i, side) in board.sides(cell).iter().enumerate() {
                if seen.insert(side.edge) {
                    around[vertices[i]] ^= side.class;
                    around[vertices[(i + 1) % vertices.len()]] ^= side.class;
                }
            }
        }
        assert!(around.iter().all(|&c| c == 0), "{spec}");
    }
}

#[test]
fn the_middle_row_of_a_taylor_board_is_a_global_loop() {
    for n in 2..=6 {
        let board = Board::from_spec(&format!("taylor:{n}")).unwrap();
        let row = (n as u8 + b'a') as char;
        let mut region = vec![false; board.cell_count()];
        for c in 1..=2 * n {
            region[board.cell_index(&format!("{row}{c}")).unwrap()] = true;
        }
        assert!(has_nonzero_loop(&board, &region), "taylor:{n}");
        // Without one cell the row is a path.
        region[board.cell_index(&format!("{row}2")).unwrap()] = false;
        assert!(!has_nonzero_loop(&board, &region), "taylor:{n}");
    }
}

#[test]
fn the_seeds_finished_game_is_won_by_o() {
    let board = Board::from_spec("taylor:3").unwrap();
    let position = board
        .parse_position(".XO/..XO/..OO./.XOX../XOX../XO..")
        .unwrap();
    assert_eq!(position.to_move, Player::X);
    let of = |p: Player| -> Vec<bool> { position.cells.iter().map(|&c| c == Some(p)).collect() };
    assert!(has_nonzero_loop(&board, &of(Player::O)));
    assert!(!has_nonzero_loop(&board, &of(Player::X)));
    assert_eq!(
        board.format_position(&position.cells),
        ".XO/..XO/..OO./.XOX../XOX../XO.."
    );
}

#[test]
fn whole_empty_and_single_cell_regions() {
    for spec in ["taylor:3", "goldberg:2", "goldberg:3"] {
        let board = Board::from_spec(spec).unwrap();
        let n = board.cell_count();
        assert_eq!(board.region_euler_characteristic(&vec![true; n]), 1);
        assert_eq!(board.region_euler_characteristic(&vec![false; n]), 0);
        let mut one = vec![false; n];
        one[n / 2] = true;
        assert_eq!(board.region_euler_characteristic(&one), 1);
    }
}

#[test]
fn a_global_loop_region_has_euler_characteristic_zero() {
    // The middle row of taylor:3 closes through the rim into an annulus or Moebius band.
    let board = Board::from_spec("taylor:3").unwrap();
    let mut region = vec![false; board.cell_count()];
    for c in 1..=6 {
        region[board.cell_index(&format!("d{c}")).unwrap()] = true;
    }
    assert_eq!(board.region_euler_characteristic(&region), 0);
    let complement: Vec<bool> = region.iter().map(|&r| !r).collect();
    assert_eq!(board.region_euler_characteristic(&complement), 1);
}
