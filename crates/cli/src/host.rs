//! The command line as a host of any catalog: `GAME solve|hint|play|arena`, one code path
//! each for every game, with the flags its [`GameInfo`] describes (the board, each option,
//! `--opt KEY=VALUE` for any option) beside the budget and computer flags all games share.

use std::io::IsTerminal;
use std::marker::PhantomData;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use crosscap_engine::catalog::{
    BoardKind, Catalog, GameDescriptor, GameInfo, Moves, Part, Setup, SetupError, Solved, Spent,
    Status, ValueKind, Winner,
};
use crosscap_engine::session::Match;
use crosscap_engine::{Exhausted, Level, Player};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::limits::{BudgetArgs, default_seconds, setup_limits, solve_budget};
use crate::output::{Answer, Output, nodes_text, part_text, ran_out, status_text, with_search_bar};
use crate::terminal::{
    ArenaArgs, ComputerArgs, LadderArgs, PlayArgs, play_in_terminal, proof_note, run_arena,
    run_ladder,
};

/// The verbs every game has, and what each does.
const VERBS: [(&str, &str); 5] = [
    (
        "solve",
        "Who wins with perfect play, the value, and the winning and optimal moves (the same \
         answer for every game)",
    ),
    ("hint", "The computer's move for the player to move"),
    (
        "play",
        "Plays the game in the terminal against the computer: type a move, `moves`, \
         `hint [LEVEL]`, `undo` or `quit`",
    ),
    (
        "arena",
        "Plays two computer levels against each other, colours alternating",
    ),
    (
        "ladder",
        "Rates computer levels in Elo from a round robin between them",
    ),
];

/// Adds to `root` a subcommand per game of `catalog` with the verbs every game has; `own`
/// then adds the game's own commands (given the game's name).
pub fn add_games(
    root: Command,
    catalog: &Catalog,
    own: &dyn Fn(&str, Command) -> Command,
) -> Command {
    catalog.games().fold(root, |root, game| {
        let info = &game.info;
        let mut command = own(info.name, verbs(info));
        // Described here, after the flags' own descriptions (which clap lends to the
        // commands they are added to), and listed first.
        for (order, (verb, about)) in VERBS.iter().enumerate() {
            command = command.mut_subcommand(verb, |c| c.about(*about).display_order(order));
        }
        let names: Vec<&str> = VERBS
            .iter()
            .map(|(verb, _)| *verb)
            .chain(
                command
                    .get_subcommands()
                    .map(Command::get_name)
                    .filter(|name| VERBS.iter().all(|(verb, _)| verb != name)),
            )
            .collect();
        let about = format!("{}: {}.", info.title, names.join(", "));
        let long_about = format!("{}\n\n{about}", info.summary);
        root.subcommand(command.about(about).long_about(long_about))
    })
}

/// The game's subcommand with `solve`, `hint`, `play` and `arena`.
fn verbs(info: &GameInfo) -> Command {
    let mut solve = BudgetArgs::augment_args(Command::new("solve")).mut_arg(
        "max_seconds",
        default_seconds(info.solve_budget.seconds.to_string()),
    );
    if let Some(nodes) = info.solve_budget.nodes {
        solve = solve.mut_arg("max_nodes", |arg| {
            arg.default_value(nodes.to_string())
                .help("Give up after this many nodes, the search's unit of work, in each search")
        });
    }
    let level = |command: Command, default: Level| {
        command.mut_arg("level", |arg| {
            arg.help(format!(
                "The computer's level: easy, medium, hard, expert, perfect, random, flatmc:N \
                 (N up to 20000), mcts:N (N up to 1000000) [default: {default}]"
            ))
        })
    };
    let hint = ComputerArgs::augment_args(Command::new("hint"));
    let play = PlayArgs::augment_args(Command::new("play"));
    let arena = ArenaArgs::augment_args(Command::new("arena"));
    let ladder = LadderArgs::augment_args(Command::new("ladder"));
    Command::new(info.name)
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(setup_args(solve, info))
        .subcommand(setup_args(level(hint, info.hint_level), info))
        .subcommand(setup_args(level(play, info.play_level), info))
        .subcommand(setup_args(arena, info))
        .subcommand(setup_args(ladder, info))
}

