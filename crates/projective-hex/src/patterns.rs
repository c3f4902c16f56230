//! Move patterns learnt from self-play: the ring of a cell's neighbours as the player to
//! move sees it (empty, own stone, opponent's stone, the opponent's last stone), made
//! canonical under rotation and reflection, with how often a move of each pattern was
//! available and how often it was played in seeded self-play games with iteration
//! budgets. The search can then rate an untried move by its pattern's play rate
//! ([`Knowledge::patterns`](crate::search::Knowledge::patterns), a prior).

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use crosscap_engine::{Agent, Budget, Cancel, Game, Level, Player, Rng};
use rayon::prelude::*;
use serde::Serialize;

use crate::rules::{Move, Opening, ProjectiveHex};
use crate::search::focused_moves;

/// The most neighbours a pattern holds (two bits each in a `u64`).
pub const MAX_DEGREE: usize = 32;

/// What a neighbour holds, as the player to move sees it, in the order that makes the
/// canonical form the lexicographically least.
const SYMBOLS: [char; 4] = ['.', 'x', 'o', '*'];
const EMPTY: u8 = 0;
const OWN: u8 = 1;
const THEIRS: u8 = 2;
/// The opponent's stone just played: answers to it are a pattern of their own.
const THEIRS_LAST: u8 = 3;

/// A cell's ring of neighbours in canonical form: the least of its rotations and
/// reflections, read as a number with the first neighbour most significant. Shown as
/// text, one symbol a neighbour: `.` empty, `x` the mover's stone, `o` the opponent's,
/// `*` the opponent's stone just played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pattern {
    degree: u8,
    ring: u64,
}

impl Pattern {
    /// The canonical pattern of a ring of symbols (`None` beyond [`MAX_DEGREE`]).
    fn canonical(ring: &[u8]) -> Option<Pattern> {
        let degree = ring.len();
        if degree > MAX_DEGREE {
            return None;
        }
        let read = |at: &dyn Fn(usize) -> usize| {
            (0..degree).fold(0u64, |code, i| code << 2 | u64::from(ring[at(i)]))
        };
        let least = (0..degree.max(1))
            .flat_map(|start| {
                [
                    read(&|i| (start + i) % degree),
                    read(&|i| (start + degree - i) % degree),
                ]
            })
            .min()
            .unwrap_or(0);
        Some(Pattern {
            degree: degree as u8,
            ring: least,
        })
    }

    /// The pattern of `cell` for the player to move in `game` (`None` for a cell with
    /// more than [`MAX_DEGREE`] sides).
    pub fn of(game: &ProjectiveHex, cell: usize) -> Option<Pattern> {
        let mover = game.to_move();
        let last = game.last_cell();
        let ring: Vec<u8> = game
            .geometry()
            .sides(cell)
            .map(|(n, _)| match game.stone(n) {
                None => EMPTY,
                Some(p) if p == mover => OWN,
                Some(_) if last == Some(n) => THEIRS_LAST,
                Some(_) => THEIRS,
            })
            .collect();
        Pattern::canonical(&ring)
    }

    /// How many neighbours the cell has.
    pub fn degree(self) -> usize {
        usize::from(self.degree)
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let degree = self.degree();
        let text: String = (0..degree)
            .map(|i| SYMBOLS[(self.ring >> (2 * (degree - 1 - i)) & 3) as usize])
            .collect();
        f.write_str(&text)
    }
}

impl Serialize for Pattern {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl FromStr for Pattern {
    type Err = String;

    /// A pattern's text, which must be in canonical form (so that a file lists each
    /// class once, under one name).
    fn from_str(text: &str) -> Result<Pattern, String> {
        let ring = text
            .chars()
            .map(|c| {
                SYMBOLS
                    .iter()
                    .position(|&s| s == c)
                    .map(|i| i as u8)
                    .ok_or_else(|| format!("{c:?} is not one of . x o *"))
            })
            .collect::<Result<Vec<u8>, String>>()?;
        if ring.is_empty() {
            return Err("an empty pattern".into());
        }
        let pattern =
            Pattern::canonical(&ring).ok_or(format!("more than {MAX_DEGREE} neighbours"))?;
        if pattern.to_string() != text {
            return Err(format!("{text} is not in canonical form (it is {pattern})"));
        }
        Ok(pattern)
    }
}

/// How often moves of one pattern were available, played, and played by the game's
/// winner.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PatternCount {
    pub available: u64,
    pub played: u64,
    pub wins: u64,
}

/// Counts per pattern, in canonical order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatternTable {
    pub counts: BTreeMap<Pattern, PatternCount>,
}

/// A line of a pattern file that is not a pattern and its counts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("pattern file, line {line}: {reason}")]
pub struct PatternFileError {
    pub line: usize,
    pub reason: String,
}

