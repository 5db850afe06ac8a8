//! Midranks and the tie correction shared by the rank tests (rank sum, signed rank, HPT).
//!
//! Ranks are the positions of the values in ascending order, 1-based; a group of `t` equal values gets the
//! mean of the positions it spans (midranks, as R's `rank(ties.method = "average")`, Kendall & Gibbons,
//! *Rank Correlation Methods*, 1990, §3.1). The tie correction Σ(t³ − t) over the tie groups is what the
//! normal approximations of the Wilcoxon tests subtract from the null variance (`docs/statistics.md` §5–§6).
//!
//! This module only ranks: it neither validates nor tests. Callers reject NaN first (`check_finite`); a NaN
//! here would be ranked after every number and never tied. Values are compared with `==`, so −0.0 and +0.0
//! are tied, as in R. Cost: one O(n log n) sort of indices.

/// Midranks of a sample, with its tie structure.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranks {
    /// Midranks, 1-based, in input order. Always a multiple of ½, hence exact in f64.
    pub ranks: Vec<f64>,
    /// Σ(t³ − t) over the groups of `t` equal values (0 without ties).
    pub tie_correction: f64,
    /// Whether any two values are equal.
    pub has_ties: bool,
}

/// Midranks of `values` (1-based, ties averaged) and their tie correction. O(n log n).
pub fn midranks(values: &[f64]) -> Ranks {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_unstable_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut tie_correction = 0.0;
    let mut start = 0;
    while start < order.len() {
        let value = values[order[start]];
        let end = start
            + order[start..]
                .iter()
                .take_while(|&&i| values[i] == value)
                .count();
        let end = end.max(start + 1);
        // Positions start+1 ..= end share the mean rank (start + 1 + end) / 2.
        let rank = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = rank;
        }
        let t = (end - start) as f64;
        tie_correction += t * t * t - t;
        start = end;
    }
    Ranks {
        ranks,
        tie_correction,
        has_ties: tie_correction > 0.0,
    }
}

/// Σ(t³ − t) over the groups of equal values of a sorted slice (either direction). O(n): one comparison of
/// neighbours per value, a group's term added only where a value repeats (a lone value's term, 1 − 1, is
/// +0, which leaves the sum's bits as they are).
pub fn tie_correction_sorted(sorted: &[f64]) -> f64 {
    let mut total = 0.0;
    let mut start = 0;
    for i in 1..=sorted.len() {
        if i == sorted.len() || sorted[i] != sorted[start] {
            let t = (i - start) as f64;
            if t > 1.0 {
                total += t * t * t - t;
            }
            start = i;
        }
    }
    total
}

/// Whether a sorted slice repeats a value: `tie_correction_sorted(sorted) > 0.0` in one pass that stops at
/// the first repeat.
pub fn has_ties_sorted(sorted: &[f64]) -> bool {
    sorted.windows(2).any(|pair| pair[0] == pair[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untied_values_get_their_positions() {
        // R: rank(c(3.5, -1, 10, 2)) = 3 1 4 2
        let r = midranks(&[3.5, -1.0, 10.0, 2.0]);
        assert_eq!(r.ranks, vec![3.0, 1.0, 4.0, 2.0]);
        assert_eq!(r.tie_correction, 0.0);
        assert!(!r.has_ties);
    }

    #[test]
    fn ties_use_midranks() {
        // R: rank(c(2, 1, 2, 3, 2, 1)) = 4.0 1.5 4.0 6.0 4.0 1.5
        let r = midranks(&[2.0, 1.0, 2.0, 3.0, 2.0, 1.0]);
        assert_eq!(r.ranks, vec![4.0, 1.5, 4.0, 6.0, 4.0, 1.5]);
        // groups of 3 and 2: (27 − 3) + (8 − 2) = 30
        assert_eq!(r.tie_correction, 30.0);
        assert!(r.has_ties);
    }

    #[test]
    fn signed_zeros_are_tied() {
        let r = midranks(&[0.0, -0.0, 1.0]);
        assert_eq!(r.ranks, vec![1.5, 1.5, 3.0]);
    }

    #[test]
    fn empty_input_has_no_ranks() {
        let r = midranks(&[]);
        assert!(r.ranks.is_empty());
        assert!(!r.has_ties);
    }

    #[test]
    fn sorted_tie_correction_matches_midranks() {
        let values = [1.0, 1.0, 1.0, 2.0, 5.0, 5.0, 7.0];
        assert_eq!(tie_correction_sorted(&values), 24.0 + 6.0);
        assert_eq!(midranks(&values).tie_correction, 30.0);
        // Descending, with signed zeros tied, a NaN alone, and a group at each end.
        let values = [
            9.0,
            9.0,
            4.0,
            0.0,
            -0.0,
            -0.0,
            f64::NAN,
            -3.0,
            -3.0,
            -3.0,
            -3.0,
        ];
        assert_eq!(tie_correction_sorted(&values), 6.0 + 24.0 + 60.0);
        assert_eq!(tie_correction_sorted(&[]), 0.0);
        assert_eq!(tie_correction_sorted(&[2.0]).to_bits(), 0.0f64.to_bits());
        assert!(has_ties_sorted(&values));
        assert!(!has_ties_sorted(&[1.0, 2.0, f64::NAN, f64::NAN]));
        assert!(!has_ties_sorted(&[]));
    }

    #[test]
    fn rank_sum_is_n_n_plus_one_over_two() {
        let values = [5.0, 3.0, 3.0, 9.0, 1.0, 9.0, 9.0];
        let sum: f64 = midranks(&values).ranks.iter().sum();
        assert_eq!(sum, 28.0);
    }
}
