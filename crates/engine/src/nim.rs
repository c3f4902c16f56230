//! Nim, the engine's first game and the theory under every other impartial game.
//!
//! Move notation: `HEAP:SIZE`, heaps numbered from 1, SIZE the number of counters left
//! in that heap (e.g. `3:1` leaves one counter in the third heap).

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::agents::{Agent, KnownWins, Level, standard_agent};
use crate::budget::{Budget, Exhausted};
use crate::catalog::{
    Analysis, BoardKind, GameDescriptor, GameInfo, MOVES_OPTION, Moves, Setup, SetupError,
    SolveBudget, Solved, Unsolved, ValueKind, Winner,
};
use crate::game::{MoveError, Notation};
use crate::impartial::{Impartial, NormalPlay, nim_sum};
use crate::mcts::MctsConfig;
use crate::session::{GameMatch, Hosting, Match, SetupLimits, TooLarge};
use crate::text::escape_controls;

/// A Nim position: the heap sizes, in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Nim {
    pub heaps: Vec<u32>,
}

/// Reduce heap `heap` (0-based) to `to` counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NimMove {
    pub heap: usize,
    pub to: u32,
}

impl Nim {
    pub fn new(heaps: Vec<u32>) -> Self {
        Nim { heaps }
    }

    /// The winning moves by Bouton's theorem: the player to move wins exactly when the
    /// nim-sum `s` of the heaps is not 0, and a winning move takes a heap `h` with
    /// `h ^ s < h` down to `h ^ s`, leaving nim-sum 0. None from a lost position. The
    /// engine's searches are checked against it (the tests below).
    pub fn winning_moves(&self) -> Vec<NimMove> {
        let sum = nim_sum(self.heaps.iter().copied());
        self.heaps
            .iter()
            .enumerate()
            .filter(|&(_, &h)| (h ^ sum) < h)
            .map(|(heap, &h)| NimMove { heap, to: h ^ sum })
            .collect()
    }

    /// Whether the player to move loses under misère play (whoever takes the last counter
    /// loses), by Bouton's rule: when every heap holds at most one counter, exactly when an
    /// odd number of heaps hold one; else exactly when the nim-sum is 0.
    pub fn misere_mover_loses(&self) -> bool {
        if self.heaps.iter().all(|&h| h <= 1) {
            self.heaps.iter().filter(|&&h| h == 1).count() % 2 == 1
        } else {
            nim_sum(self.heaps.iter().copied()) == 0
        }
    }

    /// The winning moves under misère play, from Bouton's rule without trying every move:
    /// with two heaps over one counter they are normal play's (one of those heaps stays
    /// over one, so the rule is the nim-sum's on both sides); with one, the move that takes
    /// that heap to 0 or 1 counters, leaving an odd number of ones; with none, taking a
    /// single counter when an even number of heaps hold one. None from a lost position.
    pub fn misere_winning_moves(&self) -> Vec<NimMove> {
        let big: Vec<usize> = (0..self.heaps.len())
            .filter(|&i| self.heaps[i] > 1)
            .collect();
        let ones = self.heaps.iter().filter(|&&h| h == 1).count();
        match big[..] {
            [] if ones % 2 == 0 => (0..self.heaps.len())
                .filter(|&heap| self.heaps[heap] == 1)
                .map(|heap| NimMove { heap, to: 0 })
                .collect(),
            [] => Vec::new(),
            [heap] => vec![NimMove {
                heap,
                to: u32::from(ones % 2 == 0),
            }],
            _ => self.winning_moves(),
        }
    }
}

impl Impartial for Nim {
    type Move = NimMove;

    fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Self>() + self.heaps.len() * std::mem::size_of::<u32>()
    }

    fn moves(&self) -> Vec<NimMove> {
        self.heaps
            .iter()
            .enumerate()
            .flat_map(|(heap, &size)| (0..size).map(move |to| NimMove { heap, to }))
            .collect()
    }

    fn after(&self, mv: &NimMove) -> Self {
        let mut next = self.clone();
        next.heaps[mv.heap] = mv.to;
        next
    }

    /// Every heap is empty (a heap of N counters has N moves: never listed to see this).
    fn has_no_moves(&self) -> bool {
        self.heaps.iter().all(|&h| h == 0)
    }

    /// Each non-empty heap is a game of its own.
    fn components(&self) -> Vec<Self> {
        if self.heaps.len() == 1 {
            return vec![self.clone()];
        }
        self.heaps
            .iter()
            .filter(|&&h| h > 0)
            .map(|&h| Nim::new(vec![h]))
            .collect()
    }
}

/// Formats a Nim move as `HEAP:SIZE`.
pub fn format_move(mv: &NimMove) -> String {
    format!("{}:{}", mv.heap + 1, mv.to)
}

