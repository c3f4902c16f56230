//! The computer player and Edge-Nim in the catalog (its description, options, view and
//! the analysis behind `solve`).

use std::sync::Arc;
use std::time::Instant;

use crosscap_engine::agents::{KnownWins, standard_agent};
use crosscap_engine::catalog::{
    self, BoardKind, GameDescriptor, GameInfo, MOVES_OPTION, OptionKind, OptionSpec, Setup,
    SetupError, SolveBudget, Unsolved, ValueKind,
};
use crosscap_engine::mcts::MctsConfig;
use crosscap_engine::session::{GameMatch, Hosting, Match, SetupLimits};
use crosscap_engine::{Agent, Budget, Exhausted, Level, NormalPlay, SolveError};
use crosscap_graphs::Graph;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::EdgeNimError;
use crate::analysis::analyse;
use crate::position::{EdgeNim, EdgeNimMove, parse_tokens};
use crate::table::MEMORY_LIMIT;

/// Edge-Nim as a two-player game.
pub type EdgeNimGame = NormalPlay<EdgeNim>;

/// Tokens on every edge when a match names none.
pub const DEFAULT_TOKENS: u32 = 3;

/// What a token text may say, for every host that reads one (the catalog's option, the
/// CLI's `edge-nim value`), so that they describe and default it alike.
pub const TOKENS_HELP: &str = "tokens on the edges: counts in edge order (3,1,0,2,0,1), EDGE=COUNT \
                               items (a=3,b=1) or *=N for every edge; empty means 3 on each edge";

/// The tokens of a token text: [`DEFAULT_TOKENS`] on every edge when it is blank.
pub fn tokens_or_default(graph: &Graph, text: &str) -> Result<Vec<u32>, EdgeNimError> {
    if text.trim().is_empty() {
        Ok(vec![DEFAULT_TOKENS; graph.edge_count()])
    } else {
        parse_tokens(graph, text)
    }
}

/// Perfect play from the Grundy tables: a random winning move, or from a P-position
/// `expert`'s move (every move loses, and expert's makes the winner find the win). Positions too large for the tables get `expert`'s move at once: the
/// engine's solver reaches less than they do (20 million nodes in 30 s, where a table
/// holds up to 2^27 positions), and trying it first only kept a player waiting its 30 s
/// for the same unproven move (petersen with two tokens an edge, BENCHMARKS.md).
fn table_agent(seed: u64) -> Box<dyn Agent<EdgeNimGame>> {
    let tables = |game: &EdgeNimGame, budget: &Budget| {
        let max_memory = budget.max_memory.map_or(MEMORY_LIMIT, |bytes| bytes as u64);
        analyse(&game.position, max_memory)
            .map(|analysis| analysis.winning_moves)
            .map_err(|err| err.stopped_by())
    };
    Box::new(KnownWins::new(
        Box::new(tables),
        standard_agent(Level::Expert, MctsConfig::default(), seed),
        seed,
    ))
}

/// The agent for a level: the tables for `perfect`, the engine's agents otherwise.
pub fn agent(level: Level, seed: u64) -> Box<dyn Agent<EdgeNimGame>> {
    match level {
        Level::Perfect => table_agent(seed),
        other => standard_agent(other, MctsConfig::default(), seed),
    }
}

/// A new game from `tokens`: the one setup that the command line and the catalog's
/// [`DESCRIPTOR`] go through. A position with more moves than `limits` allows (by
/// [`EdgeNim::move_count_bound`]) is refused before any move is listed.
pub fn new_game(
    graph: Arc<Graph>,
    tokens: Vec<u32>,
    limits: &SetupLimits,
) -> Result<EdgeNimGame, EdgeNimError> {
    let position = EdgeNim::new(graph, tokens)?;
    limits.check_moves(position.move_count_bound())?;
    Ok(NormalPlay::new(position))
}

/// Edge-Nim as the hosts offer it.
pub struct EdgeNimHost;

/// What a page needs to draw a position beyond the match's snapshot (whose turn, legal
/// moves, outcome): the vertices by name, and each edge with its ends and tokens (in edge
/// order).
#[derive(Serialize)]
pub struct EdgeNimView {
    pub vertices: Vec<String>,
    pub edges: Vec<EdgeView>,
    /// The tokens in edge order, as `--tokens` reads them.
    pub tokens: Vec<u32>,
}

/// An edge by name, its ends by vertex name, and its tokens.
#[derive(Serialize)]
pub struct EdgeView {
    pub name: String,
    pub ends: [String; 2],
    pub tokens: u32,
}

impl EdgeNimView {
    pub fn of(game: &EdgeNimGame) -> EdgeNimView {
        let position = &game.position;
        let graph = position.graph();
        EdgeNimView {
            vertices: (0..graph.vertex_count())
                .map(|v| graph.vertex_name(v))
                .collect(),
            edges: (0..graph.edge_count())
                .map(|e| {
                    let (u, v) = graph.edge(e);
                    EdgeView {
                        name: graph.edge_name(e),
                        ends: [graph.vertex_name(u), graph.vertex_name(v)],
                        tokens: position.tokens()[e],
                    }
                })
                .collect(),
            tokens: position.tokens().to_vec(),
        }
    }
}

impl Hosting for EdgeNimHost {
    type Game = EdgeNimGame;
    type View = EdgeNimView;
    const NAME: &'static str = "edge-nim";
    const VALUE_KIND: ValueKind = ValueKind::Grundy;

    fn agent(level: Level, seed: u64) -> Box<dyn Agent<EdgeNimGame>> {
        agent(level, seed)
    }

    fn view(game: &EdgeNimGame) -> EdgeNimView {
        EdgeNimView::of(game)
    }

