//! Projective Hex in the catalog: its description, its options, how a host starts a game,
//! the view a page draws and the exact analysis behind `solve`.

use crosscap_engine::catalog::{
    self, BoardKind, GameDescriptor, GameInfo, MOVES_OPTION, Moves, OptionKind, OptionSpec, Setup,
    SetupError, SolveBudget, Unsolved, ValueKind, Winner,
};
use crosscap_engine::session::{GameMatch, Hosting, Match, SetupLimits};
use crosscap_engine::{Agent, Budget, Game, Level, Player};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::rules::{Move, Opening, ProjectiveHex};
use crate::search::{Analyser, agent};
use crate::{HexError, new_game};

/// Projective Hex as the hosts offer it; `VIRTUAL_CONNECTIONS` makes `solve` run the
/// bitmask solver's H-search of virtual connections ([`Analyser::set_virtual_connections`]).
pub struct HexHost<const VIRTUAL_CONNECTIONS: bool = false>;

impl<const VIRTUAL_CONNECTIONS: bool> Hosting for HexHost<VIRTUAL_CONNECTIONS> {
    type Game = ProjectiveHex;
    type View = HexView;
    const NAME: &'static str = "projective-hex";
    const VALUE_KIND: ValueKind = ValueKind::Margin;

    fn agent(level: Level, seed: u64) -> Box<dyn Agent<ProjectiveHex>> {
        agent(level, seed)
    }

    fn view(game: &ProjectiveHex) -> HexView {
        HexView::of(game)
    }

    fn position(game: &ProjectiveHex) -> String {
        game.board().format_position(game.stones())
    }

    /// The [`Analyser`]: who wins and every winning move (all moves when the player to
    /// move loses).
    fn analyse(game: &ProjectiveHex, budget: &Budget) -> Result<catalog::Analysis<Move>, Unsolved> {
        let mover = game.to_move();
        let mut analyser = Analyser::new(budget.clone());
        analyser.set_virtual_connections(VIRTUAL_CONNECTIONS);
        let analysis = analyser.analyse(game)?;
        let (winner, value) = match analysis.winner {
            Some(w) if w == mover => (Winner::Player(w), 1),
            Some(w) => (Winner::Player(w), -1),
            None => (Winner::Draw, 0),
        };
        Ok(catalog::Analysis {
            winner,
            value,
            value_kind: ValueKind::Margin,
            moves: Moves::reaching_value(value > 0, analysis.best_moves),
            nodes: analysis.nodes,
            extra: Map::new(),
        })
    }

    /// The board, and once the game is over the winning loop.
    fn facts(game: &ProjectiveHex) -> Map<String, Value> {
        let mut facts = Map::from_iter([("board".to_string(), json!(game.board().spec()))]);
        if game.outcome().is_some() {
            facts.insert("loop".into(), json!(loop_winner(game).cells));
        }
        facts
    }

    /// The board drawn by the topology crate, then the winner and the loop.
    fn drawing(game: &ProjectiveHex, colour: bool) -> String {
        let mut text = game.board().text_drawing_named(game.stones(), colour);
        if !text.ends_with('\n') {
            text.push('\n');
        }
        let found = loop_winner(game);
        if let Some(winner) = found.winner {
            text += &format!("{winner} wins with the loop {}\n", found.cells.join(" "));
        } else if game.can_swap() {
            text += "O may answer `swap` to take the colour of X's stones\n";
        }
        text
    }
}

/// Who has a global loop in a position, and the loop's cells in order.
#[derive(Clone, Debug, Serialize)]
pub struct LoopWinner {
    pub board: String,
    pub position: String,
    pub winner: Option<Player>,
    /// The cells of the winning loop in order around it (empty while nobody has one).
    #[serde(rename = "loop")]
    pub cells: Vec<String>,
}

/// The winner of a position so far: who has a global loop, and where.
pub fn loop_winner(game: &ProjectiveHex) -> LoopWinner {
    let board = game.board();
    LoopWinner {
        board: board.spec().to_string(),
        position: board.format_position(game.stones()),
        winner: game.winner(),
        cells: game
            .winning_loop()
            .unwrap_or_default()
            .iter()
            .map(|&c| board.cell_name(c).to_string())
            .collect(),
    }
}

