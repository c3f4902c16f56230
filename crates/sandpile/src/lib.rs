//! The sandpile toppling game (J. B. Lewis, REGS 2010) on any graph of `crosscap-graphs`.
//!
//! Two players, X first, alternately place a chip on an unclaimed vertex or one of their
//! own. A vertex whose score reaches its degree topples: it loses that many chips and each
//! neighbour gains one, which may topple it in turn. Every vertex the cascade reaches (the
//! one placed on, each that topples, each that receives a chip) is claimed by the mover.
//! The game ends when every vertex has the mover's colour.
//!
//! **The abelian rule** (the default). The seed says a toppling vertex's score "changes
//! to 0"; we subtract the degree instead. The two agree whenever the score equals the
//! degree, and subtracting conserves chips, which makes the result independent of the
//! order of topplings (the abelian property of chip-firing) and is what the seed's remark
//! about the degree sum assumes. They differ when a vertex gains a second chip before it
//! topples: [`Toppling::Reset`] plays the seed's wording (chips beyond the degree are
//! lost, every unstable vertex toppling at once, round by round), and it changes the
//! perfect-play winner of some graphs (`g6:EQjO`, `g6:FCQrO`, `g6:FCQvg`).
//!
//! **Cascades that never stop.** A chip total above `2|E| - |V|` cannot be stable, but a
//! cascade can run for ever with fewer chips. We detect it exactly: on a connected graph
//! a cascade in which every vertex has toppled never stops (if it stopped, the vertex whose last
//! toppling came first would have received a chip from each neighbour since). The
//! mover then claims every vertex and wins.
//!
//! **Directed graphs.** A vertex topples at its out-degree and sends one chip along each
//! out-arc; a vertex of out-degree 0 is a sink that never topples. Cascades can only run
//! for ever inside a *closed class*, a strong component with no arc leaving it; one does
//! once each vertex `v` of it has toppled `p(v)` times, `p` being the class's least
//! positive firing vector that returns its chips to where they were (all ones when each
//! vertex has as many arcs in as out).
//!
//! **Disconnected graphs** (and directed ones). Each closed class (a component with an
//! edge) is set toppling for ever on its own: its vertices then belong for good to the
//! player whose placement did it and take no more chips. The game still ends when one
//! colour holds every vertex; it ends in a draw once that is impossible: when classes
//! toppling for ever have both colours, or when the player to move has no vertex to play.
//! Chips can drain into sinks for ever, so play also stops, drawn, after `2|E| + |V|`
//! placements, a limit that a connected undirected graph never reaches.
//!
//! KJumpingCube is this game on an `R x C` grid (its cube values are our scores plus one).
//!
//! # Example
//!
//! The winner of a small graph with perfect play, and whether every play sequence gives it:
//!
//! ```
//! use std::time::Duration;
//! use crosscap_engine::session::SetupLimits;
//! use crosscap_engine::{Budget, Player};
//! use crosscap_sandpile::{Toppling, analyse, new_game};
//!
//! let budget = Budget::time(Duration::from_secs(10));
//! let star = new_game("K1,4", None, Player::X, Toppling::Abelian, &SetupLimits::default())
//!     .unwrap();
//! let answer = analyse(&star, &budget);
//! assert_eq!(answer.perfect_play.unwrap().winner, Some(Player::O));
//! assert!(answer.sequences.unwrap().predetermined); // on this tree, however anyone plays
//!
//! let triangle =
//!     new_game("C3", None, Player::X, Toppling::Abelian, &SetupLimits::default()).unwrap();
//! let answer = analyse(&triangle, &budget);
//! assert_eq!(answer.perfect_play.unwrap().winner, Some(Player::X));
//! assert!(!answer.sequences.unwrap().predetermined);
//! ```

pub mod analysis;
pub mod board;
pub mod game;

use std::sync::Arc;

use crosscap_engine::agents::{perfect_agent, standard_agent};
use crosscap_engine::catalog::{
    self, BoardKind, GameDescriptor, GameInfo, MOVES_OPTION, Moves, OptionKind, OptionSpec, Part,
    Setup, SetupError, SolveBudget, Unsolved, ValueKind, Winner, not_a_choice,
};
use crosscap_engine::mcts::MctsConfig;
use crosscap_engine::session::{GameMatch, Hosting, Match, SetupLimits, TooLarge};
use crosscap_engine::solver::SolveError;
use crosscap_engine::{Agent, Budget, Game, Level, Player};
use crosscap_graphs::{Graph, GraphError};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

