//! The answer of an all-openings solve (every first move of an empty board, one class of
//! cells the board's symmetries map onto each other a row), written once for every game
//! that has one: only the value of a class and what it adds about the whole board are
//! the game's (Projective Hex: the second player's winning replies; Euler Getter: the
//! margin, or the bounds proven of it, and the best margin).

use serde::Serialize;

use crate::Player;
use crate::catalog::Status;

/// What a game says of a class of first moves beyond its winner, and of the whole board
/// beyond its winner and winning first moves.
pub trait ClassValue: Serialize {
    /// The game's keys about the whole board (Euler Getter: its rule, the best margin
    /// and the first moves reaching it; `()` when it has none).
    type Board: Serialize;
}

/// One class of first moves, solved or cut short.
#[derive(Clone, Debug, Serialize)]
#[serde(bound = "")]
pub struct OpeningClass<V: ClassValue> {
    /// The cells of the class, the first one solved.
    pub cells: Vec<String>,
    /// The sides (neighbours through edges) of the cells: 5 for a pentagon.
    pub sides: usize,
    /// Who wins after the first move with best play, when solved or proven before the
    /// budget ran out.
    pub winner: Option<Player>,
    /// The game's value of the class.
    #[serde(flatten)]
    pub value: V,
    /// Nodes and thread time of the class's jobs (those cut short included).
    pub nodes: u64,
    pub millis: f64,
    /// Solved, or unknown with the limit that ran out on one of the class's jobs.
    #[serde(flatten)]
    pub status: Status,
}

/// Every first move of a board: one class of symmetric cells a row.
#[derive(Clone, Debug, Serialize)]
#[serde(bound = "")]
pub struct Openings<V: ClassValue> {
    pub board: String,
    pub cells: usize,
    /// `solved` when every class is.
    #[serde(flatten)]
    pub status: Status,
    /// The board's winner: X when some first move is proved to win, O when every class
    /// is solved and none does; `None` otherwise.
    pub winner: Option<Player>,
    /// The first moves proved to win, every cell of each winning class.
    pub winning_moves: Vec<String>,
    #[serde(flatten)]
    pub game: V::Board,
    pub classes: usize,
    pub openings: Vec<OpeningClass<V>>,
    /// Nodes of every class, and the wall time.
    pub nodes: u64,
    pub millis: f64,
}

impl<V: ClassValue> Openings<V> {
    /// The answer of a board from its classes; `game` gives the game's keys from the
    /// classes and the status of them all.
    pub fn of(
        board: String,
        cells: usize,
        openings: Vec<OpeningClass<V>>,
        game: impl FnOnce(&[OpeningClass<V>], Status) -> V::Board,
        millis: f64,
    ) -> Openings<V> {
        let status = Status::of_parts(openings.iter().map(|o| o.status));
        let winning_moves: Vec<String> = openings
            .iter()
            .filter(|o| o.winner == Some(Player::X))
            .flat_map(|o| o.cells.iter().cloned())
            .collect();
        Openings {
            board,
            cells,
            status,
            winner: match (winning_moves.is_empty(), status) {
                (false, _) => Some(Player::X),
                (true, Status::Solved) => Some(Player::O),
                (true, Status::Unknown { .. }) => None,
            },
            winning_moves,
            game: game(&openings, status),
            classes: openings.len(),
            nodes: openings.iter().map(|o| o.nodes).sum(),
            millis,
            openings,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Exhausted;

    #[derive(Clone, Debug, Serialize)]
    struct Replies {
        replies: usize,
    }

    impl ClassValue for Replies {
        type Board = ();
    }

    fn class(cells: &[&str], winner: Option<Player>, status: Status) -> OpeningClass<Replies> {
        OpeningClass {
            cells: cells.iter().map(ToString::to_string).collect(),
            sides: 6,
            winner,
            value: Replies { replies: 1 },
            nodes: 10,
            millis: 1.0,
            status,
        }
    }

    /// X wins as soon as one class is proved won, even with others unknown; O only when
    /// every class is solved and lost; nobody is named otherwise.
    #[test]
    fn the_board_is_won_by_a_proved_class_and_lost_by_all() {
        let unknown = Status::Unknown {
            reason: Exhausted::Nodes,
        };
        let answer = |classes| Openings::of("b".into(), 3, classes, |_, _| (), 5.0);
        let won = answer(vec![
            class(&["a1"], Some(Player::O), Status::Solved),
            class(&["b1", "b2"], Some(Player::X), Status::Solved),
            class(&["c1"], None, unknown),
        ]);
        assert_eq!((won.status, won.winner), (unknown, Some(Player::X)));
        assert_eq!(
            (won.winning_moves, won.nodes, won.classes),
            (vec!["b1".to_string(), "b2".to_string()], 30, 3)
        );
        let lost = answer(vec![class(&["a1"], Some(Player::O), Status::Solved)]);
        assert_eq!(
            (lost.status, lost.winner),
            (Status::Solved, Some(Player::O))
        );
        let open = answer(vec![
            class(&["a1"], Some(Player::O), Status::Solved),
            class(&["c1"], None, unknown),
        ]);
        assert_eq!(open.winner, None);
    }

    /// A class's value and the board's game keys sit in the JSON beside the shared keys
    /// (no key of their own), so every game's answer has one shape.
    #[test]
    fn the_game_keys_are_flattened() {
        let answer = Openings::of(
            "b".into(),
            1,
            vec![class(&["a1"], Some(Player::X), Status::Solved)],
            |_, _| (),
            0.0,
        );
        let json = serde_json::to_value(&answer).unwrap();
        assert_eq!(json["openings"][0]["replies"], 1);
        assert_eq!(json["status"], "solved");
        assert!(json.get("game").is_none() && json["openings"][0].get("value").is_none());
    }
}
