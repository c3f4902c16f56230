//! The Euler Getter check: every node's position recomputed from its claim by the moves
//! along the way, every move's legality and turn, every endgame settled by a search of
//! every line of play and each full board scored by a count of its own (`V - E + F` of
//! each player's closure, from the board the topology crate re-derives).

use std::fmt;

use crosscap_engine::Player;
use crosscap_topology::Board;
use serde::Serialize;

use crate::check::{Rules, Strategy, Verified, distinct_empty, walk};
use crate::endgame::{self, Ending, slots};
use crate::{Certificate, Invalid, MAX_ENDGAME, MAX_PAIRS, Node, ScoreClaim, Start, to_move};

/// What a strategy is to reach: `player`'s characteristic at least `at_least` above the
/// other's at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Goal {
    player: Player,
    at_least: i32,
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (by at least {})", self.player, self.at_least)
    }
}

/// An Euler Getter claim in words: from the start, `player`'s strategy ends every game with
/// `player`'s Euler characteristic at least `at_least` above the other's.
#[derive(Clone, Debug, Serialize)]
pub struct ScoreSummary {
    #[serde(flatten)]
    pub start: Start,
    pub player: Player,
    pub at_least: i32,
}

impl fmt::Display for ScoreSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let player = self.player;
        write!(
            f,
            "{player} ends with chi at least {} above {}'s whatever {} does, from {}",
            self.at_least,
            player.opponent(),
            player.opponent(),
            self.start
        )
    }
}

/// The exact result with perfect play from a start, proved by two claims that meet: the
/// winner (none: a tie) and by how much its characteristic ends above the loser's.
#[derive(Clone, Debug, Serialize)]
pub struct ResultSummary {
    #[serde(flatten)]
    pub start: Start,
    pub winner: Option<Player>,
    pub margin: i32,
}

impl fmt::Display for ResultSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(winner) => write!(f, "{winner} wins by {}", self.margin)?,
            None => f.write_str("a tie")?,
        }
        write!(f, " with perfect play from {}", self.start)
    }
}

/// The claims of an Euler Getter certificate in words, and the exact results of the pairs
/// of claims from one position, one for each player, that meet (`a` and `-a`).
pub(crate) fn scores(certificate: &Certificate) -> (Vec<ScoreSummary>, Vec<ResultSummary>) {
    let claims = &certificate.scores;
    let summaries = claims
        .iter()
        .map(|claim| ScoreSummary {
            start: certificate.start(&claim.stones),
            player: claim.player,
            at_least: claim.at_least,
        })
        .collect();
    let mut results = Vec::new();
    for x in claims.iter().filter(|claim| claim.player == Player::X) {
        let meets = |o: &ScoreClaim| {
            o.player == Player::O && o.at_least == -x.at_least && o.stones == x.stones
        };
        if claims.iter().any(meets) {
            let margin = x.at_least;
            results.push(ResultSummary {
                start: certificate.start(&x.stones),
                winner: Player::X.winner_by(margin),
                margin: margin.abs(),
            });
        }
    }
    (summaries, results)
}

/// Checks an Euler Getter certificate (see the crate documentation), its endgames on
/// `threads` threads; the first thing found wrong is the answer otherwise, as in
/// [`crate::verify_on`].
pub(crate) fn verify(certificate: &Certificate, threads: usize) -> Result<Verified, Invalid> {
    let board = &certificate.board;
    let claims: Vec<_> = (certificate.scores.iter())
        .map(|claim| Strategy {
            stones: &claim.stones,
            goal: Goal {
                player: claim.player,
                at_least: claim.at_least,
            },
            root: claim.root,
        })
        .collect();
    let rules = ScoreRules {
        complex: Complex::of(board),
    };
    walk(certificate, &rules, &claims, threads)?;
    let (scores, results) = scores(certificate);
    Ok(Verified {
        game: certificate.kind.name(),
        board: board.spec().to_string(),
        cells: board.cell_count(),
        claims: Vec::new(),
        scores,
        results,
        nodes: certificate.nodes.len(),
    })
}

/// Euler Getter's rules: the game ends only on a full board; its leaves are endgames and
/// pairings.
struct ScoreRules {
    complex: Complex,
}

impl Rules for ScoreRules {
    type Goal = Goal;

    fn player(goal: Goal) -> Player {
        goal.player
    }

    fn refuse_start(&self, _: &[Option<Player>]) -> Option<String> {
        None
    }

    fn refuse_symmetry(&self, map: &[u32]) -> Option<String> {
        (!self.complex.kept_by(map)).then(|| {
            "no symmetry of the board: it takes the cells around a vertex, an edge or a cell \
             to cells around none"
                .to_string()
        })
    }

