//! An object-safe view of a game in progress, so that the web server (and anything else
//! that handles "some game") can hold any Crosscap game behind one interface.

use serde::Serialize;
use serde_json::Value;

use std::any::Any;
use std::time::Instant;

use crate::agents::{Agent, Level, Proven, Unproven};
use crate::arena::{ArenaReport, arena, arena_equal_time};
use crate::budget::Budget;
use crate::catalog::{Analysis, Moves, Solved, Status, Unsolved, ValueKind, Winner, unknown};
use crate::game::{Game, MoveError, Notation, Outcome, Player};
use crate::mcts::with_search_threads;

/// What a host allows of the games it builds. Each game checks it in the one constructor
/// that the CLI and the server both call, before any work that grows with the board
/// (listing moves, symmetries, tables), from counts it can estimate without that work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SetupLimits {
    /// Most legal moves in the starting position: the measure of size every game shares.
    pub max_legal_moves: usize,
}

impl Default for SetupLimits {
    /// 5,000 legal moves: Projective Hex and Euler Getter on taylor:40 (4,800 cells) fit.
    fn default() -> Self {
        SetupLimits {
            max_legal_moves: 5_000,
        }
    }
}

/// A game over its host's [`SetupLimits`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the board is too large: {moves} legal moves (at most {max})")]
pub struct TooLarge {
    /// The count or estimate, as text (it may not fit any integer type).
    pub moves: String,
    pub max: usize,
}

impl SetupLimits {
    /// Refuses a game whose starting position has (at least) `moves` legal moves, a count
    /// made with saturating arithmetic (so `u128::MAX` stands for "more than that").
    pub fn check_moves(&self, moves: u128) -> Result<(), TooLarge> {
        if moves > self.max_legal_moves as u128 {
            return Err(TooLarge {
                moves: if moves == u128::MAX {
                    "more than 10^38".to_string()
                } else {
                    moves.to_string()
                },
                max: self.max_legal_moves,
            });
        }
        Ok(())
    }
}

/// A game in progress, driven by moves in the game's text notation.
pub trait Match: Send + Sync {
    /// The game's name, e.g. `projective-hex`.
    fn game(&self) -> &'static str;

    /// The player to move, or `None` once the game is over.
    fn to_move(&self) -> Option<Player>;

    /// Every legal move, in notation.
    fn legal_moves(&self) -> Vec<String>;

    /// Plays a move given in notation; returns it normalised. A refused move changes
    /// nothing.
    fn play(&mut self, text: &str) -> Result<String, MoveError>;

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// What a page needs to draw the position beyond what this trait tells: the game's
    /// [`Hosting::View`] as JSON.
    fn view(&self) -> Value;

    /// The position in the game's own text form.
    fn position(&self) -> String;

    /// Solves the position within `budget`: the one answer shape of every game.
    fn solve(&self, budget: &Budget) -> Solved;

    /// The computer's move at `level`, in notation (`None` when the game is over), found
    /// within `budget` (cut short, the best move found so far).
    fn computer_move(&self, level: Level, seed: u64, budget: &Budget) -> Option<String> {
        self.hint(level, seed, budget).map(|hint| hint.notation)
    }

    /// [`Match::computer_move`], and whether an exact solve proved it optimal (and the
    /// position's worth to its mover).
    fn hint(&self, level: Level, seed: u64, budget: &Budget) -> Option<Hint> {
        self.hint_by(self.computer(level, seed).as_mut(), budget)
    }

    /// [`Match::hint`] by a computer of this game's, which may have played earlier moves
    /// of it and keeps what it learnt.
    fn hint_by(&self, computer: &mut dyn Computer, budget: &Budget) -> Option<Hint> {
        let notation = computer.choose(self.as_any(), budget)?;
        Some(Hint {
            notation,
            proven: computer.proven(),
            unproven: computer.unproven(),
        })
    }

    /// A computer player at `level` for a whole game: asked for each of its moves, it keeps
    /// what its search learnt (a kept tree) from one move to the next.
    fn computer(&self, level: Level, seed: u64) -> Box<dyn Computer>;

    /// The match as [`Any`], for a [`Computer`] to find its game in.
    fn as_any(&self) -> &dyn Any;