/// Smoothing of the play rates: a pattern seen this many times less than another counts
/// as that much closer to the average.
const SMOOTHING: f64 = 20.0;

impl PatternTable {
    /// Moves available over all patterns, and moves played.
    pub fn totals(&self) -> (u64, u64) {
        self.counts
            .values()
            .fold((0, 0), |(a, p), c| (a + c.available, p + c.played))
    }

    fn add(&mut self, other: &PatternTable) {
        for (pattern, count) in &other.counts {
            let entry = self.counts.entry(*pattern).or_default();
            entry.available += count.available;
            entry.played += count.played;
            entry.wins += count.wins;
        }
    }

    /// The file: `header` as comment lines, then one line per pattern, `pattern available
    /// played wins`.
    pub fn to_text(&self, header: &str) -> String {
        let mut text: String = header.lines().map(|l| format!("# {l}\n")).collect();
        text += "# pattern available played wins\n";
        for (pattern, c) in &self.counts {
            text += &format!("{pattern} {} {} {}\n", c.available, c.played, c.wins);
        }
        text
    }

    /// Reads [`PatternTable::to_text`]'s format (`#` lines and blank lines skipped).
    pub fn parse(text: &str) -> Result<PatternTable, PatternFileError> {
        let mut table = PatternTable::default();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let error = |reason: String| PatternFileError {
                line: i + 1,
                reason,
            };
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [pattern, available, played, wins] = fields[..] else {
                return Err(error(format!(
                    "expected `pattern available played wins`, got {line:?}"
                )));
            };
            let pattern: Pattern = pattern.parse().map_err(error)?;
            let number = |field: &str| {
                field
                    .parse::<u64>()
                    .map_err(|_| error(format!("{field:?} is not a count")))
            };
            let count = PatternCount {
                available: number(available)?,
                played: number(played)?,
                wins: number(wins)?,
            };
            if count.played > count.available || count.wins > count.played {
                return Err(error(
                    "a pattern is played at most as often as it is available, and won at \
                     most as often as it is played"
                        .into(),
                ));
            }
            if table.counts.insert(pattern, count).is_some() {
                return Err(error(format!("{pattern} is listed twice")));
            }
        }
        Ok(table)
    }

    /// Each pattern's prior for the search: `γ / (γ + 1)`, where γ is its play rate over
    /// the average play rate (the Bradley–Terry chance that a move of it is preferred to
    /// an average move; an unseen pattern is average, 0.5). Rates are smoothed towards the
    /// average by `SMOOTHING` virtual samples.
    pub fn priors(&self) -> PatternPriors {
        let (available, played) = self.totals();
        let mean = if available == 0 {
            0.0
        } else {
            played as f64 / available as f64
        };
        let priors = self
            .counts
            .iter()
            .filter(|_| mean > 0.0)
            .map(|(pattern, c)| {
                let rate = (c.played as f64 + SMOOTHING * mean) / (c.available as f64 + SMOOTHING);
                let gamma = rate / mean;
                (*pattern, gamma / (gamma + 1.0))
            })
            .collect();
        PatternPriors(priors)
    }
}

/// Each pattern's prior in `[0, 1]` ([`PatternTable::priors`]).
#[derive(Clone, Debug, Default)]
pub struct PatternPriors(HashMap<Pattern, f64>);

impl PatternPriors {
    /// The prior of `cell` for the player to move: its pattern's, 0.5 for a pattern the
    /// table does not know.
    pub fn of(&self, game: &ProjectiveHex, cell: usize) -> f64 {
        Pattern::of(game, cell)
            .and_then(|p| self.0.get(&p).copied())
            .unwrap_or(0.5)
    }
}

/// The patterns of `crate::search`'s players, learnt on taylor:5 (see the file's header).
pub const EMBEDDED_PATTERNS: &str = include_str!("../data/patterns-taylor5.txt");

/// The priors of [`EMBEDDED_PATTERNS`] (none, all moves average, if the file were bad; a
/// test checks that it parses).
pub fn embedded_priors() -> &'static PatternPriors {
    static PRIORS: LazyLock<PatternPriors> = LazyLock::new(|| {
        PatternTable::parse(EMBEDDED_PATTERNS)
            .map(|table| table.priors())
            .unwrap_or_default()
    });
    &PRIORS
}

/// Whether `level` has a budget that does not depend on time, so that seeded self-play
/// with it is reproducible.
pub fn is_reproducible(level: Level) -> bool {
    matches!(level, Level::Random | Level::FlatMc(_)) || level.mcts_iterations().is_some()
}

