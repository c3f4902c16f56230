//! The `crosscap` Python module: Crosscap's games, boards, exact solvers, tables and arenas
//! for notebooks (Jupyter, SageMath).
//!
//! Every game is started the way the CLI and the server start it, through the catalog's
//! `GameDescriptor::start` within the same `SetupLimits`, and answered through the one
//! `Match` interface, so Python sees the same answers (`solve` is the CLI's `--json`
//! document as a dict). Bad input raises `ValueError`; a search whose budget runs out raises
//! `BudgetExceeded`, whose `answer` holds what was found. Searches release the GIL and stop when Python is interrupted.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use crosscap_catalog::standard;
use crosscap_edge_nim::{
    CheckBox, EdgeNim, PTable, Predicate, TableBox, check_predicate, parse_tokens,
};
use crosscap_engine::budget::{DEFAULT_MAX_MEMORY, MAX_SECONDS, MEMORY_RANGE};
use crosscap_engine::catalog::{GameDescriptor, MOVES_OPTION, Setup, Status};
use crosscap_engine::impartial_notation::ImpartialNotation;
use crosscap_engine::session::{ArenaRun, Hint, Match, SetupLimits};
use crosscap_engine::{Budget, Cancel, Exhausted, Impartial, Level, MisereOf, misere_within};
use crosscap_graphs::Graph;
use crosscap_manifold::{MAX_GENUS, Manifold, Series, length};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use serde::Serialize;
use serde_json::{Map, Value};

create_exception!(
    crosscap,
    BudgetExceeded,
    PyException,
    "A search ran out of its budget (time, nodes or memory); `answer` holds what was found."
);

/// Memory a search may hold by default, as on the command line.
const DEFAULT_MAX_MEMORY_MIB: u64 = (DEFAULT_MAX_MEMORY >> 20) as u64;
/// The longest a computer move may think unless told, as on the command line.
const MOVE_SECONDS: f64 = 60.0;
/// The most rows a listed table returns (larger ones: count them on the command line).
const MAX_ROWS: u64 = 1_000_000;

fn bad_input(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// An Edge-Nim table refused: `BudgetExceeded` (with no answer) when it would not fit
/// `max_memory_mib`, which a larger budget lifts, as the CLI exits 3 for it; else bad input.
fn table_refused(py: Python<'_>, error: crosscap_edge_nim::EdgeNimError) -> PyErr {
    if error.stopped_by() != Exhausted::Memory {
        return bad_input(error);
    }
    let exceeded = BudgetExceeded::new_err(error.to_string());
    match exceeded.value(py).setattr("answer", py.None()) {
        Ok(()) => exceeded,
        Err(failed) => failed,
    }
}

/// An answer as plain Python objects, or `BudgetExceeded` holding it as `answer` when its
/// search ran out (`stopped` words why, from the reason).
fn answered<'py>(
    py: Python<'py>,
    answer: &impl Serialize,
    status: Status,
    stopped: impl FnOnce(Exhausted) -> String,
) -> PyResult<Bound<'py, PyAny>> {
    let value = to_python(py, answer)?;
    match status {
        Status::Solved => Ok(value),
        Status::Unknown { reason } => {
            let error = BudgetExceeded::new_err(stopped(reason));
            error.value(py).setattr("answer", value)?;
            Err(error)
        }
    }
}

/// Any serialisable answer as plain Python objects (dicts, lists, numbers, strings).
fn to_python<'py>(py: Python<'py>, value: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value).map_err(bad_input)?;
    py.import("json")?.call_method1("loads", (text,))
}

/// Bytes from MiB, refusing what the command line refuses (1 MiB to 1024 GiB).
fn memory(mib: u64) -> PyResult<usize> {
    let (least, most) = (MEMORY_RANGE.0 as u64 >> 20, MEMORY_RANGE.1 as u64 >> 20);
    if !(least..=most).contains(&mib) {
        return Err(bad_input(format!(
            "max_memory_mib must be from {least} to {most}, not {mib}"
        )));
    }
    Ok((mib as usize) << 20)
}

