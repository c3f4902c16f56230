//! The games the server knows: name -> constructor, plus what the page needs to offer
//! them (example boards, options, the hint level and the rules in words).

use crosscap_engine::Level;
use crosscap_engine::session::{Match, SetupLimits};
use serde::Serialize;
use serde_json::Value;

/// Builds a game in progress from a board (or graph, or surfaces) and options, refusing
/// one over the limits before any work that grows with it.
pub type Constructor = fn(&str, &Value, &SetupLimits) -> Result<Box<dyn Match>, String>;

/// One option the page offers on the new-game form, passed through in `options`.
#[derive(Clone, Debug, Serialize)]
pub struct OptionSpec {
    pub name: &'static str,
    pub label: &'static str,
    /// `select`, `number` or `bool`.
    pub kind: &'static str,
    /// The choices of a `select`.
    pub choices: &'static [&'static str],
    /// The default, as JSON text (so that the page can send it unchanged).
    pub default: &'static str,
    pub help: &'static str,
}

/// A game the server can host.
#[derive(Clone, Serialize)]
pub struct GameKind {
    pub name: &'static str,
    pub title: &'static str,
    /// What the board field holds, in words.
    pub board_label: &'static str,
    pub default_board: &'static str,
    pub example_boards: &'static [&'static str],
    pub options: &'static [OptionSpec],
    /// The level the hint button asks for.
    #[serde(serialize_with = "as_text")]
    pub hint_level: Level,
    /// The rules, as a few HTML paragraphs written for players.
    pub rules: &'static str,
    /// True for games on surface boards: the server adds the board's drawing (`layout`)
    /// and accepts pasted board files.
    pub surface_board: bool,
    #[serde(skip)]
    pub new_match: Constructor,
}

/// The drawing of a surface board: the topology crate's layout (polygons, twin halves,
/// ghost copies beyond the rim, the sphere view of goldberg boards) and the cell names.
pub fn surface_layout(spec: &str) -> Result<Value, String> {
    let board = crosscap_topology::Board::from_spec(spec).map_err(|e| e.to_string())?;
    let mut layout = serde_json::to_value(board.layout()).map_err(|e| e.to_string())?;
    layout["names"] = (0..board.cell_count())
        .map(|c| Value::from(board.cell_name(c)))
        .collect();
    Ok(layout)
}

fn as_text<S: serde::Serializer>(level: &Level, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&level.to_string())
}

/// Every game, in the order the page lists them.
#[derive(Clone)]
pub struct Registry {
    kinds: Vec<GameKind>,
}

impl Registry {
    /// The registry of every game compiled into this server.
    pub fn standard() -> Registry {
        Registry {
            kinds: vec![
                projective_hex(),
                euler_getter(),
                edge_nim(),
                manifold(),
                sandpile(),
                nim(),
            ],
        }
    }

    pub fn get(&self, name: &str) -> Option<&GameKind> {
        self.kinds.iter().find(|k| k.name == name)
    }

    pub fn kinds(&self) -> &[GameKind] {
        &self.kinds
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.kinds.iter().map(|k| k.name).collect()
    }

    /// Builds a game by name.
    pub fn new_match(
        &self,
        game: &str,
        board: &str,
        options: &Value,
        limits: &SetupLimits,
    ) -> Result<Box<dyn Match>, String> {
        let kind = self.get(game).ok_or_else(|| {
            format!(
                "unknown game {game:?}: expected one of {}",
                self.names().join(", ")
            )
        })?;
        (kind.new_match)(board, options, limits)
    }
}

fn nim() -> GameKind {
    GameKind {
        name: "nim",
        title: "Nim",
        board_label: "heap sizes",
        default_board: "3 4 5",
        example_boards: &["3 4 5", "1 2 3", "50 53 30 14", "7"],
        options: &[],
        hint_level: Level::Perfect,
        surface_board: false,
        rules: "<p>Counters lie in heaps. On your turn take one or more counters from a \
                single heap. Whoever takes the last counter wins.</p>\
                <p>Write the heaps in binary and add them without carrying (the nim sum): \
                the player to move loses exactly when the nim sum is 0, and a winning move \
                makes it 0. A move is written <code>HEAP:SIZE</code>, the counters left.</p>",
        new_match: crate::nim::new_match,
    }
}

fn manifold() -> GameKind {
    GameKind {
        name: "manifold",
        title: "Manifold decomposition",
        board_label: "surfaces (o = orientable, n = non-orientable, number = genus)",
        default_board: "n5 o2",
        example_boards: &["n5 o2", "o3", "n4", "n2 n3 o1", "o1 o1"],
        options: &[],
        hint_level: Level::Perfect,
        surface_board: false,
        rules: "<p>The position is a set of closed surfaces: spheres with handles \
                (<code>o1</code> is the torus, <code>o2</code> the double torus) and \
                spheres with cross-caps (<code>n1</code> is the projective plane, \
                <code>n2</code> the Klein bottle).</p>\
                <p>On your turn choose a surface, cut it along a simple closed curve that \
                does not bound a disk, and glue disks onto the cut. The surface loses \
                topology, or falls into two pieces. Spheres are dead. Whoever makes the \
                last cut wins.</p>\
                <p>Berman and Leonard found every Grundy value: by increasing genus, \
                orientable surfaces have 0, 1, 2 and then 0 and 2 in turn; non-orientable \
                ones 0, 1, 2, 4, 6 and then 0, 3, 4, 6 over and over. The value of several \
                surfaces is the nim sum of theirs, and the hint button finds a move to \
                value 0 whenever there is one.</p>",
        new_match: |board, options, limits| {
            crosscap_manifold::new_match(board, options, limits).map_err(|e| e.to_string())
        },
    }
}

