//! The solver's transposition table: two-entry buckets (the entry that took the most
//! work and the most recent one), which threads may share without locks.
//!
//! Each entry is five words written and read one by one; the first holds the mover's
//! stones mixed with a check of the other four, so an entry read while another thread
//! writes it reads as a miss. A reader may see an older value of an entry, which only
//! costs work: every value stored is true of its position (solved entries carry their
//! proof). A private table doubles as positions are stored; a shared one keeps its size.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use super::Numbers;

/// A private table starts with 2^17 buckets (10 MiB) and doubles as positions are
/// stored, up to 2^22 buckets (320 MiB); then the entries that took the least work are
/// replaced.
pub(super) const FIRST_BITS: u32 = 17;
pub(super) const MAX_BITS: u32 = 22;

/// The fewest index bits a table has, whatever its memory cap (16 buckets).
const LEAST_BITS: u32 = 4;

/// Bytes of one bucket: two entries of five words and their tags.
const BUCKET_BYTES: usize = 2 * 5 * 8 + 2;

/// The most index bits a table within `max_memory` bytes may have (at most
/// [`MAX_BITS`]). A private table growing from `b` to `b + 1` bits holds both for a
/// moment, so the cap is read as room for one and a half tables.
pub(super) fn bits_within(max_memory: Option<usize>) -> u32 {
    let Some(bytes) = max_memory else {
        return MAX_BITS;
    };
    let buckets = (bytes / BUCKET_BYTES * 2 / 3).max(1);
    (usize::BITS - 1 - buckets.leading_zeros()).clamp(LEAST_BITS, MAX_BITS)
}

/// One stored position; `work` (nodes its searches took, at least 1) decides what stays.
#[derive(Clone, Copy, Debug)]
struct Entry {
    mine: u64,
    theirs: u64,
    numbers: Numbers,
    work: u32,
}

/// An entry's five words; all zero when free.
struct Slot([AtomicU64; 5]);

impl Slot {
    fn free() -> Slot {
        Slot(Default::default())
    }

    fn words(&self) -> [u64; 5] {
        let [a, b, c, d, e] = &self.0;
        [a, b, c, d, e].map(|w| w.load(Relaxed))
    }

    fn set_words(&self, words: [u64; 5]) {
        for (slot, word) in self.0.iter().zip(words) {
            slot.store(word, Relaxed);
        }
    }

    fn load(&self) -> Option<Entry> {
        let words = self.words();
        (words[4] != 0).then(|| Entry {
            mine: words[0] ^ check(&words),
            theirs: words[1],
            numbers: Numbers {
                pn: words[2] as u32,
                dn: (words[2] >> 32) as u32,
                proof: words[3],
            },
            work: words[4] as u32,
        })
    }

    fn store(&self, entry: &Entry) {
        let mut words = [
            0,
            entry.theirs,
            u64::from(entry.numbers.pn) | u64::from(entry.numbers.dn) << 32,
            entry.numbers.proof,
            u64::from(entry.work),
        ];
        words[0] = entry.mine ^ check(&words);
        self.set_words(words);
    }

    /// The work of the entry, 0 when free.
    fn work(&self) -> u32 {
        self.0[4].load(Relaxed) as u32
    }
}

