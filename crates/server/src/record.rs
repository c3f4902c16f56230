//! Game records: what is saved, exported and imported. A record is the game's name,
//! board, options, players and moves in the game's notation; replaying it rebuilds the
//! game exactly.

use std::fmt;
use std::str::FromStr;

use crosscap_engine::{Level, Player};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// Who plays a colour: a person at a browser, or the computer at a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Seat {
    #[default]
    Human,
    Computer(Level),
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Computer(level) => write!(f, "ai:{level}"),
        }
    }
}

impl FromStr for Seat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "human" => Ok(Seat::Human),
            other => match other.strip_prefix("ai:") {
                Some(level) => level.parse().map(Seat::Computer).map_err(|e| e.to_string()),
                None => Err(format!(
                    "unknown player {other:?}: expected \"human\" or \"ai:LEVEL\" (e.g. ai:medium)"
                )),
            },
        }
    }
}

impl Serialize for Seat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Seat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Who plays X and who plays O.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Players {
    #[serde(rename = "X", default)]
    pub x: Seat,
    #[serde(rename = "O", default)]
    pub o: Seat,
}

impl Players {
    pub fn seat(&self, player: Player) -> Seat {
        match player {
            Player::X => self.x,
            Player::O => self.o,
        }
    }

    /// Whether the computer plays either colour.
    pub fn any_computer(&self) -> bool {
        [self.x, self.o]
            .iter()
            .any(|seat| matches!(seat, Seat::Computer(_)))
    }

    /// Whether the computer plays both colours.
    pub fn all_computer(&self) -> bool {
        [self.x, self.o]
            .iter()
            .all(|seat| matches!(seat, Seat::Computer(_)))
    }
}

/// A whole game: what is saved, and what a [`RecordFile`] carries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub game: String,
    pub board: String,
    #[serde(default)]
    pub options: Value,
    #[serde(default)]
    pub players: Players,
    #[serde(default)]
    pub moves: Vec<String>,
    /// The player who resigned, if one did.
    #[serde(default)]
    pub resigned: Option<Player>,
    /// Stopped by its owner: over, without a winner.
    #[serde(default)]
    pub stopped: bool,
}

/// What a record file says it is.
const FORMAT: &str = "crosscap-record";
/// The version of the record file this server writes and reads.
const VERSION: u64 = 1;

/// A game as a file, exported and imported: the record's fields, beside them what the
/// file is, and the winner for its readers. Importing recomputes the winner from the
/// moves, and refuses fields it does not know, another format or another version.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordFile {
    pub record: Record,
    pub winner: Option<Player>,
}

impl Serialize for RecordFile {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        /// The file as written: what it is, the record's fields, the winner.
        #[derive(Serialize)]
        struct Written<'a> {
            format: &'static str,
            version: u64,
            #[serde(flatten)]
            record: &'a Record,
            winner: Option<Player>,
        }
        Written {
            format: FORMAT,
            version: VERSION,
            record: &self.record,
            winner: self.winner,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for RecordFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let mut fields = Map::<String, Value>::deserialize(d)?;
        if let Some(format) = fields.remove("format")
            && format != FORMAT
        {
            return Err(D::Error::custom(format!(
                "the file's format is {format}, not \"{FORMAT}\""
            )));
        }
        if let Some(version) = fields.remove("version")
            && version != VERSION
        {
            return Err(D::Error::custom(format!(
                "the record's version is {version}: this server reads version {VERSION}"
            )));
        }
        let winner = match fields.remove("winner") {
            Some(winner) => Option::<Player>::deserialize(winner)
                .map_err(|e| D::Error::custom(format!("winner: {e}")))?,
            None => None,
        };
        let record = Record::deserialize(Value::Object(fields)).map_err(D::Error::custom)?;
        Ok(RecordFile { record, winner })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_read_and_write() {
        for text in ["human", "ai:perfect", "ai:mcts:500", "ai:flatmc:160"] {
            assert_eq!(text.parse::<Seat>().unwrap().to_string(), text);
        }
        assert!("ai:godlike".parse::<Seat>().is_err());
        assert!("robot".parse::<Seat>().is_err());
        let players: Players = serde_json::from_str(r#"{"X": "human", "O": "ai:easy"}"#).unwrap();
        assert_eq!(players.o, Seat::Computer(Level::Easy));
        assert!(serde_json::from_str::<Players>(r#"{"Z": "human"}"#).is_err());
    }

    #[test]
    fn record_files_read_back_what_they_write_and_refuse_what_they_do_not_know() {
        let file = RecordFile {
            record: Record {
                game: "nim".into(),
                board: "2 3".into(),
                options: serde_json::json!({}),
                players: Players::default(),
                moves: vec!["1:0".into()],
                resigned: None,
                stopped: true,
            },
            winner: None,
        };
        let text = serde_json::to_value(&file).unwrap();
        assert_eq!(text["format"], FORMAT);
        assert_eq!(text["stopped"], true);
        assert_eq!(
            serde_json::from_value::<RecordFile>(text.clone()).unwrap(),
            file
        );
        for (field, value) in [
            ("format", "\"chess-pgn\""),
            ("version", "2"),
            ("winner", "\"Z\""),
            ("movse", "[]"),
        ] {
            let mut bad = text.clone();
            bad[field] = serde_json::from_str(value).unwrap();
            let error = serde_json::from_value::<RecordFile>(bad).unwrap_err();
            assert!(error.to_string().contains(field), "{field}: {error}");
        }
    }
}
