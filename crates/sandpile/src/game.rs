//! The game itself: placements, claims, the end of the game, and its notation.

use std::cell::RefCell;
use std::hash::Hasher;
use std::sync::Arc;

use crosscap_engine::text::painted;
use crosscap_engine::{Game, MoveError, Notation, Outcome, Player, Rng};
use rustc_hash::FxHasher;

use crate::SandpileError;
use crate::board::{Board, Scratch};

thread_local! {
    /// Toppling scratch space, one per thread, so that cloned positions stay small.
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// What the last placement did, for drawing it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastMove {
    pub vertex: usize,
    pub reached: Vec<usize>,
    pub erupted: bool,
}

/// A position of the sandpile toppling game.
#[derive(Clone, Debug)]
pub struct Sandpile {
    board: Arc<Board>,
    scores: Vec<u32>,
    owners: Vec<Option<Player>>,
    /// How many vertices each player holds.
    held: [usize; 2],
    /// For each closed class, the player whose cascade set it toppling for ever.
    erupted: Vec<Option<Player>>,
    to_move: Player,
    placements: u32,
    outcome: Option<Outcome>,
    last: Option<LastMove>,
}

impl Sandpile {
    /// The empty board, X to move.
    pub fn new(board: Arc<Board>) -> Sandpile {
        let n = board.vertex_count();
        let classes = board.classes().len();
        Sandpile {
            board,
            scores: vec![0; n],
            owners: vec![None; n],
            held: [0, 0],
            erupted: vec![None; classes],
            to_move: Player::X,
            placements: 0,
            outcome: None,
            last: None,
        }
    }

    /// The empty board of a graph spec.
    pub fn from_spec(spec: &str) -> Result<Sandpile, SandpileError> {
        Ok(Sandpile::new(Arc::new(Board::from_spec(spec)?)))
    }

    /// A mid-game position written one entry per vertex in vertex order, comma-separated:
    /// `.` unclaimed, `X2` / `O0` owner and score, `X*` / `O*` a vertex of a closed class
    /// that topples for ever (every vertex of that class, in one colour). The placement
    /// counter restarts at the number of chips on the board.
    pub fn from_position(
        board: Arc<Board>,
        text: &str,
        to_move: Player,
    ) -> Result<Sandpile, SandpileError> {
        let bad = |reason: String| SandpileError::BadPosition {
            text: text.to_string(),
            reason,
        };
        let entries: Vec<&str> = text.split(',').map(str::trim).collect();
        let n = board.vertex_count();
        if entries.len() != n {
            return Err(bad(format!(
                "{} entries for {n} vertices (one per vertex, comma-separated)",
                entries.len()
            )));
        }
        let mut game = Sandpile::new(board);
        game.to_move = to_move;
        let board = Arc::clone(&game.board);
        let mut frozen_vertex = vec![None; n];
        let mut chips = 0u64;
        for (v, entry) in entries.iter().enumerate() {
            let name = board.graph().vertex_name(v);
            if *entry == "." {
                continue;
            }
            let mut chars = entry.chars();
            let owner: Player = chars
                .next()
                .map(String::from)
                .unwrap_or_default()
                .parse()
                .map_err(|_| {
                    bad(format!(
                        "vertex {name}: `{}` is not `.`, X<score>, O<score>, X* or O*",
                        entry.escape_debug()
                    ))
                })?;
            let rest = chars.as_str();
            game.owners[v] = Some(owner);
            game.held[owner.index()] += 1;
            if rest == "*" {
                if board.class_of(v).is_none() {
                    return Err(bad(format!(
                        "vertex {name} cannot topple for ever: it is in no closed class"
                    )));
                }
                frozen_vertex[v] = Some(owner);
                continue;
            }
            let score: u32 = rest.parse().map_err(|_| {
                bad(format!(
                    "vertex {name}: `{}` is not `.`, X<score>, O<score>, X* or O*",
                    entry.escape_debug()
                ))
            })?;
            if !board.is_sink(v) && score >= board.threshold(v) {
                return Err(bad(format!(
                    "vertex {name} has score {score} but topples at {}",
                    board.threshold(v)
                )));
            }
            game.scores[v] = score;
            chips += score as u64;
            if chips > board.move_limit() as u64 {
                return Err(bad(format!(
                    "more chips than the game's {} placements allow",
                    board.move_limit()
                )));
            }
        }
        game.placements = chips as u32;
        for (c, class) in board.classes().iter().enumerate() {
            let marks: Vec<Option<Player>> =
                class.vertices.iter().map(|&v| frozen_vertex[v]).collect();
            if marks.iter().all(Option::is_none) {
                continue;
            }
            if marks.iter().any(|m| *m != marks[0]) {
                return Err(bad(format!(
                    "vertices {} topple for ever together: mark them all X* or all O*",
                    names(&board, &class.vertices)
                )));
            }
            game.erupted[c] = marks[0];
        }
        game.outcome = game.judge();
        Ok(game)
    }