    fn closes(&self, _: &[Option<Player>], _: usize) -> Option<bool> {
        None
    }

    fn leaf(
        &self,
        certificate: &Certificate,
        node: Node,
        stones: &mut [Option<Player>],
        goal: Goal,
    ) -> Result<(), String> {
        let (first, count) = match node {
            Node::Endgame => return self.endgame(stones, goal),
            Node::Pairs { first, count } => (first, count),
            _ => {
                return Err(
                    "a held loop or a carrier is no leaf of an euler-getter certificate"
                        .to_string(),
                );
            }
        };
        let cells = certificate.list(first, count);
        pairing(&certificate.board, &self.complex, stones, goal, cells)
    }
}

impl ScoreRules {
    /// Checks an endgame leaf by the search of every line of play.
    fn endgame(&self, stones: &mut [Option<Player>], goal: Goal) -> Result<(), String> {
        let empty = stones.iter().filter(|stone| stone.is_none()).count();
        if empty > MAX_ENDGAME {
            return Err(format!(
                "{empty} empty cells: an endgame has at most {MAX_ENDGAME}"
            ));
        }
        if !endgame_holds(&self.complex, stones, goal) {
            let player = goal.player;
            return Err(format!(
                "{} can hold {player} below {} from here: not at least {}",
                player.opponent(),
                goal.at_least,
                goal.at_least
            ));
        }
        Ok(())
    }
}

/// Checks a pairing leaf: the other player is to move, `cells` are distinct empty cells,
/// pairs side by side then the single cell when the empty cells are odd, covering every
/// empty cell, at most [`MAX_PAIRS`] pairs; and `goal.player`, holding one cell of each
/// pair and the other player the rest, meets the goal on every one of the 2^pairs full
/// boards, each scored by [`Scored::margin`]. Why that proves the goal: `goal.player`
/// answers each move in the partner cell (a move on the single cell anywhere, whose
/// partner becomes the single cell), so every game ends with each pair split one and one.
fn pairing(
    board: &Board,
    complex: &Complex,
    stones: &[Option<Player>],
    goal: Goal,
    cells: &[u32],
) -> Result<(), String> {
    let player = goal.player;
    if to_move(stones) == player {
        return Err(format!(
            "a pairing leaf where {player}, its owner, is to move"
        ));
    }
    let empty = stones.iter().filter(|stone| stone.is_none()).count();
    if empty > 2 * MAX_PAIRS + 1 {
        return Err(format!(
            "a pairing leaf of {empty} empty cells: at most {MAX_PAIRS} pairs"
        ));
    }
    if cells.len() != empty {
        return Err(format!(
            "a pairing leaf names {} cells of {empty} empty",
            cells.len()
        ));
    }
    distinct_empty(board, stones, cells, "the pairing")?;
    let pairs: Vec<&[u32]> = cells.chunks_exact(2).collect();
    let scored = Scored::new(complex, stones, goal);
    match scored.first_split_below(&pairs, i64::from(goal.at_least)) {
        Some((split, margin)) => Err(format!(
            "{player} ends {margin} above {} with the split {split:#b} of the pairs: not at \
             least {}",
            player.opponent(),
            goal.at_least
        )),
        None => Ok(()),
    }
}

/// Whether `goal.player` ends at least `goal.at_least` above the other from `stones`, an
/// endgame of at most [`MAX_ENDGAME`] empty cells, whatever the other does: the search of
/// every line of play ([`endgame::holds`]) down to full boards scored by
/// [`Scored::margin`].
fn endgame_holds(complex: &Complex, stones: &mut [Option<Player>], goal: Goal) -> bool {
    let mover = to_move(stones);
    let scored = Scored::new(complex, stones, goal);
    endgame::holds(&scored, stones, goal.player, mover)
}

/// Euler Getter's endgames end only on full boards, which the complex scores. Only the
/// endgame's own cells (its slots) change from one full board to the next, so the count is
/// rewritten once, when the endgame begins, as a sum over sets of slots (scoring the full
/// boards took most of the check's time). A simplex of sign `s` counts `s` for the player
/// when the player's cells touch it and the other's do not, `-s` the other way round
/// ([`Complex::margin`]). With every slot filled, and writing `H` for the slots the player
/// holds and `S` for the simplex's slots:
/// - touched by a stone of each player when the endgame began: nothing, whatever `H`;
/// - touched by the player's stones only: `s` when `S` is inside `H`;
/// - by the other's stones only: `-s` when `S` misses `H`;
/// - by slots only: both of these.
///
/// The margin is then `base`, plus the weight of each slot the player holds, plus the count
/// of each set of `all_held` the player holds whole and of each set of `none_held` it holds
/// nothing of. A set of one slot becomes that slot's weight (holding none of it: the base
/// less the weight), a set of none the base.
struct Scored {
    goal: Goal,
    /// The endgame's empty cells; slot `i` is bit `i` of the sets.
    slots: Vec<usize>,
    base: i64,
    /// By slot.
    weights: Vec<i64>,
    /// Sets of two or more slots that count when the player holds all of them.
    all_held: Terms,
    /// Sets of two or more slots that count when the player holds none of them.
    none_held: Terms,
}

