//! The games kept in memory: a map by id with a least-recently-used order and a cap on
//! their estimated bytes. Only idle entries (held by nobody but this map: no request,
//! follower or computer player has them) are dropped; a dropped game is reloaded from the
//! database when next asked for.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

struct Entry<T> {
    value: Arc<T>,
    bytes: usize,
    used: u64,
}

pub struct Resident<T> {
    entries: HashMap<String, Entry<T>>,
    /// Last use -> id, oldest first.
    order: BTreeMap<u64, String>,
    clock: u64,
    bytes: usize,
    max_bytes: usize,
}

impl<T> Resident<T> {
    pub fn new(max_bytes: usize) -> Resident<T> {
        Resident {
            entries: HashMap::new(),
            order: BTreeMap::new(),
            clock: 0,
            bytes: 0,
            max_bytes,
        }
    }

    /// How many entries are held.
    pub fn count(&self) -> usize {
        self.entries.len()
    }

    /// Their estimated bytes, added up.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The entry, marked as just used.
    pub fn get(&mut self, id: &str) -> Option<Arc<T>> {
        self.clock += 1;
        let entry = self.entries.get_mut(id)?;
        self.order.remove(&entry.used);
        entry.used = self.clock;
        self.order.insert(self.clock, id.to_string());
        Some(Arc::clone(&entry.value))
    }

    /// Keeps `value` under `id` unless an entry is already there (then that one is
    /// answered), and drops idle entries while over the cap.
    pub fn insert(&mut self, id: &str, value: Arc<T>, bytes: usize) -> Arc<T> {
        if let Some(existing) = self.get(id) {
            return existing;
        }
        self.entries.insert(
            id.to_string(),
            Entry {
                value: Arc::clone(&value),
                bytes,
                used: self.clock,
            },
        );
        self.order.insert(self.clock, id.to_string());
        self.bytes += bytes;
        self.evict();
        value
    }

    /// A new estimate of an entry's bytes (a game grows with its moves).
    pub fn resize(&mut self, id: &str, bytes: usize) {
        if let Some(entry) = self.entries.get_mut(id) {
            self.bytes = self.bytes - entry.bytes + bytes;
            entry.bytes = bytes;
        }
        self.evict();
    }

    pub fn remove(&mut self, id: &str) -> Option<Arc<T>> {
        let entry = self.entries.remove(id)?;
        self.order.remove(&entry.used);
        self.bytes -= entry.bytes;
        Some(entry.value)
    }

    /// Every entry, for shutdown.
    pub fn values(&self) -> Vec<Arc<T>> {
        self.entries
            .values()
            .map(|e| Arc::clone(&e.value))
            .collect()
    }

    /// Drops the least recently used idle entries until the estimate is within the cap.
    /// An entry held elsewhere stays: only this map can hand out new holds, under its
    /// lock, so one counted idle here cannot be taken meanwhile.
    fn evict(&mut self) {
        if self.bytes <= self.max_bytes {
            return;
        }
        let idle: Vec<String> = self
            .order
            .values()
            .filter(|id| Arc::strong_count(&self.entries[id.as_str()].value) == 1)
            .cloned()
            .collect();
        for id in idle {
            if self.bytes <= self.max_bytes {
                break;
            }
            self.remove(&id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_idle_entries_go_first() {
        let mut games = Resident::new(100);
        games.insert("a", Arc::new(1), 40);
        let held = games.insert("b", Arc::new(2), 40);
        games.insert("c", Arc::new(3), 10);
        games.get("a");
        games.insert("d", Arc::new(4), 40);
        // 130 bytes: b is the oldest but held, so c goes (120) and then a (80).
        assert!(games.get("b").is_some(), "held entries stay");
        assert!(games.get("c").is_none());
        assert!(games.get("a").is_none());
        assert!(games.get("d").is_some());
        assert_eq!(games.bytes(), 80);
        assert_eq!(games.count(), 2);
        drop(held);
        games.resize("d", 90);
        assert!(games.get("b").is_none(), "idle now, and the oldest");
        assert_eq!(games.bytes(), 90);
    }

    #[test]
    fn an_existing_entry_wins_over_a_second_load() {
        let mut games = Resident::new(100);
        let first = games.insert("a", Arc::new(1), 10);
        let second = games.insert("a", Arc::new(2), 10);
        assert!(Arc::ptr_eq(&first, &second));
        assert_eq!(games.bytes(), 10);
        assert_eq!(games.remove("a").map(|v| *v), Some(1));
        assert_eq!(games.bytes(), 0);
    }
}
