//! Euler Getter in the catalog: its description, its options, how a host starts a game,
//! the view a page draws, and the exact solve behind `solve` (the engine's solver with
//! symmetry-aware hashing, the margin read in the rule's terms).

use std::sync::Arc;
use std::time::{Duration, Instant};

use crosscap_engine::catalog::{
    self, BoardKind, GameDescriptor, GameInfo, MOVES_OPTION, Moves, OptionKind, OptionSpec, Setup,
    SetupError, SolveBudget, Unsolved, ValueKind, Winner,
};
use crosscap_engine::session::{GameMatch, Hosting, Match, SetupLimits};
use crosscap_engine::solver::{MarginBounds, Solver, margin_by_tests};
use crosscap_engine::{Agent, Budget, Exhausted, Game, Level, Player, SolveError};
use crosscap_topology::Symmetries;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::analysis::{PerPlayer, plural};
use crate::compact::CompactBoard;
use crate::game::{EulerGetter, Move, Rule, SwapRule};
use crate::region::{RegionCounts, loop_cycles};
use crate::{EulerGetterError, new_game, player};

/// Euler Getter as the hosts offer it.
pub struct EulerHost;

impl Hosting for EulerHost {
    type Game = EulerGetter;
    type View = EulerView;
    const NAME: &'static str = "euler-getter";
    const VALUE_KIND: ValueKind = ValueKind::Margin;

    fn agent(level: Level, seed: u64) -> Box<dyn Agent<EulerGetter>> {
        player::agent(level, seed)
    }

    fn view(game: &EulerGetter) -> EulerView {
        EulerView::of(game)
    }

    fn position(game: &EulerGetter) -> String {
        game.complex().board().format_position(&game.owners())
    }

    /// [`solve`]: the minimax margin (`margin`, chi X - chi O) and the nodes and
    /// milliseconds it took (`margin_nodes`, `margin_millis`: the rest of `nodes` and
    /// `millis` went to the moves), the order of the symmetry group its hashing divides out
    /// (`symmetries`) and the threads it searched on (`threads`), the last two also when
    /// the search runs out. Solved once winner and
    /// margin are, the optimal moves then marked unknown if the budget ran out on them. A
    /// search cut short before the margin says what it proved: the winner, and the
    /// margin's bounds (`margin_at_least`, `margin_at_most`); the status stays `unknown`.
    fn analyse(game: &EulerGetter, budget: &Budget) -> Result<catalog::Analysis<Move>, Unsolved> {
        let symmetries = Arc::new(game.complex().board().symmetries());
        let order = Map::from_iter([
            ("symmetries".to_string(), json!(symmetries.len())),
            ("threads".to_string(), json!(budget.threads.unwrap_or(1))),
        ]);
        let solution = solve_with(game, symmetries, budget, Extent::WithMoves).map_err(|cut| {
            let mut extra = order.clone();
            extra.extend(cut.margin_keys(game.rule()));
            Unsolved {
                error: cut.error,
                winner: cut.winner.map(Winner::Player),
                extra,
            }
        })?;
        let mut extra = order;
        extra.insert("margin".into(), json!(solution.margin));
        extra.insert("margin_nodes".into(), json!(solution.margin_nodes));
        let millis = solution.margin_elapsed.as_secs_f64() * 1000.0;
        extra.insert("margin_millis".into(), json!(millis));
        Ok(catalog::Analysis {
            winner: solution.winner.map_or(Winner::Draw, Winner::Player),
            value: i64::from(solution.value),
            value_kind: ValueKind::Margin,
            moves: match solution.best_moves {
                Some(Ok(mut best)) => {
                    // In cell order, as the other games list theirs (the search's order
                    // follows its move ordering).
                    best.sort_unstable();
                    Moves::reaching_value(solution.value > 0, best)
                }
                Some(Err(reason)) => Moves::Unknown { reason },
                None => unreachable!("solve_with(.., Extent::WithMoves) looks for the moves"),
            },
            nodes: solution.nodes,
            extra,
        })
    }

    /// The board, its cell count and the rules.
    fn facts(game: &EulerGetter) -> Map<String, Value> {
        let board = game.complex().board();
        Map::from_iter([
            ("board".to_string(), json!(board.spec())),
            ("cells".to_string(), json!(board.cell_count())),
            ("rule".to_string(), json!(game.rule().to_string())),
            ("swap".to_string(), json!(game.swap_rule().to_string())),
        ])
    }

