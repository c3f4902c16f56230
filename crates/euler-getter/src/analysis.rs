//! What Euler Getter answers beyond play: the score of a position, both regions counted
//! two ways, and the survey of the claim "the first player wins whenever the number of
//! cells is even".

use std::fmt;

use crosscap_engine::catalog::{Part, Status};
use crosscap_engine::session::SetupLimits;
use crosscap_engine::{Budget, Game, Player};
use serde::Serialize;
use serde_json::Value;

use crate::region::RegionCounts;
use crate::{EulerGetter, EulerGetterError, Rule, SwapRule, new_game, region_json, solve};

/// One value per player, `X` and `O` in JSON.
#[derive(Clone, Debug, Serialize)]
pub struct PerPlayer<T> {
    #[serde(rename = "X")]
    pub x: T,
    #[serde(rename = "O")]
    pub o: T,
}

impl<T> PerPlayer<T> {
    pub(crate) fn of(f: impl Fn(Player) -> T) -> Self {
        PerPlayer {
            x: f(Player::X),
            o: f(Player::O),
        }
    }

    pub fn get(&self, player: Player) -> &T {
        match player {
            Player::X => &self.x,
            Player::O => &self.o,
        }
    }
}

/// The score of a position: each region's Euler characteristic as V - E + F and as
/// pieces minus loops, and the winner once the board is full.
#[derive(Clone, Debug, Serialize)]
pub struct Score {
    pub board: String,
    pub surface: String,
    pub surface_chi: i64,
    pub position: String,
    pub rule: String,
    pub chi: PerPlayer<i64>,
    pub components: PerPlayer<usize>,
    pub loops: PerPlayer<usize>,
    pub counts: PerPlayer<RegionCounts>,
    pub regions: PerPlayer<Value>,
    pub full: bool,
    pub winner: Option<Player>,
    /// The player to move while the game goes on.
    pub to_move: Option<Player>,
    pub empty_cells: usize,
}

/// The score of `game`'s position.
pub fn score(game: &EulerGetter) -> Score {
    let board = game.complex().board();
    let analyses = PerPlayer::of(|p| game.analysis(p));
    let over = game.outcome();
    Score {
        board: board.spec().to_string(),
        surface: board.surface().to_string(),
        surface_chi: game.complex().euler_characteristic(),
        position: board.format_position(&game.owners()),
        rule: game.rule().to_string(),
        chi: PerPlayer::of(|p| game.chi(p)),
        components: PerPlayer::of(|p| analyses.get(p).components),
        loops: PerPlayer::of(|p| analyses.get(p).loops),
        counts: PerPlayer::of(|p| game.counts(p)),
        regions: PerPlayer::of(|p| region_json(game, p)),
        full: game.is_full(),
        winner: over.and_then(|o| o.winner),
        to_move: over.is_none().then(|| game.to_move()),
        empty_cells: board.cell_count() - game.placed(),
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} of Euler characteristic {}, {} rule",
            self.board, self.surface, self.surface_chi, self.rule
        )?;
        for p in Player::BOTH {
            let c = self.counts.get(p);
            writeln!(
                f,
                "{p}: chi {} = {} - {}   (V {} - E {} + F {})",
                self.chi.get(p),
                plural(*self.components.get(p), "piece"),
                plural(*self.loops.get(p), "loop"),
                c.vertices,
                c.edges,
                c.faces
            )?;
        }
        match (self.to_move, self.winner) {
            (Some(mover), _) => writeln!(
                f,
                "game in progress, {mover} to move ({} empty cells)",
                self.empty_cells
            ),
            (None, Some(winner)) => writeln!(f, "{winner} wins ({} rule)", self.rule),
            (None, None) => writeln!(f, "tie"),
        }
    }
}

/// `1 piece`, `2 pieces`.
pub(crate) fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Solved boards against the claim that the first player wins every board with an even
/// number of cells.
#[derive(Clone, Debug, Serialize)]
pub struct Survey {
    pub rule: String,
    pub swap: String,
    /// `solved` when every board is.
    #[serde(flatten)]
    pub status: Status,
    pub boards: Vec<SurveyRow>,
}

/// One board of a survey, solved from the empty board or cut short by its budget.
#[derive(Clone, Debug, Serialize)]
pub struct SurveyRow {
    pub board: String,
    /// The board's short name ([`crosscap_topology::Board::name`]), for tables.
    pub name: String,
    pub cells: usize,
    pub surface: String,
    #[serde(flatten)]
    pub solved: Part<ClaimCheck>,
}

