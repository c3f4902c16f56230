//! A transposition table bounded in memory: buckets of four entries keyed by a 64-bit
//! position hash. It grows by doubling, while it fits its cap, when it is three quarters
//! full or a bucket overflows in a table half full, so it takes the memory its search
//! needs, not its cap; otherwise a full bucket makes room by
//! dropping the entry that cost the least work (the newcomer always enters: the search is
//! about to read it again). A table only speeds a search up, so forgetting an entry is
//! always sound.
//!
//! [`ShardedTable`] shares one such table between threads: shards of it, each behind a
//! lock, so that two threads rarely wait for the same one.

use std::num::NonZeroU64;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One stored position. With a 6-byte value a slot takes 16 bytes (a bucket, one cache
/// line): the key's zero niche marks the empty slot and the work is kept as a 16-bit float.
struct Slot<V> {
    key: NonZeroU64,
    /// The work the value cost, as [`work_class`] (the replacement keeps costly entries).
    work: u16,
    value: V,
}

/// `work` as the top half of its `f32` bits (a bfloat16): ordered as the work is, within
/// 1% of it, in 16 bits.
fn work_class(work: u64) -> u16 {
    ((work as f32).to_bits() >> 16) as u16
}

/// A key as stored: the 64-bit hash, with 0 read as 1 (the slot's niche marks an empty
/// slot), a collision as rare as any other pair of hashes.
fn stored_key(key: u64) -> NonZeroU64 {
    NonZeroU64::new(key).unwrap_or(NonZeroU64::MIN)
}

/// A hash table of at most `max_slots` entries with replacement.
pub struct BoundedTable<V> {
    slots: Vec<Option<Slot<V>>>,
    len: usize,
    max_slots: usize,
}

/// Entries a table starts with.
const FIRST_SLOTS: usize = 1 << 10;

/// Entries per bucket: with two, a full bucket came early and a table that grew on it
/// doubled to its cap (6.3 GB on goldberg:2, which needs a few hundred MB).
const BUCKET: usize = 4;

impl<V> BoundedTable<V> {
    /// A table within `max_bytes` (no cap: `None`), its growth included: while it doubles
    /// it holds the old slots and the new, so it stops at two thirds of the cap.
    pub fn new(max_bytes: Option<usize>) -> BoundedTable<V> {
        // Whole buckets, a power of two of them, the largest that fits the cap.
        let max_slots = max_bytes.map_or(usize::MAX, |bytes| {
            let fit = (bytes / Self::slot_bytes() * 2 / 3).max(BUCKET);
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
        let buckets = (self.slots.len() / BUCKET) as u128;
        // Fibonacci hashing: the high bits of the product are well mixed, and the high
        // word of a product by the bucket count maps them onto the buckets.
        let mixed = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        BUCKET * ((u128::from(mixed) * buckets) >> 64) as usize
    }

    /// Asks the processor to load `key`'s bucket into its cache, for a [`BoundedTable::get`]
    /// soon after: several such loads then overlap instead of waiting one after another.
    fn prefetch(&self, key: u64) {
        let bucket = self.slots[self.bucket(key)..].as_ptr();
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch only hints the cache; it reads nothing, and the pointer is
        // that of a live slot.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(bucket.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
    }

    pub fn get(&self, key: u64) -> Option<&V> {
        let b = self.bucket(key);
        let key = stored_key(key);
        self.slots[b..b + BUCKET]
            .iter()
            .flatten()
            .find(|s| s.key == key)
            .map(|s| &s.value)
    }

    /// Stores `value` for `key`, which cost `work` to find.
    pub fn insert(&mut self, key: u64, work: u64, value: V) {
        self.insert_class(key, work_class(work), value);
    }

    /// [`BoundedTable::insert`] with the work already as its [`work_class`].
    fn insert_class(&mut self, key: u64, work: u16, value: V) {
        if 4 * (self.len + 1) > 3 * self.slots.len() && self.can_grow() {
            self.grow();
        }
        let mut b = self.bucket(key);
        // A full bucket in a table at least half full makes it grow (below half, a full
        // bucket is bad luck, not a lack of room).
        while self.bucket_full(b, key) && 2 * self.len >= self.slots.len() && self.can_grow() {
            self.grow();
            b = self.bucket(key);
        }
        let bucket = &mut self.slots[b..b + BUCKET];
        let new = Some(Slot {
            key: stored_key(key),
            work,
            value,
        });
        let key = stored_key(key);
        if let Some(same) = bucket
            .iter_mut()
            .find(|slot| slot.as_ref().is_some_and(|s| s.key == key))
        {
            *same = new;
        } else if let Some(free) = bucket.iter_mut().find(|slot| slot.is_none()) {
            *free = new;
            self.len += 1;
        } else if let Some(cheapest) = bucket
            .iter_mut()
            .min_by_key(|slot| slot.as_ref().map_or(0, |s| s.work))
        {
            *cheapest = new;
        }
    }

    /// Whether the bucket at `b` holds other keys than `key` in every slot.
    fn bucket_full(&self, b: usize, key: u64) -> bool {
        let key = stored_key(key);
        self.slots[b..b + BUCKET]
            .iter()
            .all(|slot| slot.as_ref().is_some_and(|s| s.key != key))
    }

    fn can_grow(&self) -> bool {
        2 * self.slots.len() <= self.max_slots
    }

    fn grow(&mut self) {
        let grown = Self::empty(2 * self.slots.len());
        let old = std::mem::replace(&mut self.slots, grown);
        self.len = 0;
        for slot in old.into_iter().flatten() {
            self.insert_class(slot.key.get(), slot.work, slot.value);
        }
    }
}

/// A [`BoundedTable`] that threads share: `shards` tables, each with its share of the
/// cap behind its own lock, a key's shard chosen by the key's low bits (the bucket within
/// it by its high bits). Readers get a copy of the value, not a reference into a shard.
pub struct ShardedTable<V> {
    shards: Box<[Shard<V>]>,
    /// Bytes of every shard, kept up to date by the inserts that grow one.
    bytes: AtomicUsize,
}

/// One shard behind its lock, on cache lines of its own: locking a shard writes its lock,
/// and two threads locking neighbouring shards would otherwise pass one line back and
/// forth.
#[repr(align(128))]
struct Shard<V>(Mutex<BoundedTable<V>>);

impl<V: Clone> ShardedTable<V> {
    /// A table of `shards` shards (rounded up to a power of two) within `max_bytes` in all.
    pub fn new(shards: usize, max_bytes: Option<usize>) -> ShardedTable<V> {
        let shards = shards.max(1).next_power_of_two();
        let shards: Box<[_]> = (0..shards)
            .map(|_| {
                Shard(Mutex::new(BoundedTable::new(
                    max_bytes.map(|bytes| bytes / shards),
                )))
            })
            .collect();
        let bytes = shards.iter().map(|shard| Self::locked(shard).bytes()).sum();
        ShardedTable {
            shards,
            bytes: AtomicUsize::new(bytes),
        }
    }

    /// A shard's table; a thread that panicked holding the lock left it whole (entries are
    /// written by plain moves), so a poisoned lock is taken over.
    fn locked(shard: &Shard<V>) -> std::sync::MutexGuard<'_, BoundedTable<V>> {
        shard
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn shard(&self, key: u64) -> std::sync::MutexGuard<'_, BoundedTable<V>> {
        Self::locked(&self.shards[key as usize & (self.shards.len() - 1)])
    }

    pub fn get(&self, key: u64) -> Option<V> {
        self.shard(key).get(key).cloned()
    }

    /// The first answer `wanted` gives, in order, for the keys held of `keys` (their
    /// place and value). Their buckets are all prefetched before the first probe, so the
    /// processor waits for their cache misses together (they were most of a solve's time):
    /// a lock between two probes orders them, but not a prefetch. A table of one shard is
    /// locked once for them all; with several shards each prefetch takes its shard's lock
    /// (the bucket's place changes when a shard grows), which saved about 5% of the CPU time
    /// a node on two threads (BENCHMARKS.md, session 42).
    pub fn find_first<T>(
        &self,
        keys: &[u64],
        mut wanted: impl FnMut(usize, &V) -> Option<T>,
    ) -> Option<T> {
        let mut probes = keys.iter().enumerate();
        if let [only] = &self.shards[..] {
            let shard = Self::locked(only);
            for &key in keys {
                shard.prefetch(key);
            }
            return probes.find_map(|(i, &key)| wanted(i, shard.get(key)?));
        }
        for &key in keys {
            self.shard(key).prefetch(key);
        }
        probes.find_map(|(i, &key)| wanted(i, &self.get(key)?))
    }

    /// Stores `value` for `key`, which cost `work` to find.
    pub fn insert(&self, key: u64, work: u64, value: V) {
        let mut shard = self.shard(key);
        let before = shard.bytes();
        shard.insert(key, work, value);
        let grown = shard.bytes() - before;
        if grown > 0 {
            self.bytes.fetch_add(grown, Ordering::Relaxed);
        }
    }

    /// Bytes the shards' entries take.
    pub fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_back_and_update() {
        let mut table = BoundedTable::new(None);
        let hashed = |key: u64| key.wrapping_mul(0x1234_5678_9abc_def1);
        for key in 0..10_000u64 {
            table.insert(hashed(key), 1, key);
        }
        // An overflowing bucket in a table under half full drops its cheapest entry.
        let kept = (0..10_000u64)
            .filter(|&key| table.get(hashed(key)) == Some(&key))
            .count();
        assert_eq!(kept, table.len());
        assert!(kept >= 9_900, "{kept} of 10,000 kept");
        let held = (0..10_000u64)
            .find(|&key| table.get(hashed(key)).is_some())
            .unwrap();
        table.insert(hashed(held), 1, 77);
        assert_eq!(table.get(hashed(held)), Some(&77));
        assert_eq!(table.len(), kept, "an update adds no entry");
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
    fn a_table_grows_with_its_entries_not_to_its_cap() {
        let mut table = BoundedTable::new(Some(1 << 30));
        for key in 0..100_000u64 {
            table.insert(key.wrapping_mul(0x1234_5678_9abc_def1), 1, key);
        }
        assert!(table.len() > 95_000, "few are dropped: {}", table.len());
        assert!(
            table.bytes() <= 4 * 100_000 * BoundedTable::<u64>::slot_bytes(),
            "{} bytes for 100,000 entries",
            table.bytes()
        );
    }

    #[test]
    fn a_slot_takes_sixteen_bytes() {
        assert_eq!(BoundedTable::<[i16; 3]>::slot_bytes(), 16);
        assert!(work_class(3) < work_class(4) && work_class(1 << 40) < work_class(u64::MAX));
    }

    #[test]
    fn shards_shared_by_threads_keep_every_entry_and_their_cap() {
        let cap = 4 << 20;
        let table = ShardedTable::new(8, Some(cap));
        let hashed = |key: u64| key.wrapping_mul(0x1234_5678_9abc_def1);
        std::thread::scope(|scope| {
            for thread in 0..2u64 {
                let table = &table;
                scope.spawn(move || {
                    for key in (thread..20_000).step_by(2) {
                        table.insert(hashed(key), 1, key);
                    }
                });
            }
        });
        let kept = (0..20_000u64)
            .filter(|&key| table.get(hashed(key)) == Some(key))
            .count();
        assert!(kept >= 19_800, "{kept} of 20,000 kept");
        for table in [&table, &ShardedTable::new(1, Some(cap))] {
            table.insert(hashed(7), 1, 7);
            table.insert(hashed(9), 1, 9);
            let keys = [hashed(1 << 40), hashed(7), hashed(9)];
            let found = table.find_first(&keys, |i, &v| (v > 8).then_some((i, v)));
            assert_eq!(found, Some((2, 9)), "the first held key that is wanted");
        }
        assert!(table.bytes() <= cap);
        let small = ShardedTable::new(8, Some(64 * 1024));
        for key in 0..100_000u64 {
            small.insert(hashed(key), 1, key);
        }
        assert!(small.bytes() <= 64 * 1024, "{} bytes", small.bytes());
    }

    #[test]
    fn a_tiny_cap_still_holds_a_bucket() {
        let mut table = BoundedTable::new(Some(1));
        for (key, value) in (5..10).zip('a'..) {
            table.insert(key, 0, value);
        }
        assert_eq!(table.get(9), Some(&'e'));
        assert!(table.len() <= BUCKET);
    }
}