/// Sets of slots, each with its count, one after another (the check's innermost loop).
#[derive(Default)]
struct Terms {
    sets: Vec<u32>,
    counts: Vec<i32>,
}

impl Terms {
    /// Adds `set` with `count`, the sign of one simplex.
    fn push(&mut self, set: u32, count: i64) {
        self.sets.push(set);
        self.counts.push(count as i32);
    }

    /// The sum of the counts of the sets that miss every slot of `mask`.
    fn missing(&self, mask: u32) -> i64 {
        let counts = self.sets.iter().zip(&self.counts);
        let sum: i32 = counts
            .map(|(&set, &count)| if set & mask == 0 { count } else { 0 })
            .sum();
        i64::from(sum)
    }
}

impl Scored {
    /// The scoring of the endgame from `stones`, for `goal`.
    fn new(complex: &Complex, stones: &[Option<Player>], goal: Goal) -> Scored {
        let slots: Vec<usize> = (0..stones.len()).filter(|&c| stones[c].is_none()).collect();
        let mut slot_of = vec![0; stones.len()];
        for (slot, &cell) in slots.iter().enumerate() {
            slot_of[cell] = slot;
        }
        let mut scored = Scored {
            goal,
            base: 0,
            weights: vec![0; slots.len()],
            all_held: Terms::default(),
            none_held: Terms::default(),
            slots,
        };
        for (cells, sign) in complex.simplices() {
            let (mut mine, mut theirs, mut set) = (false, false, 0u32);
            for &cell in cells {
                match stones[cell] {
                    Some(owner) if owner == goal.player => mine = true,
                    Some(_) => theirs = true,
                    None => set |= 1 << slot_of[cell],
                }
            }
            if !theirs {
                scored.add(true, set, sign);
            }
            if !mine {
                scored.add(false, set, -sign);
            }
        }
        scored
    }

    /// Adds `count` when the player holds all of `set` (`all`), else when none of it.
    fn add(&mut self, all: bool, set: u32, count: i64) {
        let slot = set.trailing_zeros() as usize;
        match (set.count_ones(), all) {
            (0, _) => self.base += count,
            (1, true) => self.weights[slot] += count,
            (1, false) => {
                self.base += count;
                self.weights[slot] -= count;
            }
            (_, true) => self.all_held.push(set, count),
            (_, false) => self.none_held.push(set, count),
        }
    }

    /// The player's Euler characteristic minus the other's once the slots are filled as
    /// in `stones` (an empty slot counted as the other's), as [`Complex::margin`] counts
    /// it.
    #[cfg(test)]
    fn margin(&self, stones: &[Option<Player>]) -> i64 {
        let player = Some(self.goal.player);
        let held = (self.slots.iter().enumerate())
            .filter(|&(_, &cell)| stones[cell] == player)
            .fold(0u32, |held, (slot, _)| held | 1 << slot);
        self.margin_of(held)
    }

    /// The margin once the player holds the slots of `held` and the other every other
    /// slot.
    fn margin_of(&self, held: u32) -> i64 {
        let weights = slots(held).map(|slot| self.weights[slot]);
        self.base
            + weights.sum::<i64>()
            + self.all_held.missing(!held)
            + self.none_held.missing(held)
    }

    /// The first split of `pairs` (cells of distinct slots; bit `i` set where the player
    /// holds the second cell of pair `i`, every other slot the other's) whose margin
    /// ([`Scored::margin`]) is below `at_least`, and that margin; `None` when there is none.
    /// The splits are visited in Gray code order, each one pair away from the one before.
    fn first_split_below(&self, pairs: &[&[u32]], at_least: i64) -> Option<(u32, i64)> {
        let slot_of = |cell: u32| (self.slots.iter()).position(|&slot| slot == cell as usize);
        let pair_slots: Vec<[usize; 2]> = (pairs.iter())
            .map(|pair| [slot_of(pair[0]), slot_of(pair[1])])
            .map(|[a, b]| {
                [
                    a.expect("a pair's cell is empty"),
                    b.expect("so is its partner"),
                ]
            })
            .collect();
        let mut held = pair_slots.iter().fold(0u32, |held, [a, _]| held | 1 << a);
        let mut split = 0u32;
        for step in 0..1u32 << pairs.len() {
            if step > 0 {
                let pair = step.trailing_zeros() as usize;
                split ^= 1 << pair;
                let [a, b] = pair_slots[pair];
                held ^= 1 << a | 1 << b;
            }
            let margin = self.margin_of(held);
            if margin < at_least {
                return Some((split, margin));
            }
        }
        None
    }
}