fn projective_hex() -> GameKind {
    GameKind {
        name: "projective-hex",
        title: "Projective Hex",
        board_label: "board: taylor:N (Bill Taylor's boards), goldberg:K, or a pasted board file",
        default_board: "taylor:3",
        example_boards: &["taylor:2", "taylor:3", "taylor:4", "taylor:6", "goldberg:2"],
        options: &[OptionSpec {
            name: "opening",
            label: "Opening",
            kind: "select",
            choices: &["standard", "swap", "cut-and-choose"],
            default: "\"standard\"",
            help: "swap: the second player may take over the first stone; cut-and-choose: \
                   one player places three stones (X, O, X), the other chooses a colour",
        }],
        hint_level: Level::Hard,
        surface_board: true,
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
        new_match: |board, options, limits| {
            crosscap_projective_hex::new_match(board, options, limits).map_err(|e| e.to_string())
        },
    }
}

fn euler_getter() -> GameKind {
    GameKind {
        name: "euler-getter",
        title: "Euler Getter",
        board_label: "board: goldberg:K (the author's boards), taylor:N, or a pasted board file",
        default_board: "goldberg:2",
        example_boards: &[
            "goldberg:1",
            "goldberg:2",
            "goldberg:3",
            "goldberg:4",
            "taylor:3",
        ],
        options: &[
            OptionSpec {
                name: "rule",
                label: "Winner",
                kind: "select",
                choices: &["normal", "reverse"],
                default: "\"normal\"",
                help: "normal: the larger Euler characteristic wins; reverse: the smaller",
            },
            OptionSpec {
                name: "swap",
                label: "Swap after",
                kind: "select",
                choices: &["none", "1", "3", "5", "7"],
                default: "\"3\"",
                help: "the second player may swap colours after this many stones \
                       (equalisation)",
            },
        ],
        hint_level: Level::Hard,
        surface_board: true,
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
                the end the page shows each region, its pieces and their loops.</p>",
        new_match: |board, options, limits| {
            crosscap_euler_getter::new_match(board, options, limits).map_err(|e| e.to_string())
        },
    }
}

fn edge_nim() -> GameKind {
    GameKind {
        name: "edge-nim",
        title: "Edge-Nim",
        board_label: "graph: tetrahedron, C4, K4, P5, star:3, edges:0-1,1-2, g6:<graph6>, ...",
        default_board: "tetrahedron",
        example_boards: &["tetrahedron", "C3", "C4", "P4", "star:3", "K4"],
        options: &[OptionSpec {
            name: "tokens",
            label: "Tokens",
            kind: "text",
            choices: &[],
            default: "\"\"",
            help: "tokens on the edges: counts in edge order (3,1,0,2,0,1), EDGE=COUNT \
                   items (a=3,b=1) or *=N for every edge; empty means 3 on each edge",
        }],
        hint_level: Level::Perfect,
        surface_board: false,
        rules: "<p>Tokens lie on the edges of a graph. On your turn choose a vertex and \
                remove at least one token from one or more of the edges at that vertex. \
                Whoever takes the last token wins (the player who cannot move loses).</p>\
                <p>Edges that share no vertex are separate Nim heaps; on the 3- and \
                4-cycles the game is Circular Nim. Dufour, Flesch and Heubach found the losing positions of \
                the tetrahedron when one edge is empty: with <i>a</i> = 0, the position \
                is lost for the player to move exactly when b + C = B + c, b ≤ c and \
                A ⊕ b ⊕ B = 0.</p>\
                <p>On the page, pick a vertex, then how many tokens to leave on each of \
                its edges.</p>",
        new_match: |board, options, limits| {
            crosscap_edge_nim::new_match(board, options, limits).map_err(|e| e.to_string())
        },
    }
}

fn sandpile() -> GameKind {
    GameKind {
        name: "sandpile",
        title: "Sandpile toppling",
        board_label: "graph: grid:RxC, P3, C3, K1,3, star:4, arcs:0>1,1>0, g6:<graph6>, ...",
        default_board: "grid:3x3",
        example_boards: &["grid:3x3", "grid:4x4", "P3", "C3", "C5", "K1,3", "petersen"],
        options: &[],
        hint_level: Level::Hard,
        surface_board: false,
        rules: "<p>A game of Joel Brewster Lewis on a connected graph. Every vertex starts \
                unclaimed with score 0. On your turn place a grain on an unclaimed vertex \
                (it becomes yours with score 1) or on one of your own vertices (its \
                score goes up by 1).</p>\
                <p>When a vertex's score reaches its degree it topples: its score drops \
                by its degree (to 0 when it had just reached it) and each neighbour \
                gains 1, which may topple them in turn. \
                Every vertex reached by the cascade is claimed by the player who placed \
                the grain: the only way to take the opponent's vertices. The game ends \
                when one colour holds every vertex; that player wins.</p>\
                <p>On the path P2 the first player wins at once; on P3 the second player \
                always wins; on the star K1,m the first player wins exactly when m is \
                odd, whatever is played.</p>",
        new_match: |board, options, limits| {
            crosscap_sandpile::new_match(board, options, limits).map_err(|e| e.to_string())
        },
    }
}