    /// About how many bytes the game holds, its shared board not counted.
    fn memory_bytes(&self) -> usize;

    fn clone_box(&self) -> Box<dyn Match>;

    /// The position drawn as text for a terminal (`colour`: ANSI colours allowed).
    fn drawing(&self, colour: bool) -> String;

    /// Plays `games` games from this position between the computer at levels `a` and
    /// `b`, colours alternating (see [`arena`]).
    fn arena(&self, a: Level, b: Level, games: usize, seed: u64, run: &ArenaRun) -> ArenaReport;
}

/// A computer player that plays one game through, move after move (see
/// [`Match::computer`]).
pub trait Computer: Send {
    /// Its move in `game`'s position (`None` when the game is over, or when `game` is not a
    /// match of the game it was made for), found within `budget`.
    fn choose(&mut self, game: &dyn Any, budget: &Budget) -> Option<String>;

    /// Whether its last move is proven optimal, and the position's worth ([`Agent::proven`]).
    fn proven(&self) -> Option<Proven> {
        None
    }

    /// Why its last move is not proven, from a perfect player ([`Agent::unproven`]).
    fn unproven(&self) -> Option<Unproven> {
        None
    }
}

/// A computer's move ([`Match::hint`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The move in notation.
    pub notation: String,
    /// Proven optimal by an exact solve, not only a search's best, and then what the
    /// position is worth to its mover ([`Agent::proven`]).
    pub proven: Option<Proven>,
    /// Why a perfect player's move is not proven ([`Agent::unproven`]): `None` when it is,
    /// and at the other levels.
    pub unproven: Option<Unproven>,
}

impl Hint {
    /// The hint as the server and the Python module answer it, given at `level`:
    /// `move`, `level`, `proven`, `result` (what the position is worth to its mover when
    /// proven) and `reason` (why a perfect player's move is not proven).
    pub fn details(&self, level: Level) -> Value {
        serde_json::json!({
            "move": self.notation,
            "level": level.to_string(),
            "proven": self.proven.is_some(),
            "result": self.proven,
            "reason": self.unproven,
        })
    }
}

/// The computer of a [`GameMatch`]: one agent kept for the whole game.
struct Follower<H: Hosting> {
    agent: Box<dyn Agent<H::Game>>,
}

impl<H: Hosting> Computer for Follower<H> {
    fn choose(&mut self, game: &dyn Any, budget: &Budget) -> Option<String> {
        let game = &game.downcast_ref::<GameMatch<H>>()?.game;
        self.agent
            .choose(game, budget)
            .map(|mv| game.format_move(&mv))
    }

    fn proven(&self) -> Option<Proven> {
        self.agent.proven()
    }

    fn unproven(&self) -> Option<Unproven> {
        self.agent.unproven()
    }
}

/// How an arena runs beyond its players: the budget of every move, and what to call
/// after each game (for a progress bar).
pub struct ArenaRun<'a> {
    pub budget: Budget,
    pub on_game_done: &'a (dyn Fn() + Sync),
    /// A thinks on a time bank matched to B's time, games one at a time
    /// ([`arena_equal_time`]).
    pub equal_time: bool,
    /// The threads A's and B's searches run on ([`with_search_threads`]; 1 for agents
    /// that do not search, see [`Level::uses_threads`]). An equal-time arena charges each
    /// side its time times its threads.
    pub a_threads: usize,
    pub b_threads: usize,
}

/// What a game crate supplies for its games to be hosted: a unit type implementing this
/// (a local type, so that games played as `NormalPlay<_>` can have one too).
pub trait Hosting: Send + Sync + 'static {
    type Game: Notation + 'static;
    /// What a page needs to draw a position beyond what a host already sends with it:
    /// whose turn, the legal moves, the outcome (all from [`Match`]), the moves played and
    /// the board's drawing ([`GameDescriptor::layout`](crate::catalog::GameDescriptor)).
    type View: Serialize;
    /// The game's name, e.g. `projective-hex`.
    const NAME: &'static str;
    /// What the game's value counts.
    const VALUE_KIND: ValueKind;

    /// The computer player at `level`.
    fn agent(level: Level, seed: u64) -> Box<dyn Agent<Self::Game>>;

    /// The position as the page draws it.
    fn view(game: &Self::Game) -> Self::View;

    /// The position in the game's own text form (what `--position` reads back).
    fn position(game: &Self::Game) -> String;

    /// The exact analysis of a position that is not over, within `budget`.
    fn analyse(
        game: &Self::Game,
        budget: &Budget,
    ) -> Result<Analysis<<Self::Game as Game>::Move>, Unsolved>;

    /// Keys of the game's own that the answer of `solve` gives whether or not a search
    /// ran (the board, the loop of a finished game, ...): none unless the game says.
    fn facts(_game: &Self::Game) -> serde_json::Map<String, Value> {
        serde_json::Map::new()
    }

    /// The position drawn as text for a terminal (`colour`: ANSI colours allowed); its
    /// text form unless the game draws it.
    fn drawing(game: &Self::Game, _colour: bool) -> String {
        Self::position(game)
    }
}

