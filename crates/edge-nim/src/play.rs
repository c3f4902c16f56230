//! The computer player and the web server's match.

use std::sync::Arc;

use crosscap_engine::agents::standard_agent;
use crosscap_engine::mcts::MctsConfig;
use crosscap_engine::session::{GameMatch, Match, SetupLimits};
use crosscap_engine::{Agent, Budget, Impartial, Level, NormalPlay, Rng};
use crosscap_graphs::Graph;
use serde_json::{Value, json};

use crate::EdgeNimError;
use crate::analysis::analyse;
use crate::position::{EdgeNim, parse_tokens};
use crate::table::MEMORY_LIMIT;

/// Edge-Nim as a two-player game.
pub type EdgeNimGame = NormalPlay<EdgeNim>;

/// Tokens on every edge when a match names none.
pub const DEFAULT_TOKENS: u32 = 3;

/// Perfect play from the Grundy tables: a random winning move, or from a P-position a
/// random move. Positions too large for the tables go to the engine's perfect agent (the
/// solver, then MCTS).
pub struct TableAgent {
    fallback: Box<dyn Agent<EdgeNimGame>>,
    rng: Rng,
}

impl TableAgent {
    pub fn new(seed: u64) -> Self {
        TableAgent {
            fallback: standard_agent(Level::Perfect, MctsConfig::default(), seed),
            rng: Rng::new(seed),
        }
    }
}

impl Agent<EdgeNimGame> for TableAgent {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn choose(&mut self, game: &EdgeNimGame, budget: &Budget) -> Option<crate::EdgeNimMove> {
        let moves = game.position.moves();
        if moves.is_empty() {
            return None;
        }
        let max_memory = budget.max_memory.map_or(MEMORY_LIMIT, |bytes| bytes as u64);
        match analyse(&game.position, max_memory) {
            Ok(analysis) if !analysis.winning_moves.is_empty() => {
                let i = self.rng.below(analysis.winning_moves.len());
                Some(analysis.winning_moves[i].clone())
            }
            Ok(_) => Some(moves[self.rng.below(moves.len())].clone()),
            Err(_) => self.fallback.choose(game, budget),
        }
    }
}

/// The agent for a level: the tables for `perfect`, the engine's agents otherwise.
pub fn agent(level: Level, seed: u64) -> Box<dyn Agent<EdgeNimGame>> {
    match level {
        Level::Perfect => Box::new(TableAgent::new(seed)),
        other => standard_agent(other, MctsConfig::default(), seed),
    }
}

/// What a page needs to draw a position: the vertices, and each edge with its ends and
/// tokens (in edge order).
pub fn view(game: &EdgeNimGame) -> Value {
    let position = &game.position;
    let graph = position.graph();
    let edges: Vec<Value> = (0..graph.edge_count())
        .map(|e| {
            let (u, v) = graph.edge(e);
            json!({
                "name": graph.edge_name(e),
                "ends": [graph.vertex_name(u), graph.vertex_name(v)],
                "tokens": position.tokens()[e],
            })
        })
        .collect();
    let vertices: Vec<String> = (0..graph.vertex_count())
        .map(|v| graph.vertex_name(v))
        .collect();
    json!({
        "graph": graph.spec(),
        "vertices": vertices,
        "edges": edges,
        "tokens": position.tokens(),
        "to_move": game.to_move.to_string(),
    })
}

/// The options [`new_match`] takes.
pub const OPTIONS: &[&str] = &["tokens"];

/// A new game from `tokens`: the one setup that the command line and [`new_match`] go
/// through. A position with more moves than `limits` allows (by
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

/// A match for the web server. `board` is a graph spec (e.g. `tetrahedron`, `C4`,
/// `edges:0-1,1-2`); `options` may give `"tokens"`, a token text (`"a=3,b=1"`,
/// `"3,1,0,2,0,1"`, `"*=2"`) or an array of counts in edge order; without it (or with an
/// empty text) every edge has 3 tokens. Any other option is refused.
pub fn new_match(
    board: &str,
    options: &Value,
    limits: &SetupLimits,
) -> Result<Box<dyn Match>, EdgeNimError> {
    match options {
        Value::Null => {}
        Value::Object(map) => {
            if let Some(unknown) = map.keys().find(|k| !OPTIONS.contains(&k.as_str())) {
                return Err(EdgeNimError::UnknownOption {
                    name: unknown.clone(),
                    known: OPTIONS.join(", "),
                });
            }
        }
        other => {
            return Err(EdgeNimError::BadOption(format!(
                "the options must be a JSON object, not {other}"
            )));
        }
    }
    let graph = Arc::new(Graph::from_spec(board)?);
    let tokens = match options.get("tokens") {
        None | Some(Value::Null) => vec![DEFAULT_TOKENS; graph.edge_count()],
        Some(Value::String(text)) if text.trim().is_empty() => {
            vec![DEFAULT_TOKENS; graph.edge_count()]
        }
        Some(Value::String(text)) => parse_tokens(&graph, text)?,
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| {
                item.as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| EdgeNimError::BadCount(item.to_string()))
            })
            .collect::<Result<_, _>>()?,
        Some(other) => {
            return Err(EdgeNimError::BadOption(format!(
                "\"tokens\" must be a text or an array of counts, not {other}"
            )));
        }
    };
    Ok(Box::new(GameMatch::new(
        new_game(graph, tokens, limits)?,
        "edge-nim",
        agent,
        view,
    )))
}
