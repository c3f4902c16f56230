//! Game records: what is saved, exported and imported. A record is the game's name,
//! board, options, players and moves in the game's notation; replaying it rebuilds the
//! game exactly.

use std::fmt;
use std::str::FromStr;

use crosscap_engine::{Level, Player};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

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

/// A whole game, as exported and imported.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
}