/// The [`Match`] of any hosted game.
pub struct GameMatch<H: Hosting> {
    pub game: H::Game,
}

impl<H: Hosting> Clone for GameMatch<H> {
    fn clone(&self) -> Self {
        GameMatch {
            game: self.game.clone(),
        }
    }
}

impl<H: Hosting> GameMatch<H> {
    pub fn new(game: H::Game) -> Self {
        GameMatch { game }
    }

    /// The match boxed, as hosts hold it.
    pub fn boxed(game: H::Game) -> Box<dyn Match> {
        Box::new(Self::new(game))
    }

    fn format_all(&self, moves: &[<H::Game as Game>::Move]) -> Vec<String> {
        moves.iter().map(|m| self.game.format_move(m)).collect()
    }
}

impl<H: Hosting> Match for GameMatch<H> {
    fn game(&self) -> &'static str {
        H::NAME
    }

    fn to_move(&self) -> Option<Player> {
        self.game.outcome().is_none().then(|| self.game.to_move())
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.game.outcome().is_some() {
            return Vec::new();
        }
        self.format_all(&self.game.legal_moves())
    }

    fn play(&mut self, text: &str) -> Result<String, MoveError> {
        let mv = self.game.play_text(text)?;
        Ok(self.game.format_move(&mv))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn view(&self) -> Value {
        // A view is plain structs with field names for keys, which always serialise.
        serde_json::to_value(H::view(&self.game)).unwrap_or(Value::Null)
    }

    fn position(&self) -> String {
        H::position(&self.game)
    }

    fn solve(&self, budget: &Budget) -> Solved {
        let clock = Instant::now();
        let position = H::position(&self.game);
        let to_move = self.to_move();
        let analysis = match self.game.outcome() {
            // A finished game needs no search: its value is its result, X's margin, since
            // nobody is to move (whoever the position's setup named).
            Some(outcome) => Ok(Analysis {
                winner: outcome.winner.map_or(Winner::Draw, Winner::Player),
                value: match H::VALUE_KIND {
                    ValueKind::Grundy => 0,
                    ValueKind::Margin => i64::from(outcome.margin),
                },
                value_kind: H::VALUE_KIND,
                moves: Moves::Known {
                    winning: Vec::new(),
                    optimal: Vec::new(),
                },
                nodes: 0,
                extra: serde_json::Map::new(),
            }),
            None => H::analyse(&self.game, budget),
        };
        let mut solved = match analysis {
            Ok(analysis) => Solved {
                game: H::NAME,
                position,
                to_move,
                status: Status::Solved,
                winner: Some(analysis.winner),
                outcome: (analysis.value_kind == ValueKind::Grundy)
                    .then_some(if analysis.value == 0 { "P" } else { "N" }),
                value: Some(analysis.value),
                value_kind: analysis.value_kind,
                moves: analysis.moves.map(|mv| self.game.format_move(mv)),
                nodes: analysis.nodes,
                millis: clock.elapsed().as_secs_f64() * 1000.0,
                extra: analysis.extra,
            },
            Err(unsolved) => unknown(H::NAME, position, to_move, H::VALUE_KIND, unsolved),
        };
        for (key, value) in H::facts(&self.game) {
            solved.extra.entry(key).or_insert(value);
        }
        solved
    }

    fn computer(&self, level: Level, seed: u64) -> Box<dyn Computer> {
        Box::new(Follower::<H> {
            agent: H::agent(level, seed),
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn memory_bytes(&self) -> usize {
        self.game.memory_bytes()
    }

    fn clone_box(&self) -> Box<dyn Match> {
        Box::new(self.clone())
    }

    fn drawing(&self, colour: bool) -> String {
        H::drawing(&self.game, colour)
    }

    fn arena(&self, a: Level, b: Level, games: usize, seed: u64, run: &ArenaRun) -> ArenaReport {
        let make_a = |seed| with_search_threads(run.a_threads, || H::agent(a, seed));
        let make_b = |seed| with_search_threads(run.b_threads, || H::agent(b, seed));
        if run.equal_time {
            arena_equal_time(&self.game, &make_a, &make_b, games, seed, run)
        } else {
            arena(
                &self.game,
                &make_a,
                &make_b,
                games,
                seed,
                &run.budget,
                run.on_game_done,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impartial::NormalPlay;
    use crate::nim::{Nim, NimHost};

    fn nim_match() -> Box<dyn Match> {
        GameMatch::<NimHost>::boxed(NormalPlay::new(Nim::new(vec![1, 2])))
    }

    /// A computer follows its game move after move, and answers nothing for a match of
    /// another game.
    #[test]
    fn a_computer_plays_its_game_through() {
        let mut game = nim_match();
        let mut computer = game.computer(Level::Perfect, 1);
        let budget = Budget::unlimited();
        // 1 2: the winning move leaves 1 1.
        let first = computer.choose(game.as_any(), &budget).expect("a move");
        assert_eq!(game.play(&first).unwrap(), "2:1");
        game.play("1:0").unwrap();
        let second = computer.choose(game.as_any(), &budget).expect("a move");
        assert_eq!(game.play(&second).unwrap(), "2:0");
        assert!(game.outcome().is_some());
        assert_eq!(computer.choose(&"not a match", &budget), None);
    }

    #[test]
    fn setup_limits_name_the_count() {
        let limits = SetupLimits::default();
        assert!(limits.check_moves(5_000).is_ok());
        let err = limits.check_moves(5_001).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the board is too large: 5001 legal moves (at most 5000)"
        );
        assert!(
            limits
                .check_moves(u128::MAX)
                .unwrap_err()
                .to_string()
                .contains("more than 10^38")
        );
    }

    #[test]
    fn solve_answers_in_the_one_shape() {
        let solved = serde_json::to_value(nim_match().solve(&Budget::unlimited())).unwrap();
        assert_eq!(solved["game"], "nim");
        assert_eq!(solved["position"], "1 2");
        assert_eq!(solved["status"], "solved");
        assert_eq!(solved["to_move"], "X");
        assert_eq!(solved["winner"], "X");
        assert_eq!(solved["outcome"], "N");
        assert_eq!(solved["value"], 3);
        assert_eq!(solved["value_kind"], "grundy");
        assert_eq!(solved["winning_moves"], serde_json::json!(["2:1"]));
        assert_eq!(solved["grundy"], 3);
        let mut lost = nim_match();
        lost.play("2:1").unwrap();
        let solved = serde_json::to_value(lost.solve(&Budget::unlimited())).unwrap();
        assert_eq!(solved["winner"], "X", "O to move loses 1 1");
        assert_eq!(solved["outcome"], "P");
        assert_eq!(solved["optimal_moves"], serde_json::json!(["1:0", "2:0"]));
    }

    #[test]
    fn a_match_plays_through_text() {
        let mut m = nim_match();
        assert_eq!(m.legal_moves(), vec!["1:0", "2:0", "2:1"]);
        assert!(m.play("9:0").is_err());
        assert_eq!(m.legal_moves().len(), 3, "a refused move changes nothing");
        assert_eq!(m.play(" 2:0 ").unwrap(), "2:0");
        assert_eq!(m.to_move(), Some(Player::O));
        let reply = m
            .computer_move(Level::Perfect, 1, &Budget::unlimited())
            .unwrap();
        m.play(&reply).unwrap();
        assert_eq!(m.outcome().unwrap().winner, Some(Player::O));
        assert_eq!(m.to_move(), None);
        assert_eq!(m.view()["heaps"], serde_json::json!([0, 0]));
        assert!(matches!(m.play("1:0"), Err(MoveError::GameOver)));
    }
}