    pub fn board(&self) -> &Arc<Board> {
        &self.board
    }

    pub fn score(&self, v: usize) -> u32 {
        self.scores[v]
    }

    pub fn owner(&self, v: usize) -> Option<Player> {
        self.owners[v]
    }

    /// Whether `v` lies in a closed class that topples for ever.
    pub fn is_erupted(&self, v: usize) -> bool {
        self.board
            .class_of(v)
            .is_some_and(|c| self.erupted[c].is_some())
    }

    pub fn placements(&self) -> u32 {
        self.placements
    }

    /// The chips the board can still take with no vertex toppling: each vertex's
    /// threshold less one, less its score, summed over the vertices neither sinks nor
    /// erupted. On a connected undirected graph under abelian toppling the chips are kept,
    /// so at most one placement more than this is left (the seed's degree sum minus the
    /// vertices, less the chips placed); elsewhere it still measures what is left to play.
    pub fn room(&self) -> u32 {
        (0..self.board.vertex_count())
            .filter(|&v| !self.board.is_sink(v) && !self.is_erupted(v))
            .map(|v| (self.board.threshold(v) - 1).saturating_sub(self.scores[v]))
            .sum()
    }

    pub fn last_move(&self) -> Option<&LastMove> {
        self.last.as_ref()
    }

    /// Whether the last placement set a cascade toppling for ever.
    pub fn last_move_erupted(&self) -> bool {
        self.last.as_ref().is_some_and(|l| l.erupted)
    }