    /// The board drawn by the topology crate, then each player's score.
    fn drawing(game: &EulerGetter, colour: bool) -> String {
        let board = game.complex().board();
        let row = |p: Player| {
            let a = game.analysis(p);
            let c = game.counts(p);
            format!(
                "{p}: chi {} = {} - {} loops (V {} - E {} + F {})",
                a.chi,
                plural(a.components, "piece"),
                a.loops,
                c.vertices,
                c.edges,
                c.faces
            )
        };
        let mut text = format!(
            "{}\n{}\n{}",
            board.text_drawing_named(&game.owners(), colour).trim_end(),
            row(Player::X),
            row(Player::O)
        );
        if game.swap_available() {
            text += &format!(
                "\n({} may answer `swap` to take over the other colour)",
                game.to_move()
            );
        }
        if game.swapped() {
            text += "\n(swapped: each player took over the other's stones)";
        }
        text
    }
}

/// What a page needs to draw a position beyond the match's snapshot (whose turn, legal
/// moves, outcome) and the board's drawing (cell shapes and names): the owner of every
/// cell, both scores with their V, E, F, the swap state, and once the board is full each
/// region's pieces and loops.
#[derive(Serialize)]
pub struct EulerView {
    /// The board's surface, e.g. `projective plane`, and its Euler characteristic.
    pub surface: String,
    pub surface_chi: i64,
    /// Each cell's owner, in cell order.
    pub owners: Vec<Option<Player>>,
    /// `normal` (the larger characteristic wins) or `reverse`.
    pub rule: String,
    pub swap: SwapState,
    pub score: PerPlayer<Score>,
    /// Once the board is full, each player's region.
    pub regions: Option<PerPlayer<RegionView>>,
}

/// The swap rule: after how many stones the second player may swap (`None`: never),
/// and whether they did.
#[derive(Serialize)]
pub struct SwapState {
    pub after: Option<u8>,
    pub swapped: bool,
}

/// A player's characteristic and the V, E, F it counts.
#[derive(Serialize)]
pub struct Score {
    pub chi: i64,
    #[serde(flatten)]
    pub counts: RegionCounts,
}

/// A region: its characteristic, components, loops and pieces.
#[derive(Serialize)]
pub struct RegionView {
    pub chi: i64,
    pub components: usize,
    pub loops: usize,
    pub pieces: Vec<PieceView>,
}

/// A connected piece of a region: its cells by name, its characteristic and loops, and
/// each independent loop as a cycle of its cells (for the page to draw).
#[derive(Serialize)]
pub struct PieceView {
    pub cells: Vec<String>,
    pub chi: i64,
    pub loops: usize,
    pub loop_cycles: Vec<Vec<String>>,
}

impl EulerView {
    pub fn of(game: &EulerGetter) -> EulerView {
        let board = game.complex().board();
        EulerView {
            surface: board.surface().to_string(),
            surface_chi: game.complex().euler_characteristic(),
            owners: game.owners(),
            rule: game.rule().to_string(),
            swap: SwapState {
                after: game.swap_rule().0,
                swapped: game.swapped(),
            },
            score: PerPlayer::of(|p| {
                let counts = game.counts(p);
                Score {
                    chi: counts.chi(),
                    counts,
                }
            }),
            regions: game
                .outcome()
                .map(|_| PerPlayer::of(|p| RegionView::of(game, p))),
        }
    }
}

impl RegionView {
    pub fn of(game: &EulerGetter, player: Player) -> RegionView {
        let board = game.complex().board();
        let analysis = game.analysis(player);
        RegionView {
            chi: analysis.chi,
            components: analysis.components,
            loops: analysis.loops,
            pieces: analysis
                .pieces
                .iter()
                .map(|piece| {
                    let names = |cells: &[usize]| {
                        cells
                            .iter()
                            .map(|&c| board.cell_name(c).to_string())
                            .collect()
                    };
                    PieceView {
                        cells: names(&piece.cells),
                        chi: piece.chi,
                        loops: piece.loops,
                        loop_cycles: loop_cycles(board, piece).iter().map(|c| names(c)).collect(),
                    }
                })
                .collect(),
        }
    }
}

/// A player's region as JSON (the command line's `score` report).
pub fn region_json(game: &EulerGetter, player: Player) -> Value {
    json!(RegionView::of(game, player))
}