/// A board's answer to the claim.
#[derive(Clone, Debug, Serialize)]
pub struct ClaimCheck {
    /// `first` or `second`: who wins with perfect play.
    pub winner: &'static str,
    /// chi X - chi O at the end of perfect play.
    pub margin: i32,
    pub claim: Claim,
}

/// What a board says of the claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Claim {
    /// An even board won by the first player.
    #[serde(rename = "holds")]
    Holds,
    /// An even board won by the second player.
    #[serde(rename = "fails")]
    Fails,
    /// An odd board: the claim says nothing.
    #[serde(rename = "n/a (odd)")]
    Odd,
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Claim::Holds => "holds",
            Claim::Fails => "fails",
            Claim::Odd => "n/a (odd)",
        })
    }
}

/// Solves the empty board of each spec under `rule` and `swap`, each with `budget` of its
/// own, and checks the claim. Every board is set up (and a bad one refused) before any is
/// solved; `on_board_done` is called after each (for a progress bar).
pub fn survey(
    specs: &[String],
    rule: Rule,
    swap: SwapRule,
    budget: &Budget,
    limits: &SetupLimits,
    on_board_done: &dyn Fn(),
) -> Result<Survey, EulerGetterError> {
    let games = specs
        .iter()
        .map(|spec| new_game(spec, rule, swap, None, limits))
        .collect::<Result<Vec<_>, _>>()?;
    let boards: Vec<SurveyRow> = specs
        .iter()
        .zip(&games)
        .map(|(spec, game)| {
            let board = game.complex().board();
            let cells = board.cell_count();
            let solved = Part::of(solve(game, budget)).map(|solution| {
                let first_wins = solution.winner == Some(Player::X);
                ClaimCheck {
                    winner: if first_wins { "first" } else { "second" },
                    margin: solution.margin,
                    claim: match (cells.is_multiple_of(2), first_wins) {
                        (true, true) => Claim::Holds,
                        (true, false) => Claim::Fails,
                        (false, _) => Claim::Odd,
                    },
                }
            });
            on_board_done();
            SurveyRow {
                board: spec.clone(),
                name: board.name().to_string(),
                cells,
                surface: board.surface().to_string(),
                solved,
            }
        })
        .collect();
    Ok(Survey {
        rule: rule.to_string(),
        swap: swap.to_string(),
        status: Status::of_parts(boards.iter().map(|row| row.solved.status)),
        boards,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_counts_each_region_two_ways() {
        let game = new_game(
            "goldberg:1",
            Rule::Normal,
            SwapRule(None),
            Some("X....."),
            &SetupLimits::default(),
        )
        .unwrap();
        let score = score(&game);
        assert_eq!((score.chi.x, score.components.x, score.loops.x), (1, 1, 0));
        assert_eq!(score.to_move, Some(Player::O));
        let text = score.to_string();
        assert!(text.contains("X: chi 1 = 1 piece - 0 loops"), "{text}");
        assert!(text.ends_with("O to move (5 empty cells)\n"), "{text}");
    }

    #[test]
    fn the_survey_checks_the_claim_board_by_board() {
        let specs = ["goldberg:1".to_string(), "goldberg:2".to_string()];
        let survey = survey(
            &specs,
            Rule::Normal,
            SwapRule(None),
            &Budget::nodes(1_000),
            &SetupLimits::default(),
            &|| {},
        )
        .unwrap();
        let first = &survey.boards[0];
        assert_eq!((first.cells, first.solved.status), (6, Status::Solved));
        let check = first.solved.answer.as_ref().unwrap();
        assert_eq!((check.winner, check.claim), ("first", Claim::Holds));
        assert!(
            survey.boards[1].solved.answer.is_none(),
            "21 cells need more nodes"
        );
        assert_ne!(survey.status, Status::Solved);
        let bad = ["goldberg:1".to_string(), "taylor:1".to_string()];
        let refused = super::survey(
            &bad,
            Rule::Normal,
            SwapRule(None),
            &Budget::unlimited(),
            &SetupLimits::default(),
            &|| panic!("no board is solved before every board is set up"),
        );
        assert!(refused.is_err());
    }
}