    /// The position in the notation [`Sandpile::from_position`] reads.
    pub fn position_text(&self) -> String {
        (0..self.board.vertex_count())
            .map(|v| match self.owners[v] {
                None => ".".to_string(),
                Some(p) if self.is_erupted(v) => format!("{p}*"),
                Some(p) => format!("{p}{}", self.scores[v]),
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    fn may_place(&self, v: usize, player: Player) -> bool {
        self.owners[v].is_none_or(|p| p == player) && !self.is_erupted(v)
    }

    /// The end of the game, judged after a move: one colour everywhere wins; a draw once
    /// that has become impossible (closed classes toppling for ever in both colours, or the
    /// player to move has no vertex to play) or at the placement limit.
    fn judge(&self) -> Option<Outcome> {
        let n = self.board.vertex_count();
        for p in Player::BOTH {
            if self.held[p.index()] == n {
                return Some(Outcome::win(p));
            }
        }
        let both_erupted = Player::BOTH
            .iter()
            .all(|p| self.erupted.contains(&Some(*p)));
        let stuck = self.erupted.iter().any(Option::is_some)
            && !(0..n).any(|v| self.may_place(v, self.to_move));
        if both_erupted || stuck || self.placements >= self.board.move_limit() {
            return Some(Outcome::scored(0, None));
        }
        None
    }

    /// The position as text: a grid for `grid:RxC` boards, else one vertex per entry;
    /// ANSI colours (X red, O blue) when `colour` is set.
    pub fn render(&self, colour: bool) -> String {
        let cell = |v: usize| {
            let text = match self.owners[v] {
                None => ".".to_string(),
                Some(p) if self.is_erupted(v) => format!("{p}*"),
                Some(p) => format!("{p}{}", self.scores[v]),
            };
            painted(&format!("{text:<3}"), self.owners[v], colour)
        };
        let graph = self.board.graph();
        let mut out = String::new();
        if let Some((rows, columns)) = grid_shape(graph.spec()) {
            out += "    ";
            for c in 0..columns {
                out += &format!("{c:<4}");
            }
            out = out.trim_end().to_string() + "\n";
            for r in 0..rows {
                out += &format!("{:>3} ", r * columns);
                for c in 0..columns {
                    out += &cell(r * columns + c);
                    out += " ";
                }
                out = out.trim_end().to_string() + "\n";
            }
            out += "(vertex = row start + column; a vertex topples at its degree: 2 corner, 3 edge, 4 inside)\n";
        } else {
            for v in 0..graph.vertex_count() {
                out += &format!(
                    "{:>4}: {} (topples at {})\n",
                    graph.vertex_name(v),
                    cell(v).trim_end(),
                    self.board.threshold(v)
                );
            }
        }
        if let Some(last) = &self.last {
            out += &format!(
                "last move {}: reached {}{}\n",
                graph.vertex_name(last.vertex),
                names(&self.board, &last.reached),
                if last.erupted {
                    ", toppling for ever"
                } else {
                    ""
                }
            );
        }
        out
    }

    fn vertex_code(&self, v: usize) -> u64 {
        let owner = match self.owners[v] {
            None => 0,
            Some(Player::X) => 1,
            Some(Player::O) => 2,
        };
        owner | (self.is_erupted(v) as u64) << 2 | (self.scores[v] as u64) << 3
    }
}

/// `(rows, columns)` of a `grid:RxC` spec.
pub fn grid_shape(spec: &str) -> Option<(usize, usize)> {
    let (rows, columns) = spec.strip_prefix("grid:")?.split_once(['x', 'X'])?;
    Some((rows.trim().parse().ok()?, columns.trim().parse().ok()?))
}

fn names(board: &Board, vertices: &[usize]) -> String {
    vertices
        .iter()
        .map(|&v| board.graph().vertex_name(v))
        .collect::<Vec<_>>()
        .join(" ")
}

impl Game for Sandpile {
    type Move = usize;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self) -> Vec<usize> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        (0..self.board.vertex_count())
            .filter(|&v| self.may_place(v, self.to_move))
            .collect()
    }

    fn play(&mut self, &v: &usize) {
        let mover = self.to_move;
        let board = Arc::clone(&self.board);
        let cascade = SCRATCH.with(|scratch| {
            let erupted = &self.erupted;
            board.place(
                &mut self.scores,
                &|c| erupted[c].is_some(),
                v,
                &mut scratch.borrow_mut(),
            )
        });
        for &u in &cascade.reached {
            if self.is_erupted(u) {
                continue;
            }
            match self.owners[u] {
                Some(p) if p == mover => {}
                Some(p) => {
                    self.held[p.index()] -= 1;
                    self.held[mover.index()] += 1;
                }
                None => self.held[mover.index()] += 1,
            }
            self.owners[u] = Some(mover);
        }
        for &c in &cascade.erupted {
            self.erupted[c] = Some(mover);
        }
        self.placements += 1;
        self.to_move = mover.opponent();
        self.last = Some(LastMove {
            vertex: v,
            erupted: !cascade.erupted.is_empty(),
            reached: cascade.reached,
        });
        self.outcome = self.judge();
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Placements that topple first (they claim the neighbours), then fresh vertices: the
    /// exact solver's cutoffs come sooner (grid:3x4 in a third of the nodes).
    fn order_moves(&self, moves: &mut [usize]) {
        moves.sort_by_key(|&v| {
            let topples = self.scores[v] + 1 >= self.board.threshold(v);
            (!topples, self.owners[v].is_some())
        });
    }

    /// The per-vertex and per-class vectors and the last move's cascade, which grow with
    /// the graph (the board is shared).
    fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.scores.capacity() * std::mem::size_of::<u32>()
            + (self.owners.capacity() + self.erupted.capacity())
                * std::mem::size_of::<Option<Player>>()
            + self.last.as_ref().map_or(0, |last| {
                last.reached.capacity() * std::mem::size_of::<usize>()
            })
    }

    /// Symmetric positions hash alike (the least hash over the board's automorphisms), so
    /// the solver and the sequence searches visit each position once up to symmetry.
    fn position_hash(&self) -> u64 {
        let canonical = self
            .board
            .symmetries()
            .iter()
            .map(|perm| {
                let mut h = FxHasher::default();
                for &v in perm {
                    h.write_u64(self.vertex_code(v));
                }
                h.finish()
            })
            .min()
            .unwrap_or(0);
        let mut h = FxHasher::default();
        h.write_u64(canonical);
        h.write_u64(self.to_move.index() as u64 | (self.placements as u64) << 1);
        h.finish()
    }

    fn random_move(&self, rng: &mut Rng) -> Option<usize> {
        if self.outcome.is_some() {
            return None;
        }
        let n = self.board.vertex_count();
        // A few random tries are cheaper than listing the moves on a large board.
        for _ in 0..8 {
            let v = rng.below(n);
            if self.may_place(v, self.to_move) {
                return Some(v);
            }
        }
        let moves = self.legal_moves();
        (!moves.is_empty()).then(|| moves[rng.below(moves.len())])
    }
}

impl Notation for Sandpile {
    fn parse_move(&self, text: &str) -> Result<usize, MoveError> {
        let text = text.trim();
        let graph = self.board.graph();
        let v = graph.vertex_index(text).ok_or_else(|| {
            MoveError::malformed(
                text,
                format!(
                    "no vertex of {} is named so (vertices are {} to {})",
                    graph.spec(),
                    graph.vertex_name(0),
                    graph.vertex_name(graph.vertex_count() - 1)
                ),
            )
        })?;
        if self.is_erupted(v) {
            return Err(MoveError::illegal(text, "that vertex topples for ever"));
        }
        match self.owners[v] {
            Some(p) if p != self.to_move => Err(MoveError::illegal(
                text,
                format!("the vertex belongs to {p}"),
            )),
            _ => Ok(v),
        }
    }

