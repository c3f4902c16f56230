//! Disjoint sets over `0..n`: the one plain union-find of the workspace (a graph's
//! components, a cell complex's connectivity, gluings and symmetry orbits, a region's
//! pieces).

/// Disjoint sets over `0..n`. A union keeps the smaller root, so every set is named by its
/// least element, whatever order the unions came in; `find` halves the paths it walks.
#[derive(Clone, Debug)]
pub struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    /// `n` sets of one element each.
    pub fn new(n: usize) -> Self {
        UnionFind {
            parent: (0..n).collect(),
        }
    }

    /// The least element of `x`'s set.
    pub fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    /// Joins the sets of `a` and `b`; false when they were one set already.
    pub fn union(&mut self, a: usize, b: usize) -> bool {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return false;
        }
        self.parent[a.max(b)] = a.min(b);
        true
    }

    /// How many sets there are.
    pub fn count(&mut self) -> usize {
        (0..self.parent.len())
            .filter(|&x| self.find(x) == x)
            .count()
    }

    /// Groups `items`, each given with an element, by the set of its element: groups in the
    /// order of their first item, items in the order given.
    pub fn groups(&mut self, items: impl IntoIterator<Item = (usize, usize)>) -> Vec<Vec<usize>> {
        let mut group_of_root = vec![usize::MAX; self.parent.len()];
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (item, element) in items {
            let root = self.find(element);
            if group_of_root[root] == usize::MAX {
                group_of_root[root] = groups.len();
                groups.push(Vec::new());
            }
            groups[group_of_root[root]].push(item);
        }
        groups
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn sets_are_named_by_their_least_element() {
        let mut sets = UnionFind::new(6);
        assert!(sets.union(5, 3));
        assert!(sets.union(3, 4));
        assert!(!sets.union(4, 5), "one set already");
        assert!(sets.union(1, 2));
        assert_eq!(
            (0..6).map(|x| sets.find(x)).collect::<Vec<_>>(),
            [0, 1, 1, 3, 3, 3]
        );
        assert_eq!(sets.count(), 3);
        assert_eq!(
            sets.groups([(10, 4), (11, 0), (12, 2), (13, 5), (14, 1)]),
            [vec![10, 13], vec![11], vec![12, 14]]
        );
    }

    proptest! {
        /// Against relabelling by hand: after each union every element of either set takes
        /// the smaller label.
        #[test]
        fn matches_naive_labels(
            n in 1usize..40,
            unions in proptest::collection::vec((0usize..40, 0usize..40), 0..60),
        ) {
            let mut sets = UnionFind::new(n);
            let mut label: Vec<usize> = (0..n).collect();
            for (a, b) in unions.into_iter().map(|(a, b)| (a % n, b % n)) {
                let (la, lb) = (label[a], label[b]);
                prop_assert_eq!(sets.union(a, b), la != lb);
                let least = la.min(lb);
                for l in label.iter_mut().filter(|l| **l == la || **l == lb) {
                    *l = least;
                }
            }
            for (x, &l) in label.iter().enumerate() {
                prop_assert_eq!(sets.find(x), l);
            }
            let mut distinct = label.clone();
            distinct.sort_unstable();
            distinct.dedup();
            prop_assert_eq!(sets.count(), distinct.len());
        }
    }
}