/// The id of the argument that holds the board text.
fn board_id(info: &GameInfo) -> &'static str {
    match info.board_kind {
        BoardKind::Surface | BoardKind::Heaps | BoardKind::Surfaces => "board",
        BoardKind::Graph => "graph",
    }
}

/// The positional argument of games whose board is a list (heaps, surfaces).
fn listed_board(info: &GameInfo) -> Option<&'static str> {
    match info.board_kind {
        BoardKind::Heaps => Some("heaps"),
        BoardKind::Surfaces => Some("surfaces"),
        BoardKind::Surface | BoardKind::Graph => None,
    }
}

/// Adds the flags that set a game up: the board (`--board`, `--graph` for graphs, the
/// other as an alias; heaps and surfaces also as positional arguments), a flag per option
/// and `--opt KEY=VALUE` for any option.
pub fn setup_args(command: Command, info: &GameInfo) -> Command {
    let help = format!("The {}", info.board_label);
    let mut command = match (info.board_kind, listed_board(info)) {
        (_, Some(list)) => command
            .arg(
                Arg::new(list)
                    .value_name(list.to_uppercase())
                    .num_args(1..)
                    .required_unless_present("board")
                    .help(format!("{help}, e.g. `{}`", info.default_board)),
            )
            .arg(
                Arg::new("board")
                    .long("board")
                    .visible_alias("graph")
                    .value_name("BOARD")
                    .conflicts_with(list)
                    .help(format!("{help}, as one text")),
            ),
        (BoardKind::Graph, None) => command.arg(
            Arg::new("graph")
                .long("graph")
                .visible_alias("board")
                .value_name("GRAPH")
                .required(true)
                .help(help),
        ),
        _ => command.arg(
            Arg::new("board")
                .long("board")
                .visible_alias("graph")
                .value_name("BOARD")
                .default_value(info.default_board)
                .help(help),
        ),
    };
    for option in info.options {
        let mut help = capitalised(option.help);
        if !option.choices.is_empty() {
            help += &format!(" ({})", option.choices.join(", "));
        }
        if let Ok(Value::String(default)) = serde_json::from_str(option.default)
            && !default.is_empty()
        {
            help += &format!(" [default: {default}]");
        }
        command = command.arg(
            Arg::new(option.name)
                .long(option.flag())
                .value_name(option.name.to_uppercase())
                // A value such as `-1,0,0` is the option's to refuse with its own reason,
                // not an unknown flag.
                .allow_hyphen_values(true)
                .help(help),
        );
    }
    let names: Vec<&str> = info.options.iter().map(|o| o.name).collect();
    command.arg(
        Arg::new("opt")
            .long("opt")
            .value_name("KEY=VALUE")
            .action(ArgAction::Append)
            .value_parser(parse_option)
            .help(format!(
                "Any option of the game, as its name and a value (the options: {})",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            )),
    )
}

/// An option's help as a flag's: the catalog writes it lower-case, as part of a sentence.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |first| {
        first.to_uppercase().collect::<String>() + chars.as_str()
    })
}

/// `KEY=VALUE`.
fn parse_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((key, value)) if !key.trim().is_empty() => {
            Ok((key.trim().to_string(), value.to_string()))
        }
        _ => Err("expected KEY=VALUE, e.g. swap=none".to_string()),
    }
}

/// A game's setup as the command line gives it: the board text and the options, each as
/// text (the flags first, then `--opt` in order).
#[derive(Clone, Debug)]
pub struct GameSetup {
    pub board: String,
    options: Vec<(String, String)>,
}

impl GameSetup {
    /// Reads the flags of [`setup_args`].
    pub fn read(matches: &ArgMatches, info: &GameInfo) -> GameSetup {
        let text = |id: &str| matches.get_one::<String>(id).cloned();
        let listed = listed_board(info).and_then(|list| {
            matches
                .get_many::<String>(list)
                .map(|items| items.cloned().collect::<Vec<_>>().join(" "))
        });
        let mut options: Vec<(String, String)> = info
            .options
            .iter()
            .filter_map(|option| text(option.name).map(|value| (option.name.to_string(), value)))
            .collect();
        for (key, value) in matches
            .get_many::<(String, String)>("opt")
            .into_iter()
            .flatten()
        {
            let name = info
                .options
                .iter()
                .find(|option| option.flag() == *key)
                .map_or(key.as_str(), |option| option.name);
            options.push((name.to_string(), value.clone()));
        }
        GameSetup {
            board: listed.or_else(|| text(board_id(info))).unwrap_or_default(),
            options,
        }
    }