impl Notation for NormalPlay<Nim> {
    fn parse_move(&self, text: &str) -> Result<NimMove, MoveError> {
        let (heap, size) = text
            .trim()
            .split_once(':')
            .ok_or_else(|| MoveError::malformed(text, "expected HEAP:SIZE, e.g. 2:0"))?;
        let heap: usize = heap
            .trim()
            .parse()
            .map_err(|_| MoveError::malformed(text, "the heap must be a number from 1"))?;
        let to: u32 = size
            .trim()
            .parse()
            .map_err(|_| MoveError::malformed(text, "the size left must be a number"))?;
        let heaps = &self.position.heaps;
        if heap == 0 || heap > heaps.len() {
            return Err(MoveError::illegal(
                text,
                format!("there are heaps 1 to {}", heaps.len()),
            ));
        }
        if to >= heaps[heap - 1] {
            return Err(MoveError::illegal(
                text,
                format!(
                    "heap {heap} has {} counters; a move must leave fewer",
                    heaps[heap - 1]
                ),
            ));
        }
        Ok(NimMove { heap: heap - 1, to })
    }

    fn format_move(&self, mv: &NimMove) -> String {
        format_move(mv)
    }
}

/// Nim as the hosts offer it (the web server, the command line).
pub struct NimHost;

/// What a page draws: the heap sizes.
#[derive(Serialize)]
pub struct NimView {
    pub heaps: Vec<u32>,
}

impl Hosting for NimHost {
    type Game = NormalPlay<Nim>;
    type View = NimView;
    const NAME: &'static str = "nim";
    const VALUE_KIND: ValueKind = ValueKind::Grundy;

    /// `perfect` plays by Bouton's theorem, a winning move at once on any heaps (from a
    /// lost position `expert`'s move); the other levels are the engine's.
    fn agent(level: Level, seed: u64) -> Box<dyn Agent<Self::Game>> {
        match level {
            Level::Perfect => Box::new(KnownWins::new(
                Box::new(|game: &NormalPlay<Nim>, _: &Budget| Ok(game.position.winning_moves())),
                standard_agent(Level::Expert, MctsConfig::default(), seed),
                seed,
            )),
            other => standard_agent(other, MctsConfig::default(), seed),
        }
    }

    fn view(game: &Self::Game) -> NimView {
        NimView {
            heaps: game.position.heaps.clone(),
        }
    }

    fn position(game: &Self::Game) -> String {
        let heaps: Vec<String> = game.position.heaps.iter().map(u32::to_string).collect();
        heaps.join(" ")
    }

    /// Bouton's theorem, at once on any heaps: the nim-sum is the Grundy value and the
    /// winning moves leave nim-sum 0 ([`Nim::winning_moves`]); from a lost position every
    /// move is as good, listed when they fit in the budget's memory (a heap of N counters
    /// has N moves), else unknown with the memory limit. (The engine's generic searches
    /// are checked against it in the tests, not run here: the solver took 10 s on 50 53
    /// 30 14.)
    fn analyse(game: &Self::Game, budget: &Budget) -> Result<Analysis<NimMove>, Unsolved> {
        let grundy = nim_sum(game.position.heaps.iter().copied());
        let mover_wins = grundy != 0;
        let moves = if mover_wins {
            Moves::reaching_value(true, game.position.winning_moves())
        } else {
            let count: u64 = game.position.heaps.iter().map(|&h| u64::from(h)).sum();
            match budget.max_entries(LISTED_MOVE_BYTES) {
                Some(most) if count > most as u64 => Moves::Unknown {
                    reason: Exhausted::Memory,
                },
                _ => Moves::reaching_value(false, game.position.moves()),
            }
        };
        Ok(Analysis {
            winner: Winner::Player(if mover_wins {
                game.to_move
            } else {
                game.to_move.opponent()
            }),
            value: i64::from(grundy),
            value_kind: ValueKind::Grundy,
            moves,
            nodes: 0,
            extra: Map::from_iter([("grundy".to_string(), json!(grundy))]),
        })
    }

    fn facts(game: &Self::Game) -> Map<String, Value> {
        Map::from_iter([("heaps".to_string(), json!(game.position.heaps))])
    }

