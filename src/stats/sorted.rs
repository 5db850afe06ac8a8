//! A sample's values in ascending order, made once and shared by every test that needs them sorted.
//!
//! The per-benchmark analysis reads each side's values sorted many times over (the median, Shapiro-Wilk,
//! the rank-sum tests, the location-shift Kolmogorov-Smirnov check, the Hodges-Lehmann intervals, HPT, the
//! mixtures and the comparison metrics). [`SortedVec`] is the one sorted copy of a side; a consumer that needs
//! sorted input takes a [`Sorted`] view of it, so its signature says so and it cannot be handed unsorted
//! values: the only way to build either is to sort with [`f64::total_cmp`].
//!
//! Why one sorted copy gives every consumer the bits it had when it sorted on its own: under the total
//! order two values compare equal only when their bits are equal, so a multiset has exactly one ascending
//! arrangement, whatever algorithm (stable or not) produced it, and whatever order the values came in.
//!
//! [`Sorted::map_increasing`] builds the sorted copy of transformed values (logarithms, values minus a
//! constant) from a sorted sample: a non-decreasing function keeps the order except where rounding makes
//! two values equal or a zero changes sign, so the mapped values are sorted again, which costs one pass
//! when they are already in order (the standard library's sort returns after one scan of an ascending
//! slice). The result is therefore exactly the sort of the mapped values, never merely close to it.
//!
//! This module only sorts: it neither validates (NaN is sorted by its bits, after +∞ or before −∞) nor
//! tests.

/// A view of values in ascending order by [`f64::total_cmp`]: −0.0 before +0.0, equal values adjacent.
/// Only a [`SortedVec`] gives one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Sorted<'a>(&'a [f64]);

impl<'a> Sorted<'a> {
    /// The values, ascending.
    pub(crate) fn values(self) -> &'a [f64] {
        self.0
    }

    /// The number of values.
    pub(crate) fn len(self) -> usize {
        self.0.len()
    }

    /// The sorted copy of `f` applied to each value, for a non-decreasing `f` (see the module doc): the
    /// same values, in the same order, as sorting the mapped values; one pass when `f` kept the order.
    pub(crate) fn map_increasing(self, f: impl Fn(f64) -> f64) -> SortedVec {
        SortedVec::new(self.0.iter().map(|&v| f(v)).collect())
    }

    /// The values in descending order: the reverse of the ascending ones, which is what sorting by the
    /// reversed total order gives (equal values having equal bits).
    pub(crate) fn descending(self) -> Vec<f64> {
        self.0.iter().rev().copied().collect()
    }
}

/// Values sorted ascending by [`f64::total_cmp`], owned: a side's one sorted copy.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct SortedVec(Vec<f64>);

impl SortedVec {
    /// `values` sorted (in place, without a copy).
    pub(crate) fn new(mut values: Vec<f64>) -> SortedVec {
        values.sort_unstable_by(f64::total_cmp);
        SortedVec(values)
    }

    /// A sorted copy of `values`.
    pub(crate) fn of(values: &[f64]) -> SortedVec {
        SortedVec::new(values.to_vec())
    }