pub use analysis::{
    Analysis, ClassifyRow, MinTopple, PerfectPlay, Sequences, analyse, classify, classify_all,
    min_topple, min_topple_game, perfect_play, result_name, sequences,
};
pub use board::{Board, Cascade, ClosedClass, Scratch, Toppling};
pub use game::{LastMove, Sandpile};

/// Why a board, position or option was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SandpileError {
    #[error(transparent)]
    Graph(#[from] GraphError),
    #[error("graph `{0}` has no vertices")]
    EmptyGraph(String),
    #[error("graph `{0}`: a closed class's firing period overflows; use a smaller digraph")]
    TooComplex(String),
    #[error(
        "graph `{spec}`: a closed class of {vertices} vertices with more arcs in than out at \
         some vertex; the toppling period is found for at most {max}"
    )]
    LargeUnbalancedClass {
        spec: String,
        vertices: usize,
        max: usize,
    },
    #[error("position `{}`: {reason}", .text.escape_debug())]
    BadPosition { text: String, reason: String },
    #[error("{0}")]
    BadOption(String),
    #[error("O can only move first from a given position (X moves first on the empty board)")]
    OFirst,
    #[error(transparent)]
    Search(#[from] SolveError),
    #[error(transparent)]
    Limits(#[from] TooLarge),
}

/// The most [`Sandpile::room`] at which `perfect` gives its solver its whole budget; with
/// more it plays as `expert` after a short probe, which proves the complete graphs up to
/// complete:6. The solver proves grid:3x4 (room 22) in 3 s and grid:4x4 with room 22
/// in 9 s, but not grid:4x4 with room 24, grid:2x7 (24) or grid:3x5 (29) within its 30 s
/// (BENCHMARKS.md).
pub const PERFECT_MAX_ROOM: u32 = 22;

/// The computer player at `level`: MCTS with the MCTS-solver on (small boards are often
/// proven outright), the exact solver for `perfect` within [`PERFECT_MAX_ROOM`].
pub fn agent(level: Level, seed: u64) -> Box<dyn Agent<Sandpile>> {
    let config = MctsConfig {
        prove: true,
        ..MctsConfig::default()
    };
    match level {
        Level::Perfect => Box::new(
            perfect_agent(config, seed)
                .within(Box::new(|game: &Sandpile| game.room() <= PERFECT_MAX_ROOM)),
        ),
        other => standard_agent(other, config, seed),
    }
}

/// A new game on the graph of `spec` under `toppling`, from the empty board or from
/// `position` (see [`Sandpile::from_position`]) with `to_move` to move: the one setup that
/// the command line and the catalog's [`DESCRIPTOR`] go through. A graph with more vertices
/// than `limits` allows moves is refused before the board is built.
pub fn new_game(
    spec: &str,
    position: Option<&str>,
    to_move: Player,
    toppling: Toppling,
    limits: &SetupLimits,
) -> Result<Sandpile, SandpileError> {
    let graph = Graph::from_spec(spec)?;
    limits.check_moves(graph.vertex_count() as u128)?;
    let board = Arc::new(Board::with_toppling(graph, toppling)?);
    match position {
        Some(text) => Sandpile::from_position(board, text, to_move),
        None if to_move == Player::X => Ok(Sandpile::new(board)),
        None => Err(SandpileError::OFirst),
    }
}

/// The sandpile game as the hosts offer it.
pub struct SandpileHost;

/// What a page needs to draw a position beyond the match's snapshot (whose turn, legal
/// moves, winner): the graph (its shape when a grid), each vertex's owner, score and
/// threshold, the placements against the limit, and the last move's cascade.
#[derive(Serialize)]
pub struct SandpileView {
    pub directed: bool,
    /// The rows and columns of a `grid:RxC` graph.
    pub grid: Option<GridShape>,
    pub vertices: Vec<VertexView>,
    /// Each edge's ends (tail first when directed), by vertex index.
    pub edges: Vec<[usize; 2]>,
    /// The position as `--position` reads it.
    pub position: String,
    pub placements: u32,
    pub move_limit: u32,
    pub last_move: Option<LastMoveView>,
}

#[derive(Serialize)]
pub struct GridShape {
    pub rows: usize,
    pub columns: usize,
}

/// A vertex by name: its owner, its score, the score at which it topples and whether
/// it topples for ever.
#[derive(Serialize)]
pub struct VertexView {
    pub name: String,
    pub owner: Option<Player>,
    pub score: u32,
    pub threshold: u32,
    pub erupted: bool,
}

/// The vertex of the last placement, every vertex its cascade reached (by name) and
/// whether it set a class toppling for ever.
#[derive(Serialize)]
pub struct LastMoveView {
    pub vertex: String,
    pub reached: Vec<String>,
    pub erupted: bool,
}

impl SandpileView {
    pub fn of(game: &Sandpile) -> SandpileView {
        let board = game.board();
        let graph = board.graph();
        SandpileView {
            directed: graph.is_directed(),
            grid: game::grid_shape(graph.spec()).map(|(rows, columns)| GridShape { rows, columns }),
            vertices: (0..graph.vertex_count())
                .map(|v| VertexView {
                    name: graph.vertex_name(v),
                    owner: game.owner(v),
                    score: game.score(v),
                    threshold: board.threshold(v),
                    erupted: game.is_erupted(v),
                })
                .collect(),
            edges: graph.edges().iter().map(|&(u, v)| [u, v]).collect(),
            position: game.position_text(),
            placements: game.placements(),
            move_limit: board.move_limit(),
            last_move: game.last_move().map(|last| LastMoveView {
                vertex: graph.vertex_name(last.vertex),
                reached: last.reached.iter().map(|&v| graph.vertex_name(v)).collect(),
                erupted: last.erupted,
            }),
        }
    }
}

impl Hosting for SandpileHost {
    type Game = Sandpile;
    type View = SandpileView;
    const NAME: &'static str = "sandpile";
    const VALUE_KIND: ValueKind = ValueKind::Margin;

    fn agent(level: Level, seed: u64) -> Box<dyn Agent<Sandpile>> {
        agent(level, seed)
    }

    fn view(game: &Sandpile) -> SandpileView {
        SandpileView::of(game)
    }

    fn position(game: &Sandpile) -> String {
        game.position_text()
    }

    /// The winner with perfect play (the exact solver) and, with what is left of the
    /// budget's time, whether every play sequence ends alike (`predetermined`,
    /// `possible_winners`): each search a part with its own status (`perfect_play`,
    /// `sequences`), answered whether or not the other ran out. Solved once perfect play
    /// is (the value of a game only won or lost follows from its winner); a `sequences`
    /// part that ran out says so itself.
    fn analyse(game: &Sandpile, budget: &Budget) -> Result<catalog::Analysis<usize>, Unsolved> {
        let found = analysis::analyse(game, budget);
        let mover = game.to_move();
        let names = |moves: &[usize]| -> Vec<String> {
            let graph = game.board().graph();
            moves.iter().map(|&v| graph.vertex_name(v)).collect()
        };
        let perfect_play = Part::of(found.perfect_play.clone().map(|found| {
            json!({
                "winner": result_name(found.winner),
                "winning_moves": if found.winner == Some(mover) {
                    names(&found.best_moves)
                } else {
                    Vec::new()
                },
                "nodes": found.nodes,
            })
        }));
        let sequences = Part::of(found.sequences.clone());
        let mut extra = Map::from_iter([
            ("perfect_play".to_string(), json!(perfect_play)),
            ("sequences".to_string(), json!(sequences)),
        ]);
        if found.sequences.is_ok() {
            for key in ["predetermined", "possible_winners"] {
                let value = extra["sequences"][key].clone();
                extra.insert(key.to_string(), value);
            }
        }
        let perfect = match found.perfect_play {
            Ok(perfect) => perfect,
            Err(error) => return Err(Unsolved::from(error).with_extra(extra)),
        };
        let (winner, value) = match perfect.winner {
            Some(w) if w == mover => (Winner::Player(w), 1),
            Some(w) => (Winner::Player(w), -1),
            None => (Winner::Draw, 0),
        };
        Ok(catalog::Analysis {
            winner,
            value,
            value_kind: ValueKind::Margin,
            moves: Moves::reaching_value(value > 0, perfect.best_moves),
            nodes: perfect.nodes,
            extra,
        })
    }

    fn facts(game: &Sandpile) -> Map<String, Value> {
        Map::from_iter([("graph".to_string(), json!(game.board().graph().spec()))])
    }

    fn drawing(game: &Sandpile, colour: bool) -> String {
        game.render(colour)
    }
}

/// The options a game is started with; any other key is refused.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SandpileOptions {
    /// A mid-game position such as `"X1,O0,.,X2"` (see [`Sandpile::from_position`]).
    #[serde(default)]
    position: Option<String>,
    /// `"X"` or `"O"`, X by default.
    #[serde(default)]
    to_move: Option<String>,
    /// `"abelian"` (the default) or `"reset"`.
    #[serde(default)]
    toppling: Option<String>,
}

