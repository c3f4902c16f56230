//! The catalog of games: what each game is (its [`GameInfo`]: name, rules, board, typed
//! options, levels) and how a host starts one ([`GameDescriptor`]). Each game crate owns
//! its descriptor; the hosts (the command line, the web server) only ever go through
//! these, so a game is described once and every host offers it the same way.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::agents::Level;
use crate::budget::Exhausted;
use crate::game::{Game, Notation, Player};
use crate::session::{Match, SetupLimits};
use crate::solver::SolveError;

/// What a game's board text holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BoardKind {
    /// A board spec of the topology crate (`taylor:3`, `goldberg:2`, a board file's JSON):
    /// hosts draw it from the game's layout.
    Surface,
    /// A graph spec (`C4`, `grid:3x3`, `g6:...`).
    Graph,
    /// Heap sizes (`3 4 5`).
    Heaps,
    /// Closed surfaces (`n5 o2`).
    Surfaces,
}

/// How an option's value is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OptionKind {
    /// One of `choices`.
    Select,
    /// Free text the game reads (a position, tokens, moves).
    Text,
}

/// One option of a game: its name in the options object (and, with `_` as `-`, its
/// command-line flag), how the new-game form offers it and what it means.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct OptionSpec {
    pub name: &'static str,
    pub label: &'static str,
    pub kind: OptionKind,
    /// The choices of a `select`.
    pub choices: &'static [&'static str],
    /// The default as JSON text, so that a page can send it unchanged (`""` for none).
    pub default: &'static str,
    pub help: &'static str,
    /// Offered on the new-game form; other options (a start position, moves to replay)
    /// are for the command line and the API.
    pub on_form: bool,
}

impl OptionSpec {
    /// The command-line flag of the option, without its dashes.
    pub fn flag(&self) -> String {
        self.name.replace('_', "-")
    }
}

/// The option every game takes: moves played once the game is set up (from its start or
/// its position), a text of moves separated by white space or a JSON list of moves. A
/// game lists it among its options and plays them with [`Setup::play_moves`].
pub const MOVES_OPTION: OptionSpec = OptionSpec {
    name: "moves",
    label: "Moves",
    kind: OptionKind::Text,
    choices: &[],
    default: "",
    help: "moves to play first, in the game's notation, separated by spaces",
    on_form: true,
};

/// The `moves` option's value.
#[derive(Deserialize)]
#[serde(untagged)]
enum MoveList {
    Text(String),
    List(Vec<String>),
}

/// What a host needs to know to offer a game.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct GameInfo {
    pub name: &'static str,
    pub title: &'static str,
    /// One sentence on how the game is won, for a player choosing a game (the new-game
    /// form, the rules page, the command's help).
    pub summary: &'static str,
    pub board_kind: BoardKind,
    /// What the board text holds, in words.
    pub board_label: &'static str,
    pub default_board: &'static str,
    pub example_boards: &'static [&'static str],
    pub options: &'static [OptionSpec],
    /// The level the hint button asks for.
    #[serde(serialize_with = "as_text")]
    pub hint_level: Level,
    /// The computer's level in `play` unless another is asked for.
    #[serde(serialize_with = "as_text")]
    pub play_level: Level,
    /// What `solve` may spend unless a host is told otherwise.
    #[serde(skip)]
    pub solve_budget: SolveBudget,
    /// The rules, as a few HTML paragraphs written for players.
    pub rules: &'static str,
}

impl GameInfo {
    /// The game's options named in a refusal: "the options are a, b", or "it has none".
    fn options_listed(&self) -> String {
        if self.options.is_empty() {
            "it has none".to_string()
        } else {
            let names: Vec<&str> = self.options.iter().map(|o| o.name).collect();
            format!("the options are {}", names.join(", "))
        }
    }
}

/// The default budget of a game's `solve`: a time, and a node cap for games whose
/// searches need one of their own (the sandpile's count moves played, per search).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveBudget {
    pub seconds: u64,
    pub nodes: Option<u64>,
}

fn as_text<S: serde::Serializer>(level: &Level, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&level.to_string())
}

/// Why a game could not be started: one line for the user.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SetupError(pub String);

impl SetupError {
    /// The one-line message of any error.
    pub fn from_error(error: impl fmt::Display) -> SetupError {
        SetupError(error.to_string())
    }
}