/// A mix of an entry's words after the first.
fn check(words: &[u64; 5]) -> u64 {
    (words[1] ^ words[2].rotate_left(17) ^ words[3].rotate_left(31) ^ words[4].rotate_left(47))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The table. Each entry also has a one-byte tag from its hash in a separate array, a
/// fortieth of the buckets' size (8 MiB at most), so that most lookups of positions never
/// stored (nearly every child of a position visited for the first time) stop there: that
/// array stays in the cache where the buckets do not.
pub(super) struct Table {
    buckets: Vec<[Slot; 2]>,
    /// The tags of each bucket's entries, 0 for a free entry.
    tags: Vec<[AtomicU8; 2]>,
    bits: u32,
}

impl Table {
    pub(super) fn with_bits(bits: u32) -> Table {
        Table {
            buckets: (0..1usize << bits)
                .map(|_| [Slot::free(), Slot::free()])
                .collect(),
            tags: (0..1usize << bits)
                .map(|_| [AtomicU8::new(0), AtomicU8::new(0)])
                .collect(),
            bits,
        }
    }

    pub(super) fn bits(&self) -> u32 {
        self.bits
    }

    /// How many buckets the table has.
    pub(super) fn len(&self) -> usize {
        self.buckets.len()
    }

    /// A position's bucket and its tag (never 0).
    fn slot(&self, mine: u64, theirs: u64) -> (usize, u8) {
        let h = mine.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ theirs.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31);
        ((h >> (64 - self.bits)) as usize, (h as u8).max(1))
    }

    pub(super) fn get(&self, mine: u64, theirs: u64) -> Option<Numbers> {
        let (index, tag) = self.slot(mine, theirs);
        (0..2)
            .filter(|&i| self.tags[index][i].load(Relaxed) == tag)
            .filter_map(|i| self.buckets[index][i].load())
            .find(|e| e.mine == mine && e.theirs == theirs)
            .map(|e| e.numbers)
    }

    /// Reads a position's tags ahead of [`Table::get`]: the reads of all the children
    /// of a position go to memory together instead of one after the other.
    pub(super) fn touch(&self, mine: u64, theirs: u64) -> u8 {
        self.tags[self.slot(mine, theirs).0][0].load(Relaxed)
    }

    pub(super) fn put(&self, mine: u64, theirs: u64, numbers: Numbers, work: u64) {
        self.insert(Entry {
            mine,
            theirs,
            numbers,
            work: work.clamp(1, u64::from(u32::MAX)) as u32,
        });
    }

    /// Stores `entry`, adding the work of an earlier entry of the same position.
    fn insert(&self, mut entry: Entry) {
        let (index, tag) = self.slot(entry.mine, entry.theirs);
        let (slots, tags) = (&self.buckets[index], &self.tags[index]);
        for (slot, slot_tag) in slots.iter().zip(tags) {
            if slot_tag.load(Relaxed) == tag
                && let Some(e) = slot.load()
                && (e.mine, e.theirs) == (entry.mine, entry.theirs)
            {
                entry.work = entry.work.saturating_add(e.work);
                slot.set_words([0; 5]);
                slot_tag.store(0, Relaxed);
            }
        }
        let deepest_work = slots[0].work();
        if entry.work >= deepest_work {
            if deepest_work != 0 {
                slots[1].set_words(slots[0].words());
                tags[1].store(tags[0].load(Relaxed), Relaxed);
            }
            slots[0].store(&entry);
            tags[0].store(tag, Relaxed);
        } else {
            slots[1].store(&entry);
            tags[1].store(tag, Relaxed);
        }
    }

    /// The same entries in a table twice the size, and how many there are.
    pub(super) fn grown(&self) -> (Table, usize) {
        let table = Table::with_bits(self.bits + 1);
        let mut count = 0;
        for bucket in &self.buckets {
            for entry in [&bucket[1], &bucket[0]].into_iter().filter_map(Slot::load) {
                table.insert(entry);
                count += 1;
            }
        }
        (table, count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(pn: u32) -> Numbers {
        Numbers {
            pn,
            dn: 7,
            proof: 0b1011,
        }
    }

    #[test]
    fn entries_read_back_and_keep_the_most_work() {
        let table = Table::with_bits(4);
        table.put(1, 2, numbers(3), 10);
        assert_eq!(table.get(1, 2), Some(numbers(3)));
        assert_eq!(table.get(2, 1), None);
        // The same position again: one entry, its work added.
        table.put(1, 2, numbers(4), 1);
        assert_eq!(table.get(1, 2), Some(numbers(4)));
        let (grown, entries) = table.grown();
        assert_eq!(entries, 1);
        assert_eq!(grown.bits(), 5);
        assert_eq!(grown.get(1, 2), Some(numbers(4)));
    }

    #[test]
    fn the_memory_cap_bounds_the_size() {
        assert_eq!(bits_within(None), MAX_BITS);
        for mib in [1usize, 10, 100, 1000] {
            let cap = mib << 20;
            let bits = bits_within(Some(cap));
            let bytes = |bits: u32| (1usize << bits) * BUCKET_BYTES;
            // A table and the one it grew from fit together; twice the size would not.
            assert!(bytes(bits) + bytes(bits - 1) <= cap, "{mib} MiB");
            assert!(
                bits == MAX_BITS || bytes(bits + 1) + bytes(bits) > cap,
                "{mib} MiB"
            );
        }
        assert_eq!(bits_within(Some(0)), LEAST_BITS);
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let table = Table::with_bits(2);
        table.put(5, 6, numbers(1), 1);
        let (index, _) = table.slot(5, 6);
        // Another thread's write under way: one word of a different entry.
        table.buckets[index][0].0[3].store(0xFFFF, Relaxed);
        assert_eq!(table.get(5, 6), None);
    }

    #[test]
    fn threads_share_a_table() {
        let table = Table::with_bits(8);
        std::thread::scope(|scope| {
            for t in 0..2u64 {
                let table = &table;
                scope.spawn(move || {
                    for i in 0..1000u64 {
                        table.put(i, t, numbers(i as u32), 1);
                    }
                });
            }
        });
        let found = (0..1000u64)
            .flat_map(|i| [(i, 0), (i, 1)])
            .filter_map(|(i, t)| table.get(i, t).map(|n| (i, n)))
            .inspect(|(i, n)| assert_eq!(n.pn, *i as u32))
            .count();
        assert!(found > 200, "{found} of 2000 entries kept");
    }
}
