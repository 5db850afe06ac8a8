//! Instructions per iteration from the dumps at a harness's own boundaries, and whether they are exact
//! (`docs/instruction-counts.md` §2): the cost between two boundaries is a + b·n for a batch of n iterations
//! (a: the harness's constant part), so a difference of two batches' costs over the difference of their
//! iteration counts is b, the harness cancelling. Every pair of batches gives one estimate of b; the count
//! is exact when every estimate is the same integer, else the benchmark runs code whose count depends on
//! the time, a seed or the heap's state, and its estimates' spread is given instead.
//!
//! Must not: read files or start anything (the totals come from `callgrind`).

/// What the dumps of one benchmark say of its instructions per iteration.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Estimate {
    /// Every estimate is this integer.
    Exact {
        /// Instructions per iteration.
        per_iteration: u64,
        /// How many estimates agreed (doublings, or samples).
        estimates: usize,
    },
    /// The estimates differ, or are not whole instructions.
    NotExact {
        /// The lowest estimate, in instructions per iteration.
        low: f64,
        /// The highest.
        high: f64,
    },
    /// The dumps do not have the shape the harness's boundaries give (too few, or not as many as the
    /// samples asked for): nothing can be estimated.
    NoBoundaries {
        /// The number of dumps found.
        dumps: usize,
    },
}

/// The estimates `(difference of costs, difference of iterations)`, judged: exact when each difference
/// divides into the same integer.
fn judge(pairs: &[(i128, i128)]) -> Estimate {
    let values: Vec<f64> = pairs.iter().map(|&(d, n)| d as f64 / n as f64).collect();
    let whole: Vec<Option<i128>> = pairs
        .iter()
        .map(|&(d, n)| (d >= 0 && d % n == 0).then_some(d / n))
        .collect();
    if let Some(Some(first)) = whole.first()
        && whole.iter().all(|w| *w == Some(*first))
        && let Ok(per_iteration) = u64::try_from(*first)
    {
        return Estimate::Exact {
            per_iteration,
            estimates: pairs.len(),
        };
    }
    Estimate::NotExact {
        low: values.iter().copied().fold(f64::INFINITY, f64::min),
        high: values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    }
}

/// The first doubling of criterion's profile loop an estimate is taken from (`criterion`).
const FIRST_DOUBLING: usize = 3;

/// criterion 0.4 to 0.8 under `--profile-time 1`, a dump after each return from `Bencher::iter*`: `totals`
/// are the process's dumps in order. Call j (from 1) runs 2^(j−1) iterations and its dump is the j-th; the
/// last dump is the program's end. Each doubling j gives b = (cost(j+1) − cost(j)) / 2^(j−1); the first two
/// are left out: call 1's dump also holds the process's start, and in criterion 0.5.1 call 2 costs 4
/// instructions more than a + 2b (its first clock read initialises a cached value; seahash 4.1.0 here),
/// where 0.8.2's does not. At least four calls after the first two are needed (two estimates).
pub(crate) fn criterion(totals: &[u64]) -> Estimate {
    let calls = totals.len().saturating_sub(1);
    if calls < FIRST_DOUBLING + 2 {
        return Estimate::NoBoundaries {
            dumps: totals.len(),
        };
    }
    // `totals[j - 1]` is call j's cost; doublings j = 3 .. calls - 1.
    let pairs: Vec<(i128, i128)> = (FIRST_DOUBLING..calls)
        .map(|j| {
            let difference = i128::from(totals[j]) - i128::from(totals[j - 1]);
            (difference, 1i128 << (j - 1).min(100))
        })
        .collect();
    judge(&pairs)
}