/// What a game is started from: the board text and the options object.
#[derive(Clone, Copy, Debug)]
pub struct Setup<'a> {
    pub board: &'a str,
    pub options: &'a Value,
}

impl Setup<'_> {
    /// The options, `null` read as none; anything but an object is refused.
    pub fn options(&self) -> Result<Map<String, Value>, SetupError> {
        match self.options {
            Value::Null => Ok(Map::new()),
            Value::Object(map) => Ok(map.clone()),
            other => Err(SetupError(format!(
                "the options must be a JSON object, not {}",
                crate::text::escape_controls(&other.to_string())
            ))),
        }
    }

    /// The options read as the game's typed options, checked here for every game first:
    /// an option the game does not have is refused, naming those it has, and a select's
    /// value must be one of its choices (any case, spaces around ignored), so that every
    /// game words these refusals alike. A value of the wrong type is refused by serde.
    pub fn typed_options<T: serde::de::DeserializeOwned>(
        &self,
        info: &GameInfo,
    ) -> Result<T, SetupError> {
        let mut options = self.options()?;
        if info.options.iter().any(|o| o.name == MOVES_OPTION.name) {
            // Played by `play_moves` once the game is set up.
            options.remove(MOVES_OPTION.name);
        }
        for (name, value) in &options {
            let Some(spec) = info.options.iter().find(|o| o.name == name) else {
                return Err(SetupError(format!(
                    "{} has no option `{}` ({})",
                    info.name,
                    crate::text::escape_controls(name),
                    info.options_listed()
                )));
            };
            let text = match value {
                Value::String(text) => text.clone(),
                Value::Number(n) => n.to_string(),
                _ => continue,
            };
            if spec.kind == OptionKind::Select && !is_choice(&text, spec.choices) {
                return Err(SetupError(not_a_choice(name, &text, spec.choices)));
            }
        }
        serde_json::from_value(Value::Object(options)).map_err(|e| {
            SetupError(format!(
                "bad options for {}: {} ({})",
                info.name,
                crate::text::escape_controls(&e.to_string()),
                info.options_listed()
            ))
        })
    }

    /// Plays the `moves` option's moves on `game`, set up from the other options, in
    /// order; the first that cannot be played is refused with the game's reason.
    pub fn play_moves<G: Notation>(&self, game: &mut G) -> Result<(), SetupError> {
        let moves = match self.options()?.remove(MOVES_OPTION.name) {
            None | Some(Value::Null) => return Ok(()),
            Some(value) => serde_json::from_value(value),
        };
        let moves = match moves {
            Ok(MoveList::Text(text)) => text.split_whitespace().map(str::to_string).collect(),
            Ok(MoveList::List(moves)) => moves,
            Err(_) => {
                return Err(SetupError(
                    "option moves: expected a text of moves or a list of them".to_string(),
                ));
            }
        };
        // In a list, the refusal says which move it was: the game's reason alone may not.
        let count = moves.len();
        for (index, text) in moves.iter().enumerate() {
            game.play_text(text).map_err(|error| match count {
                1 => SetupError::from_error(error),
                _ => SetupError(format!("move {} of {count}: {error}", index + 1)),
            })?;
        }
        Ok(())
    }
}

/// Whether `text` names one of `choices`: any case, spaces around ignored. Games parse
/// their select options the same way.
pub fn is_choice(text: &str, choices: &[&str]) -> bool {
    choices.iter().any(|c| c.eq_ignore_ascii_case(text.trim()))
}

/// The refusal of a value that is not one of an option's choices, in the words of every
/// game: "option NAME: `VALUE` is not A, B or C".
pub fn not_a_choice(name: &str, value: &str, choices: &[&str]) -> String {
    let listed = match choices {
        [] => "anything".to_string(),
        [one] => one.to_string(),
        [most @ .., last] => format!("{} or {last}", most.join(", ")),
    };
    format!(
        "option {name}: `{}` is not {listed}",
        crate::text::escape_controls(value.trim())
    )
}

/// Starts a game, refusing one over the limits before any work that grows with it.
pub type Start = fn(&Setup, &SetupLimits) -> Result<Box<dyn Match>, SetupError>;

/// The drawing of a surface board from its spec.
pub type Layout = fn(&str) -> Result<Value, SetupError>;