impl Ending for Scored {
    const ENDS_EARLY: bool = false;

    fn after_move(&self, _: &[Option<Player>], _: usize, _: Player) -> Option<bool> {
        None
    }

    fn at_full(&self, held: u32) -> bool {
        self.margin_of(held) >= i64::from(self.goal.at_least)
    }
}

/// The board's complex as the scoring reads it: the cells around each vertex, around each
/// edge, and each cell alone, one after another, each with its sign in `V - E + F`.
struct Complex {
    cells: Vec<usize>,
    /// Where each one's cells end in `cells`, and its sign.
    simplices: Vec<(usize, i64)>,
}

impl Complex {
    /// From the board the topology crate re-derives from the spec.
    fn of(board: &Board) -> Complex {
        let mut complex = Complex {
            cells: Vec::new(),
            simplices: Vec::new(),
        };
        let mut add = |cells: &[usize], sign: i64| {
            complex.cells.extend_from_slice(cells);
            complex.simplices.push((complex.cells.len(), sign));
        };
        for vertex in 0..board.vertex_count() {
            add(board.vertex_cells(vertex), 1);
        }
        for edge in 0..board.edge_count() {
            add(&board.edge_cells(edge), -1);
        }
        for cell in 0..board.cell_count() {
            add(&[cell], 1);
        }
        complex
    }

    /// Whether `map` (the image of each cell, a permutation) takes the simplices onto the
    /// simplices, each with its sign and as often: then every full board has the margin of
    /// its image, as the count reads nothing else.
    fn kept_by(&self, map: &[u32]) -> bool {
        let sorted = |cells: Vec<usize>, sign: i64| {
            let mut cells = cells;
            cells.sort_unstable();
            (cells, sign)
        };
        let mut simplices: Vec<_> = (self.simplices())
            .map(|(cells, sign)| sorted(cells.to_vec(), sign))
            .collect();
        let mut images: Vec<_> = (self.simplices())
            .map(|(cells, sign)| sorted(cells.iter().map(|&c| map[c] as usize).collect(), sign))
            .collect();
        simplices.sort_unstable();
        images.sort_unstable();
        simplices == images
    }

    /// Each simplex: the cells around it, and its sign.
    fn simplices(&self) -> impl Iterator<Item = (&[usize], i64)> {
        let starts = std::iter::once(0).chain(self.simplices.iter().map(|&(end, _)| end));
        (starts.zip(&self.simplices)).map(|(start, &(end, sign))| (&self.cells[start..end], sign))
    }