/// What [`learn`] counted: the patterns of the games that were played to the end.
#[derive(Debug)]
pub struct Learnt {
    pub table: PatternTable,
    /// Games played to the end: all that were asked for unless `stop` was raised.
    pub games: u64,
}

/// Counts the patterns of `games` seeded self-play games on `board` (standard opening),
/// both sides played by `player(seed)`: in each position where the search would choose
/// (not over, more than one of the focused game's moves), every such move counts as
/// available and the one played, when it is one of them, as played, and as won when its
/// player won. The games run in parallel; the counts do not depend on the order. Once
/// `stop` is raised no game starts and a game under way is dropped, so every game counted
/// is the one its seed plays; `on_game_done` is called after each counted game.
pub fn learn(
    board: &str,
    games: u64,
    seed: u64,
    player: &(dyn Fn(u64) -> Box<dyn Agent<ProjectiveHex>> + Sync),
    stop: &Cancel,
    on_game_done: &(dyn Fn() + Sync),
) -> Result<Learnt, crate::HexError> {
    let start = ProjectiveHex::on_board(board, Opening::Standard)?;
    let tables: Vec<PatternTable> = (0..games)
        .into_par_iter()
        .filter_map(|g| {
            if stop.is_cancelled() {
                return None;
            }
            let mut seeds = Rng::new(seed.wrapping_add(g));
            let (x_seed, o_seed) = (seeds.next_u64(), seeds.next_u64());
            let table = self_play(start.clone(), player(x_seed), player(o_seed), stop)?;
            on_game_done();
            Some(table)
        })
        .collect();
    let mut table = PatternTable::default();
    for one in &tables {
        table.add(one);
    }
    Ok(Learnt {
        table,
        games: tables.len() as u64,
    })
}

