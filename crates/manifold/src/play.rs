//! Playing the game: the perfect player (which reads the G-series) and the game in the
//! catalog the hosts offer.

use std::collections::BTreeMap;

use crosscap_engine::agents::{KnownWins, standard_agent};
use crosscap_engine::catalog::{
    Analysis, BoardKind, GameDescriptor, GameInfo, MOVES_OPTION, Setup, SetupError, SolveBudget,
    Unsolved, ValueKind,
};
use crosscap_engine::mcts::MctsConfig;
use crosscap_engine::session::{GameMatch, Hosting, Match, SetupLimits};
use crosscap_engine::{Agent, Budget, Exhausted, Game, Impartial, Level, NormalPlay};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::ManifoldError;
use crate::moves::{Letter, Move};
use crate::series::Series;
use crate::surface::{Manifold, Surface};

/// The game as the engine plays it.
pub type ManifoldGame = NormalPlay<Manifold>;

/// The largest genus of a surface in a game that is played move by move (each move list
/// is as long as the genus).
pub const MAX_PLAY_GENUS: u32 = 1000;

/// The perfect player: a random move to a position of G-value 0 when there is one, read
/// from the G-series (exact: every move it chooses is proven optimal), computed as far as
/// the positions' genus; else `expert`'s move (every move loses, and expert's makes the
/// winner find the win).
pub fn perfect_player(seed: u64) -> Box<dyn Agent<ManifoldGame>> {
    let mut series = Series::compute(0);
    let read = move |game: &ManifoldGame, _: &Budget| {
        let position = &game.position;
        if position.max_genus() > series.max_genus() {
            series = Series::compute(position.max_genus());
        }
        // Past the series' genus the knowledge does not reach.
        series.winning_moves(position).ok_or(Exhausted::Beyond)
    };
    Box::new(KnownWins::new(
        Box::new(read),
        standard_agent(Level::Expert, MctsConfig::default(), seed),
        seed,
    ))
}

/// The agent for a level: `perfect` is [`perfect_player`]; the others are the engine's.
pub fn agent(level: Level, seed: u64) -> Box<dyn Agent<ManifoldGame>> {
    match level {
        Level::Perfect => perfect_player(seed),
        other => standard_agent(other, MctsConfig::default(), seed),
    }
}

/// Reads a position to be played, refusing surfaces beyond [`MAX_PLAY_GENUS`].
pub fn playable_position(board: &str) -> Result<Manifold, ManifoldError> {
    let position: Manifold = board.parse()?;
    let genus = position.max_genus();
    if genus > MAX_PLAY_GENUS {
        return Err(ManifoldError::TooLarge {
            genus,
            purpose: "a game played move by move",
            max: MAX_PLAY_GENUS,
        });
    }
    Ok(position)
}

/// The manifold game as the hosts offer it.
pub struct ManifoldHost;

/// What a page needs to draw a position beyond the match's snapshot (whose turn, legal
/// moves, outcome): each surface with its orientability, genus and Euler
/// characteristic, every legal move with the curve it cuts in words, and each letter's
/// curve in words (for the moves already played, named in the history by their letters).
#[derive(Serialize)]
pub struct ManifoldView {
    /// The position as text, e.g. `o2 n5`.
    pub position: Manifold,
    pub surfaces: Vec<SurfaceView>,
    pub moves: Vec<MoveView>,
    pub curves: BTreeMap<Letter, &'static str>,
}

/// A surface of the position.
#[derive(Serialize)]
pub struct SurfaceView {
    pub name: Surface,
    pub orientable: bool,
    pub genus: u32,
    pub euler_characteristic: i64,
}

/// A legal move: its notation, its letter in Theorem 2.1, the surface cut, what is left
/// of it and the curve cut, in words.
#[derive(Serialize)]
pub struct MoveView {
    #[serde(rename = "move")]
    pub notation: Move,
    pub letter: Letter,
    pub from: Surface,
    pub into: Vec<Surface>,
    pub curve: &'static str,
}

impl ManifoldView {
    pub fn of(game: &ManifoldGame) -> ManifoldView {
        ManifoldView {
            position: game.position.clone(),
            surfaces: game
                .position
                .surfaces()
                .iter()
                .map(|&s| SurfaceView {
                    name: s,
                    orientable: s.is_orientable(),
                    genus: s.genus(),
                    euler_characteristic: s.euler_characteristic(),
                })
                .collect(),
            moves: game
                .legal_moves()
                .into_iter()
                .map(|m| MoveView {
                    notation: m,
                    letter: m.letter,
                    from: m.from,
                    into: m.into.surfaces(),
                    curve: m.description(),
                })
                .collect(),
            curves: Letter::ALL
                .into_iter()
                .map(|letter| (letter, letter.description()))
                .collect(),
        }
    }
}

impl Hosting for ManifoldHost {
    type Game = ManifoldGame;
    type View = ManifoldView;
    const NAME: &'static str = "manifold";
    const VALUE_KIND: ValueKind = ValueKind::Grundy;

    fn agent(level: Level, seed: u64) -> Box<dyn Agent<ManifoldGame>> {
        agent(level, seed)
    }