    /// A row of counters per heap.
    fn drawing(game: &Self::Game, _colour: bool) -> String {
        game.position
            .heaps
            .iter()
            .enumerate()
            .map(|(i, &h)| {
                format!(
                    "heap {}: {:>3} {}",
                    i + 1,
                    h,
                    "|".repeat(h.min(60) as usize)
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Heap sizes such as `3 4 5` (spaces or commas).
pub fn parse_heaps(text: &str) -> Result<Vec<u32>, SetupError> {
    let heaps = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<u32>().map_err(|_| {
                SetupError(format!(
                    "bad heap \"{}\": expected a number of counters",
                    escape_controls(s)
                ))
            })
        })
        .collect::<Result<Vec<u32>, SetupError>>()?;
    if heaps.is_empty() {
        return Err(SetupError("name at least one heap, e.g. `3 4 5`".into()));
    }
    Ok(heaps)
}

/// Nim has no options of its own (the moves every game takes are played apart).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct NimOptions {}

/// Bytes a listed move takes in an answer (the move, its text and its place in the list).
const LISTED_MOVE_BYTES: usize = 64;

/// A game of Nim from heap sizes, refused before its moves are listed when they are
/// more than `limits` allows (a heap of N counters has N moves).
pub fn new_game(heaps: Vec<u32>, limits: &SetupLimits) -> Result<NormalPlay<Nim>, TooLarge> {
    limits.check_moves(heaps.iter().map(|&h| u128::from(h)).sum())?;
    Ok(NormalPlay::new(Nim::new(heaps)))
}

fn start(setup: &Setup, limits: &SetupLimits) -> Result<Box<dyn Match>, SetupError> {
    let mut game = new_game(read_setup(setup)?, limits).map_err(SetupError::from_error)?;
    setup.play_moves(&mut game)?;
    Ok(GameMatch::<NimHost>::boxed(game))
}

/// The heaps of a setup, its options checked (Nim has none but the moves).
fn read_setup(setup: &Setup) -> Result<Vec<u32>, SetupError> {
    let NimOptions {} = setup.typed_options(&DESCRIPTOR.info)?;
    parse_heaps(setup.board)
}

/// The answer of `solve` on any heaps, in the one shape of every game's solve: Bouton's
/// theorem answers at once and lists no move beyond the budget's memory
/// ([`NimHost::analyse`]), so no setup limit is needed (a host's limits are for play,
/// hints and searches, which list every move).
pub fn solve_any_heaps(setup: &Setup, budget: &Budget) -> Result<Solved, SetupError> {
    let mut game = NormalPlay::new(Nim::new(read_setup(setup)?));
    setup.play_moves(&mut game)?;
    Ok(GameMatch::<NimHost>::new(game).solve(budget))
}

/// Nim in the catalog.
pub static DESCRIPTOR: GameDescriptor = GameDescriptor {
    info: GameInfo {
        name: "nim",
        title: "Nim",
        summary: "Take counters from one heap at a time: whoever takes the last counter wins.",
        board_kind: BoardKind::Heaps,
        board_label: "heap sizes",
        default_board: "3 4 5",
        example_boards: &["3 4 5", "1 2 3", "50 53 30 14", "7"],
        options: &[MOVES_OPTION],
        hint_level: Level::Perfect,
        play_level: Level::Perfect,
        solve_budget: SolveBudget {
            seconds: 60,
            nodes: None,
        },
        rules: "<p>Counters lie in heaps. On your turn take one or more counters from a \
                single heap. Whoever takes the last counter wins.</p>\
                <p>Write the heaps in binary and add them without carrying (the nim sum): \
                the player to move loses exactly when the nim sum is 0, and a winning move \
                makes it 0. A move is written <code>HEAP:SIZE</code>, the counters left.</p>",
    },
    start,
    layout: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Notation, Player};
    use crate::impartial::{GrundyTable, nim_sum};
    use crate::solver::{Budget, Solver, brute_force_value, solve};
    use proptest::prelude::*;

    fn small_nim() -> impl Strategy<Value = Nim> {
        prop::collection::vec(0u32..6, 1..4).prop_map(Nim::new)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, rng_seed: proptest::test_runner::RngSeed::Fixed(1), ..ProptestConfig::default() })]

        /// Misère Nim (the last player to move loses), solved by the engine's solver, against
        /// plain minimax and against Bouton's rule: the mover loses when every heap holds at
        /// most one counter and an odd number of heaps hold one, or when some heap holds more
        /// and the nim-sum is 0.
        #[test]
        fn misere_nim_follows_boutons_rule(nim in small_nim()) {
            let game = crate::MiserePlay::new(nim.clone());
            let value = solve(&game, Budget::unlimited()).unwrap().value;
            prop_assert_eq!(value, brute_force_value(&game));
            let sign = Solver::new(Budget::unlimited()).sign(&game).unwrap();
            prop_assert_eq!(sign, value.signum());
            prop_assert_eq!(value, if nim.misere_mover_loses() { -1 } else { 1 }, "{:?}", nim.heaps);
            // The winning moves worked out from the rule are the moves after which the
            // search finds the mover losing.
            let mut searched: Vec<NimMove> = nim
                .moves()
                .into_iter()
                .filter(|m| solve(&crate::MiserePlay::new(nim.after(m)), Budget::unlimited()).unwrap().value < 0)
                .collect();
            let mut ruled = nim.misere_winning_moves();
            searched.sort_by_key(|m| (m.heap, m.to));
            ruled.sort_by_key(|m| (m.heap, m.to));
            prop_assert_eq!(ruled, searched, "{:?}", nim.heaps);
        }