    /// The tokens in edge order, as `--tokens` reads them.
    fn position(game: &EdgeNimGame) -> String {
        let tokens: Vec<String> = game.position.tokens().iter().map(u32::to_string).collect();
        tokens.join(",")
    }

    /// The Grundy tables of [`analyse`], within the budget's memory; tables that would
    /// not fit answer unknown (memory), a position beyond the tables' fixed limits
    /// (Grundy values of 1024 or more) unknown ([`Exhausted::Beyond`], with the reason as
    /// `"beyond"`).
    fn analyse(
        game: &EdgeNimGame,
        budget: &Budget,
    ) -> Result<catalog::Analysis<EdgeNimMove>, Unsolved> {
        let clock = Instant::now();
        let max_memory = budget.max_memory.map_or(MEMORY_LIMIT, |bytes| bytes as u64);
        let analysis = analyse(&game.position, max_memory).map_err(|err| {
            let reason = err.stopped_by();
            let unsolved = Unsolved::from(SolveError::Unknown {
                nodes: 0,
                elapsed: clock.elapsed(),
                reason,
            });
            if reason == Exhausted::Memory {
                unsolved
            } else {
                unsolved.with_extra(Map::from_iter([(
                    "beyond".to_string(),
                    json!(err.to_string()),
                )]))
            }
        })?;
        Ok(catalog::Analysis::impartial(
            game,
            analysis.grundy,
            analysis.winning_moves,
            Map::from_iter([("grundy".to_string(), json!(analysis.grundy))]),
        ))
    }

    fn facts(game: &EdgeNimGame) -> Map<String, Value> {
        game.position.facts()
    }

    /// An edge a line: its name, its ends and its tokens.
    fn drawing(game: &EdgeNimGame, _colour: bool) -> String {
        let position = &game.position;
        let graph = position.graph();
        (0..graph.edge_count())
            .map(|e| {
                let (u, v) = graph.edge(e);
                let t = position.tokens()[e];
                format!(
                    "{:>5} ({}-{}): {:>3} {}",
                    graph.edge_name(e),
                    graph.vertex_name(u),
                    graph.vertex_name(v),
                    t,
                    "o".repeat(t.min(40) as usize)
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// The options a game is started with; any other key is refused.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EdgeNimOptions {
    /// A token text (`"a=3,b=1"`, `"3,1,0,2,0,1"`, `"*=2"`) or counts in edge order;
    /// without it (or with an empty text) every edge has [`DEFAULT_TOKENS`].
    #[serde(default)]
    tokens: Value,
}

fn start(setup: &Setup, limits: &SetupLimits) -> Result<Box<dyn Match>, SetupError> {
    let options: EdgeNimOptions = setup.typed_options(&DESCRIPTOR.info)?;
    let mut game = (|| -> Result<EdgeNimGame, EdgeNimError> {
        let graph = Arc::new(crate::read_graph(setup.board)?);
        let tokens = match &options.tokens {
            Value::Null => vec![DEFAULT_TOKENS; graph.edge_count()],
            Value::String(text) => tokens_or_default(&graph, text)?,
            Value::Array(items) => items
                .iter()
                .map(|item| {
                    item.as_u64()
                        .and_then(|n| u32::try_from(n).ok())
                        .ok_or_else(|| EdgeNimError::BadCount(item.to_string()))
                })
                .collect::<Result<_, _>>()?,
            other => {
                return Err(EdgeNimError::BadOption(format!(
                    "\"tokens\" must be a text or an array of counts, not {other}"
                )));
            }
        };
        new_game(graph, tokens, limits)
    })()
    .map_err(SetupError::from_error)?;
    setup.play_moves(&mut game)?;
    Ok(GameMatch::<EdgeNimHost>::boxed(game))
}

/// Edge-Nim in the catalog.
pub static DESCRIPTOR: GameDescriptor = GameDescriptor {
    info: GameInfo {
        name: "edge-nim",
        title: "Edge-Nim",
        summary: "Take tokens from the edges at one vertex of a graph: whoever takes the last token wins.",
        board_kind: BoardKind::Graph,
        board_label: "graph: tetrahedron, C4, K4, P5, star:3, edges:0-1,1-2, g6:<graph6>, ...",
        default_board: "tetrahedron",
        example_boards: &["tetrahedron", "C3", "C4", "P4", "star:3", "K4"],
        options: &[
            OptionSpec {
                name: "tokens",
                label: "Tokens",
                kind: OptionKind::Text,
                choices: &[],
                default: "\"\"",
                help: TOKENS_HELP,
                on_form: true,
            },
            MOVES_OPTION,
        ],
        hint_level: Level::Perfect,
        play_level: Level::Perfect,
        solve_budget: SolveBudget {
            seconds: 60,
            nodes: None,
        },
        rules: "<p>Tokens lie on the edges of a graph. On your turn choose a vertex and \
                remove at least one token from one or more of the edges at that vertex. \
                Whoever takes the last token wins (the player who cannot move loses).</p>\
                <p>Edges that share no vertex are separate Nim heaps; on the 3- and \
                4-cycles the game is Circular Nim. Dufour, Flesch and Heubach found the losing positions of \
                the tetrahedron when one edge is empty: with <i>a</i> = 0, the position \
                is lost for the player to move exactly when the other edges can be \
                named, by one of the tetrahedron's symmetries that keep <i>a</i>, so \
                that b + C = B + c, b ≤ c and A ⊕ b ⊕ B = 0.</p>\
                <p>On the page, pick a vertex, then how many tokens to leave on each of \
                its edges.</p>",
    },
    start,
    layout: None,
};