/// A game as the hosts see it: what it is, how to start it, and how its board is drawn.
#[derive(Debug)]
pub struct GameDescriptor {
    pub info: GameInfo,
    /// Starts a game, refusing one over `limits` before any work that grows with it.
    pub start: Start,
    /// The drawing of a surface board (polygons, twin halves, names), for games on
    /// surface boards.
    pub layout: Option<Layout>,
}

/// The games a host offers, in the order it lists them.
#[derive(Clone, Debug)]
pub struct Catalog {
    games: Vec<&'static GameDescriptor>,
}

impl Catalog {
    pub fn new(games: Vec<&'static GameDescriptor>) -> Catalog {
        Catalog { games }
    }

    pub fn get(&self, name: &str) -> Option<&'static GameDescriptor> {
        self.games.iter().copied().find(|g| g.info.name == name)
    }

    pub fn games(&self) -> impl Iterator<Item = &'static GameDescriptor> + '_ {
        self.games.iter().copied()
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.games.iter().map(|g| g.info.name).collect()
    }

    /// The game named `name`, or an error listing the games.
    pub fn find(&self, name: &str) -> Result<&'static GameDescriptor, SetupError> {
        self.get(name).ok_or_else(|| {
            SetupError(format!(
                "unknown game \"{}\": expected one of {}",
                crate::text::escape_controls(name),
                self.names().join(", ")
            ))
        })
    }

    /// Starts the game named `name`.
    pub fn start(
        &self,
        name: &str,
        setup: &Setup,
        limits: &SetupLimits,
    ) -> Result<Box<dyn Match>, SetupError> {
        (self.find(name)?.start)(setup, limits)
    }
}

/// Whether a search (or one part of an answer) settled its question: `solved`, or
/// `unknown` with the limit that ran out. In JSON the `status` key and, when unknown,
/// `reason`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Status {
    Solved,
    Unknown { reason: Exhausted },
}

impl Status {
    /// The status of an answer made of parts: solved when every part is, else unknown for
    /// the first part's reason.
    pub fn of_parts(parts: impl IntoIterator<Item = Status>) -> Status {
        parts
            .into_iter()
            .find(|part| *part != Status::Solved)
            .unwrap_or(Status::Solved)
    }
}

/// One part of an answer (or the whole of a one-part answer): its status and either what
/// the search found or, when it ran out, the nodes it searched and the time it took. In
/// JSON the fields of both are those of the part itself.
#[derive(Clone, Debug, Serialize)]
pub struct Part<T> {
    #[serde(flatten)]
    pub status: Status,
    #[serde(flatten)]
    pub spent: Option<Spent>,
    #[serde(flatten)]
    pub answer: Option<T>,
}

/// What a search that ran out had spent.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Spent {
    pub nodes: u64,
    pub millis: f64,
}

impl<T> Part<T> {
    pub fn of(result: Result<T, SolveError>) -> Part<T> {
        match result {
            Ok(answer) => Part {
                status: Status::Solved,
                spent: None,
                answer: Some(answer),
            },
            Err(SolveError::Unknown {
                nodes,
                elapsed,
                reason,
            }) => Part {
                status: Status::Unknown { reason },
                spent: Some(Spent {
                    nodes,
                    millis: elapsed.as_secs_f64() * 1000.0,
                }),
                answer: None,
            },
        }
    }

    /// The same part with its answer (if any) turned into another.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Part<U> {
        Part {
            status: self.status,
            spent: self.spent,
            answer: self.answer.map(f),
        }
    }
}

/// What a position's value counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ValueKind {
    /// The Grundy value of an impartial game (0: the player to move loses).
    Grundy,
    /// The final margin from the mover's point of view under perfect play (±1 in games
    /// that are only won or lost).
    Margin,
}

/// The winner with perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    Player(Player),
    Draw,
}

impl Serialize for Winner {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Winner::Player(p) => p.serialize(s),
            Winner::Draw => s.serialize_str("draw"),
        }
    }
}

/// A game's exact analysis of a position, as its crate finds it (moves in the game's
/// own type); [`Solved`] is the same in the one shape every host prints.
#[derive(Clone, Debug)]
pub struct Analysis<M> {
    pub winner: Winner,
    pub value: i64,
    pub value_kind: ValueKind,
    pub moves: Moves<M>,
    pub nodes: u64,
    /// Keys of the game's own (`margin`, `loop`, `predetermined`, ...).
    pub extra: Map<String, Value>,
}