/// An exact solution of an Euler Getter position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The winner with perfect play (`None`: a draw, possible only off odd surfaces).
    pub winner: Option<Player>,
    /// The final `chi X - chi O` under perfect play, whatever the rule.
    pub margin: i32,
    /// The value for the player to move: the margin the rule rewards, from the mover's
    /// side (positive: the mover wins).
    pub value: i32,
    /// Every move reaching that value, or the limit that ran out before they were all
    /// found: the solve is solved once winner and margin are, the moves come after.
    /// `None` from a solve of [`Extent::MarginOnly`], which does not look for them.
    pub best_moves: Option<Result<Vec<Move>, Exhausted>>,
    pub nodes: u64,
    /// Of the nodes and time, what the winner and margin took (the rest went to the moves).
    pub margin_nodes: u64,
    pub margin_elapsed: Duration,
    /// The order of the board's symmetry group, which the search's hashing divides out.
    pub symmetries: usize,
}

/// Solves `game` with the engine's solver, positions hashed up to the board's symmetries
/// (which shrinks the table by up to the group's order).
///
/// ```
/// use std::time::Duration;
/// use crosscap_engine::session::SetupLimits;
/// use crosscap_engine::{Budget, Player};
/// use crosscap_euler_getter::{Rule, SwapRule, new_game, solve};
///
/// let limits = SetupLimits::default();
/// let game = new_game("goldberg:1", Rule::Normal, SwapRule(None), None, &limits).unwrap();
/// let solution = solve(&game, &Budget::time(Duration::from_secs(30))).unwrap();
/// // The first player wins the hemi-dodecahedron by 1 (χX + χO = 1: the margin is odd).
/// assert_eq!((solution.winner, solution.margin), (Some(Player::X), 1));
/// ```
pub fn solve(game: &EulerGetter, budget: &Budget) -> Result<Solution, SolveError> {
    solve_keeping_bounds(game, budget, Extent::WithMoves).map_err(|(error, _)| error)
}

/// [`solve`] to the `extent` asked, and when the budget runs out before the margin is
/// proven what was proven before: bounds on X's value (`chi X - chi O`, negated under
/// the reverse rule).
pub fn solve_keeping_bounds(
    game: &EulerGetter,
    budget: &Budget,
    extent: Extent,
) -> Result<Solution, (SolveError, MarginBounds)> {
    solve_with(
        game,
        Arc::new(game.complex().board().symmetries()),
        budget,
        extent,
    )
    .map_err(|cut| (cut.error, cut.bounds))
}

/// Whether a solve looks for the optimal moves once the margin is proven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extent {
    /// Winner and margin alone (`best_moves` is `None`), what an opening class of
    /// `solve --all-openings` needs: the moves took 50–89% of a taylor:3 position's solve
    /// (BENCHMARKS.md, session 32).
    MarginOnly,
    WithMoves,
}

/// A solve cut short, with what it proved before: the winner, and bounds on X's value
/// (the engine's margin: `chi X - chi O`, negated under the reverse rule).
struct Cut {
    error: SolveError,
    winner: Option<Player>,
    bounds: MarginBounds,
}

impl Cut {
    /// The keys `margin_at_least` and `margin_at_most` (`chi X - chi O`) of what was
    /// proven, for an answer that stays unknown.
    fn margin_keys(&self, rule: Rule) -> Map<String, Value> {
        let (least, most) = match rule {
            Rule::Normal => (self.bounds.least, self.bounds.most),
            Rule::Reverse => (self.bounds.most.map(|m| -m), self.bounds.least.map(|m| -m)),
        };
        let mut keys = Map::new();
        for (key, bound) in [("margin_at_least", least), ("margin_at_most", most)] {
            if let Some(bound) = bound {
                keys.insert(key.to_string(), json!(bound));
            }
        }
        keys
    }
}

/// [`solve`] with the board's symmetries already found. Who wins comes first, then the
/// margin, both from null-window tests "is X's margin at least m?" (the engine's
/// [`margin_by_tests`]): margins are odd on these boards (`chi X + chi O` is the
/// surface's odd characteristic), so `m = 1` alone names the winner and `m` then climbs
/// or falls by 2. Each test reuses the table of the tests before, and every search cuts
/// the positions that [`EulerGetter`]'s margin bounds settle. The optimal moves come last,
/// with what is left of the budget: running out there still answers winner and margin.
/// A budget that runs out before keeps what was proven: the winner, and margin bounds.
fn solve_with(
    game: &EulerGetter,
    symmetries: Arc<Symmetries>,
    budget: &Budget,
    extent: Extent,
) -> Result<Solution, Cut> {
    let order = symmetries.len();
    match CompactBoard::new(game.complex().clone(), Some(&symmetries)) {
        Some(board) => search(&board.position(game), game.rule(), order, budget, extent),
        None => search(
            &game.clone().with_symmetries(symmetries),
            game.rule(),
            order,
            budget,
            extent,
        ),
    }
}