/// A budget from seconds, nodes and MiB, refusing what the command line refuses.
fn budget(seconds: f64, nodes: Option<u64>, memory_mib: u64) -> PyResult<Budget> {
    if !(seconds > 0.0 && seconds <= MAX_SECONDS) {
        return Err(bad_input(format!(
            "max_seconds must be above 0 and at most {MAX_SECONDS}, not {seconds}"
        )));
    }
    let budget = Budget::time(Duration::from_secs_f64(seconds)).with_memory(memory(memory_mib)?);
    Ok(match nodes {
        Some(nodes) => budget.with_nodes(nodes),
        None => budget,
    })
}

/// Runs a search off the GIL on a thread of its own, raising `cancel` (which the search's
/// budget holds) when Python is interrupted (Ctrl-C, Jupyter's Interrupt): the search stops
/// within milliseconds and the interrupt is raised instead of waiting out the budget.
fn interruptible<T: Send>(
    py: Python<'_>,
    cancel: &Cancel,
    search: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let running = scope.spawn(search);
        while !running.is_finished() {
            py.detach(|| std::thread::sleep(Duration::from_millis(20)));
            if let Err(interrupt) = py.check_signals() {
                cancel.cancel();
                let _ = running.join();
                return Err(interrupt);
            }
        }
        running
            .join()
            .map_err(|_| PyRuntimeError::new_err("the search failed unexpectedly"))
    })
}

fn level(text: &str) -> PyResult<Level> {
    Level::from_str(text).map_err(bad_input)
}

fn descriptor(game: &str) -> PyResult<&'static GameDescriptor> {
    standard().find(game).map_err(bad_input)
}

/// An option's value as the command line would pass it: text, a list joined by
/// `separator`.
fn option_text(value: &Bound<'_, PyAny>, separator: &str) -> PyResult<String> {
    if value.is_instance_of::<PyString>() {
        return value.extract();
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        let items: Vec<String> = value
            .try_iter()?
            .map(|item| item.and_then(|item| option_text(&item, separator)))
            .collect::<PyResult<_>>()?;
        return Ok(items.join(separator));
    }
    value.str()?.extract()
}

/// The names of the games, in the order the web app lists them.
#[pyfunction]
fn games() -> Vec<&'static str> {
    standard().names()
}

/// What a game is: title, rules, board kind, default and example boards, options.
#[pyfunction]
fn info<'py>(py: Python<'py>, game: &str) -> PyResult<Bound<'py, PyAny>> {
    to_python(py, &descriptor(game)?.info)
}