/// The best moves of a solved position, or why they are not all known: a solve is
/// solved once its winner and value are, and may run out while it finds the moves. In
/// JSON the keys `winning_moves` and `optimal_moves`, or, when unknown,
/// `"optimal_moves_status": "unknown"` and `optimal_moves_reason` (the limit that ran
/// out) instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Moves<M> {
    Known {
        /// The moves that keep the win for the player to move (none from a lost position).
        winning: Vec<M>,
        /// The moves that reach the value (a larger margin is better even in a lost game).
        optimal: Vec<M>,
    },
    /// The budget ran out after the value was proven, before every optimal move was.
    Unknown { reason: Exhausted },
}

impl<M: Clone> Moves<M> {
    /// The moves reaching the value, which win exactly when `mover_wins`.
    pub fn reaching_value(mover_wins: bool, optimal: Vec<M>) -> Moves<M> {
        Moves::Known {
            winning: if mover_wins {
                optimal.clone()
            } else {
                Vec::new()
            },
            optimal,
        }
    }

    /// The same moves, each turned into another form (text, for hosts).
    pub fn map<N>(&self, f: impl Fn(&M) -> N) -> Moves<N> {
        match self {
            Moves::Known { winning, optimal } => Moves::Known {
                winning: winning.iter().map(&f).collect(),
                optimal: optimal.iter().map(&f).collect(),
            },
            Moves::Unknown { reason } => Moves::Unknown { reason: *reason },
        }
    }

    /// The winning moves, when known.
    pub fn winning(&self) -> Option<&[M]> {
        match self {
            Moves::Known { winning, .. } => Some(winning),
            Moves::Unknown { .. } => None,
        }
    }
}

impl<M: Serialize> Serialize for Moves<M> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(2))?;
        match self {
            Moves::Known { winning, optimal } => {
                map.serialize_entry("winning_moves", winning)?;
                map.serialize_entry("optimal_moves", optimal)?;
            }
            Moves::Unknown { reason } => {
                map.serialize_entry("optimal_moves_status", "unknown")?;
                map.serialize_entry("optimal_moves_reason", reason)?;
            }
        }
        map.end()
    }
}

impl<M: Clone> Analysis<M> {
    /// An impartial position read off its Grundy value and winning moves (found without
    /// a search): the player to move wins exactly when the value is not 0, and from a lost
    /// position every move is as good as another.
    pub fn impartial<G: Game<Move = M>>(
        game: &G,
        grundy: u32,
        winning_moves: Vec<M>,
        extra: Map<String, Value>,
    ) -> Analysis<M> {
        let mover = game.to_move();
        Analysis {
            winner: Winner::Player(if grundy == 0 { mover.opponent() } else { mover }),
            value: i64::from(grundy),
            value_kind: ValueKind::Grundy,
            moves: Moves::Known {
                optimal: if winning_moves.is_empty() {
                    game.legal_moves()
                } else {
                    winning_moves.clone()
                },
                winning: winning_moves,
            },
            nodes: 0,
            extra,
        }
    }
}

/// A search that ran out before the whole answer was known: the limit, the winner when
/// it was proven before the value ran out (the answer stays `unknown`: a winner alone is
/// not a solution), and the keys of the game's own already found (the parts answered,
/// each with its status).
#[derive(Clone, Debug)]
pub struct Unsolved {
    pub error: SolveError,
    pub winner: Option<Winner>,
    pub extra: Map<String, Value>,
}

impl From<SolveError> for Unsolved {
    fn from(error: SolveError) -> Unsolved {
        Unsolved {
            error,
            winner: None,
            extra: Map::new(),
        }
    }
}

impl Unsolved {
    /// The same with the game's own keys found so far.
    pub fn with_extra(self, extra: Map<String, Value>) -> Unsolved {
        Unsolved { extra, ..self }
    }
}