    fn view(game: &ManifoldGame) -> ManifoldView {
        ManifoldView::of(game)
    }

    fn position(game: &ManifoldGame) -> String {
        game.position.to_string()
    }

    /// The G-series up to the position's largest genus (near-linear, far below any
    /// budget at the genera a game is played at): the value, the moves to value 0 and
    /// the value of each surface (`surfaces`).
    fn analyse(game: &ManifoldGame, _budget: &Budget) -> Result<Analysis<Move>, Unsolved> {
        let position = &game.position;
        let series = Series::compute(position.max_genus());
        let (Some(grundy), Some(winning_moves)) =
            (series.value(position), series.winning_moves(position))
        else {
            unreachable!("the series reaches the position's largest genus")
        };
        let surfaces: Vec<Value> = position
            .surfaces()
            .iter()
            .map(|&surface| json!({ "surface": surface, "grundy": series.grundy(surface) }))
            .collect();
        Ok(Analysis::impartial(
            game,
            grundy,
            winning_moves,
            Map::from_iter([
                ("grundy".to_string(), json!(grundy)),
                ("surfaces".to_string(), Value::Array(surfaces)),
            ]),
        ))
    }

    /// The position, one surface a line.
    fn drawing(game: &ManifoldGame, _colour: bool) -> String {
        let position = &game.position;
        let mut text = format!("2-manifold: {position}\n");
        for s in position.surfaces() {
            let kind = match s {
                Surface::Sphere => "sphere",
                Surface::Orientable(_) => "orientable",
                Surface::NonOrientable(_) => "non-orientable",
            };
            text += &format!(
                "  {:<6} {kind}, genus {}, Euler characteristic {}\n",
                s.to_string(),
                s.genus(),
                s.euler_characteristic()
            );
        }
        text + &format!("{} legal moves", position.moves().len())
    }
}

/// The game has no options but the moves every game takes: any other key is refused, so
/// that a misspelt option does not pass unnoticed.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ManifoldOptions {}

fn start(setup: &Setup, limits: &SetupLimits) -> Result<Box<dyn Match>, SetupError> {
    let ManifoldOptions {} = setup.typed_options(&DESCRIPTOR.info)?;
    let mut game = new_game(setup.board, limits).map_err(SetupError::from_error)?;
    setup.play_moves(&mut game)?;
    Ok(GameMatch::<ManifoldHost>::boxed(game))
}

/// The manifold decomposition game in the catalog.
pub static DESCRIPTOR: GameDescriptor = GameDescriptor {
    info: GameInfo {
        name: "manifold",
        title: "Manifold decomposition",
        summary: "Cut closed surfaces along curves that bound no disk: whoever makes the last cut wins.",
        board_kind: BoardKind::Surfaces,
        board_label: "surfaces (o = orientable, n = non-orientable, number = genus; also T, P, K and sums such as T#P)",
        default_board: "n5 o2",
        example_boards: &["n5 o2", "o3", "n4", "n2 n3 o1", "o1 o1"],
        options: &[MOVES_OPTION],
        hint_level: Level::Perfect,
        play_level: Level::Perfect,
        solve_budget: SolveBudget {
            seconds: 60,
            nodes: None,
        },
        rules: "<p>The position is a set of closed surfaces: spheres with handles \
                (<code>o1</code> is the torus, <code>o2</code> the double torus) and \
                spheres with cross-caps (<code>n1</code> is the projective plane, \
                <code>n2</code> the Klein bottle).</p>\
                <p>On your turn choose a surface, cut it along a simple closed curve that \
                does not bound a disk, and glue disks onto the cut. The surface loses \
                topology, or falls into two pieces. Spheres are dead. Whoever makes the \
                last cut wins.</p>\
                <p>Berman and Leonard found every Grundy value: by increasing genus, \
                orientable surfaces have 0, 1, 2 and then 0 and 2 in turn; non-orientable \
                ones 0, 1, 2, 4, 6 and then 0, 3, 4, 6 over and over. The value of several \
                surfaces is the nim sum of theirs, and the hint button finds a move to \
                value 0 whenever there is one.</p>",
    },
    start,
    layout: None,
};

/// A new game from the 2-manifold `board` (e.g. `n5 o2`): the one setup that the command
/// line and the catalog's [`DESCRIPTOR`] go through. A position with more moves than `limits` allows is
/// refused (its genus is bounded by [`MAX_PLAY_GENUS`] first, so counting its moves is
/// cheap).
pub fn new_game(board: &str, limits: &SetupLimits) -> Result<ManifoldGame, ManifoldError> {
    let position = playable_position(board)?;
    limits.check_moves(position.moves().len() as u128)?;
    Ok(NormalPlay::new(position))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Option names are echoed escaped: one line, no terminal escapes.
    #[test]
    fn option_names_are_escaped() {
        let options = json!({ "x\u{1b}[31m\n": 2 });
        let setup = Setup {
            board: "n2",
            options: &options,
        };
        let error = (DESCRIPTOR.start)(&setup, &SetupLimits::default())
            .err()
            .unwrap()
            .to_string();
        assert_eq!(
            error,
            "manifold has no option `x\\u{1b}[31m\\n` (the options are moves)"
        );
    }
}