/// A game in progress: started from a board (the game's default when `None`) and options
/// given as keywords (`opening="swap"`, `tokens=[1, 2, 0, 2]`), played by moves in the
/// game's notation.
#[pyclass(module = "crosscap")]
struct Game {
    game: Box<dyn Match>,
    descriptor: &'static GameDescriptor,
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (game, board=None, **options))]
    fn new(game: &str, board: Option<&str>, options: Option<&Bound<'_, PyDict>>) -> PyResult<Game> {
        let descriptor = descriptor(game)?;
        let mut values = Map::new();
        for (key, value) in options.into_iter().flatten() {
            let key: String = key.extract()?;
            // Moves are separated as the command line separates them; other lists (tokens)
            // by commas.
            let separator = if key == MOVES_OPTION.name { " " } else { "," };
            values.insert(key, Value::String(option_text(&value, separator)?));
        }
        let options = Value::Object(values);
        let setup = Setup {
            board: board.unwrap_or(descriptor.info.default_board),
            options: &options,
        };
        let game = (descriptor.start)(&setup, &SetupLimits::default()).map_err(bad_input)?;
        Ok(Game { game, descriptor })
    }

    /// The game's name, e.g. `projective-hex`.
    #[getter]
    fn name(&self) -> &'static str {
        self.game.game()
    }

    /// `"X"` or `"O"`, or `None` once the game is over.
    #[getter]
    fn to_move(&self) -> Option<String> {
        self.game.to_move().map(|p| p.to_string())
    }

    /// The position in the game's own text form.
    #[getter]
    fn position(&self) -> String {
        self.game.position()
    }

    #[getter]
    fn is_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// `None` while the game goes on, then `{"winner": "X" | "O" | None, "margin": n}`.
    #[getter]
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.game.outcome())
    }

    /// Every legal move, in notation.
    fn legal_moves(&self) -> Vec<String> {
        self.game.legal_moves()
    }

    /// Plays a move given in notation and returns it normalised; a refused move raises
    /// `ValueError` and changes nothing.
    fn play(&mut self, mv: &str) -> PyResult<String> {
        self.game.play(mv).map_err(bad_input)
    }

    /// What the web app draws beyond the moves: scores, regions, owners (a dict).
    fn view<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.game.view())
    }

    /// The exact answer for the position (the CLI's `solve --json` as a dict: `winner`,
    /// `value`, `value_kind`, `winning_moves`, ...). The budget defaults to the game's, as
    /// on the command line; when it runs out, `BudgetExceeded` is raised.
    #[pyo3(signature = (max_seconds=None, max_nodes=None, max_memory_mib=DEFAULT_MAX_MEMORY_MIB))]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        max_seconds: Option<f64>,
        max_nodes: Option<u64>,
        max_memory_mib: u64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let default = self.descriptor.info.solve_budget;
        let budget = budget(
            max_seconds.unwrap_or(default.seconds as f64),
            max_nodes.or(default.nodes),
            max_memory_mib,
        )?;
        let cancel = Cancel::new();
        let budget = budget.with_cancel(cancel.clone());
        let solved = interruptible(py, &cancel, || self.game.solve(&budget))?;
        answered(py, &solved, solved.status, |reason| {
            format!("the search stopped ({reason}) after {} nodes", solved.nodes)
        })
    }

    /// The computer's move at `level` (`perfect`, `expert`, `mcts:N`, `random`, ...; the
    /// game's hint level when `None`), or `None` once the game is over.
    #[pyo3(signature = (level=None, seed=0, max_seconds=MOVE_SECONDS))]
    fn hint(
        &self,
        py: Python<'_>,
        level: Option<&str>,
        seed: u64,
        max_seconds: f64,
    ) -> PyResult<Option<String>> {
        Ok(self
            .hint_at(py, level, seed, max_seconds)?
            .map(|(_, hint)| hint.notation))
    }

    /// [`hint`] as the web API answers it: a dict of `move`, `level`, `proven` (whether an
    /// exact solve proved the move optimal), `result` (then what the position is worth
    /// to the player to move: `win`, `draw` or `loss`; else `None`) and `reason` (why a
    /// `perfect` hint is not proven: `out of reach`, `beyond`, `time`, ...; else `None`),
    /// or `None` once the game is over.
    #[pyo3(signature = (level=None, seed=0, max_seconds=MOVE_SECONDS))]
    fn hint_details<'py>(
        &self,
        py: Python<'py>,
        level: Option<&str>,
        seed: u64,
        max_seconds: f64,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.hint_at(py, level, seed, max_seconds)?
            .map(|(level, hint)| to_python(py, &hint.details(level)))
            .transpose()
    }

    /// Plays `games` games from this position between levels `a` and `b`, colours
    /// alternating, each move within `max_seconds`; seeded, so a run reproduces. Returns
    /// the report (wins, draws, A's win rate and its 95% interval, time per move).
    #[pyo3(signature = (a, b, games=10, seed=0, max_seconds=MOVE_SECONDS))]
    fn arena<'py>(
        &self,
        py: Python<'py>,
        a: &str,
        b: &str,
        games: usize,
        seed: u64,
        max_seconds: f64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (a, b) = (level(a)?, level(b)?);
        if !(1..=1_000_000).contains(&games) {
            return Err(bad_input(format!(
                "games must be from 1 to 1000000, not {games}"
            )));
        }
        let cancel = Cancel::new();
        let run = ArenaRun {
            budget: budget(max_seconds, None, DEFAULT_MAX_MEMORY_MIB)?.with_cancel(cancel.clone()),
            on_game_done: &|| {},
            equal_time: false,
            a_threads: 1,
            b_threads: 1,
        };
        let report = interruptible(py, &cancel, || self.game.arena(a, b, games, seed, &run))?;
        to_python(py, &report)
    }

    /// An independent copy, to try moves on.
    fn copy(&self) -> Game {
        Game {
            game: self.game.clone_box(),
            descriptor: self.descriptor,
        }
    }

    /// The position drawn as text, as the terminal shows it.
    fn __str__(&self) -> String {
        self.game.drawing(false)
    }

    fn __repr__(&self) -> String {
        format!("Game({:?}, position={:?})", self.name(), self.position())
    }
}