    fn format_move(&self, &v: &usize) -> String {
        self.board.graph().vertex_name(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(spec: &str) -> Sandpile {
        Sandpile::from_spec(spec).unwrap()
    }

    fn play(g: &mut Sandpile, moves: &[&str]) {
        for m in moves {
            g.play_text(m).unwrap();
        }
    }

    #[test]
    fn p2_is_won_by_the_first_placement() {
        let mut g = game("P2");
        play(&mut g, &["0"]);
        assert_eq!(g.outcome(), Some(Outcome::win(Player::X)));
        assert!(g.last_move_erupted());
    }

    #[test]
    fn p3_is_won_by_the_second_player_on_the_second_move() {
        for first in ["0", "1", "2"] {
            let mut g = game("P3");
            play(&mut g, &[first]);
            assert_eq!(g.outcome(), None);
            for reply in g.legal_moves() {
                let mut h = g.clone();
                h.play(&reply);
                assert_eq!(
                    h.outcome(),
                    Some(Outcome::win(Player::O)),
                    "{first} {reply}"
                );
            }
        }
    }

    #[test]
    fn claims_take_vertices_from_the_opponent() {
        // P5: X on 2, O on 1, X on 2 again: 2 topples into 1 (now X's), which topples
        // into 0, which topples back into 1.
        let mut g = game("P5");
        play(&mut g, &["2", "1", "2"]);
        assert_eq!(g.position_text(), "X0,X1,X1,X1,.");
        assert_eq!(g.outcome(), None, "vertex 4 is unclaimed");
        assert_eq!(g.last_move().unwrap().reached, vec![2, 1, 3, 0]);
    }

    #[test]
    fn moves_on_the_opponents_vertices_are_refused() {
        let mut g = game("P4");
        play(&mut g, &["1"]);
        assert!(matches!(g.play_text("1"), Err(MoveError::Illegal { .. })));
        assert!(matches!(g.play_text("7"), Err(MoveError::Malformed { .. })));
        assert!(matches!(g.play_text("x"), Err(MoveError::Malformed { .. })));
    }

    #[test]
    fn positions_round_trip_and_are_checked() {
        let board = Arc::new(Board::from_spec("P4").unwrap());
        let g = Sandpile::from_position(Arc::clone(&board), "X0,O1,.,X0", Player::O).unwrap();
        assert_eq!(g.position_text(), "X0,O1,.,X0");
        assert_eq!(g.to_move(), Player::O);
        assert_eq!(g.legal_moves(), vec![1, 2]);
        for bad in [
            "X0,O1,.",
            "X0,O2,.,X0",
            "Z0,O1,.,X0",
            "X0,,.,X0",
            "X0,Oa,.,X0",
            "X*,O1,.,X0",
        ] {
            assert!(
                Sandpile::from_position(Arc::clone(&board), bad, Player::X).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn sinks_cannot_hold_more_chips_than_the_game_allows() {
        let board = Arc::new(Board::from_spec("arcs:0>1,2>1").unwrap());
        assert!(Sandpile::from_position(Arc::clone(&board), ".,X7,.", Player::O).is_ok());
        for bad in [".,X8,.", ".,X4294967295,.", ".,X99999999999,."] {
            assert!(
                Sandpile::from_position(Arc::clone(&board), bad, Player::X).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_finished_position_is_recognised() {
        let board = Arc::new(Board::from_spec("P3").unwrap());
        let g = Sandpile::from_position(board, "O0,O1,O0", Player::X).unwrap();
        assert_eq!(g.outcome(), Some(Outcome::win(Player::O)));
        assert!(g.legal_moves().is_empty());
    }

    #[test]
    fn disconnected_graphs_draw_once_both_colours_topple_for_ever() {
        // Two disjoint edges: X erupts one, O the other.
        let mut g = game("edges:0-1,2-3");
        play(&mut g, &["0"]);
        assert_eq!(g.position_text(), "X*,X*,.,.");
        assert_eq!(g.outcome(), None);
        assert!(
            g.parse_move("1").is_err(),
            "an erupted vertex takes no chips"
        );
        play(&mut g, &["2"]);
        assert_eq!(g.outcome(), Some(Outcome::scored(0, None)));
    }

    #[test]
    fn a_disconnected_graph_is_won_by_one_colour_everywhere() {
        // X sets 3-4 toppling for ever, then the path 0-1-2 (two chips on a path that
        // holds at most one stably) even through O's vertex.
        let mut g = game("edges:0-1,1-2,3-4");
        play(&mut g, &["3", "1"]);
        assert_eq!(g.position_text(), ".,O1,.,X*,X*");
        play(&mut g, &["0"]);
        assert_eq!(g.position_text(), "X*,X*,X*,X*,X*");
        assert_eq!(g.outcome(), Some(Outcome::win(Player::X)));
    }

    #[test]
    fn directed_sinks_end_in_a_draw_at_the_limit() {
        // 0 > 1 < 2: every placement on 0 or 2 drains into the sink 1.
        let mut g = game("arcs:0>1,2>1");
        assert_eq!(g.board().move_limit(), 7);
        play(&mut g, &["0", "2"]);
        assert_eq!(g.position_text(), "X0,O2,O0");
        while g.outcome().is_none() {
            let mv = g.legal_moves()[0];
            g.play(&mv);
        }
        assert_eq!(g.outcome(), Some(Outcome::scored(0, None)));
        assert_eq!(g.placements(), 7);
    }

    #[test]
    fn symmetric_positions_hash_alike() {
        let mut a = game("C5");
        let mut b = game("C5");
        a.play(&0);
        b.play(&3);
        assert_eq!(a.position_hash(), b.position_hash());
        b.play(&1);
        assert_ne!(a.position_hash(), b.position_hash());
    }

    /// The seed's bound: once the chips exceed the degree sum less the vertices, toppling
    /// never stops, so the empty board's room is that difference (P3: 4 - 3, and the game
    /// ends by the second placement).
    #[test]
    fn the_empty_boards_room_is_the_degree_sum_less_the_vertices() {
        for (spec, room) in [
            ("P3", 1),
            ("C3", 3),
            ("K1,4", 3),
            ("grid:3x4", 22),
            ("grid:4x4", 32),
        ] {
            assert_eq!(game(spec).room(), room, "{spec}");
        }
        let mut g = game("grid:3x4");
        play(&mut g, &["0", "5"]);
        assert_eq!(g.room(), 20);
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config { cases: 64, rng_seed: proptest::test_runner::RngSeed::Fixed(8), ..proptest::test_runner::Config::default() })]

        /// On connected undirected graphs under abelian toppling, no game lasts more than
        /// one placement past any position's room.
        #[test]
        fn no_game_outlasts_its_room(seed in proptest::prelude::any::<u64>()) {
            let mut rng = Rng::new(seed);
            let specs = ["P5", "C6", "K4", "K1,5", "grid:3x3", "grid:2x4", "petersen"];
            let mut g = game(specs[rng.below(specs.len())]);
            let mut left = Vec::new();
            while g.outcome().is_none() {
                left.push((g.room(), g.placements()));
                let mv = g.random_move(&mut rng).unwrap();
                g.play(&mv);
            }
            for (room, placed) in left {
                proptest::prop_assert!(g.placements() - placed <= room + 1);
            }
        }

        /// Along random games on every family and variant: toppling conserves chips, the
        /// held counts match the owners, and the position text reads back the same position.
        #[test]
        fn random_games_keep_their_invariants(seed in proptest::prelude::any::<u64>()) {
            let mut rng = Rng::new(seed);
            let specs = ["P5", "C6", "K4", "K1,5", "grid:3x3", "petersen", "tetrahedron",
                "edges:0-1,1-2,3-4", "edges:0-1,2-3,5-6", "arcs:0>1,1>2,2>0,2>3", "arcs:0>1,2>1"];
            let spec = specs[rng.below(specs.len())];
            let mut g = game(spec);
            while g.outcome().is_none() {
                let mv = g.random_move(&mut rng).unwrap();
                g.play(&mv);
                let n = g.board().vertex_count();
                for p in Player::BOTH {
                    let count = (0..n).filter(|&v| g.owner(v) == Some(p)).count();
                    proptest::prop_assert_eq!(g.held[p.index()], count);
                }
                if g.erupted.iter().all(Option::is_none) {
                    let chips: u32 = g.scores.iter().sum();
                    proptest::prop_assert_eq!(chips, g.placements());
                    let text = g.position_text();
                    let back = Sandpile::from_position(Arc::clone(g.board()), &text, g.to_move())
                        .unwrap();
                    proptest::prop_assert_eq!(back.position_text(), text);
                    proptest::prop_assert_eq!(back.position_hash(), g.position_hash());
                    proptest::prop_assert_eq!(back.outcome(), g.outcome());
                }
            }
        }
    }
}
