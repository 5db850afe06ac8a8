//! One benchmark's race decided exactly, on counts (`--measure instructions`, `docs/racing.md` §6.3): one
//! run per revision, no test. The tolerance is the deterministic basis's, the gate's `--threshold`
//! (`docs/verdicts.md` §7): a count that exceeds the lowest by more than `threshold` percent is
//! eliminated, the counts within it are equivalent to the lowest, and the lowest wins when every other
//! count exceeds it by more than the threshold.
//!
//! Must not: test anything (a count is exact, and one run per revision leaves nothing to test), or word
//! anything (`report::race` does).

use super::{Standing, Stop};

/// The standing of one benchmark of counts, given each revision's count (`None` when revision i does not
/// have the benchmark) and the tolerance `threshold_pct` in percent (≥ 0); `None` when no revision has it.
///
/// The best is the lowest count (on a tie, the earlier revision); revision c survives when
/// count(c) ≤ lowest · (1 + threshold / 100), i.e. when its increase over the lowest is not more than the
/// threshold. The stop is [`Stop::Winner`] when the best alone survives, [`Stop::Equivalent`] otherwise,
/// [`Stop::Alone`] when one revision has the benchmark; never [`Stop::Open`]: more runs would count the
/// same.
pub fn exact_standing(counts: &[Option<f64>], threshold_pct: f64) -> Option<Standing> {
    let present: Vec<usize> = (0..counts.len()).filter(|&i| counts[i].is_some()).collect();
    let count = |i: usize| counts[i].unwrap_or(f64::INFINITY);
    let best = *present
        .iter()
        .min_by(|&&a, &&b| count(a).total_cmp(&count(b)))?;
    if present.len() == 1 {
        return Some(Standing {
            survivors: vec![best],
            best,
            stop: Stop::Alone,
        });
    }
    let lowest = count(best);
    let survivors: Vec<usize> = present
        .iter()
        .copied()
        .filter(|&c| c == best || !exceeds(count(c), lowest, threshold_pct))
        .collect();
    let stop = if survivors.len() == 1 {
        Stop::Winner
    } else {
        Stop::Equivalent
    };
    Some(Standing {
        survivors,
        best,
        stop,
    })
}

/// Whether `count` exceeds `lowest` by more than `threshold_pct` percent, as the gate reads it
/// ([`count_exceeds`](crate::protocol::gate::count_exceeds)).
fn exceeds(count: f64, lowest: f64, threshold_pct: f64) -> bool {
    crate::protocol::gate::count_exceeds(lowest, count, threshold_pct)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standing(counts: &[Option<f64>], threshold_pct: f64) -> (Stop, usize, Vec<usize>) {
        let s = exact_standing(counts, threshold_pct).expect("a revision has the benchmark");
        (s.stop, s.best, s.survivors)
    }

    #[test]
    fn a_count_more_than_the_threshold_above_the_lowest_is_eliminated() {
        // 20064 and 20064 + 0 comment-only, 40064 the planted revision: +99.7 % > 2 %.
        let counts = [Some(20_064.0), Some(20_064.0), Some(40_064.0)];
        assert_eq!(standing(&counts, 2.0), (Stop::Equivalent, 0, vec![0, 1]));
        // The lowest last: the winner is r3, 1000 against 1100 (+10 %) and 1021 (+2.1 %).
        let counts = [Some(1100.0), Some(1021.0), Some(1000.0)];
        assert_eq!(standing(&counts, 2.0), (Stop::Winner, 2, vec![2]));
    }

    #[test]
    fn counts_within_the_threshold_of_the_lowest_are_equivalent() {
        // 1020 is +2.0 % of 1000: not more than 2 %, equivalent; 1021 is +2.1 %: eliminated.
        let counts = [Some(1020.0), Some(1000.0), Some(1021.0)];
        assert_eq!(standing(&counts, 2.0), (Stop::Equivalent, 1, vec![0, 1]));
        // At --threshold 5 all three are equivalent to the lowest.
        assert_eq!(standing(&counts, 5.0), (Stop::Equivalent, 1, vec![0, 1, 2]));
    }

    #[test]
    fn threshold_zero_eliminates_any_larger_count_and_keeps_equal_ones() {
        let counts = [Some(1001.0), Some(1000.0), Some(1000.0)];
        assert_eq!(standing(&counts, 0.0), (Stop::Equivalent, 1, vec![1, 2]));
        let counts = [Some(1001.0), Some(1000.0)];
        assert_eq!(standing(&counts, 0.0), (Stop::Winner, 1, vec![1]));
    }

    #[test]
    fn ties_pick_the_earlier_revision_and_missing_ones_take_no_part() {
        let counts = [None, Some(500.0), Some(500.0), None];
        assert_eq!(standing(&counts, 2.0), (Stop::Equivalent, 1, vec![1, 2]));
        assert_eq!(standing(&[None, Some(7.0)], 2.0), (Stop::Alone, 1, vec![1]));
        assert_eq!(exact_standing(&[None, None], 2.0), None);
    }

    #[test]
    fn a_lowest_count_of_zero_eliminates_every_count_above_it() {
        let counts = [Some(0.0), Some(1.0), Some(0.0)];
        assert_eq!(standing(&counts, 2.0), (Stop::Equivalent, 0, vec![0, 2]));
    }
}