        #[test]
        fn grundy_value_is_the_nim_sum(nim in small_nim()) {
            let mut table = GrundyTable::new();
            prop_assert_eq!(table.grundy(&nim), nim_sum(nim.heaps.iter().copied()));
        }

        #[test]
        fn winning_moves_reach_nim_sum_zero(nim in small_nim()) {
            let mut table = GrundyTable::new();
            let winning = table.winning_moves(&nim);
            let expected: Vec<NimMove> = nim
                .moves()
                .into_iter()
                .filter(|m| nim_sum(nim.after(m).heaps) == 0)
                .collect();
            prop_assert_eq!(winning, expected);
        }

        #[test]
        fn solver_agrees_with_nim_sum_and_brute_force(nim in small_nim()) {
            let game = NormalPlay::new(nim.clone());
            let solution = solve(&game, Budget::unlimited()).unwrap();
            let expected = if nim_sum(nim.heaps.iter().copied()) == 0 { -1 } else { 1 };
            prop_assert_eq!(solution.value, expected);
            prop_assert_eq!(brute_force_value(&game), expected);
            if expected == 1 {
                let mut table = GrundyTable::new();
                let mut best = solution.best_moves.clone();
                let mut winning = table.winning_moves(&nim);
                best.sort_by_key(|m| (m.heap, m.to));
                winning.sort_by_key(|m| (m.heap, m.to));
                prop_assert_eq!(&best, &winning);
                prop_assert_eq!(&winning, &nim.winning_moves(), "Bouton's theorem");
            } else {
                prop_assert!(nim.winning_moves().is_empty());
            }
        }
    }

    #[test]
    fn three_four_five() {
        let nim = Nim::new(vec![3, 4, 5]);
        let mut table = GrundyTable::new();
        assert_eq!(table.grundy(&nim), 2);
        let moves: Vec<String> = table.winning_moves(&nim).iter().map(format_move).collect();
        assert_eq!(moves, vec!["1:1"]);
    }

    #[test]
    fn paper_example_has_three_winning_moves() {
        let nim = Nim::new(vec![50, 53, 30, 14]);
        let mut table = GrundyTable::new();
        assert_eq!(table.grundy(&nim), 23);
        let moves: Vec<String> = table.winning_moves(&nim).iter().map(format_move).collect();
        assert_eq!(moves, vec!["1:37", "2:34", "3:9"]);
        let bouton: Vec<String> = nim.winning_moves().iter().map(format_move).collect();
        assert_eq!(bouton, moves);
    }

    /// The example board of the new-game form, where the generic solver took 10 s: the
    /// solve and the perfect player answer from the theory at once, and the player is
    /// proven to win; from the position it leaves, every move loses.
    #[test]
    fn the_example_board_is_solved_and_played_by_the_theory() {
        use crate::Proven;
        let game = NormalPlay::new(Nim::new(vec![50, 53, 30, 14]));
        let analysis = NimHost::analyse(&game, &Budget::nodes(1)).unwrap();
        assert_eq!(analysis.value, 23);
        let Moves::Known { winning, .. } = &analysis.moves else {
            panic!("the moves are known")
        };
        assert_eq!(winning.len(), 3);
        for seed in 0..4 {
            let mut perfect = NimHost::agent(Level::Perfect, seed);
            let mv = perfect.choose(&game, &Budget::nodes(1)).unwrap();
            assert!(winning.contains(&mv), "{mv:?}");
            assert_eq!(perfect.proven(), Some(Proven::Win));
            let mut after = game.clone();
            after.play(&mv);
            assert!(perfect.choose(&after, &Budget::nodes(1)).is_some());
            assert_eq!(perfect.proven(), Some(Proven::Loss));
        }
    }

    #[test]
    fn notation_reads_back_and_refuses_bad_moves() {
        let mut game = NormalPlay::new(Nim::new(vec![3, 4, 5]));
        let mv = game.parse_move("2:1").unwrap();
        assert_eq!(game.format_move(&mv), "2:1");
        for bad in ["", "2", "x:1", "0:1", "4:0", "2:4", "2:9", "1:-1"] {
            assert!(game.parse_move(bad).is_err(), "{bad}");
        }
        game.play_text("1:0").unwrap();
        assert_eq!(game.to_move(), Player::O);
    }
}
