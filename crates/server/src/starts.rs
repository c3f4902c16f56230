//! Starting positions shared per (game, board, options): the board's tables are built once
//! and every game started from them clones the starting [`Match`], whose clones share
//! those tables, and shares one copy of the board's drawing.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use bytes::Bytes;

use crosscap_engine::session::Match;
use serde_json::value::RawValue;

/// A starting position and, for surface boards, the board's drawing as JSON text.
pub struct Start {
    pub game: Box<dyn Match>,
    pub layout: Option<Box<RawValue>>,
}

impl Start {
    /// The board's drawing as JSON text (`null` for a board without one), shared with
    /// this start rather than copied: an answer carrying it, however slowly its client
    /// reads it, holds no copy of it.
    pub fn drawing_text(self: &Arc<Self>) -> Bytes {
        Bytes::from_owner(DrawingText(Arc::clone(self)))
    }

    /// Estimated bytes held: the game's own estimate and the drawing's text.
    pub fn bytes(&self) -> usize {
        self.game.memory_bytes() + self.layout.as_ref().map_or(0, |l| l.get().len())
    }
}

/// What names a start: the game, the board text and the options as JSON text.
type Key = (String, String, String);

/// A start's drawing as bytes, kept alive by the start.
struct DrawingText(Arc<Start>);

impl AsRef<[u8]> for DrawingText {
    fn as_ref(&self) -> &[u8] {
        self.0
            .layout
            .as_ref()
            .map_or(b"null", |l| l.get().as_bytes())
    }
}

/// The starts of the games alive; one dies with the last game holding it.
#[derive(Default)]
pub struct Starts {
    built: Mutex<HashMap<Key, Weak<Start>>>,
}

impl Starts {
    /// The start under this key, built by `build` when no live game holds one. Building
    /// runs outside the lock; of two built at once, the first kept is shared.
    pub fn get_or_build<E>(
        &self,
        game: &str,
        board: &str,
        options: &str,
        build: impl FnOnce() -> Result<Start, E>,
    ) -> Result<Arc<Start>, E> {
        let key = (game.to_string(), board.to_string(), options.to_string());
        if let Some(start) = self.lock().get(&key).and_then(Weak::upgrade) {
            return Ok(start);
        }
        let start = Arc::new(build()?);
        let mut built = self.lock();
        if let Some(existing) = built.get(&key).and_then(Weak::upgrade) {
            return Ok(existing);
        }
        built.retain(|_, start| start.strong_count() > 0);
        built.insert(key, Arc::downgrade(&start));
        Ok(start)
    }

    /// How many starts are alive.
    pub fn count(&self) -> usize {
        self.lock()
            .values()
            .filter(|s| s.strong_count() > 0)
            .count()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Weak<Start>>> {
        self.built.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crosscap_engine::catalog::Setup;
    use crosscap_engine::nim;
    use crosscap_engine::session::SetupLimits;
    use serde_json::Value;

    fn nim() -> Result<Start, String> {
        let setup = Setup {
            board: "3 4",
            options: &Value::Null,
        };
        Ok(Start {
            game: (nim::DESCRIPTOR.start)(&setup, &SetupLimits::default()).map_err(|e| e.0)?,
            layout: None,
        })
    }

    #[test]
    fn one_start_per_key_while_a_game_holds_it() {
        let starts = Starts::default();
        let a = starts.get_or_build("nim", "3 4", "{}", nim).unwrap();
        let b = starts
            .get_or_build("nim", "3 4", "{}", || Err("not built again".to_string()))
            .unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        let other = starts.get_or_build("nim", "3 4", "{\"x\":1}", nim).unwrap();
        assert!(!Arc::ptr_eq(&a, &other));
        assert_eq!(starts.count(), 2);
        drop((a, b, other));
        assert_eq!(starts.count(), 0);
        assert!(starts.get_or_build("nim", "3 4", "{}", nim).is_ok());
    }

    #[test]
    fn answers_share_the_drawing_of_their_start() {
        let mut start = nim().unwrap();
        assert_eq!(Arc::new(nim().unwrap()).drawing_text(), "null");
        start.layout = Some(RawValue::from_string(r#"{"cells":[]}"#.to_string()).unwrap());
        let start = Arc::new(start);
        let (one, other) = (start.drawing_text(), start.drawing_text());
        assert_eq!(one, r#"{"cells":[]}"#);
        let text = start.layout.as_ref().unwrap().get().as_ptr();
        assert_eq!((one.as_ptr(), other.as_ptr()), (text, text), "no copy");
        drop(start);
        assert_eq!(one, r#"{"cells":[]}"#, "kept alive by the answer");
    }
}