impl Game {
    /// The computer's move at `level` (the game's hint level when `None`), with the level.
    fn hint_at(
        &self,
        py: Python<'_>,
        level: Option<&str>,
        seed: u64,
        max_seconds: f64,
    ) -> PyResult<Option<(Level, Hint)>> {
        let level = match level {
            Some(text) => self::level(text)?,
            None => self.descriptor.info.hint_level,
        };
        let cancel = Cancel::new();
        let budget = budget(max_seconds, None, DEFAULT_MAX_MEMORY_MIB)?.with_cancel(cancel.clone());
        let hint = interruptible(py, &cancel, || self.game.hint(level, seed, &budget))?;
        Ok(hint.map(|hint| (level, hint)))
    }
}

/// A board of Euler Getter and Projective Hex: a cell complex of a closed surface, from a
/// spec (`taylor:3`, `goldberg:2`, `torus:4x6`, `klein:4x6`, `file:PATH`).
#[pyclass(module = "crosscap", frozen)]
struct Board {
    board: crosscap_topology::Board,
}

#[pymethods]
impl Board {
    #[new]
    fn new(spec: &str) -> PyResult<Board> {
        let board = crosscap_topology::Board::from_spec(spec).map_err(bad_input)?;
        Ok(Board { board })
    }

    #[getter]
    fn name(&self) -> &str {
        self.board.name()
    }

    /// The surface, e.g. `projective plane`.
    #[getter]
    fn surface(&self) -> String {
        self.board.surface().to_string()
    }

    /// χ = V − E + F of the whole surface.
    #[getter]
    fn euler_characteristic(&self) -> i64 {
        self.board.euler_characteristic()
    }

    #[getter]
    fn orientable(&self) -> bool {
        self.board.is_orientable()
    }

    #[getter]
    fn trivalent(&self) -> bool {
        self.board.is_trivalent()
    }

    #[getter]
    fn vertices(&self) -> usize {
        self.board.vertex_count()
    }

    #[getter]
    fn edges(&self) -> usize {
        self.board.edge_count()
    }

    /// The cells' names in cell order: the order of every position string.
    #[getter]
    fn cells(&self) -> Vec<String> {
        (0..self.board.cell_count())
            .map(|cell| self.board.cell_name(cell).to_string())
            .collect()
    }

    /// Each cell's neighbours, by name.
    fn neighbours(&self, cell: &str) -> PyResult<Vec<String>> {
        let index = self.cell(cell)?;
        Ok(self
            .board
            .neighbors(index)
            .iter()
            .map(|&n| self.board.cell_name(n).to_string())
            .collect())
    }

    /// χ of the closure of a set of cells (named), as Euler Getter scores a region.
    fn region_euler_characteristic(&self, cells: Vec<String>) -> PyResult<i64> {
        let mut in_region = vec![false; self.board.cell_count()];
        for name in &cells {
            in_region[self.cell(name)?] = true;
        }
        Ok(self.board.region_euler_characteristic(&in_region))
    }