/// One game's counts (see [`learn`]).
fn self_play(
    mut game: ProjectiveHex,
    mut x: Box<dyn Agent<ProjectiveHex>>,
    mut o: Box<dyn Agent<ProjectiveHex>>,
    stop: &Cancel,
) -> Option<PatternTable> {
    let budget = Budget::unlimited().with_cancel(stop.clone());
    let mut table = PatternTable::default();
    let mut played: Vec<(Pattern, Player)> = Vec::new();
    while game.outcome().is_none() {
        let mover = game.to_move();
        let agent = if mover == Player::X { &mut x } else { &mut o };
        let mv = agent.choose(&game, &budget)?;
        if stop.is_cancelled() {
            return None;
        }
        let choices = focused_moves(&game, false);
        if choices.len() > 1
            && !game.in_opening()
            && choices.contains(&mv)
            && let Move::Cell(chosen) = mv
        {
            for choice in &choices {
                if let Move::Cell(cell) = *choice
                    && let Some(pattern) = Pattern::of(&game, cell as usize)
                {
                    table.counts.entry(pattern).or_default().available += 1;
                }
            }
            if let Some(pattern) = Pattern::of(&game, chosen as usize) {
                table.counts.entry(pattern).or_default().played += 1;
                played.push((pattern, mover));
            }
        }
        game.play(&mv);
    }
    let winner = game.outcome().and_then(|o| o.winner);
    for (pattern, player) in played {
        if winner == Some(player) {
            table.counts.entry(pattern).or_default().wins += 1;
        }
    }
    Some(table)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::{prop_assert_eq, proptest};

    use super::*;
    use crate::search::pattern_learner;

    /// Every rotation and reflection of a ring gives one pattern, and rings that are
    /// not such images of each other give different ones.
    #[test]
    fn rotations_and_reflections_of_a_ring_are_one_class() {
        let ring = [OWN, EMPTY, THEIRS, THEIRS_LAST, EMPTY, EMPTY];
        let class = Pattern::canonical(&ring).unwrap();
        for turn in 0..ring.len() {
            let mut rotated = ring;
            rotated.rotate_left(turn);
            assert_eq!(Pattern::canonical(&rotated), Some(class));
            rotated.reverse();
            assert_eq!(Pattern::canonical(&rotated), Some(class));
        }
        // The own stone and the opponent's exchanged is another class.
        let other = [THEIRS, EMPTY, OWN, THEIRS_LAST, EMPTY, EMPTY];
        assert_ne!(Pattern::canonical(&other), Some(class));
        assert_eq!(class.to_string(), "..x.o*");
        assert_eq!("..x.o*".parse(), Ok(class));
    }

    /// Brute force: the classes of all rings of six symbols are the orbits of the
    /// dihedral group of order 12, 430 of them (the bracelets of length 6 in 4 colours).
    #[test]
    fn six_cell_rings_fall_into_the_430_bracelets() {
        let mut classes = std::collections::HashSet::new();
        for code in 0..4u32.pow(6) {
            let ring: Vec<u8> = (0..6).map(|i| (code >> (2 * i) & 3) as u8).collect();
            let class = Pattern::canonical(&ring).unwrap();
            assert_eq!(class.to_string().parse(), Ok(class), "round trip");
            classes.insert(class);
        }
        assert_eq!(classes.len(), 430);
    }

    fn tiny_learn(seed: u64) -> PatternTable {
        learn(
            "taylor:3",
            3,
            seed,
            &|s| pattern_learner(Level::Mcts(30), s),
            &Cancel::new(),
            &|| {},
        )
        .unwrap()
        .table
    }

    /// A raised stop counts no game, so a cut-short run never mixes in a half game.
    #[test]
    fn a_raised_stop_counts_no_game() {
        let stop = Cancel::new();
        stop.cancel();
        let learnt = learn(
            "taylor:3",
            3,
            1,
            &|s| pattern_learner(Level::Mcts(30), s),
            &stop,
            &|| {},
        )
        .unwrap();
        assert_eq!(learnt.games, 0);
        assert_eq!(learnt.table, PatternTable::default());
    }

    /// On a small board the counts add up: each position where the search chooses adds
    /// its focused moves to `available` and one to `played`; the same seed gives the same
    /// table, and the written file reads back as it.
    #[test]
    fn self_play_counts_add_up_and_repeat_with_the_seed() {
        let table = tiny_learn(7);
        let (available, played) = table.totals();
        assert!(played > 0 && played <= available);
        let mut positions = 0;
        let mut moves_available = 0;
        for g in 0..3 {
            let mut seeds = Rng::new(7u64.wrapping_add(g));
            let (x_seed, o_seed) = (seeds.next_u64(), seeds.next_u64());
            let mut players = [
                pattern_learner(Level::Mcts(30), x_seed),
                pattern_learner(Level::Mcts(30), o_seed),
            ];
            let mut game = ProjectiveHex::on_board("taylor:3", Opening::Standard).unwrap();
            while game.outcome().is_none() {
                let mover = usize::from(game.to_move() != Player::X);
                let mv = players[mover].choose(&game, &Budget::unlimited()).unwrap();
                let choices = focused_moves(&game, false);
                if choices.len() > 1 && choices.contains(&mv) {
                    positions += 1;
                    moves_available += choices.len() as u64;
                }
                game.play(&mv);
            }
        }
        assert_eq!((available, played), (moves_available, positions));
        assert_eq!(tiny_learn(7), table);
        assert_ne!(tiny_learn(8), table, "another seed, other games");
        assert_eq!(PatternTable::parse(&table.to_text("test")), Ok(table));
    }

    #[test]
    fn bad_files_are_refused_with_their_line() {
        let bad = [
            (".....x 10 2\n", 1),
            ("# c\n\n.....x 10 2 1\n.....x 10 2 1\n", 4),
            (".....x 10 20 1\n", 1),
            (".....x 10 2 3\n", 1),
            ("x..... 10 2 1\n", 1),
            (".....q 10 2 1\n", 1),
            (".....x ten 2 1\n", 1),
        ];
        for (text, line) in bad {
            let error = PatternTable::parse(text).unwrap_err();
            assert_eq!(error.line, line, "{text:?}: {error}");
        }
    }

    /// The players' file parses, is not empty, and its priors rank the pattern played
    /// most often above the one played least.
    #[test]
    fn the_embedded_patterns_parse_and_rank_moves() {
        let table = PatternTable::parse(EMBEDDED_PATTERNS).unwrap();
        let (available, played) = table.totals();
        assert!(played > 1000 && available > played);
        let priors = table.priors();
        let rate = |c: &PatternCount| c.played as f64 / c.available as f64;
        let common = table.counts.iter().filter(|(_, c)| c.available >= 100);
        let best = common
            .clone()
            .max_by(|a, b| rate(a.1).total_cmp(&rate(b.1)));
        let worst = common.min_by(|a, b| rate(a.1).total_cmp(&rate(b.1)));
        let (best, worst) = (best.unwrap().0, worst.unwrap().0);
        assert!(priors.0[best] > 0.5 && priors.0[worst] < 0.5);
    }

    proptest! {
        #[test]
        fn any_text_parses_or_is_refused(text in "\\PC*") {
            let _ = PatternTable::parse(&text);
        }

        #[test]
        fn lines_of_pattern_symbols_parse_or_are_refused(
            text in "([.xo*]{1,8} [0-9]{1,3} [0-9]{1,3} [0-9]{1,3}\n){0,5}"
        ) {
            if let Ok(table) = PatternTable::parse(&text) {
                prop_assert_eq!(PatternTable::parse(&table.to_text("again")), Ok(table));
            }
        }
    }
}
