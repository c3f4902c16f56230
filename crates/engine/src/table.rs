//! A transposition table bounded in memory: buckets of two entries keyed by a 64-bit
//! position hash. It grows by doubling while it fits its cap; once full, a new entry
//! replaces one of its bucket (the two-tier scheme of chess programs: the first entry of
//! a bucket keeps the position that cost the most work, the second always takes the
//! newcomer). A table only speeds a search up, so forgetting an entry is always sound.

/// One stored position.
struct Slot<V> {
    key: u64,
    /// The work the value cost (the replacement scheme keeps costly entries).
    work: u64,
    value: V,
}

/// A hash table of at most `max_slots` entries with replacement.
pub struct BoundedTable<V> {
    slots: Vec<Option<Slot<V>>>,
    len: usize,
    max_slots: usize,
}

/// Entries a table starts with.
const FIRST_SLOTS: usize = 1 << 10;

impl<V> BoundedTable<V> {
    /// A table within `max_bytes` (no cap: `None`), its growth included: while it doubles
    /// it holds the old slots and the new, so it stops at two thirds of the cap.
    pub fn new(max_bytes: Option<usize>) -> BoundedTable<V> {
        // Whole buckets, a power of two of them, the largest that fits the cap.
        let max_slots = max_bytes.map_or(usize::MAX, |bytes| {
            let fit = (bytes / Self::slot_bytes() * 2 / 3).max(2);
            1 << (usize::BITS - 1 - fit.leading_zeros())
        });
        BoundedTable {
            slots: Self::empty(FIRST_SLOTS.min(max_slots)),
            len: 0,
            max_slots,
        }
    }

    fn slot_bytes() -> usize {
        std::mem::size_of::<Option<Slot<V>>>()
    }

    fn empty(slots: usize) -> Vec<Option<Slot<V>>> {
        std::iter::repeat_with(|| None).take(slots).collect()
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes the table's entries take.
    pub fn bytes(&self) -> usize {
        self.slots.len() * Self::slot_bytes()
    }

    fn bucket(&self, key: u64) -> usize {
        let buckets = self.slots.len() / 2;
        // Fibonacci hashing: the high bits of the product are well mixed.
        let mixed = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        2 * ((mixed >> 32) as usize & (buckets - 1))
    }

    pub fn get(&self, key: u64) -> Option<&V> {
        let b = self.bucket(key);
        self.slots[b..b + 2]
            .iter()
            .flatten()
            .find(|s| s.key == key)
            .map(|s| &s.value)
    }

    /// Stores `value` for `key`, which cost `work` to find.
    pub fn insert(&mut self, key: u64, work: u64, value: V) {
        if 4 * (self.len + 1) > 3 * self.slots.len() && self.can_grow() {
            self.grow();
        }
        let mut b = self.bucket(key);
        let taken = |slot: &Option<Slot<V>>| slot.as_ref().is_some_and(|s| s.key != key);
        while taken(&self.slots[b]) && taken(&self.slots[b + 1]) && self.can_grow() {
            self.grow();
            b = self.bucket(key);
        }
        let new = Slot { key, work, value };
        let [first, second] = &mut self.slots[b..b + 2] else {
            unreachable!("buckets hold two slots")
        };
        for slot in [&mut *first, &mut *second] {
            if slot.as_ref().is_some_and(|s| s.key == key) {
                *slot = Some(new);
                return;
            }
        }
        for slot in [&mut *first, &mut *second] {
            if slot.is_none() {
                *slot = Some(new);
                self.len += 1;
                return;
            }
        }
        // A full bucket in a full table: the costlier of the newcomer and the first entry
        // stays first, the other goes second (dropping what was second).
        if first.as_ref().is_some_and(|s| work >= s.work) {
            *second = first.take();
            *first = Some(new);
        } else {
            *second = Some(new);
        }
    }

    fn can_grow(&self) -> bool {
        2 * self.slots.len() <= self.max_slots
    }

    fn grow(&mut self) {
        let grown = Self::empty(2 * self.slots.len());
        let old = std::mem::replace(&mut self.slots, grown);
        self.len = 0;
        for slot in old.into_iter().flatten() {
            self.insert(slot.key, slot.work, slot.value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_back_and_update() {
        let mut table = BoundedTable::new(None);
        for key in 0..10_000u64 {
            table.insert(key.wrapping_mul(0x1234_5678_9abc_def1), 1, key);
        }
        assert_eq!(table.len(), 10_000);
        for key in 0..10_000u64 {
            assert_eq!(
                table.get(key.wrapping_mul(0x1234_5678_9abc_def1)),
                Some(&key)
            );
        }
        table.insert(0, 1, 77);
        assert_eq!(table.get(0), Some(&77));
        assert_eq!(table.len(), 10_000);
    }

    #[test]
    fn a_capped_table_stays_within_its_bytes_and_keeps_costly_entries() {
        let cap = 64 * 1024;
        let mut table = BoundedTable::new(Some(cap));
        for key in 0..100_000u64 {
            let work = if key % 1000 == 0 { 1_000_000 } else { 1 };
            table.insert(key, work, [key; 2]);
            assert!(table.bytes() <= cap);
        }
        assert!(table.len() > 500, "the table fills up: {}", table.len());
        let costly_kept = (0..100_000u64)
            .step_by(1000)
            .filter(|&k| table.get(k) == Some(&[k; 2]))
            .count();
        assert!(costly_kept >= 90, "costly entries survive: {costly_kept}");
        assert_eq!(table.get(99_999), Some(&[99_999; 2]), "the newest is kept");
    }

    #[test]
    fn a_tiny_cap_still_holds_a_bucket() {
        let mut table = BoundedTable::new(Some(1));
        table.insert(5, 0, 'a');
        table.insert(6, 0, 'b');
        table.insert(7, 0, 'c');
        assert_eq!(table.get(7), Some(&'c'));
        assert!(table.len() <= 2);
    }
}