    /// The board's flat drawing as SVG text in the web app's colours (show it with
    /// `IPython.display.SVG`): `position` colours its stones, `mark` outlines cells by name
    /// (a winning loop, say), every copy drawn of them.
    #[pyo3(signature = (position=None, mark=None))]
    fn svg(&self, position: Option<&str>, mark: Option<Vec<String>>) -> PyResult<String> {
        let stones = position
            .map(|text| self.board.parse_position(text).map_err(bad_input))
            .transpose()?;
        let marked = mark
            .unwrap_or_default()
            .iter()
            .map(|name| self.cell(name))
            .collect::<PyResult<Vec<usize>>>()?;
        let options = crosscap_topology::SvgOptions {
            marked,
            ..Default::default()
        };
        Ok(self
            .board
            .svg(stones.as_ref().map(|p| p.cells.as_slice()), &options))
    }

    /// Jupyter shows a board as its drawing.
    fn _repr_svg_(&self) -> String {
        self.board.svg(None, &Default::default())
    }

    fn __repr__(&self) -> String {
        format!(
            "Board({:?}: {}, {} cells)",
            self.board.spec(),
            self.board.surface(),
            self.board.cell_count()
        )
    }
}

impl Board {
    fn cell(&self, name: &str) -> PyResult<usize> {
        self.board
            .cell_index(name)
            .ok_or_else(|| bad_input(format!("no cell named {name:?} on {}", self.board.spec())))
    }
}

/// The G-series of the manifold game to `max_genus`: `{"orientable": [G(o_0), ...],
/// "nonorientable": [G(n_0), ...]}`.
#[pyfunction]
fn manifold_series<'py>(py: Python<'py>, max_genus: u32) -> PyResult<Bound<'py, PyAny>> {
    check_genus(max_genus)?;
    let series = py.detach(|| Series::compute(max_genus));
    let dict = PyDict::new(py);
    let values = |g: &[u8]| g.iter().map(|&v| u32::from(v)).collect::<Vec<u32>>();
    dict.set_item("orientable", values(series.orientable()))?;
    dict.set_item("nonorientable", values(series.nonorientable()))?;
    Ok(dict.into_any())
}

/// The paper's Table 2.1 to `max_genus`: a row per genus with G(o_g), G(n_g) and the moves
/// from n_g (letters, result, Grundy value).
#[pyfunction]
fn manifold_table<'py>(py: Python<'py>, max_genus: u32) -> PyResult<Bound<'py, PyAny>> {
    check_genus(max_genus)?;
    let rows = py.detach(|| crosscap_manifold::table(&Series::compute(max_genus), max_genus));
    to_python(py, &rows)
}

fn check_genus(max_genus: u32) -> PyResult<()> {
    if max_genus > MAX_GENUS {
        return Err(bad_input(format!("max_genus is at most {MAX_GENUS}")));
    }
    Ok(())
}

/// The P-positions of Edge-Nim on `graph` (a spec: `tetrahedron`, `C4`, `g6:...`) with every
/// edge from 0 to `max`, the edges of `fix` (`"a=0"`) held at their value: a list of token
/// tuples in edge order, lexicographically.
#[pyfunction]
#[pyo3(signature = (graph, max, fix=None, max_memory_mib=DEFAULT_MAX_MEMORY_MIB))]
fn edge_nim_p_positions<'py>(
    py: Python<'py>,
    graph: &str,
    max: u32,
    fix: Option<&str>,
    max_memory_mib: u64,
) -> PyResult<Vec<Bound<'py, PyTuple>>> {
    let graph = Graph::from_spec(graph).map_err(bad_input)?;
    let within = TableBox::new(&graph, max, fix).map_err(bad_input)?;
    let memory = memory(max_memory_mib)? as u64;
    let table = py
        .detach(|| PTable::compute(&graph, &within.bounds(), memory, &|_| {}))
        .map_err(|error| table_refused(py, error))?;
    let count = table.count_in(&within);
    if count > MAX_ROWS {
        return Err(bad_input(format!(
            "{count} P-positions: more than {MAX_ROWS} rows (count them with `crosscap edge-nim p-positions --count`)"
        )));
    }
    table
        .p_positions_in(&within)
        .map(|tokens| PyTuple::new(py, tokens))
        .collect()
}

