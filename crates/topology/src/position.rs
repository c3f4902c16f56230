//! Position strings: one character per cell in cell order, `.` empty, `X` and `O` stones;
//! `/` and white space are ignored.

use crosscap_engine::Player;

use crate::Board;
use crate::error::PositionError;

/// The stones on a board and the player to move (X when both have as many stones, O when X
/// has one more).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub cells: Vec<Option<Player>>,
    pub to_move: Player,
}

pub(crate) fn parse(board: &Board, text: &str) -> Result<Position, PositionError> {
    let expected = board.cell_count();
    let mut cells = Vec::with_capacity(expected);
    for (offset, ch) in text.chars().enumerate() {
        if ch == '/' || ch.is_whitespace() {
            continue;
        }
        if cells.len() == expected {
            return Err(PositionError::TooLong {
                expected,
                offset: offset + 1,
            });
        }
        cells.push(match ch {
            '.' => None,
            'X' => Some(Player::X),
            'O' => Some(Player::O),
            found => {
                return Err(PositionError::BadCharacter {
                    found,
                    offset: offset + 1,
                    cell: board.cell_name(cells.len()).to_string(),
                });
            }
        });
    }
    if cells.len() < expected {
        return Err(PositionError::TooShort {
            found: cells.len(),
            expected,
            missing: board.cell_name(cells.len()).to_string(),
        });
    }
    let count = |p: Player| cells.iter().filter(|&&c| c == Some(p)).count();
    let (x, o) = (count(Player::X), count(Player::O));
    let to_move = if x == o {
        Player::X
    } else if x == o + 1 {
        Player::O
    } else {
        return Err(PositionError::BadCounts { x, o });
    };
    Ok(Position { cells, to_move })
}

pub(crate) fn format(board: &Board, cells: &[Option<Player>]) -> String {
    let mut out = String::with_capacity(cells.len() + board.rows().len());
    let mut next = cells.iter();
    for (r, &len) in board.rows().iter().enumerate() {
        if r > 0 {
            out.push('/');
        }
        for cell in next.by_ref().take(len) {
            out.push(match cell {
                None => '.',
                Some(Player::X) => 'X',
                Some(Player::O) => 'O',
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> Board {
        Board::from_spec("taylor:2").expect("taylor:2 is valid")
    }

    #[test]
    fn parses_with_separators_and_white_space() {
        let p = board().parse_position("X./O.. / ...\n./...").unwrap();
        assert_eq!(p.cells.len(), 12);
        assert_eq!(p.cells[0], Some(Player::X));
        assert_eq!(p.cells[2], Some(Player::O));
        assert_eq!(p.to_move, Player::X);
        let p = board().parse_position("X...........").unwrap();
        assert_eq!(p.to_move, Player::O);
    }

    #[test]
    fn errors_name_the_offending_place() {
        let b = board();
        assert_eq!(
            b.parse_position("..x").unwrap_err(),
            PositionError::BadCharacter {
                found: 'x',
                offset: 3,
                cell: "b1".to_string()
            }
        );
        assert_eq!(
            b.parse_position("............X").unwrap_err(),
            PositionError::TooLong {
                expected: 12,
                offset: 13
            }
        );
        assert_eq!(
            b.parse_position("..").unwrap_err(),
            PositionError::TooShort {
                found: 2,
                expected: 12,
                missing: "b1".to_string()
            }
        );
        assert_eq!(
            b.parse_position("XX..........").unwrap_err(),
            PositionError::BadCounts { x: 2, o: 0 }
        );
        assert_eq!(
            b.parse_position("O...........").unwrap_err(),
            PositionError::BadCounts { x: 0, o: 1 }
        );
    }

    #[test]
    fn formats_rows_with_slashes() {
        let b = board();
        let mut cells = vec![None; 12];
        cells[0] = Some(Player::X);
        cells[11] = Some(Player::O);
        assert_eq!(b.format_position(&cells), "X./.../..../..O");
    }
}