/// The answer of `solve` for any game: one JSON shape.
#[derive(Clone, Debug, Serialize)]
pub struct Solved {
    pub game: &'static str,
    /// The position in the game's own text form.
    pub position: String,
    pub to_move: Option<Player>,
    /// `solved`, or `unknown` with the `reason`.
    #[serde(flatten)]
    pub status: Status,
    /// `X`, `O` or `draw`; `null` while unknown, and while `unknown` too unless the
    /// winner was proven before the budget ran out on the value.
    pub winner: Option<Winner>,
    /// `N` or `P`, for impartial games (is the player to move winning?).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<&'static str>,
    /// The Grundy value, or the margin for the player to move; once the game is over
    /// (`to_move` null), X's margin (`null` while unknown).
    pub value: Option<i64>,
    pub value_kind: ValueKind,
    #[serde(flatten)]
    pub moves: Moves<String>,
    pub nodes: u64,
    pub millis: f64,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The budget ran out: the answer says so, with what was spent and what was found.
pub(crate) fn unknown(
    game: &'static str,
    position: String,
    to_move: Option<Player>,
    value_kind: ValueKind,
    unsolved: Unsolved,
) -> Solved {
    let SolveError::Unknown {
        nodes,
        elapsed,
        reason,
    } = unsolved.error;
    Solved {
        game,
        position,
        to_move,
        status: Status::Unknown { reason },
        winner: unsolved.winner,
        outcome: None,
        value: None,
        value_kind,
        moves: Moves::Known {
            winning: Vec::new(),
            optimal: Vec::new(),
        },
        nodes,
        millis: elapsed.as_secs_f64() * 1000.0,
        extra: unsolved.extra,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nim;

    #[test]
    fn options_are_typed_and_unknown_ones_refused() {
        let catalog = Catalog::new(vec![&nim::DESCRIPTOR]);
        let limits = SetupLimits::default();
        let start = |board: &str, options: Value| {
            catalog
                .start(
                    "nim",
                    &Setup {
                        board,
                        options: &options,
                    },
                    &limits,
                )
                .map(|m| m.position())
        };
        assert_eq!(start("3, 4 5", Value::Null).unwrap(), "3 4 5");
        assert_eq!(start("3 4 5", serde_json::json!({})).unwrap(), "3 4 5");
        let bogus = start("3", serde_json::json!({"bogus": 1})).unwrap_err();
        assert_eq!(bogus.0, "nim has no option `bogus` (the options are moves)");
        assert!(start("3", serde_json::json!([1])).is_err());
        assert!(start("x", Value::Null).is_err());
        assert!(
            start("5001", Value::Null)
                .unwrap_err()
                .0
                .contains("too large")
        );
        let unknown = catalog.start(
            "chess",
            &Setup {
                board: "",
                options: &Value::Null,
            },
            &limits,
        );
        assert_eq!(
            unknown.err().unwrap().0,
            "unknown game \"chess\": expected one of nim"
        );
    }

    /// Known moves keep the keys every game prints; unknown ones say so instead.
    #[test]
    fn moves_are_listed_or_marked_unknown() {
        let known = Moves::reaching_value(true, vec!["a1"]);
        assert_eq!(
            serde_json::to_value(&known).unwrap(),
            serde_json::json!({"winning_moves": ["a1"], "optimal_moves": ["a1"]})
        );
        assert_eq!(
            Moves::reaching_value(false, vec!["a1"]).winning(),
            Some(&[][..])
        );
        let unknown = Moves::<&str>::Unknown {
            reason: Exhausted::Time,
        };
        assert_eq!(unknown.winning(), None);
        assert_eq!(
            serde_json::to_value(unknown.map(|m| m.len())).unwrap(),
            serde_json::json!({"optimal_moves_status": "unknown", "optimal_moves_reason": "time"})
        );
    }

    #[test]
    fn an_answer_is_solved_when_every_part_is() {
        let unknown = Status::Unknown {
            reason: Exhausted::Time,
        };
        assert_eq!(
            Status::of_parts([Status::Solved, Status::Solved]),
            Status::Solved
        );
        assert_eq!(Status::of_parts([Status::Solved, unknown]), unknown);
        let ran_out = Part::<u32>::of(Err(SolveError::Unknown {
            nodes: 7,
            elapsed: std::time::Duration::from_millis(2),
            reason: Exhausted::Nodes,
        }));
        assert_eq!(
            serde_json::to_value(ran_out).unwrap(),
            serde_json::json!({"status": "unknown", "reason": "nodes", "nodes": 7, "millis": 2.0})
        );
        #[derive(Serialize)]
        struct Found {
            winner: &'static str,
        }
        let found = Part::of(Ok(Found { winner: "X" }));
        assert_eq!(
            serde_json::to_value(found).unwrap(),
            serde_json::json!({"status": "solved", "winner": "X"})
        );
    }
}