/// Edge-Nim's edge names of `graph` in edge order (`a b c A B C` on the tetrahedron).
#[pyfunction]
fn edge_names(graph: &str) -> PyResult<Vec<String>> {
    let graph = Graph::from_spec(graph).map_err(bad_input)?;
    Ok(crosscap_edge_nim::edge_names(&graph))
}

/// Checks a conjecture about Edge-Nim on `graph`, as `crosscap edge-nim check` does:
/// whether `predicate` (over the edges' names: `+ - * xor == != <= < >= > and or not`)
/// holds exactly of the P-positions with every edge from 0 to `max`, the edges of `fix`
/// held at their value, read up to the graph's automorphisms fixing them when
/// `up_to_symmetry`. A dict with the keys of the CLI's `--json`: `graph`, `edges`, `max`,
/// `fixed`, `up_to_symmetry`, `holds`, `positions`, `p_positions`, and the first
/// counterexample each way (`p_not_predicate`, `predicate_not_p`, tokens in edge order).
#[pyfunction]
#[pyo3(signature = (graph, max, predicate, fix=None, up_to_symmetry=false, max_memory_mib=DEFAULT_MAX_MEMORY_MIB))]
fn edge_nim_check<'py>(
    py: Python<'py>,
    graph: &str,
    max: u32,
    predicate: &str,
    fix: Option<&str>,
    up_to_symmetry: bool,
    max_memory_mib: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let graph = Graph::from_spec(graph).map_err(bad_input)?;
    let within = TableBox::new(&graph, max, fix).map_err(bad_input)?;
    let predicate = Predicate::parse(&graph, predicate).map_err(bad_input)?;
    let region = CheckBox {
        max,
        fixed: within.fixed.clone(),
        up_to_symmetry,
    };
    let memory = memory(max_memory_mib)? as u64;
    let check = py
        .detach(|| check_predicate(&graph, &predicate, &region, memory, &|_| {}))
        .map_err(|error| table_refused(py, error))?;
    let answer = to_python(py, &check)?;
    answer.set_item("graph", graph.spec())?;
    answer.set_item("edges", crosscap_edge_nim::edge_names(&graph))?;
    answer.set_item("max", max)?;
    answer.set_item("fixed", to_python(py, &within.fixed_names(&graph))?)?;
    answer.set_item("up_to_symmetry", up_to_symmetry)?;
    Ok(answer)
}

/// A position's misère answer (the player who cannot move wins), searched whole within
/// `budget` as `--misere` does, and stopped by an interrupt: the position by the keys in
/// `named` (as the CLI's `--json` names it), `outcome` (P or N) and `winning_moves`;
/// `BudgetExceeded` when the budget runs out.
fn misere_answer<'py, G: Impartial + Send + 'static>(
    py: Python<'py>,
    position: G,
    named: impl Serialize,
    budget: Budget,
    name: impl Fn(&G::Move) -> String + Send,
) -> PyResult<Bound<'py, PyAny>> {
    let cancel = Cancel::new();
    let budget = budget.with_cancel(cancel.clone());
    let misere = interruptible(py, &cancel, || misere_within(position, budget, name))?;
    let answer = MisereOf {
        position: named,
        misere: &misere,
    };
    answered(py, &answer, misere.answer.status, |reason| {
        format!("the misère search stopped ({reason})")
    })
}