    /// The view the consumers take.
    pub(crate) fn as_sorted(&self) -> Sorted<'_> {
        Sorted(&self.0)
    }

    /// The values, ascending.
    pub(crate) fn values(&self) -> &[f64] {
        &self.0
    }

    /// The values, ascending, as a vector.
    pub(crate) fn into_vec(self) -> Vec<f64> {
        self.0
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Samples with what sorting can get wrong: ties, zeros of both signs, extremes (no NaN), n = 1, 2, 3
    /// and 100; each a few times, in different orders. The same generator for every module's equality
    /// tests of a sorted entry point against the path it replaces.
    pub(crate) fn awkward_samples() -> Vec<Vec<f64>> {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let palette = [
            0.0,
            -0.0,
            1.0,
            1.0 + f64::EPSILON,
            -1.0,
            2.5,
            1e-300,
            -1e-300,
            f64::MIN_POSITIVE,
            5e-324,
            1e300,
            -1e300,
            f64::MAX,
            f64::MIN,
            1e9,
            1e9 + 1.0,
        ];
        let mut samples = vec![
            vec![0.0],
            vec![-0.0],
            vec![0.0, -0.0],
            vec![-0.0, 0.0],
            vec![3.0, 3.0],
            vec![1.0, -0.0, 0.0],
            vec![2.0, 1.0, 2.0],
            vec![f64::MAX, f64::MIN, 0.0],
        ];
        for n in [1, 2, 3, 4, 5, 7, 20, 21, 100, 100, 100] {
            for kind in 0..4 {
                let v: Vec<f64> = (0..n)
                    .map(|_| {
                        let r = next();
                        match kind {
                            // Few distinct values: many ties, zeros of both signs.
                            0 => palette[(r % 6) as usize],
                            // Any of the palette.
                            1 => palette[(r % palette.len() as u64) as usize],
                            // Times around 1 ms with a coarse clock: ties.
                            2 => 1e6 + ((r % 40) as f64) * 250.0,
                            // Continuous, both signs.
                            _ => ((r >> 11) as f64 / (1u64 << 53) as f64 - 0.3) * 1e3,
                        }
                    })
                    .collect();
                samples.push(v);
            }
        }
        samples
    }

    /// The same samples restricted to positive values (times), for the logarithm and ratios.
    pub(crate) fn awkward_positive_samples() -> Vec<Vec<f64>> {
        awkward_samples()
            .into_iter()
            .map(|s| {
                s.into_iter()
                    .map(|v| if v > 0.0 && v < f64::MAX { v } else { 1.0 })
                    .collect()
            })
            .collect()
    }

    /// [`awkward_samples`] then [`awkward_positive_samples`]: for the tests that take logarithms or ratios
    /// of positive values and must fail alike on the others.
    pub(crate) fn awkward_and_positive_samples() -> Vec<Vec<f64>> {
        let mut samples = awkward_samples();
        samples.extend(awkward_positive_samples());
        samples
    }

    /// Pairs of samples for two-sample tests: each sample with the next (different sizes and contents) and
    /// with itself (every value tied across the sides).
    pub(crate) fn pairs(samples: &[Vec<f64>]) -> Vec<(&[f64], &[f64])> {
        let next = samples
            .windows(2)
            .map(|w| (w[0].as_slice(), w[1].as_slice()));
        let itself = samples.iter().map(|s| (s.as_slice(), s.as_slice()));
        next.chain(itself).collect()
    }

    fn bits(v: &[f64]) -> Vec<u64> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    #[test]
    fn the_sorted_copy_is_the_total_order_whatever_the_input_order() {
        for s in awkward_samples() {
            let sorted = SortedVec::of(&s);
            let mut stable = s.clone();
            stable.sort_by(f64::total_cmp);
            assert_eq!(bits(sorted.values()), bits(&stable), "{s:?}");
            let mut reversed = s.clone();
            reversed.reverse();
            assert_eq!(bits(SortedVec::new(reversed).values()), bits(&stable));
            assert!(
                sorted
                    .as_sorted()
                    .values()
                    .windows(2)
                    .all(|w| w[0].total_cmp(&w[1]).is_le())
            );
        }
        assert_eq!(
            bits(SortedVec::of(&[0.0, -0.0]).values()),
            bits(&[-0.0, 0.0])
        );
    }

    #[test]
    fn descending_is_the_reversed_total_order() {
        for s in awkward_samples() {
            let mut desc = s.clone();
            desc.sort_unstable_by(|a, b| b.total_cmp(a));
            assert_eq!(
                bits(&SortedVec::of(&s).as_sorted().descending()),
                bits(&desc)
            );
        }
    }

    #[test]
    fn mapping_sorted_values_is_sorting_the_mapped_values() {
        for s in awkward_positive_samples() {
            let sorted = SortedVec::of(&s);
            let mut logs: Vec<f64> = s.iter().map(|v| v.ln()).collect();
            logs.sort_unstable_by(f64::total_cmp);
            assert_eq!(
                bits(sorted.as_sorted().map_increasing(f64::ln).values()),
                bits(&logs)
            );
        }
        for s in awkward_samples() {
            let sorted = SortedVec::of(&s);
            let origin = s[0];
            let mut shifted: Vec<f64> = s.iter().map(|v| v - origin).collect();
            shifted.sort_unstable_by(f64::total_cmp);
            let mapped = sorted.as_sorted().map_increasing(|v| v - origin);
            assert_eq!(bits(mapped.values()), bits(&shifted), "{s:?}");
        }
    }
}