/// What a page needs to draw a position beyond the match's snapshot (whose turn, legal
/// moves, winner, moves played) and the board's drawing (cell shapes and names).
#[derive(Serialize)]
pub struct HexView {
    /// The board's surface, e.g. `projective plane`.
    pub surface: String,
    /// Each cell's stone, in cell order.
    pub stones: Vec<Option<Player>>,
    /// The position as `--position` reads it.
    pub position: String,
    /// The colour of the next stone, while the game goes on: in the cut-and-choose
    /// opening not always the mover's.
    pub stone_to_place: Option<Player>,
    /// Once the game is won, the winning loop's cells in order, by name.
    #[serde(rename = "loop")]
    pub winning_loop: Option<Vec<String>>,
    pub opening: Opening,
    /// Whether the colours were swapped (the swap rule or cut-and-choose).
    pub swapped: bool,
}

impl HexView {
    pub fn of(game: &ProjectiveHex) -> HexView {
        let board = game.board();
        HexView {
            surface: board.surface().to_string(),
            stones: game.stones().to_vec(),
            position: board.format_position(game.stones()),
            stone_to_place: game.outcome().is_none().then(|| game.stone_to_place()),
            winning_loop: game.winning_loop().map(|cells| {
                cells
                    .iter()
                    .map(|&c| board.cell_name(c).to_string())
                    .collect()
            }),
            opening: game.opening(),
            swapped: game.swapped(),
        }
    }
}

/// The options a game is started with; any other key is refused.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HexOptions {
    #[serde(default)]
    opening: Option<String>,
    #[serde(default)]
    position: Option<String>,
}

fn start(setup: &Setup, limits: &SetupLimits) -> Result<Box<dyn Match>, SetupError> {
    Ok(GameMatch::<HexHost>::boxed(setup_game(setup, limits)?))
}

/// The game a host's setup describes, as [`DESCRIPTOR`] starts it, for analyses that
/// need the game itself.
pub fn setup_game(setup: &Setup, limits: &SetupLimits) -> Result<ProjectiveHex, SetupError> {
    let options: HexOptions = setup.typed_options(&DESCRIPTOR.info)?;
    let mut game = (|| -> Result<ProjectiveHex, HexError> {
        let opening = match &options.opening {
            Some(name) => name.parse()?,
            None => Opening::Standard,
        };
        let spec = match setup.board.trim() {
            "" => DESCRIPTOR.info.default_board,
            spec => spec,
        };
        new_game(spec, opening, options.position.as_deref(), limits)
    })()
    .map_err(SetupError::from_error)?;
    setup.play_moves(&mut game)?;
    Ok(game)
}

/// Projective Hex in the catalog.
pub static DESCRIPTOR: GameDescriptor = GameDescriptor {
    info: GameInfo {
        name: "projective-hex",
        title: "Projective Hex",
        summary: "Claim the cells of a board glued into a projective plane: the first to close a loop of their colour that cannot be shrunk to a point wins.",
        board_kind: BoardKind::Surface,
        board_label: "board: taylor:N (Bill Taylor's boards), goldberg:K, or a pasted board file",
        default_board: "taylor:3",
        example_boards: &["taylor:2", "taylor:3", "taylor:4", "taylor:6", "goldberg:2"],
        options: &[
            OptionSpec {
                name: "opening",
                label: "Opening",
                kind: OptionKind::Select,
                choices: Opening::NAMES,
                default: "\"standard\"",
                help: "swap: the second player may take over the first stone; \
                       cut-and-choose: one player places three stones (X, O, X), the other \
                       chooses a colour",
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
        rules: "<p>Hex on the projective plane, invented by Dan Hoey and Bill Taylor. The \
                board is a disk whose rim is glued to itself: a cell on the rim is the \
                same cell as the one diametrically opposite, and its twin half is drawn \
                there (hover a cell to light its twin).</p>\
                <p>Players take turns filling an empty cell with their colour. Whoever \
                makes a <em>global loop</em> of their own cells wins: a closed chain of \
                neighbouring cells that crosses the rim an odd number of times, a loop \
                that cannot be shrunk to a point. Exactly one player makes one once the \
                board is full, so there are no draws, and both players have the same \
                task.</p>\
                <p>The first player has a winning strategy (strategy stealing), so games \
                between equals use the swap rule or Taylor's cut-and-choose opening.</p>",
    },
    start,
    layout: Some(crosscap_topology::Board::drawing_of),
};