/// Edge-Nim under misère play: `graph` a spec, `tokens` in edge order (a list) or as
/// `"a=3,b=1"`; searched within `max_seconds`, `max_nodes` and `max_memory_mib`, as
/// `crosscap edge-nim value --misere`.
#[pyfunction]
#[pyo3(signature = (graph, tokens, max_memory_mib=DEFAULT_MAX_MEMORY_MIB, *, max_seconds=60.0, max_nodes=None))]
fn edge_nim_misere<'py>(
    py: Python<'py>,
    graph: &str,
    tokens: &Bound<'py, PyAny>,
    max_memory_mib: u64,
    max_seconds: f64,
    max_nodes: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let budget = budget(max_seconds, max_nodes, max_memory_mib)?;
    let graph = Arc::new(Graph::from_spec(graph).map_err(bad_input)?);
    let tokens = parse_tokens(&graph, &option_text(tokens, ",")?).map_err(bad_input)?;
    let position = EdgeNim::new(graph, tokens).map_err(bad_input)?;
    let named = position.clone();
    let facts = position.facts();
    misere_answer(py, position, facts, budget, move |m| named.format_move(m))
}

/// The manifold game under misère play, from surfaces such as `"n3 o2"`; searched within
/// `max_seconds`, `max_nodes` and `max_memory_mib`, as `crosscap manifold value --misere`.
#[pyfunction]
#[pyo3(signature = (surfaces, max_memory_mib=DEFAULT_MAX_MEMORY_MIB, *, max_seconds=60.0, max_nodes=None))]
fn manifold_misere<'py>(
    py: Python<'py>,
    surfaces: &str,
    max_memory_mib: u64,
    max_seconds: f64,
    max_nodes: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let budget = budget(max_seconds, max_nodes, max_memory_mib)?;
    let position: Manifold = surfaces.parse().map_err(bad_input)?;
    let named = serde_json::json!({ "position": position });
    misere_answer(py, position, named, budget, |m| m.to_string())
}

/// How long the manifold game lasts from `surfaces` (`"n5 o2"`), as `crosscap manifold
/// length`: `longest` and `shortest` over all plays, and `remoteness` under optimal play
/// (`BudgetExceeded`, holding the two others, when its search runs out).
#[pyfunction]
#[pyo3(signature = (surfaces, max_seconds=60.0, max_nodes=None, max_memory_mib=DEFAULT_MAX_MEMORY_MIB))]
fn manifold_length<'py>(
    py: Python<'py>,
    surfaces: &str,
    max_seconds: f64,
    max_nodes: Option<u64>,
    max_memory_mib: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let position: Manifold = surfaces.parse().map_err(bad_input)?;
    let budget = budget(max_seconds, max_nodes, max_memory_mib)?;
    let cancel = Cancel::new();
    let budget = budget.with_cancel(cancel.clone());
    let found = interruptible(py, &cancel, || length(position, &budget))?.map_err(bad_input)?;
    answered(py, &found, found.remoteness.status, |reason| {
        format!("the remoteness search stopped ({reason})")
    })
}

#[pymodule]
fn crosscap(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("BudgetExceeded", m.py().get_type::<BudgetExceeded>())?;
    m.add_class::<Game>()?;
    m.add_class::<Board>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(info, m)?)?;
    m.add_function(wrap_pyfunction!(manifold_series, m)?)?;
    m.add_function(wrap_pyfunction!(manifold_table, m)?)?;
    m.add_function(wrap_pyfunction!(edge_nim_p_positions, m)?)?;
    m.add_function(wrap_pyfunction!(edge_names, m)?)?;
    m.add_function(wrap_pyfunction!(edge_nim_check, m)?)?;
    m.add_function(wrap_pyfunction!(edge_nim_misere, m)?)?;
    m.add_function(wrap_pyfunction!(manifold_misere, m)?)?;
    m.add_function(wrap_pyfunction!(manifold_length, m)?)?;
    Ok(())
}