/// The players' names, as the `to_move` option takes them.
const PLAYERS: &[&str] = &["X", "O"];

fn start(setup: &Setup, limits: &SetupLimits) -> Result<Box<dyn Match>, SetupError> {
    let options: SandpileOptions = setup.typed_options(&DESCRIPTOR.info)?;
    let mut game = (|| -> Result<Sandpile, SandpileError> {
        let to_move = match &options.to_move {
            None => Player::X,
            Some(text) => text
                .parse()
                .map_err(|_| SandpileError::BadOption(not_a_choice("to_move", text, PLAYERS)))?,
        };
        let toppling = match &options.toppling {
            None => Toppling::default(),
            Some(text) => text.parse()?,
        };
        new_game(
            setup.board,
            options.position.as_deref(),
            to_move,
            toppling,
            limits,
        )
    })()
    .map_err(SetupError::from_error)?;
    setup.play_moves(&mut game)?;
    Ok(GameMatch::<SandpileHost>::boxed(game))
}

/// The sandpile toppling game in the catalog.
pub static DESCRIPTOR: GameDescriptor = GameDescriptor {
    info: GameInfo {
        name: "sandpile",
        title: "Sandpile toppling",
        summary: "Place grains on the vertices of a graph: a vertex that topples claims its neighbours, and whoever holds every vertex wins.",
        board_kind: BoardKind::Graph,
        board_label: "graph: grid:RxC, P3, C3, K1,3, star:4, arcs:0>1,1>0, g6:<graph6>, ...",
        default_board: "grid:3x3",
        example_boards: &["grid:3x3", "grid:4x4", "P3", "C3", "C5", "K1,3", "petersen"],
        options: &[
            OptionSpec {
                name: "position",
                label: "Position",
                kind: OptionKind::Text,
                choices: &[],
                default: "",
                help: "one entry per vertex: `.` unclaimed, `X2`/`O0` owner and score, \
                       `X*`/`O*` toppling for ever",
                on_form: false,
            },
            OptionSpec {
                name: "to_move",
                label: "To move",
                kind: OptionKind::Select,
                choices: PLAYERS,
                default: "\"X\"",
                help: "the player to move in the given position (O only with a position)",
                on_form: false,
            },
            OptionSpec {
                name: "toppling",
                label: "Toppling",
                kind: OptionKind::Select,
                choices: Toppling::NAMES,
                default: "\"abelian\"",
                help: "abelian: a toppling vertex loses its degree (chips conserved); reset: \
                       its score goes to 0, as the seed words it (chips beyond the degree \
                       are lost)",
                on_form: true,
            },
            MOVES_OPTION,
        ],
        hint_level: Level::Hard,
        play_level: Level::Medium,
        solve_budget: SolveBudget {
            seconds: 10,
            nodes: Some(20_000_000),
        },
        rules: "<p>A game of Joel Brewster Lewis on a connected graph. Every vertex starts \
                unclaimed with score 0. On your turn place a grain on an unclaimed vertex \
                (it becomes yours with score 1) or on one of your own vertices (its \
                score goes up by 1).</p>\
                <p>When a vertex's score reaches its degree it topples: its score drops \
                by its degree (to 0 when it had just reached it) and each neighbour \
                gains 1, which may topple them in turn. \
                Every vertex reached by the cascade is claimed by the player who placed \
                the grain: the only way to take the opponent's vertices. The game ends \
                when one colour holds every vertex; that player wins.</p>\
                <p>On the path P2 the first player wins at once; on P3 the second player \
                always wins; on the star K1,m the first player wins exactly when m is \
                odd, whatever is played.</p>",
    },
    start,
    layout: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crosscap_engine::agents::Unproven;
    use serde_json::json;

    /// A game started through the catalog's descriptor, as every host starts one.
    fn new_match(
        board: &str,
        options: &Value,
        limits: &SetupLimits,
    ) -> Result<Box<dyn Match>, SetupError> {
        (DESCRIPTOR.start)(&Setup { board, options }, limits)
    }

    /// The complete graphs end fast though their room puts them out of `perfect`'s reach:
    /// its probe proves the first move of complete:6 (room 24), where grid:4x4 (room 32)
    /// is left to `expert`, unproven.
    #[test]
    fn perfect_probes_past_its_reach() {
        let empty = |spec| {
            new_game(
                spec,
                None,
                Player::X,
                Toppling::Abelian,
                &SetupLimits::default(),
            )
            .unwrap()
        };
        let complete = empty("complete:6");
        assert!(complete.room() > PERFECT_MAX_ROOM);
        let mut perfect = agent(Level::Perfect, 1);
        assert!(perfect.choose(&complete, &Budget::unlimited()).is_some());
        assert!(perfect.proven().is_some());
        // Time for the probe beside the fallback's reserve.
        let budget = Budget::time(std::time::Duration::from_secs(2));
        assert!(perfect.choose(&empty("grid:4x4"), &budget).is_some());
        assert_eq!(perfect.proven(), None);
        assert_eq!(perfect.unproven(), Some(Unproven::OutOfReach));
    }

    #[test]
    fn a_match_plays_on_a_grid() {
        let mut m = new_match(
            "grid:3x3",
            &json!({}),
            &crosscap_engine::session::SetupLimits::default(),
        )
        .unwrap();
        assert_eq!(m.game(), "sandpile");
        assert_eq!(m.legal_moves().len(), 9);
        assert_eq!(m.play("4").unwrap(), "4");
        let reply = m
            .computer_move(Level::Mcts(200), 1, &crosscap_engine::Budget::unlimited())
            .unwrap();
        m.play(&reply).unwrap();
        assert_eq!(m.view()["grid"]["rows"], 3);
    }

    #[test]
    fn the_view_describes_a_grid() {
        let mut g = Sandpile::from_spec("grid:2x3").unwrap();
        g.play(&0);
        let view = serde_json::to_value(SandpileHost::view(&g)).unwrap();
        assert_eq!(view["grid"]["columns"], 3);
        assert_eq!(view["vertices"][0]["owner"], "X");
        assert_eq!(view["vertices"][0]["threshold"], 2);
        assert_eq!(view["last_move"]["reached"], json!(["0"]));
        assert!(g.render(false).contains("X1"));
    }

    #[test]
    fn a_match_starts_from_a_position() {
        let m = new_match(
            "P4",
            &json!({"position": "X0,O1,.,X0", "to_move": "O"}),
            &crosscap_engine::session::SetupLimits::default(),
        )
        .unwrap();
        assert_eq!(m.to_move(), Some(Player::O));
        assert_eq!(m.legal_moves(), vec!["1", "2"]);
    }

    #[test]
    fn bad_boards_and_options_are_refused() {
        let graph = new_match("grid:0x", &json!({}), &SetupLimits::default())
            .err()
            .unwrap();
        assert!(graph.0.contains("grid:0x"), "{graph}");
        assert!(
            new_match(
                "P4",
                &json!({"to_move": 3}),
                &crosscap_engine::session::SetupLimits::default()
            )
            .is_err()
        );
        assert!(
            new_match(
                "P4",
                &json!({"to_move": "O"}),
                &crosscap_engine::session::SetupLimits::default()
            )
            .is_err()
        );
        assert!(
            new_match(
                "P4",
                &json!({"position": "X9"}),
                &crosscap_engine::session::SetupLimits::default()
            )
            .is_err()
        );
        let unknown = new_match("P4", &json!({"to-move": "O"}), &SetupLimits::default())
            .err()
            .unwrap()
            .to_string();
        assert_eq!(
            unknown,
            "sandpile has no option `to-move` (the options are position, to_move, toppling, moves)"
        );
        assert!(new_match("P4", &json!("X0,.,.,."), &SetupLimits::default()).is_err());
    }

    /// Text echoed in a message is escaped: one line, no terminal escapes.
    #[test]
    fn messages_escape_the_text_they_echo() {
        for options in [
            json!({"position": "X0,O1,.,X\u{1b}[31m0"}),
            json!({"position": "X0,O1,.,X0\n1"}),
            json!({"position": ".,.,.,.", "to_move": "\u{1b}[31mX"}),
        ] {
            let error = new_match("P4", &options, &SetupLimits::default())
                .err()
                .unwrap()
                .to_string();
            assert!(!error.contains(char::is_control), "{error:?}");
        }
    }

    #[test]
    fn graphs_over_the_limits_are_refused_before_the_board_is_built() {
        // K65536,2 used to abort the server at about 5.5 GB.
        let error = new_match("K65536,2", &json!({}), &SetupLimits::default())
            .err()
            .unwrap()
            .to_string();
        assert!(
            error.contains("65538 legal moves (at most 5000)"),
            "{error}"
        );
    }
}