/// divan 0.1 with `--sample-count samples --sample-size N`, a dump before each entry to `sync_impl` (just
/// before and just after each sample's loop): each process's dumps are its start, then per sample its loop
/// and the gap to the next (the last sample's gap is the program's end), 2·samples + 1 in all; loop k costs
/// a + b·N. Two processes at sizes `n1 < n2` (`low`, `high`: each its dumps in order) give one estimate per
/// sample, (loop_k(n2) − loop_k(n1)) / (n2 − n1).
pub(crate) fn divan(
    samples: usize,
    (n1, low): (u64, &[u64]),
    (n2, high): (u64, &[u64]),
) -> Estimate {
    for totals in [low, high] {
        if totals.len() != 2 * samples + 1 || samples == 0 {
            return Estimate::NoBoundaries {
                dumps: totals.len(),
            };
        }
    }
    let step = i128::from(n2) - i128::from(n1);
    if step <= 0 {
        return Estimate::NoBoundaries { dumps: 0 };
    }
    let pairs: Vec<(i128, i128)> = (0..samples)
        .map(|k| {
            let at = 2 * k + 1;
            (i128::from(high[at]) - i128::from(low[at]), step)
        })
        .collect();
    judge(&pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// criterion 0.8.2, `b.iter(|| spin(black_box(1000)))` at opt-level 0, as Valgrind 3.19 counted it
    /// here: the process's 13 dumps (12 calls of 1 to 2048 iterations, then the program's end). By hand:
    /// call 2 costs a + 2b = 120,728 and call 3 a + 4b = 240,948, so b = 240,220 / 2 = 60,110 and a = 508;
    /// call 12 is then 508 + 2048 × 60,110 = 123,105,788, as dumped.
    const SPIN_1000: [u64; 13] = [
        1_582_444,
        120_728,
        240_948,
        481_388,
        962_268,
        1_924_028,
        3_847_548,
        7_694_588,
        15_388_668,
        30_776_828,
        61_553_148,
        123_105_788,
        952_859,
    ];

    #[test]
    fn criterion_doublings_give_the_exact_count_per_iteration() {
        assert_eq!(
            criterion(&SPIN_1000),
            Estimate::Exact {
                per_iteration: 60_110,
                estimates: 9
            }
        );
    }

    /// criterion 0.5.1, seahash 4.1.0's `buffer/4096`, as Valgrind 3.19 counted it here: the process's
    /// start with call 1, then calls 2 to 18, then the program's end. By hand: call 3 costs a + 4b = 20,602
    /// and call 4 a + 8b = 40,886, so b = 20,284 / 4 = 5,071 and a = 318; call 2 (a + 2b = 10,460) is
    /// dumped at 10,464, 4 more, which the first two doublings being left out keeps out of the estimate.
    #[test]
    fn criterion_0_5_s_dearer_second_call_is_left_out() {
        let totals = [
            1_223_521,
            10_464,
            20_602,
            40_886,
            81_454,
            162_590,
            324_862,
            649_406,
            1_298_494,
            2_596_670,
            5_193_022,
            10_385_726,
            20_771_134,
            41_541_950,
            83_083_582,
            166_166_846,
            332_333_374,
            664_666_430,
            675_039,
        ];
        assert_eq!(
            criterion(&totals),
            Estimate::Exact {
                per_iteration: 5_071,
                estimates: 15
            }
        );
    }

    #[test]
    fn the_first_two_doublings_are_left_out_and_a_later_one_that_differs_is_not_exact() {
        // Call 1 (with the process's start) and call 2 may cost anything.
        let mut first = SPIN_1000;
        first[0] = 7;
        first[1] += 4;
        assert!(matches!(
            criterion(&first),
            Estimate::Exact {
                per_iteration: 60_110,
                ..
            }
        ));
        // Call 5 (16 iterations, `totals[4]`) 8 instructions dearer. By hand: doubling 4 is
        // (962,276 − 481,388) / 8 = 60,111, doubling 5 (1,924,028 − 962,276) / 16 = 60,109.5.
        let mut dearer = SPIN_1000;
        dearer[4] += 8;
        assert_eq!(
            criterion(&dearer),
            Estimate::NotExact {
                low: 60_109.5,
                high: 60_111.0
            }
        );
    }

    #[test]
    fn too_few_criterion_calls_have_no_boundaries() {
        assert_eq!(
            criterion(&SPIN_1000[..5]),
            Estimate::NoBoundaries { dumps: 5 }
        );
    }

    /// divan 0.1.21, `spin(black_box(300))` at opt-level 0, 4 samples, as Valgrind 3.19 counted it here
    /// (the start, then loop and gap per sample; the last gap is the program's end). By hand: the loops cost
    /// 1,816,132 at N = 100 and 3,631,832 at N = 200, so b = 1,815,700 / 100 = 18,157 and a = 432.
    const AT_100: [u64; 9] = [
        3_434_154_663,
        1_816_132,
        77_533,
        1_816_132,
        77_533,
        1_816_132,
        77_533,
        1_816_132,
        86_854,
    ];
    const AT_200: [u64; 9] = [
        3_434_222_457,
        3_631_832,
        150_733,
        3_631_832,
        150_733,
        3_631_832,
        150_733,
        3_631_832,
        92_259,
    ];

    #[test]
    fn divan_samples_at_two_sizes_give_the_exact_count_per_iteration() {
        assert_eq!(
            divan(4, (100, &AT_100), (200, &AT_200)),
            Estimate::Exact {
                per_iteration: 18_157,
                estimates: 4
            }
        );
    }

    #[test]
    fn a_divan_sample_that_differs_is_not_exact_and_a_wrong_shape_has_no_boundaries() {
        let mut varies = AT_200;
        varies[5] += 250;
        // Sample 3: (3,632,082 − 1,816,132) / 100 = 18,159.5.
        assert_eq!(
            divan(4, (100, &AT_100), (200, &varies)),
            Estimate::NotExact {
                low: 18_157.0,
                high: 18_159.5
            }
        );
        assert_eq!(
            divan(4, (100, &AT_100), (200, &AT_200[..7])),
            Estimate::NoBoundaries { dumps: 7 }
        );
    }
}