    /// The options object the game reads; an option given twice is refused.
    fn options(&self) -> anyhow::Result<Value> {
        let mut options = Map::new();
        for (key, value) in &self.options {
            if options
                .insert(key.clone(), Value::String(value.clone()))
                .is_some()
            {
                bail!("the option {key} is given twice");
            }
        }
        Ok(Value::Object(options))
    }

    /// The game set up by `f`, one of the game's setups (its descriptor's `start`, or a
    /// typed one for the game's own commands), within the command line's setup limits.
    pub fn with<T>(&self, f: impl FnOnce(&Setup) -> Result<T, SetupError>) -> anyhow::Result<T> {
        let options = self.options()?;
        Ok(f(&Setup {
            board: &self.board,
            options: &options,
        })?)
    }

    /// The game started as every host starts it.
    pub fn start(&self, game: &GameDescriptor) -> anyhow::Result<Box<dyn Match>> {
        self.with(|setup| (game.start)(setup, &setup_limits()))
    }
}

/// A game whose own commands take the setup flags of its `solve`.
pub trait Described {
    fn descriptor() -> &'static GameDescriptor;
}

/// The setup flags of a game (as `solve` has them), for the game's own commands.
#[derive(Clone, Debug)]
pub struct SetupArgs<G> {
    pub setup: GameSetup,
    game: PhantomData<G>,
}

