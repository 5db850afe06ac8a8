//! The error budget of a bisection (`docs/bisect.md` §4): the steps a path takes at most, the comparisons
//! the error is spread over, and the confidence each comparison is made at.
//!
//! Must not: count the comparisons of a search (that is [`super::Search`]'s).

/// The most steps a search of a path of `commits` commits takes when none is skipped: ⌈log2 commits⌉.
pub fn max_steps(commits: usize) -> u32 {
    let mut steps = 0;
    while (1usize << steps) < commits.max(1) {
        steps += 1;
    }
    steps
}

/// The comparisons the error is budgeted over: the check that GOOD against BAD shows the change, then two
/// per step (the midpoint against GOOD, then against BAD): 2 ⌈log2 commits⌉ + 1.
pub fn budgeted_comparisons(commits: usize) -> u32 {
    2 * max_steps(commits) + 1
}

/// The confidence each comparison is made at so that the commit named is right with `confidence`
/// (Bonferroni over [`budgeted_comparisons`]): every comparison is wrong at most alpha / m of the time,
/// so that all the at most m comparisons the search makes are right together with at least 1 − alpha.
pub fn per_comparison_confidence(confidence: f64, commits: usize) -> f64 {
    1.0 - (1.0 - confidence) / f64::from(budgeted_comparisons(commits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_is_two_comparisons_per_step_and_the_initial_check() {
        assert_eq!(max_steps(1), 0);
        assert_eq!(max_steps(2), 1);
        assert_eq!(max_steps(8), 3);
        assert_eq!(max_steps(9), 4);
        assert_eq!(max_steps(16), 4);
        assert_eq!(budgeted_comparisons(16), 9);
        // 1 - 0.05 / 9
        let c = per_comparison_confidence(0.95, 16);
        assert!((c - 0.994_444_444_444_444_4).abs() < 1e-12, "{c}");
    }
}