/// [`solve_with`]'s search of `searched`, a [`CompactPosition`](crate::compact::CompactPosition)
/// where the board is small enough for one, else the [`EulerGetter`] itself.
fn search<G: Game<Move = Move>>(
    searched: &G,
    rule: Rule,
    symmetries: usize,
    budget: &Budget,
    extent: Extent,
) -> Result<Solution, Cut> {
    let started = Instant::now();
    let mut solver = Solver::new(budget.clone());
    // The whole solve's spending, not the last call's, in an answer cut short.
    let spent = |solver: &Solver<G>, error: SolveError| {
        let SolveError::Unknown { reason, .. } = error;
        SolveError::Unknown {
            nodes: solver.nodes(),
            elapsed: started.elapsed(),
            reason,
        }
    };
    // The engine's values are what X maximises: under the reverse rule chi O - chi X.
    let tested = margin_by_tests(2, |m| {
        solver.set_budget(budget.less(solver.nodes(), started.elapsed()));
        solver.at_least(searched, m)
    });
    let x_value = tested.map_err(|(error, bounds)| Cut {
        error: spent(&solver, error),
        winner: bounds.winner().flatten(),
        bounds,
    })?;
    let (margin_nodes, margin_elapsed) = (solver.nodes(), started.elapsed());
    let winner = Player::X.winner_by(x_value);
    let value = x_value * searched.to_move().sign();
    let best_moves = (extent == Extent::WithMoves).then(|| {
        solver.set_budget(budget.less(solver.nodes(), started.elapsed()));
        solver
            .best_moves(searched, value)
            .map_err(|SolveError::Unknown { reason, .. }| reason)
    });
    Ok(Solution {
        winner,
        margin: rule.oriented(x_value),
        value,
        best_moves,
        nodes: solver.nodes(),
        margin_nodes,
        margin_elapsed,
        symmetries,
    })
}

/// A rule written as text or a number (`"swap": 3` and `"swap": "3"` alike).
#[derive(Deserialize)]
#[serde(untagged)]
enum TextOrNumber {
    Text(String),
    Number(u64),
}

impl TextOrNumber {
    fn text(&self) -> String {
        match self {
            TextOrNumber::Text(text) => text.clone(),
            TextOrNumber::Number(n) => n.to_string(),
        }
    }
}

/// The options a game is started with; any other key is refused.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EulerOptions {
    #[serde(default)]
    rule: Option<String>,
    #[serde(default)]
    swap: Option<TextOrNumber>,
    #[serde(default)]
    position: Option<String>,
}

fn start(setup: &Setup, limits: &SetupLimits) -> Result<Box<dyn Match>, SetupError> {
    Ok(GameMatch::<EulerHost>::boxed(setup_game(setup, limits)?))
}

/// The game a host's setup describes, as [`DESCRIPTOR`] starts it, for analyses that
/// need the game itself.
pub fn setup_game(setup: &Setup, limits: &SetupLimits) -> Result<EulerGetter, SetupError> {
    let options: EulerOptions = setup.typed_options(&DESCRIPTOR.info)?;
    let mut game = (|| -> Result<EulerGetter, EulerGetterError> {
        let rule = match &options.rule {
            Some(text) => text.parse()?,
            None => Rule::default(),
        };
        let swap = match &options.swap {
            Some(value) => value.text().parse()?,
            None => SwapRule::default(),
        };
        new_game(setup.board, rule, swap, options.position.as_deref(), limits)
    })()
    .map_err(SetupError::from_error)?;
    setup.play_moves(&mut game)?;
    Ok(game)
}