    /// `player`'s Euler characteristic minus the other's on a full board, each `V - E + F`
    /// of the closure of the player's cells: its cells, and every vertex and edge a cell of
    /// its touches. A vertex, edge or cell counts its sign for `player` when only
    /// `player`'s cells touch it, minus it when only the other's do, nothing when both do
    /// (it is then in both closures). The count in full, which the tests hold
    /// [`Scored::margin`] to.
    #[cfg(test)]
    fn margin(&self, stones: &[Option<Player>], player: Player) -> i64 {
        let mut margin = 0;
        for (cells, sign) in self.simplices() {
            let mine = cells.iter().any(|&cell| stones[cell] == Some(player));
            let theirs = cells.iter().any(|&cell| stones[cell] != Some(player));
            margin += sign * (i64::from(mine) - i64::from(theirs));
        }
        margin
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use crosscap_engine::Rng;

    use super::*;
    use crate::{CertificateError, Kind};

    type Memo = HashMap<Vec<Option<Player>>, i64>;

    /// X's margin `chi X - chi O` with perfect play from `stones`, by minimax over every
    /// move (no solver), scored by the checker's own count.
    fn minimax(board: &Board, stones: &mut Vec<Option<Player>>, memo: &mut Memo) -> i64 {
        if let Some(&known) = memo.get(stones) {
            return known;
        }
        let mover = to_move(stones);
        let empty: Vec<usize> = (0..stones.len()).filter(|&c| stones[c].is_none()).collect();
        let value = if empty.is_empty() {
            Complex::of(board).margin(stones, Player::X)
        } else {
            let values = empty.iter().map(|&cell| {
                stones[cell] = Some(mover);
                let value = minimax(board, stones, memo);
                stones[cell] = None;
                value
            });
            let values: Vec<i64> = values.collect();
            match mover {
                Player::X => values.into_iter().max().unwrap(),
                Player::O => values.into_iter().min().unwrap(),
            }
        };
        memo.insert(stones.clone(), value);
        value
    }

    /// Writes `player`'s minimax strategy from `stones` (keeping X's margin at least
    /// `margin` for X, at most it for O) into `certificate`, with endgames of at most
    /// `leaf` empty cells as leaves.
    fn strategy(
        certificate: &mut Certificate,
        stones: &mut Vec<Option<Player>>,
        (player, margin): (Player, i64),
        leaf: usize,
        memo: &mut Memo,
    ) -> u32 {
        let board = certificate.board.clone();
        let empty: Vec<usize> = (0..stones.len()).filter(|&c| stones[c].is_none()).collect();
        if empty.len() <= leaf {
            return certificate.push_endgame();
        }
        if to_move(stones) == player {
            let keeps = |value: i64| match player {
                Player::X => value >= margin,
                Player::O => value <= margin,
            };
            let cell = *empty
                .iter()
                .find(|&&cell| {
                    stones[cell] = Some(player);
                    let value = minimax(&board, stones, memo);
                    stones[cell] = None;
                    keeps(value)
                })
                .unwrap();
            stones[cell] = Some(player);
            let next = strategy(certificate, stones, (player, margin), leaf, memo);
            stones[cell] = None;
            certificate.push_move(cell, Some(next))
        } else {
            let mut targets = Vec::new();
            for &cell in &empty {
                stones[cell] = Some(player.opponent());
                targets.push(strategy(certificate, stones, (player, margin), leaf, memo));
                stones[cell] = None;
            }
            certificate.push_replies(&targets)
        }
    }

    /// Both minimax strategies from the empty `spec`, with their claims, down to endgames
    /// of at most `leaf` empty cells.
    /// `count` stones placed in turn (X first) on random empty cells of `board`.
    fn random_position(board: &Board, count: usize, rng: &mut Rng) -> Vec<Option<Player>> {
        let mut stones = vec![None; board.cell_count()];
        for _ in 0..count {
            let empty: Vec<usize> = (0..stones.len()).filter(|&c| stones[c].is_none()).collect();
            stones[empty[rng.below(empty.len())]] = Some(to_move(&stones));
        }
        stones
    }

    /// The empty cells of `stones` in a random order.
    fn shuffled_empty_cells(stones: &[Option<Player>], rng: &mut Rng) -> Vec<u32> {
        let mut cells: Vec<u32> = (0..stones.len() as u32)
            .filter(|&c| stones[c as usize].is_none())
            .collect();
        for i in (1..cells.len()).rev() {
            cells.swap(i, rng.below(i + 1));
        }
        cells
    }

    fn minimax_certificate(spec: &str, leaf: usize) -> (Certificate, i64) {
        let board = Board::from_spec(spec).unwrap();
        let mut certificate = Certificate::of(Kind::EulerGetter, board.clone());
        let mut stones = vec![None; board.cell_count()];
        let mut memo = Memo::new();
        let margin = minimax(&board, &mut stones, &mut memo);
        for (player, at_least) in [(Player::X, margin), (Player::O, -margin)] {
            let root = strategy(
                &mut certificate,
                &mut stones,
                (player, margin),
                leaf,
                &mut memo,
            );
            certificate.scores.push(ScoreClaim {
                stones: stones.clone(),
                player,
                at_least: at_least as i32,
                root,
            });
        }
        (certificate, margin)
    }

    fn refused(certificate: &Certificate) -> Invalid {
        let mut text = Vec::new();
        certificate.write_text(&mut text).unwrap();
        match Certificate::read(text.as_slice()).map(|read| crate::verify(&read)) {
            Ok(Err(invalid)) | Err(CertificateError::Invalid(invalid)) => invalid,
            other => panic!("accepted or unreadable: {other:?}"),
        }
    }

    #[test]
    fn minimax_strategies_prove_the_minimax_margin_after_a_round_trip() {
        // goldberg:1: X wins by 1 (the engine's solver agrees, in the game crate's tests).
        // Small leaves, then the whole board one endgame leaf the checker searches.
        for leaf in [2, MAX_ENDGAME] {
            let (certificate, margin) = minimax_certificate("goldberg:1", leaf);
            assert_eq!(margin, 1);
            let mut text = Vec::new();
            certificate.write_text(&mut text).unwrap();
            let verified = crate::verify(&Certificate::read(text.as_slice()).unwrap()).unwrap();
            assert_eq!(verified.game, "euler-getter");
            assert_eq!(verified.scores.len(), 2);
            let result = &verified.results[0];
            assert_eq!((result.winner, result.margin), (Some(Player::X), 1));
            assert_eq!(
                result.to_string(),
                "X wins by 1 with perfect play from X - / O - (X to move)"
            );
        }
    }

    #[test]
    fn false_claims_and_damage_are_refused_with_the_node_and_the_reason() {
        let (certificate, _) = minimax_certificate("goldberg:1", 2);
        // A larger margin claimed: some endgame falls short.
        let mut damaged = certificate.clone();
        damaged.scores[0].at_least += 2;
        assert!(refused(&damaged).reason.contains("not at least 3"));
        // The claims' players exchanged: the wrong side is to move at each root.
        let mut damaged = certificate.clone();
        damaged.scores[0].player = Player::O;
        assert!(refused(&damaged).reason.contains("is to move here"));
        // A held loop is no Euler Getter leaf (nor can it be written as one).
        let mut damaged = certificate;
        damaged.nodes[0] = Node::Held { first: 0, count: 0 };
        assert!(
            crate::verify(&damaged)
                .unwrap_err()
                .reason
                .contains("no leaf")
        );
        // An endgame leaf too large: the empty goldberg:2 (21 cells).
        let board = Board::from_spec("goldberg:2").unwrap();
        let mut early = Certificate::of(Kind::EulerGetter, board.clone());
        let root = early.push_endgame();
        early.scores.push(ScoreClaim {
            stones: vec![None; board.cell_count()],
            player: Player::O,
            at_least: 1,
            root,
        });
        let why = refused(&early);
        assert_eq!(why.node, Some(0), "{why}");
        assert!(why.reason.contains("21 empty cells"), "{why}");
    }

    /// A whole board as one leaf: the checker's own search refuses a margin raised past
    /// the minimax one and the wrong winner.
    #[test]
    fn a_large_leaf_with_a_false_claim_is_refused() {
        let (certificate, _) = minimax_certificate("goldberg:1", MAX_ENDGAME);
        assert_eq!(certificate.nodes, [Node::Endgame, Node::Endgame]);
        let mut raised = certificate.clone();
        raised.scores[0].at_least = 3;
        assert!(refused(&raised).reason.contains("not at least 3"));
        // O claims to win (X wins by 1): O cannot end 1 above X.
        let mut wrong = certificate;
        wrong.scores[1].at_least = 1;
        let why = refused(&wrong);
        assert_eq!(why.node, Some(1), "{why}");
        assert!(why.reason.contains("X can hold O below 1"), "{why}");
    }

    /// O's strategy on the empty goldberg:1 with one endgame leaf: X's first move on cell 0,
    /// the other first moves carried onto it by symmetries of the board. The checker
    /// accepts it after a round trip and refuses a map that is no symmetry, a true symmetry
    /// that carries the position elsewhere, and symmetry lines where they have no place.
    #[test]
    fn symmetries_carry_a_strategy_and_only_true_ones_are_accepted() {
        let board = Board::from_spec("goldberg:1").unwrap();
        let maps = board.symmetries().maps().to_vec();
        let mut certificate = Certificate::of(Kind::EulerGetter, board.clone());
        let leaf = certificate.push_endgame();
        let mut targets = vec![leaf];
        for cell in 1..board.cell_count() {
            let map = maps.iter().find(|map| map[cell] == 0).unwrap();
            certificate
                .symmetries
                .push(map.iter().map(|&c| c as u32).collect());
            targets.push(certificate.push_symmetry(cell - 1, leaf));
        }
        let root = certificate.push_replies(&targets);
        certificate.scores.push(ScoreClaim {
            stones: vec![None; board.cell_count()],
            player: Player::O,
            at_least: -1,
            root,
        });
        let mut text = Vec::new();
        certificate.write_text(&mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.starts_with("crosscap-certificate 4\n"), "{text}");
        let read = Certificate::read(text.as_bytes()).unwrap();
        assert_eq!(read.symmetries, certificate.symmetries);
        assert_eq!(crate::verify(&read).unwrap().scores[0].at_least, -1);
        // Two cells exchanged: a permutation, but no symmetry of the board.
        let mut swapped = certificate.clone();
        swapped.symmetries[0].swap(0, 1);
        let why = refused(&swapped);
        assert_eq!((why.node, why.line), (None, 4), "{why}");
        assert!(
            why.reason.contains("symmetry 0: no symmetry of the board"),
            "{why}"
        );
        // Maps built in memory (the reader refuses them) that are no permutation: one cut
        // short, one that takes cells 0 and 1 to one cell.
        for cut_short in [true, false] {
            let mut damaged = certificate.clone();
            let map = &mut damaged.symmetries[0];
            match cut_short {
                true => map.truncate(1),
                false => map[0] = map[1],
            }
            let why = crate::verify(&damaged).unwrap_err();
            assert!(
                why.reason.contains("symmetry 0: not a permutation"),
                "{why}"
            );
        }
        // A true symmetry that takes X's stone to another cell than node 0's.
        let mut elsewhere = certificate.clone();
        elsewhere.symmetries[0] = maps[0].iter().map(|&c| c as u32).collect();
        assert!(
            refused(&elsewhere)
                .reason
                .contains("two different positions")
        );
        // Symmetry lines in a version 3 file, after a claim, and with a cell named twice.
        let unreadable = |text: &str| match Certificate::read(text.as_bytes()) {
            Err(error) => error.to_string(),
            Ok(_) => panic!("read: {text}"),
        };
        let v3 = text.replacen("certificate 4", "certificate 3", 1);
        assert!(unreadable(&v3).contains("certificates of version 4"));
        let first = text.lines().nth(3).unwrap();
        let claim = text
            .lines()
            .find(|line| line.starts_with("claim "))
            .unwrap();
        let late = text.replacen(&format!("{first}\n"), "", 1).replacen(
            &format!("{claim}\n"),
            &format!("{claim}\n{first}\n"),
            1,
        );
        assert!(unreadable(&late).contains("symmetry lines come before the claims"));
        let names: Vec<&str> = first.split(' ').collect();
        let twice = text.replacen(first, &format!("{} {}", first, names[1]), 1);
        assert!(unreadable(&twice).contains("the symmetry maps 7 cells"));
        let mut repeated = names.clone();
        repeated[2] = names[1];
        let repeated = text.replacen(first, &repeated.join(" "), 1);
        assert!(unreadable(&repeated).contains("takes two cells"));
    }

    /// The endgame's scoring against the count in full, on random endgames of taylor:3 and
    /// goldberg:2 of 1 to 12 empty cells filled at random (some slots left empty), for
    /// both players.
    #[test]
    fn an_endgames_scoring_is_the_count_in_full() {
        let mut rng = Rng::new(23);
        for spec in ["taylor:3", "goldberg:2"] {
            let board = Board::from_spec(spec).unwrap();
            let complex = Complex::of(&board);
            for round in 0..40 {
                let mut stones: Vec<Option<Player>> = (0..board.cell_count())
                    .map(|_| [Some(Player::X), Some(Player::O)][rng.below(2)])
                    .collect();
                for _ in 0..1 + round % MAX_ENDGAME {
                    stones[rng.below(board.cell_count())] = None;
                }
                for player in [Player::X, Player::O] {
                    let goal = Goal {
                        player,
                        at_least: 0,
                    };
                    let scored = Scored::new(&complex, &stones, goal);
                    let mut filled = stones.clone();
                    for _ in 0..8 {
                        for &cell in &scored.slots {
                            filled[cell] = [None, Some(Player::X), Some(Player::O)][rng.below(3)];
                        }
                        let expected = complex.margin(&filled, player);
                        assert_eq!(scored.margin(&filled), expected, "{spec} {filled:?}");
                    }
                }
            }
        }
    }

    /// The Gray code walk over the splits against each split counted in full, on random
    /// taylor:3 positions of 7 to 21 empty cells with random pairings, for both players:
    /// no split below the worst, and above it the first split reported is one whose count
    /// in full is the margin reported, below the bar.
    #[test]
    fn the_splits_walk_finds_what_counting_each_split_finds() {
        let board = Board::from_spec("taylor:3").unwrap();
        let complex = Complex::of(&board);
        let mut rng = Rng::new(31);
        for round in 0..30 {
            let stones = random_position(&board, 6 + round % 15, &mut rng);
            let cells = shuffled_empty_cells(&stones, &mut rng);
            let pairs: Vec<&[u32]> = cells.chunks_exact(2).collect();
            for player in [Player::X, Player::O] {
                let in_full = |split: u32| {
                    let mut filled = stones.clone();
                    for &cell in &cells {
                        filled[cell as usize] = Some(player.opponent());
                    }
                    for (index, pair) in pairs.iter().enumerate() {
                        filled[pair[(split >> index & 1) as usize] as usize] = Some(player);
                    }
                    complex.margin(&filled, player)
                };
                let worst = (0..1u32 << pairs.len()).map(in_full).min().unwrap();
                let goal = Goal {
                    player,
                    at_least: 0,
                };
                let scored = Scored::new(&complex, &stones, goal);
                assert_eq!(scored.first_split_below(&pairs, worst), None);
                let (split, margin) = scored.first_split_below(&pairs, worst + 1).unwrap();
                assert_eq!((margin, in_full(split)), (worst, worst));
            }
        }
    }

    /// Pairing leaves on random goldberg:2 positions of 7 empty cells, X to move, for O's
    /// claim: of random pairings, the best one's worst split (by the count in full) is
    /// accepted, a pairing whose worst is lower is refused, and what is accepted never
    /// exceeds what O holds with perfect play; damaged lists and the owner to move are
    /// refused.
    #[test]
    fn pairing_leaves_are_told_apart_by_their_worst_split() {
        let board = Board::from_spec("goldberg:2").unwrap();
        let complex = Complex::of(&board);
        let mut rng = Rng::new(11);
        let mut told_apart = 0;
        for _ in 0..6 {
            let stones = random_position(&board, 14, &mut rng);
            let worst = |cells: &[u32]| {
                let mut filled = stones.clone();
                let pairs: Vec<&[u32]> = cells.chunks_exact(2).collect();
                filled[cells[6] as usize] = Some(Player::X);
                (0..1u32 << pairs.len())
                    .map(|split| {
                        for (index, pair) in pairs.iter().enumerate() {
                            let mine = (split >> index & 1) as usize;
                            filled[pair[mine] as usize] = Some(Player::O);
                            filled[pair[1 - mine] as usize] = Some(Player::X);
                        }
                        complex.margin(&filled, Player::O)
                    })
                    .min()
                    .unwrap()
            };
            let mut pairings: Vec<(i64, Vec<u32>)> = (0..20)
                .map(|_| {
                    let cells = shuffled_empty_cells(&stones, &mut rng);
                    (worst(&cells), cells)
                })
                .collect();
            pairings.sort();
            let (low, lower) = pairings[0].clone();
            let (best, cells) = pairings.pop().unwrap();
            let goal = |at_least: i64| Goal {
                player: Player::O,
                at_least: at_least as i32,
            };
            let check = |cells: &[u32], at_least: i64| {
                pairing(&board, &complex, &stones, goal(at_least), cells)
            };
            assert_eq!(check(&cells, best), Ok(()));
            let perfect = -minimax(&board, &mut stones.clone(), &mut Memo::new());
            assert!(best <= perfect, "{best} above {perfect}");
            assert!(
                check(&cells, best + 2)
                    .unwrap_err()
                    .contains("not at least")
            );
            if low < best {
                told_apart += 1;
                assert!(check(&lower, best).unwrap_err().contains("not at least"));
            }
            let mut twice = cells.clone();
            twice[1] = twice[0];
            assert!(check(&twice, low).unwrap_err().contains("twice"));
            assert!(
                check(&cells[..6], low)
                    .unwrap_err()
                    .contains("6 cells of 7")
            );
            let mut moved = stones.clone();
            moved[cells[6] as usize] = Some(Player::X);
            let owner_moves = pairing(&board, &complex, &moved, goal(low), &cells[..6]);
            assert!(
                owner_moves
                    .unwrap_err()
                    .contains("O, its owner, is to move")
            );
        }
        assert!(told_apart > 0);
        // 27 empty cells: more pairs than the checker scores.
        let large = Board::from_spec("taylor:3").unwrap();
        let cells: Vec<u32> = (0..27).collect();
        let goal = Goal {
            player: Player::O,
            at_least: 0,
        };
        let why = pairing(&large, &Complex::of(&large), &[None; 27], goal, &cells);
        assert!(why.unwrap_err().contains("at most 10 pairs"));
    }

    /// The endgame search against plain minimax on random goldberg:2 endgames of 6 to 9
    /// empty cells: each side holds exactly the minimax margin, and not 2 more (margins
    /// are odd).
    #[test]
    fn the_endgame_search_holds_exactly_the_minimax_margin() {
        let board = Board::from_spec("goldberg:2").unwrap();
        let complex = Complex::of(&board);
        let mut rng = Rng::new(7);
        for round in 0..8 {
            let placed = board.cell_count() - 6 - round % 4;
            let mut stones = random_position(&board, placed, &mut rng);
            let value = minimax(&board, &mut stones.clone(), &mut Memo::new());
            for (player, at_least) in [(Player::X, value), (Player::O, -value)] {
                let goal = |at_least: i64| Goal {
                    player,
                    at_least: at_least as i32,
                };
                assert!(endgame_holds(&complex, &mut stones, goal(at_least)));
                assert!(!endgame_holds(&complex, &mut stones, goal(at_least + 2)));
            }
        }
    }
}
