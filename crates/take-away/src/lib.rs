//! Take-away, the smallest game a host can serve: a pile of counters, each move takes 1 to
//! `most` of them, and whoever takes the last one wins. No host names it; the CLI's and the
//! server's tests put it in a catalog of its own to show that a game is described once (this
//! file) and every verb, route and answer follows. It is also the template of a new game.
//!
//! # Example
//!
//! A host starts the game from its descriptor, with a board text and an options object:
//!
//! ```
//! use std::time::Duration;
//! use crosscap_engine::Budget;
//! use crosscap_engine::catalog::Setup;
//! use crosscap_engine::session::SetupLimits;
//! use crosscap_take_away::TAKE_AWAY;
//! use serde_json::json;
//!
//! // A pile of 7, take 1 to 2: 7 mod 3 = 1, so taking 1 leaves a P-position.
//! let options = json!({ "most": "2" });
//! let setup = Setup { board: "7", options: &options };
//! let game = (TAKE_AWAY.start)(&setup, &SetupLimits::default()).unwrap();
//! let solved = game.solve(&Budget::time(Duration::from_secs(1)));
//! assert_eq!((solved.value, solved.moves.winning()), (Some(1), Some(&["1".to_string()][..])));
//! ```

use crosscap_engine::agents::standard_agent;
use crosscap_engine::catalog::{
    Analysis, BoardKind, GameDescriptor, GameInfo, OptionKind, OptionSpec, Setup, SetupError,
    SolveBudget, Unsolved, ValueKind,
};
use crosscap_engine::mcts::MctsConfig;
use crosscap_engine::session::{GameMatch, Hosting, Match, SetupLimits};
use crosscap_engine::{Agent, Budget, Game, Level, MoveError, Notation, Outcome, Player};
use serde_json::{Map, Value, json};

/// A position: the counters left, the most a move takes, the player to move.
#[derive(Clone, Debug)]
pub struct TakeAway {
    pile: u32,
    most: u32,
    to_move: Player,
}

impl Game for TakeAway {
    type Move = u32;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self) -> Vec<u32> {
        (1..=self.most.min(self.pile)).collect()
    }

    fn play(&mut self, take: &u32) {
        self.pile -= take;
        self.to_move = self.to_move.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.pile == 0).then(|| Outcome::win(self.to_move.opponent()))
    }

    fn position_hash(&self) -> u64 {
        u64::from(self.pile) * 2 + self.to_move.index() as u64
    }
}

impl Notation for TakeAway {
    fn parse_move(&self, text: &str) -> Result<u32, MoveError> {
        text.trim()
            .parse()
            .ok()
            .filter(|take| self.legal_moves().contains(take))
            .ok_or_else(|| MoveError::illegal(text, "take 1 to `most` counters"))
    }

    fn format_move(&self, take: &u32) -> String {
        take.to_string()
    }
}

/// How hosts serve take-away.
pub struct TakeAwayHost;

impl Hosting for TakeAwayHost {
    type Game = TakeAway;
    const NAME: &'static str = "take-away";
    const VALUE_KIND: ValueKind = ValueKind::Grundy;
    type View = Value;

    fn agent(level: Level, seed: u64) -> Box<dyn Agent<TakeAway>> {
        standard_agent(level, MctsConfig::default(), seed)
    }

    fn view(game: &TakeAway) -> Value {
        json!({ "pile": game.pile })
    }

    fn position(game: &TakeAway) -> String {
        game.pile.to_string()
    }

    /// The pile modulo `most + 1`: taking the remainder wins.
    fn analyse(game: &TakeAway, _budget: &Budget) -> Result<Analysis<u32>, Unsolved> {
        let grundy = game.pile % (game.most + 1);
        let winning = (grundy > 0).then_some(grundy).into_iter().collect();
        Ok(Analysis::impartial(
            game,
            grundy,
            winning,
            Map::from_iter([("most".to_string(), json!(game.most))]),
        ))
    }
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct TakeAwayOptions {
    most: Option<String>,
}

fn start(setup: &Setup, _limits: &SetupLimits) -> Result<Box<dyn Match>, SetupError> {
    let options: TakeAwayOptions = setup.typed_options(&TAKE_AWAY.info)?;
    let number = |text: &str| {
        text.trim()
            .parse::<u32>()
            .map_err(|_| SetupError(format!("`{text}` is not a number")))
    };
    Ok(GameMatch::<TakeAwayHost>::boxed(TakeAway {
        pile: number(setup.board)?,
        most: options.most.as_deref().map_or(Ok(2), number)?,
        to_move: Player::X,
    }))
}

/// Take-away as the catalog lists it.
pub static TAKE_AWAY: GameDescriptor = GameDescriptor {
    info: GameInfo {
        name: "take-away",
        title: "Take-away",
        summary: "Take 1 to `most` counters from one pile: whoever takes the last one wins.",
        board_kind: BoardKind::Heaps,
        board_label: "pile of counters",
        default_board: "7",
        example_boards: &["7"],
        options: &[OptionSpec {
            name: "most",
            label: "Most",
            kind: OptionKind::Select,
            choices: &["2", "3"],
            default: "\"2\"",
            help: "the most counters a move takes",
            on_form: true,
        }],
        hint_level: Level::Perfect,
        play_level: Level::Perfect,
        solve_budget: SolveBudget {
            seconds: 1,
            nodes: None,
        },
        rules: "<p>Take 1 to `most` counters; the last one wins.</p>",
    },
    start,
    layout: None,
};
