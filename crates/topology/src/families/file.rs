//! `file:PATH`: a board from a JSON file, so users can bring their own surfaces.
//!
//! ```json
//! {
//!   "faces": [[0, 1, 2], [0, 2, 3], ...],
//!   "names": ["a", "b", ...],
//!   "positions": {"0": [0.0, 1.0], "1": [1.5, 0.0], ...}
//! }
//! ```
//! `faces` (required): each cell's polygon as a cycle of vertex ids (non-negative integers);
//! two consecutive vertices of a face make an edge. The cells are in the board's cell order.
//! `names` (optional): one name per face, without white space or `/`; by default 1, 2, ...
//! `positions` (optional): a point in the plane (SVG coordinates, y grows down) for every
//! vertex, used to draw the board; without them cells are drawn as regular polygons in rings.

use std::collections::HashMap;
use std::io::Read;

use serde::Deserialize;

use crate::BoardParts;
use crate::error::TopologyError;
use crate::layout::{CellShape, Layout, centroid};
use crate::text::TextStyle;

/// A board file as read from JSON.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardFile {
    pub faces: Vec<Vec<u64>>,
    #[serde(default)]
    pub names: Option<Vec<String>>,
    #[serde(default)]
    pub positions: Option<HashMap<String, [f64; 2]>>,
}

/// The largest board file read, in bytes (a board of about 100,000 cells): a path to
/// something endless (`/dev/zero`) or huge is refused after this much.
pub const MAX_BOARD_FILE_BYTES: u64 = 4 << 20;

pub(crate) fn load(path: &str) -> Result<BoardParts, TopologyError> {
    let io = |cause| TopologyError::Io {
        path: path.to_string(),
        cause,
    };
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|file| {
            file.take(MAX_BOARD_FILE_BYTES + 1)
                .read_to_string(&mut text)
        })
        .map_err(io)?;
    if text.len() as u64 > MAX_BOARD_FILE_BYTES {
        return Err(TopologyError::FileTooLarge {
            path: path.to_string(),
            max: MAX_BOARD_FILE_BYTES,
        });
    }
    let file: BoardFile = serde_json::from_str(&text).map_err(|cause| TopologyError::Json {
        path: path.to_string(),
        cause,
    })?;
    parts(&format!("file:{path}"), &file)
}

/// A board file's JSON given as the spec itself (a board pasted into the web app): read in
/// memory, never written anywhere.
pub(crate) fn inline(text: &str) -> Result<BoardParts, TopologyError> {
    if text.len() as u64 > MAX_BOARD_FILE_BYTES {
        return Err(TopologyError::InlineTooLarge {
            max: MAX_BOARD_FILE_BYTES,
        });
    }
    let file: BoardFile =
        serde_json::from_str(text).map_err(|cause| TopologyError::InlineJson { cause })?;
    parts("the pasted board", &file)
}

pub(crate) fn parts(spec: &str, file: &BoardFile) -> Result<BoardParts, TopologyError> {
    let bad = |reason: String| TopologyError::BadSpec {
        spec: spec.to_string(),
        reason,
    };
    let names =
        match &file.names {
            None => (1..=file.faces.len()).map(|i| i.to_string()).collect(),
            Some(names) => {
                if names.len() != file.faces.len() {
                    return Err(bad(format!(
                        "\"names\" has {} entries but there are {} faces",
                        names.len(),
                        file.faces.len()
                    )));
                }
                if let Some((i, name)) = names.iter().enumerate().find(|(_, n)| {
                    n.is_empty() || n.contains(|c: char| c.is_whitespace() || c == '/')
                }) {
                    return Err(bad(format!(
                        "name {name:?} of face {i} is empty or contains white space or '/'"
                    )));
                }
                names.clone()
            }
        };
    let layout = match &file.positions {
        None => None,
        Some(positions) => {
            let mut points: HashMap<u64, [f64; 2]> = HashMap::with_capacity(positions.len());
            for (key, &point) in positions {
                let id: u64 = key
                    .trim()
                    .parse()
                    .map_err(|_| bad(format!("\"positions\" key {key:?} is not a vertex id")))?;
                if !point.iter().all(|c| c.is_finite()) {
                    return Err(bad(format!("the position of vertex {id} is not finite")));
                }
                points.insert(id, point);
            }
            let mut cells = Vec::with_capacity(file.faces.len());
            for face in &file.faces {
                let polygon = face
                    .iter()
                    .map(|v| {
                        points.get(v).copied().ok_or_else(|| {
                            bad(format!("\"positions\" has no point for vertex {v}"))
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                cells.push(CellShape {
                    center: centroid(&polygon),
                    pieces: vec![polygon],
                });
            }
            Some(Layout::new(cells, Vec::new(), Vec::new(), None))
        }
    };
    Ok(BoardParts {
        faces: file.faces.clone(),
        names,
        rows: Vec::new(),
        text: TextStyle::List,
        layout,
    })
}