/// Euler Getter in the catalog.
pub static DESCRIPTOR: GameDescriptor = GameDescriptor {
    info: GameInfo {
        name: "euler-getter",
        title: "Euler Getter",
        summary: "Fill the cells of a board on the projective plane: once it is full, the player whose area has the larger Euler characteristic wins.",
        board_kind: BoardKind::Surface,
        board_label: "board: goldberg:K (the author's boards), taylor:N, a connected sum such as sum:taylor:3+torus:4x4 (any surface of odd characteristic), or a pasted board file",
        default_board: "goldberg:2",
        example_boards: &[
            "goldberg:1",
            "goldberg:2",
            "goldberg:3",
            "goldberg:4",
            "taylor:3",
            "sum:taylor:3+torus:4x4",
        ],
        options: &[
            OptionSpec {
                name: "rule",
                label: "Winner",
                kind: OptionKind::Select,
                choices: Rule::NAMES,
                default: "\"normal\"",
                help: "normal: the larger Euler characteristic wins; reverse: the smaller",
                on_form: true,
            },
            OptionSpec {
                name: "swap",
                label: "Swap after",
                kind: OptionKind::Select,
                choices: SwapRule::NAMES,
                default: "\"3\"",
                help: "the second player may swap colours after this many stones \
                       (equalisation)",
                on_form: true,
            },
            OptionSpec {
                name: "position",
                label: "Position",
                kind: OptionKind::Text,
                choices: &[],
                default: "",
                help: "stones in cell order, `.` empty (`/` and spaces ignored)",
                on_form: false,
            },
            MOVES_OPTION,
        ],
        hint_level: Level::Hard,
        play_level: Level::Medium,
        solve_budget: SolveBudget {
            seconds: 600,
            nodes: None,
        },
        rules: "<p>A game introduced in 2010 and inspired by Hex. The board is a \
                cell complex of the projective plane: cells on the rim are glued to the \
                cells in the symmetric position, so a stone there appears twice.</p>\
                <p>Players take turns placing a stone on an empty cell. When the board is \
                full, each player's area (the closed union of their cells) has an Euler \
                characteristic, vertices minus edges plus faces. The larger one wins (or \
                the smaller, under the reverse rule).</p>\
                <p>There is never a tie: every vertex meets three edges, so the border \
                between the areas is a union of circles with characteristic 0, and the \
                two characteristics add up to that of the projective plane, 1. A disk \
                counts 1, an annulus or a Möbius band 0, each extra hole one less. At \
                the end the page shows each region, its pieces and their loops.</p>\
                <p>The same holds on any closed surface of odd characteristic: a board \
                such as sum:taylor:3+torus:4x4 joins a projective plane and a torus by a \
                tube into three projective planes (χ = −1), and the two areas' \
                characteristics add up to −1.</p>",
    },
    start,
    layout: Some(crosscap_topology::Board::drawing_of),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crosscap_engine::Rng;
    use crosscap_engine::session::SetupLimits;

    /// A position of `spec` with `empties` empty cells, by seeded random play.
    fn random_position(
        spec: &str,
        rule: Rule,
        swap: SwapRule,
        empties: usize,
        seed: u64,
    ) -> EulerGetter {
        let mut game = new_game(spec, rule, swap, None, &SetupLimits::default()).unwrap();
        let mut rng = Rng::new(seed);
        while game.complex().cell_count() - game.placed() > empties {
            let mv = game.random_move(&mut rng).unwrap();
            game.play(&mv);
        }
        game
    }

    /// The terminal's drawing names each player's stones as the board shows them (by
    /// owner), and after a swap says that the players took over each other's stones.
    #[test]
    fn the_drawing_tells_a_swap() {
        let limits = SetupLimits::default();
        let mut game =
            new_game("goldberg:1", Rule::Normal, SwapRule(Some(1)), None, &limits).unwrap();
        game.play(&Move::Place(0));
        assert!(!EulerHost::drawing(&game, false).contains("swapped"));
        game.play(&Move::Swap);
        let text = EulerHost::drawing(&game, false);
        assert!(
            text.contains("\nX: chi 0 ") && text.contains("\nO: chi 1 "),
            "{text}"
        );
        assert!(text.ends_with("(swapped: each player took over the other's stones)"));
    }

    /// The null-window solve (winner, then margin, with the margin bounds) against the
    /// engine's full-window solver without symmetries or bounds' help at the root.
    #[test]
    fn the_tests_agree_with_the_full_window_solver() {
        for spec in ["goldberg:1", "goldberg:2", "taylor:2"] {
            for seed in 0..6 {
                let rule = [Rule::Normal, Rule::Reverse][seed as usize % 2];
                let swap = SwapRule([None, Some(7)][seed as usize / 3 % 2]);
                let game = random_position(spec, rule, swap, 10, seed);
                let expected = Solver::new(Budget::unlimited()).solve(&game).unwrap();
                let solved = solve(&game, &Budget::unlimited()).unwrap();
                let margin = rule.oriented(expected.margin);
                assert_eq!(
                    (solved.margin, solved.value, solved.winner),
                    (margin, expected.value, Player::X.winner_by(expected.margin)),
                    "{spec} seed {seed}"
                );
                assert_eq!(
                    solved.best_moves,
                    Some(Ok(expected.best_moves)),
                    "{spec} seed {seed}"
                );
            }
        }
    }

    /// A solve's moves come in cell order, whatever order the search found them in.
    #[test]
    fn the_answer_lists_the_moves_in_cell_order() {
        let options = json!({"swap": "none", "position": "XO.XO.XO............."});
        let setup = catalog::Setup {
            board: "goldberg:2",
            options: &options,
        };
        let game = (DESCRIPTOR.start)(&setup, &SetupLimits::default()).unwrap();
        let solved = game.solve(&Budget::unlimited());
        let Moves::Known { optimal, .. } = &solved.moves else {
            panic!("{solved:?}")
        };
        let cells: Vec<u32> = optimal.iter().map(|m| m.parse().unwrap()).collect();
        assert!(cells.len() > 10, "{cells:?}");
        assert!(cells.is_sorted(), "{cells:?}");
    }

    /// Two threads sharing the table solve as one does: the winner, margin, value and every
    /// best move, on the empty goldberg:1 and on endgames of goldberg:1 and goldberg:2 under
    /// both rules (node counts may differ).
    #[test]
    fn two_threads_solve_as_one() {
        let limits = SetupLimits::default();
        let empty = new_game("goldberg:1", Rule::Normal, SwapRule(None), None, &limits).unwrap();
        let endgames = (0..6).flat_map(|seed| {
            let rule = [Rule::Normal, Rule::Reverse][seed as usize % 2];
            ["goldberg:1", "goldberg:2"]
                .map(|spec| random_position(spec, rule, SwapRule(None), 13, seed))
        });
        for game in std::iter::once(empty).chain(endgames) {
            let one = solve(&game, &Budget::unlimited()).unwrap();
            let two = solve(&game, &Budget::unlimited().with_threads(2)).unwrap();
            assert_eq!(
                Solution {
                    nodes: one.nodes,
                    margin_nodes: one.margin_nodes,
                    margin_elapsed: one.margin_elapsed,
                    ..two
                },
                one,
                "{}",
                EulerHost::position(&game)
            );
        }
    }

    /// A budget that runs out before the margin is proven reports the winner and margin
    /// bounds proven so far, each true of the exact answer, and never `solved`; one that
    /// runs out on the optimal moves answers the exact winner and margin, the moves
    /// unknown.
    #[test]
    fn a_solve_cut_short_keeps_what_it_proved() {
        let game = random_position("taylor:3", Rule::Reverse, SwapRule(None), 13, 4);
        let exact = solve(&game, &Budget::unlimited()).unwrap();
        let symmetries = Arc::new(game.complex().board().symmetries());
        let (mut partial, mut without_moves) = (0, 0);
        // Budgets from 50 nodes up by 6% a step, past the whole solve.
        for max_nodes in (0..120).map(|i| (50.0 * 1.06f64.powi(i)) as u64) {
            let budget = Budget::nodes(max_nodes);
            match solve_with(&game, symmetries.clone(), &budget, Extent::WithMoves) {
                Ok(solution) => {
                    let moves_cut = solution.best_moves.as_ref().is_some_and(Result::is_err);
                    without_moves += usize::from(moves_cut);
                    assert!(moves_cut || solution.best_moves == exact.best_moves);
                    assert_eq!(
                        solution,
                        Solution {
                            nodes: solution.nodes,
                            margin_nodes: solution.margin_nodes,
                            margin_elapsed: solution.margin_elapsed,
                            best_moves: solution.best_moves.clone(),
                            ..exact.clone()
                        }
                    );
                }
                Err(cut) => {
                    let keys = cut.margin_keys(game.rule());
                    let least = keys.get("margin_at_least").and_then(Value::as_i64);
                    let most = keys.get("margin_at_most").and_then(Value::as_i64);
                    let margin = i64::from(exact.margin);
                    assert!(least.is_none_or(|l| l <= margin) && most.is_none_or(|m| m >= margin));
                    assert!(cut.winner.is_none_or(|w| Some(w) == exact.winner));
                    partial += usize::from(least.is_some() || most.is_some());
                }
            }
        }
        assert!(partial > 0, "some budget ran out after a test was answered");
        assert!(
            without_moves > 0,
            "some budget ran out on the optimal moves"
        );
        let analysis = EulerHost::analyse(&game, &Budget::nodes(1)).unwrap_err();
        assert!(analysis.winner.is_none());
    }
}