impl<G: Described> FromArgMatches for SetupArgs<G> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Ok(SetupArgs {
            setup: GameSetup::read(matches, &G::descriptor().info),
            game: PhantomData,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl<G: Described> Args for SetupArgs<G> {
    fn augment_args(command: Command) -> Command {
        setup_args(command, &G::descriptor().info)
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

/// Runs the verb of `matches` (a game's subcommand) when it is one every game has.
pub fn run(
    game: &GameDescriptor,
    matches: &ArgMatches,
    out: &Output,
) -> Option<anyhow::Result<Answer>> {
    let (verb, matches) = matches.subcommand()?;
    let run = match verb {
        "solve" => solve,
        "hint" => hint,
        "play" => play,
        "arena" => arena,
        "ladder" => ladder,
        _ => return None,
    };
    Some(run(game, matches, out))
}

fn start(game: &GameDescriptor, matches: &ArgMatches) -> anyhow::Result<Box<dyn Match>> {
    GameSetup::read(matches, &game.info).start(game)
}

fn solve(game: &GameDescriptor, matches: &ArgMatches, out: &Output) -> anyhow::Result<Answer> {
    let budget = solve_budget(matches)?;
    let started = start(game, matches)?;
    let solved = with_search_bar("solving", &budget, |budget| started.solve(budget));
    emit_solved(&solved, out)
}

/// Prints the answer of a `solve` (text or JSON) and says how complete it is.
pub fn emit_solved(solved: &Solved, out: &Output) -> anyhow::Result<Answer> {
    // Beyond a fixed limit of the game's analysis, no budget would help: bad input.
    if solved.status
        == (Status::Unknown {
            reason: Exhausted::Beyond,
        })
    {
        let why = solved.extra.get("beyond").and_then(|why| why.as_str());
        bail!(
            "the exact analysis cannot answer this position: {}",
            why.unwrap_or("it is beyond a fixed limit of the analysis")
        );
    }
    // A part of the game's own that ran out (sandpile's search of every play) leaves the
    // command unfinished, however complete the verdict.
    let status = Status::of_parts(
        std::iter::once(solved.status).chain(own_parts(&solved.extra).map(|(_, status)| status)),
    );
    out.emit_status(solved, status, || solved_text(solved))
}

/// The game's own keys of a solve that are answers with a status of their own (sandpile's
/// `perfect_play` and `sequences`), with that status.
fn own_parts(extra: &Map<String, Value>) -> impl Iterator<Item = (&String, Status)> {
    extra.iter().filter_map(|(key, value)| {
        value.get("status")?;
        Some((key, serde_json::from_value(value.clone()).ok()?))
    })
}

/// The answer of `hint`: the position, and the hint as the server and the Python module
/// answer it (`move`, `level`, `proven`, `result`, `reason`:
/// [`crosscap_engine::session::Hint::details`]).
#[derive(Serialize)]
struct HintAnswer {
    game: &'static str,
    position: String,
    to_move: Player,
    threads: usize,
    #[serde(flatten)]
    details: Value,
    millis: f64,
}

fn hint(game: &GameDescriptor, matches: &ArgMatches, out: &Output) -> anyhow::Result<Answer> {
    let computer = ComputerArgs::from_arg_matches(matches)?.computer(game.info.hint_level)?;
    let started = start(game, matches)?;
    let Some(mover) = started.to_move() else {
        bail!("the game is already over");
    };
    let clock = Instant::now();
    let mut player = computer.player(&*started);
    let hint = started
        .hint_by(player.as_mut(), &computer.budget)
        .context("the computer found no move")?;
    let answer = HintAnswer {
        game: game.info.name,
        position: started.position(),
        to_move: mover,
        threads: computer.threads,
        details: hint.details(computer.level),
        millis: clock.elapsed().as_secs_f64() * 1000.0,
    };
    let proof = proof_note(&hint, computer.level);
    out.emit(&answer, || {
        format!(
            "{mover} to move: {} (the computer at {}{proof}, {:.0} ms)\n",
            hint.notation, computer.level, answer.millis
        )
    })
}

/// A game on the terminal: nothing is printed as JSON, so `--json` is refused rather than
/// ignored.
fn play(game: &GameDescriptor, matches: &ArgMatches, out: &Output) -> anyhow::Result<Answer> {
    if out.json {
        bail!("play is a game on the terminal and prints no JSON: leave out --json");
    }
    let args = PlayArgs::from_arg_matches(matches)?;
    let started = start(game, matches)?;
    let computer = args.computer.computer(game.info.play_level)?;
    play_in_terminal(
        started,
        args.colour,
        &computer,
        game.info.hint_level,
        std::io::stdout().is_terminal(),
    )
}

fn arena(game: &GameDescriptor, matches: &ArgMatches, out: &Output) -> anyhow::Result<Answer> {
    let args = ArenaArgs::from_arg_matches(matches)?;
    run_arena(&*start_unfinished(game, matches)?, &args, out)
}

fn ladder(game: &GameDescriptor, matches: &ArgMatches, out: &Output) -> anyhow::Result<Answer> {
    let args = LadderArgs::from_arg_matches(matches)?;
    run_ladder(&*start_unfinished(game, matches)?, &args, out)
}

/// The game of the command line, refused when it is already over (nothing to play).
fn start_unfinished(game: &GameDescriptor, matches: &ArgMatches) -> anyhow::Result<Box<dyn Match>> {
    let started = start(game, matches)?;
    if started.to_move().is_none() {
        bail!("the game is already over");
    }
    Ok(started)
}

/// The answer of `solve` in words: the verdict, the value, the moves, the game's own keys.
pub fn solved_text(solved: &Solved) -> String {
    let mut text = format!("{} {}\n", solved.game, solved.position);
    match (solved.status, solved.winner, solved.value) {
        (Status::Solved, Some(winner), Some(value)) => {
            text += &verdict(solved.to_move, winner);
            text += "\n";
            if let Some(mover) = solved.to_move {
                text += &match solved.value_kind {
                    ValueKind::Grundy => format!(
                        "Grundy value {value} ({}-position)\n",
                        if value == 0 { "P" } else { "N" }
                    ),
                    ValueKind::Margin => format!("value {value} for {mover}\n"),
                };
                match &solved.moves {
                    Moves::Known { winning, optimal } => {
                        text += &format!("winning moves: {}\n", moves(winning));
                        if optimal != winning {
                            text += &format!("optimal moves: {}\n", moves(optimal));
                        }
                    }
                    Moves::Unknown { reason } => {
                        text +=
                            &format!("optimal moves: not all found before {}\n", ran_out(*reason));
                    }
                }
            }
        }
        (status, Some(winner), _) => {
            text += &verdict(solved.to_move, winner);
            text += &format!("\nthe value is {}\n", status_text(&status));
        }
        _ => {
            text += &format!(
                "the winner with perfect play is {}\n",
                status_text(&solved.status)
            );
        }
    }
    for (key, value) in &solved.extra {
        // The impartial games' `grundy` key repeats the value, printed above.
        if solved.value_kind == ValueKind::Grundy && solved.to_move.is_some() && key == "grundy" {
            continue;
        }
        if let Some(shown) = shown_as(key, value) {
            text += &format!("{}: {shown}\n", key.replace('_', " "));
        }
    }
    for (key, status) in own_parts(&solved.extra) {
        if status != Status::Solved {
            let found = &solved.extra[key];
            let part = Part::<()> {
                status,
                spent: (found["nodes"].as_u64())
                    .zip(found["millis"].as_f64())
                    .map(|(nodes, millis)| Spent { nodes, millis }),
                answer: None,
            };
            text += &part_text(&part, &key.replace('_', " "), |_| String::new());
            text += "\n";
        }
    }
    text + &format!("{} in {:.1} ms\n", nodes_text(solved.nodes), solved.millis)
}

fn verdict(to_move: Option<Player>, winner: Winner) -> String {
    match (to_move, winner) {
        (None, Winner::Player(w)) => format!("the game is over: {w} won"),
        (None, Winner::Draw) => "the game is over: a draw".to_string(),
        (Some(m), Winner::Player(w)) if m == w => format!("{m} to move wins with perfect play"),
        (Some(m), Winner::Player(w)) => format!("{m} to move loses: {w} wins with perfect play"),
        (Some(m), Winner::Draw) => format!("{m} to move: a draw with perfect play"),
    }
}

fn moves(moves: &[String]) -> String {
    if moves.is_empty() {
        "none".to_string()
    } else {
        moves.join(" ")
    }
}

/// A key of the game's own in words, its spending as the last line gives the whole
/// solve's: `*_millis` to a tenth of a millisecond, `*_nodes` with thousands separators.
fn shown_as(key: &str, value: &Value) -> Option<String> {
    match (value.as_f64(), value.as_u64()) {
        (Some(millis), _) if key.ends_with("millis") => Some(format!("{millis:.1} ms")),
        (_, Some(nodes)) if key.ends_with("nodes") => {
            Some(indicatif::HumanCount(nodes).to_string())
        }
        _ => shown(value),
    }
}

/// A key of the game's own in words: numbers, texts, truth values and lists of them
/// (structured keys are left to `--json`).
fn shown(value: &Value) -> Option<String> {
    match value {
        Value::Null => Some("none".to_string()),
        Value::Bool(b) => Some(if *b { "yes" } else { "no" }.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => {
            let items: Option<Vec<String>> = items
                .iter()
                .map(|item| match item {
                    Value::Array(_) | Value::Object(_) => None,
                    scalar => shown(scalar),
                })
                .collect();
            items.map(|items| moves(&items))
        }
        Value::Object(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use clap::ArgAction;
    use crosscap_engine::Budget;
    use crosscap_take_away::TAKE_AWAY;
    use serde_json::json;

    use super::*;
    use crate::terminal::{Computer, play_game};

    /// Runs `crosscap ARGS` on a catalog of take-away alone; the answer and what it
    /// printed.
    fn run_take_away(args: &[&str]) -> (anyhow::Result<Answer>, String) {
        let catalog = Catalog::new(vec![&TAKE_AWAY]);
        let root = Command::new("crosscap").arg(
            Arg::new("json")
                .long("json")
                .global(true)
                .action(ArgAction::SetTrue),
        );
        let matches = add_games(root, &catalog, &|_, command| command)
            .try_get_matches_from(std::iter::once("crosscap").chain(args.iter().copied()))
            .unwrap_or_else(|e| panic!("{e}"));
        let out = Output::capturing(matches.get_flag("json"));
        let (name, game) = matches.subcommand().unwrap();
        let answer = run(catalog.find(name).unwrap(), game, &out).expect("a verb");
        (answer, out.captured())
    }

    fn json_of(args: &[&str]) -> Value {
        let (answer, printed) = run_take_away(args);
        assert_eq!(answer.unwrap(), Answer::Complete, "{printed}");
        serde_json::from_str(&printed).unwrap()
    }

    #[test]
    fn a_game_no_crate_knows_is_solved_through_the_catalog() {
        let v = json_of(&["--json", "take-away", "solve", "7"]);
        assert_eq!(v["game"], "take-away");
        assert_eq!(v["position"], "7");
        assert_eq!(v["status"], "solved");
        assert_eq!(v["winner"], "X");
        assert_eq!(v["outcome"], "N");
        assert_eq!(v["value"], 1);
        assert_eq!(v["winning_moves"], json!(["1"]));
        assert_eq!(v["most"], 2);
        let v = json_of(&[
            "--json",
            "take-away",
            "solve",
            "--board",
            "8",
            "--most",
            "3",
        ]);
        assert_eq!(
            (v["value"].clone(), v["most"].clone()),
            (json!(0), json!(3))
        );
        assert_eq!(v["winner"], "O");
        let v = json_of(&["--json", "take-away", "solve", "9", "--opt", "most=3"]);
        assert_eq!(v["winning_moves"], json!(["1"]));
        let (_, text) = run_take_away(&["take-away", "solve", "6"]);
        assert!(
            text.contains("X to move loses: O wins with perfect play"),
            "{text}"
        );
        assert!(text.contains("Grundy value 0 (P-position)"), "{text}");
    }

    /// The game's own counts read as the last line's: a tenth of a millisecond, nodes
    /// with separators; other keys as they are.
    #[test]
    fn spending_keys_are_shown_as_the_whole_solve_is() {
        assert_eq!(
            shown_as("margin_millis", &json!(716.594976)).unwrap(),
            "716.6 ms"
        );
        assert_eq!(shown_as("margin_nodes", &json!(432561)).unwrap(), "432,561");
        assert_eq!(shown_as("cells", &json!(21)).unwrap(), "21");
        assert_eq!(shown_as("threads", &json!(2.5)).unwrap(), "2.5");
    }

    #[test]
    fn its_options_are_checked_by_the_game() {
        let (refused, _) = run_take_away(&["take-away", "solve", "7", "--opt", "bogus=1"]);
        let error = refused.unwrap_err().to_string();
        assert_eq!(
            error,
            "take-away has no option `bogus` (the options are most)"
        );
        let (bad_choice, _) = run_take_away(&["take-away", "solve", "7", "--most", "4"]);
        assert_eq!(
            bad_choice.unwrap_err().to_string(),
            "option most: `4` is not 2 or 3"
        );
        let (twice, _) =
            run_take_away(&["take-away", "solve", "7", "--most", "3", "--opt", "most=2"]);
        assert!(
            twice
                .unwrap_err()
                .to_string()
                .contains("most is given twice")
        );
        let (bad, _) = run_take_away(&["take-away", "solve", "seven"]);
        assert!(
            bad.unwrap_err()
                .to_string()
                .contains("`seven` is not a number")
        );
    }

    #[test]
    fn it_is_hinted_and_played_in_an_arena() {
        let hint = json_of(&["--json", "take-away", "hint", "7"]);
        assert_eq!(
            (hint["move"].clone(), hint["level"].clone()),
            (json!("1"), json!("perfect"))
        );
        let timed = json_of(&["--json", "take-away", "hint", "7", "--think-ms", "50"]);
        assert_eq!(timed["level"], "mcts:50ms");
        let arena = json_of(&[
            "--json",
            "take-away",
            "arena",
            "7",
            "--a",
            "perfect",
            "--b",
            "random",
            "--games",
            "4",
            "--think-ms",
            "50",
        ]);
        assert_eq!(arena["games"], 4);
        assert!(
            arena["a_wins"].as_u64() >= Some(2),
            "the perfect X wins: {arena}"
        );
        let (over, _) = run_take_away(&["take-away", "arena", "0"]);
        assert!(over.unwrap_err().to_string().contains("already over"));
    }

    #[test]
    fn it_is_played_in_the_terminal() {
        let catalog = Catalog::new(vec![&TAKE_AWAY]);
        let game = GameSetup {
            board: "3".into(),
            options: Vec::new(),
        }
        .start(catalog.find("take-away").unwrap())
        .unwrap();
        let computer = Computer {
            level: Level::Perfect,
            seed: 1,
            threads: 1,
            budget: Budget::unlimited(),
        };
        let mut out = Vec::new();
        play_game(
            game,
            Player::X,
            &computer,
            TAKE_AWAY.info.hint_level,
            false,
            &mut "2\n".as_bytes(),
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("O plays 1"), "{text}");
        assert!(text.ends_with("The computer wins.\n"), "{text}");
    }
}
